// zeep (python3-zeep, zeep.wsse.username.UsernameToken) calls a lather server over loopback
// with PasswordDigest and PasswordText, in SOAP 1.1 and 1.2; a wrong password, a replayed
// token and a stale Created each come back as zeep.exceptions.Fault with the WS-Security code.
// zeep.wsse.signature (python3-xmlsec) signs requests that the lather server verifies.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "../support/paths.hpp"
#include "../support/process.hpp"
#include "calc_types.hpp"
#include "lather/service/server.hpp"
#include "lather/wsse.hpp"
#include "test_certs.hpp"

namespace {

using namespace lather;
namespace fs = std::filesystem;

const fs::path kPython = "/usr/bin/python3";
const fs::path kScript = fs::path(lather::test::source_dir) / "tests/wsse/zeep_wsse.py";

class wsse_zeep : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kPython)) GTEST_SKIP() << "python3 missing";
    svc_.operation("add", [](call_context& ctx, const wsse_test::add& in) {
      return wsse_test::addResponse{in.a + in.b, std::string(wsse::server_security::user(ctx))};
    });
    sec_.install(svc_);
    srv_.mount("/calc", svc_);
    signed_svc_.operation("add", [](call_context& ctx, const wsse_test::add& in) {
      return wsse_test::addResponse{in.a + in.b, std::string(wsse::server_security::signer(ctx))};
    });
    if (!certs_.empty()) {
      wsse::trust_store trusted;
      trusted.add_file(certs_ / "ca.pem");
      signed_sec_.set_trust_store(trusted);
    }
    signed_sec_.install(signed_svc_);
    srv_.mount("/signed", signed_svc_);
    srv_.start();
  }
  void TearDown() override { srv_.stop(); }

  static void SetUpTestSuite() {
    std::string log;
    certs_ = wsse_test::make_certificates(log);
  }

  // zeep's output, one line per call.
  std::string zeep(std::vector<std::string> args, std::string_view path = "/calc") {
    std::vector<std::string> argv = {
        kPython.string(), kScript.string(), "--wsdl",
        "http://127.0.0.1:" + std::to_string(srv_.port()) + std::string(path) + "?wsdl"};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto r = test::run(argv, test::clock::now() + std::chrono::seconds(60));
    EXPECT_EQ(r.exit, 0) << r.out;
    return r.out;
  }

  service svc_{"Calc", std::string(wsse_test::ns)};
  wsse::server_security sec_{[](std::string_view user) -> std::optional<std::string> {
                               if (user == "alice") return "wonderland";
                               return std::nullopt;
                             },
                             {.username_token = true}};
  static fs::path certs_;
  service signed_svc_{"Calc", std::string(wsse_test::ns)};
  wsse::server_security signed_sec_{[](std::string_view) { return std::optional<std::string>(); },
                                    {.signature = true}};
  server srv_{{.address = "127.0.0.1", .port = 0, .threads = 2}};
};

fs::path wsse_zeep::certs_;

TEST_F(wsse_zeep, DigestAndTextInSoap11And12) {
  for (const char* version : {"--soap11", "--soap12"}) {
    std::vector<std::string> v;
    if (std::string(version) == "--soap12") v.push_back(version);
    auto with = [&](std::vector<std::string> a) {
      a.insert(a.end(), v.begin(), v.end());
      return a;
    };
    EXPECT_EQ(
        zeep(with({"--user", "alice", "--password", "wonderland", "--digest", "--calls", "2"})),
        "ok 5 alice\nok 5 alice\n")
        << version;
    EXPECT_EQ(zeep(with({"--user", "alice", "--password", "wonderland"})), "ok 5 alice\n")
        << version;
    EXPECT_EQ(zeep(with({"--user", "alice", "--password", "nope", "--digest"})),
              "fault FailedAuthentication\n")
        << version;
  }
}

TEST_F(wsse_zeep, ReplayAndStaleCreatedAreRefused) {
  // zeep formats Created without milliseconds; a fixed one within the window, sent twice.
  const auto now = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
  std::array<char, 24> text;
  const std::string created(wsse::format_time(now, text).substr(0, 19));
  EXPECT_EQ(zeep({"--user", "alice", "--password", "wonderland", "--digest", "--created", created,
                  "--nonce", "fixed-nonce-1", "--calls", "2"}),
            "ok 5 alice\nfault InvalidSecurity\n");
  const std::string stale(wsse::format_time(now - std::chrono::hours(1), text).substr(0, 19));
  EXPECT_EQ(zeep({"--user", "alice", "--password", "wonderland", "--digest", "--created", stale,
                  "--nonce", "fixed-nonce-2"}),
            "fault MessageExpired\n");
}

TEST_F(wsse_zeep, SignedRequestsVerify) {
  if (test::run({kPython.string(), "-c", "import xmlsec"},
                test::clock::now() + std::chrono::seconds(30))
          .exit != 0)
    GTEST_SKIP() << "python3-xmlsec missing";
  ASSERT_FALSE(certs_.empty()) << "openssl could not make the test certificates";
  const std::string key = (certs_ / "signer.key").string(), cert = (certs_ / "signer.pem").string();
  for (const char* version : {"", "--soap12"}) {
    std::vector<std::string> x509 = {"--sign", key, cert};
    std::vector<std::string> binary = {"--sign", key, cert, "--binary"};
    if (*version) {
      x509.push_back(version);
      binary.push_back(version);
    }
    EXPECT_EQ(zeep(x509, "/signed"), "ok 5 CN=signer,O=lather\n") << version;
    EXPECT_EQ(zeep(binary, "/signed"), "ok 5 CN=signer,O=lather\n") << version;
  }
  // Signed with a certificate the server does not trust.
  EXPECT_EQ(
      zeep({"--sign", (certs_ / "rogue.key").string(), (certs_ / "rogue.pem").string()}, "/signed"),
      "fault FailedAuthentication\n");
  // Not signed at all.
  EXPECT_EQ(zeep({"--user", "alice", "--password", "wonderland"}, "/signed"),
            "fault InvalidSecurity\n");
}

}  // namespace
