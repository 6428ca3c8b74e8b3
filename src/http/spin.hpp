// Bounded, adaptive spinning before a thread sleeps (internal to lather_http).
//
// With one call in flight, a thread that blocks for the next message lets its CPU go idle; on a
// virtual machine whose idle vCPUs halt, waking it costs tens of microseconds (an IPI to a halted
// vCPU through the host), paid on every round trip. Polling for the message a little while
// before blocking avoids that wake-up when the answer comes soon. The budget adapts the way
// KVM's and cpuidle-haltpoll's halt polling do: a wait that ended within the configured maximum
// means a spin that long would have caught it, so the budget grows; a longer wait means spinning
// is wasted on this traffic, so it shrinks, down to 0 (block at once, nothing spent). Between
// polls the thread yields the CPU, and it stops early when a yield took long (another thread
// wanted this CPU): spinning only ever uses a CPU nobody else is waiting for.
#pragma once

#include <sched.h>

#include <algorithm>
#include <chrono>

namespace lather::http::detail {

using spin_clock = std::chrono::steady_clock;

/// The current spin budget of one waiter (a server worker, a client connection). Not shared.
class spin_budget {
 public:
  explicit spin_budget(std::chrono::microseconds max) : max_(max) {}
  /// How long to poll before blocking now (0: block at once).
  spin_clock::duration current() const { return current_; }
  /// The waiter blocked (after a spin that gave up, or without one); the whole wait, spin
  /// included, took `total`.
  void waited(spin_clock::duration total) {
    if (total <= max_)  // a longer spin would have caught it
      current_ = std::min<spin_clock::duration>(max_, std::max(current_ * 2, start()));
    else if (current_ > start())
      current_ /= 2;
    else
      current_ = {};
  }
  /// Another thread wanted the CPU during the spin: stop spinning until waits are short again.
  void contended() { current_ = {}; }

 private:
  spin_clock::duration start() const { return max_ / 4; }
  spin_clock::duration max_;
  spin_clock::duration current_{};  // learned from the first waits
};

enum class spin_outcome { found, gave_up, contended };

/// A sched_yield that returns later than this ran another thread on this CPU.
inline constexpr std::chrono::microseconds contended_yield{20};

/// Poll `ready()` (true = work found) until it succeeds or `budget` has passed, yielding the
/// CPU before each poll (the caller has just polled once). A yield costs ~1 us when nothing
/// else is runnable here.
template <class Ready>
spin_outcome spin_for(spin_clock::duration budget, Ready&& ready) {
  const auto until = spin_clock::now() + budget;
  for (;;) {
    const auto before = spin_clock::now();
    if (before >= until) return spin_outcome::gave_up;
    ::sched_yield();
    const auto after = spin_clock::now();
    if (ready()) return spin_outcome::found;
    if (after - before > contended_yield) return spin_outcome::contended;
  }
}

}  // namespace lather::http::detail
