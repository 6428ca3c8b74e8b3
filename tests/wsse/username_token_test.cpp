// WS-Security UsernameToken between lather's client and server: digest and text passwords,
// freshness against the server's skew window and TTL, the replay cache, the client's clock
// offset (and recovering it from the server's reported time, as ONVIF clients must), and the
// WS-Security fault each failure gets.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "calc_types.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "lather/wsse.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace {

using namespace lather;
using namespace std::chrono_literals;
using wsse::fault_code;

class wsse_username_token : public ::testing::Test {
 protected:
  void SetUp() override {
    svc_.operation("add", [](call_context& ctx, const wsse_test::add& in) {
      return wsse_test::addResponse{in.a + in.b, std::string(wsse::server_security::user(ctx))};
    });
    svc_.operation("now", [](const wsse_test::now&) {
      std::array<char, 24> text;
      return wsse_test::nowResponse{
          std::string(wsse::format_time(std::chrono::system_clock::now(), text))};
    });
    sec_.operation("now", {});  // open, as ONVIF's GetSystemDateAndTime
    sec_.install(svc_);
    srv_.mount("/calc", svc_);
    auto plain_add = [](const wsse_test::add& in) {
      return wsse_test::addResponse{in.a + in.b, {}};
    };
    strict_svc_.operation("add", plain_add);
    strict_.install(strict_svc_);
    srv_.mount("/strict", strict_svc_);
    stamped_svc_.operation("add", plain_add);
    stamped_.install(stamped_svc_);
    srv_.mount("/stamped", stamped_svc_);
    srv_.start();
  }
  void TearDown() override { srv_.stop(); }

  std::string url(std::string_view path = "/calc") const {
    return "http://127.0.0.1:" + std::to_string(srv_.port()) + std::string(path);
  }

  client_options options(soap::version v = soap::version::soap11) const {
    client_options o;
    o.version = v;
    return o;
  }

  static wsse::client_policy digest(std::string user = "alice",
                                    std::string password = "wonderland") {
    wsse::client_policy p;
    p.token = wsse::username_token{std::move(user), std::move(password)};
    return p;
  }

  // The WS-Security code of the fault the call ends with ("" when it succeeds).
  static std::string fault_of(client& c, const call_options& o = {}) {
    try {
      c.call<wsse_test::addResponse>("add", wsse_test::add{1, 2}, o);
    } catch (const soap::fault_error& e) {
      for (auto code : {fault_code::unsupported_security_token, fault_code::invalid_security,
                        fault_code::invalid_security_token, fault_code::failed_authentication,
                        fault_code::message_expired})
        if (wsse::is_fault(e.get(), code)) {
          EXPECT_EQ(e.get().reason, wsse::fault_reason(code));  // the spec's text, nothing more
          return std::string(wsse::fault_code_name(code));
        }
      return std::string("other fault: ") + e.what();
    }
    return "";
  }

  service svc_{"Calc", std::string(wsse_test::ns)};
  wsse::server_security sec_{[](std::string_view user) -> std::optional<std::string> {
                               if (user == "alice") return "wonderland";
                               return std::nullopt;
                             },
                             {.username_token = true}};
  // Digest only.
  service strict_svc_{"Strict", std::string(wsse_test::ns)};
  wsse::server_security strict_{
      [](std::string_view) { return std::optional<std::string>("wonderland"); },
      {.username_token = true, .allow_text = false}};
  // Timestamp only.
  service stamped_svc_{"Stamped", std::string(wsse_test::ns)};
  wsse::server_security stamped_{[](std::string_view) { return std::optional<std::string>("pw"); },
                                 {.timestamp = true}};
  server srv_{{.address = "127.0.0.1", .port = 0, .threads = 2}};
};

TEST_F(wsse_username_token, DigestAuthenticatesInSoap11And12) {
  for (auto v : {soap::version::soap11, soap::version::soap12}) {
    client c{url(), options(v)};
    wsse::client_security{digest()}.install(c);
    const auto r = c.call<wsse_test::addResponse>("add", wsse_test::add{2, 3});
    EXPECT_EQ(r.result, 5);
    EXPECT_EQ(r.user, "alice");
    // A fresh nonce per message: the second call is no replay.
    EXPECT_EQ(c.call<wsse_test::addResponse>("add", wsse_test::add{2, 3}).result, 5);
  }
}

TEST_F(wsse_username_token, TextPasswordAuthenticatesAndCanBeRefused) {
  auto p = digest();
  p.token->type = wsse::password_type::text;
  p.token->nonce = p.token->created = false;
  client c{url(), options()};
  wsse::client_security{p}.install(c);
  EXPECT_EQ(fault_of(c), "");

  client strict{url("/strict"), options()};
  wsse::client_security{p}.install(strict);
  EXPECT_EQ(fault_of(strict), "UnsupportedSecurityToken");
}

TEST_F(wsse_username_token, WrongPasswordAndUnknownUserFailAuthenticationAlike) {
  for (auto v : {soap::version::soap11, soap::version::soap12}) {
    client wrong{url(), options(v)};
    wsse::client_security{digest("alice", "looking-glass")}.install(wrong);
    EXPECT_EQ(fault_of(wrong), "FailedAuthentication");
    client unknown{url(), options(v)};
    wsse::client_security{digest("mallory", "wonderland")}.install(unknown);
    EXPECT_EQ(fault_of(unknown), "FailedAuthentication");
  }
  // SOAP 1.1: the code itself is wsse:FailedAuthentication; 1.2: Sender with that subcode.
  client c{url(), options()};
  wsse::client_security{digest("alice", "x")}.install(c);
  try {
    c.call<wsse_test::addResponse>("add", wsse_test::add{});
    FAIL() << "no fault";
  } catch (const soap::fault_error& e) {
    EXPECT_EQ(e.get().received_code.ns, wsse::wsse_ns);
    EXPECT_EQ(e.get().received_code.local, "FailedAuthentication");
    EXPECT_TRUE(e.get().detail_xml.empty());
  }
}

TEST_F(wsse_username_token, MissingHeaderIsInvalidSecurityButOpenOperationsIgnoreIt) {
  client plain{url(), options()};
  EXPECT_EQ(fault_of(plain), "InvalidSecurity");
  EXPECT_FALSE(plain.call<wsse_test::nowResponse>("now", wsse_test::now{}).utc.empty());
  // A client whose clock is far off still gets the time from the open operation.
  client skewed{url(), options()};
  wsse::client_security sec{digest()};
  sec.set_clock_offset(-3h);
  sec.install(skewed);
  EXPECT_FALSE(skewed.call<wsse_test::nowResponse>("now", wsse_test::now{}).utc.empty());
}

TEST_F(wsse_username_token, StaleOrFutureCreatedExpiresAndTheClockOffsetHelperRecovers) {
  client c{url(), options()};
  wsse::client_security sec{digest()};
  sec.install(c);
  sec.set_clock_offset(-1h);
  EXPECT_EQ(fault_of(c), "MessageExpired");
  sec.set_clock_offset(+1h);
  EXPECT_EQ(fault_of(c), "MessageExpired");

  // ONVIF style: ask the peer its time, derive the offset, sign with the peer's clock. The
  // server's clock is this machine's, so the offset found must be about zero.
  const auto sent = std::chrono::system_clock::now();
  const auto reported = c.call<wsse_test::nowResponse>("now", wsse_test::now{});
  const auto received = std::chrono::system_clock::now();
  const auto peer = wsse::parse_time(reported.utc);
  ASSERT_TRUE(peer);
  const auto offset = wsse::clock_offset(*peer, sent, received);
  EXPECT_LT(std::chrono::abs(offset), 2s);
  sec.set_clock_offset(offset);
  EXPECT_EQ(fault_of(c), "");
}

TEST_F(wsse_username_token, SkewWindowAndTtlChangeAtRunTime) {
  client c{url(), options()};
  wsse::client_security sec{digest()};
  sec.install(c);
  sec.set_clock_offset(90s);  // 90 s ahead of the server
  EXPECT_EQ(fault_of(c), "");
  sec_.set_max_skew(30s);
  EXPECT_EQ(fault_of(c), "MessageExpired");
  sec.set_clock_offset(-60s);  // 60 s old: within ttl 300 s
  EXPECT_EQ(fault_of(c), "");
  sec_.set_ttl(20s);
  EXPECT_EQ(fault_of(c), "MessageExpired");
}

// A Security header written by hand, with a nonce and Created of the test's choosing.
call_options fixed_token(std::string created, std::string password = "wonderland",
                         std::array<std::uint8_t, 16> nonce = {1, 2, 3, 4, 5, 6, 7, 8, 9}) {
  call_options o;
  o.headers.push_back([=](xml::writer& w) {
    std::string nonce64;
    xsd::base64_encode(nonce, nonce64);
    w.start_element(wsse::wsse_ns, "Security");
    w.start_element(wsse::wsse_ns, "UsernameToken");
    w.start_element(wsse::wsse_ns, "Username");
    w.text("alice");
    w.end_element();
    w.start_element(wsse::wsse_ns, "Password");
    w.attribute({}, "Type", wsse::password_digest_uri);
    w.text(wsse::password_digest(nonce, created, password));
    w.end_element();
    w.start_element(wsse::wsse_ns, "Nonce");
    w.text(nonce64);
    w.end_element();
    w.start_element(wsse::wsu_ns, "Created");
    w.text(created);
    w.end_element();
    w.end_element();
    w.end_element();
  });
  return o;
}

std::string created_now(std::chrono::system_clock::duration shift = {}) {
  std::array<char, 24> text;
  return std::string(wsse::format_time(std::chrono::system_clock::now() + shift, text));
}

TEST_F(wsse_username_token, ReplayedNonceIsRefused) {
  client c{url(), options()};
  const call_options once = fixed_token(created_now());
  EXPECT_EQ(fault_of(c, once), "");
  EXPECT_EQ(fault_of(c, once), "InvalidSecurity");
  // The same nonce with another Created is another token.
  EXPECT_EQ(fault_of(c, fixed_token(created_now(1s))), "");
  // A replay with a wrong password is an authentication failure first (it never reaches the
  // cache, so it cannot evict or poison an entry).
  EXPECT_EQ(fault_of(c, fixed_token(created_now(2s), "guess")), "FailedAuthentication");
  EXPECT_EQ(fault_of(c, fixed_token(created_now(2s))), "");
}

TEST_F(wsse_username_token, CreatedIsVerifiedAsReceived) {
  client c{url(), options()};
  // Another lexical form of the same instant (zeep's +00:00, no milliseconds): the digest is
  // over the text sent, so it verifies; a re-formatted Created would not.
  const auto t = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
  std::array<char, 24> text;
  std::string created(wsse::format_time(t, text).substr(0, 19));
  created += "+00:00";
  EXPECT_EQ(fault_of(c, fixed_token(created)), "");
  EXPECT_EQ(fault_of(c, fixed_token("yesterday")), "InvalidSecurityToken");
}

TEST_F(wsse_username_token, ReplayCacheIsBounded) {
  sec_.set_replay_capacity(4);
  client c{url(), options()};
  wsse::client_security{digest()}.install(c);
  for (int i = 0; i < 10; ++i) ASSERT_EQ(fault_of(c), "");
  EXPECT_LE(sec_.replay_entries(), 4u);
}

TEST_F(wsse_username_token, TimestampRequiredAndChecked) {
  const std::string stamped = url("/stamped");

  client without{stamped, options(soap::version::soap12)};
  wsse::client_security{digest("u", "pw")}.install(without);
  EXPECT_EQ(fault_of(without), "InvalidSecurity");

  wsse::client_policy p;
  p.timestamp = true;
  p.timestamp_ttl = 10s;
  client with{stamped, options(soap::version::soap12)};
  wsse::client_security sec{p};
  sec.install(with);
  EXPECT_EQ(fault_of(with), "");
  sec.set_clock_offset(-20s);  // Expires 10 s ago, beyond a 5 s skew
  stamped_.set_max_skew(5s);
  EXPECT_EQ(fault_of(with), "MessageExpired");
}

// The header as written: digest over exactly the nonce and Created bytes sent, a fresh
// nonce each time, Created in UTC with milliseconds.
TEST(wsse_username_token_header, DigestIsOverTheBytesWrittenAndNoncesAreFresh) {
  wsse::client_policy p;
  p.token = wsse::username_token{"bob", "builder"};
  wsse::client_security sec{p};
  std::set<std::string> nonces;
  for (int i = 0; i < 3; ++i) {
    xml::output out;
    xml::writer w{out};
    sec.write_header(w, soap::version::soap11, p);
    w.end_document();
    xml::reader r;
    r.reset(out.view());
    std::string password, nonce, created;
    std::string* into = nullptr;
    for (xml::token t = r.next(); t != xml::token::end_document; t = r.next()) {
      if (t == xml::token::start_element)
        into = r.local_name() == "Password"  ? &password
               : r.local_name() == "Nonce"   ? &nonce
               : r.local_name() == "Created" ? &created
                                             : nullptr;
      else if (t == xml::token::text && into)
        *into += r.text();
      else
        into = nullptr;
      ASSERT_NE(t, xml::token::error) << r.error().message();
    }
    std::vector<std::uint8_t> raw;
    ASSERT_EQ(xsd::base64_decode(nonce, raw), bind::errc::ok);
    EXPECT_EQ(raw.size(), 16u);
    EXPECT_EQ(password, wsse::password_digest(raw, created, "builder"));
    ASSERT_EQ(created.size(), 24u);  // 2024-05-01T12:00:00.123Z
    EXPECT_EQ(created[19], '.');
    EXPECT_EQ(created.back(), 'Z');
    nonces.insert(nonce);
  }
  EXPECT_EQ(nonces.size(), 3u);
}

TEST(wsse_username_token_header, KnownDigestAndTimes) {
  // UsernameToken Profile 1.1 example values (Nonce, Created, password "taadtaadpstcsm").
  std::vector<std::uint8_t> nonce;
  ASSERT_EQ(xsd::base64_decode("Q1lhWd2NYTHRfNRhTAVn2w==", nonce), bind::errc::ok);
  EXPECT_EQ(wsse::password_digest(nonce, "2003-07-16T01:24:32Z", "taadtaadpstcsm").size(), 28u);
  // Cross-checked with Python: base64(sha1(b"abc" + b"2024-01-01T00:00:00Z" + b"pw")).
  const std::uint8_t abc[] = {'a', 'b', 'c'};
  EXPECT_EQ(wsse::password_digest(abc, "2024-01-01T00:00:00Z", "pw"),
            "p6NryYWnwq9ZNjXYyb/fmfOW8Mk=");

  const auto t = wsse::utc_time(2024, 2, 29, 23, 59, 58) + std::chrono::milliseconds(7);
  std::array<char, 24> text;
  EXPECT_EQ(wsse::format_time(t, text), "2024-02-29T23:59:58.007Z");
  EXPECT_EQ(wsse::parse_time("2024-02-29T23:59:58.007Z"), t);
  EXPECT_EQ(wsse::parse_time("2024-03-01T01:59:58.007+02:00"), t);
  EXPECT_FALSE(wsse::parse_time("2024-02-30T00:00:00Z"));
  const auto sent = wsse::utc_time(2024, 1, 1, 0, 0, 0);
  EXPECT_EQ(
      wsse::clock_offset(sent + std::chrono::seconds(3601), sent, sent + std::chrono::seconds(2)),
      std::chrono::milliseconds(3600'000));
}

}  // namespace
