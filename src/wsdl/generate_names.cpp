// Names and literals of the generated C++ (generate_names.hpp).
#include "generate_names.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace lather::wsdl::detail {

namespace {

bool is_keyword(std::string_view s) {
  static const std::unordered_set<std::string_view> words = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
      "case", "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept",
      "const", "consteval", "constexpr", "constinit", "const_cast", "continue", "co_await",
      "co_return", "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast",
      "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
      "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
      "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static",
      "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local",
      "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
      "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "final", "override",
      "import", "module",
      // macros of the C and POSIX headers a generated header may meet
      "NULL", "EOF", "errno", "assert", "stdin", "stdout", "stderr", "unix", "linux", "DOMAIN",
      "TRUE", "FALSE", "min", "max",
      // names the generated code itself uses in a struct's scope
      "lather", "lather_gen", "std", "meta", "base"};
  return words.count(s) != 0;
}

}  // namespace

std::string identifier(std::string_view raw) {
  std::string out;
  for (char c : raw) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    char x = ok ? c : '_';
    if (x == '_' && !out.empty() && out.back() == '_') continue;
    out.push_back(x);
  }
  if (out.empty() || out == "_") out.assign(1, 'x');  // not = "x": g++ 12 -Wrestrict
  if (out[0] >= '0' && out[0] <= '9') out.insert(out.begin(), '_');
  if (out.size() > 1 && out[0] == '_' && out[1] >= 'A' && out[1] <= 'Z')
    out.insert(out.begin(), 'x');
  if (is_keyword(out)) out.push_back('_');
  return out;
}

bool case_insensitive_less::operator()(std::string_view a, std::string_view b) const noexcept {
  const auto lower = [](char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  };
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                      [&](char x, char y) { return lower(x) < lower(y); });
}

std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  return out + "\"";
}

const char* builtin_cpp(std::string_view local) {
  static const std::unordered_map<std::string_view, const char*> map = {
      {"string", "std::string"},
      {"boolean", "bool"},
      {"byte", "std::int8_t"},
      {"short", "std::int16_t"},
      {"int", "std::int32_t"},
      {"long", "std::int64_t"},
      {"unsignedByte", "std::uint8_t"},
      {"unsignedShort", "std::uint16_t"},
      {"unsignedInt", "std::uint32_t"},
      {"unsignedLong", "std::uint64_t"},
      {"float", "float"},
      {"double", "double"},
      {"decimal", "lather::xsd::decimal"},
      {"integer", "lather::xsd::integer"},
      {"nonNegativeInteger", "lather::xsd::non_negative_integer"},
      {"positiveInteger", "lather::xsd::positive_integer"},
      {"nonPositiveInteger", "lather::xsd::non_positive_integer"},
      {"negativeInteger", "lather::xsd::negative_integer"},
      {"dateTime", "lather::xsd::date_time"},
      {"date", "lather::xsd::date"},
      {"time", "lather::xsd::time"},
      {"duration", "lather::xsd::duration"},
      {"QName", "lather::xsd::qname"},
      {"hexBinary", "lather::xsd::hex_binary"},
      {"base64Binary", "lather::xsd::base64_binary"},
      {"normalizedString", "lather::xsd::normalized_string"},
      {"token", "lather::xsd::token"},
      {"anyURI", "lather::xsd::any_uri"},
  };
  auto it = map.find(local);
  // The other built-ins (language, NCName, ID, gYear, ...) keep their lexical form.
  return it == map.end() ? "std::string" : it->second;
}

}  // namespace lather::wsdl::detail
