// WS-Addressing Actions in the WSDL model: wsam:Action / wsaw:Action as written, the default
// action pattern where a binding or port uses addressing (wsaw:UsingAddressing, wsam:Addressing
// inline or by PolicyReference), and none where nothing asks for addressing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "../support/paths.hpp"
#include "lather/wsdl/generate.hpp"
#include "lather/wsdl/load.hpp"

namespace {

using namespace lather;

const wsdl::binding_operation& operation_of(const wsdl::model& m, std::string_view name) {
  for (const wsdl::binding* b : m.bindings())
    for (const wsdl::binding_operation& bo : b->operations)
      if (bo.name == name) return bo;
  throw std::runtime_error("no binding operation " + std::string(name));
}

class wsdl_action : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("lather-wsa-wsdl-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // A one-operation contract: portType `Ops` in `tns` (operation "get", input/output messages
  // with `input_attrs` on wsdl:input), binding content `binding_extra`, port content
  // `port_extra`, top-level `top_extra`.
  std::unique_ptr<const wsdl::model> load(std::string_view tns, std::string_view input_attrs,
                                          std::string_view binding_extra,
                                          std::string_view port_extra = "",
                                          std::string_view top_extra = "") {
    const std::string text = R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
    xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xsd="http://www.w3.org/2001/XMLSchema"
    xmlns:wsaw="http://www.w3.org/2006/05/addressing/wsdl"
    xmlns:wsam="http://www.w3.org/2007/05/addressing/metadata"
    xmlns:wsp="http://www.w3.org/ns/ws-policy"
    xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"
    xmlns:tns=")" + std::string(tns) +
                             R"(" targetNamespace=")" + std::string(tns) + R"(">)" +
                             std::string(top_extra) + R"(
  <message name="in"><part name="a" type="xsd:string"/></message>
  <message name="out"><part name="b" type="xsd:string"/></message>
  <message name="oops"><part name="c" type="xsd:string"/></message>
  <portType name="Ops"><operation name="get">
    <input message="tns:in" )" +
                             std::string(input_attrs) +
                             R"(/><output message="tns:out"/><fault name="Bad" message="tns:oops"/>
  </operation></portType>
  <binding name="B" type="tns:Ops"><soap:binding style="rpc"
      transport="http://schemas.xmlsoap.org/soap/http"/>)" +
                             std::string(binding_extra) + R"(
    <operation name="get"><soap:operation soapAction=""/>
      <input><soap:body use="literal" namespace="urn:x"/></input>
      <output><soap:body use="literal" namespace="urn:x"/></output>
      <fault name="Bad"><soap:fault name="Bad" use="literal"/></fault>
    </operation></binding>
  <service name="S"><port name="P" binding="tns:B"><soap:address location="http://h/s"/>)" +
                             std::string(port_extra) + R"(</port></service>
</definitions>)";
    const auto path = dir_ / "contract.wsdl";
    std::ofstream(path) << text;
    return wsdl::load({path.string()});
  }

  std::filesystem::path dir_;
};

TEST_F(wsdl_action, WrittenActionsAreRead) {
  auto m = load("http://example.org/ops", R"(wsam:Action="urn:in-action")", "");
  const auto& bo = operation_of(*m, "get");
  EXPECT_EQ(bo.op->input_action, "urn:in-action");
  EXPECT_EQ(bo.input_action, "urn:in-action");  // as written, with or without addressing
  EXPECT_EQ(bo.output_action, "");              // not written, addressing not used
  EXPECT_EQ(m->bindings()[0]->addressing, wsdl::addressing_use::none);
  auto w = load("http://example.org/ops", R"(wsaw:Action="urn:wsaw")", "");
  EXPECT_EQ(operation_of(*w, "get").input_action, "urn:wsaw");
}

TEST_F(wsdl_action, UsingAddressingGivesTheDefaultPattern) {
  auto m = load("http://example.org/ops/", R"(name="GetIt")",
                R"(<wsaw:UsingAddressing xmlns:w="http://schemas.xmlsoap.org/wsdl/"
                   w:required="true"/>)");
  EXPECT_EQ(m->bindings()[0]->addressing, wsdl::addressing_use::required);
  const auto& bo = operation_of(*m, "get");
  EXPECT_EQ(bo.input_action, "http://example.org/ops/Ops/GetIt");  // the input's name
  EXPECT_EQ(bo.output_action, "http://example.org/ops/Ops/getResponse");
  ASSERT_EQ(bo.faults.size(), 1u);
  EXPECT_EQ(bo.faults[0].action, "http://example.org/ops/Ops/get/Fault/Bad");
  // A URN target namespace uses ':'; an optional UsingAddressing is still addressing.
  auto urn = load("urn:example:ops", "", "<wsaw:UsingAddressing/>");
  EXPECT_EQ(urn->bindings()[0]->addressing, wsdl::addressing_use::optional);
  EXPECT_EQ(operation_of(*urn, "get").input_action, "urn:example:ops:Ops:getRequest");
}

TEST_F(wsdl_action, AddressingPolicyOnThePortOrByReference) {
  auto port = load("http://example.org/ops", "", "",
                   R"(<wsp:Policy><wsam:Addressing><wsp:Policy/></wsam:Addressing></wsp:Policy>)");
  EXPECT_EQ(port->services()[0]->ports[0].addressing, wsdl::addressing_use::required);
  EXPECT_EQ(operation_of(*port, "get").input_action, "http://example.org/ops/Ops/getRequest");
  auto referenced = load(
      "http://example.org/ops", "", R"(<wsp:PolicyReference URI="#addr"/>)", "",
      R"(<wsp:Policy wsu:Id="addr"><wsp:ExactlyOne><wsp:All><wsam:Addressing wsp:Optional="true">
           <wsp:Policy/></wsam:Addressing></wsp:All></wsp:ExactlyOne></wsp:Policy>)");
  EXPECT_EQ(referenced->bindings()[0]->addressing, wsdl::addressing_use::optional);
  EXPECT_EQ(operation_of(*referenced, "get").output_action,
            "http://example.org/ops/Ops/getResponse");
}

TEST(wsdl_action_corpus, OnvifEventsAndCxfAddressingPolicy) {
  const std::filesystem::path corpus = lather::test::wsdl_corpus;
  if (!std::filesystem::exists(corpus / "onvif-events")) GTEST_SKIP() << "no corpus";
  wsdl::load_options o;
  o.catalogs = {(corpus / "onvif-events/catalog.xml").string()};
  auto events =
      wsdl::load({(corpus / "onvif-events/wsdl/ver10/events/wsdl/event.wsdl").string()}, o);
  const auto& pull = operation_of(*events, "PullMessages");
  EXPECT_EQ(pull.input_action,
            "http://www.onvif.org/ver10/events/wsdl/PullPointSubscription/PullMessagesRequest");
  EXPECT_EQ(pull.output_action,
            "http://www.onvif.org/ver10/events/wsdl/PullPointSubscription/PullMessagesResponse");
  ASSERT_EQ(pull.faults.size(), 1u);
  EXPECT_EQ(pull.faults[0].action,
            "http://www.onvif.org/ver10/events/wsdl/PullPointSubscription/PullMessages/Fault/"
            "PullMessagesFaultResponse");
  auto cxf =
      wsdl::load({(corpus / "cxf-ws-policy-addressing/hello_world_addr_policy.wsdl").string()});
  EXPECT_EQ(operation_of(*cxf, "sayHi").input_action,
            "http://apache.org/hello_world_soap_http/Greeter/sayHiRequest");
  const auto& ping = operation_of(*cxf, "pingMe");
  EXPECT_EQ(ping.input_action, "http://apache.org/hello_world_soap_http/Greeter/pingMeRequest");
  EXPECT_EQ(ping.output_action, "http://apache.org/hello_world_soap_http/Greeter/pingMeResponse");
  ASSERT_EQ(ping.faults.size(), 1u);
  EXPECT_EQ(ping.faults[0].action,
            "http://apache.org/hello_world_soap_http/Greeter/pingMe/Fault/pingMeFault");
  EXPECT_EQ(operation_of(*cxf, "greetMeOneWay").output_action, "");  // one-way: no output
}

}  // namespace

namespace {

// A document/literal contract whose fault has a wsam:Action: lather-wsdl2cpp's code carries
// the response's and the fault's Actions into call_options / operation_options.
TEST(wsdl_action_generate, ResponseAndFaultActionsReachTheGeneratedCode) {
  const auto dir =
      std::filesystem::temp_directory_path() /
      ("lather-wsa-gen-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "c.wsdl") << R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
    xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xsd="http://www.w3.org/2001/XMLSchema"
    xmlns:wsam="http://www.w3.org/2007/05/addressing/metadata"
    xmlns:tns="urn:gen" targetNamespace="urn:gen">
  <types><xsd:schema targetNamespace="urn:gen" elementFormDefault="qualified">
    <xsd:element name="get"><xsd:complexType><xsd:sequence>
      <xsd:element name="a" type="xsd:string"/></xsd:sequence></xsd:complexType></xsd:element>
    <xsd:element name="getResponse"><xsd:complexType><xsd:sequence>
      <xsd:element name="b" type="xsd:string"/></xsd:sequence></xsd:complexType></xsd:element>
    <xsd:element name="getFault"><xsd:complexType><xsd:sequence>
      <xsd:element name="why" type="xsd:string"/></xsd:sequence></xsd:complexType></xsd:element>
  </xsd:schema></types>
  <message name="in"><part name="p" element="tns:get"/></message>
  <message name="out"><part name="p" element="tns:getResponse"/></message>
  <message name="oops"><part name="p" element="tns:getFault"/></message>
  <portType name="Ops"><operation name="get">
    <input message="tns:in" wsam:Action="urn:gen:get"/>
    <output message="tns:out" wsam:Action="urn:gen:getResponse"/>
    <fault name="Bad" message="tns:oops" wsam:Action="urn:gen:getFault"/>
  </operation></portType>
  <binding name="B" type="tns:Ops"><soap:binding style="document"
      transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="get"><soap:operation soapAction="urn:gen:get"/>
      <input><soap:body use="literal"/></input><output><soap:body use="literal"/></output>
      <fault name="Bad"><soap:fault name="Bad" use="literal"/></fault>
    </operation></binding>
  <service name="S"><port name="P" binding="tns:B"><soap:address location="http://h/s"/></port>
  </service>
</definitions>)";
  const auto m = wsdl::load({(dir / "c.wsdl").string()});
  std::filesystem::remove_all(dir);
  std::string operations;
  for (const auto& f : wsdl::generate_cpp(*m).files)
    if (f.name.starts_with("code_")) operations += f.text;
  // The operation's constant holds the response's Action once (lather_gen::apply sets it on
  // call_options and on operation_options); the client and the service both use it.
  std::size_t n = 0;
  for (std::size_t at = 0;
       (at = operations.find("\"urn:gen:getResponse\",\n", at)) != std::string::npos; ++at)
    ++n;
  EXPECT_EQ(n, 1u) << operations;
  EXPECT_NE(operations.find("\"urn:gen\", \"\", \"urn:gen:get\", \"urn:gen:getResponse\","),
            std::string::npos)
      << operations;
  EXPECT_NE(operations.find("lather_gen::call(*client_, lather_gen::OpsOps::get, "),
            std::string::npos)
      << operations;
  EXPECT_NE(operations.find("{&lather_gen::OpsOps::get,\n"), std::string::npos) << operations;
  EXPECT_NE(operations.find(R"({"urn:gen", "getFault", "urn:gen:getFault"},)"), std::string::npos)
      << operations;
}

}  // namespace
