// lather::wsdl::generate_cpp on small contracts: names, the C++ shape of each construct, and
// the constructs it refuses (with their positions). The generated code of real contracts is
// compiled and round-tripped by generated_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "../support/paths.hpp"
#include "lather/wsdl/generate.hpp"
#include "lather/wsdl/load.hpp"
#include "wsdl_test_util.hpp"

using namespace lather::wsdl;
using lather::wsdl::test::error_of;
using lather::wsdl::test::files;

namespace {

/// A document/literal contract with one operation whose input is {urn:t}in and output
/// {urn:t}out, plus one rpc operation.
std::string doc_wsdl(std::string_view schema_body) {
  return R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:t="urn:t"
    xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t">
 <types><xs:schema targetNamespace="urn:t" elementFormDefault="qualified">
)" + std::string(schema_body) +
         R"(
 </xs:schema></types>
 <message name="In"><part name="p" element="t:in"/></message>
 <message name="Out"><part name="p" element="t:out"/></message>
 <message name="R"><part name="x" type="xs:int"/></message>
 <portType name="P">
  <operation name="op"><input message="t:In"/><output message="t:Out"/></operation>
  <operation name="rpcOp"><input message="t:R"/><output message="t:R"/></operation>
 </portType>
 <binding name="B" type="t:P"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
  <operation name="op"><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
  <operation name="rpcOp"><soap:operation style="rpc"/><input><soap:body use="literal" namespace="urn:t"/></input><output><soap:body use="literal" namespace="urn:t"/></output></operation>
 </binding>
</definitions>)";
}

generate_result generate(files& f, std::string_view schema_body) {
  auto m = load({f.add("g.wsdl", doc_wsdl(schema_body))});
  return generate_cpp(*m, {.cpp_namespace = "g"});
}

const std::string& file(const generate_result& r, std::string_view name) {
  for (const generated_file& f : r.files)
    if (f.name == name) return f.text;
  ADD_FAILURE() << "no file " << name;
  static const std::string none;
  return none;
}

/// Every code_<k>.cpp: the structs' field tables (and the operations).
std::string tables(const generate_result& r) {
  std::string all;
  for (const generated_file& f : r.files)
    if (f.name.starts_with("code_")) all += f.text;
  return all;
}

constexpr std::string_view naming_schema = R"(
  <xs:complexType name="int"><xs:sequence><xs:element name="class" type="xs:string"/></xs:sequence></xs:complexType>
  <xs:complexType name="out"><xs:sequence><xs:element name="v" type="xs:int"/></xs:sequence></xs:complexType>
  <xs:simpleType name="Level"><xs:restriction base="xs:string">
   <xs:enumeration value="+L1"/><xs:enumeration value="-L1"/><xs:enumeration value="6"/><xs:enumeration value=""/>
  </xs:restriction></xs:simpleType>
  <xs:element name="in"><xs:complexType><xs:sequence>
   <xs:element name="a-b" type="t:int"/><xs:element name="in" type="t:Level"/>
  </xs:sequence></xs:complexType></xs:element>
  <xs:element name="out"><xs:complexType><xs:sequence><xs:element name="r" type="t:out"/></xs:sequence></xs:complexType></xs:element>)";

TEST(WsdlGenerate, NamesAreKeywordSafeClashFreeAndListed) {
  files f;
  generate_result r = generate(f, naming_schema);
  const std::string& h = file(r, "t.hpp");
  EXPECT_NE(h.find("struct int_ {\n  std::string class_{};"), std::string::npos) << h;
  EXPECT_NE(h.find("enum class Level { x_L1, x_L1_2, _6, empty };"), std::string::npos) << h;
  EXPECT_NE(h.find("::g::int_ a_b{};"), std::string::npos) << h;
  // Open (lather::open_enum): a value the contract does not list is kept by a client.
  EXPECT_NE(h.find("lather::open_enum<::g::Level> in_{};"), std::string::npos) << h;
  // The named type keeps "out"; the element's anonymous type gets the suffix.
  EXPECT_NE(h.find("struct out {\n  std::int32_t v{};"), std::string::npos) << h;
  EXPECT_NE(h.find("struct out_2 {\n  ::g::out r{};"), std::string::npos) << h;
  const std::string t = tables(r);
  EXPECT_NE(t.find("element<std::string>(\"urn:t\", \"class\", offsetof(::g::int_, class_))"),
            std::string::npos)
      << t;
  // A struct's fields are in its table only: the header names the type.
  EXPECT_EQ(h.find("lather::fields("), std::string::npos) << h;
  const std::string& names = file(r, "names.txt");
  EXPECT_NE(names.find("complexType {urn:t}int -> g::int_ (t.hpp)"), std::string::npos) << names;
  EXPECT_NE(names.find("anonymous complexType of {urn:t}out -> g::out_2"), std::string::npos);
  EXPECT_NE(names.find("enumerator Level::x_L1_2 <- \"-L1\""), std::string::npos) << names;
  EXPECT_NE(names.find("member int_::class_ <- element {urn:t}class"), std::string::npos);
  EXPECT_TRUE(r.skipped.empty());
  // The rpc operation's messages are structs named after it, unqualified parts.
  EXPECT_NE(h.find("struct rpcOp {\n  std::int32_t x{};"), std::string::npos) << h;
  EXPECT_NE(t.find("\"x\", offsetof(::g::rpcOp, x)).unqualified()"), std::string::npos) << t;
  EXPECT_NE(names.find("rpc output of rpcOp (message {urn:t}R) -> g::rpcOpResponse (t.hpp)"),
            std::string::npos)
      << names;
  EXPECT_NE(file(r, "code_1.cpp").find("true, lather::soap::style::rpc_literal,\n"),
            std::string::npos);
  // Deterministic.
  generate_result again = generate(f, naming_schema);
  EXPECT_EQ(file(again, "t.hpp"), h);
}

TEST(WsdlGenerate, OccurrenceChoiceExtensionAttributesAndText) {
  files f;
  generate_result r = generate(f, R"(
  <xs:complexType name="Base"><xs:sequence><xs:element name="id" type="xs:long"/></xs:sequence></xs:complexType>
  <xs:complexType name="Price"><xs:simpleContent><xs:extension base="xs:decimal">
   <xs:attribute name="currency" type="xs:string" use="required"/></xs:extension></xs:simpleContent></xs:complexType>
  <xs:element name="in"><xs:complexType><xs:complexContent><xs:extension base="t:Base"><xs:sequence>
   <xs:element name="opt" type="xs:int" minOccurs="0"/>
   <xs:element name="many" type="xs:string" minOccurs="1" maxOccurs="5"/>
   <xs:element name="nil" type="xs:string" nillable="true"/>
   <xs:element name="maybe" type="xs:string" minOccurs="0" nillable="true"/>
   <xs:element name="nils" type="xs:int" maxOccurs="unbounded" nillable="true"/>
   <xs:element name="plain" type="xs:string" form="unqualified"/>
   <xs:choice><xs:element name="num" type="xs:int"/><xs:element name="word" type="xs:string"/></xs:choice>
   <xs:choice minOccurs="0" maxOccurs="unbounded"><xs:element name="p" type="t:Price"/><xs:element name="d" type="xs:date"/></xs:choice>
   <xs:element name="when" type="xs:dateTime" minOccurs="0" default="2000-01-01T00:00:00Z"/>
   <xs:any namespace="##other" minOccurs="0" maxOccurs="unbounded"/>
  </xs:sequence><xs:attribute name="lang" type="xs:language" default="en"/><xs:attribute name="n" type="xs:int"/>
  </xs:extension></xs:complexContent></xs:complexType></xs:element>
  <xs:element name="out" type="xs:string"/>)");
  const std::string& h = file(r, "t.hpp");
  for (const char* want : {
           "struct in : ::g::Base {",
           "std::optional<std::int32_t> opt{};",
           "std::vector<std::string> many{};",
           "lather::nillable<std::string> nil{};",
           // minOccurs="0" and nillable: absent and nil apart
           "std::optional<lather::nillable<std::string>> maybe{};",
           "std::vector<lather::nillable<std::int32_t>> nils{};",
           "std::variant<std::int32_t, std::string> numOrword{};",
           "std::vector<std::variant<::g::Price, lather::xsd::date>> pOrd{};",
           "lather::xsd::date_time when = {{2000, 1, 1, 0, 0, 0, {}, 0}};",
           "std::vector<lather::bind::any_element> any{};",
           "std::string lang = \"en\";",
           "std::optional<std::int32_t> n{};",
           "lather::xsd::decimal value{};",
           "using base = ::g::Base;",
       })
    EXPECT_NE(h.find(want), std::string::npos) << want << "\n" << h;
  const std::string t = tables(r);
  for (const char* want : {
           // in extends Base: its table has its own fields, after Base's one
           "= extension(\"urn:t\", 1,",
           ", ::g::in)",
           "\"many\", offsetof(::g::in, many)).min(1).max(5)",
           "\"plain\", offsetof(::g::in, plain)).unqualified()",
           "element<std::optional<lather::nillable<std::string>>>(\"urn:t\", \"maybe\", "
           "offsetof(::g::in, maybe)),",
           "element<std::vector<lather::nillable<std::int32_t>>>(\"urn:t\", \"nils\", "
           "offsetof(::g::in, nils)).min(1)",
           "alternatives<std::variant<std::int32_t, std::string>>({\"num\", \"word\"})",
           "choice<std::variant<std::int32_t, std::string>>(\"urn:t\", offsetof(::g::in, "
           "numOrword)",
           "\"when\", offsetof(::g::in, when)).min(0).default_value(\"2000-01-01T00:00:00Z\")",
           "\"lang\", offsetof(::g::in, lang)).default_value(\"en\")",
           "\"currency\", offsetof(::g::Price, currency)).required()",
           "text<lather::xsd::decimal>(\"urn:t\", offsetof(::g::Price, value))",
       })
    EXPECT_NE(t.find(want), std::string::npos) << want << "\n" << t;
  EXPECT_EQ(t.find("offsetof(::g::in, id)"), std::string::npos) << t;
  EXPECT_NE(t.find("LATHER_BIND_TABLE_DEFINE_VIEW_EXTENSION(fields_"), std::string::npos) << t;
  EXPECT_NE(t.find("  LATHER_BIND_TABLE_STATE_EXTENSION(fields_"), std::string::npos) << t;
  EXPECT_EQ(t.find(".nillable()"), std::string::npos) << t;  // the member types say it
  EXPECT_EQ(file(r, "names.txt").find("nillable"), std::string::npos) << file(r, "names.txt");
  // Base comes before the struct that holds it by value.
  EXPECT_LT(h.find("struct Base {"), h.find("struct in :"));
}

// --keep-unknown: a member per hierarchy of types with element content (a derived type shares
// its base's; one whose base has none gets its own), clash-free, listed; none for simple or
// empty content, nor for rpc messages. Without it, nothing of it.
TEST(WsdlGenerate, KeepUnknownGivesEachHierarchyWithElementsOneMember) {
  files f;
  auto m = load({f.add("g.wsdl", doc_wsdl(R"(
  <xs:complexType name="Base"><xs:sequence><xs:element name="id" type="xs:long"/></xs:sequence></xs:complexType>
  <xs:complexType name="Empty"><xs:attribute name="a" type="xs:int"/></xs:complexType>
  <xs:complexType name="Price"><xs:simpleContent><xs:extension base="xs:decimal">
   <xs:attribute name="currency" type="xs:string"/></xs:extension></xs:simpleContent></xs:complexType>
  <xs:complexType name="Grown"><xs:complexContent><xs:extension base="t:Empty"><xs:sequence>
   <xs:element name="x" type="xs:int"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
  <xs:element name="in"><xs:complexType><xs:complexContent><xs:extension base="t:Base"><xs:sequence>
   <xs:element name="unknown_elements" type="xs:int"/><xs:element name="p" type="t:Price"/>
   <xs:element name="e" type="t:Empty"/><xs:element name="g" type="t:Grown"/>
  </xs:sequence></xs:extension></xs:complexContent></xs:complexType></xs:element>
  <xs:element name="out" type="xs:string"/>)"))});
  const generate_result r = generate_cpp(*m, {.cpp_namespace = "g", .keep_unknown = true});
  const std::string& h = file(r, "t.hpp");
  const auto body = [&](std::string_view head) {
    const std::size_t at = h.find(head);
    EXPECT_NE(at, std::string::npos) << head << "\n" << h;
    return h.substr(at, h.find("\n};", at) - at);
  };
  const std::string member = "lather::bind::unknown_elements unknown_elements{};";
  EXPECT_NE(body("struct Base {").find(member), std::string::npos) << h;
  EXPECT_NE(body("struct Grown : ::g::Empty {").find(member), std::string::npos) << h;
  for (const char* none : {"struct in : ::g::Base {", "struct Empty {", "struct Price {"})
    EXPECT_EQ(body(none).find("lather::bind::unknown_elements"), std::string::npos) << none;
  // in's element of that name gives way to Base's member.
  EXPECT_NE(body("struct in : ::g::Base {").find("std::int32_t unknown_elements_2{};"),
            std::string::npos)
      << h;
  const std::string t = tables(r);
  EXPECT_NE(
      t.find("lather::bind::table::unknown(\"urn:t\", offsetof(::g::Base, unknown_elements))"),
      std::string::npos)
      << t;
  EXPECT_NE(
      t.find("lather::bind::table::unknown(\"urn:t\", offsetof(::g::Grown, unknown_elements))"),
      std::string::npos)
      << t;
  std::size_t count = 0;
  for (std::size_t at = t.find("table::unknown("); at != std::string::npos;
       at = t.find("table::unknown(", at + 1))
    ++count;
  EXPECT_EQ(count, 2u) << t;
  const std::string& names = file(r, "names.txt");
  EXPECT_NE(names.find("  member Base::unknown_elements <- the child elements the type does not "
                       "declare (--keep-unknown)"),
            std::string::npos)
      << names;
  EXPECT_NE(names.find("  member in::unknown_elements_2 <- element {urn:t}unknown_elements"),
            std::string::npos)
      << names;
  const generate_result plain = generate_cpp(*m, {.cpp_namespace = "g"});
  for (const generated_file& g : plain.files)
    EXPECT_EQ(g.text.find("lather::bind::unknown_elements"), std::string::npos) << g.name;
  EXPECT_NE(file(plain, "t.hpp").find("std::int32_t unknown_elements{};"), std::string::npos);
}

TEST(WsdlGenerate, RepeatedSequenceOfOneParticleIsThatParticleRepeated) {
  // EWS's arrays: <xs:sequence minOccurs="0" maxOccurs="unbounded"> around one element.
  files f;
  generate_result r = generate(f, R"(
  <xs:element name="in"><xs:complexType><xs:sequence>
   <xs:sequence minOccurs="0" maxOccurs="unbounded"><xs:element name="id" type="xs:string"/></xs:sequence>
   <xs:sequence maxOccurs="3"><xs:element name="n" type="xs:int" maxOccurs="2"/></xs:sequence>
  </xs:sequence></xs:complexType></xs:element>
  <xs:element name="out"><xs:complexType/></xs:element>)");
  EXPECT_TRUE(r.skipped.empty()) << r.skipped.front();
  const std::string& h = file(r, "t.hpp");
  for (const char* want : {"std::vector<std::string> id{};", "std::vector<std::int32_t> n{};"})
    EXPECT_NE(h.find(want), std::string::npos) << want << "\n" << h;
  const std::string t = tables(r);
  for (const char* want :
       {"\"id\", offsetof(::g::in, id))", "\"n\", offsetof(::g::in, n)).min(1).max(6)"})
    EXPECT_NE(t.find(want), std::string::npos) << want << "\n" << t;
}

TEST(WsdlGenerate, NestedModelGroupsAreInlineGroups) {
  // A choice alternative that is a sequence, a choice of elements inside a choice (flattened)
  // and one that is not (a nested variant), an element of another namespace and a wildcard as
  // alternatives, a repeated and an optional sequence of several particles: structs bound as
  // inline groups (meta<T>::group), named after their type and first element.
  files f;
  auto m =
      load({f.add("g.wsdl", R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:t="urn:t"
    xmlns:o="urn:o" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t">
 <types><xs:schema targetNamespace="urn:o" elementFormDefault="qualified">
  <xs:element name="note" type="xs:string"/></xs:schema>
 <xs:schema targetNamespace="urn:t" elementFormDefault="qualified"><xs:import namespace="urn:o"/>
  <xs:element name="in"><xs:complexType><xs:sequence>
   <xs:choice>
    <xs:sequence><xs:element name="w" type="xs:int"/><xs:element name="h" type="xs:int"/></xs:sequence>
    <xs:element name="r" type="xs:int"/>
    <xs:choice><xs:element name="x" type="xs:int"/><xs:element name="y" type="xs:string"/></xs:choice>
    <xs:choice><xs:sequence><xs:element name="p" type="xs:int"/><xs:element name="q" type="xs:int"/></xs:sequence><xs:element name="s" type="xs:int"/></xs:choice>
    <xs:element ref="o:note"/>
    <xs:any namespace="##other"/>
   </xs:choice>
   <xs:sequence minOccurs="0" maxOccurs="unbounded"><xs:element name="key" type="xs:string"/><xs:element name="value" type="xs:int"/></xs:sequence>
   <xs:sequence minOccurs="0"><xs:element name="lo" type="xs:int"/><xs:element name="hi" type="xs:int"/></xs:sequence>
   <xs:sequence minOccurs="0"><xs:element name="a" type="xs:int" minOccurs="0"/><xs:element name="b" type="xs:int" minOccurs="0"/></xs:sequence>
  </xs:sequence></xs:complexType></xs:element>
  <xs:element name="out" type="xs:string"/>
 </xs:schema></types>
 <message name="In"><part name="p" element="t:in"/></message>
 <message name="Out"><part name="p" element="t:out"/></message>
 <portType name="P"><operation name="op"><input message="t:In"/><output message="t:Out"/></operation></portType>
 <binding name="B" type="t:P"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
  <operation name="op"><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
 </binding>
</definitions>)")});
  generate_result r = generate_cpp(*m, {.cpp_namespace = "g"});
  EXPECT_TRUE(r.skipped.empty()) << r.skipped.front();
  const std::string& h = file(r, "t.hpp");
  for (const char* want : {
           "struct in_w {\n  std::int32_t w{};\n  std::int32_t h{};",
           "struct in_p_p {\n  std::int32_t p{};\n  std::int32_t q{};",
           "struct in_p {\n  std::variant<::g::in_p_p, std::int32_t> pOrs{};",
           "struct in_note {\n  std::string note{};",
           "struct in_any {\n  lather::bind::any_element any{};",
           "std::variant<::g::in_w, std::int32_t, std::int32_t, std::string, ::g::in_p, "
           "::g::in_note, ::g::in_any> wOrrOrxOryOrpOrnoteOrany{};",
           "std::vector<::g::in_key> key{};",
           "std::optional<::g::in_lo> lo{};",
           // an optional sequence that may be empty anyway: flattened, its elements optional
           "std::optional<std::int32_t> a{};\n  std::optional<std::int32_t> b{};",
           "static constexpr bool group = true;",
       })
    EXPECT_NE(h.find(want), std::string::npos) << want << "\n" << h;
  const std::string t = tables(r);
  for (const char* want : {
           "({\"w\", \"r\", \"x\", \"y\", \"p\", \"note\", \"any\"})",
           "element<std::string>(\"urn:t\", \"note\", offsetof(::g::in_note, note))"
           ".in_namespace(\"urn:o\")",
           "element<std::vector<::g::in_key>>(\"urn:t\", \"key\", offsetof(::g::in, key)),",
           "element<std::optional<::g::in_lo>>(\"urn:t\", \"lo\", offsetof(::g::in, lo)),",
       })
    EXPECT_NE(t.find(want), std::string::npos) << want << "\n" << t;
  const std::string& names = file(r, "names.txt");
  for (const char* want :
       {"g.wsdl:9:5 (inline) -> g::in_w (t.hpp)", "a vector of inline groups (document order kept)",
        "an optional inline group (all of it or none)"})
    EXPECT_NE(names.find(want), std::string::npos) << want << "\n" << names;
}

TEST(WsdlGenerate, SubstitutionGroupIsAChoiceTaggedByElement) {
  // An element that heads a substitutionGroup stands for itself (unless abstract) and every
  // member of its group, transitively: a variant told apart by element, as xs:choice.
  files f;
  generate_result r = generate(f, R"(
  <xs:complexType name="Shape"><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType>
  <xs:element name="shape" type="t:Shape"/>
  <xs:element name="square" type="t:Shape" substitutionGroup="t:shape"/>
  <xs:element name="tile" type="t:Shape" substitutionGroup="t:square"/>
  <xs:element name="quantity" type="xs:string" abstract="true"/>
  <xs:element name="count" type="xs:int" substitutionGroup="t:quantity"/>
  <xs:element name="word" type="xs:string" substitutionGroup="t:quantity"/>
  <xs:element name="in"><xs:complexType><xs:sequence>
   <xs:element ref="t:shape" minOccurs="0" maxOccurs="unbounded"/>
   <xs:element ref="t:quantity"/>
  </xs:sequence></xs:complexType></xs:element>
  <xs:element name="out"><xs:complexType/></xs:element>)");
  EXPECT_TRUE(r.skipped.empty()) << r.skipped.front();
  const std::string& h = file(r, "t.hpp");
  for (const char* want : {"std::vector<std::variant<::g::Shape, ::g::Shape, ::g::Shape>> shape{};",
                           "std::variant<std::int32_t, std::string> quantity{};"})
    EXPECT_NE(h.find(want), std::string::npos) << want << "\n" << h;
  const std::string t = tables(r);
  for (const char* want :
       {"alternatives<std::vector<std::variant<::g::Shape, ::g::Shape, ::g::Shape>>>("
        "{\"shape\", \"square\", \"tile\"})",
        "alternatives<std::variant<std::int32_t, std::string>>({\"count\", \"word\"})"})
    EXPECT_NE(t.find(want), std::string::npos) << want << "\n" << t;
}

TEST(WsdlGenerate, ListOfAnonymousEnumerationIsNamedAfterItsType) {
  // Bing Ads' flags: a named xs:list of an anonymous enumeration.
  files f;
  generate_result r = generate(f, R"(
  <xs:simpleType name="Fields"><xs:list><xs:simpleType><xs:restriction base="xs:string">
   <xs:enumeration value="A"/><xs:enumeration value="B"/></xs:restriction></xs:simpleType></xs:list></xs:simpleType>
  <xs:element name="in"><xs:complexType><xs:sequence><xs:element name="f" type="t:Fields"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="out"><xs:complexType/></xs:element>)");
  const std::string& h = file(r, "t.hpp");
  for (const char* want :
       {"enum class Fields { A, B };", "lather::xsd::list<lather::open_enum<::g::Fields>> f{};"})
    EXPECT_NE(h.find(want), std::string::npos) << want << "\n" << h;
}

TEST(WsdlGenerate, UnsupportedConstructsAreRefusedWithTheirPosition) {
  files f;
  struct refused {
    const char* schema;
    const char* message;
  } cases[] = {
      {R"(<xs:element name="in"><xs:complexType mixed="true"><xs:sequence><xs:element name="a" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="out"><xs:complexType/></xs:element>)",
       "P.op: a body element of anyType, mixed content or a SOAP-ENC array ({urn:t}in)"},
      {R"(<xs:element name="in" type="xs:int"/><xs:element name="sub" type="xs:int" substitutionGroup="t:in"/>
  <xs:element name="out"><xs:complexType/></xs:element>)",
       "P.op: a body element that heads a substitutionGroup ({urn:t}in)"},
      {R"(<xs:element name="in"><xs:complexType><xs:sequence><xs:element name="in2" type="t:R"/></xs:sequence></xs:complexType></xs:element>
  <xs:complexType name="R"><xs:sequence><xs:element name="s" type="t:S"/></xs:sequence></xs:complexType>
  <xs:complexType name="S"><xs:sequence><xs:element name="r" type="t:R"/></xs:sequence></xs:complexType>
  <xs:element name="out"><xs:complexType/></xs:element>)",
       "g.wsdl:6:3: type R contains itself through required elements"},
      // Two alternatives that may begin with the same element: read by the first element.
      {R"(<xs:element name="in"><xs:complexType><xs:choice><xs:sequence><xs:element name="a" type="xs:int"/><xs:element name="b" type="xs:int"/></xs:sequence><xs:element name="a" type="xs:int"/></xs:choice></xs:complexType></xs:element>
  <xs:element name="out"><xs:complexType/></xs:element>)",
       "g.wsdl:5:149 may both begin with element {urn:t}a: not generated (ambiguous)"},
      {R"(<xs:element name="in"><xs:complexType><xs:choice><xs:sequence><xs:element name="a" type="xs:int" minOccurs="0"/><xs:element name="b" type="xs:int" minOccurs="0"/></xs:sequence><xs:element name="c" type="xs:int"/></xs:choice></xs:complexType></xs:element>
  <xs:element name="out"><xs:complexType/></xs:element>)",
       "g.wsdl:5:50: xs:choice alternative that may be empty is not generated yet"},
  };
  // A construct in a type: the operations that reach it are skipped, saying why; a type
  // that contains itself by value is an error.
  for (const refused& c : cases) {
    std::string e = error_of([&] {
      for (const std::string& s : generate(f, c.schema).skipped)
        if (s.starts_with("P.op: ")) throw error({}, s);
    });
    EXPECT_NE(e.find(c.message), std::string::npos) << "want: " << c.message << "\ngot: " << e;
  }
}

TEST(WsdlGenerate, AChoiceUnderRpcEncodedUseIsRefused) {
  // SOAP encoding has no choice (docs/wsdl2cpp.md): a choice of elements (qualified or not,
  // an alternative that is a sequence) and a substitution group's head skip their operations
  // with the reason, where the generated code used not to compile; a plain struct stays.
  files f;
  const std::string enc =
      R"(<soap:body use="encoded" namespace="urn:t" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/>)";
  // Operation x takes a part of type X (one each for C, G, H and S) and returns an S.
  std::string messages, operations, bound;
  for (const std::string x : {"C", "G", "H", "S"}) {
    const std::string op(1, static_cast<char>(x[0] - 'A' + 'a'));
    messages += R"(<message name=")" + x + R"("><part name=")" + op + R"(" type="t:)" + x +
                R"("/></message>)";
    operations += R"(<operation name=")" + op + R"("><input message="t:)" + x +
                  R"("/><output message="t:S"/></operation>)";
    bound += R"(<operation name=")" + op + R"("><input>)" + enc + "</input><output>" + enc +
             "</output></operation>";
  }
  messages += R"(<portType name="P">)" + operations + "</portType>";
  auto m = load({f.add("e.wsdl", R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
    xmlns:t="urn:t" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t">
 <types><xs:schema targetNamespace="urn:t" elementFormDefault="qualified">
  <xs:complexType name="C"><xs:sequence><xs:choice><xs:element name="a" type="xs:int"/>
   <xs:element name="b" type="xs:string"/></xs:choice></xs:sequence></xs:complexType>
  <xs:complexType name="G"><xs:choice><xs:sequence><xs:element name="a" type="xs:int" form="unqualified"/>
   <xs:element name="b" type="xs:int" form="unqualified"/></xs:sequence><xs:element name="c" type="xs:int"/></xs:choice></xs:complexType>
  <xs:element name="head" type="xs:int"/><xs:element name="member" type="xs:int" substitutionGroup="t:head"/>
  <xs:complexType name="H"><xs:sequence><xs:element ref="t:head"/></xs:sequence></xs:complexType>
  <xs:complexType name="S"><xs:sequence><xs:element name="a" type="xs:int"/></xs:sequence></xs:complexType>
 </xs:schema></types>
 )" + messages + R"(
 <binding name="B" type="t:P"><soap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>
  )" + bound + R"(
 </binding>
</definitions>)")});
  generate_result r = generate_cpp(*m, {.cpp_namespace = "g"});
  std::string skipped;
  for (const std::string& k : r.skipped) skipped += k + "\n";
  ASSERT_EQ(r.skipped.size(), 3u) << skipped;
  for (const char* want :
       {"e.wsdl:5:41: xs:choice under rpc/encoded use is not generated (SOAP encoding has "
        "no choice: its structs are accessors told apart by name)",
        "e.wsdl:7:28: xs:choice under rpc/encoded use",
        "e.wsdl:10:41: an element that heads a substitutionGroup under rpc/encoded use"})
    EXPECT_NE(skipped.find(want), std::string::npos) << want << "\n" << skipped;
  EXPECT_NE(file(r, "t.hpp").find("struct S {"), std::string::npos);
}

TEST(WsdlGenerate, AnyTypeAndTwoDimensionalArraysInEncodedMessages) {
  // SOAPBuilders round 2 group B: xsd:anyType members and parts are lather::bind::any_type (the
  // accessor as received, xsi:type included) and a T[,] array is a soap::multi_array under
  // encoded use; literal XML has no 2-D arrays, so that operation alone is skipped.
  files f;
  auto m = load({f.add("e.wsdl", R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
    xmlns:t="urn:t" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:enc="http://schemas.xmlsoap.org/soap/encoding/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t">
 <types><xs:schema targetNamespace="urn:t"><xs:complexType name="S"><xs:all>
  <xs:element name="v" type="xs:anyType"/><xs:element name="n" type="xs:string" minOccurs="0" nillable="true"/></xs:all></xs:complexType>
  <xs:complexType name="G"><xs:complexContent><xs:restriction base="enc:Array">
   <xs:attribute ref="enc:arrayType" wsdl:arrayType="xs:string[,]"/>
  </xs:restriction></xs:complexContent></xs:complexType></xs:schema></types>
 <message name="A"><part name="x" type="xs:anyType"/></message>
 <message name="S"><part name="s" type="t:S"/></message>
 <message name="G"><part name="g" type="t:G"/></message>
 <message name="I"><part name="x" type="xs:int"/></message>
 <portType name="P">
  <operation name="any"><input message="t:A"/><output message="t:I"/></operation>
  <operation name="struct"><input message="t:I"/><output message="t:S"/></operation>
  <operation name="grid"><input message="t:G"/><output message="t:I"/></operation>
  <operation name="literalGrid"><input message="t:G"/><output message="t:I"/></operation>
 </portType>
 <binding name="B" type="t:P"><soap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>
  <operation name="any"><input><soap:body use="encoded" namespace="urn:t" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></input>
   <output><soap:body use="encoded" namespace="urn:t" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></output></operation>
  <operation name="struct"><input><soap:body use="encoded" namespace="urn:t" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></input>
   <output><soap:body use="encoded" namespace="urn:t" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></output></operation>
  <operation name="grid"><input><soap:body use="encoded" namespace="urn:t" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></input>
   <output><soap:body use="encoded" namespace="urn:t" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></output></operation>
  <operation name="literalGrid"><input><soap:body use="literal" namespace="urn:t"/></input>
   <output><soap:body use="literal" namespace="urn:t"/></output></operation>
 </binding>
</definitions>)")});
  generate_result r = generate_cpp(*m, {.cpp_namespace = "g", .mock = true});
  std::string skipped;
  for (const std::string& k : r.skipped) skipped += k + "\n";
  ASSERT_EQ(r.skipped.size(), 1u) << skipped;
  EXPECT_EQ(r.skipped[0].rfind("P.literalGrid: ", 0), 0u) << r.skipped[0];
  EXPECT_NE(r.skipped[0].find("e.wsdl:12:20: multi-dimensional SOAP-ENC array {urn:t}G in a "
                              "literal message is not generated yet"),
            std::string::npos)
      << r.skipped[0];
  const std::string& t = file(r, "t.hpp");
  // An encoded accessor omitted and one with xsi:nil are both null: one state.
  EXPECT_NE(t.find("struct S {\n  lather::bind::any_type v{};\n  std::optional<std::string> n{};"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("struct any {\n  lather::bind::any_type x{};"), std::string::npos) << t;
  EXPECT_NE(t.find("struct grid {\n  lather::soap::multi_array<std::string> g{};"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("#include \"lather/soap/encoded.hpp\""), std::string::npos);
  // The samples: a typed anyType value, a 1x1 grid.
  const std::string& samples = file(r, "mock_1.cpp");
  EXPECT_NE(samples.find("v.v.xml = \"<x xmlns:xsd="), std::string::npos) << samples;
  EXPECT_NE(samples.find("xsi:type=\\\"xsd:string\\\">sample</x>\";"), std::string::npos)
      << samples;
  EXPECT_NE(samples.find("v.g.dims = {1, 1}; v.g.items.resize(1);"), std::string::npos) << samples;
}

TEST(WsdlGenerate, MimeAttachmentPartsAreLeftToTheAttachments) {
  // SwA (CXF swa-mime): a type= part bound to mime:content is an attachment, not a body part,
  // so the operation is generated with its body; names.txt says what is not in the method.
  files f;
  auto m = load({f.add("m.wsdl", R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
    xmlns:t="urn:t" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:mime="http://schemas.xmlsoap.org/wsdl/mime/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t">
 <types><xs:schema targetNamespace="urn:t"><xs:element name="in"><xs:complexType/></xs:element>
  <xs:element name="out"><xs:complexType/></xs:element></xs:schema></types>
 <message name="In"><part name="p" element="t:in"/><part name="data" type="xs:base64Binary"/></message>
 <message name="Out"><part name="p" element="t:out"/></message>
 <portType name="P"><operation name="op"><input message="t:In"/><output message="t:Out"/></operation></portType>
 <binding name="B" type="t:P"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
  <operation name="op"><input><mime:multipartRelated><mime:part><soap:body parts="p" use="literal"/></mime:part>
   <mime:part><mime:content part="data" type="application/octet-stream"/></mime:part></mime:multipartRelated></input>
   <output><soap:body use="literal"/></output></operation>
 </binding>
</definitions>)")});
  generate_result r = generate_cpp(*m, {.cpp_namespace = "g"});
  EXPECT_TRUE(r.skipped.empty()) << r.skipped.front();
  EXPECT_NE(
      file(r, "names.txt")
          .find("note: P.op: input part data is a MIME attachment, not in the generated method"),
      std::string::npos)
      << file(r, "names.txt");
}

// A service class's context() gives the call's context; an operation named "context" keeps
// its name and the accessor takes another, which names.txt gives.
TEST(WsdlGenerate, ServiceContextAccessorGivesWayToAnOperation) {
  files f;
  const std::string schema = R"(<xs:element name="in"><xs:complexType/></xs:element>
    <xs:element name="out"><xs:complexType/></xs:element>)";
  auto m = load({f.add("c.wsdl", doc_wsdl(schema))});
  generate_result r = generate_cpp(*m, {.cpp_namespace = "g"});
  EXPECT_NE(file(r, "P.hpp").find("static lather::call_context& context() {"), std::string::npos)
      << file(r, "P.hpp");
  std::string wsdl = doc_wsdl(schema);
  for (std::size_t at; (at = wsdl.find("name=\"op\"")) != std::string::npos;)
    wsdl.replace(at, 9, "name=\"context\"");
  m = load({f.add("d.wsdl", wsdl)});
  r = generate_cpp(*m, {.cpp_namespace = "g"});
  const std::string& h = file(r, "P.hpp");
  EXPECT_NE(h.find("virtual void context(const ::g::in& request, ::g::out& response) = 0;"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("static lather::call_context& context_2() {"), std::string::npos) << h;
  EXPECT_NE(file(r, "names.txt")
                .find("note: PService::context_2() gives the call's context (an operation's "
                      "method is context)"),
            std::string::npos)
      << file(r, "names.txt");
}

// Namespaces urn:t and urn:T and a portType T would be t.hpp, T.hpp and T.hpp: one file on
// macOS and Windows. File names are unique whatever their case, the same from run to run, and
// the port type's header, named first, keeps its name.
TEST(WsdlGenerate, FileNamesDifferWhateverTheirCase) {
  files f;
  const std::string path =
      f.add("case.wsdl", R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
    xmlns:t="urn:t" xmlns:T="urn:T" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t">
 <types>
  <xs:schema targetNamespace="urn:T"><xs:complexType name="x"><xs:sequence>
   <xs:element name="v" type="xs:int"/></xs:sequence></xs:complexType></xs:schema>
  <xs:schema targetNamespace="urn:t" elementFormDefault="qualified">
   <xs:import namespace="urn:T"/>
   <xs:element name="in"><xs:complexType><xs:sequence><xs:element name="x" type="T:x"/>
   </xs:sequence></xs:complexType></xs:element>
   <xs:element name="out"><xs:complexType/></xs:element></xs:schema>
 </types>
 <message name="In"><part name="p" element="t:in"/></message>
 <message name="Out"><part name="p" element="t:out"/></message>
 <portType name="T"><operation name="op"><input message="t:In"/><output message="t:Out"/></operation></portType>
 <binding name="B" type="t:T"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
  <operation name="op"><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
 </binding>
</definitions>)");
  const auto hpp_names = [&] {
    generate_result r = generate_cpp(*load({path}), {.cpp_namespace = "g"});
    std::vector<std::string> names;
    for (const generated_file& g : r.files)
      if (g.name.ends_with(".hpp")) names.push_back(g.name);
    return std::pair(names, file(r, "names.txt"));
  };
  const auto [names, listed] = hpp_names();
  std::set<std::string> folded;
  for (std::string n : names) {
    for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_TRUE(folded.insert(n).second) << "two files named " << n << " but for case";
  }
  EXPECT_GE(names.size(), 4u);  // the two namespaces, the portType, describe.hpp
  int clashes = 0;
  for (const std::string& n : names) clashes += n.find("_2.hpp") != std::string::npos;
  EXPECT_EQ(clashes, 1) << listed;
  EXPECT_EQ(
      std::count_if(names.begin(), names.end(),
                    [](const std::string& n) { return n.find("_3.hpp") != std::string::npos; }),
      1)
      << listed;
  // The header users include keeps the portType's name.
  EXPECT_NE(listed.find("portType {urn:t}T -> g::TClient, TService (T.hpp)"), std::string::npos)
      << listed;
  EXPECT_EQ(hpp_names(), std::pair(names, listed));  // deterministic
}

// names.txt says of a simple-type element made a struct whether it is a body or a header
// element (once each where it is both).
TEST(WsdlGenerate, SimpleTypeBodyAndHeaderElementsAreListedAsWhatTheyAre) {
  files f;
  auto m = load({f.add("s.wsdl", R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
    xmlns:t="urn:t" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t">
 <types><xs:schema targetNamespace="urn:t" elementFormDefault="qualified">
  <xs:element name="in" type="xs:string"/><xs:element name="out" type="xs:int"/>
  <xs:element name="Ticket" type="xs:string"/></xs:schema></types>
 <message name="In"><part name="p" element="t:in"/></message>
 <message name="Out"><part name="p" element="t:out"/></message>
 <message name="H"><part name="ticket" element="t:Ticket"/></message>
 <message name="Both"><part name="in" element="t:in"/></message>
 <portType name="P"><operation name="op"><input message="t:In"/><output message="t:Out"/>
  </operation></portType>
 <binding name="B" type="t:P"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
  <operation name="op"><input><soap:body use="literal"/>
   <soap:header message="t:H" part="ticket" use="literal"/></input>
   <output><soap:body use="literal"/><soap:header message="t:Both" part="in" use="literal"/></output>
  </operation>
 </binding>
</definitions>)")});
  const std::string names = file(generate_cpp(*m, {.cpp_namespace = "g"}), "names.txt");
  for (const char* note :
       {"note: body element {urn:t}in is of a simple type: its message struct holds the text in "
        "`value`",
        "note: body element {urn:t}out is of a simple type: its message struct",
        "note: header element {urn:t}Ticket is of a simple type: its header struct holds the text "
        "in `value`",
        "note: header element {urn:t}in is of a simple type: its header struct"})
    EXPECT_NE(names.find(note), std::string::npos) << note << "\n" << names;
  EXPECT_EQ(names.find("body element {urn:t}Ticket"), std::string::npos) << names;
  EXPECT_EQ(names.find("body element {urn:t}in", names.find("body element {urn:t}in") + 1),
            std::string::npos)
      << names;
}

// As context() does, the classes' other own members (mount_on(), mount_<k>(), the client's
// pointer) give way to an operation of their name, which keeps it; names.txt gives theirs.
TEST(WsdlGenerate, ClassMembersGiveWayToOperations) {
  files f;
  const std::string schema = R"(<xs:element name="in"><xs:complexType/></xs:element>
    <xs:element name="out"><xs:complexType/></xs:element>)";
  struct named {
    std::string op, member, note;
  };
  for (const named& n :
       {named{"mount_on", "void mount_on_2(lather::service& s) {\n    mount_1(s);",
              "note: PService::mount_on_2() mounts the operations (an operation's method is "
              "mount_on)"},
        named{"mount_1", "void mount_on(lather::service& s) {\n    mount_2_1(s);",
              "note: PService::mount_2_<k>() mount the operations of code_<k>.cpp (an "
              "operation's method is mount_<k>)"},
        named{"client_", "lather::client* client_2;",
              "note: PClient::client_2 points to the lather::client (an operation's method is "
              "client_)"}}) {
    std::string wsdl = doc_wsdl(schema);
    for (std::size_t at; (at = wsdl.find("name=\"op\"")) != std::string::npos;)
      wsdl.replace(at, 9, "name=\"" + n.op + "\"");
    auto m = load({f.add(n.op + ".wsdl", wsdl)});
    generate_result r = generate_cpp(*m, {.cpp_namespace = "g"});
    const std::string& h = file(r, "P.hpp");
    EXPECT_NE(h.find("virtual void " + n.op + "(const ::g::in& request, ::g::out& response) = 0;"),
              std::string::npos)
        << h;
    EXPECT_NE(h.find(n.member), std::string::npos) << h;
    EXPECT_NE(file(r, "names.txt").find(n.note), std::string::npos) << file(r, "names.txt");
  }
}

TEST(WsdlGenerate, FaultsThatAreNotTypedAreListed) {
  // A headerfault of a generated struct type gets its class; one of encoded use and a
  // wsdl:fault of a simple type stay soap::fault_error, and names.txt says why.
  files f;
  auto m = load({f.add("h.wsdl", R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
    xmlns:t="urn:t" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t">
 <types><xs:schema targetNamespace="urn:t" elementFormDefault="qualified">
  <xs:element name="in"><xs:complexType/></xs:element><xs:element name="out"><xs:complexType/></xs:element>
  <xs:element name="Ticket"><xs:complexType><xs:sequence><xs:element name="id" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="TicketFault"><xs:complexType><xs:sequence><xs:element name="why" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="Oops" type="xs:string"/></xs:schema></types>
 <message name="In"><part name="p" element="t:in"/></message>
 <message name="Out"><part name="p" element="t:out"/></message>
 <message name="H"><part name="ticket" element="t:Ticket"/></message>
 <message name="HF"><part name="f" element="t:TicketFault"/></message>
 <message name="Oops"><part name="f" element="t:Oops"/></message>
 <portType name="P"><operation name="op"><input message="t:In"/><output message="t:Out"/>
  <fault name="Oops" message="t:Oops"/></operation></portType>
 <binding name="B" type="t:P"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
  <operation name="op"><input><soap:body use="literal"/>
   <soap:header message="t:H" part="ticket" use="literal">
    <soap:headerfault message="t:HF" part="f" use="literal"/>
    <soap:headerfault message="t:HF" part="f" use="encoded"/>
   </soap:header></input>
   <output><soap:body use="literal"/></output>
   <fault name="Oops"><soap:fault name="Oops" use="literal"/></fault></operation>
 </binding>
</definitions>)")});
  generate_result r = generate_cpp(*m, {.cpp_namespace = "g"});
  const std::string& names = file(r, "names.txt");
  EXPECT_NE(names.find("header fault {urn:t}TicketFault -> g::TicketFault_header_fault"),
            std::string::npos)
      << names;
  EXPECT_NE(names.find("note: P.op: the headerfault part f of request header part ticket is not "
                       "typed"),
            std::string::npos)
      << names;
  EXPECT_NE(names.find("note: P.op: fault Oops is not typed (the detail element {urn:t}Oops is "
                       "not of a generated struct type): it stays a soap::fault_error"),
            std::string::npos)
      << names;
  const std::string& faults = file(r, "faults.hpp");
  EXPECT_NE(faults.find("class TicketFault_header_fault : public "
                        "lather::soap::header_fault_of<::g::TicketFault>"),
            std::string::npos)
      << faults;
  EXPECT_EQ(faults.find("Oops"), std::string::npos) << faults;
  // Its destructor (its vtable's key function) and the constructor the proxy throws it with
  // are defined once, in a code file; the service's constructor stays inline.
  EXPECT_NE(faults.find("  ~TicketFault_header_fault() override;\n"), std::string::npos) << faults;
  EXPECT_NE(faults.find(", code) {}\n"), std::string::npos) << faults;
  std::string code;
  for (const generated_file& g : r.files)
    if (g.name.starts_with("code")) code += g.text;
  for (const char* member :
       {"TicketFault_header_fault::~TicketFault_header_fault() = default;\n",
        "TicketFault_header_fault::TicketFault_header_fault(lather::soap::fault received, "}) {
    EXPECT_NE(code.find(member), std::string::npos) << member << "\n" << code;
    EXPECT_EQ(code.find(member), code.rfind(member)) << member;
  }
}

// XSD: a wildcard's ##targetNamespace and ##other name the target namespace of the schema
// document it is written in. From an attributeGroup or group of another schema
// (data/wildcards.wsdl: urn:lather:wildcards:ext's Stamps, Foreign, Own and Others in types of
// urn:lather:wildcards), that is the other schema's, which the binding is told with
// .in_namespace(); a wildcard of the type's own schema keeps its constraint alone.
TEST(WsdlGenerate, AWildcardOfAnotherSchemaNamesThatSchemasNamespace) {
  auto m = load({std::string(lather::test::source_dir) + "/tests/wsdl/data/wildcards.wsdl"});
  generate_result r = generate_cpp(*m, {.cpp_namespace = "g", .mock = true});
  EXPECT_TRUE(r.skipped.empty()) << r.skipped.front();
  const std::string t = tables(r);
  constexpr std::string_view ext = R"(.in_namespace("urn:lather:wildcards:ext"))";
  for (const std::string& want :
       {"offsetof(::g::Stamped, any))" + std::string(ext) + R"(.namespaces("##targetNamespace"))",
        "offsetof(::g::Stamped, anyAttribute))" + std::string(ext) +
            R"(.namespaces("##targetNamespace"))",
        "offsetof(::g::Visiting, any))" + std::string(ext) + R"(.namespaces("##other"))",
        "offsetof(::g::Visiting, anyAttribute))" + std::string(ext) + R"(.namespaces("##other"))",
        std::string(R"(offsetof(::g::Tagged, anyAttribute)).namespaces("##other"))"),
        std::string(
            R"(offsetof(::g::Money, anyAttribute)).namespaces("urn:x ##targetNamespace"))")})
    EXPECT_NE(t.find(want), std::string::npos) << want << "\n" << t;
  // Only those four: the wildcards of the type's own schema are as they were.
  std::size_t count = 0;
  for (std::size_t at = t.find(ext); at != std::string::npos; at = t.find(ext, at + 1)) ++count;
  EXPECT_EQ(count, 4u) << t;
  const std::string& names = file(r, "names.txt");
  EXPECT_NE(
      names.find(
          R"(member Stamped::anyAttribute <- anyAttribute namespace="##targetNamespace" of schema urn:lather:wildcards:ext)"),
      std::string::npos)
      << names;
  // The mock's sample element for Own's ##targetNamespace is in the group's namespace.
  std::string mock;
  for (const generated_file& f : r.files)
    if (f.name.starts_with("mock_")) mock += f.text;
  EXPECT_NE(mock.find(R"(<s:sample xmlns:s=\"urn:lather:wildcards:ext\"/>)"), std::string::npos)
      << mock;
}

TEST(WsdlGenerate, MockSamplesAndServer) {
  files f;
  auto m = load({f.add("g.wsdl", doc_wsdl(R"(
  <xs:simpleType name="Code"><xs:restriction base="xs:string"><xs:pattern value="[A-Z]{2}-[0-9]"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Mode"><xs:restriction base="xs:string"><xs:enumeration value="on"/></xs:restriction></xs:simpleType>
  <xs:element name="in"><xs:complexType><xs:sequence>
   <xs:element name="code" type="t:Code"/>
   <xs:element name="mode" type="t:Mode"/>
   <xs:element name="opt" type="xs:int" minOccurs="0"/>
   <xs:element name="maybe" type="xs:int" minOccurs="0" nillable="true"/>
   <xs:element name="items" type="xs:int" maxOccurs="unbounded"/>
   <xs:element name="kids" type="t:Kid" minOccurs="0" maxOccurs="unbounded"/>
   <xs:element name="fixed" type="xs:string" fixed="F"/>
   <xs:element name="ext" type="t:Ext"/>
  </xs:sequence><xs:attribute name="n" type="xs:int" use="required"/></xs:complexType></xs:element>
  <xs:complexType name="Ext"><xs:sequence><xs:any namespace="##other" processContents="strict" minOccurs="0" maxOccurs="unbounded"/></xs:sequence></xs:complexType>
  <xs:complexType name="Kid"><xs:sequence><xs:element name="kid" type="t:Kid" minOccurs="0" maxOccurs="unbounded"/></xs:sequence></xs:complexType>
  <xs:element name="out"><xs:complexType><xs:sequence><xs:any namespace="##other" processContents="lax"/></xs:sequence></xs:complexType></xs:element>)"))});
  generate_result r = generate_cpp(*m, {.cpp_namespace = "g", .mock = true});
  const std::string& samples = file(r, "mock_1.cpp");
  for (const char* want : {
           "text(v.code, \"AA-0\");",  // from the pattern
           "text(v.fixed, \"F\");",
           "v.items.resize(1); for (auto&& x : v.items) { text(x, \"0\"); }",
           // optional repetitions only near the root: Kid recurses through kid
           "if (depth < 3) { v.kids.resize(1); for (auto&& x : v.kids) { sample(x, depth + 1); } }",
           "text(v.n, \"0\");",
           "x.xml = \"<s:sample xmlns:s=\\\"urn:lather:sample\\\"/>\";",
       })
    EXPECT_NE(samples.find(want), std::string::npos) << want << "\n" << samples;
  EXPECT_EQ(samples.find("v.opt"), std::string::npos) << "optional members stay empty";
  EXPECT_EQ(samples.find("v.maybe"), std::string::npos) << "optional members stay empty";
  // No declared element fits the strict wildcard of Ext (UDDI's businessEntityExt): none.
  EXPECT_EQ(samples.find("v.any.resize"), std::string::npos) << samples;
  EXPECT_EQ(samples.find("v.mode"), std::string::npos) << "an enum's first value is its default";
  const std::string& server = file(r, "mock_server.cpp");
  for (const char* want : {
           "write_envelope(dir / \"P.op.req.xml\", lather::soap::version::soap11, "
           "lather::soap::style::document_wrapped, \"urn:t\", \"in\",\n"
           "                   lather::message_type_of<::g::in>(), &sample_into<::g::in>);",
           "write_envelope(dir / \"P.rpcOp.req.xml\", lather::soap::version::soap11, "
           "lather::soap::style::rpc_literal, \"urn:t\", \"rpcOp\",\n"
           "                   lather::message_type_of<::g::rpcOp>(), &sample_into<::g::rpcOp>);",
           "write_envelope(dir / \"P.op.res.xml\"",
           "srv.mount(\"/\", *services.back());",  // a binding without a port: at "/"
           "std::printf(\"serving %s\\n\", \"/\");",
       })
    EXPECT_NE(server.find(want), std::string::npos) << want << "\n" << server;
  EXPECT_NE(file(r, "CMakeLists.txt").find("OUTPUT_NAME mock-server"), std::string::npos);
}

TEST(WsdlGenerate, NoDefaultedEqualityOverAStructWithoutOne) {
  files f;
  auto m = load({f.add("g.wsdl", doc_wsdl(R"(
  <xs:complexType name="Fault"><xs:sequence><xs:element name="cause" type="t:Cause" minOccurs="0"/></xs:sequence></xs:complexType>
  <xs:complexType name="Cause"><xs:sequence><xs:element name="fault" type="t:Fault"/></xs:sequence></xs:complexType>
  <xs:element name="in"><xs:complexType><xs:sequence><xs:element name="c" type="t:Cause"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="out"><xs:complexType/></xs:element>)"))});
  generate_result r = generate_cpp(*m, {.cpp_namespace = "g"});
  const std::string& h = file(r, "t.hpp");
  // Fault boxes its Cause to break the recursion, so it has no operator==; the structs that
  // hold a Fault by value would get a deleted one (clang warns), so they have none either.
  EXPECT_NE(h.find("std::shared_ptr<::g::Cause> cause"), std::string::npos) << h;
  for (const char* type : {"Fault", "Cause", "in"})
    EXPECT_EQ(h.find(std::string("operator==(const ") + type + "&"), std::string::npos)
        << type << "\n"
        << h;
  EXPECT_NE(h.find("operator==(const out&"), std::string::npos) << h;
}

TEST(WsdlGenerate, PolymorphismMixedContentAndWidenedChoices) {
  files f;
  auto m = load({f.add("g.wsdl", doc_wsdl(R"(
  <xs:complexType name="A" abstract="true"><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType>
  <xs:complexType name="B"><xs:complexContent><xs:extension base="t:A"><xs:sequence><xs:element name="b" type="xs:string"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
  <xs:element name="in"><xs:complexType><xs:sequence>
   <xs:element name="a" type="t:A"/>
   <xs:element name="as" type="t:A" minOccurs="0" maxOccurs="unbounded"/>
   <xs:element name="mixed"><xs:complexType mixed="true"><xs:sequence><xs:any minOccurs="0"/></xs:sequence><xs:attribute name="Dialect" type="xs:anyURI" use="required"/></xs:complexType></xs:element>
   <xs:choice><xs:element name="x" type="xs:int" maxOccurs="unbounded"/><xs:element name="y" type="xs:int" minOccurs="0"/></xs:choice>
  </xs:sequence></xs:complexType></xs:element>
  <xs:element name="out"><xs:complexType/></xs:element>)"))});
  generate_result r = generate_cpp(*m, {.cpp_namespace = "g", .mock = true});
  const std::string& h = file(r, "t.hpp");
  for (const char* want : {
           "std::shared_ptr<::g::A> a{};",
           "std::vector<std::shared_ptr<::g::A>> as{};",
           "virtual ~A() = default;",  // the dynamic type of an A& names the xsi:type
           "using derived = lather::types<::g::B>;",
           "static constexpr bool abstract = true;",  // A's meta: no element of type A
           "lather::bind::any_type mixed{};",
           // an optional and a repeated alternative: a repeated choice; both int, by position
           "std::vector<std::variant<std::int32_t, std::int32_t>> xOry{};",
       })
    EXPECT_NE(h.find(want), std::string::npos) << want << "\n" << h;
  EXPECT_NE(tables(r).find("\"a\", offsetof(::g::in, a)).min(1)"), std::string::npos);
  const std::string& samples = file(r, "mock_1.cpp");
  for (const char* want : {
           "v.a = std::make_shared<::g::B>(); sample(static_cast<::g::B&>(*v.a), depth + 1);",
           "v.mixed.xml = \"<x Dialect=\\\"http://example.com/\\\"/>\";",
       })
    EXPECT_NE(samples.find(want), std::string::npos) << want << "\n" << samples;
  EXPECT_NE(file(r, "names.txt").find("has a repeated alternative"), std::string::npos);
}

TEST(WsdlGenerate, OperationsSelectWhatTheyReach) {
  files f;
  auto m = load({f.add("g.wsdl", doc_wsdl(R"(
  <xs:complexType name="Used"><xs:sequence><xs:element name="u" type="xs:int"/></xs:sequence></xs:complexType>
  <xs:complexType name="Unused"><xs:sequence><xs:element name="n" type="xs:int"/></xs:sequence></xs:complexType>
  <xs:element name="in"><xs:complexType><xs:sequence><xs:element name="a" type="t:Used"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="out"><xs:complexType/></xs:element>
  <xs:element name="other"><xs:complexType><xs:sequence><xs:element name="b" type="t:Unused"/></xs:sequence></xs:complexType></xs:element>)"))});
  for (const char* selector : {"op", "P.op"}) {
    generate_result r =
        generate_cpp(*m, {.cpp_namespace = "g", .mock = true, .operations = {selector}});
    const std::string& types = file(r, "t.hpp");
    EXPECT_NE(types.find("struct Used {"), std::string::npos) << types;
    EXPECT_EQ(types.find("Unused"), std::string::npos) << "not reached by op\n" << types;
    EXPECT_EQ(types.find("struct rpcOp"), std::string::npos) << "rpcOp is not selected";
    const std::string& proxy = file(r, "P.hpp");
    EXPECT_NE(proxy.find(" op(const ::g::in& request"), std::string::npos) << proxy;
    EXPECT_EQ(proxy.find("rpcOp"), std::string::npos) << proxy;
    EXPECT_EQ(file(r, "mock_server.cpp").find("P.rpcOp"), std::string::npos);
    EXPECT_TRUE(r.skipped.empty());
  }
  generate_result both = generate_cpp(*m, {.cpp_namespace = "g", .operations = {"op", "rpcOp"}});
  EXPECT_NE(file(both, "P.hpp").find("rpcOp(const ::g::rpcOp& request"), std::string::npos);
  std::string e = error_of([&] { generate_cpp(*m, {.operations = {"op", "Q.op", "nope"}}); });
  EXPECT_NE(e.find("\"Q.op\", \"nope\""), std::string::npos) << e;
  EXPECT_EQ(e.find("\"op\""), std::string::npos) << e;
}

// WS-Security (wsse, wsu) and WS-Policy (1.5, 1.2) imported by their official schema
// locations resolve offline to the schemas lather ships (data/schemas), and generate.
TEST(WsdlGenerate, StandardSecurityAndPolicySchemasResolveOffline) {
  auto m = load({std::string(lather::test::source_dir) + "/tests/wsdl/data/standard.wsdl"});
  for (const char* shipped :
       {"wss-secext-1.0.xsd", "wss-utility-1.0.xsd", "ws-policy-1.5.xsd", "ws-policy-1.2.xsd"})
    EXPECT_NE(
        std::find(m->files().begin(), m->files().end(), std::string("lather:standard/") + shipped),
        m->files().end())
        << shipped;
  const std::string wsse =
      "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";
  const std::string wsu =
      "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
  for (const char* e :
       {"Security", "UsernameToken", "BinarySecurityToken", "SecurityTokenReference", "Password",
        "Nonce", "KeyIdentifier", "Reference"})
    EXPECT_NE(m->find_element({wsse, e}), nullptr) << e;
  for (const char* e : {"Timestamp", "Created", "Expires"})
    EXPECT_NE(m->find_element({wsu, e}), nullptr) << e;
  for (const char* ns :
       {"http://www.w3.org/ns/ws-policy", "http://schemas.xmlsoap.org/ws/2004/09/policy"})
    for (const char* e : {"Policy", "All", "ExactlyOne", "PolicyReference", "PolicyAttachment"})
      EXPECT_NE(m->find_element({ns, e}), nullptr) << ns << " " << e;

  generate_result r = generate_cpp(*m, {.cpp_namespace = "standard"});
  EXPECT_TRUE(r.skipped.empty());
  const std::string& names = file(r, "names.txt");
  for (const std::string& listed :
       {"complexType {" + wsse + "}SecurityHeaderType",
        "complexType {" + wsse + "}UsernameTokenType", "complexType {" + wsu + "}TimestampType",
        std::string("complexType {http://www.w3.org/ns/ws-policy}OperatorContentType"),
        std::string(
            "complexType {http://schemas.xmlsoap.org/ws/2004/09/policy}OperatorContentType"),
        std::string("Publisher.Publish request headers")})
    EXPECT_NE(names.find(listed), std::string::npos) << listed << "\n" << names;
}

// A polymorphic<B> member pulls in every named type extending B, transitively, though no
// operation reaches them (a client makes and sends them); --operations keeps only what its
// operations reach, hierarchies included; an anonymous derived type stays its element's.
TEST(WsdlGenerate, AHolderPullsInItsBaseHierarchy) {
  files f;
  auto m = load({f.add("g.wsdl", doc_wsdl(R"(
  <xs:complexType name="Dev"><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType>
  <xs:complexType name="Disk"><xs:complexContent><xs:extension base="t:Dev"><xs:sequence>
   <xs:element name="media" type="t:Media"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
  <xs:complexType name="Flash"><xs:complexContent><xs:extension base="t:Disk"><xs:sequence>
   <xs:element name="part" type="t:Part"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
  <xs:complexType name="Media"><xs:sequence><xs:element name="kind" type="xs:string"/></xs:sequence></xs:complexType>
  <xs:complexType name="Part"><xs:sequence><xs:element name="n" type="xs:int"/></xs:sequence></xs:complexType>
  <xs:complexType name="Chip"><xs:complexContent><xs:extension base="t:Part"><xs:sequence>
   <xs:element name="nm" type="xs:int"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
  <xs:element name="special"><xs:complexType><xs:complexContent><xs:extension base="t:Dev"><xs:sequence>
   <xs:element name="s" type="xs:int"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType></xs:element>
  <xs:element name="in"><xs:complexType><xs:sequence><xs:element name="dev" type="t:Dev"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="out"><xs:complexType/></xs:element>)"))});
  const generate_result all = generate_cpp(*m, {.cpp_namespace = "g", .mock = true});
  const std::string& h = file(all, "t.hpp");
  for (const char* want : {
           "lather::polymorphic<::g::Dev> dev{};",
           "struct Disk : ::g::Dev {",  // reached by no operation
           "struct Flash : ::g::Disk {",
           "struct Media {",                          // a member type of Disk's only
           "lather::polymorphic<::g::Part> part{};",  // Flash's member: its hierarchy too
           "struct Chip : ::g::Part {",
           "using derived = lather::types<::g::Disk>;",   // meta<Dev>
           "using derived = lather::types<::g::Flash>;",  // meta<Disk>
           "using derived = lather::types<::g::Chip>;",   // meta<Part>
       })
    EXPECT_NE(h.find(want), std::string::npos) << want << "\n" << h;
  EXPECT_EQ(h.find("special"), std::string::npos) << "anonymous, its element unreached\n" << h;
  // Deterministic: the same contract gives the same files.
  const generate_result again = generate_cpp(*m, {.cpp_namespace = "g", .mock = true});
  ASSERT_EQ(again.files.size(), all.files.size());
  for (std::size_t i = 0; i < all.files.size(); ++i)
    EXPECT_EQ(again.files[i].text, all.files[i].text) << all.files[i].name;

  const generate_result op = generate_cpp(*m, {.cpp_namespace = "g", .operations = {"op"}});
  const std::string& oh = file(op, "t.hpp");
  for (const char* want :
       {"struct Disk : ::g::Dev {", "struct Flash : ::g::Disk {", "struct Chip : ::g::Part {"})
    EXPECT_NE(oh.find(want), std::string::npos) << want << "\n" << oh;
  const generate_result rpc = generate_cpp(*m, {.cpp_namespace = "g", .operations = {"rpcOp"}});
  const std::string& rh = file(rpc, "t.hpp");
  for (const char* type : {"Dev", "Disk", "Flash", "Media", "Part", "Chip"})
    EXPECT_EQ(rh.find(std::string("struct ") + type + " "), std::string::npos) << type << "\n"
                                                                               << rh;
}

// SOAP encoding reads every value as its declared type: a member of a type with derived types
// in an rpc/encoded message is held by value, and its derived types are not generated.
TEST(WsdlGenerate, AnEncodedMemberPullsInNoHierarchy) {
  files f;
  auto m = load({f.add("e.wsdl", R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
    xmlns:t="urn:t" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t">
 <types><xs:schema targetNamespace="urn:t">
  <xs:complexType name="Enc"><xs:sequence><xs:element name="d" type="t:Cell"/></xs:sequence></xs:complexType>
  <xs:complexType name="Cell"><xs:sequence><xs:element name="v" type="xs:int"/></xs:sequence></xs:complexType>
  <xs:complexType name="Lithium"><xs:complexContent><xs:extension base="t:Cell"><xs:sequence>
   <xs:element name="mah" type="xs:int"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
 </xs:schema></types>
 <message name="E"><part name="e" type="t:Enc"/></message>
 <portType name="P"><operation name="enc"><input message="t:E"/><output message="t:E"/></operation></portType>
 <binding name="B" type="t:P"><soap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>
  <operation name="enc"><input><soap:body use="encoded" namespace="urn:t" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></input>
   <output><soap:body use="encoded" namespace="urn:t" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></output></operation>
 </binding>
</definitions>)")});
  const generate_result r = generate_cpp(*m, {.cpp_namespace = "g"});
  const std::string& h = file(r, "t.hpp");
  EXPECT_NE(h.find("struct Enc {\n  ::g::Cell d{};"), std::string::npos) << h;
  EXPECT_EQ(h.find("Lithium"), std::string::npos) << h;
}

TEST(WsdlGenerate, SplitsTheCodeIntoTranslationUnits) {
  files f;
  auto m = load({f.add("g.wsdl", doc_wsdl(R"(
  <xs:complexType name="A"><xs:sequence><xs:element name="b" type="t:B" maxOccurs="unbounded"/></xs:sequence></xs:complexType>
  <xs:complexType name="B"><xs:sequence><xs:element name="v" type="xs:int"/></xs:sequence></xs:complexType>
  <xs:element name="in"><xs:complexType><xs:sequence><xs:element name="a" type="t:A"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="out"><xs:complexType/></xs:element>)"))});
  generate_result r = generate_cpp(*m, {.cpp_namespace = "g", .mock = true, .sources = 2});
  EXPECT_EQ(r.files.size(), generate_cpp(*m, {.cpp_namespace = "g", .mock = true}).files.size() + 6)
      << "code_2.cpp, mock_2.cpp, P.decl.hpp and t.hpp's three parts";
  // t.hpp's types in parts by the files that need them: B, A and in (op's request) for
  // code_1.cpp, which binds them and defines op; out (op's response, bound in code_2.cpp) for
  // both; the rpc messages for code_2.cpp. t.hpp includes them all, a file only its own.
  EXPECT_EQ(file(r, "t.hpp").find("struct"), std::string::npos);
  std::string types;
  for (const char* part : {"t.part1.hpp", "t.part2.hpp", "t.part3.hpp"}) {
    EXPECT_NE(file(r, "t.hpp").find("#include \"" + std::string(part) + "\""), std::string::npos)
        << part;
    types += file(r, part);
  }
  EXPECT_NE(file(r, "t.part1.hpp").find("struct A {"), std::string::npos);
  EXPECT_NE(file(r, "t.part2.hpp").find("struct out {"), std::string::npos);
  EXPECT_NE(file(r, "t.part3.hpp").find("struct rpcOp {"), std::string::npos);
  // Each part declares every struct of t.hpp (a member may name one defined later).
  for (const char* part : {"t.part1.hpp", "t.part2.hpp", "t.part3.hpp"})
    EXPECT_NE(file(r, part).find("struct in;\nstruct A;\nstruct B;\nstruct out;\nstruct rpcOp;\n"),
              std::string::npos)
        << part;
  for (const auto& [source, own, other] :
       {std::tuple("code_1.cpp", "t.part1.hpp", "t.part3.hpp"),
        std::tuple("code_2.cpp", "t.part3.hpp", "t.part1.hpp")}) {
    const std::string& code = file(r, source);
    EXPECT_NE(code.find("#include \"" + std::string(own) + "\""), std::string::npos) << code;
    EXPECT_NE(code.find("#include \"t.part2.hpp\""), std::string::npos) << code;
    EXPECT_EQ(code.find("#include \"" + std::string(other) + "\""), std::string::npos) << code;
    EXPECT_EQ(code.find("#include \"t.hpp\""), std::string::npos) << code;
  }
  // Each struct's table binding is declared beside its meta<T> and defined in exactly one
  // code_<k>.cpp (LATHER_BIND_TABLE_DEFINE_VIEW(fields_<n>, T), over the file's views), in
  // dependency order (B before A, whose vector names it).
  const std::string all = file(r, "code_1.cpp") + file(r, "code_2.cpp");
  const auto definitions = [&](const std::string& name) {
    int n = 0;
    std::istringstream lines(all);
    for (std::string line; std::getline(lines, line);)
      n += line.starts_with("LATHER_BIND_TABLE_DEFINE_VIEW(") && line.ends_with(", " + name + ")");
    return n;
  };
  for (const char* type : {"::g::A", "::g::B", "::g::in", "::g::out", "::g::rpcOp"}) {
    const std::string name(type);
    EXPECT_NE(types.find("LATHER_BIND_TABLE(" + name + ");"), std::string::npos) << name;
    EXPECT_EQ(definitions(name), 1) << name << "\n" << all;
  }
  EXPECT_LT(types.find("struct B {"), types.find("struct A {"));
  EXPECT_NE(types.find("std::vector<::g::B> b{};"), std::string::npos) << types;
  // The table describes the struct for a service's WSDL too: no template describes it.
  EXPECT_EQ(all.find("wsdl_builder::type_of<::g::A>"), std::string::npos) << all;
  EXPECT_EQ(file(r, "describe.hpp").find("wsdl_builder::type_of<::g::A>"), std::string::npos);
  // The port type's classes only declare; its two operations are defined one per file. The
  // files include the classes' header, which declares the messages, not the one a program
  // includes, which defines the methods returning them.
  const std::string& header = file(r, "P.decl.hpp");
  EXPECT_EQ(header.find("client_->call"), std::string::npos) << header;
  EXPECT_NE(header.find("mount_1(s);\n    mount_2(s);"), std::string::npos) << header;
  EXPECT_EQ(header.find("#include \"t.hpp\""), std::string::npos) << header;
  EXPECT_NE(header.find("  ::g::out op(const ::g::in& request);\n"), std::string::npos) << header;
  const std::string& program = file(r, "P.hpp");
  EXPECT_NE(program.find("#include \"P.decl.hpp\"\n#include \"t.hpp\"\n"), std::string::npos)
      << program;
  EXPECT_NE(program.find("inline ::g::out PClient::op(const ::g::in& request) {"),
            std::string::npos)
      << program;
  EXPECT_NE(file(r, "code_1.cpp")
                .find("void PClient::op(const ::g::in& request, "
                      "::g::out& response, lather::call_options o) {"),
            std::string::npos);
  EXPECT_NE(file(r, "code_2.cpp").find("void PService::mount_2(lather::service& s) {"),
            std::string::npos);
  const std::string& cmake = file(r, "CMakeLists.txt");
  for (const char* source :
       {"code_1.cpp", "code_2.cpp", "mock_1.cpp", "mock_2.cpp", "mock_server.cpp"})
    EXPECT_NE(cmake.find(std::string("\n    ") + source), std::string::npos) << source;
  // A unit parses the headers once for both shares: each #include once, and the operations
  // before the tables, whose using-directive would reach the code after it.
  for (const char* source : {"code_1.cpp", "code_2.cpp"}) {
    const std::string& code = file(r, source);
    const std::size_t describe = code.find("#include \"describe.hpp\"\n");
    EXPECT_NE(describe, std::string::npos) << code;
    EXPECT_EQ(code.find("#include \"describe.hpp\"\n", describe + 1), std::string::npos) << code;
    const std::size_t tables = code.find("LATHER_BIND_TABLE_FILE();");
    EXPECT_NE(tables, std::string::npos) << code;
    EXPECT_LT(code.find("lather_gen::mount(s, this, ops);"), tables) << code;
  }
}

// The structs with a lather::polymorphic<B> member of one B share a code file, wherever the
// dependency order puts them: each file binding such a member compiles a reader and a writer
// per type of B's hierarchy, so the hierarchy is compiled once.
TEST(WsdlGenerate, TheHoldersOfOneBaseShareACodeFile) {
  files f;
  std::string fillers, members;
  for (int i = 1; i <= 6; ++i) {
    const std::string n = std::to_string(i);
    fillers += "<xs:complexType name=\"F" + n +
               "\"><xs:sequence><xs:element name=\"v\" type=\"xs:int\"/></xs:sequence>"
               "</xs:complexType>\n";
    members += "<xs:element name=\"f" + n + "\" type=\"t:F" + n + "\"/>";
  }
  auto m = load({f.add("g.wsdl", doc_wsdl(R"(
  <xs:complexType name="Dev"><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType>
  <xs:complexType name="Disk"><xs:complexContent><xs:extension base="t:Dev"><xs:sequence>
   <xs:element name="gb" type="xs:int"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
  <xs:complexType name="H1"><xs:sequence><xs:element name="dev" type="t:Dev"/></xs:sequence></xs:complexType>
  <xs:complexType name="H2"><xs:sequence><xs:element name="devs" type="t:Dev" maxOccurs="unbounded"/></xs:sequence></xs:complexType>
  )" + fillers + R"(
  <xs:element name="in"><xs:complexType><xs:sequence><xs:element name="a" type="t:H1"/>)" +
                                          members + R"(<xs:element name="z" type="t:H2"/>
  </xs:sequence></xs:complexType></xs:element>
  <xs:element name="out"><xs:complexType/></xs:element>)"))});
  const generate_result r = generate_cpp(*m, {.cpp_namespace = "g", .sources = 3});
  std::string holders, all;
  for (const char* code : {"code_1.cpp", "code_2.cpp", "code_3.cpp"}) {
    const std::string& c = file(r, code);
    all += c;
    if (c.find(", ::g::H1)\n") != std::string::npos) holders = c;
  }
  EXPECT_NE(holders.find("LATHER_BIND_TABLE_DEFINE_VIEW(fields_"), std::string::npos) << all;
  EXPECT_NE(holders.find(", ::g::H2)\n"), std::string::npos) << all;
  EXPECT_EQ(all.find("lather_shared::element<std::vector<lather::polymorphic<"), std::string::npos);
  EXPECT_EQ(holders.find(", ::g::F3)\n"), std::string::npos) << "the others split evenly\n" << all;
  // Dev's hierarchy (destroying, reading and writing a holder's object as its type) is
  // compiled in that file alone, declared extern before any struct can hold a Dev.
  const std::string instantiate = "\nLATHER_BIND_POLYMORPHIC_INSTANTIATE(::g::Dev);\n";
  EXPECT_NE(holders.find(instantiate), std::string::npos) << holders;
  EXPECT_EQ(all.find(instantiate), all.rfind(instantiate)) << all;
  std::size_t externs = 0;
  for (const generated_file& h : r.files)
    if (const std::size_t at = h.text.find("\nLATHER_BIND_POLYMORPHIC_EXTERN(::g::Dev);\n");
        at != std::string::npos) {
      ++externs;
      EXPECT_LT(at, h.text.find("\nstruct Dev {")) << h.text;
      EXPECT_NE(h.text.find("#include \"lather/bind/polymorphic.hpp\"\n"), std::string::npos);
    }
  EXPECT_EQ(externs, 1u);
}

TEST(WsdlGenerate, SharesTheCodecOfAMemberTypeTwoFilesName) {
  files f;
  auto m = load({f.add("g.wsdl", doc_wsdl(R"(
  <xs:complexType name="B"><xs:sequence><xs:element name="v" type="xs:int"/></xs:sequence></xs:complexType>
  <xs:complexType name="C"><xs:sequence><xs:element name="w" type="xs:int"/></xs:sequence></xs:complexType>
  <xs:element name="in"><xs:complexType><xs:sequence><xs:element name="b" type="t:B"/><xs:element name="c" type="t:C"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="out"><xs:complexType><xs:sequence><xs:element name="b" type="t:B"/></xs:sequence></xs:complexType></xs:element>)"))});
  // in's table is in code_1.cpp, out's in code_2.cpp: both name B, only in names C.
  generate_result r = generate_cpp(*m, {.cpp_namespace = "g", .sources = 2});
  const std::string& one = file(r, "code_1.cpp");
  const std::string& two = file(r, "code_2.cpp");
  for (const std::string* code : {&one, &two}) {
    EXPECT_NE(code->find("LATHER_BIND_TABLE_FILE();\n// Member types the tables of other code "
                         "files name too: their codecs shared, one copy in the program.\n"
                         "namespace lather_shared = ::lather::bind::table;\n"),
              std::string::npos)
        << *code;
  }
  EXPECT_NE(one.find("    lather_shared::element<::g::B>(\"urn:t\", \"b\", offsetof(::g::in, b)),\n"
                     "    element<::g::C>(\"urn:t\", \"c\", offsetof(::g::in, c)));"),
            std::string::npos)
      << one;
  EXPECT_NE(
      two.find("    lather_shared::element<::g::B>(\"urn:t\", \"b\", offsetof(::g::out, b)));"),
      std::string::npos)
      << two;
  // Member types of built-in types are the library's codecs: never named as shared.
  EXPECT_EQ(two.find("lather_shared::element<std::int32_t>"), std::string::npos) << two;
  // One file: nothing to share.
  EXPECT_EQ(tables(generate_cpp(*m, {.cpp_namespace = "g"})).find("lather_shared"),
            std::string::npos);
}

TEST(WsdlGenerate, DefinesMessageTablesAndEnumDescriptionsOnce) {
  files f;
  auto m = load({f.add("g.wsdl", doc_wsdl(R"(
  <xs:simpleType name="E"><xs:restriction base="xs:string"><xs:enumeration value="a"/><xs:enumeration value="b"/></xs:restriction></xs:simpleType>
  <xs:element name="in"><xs:complexType><xs:sequence><xs:element name="e" type="t:E"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="out"><xs:complexType/></xs:element>)"))});
  generate_result r = generate_cpp(*m, {.cpp_namespace = "g", .sources = 2});
  std::string types;
  for (const generated_file& g : r.files)
    if (g.name.starts_with("t.")) types += g.text;
  const std::string all = file(r, "code_1.cpp") + file(r, "code_2.cpp");
  // Each message's table: declared beside its type (and in describe.hpp, for the files that
  // name it without its definition), defined in one code file with internal-linkage parts;
  // without move_construct for a type the code never moves (a response).
  for (const char* type : {"::g::in", "::g::out", "::g::rpcOp"}) {
    const std::string declare = "LATHER_MESSAGE_TYPE_DECLARE(" + std::string(type) + ");\n";
    // (its entry in the file's array, lather_messages[<i>])
    const std::string define = "], " + std::string(type) + ");\n";
    const bool moved = std::string_view(type) != "::g::out";
    const std::string entry = std::string(moved ? "    LATHER_MESSAGE_TYPE_ENTRY("
                                                : "    LATHER_MESSAGE_TYPE_ENTRY_UNMOVED(") +
                              type + "),\n";
    EXPECT_EQ(all.find(std::string(moved ? "    LATHER_MESSAGE_TYPE_ENTRY_UNMOVED("
                                         : "    LATHER_MESSAGE_TYPE_ENTRY(") +
                       type + "),\n"),
              std::string::npos)
        << type;
    EXPECT_NE(types.find(declare), std::string::npos) << types;
    EXPECT_NE(file(r, "describe.hpp").find(declare), std::string::npos) << type;
    EXPECT_NE(all.find(define), std::string::npos) << all;
    EXPECT_EQ(all.find(define), all.rfind(define)) << type;
    EXPECT_NE(all.find(entry), std::string::npos) << all;
    EXPECT_EQ(all.find(entry), all.rfind(entry)) << type;
  }
  EXPECT_EQ(all.find("LATHER_MESSAGE_TYPE_INSTANTIATE"), std::string::npos) << all;
  // An enumeration's description: declared beside its meta<E>, defined in code_1.cpp.
  EXPECT_NE(types.find("LATHER_BIND_ENUM(::g::E);\n"), std::string::npos) << types;
  EXPECT_NE(file(r, "code_1.cpp").find("LATHER_BIND_ENUM_DEFINE(::g::E);\n"), std::string::npos);
  EXPECT_EQ(file(r, "code_2.cpp").find("LATHER_BIND_ENUM_DEFINE"), std::string::npos);
}
}  // namespace

// An XSD default or fixed value is the member's initializer: the value the binding reads from
// the default's text (an absent minOccurs="0" element, an empty element, an absent
// attribute), so a value never set is written as the default. Types lather gives no value
// from the text alone (QName) and texts the type refuses keep T{}.
TEST(WsdlGenerate, DefaultAndFixedValuesInitializeTheMembers) {
  files f;
  const generate_result r = generate(f, R"(
  <xs:simpleType name="Colour"><xs:restriction base="xs:string"><xs:enumeration value="red"/>
   <xs:enumeration value="green"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Tiny"><xs:restriction base="xs:unsignedByte"><xs:maxExclusive value="10"/>
  </xs:restriction></xs:simpleType>
  <xs:simpleType name="Ints"><xs:list itemType="xs:int"/></xs:simpleType>
  <xs:simpleType name="Either"><xs:union memberTypes="xs:int xs:boolean"/></xs:simpleType>
  <xs:element name="in"><xs:complexType><xs:sequence>
   <xs:element name="i" type="xs:int" minOccurs="0" default="-7"/>
   <xs:element name="u" type="xs:unsignedLong" minOccurs="0" default="18446744073709551615"/>
   <xs:element name="l" type="xs:long" minOccurs="0" default="-9223372036854775808"/>
   <xs:element name="t" type="t:Tiny" minOccurs="0" default=" 3 "/>
   <xs:element name="b" type="xs:boolean" minOccurs="0" default="1"/>
   <xs:element name="d" type="xs:double" minOccurs="0" default="2"/>
   <xs:element name="fl" type="xs:float" minOccurs="0" default="0.1"/>
   <xs:element name="inf" type="xs:double" minOccurs="0" default="-INF"/>
   <xs:element name="s" type="xs:string" minOccurs="0" default="a &quot;b&quot;"/>
   <xs:element name="tok" type="xs:token" minOccurs="0" default="  two  words "/>
   <xs:element name="c" type="t:Colour" minOccurs="0" default="green"/>
   <xs:element name="dec" type="xs:decimal" minOccurs="0" default="+01.50"/>
   <xs:element name="big" type="xs:integer" minOccurs="0" default="123456789012345678901234"/>
   <xs:element name="small" type="xs:positiveInteger" minOccurs="0" default="42"/>
   <xs:element name="day" type="xs:date" minOccurs="0" default="2024-02-29-05:00"/>
   <xs:element name="at" type="xs:time" minOccurs="0" default="12:30:00.250"/>
   <xs:element name="dur" type="xs:duration" minOccurs="0" default="-P1DT2H"/>
   <xs:element name="hex" type="xs:hexBinary" minOccurs="0" default="0aFF"/>
   <xs:element name="ints" type="t:Ints" minOccurs="0" default="1 2  3"/>
   <xs:element name="either" type="t:Either" minOccurs="0" default="true"/>
   <xs:element name="q" type="xs:QName" minOccurs="0" default="t:x"/>
   <xs:element name="bad" type="xs:int" minOccurs="0" default="seven"/>
   <xs:element name="req" type="xs:int" default="5"/>
   <xs:element name="fix" type="xs:string" minOccurs="0" fixed="F"/>
   <xs:element name="nil" type="xs:int" nillable="true" default="5"/>
  </xs:sequence>
  <xs:attribute name="ac" type="t:Colour" default="red"/>
  <xs:attribute name="af" type="xs:int" use="required" fixed="9"/>
  <xs:attribute name="ao" type="xs:boolean" fixed="false"/>
  </xs:complexType></xs:element>
  <xs:element name="out"><xs:complexType><xs:sequence><xs:element name="v" type="xs:int"/>
  </xs:sequence></xs:complexType></xs:element>)");
  ASSERT_TRUE(r.skipped.empty()) << r.skipped.front();
  const std::string& h = file(r, "t.hpp");
  for (const char* want : {
           "#include <cstdint>\n#include <limits>\n#include <memory>\n",
           "std::int32_t i = -7;",
           "std::uint64_t u = 18446744073709551615U;",
           "std::int64_t l = -9223372036854775807 - 1;",
           "std::uint8_t t = 3;",
           "bool b = true;",
           "double d = 2.0;",
           "float fl = 0.1f;",
           "double inf = -std::numeric_limits<double>::infinity();",
           "std::string s = \"a \\\"b\\\"\";",
           "lather::xsd::token tok = {\"two words\"};",
           "lather::open_enum<::g::Colour> c = ::g::Colour::green;",
           "lather::xsd::decimal dec = {\"1.5\"};",
           "lather::xsd::integer big = [] { lather::xsd::integer v; v.text = "
           "\"123456789012345678901234\"; return v; }();",
           "lather::xsd::positive_integer small_ = lather::xsd::positive_integer(42);",
           "lather::xsd::date day = {{2024, 2, 29, 0, 0, 0, {}, -300}};",
           "lather::xsd::time at = {{1970, 1, 1, 12, 30, 0, \"25\", {}}};",
           "lather::xsd::duration dur = {true, 0, 0, 1, 2, 0, 0, {}};",
           "lather::xsd::hex_binary hex = {{10, 255}};",
           "lather::xsd::list<std::int32_t> ints = {{1, 2, 3}};",
           "std::string either = \"true\";",
           "lather::xsd::qname q{};",
           "std::int32_t bad{};",
           "std::int32_t req = 5;",
           "std::string fix = \"F\";",
           "lather::nillable<std::int32_t> nil{};",
           "lather::open_enum<::g::Colour> ac = ::g::Colour::red;",
           "std::int32_t af = 9;",
           "bool ao = false;",
       })
    EXPECT_NE(h.find(want), std::string::npos) << want << "\n" << h;
  // The tables keep the default's text: what a present empty element or an absent one reads.
  const std::string t = tables(r);
  for (const char* want : {
           "offsetof(::g::in, i)).min(0).default_value(\"-7\")",
           "offsetof(::g::in, req)).default_value(\"5\")",
           "offsetof(::g::in, fix)).min(0).default_value(\"F\")",
           "offsetof(::g::in, af)).required()",
       })
    EXPECT_NE(t.find(want), std::string::npos) << want << "\n" << t;
  // Without a floating default, no <limits>.
  files g;
  const generate_result plain = generate(g, R"(
  <xs:element name="in"><xs:complexType><xs:sequence>
   <xs:element name="i" type="xs:int" minOccurs="0" default="1"/>
  </xs:sequence></xs:complexType></xs:element>
  <xs:element name="out" type="xs:string"/>)");
  EXPECT_EQ(file(plain, "t.hpp").find("<limits>"), std::string::npos);
}

// Restricted simple types keep the base's C++ type; their facets, merged up the restriction
// chain (the nearest restriction's value of each, every step's patterns, a step's several
// patterns as one alternation), are one constant per distinct set in the file, named by
// .facets() after the field's default. Enumerations (enum class), lists, unions and
// rpc/encoded values have none; a pattern the matcher cannot run is left out and noted.
TEST(WsdlGenerate, FacetsOfRestrictedSimpleTypes) {
  files f;
  const generate_result r = generate(f, R"(
  <xs:simpleType name="Code"><xs:restriction base="xs:string">
   <xs:maxLength value="4"/><xs:pattern value="[A-Z]+"/><xs:pattern value="\d+"/>
  </xs:restriction></xs:simpleType>
  <xs:simpleType name="Short"><xs:restriction base="t:Code"><xs:minLength value="2"/>
   <xs:pattern value="\w{2,3}"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Tiny"><xs:restriction base="xs:unsignedByte"><xs:maxExclusive value="10"/>
  </xs:restriction></xs:simpleType>
  <xs:simpleType name="Greek"><xs:restriction base="xs:token"><xs:pattern value="\p{IsGreek}*"/>
  </xs:restriction></xs:simpleType>
  <xs:simpleType name="Colour"><xs:restriction base="xs:string"><xs:enumeration value="red"/>
  </xs:restriction></xs:simpleType>
  <xs:element name="in"><xs:complexType><xs:sequence>
   <xs:element name="a" type="t:Code"/><xs:element name="b" type="t:Short" maxOccurs="3"/>
   <xs:element name="c" type="t:Tiny" minOccurs="0" default="3"/>
   <xs:element name="d" type="t:Greek"/><xs:element name="e" type="t:Colour"/>
   <xs:element name="f" type="t:Code"/>
  </xs:sequence><xs:attribute name="g" type="t:Tiny"/></xs:complexType></xs:element>
  <xs:element name="out"><xs:complexType><xs:sequence><xs:element name="v" type="xs:int"/>
  </xs:sequence></xs:complexType></xs:element>)");
  const std::string t = tables(r);
  for (const char* want : {
           "constinit lather::bind::pattern facets_1_patterns[] = {\"([A-Z]+)|(\\\\d+)\"};\n"
           "constexpr lather::bind::facets facets_1{.max_length = 4, .patterns = "
           "facets_1_patterns};\n",
           "constinit lather::bind::pattern facets_2_patterns[] = {\"\\\\w{2,3}\", "
           "\"([A-Z]+)|(\\\\d+)\"};\n"
           "constexpr lather::bind::facets facets_2{.min_length = 2, .max_length = 4, .patterns "
           "= facets_2_patterns};\n",
           "constexpr lather::bind::facets facets_3{.value = lather::bind::facet_value::decimal, "
           ".max_exclusive = \"10\", .default_value = \"3\"};\n",
           "constexpr lather::bind::facets facets_4{.value = lather::bind::facet_value::decimal, "
           ".max_exclusive = \"10\"};\n",
           "element<std::string>(\"urn:t\", \"a\", offsetof(::g::in, a)).facets(facets_1),",
           "offsetof(::g::in, b)).min(1).max(3).facets(facets_2),",
           "offsetof(::g::in, c)).min(0).default_value(\"3\").facets(facets_3),",
           "element<lather::xsd::token>(\"urn:t\", \"d\", offsetof(::g::in, d)),",
           "element<lather::open_enum<::g::Colour>>(\"urn:t\", \"e\", offsetof(::g::in, e)),",
           "element<std::string>(\"urn:t\", \"f\", offsetof(::g::in, f)).facets(facets_1),",
           "\"g\", offsetof(::g::in, g)).facets(facets_4)",
       })
    EXPECT_NE(t.find(want), std::string::npos) << want << "\n" << t;
  EXPECT_EQ(t.find("facets_5"), std::string::npos) << t;
  EXPECT_NE(file(r, "names.txt")
                .find("  note: in::d: pattern \"\\p{IsGreek}*\" of {urn:t}Greek is not checked at "
                      "run time (the Unicode block or category \\p{IsGreek})"),
            std::string::npos)
      << file(r, "names.txt");
}
