// Counts heap allocations of the whole benchmark binary at the malloc level: gSOAP allocates
// with malloc (soap_malloc), lather and the C++ runtime through operator new, which calls
// malloc. glibc's __libc_* entry points do the real work.
#include "alloc_hook.hpp"

#include <atomic>
#include <cstddef>

extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void __libc_free(void*);
}

namespace {
std::atomic<long> count{0};
}

long lather::bench::allocations() noexcept {
  return count.load(std::memory_order_relaxed);
}

extern "C" {
void* malloc(std::size_t n) {
  count.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(n);
}
void* calloc(std::size_t n, std::size_t size) {
  count.fetch_add(1, std::memory_order_relaxed);
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t n) {
  count.fetch_add(1, std::memory_order_relaxed);
  return __libc_realloc(p, n);
}
void free(void* p) {
  __libc_free(p);
}
}
