#include "lather/dynamic/value.hpp"

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

namespace lather::dynamic {
namespace {

using json = nlohmann::ordered_json;

json to_nlohmann(const value& v) {
  switch (v.type()) {
    case value::kind::null:
      return nullptr;
    case value::kind::boolean:
      return v.as_bool();
    case value::kind::integer:
      return v.as_integer();
    case value::kind::number:
      return std::isfinite(v.as_number()) ? json(v.as_number()) : json(v.lexical());
    case value::kind::string:
      return v.as_string();
    case value::kind::array: {
      json a = json::array();
      for (const value& item : v.items()) a.push_back(to_nlohmann(item));
      return a;
    }
    case value::kind::object: {
      json o = json::object();
      for (const auto& [key, item] : v.members()) o[key] = to_nlohmann(item);
      return o;
    }
  }
  return nullptr;
}

value from_nlohmann(const json& j) {
  switch (j.type()) {
    case json::value_t::boolean:
      return j.get<bool>();
    case json::value_t::number_integer:
      return j.get<std::int64_t>();
    case json::value_t::number_unsigned: {
      const auto u = j.get<std::uint64_t>();
      if (u <= static_cast<std::uint64_t>(INT64_MAX)) return static_cast<std::int64_t>(u);
      return std::to_string(u);  // xsd:unsignedLong beyond int64: kept exact, as text
    }
    case json::value_t::number_float:
      return j.get<double>();
    case json::value_t::string:
      return j.get<std::string>();
    case json::value_t::array: {
      array a;
      a.reserve(j.size());
      for (const json& item : j) a.push_back(from_nlohmann(item));
      return a;
    }
    case json::value_t::object: {
      object o;
      o.reserve(j.size());
      for (const auto& [key, item] : j.items()) o.emplace_back(key, from_nlohmann(item));
      return o;
    }
    default:
      return nullptr;
  }
}

}  // namespace

std::string_view value::type_name() const noexcept {
  constexpr std::string_view names[] = {"null",   "boolean", "integer", "number",
                                        "string", "array",   "object"};
  return names[v_.index()];
}

const value* value::find(std::string_view key) const noexcept {
  if (!is_object()) return nullptr;
  for (const auto& [k, v] : members())
    if (k == key) return &v;
  return nullptr;
}

value* value::find(std::string_view key) noexcept {
  return const_cast<value*>(static_cast<const value*>(this)->find(key));
}

value& value::operator[](std::string_view key) {
  if (is_null()) v_ = dynamic::object{};
  if (value* v = find(key)) return *v;
  members().emplace_back(std::string(key), value{});
  return members().back().second;
}

void value::push_back(value v) {
  if (is_null()) v_ = dynamic::array{};
  items().push_back(std::move(v));
}

std::string value::lexical() const {
  switch (type()) {
    case kind::null:
      return {};
    case kind::boolean:
      return as_bool() ? "true" : "false";
    case kind::integer:
      return std::to_string(as_integer());
    case kind::number: {
      const double d = as_number();
      if (std::isnan(d)) return "NaN";
      if (std::isinf(d)) return d > 0 ? "INF" : "-INF";
      char buf[32];
      auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
      return std::string(buf, ec == std::errc{} ? end : buf);
    }
    case kind::string:
      return as_string();
    default:
      return to_json();
  }
}

std::string value::to_json(int indent) const {
  return to_nlohmann(*this).dump(indent, ' ', false, json::error_handler_t::replace);
}

value value::from_json(std::string_view text) {
  try {
    return from_nlohmann(json::parse(text));
  } catch (const json::exception& e) {
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 3: ..." -> from "parse".
    if (auto at = what.find("] "); at != std::string::npos) what.erase(0, at + 2);
    throw json_error("JSON: " + what);
  }
}

}  // namespace lather::dynamic
