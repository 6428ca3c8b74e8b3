// The non-template core of struct binding: the schema-order element loop, xsi handling and
// error paths. Everything here is shared by every bound type (see bind/detail/core.hpp).
#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <string>

#include "lather/bind/detail/core.hpp"
#include "lather/xml/name.hpp"

namespace lather::bind::detail {

namespace {

constexpr std::uint32_t attribute_segment = 0xFFFFFFFFu;
constexpr std::string_view soapenc_namespace = "http://schemas.xmlsoap.org/soap/encoding/";

/// The complex_vt of `vt`'s extension base, or nullptr.
const complex_vt* base_of(const complex_vt& vt) noexcept {
  return vt.base != nullptr ? &vt.base() : nullptr;
}

/// Concatenate message pieces (one allocation; avoids GCC 12's -Wrestrict false positive on
/// "literal" + std::string&&).
std::string cat(std::initializer_list<std::string_view> parts) {
  std::size_t n = 0;
  for (std::string_view p : parts) n += p.size();
  std::string s;
  s.reserve(n);
  for (std::string_view p : parts) s.append(p);
  return s;
}

bool is_space(std::string_view s) noexcept {
  for (char ch : s)
    if (ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r') return false;
  return true;
}

/// `text` shortened for messages (values can be megabytes).
std::string excerpt(std::string_view text) {
  constexpr std::size_t max = 40;
  if (text.size() <= max) return std::string(text);
  return cat({text.substr(0, max), "..."});
}

std::string element_label(std::string_view ns, std::string_view local) {
  std::string s = "'";
  s.append(local);
  s.append("'");
  if (!ns.empty()) {
    s.append(" in namespace '");
    s.append(ns);
    s.append("'");
  }
  return s;
}

/// Local names first (they differ early); the namespace only for the field whose name matched.
[[gnu::always_inline]] inline bool matches_element(const field_match& f, std::string_view ns,
                                                   std::string_view local,
                                                   std::uint32_t& alt) noexcept {
  if (f.kind != field_kind::element) return false;
  if (f.alternative_count == 0)
    return f.name().size() == local.size() && xml::same_name(f.name(), local) &&
           xml::same_name(f.ns, ns);
  for (std::uint32_t a = 0; a < f.alternative_count; ++a) {
    if (xml::same_name(f.alternative(a), local) && xml::same_name(f.ns, ns)) {
      alt = a;
      return true;
    }
  }
  return false;
}

bool counts_for_occurs(const field_match& f) noexcept {
  return f.kind == field_kind::element || f.kind == field_kind::any;
}

std::string_view display_name(const field_match& f, std::uint32_t alt) noexcept {
  if (f.kind == field_kind::any) return "*";
  if (f.alternative_count != 0) return f.alternative(alt);
  return f.name();
}

bool fail_missing(read_ctx& c, const field_match& f) {
  if (f.alternative_count != 0) {
    std::string d = "required choice is missing (one of";
    for (std::uint32_t a = 0; a < f.alternative_count; ++a) {
      d.append(a == 0 ? " '" : ", '");
      d.append(f.alternative(a));
      d.append("'");
    }
    d.append(")");
    return fail(c, errc::missing_element, std::move(d));
  }
  fail(c, errc::missing_element,
       f.kind == field_kind::any
           ? std::string("required wildcard element (xsd:any) is missing")
           : cat({"required element is missing (minOccurs=", std::to_string(f.min_occurs), ")"}));
  push_segment(c, display_name(f, 0), 0);
  return false;
}

struct resolved_qname {
  std::string_view ns;
  std::string_view local;
};

/// Resolve an xsi:type value against the namespaces in scope; false after recording an error.
bool resolve_type_qname(read_ctx& c, const xml::attribute& type, resolved_qname& out) {
  std::string_view prefix, local;
  std::string_view text = xsd::detail::trim_xml_space(type.value);
  if (xsd::detail::split_qname(text, prefix, local) != errc::ok)
    return fail(c, errc::invalid_lexical,
                cat({"xsi:type \"", excerpt(type.value), "\" is not a valid QName"}));
  std::optional<std::string_view> ns = c.r.lookup_namespace(prefix);
  if (!ns) {
    if (!prefix.empty())
      return fail(c, errc::undeclared_prefix,
                  cat({"xsi:type \"", excerpt(type.value), "\" uses the undeclared prefix '",
                       prefix, "'"}));
    ns = std::string_view{};
  }
  out = {*ns, local};
  return true;
}

bool same_type(const complex_vt& vt, const resolved_qname& q) noexcept {
  return vt.name == q.local && vt.ns == q.ns;
}

std::string type_label(std::string_view ns, std::string_view local) {
  if (ns == xsd_namespace) return cat({"xsd:", local});
  std::string s = "{";
  s.append(ns);
  s.append("}");
  s.append(local);
  return s;
}

/// The unknown field of a type (field_kind::unknown), or n where it has none.
std::uint32_t unknown_field(const field_match* fields, std::uint32_t n) noexcept {
  for (std::uint32_t j = 0; j < n; ++j)
    if (fields[j].kind == field_kind::unknown) return j;
  return n;
}

/// The general case of matching a child element to a field (read_complex_body handles the
/// field at the cursor and the next one inline): a later field, a wildcard, maxOccurs and
/// schema-order errors, skipping unknown elements. On found::yes `k` (and `alt`) name the field;
/// on found::kept `k` names the type's unknown field, which takes the element: one that no
/// field declares and no wildcard takes (a wildcard that would skip over a required field
/// included).
enum class found : std::uint8_t { yes, skipped, kept, no };
found find_field(read_ctx& c, const field_match* fields, std::uint32_t n,
                 const std::uint32_t* counts, std::uint32_t cursor, std::string_view ns,
                 std::string_view local, std::uint32_t& k, std::uint32_t& alt) {
  std::uint32_t full = n;
  for (std::uint32_t j = cursor; j < n; ++j) {
    // (A field of inline groups: the element may begin it, src/bind/group.cpp.)
    if (!matches_element(fields[j], ns, local, alt) &&
        !(fields[j].group && fields[j].routines->starts(fields[j], ns, local, alt) != 0))
      continue;
    if (counts[j] < fields[j].max_occurs) {
      k = j;
      break;
    }
    if (full == n) full = j;
  }
  const field_match* refused = nullptr;  // a wildcard with room whose namespaces exclude it
  if (k == n && full == n) {
    for (std::uint32_t j = cursor; j < n; ++j) {
      if (fields[j].kind == field_kind::any && counts[j] < fields[j].max_occurs) {
        if (!wildcard_allows(fields[j], ns)) {
          if (!refused) refused = &fields[j];
          continue;
        }
        k = j;
        break;
      }
    }
  }
  if (k == n) {
    if (full != n) {
      const field_match& f = fields[full];
      fail(c, errc::too_many,
           cat({"element occurs more often than maxOccurs=", std::to_string(f.max_occurs)}));
      push_segment(c, display_name(f, alt), f.max_occurs > 1 ? counts[full] + 1 : 0);
      return found::no;
    }
    for (std::uint32_t j = 0; j < cursor; ++j) {
      std::uint32_t a = 0;
      if (matches_element(fields[j], ns, local, a)) {
        fail(c, errc::unexpected_element,
             cat({"element ", element_label(ns, local),
                  " is out of schema order: it must come before '", display_name(fields[cursor], 0),
                  "'"}));
        return found::no;
      }
    }
    if (k = unknown_field(fields, n); k != n) return found::kept;
    if (c.opts.skip_unknown_elements) {
      const xml::token t = c.r.skip_element();
      if (t == xml::token::end_element) {
        count_skipped(c);
        return found::skipped;
      }
      fail_xml(c, t);
      return found::no;
    }
    std::string d = cat({"unexpected element ", element_label(ns, local)});
    if (refused)
      d.append(cat({" (the wildcard's namespace=\"", refused->default_value,
                    "\" does not allow its namespace)"}));
    for (std::uint32_t j = cursor; j < n; ++j) {
      if (fields[j].kind == field_kind::element && counts[j] < fields[j].max_occurs) {
        d.append(cat({"; expected '", display_name(fields[j], 0), "'"}));
        break;
      }
    }
    fail(c, errc::unexpected_element, std::move(d));
    return found::no;
  }
  for (std::uint32_t j = cursor; j < k; ++j) {
    if (counts_for_occurs(fields[j]) && counts[j] < fields[j].min_occurs) {
      if (fields[k].kind == field_kind::any) {  // a wildcard that would skip over it
        if (const std::uint32_t u = unknown_field(fields, n); u != n) {
          k = u;
          return found::kept;
        }
      }
      fail_missing(c, fields[j]);
      return found::no;
    }
  }
  return found::yes;
}

/// The element found::kept named (on its start tag) into the unknown field `k`, before the
/// field after the cursor's once the cursor's has occurred. Out of the element loop: a type
/// without an unknown field compiles nothing of it there.
[[gnu::noinline]] bool keep_unknown(read_ctx& c, const field_match* fields, std::uint32_t n,
                                    void* obj, std::uint32_t* counts, std::uint32_t cursor,
                                    std::uint32_t k) {
  const field_match& f = fields[k];
  if (counts[k] >= c.opts.max_occurs)
    return fail(c, errc::limit_exceeded,
                cat({"more than read_options::max_occurs (", std::to_string(c.opts.max_occurs),
                     ") unknown elements"}));
  std::uint32_t before = cursor;
  if (cursor < n && counts[cursor] != 0 && fields[cursor].kind != field_kind::unknown) ++before;
  if (!f.routines->read_elem(c, obj, counts[k], before, f)) return false;
  ++counts[k];
  return true;
}

}  // namespace

bool wildcard_allows(const field_match& f, std::string_view ns) noexcept {
  if (!f.wildcard_namespaces) return true;
  for (std::string_view list = f.default_value; !list.empty();) {
    const std::size_t start = list.find_first_not_of(" \t\r\n");
    if (start == std::string_view::npos) break;
    list.remove_prefix(start);
    const std::string_view t = list.substr(0, list.find_first_of(" \t\r\n"));
    list.remove_prefix(t.size());
    if (t == "##any" || (t == "##other" && ns != f.ns && !ns.empty()) ||
        (t == "##targetNamespace" && ns == f.ns) || (t == "##local" && ns.empty()) || t == ns)
      return true;
  }
  return false;
}

vt_list no_derived_vts() noexcept {
  return {};
}

xsi_attrs find_xsi(std::span<const xml::attribute> attributes) noexcept {
  xsi_attrs x;
  for (const xml::attribute& a : attributes) {
    if (a.ns.size() != xsi_namespace.size() || a.ns != xsi_namespace) continue;
    if (a.local == "nil")
      x.nil = &a;
    else if (a.local == "type")
      x.type = &a;
  }
  return x;
}

bool fail(read_ctx& c, errc code, std::string detail) {
  c.code = code;
  c.detail = std::move(detail);
  return false;
}

bool fail(read_ctx& c, errc code, const char* detail) {
  c.code = code;
  c.detail = detail;
  return false;
}

bool fail_not_simple(read_ctx& c, const field_match& f, bool attribute) {
  return fail(
      c, errc::xml_error,
      (attribute ? "not a simple attribute: " : "not a simple element: ") + std::string(f.name()));
}

bool fail_value(read_ctx& c, errc code, std::string_view text, std::string_view type_name) {
  return fail(c, code, describe_value_error(code, text, type_name));
}

bool fail_enum(read_ctx& c, std::string_view text, std::string_view type_name) {
  return fail(c, errc::unknown_enum,
              cat({"\"", excerpt(text), "\" is not a value of the enumeration ", type_name}));
}

bool fail_abstract(read_ctx& c, std::string_view type_name) {
  return fail(c, errc::bad_xsi_type,
              cat({"the declared type ", type_name, " is abstract: an xsi:type is required"}));
}

bool fail_abstract_xsi_type(read_ctx& c, std::string_view type_ns, std::string_view type_name) {
  return fail(c, errc::bad_xsi_type,
              cat({"xsi:type ", type_label(type_ns, type_name),
                   " names an abstract type: an element's type must be a concrete one"}));
}

bool fail_xml(read_ctx& c, xml::token t) {
  switch (t) {
    case xml::token::error:
      return fail(c, errc::xml_error, c.r.error().message());
    case xml::token::need_more:
      return fail(c, errc::xml_error,
                  "input ended inside the element (the reader needs more bytes and has no "
                  "source)");
    case xml::token::end_document:
      return fail(c, errc::xml_error, "unexpected end of document");
    default:
      return fail(c, errc::xml_error, "unexpected XML token");
  }
}

bool begin_read(read_ctx& c) {
  std::string_view local = c.r.local_name();
  if (local.empty()) return fail(c, errc::xml_error, "read() must start on an element's start tag");
  c.root_size = static_cast<std::uint32_t>(std::min(local.size(), c.root.size()));
  std::memcpy(c.root.data(), local.data(), c.root_size);
  return true;
}

error_info finish_read(read_ctx& c) {
  error_info e;
  e.code = c.code == errc::ok ? errc::xml_error : c.code;
  e.path.reserve(64);
  e.path.push_back('/');
  e.path.append(std::string_view(c.root.data(), c.root_size));
  for (auto it = c.segments.rbegin(); it != c.segments.rend(); ++it) {
    e.path.push_back('/');
    if (it->second == attribute_segment) {
      e.path.push_back('@');
      e.path.append(it->first);
      continue;
    }
    e.path.append(it->first);
    if (it->second != 0) {
      e.path.push_back('[');
      e.path.append(std::to_string(it->second));
      e.path.push_back(']');
    }
  }
  e.message.reserve(e.path.size() + 2 + c.detail.size());
  e.message.append(e.path);
  e.message.append(": ");
  e.message.append(c.detail);
  return e;
}

int nil_value(read_ctx& c, const xml::attribute& nil) {
  std::string_view v = xsd::detail::trim_xml_space(nil.value);
  if (v == "true" || v == "1") return 1;
  if (v == "false" || v == "0") return 0;
  fail(c, errc::invalid_lexical,
       cat({"xsi:nil ", describe_value_error(errc::invalid_lexical, nil.value, "boolean")}));
  return -1;
}

bool skip_nil_content(read_ctx& c) {
  xml::token t = c.r.skip_element();
  if (t != xml::token::end_element) return fail_xml(c, t);
  return true;
}

bool refuse_nil(read_ctx& c) {
  const int nil = nil_state(c);
  if (nil == 1) return fail(c, errc::nil_not_allowed, "xsi:nil on an element that is not nillable");
  return nil == 0;
}

namespace {
/// read_simple's work, the text parsed by parse(text).
template <class Parse>
bool read_simple_with(read_ctx& c, std::string_view type_name, const field_match* fm, Parse parse) {
  // Usually one call: the text and the end tag together (text() is then the content). A text
  // token is all of the text: the reader delivers one per run of character data.
  xml::token t = c.r.next_text_content();
  const bool at_end = t == xml::token::end_element;
  if (t == xml::token::start_element) {
    return fail(c, errc::unexpected_element,
                cat({"element ", element_label(c.r.ns(), c.r.local_name()),
                     " inside a simple-typed value"}));
  }
  if (!at_end && t != xml::token::text) return fail_xml(c, t);
  const std::string_view text = simple_text(c.r.text(), fm);
  errc e = parse(text);
  if (e != errc::ok) return fail_simple(c, e, text, type_name);
  if (!at_end) {
    t = c.r.next();
    if (t == xml::token::start_element)
      return fail(c, errc::unexpected_element,
                  cat({"element ", element_label(c.r.ns(), c.r.local_name()),
                       " inside a simple-typed value"}));
    if (t != xml::token::end_element) return fail_xml(c, t);
  }
  return true;
}
}  // namespace

bool read_simple(read_ctx& c, parse_fn parse, void* out, std::string_view type_name,
                 const field_match* fm) {
  // A field with facets (never read whole: fields() leaves it here) is told apart before the
  // parse, where fm is at hand anyway: the others keep nothing more across it.
  if (fm != nullptr && fm->has_facets) [[unlikely]] {
    if (const facets* x = facets_to_check(c, *fm))
      return read_simple_with(c, type_name, fm, [&](std::string_view text) {
        const errc e = parse(text, out, c.r);
        if (e != errc::ok || check_facets(c, *x, text)) return e;
        return errc::facet_violation;  // recorded: fail_simple does not record it again
      });
  }
  return read_simple_with(c, type_name, fm,
                          [&](std::string_view text) { return parse(text, out, c.r); });
}

bool read_enum_simple(read_ctx& c, const enum_codec& e, void* out, const field_match* fm) {
  return read_simple_with(c, e.name, fm, [&](std::string_view text) {
    return parse_enum_value(text, out, e, c.opts.keep_unknown_enums);
  });
}

bool fail_simple(read_ctx& c, errc e, std::string_view text, std::string_view type_name) {
  if (e == errc::facet_violation) return false;  // check_facets recorded it
  if (e == errc::unknown_enum) return fail_enum(c, text, type_name);
  return fail_value(c, e, text, type_name);
}

bool check_xsi_simple(read_ctx& c, const xml::attribute& type, std::string_view type_ns,
                      std::string_view type_name) {
  resolved_qname q;
  if (!resolve_type_qname(c, type, q)) return false;
  if (q.ns == xsd_namespace || q.ns == soapenc_namespace) return true;
  if (q.ns == type_ns && q.local == type_name) return true;
  return fail(c, errc::bad_xsi_type,
              cat({"xsi:type ", type_label(q.ns, q.local), " is not compatible with the declared ",
                   type_label(type_ns, type_name)}));
}

int check_xsi_complex(read_ctx& c, const xml::attribute& type, const complex_vt& declared,
                      bool polymorphic, bool keeps_unknown) {
  resolved_qname q;
  if (!resolve_type_qname(c, type, q)) return -2;
  if (same_type(declared, q)) return -1;
  vt_list derived = declared.derived();
  for (std::size_t k = 0; k < derived.size(); ++k) {
    if (!same_type(*derived[k], q)) continue;
    if (polymorphic) return static_cast<int>(k);
    fail(c, errc::bad_xsi_type,
         cat({"xsi:type ", type_label(q.ns, q.local), " derives from ",
              type_label(declared.ns, declared.name),
              " but the field holds the base type by value (bind it as a pointer)"}));
    return -2;
  }
  // Types lather knows are related to the declared one: its ancestors and their other
  // descendants. Naming one of those is an unrelated type; anything else is unknown.
  bool known = q.ns == xsd_namespace;
  for (const complex_vt* a = base_of(declared); a != nullptr && !known; a = base_of(*a)) {
    if (same_type(*a, q)) known = true;
    for (const complex_vt* d : a->derived())
      if (same_type(*d, q)) known = true;
  }
  if (!known && polymorphic && keeps_unknown && c.opts.keep_unknown_subtypes) return -3;
  if (known) {
    fail(c, errc::bad_xsi_type,
         cat({"xsi:type ", type_label(q.ns, q.local), " is not ",
              type_label(declared.ns, declared.name), " or a type derived from it"}));
  } else {
    fail(c, errc::unknown_xsi_type,
         cat({"xsi:type ", type_label(q.ns, q.local), " names a type with no binding (expected ",
              type_label(declared.ns, declared.name), " or a registered derived type)"}));
  }
  return -2;
}

namespace {

// The element loop's error messages, out of it: GCC weighs the loop's code when it decides
// what to inline there (the namespace compare of open_body: ~40 instructions per perf call).
[[gnu::noinline, gnu::cold]] void fail_text(read_ctx& c) {
  fail(c, errc::unexpected_element,
       cat({"unexpected text \"", excerpt(c.r.text()), "\" in element-only content"}));
}
[[gnu::noinline, gnu::cold]] void fail_occurrences(read_ctx& c, const field_match& f,
                                                   std::uint32_t alt, std::uint32_t count) {
  fail(c, errc::limit_exceeded,
       cat({"more than read_options::max_occurs (", std::to_string(c.opts.max_occurs),
            ") occurrences"}));
  push_segment(c, display_name(f, alt), count + 1);
}

/// The start of a complex value on its start tag: the depth check and the attributes, then
/// for simple content the text too (body_step::done). body_step::stopped: children follow,
/// `at` is on the first element field.
[[gnu::always_inline]] inline body_step open_body(read_ctx& c, const complex_vt& vt, void* obj,
                                                  std::uint32_t* counts, body_cursor& at) {
  if (++c.depth > c.opts.max_depth) {
    fail(c, errc::limit_exceeded,
         cat({"values nested deeper than read_options::max_depth (",
              std::to_string(c.opts.max_depth), ")"}));
    return body_step::failed;
  }
  const std::uint32_t n = vt.field_count;
  const field_match* fields = vt.fields;
  std::fill_n(counts, n, 0u);

  // Attributes come with the start tag, before the first next().
  for (std::uint32_t i = 0; i < n; ++i) {
    const field_match& f = fields[i];
    if (f.kind != field_kind::attribute) continue;
    if (!f.routines->read_attr(c, obj, c.r.find_attribute(f.ns, f.name()), f)) {
      push_segment(c, f.name(), attribute_segment);
      return body_step::failed;
    }
  }

  if (vt.text_field >= 0) {  // simple content: the text is the value
    const field_match& text = fields[vt.text_field];
    if (!text.routines->read_elem(c, obj, 0, 0, text)) return body_step::failed;
    counts[vt.text_field] = 1;
    if (vt.finalize) vt.finalize(vt, obj, counts);
    --c.depth;
    return body_step::done;
  }

  std::uint32_t cursor = 0;  // attributes are not in the element order
  while (cursor < n && fields[cursor].kind == field_kind::attribute) ++cursor;
  // Children read whole (read_whole) carry this element's prefix, so they are in its namespace:
  // compared here once with the two a read_whole field may have.
  const std::string_view body_ns = c.r.ns();
  at = {cursor, 0, xml::same_name(body_ns, vt.ns), body_ns.empty()};
  return body_step::stopped;
}

/// The children of a complex value from `at` through its end tag (body_step::done), or up to
/// the start tag of an element of field `stop` (body_step::stopped, the element unread and
/// not counted, `at` on it). stop == vt.field_count: never stops.
[[gnu::always_inline]] inline body_step read_children(read_ctx& c, const complex_vt& vt, void* obj,
                                                      std::uint32_t* counts, body_cursor& at,
                                                      std::uint32_t stop) {
  const std::uint32_t n = vt.field_count;
  const field_match* fields = vt.fields;
  const bool in_type_ns = at.in_type_ns, in_no_ns = at.in_no_ns;

  std::uint32_t cursor = at.field;
  for (;;) {
    // Schema order predicts the next element: the field at the cursor while it may occur
    // again, else the next one. A simple element that is plain on the wire is then read in one
    // reader call; anything else (another element, attributes, references, the end of a
    // streamed buffer...) takes the general way below.
    std::uint32_t next = n;
    if (cursor < n) {
      const field_match& at_cursor = fields[cursor];
      if (counts[cursor] < at_cursor.max_occurs)
        next = cursor;
      else if (counts[cursor] >= at_cursor.min_occurs)
        next = at_cursor.next_element;
    }
    if (next < n && next != stop) {
      const field_match& f = fields[next];
      if (f.read_whole && (f.leaf_in_type_ns ? in_type_ns : in_no_ns) &&
          counts[next] < c.opts.max_occurs && c.r.next_simple_element(f.name())) {
        if (!f.routines->read_leaf(c, obj, counts[next], f)) {
          push_segment(c, f.name(), f.max_occurs > 1 ? counts[next] + 1 : 0);
          return body_step::failed;
        }
        ++counts[next];
        cursor = next;
        continue;
      }
    }
    xml::token t = c.r.next();
    if (t == xml::token::end_element) break;
    if (t == xml::token::text) {
      if (is_space(c.r.text())) continue;
      fail_text(c);
      return body_step::failed;
    }
    if (t != xml::token::start_element) {
      fail_xml(c, t);
      return body_step::failed;
    }

    const std::string_view ns = c.r.ns();
    const std::string_view local = c.r.local_name();
    // Schema order: the element belongs to the field at the cursor or a later one. A field
    // that already reached maxOccurs gives way to a later field of the same name.
    std::uint32_t alt = 0;
    std::uint32_t k = n;
    if (cursor < n && matches_element(fields[cursor], ns, local, alt) &&
        counts[cursor] < fields[cursor].max_occurs) {
      k = cursor;  // fast path: the field at the cursor repeats
    } else if (cursor + 1 < n && matches_element(fields[cursor + 1], ns, local, alt) &&
               counts[cursor + 1] < fields[cursor + 1].max_occurs) {
      // fast path: the next field in schema order
      if (counts_for_occurs(fields[cursor]) && counts[cursor] < fields[cursor].min_occurs) {
        fail_missing(c, fields[cursor]);
        return body_step::failed;
      }
      k = cursor + 1;
    } else {
      const found r = find_field(c, fields, n, counts, cursor, ns, local, k, alt);
      if (r == found::no) return body_step::failed;
      if (r == found::skipped) continue;
      if (r == found::kept) {
        if (!keep_unknown(c, fields, n, obj, counts, cursor, k)) return body_step::failed;
        continue;
      }
    }
    if (k == stop) {  // the caller reads this element (a sequence read item by item)
      at.field = k;
      at.alt = alt;
      return body_step::stopped;
    }
    const field_match& f = fields[k];
    if (counts[k] >= c.opts.max_occurs) {
      fail_occurrences(c, f, alt, counts[k]);
      return body_step::failed;
    }
    if (!f.routines->read_elem(c, obj, counts[k], alt, f)) {
      push_segment(c, display_name(f, alt), f.max_occurs > 1 ? counts[k] + 1 : 0);
      return body_step::failed;
    }
    ++counts[k];
    cursor = k;
  }
  for (std::uint32_t j = cursor; j < n; ++j) {
    if (counts_for_occurs(fields[j]) && counts[j] < fields[j].min_occurs) {
      fail_missing(c, fields[j]);
      return body_step::failed;
    }
  }
  if (vt.finalize) vt.finalize(vt, obj, counts);
  --c.depth;
  return body_step::done;
}

}  // namespace

bool read_complex_body(read_ctx& c, const complex_vt& vt, void* obj, std::uint32_t* counts) {
  body_cursor at;
  const body_step s = open_body(c, vt, obj, counts, at);
  if (s != body_step::stopped) return s == body_step::done;
  return read_children(c, vt, obj, counts, at, vt.field_count) == body_step::done;
}

body_step open_complex_body(read_ctx& c, const complex_vt& vt, void* obj, std::uint32_t* counts,
                            body_cursor& at) {
  return open_body(c, vt, obj, counts, at);
}

body_step read_complex_children(read_ctx& c, const complex_vt& vt, void* obj, std::uint32_t* counts,
                                body_cursor& at, std::uint32_t stop) {
  return read_children(c, vt, obj, counts, at, stop);
}

void push_field_segment(read_ctx& c, const field_match& f, std::uint32_t count, std::uint32_t alt) {
  push_segment(c, display_name(f, alt), f.max_occurs > 1 ? count + 1 : 0);
}

void write_xsi_type(xml::writer& w, std::string_view ns, std::string_view name) {
  std::string value{w.prefix_for(ns)};
  if (!value.empty()) value.push_back(':');
  value.append(name);
  w.attribute(xsi_namespace, xml::ncname("type"), value);
}

namespace {
template <class Name>
void write_nil_element(xml::writer& w, std::string_view ns, Name local) {
  w.start_element(ns, local);
  w.attribute(xsi_namespace, xml::ncname("nil"), "true");
  w.end_element();
}
}  // namespace

void write_nil(xml::writer& w, std::string_view ns, std::string_view local) {
  write_nil_element(w, ns, local);
}

void write_nil(xml::writer& w, std::string_view ns, xml::ncname local) {
  write_nil_element(w, ns, local);
}

void throw_write_error(errc code, std::string message) {
  throw error(error_info{code, {}, std::move(message)});
}

void throw_unknown_enum(long long value, std::string_view type_name) {
  throw_write_error(errc::unknown_enum, cat({"value ", std::to_string(value), " is not in meta<",
                                             type_name, ">::values"}));
}

void throw_unregistered_type(std::string_view base_name) {
  throw_write_error(errc::unknown_xsi_type,
                    cat({"the dynamic type of a ", base_name, " value is not listed in meta<",
                         base_name, ">::derived"}));
}

namespace {
/// The write error in flight (call in a catch handler) as an error_info; rethrows anything
/// that is neither lather's binding nor its writer error.
error_info write_error_in_flight() {
  try {
    throw;
  } catch (const error& e) {
    return e.info();
  } catch (const xml::error& e) {
    return error_info{errc::xml_error, {}, e.what()};
  }
}
}  // namespace

void rethrow_in_element(std::string_view name) {
  throw error(enclose(write_error_in_flight(), name));
}

void rethrow_in_attribute(std::string_view name) {
  throw error(enclose(write_error_in_flight(), cat({"@", name})));
}

void rethrow_in_item(std::size_t index) {
  error_info e = write_error_in_flight();
  const std::string suffix = cat({"[", std::to_string(index), "]"});
  // The path starts with the item's own "/name" (rethrow_in_element ran first).
  const std::size_t end = std::min(e.path.find('/', 1), e.path.size());
  if (e.message.starts_with(e.path)) e.message.insert(end, suffix);
  e.path.insert(end, suffix);
  throw error(std::move(e));
}

void rethrow_as_write_error() {
  throw error(write_error_in_flight());
}

}  // namespace lather::bind::detail
