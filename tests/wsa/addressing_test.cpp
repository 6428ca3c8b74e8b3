// WS-Addressing between lather's client and server (1.0 and 2004/08, SOAP 1.1 and 1.2): the
// headers each side writes and reads, reference parameters both ways, the faults for bad
// headers as a raw peer sends them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../support/xml_query.hpp"
#include "echo_types.hpp"
#include "lather/http/client.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "lather/wsa.hpp"
#include "raw_peer.hpp"

namespace {

using namespace lather;
using lather::test::find_text;

constexpr std::string_view echo_action = "urn:lather:wsa-test/echo";
constexpr std::string_view echo_reply = "urn:lather:wsa-test/echoReply";
constexpr std::string_view subscription_param =
    R"(<s:Subscription xmlns:s="urn:lather:wsa-test:subscription">42</s:Subscription>)";

class wsa_addressing : public ::testing::Test {
 protected:
  void SetUp() override {
    svc_.operation("echo", [](call_context& ctx, const wsa_test::echo& in) {
      const wsa::headers& h = wsa::server_addressing::request(ctx);
      return wsa_test::echoResponse{in.text, h.to, h.action, h.message_id,
                                    h.reply_to ? h.reply_to->address : ""};
    });
    svc_.operation("pull", [](call_context& ctx, const wsa_test::pull&) {
      auto id = wsa::server_addressing::reference_parameter(ctx, wsa_test::sub_ns, "Subscription");
      if (!id || *id != "42")
        wsa::server_addressing::fail(ctx, wsa::fault_kind::destination_unreachable);
      return wsa_test::pullResponse{*id};
    });
    addressing_.actions("echo", {std::string(echo_action), std::string(echo_reply)});
    addressing_.reference_parameter(std::string(wsa_test::sub_ns), "Subscription");
    addressing_.install(svc_);
    srv_.mount("/echo", svc_);

    strict_svc_.operation("echo", [](const wsa_test::echo& in) {
      return wsa_test::echoResponse{in.text, {}, {}, {}, {}};
    });
    strict_.actions("echo", {std::string(echo_action), std::string(echo_reply)});
    strict_.destination("http://example.org/strict");
    strict_.install(strict_svc_);
    srv_.mount("/strict", strict_svc_);

    once_svc_.operation("echo", [](const wsa_test::echo& in) {
      return wsa_test::echoResponse{in.text, {}, {}, {}, {}};
    });
    once_.actions("echo", {std::string(echo_action), std::string(echo_reply)});
    once_.remember_message_ids({.capacity = 2});
    once_.install(once_svc_);
    srv_.mount("/once", once_svc_);
    srv_.start();
  }
  void TearDown() override { srv_.stop(); }

  std::string url(std::string_view path = "/echo") const {
    return "http://127.0.0.1:" + std::to_string(srv_.port()) + std::string(path);
  }
  static client_options options(soap::version v) {
    client_options o;
    o.version = v;
    return o;
  }

  // POSTs an envelope with these headers and body, returns the response body.
  std::string post(std::string_view path, soap::version v, std::string_view headers,
                   std::string_view body, std::string_view soap_action = "") {
    return wsa_test::raw_post(url(path), v, headers, body, soap_action).body;
  }

  static constexpr std::string_view echo_body =
      "<t:echo xmlns:t=\"urn:lather:wsa-test\"><t:text>hi</t:text></t:echo>";

  service svc_{"Echo", std::string(wsa_test::ns)};
  wsa::server_addressing addressing_;
  service strict_svc_{"Strict", std::string(wsa_test::ns)};
  wsa::server_addressing strict_{{.required = true}};
  service once_svc_{"Once", std::string(wsa_test::ns)};
  wsa::server_addressing once_;
  server srv_{{.address = "127.0.0.1", .port = 0, .threads = 2}};
};

TEST_F(wsa_addressing, RequestAndReplyHeadersRoundTripInBothSoapVersions) {
  for (auto v : {soap::version::soap11, soap::version::soap12}) {
    client c{url(), options(v)};
    wsa::client_addressing addressing;
    addressing.operation("echo", std::string(echo_action));
    addressing.install(c);
    wsa::call call;
    const auto r = c.call<wsa_test::echoResponse>("echo", wsa_test::echo{"hi"}, call.options());
    EXPECT_EQ(r.text, "hi");
    EXPECT_EQ(r.action, echo_action);
    EXPECT_EQ(r.to, url());  // the client's URL
    EXPECT_EQ(r.message_id, call.sent_message_id());
    EXPECT_TRUE(r.message_id.starts_with("urn:uuid:")) << r.message_id;
    EXPECT_EQ(r.message_id.size(), 45u);
    EXPECT_TRUE(r.reply_to.empty());  // 1.0: anonymous implied, nothing sent
    ASSERT_EQ(call.response().ver, wsa::version::v1_0);
    EXPECT_EQ(call.response().action, echo_reply);
    EXPECT_TRUE(call.correlated());
    EXPECT_NE(call.response().message_id, call.sent_message_id());
    // A second call has a fresh MessageID.
    const std::string first = call.sent_message_id();
    c.call<wsa_test::echoResponse>("echo", wsa_test::echo{"again"}, call.options());
    EXPECT_NE(call.sent_message_id(), first);
    EXPECT_TRUE(call.correlated());
  }
}

TEST_F(wsa_addressing, Submission2004IsAnsweredIn2004) {
  client c{url(), options(soap::version::soap12)};
  wsa::client_addressing addressing{{.ver = wsa::version::submission04}};
  addressing.operation("echo", std::string(echo_action));
  addressing.install(c);
  wsa::call call;
  const auto r = c.call<wsa_test::echoResponse>("echo", wsa_test::echo{"hi"}, call.options());
  EXPECT_EQ(r.reply_to, wsa::anonymous_address(wsa::version::submission04));  // required there
  ASSERT_EQ(call.response().ver, wsa::version::submission04);
  EXPECT_EQ(call.response().to, wsa::anonymous_address(wsa::version::submission04));
  EXPECT_TRUE(call.correlated());
}

TEST_F(wsa_addressing, NoHeadersWhereNoActionIsKnown) {
  client c{url(), options(soap::version::soap11)};
  wsa::client_addressing{}.install(c);  // send::contract, no operation Action
  wsa::call call;
  const auto r = c.call<wsa_test::echoResponse>("echo", wsa_test::echo{"hi"}, call.options());
  EXPECT_TRUE(r.action.empty());
  EXPECT_TRUE(r.message_id.empty());
  EXPECT_FALSE(call.response().ver.has_value());  // and none came back
  // The contract's Action (call_options::action, as generated proxies set it) turns them on.
  call_options o = call.options();
  o.action = std::string(echo_action);
  EXPECT_EQ(c.call<wsa_test::echoResponse>("echo", wsa_test::echo{"hi"}, o).action, echo_action);
}

TEST_F(wsa_addressing, OneActionWinsAndIsSentOnce) {
  client c{url(), options(soap::version::soap11)};
  wsa::client_addressing addressing;
  addressing.operation("echo", std::string(echo_action));
  addressing.install(c);
  wsa::call call;
  call.action = "urn:per-call";  // wins over the operation's and the contract's
  call_options o = call.options();
  o.action = "urn:contract";
  // The server expects echo_action: the call's own Action is what it got (a second Action
  // header would have been InvalidCardinality).
  try {
    c.call<wsa_test::echoResponse>("echo", wsa_test::echo{"hi"}, o);
    FAIL() << "expected ActionNotSupported";
  } catch (const soap::fault_error& e) {
    EXPECT_TRUE(wsa::is_fault(e.get(), wsa::fault_kind::action_not_supported)) << e.what();
    EXPECT_EQ(call.response().action, wsa::fault_action(wsa::version::v1_0));
    EXPECT_TRUE(call.correlated());  // a fault answers the request too
  }
  // send::always takes the SOAPAction when nothing else names one.
  client always{url(), options(soap::version::soap11)};
  wsa::client_addressing{{.when = wsa::send::always}}.install(always);
  call_options with_soap_action;
  with_soap_action.soap_action = std::string(echo_action);
  EXPECT_EQ(
      always.call<wsa_test::echoResponse>("echo", wsa_test::echo{"x"}, with_soap_action).action,
      echo_action);
}

TEST_F(wsa_addressing, ReferenceParametersGoBackToTheEndpointThatIssuedThem) {
  for (auto v : {soap::version::soap11, soap::version::soap12}) {
    client c{url(), options(v)};
    wsa::client_policy p;
    p.to = wsa::endpoint_reference{url(), {std::string(subscription_param)}};
    wsa::client_addressing addressing{p};
    addressing.operation("pull", "urn:lather:wsa-test/pull");
    addressing.install(c);
    EXPECT_EQ(c.call<wsa_test::pullResponse>("pull", wsa_test::pull{}).subscription, "42");

    client lost{url(), options(v)};  // the same endpoint without the subscription's EPR
    wsa::client_addressing bare;
    bare.operation("pull", "urn:lather:wsa-test/pull");
    bare.install(lost);
    try {
      lost.call<wsa_test::pullResponse>("pull", wsa_test::pull{});
      FAIL() << "expected DestinationUnreachable";
    } catch (const soap::fault_error& e) {
      EXPECT_TRUE(wsa::is_fault(e.get(), wsa::fault_kind::destination_unreachable)) << e.what();
    }
  }
  // On the wire: marked IsReferenceParameter, as a header of its own.
  const std::string marked = R"(<s:Subscription xmlns:s="urn:lather:wsa-test:subscription" )"
                             R"(a:IsReferenceParameter="true">42</s:Subscription>)";
  const std::string reply = post("/echo", soap::version::soap11,
                                 "<a:Action>urn:lather:wsa-test/pull</a:Action>"
                                 "<a:MessageID>urn:uuid:1</a:MessageID>" +
                                     marked,
                                 "<t:pull xmlns:t=\"urn:lather:wsa-test\"/>");
  EXPECT_EQ(find_text(reply, "/Envelope/Body/pullResponse/subscription"), "42") << reply;
  EXPECT_EQ(find_text(reply, "/Envelope/Header/RelatesTo"), "urn:uuid:1");
  EXPECT_EQ(find_text(reply, "/Envelope/Header/Action"), "urn:lather:wsa-test/pullResponse");
}

TEST_F(wsa_addressing, ReplyToReferenceParametersAreEchoedInTheResponse) {
  client c{url(), options(soap::version::soap12)};
  wsa::client_policy p;
  const std::string param = R"(<c:Correlation xmlns:c="urn:client">abc</c:Correlation>)";
  p.reply_to =
      wsa::endpoint_reference{std::string(wsa::anonymous_address(wsa::version::v1_0)), {param}};
  wsa::client_addressing addressing{p};
  addressing.operation("echo", std::string(echo_action));
  addressing.install(c);
  wsa::call call;
  const auto r = c.call<wsa_test::echoResponse>("echo", wsa_test::echo{"hi"}, call.options());
  EXPECT_EQ(r.reply_to, wsa::anonymous_address(wsa::version::v1_0));
  ASSERT_EQ(call.response().reference_parameters.size(), 1u);
  const auto echoed = wsa::parameter_of(call.response().reference_parameters[0]);
  ASSERT_TRUE(echoed);
  EXPECT_EQ(echoed->ns, "urn:client");
  EXPECT_EQ(echoed->local, "Correlation");
  EXPECT_EQ(echoed->text, "abc");
}

// ---- bad input, as a raw peer sends it

TEST_F(wsa_addressing, DuplicateHeaderIsInvalidCardinality) {
  const std::string two_actions =
      "<a:Action>urn:lather:wsa-test/echo</a:Action><a:Action>urn:other</a:Action>"
      "<a:MessageID>urn:uuid:7</a:MessageID>";
  const std::string r12 = post("/echo", soap::version::soap12, two_actions, echo_body);
  EXPECT_EQ(lather::test::qname_local(find_text(r12, "/Envelope/Body/Fault/Code/Value")), "Sender")
      << r12;
  EXPECT_EQ(lather::test::qname_local(find_text(r12, "/Envelope/Body/Fault/Code/Subcode/Value")),
            "InvalidAddressingHeader");
  EXPECT_EQ(
      lather::test::qname_local(find_text(r12, "/Envelope/Body/Fault/Code/Subcode/Subcode/Value")),
      "InvalidCardinality");
  // SOAP 1.2: the problem header in a wsa:FaultDetail header; the fault Action; RelatesTo.
  EXPECT_EQ(
      lather::test::qname_local(find_text(r12, "/Envelope/Header/FaultDetail/ProblemHeaderQName")),
      "Action");
  EXPECT_EQ(find_text(r12, "/Envelope/Header/Action"),
            "http://www.w3.org/2005/08/addressing/fault");
  const std::string r11 = post("/echo", soap::version::soap11, two_actions, echo_body);
  EXPECT_EQ(lather::test::fault_code(r11), "InvalidAddressingHeader") << r11;
  EXPECT_EQ(
      lather::test::qname_local(find_text(r11, "/Envelope/Body/Fault/detail/ProblemHeaderQName")),
      "Action");
  // Two versions in one message are two headers for one property.
  const std::string mixed = post("/echo", soap::version::soap11,
                                 "<a:Action>urn:lather:wsa-test/echo</a:Action>"
                                 "<b:MessageID xmlns:b=\"http://schemas.xmlsoap.org/ws/2004/08/"
                                 "addressing\">urn:uuid:8</b:MessageID>",
                                 echo_body);
  EXPECT_EQ(lather::test::fault_code(mixed), "InvalidMessageInformationHeader") << mixed;
}

TEST_F(wsa_addressing, MissingRequiredHeaderIsMessageAddressingHeaderRequired) {
  const std::string none = post("/strict", soap::version::soap12, "", echo_body);
  EXPECT_EQ(lather::test::qname_local(find_text(none, "/Envelope/Body/Fault/Code/Subcode/Value")),
            "MessageAddressingHeaderRequired")
      << none;
  const std::string no_id = post("/strict", soap::version::soap11,
                                 "<a:Action>urn:lather:wsa-test/echo</a:Action>", echo_body);
  EXPECT_EQ(lather::test::fault_code(no_id), "MessageAddressingHeaderRequired") << no_id;
  EXPECT_EQ(
      lather::test::qname_local(find_text(no_id, "/Envelope/Body/Fault/detail/ProblemHeaderQName")),
      "MessageID");
  // Not required: the same request is answered, with no WS-Addressing headers at all.
  const std::string open = post("/echo", soap::version::soap11, "", echo_body);
  EXPECT_EQ(find_text(open, "/Envelope/Body/echoResponse/text"), "hi") << open;
  EXPECT_FALSE(lather::test::has_element(open, "/Envelope/Header"));
}

TEST_F(wsa_addressing, WrongActionIsActionNotSupported) {
  const std::string r =
      post("/echo", soap::version::soap11,
           "<a:Action>urn:wrong</a:Action><a:MessageID>urn:uuid:9</a:MessageID>", echo_body);
  EXPECT_EQ(lather::test::fault_code(r), "ActionNotSupported") << r;
  EXPECT_EQ(find_text(r, "/Envelope/Body/Fault/detail/ProblemAction/Action"), "urn:wrong");
  EXPECT_EQ(find_text(r, "/Envelope/Header/RelatesTo"), "urn:uuid:9");
  // A SOAPAction that differs from wsa:Action.
  const std::string mismatch =
      post("/echo", soap::version::soap11,
           "<a:Action>urn:lather:wsa-test/echo</a:Action><a:MessageID>urn:uuid:10</a:MessageID>",
           echo_body, "urn:lather:wsa-test/other");
  EXPECT_EQ(lather::test::fault_code(mismatch), "InvalidAddressingHeader") << mismatch;
}

TEST_F(wsa_addressing, NonAnonymousReplyToAndUnknownDestinationAreRefused) {
  const std::string reply_to =
      post("/echo", soap::version::soap12,
           "<a:Action>urn:lather:wsa-test/echo</a:Action><a:MessageID>urn:uuid:11</a:MessageID>"
           "<a:ReplyTo><a:Address>http://elsewhere.example/</a:Address></a:ReplyTo>",
           echo_body);
  EXPECT_EQ(lather::test::qname_local(
                find_text(reply_to, "/Envelope/Body/Fault/Code/Subcode/Subcode/Value")),
            "OnlyAnonymousAddressSupported")
      << reply_to;
  const std::string no_address =
      post("/echo", soap::version::soap12,
           "<a:Action>urn:lather:wsa-test/echo</a:Action><a:ReplyTo></a:ReplyTo>", echo_body);
  EXPECT_EQ(lather::test::qname_local(
                find_text(no_address, "/Envelope/Body/Fault/Code/Subcode/Subcode/Value")),
            "MissingAddressInEPR")
      << no_address;
  const std::string elsewhere =
      post("/strict", soap::version::soap11,
           "<a:Action>urn:lather:wsa-test/echo</a:Action><a:MessageID>urn:uuid:12</a:MessageID>"
           "<a:To>http://example.org/other</a:To>",
           echo_body);
  EXPECT_EQ(lather::test::fault_code(elsewhere), "DestinationUnreachable") << elsewhere;
  const std::string here =
      post("/strict", soap::version::soap11,
           "<a:Action>urn:lather:wsa-test/echo</a:Action><a:MessageID>urn:uuid:13</a:MessageID>"
           "<a:To>http://example.org/strict</a:To>",
           echo_body);
  EXPECT_EQ(find_text(here, "/Envelope/Body/echoResponse/text"), "hi") << here;
  EXPECT_EQ(find_text(here, "/Envelope/Header/Action"), echo_reply);
}

TEST_F(wsa_addressing, RepeatedMessageIdIsDuplicateMessageIdWithinTheBound) {
  const auto send = [&](std::string_view path, std::string_view id,
                        std::string_view action = echo_action) {
    return post(path, soap::version::soap12,
                "<a:Action>" + std::string(action) + "</a:Action><a:MessageID>" + std::string(id) +
                    "</a:MessageID>",
                echo_body);
  };
  const auto subcode = [](const std::string& body) {
    return lather::test::qname_local(
        find_text(body, "/Envelope/Body/Fault/Code/Subcode/Subcode/Value"));
  };
  EXPECT_EQ(find_text(send("/once", "urn:uuid:d1"), "/Envelope/Body/echoResponse/text"), "hi");
  const std::string again = send("/once", "urn:uuid:d1");
  EXPECT_EQ(subcode(again), "DuplicateMessageID") << again;
  EXPECT_EQ(lather::test::qname_local(
                find_text(again, "/Envelope/Header/FaultDetail/ProblemHeaderQName")),
            "MessageID")
      << again;
  // A request refused for another reason does not use its MessageID up.
  EXPECT_EQ(lather::test::qname_local(find_text(send("/once", "urn:uuid:d9", "urn:other"),
                                                "/Envelope/Body/Fault/Code/Subcode/Value")),
            "ActionNotSupported");
  EXPECT_EQ(find_text(send("/once", "urn:uuid:d9"), "/Envelope/Body/echoResponse/text"), "hi");
  // Bounded: two more IDs and d1 (the oldest) is forgotten.
  EXPECT_EQ(find_text(send("/once", "urn:uuid:d2"), "/Envelope/Body/echoResponse/text"), "hi");
  EXPECT_EQ(find_text(send("/once", "urn:uuid:d1"), "/Envelope/Body/echoResponse/text"), "hi");
  EXPECT_EQ(subcode(send("/once", "urn:uuid:d1")), "DuplicateMessageID");
  // Off by default.
  EXPECT_EQ(find_text(send("/echo", "urn:uuid:d1"), "/Envelope/Body/echoResponse/text"), "hi");
  EXPECT_EQ(find_text(send("/echo", "urn:uuid:d1"), "/Envelope/Body/echoResponse/text"), "hi");
}

TEST_F(wsa_addressing, ClientChecksTheResponseActionAgainstTheExpectedOne) {
  const auto expect_mismatch = [](auto&& call, std::string_view got) {
    try {
      call();
      ADD_FAILURE() << "expected a client_error for the response's Action";
    } catch (const client_error& e) {
      EXPECT_NE(std::string_view(e.what()).find(got), std::string_view::npos) << e.what();
    }
  };
  for (auto v : {soap::version::soap11, soap::version::soap12}) {
    // Per operation.
    client c{url(), options(v)};
    wsa::client_addressing addressing;
    addressing.operation("echo", std::string(echo_action), "urn:lather:wsa-test/other");
    addressing.install(c);
    expect_mismatch([&] { c.call<wsa_test::echoResponse>("echo", wsa_test::echo{"hi"}); },
                    echo_reply);
    // Per call (with a wsa::call reading the response's headers): the right one passes.
    wsa::call call;
    call.response_action = std::string(echo_reply);
    EXPECT_EQ(c.call<wsa_test::echoResponse>("echo", wsa_test::echo{"hi"}, call.options()).text,
              "hi");
    call.response_action = "urn:lather:wsa-test/third";
    expect_mismatch(
        [&] { c.call<wsa_test::echoResponse>("echo", wsa_test::echo{"hi"}, call.options()); },
        "urn:lather:wsa-test/third");
    // From the contract (call_options::response_action), as a generated proxy sets it.
    client contract{url(), options(v)};
    wsa::client_addressing{}.install(contract);
    call_options o;
    o.action = std::string(echo_action);
    o.response_action = std::string(echo_reply);
    EXPECT_EQ(contract.call<wsa_test::echoResponse>("echo", wsa_test::echo{"hi"}, o).text, "hi");
    o.response_action = "urn:lather:wsa-test/contract";
    expect_mismatch([&] { contract.call<wsa_test::echoResponse>("echo", wsa_test::echo{"hi"}, o); },
                    "urn:lather:wsa-test/contract");
    // A fault is a fault, whatever its Action.
    o.action = "urn:lather:wsa-test/pull";
    try {
      contract.call<wsa_test::pullResponse>("pull", wsa_test::pull{}, o);
      ADD_FAILURE() << "expected DestinationUnreachable";
    } catch (const soap::fault_error& e) {
      EXPECT_TRUE(wsa::is_fault(e.get(), wsa::fault_kind::destination_unreachable)) << e.what();
    }
    // Configurable.
    client lenient{url(), options(v)};
    wsa::client_addressing{{.check_response_action = false}}.install(lenient);
    o.action = std::string(echo_action);
    o.response_action = "urn:lather:wsa-test/contract";
    EXPECT_EQ(lenient.call<wsa_test::echoResponse>("echo", wsa_test::echo{"hi"}, o).text, "hi");
  }
}

TEST(wsa_fault_action, DeclaredFaultsCarryTheContractsFaultAction) {
  service svc{"Faults", std::string(wsa_test::ns)};
  operation_options o;
  o.action = std::string(echo_action);
  o.fault_actions = {{std::string(wsa_test::ns), "echoFault", "urn:lather:wsa-test/echo/Fault"}};
  svc.operation(
      "echo",
      [](const wsa_test::echo& in) -> wsa_test::echoResponse {
        soap::fault f;
        f.reason = "refused";
        // The names as values of the outer lambda: clang 14 crashes (ConstantEmitter) emitting
        // an xml::ncname constant inside the nested lambda under -fsanitize=address,undefined.
        const xml::ncname declared{"echoFault"}, other{"other"};
        f.set_detail([&](xml::writer& w) {
          w.start_element(wsa_test::ns, in.text == "declared" ? declared : other);
          w.end_element();
        });
        throw soap::fault_error(std::move(f));
      },
      o);
  wsa::server_addressing addressing;
  addressing.install(svc);
  server srv{{.address = "127.0.0.1", .port = 0, .threads = 1}};
  srv.mount("/faults", svc);
  srv.start();
  const std::string url = "http://127.0.0.1:" + std::to_string(srv.port()) + "/faults";
  const auto send = [&](std::string_view text) {
    return wsa_test::raw_post(url, soap::version::soap12,
                              "<a:Action>urn:lather:wsa-test/echo</a:Action>"
                              "<a:MessageID>urn:uuid:f</a:MessageID>",
                              "<t:echo xmlns:t=\"urn:lather:wsa-test\"><t:text>" +
                                  std::string(text) + "</t:text></t:echo>")
        .body;
  };
  const std::string declared = send("declared");
  EXPECT_EQ(find_text(declared, "/Envelope/Header/Action"), "urn:lather:wsa-test/echo/Fault")
      << declared;
  EXPECT_EQ(find_text(declared, "/Envelope/Header/RelatesTo"), "urn:uuid:f");
  const std::string other = send("other");
  EXPECT_EQ(find_text(other, "/Envelope/Header/Action"), wsa::soap_fault_action) << other;
  srv.stop();
}

TEST_F(wsa_addressing, EndpointReferencesRoundTrip) {
  const std::string text =
      "<x:SubscriptionReference xmlns:x=\"urn:x\" xmlns:a=\"http://www.w3.org/2005/08/addressing\">"
      "<a:Address>http://cam/sub/1</a:Address><a:ReferenceParameters>" +
      std::string(subscription_param) +
      "</a:ReferenceParameters><a:Metadata><x:y/></a:Metadata></x:SubscriptionReference>";
  const wsa::endpoint_reference epr = wsa::parse_endpoint_reference(text);
  EXPECT_EQ(epr.address, "http://cam/sub/1");
  ASSERT_EQ(epr.reference_parameters.size(), 1u);
  EXPECT_EQ(wsa::parameter_of(epr.reference_parameters[0])->text, "42");
  EXPECT_THROW(wsa::parse_endpoint_reference(
                   "<r xmlns:a=\"http://www.w3.org/2005/08/addressing\"><a:Metadata/></r>"),
               std::invalid_argument);
}

}  // namespace
