// Signed responses between lather's server and client: the server signs each response (Body and
// a fresh Timestamp) per operation, the client verifies it against a trust store before binding
// it; a response changed on the way, one signed by an untrusted key, an unsigned one and a stale
// one are each refused with the WS-Security code, and a fault passes as the fault it is.
#include <gtest/gtest.h>

#include <string>

#include "../support/xml_query.hpp"
#include "calc_fixture.hpp"
#include "calc_types.hpp"
#include "call_faults.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "lather/wsse.hpp"
#include "test_certs.hpp"

namespace {

using namespace lather;
namespace fs = std::filesystem;

class wsse_signed_response : public wsse_test::calc_fixture {
 protected:
  void SetUp() override {
    svc_.operation("add", [](const wsse_test::add& in) {
      if (in.a < 0) {
        soap::fault f;
        f.code = soap::fault_code::sender;
        f.reason = "negative";
        throw soap::fault_error(std::move(f));
      }
      return wsse_test::addResponse{in.a + in.b, std::string(in.b, 'x')};
    });
    svc_.operation("now", [](const wsse_test::now&) { return wsse_test::nowResponse{"t"}; });
    sec_.operation("now", {});  // answered unsigned
    sec_.install(svc_);
    srv_.mount("/calc", svc_);
    srv_.start();
  }

  static wsse::signing signer(std::string_view who = "signer") {
    return {wsse::credentials::from_files(dir_ / (std::string(who) + ".key"),
                                          dir_ / (std::string(who) + ".pem"))};
  }
  static wsse::server_policy signs_responses(std::string_view who = "signer") {
    wsse::server_policy p;
    p.sign_response = signer(who);
    return p;
  }
  static wsse::client_policy verifies() {
    wsse::client_policy p;
    wsse::trust_store trusted;
    trusted.add_file(dir_ / "ca.pem");
    p.verify_response = wsse::response_verification{trusted};
    return p;
  }

  wsse::server_security sec_{no_passwords, signs_responses()};
};

TEST_F(wsse_signed_response, ResponsesAreSignedAndVerifiedInSoap11And12) {
  for (auto v : {soap::version::soap11, soap::version::soap12}) {
    client_options o;
    o.version = v;
    client c{url(), o};
    wsse::client_security{verifies()}.install(c);
    std::string seen;
    c.intercept({.write_headers = {},
                 .after = {},
                 .whole_request = {},
                 .write_call_headers = {},
                 .read_header = {},
                 .whole_response = [&](std::string_view, std::string_view e, const part_source&) {
                   seen = e;
                 }});
    const auto r = c.call<wsse_test::addResponse>("add", wsse_test::add{2, 3});
    EXPECT_EQ(r.result, 5);
    EXPECT_EQ(r.user, "xxx");
    // What came: the Body and the response's own Timestamp, signed with the server's key.
    const auto v2 = wsse::verify_envelope(seen, verifies().verify_response->trusted);
    EXPECT_TRUE(v2.body);
    EXPECT_TRUE(v2.timestamp);
    EXPECT_EQ(v2.subject, "CN=signer,O=lather");
    EXPECT_LT(v2.created, v2.expires);
    EXPECT_TRUE(test::find_text(seen, "/Envelope/Header/Security/Signature/SignatureValue"));
  }
}

TEST_F(wsse_signed_response, LargeResponseIsSignedWhole) {
  // 200 KB of response: far past the chunking threshold, yet signed and sent as one message.
  client c{url()};
  wsse::client_security{verifies()}.install(c);
  const auto r = c.call<wsse_test::addResponse>("add", wsse_test::add{1, 200'000});
  EXPECT_EQ(r.user.size(), 200'000u);

  // A server whose body_limit is smaller than the response answers a fault instead.
  server small{{.address = "127.0.0.1", .port = 0, .threads = 1, .body_limit = 100'000}};
  small.mount("/calc", svc_);
  small.start();
  client to_small{"http://127.0.0.1:" + std::to_string(small.port()) + "/calc"};
  wsse::client_security{verifies()}.install(to_small);
  EXPECT_EQ(
      (wsse_test::fault_of<wsse_test::addResponse>(to_small, "add", wsse_test::add{1, 200'000})),
      "Internal server error");
  EXPECT_EQ(to_small.call<wsse_test::addResponse>("add", wsse_test::add{1, 2}).user, "xx");
  small.stop();
}

TEST_F(wsse_signed_response, TamperedResponseIsRefused) {
  // Changed on the way, after the server signed it: an interceptor added after the signing
  // one, on a service of its own (a started server's services take no more interceptors).
  service tampered_svc{"Calc", std::string(wsse_test::ns)};
  tampered_svc.operation("add", [](const wsse_test::add& in) {
    return wsse_test::addResponse{in.a + in.b, ""};
  });
  wsse::server_security tampered_sec{no_passwords, signs_responses()};
  tampered_sec.install(tampered_svc);
  tampered_svc.intercept({.before = {},
                          .after = {},
                          .whole_request = {},
                          .fault_headers = {},
                          .whole_response = [](call_context&, std::string& envelope) {
                            const auto at = envelope.find(">5<");
                            if (at != std::string::npos) envelope[at + 1] = '6';
                          }});
  server tampering{{.address = "127.0.0.1", .port = 0, .threads = 1}};
  tampering.mount("/calc", tampered_svc);
  tampering.start();
  const std::string at = "http://127.0.0.1:" + std::to_string(tampering.port()) + "/calc";
  client c{at};
  wsse::client_security{verifies()}.install(c);
  EXPECT_EQ((wsse_test::fault_of<wsse_test::addResponse>(c, "add", wsse_test::add{2, 3})),
            "FailedCheck");
  // Without verification the client would have believed it.
  client trusting{at};
  EXPECT_EQ(trusting.call<wsse_test::addResponse>("add", wsse_test::add{2, 3}).result, 6);
  tampering.stop();
}

TEST_F(wsse_signed_response, UnsignedUntrustedAndStaleResponsesAreRefused) {
  client c{url()};
  wsse::client_security sec{verifies()};
  sec.install(c);
  EXPECT_EQ((wsse_test::fault_of<wsse_test::nowResponse>(c, "now", wsse_test::now{})),
            "InvalidSecurity");
  // A fault is not signed, and comes through as the fault it is.
  EXPECT_EQ((wsse_test::fault_of<wsse_test::addResponse>(c, "add", wsse_test::add{-1, 3})),
            "negative");
  // The client's idea of the server's clock is an hour ahead: the response looks stale.
  sec.set_clock_offset(std::chrono::hours(1));
  EXPECT_EQ((wsse_test::fault_of<wsse_test::addResponse>(c, "add", wsse_test::add{2, 3})),
            "MessageExpired");
  sec.set_clock_offset({});
  EXPECT_EQ((wsse_test::fault_of<wsse_test::addResponse>(c, "add", wsse_test::add{2, 3})), "");

  // A server signing with a key the client does not trust.
  service rogue_svc{"Calc", std::string(wsse_test::ns)};
  rogue_svc.operation("add", [](const wsse_test::add& in) {
    return wsse_test::addResponse{in.a + in.b, ""};
  });
  wsse::server_security rogue_sec{[](std::string_view) { return std::optional<std::string>(); },
                                  signs_responses("rogue")};
  rogue_sec.install(rogue_svc);
  server rogue{{.address = "127.0.0.1", .port = 0, .threads = 1}};
  rogue.mount("/calc", rogue_svc);
  rogue.start();
  client to_rogue{"http://127.0.0.1:" + std::to_string(rogue.port()) + "/calc"};
  wsse::client_security{verifies()}.install(to_rogue);
  EXPECT_EQ((wsse_test::fault_of<wsse_test::addResponse>(to_rogue, "add", wsse_test::add{2, 3})),
            "FailedAuthentication");
  rogue.stop();
}

}  // namespace
