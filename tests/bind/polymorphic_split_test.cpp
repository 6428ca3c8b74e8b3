// A polymorphic<B> whose hierarchy is compiled in another translation unit
// (LATHER_BIND_POLYMORPHIC_EXTERN here, LATHER_BIND_POLYMORPHIC_INSTANTIATE there, as
// lather-wsdl2cpp splits a contract): every type of it is made, copied, compared, written, read
// back and destroyed from here (ASan: each as its own type).
#include <gtest/gtest.h>

#include <string>

#include "bind_test_util.hpp"
#include "polymorphic_split.hpp"

namespace {

using lather::bind::test::from_xml;
using lather::bind::test::to_xml;

ps::Shelf every_type() {
  ps::Shelf s;
  s.first->id = "item";
  ps::Book& b = s.rest.emplace_back().emplace<ps::Book>();
  b.authors.emplace_back(1, 'a');
  b.authors.emplace_back(1, 'b');
  ps::Ebook& e = s.rest.emplace_back().emplace<ps::Ebook>();
  e.id = "e";
  e.bytes = 42;
  ps::Disc& d = s.rest.emplace_back().emplace<ps::Disc>();
  d.minutes = 74;
  ps::Ebook& bonus = d.bonus.emplace<ps::Ebook>();
  bonus.id = "bonus";
  bonus.bytes = 7;
  s.rest.emplace_back().get().id = "plain";
  return s;
}

TEST(PolymorphicSplit, EveryTypeOfAHierarchyCompiledElsewhere) {
  const ps::Shelf s = every_type();
  ps::Shelf copy = s;  // deep copies, each as its type
  EXPECT_EQ(copy, s);
  ASSERT_TRUE(copy.rest[2].holds<ps::Disc>());
  EXPECT_TRUE(copy.rest[2].get_if<ps::Disc>()->bonus.holds<ps::Ebook>());
  copy.rest[2].get_if<ps::Disc>()->bonus.get_if<ps::Ebook>()->bytes = 8;
  EXPECT_NE(copy, s);

  const std::string xml = to_xml(ps::ns, "shelf", s);
  for (const char* type : {":type=\"ns1:Book\"", ":type=\"ns1:Ebook\"", ":type=\"ns1:Disc\""})
    EXPECT_NE(xml.find(type), std::string::npos) << type << "\n" << xml;
  ps::Shelf back;
  back.rest.emplace_back().emplace<ps::Disc>();  // replaced by a Book: destroyed as a Disc
  ASSERT_FALSE(from_xml(xml, back)) << xml;
  EXPECT_EQ(back, s);
  EXPECT_TRUE(back.rest[0].holds<ps::Book>());
  EXPECT_TRUE(back.rest[1].holds<ps::Ebook>());
  EXPECT_TRUE(back.rest[3].holds<ps::Item>());
  EXPECT_EQ(to_xml(ps::ns, "shelf", back), xml);
}

}  // namespace
