// lather/perf/fetch_graph.hpp — the 2003 experiment's data (shared/bench/seed-2003,
// fetch.wsdl): the Setting graph with shared Values and a child -> parent cycle, its RPC/encoded
// metadata, the reference graph every side builds and the check every side applies. One
// definition for the SOAP layer's encoder tests, the fetch service and client, and the tools;
// the service operation and client are in fetch_types.hpp.
//
//   auto root = perf::make_fetch_graph("test");           // what fetch("test") returns
//   if (auto why = perf::check_fetch_graph(root, "test"); !why.empty()) ...
//   perf::release_graph(root);                            // break the cycle to free it
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "lather/soap/encoded.hpp"

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

}  // namespace lather::perf

template <>
struct lather::meta<lather::perf::Value> {
  static constexpr std::string_view ns = lather::perf::fetch_ns, name = "Value";
  static constexpr auto encoding = lather::bind::encoding::soap;
  static constexpr auto fields = std::make_tuple(
      lather::element("errcode", &perf::Value::errcode), lather::element("new", &perf::Value::new_),
      lather::element("errtext", &perf::Value::errtext), lather::element("cur", &perf::Value::cur));
};

template <>
struct lather::meta<lather::perf::Setting> {
  static constexpr std::string_view ns = lather::perf::fetch_ns, name = "Setting";
  static constexpr auto encoding = lather::bind::encoding::soap;
  static constexpr auto fields = std::make_tuple(
      lather::element("status", &perf::Setting::status), lather::element("parent", &perf::Setting::parent),
      lather::element("children", &perf::Setting::children),
      lather::element("stype", &perf::Setting::stype), lather::element("params", &perf::Setting::params));
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

}  // namespace lather::perf
