#include "read.hpp"

#include <stdexcept>
#include <vector>

#include "lather/soap/capture.hpp"

namespace lather::wsa::detail {

void read_text(xml::reader& r, std::string& out) {
  out.clear();
  if (r.is_empty_element()) {
    r.next();
    return;
  }
  for (xml::token t = r.next(); t != xml::token::end_element; t = r.next()) {
    if (t != xml::token::text) throw std::invalid_argument("a WS-Addressing value with markup");
    out += r.text();
    if (out.size() > max_text) throw std::invalid_argument("a WS-Addressing value too long");
  }
  // IRIs are whitespace-collapsed (xs:anyURI).
  const auto first = out.find_first_not_of(" \t\r\n");
  out.erase(0, first == std::string::npos ? out.size() : first);
  out.erase(out.find_last_not_of(" \t\r\n") + 1);
}

void for_each_child(xml::reader& r, const std::function<void()>& child) {
  if (r.is_empty_element()) {
    r.next();
    return;
  }
  for (xml::token t = r.next(); t != xml::token::end_element; t = r.next()) {
    if (t == xml::token::start_element)
      child();
    else if (t != xml::token::text || r.text().find_first_not_of(" \t\r\n") != std::string::npos)
      throw std::invalid_argument("unexpected content in a WS-Addressing header");
  }
}

void open_fragment(xml::reader& r, std::string_view text) {
  r.reset(text);
  for (xml::token t = r.next(); t != xml::token::start_element; t = r.next())
    if (t == xml::token::error || t == xml::token::end_document)
      throw std::invalid_argument("XML text that is not an element");
}

void copy_fragment(xml::writer& w, std::string_view text,
                   const std::function<void(xml::writer&)>& extra) {
  xml::reader r;
  open_fragment(r, text);
  xml::token t;
  std::vector<soap::namespace_binding> scope;
  w.raw("");  // the declarations below go on the copy's start tag
  for (const xml::namespace_declaration& d : r.namespace_declarations()) {
    w.declare_namespace(d.prefix, d.uri);
    scope.push_back({std::string(d.prefix), std::string(d.uri)});
  }
  w.start_element(r.ns(), r.local_name());
  for (const xml::attribute& a : r.attributes()) w.attribute(a.ns, a.local, a.value);
  if (extra) extra(w);
  if (!r.is_empty_element()) {
    for (t = r.next(); t != xml::token::end_element; t = r.next()) {
      if (t == xml::token::start_element)
        soap::copy_element(r, w, scope);
      else if (t == xml::token::text)
        w.text(r.text());
      else if (t == xml::token::error)
        throw std::invalid_argument("a reference parameter that is not well-formed XML");
    }
  } else {
    r.next();
  }
  w.end_element();
}

}  // namespace lather::wsa::detail
