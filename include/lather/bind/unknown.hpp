// lather/bind/unknown.hpp — child elements a type does not declare, kept and written back.
//
// A peer that is newer than the contract a program was built from sends elements no field
// declares. By default a reader refuses them (unexpected_element), or skips and loses them
// (read_options::skip_unknown_elements). A type that binds an unknown_elements member keeps
// them instead, as zeep's _raw_elements and JAXB's @XmlAnyElement do:
//
//   struct Order { std::string id; std::int32_t qty; lather::bind::unknown_elements extra; };
//   template <> struct lather::meta<Order> {
//     static constexpr std::string_view name = "Order", ns = "urn:acme";
//     static constexpr auto fields = lather::fields(element("id", &Order::id),
//         element("qty", &Order::qty), lather::unknown(&Order::extra));
//   };
//   // <Order><id>7</id><note>new</note><qty>2</qty><tag/></Order> reads with extra holding
//   // <note> (before field 1, qty) and <tag/> (after the declared content), and writes back as
//   // it came.
//
// (A table: lather::bind::table::unknown(ns, offsetof(Order, extra)); lather-wsdl2cpp
// --keep-unknown gives every generated type with element content one.) docs/binding.md,
// "Unknown elements", has the rules: what the member takes (only what no field, choice or
// wildcard of the type would), how each element's position is kept, and read_options::
// count_unknown, which counts what reads kept and skipped.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace lather::bind {

/// One child element no field of its parent's type declares, as received: its XML text with
/// every namespace it uses declared on it (any_element's form, captured the same way), and
/// where it stood among the declared children.
struct unknown_element {
  /// `field` of an element not read (one a program adds): written after the declared content.
  static constexpr std::uint32_t at_end = 0xFFFFFFFFu;
  std::string xml;
  /// The index, in the type's fields (meta<T>::fields with its bases' first, or its table;
  /// attributes counted), of the first field whose elements came after it: written back just
  /// before that field's elements. An element received between two items of one repeated
  /// field is written after them all: the position is kept per field, not per item.
  std::uint32_t field = at_end;
  friend bool operator==(const unknown_element&, const unknown_element&) = default;
};

/// The member that keeps a type's unknown child elements (lather::unknown, table::unknown), in
/// document order. One per type: a derived type shares its base's.
struct unknown_elements {
  std::vector<unknown_element> elements;

  bool empty() const noexcept { return elements.empty(); }
  std::size_t size() const noexcept { return elements.size(); }
  auto begin() const noexcept { return elements.begin(); }
  auto end() const noexcept { return elements.end(); }
  friend bool operator==(const unknown_elements&, const unknown_elements&) = default;
};

/// What reads met that no field declares (read_options::count_unknown points to one): child
/// elements kept by an unknown_elements member, and those skipped (skip_unknown_elements).
/// Atomic: the calls of a client or a service that share their options add to it from any
/// thread. Elements inside an unknown element or an unknown subtype kept whole are not counted.
struct unknown_counts {
  std::atomic<std::uint64_t> kept{0};
  std::atomic<std::uint64_t> skipped{0};
};

}  // namespace lather::bind
