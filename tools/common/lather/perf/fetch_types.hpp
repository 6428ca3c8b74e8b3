// lather/perf/fetch_types.hpp — the 2003 experiment (shared/bench/seed-2003, fetch.wsdl):
// fetch(param) returns a Setting graph with shared Values and a child -> parent cycle, as
// SOAP 1.1 RPC/encoded (urn:fetch, SOAPAction "urn:fetch#fetch").
//
//   lather::service svc{"Fetch", std::string(perf::fetch_ns)};
//   perf::add_fetch_operation(svc);                      // fetch(param) -> the README graph
//
//   perf::fetch_client c{"http://127.0.0.1:8080/fetch"};
//   perf::fetchResponse r = c.call("test");              // r.return_ is the root
//   if (auto why = perf::check_fetch_graph(r.return_, "test"); !why.empty()) ...
//
// fetch_client is lather::client calling RPC/encoded (the types' meta<> say encoding::soap).
// Graphs with cycles are reference-counted loops:
// fetchResponse owns its graph and breaks the loops when it lets go (release_graph).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "lather/http/client.hpp"
#include "lather/perf/fetch_graph.hpp"
#include "lather/service/client.hpp"
#include "lather/service/service.hpp"
#include "lather/soap/encoded.hpp"
#include "lather/soap/envelope.hpp"
#include "lather/soap/fault.hpp"
#include "lather/soap/style.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace lather::perf {

/// The request: the RPC part "param".
struct fetch {
  std::string param;
};

/// The response: the RPC part "return". Owns its graph (move-only; releases it when replaced
/// or destroyed: copy the root out only while the response lives).
struct fetchResponse {
  std::shared_ptr<Setting> return_;  // "return" on the wire

  fetchResponse() = default;
  explicit fetchResponse(std::shared_ptr<Setting> root) : return_(std::move(root)) {}
  fetchResponse(fetchResponse&& other) noexcept = default;
  fetchResponse& operator=(fetchResponse&& other) noexcept {
    if (this != &other) {
      release_graph(return_);
      return_ = std::move(other.return_);
    }
    return *this;
  }
  fetchResponse(const fetchResponse&) = delete;
  fetchResponse& operator=(const fetchResponse&) = delete;
  ~fetchResponse() { release_graph(return_); }
};

}  // namespace lather::perf

template <>
struct lather::meta<lather::perf::fetch> {
  static constexpr std::string_view ns = lather::perf::fetch_ns, name = "fetch";
  static constexpr auto encoding = lather::bind::encoding::soap;
  static constexpr auto fields = std::make_tuple(lather::element("param", &perf::fetch::param));
};

template <>
struct lather::meta<lather::perf::fetchResponse> {
  static constexpr std::string_view ns = lather::perf::fetch_ns, name = "fetchResponse";
  static constexpr auto encoding = lather::bind::encoding::soap;
  static constexpr auto fields =
      std::make_tuple(lather::element("return", &perf::fetchResponse::return_));
};

namespace lather::perf {

/// fetch(param) -> make_fetch_graph(param), built anew on every call. The pooled response's
/// previous graph is released when replaced.
inline void serve_fetch(fetch& in, fetchResponse& out) {
  out = fetchResponse{make_fetch_graph(in.param)};
}

}  // namespace lather::perf

namespace lather::perf {

/// Register fetch(param) on `svc` (target namespace urn:fetch), SOAPAction urn:fetch#fetch.
inline void add_fetch_operation(service& svc) {
  operation_options op;
  op.soap_action = std::string(fetch_action);
  svc.operation("fetch", &serve_fetch, std::move(op));
}

/// Read an RPC/encoded response envelope (reader at document start): the parts of the
/// `<op>Response` wrapper into `out`'s fields by accessor name, then the trailing independent
/// elements (multi-refs), then the rest of the envelope. A Fault throws soap::fault_error;
/// a Body without any element, std::runtime_error.
template <class Resp>
void read_encoded_response(xml::reader& r, Resp& out) {
  soap::envelope_reader env{r};
  env.begin();
  if (!env.at_body_element()) throw std::runtime_error("fetch: empty SOAP Body");
  if (env.at_fault())
    throw soap::fault_error(soap::read_fault(r, env.ver(), env.body_namespaces()));
  soap::read_encoded_message(r, env, out);
  env.finish();
}

/// Decode a whole fetch response message (as any stack writes it).
inline fetchResponse decode_fetch_response(std::string_view document) {
  xml::reader r;
  r.reset(document);
  fetchResponse out;
  read_encoded_response(r, out);
  return out;
}

/// A SOAP 1.1 RPC/encoded client for fetch.wsdl: lather::client (pooled keep-alive
/// connections) calling fetch with SOAPAction urn:fetch#fetch.
class fetch_client {
 public:
  explicit fetch_client(std::string url, http::client_options opts = {})
      : client_(std::move(url), options(std::move(opts))) {
    call_options_.soap_action = std::string(fetch_action);
  }

  fetchResponse call(std::string_view param) {
    fetchResponse out;
    call(param, out);
    return out;
  }
  /// Same, into `out` (its previous graph is released first).
  void call(std::string_view param, fetchResponse& out) {
    request_.param.assign(param);
    client_.call("fetch", request_, out, call_options_);
  }
  http::client& transport() noexcept { return client_.transport(); }

 private:
  static client_options options(http::client_options transport) {
    client_options o;
    static_cast<http::client_options&>(o) = std::move(transport);
    return o;
  }
  client client_;
  call_options call_options_;
  fetch request_;
};

}  // namespace lather::perf
