// The XML reader's input: the buffer (a whole document, or bytes pushed or pulled), positions
// and errors, and the completion scan that decides when an incomplete token is parsed again.
//
// Streaming buffer: consumed bytes are dropped (moved out) only when the move is paid for by at
// least as many consumed bytes, so compaction is amortised O(1) per byte and memory stays
// bounded by about twice the largest token plus one chunk.
#include "reader_impl.hpp"

#include <algorithm>
#include <cstring>

namespace lather::xml {

using namespace detail;  // the reader's private helpers: reader_chars.hpp, scan.hpp

position reader::impl::position_of(std::uint64_t off) const noexcept {
  if (off > lines_off) {
    std::uint64_t from = std::max(lines_off, base);
    const char* a = data + (from - base);
    const char* b = data + std::min<std::uint64_t>(off - base, size);
    for (const char* p = a; p < b;) {
      const char* nl = detail::find_byte(p, b, '\n');
      if (nl == b) break;
      ++line;
      line_start = base + static_cast<std::uint64_t>(nl - data) + 1;
      p = nl + 1;
    }
    lines_off = off;
  }
  position r;
  r.offset = off;
  r.line = line;
  r.column = static_cast<std::uint32_t>(off >= line_start ? off - line_start + 1 : 1);
  return r;
}

st reader::impl::fail_at(errc code, std::uint64_t off) {
  err.code = code;
  err.where = position_of(off);
  ph = phase::failed;
  return st::fail;
}

inline void reader::impl::reset_state() {
  ph = phase::start;
  ascii_only = pending_pop = truncated = false;
  pending_end = 0;
  skip_depth = 0;
  elements.clear();
  names.truncate(0);
  bindings.clear();
  ns_chars.truncate(0);
  std::fill(slots.begin(), slots.end(), slot{});
  slots_used = 0;
  raw.clear();
  attrs.clear();
  decls.clear();
  text_buf.clear();
  text_resume = false;
  retry_at = 0;
  tok_off = 0;
  tok_pos_valid = false;
  lines_off = 0;
  line = 1;
  line_start = 0;
  err = {};
}

void reader::impl::reset_whole(std::string_view doc) {
  reset_state();
  whole = true;
  eof = true;
  data = doc.data();
  size = doc.size();
  if (lim.max_total_bytes != 0 && size > lim.max_total_bytes) {
    size = static_cast<std::size_t>(lim.max_total_bytes);
    truncated = true;
  }
  pos = 0;
  base = 0;
}

void reader::impl::reset_stream() {
  reset_state();
  whole = false;
  eof = false;
  data = store.get();
  size = pos = 0;
  base = 0;
}

// Makes room for n more bytes at data + size (streaming only). Drops consumed bytes when
// that is paid for by at least as many consumed bytes, else grows geometrically. At least two
// pulls' worth: a pull then fits beside a partly read token of a small document, so a warm
// reader does not grow (allocate) when such a document arrives in pieces, e.g. under load
// (tests/service/perf_alloc_test.cpp).
inline void reader::impl::reserve(std::size_t n) {
  if (store_cap - size >= n) return;
  std::size_t live = size - pos;
  // Remember positions that refer to bytes about to be discarded.
  if (!tok_pos_valid) {
    tok_pos = position_of(tok_off);
    tok_pos_valid = true;
  }
  position_of(base + pos);
  if (pos >= live && store_cap - live >= n) {
    std::memmove(store.get(), store.get() + pos, live);
  } else {
    std::size_t cap = std::max<std::size_t>({store_cap * 2, live + n, 2 * pull_chunk});
    std::unique_ptr<char[]> bigger(new char[cap]);
    if (live) std::memcpy(bigger.get(), store.get() + pos, live);
    store = std::move(bigger);
    store_cap = cap;
  }
  base += pos;
  size = live;
  pos = 0;
  data = store.get();
}

// Appends up to n bytes (respecting max_total_bytes); returns how many were accepted.
inline std::size_t reader::impl::accept_bytes(std::size_t n) {
  if (lim.max_total_bytes != 0) {
    std::uint64_t room = base + size >= lim.max_total_bytes ? 0 : lim.max_total_bytes - base - size;
    if (n > room) {
      truncated = true;
      eof = true;
      return static_cast<std::size_t>(room);
    }
  }
  return n;
}

void reader::impl::feed(std::string_view bytes) {
  if (whole || eof || bytes.empty()) return;
  std::size_t n = accept_bytes(bytes.size());
  // Text views of an unfinished run may point into the buffer: keep it unless moved out.
  reserve(n);
  std::memcpy(store.get() + size, bytes.data(), n);
  size += n;
}

// Pull mode: asks the source for bytes. Returns false in push mode.
bool reader::impl::pull() {
  if (!source || eof || whole) return false;
  reserve(pull_chunk);
  std::size_t room = store_cap - size;
  std::size_t got = source(store.get() + size, room);
  if (got == 0) {
    eof = true;
    return true;
  }
  got = std::min(got, room);
  std::size_t n = accept_bytes(got);
  size += n;
  return true;
}

// Starts the completion scan for the incomplete token at pos.
[[gnu::noinline]] void reader::impl::start_hint() {
  const char* p = data + pos;
  std::size_t avail = size - pos;
  hint_at = 0;
  hint_quote = 0;
  hint_in_content = ph == phase::content;
  if (text_resume) {
    hint_state = hint::text;
  } else if (ph == phase::start) {
    // A declaration (possibly after a BOM) ends at '>'; shorter prefixes decide quickly.
    bool decl =
        starts_with(p, p + avail, "<?xml") || starts_with(p, p + avail, "\xEF\xBB\xBF<?xml");
    hint_state = decl ? hint::tag : hint::any;
    hint_at = decl ? 0 : avail;
  } else if (avail < 2) {
    hint_state = hint::any;
    hint_at = avail;
  } else if (*p != '<' || p[1] == '!') {
    hint_state = hint_in_content ? hint::text : hint::comment;
    if (!hint_in_content) hint_at = 4;
    if (!hint_in_content && !starts_with(p, p + avail, "<!--")) {
      hint_state = hint::any;  // an undecided "<!" prefix: a few bytes more decide it
      hint_at = avail;
    }
  } else {
    hint_state = hint::tag;
  }
}

// Scans the bytes that arrived since the last scan; true if the token may now be complete.
[[gnu::noinline]] bool reader::impl::hint_complete() {
  const char* base_p = data + pos;
  const char* end = data + size;
  const char* s = base_p + hint_at;
  bool done = false;
  while (!done && s < end) {
    switch (hint_state) {
      case hint::any:
        done = true;
        break;
      case hint::tag:
        if (hint_quote) {
          s = detail::find_byte(s, end, hint_quote);
          if (s == end) break;
          hint_quote = 0;
          ++s;
          break;
        }
        while (s < end && *s != '>' && *s != '"' && *s != '\'') ++s;
        if (s == end) break;
        if (*s == '>') {
          done = true;
        } else {
          hint_quote = *s++;
        }
        break;
      case hint::text: {
        s = detail::find_byte(s, end, '<');
        if (s == end) break;
        if (end - s < 2) {
          hint_at = static_cast<std::size_t>(s - base_p);
          return false;
        }
        if (s[1] != '!') {
          done = true;
        } else if (starts_with(s, end, "<!--")) {
          hint_state = hint::comment;
          s += 4;
        } else if (starts_with(s, end, "<![CDATA[")) {
          hint_state = hint::cdata;
          s += 9;
        } else if (is_prefix_of(s, end, "<![CDATA[") || is_prefix_of(s, end, "<!--")) {
          hint_at = static_cast<std::size_t>(s - base_p);
          return false;
        } else {
          done = true;  // DOCTYPE or junk: the parser reports it
        }
        break;
      }
      case hint::comment:
      case hint::cdata: {
        char c = hint_state == hint::comment ? '-' : ']';
        s = detail::find_byte(s, end, c);
        if (s == end) break;
        if (end - s < 3) {
          hint_at = static_cast<std::size_t>(s - base_p);
          return false;
        }
        if (s[1] == c && s[2] == '>') {
          s += 3;
          if (!hint_in_content) {
            done = true;
          } else {
            hint_state = hint::text;
          }
        } else if (hint_state == hint::comment && s[1] == '-') {
          done = true;  // "--" not closing the comment: the parser reports it
        } else {
          ++s;
        }
        break;
      }
    }
  }
  hint_at = static_cast<std::size_t>(std::min(s, end) - base_p);
  return done;
}

}  // namespace lather::xml
