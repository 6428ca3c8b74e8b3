// The low-level digest functions are deprecated in OpenSSL 3 but kept: they need no heap.
#define OPENSSL_SUPPRESS_DEPRECATED
#include "crypto.hpp"

#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <stdexcept>

namespace lather::wsse::detail {

namespace {

// SHA-1 and SHA-256 through OpenSSL's low-level functions: a context on the stack. The EVP
// interface allocates a context per digest (OpenSSL 3.0: one malloc per init, whether the
// context is new or reused), which would be an allocation per UsernameToken on each side.
template <class Context, int (*init)(Context*), int (*update)(Context*, const void*, std::size_t),
          int (*final)(unsigned char*, Context*), std::size_t N>
std::array<std::uint8_t, N> digest(std::initializer_list<std::span<const std::uint8_t>> parts) {
  Context ctx;
  std::array<std::uint8_t, N> out{};
  bool ok = init(&ctx) == 1;
  for (auto part : parts) ok = update(&ctx, part.data(), part.size()) == 1 && ok;
  ok = final(out.data(), &ctx) == 1 && ok;
  if (!ok) throw std::runtime_error("OpenSSL digest failed");
  return out;
}

}  // namespace

sha1_digest sha1(std::initializer_list<std::span<const std::uint8_t>> parts) {
  return digest<SHA_CTX, SHA1_Init, SHA1_Update, SHA1_Final, 20>(parts);
}

sha256_digest sha256(std::initializer_list<std::span<const std::uint8_t>> parts) {
  return digest<SHA256_CTX, SHA256_Init, SHA256_Update, SHA256_Final, 32>(parts);
}

void running_digest::init(digest_kind kind) {
  kind_ = kind;
  const bool ok = kind == digest_kind::sha1 ? SHA1_Init(&sha1_) == 1 : SHA256_Init(&sha256_) == 1;
  if (!ok) throw std::runtime_error("OpenSSL digest failed");
}

void running_digest::update(std::string_view bytes) {
  if (kind_ == digest_kind::sha1)
    SHA1_Update(&sha1_, bytes.data(), bytes.size());
  else
    SHA256_Update(&sha256_, bytes.data(), bytes.size());
}

std::size_t running_digest::final(std::span<std::uint8_t, 32> out) {
  if (kind_ == digest_kind::sha1) {
    SHA1_Final(out.data(), &sha1_);
    return SHA_DIGEST_LENGTH;
  }
  SHA256_Final(out.data(), &sha256_);
  return SHA256_DIGEST_LENGTH;
}

void random_bytes(std::span<std::uint8_t> out) {
  if (RAND_bytes(out.data(), static_cast<int>(out.size())) != 1)
    throw std::runtime_error("OpenSSL RAND_bytes failed");
}

std::string_view base64(std::span<const std::uint8_t> in, std::span<char> out) noexcept {
  static constexpr char alphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::size_t n = 0;
  for (std::size_t i = 0; i < in.size(); i += 3) {
    const std::size_t left = in.size() - i;
    const unsigned v = unsigned(in[i]) << 16 | (left > 1 ? unsigned(in[i + 1]) << 8 : 0u) |
                       (left > 2 ? unsigned(in[i + 2]) : 0u);
    out[n++] = alphabet[v >> 18 & 63];
    out[n++] = alphabet[v >> 12 & 63];
    out[n++] = left > 1 ? alphabet[v >> 6 & 63] : '=';
    out[n++] = left > 2 ? alphabet[v & 63] : '=';
  }
  return {out.data(), n};
}

std::string_view password_digest_text(std::span<const std::uint8_t> nonce, std::string_view created,
                                      std::string_view password, std::array<char, 28>& out) {
  return base64(sha1({nonce, bytes(created), bytes(password)}), out);
}

bool equal_secret(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) noexcept {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace lather::wsse::detail
