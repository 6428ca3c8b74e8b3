// lather-bench — a CXF-compatible client harness for the performance contract (perf.wsdl).
// Works against any server of that WSDL (lather's, gSOAP's, CXF's, spyne's). See
// docs/benchmarks.md for the timing rules and the meaning of each figure.
#include <signal.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "descriptor_limit.hpp"
#include "generated_caller.hpp"
#include "harness.hpp"
#include "lather/http/error.hpp"
#include "lather/perf/echo_service.hpp"
#include "lather/perf/types.hpp"
#include "lather/service/client.hpp"
#include "multiplex.hpp"
#include "options.hpp"

namespace {

using namespace lather;

http::tls_options tls_settings(const bench::options& o) {
  http::tls_options t;
  t.ca_file = o.ca_file;
  t.verify_peer = !o.insecure;
  t.session_resumption = o.resume;
  return t;
}

client_options make_client_options(const bench::options& o) {
  client_options c;
  c.version = o.soap12 ? soap::version::soap12 : soap::version::soap11;
  c.max_connections = 1;  // one connection per thread, as each CXF TestRunner has its own port
  c.request_chunking.threshold = o.chunking_threshold;
  c.request_chunking.never = o.chunking_never;
  const auto timeout = std::chrono::milliseconds(static_cast<long long>(o.timeout_s * 1000));
  c.call_timeout = timeout;
  c.io_timeout = timeout;
  c.connect_timeout = std::min(timeout, std::chrono::milliseconds(10'000));
  if (o.run.client_threads > 0) c.wait_socket = bench::wait_socket;  // suspend the fiber
  if (o.spin_us >= 0) c.spin_budget = std::chrono::microseconds(o.spin_us);
  if (o.receive_buffer >= 0) c.receive_buffer = static_cast<std::size_t>(o.receive_buffer);
  c.envelope_namespaces = perf::envelope_namespaces();
  if (o.new_connections) c.idle_expiry = std::chrono::milliseconds(0);  // no connection reused
  c.tls = tls_settings(o);
  return c;
}

class failure : public std::exception {
 public:
  explicit failure(std::string what) : what_(std::move(what)) {}
  const char* what() const noexcept override { return what_.c_str(); }

 private:
  std::string what_;
};

// One copy per process and packet size of what every client sends (see complex_caller).
std::shared_ptr<const perf::NestedComplexTypeSeq> shared_sent(unsigned packet_size) {
  static std::mutex m;
  static std::map<unsigned, std::shared_ptr<const perf::NestedComplexTypeSeq>> copies;
  std::lock_guard lock(m);
  auto& copy = copies[packet_size];
  if (!copy)
    copy = std::make_shared<const perf::NestedComplexTypeSeq>(
        perf::make_cxf_seq(static_cast<int>(packet_size)));
  return copy;
}

}  // namespace

// echoComplexTypeDoc's request with its `in` shared by every client of the process, as CXF's
// Client sends one NestedComplexTypeSeq from all its threads (and gsoap-perf-client one item):
// the same bytes on the wire as perf::echoComplexTypeDoc. Outside the anonymous namespace: a
// meta member the binding reads only for some types would warn as unused in there (clang).
namespace lather::bench {
struct shared_request {
  std::shared_ptr<const perf::NestedComplexTypeSeq> in;
  std::int32_t id = 0;
};
}  // namespace lather::bench

// The element and fields of perf::echoComplexTypeDoc, named from its own metadata.
template <>
struct lather::meta<lather::bench::shared_request> {
  using T = lather::bench::shared_request;
  using wire = lather::meta<lather::perf::echoComplexTypeDoc>;
  static constexpr std::string_view name = wire::name, ns = wire::ns;
  static constexpr bool anonymous = wire::anonymous;
  static constexpr auto fields = std::tuple{element(std::get<0>(wire::fields).name, &T::in),
                                            element(std::get<1>(wire::fields).name, &T::id)};
};

namespace {

// echoComplexTypeDoc. Throughput runs: the request's data is built once per process and shared
// by every client (CXF's Client sends one object from all its threads); only the id is each
// client's. With 1,024 clients a copy per client was cold at each call (~3 of the 18 extra
// L2-sized misses per call on the client against 100 clients, cachegrind). Each echo is verified
// at once against that shared copy. The response object is the client's own and reused, so a
// call allocates nothing on the client once warmed up (a fresh one per call measured ~2% slower).
// A split of the Axis table (bench::split_caller_factory): one slot (request and response) per
// call of a window, the requests holding the window's items in slices; call k uses slot k mod
// C, and check() verifies each slot's echo against its own request after the window.
class complex_caller final : public bench::caller {
 public:
  complex_caller(const bench::options& o, unsigned packet_size)
      : client_(o.url, make_client_options(o)),
        verify_(o.verify),
        sent_(shared_sent(packet_size)),
        slots_(1) {
    slots_[0].request.in = sent_;
  }
  complex_caller(const bench::options& o, unsigned items, unsigned calls)
      : client_(o.url, make_client_options(o)), verify_(o.verify), sent_(nullptr), slots_(calls) {
    const auto all = perf::make_cxf_seq(static_cast<int>(items));
    const auto per = static_cast<std::ptrdiff_t>(items / calls);
    auto from = all.item.begin();
    for (slot& s : slots_) {
      auto slice = std::make_shared<perf::NestedComplexTypeSeq>();
      slice->item.assign(from, from + per);
      s.request.in = std::move(slice);
      from += per;
    }
  }
  void call(std::int32_t id) override {
    slot& s = slots_[next_];
    next_ = next_ + 1 == slots_.size() ? 0 : next_ + 1;
    s.request.id = id;
    client_.call("echoComplexTypeDoc", s.request, s.response);
    if (s.response.idout != id)
      throw failure("wrong id echoed: sent " + std::to_string(id) + ", got " +
                    std::to_string(s.response.idout));
    if (verify_ && sent_) verify(s, *sent_);
  }
  void check() override {
    if (verify_ && !sent_)
      for (const slot& s : slots_) verify(s, *s.request.in);
  }

 private:
  struct slot {
    bench::shared_request request;
    perf::echoComplexTypeDocResponse response;
  };
  static void verify(const slot& s, const perf::NestedComplexTypeSeq& sent) {
    if (!(s.response.return_ == sent))
      throw failure("echoed NestedComplexTypeSeq differs from the one sent (" +
                    std::to_string(s.response.return_.item.size()) + " of " +
                    std::to_string(sent.item.size()) + " items back)");
  }

  client client_;
  bool verify_;
  // Throughput runs: what every client sends (its slot's request holds it too); each call's
  // echo is verified against it.
  std::shared_ptr<const perf::NestedComplexTypeSeq> sent_;
  std::vector<slot> slots_;
  std::size_t next_ = 0;
};

class string_caller final : public bench::caller {
 public:
  string_caller(const bench::options& o, unsigned packet_size)
      : client_(o.url, make_client_options(o)) {
    request_.in = perf::make_cxf_string(static_cast<int>(packet_size));
  }
  void call(std::int32_t) override {
    client_.call("echoStringDoc", request_, response_);
    if (response_.out != request_.in)
      throw failure("echoed string differs (" + std::to_string(response_.out.size()) + " of " +
                    std::to_string(request_.in.size()) + " characters back)");
  }

 private:
  client client_;
  perf::echoStringDoc request_;
  perf::echoStringDocResponse response_;
};

class base64_caller final : public bench::caller {
 public:
  explicit base64_caller(const bench::options& o) : client_(o.url, make_client_options(o)) {
    request_.in = perf::make_cxf_base64();
  }
  void call(std::int32_t) override {
    client_.call("echoBase64Doc", request_, response_);
    if (!(response_.out == request_.in))
      throw failure("echoed base64Binary differs (" + std::to_string(response_.out.bytes.size()) +
                    " of " + std::to_string(request_.in.bytes.size()) + " bytes back)");
  }

 private:
  client client_;
  perf::echoBase64Doc request_;
  perf::echoBase64DocResponse response_;
};

// --wait-ready: poll GET ?wsdl until the server answers (connection refused -> retry).
bool wait_ready(const bench::options& o) {
  const auto until = std::chrono::steady_clock::now() +
                     std::chrono::milliseconds(static_cast<long long>(o.wait_ready_s * 1000));
  for (;;) {
    try {
      http::client_options c;
      c.connect_timeout = std::chrono::milliseconds(1000);
      c.call_timeout = std::chrono::milliseconds(5000);
      c.tls = tls_settings(o);
      http::client probe{o.url, c};
      probe.get("?wsdl");
      return true;
    } catch (const std::exception&) {
      if (std::chrono::steady_clock::now() >= until) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));  // polling interval, not sync
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const bench::options o = bench::parse_options(argc, argv);
  signal(SIGPIPE, SIG_IGN);
  tools::raise_descriptor_limit();  // one socket per client
  if (o.wait_ready_s > 0 && !wait_ready(o)) {
    std::fprintf(stderr, "lather-bench: %s did not answer within %.0f s\n", o.url.c_str(),
                 o.wait_ready_s);
    return 2;
  }
  bench::caller_factory make = [&o]() -> std::unique_ptr<bench::caller> {
    if (o.run.operation == "echoStringDoc")
      return std::make_unique<string_caller>(o, o.packet_size);
    if (o.run.operation == "echoBase64Doc") return std::make_unique<base64_caller>(o);
    if (o.generated)
      return bench::make_generated_caller(o.url, make_client_options(o), o.packet_size, o.verify);
    return std::make_unique<complex_caller>(o, o.packet_size);
  };
  try {
    if (!o.split.calls.empty()) {
      const auto r = bench::run_splits(o.run, o.split, [&o](unsigned items, unsigned calls) {
        return std::make_unique<complex_caller>(o, items, calls);
      });
      bench::print_splits(o.run, o.split, r);
      return r.errors > 0 ? 1 : 0;
    }
    if (!o.run.json)
      std::printf("lather-bench: %s %s%s, PacketSize %u\n", o.url.c_str(), o.run.operation.c_str(),
                  o.generated ? " (generated proxy)" : "", o.packet_size);
    auto results = bench::run_benchmark(o.run, make);
    for (const auto& r : results)
      if (r.errors > 0) return 1;
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lather-bench: no call succeeded: %s\n", e.what());
    return 2;
  }
}
