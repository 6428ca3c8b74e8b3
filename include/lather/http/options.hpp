// lather/http/options.hpp — settings shared by the HTTP server and client.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace lather::http {

/// The oldest TLS version a side accepts. TLS 1.3 is always preferred (negotiated whenever both
/// sides have it); TLS 1.1 and older are never accepted.
enum class tls_version { tls1_2, tls1_3 };

/// TLS settings. Files are PEM. See docs/http.md ("TLS").
struct tls_options {
  std::string cert_file{};  ///< server: its certificate chain; client: its certificate (mTLS)
  std::string key_file{};   ///< private key matching cert_file
  /// client: CA bundle to verify the server (empty = system default paths);
  /// server: CA for client certificates — when set, clients must present one (mTLS).
  std::string ca_file{};
  /// client: verify the server certificate chain and host name. server: ignored (mTLS is
  /// on exactly when ca_file is set).
  bool verify_peer = true;
  tls_version min_version = tls_version::tls1_2;
  /// Session resumption (an abbreviated handshake: no certificate, no signature). Client: keep
  /// the last session ticket the server sent and offer it on each new connection to it.
  /// Server: issue session tickets (stateless: the server keeps no session cache).
  bool session_resumption = true;
  /// Server: tickets are encrypted with a key random to this server (per process), replaced by
  /// a new one every ticket_key_rotation; a ticket made with the previous key is still
  /// accepted, and answered with a fresh one, for one more period. A ticket is valid for
  /// ticket_key_rotation. Client: ignored.
  std::chrono::seconds ticket_key_rotation{3600};
};

/// HTTP Basic credentials (server: the one accepted user; client: sent preemptively).
struct basic_auth {
  std::string user{}, password{};
};

/// Body framing: buffer up to `threshold` bytes; if the body ends within them it goes out in
/// one write with Content-Length, otherwise it switches to Transfer-Encoding: chunked and
/// streams (chunks of about `threshold` bytes). threshold 0 = always chunked;
/// never = buffer the whole body and always send Content-Length.
struct chunking {
  std::size_t threshold = 4096;
  bool never = false;
};

}  // namespace lather::http
