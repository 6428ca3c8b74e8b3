// xsd:any and xsd:anyType: capture an element as standalone XML and re-emit it.
//
// Capture re-serialises the reader's events through a writer (no raw byte slicing, so it works
// on streamed input), declaring on the captured root every namespace it and its QName-valued
// xsi:type use but inherited from outside, so the text stands on its own.
#include <string>

#include "lather/bind/detail/core.hpp"

namespace lather::bind::detail {

namespace {

bool declared_here(const xml::reader& r, std::string_view prefix) {
  for (const xml::namespace_declaration& d : r.namespace_declarations())
    if (d.prefix == prefix) return true;
  return false;
}

/// Declare `prefix` with its in-scope binding when the element itself does not.
void inherit_prefix(const xml::reader& r, xml::writer& w, std::string_view prefix) {
  if (prefix == "xml" || declared_here(r, prefix)) return;
  std::optional<std::string_view> uri = r.lookup_namespace(prefix);
  if (!uri) return;
  if (prefix.empty() || !uri->empty()) w.declare_namespace(prefix, *uri);
}

std::string_view qname_prefix(std::string_view value) {
  value = xsd::detail::trim_xml_space(value);
  std::size_t colon = value.find(':');
  return colon == std::string_view::npos ? std::string_view{} : value.substr(0, colon);
}

/// Start tag of the reader's current element on the writer. `root` adds inherited bindings
/// (with `own_prefix`, also the one of the element's name); `rename_ns` replaces the name.
void copy_start(const xml::reader& r, xml::writer& w, bool root, bool own_prefix,
                const std::string_view* rename_ns, std::string_view rename_local) {
  w.raw({});  // close the parent's start tag so the declarations below go on this element
  for (const xml::namespace_declaration& d : r.namespace_declarations()) {
    // A renamed root drops the binding that only named it; the writer re-declares it
    // wherever it is still used.
    if (rename_ns != nullptr && !d.prefix.empty() && d.prefix == r.prefix()) continue;
    w.declare_namespace(d.prefix, d.uri);
  }
  if (root) {
    if (own_prefix) {
      inherit_prefix(r, w, r.prefix());
      // An element in no namespace must stay there wherever the text is pasted.
      if (r.ns().empty() && !declared_here(r, {})) w.declare_namespace({}, {});
    }
    for (const xml::attribute& a : r.attributes())
      if (!a.prefix.empty()) inherit_prefix(r, w, a.prefix);
  }
  // QName values in xsi:type must keep their prefix bound wherever the XML goes.
  for (const xml::attribute& a : r.attributes())
    if (a.local == "type" && a.ns == xsi_namespace) inherit_prefix(r, w, qname_prefix(a.value));
  if (rename_ns != nullptr)
    w.start_element(*rename_ns, rename_local);
  else
    w.start_element(r.ns(), r.local_name());
  for (const xml::attribute& a : r.attributes()) w.attribute(a.ns, a.local, a.value);
}

}  // namespace

bool capture_element(read_ctx& c, std::string& xml, bool keep_name) {
  xml::output out;
  xml::writer w{out};
  try {
    copy_start(c.r, w, true, keep_name, nullptr, {});
    std::uint32_t depth = 1;
    while (depth != 0) {
      xml::token t = c.r.next();
      switch (t) {
        case xml::token::start_element:
          copy_start(c.r, w, false, false, nullptr, {});
          ++depth;
          break;
        case xml::token::end_element:
          w.end_element();
          --depth;
          break;
        case xml::token::text:
          w.text(c.r.text());
          break;
        default:
          return fail_xml(c, t);
      }
    }
  } catch (const xml::error& e) {
    return fail(c, errc::xml_error, std::string("cannot capture xsd:any content: ") + e.what());
  }
  xml = out.take();
  return true;
}

void replay_element(xml::writer& w, std::string_view xml, bool rename, std::string_view ns,
                    std::string_view local) {
  if (!rename) {  // captured text is self-contained: copy it as is
    w.raw(xml);
    return;
  }
  xml::reader r;
  r.reset(xml);
  std::uint32_t depth = 0;
  for (xml::token t = r.next(); t != xml::token::end_document; t = r.next()) {
    switch (t) {
      case xml::token::start_element:
        copy_start(r, w, false, false, depth == 0 ? &ns : nullptr, local);
        ++depth;
        break;
      case xml::token::end_element:
        w.end_element();
        --depth;
        break;
      case xml::token::text:
        w.text(r.text());
        break;
      default:
        throw_write_error(errc::xml_error, "any_type holds malformed XML: " + r.error().message());
    }
  }
}

}  // namespace lather::bind::detail
