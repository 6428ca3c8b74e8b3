// For TLS tests: certificates made with OpenSSL's API at test time (EC P-256, test-only, never
// committed), and a raw OpenSSL client whose versions, certificate and session the test sets.
#pragma once

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "raw_socket.hpp"

namespace lather::http::test {

using key_ptr = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using cert_ptr = std::unique_ptr<X509, decltype(&X509_free)>;

/// A directory of PEM files: ca.pem; server.pem/.key (localhost, 127.0.0.1); client.pem/.key
/// and expired.pem/.key (client certificates of the CA, the second valid only in the past);
/// other-ca.pem and untrusted.pem/.key (a client certificate of that other CA). Removed with
/// the object.
class test_pki {
 public:
  test_pki()
      : dir_(std::filesystem::temp_directory_path() /
             ("lather-tls-" + std::to_string(::getpid()) + "-" +
              std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()))) {
    std::filesystem::create_directories(dir_);
    using std::chrono::hours;
    auto ca_key = make_key();
    auto ca = make_cert("lather-test-ca", *ca_key, nullptr, *ca_key, -hours(1), hours(48), true);
    write("ca.pem", *ca);
    auto other_key = make_key();
    auto other =
        make_cert("other-test-ca", *other_key, nullptr, *other_key, -hours(1), hours(48), true);
    write("other-ca.pem", *other);
    issue("server", "localhost", *ca, *ca_key, -hours(1), hours(48), "DNS:localhost,IP:127.0.0.1");
    issue("client", "lather-client", *ca, *ca_key, -hours(1), hours(48));
    issue("expired", "expired-client", *ca, *ca_key, -hours(48), -hours(24));
    issue("untrusted", "untrusted-client", *other, *other_key, -hours(1), hours(48));
  }
  ~test_pki() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  test_pki(const test_pki&) = delete;
  test_pki& operator=(const test_pki&) = delete;
  std::string file(std::string_view name) const { return (dir_ / name).string(); }

 private:
  static key_ptr make_key() {
    key_ptr k{EVP_EC_gen("P-256"), &EVP_PKEY_free};
    if (!k) throw std::runtime_error("EVP_EC_gen");
    return k;
  }
  static cert_ptr make_cert(const std::string& cn, EVP_PKEY& key, X509* issuer,
                            EVP_PKEY& issuer_key, std::chrono::seconds from,
                            std::chrono::seconds to, bool ca, const char* san = nullptr) {
    cert_ptr c{X509_new(), &X509_free};
    static long serial = 1;
    X509_set_version(c.get(), 2);
    ASN1_INTEGER_set(X509_get_serialNumber(c.get()), ++serial);
    X509_gmtime_adj(X509_getm_notBefore(c.get()), static_cast<long>(from.count()));
    X509_gmtime_adj(X509_getm_notAfter(c.get()), static_cast<long>(to.count()));
    X509_set_pubkey(c.get(), &key);
    X509_NAME* name = X509_get_subject_name(c.get());
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1, 0);
    X509_set_issuer_name(c.get(), issuer ? X509_get_subject_name(issuer) : name);
    X509V3_CTX v3;
    X509V3_set_ctx_nodb(&v3);
    X509V3_set_ctx(&v3, issuer ? issuer : c.get(), c.get(), nullptr, nullptr, 0);
    auto add = [&](int nid, const char* value) {
      X509_EXTENSION* e = X509V3_EXT_conf_nid(nullptr, &v3, nid, value);
      if (!e) throw std::runtime_error("X509V3_EXT_conf_nid");
      X509_add_ext(c.get(), e, -1);
      X509_EXTENSION_free(e);
    };
    add(NID_basic_constraints, ca ? "critical,CA:TRUE" : "CA:FALSE");
    if (ca) add(NID_key_usage, "critical,keyCertSign,cRLSign");
    if (san) add(NID_subject_alt_name, san);
    if (X509_sign(c.get(), &issuer_key, EVP_sha256()) == 0) throw std::runtime_error("X509_sign");
    return c;
  }
  void issue(const std::string& base, const std::string& cn, X509& ca, EVP_PKEY& ca_key,
             std::chrono::seconds from, std::chrono::seconds to, const char* san = nullptr) {
    auto key = make_key();
    auto cert = make_cert(cn, *key, &ca, ca_key, from, to, false, san);
    write(base + ".pem", *cert);
    std::FILE* f = std::fopen(file(base + ".key").c_str(), "w");
    if (!f || !PEM_write_PrivateKey(f, key.get(), nullptr, nullptr, 0, nullptr, nullptr))
      throw std::runtime_error("writing " + base + ".key");
    std::fclose(f);
  }
  void write(const std::string& name, X509& cert) {
    std::FILE* f = std::fopen(file(name).c_str(), "w");
    if (!f || !PEM_write_X509(f, &cert)) throw std::runtime_error("writing " + name);
    std::fclose(f);
  }

  std::filesystem::path dir_;
};

/// How a tls_peer connects.
struct tls_peer_options {
  int min_version = TLS1_VERSION, max_version = TLS1_3_VERSION;
  std::string cert_file{}, key_file{};  // a client certificate
  SSL_SESSION* session = nullptr;       // offered for resumption
};

/// A blocking OpenSSL client on a raw loopback socket (5 s timeouts), not verifying the server.
class tls_peer {
 public:
  tls_peer(std::uint16_t port, const tls_peer_options& o) : socket_(port) {
    ctx_ = SSL_CTX_new(TLS_client_method());
    SSL_CTX_set_security_level(ctx_, 0);  // so that it may offer TLS 1.1 when asked to
    SSL_CTX_set_min_proto_version(ctx_, o.min_version);
    SSL_CTX_set_max_proto_version(ctx_, o.max_version);
    if (!o.cert_file.empty() &&
        (SSL_CTX_use_certificate_chain_file(ctx_, o.cert_file.c_str()) != 1 ||
         SSL_CTX_use_PrivateKey_file(ctx_, o.key_file.c_str(), SSL_FILETYPE_PEM) != 1))
      throw std::runtime_error("tls_peer: cannot load " + o.cert_file);
    ssl_ = SSL_new(ctx_);
    SSL_set_fd(ssl_, socket_.fd());
    if (o.session) SSL_set_session(ssl_, o.session);
  }
  ~tls_peer() {
    SSL_free(ssl_);
    SSL_CTX_free(ctx_);
  }
  tls_peer(const tls_peer&) = delete;
  tls_peer& operator=(const tls_peer&) = delete;

  /// The handshake (as far as the client can tell: a TLS 1.3 server still checks the client's
  /// certificate after it). False = failed; error_reason() says why.
  bool handshake() { return check(SSL_connect(ssl_)); }
  bool send(std::string_view bytes) {
    return check(SSL_write(ssl_, bytes.data(), static_cast<int>(bytes.size())));
  }
  /// Everything until the server closes (or fails, or 5 s pass).
  std::string read_all() {
    std::string out;
    char buf[4096];
    int n;
    while ((n = SSL_read(ssl_, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
    // The server's close_notify is answered, as a well-behaved client does (OpenSSL keeps a
    // session resumable only after a clean close).
    if (SSL_get_error(ssl_, n) == SSL_ERROR_ZERO_RETURN) SSL_shutdown(ssl_);
    check(n);
    return out;
  }
  int version() const { return SSL_version(ssl_); }
  std::uint16_t local_port() const { return socket_.local_port(); }  ///< this client's port
  bool resumed() const { return SSL_session_reused(ssl_) == 1; }
  /// The session, for a later peer's tls_peer_options::session (the caller frees it).
  SSL_SESSION* session() const { return SSL_get1_session(ssl_); }
  /// OpenSSL's reason for the last failure (e.g. SSL_R_SSLV3_ALERT_CERTIFICATE_EXPIRED), 0 if
  /// none.
  int error_reason() const { return reason_; }

 private:
  bool check(int result) {
    if (result > 0) return true;
    const unsigned long e = ERR_peek_last_error();
    if (e != 0) reason_ = ERR_GET_REASON(e);
    ERR_clear_error();
    return false;
  }
  raw_socket socket_;
  SSL_CTX* ctx_ = nullptr;
  SSL* ssl_ = nullptr;
  int reason_ = 0;
};

}  // namespace lather::http::test
