// lather-wsdl2cpp: the contract's WS-SecurityPolicy as C++, for lather::wsse.
#pragma once

#include <string>

#include "lather/wsdl/generate.hpp"
#include "lather/wsdl/model.hpp"

namespace lather::wsdl::detail {

/// A header defining, per SOAP binding with WS-SecurityPolicy (on it or on an operation),
/// `lather::wsdl::binding <Binding>_security()`: the binding's name and policy and each
/// operation's, what lather::wsse::server_policy_from / client_policy_from and configure()
/// (lather/wsse/policy.hpp) take; and `<Binding>_server_security(lookup)`,
/// `<Binding>_client_security(credentials)`: lather::wsse's server and client security made
/// from it. "" when no binding has any. With o.strict_policy an unsupported assertion throws
/// wsdl::error at its position.
std::string security_header(const generate_options& o, const model& m);

}  // namespace lather::wsdl::detail
