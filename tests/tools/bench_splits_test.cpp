// lather-bench --splits (bench::run_splits): compare.sh's Axis table in one client process. A
// recording caller stands in for each split's connection, so the tests see which split called,
// in what order and with how many items. Counts and order only, no timing.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <vector>

#include "harness.hpp"

namespace {

using namespace lather;

// Every call of every caller, in order: its packet size (which split made it).
struct call_log {
  std::vector<unsigned> packet_sizes;
};

class recording_caller final : public bench::caller {
 public:
  // fail_at: this caller's n-th call (1-based) throws; 0 = never.
  recording_caller(unsigned packet_size, call_log& log, unsigned fail_at)
      : packet_size_(packet_size), log_(log), fail_at_(fail_at) {}
  void call(std::int32_t) override {
    log_.packet_sizes.push_back(packet_size_);
    if (++calls_ == fail_at_) throw std::runtime_error("refused");
  }

 private:
  unsigned packet_size_;
  call_log& log_;
  unsigned fail_at_;
  unsigned calls_ = 0;
};

// The calls one window of `calls` calls of `items` items makes.
void add_window(std::vector<unsigned>& log, unsigned items, unsigned calls) {
  log.insert(log.end(), calls, items / calls);
}

TEST(bench_splits, CyclesTimeEverySplitInOrderThenReversed) {
  call_log log;
  std::vector<unsigned> made;
  bench::run_options opts;
  opts.windows = 3;
  opts.guard_calls = 1;
  opts.warmup_seconds = 0;
  const bench::split_options split{.items = 12, .calls = {1, 3, 12}};
  const auto r = bench::run_splits(opts, split, [&](unsigned packet_size) {
    made.push_back(packet_size);
    return std::make_unique<recording_caller>(packet_size, log, 0);
  });
  EXPECT_EQ(made, (std::vector<unsigned>{12, 4, 1}));  // one caller (connection) per split
  // One guard call per split, then cycle 0 forward, cycle 1 backward, cycle 2 forward.
  std::vector<unsigned> expected = {12, 4, 1};
  for (unsigned c : {1, 3, 12}) add_window(expected, 12, c);
  for (unsigned c : {12, 3, 1}) add_window(expected, 12, c);
  for (unsigned c : {1, 3, 12}) add_window(expected, 12, c);
  EXPECT_EQ(log.packet_sizes, expected);
  EXPECT_EQ(r.errors, 0u);
  ASSERT_EQ(r.splits.size(), 3u);
  for (std::size_t s = 0; s < 3; ++s) {
    EXPECT_EQ(r.splits[s].calls, split.calls[s]);
    EXPECT_EQ(r.splits[s].packet_size, 12 / split.calls[s]);
    ASSERT_EQ(r.splits[s].window_ms.size(), 3u);  // one per cycle
    for (double ms : r.splits[s].window_ms) EXPECT_GE(ms, 0.0);
  }
}

TEST(bench_splits, AFailedCallIsCountedAndItsWindowIsNoSample) {
  call_log log;
  bench::run_options opts;
  opts.windows = 3;
  opts.guard_calls = 0;
  opts.warmup_seconds = 0;
  const bench::split_options split{.items = 6, .calls = {1, 3}};
  // The 3-call split's 5th call is in cycle 1 (its calls 4-6).
  const auto r = bench::run_splits(opts, split, [&](unsigned packet_size) {
    return std::make_unique<recording_caller>(packet_size, log, packet_size == 2 ? 5 : 0);
  });
  EXPECT_EQ(log.packet_sizes.size(), 3u * (1 + 3));  // the window went on after the failure
  EXPECT_EQ(r.errors, 1u);
  ASSERT_EQ(r.error_samples.size(), 1u);
  EXPECT_EQ(r.error_samples[0], "refused");
  ASSERT_EQ(r.splits.size(), 2u);
  ASSERT_EQ(r.splits[1].window_ms.size(), 3u);
  EXPECT_GE(r.splits[1].window_ms[0], 0.0);
  EXPECT_EQ(r.splits[1].window_ms[1], -1.0);
  EXPECT_GE(r.splits[1].window_ms[2], 0.0);
  for (double ms : r.splits[0].window_ms) EXPECT_GE(ms, 0.0);
}

TEST(bench_splits, WarmUpRunsWholeUntimedCyclesFirst) {
  call_log log;
  bench::run_options opts;
  opts.windows = 2;
  opts.guard_calls = 0;
  opts.warmup_seconds = 1e-9;  // over at once: still one whole cycle
  const bench::split_options split{.items = 4, .calls = {1, 4}};
  const auto r = bench::run_splits(opts, split, [&](unsigned packet_size) {
    return std::make_unique<recording_caller>(packet_size, log, 0);
  });
  std::vector<unsigned> expected;
  for (unsigned c : {1, 4}) add_window(expected, 4, c);  // the warm-up cycle
  for (unsigned c : {1, 4}) add_window(expected, 4, c);  // timed cycle 0
  for (unsigned c : {4, 1}) add_window(expected, 4, c);  // timed cycle 1
  EXPECT_EQ(log.packet_sizes, expected);
  for (const auto& s : r.splits) EXPECT_EQ(s.window_ms.size(), 2u);
}

}  // namespace
