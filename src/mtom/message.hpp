// Internal to lather_mtom: the bytes behind an attachment, a received multipart message and
// one being written, and the table through which the binding finds the message of the
// reader or writer it was given.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lather/byte_buffer.hpp"
#include "lather/mtom/attachment.hpp"
#include "lather/mtom/mtom.hpp"
#include "lather/mtom/multipart.hpp"
#include "lather/soap/version.hpp"

namespace lather::mtom::detail {

class message_in;

/// The bytes of an attachment: in memory, in a file (deleted with the content when
/// temporary), a one-shot stream, or a received part not read yet (pending).
class content {
 public:
  /// streamed: a received part handed to a reader as it arrives (options::stream_parts).
  enum class kind : std::uint8_t { memory, file, stream, pending, streamed, released };
  ~content();

  kind k = kind::memory;
  std::vector<std::uint8_t> bytes;
  std::string path;
  bool temporary = false;
  byte_source stream;
  bool stream_taken = false;
  std::optional<std::uint64_t> size;
  std::string content_type = "application/octet-stream";
  std::string content_id;
  /// A pending part of a message read as it arrives (options::stream_parts): opened there.
  message_in* owner = nullptr;
  /// The envelope refers to it (a received part may be kept before that: kept_part).
  bool referenced = false;

  /// Drop the bytes (a received part when its call ends): a temporary file is deleted.
  void release() noexcept;
};

/// A received multipart/related message: the root part feeds the envelope reader, the other
/// parts are read after it and given to the contents that the envelope referenced.
class message_in {
 public:
  /// Throws mtom::error. `envelope_type` gets the SOAP Content-Type of the envelope.
  message_in(std::string_view content_type, byte_source body, const options& o,
             std::string& envelope_type);
  ~message_in();
  std::size_t read_envelope(char* dest, std::size_t capacity);
  /// The content of the part whose Content-ID is `cid` (percent-decoded), pending until
  /// read_parts(). Throws mtom::error past the part-count limit of references.
  std::shared_ptr<content> reference(std::string_view cid);
  /// Read every part after the root into the contents referenced; throws mtom::error for a
  /// reference no part answered, or a malformed/over-limit part.
  void read_parts();
  /// options::on_response_part: every referenced part handed to `take` as it is read, none
  /// stored; throws mtom::error as read_parts().
  void deliver_parts(const decltype(options::on_response_part)& take);
  /// options::stream_parts: the bytes of `wanted`'s part as they arrive (the parts before it
  /// are kept as read_parts() keeps them). Throws soap::fault_error (Sender) for a part that
  /// is missing, malformed or over the limits.
  byte_source open_part(const std::shared_ptr<content>& wanted);
  /// The bytes of the part whose Content-ID is `id` (not percent-encoded) from its first byte,
  /// for a reader before the handler (a signature's verifier): the parts up to it are read
  /// and kept (memory, or a temporary file past memory_threshold) so that the attachments
  /// referring to them later get them; empty when no part has that Content-ID. Throws
  /// mtom::error for a malformed or over-limit part.
  byte_source kept_part(std::string_view id);
  /// Release every part read (the call is over).
  void release() noexcept;
  /// Let the attachments that refer to the parts own them from now on (a client's response
  /// outlives its call): nothing is released with this message.
  void hand_over() noexcept {
    stored_.clear();
    by_id_.clear();
  }

 private:
  void store(const std::shared_ptr<content>& c);
  /// Checks the current part's Content-Transfer-Encoding and starts decoding it.
  void begin_part();
  /// The next part that a reference waits for (nullptr after the last part).
  std::shared_ptr<content> next_referenced();
  /// The bytes of the current part, decoded when it is Content-Transfer-Encoding base64.
  std::size_t read_part(char* dest, std::size_t n);
  /// Base64 decoding of the current part as it is read: the sextets of an incomplete
  /// quantum, decoded bytes that did not fit the caller's buffer, whether padding ended it.
  struct base64_state {
    bool on = false, ended = false;
    std::uint32_t bits = 0;
    int sextets = 0;
    char carry[8];
    int carry_at = 0, carry_n = 0;
  } base64_;
  const options& opts_;
  media_type outer_;
  multipart_reader parts_;
  std::unordered_map<std::string, std::shared_ptr<content>> by_id_;
  std::vector<std::shared_ptr<content>> stored_;
};

/// A message being written: the attachment fields the envelope's writer turned into
/// xop:Includes, written as parts after the envelope.
class message_out {
 public:
  explicit message_out(const options& o);
  /// Content-Type of the message for a SOAP `version` envelope with `action` (1.2).
  std::string_view content_type(soap::version v, std::string_view action);
  /// The boundary and the root part's headers, before the envelope.
  void begin(byte_buffer& out);
  /// Whether the attachment goes as a part; if so, registers it and returns its cid.
  std::optional<std::string> take(const attachment& a);
  /// Every registered part, then the closing boundary (streamed through `out`'s sink).
  void end(byte_buffer& out);
  /// Forget the parts (a retried request writes them anew).
  void clear() { parts_.clear(); }

 private:
  const options& opts_;
  std::string boundary_, type_, root_type_;
  std::vector<std::shared_ptr<content>> parts_;
  std::uint64_t next_id_ = 0;
};

/// A source of a stored content's bytes (memory or file) from the first byte.
byte_source open_stored(const std::shared_ptr<content>& c);

/// The messages of the readers and writers in use (a binding gets only the reader or the
/// writer): registered for the time a message is read or written.
void bind_reader(const void* reader, message_in* m);
void bind_writer(const void* writer, message_out* m);
message_in* message_of_reader(const void* reader);
message_out* message_of_writer(const void* writer);

/// Runs `f`, turning a malformed or over-limit message (mtom::error) into the Sender fault that
/// says so.
[[noreturn]] void throw_sender_fault(const error& e);
template <class F>
decltype(auto) as_sender_fault(F&& f) {
  try {
    return f();
  } catch (const error& e) {
    throw_sender_fault(e);
  }
}

/// A fresh random identifier (hex), for boundaries and Content-IDs.
std::string random_token();
/// The percent-encoded form of a Content-ID for a cid: URL (RFC 2392), and back.
std::string cid_url(std::string_view content_id);
std::string decode_cid(std::string_view url_body);

}  // namespace lather::mtom::detail
