#include "message_id_cache.hpp"

#include <bit>
#include <functional>

namespace lather::wsa::detail {

message_id_cache::message_id_cache(std::size_t capacity, std::chrono::seconds window)
    : window_(window), order_(capacity) {
  // Load factor at most 1/2: probes stay short.
  table_.assign(std::bit_ceil(capacity * 2), 0);
  mask_ = table_.size() - 1;
}

bool message_id_cache::insert(std::string_view id, std::chrono::steady_clock::time_point now) {
  std::uint64_t h = std::hash<std::string_view>{}(id);
  if (h == 0) h = 1;  // 0 marks an empty slot
  std::lock_guard lock(mutex_);
  while (count_ > 0 && now - order_[first_].at >= window_) evict_oldest();
  if (contains(h)) return false;
  if (count_ == order_.size()) evict_oldest();
  order_[(first_ + count_) % order_.size()] = {h, now};
  ++count_;
  add(h);
  return true;
}

bool message_id_cache::contains(std::uint64_t h) const noexcept {
  for (std::size_t i = h & mask_; table_[i] != 0; i = (i + 1) & mask_)
    if (table_[i] == h) return true;
  return false;
}

void message_id_cache::add(std::uint64_t h) noexcept {
  std::size_t i = h & mask_;
  while (table_[i] != 0) i = (i + 1) & mask_;
  table_[i] = h;
}

void message_id_cache::remove(std::uint64_t h) noexcept {
  std::size_t i = h & mask_;
  while (table_[i] != h) {
    if (table_[i] == 0) return;
    i = (i + 1) & mask_;
  }
  // Backward-shift deletion: move later entries of the probe run into the hole, so lookups
  // need no tombstones.
  for (std::size_t j = (i + 1) & mask_; table_[j] != 0; j = (j + 1) & mask_) {
    const std::size_t home = table_[j] & mask_;
    // Entry j may move to i when its home is not cyclically within (i, j].
    if (((j - home) & mask_) >= ((j - i) & mask_)) {
      table_[i] = table_[j];
      i = j;
    }
  }
  table_[i] = 0;
}

void message_id_cache::evict_oldest() noexcept {
  remove(order_[first_].hash);
  first_ = (first_ + 1) % order_.size();
  --count_;
}

}  // namespace lather::wsa::detail
