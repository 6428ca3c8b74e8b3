#include "harness.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "multiplex.hpp"

namespace lather::bench {
namespace {

using clock = std::chrono::steady_clock;

double seconds_between(clock::time_point a, clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// Bucket index: the top bit picks the octave, the next 6 bits the sub-bucket.
int bucket_of(std::uint64_t ns) {
  if (ns < 64) return static_cast<int>(ns);
  int octave = std::bit_width(ns) - 7;  // ns >= 64 -> octave >= 0
  int sub = static_cast<int>(ns >> octave) & 63;
  return std::min((octave + 1) * 64 + sub, 40 * 64 - 1);
}

std::uint64_t bucket_upper(int index) {
  if (index < 64) return static_cast<std::uint64_t>(index);
  int octave = index / 64 - 1;
  std::uint64_t sub = static_cast<std::uint64_t>(index % 64) + 64;
  return ((sub + 1) << octave) - 1;
}

// Counts calls across threads for the progress line; relaxed: it is only displayed. Counted only
// while the line is shown: every call's increment moves the line between the client threads.
struct progress_counter {
  std::atomic<std::uint64_t> calls{0};
  std::atomic<std::uint64_t> errors{0};
};

// This thread's resource usage so far: CPU and run-queue wait from the scheduler's own
// nanosecond accounting (/proc/thread-self/schedstat; rusage's CPU times are tick-sampled),
// page faults and context switches from getrusage(RUSAGE_THREAD).
window_usage thread_usage() {
  window_usage w;
  rusage u{};
  getrusage(RUSAGE_THREAD, &u);
  w.minor_faults = static_cast<std::uint64_t>(u.ru_minflt);
  w.voluntary_cs = static_cast<std::uint64_t>(u.ru_nvcsw);
  w.involuntary_cs = static_cast<std::uint64_t>(u.ru_nivcsw);
  if (std::FILE* f = std::fopen("/proc/thread-self/schedstat", "r")) {
    unsigned long long run_ns = 0, wait_ns = 0;
    if (std::fscanf(f, "%llu %llu", &run_ns, &wait_ns) == 2) {
      w.cpu_s = double(run_ns) * 1e-9;
      w.runqueue_s = double(wait_ns) * 1e-9;
    }
    std::fclose(f);
  }
  return w;
}

window_usage operator-(const window_usage& a, const window_usage& b) {
  return {.cpu_s = a.cpu_s - b.cpu_s,
          .runqueue_s = a.runqueue_s - b.runqueue_s,
          .minor_faults = a.minor_faults - b.minor_faults,
          .voluntary_cs = a.voluntary_cs - b.voluntary_cs,
          .involuntary_cs = a.involuntary_cs - b.involuntary_cs};
}

void note_error(thread_result& r, const char* what) {
  ++r.errors;
  if (r.error_samples.size() < 3) r.error_samples.emplace_back(what);
}

// CXF's global warm-up: a few threads call for at least `seconds` and at least `min_calls`
// each. Stops a thread early when its first calls all fail (dead or wrong server).
std::uint64_t warm_up(const run_options& opts, const caller_factory& make,
                      std::string& first_error) {
  const unsigned threads = 4;
  std::atomic<std::uint64_t> successes{0};
  std::mutex m;
  std::vector<std::thread> pool;
  const auto until = clock::now() + std::chrono::duration_cast<clock::duration>(
                                        std::chrono::duration<double>(opts.warmup_seconds));
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      std::unique_ptr<caller> c;
      std::uint64_t ok = 0, failed = 0;
      try {
        c = make();
      } catch (const std::exception& e) {
        std::lock_guard lock(m);
        if (first_error.empty()) first_error = e.what();
        return;
      }
      for (std::int32_t id = 1; ok < opts.warmup_min_calls || clock::now() < until; ++id) {
        try {
          c->call(id);
          ++ok;
        } catch (const std::exception& e) {
          ++failed;
          std::lock_guard lock(m);
          if (first_error.empty()) first_error = e.what();
          if (ok == 0 && failed >= 3) break;
        }
        if (ok == 0 && failed >= 3) break;
      }
      successes += ok;
    });
  }
  for (auto& th : pool) th.join();
  return successes.load();
}

/// Where a run's clients and its main thread meet: each client says when it is ready for the
/// timed window and when its window has ended; the main thread opens the window once all are
/// ready (with 1024 clients the early starters would otherwise time their calls while most
/// clients are still connecting) and waits until all have ended.
class run_gate {
 public:
  explicit run_gate(unsigned clients) : clients_(clients) {}
  void client_ready() { count(ready_); }
  void client_finished() { count(finished_); }
  /// A client on its own thread: returns once the window is open.
  void wait_window() {
    std::unique_lock lock(m_);
    window_opened_.wait(lock, [&] { return window_open_.load(); });
  }
  /// What a client on a fiber waits for (fiber_loop::wait_for).
  const std::atomic<bool>& window_open() const { return window_open_; }
  /// The main thread: opens the window once every client is ready.
  void open_window() {
    {
      std::unique_lock lock(m_);
      changed_.wait(lock, [&] { return ready_ == clients_; });
      window_open_ = true;
    }
    window_opened_.notify_all();
  }
  /// The main thread: true once every client has finished, false at `until`.
  bool wait_finished_until(clock::time_point until) {
    std::unique_lock lock(m_);
    return changed_.wait_until(lock, until, [&] { return finished_ == clients_; });
  }
  void wait_finished() {
    std::unique_lock lock(m_);
    changed_.wait(lock, [&] { return finished_ == clients_; });
  }

 private:
  void count(unsigned& n) {
    {
      std::lock_guard lock(m_);
      ++n;
    }
    changed_.notify_all();
  }
  const unsigned clients_;
  std::mutex m_;
  std::condition_variable changed_;        // wakes the main thread
  std::condition_variable window_opened_;  // client threads wait here for the window
  unsigned ready_ = 0, finished_ = 0;
  std::atomic<bool> window_open_{false};
};

/// CXF's figures from the clients' own (and, for fibers, their threads' latency histograms).
void summarize(run_result& result, const std::vector<latency_histogram>& thread_latency,
               const run_options& opts, unsigned clients) {
  double sum_avg = 0;
  for (const auto& l : thread_latency) result.latency.merge(l);
  result.window_ms.assign(opts.windows, 0.0);
  for (const auto& r : result.per_thread) {
    for (std::size_t w = 0; w < r.window_s.size() && w < opts.windows; ++w)
      result.window_ms[w] += r.window_s[w] * 1000.0 / clients;
    result.invocations += r.invocations;
    result.running_s += r.duration_s;
    result.errors += r.errors;
    result.latency.merge(r.latency);
    result.usage += r.usage;
    if (r.duration_s > 0) result.total_tps += double(r.invocations) / r.duration_s;
    if (r.invocations > 0) sum_avg += r.duration_s / double(r.invocations);
  }
  if (result.running_s > 0)
    result.overall_throughput = double(result.invocations) / result.running_s;
  if (result.invocations > 0)
    result.overall_avg_ms = result.running_s / double(result.invocations) * 1000.0;
  result.total_avg_ms = sum_avg / clients * 1000.0;
}

run_result timed_run(const run_options& opts, const caller_factory& make, unsigned clients) {
  run_result result;
  result.threads = clients;
  result.per_thread.resize(clients);
  progress_counter progress;
  const bool tty = opts.progress && isatty(STDERR_FILENO);  // the progress line is shown
  std::atomic<bool> done{false};
  run_gate gate{clients};

  // One client's life: connect, guard calls, the timed window, guard calls.
  // `wait_window` returns when every client is ready. `latency` records the timed calls: the
  // client's own histogram, or its thread's when it runs as a fiber (512 clients per thread
  // each recording into their own 20 KiB histogram touched two cold lines per call).
  auto run_client = [&](unsigned t, auto&& wait_window, latency_histogram& latency) {
    thread_result& r = result.per_thread[t];
    std::unique_ptr<caller> c;
    try {
      c = make();
    } catch (const std::exception& e) {
      note_error(r, e.what());
    }
    // Ids are distinct per client so a misrouted response is caught.
    std::int32_t id = static_cast<std::int32_t>(t) << 24;
    auto untimed = [&](unsigned n) {
      for (unsigned i = 0; c && i < n; ++i) {
        try {
          c->call(++id);
        } catch (const std::exception& e) {
          note_error(r, e.what());
        }
      }
    };
    untimed(opts.guard_calls);
    // The timed window opens for every client at once, when the last one has finished its
    // guard calls.
    gate.client_ready();
    wait_window();
    // Per thread only in the thread-per-client model (fibers share their thread's usage).
    const bool own_thread = opts.client_threads == 0;
    const window_usage usage_before = own_thread ? thread_usage() : window_usage{};
    const auto start = clock::now();
    auto last = start;
    auto window_start = start;
    r.window_s.reserve(opts.windows);
    for (std::uint64_t i = 0; c; ++i) {
      if (opts.seconds > 0 ? done.load(std::memory_order_relaxed) : i >= opts.count * opts.windows)
        break;
      try {
        c->call(++id);
        const auto now = clock::now();
        latency.record(static_cast<std::uint64_t>(std::chrono::nanoseconds(now - last).count()));
        last = now;
        ++r.invocations;
        if (tty) progress.calls.fetch_add(1, std::memory_order_relaxed);
      } catch (const std::exception& e) {
        note_error(r, e.what());
        progress.errors.fetch_add(1, std::memory_order_relaxed);
        last = clock::now();
      }
      if (opts.seconds == 0 && (i + 1) % opts.count == 0) {  // a window of --count calls ends
        r.window_s.push_back(seconds_between(window_start, last));
        window_start = last;
      }
    }
    if (opts.seconds > 0) r.window_s.push_back(seconds_between(start, last));
    r.duration_s = seconds_between(start, clock::now());
    if (own_thread) r.usage = thread_usage() - usage_before;
    gate.client_finished();
    // "so other threads get accurate results": keep the load on until everyone is done.
    untimed(opts.guard_calls);
  };

  std::vector<std::thread> pool;
  std::vector<latency_histogram> thread_latency;  // per client thread, in the fiber model
  if (opts.client_threads == 0) {                 // CXF's model: one thread per client
    pool.reserve(clients);
    for (unsigned t = 0; t < clients; ++t)
      pool.emplace_back([&, t] {
        run_client(
            t, [&] { gate.wait_window(); }, result.per_thread[t].latency);
      });
  } else {  // clients t, t + T, t + 2T, ... on fibers of thread t
    const unsigned threads = std::min(opts.client_threads, clients);
    thread_latency.resize(threads);
    pool.reserve(threads);
    for (unsigned k = 0; k < threads; ++k)
      pool.emplace_back([&, k, threads] {  // threads by value: it ends with this block
        fiber_loop loop;
        for (unsigned t = k; t < clients; t += threads)
          loop.spawn([&, t] {
            run_client(
                t, [&] { fiber_loop::wait_for(gate.window_open()); }, thread_latency[k]);
          });
        loop.run();
      });
  }

  gate.open_window();
  const auto start = clock::now();
  const auto deadline = start + std::chrono::duration_cast<clock::duration>(
                                    std::chrono::duration<double>(opts.seconds));
  for (;;) {
    auto until = clock::now() + std::chrono::milliseconds(500);
    if (opts.seconds > 0) until = std::min(deadline, until);
    if (gate.wait_finished_until(until)) break;
    if (opts.seconds > 0 && clock::now() >= deadline) {
      done = true;
      gate.wait_finished();
      break;
    }
    if (tty) {
      const double el = seconds_between(start, clock::now());
      std::fprintf(stderr, "\r[%u clients] %6.1f s  %10llu calls  %10.0f calls/s  %llu errors ",
                   clients, el, static_cast<unsigned long long>(progress.calls.load()),
                   el > 0 ? double(progress.calls.load()) / el : 0.0,
                   static_cast<unsigned long long>(progress.errors.load()));
    }
  }
  if (tty) std::fprintf(stderr, "\r%*s\r", 78, "");
  for (auto& th : pool) th.join();

  summarize(result, thread_latency, opts, clients);
  return result;
}

}  // namespace

window_usage& window_usage::operator+=(const window_usage& o) {
  cpu_s += o.cpu_s;
  runqueue_s += o.runqueue_s;
  minor_faults += o.minor_faults;
  voluntary_cs += o.voluntary_cs;
  involuntary_cs += o.involuntary_cs;
  return *this;
}

void latency_histogram::record(std::uint64_t ns) {
  ++buckets_[bucket_of(ns)];
  ++count_;
  sum_ += ns;
  max_ = std::max(max_, ns);
}

void latency_histogram::merge(const latency_histogram& o) {
  for (int i = 0; i < octaves * sub_buckets; ++i) buckets_[i] += o.buckets_[i];
  count_ += o.count_;
  sum_ += o.sum_;
  max_ = std::max(max_, o.max_);
}

std::uint64_t latency_histogram::percentile(double p) const {
  if (count_ == 0) return 0;
  const auto rank = static_cast<std::uint64_t>(p / 100.0 * double(count_ - 1)) + 1;
  std::uint64_t seen = 0;
  for (int i = 0; i < octaves * sub_buckets; ++i) {
    seen += buckets_[i];
    if (seen >= rank) return std::min(bucket_upper(i), max_);
  }
  return max_;
}

std::vector<run_result> run_benchmark(const run_options& opts, const caller_factory& make) {
  if (opts.warmup_seconds > 0 || opts.warmup_min_calls > 0) {
    if (!opts.json)
      std::printf("TestCase %s is warming up. (%.0f sec/%llu iterations, 4 threads)\n",
                  opts.operation.c_str(), opts.warmup_seconds,
                  static_cast<unsigned long long>(opts.warmup_min_calls));
    std::string first_error;
    if (warm_up(opts, make, first_error) == 0)
      throw std::runtime_error(first_error.empty() ? "no call succeeded" : first_error);
  }
  std::vector<run_result> results;
  for (unsigned threads : opts.thread_counts) {
    results.push_back(timed_run(opts, make, threads));
    print_result(opts, results.back());
    std::fflush(stdout);
  }
  return results;
}

void print_result(const run_options& opts, const run_result& r) {
  const double ms = 1e-6;
  if (opts.json) {
    std::printf(
        "{\"operation\":\"%s\",\"threads\":%u,\"client_threads\":%u,\"invocations\":%llu,"
        "\"running_s\":%.3f,"
        "\"overall_throughput\":%.1f,\"overall_avg_ms\":%.4f,\"total_tps\":%.1f,"
        "\"total_avg_ms\":%.4f,\"p50_ms\":%.4f,\"p90_ms\":%.4f,\"p99_ms\":%.4f,\"max_ms\":%.4f,",
        opts.operation.c_str(), r.threads, opts.client_threads,
        static_cast<unsigned long long>(r.invocations), r.running_s, r.overall_throughput,
        r.overall_avg_ms, r.total_tps, r.total_avg_ms, double(r.latency.percentile(50)) * ms,
        double(r.latency.percentile(90)) * ms, double(r.latency.percentile(99)) * ms,
        double(r.latency.max()) * ms);
    if (opts.client_threads == 0)
      std::printf(
          "\"window_cpu_ms\":%.3f,\"window_runqueue_ms\":%.3f,\"window_minor_faults\":%llu,"
          "\"window_voluntary_cs\":%llu,\"window_involuntary_cs\":%llu,",
          r.usage.cpu_s * 1e3, r.usage.runqueue_s * 1e3,
          static_cast<unsigned long long>(r.usage.minor_faults),
          static_cast<unsigned long long>(r.usage.voluntary_cs),
          static_cast<unsigned long long>(r.usage.involuntary_cs));
    std::printf("\"windows_ms\":[");
    for (std::size_t w = 0; w < r.window_ms.size(); ++w)
      std::printf("%s%.4f", w ? "," : "", r.window_ms[w]);
    std::printf("],\"errors\":%llu}\n", static_cast<unsigned long long>(r.errors));
    return;
  }
  std::printf("=============Overall Test Result============\n");
  std::printf("Overall Throughput: %s %.2f (invocations/sec)\n", opts.operation.c_str(),
              r.overall_throughput);
  std::printf("Overall AVG. response time: %.4f (ms)\n", r.overall_avg_ms);
  std::printf("%llu (invocations), running %.2f (sec)\n",
              static_cast<unsigned long long>(r.invocations), r.running_s);
  std::printf("============================================\n");
  std::printf("Total(%u): %.2f tps %.4f ms\n", r.threads, r.total_tps, r.total_avg_ms);
  std::printf("Latency (ms): p50 %.3f  p90 %.3f  p99 %.3f  max %.3f\n",
              double(r.latency.percentile(50)) * ms, double(r.latency.percentile(90)) * ms,
              double(r.latency.percentile(99)) * ms, double(r.latency.max()) * ms);
  if (r.window_ms.size() > 1) {
    std::printf("Windows (ms):");
    for (double ms : r.window_ms) std::printf(" %.3f", ms);
    std::printf("\n");
  }
  std::printf("Errors: %llu\n", static_cast<unsigned long long>(r.errors));
  int shown = 0;
  for (const auto& t : r.per_thread)
    for (const auto& e : t.error_samples)
      if (shown++ < 5) std::printf("  error: %s\n", e.c_str());
}

splits_result run_splits(const run_options& opts, const split_options& split,
                         const split_caller_factory& make) {
  splits_result result;
  std::vector<std::unique_ptr<caller>> callers;
  for (unsigned c : split.calls) {
    result.splits.push_back(
        {.calls = c, .packet_size = split.items / c, .window_ms = {}, .usage = {}});
    result.splits.back().window_ms.reserve(opts.windows);
    callers.push_back(make(split.items, c));
  }
  std::int32_t id = 0;
  // f on split s's caller; a failure is counted and the first few messages kept.
  auto attempt = [&](std::size_t s, auto f) {
    try {
      f(*callers[s]);
      return true;
    } catch (const std::exception& e) {
      ++result.errors;
      if (result.error_samples.size() < 3) result.error_samples.emplace_back(e.what());
      return false;
    }
  };
  auto call = [&](std::size_t s) { return attempt(s, [&](caller& c) { c.call(++id); }); };
  // One window of split s: its calls back to back; true when all succeeded.
  auto window = [&](std::size_t s) {
    bool ok = true;
    for (unsigned i = 0; i < result.splits[s].calls; ++i) ok = call(s) && ok;
    return ok;
  };
  auto check = [&](std::size_t s) { return attempt(s, [](caller& c) { c.check(); }); };
  const std::size_t n = callers.size();
  auto split_at = [n](unsigned cycle, std::size_t i) { return cycle % 2 ? n - 1 - i : i; };
  for (std::size_t s = 0; s < n; ++s)
    for (unsigned g = 0; g < opts.guard_calls; ++g) call(s);
  // Whole untimed cycles, at least one, until the warm-up time is over: they take every size
  // through the server and the client (the first big calls after a smaller one grow pooled
  // objects and fault pages in).
  const auto warm_until = clock::now() + std::chrono::duration_cast<clock::duration>(
                                             std::chrono::duration<double>(opts.warmup_seconds));
  for (unsigned cycle = 0; opts.warmup_seconds > 0 && (cycle == 0 || clock::now() < warm_until);
       ++cycle)
    for (std::size_t i = 0; i < n; ++i)
      if (window(split_at(cycle, i))) check(split_at(cycle, i));
  for (unsigned cycle = 0; cycle < opts.windows; ++cycle)
    for (std::size_t i = 0; i < n; ++i) {
      split_result& r = result.splits[split_at(cycle, i)];
      const window_usage before = thread_usage();
      const auto start = clock::now();
      bool ok = window(split_at(cycle, i));
      const auto end = clock::now();
      r.usage += thread_usage() - before;
      ok = ok && check(split_at(cycle, i));  // untimed: verifies the window's echoes
      // A failed window is no sample of the split's time (compare.sh reads errors first).
      r.window_ms.push_back(ok ? seconds_between(start, end) * 1000.0 : -1.0);
    }
  return result;
}

void print_splits(const run_options& opts, const split_options& split, const splits_result& r) {
  if (opts.json) {
    std::printf("{\"operation\":\"%s\",\"items\":%u,\"cycles\":%u,\"splits\":[",
                opts.operation.c_str(), split.items, opts.windows);
    for (std::size_t s = 0; s < r.splits.size(); ++s) {
      const split_result& x = r.splits[s];
      std::printf(
          "%s{\"calls\":%u,\"packet_size\":%u,\"cpu_ms\":%.3f,\"runqueue_ms\":%.3f,"
          "\"minor_faults\":%llu,\"windows_ms\":[",
          s ? "," : "", x.calls, x.packet_size, x.usage.cpu_s * 1e3, x.usage.runqueue_s * 1e3,
          static_cast<unsigned long long>(x.usage.minor_faults));
      for (std::size_t w = 0; w < x.window_ms.size(); ++w)
        std::printf("%s%.4f", w ? "," : "", x.window_ms[w]);
      std::printf("]}");
    }
    std::printf("],\"errors\":%llu}\n", static_cast<unsigned long long>(r.errors));
    return;
  }
  std::printf("%u items as C calls, %u interleaved windows per split (ms per window):\n",
              split.items, opts.windows);
  std::printf("%8s %10s %10s %10s %10s\n", "calls", "items/call", "min", "median", "max");
  for (const split_result& x : r.splits) {
    std::vector<double> v;
    for (double ms : x.window_ms)
      if (ms >= 0) v.push_back(ms);
    std::sort(v.begin(), v.end());
    if (v.empty()) {
      std::printf("%8u %10u %10s %10s %10s\n", x.calls, x.packet_size, "-", "-", "-");
      continue;
    }
    const std::size_t m = v.size() / 2;
    const double median = v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
    std::printf("%8u %10u %10.3f %10.3f %10.3f\n", x.calls, x.packet_size, v.front(), median,
                v.back());
  }
  std::printf("Errors: %llu\n", static_cast<unsigned long long>(r.errors));
  for (const auto& e : r.error_samples) std::printf("  error: %s\n", e.c_str());
}

}  // namespace lather::bench
