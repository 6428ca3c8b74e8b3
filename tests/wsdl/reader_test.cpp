// lather::wsdl::load on small inline contracts: one test per group of WSDL/XSD constructs,
// import resolution (relative, chameleon, redefine, cycles, catalogs, standard schemas) and
// the errors for bad input (file:line:column).
#include <gtest/gtest.h>

#include <string>

#include "lather/wsdl/load.hpp"
#include "wsdl_test_util.hpp"

using namespace lather::wsdl;
using lather::wsdl::test::error_of;
using lather::wsdl::test::files;
using lather::wsdl::test::load_text;
using lather::wsdl::test::wsdl_with_schema;

namespace {

constexpr std::string_view tns = "urn:t";

const complex_type& complex(const model& m, std::string_view local) {
  const type* t = m.find_type({std::string(tns), std::string(local)});
  EXPECT_NE(t, nullptr) << local;
  EXPECT_EQ(t->kind, type_kind::complex);
  return *static_cast<const complex_type*>(t);
}

const simple_type& simple(const model& m, std::string_view local) {
  const type* t = m.find_type({std::string(tns), std::string(local)});
  EXPECT_NE(t, nullptr) << local;
  EXPECT_EQ(t->kind, type_kind::simple);
  return *static_cast<const simple_type*>(t);
}

TEST(WsdlReader, ContentModelsNestedAndRepeated) {
  files f;
  auto m = load_text(f, wsdl_with_schema(R"(
   <xs:complexType name="T">
    <xs:sequence>
     <xs:element name="a" type="xs:int"/>
     <xs:choice minOccurs="0" maxOccurs="unbounded">
      <xs:element name="b" type="xs:string"/>
      <xs:sequence><xs:element name="c" type="xs:string"/><xs:element name="d" type="xs:date"/></xs:sequence>
     </xs:choice>
     <xs:element name="e" type="t:T" minOccurs="0" maxOccurs="3"/>
     <xs:any namespace="##other" processContents="lax" minOccurs="0"/>
    </xs:sequence>
   </xs:complexType>
   <xs:complexType name="A"><xs:all><xs:element name="x" type="xs:int"/><xs:element name="y" type="xs:int" minOccurs="0"/></xs:all></xs:complexType>
  )",
                                         R"(elementFormDefault="qualified")"));
  const complex_type& t = complex(*m, "T");
  ASSERT_TRUE(t.content_model);
  EXPECT_EQ(t.content_kind, complex_type::content::element_only);
  const model_group& seq = *t.content_model->group;
  ASSERT_EQ(seq.kind, compositor::sequence);
  ASSERT_EQ(seq.particles.size(), 4u);
  EXPECT_EQ(seq.particles[0].element->name, (qname{"urn:t", "a"}));
  EXPECT_TRUE(seq.particles[0].element->type->is(xsd_ns, "int"));
  const particle& choice = seq.particles[1];
  EXPECT_EQ(choice.group->kind, compositor::choice);
  EXPECT_EQ(choice.min, 0u);
  EXPECT_EQ(choice.max, unbounded);
  EXPECT_EQ(choice.group->particles[1].group->particles[1].element->name.local, "d");
  EXPECT_EQ(seq.particles[2].element->type, &t);  // recursion resolves to the same object
  EXPECT_EQ(seq.particles[2].max, 3u);
  EXPECT_EQ(seq.particles[3].what, particle::kind::any);
  EXPECT_EQ(seq.particles[3].any.namespaces, "##other");
  EXPECT_EQ(seq.particles[3].any.process_contents, wildcard::process::lax);
  EXPECT_EQ(complex(*m, "A").content_model->group->kind, compositor::all);
}

TEST(WsdlReader, FormDefaultsAndAnonymousTypes) {
  files f;
  auto m = load_text(f, wsdl_with_schema(R"(
   <xs:element name="root">
    <xs:complexType>
     <xs:sequence>
      <xs:element name="local" type="xs:string"/>
      <xs:element name="q" type="xs:string" form="qualified"/>
     </xs:sequence>
     <xs:attribute name="a" type="xs:string" use="required"/>
     <xs:attribute name="b" type="xs:int" form="qualified" default="7"/>
    </xs:complexType>
   </xs:element>
  )"));
  const element_decl* root = m->find_element({"urn:t", "root"});
  ASSERT_NE(root, nullptr);
  EXPECT_TRUE(root->global);
  ASSERT_TRUE(root->type->anonymous());
  EXPECT_EQ(root->type->context, (qname{"urn:t", "root"}));
  const auto& ct = *static_cast<const complex_type*>(root->type);
  const model_group& seq = *ct.content_model->group;
  EXPECT_EQ(seq.particles[0].element->name, (qname{"", "local"}));  // unqualified by default
  EXPECT_EQ(seq.particles[1].element->name, (qname{"urn:t", "q"}));
  ASSERT_EQ(ct.attributes.size(), 2u);
  EXPECT_EQ(ct.attributes[0].use, attribute_use::use::required);
  EXPECT_EQ(ct.attributes[0].decl->name, (qname{"", "a"}));
  EXPECT_EQ(ct.attributes[1].decl->name, (qname{"urn:t", "b"}));
  EXPECT_EQ(ct.attributes[1].default_value, "7");
}

TEST(WsdlReader, GroupsAttributeGroupsAndDerivation) {
  files f;
  auto m = load_text(f, wsdl_with_schema(R"(
   <xs:group name="G"><xs:sequence><xs:element name="g" type="xs:int"/></xs:sequence></xs:group>
   <xs:attributeGroup name="AG"><xs:attribute name="x" type="xs:string"/><xs:attributeGroup ref="t:AG2"/></xs:attributeGroup>
   <xs:attributeGroup name="AG2"><xs:attribute name="y" type="xs:string"/><xs:anyAttribute namespace="##other"/></xs:attributeGroup>
   <xs:complexType name="Base" abstract="true">
    <xs:sequence><xs:group ref="t:G"/></xs:sequence>
    <xs:attributeGroup ref="t:AG"/>
   </xs:complexType>
   <xs:complexType name="Derived">
    <xs:complexContent><xs:extension base="t:Base">
     <xs:sequence><xs:element name="more" type="xs:string" nillable="true"/></xs:sequence>
    </xs:extension></xs:complexContent>
   </xs:complexType>
   <xs:complexType name="Restricted">
    <xs:complexContent><xs:restriction base="t:Base">
     <xs:sequence><xs:group ref="t:G"/></xs:sequence>
    </xs:restriction></xs:complexContent>
   </xs:complexType>
   <xs:complexType name="Price">
    <xs:simpleContent><xs:extension base="xs:decimal"><xs:attribute name="currency" type="xs:string"/></xs:extension></xs:simpleContent>
   </xs:complexType>
   <xs:complexType name="Text" mixed="true"><xs:sequence><xs:element name="b" type="xs:string"/></xs:sequence></xs:complexType>
  )"));
  const complex_type& base = complex(*m, "Base");
  EXPECT_TRUE(base.abstract);
  const particle& g = base.content_model->group->particles[0];
  EXPECT_EQ(g.what, particle::kind::group);
  EXPECT_EQ(g.group_name, (qname{"urn:t", "G"}));
  ASSERT_EQ(base.attributes.size(), 2u);
  EXPECT_EQ(base.attributes[1].decl->name.local, "y");
  ASSERT_TRUE(base.any_attribute);
  EXPECT_EQ(base.any_attribute->namespaces, "##other");

  const complex_type& d = complex(*m, "Derived");
  EXPECT_EQ(d.derived, complex_type::derivation::extension);
  EXPECT_EQ(d.base, &base);
  EXPECT_TRUE(d.content_model->group->particles[0].element->nillable);
  EXPECT_EQ(complex(*m, "Restricted").derived, complex_type::derivation::restriction);

  const complex_type& price = complex(*m, "Price");
  EXPECT_EQ(price.content_kind, complex_type::content::simple);
  EXPECT_TRUE(price.text_type->is(xsd_ns, "decimal"));
  EXPECT_EQ(price.attributes.size(), 1u);
  EXPECT_EQ(complex(*m, "Text").content_kind, complex_type::content::mixed);
}

// XSD 1.0 Part 1, 3.4.2 and 3.6.2: a type's (or attribute group's) attribute wildcard is the
// intersection (3.10.6) of its own <anyAttribute> and those of the attribute groups it
// references, with the own wildcard's processContents (else the first group's); one wildcard
// alone stays as written.
TEST(WsdlReader, AttributeWildcardsOfAttributeGroupsIntersect) {
  files f;
  auto m = load_text(f, wsdl_with_schema(R"(
   <xs:attributeGroup name="Other"><xs:anyAttribute namespace="##other" processContents="skip"/></xs:attributeGroup>
   <xs:attributeGroup name="AB"><xs:anyAttribute namespace="urn:a urn:b ##targetNamespace"/></xs:attributeGroup>
   <xs:attributeGroup name="BC"><xs:anyAttribute namespace="urn:b urn:c"/></xs:attributeGroup>
   <xs:attributeGroup name="Nested"><xs:attributeGroup ref="t:AB"/><xs:anyAttribute namespace="urn:b ##local"/></xs:attributeGroup>
   <xs:complexType name="AnyAndOther">
    <xs:attributeGroup ref="t:Other"/><xs:anyAttribute processContents="lax"/>
   </xs:complexType>
   <xs:complexType name="SetAndOther">
    <xs:attributeGroup ref="t:Other"/><xs:anyAttribute namespace="urn:a ##local ##targetNamespace"/>
   </xs:complexType>
   <xs:complexType name="TwoGroups"><xs:attributeGroup ref="t:AB"/><xs:attributeGroup ref="t:BC"/></xs:complexType>
   <xs:complexType name="GroupOfGroup"><xs:attributeGroup ref="t:Nested"/></xs:complexType>
   <xs:complexType name="Disjoint">
    <xs:attributeGroup ref="t:BC"/><xs:anyAttribute namespace="##local"/>
   </xs:complexType>
   <xs:complexType name="OneGroup"><xs:attributeGroup ref="t:Other"/></xs:complexType>
   <xs:complexType name="Same">
    <xs:attributeGroup ref="t:Other"/><xs:anyAttribute namespace="##other" processContents="lax"/>
   </xs:complexType>
  )"));
  const auto wildcard_of = [&](std::string_view type) { return complex(*m, type).any_attribute; };
  // ##any with ##other: ##other, the type's own processContents.
  ASSERT_TRUE(wildcard_of("AnyAndOther"));
  EXPECT_EQ(wildcard_of("AnyAndOther")->namespaces, "##other");
  EXPECT_EQ(wildcard_of("AnyAndOther")->tns, "urn:t");
  EXPECT_EQ(wildcard_of("AnyAndOther")->process_contents, wildcard::process::lax);
  // A set with ##other: the set without the target namespace and absent.
  ASSERT_TRUE(wildcard_of("SetAndOther"));
  EXPECT_EQ(wildcard_of("SetAndOther")->namespaces, "urn:a");
  EXPECT_EQ(wildcard_of("SetAndOther")->process_contents, wildcard::process::strict);
  // Two groups, no wildcard of the type's own: their intersection, the first one's
  // processContents.
  ASSERT_TRUE(wildcard_of("TwoGroups"));
  EXPECT_EQ(wildcard_of("TwoGroups")->namespaces, "urn:b");
  // A group's own wildcard meets those of the groups it references.
  ASSERT_TRUE(wildcard_of("GroupOfGroup"));
  EXPECT_EQ(wildcard_of("GroupOfGroup")->namespaces, "urn:b");
  // An empty intersection: no attribute matches, so no wildcard.
  EXPECT_FALSE(wildcard_of("Disjoint"));
  // One wildcard, or equal ones: as written.
  ASSERT_TRUE(wildcard_of("OneGroup"));
  EXPECT_EQ(wildcard_of("OneGroup")->namespaces, "##other");
  EXPECT_EQ(wildcard_of("OneGroup")->process_contents, wildcard::process::skip);
  ASSERT_TRUE(wildcard_of("Same"));
  EXPECT_EQ(wildcard_of("Same")->namespaces, "##other");
  EXPECT_EQ(wildcard_of("Same")->process_contents, wildcard::process::lax);
}

// ##other of two different namespaces: XSD 1.0 cannot express their intersection.
TEST(WsdlReader, AnInexpressibleAttributeWildcardIntersectionIsAnError) {
  files f;
  f.add("o.xsd", R"(<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:o">
    <xs:attributeGroup name="G"><xs:anyAttribute namespace="##other"/></xs:attributeGroup>
  </xs:schema>)");
  const std::string e = error_of([&] {
    load_text(f, wsdl_with_schema(R"(
   <xs:import namespace="urn:o" schemaLocation="o.xsd"/>
   <xs:complexType name="T"><xs:attributeGroup ref="o:G"/><xs:anyAttribute namespace="##other"/></xs:complexType>
  )",
                                  R"(xmlns:o="urn:o")"));
  });
  EXPECT_NE(e.find("a.wsdl:"), std::string::npos) << e;
  EXPECT_NE(e.find("no intersection"), std::string::npos) << e;
}

// A chameleon attributeGroup (its schema has no targetNamespace) included into two target
// namespaces is one group per namespace: its wildcard's ##targetNamespace and its qualified
// attribute take each includer's.
TEST(WsdlReader, AChameleonAttributeGroupTakesEachIncludersNamespace) {
  files f;
  f.add("cham.xsd", R"(<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
    <xs:attributeGroup name="CAG">
     <xs:attribute name="q" type="xs:string" form="qualified"/>
     <xs:anyAttribute namespace="##targetNamespace"/>
    </xs:attributeGroup>
    <xs:complexType name="CT"><xs:attribute name="r" type="xs:int" form="qualified"/></xs:complexType>
  </xs:schema>)");
  f.add("a.xsd", R"(<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:a="urn:a"
      targetNamespace="urn:a"><xs:include schemaLocation="cham.xsd"/>
    <xs:complexType name="TA"><xs:attributeGroup ref="a:CAG"/></xs:complexType></xs:schema>)");
  f.add("b.xsd", R"(<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:b="urn:b"
      targetNamespace="urn:b"><xs:include schemaLocation="cham.xsd"/>
    <xs:complexType name="TB"><xs:attributeGroup ref="b:CAG"/></xs:complexType></xs:schema>)");
  const std::string w = f.add(
      "a.wsdl", R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:w">
      <import namespace="urn:a" location="a.xsd"/><import namespace="urn:b" location="b.xsd"/>
      </definitions>)");
  auto m = load({w});
  for (const std::string ns : {"urn:a", "urn:b"}) {
    const type* t = m->find_type({ns, ns == "urn:a" ? "TA" : "TB"});
    ASSERT_NE(t, nullptr) << ns;
    const auto& ct = *static_cast<const complex_type*>(t);
    ASSERT_TRUE(ct.any_attribute) << ns;
    EXPECT_EQ(ct.any_attribute->tns, ns);
    ASSERT_EQ(ct.attributes.size(), 1u) << ns;
    EXPECT_EQ(ct.attributes[0].decl->name, (qname{ns, "q"}));
    // The chameleon's type too: one per namespace, each with its own qualified attribute.
    const type* cham = m->find_type({ns, "CT"});
    ASSERT_NE(cham, nullptr) << ns;
    EXPECT_EQ(cham->name, (qname{ns, "CT"}));
    EXPECT_EQ(static_cast<const complex_type*>(cham)->attributes.at(0).decl->name,
              (qname{ns, "r"}));
  }
}

TEST(WsdlReader, SimpleTypesFacetsListsUnions) {
  files f;
  auto m = load_text(f, wsdl_with_schema(R"(
   <xs:simpleType name="Colour"><xs:restriction base="xs:string">
     <xs:enumeration value="RED"/><xs:enumeration value="+L1"/>
   </xs:restriction></xs:simpleType>
   <xs:simpleType name="Small"><xs:restriction base="xs:int">
     <xs:minInclusive value="0"/><xs:maxExclusive value="10"/>
   </xs:restriction></xs:simpleType>
   <xs:simpleType name="Code"><xs:restriction base="xs:string">
     <xs:length value="3"/><xs:pattern value="[A-Z]{3}"/>
   </xs:restriction></xs:simpleType>
   <xs:simpleType name="Smaller"><xs:restriction base="t:Small"><xs:maxInclusive value="5"/></xs:restriction></xs:simpleType>
   <xs:simpleType name="Ints"><xs:list itemType="xs:int"/></xs:simpleType>
   <xs:simpleType name="Either"><xs:union memberTypes="xs:int t:Colour"><xs:simpleType><xs:restriction base="xs:date"/></xs:simpleType></xs:union></xs:simpleType>
   <xs:element name="e" type="t:Colour" default="RED" nillable="true"/>
   <xs:element name="f" type="xs:string" fixed="x"/>
  )"));
  const simple_type& c = simple(*m, "Colour");
  EXPECT_EQ(c.facets.enumeration, (std::vector<std::string>{"RED", "+L1"}));
  EXPECT_TRUE(c.base->is(xsd_ns, "string"));
  EXPECT_EQ(simple(*m, "Small").facets.min_inclusive, "0");
  EXPECT_EQ(simple(*m, "Small").facets.max_exclusive, "10");
  EXPECT_EQ(simple(*m, "Code").facets.length, 3u);
  EXPECT_EQ(simple(*m, "Code").facets.patterns.at(0), "[A-Z]{3}");
  EXPECT_TRUE(simple(*m, "Smaller").builtin_base()->is(xsd_ns, "int"));
  EXPECT_EQ(simple(*m, "Ints").variety, simple_type::variety::list);
  EXPECT_TRUE(simple(*m, "Ints").item->is(xsd_ns, "int"));
  const simple_type& u = simple(*m, "Either");
  EXPECT_EQ(u.variety, simple_type::variety::union_);
  ASSERT_EQ(u.members.size(), 3u);
  EXPECT_EQ(u.members[1], &c);
  EXPECT_TRUE(u.members[2]->anonymous());
  const element_decl* e = m->find_element({"urn:t", "e"});
  EXPECT_TRUE(e->nillable);
  EXPECT_EQ(e->default_value, "RED");
  EXPECT_EQ(m->find_element({"urn:t", "f"})->fixed_value, "x");
}

TEST(WsdlReader, SubstitutionGroupsAndSoapEncArrays) {
  files f;
  auto m = load_text(
      f,
      wsdl_with_schema(
          R"(
   <xs:element name="shape" type="xs:anyType" abstract="true"/>
   <xs:element name="circle" type="xs:string" substitutionGroup="t:shape"/>
   <xs:element name="square" substitutionGroup="t:shape"/>
   <xs:complexType name="Matrix">
    <xs:complexContent><xs:restriction base="soapenc:Array">
     <xs:attribute ref="soapenc:arrayType" wsdl:arrayType="xs:int[,]"/>
    </xs:restriction></xs:complexContent>
   </xs:complexType>
  )",
          R"(xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/")"));
  const element_decl* shape = m->find_element({"urn:t", "shape"});
  ASSERT_EQ(shape->substitutes.size(), 2u);
  EXPECT_EQ(shape->substitutes[0]->name.local, "circle");
  EXPECT_EQ(m->find_element({"urn:t", "square"})->type, shape->type);  // the head's type
  const complex_type& mx = complex(*m, "Matrix");
  EXPECT_TRUE(mx.base->is(soap_encoding11_ns, "Array"));  // from the standard schema
  ASSERT_TRUE(mx.array);
  EXPECT_TRUE(mx.array->item->is(xsd_ns, "int"));
  EXPECT_EQ(mx.array->dimensions, "[,]");
}

TEST(WsdlReader, QNamesUseTheNamespacesInScopeOfTheirOwnElement) {
  files f;
  auto m = load_text(f, R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:p="urn:t" targetNamespace="urn:t">
 <types>
  <xs:schema targetNamespace="urn:t">
   <xs:complexType name="T"><xs:sequence>
    <xs:element name="a" type="p:X"/>
    <xs:element name="b" type="p:X" xmlns:p="urn:other"/>
    <xs:element name="c" type="X" xmlns="urn:other"/>
   </xs:sequence></xs:complexType>
   <xs:complexType name="X"/>
  </xs:schema>
  <xs:schema targetNamespace="urn:other"><xs:simpleType name="X"><xs:restriction base="xs:int"/></xs:simpleType></xs:schema>
 </types>
</definitions>)");
  const model_group& seq = *complex(*m, "T").content_model->group;
  EXPECT_EQ(seq.particles[0].element->type->name, (qname{"urn:t", "X"}));
  EXPECT_EQ(seq.particles[1].element->type->name, (qname{"urn:other", "X"}));
  EXPECT_EQ(seq.particles[2].element->type->name, (qname{"urn:other", "X"}));
}

constexpr std::string_view full_wsdl = R"(<?xml version="1.0"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:t="urn:t"
    xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t">
 <types>
  <xs:schema targetNamespace="urn:t" elementFormDefault="qualified">
   <xs:element name="req"><xs:complexType><xs:sequence><xs:element name="x" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
   <xs:element name="res" type="xs:string"/>
   <xs:element name="auth" type="xs:string"/>
   <xs:element name="authFault" type="xs:string"/>
   <xs:element name="oops" type="xs:string"/>
  </xs:schema>
 </types>
 <message name="In"><part name="body" element="t:req"/><part name="h" element="t:auth"/></message>
 <message name="Out"><part name="body" element="t:res"/></message>
 <message name="Fault"><part name="f" element="t:oops"/></message>
 <message name="HF"><part name="f" element="t:authFault"/></message>
 <message name="RpcIn"><part name="b" type="xs:string"/><part name="a" type="xs:int"/></message>
 <portType name="P">
  <operation name="call">
   <documentation>Calls.</documentation>
   <input message="t:In"/><output message="t:Out"/><fault name="oops" message="t:Fault"/>
  </operation>
  <operation name="notify"><input message="t:In"/></operation>
  <operation name="rpc" parameterOrder="a b"><input message="t:RpcIn"/><output message="t:Out"/></operation>
 </portType>
 <binding name="B11" type="t:P">
  <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
  <operation name="call">
   <soap:operation soapAction="urn:call"/>
   <input><soap:body use="literal" parts="body"/>
    <soap:header message="t:In" part="h" use="literal" wsdl:required="true" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">
     <soap:headerfault message="t:HF" part="f" use="literal"/>
    </soap:header></input>
   <output><soap:body use="literal"/></output>
   <fault name="oops"><soap:fault name="oops" use="literal"/></fault>
  </operation>
  <operation name="notify"><soap:operation soapAction=""/><input><soap:body use="literal"/></input></operation>
  <operation name="rpc">
   <soap:operation style="rpc"/>
   <input><soap:body use="encoded" namespace="urn:rpc" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></input>
   <output><soap:body use="encoded" namespace="urn:rpc"/></output>
  </operation>
 </binding>
 <binding name="B12" type="t:P">
  <soap12:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>
  <operation name="call"><soap12:operation soapAction="urn:call" soapActionRequired="false"/>
   <input><soap12:body use="literal"/></input><output><soap12:body use="literal"/></output></operation>
 </binding>
 <service name="S">
  <port name="p11" binding="t:B11"><soap:address location="http://127.0.0.1/p11"/></port>
  <port name="p12" binding="t:B12"><soap12:address location="http://127.0.0.1/p12"/></port>
 </service>
</definitions>
)";

TEST(WsdlReader, MessagesPortTypesBindingsServices) {
  files f;
  auto m = load_text(f, std::string(full_wsdl));
  ASSERT_EQ(m->port_types().size(), 1u);
  const port_type& pt = *m->port_types()[0];
  ASSERT_EQ(pt.operations.size(), 3u);
  const operation& call = pt.operations[0];
  EXPECT_EQ(call.pattern, operation::kind::request_response);
  EXPECT_EQ(call.documentation, "Calls.");
  ASSERT_EQ(call.faults.size(), 1u);
  EXPECT_EQ(call.faults[0].msg->parts[0].element->name.local, "oops");
  EXPECT_EQ(pt.operations[1].pattern, operation::kind::one_way);
  EXPECT_EQ(pt.operations[1].output, nullptr);
  EXPECT_EQ(pt.operations[2].parameter_order, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(pt.operations[2].input->parts[1].type->is(xsd_ns, "int"));

  ASSERT_EQ(m->bindings().size(), 2u);
  const binding& b11 = *m->bindings()[0];
  EXPECT_EQ(b11.version, soap_version::soap11);
  EXPECT_EQ(b11.port_type, &pt);
  const binding_operation& bc = b11.operations[0];
  EXPECT_EQ(bc.op, &call);
  EXPECT_EQ(bc.soap_action, "urn:call");
  EXPECT_EQ(bc.style, binding_style::document);
  ASSERT_TRUE(bc.input.body && bc.input.body->parts);
  EXPECT_EQ(*bc.input.body->parts, (std::vector<std::string>{"body"}));
  ASSERT_EQ(bc.input.headers.size(), 1u);
  EXPECT_EQ(bc.input.headers[0].part->element->name.local, "auth");
  EXPECT_TRUE(bc.input.headers[0].required);
  ASSERT_EQ(bc.input.headers[0].faults.size(), 1u);
  EXPECT_EQ(bc.input.headers[0].faults[0].part->element->name.local, "authFault");
  EXPECT_EQ(bc.faults.at(0).name, "oops");
  const binding_operation& rpc = b11.operations[2];
  EXPECT_EQ(rpc.style, binding_style::rpc);
  EXPECT_EQ(rpc.input.body->use, body_use::encoded);
  EXPECT_EQ(rpc.input.body->ns, "urn:rpc");
  EXPECT_EQ(rpc.input.body->encoding_style, "http://schemas.xmlsoap.org/soap/encoding/");

  const binding& b12 = *m->bindings()[1];
  EXPECT_EQ(b12.version, soap_version::soap12);
  EXPECT_EQ(b12.style, binding_style::rpc);
  EXPECT_EQ(b12.operations[0].soap_action_required, false);

  ASSERT_EQ(m->services().size(), 1u);
  const service& s = *m->services()[0];
  ASSERT_EQ(s.ports.size(), 2u);
  EXPECT_EQ(s.ports[0].binding, &b11);
  EXPECT_EQ(s.ports[1].address, "http://127.0.0.1/p12");
  EXPECT_TRUE(m->warnings().empty());
}

// parameterOrder is a hint (WSDL 1.1 2.4.6): kept as written, a name that is no part of the
// operation's messages is a warning, not an error.
TEST(WsdlReader, ParameterOrderNamingNoPartIsAWarning) {
  files f;
  std::string text(full_wsdl);
  text.replace(text.find("parameterOrder=\"a b\""), 20, "parameterOrder=\"a zz\"");
  auto m = load_text(f, text);
  EXPECT_EQ(m->port_types()[0]->operations[2].parameter_order,
            (std::vector<std::string>{"a", "zz"}));
  ASSERT_EQ(m->warnings().size(), 1u);
  EXPECT_NE(m->warnings()[0].find("a.wsdl:26:3: parameterOrder names \"zz\", a part of neither "
                                  "the input nor the output message of operation \"rpc\""),
            std::string::npos)
      << m->warnings()[0];
}

TEST(WsdlReader, ImportsIncludesRedefineAndCycles) {
  files f;
  // wsdl:import chain: a.wsdl -> sub/b.wsdl -> sub/types.xsd (relative to b.wsdl).
  f.add("sub/b.wsdl",
        R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:b"
      xmlns:x="urn:x"><import namespace="urn:x" location="types.xsd"/>
      <message name="M" xmlns:tb="urn:b"><part name="p" element="x:top"/></message></definitions>)");
  // types.xsd includes a chameleon (no targetNamespace) and a cycle back to itself.
  f.add("sub/types.xsd", R"(<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:x="urn:x"
      targetNamespace="urn:x" elementFormDefault="qualified">
    <xs:include schemaLocation="chameleon.xsd"/>
    <xs:include schemaLocation="cycle.xsd"/>
    <xs:redefine schemaLocation="redef.xsd">
     <xs:complexType name="R"><xs:complexContent><xs:extension base="x:R">
      <xs:sequence><xs:element name="added" type="xs:int"/></xs:sequence>
     </xs:extension></xs:complexContent></xs:complexType>
    </xs:redefine>
    <xs:element name="top" type="x:Cham"/>
    <xs:element name="lang"><xs:complexType><xs:attribute ref="xml:lang"/></xs:complexType></xs:element>
    <xs:element name="r" type="x:R"/>
  </xs:schema>)");
  f.add("sub/chameleon.xsd", R"(<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
    <xs:complexType name="Cham"><xs:sequence><xs:element name="c" type="Leaf"/></xs:sequence></xs:complexType>
    <xs:simpleType name="Leaf"><xs:restriction base="xs:string"/></xs:simpleType>
  </xs:schema>)");
  f.add("sub/cycle.xsd",
        R"(<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:x">
    <xs:include schemaLocation="types.xsd"/><xs:element name="fromCycle" type="xs:int"/></xs:schema>)");
  f.add("sub/redef.xsd",
        R"(<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:x">
    <xs:complexType name="R"><xs:sequence><xs:element name="orig" type="xs:int"/></xs:sequence></xs:complexType>
  </xs:schema>)");
  std::string a = f.add(
      "a.wsdl", R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:a">
      <import namespace="urn:b" location="sub/b.wsdl"/></definitions>)");
  auto m = load({a});
  EXPECT_EQ(m->files().size(), 7u);  // + the standard xml.xsd
  const element_decl* top = m->find_element({"urn:x", "top"});
  ASSERT_NE(top, nullptr);
  // The chameleon's components took urn:x, and so did its unprefixed reference to Leaf.
  EXPECT_EQ(top->type->name, (qname{"urn:x", "Cham"}));
  const auto& cham = *static_cast<const complex_type*>(top->type);
  EXPECT_EQ(cham.content_model->group->particles[0].element->type->name, (qname{"urn:x", "Leaf"}));
  EXPECT_NE(m->find_element({"urn:x", "fromCycle"}), nullptr);
  // xml:lang came from the standard xml.xsd (namespace-only reference).
  const auto& lang = *static_cast<const complex_type*>(m->find_element({"urn:x", "lang"})->type);
  EXPECT_EQ(lang.attributes.at(0).decl->name,
            (qname{"http://www.w3.org/XML/1998/namespace", "lang"}));
  // The redefinition extends the original R.
  const auto& r = *static_cast<const complex_type*>(m->find_type({"urn:x", "R"}));
  EXPECT_EQ(r.content_model->group->particles[0].element->name.local, "added");
  ASSERT_EQ(r.base->kind, type_kind::complex);
  const auto& orig = *static_cast<const complex_type*>(r.base);
  EXPECT_EQ(orig.content_model->group->particles[0].element->name.local, "orig");
  EXPECT_EQ(m->find_message({"urn:b", "M"})->parts[0].element, top);
}

TEST(WsdlReader, ImportCyclesTerminate) {
  files f;
  // xs:import cycle: urn:a imports urn:b, which imports urn:a; each refers into the other.
  std::string a = f.add("a.xsd", R"(<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"
    targetNamespace="urn:a" xmlns:a="urn:a" xmlns:b="urn:b" elementFormDefault="qualified">
  <xs:import namespace="urn:b" schemaLocation="b.xsd"/>
  <xs:complexType name="A"><xs:sequence><xs:element name="b" type="b:B" minOccurs="0"/></xs:sequence></xs:complexType>
  <xs:element name="req" type="a:A"/>
</xs:schema>)");
  f.add("b.xsd", R"(<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"
    targetNamespace="urn:b" xmlns:a="urn:a" xmlns:b="urn:b" elementFormDefault="qualified">
  <xs:import namespace="urn:a" schemaLocation="a.xsd"/>
  <xs:complexType name="B"><xs:sequence><xs:element name="a" type="a:A" minOccurs="0"/></xs:sequence></xs:complexType>
</xs:schema>)");
  // wsdl:import cycle: c1.wsdl imports c2.wsdl, which imports c1.wsdl; the message of c1 uses
  // a:req, the portType of c2 uses c1's message.
  std::string c1 = f.add("c1.wsdl", R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
    xmlns:t="urn:t" xmlns:a="urn:a" targetNamespace="urn:t">
  <import namespace="urn:t2" location="c2.wsdl"/>
  <types><xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:import namespace="urn:a" schemaLocation="a.xsd"/></xs:schema></types>
  <message name="M"><part name="p" element="a:req"/></message>
</definitions>)");
  f.add("c2.wsdl", R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:t="urn:t"
    targetNamespace="urn:t2"><import namespace="urn:t" location="c1.wsdl"/>
  <portType name="P"><operation name="op"><input message="t:M"/></operation></portType>
</definitions>)");
  for (const std::string& entry : {a, c1}) {
    auto m = load({entry});
    const auto* at = static_cast<const complex_type*>(m->find_type({"urn:a", "A"}));
    const auto* bt = static_cast<const complex_type*>(m->find_type({"urn:b", "B"}));
    ASSERT_NE(at, nullptr);
    ASSERT_NE(bt, nullptr);
    EXPECT_EQ(at->content_model->group->particles[0].element->type, bt);
    EXPECT_EQ(bt->content_model->group->particles[0].element->type, at);
  }
  auto m = load({c1});
  EXPECT_EQ(m->files().size(), 4u);  // each document once
  ASSERT_EQ(m->port_types().size(), 1u);
  EXPECT_EQ(m->port_types()[0]->operations[0].input, m->find_message({"urn:t", "M"}));
  EXPECT_EQ(m->find_message({"urn:t", "M"})->parts[0].element, m->find_element({"urn:a", "req"}));
}

// A WSDL whose inline schema (urn:x, bound to `prefix`) declares complexType T (one element
// `field` of `field_type`), the element req of type T and `more`, with a message {urn:w}M
// whose part is the element {urn:x}`part`.
struct declaring_t {
  std::string_view field, field_type = "xs:int", prefix = "x", form = "qualified", more = "",
                          part = "req";
  std::string text() const {
    std::string p(prefix);
    return R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:w"
    xmlns:)" +
           p + R"(="urn:x" xmlns:xs="http://www.w3.org/2001/XMLSchema">
 <types><xs:schema targetNamespace="urn:x" elementFormDefault=")" +
           std::string(form) + R"(">
  <xs:complexType name="T"><xs:sequence><xs:element name=")" +
           std::string(field) + R"(" type=")" + std::string(field_type) +
           R"("/></xs:sequence></xs:complexType>
  <xs:element name="req" type=")" +
           p + R"(:T"/>)" + std::string(more) + R"(
 </xs:schema></types>
 <message name="M"><part name="p" element=")" +
           p + ":" + std::string(part) + R"("/></message>
</definitions>
)";
  }
};

TEST(WsdlReader, ADifferentSecondDeclarationOfAQNameIsAnError) {
  files f;
  // d1.wsdl and d2.wsdl each declare complexType {urn:x}T, with different content: the
  // second was silently dropped (d2's element got d1's fields).
  std::string d1 = f.add("d1.wsdl", declaring_t{"first"}.text());
  std::string d2 = f.add("d2.wsdl", declaring_t{"second"}.text());
  std::string e = error_of([&] { load({d1, d2}); });
  EXPECT_NE(e.find(d2 +
                   ":4:3: complexType {urn:x}T is declared again with different content "
                   "(first at " +
                   d1 + ":4:3; they first differ at " + d2 + ":4:41 and " + d1 + ":4:41)"),
            std::string::npos)
      << e;

  // The same declarations copied into another WSDL: other prefixes, other documentation,
  // attributes in another order, whitespace: one declaration, the first.
  std::string d3 = f.add("d3.wsdl", R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
    targetNamespace="urn:w" xmlns:y="urn:x" xmlns:s="http://www.w3.org/2001/XMLSchema">
 <types><s:schema elementFormDefault="qualified" targetNamespace="urn:x">
  <s:complexType name="T">
   <s:annotation><s:documentation>a copy</s:documentation></s:annotation>
   <s:sequence>
    <s:element type="s:int" name="first"/>
   </s:sequence>
  </s:complexType>
  <s:element name="req" type="y:T"/>
 </s:schema></types>
 <message name="M"><documentation>M again</documentation><part element="y:req" name="p"/></message>
</definitions>)");
  auto m = load({d1, d3});
  const element_decl* req = m->find_element({"urn:x", "req"});
  ASSERT_NE(req, nullptr);
  EXPECT_EQ(req->where.file, d1);
  EXPECT_EQ(req->type, m->find_type({"urn:x", "T"}));

  // A reference to another type is compared by QName, not by prefix.
  std::string d4 = f.add("d4.wsdl", declaring_t{"first", "y:T", "y"}.text());
  e = error_of([&] { load({d1, d4}); });
  EXPECT_NE(e.find(d4 + ":4:3: complexType {urn:x}T is declared again"), std::string::npos) << e;

  // The same text in a schema whose elementFormDefault differs declares other elements.
  std::string d5 = f.add("d5.wsdl", declaring_t{"first", "xs:int", "x", "unqualified"}.text());
  e = error_of([&] { load({d1, d5}); });
  EXPECT_NE(e.find("their schemas' elementFormDefault differ"), std::string::npos) << e;

  // WSDL components too: two messages {urn:w}M with different parts.
  std::string d6 = f.add("d6.wsdl", declaring_t{"first", "xs:int", "x", "qualified",
                                                R"(<xs:element name="other" type="x:T"/>)", "other"}
                                        .text());
  e = error_of([&] { load({d1, d6}); });
  EXPECT_NE(e.find("message {urn:w}M is declared again with different content (first at " + d1),
            std::string::npos)
      << e;

  // One schema file reached under two paths (sub/../types.xsd and types.xsd) counts once.
  f.add("types.xsd",
        R"(<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:s">
    <xs:complexType name="S"><xs:sequence><xs:element name="s" type="xs:int"/></xs:sequence></xs:complexType></xs:schema>)");
  std::string i1 = f.add(
      "i1.xsd", R"(<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:i1">
    <xs:import namespace="urn:s" schemaLocation="types.xsd"/></xs:schema>)");
  std::string i2 =
      f.add("sub/i2.xsd",
            R"(<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:i2">
    <xs:import namespace="urn:s" schemaLocation="../sub/../types.xsd"/></xs:schema>)");
  EXPECT_NE(load({i1, i2})->find_type({"urn:s", "S"}), nullptr);
}

TEST(WsdlReader, CatalogMapsAbsoluteUrls) {
  files f;
  f.add("local/remote.xsd",
        R"(<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:r">
    <xs:include schemaLocation="sibling.xsd"/><xs:element name="e" type="xs:int"/></xs:schema>)");
  f.add("local/sibling.xsd",
        R"(<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:r">
    <xs:element name="s" type="xs:int"/></xs:schema>)");
  f.add("local/other.xsd",
        R"(<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:o">
    <xs:element name="o" type="xs:int"/></xs:schema>)");
  std::string catalog =
      f.add("catalog.xml", R"(<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">
    <system systemId="http://example.com/schemas/remote.xsd" uri="local/remote.xsd"/></catalog>)");
  std::string xsd = f.add(
      "main.xsd", R"(<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:m">
    <xs:import namespace="urn:r" schemaLocation="http://example.com/schemas/remote.xsd"/>
    <xs:import namespace="urn:o" schemaLocation="http://example.com/schemas/other.xsd"/>
  </xs:schema>)");
  load_options o;
  EXPECT_NE(error_of([&] {
              load({xsd}, o);
            }).find("no local copy of http://example.com/schemas/remote.xsd"),
            std::string::npos);
  o.catalogs = {catalog};
  auto m = load({xsd}, o);
  EXPECT_NE(m->find_element({"urn:r", "e"}), nullptr);
  EXPECT_NE(m->find_element({"urn:r", "s"}), nullptr);
  // other.xsd sits beside the mapped remote.xsd: found there.
  EXPECT_NE(m->find_element({"urn:o", "o"}), nullptr);
}

TEST(WsdlReader, MissingImportNamesTheFileAndWhereItWasReferenced) {
  files f;
  std::string a = f.add("a.wsdl", wsdl_with_schema(R"(
   <xs:import namespace="urn:gone" schemaLocation="gone.xsd"/>)"));
  std::string e = error_of([&] { load({a}); });
  EXPECT_NE(e.find(a + ":7:4: missing file: "), std::string::npos) << e;
  EXPECT_NE(e.find("gone.xsd"), std::string::npos) << e;
}

TEST(WsdlReader, MalformedSchemaGetsItsPosition) {
  files f;
  f.add("bad.xsd",
        "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n  <xs:element "
        "name=\"x\">\n</xs:schema>\n");
  std::string a = f.add("a.wsdl", wsdl_with_schema(R"(<xs:include schemaLocation="bad.xsd"/>)"));
  std::string e = error_of([&] { load({a}); });
  EXPECT_NE(e.find("bad.xsd:3:1: malformed XML"), std::string::npos) << e;
}

TEST(WsdlReader, UnresolvedReferencesAndUndeclaredPrefixesArePositioned) {
  files f;
  std::string e = error_of([&] {
    load_text(f, wsdl_with_schema(R"(
   <xs:element name="x" type="t:Nope"/>)"));
  });
  EXPECT_NE(e.find("a.wsdl:7:4: unresolved type reference {urn:t}Nope"), std::string::npos) << e;
  e = error_of([&] {
    load_text(f, wsdl_with_schema(R"(
   <xs:element name="x" type="zz:T"/>)"));
  });
  EXPECT_NE(e.find("a.wsdl:7:4: undeclared prefix \"zz\""), std::string::npos) << e;
  e = error_of([&] {
    load({f.add("b.wsdl", std::string(full_wsdl).replace(std::string(full_wsdl).find("t:Fault\"/>"),
                                                         7, "t:Nope"))});
  });
  EXPECT_NE(e.find("unresolved message reference {urn:t}Nope"), std::string::npos) << e;
}

}  // namespace
