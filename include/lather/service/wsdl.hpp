// lather/service/wsdl.hpp — WSDL 1.1 + XSD generated from a registered service.
//
// The generator walks the static descriptions of the bound types (lather/bind/describe.hpp,
// made from the same metadata the binding uses: lather::meta<T> or a table), so
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

#include "lather/bind/describe.hpp"
#include "lather/soap/style.hpp"

namespace lather {

class service;
struct operation_options;

/// An XSD type reference {namespace}name.
struct xsd_ref {
  std::string ns, name;
};

struct xsd_field;

/// One alternative of an xs:choice: its element name and type, or an inline group's particles
/// (a nested xs:sequence: bind::type_description::group).
struct xsd_alternative {
  std::string name;
  xsd_ref type;
  bool nillable = false;
  std::vector<xsd_field> group;  ///< an inline group: its particles (name and type unused)
  bool list = false;             ///< an xsd:list of `type` (xsd_field::list)
  /// Its facets (bind::choice_alternative::constraints), as xsd_field::constraints.
  const bind::facets* constraints = nullptr;
};

/// One particle or attribute of a complex type (or one part of an RPC message).
struct xsd_field {
  enum class kind : std::uint8_t {
    element,
    attribute,
    text,
    any,
    choice,
    sequence,       ///< an inline group (bind::type_description::group): `particles` in place
    any_attribute,  ///< xs:anyAttribute (after the attributes)
  } what = kind::element;
  std::string name, ns;  ///< ns "" = unqualified
  xsd_ref type;
  std::uint32_t min = 1, max = 1;
  bool nillable = false, required = false;
  /// default="..."; any: its namespace="..." ("" = ##other); any_attribute: its namespace="..."
  /// ("" = ##any)
  std::string default_text;
  std::vector<xsd_alternative> alternatives;  ///< choice
  std::vector<xsd_field> particles;           ///< sequence
  /// A simple element's or attribute's facets (bind::field_description::constraints): its
  /// type is then an anonymous restriction of `type`. nullptr where none.
  const bind::facets* constraints = nullptr;
  /// The value is an xsd:list of `type` (lather::xsd::list): an element's or attribute's type
  /// is then an anonymous `<xs:list>` (restricted by `constraints`, lengths in items).
  bool list = false;
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

/// A soap:header of an operation: its global element, the part of its message, and the
/// elements of its soap:headerfaults.
struct wsdl_header_def {
  xsd_ref element;
  std::string part;
  bool response = false, required = false;
  std::vector<xsd_ref> faults;
};

struct wsdl_operation_def {
  std::string name, action, documentation;
  soap::style style = soap::style::document_wrapped;
  bool one_way = false;
  std::string element_ns, request_element, response_element;  ///< document styles
  std::string response_ns;  ///< the response element's namespace ("" = element_ns)
  std::vector<xsd_field> request_parts, response_parts;  ///< RPC styles
  std::vector<wsdl_fault_def> faults;
  std::vector<wsdl_header_def> headers;
  /// Faults, headers and header faults the operation declares whose type XML Schema cannot
  /// express (it reaches values only SOAP encoding writes): not in the WSDL, and named in the
  /// operation's wsdl:documentation instead, so that leaving them out is never silent.
  std::vector<std::string> undescribed;
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
  /// type_of and fields_of for a type's static description (bind::describe<T>()).
  xsd_ref type_of(const bind::type_description& d);
  std::vector<xsd_field> fields_of(const bind::type_description& d);

  void add_element(std::string ns, std::string name, std::vector<xsd_field> anonymous_type);
  void add_element(std::string ns, std::string name, xsd_ref type);
  /// Add `op`, with the faults and headers `o` declares (their elements are registered too).
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
  xsd_field field_of(const bind::field_description& f);

  std::map<std::pair<std::string, std::string>, xsd_type_def> types_;
  std::vector<element_def> elements_;
  std::vector<wsdl_operation_def> operations_;
};

/// The WSDL 1.1 document of `s` with `address` as every port's location: SOAP 1.1 and/or 1.2
/// bindings (as the service accepts), one schema per namespace in wsdl:types.
std::string generate_wsdl(const service& s, std::string_view address);

// ---- templates ----

// Every bound type has a static description (lather/bind/describe.hpp: meta<T>'s fields or
// a table's), so one walk over descriptions serves both.
template <class T>
std::vector<xsd_field> wsdl_builder::fields_of() {
  return fields_of(bind::describe<T>());
}

template <class T>
xsd_ref wsdl_builder::type_of() {
  return type_of(bind::describe<T>());
}

}  // namespace lather
