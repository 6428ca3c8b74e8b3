// lather/wsse/fault.hpp — WS-Security namespaces and the faults of WSS 1.0/1.1 (section 12).
//
// Every security failure a lather server detects is one of these, sent with the spec's fixed
// reason text and nothing else: which check failed beyond the code (which user, which nonce,
// how far off the clock) would help an attacker, so it is never in the fault.
//   SOAP 1.1: <faultcode>wsse:FailedAuthentication</faultcode>
//   SOAP 1.2: Code env:Sender, Subcode wsse:FailedAuthentication
#pragma once

#include <string_view>

#include "lather/soap/fault.hpp"

namespace lather::wsse {

inline constexpr std::string_view wsse_ns =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";
inline constexpr std::string_view wsu_ns =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
/// WSS 1.1 extensions (wsse11:).
inline constexpr std::string_view wsse11_ns =
    "http://docs.oasis-open.org/wss/oasis-wss-wssecurity-secext-1.1.xsd";
inline constexpr std::string_view password_text_uri =
    "http://docs.oasis-open.org/wss/2004/01/"
    "oasis-200401-wss-username-token-profile-1.0#PasswordText";
inline constexpr std::string_view password_digest_uri =
    "http://docs.oasis-open.org/wss/2004/01/"
    "oasis-200401-wss-username-token-profile-1.0#PasswordDigest";
inline constexpr std::string_view base64_encoding_uri =
    "http://docs.oasis-open.org/wss/2004/01/"
    "oasis-200401-wss-soap-message-security-1.0#Base64Binary";

/// The fault codes of WS-Security 1.1 (SOAP Message Security, section 12), all in wsse_ns.
enum class fault_code {
  unsupported_security_token,  ///< UnsupportedSecurityToken
  unsupported_algorithm,       ///< UnsupportedAlgorithm
  invalid_security,            ///< InvalidSecurity: the Security header could not be processed
  invalid_security_token,      ///< InvalidSecurityToken
  failed_authentication,       ///< FailedAuthentication
  failed_check,                ///< FailedCheck: signature or decryption invalid
  security_token_unavailable,  ///< SecurityTokenUnavailable
  message_expired,             ///< MessageExpired
};

/// Local name of the code in wsse_ns ("FailedAuthentication", ...).
std::string_view fault_code_name(fault_code c) noexcept;
/// The spec's reason text for the code ("The message has expired", ...).
std::string_view fault_reason(fault_code c) noexcept;
/// The fault for a code: a Client/Sender fault whose code (SOAP 1.1) or subcode (SOAP 1.2) is
/// wsse:<code>, with the spec's reason and no detail.
soap::fault make_fault(fault_code c);
/// Throw soap::fault_error(make_fault(c)).
[[noreturn]] void throw_fault(fault_code c);
/// The WS-Security code of a fault received (SOAP 1.1 code or 1.2 subcode in wsse_ns), if any:
/// lets a client tell MessageExpired (fix the clock offset, retry) from FailedAuthentication.
bool is_fault(const soap::fault& f, fault_code c) noexcept;

}  // namespace lather::wsse
