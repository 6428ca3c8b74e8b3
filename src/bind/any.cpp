// xsd:any and xsd:anyType: capture an element as standalone XML and re-emit it. xsd:anyAttribute:
// keep the attributes a type does not declare, and write them back.
//
// Capture re-serialises the reader's events through a writer (no raw byte slicing, so it works
// on streamed input), declaring on the captured root every namespace it and its QName-valued
// xsi:type use but inherited from outside, so the text stands on its own.
#include <string>
#include <vector>

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

/// The prefixes the reader's current element uses (its name's, its attributes', its
/// xsi:type value's) that are bound outside it and that the writer does not have bound to the
/// same namespace already (capture_element's `faithful`). Asked before the element declares
/// anything: the writer answers nothing while declarations are pending.
std::vector<std::string_view> prefixes_to_carry(const xml::reader& r, const xml::writer& w,
                                                bool root) {
  std::vector<std::string_view> carry;
  const auto want = [&](std::string_view prefix) {
    // An unprefixed child keeps the writer's own choice (no query for a default namespace).
    if ((prefix.empty() && !root) || prefix == "xml" || declared_here(r, prefix)) return;
    for (std::string_view p : carry)
      if (p == prefix) return;
    std::optional<std::string_view> uri = r.lookup_namespace(prefix);
    if (!uri || (!prefix.empty() && w.prefix_in_scope(*uri) == prefix)) return;
    carry.push_back(prefix);
  };
  want(r.prefix());
  for (const xml::attribute& a : r.attributes()) {
    if (!a.prefix.empty()) want(a.prefix);
    if (a.local == "type" && a.ns == xsi_namespace) want(qname_prefix(a.value));
  }
  return carry;
}

/// Start tag of the reader's current element on the writer. `root` adds inherited bindings
/// (with `own_prefix`, also the one of the element's name); `rename_ns` replaces the name;
/// `faithful` as capture_element's.
void copy_start(const xml::reader& r, xml::writer& w, bool root, bool own_prefix, bool faithful,
                const std::string_view* rename_ns, std::string_view rename_local) {
  const std::vector<std::string_view> carry =
      faithful ? prefixes_to_carry(r, w, root) : std::vector<std::string_view>{};
  w.raw({});  // close the parent's start tag so the declarations below go on this element
  for (const xml::namespace_declaration& d : r.namespace_declarations()) {
    // A renamed root drops the binding that only named it; the writer re-declares it
    // wherever it is still used.
    if (rename_ns != nullptr && !d.prefix.empty() && d.prefix == r.prefix()) continue;
    w.declare_namespace(d.prefix, d.uri);
  }
  if (faithful) {
    for (std::string_view prefix : carry) inherit_prefix(r, w, prefix);
    if (root && r.ns().empty() && !declared_here(r, {})) w.declare_namespace({}, {});
  } else if (root) {
    if (own_prefix) {
      inherit_prefix(r, w, r.prefix());
      // An element in no namespace must stay there wherever the text is pasted.
      if (r.ns().empty() && !declared_here(r, {})) w.declare_namespace({}, {});
    }
    for (const xml::attribute& a : r.attributes())
      if (!a.prefix.empty()) inherit_prefix(r, w, a.prefix);
  }
  // QName values in xsi:type must keep their prefix bound wherever the XML goes.
  if (!faithful)
    for (const xml::attribute& a : r.attributes())
      if (a.local == "type" && a.ns == xsi_namespace) inherit_prefix(r, w, qname_prefix(a.value));
  if (rename_ns != nullptr)
    w.start_element(*rename_ns, rename_local);
  else
    w.start_element(r.ns(), r.local_name());
  for (const xml::attribute& a : r.attributes()) w.attribute(a.ns, a.local, a.value);
}

/// Writes the captured element `xml` again: `start(r, depth)` writes each start tag (depth 0:
/// the root's), the rest is copied. `holder` names what held it, for the error.
template <class Start>
void replay(std::string_view xml, xml::writer& w, std::string_view holder, Start start) {
  xml::reader r;
  r.reset(xml);
  std::uint32_t depth = 0;
  for (xml::token t = r.next(); t != xml::token::end_document; t = r.next()) {
    switch (t) {
      case xml::token::start_element:
        start(r, depth);
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
        throw_write_error(errc::xml_error,
                          std::string(holder) + " holds malformed XML: " + r.error().message());
    }
  }
}

}  // namespace

bool capture_element(read_ctx& c, std::string& xml, bool keep_name, bool faithful) {
  xml::output out;
  xml::writer w{out};
  try {
    copy_start(c.r, w, true, keep_name, faithful, nullptr, {});
    std::uint32_t depth = 1;
    while (depth != 0) {
      xml::token t = c.r.next();
      switch (t) {
        case xml::token::start_element:
          copy_start(c.r, w, false, false, faithful, nullptr, {});
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
  replay(xml, w, "any_type", [&](const xml::reader& r, std::uint32_t depth) {
    copy_start(r, w, false, false, false, depth == 0 ? &ns : nullptr, local);
  });
}

void write_unknown_subtype(xml::writer& w, std::string_view ns, std::string_view local,
                           const retained_subtype& kept) {
  replay(kept.xml, w, "unknown_subtype", [&](const xml::reader& r, std::uint32_t depth) {
    // The declarations received (the capture carried those the element used from outside
    // under their own prefixes), but those the writer has in scope as they are and xmlns=""
    // (the writer undeclares a default namespace where an element needs it). Asked before any
    // is made: the writer answers nothing while declarations are pending.
    std::vector<const xml::namespace_declaration*> declare;
    for (const xml::namespace_declaration& d : r.namespace_declarations()) {
      if (d.uri.empty() || (!d.prefix.empty() && w.prefix_in_scope(d.uri) == d.prefix)) continue;
      // An element written in no namespace cannot carry a default one.
      if (depth == 0 && d.prefix.empty() && ns.empty()) continue;
      declare.push_back(&d);
    }
    w.raw({});  // the declarations go on the element that starts next
    for (const xml::namespace_declaration* d : declare) w.declare_namespace(d->prefix, d->uri);
    if (depth == 0) {
      w.start_element(ns, local);
      write_xsi_type(w, kept.type.ns, kept.type.local);
    } else {
      w.start_element(r.ns(), r.local_name());
    }
    for (const xml::attribute& a : r.attributes())
      if (depth != 0 || a.local != "type" || a.ns != xsi_namespace)
        w.attribute(a.ns, a.local, a.value);
  });
}

// Here, not in core.cpp: beside the element loop there, GCC inlines less of it (callgrind: +48
// instructions per call of the perf client).
bool read_unknown_subtype(read_ctx& c, const xml::attribute& type, const complex_vt& vt, void* obj,
                          retained_subtype& kept) {
  if (c.kept_depth >= max_kept_nesting)
    return fail(
        c, errc::limit_exceeded,
        "unknown subtypes kept inside one another deeper than " + std::to_string(max_kept_nesting));
  // check_xsi_complex resolved the QName already: its prefix is bound, or it has none.
  std::string_view prefix, local;
  xsd::detail::split_qname(xsd::detail::trim_xml_space(type.value), prefix, local);
  kept.type.ns.assign(c.r.lookup_namespace(prefix).value_or(std::string_view{}));
  kept.type.local.assign(local);
  kept.type.prefix.assign(prefix);
  if (!capture_element(c, kept.xml, true, true)) return false;
  // The declared type's content, read again from what was kept: the element's other elements
  // (the subtype's own) are skipped, as are attributes no type declares.
  xml::reader r;
  r.reset(kept.xml);
  if (r.next() != xml::token::start_element)
    return fail(c, errc::xml_error, "the kept element cannot be read again");
  read_options tolerant = c.opts;
  tolerant.skip_unknown_elements = true;
  tolerant.count_unknown = nullptr;  // kept: they are in the kept element
  read_ctx inner{r, tolerant};
  inner.depth = c.depth;
  inner.kept_depth = c.kept_depth + 1;
  if (read_table_body(inner, vt, obj)) return true;
  c.segments.insert(c.segments.end(), inner.segments.begin(), inner.segments.end());
  return fail(c, inner.code, std::move(inner.detail));
}

bool read_unknown_element(read_ctx& c, unknown_elements& m, std::uint32_t occ,
                          std::uint32_t field) {
  std::vector<unknown_element>& items = m.elements;
  if (occ >= items.size()) items.emplace_back();  // occ: the elements read so far
  unknown_element& e = items[occ];
  e.field = field;
  e.xml.clear();
  // Faithful: the prefixes it received, those of its descendants too.
  if (!capture_element(c, e.xml, true, true)) return false;
  if (c.opts.count_unknown != nullptr)
    c.opts.count_unknown->kept.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void count_skipped(const read_ctx& c) noexcept {
  if (c.opts.count_unknown != nullptr)
    c.opts.count_unknown->skipped.fetch_add(1, std::memory_order_relaxed);
}

void trim_unknown(unknown_elements& m, std::uint32_t count) {
  if (m.elements.size() > count) m.elements.resize(count);
}

void write_unknown(xml::writer& w, const unknown_elements& m, std::uint32_t from,
                   std::uint32_t to) {
  for (const unknown_element& e : m.elements)
    if (e.field >= from && e.field <= to) replay_element(w, e.xml, false, {}, {});
}

namespace {
unknown_elements& unknown_member(void* obj, const field_match& f) noexcept {
  return *reinterpret_cast<unknown_elements*>(static_cast<char*>(obj) + f.offset);
}
const unknown_elements& unknown_member(const void* obj, const field_match& f) noexcept {
  return *reinterpret_cast<const unknown_elements*>(static_cast<const char*>(obj) + f.offset);
}
bool read_unknown_field(read_ctx& c, void* obj, std::uint32_t occ, std::uint32_t field,
                        const field_match& f) {
  return read_unknown_element(c, unknown_member(obj, f), occ, field);
}
void finalize_unknown_field(void* obj, std::uint32_t count, const field_match& f) {
  trim_unknown(unknown_member(obj, f), count);
}
/// write_table puts the elements among the others (field_match::keeps_unknown); a caller that
/// writes the field alone writes them all.
void write_unknown_field(xml::writer& w, const void* obj, const field_match& f,
                         xml::leaf_namespace&) {
  write_unknown(w, unknown_member(obj, f), 0, unknown_element::at_end);
}
}  // namespace

constinit const field_codec unknown_routines = [] {
  field_codec r{};
  r.read_elem = &read_unknown_field;
  r.finalize = &finalize_unknown_field;
  r.write = &write_unknown_field;
  r.type = &describe<unknown_elements>;
  return r;
}();

void throw_abstract_type(std::string_view ns, std::string_view name) {
  std::string label = ns == xsd_namespace ? "xsd:" + std::string(name)
                                          : "{" + std::string(ns) + "}" + std::string(name);
  throw_write_error(errc::bad_xsi_type,
                    "the object's type " + label +
                        " is abstract: no element may have it as its type, named by xsi:type or "
                        "not (XSD cvc-type 2); write an object of a concrete derived type");
}

namespace {

constexpr std::string_view soapenc11_namespace = "http://schemas.xmlsoap.org/soap/encoding/";
constexpr std::string_view soapenc12_namespace = "http://www.w3.org/2003/05/soap-encoding";
// The SOAP envelope namespaces: on a header entry their attributes (mustUnderstand, actor/role,
// relay; encodingStyle on any element) are the SOAP layer's processing instructions for the
// node that reads the message, not the content of the entry's type.
constexpr std::string_view soapenv11_namespace = "http://schemas.xmlsoap.org/soap/envelope/";
constexpr std::string_view soapenv12_namespace = "http://www.w3.org/2003/05/soap-envelope";

/// Whether an attribute in namespace `ns` is the binding's or SOAP's own, never an
/// anyAttribute's on read: XML Schema instance, SOAP encoding, SOAP envelope (1.1 and 1.2).
bool processing_attribute(std::string_view ns) noexcept {
  return ns == xsi_namespace || ns == soapenc11_namespace || ns == soapenc12_namespace ||
         ns == soapenv11_namespace || ns == soapenv12_namespace;
}

/// Whether an attribute field other than the xsd:anyAttribute field `f` of f's type is
/// {ns}local (`f` knows its position in its type's fields: field_match::any_attributes).
bool declared_attribute(const field_match& f, std::string_view ns, std::string_view local) {
  const field_match* const fields = &f - f.min_occurs;
  for (std::uint32_t i = 0; i < f.max_occurs; ++i) {
    const field_match& d = fields[i];
    if (d.kind == field_kind::attribute && !d.any_attributes && d.name() == local && d.ns == ns)
      return true;
  }
  return false;
}

}  // namespace

bool capture_attributes(read_ctx& c, const field_match& f, any_attributes& out) {
  std::vector<wildcard_attribute>& items = out.items;
  std::size_t n = 0;
  for (const xml::attribute& a : c.r.attributes()) {
    // The binding's own (xsi:type, xsi:nil, ...; SOAP-ENC ids and arrays), SOAP's
    // (mustUnderstand, actor/role, relay, encodingStyle), a declared attribute's, or outside
    // the wildcard's namespaces: not the wildcard's.
    if (processing_attribute(a.ns) || declared_attribute(f, a.ns, a.local) ||
        !wildcard_allows(f, a.ns))
      continue;
    if (n < items.size()) {  // a reused destination: its strings reused
      wildcard_attribute& x = items[n];
      x.ns.assign(a.ns);
      x.local.assign(a.local);
      x.value.assign(a.value);
    } else {
      items.push_back({std::string(a.ns), std::string(a.local), std::string(a.value)});
    }
    ++n;
  }
  while (items.size() > n) items.pop_back();
  return true;
}

void write_any_attributes(xml::writer& w, const field_match& f, const any_attributes& a) {
  for (const wildcard_attribute& x : a.items) {
    try {
      if (x.ns == xsi_namespace)
        throw_write_error(errc::xml_error,
                          "an xsi attribute is the binding's to write, not an anyAttribute's");
      if (declared_attribute(f, x.ns, x.local))
        throw_write_error(errc::xml_error,
                          "the type declares this attribute: it cannot be an anyAttribute's too");
      w.attribute(x.ns, x.local, x.value);
    } catch (...) {
      rethrow_in_attribute(x.local);
    }
  }
}

}  // namespace lather::bind::detail
