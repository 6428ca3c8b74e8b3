// lather/http/options.hpp — settings shared by the HTTP server and client.
#pragma once

#include <cstddef>
#include <string>

namespace lather::http {

/// TLS settings. Files are PEM.
struct tls_options {
  std::string cert_file{};  ///< server: its certificate chain; client: its certificate (mTLS)
  std::string key_file{};   ///< private key matching cert_file
  /// client: CA bundle to verify the server (empty = system default paths);
  /// server: CA for client certificates — when set, clients must present one (mTLS).
  std::string ca_file{};
  /// client: verify the server certificate chain and host name. server: ignored (mTLS is
  /// on exactly when ca_file is set).
  bool verify_peer = true;
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
