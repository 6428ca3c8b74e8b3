// WS-SecurityPolicy in a contract: lather::wsdl::load reads the sp: assertions attached to a
// binding, an operation and its input (inline wsp:Policy and wsp:PolicyReference, also to a
// policy of an imported document or of another file), lather-wsdl2cpp generates them
// (security.hpp), and lather::wsse maps them to server and client policies that a lather
// server and client then enforce and fulfil.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "../support/paths.hpp"
#include "calc_fixture.hpp"
#include "call_faults.hpp"
#include "lather/service/client.hpp"
#include "lather/wsdl/load.hpp"
#include "lather/wsse.hpp"
#include "security.hpp"  // generated from data/calc_policy.wsdl

namespace {

using namespace lather;

// Binding "Calc": a UsernameToken with HashPassword for every operation (PolicyReference to a
// policy of the document); "now" adds an inline AsymmetricBinding with IncludeTimestamp, and
// its input a PolicyReference to SignedParts (Body and a route header).
const char* contract = R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
    xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xsd="http://www.w3.org/2001/XMLSchema"
    xmlns:wsp="http://schemas.xmlsoap.org/ws/2004/09/policy"
    xmlns:sp="http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702"
    xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"
    xmlns:tns="urn:lather:wsse-test" targetNamespace="urn:lather:wsse-test">
  <wsp:Policy wsu:Id="UT"><wsp:ExactlyOne><wsp:All>
    <sp:SupportingTokens><wsp:Policy>
      <sp:UsernameToken sp:IncludeToken="http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702/IncludeToken/AlwaysToRecipient">
        <wsp:Policy><sp:HashPassword/><sp:WssUsernameToken10/></wsp:Policy>
      </sp:UsernameToken>
    </wsp:Policy></sp:SupportingTokens>
  </wsp:All></wsp:ExactlyOne></wsp:Policy>
  <wsp:Policy wsu:Id="Parts"><sp:SignedParts><sp:Body/>
    <sp:Header Name="To" Namespace="urn:lather:route"/></sp:SignedParts></wsp:Policy>
  <message name="in"><part name="a" type="xsd:string"/></message>
  <message name="out"><part name="b" type="xsd:string"/></message>
  <portType name="Ops">
    <operation name="add"><input message="tns:in"/><output message="tns:out"/></operation>
    <operation name="now"><input message="tns:in"/><output message="tns:out"/></operation>
  </portType>
  <binding name="Calc" type="tns:Ops">
    <wsp:PolicyReference URI="#UT"/>
    <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="add"><soap:operation soapAction=""/>
      <input><soap:body use="literal"/></input><output><soap:body use="literal"/></output>
    </operation>
    <operation name="now">
      <wsp:Policy><sp:AsymmetricBinding><wsp:Policy>
        <sp:InitiatorToken><wsp:Policy><sp:X509Token/></wsp:Policy></sp:InitiatorToken>
        <sp:IncludeTimestamp/>
      </wsp:Policy></sp:AsymmetricBinding></wsp:Policy>
      <soap:operation soapAction=""/>
      <input><wsp:PolicyReference URI="#Parts"/><soap:body use="literal"/></input>
      <output><soap:body use="literal"/></output>
    </operation>
  </binding>
  <service name="S"><port name="P" binding="tns:Calc"><soap:address location="http://h/s"/></port></service>
</definitions>)";

class wsse_policy : public wsse_test::calc_fixture {
 protected:
  void SetUp() override {
    const auto path = std::filesystem::temp_directory_path() /
                      ("lather-wsse-policy-" + std::to_string(::getpid()) + ".wsdl");
    std::ofstream(path) << contract;
    model_ = wsdl::load({path.string()});
    std::filesystem::remove(path);
    binding_ = model_->find_binding({"urn:lather:wsse-test", "Calc"});
    ASSERT_NE(binding_, nullptr);
  }
  const wsdl::binding_operation& op(std::string_view name) const {
    for (const auto& o : binding_->operations)
      if (o.name == name) return o;
    throw std::runtime_error("no operation " + std::string(name));
  }
  wsse::policy_credentials mine() const {
    return {wsse::username_token{"alice", "wonderland", wsse::password_type::text},
            wsse::signing{wsse::credentials::from_files(dir_ / "signer.key", dir_ / "signer.pem")}};
  }

  void talk(const wsdl::binding& contract);

  std::unique_ptr<const wsdl::model> model_;
  const wsdl::binding* binding_ = nullptr;
};

TEST_F(wsse_policy, AssertionsOfBindingOperationAndInputAreRead) {
  EXPECT_TRUE(binding_->security.username_token);
  EXPECT_TRUE(binding_->security.hash_password);
  EXPECT_FALSE(binding_->security.x509_signature);
  const wsdl::security_policy& add = op("add").security;
  EXPECT_TRUE(add.username_token && add.hash_password);
  EXPECT_FALSE(add.x509_signature || add.include_timestamp || add.sign_body);
  const wsdl::security_policy& now = op("now").security;
  EXPECT_TRUE(now.username_token && now.x509_signature && now.include_timestamp && now.sign_body);
  ASSERT_EQ(now.signed_headers.size(), 1u);
  EXPECT_EQ(now.signed_headers[0], (wsdl::qname{"urn:lather:route", "To"}));
  EXPECT_FALSE(now.encryption);
}

TEST_F(wsse_policy, MappedToServerAndClientPolicies) {
  const wsse::server_policy s = wsse::server_policy_from(op("now").security);
  EXPECT_TRUE(s.username_token && s.signature && s.timestamp);
  EXPECT_FALSE(s.allow_text);  // HashPassword: digests only
  ASSERT_EQ(s.signed_headers.size(), 1u);
  EXPECT_EQ(s.signed_headers[0].local, "To");
  const wsse::client_policy c = wsse::client_policy_from(op("now").security, mine());
  ASSERT_TRUE(c.token && c.sign);
  EXPECT_EQ(c.token->type, wsse::password_type::digest);
  EXPECT_TRUE(c.timestamp);
  EXPECT_EQ(c.sign->options.headers.size(), 1u);
  EXPECT_THROW(wsse::client_policy_from(op("add").security, {}), std::invalid_argument);
}

// A server and a client configured from `contract`'s policies (the binding Calc of the
// contract above, read by the loader or generated) talk; a client sending less is refused.
void wsse_policy::talk(const wsdl::binding& contract) {
  svc_.operation("add", [](call_context& ctx, const wsse_test::add& in) {
    return wsse_test::addResponse{in.a + in.b, std::string(wsse::server_security::user(ctx))};
  });
  svc_.operation("now", [](call_context& ctx, const wsse_test::now&) {
    return wsse_test::nowResponse{std::string(wsse::server_security::signer(ctx))};
  });
  wsse::server_security sec{[](std::string_view user) -> std::optional<std::string> {
                              if (user == "alice") return "wonderland";
                              return std::nullopt;
                            },
                            wsse::server_policy_from(contract.security)};
  wsse::configure(sec, contract);
  wsse::trust_store trusted;
  trusted.add_file(dir_ / "ca.pem");
  sec.set_trust_store(trusted);
  sec.install(svc_);
  srv_.mount("/calc", svc_);
  srv_.start();

  client c{url()};
  wsse::client_security csec{wsse::client_policy_from(contract.security, mine())};
  wsse::configure(csec, contract, mine());
  csec.install(c);
  EXPECT_EQ(c.call<wsse_test::addResponse>("add", wsse_test::add{2, 3}).user, "alice");
  call_options routed;
  routed.headers.push_back([](xml::writer& w) {
    w.start_element("urn:lather:route", "To");
    w.text("urn:calc");
    w.end_element();
  });
  EXPECT_EQ(c.call<wsse_test::nowResponse>("now", wsse_test::now{}, routed).utc,
            "CN=signer,O=lather");

  // A client that sends only what the binding asks is refused where the operation asks more.
  client plain{url()};
  wsse::client_security{wsse::client_policy_from(contract.security, mine())}.install(plain);
  EXPECT_EQ(wsse_test::fault_of<wsse_test::nowResponse>(plain, "now", wsse_test::now{}, routed),
            "InvalidSecurity");
  // And PasswordText where the contract says HashPassword.
  client text{url()};
  wsse::client_security{
      {.token = wsse::username_token{"alice", "wonderland", wsse::password_type::text}}}
      .install(text);
  EXPECT_NE(wsse_test::fault_of<wsse_test::addResponse>(text, "add", wsse_test::add{2, 3}), "");
}

TEST_F(wsse_policy, ServerAndClientConfiguredFromTheContractTalk) {
  talk(*binding_);
}

// calc_policy.wsdl references a policy of the document it imports (#UT, #Parts) and one of
// another file (calc_sign.xml#Sign): the loader follows both, lather-wsdl2cpp writes what it
// read into security.hpp, and a server and client configured from the generated function talk.
TEST_F(wsse_policy, ReferencesIntoOtherDocumentsAreFollowedAndGenerated) {
  const auto m =
      wsdl::load({std::string(lather::test::source_dir) + "/tests/wsse/data/calc_policy.wsdl"});
  const wsdl::binding* b = m->find_binding({"urn:lather:wsse-test", "Calc"});
  ASSERT_NE(b, nullptr);
  const wsdl::binding generated = wssegen::Calc_security();
  EXPECT_EQ(generated.name, b->name);
  EXPECT_TRUE(b->security.username_token && b->security.hash_password);
  EXPECT_FALSE(b->security.x509_signature);
  ASSERT_EQ(b->operations.size(), 2u);
  ASSERT_EQ(generated.operations.size(), 2u);
  const wsdl::security_policy& now = b->operations[1].security;
  EXPECT_TRUE(now.username_token && now.x509_signature && now.include_timestamp && now.sign_body);
  ASSERT_EQ(now.signed_headers.size(), 1u);
  for (std::size_t i = 0; i < 2; ++i) {
    const wsdl::security_policy &read = b->operations[i].security,
                                &made = generated.operations[i].security;
    EXPECT_EQ(generated.operations[i].name, b->operations[i].name);
    EXPECT_TRUE(read.username_token == made.username_token &&
                read.hash_password == made.hash_password &&
                read.x509_signature == made.x509_signature &&
                read.include_timestamp == made.include_timestamp &&
                read.sign_body == made.sign_body && read.signed_headers == made.signed_headers)
        << b->operations[i].name;
  }
  talk(generated);
}

}  // namespace
