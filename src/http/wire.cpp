#include "wire.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <charconv>
#include <ctime>

namespace lather::http::wire {

namespace {
/// net.core.rmem_max, the largest SO_RCVBUF an unprivileged setsockopt gets (0: unknown).
std::size_t receive_buffer_max() {
  const int fd = ::open("/proc/sys/net/core/rmem_max", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char text[32];
  const ssize_t n = ::read(fd, text, sizeof text);
  ::close(fd);
  std::size_t value = 0;
  if (n > 0) std::from_chars(text, text + n, value);
  return value;
}
}  // namespace

void raise_receive_buffer(int fd, std::size_t bytes) noexcept {
  static const std::size_t max = receive_buffer_max();
  if (bytes == 0 || bytes > max) return;
  int current = 0;
  socklen_t length = sizeof current;
  // The kernel reports (and allocates up to) twice what was asked for.
  if (::getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &current, &length) != 0 ||
      static_cast<std::size_t>(current) >= 2 * bytes)
    return;
  const int value = static_cast<int>(bytes);
  ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &value, sizeof value);
}

std::string_view reason_phrase(unsigned status) noexcept {
  switch (status) {
    case 100:
      return "Continue";
    case 200:
      return "OK";
    case 201:
      return "Created";
    case 202:
      return "Accepted";
    case 204:
      return "No Content";
    case 301:
      return "Moved Permanently";
    case 302:
      return "Found";
    case 304:
      return "Not Modified";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 411:
      return "Length Required";
    case 413:
      return "Content Too Large";
    case 414:
      return "URI Too Long";
    case 415:
      return "Unsupported Media Type";
    case 417:
      return "Expectation Failed";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    case 502:
      return "Bad Gateway";
    case 503:
      return "Service Unavailable";
    case 504:
      return "Gateway Timeout";
    case 505:
      return "HTTP Version Not Supported";
    default:
      return "Unknown";
  }
}

std::string_view http_date() {
  thread_local std::time_t cached_second = -1;
  thread_local char text[32];
  thread_local std::size_t length = 0;
  std::time_t now = std::time(nullptr);
  if (now != cached_second) {
    std::tm tm{};
    gmtime_r(&now, &tm);
    length = std::strftime(text, sizeof text, "%a, %d %b %Y %H:%M:%S GMT", &tm);
    cached_second = now;
  }
  return {text, length};
}

std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

namespace {
// RFC 9110 tchar, as a table: set_header checks every name it is given.
constexpr std::array<bool, 256> tchar_table = [] {
  std::array<bool, 256> t{};
  for (int c = '0'; c <= '9'; ++c) t[c] = true;
  for (int c = 'a'; c <= 'z'; ++c) t[c] = true;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = true;
  for (char c : std::string_view{"!#$%&'*+-.^_`|~"}) t[static_cast<unsigned char>(c)] = true;
  return t;
}();
}  // namespace

bool is_token(std::string_view s) noexcept {
  if (s.empty()) return false;
  for (unsigned char c : s)
    if (!tchar_table[c]) return false;
  return true;
}

bool is_safe_value(std::string_view s) noexcept {
  for (unsigned char c : s)
    if (c <= '\r' && (c == '\r' || c == '\n' || c == '\0')) return false;
  return true;
}

void append_decimal(std::string& out, std::uint64_t n) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, n);
  out.append(buf, r.ptr);
}

std::string_view chunk_size_line(char (&buf)[20], std::size_t n) noexcept {
  auto r = std::to_chars(buf, buf + 16, n, 16);
  r.ptr[0] = '\r';
  r.ptr[1] = '\n';
  return {buf, static_cast<std::size_t>(r.ptr + 2 - buf)};
}

std::string base64_encode(std::string_view in) {
  static constexpr char alphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= in.size(); i += 3) {
    std::uint32_t v = (std::uint32_t(std::uint8_t(in[i])) << 16) |
                      (std::uint32_t(std::uint8_t(in[i + 1])) << 8) | std::uint8_t(in[i + 2]);
    out += alphabet[v >> 18];
    out += alphabet[(v >> 12) & 63];
    out += alphabet[(v >> 6) & 63];
    out += alphabet[v & 63];
  }
  if (std::size_t rest = in.size() - i) {
    std::uint32_t v = std::uint32_t(std::uint8_t(in[i])) << 16;
    if (rest == 2) v |= std::uint32_t(std::uint8_t(in[i + 1])) << 8;
    out += alphabet[v >> 18];
    out += alphabet[(v >> 12) & 63];
    out += rest == 2 ? alphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

bool secure_equals(std::string_view a, std::string_view b) noexcept {
  // The length is not secret; the content is compared without an early exit.
  if (a.size() != b.size()) return false;
  unsigned diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= unsigned(std::uint8_t(a[i] ^ b[i]));
  return diff == 0;
}

}  // namespace lather::http::wire
