// Internal to lather_wsse: keys and certificates (OpenSSL objects behind credentials and
// trust_store), and what XML-DSig needs of them.
#pragma once

#include <openssl/evp.h>
#include <openssl/x509.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

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
using x509_ptr = std::unique_ptr<X509, x509_free>;
using pkey_ptr = std::unique_ptr<EVP_PKEY, pkey_free>;

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
};

struct trust_store::impl {
  std::unique_ptr<X509_STORE, detail::store_free> store;
  std::vector<detail::x509_ptr> known;  // every certificate added, for issuer serial / SKI
};

}  // namespace lather::wsse
