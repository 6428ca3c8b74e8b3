#include "lather/soap/detail/tables.hpp"

#include <chrono>
#include <cstring>

namespace lather::soap::detail {
namespace {

std::uint64_t mix(std::uint64_t x) noexcept {  // splitmix64 finaliser
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

id_table::id_table()
    : seed_(mix(
          static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
          reinterpret_cast<std::uintptr_t>(this))) {}

std::uint64_t id_table::hash(std::string_view key) const noexcept {
  // 8 bytes at a time, each word mixed with the seed.
  std::uint64_t h = seed_ ^ (key.size() * 0x9e3779b97f4a7c15ull);
  std::size_t i = 0;
  for (; i + 8 <= key.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, key.data() + i, 8);
    h = mix(h ^ w);
  }
  std::uint64_t tail = 0;
  std::memcpy(&tail, key.data() + i, key.size() - i);
  return mix(h ^ tail ^ 0x5bd1e995ull);
}

std::uint32_t id_table::find_or_insert(std::string_view key, std::uint32_t value_if_new,
                                       bool& inserted) {
  inserted = false;
  if (predicted_ < keys_.size() && this->key(predicted_) == key) return predicted_++;
  if ((keys_.size() + 1) * 2 > slots_.size()) grow();
  const std::uint64_t h = hash(key);
  const auto tag = static_cast<std::uint32_t>(h >> 32);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = h & mask;; i = (i + 1) & mask) {
    slot& s = slots_[i];
    if (s.value == none) {
      s.tag = tag;
      s.value = value_if_new;
      keys_.emplace_back(static_cast<std::uint32_t>(arena_.size()),
                         static_cast<std::uint32_t>(key.size()));
      arena_.append(key);
      inserted = true;
      predicted_ = value_if_new + 1;
      return value_if_new;
    }
    if (s.tag == tag && this->key(s.value) == key) {
      predicted_ = s.value + 1;
      return s.value;
    }
  }
}

void id_table::grow() {
  std::vector<slot> old = std::move(slots_);
  slots_.assign(old.empty() ? 64 : old.size() * 2, slot{});
  const std::size_t mask = slots_.size() - 1;
  for (const slot& s : old) {
    if (s.value == none) continue;
    // The tag is the hash's high half; the index needs the low bits: rehash the key.
    std::size_t i = hash(key(s.value)) & mask;
    while (slots_[i].value != none) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

void id_table::clear() noexcept {
  for (slot& s : slots_) s.value = none;
  arena_.clear();
  keys_.clear();
  predicted_ = 0;
}

pointer_table::info& pointer_table::operator[](const void* p) {
  if ((used_ + 1) * 2 > slots_.size()) grow();
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = (reinterpret_cast<std::uintptr_t>(p) >> 4) & mask;; i = (i + 1) & mask) {
    slot& s = slots_[i];
    if (s.key == p) return s.value;
    if (s.key == nullptr) {
      s.key = p;
      ++used_;
      return s.value;
    }
  }
}

void pointer_table::grow() {
  std::vector<slot> old = std::move(slots_);
  slots_.assign(old.empty() ? 64 : old.size() * 2, slot{});
  const std::size_t mask = slots_.size() - 1;
  for (const slot& s : old) {
    if (s.key == nullptr) continue;
    std::size_t i = (reinterpret_cast<std::uintptr_t>(s.key) >> 4) & mask;
    while (slots_[i].key != nullptr) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

void pointer_table::clear() noexcept {
  for (slot& s : slots_) s = slot{};
  used_ = 0;
}

}  // namespace lather::soap::detail
