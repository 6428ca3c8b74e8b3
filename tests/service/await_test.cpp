// http::server::await under the service layer: a SOAP operation whose await ends without its
// resume (dropped, timed out) answers a Server fault and unwinds; an async operation suspended
// when the server stops unwinds, and its reply given after the server is gone does nothing.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "add_types.hpp"
#include "lather/http/error.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "lather/service/service.hpp"

namespace {

using namespace std::chrono_literals;
using lather_test::add_request;
using lather_test::add_response;
using lather_test::test_ns;

struct unwind_counter {
  std::atomic<int>& count;
  ~unwind_counter() { ++count; }
};

/// The fault a call got ("" if it succeeded).
std::string fault_reason(lather::client& c, add_request in) {
  try {
    c.call<add_response>("add", in);
  } catch (const lather::soap::fault_error& e) {
    EXPECT_EQ(e.get().code, lather::soap::fault_code::receiver);
    return e.get().reason;
  }
  return {};
}

// a = 1: resume dropped in start; a = 2: not called within 50 ms; otherwise resumed at once.
TEST(service_await, AnAwaitEndedWithoutResumeIsAServerFaultAndTheHandlerUnwinds) {
  std::atomic<int> unwound{0}, resumed{0};
  std::mutex m;
  std::vector<std::function<void()>> kept;  // resumes of timed-out awaits, called too late
  lather::service svc{"Await", std::string(test_ns)};
  svc.operation("add", [&](const add_request& in) {
    unwind_counter local{unwound};
    auto start = [&](std::function<void()> resume) {
      if (in.a == 2) {
        std::lock_guard lock(m);
        kept.push_back(std::move(resume));
      } else if (in.a != 1) {
        resume();
      }
    };
    lather::http::server::await(start, 50ms);
    ++resumed;
    return add_response{in.a + in.b};
  });
  lather::server_options o;
  o.threads = 1;
  o.hide_internal_errors = false;
  lather::server srv{o};
  srv.mount("/await", svc);
  srv.start();
  lather::client c{"http://127.0.0.1:" + std::to_string(srv.port()) + "/await"};
  EXPECT_EQ(c.call<add_response>("add", add_request{5, 6}).result, 11);
  EXPECT_EQ(fault_reason(c, add_request{1, 0}),
            "http::server::await: resume was destroyed without being called");
  EXPECT_EQ(fault_reason(c, add_request{2, 0}),
            "http::server::await: resume was not called within 50 ms");
  {
    std::lock_guard lock(m);
    for (auto& r : kept) r();  // too late: nothing happens
  }
  EXPECT_EQ(c.call<add_response>("add", add_request{3, 4}).result, 7);
  EXPECT_EQ(unwound.load(), 4);
  EXPECT_EQ(resumed.load(), 2);
  srv.stop();
}

// An async operation (lather::reply) suspended when the server stops: its call unwinds, and
// the reply given after stop() and after the server is gone does nothing.
TEST(service_await, AReplyAfterTheServerIsGoneDoesNothing) {
  std::mutex m;
  std::optional<lather::reply<add_response>> held;
  std::promise<void> holding;
  lather::service svc{"Held", std::string(test_ns)};
  svc.operation("add", [&](const add_request&, lather::reply<add_response> done) {
    std::lock_guard lock(m);
    held.emplace(std::move(done));
    holding.set_value();
  });
  lather::server_options o;
  o.threads = 1;
  o.shutdown_deadline = 100ms;
  auto srv = std::make_unique<lather::server>(o);
  srv->mount("/held", svc);
  srv->start();
  std::promise<std::string> outcome;
  std::thread caller([&, url = "http://127.0.0.1:" + std::to_string(srv->port()) + "/held"] {
    lather::client c{url};
    try {
      c.call<add_response>("add", add_request{1, 2});
      outcome.set_value("answered");
    } catch (const std::exception&) {
      outcome.set_value("failed");
    }
  });
  holding.get_future().wait();
  srv->stop();
  EXPECT_EQ(outcome.get_future().get(), "failed");  // the connection closed unanswered
  caller.join();
  {
    std::lock_guard lock(m);
    (*held)(add_response{3});
  }
  srv.reset();
  std::lock_guard lock(m);
  (*held)(add_response{3});
  held.reset();
}

// The timer thread waits for the earliest deadline; a guard destroyed meanwhile erases that
// entry, and the wait must not read the entry's deadline once it wakes (the next add wakes
// it). ASan reported a heap-use-after-free in condition_variable::wait_until here.
TEST(deadline_guard, DestroyedWhileTheTimerWaitsForIt) {
  std::atomic<int> expired{0};
  for (int i = 0; i < 200; ++i) {
    std::optional<lather::detail::deadline_guard> g;
    g.emplace(std::chrono::hours{1}, [&] { ++expired; });
    std::this_thread::yield();  // either order is valid; this makes "waiting for it" likely
  }
  std::promise<void> fired;
  lather::detail::deadline_guard last{std::chrono::milliseconds{1}, [&] { fired.set_value(); }};
  EXPECT_EQ(fired.get_future().wait_for(std::chrono::seconds{30}), std::future_status::ready);
  EXPECT_EQ(expired.load(), 0);
}

}  // namespace
