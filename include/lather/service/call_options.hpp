// lather/service/call_options.hpp — the per-call settings of lather::client (client.hpp), in a
// header of their own: light enough for lather-wsdl2cpp's port type headers, whose inline
// forms take them by value.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lather/soap/style.hpp"

namespace lather {

namespace xml {
class reader;
class writer;
}  // namespace xml
namespace soap {
struct header_info;
enum class header_use : std::uint8_t;  // lather/soap/envelope.hpp
}  // namespace soap

/// Per-call settings. Every member has a default, so designated initializers may name any of
/// them (`client.call(op, req, resp, {.timeout = 2s})`).
struct call_options {
  soap::style style = soap::style::document_wrapped;
  std::string soap_action{};  ///< SOAPAction / action parameter ("" = empty)
  /// The WS-Addressing Action the contract gives the operation (wsam:Action, or the default
  /// action pattern where the WSDL requires addressing); "" = none. Only a layer that writes
  /// WS-Addressing headers (lather::wsa) uses it; generated proxies fill it.
  std::string action{};
  /// The WS-Addressing Action of the operation's response in the contract ("" = none): what
  /// lather::wsa checks a response's Action against.
  std::string response_action{};
  std::string request_element{};   ///< default: operation name (bare: the type name)
  std::string response_element{};  ///< informational: the response wrapper is not name-checked
  std::string response_ns{};       ///< informational, as response_element ("" = element_ns)
  std::string element_ns{};        ///< default: the request type's namespace
  /// SOAP header entries to send (each writes one element).
  std::vector<std::function<void(xml::writer&)>> headers{};
  /// Offered each SOAP header entry of the response (a fault's too) before any interceptor:
  /// the response's headers as this caller sees them. Return header_use::consumed after
  /// reading the entry through its end tag, understood to skip it, not_understood to leave it
  /// to the interceptors (a mustUnderstand entry nobody understands is a MustUnderstand
  /// fault).
  std::function<soap::header_use(const soap::header_info&, xml::reader&)> read_header{};
  /// Takes an HTTP 202 Accepted answer: the peer accepted the request and sends no response
  /// on this connection (WS-Addressing: the reply goes to a non-anonymous ReplyTo, or nowhere
  /// for ReplyTo none). The call then calls it and returns, the response left as it was; a
  /// body the 202 carries is not read. Unset: a 202 fails the call with client_error.
  /// (lather::wsa::call::options sets it: wsa::call::accepted.)
  std::function<void()> on_accepted{};
  /// Deadline for this call (pool wait, connect, write, response); 0 = the client's
  /// call_timeout. Expiry throws http::error (errc::call_timeout).
  std::chrono::milliseconds timeout{0};
};

}  // namespace lather
