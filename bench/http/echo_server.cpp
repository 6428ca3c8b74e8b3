// lather-http-echo: the HTTP layer alone, for wrk. POST any path: the body comes back with the
// request's Content-Type. Prints "port <n>" once listening; SIGINT/SIGTERM stop it gracefully.
//
//   lather-http-echo [--port N] [--threads N] [--threshold BYTES]
#include <signal.h>

#include <cstdio>

#include "command_line.hpp"
#include "lather/http/server.hpp"

int main(int argc, char** argv) {
  lather::http::server_options opts;
  lather::tools::command_line cli{
      "lather-http-echo",
      "The HTTP layer alone, for wrk: POST any path and the body comes back with the request's\n"
      "Content-Type. Prints \"port N\" once listening; SIGINT/SIGTERM stop it."};
  cli.add_listen_options(opts);
  cli.add_option("--threshold", opts.response_chunking.threshold,
                 "response chunking threshold (default 4096)")
      ->type_name("BYTES");
  cli.parse_or_exit(argc, argv);
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
