// lather-bench --splits (bench::run_splits): compare.sh's Axis table in one client process. A
// recording caller stands in for each split's connection, so the tests see which split called
// or checked, in what order and with how many items. Counts and order only, no timing.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <vector>

#include "harness.hpp"

namespace {

using namespace lather;

// Every call of every caller, in order: its packet size (which split made it); a check() is
// logged as 0.
struct call_log {
  std::vector<unsigned> packet_sizes;
};

class recording_caller final : public bench::caller {
 public:
  // fail_at: this caller's n-th call (1-based) throws; 0 = never. check_fails_at: its n-th
  // check() throws.
  recording_caller(unsigned packet_size, call_log& log, unsigned fail_at,
                   unsigned check_fails_at = 0)
      : packet_size_(packet_size), log_(log), fail_at_(fail_at), check_fails_at_(check_fails_at) {}
  void call(std::int32_t) override {
    log_.packet_sizes.push_back(packet_size_);
    if (++calls_ == fail_at_) throw std::runtime_error("refused");
  }
  void check() override {
    log_.packet_sizes.push_back(0);
    if (++checks_ == check_fails_at_) throw std::runtime_error("echo differs");
  }

 private:
  unsigned packet_size_;
  call_log& log_;
  unsigned fail_at_, check_fails_at_;
  unsigned calls_ = 0, checks_ = 0;
};

// The calls one window of `calls` calls of `items` items makes, and the check after it.
void add_window(std::vector<unsigned>& log, unsigned items, unsigned calls) {
  log.insert(log.end(), calls, items / calls);
  log.push_back(0);
}

TEST(bench_splits, CyclesTimeEverySplitInOrderThenReversed) {
  call_log log;
  std::vector<unsigned> made;
  bench::run_options opts;
  opts.windows = 3;
  opts.guard_calls = 1;
  opts.warmup_seconds = 0;
  const bench::split_options split{.items = 12, .calls = {1, 3, 12}};
  const auto r = bench::run_splits(opts, split, [&](unsigned items, unsigned calls) {
    made.push_back(calls);
    EXPECT_EQ(items, 12u);  // every split's caller holds the window's items
    return std::make_unique<recording_caller>(items / calls, log, 0);
  });
  EXPECT_EQ(made, (std::vector<unsigned>{1, 3, 12}));  // one caller (connection) per split
  // One guard call per split, then cycle 0 forward, cycle 1 backward, cycle 2 forward; each
  // window's check right after it.
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

// Two splits, three cycles: one error (`reason`), counted; the second split's window of cycle
// 1 is no sample (-1), every other window is.
void expect_one_failed_window(const bench::splits_result& r, const char* reason) {
  EXPECT_EQ(r.errors, 1u);
  ASSERT_EQ(r.error_samples.size(), 1u);
  EXPECT_EQ(r.error_samples[0], reason);
  ASSERT_EQ(r.splits.size(), 2u);
  ASSERT_EQ(r.splits[1].window_ms.size(), 3u);
  EXPECT_GE(r.splits[1].window_ms[0], 0.0);
  EXPECT_EQ(r.splits[1].window_ms[1], -1.0);
  EXPECT_GE(r.splits[1].window_ms[2], 0.0);
  for (double ms : r.splits[0].window_ms) EXPECT_GE(ms, 0.0);
}

// Three timed cycles, no guard call, no warm-up.
bench::splits_result three_cycles(const bench::split_options& split,
                                  const bench::split_caller_factory& make) {
  bench::run_options opts;
  opts.windows = 3;
  opts.guard_calls = 0;
  opts.warmup_seconds = 0;
  return bench::run_splits(opts, split, make);
}

TEST(bench_splits, AFailedCallIsCountedAndItsWindowIsNoSample) {
  call_log log;
  // The 3-call split's 5th call is in cycle 1 (its calls 4-6).
  const auto r = three_cycles({.items = 6, .calls = {1, 3}}, [&](unsigned items, unsigned calls) {
    return std::make_unique<recording_caller>(items / calls, log, calls == 3 ? 5 : 0);
  });
  // The window went on after the failure; a failed window is not checked.
  EXPECT_EQ(std::count(log.packet_sizes.begin(), log.packet_sizes.end(), 2u), 3 * 3);
  EXPECT_EQ(std::count(log.packet_sizes.begin(), log.packet_sizes.end(), 0u), 3 + 2);
  expect_one_failed_window(r, "refused");
}

TEST(bench_splits, WarmUpRunsWholeUntimedCyclesFirst) {
  call_log log;
  bench::run_options opts;
  opts.windows = 2;
  opts.guard_calls = 0;
  opts.warmup_seconds = 1e-9;  // over at once: still one whole cycle
  const bench::split_options split{.items = 4, .calls = {1, 4}};
  const auto r = bench::run_splits(opts, split, [&](unsigned items, unsigned calls) {
    return std::make_unique<recording_caller>(items / calls, log, 0);
  });
  std::vector<unsigned> expected;
  for (unsigned c : {1, 4}) add_window(expected, 4, c);  // the warm-up cycle
  for (unsigned c : {1, 4}) add_window(expected, 4, c);  // timed cycle 0
  for (unsigned c : {4, 1}) add_window(expected, 4, c);  // timed cycle 1
  EXPECT_EQ(log.packet_sizes, expected);
  for (const auto& s : r.splits) EXPECT_EQ(s.window_ms.size(), 2u);
}

TEST(bench_splits, AFailedCheckIsCountedAndItsWindowIsNoSample) {
  call_log log;
  // The 2-call split's second check comes after its window of cycle 1.
  const auto r = three_cycles({.items = 4, .calls = {1, 2}}, [&](unsigned items, unsigned calls) {
    return std::make_unique<recording_caller>(items / calls, log, 0, calls == 2 ? 2 : 0);
  });
  expect_one_failed_window(r, "echo differs");
}

}  // namespace
