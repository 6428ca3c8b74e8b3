// Bounded, adaptive spinning before a thread sleeps (internal to lather_http).
//
// With one call in flight, a thread that blocks for the next message lets its CPU go idle; on a
// virtual machine whose idle vCPUs halt, waking it costs tens of microseconds (an IPI to a halted
// vCPU through the host), paid on every round trip. Polling for the message a little while
// before blocking avoids that wake-up when the answer comes soon. The budget adapts the way
// KVM's and cpuidle-haltpoll's halt polling do: a wait that ended within the configured maximum
// means a spin that long would have caught it, so the budget grows; a longer wait means spinning
// is wasted on this traffic, so it shrinks, down to 0 (block at once, nothing spent). Spinning
// only ever uses a CPU nobody else is waiting for: it starts and goes on only while the machine
// has no more runnable threads than CPUs (/proc/loadavg), the thread yields the CPU between
// polls, and it stops at once when a yield took long (another thread wanted this CPU).
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

enum class spin_outcome {
  found,         // ready() succeeded
  gave_up,       // the budget ran out
  contended,     // stopped early: another thread wanted the CPU
  machine_busy,  // not started: threads were waiting for CPUs
};

/// A sched_yield that returns later than this ran another thread on this CPU.
inline constexpr std::chrono::microseconds contended_yield{20};

/// Whether no runnable thread on the machine waits for a CPU: the running count of
/// /proc/loadavg (this spinning thread included) is at most the number of online CPUs. Re-read
/// at most once per millisecond per process (a pread, ~4 us); true when it cannot be read.
bool machine_has_idle_cpu(spin_clock::time_point now);
/// Tests replace the probe (the machines tests run on are busy); nullptr restores it.
void set_idle_cpu_probe(bool (*probe)());

/// Poll `ready()` (true = work found) until it succeeds or `budget` has passed, yielding the
/// CPU before each poll (the caller has just polled once). A yield costs ~1 us when nothing
/// else is runnable here. Does not start, or stops (contended), once the machine is busy.
template <class Ready>
spin_outcome spin_for(spin_clock::duration budget, Ready&& ready) {
  const auto start = spin_clock::now();
  if (!machine_has_idle_cpu(start)) return spin_outcome::machine_busy;
  const auto until = start + budget;
  for (;;) {
    const auto before = spin_clock::now();
    if (before >= until) return spin_outcome::gave_up;
    if (!machine_has_idle_cpu(before)) return spin_outcome::contended;
    ::sched_yield();
    const auto after = spin_clock::now();
    if (ready()) return spin_outcome::found;
    if (after - before > contended_yield) return spin_outcome::contended;
  }
}

}  // namespace lather::http::detail
