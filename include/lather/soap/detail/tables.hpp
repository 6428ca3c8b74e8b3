// lather/soap/detail/tables.hpp — the two hash tables behind multi-refs (internal).
//
// Open addressing, linear probing, flat arrays: one cache miss per lookup where a node-based
// std::unordered_map takes two or three, which is what keeps a 1M-element multi-ref message
// at the per-element cost of a 1k one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lather::soap::detail {

/// SOAP-ENC id -> entry index. Keys come from the peer, so the hash is seeded per process
/// (no precomputed collision floods). Slots are 8 bytes (hash tag + value) and keys live in one
/// arena in insertion order. Stacks write independent elements in the order they were first
/// referenced, so a lookup first tries the entry after the previous hit: when that matches,
/// the table is not touched at all.
class id_table {
 public:
  static constexpr std::uint32_t none = 0xffffffffu;
  id_table();
  /// The value stored for `key`, or `value_if_new` after inserting it (values must be
  /// 0, 1, 2, ... in insertion order). `inserted` tells which.
  std::uint32_t find_or_insert(std::string_view key, std::uint32_t value_if_new, bool& inserted);
  /// The key text of an inserted value (stable until clear()).
  std::string_view key(std::uint32_t value) const noexcept {
    return {arena_.data() + keys_[value].first, keys_[value].second};
  }
  std::size_t size() const noexcept { return keys_.size(); }
  void clear() noexcept;

 private:
  struct slot {
    std::uint32_t tag;
    std::uint32_t value = none;
  };
  std::uint64_t hash(std::string_view key) const noexcept;
  void grow();

  std::vector<slot> slots_;
  std::string arena_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> keys_;  // value -> (offset, length)
  std::uint32_t predicted_ = 0;
  std::uint64_t seed_;
};

/// Object address -> reference count and id. Addresses are not chosen by the peer, so the
/// index is the address itself (>> 4): objects allocated one after another land in adjacent
/// slots, which keeps the table walk cache friendly.
class pointer_table {
 public:
  struct info {
    std::uint32_t count = 0;
    std::uint32_t id = 0;  // 0 = none assigned
  };
  /// The info of `p`, inserted zeroed if new. Valid until the next call.
  info& operator[](const void* p);
  void clear() noexcept;

 private:
  struct slot {
    const void* key = nullptr;
    info value;
  };
  void grow();
  std::vector<slot> slots_;
  std::size_t used_ = 0;
};

}  // namespace lather::soap::detail
