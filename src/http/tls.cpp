// Protocol versions and session resumption on OpenSSL contexts (tls.hpp).
#include "tls.hpp"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "lather/http/error.hpp"

namespace lather::http::detail {

namespace {

/// Where a context's ticket_keys / session_store is found from inside OpenSSL's callbacks.
int context_slot() {
  static const int slot = SSL_CTX_get_ex_new_index(0, nullptr, nullptr, nullptr, nullptr);
  return slot;
}

template <class T>
T* owner_of(SSL* ssl) {
  return static_cast<T*>(SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), context_slot()));
}

void fill_random(unsigned char* bytes, std::size_t n) {
  if (RAND_bytes(bytes, static_cast<int>(n)) != 1)
    throw error(errc::tls_failed, "no random bytes for TLS session ticket keys");
}

}  // namespace

void set_tls_versions(asio::ssl::context& ctx, const tls_options& t) {
  const int lowest = t.min_version == tls_version::tls1_3 ? TLS1_3_VERSION : TLS1_2_VERSION;
  if (SSL_CTX_set_min_proto_version(ctx.native_handle(), lowest) != 1 ||
      SSL_CTX_set_max_proto_version(ctx.native_handle(), TLS1_3_VERSION) != 1)
    throw error(errc::tls_failed, "TLS: cannot set the protocol versions");
}

// ---- server: ticket keys ----

ticket_keys::ticket_keys(asio::ssl::context& ctx, const tls_options& t)
    : rotation_(std::max<clock_type::duration>(t.ticket_key_rotation, std::chrono::seconds(1))) {
  SSL_CTX* c = ctx.native_handle();
  // mTLS: a session is resumable only where its context id matches (OpenSSL refuses to resume
  // a verified session without one).
  static constexpr unsigned char id[] = "lather";
  SSL_CTX_set_session_id_context(c, id, sizeof id - 1);
  // Tickets carry the session: no per-session state on the server.
  SSL_CTX_set_session_cache_mode(c, SSL_SESS_CACHE_OFF);
  if (!t.session_resumption) {
    SSL_CTX_set_options(c, SSL_OP_NO_TICKET);
    SSL_CTX_set_num_tickets(c, 0);
    return;
  }
  // One TLS 1.3 ticket per handshake (OpenSSL's default is two): a client keeps only the
  // last, and these tickets may be used more than once.
  SSL_CTX_set_num_tickets(c, 1);
  SSL_CTX_set_timeout(
      c, static_cast<long>(std::chrono::duration_cast<std::chrono::seconds>(rotation_).count()));
  refresh(clock_type::now());
  SSL_CTX_set_ex_data(c, context_slot(), this);
  SSL_CTX_set_tlsext_ticket_key_evp_cb(c, &ticket_keys::on_ticket);
}

void ticket_keys::refresh(clock_type::time_point now) {
  if (current_.valid && now - current_.made < rotation_) return;
  previous_ = current_;
  if (previous_.valid && now - previous_.made >= 2 * rotation_) previous_.valid = false;
  fill_random(current_.name.data(), current_.name.size());
  fill_random(current_.cipher.data(), current_.cipher.size());
  fill_random(current_.mac.data(), current_.mac.size());
  current_.made = now;
  current_.valid = true;
}

/// OpenSSL's ticket key callback: encrypt = 1 for a new ticket (1 = done), else find the key a
/// ticket names (0 = unknown: full handshake; 1 = current; 2 = previous key: renew the ticket).
int ticket_keys::on_ticket(SSL* ssl, unsigned char* name, unsigned char* iv, EVP_CIPHER_CTX* cipher,
                           EVP_MAC_CTX* mac, int encrypt) {
  ticket_keys* self = owner_of<ticket_keys>(ssl);
  if (!self) return -1;
  key k;
  int found = 1;
  {
    std::lock_guard lock(self->mutex_);
    self->refresh(clock_type::now());
    if (encrypt) {
      k = self->current_;
    } else if (std::memcmp(name, self->current_.name.data(), k.name.size()) == 0) {
      k = self->current_;
    } else if (self->previous_.valid &&
               std::memcmp(name, self->previous_.name.data(), k.name.size()) == 0) {
      k = self->previous_;
      found = 2;
    } else {
      return 0;
    }
  }
  char digest[] = "SHA256";
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_KEY, k.mac.data(), k.mac.size()),
      OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
      OSSL_PARAM_construct_end()};
  if (EVP_MAC_CTX_set_params(mac, params) != 1) return -1;
  if (encrypt) {
    std::memcpy(name, k.name.data(), k.name.size());
    if (RAND_bytes(iv, 16) != 1) return -1;
    return EVP_EncryptInit_ex(cipher, EVP_aes_256_cbc(), nullptr, k.cipher.data(), iv) == 1 ? 1
                                                                                            : -1;
  }
  return EVP_DecryptInit_ex(cipher, EVP_aes_256_cbc(), nullptr, k.cipher.data(), iv) == 1 ? found
                                                                                          : -1;
}

// ---- client: the session kept ----

session_store::session_store(asio::ssl::context& ctx) {
  SSL_CTX* c = ctx.native_handle();
  SSL_CTX_set_ex_data(c, context_slot(), this);
  // OpenSSL's client cache only calls back: the session is kept here, one per client.
  SSL_CTX_set_session_cache_mode(c, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
  SSL_CTX_sess_set_new_cb(c, &session_store::on_new_session);
}

session_store::~session_store() {
  if (session_) SSL_SESSION_free(session_);
}

// The store keeps and offers copies: OpenSSL marks a connection's session unresumable when the
// connection ends without a close_notify sent (SSL_free, ssl_clear_bad_session), which a pooled
// connection dropped on expiry or after an error does; the copy kept here stays resumable.
void session_store::offer(SSL* ssl) {
  SSL_SESSION* copy = nullptr;
  {
    std::lock_guard lock(mutex_);
    if (session_) copy = SSL_SESSION_dup(session_);
  }
  if (!copy) return;
  SSL_set_session(ssl, copy);  // takes its own reference
  SSL_SESSION_free(copy);
}

/// 0 = OpenSSL keeps its reference (a copy is kept here).
int session_store::on_new_session(SSL* ssl, SSL_SESSION* session) {
  session_store* self = owner_of<session_store>(ssl);
  if (!self || !SSL_SESSION_is_resumable(session)) return 0;
  SSL_SESSION* copy = SSL_SESSION_dup(session);
  if (!copy) return 0;
  {
    std::lock_guard lock(self->mutex_);
    std::swap(self->session_, copy);
  }
  if (copy) SSL_SESSION_free(copy);
  return 0;
}

}  // namespace lather::http::detail
