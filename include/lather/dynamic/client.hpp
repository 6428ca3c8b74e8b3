// lather/dynamic/client.hpp — call any SOAP operation of a WSDL with no generated code.
//
//   lather::dynamic_client c{"service.wsdl"};             // lather::wsdl::load, offline
//   for (const lather::dynamic::operation_info& op : c.operations())
//     std::cout << op.name << "(" << op.input_signature << ")\n";
//   auto in = lather::dynamic::value::from_json(R"({"a": 1, "b": "x"})");
//   lather::dynamic::call_result r = c.call("add", in);  // throws dynamic::fault_error
//   std::cout << r.body.to_json(2);
//
// The contract is read by lather::wsdl::load (the reader behind lather-wsdl2cpp); messages are
// written and read by walking its schema types at run time (see lather/dynamic/value.hpp for
// how XML maps onto values). Styles: document/literal (wrapped and bare), rpc/literal and
// rpc/encoded (xsi:type on every accessor, SOAP-ENC arrays; values inline on the way out,
// SOAP 1.1 href and SOAP 1.2 enc:ref graphs resolved on the way in), SOAP 1.1 and 1.2.
// docs/lather-call.md shows it through the lather-call tool.
//
// An operation's input value: document style with one body part: that element's value (for a
// wrapped operation, the object of its parameters); otherwise an object with one member per
// body part, by part name. SOAP header parts go in call_options::headers by part name. The
// output has the same shape. A value that does not fit the schema throws value_error naming
// the path and the expected type; a response that does not fit is returned with `problems`.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "lather/dynamic/value.hpp"
#include "lather/http/client.hpp"
#include "lather/soap/fault.hpp"
#include "lather/soap/version.hpp"
#include "lather/wsa/addressing.hpp"
#include "lather/wsdl/load.hpp"
#include "lather/wsdl/model.hpp"

namespace lather::dynamic {

/// One operation of one SOAP port (an operation bound by several ports is listed per port).
struct operation_info {
  std::string name;
  std::string service, port;  ///< local name of the service, name of the port
  std::string address;        ///< the port's soap:address
  soap::version version = soap::version::soap11;
  bool rpc = false;      ///< rpc style (else document)
  bool encoded = false;  ///< use="encoded" (else literal)
  bool one_way = false;  ///< no output message
  std::string soap_action;
  /// "a: xsd:int, b: xsd:string[], c?: Item" (? optional, [] repeated); output likewise.
  std::string input_signature, output_signature;
  const wsdl::binding* binding = nullptr;
  const wsdl::binding_operation* op = nullptr;
};

/// A value that does not fit an operation's schema: "/op/id: "x" is not a valid xsd:int".
class value_error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// A SOAP fault answered to a dynamic call, with its detail read by the operation's fault
/// messages (an object by element local name; raw XML under "_any" for unknown detail).
class fault_error : public soap::fault_error {
 public:
  fault_error(soap::fault f, value detail)
      : soap::fault_error(std::move(f)), detail_(std::move(detail)) {}
  const value& detail() const noexcept { return detail_; }

 private:
  value detail_;
};

/// The answer, and where it does not fit the schema ("/Envelope/Body/r/n: "x" is not a valid
/// xsd:int"); a call never hides a mismatch nor fails on one.
struct call_result {
  value body;
  value headers;  ///< header parts present in the response, by part name
  std::vector<std::string> problems;
  /// Header entries of the response that are no header part of the operation, skipped (not in
  /// `headers`): "{ns}local" each, in order. The WS-Addressing headers of a call with
  /// call_options::addressing are read into `addressing` instead and not listed.
  std::vector<std::string> skipped_headers;
  std::string envelope;  ///< the response as received
  /// Calls with call_options::addressing: the MessageID sent and the response's WS-Addressing
  /// headers (a response with no RelatesTo to it, or another Action than the contract's
  /// output Action, is listed in `problems`).
  std::string message_id;
  wsa::headers addressing;
};

struct client_options {
  wsdl::load_options load{};               ///< catalogs for offline imports
  http::client_options http{};             ///< timeouts, TLS, Basic auth
  std::optional<soap::version> version{};  ///< send this version (default: the port's)
  std::string address{};                   ///< send here instead of the port's soap:address
  /// Sees each request and response as sent and received: ("request", its head as the HTTP
  /// client sent it, then the body) and ("response", the status line, every header field in
  /// order, a blank line, the body); lines end in "\n". Also for a status the call refuses.
  std::function<void(std::string_view what, std::string_view text)> trace{};
};

struct call_options {
  std::string port{};  ///< the port whose operation to call ("" = the first port that has it)
  value headers{};     ///< SOAP header parts by part name
  std::chrono::milliseconds timeout{0};  ///< 0 = client_options::http.call_timeout
  /// Send WS-Addressing headers in this version: Action (`action`, else the contract's input
  /// Action, wsam:Action / wsaw:Action or the default pattern, else the SOAPAction), a fresh
  /// MessageID, To (the address called). Unset: none.
  std::optional<wsa::version> addressing{};
  std::string action{};
};

class dynamic_client {
 public:
  /// Load `wsdl` (and what it imports) offline. Throws wsdl::error ("file:line:column: ...").
  explicit dynamic_client(const std::string& wsdl, client_options options = {});
  /// Use a model already loaded (shared with other clients or a mock server).
  explicit dynamic_client(std::shared_ptr<const wsdl::model> model, client_options options = {});
  ~dynamic_client();
  dynamic_client(const dynamic_client&) = delete;
  dynamic_client& operator=(const dynamic_client&) = delete;

  const wsdl::model& model() const noexcept;
  /// Every operation of every port bound with SOAP, by service, port and binding order.
  std::span<const operation_info> operations() const noexcept;
  /// The operation (on `port` when not empty); std::invalid_argument when there is none, whose
  /// message lists the names nearest to the one asked for.
  const operation_info& find(std::string_view operation, std::string_view port = {}) const;

  /// Send `input` to the operation and return its answer. Throws value_error (input does not
  /// fit), fault_error (SOAP fault), http::error (transport), std::runtime_error (an answer
  /// that is not a SOAP envelope).
  call_result call(std::string_view operation, const value& input, const call_options& o = {});
  call_result call(const operation_info& op, const value& input, const call_options& o = {});

  /// The request envelope call() would send (no network).
  std::string request(const operation_info& op, const value& input,
                      const value& headers = {}) const;
  /// The response envelope a service would answer (the mock server writes these), in
  /// `version` (default: as request() would send).
  std::string response(const operation_info& op, const value& output, const value& headers = {},
                       std::optional<soap::version> version = {}) const;
  /// Read a response envelope as call() does (faults throw fault_error).
  call_result read_response(const operation_info& op, std::string_view envelope) const;
  /// Check a request or response envelope of any operation against the schemas: every
  /// problem with its path; empty when it fits.
  std::vector<std::string> validate(std::string_view envelope) const;
  /// The operation whose input (or, `output`, output) is this envelope; nullptr if none.
  const operation_info* match(std::string_view envelope, bool* output = nullptr) const;

  /// Sample values (required members only, one item per array, the first choice branch),
  /// built from lather::wsdl::sample_value for the simple types.
  value sample_input(const operation_info& op) const;
  value sample_output(const operation_info& op) const;
  /// The header values of the sample messages (required header parts).
  value sample_input_headers(const operation_info& op) const;
  value sample_output_headers(const operation_info& op) const;

 private:
  void check_addressing(const operation_info& op, std::string message_id, call_result& r) const;

  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace lather::dynamic

namespace lather {
using dynamic::dynamic_client;
}
