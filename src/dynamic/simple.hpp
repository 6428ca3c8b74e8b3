// Simple values: which JSON kind an XSD simple type maps to, whether a lexical value is valid
// for it (and why not), and the value of valid text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "lather/dynamic/value.hpp"
#include "lather/wsdl/model.hpp"

namespace lather::dynamic::detail {

/// The JSON kind of a built-in: xsd:boolean, the integer types, xsd:float/double, the rest.
enum class scalar : std::uint8_t { boolean, integer, number, text };
scalar category(const wsdl::simple_type* builtin);

/// `s` without leading and trailing XML whitespace.
std::string_view trim(std::string_view s);

/// Why `text` is not a valid value of `t` ("" when it is): the built-in's lexical space, the
/// integer types' ranges, the enumeration in effect.
std::string invalid_reason(const wsdl::simple_type& t, std::string_view text);

/// The value of valid text of `t`: typed for booleans, integers and floats, else the text.
value typed(const wsdl::simple_type& t, std::string_view text);

}  // namespace lather::dynamic::detail
