// Internal to lather_wsse: what signing and verifying share — the XML-DSig algorithm URIs, the
// Id of an element, and the digests of elements by exclusive C14N in one pass over a message.
#pragma once

#include <openssl/evp.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lather/xml/reader.hpp"

namespace lather::wsse::detail {

inline constexpr std::string_view ds_ns = "http://www.w3.org/2000/09/xmldsig#";
inline constexpr std::string_view exc_c14n_uri = "http://www.w3.org/2001/10/xml-exc-c14n#";
inline constexpr std::string_view rsa_sha1_uri = "http://www.w3.org/2000/09/xmldsig#rsa-sha1";
inline constexpr std::string_view rsa_sha256_uri =
    "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";
inline constexpr std::string_view sha1_uri = "http://www.w3.org/2000/09/xmldsig#sha1";
inline constexpr std::string_view sha256_uri = "http://www.w3.org/2001/04/xmlenc#sha256";
inline constexpr std::string_view x509v3_uri =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3";
inline constexpr std::string_view ski_uri =
    "http://docs.oasis-open.org/wss/2004/01/"
    "oasis-200401-wss-x509-token-profile-1.0#X509SubjectKeyIdentifier";

/// The element's wsu:Id, else its unqualified Id attribute ("" when none).
std::string_view id_of(const xml::reader& r) noexcept;

/// An element to canonicalize: the one whose Id is `id`, or (ordinal > 0) the ordinal-th start
/// tag of the message. With `md` its canonical form is digested, else kept in `canonical`.
struct c14n_target {
  std::string id{};
  std::uint64_t ordinal = 0;
  const EVP_MD* md = nullptr;
  std::vector<std::string> prefixes{};  // InclusiveNamespaces PrefixList
  bool found = false;
  std::vector<std::uint8_t> digest{};
  std::string canonical{};
};

/// Canonicalize every target in one pass over `message` (targets may nest).
void canonicalize_targets(std::string_view message, std::span<c14n_target> targets);

/// Offset of the '>' closing the start tag that begins at `lt` (quotes respected).
std::size_t start_tag_end(std::string_view doc, std::size_t lt);

/// Split a PrefixList attribute value into prefixes.
std::vector<std::string> split_prefixes(std::string_view list);

/// Append `s` escaped as C14N escapes attribute values (also valid as element content).
void escape_attribute(std::string& out, std::string_view s);
inline std::string escaped(std::string_view s) {
  std::string out;
  escape_attribute(out, s);
  return out;
}

}  // namespace lather::wsse::detail
