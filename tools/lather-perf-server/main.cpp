// lather-perf-server — the Apache CXF performance contract (perf.wsdl) served by lather:
// DocPortType (document/literal wrapped) at /perf and at CXF's sample address, RPCPortType
// (rpc/literal) at /perf/rpc, WSDL at ?wsdl. See docs/benchmarks.md.
#include <signal.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "command_line.hpp"
#include "descriptor_limit.hpp"
#include "lather/perf/echo_service.hpp"
#include "lather/service/server.hpp"
#include "lather/service/service.hpp"
#include "lather/wsse/openssl_cache.hpp"

namespace {

constexpr std::string_view cxf_path = "/cxf-benchmark-soapdoclit/services/SoapHttpDocLitPort";

}  // namespace

int main(int argc, char** argv) {
  using namespace lather;
  server_options opts;
  opts.port = 8080;
  // 1 GB bodies for the size sweep; the XML layer's own limits still apply per token.
  opts.body_limit = 1ull << 30;
  std::vector<std::string> extra_paths;
  bool quiet = false, access_log = false;
  std::string chunking;
  auto spin_us = static_cast<unsigned>(opts.spin_budget.count());
  auto drain_delay_ms = static_cast<unsigned>(opts.drain_delay.count());
  auto drain_timeout_ms = static_cast<unsigned>(opts.shutdown_deadline.count());
  tools::command_line cli{
      "lather-perf-server",
      "Serves perf.wsdl's DocPortType at /perf and\n" + std::string(cxf_path) +
          " (and at --path),\nRPCPortType at /perf/rpc; GET <path>?wsdl, /readyz, /livez, "
          "/healthz, /metrics.\nSIGTERM/SIGINT drain: /readyz turns 503, calls are served for "
          "--drain-delay, then the\nlistener closes and calls in progress get --drain-timeout to "
          "finish. A listening socket\npassed by systemd (LISTEN_FDS) is served instead of "
          "--address/--port."};
  cli.add_listen_options(opts);
  cli.add_option("--path", extra_paths, "one more path for DocPortType (repeatable)")
      ->type_name("PATH")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cli.add_option("--chunking-threshold", chunking, "response body framing (default 4096)")
      ->type_name("N|never");
  cli.add_option("--spin-us", spin_us,
                 "poll for the next request up to US microseconds before sleeping\n"
                 "(adaptive; 0 = sleep at once; default 200)")
      ->type_name("US");
  cli.add_option("--receive-buffer", opts.receive_buffer,
                 "each connection's kernel receive buffer (default 4194304 when\n"
                 "net.core.rmem_max allows it; 0 = the kernel's autotuning)")
      ->type_name("BYTES");
  cli.add_flag("--reuse-port", opts.reuse_port,
               "SO_REUSEPORT, so that a new process can bind the port while this\n"
               "one drains");
  cli.add_option("--drain-delay", drain_delay_ms,
                 "on SIGTERM, keep serving this long with /readyz at 503 (default 0)")
      ->type_name("MS");
  cli.add_option("--drain-timeout", drain_timeout_ms,
                 "then give calls in progress this long to finish (default " +
                     std::to_string(drain_timeout_ms) + ")")
      ->type_name("MS");
  http::tls_options tls;
  cli.add_option("--tls-cert", tls.cert_file, "serve HTTPS with this certificate chain (PEM)")
      ->type_name("FILE");
  cli.add_option("--tls-key", tls.key_file, "its private key (PEM)")->type_name("FILE");
  cli.add_option("--tls-client-ca", tls.ca_file,
                 "require client certificates signed by this CA (mTLS)")
      ->type_name("FILE");
  cli.add_option("--max-connections", opts.max_connections,
                 "open connections served at once; beyond them 503 and close (default " +
                     std::to_string(opts.max_connections) + ")")
      ->type_name("N");
  cli.add_option("--body-limit", opts.body_limit,
                 "largest request body; beyond it 413 (default " + std::to_string(opts.body_limit) +
                     ", for the size sweep)")
      ->type_name("BYTES");
  bool openssl_cache = false;
  cli.add_flag("--openssl-cache", openssl_cache,
               "serve OpenSSL's allocations (TLS) from per-thread lists (lather/wsse/"
               "openssl_cache.hpp)");
  cli.add_flag("--access-log", access_log, "one line per SOAP call on stderr");
  cli.add_flag("--quiet", quiet, "print only the listening line");
  cli.parse_or_exit(argc, argv);
  // Before anything makes OpenSSL allocate (the TLS context below).
  if (openssl_cache && !wsse::install_openssl_cache())
    cli.fail("--openssl-cache: OpenSSL has allocated already");
  opts.response_chunking.never =
      cli.bytes_or_never("--chunking-threshold", chunking, opts.response_chunking.threshold);
  opts.spin_budget = std::chrono::microseconds(spin_us);
  opts.drain_delay = std::chrono::milliseconds(drain_delay_ms);
  opts.shutdown_deadline = std::chrono::milliseconds(drain_timeout_ms);
  if (access_log) opts.access_log = stderr;
  if (tls.cert_file.empty() != tls.key_file.empty() ||
      (tls.cert_file.empty() && !tls.ca_file.empty()))
    cli.fail("--tls-cert and --tls-key go together (and --tls-client-ca needs them)");
  if (!tls.cert_file.empty()) opts.tls = tls;
  tools::raise_descriptor_limit();  // one descriptor per connection served

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
  std::printf("listening on %s://%s:%u/perf\n", opts.tls ? "https" : "http", opts.address.c_str(),
              unsigned(srv.port()));
  if (!quiet)
    std::printf("  also %s and /perf/rpc; WSDL at /perf?wsdl; /readyz, /livez, /metrics\n",
                std::string(cxf_path).c_str());
  std::fflush(stdout);
  srv.run();  // until SIGTERM/SIGINT, which drain it
  return 0;
}
