// Non-anonymous ReplyTo/FaultTo (WS-Addressing 1.0 SOAP Binding): the request is answered 202
// and the reply (or fault) reaches a lather listener on 127.0.0.1 as a new POST, with To,
// RelatesTo and the EPR's reference parameters; the delivery queue and its timeout are bounded.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "../support/xml_query.hpp"
#include "echo_types.hpp"
#include "lather/http/server.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "lather/wsa.hpp"
#include "raw_peer.hpp"

namespace {

using namespace lather;
using lather::test::find_element;
using lather::test::find_text;

constexpr std::string_view echo_action = "urn:lather:wsa-test/echo";
constexpr std::string_view echo_reply = "urn:lather:wsa-test/echoReply";
constexpr std::string_view echo_body =
    "<t:echo xmlns:t=\"urn:lather:wsa-test\"><t:text>hi</t:text></t:echo>";
constexpr std::string_view failing_body =
    "<t:echo xmlns:t=\"urn:lather:wsa-test\"><t:text>fail</t:text></t:echo>";

client_options client_options_for(soap::version v) {
  client_options o;
  o.version = v;
  return o;
}

/// The messages POSTed to the listener, as received.
struct received {
  std::string path, content_type, soap_action, body;
};

/// A lather HTTP listener on 127.0.0.1 that records what it gets; while `hold` is set it
/// keeps each request waiting until released.
class listener {
 public:
  listener() {
    srv_.route("/", [this](http::request& req, http::response& res) {
      received r{std::string(req.path()),
                 std::string(req.header("Content-Type")),
                 std::string(req.header("SOAPAction")),
                 {}};
      char buf[4096];
      while (std::size_t n = req.read_body(buf, sizeof buf)) r.body.append(buf, n);
      std::unique_lock lock(m_);
      got_.push_back(std::move(r));
      changed_.notify_all();
      changed_.wait(lock, [this] { return !hold_; });
      res.set_status(202);
    });
    srv_.start();
  }
  ~listener() {
    release();
    srv_.stop();
  }
  std::string url(std::string_view path) const {
    return "http://127.0.0.1:" + std::to_string(srv_.port()) + std::string(path);
  }
  /// The first `n` messages received (fewer after 10 s).
  std::vector<received> wait_for(std::size_t n) {
    std::unique_lock lock(m_);
    changed_.wait_for(lock, std::chrono::seconds(10), [&] { return got_.size() >= n; });
    return got_;
  }
  void hold() {
    std::lock_guard lock(m_);
    hold_ = true;
  }
  void release() {
    {
      std::lock_guard lock(m_);
      hold_ = false;
    }
    changed_.notify_all();
  }

 private:
  std::mutex m_;
  std::condition_variable changed_;
  std::vector<received> got_;
  bool hold_ = false;
  http::server srv_{{.address = "127.0.0.1", .port = 0, .threads = 2, .stop_on_signals = false}};
};

class wsa_reply_to : public ::testing::Test {
 protected:
  void start(wsa::reply_delivery delivery = {}) {
    svc_.operation("echo", [](const wsa_test::echo& in) {
      if (in.text == "fail") throw soap::fault_error(soap::fault{.reason = "refused"});
      return wsa_test::echoResponse{in.text, {}, {}, {}, {}};
    });
    addressing_.actions("echo", {std::string(echo_action), std::string(echo_reply)});
    addressing_.deliver_replies(std::move(delivery));
    addressing_.install(svc_);
    srv_.mount("/echo", svc_);
    srv_.start();
  }
  void TearDown() override { srv_.stop(); }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(srv_.port()) + "/echo"; }

  static std::string headers(std::string_view id, std::string_view reply_to,
                             std::string_view fault_to = "") {
    std::string h = "<a:Action>" + std::string(echo_action) + "</a:Action><a:MessageID>" +
                    std::string(id) + "</a:MessageID><a:ReplyTo><a:Address>" +
                    std::string(reply_to) +
                    "</a:Address><a:ReferenceParameters><s:Subscription "
                    "xmlns:s=\"urn:lather:wsa-test:subscription\">42</s:Subscription>"
                    "</a:ReferenceParameters></a:ReplyTo>";
    if (!fault_to.empty())
      h += "<a:FaultTo><a:Address>" + std::string(fault_to) + "</a:Address></a:FaultTo>";
    return h;
  }

  listener peer_;
  service svc_{"Echo", std::string(wsa_test::ns)};
  wsa::server_addressing addressing_{{.anonymous_only = false}};
  server srv_{{.address = "127.0.0.1", .port = 0, .threads = 2}};
};

TEST_F(wsa_reply_to, ReplyGoesToTheReplyToAddressAfter202InBothSoapVersions) {
  start();
  const auto v11 =
      wsa_test::raw_post(url(), soap::version::soap11,
                         headers("urn:uuid:r11", peer_.url("/replies/11")), echo_body, echo_action);
  EXPECT_EQ(v11.status, 202u);
  EXPECT_TRUE(v11.body.empty()) << v11.body;
  const auto v12 = wsa_test::raw_post(url(), soap::version::soap12,
                                      headers("urn:uuid:r12", peer_.url("/replies/12")), echo_body);
  EXPECT_EQ(v12.status, 202u);
  EXPECT_TRUE(v12.body.empty()) << v12.body;

  auto got = peer_.wait_for(2);
  ASSERT_EQ(got.size(), 2u);
  if (got[0].path != "/replies/11") std::swap(got[0], got[1]);
  for (std::size_t i = 0; i < 2; ++i) {
    const received& r = got[i];
    const std::string id = i == 0 ? "urn:uuid:r11" : "urn:uuid:r12";
    EXPECT_EQ(find_text(r.body, "/Envelope/Body/echoResponse/text"), "hi") << r.body;
    EXPECT_EQ(find_text(r.body, "/Envelope/Header/To"), peer_.url(r.path)) << r.body;
    EXPECT_EQ(find_text(r.body, "/Envelope/Header/Action"), echo_reply);
    EXPECT_EQ(find_text(r.body, "/Envelope/Header/RelatesTo"), id);
    const auto param = find_element(r.body, "/Envelope/Header/Subscription");
    ASSERT_TRUE(param) << r.body;
    EXPECT_EQ(param->text, "42");
    EXPECT_EQ(param->ns, wsa_test::sub_ns);
    EXPECT_EQ(param->attribute("IsReferenceParameter"), "true");
  }
  EXPECT_EQ(got[0].soap_action, std::string("\"").append(echo_reply).append("\""));
  EXPECT_TRUE(got[0].content_type.starts_with("text/xml")) << got[0].content_type;
  EXPECT_TRUE(got[1].content_type.starts_with("application/soap+xml")) << got[1].content_type;
  EXPECT_NE(got[1].content_type.find("action=\"" + std::string(echo_reply) + "\""),
            std::string::npos)
      << got[1].content_type;
  EXPECT_TRUE(addressing_.drain_replies(std::chrono::seconds(10)));
  EXPECT_EQ(addressing_.replies().delivered, 2u);
}

TEST_F(wsa_reply_to, FaultGoesToFaultToElseReplyTo) {
  start();
  // FaultTo given: the fault goes there.
  auto r = wsa_test::raw_post(url(), soap::version::soap12,
                              headers("urn:uuid:f1", peer_.url("/replies"), peer_.url("/faults")),
                              failing_body);
  EXPECT_EQ(r.status, 202u) << r.body;
  auto got = peer_.wait_for(1);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].path, "/faults");
  EXPECT_EQ(find_text(got[0].body, "/Envelope/Body/Fault/Reason/Text"), "refused") << got[0].body;
  EXPECT_EQ(find_text(got[0].body, "/Envelope/Header/RelatesTo"), "urn:uuid:f1");
  EXPECT_EQ(find_text(got[0].body, "/Envelope/Header/To"), peer_.url("/faults"));
  EXPECT_EQ(find_text(got[0].body, "/Envelope/Header/Action"), wsa::soap_fault_action);
  // No FaultTo: ReplyTo takes faults too.
  r = wsa_test::raw_post(url(), soap::version::soap11,
                         headers("urn:uuid:f2", peer_.url("/replies")), failing_body, echo_action);
  EXPECT_EQ(r.status, 202u) << r.body;
  got = peer_.wait_for(2);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[1].path, "/replies");
  EXPECT_EQ(find_text(got[1].body, "/Envelope/Body/Fault/faultstring"), "refused");
  EXPECT_EQ(find_text(got[1].body, "/Envelope/Header/RelatesTo"), "urn:uuid:f2");
  // An anonymous FaultTo: the fault comes back on the HTTP response, addressed as such.
  r = wsa_test::raw_post(url(), soap::version::soap11,
                         headers("urn:uuid:f3", peer_.url("/replies"),
                                 "http://www.w3.org/2005/08/addressing/anonymous"),
                         failing_body, echo_action);
  EXPECT_EQ(r.status, 500u);
  EXPECT_EQ(find_text(r.body, "/Envelope/Body/Fault/faultstring"), "refused") << r.body;
  EXPECT_EQ(find_text(r.body, "/Envelope/Header/RelatesTo"), "urn:uuid:f3");
  EXPECT_FALSE(find_text(r.body, "/Envelope/Header/To")) << r.body;
}

TEST_F(wsa_reply_to, AddressesOutsideThePolicyAndMissingMessageIdAreRefused) {
  start(
      {.accept = [](std::string_view a) { return a.find("/allowed") != std::string_view::npos; }});
  const auto subcode = [](const std::string& body) {
    return lather::test::qname_local(
        find_text(body, "/Envelope/Body/Fault/Code/Subcode/Subcode/Value"));
  };
  auto r = wsa_test::raw_post(url(), soap::version::soap12,
                              headers("urn:uuid:a1", peer_.url("/elsewhere")), echo_body);
  EXPECT_EQ(subcode(r.body), "InvalidAddress") << r.body;
  r = wsa_test::raw_post(url(), soap::version::soap12, headers("urn:uuid:a2", "mailto:x@allowed"),
                         echo_body);
  EXPECT_EQ(subcode(r.body), "InvalidAddress") << r.body;
  r = wsa_test::raw_post(url(), soap::version::soap12,
                         "<a:Action>urn:lather:wsa-test/echo</a:Action><a:ReplyTo><a:Address>" +
                             peer_.url("/allowed") + "</a:Address></a:ReplyTo>",
                         echo_body);
  EXPECT_EQ(lather::test::qname_local(find_text(r.body, "/Envelope/Body/Fault/Code/Subcode/Value")),
            "MessageAddressingHeaderRequired")
      << r.body;
  r = wsa_test::raw_post(url(), soap::version::soap12,
                         headers("urn:uuid:a3", peer_.url("/allowed")), echo_body);
  EXPECT_EQ(r.status, 202u) << r.body;
  EXPECT_EQ(peer_.wait_for(1).size(), 1u);
}

TEST_F(wsa_reply_to, QueueLimitAndTimeoutBoundTheDelivery) {
  std::mutex m;
  std::condition_variable failed;
  std::vector<std::string> failures;
  start({.queue_limit = 1,
         .timeout = std::chrono::milliseconds(300),
         .on_failure = [&](std::string_view address, std::string_view) {
           std::lock_guard lock(m);
           failures.emplace_back(address);
           failed.notify_all();
         }});
  peer_.hold();  // the listener takes the first reply and does not answer
  auto r = wsa_test::raw_post(url(), soap::version::soap12,
                              headers("urn:uuid:q1", peer_.url("/slow")), echo_body);
  EXPECT_EQ(r.status, 202u);
  ASSERT_EQ(peer_.wait_for(1).size(), 1u);  // being delivered: the queue is full
  r = wsa_test::raw_post(url(), soap::version::soap12, headers("urn:uuid:q2", peer_.url("/slow")),
                         echo_body);
  EXPECT_EQ(lather::test::qname_local(find_text(r.body, "/Envelope/Body/Fault/Code/Subcode/Value")),
            "EndpointUnavailable")
      << r.body;
  EXPECT_EQ(addressing_.replies().refused, 1u);
  {
    std::unique_lock lock(m);
    failed.wait_for(lock, std::chrono::seconds(10), [&] { return !failures.empty(); });
    ASSERT_EQ(failures.size(), 1u);  // the timeout ended the first delivery
    EXPECT_EQ(failures[0], peer_.url("/slow"));
  }
  peer_.release();
  EXPECT_TRUE(addressing_.drain_replies(std::chrono::seconds(10)));
  EXPECT_EQ(addressing_.replies().failed, 1u);
  EXPECT_EQ(addressing_.replies().delivered, 0u);
}

TEST_F(wsa_reply_to, LatherClientTakesThe202AndTheReplyReachesReplyTo) {
  start();
  for (auto v : {soap::version::soap11, soap::version::soap12}) {
    const std::string path = v == soap::version::soap11 ? "/client/11" : "/client/12";
    client c{url(), client_options_for(v)};
    wsa::client_addressing addressing{{.reply_to = wsa::endpoint_reference{peer_.url(path), {}}}};
    addressing.operation("echo", std::string(echo_action));
    addressing.install(c);
    wsa::call call;
    const auto r = c.call<wsa_test::echoResponse>("echo", wsa_test::echo{"hi"}, call.options());
    EXPECT_TRUE(call.accepted());
    EXPECT_TRUE(r.text.empty());  // no response on this connection
    EXPECT_FALSE(call.response().ver);
    EXPECT_FALSE(call.correlated());
    // Without a taker for it, a 202 is not a response the call can return.
    try {
      c.call<wsa_test::echoResponse>("echo", wsa_test::echo{"hi"});
      ADD_FAILURE() << "a 202 without on_accepted returned";
    } catch (const client_error& e) {
      EXPECT_NE(std::string(e.what()).find("HTTP 202"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(addressing_.drain_replies(std::chrono::seconds(10)));
    const auto got = peer_.wait_for(v == soap::version::soap11 ? 2 : 4);
    ASSERT_EQ(got.size(), v == soap::version::soap11 ? 2u : 4u);
    const received& reply = got[got.size() - 2];  // the first call's
    EXPECT_EQ(reply.path, path);
    EXPECT_EQ(find_text(reply.body, "/Envelope/Body/echoResponse/text"), "hi") << reply.body;
    EXPECT_EQ(find_text(reply.body, "/Envelope/Header/RelatesTo"), call.sent_message_id());
    // The call object is reusable: a call answered on the connection is not "accepted".
    client plain{url(), client_options_for(v)};
    wsa::client_addressing anonymous;
    anonymous.operation("echo", std::string(echo_action));
    anonymous.install(plain);
    EXPECT_EQ(
        plain.call<wsa_test::echoResponse>("echo", wsa_test::echo{"back"}, call.options()).text,
        "back");
    EXPECT_FALSE(call.accepted());
    EXPECT_TRUE(call.correlated());
  }
}

TEST_F(wsa_reply_to, ReplyToNoneIsNotAnsweredAtAll) {
  start();
  // Raw: 202 with an empty body, for a response and for a fault (no FaultTo: ReplyTo's none).
  for (auto body : {echo_body, failing_body}) {
    for (auto v : {soap::version::soap11, soap::version::soap12}) {
      const auto r = wsa_test::raw_post(url(), v, headers("urn:uuid:n", wsa::none_address), body,
                                        v == soap::version::soap11 ? echo_action : "");
      EXPECT_EQ(r.status, 202u) << r.body;
      EXPECT_TRUE(r.body.empty()) << r.body;
    }
  }
  // FaultTo none with an anonymous ReplyTo: the response comes back, a fault does not.
  const std::string anonymous_reply = "<a:Action>" + std::string(echo_action) +
                                      "</a:Action><a:MessageID>urn:uuid:n2</a:MessageID>"
                                      "<a:FaultTo><a:Address>" +
                                      std::string(wsa::none_address) + "</a:Address></a:FaultTo>";
  auto r = wsa_test::raw_post(url(), soap::version::soap12, anonymous_reply, echo_body);
  EXPECT_EQ(r.status, 200u);
  EXPECT_EQ(find_text(r.body, "/Envelope/Body/echoResponse/text"), "hi") << r.body;
  r = wsa_test::raw_post(url(), soap::version::soap12, anonymous_reply, failing_body);
  EXPECT_EQ(r.status, 202u);
  EXPECT_TRUE(r.body.empty()) << r.body;
  // A lather client sending ReplyTo none gets the call back as accepted.
  client c{url(), client_options_for(soap::version::soap12)};
  wsa::client_addressing addressing{
      {.reply_to = wsa::endpoint_reference{std::string(wsa::none_address), {}}}};
  addressing.operation("echo", std::string(echo_action));
  addressing.install(c);
  wsa::call call;
  c.call<wsa_test::echoResponse>("echo", wsa_test::echo{"hi"}, call.options());
  EXPECT_TRUE(call.accepted());
  // Nothing was sent anywhere: the next delivered reply is the first the listener sees.
  r = wsa_test::raw_post(url(), soap::version::soap12, headers("urn:uuid:n3", peer_.url("/after")),
                         echo_body);
  EXPECT_EQ(r.status, 202u);
  EXPECT_TRUE(addressing_.drain_replies(std::chrono::seconds(10)));
  const auto got = peer_.wait_for(1);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].path, "/after");
  EXPECT_EQ(addressing_.replies().delivered, 1u);
  EXPECT_EQ(addressing_.replies().failed, 0u);
}

TEST(wsa_reply_to_none, AcceptedWhereOnlyAnonymousRepliesAre) {
  // WS-Addressing Metadata 3.1.2: an endpoint that requires anonymous responses also takes
  // the none address.
  service svc{"Echo", std::string(wsa_test::ns)};
  svc.operation("echo", [](const wsa_test::echo& in) {
    return wsa_test::echoResponse{in.text, {}, {}, {}, {}};
  });
  wsa::server_addressing addressing;  // anonymous_only
  addressing.actions("echo", {std::string(echo_action), std::string(echo_reply)});
  addressing.install(svc);
  server srv{{.address = "127.0.0.1", .port = 0, .threads = 1}};
  srv.mount("/echo", svc);
  srv.start();
  const std::string url = "http://127.0.0.1:" + std::to_string(srv.port()) + "/echo";
  const auto r = wsa_test::raw_post(url, soap::version::soap12,
                                    "<a:Action>" + std::string(echo_action) +
                                        "</a:Action><a:ReplyTo><a:Address>" +
                                        std::string(wsa::none_address) + "</a:Address></a:ReplyTo>",
                                    echo_body);
  EXPECT_EQ(r.status, 202u) << r.body;
  EXPECT_TRUE(r.body.empty()) << r.body;
  srv.stop();
}

}  // namespace
