// Names in lather::meta<T> are checked when the program compiles. Built as a test (a struct
// whose element, attribute and choice names are unusual but valid NCNames, written and read
// back) and, with BAD_NAME set, by CTest with the compiler alone, expecting the compilation to
// fail with element_or_attribute_name_is_not_an_NCName in the message (tests/bind/CMakeLists.txt).
#include <string>
#include <variant>

#include "lather/bind/meta.hpp"

namespace names {

struct Entry {
  std::string size;
  std::string dotted;
  std::variant<int, std::string> either;
};

// Each BAD_NAME case spoils one name.
#if BAD_NAME == 1
constexpr std::string_view element_name = "größe sum";  // a space
#else
constexpr std::string_view element_name = "größe";  // NCNames are not only ASCII
#endif
#if BAD_NAME == 2
constexpr std::string_view attribute_name = "xml:lang";  // a prefix
#else
constexpr std::string_view attribute_name = "a.b-c_1";
#endif
#if BAD_NAME == 3
constexpr std::string_view alternative_name = "1text";  // a leading digit
#else
constexpr std::string_view alternative_name = "text";
#endif

}  // namespace names

template <>
struct lather::meta<names::Entry> {
  static constexpr std::string_view name = "Entry";
  static constexpr std::string_view ns = "urn:lather:names";
  static constexpr auto fields =
      std::tuple{element(names::element_name, &names::Entry::size),
                 attribute(names::attribute_name, &names::Entry::dotted),
                 choice(&names::Entry::either, {"number", names::alternative_name})};
};

#ifndef BAD_NAME
#include <gtest/gtest.h>

#include "bind_test_util.hpp"

namespace {

TEST(meta_names, ValidNonAsciiAndPunctuatedNamesRoundTrip) {
  const names::Entry in{"XL", "d", std::string("t")};
  const std::string xml = lather::bind::test::to_xml("urn:lather:names", "entry", in);
  EXPECT_NE(xml.find(":größe>XL</"), std::string::npos) << xml;
  EXPECT_NE(xml.find(" a.b-c_1=\"d\""), std::string::npos) << xml;
  names::Entry out;
  ASSERT_FALSE(lather::bind::test::from_xml(xml, out)) << xml;
  EXPECT_EQ(out.size, "XL");
  EXPECT_EQ(out.dotted, "d");
  EXPECT_EQ(out.either, in.either);
}

// What counts as an NCName (lather::xml::is_ncname), in constant expressions as meta<T> uses it.
static_assert(lather::xml::is_ncname("a"));
static_assert(lather::xml::is_ncname("_x-1.y"));
static_assert(lather::xml::is_ncname("\xC3\xA9t\xC3\xA9"));  // été
static_assert(lather::xml::is_ncname("x\xC2\xB7y"));         // U+00B7 inside
static_assert(lather::xml::is_ncname("\xF0\x90\x80\x80"));   // U+10000
static_assert(!lather::xml::is_ncname(""));
static_assert(!lather::xml::is_ncname("a:b"));
static_assert(!lather::xml::is_ncname("a b"));
static_assert(!lather::xml::is_ncname("1a"));
static_assert(!lather::xml::is_ncname("-a"));
static_assert(!lather::xml::is_ncname("\xC2\xB7y"));      // U+00B7 cannot start
static_assert(!lather::xml::is_ncname("\xC3"));           // truncated UTF-8
static_assert(!lather::xml::is_ncname("\xC0\xA1"));       // overlong
static_assert(!lather::xml::is_ncname("\xED\xA0\x80"));   // a surrogate
static_assert(!lather::xml::is_ncname("a\xEF\xBF\xBF"));  // U+FFFF

}  // namespace
#endif
