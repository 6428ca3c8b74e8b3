#include "dsig.hpp"

#include <algorithm>
#include <stdexcept>

#include "lather/bind/xsd.hpp"
#include "lather/wsse/fault.hpp"
#include "lather/xml/error.hpp"

namespace lather::wsse::detail {

std::string_view id_of(const xml::reader& r) noexcept {
  if (const xml::attribute* a = r.find_attribute(wsu_ns, "Id")) return a->value;
  if (const xml::attribute* a = r.find_attribute({}, "Id")) return a->value;
  return {};
}

c14n_target& canonicalizer::add() {
  c14n_target& t = targets_.add();
  t.id.clear();
  t.ordinal = 0;
  t.md.reset();
  t.prefixes.clear();
  t.found = false;
  t.digest_size = 0;
  t.canonical.clear();
  return t;
}

namespace {

std::string_view trim_spaces(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The Content-ID of a "cid:" URL (RFC 2392: percent-encoded), into `out`; false if it is not one.
bool content_id(std::string_view href, std::string& out) {
  if (href.size() < 5 || !std::equal(href.begin(), href.begin() + 4,
                                     "cid:", [](char a, char b) { return (a | 0x20) == b; }))
    return false;
  out.clear();
  for (std::size_t i = 4; i < href.size(); ++i) {
    const auto hex = [](char c) {
      return c >= '0' && c <= '9'                     ? c - '0'
             : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10
                                                      : -1;
    };
    if (href[i] == '%' && i + 2 < href.size() && hex(href[i + 1]) >= 0 && hex(href[i + 2]) >= 0) {
      out += static_cast<char>(hex(href[i + 1]) * 16 + hex(href[i + 2]));
      i += 2;
    } else {
      out += href[i];
    }
  }
  return !out.empty();
}

}  // namespace

void canonicalizer::include(xml::reader& r, const xop_parts& parts) {
  const xml::attribute* href = r.find_attribute({}, "href");
  // Only cid: names a part of this message; anything else is never fetched.
  if (!href || !content_id(href->value, encoded_))
    throw std::invalid_argument("an xop:Include whose href is not a cid: URL");
  byte_source part = parts(encoded_);
  if (!part) throw std::invalid_argument("an xop:Include names no MIME part");
  // Pieces of a multiple of 3 bytes, so their base64 texts join into the part's.
  constexpr std::size_t piece = 48 * 1024;
  part_buffer_.resize(piece);
  for (bool more = true; more;) {
    std::size_t n = 0;
    while (n < piece) {
      const std::size_t got = part(part_buffer_.data() + n, piece - n);
      if (got == 0) {
        more = false;
        break;
      }
      n += got;
    }
    encoded_.clear();
    xsd::base64_encode({reinterpret_cast<const std::uint8_t*>(part_buffer_.data()), n}, encoded_);
    for (engine* e : running_) e->c14n.text(encoded_);
  }
  if (r.is_empty_element()) {
    r.next();
    return;
  }
  // An Include has no children (XOP 1.0 section 2.2); text between its tags is whitespace.
  for (xml::token t = r.next(); t != xml::token::end_element; t = r.next())
    if (t != xml::token::text || r.text().find_first_not_of(" \t\r\n") != std::string_view::npos)
      throw std::invalid_argument("an xop:Include with content");
}

void canonicalizer::run(std::string_view message, const xop_parts* parts) {
  xml::reader& r = reader_;
  r.reset(message);
  running_.clear();
  std::size_t engines_used = 0;
  std::uint64_t ordinal = 0;
  for (xml::token t = r.next(); t != xml::token::end_document; t = r.next()) {
    if (t == xml::token::error) throw xml::error(r.error());
    if (t == xml::token::start_element && !running_.empty() && r.is(xop_ns, "Include")) {
      // Digesting the Include element itself would leave the attachment's bytes unsigned.
      if (!parts)
        throw std::invalid_argument("an xop:Include in a signed element, without its part");
      ++ordinal;
      include(r, *parts);
      continue;
    }
    if (t == xml::token::start_element) {
      ++ordinal;
      const std::string_view id = id_of(r);
      for (c14n_target& target : targets_) {
        const bool hit =
            target.ordinal ? target.ordinal == ordinal : !id.empty() && target.id == id;
        if (!hit || target.found) continue;
        target.found = true;
        if (engines_used == engines_.size()) engines_.push_back(std::make_unique<engine>());
        engine& e = *engines_[engines_used++];
        e.target = &target;
        if (target.md) e.md.init(*target.md);
        e.c14n.reset(target.prefixes);
        running_.push_back(&e);
      }
    }
    for (engine* e : running_) e->c14n.feed(t, r);
    for (std::size_t i = 0; i < running_.size();) {
      engine& e = *running_[i];
      if (!e.c14n.complete()) {
        ++i;
        continue;
      }
      if (e.target->md) e.target->digest_size = e.md.final(e.target->digest);
      running_.erase(running_.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
}

xop_parts mime_message::source() const {
  return [this](std::string_view cid) -> byte_source {
    for (const part& p : parts)
      if (p.content_id == cid)
        return [body = p.body](char* dest, std::size_t capacity) mutable {
          const std::size_t n = std::min(capacity, body.size());
          std::copy_n(body.data(), n, dest);
          body.remove_prefix(n);
          return n;
        };
    return {};
  };
}

namespace {

// The value of header `name` (case-insensitive) in a part's header block ("" when none).
std::string_view header_value(std::string_view headers, std::string_view name) {
  for (std::size_t at = 0; at < headers.size();) {
    std::size_t end = headers.find("\r\n", at);
    if (end == std::string_view::npos) end = headers.size();
    const std::string_view line = headers.substr(at, end - at);
    const std::size_t colon = line.find(':');
    if (colon == name.size() && std::equal(name.begin(), name.end(), line.begin(),
                                           [](char a, char b) { return (a | 0x20) == (b | 0x20); }))
      return trim_spaces(line.substr(colon + 1));
    at = end + 2;
  }
  return {};
}

}  // namespace

bool split_mime(std::string_view message, mime_message& out) {
  out.parts.clear();
  if (!message.starts_with("--")) return false;
  const std::size_t first_end = message.find("\r\n");
  if (first_end == std::string_view::npos || first_end == 2)
    throw std::invalid_argument("a multipart message without a boundary line");
  const std::string_view boundary = trim_spaces(message.substr(2, first_end - 2));
  // Each part: its headers, a blank line, its body up to CRLF "--" boundary.
  std::size_t at = first_end + 2;
  for (bool root = true;; root = false) {
    const std::size_t headers_end = message.find("\r\n\r\n", at);
    if (headers_end == std::string_view::npos)
      throw std::invalid_argument("a MIME part without the end of its headers");
    const std::string_view headers = message.substr(at, headers_end - at);
    const std::size_t body = headers_end + 4;
    std::size_t next = body;
    for (;; ++next) {
      next = message.find("\r\n--", next);
      if (next == std::string_view::npos)
        throw std::invalid_argument("a multipart message without its closing boundary");
      if (message.substr(next + 4, boundary.size()) == boundary) break;
    }
    if (root) {
      out.root_begin = body;
      out.root_size = next - body;
    } else {
      mime_message::part& p = out.parts.add();
      std::string_view id = header_value(headers, "Content-ID");
      if (id.size() >= 2 && id.front() == '<' && id.back() == '>') id = id.substr(1, id.size() - 2);
      p.content_id.assign(id);
      p.body = message.substr(body, next - body);
    }
    at = next + 4 + boundary.size();
    if (message.substr(at, 2) == "--") return true;
    if (message.substr(at, 2) != "\r\n")
      throw std::invalid_argument("a MIME boundary not followed by a line end");
    at += 2;
  }
}

std::size_t start_tag_end(std::string_view doc, std::size_t lt) {
  char quote = 0;
  for (std::size_t i = lt; i < doc.size(); ++i) {
    const char c = doc[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '>') {
      return i;
    }
  }
  throw std::invalid_argument("unterminated start tag");
}

void split_prefixes(std::string_view list, std::vector<std::string>& out) {
  std::size_t n = 0;
  std::size_t at = 0;
  while (at < list.size()) {
    const std::size_t begin = list.find_first_not_of(" \t\r\n", at);
    if (begin == std::string_view::npos) break;
    const std::size_t end = std::min(list.find_first_of(" \t\r\n", begin), list.size());
    if (n == out.size()) out.emplace_back();
    out[n++].assign(list.substr(begin, end - begin));
    at = end;
  }
  out.resize(n);
}

}  // namespace lather::wsse::detail
