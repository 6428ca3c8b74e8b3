// Replaces the global operator new/delete of the test binary to count allocations. Kept in
// its own translation unit so callers never see malloc and free paired with new and delete.
#include "alloc_counter.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};
}  // namespace

namespace lather::bind::test {
void count_allocations(bool on) {
  counting.store(on);
}
long allocation_count() {
  return allocations.load();
}
void reset_allocation_count() {
  allocations.store(0);
}
}  // namespace lather::bind::test

void* operator new(std::size_t n) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
