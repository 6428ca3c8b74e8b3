// Round trips of every metadata feature: optional, vector, nillable, choice, extension and
// xsi:type polymorphism, xsd:any / anyType, enumerations, attributes, defaults, simple content,
// unqualified forms, content-only read/write.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <typeinfo>
#include <variant>
#include <vector>

#include "bind_test_util.hpp"
#include "lather/bind/describe.hpp"
#include "lather/perf/types.hpp"

namespace feat {

inline constexpr std::string_view ns = "urn:lather:test";

enum class Shade { light, dark };

struct Price {  // simple content: <price currency="EUR">12.5</price>
  double amount = 0;
  std::string currency;
  std::optional<std::int32_t> rank;
  friend bool operator==(const Price&, const Price&) = default;
};

struct Circle {
  double r = 0;
  friend bool operator==(const Circle&, const Circle&) = default;
};
struct Square {
  double side = 0;
  friend bool operator==(const Square&, const Square&) = default;
};

struct Animal {
  virtual ~Animal() = default;
  std::string name;
};
struct Dog : Animal {
  std::int32_t barks = 0;
};
struct Puppy : Dog {
  bool sleepy = false;
};
struct Cat : Animal {
  bool indoor = false;
};

struct Kitchen {
  std::string title;                                           // required
  std::optional<std::int32_t> count;                           // 0..1
  std::vector<std::string> tags;                               // 0..unbounded
  lather::nillable<std::int32_t> maybe;                        // nillable, 1..1
  std::optional<std::string> gone;                             // nillable via flag, 0..1
  std::vector<lather::nillable<std::string>> holes;            // nillable items
  Shade shade = Shade::light;                                  // enum
  std::variant<Circle, Square> shape;                          // choice
  std::vector<std::variant<std::int32_t, std::string>> mixed;  // repeated choice
  std::int32_t level = 0;                                      // minOccurs 0 with default
  std::vector<std::int32_t> bounded;                           // maxOccurs 3
  Price price;                                                 // simple content + attributes
  std::string local_only;                                      // unqualified element
  std::string lang;                                            // attribute with default
  std::optional<Shade> tint;                                   // optional enum attribute
  std::int32_t version = 0;                                    // required attribute
  std::vector<std::unique_ptr<Animal>> pets;                   // polymorphic
  std::shared_ptr<Dog> guard;                                  // polymorphic through shared_ptr
  lather::bind::any_type blob;                                 // xsd:anyType
  std::vector<lather::bind::any_element> extra;                // xsd:any, last
};

struct Lamp {  // enum element with minOccurs 0 and a default
  Shade shade = Shade::light;
  friend bool operator==(const Lamp&, const Lamp&) = default;
};

struct Node {  // recursive type
  std::int32_t value = 0;
  std::vector<Node> children;
  friend bool operator==(const Node&, const Node&) = default;
};

struct Pair {  // one unqualified and one qualified simple element
  std::string a, b;
};

struct Flags {  // repeated xs:boolean: std::vector<bool> items are proxies, not bool&
  std::vector<bool> on;
  std::vector<lather::nillable<bool>> maybe;
  std::vector<bool> other;  // in another namespace: not read as a leaf
};

struct Palette {  // xs:list of an enumeration, as element and attribute
  lather::xsd::list<Shade> shades;
  std::optional<lather::xsd::list<Shade>> tints;
};

struct Extension {  // what a vendor puts into Kitchen's xsd:any, read through the typed view
  std::int32_t in = 0;
  std::string label;
};

}  // namespace feat

template <>
struct lather::meta<feat::Extension> {
  using T = feat::Extension;
  static constexpr std::string_view name = "Extension";
  static constexpr std::string_view ns = "urn:ext";
  static constexpr auto fields = std::tuple{element("in", &T::in), attribute("label", &T::label)};
};

template <>
struct lather::meta<feat::Flags> {
  using T = feat::Flags;
  static constexpr std::string_view name = "Flags";
  static constexpr std::string_view ns = feat::ns;
  static constexpr auto fields =
      std::tuple{element("on", &T::on), element("maybe", &T::maybe),
                 element("other", &T::other).in_namespace("urn:lather:other")};
};

template <>
struct lather::meta<feat::Palette> {
  using T = feat::Palette;
  static constexpr std::string_view name = "Palette";
  static constexpr std::string_view ns = feat::ns;
  static constexpr auto fields =
      std::tuple{element("shades", &T::shades), attribute("tints", &T::tints)};
};
template <>
struct lather::meta<feat::Shade> {
  static constexpr std::string_view name = "Shade";
  static constexpr std::string_view ns = feat::ns;
  static constexpr auto values =
      enum_values<feat::Shade>({{feat::Shade::light, "LIGHT"}, {feat::Shade::dark, "DARK"}});
};
template <>
struct lather::meta<feat::Price> {
  using T = feat::Price;
  static constexpr std::string_view name = "Price";
  static constexpr std::string_view ns = feat::ns;
  static constexpr auto fields =
      std::tuple{text(&T::amount), attribute("currency", &T::currency).required(),
                 attribute("rank", &T::rank)};
};
template <>
struct lather::meta<feat::Circle> {
  static constexpr std::string_view name = "Circle";
  static constexpr std::string_view ns = feat::ns;
  static constexpr auto fields = std::tuple{element("r", &feat::Circle::r)};
};
template <>
struct lather::meta<feat::Square> {
  static constexpr std::string_view name = "Square";
  static constexpr std::string_view ns = feat::ns;
  static constexpr auto fields = std::tuple{element("side", &feat::Square::side)};
};
template <>
struct lather::meta<feat::Animal> {
  static constexpr std::string_view name = "Animal";
  static constexpr std::string_view ns = feat::ns;
  static constexpr auto fields = std::tuple{element("name", &feat::Animal::name)};
  using derived = types<feat::Dog, feat::Cat>;
};
template <>
struct lather::meta<feat::Dog> {
  static constexpr std::string_view name = "Dog";
  static constexpr std::string_view ns = feat::ns;
  using base = feat::Animal;
  using derived = types<feat::Puppy>;
  static constexpr auto fields = std::tuple{element("barks", &feat::Dog::barks)};
};
template <>
struct lather::meta<feat::Puppy> {
  static constexpr std::string_view name = "Puppy";
  static constexpr std::string_view ns = "urn:lather:other";  // derived type in another schema
  using base = feat::Dog;
  static constexpr auto fields = std::tuple{element("sleepy", &feat::Puppy::sleepy)};
};
template <>
struct lather::meta<feat::Cat> {
  static constexpr std::string_view name = "Cat";
  static constexpr std::string_view ns = feat::ns;
  using base = feat::Animal;
  static constexpr auto fields = std::tuple{element("indoor", &feat::Cat::indoor)};
};
template <>
struct lather::meta<feat::Kitchen> {
  using T = feat::Kitchen;
  static constexpr std::string_view name = "Kitchen";
  static constexpr std::string_view ns = feat::ns;
  static constexpr auto fields = std::tuple{attribute("lang", &T::lang).default_value("en"),
                                            attribute("tint", &T::tint),
                                            attribute("version", &T::version).required(),
                                            element("title", &T::title),
                                            element("count", &T::count),
                                            element("tag", &T::tags),
                                            element("maybe", &T::maybe),
                                            element("gone", &T::gone).nillable(),
                                            element("hole", &T::holes),
                                            element("shade", &T::shade),
                                            choice(&T::shape, {"circle", "square"}),
                                            choice(&T::mixed, {"num", "word"}),
                                            element("level", &T::level).min(0).default_value("7"),
                                            element("bounded", &T::bounded).max(3),
                                            element("price", &T::price),
                                            element("localOnly", &T::local_only).unqualified(),
                                            element("pet", &T::pets),
                                            element("guard", &T::guard),
                                            element("blob", &T::blob),
                                            any(&T::extra)};
};
template <>
struct lather::meta<feat::Lamp> {
  static constexpr std::string_view name = "Lamp";
  static constexpr std::string_view ns = feat::ns;
  static constexpr auto fields =
      std::tuple{element("shade", &feat::Lamp::shade).min(0).default_value("DARK")};
};
template <>
struct lather::meta<feat::Node> {
  static constexpr std::string_view name = "Node";
  static constexpr std::string_view ns = feat::ns;
  static constexpr auto fields =
      std::tuple{element("value", &feat::Node::value), element("child", &feat::Node::children)};
};

template <>
struct lather::meta<feat::Pair> {
  static constexpr std::string_view name = "Pair";
  static constexpr std::string_view ns = feat::ns;
  static constexpr auto fields =
      std::tuple{element("a", &feat::Pair::a).unqualified(), element("b", &feat::Pair::b)};
};

// XSD abstract types (meta<T>::abstract): no element may have one as its type.
namespace abst {
constexpr std::string_view ns = "urn:lather:abstract";
struct Shape {  // abstract="true", a concrete C++ class (as lather-wsdl2cpp writes it)
  virtual ~Shape() = default;
  std::string name;
};
struct Polygon : Shape {  // abstract too, between the base and a concrete type
  std::int32_t sides = 0;
};
struct Square : Polygon {
  double side = 0;
};
struct Drawing {
  std::vector<std::unique_ptr<Shape>> shape;
  std::shared_ptr<Polygon> outline;
};
struct Frame {  // an abstract type by value
  Shape border;
  std::int32_t width = 0;
};
}  // namespace abst

template <>
struct lather::meta<abst::Shape> {
  static constexpr std::string_view name = "Shape", ns = abst::ns;
  static constexpr bool abstract = true;
  using derived = types<abst::Polygon>;
  static constexpr auto fields = std::tuple{element("name", &abst::Shape::name)};
};
template <>
struct lather::meta<abst::Polygon> : lather::meta<abst::Shape> {  // abstract, as its base
  static constexpr std::string_view name = "Polygon";
  using base = abst::Shape;
  using derived = types<abst::Square>;
  static constexpr auto fields = std::tuple{element("sides", &abst::Polygon::sides)};
};
template <>
struct lather::meta<abst::Square> {
  static constexpr std::string_view name = "Square", ns = abst::ns;
  using base = abst::Polygon;
  static constexpr auto fields = std::tuple{element("side", &abst::Square::side)};
};
template <>
struct lather::meta<abst::Drawing> {
  static constexpr std::string_view name = "drawing", ns = abst::ns;
  static constexpr auto fields = std::tuple{element("shape", &abst::Drawing::shape),
                                            element("outline", &abst::Drawing::outline).min(0)};
};
template <>
struct lather::meta<abst::Frame> {
  static constexpr std::string_view name = "frame", ns = abst::ns;
  static constexpr auto fields =
      std::tuple{element("border", &abst::Frame::border), element("width", &abst::Frame::width)};
};

namespace lather::bind::test {
namespace {

feat::Kitchen full_kitchen() {
  feat::Kitchen k;
  k.title = "main <&> kitchen";
  k.count = 3;
  k.tags = {"a", "b", "c"};
  k.maybe = 5;
  k.gone = std::nullopt;
  k.holes = {lather::nillable<std::string>{"x"}, lather::nillable<std::string>{}};
  k.shade = feat::Shade::dark;
  k.shape = feat::Square{2.5};
  k.mixed = {std::int32_t{1}, std::string("two"), std::int32_t{3}};
  k.level = 9;
  k.bounded = {1, 2};
  k.price = {12.5, "EUR", 2};
  k.local_only = "plain";
  k.lang = "de";
  k.tint = feat::Shade::light;
  k.version = 4;
  auto dog = std::make_unique<feat::Dog>();
  dog->name = "rex";
  dog->barks = 3;
  auto cat = std::make_unique<feat::Cat>();
  cat->name = "tom";
  cat->indoor = true;
  auto puppy = std::make_unique<feat::Puppy>();
  puppy->name = "bit";
  puppy->barks = 1;
  puppy->sleepy = true;
  auto plain = std::make_unique<feat::Animal>();
  plain->name = "generic";
  k.pets.push_back(std::move(dog));
  k.pets.push_back(std::move(cat));
  k.pets.push_back(std::move(puppy));
  k.pets.push_back(std::move(plain));
  k.guard = std::make_shared<feat::Puppy>();
  k.guard->name = "guardian";
  k.blob.xml = R"(<blob xmlns:q="urn:q" q:flag="1">text<q:inner>deep</q:inner></blob>)";
  k.extra.push_back({R"(<x:ext xmlns:x="urn:ext" a="1"><x:sub/></x:ext>)"});
  k.extra.push_back({R"(<plain xmlns="">no namespace</plain>)"});
  return k;
}

void expect_same_pets(const feat::Kitchen& a, const feat::Kitchen& b) {
  ASSERT_EQ(a.pets.size(), b.pets.size());
  for (std::size_t i = 0; i < a.pets.size(); ++i) {
    const feat::Animal& x = *a.pets[i];
    const feat::Animal& y = *b.pets[i];
    ASSERT_EQ(typeid(x), typeid(y)) << "pet " << i;
    EXPECT_EQ(x.name, y.name);
    if (auto* d = dynamic_cast<const feat::Dog*>(&x)) {
      EXPECT_EQ(d->barks, dynamic_cast<const feat::Dog&>(y).barks);
    }
    if (auto* p = dynamic_cast<const feat::Puppy*>(&x)) {
      EXPECT_EQ(p->sleepy, dynamic_cast<const feat::Puppy&>(y).sleepy);
    }
    if (auto* c = dynamic_cast<const feat::Cat*>(&x)) {
      EXPECT_EQ(c->indoor, dynamic_cast<const feat::Cat&>(y).indoor);
    }
  }
}

void expect_same_kitchen(const feat::Kitchen& k, const feat::Kitchen& back) {
  EXPECT_EQ(back.title, k.title);
  EXPECT_EQ(back.count, k.count);
  EXPECT_EQ(back.tags, k.tags);
  EXPECT_EQ(back.maybe, k.maybe);
  EXPECT_EQ(back.gone, k.gone);
  EXPECT_EQ(back.holes, k.holes);
  EXPECT_EQ(back.shade, k.shade);
  EXPECT_EQ(back.shape, k.shape);
  EXPECT_EQ(back.mixed, k.mixed);
  EXPECT_EQ(back.level, k.level);
  EXPECT_EQ(back.bounded, k.bounded);
  EXPECT_EQ(back.price, k.price);
  EXPECT_EQ(back.local_only, k.local_only);
  EXPECT_EQ(back.lang, k.lang);
  EXPECT_EQ(back.tint, k.tint);
  EXPECT_EQ(back.version, k.version);
  expect_same_pets(k, back);
  ASSERT_EQ(static_cast<bool>(back.guard), static_cast<bool>(k.guard));
  if (k.guard) {
    const feat::Dog& got = *back.guard;
    const feat::Dog& want = *k.guard;
    EXPECT_EQ(typeid(got), typeid(want));
    EXPECT_EQ(back.guard->name, k.guard->name);
  }
}

TEST(BindFeatures, VectorOfBool) {
  feat::Flags f{{true, false, true}, {true, {}}, {false, true}};
  std::string doc = to_xml(feat::ns, "flags", f);
  feat::Flags back{{false, false, false, false, false}, {}, {true}};  // reused and trimmed
  error_info e = from_xml(doc, back);
  ASSERT_FALSE(e) << e.message << "\n" << doc;
  EXPECT_EQ(back.on, f.on) << doc;
  EXPECT_EQ(back.maybe, f.maybe) << doc;
  EXPECT_EQ(back.other, f.other) << doc;
  EXPECT_NE(doc.find(":on>false</"), std::string::npos) << doc;
}

TEST(BindFeatures, ListOfEnumeration) {
  using feat::Shade;
  feat::Palette p{{{Shade::dark, Shade::light}}, lather::xsd::list<Shade>{{Shade::light}}};
  std::string doc = to_xml(feat::ns, "palette", p);
  EXPECT_NE(doc.find("tints=\"LIGHT\""), std::string::npos) << doc;
  EXPECT_NE(doc.find(">DARK LIGHT</"), std::string::npos) << doc;
  feat::Palette back;
  error_info e = from_xml(doc, back);
  ASSERT_FALSE(e) << e.message << "\n" << doc;
  EXPECT_EQ(back.shades.items, p.shades.items);
  ASSERT_TRUE(back.tints);
  EXPECT_EQ(back.tints->items, p.tints->items);
  e = from_xml("<t:palette xmlns:t=\"urn:lather:test\"><t:shades>DARK GREY</t:shades></t:palette>",
               back);
  EXPECT_EQ(e.code, lather::bind::errc::unknown_enum) << e.message;
}

TEST(BindFeatures, FullRoundTrip) {
  feat::Kitchen k = full_kitchen();
  std::string doc = to_xml(feat::ns, "kitchen", k);
  feat::Kitchen back;
  error_info e = from_xml(doc, back);
  ASSERT_FALSE(e) << e.message << "\n" << doc;
  expect_same_kitchen(k, back);
  // Foreign XML survives with its namespaces: writing again gives the same document.
  EXPECT_EQ(to_xml(feat::ns, "kitchen", back), doc);
  EXPECT_NE(doc.find(":nil=\"true\""), std::string::npos) << doc;
  EXPECT_NE(doc.find(":type=\""), std::string::npos) << doc;
  EXPECT_NE(doc.find("<localOnly>plain</localOnly>"), std::string::npos) << doc;
  EXPECT_NE(doc.find("urn:ext"), std::string::npos) << doc;
}

TEST(BindFeatures, AnyKeepsNamespacesDeclaredOutside) {
  // The wildcard element uses prefixes declared on the root: the capture must declare them.
  const std::string doc =
      R"(<k:kitchen xmlns:k="urn:lather:test" xmlns:e="urn:ext" xmlns:t="urn:types" version="1">)"
      R"(<k:title>t</k:title><k:maybe>1</k:maybe><k:shade>LIGHT</k:shade>)"
      R"(<k:circle><k:r>1</k:r></k:circle><k:price currency="X">1</k:price>)"
      R"(<localOnly/><k:blob/>)"
      R"(<e:ext xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="t:Thing">)"
      R"(<e:in>1</e:in></e:ext></k:kitchen>)";
  feat::Kitchen k;
  error_info e = from_xml(doc, k);
  ASSERT_FALSE(e) << e.message;
  ASSERT_EQ(k.extra.size(), 1u);
  const std::string& x = k.extra[0].xml;
  EXPECT_NE(x.find("urn:ext"), std::string::npos) << x;
  EXPECT_NE(x.find("xmlns:t=\"urn:types\""), std::string::npos) << x;
  // Re-read the captured element on its own: it is a complete namespace-well-formed document.
  xml::reader r;
  r.reset(x);
  ASSERT_EQ(r.next(), xml::token::start_element) << x;
  EXPECT_EQ(r.ns(), "urn:ext");
  EXPECT_EQ(r.local_name(), "ext");
  EXPECT_EQ(r.lookup_namespace("t").value_or(""), "urn:types");
}

TEST(BindFeatures, CapturedElementsHaveATypedView) {
  const std::string doc =
      R"(<k:kitchen xmlns:k="urn:lather:test" xmlns:e="urn:ext" version="1">)"
      R"(<k:title>t</k:title><k:maybe>1</k:maybe><k:shade>LIGHT</k:shade>)"
      R"(<k:circle><k:r>1</k:r></k:circle><k:price currency="X">1</k:price>)"
      R"(<localOnly/><k:blob/><e:ext label="a &amp; b"><e:in>5</e:in></e:ext></k:kitchen>)";
  feat::Kitchen k;
  ASSERT_FALSE(from_xml(doc, k));
  ASSERT_EQ(k.extra.size(), 1u);
  feat::Extension ext;
  error_info e = lather::bind::read_captured(k.extra[0].xml, ext);
  ASSERT_FALSE(e) << e.message;
  EXPECT_EQ(ext.in, 5);
  EXPECT_EQ(ext.label, "a & b");
  // The captured text stays as it was; a value goes the other way into a new element.
  k.extra.push_back(lather::bind::to_captured("urn:ext", "more", feat::Extension{7, "<x>"}));
  feat::Kitchen back;
  ASSERT_FALSE(from_xml(to_xml(feat::ns, "kitchen", k), back));
  ASSERT_EQ(back.extra.size(), 2u);
  EXPECT_EQ(back.extra[0], k.extra[0]);
  feat::Extension more;
  ASSERT_FALSE(lather::bind::read_captured(back.extra[1].xml, more));
  EXPECT_EQ(more.in, 7);
  EXPECT_EQ(more.label, "<x>");
  // What is not a captured element, or not this type, is an error, not a default value.
  EXPECT_EQ(lather::bind::read_captured("not xml", ext).code, errc::xml_error);
  feat::Extension wrong;
  EXPECT_TRUE(
      lather::bind::read_captured(R"(<e:ext xmlns:e="urn:ext"><e:in>x</e:in></e:ext>)", wrong));
}

TEST(BindFeatures, DefaultsAndAbsentOptionals) {
  const std::string doc =
      R"(<kitchen xmlns="urn:lather:test" version="2"><title>t</title><maybe>1</maybe>)"
      R"(<shade>DARK</shade><square><side>3</side></square><price currency="USD">4</price>)"
      R"(<localOnly xmlns=""/><blob/></kitchen>)";
  feat::Kitchen k = full_kitchen();  // reused destination: absent fields must be reset
  error_info e = from_xml(doc, k);
  ASSERT_FALSE(e) << e.message;
  EXPECT_EQ(k.lang, "en");  // attribute default
  EXPECT_FALSE(k.tint);
  EXPECT_EQ(k.version, 2);
  EXPECT_FALSE(k.count);
  EXPECT_TRUE(k.tags.empty());
  EXPECT_TRUE(k.holes.empty());
  EXPECT_TRUE(k.mixed.empty());
  EXPECT_EQ(k.level, 7);  // element default for an absent minOccurs=0 member
  EXPECT_TRUE(k.pets.empty());
  EXPECT_FALSE(k.guard);
  EXPECT_TRUE(k.extra.empty());
  EXPECT_EQ(k.shape, (std::variant<feat::Circle, feat::Square>{feat::Square{3}}));
  EXPECT_FALSE(k.price.rank);
  EXPECT_EQ(k.local_only, "");
}

TEST(BindFeatures, EnumDefault) {
  feat::Lamp lamp;
  ASSERT_FALSE(from_xml(R"(<lamp xmlns="urn:lather:test"/>)", lamp));
  EXPECT_EQ(lamp.shade, feat::Shade::dark);
  ASSERT_FALSE(from_xml(R"(<lamp xmlns="urn:lather:test"><shade/></lamp>)", lamp));
  EXPECT_EQ(lamp.shade, feat::Shade::dark);
  ASSERT_FALSE(from_xml(R"(<lamp xmlns="urn:lather:test"><shade>LIGHT</shade></lamp>)", lamp));
  EXPECT_EQ(lamp.shade, feat::Shade::light);
}

TEST(BindFeatures, EmptyElementTakesDefault) {
  const std::string doc =
      R"(<kitchen xmlns="urn:lather:test" version="2"><title>t</title><maybe>1</maybe>)"
      R"(<shade>DARK</shade><square><side>3</side></square><level/>)"
      R"(<price currency="USD">4</price><localOnly xmlns=""/><blob/></kitchen>)";
  feat::Kitchen k;
  ASSERT_FALSE(from_xml(doc, k));
  EXPECT_EQ(k.level, 7);
}

TEST(BindFeatures, NilValues) {
  feat::Kitchen k = full_kitchen();
  k.maybe = lather::nillable<std::int32_t>{};
  k.gone.reset();
  std::string doc = to_xml(feat::ns, "kitchen", k);
  feat::Kitchen back;
  ASSERT_FALSE(from_xml(doc, back));
  EXPECT_TRUE(back.maybe.is_nil());
  EXPECT_FALSE(back.gone);
  ASSERT_EQ(back.holes.size(), 2u);
  EXPECT_TRUE(back.holes[1].is_nil());
}

TEST(BindFeatures, RecursiveTypeAndDepthLimit) {
  feat::Node root{1, {feat::Node{2, {feat::Node{3, {}}}}, feat::Node{4, {}}}};
  std::string doc = to_xml(feat::ns, "node", root);
  feat::Node back;
  ASSERT_FALSE(from_xml(doc, back));
  EXPECT_EQ(back, root);

  feat::Node deep{0, {}};
  feat::Node* cur = &deep;
  for (int i = 1; i < 40; ++i) {
    cur->children.push_back(feat::Node{i, {}});
    cur = &cur->children.back();
  }
  doc = to_xml(feat::ns, "node", deep);
  read_options opts;
  opts.max_depth = 10;
  error_info e = from_xml(doc, back, opts);
  EXPECT_EQ(e.code, errc::limit_exceeded) << e.message;
  EXPECT_FALSE(from_xml(doc, back));
  EXPECT_EQ(back, deep);
}

TEST(BindFeatures, ContentOnlyReadAndWrite) {
  feat::Circle c{1.25};
  xml::output out;
  xml::writer w{out};
  w.start_element("urn:wrapper", "wrap");
  write_content(w, c);
  w.end_element();
  w.end_document();
  std::string doc = out.take();
  EXPECT_NE(doc.find("wrap"), std::string::npos);
  xml::reader r;
  r.reset(doc);
  ASSERT_EQ(r.next(), xml::token::start_element);
  feat::Circle back;
  error_info e = read_content(r, back);
  ASSERT_FALSE(e) << e.message;
  EXPECT_EQ(back, c);
  EXPECT_EQ(r.next(), xml::token::end_document);
}

TEST(BindFeatures, SkipsUnknownElementsWhenConfigured) {
  const std::string doc =
      R"(<circle xmlns="urn:lather:test"><junk><deep/></junk><r>2</r><more/></circle>)";
  feat::Circle c;
  error_info e = from_xml(doc, c);
  EXPECT_EQ(e.code, errc::unexpected_element);
  read_options opts;
  opts.skip_unknown_elements = true;
  e = from_xml(doc, c, opts);
  ASSERT_FALSE(e) << e.message;
  EXPECT_EQ(c.r, 2);
}

TEST(BindFeatures, ToleratesWhitespaceCommentsAndCdata) {
  const std::string doc =
      "<circle xmlns=\"urn:lather:test\">\n  <!-- note -->\n  <r> <![CDATA[3.5]]> </r>\n</circle>";
  feat::Circle c;
  error_info e = from_xml(doc, c);
  ASSERT_FALSE(e) << e.message;
  EXPECT_EQ(c.r, 3.5);
}

TEST(BindFeatures, XsiTypeOfDeclaredTypeIsAccepted) {
  const std::string doc =
      R"(<c xmlns="urn:lather:test" xmlns:p="urn:lather:test" )"
      R"(xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="p:Circle">)"
      R"(<r xsi:type="xsd:double" xmlns:xsd="http://www.w3.org/2001/XMLSchema">1</r></c>)";
  feat::Circle c;
  error_info e = from_xml(doc, c);
  ASSERT_FALSE(e) << e.message;
  EXPECT_EQ(c.r, 1);
}

TEST(BindFeatures, RequiredAttributeAndChoiceErrors) {
  feat::Price p;
  error_info e = from_xml(R"(<price xmlns="urn:lather:test">3</price>)", p);
  EXPECT_EQ(e.code, errc::missing_attribute);
  EXPECT_EQ(e.path, "/price/@currency");
  e = from_xml(R"(<price xmlns="urn:lather:test" currency="X" rank="high">3</price>)", p);
  EXPECT_EQ(e.code, errc::invalid_lexical);
  EXPECT_EQ(e.path, "/price/@rank");
  e = from_xml(R"(<price xmlns="urn:lather:test" currency="X">3x</price>)", p);
  EXPECT_EQ(e.code, errc::invalid_lexical);
  EXPECT_EQ(e.path, "/price");

  feat::Kitchen k;
  const std::string no_choice =
      R"(<kitchen xmlns="urn:lather:test" version="2"><title>t</title><maybe>1</maybe>)"
      R"(<shade>DARK</shade><price currency="USD">4</price><localOnly xmlns=""/><blob/></kitchen>)";
  e = from_xml(no_choice, k);
  EXPECT_EQ(e.code, errc::missing_element);
  EXPECT_NE(e.message.find("one of 'circle', 'square'"), std::string::npos) << e.message;

  const std::string four_bounded =
      R"(<kitchen xmlns="urn:lather:test" version="2"><title>t</title><maybe>1</maybe>)"
      R"(<shade>DARK</shade><circle><r>1</r></circle>)"
      R"(<bounded>1</bounded><bounded>2</bounded><bounded>3</bounded><bounded>4</bounded>)"
      R"(<price currency="USD">4</price><localOnly xmlns=""/><blob/></kitchen>)";
  e = from_xml(four_bounded, k);
  EXPECT_EQ(e.code, errc::too_many);
  EXPECT_EQ(e.path, "/kitchen/bounded[4]");
}

TEST(BindFeatures, PolymorphismErrors) {
  const std::string head =
      R"(<kitchen xmlns="urn:lather:test" xmlns:t="urn:lather:test" xmlns:o="urn:lather:other" )"
      R"(xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" version="2"><title>t</title>)"
      R"(<maybe>1</maybe><shade>DARK</shade><circle><r>1</r></circle>)"
      R"(<price currency="USD">4</price><localOnly xmlns=""/>)";
  feat::Kitchen k;
  // A sibling type where a Dog is expected: known but unrelated.
  error_info e =
      from_xml(head + R"(<guard xsi:type="t:Cat"><name>c</name></guard><blob/></kitchen>)", k);
  EXPECT_EQ(e.code, errc::bad_xsi_type) << e.message;
  EXPECT_EQ(e.path, "/kitchen/guard");
  // The base type where a Dog is expected.
  e = from_xml(head + R"(<guard xsi:type="t:Animal"><name>c</name></guard><blob/></kitchen>)", k);
  EXPECT_EQ(e.code, errc::bad_xsi_type) << e.message;
  // A derived type in another namespace is fine.
  e = from_xml(head + R"(<guard xsi:type="o:Puppy"><name>p</name><barks>2</barks>)"
                      R"(<o:sleepy>true</o:sleepy></guard><blob/></kitchen>)",
               k);
  ASSERT_FALSE(e) << e.message;
  ASSERT_TRUE(k.guard);
  const feat::Dog& guard = *k.guard;
  EXPECT_EQ(typeid(guard), typeid(feat::Puppy));
  // The derived type's element in the wrong namespace.
  e = from_xml(head + R"(<guard xsi:type="o:Puppy"><name>p</name><barks>2</barks>)"
                      R"(<sleepy>true</sleepy></guard><blob/></kitchen>)",
               k);
  EXPECT_EQ(e.code, errc::unexpected_element) << e.message;
  EXPECT_EQ(e.path, "/kitchen/guard");
  // Unknown type name.
  e = from_xml(head + R"(<pet xsi:type="t:Fish"><name>f</name></pet><blob/></kitchen>)", k);
  EXPECT_EQ(e.code, errc::unknown_xsi_type) << e.message;
  EXPECT_EQ(e.path, "/kitchen/pet[1]");
}

// Simple elements read whole (xml::reader::next_simple_element) share their parent's prefix and
// so its namespace: they are the field only when that is the field's namespace.
TEST(BindFeatures, SimpleElementsReadWholeAreInTheirParentsNamespace) {
  feat::Circle c;
  ASSERT_FALSE(from_xml("<p:c xmlns:p='urn:lather:test'><p:r>1.5</p:r></p:c>", c));
  EXPECT_EQ(c.r, 1.5);
  EXPECT_EQ(from_xml("<p:c xmlns:p='urn:lather:other'><p:r>1</p:r></p:c>", c).code,
            errc::unexpected_element);
  feat::Pair p;
  ASSERT_FALSE(from_xml("<Pair><a>1</a><p:b xmlns:p='urn:lather:test'>2</p:b></Pair>", p));
  EXPECT_EQ(p.a, "1");
  EXPECT_EQ(p.b, "2");
  ASSERT_FALSE(from_xml("<p:Pair xmlns:p='urn:lather:test'><a>3</a><p:b>4</p:b></p:Pair>", p));
  EXPECT_EQ(p.a, "3");
  EXPECT_EQ(p.b, "4");
  EXPECT_EQ(from_xml("<Pair xmlns='urn:lather:test'><a>1</a><b>2</b></Pair>", p).code,
            errc::unexpected_element);  // 'a' in the type's namespace: not the unqualified field
  EXPECT_EQ(from_xml("<Pair><a>1</a><b>2</b></Pair>", p).code,
            errc::unexpected_element);  // 'b' in no namespace: not the qualified field
}

TEST(BindFeatures, DescribeIsIntrospectable) {
  std::size_t n = 0;
  lather::bind::visit_fields<feat::Puppy>([&](const auto& f) {
    static constexpr std::string_view names[] = {"name", "barks", "sleepy"};
    EXPECT_EQ(f.name, names[n]);
    ++n;
  });
  EXPECT_EQ(n, 3u);
  static_assert(lather::bind::field_count<feat::Kitchen> == 20);
  static_assert(std::get<0>(lather::bind::fields_of<feat::Puppy>).ns == feat::ns);
  static_assert(std::get<2>(lather::bind::fields_of<feat::Puppy>).ns == "urn:lather:other");
  static_assert(std::get<15>(lather::bind::fields_of<feat::Kitchen>).ns.empty());
  static_assert(std::get<13>(lather::bind::fields_of<feat::Kitchen>).max_occurs == 3);

  const type_description& seq = describe<lather::perf::NestedComplexTypeSeq>();
  EXPECT_EQ(seq.name, "NestedComplexTypeSeq");
  EXPECT_EQ(seq.kind, type_kind::complex);
  ASSERT_EQ(seq.fields.size(), 1u);
  EXPECT_EQ(seq.fields[0].name, "item");
  EXPECT_EQ(seq.fields[0].min_occurs, 0u);
  EXPECT_EQ(seq.fields[0].max_occurs, unbounded);
  const type_description& item = seq.fields[0].type();
  EXPECT_EQ(item.name, "NestedComplexType");
  ASSERT_EQ(item.fields.size(), 9u);
  EXPECT_EQ(item.fields[1].type().name, "unsignedByte");
  EXPECT_EQ(item.fields[1].type().ns, xsd_namespace);
  EXPECT_EQ(item.fields[8].type().kind, type_kind::enumeration);
  ASSERT_EQ(item.fields[8].type().enum_values.size(), 3u);
  EXPECT_EQ(item.fields[8].type().enum_values[2], "BLUE");
  const type_description& st = item.fields[7].type();
  EXPECT_EQ(st.fields[7].kind, field_kind::attribute);
  EXPECT_TRUE(st.fields[7].ns.empty());
  EXPECT_TRUE(describe<lather::perf::echoComplexTypeDoc>().anonymous);

  const type_description& puppy = describe<feat::Puppy>();
  ASSERT_EQ(puppy.fields.size(), 1u);  // own fields; the rest via base
  ASSERT_NE(puppy.base, nullptr);
  EXPECT_EQ(puppy.base().name, "Dog");
  EXPECT_EQ(describe<feat::Animal>().derived.size(), 3u);  // Dog, Cat, Puppy
  const type_description& kitchen = describe<feat::Kitchen>();
  EXPECT_EQ(kitchen.fields[10].type().kind, type_kind::choice);
  ASSERT_EQ(kitchen.fields[10].alternatives.size(), 2u);
  EXPECT_EQ(kitchen.fields[10].alternatives[1].name, "square");
  EXPECT_EQ(kitchen.fields[10].alternatives[1].type().name, "Square");
  EXPECT_TRUE(kitchen.fields[16].polymorphic);
  EXPECT_EQ(kitchen.fields[16].type().name, "Animal");
  EXPECT_EQ(kitchen.fields[18].type().kind, type_kind::any_type);
  EXPECT_EQ(kitchen.fields[19].kind, field_kind::any);
  EXPECT_EQ(describe<feat::Price>().kind, type_kind::simple_content);
  EXPECT_EQ(kitchen.fields[0].default_value, "en");
}

/// The dynamic type of `s` (typeid of an expression with side effects warns).
const std::type_info& type_of(const abst::Shape& s) {
  return typeid(s);
}

constexpr std::string_view abstract_head =
    R"(<drawing xmlns="urn:lather:abstract" xmlns:a="urn:lather:abstract" )"
    R"(xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">)";

TEST(BindAbstract, AnXsiTypeMustNameAConcreteType) {
  abst::Drawing d;
  error_info e = from_xml(
      std::string(abstract_head) +
          R"(<shape xsi:type="a:Square"><name>c</name><sides>4</sides><side>1</side></shape>)"
          R"(<shape xsi:type="a:Square"><name>s</name><sides>4</sides><side>2</side></shape>)"
          R"(<outline xsi:type="a:Square"><name>o</name><sides>4</sides><side>3</side></outline>)"
          R"(</drawing>)",
      d);
  ASSERT_FALSE(e) << e.message;
  ASSERT_EQ(d.shape.size(), 2u);
  EXPECT_EQ(type_of(*d.shape[0]), typeid(abst::Square));
  EXPECT_EQ(type_of(*d.shape[1]), typeid(abst::Square));
  ASSERT_TRUE(d.outline);
  EXPECT_EQ(type_of(*d.outline), typeid(abst::Square));
  // The declared type, a derived type and the declared type between them: all abstract,
  // refused however tolerant the options.
  const std::pair<std::string, std::string> refused[] = {
      {R"(<shape xsi:type="a:Shape"><name>x</name></shape>)",
       "/drawing/shape[1]: xsi:type {urn:lather:abstract}Shape names an abstract type: an "
       "element's type must be a concrete one"},
      {R"(<shape xsi:type="a:Polygon"><name>x</name><sides>3</sides></shape>)",
       "/drawing/shape[1]: xsi:type {urn:lather:abstract}Polygon names an abstract type: an "
       "element's type must be a concrete one"},
      {R"(<outline xsi:type="a:Polygon"><name>x</name><sides>3</sides></outline>)",
       "/drawing/outline: xsi:type {urn:lather:abstract}Polygon names an abstract type: an "
       "element's type must be a concrete one"},
  };
  read_options keep;
  keep.keep_abstract_without_xsi_type = true;
  for (const auto& [xml, message] : refused) {
    for (const read_options& opts : {read_options{}, keep}) {
      e = from_xml(std::string(abstract_head) + xml + "</drawing>", d, opts);
      EXPECT_EQ(e.code, errc::bad_xsi_type) << xml;
      EXPECT_EQ(e.message, message) << xml;
    }
  }
}

TEST(BindAbstract, AnAbstractDeclaredTypeWithoutXsiTypeIsRefusedUnlessKept) {
  abst::Drawing d;
  const std::string untyped = std::string(abstract_head) + "<shape><name>x</name></shape>" +
                              "<outline><name>o</name><sides>5</sides></outline></drawing>";
  error_info e = from_xml(untyped, d);
  EXPECT_EQ(e.code, errc::bad_xsi_type);
  EXPECT_EQ(e.message,
            "/drawing/shape[1]: the declared type Shape is abstract: an xsi:type is required");
  // A client that takes such answers keeps each as its declared type.
  read_options keep;
  keep.keep_abstract_without_xsi_type = true;
  e = from_xml(untyped, d, keep);
  ASSERT_FALSE(e) << e.message;
  ASSERT_EQ(d.shape.size(), 1u);
  EXPECT_EQ(type_of(*d.shape[0]), typeid(abst::Shape));
  EXPECT_EQ(d.shape[0]->name, "x");
  ASSERT_TRUE(d.outline);
  EXPECT_EQ(type_of(*d.outline), typeid(abst::Polygon));
  EXPECT_EQ(d.outline->sides, 5);

  // By value: the same rules (and a derived type cannot be held there at all).
  abst::Frame f;
  const std::string frame = R"(<frame xmlns="urn:lather:abstract" xmlns:a="urn:lather:abstract" )"
                            R"(xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">)";
  const std::string plain = frame + "<border><name>b</name></border><width>1</width></frame>";
  e = from_xml(plain, f);
  EXPECT_EQ(e.code, errc::bad_xsi_type);
  EXPECT_EQ(e.message,
            "/frame/border: the declared type Shape is abstract: an xsi:type is required");
  e = from_xml(plain, f, keep);
  ASSERT_FALSE(e) << e.message;
  EXPECT_EQ(f.border.name, "b");
  e = from_xml(
      frame + R"(<border xsi:type="a:Shape"><name>b</name></border><width>1</width>)" + "</frame>",
      f, keep);
  EXPECT_EQ(e.code, errc::bad_xsi_type);
  EXPECT_EQ(e.message,
            "/frame/border: xsi:type {urn:lather:abstract}Shape names an abstract type: an "
            "element's type must be a concrete one");
  e = from_xml(frame +
                   R"(<border xsi:type="a:Square"><name>b</name><sides>4</sides><side>1</side>)" +
                   "</border><width>1</width></frame>",
               f);
  EXPECT_EQ(e.code, errc::bad_xsi_type);
  EXPECT_NE(e.message.find("holds the base type by value"), std::string::npos) << e.message;
}

TEST(BindAbstract, DescribedAsAbstract) {
  EXPECT_TRUE(describe<abst::Shape>().abstract);
  EXPECT_TRUE(describe<abst::Polygon>().abstract);
  EXPECT_FALSE(describe<abst::Square>().abstract);
  EXPECT_TRUE(abstract_type<feat::Animal> == std::is_abstract_v<feat::Animal>);
}

}  // namespace
}  // namespace lather::bind::test

// A wildcard's namespace constraint in a hand-written meta<T>: checked on read.
namespace feat {
struct Open {
  std::vector<lather::bind::any_element> other;
  std::optional<lather::bind::any_element> listed;
  std::string end;
};
}  // namespace feat
template <>
struct lather::meta<feat::Open> {
  static constexpr std::string_view name = "open";
  static constexpr std::string_view ns = feat::ns;
  static constexpr auto fields = lather::fields(
      any(&feat::Open::other).namespaces("##other"),
      any(&feat::Open::listed).namespaces(" urn:x\n##local "), element("end", &feat::Open::end));
};

namespace lather::bind::test {
namespace {

TEST(BindAny, TakesOnlyTheNamespacesItsConstraintAllows) {
  const std::string head = R"(<t:open xmlns:t="urn:lather:test" xmlns:o="urn:o" xmlns:x="urn:x">)";
  feat::Open v;
  ASSERT_FALSE(from_xml(head + "<o:a/><o:b/><x:c/><t:end>e</t:end></t:open>", v));
  EXPECT_EQ(v.other.size(), 3u);  // urn:x is ##other too
  EXPECT_FALSE(v.listed);
  ASSERT_FALSE(from_xml(head + "<o:a/><c/><t:end>e</t:end></t:open>", v));
  EXPECT_EQ(v.other.size(), 1u);
  EXPECT_TRUE(v.listed);  // ##local
  // Neither takes an element of the type's namespace: ##other excludes it, the list lacks it.
  const error_info e = from_xml(head + "<o:a/><t:zz/><t:end>e</t:end></t:open>", v);
  EXPECT_EQ(e.code, errc::unexpected_element) << e.message;
  EXPECT_NE(e.message.find(R"(the wildcard's namespace="##other" does not allow)"),
            std::string::npos)
      << e.message;
  EXPECT_EQ(from_xml(head + "<c/><c/><t:end>e</t:end></t:open>", v).code, errc::unexpected_element);
}

}  // namespace
}  // namespace lather::bind::test
