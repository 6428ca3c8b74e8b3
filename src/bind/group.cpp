// Inline model groups (meta<T>::group, docs/binding.md "Inline groups"): a group's elements
// read in place, in the content of the element that holds it. Apart from core.cpp, whose
// element loop GCC compiles with less inlining once this code shares its file (the long name
// compare called instead: ~115 instructions more per perf call, callgrind).
#include <alloca.h>

#include <algorithm>
#include <string>

#include "lather/bind/detail/core.hpp"

namespace lather::bind::detail {

namespace {

/// Whether element {ns}local is one of field `f`'s (its name, or a choice alternative's,
/// whose index goes to `alt`).
bool named(const field_match& f, std::string_view ns, std::string_view local,
           std::uint32_t& alt) noexcept {
  if (f.kind != field_kind::element || f.ns != ns) return false;
  if (f.alternative_count == 0) return f.name() == local;
  for (std::uint32_t a = 0; a < f.alternative_count; ++a)
    if (f.alternative(a) == local) return alt = a, true;
  return false;
}

/// A field of inline groups (field_match::group) that the element may begin.
int begins(const field_match& f, std::string_view ns, std::string_view local, std::uint32_t& alt) {
  return f.group ? f.routines->starts(f, ns, local, alt) : 0;
}

bool counted(const field_match& f) noexcept {
  return f.kind == field_kind::element || f.kind == field_kind::any;
}

bool fail_group_missing(read_ctx& c, const field_match& f) {
  fail(c, errc::missing_element,
       std::string("required element is missing (minOccurs=") + std::to_string(f.min_occurs) + ")");
  push_segment(c,
               f.kind == field_kind::any  ? std::string_view("*")
               : f.alternative_count != 0 ? f.alternative(0)
                                          : f.name(),
               0);
  return false;
}

}  // namespace

int group_starts(const complex_vt& vt, std::string_view ns, std::string_view local) noexcept {
  int wildcard = 0;
  for (std::uint32_t i = 0; i < vt.field_count; ++i) {
    const field_match& f = vt.fields[i];
    if (f.kind == field_kind::any && wildcard_allows(f, ns)) wildcard = 2;
    if (f.kind == field_kind::element) {
      std::uint32_t alt = 0;
      if (named(f, ns, local, alt)) return 1;
      if (const int s = begins(f, ns, local, alt); s != 0) {
        if (s == 1) return 1;
        wildcard = 2;
      }
    }
    if (counted(f) && f.min_occurs > 0) break;
  }
  return wildcard;
}

bool read_group(read_ctx& c, const complex_vt& vt, void* obj) {
  if (++c.depth > c.opts.max_depth)
    return fail(c, errc::limit_exceeded,
                std::string("values nested deeper than read_options::max_depth (") +
                    std::to_string(c.opts.max_depth) + ")");
  const std::uint32_t n = vt.field_count;
  const field_match* fields = vt.fields;
  auto* counts = static_cast<std::uint32_t*>(alloca(sizeof(std::uint32_t) * (n + 1)));
  std::fill_n(counts, n, 0u);
  // The first missing field from `j` on, or n.
  const auto missing = [&](std::uint32_t j) {
    for (; j < n; ++j)
      if (counted(fields[j]) && counts[j] < fields[j].min_occurs) return j;
    return n;
  };
  std::uint32_t cursor = 0;
  xml::token t = xml::token::start_element;  // the element that begins the group
  for (bool first = true;; first = false) {
    if (!first) t = c.r.next();
    if (t == xml::token::text) {
      if (c.r.text().find_first_not_of(" \t\r\n") == std::string_view::npos) continue;
      return fail(c, errc::unexpected_element, "unexpected text in element-only content");
    }
    if (t == xml::token::end_element) {  // the enclosing element's: it ends the group
      c.r.unread(t);
      break;
    }
    if (t != xml::token::start_element) return fail_xml(c, t);
    const std::string_view ns = c.r.ns();
    const std::string_view local = c.r.local_name();
    // Schema order, as the element loop: a named field (or a nested group) first, else a
    // wildcard.
    std::uint32_t alt = 0, k = n;
    for (std::uint32_t j = cursor; j < n && k == n; ++j)
      if (counts[j] < fields[j].max_occurs &&
          (named(fields[j], ns, local, alt) || begins(fields[j], ns, local, alt) != 0))
        k = j;
    for (std::uint32_t j = cursor; j < n && k == n; ++j)
      if (fields[j].kind == field_kind::any && counts[j] < fields[j].max_occurs &&
          wildcard_allows(fields[j], ns))
        k = j;
    if (k == n) {
      // Not the group's: the group ends before it when it is complete (the caller takes it).
      const std::uint32_t m = missing(cursor);
      if (m == n && !first) {
        c.r.unread(t);
        break;
      }
      if (c.opts.skip_unknown_elements && !first) {
        const xml::token s = c.r.skip_element();
        if (s != xml::token::end_element) return fail_xml(c, s);
        count_skipped(c);
        continue;
      }
      if (m != n) return fail_group_missing(c, fields[m]);
      return fail(c, errc::unexpected_element,
                  std::string("unexpected element '")
                      .append(local)
                      .append("' in namespace '")
                      .append(ns)
                      .append("'"));
    }
    if (const std::uint32_t m = missing(cursor); m < k) return fail_group_missing(c, fields[m]);
    const field_match& f = fields[k];
    if (counts[k] >= c.opts.max_occurs) {
      fail(c, errc::limit_exceeded,
           std::string("more than read_options::max_occurs (") + std::to_string(c.opts.max_occurs) +
               ") occurrences");
      push_field_segment(c, f, counts[k], alt);
      return false;
    }
    if (!f.routines->read_elem(c, obj, counts[k], alt, f)) {
      push_field_segment(c, f, counts[k], alt);
      return false;
    }
    ++counts[k];
    cursor = k;
  }
  if (const std::uint32_t m = missing(cursor); m != n) return fail_group_missing(c, fields[m]);
  if (vt.finalize) vt.finalize(vt, obj, counts);
  --c.depth;
  return true;
}

}  // namespace lather::bind::detail
