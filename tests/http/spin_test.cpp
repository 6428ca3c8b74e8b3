// Spinning before sleeping (server_options::spin_budget, client_options::spin_budget): the
// adaptive budget's rules, and that serving and calling behave the same with it on or off —
// keep-alive, pipelined and late requests, late answers, shutdown while spinning, counters.
// Nothing here depends on how long a spin takes on this machine: only which outcomes can occur
// (but for a 100 us budget under TSan, below).
#include <gtest/gtest.h>
#include <poll.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "../support/sanitizer.hpp"
#include "lather/http/client.hpp"
#include "lather/http/server.hpp"
#include "raw_socket.hpp"
#include "spin.hpp"  // src/http: the budget's rules

namespace lather::http {
namespace {

using namespace std::chrono_literals;
using test::post_request;
using test::raw_socket;
using header_pair = std::pair<std::string_view, std::string_view>;

void echo(request& req, response& res) {
  char buf[8192];
  while (std::size_t n = req.read_body(buf, sizeof buf)) {
    res.body().append({buf, n});
    res.body().maybe_flush();
  }
}

/// Wait (bounded) until `done()` holds; false if it never did.
bool eventually(const std::function<bool()>& done, std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::yield();
  }
  return true;
}

std::uint64_t spins(const server::stats& s) {
  return s.spins_found_work + s.spins_gave_up;
}
std::uint64_t spins(const client::stats& s) {
  return s.spins_found_work + s.spins_gave_up;
}

// The machines tests run on are often busy (other tests in parallel), and spinning does not
// start while threads wait for CPUs: here the machine counts as idle unless a test says not.
bool always_idle() {
  return true;
}
const bool idle_machine = (detail::set_idle_cpu_probe(&always_idle), true);

// ---------------- the budget ----------------

TEST(SpinBudget, GrowsWhileWaitsEndWithinTheMaximumAndShrinksToZeroOtherwise) {
  detail::spin_budget b{100us};
  EXPECT_EQ(b.current(), 0ns);  // nothing is spent before a wait has been seen
  b.waited(5ms);                // a long wait: spinning would not have helped
  EXPECT_EQ(b.current(), 0ns);
  b.waited(30us);  // a 100 us spin would have caught this one: start at a quarter
  EXPECT_EQ(b.current(), 25us);
  b.waited(60us);
  EXPECT_EQ(b.current(), 50us);
  b.waited(90us);
  EXPECT_EQ(b.current(), 100us);
  b.waited(90us);
  EXPECT_EQ(b.current(), 100us);  // never above the maximum
  b.waited(1ms);                  // spins that give up halve it...
  EXPECT_EQ(b.current(), 50us);
  b.waited(1ms);
  EXPECT_EQ(b.current(), 25us);
  b.waited(1ms);  // ...down to 0: block at once
  EXPECT_EQ(b.current(), 0ns);
  b.waited(10us);
  EXPECT_EQ(b.current(), 25us);
  b.contended();  // another thread wanted the CPU: stop spinning at once
  EXPECT_EQ(b.current(), 0ns);
}

TEST(SpinBudget, SpinEndsWhenReadyWhenTheBudgetIsSpentOrWhenTheCpuIsWanted) {
  int polls = 0;
  EXPECT_EQ(detail::spin_for(10s,
                             [&] {
                               ++polls;
                               return true;
                             }),
            detail::spin_outcome::found);
  EXPECT_EQ(polls, 1);
  polls = 0;
  EXPECT_EQ(detail::spin_for(0ns,
                             [&] {
                               ++polls;
                               return true;
                             }),
            detail::spin_outcome::gave_up);
  EXPECT_EQ(polls, 0);  // no budget: no poll
  const auto start = std::chrono::steady_clock::now();
  auto outcome = detail::spin_for(2ms, [] { return false; });
  ASSERT_NE(outcome, detail::spin_outcome::found);
  // Giving up means the budget was spent; a contended spin may end sooner (a long yield).
  if (outcome == detail::spin_outcome::gave_up) {
    EXPECT_GE(std::chrono::steady_clock::now() - start, 2ms);
  }
}

TEST(SpinBudget, NoSpinWhileThreadsWaitForCpus) {
  ASSERT_TRUE(idle_machine);
  detail::set_idle_cpu_probe([] { return false; });
  int polls = 0;
  EXPECT_EQ(detail::spin_for(10s,
                             [&] {
                               ++polls;
                               return true;
                             }),
            detail::spin_outcome::machine_busy);
  EXPECT_EQ(polls, 0);
  detail::set_idle_cpu_probe(nullptr);  // /proc/loadavg: whatever it says, a valid outcome
  EXPECT_NE(detail::spin_for(1ms, [] { return false; }), detail::spin_outcome::found);
  detail::set_idle_cpu_probe(&always_idle);
}

// ---------------- server ----------------

class ServerSpin : public testing::TestWithParam<std::chrono::microseconds> {};

TEST_P(ServerSpin, KeepAlivePipelinedAndLateRequestsAreServed) {
  const auto budget = GetParam();
  server srv{{.threads = 1, .spin_budget = budget}};
  srv.route("/", echo);
  srv.start();
  EXPECT_EQ(spins(srv.get_stats()), 0u);  // no traffic yet, no spin
  raw_socket s{srv.port()};
  // One at a time: the server runs out of work after each answer and waits for the next
  // request. Whether it spins then depends on the scheduler (a client thread that preempts it
  // on its CPU has the next request there before it looks), so with a budget the calls go on
  // until it has spun at least once (bounded).
  unsigned calls = 0;
  for (; calls < 200 || (budget.count() > 0 && spins(srv.get_stats()) == 0 && calls < 5000);
       ++calls) {
    ASSERT_TRUE(s.send(post_request("/", "call " + std::to_string(calls))));
    ASSERT_EQ(s.read_response().body, "call " + std::to_string(calls));
  }
  std::string pipelined;
  for (int i = 0; i < 20; ++i) pipelined += post_request("/", "pipelined " + std::to_string(i));
  ASSERT_TRUE(s.send(pipelined));
  for (int i = 0; i < 20; ++i) ASSERT_EQ(s.read_response().body, "pipelined " + std::to_string(i));

  // Late: the next request comes once the server stopped spinning and sleeps (a spin that gave
  // up is counted; with a budget the waits shrank to 0 there is none, and it sleeps anyway).
  const auto before = srv.get_stats();
  if (budget.count() > 0)
    eventually([&] { return srv.get_stats().spins_gave_up > before.spins_gave_up; }, 1s);
  ASSERT_TRUE(s.send(post_request("/", "late")));
  EXPECT_EQ(s.read_response().body, "late");
  raw_socket other{srv.port()};  // a second connection on the same worker
  ASSERT_TRUE(other.send(post_request("/", "other")));
  EXPECT_EQ(other.read_response().body, "other");

  srv.stop();
  const auto st = srv.get_stats();
  EXPECT_EQ(st.requests, calls + 22u);
  if (budget.count() == 0) {
    EXPECT_EQ(spins(st), 0u);
  } else if (!lather::test::tsan || budget >= 1ms) {
    // Under TSan a loopback round trip takes longer than 100 us: no wait ends within that
    // budget, so it never grows from 0 and the worker rightly never spins.
    EXPECT_GT(spins(st), 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Budgets, ServerSpin, testing::Values(0us, 100us, 50'000us),
                         [](const auto& info) {
                           return "us" + std::to_string(info.param.count());
                         });

TEST(ServerSpinStop, StopWhileSpinningReturnsPromptly) {
  // A budget far longer than the test: once calls have grown it, the worker spins after each
  // answer until the next request, a contended yield, or stop().
  auto srv = std::make_unique<server>(server_options{.threads = 1, .spin_budget = 60s});
  srv->route("/", echo);
  srv->start();
  raw_socket s{srv->port()};
  for (int i = 0; i < 20 || (spins(srv->get_stats()) == 0 && i < 5000); ++i) {
    ASSERT_TRUE(s.send(post_request("/", "x")));
    ASSERT_EQ(s.read_response().body, "x");
  }
  ASSERT_GT(spins(srv->get_stats()), 0u);
  const auto start = std::chrono::steady_clock::now();
  srv->stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);  // not the 60 s budget
  EXPECT_TRUE(s.closed_by_peer());
}

// ---------------- client ----------------

std::string call(client& c, std::string_view target, std::string_view body) {
  std::string out;
  header_pair hdrs[] = {{"Content-Type", "text/xml; charset=utf-8"}};
  c.post(
      target, hdrs, [&](lather::byte_buffer& o) { o.append(body); },
      [&](const response_head& head, const lather::byte_source& src) {
        EXPECT_EQ(head.status, 200u);
        char buf[4096];
        while (std::size_t n = src(buf, sizeof buf)) out.append(buf, n);
      });
  return out;
}

class ClientSpin : public testing::TestWithParam<std::chrono::microseconds> {};

TEST_P(ClientSpin, CallsSucceedAndCountersMove) {
  const auto budget = GetParam();
  server srv{{.threads = 1}};
  srv.route("/echo", echo);
  srv.start();
  client c{"http://127.0.0.1:" + std::to_string(srv.port()) + "/echo", {.spin_budget = budget}};
  for (int i = 0; i < 200; ++i)
    ASSERT_EQ(call(c, "", "call " + std::to_string(i)), "call " + std::to_string(i));
  const std::string big(1 << 20, 'b');  // streamed back chunked: many receives
  EXPECT_EQ(call(c, "", big), big);
  const auto st = c.get_stats();
  EXPECT_EQ(st.connections_opened, 1u);  // and every call succeeded
  if (budget.count() == 0)
    EXPECT_EQ(spins(st), 0u);
  else
    EXPECT_GT(spins(st), 0u);
}

INSTANTIATE_TEST_SUITE_P(Budgets, ClientSpin, testing::Values(0us, 100us, 50'000us),
                         [](const auto& info) {
                           return "us" + std::to_string(info.param.count());
                         });

TEST(ClientSpinLate, AnswerAfterTheBudgetIsStillRead) {
  // The handler of /slow waits (without holding the server thread) until the test resumes it:
  // the client spins, gives up and sleeps in recv, and the answer must still wake it.
  server srv{{.threads = 1}};
  std::mutex m;
  std::condition_variable parked_cv;
  std::function<void()> resume_slow;
  srv.route("/fast", echo);
  srv.route("/slow", [&](request& req, response& res) {
    server::await([&](std::function<void()> resume) {
      std::lock_guard lock(m);
      resume_slow = std::move(resume);
      parked_cv.notify_all();
    });
    echo(req, res);
  });
  srv.start();
  client c{"http://127.0.0.1:" + std::to_string(srv.port()) + "/fast", {.spin_budget = 1ms}};
  for (int i = 0; i < 50; ++i) ASSERT_EQ(call(c, "", "quick"), "quick");  // the budget grows
  const auto before = c.get_stats();
  std::string slow_answer;
  std::thread caller([&] { slow_answer = call(c, "/slow", "late answer"); });
  {
    std::unique_lock lock(m);
    ASSERT_TRUE(parked_cv.wait_for(lock, 5s, [&] { return static_cast<bool>(resume_slow); }));
  }
  // The client's spin for this answer ends (given up) before it comes, unless its budget was
  // 0 then (it sleeps anyway).
  eventually([&] { return c.get_stats().spins_gave_up > before.spins_gave_up; }, 1s);
  {
    std::lock_guard lock(m);
    resume_slow();
  }
  caller.join();
  EXPECT_EQ(slow_answer, "late answer");
  EXPECT_EQ(call(c, "", "after"), "after");
}

TEST(ClientSpinHook, AWaitSocketHookDoesItsOwnWaiting) {
  // With client_options::wait_socket the event loop behind the hook waits: no spin.
  server srv{{.threads = 1}};
  srv.route("/echo", echo);
  srv.start();
  std::atomic<int> waits{0};
  client_options o;
  o.spin_budget = 50ms;
  o.wait_socket = [&](int fd, bool writable, std::chrono::steady_clock::time_point deadline) {
    ++waits;
    pollfd p{fd, static_cast<short>(writable ? POLLOUT : POLLIN), 0};
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    return ::poll(&p, 1, static_cast<int>(std::max<std::int64_t>(left.count(), 0))) > 0;
  };
  client c{"http://127.0.0.1:" + std::to_string(srv.port()) + "/echo", o};
  for (int i = 0; i < 20; ++i) ASSERT_EQ(call(c, "", "hooked"), "hooked");
  EXPECT_GT(waits.load(), 0);
  EXPECT_EQ(spins(c.get_stats()), 0u);
}

}  // namespace
}  // namespace lather::http
