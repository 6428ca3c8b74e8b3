// Envelope reading/writing: both versions, headers and mustUnderstand, malformed envelopes.
#include "lather/soap/envelope.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "../support/xml_query.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace soap = lather::soap;
namespace test = lather::test;
namespace xml = lather::xml;

namespace {

/// Read the envelope; returns the body child's "{ns}local" names (each skipped).
std::string read_all(std::string_view doc, soap::envelope_options opts = {}) {
  xml::reader r;
  r.reset(doc);
  soap::envelope_reader env{r, std::move(opts)};
  env.begin();
  std::string names;
  while (env.at_body_element()) {
    names += '{';
    names += r.ns();
    names += '}';
    names += r.local_name();
    names += ';';
    env.skip_body_element();
  }
  env.finish();
  return names;
}

/// The fault error code a malformed document gives.
soap::fault_error fault_of(std::string_view doc, soap::envelope_options opts = {}) {
  try {
    read_all(doc, std::move(opts));
  } catch (const soap::fault_error& e) {
    return e;
  }
  ADD_FAILURE() << "no fault for: " << doc;
  return soap::fault_error{soap::fault{}};
}

}  // namespace

TEST(SoapEnvelope, ReadsSoap11WithPrefixesCommentsAndWhitespace) {
  const std::string doc = R"(<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment before the root -->
<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/">
  <!-- between elements -->
  <SOAP-ENV:Header/>
  <SOAP-ENV:Body>
    <!-- c --><ns1:echo xmlns:ns1="urn:interop"><a>1</a></ns1:echo>
  </SOAP-ENV:Body>
</SOAP-ENV:Envelope>
<!-- trailing -->)";
  EXPECT_EQ(read_all(doc), "{urn:interop}echo;");
}

TEST(SoapEnvelope, ReadsSoap12AndDefaultNamespaces) {
  const std::string doc =
      R"(<Envelope xmlns="http://www.w3.org/2003/05/soap-envelope"><Body>)"
      R"(<echoStructResponse xmlns="urn:interop"><result/></echoStructResponse></Body></Envelope>)";
  xml::reader r;
  r.reset(doc);
  soap::envelope_reader env{r};
  env.begin();
  EXPECT_EQ(env.ver(), soap::version::soap12);
  ASSERT_TRUE(env.at_body_element());
  EXPECT_TRUE(r.is("urn:interop", "echoStructResponse"));
  EXPECT_FALSE(env.at_fault());
  env.skip_body_element();
  env.finish();
}

TEST(SoapEnvelope, EmptyBodyAndSoapLiteEncodingStyleOnEnvelope) {
  const std::string doc =
      R"(<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" )"
      R"(soap:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><soap:Body/></soap:Envelope>)";
  xml::reader r;
  r.reset(doc);
  soap::envelope_reader env{r};
  env.begin();
  EXPECT_FALSE(env.at_body_element());
  EXPECT_EQ(env.encoding_style(), "http://schemas.xmlsoap.org/soap/encoding/");
  env.finish();
}

TEST(SoapEnvelope, MalformedEnvelopesGiveSenderFaults) {
  struct bad_case {
    const char* doc;
    soap::errc code;
  };
  const bad_case cases[] = {
      {R"(<Body xmlns="http://schemas.xmlsoap.org/soap/envelope/"/>)", soap::errc::not_an_envelope},
      {R"(<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"/>)",
       soap::errc::missing_body},
      {R"(<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Header/></e:Envelope>)",
       soap::errc::missing_body},
      {R"(<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Body/><e:Body/></e:Envelope>)",
       soap::errc::duplicate_body},
      {R"(<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Body/><e:Header/></e:Envelope>)",
       soap::errc::header_after_body},
      {R"(<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Header/><e:Header/><e:Body/></e:Envelope>)",
       soap::errc::duplicate_header},
      {R"(<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Body/><x/></e:Envelope>)",
       soap::errc::content_after_body},
      {R"(<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><x/><e:Body/></e:Envelope>)",
       soap::errc::unexpected_content},
      {R"(<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/">text<e:Body/></e:Envelope>)",
       soap::errc::unexpected_content},
      {R"(<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Body>x</e:Body></e:Envelope>)",
       soap::errc::unexpected_content},
  };
  for (const bad_case& c : cases) {
    const soap::fault_error e = fault_of(c.doc);
    EXPECT_EQ(e.code(), soap::make_error_code(c.code)) << c.doc << " -> " << e.what();
    EXPECT_EQ(e.get().code, soap::fault_code::sender) << c.doc;
  }
}

// SOAP 1.1 section 4.2.1 / 1.2 part 1 section 5.2.1: header entries are namespace-qualified,
// whether or not they are targeted at this node or marked mustUnderstand.
TEST(SoapEnvelope, UnqualifiedHeaderEntriesAreClientOrSenderFaults) {
  for (const char* env :
       {"http://schemas.xmlsoap.org/soap/envelope/", "http://www.w3.org/2003/05/soap-envelope"})
    for (const char* entry : {"<Tx>5</Tx>", "<Tx xmlns=''/>", "<Tx e:actor='urn:elsewhere'/>",
                              "<h:Ok xmlns:h='urn:h'/><Tx/>"}) {
      const std::string doc = std::string("<e:Envelope xmlns:e='") + env + "'><e:Header>" + entry +
                              "</e:Header><e:Body><op xmlns='urn:x'/></e:Body></e:Envelope>";
      soap::envelope_options opts;
      opts.on_header = [](const soap::header_info&, xml::reader&) {
        return soap::header_use::understood;
      };
      const soap::fault_error e = fault_of(doc, opts);
      EXPECT_EQ(e.code(), soap::make_error_code(soap::errc::unqualified_header)) << doc;
      EXPECT_EQ(e.get().code, soap::fault_code::sender) << doc;
      EXPECT_NE(e.get().reason.find("Tx"), std::string::npos) << e.get().reason;
    }
  // A header entry in a default namespace is qualified.
  EXPECT_EQ(read_all(R"(<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/">)"
                     R"(<e:Header><Tx xmlns="urn:tx">5</Tx></e:Header><e:Body/></e:Envelope>)"),
            "");
}

TEST(SoapEnvelope, XmlErrorsAreSenderFaults) {
  const soap::fault_error e = fault_of(
      R"(<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Body></e:Envelope>)");
  EXPECT_EQ(e.code().category(), xml::category());
  EXPECT_EQ(e.get().code, soap::fault_code::sender);
  const soap::fault_error dtd = fault_of(
      R"(<!DOCTYPE e [<!ENTITY x "y">]><e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Body/></e:Envelope>)");
  EXPECT_EQ(dtd.code(), xml::make_error_code(xml::errc::doctype_forbidden));
}

TEST(SoapEnvelope, WrongEnvelopeNamespaceIsVersionMismatch) {
  const soap::fault_error e =
      fault_of(R"(<e:Envelope xmlns:e="http://example.com/soap"><e:Body/></e:Envelope>)");
  EXPECT_EQ(e.get().code, soap::fault_code::version_mismatch);
  EXPECT_EQ(e.get().received_envelope_ns, "http://example.com/soap");
  // A 1.2 envelope where the Content-Type said 1.1.
  soap::envelope_options opts;
  opts.expect = soap::version::soap11;
  const soap::fault_error e2 = fault_of(
      R"(<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Body/></e:Envelope>)",
      opts);
  EXPECT_EQ(e2.get().code, soap::fault_code::version_mismatch);
}

TEST(SoapEnvelope, HeadersOfferedToTheCallback) {
  const std::string doc = R"(<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/">
 <e:Header>
  <h:Auth xmlns:h="urn:auth" e:mustUnderstand="1"><user>u</user></h:Auth>
  <h:Trace xmlns:h="urn:trace">t</h:Trace>
  <h:ForOther xmlns:h="urn:other" e:actor="urn:some-other-node" e:mustUnderstand="1"/>
  <h:Next xmlns:h="urn:next" e:actor="http://schemas.xmlsoap.org/soap/actor/next"/>
 </e:Header>
 <e:Body><op xmlns="urn:x"/></e:Body>
</e:Envelope>)";
  std::string seen;
  std::string user;
  soap::envelope_options opts;
  opts.on_header = [&](const soap::header_info& h, xml::reader& r) {
    seen += h.local;
    if (h.must_understand) seen += '!';
    seen += ';';
    if (h.is("urn:auth", "Auth")) {
      // consume it: <Auth><user>u</user></Auth>
      r.next();  // <user>
      r.next();  // text
      user = std::string{r.text()};
      r.next();  // </user>
      r.next();  // </Auth>
      return soap::header_use::consumed;
    }
    if (h.is("urn:trace", "Trace")) return soap::header_use::understood;
    return soap::header_use::not_understood;
  };
  EXPECT_EQ(read_all(doc, opts), "{urn:x}op;");
  // ForOther is targeted at another actor: not offered, not checked.
  EXPECT_EQ(seen, "Auth!;Trace;Next;");
  EXPECT_EQ(user, "u");
}

TEST(SoapEnvelope, MustUnderstandNotUnderstoodFaults11) {
  const std::string doc = R"(<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/">
 <e:Header><h:Tx xmlns:h="urn:tx" e:mustUnderstand="1">5</h:Tx><h:Opt xmlns:h="urn:tx" e:mustUnderstand="0"/></e:Header>
 <e:Body><op xmlns="urn:x"/></e:Body></e:Envelope>)";
  const soap::fault_error e = fault_of(doc);
  EXPECT_EQ(e.get().code, soap::fault_code::must_understand);
  ASSERT_EQ(e.get().not_understood.size(), 1u);
  EXPECT_EQ(e.get().not_understood[0].ns, "urn:tx");
  EXPECT_EQ(e.get().not_understood[0].local, "Tx");
  EXPECT_NE(e.get().reason.find("{urn:tx}Tx"), std::string::npos);
}

TEST(SoapEnvelope, MustUnderstandRoles12) {
  const std::string doc = R"(<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope">
 <e:Header>
  <a:A xmlns:a="urn:a" e:mustUnderstand="true"/>
  <a:B xmlns:a="urn:a" e:mustUnderstand="1" e:role="http://www.w3.org/2003/05/soap-envelope/role/next"/>
  <a:C xmlns:a="urn:a" e:mustUnderstand="true" e:role="http://www.w3.org/2003/05/soap-envelope/role/none"/>
  <a:D xmlns:a="urn:a" e:mustUnderstand="true" e:role="urn:my-role"/>
  <a:E xmlns:a="urn:a" e:mustUnderstand="false" e:role="http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver"/>
 </e:Header>
 <e:Body/></e:Envelope>)";
  soap::envelope_options opts;
  opts.roles = {"urn:my-role"};
  const soap::fault_error e = fault_of(doc, opts);
  EXPECT_EQ(e.get().code, soap::fault_code::must_understand);
  std::string names;
  for (const auto& q : e.get().not_understood) names += q.local;
  EXPECT_EQ(names, "ABD");  // C is for role none; E is optional
  // As an intermediary (not the ultimate receiver), A is not for us.
  opts.ultimate_receiver = false;
  const soap::fault_error e2 = fault_of(doc, opts);
  names.clear();
  for (const auto& q : e2.get().not_understood) names += q.local;
  EXPECT_EQ(names, "BD");
}

TEST(SoapEnvelope, BadMustUnderstandValue) {
  EXPECT_EQ(
      fault_of(R"(<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Header>)"
               R"(<h xmlns="urn:h" e:mustUnderstand="true"/></e:Header><e:Body/></e:Envelope>)")
          .code(),
      soap::make_error_code(soap::errc::bad_must_understand));
}

TEST(SoapEnvelope, RelayableHeadersCollected) {
  const std::string doc =
      R"(<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope" xmlns:p="urn:p">
 <e:Header>
  <p:Other e:role="urn:elsewhere">x</p:Other>
  <p:Relay e:role="http://www.w3.org/2003/05/soap-envelope/role/next" e:relay="true"><p:in>y</p:in></p:Relay>
  <p:Drop e:role="http://www.w3.org/2003/05/soap-envelope/role/next"/>
 </e:Header><e:Body/></e:Envelope>)";
  xml::reader r;
  r.reset(doc);
  soap::envelope_options opts;
  opts.collect_relayable = true;
  soap::envelope_reader env{r, std::move(opts)};
  env.begin();
  ASSERT_EQ(env.relayable_headers().size(), 2u);
  // Each header a document of its own: the prefixes it uses declared in it.
  const std::string& other = env.relayable_headers()[0];
  const std::string& relay = env.relayable_headers()[1];
  ASSERT_TRUE(test::find_element(other, "/Other")) << other;
  EXPECT_EQ(test::find_element(other, "/Other")->ns, "urn:p");
  EXPECT_EQ(test::find_text(other, "/Other"), "x");
  const auto in = test::find_element(relay, "/Relay/in");
  ASSERT_TRUE(in) << relay;
  EXPECT_EQ(in->ns, "urn:p");
  EXPECT_EQ(in->text, "y");
  env.finish();
}

// begin(envelope_starts, encoded) writes what begin(options) writes with the same namespaces,
// for both versions and encodings, a header and a body child using them; a list the writer
// refuses is refused per message, as by begin(options).
TEST(SoapEnvelope, RecordedStartsWriteWhatTheOptionsWrite) {
  const soap::envelope_starts none, two{{{"tns", "urn:t"}, {"ns1", "urn:clash"}}},
      undeclared{{}, false}, undeclared_two{two.namespaces(), false};
  for (const soap::envelope_starts* starts : {&none, &two, &undeclared, &undeclared_two})
    for (soap::version v : {soap::version::soap11, soap::version::soap12})
      for (bool encoded : {false, true}) {
        auto write = [&](auto begin) {
          xml::output out;
          xml::writer w{out};
          soap::envelope_writer env{w, v};
          begin(env);
          env.begin_header();
          w.start_element("urn:t", "h");
          w.end_element();
          env.begin_body();
          w.start_element("urn:gen", "ping");  // a generated prefix past the recorded ns1
          w.attribute({}, "q", std::string(w.prefix_for("urn:t")));
          env.end();
          return std::string(out.view());
        };
        const std::string recorded =
            write([&](soap::envelope_writer& env) { env.begin(*starts, encoded); });
        const std::string declared = write([&](soap::envelope_writer& env) {
          env.begin({.encoded = encoded,
                     .namespaces = starts->namespaces(),
                     .xml_declaration = starts->xml_declaration()});
        });
        EXPECT_EQ(recorded, declared);
        EXPECT_EQ(recorded.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?><"),
                  starts->xml_declaration())
            << recorded;
        EXPECT_NE(recorded.find("<ns"), std::string::npos) << recorded;
        if (starts->namespaces().size() == 2) {
          EXPECT_EQ(recorded.find("xmlns:tns"), recorded.rfind("xmlns:tns")) << recorded;
          EXPECT_NE(recorded.find("<ns2:ping xmlns:ns2=\"urn:gen\" q=\"tns\""), std::string::npos)
              << recorded;
        }
      }
  const soap::envelope_starts refused{{{"soap", "urn:not-the-envelope"}}};
  xml::output out;
  xml::writer w{out};
  soap::envelope_writer env{w, soap::version::soap11};
  EXPECT_THROW(env.begin(refused, false), xml::error);
}

TEST(SoapEnvelope, WriterRoundTripsBothVersions) {
  for (soap::version v : {soap::version::soap11, soap::version::soap12}) {
    xml::output out;
    xml::writer w{out};
    soap::envelope_writer env{w, v};
    env.begin({.encoded = v == soap::version::soap11, .namespaces = {{"tns", "urn:t"}}});
    env.begin_header();
    w.start_element("urn:t", "Session");
    soap::write_header_attributes(
        w, v, true, v == soap::version::soap11 ? soap::soap11_actor_next : soap::soap12_role_next);
    w.text("42");
    w.end_element();
    env.begin_body();
    w.start_element("urn:t", "ping");
    w.end_element();
    env.end();
    const std::string doc{out.view()};
    using declarations = std::vector<std::pair<std::string, std::string>>;
    EXPECT_EQ(test::declarations_of(doc, "http://www.w3.org/2001/XMLSchema-instance"),
              (declarations{{"/Envelope", "xsi"}}))
        << doc;
    EXPECT_EQ(test::declarations_of(doc, "http://www.w3.org/2001/XMLSchema"),
              (declarations{{"/Envelope", "xsd"}}))
        << doc;
    const auto header = test::find_element(doc, "/Envelope/Header/Session");
    ASSERT_TRUE(header) << doc;
    EXPECT_EQ(header->ns, "urn:t");
    EXPECT_EQ(header->attribute("mustUnderstand"), v == soap::version::soap11 ? "1" : "true")
        << doc;
    EXPECT_EQ(test::find_element(doc, "/Envelope/Body/ping")->ns, "urn:t") << doc;
    // Only one declaration of the type namespace: on Envelope.
    EXPECT_EQ(doc.find("xmlns:tns"), doc.rfind("xmlns:tns")) << doc;
    xml::reader r;
    r.reset(doc);
    std::string session;
    soap::envelope_options opts;
    opts.on_header = [&](const soap::header_info& h, xml::reader& rr) {
      EXPECT_TRUE(h.must_understand);
      rr.next();
      session = std::string{rr.text()};
      rr.next();
      return soap::header_use::consumed;
    };
    soap::envelope_reader in{r, std::move(opts)};
    in.begin();
    EXPECT_EQ(in.ver(), v);
    EXPECT_EQ(session, "42");
    ASSERT_TRUE(in.at_body_element());
    EXPECT_TRUE(r.is("urn:t", "ping"));
    in.skip_body_element();
    in.finish();
  }
}

TEST(SoapEnvelope, CapturesBodyAsSelfContainedXml) {
  const std::string doc =
      R"(<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:t="urn:types" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<s:Body><t:op a="1&amp;2"><v xsi:type="t:Special">x &lt; y</v><w xmlns="urn:d"><q/></w></t:op></s:Body></s:Envelope>)";
  xml::reader r;
  r.reset(doc);
  soap::envelope_reader env{r};
  env.begin();
  const std::string body = env.capture_body_element();
  EXPECT_FALSE(env.next_body_element());
  env.finish();
  // Re-parse the capture alone: names and the QName value still resolve.
  xml::reader c;
  c.reset(body);
  ASSERT_EQ(c.next(), xml::token::start_element);
  EXPECT_TRUE(c.is("urn:types", "op"));
  EXPECT_EQ(c.find_attribute("", "a")->value, "1&2");
  ASSERT_EQ(c.next(), xml::token::start_element);
  const auto* type = c.find_attribute("http://www.w3.org/2001/XMLSchema-instance", "type");
  ASSERT_NE(type, nullptr);
  EXPECT_EQ(type->value, "t:Special");
  EXPECT_EQ(c.lookup_namespace("t").value_or(""), "urn:types");
  ASSERT_EQ(c.next(), xml::token::text);
  EXPECT_EQ(c.text(), "x < y");
  c.next();  // </v>
  ASSERT_EQ(c.next(), xml::token::start_element);
  EXPECT_TRUE(c.is("urn:d", "w"));
}

TEST(SoapEnvelope, Soap12PrimerTravelReservation) {
  // SOAP 1.2 Part 0 (Primer), Example 1: two header blocks for role "next", mustUnderstand.
  const std::string doc = R"(<?xml version='1.0' ?>
<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope">
 <env:Header>
  <m:reservation xmlns:m="http://travelcompany.example.org/reservation"
          env:role="http://www.w3.org/2003/05/soap-envelope/role/next"
           env:mustUnderstand="true">
   <m:reference>uuid:093a2da1-q345-739r-ba5d-pqff98fe8j7d</m:reference>
   <m:dateAndTime>2001-11-29T13:20:00.000-05:00</m:dateAndTime>
  </m:reservation>
  <n:passenger xmlns:n="http://mycompany.example.com/employees"
          env:role="http://www.w3.org/2003/05/soap-envelope/role/next"
           env:mustUnderstand="true">
   <n:name>Åke Jógvan Øyvind</n:name>
  </n:passenger>
 </env:Header>
 <env:Body>
  <p:itinerary xmlns:p="http://travelcompany.example.org/reservation/travel">
   <p:departure><p:departing>New York</p:departing></p:departure>
  </p:itinerary>
 </env:Body>
</env:Envelope>)";
  // Understanding only the reservation: the passenger block faults.
  soap::envelope_options opts;
  opts.on_header = [](const soap::header_info& h, xml::reader&) {
    return h.local == "reservation" ? soap::header_use::understood
                                    : soap::header_use::not_understood;
  };
  const soap::fault_error e = fault_of(doc, opts);
  ASSERT_EQ(e.get().not_understood.size(), 1u);
  EXPECT_EQ(e.get().not_understood[0].ns, "http://mycompany.example.com/employees");
  // Understanding both: the body is reached.
  opts.on_header = [](const soap::header_info&, xml::reader&) {
    return soap::header_use::understood;
  };
  EXPECT_EQ(read_all(doc, opts), "{http://travelcompany.example.org/reservation/travel}itinerary;");
}
