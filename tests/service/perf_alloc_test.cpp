// The whole call path — HTTP, SOAP envelope, dispatch, binding, handler, response — makes no
// heap allocation per call once warm (issue #7), on the server and in the client:
// lather-perf-server's operations in-process, called over one keep-alive connection by
// lather's own client. The client runs on the test's thread, the server on its own worker
// threads, so allocations are told apart by the thread that makes them.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "../support/alloc_counter.hpp"
#include "lather/perf/echo_service.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "local_server.hpp"

namespace {

using namespace lather;

constexpr int warm_up_calls = 200;
constexpr int counted_calls = 1000;

class perf_call_allocations : public ::testing::Test {
 protected:
  void SetUp() override {
    perf::add_doc_echo_operations(doc_);
    server_options o;
    o.threads = 1;
    srv_.emplace("/perf", doc_, o);
  }
  void TearDown() override { srv_.reset(); }
  std::string url() const { return srv_->url("/perf"); }

  struct per_call {
    double server, client;
  };
  /// Allocations per call over `counted_calls` calls, after a warm-up.
  template <class Call>
  per_call allocations_per_call(Call&& call) {
    for (int i = 0; i < warm_up_calls; ++i) call(i);
    const std::uint64_t all_before = test::allocations();
    const std::uint64_t client_before = test::thread_allocations();
    for (int i = 0; i < counted_calls; ++i) call(warm_up_calls + i);
    const std::uint64_t client = test::thread_allocations() - client_before;
    const std::uint64_t server = test::allocations() - all_before - client;
    return {double(server) / counted_calls, double(client) / counted_calls};
  }

  /// Allocations per echoComplexTypeDoc call at PacketSize 1 over one keep-alive connection
  /// (as each lather-bench thread has), every echo checked.
  per_call echo_complex_type_doc(soap::version v) {
    client_options co;
    co.max_connections = 1;
    co.version = v;
    co.envelope_namespaces = perf::envelope_namespaces();
    client c{url(), co};
    perf::echoComplexTypeDoc request;
    request.in = perf::make_cxf_seq(1);
    perf::echoComplexTypeDocResponse response;
    int failures = 0;
    const per_call n = allocations_per_call([&](int id) {
      request.id = id;
      c.call("echoComplexTypeDoc", request, response);
      failures += response.idout != id || !(response.return_ == request.in);
    });
    EXPECT_EQ(failures, 0);
    return n;
  }

  // As lather-perf-server: the items' QName namespace declared once on the Envelope.
  service doc_{"PerfService", std::string(perf::service_ns), [] {
                 service_options o;
                 o.envelope_namespaces = perf::envelope_namespaces();
                 return o;
               }()};
  std::optional<lather_test::local_server> srv_;
};

TEST_F(perf_call_allocations, EchoComplexTypeDocPacketSize1AllocatesNothingPerCallOnEitherSide) {
  const per_call n = echo_complex_type_doc(soap::version::soap11);
  std::printf(
      "heap allocations per echoComplexTypeDoc call (PacketSize 1): server %.3f, client %.3f\n",
      n.server, n.client);
  EXPECT_EQ(n.server, 0.0);
  EXPECT_EQ(n.client, 0.0);
}

// 64 clients taking turns on one thread (as lather-bench's fibers do, one connection each):
// the client's reader and writer are lent per call from the thread's pool and the server's
// request buffers per request from its worker's pool, so still nothing is allocated per call
// and every echo comes back to its own client.
TEST_F(perf_call_allocations, ClientsTakingTurnsOnOneThreadAllocateNothingPerCall) {
  client_options co;
  co.max_connections = 1;
  co.envelope_namespaces = perf::envelope_namespaces();
  std::vector<std::unique_ptr<client>> clients;
  for (int i = 0; i < 64; ++i) clients.push_back(std::make_unique<client>(url(), co));
  perf::echoComplexTypeDoc request;
  request.in = perf::make_cxf_seq(1);
  perf::echoComplexTypeDocResponse response;
  int failures = 0;
  const per_call n = allocations_per_call([&](int id) {
    request.id = id;
    clients[static_cast<std::size_t>(id) % clients.size()]->call("echoComplexTypeDoc", request,
                                                                 response);
    failures += response.idout != id || !(response.return_ == request.in);
  });
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(n.server, 0.0);
  EXPECT_EQ(n.client, 0.0);
}

TEST_F(perf_call_allocations, EchoStringDocAllocatesNothingPerCallOnEitherSide) {
  client_options co;
  co.max_connections = 1;
  client c{url(), co};
  perf::echoStringDoc request;
  request.in = perf::make_cxf_string(1);
  perf::echoStringDocResponse response;
  int failures = 0;
  const per_call n = allocations_per_call([&](int) {
    c.call("echoStringDoc", request, response);
    failures += response.out != request.in;
  });
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(n.server, 0.0);
  EXPECT_EQ(n.client, 0.0);
}

TEST_F(perf_call_allocations, Soap12CallAllocatesNothingPerCallOnEitherSide) {
  const per_call n = echo_complex_type_doc(soap::version::soap12);
  EXPECT_EQ(n.server, 0.0);
  EXPECT_EQ(n.client, 0.0);
}

}  // namespace
