// Internal to lather_http: HTTP/1.1 message framing, one implementation for the server's
// responses and the client's requests and the parsing of both sides' incoming messages. No
// socket here: a framer writes through a frame_transport and a parser is fed bytes, so both are
// unit-tested on bytes alone (tests/http/framer_test.cpp).
//
//  * body_framer sends a head and its body: Content-Length when the body ended before its first
//    hand-off (and fits), otherwise chunked from the first hand-off on (close-delimited to a
//    peer that cannot read chunked), and the last chunk at the end.
//  * message_parser<isRequest> is Beast's push parser with hooks that copy the head into a
//    head_fields arena whose capacity is reused, and the body straight into the reader's buffer.
#pragma once

#include <array>
#include <boost/asio/buffer.hpp>
#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/error.hpp>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lather::http::detail {

/// Where a body_framer's bytes go; implemented by the server's connection, the client's call and
/// the tests.
class frame_transport {
 public:
  /// Completes the head with `framing` (a "Content-Length: n\r\n" or "Transfer-Encoding:
  /// chunked\r\n" line, or "" for a close-delimited body) and returns it, blank line included.
  virtual std::string_view complete_head(std::string_view framing) = 0;
  /// Writes `pieces` in order, all of them (one gather write); throws when it cannot.
  virtual void write(std::span<const std::string_view> pieces) = 0;

 protected:
  ~frame_transport() = default;
};

/// A write's pieces as an asio buffer sequence (at most the five a framer writes at once).
class piece_buffers {
 public:
  explicit piece_buffers(std::span<const std::string_view> pieces) noexcept {
    for (std::string_view p : pieces) buffers_[count_++] = {p.data(), p.size()};
  }
  using value_type = boost::asio::const_buffer;
  using const_iterator = const boost::asio::const_buffer*;
  const_iterator begin() const noexcept { return buffers_.data(); }
  const_iterator end() const noexcept { return buffers_.data() + count_; }

 private:
  std::array<boost::asio::const_buffer, 5> buffers_;
  std::size_t count_ = 0;
};

/// Frames one message body after its head. The state changes before each write, so a write that
/// throws leaves the framer saying what may already be on the wire.
class body_framer {
 public:
  enum class state : std::uint8_t { fresh, streaming, finished };

  explicit body_framer(frame_transport& transport) noexcept : transport_(transport) {}
  /// For the next message.
  void reset() noexcept {
    state_ = state::fresh;
    close_delimited_ = false;
  }
  state current() const noexcept { return state_; }
  bool started() const noexcept { return state_ != state::fresh; }
  /// The body streams without framing and ends when the connection closes.
  bool close_delimited() const noexcept { return close_delimited_; }

  /// A piece of the body handed off before its end (the body buffer's sink). The first one
  /// sends the head with it: chunked, or close-delimited when `chunked_ok` is false (a peer
  /// that speaks HTTP/1.0). Nothing happens for empty pieces or once the message is finished.
  void write_piece(std::string_view bytes, bool chunked_ok);
  /// The end of the body, with its last `rest` bytes. If nothing was sent yet: with
  /// Content-Length when `fits` (`omit_body`: a HEAD response, whose Content-Length counts
  /// bytes it does not carry), else chunked; then the last chunk if the body is chunked.
  void finish(std::string_view rest, bool fits, bool omit_body = false);

 private:
  std::string_view size_line(std::size_t n) noexcept;
  frame_transport& transport_;
  state state_ = state::fresh;
  bool close_delimited_ = false;
  char size_line_[20];
  char length_line_[48];
};

/// A message head as parsed: the start line's pieces, then each field's name and value, in one
/// string whose capacity is reused from message to message.
class head_fields {
 public:
  void clear() noexcept {
    text_.clear();
    fields_.clear();
  }
  /// Appends bytes of the start line; returns where they start.
  std::uint32_t add_text(std::string_view bytes) {
    const auto at = static_cast<std::uint32_t>(text_.size());
    text_.append(bytes.data(), bytes.size());
    return at;
  }
  void add_field(std::string_view name, std::string_view value) {
    field f;
    f.name_length = static_cast<std::uint32_t>(name.size());
    f.name_offset = add_text(name);
    f.value_length = static_cast<std::uint32_t>(value.size());
    f.value_offset = add_text(value);
    fields_.push_back(f);
  }
  std::string_view text(std::uint32_t offset, std::uint32_t length) const noexcept {
    return {text_.data() + offset, length};
  }
  /// The value of the first field with this name (ASCII case-insensitive), "" if none.
  std::string_view header(std::string_view name) const noexcept;
  std::size_t field_count() const noexcept { return fields_.size(); }
  /// The i-th field (i < field_count()) as received: name, value.
  std::pair<std::string_view, std::string_view> field_at(std::size_t i) const noexcept {
    const field& f = fields_[i];
    return {text(f.name_offset, f.name_length), text(f.value_offset, f.value_length)};
  }

 private:
  struct field {
    std::uint32_t name_offset, name_length, value_offset, value_length;
  };
  std::string text_;
  std::vector<field> fields_;
};

/// The caller's buffer a body read fills (read_body's destination).
struct body_window {
  char* dest = nullptr;
  std::size_t capacity = 0, length = 0;
  void open(char* d, std::size_t n) noexcept {
    dest = d;
    capacity = n;
    length = 0;
  }
};

/// Beast's push parser for a request (isRequest) or a response: the head goes into `head`, the
/// body into `body`'s window (need_buffer once it is full). Requests are held to the framing
/// rules that keep intermediaries from disagreeing on where a message ends: a second
/// Content-Length (even an identical one) or Transfer-Encoding field is an error.
template <bool isRequest>
class message_parser final : public boost::beast::http::basic_parser<isRequest> {
 public:
  using error_code = boost::system::error_code;

  message_parser(head_fields& head, body_window& body) noexcept : head_(head), body_(body) {
    head_.clear();
  }

  std::string_view method() const noexcept { return head_.text(0, method_length_); }
  std::string_view target() const noexcept { return head_.text(method_length_, target_length_); }
  unsigned status() const noexcept { return status_; }
  /// A response's reason phrase ("OK"), kept in the head's arena.
  std::string_view reason() const noexcept { return head_.text(0, reason_length_); }
  unsigned version() const noexcept { return version_; }  ///< 10 or 11
  bool has_transfer_encoding() const noexcept { return has_transfer_encoding_; }
  bool expect_continue() const noexcept { return expect_continue_; }  ///< "Expect: 100-continue"

 private:
  void on_request_impl(boost::beast::http::verb, boost::beast::string_view method,
                       boost::beast::string_view target, int version, error_code&) override;
  void on_response_impl(int code, boost::beast::string_view, int version, error_code&) override;
  void on_field_impl(boost::beast::http::field f, boost::beast::string_view name,
                     boost::beast::string_view value, error_code& ec) override;
  void on_header_impl(error_code&) override { header_done_ = true; }
  void on_body_init_impl(const boost::optional<std::uint64_t>&, error_code&) override {}
  std::size_t on_body_impl(boost::beast::string_view bytes, error_code& ec) override {
    return take(bytes, ec);
  }
  void on_chunk_header_impl(std::uint64_t, boost::beast::string_view, error_code&) override {}
  std::size_t on_chunk_body_impl(std::uint64_t, boost::beast::string_view bytes,
                                 error_code& ec) override {
    return take(bytes, ec);
  }
  void on_finish_impl(error_code&) override {}
  std::size_t take(boost::beast::string_view bytes, error_code& ec) noexcept;

  head_fields& head_;
  body_window& body_;
  std::uint32_t method_length_ = 0, target_length_ = 0, reason_length_ = 0;
  unsigned status_ = 0, version_ = 11;
  unsigned content_length_fields_ = 0;
  bool has_transfer_encoding_ = false, expect_continue_ = false, header_done_ = false;
};

extern template class message_parser<true>;
extern template class message_parser<false>;

}  // namespace lather::http::detail
