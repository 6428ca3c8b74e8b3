// The XML pull reader.
//
// Parsing model: every token (start tag, end tag, XML declaration, and a "text run" = character
// data plus the CDATA sections and comments inside it) is parsed in one go from its first byte
// by a function that either finishes it, fails, or reports `more` (it ran out of bytes). Partial
// tokens are never half-applied: all side effects (namespace bindings, element stack) happen
// after the last byte of the token was seen. When a token is incomplete in streaming mode the
// reader waits until the buffered bytes of that token have at least doubled before trying
// again, so a token of n bytes costs O(n) in total however finely it is fed, and a hostile
// token (100 MB name) fails as soon as the limit is visible.
//
// Streaming buffer: consumed bytes are dropped (moved out) only when the move is paid for by at
// least as many consumed bytes, so compaction is amortised O(1) per byte and memory stays
// bounded by about twice the largest token plus one chunk.
#include "lather/xml/reader.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include "lather/xml/name.hpp"
#include "lather/xml/writer.hpp"  // detail::copy_bytes
#include "scan.hpp"

namespace lather::xml {

namespace {

constexpr std::string_view xml_ns_uri = "http://www.w3.org/XML/1998/namespace";
constexpr std::string_view xmlns_ns_uri = "http://www.w3.org/2000/xmlns/";

// Outcome of parsing one token.
enum class st : std::uint8_t {
  ok,    // token complete; a token is ready to return
  skip,  // something was consumed that produces no token (whitespace, comment, declaration)
  fail,  // error recorded
  more,  // ran out of bytes before the token ended; nothing consumed
};

constexpr std::uint8_t name_start_bit = 1;
constexpr std::uint8_t name_char_bit = 2;

constexpr std::array<std::uint8_t, 128> make_name_table() {
  std::array<std::uint8_t, 128> t{};
  for (int c = 'a'; c <= 'z'; ++c) t[c] = name_start_bit | name_char_bit;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = name_start_bit | name_char_bit;
  t['_'] = name_start_bit | name_char_bit;
  for (int c = '0'; c <= '9'; ++c) t[c] = name_char_bit;
  t['-'] = name_char_bit;
  t['.'] = name_char_bit;
  return t;
}
constexpr auto ascii_name = make_name_table();

inline bool is_space(char c) noexcept {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

// Decodes the multi-byte UTF-8 sequence at p (*p >= 0x80). Returns its length (2..4), 0 if
// the bytes so far are valid but the sequence continues past end, or -1 if malformed
// (overlong, surrogate, > U+10FFFF, bad continuation, stray continuation byte).
inline int decode_utf8(const char* p, const char* end, std::uint32_t& cp) noexcept {
  auto b = [&](std::ptrdiff_t i) { return static_cast<unsigned char>(p[i]); };
  unsigned char c0 = b(0);
  std::ptrdiff_t avail = end - p;
  if (c0 < 0xC2) return -1;
  if (c0 < 0xE0) {
    if (avail < 2) return 0;
    if ((b(1) & 0xC0) != 0x80) return -1;
    cp = ((c0 & 0x1Fu) << 6) | (b(1) & 0x3Fu);
    return 2;
  }
  if (c0 < 0xF0) {
    if (avail < 2) return 0;
    unsigned char c1 = b(1);
    unsigned char lo = c0 == 0xE0 ? 0xA0 : 0x80;
    unsigned char hi = c0 == 0xED ? 0x9F : 0xBF;
    if (c1 < lo || c1 > hi) return -1;
    if (avail < 3) return 0;
    if ((b(2) & 0xC0) != 0x80) return -1;
    cp = ((c0 & 0x0Fu) << 12) | ((c1 & 0x3Fu) << 6) | (b(2) & 0x3Fu);
    return 3;
  }
  if (c0 > 0xF4) return -1;
  if (avail < 2) return 0;
  unsigned char c1 = b(1);
  unsigned char lo = c0 == 0xF0 ? 0x90 : 0x80;
  unsigned char hi = c0 == 0xF4 ? 0x8F : 0xBF;
  if (c1 < lo || c1 > hi) return -1;
  if (avail < 3) return 0;
  if ((b(2) & 0xC0) != 0x80) return -1;
  if (avail < 4) return 0;
  if ((b(3) & 0xC0) != 0x80) return -1;
  cp = ((c0 & 0x07u) << 18) | ((c1 & 0x3Fu) << 12) | ((b(2) & 0x3Fu) << 6) | (b(3) & 0x3Fu);
  return 4;
}

inline bool is_xml_char(std::uint32_t c) noexcept {
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
         (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

inline std::size_t encode_utf8(std::uint32_t c, char* out) noexcept {
  if (c < 0x80) {
    out[0] = static_cast<char>(c);
    return 1;
  }
  if (c < 0x800) {
    out[0] = static_cast<char>(0xC0 | (c >> 6));
    out[1] = static_cast<char>(0x80 | (c & 0x3F));
    return 2;
  }
  if (c < 0x10000) {
    out[0] = static_cast<char>(0xE0 | (c >> 12));
    out[1] = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out[2] = static_cast<char>(0x80 | (c & 0x3F));
    return 3;
  }
  out[0] = static_cast<char>(0xF0 | (c >> 18));
  out[1] = static_cast<char>(0x80 | ((c >> 12) & 0x3F));
  out[2] = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
  out[3] = static_cast<char>(0x80 | (c & 0x3F));
  return 4;
}

inline std::uint32_t hash_bytes(std::string_view s) noexcept {
  std::uint32_t h = 2166136261u;
  for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return h;
}

using detail::same_name_bytes;

inline bool starts_with(const char* p, const char* end, std::string_view s) noexcept {
  return static_cast<std::size_t>(end - p) >= s.size() && std::memcmp(p, s.data(), s.size()) == 0;
}

// True when [p, end) is a proper prefix of s (more bytes could still make it match).
inline bool is_prefix_of(const char* p, const char* end, std::string_view s) noexcept {
  auto n = static_cast<std::size_t>(end - p);
  return n < s.size() && std::memcmp(p, s.data(), n) == 0;
}

inline bool iequals_ascii(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

// The parts of a validated QName of `len` bytes whose prefix has `prefix_len` bytes (0 = none):
// built directly, as string_view::substr's bounds check kept it out of line in the hot paths.
inline std::string_view qname_prefix(const char* qname, std::size_t prefix_len) noexcept {
  return {qname, prefix_len};
}
inline std::string_view qname_local(const char* qname, std::size_t len,
                                    std::size_t prefix_len) noexcept {
  std::size_t skip = prefix_len + (prefix_len != 0);
  return {qname + skip, len - skip};
}

// One of the five predefined entity references at p ('&'), the bulk of escaped SOAP text: the
// character it stands for in `c` and the reference's length, or 0 for anything else (a
// character reference, another name, or bytes still to come: decode_ref's general path).
inline std::size_t predefined_entity(const char* p, const char* end, char& c) noexcept {
  const std::ptrdiff_t n = end - p;
  if (n >= 4 && p[2] == 't' && p[3] == ';' && (p[1] == 'l' || p[1] == 'g')) {
    c = p[1] == 'l' ? '<' : '>';
    return 4;
  }
  if (n >= 5 && p[1] == 'a' && p[2] == 'm' && p[3] == 'p' && p[4] == ';') {
    c = '&';
    return 5;
  }
  if (n >= 6 && p[5] == ';' &&
      (std::memcmp(p + 1, "quot", 4) == 0 || std::memcmp(p + 1, "apos", 4) == 0)) {
    c = p[1] == 'q' ? '"' : '\'';
    return 6;
  }
  return 0;
}

// A stack of bytes (names of open elements, namespace prefixes and URIs): appends without
// vector::insert's general-case code, truncates on pop, keeps its capacity across documents.
class byte_stack {
 public:
  const char* data() const noexcept { return bytes_.get(); }
  std::size_t size() const noexcept { return size_; }
  void append(const char* p, std::size_t n) {
    if (cap_ - size_ < n) grow(n);
    detail::copy_bytes(bytes_.get() + size_, p, n);  // names: no call into memcpy
    size_ += n;
  }
  void truncate(std::size_t n) noexcept { size_ = n; }

 private:
  [[gnu::noinline]] void grow(std::size_t n) {
    std::size_t cap = std::max<std::size_t>({cap_ * 2, size_ + n, 256});
    std::unique_ptr<char[]> bigger(new char[cap]);
    if (size_ != 0) std::memcpy(bigger.get(), bytes_.get(), size_);
    bytes_ = std::move(bigger);
    cap_ = cap;
  }
  std::unique_ptr<char[]> bytes_;
  std::size_t size_ = 0, cap_ = 0;
};

constexpr std::uint32_t builtin_xml_uri = 0xFFFFFFFFu;  // uri_off marker: the xml namespace

}  // namespace

struct reader::impl {
  limits lim;

  // ---- input window: data[0, size) are buffered, data[pos] is the next unconsumed byte ----
  const char* data = nullptr;
  std::size_t size = 0;
  std::size_t pos = 0;
  std::uint64_t base = 0;  // stream offset of data[0]
  bool whole = true;       // data is the caller's document
  bool eof = true;         // no bytes will follow data[size)
  bool truncated = false;  // input went past max_total_bytes; the end is a limit error
  std::unique_ptr<char[]> store;
  std::size_t store_cap = 0;
  source_fn source;
  // Streaming, while the token at pos is incomplete: it is parsed again when its bytes have
  // doubled (so early errors surface with bounded memory), or as soon as the completion scan
  // below sees a byte that may end it (so a complete token never waits for more input).
  std::size_t retry_at = 0;   // 0 = not waiting
  std::size_t failed_at = 0;  // bytes past pos when the token was found incomplete
  enum class hint : std::uint8_t { any, tag, text, comment, cdata };
  hint hint_state = hint::any;
  bool hint_in_content = false;  // a finished comment continues a text run
  char hint_quote = 0;
  std::size_t hint_at = 0;  // bytes past pos already scanned

  enum class phase : std::uint8_t { start, prolog, content, epilog, done, failed };
  phase ph = phase::start;
  bool ascii_only = false;   // encoding="US-ASCII"
  bool pending_end = false;  // an empty element's end_element is due
  bool pending_pop = false;  // the element closed by the last end_element is still on the stack
  std::uint32_t skip_depth = 0;

  // ---- open elements: qnames point into the document (whole mode) or are copied to `names`
  // (streaming, since consumed input is discarded); name_off is relative to names_base() ----
  struct open_element {
    std::size_t name_off;
    std::uint32_t name_len, prefix_len, uri_off, uri_len, bindings_mark;
  };
  std::vector<open_element> elements;
  byte_stack names;
  const char* names_base() const noexcept { return whole ? data : names.data(); }

  // ---- namespace bindings: a stack, plus prefix -> newest binding (open addressing) ----
  struct binding {
    std::uint32_t prefix_off, prefix_len, uri_off, uri_len;
    std::int32_t prev;   // older binding of the same prefix, or -1
    std::uint32_t hash;  // hash_bytes(prefix), so rehashing and deletion never rescan it
  };
  std::vector<binding> bindings;
  byte_stack ns_chars;
  struct slot {
    std::int32_t head = -1;  // newest binding; -1 = empty slot
    std::uint32_t key = 0;   // oldest binding of the chain: owns the prefix bytes
  };
  std::vector<slot> slots;
  std::uint32_t slots_used = 0;

  // ---- the current token ----
  struct raw_attribute {
    const char* qname;
    std::uint32_t qname_len, prefix_len;
    const char* value;  // into data, or nullptr when in `values`
    std::size_t value_off, value_len;
  };
  std::vector<raw_attribute> raw;
  std::vector<attribute> attrs;
  std::vector<namespace_declaration> decls;
  std::vector<char> values;  // decoded attribute values
  std::vector<std::uint32_t> dup_table;
  std::vector<char> text_buf;  // decoded or merged text
  byte_stack leaf_text;        // next_simple_element's text when it had references
  const char* text_ptr = nullptr;
  std::size_t text_len = 0;
  bool text_in_buf = false;
  bool text_resume = false;         // streaming: a text run continues at pos (text in text_buf)
  const char* text_safe = nullptr;  // where the suspended run stopped

  // ---- positions ----
  std::uint64_t tok_off = 0;
  mutable position tok_pos;
  mutable bool tok_pos_valid = false;
  mutable std::uint64_t lines_off = 0;  // newlines counted in [0, lines_off)
  mutable std::uint32_t line = 1;
  mutable std::uint64_t line_start = 0;  // offset of the first byte of `line`
  error_info err;

  // Room for the usual short text up front: a text run split across two pulls (a request read
  // in pieces, e.g. under load) is merged in text_buf, and the first such split must not
  // allocate in a warm reader (tests/service/perf_alloc_test.cpp). Longer runs grow it once.
  explicit impl(const limits& l) : lim(l) { text_buf.reserve(1024); }

  // ------------------------------------------------------------------ positions
  position position_of(std::uint64_t off) const noexcept {
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

  st fail(errc code, const char* at) {
    return fail_at(code, base + static_cast<std::uint64_t>(at - data));
  }
  st fail_at(errc code, std::uint64_t off) {
    err.code = code;
    err.where = position_of(off);
    ph = phase::failed;
    return st::fail;
  }
  std::uint64_t offset_of(const char* p) const noexcept {
    return base + static_cast<std::uint64_t>(p - data);
  }

  // ------------------------------------------------------------------ input
  void reset_state() {
    ph = phase::start;
    ascii_only = pending_end = pending_pop = truncated = false;
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

  void reset_whole(std::string_view doc) {
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

  void reset_stream() {
    reset_state();
    whole = false;
    eof = false;
    data = store.get();
    size = pos = 0;
    base = 0;
  }

  // What pull() asks the source for at least.
  static constexpr std::size_t pull_chunk = 16384;

  // Makes room for n more bytes at data + size (streaming only). Drops consumed bytes when
  // that is paid for by at least as many consumed bytes, else grows geometrically. At least two
  // pulls' worth: a pull then fits beside a partly read token of a small document, so a warm
  // reader does not grow (allocate) when such a document arrives in pieces, e.g. under load
  // (tests/service/perf_alloc_test.cpp).
  void reserve(std::size_t n) {
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
  std::size_t accept_bytes(std::size_t n) {
    if (lim.max_total_bytes != 0) {
      std::uint64_t room =
          base + size >= lim.max_total_bytes ? 0 : lim.max_total_bytes - base - size;
      if (n > room) {
        truncated = true;
        eof = true;
        return static_cast<std::size_t>(room);
      }
    }
    return n;
  }

  void feed(std::string_view bytes) {
    if (whole || eof || bytes.empty()) return;
    std::size_t n = accept_bytes(bytes.size());
    // Text views of an unfinished run may point into the buffer: keep it unless moved out.
    reserve(n);
    std::memcpy(store.get() + size, bytes.data(), n);
    size += n;
  }

  // Pull mode: asks the source for bytes. Returns false in push mode.
  bool pull() {
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

  // ------------------------------------------------------------------ namespaces
  std::string_view binding_prefix(const binding& b) const noexcept {
    return {ns_chars.data() + b.prefix_off, b.prefix_len};
  }
  std::string_view uri_view(std::uint32_t off, std::uint32_t len) const noexcept {
    if (off == builtin_xml_uri) return xml_ns_uri;
    return {ns_chars.data() + off, len};
  }

  std::int32_t find_slot(std::string_view prefix) const noexcept {
    return find_slot(prefix, hash_bytes(prefix));
  }
  std::int32_t find_slot(std::string_view prefix, std::uint32_t hash) const noexcept {
    if (slots.empty()) return -1;
    std::size_t mask = slots.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
      const slot& s = slots[i];
      if (s.head < 0) return -1;
      const std::string_view bound = binding_prefix(bindings[s.key]);
      if (bound.size() == prefix.size() &&
          same_name_bytes(bound.data(), prefix.data(), prefix.size()))
        return static_cast<std::int32_t>(i);
    }
  }

  void place(const slot& s) {
    std::size_t mask = slots.size() - 1;
    std::size_t i = bindings[s.key].hash & mask;
    while (slots[i].head >= 0) i = (i + 1) & mask;
    slots[i] = s;
  }

  // Binds prefix (whose hash is `hash` and whose slot find_slot returned as `s`) to uri.
  void push_binding(std::string_view prefix, std::string_view uri, std::uint32_t hash,
                    std::int32_t s) {
    binding b;
    b.hash = hash;
    b.prefix_off = static_cast<std::uint32_t>(ns_chars.size());
    b.prefix_len = static_cast<std::uint32_t>(prefix.size());
    ns_chars.append(prefix.data(), prefix.size());
    b.uri_off = static_cast<std::uint32_t>(ns_chars.size());
    b.uri_len = static_cast<std::uint32_t>(uri.size());
    ns_chars.append(uri.data(), uri.size());
    auto index = static_cast<std::int32_t>(bindings.size());
    if (s >= 0) {
      b.prev = slots[static_cast<std::size_t>(s)].head;
      bindings.push_back(b);
      slots[static_cast<std::size_t>(s)].head = index;
      return;
    }
    b.prev = -1;
    bindings.push_back(b);
    if ((slots_used + 1) * 2 > slots.size()) {
      std::vector<slot> old;
      old.swap(slots);
      slots.assign(std::max<std::size_t>(16, old.size() * 2), slot{});
      for (const slot& o : old) {
        if (o.head >= 0) place(o);
      }
    }
    place(slot{index, static_cast<std::uint32_t>(index)});
    ++slots_used;
  }

  void pop_binding() {
    const binding& b = bindings.back();
    auto i = static_cast<std::size_t>(find_slot(binding_prefix(b), b.hash));
    slots[i].head = b.prev;
    if (b.prev < 0) {
      // Backward-shift deletion keeps probe chains intact without tombstones.
      std::size_t mask = slots.size() - 1;
      for (std::size_t j = (i + 1) & mask; slots[j].head >= 0; j = (j + 1) & mask) {
        std::size_t home = bindings[slots[j].key].hash & mask;
        bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
        if (stays) continue;
        slots[i] = slots[j];
        i = j;
      }
      slots[i] = slot{};
      --slots_used;
    }
    ns_chars.truncate(b.prefix_off);
    bindings.pop_back();
  }

  // Resolves a prefix: uri (offset, length) or false if undeclared.
  bool resolve(std::string_view prefix, std::uint32_t& off, std::uint32_t& len) const noexcept {
    if (prefix.size() == 3 && prefix == "xml") {
      off = builtin_xml_uri;
      len = 0;
      return true;
    }
    std::int32_t s = find_slot(prefix);
    if (s < 0) {
      off = len = 0;
      return prefix.empty();
    }
    const binding& b = bindings[static_cast<std::size_t>(slots[static_cast<std::size_t>(s)].head)];
    off = b.uri_off;
    len = b.uri_len;
    return true;
  }

  // Out of line: next() and next_simple_element() pop only after a complex element ends, and
  // inlined (with pop_binding and find_slot) it made next_simple_element, the per-leaf path,
  // ~19 instructions longer per leaf (callgrind, 100-item parse: -0.3 % in all this way).
  [[gnu::noinline]] void pop_element() {
    const open_element& e = elements.back();
    while (bindings.size() > e.bindings_mark) pop_binding();
    if (!whole) names.truncate(e.name_off);
    elements.pop_back();
  }

  // ------------------------------------------------------------------ names
  // Scans a QName (NCName (':' NCName)?) at p. On ok, `q` is past it and `prefix_len` is the
  // length of the prefix (0 if none). `what_if_empty` is the error when no name starts at p.
  [[gnu::always_inline]] st scan_qname(const char* p, const char* end, const char*& q,
                                       std::uint32_t& prefix_len,
                                       errc what_if_empty = errc::bad_name) {
    std::size_t max = lim.max_name_length;
    // Fast path: ASCII "ncname" or "ncname:ncname" ended by an ASCII non-name byte.
    {
      const char* cap = static_cast<std::size_t>(end - p) > max ? p + max + 1 : end;
      auto starts_ncname = [&](const char* x) {
        return x < cap && (ascii_name[static_cast<unsigned char>(*x) & 0x7F] & name_start_bit) &&
               static_cast<unsigned char>(*x) < 0x80;
      };
      if (starts_ncname(p)) {
        const char* colon = nullptr;
        const char* s = detail::skip_ascii_qname(p + 1, cap, colon);
        // Accept when the name ended on an ASCII byte, with at most one colon that is followed
        // by a name start character (the name cannot end on a colon then).
        if (s < cap && static_cast<unsigned char>(*s) < 0x80 &&
            (colon == nullptr || (colon != detail::many_colons && starts_ncname(colon + 1)))) {
          q = s;
          prefix_len = colon ? static_cast<std::uint32_t>(colon - p) : 0;
          return st::ok;
        }
      }
    }
    return scan_qname_general(p, end, q, prefix_len, what_if_empty);
  }

  // scan_qname's general path (out of line, so the fast path above inlines without its
  // set-up): non-ASCII names, errors, limits, names running into the end of input.
  [[gnu::noinline]] st scan_qname_general(const char* p, const char* end, const char*& q,
                                          std::uint32_t& prefix_len, errc what_if_empty) {
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

  // ------------------------------------------------------------------ references
  // Decodes the reference at p ('&'). On ok, q is past ';' and out[0, n) holds the UTF-8.
  st decode_ref(const char* p, const char* end, const char*& q, char* out, std::size_t& n) {
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
  st check_unusual(const char* s, const char* end, const char*& q) {
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

  // ------------------------------------------------------------------ text
  void text_append(const char* a, const char* b) {
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
  void text_append_decoded(const char* a, std::size_t n) {
    if (!text_in_buf) {
      text_buf.assign(text_ptr, text_ptr + text_len);
      text_in_buf = true;
    }
    text_buf.insert(text_buf.end(), a, a + n);
  }
  std::size_t text_size() const noexcept { return text_in_buf ? text_buf.size() : text_len; }

  st text_limit(const char* seg, const char* q) {
    std::uint64_t total = text_size() + static_cast<std::uint64_t>(q - seg);
    if (total > lim.max_text_length) {
      // text_size() <= max_text_length holds (decoded output is checked as it is appended)
      return fail(errc::limit_text_length, seg + (lim.max_text_length - text_size()));
    }
    return st::ok;
  }

  // Comment at p ("<!--"). On ok, q is past "-->".
  st parse_comment(const char* p, const char* end, const char*& q) {
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
  st parse_cdata(const char* p, const char* end, const char*& q) {
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
  st parse_text_run(const char* p, const char* end, const char*& q) {
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

  // ------------------------------------------------------------------ attributes
  // Attribute value after the opening quote at p. On ok, q is past the closing quote.
  st parse_attr_value(const char* p, const char* end, raw_attribute& a, const char*& q) {
    char quote = *p;
    const char* start = p + 1;
    const char* seg = start;
    const char* s = start;
    bool decoded = false;
    std::size_t out_start = values.size();
    auto limit_check = [&](const char* at) -> st {
      std::size_t produced = decoded ? values.size() - out_start : 0;
      if (produced + static_cast<std::uint64_t>(at - seg) > lim.max_text_length) {
        // produced <= max_text_length holds (checked after each decoded character)
        return fail(errc::limit_text_length, seg + (lim.max_text_length - produced));
      }
      return st::ok;
    };
    auto over_limit = [&] { return values.size() - out_start > lim.max_text_length; };
    auto begin_decoding = [&](const char* upto) {
      if (!decoded) {
        decoded = true;
        values.insert(values.end(), start, upto);
      } else {
        values.insert(values.end(), seg, upto);
      }
    };
    for (;;) {
      s = detail::find_attr_special(s, end, quote);
      if (limit_check(s) != st::ok) return st::fail;
      if (s == end) return st::more;
      char c = *s;
      if (c == quote) {
        if (decoded) {
          values.insert(values.end(), seg, s);
          a.value = nullptr;
          a.value_off = out_start;
          a.value_len = values.size() - out_start;
        } else {
          a.value = start;
          a.value_len = static_cast<std::size_t>(s - start);
        }
        q = s + 1;
        return st::ok;
      }
      switch (c) {
        case '<':
          return fail(errc::lt_in_attribute, s);
        case '&': {
          char buf[4];
          std::size_t n = 0;
          const char* after = nullptr;
          st r = decode_ref(s, end, after, buf, n);
          if (r != st::ok) return r;
          begin_decoding(s);
          values.insert(values.end(), buf, buf + n);
          if (over_limit()) return fail(errc::limit_text_length, s);
          s = seg = after;
          continue;
        }
        case '\t':
        case '\n':
          begin_decoding(s);
          values.push_back(' ');
          if (over_limit()) return fail(errc::limit_text_length, s);
          s = seg = s + 1;
          continue;
        case '\r':
          if (s + 1 == end) return st::more;
          begin_decoding(s);
          values.push_back(' ');
          if (over_limit()) return fail(errc::limit_text_length, s);
          s = seg = s + (s[1] == '\n' ? 2 : 1);
          continue;
        case '"':
        case '\'':
          ++s;  // the other quote character
          continue;
        default: {
          const char* after = nullptr;
          st r = check_unusual(s, end, after);
          if (r != st::ok) return r;
          s = after;
        }
      }
    }
  }

  // ------------------------------------------------------------------ tags
  st parse_start_tag(reader& r, const char* p, const char* end, const char*& q) {
    if (elements.size() >= lim.max_depth) return fail(errc::limit_depth, p);
    const char* name = p + 1;
    const char* s = nullptr;
    std::uint32_t prefix_len = 0;
    st res = scan_qname(name, end, s, prefix_len);
    if (res != st::ok) return res;
    const char* name_end = s;
    if (*s == '>' && !elements.empty()) {
      // Fast path, most elements of a SOAP body: "<p:name>" with its parent's prefix, so no
      // attributes or declarations to apply and the parent's namespace.
      const open_element& parent = elements.back();
      if (parent.prefix_len == prefix_len &&
          same_name_bytes(names_base() + parent.name_off, name, prefix_len)) {
        q = s + 1;
        push_element(r, {name, static_cast<std::size_t>(s - name)}, prefix_len, parent.uri_off,
                     parent.uri_len, static_cast<std::uint32_t>(bindings.size()), false);
        r.attributes_ = {};
        r.declarations_ = {};
        return st::ok;
      }
    }
    raw.clear();
    values.clear();
    bool empty = false;
    for (;;) {
      const char* ws = s;
      while (s != end && is_space(*s)) ++s;
      if (s == end) return st::more;
      if (*s == '>') {
        ++s;
        break;
      }
      if (*s == '/') {
        if (s + 1 == end) return st::more;
        if (s[1] != '>') return fail(errc::bad_syntax, s);
        s += 2;
        empty = true;
        break;
      }
      if (s == ws) return fail(errc::bad_syntax, s);
      if (raw.size() >= lim.max_attributes) return fail(errc::limit_attributes, s);
      raw_attribute a{};
      a.qname = s;
      const char* name_end = nullptr;
      res = scan_qname(s, end, name_end, a.prefix_len);
      if (res != st::ok) return res;
      a.qname_len = static_cast<std::uint32_t>(name_end - s);
      s = name_end;
      while (s != end && is_space(*s)) ++s;
      if (s == end) return st::more;
      if (*s != '=') return fail(errc::bad_syntax, s);
      ++s;
      while (s != end && is_space(*s)) ++s;
      if (s == end) return st::more;
      if (*s != '"' && *s != '\'') return fail(errc::bad_syntax, s);
      res = parse_attr_value(s, end, a, s);
      if (res != st::ok) return res;
      raw.push_back(a);
    }
    q = s;
    return finish_start_tag(r, name, name_end, prefix_len, empty);
  }

  // The whole tag has been read: apply its namespace declarations, resolve names, check
  // attribute uniqueness, push the element and publish the token.
  st finish_start_tag(reader& r, const char* name, const char* name_end, std::uint32_t prefix_len,
                      bool empty) {
    auto mark = static_cast<std::uint32_t>(bindings.size());
    decls.clear();
    // 1. namespace declarations (before resolving anything on this tag)
    for (raw_attribute& a : raw) {
      std::string_view qn(a.qname, a.qname_len);
      bool is_default = qn == "xmlns";
      bool is_prefixed = a.prefix_len == 5 && same_name_bytes(a.qname, "xmlns", 5);
      if (!is_default && !is_prefixed) continue;
      std::string_view value = a.value ? std::string_view(a.value, a.value_len)
                                       : std::string_view(values.data() + a.value_off, a.value_len);
      std::string_view prefix =
          is_default ? std::string_view{} : qname_local(a.qname, a.qname_len, a.prefix_len);
      if (prefix.size() == 3 && prefix == "xml") {  // never bound: look through this tag's list
        for (const namespace_declaration& d : decls) {
          if (d.prefix == prefix) return fail(errc::duplicate_attribute, a.qname);
        }
        if (value != xml_ns_uri) return fail(errc::reserved_prefix, a.qname);
      } else {
        // A binding made on this tag (index >= mark) is a duplicate declaration.
        std::uint32_t hash = hash_bytes(prefix);
        std::int32_t slot_index = find_slot(prefix, hash);
        if (slot_index >= 0 &&
            slots[static_cast<std::size_t>(slot_index)].head >= static_cast<std::int32_t>(mark)) {
          return fail(errc::duplicate_attribute, a.qname);
        }
        if (prefix == "xmlns") return fail(errc::reserved_prefix, a.qname);
        if (value == xml_ns_uri || value == xmlns_ns_uri) {
          return fail(errc::reserved_prefix, a.qname);
        }
        if (!is_default && value.empty()) return fail(errc::empty_namespace_prefix, a.qname);
        if (bindings.size() >= lim.max_namespaces) return fail(errc::limit_namespaces, a.qname);
        push_binding(prefix, value, hash, slot_index);
      }
      // Views are fixed up below, once ns_chars stops growing; remember prefix identity now.
      decls.push_back({prefix, value});
      a.qname_len |= 0x80000000u;  // mark: declaration, not an attribute
    }
    // Fix declaration views into stable storage: the prefix is a view into the tag (valid
    // until the next call like other views); the uri into ns_chars or the constant.
    {
      std::size_t b = mark;
      for (namespace_declaration& d : decls) {
        if (d.prefix == "xml") {
          d.uri = xml_ns_uri;
        } else {
          d.uri = uri_view(bindings[b].uri_off, bindings[b].uri_len);
          ++b;
        }
      }
    }
    // 2. the element name
    std::string_view qname(name, static_cast<std::size_t>(name_end - name));
    std::string_view prefix = qname_prefix(name, prefix_len);
    if (prefix == "xmlns") return fail(errc::reserved_prefix, name);
    std::uint32_t uri_off = 0, uri_len = 0;
    const open_element* parent = elements.empty() ? nullptr : &elements.back();
    if (parent && bindings.size() == mark && parent->prefix_len == prefix_len &&
        same_name_bytes(names_base() + parent->name_off, name, prefix_len)) {
      // Same prefix as the parent and no declarations here: same namespace (the common case).
      uri_off = parent->uri_off;
      uri_len = parent->uri_len;
    } else if (!resolve(prefix, uri_off, uri_len)) {
      return fail(errc::undeclared_prefix, name);
    }
    // 3. attributes
    attrs.clear();
    for (const raw_attribute& a : raw) {
      if (a.qname_len & 0x80000000u) continue;
      std::string_view qn(a.qname, a.qname_len);
      attribute at;
      at.prefix = qname_prefix(a.qname, a.prefix_len);
      at.local = qname_local(a.qname, a.qname_len, a.prefix_len);
      at.value = a.value ? std::string_view(a.value, a.value_len)
                         : std::string_view(values.data() + a.value_off, a.value_len);
      if (a.prefix_len) {
        std::uint32_t off = 0, len = 0;
        if (!resolve(at.prefix, off, len)) return fail(errc::undeclared_prefix, a.qname);
        at.ns = uri_view(off, len);
      }
      attrs.push_back(at);
    }
    if (st d = check_duplicates(); d != st::ok) return d;
    push_element(r, qname, prefix_len, uri_off, uri_len, mark, empty);
    r.attributes_ = {attrs.data(), attrs.size()};
    r.declarations_ = {decls.data(), decls.size()};
    return st::ok;
  }

  // Pushes the element whose start tag was read and publishes the token (except attributes
  // and declarations).
  void push_element(reader& r, std::string_view qname, std::uint32_t prefix_len,
                    std::uint32_t uri_off, std::uint32_t uri_len, std::uint32_t mark, bool empty) {
    open_element e;
    const char* name = qname.data();
    if (whole) {
      e.name_off = static_cast<std::size_t>(name - data);
    } else {
      e.name_off = names.size();
      names.append(qname.data(), qname.size());
    }
    e.name_len = static_cast<std::uint32_t>(qname.size());
    e.prefix_len = prefix_len;
    e.uri_off = uri_off;
    e.uri_len = uri_len;
    e.bindings_mark = mark;
    elements.push_back(e);
    r.prefix_ = qname_prefix(qname.data(), prefix_len);
    r.local_ = qname_local(qname.data(), qname.size(), prefix_len);
    r.ns_ = uri_view(uri_off, uri_len);
    r.depth_ = static_cast<std::uint32_t>(elements.size());
    r.empty_element_ = empty;
    r.text_ = {};
    pending_end = empty;
  }

  // Finds the position (in raw) of the attribute attrs[i] for error reporting.
  const char* attr_qname(std::size_t i) const noexcept {
    std::size_t k = 0;
    for (const raw_attribute& a : raw) {
      if (a.qname_len & 0x80000000u) continue;
      if (k++ == i) return a.qname;
    }
    return nullptr;
  }

  st check_duplicates() {
    std::size_t n = attrs.size();
    if (n < 2) return st::ok;
    if (n <= 8) {
      for (std::size_t i = 1; i < n; ++i) {
        for (std::size_t j = 0; j < i; ++j) {
          if (attrs[i].local == attrs[j].local && attrs[i].ns == attrs[j].ns) {
            return fail(errc::duplicate_attribute, attr_qname(i));
          }
        }
      }
      return st::ok;
    }
    std::size_t cap = 16;
    while (cap < n * 2) cap *= 2;
    dup_table.assign(cap, 0);
    for (std::size_t i = 0; i < n; ++i) {
      std::uint32_t h = hash_bytes(attrs[i].local) * 31u + hash_bytes(attrs[i].ns);
      for (std::size_t k = h & (cap - 1);; k = (k + 1) & (cap - 1)) {
        std::uint32_t v = dup_table[k];
        if (v == 0) {
          dup_table[k] = static_cast<std::uint32_t>(i + 1);
          break;
        }
        const attribute& o = attrs[v - 1];
        if (o.local == attrs[i].local && o.ns == attrs[i].ns) {
          return fail(errc::duplicate_attribute, attr_qname(i));
        }
      }
    }
    return st::ok;
  }

  st parse_end_tag(reader& r, const char* p, const char* end, const char*& q) {
    const char* name = p + 2;
    {
      // Fast path: exactly the open element's name, then '>'. That name was validated when
      // the start tag was read, so no character checks are needed.
      const open_element& e = elements.back();
      if (static_cast<std::size_t>(end - name) > e.name_len && name[e.name_len] == '>' &&
          same_name_bytes(name, names_base() + e.name_off, e.name_len)) {
        q = name + e.name_len + 1;
        emit_end(r);
        return st::ok;
      }
    }
    const char* s = nullptr;
    std::uint32_t prefix_len = 0;
    st res = scan_qname(name, end, s, prefix_len);
    if (res != st::ok) return res;
    std::string_view qname(name, static_cast<std::size_t>(s - name));
    while (s != end && is_space(*s)) ++s;
    if (s == end) return st::more;
    if (*s != '>') return fail(errc::bad_syntax, s);
    const open_element& e = elements.back();
    std::string_view open(names_base() + e.name_off, e.name_len);
    if (qname != open) return fail(errc::tag_mismatch, p);
    q = s + 1;
    emit_end(r);
    return st::ok;
  }

  [[gnu::always_inline]] void emit_end(reader& r) {
    const open_element& e = elements.back();
    std::string_view qname(names_base() + e.name_off, e.name_len);
    r.prefix_ = qname_prefix(qname.data(), e.prefix_len);
    r.local_ = qname_local(qname.data(), qname.size(), e.prefix_len);
    r.ns_ = uri_view(e.uri_off, e.uri_len);
    r.attributes_ = {};
    r.declarations_ = {};
    r.text_ = {};
    r.depth_ = static_cast<std::uint32_t>(elements.size());
    pending_pop = true;
  }

  // ------------------------------------------------------------------ prolog
  st parse_declaration(const char* p, const char* end, const char*& q) {
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
      if (iequals_ascii(enc, "US-ASCII")) {
        ascii_only = true;
      } else if (!iequals_ascii(enc, "UTF-8")) {
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

  [[gnu::noinline]] st step_start() {
    const char* p = data + pos;
    const char* end = data + size;
    std::size_t avail = size - pos;
    auto b = [&](std::size_t i) { return static_cast<unsigned char>(p[i]); };
    // Decide BOM, encoding and declaration in one go (nothing consumed before that).
    if (!eof && (avail < 2 || is_prefix_of(p, end, "\xEF\xBB\xBF<?xml ") ||
                 is_prefix_of(p, end, "<?xml "))) {
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
  [[gnu::noinline]] st step_misc(reader& r, token& out) {
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

  st step_content(reader& r, token& out) {
    const char* p = data + pos;
    const char* end = data + size;
    if (p == end) return st::more;
    const char* q = nullptr;
    if (!text_resume) {
      tok_off = offset_of(p);
      tok_pos_valid = false;
    }
    if (*p == '<' && !text_resume) {
      if (p + 1 == end) return st::more;
      char c = p[1];
      if (c == '/') {
        st res = parse_end_tag(r, p, end, q);
        if (res != st::ok) return res;
        pos = static_cast<std::size_t>(q - data);
        out = token::end_element;
        return st::ok;
      }
      if (c == '?') return fail(errc::pi_forbidden, p);
      if (c != '!') {
        st res = parse_start_tag(r, p, end, q);
        if (res != st::ok) return res;
        pos = static_cast<std::size_t>(q - data);
        out = token::start_element;
        return st::ok;
      }
    }
    if (!text_resume) {
      // Fast path: character data that needs no decoding, ended by a tag.
      const char* s = detail::find_text_special(p, end);
      if (s != end && *s == '<' && end - s >= 2 && s[1] != '!' &&
          static_cast<std::uint64_t>(s - p) <= lim.max_text_length) {
        pos = static_cast<std::size_t>(s - data);
        text_in_buf = false;
        text_len = 0;
        r.text_ = {p, static_cast<std::size_t>(s - p)};
        r.depth_ = static_cast<std::uint32_t>(elements.size());
        r.attributes_ = {};
        r.declarations_ = {};
        out = token::text;
        return st::ok;
      }
    }
    st res = parse_text_run(p, end, q);
    if (res == st::more && text_resume && !whole) {
      pos = static_cast<std::size_t>(text_safe - data);  // the run so far is in text_buf
    }
    if (res != st::ok) return res;
    pos = static_cast<std::size_t>(q - data);
    if (text_size() == 0) return st::skip;  // comments only
    r.text_ = text_in_buf ? std::string_view(text_buf.data(), text_buf.size())
                          : std::string_view(text_ptr, text_len);
    r.depth_ = static_cast<std::uint32_t>(elements.size());
    r.attributes_ = {};
    r.declarations_ = {};
    out = token::text;
    return st::ok;
  }

  // Starts the completion scan for the incomplete token at pos.
  [[gnu::noinline]] void start_hint() {
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
  [[gnu::noinline]] bool hint_complete() {
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

  // reader::next_text_content(): the text and the end tag of a simple element in one step,
  // when both are already buffered and need no decoding; anything else takes next().
  token next_text_content(reader& r) {
    if (ph == phase::content && !pending_end && !pending_pop && retry_at == 0 && !text_resume) {
      const char* p = data + pos;
      const char* end = data + size;
      const char* s = detail::find_text_special(p, end);
      const open_element& e = elements.back();
      const char* name = s + 2;
      if (end - s > static_cast<std::ptrdiff_t>(e.name_len) + 2 && s[0] == '<' && s[1] == '/' &&
          name[e.name_len] == '>' && same_name_bytes(name, names_base() + e.name_off, e.name_len) &&
          static_cast<std::uint64_t>(s - p) <= lim.max_text_length) {
        tok_off = offset_of(s);
        tok_pos_valid = false;
        pos = static_cast<std::size_t>(name + e.name_len + 1 - data);
        emit_end(r);
        r.text_ = {p, static_cast<std::size_t>(s - p)};
        r.empty_element_ = false;
        return token::end_element;
      }
    }
    return r.next();
  }

  // next_simple_element's text when it holds predefined entity references (gSOAP, lather and
  // CXF escape '&' and '<' that way): from `text`, whose first reference is at s, decoded into
  // leaf_text up to the next byte that is neither plain character data nor such a reference,
  // which is returned; nullptr for any other reference (a character reference, another name, a
  // name the name length limit refuses, one cut by the end of the buffer), left to next().
  [[gnu::noinline]] const char* decode_leaf_refs(const char* text, const char* s, const char* end) {
    if (lim.max_name_length < 4) return nullptr;
    leaf_text.truncate(0);
    const char* seg = text;
    do {
      char c;
      const std::size_t len = predefined_entity(s, end, c);
      if (len == 0) return nullptr;
      leaf_text.append(seg, static_cast<std::size_t>(s - seg));
      leaf_text.append(&c, 1);
      seg = s + len;
      s = detail::find_text_special(seg, end);
    } while (s != end && *s == '&');
    leaf_text.append(seg, static_cast<std::size_t>(s - seg));
    return s;
  }

  // reader::next_simple_element(): a whole `<P:local>text</P:local>` child in one step, checked
  // by comparing bytes. Why that is a complete check: P is the current element's prefix and
  // the tag declares nothing, so P means what it meant on the current element (its namespace
  // is the child's); `local` is an NCName (precondition), so the compared bytes are a valid
  // name; the text stops at every byte that needs a decision (find_text_special), and the only
  // one decided here is a predefined entity reference, decoded as decode_ref decodes it; the end
  // tag is the same bytes. Limits that could be crossed fail over to next(), which reports them
  // (the text limit is checked on the undecoded bytes, never fewer than the decoded ones).
  bool next_simple_element(reader& r, std::string_view local) {
    if (ph != phase::content || pending_end || retry_at != 0 || text_resume) return false;
    if (pending_pop) {
      pending_pop = false;
      pop_element();
      if (elements.empty()) {
        ph = phase::epilog;
        return false;
      }
    }
    const open_element& parent = elements.back();
    const std::size_t prefix_len = parent.prefix_len;
    const std::size_t name_len = prefix_len + (prefix_len != 0) + local.size();
    if (elements.size() >= lim.max_depth || name_len > lim.max_name_length) return false;
    const char* p = data + pos;
    const char* end = data + size;
    // '<' name '>' ... '</' name '>': the shortest such element
    if (static_cast<std::size_t>(end - p) < 2 * name_len + 5 || *p != '<') return false;
    const char* name = p + 1;
    // The parent's qname holds its prefix and ':' (prefix_len != 0): one compare for both.
    if (prefix_len != 0 && !same_name_bytes(name, names_base() + parent.name_off, prefix_len + 1))
      return false;
    if (name[name_len] != '>' ||
        !same_name_bytes(name + name_len - local.size(), local.data(), local.size())) {
      return false;
    }
    const char* text = name + name_len + 1;
    const char* s = detail::find_text_special(text, end);
    std::string_view content(text, static_cast<std::size_t>(s - text));
    if (s != end && *s == '&') {
      s = decode_leaf_refs(text, s, end);
      if (s == nullptr) return false;
      content = {leaf_text.data(), leaf_text.size()};
    }
    if (static_cast<std::size_t>(end - s) < name_len + 3 || s[0] != '<' || s[1] != '/' ||
        s[2 + name_len] != '>' || !same_name_bytes(s + 2, name, name_len) ||
        static_cast<std::uint64_t>(s - text) > lim.max_text_length) {
      return false;
    }
    tok_off = offset_of(s);
    tok_pos_valid = false;
    pos = static_cast<std::size_t>(s + name_len + 3 - data);
    r.prefix_ = {name, prefix_len};
    r.local_ = {name + name_len - local.size(), local.size()};
    r.ns_ = uri_view(parent.uri_off, parent.uri_len);
    r.text_ = content;
    r.attributes_ = {};
    r.declarations_ = {};
    r.depth_ = static_cast<std::uint32_t>(elements.size() + 1);
    r.empty_element_ = false;
    return true;
  }

  // Inlined into reader::next() (one call per token, not two); next_text_content's fallback
  // goes through reader::next().
  [[gnu::always_inline]] token next(reader& r) {
    if (ph == phase::failed) return token::error;
    if (ph == phase::done) return token::end_document;
    if (pending_end) {
      pending_end = false;
      emit_end(r);
      r.empty_element_ = true;
      return token::end_element;
    }
    if (pending_pop) {
      pending_pop = false;
      pop_element();
      if (elements.empty()) ph = phase::epilog;
    }
    r.empty_element_ = false;
    for (;;) {
      // Streaming: an incomplete token is retried only once its bytes have doubled.
      if (retry_at != 0 && !eof &&
          (size - pos <= failed_at || (size - pos < retry_at && !hint_complete()))) {
        if (pull()) continue;
        return token::need_more;
      }
      token out = token::error;
      st s;
      switch (ph) {
        case phase::start:
          s = step_start();
          break;
        case phase::prolog:
        case phase::epilog:
          s = step_misc(r, out);
          break;
        case phase::content:
          s = step_content(r, out);
          break;
        default:
          return ph == phase::done ? token::end_document : token::error;
      }
      switch (s) {
        case st::ok:
          retry_at = 0;
          return out;
        case st::skip:
          retry_at = 0;
          continue;
        case st::fail:
          return token::error;
        case st::more:
          if (eof) {
            fail(truncated ? errc::limit_total_bytes : errc::unexpected_eof, data + size);
            return token::error;
          }
          failed_at = size - pos;
          retry_at = std::max<std::size_t>(2 * failed_at, failed_at + 1);
          start_hint();
          continue;
      }
    }
  }
};

reader::reader(const limits& lim) : impl_(std::make_unique<impl>(lim)) {
  impl_->reset_whole({});
}
reader::~reader() = default;
reader::reader(reader&&) noexcept = default;
reader& reader::operator=(reader&&) noexcept = default;

void reader::reset(std::string_view document) {
  impl_->reset_whole(document);
  ns_ = local_ = prefix_ = text_ = {};
  attributes_ = {};
  declarations_ = {};
  depth_ = 0;
  empty_element_ = false;
}

void reader::reset() {
  impl_->reset_stream();
  ns_ = local_ = prefix_ = text_ = {};
  attributes_ = {};
  declarations_ = {};
  depth_ = 0;
  empty_element_ = false;
}

void reader::set_limits(const limits& lim) {
  impl_->lim = lim;
}
const limits& reader::get_limits() const noexcept {
  return impl_->lim;
}
void reader::feed(std::string_view bytes) {
  impl_->feed(bytes);
}
void reader::finish() {
  if (!impl_->whole) impl_->eof = true;
}
void reader::set_source(source_fn source) {
  impl_->source = std::move(source);
}

token reader::next() {
  return impl_->next(*this);
}

token reader::next_text_content() {
  return impl_->next_text_content(*this);
}

bool reader::next_simple_element(std::string_view local) {
  return impl_->next_simple_element(*this, local);
}

token reader::skip_element() {
  impl& m = *impl_;
  if (m.skip_depth == 0) m.skip_depth = depth_;
  for (;;) {
    token t = next();
    if (t == token::need_more || t == token::error) return t;
    if (t == token::end_element && depth_ == m.skip_depth) {
      m.skip_depth = 0;
      return t;
    }
    if (t == token::end_document) {
      m.skip_depth = 0;
      return t;
    }
  }
}

const attribute* reader::find_attribute(std::string_view ns_uri,
                                        std::string_view local) const noexcept {
  for (const attribute& a : attributes_) {
    if (a.local == local && a.ns == ns_uri) return &a;
  }
  return nullptr;
}

std::optional<std::string_view> reader::lookup_namespace(std::string_view prefix) const noexcept {
  std::uint32_t off = 0, len = 0;
  if (prefix == "xmlns") return xmlns_ns_uri;
  if (!impl_->resolve(prefix, off, len)) return std::nullopt;
  return impl_->uri_view(off, len);
}

position reader::where() const noexcept {
  const impl& m = *impl_;
  if (m.err) return m.err.where;
  if (!m.tok_pos_valid) {
    m.tok_pos = m.position_of(m.tok_off);
    m.tok_pos_valid = true;
  }
  return m.tok_pos;
}

const error_info& reader::error() const noexcept {
  return impl_->err;
}

std::uint64_t reader::bytes_consumed() const noexcept {
  return impl_->base + impl_->pos;
}

std::size_t reader::buffer_capacity() const noexcept {
  return impl_->store_cap;
}

}  // namespace lather::xml
