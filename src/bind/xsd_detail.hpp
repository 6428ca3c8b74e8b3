// Private to src/bind: the glue between xsd_traits' declarations and the per-type codecs.
// Each xsd_*.cpp specialises simple_codec<T> for its types and explicitly instantiates
// simple_traits_base<T>, so the public header stays declarations only.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "lather/bind/xsd.hpp"
#include "lather/xml/writer.hpp"

namespace lather::xsd::detail {
/// Encode into dst (room for (n+2)/3*4 resp. 2n chars); returns the characters written.
std::size_t base64_encode_to(std::span<const std::uint8_t> bytes, char* dst,
                             simd_level level = simd_level::automatic);
std::size_t hex_encode_to(std::span<const std::uint8_t> bytes, char* dst,
                          simd_level level = simd_level::automatic);
/// Element content known to hold no markup characters (numbers, base64, hex): written with
/// w.raw(), skipping the escape scan; the output's sink is offered the bytes afterwards so
/// long binary values stream out in bounded memory.
void write_markup_free(xml::writer& w, std::string_view text);
/// The same, encoded straight into the output: `encode(dst)` writes at most `size` characters
/// at dst and returns how many (base64 and hex need no stack copy).
template <class Encode>
void write_markup_free_in_place(xml::writer& w, std::size_t size, Encode&& encode) {
  w.raw({});  // closes an open start tag
  xml::output& out = w.out();
  out.commit(encode(out.prepare(size)));
  out.maybe_flush();
}
}  // namespace lather::xsd::detail

namespace lather::bind::detail {

/// Specialised per type with static parse(text, out), format(value, out), write(value, w) and
/// write_leaf(value, w, ns, local).
template <class T>
struct simple_codec;

template <class T>
errc simple_traits_base<T>::parse(std::string_view text, T& out) noexcept {
  return simple_codec<T>::parse(text, out);
}
template <class T>
void simple_traits_base<T>::format(const T& value, std::string& out) {
  simple_codec<T>::format(value, out);
}
template <class T>
void simple_traits_base<T>::write(const T& value, xml::writer& w) {
  simple_codec<T>::write(value, w);
}
template <class T>
void simple_traits_base<T>::write_leaf(const T& value, xml::writer& w, xml::leaf_namespace& ns,
                                       xml::ncname local) {
  simple_codec<T>::write_leaf(value, w, ns, local);
}

/// The leaf {ns}local whose text `format(dst)` writes straight into the output: at most
/// `max_text` bytes that need no escaping (numbers, booleans, dates, base64, hex).
template <class Format>
void write_formatted_leaf(xml::writer& w, xml::leaf_namespace& ns, xml::ncname local,
                          std::size_t max_text, const Format& format) {
  w.formatted_element(
      ns, local, max_text,
      [](const void* f, char* dst) -> std::size_t { return (*static_cast<const Format*>(f))(dst); },
      &format);
}

/// Runs `fn` with a std::string output that converts bad_alloc into an errc.
template <class Fn>
errc guarded(Fn&& fn) noexcept {
  try {
    return fn();
  } catch (...) {
    return errc::limit_exceeded;
  }
}

inline bool is_xml_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
inline bool is_digit(char c) noexcept {
  return static_cast<unsigned char>(c - '0') < 10;
}

}  // namespace lather::bind::detail
