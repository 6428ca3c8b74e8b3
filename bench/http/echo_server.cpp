// lather-http-echo: the HTTP layer alone, for wrk. POST any path: the body comes back with the
// request's Content-Type. Prints "port <n>" once listening; SIGINT/SIGTERM stop it gracefully.
//
//   lather-http-echo [--port N] [--threads N] [--threshold BYTES]
#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "lather/http/server.hpp"

int main(int argc, char** argv) {
  lather::http::server_options opts;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    unsigned long value = std::strtoul(argv[i + 1], nullptr, 10);
    if (flag == "--port")
      opts.port = static_cast<std::uint16_t>(value);
    else if (flag == "--threads")
      opts.threads = static_cast<unsigned>(value);
    else if (flag == "--threshold")
      opts.response_chunking.threshold = value;
    else {
      std::fprintf(stderr, "usage: %s [--port N] [--threads N] [--threshold BYTES]\n", argv[0]);
      return 2;
    }
  }
  // Block the stop signals in every thread (the server's threads inherit the mask), then
  // wait for one here and stop gracefully: the recipe tools use (docs/http.md).
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  lather::http::server srv{opts};
  srv.route("/", [](lather::http::request& req, lather::http::response& res) {
    char buf[4096];
    while (std::size_t n = req.read_body(buf, sizeof buf)) {
      res.body().append({buf, n});
      res.body().maybe_flush();
    }
    std::string_view type = req.header("Content-Type");
    res.set_header("Content-Type", type.empty() ? "application/octet-stream" : type);
  });
  srv.start();
  std::printf("port %u\n", srv.port());
  std::fflush(stdout);
  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  srv.stop();
  auto st = srv.get_stats();
  std::fprintf(stderr, "stopped on signal %d: %llu connections, %llu requests\n", signal_number,
               static_cast<unsigned long long>(st.connections_total),
               static_cast<unsigned long long>(st.requests));
  return 0;
}
