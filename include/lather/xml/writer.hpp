// lather/xml/writer.hpp — streaming XML writer with escaping and namespace prefix management.
//
//   lather::xml::output out;                 // growable buffer, reusable across messages
//   lather::xml::writer w{out};
//   w.declare_namespace("soap", soap11_ns);  // goes on the next start tag
//   w.start_element(soap11_ns, "Envelope");
//   ...
//   w.end_document();                        // closes open elements, flushes the sink if any
//
// output can also stream: set_sink(fn, threshold) hands out the buffered bytes every time at
// least `threshold` bytes are buffered (and on flush()). The HTTP layer uses this for its
// chunking threshold: if the message ends before the first hand-off it goes out with
// Content-Length, otherwise chunked.
#pragma once

#include <cstddef>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "lather/xml/error.hpp"

namespace lather::xml {

/// A reusable growable byte buffer with an optional flushing sink.
class output {
 public:
  using sink_fn = std::function<void(std::string_view bytes)>;

  output() = default;
  /// Stream: call `sink` with the buffered bytes whenever at least `threshold` are buffered.
  void set_sink(sink_fn sink, std::size_t threshold = 16384);
  void clear_sink();
  bool has_sink() const noexcept { return static_cast<bool>(sink_); }

  void append(std::string_view s) {
    if (end_ - cur_ < static_cast<std::ptrdiff_t>(s.size())) grow(s.size());
    if (!s.empty()) std::memcpy(cur_, s.data(), s.size());
    cur_ += s.size();
  }
  void push_back(char c) {
    if (cur_ == end_) grow(1);
    *cur_++ = c;
  }
  /// Make room for n bytes; write them at the returned pointer, then commit(k) with k <= n.
  char* prepare(std::size_t n) {
    if (end_ - cur_ < static_cast<std::ptrdiff_t>(n)) grow(n);
    return cur_;
  }
  void commit(std::size_t n) { cur_ += n; }

  /// Bytes buffered and not yet handed to the sink.
  std::string_view view() const noexcept {
    return {begin_, static_cast<std::size_t>(cur_ - begin_)};
  }
  std::size_t size() const noexcept { return static_cast<std::size_t>(cur_ - begin_); }
  /// Total bytes ever handed to the sink since clear().
  std::size_t flushed() const noexcept { return flushed_; }
  /// Hand buffered bytes to the sink (no-op without one).
  void flush();
  /// Flush if the threshold is reached (writers call this at element boundaries).
  void maybe_flush() {
    if (sink_ && size() >= threshold_) flush();
  }
  /// Drop buffered bytes and the flushed count; keeps the capacity and the sink.
  void clear() noexcept {
    cur_ = begin_;
    flushed_ = 0;
  }
  /// Move the buffered bytes out as a string (then clear()).
  std::string take();

 private:
  void grow(std::size_t need);
  std::vector<char> storage_;
  char* begin_ = nullptr;
  char* cur_ = nullptr;
  char* end_ = nullptr;
  sink_fn sink_;
  std::size_t threshold_ = 16384;
  std::size_t flushed_ = 0;
};

/// Writes well-formed XML into an output. Errors (bad state, characters XML cannot carry,
/// invalid UTF-8) throw lather::xml::error.
class writer {
 public:
  explicit writer(output& out);
  ~writer();
  writer(const writer&) = delete;
  writer& operator=(const writer&) = delete;

  /// Start again on the same output (keeps internal capacity).
  void reset();
  /// Write <?xml version="1.0" encoding="UTF-8"?>.
  void xml_declaration();

  /// Declare prefix -> uri on the start tag that is open, or else on the next start tag.
  /// prefix "" declares the default namespace.
  void declare_namespace(std::string_view prefix, std::string_view uri);
  /// Start an element in namespace `ns` ("" = no namespace). Uses the in-scope prefix for ns
  /// (the innermost), or declares a fresh one ("ns1", "ns2", ... reused per document) on this
  /// element. An element in no namespace under a default namespace gets xmlns="".
  void start_element(std::string_view ns, std::string_view local);
  /// Add an attribute to the open start tag. Namespaced attributes always get a prefix.
  void attribute(std::string_view ns, std::string_view local, std::string_view value);
  /// Make `ns` usable as a QName prefix in content or attribute values and return its
  /// prefix ("" if it is the default namespace). Declares it on the open start tag if needed.
  std::string_view prefix_for(std::string_view ns);
  /// Escaped character data (& < > and \r escaped; "]]>" cannot form).
  void text(std::string_view s);
  /// A CDATA section; "]]>" inside is split across two sections.
  void cdata(std::string_view s);
  void end_element();
  /// Bytes written verbatim (caller guarantees well-formedness).
  void raw(std::string_view s);
  /// Close every open element and flush the output's sink.
  void end_document();

  std::size_t depth() const noexcept;
  output& out() noexcept { return out_; }

 private:
  struct state;
  output& out_;
  state* st_;
};

}  // namespace lather::xml
