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
// The parsing steps are in reader_*.cpp by concern (see reader_impl.hpp); this file holds the
// public API and the per-token path, which stays inlined into reader::next().
#include "reader_impl.hpp"

#include <algorithm>

namespace lather::xml {

using namespace detail;  // the reader's private helpers: reader_chars.hpp, scan.hpp

[[gnu::always_inline]] inline void reader::impl::emit_end(reader& r) {
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

inline st reader::impl::parse_end_tag(reader& r, const char* p, const char* end, const char*& q) {
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

inline st reader::impl::step_content(reader& r, token& out) {
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

// reader::next_text_content(): the text and the end tag of a simple element in one step,
// when both are already buffered and need no decoding; anything else takes next().
inline token reader::impl::next_text_content(reader& r) {
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
[[gnu::noinline]] const char* reader::impl::decode_leaf_refs(const char* text, const char* s,
                                                             const char* end) {
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
inline bool reader::impl::next_simple_element(reader& r, std::string_view local) {
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
[[gnu::always_inline]] inline token reader::impl::next(reader& r) {
  if (ph == phase::failed) return token::error;
  if (ph == phase::done) return token::end_document;
  if (pending_end) {  // one test for both: most tokens have neither
    if (pending_end & (replay_start | replay_end)) {
      const token again = (pending_end & replay_end) ? token::end_element : token::start_element;
      pending_end &= end_due;
      return again;
    }
    pending_end = 0;
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

void reader::unread(token current) noexcept {
  impl_->pending_end |= current == token::end_element ? impl::replay_end : impl::replay_start;
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
  return impl_->lookup_namespace(prefix);
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
