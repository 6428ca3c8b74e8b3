// gsoap-perf-client — gSOAP 2.8 client for the CXF perf DocPortType, as a benchmark peer.
//
//   gsoap-perf-client --url U [--threads N] [--time S | --count N [--windows R]] [--warmup S]
//                     [--packet-size K] [--operation
//                     echoComplexTypeDoc|echoStringDoc|echoBase64Doc]
//                     [--io buffer|store|chunk] [--qname-prefix generated|fixed]
//   gsoap-perf-client --url U --splits C1,C2,... [--items N] [--windows R] [--warmup S] [...]
//   gsoap-perf-client --save-request FILE [--packet-size K] [--qname-prefix generated|fixed]
//
// One gSOAP context (one keep-alive connection) per thread, like CXF's one proxy per thread. All
// threads warm up for --warmup seconds, then count the calls that complete within the --time
// window (or each makes --count timed calls, --windows times in a row: each window's time is
// listed, as lather-bench --windows does); every reply is checked (idout == id and the item
// count, or the echoed text/bytes). --save-request writes the echoComplexTypeDoc request body
// gSOAP sends (id 1) to FILE and exits, for replaying with wrk or curl. --splits is
// lather-bench --splits for gSOAP (compare.sh's Axis table): --items (default 1000) sent as C
// calls of items/C, one context (connection) per split, --windows R interleaved cycles each
// timing one window of every split (forward, then backward); one "SPLIT" line per split. A
// window's responses stay in the context until the window is timed (lather-bench's split
// callers keep theirs too); its requests point at the one item like every call here does.
// Memory is freed after every call (soap_destroy + soap_end; with --splits after every window).
// Prints CXF-style lines and one machine-readable "RESULT" line.
//
// Built a second time against libgsoapssl++ (WITH_OPENSSL) as gsoap-perf-client-tls, for
// https:// URLs: --ca FILE verifies the server (else no verification), --new-connections
// drops keep-alive (a connection, and a TLS handshake, per call), --no-resume drops the
// session gSOAP keeps for resumption before each call; RESULT then adds handshakes= and
// resumed= (handshakes that resumed a session).
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "command_line.hpp"
#include "gsoap_perf_model.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

enum class operation { complex_type, string, base64 };

struct options {
  std::string url;
  int threads = 1;
  int time_s = 10;
  int count = 0;    ///< calls per thread; 0 = time mode
  int windows = 1;  ///< count mode: consecutive timed windows of `count` calls per thread
  int warmup_s = 1;
  int packet_size = 1;
  std::vector<int> splits;  ///< --splits: calls per window of each split (empty: off)
  int items = 1000;         ///< --splits: items per window
  operation op = operation::complex_type;
  int io_mode = SOAP_IO_BUFFER;
  gsoap_qname_prefix qname = gsoap_qname_prefix::as_generated;
  std::string save_request;
  std::string ca_file;           ///< WITH_OPENSSL: verify the server against this CA
  bool new_connections = false;  ///< no keep-alive: a connection per call
  bool resume = true;            ///< WITH_OPENSSL: keep gSOAP's session for resumption
};

options parse_options(int argc, char** argv) {
  options opts;
  std::string op = "echoComplexTypeDoc", io = "buffer", qname = "generated";
  lather::tools::command_line cli{
      "gsoap-perf-client",
      "gSOAP 2.8 calling a server of the CXF performance contract, a benchmark peer (see the\n"
      "header of bench/gsoap/gsoap_perf_client.cpp). Modes:\n"
      "  --url U [--threads N] [--time S | --count N [--windows R]] [--packet-size K] ...\n"
      "  --url U --splits C1,C2,... [--items N] [--windows R] [--warmup S]\n"
      "  --save-request FILE [--packet-size K] [--qname-prefix generated|fixed]"};
  cli.add_option("--url", opts.url, "endpoint, e.g. http://127.0.0.1:8080/perf")->type_name("URL");
  cli.add_option("--threads", opts.threads, "client threads, one connection each (default 1)")
      ->type_name("N");
  cli.add_option("--time", opts.time_s, "timed window (default 10)")->type_name("SECONDS");
  cli.add_option("--count", opts.count, "calls per thread instead of a time window")
      ->type_name("N");
  cli.add_option("--windows", opts.windows,
                 "with --count: R consecutive timed windows per thread;\n"
                 "with --splits: R interleaved cycles (default 1)")
      ->type_name("R");
  cli.add_option("--splits", opts.splits,
                 "lather-bench --splits for gSOAP: --items sent as C calls of\n"
                 "items/C for each C, one connection per split")
      ->type_name("LIST")
      ->delimiter(',')
      ->allow_extra_args(false);
  cli.add_option("--items", opts.items, "items per window with --splits (default 1000)")
      ->type_name("N");
  cli.add_option("--save-request", opts.save_request,
                 "write the echoComplexTypeDoc request body (id 1) to FILE and exit")
      ->type_name("FILE");
  cli.add_option("--warmup", opts.warmup_s, "warm-up before timing (default 1)")
      ->type_name("SECONDS");
  cli.add_option("--packet-size", opts.packet_size, "items per request (default 1)")
      ->type_name("K");
  cli.add_option("--operation", op, "echoComplexTypeDoc (default) | echoStringDoc | echoBase64Doc")
      ->type_name("OP");
  cli.add_option("--io", io, "request framing (default buffer)")->type_name("buffer|store|chunk");
  cli.add_option("--qname-prefix", qname, "how QName values are written (default generated)")
      ->type_name("generated|fixed");
  cli.add_flag("--new-connections", opts.new_connections,
               "no keep-alive: every call on a new connection");
#ifdef WITH_OPENSSL
  cli.add_option("--ca", opts.ca_file, "https: verify the server against this CA")
      ->type_name("FILE");
  cli.add_flag_callback(
      "--no-resume", [&opts] { opts.resume = false; },
      "https: no TLS session resumption (every handshake a full one)");
#endif
  cli.parse_or_exit(argc, argv);

  if (op == "echoComplexTypeDoc") {
    opts.op = operation::complex_type;
  } else if (op == "echoStringDoc") {
    opts.op = operation::string;
  } else if (op == "echoBase64Doc") {
    opts.op = operation::base64;
  } else {
    cli.fail("unknown --operation '" + op + "'");
  }
  opts.io_mode = gsoap_perf::parse_io_mode(cli, io);
  opts.qname = gsoap_perf::parse_qname_prefix(cli, qname);
  for (int value : {opts.threads, opts.time_s, opts.count, opts.windows, opts.items, opts.warmup_s,
                    opts.packet_size})
    if (value < 0) cli.fail("counts and times must be >= 0");
  if (!opts.save_request.empty()) return opts;
  if (opts.url.empty()) cli.fail("--url is required");
  if (!opts.splits.empty() && (opts.threads != 1 || opts.count != 0))
    cli.fail("--splits runs one client thread, without --count");
  for (int c : opts.splits)
    if (c < 1 || opts.items % c != 0)
      cli.fail("--splits: " + std::to_string(c) + " does not divide --items " +
               std::to_string(opts.items));
  if (opts.threads < 1 || opts.time_s < 1 || opts.windows < 1)
    cli.fail("--threads, --time and --windows must be >= 1");
  if (opts.windows > 1 && opts.count == 0 && opts.splits.empty())
    cli.fail("--windows needs --count or --splits");
  return opts;
}

/// Shared phase flags: warm-up, then the timed window, then stop.
struct run_state {
  std::atomic<bool> timing{false};
  std::atomic<bool> stop{false};
};

struct thread_result {
  long long handshakes = 0, resumed = 0;  ///< TLS, counted by the connect hook
  long long timed_calls = 0;
  long long timed_errors = 0;
  long long errors = 0;
  double timed_seconds = 0;
  std::vector<double> window_seconds;  ///< count mode: each consecutive window
  std::string first_error;
};

/// One call of the configured operation; true if the reply came back and checks out.
class caller {
 public:
  // keep_responses (--splits): the responses stay in the context until end_window(), as
  // lather-bench's split callers keep theirs.
  caller(const options& opts, soap* ctx, int packet_size, bool keep_responses = false)
      : opts_(opts),
        ctx_(ctx),
        packet_size_(packet_size),
        keep_responses_(keep_responses),
        payload_(opts.qname) {
    payload_.fill(seq_, packet_size);
    complex_request_.in = &seq_;
    string_request_.in = gsoap_perf::cxf_payload::echo_string(packet_size);
    base64_request_.in.__ptr = const_cast<unsigned char*>(payload_.echo_bytes().data());
    base64_request_.in.__size = static_cast<int>(payload_.echo_bytes().size());
  }

  /// One call; on failure, the first failure's description goes into `first_error`.
  bool call(int id, std::string& first_error) {
    const char* url = opts_.url.c_str();
    bool ok = false;
    switch (opts_.op) {
      case operation::complex_type: {
        complex_request_.id = id;
        _x1__echoComplexTypeDocResponse response;
        ok = soap_call___tns__echoComplexTypeDoc(ctx_, url, "", &complex_request_, response) ==
                 SOAP_OK &&
             response.idout == id && response.return_ != nullptr &&
             response.return_->item.size() == static_cast<std::size_t>(packet_size_);
        break;
      }
      case operation::string: {
        _x1__echoStringDocResponse response;
        ok = soap_call___tns__echoStringDoc(ctx_, url, "", &string_request_, response) == SOAP_OK &&
             response.out == string_request_.in;
        break;
      }
      case operation::base64: {
        _x1__echoBase64DocResponse response;
        ok = soap_call___tns__echoBase64Doc(ctx_, url, "", &base64_request_, response) == SOAP_OK &&
             response.out.__size == base64_request_.in.__size &&
             std::memcmp(response.out.__ptr, base64_request_.in.__ptr,
                         static_cast<std::size_t>(response.out.__size)) == 0;
        break;
      }
    }
    if (!ok && first_error.empty()) {
      // Read the fault before soap_end frees it.
      char message[512] = "reply did not match the request";
      if (ctx_->error != SOAP_OK) soap_sprint_fault(ctx_, message, sizeof message);
      first_error = message;
    }
    if (!keep_responses_) end_window();
    return ok;
  }

  /// Frees what the calls since the last end_window() received.
  void end_window() {
    soap_destroy(ctx_);
    soap_end(ctx_);
  }

 private:
  const options& opts_;
  soap* ctx_;
  int packet_size_;
  bool keep_responses_;
  gsoap_perf::cxf_payload payload_;
  x1__NestedComplexTypeSeq seq_;
  _x1__echoComplexTypeDoc complex_request_;
  _x1__echoStringDoc string_request_;
  _x1__echoBase64Doc base64_request_;
};

#ifdef WITH_OPENSSL
// gSOAP's own connect (TCP and, for https, the TLS handshake), then the handshake counted.
SOAP_SOCKET (*gsoap_open)(soap*, const char*, const char*, int) = nullptr;

SOAP_SOCKET counting_open(soap* ctx, const char* endpoint, const char* host, int port) {
  const SOAP_SOCKET socket = gsoap_open(ctx, endpoint, host, port);
  if (soap_valid_socket(socket) && ctx->ssl && ctx->user) {
    auto& result = *static_cast<thread_result*>(ctx->user);
    ++result.handshakes;
    if (SSL_session_reused(ctx->ssl)) ++result.resumed;
  }
  return socket;
}
#endif

// One gSOAP context: a keep-alive connection unless --new-connections.
void init_context(const options& opts, soap& ctx, thread_result* result = nullptr) {
  const int keep_alive = opts.new_connections ? 0 : SOAP_IO_KEEPALIVE;
  soap_init2(&ctx, keep_alive | opts.io_mode, keep_alive | opts.io_mode);
  soap_set_namespaces(&ctx, gsoap_perf::namespace_table(opts.qname));
  // No recv/send timeouts: they make gSOAP select() before every socket call (the harness that
  // runs this client bounds its run time from outside).
  ctx.connect_timeout = 10;
#ifdef WITH_OPENSSL
  if (opts.url.rfind("https:", 0) == 0) {
    const bool verify = !opts.ca_file.empty();
    if (soap_ssl_client_context(
            &ctx,
            // The CA given, not also the system's ~140 (loaded per context, serialised by
            // OpenSSL 3's decoder locks: 16 threads took seconds to make their first call).
            (verify ? SOAP_SSL_REQUIRE_SERVER_AUTHENTICATION : SOAP_SSL_NO_AUTHENTICATION) |
                SOAP_SSL_NO_DEFAULT_CA_PATH | SOAP_TLSv1_2 | SOAP_TLSv1_3,
            nullptr, nullptr, verify ? opts.ca_file.c_str() : nullptr, nullptr,
            nullptr) != SOAP_OK) {
      soap_print_fault(&ctx, stderr);
      std::exit(2);
    }
    ctx.user = result;
    static std::once_flag once;
    std::call_once(once, [&ctx] { gsoap_open = ctx.fopen; });
    ctx.fopen = &counting_open;
  }
#else
  (void)result;
#endif
}

/// --no-resume: the session gSOAP kept from the last connection is dropped before a call.
void forget_session([[maybe_unused]] const options& opts, [[maybe_unused]] soap& ctx) {
#ifdef WITH_OPENSSL
  if (!opts.resume && ctx.session) {
    SSL_SESSION_free(ctx.session);
    ctx.session = nullptr;
  }
#endif
}

void run_thread(const options& opts, const run_state& state, int thread_index,
                thread_result& result) {
  soap ctx;
  init_context(opts, ctx, &result);
  {
    caller client(opts, &ctx, opts.packet_size);
    int id = thread_index * 1'000'000;
    bool counting = false;
    clock_type::time_point start, window_start;
    int window_calls = 0;
    result.window_seconds.reserve(static_cast<std::size_t>(opts.windows));
    while (!state.stop.load(std::memory_order_relaxed)) {
      if (!counting && state.timing.load(std::memory_order_relaxed)) {
        counting = true;
        start = window_start = clock_type::now();
      }
      if (counting && opts.count > 0 && window_calls >= opts.count) {
        const clock_type::time_point now = clock_type::now();
        result.window_seconds.push_back(std::chrono::duration<double>(now - window_start).count());
        if (static_cast<int>(result.window_seconds.size()) >= opts.windows) break;
        window_start = now;
        window_calls = 0;
      }
      forget_session(opts, ctx);
      if (client.call(++id, result.first_error)) {
        if (counting) ++result.timed_calls;
      } else {
        ++result.errors;
        if (counting) ++result.timed_errors;
        soap_closesock(&ctx);
      }
      if (counting) ++window_calls;
    }
    if (counting) {
      result.timed_seconds = std::chrono::duration<double>(clock_type::now() - start).count();
    }
  }
  soap_destroy(&ctx);
  soap_end(&ctx);
  soap_done(&ctx);
}

const char* operation_name(operation op) {
  switch (op) {
    case operation::complex_type:
      return "echoComplexTypeDoc";
    case operation::string:
      return "echoStringDoc";
    case operation::base64:
      return "echoBase64Doc";
  }
  return "?";
}

// --splits: one thread, one context and caller per split; prints a SPLIT line per split.
int run_splits(const options& opts) {
  struct split {
    soap ctx;
    std::unique_ptr<caller> client;
    std::vector<double> window_ms;
  };
  std::vector<split> splits(opts.splits.size());
  for (std::size_t s = 0; s < splits.size(); ++s) {
    init_context(opts, splits[s].ctx);
    splits[s].client =
        std::make_unique<caller>(opts, &splits[s].ctx, opts.items / opts.splits[s], true);
  }
  long long errors = 0;
  std::string first_error;
  int id = 0;
  // One call on split s's connection; a failure is counted and the connection closed.
  auto call = [&](std::size_t s) {
    if (splits[s].client->call(++id, first_error)) return true;
    ++errors;
    soap_closesock(&splits[s].ctx);
    return false;
  };
  auto window = [&](std::size_t s) {
    bool ok = true;
    for (int i = 0; i < opts.splits[s]; ++i) ok = call(s) && ok;
    return ok;
  };
  // Untimed, after each window: frees the window's responses.
  auto end_window = [&](std::size_t s) { splits[s].client->end_window(); };
  const std::size_t n = splits.size();
  auto split_at = [n](int cycle, std::size_t i) { return cycle % 2 ? n - 1 - i : i; };
  for (std::size_t s = 0; s < n; ++s) {  // connect
    call(s);
    end_window(s);
  }
  const auto warm_until = clock_type::now() + std::chrono::seconds(opts.warmup_s);
  for (int cycle = 0; opts.warmup_s > 0 && (cycle == 0 || clock_type::now() < warm_until); ++cycle)
    for (std::size_t i = 0; i < n; ++i) {
      window(split_at(cycle, i));
      end_window(split_at(cycle, i));
    }
  for (int cycle = 0; cycle < opts.windows; ++cycle)
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t s = split_at(cycle, i);
      const auto start = clock_type::now();
      const bool ok = window(s);
      const double ms =
          std::chrono::duration<double, std::milli>(clock_type::now() - start).count();
      end_window(s);
      splits[s].window_ms.push_back(ok ? ms : -1.0);
    }
  if (!first_error.empty()) std::fprintf(stderr, "gsoap-perf-client: %s\n", first_error.c_str());
  for (std::size_t s = 0; s < n; ++s) {
    std::printf("SPLIT calls=%d packet_size=%d windows_ms=", opts.splits[s],
                opts.items / opts.splits[s]);
    for (std::size_t w = 0; w < splits[s].window_ms.size(); ++w)
      std::printf("%s%.4f", w ? "," : "", splits[s].window_ms[w]);
    std::printf("\n");
    splits[s].client.reset();
    soap_destroy(&splits[s].ctx);
    soap_end(&splits[s].ctx);
    soap_done(&splits[s].ctx);
  }
  std::printf("RESULT stack=gsoap op=%s splits=%zu errors=%lld\n", operation_name(opts.op), n,
              errors);
  return errors == 0 ? 0 : 1;
}

int save_request(const options& opts) {
  gsoap_perf_codec codec(opts.qname);
  const std::string_view xml = codec.serialize(opts.packet_size);
  FILE* file = std::fopen(opts.save_request.c_str(), "wb");
  if (file == nullptr || xml.empty() ||
      std::fwrite(xml.data(), 1, xml.size(), file) != xml.size()) {
    std::fprintf(stderr, "gsoap-perf-client: cannot write %s\n", opts.save_request.c_str());
    if (file != nullptr) std::fclose(file);
    return 1;
  }
  return std::fclose(file) == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const options opts = parse_options(argc, argv);
  if (!opts.save_request.empty()) return save_request(opts);
#ifdef WITH_OPENSSL
  soap_ssl_init();  // once, before the threads make their contexts (gSOAP's rule)
#endif
  if (!opts.splits.empty()) return run_splits(opts);
  run_state state;
  std::vector<thread_result> results(static_cast<std::size_t>(opts.threads));
  std::vector<std::thread> threads;
  threads.reserve(results.size());
  for (int i = 0; i < opts.threads; ++i) {
    threads.emplace_back(run_thread, std::cref(opts), std::cref(state), i,
                         std::ref(results[static_cast<std::size_t>(i)]));
  }
  std::this_thread::sleep_for(std::chrono::seconds(opts.warmup_s));
  const clock_type::time_point timed_start = clock_type::now();
  state.timing = true;
  if (opts.count == 0) {
    std::this_thread::sleep_for(std::chrono::seconds(opts.time_s));
    state.stop = true;
  }
  for (std::thread& thread : threads) thread.join();
  const double wall_s =
      opts.count == 0 ? opts.time_s
                      : std::chrono::duration<double>(clock_type::now() - timed_start).count();

  long long calls = 0;
  long long errors = 0;
  long long handshakes = 0, resumed = 0;
  double per_thread_rate_sum = 0;
  double latency_sum_ms = 0;
  int measured_threads = 0;
  for (const thread_result& result : results) {
    calls += result.timed_calls;
    errors += result.errors;
    handshakes += result.handshakes;
    resumed += result.resumed;
    if (result.timed_calls > 0 && result.timed_seconds > 0) {
      per_thread_rate_sum += static_cast<double>(result.timed_calls) / result.timed_seconds;
      latency_sum_ms += result.timed_seconds * 1000.0 / static_cast<double>(result.timed_calls);
      ++measured_threads;
    }
    if (!result.first_error.empty()) {
      std::fprintf(stderr, "gsoap-perf-client: %s\n", result.first_error.c_str());
    }
  }
  const double calls_per_s = static_cast<double>(calls) / wall_s;
  const double per_thread = measured_threads ? per_thread_rate_sum / measured_threads : 0.0;
  const double mean_latency_ms = measured_threads ? latency_sum_ms / measured_threads : 0.0;
  std::printf("Throughput: %s %.1f (invocations/sec per thread)\n", operation_name(opts.op),
              per_thread);
  std::printf("Total(%d):  %.1f tps %.3f ms\n", opts.threads, per_thread_rate_sum, mean_latency_ms);
  std::printf(
      "RESULT stack=gsoap op=%s threads=%d packet_size=%d calls=%lld errors=%lld "
      "seconds=%.3f calls_per_s=%.1f per_thread=%.1f mean_ms=%.3f",
      operation_name(opts.op), opts.threads, opts.packet_size, calls, errors, wall_s, calls_per_s,
      per_thread, mean_latency_ms);
  if (handshakes > 0) std::printf(" handshakes=%lld resumed=%lld", handshakes, resumed);
  if (opts.count > 0) {  // each window's duration, mean over the threads
    std::printf(" windows_ms=");
    for (int w = 0; w < opts.windows; ++w) {
      double sum_ms = 0;
      for (const thread_result& result : results)
        if (static_cast<int>(result.window_seconds.size()) > w)
          sum_ms += result.window_seconds[static_cast<std::size_t>(w)] * 1000.0;
      std::printf("%s%.4f", w ? "," : "", sum_ms / opts.threads);
    }
  }
  std::printf("\n");
  return errors == 0 && calls > 0 ? 0 : 1;
}
