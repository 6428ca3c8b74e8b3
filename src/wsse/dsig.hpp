// Internal to lather_wsse: what signing and verifying share — the XML-DSig algorithm URIs, the
// Id of an element, and the digests of elements by exclusive C14N in one pass over a message,
// with buffers kept from one message to the next (no heap allocation once they have grown).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "crypto.hpp"
#include "lather/wsse/c14n.hpp"
#include "lather/wsse/signature.hpp"
#include "lather/xml/reader.hpp"

namespace lather::wsse::detail {

inline constexpr std::string_view ds_ns = "http://www.w3.org/2000/09/xmldsig#";
inline constexpr std::string_view xop_ns = "http://www.w3.org/2004/08/xop/include";
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

/// A vector whose first size() elements are in use; clear() keeps every element, so strings
/// and vectors inside keep their capacity for the next message. add() returns an element as
/// its last user left it (the caller assigns every field); it may move the others.
template <class T>
class reuse_pool {
 public:
  void clear() noexcept { size_ = 0; }
  T& add() {
    if (size_ == items_.size()) items_.emplace_back();
    return items_[size_++];
  }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  T& operator[](std::size_t i) noexcept { return items_[i]; }
  const T& operator[](std::size_t i) const noexcept { return items_[i]; }
  T* begin() noexcept { return items_.data(); }
  T* end() noexcept { return items_.data() + size_; }
  const T* begin() const noexcept { return items_.data(); }
  const T* end() const noexcept { return items_.data() + size_; }

 private:
  std::vector<T> items_;
  std::size_t size_ = 0;
};

/// `order` = the indices of `pool`'s elements sorted by `key` (n log n, for messages with many
/// Ids); false if two have the same key.
template <class Pool, class Key>
bool sort_unique(const Pool& pool, Key key, std::vector<std::uint32_t>& order) {
  order.clear();
  for (std::uint32_t i = 0; i < pool.size(); ++i) order.push_back(i);
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return key(pool[a]) < key(pool[b]); });
  for (std::size_t i = 1; i < order.size(); ++i)
    if (key(pool[order[i - 1]]) == key(pool[order[i]])) return false;
  return true;
}

/// The element's wsu:Id, else its unqualified Id attribute ("" when none).
std::string_view id_of(const xml::reader& r) noexcept;

/// An element to canonicalize: the one whose Id is `id`, or (ordinal > 0) the ordinal-th start
/// tag of the message. With `md` its canonical form is digested, else kept in `canonical`.
struct c14n_target {
  std::string id;
  std::uint64_t ordinal = 0;
  std::optional<digest_kind> md;
  std::vector<std::string> prefixes;  // InclusiveNamespaces PrefixList
  bool found = false;
  std::array<std::uint8_t, 32> digest{};
  std::size_t digest_size = 0;
  std::string canonical;

  std::span<const std::uint8_t> digest_bytes() const noexcept {
    return {digest.data(), digest_size};
  }
};

/// Canonicalizes targets of one message in one pass (targets may nest). One per thread:
/// its readers, canonicalizers and buffers serve every message that thread signs or verifies.
class canonicalizer {
 public:
  /// Forget the previous message's targets.
  void clear() noexcept { targets_.clear(); }
  /// A new target with no Id, ordinal, digest or prefix: the caller sets what it needs.
  c14n_target& add();
  c14n_target& operator[](std::size_t i) noexcept { return targets_[i]; }
  std::size_t size() const noexcept { return targets_.size(); }
  /// Canonicalize every target added since clear() (throws xml::error for a malformed one).
  /// An xop:Include inside a target stands for the base64 of its part in `parts` (throws
  /// std::invalid_argument without parts, or for an href that is not cid: or names no part).
  void run(std::string_view message, const xop_parts* parts = nullptr);

 private:
  struct engine {
    c14n_target* target = nullptr;
    running_digest md;
    exclusive_c14n c14n{[this](std::string_view bytes) { consume(bytes); }};
    void consume(std::string_view bytes) {
      if (target->md)
        md.update(bytes);
      else
        target->canonical += bytes;
    }
  };
  /// The base64 of the part the Include the reader is on names, into every running target;
  /// the reader is left on the Include's end tag.
  void include(xml::reader& r, const xop_parts& parts);

  reuse_pool<c14n_target> targets_;
  std::string part_buffer_, encoded_;             // a piece of a part, and its base64
  std::vector<std::unique_ptr<engine>> engines_;  // stable addresses: the sinks point at them
  std::vector<engine*> running_;
  xml::reader reader_;
};

/// A serialized MTOM message (multipart/related, as lather::mtom writes and reads it): where its
/// root part's body (the envelope) is, and the other parts' bodies by Content-ID.
struct mime_message {
  std::size_t root_begin = 0, root_size = 0;
  struct part {
    std::string content_id;  // without the angle brackets
    std::string_view body;
  };
  reuse_pool<part> parts;
  /// The parts as sign_envelope / verify_envelope take them (`*this` must outlive it).
  xop_parts source() const;
};

/// Split `message` if it is multipart (it starts with "--boundary"): true, else false (a plain
/// envelope). Throws std::invalid_argument for a multipart message it cannot split.
bool split_mime(std::string_view message, mime_message& out);

/// Offset of the '>' closing the start tag that begins at `lt` (quotes respected).
std::size_t start_tag_end(std::string_view doc, std::size_t lt);

/// Split a PrefixList attribute value into `out` (its strings reused).
void split_prefixes(std::string_view list, std::vector<std::string>& out);

/// Append `s` escaped as C14N escapes attribute values (also valid as element content).
void escape_attribute(std::string& out, std::string_view s);

}  // namespace lather::wsse::detail
