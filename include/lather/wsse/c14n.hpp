// lather/wsse/c14n.hpp — Exclusive XML Canonicalization 1.0 (without comments), streamed from
// lather's pull reader: the form XML-DSig digests and signs.
//
//   xml::reader r;  r.reset(message);  ... advance r to the start tag of the element to sign
//   std::string canonical;
//   wsse::exclusive_c14n c{[&](std::string_view bytes) { canonical += bytes; }, {"soap"}};
//   c.feed_element(r);                  // reads through the element's end tag
//
// Or token by token (feed(t, r) after each t = r.next() from the element's start tag to its end
// tag), so that the same pass binds the element and digests it. Bytes go to the sink as they
// are produced, in pieces of up to 4 KiB: a message is digested in bounded memory.
//
// What the reader reports is what is canonicalized: attribute values as normalised by XML
// (a literal tab or newline in an attribute is a space), line ends as LF, character and
// entity references decoded, CDATA as text, comments dropped (the "without comments" form).
// Namespace declarations are rendered where visibly used (the element's prefix and its
// attributes' prefixes) and not already in effect on the nearest output ancestor, plus those
// of the InclusiveNamespaces PrefixList ("#default" names the default namespace).
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lather/xml/reader.hpp"

namespace lather::wsse {

class exclusive_c14n {
 public:
  using sink = std::function<void(std::string_view)>;

  /// `inclusive_prefixes`: the InclusiveNamespaces PrefixList.
  explicit exclusive_c14n(sink out, std::vector<std::string> inclusive_prefixes = {});
  exclusive_c14n(sink out, std::initializer_list<std::string_view> inclusive_prefixes);

  /// Start again (new apex, new prefix list), keeping buffers: no allocation once they have
  /// grown to a message's needs.
  void reset(std::span<const std::string> inclusive_prefixes = {});

  /// The token `r.next()` just returned, `r` on it: the apex's start tag first, then every
  /// token up to and including its end tag (start_element, end_element, text).
  void feed(xml::token t, const xml::reader& r);
  /// Character content that is not in the document read (the base64 of an MTOM part where
  /// an xop:Include stands, XOP 1.0 section 3), inside the element being canonicalized.
  void text(std::string_view content);
  /// The reader is on an element's start tag: canonicalize it through its end tag (the
  /// reader is left on the end tag). Throws xml::error if the document is malformed.
  void feed_element(xml::reader& r);
  /// The apex element's end tag has been fed (everything is in the sink).
  bool complete() const noexcept { return started_ && depth_ == 0; }

 private:
  struct rendered {
    std::string prefix, uri;
    std::uint32_t depth;
  };
  struct pending_ns {
    std::string_view prefix, uri;
  };
  const std::string* in_effect(std::string_view prefix) const noexcept;
  void consider(std::string_view prefix, std::string_view uri);
  void start(const xml::reader& r);
  void end(const xml::reader& r);
  void flush();

  sink out_;
  std::vector<std::string> inclusive_;
  std::vector<rendered> rendered_;  // declarations in effect, innermost last (first n)
  std::size_t rendered_size_ = 0;   // elements past it are kept for their strings' capacity
  std::vector<pending_ns> pending_;
  std::vector<std::uint32_t> attribute_order_;
  std::string buf_;
  std::uint32_t depth_ = 0;
  bool started_ = false;
};

}  // namespace lather::wsse
