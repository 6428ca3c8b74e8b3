// Faults: both versions round-trip with details; faults as real stacks send them
// (WIRE-QUIRKS.md fault table); error -> fault code mapping.
#include "lather/soap/fault.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../support/xml_query.hpp"
#include "lather/bind/error.hpp"
#include "lather/soap/envelope.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace soap = lather::soap;
namespace test = lather::test;
namespace xml = lather::xml;

namespace {

constexpr std::string_view env11 = "http://schemas.xmlsoap.org/soap/envelope/";
constexpr std::string_view env12 = "http://www.w3.org/2003/05/soap-envelope";

/// Whether some element at `path` has a QName attribute `attr` naming {ns}local, its prefix
/// declared on that element or an ancestor on the path.
bool has_qname_attribute(const std::string& doc, const std::string& path, std::string_view attr,
                         std::string_view ns, std::string_view local) {
  for (const auto& [at, prefix] : test::declarations_of(doc, ns)) {
    if (path.compare(0, at.size(), at) != 0 || (path.size() > at.size() && path[at.size()] != '/'))
      continue;
    const std::string want =
        prefix.empty() ? std::string(local) : prefix + ":" + std::string(local);
    for (const test::xml_element& e : test::find_elements(doc, path))
      if (e.attribute(attr) == want) return true;
  }
  return false;
}

std::string write_envelope(soap::version v, const soap::fault& f) {
  xml::output out;
  xml::writer w{out};
  soap::write_fault_envelope(w, v, f);
  return std::string{out.view()};
}

soap::fault read_back(const std::string& doc) {
  auto f = soap::read_fault_document(doc);
  EXPECT_TRUE(f.has_value()) << doc;
  return f.value_or(soap::fault{});
}

soap::fault sample_fault() {
  soap::fault f;
  f.code = soap::fault_code::sender;
  f.subcodes = {{"urn:app", "InvalidId", {}}};
  f.reason = "id must be positive <-1>";
  f.node = "http://127.0.0.1:8080/fetch";
  f.set_detail([](xml::writer& w) {
    w.start_element("urn:app", "badValue");
    w.attribute("", "field", "id");
    w.text("-1");
    w.end_element();
    w.start_element("urn:app2", "hint");
    w.text("use 1..100");
    w.end_element();
  });
  return f;
}

/// A Sender fault whose one header entry (header_xml) is <app:TicketFault><app:why>expired.
soap::fault ticket_fault() {
  soap::fault f;
  f.code = soap::fault_code::sender;
  f.reason = "bad ticket";
  f.set_header([](xml::writer& w) {
    w.start_element("urn:app", "TicketFault");
    w.start_element("urn:app", "why");
    w.text("expired");
    w.end_element();
    w.end_element();
  });
  return f;
}

}  // namespace

TEST(SoapFault, RoundTrip11WithDetail) {
  const std::string doc = write_envelope(soap::version::soap11, sample_fault());
  const auto fault = test::find_element(doc, "/Envelope/Body/Fault");
  ASSERT_TRUE(fault) << doc;
  EXPECT_EQ(fault->ns, env11);
  const auto code = test::find_element(doc, "/Envelope/Body/Fault/faultcode");
  ASSERT_TRUE(code) << doc;
  EXPECT_EQ(code->ns, "") << "SOAP 1.1's faultcode is unqualified";
  EXPECT_EQ(test::qname_local(code->text), "Client.InvalidId");
  EXPECT_EQ(code->text_ns, env11) << doc;
  const auto bad = test::find_element(doc, "/Envelope/Body/Fault/detail/badValue");
  ASSERT_TRUE(bad) << doc;
  EXPECT_EQ(bad->ns, "urn:app");
  EXPECT_EQ(bad->attribute("field"), "id");
  EXPECT_EQ(bad->text, "-1");
  const soap::fault f = read_back(doc);
  EXPECT_EQ(f.code, soap::fault_code::sender);
  ASSERT_EQ(f.subcodes.size(), 1u);
  EXPECT_EQ(f.subcodes[0].local, "InvalidId");
  EXPECT_EQ(f.reason, "id must be positive <-1>");
  EXPECT_EQ(f.node, "http://127.0.0.1:8080/fetch");
  EXPECT_TRUE(f.has_detail);
  std::string seen;
  EXPECT_TRUE(f.read_detail([&](xml::reader& r) {
    seen += r.local_name();
    seen += '@';
    seen += r.ns();
    seen += ';';
    r.skip_element();
  }));
  EXPECT_EQ(seen, "badValue@urn:app;hint@urn:app2;");
}

TEST(SoapFault, RoundTrip12WithSubcodesRoleAndDetail) {
  soap::fault in = sample_fault();
  in.role = "http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver";
  in.reason_lang = "de";
  const std::string doc = write_envelope(soap::version::soap12, in);
  const soap::fault f = read_back(doc);
  EXPECT_EQ(f.code, soap::fault_code::sender);
  ASSERT_EQ(f.subcodes.size(), 1u);
  EXPECT_EQ(f.subcodes[0].ns, "urn:app");
  EXPECT_EQ(f.subcodes[0].local, "InvalidId");
  EXPECT_EQ(f.reason, in.reason);
  EXPECT_EQ(f.reason_lang, "de");
  EXPECT_EQ(f.node, in.node);
  EXPECT_EQ(f.role, in.role);
  std::string values;
  f.read_detail([&](xml::reader& r) {
    r.next();
    values += r.text();
    values += ';';
    r.next();
  });
  EXPECT_EQ(values, "-1;use 1..100;");
}

TEST(SoapFault, AllCodesRoundTripInBothVersions) {
  using fc = soap::fault_code;
  for (soap::version v : {soap::version::soap11, soap::version::soap12}) {
    for (fc c : {fc::version_mismatch, fc::must_understand, fc::sender, fc::receiver}) {
      soap::fault f;
      f.code = c;
      f.reason = "r";
      EXPECT_EQ(read_back(write_envelope(v, f)).code, c);
    }
    soap::fault deu;
    deu.code = fc::data_encoding_unknown;
    // 1.1 has no DataEncodingUnknown: it goes out as Client.
    EXPECT_EQ(read_back(write_envelope(v, deu)).code,
              v == soap::version::soap11 ? fc::sender : fc::data_encoding_unknown);
  }
}

TEST(SoapFault, MustUnderstand12CarriesNotUnderstoodHeaders) {
  soap::fault f;
  f.code = soap::fault_code::must_understand;
  f.reason = "header not understood";
  f.not_understood = {{"urn:tx", "Transaction", {}}};
  const std::string doc = write_envelope(soap::version::soap12, f);
  const auto nu = test::find_element(doc, "/Envelope/Header/NotUnderstood");
  ASSERT_TRUE(nu) << doc;
  EXPECT_EQ(nu->ns, env12);
  EXPECT_TRUE(
      has_qname_attribute(doc, "/Envelope/Header/NotUnderstood", "qname", "urn:tx", "Transaction"))
      << doc;
  xml::reader r;
  r.reset(doc);
  std::string qname_ns;
  soap::envelope_options opts;
  opts.on_header = [&](const soap::header_info& h, xml::reader& rr) {
    if (h.local == "NotUnderstood") {
      const auto* q = rr.find_attribute("", "qname");
      const std::string_view v = q->value;
      qname_ns = std::string{rr.lookup_namespace(v.substr(0, v.find(':'))).value_or("")};
      EXPECT_EQ(v.substr(v.find(':') + 1), "Transaction");
    }
    return soap::header_use::understood;
  };
  soap::envelope_reader env{r, std::move(opts)};
  env.begin();
  EXPECT_EQ(qname_ns, "urn:tx");
  EXPECT_TRUE(env.at_fault());
}

// A fault's header entries (header_xml, where a soap:headerfault's entry travels) are written
// into the fault envelope's Header in both versions, after the entries the caller writes, and
// the Fault keeps no detail; a reader keeping unread entries (keep_unread, as the client does)
// gets them back as XML text, the others offered to on_header first, a mustUnderstand one not
// kept.
TEST(SoapFault, HeaderEntriesTravelInTheHeader) {
  const soap::fault f = ticket_fault();
  EXPECT_FALSE(f.has_detail);
  for (soap::version v : {soap::version::soap11, soap::version::soap12}) {
    xml::output out;
    xml::writer w{out};
    soap::write_fault_envelope(w, v, f, true, [](xml::writer& hw) {
      hw.start_element("urn:wsa", "Action");
      hw.text("urn:fault");
      hw.end_element();
    });
    const std::string doc{out.view()};
    const auto entry = test::find_element(doc, "/Envelope/Header/TicketFault/why");
    ASSERT_TRUE(entry) << doc;
    EXPECT_EQ(entry->text, "expired");
    EXPECT_LT(doc.find("Action"), doc.find("TicketFault")) << doc;
    EXPECT_FALSE(test::find_element(doc, "/Envelope/Body/Fault/detail")) << doc;
    EXPECT_FALSE(test::find_element(doc, "/Envelope/Body/Fault/Detail")) << doc;

    xml::reader r;
    r.reset(doc);
    soap::envelope_options opts;
    opts.keep_unread = true;
    std::vector<std::string> offered;
    opts.on_header = [&](const soap::header_info& h, xml::reader&) {
      offered.emplace_back(h.local);
      return soap::header_use::not_understood;
    };
    soap::envelope_reader env{r, std::move(opts)};
    env.begin();
    EXPECT_EQ(offered, (std::vector<std::string>{"Action", "TicketFault"}));
    soap::fault back;
    back.header_xml = env.unread_headers();
    std::vector<std::string> entries;
    EXPECT_TRUE(back.read_header([&](xml::reader& e) {
      entries.emplace_back(e.local_name());
      e.skip_element();
    }));
    EXPECT_EQ(entries, (std::vector<std::string>{"Action", "TicketFault"}));
  }
  // mustUnderstand entries nobody understood are not kept: they fault.
  xml::reader r;
  r.reset(
      "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Header>"
      "<a:X xmlns:a='urn:a' s:mustUnderstand='1'/></s:Header><s:Body/></s:Envelope>");
  soap::envelope_options opts;
  opts.keep_unread = true;
  soap::envelope_reader env{r, std::move(opts)};
  EXPECT_THROW(env.begin(), soap::fault_error);
  EXPECT_FALSE(soap::fault{}.read_header([](xml::reader&) {}));
}

// read_fault_document gives a fault's header entries back as header_xml, as a client's call
// does, in both versions; a mustUnderstand entry it does not know is skipped, not refused.
TEST(SoapFault, ReadFaultDocumentKeepsTheHeaderEntries) {
  const soap::fault f = ticket_fault();
  for (soap::version v : {soap::version::soap11, soap::version::soap12}) {
    xml::output out;
    xml::writer w{out};
    soap::write_fault_envelope(w, v, f, true, [v](xml::writer& hw) {
      hw.start_element("urn:other", "Trace");
      hw.attribute(v == soap::version::soap11 ? soap::soap11_envelope_ns : soap::soap12_envelope_ns,
                   "mustUnderstand", v == soap::version::soap11 ? "1" : "true");
      hw.end_element();
    });
    const std::string doc{out.view()};
    const soap::fault back = read_back(doc);
    EXPECT_EQ(back.reason, "bad ticket");
    EXPECT_NE(back.header_xml.find("expired"), std::string::npos) << back.header_xml;
    EXPECT_EQ(back.header_xml.find("Trace"), std::string::npos) << back.header_xml;
    std::vector<std::string> entries;
    EXPECT_TRUE(back.read_header([&](xml::reader& e) {
      entries.emplace_back(e.local_name());
      e.skip_element();
    })) << doc;
    EXPECT_EQ(entries, (std::vector<std::string>{"TicketFault"})) << back.header_xml;
  }
  // Without a Header: none.
  EXPECT_TRUE(read_back(write_envelope(soap::version::soap11, sample_fault())).header_xml.empty());
}

TEST(SoapFault, VersionMismatch12CarriesUpgrade) {
  soap::fault f;
  f.code = soap::fault_code::version_mismatch;
  f.reason = "wrong version";
  const std::string doc = write_envelope(soap::version::soap12, f);
  const std::string supported = "/Envelope/Header/Upgrade/SupportedEnvelope";
  const auto all = test::find_elements(doc, supported);
  ASSERT_EQ(all.size(), 2u) << doc;
  for (const test::xml_element& e : all) EXPECT_EQ(e.ns, env12);
  EXPECT_EQ(test::find_element(doc, "/Envelope/Header/Upgrade")->ns, env12);
  EXPECT_TRUE(has_qname_attribute(doc, supported, "qname", env12, "Envelope")) << doc;
  EXPECT_TRUE(has_qname_attribute(doc, supported, "qname", env11, "Envelope")) << doc;
  EXPECT_EQ(read_back(doc).code, soap::fault_code::version_mismatch);
}

TEST(SoapFault, AxisFaultWithStackTraceDetail) {
  const std::string doc = R"(<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
 <soapenv:Body>
  <soapenv:Fault>
   <faultcode>soapenv:Client</faultcode>
   <faultstring>a must be non-negative</faultstring>
   <detail>
    <ns1:stackTrace xmlns:ns1="http://xml.apache.org/axis/">java.lang.IllegalArgumentException
	at Interop.addNumbers(Interop.java:12)</ns1:stackTrace>
    <ns2:hostname xmlns:ns2="http://xml.apache.org/axis/">host1</ns2:hostname>
   </detail>
  </soapenv:Fault>
 </soapenv:Body>
</soapenv:Envelope>)";
  const soap::fault f = read_back(doc);
  EXPECT_EQ(f.code, soap::fault_code::sender);
  EXPECT_EQ(f.received_code.ns, "http://schemas.xmlsoap.org/soap/envelope/");
  EXPECT_EQ(f.received_code.local, "Client");
  EXPECT_EQ(f.reason, "a must be non-negative");
  // The detail's children as sent, each declaring its own namespace: a document once wrapped.
  const std::string detail = "<d>" + f.detail_xml + "</d>";
  const auto trace = test::find_element(detail, "/d/stackTrace");
  ASSERT_TRUE(trace) << f.detail_xml;
  EXPECT_EQ(trace->ns, "http://xml.apache.org/axis/");
  EXPECT_EQ(trace->text.rfind("java.lang.IllegalArgumentException\n", 0), 0u) << trace->text;
  const auto host = test::find_element(detail, "/d/hostname");
  ASSERT_TRUE(host) << f.detail_xml;
  EXPECT_EQ(host->ns, "http://xml.apache.org/axis/");
  EXPECT_EQ(host->text, "host1");
}

TEST(SoapFault, Soap4rFaultWithTypesActorAndNilDetail) {
  const std::string doc = R"(<?xml version="1.0" encoding="utf-8" ?>
<env:Envelope xmlns:xsd="http://www.w3.org/2001/XMLSchema"
    xmlns:env="http://schemas.xmlsoap.org/soap/envelope/"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <env:Body>
    <env:Fault xmlns:n1="http://schemas.xmlsoap.org/soap/encoding/"
        env:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">
      <faultcode xsi:type="xsd:QName">env:Server</faultcode>
      <faultstring xsi:type="xsd:string">a must be non-negative (ArgumentError)</faultstring>
      <faultactor xsi:type="xsd:string">interop</faultactor>
      <detail xsi:nil="true"/>
    </env:Fault>
  </env:Body>
</env:Envelope>)";
  const soap::fault f = read_back(doc);
  EXPECT_EQ(f.code, soap::fault_code::receiver);
  EXPECT_EQ(f.reason, "a must be non-negative (ArgumentError)");
  EXPECT_EQ(f.node, "interop");
  EXPECT_TRUE(f.has_detail);
  EXPECT_TRUE(f.detail_xml.empty());
}

TEST(SoapFault, SpyneDottedCodeAndEmptyActor) {
  const std::string doc =
      R"(<soap11env:Envelope xmlns:soap11env="http://schemas.xmlsoap.org/soap/envelope/"><soap11env:Body><soap11env:Fault><faultcode>soap11env:Client.SchemaValidationError</faultcode><faultstring>invalid</faultstring><faultactor></faultactor></soap11env:Fault></soap11env:Body></soap11env:Envelope>)";
  const soap::fault f = read_back(doc);
  EXPECT_EQ(f.code, soap::fault_code::sender);
  ASSERT_EQ(f.subcodes.size(), 1u);
  EXPECT_EQ(f.subcodes[0].local, "SchemaValidationError");
  EXPECT_EQ(f.node, "");
}

TEST(SoapFault, NodeSoap12ShapedBodyIn11EnvelopeWithUndeclaredPrefix) {
  // node-soap: 1.2-shaped children in a 1.1 envelope, value with an undeclared prefix.
  const std::string doc =
      R"(<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><soap:Code><soap:Value>SOAP-ENV:Server</soap:Value><soap:Subcode><soap:Value>InternalError</soap:Value></soap:Subcode></soap:Code><soap:Reason><soap:Text>boom</soap:Text></soap:Reason></soap:Fault></soap:Body></soap:Envelope>)";
  const soap::fault f = read_back(doc);
  EXPECT_EQ(f.code, soap::fault_code::receiver);
  EXPECT_EQ(f.received_code.local, "Server");
  EXPECT_EQ(f.received_code.prefix, "SOAP-ENV");
  EXPECT_EQ(f.reason, "boom");
  ASSERT_EQ(f.subcodes.size(), 1u);
  EXPECT_EQ(f.subcodes[0].local, "InternalError");
}

TEST(SoapFault, PhpAndSoapLiteFaults) {
  const std::string php = R"(<?xml version="1.0" encoding="UTF-8"?>
<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body><SOAP-ENV:Fault><faultcode>SOAP-ENV:Client</faultcode><faultstring>bad</faultstring></SOAP-ENV:Fault></SOAP-ENV:Body></SOAP-ENV:Envelope>)";
  EXPECT_EQ(read_back(php).code, soap::fault_code::sender);
  const std::string lite =
      R"(<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" soap:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>a must be non-negative</faultstring><faultactor>http://127.0.0.1:8081/</faultactor></soap:Fault></soap:Body></soap:Envelope>)";
  const soap::fault f = read_back(lite);
  EXPECT_EQ(f.code, soap::fault_code::sender);
  EXPECT_EQ(f.node, "http://127.0.0.1:8081/");
}

TEST(SoapFault, Soap11CodeIsKeptAsSent) {
  // A SOAP 1.1 client reads soap:Client: its class is sender, but it is named as sent.
  const std::string doc =
      R"(<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>bad id</faultstring></soap:Fault></soap:Body></soap:Envelope>)";
  const soap::fault_error e{read_back(doc)};
  EXPECT_EQ(e.get().code, soap::fault_code::sender);
  EXPECT_EQ(e.get().received_code.ns, soap::soap11_envelope_ns);
  EXPECT_EQ(e.get().received_code.local, "Client");
  EXPECT_STREQ(e.what(), "SOAP fault Client: bad id");
  // A dotted code names its subcodes once.
  const std::string dotted =
      R"(<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Body><e:Fault><faultcode>e:Server.Busy</faultcode><faultstring>later</faultstring></e:Fault></e:Body></e:Envelope>)";
  EXPECT_STREQ(soap::fault_error{read_back(dotted)}.what(), "SOAP fault Server.Busy: later");
}

TEST(SoapFault, CustomCodeKeepsItsQNameAndIsPassedOnAsSent) {
  const std::string doc =
      R"(<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode xmlns:acme="urn:acme">acme:QuotaExceeded</faultcode><faultstring>slow down</faultstring></soap:Fault></soap:Body></soap:Envelope>)";
  const soap::fault f = read_back(doc);
  EXPECT_EQ(f.code, soap::fault_code::receiver);  // its class: not one of SOAP's
  EXPECT_EQ(f.received_code.ns, "urn:acme");
  EXPECT_EQ(f.received_code.local, "QuotaExceeded");
  EXPECT_STREQ(soap::fault_error{f}.what(), "SOAP fault {urn:acme}QuotaExceeded: slow down");
  // Written again as SOAP 1.1 (a service passing the fault on), the code is the one received.
  const soap::fault again = read_back(write_envelope(soap::version::soap11, f));
  EXPECT_EQ(again.received_code.ns, "urn:acme");
  EXPECT_EQ(again.received_code.local, "QuotaExceeded");
  EXPECT_EQ(again.reason, "slow down");
}

TEST(SoapFault, NotAFaultAndFaultWithoutCode) {
  EXPECT_FALSE(soap::read_fault_document(
      R"(<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Body><r xmlns="urn:x"/></e:Body></e:Envelope>)"));
  try {
    soap::read_fault_document(
        R"(<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Body><e:Fault><faultstring>x</faultstring></e:Fault></e:Body></e:Envelope>)");
    FAIL() << "expected bad_fault";
  } catch (const soap::fault_error& e) {
    EXPECT_EQ(e.code(), soap::make_error_code(soap::errc::bad_fault));
  }
}

TEST(SoapFault, ErrorMapping) {
  using fc = soap::fault_code;
  EXPECT_EQ(soap::fault_code_for(soap::make_error_code(soap::errc::version_mismatch)),
            fc::version_mismatch);
  EXPECT_EQ(soap::fault_code_for(soap::make_error_code(soap::errc::must_understand)),
            fc::must_understand);
  EXPECT_EQ(soap::fault_code_for(soap::make_error_code(soap::errc::data_encoding_unknown)),
            fc::data_encoding_unknown);
  EXPECT_EQ(soap::fault_code_for(soap::make_error_code(soap::errc::bad_reference)), fc::sender);
  EXPECT_EQ(soap::fault_code_for(xml::make_error_code(xml::errc::tag_mismatch)), fc::sender);
  EXPECT_EQ(soap::fault_code_for(lather::bind::make_error_code(lather::bind::errc::out_of_range)),
            fc::sender);
  EXPECT_EQ(soap::fault_code_for(std::make_error_code(std::errc::io_error)), fc::receiver);

  auto from = [](auto ex) { return soap::fault_from_exception(std::make_exception_ptr(ex)); };
  EXPECT_EQ(from(std::runtime_error("db down")).code, fc::receiver);
  EXPECT_EQ(from(std::runtime_error("db down")).reason, "db down");
  EXPECT_EQ(soap::fault_from_exception(std::make_exception_ptr(std::runtime_error("secret")), true)
                .reason,
            "Internal server error");
  EXPECT_EQ(from(xml::error(xml::errc::bad_syntax, {}, "bad")).code, fc::sender);
  soap::fault mine;
  mine.code = fc::sender;
  mine.reason = "mine";
  EXPECT_EQ(from(soap::fault_error{mine}).reason, "mine");
}

TEST(SoapFault, EnvelopeStartsWithTheXmlDeclarationUnlessDropped) {
  constexpr std::string_view declaration = R"(<?xml version="1.0" encoding="UTF-8"?><)";
  for (soap::version v : {soap::version::soap11, soap::version::soap12}) {
    EXPECT_TRUE(write_envelope(v, sample_fault()).starts_with(declaration));
    xml::output out;
    xml::writer w{out};
    soap::write_fault_envelope(w, v, sample_fault(), false);
    EXPECT_FALSE(out.view().starts_with("<?xml")) << out.view();
    EXPECT_EQ(read_back(std::string{out.view()}).reason, "id must be positive <-1>");
  }
}
