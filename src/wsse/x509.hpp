// Internal to lather_wsse: keys and certificates (OpenSSL objects behind credentials and
// trust_store), and what XML-DSig needs of them.
#pragma once

#include <openssl/evp.h>
#include <openssl/x509.h>

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "crypto.hpp"
#include "lather/wsse/signature.hpp"

namespace lather::wsse {

namespace detail {
struct x509_free {
  void operator()(X509* p) const noexcept { X509_free(p); }
};
struct pkey_free {
  void operator()(EVP_PKEY* p) const noexcept { EVP_PKEY_free(p); }
};
struct store_free {
  void operator()(X509_STORE* p) const noexcept { X509_STORE_free(p); }
};
struct pkey_ctx_free {
  void operator()(EVP_PKEY_CTX* p) const noexcept { EVP_PKEY_CTX_free(p); }
};
using x509_ptr = std::unique_ptr<X509, x509_free>;
using pkey_ptr = std::unique_ptr<EVP_PKEY, pkey_free>;
using pkey_ctx_ptr = std::unique_ptr<EVP_PKEY_CTX, pkey_ctx_free>;

/// A context for RSASSA-PKCS1-v1_5 signatures (`sign`) or their verification with `key`, made
/// once and used for many (null if the key cannot do it). It holds a reference to the key. It
/// signs (verifies) the DigestInfo the caller encodes (encoded_digest), as RSA_sign does: left
/// to OpenSSL, the encoding and the digest's name lookup cost heap allocations per signature.
pkey_ctx_ptr rsa_context(EVP_PKEY* key, bool sign);

/// EMSA-PKCS1-v1_5's DigestInfo (RFC 8017 section 9.2) of `data` under `md`, in `out`: what an
/// rsa_context signs or verifies.
std::span<const std::uint8_t> encoded_digest(digest_kind md, std::string_view data,
                                             std::array<std::uint8_t, 51>& out);

/// Every certificate in a PEM text (none: empty).
std::vector<x509_ptr> read_pem_certificates(std::string_view pem);
/// A DER certificate; null if it is not one.
x509_ptr read_der_certificate(std::span<const std::uint8_t> der);
std::vector<std::uint8_t> der_of(X509* cert);
/// Issuer name as RFC 2253 text ("CN=ca,O=acme"), the serial number in decimal, the subject
/// key identifier ("" when the certificate has none), the subject as RFC 2253 text.
std::string issuer_name(X509* cert);
std::string serial_number(X509* cert);
std::vector<std::uint8_t> subject_key_id(X509* cert);
std::string subject_name(X509* cert);
}  // namespace detail

struct credentials::impl {
  detail::pkey_ptr key;
  detail::x509_ptr cert;
  // What KeyInfo writes of the certificate, made once: the base64 of its DER (a
  // BinarySecurityToken), its issuer (escaped for XML) and serial, its subject key identifier
  // in base64 ("" when it has none).
  std::string der_base64, issuer_escaped, serial, ski_base64;
};

struct trust_store::impl {
  std::unique_ptr<X509_STORE, detail::store_free> store;
  std::vector<detail::x509_ptr> known;  // every certificate added, for issuer serial / SKI
  /// Unique among all stores and changed by each addition: what a verifier's cache of
  /// certificates already found trusted is keyed on.
  std::uint64_t generation = 0;
};

namespace detail {
/// A new trust_store::impl::generation.
std::uint64_t next_store_generation() noexcept;
}  // namespace detail

}  // namespace lather::wsse
