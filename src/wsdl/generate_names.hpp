// lather-wsdl2cpp: the names and literals the generated C++ is written with.
#pragma once

#include <set>
#include <string>
#include <string_view>

namespace lather::wsdl::detail {

/// A C++ identifier for an XML name: other characters become '_', a leading digit gets '_',
/// runs of '_' collapse (no reserved "__"), keywords and macros get a trailing '_'.
std::string identifier(std::string_view raw);

/// `base`, or base_2, base_3, ... : the first in neither `used` (which it joins) nor `avoid`.
std::string unique_name(std::string base, std::set<std::string>& used,
                        const std::set<std::string>& avoid = {});

/// A C++ string literal of `s`.
std::string quote(std::string_view s);

/// The C++ type of the XSD built-in with this local name (std::string for those without one).
const char* builtin_cpp(std::string_view local);

}  // namespace lather::wsdl::detail
