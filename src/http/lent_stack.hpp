// Stacks lent per call (internal to lather_http).
//
// Many connections served one call at a time by one thread each have their own stack (a server
// connection's coroutine, a client fiber); a call's deep frames (parsing, the binding, the XML
// reader and writer) then land on a stack last touched hundreds of calls earlier, one cold
// cache line per frame. Running that part of a call on a stack lent from a small LIFO pool of
// the thread puts every call's deep frames on the same warm stack; only a call that suspends in
// that part holds a stack of its own meanwhile.
#pragma once

#include <atomic>
#include <boost/context/fiber.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <new>
#include <utility>
#include <vector>

#include "lather/detail/asan_fiber.hpp"

namespace lather::http::detail {

/// Tells AddressSanitizer about the switches to and from a lent stack (asan_fiber.hpp says
/// why). No code outside ASan builds.
struct asan_fiber_switch {
  void* fake_stack = nullptr;
  lather::detail::stack_bounds caller;

  /// On the caller's stack, before switching to `lent`, which no frame uses: also clears what
  /// an unannotated switch may have left there.
  void enter(lather::detail::stack_bounds lent) {
    lather::detail::asan_unpoison(lent);
    lather::detail::asan_start_switch(&fake_stack, lent);
  }
  /// First thing on the lent stack.
  void entered() { caller = lather::detail::asan_finish_switch(nullptr); }
  /// Last thing on the lent stack, whose frames end here.
  void leave() { lather::detail::asan_start_switch(nullptr, caller); }
  /// Back on the caller's stack.
  void left() { lather::detail::asan_finish_switch(fake_stack); }
};

/// One thread's spare stacks (LIFO), guard-paged, `stack_size` bytes reserved each (only touched
/// pages are committed). Touched by its thread only; `made` may be read from anywhere.
struct stack_pool {
  std::size_t stack_size = 256 * 1024;
  const std::size_t* keep = nullptr;  // spare stacks kept when one comes back (null: none)
  std::vector<boost::context::stack_context> spare;
  std::atomic<std::uint64_t> made{0};  // in the pool or lent out

  stack_pool() = default;
  stack_pool(const stack_pool&) = delete;
  stack_pool& operator=(const stack_pool&) = delete;
  ~stack_pool() { trim(0); }

  boost::context::stack_context take() {
    if (spare.empty()) {
      made.store(made.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
      return boost::context::protected_fixedsize_stack(stack_size).allocate();
    }
    auto s = spare.back();
    spare.pop_back();
    return s;
  }
  void give_back(boost::context::stack_context s) noexcept {  // a fiber's deallocate: noexcept
    try {
      spare.push_back(s);
    } catch (const std::bad_alloc&) {  // no room in the pool: free the stack instead
      boost::context::protected_fixedsize_stack(stack_size).deallocate(s);
      made.store(made.load(std::memory_order_relaxed) - 1, std::memory_order_relaxed);
      return;
    }
    trim(keep ? *keep : 0);
  }
  /// Frees spare stacks beyond `n`.
  void trim(std::size_t n) {
    while (spare.size() > n) {
      boost::context::protected_fixedsize_stack(stack_size).deallocate(spare.back());
      spare.pop_back();
      made.store(made.load(std::memory_order_relaxed) - 1, std::memory_order_relaxed);
    }
  }
};

/// Runs `fn` on a stack lent by `pool` and returns when it has returned. Suspending inside `fn`
/// (a coroutine's or fiber's switch away) keeps the stack until `fn` returns; an exception
/// (including a coroutine's forced unwind) is carried back and rethrown on the caller's stack.
template <class Fn>
void run_on_lent_stack(stack_pool& pool, Fn&& fn) {
  namespace bctx = boost::context;
  struct lender {  // Boost.Context's stack allocator interface; the stack comes preallocated
    stack_pool* pool;
    bctx::stack_context allocate() { return pool->take(); }
    void deallocate(bctx::stack_context& s) noexcept { pool->give_back(s); }
  };
  std::exception_ptr failure;
  const bctx::stack_context s = pool.take();
  asan_fiber_switch asan;
  bctx::fiber call{std::allocator_arg, bctx::preallocated(s.sp, s.size, s), lender{&pool},
                   [&](bctx::fiber&& back) {
                     asan.entered();
                     try {
                       fn();
                     } catch (...) {
                       failure = std::current_exception();
                     }
                     asan.leave();
                     return std::move(back);
                   }};
  asan.enter({static_cast<char*>(s.sp) - s.size, s.size});
  std::move(call).resume();  // back here once fn returned; the stack is in the pool again
  asan.left();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace lather::http::detail
