// lather/wsa/addressing.hpp — WS-Addressing: namespaces, endpoint references and the message
// addressing properties of one message.
//
// Two versions are spoken: WS-Addressing 1.0 (W3C, http://www.w3.org/2005/08/addressing) and
// the 2004/08 member submission (http://schemas.xmlsoap.org/ws/2004/08/addressing) that WSE,
// older WCF bindings and some devices still send. A message uses one of them; the answer to a
// request uses the request's.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lather/soap/capture.hpp"
#include "lather/soap/version.hpp"

namespace lather::xml {
class reader;
class writer;
}  // namespace lather::xml

namespace lather::wsa {

enum class version : std::uint8_t {
  v1_0,          ///< WS-Addressing 1.0 (W3C Recommendation, 2006)
  submission04,  ///< WS-Addressing member submission, 2004/08
};

inline constexpr std::string_view ns_1_0 = "http://www.w3.org/2005/08/addressing";
inline constexpr std::string_view ns_2004 = "http://schemas.xmlsoap.org/ws/2004/08/addressing";
/// WS-Addressing 1.0: a message that expects no reply (ReplyTo/FaultTo).
inline constexpr std::string_view none_address = "http://www.w3.org/2005/08/addressing/none";
/// The Action of a fault defined by SOAP itself (MustUnderstand, VersionMismatch, a fault the
/// contract does not declare), WS-Addressing 1.0 SOAP Binding 6.
inline constexpr std::string_view soap_fault_action =
    "http://www.w3.org/2005/08/addressing/soap/fault";

/// The namespace of a version.
std::string_view namespace_of(version v) noexcept;
/// The version whose namespace `ns` is; nullopt for any other namespace.
std::optional<version> version_of(std::string_view ns) noexcept;
/// The anonymous address: "answer on the back channel" (the HTTP response).
std::string_view anonymous_address(version v) noexcept;
/// The RelatesTo relationship of a reply (the default when RelatesTo has no type).
std::string_view reply_relationship(version v) noexcept;
/// The Action of WS-Addressing's own faults.
std::string_view fault_action(version v) noexcept;

/// An endpoint reference (EPR): where to send, and the reference parameters that must go
/// with every message sent there (ONVIF's subscription id, WCF's instance id).
struct endpoint_reference {
  std::string address;
  /// Each one element as self-contained XML text (namespaces declared on it). Sent as SOAP
  /// header entries marked wsa:IsReferenceParameter="true" (1.0); 2004/08 reference
  /// properties are read into this list too.
  std::vector<std::string> reference_parameters;
};

/// Read the EPR whose start tag the reader is on (wsa:ReplyTo, or an EPR in a response body
/// such as ONVIF's SubscriptionReference) through its end tag, children in either version's
/// namespace. Address, ReferenceParameters (and 2004/08 ReferenceProperties) are read;
/// Metadata and extensions are skipped. Throws std::invalid_argument for an EPR without
/// Address or with two of them, or text that is not XML. `in_scope`: the namespace bindings in
/// scope at the EPR (so captured parameters keep QName values resolvable).
endpoint_reference read_endpoint_reference(xml::reader& r,
                                           std::span<const soap::namespace_binding> in_scope = {});
/// The same from an EPR as XML text (e.g. a generated EndpointReferenceType written out, or
/// an xsd:any captured by the binding).
endpoint_reference parse_endpoint_reference(std::string_view xml);
/// Write `epr` as the element {ns}local (wsa:ReplyTo, ...) in version `v`'s form.
void write_endpoint_reference(xml::writer& w, version v, std::string_view ns,
                              std::string_view local, const endpoint_reference& epr);
/// Write one reference parameter (XML text) as a SOAP header entry: the element copied, with
/// wsa:IsReferenceParameter="true" added for 1.0 (2004/08 has no such marker).
void write_reference_parameter(xml::writer& w, version v, std::string_view xml);
/// The text content of a reference parameter's XML ("abc" for <s:Id>abc</s:Id>), its
/// namespace and local name. nullopt if it is not one element of text.
struct parameter_value {
  std::string ns, local, text;
};
std::optional<parameter_value> parameter_of(std::string_view xml);

/// One RelatesTo: the MessageID of the message this one answers, and how ("" = reply).
struct relationship {
  std::string message_id;
  std::string type;
};

/// The WS-Addressing headers of one message (message addressing properties).
struct headers {
  /// The version the headers used; nullopt: the message had none.
  std::optional<version> ver;
  std::string to, action, message_id;
  std::vector<relationship> relates_to;
  std::optional<endpoint_reference> reply_to, fault_to, from;
  /// Header entries marked wsa:IsReferenceParameter="true", each as XML text.
  std::vector<std::string> reference_parameters;
  /// The children of a SOAP 1.2 fault's wsa:FaultDetail header (ProblemHeaderQName, ...).
  std::vector<std::string> fault_detail;
  void clear();
  /// The RelatesTo of relationship reply ("" when none).
  std::string_view reply_to_message() const noexcept;
};

/// The WS-Addressing headers of a request, for a writer that does not go through
/// client_addressing (lather::dynamic_client): Action, MessageID, To and, in 2004/08 where a
/// request expecting a reply must have one, an anonymous ReplyTo.
struct request_headers {
  std::string_view action, message_id, to;
};
/// Write them as SOAP header entries (inside the Header) of a `sv` envelope, in version `v`.
void write_request_headers(xml::writer& w, soap::version sv, version v, const request_headers& h);
/// The WS-Addressing headers of a SOAP envelope given as text (the Header only is read).
/// Throws soap::fault_error: InvalidAddressingHeader for a header twice or both versions
/// mixed, as a service would; the envelope reader's faults for text that is not an envelope.
headers read_headers(std::string_view envelope);

/// A fresh MessageID: `prefix` followed by a random (version 4) UUID, e.g.
/// "urn:uuid:0f8fad5b-d9cb-469f-a165-70867728950e". Some devices want the prefix "uuid:".
std::string new_message_id(std::string_view prefix = "urn:uuid:");

}  // namespace lather::wsa
