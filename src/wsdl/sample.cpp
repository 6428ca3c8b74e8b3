#include "lather/wsdl/sample.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>

namespace lather::wsdl {
namespace {

struct builtin_sample {
  std::string_view name, value;
};

// Values every validator takes for the type as it stands (no facets).
constexpr builtin_sample builtin_samples[] = {
    {"string", "string"},
    {"normalizedString", "string"},
    {"token", "string"},
    {"anySimpleType", "string"},
    {"language", "en"},
    {"Name", "name"},
    {"NCName", "name"},
    {"ID", "id1"},
    {"IDREF", "id1"},
    {"IDREFS", "id1"},
    {"ENTITY", "name"},
    {"ENTITIES", "name"},
    {"NMTOKEN", "name"},
    {"NMTOKENS", "name"},
    {"boolean", "true"},
    {"base64Binary", "AA=="},
    {"binary", "AA=="},
    {"hexBinary", "00"},
    {"float", "0"},
    {"double", "0"},
    {"decimal", "0"},
    {"integer", "0"},
    {"nonPositiveInteger", "0"},
    {"negativeInteger", "-1"},
    {"long", "0"},
    {"int", "0"},
    {"short", "0"},
    {"byte", "0"},
    {"nonNegativeInteger", "0"},
    {"unsignedLong", "0"},
    {"unsignedInt", "0"},
    {"unsignedShort", "0"},
    {"unsignedByte", "0"},
    {"positiveInteger", "1"},
    {"duration", "P1D"},
    {"dateTime", "2000-01-01T00:00:00Z"},
    {"timeInstant", "2000-01-01T00:00:00Z"},
    {"time", "00:00:00Z"},
    {"date", "2000-01-01"},
    {"gYearMonth", "2000-01"},
    {"gYear", "2000"},
    {"gMonthDay", "--01-01"},
    {"gDay", "---01"},
    {"gMonth", "--01"},
    {"anyURI", "http://example.com/"},
    {"uriReference", "http://example.com/"},
    {"QName", "name"},
    {"NOTATION", "name"},
};

bool is_numeric(std::string_view builtin) {
  return builtin == "float" || builtin == "double" || builtin == "decimal" ||
         builtin.find("nteger") != std::string_view::npos || builtin == "long" ||
         builtin == "int" || builtin == "short" || builtin == "byte" ||
         builtin.starts_with("unsigned");
}

std::optional<double> number(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  double v = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
  if (ec != std::errc{} || end != text->data() + text->size()) return std::nullopt;
  return v;
}

std::string format_number(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15)
    return std::to_string(static_cast<std::int64_t>(v));
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc{} ? std::string(buf, end) : "0";
}

// Every facet of the restriction chain, the nearest declaration of each winning.
facets effective_facets(const simple_type& t) {
  facets f;
  for (const simple_type* s = &t; s && !s->builtin; s = s->base) {
    const facets& own = s->facets;
    if (f.enumeration.empty()) f.enumeration = own.enumeration;
    auto take = [](auto& into, const auto& from) {
      if (!into && from) into = from;
    };
    take(f.length, own.length);
    take(f.min_length, own.min_length);
    take(f.max_length, own.max_length);
    take(f.min_inclusive, own.min_inclusive);
    take(f.max_inclusive, own.max_inclusive);
    take(f.min_exclusive, own.min_exclusive);
    take(f.max_exclusive, own.max_exclusive);
    if (s->variety != simple_type::variety::atomic) break;
  }
  return f;
}

std::string in_range(std::string value, std::string_view builtin, const facets& f) {
  if (!is_numeric(builtin)) {
    // Dates and durations: a bound is itself a valid value.
    if (f.min_inclusive) return *f.min_inclusive;
    if (f.max_inclusive) return *f.max_inclusive;
    return value;
  }
  const bool integral = builtin != "float" && builtin != "double" && builtin != "decimal";
  double v = *number(std::optional<std::string>(value));
  if (auto lo = number(f.min_inclusive); lo && v < *lo) v = integral ? std::ceil(*lo) : *lo;
  if (auto lo = number(f.min_exclusive); lo && v <= *lo) v = std::floor(*lo) + 1;
  if (auto hi = number(f.max_inclusive); hi && v > *hi) v = integral ? std::floor(*hi) : *hi;
  if (auto hi = number(f.max_exclusive); hi && v >= *hi) v = std::ceil(*hi) - 1;
  return format_number(v);
}

// Octets in the lexical form, so that length facets count what they count: bytes for
// base64Binary and hexBinary, characters otherwise.
std::string with_length(std::string value, std::string_view builtin, const facets& f) {
  const bool binary = builtin == "hexBinary" || builtin == "base64Binary" || builtin == "binary";
  const std::size_t size = binary ? 1 : value.size();  // the binary samples are one octet
  std::optional<std::uint64_t> want;
  if (f.length)
    want = f.length;
  else if (f.min_length && size < *f.min_length)
    want = f.min_length;
  else if (f.max_length && size > *f.max_length)
    want = f.max_length;
  if (!want) return value;
  const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(*want, 4096));
  if (builtin == "hexBinary") return std::string(2 * n, '0');
  if (binary) {
    std::string b64((n + 2) / 3 * 4, 'A');
    if (n % 3 == 1) b64.replace(b64.size() - 2, 2, "==");
    if (n % 3 == 2) b64.back() = '=';
    return b64;
  }
  if (is_numeric(builtin)) return value;
  if (value.size() > n) return value.substr(0, n);
  value.append(n - value.size(), 'x');
  return value;
}

}  // namespace

std::string_view sample_builtin_value(std::string_view builtin_local) {
  for (const builtin_sample& s : builtin_samples)
    if (s.name == builtin_local) return s.value;
  return "string";
}

std::string sample_value(const simple_type& t) {
  if (t.variety == simple_type::variety::union_ && !t.members.empty())
    return sample_value(*t.members.front());
  const facets f = effective_facets(t);
  if (!f.enumeration.empty()) return f.enumeration.front();
  if (t.variety == simple_type::variety::list ||
      (t.base && t.base->variety == simple_type::variety::list)) {
    const simple_type* list = &t;
    while (list->variety != simple_type::variety::list && list->base) list = list->base;
    return list->item ? sample_value(*list->item) : std::string("string");
  }
  const simple_type* builtin = t.builtin_base();
  if (!builtin) {
    for (const simple_type* s = &t; s; s = s->base)
      if (s->variety == simple_type::variety::union_ && !s->members.empty())
        return sample_value(*s->members.front());
    return "string";
  }
  const std::string_view name = builtin->name.local;
  std::string value(sample_builtin_value(name));
  value = in_range(std::move(value), name, f);
  return with_length(std::move(value), name, f);
}

}  // namespace lather::wsdl
