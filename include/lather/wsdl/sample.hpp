// lather/wsdl/sample.hpp — sample values for XSD simple types: the one table both the
// generated mock servers (lather-wsdl2cpp --mock) and the dynamic engine (lather-call --sample,
// --mock) take their sample data from, so the two write the same values.
//
//   const lather::wsdl::simple_type* t = ...;           // e.g. a part's or an element's type
//   std::string text = lather::wsdl::sample_value(*t);  // "0", "string", "2000-01-01", ...
#pragma once

#include <string>
#include <string_view>

#include "lather/wsdl/model.hpp"

namespace lather::wsdl {

/// A lexical value valid for `t`: its first enumeration value (the nearest one up the
/// restriction chain), else the sample of its built-in base ("string", "0", "true",
/// "2000-01-01T00:00:00Z", ...) moved into the range facets (min/max inclusive/exclusive) and
/// padded or cut to the length facets. A list type gives one item, a union its first member's
/// sample. Pattern facets are not honoured (no value is derived from a regular expression).
std::string sample_value(const simple_type& t);

/// The sample of the built-in type with this local name (string, int, dateTime, ...; anything
/// else gives "string").
std::string_view sample_builtin_value(std::string_view builtin_local);

}  // namespace lather::wsdl
