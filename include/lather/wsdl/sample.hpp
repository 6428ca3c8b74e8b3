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
/// sample. A pattern facet (the nearest one) gives a string generated from the regular
/// expression instead: the first branch of each alternation, each quantified atom repeated
/// max(min, 1) times within its bounds, from each character class a letter or digit where it
/// allows one.
std::string sample_value(const simple_type& t);

/// The same with `extra` facets in effect before those of `t`: the text of a simpleContent
/// restriction (complex_type::text_facets).
std::string sample_value(const simple_type& t, const facets& extra);

/// The sample of the built-in type with this local name (string, int, dateTime, ...; anything
/// else gives "string").
std::string_view sample_builtin_value(std::string_view builtin_local);

}  // namespace lather::wsdl
