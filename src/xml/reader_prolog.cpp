// The XML reader outside the root element: BOM and XML declaration, prolog and epilog.
#include "reader_impl.hpp"

#include <algorithm>
#include <cstring>

namespace lather::xml {

using namespace detail;  // the reader's private helpers: reader_chars.hpp, scan.hpp

inline st reader::impl::parse_declaration(const char* p, const char* end, const char*& q) {
  const char* s = p + 5;  // after "<?xml"
  auto space = [&]() -> bool {
    const char* t = s;
    while (s != end && is_space(*s)) ++s;
    return s != t;
  };
  auto bad = [&]() { return fail(errc::bad_xml_declaration, s == end ? end : s); };
  // pseudo-attribute: name Eq quoted value
  auto pseudo = [&](std::string_view name, std::string_view& value) -> st {
    if (static_cast<std::size_t>(end - s) < name.size()) {
      return is_prefix_of(s, end, name) ? st::more : bad();
    }
    if (std::memcmp(s, name.data(), name.size()) != 0) return bad();
    s += name.size();
    space();
    if (s == end) return st::more;
    if (*s != '=') return bad();
    ++s;
    space();
    if (s == end) return st::more;
    char quote = *s;
    if (quote != '"' && quote != '\'') return bad();
    const char* v = ++s;
    while (s != end && *s != quote && *s != '>' && *s != '<') ++s;
    if (s == end) return st::more;
    if (*s != quote) return bad();
    value = std::string_view(v, static_cast<std::size_t>(s - v));
    ++s;
    return st::ok;
  };
  if (!space()) return s == end ? st::more : bad();
  std::string_view version;
  if (st r = pseudo("version", version); r != st::ok) return r;
  if (version.size() < 3 || version.substr(0, 2) != "1." ||
      !std::all_of(version.begin() + 2, version.end(),
                   [](char c) { return c >= '0' && c <= '9'; })) {
    return fail(errc::bad_xml_declaration, version.data());
  }
  bool sp = space();
  if (s == end) return st::more;
  if (sp && *s == 'e') {
    std::string_view enc;
    const char* at = s;
    if (st r = pseudo("encoding", enc); r != st::ok) return r;
    bool syntax_ok =
        !enc.empty() && ((enc[0] >= 'a' && enc[0] <= 'z') || (enc[0] >= 'A' && enc[0] <= 'Z'));
    for (char c : enc) {
      syntax_ok = syntax_ok && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                                (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-');
    }
    if (!syntax_ok) return fail(errc::bad_xml_declaration, enc.data());
    if (ascii_iequals(enc, "US-ASCII")) {
      ascii_only = true;
    } else if (!ascii_iequals(enc, "UTF-8")) {
      return fail(errc::unsupported_encoding, at);
    }
    sp = space();
    if (s == end) return st::more;
  }
  if (sp && *s == 's') {
    std::string_view sd;
    if (st r = pseudo("standalone", sd); r != st::ok) return r;
    if (sd != "yes" && sd != "no") return fail(errc::bad_xml_declaration, sd.data());
    space();
    if (s == end) return st::more;
  }
  if (*s != '?') return bad();
  if (s + 1 == end) return st::more;
  if (s[1] != '>') return bad();
  q = s + 2;
  return st::ok;
}

[[gnu::noinline]] st reader::impl::step_start() {
  const char* p = data + pos;
  const char* end = data + size;
  std::size_t avail = size - pos;
  auto b = [&](std::size_t i) { return static_cast<unsigned char>(p[i]); };
  // Decide BOM, encoding and declaration in one go (nothing consumed before that).
  if (!eof &&
      (avail < 2 || is_prefix_of(p, end, "\xEF\xBB\xBF<?xml ") || is_prefix_of(p, end, "<?xml "))) {
    return st::more;
  }
  if (avail >= 2 && ((b(0) == 0xFE && b(1) == 0xFF) || (b(0) == 0xFF && b(1) == 0xFE) ||
                     (b(0) == 0 && b(1) == '<') || (b(0) == '<' && b(1) == 0))) {
    return fail(errc::unsupported_encoding, p);
  }
  if (avail >= 3 && b(0) == 0xEF && b(1) == 0xBB && b(2) == 0xBF) {
    p += 3;
    pos += 3;
  }
  if (starts_with(p, end, "<?xml") && p + 5 != end && (is_space(p[5]))) {
    tok_off = offset_of(p);
    // The declaration nearly every SOAP stack writes is accepted by comparing its bytes.
    constexpr std::string_view usual = R"(<?xml version="1.0" encoding="UTF-8"?>)";
    if (static_cast<std::size_t>(end - p) >= usual.size() &&
        same_name_bytes(p, usual.data(), usual.size())) {
      pos = static_cast<std::size_t>(p + usual.size() - data);
    } else {
      const char* q = nullptr;
      st r = parse_declaration(p, end, q);
      if (r != st::ok) return r;
      pos = static_cast<std::size_t>(q - data);
    }
  }
  ph = phase::prolog;
  return st::skip;
}

// Prolog and epilog: whitespace, comments; in the prolog also the root start tag. (This and
// the other once-per-document steps stay out of line: inlined, their set-up ran on every
// next().)
[[gnu::noinline]] st reader::impl::step_misc(reader& r, token& out) {
  const char* p = data + pos;
  const char* end = data + size;
  while (p != end && is_space(*p)) ++p;
  pos = static_cast<std::size_t>(p - data);
  bool prolog = ph == phase::prolog;
  if (p == end) {
    if (!eof) return st::more;
    if (truncated) return fail(errc::limit_total_bytes, p);
    if (prolog) return fail(errc::no_root_element, p);
    ph = phase::done;
    out = token::end_document;
    return st::ok;
  }
  if (*p != '<') return fail(prolog ? errc::text_outside_root : errc::junk_after_root, p);
  if (p + 1 == end) return st::more;
  tok_off = offset_of(p);
  tok_pos_valid = false;
  const char* q = nullptr;
  switch (p[1]) {
    case '!':
      if (starts_with(p, end, "<!--")) {
        st res = parse_comment(p, end, q);
        if (res != st::ok) return res;
        pos = static_cast<std::size_t>(q - data);
        return st::skip;
      }
      if (is_prefix_of(p, end, "<!--") || is_prefix_of(p, end, "<!DOCTYPE")) return st::more;
      if (starts_with(p, end, "<!DOCTYPE")) return fail(errc::doctype_forbidden, p);
      return fail(prolog ? errc::bad_syntax : errc::junk_after_root, p);
    case '?':
      if (is_prefix_of(p, end, "<?xml ")) return st::more;
      if (starts_with(p, end, "<?xml") && (is_space(p[5]) || p[5] == '?')) {
        return fail(errc::bad_xml_declaration, p);
      }
      return fail(errc::pi_forbidden, p);
    case '/':
      return fail(prolog ? errc::bad_syntax : errc::junk_after_root, p);
    default: {
      if (!prolog) return fail(errc::junk_after_root, p);
      st res = parse_start_tag(r, p, end, q);
      if (res != st::ok) return res;
      pos = static_cast<std::size_t>(q - data);
      ph = phase::content;
      out = token::start_element;
      return st::ok;
    }
  }
}

}  // namespace lather::xml
