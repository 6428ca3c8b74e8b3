// Internal to lather_http: what the server and the client set on their OpenSSL contexts
// beyond certificates: protocol versions and session resumption (tickets on the server, the
// last session kept by the client).
#pragma once

#include <openssl/ssl.h>

#include <array>
#include <boost/asio/ssl/context.hpp>
#include <chrono>
#include <mutex>

#include "asio_names.hpp"
#include "lather/http/options.hpp"

namespace lather::http::detail {

/// t.min_version up to TLS 1.3.
void set_tls_versions(asio::ssl::context& ctx, const tls_options& t);

/// A server's session ticket keys: random, made in this process, rotated every `rotation`
/// (tickets of the previous key are still accepted, and renewed, for one more period). With
/// them the server holds no session cache: a ticket carries the session.
class ticket_keys {
 public:
  /// Installs the keys on `ctx` (which must not outlive this object), or turns tickets and the
  /// session cache off when t.session_resumption is false.
  ticket_keys(asio::ssl::context& ctx, const tls_options& t);
  ticket_keys(const ticket_keys&) = delete;
  ticket_keys& operator=(const ticket_keys&) = delete;

 private:
  struct key {
    std::array<unsigned char, 16> name{};
    std::array<unsigned char, 32> cipher{}, mac{};
    clock_type::time_point made{};
    bool valid = false;
  };
  static int on_ticket(SSL* ssl, unsigned char* name, unsigned char* iv, EVP_CIPHER_CTX* cipher,
                       EVP_MAC_CTX* mac, int encrypt);
  /// The current key is replaced once older than `rotation_`; the previous one dropped at 2x.
  void refresh(clock_type::time_point now);

  clock_type::duration rotation_;
  std::mutex mutex_;
  key current_, previous_;
};

/// A client's resumable session: the last one the server gave (a TLS 1.3 ticket arrives after
/// the handshake, with the first response), offered on every new connection.
class session_store {
 public:
  /// Hooks `ctx` (which must not outlive this object) to keep new sessions.
  explicit session_store(asio::ssl::context& ctx);
  ~session_store();
  session_store(const session_store&) = delete;
  session_store& operator=(const session_store&) = delete;
  /// Before the handshake: offer the session kept, if any.
  void offer(SSL* ssl);

 private:
  static int on_new_session(SSL* ssl, SSL_SESSION* session);
  std::mutex mutex_;
  SSL_SESSION* session_ = nullptr;
};

}  // namespace lather::http::detail
