// XML Signature of SOAP messages: lather signs and verifies (RSA-SHA256 and RSA-SHA1; the
// certificate by direct reference, issuer serial and key identifier), rejects a tampered Body,
// an untrusted certificate and signature wrapping; and interoperates with xmlsec1 both ways
// (`xmlsec1 --verify` accepts lather's signed message, lather verifies `xmlsec1 --sign`'s).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "../support/process.hpp"
#include "../support/sanitizer.hpp"
#include "lather/bind/xsd.hpp"
#include "lather/http/client.hpp"
#include "lather/mtom.hpp"
#include "lather/service/server.hpp"
#include "lather/soap/envelope.hpp"
#include "lather/wsse.hpp"
#include "lather/xml/writer.hpp"
#include "test_certs.hpp"

namespace xop_test {
constexpr std::string_view ns = "urn:lather:xop-test";
struct blob {
  lather::mtom::attachment data;
};
}  // namespace xop_test

template <>
struct lather::meta<xop_test::blob> {
  static constexpr std::string_view name = "blob", ns = xop_test::ns;
  static constexpr auto fields = std::tuple{element("data", &xop_test::blob::data)};
};

namespace {

using namespace lather;
namespace fs = std::filesystem;
using wsse::fault_code;

const std::string soap11 = "http://schemas.xmlsoap.org/soap/envelope/";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void spit(const fs::path& p, std::string_view text) {
  std::ofstream(p, std::ios::binary) << text;
}

// The certificates of test_certs.hpp, made once.
class wsse_signature : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string log;
    dir_ = wsse_test::make_certificates(log);
    ASSERT_FALSE(dir_.empty()) << log;
    work_ = fs::temp_directory_path() / ("lather-wsse-signature-" + std::to_string(::getpid()));
    fs::create_directories(work_);
  }
  static void TearDownTestSuite() { fs::remove_all(work_); }

  static wsse::credentials signer() {
    return wsse::credentials::from_files(dir_ / "signer.key", dir_ / "signer.pem");
  }
  static wsse::trust_store trusted() {
    wsse::trust_store t;
    t.add_file(dir_ / "ca.pem");
    return t;
  }

  // An envelope with a Timestamp in its Security header, a header entry and a Body.
  static std::string message(soap::version v = soap::version::soap11) {
    xml::output out;
    xml::writer w{out};
    soap::envelope_writer env{w, v};
    env.begin();
    env.begin_header();
    wsse::client_policy p;
    p.timestamp = true;
    wsse::client_security{p}.write_header(w, v, p);
    w.start_element("urn:lather:route", "To");
    w.text("urn:somewhere");
    w.end_element();
    env.begin_body();
    w.start_element("urn:m", "transfer");
    w.start_element("urn:m", "amount");
    w.text("100");
    w.end_element();
    w.end_element();
    env.end();
    return std::string(out.view());
  }

  // The message with its Timestamp's Created set to `created`: a clock value a test needs.
  static std::string message_created_at(std::string_view created) {
    std::string m = message();
    const std::size_t begin = m.find("<wsu:Created>") + 13;
    m.replace(begin, m.find('<', begin) - begin, created);
    return m;
  }

  static std::string fault_of(std::string_view signed_message, const wsse::trust_store& t) {
    try {
      wsse::verify_envelope(signed_message, t);
    } catch (const soap::fault_error& e) {
      return e.get().received_code.local;
    }
    return "";
  }

  static void signature_over_xop_covers_the_attachment_bytes(std::string m);

  static fs::path dir_;   // the certificates
  static fs::path work_;  // this process's files
};

fs::path wsse_signature::dir_;
fs::path wsse_signature::work_;

TEST_F(wsse_signature, SignsAndVerifiesEachAlgorithmAndReference) {
  for (auto v : {soap::version::soap11, soap::version::soap12})
    for (auto alg : {wsse::signature_algorithm::rsa_sha256, wsse::signature_algorithm::rsa_sha1})
      for (auto ref : {wsse::token_reference::direct, wsse::token_reference::issuer_serial,
                       wsse::token_reference::subject_key_identifier}) {
        std::string m = message(v);
        wsse::signature_options o;
        o.algorithm = alg;
        o.reference = ref;
        o.headers = {{"urn:lather:route", "To", {}}};
        wsse::sign_envelope(m, signer(), o);
        wsse::trust_store t = trusted();
        if (ref != wsse::token_reference::direct) t.add_file(dir_ / "signer.pem");  // known to it
        const auto verified = wsse::verify_envelope(m, t);
        EXPECT_TRUE(verified.body);
        EXPECT_TRUE(verified.timestamp);
        ASSERT_EQ(verified.headers.size(), 1u);
        EXPECT_EQ(verified.headers[0].local, "To");
        EXPECT_EQ(verified.subject, "CN=signer,O=lather");
        EXPECT_NE(m.find(alg == wsse::signature_algorithm::rsa_sha1 ? "xmldsig#rsa-sha1"
                                                                    : "xmldsig-more#rsa-sha256"),
                  std::string::npos);
      }
}

TEST_F(wsse_signature, TamperedBodyOrSignatureFailsTheCheck) {
  std::string m = message();
  wsse::sign_envelope(m, signer());
  ASSERT_EQ(fault_of(m, trusted()), "");
  std::string tampered = m;
  tampered.replace(tampered.find(">100<"), 5, ">900<");
  EXPECT_EQ(fault_of(tampered, trusted()), "FailedCheck");
  // Whitespace inside the signed Body is content too.
  tampered = m;
  tampered.insert(tampered.find('>', tampered.find("<soap:Body")) + 1, " ");
  EXPECT_EQ(fault_of(tampered, trusted()), "FailedCheck");
  // A SignatureValue byte changed.
  tampered = m;
  const auto at = tampered.find("<ds:SignatureValue>") + 19;
  tampered[at] = tampered[at] == 'A' ? 'B' : 'A';
  EXPECT_EQ(fault_of(tampered, trusted()), "FailedCheck");
}

TEST_F(wsse_signature, UntrustedOrMissingCertificateIsRefused) {
  std::string m = message();
  wsse::sign_envelope(m, wsse::credentials::from_files(dir_ / "rogue.key", dir_ / "rogue.pem"));
  EXPECT_EQ(fault_of(m, trusted()), "FailedAuthentication");
  std::string by_serial = message();
  wsse::signature_options o;
  o.reference = wsse::token_reference::issuer_serial;
  wsse::sign_envelope(by_serial, signer(), o);
  EXPECT_EQ(fault_of(by_serial, trusted()), "SecurityTokenUnavailable");  // not in the message
  EXPECT_EQ(fault_of(message(), trusted()), "InvalidSecurity");           // no signature at all
}

TEST_F(wsse_signature, SignatureWrappingIsNotTakenForTheBody) {
  std::string m = message();
  wsse::sign_envelope(m, signer());
  const auto body_start = m.find("<soap:Body");
  const auto body_end = m.find("</soap:Body>") + 12;
  const std::string signed_body = m.substr(body_start, body_end - body_start);
  // The signed Body moved into a header wrapper, an unsigned Body in its place: the digests
  // still match, but what would be processed is not what was signed.
  std::string wrapped = m;
  wrapped.replace(body_start, body_end - body_start,
                  "<soap:Body><m:transfer xmlns:m=\"urn:m\"><m:amount>1000000</m:amount>"
                  "</m:transfer></soap:Body>");
  const auto header_end = wrapped.find("</soap:Header>");
  wrapped.insert(header_end, "<w:Wrapper xmlns:w=\"urn:evil\">" + signed_body + "</w:Wrapper>");
  const auto v = wsse::verify_envelope(wrapped, trusted());
  EXPECT_FALSE(v.body);
  // The same with the Id copied onto the new Body: two elements with one Id.
  std::string copied = wrapped;
  const std::string id_attr = signed_body.substr(0, signed_body.find('>'));
  copied.replace(copied.find("<soap:Body>"), 11, id_attr + ">");
  EXPECT_EQ(fault_of(copied, trusted()), "InvalidSecurity");
}

TEST_F(wsse_signature, ThousandsOfReferencesAreRefusedQuickly) {
  std::string m = message();
  wsse::sign_envelope(m, signer());
  const auto ref_start = m.find("<ds:Reference ");
  const auto ref_end = m.find("</ds:Reference>") + 15;
  const std::string one = m.substr(ref_start, ref_end - ref_start);
  std::string many;
  for (int i = 0; i < 20000; ++i) many += one;
  m.insert(ref_end, many);
  const auto started = std::chrono::steady_clock::now();
  EXPECT_EQ(fault_of(m, trusted()), "InvalidSecurity");
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(2) * test::slowdown);
}

// A message with many Ids (a response echoing a large request) is signed and verified in
// n log n: its Ids are sorted to be checked unique, not searched one by one.
TEST_F(wsse_signature, ManyIdsAreSignedAndVerifiedQuickly) {
  std::string m = message();
  std::string items;
  for (int i = 0; i < 50000; ++i) items += "<item Id=\"item-" + std::to_string(i) + "\"/>";
  m.insert(m.find("</soap:Body>"), items);
  const auto started = std::chrono::steady_clock::now();
  wsse::sign_envelope(m, signer());
  EXPECT_EQ(fault_of(m, trusted()), "");
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(2) * test::slowdown);
}

bool have_xmlsec1() {
  return fs::exists("/usr/bin/xmlsec1");
}

TEST_F(wsse_signature, Xmlsec1VerifiesLathersSignature) {
  if (!have_xmlsec1()) GTEST_SKIP() << "xmlsec1 missing (Debian package xmlsec1)";
  for (auto alg : {wsse::signature_algorithm::rsa_sha256, wsse::signature_algorithm::rsa_sha1}) {
    std::string m = message();
    wsse::signature_options o;
    o.algorithm = alg;
    wsse::sign_envelope(m, signer(), o);
    spit(work_ / "lather-signed.xml", m);
    auto xmlsec = [&](const fs::path& file) {
      return test::run({"/usr/bin/xmlsec1", "--verify", "--pubkey-cert-pem",
                        (dir_ / "signer.pem").string(), "--id-attr:Id", soap11 + ":Body",
                        "--id-attr:Id", std::string(wsse::wsu_ns) + ":Timestamp", file.string()},
                       test::clock::now() + std::chrono::seconds(30));
    };
    const auto r = xmlsec(work_ / "lather-signed.xml");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_NE(r.out.find("OK"), std::string::npos) << r.out;
    std::string tampered = m;
    tampered.replace(tampered.find(">100<"), 5, ">900<");
    spit(work_ / "lather-tampered.xml", tampered);
    EXPECT_NE(xmlsec(work_ / "lather-tampered.xml").exit, 0);
  }
}

// An envelope for `xmlsec1 --sign` to fill: a BinarySecurityToken with the signer's certificate,
// a Signature template over the Body (exc-c14n with a PrefixList, RSA-SHA256), and `body`.
std::string xmlsec1_template(const fs::path& dir, std::string_view body) {
  std::string cert_pem = slurp(dir / "signer.pem");
  std::string cert_b64;
  for (std::string_view line : {std::string_view(cert_pem)}) {
    std::istringstream in{std::string(line)};
    for (std::string l; std::getline(in, l);)
      if (l.find("-----") == std::string::npos) cert_b64 += l;
  }
  const std::string ds = "http://www.w3.org/2000/09/xmldsig#";
  const std::string exc = "http://www.w3.org/2001/10/xml-exc-c14n#";
  const std::string x509v3 =
      "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3";
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<soap:Envelope xmlns:soap=\"" +
         soap11 + "\" xmlns:wsse=\"" + std::string(wsse::wsse_ns) + "\" xmlns:wsu=\"" +
         std::string(wsse::wsu_ns) +
         "\">\n"
         "  <soap:Header>\n    <wsse:Security soap:mustUnderstand=\"1\">\n"
         "      <wsse:BinarySecurityToken EncodingType=\"" +
         std::string(wsse::base64_encoding_uri) + "\" ValueType=\"" + x509v3 +
         "\" wsu:Id=\"X509-T\">" + cert_b64 +
         "</wsse:BinarySecurityToken>\n"
         "      <ds:Signature xmlns:ds=\"" +
         ds +
         "\">\n        <ds:SignedInfo>\n"
         "          <ds:CanonicalizationMethod Algorithm=\"" +
         exc +
         "\"/>\n"
         "          <ds:SignatureMethod "
         "Algorithm=\"http://www.w3.org/2001/04/xmldsig-more#rsa-sha256\"/>\n"
         "          <ds:Reference URI=\"#body-1\"><ds:Transforms><ds:Transform Algorithm=\"" +
         exc + "\"><ec:InclusiveNamespaces xmlns:ec=\"" + exc +
         "\" PrefixList=\"wsse\"/></ds:Transform>"
         "</ds:Transforms><ds:DigestMethod Algorithm=\"http://www.w3.org/2001/04/xmlenc#sha256\"/>"
         "<ds:DigestValue/></ds:Reference>\n"
         "        </ds:SignedInfo>\n        <ds:SignatureValue/>\n"
         "        <ds:KeyInfo><wsse:SecurityTokenReference><wsse:Reference URI=\"#X509-T\" "
         "ValueType=\"" +
         x509v3 +
         "\"/></wsse:SecurityTokenReference></ds:KeyInfo>\n"
         "      </ds:Signature>\n    </wsse:Security>\n  </soap:Header>\n"
         "  <soap:Body wsu:Id=\"body-1\">\n    " +
         std::string(body) + "\n  </soap:Body>\n</soap:Envelope>\n";
}

// Signs `templ` with xmlsec1 as the test's signer; the signed message, or "" (logged).
std::string xmlsec1_sign(const fs::path& dir, const fs::path& work, const std::string& templ) {
  spit(work / "template.xml", templ);
  const auto r =
      test::run({"/usr/bin/xmlsec1", "--sign", "--privkey-pem",
                 (dir / "signer.key").string() + "," + (dir / "signer.pem").string(),
                 "--id-attr:Id", soap11 + ":Body", "--output",
                 (work / "xmlsec-signed.xml").string(), (work / "template.xml").string()},
                test::clock::now() + std::chrono::seconds(30));
  EXPECT_EQ(r.exit, 0) << r.out;
  return r.exit == 0 ? slurp(work / "xmlsec-signed.xml") : std::string();
}

TEST_F(wsse_signature, LatherVerifiesXmlsec1sSignature) {
  if (!have_xmlsec1()) GTEST_SKIP() << "xmlsec1 missing (Debian package xmlsec1)";
  const std::string m = xmlsec1_sign(
      dir_, work_,
      xmlsec1_template(dir_,
                       "<m:transfer xmlns:m=\"urn:m\"><m:amount>100</m:amount><m:note>a &amp; "
                       "b</m:note></m:transfer>"));
  ASSERT_FALSE(m.empty());
  const auto v = wsse::verify_envelope(m, trusted());
  EXPECT_TRUE(v.body);
  std::string tampered = m;
  tampered.replace(tampered.find(">100<"), 5, ">101<");
  EXPECT_EQ(fault_of(tampered, trusted()), "FailedCheck");
}

// MTOM: a Body whose binary field is an xop:Include of a 1 MB part, signed over the XOP infoset
// (the Include digested as the base64 of the part): the signature covers the part's bytes, a
// byte changed in the part fails the check, an Include to nothing or outside the message is
// refused, and the message with the part inlined is the one that was signed (lather without
// parts and xmlsec1 both verify it). The amount's text is replaced by the Include, never
// digits of the Timestamp: a Created at .100 seconds holds "100" too.
TEST_F(wsse_signature, SignatureOverXopCoversTheAttachmentBytes) {
  for (const std::string& unsigned_message :
       {message(), message_created_at("2026-12-04T11:10:00.100Z")})
    signature_over_xop_covers_the_attachment_bytes(unsigned_message);
}

void wsse_signature::signature_over_xop_covers_the_attachment_bytes(std::string m) {
  const std::size_t created = m.find("<wsu:Created>");
  SCOPED_TRACE(m.substr(created, m.find("</wsu:Created>") - created));
  std::string part(1 << 20, '\0');
  std::uint32_t x = 12345;
  for (char& c : part) c = static_cast<char>((x = x * 1103515245 + 12345) >> 24);
  const std::string include_element =
      "<xop:Include xmlns:xop=\"http://www.w3.org/2004/08/xop/include\" "
      "href=\"cid:1.upload%40lather\"/>";
  const auto replace_amount = [&](std::string& message) {
    message.replace(message.find(">100<") + 1, 3, include_element);
  };
  replace_amount(m);
  const std::string* bytes = &part;
  const wsse::xop_parts parts = [&](std::string_view cid) -> byte_source {
    if (cid != "1.upload@lather") return {};
    return [bytes, at = std::size_t{0}](char* dest, std::size_t capacity) mutable {
      const std::size_t n = std::min(capacity, bytes->size() - at);
      std::copy_n(bytes->data() + at, n, dest);
      at += n;
      return n;
    };
  };
  wsse::sign_envelope(m, signer(), {}, parts);
  auto fault = [&](std::string_view message, const wsse::xop_parts& p) {
    try {
      wsse::verified_signature v;
      wsse::verify_envelope(message, trusted(), v, p);
      return v.body ? std::string() : std::string("not the body");
    } catch (const soap::fault_error& e) {
      return e.get().received_code.local;
    }
  };
  EXPECT_EQ(fault(m, parts), "");
  // Without its part, the Include is refused: a signature over the element alone would not
  // cover the attachment.
  EXPECT_EQ(fault(m, {}), "InvalidSecurity");
  std::string tampered_part = part;
  tampered_part[part.size() / 2] ^= 1;
  bytes = &tampered_part;
  EXPECT_EQ(fault(m, parts), "FailedCheck");
  bytes = &part;
  std::string elsewhere = m;
  elsewhere.replace(elsewhere.find("cid:1.upload"), 12, "http://x/1.upload");
  EXPECT_EQ(fault(elsewhere, parts), "InvalidSecurity");
  std::string dangling = m;
  dangling.replace(dangling.find("cid:1.upload"), 12, "cid:2.upload");
  EXPECT_EQ(fault(dangling, parts), "InvalidSecurity");
  EXPECT_THROW(
      {
        std::string again = message();
        replace_amount(again);
        wsse::sign_envelope(again, signer(), {}, [](std::string_view) { return byte_source{}; });
      },
      std::invalid_argument);
  EXPECT_THROW(
      {
        std::string again = message();
        replace_amount(again);
        wsse::sign_envelope(again, signer());
      },
      std::invalid_argument);

  // The inlined equivalent verifies without parts, in lather and in xmlsec1.
  std::string inlined = m;
  std::string encoded;
  xsd::base64_encode({reinterpret_cast<const std::uint8_t*>(part.data()), part.size()}, encoded);
  inlined.replace(inlined.find("<xop:Include"), include_element.size(), encoded);
  EXPECT_EQ(fault(inlined, {}), "");
  if (!have_xmlsec1()) GTEST_SKIP() << "xmlsec1 missing (Debian package xmlsec1)";
  spit(work_ / "lather-xop-inlined.xml", inlined);
  const auto r = test::run(
      {"/usr/bin/xmlsec1", "--verify", "--pubkey-cert-pem", (dir_ / "signer.pem").string(),
       "--id-attr:Id", soap11 + ":Body", "--id-attr:Id", std::string(wsse::wsu_ns) + ":Timestamp",
       (work_ / "lather-xop-inlined.xml").string()},
      test::clock::now() + std::chrono::seconds(30));
  EXPECT_EQ(r.exit, 0) << r.out;
}

// No third party at hand signs MTOM over XOP (xmlsec1 has no XOP, zeep sends no MTOM, gSOAP's
// wsse plugin digests the XML as serialized), but XOP keeps the infoset: a message signed by
// `xmlsec1 --sign` with the attachment inline as base64, then optimized into MTOM (the base64
// replaced by an xop:Include of a part holding its bytes), carries a valid signature. A lather
// server with lather::mtom verifies it over the part before the handler runs, and refuses it
// with one byte of the part changed.
TEST_F(wsse_signature, LatherServerVerifiesXmlsec1sSignatureOptimizedIntoMtom) {
  if (!have_xmlsec1()) GTEST_SKIP() << "xmlsec1 missing (Debian package xmlsec1)";
  std::string part(200'000, '\0');
  std::uint32_t x = 99;
  for (char& c : part) c = static_cast<char>((x = x * 1103515245 + 12345) >> 24);
  std::string encoded;
  xsd::base64_encode({reinterpret_cast<const std::uint8_t*>(part.data()), part.size()}, encoded);
  const std::string signed_inline =
      xmlsec1_sign(dir_, work_,
                   xmlsec1_template(dir_, "<t:blob xmlns:t=\"" + std::string(xop_test::ns) +
                                              "\"><t:data>" + encoded + "</t:data></t:blob>"));
  ASSERT_FALSE(signed_inline.empty());
  std::string root = signed_inline;
  const std::size_t at = root.find(encoded);
  ASSERT_NE(at, std::string::npos);
  root.replace(at, encoded.size(),
               "<xop:Include xmlns:xop=\"http://www.w3.org/2004/08/xop/include\" "
               "href=\"cid:part1%40xmlsec\"/>");

  std::size_t received = 0;
  bool intact = false;
  service svc{"Files", std::string(xop_test::ns)};
  svc.operation("blob", [&](const xop_test::blob& in) {
    const std::vector<std::uint8_t> got = in.data.bytes();
    received = got.size();
    intact = std::string(got.begin(), got.end()) == part;
    return xop_test::blob{mtom::attachment::from_bytes(std::string_view("ok"))};
  });
  mtom::enable(svc);
  wsse::server_security sec{[](std::string_view) { return std::optional<std::string>(); },
                            {.signature = true}};
  sec.set_trust_store(trusted());
  sec.install(svc);
  server srv{{.address = "127.0.0.1", .port = 0, .threads = 1}};
  srv.mount("/files", svc);
  srv.start();

  const auto post = [&](std::string_view attachment) {
    const std::string body =
        "--B\r\nContent-Type: application/xop+xml; charset=UTF-8; type=\"text/xml\"\r\n"
        "Content-Transfer-Encoding: binary\r\nContent-ID: <root@xmlsec>\r\n\r\n" +
        root +
        "\r\n--B\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: "
        "binary\r\nContent-ID: <part1@xmlsec>\r\n\r\n" +
        std::string(attachment) + "\r\n--B--\r\n";
    const std::pair<std::string_view, std::string_view> headers[] = {
        {"Content-Type",
         "multipart/related; boundary=\"B\"; type=\"application/xop+xml\"; "
         "start=\"<root@xmlsec>\"; start-info=\"text/xml\""},
        {"SOAPAction", "\"\""}};
    std::pair<unsigned, std::string> answer;
    http::client c{"http://127.0.0.1:" + std::to_string(srv.port()) + "/files"};
    c.post(
        "", headers, [&](byte_buffer& out) { out.append(body); },
        [&](const http::response_head& head, const byte_source& in) {
          answer.first = head.status;
          char buf[4096];
          while (std::size_t n = in(buf, sizeof buf)) answer.second.append(buf, n);
        });
    return answer;
  };
  const auto ok = post(part);
  EXPECT_EQ(ok.first, 200u) << ok.second.substr(0, 600);
  EXPECT_EQ(received, part.size());
  EXPECT_TRUE(intact);
  received = 0;
  std::string tampered = part;
  tampered[part.size() / 2] ^= 1;
  const auto refused = post(tampered);
  EXPECT_EQ(refused.first, 500u);
  EXPECT_NE(refused.second.find(":FailedCheck</faultcode>"), std::string::npos)
      << refused.second.substr(0, 600);
  EXPECT_EQ(received, 0u);  // the handler never ran
  srv.stop();
}

}  // namespace
