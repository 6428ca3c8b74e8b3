// lather-bench's harness (tools/lather-bench): N concurrent clients, one connection each, every
// echo verified; with --client-threads the clients run as fibers on a few threads and lather's
// client waits through the wait_socket hook. Counts and outcomes only, no timing.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

#include "../service/local_server.hpp"
#include "harness.hpp"
#include "lather/perf/echo_service.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "multiplex.hpp"

namespace {

using namespace lather;

struct thread_set {
  std::mutex m;
  std::set<std::thread::id> ids;
  std::atomic<std::uint64_t> connections{0};  // opened by all callers, counted when they end
  void note() {
    std::lock_guard lock(m);
    ids.insert(std::this_thread::get_id());
  }
};

class echo_caller final : public bench::caller {
 public:
  echo_caller(const std::string& url, const client_options& o, thread_set& threads)
      : client_(url, o), threads_(threads) {
    request_.in = perf::make_cxf_seq(2);
  }
  ~echo_caller() override {
    threads_.connections += client_.transport().get_stats().connections_opened;
  }
  void call(std::int32_t id) override {
    threads_.note();
    request_.id = id;
    client_.call("echoComplexTypeDoc", request_, response_);
    if (response_.idout != id || !(response_.return_ == request_.in))
      throw std::runtime_error("wrong echo");
  }

 private:
  client client_;
  thread_set& threads_;
  perf::echoComplexTypeDoc request_;
  perf::echoComplexTypeDocResponse response_;
};

bench::run_options counted_run(unsigned clients, unsigned client_threads, unsigned calls) {
  bench::run_options o;
  o.thread_counts = {clients};
  o.count = calls;
  o.warmup_seconds = 0;
  o.guard_calls = 1;
  o.client_threads = client_threads;
  o.json = true;
  return o;
}

class bench_harness : public ::testing::Test {
 protected:
  void SetUp() override {
    perf::add_doc_echo_operations(doc_);
    server_options o;
    o.threads = 2;
    o.max_connections = 4096;
    srv_.emplace("/perf", doc_, o);
  }
  void TearDown() override { srv_.reset(); }
  std::string url() const { return srv_->url("/perf"); }

  /// Runs `clients` clients of `calls` timed calls each; returns the result.
  bench::run_result run(unsigned clients, unsigned client_threads, unsigned calls,
                        thread_set& threads) {
    client_options co;
    co.max_connections = 1;
    if (client_threads > 0) co.wait_socket = bench::wait_socket;
    auto results = bench::run_benchmark(counted_run(clients, client_threads, calls), [&] {
      return std::make_unique<echo_caller>(url(), co, threads);
    });
    EXPECT_EQ(results.size(), 1u);
    return results.at(0);
  }

  service doc_{"PerfService", std::string(perf::service_ns)};
  std::optional<lather_test::local_server> srv_;
};

TEST_F(bench_harness, thousand_clients_multiplexed_on_two_threads_each_on_its_own_connection) {
  thread_set threads;
  bench::run_result r = run(1024, 2, 4, threads);
  EXPECT_EQ(r.errors, 0u);
  EXPECT_EQ(r.invocations, 1024u * 4);
  EXPECT_EQ(r.latency.count(), 1024u * 4);
  for (const auto& t : r.per_thread) EXPECT_EQ(t.invocations, 4u);
  EXPECT_EQ(threads.ids.size(), 2u);             // every call ran on one of the two client threads
  EXPECT_EQ(threads.connections.load(), 1024u);  // one connection per client
}

TEST_F(bench_harness, one_thread_per_client_by_default) {
  thread_set threads;
  bench::run_result r = run(32, 0, 3, threads);
  EXPECT_EQ(r.errors, 0u);
  EXPECT_EQ(r.invocations, 32u * 3);
  EXPECT_EQ(threads.ids.size(), 32u);
}

// A server that accepts and never answers: each fiber's wait ends at its deadline with the
// client's timeout error instead of hanging the loop; the other fibers are not held up.
TEST(bench_multiplex, silent_server_times_out_every_fiber) {
  int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(::listen(listener, 64), 0);
  socklen_t len = sizeof a;
  ASSERT_EQ(::getsockname(listener, reinterpret_cast<sockaddr*>(&a), &len), 0);
  const std::string url = "http://127.0.0.1:" + std::to_string(ntohs(a.sin_port)) + "/perf";

  client_options co;
  co.max_connections = 1;
  co.io_timeout = std::chrono::milliseconds(200);
  co.wait_socket = bench::wait_socket;
  thread_set threads;
  bench::run_options o = counted_run(6, 1, 1);
  o.guard_calls = 0;
  auto results =
      bench::run_benchmark(o, [&] { return std::make_unique<echo_caller>(url, co, threads); });
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].invocations, 0u);
  EXPECT_EQ(results[0].errors, 6u);
  for (const auto& t : results[0].per_thread) {
    ASSERT_EQ(t.error_samples.size(), 1u);
    EXPECT_NE(t.error_samples[0].find("timed out"), std::string::npos) << t.error_samples[0];
  }
  ::close(listener);
}

// The loop's registration is edge-triggered: a descriptor that became readable while its fiber
// waited for something else (here a flag) raised its edge then. A later wait on it must still
// end at once (lather's client may wait before its first receive of a response, and a peer's
// close is such an edge), not at its deadline.
TEST(bench_multiplex, a_wait_sees_readiness_that_came_while_its_fiber_was_busy) {
  int fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds), 0);
  std::atomic<bool> reader_busy{false}, written{false};
  bool first_wait = false, second_wait = false;
  char first = 0;
  bench::fiber_loop loop;
  loop.spawn([&] {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    first_wait = bench::wait_socket(fds[0], false, deadline);  // registers; ends at 'a'
    EXPECT_EQ(::read(fds[0], &first, 1), 1);
    reader_busy = true;
    bench::fiber_loop::wait_for(written);  // the edge of 'b' is reported meanwhile
    second_wait = bench::wait_socket(fds[0], false, deadline);
  });
  loop.spawn([&] {
    EXPECT_EQ(::write(fds[1], "a", 1), 1);
    bench::fiber_loop::wait_for(reader_busy);
    EXPECT_EQ(::write(fds[1], "b", 1), 1);
    written = true;
  });
  loop.run();
  EXPECT_TRUE(first_wait);
  EXPECT_EQ(first, 'a');
  EXPECT_TRUE(second_wait) << "the readiness that came during the flag wait was lost";
  char second = 0;
  EXPECT_EQ(::read(fds[0], &second, 1), 1);
  EXPECT_EQ(second, 'b');
  ::close(fds[0]);
  ::close(fds[1]);
}

}  // namespace
