// lather/mtom/mtom.hpp — MTOM/XOP and SwA (SOAP with Attachments) for lather's services and
// clients.
//
//   lather::service svc{"Files", "urn:files"};
//   svc.operation("upload", [](const upload& in) {          // in.data: mtom::attachment
//     lather::byte_source bytes = in.data.open();           // memory or a spilled temp file
//     ...
//   });
//   lather::mtom::enable(svc);                               // before the server starts
//
//   lather::client c{"http://127.0.0.1:8080/files"};
//   lather::mtom::enable(c, {.attachment_threshold = 1024});
//   c.call<uploadResponse>("upload", upload{"a.bin", mtom::attachment::from_file("a.bin")});
//
// Receiving: a request (or response) of type multipart/related whose root part is
// application/xop+xml (MTOM) or the SOAP envelope itself (SwA) is read part by part as it
// arrives: the root goes to the SOAP reader, each xop:Include (or SwA href) of an attachment
// field names a part by its cid: URL, the parts after the root are read once the envelope is
// (in memory up to memory_threshold, else in a temporary file). Plain SOAP messages are read
// as before. Sending: every attachment field that qualifies (send_as, attachment_threshold)
// becomes an xop:Include part written after the envelope, streamed from its source. Bad
// input is a Sender fault (docs/mtom.md); the limits are in docs/limits.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "lather/byte_buffer.hpp"

#include "lather/mtom/attachment.hpp"
#include "lather/mtom/multipart.hpp"

namespace lather {
class service;
class client;
}  // namespace lather

namespace lather::mtom {

struct options {
  /// Send MTOM: attachment fields become parts (false: receive MTOM and SwA only, send every
  /// attachment as inline base64).
  bool send = true;
  /// Server: answer with MTOM only when the request was MTOM (false: every response of an
  /// MTOM-enabled service is multipart/related).
  bool respond_in_kind = true;
  /// send_as::automatic fields of at least this many bytes (or of unknown size) go as parts,
  /// smaller ones inline. 0 = every attachment field as a part.
  std::uint64_t attachment_threshold = 1024;
  /// A received part of more bytes than this goes to a temporary file instead of memory.
  std::size_t memory_threshold = 1u << 20;
  /// Server: the handler reads a part while it arrives: attachment::open() on a received
  /// attachment pulls its part straight from the request body, once (parts before it in the
  /// message are kept as usual; its content type is known once opened, its size not at all).
  /// A part that is missing or malformed is then a fault from open(). false (default): every
  /// part is read before the handler runs.
  bool stream_parts = false;
  /// Client: each attachment part of a response is handed to this as it arrives instead of
  /// being stored (in memory or a temporary file) before call() returns, so a download of any
  /// size takes bounded memory. `content_id` and `content_type` name the part (the response's
  /// attachment field has that content_id(); its bytes cannot be opened), `bytes` pulls it as
  /// the response body arrives (0 = its end; what is left unread is skipped). Called on the
  /// calling thread once the envelope is read, in the order of the parts; an exception from
  /// it fails the call. Unset (default): parts are stored.
  std::function<void(std::string_view content_id, std::string_view content_type,
                     const byte_source& bytes)>
      on_response_part{};
  /// Where spilled parts go ("" = $TMPDIR, else /tmp); each is deleted when the last
  /// attachment referring to it is gone, and on the server when the call ends.
  std::string temp_dir;
  /// Limits on a received message (docs/limits.md): parts, one part's header block, one
  /// part's size (0 = only http::server_options::body_limit on the server).
  multipart_limits limits{.max_parts = 1000, .max_header_bytes = 16384, .max_part_bytes = 0};
};

/// MTOM on a service (before the server starts): installs its service::codec.
void enable(service& s, options o = {});
/// MTOM on a client (before its first call): installs its client::codec.
void enable(client& c, options o = {});

/// The XOP include namespace and the MTOM media types.
inline constexpr std::string_view xop_namespace = "http://www.w3.org/2004/08/xop/include";

}  // namespace lather::mtom
