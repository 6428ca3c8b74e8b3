// lather/soap/error.hpp — error codes of the SOAP layer.
//
// One enum for the layer, wired into std::error_code. soap::fault_code_for() (fault.hpp) maps
// any of these (and xml::errc / bind::errc) onto the fault code a peer receives.
#pragma once

#include <system_error>

namespace lather::soap {

enum class errc : int {
  ok = 0,
  version_mismatch = 1,   ///< root is an Envelope in a namespace that is not SOAP 1.1 or 1.2
  not_an_envelope,        ///< root element is not {soap-env}Envelope
  missing_body,           ///< Envelope has no Body
  duplicate_body,         ///< a second Body
  duplicate_header,       ///< a second Header
  header_after_body,      ///< Header after Body (or not the first child of Envelope)
  content_after_body,     ///< an element after Body (BP R1011; forbidden by SOAP 1.2)
  unexpected_content,     ///< text or an element where the envelope grammar allows none
  must_understand,        ///< a mustUnderstand header targeted at us was not understood
  bad_must_understand,    ///< mustUnderstand value not 0/1 (1.1) or true/false/0/1 (1.2)
  data_encoding_unknown,  ///< encodingStyle this receiver does not support
  bad_fault,              ///< a Fault element this reader cannot make sense of
  bad_reference,          ///< SOAP-ENC id/href: dangling, duplicate id, non-local, cycle by value
  bad_array,              ///< SOAP-ENC array: bad arrayType, size mismatch, offset/position
  unexpected_element,     ///< an element the operation/style does not allow here
  missing_element,        ///< a required part or wrapper is absent
  limit_exceeded,         ///< an encoding limit (ids, array items) was exceeded
  unqualified_header,     ///< a header entry in no namespace (1.1 section 4.2.1, 1.2 part 1 5.2.1)
};

const std::error_category& category() noexcept;
inline std::error_code make_error_code(errc e) noexcept {
  return {static_cast<int>(e), category()};
}
/// Stable, short description of a code (also what category().message() returns).
const char* describe(errc e) noexcept;

}  // namespace lather::soap

template <>
struct std::is_error_code_enum<lather::soap::errc> : std::true_type {};
