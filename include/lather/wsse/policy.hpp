// lather/wsse/policy.hpp — WS-Security policies from a contract's WS-SecurityPolicy: what a
// binding's operations require (lather::wsdl::security_policy, read by lather::wsdl::load) as
// lather::wsse server and client policies.
//
//   auto contract = lather::wsdl::load({"device.wsdl"});
//   const lather::wsdl::binding& b = *contract.services()[0].ports[0].binding;
//   lather::wsse::server_security sec{lookup, lather::wsse::server_policy_from(b.security)};
//   lather::wsse::configure(sec, b);          // operations whose policy differs
//   lather::wsse::client_security csec{lather::wsse::client_policy_from(b.security, mine)};
//   lather::wsse::configure(csec, b, mine);
//
// Or in one step (what a generated security.hpp's <Binding>_server_security() does):
//   auto sec = lather::wsse::server_security_for(b, lookup);  sec->install(svc);
//
// Mapped: sp:UsernameToken (PasswordDigest with sp:HashPassword, else PasswordText),
// sp:AsymmetricBinding with X.509 tokens (a signature of the Body, and of the Timestamp with
// sp:IncludeTimestamp), sp:IncludeTimestamp, sp:SignedParts headers. Not mapped:
// sp:TransportBinding (the transport's business: use https). Refused (std::invalid_argument,
// naming each assertion and where it is written): a policy with assertions lather::wsse does not
// implement (security_policy::unsupported: sp:SymmetricBinding, encryption, ...), as CXF refuses
// a policy it cannot satisfy.
#pragma once

#include <memory>
#include <optional>

#include "lather/wsdl/model.hpp"
#include "lather/wsse/client.hpp"
#include "lather/wsse/server.hpp"

namespace lather::wsse {

/// What a client sends when a policy asks for it: its user and password, its signing key.
struct policy_credentials {
  std::optional<username_token> user{};  ///< its `type` is set from the policy
  std::optional<signing> key{};
};

/// What the server must require of a request under `p`; throws std::invalid_argument when `p`
/// has unsupported assertions.
server_policy server_policy_from(const wsdl::security_policy& p);
/// What the client must send under `p`, with `mine`; throws std::invalid_argument when `p`
/// asks for a token `mine` lacks or has unsupported assertions.
client_policy client_policy_from(const wsdl::security_policy& p, const policy_credentials& mine);

/// Give `sec` the policy of each operation of `b` whose WS-SecurityPolicy differs from the
/// binding's (before install()).
void configure(server_security& sec, const wsdl::binding& b);
void configure(client_security& sec, const wsdl::binding& b, const policy_credentials& mine);

/// A server_security with `b`'s policy and its operations' (install() it on the service).
std::unique_ptr<server_security> server_security_for(const wsdl::binding& b,
                                                     password_lookup lookup);
/// A client_security with `b`'s policy and its operations', sending `mine`.
client_security client_security_for(const wsdl::binding& b, const policy_credentials& mine);

}  // namespace lather::wsse
