// lather/bind/describe.hpp — a static, type-erased description of bound types for schema
// (WSDL/XSD) generators: walk describe<T>() and the descriptions it points to.
//
//   const lather::bind::type_description& d = lather::bind::describe<perf::NestedComplexTypeSeq>();
//   for (const auto& f : d.fields)          // own fields (extension: see d.base)
//     emit(f.name, f.type().name, f.type().ns, f.min_occurs, f.max_occurs);
//
// Everything is constant-initialised from lather::meta<T>, or made once, on first use, from a
// table's run-time view (lather/bind/table.hpp: a constant description would cost a pointer per
// name and type); for meta<T>'s compile-time fields (member pointers included) use
// visit_fields<T>() / fields_of<T>.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <tuple>
#include <utility>

#include "lather/bind/meta.hpp"

namespace lather::bind {

enum class type_kind : std::uint8_t {
  builtin,         ///< an XSD built-in simple type (name/ns in the XSD namespace)
  enumeration,     ///< a restriction of xsd:string with enumeration facets
  complex,         ///< a sequence of elements plus attributes
  simple_content,  ///< attributes plus a text value (xsd:simpleContent)
  any_type,        ///< xsd:anyType
  choice,          ///< not a type: see field_description::alternatives
  any_element,     ///< not a type: xsd:any wildcard content (and an unknown field's)
  list,            ///< an xsd:list (lather::xsd::list<T>) of type_description::item's values
  any_attributes,  ///< not a type: xsd:anyAttribute wildcard attributes
};

struct type_description;
struct facets;
using describe_fn = const type_description& (*)();

/// One alternative of an xsd:choice field.
struct choice_alternative {
  std::string_view name;  ///< element name
  describe_fn type;
  bool nillable = false;  ///< a nillable element (a lather::nillable<T> alternative)
  /// An alternative of a restricted simple type: its facets (lather/bind/facets.hpp, a table's
  /// alternatives(), a meta<T>'s choice(m, names, facets)), nullptr where it has none.
  const facets* constraints = nullptr;
};

struct field_description {
  std::string_view name;  ///< element/attribute name ("" for text, xsd:any, xsd:anyAttribute)
  std::string_view ns;    ///< namespace of the element/attribute ("" = none / unqualified)
  field_kind kind;
  std::uint32_t min_occurs;
  std::uint32_t max_occurs;  ///< unbounded for maxOccurs="unbounded"
  bool nillable;
  bool required;  ///< attributes: use="required"
  bool has_default;
  /// The default="..." where has_default; for xsd:any and xsd:anyAttribute, the namespace
  /// constraint as declared (.namespaces(): "" where it has none).
  std::string_view default_value;
  bool polymorphic;  ///< a pointer member: xsi:type may name any type derived from `type`
  describe_fn type;  ///< value type (for choice and xsd:any: a description of that kind)
  std::span<const choice_alternative> alternatives;  ///< xsd:choice alternatives
  /// A field's facets (.facets(), lather/bind/facets.hpp), nullptr where it has none.
  const facets* constraints;
};

struct type_description {
  std::string_view name;
  std::string_view ns;
  type_kind kind;
  bool anonymous;     ///< meta<T>::anonymous: the type of one global element (wrappers)
  form element_form;  ///< elementFormDefault of the type's fields
  std::span<const field_description> fields;  ///< own fields, schema order
  describe_fn base;                           ///< xsd:extension base, or nullptr
  std::span<const describe_fn> derived;       ///< meta<T>::derived (direct and indirect)
  std::span<const std::string_view> enum_values;
  bool abstract;  ///< abstract_type<T>: no element of the type itself
  /// An inline model group (meta<T>::group): its fields stand, as a nested xsd:sequence,
  /// where a field or a choice alternative of the type is; no element has it as its type.
  bool group = false;
  /// type_kind::list: describe<T> of the item type (no name of its own: described inline).
  describe_fn item = nullptr;
};

template <class T>
const type_description& describe();

namespace detail {

template <class T>
constexpr type_kind kind_of() {
  if constexpr (simple_type<T>)
    return type_kind::builtin;
  else if constexpr (enumeration_type<T>)
    return type_kind::enumeration;
  else if constexpr (std::is_same_v<T, any_type>)
    return type_kind::any_type;
  else if constexpr (std::is_same_v<T, any_element> || std::is_same_v<T, unknown_elements>)
    return type_kind::any_element;
  else if constexpr (std::is_same_v<T, any_attributes>)
    return type_kind::any_attributes;
  else if constexpr (is_variant<T>::value)
    return type_kind::choice;
  else {
    bool text = false;
    std::apply([&](const auto&... f) { ((text = text || f.kind == field_kind::text), ...); },
               fields_of<T>);
    return text ? type_kind::simple_content : type_kind::complex;
  }
}

template <class V>
struct alternatives_of;
template <class... As>
struct alternatives_of<std::variant<As...>> {
  template <std::size_t N>
  static constexpr std::array<choice_alternative, N> make(
      const std::array<std::string_view, N>& names,
      const std::array<const facets*, N>& constraints) {
    std::array<describe_fn, N> types{&describe<typename declared_type<As>::type>...};
    std::array<bool, N> nillable{is_nillable<As>::value...};
    std::array<choice_alternative, N> out{};
    for (std::size_t i = 0; i < N; ++i) out[i] = {names[i], types[i], nillable[i], constraints[i]};
    return out;
  }
};

template <class T, std::size_t I>
struct field_alternatives {
  static constexpr auto& f = std::get<I>(own_fields_of<T>);
  using V = value_type_of<typename std::remove_cvref_t<decltype(f)>::member_type>;
  static constexpr auto value = [] {
    if constexpr (is_variant<V>::value)
      return alternatives_of<V>::make(f.alternatives, f.alternative_constraints);
    else
      return std::array<choice_alternative, 0>{};
  }();
};

template <class T, std::size_t I>
constexpr field_description describe_field() {
  constexpr auto& f = std::get<I>(own_fields_of<T>);
  using M = typename std::remove_cvref_t<decltype(f)>::member_type;
  using V = value_type_of<M>;
  return {f.name,
          f.ns,
          f.kind,
          f.min_occurs,
          f.max_occurs,
          f.is_nillable,
          f.is_required,
          f.has_default,
          f.kind == field_kind::any || f.kind == field_kind::any_attribute ? f.wildcard
                                                                           : f.default_text,
          shape<M>::is_pointer || shape<slot_type<M>>::is_pointer,
          &describe<typename shape<V>::value_type>,
          field_alternatives<T, I>::value,
          f.constraints};
}

template <class T>
struct description_of {
  static constexpr type_description value = {type_name_of<T>(),
                                             type_ns_of<T>(),
                                             kind_of<T>(),
                                             false,
                                             form::unset,
                                             {},
                                             nullptr,
                                             {},
                                             {},
                                             false};
};

template <class T>
requires(is_variant<T>::value || std::is_same_v<T, any_element> ||
         std::is_same_v<T, unknown_elements> ||
         std::is_same_v<T, any_attributes>) struct description_of<T> {
  static constexpr type_description value = {{}, {},      kind_of<T>(), false, form::unset,
                                             {}, nullptr, {},           {},    false};
};

template <class T>
struct description_of<xsd::list<T>> {
  static constexpr type_description value = {
      {},    {},    type_kind::list,        false, form::unset, {}, nullptr, {}, {},
      false, false, &describe<enum_of_t<T>>};
};

/// The lexical values of enumeration T, in meta<T>::values' order.
template <enum_type T>
constexpr auto enum_names() {
  std::array<std::string_view, meta<T>::values.size()> n{};
  for (std::size_t i = 0; i < n.size(); ++i) n[i] = meta<T>::values[i].name;
  return n;
}
/// The description of enumeration T, whose lexical values are `names` (enum_names<T>()).
template <enum_type T>
constexpr type_description enum_description(std::span<const std::string_view> names) {
  return {meta<T>::name, meta<T>::ns, type_kind::enumeration, false, form::unset, {}, nullptr, {},
          names,         false};
}

template <enum_type T>
struct description_of<T> {
  static constexpr auto names = enum_names<T>();
  static constexpr type_description value = enum_description<T>(names);
};
/// An open enumeration is described as its E.
template <open_enum_type T>
struct description_of<T> : description_of<typename T::value_type> {};

/// describe<D> for every type derived from T (meta<T>::derived, flattened).
template <class T>
inline constexpr auto derived_describers = []<class... Ds>(types<Ds...>) {
  return std::array<describe_fn, sizeof...(Ds)>{&describe<Ds>...};
}(derived_types_of<T>{});

/// describe<meta<T>::base>, or nullptr.
template <class T>
constexpr describe_fn base_describer() {
  if constexpr (derived_type<T>)
    return &describe<typename meta<T>::base>;
  else
    return nullptr;
}

template <class T>
constexpr bool anonymous_type() {
  if constexpr (requires { meta<T>::anonymous; })
    return meta<T>::anonymous;
  else
    return false;
}

template <complex_type T>
struct description_of<T> {
  static constexpr auto fields = []<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<field_description, sizeof...(I)>{describe_field<T, I>()...};
  }
  (std::make_index_sequence<std::tuple_size_v<std::remove_cvref_t<decltype(own_fields_of<T>)>>>{});
  static constexpr type_description value = {
      meta<T>::name,       meta<T>::ns,           kind_of<T>(),
      anonymous_type<T>(), type_form<T>(),        fields,
      base_describer<T>(), derived_describers<T>, {},
      abstract_type<T>};
};

}  // namespace detail

/// The static description of T (a bound complex type, enumeration or XSD built-in).
template <class T>
const type_description& describe() {
  return detail::description_of<T>::value;
}

}  // namespace lather::bind
