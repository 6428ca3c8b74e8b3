// lather/wsa/fault.hpp — the faults of WS-Addressing (1.0 SOAP Binding section 6.4; the
// 2004/08 submission's section 4), in SOAP 1.1 and 1.2 form.
//
//   SOAP 1.2: Code env:Sender, Subcode wsa:InvalidAddressingHeader, Subcode wsa:InvalidCardinality;
//             the detail (wsa:ProblemHeaderQName, ...) also in a wsa:FaultDetail header
//   SOAP 1.1: <faultcode>wsa:InvalidAddressingHeader</faultcode>, the detail in <detail>
// The 2004/08 names differ (InvalidMessageInformationHeader, MessageInformationHeaderRequired);
// each fault is written in the version of the request it answers.
#pragma once

#include <string_view>

#include "lather/soap/fault.hpp"
#include "lather/wsa/addressing.hpp"

namespace lather::wsa {

enum class fault_kind : std::uint8_t {
  invalid_header,           ///< InvalidAddressingHeader (2004/08: InvalidMessageInformationHeader)
  header_required,          ///< MessageAddressingHeaderRequired (MessageInformationHeaderRequired)
  destination_unreachable,  ///< DestinationUnreachable: no route to [destination]
  action_not_supported,     ///< ActionNotSupported: the [action] cannot be processed here
  endpoint_unavailable,     ///< EndpointUnavailable (a Receiver fault)
};

/// The more precise subcode of an InvalidAddressingHeader (1.0 only).
enum class invalid_reason : std::uint8_t {
  none,
  invalid_address,                   ///< InvalidAddress
  invalid_epr,                       ///< InvalidEPR
  invalid_cardinality,               ///< InvalidCardinality: a header twice (or both versions)
  missing_address_in_epr,            ///< MissingAddressInEPR
  duplicate_message_id,              ///< DuplicateMessageID
  action_mismatch,                   ///< ActionMismatch: SOAPAction differs from wsa:Action
  only_anonymous_address_supported,  ///< OnlyAnonymousAddressSupported
  only_non_anonymous_address_supported,
};

/// What a fault is about: the header at fault (ProblemHeaderQName, e.g. "Action" in the
/// version's namespace), the action refused (ProblemAction) or the IRI (ProblemIRI).
struct problem {
  std::string_view header;
  std::string_view action;
  std::string_view iri;
};

/// The local name of a fault's code in version `v` ("InvalidAddressingHeader", ...).
std::string_view fault_code_name(fault_kind k, version v) noexcept;
/// The fault: Sender (EndpointUnavailable: Receiver) with the WS-Addressing code as SOAP 1.1
/// faultcode and SOAP 1.2 Subcode (then the `reason` subcode, 1.0 only), the spec's reason,
/// and the problem as detail.
soap::fault make_fault(fault_kind k, version v, invalid_reason reason = invalid_reason::none,
                       const problem& p = {});
[[noreturn]] void throw_fault(fault_kind k, version v, invalid_reason reason = invalid_reason::none,
                              const problem& p = {});
/// A fault received is this WS-Addressing fault (either version; 1.1 code or 1.2 subcode).
bool is_fault(const soap::fault& f, fault_kind k) noexcept;
/// A fault received has this InvalidAddressingHeader subcode (SOAP 1.2 only carries it).
bool is_fault(const soap::fault& f, invalid_reason r) noexcept;

}  // namespace lather::wsa
