#include "lather/wsse/fault.hpp"

#include <array>

namespace lather::wsse {

namespace {

struct code_text {
  std::string_view name, reason;
};

// WS-Security 1.1, SOAP Message Security, section 12 (tables of fault codes and strings).
constexpr std::array<code_text, 8> codes = {{
    {"UnsupportedSecurityToken", "An unsupported token was provided"},
    {"UnsupportedAlgorithm", "An unsupported signature or encryption algorithm was used"},
    {"InvalidSecurity", "An error was discovered processing the <wsse:Security> header"},
    {"InvalidSecurityToken", "An invalid security token was provided"},
    {"FailedAuthentication", "The security token could not be authenticated or authorized"},
    {"FailedCheck", "The signature or decryption was invalid"},
    {"SecurityTokenUnavailable", "Referenced security token could not be retrieved"},
    {"MessageExpired", "The message has expired"},
}};

}  // namespace

std::string_view fault_code_name(fault_code c) noexcept {
  return codes[static_cast<std::size_t>(c)].name;
}

std::string_view fault_reason(fault_code c) noexcept {
  return codes[static_cast<std::size_t>(c)].reason;
}

soap::fault make_fault(fault_code c) {
  soap::fault f;
  f.code = soap::fault_code::sender;
  soap::qname q{std::string(wsse_ns), std::string(fault_code_name(c)), "wsse"};
  f.subcodes.push_back(q);         // SOAP 1.2: Subcode wsse:<code>
  f.received_code = std::move(q);  // SOAP 1.1: faultcode wsse:<code>
  f.reason = std::string(fault_reason(c));
  return f;
}

void throw_fault(fault_code c) {
  throw soap::fault_error(make_fault(c));
}

bool is_fault(const soap::fault& f, fault_code c) noexcept {
  auto matches = [c](const soap::qname& q) {
    return q.ns == wsse_ns && q.local == fault_code_name(c);
  };
  if (matches(f.received_code)) return true;
  for (const soap::qname& s : f.subcodes)
    if (matches(s)) return true;
  return false;
}

}  // namespace lather::wsse
