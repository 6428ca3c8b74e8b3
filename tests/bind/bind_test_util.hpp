// Helpers shared by the binding tests: write a value to a string, read one back.
#pragma once

#include <string>
#include <string_view>

#include "lather/bind/bind.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace lather::bind::test {

/// Serialise `value` as the root element {ns}local.
template <class T>
std::string to_xml(std::string_view ns, std::string_view local, const T& value) {
  xml::output out;
  xml::writer w{out};
  write(w, ns, local, value);
  w.end_document();
  return out.take();
}

/// Parse `doc` (root element) into `value`; returns the binding error (empty on success) and
/// checks that the document ends right after the root.
template <class T>
error_info from_xml(std::string_view doc, T& value, const read_options& opts = {}) {
  xml::reader r;
  r.reset(doc);
  xml::token t = r.next();
  if (t != xml::token::start_element) {
    error_info e;
    e.code = errc::xml_error;
    e.message = "no root element: " + r.error().message();
    return e;
  }
  error_info e = read(r, value, opts);
  if (!e && r.next() != xml::token::end_document) {
    e.code = errc::xml_error;
    e.message = "reader not left on the root's end tag";
  }
  return e;
}

}  // namespace lather::bind::test
