// Signed responses across stacks. No zeep server exists (zeep is a client), so the two
// directions are: zeep calls a lather server that verifies zeep's signed requests and signs its
// responses, which zeep verifies (zeep.wsse.signature.verify_envelope); and lather's client
// calls an endpoint answering with a response signed by zeep's signing code, which it verifies
// (and refuses tampered). `xmlsec1 --verify` accepts a response recorded from lather's server.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../support/paths.hpp"
#include "../support/process.hpp"
#include "calc_types.hpp"
#include "lather/http/server.hpp"
#include "lather/mtom.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "lather/soap/envelope.hpp"
#include "lather/wsse.hpp"
#include "lather/xml/writer.hpp"
#include "test_certs.hpp"

namespace wsse_test {
struct blob {  // request and response of "blob", which echoes it
  lather::mtom::attachment data;
};
}  // namespace wsse_test

template <>
struct lather::meta<wsse_test::blob> {
  static constexpr std::string_view name = "blob", ns = wsse_test::ns;
  static constexpr auto fields = std::tuple{element("data", &wsse_test::blob::data)};
};

namespace {

using namespace lather;
namespace fs = std::filesystem;

const fs::path kPython = "/usr/bin/python3";
const fs::path kScript = fs::path(lather::test::source_dir) / "tests/wsse/zeep_wsse.py";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

class wsse_response_interop : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string log;
    certs_ = wsse_test::make_certificates(log);
    work_ = fs::temp_directory_path() / ("lather-wsse-response-" + std::to_string(::getpid()));
    fs::create_directories(work_);
  }
  static void TearDownTestSuite() { fs::remove_all(work_); }

  void SetUp() override {
    if (certs_.empty()) GTEST_SKIP() << "openssl could not make the test certificates";
    svc_.operation("add", [](call_context& ctx, const wsse_test::add& in) {
      return wsse_test::addResponse{in.a + in.b, std::string(wsse::server_security::signer(ctx))};
    });
    sec_.set_trust_store(trusted());
    sec_.install(svc_);
    srv_.mount("/calc", svc_);
    srv_.start();
  }
  void TearDown() override { srv_.stop(); }

  static wsse::trust_store trusted() {
    wsse::trust_store t;
    t.add_file(certs_ / "ca.pem");
    return t;
  }
  static wsse::server_policy policy() {
    wsse::server_policy p;
    p.signature = true;
    p.sign_response =
        wsse::signing{wsse::credentials::from_files(certs_ / "signer.key", certs_ / "signer.pem")};
    return p;
  }
  static bool have_zeep_xmlsec() {
    return fs::exists(kPython) && test::run({kPython.string(), "-c", "import zeep, xmlsec"},
                                            test::clock::now() + std::chrono::seconds(30))
                                          .exit == 0;
  }
  static test::run_result zeep(std::vector<std::string> args) {
    std::vector<std::string> argv = {kPython.string(), kScript.string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return test::run(argv, test::clock::now() + std::chrono::seconds(60));
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(srv_.port()) + "/calc"; }

  static fs::path certs_, work_;
  service svc_{"Calc", std::string(wsse_test::ns)};
  wsse::server_security sec_{[](std::string_view) { return std::optional<std::string>(); },
                             policy()};
  server srv_{{.address = "127.0.0.1", .port = 0, .threads = 2}};
};

fs::path wsse_response_interop::certs_, wsse_response_interop::work_;

TEST_F(wsse_response_interop, ZeepVerifiesLathersSignedResponses) {
  if (!have_zeep_xmlsec()) GTEST_SKIP() << "python3-zeep or python3-xmlsec missing";
  const std::string key = (certs_ / "signer.key").string(), cert = (certs_ / "signer.pem").string();
  for (const char* version : {"", "--soap12"}) {
    std::vector<std::string> args = {"--wsdl", url() + "?wsdl",     "--sign", key,
                                     cert,     "--verify-response", cert};
    if (*version) args.push_back(version);
    const auto ok = zeep(args);
    EXPECT_EQ(ok.exit, 0) << ok.out;
    EXPECT_EQ(ok.out, "ok 5 CN=signer,O=lather\n") << version;
    // zeep expecting another signer's key refuses the same response.
    args[6] = (certs_ / "rogue.pem").string();
    EXPECT_EQ(zeep(args).out, "unverified\n") << version;
  }
}

// zeep sends its request inline (it sends no MTOM); the server answers in MTOM and signs the
// response over the XOP infoset; zeep replaces the xop:Include with the part's base64 before it
// verifies, so its check covers the attachment's bytes.
TEST_F(wsse_response_interop, ZeepVerifiesLathersSignedMtomResponse) {
  if (!have_zeep_xmlsec()) GTEST_SKIP() << "python3-zeep or python3-xmlsec missing";
  service files{"Calc", std::string(wsse_test::ns)};
  files.operation("blob", [](const wsse_test::blob& in) {
    wsse_test::blob out = in;
    out.data.set_mode(mtom::send_as::part);
    return out;
  });
  mtom::options mo;
  mo.respond_in_kind = false;
  mtom::enable(files, mo);
  wsse::server_security sec{[](std::string_view) { return std::optional<std::string>(); },
                            policy()};
  sec.set_trust_store(trusted());
  sec.install(files);
  std::atomic<bool> multipart = false;  // set on the server's thread
  files.intercept(
      {.before = {},
       .after = {},
       .whole_request = {},
       .fault_headers = {},
       .whole_response = [&](call_context&, std::string& e) { multipart = e.starts_with("--"); }});
  server srv{{.address = "127.0.0.1", .port = 0, .threads = 1}};
  srv.mount("/files", files);
  srv.start();
  const std::string key = (certs_ / "signer.key").string(), cert = (certs_ / "signer.pem").string();
  const std::string wsdl = "http://127.0.0.1:" + std::to_string(srv.port()) + "/files?wsdl";
  for (const char* version : {"", "--soap12"}) {
    std::vector<std::string> args = {"--wsdl", wsdl,     "--sign", key, cert, "--verify-response",
                                     cert,     "--blob", "300000"};
    if (*version) args.push_back(version);
    const auto ok = zeep(args);
    EXPECT_EQ(ok.out, "ok-blob 300000 True\n") << version;
    EXPECT_TRUE(multipart.load()) << version;  // the response went as MTOM
    args[6] = (certs_ / "rogue.pem").string();
    EXPECT_EQ(zeep(args).out, "unverified\n") << version;
  }
  srv.stop();
}

TEST_F(wsse_response_interop, LatherVerifiesAResponseSignedByZeep) {
  if (!have_zeep_xmlsec()) GTEST_SKIP() << "python3-zeep or python3-xmlsec missing";
  // The response as an endpoint would send it before signing: a Security header with a
  // Timestamp, and the Body.
  xml::output out;
  {
    xml::writer w{out};
    soap::envelope_writer env{w, soap::version::soap11};
    env.begin();
    env.begin_header();
    wsse::client_policy stamp;
    stamp.timestamp = true;
    wsse::client_security{stamp}.write_header(w, soap::version::soap11, stamp);
    env.begin_body();
    w.start_element(wsse_test::ns, "addResponse");
    w.start_element(wsse_test::ns, "result");
    w.text("5");
    w.end_element();
    w.start_element(wsse_test::ns, "user");
    w.text("zeep");
    w.end_element();
    w.end_element();
    env.end();
  }
  std::ofstream(work_ / "unsigned.xml", std::ios::binary) << out.view();
  for (const bool binary : {false, true}) {
    std::vector<std::string> args = {
        "--sign-envelope", (certs_ / "signer.key").string(), (certs_ / "signer.pem").string(),
        (work_ / "unsigned.xml").string(), (work_ / "zeep-signed.xml").string()};
    if (binary) args.push_back("--binary");
    const auto r = zeep(args);
    ASSERT_EQ(r.exit, 0) << r.out;
    const std::string signed_response = slurp(work_ / "zeep-signed.xml");
    std::string tampered = signed_response;
    tampered.replace(tampered.find(">5<"), 3, ">6<");

    // An endpoint answering every call with that response, as recorded.
    const std::string* answer = &signed_response;
    http::server peer{{.address = "127.0.0.1", .port = 0, .threads = 1}};
    peer.route("/", [&answer](http::request& req, http::response& res) {
      char sink[4096];
      while (req.read_body(sink, sizeof sink) != 0) {
      }
      res.set_header("Content-Type", "text/xml; charset=utf-8");
      res.body().append(*answer);
    });
    peer.start();
    client c{"http://127.0.0.1:" + std::to_string(peer.port()) + "/calc"};
    wsse::client_policy p;
    p.verify_response = wsse::response_verification{trusted()};
    wsse::client_security{p}.install(c);
    const auto ok = c.call<wsse_test::addResponse>("add", wsse_test::add{2, 3});
    EXPECT_EQ(ok.result, 5) << binary;
    EXPECT_EQ(ok.user, "zeep");
    answer = &tampered;
    try {
      c.call<wsse_test::addResponse>("add", wsse_test::add{2, 3});
      ADD_FAILURE() << "a tampered response was accepted";
    } catch (const soap::fault_error& e) {
      EXPECT_TRUE(wsse::is_fault(e.get(), wsse::fault_code::failed_check)) << e.what();
    }
    peer.stop();
  }
}

TEST_F(wsse_response_interop, Xmlsec1VerifiesARecordedSignedResponse) {
  if (!fs::exists("/usr/bin/xmlsec1")) GTEST_SKIP() << "xmlsec1 missing (Debian package xmlsec1)";
  // lather's client signs the request (the service requires it) and records the response.
  client c{url()};
  wsse::client_policy p;
  p.timestamp = true;
  p.sign =
      wsse::signing{wsse::credentials::from_files(certs_ / "signer.key", certs_ / "signer.pem")};
  wsse::client_security{p}.install(c);
  std::string recorded;
  c.intercept({.write_headers = {},
               .after = {},
               .whole_request = {},
               .write_call_headers = {},
               .read_header = {},
               .whole_response = [&](std::string_view, std::string_view e, const part_source&) {
                 recorded = e;
               }});
  EXPECT_EQ(c.call<wsse_test::addResponse>("add", wsse_test::add{2, 3}).result, 5);
  std::ofstream(work_ / "response.xml", std::ios::binary) << recorded;
  std::string tampered = recorded;
  tampered.replace(tampered.find(">5<"), 3, ">6<");
  std::ofstream(work_ / "tampered.xml", std::ios::binary) << tampered;
  auto xmlsec = [&](const fs::path& file) {
    return test::run(
        {"/usr/bin/xmlsec1", "--verify", "--pubkey-cert-pem", (certs_ / "signer.pem").string(),
         "--id-attr:Id", "http://schemas.xmlsoap.org/soap/envelope/:Body", "--id-attr:Id",
         std::string(wsse::wsu_ns) + ":Timestamp", file.string()},
        test::clock::now() + std::chrono::seconds(30));
  };
  const auto r = xmlsec(work_ / "response.xml");
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(r.out.find("OK"), std::string::npos) << r.out;
  EXPECT_NE(xmlsec(work_ / "tampered.xml").exit, 0);
}

}  // namespace
