// reader::impl, the XML pull reader's state and parsing steps (private header).
//
// The steps live in one source file per concern; the per-token hot path (next(), the content
// step, end tags, the one-step leaf readers) stays in reader.cpp, where it is inlined:
//   reader.cpp             the public reader API, next() and the content step, end tags,
//                          next_text_content() and next_simple_element()
//   reader_tags.cpp        start tags: attributes, namespace declarations and bindings
//   reader_text.cpp        character data: text runs, CDATA, comments, references, names
//   reader_prolog.cpp      the XML declaration, prolog and epilog
//   reader_input.cpp       the input buffer (whole, push, pull), positions and errors, and
//                          the completion scan that decides when an incomplete token is retried
//   reader_chars.hpp       character-level helpers
//
// Inlining: a step used by one file only is defined `inline` there. Where a step must be
// inlined into its caller for speed, its declaration below says `always_inline` (GCC inlined
// these on its own while the reader was one file with internal types; callgrind on
// `lather-bench-xml --parses` guards the instruction counts).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "lather/xml/reader.hpp"
#include "reader_chars.hpp"
#include "scan.hpp"

namespace lather::xml {

struct reader::impl {
  using st = detail::st;

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
  bool ascii_only = false;  // encoding="US-ASCII"
  // An empty element's end_element is due (end_due); the current start or end tag is returned
  // again by the next call of next() (replay_start, replay_end: reader::unread()).
  static constexpr std::uint8_t end_due = 1, replay_start = 2, replay_end = 4;
  std::uint8_t pending_end = 0;
  bool pending_pop = false;  // the element closed by the last end_element is still on the stack
  std::uint32_t skip_depth = 0;

  // ---- open elements: qnames point into the document (whole mode) or are copied to `names`
  // (streaming, since consumed input is discarded); name_off is relative to names_base() ----
  struct open_element {
    std::size_t name_off;
    std::uint32_t name_len, prefix_len, uri_off, uri_len, bindings_mark;
  };
  std::vector<open_element> elements;
  detail::byte_stack names;

  // ---- namespace bindings: a stack, plus prefix -> newest binding (open addressing) ----
  struct binding {
    std::uint32_t prefix_off, prefix_len, uri_off, uri_len;
    std::int32_t prev;   // older binding of the same prefix, or -1
    std::uint32_t hash;  // hash_bytes(prefix), so rehashing and deletion never rescan it
  };
  std::vector<binding> bindings;
  detail::byte_stack ns_chars;
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
  std::vector<char> text_buf;    // decoded or merged text
  detail::byte_stack leaf_text;  // next_simple_element's text when it had references
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

  // What pull() asks the source for at least.
  static constexpr std::size_t pull_chunk = 16384;

  const char* names_base() const noexcept { return whole ? data : names.data(); }

  // ---- small accessors used by every step
  std::string_view binding_prefix(const binding& b) const noexcept {
    return {ns_chars.data() + b.prefix_off, b.prefix_len};
  }
  std::string_view uri_view(std::uint32_t off, std::uint32_t len) const noexcept {
    if (off == detail::builtin_xml_uri) return detail::xml_ns_uri;
    return {ns_chars.data() + off, len};
  }
  std::uint64_t offset_of(const char* p) const noexcept {
    return base + static_cast<std::uint64_t>(p - data);
  }
  st fail(errc code, const char* at) {
    return fail_at(code, base + static_cast<std::uint64_t>(at - data));
  }
  std::size_t text_size() const noexcept { return text_in_buf ? text_buf.size() : text_len; }

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
        return x < cap &&
               (detail::ascii_name[static_cast<unsigned char>(*x) & 0x7F] &
                detail::name_start_bit) &&
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

  // ---- input, positions and errors (reader_input.cpp)
  position position_of(std::uint64_t off) const noexcept;
  st fail_at(errc code, std::uint64_t off);
  void reset_state();
  void reset_whole(std::string_view doc);
  void reset_stream();
  void reserve(std::size_t n);
  std::size_t accept_bytes(std::size_t n);
  void feed(std::string_view bytes);
  bool pull();
  [[gnu::noinline]] void start_hint();
  [[gnu::noinline]] bool hint_complete();

  // ---- prolog and epilog (reader_prolog.cpp)
  st parse_declaration(const char* p, const char* end, const char*& q);
  [[gnu::noinline]] st step_start();
  [[gnu::noinline]] st step_misc(reader& r, token& out);

  // ---- character data, names and references (reader_text.cpp)
  [[gnu::noinline]] st scan_qname_general(const char* p, const char* end, const char*& q,
                                          std::uint32_t& prefix_len, errc what_if_empty);
  st decode_ref(const char* p, const char* end, const char*& q, char* out, std::size_t& n);
  st check_unusual(const char* s, const char* end, const char*& q);
  [[gnu::always_inline]] void text_append(const char* a, const char* b);
  void text_append_decoded(const char* a, std::size_t n);
  st text_limit(const char* seg, const char* q);
  st parse_comment(const char* p, const char* end, const char*& q);
  st parse_cdata(const char* p, const char* end, const char*& q);
  st parse_text_run(const char* p, const char* end, const char*& q);

  // ---- start tags, attributes and namespaces (reader_tags.cpp)
  st parse_start_tag(reader& r, const char* p, const char* end, const char*& q);
  [[gnu::always_inline]] st parse_attr_value(const char* p, const char* end, raw_attribute& a,
                                             const char*& q);
  st finish_start_tag(reader& r, const char* name, const char* name_end, std::uint32_t prefix_len,
                      bool empty);
  void push_element(reader& r, std::string_view qname, std::uint32_t prefix_len,
                    std::uint32_t uri_off, std::uint32_t uri_len, std::uint32_t mark, bool empty);
  const char* attr_qname(std::size_t i) const noexcept;
  [[gnu::always_inline]] st check_duplicates();
  std::int32_t find_slot(std::string_view prefix) const noexcept;
  std::int32_t find_slot(std::string_view prefix, std::uint32_t hash) const noexcept;
  void place(const slot& s);
  void push_binding(std::string_view prefix, std::string_view uri, std::uint32_t hash,
                    std::int32_t s);
  void pop_binding();
  [[gnu::always_inline]] bool resolve(std::string_view prefix, std::uint32_t& off,
                                      std::uint32_t& len) const noexcept;
  std::optional<std::string_view> lookup_namespace(std::string_view prefix) const noexcept;
  [[gnu::noinline]] void pop_element();

  // ---- the per-token path (reader.cpp)
  [[gnu::always_inline]] st step_content(reader& r, token& out);
  [[gnu::always_inline]] st parse_end_tag(reader& r, const char* p, const char* end,
                                          const char*& q);
  [[gnu::always_inline]] void emit_end(reader& r);
  token next_text_content(reader& r);
  [[gnu::noinline]] const char* decode_leaf_refs(const char* text, const char* s, const char* end);
  bool next_simple_element(reader& r, std::string_view local);
  [[gnu::always_inline]] token next(reader& r);
};

}  // namespace lather::xml
