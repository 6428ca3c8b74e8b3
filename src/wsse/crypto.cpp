#include "crypto.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <memory>
#include <stdexcept>

namespace lather::wsse::detail {

namespace {

template <std::size_t N>
std::array<std::uint8_t, N> digest(const EVP_MD* md,
                                   std::initializer_list<std::span<const std::uint8_t>> parts) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx{EVP_MD_CTX_new(), &EVP_MD_CTX_free};
  std::array<std::uint8_t, N> out{};
  unsigned size = 0;
  bool ok = ctx && EVP_DigestInit_ex(ctx.get(), md, nullptr) == 1;
  for (auto part : parts) ok = ok && EVP_DigestUpdate(ctx.get(), part.data(), part.size()) == 1;
  ok = ok && EVP_DigestFinal_ex(ctx.get(), out.data(), &size) == 1 && size == N;
  if (!ok) throw std::runtime_error("OpenSSL digest failed");
  return out;
}

}  // namespace

sha1_digest sha1(std::initializer_list<std::span<const std::uint8_t>> parts) {
  return digest<20>(EVP_sha1(), parts);
}

sha256_digest sha256(std::initializer_list<std::span<const std::uint8_t>> parts) {
  return digest<32>(EVP_sha256(), parts);
}

void random_bytes(std::span<std::uint8_t> out) {
  if (RAND_bytes(out.data(), static_cast<int>(out.size())) != 1)
    throw std::runtime_error("OpenSSL RAND_bytes failed");
}

bool equal_secret(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) noexcept {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace lather::wsse::detail
