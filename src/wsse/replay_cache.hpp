// Internal to lather_wsse: the nonces seen recently, bounded.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <mutex>
#include <unordered_map>

namespace lather::wsse::detail {

/// Keys are 16 bytes of a SHA-256 of nonce and Created (so neither is stored and the table
/// cannot be flooded with chosen collisions); each entry lives until its expiry. At capacity
/// the oldest entry goes: a replay of it is still refused if its Created is stale by then,
/// which holds when capacity >= message rate x (ttl + 2 skew).
class replay_cache {
 public:
  using key = std::array<std::uint8_t, 16>;
  using clock = std::chrono::system_clock;

  explicit replay_cache(std::size_t capacity) : capacity_(capacity) {}

  /// Remember `k` until `expiry`; false if it is remembered already (a replay).
  bool insert(const key& k, clock::time_point now, clock::time_point expiry) {
    std::lock_guard lock(mutex_);
    while (!order_.empty() && (order_.front().expiry <= now || entries_.size() >= capacity_)) {
      auto it = entries_.find(order_.front().k);
      if (it != entries_.end() && it->second == order_.front().expiry) entries_.erase(it);
      order_.pop_front();
    }
    auto [it, fresh] = entries_.try_emplace(k, expiry);
    if (!fresh) {
      if (it->second > now) return false;
      it->second = expiry;  // expired but not swept yet: reuse
    }
    order_.push_back({k, expiry});
    return true;
  }

  void set_capacity(std::size_t capacity) {
    std::lock_guard lock(mutex_);
    capacity_ = capacity == 0 ? 1 : capacity;
  }

  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return entries_.size();
  }

 private:
  struct key_hash {
    std::size_t operator()(const key& k) const noexcept {
      std::size_t h;
      std::memcpy(&h, k.data(), sizeof h);  // already a cryptographic hash
      return h;
    }
  };
  struct queued {
    key k;
    clock::time_point expiry;
  };
  mutable std::mutex mutex_;
  std::size_t capacity_;
  std::unordered_map<key, clock::time_point, key_hash> entries_;
  std::deque<queued> order_;
};

}  // namespace lather::wsse::detail
