// OpenSSL's allocations through per-thread free lists by size class (openssl_cache.hpp).
#include "lather/wsse/openssl_cache.hpp"

#include <openssl/crypto.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <cstring>

namespace lather::wsse {

namespace {

// Each block: a 16-byte header (keeps malloc's alignment) before what OpenSSL gets.
struct alignas(16) header {
  std::uint32_t size_class;  ///< 0..classes-1, or large
  std::uint32_t unused;
  std::size_t size;  ///< a large block's usable size
};
static_assert(sizeof(header) == 16);

// 16 B << class: 16 B .. 16 KiB (a 2048-bit CRT exponentiation's table is just over 4 KiB).
constexpr std::uint32_t classes = 11;
constexpr std::uint32_t large = classes;
constexpr std::size_t largest = std::size_t{16} << (classes - 1);
// Blocks a thread keeps per class: ~280 KiB per thread at most, headers included.
constexpr std::uint16_t kept[classes] = {64, 64, 64, 64, 64, 32, 32, 16, 16, 4, 4};

constexpr std::size_t capacity(std::uint32_t c) {
  return std::size_t{16} << c;
}

std::uint32_t class_of(std::size_t n) {
  std::uint32_t c = 0;
  while (capacity(c) < n) ++c;
  return c;
}

header* header_of(void* p) {
  return static_cast<header*>(p) - 1;
}

struct free_block {
  free_block* next;
};

// Trivially destructible and constant-initialized, so it can be used while the thread exits,
// after `drain` has emptied it (OpenSSL frees its per-thread state after the C++ thread_local
// destructors have run): `dead` then sends every block to free().
struct thread_cache {
  free_block* head[classes];
  std::uint16_t count[classes];
  bool registered;
  bool dead;
  std::uint64_t requests;
};
constinit thread_local thread_cache cache{};

struct drain {
  void arm() noexcept {}
  ~drain() {
    for (std::uint32_t c = 0; c < classes; ++c)
      while (free_block* b = cache.head[c]) {
        cache.head[c] = b->next;
        std::free(header_of(b));
      }
    cache.dead = true;
  }
};
thread_local drain drainer;

std::atomic<std::uint64_t> system_allocations{0};
std::atomic<bool> installed{false};

// The list is emptied when the thread exits.
void arm() {
  if (cache.registered) return;
  cache.registered = true;
  drainer.arm();
}

void* system_block(std::uint32_t size_class, std::size_t usable) {
  system_allocations.fetch_add(1, std::memory_order_relaxed);
  auto* h = static_cast<header*>(std::malloc(sizeof(header) + usable));
  if (!h) return nullptr;
  h->size_class = size_class;
  h->size = usable;
  return h + 1;
}

void* cache_malloc(std::size_t n, const char*, int) {
  ++cache.requests;
  if (n > largest || cache.dead) return system_block(large, n);
  const std::uint32_t c = class_of(n);
  if (free_block* b = cache.head[c]) {
    cache.head[c] = b->next;
    --cache.count[c];
    return b;
  }
  arm();
  return system_block(c, capacity(c));
}

void cache_free(void* p, const char*, int) {
  if (!p) return;
  header* h = header_of(p);
  const std::uint32_t c = h->size_class;
  if (c == large || cache.dead || cache.count[c] >= kept[c]) {
    std::free(h);
    return;
  }
  arm();
  auto* b = static_cast<free_block*>(p);
  b->next = cache.head[c];
  cache.head[c] = b;
  ++cache.count[c];
}

void* cache_realloc(void* p, std::size_t n, const char* file, int line) {
  if (!p) return cache_malloc(n, file, line);
  if (n == 0) {
    cache_free(p, file, line);
    return nullptr;
  }
  header* h = header_of(p);
  if (h->size_class == large) {
    ++cache.requests;
    system_allocations.fetch_add(1, std::memory_order_relaxed);
    auto* grown = static_cast<header*>(std::realloc(h, sizeof(header) + n));
    if (!grown) return nullptr;
    grown->size = n;
    return grown + 1;
  }
  const std::size_t have = capacity(h->size_class);
  if (n <= have) {
    ++cache.requests;
    return p;
  }
  void* q = cache_malloc(n, file, line);
  if (!q) return nullptr;
  std::memcpy(q, p, have);
  cache_free(p, file, line);
  return q;
}

}  // namespace

bool install_openssl_cache() noexcept {
  if (installed.load()) return true;
  if (CRYPTO_set_mem_functions(cache_malloc, cache_realloc, cache_free) != 1) return false;
  installed.store(true);
  return true;
}

bool openssl_cache_installed() noexcept {
  return installed.load();
}

std::uint64_t openssl_cache_system_allocations() noexcept {
  return system_allocations.load(std::memory_order_relaxed);
}

std::uint64_t openssl_cache_thread_requests() noexcept {
  return cache.requests;
}

}  // namespace lather::wsse
