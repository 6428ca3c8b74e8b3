// WS-Addressing from lather::dynamic_client and lather-call --wsa: the Action taken from the
// WSDL (tests/wsa/wsa-echo.wsdl, wsaw:Action), a fresh MessageID and To, answered by a lather
// service that requires WS-Addressing; the response's RelatesTo and Action checked.
#include <gtest/gtest.h>

#include <mutex>
#include <string>

#include "../support/paths.hpp"
#include "../support/process.hpp"
#include "interop_types.hpp"
#include "lather/dynamic/client.hpp"
#include "lather/service/server.hpp"
#include "lather/wsa.hpp"

namespace {

using namespace lather;
using namespace std::chrono_literals;

const std::string contract = std::string(lather::test::source_dir) + "/tests/wsa/wsa-echo.wsdl";
constexpr std::string_view echo_action = "urn:lather:wsa-interop/echo";
constexpr std::string_view echo_reply = "urn:lather:wsa-interop/echoResponse";

class wsa_dynamic : public ::testing::Test {
 protected:
  void SetUp() override {
    operation_options o;
    o.soap_action = o.action = std::string(echo_action);
    o.response_action = std::string(echo_reply);
    svc_.operation(
        "echo",
        [this](call_context& ctx, const wsa_interop::echo& in) {
          const wsa::headers& h = wsa::server_addressing::request(ctx);
          const std::lock_guard lock{seen_mutex_};
          seen_action_ = h.action;
          seen_to_ = h.to;
          return wsa_interop::echoResponse{in.text};
        },
        o);
    addressing_.install(svc_);
    srv_.mount("/wsa", svc_);
    wrong_svc_.operation(
        "echo", [](const wsa_interop::echo& in) { return wsa_interop::echoResponse{in.text}; }, o);
    wrong_.actions("echo", {std::string(echo_action), "urn:lather:wsa-interop/other"});
    wrong_.install(wrong_svc_);
    srv_.mount("/wrong", wrong_svc_);
    srv_.start();
  }
  void TearDown() override { srv_.stop(); }
  // What the handler saw, written on the server's thread: read once the call has returned.
  std::string seen_action() {
    const std::lock_guard lock{seen_mutex_};
    return seen_action_;
  }
  std::string seen_to() {
    const std::lock_guard lock{seen_mutex_};
    return seen_to_;
  }
  std::string url(std::string_view path = "/wsa") const {
    return "http://127.0.0.1:" + std::to_string(srv_.port()) + std::string(path);
  }

  service svc_{"WsaEcho", std::string(wsa_interop::ns)};
  wsa::server_addressing addressing_{{.required = true}};
  service wrong_svc_{"WsaEcho", std::string(wsa_interop::ns)};
  wsa::server_addressing wrong_;
  server srv_{{.address = "127.0.0.1", .port = 0, .threads = 1}};
  std::mutex seen_mutex_;
  std::string seen_action_, seen_to_;
};

TEST_F(wsa_dynamic, DynamicClientSendsTheContractsActionAndChecksTheAnswer) {
  for (auto v : {wsa::version::v1_0, wsa::version::submission04}) {
    dynamic_client c{contract, {.address = url()}};
    dynamic::call_options o;
    o.addressing = v;
    const auto r = c.call("echo", dynamic::value::from_json(R"({"text": "hi"})"), o);
    EXPECT_EQ(r.body.find("text")->as_string(), "hi");
    EXPECT_TRUE(r.problems.empty()) << r.problems.front();
    EXPECT_EQ(seen_action(), echo_action);
    EXPECT_EQ(seen_to(), url());
    EXPECT_TRUE(r.message_id.starts_with("urn:uuid:")) << r.message_id;
    EXPECT_EQ(r.addressing.ver, v);
    EXPECT_EQ(r.addressing.reply_to_message(), r.message_id);
    EXPECT_EQ(r.addressing.action, echo_reply);
  }
  // Without it, a service that requires WS-Addressing refuses the call.
  dynamic_client plain{contract, {.address = url()}};
  try {
    plain.call("echo", dynamic::value::from_json(R"({"text": "hi"})"));
    ADD_FAILURE() << "expected MessageAddressingHeaderRequired";
  } catch (const dynamic::fault_error& e) {
    EXPECT_TRUE(wsa::is_fault(e.get(), wsa::fault_kind::header_required)) << e.what();
  }
}

TEST_F(wsa_dynamic, AnotherResponseActionIsAProblem) {
  dynamic_client c{contract, {.address = url("/wrong")}};
  dynamic::call_options o;
  o.addressing = wsa::version::v1_0;
  const auto r = c.call("echo", dynamic::value::from_json(R"({"text": "hi"})"), o);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_NE(r.problems[0].find("urn:lather:wsa-interop/other"), std::string::npos) << r.problems[0];
}

TEST_F(wsa_dynamic, LatherCallWsa) {
  const std::string call = std::string(lather::test::bin_dir) + "/lather-call";
  auto r = test::run({call, contract, "echo", "text=hi", "--address", url(), "--wsa"},
                     test::clock::now() + 30s);
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_EQ(dynamic::value::from_json(r.out).find("text")->as_string(), "hi") << r.out;
  EXPECT_EQ(seen_action(), echo_action);
  // --wsa-action replaces the contract's (this service then refuses it); no --wsa: refused.
  r = test::run({call, contract, "echo", "text=hi", "--address", url(), "--wsa-action", "urn:x"},
                test::clock::now() + 30s);
  EXPECT_EQ(r.exit, 1);
  EXPECT_EQ(seen_action(), echo_action);
  r = test::run({call, contract, "echo", "text=hi", "--address", url()}, test::clock::now() + 30s);
  EXPECT_EQ(r.exit, 1);
}

}  // namespace
