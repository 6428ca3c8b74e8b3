// lather-fetch-server — fetch.wsdl (the 2003 experiment, shared/bench/seed-2003) served by
// lather: SOAP 1.1 RPC/encoded at /fetch (SOAPAction "urn:fetch#fetch"), its WSDL at
// /fetch?wsdl. Every call builds the README's graph (shared Values, child -> root cycle) anew,
// as the DRb server does. See docs/fetch.md.
#include <signal.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <thread>

#include "command_line.hpp"
#include "lather/perf/fetch_types.hpp"
#include "lather/service/server.hpp"
#include "lather/service/service.hpp"

extern const std::string_view fetch_wsdl;

int main(int argc, char** argv) {
  using namespace lather;
  server_options opts;
  opts.port = 8080;
  bool access_log = false, quiet = false;
  tools::command_line cli{"lather-fetch-server",
                          "Serves fetch.wsdl (RPC/encoded) at /fetch, its WSDL at /fetch?wsdl; "
                          "/healthz, /metrics.\nSIGINT/SIGTERM stop it."};
  cli.add_listen_options(opts);
  cli.add_flag("--access-log", access_log, "one line per SOAP call on stderr");
  // For symmetry with lather-perf-server: this server prints one line anyway.
  cli.add_flag("--quiet", quiet, "print only the listening line (all it prints)");
  cli.parse_or_exit(argc, argv);
  if (access_log) opts.access_log = stderr;

  service_options svc_opts;
  svc_opts.soap12 = false;  // the contract is SOAP 1.1 only
  svc_opts.static_wsdl = std::string(fetch_wsdl);
  service svc{"Fetch", std::string(perf::fetch_ns), std::move(svc_opts)};
  perf::add_fetch_operation(svc);

  // SIGINT/SIGTERM: handled by a thread with sigwait, which stops the server gracefully.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  server srv{opts};
  srv.mount("/fetch", svc);
  try {
    srv.start();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lather-fetch-server: cannot start: %s\n", e.what());
    return 1;
  }
  std::printf("listening on http://%s:%u/fetch\n", opts.address.c_str(), unsigned(srv.port()));
  std::fflush(stdout);
  std::thread waiter([&] {
    int sig = 0;
    sigwait(&signals, &sig);
    srv.stop();
  });
  srv.run();
  // run() returns after stop(); if it returned for another reason, release the waiter.
  pthread_kill(waiter.native_handle(), SIGTERM);
  waiter.join();
  return 0;
}
