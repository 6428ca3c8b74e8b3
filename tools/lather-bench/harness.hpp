// lather-bench's measuring harness: CXF's timing rules (TestCaseBase/TestRunner/TestResult of
// apache/cxf samples/performance), independent of what a call does.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace lather::bench {

/// One client thread's way to make calls; made per thread (one connection per thread, as in
/// CXF, where each TestRunner builds its own port/proxy).
class caller {
 public:
  virtual ~caller() = default;
  /// One invocation with this id. Throws std::exception with a one-line message on any error
  /// (transport failure, SOAP fault, wrong id or payload echoed).
  virtual void call(std::int32_t id) = 0;
  /// Verifies what the calls since the last check() echoed, where a caller defers that
  /// (a split's caller: run_splits calls it after each window, outside the window's time).
  /// Throws like call().
  virtual void check() {}
};
using caller_factory = std::function<std::unique_ptr<caller>()>;
/// Makes the caller of one split of the Axis table: its `calls` consecutive calls send `items`
/// distinct items between them, items / calls each (call k the k-th slice, then round again),
/// and it keeps every response until check(), as a program sending its N records in C calls
/// keeps what came back. Each split so holds and moves the same data; only the number of calls
/// differs. (Sending one request of items / C items C times and decoding each answer into one
/// response would let the splits of many calls work in an L2-sized set of objects while one
/// call of 1000 items, ~1.6 MB each way, works in L3: a cache effect of the harness, not a cost
/// of the call.)
using split_caller_factory = std::function<std::unique_ptr<caller>(unsigned items, unsigned calls)>;

struct run_options {
  std::string operation = "echoComplexTypeDoc";
  std::vector<unsigned> thread_counts{1};
  double seconds = 0;         ///< time mode when > 0
  std::uint64_t count = 0;    ///< count mode (calls per thread) when seconds == 0
  double warmup_seconds = 5;  ///< global warm-up (CXF: 30 s and 1200 calls per thread)
  std::uint64_t warmup_min_calls = 0;
  unsigned guard_calls = 25;  ///< untimed calls before and after each thread's timed window
  /// Count mode: each client times this many consecutive windows of `count` calls on its warm
  /// connection, each listed (--windows). With run_splits: the number of interleaved cycles.
  unsigned windows = 1;
  /// 0: one OS thread per client (CXF's model). N: the clients run as fibers on N threads
  /// (multiplex.hpp); the callers must then wait through bench::wait_socket.
  unsigned client_threads = 0;
  bool progress = false;  ///< live progress line on stderr
  bool json = false;
};

/// Latency histogram with fixed log-linear buckets: no allocation while recording.
class latency_histogram {
 public:
  void record(std::uint64_t ns);
  void merge(const latency_histogram& other);
  std::uint64_t count() const { return count_; }
  std::uint64_t max() const { return max_; }
  double mean_ns() const { return count_ ? double(sum_) / double(count_) : 0; }
  std::uint64_t percentile(double p) const;  ///< upper bound of the bucket holding p

 private:
  static constexpr int sub_buckets = 64;  // per power of two: <1.6% relative error
  static constexpr int octaves = 40;
  std::uint64_t buckets_[octaves * sub_buckets] = {};
  std::uint64_t count_ = 0, sum_ = 0, max_ = 0;
};

/// What the client threads spent in their timed windows (per-thread scheduler and getrusage
/// deltas), companions of the wall-clock figures that say where a slow window went. Measured
/// in the thread-per-client model only (fibers share their thread).
struct window_usage {
  double cpu_s = 0;                  ///< on a CPU (user + system)
  double runqueue_s = 0;             ///< runnable but waiting for a CPU (other load on the box)
  std::uint64_t minor_faults = 0;    ///< page faults (first touch of memory)
  std::uint64_t voluntary_cs = 0;    ///< context switches waiting for the server
  std::uint64_t involuntary_cs = 0;  ///< preemptions (other load on the box)
  window_usage& operator+=(const window_usage& o);
};

struct thread_result {
  std::uint64_t invocations = 0;
  double duration_s = 0;  ///< timed window
  window_usage usage;
  std::uint64_t errors = 0;
  latency_histogram latency;  ///< empty for fibers (run_options::client_threads): per thread
  std::vector<std::string> error_samples;  ///< first few error messages
  std::vector<double> window_s;            ///< each consecutive window (run_options::windows)
};

struct run_result {
  unsigned threads = 0;
  std::vector<thread_result> per_thread;
  // CXF's figures (see the README of bench/ and cxf-perf): Overall = per-thread rate.
  double overall_throughput = 0;  ///< sum(invocations) / sum(durations)
  double overall_avg_ms = 0;      ///< sum(durations) / sum(invocations) * 1000
  std::uint64_t invocations = 0;
  double running_s = 0;     ///< sum of durations
  double total_tps = 0;     ///< sum of per-thread throughputs (aggregate)
  double total_avg_ms = 0;  ///< mean of per-thread mean latency
  std::uint64_t errors = 0;
  latency_histogram latency;
  window_usage usage;  ///< summed over the client threads
  /// Each consecutive window (run_options::windows): its duration, mean over the threads.
  std::vector<double> window_ms;
};

/// The Axis table in one client process (compare.sh section 5): `items` sent as C calls of
/// items / C each, for every C of `calls`. Every split has its own warm connection, and the
/// splits' windows are interleaved: each cycle times one window (C calls) of every split, in
/// order and then in reverse in the next cycle, so whatever drifts on the machine (the other
/// load, where the host runs the two vCPUs) hits every split alike within a fraction of a
/// second. Windows timed split after split drift together by up to 3x.
struct split_options {
  unsigned items = 1000;
  std::vector<unsigned> calls;  ///< each must divide items
};

struct split_result {
  unsigned calls = 0;             ///< per window
  unsigned packet_size = 0;       ///< items per call
  std::vector<double> window_ms;  ///< one per cycle, in cycle order
  window_usage usage;             ///< the client thread's, summed over the windows
};

struct splits_result {
  std::vector<split_result> splits;
  std::uint64_t errors = 0;
  std::vector<std::string> error_samples;
};

/// One client thread: `opts.guard_calls` untimed calls per split, untimed cycles for
/// `opts.warmup_seconds`, then `opts.windows` timed cycles. Errors are counted, not thrown,
/// except when a caller cannot be made.
splits_result run_splits(const run_options& opts, const split_options& split,
                         const split_caller_factory& make);
void print_splits(const run_options& opts, const split_options& split, const splits_result& r);

/// Runs the global warm-up once, then one timed run per thread count; prints CXF's result
/// block per run (or JSON lines). Returns the results; errors are counted, not thrown, except
/// when not a single call of the warm-up succeeded (then the first error is thrown).
std::vector<run_result> run_benchmark(const run_options& opts, const caller_factory& make);

void print_result(const run_options& opts, const run_result& r);

}  // namespace lather::bench
