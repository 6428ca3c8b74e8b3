// Allocation failures on the server side: for every N, the Nth operator new a server thread
// makes during a call throws std::bad_alloc. The call must end cleanly (a SOAP fault / HTTP
// 500, or the connection closed), the server must then answer the next call normally, and
// once server and client are gone every allocation made since must have been freed. Each N
// runs on a fresh server, so its first call walks the cold path (connection, buffers, stacks,
// pooled exchange and request objects), where a warm call would allocate nothing at all.
#include <gtest/gtest.h>

#include <cstdio>
#include <new>
#include <optional>
#include <string>
#include <thread>

#include "failing_new.hpp"
#include "lather/http/error.hpp"
#include "lather/perf/echo_service.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "lather/soap/fault.hpp"

namespace {

using namespace lather;

/// A server that stopped answering fails the test in seconds, not after the default 30 s.
client_options quick_client() {
  client_options co;
  co.io_timeout = std::chrono::seconds{5};
  co.call_timeout = std::chrono::seconds{10};
  return co;
}

enum class outcome { answered, fault, closed };

struct fault_sweep_result {
  int points = 0;  // values of N tried whose failure was injected
  int answered = 0, faults = 0, closed = 0;
};

class alloc_fault : public ::testing::Test {
 protected:
  void SetUp() override {
    lather_test::exempt_this_thread();
    perf::add_doc_echo_operations(doc_);
    perf::add_rpc_echo_operations(rpc_);
  }

  /// One call on a fresh server with the Nth server-side allocation failing (n = 0: none),
  /// then a normal call on a new connection, which must succeed. Returns the first call's
  /// outcome; `injected` tells whether the Nth allocation happened at all.
  template <class Call>
  outcome call_with_failure(long n, bool& injected, Call&& call) {
    server_options o;
    o.address = "127.0.0.1";
    o.port = 0;
    o.threads = 1;
    o.spin_budget = std::chrono::microseconds{0};
    o.error_log = {};  // the injected failures are expected
    server srv{o};
    srv.mount("/doc", doc_);
    srv.mount("/rpc", rpc_);
    srv.start();
    const std::string base = "http://127.0.0.1:" + std::to_string(srv.port());
    const long before = lather_test::failures_injected();
    outcome first = outcome::answered;
    lather_test::fail_allocation(n);
    try {
      call(base);
    } catch (const soap::fault_error& e) {
      EXPECT_EQ(e.get().code, soap::fault_code::receiver) << "N=" << n;
      first = outcome::fault;
    } catch (const client_error& e) {
      // The HTTP layer's own answer when the SOAP layer could not write a fault.
      EXPECT_NE(std::string_view(e.what()).find("HTTP 500"), std::string_view::npos) << e.what();
      first = outcome::fault;
    } catch (const http::error&) {
      first = outcome::closed;
    }
    lather_test::fail_allocation(0);
    injected = lather_test::failures_injected() != before;
    if (!injected) {
      EXPECT_EQ(first, outcome::answered) << "N=" << n;
    }
    // The server goes on serving.
    EXPECT_NO_THROW(call(base)) << "the call after the failure, N=" << n;
    srv.stop();
    return first;
  }

  /// Sweeps N from 1 until a call makes fewer than N allocations; every iteration must free
  /// everything it allocated once its server is gone.
  template <class Call>
  fault_sweep_result sweep(Call&& call) {
    bool injected = false;
    call_with_failure(0, injected, call);  // lazily made statics (resolver, locale, ...)
    call_with_failure(0, injected, call);
    fault_sweep_result r;
    for (long n = 1; n < 20'000; ++n) {
      const long live_before = lather_test::live_allocations();
      const outcome o = call_with_failure(n, injected, call);
      EXPECT_EQ(lather_test::live_allocations(), live_before) << "allocations leaked with N=" << n;
      if (!injected) break;
      ++r.points;
      r.answered += o == outcome::answered;
      r.faults += o == outcome::fault;
      r.closed += o == outcome::closed;
      if (::testing::Test::HasFailure()) break;  // one failing N tells the story
    }
    std::printf("%d allocation failures injected: %d faults, %d closed, %d answered anyway\n",
                r.points, r.faults, r.closed, r.answered);
    return r;
  }

  service doc_{"PerfService", std::string(perf::service_ns), [] {
                 service_options o;
                 o.envelope_namespaces = perf::envelope_namespaces();
                 return o;
               }()};
  service rpc_{"PerfRpcService", std::string(perf::service_ns)};
};

TEST_F(alloc_fault, EveryAllocationOfADocumentLiteralCallMayFail) {
  const fault_sweep_result r = sweep([](const std::string& base) {
    client_options co = quick_client();
    co.envelope_namespaces = perf::envelope_namespaces();
    client c{base + "/doc", co};
    perf::echoComplexTypeDoc request;
    request.in = perf::make_cxf_seq(3);
    request.id = 7;
    const auto response = c.call<perf::echoComplexTypeDocResponse>("echoComplexTypeDoc", request);
    if (response.idout != 7 || !(response.return_ == request.in))
      throw std::runtime_error("wrong echo");
  });
  EXPECT_GT(r.points, 10);
  EXPECT_GT(r.faults, 0);
}

TEST_F(alloc_fault, EveryAllocationOfAnRpcLiteralCallMayFail) {
  const fault_sweep_result r = sweep([](const std::string& base) {
    client c{base + "/rpc", quick_client()};
    perf::echoStringRPC request;
    request.in = std::string(5000, 'x');  // over the chunking threshold: a streamed response
    call_options rpc;
    rpc.style = soap::style::rpc_literal;
    const auto response = c.call<perf::echoStringRPCResponse>("echoStringRPC", request, rpc);
    if (response.out != request.in) throw std::runtime_error("wrong echo");
  });
  EXPECT_GT(r.points, 10);
}

// The nothrow forms are replaced with the others: a nothrow allocation is counted, an injected
// failure makes it return null, and its memory goes back through the same free() (under ASan a
// nothrow new left to the runtime was an alloc-dealloc mismatch at the first delete).
TEST(failing_new, NothrowNewIsCountedAndFailsWithNull) {
  std::thread{[] {
    const long live_before = lather_test::live_allocations();
    void* single = ::operator new(16, std::nothrow);
    void* array = ::operator new[](16, std::nothrow);
    ASSERT_NE(single, nullptr);
    ASSERT_NE(array, nullptr);
    EXPECT_EQ(lather_test::live_allocations(), live_before + 2);
    ::operator delete(single, std::nothrow);
    ::operator delete[](array);
    EXPECT_EQ(lather_test::live_allocations(), live_before);
    lather_test::fail_allocation(1);
    EXPECT_EQ(::operator new(16, std::nothrow), nullptr);
    lather_test::fail_allocation(1);
    EXPECT_EQ(::operator new[](16, std::nothrow), nullptr);
    EXPECT_EQ(lather_test::live_allocations(), live_before);
  }}.join();
}

}  // namespace
