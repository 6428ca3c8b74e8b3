// The standard schemas lather ships for WS-Security (wsse, wsu) and WS-Policy (1.5, 1.2), as
// a contract uses them: data/standard.wsdl imports them by their official URLs and
// lather_generate() generates it with no catalog. The generated types round-trip with their
// namespaces, and a wsse:Security header's tokens, kept as XML by its wildcard, read as the
// generated token types.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "Publisher.hpp"
#include "bind_test_util.hpp"

namespace {

using lather::bind::test::from_xml;
using lather::bind::test::to_xml;

constexpr std::string_view wsse =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";
constexpr std::string_view wsu =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
constexpr std::string_view wsp = "http://www.w3.org/ns/ws-policy";

standard::Publish publish() {
  standard::Publish p;
  p.Id = "body";
  p.Timestamp.Id = "ts";
  p.Timestamp.Created = standard::AttributedDateTime{"2026-01-01T00:00:00Z"};
  p.Timestamp.Expires = standard::AttributedDateTime{"2026-01-01T00:05:00Z"};
  standard::UsernameTokenType token;
  token.Id = "user";
  token.Username = standard::AttributedString{"alice"};
  p.UsernameToken = token;
  standard::BinarySecurityTokenType cert;
  cert.value = "MIIB";
  cert.ValueType = lather::xsd::any_uri{"urn:x509v3"};
  p.BinarySecurityToken = cert;
  // <wsp:Policy wsu:Id="p"><wsp:ExactlyOne><wsp:All/><wsp:PolicyReference URI="#q"/>
  // </wsp:ExactlyOne></wsp:Policy>: ExactlyOne and All share a type, told apart by position.
  standard::OperatorContentType all, exactly_one;
  standard::PolicyReference ref;
  ref.URI = lather::xsd::any_uri{"#q"};
  using alternative =
      decltype(exactly_one.PolicyOrAllOrExactlyOneOrPolicyReferenceOrany)::value_type;
  exactly_one.PolicyOrAllOrExactlyOneOrPolicyReferenceOrany.push_back(
      alternative{std::in_place_index<1>, all});
  exactly_one.PolicyOrAllOrExactlyOneOrPolicyReferenceOrany.push_back(
      alternative{std::in_place_index<3>, ref});
  standard::Policy_2 policy;
  policy.Id = "p";
  policy.PolicyOrAllOrExactlyOneOrPolicyReferenceOrany.push_back(
      alternative{std::in_place_index<2>, exactly_one});
  p.Policy = policy;
  return p;
}

TEST(WsdlGeneratedStandard, SecurityAndPolicyTypesRoundTrip) {
  const standard::Publish p = publish();
  const std::string xml = to_xml("urn:standard", "Publish", p);
  for (std::string_view ns : {wsse, wsu, wsp})
    EXPECT_NE(xml.find(std::string("=\"") + std::string(ns) + "\""), std::string::npos) << xml;
  for (std::string_view part : {":Timestamp ", ":Created>2026-01-01T00:00:00Z</",
                                ":Username>alice</", ":ExactlyOne><", ":All/>", "URI=\"#q\""})
    EXPECT_NE(xml.find(part), std::string::npos) << part << "\n" << xml;
  standard::Publish back;
  const lather::bind::error_info e = from_xml(xml, back);
  ASSERT_FALSE(e) << e.message;
  EXPECT_EQ(back, p);
  EXPECT_EQ(to_xml("urn:standard", "Publish", back), xml);
}

TEST(WsdlGeneratedStandard, SecurityHeaderTokensReadAsTheirTypes) {
  // The header as lather::wsse (or another stack) writes it: its content is a wildcard.
  const std::string header =
      "<wsse:Security xmlns:wsse=\"" + std::string(wsse) + "\" xmlns:wsu=\"" + std::string(wsu) +
      "\"><wsu:Timestamp wsu:Id=\"ts\"><wsu:Created>2026-01-01T00:00:00Z"
      "</wsu:Created></wsu:Timestamp><wsse:UsernameToken wsu:Id=\"u\">"
      "<wsse:Username>bob</wsse:Username><wsse:Password Type=\"#PasswordText\""
      ">secret</wsse:Password></wsse:UsernameToken></wsse:Security>";
  standard::SecurityHeaderType security;
  lather::bind::error_info e = from_xml(header, security);
  ASSERT_FALSE(e) << e.message;
  ASSERT_EQ(security.any.size(), 2u);
  standard::TimestampType timestamp;
  e = lather::bind::read_captured(security.any[0].xml, timestamp);
  ASSERT_FALSE(e) << e.message;
  EXPECT_EQ(timestamp.Id, "ts");
  EXPECT_EQ(timestamp.Created->value, "2026-01-01T00:00:00Z");
  standard::UsernameTokenType token;
  e = lather::bind::read_captured(security.any[1].xml, token);
  ASSERT_FALSE(e) << e.message;
  EXPECT_EQ(token.Id, "u");
  EXPECT_EQ(token.Username->value, "bob");
  ASSERT_EQ(token.any.size(), 1u);  // Password: the profile's element, in the wildcard
  standard::PasswordString password;
  ASSERT_FALSE(lather::bind::read_captured(token.any[0].xml, password));
  EXPECT_EQ(password.value, "secret");
  EXPECT_EQ(password.Type, lather::xsd::any_uri{"#PasswordText"});
}

}  // namespace
