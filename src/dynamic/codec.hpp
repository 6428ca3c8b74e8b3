// Values to XML and back along the runtime type model: one element at a time (value_writer,
// value_reader), whole messages of an operation (write_message, read_message), samples.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "lather/dynamic/client.hpp"
#include "lather/dynamic/value.hpp"
#include "types.hpp"

namespace lather::xml {
class reader;
class writer;
}  // namespace lather::xml

namespace lather::dynamic::detail {

/// The parts of one direction of an operation as its binding puts them on the wire.
struct message_shape {
  const wsdl::message* msg = nullptr;
  std::vector<const wsdl::part*> body;            ///< in message order
  std::vector<const wsdl::soap_header*> headers;  ///< header parts of this direction
  bool rpc = false, encoded = false;
  std::string rpc_ns, rpc_name;  ///< rpc: the wrapper element
  /// Document style with one body part: the value is that element's value (else an object
  /// by part name).
  bool single() const noexcept { return !rpc && body.size() == 1; }
};
message_shape shape_of(const operation_info& op, bool output);

/// "a: xsd:int, b?: Item[]": the members of the message's value.
std::string signature(const type_model& tm, const message_shape& m);

/// The whole envelope of one direction of `op`. Throws value_error. `more_headers` writes
/// header entries after the header parts (WS-Addressing's).
std::string write_message(const type_model& tm, const operation_info& op, bool output,
                          const value& body, const value& headers, soap::version v,
                          const std::function<void(xml::writer&)>& more_headers = {});

/// Read an envelope of one direction of `op` (faults throw fault_error; XML that is not a
/// SOAP envelope throws std::runtime_error). Problems are collected, never thrown.
call_result read_message(const type_model& tm, const operation_info& op, bool output,
                         std::string_view envelope);

/// The first Body child's qualified name of an envelope ("" ns and local when none).
wsdl::qname body_element(std::string_view envelope);

value sample_body(const type_model& tm, const message_shape& m);
value sample_headers(const type_model& tm, const message_shape& m);

}  // namespace lather::dynamic::detail
