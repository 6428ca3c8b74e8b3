// X.509 signatures between lather's client and server: the client signs each request (Body,
// Timestamp, chosen headers), the server verifies it before dispatch and checks per operation
// what must be signed; unsigned, untrusted and tampered requests each get their fault, and an
// oversize one is refused within body_limit.
#include <gtest/gtest.h>

#include <string>

#include "calc_fixture.hpp"
#include "calc_types.hpp"
#include "call_faults.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "lather/wsse.hpp"
#include "lather/xml/writer.hpp"
#include "test_certs.hpp"

namespace {

using namespace lather;
namespace fs = std::filesystem;

constexpr std::string_view route_ns = "urn:lather:route";

class wsse_signed_call : public wsse_test::calc_fixture {
 protected:
  void SetUp() override {
    svc_.operation("add", [](call_context& ctx, const wsse_test::add& in) {
      return wsse_test::addResponse{in.a + in.b, std::string(wsse::server_security::signer(ctx))};
    });
    svc_.operation("now", [](const wsse_test::now&) { return wsse_test::nowResponse{"t"}; });
    wsse::trust_store trusted;
    trusted.add_file(dir_ / "ca.pem");
    sec_.set_trust_store(trusted);
    sec_.operation("now", {});
    wsse::server_policy routed = sec_policy();
    routed.signed_headers = {{std::string(route_ns), "To", {}}};
    sec_.operation("routed", routed);
    svc_.operation("routed", [](const wsse_test::now&) { return wsse_test::nowResponse{"r"}; });
    sec_.install(svc_);
    srv_.mount("/calc", svc_);
    srv_.start();
  }

  static wsse::server_policy sec_policy() {
    wsse::server_policy p;
    p.signature = true;
    p.timestamp = true;
    return p;
  }

  static wsse::client_policy signing(std::string_view who = "signer") {
    wsse::client_policy p;
    p.timestamp = true;
    p.sign = wsse::signing{wsse::credentials::from_files(dir_ / (std::string(who) + ".key"),
                                                         dir_ / (std::string(who) + ".pem"))};
    return p;
  }

  wsse::server_security sec_{no_passwords, sec_policy()};
};

TEST_F(wsse_signed_call, SignedRequestsVerifyAndNameTheSigner) {
  for (auto v : {soap::version::soap11, soap::version::soap12}) {
    client_options o;
    o.version = v;
    client c{url(), o};
    wsse::client_security{signing()}.install(c);
    const auto r = c.call<wsse_test::addResponse>("add", wsse_test::add{2, 3});
    EXPECT_EQ(r.result, 5);
    EXPECT_EQ(r.user, "CN=signer,O=lather");
  }
}

TEST_F(wsse_signed_call, UnsignedUntrustedAndTamperedRequestsAreRefused) {
  client unsigned_client{url()};
  wsse::client_policy stamp_only;
  stamp_only.timestamp = true;
  wsse::client_security{stamp_only}.install(unsigned_client);
  EXPECT_EQ(
      (wsse_test::fault_of<wsse_test::addResponse>(unsigned_client, "add", wsse_test::add{2, 3})),
      "InvalidSecurity");
  // An open operation takes the same client.
  EXPECT_EQ((wsse_test::fault_of<wsse_test::nowResponse>(unsigned_client, "now", wsse_test::now{})),
            "");

  client rogue{url()};
  wsse::client_security{signing("rogue")}.install(rogue);
  EXPECT_EQ((wsse_test::fault_of<wsse_test::addResponse>(rogue, "add", wsse_test::add{2, 3})),
            "FailedAuthentication");

  // Changed on the way, after signing.
  client tampering{url()};
  wsse::client_security{signing()}.install(tampering);
  tampering.intercept({.write_headers = {},
                       .after = {},
                       .whole_request = [](std::string_view, std::string& envelope) {
                         const auto at = envelope.find(">2<");
                         if (at != std::string::npos) envelope[at + 1] = '7';
                       }});
  EXPECT_EQ((wsse_test::fault_of<wsse_test::addResponse>(tampering, "add", wsse_test::add{2, 3})),
            "FailedCheck");
}

TEST_F(wsse_signed_call, AnOperationCanRequireSignedHeaders) {
  call_options with_route;
  with_route.headers.push_back([](xml::writer& w) {
    w.start_element(route_ns, "To");
    w.text("urn:calc");
    w.end_element();
  });
  client plain{url()};
  wsse::client_security{signing()}.install(plain);
  EXPECT_EQ(
      (wsse_test::fault_of<wsse_test::nowResponse>(plain, "routed", wsse_test::now{}, with_route)),
      "InvalidSecurity");  // the header is there, but not signed

  auto p = signing();
  p.sign->options.headers = {{std::string(route_ns), "To", {}}};
  client routed{url()};
  wsse::client_security{p}.install(routed);
  EXPECT_EQ(
      (wsse_test::fault_of<wsse_test::nowResponse>(routed, "routed", wsse_test::now{}, with_route)),
      "");
}

TEST_F(wsse_signed_call, LargeSignedRequestGoesOutWhole) {
  // 300 KB of header: far past the client's chunking threshold, yet signed as one message.
  call_options big;
  big.headers.push_back([](xml::writer& w) {
    w.start_element("urn:lather:padding", "Padding");
    w.text(std::string(300'000, 'x'));
    w.end_element();
  });
  client c{url()};
  wsse::client_security{signing()}.install(c);
  EXPECT_EQ((wsse_test::fault_of<wsse_test::addResponse>(c, "add", wsse_test::add{2, 3}, big)), "");
}

TEST_F(wsse_signed_call, OversizeSignedRequestIsRefusedWithinBodyLimit) {
  // A service that verifies signatures reads each request whole: body_limit bounds that read.
  server small{{.address = "127.0.0.1", .port = 0, .threads = 1, .body_limit = 64 * 1024}};
  small.mount("/calc", svc_);
  small.start();
  client c{"http://127.0.0.1:" + std::to_string(small.port()) + "/calc"};
  wsse::client_security{signing()}.install(c);
  call_options big;
  big.headers.push_back([](xml::writer& w) {
    w.start_element("urn:lather:padding", "Padding");
    w.text(std::string(300'000, 'x'));
    w.end_element();
  });
  bool refused = false;
  try {
    c.call<wsse_test::addResponse>("add", wsse_test::add{2, 3}, big);
  } catch (const std::exception& e) {
    refused = true;
    EXPECT_NE(std::string(e.what()).find("413"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(refused);
  // The server goes on serving signed calls.
  EXPECT_EQ(c.call<wsse_test::addResponse>("add", wsse_test::add{2, 3}).result, 5);
  small.stop();
}

}  // namespace
