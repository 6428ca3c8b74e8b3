// lather-perf-server — the Apache CXF performance contract (perf.wsdl) served by lather:
// DocPortType (document/literal wrapped) at /perf and at CXF's sample address, RPCPortType
// (rpc/literal) at /perf/rpc, WSDL at ?wsdl. See docs/benchmarks.md.
#include <signal.h>

#include <charconv>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "descriptor_limit.hpp"
#include "lather/perf/echo_service.hpp"
#include "lather/service/server.hpp"
#include "lather/service/service.hpp"

namespace {

constexpr std::string_view cxf_path = "/cxf-benchmark-soapdoclit/services/SoapHttpDocLitPort";

const char* usage =
    "usage: lather-perf-server [--port P] [--address A] [--threads N] [--path PATH]\n"
    "                          [--chunking-threshold N|never] [--spin-us US] [--access-log]\n"
    "                          [--receive-buffer BYTES] [--reuse-port] [--drain-delay MS]\n"
    "                          [--drain-timeout MS] [--quiet]\n"
    "Serves perf.wsdl's DocPortType at /perf and "
    "/cxf-benchmark-soapdoclit/services/"
    "SoapHttpDocLitPort\n(and at --path), RPCPortType at /perf/rpc; GET <path>?wsdl, /readyz, "
    "/livez, /healthz,\n/metrics. SIGTERM/SIGINT drain: /readyz turns 503, calls are served "
    "for --drain-delay\n(default 0), then the listener closes and calls in progress get "
    "--drain-timeout\n(default 10000) to finish. --reuse-port lets a new process bind the "
    "port meanwhile; a\nlistening socket passed by systemd (LISTEN_FDS) is served instead of "
    "--address/--port.\n";

template <class T>
T number(const char* text, const char* what) {
  T v{};
  auto [end, ec] = std::from_chars(text, text + std::strlen(text), v);
  if (ec != std::errc{} || *end != '\0') {
    std::fprintf(stderr, "lather-perf-server: bad %s '%s'\n%s", what, text, usage);
    std::exit(2);
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace lather;
  tools::raise_descriptor_limit();  // one descriptor per connection served
  server_options opts;
  opts.port = 8080;
  std::vector<std::string> extra_paths;
  bool quiet = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "lather-perf-server: %s needs a value\n%s", argv[i], usage);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--port")
      opts.port = number<std::uint16_t>(value(), "port");
    else if (a == "--address")
      opts.address = value();
    else if (a == "--threads")
      opts.threads = number<unsigned>(value(), "thread count");
    else if (a == "--path")
      extra_paths.emplace_back(value());
    else if (a == "--chunking-threshold") {
      std::string_view v = value();
      if (v == "never")
        opts.response_chunking.never = true;
      else
        opts.response_chunking.threshold = number<std::size_t>(v.data(), "threshold");
    } else if (a == "--spin-us")
      opts.spin_budget = std::chrono::microseconds(number<unsigned>(value(), "spin budget"));
    else if (a == "--receive-buffer")
      opts.receive_buffer = number<std::size_t>(value(), "receive buffer");
    else if (a == "--reuse-port")
      opts.reuse_port = true;
    else if (a == "--drain-delay")
      opts.drain_delay = std::chrono::milliseconds(number<unsigned>(value(), "drain delay"));
    else if (a == "--drain-timeout")
      opts.shutdown_deadline =
          std::chrono::milliseconds(number<unsigned>(value(), "drain timeout"));
    else if (a == "--access-log")
      opts.access_log = stderr;
    else if (a == "--quiet")
      quiet = true;
    else if (a == "--help" || a == "-h") {
      std::fputs(usage, stdout);
      return 0;
    } else {
      std::fprintf(stderr, "lather-perf-server: unknown option '%s'\n%s", argv[i], usage);
      return 2;
    }
  }
  // 1 GB bodies for the size sweep; the XML layer's own limits still apply per token.
  opts.body_limit = 1ull << 30;

  service_options doc_options;
  doc_options.envelope_namespaces = perf::envelope_namespaces();
  service_options rpc_options = doc_options;
  // perf.wsdl's names in ?wsdl, so a client generated from perf.wsdl can be given
  // /perf?wsdl or /perf/rpc?wsdl at run time and find its port there (JAX-WS looks the port
  // up by its QName).
  doc_options.wsdl_names = {"DocPortType", "SoapBindingDocLit", "SoapHttpDocLitPort"};
  rpc_options.wsdl_names = {"RPCPortType", "SoapBindingRPCLit", "SoapHttpRPCLitPort"};
  service doc{"PerfService", std::string(perf::service_ns), doc_options};
  perf::add_doc_echo_operations(doc);
  service rpc{"PerfService", std::string(perf::service_ns), rpc_options};
  perf::add_rpc_echo_operations(rpc);

  signal(SIGPIPE, SIG_IGN);
  opts.listen_fd = http::systemd_listen_fd();

  server srv{opts};
  srv.mount("/perf", doc);
  srv.mount(std::string(cxf_path), doc);
  for (const auto& p : extra_paths) srv.mount(p, doc);
  srv.mount("/perf/rpc", rpc);
  try {
    srv.start();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lather-perf-server: cannot start: %s\n", e.what());
    return 1;
  }
  std::printf("listening on http://%s:%u/perf\n", opts.address.c_str(), unsigned(srv.port()));
  if (!quiet)
    std::printf("  also %s and /perf/rpc; WSDL at /perf?wsdl; /readyz, /livez, /metrics\n",
                std::string(cxf_path).c_str());
  std::fflush(stdout);
  srv.run();  // until SIGTERM/SIGINT, which drain it
  return 0;
}
