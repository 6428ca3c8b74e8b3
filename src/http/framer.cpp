// HTTP/1.1 message framing shared by the server and the client (see framer.hpp).
#include "framer.hpp"

#include <array>
#include <charconv>
#include <cstring>

#include "wire.hpp"

namespace lather::http::detail {

namespace bhttp = boost::beast::http;

namespace {
constexpr std::string_view crlf = "\r\n";
constexpr std::string_view last_chunk = "0\r\n\r\n";
constexpr std::string_view chunked_line = "Transfer-Encoding: chunked\r\n";
}  // namespace

std::string_view body_framer::size_line(std::size_t n) noexcept {
  return wire::chunk_size_line(size_line_, n);
}

void body_framer::write_piece(std::string_view bytes, bool chunked_ok) {
  if (bytes.empty() || state_ == state::finished) return;
  if (state_ == state::fresh) {
    close_delimited_ = !chunked_ok;
    const std::string_view head = transport_.complete_head(close_delimited_ ? "" : chunked_line);
    state_ = state::streaming;
    if (close_delimited_) {
      const std::array<std::string_view, 2> pieces{head, bytes};
      transport_.write(pieces);
    } else {
      const std::array<std::string_view, 4> pieces{head, size_line(bytes.size()), bytes, crlf};
      transport_.write(pieces);
    }
    return;
  }
  if (close_delimited_) {
    transport_.write({&bytes, 1});
  } else {
    const std::array<std::string_view, 3> pieces{size_line(bytes.size()), bytes, crlf};
    transport_.write(pieces);
  }
}

void body_framer::finish(std::string_view rest, bool fits, bool omit_body) {
  if (state_ == state::finished) return;
  const state was = state_;
  state_ = state::finished;
  if (was == state::fresh) {
    if (fits) {
      // Built here: "Content-Length: " alone is past std::string's small buffer.
      constexpr std::string_view name = "Content-Length: ";
      std::memcpy(length_line_, name.data(), name.size());
      auto digits = std::to_chars(length_line_ + name.size(),
                                  length_line_ + sizeof length_line_ - 2, rest.size());
      digits.ptr[0] = '\r';
      digits.ptr[1] = '\n';
      const std::string_view head = transport_.complete_head(
          {length_line_, static_cast<std::size_t>(digits.ptr + 2 - length_line_)});
      const std::array<std::string_view, 2> pieces{head, omit_body ? std::string_view{} : rest};
      transport_.write(pieces);
      return;
    }
    const std::string_view head = transport_.complete_head(chunked_line);
    if (rest.empty()) {
      const std::array<std::string_view, 2> pieces{head, last_chunk};
      transport_.write(pieces);
    } else {
      const std::array<std::string_view, 5> pieces{head, size_line(rest.size()), rest, crlf,
                                                   last_chunk};
      transport_.write(pieces);
    }
    return;
  }
  if (close_delimited_) {
    if (!rest.empty()) transport_.write({&rest, 1});
  } else if (rest.empty()) {
    transport_.write({&last_chunk, 1});
  } else {
    const std::array<std::string_view, 4> pieces{size_line(rest.size()), rest, crlf, last_chunk};
    transport_.write(pieces);
  }
}

std::string_view head_fields::header(std::string_view name) const noexcept {
  for (const auto& f : fields_)
    if (wire::iequals(text(f.name_offset, f.name_length), name))
      return text(f.value_offset, f.value_length);
  return {};
}

template <bool isRequest>
void message_parser<isRequest>::on_request_impl(bhttp::verb, boost::beast::string_view method,
                                                boost::beast::string_view target, int version,
                                                error_code&) {
  head_.add_text({method.data(), method.size()});
  head_.add_text({target.data(), target.size()});
  method_length_ = static_cast<std::uint32_t>(method.size());
  target_length_ = static_cast<std::uint32_t>(target.size());
  version_ = static_cast<unsigned>(version);
}

template <bool isRequest>
void message_parser<isRequest>::on_response_impl(int code, boost::beast::string_view reason,
                                                 int version, error_code&) {
  head_.add_text({reason.data(), reason.size()});  // at offset 0: the head's first text
  reason_length_ = static_cast<std::uint32_t>(reason.size());
  status_ = static_cast<unsigned>(code);
  version_ = static_cast<unsigned>(version);
}

template <bool isRequest>
void message_parser<isRequest>::on_field_impl(bhttp::field f, boost::beast::string_view name,
                                              boost::beast::string_view value, error_code& ec) {
  if (header_done_) return;  // trailer fields are read and ignored
  if constexpr (isRequest) {
    if (f == bhttp::field::content_length && ++content_length_fields_ > 1) {
      // Even identical duplicates are refused: intermediaries disagree on them (smuggling).
      ec = bhttp::error::bad_content_length;
      return;
    }
    if (f == bhttp::field::transfer_encoding) {
      if (has_transfer_encoding_) {
        ec = bhttp::error::bad_transfer_encoding;
        return;
      }
      has_transfer_encoding_ = true;
    }
    if (f == bhttp::field::expect &&
        wire::iequals(wire::trim({value.data(), value.size()}), "100-continue"))
      expect_continue_ = true;
  } else {
    (void)f;
    (void)ec;
  }
  head_.add_field({name.data(), name.size()}, {value.data(), value.size()});
}

template <bool isRequest>
std::size_t message_parser<isRequest>::take(boost::beast::string_view bytes,
                                            error_code& ec) noexcept {
  const std::size_t n = std::min(body_.capacity - body_.length, bytes.size());
  // Bytes read straight into the caller's buffer are in place, or move down over chunk framing.
  char* to = body_.dest + body_.length;
  if (n && to != bytes.data()) std::memmove(to, bytes.data(), n);
  body_.length += n;
  if (n < bytes.size()) ec = bhttp::error::need_buffer;  // the caller's buffer is full
  return n;
}

template class message_parser<true>;
template class message_parser<false>;

}  // namespace lather::http::detail
