// lather-fetch-server — fetch.wsdl (the 2003 experiment, shared/bench/seed-2003) served by
// lather: SOAP 1.1 RPC/encoded at /fetch (SOAPAction "urn:fetch#fetch"), its WSDL at
// /fetch?wsdl. Every call builds the README's graph (shared Values, child -> root cycle) anew,
// as the DRb server does. See docs/fetch.md.
#include <signal.h>

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>

#include "lather/perf/fetch_types.hpp"
#include "lather/service/server.hpp"
#include "lather/service/service.hpp"

extern const std::string_view fetch_wsdl;

namespace {

const char* usage =
    "usage: lather-fetch-server [--port P] [--address A] [--threads N] [--access-log] [--quiet]\n"
    "Serves fetch.wsdl (RPC/encoded) at /fetch, its WSDL at /fetch?wsdl; /healthz, /metrics.\n"
    "Port 0 picks a free port. SIGINT/SIGTERM stop it.\n";

template <class T>
T number(const char* text, const char* what) {
  T v{};
  auto [end, ec] = std::from_chars(text, text + std::strlen(text), v);
  if (ec != std::errc{} || *end != '\0') {
    std::fprintf(stderr, "lather-fetch-server: bad %s '%s'\n%s", what, text, usage);
    std::exit(2);
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace lather;
  server_options opts;
  opts.port = 8080;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "lather-fetch-server: %s needs a value\n%s", argv[i], usage);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--port") {
      opts.port = number<std::uint16_t>(value(), "port");
    } else if (a == "--address") {
      opts.address = value();
    } else if (a == "--threads") {
      opts.threads = number<unsigned>(value(), "thread count");
    } else if (a == "--access-log") {
      opts.access_log = stderr;
    } else if (a == "--quiet") {
      // Accepted for symmetry with lather-perf-server: this server prints one line anyway.
    } else if (a == "--help" || a == "-h") {
      std::fputs(usage, stdout);
      return 0;
    } else {
      std::fprintf(stderr, "lather-fetch-server: unknown option '%s'\n%s", argv[i], usage);
      return 2;
    }
  }

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
