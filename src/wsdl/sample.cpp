// Sample values of XSD simple types (lather/wsdl/sample.hpp): the facets in effect, then the
// first enumeration, a string generated from the pattern, or the built-in's sample moved into
// the ranges and fitted to the lengths.
#include "lather/wsdl/sample.hpp"

#include <algorithm>
#include <vector>

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

// Every facet of `extra`, then of the restriction chain, the nearest declaration of each
// winning.
facets effective_facets(const simple_type& t, const facets& extra) {
  facets f = extra;
  for (const simple_type* s = &t; s && !s->builtin; s = s->base) {
    const facets& own = s->facets;
    if (f.enumeration.empty()) f.enumeration = own.enumeration;
    if (f.patterns.empty()) f.patterns = own.patterns;
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

/// A character class of an XSD regular expression, as far as sample generation needs it.
struct char_class {
  std::vector<std::pair<char32_t, char32_t>> ranges;
  std::vector<char> escapes;  ///< multi-character escapes: 'd', 'w', 's', 'i', 'c' (upper: negated)
  bool negated = false;
  std::vector<char_class> minus;  ///< class subtraction [a-z-[aeiou]]

  static bool in_escape(char e, char32_t c) {
    bool digit = c >= '0' && c <= '9';
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c > 0x7f;
    bool in = false;
    switch (e | 0x20) {
      case 'd':
        in = digit;
        break;
      case 'w':
        in = digit || letter;
        break;
      case 's':
        in = c == ' ' || c == '\t' || c == '\n' || c == '\r';
        break;
      case 'i':
        in = letter || c == '_' || c == ':';
        break;
      case 'c':
        in = letter || digit || c == '.' || c == '-' || c == '_' || c == ':';
        break;
      default:
        in = letter;
        break;  // \p{..}: letters are the likely category
    }
    return (e >= 'A' && e <= 'Z') ? !in : in;
  }

  bool contains(char32_t c) const {
    bool in = false;
    for (const auto& [lo, hi] : ranges) in = in || (c >= lo && c <= hi);
    for (char e : escapes) in = in || in_escape(e, c);
    if (negated) in = !in;
    for (const char_class& m : minus) in = in && !m.contains(c);
    return in;
  }

  /// A member, preferring letters and digits.
  char32_t pick() const {
    for (char32_t c : std::u32string_view(U"aA0x1b_-. ")) {
      if (contains(c)) return c;
    }
    for (char32_t c = 0x21; c < 0x7f; ++c)
      if (contains(c)) return c;
    for (const auto& [lo, hi] : ranges)
      if (contains(lo)) return lo;
    return 'a';
  }
};

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xc0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xe0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
  } else {
    out.push_back(static_cast<char>(0xf0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
  }
}

std::u32string decode_utf8(std::string_view s) {
  std::u32string out;
  for (std::size_t i = 0; i < s.size();) {
    auto b = static_cast<unsigned char>(s[i]);
    int n = b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
    char32_t c = n == 1 ? b : b & (0x3f >> (n - 1));
    for (int k = 1; k < n && i + k < s.size(); ++k)
      c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3f);
    out.push_back(c);
    i += n;
  }
  return out;
}

/// Writes one string the pattern matches: first branch of each alternation, each quantified
/// atom repeated max(min, 1) times (within its maximum).
class pattern_sampler {
 public:
  explicit pattern_sampler(std::string_view pattern) : p_(decode_utf8(pattern)) {}

  std::string run() {
    std::string out;
    expression(out);
    return out;
  }

 private:
  bool at_end() const { return i_ >= p_.size(); }

  void expression(std::string& out) {
    branch(out);
    while (!at_end() && p_[i_] == '|') {  // other branches are parsed and dropped
      ++i_;
      std::string ignored;
      branch(ignored);
    }
  }

  void branch(std::string& out) {
    while (!at_end() && p_[i_] != '|' && p_[i_] != ')') {
      std::string atom_text;
      atom(atom_text);
      auto [min, max] = quantifier();
      std::size_t n = std::min<std::size_t>(std::max<std::size_t>(min, 1), max);
      for (std::size_t k = 0; k < n; ++k) out += atom_text;
    }
  }

  std::pair<std::size_t, std::size_t> quantifier() {
    if (at_end()) return {1, 1};
    switch (p_[i_]) {
      case '?':
        ++i_;
        return {0, 1};
      case '*':
        ++i_;
        return {0, 1000};
      case '+':
        ++i_;
        return {1, 1000};
      case '{': {
        ++i_;
        std::size_t min = number(), max = min;
        if (!at_end() && p_[i_] == ',') {
          ++i_;
          max = (!at_end() && p_[i_] == '}') ? 1000 : number();
        }
        if (!at_end()) ++i_;  // '}'
        return {min, max};
      }
      default:
        return {1, 1};
    }
  }

  std::size_t number() {
    std::size_t n = 0;
    while (!at_end() && p_[i_] >= '0' && p_[i_] <= '9') n = n * 10 + (p_[i_++] - '0');
    return n;
  }

  void atom(std::string& out) {
    char32_t c = p_[i_++];
    if (c == '(') {
      expression(out);
      if (!at_end()) ++i_;  // ')'
    } else if (c == '[') {
      append_utf8(out, char_class_body().pick());
    } else if (c == '.') {
      out.push_back('a');
    } else if (c == '\\') {
      char_class cc;
      escape(cc);
      append_utf8(out, cc.pick());
    } else {
      append_utf8(out, c);
    }
  }

  /// After '\': a single-character escape becomes a range, a multi-character one an escape.
  void escape(char_class& cc) {
    if (at_end()) return;
    char32_t c = p_[i_++];
    switch (c) {
      case 'n':
        cc.ranges.emplace_back('\n', '\n');
        return;
      case 'r':
        cc.ranges.emplace_back('\r', '\r');
        return;
      case 't':
        cc.ranges.emplace_back('\t', '\t');
        return;
      case 'd':
      case 'D':
      case 'w':
      case 'W':
      case 's':
      case 'S':
      case 'i':
      case 'I':
      case 'c':
      case 'C':
        cc.escapes.push_back(static_cast<char>(c));
        return;
      case 'p':
      case 'P':
        while (!at_end() && p_[i_] != '}') ++i_;
        if (!at_end()) ++i_;
        cc.escapes.push_back(c == 'p' ? 'p' : 'P');
        return;
      default:
        cc.ranges.emplace_back(c, c);
        return;
    }
  }

  /// After '[': the class through its ']'.
  char_class char_class_body() {
    char_class cc;
    if (!at_end() && p_[i_] == '^') {
      cc.negated = true;
      ++i_;
    }
    bool first = true;
    while (!at_end() && (p_[i_] != ']' || first)) {
      first = false;
      if (p_[i_] == '-' && i_ + 1 < p_.size() && p_[i_ + 1] == '[') {
        i_ += 2;
        cc.minus.push_back(char_class_body());
        continue;
      }
      char32_t lo = 0;
      if (p_[i_] == '\\') {
        ++i_;
        char_class single;
        escape(single);
        if (single.ranges.empty()) {
          cc.escapes.insert(cc.escapes.end(), single.escapes.begin(), single.escapes.end());
          continue;
        }
        lo = single.ranges[0].first;
      } else {
        lo = p_[i_++];
      }
      char32_t hi = lo;
      if (i_ + 1 < p_.size() && p_[i_] == '-' && p_[i_ + 1] != ']' && p_[i_ + 1] != '[') {
        ++i_;
        if (p_[i_] == '\\') {
          ++i_;
          char_class single;
          escape(single);
          hi = single.ranges.empty() ? lo : single.ranges[0].first;
        } else {
          hi = p_[i_++];
        }
      }
      cc.ranges.emplace_back(lo, hi);
    }
    if (!at_end()) ++i_;  // ']'
    return cc;
  }

  std::u32string p_;
  std::size_t i_ = 0;
};

}  // namespace

std::string_view sample_builtin_value(std::string_view builtin_local) {
  for (const builtin_sample& s : builtin_samples)
    if (s.name == builtin_local) return s.value;
  return "string";
}

std::string sample_value(const simple_type& t) {
  return sample_value(t, facets{});
}

std::string sample_value(const simple_type& t, const facets& extra) {
  if (t.variety == simple_type::variety::union_ && !t.members.empty() &&
      extra.enumeration.empty() && extra.patterns.empty())
    return sample_value(*t.members.front());
  const facets f = effective_facets(t, extra);
  if (!f.enumeration.empty()) return f.enumeration.front();
  if (!f.patterns.empty()) return pattern_sampler(f.patterns.front()).run();
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
