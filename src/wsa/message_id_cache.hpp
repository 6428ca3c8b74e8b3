// Internal to lather_wsa: the MessageIDs a server remembers (DuplicateMessageID), bounded in
// count and age, allocation-free after construction.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string_view>
#include <vector>

namespace lather::wsa::detail {

class message_id_cache {
 public:
  message_id_cache(std::size_t capacity, std::chrono::seconds window);
  /// Remember `id`; false if it is remembered already (a duplicate). An ID is kept by a 64-bit
  /// hash: two different IDs collide with probability 2^-64 per pair.
  bool insert(std::string_view id,
              std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now());

 private:
  struct entry {
    std::uint64_t hash;
    std::chrono::steady_clock::time_point at;
  };
  bool contains(std::uint64_t h) const noexcept;
  void add(std::uint64_t h) noexcept;
  void remove(std::uint64_t h) noexcept;
  void evict_oldest() noexcept;

  std::chrono::steady_clock::duration window_;
  std::mutex mutex_;
  std::vector<entry> order_;  // ring, oldest at first_
  std::size_t first_ = 0, count_ = 0;
  std::vector<std::uint64_t> table_;  // open addressing (linear probing), 0 = empty
  std::size_t mask_ = 0;
};

}  // namespace lather::wsa::detail
