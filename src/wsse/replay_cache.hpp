// Internal to lather_wsse: the nonces seen recently, bounded.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace lather::wsse::detail {

/// Keys are 16 bytes of a SHA-256 of nonce and Created (so neither is stored and the table
/// cannot be flooded with chosen collisions); each entry lives until its expiry. At capacity
/// the oldest entry goes: a replay of it is still refused if its Created is stale by then,
/// which holds when capacity >= message rate x (ttl + 2 skew).
class replay_cache {
 public:
  using key = std::array<std::uint8_t, 16>;
  using clock = std::chrono::system_clock;

  explicit replay_cache(std::size_t capacity) : capacity_(capacity) { spares_.reserve(max_spares); }

  /// Remember `k` until `expiry`; false if it is remembered already (a replay). Once the cache
  /// holds as many entries as it will (entries expire as fast as they come, or it is full),
  /// an insert allocates nothing: the node of an entry that goes is reused for the next.
  bool insert(const key& k, clock::time_point now, clock::time_point expiry) {
    std::lock_guard lock(mutex_);
    while (count_ > 0 && (ring_[head_].expiry <= now || entries_.size() >= capacity_)) {
      const queued& oldest = ring_[head_];
      auto it = entries_.find(oldest.k);
      if (it != entries_.end() && it->second == oldest.expiry) {
        if (spares_.size() < max_spares)
          spares_.push_back(entries_.extract(it));
        else
          entries_.erase(it);
      }
      head_ = (head_ + 1) % ring_.size();
      --count_;
    }
    if (auto it = entries_.find(k); it != entries_.end()) {
      if (it->second > now) return false;
      it->second = expiry;  // expired but not swept yet: reuse
    } else if (!spares_.empty()) {
      auto node = std::move(spares_.back());
      spares_.pop_back();
      node.key() = k;
      node.mapped() = expiry;
      entries_.insert(std::move(node));
    } else {
      entries_.emplace(k, expiry);
    }
    push({k, expiry});
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
  using table = std::unordered_map<key, clock::time_point, key_hash>;
  static constexpr std::size_t max_spares = 64;

  // The insertion order, a ring that grows by doubling (never shrinks).
  void push(const queued& q) {
    if (count_ == ring_.size()) {
      std::vector<queued> bigger;
      bigger.reserve(std::max<std::size_t>(16, ring_.size() * 2));
      for (std::size_t i = 0; i < count_; ++i) bigger.push_back(ring_[(head_ + i) % ring_.size()]);
      bigger.resize(bigger.capacity());
      ring_.swap(bigger);
      head_ = 0;
    }
    ring_[(head_ + count_) % ring_.size()] = q;
    ++count_;
  }

  mutable std::mutex mutex_;
  std::size_t capacity_;
  table entries_;
  std::vector<table::node_type> spares_;  // nodes of entries gone, for the next inserts
  std::vector<queued> ring_;
  std::size_t head_ = 0, count_ = 0;
};

}  // namespace lather::wsse::detail
