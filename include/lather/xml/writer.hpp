// lather/xml/writer.hpp — streaming XML writer with escaping and namespace prefix management.
//
//   lather::xml::output out;                 // growable buffer, reusable across messages
//   lather::xml::writer w{out};
//   w.declare_namespace("soap", soap11_ns);  // goes on the next start tag
//   w.start_element(soap11_ns, "Envelope");
//   ...
//   w.end_document();                        // closes open elements, flushes the sink if any
//
// output (lather::byte_buffer) can also stream: set_sink(fn, threshold) hands out the buffered
// bytes every time at least `threshold` bytes are buffered (and on flush()). The HTTP layer
// uses this for its chunking threshold: if the message ends before the first hand-off it goes
// out with Content-Length, otherwise chunked.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lather/byte_buffer.hpp"
#include "lather/xml/error.hpp"

namespace lather::xml {

namespace detail {
using lather::detail::copy_bytes;
}  // namespace detail

/// The buffer a document is written into (see lather/byte_buffer.hpp).
using output = lather::byte_buffer;

/// An element or attribute name that was checked to be an (ASCII) NCName when the program was
/// compiled: the constructor is consteval, so a checked name can only come from a constant
/// (binding metadata, literals). The writer skips its per-call name check for it. A constant
/// that is not an ASCII NCName still compiles; the writer then checks it as usual (and refuses
/// it if it is not an NCName at all).
class ncname {
 public:
  consteval explicit ncname(std::string_view name)
      : data_(name.data()), size_(name.size() | (is_ascii(name) ? checked_bit : 0)) {}
  constexpr std::string_view text() const noexcept { return {data_, size_ & ~checked_bit}; }
  /// True when the name is known to be an NCName.
  constexpr bool checked() const noexcept { return (size_ & checked_bit) != 0; }

 private:
  static consteval bool is_ascii(std::string_view s) {
    auto start = [](char c) {
      return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    };
    if (s.empty() || !start(s[0])) return false;
    for (char c : s)
      if (!start(c) && !(c >= '0' && c <= '9') && c != '-' && c != '.') return false;
    return true;
  }
  // Two words, so it is passed in registers; the flag is the size's top bit.
  static constexpr std::size_t checked_bit = ~(~std::size_t{0} >> 1);
  const char* data_;
  std::size_t size_;
};

class writer;

/// The namespace of a run of leaf elements (a bound struct's simple-typed children), resolved
/// to its prefix by the first leaf written with it: the next ones skip the namespace compare
/// and the prefix lookup while the writer pushes and pops no binding and has nothing pending
/// (otherwise they resolve it again). It keeps a view of `ns`, whose bytes must not change
/// while it is in use.
class leaf_namespace {
 public:
  explicit constexpr leaf_namespace(std::string_view ns) noexcept : ns_(ns) {}
  constexpr std::string_view ns() const noexcept { return ns_; }

 private:
  friend class writer;
  std::string_view ns_;
  std::string_view prefix_;  // as resolved (a binding's copy)
  std::uint64_t prefix_key_ = 0;
  const void* resolved_by_ = nullptr;  // the writer's state
  std::uint64_t binding_changes_ = 0;  // that writer's count of pushes and pops then
};

/// The opening of a document, recorded once and written by writer::start_document() for
/// messages that all begin alike (a SOAP Envelope start tag): the bytes go out in one append
/// and the namespace bindings they declare are pushed as recorded, with no name check, URI
/// escaping or prefix lookup per message. Immutable once built, so one instance can serve
/// every thread; it must outlive the documents started from it (their open elements keep
/// views into it).
class document_start {
 public:
  /// Runs `build` on a fresh writer and records what it wrote. `build` must leave the root
  /// element open (its start tag may stay open for more declarations or attributes), declare
  /// every prefix it uses (generated nsN prefixes would be numbered per document) and leave no
  /// declaration pending; otherwise writer_bad_state.
  explicit document_start(const std::function<void(writer&)>& build);
  ~document_start();
  document_start(const document_start&) = delete;
  document_start& operator=(const document_start&) = delete;

  /// The recorded bytes.
  std::string_view bytes() const noexcept;

 private:
  friend class writer;
  std::unique_ptr<output> out_;
  std::unique_ptr<writer> recorder_;  // holds the recorded frames, bindings and their strings
};

/// True when `s` is UTF-8 made of XML characters only, i.e. what writer::text() and attribute
/// values accept (for checking text that did not come from the reader, such as decoded bytes).
bool is_text(std::string_view s) noexcept;

/// Writes well-formed XML into an output. Errors (bad state, characters XML cannot carry,
/// invalid UTF-8) throw lather::xml::error: errc::writer_bad_state for misuse,
/// errc::writer_invalid_char for text, attribute values, CDATA or URIs that XML cannot carry.
/// After a refused declare_namespace() or start_element() the writer stays usable (as if the
/// call had not been made, except that the parent's start tag may have been closed and the
/// pending declarations are dropped); after any other error, reset() before writing again. Steady
/// state (writer reset(), output clear()) makes no heap allocation. Duplicate attributes are not
/// detected (the caller's responsibility).
class writer {
 public:
  explicit writer(output& out);
  ~writer();
  writer(const writer&) = delete;
  writer& operator=(const writer&) = delete;

  /// Start again on the same output (keeps internal capacity). The output is not touched:
  /// call out().clear() too to drop what it holds.
  void reset();
  /// Write <?xml version="1.0" encoding="UTF-8"?>. Only as the very first thing written.
  void xml_declaration();

  /// Write a recorded document start: the writer is then exactly as if its build had run here.
  /// Only where a root element may start (nothing but the XML declaration written, and that
  /// only if the recorded start has none) and with no declaration pending (writer_bad_state
  /// otherwise).
  void start_document(const document_start& start);

  /// Declare prefix -> uri on the start tag that is open, or else on the next start tag
  /// (call raw("") first to close an open start tag and aim at the next one).
  /// prefix "" declares the default namespace (uri "" undeclares it). Declaring what is
  /// already declared on the same tag is a no-op. Refused (writer_bad_state): reserved
  /// xml/xmlns bindings, a non-NCName prefix, prefix -> "", a second binding of one prefix on
  /// one tag, and rebinding the prefix the open tag's name or namespaced attributes use.
  void declare_namespace(std::string_view prefix, std::string_view uri);
  /// Start an element in namespace `ns` ("" = no namespace). Uses the in-scope prefix for ns
  /// (the innermost; among several on one tag, the last declared), or declares a fresh one
  /// ("ns1", "ns2", ...: a URI keeps its number for the whole document) on this element. An
  /// element in no namespace under a default namespace gets xmlns="". `local` must be an
  /// NCName. The start tag stays open (declarations and attributes can be added) until
  /// content, a child or end_element() follows.
  void start_element(std::string_view ns, std::string_view local);
  /// The same with a name checked at compile time (no per-call name check).
  void start_element(std::string_view ns, ncname local);
  /// Add an attribute to the open start tag. Namespaced attributes always get a prefix.
  void attribute(std::string_view ns, std::string_view local, std::string_view value);
  void attribute(std::string_view ns, ncname local, std::string_view value);
  /// Make `ns` usable as a QName prefix in content or attribute values and return its
  /// prefix ("" if it is the default namespace). Declares it on the open start tag if needed
  /// (writer_bad_state when no tag is open and ns is not in scope). The view stays valid
  /// while the declaration is in scope.
  std::string_view prefix_for(std::string_view ns);
  /// The prefix `ns` has in scope right now (never the default namespace; nullopt for "" or
  /// when no prefix maps to it), or nullopt while declarations are pending (they could rebind
  /// it on the next tag). Declares nothing: a QName value written by text_element() next can
  /// use it, since the leaf's own prefix never shadows a bound one.
  std::optional<std::string_view> prefix_in_scope(std::string_view ns) const;
  /// Escaped character data (& < > and \r escaped; "]]>" cannot form).
  void text(std::string_view s);
  /// start_element(ns, local); text(s); end_element() in one call, cheaper when the element
  /// takes a prefix already in scope (the usual leaf of a bound struct): no element frame.
  void text_element(leaf_namespace& ns, ncname local, std::string_view s);
  void text_element(std::string_view ns, ncname local, std::string_view s) {
    leaf_namespace leaf_ns{ns};
    text_element(leaf_ns, local, s);
  }
  /// A leaf whose content is the QName {value_ns}value_local: exactly what start_element(ns,
  /// local), text(prefix + ":" + value_local) with prefix = prefix_in_scope(value_ns), else
  /// prefix_for(value_ns) (declared on the leaf itself), and end_element() write, in one call.
  /// The declaration a leaf makes is remembered while no binding is pushed or popped, so
  /// siblings that each need it (a QName per item) write it without table work.
  void qname_element(leaf_namespace& ns, ncname local, std::string_view value_ns,
                     std::string_view value_local);
  void qname_element(std::string_view ns, ncname local, std::string_view value_ns,
                     std::string_view value_local) {
    leaf_namespace leaf_ns{ns};
    qname_element(leaf_ns, local, value_ns, value_local);
  }
  /// Writes `format(context, dst)`'s bytes into the output; returns how many (at most the
  /// `max_text` it was given room for).
  using format_fn = std::size_t (*)(const void* context, char* dst);
  /// A leaf whose text `format` writes straight into the output (no copy, no scan): what
  /// text_element(ns, local, text) writes for that text. The text must need no escaping and
  /// consist of XML characters (numbers, base64, hex: the caller's guarantee, as with raw()).
  void formatted_element(leaf_namespace& ns, ncname local, std::size_t max_text, format_fn format,
                         const void* context);
  void formatted_element(std::string_view ns, ncname local, std::size_t max_text, format_fn format,
                         const void* context) {
    leaf_namespace leaf_ns{ns};
    formatted_element(leaf_ns, local, max_text, format, context);
  }
  /// A CDATA section; "]]>" inside is split across two sections, and a \r goes out as &#13;
  /// between two sections (end-of-line handling would turn it into \n).
  void cdata(std::string_view s);
  void end_element();
  /// Bytes written verbatim (caller guarantees well-formedness); closes an open start tag
  /// first.
  void raw(std::string_view s);
  /// Close every open element and flush the output's sink (writer_bad_state if no root
  /// element was written).
  void end_document();

  /// Number of open elements.
  std::size_t depth() const noexcept;
  output& out() noexcept { return out_; }

 private:
  friend class document_start;
  struct state;
  void start_checked(std::string_view ns, std::string_view local, bool stable_local);
  bool resolve_leaf(leaf_namespace& ns, ncname local);
  void attribute_checked(std::string_view ns, std::string_view local, std::string_view value);
  output& out_;
  state* st_;
};

}  // namespace lather::xml
