// RPC/encoded messages read with decode_options: lenient_dates (the date and time forms devices
// send, as bind::read_options::lenient_dates reads them in literal messages) and
// validate_facets (the facets of meta<T> fields, parts and accessors of encoded structs, read
// inline or through href: a multi-ref's value against each referring accessor's facets).
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "lather/bind/error.hpp"
#include "lather/bind/facets.hpp"
#include "lather/soap/encoded.hpp"
#include "lather/soap/envelope.hpp"

namespace soap = lather::soap;
namespace xml = lather::xml;
namespace lb = lather::bind;

namespace eo {
struct reading {
  lather::xsd::date_time at;
  std::string unit;                  // pattern [a-z]+
  std::vector<std::int32_t> values;  // each 0..100 (a SOAP-ENC array)
};
struct report {      // the rpc message: parts
  std::string code;  // length 3
  reading last;
  lather::xsd::date day;
  lather::xsd::list<lather::xsd::time> times;
};
constinit lb::pattern unit_patterns[] = {"[a-z]+"};
constexpr lb::facets unit_facets{.patterns = unit_patterns};
constexpr lb::facets value_facets{
    .value = lb::facet_value::decimal, .min_inclusive = "0", .max_inclusive = "100"};
}  // namespace eo

template <>
struct lather::meta<eo::reading> {
  using T = eo::reading;
  static constexpr std::string_view ns = "urn:eo", name = "reading";
  static constexpr auto encoding = lather::bind::encoding::soap;
  static constexpr auto fields =
      std::tuple{element("at", &T::at), element("unit", &T::unit).facets(eo::unit_facets),
                 element("values", &T::values).facets(eo::value_facets)};
};
template <>
struct lather::meta<eo::report> {
  using T = eo::report;
  static constexpr std::string_view ns = "urn:eo", name = "report";
  static constexpr auto encoding = lather::bind::encoding::soap;
  // A static member (external linkage, as lather-wsdl2cpp writes them in a header): g++
  // -fsanitize=undefined takes the binding of it as constant (scripts/test.sh, asan stage).
  static constexpr lb::facets code_facets{.length = 3};
  static constexpr auto fields =
      std::tuple{element("code", &T::code).facets(code_facets), element("last", &T::last),
                 element("day", &T::day), element("times", &T::times)};
};

namespace {

/// A SOAP 1.1 envelope's start, up to the Body's content.
constexpr std::string_view envelope_start =
    R"(<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/" )"
    R"(xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" )"
    R"(xmlns:xsd="http://www.w3.org/2001/XMLSchema" )"
    R"(xmlns:enc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:t="urn:eo"><e:Body>)";

std::string message(std::string_view code, std::string_view at, std::string_view unit,
                    std::string_view values, std::string_view day, std::string_view times) {
  return std::string(envelope_start) +
         R"(<t:report e:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">)"
         R"(<code xsi:type="xsd:string">)" +
         std::string(code) + R"(</code><last xsi:type="t:reading"><at xsi:type="xsd:dateTime">)" +
         std::string(at) + "</at><unit>" + std::string(unit) +
         R"(</unit><values enc:arrayType="xsd:int[]">)" + std::string(values) +
         "</values></last><day>" + std::string(day) + "</day><times>" + std::string(times) +
         "</times></t:report></e:Body></e:Envelope>";
}

const std::string valid = message("ABC", "2024-08-17T00:00:00Z", "kw", "<i>0</i><i>100</i>",
                                  "2024-08-17", "10:00:00 11:00:00");

/// The message read with `o`: "" or the fault's reason.
std::string read(const std::string& doc, const soap::decode_options& o, eo::report* out = nullptr) {
  xml::reader r;
  r.reset(doc);
  soap::envelope_reader env{r};
  env.begin();
  eo::report msg;
  try {
    soap::read_encoded_message(r, env, msg, o);
  } catch (const soap::fault_error& e) {
    return e.get().reason.empty() ? "fault" : e.get().reason;
  }
  if (out) *out = std::move(msg);
  return "";
}

template <class T>
T parsed(std::string_view text) {
  T v{};
  EXPECT_EQ(lb::xsd_traits<T>::parse(text, v), lb::errc::ok) << text;
  return v;
}

soap::decode_options lenient() {
  soap::decode_options o;
  o.lenient_dates = true;
  return o;
}
soap::decode_options validating() {
  soap::decode_options o;
  o.validate_facets = true;
  return o;
}

TEST(SoapEncodedOptions, DeviceDatesReadLeniently) {
  const std::string doc =
      message("ABC", "2024-08-17T00:61:16Z", "kw", "", "2024-08-17+0200", "7:5:3 23:59:60.50+01");
  EXPECT_FALSE(soap::decode_options{}.lenient_dates);
  EXPECT_NE(read(doc, {}), "");  // strict, as XSD has it
  eo::report m;
  ASSERT_EQ(read(doc, lenient(), &m), "");
  EXPECT_EQ(m.last.at, parsed<lather::xsd::date_time>("2024-08-17T01:01:16Z"));
  EXPECT_EQ(m.day, parsed<lather::xsd::date>("2024-08-17+02:00"));
  ASSERT_EQ(m.times.items.size(), 2u);
  EXPECT_EQ(m.times.items[0], parsed<lather::xsd::time>("07:05:03"));
  // What no device means stays an error.
  EXPECT_NE(read(message("ABC", "soon", "kw", "", "2024-08-17", ""), lenient()), "");
}

TEST(SoapEncodedOptions, FacetsCheckedWhenOn) {
  EXPECT_EQ(read(valid, {}), "");
  EXPECT_EQ(read(valid, validating()), "");
  struct bad {
    std::string doc, reason;
  };
  const bad cases[] = {
      {message("ABCD", "2024-08-17T00:00:00Z", "kw", "", "2024-08-17", ""),
       "accessor code: \"ABCD\" violates length 3 (4 characters)"},
      {message("ABC", "2024-08-17T00:00:00Z", "KW", "", "2024-08-17", ""),
       "accessor unit: \"KW\" violates pattern [a-z]+"},
      {message("ABC", "2024-08-17T00:00:00Z", "kw", "<i>5</i><i>101</i>", "2024-08-17", ""),
       "accessor values: \"101\" violates maxInclusive 100"},
  };
  for (const bad& b : cases) {
    EXPECT_EQ(read(b.doc, {}), "") << b.doc;  // off: read as it is
    EXPECT_EQ(read(b.doc, validating()), b.reason) << b.doc;
  }
}

/// A report whose `code` and `values` are multi-refs after the wrapper (href="#c", "#v"; an
/// item of `values` by href="#i"): `code_text`, `values_items` and `item` their content.
std::string multi_ref_message(std::string_view code_text, std::string_view values_items,
                              std::string_view item = "7") {
  return std::string(envelope_start) +
         R"(<t:report e:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">)"
         R"(<code href="#c"/><last><at>2024-08-17T00:00:00Z</at><unit>kw</unit>)"
         R"(<values href="#v"/></last><day>2024-08-17</day><times/></t:report>)"
         R"(<m id="c" xsi:type="xsd:string">)" +
         std::string(code_text) + R"(</m><m id="v" enc:arrayType="xsd:int[]">)" +
         std::string(values_items) + R"(<i href="#i"/></m><m id="i" xsi:type="xsd:int">)" +
         std::string(item) + "</m></e:Body></e:Envelope>";
}

TEST(SoapEncodedOptions, FacetsOfMultiRefsCheckedWhenOn) {
  eo::report m;
  ASSERT_EQ(read(multi_ref_message("ABC", "<i>5</i>"), validating(), &m), "");
  EXPECT_EQ(m.code, "ABC");
  EXPECT_EQ(m.last.values, (std::vector<std::int32_t>{5, 7}));
  struct bad {
    std::string doc, reason;
  };
  const bad cases[] = {
      {multi_ref_message("ABCD", "<i>5</i>"),
       "accessor code: \"ABCD\" violates length 3 (4 characters)"},
      // An array by href: its items, as an inline array's.
      {multi_ref_message("ABC", "<i>5</i><i>101</i>"),
       "accessor values: \"101\" violates maxInclusive 100"},
      // An item of an array by href.
      {multi_ref_message("ABC", "<i>5</i>", "-1"),
       "accessor values: \"-1\" violates minInclusive 0"},
  };
  for (const bad& b : cases) {
    EXPECT_EQ(read(b.doc, {}), "") << b.doc;  // off: read as it is
    EXPECT_EQ(read(b.doc, validating()), b.reason) << b.doc;
  }
}

TEST(SoapEncodedOptions, FacetsOfAnAccessorWithAnIdChecked) {
  // The value is the accessor's own (id="c"), which another accessor could also refer to.
  std::string doc = message("ABCD", "2024-08-17T00:00:00Z", "kw", "", "2024-08-17", "");
  const std::string code = "<code xsi:type=\"xsd:string\">";
  doc.replace(doc.find(code), code.size(), "<code id=\"c\" xsi:type=\"xsd:string\">");
  EXPECT_EQ(read(doc, {}), "");
  EXPECT_EQ(read(doc, validating()), "accessor code: \"ABCD\" violates length 3 (4 characters)");
}

}  // namespace
