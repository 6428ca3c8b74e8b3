// Exclusive XML Canonicalization 1.0 over lather's pull reader (W3C exc-c14n, section 3, with
// C14N 1.0's serialization rules, section 2.3).
#include "lather/wsse/c14n.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "dsig.hpp"
#include "lather/xml/error.hpp"
#include "lather/xml/reader.hpp"

namespace lather::wsse {

namespace detail {

void escape_attribute(std::string& out, std::string_view s) {
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\t':
        out += "&#x9;";
        break;
      case '\n':
        out += "&#xA;";
        break;
      case '\r':
        out += "&#xD;";
        break;
      default:
        out += c;
    }
  }
}

}  // namespace detail

namespace {

using detail::escape_attribute;

constexpr std::size_t flush_at = 4096;

void escape_text(std::string& out, std::string_view s) {
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '\r':
        out += "&#xD;";
        break;
      default:
        out += c;
    }
  }
}

void put_qname(std::string& out, std::string_view prefix, std::string_view local) {
  if (!prefix.empty()) {
    out += prefix;
    out += ':';
  }
  out += local;
}

}  // namespace

exclusive_c14n::exclusive_c14n(sink out, std::vector<std::string> inclusive_prefixes)
    : out_(std::move(out)) {
  reset(inclusive_prefixes);
}

exclusive_c14n::exclusive_c14n(sink out, std::initializer_list<std::string_view> inclusive_prefixes)
    : exclusive_c14n(std::move(out), std::vector<std::string>(inclusive_prefixes.begin(),
                                                              inclusive_prefixes.end())) {}

void exclusive_c14n::reset(std::span<const std::string> inclusive_prefixes) {
  // Assigned element by element: the strings kept reuse their capacity.
  inclusive_.resize(inclusive_prefixes.size());
  std::copy(inclusive_prefixes.begin(), inclusive_prefixes.end(), inclusive_.begin());
  rendered_size_ = 0;
  buf_.clear();
  depth_ = 0;
  started_ = false;
}

const std::string* exclusive_c14n::in_effect(std::string_view prefix) const noexcept {
  for (std::size_t i = rendered_size_; i-- > 0;)
    if (rendered_[i].prefix == prefix) return &rendered_[i].uri;
  return nullptr;
}

// A namespace node to render on the current element unless the nearest output ancestor
// already rendered the same binding (the default namespace is "" above the apex).
void exclusive_c14n::consider(std::string_view prefix, std::string_view uri) {
  if (prefix == "xml") return;
  for (const pending_ns& p : pending_)
    if (p.prefix == prefix) return;
  const std::string* current = in_effect(prefix);
  if (current ? *current == uri : uri.empty()) return;
  pending_.push_back({prefix, uri});
}

void exclusive_c14n::start(const xml::reader& r) {
  started_ = true;
  ++depth_;
  pending_.clear();
  // Visibly utilized: the element's prefix (or the default namespace), its attributes' prefixes.
  consider(r.prefix(), r.ns());
  const auto attrs = r.attributes();
  for (const xml::attribute& a : attrs)
    if (!a.prefix.empty()) consider(a.prefix, a.ns);
  // The PrefixList: treated as inclusive C14N treats every namespace in scope.
  for (const std::string& p : inclusive_) {
    const std::string_view prefix = p == "#default" ? std::string_view{} : std::string_view(p);
    const std::optional<std::string_view> uri = r.lookup_namespace(prefix);
    if (uri || prefix.empty()) consider(prefix, uri.value_or(std::string_view{}));
  }
  std::sort(pending_.begin(), pending_.end(),
            [](const pending_ns& a, const pending_ns& b) { return a.prefix < b.prefix; });

  buf_ += '<';
  put_qname(buf_, r.prefix(), r.local_name());
  for (const pending_ns& p : pending_) {
    buf_ += p.prefix.empty() ? " xmlns" : " xmlns:";
    buf_ += p.prefix;
    buf_ += "=\"";
    escape_attribute(buf_, p.uri);
    buf_ += '"';
  }
  // Attributes by namespace URI, then local name (no namespace first).
  attribute_order_.clear();
  for (std::uint32_t i = 0; i < attrs.size(); ++i) attribute_order_.push_back(i);
  std::sort(attribute_order_.begin(), attribute_order_.end(),
            [&](std::uint32_t a, std::uint32_t b) {
              const xml::attribute& x = attrs[a];
              const xml::attribute& y = attrs[b];
              return x.ns != y.ns ? x.ns < y.ns : x.local < y.local;
            });
  for (std::uint32_t i : attribute_order_) {
    const xml::attribute& a = attrs[i];
    buf_ += ' ';
    put_qname(buf_, a.prefix, a.local);
    buf_ += "=\"";
    escape_attribute(buf_, a.value);
    buf_ += '"';
  }
  buf_ += '>';
  for (const pending_ns& p : pending_) {
    if (rendered_size_ == rendered_.size()) rendered_.emplace_back();
    rendered& d = rendered_[rendered_size_++];
    d.prefix.assign(p.prefix);
    d.uri.assign(p.uri);
    d.depth = depth_;
  }
  if (buf_.size() >= flush_at) flush();
}

void exclusive_c14n::end(const xml::reader& r) {
  buf_ += "</";
  put_qname(buf_, r.prefix(), r.local_name());
  buf_ += '>';
  while (rendered_size_ > 0 && rendered_[rendered_size_ - 1].depth == depth_) --rendered_size_;
  if (--depth_ == 0)
    flush();
  else if (buf_.size() >= flush_at)
    flush();
}

void exclusive_c14n::feed(xml::token t, const xml::reader& r) {
  switch (t) {
    case xml::token::start_element:
      start(r);
      break;
    case xml::token::end_element:
      end(r);
      break;
    case xml::token::text:
      text(r.text());
      break;
    default:
      break;
  }
}

void exclusive_c14n::text(std::string_view content) {
  escape_text(buf_, content);
  if (buf_.size() >= flush_at) flush();
}

void exclusive_c14n::feed_element(xml::reader& r) {
  start(r);
  const std::uint32_t apex = r.depth();
  for (;;) {
    const xml::token t = r.next();
    if (t == xml::token::error) throw xml::error(r.error());
    if (t == xml::token::need_more || t == xml::token::end_document) {
      xml::error_info eof;
      eof.code = xml::errc::unexpected_eof;
      eof.where = r.where();
      throw xml::error(eof);
    }
    feed(t, r);
    if (t == xml::token::end_element && r.depth() == apex) return;
  }
}

void exclusive_c14n::flush() {
  if (!buf_.empty()) out_(buf_);
  buf_.clear();
}

}  // namespace lather::wsse
