// lather/dynamic/value.hpp — the value a dynamic call sends and receives: JSON's data model
// (null, boolean, integer, number, string, array, object with members in document order),
// converted to and from XML by the operation's schema types (lather/dynamic/client.hpp).
//
//   auto in = lather::dynamic::value::from_json(R"({"id": 7, "tags": ["a", "b"]})");
//   in["name"] = "x";
//   std::string text = in.to_json(2);
//
// How XML maps onto it: an element of a simple type is a boolean (xsd:boolean), an integer
// (the integer types that fit 64 bits), a number (xsd:float/double) or a string (its lexical
// form: decimals, dates, base64, ...); an element of a complex type is an object whose members
// are its attributes and child elements by local name (in schema order), its simple content
// under "_value", wildcard content under "_any" (XML text), a derived type sent with xsi:type
// under "_type"; a repeated element (maxOccurs > 1) is an array; xsi:nil is null.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace lather::dynamic {

class value;
using array = std::vector<value>;
using member = std::pair<std::string, value>;
/// Members in insertion (document) order; keys are unique.
using object = std::vector<member>;

/// JSON text that does not parse: what() names the byte offset.
class json_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class value {
 public:
  enum class kind : std::uint8_t { null, boolean, integer, number, string, array, object };

  value() noexcept = default;
  value(std::nullptr_t) noexcept {}
  value(bool b) : v_(b) {}
  value(int i) : v_(static_cast<std::int64_t>(i)) {}
  value(std::int64_t i) : v_(i) {}
  value(double d) : v_(d) {}
  value(std::string s) : v_(std::move(s)) {}
  value(std::string_view s) : v_(std::string(s)) {}
  value(const char* s) : v_(std::string(s)) {}
  value(dynamic::array a) : v_(std::move(a)) {}
  value(dynamic::object o) : v_(std::move(o)) {}

  kind type() const noexcept { return static_cast<kind>(v_.index()); }
  bool is_null() const noexcept { return type() == kind::null; }
  bool is_object() const noexcept { return type() == kind::object; }
  bool is_array() const noexcept { return type() == kind::array; }
  bool is_string() const noexcept { return type() == kind::string; }
  /// "null", "boolean", "integer", "number", "string", "array" or "object".
  std::string_view type_name() const noexcept;

  /// The alternative held; std::bad_variant_access for another kind.
  bool as_bool() const { return std::get<bool>(v_); }
  std::int64_t as_integer() const { return std::get<std::int64_t>(v_); }
  double as_number() const { return std::get<double>(v_); }
  const std::string& as_string() const { return std::get<std::string>(v_); }
  const dynamic::array& items() const { return std::get<dynamic::array>(v_); }
  dynamic::array& items() { return std::get<dynamic::array>(v_); }
  const dynamic::object& members() const { return std::get<dynamic::object>(v_); }
  dynamic::object& members() { return std::get<dynamic::object>(v_); }

  /// A member of an object (nullptr when absent or not an object).
  const value* find(std::string_view key) const noexcept;
  value* find(std::string_view key) noexcept;
  /// The member `key`, appended (null) when absent; a null value becomes an empty object first.
  value& operator[](std::string_view key);
  /// Append to an array; a null value becomes an empty array first.
  void push_back(value v);

  /// A scalar as text, the way XML writes it ("true", "42", "1.5", the string itself; "" for
  /// null); arrays and objects as JSON.
  std::string lexical() const;

  /// JSON text: compact with indent < 0, else pretty-printed with that many spaces.
  std::string to_json(int indent = -1) const;
  /// Parse JSON text (UTF-8). Integers that fit 64 bits become integers, other numbers
  /// numbers. Throws json_error.
  static value from_json(std::string_view text);

  friend bool operator==(const value&, const value&) = default;

 private:
  std::variant<std::nullptr_t, bool, std::int64_t, double, std::string, dynamic::array,
               dynamic::object>
      v_;
};

}  // namespace lather::dynamic
