// Many clients on few threads (lather-bench --client-threads): each client runs on a fiber
// (Boost.Context) of a per-thread epoll loop, and lather's HTTP client, given wait_socket() as
// its client_options::wait_socket hook, suspends the fiber instead of blocking the thread when
// its socket is not ready. With 1024 clients on 2 cores this replaces 1024 sleeping threads
// (a scheduler wake-up and context switch per call) by one epoll_wait per batch of ready
// sockets; each client still has its own connection and one call in flight.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>

namespace lather::bench {

class fiber_loop {
 public:
  fiber_loop();
  ~fiber_loop();
  fiber_loop(const fiber_loop&) = delete;
  fiber_loop& operator=(const fiber_loop&) = delete;

  /// Adds a fiber; it first runs inside run(). `body` must not throw.
  void spawn(std::function<void()> body);
  /// Runs the fibers on the calling thread until every one has returned.
  void run();
  /// On a fiber of a running loop: suspend until `flag` is true (checked by the loop at least
  /// every millisecond while some fiber waits for a flag).
  static void wait_for(const std::atomic<bool>& flag);

  struct impl;

 private:
  std::unique_ptr<impl> impl_;
};

/// The wait_socket hook (see lather::http::client_options): on a fiber, suspend it until `fd`
/// is readable (or writable) or the deadline passes; on any other thread, poll(2). Returns
/// false when the deadline passed first.
bool wait_socket(int fd, bool writable, std::chrono::steady_clock::time_point deadline);

}  // namespace lather::bench
