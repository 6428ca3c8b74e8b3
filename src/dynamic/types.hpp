// The runtime type model: each complex type of a loaded contract flattened once into the
// list of fields a message of it carries (its base's first), which the dynamic writer, reader
// and sample builder walk instead of the nested content model.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lather/wsdl/model.hpp"

namespace lather::dynamic::detail {

inline constexpr std::string_view text_key = "_value";
inline constexpr std::string_view any_key = "_any";
inline constexpr std::string_view type_key = "_type";

struct field {
  enum class kind : std::uint8_t { element, attribute, any, text } what = kind::element;
  std::string key;  ///< the value's member name: local name, "_any" or "_value"
  const wsdl::element_decl* element = nullptr;
  const wsdl::attribute_use* attribute = nullptr;
  const wsdl::wildcard* any = nullptr;
  const wsdl::simple_type* text = nullptr;
  const wsdl::facets* text_facets = nullptr;  ///< a simpleContent restriction's own facets
  bool required = false;                      ///< every valid message has it
  bool sample = false;    ///< the sample message has it (required within the first branches)
  bool repeated = false;  ///< maxOccurs > 1 here or on an enclosing group: an array
};

struct flat_type {
  std::vector<field> fields;  ///< attributes, then elements in schema order, any, text
  std::unordered_map<std::string_view, std::size_t> by_key;
  const field* find(std::string_view key) const {
    auto it = by_key.find(key);
    return it == by_key.end() ? nullptr : &fields[it->second];
  }
};

class type_model {
 public:
  explicit type_model(const wsdl::model& m);
  const wsdl::model& model() const noexcept { return model_; }

  /// The flattened fields of `t` (built on first use; thread-safe).
  const flat_type& flat(const wsdl::complex_type& t) const;
  /// A type derived from `base` (or `base` itself) named `name` (a local name or "{ns}local").
  const wsdl::type* derived(const wsdl::type& base, std::string_view name) const;
  /// `t`, or when it is abstract its first non-abstract derived type (nullptr: none).
  const wsdl::type* concrete(const wsdl::type& t) const;
  /// A global element of namespace `ns` (for a strict wildcard's sample), nullptr if none.
  const wsdl::element_decl* element_in(std::string_view ns) const;

 private:
  void add_type(flat_type& f, const wsdl::complex_type& t) const;
  void add_particle(flat_type& f, const wsdl::particle& p, bool must, bool want,
                    bool repeated) const;
  void add_field(flat_type& f, field x) const;

  const wsdl::model& model_;
  std::multimap<const wsdl::type*, const wsdl::type*> derived_;  // base -> directly derived
  mutable std::mutex mutex_;
  mutable std::unordered_map<const wsdl::complex_type*, std::unique_ptr<flat_type>> flat_;
};

/// "xsd:int", "tns:Name" style label of a type for signatures and messages: "xsd:" for the
/// built-ins, else the local name (anonymous types: the declaring element's name + "{}").
std::string type_label(const wsdl::type& t);

}  // namespace lather::dynamic::detail
