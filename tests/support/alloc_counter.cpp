// The test binary's global operator new and delete (see alloc_counter.hpp): malloc and free,
// counted. In a translation unit of their own so no caller inlines them: GCC would otherwise see
// free() paired with a `new` expression and warn (-Wmismatched-new-delete), and the forms are
// replaced as matching pairs so that no pointer from one allocator reaches the other's delete.
#include "alloc_counter.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<std::uint64_t> process_count{0};
thread_local std::uint64_t thread_count = 0;

void* counted_malloc(std::size_t n) noexcept {
  process_count.fetch_add(1, std::memory_order_relaxed);
  ++thread_count;
  return std::malloc(n == 0 ? 1 : n);
}
void* counted_new(std::size_t n) {
  if (void* p = counted_malloc(n)) return p;
  throw std::bad_alloc{};
}
}  // namespace

namespace lather::test {
std::uint64_t allocations() {
  return process_count.load(std::memory_order_relaxed);
}
std::uint64_t thread_allocations() {
  return thread_count;
}
}  // namespace lather::test

void* operator new(std::size_t n) {
  return counted_new(n);
}
void* operator new[](std::size_t n) {
  return counted_new(n);
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  return counted_malloc(n);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return counted_malloc(n);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
