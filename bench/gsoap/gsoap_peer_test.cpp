// Tests of the gSOAP peer: the in-memory codec round-trips the CXF payload in both QName modes,
// and gsoap-perf-server / gsoap-perf-client agree over loopback.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "../../tests/support/paths.hpp"
#include "../../tests/support/process.hpp"
#include "gsoap_perf.hpp"

namespace {

class gsoap_codec_test : public ::testing::TestWithParam<gsoap_qname_prefix> {};

TEST_P(gsoap_codec_test, RoundTripsEveryItemCount) {
  gsoap_perf_codec codec(GetParam());
  for (int items : {0, 1, 2, 100}) {
    const std::string xml(codec.serialize(items));
    ASSERT_FALSE(xml.empty()) << items;
    EXPECT_TRUE(codec.parse(xml, items)) << items;
    EXPECT_FALSE(codec.parse(xml, items + 1)) << items;
  }
}

INSTANTIATE_TEST_SUITE_P(qname, gsoap_codec_test,
                         ::testing::Values(gsoap_qname_prefix::as_generated,
                                           gsoap_qname_prefix::fixed),
                         [](const ::testing::TestParamInfo<gsoap_qname_prefix>& info) {
                           return info.param == gsoap_qname_prefix::fixed ? "fixed"
                                                                          : "as_generated";
                         });

// The gSOAP server and client binaries talk to each other over loopback.

std::string bin(const char* name) {
  return std::string(lather::test::bin_dir) + "/" + name;
}

lather::test::clock::time_point deadline() {
  return lather::test::clock::now() + std::chrono::seconds(60);
}

TEST(gsoap_peer_processes, ClientAndServerAgreeOnEveryOperation) {
  lather::test::listening_server server(
      {bin("gsoap-perf-server"), "--port", "0", "--threads", "4"});
  ASSERT_NE(server.port, 0);
  const std::string port = std::to_string(server.port);
  const std::string url = "http://127.0.0.1:" + port + "/perf";
  const std::vector<std::pair<const char*, const char*>> runs = {{"echoComplexTypeDoc", "1"},
                                                                 {"echoComplexTypeDoc", "100"},
                                                                 {"echoStringDoc", "10"},
                                                                 {"echoBase64Doc", "1"}};
  for (const auto& [operation, packet_size] : runs) {
    const auto [result, status] = lather::test::run_to_result(
        {bin("gsoap-perf-client"), "--url", url, "--threads", "2", "--time", "1", "--warmup", "0",
         "--packet-size", packet_size, "--operation", operation},
        deadline());
    EXPECT_EQ(status, 0) << operation << " " << packet_size;
    EXPECT_EQ(lather::test::result_field(result, "errors"), "0") << result;
    EXPECT_NE(lather::test::result_field(result, "calls"), "0") << result;
    EXPECT_NE(lather::test::result_field(result, "calls"), "") << result;
  }
}

TEST(gsoap_peer_processes, SavedRequestIsWhatTheCodecWrites) {
  // In the build tree: other checkouts' test runs share the temporary directory.
  const std::string path = std::string(lather::test::bin_dir) + "/../gsoap-request-p3.xml";
  const auto [result, status] =
      lather::test::run_to_result({bin("gsoap-perf-client"), "--save-request", path,
                                   "--packet-size", "3", "--qname-prefix", "fixed"},
                                  deadline());
  ASSERT_EQ(status, 0);
  FILE* file = std::fopen(path.c_str(), "rb");
  ASSERT_NE(file, nullptr);
  std::string saved;
  char chunk[4096];
  for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, file)) > 0;) saved.append(chunk, n);
  std::fclose(file);
  std::remove(path.c_str());
  gsoap_perf_codec codec(gsoap_qname_prefix::fixed);
  EXPECT_EQ(saved, codec.serialize(3));
  EXPECT_TRUE(codec.parse(saved, 3));
  EXPECT_NE(saved.find("<x1:varQName>cxf:return</x1:varQName>"), std::string::npos);
}

}  // namespace
