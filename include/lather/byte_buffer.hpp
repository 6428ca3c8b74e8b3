// lather/byte_buffer.hpp — the growable byte buffer a message is written into, and the pull
// source a message is read from. Below every layer (standard library only, header-only): the
// XML writer serializes into a byte_buffer and the HTTP layer frames one onto the wire, so
// neither depends on the other; the service layer joins them. xml::output and xml::source_fn
// are the same types under their XML names.
//
//   lather::byte_buffer out;
//   out.set_sink([&](std::string_view bytes) { send(bytes); }, 4096);  // optional streaming
//   out.append("<a/>");
//   out.flush();
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lather {

namespace detail {
/// memcpy without a call for the short pieces markup is made of (names, delimiters).
inline void copy_bytes(char* dest, const char* src, std::size_t n) noexcept {
  if (n >= 16) {
    std::memcpy(dest, src, n);
  } else if (n >= 8) {  // two overlapping words
    std::uint64_t a, b;
    std::memcpy(&a, src, 8);
    std::memcpy(&b, src + n - 8, 8);
    std::memcpy(dest, &a, 8);
    std::memcpy(dest + n - 8, &b, 8);
  } else if (n >= 4) {
    std::uint32_t a, b;
    std::memcpy(&a, src, 4);
    std::memcpy(&b, src + n - 4, 4);
    std::memcpy(dest, &a, 4);
    std::memcpy(dest + n - 4, &b, 4);
  } else if (n != 0) {
    dest[0] = src[0];
    dest[n / 2] = src[n / 2];
    dest[n - 1] = src[n - 1];
  }
}
}  // namespace detail

/// Pulls up to `capacity` bytes into `dest`; returns 0 at the end of the message.
using byte_source = std::function<std::size_t(char* dest, std::size_t capacity)>;

/// A reusable growable byte buffer with an optional flushing sink.
class byte_buffer {
 public:
  using sink_fn = std::function<void(std::string_view bytes)>;

  byte_buffer() = default;
  /// Copies the buffered bytes, the sink and the threshold (the flushed count too).
  byte_buffer(const byte_buffer& other) : sink_(other.sink_), threshold_(other.threshold_) {
    append(other.view());
    flushed_ = other.flushed_;
  }
  byte_buffer& operator=(const byte_buffer& other) {
    if (this != &other) {
      cur_ = begin_;
      append(other.view());
      sink_ = other.sink_;
      threshold_ = other.threshold_;
      flushed_ = other.flushed_;
    }
    return *this;
  }
  /// Moves the buffer (no copy); `other` is left empty, without a sink.
  byte_buffer(byte_buffer&& other) noexcept
      : storage_(std::move(other.storage_)),
        begin_(std::exchange(other.begin_, nullptr)),
        cur_(std::exchange(other.cur_, nullptr)),
        end_(std::exchange(other.end_, nullptr)),
        sink_(std::move(other.sink_)),
        threshold_(other.threshold_),
        flushed_(std::exchange(other.flushed_, 0)) {
    other.sink_ = nullptr;
    other.storage_.clear();
  }
  byte_buffer& operator=(byte_buffer&& other) noexcept {
    if (this != &other) {
      storage_ = std::move(other.storage_);
      begin_ = std::exchange(other.begin_, nullptr);
      cur_ = std::exchange(other.cur_, nullptr);
      end_ = std::exchange(other.end_, nullptr);
      sink_ = std::move(other.sink_);
      other.sink_ = nullptr;
      other.storage_.clear();
      threshold_ = other.threshold_;
      flushed_ = std::exchange(other.flushed_, 0);
    }
    return *this;
  }
  ~byte_buffer() = default;

  /// Stream: call `sink` with the buffered bytes whenever at least `threshold` are buffered.
  void set_sink(sink_fn sink, std::size_t threshold = 16384) {
    sink_ = std::move(sink);
    threshold_ = threshold;
  }
  void clear_sink() { sink_ = nullptr; }
  /// Change the sink's threshold, e.g. to larger pieces once a stream is under way (also
  /// from inside the sink).
  void set_threshold(std::size_t threshold) noexcept { threshold_ = threshold; }
  bool has_sink() const noexcept { return static_cast<bool>(sink_); }

  void append(std::string_view s) {
    if (end_ - cur_ < static_cast<std::ptrdiff_t>(s.size())) grow(s.size());
    detail::copy_bytes(cur_, s.data(), s.size());
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
  [[gnu::noinline]] void flush() {
    if (!sink_ || cur_ == begin_) return;
    sink_(view());
    flushed_ += size();
    cur_ = begin_;
  }
  /// Flush if the threshold is reached (writers call this at element boundaries; appends
  /// that need more room than is left also flush first when the threshold is reached).
  void maybe_flush() {
    if (sink_ && size() >= threshold_) flush();
  }
  /// Drop buffered bytes and the flushed count; keeps the capacity and the sink.
  void clear() noexcept {
    cur_ = begin_;
    flushed_ = 0;
  }
  /// Move the buffered bytes out as a string (then clear()).
  std::string take() {
    std::string s{view()};
    clear();
    return s;
  }

 private:
  // Out of line: the appends inlined into every writer stay a compare and a copy.
  [[gnu::noinline]] void grow(std::size_t need) {
    // A streaming buffer hands its bytes out instead of growing, so memory stays bounded by
    // the threshold plus the largest single append.
    if (sink_ && size() >= threshold_) {
      flush();
      if (static_cast<std::size_t>(end_ - cur_) >= need) return;
    }
    const std::size_t used = size();
    const std::size_t capacity = std::max({used + need, storage_.size() * 2, std::size_t{256}});
    storage_.resize(capacity);
    begin_ = storage_.data();
    cur_ = begin_ + used;
    end_ = begin_ + capacity;
  }

  std::vector<char> storage_;
  char* begin_ = nullptr;
  char* cur_ = nullptr;
  char* end_ = nullptr;
  sink_fn sink_;
  std::size_t threshold_ = 16384;
  std::size_t flushed_ = 0;
};

}  // namespace lather
