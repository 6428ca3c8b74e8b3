// The test binary's global operator new and delete (see failing_new.hpp). In a translation unit
// of their own so that no caller inlines them (GCC would see free() paired with a `new`
// expression and warn, as tests/support/alloc_counter.cpp explains).
#include "failing_new.hpp"

#include <execinfo.h>

#include <atomic>
#include <cstdlib>
#include <new>

namespace {

std::atomic<long> live{0};
std::atomic<long> countdown{0};  // > 0: allocations to the failing one; 0: disarmed
std::atomic<long> injected{0};
thread_local bool exempt = false;

void* allocate(std::size_t n) {
  if (!exempt && countdown.load(std::memory_order_relaxed) > 0 &&
      countdown.fetch_sub(1, std::memory_order_relaxed) == 1) {
    injected.fetch_add(1, std::memory_order_relaxed);
    if (std::getenv("LATHER_FAULT_TRACE")) {
      void* frames[40];
      backtrace_symbols_fd(frames, backtrace(frames, 40), 2);
    }
    throw std::bad_alloc();
  }
  void* p = std::malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  live.fetch_add(1, std::memory_order_relaxed);
  return p;
}

void release(void* p) noexcept {
  if (!p) return;
  live.fetch_sub(1, std::memory_order_relaxed);
  std::free(p);
}

}  // namespace

namespace lather_test {
void fail_allocation(long n) {
  countdown.store(n);
}
void exempt_this_thread() {
  exempt = true;
}
long failures_injected() {
  return injected.load();
}
long live_allocations() {
  return live.load();
}
}  // namespace lather_test

void* operator new(std::size_t n) {
  return allocate(n);
}
void* operator new[](std::size_t n) {
  return allocate(n);
}
// The nothrow forms too: otherwise they would be the sanitizer's (or libstdc++'s) and their
// memory would reach this file's free() (ASan: alloc-dealloc-mismatch), or a nothrow new
// could never be made to fail.
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return allocate(n);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return allocate(n);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept {
  release(p);
}
void operator delete[](void* p) noexcept {
  release(p);
}
void operator delete(void* p, std::size_t) noexcept {
  release(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  release(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  release(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  release(p);
}
