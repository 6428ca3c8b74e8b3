// zeep (python3-zeep, zeep.wsa.WsAddressingPlugin) calls a lather server with WS-Addressing, in
// SOAP 1.1 and 1.2: the server reads zeep's Action, MessageID and To and answers with RelatesTo
// and the response Action; a missing required header and an unknown To come back as zeep
// Faults with the WS-Addressing code.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "../support/paths.hpp"
#include "../support/process.hpp"
#include "echo_types.hpp"
#include "lather/service/server.hpp"
#include "lather/wsa.hpp"

namespace {

using namespace lather;
namespace fs = std::filesystem;

const fs::path kPython = "/usr/bin/python3";
const fs::path kScript = fs::path(lather::test::source_dir) / "tests/wsa/zeep_wsa.py";
constexpr std::string_view echo_action = "urn:lather:wsa-test/echo";
constexpr std::string_view echo_reply = "urn:lather:wsa-test/echoReply";
// The address the strict service knows itself by (as behind a proxy): the only To it takes.
constexpr std::string_view public_address = "http://device.example/strict";

class wsa_zeep : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kPython)) GTEST_SKIP() << "python3 missing";
    for (service* s : {&svc_, &strict_svc_}) {
      // zeep's plugin sends the WSDL's wsaw:Action, else the soapAction: lather's ?wsdl gives
      // the latter.
      operation_options o;
      o.soap_action = std::string(echo_action);
      o.response_action = std::string(echo_reply);
      s->operation(
          "echo",
          [](call_context& ctx, const wsa_test::echo& in) {
            const wsa::headers& h = wsa::server_addressing::request(ctx);
            return wsa_test::echoResponse{in.text, h.to, h.action, h.message_id, {}};
          },
          o);
    }
    addressing_.install(svc_);
    srv_.mount("/echo", svc_);
    srv_.mount("/strict", strict_svc_);
    strict_.destination(std::string(public_address));
    strict_.install(strict_svc_);
    srv_.start();
  }
  void TearDown() override { srv_.stop(); }

  std::string url(std::string_view path) const {
    return "http://127.0.0.1:" + std::to_string(srv_.port()) + std::string(path);
  }

  std::string zeep(std::string_view path, std::string_view name, std::vector<std::string> args) {
    std::vector<std::string> argv = {kPython.string(),    kScript.string(), "--wsdl",
                                     url(path) + "?wsdl", "--service",      std::string(name)};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto r = test::run(argv, test::clock::now() + std::chrono::seconds(60));
    EXPECT_EQ(r.exit, 0) << r.out;
    return r.out;
  }

  service svc_{"Echo", std::string(wsa_test::ns)};
  wsa::server_addressing addressing_;
  service strict_svc_{"Strict", std::string(wsa_test::ns)};
  wsa::server_addressing strict_{{.required = true}};
  server srv_{{.address = "127.0.0.1", .port = 0, .threads = 2}};
};

TEST_F(wsa_zeep, ZeepsHeadersAreAnsweredInSoap11And12) {
  for (std::vector<std::string> version : {std::vector<std::string>{}, {"--soap12"}}) {
    EXPECT_EQ(zeep("/echo", "Echo", version),
              "ok hi relates=yes action=" + std::string(echo_reply) + "\n");
    // Without the plugin the same service answers without WS-Addressing.
    version.push_back("--no-wsa");
    EXPECT_EQ(zeep("/echo", "Echo", version), "ok hi relates=no action=None\n");
  }
}

TEST_F(wsa_zeep, RequiredHeadersAndDestinationAreChecked) {
  EXPECT_EQ(zeep("/strict", "Strict", {"--to", std::string(public_address)}),
            "ok hi relates=yes action=" + std::string(echo_reply) + "\n");
  EXPECT_EQ(zeep("/strict", "Strict", {"--no-wsa"}), "fault MessageAddressingHeaderRequired\n");
  EXPECT_EQ(zeep("/strict", "Strict", {"--soap12", "--no-wsa"}),
            "fault MessageAddressingHeaderRequired\n");
  // zeep's default To, the port's address in ?wsdl, is not an address the service takes.
  EXPECT_EQ(zeep("/strict", "Strict", {}), "fault DestinationUnreachable\n");
}

}  // namespace
