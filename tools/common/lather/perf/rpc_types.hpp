// lather/perf/rpc_types.hpp — perf.wsdl's RPCPortType (rpc/literal): the parts of each
// operation as structs. Parts are unqualified accessors named after the wsdl:parts ("in",
// "out"); the RPC wrapper namespace is the WSDL target namespace (perf.wsdl's soap:body has
// no namespace attribute; CXF falls back to the targetNamespace, and so does lather).
#pragma once

#include "lather/perf/types.hpp"

namespace lather::perf {

struct echoStringRPC {
  std::string in;
};
struct echoStringRPCResponse {
  std::string out;
};
struct echoBase64RPC {
  xsd::base64_binary in;
};
struct echoBase64RPCResponse {
  xsd::base64_binary out;
};
struct echoComplexTypeRPC {
  NestedComplexTypeSeq in;
};
struct echoComplexTypeRPCResponse {
  NestedComplexTypeSeq out;
};

}  // namespace lather::perf

namespace lather {

#define LATHER_PERF_RPC_META(T, field)                                                 \
  template <>                                                                          \
  struct meta<perf::T> {                                                               \
    static constexpr std::string_view name = #T;                                       \
    static constexpr std::string_view ns = perf::service_ns;                           \
    static constexpr auto element_form = bind::form::unqualified;                      \
    static constexpr auto fields = std::tuple{element(#field, &perf::T::field)};       \
  };
LATHER_PERF_RPC_META(echoStringRPC, in)
LATHER_PERF_RPC_META(echoStringRPCResponse, out)
LATHER_PERF_RPC_META(echoBase64RPC, in)
LATHER_PERF_RPC_META(echoBase64RPCResponse, out)
LATHER_PERF_RPC_META(echoComplexTypeRPC, in)
LATHER_PERF_RPC_META(echoComplexTypeRPCResponse, out)
#undef LATHER_PERF_RPC_META

}  // namespace lather
