// A hierarchy compiled in one translation unit (polymorphic_split_instantiate.cpp) and used from
// another (polymorphic_split_test.cpp): LATHER_BIND_POLYMORPHIC_EXTERN before any holder.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lather/bind/meta.hpp"
#include "lather/bind/polymorphic.hpp"

namespace ps {
struct Item;
}  // namespace ps

LATHER_BIND_POLYMORPHIC_EXTERN(ps::Item);

namespace ps {

inline constexpr std::string_view ns = "urn:ps";

struct Item {
  std::string id;
  friend bool operator==(const Item&, const Item&) = default;
};
struct Book : Item {
  friend bool operator==(const Book&, const Book&) = default;
  std::vector<std::string> authors;
};
struct Ebook : Book {
  friend bool operator==(const Ebook&, const Ebook&) = default;
  std::optional<std::int64_t> bytes;
};
struct Disc : Item {
  std::int32_t minutes = 0;
  lather::polymorphic<Item> bonus;  // the hierarchy again, inside one of its types
  friend bool operator==(const Disc&, const Disc&) = default;
};
struct Shelf {
  friend bool operator==(const Shelf&, const Shelf&) = default;
  lather::polymorphic<Item> first;  // an Item when made
  std::vector<lather::polymorphic<Item>> rest;
};

}  // namespace ps

// Each meta<T>: its place in the hierarchy, its fields, its name.
template <>
struct lather::meta<ps::Item> {
  using derived = types<ps::Book, ps::Disc>;
  static constexpr auto fields = lather::fields(element("id", &ps::Item::id));
  static constexpr std::string_view name = "Item", ns = ps::ns;
};
template <>
struct lather::meta<ps::Book> {
  using base = ps::Item;
  using derived = types<ps::Ebook>;
  static constexpr auto fields = lather::fields(element("author", &ps::Book::authors));
  static constexpr std::string_view name = "Book", ns = ps::ns;
};
template <>
struct lather::meta<ps::Ebook> {
  using base = ps::Book;
  static constexpr auto fields = lather::fields(element("bytes", &ps::Ebook::bytes));
  static constexpr std::string_view name = "Ebook", ns = ps::ns;
};
template <>
struct lather::meta<ps::Disc> {
  using base = ps::Item;
  static constexpr auto fields =
      lather::fields(element("minutes", &ps::Disc::minutes), element("bonus", &ps::Disc::bonus));
  static constexpr std::string_view name = "Disc", ns = ps::ns;
};
template <>
struct lather::meta<ps::Shelf> {
  static constexpr auto fields =
      lather::fields(element("first", &ps::Shelf::first), element("item", &ps::Shelf::rest));
  static constexpr std::string_view name = "shelf", ns = ps::ns;
};
