// lather-wsdl2cpp: security.hpp, each binding's WS-SecurityPolicy as a lather::wsdl::binding
// that lather::wsse turns into the endpoint's and operations' policies, and the server_security
// and client_security made from it.
#include "generate_security.hpp"

#include <algorithm>
#include <set>

#include "generate_names.hpp"
#include "lather/wsdl/load.hpp"

namespace lather::wsdl::detail {

namespace {

// Statements setting what `p` holds on `target` (a security_policy), one a line.
std::string policy_statements(const std::string& target, const security_policy& p) {
  std::string out;
  auto flag = [&](bool on, const char* name) {
    if (on) out += "  " + target + "." + name + " = true;\n";
  };
  flag(p.username_token, "username_token");
  flag(p.hash_password, "hash_password");
  flag(p.x509_signature, "x509_signature");
  flag(p.transport, "transport");
  flag(p.include_timestamp, "include_timestamp");
  flag(p.sign_body, "sign_body");
  for (const qname& h : p.signed_headers)
    out += "  " + target + ".signed_headers.push_back({" + quote(h.ns) + ", " + quote(h.local) +
           "});\n";
  flag(p.encryption, "encryption");
  for (const policy_assertion& a : p.unsupported)
    out += "  " + target + ".unsupported.push_back({{" + quote(a.name.ns) + ", " +
           quote(a.name.local) + "}, {" + quote(a.where.file) + ", " +
           std::to_string(a.where.line) + ", " + std::to_string(a.where.column) + "}});\n";
  return out;
}

/// A base name for binding `local` whose three functions are all unused.
std::string function_base(const std::string& local, std::set<std::string>& used) {
  for (int i = 1;; ++i) {
    const std::string base = i == 1 ? local : joined(local, std::to_string(i));
    const std::string names[] = {joined(base, "security"), joined(base, "server_security"),
                                 joined(base, "client_security")};
    if (std::none_of(std::begin(names), std::end(names),
                     [&](const std::string& n) { return used.count(n) != 0; })) {
      used.insert(std::begin(names), std::end(names));
      return base;
    }
  }
}

// --strict-policy: an unsupported assertion is an error, at the first one.
void refuse_unsupported(const binding& b, const security_policy& p) {
  if (p.unsupported.empty()) return;
  const policy_assertion& a = p.unsupported.front();
  throw error(a.where, "WS-SecurityPolicy assertion sp:" + a.name.local + " (policy of binding " +
                           b.name.local +
                           ") is not implemented by lather::wsse (--strict-policy: refused)");
}

}  // namespace

std::string security_header(const generate_options& o, const model& m) {
  std::string functions;
  std::set<std::string> names;
  for (const binding* b : m.bindings()) {
    bool any = b->security.any();
    for (const binding_operation& op : b->operations) any |= op.security.any();
    if (!any || b->version == soap_version::none) continue;
    if (o.strict_policy) {
      refuse_unsupported(*b, b->security);
      for (const binding_operation& op : b->operations) refuse_unsupported(*b, op.security);
    }
    const std::string base = function_base(identifier(b->name.local), names);
    const std::string name = joined(base, "security");
    const std::string endpoint = policy_statements("b.security", b->security);
    functions += "\n/// WS-SecurityPolicy of binding " + b->name.str() +
                 " and of its operations.\ninline lather::wsdl::binding " + name +
                 "() {\n  lather::wsdl::binding b;\n  b.name = {" + quote(b->name.ns) + ", " +
                 quote(b->name.local) + "};\n" + endpoint + "  b.operations.resize(" +
                 std::to_string(b->operations.size()) + ");\n";
    for (std::size_t i = 0; i < b->operations.size(); ++i) {
      const binding_operation& op = b->operations[i];
      const std::string at = "b.operations[" + std::to_string(i) + "]";
      functions += "  " + at + ".name = " + quote(op.name) + ";\n";
      // Most operations have the binding's policy: said so, not repeated.
      if (policy_statements("b.security", op.security) == endpoint)
        functions += "  " + at + ".security = b.security;\n";
      else
        functions += policy_statements(at + ".security", op.security);
    }
    functions += "  return b;\n}\n";
    functions += "\n/// What binding " + b->name.local +
                 "'s policy requires of each request, to install() on the service\n"
                 "/// (std::invalid_argument for a policy lather::wsse cannot satisfy).\n"
                 "inline std::unique_ptr<lather::wsse::server_security> " +
                 joined(base, "server_security") + "(lather::wsse::password_lookup lookup) {\n" +
                 "  return lather::wsse::server_security_for(" + name +
                 "(), std::move(lookup));\n}\n" + "\n/// What binding " + b->name.local +
                 "'s policy has a client send, with `mine`, to install() on the client\n"
                 "/// (std::invalid_argument for a policy lather::wsse cannot satisfy or missing "
                 "credentials).\n"
                 "inline lather::wsse::client_security " +
                 joined(base, "client_security") +
                 "(const lather::wsse::policy_credentials& mine) {\n" +
                 "  return lather::wsse::client_security_for(" + name + "(), mine);\n}\n";
  }
  if (functions.empty()) return {};
  return "// Generated by lather-wsdl2cpp: do not edit.\n"
         "// The contract's WS-SecurityPolicy per binding, and lather::wsse's security made from "
         "it\n"
         "// (lather/wsse/policy.hpp):\n"
         "//   auto sec = <Binding>_server_security(lookup);  // then sec->install(service)\n"
         "//   <Binding>_client_security({user, key}).install(client);\n"
         "#pragma once\n\n#include <memory>\n#include <utility>\n\n"
         "#include \"lather/wsdl/model.hpp\"\n#include \"lather/wsse/policy.hpp\"\n\nnamespace " +
         o.cpp_namespace + " {\n" + functions + "\n}  // namespace " + o.cpp_namespace + "\n";
}

}  // namespace lather::wsdl::detail
