#include "multiplex.hpp"

#include <poll.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <boost/context/fiber.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>
#include <cerrno>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "lather/detail/asan_fiber.hpp"

namespace lather::bench {
namespace {

namespace ctx = boost::context;
using clock = std::chrono::steady_clock;

// Deep enough for a call of any PacketSize (the binding recurses by type nesting, not items),
// as the server's coroutines; only the touched pages are committed.
constexpr std::size_t fiber_stack = 256 * 1024;

enum class fiber_state { runnable, socket_wait, flag_wait, finished };

// What a wake-up and a wait touch comes first, in one cache line of its own: with 512 fibers per
// thread, each task is touched once per round, ~500 calls after its last use.
struct alignas(64) fiber_task {
  ctx::fiber self;       // the fiber while suspended
  ctx::fiber scheduler;  // inside the fiber: the loop to switch back to
  fiber_state state = fiber_state::runnable;
  // socket_wait
  int registered_fd = -1;  // the descriptor this task's epoll registration is for
  bool writable = false, timed_out = false;
  // Readiness epoll reported for registered_fd while the task did not wait for it (it ran, or
  // waited for the other direction or a flag): the edge is gone, so a later wait must see it.
  std::uint32_t missed = 0;
  clock::time_point deadline{};
  // flag_wait
  const std::atomic<bool>* flag = nullptr;
  // While suspended: where the fiber's frames begin (the suspending frame) and end (its entry
  // frame). See prefetch_frames.
  std::uintptr_t frames_begin = 0, frames_end = 0;
  std::function<void()> body;  // run once, at the start: after the 64 bytes above
  // AddressSanitizer's view of the switches (asan_fiber.hpp; no code outside ASan builds): the
  // stack the fiber last suspended on (its own, or one lather's client lent it), the thread's
  // stack it returns to, and the fake frames each side keeps meanwhile.
  detail::stack_bounds suspended_on, loop_stack;
  void* fiber_fake_stack = nullptr;
  void* loop_fake_stack = nullptr;
};

// Resuming a fiber returns through the frames of its call stack (2.2 KiB while a call waits
// for its response: the harness, the service client, the HTTP client's receive), which with
// 512 fibers per thread were last touched ~500 calls earlier and are cold, one miss after
// another. The loop asks for the next runnable fiber's frames while the current one runs.
void prefetch_frames(const fiber_task& t) {
  // Not started yet; or suspended deeper than a call's wait for its response, or on a stack
  // lent to the call's deep part (lather's client writes a request and decodes a response
  // there, and may wait there for the socket): not those frames.
  if (t.frames_begin == 0 || t.frames_end - t.frames_begin > 16 * 1024) return;
  // From below the suspending frame (the switch saves registers there) to just above the
  // entry frame (Boost.Context's record of the fiber sits at the top of its stack).
  for (std::uintptr_t p = t.frames_begin - 512; p < t.frames_end + 512; p += 64)
    __builtin_prefetch(reinterpret_cast<const void*>(p), 1);
}

std::uint32_t wanted_events(const fiber_task& t) {
  return (t.writable ? EPOLLOUT : EPOLLIN | EPOLLRDHUP) | EPOLLERR | EPOLLHUP;
}

thread_local fiber_loop::impl* current_loop = nullptr;
thread_local fiber_task* current_task = nullptr;

}  // namespace

struct fiber_loop::impl {
  int epoll_fd = -1;
  std::vector<std::unique_ptr<fiber_task>> tasks;
  std::deque<fiber_task*> runnable;
  std::size_t flag_waiters = 0;

  void resume(fiber_task& t) {
    t.state = fiber_state::runnable;
    current_task = &t;
    detail::asan_start_switch(&t.loop_fake_stack, t.suspended_on);
    t.self = std::move(t.self).resume();
    const detail::stack_bounds left = detail::asan_finish_switch(t.loop_fake_stack);
    if (t.state != fiber_state::finished) t.suspended_on = left;
    current_task = nullptr;
  }
  static void suspend(fiber_task& t) {
    t.frames_begin = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
    detail::asan_start_switch(&t.fiber_fake_stack, t.loop_stack);
    t.scheduler = std::move(t.scheduler).resume();
    t.loop_stack = detail::asan_finish_switch(t.fiber_fake_stack);
  }

  // Descriptors are registered once, edge-triggered for both directions: a wait costs no
  // epoll_ctl. An edge reported while the task was not waiting for it is kept in `missed`:
  // lather's client may wait before it tries a receive (the first one of a response), and a
  // peer's close that came while the task was busy must still end that wait.
  void watch(fiber_task& t, int fd) {
    if (t.registered_fd == fd) return;
    t.missed = 0;
    if (t.registered_fd >= 0) epoll_ctl(epoll_fd, EPOLL_CTL_DEL, t.registered_fd, nullptr);
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
    ev.data.ptr = &t;
    if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &ev) != 0 && errno != EEXIST)
      throw std::system_error(errno, std::generic_category(), "epoll_ctl");
    t.registered_fd = fd;
  }
};

fiber_loop::fiber_loop() : impl_(std::make_unique<impl>()) {
  impl_->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  if (impl_->epoll_fd < 0) throw std::system_error(errno, std::generic_category(), "epoll_create1");
}

fiber_loop::~fiber_loop() {
  close(impl_->epoll_fd);
}

void fiber_loop::spawn(std::function<void()> body) {
  auto task = std::make_unique<fiber_task>();
  fiber_task* t = task.get();
  t->body = std::move(body);
  ctx::protected_fixedsize_stack allocator(fiber_stack);
  const ctx::stack_context stack = allocator.allocate();
  t->suspended_on = {static_cast<char*>(stack.sp) - stack.size, stack.size};
  t->self = ctx::fiber(std::allocator_arg, ctx::preallocated(stack.sp, stack.size, stack),
                       allocator, [t](ctx::fiber&& loop) {
                         t->loop_stack = detail::asan_finish_switch(nullptr);
                         t->frames_end =
                             reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
                         t->scheduler = std::move(loop);
                         t->body();
                         t->state = fiber_state::finished;
                         detail::asan_start_switch(nullptr, t->loop_stack);  // its frames end
                         return std::move(t->scheduler);
                       });
  impl_->runnable.push_back(t);
  impl_->tasks.push_back(std::move(task));
}

void fiber_loop::run() {
  impl& s = *impl_;
  current_loop = &s;
  std::size_t live = s.tasks.size();
  std::array<epoll_event, 256> events;
  auto last_deadline_scan = clock::now();
  while (live > 0) {
    while (!s.runnable.empty()) {
      fiber_task* t = s.runnable.front();
      s.runnable.pop_front();
      // Two ahead, the task's line (prefetch_frames reads it next round); one ahead, its frames.
      if (s.runnable.size() > 1) __builtin_prefetch(s.runnable[1], 1);
      if (!s.runnable.empty()) prefetch_frames(*s.runnable.front());
      s.resume(*t);
      if (t->state == fiber_state::finished) --live;
    }
    if (live == 0) break;
    const bool flag_waiters = s.flag_waiters > 0;
    int n = epoll_wait(s.epoll_fd, events.data(), static_cast<int>(events.size()),
                       flag_waiters ? 1 : 50);
    // Each ready task's line is cold (touched a round of calls ago): ask for all of them first,
    // so their misses overlap instead of coming one after another.
    for (int i = 0; i < n; ++i) __builtin_prefetch(events[i].data.ptr, 1);
    for (int i = 0; i < n; ++i) {
      auto* t = static_cast<fiber_task*>(events[i].data.ptr);
      if (t->state == fiber_state::socket_wait && (events[i].events & wanted_events(*t))) {
        t->state = fiber_state::runnable;
        s.runnable.push_back(t);
      } else {
        t->missed |= events[i].events;
      }
    }
    const auto now = clock::now();
    const bool scan_deadlines = now - last_deadline_scan >= std::chrono::milliseconds(50);
    if (flag_waiters || scan_deadlines) {
      for (const auto& t : s.tasks) {
        if (t->state == fiber_state::flag_wait && t->flag->load(std::memory_order_acquire)) {
          --s.flag_waiters;
          t->state = fiber_state::runnable;
          s.runnable.push_back(t.get());
        } else if (scan_deadlines && t->state == fiber_state::socket_wait && now >= t->deadline) {
          t->timed_out = true;
          t->registered_fd = -1;  // the descriptor may be reused: register it afresh next time
          t->state = fiber_state::runnable;
          s.runnable.push_back(t.get());
        }
      }
      if (scan_deadlines) last_deadline_scan = now;
    }
  }
  current_loop = nullptr;
}

void fiber_loop::wait_for(const std::atomic<bool>& flag) {
  fiber_task* t = current_task;
  if (!t) throw std::logic_error("fiber_loop::wait_for outside a fiber");
  if (flag.load(std::memory_order_acquire)) return;
  t->flag = &flag;
  t->state = fiber_state::flag_wait;
  ++current_loop->flag_waiters;
  impl::suspend(*t);
}

bool wait_socket(int fd, bool writable, clock::time_point deadline) {
  fiber_task* t = current_task;
  if (!t) {  // a plain thread (the warm-up): wait on the descriptor alone
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, static_cast<short>(writable ? POLLOUT : POLLIN), 0};
    int n = poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left.count(), 1 << 30)));
    return n != 0 || clock::now() < deadline;
  }
  if (clock::now() >= deadline) return false;
  current_loop->watch(*t, fd);
  t->writable = writable;
  if (const std::uint32_t ready = t->missed & wanted_events(*t)) {
    t->missed &= ~ready;  // the caller's next attempt finds out whether it still holds
    return true;
  }
  t->timed_out = false;
  t->deadline = deadline;
  t->state = fiber_state::socket_wait;
  fiber_loop::impl::suspend(*t);
  return !t->timed_out;
}

}  // namespace lather::bench
