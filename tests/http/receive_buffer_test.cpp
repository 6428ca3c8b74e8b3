// wire::raise_receive_buffer (server_options::receive_buffer, client_options::receive_buffer):
// a socket's receive buffer is raised only when the kernel allows the whole size, and otherwise
// left to the kernel's autotuning (SO_RCVBUF would turn autotuning off, and a size clamped to a
// small net.core.rmem_max would lower the buffer).
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstddef>
#include <fstream>

#include "wire.hpp"  // src/http

namespace lather::http {
namespace {

struct tcp_socket {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ~tcp_socket() {
    if (fd >= 0) ::close(fd);
  }
  std::size_t receive_buffer() const {
    int value = 0;
    socklen_t length = sizeof value;
    EXPECT_EQ(::getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &value, &length), 0);
    return static_cast<std::size_t>(value);
  }
};

std::size_t rmem_max() {
  std::ifstream in("/proc/sys/net/core/rmem_max");
  std::size_t value = 0;
  in >> value;
  return value;
}

TEST(ReceiveBuffer, RaisedWhenTheKernelAllowsTheWholeSize) {
  tcp_socket s;
  ASSERT_GE(s.fd, 0);
  const std::size_t before = s.receive_buffer(), max = rmem_max();
  if (max == 0 || 2 * max <= before) GTEST_SKIP() << "net.core.rmem_max " << max << " is too low";
  wire::raise_receive_buffer(s.fd, max);
  EXPECT_EQ(s.receive_buffer(), 2 * max);  // the kernel doubles what it is asked for
}

TEST(ReceiveBuffer, LeftToTheKernelAboveItsLimitOrWhenOff) {
  tcp_socket s;
  ASSERT_GE(s.fd, 0);
  const std::size_t before = s.receive_buffer(), max = rmem_max();
  if (max == 0) GTEST_SKIP() << "net.core.rmem_max cannot be read";
  wire::raise_receive_buffer(s.fd, max + 1);  // would be clamped: not set at all
  EXPECT_EQ(s.receive_buffer(), before);
  wire::raise_receive_buffer(s.fd, 0);
  EXPECT_EQ(s.receive_buffer(), before);
}

TEST(ReceiveBuffer, NeverLowered) {
  tcp_socket s;
  ASSERT_GE(s.fd, 0);
  const std::size_t before = s.receive_buffer();
  ASSERT_GE(before, 4096u);
  wire::raise_receive_buffer(s.fd, before / 4);  // at or below what the socket has
  EXPECT_EQ(s.receive_buffer(), before);
}

}  // namespace
}  // namespace lather::http
