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
         a.signed_headers == b.signed_headers;
}

}  // namespace

server_policy server_policy_from(const wsdl::security_policy& p) {
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

}  // namespace lather::wsse
