// dateTime, date, time, duration: field validity, zones, fractions, ordering.
#include <cstdio>

#include "xsd_test_util.hpp"

namespace lather::bind {
namespace {

using test::canonical;
using test::format;
using test::parse_error;
using test::parse_ok;

TEST(XsdDateTime, FieldsZonesAndFractions) {
  const auto dt = parse_ok<xsd::date_time>("2024-02-29T12:34:56.789Z");
  EXPECT_EQ(dt.year, 2024);
  EXPECT_EQ(dt.month, 2);
  EXPECT_EQ(dt.day, 29);
  EXPECT_EQ(dt.hour, 12);
  EXPECT_EQ(dt.minute, 34);
  EXPECT_EQ(dt.second, 56);
  EXPECT_EQ(dt.fraction, "789");
  EXPECT_EQ(dt.tz_minutes, 0);
  EXPECT_EQ(format(dt), "2024-02-29T12:34:56.789Z");
  // Without a zone the value stays unzoned.
  const auto local = parse_ok<xsd::date_time>(" 2001-10-26T21:32:52 ");
  EXPECT_FALSE(local.tz_minutes.has_value());
  EXPECT_EQ(format(local), "2001-10-26T21:32:52");
  EXPECT_EQ(canonical<xsd::date_time>("2001-10-26T21:32:52+05:30"), "2001-10-26T21:32:52+05:30");
  EXPECT_EQ(canonical<xsd::date_time>("2001-10-26T21:32:52-14:00"), "2001-10-26T21:32:52-14:00");
  EXPECT_EQ(canonical<xsd::date_time>("2001-10-26T21:32:52-00:00"), "2001-10-26T21:32:52Z");
  // Fractions are kept digit for digit (beyond any binary precision), trailing zeros dropped.
  EXPECT_EQ(canonical<xsd::date_time>("2001-10-26T21:32:52.1234567890123456789+01:00"),
            "2001-10-26T21:32:52.1234567890123456789+01:00");
  EXPECT_EQ(canonical<xsd::date_time>("2001-10-26T21:32:52.500"), "2001-10-26T21:32:52.5");
  EXPECT_EQ(canonical<xsd::date_time>("2001-10-26T21:32:52.000"), "2001-10-26T21:32:52");
}

TEST(XsdDateTime, CalendarValidity) {
  EXPECT_EQ(parse_error<xsd::date_time>("2023-02-29T00:00:00"), errc::out_of_range);
  EXPECT_EQ(parse_error<xsd::date_time>("1900-02-29T00:00:00"), errc::out_of_range);
  EXPECT_EQ(parse_error<xsd::date_time>("2000-02-29T00:00:00"), errc::ok);
  EXPECT_EQ(parse_error<xsd::date_time>("2024-04-31T00:00:00"), errc::out_of_range);
  EXPECT_EQ(parse_error<xsd::date_time>("2024-12-32T00:00:00"), errc::out_of_range);
  EXPECT_EQ(parse_error<xsd::date_time>("2024-13-01T00:00:00"), errc::out_of_range);
  EXPECT_EQ(parse_error<xsd::date_time>("2024-00-01T00:00:00"), errc::out_of_range);
  EXPECT_EQ(parse_error<xsd::date_time>("2024-01-00T00:00:00"), errc::out_of_range);
  EXPECT_EQ(parse_error<xsd::date_time>("2016-12-31T23:59:60Z"), errc::out_of_range);  // leap s
  EXPECT_EQ(parse_error<xsd::date_time>("2016-12-31T23:60:00Z"), errc::out_of_range);
  EXPECT_EQ(parse_error<xsd::date_time>("2016-12-31T25:00:00Z"), errc::out_of_range);
  EXPECT_EQ(parse_error<xsd::date_time>("2016-12-31T24:00:01Z"), errc::out_of_range);
  EXPECT_EQ(parse_error<xsd::date_time>("2016-12-31T24:00:00.1Z"), errc::out_of_range);
  EXPECT_EQ(parse_error<xsd::date_time>("2016-12-31T00:00:00+14:01"), errc::out_of_range);
  EXPECT_EQ(parse_error<xsd::date_time>("2016-12-31T00:00:00+15:00"), errc::out_of_range);
  EXPECT_EQ(parse_error<xsd::date_time>("2016-12-31T00:00:00+10:60"), errc::out_of_range);
  // 24:00:00 is midnight at the end of the day: the next day's 00:00:00.
  EXPECT_EQ(canonical<xsd::date_time>("2024-12-31T24:00:00Z"), "2025-01-01T00:00:00Z");
  EXPECT_EQ(canonical<xsd::date_time>("2024-02-28T24:00:00"), "2024-02-29T00:00:00");
  for (std::string_view bad :
       {"", "2024-01-01", "2024-1-01T00:00:00", "24-01-01T00:00:00", "2024-01-01 00:00:00",
        "2024-01-01T00:00", "2024-01-01T00:00:00.", "2024-01-01T00:00:00z",
        "2024-01-01T00:00:00+1:00", "2024-01-01T00:00:00+01", "2024-01-01T00:00:00Z ",
        "02024-01-01T00:00:00", "+2024-01-01T00:00:00", "2024-01-01T00:00:00ZZ",
        "2024-01-01T0:00:00", "--2024-01-01T00:00:00", "2024-01-01T00:00:00+01:00:00"}) {
    const errc e = parse_error<xsd::date_time>(bad);
    if (bad == "2024-01-01T00:00:00Z ") {
      EXPECT_EQ(e, errc::ok);  // trailing whitespace is collapsed away
    } else {
      EXPECT_EQ(e, errc::invalid_lexical) << bad;
    }
  }
}

// "YYYY-MM-DDThh:mm:ss" with "Z" or no zone has a fixed-position fast path; the same value with
// a ".0" fraction takes the general parser. Both must agree on every field and every error.
TEST(XsdDateTime, PlainShapeAgreesWithTheGeneralParser) {
  auto two = [](int v) { return std::string{char('0' + v / 10), char('0' + v % 10)}; };
  int checked = 0;
  for (const char* year : {"0000", "0001", "1900", "2000", "2023", "2024", "9999"})
    for (int month : {0, 1, 2, 4, 12, 13})
      for (int day : {0, 1, 28, 29, 30, 31, 32})
        for (int hour : {0, 23, 24})
          for (int minute : {0, 59, 60})
            for (int second : {0, 59, 60})
              for (const char* zone : {"", "Z"}) {
                const std::string head = std::string(year) + "-" + two(month) + "-" + two(day) +
                                         "T" + two(hour) + ":" + two(minute) + ":" + two(second);
                xsd::date_time plain{}, general{};
                plain.fraction = "stale";  // a reused destination
                const errc e1 = xsd_traits<xsd::date_time>::parse(head + zone, plain);
                const errc e2 = xsd_traits<xsd::date_time>::parse(head + ".0" + zone, general);
                ASSERT_EQ(e1, e2) << head << zone;
                if (e1 == errc::ok) {
                  ASSERT_EQ(plain, general) << head << zone;
                  ++checked;
                }
              }
  EXPECT_GT(checked, 1000);
  for (const char* bad : {"2024-01-01T00:00:0Z", "2024-01-01 00:00:00Z", "2024-01-01T00:00:00z",
                          "2024/01/01T00:00:00Z", "2024-01-01T00-00:00Z", "+024-01-01T00:00:00Z"})
    EXPECT_EQ(parse_error<xsd::date_time>(bad), errc::invalid_lexical) << bad;
}

TEST(XsdDateTime, YearsBeyondFourDigitsAndBeforeCommonEra) {
  // XSD 1.1: year 0000 is 1 BCE, -0001 is 2 BCE; leap rule is proleptic Gregorian.
  EXPECT_EQ(canonical<xsd::date_time>("-0044-03-15T12:00:00Z"), "-0044-03-15T12:00:00Z");
  EXPECT_EQ(parse_ok<xsd::date_time>("-0044-03-15T12:00:00Z").year, -44);
  EXPECT_EQ(canonical<xsd::date>("0000-02-29"), "0000-02-29");  // year 0 is a leap year
  EXPECT_EQ(canonical<xsd::date>("-0000-01-01"), "0000-01-01");
  EXPECT_EQ(parse_error<xsd::date>("-0001-02-29"), errc::out_of_range);
  EXPECT_EQ(parse_error<xsd::date>("-0004-02-29"), errc::ok);
  EXPECT_EQ(canonical<xsd::date>("12345-06-07"), "12345-06-07");
  EXPECT_EQ(canonical<xsd::date>("2147483647-12-31"), "2147483647-12-31");
  EXPECT_EQ(canonical<xsd::date>("-2147483648-01-01"), "-2147483648-01-01");
  // Every year around the four-digit range: at least four digits, '-' before negative ones.
  for (int year = -10001; year <= 10001; ++year) {
    xsd::date d;
    d.year = year;
    char expected[32];
    std::snprintf(expected, sizeof expected, "%s%04d-01-01", year < 0 ? "-" : "",
                  year < 0 ? -year : year);
    ASSERT_EQ(format(d), expected);
  }
  EXPECT_EQ(parse_error<xsd::date>("2147483648-01-01"), errc::out_of_range);
  EXPECT_EQ(parse_error<xsd::date>("99999999999999999999999-01-01"), errc::out_of_range);
  EXPECT_EQ(parse_error<xsd::date>("012345-06-07"), errc::invalid_lexical);
  EXPECT_EQ(parse_error<xsd::date>("999-06-07"), errc::invalid_lexical);
  EXPECT_EQ(parse_error<xsd::date_time>("2147483647-12-31T24:00:00"), errc::out_of_range);
}

TEST(XsdDateTime, DateAndTime) {
  EXPECT_EQ(canonical<xsd::date>("2002-10-10"), "2002-10-10");
  EXPECT_EQ(canonical<xsd::date>("2002-10-10+13:00"), "2002-10-10+13:00");
  EXPECT_EQ(canonical<xsd::date>("2002-10-10Z"), "2002-10-10Z");
  EXPECT_EQ(parse_error<xsd::date>("2002-10-10T00:00:00"), errc::invalid_lexical);
  EXPECT_EQ(canonical<xsd::time>("13:20:00.000-05:00"), "13:20:00-05:00");
  EXPECT_EQ(canonical<xsd::time>("23:59:59.999"), "23:59:59.999");
  EXPECT_EQ(canonical<xsd::time>("24:00:00"), "00:00:00");
  EXPECT_EQ(parse_error<xsd::time>("23:59:60"), errc::out_of_range);
  EXPECT_EQ(parse_error<xsd::time>("2002-10-10T13:20:00"), errc::invalid_lexical);
}

// xsd::parse_lenient: XSD's forms as before, and the ones devices send (read_options::
// lenient_dates), as ordinary values.
template <class T>
std::string lenient(std::string_view text) {
  T v;
  const errc e = xsd::parse_lenient(text, v);
  return e == errc::ok ? format(v) : "error " + std::to_string(static_cast<int>(e));
}

TEST(XsdDateTime, LenientForms) {
  EXPECT_EQ(lenient<xsd::date_time>("2001-10-26T21:32:52.5+05:30"), "2001-10-26T21:32:52.5+05:30");
  EXPECT_EQ(lenient<xsd::date_time>("2024-08-17T00:61:16Z"), "2024-08-17T01:01:16Z");
  EXPECT_EQ(lenient<xsd::date_time>("2010-01-01-00:00:00"), "2010-01-01T00:00:00");
  EXPECT_EQ(lenient<xsd::date_time>(" 2010-01-01 9:5:7+0200 "), "2010-01-01T09:05:07+02:00");
  EXPECT_EQ(lenient<xsd::date_time>("2024-12-31T23:59:60-03"), "2025-01-01T00:00:00-03:00");
  EXPECT_EQ(lenient<xsd::date_time>("2024-12-31T47:00:00"), "2025-01-01T23:00:00");
  EXPECT_EQ(lenient<xsd::time>("25:00:00.250z"), "01:00:00.25Z");
  EXPECT_EQ(lenient<xsd::date>("2024-08-17-0130"), "2024-08-17-01:30");
  const std::string invalid = "error " + std::to_string(static_cast<int>(errc::invalid_lexical));
  const std::string range = "error " + std::to_string(static_cast<int>(errc::out_of_range));
  EXPECT_EQ(lenient<xsd::date_time>("2024-02-30T00:00:00"), range);
  EXPECT_EQ(lenient<xsd::date_time>("2024-01-01T00:00:00+1401"), range);
  EXPECT_EQ(lenient<xsd::date_time>("2024-01-01T00:00:00+2"), invalid);
  EXPECT_EQ(lenient<xsd::date_time>("2024-01-01T00:00:00+02:0"), invalid);
  EXPECT_EQ(lenient<xsd::date_time>("2024-01-01X00:00:00"), invalid);
  EXPECT_EQ(lenient<xsd::date_time>("2024-01-01T123:00:00"), invalid);
  EXPECT_EQ(lenient<xsd::date_time>("2024-01-01T00:00:00Zjunk"), invalid);
  EXPECT_EQ(lenient<xsd::time>("10:00"), invalid);
}

xsd::date_time dt(std::string_view text) {
  return parse_ok<xsd::date_time>(text);
}

TEST(XsdDateTime, CompareAsInstants) {
  using std::partial_ordering;
  EXPECT_EQ(xsd::compare_instant(dt("2024-01-01T12:00:00+02:00"), dt("2024-01-01T10:00:00Z")),
            partial_ordering::equivalent);
  EXPECT_EQ(xsd::compare_instant(dt("2024-01-01T00:30:00+01:00"), dt("2023-12-31T23:00:00Z")),
            partial_ordering::greater);
  EXPECT_EQ(xsd::compare_instant(dt("2024-01-01T10:00:00.25Z"), dt("2024-01-01T10:00:00.3Z")),
            partial_ordering::less);
  EXPECT_EQ(xsd::compare_instant(dt("2024-01-01T10:00:00.50Z"), dt("2024-01-01T10:00:00.5Z")),
            partial_ordering::equivalent);
  EXPECT_EQ(xsd::compare_instant(dt("-0001-12-31T23:59:59Z"), dt("0000-01-01T00:00:00Z")),
            partial_ordering::less);
  // Unzoned vs zoned: ordered only when more than 14 hours apart.
  EXPECT_EQ(xsd::compare_instant(dt("2024-01-01T12:00:00"), dt("2024-01-01T12:00:00Z")),
            partial_ordering::unordered);
  EXPECT_EQ(xsd::compare_instant(dt("2024-01-01T12:00:00"), dt("2024-01-02T03:00:00Z")),
            partial_ordering::less);
  EXPECT_EQ(xsd::compare_instant(dt("2024-01-02T03:00:00Z"), dt("2024-01-01T12:00:00")),
            partial_ordering::greater);
  EXPECT_EQ(xsd::compare_instant(dt("2024-01-01T12:00:00"), dt("2024-01-01T10:00:00")),
            partial_ordering::greater);
}

TEST(XsdDuration, LexicalFormAndCanonicalText) {
  const auto d = parse_ok<xsd::duration>("P1Y2M3DT4H5M6.70S");
  EXPECT_FALSE(d.negative);
  EXPECT_EQ(d.years, 1u);
  EXPECT_EQ(d.months, 2u);
  EXPECT_EQ(d.days, 3u);
  EXPECT_EQ(d.hours, 4u);
  EXPECT_EQ(d.minutes, 5u);
  EXPECT_EQ(d.seconds, 6u);
  EXPECT_EQ(d.fraction, "7");
  EXPECT_EQ(format(d), "P1Y2M3DT4H5M6.7S");
  EXPECT_EQ(canonical<xsd::duration>("-P1D"), "-P1D");
  EXPECT_EQ(canonical<xsd::duration>("PT36H"), "PT36H");
  EXPECT_EQ(canonical<xsd::duration>("P0D"), "PT0S");
  EXPECT_EQ(canonical<xsd::duration>("-PT0S"), "PT0S");
  EXPECT_EQ(canonical<xsd::duration>("PT0.5S"), "PT0.5S");
  EXPECT_EQ(canonical<xsd::duration>("P1M"), "P1M");
  EXPECT_EQ(canonical<xsd::duration>("PT1M"), "PT1M");
  EXPECT_EQ(canonical<xsd::duration>("P18446744073709551615Y"), "P18446744073709551615Y");
  EXPECT_EQ(parse_error<xsd::duration>("P18446744073709551616Y"), errc::out_of_range);
  for (std::string_view bad :
       {"", "P", "PT", "P1DT", "P1S", "PT1.5M", "P1M1Y", "P-1D", "1D", "P1D2D", "PT1H1H", "P1.5D",
        "P1Y T1H", "+P1D", "P1DT1D", "PTT1H", "P1", "PT1.S"})
    EXPECT_EQ(parse_error<xsd::duration>(bad), errc::invalid_lexical) << bad;
}

}  // namespace
}  // namespace lather::bind
