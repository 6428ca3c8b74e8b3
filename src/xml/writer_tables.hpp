// Internal to lather_xml: the writer's lookup structures (a string hash table, an arena for
// the names and URIs in scope, the cache of assembled tags).
// Included by writer.cpp only, in its anonymous namespace: the writer is one translation unit
// with internal linkage for its helpers, so the inliner sees them as it did when they were in
// writer.cpp itself.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "lather/xml/writer.hpp"

namespace lather::xml {
namespace {

// Open-addressing hash table from a string (owned elsewhere, stable while present) to an int.
// Linear probing with backward-shift deletion; capacity is kept across clear().
class string_table {
 public:
  static constexpr int none = -1;

  int get(std::string_view key) const noexcept {
    if (count_ == 0) return none;
    const std::size_t h = hash(key);
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      const slot& s = slots_[i];
      if (s.value == none) return none;
      if (s.hash == h && s.key == key) return s.value;
    }
  }

  void set(std::string_view key, int value) { exchange(key, value); }

  // set(), returning the previous value (none if the key was absent): one lookup, not two.
  int exchange(std::string_view key, int value) {
    if ((count_ + 1) * 2 > slots_.size()) rehash(std::max<std::size_t>(16, slots_.size() * 2));
    const std::size_t h = hash(key);
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      slot& s = slots_[i];
      if (s.value == none) {
        s = {key, h, value};
        ++count_;
        return none;
      }
      if (s.hash == h && s.key == key) return std::exchange(s.value, value);
    }
  }

  void erase(std::string_view key) noexcept {
    if (count_ == 0) return;
    const std::size_t h = hash(key);
    std::size_t i = h & mask_;
    for (;; i = (i + 1) & mask_) {
      if (slots_[i].value == none) return;
      if (slots_[i].hash == h && slots_[i].key == key) break;
    }
    // Backward shift: move later members of the probe run into the hole.
    for (std::size_t j = (i + 1) & mask_;; j = (j + 1) & mask_) {
      if (slots_[j].value == none) break;
      const std::size_t home = slots_[j].hash & mask_;
      // slots_[j] may move to i only if its home is not cyclically in (i, j].
      const bool movable = i <= j ? (home <= i || home > j) : (home <= i && home > j);
      if (movable) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i].value = none;
    --count_;
  }

  void clear() noexcept {
    if (count_ == 0) return;
    for (slot& s : slots_) s.value = none;
    count_ = 0;
  }

 private:
  struct slot {
    std::string_view key;
    std::size_t hash = 0;
    int value = none;
  };
  // Inline word-at-a-time hash: keys are URIs and prefixes (tens of bytes), for which the call
  // into std::hash cost more than the lookup itself.
  static std::size_t hash(std::string_view key) noexcept {
    auto mix = [](std::uint64_t h, std::uint64_t w) {
      h = (h ^ w) * 0xbf58476d1ce4e5b9u;
      return h ^ (h >> 31);
    };
    const char* p = key.data();
    std::size_t n = key.size();
    std::uint64_t h = 0x9e3779b97f4a7c15u ^ n;
    for (; n >= 8; p += 8, n -= 8) {
      std::uint64_t w;
      std::memcpy(&w, p, 8);
      h = mix(h, w);
    }
    if (n >= 4) {
      std::uint32_t a, b;
      std::memcpy(&a, p, 4);
      std::memcpy(&b, p + n - 4, 4);
      h = mix(h, (std::uint64_t{a} << 32) | b);
    } else if (n != 0) {
      h = mix(h, (std::uint64_t{byte_at(p)} << 16) | (std::uint64_t{byte_at(p + n / 2)} << 8) |
                     byte_at(p + n - 1));
    }
    return static_cast<std::size_t>(h);
  }
  void rehash(std::size_t capacity) {
    std::vector<slot> old = std::exchange(slots_, std::vector<slot>(capacity));
    mask_ = capacity - 1;
    count_ = 0;
    for (const slot& s : old)
      if (s.value != none) set(s.key, s.value);
  }
  std::vector<slot> slots_;
  std::size_t mask_ = 0;
  std::size_t count_ = 0;
};

// Stack-like string storage whose strings never move (so views into it stay valid while they
// are in scope). Blocks are kept across release() and reused.
class string_arena {
 public:
  struct mark {
    std::size_t block = 0;
    std::size_t used = 0;
  };
  mark get_mark() const noexcept { return {block_, used_}; }
  void release(mark m) noexcept {
    block_ = m.block;
    used_ = m.used;
  }
  void clear() noexcept { release({}); }

  char* allocate(std::size_t n) {
    if (blocks_.empty() || used_ + n > blocks_[block_].size) {
      if (!blocks_.empty()) ++block_;
      if (block_ == blocks_.size()) blocks_.emplace_back();
      block& b = blocks_[block_];
      if (b.size < n) {  // never holds live data: everything past the current block is free
        b.size = std::max(n, default_block_size);
        b.data = std::make_unique<char[]>(b.size);
      }
      used_ = 0;
    }
    char* p = blocks_[block_].data.get() + used_;
    used_ += n;
    return p;
  }
  std::string_view store(std::string_view s) {
    if (s.empty()) return {};
    char* p = allocate(s.size());
    std::memcpy(p, s.data(), s.size());
    return {p, s.size()};
  }

 private:
  static constexpr std::size_t default_block_size = 4096;
  struct block {
    std::unique_ptr<char[]> data;
    std::size_t size = 0;
  };
  std::vector<block> blocks_;
  std::size_t block_ = 0;
  std::size_t used_ = 0;
};

// The names of leaf elements with static names (checked xml::ncname) as their tags spell
// them, "p:local>", made once per (prefix, name) and then appended with fixed-width copies
// instead of being assembled from prefix, colon and name each time (the Glaze way; measured:
// ~350 instructions less per CXF item; for the start and end tags of complex elements the
// lookup cost as much as it saved, so they are assembled). The bytes depend on nothing but the
// prefix text and the name, so an entry never goes stale: it stays valid across siblings,
// rebindings and documents. Open addressing, emptied when half full (a document with that
// many distinct leaf names pays the assembly again); allocated on first use and kept across
// reset().
class tag_cache {
 public:
  // A fixed-width copy of max_name bytes appends a name, so the output needs max_name + 2
  // bytes of room for a tag ("<" or "</" before it).
  static constexpr std::size_t max_name = 40;
  static constexpr std::size_t max_tag = max_name + 2;
  // Prefixes of up to 7 bytes are packed into the key (their length in the top byte);
  // longer ones are not cached.
  static constexpr std::uint64_t uncacheable = ~std::uint64_t{0};

  struct entry {                  // one cache line
    const char* local = nullptr;  // the static name's own bytes: its address identifies it
    std::uint64_t prefix_key = uncacheable;
    std::uint32_t local_size = 0;
    std::uint32_t size = 0;  // of name
    char name[max_name];     // "p:local>" (no "p:" for the empty prefix)
  };

  static std::uint64_t key_of(std::string_view prefix) noexcept {
    if (prefix.empty()) return 0;
    if (prefix.size() > 7) return uncacheable;
    std::uint64_t bytes = 0;
    std::memcpy(&bytes, prefix.data(), prefix.size());
    return (std::uint64_t{prefix.size()} << 56) | bytes;
  }

  // The entry of `local` (static) under `prefix` (whose key is prefix_key), or nullptr when
  // its name is too long to cache.
  [[gnu::always_inline]] const entry* find(std::uint64_t prefix_key, std::string_view prefix,
                                           std::string_view local) {
    if (entries_ != nullptr) {
      for (std::size_t i = slot_of(prefix_key, local);; i = (i + 1) % slots) {
        const entry& e = entries_[i];
        if (e.local == local.data() && e.prefix_key == prefix_key && e.local_size == local.size())
          return &e;
        if (e.local == nullptr) break;
      }
    }
    return add(prefix_key, prefix, local);
  }

  // Writes "<" (or "</" with `close`) and the name at p, which has max_tag bytes of room;
  // returns the tag's length.
  [[gnu::always_inline]] static std::size_t put(char* p, const entry& e, bool close) noexcept {
    p[0] = '<';
    p[1] = '/';
    p += close ? 2 : 1;
    std::memcpy(p, e.name, 32);
    if (e.size > 32) std::memcpy(p + 32, e.name + 32, max_name - 32);
    return e.size + (close ? 2 : 1);
  }

 private:
  static constexpr std::size_t slots = 128;
  static std::size_t slot_of(std::uint64_t prefix_key, std::string_view local) noexcept {
    std::uint64_t h = (reinterpret_cast<std::uintptr_t>(local.data()) + local.size()) ^
                      (prefix_key * 0x9e3779b97f4a7c15u);
    h *= 0xbf58476d1ce4e5b9u;
    return static_cast<std::size_t>(h >> 57);  // 128 slots
  }
  [[gnu::noinline]] const entry* add(std::uint64_t prefix_key, std::string_view prefix,
                                     std::string_view local) {
    const std::size_t colon = prefix.empty() ? 0 : 1;
    if (prefix_key == uncacheable || prefix.size() + colon + local.size() + 1 > max_name)
      return nullptr;
    if (entries_ == nullptr) entries_ = std::make_unique<entry[]>(slots);
    if (count_ == slots / 2) {
      for (std::size_t i = 0; i < slots; ++i) entries_[i] = entry{};
      count_ = 0;
    }
    std::size_t i = slot_of(prefix_key, local);
    while (entries_[i].local != nullptr) i = (i + 1) % slots;
    entry& e = entries_[i];
    char* p = e.name;
    std::memset(p, 0, max_name);
    if (colon != 0) {  // an empty prefix may have no data() at all: memcpy must not see it
      std::memcpy(p, prefix.data(), prefix.size());
      p += prefix.size();
      *p++ = ':';
    }
    std::memcpy(p, local.data(), local.size());
    p += local.size();
    *p++ = '>';
    e.size = static_cast<std::uint32_t>(p - e.name);
    e.local = local.data();
    e.local_size = static_cast<std::uint32_t>(local.size());
    e.prefix_key = prefix_key;
    ++count_;
    return &e;
  }
  std::unique_ptr<entry[]> entries_;
  std::size_t count_ = 0;
};

}  // namespace
}  // namespace lather::xml
