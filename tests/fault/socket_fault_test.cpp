// Socket failures around a call: clients that vanish at every byte of a request or of a
// response (closed or reset), and a response written to a client that reads slowly through a
// tiny receive buffer (the server's writes come up short and wait) or closes halfway (its
// write fails). Each time the server must close that connection only, hold no descriptor or
// connection for it afterwards, and answer the next call normally.
#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <chrono>
#include <string>
#include <thread>

#include "../support/xml_query.hpp"
#include "lather/perf/echo_service.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "raw_socket.hpp"

namespace {

using namespace lather;
using http::test::raw_socket;

std::string echo_string_request(std::string_view text) {
  std::string body =
      "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body>"
      "<ns:echoStringDoc xmlns:ns=\"http://cxf.apache.org/cxf/performance/types\"><ns:in>";
  body += text;
  body += "</ns:in></ns:echoStringDoc></soap:Body></soap:Envelope>";
  return http::test::post_request("/doc", body, "Content-Type: text/xml; charset=utf-8\r\n");
}

int open_descriptors() {
  int n = 0;
  if (DIR* d = ::opendir("/proc/self/fd")) {
    while (::readdir(d)) ++n;
    ::closedir(d);
  }
  return n;
}

/// Closes with a reset (RST) instead of a FIN.
void reset(raw_socket& s) {
  linger l{1, 0};
  ::setsockopt(s.fd(), SOL_SOCKET, SO_LINGER, &l, sizeof l);
}

/// Reads exactly `n` bytes (fewer if the server closes first).
std::size_t read_exactly(raw_socket& s, std::size_t n) {
  std::string buf(n, '\0');
  std::size_t got = 0;
  while (got < n) {
    ssize_t r = ::recv(s.fd(), buf.data() + got, n - got, 0);
    if (r <= 0) break;
    got += static_cast<std::size_t>(r);
  }
  return got;
}

class socket_fault : public ::testing::Test {
 protected:
  void SetUp() override {
    perf::add_doc_echo_operations(doc_);
    server_options o;
    o.address = "127.0.0.1";
    o.port = 0;
    o.threads = 2;
    o.error_log = {};  // unwritable responses are expected here
    // A spin opens /proc/loadavg once per process, whenever it first happens: not in the
    // middle of a descriptor count.
    o.spin_budget = std::chrono::microseconds{0};
    srv_.emplace(o);
    srv_->mount("/doc", doc_);
    srv_->start();
    expect_serving();  // the client's first call opens what it opens once
  }
  void TearDown() override { srv_->stop(); }

  std::uint64_t open_connections() const {
    const std::string m = srv_->metrics_text();
    const std::string key = "\nlather_http_connections_open ";
    return std::stoull(m.substr(m.find(key) + key.size()));
  }
  /// Connections the server still holds, once it has seen every closed one go (bounded).
  std::uint64_t settled_open_connections() const {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    std::uint64_t n = open_connections();
    while (n > 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
      n = open_connections();
    }
    return n;
  }
  void expect_serving() {
    client_options co;
    co.io_timeout = std::chrono::seconds{5};
    client c{"http://127.0.0.1:" + std::to_string(srv_->port()) + "/doc", co};
    perf::echoStringDoc req{"still serving"};
    EXPECT_EQ(c.call<perf::echoStringDocResponse>("echoStringDoc", req).out, "still serving");
  }
  /// Runs `sweep` twice: after each the next call is answered and no connection is left; the
  /// second leaves no more descriptors open than the first did (the first also warms up what
  /// the server makes lazily, e.g. a second worker's first connection).
  template <class Sweep>
  void expect_recovers_from(Sweep&& sweep) {
    sweep();
    expect_serving();
    EXPECT_EQ(settled_open_connections(), 0u);
    const int descriptors = open_descriptors();
    sweep();
    expect_serving();
    EXPECT_EQ(settled_open_connections(), 0u);
    EXPECT_EQ(open_descriptors(), descriptors);
  }
  std::uint16_t port() const { return srv_->port(); }

  service doc_{"PerfService", std::string(perf::service_ns)};
  std::optional<server> srv_;
};

TEST_F(socket_fault, ClientGoneAtEveryByteOfTheRequest) {
  const std::string request = echo_string_request("hello");
  expect_recovers_from([&] {
    for (std::size_t k = 0; k < request.size(); ++k) {
      raw_socket s(port());
      ASSERT_TRUE(s.send(std::string_view(request).substr(0, k)));
      if (k % 2) reset(s);
    }
  });
}

TEST_F(socket_fault, ClientGoneAtEveryByteOfTheResponse) {
  const std::string request = echo_string_request("hello");
  std::size_t response_size = 0;
  {
    raw_socket s(port());
    ASSERT_TRUE(s.send(request));
    s.shutdown_write();
    response_size = s.read_all().size();
  }
  ASSERT_GT(response_size, 200u);
  expect_recovers_from([&] {
    for (std::size_t k = 0; k < response_size; ++k) {
      raw_socket s(port());
      ASSERT_TRUE(s.send(request));
      ASSERT_EQ(read_exactly(s, k), k);
      if (k % 2) reset(s);
    }
  });
}

/// A streamed (chunked) response of ~2 MB to clients with a 64 KiB receive buffer: the
/// server's writes come up short and wait for room; the client goes away at 64 points spread
/// over the response (its reset makes the server's next write fail) or reads it all.
TEST_F(socket_fault, ShortAndFailingWritesOfAStreamedResponse) {
  const std::string text(2 << 20, 'x');
  const std::string request = echo_string_request(text);
  auto tiny_receive_buffer = [](raw_socket& s) {
    // Not below one loopback segment (64 KiB): a window that cannot take one stalls TCP.
    int size = 64 << 10;
    ::setsockopt(s.fd(), SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
  };
  std::size_t response_size = 0;
  {
    raw_socket s(port());
    tiny_receive_buffer(s);
    ASSERT_TRUE(s.send(request));
    const auto r = s.read_response();
    ASSERT_EQ(r.status, 200u);
    EXPECT_TRUE(r.chunked);
    EXPECT_EQ(lather::test::find_text(r.body, "/Envelope/Body/echoStringDocResponse/out"), text);
    response_size = r.head.size() + r.body.size();
  }
  constexpr std::size_t points = 64;
  expect_recovers_from([&] {
    for (std::size_t i = 0; i < points; ++i) {
      raw_socket s(port());
      tiny_receive_buffer(s);
      ASSERT_TRUE(s.send(request));
      const std::size_t k = response_size * i / points;
      ASSERT_EQ(read_exactly(s, k), k);
      if (i % 2) reset(s);
    }
  });
}

/// The client sends its whole request, then closes before reading anything: the response is
/// written to a connection the peer has closed (EPIPE/ECONNRESET on a later write).
TEST_F(socket_fault, ResponseWrittenToAClosedConnection) {
  const std::string request = echo_string_request(std::string(256 << 10, 'y'));
  expect_recovers_from([&] {
    for (int i = 0; i < 32; ++i) {
      raw_socket s(port());
      ASSERT_TRUE(s.send(request));
      if (i % 2) reset(s);
    }
  });
}

}  // namespace
