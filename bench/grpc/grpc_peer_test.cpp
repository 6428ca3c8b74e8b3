// Tests of the gRPC peer: grpc-perf-client and grpc-perf-server agree over loopback, every reply
// checked (id and item count), at PacketSize 1 and 100.
#include <gtest/gtest.h>

#include <string>

#include "../../tests/support/paths.hpp"
#include "../../tests/support/process.hpp"

namespace {

std::string bin(const char* name) {
  return std::string(lather::test::bin_dir) + "/" + name;
}

TEST(grpc_peer_processes, ClientAndServerAgree) {
  lather::test::listening_server server({bin("grpc-perf-server"), "--port", "0"});
  ASSERT_NE(server.port, 0);
  const std::string port = std::to_string(server.port);
  for (const char* packet_size : {"1", "100"}) {
    const auto [result, status] =
        lather::test::run_to_result({bin("grpc-perf-client"), "--port", port, "--threads", "2",
                                     "--time", "1", "--warmup", "0", "--packet-size", packet_size},
                                    lather::test::clock::now() + std::chrono::seconds(60));
    EXPECT_EQ(status, 0) << packet_size;
    EXPECT_EQ(lather::test::result_field(result, "errors"), "0") << result;
    EXPECT_NE(lather::test::result_field(result, "calls"), "0") << result;
    EXPECT_NE(lather::test::result_field(result, "calls"), "") << result;
  }
}

}  // namespace
