// An xsi:type that names a type with no binding (a subtype a peer added): kept as an
// unknown_subtype<B> where read_options::keep_unknown_subtypes allows it, written back as
// received; an error otherwise. And an object of an abstract type is not written at all.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <typeinfo>
#include <vector>

#include "bind_test_util.hpp"
#include "lather/bind/bind.hpp"

// The contract as the server has it (`full`): an abstract Shape, a Square the client knows
// too, a known `Group` that holds shapes, and a Circle (with an element and an attribute of
// another namespace, and shapes inside) the client (`known`) does not have.
#define LATHER_TEST_SHAPE_TYPES(NS)                    \
  namespace NS {                                       \
  constexpr std::string_view ns = "urn:lather:shapes"; \
  struct Shape {                                       \
    virtual ~Shape() = default;                        \
    std::string name;                                  \
    std::int32_t id = 0;                               \
    std::shared_ptr<Shape> next;                       \
  };                                                   \
  struct Square : Shape {                              \
    double side = 0;                                   \
  };                                                   \
  struct Group : Shape {                               \
    std::vector<std::shared_ptr<Shape>> member;        \
  };                                                   \
  struct Drawing {                                     \
    std::vector<std::shared_ptr<Shape>> shape;         \
    std::string title;                                 \
  };                                                   \
  }

LATHER_TEST_SHAPE_TYPES(full)
LATHER_TEST_SHAPE_TYPES(known)
#undef LATHER_TEST_SHAPE_TYPES

namespace full {
constexpr std::string_view ext = "urn:lather:shapes:ext";
struct Circle : Shape {
  double radius = 0;
  std::string unit;
  std::shared_ptr<Shape> inner;
};
}  // namespace full

#define LATHER_TEST_SHAPES(NS, ...)                                                               \
  template <>                                                                                     \
  struct lather::meta<NS::Shape> {                                                                \
    static constexpr std::string_view name = "Shape", ns = NS::ns;                                \
    static constexpr bool abstract = true;                                                        \
    using derived = types<__VA_ARGS__>;                                                           \
    static constexpr auto fields =                                                                \
        std::tuple{element("name", &NS::Shape::name), element("next", &NS::Shape::next).min(0),   \
                   attribute("id", &NS::Shape::id)};                                              \
  };                                                                                              \
  template <>                                                                                     \
  struct lather::meta<NS::Square> {                                                               \
    static constexpr std::string_view name = "Square", ns = NS::ns;                               \
    using base = NS::Shape;                                                                       \
    static constexpr auto fields = std::tuple{element("side", &NS::Square::side)};                \
  };                                                                                              \
  template <>                                                                                     \
  struct lather::meta<NS::Group> {                                                                \
    static constexpr std::string_view name = "Group", ns = NS::ns;                                \
    using base = NS::Shape;                                                                       \
    static constexpr auto fields = std::tuple{element("member", &NS::Group::member)};             \
  };                                                                                              \
  template <>                                                                                     \
  struct lather::meta<NS::Drawing> {                                                              \
    static constexpr std::string_view name = "drawing", ns = NS::ns;                              \
    static constexpr auto fields =                                                                \
        std::tuple{element("shape", &NS::Drawing::shape), element("title", &NS::Drawing::title)}; \
  }

LATHER_TEST_SHAPES(full, full::Square, full::Group, full::Circle);
LATHER_TEST_SHAPES(known, known::Square, known::Group);
#undef LATHER_TEST_SHAPES

template <>
struct lather::meta<full::Circle> {
  static constexpr std::string_view name = "Circle", ns = full::ext;
  using base = full::Shape;
  static constexpr auto fields =
      std::tuple{element("radius", &full::Circle::radius).in_namespace(full::ext),
                 attribute("unit", &full::Circle::unit).in_namespace(full::ext),
                 element("inner", &full::Circle::inner).in_namespace(full::ext).min(0)};
};

namespace lather::bind::test {
namespace {

using unknown_shape = unknown_subtype<known::Shape>;

read_options keeping() {
  read_options o;
  o.keep_unknown_subtypes = true;
  return o;
}

/// The dynamic type of `s` (typeid of an expression with side effects warns).
const std::type_info& type_of(const known::Shape& s) {
  return typeid(s);
}

template <class D>
std::shared_ptr<D> make(std::string name, std::int32_t id) {
  auto d = std::make_shared<D>();
  d->name = std::move(name);
  d->id = id;
  return d;
}

/// A drawing of the server's: a Square, a Circle holding a Circle holding a Square, a Group
/// (known) holding a Circle.
full::Drawing server_drawing() {
  full::Drawing d;
  d.title = "t";
  auto sq = make<full::Square>("sq", 1);
  sq->side = 2.5;
  auto inner_sq = make<full::Square>("in", 4);
  inner_sq->side = 1;
  auto inner = make<full::Circle>("c2", 3);
  inner->radius = 0.5;
  inner->inner = inner_sq;
  auto circle = make<full::Circle>("c1", 2);
  circle->radius = 7;
  circle->unit = "mm";
  circle->inner = inner;
  auto grouped = make<full::Circle>("c3", 6);
  grouped->radius = 3;
  auto group = make<full::Group>("g", 5);
  group->member = {grouped};
  d.shape = {sq, circle, group};
  return d;
}

TEST(BindUnknownSubtype, KeptAndWrittenBackByteForByte) {
  const std::string sent = to_xml(full::ns, "drawing", server_drawing());
  known::Drawing d;
  error_info e = from_xml(sent, d, keeping());
  ASSERT_FALSE(e) << e.message << "\n" << sent;
  ASSERT_EQ(d.shape.size(), 3u);
  EXPECT_EQ(type_of(*d.shape[0]), typeid(known::Square));
  // The Circle: a Shape with the Shape's content, and the element as received.
  ASSERT_EQ(type_of(*d.shape[1]), typeid(unknown_shape));
  const auto& circle = static_cast<const unknown_shape&>(*d.shape[1]);
  EXPECT_EQ(circle.name, "c1");
  EXPECT_EQ(circle.id, 2);
  EXPECT_EQ(circle.type.ns, full::ext);
  EXPECT_EQ(circle.type.local, "Circle");
  EXPECT_NE(circle.xml.find("c2"), std::string::npos) << circle.xml;
  // An unknown subtype inside a known one.
  ASSERT_EQ(type_of(*d.shape[2]), typeid(known::Group));
  const auto& group = static_cast<const known::Group&>(*d.shape[2]);
  ASSERT_EQ(group.member.size(), 1u);
  ASSERT_EQ(type_of(*group.member[0]), typeid(unknown_shape));
  EXPECT_EQ(group.member[0]->name, "c3");
  EXPECT_EQ(d.title, "t");

  // Written back: the bytes the server wrote, the Circles' prefixes and xsi:types included.
  const std::string back = to_xml(known::ns, "drawing", d);
  EXPECT_EQ(back, sent);
  // What the server reads of it is what it sent.
  full::Drawing again;
  e = from_xml(back, again);
  ASSERT_FALSE(e) << e.message;
  EXPECT_EQ(to_xml(full::ns, "drawing", again), sent);

  // Read again into the same objects: reused, the same bytes.
  const known::Shape* reused = d.shape[1].get();
  e = from_xml(sent, d, keeping());
  ASSERT_FALSE(e) << e.message;
  EXPECT_EQ(d.shape[1].get(), reused);
  EXPECT_EQ(to_xml(known::ns, "drawing", d), sent);
}

TEST(BindUnknownSubtype, AnUnknownTypeIsAnErrorUnlessKept) {
  const std::string sent = to_xml(full::ns, "drawing", server_drawing());
  known::Drawing d;
  const error_info e = from_xml(sent, d);
  EXPECT_EQ(e.code, errc::unknown_xsi_type);
  EXPECT_EQ(e.message,
            "/drawing/shape[2]: xsi:type {urn:lather:shapes:ext}Circle names a type with no "
            "binding (expected {urn:lather:shapes}Shape or a registered derived type)");
  // A client's default keeps it.
  EXPECT_TRUE(client_read_options().keep_unknown_subtypes);
  EXPECT_FALSE(read_options{}.keep_unknown_subtypes);
  EXPECT_FALSE(from_xml(sent, d, client_read_options())) << sent;
}

TEST(BindUnknownSubtype, PrefixesOfTheInputAreResolvedOnOutput) {
  // The xsi:type's prefix, the element's and the extension's are bound on the root, out of
  // the kept element; the default namespace names the known elements.
  const std::string sent =
      R"(<drawing xmlns="urn:lather:shapes" xmlns:e="urn:lather:shapes:ext" )"
      R"(xmlns:i="http://www.w3.org/2001/XMLSchema-instance">)"
      R"(<shape i:type="e:Circle" id="9" e:unit="cm"><name>n</name><e:radius>2</e:radius>)"
      R"(<e:inner i:type="Square" id="3"><name>s</name><side>1</side></e:inner></shape>)"
      R"(<title>x</title></drawing>)";
  known::Drawing d;
  error_info e = from_xml(sent, d, keeping());
  ASSERT_FALSE(e) << e.message;
  ASSERT_EQ(d.shape.size(), 1u);
  ASSERT_EQ(type_of(*d.shape[0]), typeid(unknown_shape));
  const auto& circle = static_cast<const unknown_shape&>(*d.shape[0]);
  EXPECT_EQ(circle.type.ns, full::ext);
  EXPECT_EQ(circle.type.prefix, "e");
  EXPECT_EQ(circle.id, 9);
  EXPECT_EQ(circle.name, "n");
  // Written by lather's writer (its own prefixes outside), read by the server: the same value.
  const std::string back = to_xml(known::ns, "drawing", d);
  full::Drawing server;
  e = from_xml(back, server);
  ASSERT_FALSE(e) << e.message << "\n" << back;
  ASSERT_EQ(server.shape.size(), 1u);
  const auto* c = dynamic_cast<const full::Circle*>(server.shape[0].get());
  ASSERT_TRUE(c) << back;
  EXPECT_EQ(c->unit, "cm");
  EXPECT_EQ(c->radius, 2);
  ASSERT_TRUE(c->inner);
  EXPECT_EQ(c->inner->name, "s");
  EXPECT_EQ(dynamic_cast<const full::Square&>(*c->inner).side, 1);
  // And written again from what was kept: the same bytes.
  known::Drawing twice;
  e = from_xml(back, twice, keeping());
  ASSERT_FALSE(e) << e.message;
  EXPECT_EQ(to_xml(known::ns, "drawing", twice), back);
}

TEST(BindUnknownSubtype, TheBaseContentIsCheckedAsTheBases) {
  const std::string head = R"(<drawing xmlns="urn:lather:shapes" xmlns:e="urn:lather:shapes:ext" )"
                           R"(xmlns:i="http://www.w3.org/2001/XMLSchema-instance">)";
  known::Drawing d;
  error_info e = from_xml(
      head + R"(<shape i:type="e:Circle" id="x"><name>n</name></shape>)" + "<title/></drawing>", d,
      keeping());
  EXPECT_EQ(e.code, errc::invalid_lexical);
  EXPECT_EQ(e.message, R"(/drawing/shape[1]/@id: "x" is not a valid xsd:int)");
  // An unknown subtype's base content in a known type's (the unknown one's own content is not
  // read as anything).
  e = from_xml(head + R"(<shape i:type="Group" id="1"><name>n</name><member i:type="e:Circle" )"
                      R"(id="2"><e:radius>1</e:radius></member></shape><title/></drawing>)",
               d, keeping());
  EXPECT_EQ(e.code, errc::missing_element);
  EXPECT_EQ(e.message,
            "/drawing/shape[1]/member[1]/name: required element is missing (minOccurs=1)");
  // A type of XSD's or the base itself are errors as before.
  e = from_xml(head + R"(<shape i:type="Shape" id="1"><name>n</name></shape><title/></drawing>)", d,
               keeping());
  EXPECT_EQ(e.code, errc::bad_xsi_type);
}

TEST(BindUnknownSubtype, KeptInsideOneAnotherUpToALimit) {
  // Each kept element holds the ones in its base content again: the nesting is bounded.
  const auto nested = [](std::uint32_t n) {
    std::string doc =
        R"(<drawing xmlns="urn:lather:shapes" xmlns:e="urn:lather:shapes:ext" )"
        R"(xmlns:i="http://www.w3.org/2001/XMLSchema-instance"><shape i:type="e:Circle" id="0">)"
        R"(<name>0</name>)";
    for (std::uint32_t k = 1; k < n; ++k)
      doc += R"(<next i:type="e:Circle" id="1"><name>)" + std::to_string(k) + "</name>";
    for (std::uint32_t k = 1; k < n; ++k) doc += "<e:radius>1</e:radius></next>";
    return doc + "<e:radius>1</e:radius></shape><title/></drawing>";
  };
  known::Drawing d;
  const std::string deepest = nested(detail::max_kept_nesting);
  error_info e = from_xml(deepest, d, keeping());
  ASSERT_FALSE(e) << e.message;
  const known::Shape* s = d.shape[0].get();
  for (std::uint32_t k = 1; k < detail::max_kept_nesting; ++k) s = s->next.get();
  EXPECT_EQ(type_of(*s), typeid(unknown_shape));
  EXPECT_EQ(s->name, std::to_string(detail::max_kept_nesting - 1));
  full::Drawing server;
  e = from_xml(to_xml(known::ns, "drawing", d), server);
  ASSERT_FALSE(e) << e.message;
  e = from_xml(nested(detail::max_kept_nesting + 1), d, keeping());
  EXPECT_EQ(e.code, errc::limit_exceeded);
  EXPECT_EQ(e.message.substr(0, 37), "/drawing/shape[1]/next/next/next/next");
}

TEST(BindUnknownSubtype, AnAbstractObjectIsNotWritten) {
  known::Drawing d;
  d.shape.push_back(make<known::Square>("s", 1));
  d.shape.push_back(make<known::Shape>("abstract", 2));
  try {
    (void)to_xml(known::ns, "drawing", d);
    FAIL() << "written";
  } catch (const error& x) {
    EXPECT_EQ(x.info().code, errc::bad_xsi_type);
    EXPECT_EQ(
        x.info().message,
        "/drawing/shape[2]: the object's type {urn:lather:shapes}Shape is abstract: no element may "
        "have it as its type, named by xsi:type or not (XSD cvc-type 2); write an object "
        "of a concrete derived type");
  }
}

}  // namespace
}  // namespace lather::bind::test
