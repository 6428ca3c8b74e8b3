// Property: for randomly generated values, write -> read gives the same value, and reading into
// a reused destination gives the same result as reading into a fresh one. Bounded: a fixed
// seed and a fixed number of cases.
#include <gtest/gtest.h>

// GCC 12 with -fsanitize=address,undefined reports std::variant<..., std::string, Leaf> copies
// as maybe-uninitialized (a known false positive of its variant analysis).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "bind_test_util.hpp"

namespace prop {

inline constexpr std::string_view ns = "urn:lather:prop";

enum class Mode { off, on, auto_ };

struct Leaf {
  std::int8_t i8 = 0;
  std::uint16_t u16 = 0;
  std::int64_t i64 = 0;
  std::uint64_t u64 = 0;
  bool flag = false;
  std::string text;
  std::string attr;
  friend bool operator==(const Leaf&, const Leaf&) = default;
};

struct Tree {
  double d = 0;
  float f = 0;
  std::optional<std::int32_t> maybe;
  lather::nillable<std::string> nil_text;
  std::vector<Leaf> leaves;
  std::variant<std::int32_t, std::string, Leaf> pick;
  Mode mode = Mode::off;
  std::optional<Mode> mode_attr;
  lather::xsd::base64_binary blob;
  lather::xsd::decimal dec;
  std::vector<std::string> words;
  std::optional<Leaf> extra;
  friend bool operator==(const Tree&, const Tree&) = default;
};

}  // namespace prop

template <>
struct lather::meta<prop::Mode> {
  static constexpr std::string_view name = "Mode";
  static constexpr std::string_view ns = prop::ns;
  static constexpr auto values = enum_values<prop::Mode>(
      {{prop::Mode::off, "off"}, {prop::Mode::on, "on"}, {prop::Mode::auto_, "auto"}});
};
template <>
struct lather::meta<prop::Leaf> {
  using T = prop::Leaf;
  static constexpr std::string_view name = "Leaf";
  static constexpr std::string_view ns = prop::ns;
  static constexpr bind::form element_form = bind::form::unqualified;
  static constexpr auto fields =
      std::tuple{element("i8", &T::i8),      element("u16", &T::u16),   element("i64", &T::i64),
                 element("u64", &T::u64),    element("flag", &T::flag), element("text", &T::text),
                 attribute("attr", &T::attr)};
};
template <>
struct lather::meta<prop::Tree> {
  using T = prop::Tree;
  static constexpr std::string_view name = "Tree";
  static constexpr std::string_view ns = prop::ns;
  static constexpr auto fields = std::tuple{attribute("mode", &T::mode_attr),
                                            element("d", &T::d),
                                            element("f", &T::f),
                                            element("maybe", &T::maybe),
                                            element("nilText", &T::nil_text),
                                            element("leaf", &T::leaves),
                                            choice(&T::pick, {"num", "str", "sub"}),
                                            element("mode", &T::mode),
                                            element("blob", &T::blob),
                                            element("dec", &T::dec),
                                            element("word", &T::words),
                                            element("extra", &T::extra)};
};

namespace lather::bind::test {
namespace {

class generator {
 public:
  explicit generator(std::uint32_t seed) : rng_(seed) {}

  template <class I>
  I integer() {
    std::uniform_int_distribution<long long> pick(0, 3);
    switch (pick(rng_)) {
      case 0:
        return std::numeric_limits<I>::min();
      case 1:
        return std::numeric_limits<I>::max();
      default: {
        std::uint64_t bits = rng_();
        bits = (bits << 32) ^ rng_();
        I v;
        std::memcpy(&v, &bits, sizeof v);
        return v;
      }
    }
  }
  bool coin() { return rng_() & 1; }
  std::size_t below(std::size_t n) { return rng_() % n; }

  template <class F>
  F floating() {
    switch (below(6)) {
      case 0:
        return std::numeric_limits<F>::infinity();
      case 1:
        return -std::numeric_limits<F>::max();
      case 2:
        return std::numeric_limits<F>::denorm_min();
      case 3:
        return F(0);
      default:
        for (;;) {  // random bit patterns, NaN excluded (it never compares equal)
          std::uint64_t bits = (std::uint64_t{rng_()} << 32) ^ rng_();
          F v;
          std::memcpy(&v, &bits, sizeof v);
          if (!std::isnan(v)) return v;
        }
    }
  }

  std::string text() {
    static const char* const pieces[] = {"a",   "Z",  "0",  " ",  "  ", "<", ">", "&",  "\"", "'",
                                         "]]>", "\t", "\n", "\r", "é",  "€", "𝄞", "中", "x:y"};
    std::string s;
    std::size_t n = below(12);
    for (std::size_t i = 0; i < n; ++i) s += pieces[below(std::size(pieces))];
    return s;
  }

  prop::Leaf leaf() {
    prop::Leaf l;
    l.i8 = integer<std::int8_t>();
    l.u16 = integer<std::uint16_t>();
    l.i64 = integer<std::int64_t>();
    l.u64 = integer<std::uint64_t>();
    l.flag = coin();
    l.text = text();
    l.attr = text();
    return l;
  }

  std::string decimal() {
    std::string s = coin() ? "-" : "";
    std::size_t int_digits = below(20);
    if (int_digits == 0) {
      s += "0";
    } else {
      s += static_cast<char>('1' + below(9));
      for (std::size_t i = 1; i < int_digits; ++i) s += static_cast<char>('0' + below(10));
    }
    std::size_t frac = below(10);
    if (frac > 0) {
      s += '.';
      for (std::size_t i = 1; i < frac; ++i) s += static_cast<char>('0' + below(10));
      s += static_cast<char>('1' + below(9));
    }
    if (s == "-0") s = "0";
    return s;
  }

  prop::Tree tree() {
    prop::Tree t;
    t.d = floating<double>();
    t.f = floating<float>();
    if (coin()) t.maybe = integer<std::int32_t>();
    if (coin()) t.nil_text = text();
    for (std::size_t i = below(5); i > 0; --i) t.leaves.push_back(leaf());
    switch (below(3)) {
      case 0:
        t.pick.emplace<0>(integer<std::int32_t>());
        break;
      case 1:
        t.pick.emplace<1>(text());
        break;
      default:
        t.pick.emplace<2>(leaf());
    }
    t.mode = static_cast<prop::Mode>(below(3));
    if (coin()) t.mode_attr = static_cast<prop::Mode>(below(3));
    for (std::size_t i = below(40); i > 0; --i)
      t.blob.bytes.push_back(static_cast<std::uint8_t>(rng_()));
    t.dec.text = decimal();
    for (std::size_t i = below(4); i > 0; --i) t.words.push_back(text());
    if (coin()) t.extra = leaf();
    return t;
  }

 private:
  std::mt19937 rng_;
};

TEST(BindProperty, RandomValuesRoundTrip) {
  generator gen(20261129);
  prop::Tree reused;
  for (int i = 0; i < 400; ++i) {
    prop::Tree t = gen.tree();
    std::string doc = to_xml(prop::ns, "tree", t);
    prop::Tree fresh;
    error_info e = from_xml(doc, fresh);
    ASSERT_FALSE(e) << "case " << i << ": " << e.message << "\n" << doc;
    ASSERT_EQ(fresh, t) << "case " << i << "\n" << doc;
    e = from_xml(doc, reused);
    ASSERT_FALSE(e) << "case " << i << ": " << e.message;
    ASSERT_EQ(reused, t) << "case " << i << " (reused destination)\n" << doc;
    // Serialising what was read gives the same bytes.
    ASSERT_EQ(to_xml(prop::ns, "tree", fresh), doc) << "case " << i;
  }
}

}  // namespace
}  // namespace lather::bind::test
