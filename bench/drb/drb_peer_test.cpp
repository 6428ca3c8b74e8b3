// Tests of the DRb peer: drbclient.rb gets the fetch.wsdl graph from drbserver.rb with its
// sharing and cycle intact (drbclient checks both and fails otherwise).
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "../../tests/support/paths.hpp"
#include "../../tests/support/process.hpp"

namespace {

constexpr const char* ruby = "/usr/bin/ruby";

std::string script(const char* name) {
  return std::string(lather::test::source_dir) + "/bench/drb/" + name;
}

TEST(drb_peer_processes, ClientGetsTheSharedCyclicGraph) {
  if (access(ruby, X_OK) != 0) GTEST_SKIP() << "no " << ruby;
  lather::test::listening_server server({ruby, script("drbserver.rb"), "--port", "0"});
  ASSERT_NE(server.port, 0);
  const std::string port = std::to_string(server.port);
  const auto [result, status] =
      lather::test::run_to_result({ruby, script("drbclient.rb"), "--uri",
                                   "druby://127.0.0.1:" + port, "--calls", "20", "--runs", "2"},
                                  lather::test::clock::now() + std::chrono::seconds(60));
  EXPECT_EQ(status, 0);
  EXPECT_EQ(lather::test::result_field(result, "calls"), "20") << result;
  EXPECT_NE(lather::test::result_field(result, "median_s"), "") << result;
}

}  // namespace
