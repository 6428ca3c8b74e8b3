// lather/perf/echo_service.hpp — the operations lather-perf-server serves (perf.wsdl's
// DocPortType and RPCPortType as echoes), shared with the tests that measure that server's
// call path in-process.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "lather/perf/rpc_types.hpp"
#include "lather/perf/types.hpp"
#include "lather/service/service.hpp"

namespace lather::perf {

/// Declared once on the Envelope by lather-perf-server and lather-bench
/// (service_options / client_options::envelope_namespaces): every item's QName value then uses
/// this prefix instead of declaring its namespace on its own element.
inline std::vector<soap::namespace_binding> envelope_namespaces() {
  return {{"cxf", std::string(qname_value_ns)}};
}

/// DocPortType (document/literal wrapped): echoComplexTypeDoc, echoStringDoc, echoBase64Doc.
/// (Req&, Resp&) handlers: both objects are pooled; swapping keeps every buffer warm, so a
/// steady-state echo allocates nothing.
inline void add_doc_echo_operations(service& doc) {
  doc.operation("echoComplexTypeDoc", [](echoComplexTypeDoc& in, echoComplexTypeDocResponse& out) {
    std::swap(out.return_, in.in);
    out.idout = in.id;
  });
  doc.operation("echoStringDoc",
                [](echoStringDoc& in, echoStringDocResponse& out) { std::swap(out.out, in.in); });
  doc.operation("echoBase64Doc",
                [](echoBase64Doc& in, echoBase64DocResponse& out) { std::swap(out.out, in.in); });
}

/// RPCPortType (rpc/literal): echoComplexTypeRPC, echoStringRPC, echoBase64RPC.
inline void add_rpc_echo_operations(service& rpc) {
  operation_options rpc_style;
  rpc_style.style = soap::style::rpc_literal;
  rpc.operation(
      "echoComplexTypeRPC",
      [](echoComplexTypeRPC& in, echoComplexTypeRPCResponse& out) { std::swap(out.out, in.in); },
      rpc_style);
  rpc.operation(
      "echoStringRPC",
      [](echoStringRPC& in, echoStringRPCResponse& out) { std::swap(out.out, in.in); }, rpc_style);
  rpc.operation(
      "echoBase64RPC",
      [](echoBase64RPC& in, echoBase64RPCResponse& out) { std::swap(out.out, in.in); }, rpc_style);
}

}  // namespace lather::perf
