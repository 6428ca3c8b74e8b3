// Steady-state keep-alive traffic makes no heap allocation in the transport: parser, buffers,
// body output and its sink are per connection and reused (issue #5). Counts every operator new
// in the process while 500 requests travel over one connection after a warm-up.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "../support/alloc_counter.hpp"
#include "../support/process.hpp"
#include "lather/http/server.hpp"

namespace {

using namespace lather;

// One request/response exchange over a blocking socket, with fixed buffers only.
bool exchange(int fd, std::string_view request, char* buf, std::size_t cap, std::size_t expect) {
  if (::send(fd, request.data(), request.size(), 0) != static_cast<ssize_t>(request.size()))
    return false;
  std::size_t got = 0;
  while (got < expect) {
    ssize_t n = ::recv(fd, buf + got, cap - got, 0);
    if (n <= 0) return false;
    got += static_cast<std::size_t>(n);
  }
  return got == expect;
}

TEST(http_allocations, KeepAliveEchoMakesNoHeapAllocationOnceWarm) {
  http::server_options o;
  o.threads = 1;
  // A reserved test port: every thread's allocations are counted, so no other process may
  // connect to this server (tests/support/process.hpp).
  o.port = static_cast<std::uint16_t>(test::free_port());
  http::server srv{o};
  srv.route("/echo", [](http::request& req, http::response& res) {
    char buf[4096];
    while (std::size_t n = req.read_body(buf, sizeof buf)) res.body().append({buf, n});
    res.set_header("Content-Type", "text/xml; charset=utf-8");
  });
  srv.start();

  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(srv.port());
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);

  constexpr std::string_view body = "<e>0123456789012345678901234567890123456789</e>";
  char request[512];
  const int len = std::snprintf(request, sizeof request,
                                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\n"
                                "Content-Length: %zu\r\n\r\n%s",
                                body.size(), body.data());
  // Learn the response size once (the Date header has a fixed width).
  char buf[4096];
  ASSERT_GT(::send(fd, request, static_cast<std::size_t>(len), 0), 0);
  ssize_t first = ::recv(fd, buf, sizeof buf, 0);
  ASSERT_GT(first, 0);
  const std::size_t response_size = static_cast<std::size_t>(first);
  ASSERT_NE(std::string_view(buf, response_size).find(body), std::string_view::npos);

  for (int i = 0; i < 200; ++i)  // warm-up: buffers reach their working size
    ASSERT_TRUE(
        exchange(fd, {request, static_cast<std::size_t>(len)}, buf, sizeof buf, response_size));
  const std::uint64_t before = test::allocations();
  for (int i = 0; i < 500; ++i)
    ASSERT_TRUE(
        exchange(fd, {request, static_cast<std::size_t>(len)}, buf, sizeof buf, response_size));
  const std::uint64_t during = test::allocations() - before;
  ::close(fd);
  srv.stop();
  EXPECT_EQ(during, 0u) << during << " heap allocations for 500 keep-alive requests";
}

}  // namespace
