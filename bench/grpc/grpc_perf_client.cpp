// grpc-perf-client — gRPC sync unary client sending the CXF perf payload, a benchmark peer.
//
//   grpc-perf-client --port P [--threads N] [--time S] [--warmup S] [--packet-size K]
//
// One channel (own TCP connection: local subchannel pool) per thread, like CXF's one proxy per
// thread. All threads warm up for --warmup seconds, then count the calls completed within the
// --time window; every reply is checked (idout == id, item count). Prints CXF-style lines and
// one machine-readable "RESULT" line (same fields as gsoap-perf-client).
#include <grpcpp/grpcpp.h>

#include <atomic>
#include <cfloat>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "command_line.hpp"
#include "perf.grpc.pb.h"

namespace {

using clock_type = std::chrono::steady_clock;

struct options {
  int port = -1;
  int threads = 1;
  int time_s = 10;
  int warmup_s = 1;
  int packet_size = 1;
};

options parse_options(int argc, char** argv) {
  options opts;
  lather::tools::command_line cli{
      "grpc-perf-client",
      "gRPC sync unary client sending the CXF perf payload to grpc-perf-server, a benchmark\n"
      "peer: one channel (connection) per thread; prints CXF-style lines and a RESULT line."};
  cli.add_option("--port", opts.port, "grpc-perf-server's port on 127.0.0.1")
      ->type_name("P")
      ->required();
  cli.add_option("--threads", opts.threads, "client threads (default 1)")->type_name("N");
  cli.add_option("--time", opts.time_s, "timed window (default 10)")->type_name("SECONDS");
  cli.add_option("--warmup", opts.warmup_s, "warm-up before timing (default 1)")
      ->type_name("SECONDS");
  cli.add_option("--packet-size", opts.packet_size, "items per request (default 1)")
      ->type_name("K");
  cli.parse_or_exit(argc, argv);
  if (opts.port < 1 || opts.port > 65535) cli.fail("--port must be 1..65535");
  if (opts.threads < 1 || opts.time_s < 1) cli.fail("--threads and --time must be >= 1");
  if (opts.warmup_s < 0 || opts.packet_size < 0)
    cli.fail("--warmup and --packet-size must be >= 0");
  return opts;
}

/// The CXF client's item (shared/bench/cxf-perf/README.md), repeated `packet_size` times.
lather::bench::EchoComplexTypeRequest make_request(int packet_size) {
  std::string bytes(256, '\0');
  for (int i = 0; i < 256; ++i) bytes[static_cast<std::size_t>(i)] = static_cast<char>(i - 128);
  lather::bench::NestedComplexType item;
  item.set_var_string("#12345ABc");
  item.set_var_u_byte(255);
  item.set_var_unsigned_long(13691056728ULL);
  item.set_var_float(FLT_MAX);
  item.mutable_var_q_name()->set_namespace_uri("http://cxf.apache.org");
  item.mutable_var_q_name()->set_local_part("return");
  item.set_var_base64_binary(bytes);
  item.set_var_hex_binary(bytes);
  lather::bench::SimpleStruct* simple = item.mutable_var_struct();
  simple->set_var_float(FLT_MAX);
  simple->set_var_short(32767);
  simple->set_var_string("1234567890!@#$%^&*()abcdefghijk");
  simple->set_var_byte(127);
  simple->set_var_decimal("3.1415926");
  simple->set_var_double(DBL_MAX);
  simple->set_var_date_time(1133568009000LL);  // 2005-12-03T00:00:09Z
  simple->set_var_attr_string("1234567890!@#$%^&*()abcdefghijk");
  item.set_var_enum(lather::bench::RED);

  lather::bench::EchoComplexTypeRequest request;
  for (int i = 0; i < packet_size; ++i) *request.mutable_in()->add_item() = item;
  return request;
}

struct run_state {
  std::atomic<bool> timing{false};
  std::atomic<bool> stop{false};
};

struct thread_result {
  long long timed_calls = 0;
  long long errors = 0;
  double timed_seconds = 0;
  std::string first_error;
};

void run_thread(const options& opts, const run_state& state, int thread_index,
                thread_result& result) {
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);  // one TCP connection per thread
  auto channel = grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(opts.port),
                                           grpc::InsecureChannelCredentials(), args);
  auto stub = lather::bench::PerfService::NewStub(channel);
  lather::bench::EchoComplexTypeRequest request = make_request(opts.packet_size);
  lather::bench::EchoComplexTypeResponse response;
  int id = thread_index * 1'000'000;
  bool counting = false;
  clock_type::time_point start;
  while (!state.stop.load(std::memory_order_relaxed)) {
    if (!counting && state.timing.load(std::memory_order_relaxed)) {
      counting = true;
      start = clock_type::now();
    }
    request.set_id(++id);
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    const grpc::Status status = stub->EchoComplexTypeDoc(&context, request, &response);
    if (status.ok() && response.idout() == id &&
        response.return_().item_size() == opts.packet_size) {
      if (counting) ++result.timed_calls;
    } else {
      ++result.errors;
      if (result.first_error.empty()) {
        result.first_error =
            status.ok() ? "reply did not match the request" : status.error_message();
      }
    }
  }
  if (counting) {
    result.timed_seconds = std::chrono::duration<double>(clock_type::now() - start).count();
  }
}

}  // namespace

int main(int argc, char** argv) {
  const options opts = parse_options(argc, argv);
  run_state state;
  std::vector<thread_result> results(static_cast<std::size_t>(opts.threads));
  std::vector<std::thread> threads;
  threads.reserve(results.size());
  for (int i = 0; i < opts.threads; ++i) {
    threads.emplace_back(run_thread, std::cref(opts), std::cref(state), i,
                         std::ref(results[static_cast<std::size_t>(i)]));
  }
  std::this_thread::sleep_for(std::chrono::seconds(opts.warmup_s));
  state.timing = true;
  std::this_thread::sleep_for(std::chrono::seconds(opts.time_s));
  state.stop = true;
  for (std::thread& thread : threads) thread.join();

  long long calls = 0;
  long long errors = 0;
  double per_thread_rate_sum = 0;
  double latency_sum_ms = 0;
  int measured_threads = 0;
  for (const thread_result& result : results) {
    calls += result.timed_calls;
    errors += result.errors;
    if (result.timed_calls > 0 && result.timed_seconds > 0) {
      per_thread_rate_sum += static_cast<double>(result.timed_calls) / result.timed_seconds;
      latency_sum_ms += result.timed_seconds * 1000.0 / static_cast<double>(result.timed_calls);
      ++measured_threads;
    }
    if (!result.first_error.empty()) {
      std::fprintf(stderr, "grpc-perf-client: %s\n", result.first_error.c_str());
    }
  }
  const double calls_per_s = static_cast<double>(calls) / opts.time_s;
  const double per_thread = measured_threads ? per_thread_rate_sum / measured_threads : 0.0;
  const double mean_latency_ms = measured_threads ? latency_sum_ms / measured_threads : 0.0;
  std::printf("Throughput: EchoComplexTypeDoc %.1f (invocations/sec per thread)\n", per_thread);
  std::printf("Total(%d):  %.1f tps %.3f ms\n", opts.threads, per_thread_rate_sum, mean_latency_ms);
  std::printf(
      "RESULT stack=grpc op=echoComplexTypeDoc threads=%d packet_size=%d calls=%lld "
      "errors=%lld seconds=%d calls_per_s=%.1f per_thread=%.1f mean_ms=%.3f\n",
      opts.threads, opts.packet_size, calls, errors, opts.time_s, calls_per_s, per_thread,
      mean_latency_ms);
  return errors == 0 && calls > 0 ? 0 : 1;
}
