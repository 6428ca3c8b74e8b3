// Helpers shared by the xsd_* tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "lather/bind/xsd.hpp"
#include "lather/xml/writer.hpp"

namespace lather::bind::test {

template <class T>
errc parse(std::string_view text, T& out) {
  return xsd_traits<T>::parse(text, out);
}

/// Parse text that must be valid.
template <class T>
T parse_ok(std::string_view text) {
  T value{};
  EXPECT_EQ(xsd_traits<T>::parse(text, value), errc::ok) << '"' << text << '"';
  return value;
}

/// The error of parsing text (errc::ok if it parsed).
template <class T>
errc parse_error(std::string_view text) {
  T value{};
  return xsd_traits<T>::parse(text, value);
}

template <class T>
std::string format(const T& value) {
  std::string out;
  xsd_traits<T>::format(value, out);
  return out;
}

/// The text of the leaf element xsd_traits<T>::write_leaf writes ("" for <v/>); the element
/// must be exactly <v>text</v> or <v/> under its parent.
template <class T>
std::string leaf_text(const T& value) {
  static xml::output out;
  static xml::writer w{out};
  out.clear();
  w.reset();
  w.start_element("", "r");
  xml::leaf_namespace no_namespace{""};
  xsd_traits<T>::write_leaf(value, w, no_namespace, xml::ncname("v"));
  w.end_document();
  std::string_view doc = out.view();
  if (doc == "<r><v/></r>") return {};
  EXPECT_TRUE(doc.starts_with("<r><v>") && doc.ends_with("</v></r>")) << doc;
  doc.remove_prefix(6);
  doc.remove_suffix(8);
  return std::string(doc);
}

/// Parse then format: the canonical text of a valid lexical form.
template <class T>
std::string canonical(std::string_view text) {
  return format(parse_ok<T>(text));
}

}  // namespace lather::bind::test
