// lather::wsdl::sample_value: a valid value for every simple type a contract declares.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "lather/bind/facets.hpp"
#include "lather/wsdl/sample.hpp"
#include "wsdl_test_util.hpp"

using namespace lather::wsdl;
using lather::wsdl::test::files;
using lather::wsdl::test::load_text;
using lather::wsdl::test::wsdl_with_schema;

namespace {

std::string sample_of(const model& m, std::string_view local) {
  const type* t = m.find_type({"urn:t", std::string(local)});
  EXPECT_NE(t, nullptr) << local;
  return t ? sample_value(static_cast<const simple_type&>(*t)) : "";
}

TEST(WsdlSample, BuiltinsEnumerationsRangesAndLengths) {
  files f;
  auto m = load_text(f, wsdl_with_schema(R"(
   <xs:simpleType name="Color"><xs:restriction base="xs:string">
     <xs:enumeration value="red"/><xs:enumeration value="green"/></xs:restriction></xs:simpleType>
   <xs:simpleType name="Shade"><xs:restriction base="t:Color"><xs:maxLength value="9"/></xs:restriction></xs:simpleType>
   <xs:simpleType name="Port"><xs:restriction base="xs:int"><xs:minInclusive value="1024"/></xs:restriction></xs:simpleType>
   <xs:simpleType name="Below"><xs:restriction base="xs:int"><xs:maxExclusive value="-5"/></xs:restriction></xs:simpleType>
   <xs:simpleType name="Code"><xs:restriction base="xs:string"><xs:length value="8"/></xs:restriction></xs:simpleType>
   <xs:simpleType name="Short"><xs:restriction base="xs:string"><xs:maxLength value="3"/></xs:restriction></xs:simpleType>
   <xs:simpleType name="Key"><xs:restriction base="xs:hexBinary"><xs:length value="4"/></xs:restriction></xs:simpleType>
   <xs:simpleType name="Blob"><xs:restriction base="xs:base64Binary"><xs:minLength value="5"/></xs:restriction></xs:simpleType>
   <xs:simpleType name="Ints"><xs:list itemType="t:Port"/></xs:simpleType>
   <xs:simpleType name="IntOrColor"><xs:union memberTypes="t:Color xs:int"/></xs:simpleType>
   <xs:simpleType name="When"><xs:restriction base="xs:dateTime"/></xs:simpleType>
  )"));
  EXPECT_EQ(sample_of(*m, "Color"), "red");
  EXPECT_EQ(sample_of(*m, "Shade"), "red");
  EXPECT_EQ(sample_of(*m, "Port"), "1024");
  EXPECT_EQ(sample_of(*m, "Below"), "-6");
  EXPECT_EQ(sample_of(*m, "Code"), "stringxx");
  EXPECT_EQ(sample_of(*m, "Short"), "str");
  EXPECT_EQ(sample_of(*m, "Key"), "00000000");
  EXPECT_EQ(sample_of(*m, "Blob"), "AAAAAAA=");
  EXPECT_EQ(sample_of(*m, "Ints"), "1024");
  EXPECT_EQ(sample_of(*m, "IntOrColor"), "red");
  EXPECT_EQ(sample_of(*m, "When"), "2000-01-01T00:00:00Z");
  EXPECT_EQ(sample_builtin_value("positiveInteger"), "1");
  EXPECT_EQ(sample_builtin_value("boolean"), "true");
}

TEST(WsdlSample, PatternsFromTheCorpusMatch) {
  for (
      std::string_view p : {
          R"([0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})",
          R"([A-Z]{2}\-[1-9][0-9]?)",
          R"([\-]?\d{1,2}\.\d+,[\-]?\d{1,3}\.\d+( [\-]?\d{1,2}\.\d+,[\-]?\d{1,3}\.\d+)*)",
          R"(\-?P(\d*D)?(T(\d*H)?(\d*M)?(\d*(\.\d*)?S)?)?)",
          R"(((0x|0X)[0-9A-Fa-f]*)|([0-9]*))",
          R"([ -~]{8,63})",
          R"([a-zA-Z'\-]*( ?[a-zA-Z'\-]*)*,[A-Z][A-Z](\|[a-zA-Z'\-]*( ?[a-zA-Z'\-]*)*,[A-Z][A-Z])*)",
          R"([0-9]{1,4}\.[0-9]{1,4}(\.[0-9]{1,4}(\.[0-9]{1,4})?)?)",
          R"([a-zA-Z0-9]+_[a-zA-Z0-9]+)",
      }) {
    files f;
    auto m = load_text(
        f, wsdl_with_schema("<xs:simpleType name=\"T\"><xs:restriction base=\"xs:string\">"
                            "<xs:pattern value=\"" +
                            std::string(p) +
                            "\"/>"
                            "</xs:restriction></xs:simpleType>"));
    std::string s = sample_of(*m, "T");
    // XSD regexes are anchored; these use only what ECMAScript reads the same way.
    EXPECT_TRUE(std::regex_match(s, std::regex(std::string(p)))) << p << " -> " << s;
    // And lather's own matcher (read_options::validate_facets) takes the sample.
    EXPECT_EQ(lather::bind::match_pattern(p, s), 1) << p << " -> " << s;
  }
}

// A pattern ECMAScript cannot read (\i, \c, class subtraction: ONVIF's QName paths), which
// lather's matcher runs: the sample matches it.
TEST(WsdlSample, XsdOnlyPatternsFromTheCorpusMatch) {
  constexpr std::string_view p =
      R"((([\i-[:]][\c-[:]]*:)?[\i-[:]][\c-[:]]*)(/([\i-[:]][\c-[:]]*:)?[\i-[:]][\c-[:]]*)*)";
  files f;
  auto m =
      load_text(f, wsdl_with_schema("<xs:simpleType name=\"T\"><xs:restriction base=\"xs:token\">"
                                    "<xs:pattern value=\"" +
                                    std::string(p) + "\"/></xs:restriction></xs:simpleType>"));
  const std::string s = sample_of(*m, "T");
  EXPECT_EQ(lather::bind::match_pattern(p, s), 1) << s;
  EXPECT_EQ(lather::bind::match_pattern(p, "tns:a/b"), 1);
  EXPECT_EQ(lather::bind::match_pattern(p, "a:b:c"), 0);
}

TEST(WsdlSample, NegationSubtractionAndTextFacets) {
  files f;
  auto m = load_text(f, wsdl_with_schema(R"(
   <xs:simpleType name="Odd"><xs:restriction base="xs:string"><xs:pattern value="[^0-9]x[a-z-[aeiou]]"/></xs:restriction></xs:simpleType>
   <xs:simpleType name="Port"><xs:restriction base="xs:int"><xs:minInclusive value="1024"/></xs:restriction></xs:simpleType>
  )"));
  // 'a' is a vowel: 'x' is the next pick of the subtracted class.
  EXPECT_EQ(sample_of(*m, "Odd"), "axx");
  facets narrower;
  narrower.enumeration = {"2000", "3000"};
  EXPECT_EQ(
      sample_value(static_cast<const simple_type&>(*m->find_type({"urn:t", "Port"})), narrower),
      "2000");
}

}  // namespace
