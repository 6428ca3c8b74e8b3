// The seed-2003 fetch.wsdl object graph (urn:fetch), declared for RPC/encoded.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "lather/soap/encoded.hpp"

namespace fetch {

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
  std::vector<std::shared_ptr<Setting>> children;
  std::string stype;
  std::map<std::string, std::shared_ptr<Value>> params;
};

/// The reference graph of /work/shared/bench/seed-2003/README.md.
inline std::shared_ptr<Setting> make_graph(const std::string& param) {
  auto v1 = std::make_shared<Value>(Value{0, "1", "none", "0"});
  auto v2 = std::make_shared<Value>(Value{2, "h\xC3\xA9llo", "out of range <&>", "5"});
  auto root = std::make_shared<Setting>();
  root->status = "ok";
  root->stype = "root:" + param;
  root->params = {{"a", v1}, {"b", v1}, {"c", v2}};
  auto c1 = std::make_shared<Setting>();
  c1->status = "ok";
  c1->parent = root;
  c1->stype = "child";
  c1->params = {{"x", v2}};
  auto c2 = std::make_shared<Setting>();
  c2->status = "warn";
  c2->parent = root;
  c2->stype = "child";
  root->children = {c1, c2};
  return root;
}

/// Break the child -> parent cycle so the test does not leak (LeakSanitizer).
inline void release(const std::shared_ptr<Setting>& root) {
  if (!root) return;
  for (const auto& c : root->children) {
    if (c) c->parent.reset();
  }
  root->parent.reset();
}

}  // namespace fetch

template <>
struct lather::soap::encoded_type<fetch::Value> {
  static constexpr std::string_view ns = "urn:fetch", name = "Value";
  static constexpr auto fields =
      std::make_tuple(lather::soap::field("errcode", &fetch::Value::errcode),
                      lather::soap::field("new", &fetch::Value::new_),
                      lather::soap::field("errtext", &fetch::Value::errtext),
                      lather::soap::field("cur", &fetch::Value::cur));
};

template <>
struct lather::soap::encoded_type<fetch::Setting> {
  static constexpr std::string_view ns = "urn:fetch", name = "Setting";
  static constexpr auto fields =
      std::make_tuple(lather::soap::field("status", &fetch::Setting::status),
                      lather::soap::field("parent", &fetch::Setting::parent),
                      lather::soap::field("children", &fetch::Setting::children),
                      lather::soap::field("stype", &fetch::Setting::stype),
                      lather::soap::field("params", &fetch::Setting::params));
};
