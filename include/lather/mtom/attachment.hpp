// lather/mtom/attachment.hpp — an xsd:base64Binary value that may travel as an MTOM/XOP part.
//
//   struct upload { std::string name; lather::mtom::attachment data; };   // in meta<upload>:
//   //   lather::field(&upload::data, "data")  — described as xsd:base64Binary in the WSDL
//   upload u{"scan.tiff", lather::mtom::attachment::from_file("/tmp/scan.tiff", "image/tiff")};
//   // received: read it as a stream (nothing is held whole unless asked)
//   lather::byte_source in = u.data.open();
//   char buf[65536];
//   while (std::size_t n = in(buf, sizeof buf)) consume(buf, n);
//
// The bytes come from memory, a file or a one-shot stream. On the wire the field is either the
// base64 text (inline: any SOAP peer reads it) or an `<xop:Include href="cid:..."/>` whose bytes
// follow the envelope as a MIME part (MTOM, when the client or service has lather::mtom enabled;
// lather/mtom/mtom.hpp decides which per field or by size). A received attachment holds its part
// in memory up to mtom::options::memory_threshold and in a temporary file above it; the part's
// data lives until the call that received it ends (a handler that keeps it calls save_to or
// bytes()). Copies share the same bytes. See docs/mtom.md.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lather/bind/xsd.hpp"
#include "lather/byte_buffer.hpp"

namespace lather::mtom {

namespace detail {
class content;  // the bytes behind an attachment (src/mtom/attachment.cpp)
}

/// How an attachment field goes out from an MTOM-enabled sender.
enum class send_as : std::uint8_t {
  automatic,   ///< a part when its size is at least options::attachment_threshold (or unknown)
  part,        ///< always an xop:Include part (inline base64 when MTOM is not enabled)
  inline_text  ///< always base64 text in the envelope
};

class attachment {
 public:
  /// An empty value (zero bytes, in memory).
  attachment();
  /// Bytes held in memory.
  static attachment from_bytes(std::vector<std::uint8_t> bytes,
                               std::string content_type = "application/octet-stream");
  static attachment from_bytes(std::string_view bytes,
                               std::string content_type = "application/octet-stream");
  /// A file, read when the message is written (each time: a retried request reads it again).
  /// Throws std::system_error when it cannot be opened.
  static attachment from_file(std::string path,
                              std::string content_type = "application/octet-stream");
  /// A stream read once, when the message is written (`size` when known: a part needs none).
  static attachment from_stream(byte_source source, std::optional<std::uint64_t> size = {},
                                std::string content_type = "application/octet-stream");

  /// Number of bytes when known (memory, file, received; a stream if it was given one).
  std::optional<std::uint64_t> size() const;
  /// MIME type of the part (received: its Content-Type; "application/octet-stream" default).
  const std::string& content_type() const;
  /// Content-ID of the part without angle brackets (received; "" for inline base64). Sent
  /// parts get a fresh one unless set.
  const std::string& content_id() const;
  void set_content_id(std::string id);
  void set_content_type(std::string type);
  send_as mode() const noexcept { return mode_; }
  void set_mode(send_as m) noexcept { mode_ = m; }

  /// A pull source over the bytes from the start (0 = end). Memory and files can be opened
  /// any number of times; a stream once. Throws std::logic_error for a received part whose
  /// call has ended, std::system_error when a file cannot be read.
  byte_source open() const;
  /// All bytes in memory (asked for: this holds the whole attachment).
  std::vector<std::uint8_t> bytes() const;
  /// Write the bytes to `path` (a received part spilled to a temporary file is renamed when
  /// it can be, not copied).
  void save_to(const std::string& path) const;
  /// The bytes when they are in memory, else nullptr.
  const std::vector<std::uint8_t>* memory() const;
  /// The file holding the bytes (from_file, or a received part that spilled), else "".
  std::string_view file_path() const;

  friend bool operator==(const attachment& a, const attachment& b);  ///< same bytes

  /// Internal: the content behind the value (lather_mtom's codecs).
  const std::shared_ptr<detail::content>& content_ref() const noexcept { return content_; }
  explicit attachment(std::shared_ptr<detail::content> c);

 private:
  std::shared_ptr<detail::content> content_;
  send_as mode_ = send_as::automatic;
};

/// Reading and writing an attachment field (the binding calls these; see docs/mtom.md).
/// Reading takes base64 text or, in a message lather::mtom decodes, an xop:Include whose
/// href is a cid: URL of one of its parts. Writing gives a part to the message being encoded
/// when the sender has MTOM enabled and the field qualifies, else writes base64 text
/// (streamed from the source in pieces).
bind::errc read_attachment_element(xml::reader& r, attachment& out, std::string& detail);
void write_attachment_content(const attachment& a, xml::writer& w);

}  // namespace lather::mtom

namespace lather::bind {
template <>
struct xsd_traits<mtom::attachment> {
  static constexpr std::string_view type_name = "base64Binary";
  static errc read_element(xml::reader& r, mtom::attachment& out, std::string& detail) {
    return mtom::read_attachment_element(r, out, detail);
  }
  static void write(const mtom::attachment& a, xml::writer& w) {
    mtom::write_attachment_content(a, w);
  }
};
}  // namespace lather::bind
