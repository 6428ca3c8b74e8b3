// lather::polymorphic<B>: a value of a non-abstract type B or of a type derived from it, with
// value semantics (deep copy, == by dynamic type and value), read and written with xsi:type
// through meta<T>'s fields (K = 0) and through a table as lather-wsdl2cpp writes one (K = 1):
// plain, optional, repeated and nillable members, a derived type of a derived type, no xsi:type
// (the base), unknown subtypes kept or refused. The hierarchy has no virtual function.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "bind_test_util.hpp"
#include "lather/bind/table.hpp"

#pragma GCC diagnostic ignored "-Winvalid-offsetof"  // offsetof on a hierarchy's structs

namespace pm {

inline constexpr std::string_view ns = "urn:pm";

template <int K>
struct Device {
  std::string label;
  std::optional<std::int32_t> key;  // attribute
  friend bool operator==(const Device&, const Device&) = default;
};
template <int K>
struct Disk : Device<K> {
  std::int64_t capacity = 0;
  friend bool operator==(const Disk&, const Disk&) = default;
};
template <int K>
struct Flash : Disk<K> {
  std::optional<std::int32_t> cells;
  friend bool operator==(const Flash&, const Flash&) = default;
};
template <int K>
struct Rack {
  lather::polymorphic<Device<K>> main;
  std::optional<lather::polymorphic<Device<K>>> spare;
  std::vector<lather::polymorphic<Device<K>>> slot;
  lather::nillable<lather::polymorphic<Device<K>>> maybe;
  friend bool operator==(const Rack&, const Rack&) = default;
};

}  // namespace pm

template <int K>
struct lather::meta<pm::Device<K>> {
  using T = pm::Device<K>;
  static constexpr std::string_view name = "Device", ns = pm::ns;
  using derived = types<pm::Disk<K>>;
  static constexpr auto fields =
      lather::fields(element("label", &T::label), attribute("key", &T::key));
};
LATHER_BIND_TABLE(pm::Device<1>);
template <int K>
struct lather::meta<pm::Disk<K>> {
  using T = pm::Disk<K>;
  static constexpr std::string_view name = "Disk", ns = pm::ns;
  using base = pm::Device<K>;
  using derived = types<pm::Flash<K>>;
  static constexpr auto fields = lather::fields(element("capacity", &T::capacity));
};
LATHER_BIND_TABLE(pm::Disk<1>);
template <int K>
struct lather::meta<pm::Flash<K>> {
  static constexpr std::string_view name = "Flash", ns = pm::ns;
  static constexpr auto fields = lather::fields(element("cells", &pm::Flash<K>::cells));
  using base = pm::Disk<K>;  // derived from Disk, itself derived from Device
};
LATHER_BIND_TABLE(pm::Flash<1>);
template <int K>
struct lather::meta<pm::Rack<K>> {
  using T = pm::Rack<K>;
  static constexpr std::string_view name = "rack", ns = pm::ns;
  static constexpr auto fields =
      lather::fields(element("main", &T::main), element("spare", &T::spare),
                     element("slot", &T::slot), element("maybe", &T::maybe));
};
LATHER_BIND_TABLE(pm::Rack<1>);

// A hierarchy whose derived objects do not start with their base part (a virtual destructor
// puts a pointer first), one of whose types is abstract in the schema (not in C++).
namespace pg {

struct Part {
  std::string name;
  friend bool operator==(const Part&, const Part&) = default;
};
struct Gear : Part {
  Gear() = default;
  Gear(const Gear&) = default;
  Gear& operator=(const Gear&) = default;
  virtual ~Gear() = default;
  std::int32_t teeth = 0;
  friend bool operator==(const Gear&, const Gear&) = default;
};
struct Cog : Gear {
  std::optional<std::string> alloy;
  friend bool operator==(const Cog&, const Cog&) = default;
};
struct Lever : Part {
  std::int32_t length = 0;
  friend bool operator==(const Lever&, const Lever&) = default;
};
struct Box {
  lather::polymorphic<Part> part;
  std::vector<lather::polymorphic<Part>> parts;
  friend bool operator==(const Box&, const Box&) = default;
};

}  // namespace pg

template <>
struct lather::meta<pg::Part> {
  static constexpr std::string_view name = "Part", ns = pm::ns;
  using derived = types<pg::Gear, pg::Lever>;
  static constexpr auto fields = lather::fields(element("name", &pg::Part::name));
};
template <>
struct lather::meta<pg::Gear> {
  static constexpr std::string_view name = "Gear", ns = pm::ns;
  using base = pg::Part;
  using derived = types<pg::Cog>;
  static constexpr auto fields = lather::fields(element("teeth", &pg::Gear::teeth));
};
template <>
struct lather::meta<pg::Cog> {
  static constexpr std::string_view name = "Cog", ns = pm::ns;
  using base = pg::Gear;
  static constexpr auto fields = lather::fields(element("alloy", &pg::Cog::alloy));
};
template <>
struct lather::meta<pg::Lever> {
  static constexpr std::string_view name = "Lever", ns = pm::ns;
  static constexpr bool abstract = true;
  using base = pg::Part;
  static constexpr auto fields = lather::fields(element("length", &pg::Lever::length));
};
template <>
struct lather::meta<pg::Box> {
  static constexpr std::string_view name = "box", ns = pm::ns;
  static constexpr auto fields =
      lather::fields(element("part", &pg::Box::part), element("parts", &pg::Box::parts));
};

namespace pm {
using Dev1 = Device<1>;
using Disk1 = Disk<1>;
using Flash1 = Flash<1>;
using Rack1 = Rack<1>;
using Poly1 = lather::polymorphic<Dev1>;
}  // namespace pm

namespace {
LATHER_BIND_TABLE_FILE();
using namespace pm;
constexpr auto device_fields =
    fields(pm::ns, element<std::string>(pm::ns, "label", offsetof(Dev1, label)),
           attribute<std::optional<std::int32_t>>(pm::ns, "key", offsetof(Dev1, key)));
constexpr auto disk_fields =
    extension(pm::ns, 2, element<std::int64_t>(pm::ns, "capacity", offsetof(Disk1, capacity)));
constexpr auto flash_fields = extension(
    pm::ns, 3, element<std::optional<std::int32_t>>(pm::ns, "cells", offsetof(Flash1, cells)));
constexpr auto rack_fields =
    fields(pm::ns, element<Poly1>(pm::ns, "main", offsetof(Rack1, main)),
           element<std::optional<Poly1>>(pm::ns, "spare", offsetof(Rack1, spare)),
           element<std::vector<Poly1>>(pm::ns, "slot", offsetof(Rack1, slot)),
           element<lather::nillable<Poly1>>(pm::ns, "maybe", offsetof(Rack1, maybe)));
}  // namespace
LATHER_BIND_TABLE_DEFINE(device_fields, pm::Device<1>)
LATHER_BIND_TABLE_DEFINE_EXTENSION(disk_fields, pm::Disk<1>)
LATHER_BIND_TABLE_DEFINE_EXTENSION(flash_fields, pm::Flash<1>)
LATHER_BIND_TABLE_DEFINE(rack_fields, pm::Rack<1>)

namespace {

using lather::bind::test::from_xml;
using lather::bind::test::to_xml;

static_assert(!std::is_polymorphic_v<pm::Device<0>>);
static_assert(std::is_nothrow_move_constructible_v<lather::polymorphic<pm::Device<0>>>);

TEST(Polymorphic, HoldsABaseOrADerivedValueWithValueSemantics) {
  using Dev = pm::Device<0>;
  using Disk = pm::Disk<0>;
  using Flash = pm::Flash<0>;
  lather::polymorphic<Dev> p;
  EXPECT_TRUE(p.holds<Dev>());
  EXPECT_FALSE(p.holds<Disk>());
  EXPECT_EQ(p.get_if<Disk>(), nullptr);
  p->label = "a";
  EXPECT_EQ(p.get().label, "a");

  p = Disk{{"sda", 1}, 512};
  ASSERT_TRUE(p.holds<Disk>());
  EXPECT_FALSE(p.holds<Dev>());
  EXPECT_EQ(p.get_if<Disk>()->capacity, 512);
  EXPECT_EQ((*p).label, "sda");

  lather::polymorphic<Dev> copy = p;  // deep: another Disk
  ASSERT_TRUE(copy.holds<Disk>());
  EXPECT_NE(&*copy, &*p);
  EXPECT_EQ(copy, p);
  copy.get_if<Disk>()->capacity = 1024;
  EXPECT_NE(copy, p);
  EXPECT_EQ(p.get_if<Disk>()->capacity, 512);

  // The same base part, another dynamic type: not equal.
  lather::polymorphic<Dev> base{Dev{"sda", 1}};
  EXPECT_NE(base, p);
  Flash& f = base.emplace<Flash>();
  f.label = "nvme";
  f.cells = 3;
  EXPECT_TRUE(base.holds<Flash>());
  EXPECT_FALSE(base.holds<Disk>());  // exactly the dynamic type
  copy = base;
  EXPECT_TRUE(copy.holds<Flash>());
  EXPECT_EQ(copy, base);

  lather::polymorphic<Dev> moved = std::move(copy);
  EXPECT_TRUE(copy.valueless_after_move());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(moved, base);
  copy = moved;
  EXPECT_EQ(copy, base);
  swap(copy, p);
  EXPECT_TRUE(copy.holds<Disk>());
  EXPECT_TRUE(p.holds<Flash>());
}

template <int K>
pm::Rack<K> sample() {
  pm::Rack<K> r;
  pm::Flash<K> f;
  f.label = "f";
  f.capacity = 64;
  f.cells = 2;
  r.main = f;
  r.spare.emplace();
  (*r.spare)->label = "s";
  r.slot.emplace_back(pm::Disk<K>{{"d", 7}, 128});
  r.slot.emplace_back();
  r.slot.back()->label = "plain";
  r.slot.emplace_back(f);
  return r;
}

template <int K>
void round_trip() {
  const pm::Rack<K> r = sample<K>();
  const std::string xml = to_xml(pm::ns, "rack", r);
  // xsi:type only where the object is not of the declared type (as CXF and JAXB write it).
  const std::string xsi = R"(xmlns:ns2="http://www.w3.org/2001/XMLSchema-instance" ns2:)";
  EXPECT_NE(xml.find("<ns1:main " + xsi + R"(type="ns1:Flash"><ns1:label>f)"), std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<ns1:spare><ns1:label>s</ns1:label></ns1:spare>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<ns1:slot " + xsi + R"(type="ns1:Disk" key="7"><ns1:label>d)"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<ns1:slot><ns1:label>plain</ns1:label></ns1:slot>"), std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<ns1:slot " + xsi + R"(type="ns1:Flash">)"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<ns1:maybe " + xsi + R"(nil="true"/>)"), std::string::npos) << xml;
  pm::Rack<K> back;
  ASSERT_FALSE(from_xml(xml, back)) << xml;
  EXPECT_TRUE(back.main.template holds<pm::Flash<K>>());
  EXPECT_TRUE(back.slot[0].template holds<pm::Disk<K>>());
  EXPECT_TRUE(back.slot[1].template holds<pm::Device<K>>());
  EXPECT_EQ(back, r);
  EXPECT_EQ(to_xml(pm::ns, "rack", back), xml);

  // Read again into the same value: the objects of the right type are reused.
  const pm::Device<K>* main = &*back.main;
  const pm::Device<K>* slot0 = &*back.slot[0];
  ASSERT_FALSE(from_xml(xml, back)) << xml;
  EXPECT_EQ(&*back.main, main);
  EXPECT_EQ(&*back.slot[0], slot0);
  EXPECT_EQ(back, r);

  // A nillable one holds a value too.
  pm::Rack<K> with = r;
  with.maybe.emplace(pm::Disk<K>{{"m", {}}, 1});
  const std::string x2 = to_xml(pm::ns, "rack", with);
  EXPECT_NE(x2.find(R"(<ns1:maybe xmlns:ns2="http://www.w3.org/2001/XMLSchema-instance" )"
                    R"(ns2:type="ns1:Disk">)"),
            std::string::npos)
      << x2;
  ASSERT_FALSE(from_xml(x2, back)) << x2;
  EXPECT_EQ(back, with);
}

TEST(Polymorphic, RoundTripsWithXsiTypeThroughMeta) {
  round_trip<0>();
}
TEST(Polymorphic, RoundTripsWithXsiTypeThroughATable) {
  round_trip<1>();
}

template <int K>
void reading() {
  using Rack = pm::Rack<K>;
  const std::string head =
      R"(<rack xmlns="urn:pm" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">)";
  Rack r;
  // No xsi:type: the declared type, whatever the member held.
  r.main = pm::Flash<K>{};
  ASSERT_FALSE(
      from_xml(head + "<main><label>x</label></main><maybe><label>y</label></maybe></rack>", r));
  EXPECT_TRUE(r.main.template holds<pm::Device<K>>());
  EXPECT_EQ(r.main->label, "x");
  EXPECT_FALSE(r.spare);
  EXPECT_TRUE(r.slot.empty());
  ASSERT_TRUE(r.maybe);
  EXPECT_TRUE(r.maybe->template holds<pm::Device<K>>());
  // A derived type of a derived type, named by a prefix of its own.
  ASSERT_FALSE(from_xml(head + R"(<main xmlns:q="urn:pm" xsi:type="q:Flash"><label>x</label>)"
                               "<capacity>3</capacity><cells>4</cells></main>"
                               R"(<maybe xsi:nil="true"/></rack>)",
                        r));
  const pm::Flash<K>* f = r.main.template get_if<pm::Flash<K>>();
  ASSERT_TRUE(f);
  EXPECT_EQ(f->capacity, 3);
  EXPECT_EQ(f->cells, 4);
  EXPECT_FALSE(r.maybe);
  // xsi:nil on the plain member: not nillable.
  lather::bind::error_info e = from_xml(head + R"(<main xsi:nil="true"/><maybe/></rack>)", r);
  EXPECT_EQ(e.code, lather::bind::errc::nil_not_allowed) << e.message;
  // A type lather knows that is not Device or derived from it.
  e = from_xml(head + R"(<main xmlns:xs="http://www.w3.org/2001/XMLSchema" xsi:type="xs:int"/>)"
                      R"(<maybe xsi:nil="true"/></rack>)",
               r);
  EXPECT_EQ(e.code, lather::bind::errc::bad_xsi_type) << e.message;
}

TEST(Polymorphic, ReadsTheTypeXsiTypeNamesThroughMeta) {
  reading<0>();
}
TEST(Polymorphic, ReadsTheTypeXsiTypeNamesThroughATable) {
  reading<1>();
}

template <int K>
void unknown() {
  using Rack = pm::Rack<K>;
  using Kept = lather::bind::unknown_subtype<pm::Device<K>>;
  const std::string doc =
      R"(<rack xmlns="urn:pm" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">)"
      R"(<main xsi:type="Tape" key="3"><label>t</label><length>9</length></main>)"
      R"(<maybe xsi:nil="true"/></rack>)";
  Rack r;
  lather::bind::error_info e = from_xml(doc, r);
  EXPECT_EQ(e.code, lather::bind::errc::unknown_xsi_type) << e.message;
  EXPECT_EQ(
      e.message,
      "/rack/main: xsi:type {urn:pm}Tape names a type with no binding (expected {urn:pm}Device "
      "or a registered derived type)");
  ASSERT_FALSE(from_xml(doc, r, lather::bind::client_read_options()));
  const Kept* kept = r.main.template get_if<Kept>();
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->type.local, "Tape");
  EXPECT_EQ(kept->label, "t");
  EXPECT_EQ(kept->key, 3);
  // Written back as received; copied and compared as what it is.
  const std::string again = to_xml(pm::ns, "rack", r);
  EXPECT_NE(again.find("<length>9</length>"), std::string::npos) << again;
  Rack copy = r;
  ASSERT_TRUE(copy.main.template holds<Kept>());
  EXPECT_EQ(copy, r);
  Rack back;
  ASSERT_FALSE(from_xml(again, back, lather::bind::client_read_options())) << again;
  EXPECT_EQ(to_xml(pm::ns, "rack", back), again);
}

TEST(Polymorphic, KeepsAnUnknownSubtypeThroughMeta) {
  unknown<0>();
}
TEST(Polymorphic, KeepsAnUnknownSubtypeThroughATable) {
  unknown<1>();
}

TEST(Polymorphic, HoldsTypesWhoseBasePartIsNotAtTheirStart) {
  pg::Cog cog;
  cog.name = "c";
  cog.teeth = 12;
  cog.alloy = "brass";
  EXPECT_NE(static_cast<const void*>(&cog),
            static_cast<const void*>(static_cast<const pg::Part*>(&cog)));
  lather::polymorphic<pg::Part> p = cog;
  ASSERT_TRUE(p.holds<pg::Cog>());
  EXPECT_EQ(p->name, "c");
  EXPECT_EQ(p.get_if<pg::Cog>()->teeth, 12);
  lather::polymorphic<pg::Part> copy = p;
  EXPECT_EQ(copy, p);
  copy.get_if<pg::Cog>()->alloy.reset();
  EXPECT_NE(copy, p);
  pg::Gear& g = copy.emplace<pg::Gear>();
  g.teeth = 3;
  EXPECT_TRUE(copy.holds<pg::Gear>());
  EXPECT_FALSE(copy.holds<pg::Cog>());
  p = copy;
  EXPECT_EQ(p, copy);
  EXPECT_EQ(p.get_if<pg::Gear>()->teeth, 3);

  pg::Box box;
  box.part = cog;
  box.parts.emplace_back(pg::Gear{});
  box.parts.emplace_back();
  box.parts.emplace_back(cog);
  box.parts[1]->name = "plain";
  const std::string xml = to_xml(pm::ns, "box", box);
  EXPECT_NE(xml.find(R"(type="ns1:Cog"><ns1:name>c</ns1:name><ns1:teeth>12</ns1:teeth>)"
                     R"(<ns1:alloy>brass</ns1:alloy></ns1:part>)"),
            std::string::npos)
      << xml;
  pg::Box back;
  ASSERT_FALSE(from_xml(xml, back)) << xml;
  EXPECT_EQ(back, box);
  const pg::Part* part = &*back.part;
  ASSERT_FALSE(from_xml(xml, back)) << xml;  // the objects of the right type reused
  EXPECT_EQ(&*back.part, part);
  EXPECT_EQ(back, box);

  // Lever is abstract in the schema: an xsi:type may not name it, and one is not written.
  const std::string head =
      R"(<box xmlns="urn:pm" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">)";
  lather::bind::error_info e = from_xml(
      head + R"(<part xsi:type="Lever"><name>l</name><length>1</length></part></box>)", back);
  EXPECT_EQ(e.code, lather::bind::errc::bad_xsi_type) << e.message;
  EXPECT_NE(e.message.find("names an abstract type"), std::string::npos) << e.message;
  box.part = pg::Lever{};
  EXPECT_ANY_THROW(to_xml(pm::ns, "box", box));

  // A type this program does not know, kept where the options say so.
  const std::string spring =
      head + R"(<part xsi:type="Spring"><name>s</name><coils>9</coils></part></box>)";
  e = from_xml(spring, back);
  EXPECT_EQ(e.code, lather::bind::errc::unknown_xsi_type) << e.message;
  ASSERT_FALSE(from_xml(spring, back, lather::bind::client_read_options()));
  const auto* kept = back.part.get_if<lather::bind::unknown_subtype<pg::Part>>();
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->name, "s");
  EXPECT_EQ(kept->type.local, "Spring");
  pg::Box kept_copy = back;
  EXPECT_EQ(kept_copy, back);
  EXPECT_NE(to_xml(pm::ns, "box", kept_copy).find("<coils>9</coils>"), std::string::npos);
}

TEST(Polymorphic, DescribesTheMemberAsPolymorphic) {
  const lather::bind::type_description& d = lather::bind::describe<pm::Rack<1>>();
  ASSERT_EQ(d.fields.size(), 4u);
  EXPECT_TRUE(d.fields[0].polymorphic);
  EXPECT_EQ(d.fields[0].min_occurs, 1u);
  EXPECT_EQ(d.fields[1].min_occurs, 0u);
  EXPECT_EQ(&d.fields[0].type(), &lather::bind::describe<pm::Device<1>>());
}

}  // namespace

// A choice alternative of a type with derived types: a polymorphic<B> (or a nillable one) in
// the variant, read and written with xsi:type as a member is (meta<T>'s template binding).
namespace pm {
struct Pick {
  std::variant<lather::polymorphic<Device<0>>, std::string> one;
  std::vector<std::variant<lather::nillable<lather::polymorphic<Device<0>>>, std::int32_t>> many;
  friend bool operator==(const Pick&, const Pick&) = default;
};
}  // namespace pm
template <>
struct lather::meta<pm::Pick> {
  using T = pm::Pick;
  static constexpr std::string_view name = "pick", ns = pm::ns;
  static constexpr auto fields =
      lather::fields(choice(&T::one, {"device", "name"}), choice(&T::many, {"slot", "count"}));
};

namespace {

TEST(Polymorphic, IsAChoiceAlternativeThroughMeta) {
  pm::Pick p;
  p.one = pm::Flash<0>{{{"f", {}}, 2}, 3};
  p.many.emplace_back(std::in_place_index<0>, pm::Disk<0>{{"d", 1}, 4});
  p.many.emplace_back(std::in_place_index<0>);  // nil
  p.many.emplace_back(std::in_place_index<1>, 5);
  const std::string xml = to_xml(pm::ns, "pick", p);
  EXPECT_NE(xml.find(R"(:type="ns1:Flash"><ns1:label>f<)"), std::string::npos) << xml;
  EXPECT_NE(xml.find(R"(:type="ns1:Disk" key="1"><ns1:label>d<)"), std::string::npos) << xml;
  pm::Pick back;
  ASSERT_FALSE(from_xml(xml, back)) << xml;
  EXPECT_TRUE(std::get<0>(back.one).holds<pm::Flash<0>>());
  EXPECT_EQ(back, p);
  const lather::bind::type_description& d = lather::bind::describe<pm::Pick>();
  ASSERT_EQ(d.fields.size(), 2u);
  EXPECT_EQ(&d.fields[0].alternatives[0].type(), &lather::bind::describe<pm::Device<0>>());
  EXPECT_TRUE(d.fields[1].alternatives[0].nillable);
  EXPECT_EQ(&d.fields[1].alternatives[0].type(), &lather::bind::describe<pm::Device<0>>());
}

}  // namespace
