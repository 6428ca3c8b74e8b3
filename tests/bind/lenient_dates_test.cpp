// read_options::lenient_dates: the date and time forms devices send that XSD refuses, read
// through meta<T> (K = 0) and through a table (K = 1) on every path a simple value takes: a
// whole element, a nillable element, an attribute and simple content.
#include <gtest/gtest.h>

#include <cstddef>
#include <optional>
#include <string>

#include "lather/bind/table.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace ld {

inline constexpr std::string_view ns = "urn:ld";

template <int K>
struct reading {  // simple content: the time a value was taken
  lather::xsd::time value;
  std::string unit;
};

template <int K>
struct stamp {
  std::optional<lather::xsd::time> clock;  // attribute
  lather::xsd::date_time at;
  lather::nillable<lather::xsd::date_time> seen;
  lather::xsd::date day;
  std::optional<reading<K>> last;
};

}  // namespace ld

template <>
struct lather::meta<ld::reading<0>> {
  using T = ld::reading<0>;
  static constexpr std::string_view name = "reading";
  static constexpr std::string_view ns = ld::ns;
  static constexpr auto fields = std::tuple{text(&T::value), attribute("unit", &T::unit)};
};
template <>
struct lather::meta<ld::stamp<0>> {
  using T = ld::stamp<0>;
  static constexpr std::string_view name = "stamp";
  static constexpr std::string_view ns = ld::ns;
  static constexpr auto fields =
      std::tuple{attribute("clock", &T::clock), element("at", &T::at), element("seen", &T::seen),
                 element("day", &T::day), element("last", &T::last)};
};
template <>
struct lather::meta<ld::reading<1>> {
  static constexpr std::string_view name = "reading";
  static constexpr std::string_view ns = ld::ns;
};
template <>
struct lather::meta<ld::stamp<1>> {
  static constexpr std::string_view name = "stamp";
  static constexpr std::string_view ns = ld::ns;
};
LATHER_BIND_TABLE(ld::reading<1>);
LATHER_BIND_TABLE(ld::stamp<1>);

#pragma GCC diagnostic ignored "-Winvalid-offsetof"
namespace {
LATHER_BIND_TABLE_FILE();
using R = ld::reading<1>;
using S = ld::stamp<1>;
using lather::xsd::date;
using lather::xsd::date_time;
using lather::xsd::time;
constexpr auto reading_fields = fields(ld::ns, text<time>(ld::ns, offsetof(R, value)),
                                       attribute<std::string>(ld::ns, "unit", offsetof(R, unit)));
constexpr auto stamp_fields =
    fields(ld::ns, attribute<std::optional<time>>(ld::ns, "clock", offsetof(S, clock)),
           element<date_time>(ld::ns, "at", offsetof(S, at)),
           element<lather::nillable<date_time>>(ld::ns, "seen", offsetof(S, seen)),
           element<date>(ld::ns, "day", offsetof(S, day)),
           element<std::optional<R>>(ld::ns, "last", offsetof(S, last)));
}  // namespace
LATHER_BIND_TABLE_DEFINE(reading_fields, ld::reading<1>)
LATHER_BIND_TABLE_DEFINE(stamp_fields, ld::stamp<1>)

namespace {

struct outcome {
  std::string error;  // "" on success
  std::string xml;    // the value written back
};

template <int K>
outcome round_trip(std::string_view doc, const lather::bind::read_options& o) {
  lather::xml::reader r;
  r.reset(doc);
  EXPECT_EQ(r.next(), lather::xml::token::start_element);
  ld::stamp<K> v;
  if (lather::bind::error_info e = lather::bind::read(r, v, o)) return {e.message, {}};
  lather::xml::output out;
  lather::xml::writer w{out};
  lather::bind::write(w, ld::ns, "stamp", v);
  w.end_document();
  return {{}, std::string(out.view())};
}

std::string doc(std::string_view clock, std::string_view at, std::string_view seen,
                std::string_view day, std::string_view last) {
  return std::string(R"(<s:stamp xmlns:s="urn:ld" clock=")") + std::string(clock) + R"("><s:at>)" +
         std::string(at) + "</s:at><s:seen>" + std::string(seen) + "</s:seen><s:day>" +
         std::string(day) + R"(</s:day><s:last unit="s">)" + std::string(last) +
         "</s:last></s:stamp>";
}

lather::bind::read_options lenient() {
  lather::bind::read_options o;
  o.lenient_dates = true;
  return o;
}

// Both bindings give the same outcome; returns it.
outcome both(std::string_view d, const lather::bind::read_options& o) {
  const outcome a = round_trip<0>(d, o), b = round_trip<1>(d, o);
  EXPECT_EQ(a.error, b.error) << d;
  EXPECT_EQ(a.xml, b.xml) << d;
  return a;
}

TEST(LenientDates, StrictByDefaultAsXsdHasIt) {
  const std::string d =
      doc("07:05:03", "2024-08-17T00:61:16Z", "2024-08-17T00:00:00Z", "2024-08-17", "10:00:00");
  EXPECT_EQ(both(d, {}).error,
            "/stamp/at: \"2024-08-17T00:61:16Z\" is out of range for xsd:dateTime");
  EXPECT_FALSE(lather::bind::read_options{}.lenient_dates);
  EXPECT_TRUE(lather::bind::client_read_options().lenient_dates);
}

TEST(LenientDates, DeviceFormsReadOnEveryPathAndWrittenBackAsXsd) {
  const std::string d = doc("7:5:3", "2024-08-17T00:61:16Z", "2010-01-01-00:00:00",
                            "2024-08-17+0200", "23:59:60.50+01");
  const outcome o = both(d, lenient());
  EXPECT_EQ(o.error, "");
  EXPECT_EQ(
      o.xml,
      R"(<ns1:stamp xmlns:ns1="urn:ld" clock="07:05:03"><ns1:at>2024-08-17T01:01:16Z</ns1:at>)"
      R"(<ns1:seen>2010-01-01T00:00:00</ns1:seen><ns1:day>2024-08-17+02:00</ns1:day>)"
      R"(<ns1:last unit="s">00:00:00.5+01:00</ns1:last></ns1:stamp>)");
}

TEST(LenientDates, CarriesIntoTheNextDayMonthAndYear) {
  const std::string d =
      doc("12:00:00", "2024-12-31 23:59:60+0530", "2024-02-28t23:60:00z", "2024-02-29", "00:00:00");
  const outcome o = both(d, lenient());
  EXPECT_EQ(o.error, "");
  EXPECT_NE(o.xml.find("<ns1:at>2025-01-01T00:00:00+05:30</ns1:at>"), std::string::npos) << o.xml;
  EXPECT_NE(o.xml.find("<ns1:seen>2024-02-29T00:00:00Z</ns1:seen>"), std::string::npos) << o.xml;
}

TEST(LenientDates, WhatNoDeviceMeansStaysAnError) {
  // A day the month lacks, a zone past 14 hours, a word: refused even when lenient.
  EXPECT_EQ(
      both(doc("12:00:00", "2023-02-29T10:00:00", "2024-01-01T00:00:00", "2024-01-01", "00:00:00"),
           lenient())
          .error,
      "/stamp/at: \"2023-02-29T10:00:00\" is out of range for xsd:dateTime");
  EXPECT_EQ(both(doc("12:00:00", "2024-01-01T10:00:00+1500", "2024-01-01T00:00:00", "2024-01-01",
                     "00:00:00"),
                 lenient())
                .error,
            "/stamp/at: \"2024-01-01T10:00:00+1500\" is out of range for xsd:dateTime");
  EXPECT_NE(
      both(doc("noon", "2024-01-01T10:00:00", "2024-01-01T00:00:00", "2024-01-01", "00:00:00"),
           lenient())
          .error,
      "");
}

}  // namespace
