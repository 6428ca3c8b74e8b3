// The XML reader's character data: text runs (with CDATA sections and comments), entity and
// character references, and the general path of QName scanning (non-ASCII names, errors).
#include "reader_impl.hpp"

#include "lather/xml/name.hpp"

namespace lather::xml {

using namespace detail;  // the reader's private helpers: reader_chars.hpp, scan.hpp

// scan_qname's general path (out of line, so the fast path above inlines without its
// set-up): non-ASCII names, errors, limits, names running into the end of input.
[[gnu::noinline]] st reader::impl::scan_qname_general(const char* p, const char* end,
                                                      const char*& q, std::uint32_t& prefix_len,
                                                      errc what_if_empty) {
  std::size_t max = lim.max_name_length;
  const char* s = p;
  const char* colon = nullptr;
  bool at_start = true;  // next char must be a NameStartChar (start of name or after ':')
  for (;;) {
    if (static_cast<std::size_t>(s - p) > max) return fail(errc::limit_name_length, p + max);
    if (s == end) return st::more;
    auto c = static_cast<unsigned char>(*s);
    if (c < 0x80) {
      std::uint8_t cls = ascii_name[c];
      if (at_start ? (cls & name_start_bit) : (cls & name_char_bit)) {
        ++s;
        at_start = false;
        continue;
      }
      if (c == ':') {
        if (at_start || colon) return fail(errc::bad_name, s);
        colon = s++;
        at_start = true;
        continue;
      }
      break;
    }
    if (ascii_only) return fail(errc::invalid_char, s);
    std::uint32_t cp = 0;
    int n = decode_utf8(s, end, cp);
    if (n == 0) return st::more;
    if (n < 0) return fail(errc::invalid_utf8, s);
    if (at_start ? !xml::is_name_start_char(cp) : !xml::is_name_char(cp)) {
      if (!is_xml_char(cp)) return fail(errc::invalid_char, s);
      break;
    }
    s += n;
    at_start = false;
  }
  if (s == p) return fail(what_if_empty, p);
  if (at_start) return fail(errc::bad_name, s);  // ended right after ':'
  if (static_cast<std::size_t>(s - p) > max) return fail(errc::limit_name_length, p + max);
  q = s;
  prefix_len = colon ? static_cast<std::uint32_t>(colon - p) : 0;
  return st::ok;
}

// Decodes the reference at p ('&'). On ok, q is past ';' and out[0, n) holds the UTF-8.
st reader::impl::decode_ref(const char* p, const char* end, const char*& q, char* out,
                            std::size_t& n) {
  // Fast path: the five predefined entities. Same result as the general path below whenever
  // their names fit the name length limit.
  if (lim.max_name_length >= 4) {
    if (const std::size_t len = predefined_entity(p, end, out[0])) {
      n = 1;
      q = p + len;
      return st::ok;
    }
  }
  const char* s = p + 1;
  if (s == end) return st::more;
  if (*s == '#') {
    ++s;
    if (s == end) return st::more;
    bool hex = *s == 'x';
    if (hex) ++s;
    std::uint32_t value = 0;
    const char* digits = s;
    for (;; ++s) {
      if (s == end) return st::more;
      char c = *s;
      std::uint32_t d;
      if (c >= '0' && c <= '9') {
        d = static_cast<std::uint32_t>(c - '0');
      } else if (hex && c >= 'a' && c <= 'f') {
        d = static_cast<std::uint32_t>(c - 'a' + 10);
      } else if (hex && c >= 'A' && c <= 'F') {
        d = static_cast<std::uint32_t>(c - 'A' + 10);
      } else {
        break;
      }
      value = value * (hex ? 16 : 10) + d;
      if (value > 0x10FFFF) value = 0x110000;  // saturate: stays illegal
      // Digits are bounded like a name, so zero padding cannot make a token unbounded.
      if (static_cast<std::size_t>(s - digits) >= lim.max_name_length) {
        return fail(errc::limit_name_length, digits + lim.max_name_length);
      }
    }
    if (s == digits || *s != ';' || !is_xml_char(value)) return fail(errc::bad_char_ref, p);
    // A reference names a character, not a byte: fine even in US-ASCII documents.
    n = encode_utf8(value, out);
    q = s + 1;
    return st::ok;
  }
  const char* name_end = nullptr;
  std::uint32_t prefix_len = 0;
  st r = scan_qname(s, end, name_end, prefix_len, errc::bad_syntax);
  if (r != st::ok) return r;
  if (*name_end != ';') return fail(errc::bad_syntax, name_end);
  std::string_view name(s, static_cast<std::size_t>(name_end - s));
  char c;
  if (name == "lt") {
    c = '<';
  } else if (name == "gt") {
    c = '>';
  } else if (name == "amp") {
    c = '&';
  } else if (name == "apos") {
    c = '\'';
  } else if (name == "quot") {
    c = '"';
  } else {
    return fail(errc::undefined_entity, p);
  }
  out[0] = c;
  n = 1;
  q = name_end + 1;
  return st::ok;
}

// Validates the non-ASCII sequence at s (or rejects a control character).
// On ok, q is past it.
st reader::impl::check_unusual(const char* s, const char* end, const char*& q) {
  auto c = static_cast<unsigned char>(*s);
  if (c < 0x80) return fail(errc::invalid_char, s);
  if (ascii_only) return fail(errc::invalid_char, s);
  std::uint32_t cp = 0;
  int n = decode_utf8(s, end, cp);
  if (n == 0) return st::more;
  if (n < 0) return fail(errc::invalid_utf8, s);
  if (!is_xml_char(cp)) return fail(errc::invalid_char, s);
  q = s + n;
  return st::ok;
}

inline void reader::impl::text_append(const char* a, const char* b) {
  if (a == b) return;
  if (!text_in_buf) {
    if (text_len == 0) {
      text_ptr = a;
      text_len = static_cast<std::size_t>(b - a);
      return;
    }
    if (text_ptr + text_len == a) {
      text_len += static_cast<std::size_t>(b - a);
      return;
    }
    text_buf.assign(text_ptr, text_ptr + text_len);
    text_in_buf = true;
  }
  text_buf.insert(text_buf.end(), a, b);
}

inline void reader::impl::text_append_decoded(const char* a, std::size_t n) {
  if (!text_in_buf) {
    text_buf.assign(text_ptr, text_ptr + text_len);
    text_in_buf = true;
  }
  text_buf.insert(text_buf.end(), a, a + n);
}

inline st reader::impl::text_limit(const char* seg, const char* q) {
  std::uint64_t total = text_size() + static_cast<std::uint64_t>(q - seg);
  if (total > lim.max_text_length) {
    // text_size() <= max_text_length holds (decoded output is checked as it is appended)
    return fail(errc::limit_text_length, seg + (lim.max_text_length - text_size()));
  }
  return st::ok;
}

// Comment at p ("<!--"). On ok, q is past "-->".
st reader::impl::parse_comment(const char* p, const char* end, const char*& q) {
  const char* s = p + 4;
  for (;;) {
    s = detail::find_raw_special(s, end, '-');
    if (s == end) return st::more;
    if (*s == '-') {
      if (s + 1 == end) return st::more;
      if (s[1] != '-') {
        ++s;
        continue;
      }
      if (s + 2 == end) return st::more;
      if (s[2] != '>') return fail(errc::bad_syntax, s);
      q = s + 3;
      return st::ok;
    }
    if (*s == '\r') {
      ++s;
      continue;
    }
    const char* after = nullptr;
    st r = check_unusual(s, end, after);
    if (r != st::ok) return r;
    s = after;
  }
}

// CDATA section at p ("<![CDATA["), appended to the text. On ok, q is past "]]>".
inline st reader::impl::parse_cdata(const char* p, const char* end, const char*& q) {
  const char* seg = p + 9;
  const char* s = seg;
  for (;;) {
    s = detail::find_raw_special(s, end, ']');
    if (text_limit(seg, s) != st::ok) return st::fail;
    if (s == end) return st::more;
    if (*s == ']') {
      if (s + 1 == end || (s[1] == ']' && s + 2 == end)) return st::more;
      if (s[1] == ']' && s[2] == '>') {
        text_append(seg, s);
        q = s + 3;
        return st::ok;
      }
      ++s;
      continue;
    }
    if (*s == '\r') {
      if (s + 1 == end) return st::more;
      text_append(seg, s);
      text_append_decoded("\n", 1);
      if (text_size() > lim.max_text_length) return fail(errc::limit_text_length, s);
      s += s[1] == '\n' ? 2 : 1;
      seg = s;
      continue;
    }
    const char* after = nullptr;
    st r = check_unusual(s, end, after);
    if (r != st::ok) return r;
    s = after;
  }
}

// A run of character data (with CDATA sections and comments) at p, inside the root. On ok,
// q is the '<' of the next tag.
st reader::impl::parse_text_run(const char* p, const char* end, const char*& q) {
  if (!text_resume) {
    text_in_buf = false;
    text_len = 0;
    text_buf.clear();
  }
  text_resume = false;
  const char* seg = p;
  const char* s = p;
  // Out of bytes at `upto`: everything before it is validated; keep it (copied, since the
  // input buffer may move) so a streamed run is never rescanned from its start.
  auto suspend = [&](const char* upto) {
    text_append(seg, upto);
    if (!text_in_buf) {
      text_buf.assign(text_ptr, text_ptr + text_len);
      text_in_buf = true;
    }
    text_safe = upto;
    text_resume = true;
    return st::more;
  };
  for (;;) {
    s = detail::find_text_special(s, end);
    if (text_limit(seg, s) != st::ok) return st::fail;
    if (s == end) return suspend(s);
    switch (*s) {
      case '<': {
        if (s + 1 == end) return suspend(s);
        if (s[1] != '!') {
          text_append(seg, s);
          q = s;
          return st::ok;
        }
        text_append(seg, s);
        seg = s;
        const char* after = nullptr;
        st r;
        std::size_t before = text_size();
        if (starts_with(s, end, "<!--")) {
          r = parse_comment(s, end, after);
        } else if (starts_with(s, end, "<![CDATA[")) {
          r = parse_cdata(s, end, after);
        } else if (is_prefix_of(s, end, "<![CDATA[") || is_prefix_of(s, end, "<!--") ||
                   is_prefix_of(s, end, "<!DOCTYPE")) {
          return suspend(s);
        } else if (starts_with(s, end, "<!DOCTYPE")) {
          return fail(errc::doctype_forbidden, s);
        } else {
          return fail(errc::bad_syntax, s);
        }
        if (r == st::more) {
          // Drop what the unfinished CDATA section appended; it is parsed again later.
          if (text_in_buf) {
            text_buf.resize(before);
          } else {
            text_len = before;
          }
          return suspend(s);
        }
        if (r != st::ok) return r;
        s = seg = after;
        continue;
      }
      case '&': {
        text_append(seg, s);
        seg = s;
        char buf[4];
        std::size_t n = 0;
        const char* after = nullptr;
        st r = decode_ref(s, end, after, buf, n);
        if (r == st::more) return suspend(s);
        if (r != st::ok) return r;
        text_append_decoded(buf, n);
        if (text_size() > lim.max_text_length) return fail(errc::limit_text_length, s);
        s = seg = after;
        continue;
      }
      case ']':
        if (s + 1 == end || (s[1] == ']' && s + 2 == end)) return suspend(s);
        if (s[1] == ']' && s[2] == '>') return fail(errc::cdata_end_in_text, s);
        ++s;
        continue;
      case '\r':
        if (s + 1 == end) return suspend(s);
        text_append(seg, s);
        text_append_decoded("\n", 1);
        if (text_size() > lim.max_text_length) return fail(errc::limit_text_length, s);
        s += s[1] == '\n' ? 2 : 1;
        seg = s;
        continue;
      default: {
        const char* after = nullptr;
        st r = check_unusual(s, end, after);
        if (r == st::more) return suspend(s);
        if (r != st::ok) return r;
        s = after;
      }
    }
  }
}

}  // namespace lather::xml
