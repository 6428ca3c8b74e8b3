// WS-SecurityPolicy assertions of a contract as lather::wsse policies.
#include "lather/wsse/policy.hpp"

#include <stdexcept>

namespace lather::wsse {

namespace {

std::vector<soap::qname> headers_of(const wsdl::security_policy& p) {
  std::vector<soap::qname> out;
  for (const wsdl::qname& h : p.signed_headers) out.push_back({h.ns, h.local, {}});
  return out;
}

bool same(const wsdl::security_policy& a, const wsdl::security_policy& b) {
  return a.username_token == b.username_token && a.hash_password == b.hash_password &&
         a.x509_signature == b.x509_signature && a.include_timestamp == b.include_timestamp &&
         a.signed_headers == b.signed_headers && a.unsupported == b.unsupported;
}

// As CXF does with a policy none of whose alternatives it can satisfy: refuse it, rather than
// run the endpoint with less protection than its contract asks for.
void refuse_unsupported(const wsdl::security_policy& p) {
  if (p.unsupported.empty()) return;
  std::string what =
      "the contract's WS-SecurityPolicy asks for what lather::wsse does not "
      "implement:";
  constexpr std::size_t shown = 4;
  for (std::size_t i = 0; i < p.unsupported.size() && i < shown; ++i)
    what += " sp:" + p.unsupported[i].name.local + " (" + p.unsupported[i].where.str() + ")";
  if (p.unsupported.size() > shown)
    what += " and " + std::to_string(p.unsupported.size() - shown) + " more";
  throw std::invalid_argument(what);
}

}  // namespace

server_policy server_policy_from(const wsdl::security_policy& p) {
  refuse_unsupported(p);
  server_policy s;
  s.username_token = p.username_token;
  // sp:HashPassword: only a PasswordDigest; without it the profile sends the password as text
  // (digests are accepted too: they reveal less).
  s.allow_text = !p.hash_password;
  s.timestamp = p.include_timestamp;
  s.signature = p.x509_signature;
  if (p.x509_signature) s.signed_headers = headers_of(p);
  return s;
}

client_policy client_policy_from(const wsdl::security_policy& p, const policy_credentials& mine) {
  refuse_unsupported(p);
  client_policy c;
  if (p.username_token) {
    if (!mine.user)
      throw std::invalid_argument("the contract's policy asks for a UsernameToken: no user given");
    c.token = *mine.user;
    c.token->type = p.hash_password ? password_type::digest : password_type::text;
  }
  c.timestamp = p.include_timestamp;
  if (p.x509_signature) {
    if (!mine.key)
      throw std::invalid_argument("the contract's policy asks for a signature: no key given");
    c.sign = *mine.key;
    c.sign->options.timestamp = p.include_timestamp;
    c.sign->options.headers = headers_of(p);
  }
  return c;
}

void configure(server_security& sec, const wsdl::binding& b) {
  for (const wsdl::binding_operation& op : b.operations)
    if (!same(op.security, b.security)) sec.operation(op.name, server_policy_from(op.security));
}

void configure(client_security& sec, const wsdl::binding& b, const policy_credentials& mine) {
  for (const wsdl::binding_operation& op : b.operations)
    if (!same(op.security, b.security))
      sec.operation(op.name, client_policy_from(op.security, mine));
}

std::unique_ptr<server_security> server_security_for(const wsdl::binding& b,
                                                     password_lookup lookup) {
  auto sec = std::make_unique<server_security>(std::move(lookup), server_policy_from(b.security));
  configure(*sec, b);
  return sec;
}

client_security client_security_for(const wsdl::binding& b, const policy_credentials& mine) {
  client_security sec{client_policy_from(b.security, mine)};
  configure(sec, b, mine);
  return sec;
}

}  // namespace lather::wsse
