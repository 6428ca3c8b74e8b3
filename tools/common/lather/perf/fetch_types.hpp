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
// fetch_client is lather::client calling RPC/encoded (the types have soap::encoded_type<>).
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
#include "lather/service/client.hpp"
#include "lather/service/service.hpp"
#include "lather/soap/encoded.hpp"
#include "lather/soap/envelope.hpp"
#include "lather/soap/fault.hpp"
#include "lather/soap/style.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace lather::perf {

inline constexpr std::string_view fetch_ns = "urn:fetch";
inline constexpr std::string_view fetch_action = "urn:fetch#fetch";

struct Value {
  std::int32_t errcode = 0;
  std::string new_;  // "new" on the wire
  std::string errtext;
  std::string cur;
  friend bool operator==(const Value&, const Value&) = default;
};

struct Setting {
  std::string status;
  std::shared_ptr<Setting> parent;
  std::vector<std::shared_ptr<Setting>> children;  // SOAP-ENC array of Setting
  std::string stype;
  soap::apache_map<std::string, std::shared_ptr<Value>> params;  // apachesoap:Map
};

/// Break every reference loop reachable from `root` (parent links and children lists are
/// cleared), so the graph is freed. Linear, no recursion; safe on hostile graphs.
inline void release_graph(const std::shared_ptr<Setting>& root) {
  if (!root) return;
  std::vector<std::shared_ptr<Setting>> pending{root};
  while (!pending.empty()) {
    std::shared_ptr<Setting> node = std::move(pending.back());
    pending.pop_back();
    if (!node) continue;
    if (node->parent) pending.push_back(std::move(node->parent));
    node->parent.reset();
    // Moving the children out empties the list, so a node seen twice adds nothing again.
    for (auto& child : node->children) pending.push_back(std::move(child));
    node->children.clear();
  }
}

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
struct lather::soap::encoded_type<lather::perf::Value> {
  static constexpr std::string_view ns = lather::perf::fetch_ns, name = "Value";
  static constexpr auto fields = std::make_tuple(
      soap::field("errcode", &perf::Value::errcode), soap::field("new", &perf::Value::new_),
      soap::field("errtext", &perf::Value::errtext), soap::field("cur", &perf::Value::cur));
};

template <>
struct lather::soap::encoded_type<lather::perf::Setting> {
  static constexpr std::string_view ns = lather::perf::fetch_ns, name = "Setting";
  static constexpr auto fields = std::make_tuple(
      soap::field("status", &perf::Setting::status), soap::field("parent", &perf::Setting::parent),
      soap::field("children", &perf::Setting::children),
      soap::field("stype", &perf::Setting::stype), soap::field("params", &perf::Setting::params));
};

template <>
struct lather::soap::encoded_type<lather::perf::fetch> {
  static constexpr std::string_view ns = lather::perf::fetch_ns, name = "fetch";
  static constexpr auto fields = std::make_tuple(soap::field("param", &perf::fetch::param));
};

template <>
struct lather::soap::encoded_type<lather::perf::fetchResponse> {
  static constexpr std::string_view ns = lather::perf::fetch_ns, name = "fetchResponse";
  static constexpr auto fields =
      std::make_tuple(soap::field("return", &perf::fetchResponse::return_));
};

namespace lather::perf {

/// The README's graph: root {ok, nil parent, "root:"+param, [c1, c2], {a: v1, b: v1, c: v2}},
/// c1 {ok, parent root, "child", [], {x: v2}}, c2 {warn, parent root, "child", [], {}}.
inline std::shared_ptr<Setting> make_fetch_graph(std::string_view param) {
  auto v1 = std::make_shared<Value>(Value{0, "1", "none", "0"});
  auto v2 = std::make_shared<Value>(Value{2, "h\xC3\xA9llo", "out of range <&>", "5"});
  auto root = std::make_shared<Setting>();
  root->status = "ok";
  root->stype = "root:";
  root->stype += param;
  root->params.items = {{"a", v1}, {"b", v1}, {"c", v2}};
  auto c1 = std::make_shared<Setting>();
  c1->status = "ok";
  c1->parent = root;
  c1->stype = "child";
  c1->params.items = {{"x", v2}};
  auto c2 = std::make_shared<Setting>();
  c2->status = "warn";
  c2->parent = root;
  c2->stype = "child";
  root->children = {std::move(c1), std::move(c2)};
  return root;
}

/// The value under `key` in an apachesoap:Map (nullptr when absent).
inline std::shared_ptr<Value> find_param(const Setting& s, std::string_view key) {
  for (const auto& [k, v] : s.params.items)
    if (k == key) return v;
  return nullptr;
}

/// "" when `root` is make_fetch_graph(param) with its sharing and cycle intact; otherwise
/// what differs.
inline std::string check_fetch_graph(const std::shared_ptr<Setting>& root, std::string_view param) {
  if (!root) return "no root";
  if (root->status != "ok" || root->parent || root->stype != "root:" + std::string(param))
    return "root fields wrong";
  if (root->children.size() != 2) return "root needs two children";
  const auto& c1 = root->children[0];
  const auto& c2 = root->children[1];
  if (!c1 || !c2) return "nil child";
  if (c1->parent != root || c2->parent != root) return "child -> root cycle not restored";
  if (c1->status != "ok" || c2->status != "warn" || c1->stype != "child" || c2->stype != "child" ||
      !c1->children.empty() || !c2->children.empty())
    return "child fields wrong";
  if (root->params.items.size() != 3 || c1->params.items.size() != 1 || !c2->params.items.empty())
    return "map sizes wrong";
  auto v1 = find_param(*root, "a"), v2 = find_param(*root, "c");
  if (!v1 || !v2) return "map keys wrong";
  if (find_param(*root, "b") != v1) return "v1 not shared under two keys";
  if (find_param(*c1, "x") != v2) return "v2 not shared across two maps";
  if (v1 == v2) return "v1 and v2 are one object";
  if (!(*v1 == Value{0, "1", "none", "0"})) return "v1 values wrong";
  if (!(*v2 == Value{2, "h\xC3\xA9llo", "out of range <&>", "5"})) return "v2 values wrong";
  return {};
}

/// fetch(param) -> make_fetch_graph(param), built anew on every call. The pooled response's
/// previous graph is released when replaced.
inline void serve_fetch(fetch& in, fetchResponse& out) {
  out = fetchResponse{make_fetch_graph(in.param)};
}
using fetch_operation =
    lather::detail::typed_operation<fetch, fetchResponse, void (*)(fetch&, fetchResponse&), false,
                                    lather::detail::handler_form::out_param>;

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
  lather::detail::read_encoded_message(r, env, out);
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
