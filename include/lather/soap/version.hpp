// lather/soap/version.hpp — SOAP 1.1 / 1.2: namespaces, content types, roles.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lather::soap {

enum class version : std::uint8_t { soap11, soap12 };

inline constexpr std::string_view soap11_envelope_ns = "http://schemas.xmlsoap.org/soap/envelope/";
inline constexpr std::string_view soap12_envelope_ns = "http://www.w3.org/2003/05/soap-envelope";
/// SOAP 1.1 section 5 encoding (SOAP-ENC): the only encodingStyle lather decodes.
inline constexpr std::string_view soap11_encoding_ns = "http://schemas.xmlsoap.org/soap/encoding/";
inline constexpr std::string_view soap12_encoding_ns = "http://www.w3.org/2003/05/soap-encoding";
inline constexpr std::string_view xsi_ns = "http://www.w3.org/2001/XMLSchema-instance";
inline constexpr std::string_view xsd_ns = "http://www.w3.org/2001/XMLSchema";
inline constexpr std::string_view xml_ns = "http://www.w3.org/XML/1998/namespace";
/// Apache SOAP types (apachesoap:Map).
inline constexpr std::string_view apache_soap_ns = "http://xml.apache.org/xml-soap";

/// Actor / role URIs. 1.1 knows only "next"; an absent actor means the ultimate receiver.
inline constexpr std::string_view soap11_actor_next = "http://schemas.xmlsoap.org/soap/actor/next";
inline constexpr std::string_view soap12_role_next =
    "http://www.w3.org/2003/05/soap-envelope/role/next";
inline constexpr std::string_view soap12_role_none =
    "http://www.w3.org/2003/05/soap-envelope/role/none";
inline constexpr std::string_view soap12_role_ultimate_receiver =
    "http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver";

constexpr std::string_view envelope_ns(version v) noexcept {
  return v == version::soap11 ? soap11_envelope_ns : soap12_envelope_ns;
}
/// The conventional envelope prefix lather writes ("soap" for 1.1, "env" for 1.2).
constexpr std::string_view envelope_prefix(version v) noexcept {
  return v == version::soap11 ? "soap" : "env";
}
/// Version of an Envelope element namespace, nullopt for anything else (VersionMismatch).
constexpr std::optional<version> version_from_namespace(std::string_view ns) noexcept {
  if (ns == soap11_envelope_ns) return version::soap11;
  if (ns == soap12_envelope_ns) return version::soap12;
  return std::nullopt;
}

/// Media type without parameters: "text/xml" (1.1) or "application/soap+xml" (1.2).
constexpr std::string_view media_type(version v) noexcept {
  return v == version::soap11 ? "text/xml" : "application/soap+xml";
}
/// content_type(v) without an action, as a constant (no string built per message).
constexpr std::string_view content_type_utf8(version v) noexcept {
  return v == version::soap11 ? "text/xml; charset=utf-8" : "application/soap+xml; charset=utf-8";
}
/// Content-Type header value. 1.1: `text/xml; charset=utf-8` (the action travels in the
/// SOAPAction header, see soap_action_header); 1.2: `application/soap+xml; charset=utf-8`
/// plus `; action="..."` when `action` is not empty.
std::string content_type(version v, std::string_view action = {});
/// content_type() into `out` (replacing its text): a reused string builds it without allocating.
void assign_content_type(std::string& out, version v, std::string_view action = {});
/// SOAPAction header value for 1.1: the action in double quotes (`""` when empty).
std::string soap_action_header(std::string_view action);
/// soap_action_header() into `out` (replacing its text).
void assign_soap_action_header(std::string& out, std::string_view action);

/// What a receiver learns from the HTTP headers.
struct content_type_info {
  version ver = version::soap11;
  std::string action;  ///< 1.2 action parameter (unquoted), empty if none
};
/// Parse a Content-Type header: text/xml -> 1.1, application/soap+xml -> 1.2 (case-insensitive,
/// parameters in any order, quoted or not). nullopt for other media types.
std::optional<content_type_info> parse_content_type(std::string_view header);
/// SOAPAction header value with surrounding quotes removed (SOAP::Lite sends it unquoted).
std::string_view unquote_soap_action(std::string_view header) noexcept;

}  // namespace lather::soap
