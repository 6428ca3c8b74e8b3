// Keys and certificates through OpenSSL: PEM/DER reading, names, serials, key identifiers.
#include "x509.hpp"

#include <algorithm>

#include "dsig.hpp"
#include "lather/bind/xsd.hpp"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509v3.h>

#include <atomic>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace lather::wsse {

namespace detail {

namespace {

struct bio_free {
  void operator()(BIO* p) const noexcept { BIO_free(p); }
};
using bio_ptr = std::unique_ptr<BIO, bio_free>;

bio_ptr memory_bio(std::string_view text) {
  return bio_ptr{BIO_new_mem_buf(text.data(), static_cast<int>(text.size()))};
}

std::string name_text(const X509_NAME* name) {
  bio_ptr out{BIO_new(BIO_s_mem())};
  X509_NAME_print_ex(out.get(), name, 0, XN_FLAG_RFC2253);
  char* data = nullptr;
  const long size = BIO_get_mem_data(out.get(), &data);
  return std::string(data, static_cast<std::size_t>(size));
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read " + p.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

std::vector<x509_ptr> read_pem_certificates(std::string_view pem) {
  std::vector<x509_ptr> out;
  bio_ptr in = memory_bio(pem);
  while (X509* c = PEM_read_bio_X509(in.get(), nullptr, nullptr, nullptr)) out.emplace_back(c);
  return out;
}

x509_ptr read_der_certificate(std::span<const std::uint8_t> der) {
  const unsigned char* p = der.data();
  return x509_ptr{d2i_X509(nullptr, &p, static_cast<long>(der.size()))};
}

std::vector<std::uint8_t> der_of(X509* cert) {
  unsigned char* der = nullptr;
  const int size = i2d_X509(cert, &der);
  if (size <= 0) throw std::invalid_argument("the certificate cannot be encoded");
  std::vector<std::uint8_t> out(der, der + size);
  OPENSSL_free(der);
  return out;
}

std::string issuer_name(X509* cert) {
  return name_text(X509_get_issuer_name(cert));
}

std::string subject_name(X509* cert) {
  return name_text(X509_get_subject_name(cert));
}

std::string serial_number(X509* cert) {
  BIGNUM* bn = ASN1_INTEGER_to_BN(X509_get0_serialNumber(cert), nullptr);
  char* dec = bn ? BN_bn2dec(bn) : nullptr;
  std::string out = dec ? dec : "";
  OPENSSL_free(dec);
  BN_free(bn);
  return out;
}

std::vector<std::uint8_t> subject_key_id(X509* cert) {
  const ASN1_OCTET_STRING* ski = X509_get0_subject_key_id(cert);
  if (!ski) return {};
  const unsigned char* data = ASN1_STRING_get0_data(ski);
  return std::vector<std::uint8_t>(data, data + ASN1_STRING_length(ski));
}

pkey_ctx_ptr rsa_context(EVP_PKEY* key, bool sign) {
  if (!key || EVP_PKEY_get_base_id(key) != EVP_PKEY_RSA) return nullptr;
  pkey_ctx_ptr ctx{EVP_PKEY_CTX_new(key, nullptr)};
  // No signature digest set: PKCS#1 v1.5 padding over the DigestInfo given (encoded_digest).
  const bool ok = ctx &&
                  (sign ? EVP_PKEY_sign_init(ctx.get()) : EVP_PKEY_verify_init(ctx.get())) == 1 &&
                  EVP_PKEY_CTX_set_rsa_padding(ctx.get(), RSA_PKCS1_PADDING) == 1;
  return ok ? std::move(ctx) : nullptr;
}

std::span<const std::uint8_t> encoded_digest(digest_kind md, std::string_view data,
                                             std::array<std::uint8_t, 51>& out) {
  // The DER of DigestInfo { AlgorithmIdentifier { OID, NULL }, OCTET STRING } before the hash.
  static constexpr std::uint8_t sha1_prefix[] = {0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e,
                                                 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14};
  static constexpr std::uint8_t sha256_prefix[] = {0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60,
                                                   0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
                                                   0x01, 0x05, 0x00, 0x04, 0x20};
  const std::span<const std::uint8_t> prefix =
      md == digest_kind::sha1 ? std::span<const std::uint8_t>(sha1_prefix) : sha256_prefix;
  std::copy(prefix.begin(), prefix.end(), out.begin());
  running_digest h;
  h.init(md);
  h.update(data);
  std::array<std::uint8_t, 32> hash;
  const std::size_t size = h.final(hash);
  std::copy_n(hash.begin(), size, out.begin() + static_cast<std::ptrdiff_t>(prefix.size()));
  return {out.data(), prefix.size() + size};
}

std::uint64_t next_store_generation() noexcept {
  static std::atomic<std::uint64_t> last{0};
  return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

}  // namespace detail

credentials credentials::from_pem(std::string_view key_pem, std::string_view cert_pem) {
  auto i = std::make_shared<impl>();
  auto in = detail::memory_bio(key_pem);
  i->key.reset(PEM_read_bio_PrivateKey(in.get(), nullptr, nullptr, nullptr));
  if (!i->key) throw std::invalid_argument("no private key in the PEM text");
  if (EVP_PKEY_get_base_id(i->key.get()) != EVP_PKEY_RSA)
    throw std::invalid_argument("the private key is not an RSA key");
  auto certs = detail::read_pem_certificates(cert_pem);
  if (certs.empty()) throw std::invalid_argument("no certificate in the PEM text");
  i->cert = std::move(certs.front());
  if (X509_check_private_key(i->cert.get(), i->key.get()) != 1)
    throw std::invalid_argument("the certificate is not that of the private key");
  xsd::base64_encode(detail::der_of(i->cert.get()), i->der_base64);
  detail::escape_attribute(i->issuer_escaped, detail::issuer_name(i->cert.get()));
  i->serial = detail::serial_number(i->cert.get());
  xsd::base64_encode(detail::subject_key_id(i->cert.get()), i->ski_base64);
  credentials c;
  c.impl_ = std::move(i);
  return c;
}

credentials credentials::from_files(const std::filesystem::path& key_pem,
                                    const std::filesystem::path& cert_pem) {
  return from_pem(detail::slurp(key_pem), detail::slurp(cert_pem));
}

trust_store::trust_store() : impl_(std::make_shared<impl>()) {
  impl_->store.reset(X509_STORE_new());
  // A certificate in the store is an anchor even when it is not self-signed (a partner's
  // own certificate, pinned).
  X509_STORE_set_flags(impl_->store.get(), X509_V_FLAG_PARTIAL_CHAIN);
  impl_->generation = detail::next_store_generation();
}

trust_store& trust_store::add_pem(std::string_view pem) {
  auto certs = detail::read_pem_certificates(pem);
  if (certs.empty()) throw std::invalid_argument("no certificate in the PEM text");
  for (auto& c : certs) {
    X509_STORE_add_cert(impl_->store.get(), c.get());
    impl_->known.push_back(std::move(c));
  }
  impl_->generation = detail::next_store_generation();
  return *this;
}

trust_store& trust_store::add_file(const std::filesystem::path& pem) {
  return add_pem(detail::slurp(pem));
}

}  // namespace lather::wsse
