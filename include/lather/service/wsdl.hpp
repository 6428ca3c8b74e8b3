// lather/service/wsdl.hpp — WSDL 1.1 + XSD generated from a registered service.
//
// The generator walks the same compile-time metadata the binding uses (lather::meta<T>), so
// the contract served at `?wsdl` always matches what the endpoint reads and writes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lather/bind/extern.hpp"
#include "lather/bind/meta.hpp"
#include "lather/soap/style.hpp"

namespace lather {
namespace bind {
struct field_description;
}  // namespace bind

class service;
struct operation_options;

/// An XSD type reference {namespace}name.
struct xsd_ref {
  std::string ns, name;
};

/// One alternative of an xs:choice: its element name and type.
struct xsd_alternative {
  std::string name;
  xsd_ref type;
  bool nillable = false;
};

/// One particle or attribute of a complex type (or one part of an RPC message).
struct xsd_field {
  enum class kind : std::uint8_t { element, attribute, text, any, choice } what = kind::element;
  std::string name, ns;  ///< ns "" = unqualified
  xsd_ref type;
  std::uint32_t min = 1, max = 1;
  bool nillable = false, required = false;
  std::string default_text;
  std::vector<xsd_alternative> alternatives;  ///< choice
};

struct xsd_type_def {
  xsd_ref id;
  bool enumeration = false;
  std::vector<std::string> values;  ///< enumeration
  std::vector<xsd_field> fields;    ///< complex type (own fields when derived)
  std::optional<xsd_ref> base;      ///< complexContent extension
  bool abstract = false;
};

/// A declared fault: wsdl:fault `name`, its message's part is the global element `element`.
struct wsdl_fault_def {
  std::string name;
  xsd_ref element;
};

struct wsdl_operation_def {
  std::string name, action, documentation;
  soap::style style = soap::style::document_wrapped;
  bool one_way = false;
  std::string element_ns, request_element, response_element;  ///< document styles
  std::string response_ns;  ///< the response element's namespace ("" = element_ns)
  std::vector<xsd_field> request_parts, response_parts;  ///< RPC styles
  std::vector<wsdl_fault_def> faults;
};

/// Collects types, global elements and operations while operations describe themselves.
class wsdl_builder {
 public:
  /// Register T (and every type it uses) and return its XSD type name.
  template <class T>
  xsd_ref type_of();
  /// T's fields as XSD particles (for anonymous wrapper types and RPC parts).
  template <class T>
  std::vector<xsd_field> fields_of();
  /// type_of and fields_of for a type described at run time (bind::describe<T>(): how the
  /// types bound through tables, lather/bind/table.hpp, are described).
  xsd_ref type_of(const bind::type_description& d);
  std::vector<xsd_field> fields_of(const bind::type_description& d);

  void add_element(std::string ns, std::string name, std::vector<xsd_field> anonymous_type);
  void add_element(std::string ns, std::string name, xsd_ref type);
  /// Add `op`, with the faults `o` declares (their detail elements are registered too).
  void add_operation(wsdl_operation_def op, const operation_options& o);

  struct element_def {
    std::string ns, name;
    std::optional<xsd_ref> type;
    std::vector<xsd_field> anonymous;
  };
  const std::map<std::pair<std::string, std::string>, xsd_type_def>& types() const {
    return types_;
  }
  const std::vector<element_def>& elements() const { return elements_; }
  const std::vector<wsdl_operation_def>& operations() const { return operations_; }

 private:
  template <class F>
  xsd_field field_of(const F& f);
  xsd_field field_of(const bind::field_description& f);
  template <class V>
  xsd_ref value_type_ref();

  std::map<std::pair<std::string, std::string>, xsd_type_def> types_;
  std::vector<element_def> elements_;
  std::vector<wsdl_operation_def> operations_;
};

/// The WSDL 1.1 document of `s` with `address` as every port's location: SOAP 1.1 and/or 1.2
/// bindings (as the service accepts), one schema per namespace in wsdl:types.
std::string generate_wsdl(const service& s, std::string_view address);

// ---- templates ----

template <class V>
xsd_ref wsdl_builder::value_type_ref() {
  if constexpr (bind::simple_type<V>) {
    return {std::string(bind::xsd_namespace), std::string(bind::xsd_traits<V>::type_name)};
  } else if constexpr (std::is_same_v<V, bind::any_type>) {
    return {std::string(bind::xsd_namespace), "anyType"};
  } else {
    return type_of<V>();
  }
}

template <class F>
xsd_field wsdl_builder::field_of(const F& f) {
  using M = typename F::member_type;
  using V = bind::value_type_of<M>;
  xsd_field x;
  x.name = std::string(f.name);
  x.ns = std::string(f.ns);
  x.min = f.min_occurs;
  x.max = f.max_occurs;
  x.nillable = f.is_nillable;
  x.required = f.is_required;
  if (f.has_default) x.default_text = std::string(f.default_text);
  switch (f.kind) {
    case bind::field_kind::attribute:
      x.what = xsd_field::kind::attribute;
      break;
    case bind::field_kind::text:
      x.what = xsd_field::kind::text;
      break;
    case bind::field_kind::any:
      x.what = xsd_field::kind::any;
      break;
    case bind::field_kind::element:
      x.what = xsd_field::kind::element;
      break;
  }
  if constexpr (bind::is_variant<V>::value) {
    x.what = xsd_field::kind::choice;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (x.alternatives.push_back(
           {std::string(f.alternatives[I]),
            value_type_ref<bind::value_type_of<std::variant_alternative_t<I, V>>>(),
            bind::is_nillable<std::variant_alternative_t<I, V>>::value}),
       ...);
    }
    (std::make_index_sequence<std::variant_size_v<V>>{});
  } else if constexpr (!std::is_same_v<V, bind::any_element>) {
    x.type = value_type_ref<V>();
  }
  return x;
}

template <class T>
std::vector<xsd_field> wsdl_builder::fields_of() {
  if constexpr (bind::table_bound<T>) {
    return fields_of(bind::describe<T>());
  } else {
    std::vector<xsd_field> out;
    bind::visit_fields<T>([&](const auto& f) { out.push_back(field_of(f)); });
    return out;
  }
}

template <class T>
xsd_ref wsdl_builder::type_of() {
  if constexpr (bind::table_bound<T>) {
    return type_of(bind::describe<T>());
  } else {
    xsd_ref id{std::string(meta<T>::ns), std::string(meta<T>::name)};
    auto key = std::pair{id.ns, id.name};
    if (types_.count(key)) return id;
    xsd_type_def& d = types_[key];  // registered first: recursive types terminate
    d.id = id;
    if constexpr (bind::enum_type<T>) {
      d.enumeration = true;
      for (const auto& e : meta<T>::values) d.values.emplace_back(e.name);
    } else {
      d.abstract = std::is_abstract_v<T>;
      std::vector<xsd_field> fields;
      if constexpr (bind::derived_type<T>) {
        using B = typename meta<T>::base;
        xsd_ref base = type_of<B>();
        std::apply([&](const auto&... f) { (fields.push_back(field_of(f)), ...); },
                   bind::own_fields_of<T>);
        types_[key].base = base;
      } else {
        fields = fields_of<T>();
      }
      types_[key].fields = std::move(fields);
      [&]<class... Ds>(lather::types<Ds...>) { (type_of<Ds>(), ...); }(bind::derived_types_of<T>{});
    }
    return id;
  }
}

}  // namespace lather
