#include "simple.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "types.hpp"

namespace lather::dynamic::detail {

using namespace lather::wsdl;

namespace {

struct int_range {
  std::string_view name;
  double lo, hi;
};
// The integer types and their value spaces (the unbounded ones as far as a double reaches).
constexpr double inf = std::numeric_limits<double>::infinity();
constexpr int_range int_ranges[] = {
    {"integer", -inf, inf},
    {"long", -9223372036854775808.0, 9223372036854775807.0},
    {"int", -2147483648.0, 2147483647.0},
    {"short", -32768, 32767},
    {"byte", -128, 127},
    {"nonNegativeInteger", 0, inf},
    {"positiveInteger", 1, inf},
    {"nonPositiveInteger", -inf, 0},
    {"negativeInteger", -inf, -1},
    {"unsignedLong", 0, 18446744073709551615.0},
    {"unsignedInt", 0, 4294967295.0},
    {"unsignedShort", 0, 65535},
    {"unsignedByte", 0, 255},
};

const int_range* int_range_of(std::string_view builtin) {
  for (const int_range& r : int_ranges)
    if (r.name == builtin) return &r;
  return nullptr;
}

bool parse_integer(std::string_view s, std::int64_t& out) {
  s = trim(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && ec == std::errc{} && end == s.data() + s.size();
}

bool is_integer_text(std::string_view s) {
  s = trim(s);
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) s.remove_prefix(1);
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool parse_double(std::string_view s, double& out) {
  s = trim(s);
  if (s == "INF" || s == "+INF") return out = inf, true;
  if (s == "-INF") return out = -inf, true;
  if (s == "NaN") return out = std::numeric_limits<double>::quiet_NaN(), true;
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && (ec == std::errc{} || ec == std::errc::result_out_of_range) &&
         end == s.data() + s.size();
}

// The enumeration in effect on `t` (the nearest restriction that has one).
const std::vector<std::string>* enumeration_of(const simple_type& t) {
  for (const simple_type* s = &t; s && !s->builtin; s = s->base)
    if (!s->facets.enumeration.empty()) return &s->facets.enumeration;
  return nullptr;
}

}  // namespace

scalar category(const simple_type* builtin) {
  if (!builtin) return scalar::text;
  const std::string_view n = builtin->name.local;
  if (n == "boolean") return scalar::boolean;
  if (int_range_of(n)) return scalar::integer;
  if (n == "float" || n == "double") return scalar::number;
  return scalar::text;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() &&
         (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// Why `text` is not a valid value of `t` ("" when it is): the built-in's lexical space, the
// integer types' ranges, the enumeration.
std::string invalid_reason(const simple_type& t, std::string_view text) {
  if (t.variety == simple_type::variety::list || t.variety == simple_type::variety::union_)
    return {};
  const simple_type* builtin = t.builtin_base();
  const std::string label = "xsd:" + (builtin ? builtin->name.local : std::string("string"));
  auto quoted = [&] {
    std::string s(1, '"');
    s.append(text).append("\" is not a valid ");
    return s;
  };
  switch (category(builtin)) {
    case scalar::boolean: {
      const std::string_view s = trim(text);
      if (s != "true" && s != "false" && s != "1" && s != "0") return quoted() + label;
      break;
    }
    case scalar::integer: {
      const int_range& r = *int_range_of(builtin->name.local);
      double d = 0;
      if (!is_integer_text(text) || !parse_double(text, d)) return quoted() + label;
      if (d < r.lo || d > r.hi) return quoted() + label + " (out of range)";
      break;
    }
    case scalar::number: {
      double d = 0;
      if (!parse_double(text, d)) return quoted() + label;
      break;
    }
    case scalar::text:
      if (builtin && builtin->name.local == "decimal") {
        double d = 0;
        const std::string_view s = trim(text);
        if (!parse_double(s, d) || !std::isfinite(d) || s.find_first_of("eE") != s.npos)
          return quoted() + label;
      }
      break;
  }
  if (const auto* e = enumeration_of(t); e &&
                                         std::find(e->begin(), e->end(), trim(text)) == e->end() &&
                                         std::find(e->begin(), e->end(), text) == e->end()) {
    std::string list;
    for (std::size_t i = 0; i < e->size() && i < 8; ++i) list += (i ? ", " : "") + (*e)[i];
    if (e->size() > 8) list += ", ...";
    return quoted() + type_label(t) + " (one of " + list + ")";
  }
  return {};
}

// The value of valid text of `t`: typed for booleans, integers and floats, else the text.
value typed(const simple_type& t, std::string_view text) {
  const std::string_view s = trim(text);
  switch (category(t.builtin_base())) {
    case scalar::boolean:
      if (s == "true" || s == "1") return true;
      if (s == "false" || s == "0") return false;
      break;
    case scalar::integer: {
      std::int64_t i = 0;
      if (parse_integer(s, i)) return i;
      break;
    }
    case scalar::number: {
      double d = 0;
      if (parse_double(s, d) && std::isfinite(d)) return d;
      break;
    }
    case scalar::text:
      break;
  }
  return std::string(text);
}

}  // namespace lather::dynamic::detail
