// lather::wsdl::sample_value: a valid value for every simple type a contract declares.
#include <gtest/gtest.h>

#include <string>

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

}  // namespace
