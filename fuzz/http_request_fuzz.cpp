// libFuzzer target fuzz_http_request: a whole request path in-process, from bytes to the
// response. One lather::server (the CXF perf services, document and RPC, and the RPC/encoded
// fetch service) runs inside the fuzzer; each input is written to a fresh loopback connection
// (the server accepts only TCP sockets), the write side is shut, and the response is read to
// the server's close. Findings: a crash or sanitizer report in the server, a response that is
// not HTTP, or no close within 10 s (a connection the server forgot). RPC and fetch targets
// are chosen by the request line, so the seeds (whole requests) steer the fuzzer there.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "lather/perf/echo_service.hpp"
#include "lather/perf/fetch_types.hpp"
#include "lather/service/server.hpp"

namespace {

using namespace lather;

struct in_process_server {
  in_process_server() {
    perf::add_doc_echo_operations(doc);
    perf::add_rpc_echo_operations(rpc);
    perf::add_fetch_operation(fetch);
    server_options o;
    o.address = "127.0.0.1";
    o.port = 0;
    o.threads = 1;
    o.header_timeout = std::chrono::seconds(5);
    o.idle_timeout = std::chrono::seconds(5);
    o.body_limit = 1 << 20;
    o.spin_budget = std::chrono::microseconds(0);
    o.error_log = {};
    srv.emplace(o);
    srv->mount("/perf", doc);
    srv->mount("/rpc", rpc);
    srv->mount("/fetch", fetch);
    srv->start();
  }
  service doc{"PerfService", std::string(perf::service_ns), [] {
                service_options o;
                o.envelope_namespaces = perf::envelope_namespaces();
                return o;
              }()};
  service rpc{"PerfRpcService", std::string(perf::service_ns)};
  service fetch{"FetchService", std::string(perf::fetch_ns)};
  std::optional<server> srv;
};

[[noreturn]] void fail(const char* what, std::string_view response) {
  std::fprintf(stderr, "http request: %s\n--- response\n%.*s\n", what, int(response.size()),
               response.data());
  std::abort();
}

// The harness itself could not run the input (not a finding in the server): say why.
[[noreturn]] void harness_error(const char* call) {
  std::perror(call);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static in_process_server server;  // never destroyed: its threads serve until exit
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) harness_error("socket");
  timeval tv{10, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(server.srv->port());
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  // libFuzzer's timer signal (SIGALRM, for -timeout) interrupts these calls: with a socket
  // timeout set, the kernel never restarts them (signal(7)), so each one retries on EINTR. An
  // interrupted connect goes on in the background; its outcome is read once it is writable.
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    if (errno != EINTR) harness_error("connect");
    pollfd p{fd, POLLOUT, 0};
    int ready;
    while ((ready = ::poll(&p, 1, 10'000)) < 0 && errno == EINTR) {
    }
    int error = 0;
    socklen_t length = sizeof error;
    ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length);
    if (ready != 1 || error != 0) {
      errno = ready == 1 ? error : ETIMEDOUT;
      harness_error("connect");
    }
  }
  // The server may answer and close before it has read everything (an error early in the
  // request): a failed send is not a finding, the response is.
  for (std::size_t sent = 0; sent < size;) {
    const ssize_t n = ::send(fd, data + sent, size - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    sent += static_cast<std::size_t>(n);
  }
  ::shutdown(fd, SHUT_WR);
  std::string response;
  char buf[16384];
  for (;;) {
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n > 0) {
      response.append(buf, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) fail("no close within 10 s", response);
    break;  // closed (or reset: the server gave up on a request it refused)
  }
  // A reset, not a FIN: no TIME_WAIT left behind per input (the port range would run out).
  linger l{1, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
  ::close(fd);
  if (!response.empty() && response.rfind("HTTP/1.", 0) != 0) fail("not HTTP", response);
  return 0;
}
