// gSOAP's wsaapi plugin both ways (gsoap-wsa-peer, built from tests/wsa/wsa-echo.wsdl in
// tests/interop/gsoap): lather's client, with the Action lather-wsdl2cpp-style contracts give,
// calls gSOAP's server, which checks the headers (soap_wsa_check) and answers with RelatesTo
// and its Action; gSOAP's client (soap_wsa_request) calls lather's server. Replies to a third
// address (non-anonymous ReplyTo) both ways: gSOAP's client is answered 202 by lather's server,
// whose reply reaches a lather listener; gSOAP's server (soap_wsa_reply) relays its reply to a
// lather listener, which reads it through lather's WS-Addressing layer.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "../support/paths.hpp"
#include "../support/process.hpp"
#include "interop_types.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "lather/wsa.hpp"
#include "raw_peer.hpp"

namespace {

using namespace lather;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

const fs::path kPeer = fs::path(lather::test::bin_dir) / "gsoap-wsa-peer";
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

/// A lather service on 127.0.0.1 taking replies (echoResponse as a one-way operation) sent to
/// a ReplyTo address, with their WS-Addressing headers.
class reply_listener {
 public:
  struct reply {
    std::string text, relates_to, to, action;
  };
  reply_listener() {
    svc_.operation("echoResponse", [this](call_context& ctx, const wsa_interop::echoResponse& r) {
      const wsa::headers& h = wsa::server_addressing::request(ctx);
      std::lock_guard lock(m_);
      got_.push_back({r.text, std::string(h.reply_to_message()), h.to, h.action});
      changed_.notify_all();
    });
    addressing_.install(svc_);
    srv_.mount("/replies", svc_);
    srv_.start();
  }
  ~reply_listener() { srv_.stop(); }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(srv_.port()) + "/replies"; }
  /// The first reply (nullopt after 30 s).
  std::optional<reply> wait() {
    std::unique_lock lock(m_);
    changed_.wait_for(lock, 30s, [this] { return !got_.empty(); });
    if (got_.empty()) return std::nullopt;
    return got_.front();
  }

 private:
  std::mutex m_;
  std::condition_variable changed_;
  std::vector<reply> got_;
  service svc_{"Replies", std::string(wsa_interop::ns)};
  wsa::server_addressing addressing_{{.check_action = false}};
  server srv_{{.address = "127.0.0.1", .port = 0, .threads = 1}};
};

TEST(wsa_gsoap, gsoap_client_with_reply_to_gets_202_and_the_reply_goes_there) {
  if (!fs::exists(kPeer)) GTEST_SKIP() << "gsoap-wsa-peer not built (gSOAP missing)";
  reply_listener listener;
  service svc{"WsaEcho", std::string(wsa_interop::ns)};
  operation_options o;
  o.soap_action = o.action = std::string(echo_action);
  o.response_action = std::string(echo_reply);
  svc.operation(
      "echo", [](const wsa_interop::echo& in) { return wsa_interop::echoResponse{in.text}; }, o);
  wsa::server_addressing addressing{{.anonymous_only = false}};
  addressing.install(svc);
  server srv{{.address = "127.0.0.1", .port = 0, .threads = 1}};
  srv.mount("/wsa", svc);
  srv.start();
  const std::string url = "http://127.0.0.1:" + std::to_string(srv.port()) + "/wsa";
  const auto r = test::run({kPeer.string(), "--url", url, "--reply-to", listener.url()},
                           test::clock::now() + 30s);
  EXPECT_EQ(r.exit, 0);
  ASSERT_TRUE(r.out.starts_with("accepted urn:uuid:")) << r.out;
  const std::string id = r.out.substr(9, r.out.size() - 10);
  const auto reply = listener.wait();
  srv.stop();
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->text, "hi");
  EXPECT_EQ(reply->relates_to, id);
  EXPECT_EQ(reply->to, listener.url());
  EXPECT_EQ(reply->action, echo_reply);
}

TEST(wsa_gsoap, gsoap_server_relays_its_reply_to_a_lather_listener) {
  if (!fs::exists(kPeer)) GTEST_SKIP() << "gsoap-wsa-peer not built (gSOAP missing)";
  reply_listener listener;
  const int port = test::free_port();
  test::process peer({kPeer.string(), "--port", std::to_string(port)});
  ASSERT_TRUE(test::wait_for_port(peer, port, test::clock::now() + 30s));
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/wsa";
  const auto r = wsa_test::raw_post(
      url, soap::version::soap11,
      "<a:Action>" + std::string(echo_action) + "</a:Action><a:MessageID>urn:uuid:g1" +
          "</a:MessageID><a:To>" + url + "</a:To><a:ReplyTo><a:Address>" + listener.url() +
          "</a:Address></a:ReplyTo>",
      "<t:echo xmlns:t=\"urn:lather:wsa-interop\"><t:text>relayed</t:text></t:echo>", echo_action);
  EXPECT_TRUE(r.status == 202 || r.status == 200) << r.status << r.body;
  const auto reply = listener.wait();
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->text, "relayed");
  EXPECT_EQ(reply->relates_to, "urn:uuid:g1");
  EXPECT_EQ(reply->to, listener.url());
  EXPECT_EQ(reply->action, echo_reply);
}

}  // namespace
