// The fetch graph (fetch.wsdl: RPC/encoded, shared Values, children pointing back at the root)
// between lather and soap4r, the stack of the 2003 experiment, both ways: soap4r's client reads
// lather-fetch-server's answer, and lather-fetch-client reads the soap4r server's. Each client
// checks every graph it gets (sharing and cycle included) and fails otherwise.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "../support/paths.hpp"
#include "../support/process.hpp"

namespace {

using namespace std::chrono_literals;
using lather::test::clock;

constexpr const char* ruby = "/usr/bin/ruby";

std::string peer(const char* name) {
  return std::string(lather::test::source_dir) + "/tests/interop/peers/" + name;
}

TEST(FetchPeers, Soap4rClientReadsLatherGraph) {
  if (access(ruby, X_OK) != 0) GTEST_SKIP() << "no " << ruby;
  lather::test::listening_server server(
      {std::string(lather::test::bin_dir) + "/lather-fetch-server", "--port", "0"});
  ASSERT_NE(server.port, 0) << "lather-fetch-server did not start";
  const auto r = lather::test::run(
      {ruby, peer("soap4r_fetch_client.rb"), "--url", server.url("/fetch"), "--calls", "5"},
      clock::now() + 60s);
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(r.out.find("RESULT stack=soap4r calls=5 "), std::string::npos) << r.out;
}

TEST(FetchPeers, LatherClientReadsSoap4rGraph) {
  if (access(ruby, X_OK) != 0) GTEST_SKIP() << "no " << ruby;
  const int port = lather::test::free_port();
  lather::test::process server({ruby, peer("soap4r_fetch_server.rb"), std::to_string(port)});
  ASSERT_TRUE(lather::test::wait_for_port(server, port, clock::now() + 30s))
      << "the soap4r fetch server did not start";
  const auto [result, status] = lather::test::run_to_result(
      {std::string(lather::test::bin_dir) + "/lather-fetch-client", "--url",
       "http://127.0.0.1:" + std::to_string(port) + "/fetch", "--calls", "5", "--runs", "1"},
      clock::now() + 60s);
  EXPECT_EQ(status, 0) << result;
  EXPECT_EQ(lather::test::result_field(result, "calls"), "5") << result;
  server.stop();
}

}  // namespace
