// Internal helpers shared by the HTTP server and client (no Beast/Asio here).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "lather/http/options.hpp"
#include "lather/detail/ascii.hpp"

namespace lather::http::wire {

/// Bytes buffered before a body's first hand-off to the socket: past the threshold the framing
/// switches to chunked.
constexpr std::size_t first_flush(const chunking& c) noexcept {
  return c.threshold == 0 ? 1 : c.threshold + 1;
}
/// Once a body streams (chunked), it goes out in chunks of at least this size: a write per
/// threshold-sized (4 KiB) chunk cost a syscall on this side and a wake-up on the other per
/// 4 KiB (12,000 of each for a 50 MB message). The chunking buffer holds up to twice this.
constexpr std::size_t stream_chunk = 32 * 1024;
constexpr std::size_t streaming_flush(const chunking& c) noexcept {
  return first_flush(c) > stream_chunk ? first_flush(c) : stream_chunk;
}

/// Raise a TCP socket's receive buffer (SO_RCVBUF) to `bytes` before it connects or listens
/// (accepted sockets inherit it), when the kernel allows that much (net.core.rmem_max) and
/// `bytes` is above the socket's current buffer; otherwise, or for 0, the kernel's autotuning
/// stays in charge (SO_RCVBUF turns it off, and a value clamped to a small rmem_max would
/// lower the buffer). Failures are ignored: the socket works either way, only slower.
void raise_receive_buffer(int fd, std::size_t bytes) noexcept;

/// Reason phrase for a status code ("Unknown" for codes we do not name).
std::string_view reason_phrase(unsigned status) noexcept;

/// The current time as an IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"); formatted at most
/// once per second per thread, so the hot path is a clock read and a compare.
std::string_view http_date();

/// ASCII case-insensitive equality (header names, tokens). Inline: header lookups call it per
/// field, and most calls end at the size compare.
inline bool iequals(std::string_view a, std::string_view b) noexcept {
  return lather::detail::ascii_iequals(a, b);
}

/// Strip optional whitespace (SP / HTAB) at both ends.
std::string_view trim(std::string_view s) noexcept;

/// RFC 9110 token (header name) check.
bool is_token(std::string_view s) noexcept;
/// A header value we are willing to send: no CR, LF or NUL (no response splitting).
bool is_safe_value(std::string_view s) noexcept;

/// Append n in decimal.
void append_decimal(std::string& out, std::uint64_t n);

/// "<hex size>\r\n" for a chunk of n bytes, written into buf; returns the view.
std::string_view chunk_size_line(char (&buf)[20], std::size_t n) noexcept;

/// Standard base64 (with padding).
std::string base64_encode(std::string_view in);

/// Constant-time comparison (credentials).
bool secure_equals(std::string_view a, std::string_view b) noexcept;

}  // namespace lather::http::wire
