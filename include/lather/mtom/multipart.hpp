// lather/mtom/multipart.hpp — a streaming reader of MIME multipart bodies (RFC 2046, 2387).
//
//   mtom::multipart_reader parts{boundary, body};       // body: a lather::byte_source
//   while (parts.next_part()) {                         // headers of the next part
//     std::string_view id = parts.part().content_id;    // without <>
//     char buf[65536];
//     while (std::size_t n = parts.read(buf, sizeof buf)) consume(buf, n);
//   }
//
// Pulls the body as it arrives and never holds more than one buffer (64 KiB) plus a part's
// headers; a part's bytes are handed out as they come. Every failure (no opening boundary, a
// header block or part count over its limit, a body that ends before the closing boundary)
// throws mtom::error with a message fit for a fault.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "lather/byte_buffer.hpp"

namespace lather::mtom {

/// A malformed or over-limit multipart message, or an xop:Include that cannot be resolved.
class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A media type and its parameters: `multipart/related; boundary="x"; type=...`.
struct media_type {
  std::string type;                                             ///< lower-cased "type/subtype"
  std::vector<std::pair<std::string, std::string>> parameters;  ///< names lower-cased, unquoted
  /// The value of parameter `name` (lower case), or nullopt.
  std::optional<std::string_view> parameter(std::string_view name) const;
};
/// Parse a Content-Type value (RFC 2045 §5.1: tokens and quoted strings; RFC 2231 forms are
/// not decoded). Nullopt when it is not one.
std::optional<media_type> parse_media_type(std::string_view text);

/// The headers of one part.
struct part_headers {
  std::string content_type;  ///< as sent ("" when absent)
  std::string content_id;    ///< without the angle brackets ("" when absent)
  std::string content_location;
  std::string transfer_encoding;  ///< lower-cased Content-Transfer-Encoding ("" = absent)
};

struct multipart_limits {
  std::size_t max_parts = 1000;          ///< parts in one message (root included)
  std::size_t max_header_bytes = 16384;  ///< one part's header block
  std::uint64_t max_part_bytes = 0;      ///< one part's body; 0 = no limit of its own
};

class multipart_reader {
 public:
  multipart_reader(std::string_view boundary, byte_source body, multipart_limits limits = {});
  multipart_reader(const multipart_reader&) = delete;
  multipart_reader& operator=(const multipart_reader&) = delete;

  /// Skip what is left of the current part and read the next one's headers: false after the
  /// closing boundary (the epilogue is drained).
  bool next_part();
  const part_headers& part() const noexcept { return part_; }
  /// Parts begun so far.
  std::size_t part_count() const noexcept { return parts_; }
  /// Up to `capacity` bytes of the current part's body; 0 at its end.
  std::size_t read(char* dest, std::size_t capacity);
  /// Bytes of the current part read so far.
  std::uint64_t part_bytes() const noexcept { return part_bytes_; }

 private:
  bool fill();  // more body bytes into the buffer; false at the end of the body
  std::size_t find_delimiter();
  void read_headers();
  [[noreturn]] void truncated() const;

  std::string delimiter_;  // CRLF "--" boundary
  byte_source body_;
  multipart_limits limits_;
  std::vector<char> buf_;
  std::size_t begin_ = 0, end_ = 0;  // unread bytes in buf_
  std::size_t clear_ = 0;            // buf_ up to here is part data (no delimiter starts before)
  bool body_done_ = false;
  enum class state : std::uint8_t { preamble, in_part, part_end, closed } state_ = state::preamble;
  part_headers part_;
  std::size_t parts_ = 0;
  std::uint64_t part_bytes_ = 0;
};

}  // namespace lather::mtom
