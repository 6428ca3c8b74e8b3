// lather/xml/reader.hpp — a resumable, namespace-aware, DTD-free XML pull reader.
//
// Usage (whole document in memory, nothing copied):
//
//   lather::xml::reader r;
//   r.reset(document);                 // document must outlive the views handed out
//   for (auto t = r.next(); t != token::end_document; t = r.next()) {
//     if (t == token::error) { log(r.error().message()); break; }
//     if (t == token::start_element && r.is(ns, "item")) { ... r.attributes() ... }
//   }
//
// Streaming: reset() with no argument, then either push bytes with feed()/finish() and treat
// token::need_more as "call feed() and next() again", or install a pull source with
// set_source(); the reader then calls it whenever it runs dry and never returns need_more.
// (The HTTP layer installs a source that suspends a coroutine on an async socket read.)
//
// Views (names, attribute values, text) stay valid until the next call to next(), feed(),
// skip_element() or reset(). In whole-document mode views without entity or newline decoding
// point straight into the caller's buffer and stay valid as long as it does.
//
// The reader accepts the DTD-free subset of XML 1.0 + Namespaces 1.0 that SOAP allows:
// DOCTYPE and processing instructions are rejected (errc::doctype_forbidden,
// errc::pi_forbidden); comments are skipped; CDATA sections are delivered as text; the XML
// declaration is accepted (UTF-8 / US-ASCII only); a UTF-8 BOM is skipped; UTF-16 is rejected
// with errc::unsupported_encoding. It is differential-tested against expat.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "lather/byte_buffer.hpp"
#include "lather/xml/error.hpp"

namespace lather::xml {

/// Hard limits. Every one has its own error code; all are per document (per reader reset).
/// The defaults follow Apache CXF's (docs/limits.md gives each one's reason).
struct limits {
  std::uint32_t max_depth = 100;                ///< element nesting
  std::uint32_t max_name_length = 1024;         ///< bytes in one qualified name
  std::uint32_t max_attributes = 500;           ///< attributes (incl. xmlns) on one element
  std::uint32_t max_namespaces = 1024;          ///< namespace declarations in scope at once
  std::uint64_t max_attribute_length = 64u << 10;  ///< decoded bytes in one attribute value
  std::uint64_t max_text_length = 128u << 20;   ///< decoded bytes in one text run
  std::uint64_t max_total_bytes = 256u << 20;   ///< bytes in the document; 0 = unlimited
};

enum class token : std::uint8_t {
  start_element,  ///< ns(), local_name(), prefix(), attributes(), namespace_declarations()
  end_element,    ///< ns(), local_name(), prefix() of the element being closed
  text,           ///< text(): character data, CDATA, entity and char refs decoded
  end_document,   ///< the root element closed and only whitespace/comments followed
  need_more,      ///< push mode only: feed() more bytes (or finish()) and call next() again
  error,          ///< error() says what and where; the reader stays in error until reset()
};

/// An attribute after namespace resolution. xmlns / xmlns:p declarations are not attributes:
/// see reader::namespace_declarations().
struct attribute {
  std::string_view ns;      ///< namespace URI ("" for unprefixed attributes)
  std::string_view local;   ///< local name
  std::string_view prefix;  ///< prefix as written ("" when none)
  std::string_view value;   ///< normalised value (entity refs decoded, \t \n \r -> space)
};

/// A namespace declaration on the current start tag (prefix "" = default namespace).
struct namespace_declaration {
  std::string_view prefix;
  std::string_view uri;
};

/// Called when the reader needs bytes: write up to `capacity` bytes to `dest`, return how many
/// were written; 0 means end of input. Throw to report an I/O failure (it propagates out of
/// next()).
using source_fn = lather::byte_source;

class reader {
 public:
  explicit reader(const limits& lim = {});
  ~reader();
  reader(reader&&) noexcept;
  reader& operator=(reader&&) noexcept;
  reader(const reader&) = delete;
  reader& operator=(const reader&) = delete;

  /// Whole-document mode: parse `document` in place. Keeps internal buffers (no allocation
  /// once warmed up).
  void reset(std::string_view document);
  /// Streaming mode: start a new, empty document; bytes come from feed() or the source.
  void reset();
  void set_limits(const limits& lim);
  const limits& get_limits() const noexcept;

  /// Push mode: append bytes (copied). Any size, down to one byte.
  void feed(std::string_view bytes);
  /// Push mode: no more bytes will come.
  void finish();
  /// Pull mode: install a source (kept across reset() until replaced; pass {} to remove).
  void set_source(source_fn source);

  /// Advance to the next token.
  token next();

  /// For an element expected to hold only text (call right after its token::start_element):
  /// when the bytes ahead are character data that needs no decoding (no references, CR, CDATA,
  /// comments or non-ASCII), or nothing, followed by this element's end tag, consumes both and
  /// returns token::end_element with text() = that data (empty for no data). One call instead
  /// of a text and an end_element token; the binding reads simple values this way. Otherwise it
  /// is exactly next() (the caller then sees token::text, a child start tag, ...).
  token next_text_content();

  /// Schema-order fast path for a child holding only text (the binding reads its simple values
  /// this way). Call it where next() would be called inside an element E (after E's start tag
  /// or a child's end). When the bytes ahead are exactly `<P:local>` where P is E's prefix (so
  /// the child has no attributes or namespace declarations and is in E's namespace: the one
  /// E's start tag reported, which the caller compares with the namespace it expects), then
  /// character data that needs no decoding (as for next_text_content()) other than the five
  /// predefined entity references (`&amp;` `&lt;` `&gt;` `&quot;` `&apos;`), then `</P:local>`,
  /// all already buffered and within the limits, consumes them and returns true: the reader is
  /// on the child's token::end_element (local_name(), ns(), prefix(), depth() of the child;
  /// text() = the data, decoded; where() = its end tag), as after next() and
  /// next_text_content(). A decoded text() stays valid until the next call of this function too.
  /// Otherwise it consumes nothing and returns false: call next(), which reads the same bytes
  /// the general way (and reports any error). `local` must be an NCName (the caller's schema
  /// metadata): its bytes are compared, not parsed.
  bool next_simple_element(std::string_view local);

  /// Give the current token back: `current` is what the last next() returned, a start_element
  /// or an end_element, and the next call of next() returns it again (every view unchanged;
  /// next_simple_element() returns false, next_text_content() is next()). For a reader of a
  /// run of siblings that stops on the first one it does not take and leaves it to its caller
  /// (the binding's inline model groups).
  void unread(token current) noexcept;

  /// Skip the rest of the current element: call right after token::start_element. Returns
  /// token::end_element (positioned on that element's end tag), or need_more / error.
  token skip_element();

  // ---- the current token ----
  std::string_view ns() const noexcept { return ns_; }  ///< element namespace URI ("" = none)
  std::string_view local_name() const noexcept { return local_; }  ///< element local name
  std::string_view prefix() const noexcept { return prefix_; }     ///< element prefix as written
  /// True when ns() == ns_uri and local_name() == local.
  bool is(std::string_view ns_uri, std::string_view local) const noexcept {
    return local_name() == local && ns() == ns_uri;
  }
  /// The start tag was <x/> (end_element follows).
  bool is_empty_element() const noexcept { return empty_element_; }
  std::span<const attribute> attributes() const noexcept { return attributes_; }
  /// The attribute with this namespace and local name, or nullptr.
  const attribute* find_attribute(std::string_view ns_uri, std::string_view local) const noexcept;
  std::span<const namespace_declaration> namespace_declarations() const noexcept {
    return declarations_;
  }
  /// Text of a token::text: one event per run of character data between tags (CDATA sections
  /// and comments inside the run do not split it).
  std::string_view text() const noexcept { return text_; }
  /// Depth of the current element (root = 1); for text, the depth of the enclosing element.
  std::uint32_t depth() const noexcept { return depth_; }

  /// Resolve a prefix against the namespaces in scope at the current token ("" = default
  /// namespace). Used for QName values (xsi:type="p:T", faultcode). nullopt if undeclared.
  std::optional<std::string_view> lookup_namespace(std::string_view prefix) const noexcept;

  /// Position of the start of the current token (or of the error).
  position where() const noexcept;
  const error_info& error() const noexcept;
  std::uint64_t bytes_consumed() const noexcept;
  /// Bytes currently allocated for buffering streamed input (push/pull modes). Stays about
  /// twice the largest token plus one chunk, however long the document: for memory tests.
  std::size_t buffer_capacity() const noexcept;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
  // The current token lives here (not in impl) so the accessors above inline.
  std::string_view ns_, local_, prefix_, text_;
  std::span<const attribute> attributes_;
  std::span<const namespace_declaration> declarations_;
  std::uint32_t depth_ = 0;
  bool empty_element_ = false;
};

}  // namespace lather::xml
