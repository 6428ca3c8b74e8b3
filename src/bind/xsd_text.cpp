// String-like types (string, normalizedString, token, anyURI), QName, and the shared helpers
// (error messages, writer/reader glue).
#include <array>
#include <cstdint>
#include <string>

#include "lather/xml/writer.hpp"
#include "xsd_detail.hpp"

namespace lather::xsd::detail {

void write_text(xml::writer& w, std::string_view text) {
  w.text(text);
}

void write_markup_free(xml::writer& w, std::string_view text) {
  w.raw(text);
  w.out().maybe_flush();
}

namespace {
// Name-character classes per byte: ASCII name characters, and every byte >= 0x80 (the UTF-8
// of a non-ASCII name character; the reader has already checked the encoding).
enum : std::uint8_t { name_char = 1, name_start = 2 };
constexpr std::array<std::uint8_t, 256> make_name_table() {
  std::array<std::uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    const bool start = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
    if (start) t[c] = name_start | name_char;
    if ((c >= '0' && c <= '9') || c == '-' || c == '.') t[c] = name_char;
  }
  return t;
}
constexpr std::array<std::uint8_t, 256> name_table = make_name_table();
}  // namespace

bind::errc split_qname(std::string_view text, std::string_view& prefix,
                       std::string_view& local) noexcept {
  text = trim_xml_space(text);
  // One pass: NCName (':' NCName)?, each part starting with a name-start character.
  const auto* const begin = reinterpret_cast<const unsigned char*>(text.data());
  const auto* const end = begin + text.size();
  const unsigned char* local_begin = begin;
  if (begin == end || !(name_table[*begin] & name_start)) return bind::errc::invalid_lexical;
  for (const unsigned char* p = begin + 1; p != end; ++p) {
    if (name_table[*p] & name_char) continue;
    if (*p != ':' || local_begin != begin || p + 1 == end || !(name_table[p[1]] & name_start))
      return bind::errc::invalid_lexical;
    local_begin = ++p;
  }
  const std::size_t prefix_size =
      local_begin == begin ? 0 : static_cast<std::size_t>(local_begin - begin - 1);
  prefix = text.substr(0, prefix_size);
  local = text.substr(static_cast<std::size_t>(local_begin - begin));
  return bind::errc::ok;
}

}  // namespace lather::xsd::detail

namespace lather::bind {

namespace {
// Short form of `text` for a message: at most 64 bytes (cut on a UTF-8 boundary), control
// characters shown as '?', so a hostile value cannot flood or break a log line.
void append_excerpt(std::string& msg, std::string_view text) {
  constexpr std::size_t max_bytes = 64;
  bool cut = false;
  if (text.size() > max_bytes) {
    std::size_t n = max_bytes;
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
    text = text.substr(0, n);
    cut = true;
  }
  for (char c : text) msg.push_back(static_cast<unsigned char>(c) < 0x20 || c == 0x7F ? '?' : c);
  if (cut) msg.append("...");
}
}  // namespace

std::string describe_value_error(errc code, std::string_view text, std::string_view type_name) {
  std::string msg = "\"";
  append_excerpt(msg, text);
  msg.append("\" ");
  switch (code) {
    case errc::out_of_range:
      msg.append("is out of range for xsd:");
      break;
    case errc::undeclared_prefix:
      msg.append("uses an undeclared prefix for xsd:");
      break;
    case errc::invalid_base64:
    case errc::invalid_hex:
    case errc::invalid_lexical:
      msg.append("is not a valid xsd:");
      break;
    default:
      msg.append("cannot be read as xsd:");
      msg.append(type_name);
      msg.append(" (");
      msg.append(describe(code));
      msg.append(")");
      return msg;
  }
  msg.append(type_name);
  if (code == errc::invalid_base64 || code == errc::invalid_hex) {
    msg.append(" (");
    msg.append(describe(code));
    msg.append(")");
  }
  return msg;
}

namespace detail {
namespace {

// whiteSpace="replace": tab, LF and CR become spaces.
void replace_space(std::string_view text, std::string& out) {
  out.assign(text);
  for (char& c : out)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
}

// whiteSpace="collapse": runs of whitespace become one space, leading/trailing removed.
void collapse_space(std::string_view text, std::string& out) {
  out.clear();
  text = xsd::detail::trim_xml_space(text);
  out.reserve(text.size());
  bool in_space = false;
  for (char c : text) {
    if (is_xml_space(c)) {
      in_space = true;
      continue;
    }
    if (in_space) out.push_back(' ');
    in_space = false;
    out.push_back(c);
  }
}

}  // namespace

template <>
struct simple_codec<std::string> {
  static errc parse(std::string_view text, std::string& out) noexcept {
    return guarded([&] {
      xsd::detail::assign_text(out, text);
      return errc::ok;
    });
  }
  static void format(const std::string& value, std::string& out) { out.append(value); }
  static void write(const std::string& value, xml::writer& w) { w.text(value); }
  static void write_leaf(const std::string& value, xml::writer& w, xml::leaf_namespace& ns,
                         xml::ncname local) {
    w.text_element(ns, local, value);
  }
};

// The three wrappers differ only in the whitespace rule applied on parse.
template <class T, void (*Normalise)(std::string_view, std::string&)>
struct string_wrapper_codec {
  static errc parse(std::string_view text, T& out) noexcept {
    return guarded([&] {
      Normalise(text, out.value);
      return errc::ok;
    });
  }
  static void format(const T& value, std::string& out) { out.append(value.value); }
  static void write(const T& value, xml::writer& w) { w.text(value.value); }
  static void write_leaf(const T& value, xml::writer& w, xml::leaf_namespace& ns,
                         xml::ncname local) {
    w.text_element(ns, local, value.value);
  }
};

template <>
struct simple_codec<xsd::normalized_string>
    : string_wrapper_codec<xsd::normalized_string, replace_space> {};
template <>
struct simple_codec<xsd::token> : string_wrapper_codec<xsd::token, collapse_space> {};
template <>
struct simple_codec<xsd::any_uri> : string_wrapper_codec<xsd::any_uri, collapse_space> {};

template struct simple_traits_base<std::string>;
template struct simple_traits_base<xsd::normalized_string>;
template struct simple_traits_base<xsd::token>;
template struct simple_traits_base<xsd::any_uri>;

}  // namespace detail

void xsd_traits<xsd::qname>::write(const xsd::qname& value, xml::writer& w) {
  const std::string_view prefix = w.prefix_for(value.ns);
  if (prefix.empty()) {
    w.text(value.local);
    return;
  }
  // prefix + ':' + local in one text call; names are short, so a small stack buffer usually
  // suffices.
  char buf[256];
  const std::size_t n = prefix.size() + 1 + value.local.size();
  if (n <= sizeof buf) {
    prefix.copy(buf, prefix.size());
    buf[prefix.size()] = ':';
    value.local.copy(buf + prefix.size() + 1, value.local.size());
    w.text({buf, n});
  } else {
    std::string text{prefix};
    text.push_back(':');
    text.append(value.local);
    w.text(text);
  }
}

void xsd_traits<xsd::qname>::write_leaf(const xsd::qname& value, xml::writer& w,
                                        xml::leaf_namespace& ns, xml::ncname local) {
  w.qname_element(ns, local, value.ns, value.local);
}

void xsd_traits<xsd::qname>::format(const xsd::qname& value, std::string& out) {
  if (!value.prefix.empty()) {
    out.append(value.prefix);
    out.push_back(':');
  }
  out.append(value.local);
}

}  // namespace lather::bind
