// A hierarchy wider than a compiler's expression nesting limit (clang stops a fold expression
// at 256 operands): vSphere's MethodFault has 633 derived types. polymorphic<B> must still
// compile, copy, compare, destroy, write and read its last type.
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "bind_test_util.hpp"

namespace wide {

inline constexpr std::string_view ns = "urn:wide";
inline constexpr int leaves = 257;  // with the base and unknown_subtype: 259 > 256

struct Root {
  std::string label;
  friend bool operator==(const Root&, const Root&) = default;
};
template <int N>
struct Leaf : Root {
  int n = N;
  friend bool operator==(const Leaf&, const Leaf&) = default;
};
template <int... N>
lather::types<Leaf<N>...> leaf_list(std::integer_sequence<int, N...>);

struct Holder {
  lather::polymorphic<Root> item;
  friend bool operator==(const Holder&, const Holder&) = default;
};

// "L" followed by N's decimal digits.
template <int N>
struct leaf_name {
  static constexpr auto text = [] {
    std::array<char, 8> s{'L'};
    std::size_t size = 1;
    char digits[8];
    std::size_t d = 0;
    int n = N;
    do digits[d++] = static_cast<char>('0' + n % 10);
    while ((n /= 10) != 0);
    while (d != 0) s[size++] = digits[--d];
    return std::pair{s, size};
  }();
  static constexpr std::string_view value{text.first.data(), text.second};
};

}  // namespace wide

template <>
struct lather::meta<wide::Root> {
  static constexpr std::string_view name = "Root", ns = wide::ns;
  using derived = decltype(wide::leaf_list(std::make_integer_sequence<int, wide::leaves>{}));
  static constexpr auto fields = lather::fields(element("label", &wide::Root::label));
};
template <int N>
struct lather::meta<wide::Leaf<N>> {
  static constexpr std::string_view name = wide::leaf_name<N>::value, ns = wide::ns;
  using base = wide::Root;
  static constexpr auto fields = lather::fields(element("n", &wide::Leaf<N>::n));
};
template <>
struct lather::meta<wide::Holder> {
  static constexpr std::string_view name = "holder", ns = wide::ns;
  static constexpr auto fields = lather::fields(element("item", &wide::Holder::item));
};

namespace {

using lather::bind::test::from_xml;
using lather::bind::test::to_xml;

TEST(PolymorphicWide, HoldsReadsAndWritesTheLastOf257DerivedTypes) {
  using Last = wide::Leaf<wide::leaves - 1>;
  static_assert(wide::leaf_name<wide::leaves - 1>::value == "L256");
  wide::Holder h;
  Last last;
  last.label = "x";
  last.n = 7;
  h.item = last;
  wide::Holder copy = h;
  ASSERT_TRUE(copy.item.holds<Last>());
  EXPECT_EQ(copy, h);

  const std::string xml = to_xml(wide::ns, "holder", h);
  EXPECT_NE(xml.find(R"(type="ns1:L256"><ns1:label>x</ns1:label><ns1:n>7</ns1:n>)"),
            std::string::npos)
      << xml;
  wide::Holder back;
  back.item.emplace<wide::Leaf<0>>();
  ASSERT_FALSE(from_xml(xml, back)) << xml;
  ASSERT_TRUE(back.item.holds<Last>());
  EXPECT_EQ(back, h);

  // The first derived type and the base itself, read into the same holder.
  ASSERT_FALSE(
      from_xml(R"(<holder xmlns="urn:wide" xmlns:x="http://www.w3.org/2001/XMLSchema-instance">)"
               R"(<item x:type="L0"><label>a</label><n>3</n></item></holder>)",
               back));
  ASSERT_TRUE(back.item.holds<wide::Leaf<0>>());
  EXPECT_EQ(back.item.get_if<wide::Leaf<0>>()->n, 3);
  ASSERT_FALSE(
      from_xml(R"(<holder xmlns="urn:wide"><item><label>b</label></item></holder>)", back));
  EXPECT_TRUE(back.item.holds<wide::Root>());
  EXPECT_EQ(back.item->label, "b");
}

}  // namespace
