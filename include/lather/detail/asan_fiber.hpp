#pragma once

// Support header below every layer: tells AddressSanitizer about a switch between stacks
// (Boost.Context fibers, the HTTP layer's lent stacks; google/sanitizers#189). Unannotated,
// ASan takes the thread's own stack for the current one: an exception thrown on another stack
// cannot unpoison the frames it unwinds, and their stale redzones make later frames at the same
// addresses report false overflows. Compiles to nothing outside ASan builds.

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define LATHER_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LATHER_ASAN_FIBERS 1
#endif
#endif
#ifdef LATHER_ASAN_FIBERS
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace lather::detail {

/// A stack as ASan knows it: its lowest address and its size.
struct stack_bounds {
  const void* bottom = nullptr;
  std::size_t size = 0;
};

#ifdef LATHER_ASAN_FIBERS
/// Just before switching to `to`. `fake_stack` keeps the current stack's fake frames until the
/// switch back (pass nullptr when the current stack's frames end with this switch).
inline void asan_start_switch(void** fake_stack, stack_bounds to) noexcept {
  __sanitizer_start_switch_fiber(fake_stack, to.bottom, to.size);
}
/// First thing after a switch, with what asan_start_switch saved when this stack was left
/// (nullptr on a stack's first entry). Returns the stack switched from.
inline stack_bounds asan_finish_switch(void* fake_stack) noexcept {
  stack_bounds from;
  __sanitizer_finish_switch_fiber(fake_stack, &from.bottom, &from.size);
  return from;
}
/// Clears what an unannotated switch may have left poisoned on a stack no frame uses.
inline void asan_unpoison(const stack_bounds& s) noexcept {
  __asan_unpoison_memory_region(s.bottom, s.size);
}
#else
inline void asan_start_switch(void**, stack_bounds) noexcept {}
inline stack_bounds asan_finish_switch(void*) noexcept {
  return {};
}
inline void asan_unpoison(const stack_bounds&) noexcept {}
#endif

}  // namespace lather::detail
