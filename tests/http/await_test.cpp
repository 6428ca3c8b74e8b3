// server::await's ends: `resume` (once, from any thread, however often it is called), a dropped
// `resume`, the await timeout, stop() and the client closing its connection. Each resumes the
// handler once on its own thread; one that ends without `resume` throws, so the handler's locals
// unwind and its lent stack, request buffers and connection go back (the stats' baseline).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "lather/http/server.hpp"
#include "raw_socket.hpp"

namespace lather::http {
namespace {

using test::post_request;
using test::raw_socket;
using namespace std::chrono_literals;

/// A handler's local whose destructor must run when the handler unwinds.
struct unwind_counter {
  std::atomic<int>& count;
  ~unwind_counter() { ++count; }
};

/// What a handler saw: how often it got past its await, and what the await threw.
struct handler_record {
  std::atomic<int> unwound{0}, resumed{0};
  std::atomic<int> thrown{static_cast<int>(errc::ok)};
  errc code() const { return static_cast<errc>(thrown.load()); }
};

/// A handler that awaits with `start` and answers "resumed".
handler awaiting(handler_record& rec, std::function<void(std::function<void()>)> start) {
  return [&rec, start](request&, response& res) {
    unwind_counter local{rec.unwound};
    try {
      server::await(start);
    } catch (const error& e) {
      rec.thrown = static_cast<int>(e.code());
      throw;
    }
    ++rec.resumed;
    res.body().append("resumed");
  };
}

/// `resume` kept by the test, to call or drop later.
struct kept_resume {
  std::mutex m;
  std::optional<std::function<void()>> fn;
  std::promise<void> stored;
  void keep(std::function<void()> r) {
    std::lock_guard lock(m);
    fn = std::move(r);
    stored.set_value();
  }
  void call() {
    std::lock_guard lock(m);
    if (fn) (*fn)();
  }
  void drop() {
    std::lock_guard lock(m);
    fn.reset();
  }
};

/// Until the server holds no connection, request stack or buffer set (bounded wait).
void expect_baseline(const server& srv) {
  auto idle = [&] {
    auto st = srv.get_stats();
    return st.connections_open == 0 && st.request_buffers == 0 && st.request_stacks == 0;
  };
  const auto until = std::chrono::steady_clock::now() + 10s;
  while (!idle() && std::chrono::steady_clock::now() < until) std::this_thread::yield();
  auto st = srv.get_stats();
  EXPECT_EQ(st.connections_open, 0u);
  EXPECT_EQ(st.request_buffers, 0u);
  EXPECT_EQ(st.request_stacks, 0u);
}

/// One request on a fresh connection; the answer must close the connection.
test::wire_response call_and_expect_close(std::uint16_t port, std::string_view target) {
  raw_socket s{port, 20000};
  EXPECT_TRUE(s.send(post_request(std::string(target), "")));
  auto r = s.read_response();
  EXPECT_EQ(r.header("Connection"), "close");
  EXPECT_TRUE(s.closed_by_peer());
  return r;
}

TEST(HttpServerAwait, ADroppedResumeUnwindsTheHandlerWhereverItIsDropped) {
  std::vector<std::thread> droppers;
  std::mutex m;
  handler_record in_start, on_thread, copies;
  server srv{{.threads = 1}};
  // Dropped inside start, on the handler's thread, before the handler suspended.
  srv.route("/in-start", awaiting(in_start, [](std::function<void()>) {}));
  // Dropped on another thread while the handler is suspended.
  srv.route("/on-thread", awaiting(on_thread, [&](std::function<void()> resume) {
              std::lock_guard lock(m);
              droppers.emplace_back([r = std::move(resume)]() mutable { r = nullptr; });
            }));
  // Several copies: only the last one dropped ends the await.
  srv.route("/copies", awaiting(copies, [&](std::function<void()> resume) {
              std::lock_guard lock(m);
              for (int i = 0; i < 3; ++i)
                droppers.emplace_back([r = resume]() mutable { r = nullptr; });
            }));
  srv.start();
  for (auto* rec : {&in_start, &on_thread, &copies}) {
    std::string target = rec == &in_start    ? "/in-start"
                         : rec == &on_thread ? "/on-thread"
                                             : "/copies";
    SCOPED_TRACE(target);
    auto r = call_and_expect_close(srv.port(), target);
    EXPECT_EQ(r.status, 500u);
    EXPECT_EQ(rec->code(), errc::resume_dropped);
    EXPECT_EQ(rec->unwound.load(), 1);
    EXPECT_EQ(rec->resumed.load(), 0);
    expect_baseline(srv);
  }
  for (auto& t : droppers) t.join();
}

TEST(HttpServerAwait, ResumeCalledManyTimesFromManyThreadsResumesOnce) {
  std::vector<std::thread> callers;
  std::mutex m;
  std::vector<std::function<void()>> late;  // copies called again after the responses
  handler_record threads, in_start;
  server srv{{.threads = 1}};
  srv.route("/threads", awaiting(threads, [&](std::function<void()> resume) {
              std::lock_guard lock(m);
              late.push_back(resume);
              for (int i = 0; i < 4; ++i)
                callers.emplace_back([resume] {
                  resume();
                  resume();
                });
            }));
  srv.route("/in-start", awaiting(in_start, [&](std::function<void()> resume) {
              resume();
              resume();
              std::lock_guard lock(m);
              late.push_back(resume);
            }));
  srv.start();
  raw_socket s{srv.port(), 20000};
  for (int i = 0; i < 5; ++i) {  // keep-alive: each request awaits again on the same connection
    for (std::string target : {"/threads", "/in-start"}) {
      ASSERT_TRUE(s.send(post_request(target, "")));
      auto r = s.read_response();
      EXPECT_EQ(r.status, 200u);
      EXPECT_EQ(r.body, "resumed");
    }
  }
  for (auto& t : callers) t.join();
  {
    std::lock_guard lock(m);
    for (auto& r : late) r();  // long after their awaits: nothing happens
  }
  ASSERT_TRUE(s.send(post_request("/in-start", "")));
  EXPECT_EQ(s.read_response().body, "resumed");
  EXPECT_EQ(threads.resumed.load(), 5);
  EXPECT_EQ(threads.unwound.load(), 5);
  EXPECT_EQ(in_start.resumed.load(), 6);
  EXPECT_EQ(srv.get_stats().connections_total, 1u);
}

TEST(HttpServerAwait, ATimeoutAnswers504AndALateResumeDoesNothing) {
  handler_record by_option, by_argument;
  kept_resume kept_option, kept_argument;
  // The server's await_timeout, and a per-await timeout over a server without one.
  server srv{{.threads = 1, .await_timeout = 50ms}};
  srv.route("/", awaiting(by_option, [&](std::function<void()> r) { kept_option.keep(r); }));
  srv.start();
  server own{{.threads = 1, .await_timeout = 0ms}};
  own.route("/", [&](request&, response&) {
    unwind_counter local{by_argument.unwound};
    try {
      server::await([&](std::function<void()> r) { kept_argument.keep(r); }, 50ms);
    } catch (const error& e) {
      by_argument.thrown = static_cast<int>(e.code());
      throw;
    }
    ++by_argument.resumed;
  });
  own.start();
  for (auto [s, rec, kept] : {std::tuple{&srv, &by_option, &kept_option},
                              std::tuple{&own, &by_argument, &kept_argument}}) {
    auto r = call_and_expect_close(s->port(), "/");
    EXPECT_EQ(r.status, 504u);
    EXPECT_EQ(rec->code(), errc::await_timeout);
    EXPECT_EQ(rec->unwound.load(), 1);
    expect_baseline(*s);
    kept->call();  // too late: nothing to resume
    kept->drop();
    EXPECT_EQ(rec->resumed.load(), 0);
    EXPECT_EQ(s->get_stats().connections_open, 0u);
  }
}

TEST(HttpServerAwait, StartThrowingEndsTheAwaitAndALaterResumeDoesNothing) {
  handler_record rec;
  kept_resume kept;
  server srv{{.threads = 1}};
  srv.route("/", awaiting(rec, [&](std::function<void()> r) {
              kept.keep(r);
              throw std::runtime_error("could not start the work");
            }));
  srv.start();
  auto r = call_and_expect_close(srv.port(), "/");
  EXPECT_EQ(r.status, 500u);
  EXPECT_EQ(rec.code(), errc::ok);  // not an http::error: start's own exception
  EXPECT_EQ(rec.unwound.load(), 1);
  expect_baseline(srv);
  kept.call();
  kept.drop();
  EXPECT_EQ(rec.resumed.load(), 0);
  raw_socket s{srv.port()};
  ASSERT_TRUE(s.send(post_request("/", "")));  // the server still serves
  EXPECT_EQ(s.read_response().status, 500u);
}

// stop() waits shutdown_deadline for the suspended handler, then closes its connection and
// resumes it with errc::shutting_down; `resume` after stop() and after the server is gone does
// nothing (run under ASan: no use of the destroyed io_context).
TEST(HttpServerAwait, StopResumesASuspendedHandlerAndLaterResumesDoNothing) {
  handler_record rec;
  kept_resume kept;
  auto srv = std::make_unique<server>(server_options{.threads = 1, .shutdown_deadline = 100ms});
  srv->route("/", awaiting(rec, [&](std::function<void()> r) { kept.keep(r); }));
  srv->start();
  raw_socket s{srv->port(), 20000};
  ASSERT_TRUE(s.send(post_request("/", "")));
  kept.stored.get_future().wait();
  srv->stop();
  EXPECT_TRUE(s.closed_by_peer());
  kept.call();
  srv.reset();
  EXPECT_EQ(rec.unwound.load(), 1);
  EXPECT_EQ(rec.resumed.load(), 0);
  EXPECT_EQ(rec.code(), errc::shutting_down);
  kept.call();
  kept.drop();
}

// A client that closes its connection while the handler waits ends the await
// (errc::client_gone): the handler unwinds at once, nothing is answered, everything goes back,
// and the work's late `resume` does nothing. Closed before the handler awaits (seen by the
// check) and during the wait (seen by the socket wait).
TEST(HttpServerAwait, AClientGoneWhileWaitingEndsTheAwait) {
  for (bool before : {true, false}) {
    SCOPED_TRACE(before ? "closed before the await" : "closed during the await");
    handler_record rec;
    kept_resume kept;
    std::promise<void> closed;
    server srv{{.threads = 1}};
    srv.route("/", awaiting(rec, [&](std::function<void()> r) { kept.keep(r); }));
    srv.route("/late", [&](request& req, response& res) {
      closed.get_future().wait();  // the client's FIN is in before the await starts
      awaiting(rec, [&](std::function<void()> r) { kept.keep(r); })(req, res);
    });
    srv.start();
    {
      raw_socket s{srv.port(), 20000};
      ASSERT_TRUE(s.send(post_request(before ? "/late" : "/", "")));
      if (!before) kept.stored.get_future().wait();
    }  // the client closes its socket
    closed.set_value();
    const auto until = std::chrono::steady_clock::now() + 10s;  // accepted, served, unwound
    while (rec.unwound.load() == 0 && std::chrono::steady_clock::now() < until)
      std::this_thread::yield();
    EXPECT_EQ(rec.unwound.load(), 1);
    EXPECT_EQ(rec.code(), errc::client_gone);
    expect_baseline(srv);
    kept.call();
    kept.drop();
    EXPECT_EQ(rec.resumed.load(), 0);
  }
}

// The next request arriving while the handler waits (pipelined) does not end the await: the
// close watch sees bytes, not an end of stream, and both requests are answered in order.
TEST(HttpServerAwait, ARequestArrivingDuringTheWaitIsServedAfterIt) {
  handler_record rec;
  kept_resume kept;
  std::atomic<int> plain{0};
  server srv{{.threads = 1}};
  srv.route("/wait", awaiting(rec, [&](std::function<void()> r) { kept.keep(r); }));
  srv.route("/plain", [&](request&, response& res) {
    ++plain;
    res.body().append("plain");
  });
  srv.start();
  raw_socket s{srv.port(), 20000};
  ASSERT_TRUE(s.send(post_request("/wait", "")));
  kept.stored.get_future().wait();
  ASSERT_TRUE(s.send(post_request("/plain", "")));
  // The second request reaches the server while the first waits; a third connection's
  // answer on the one server thread shows the event loop ran past its arrival.
  for (int i = 0; i < 3; ++i) {
    raw_socket other{srv.port(), 20000};
    ASSERT_TRUE(other.send(post_request("/plain", "")));
    EXPECT_EQ(other.read_response().body, "plain");
  }
  EXPECT_EQ(rec.code(), errc::ok);
  kept.call();
  auto first = s.read_response();
  EXPECT_EQ(first.status, 200u);
  EXPECT_EQ(first.body, "resumed");
  EXPECT_EQ(s.read_response().body, "plain");
  EXPECT_EQ(rec.resumed.load(), 1);
  EXPECT_EQ(plain.load(), 4);
}

}  // namespace
}  // namespace lather::http
