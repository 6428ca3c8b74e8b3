// Tests of the gRPC peer: grpc-perf-client and grpc-perf-server agree over loopback, every reply
// checked (id and item count), at PacketSize 1 and 100.
#include <gtest/gtest.h>

#include <string>

#include "../gsoap/peer_process.hpp"

namespace {

std::string bin(const char* name) {
  return std::string(LATHER_BIN_DIR) + "/" + name;
}

TEST(grpc_peer_processes, ClientAndServerAgree) {
  peer_test::child_process server({bin("grpc-perf-server"), "--port", "0"});
  const std::string port = peer_test::banner_port(server.read_line());
  ASSERT_FALSE(port.empty());
  for (const char* packet_size : {"1", "100"}) {
    const auto [result, status] =
        peer_test::run_to_result({bin("grpc-perf-client"), "--port", port, "--threads", "2",
                                  "--time", "1", "--warmup", "0", "--packet-size", packet_size});
    EXPECT_EQ(status, 0) << packet_size;
    EXPECT_EQ(peer_test::result_field(result, "errors"), "0") << result;
    EXPECT_NE(peer_test::result_field(result, "calls"), "0") << result;
    EXPECT_NE(peer_test::result_field(result, "calls"), "") << result;
  }
}

}  // namespace
