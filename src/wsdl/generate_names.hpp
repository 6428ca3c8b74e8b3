// lather-wsdl2cpp: the names and literals the generated C++ is written with.
#pragma once

#include <set>
#include <string>
#include <string_view>

namespace lather::wsdl::detail {

/// A C++ identifier for an XML name: other characters become '_', a leading digit gets '_',
/// runs of '_' collapse (no reserved "__"), "_X" becomes "x_X", keywords and macros get a
/// trailing '_'.
std::string identifier(std::string_view raw);

/// `name` and `suffix` (identifiers) joined by one '_': "ping" or "ping_" with "async" give
/// "ping_async", never a reserved "__".
std::string joined(std::string_view name, std::string_view suffix);

/// The classes generated for a port type named `cls`: its client proxy and its abstract
/// service. Reserved before any type is named; never a method's name (the constructor's).
std::set<std::string> port_type_classes(std::string_view cls);

/// Orders names ignoring ASCII case (generated names are ASCII): the order of file stems, since
/// on macOS and Windows file systems T.hpp and t.hpp are one file.
struct case_insensitive_less {
  bool operator()(std::string_view a, std::string_view b) const noexcept;
};
/// The stems of the generated files (file.hpp), unique whatever the case.
using file_stem_set = std::set<std::string, case_insensitive_less>;

/// `base`, or base_2, base_3, ... (base2, base3 when it ends with '_': never "__"): the first
/// in neither `used` (which it joins, by its order) nor `avoid`.
template <class Less>
std::string unique_name(std::string base, std::set<std::string, Less>& used,
                        const std::set<std::string>& avoid = {}) {
  if (!avoid.count(base) && used.insert(base).second) return base;
  for (int i = 2;; ++i) {
    std::string n = joined(base, std::to_string(i));
    if (!avoid.count(n) && used.insert(n).second) return n;
  }
}

/// A C++ string literal of `s`.
std::string quote(std::string_view s);

/// The C++ type of the XSD built-in with this local name (std::string for those without one).
const char* builtin_cpp(std::string_view local);

}  // namespace lather::wsdl::detail
