// gSOAP's wsaapi plugin both ways (gsoap-wsa-peer, built from tests/wsa/wsa-echo.wsdl in
// tests/interop/gsoap): lather's client, with the Action lather-wsdl2cpp-style contracts give,
// calls gSOAP's server, which checks the headers (soap_wsa_check) and answers with RelatesTo
// and its Action; gSOAP's client (soap_wsa_request) calls lather's server.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <tuple>

#include "../support/process.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "lather/wsa.hpp"

namespace wsa_interop {
constexpr std::string_view ns = "urn:lather:wsa-interop";
struct echo {
  std::string text;
};
struct echoResponse {
  std::string text;
};
}  // namespace wsa_interop

template <>
struct lather::meta<wsa_interop::echo> {
  static constexpr std::string_view name = "echo", ns = wsa_interop::ns;
  static constexpr auto fields = std::tuple{element("text", &wsa_interop::echo::text)};
};
template <>
struct lather::meta<wsa_interop::echoResponse> {
  static constexpr std::string_view name = "echoResponse", ns = wsa_interop::ns;
  static constexpr auto fields = std::tuple{element("text", &wsa_interop::echoResponse::text)};
};

namespace {

using namespace lather;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

const fs::path kPeer = fs::path(LATHER_BIN_DIR) / "gsoap-wsa-peer";
constexpr std::string_view echo_action = "urn:lather:wsa-interop/echo";
constexpr std::string_view echo_reply = "urn:lather:wsa-interop/echoResponse";

TEST(wsa_gsoap, lather_client_to_gsoap_server) {
  if (!fs::exists(kPeer)) GTEST_SKIP() << "gsoap-wsa-peer not built (gSOAP missing)";
  const int port = test::free_port();
  test::process peer({kPeer.string(), "--port", std::to_string(port)});
  ASSERT_TRUE(test::wait_for_port(peer, port, test::clock::now() + 30s));
  client c{"http://127.0.0.1:" + std::to_string(port) + "/wsa"};
  wsa::client_addressing{}.install(c);
  wsa::call call;
  call_options o = call.options();
  o.soap_action = std::string(echo_action);
  o.action = std::string(echo_action);  // as a generated proxy sets it from wsaw:Action
  const auto r = c.call<wsa_interop::echoResponse>("echo", wsa_interop::echo{"lather"}, o);
  EXPECT_EQ(r.text, "lather");
  EXPECT_TRUE(call.correlated()) << call.response().reply_to_message();
  EXPECT_EQ(call.response().action, echo_reply);
  EXPECT_EQ(call.response().ver, wsa::version::v1_0);
}

TEST(wsa_gsoap, gsoap_client_to_lather_server) {
  if (!fs::exists(kPeer)) GTEST_SKIP() << "gsoap-wsa-peer not built (gSOAP missing)";
  service svc{"WsaEcho", std::string(wsa_interop::ns)};
  std::string to;
  operation_options o;
  o.soap_action = o.action = std::string(echo_action);
  o.response_action = std::string(echo_reply);
  svc.operation(
      "echo",
      [&to](call_context& ctx, const wsa_interop::echo& in) {
        to = wsa::server_addressing::request(ctx).to;
        return wsa_interop::echoResponse{in.text};
      },
      o);
  wsa::server_addressing addressing{{.required = true}};
  addressing.install(svc);
  server srv{{.address = "127.0.0.1", .port = 0, .threads = 1}};
  srv.mount("/wsa", svc);
  srv.start();
  const std::string url = "http://127.0.0.1:" + std::to_string(srv.port()) + "/wsa";
  const auto r = test::run({kPeer.string(), "--url", url}, test::clock::now() + 30s);
  srv.stop();
  EXPECT_EQ(r.exit, 0);
  EXPECT_EQ(r.out, "ok hi relates=yes action=" + std::string(echo_reply) + "\n");
  EXPECT_EQ(to, url);
}

}  // namespace
