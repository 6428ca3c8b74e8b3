// Internal to lather_wsse: the OpenSSL calls the tokens need.
#pragma once

#include <openssl/sha.h>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>

namespace lather::wsse::detail {

using sha1_digest = std::array<std::uint8_t, 20>;
using sha256_digest = std::array<std::uint8_t, 32>;

/// SHA-1 / SHA-256 of the concatenation of `parts`.
sha1_digest sha1(std::initializer_list<std::span<const std::uint8_t>> parts);
sha256_digest sha256(std::initializer_list<std::span<const std::uint8_t>> parts);

/// The digests XML-DSig uses here.
enum class digest_kind { sha1, sha256 };

/// An incremental SHA-1 or SHA-256 on OpenSSL's low-level contexts (no heap, unlike EVP).
class running_digest {
 public:
  void init(digest_kind kind);
  void update(std::string_view bytes);
  /// The digest (20 or 32 bytes) into `out`; its size.
  std::size_t final(std::span<std::uint8_t, 32> out);

 private:
  digest_kind kind_ = digest_kind::sha256;
  union {
    SHA_CTX sha1_;
    SHA256_CTX sha256_;
  };
};

/// Fill `out` from OpenSSL's CSPRNG; throws std::runtime_error if it fails.
void random_bytes(std::span<std::uint8_t> out);

/// The base64 of `in` written into `out` (at least 4 * ceil(in.size() / 3) characters), for
/// the short values of a Security header (nonces, digests) without a heap string.
std::string_view base64(std::span<const std::uint8_t> in, std::span<char> out) noexcept;

/// PasswordDigest = Base64(SHA-1(nonce + created + password)) into `out`.
std::string_view password_digest_text(std::span<const std::uint8_t> nonce, std::string_view created,
                                      std::string_view password, std::array<char, 28>& out);

/// Constant-time equality of two byte strings of the same length (false otherwise).
bool equal_secret(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) noexcept;

inline std::span<const std::uint8_t> bytes(std::string_view s) noexcept {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

}  // namespace lather::wsse::detail
