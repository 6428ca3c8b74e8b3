// lather/bind/any_attributes.hpp — the attributes an element carried that its type does not
// declare (xsd:anyAttribute), kept by name and value.
//
//   struct Item {
//     std::string id;
//     lather::bind::any_attributes other;   // JAXB's @XmlAnyAttribute Map<QName, String>
//   };
//   template <> struct lather::meta<Item> {
//     ...
//     static constexpr auto fields = lather::fields(
//         attribute("id", &Item::id),
//         any_attribute(&Item::other).namespaces("##other"));
//   };
//
//   // <t:item id="7" x:colour="red" xmlns:x="urn:x"/> read into `item`:
//   //   item.other.find("urn:x", "colour") -> "red"
//   item.other.set("urn:x", "size", "L");   // written after id, with x's namespace declared
//
// Reading keeps each attribute that no declared attribute of the type takes and that the
// wildcard's namespace constraint allows, in document order: its namespace URI ("" for none),
// local name and value as the reader decodes it (entities expanded, whitespace normalised).
// Namespace declarations are not attributes and are never kept; nor are the attributes the
// binding interprets itself (xsi:type, xsi:nil and the rest of the XML Schema instance
// namespace, the SOAP encoding namespaces) or the SOAP layer does (the SOAP 1.1 and 1.2
// envelope namespaces: a header entry's mustUnderstand, actor/role and relay, encodingStyle),
// which address the node reading the message: a header read and sent on again does not repeat
// them. An attribute outside the constraint is ignored, as an undeclared attribute of a type
// without a wildcard is. Writing puts them after the declared attributes, each namespace
// declared where it is not in scope (a prefix generated), an attribute in no namespace
// unprefixed, the values escaped; a SOAP envelope attribute set by hand is written (e.g.
// mustUnderstand on a header entry that nothing else marks so).
//
// A value read into a reused destination reuses its strings (no allocation once warmed up);
// an element that carries none allocates nothing.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace lather::bind {

/// One attribute kept by an xsd:anyAttribute wildcard.
struct wildcard_attribute {
  std::string ns;     ///< namespace URI ("" = no namespace: written unprefixed)
  std::string local;  ///< local name (an NCName)
  std::string value;  ///< the value as text (decoded; escaped again on write)
  friend bool operator==(const wildcard_attribute&, const wildcard_attribute&) = default;
};

/// The attributes of an xsd:anyAttribute wildcard, in document order (lather::any_attribute(),
/// lather::bind::table::any_attribute()).
struct any_attributes {
  std::vector<wildcard_attribute> items;

  bool empty() const noexcept { return items.empty(); }
  std::size_t size() const noexcept { return items.size(); }
  auto begin() noexcept { return items.begin(); }
  auto end() noexcept { return items.end(); }
  auto begin() const noexcept { return items.begin(); }
  auto end() const noexcept { return items.end(); }
  void clear() noexcept { items.clear(); }

  /// The value of {ns}local, or nullptr if there is none.
  const std::string* find(std::string_view ns, std::string_view local) const noexcept {
    for (const wildcard_attribute& a : items)
      if (a.local == local && a.ns == ns) return &a.value;
    return nullptr;
  }
  /// Set {ns}local to `value`: replaced where it is there, else added last.
  void set(std::string_view ns, std::string_view local, std::string_view value) {
    for (wildcard_attribute& a : items) {
      if (a.local == local && a.ns == ns) {
        a.value.assign(value);
        return;
      }
    }
    items.push_back({std::string(ns), std::string(local), std::string(value)});
  }
  /// Remove {ns}local; whether it was there.
  bool erase(std::string_view ns, std::string_view local) {
    for (auto it = items.begin(); it != items.end(); ++it) {
      if (it->local == local && it->ns == ns) {
        items.erase(it);
        return true;
      }
    }
    return false;
  }

  friend bool operator==(const any_attributes&, const any_attributes&) = default;
};

}  // namespace lather::bind
