// A service's and a client's read_options reach their RPC/encoded messages: validate_facets
// checks a meta<T> field's facets, lenient_dates reads the date forms devices send (the
// decoder itself: tests/soap/encoded_options_test.cpp). Over loopback HTTP.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "../support/post_envelope.hpp"
#include "lather/bind/facets.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "lather/service/service.hpp"

namespace eos {
struct reading {
  std::string unit;  // pattern [a-z]+
  lather::xsd::date_time at;
};
struct readingResponse {
  std::string unit;  // pattern [a-z]+
  lather::xsd::date_time at;
};
constinit lather::bind::pattern unit_patterns[] = {"[a-z]+"};
constexpr lather::bind::facets unit_facets{.patterns = unit_patterns};
}  // namespace eos

template <>
struct lather::meta<eos::reading> {
  using T = eos::reading;
  static constexpr std::string_view ns = "urn:eos", name = "reading";
  static constexpr auto encoding = lather::bind::encoding::soap;
  static constexpr auto fields =
      std::tuple{element("unit", &T::unit).facets(eos::unit_facets), element("at", &T::at)};
};
template <>
struct lather::meta<eos::readingResponse> {
  using T = eos::readingResponse;
  static constexpr std::string_view ns = "urn:eos", name = "readingResponse";
  static constexpr auto encoding = lather::bind::encoding::soap;
  static constexpr auto fields =
      std::tuple{element("unit", &T::unit).facets(eos::unit_facets), element("at", &T::at)};
};

namespace {

using namespace lather;

/// A service answering `reading` with its unit, upper-cased where `shout`, and its time.
struct echo_server {
  service svc;
  server srv{server_options{}};
  echo_server(service_options opts, bool shout) : svc{"Readings", "urn:eos", std::move(opts)} {
    svc.operation("reading", [shout](const eos::reading& in) {
      eos::readingResponse out{in.unit, in.at};
      if (shout)
        for (char& c : out.unit) c = static_cast<char>(c - 'a' + 'A');
      return out;
    });
    srv.mount("/readings", svc);
    srv.start();
  }
  ~echo_server() { srv.stop(); }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(srv.port()) + "/readings"; }
};

std::string request(std::string_view unit, std::string_view at) {
  return std::string(R"(<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" )"
                     R"(xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" )"
                     R"(xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:eos"><s:Body>)"
                     R"(<t:reading s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">)"
                     R"(<unit xsi:type="xsd:string">)") +
         std::string(unit) + R"(</unit><at xsi:type="xsd:dateTime">)" + std::string(at) +
         "</at></t:reading></s:Body></s:Envelope>";
}

xsd::date_time noon() {
  xsd::date_time t;
  t.year = 2024;
  t.month = 8;
  t.day = 17;
  t.hour = 12;
  t.tz_minutes = 0;
  return t;
}

TEST(encoded_options, ServiceChecksFacetsWhereItsReadOptionsSay) {
  service_options strict;
  strict.read.validate_facets = true;
  echo_server checking{strict, false};
  echo_server plain{service_options{}, false};
  client to_checking{checking.url()}, to_plain{plain.url()};

  EXPECT_EQ(to_checking.call<eos::readingResponse>("reading", eos::reading{"kw", noon()}).unit,
            "kw");
  try {
    to_checking.call<eos::readingResponse>("reading", eos::reading{"KW", noon()});
    ADD_FAILURE() << "expected a fault: KW is outside [a-z]+";
  } catch (const soap::fault_error& e) {
    EXPECT_EQ(e.get().code, soap::fault_code::sender);
    EXPECT_NE(e.get().reason.find("pattern"), std::string::npos) << e.get().reason;
  }
  // Facet validation is off by default: the same value is taken.
  EXPECT_EQ(to_plain.call<eos::readingResponse>("reading", eos::reading{"KW", noon()}).unit, "KW");
}

TEST(encoded_options, ServiceReadsDeviceDatesWhereItsReadOptionsSay) {
  service_options lenient;
  lenient.read.lenient_dates = true;
  echo_server tolerant{lenient, false};
  echo_server strict{service_options{}, false};

  const std::string device = request("kw", "2024-08-17T00:61:16Z");  // minute 61
  const std::string answer = test::post_envelope(tolerant.url(), "", device);
  EXPECT_NE(answer.find(">2024-08-17T01:01:16Z</at>"), std::string::npos) << answer;
  const std::string refused = test::post_envelope(strict.url(), "", device);
  EXPECT_NE(refused.find("Fault>"), std::string::npos) << refused;
  EXPECT_EQ(refused.find("2024-08-17T01:01:16Z"), std::string::npos) << refused;
}

TEST(encoded_options, ClientChecksFacetsWhereItsReadOptionsSay) {
  echo_server shouting{service_options{}, true};
  client_options checking;
  checking.read.validate_facets = true;
  client strict{shouting.url(), checking};
  client tolerant{shouting.url()};

  EXPECT_EQ(tolerant.call<eos::readingResponse>("reading", eos::reading{"kw", noon()}).unit, "KW");
  try {
    strict.call<eos::readingResponse>("reading", eos::reading{"kw", noon()});
    ADD_FAILURE() << "expected the response refused: KW is outside [a-z]+";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string_view(e.what()).find("pattern"), std::string_view::npos) << e.what();
  }
}

}  // namespace
