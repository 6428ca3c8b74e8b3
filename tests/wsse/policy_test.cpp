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
#include "../support/process.hpp"
#include "calc_fixture.hpp"
#include "call_faults.hpp"
#include "lather/service/client.hpp"
#include "lather/wsdl/generate.hpp"
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

  using server_maker = std::function<std::unique_ptr<wsse::server_security>(wsse::password_lookup)>;
  using client_maker = std::function<wsse::client_security(const wsse::policy_credentials&)>;
  void talk(const wsdl::binding& contract, const server_maker& make_server,
            const client_maker& make_client);

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
// contract above, read by the loader or generated) by `make_server` and `make_client` talk; a
// client sending less is refused.
void wsse_policy::talk(const wsdl::binding& contract, const server_maker& make_server,
                       const client_maker& make_client) {
  svc_.operation("add", [](call_context& ctx, const wsse_test::add& in) {
    return wsse_test::addResponse{in.a + in.b, std::string(wsse::server_security::user(ctx))};
  });
  svc_.operation("now", [](call_context& ctx, const wsse_test::now&) {
    return wsse_test::nowResponse{std::string(wsse::server_security::signer(ctx))};
  });
  const std::unique_ptr<wsse::server_security> sec =
      make_server([](std::string_view user) -> std::optional<std::string> {
        if (user == "alice") return "wonderland";
        return std::nullopt;
      });
  wsse::trust_store trusted;
  trusted.add_file(dir_ / "ca.pem");
  sec->set_trust_store(trusted);
  sec->install(svc_);
  srv_.mount("/calc", svc_);
  srv_.start();

  client c{url()};
  make_client(mine()).install(c);
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
  talk(
      *binding_,
      [&](wsse::password_lookup lookup) {
        auto sec = std::make_unique<wsse::server_security>(
            std::move(lookup), wsse::server_policy_from(binding_->security));
        wsse::configure(*sec, *binding_);
        return sec;
      },
      [&](const wsse::policy_credentials& mine) {
        wsse::client_security csec{wsse::client_policy_from(binding_->security, mine)};
        wsse::configure(csec, *binding_, mine);
        return csec;
      });
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
  // The generated security.hpp applies the mapping itself.
  talk(generated, wssegen::Calc_server_security, wssegen::Calc_client_security);
}

// sp:SymmetricBinding and encryption (tests/wsse/data/calc_symmetric.wsdl, as in CXF's
// perf_policy.wsdl) are recorded with their positions, warned of, and refused by the mapping,
// as CXF refuses a policy it cannot satisfy; an alternative lather can satisfy and an optional
// assertion are not.
class wsse_unsupported_policy : public ::testing::Test {
 protected:
  const std::string path_ =
      std::string(lather::test::source_dir) + "/tests/wsse/data/calc_symmetric.wsdl";
  std::unique_ptr<const wsdl::model> model_ = wsdl::load({path_});
  const wsdl::binding& binding(std::string_view local) const {
    const wsdl::binding* b = model_->find_binding({"urn:lather:wsse-sym", std::string(local)});
    if (!b) throw std::runtime_error("no binding " + std::string(local));
    return *b;
  }
};

TEST_F(wsse_unsupported_policy, AssertionsAreRecordedWithTheirPositions) {
  const wsdl::security_policy& sym = binding("Sym").security;
  ASSERT_EQ(sym.unsupported.size(), 2u);
  EXPECT_EQ(sym.unsupported[0].name.local, "SymmetricBinding");
  EXPECT_EQ(sym.unsupported[0].name.ns,
            "http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702");
  EXPECT_EQ(sym.unsupported[0].where.str(), path_ + ":13:5");
  EXPECT_EQ(sym.unsupported[1].name.local, "EncryptedParts");
  EXPECT_EQ(sym.unsupported[1].where.str(), path_ + ":18:5");
  EXPECT_TRUE(sym.encryption && sym.sign_body);
  EXPECT_EQ(binding("Sym").operations.at(0).security.unsupported, sym.unsupported);
  // Either: one alternative is a UsernameToken; the operation's EncryptedParts is optional.
  EXPECT_TRUE(binding("Either").security.unsupported.empty());
  EXPECT_TRUE(binding("Either").operations.at(0).security.unsupported.empty());
  EXPECT_TRUE(binding("Either").security.username_token);

  const auto warnings = model_->warnings();
  ASSERT_EQ(warnings.size(), 2u);  // once each, not once per binding operation
  EXPECT_EQ(warnings[0].rfind(path_ + ":13:5: WS-SecurityPolicy assertion sp:SymmetricBinding", 0),
            0u)
      << warnings[0];
  EXPECT_NE(warnings[1].find(":18:5: WS-SecurityPolicy assertion sp:EncryptedParts"),
            std::string::npos)
      << warnings[1];
}

TEST_F(wsse_unsupported_policy, TheMappingRefusesThePolicy) {
  const wsdl::binding& sym = binding("Sym");
  const wsse::policy_credentials mine{wsse::username_token{"alice", "pw"}, {}};
  for (auto refuse : std::initializer_list<std::function<void()>>{
           [&] { wsse::server_policy_from(sym.security); },
           [&] { wsse::client_policy_from(sym.security, mine); },
           [&] { wsse::server_security_for(sym, [](std::string_view) { return std::nullopt; }); },
           [&] { wsse::client_security_for(sym, mine); }}) {
    try {
      refuse();
      ADD_FAILURE() << "an unsupported policy was mapped";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("sp:SymmetricBinding (" + path_ + ":13:5)"),
                std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("sp:EncryptedParts"), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(wsse::client_security_for(binding("Either"), mine));
}

// CXF's perf contract: its secured binding references SymD_policy (an sp:SymmetricBinding) of
// the perf_policy.wsdl it imports; it used to map silently to no requirement.
TEST(wsse_cxf_policy, PerfSecBindingIsUnsupported) {
  const std::string perf = std::string(lather::test::shared_dir) + "/bench/cxf-perf/perf.wsdl";
  if (!std::filesystem::exists(perf)) GTEST_SKIP() << perf << " is not there";
  const auto m = wsdl::load({perf});
  const wsdl::binding* b =
      m->find_binding({"http://cxf.apache.org/cxf/performance", "SoapBindingDocLitSec"});
  ASSERT_NE(b, nullptr);
  ASSERT_FALSE(b->security.unsupported.empty());
  EXPECT_EQ(b->security.unsupported[0].name.local, "SymmetricBinding");
  EXPECT_NE(std::string(b->security.unsupported[0].where.file).find("perf_policy.wsdl"),
            std::string::npos);
  EXPECT_THROW(wsse::server_policy_from(b->security), std::invalid_argument);
}

// lather-wsdl2cpp: the generated security.hpp carries the unsupported assertions (so the
// generated <Binding>_server_security() refuses too); --strict-policy makes them an error at
// their position; the tool warns with file:line:column by default.
TEST_F(wsse_unsupported_policy, GeneratorWarnsOrFailsUnderStrict) {
  wsdl::generate_options o;
  o.cpp_namespace = "symgen";
  const wsdl::generate_result r = wsdl::generate_cpp(*model_, o);
  const auto security = std::find_if(r.files.begin(), r.files.end(),
                                     [](const auto& f) { return f.name == "security.hpp"; });
  ASSERT_NE(security, r.files.end());
  EXPECT_NE(security->text.find("\"SymmetricBinding\"}, {\"" + path_ + "\", 13, 5}}"),
            std::string::npos);
  o.strict_policy = true;
  try {
    wsdl::generate_cpp(*model_, o);
    ADD_FAILURE() << "--strict-policy generated a contract with sp:SymmetricBinding";
  } catch (const wsdl::error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(
                  path_ + ":13:5: WS-SecurityPolicy assertion sp:SymmetricBinding", 0),
              0u)
        << e.what();
  }

  using namespace lather::test;
  const std::string tool = std::string(bin_dir) + "/lather-wsdl2cpp";
  const auto out =
      std::filesystem::temp_directory_path() / ("lather-wsse-sym-" + std::to_string(::getpid()));
  const run_result warned = run({tool, path_, "-o", out.string(), "-q"}, clock::now() + 60s);
  EXPECT_EQ(warned.exit, 0) << warned.out;
  EXPECT_NE(warned.out.find("warning: " + path_ +
                            ":13:5: WS-SecurityPolicy assertion sp:SymmetricBinding"),
            std::string::npos)
      << warned.out;
  const run_result strict =
      run({tool, path_, "-o", out.string(), "-q", "--strict-policy"}, clock::now() + 60s);
  EXPECT_EQ(strict.exit, 1) << strict.out;
  EXPECT_NE(strict.out.find(path_ +
                            ":13:5: WS-SecurityPolicy assertion sp:SymmetricBinding (policy "
                            "of binding Sym) is not implemented by lather::wsse (--strict-policy"),
            std::string::npos)
      << strict.out;
  std::filesystem::remove_all(out);
}

}  // namespace
