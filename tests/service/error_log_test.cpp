// Failures on the service's side, as the client and the operator see them: a handler's
// exception reaches server_options::error_log with its message while the client gets the
// generic Server fault; a response value that cannot be written is a Server/Receiver fault
// (never Client/Sender) and is logged too; faults thrown on purpose and the client's own
// errors are not logged.
#include <gtest/gtest.h>

#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "add_types.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "lather/service/service.hpp"

namespace {

enum class Shade { light, dark };
struct paint_request {
  std::int32_t shade = 0;
};
struct paint_response {
  Shade shade = Shade::light;
};
// A response whose unwritable value sits deeper: in an item of a repeated element.
struct swatch {
  std::string name;
  Shade shade = Shade::light;
};
struct mix_request {
  std::int32_t bad_item = 0;  // 1-based; its shade cannot be written
  bool bell_in_name = false;  // the first swatch's name holds U+0007, which XML cannot carry
};
struct mix_response {
  std::vector<swatch> swatches;
};

}  // namespace

template <>
struct lather::meta<Shade> {
  static constexpr std::string_view name = "Shade";
  static constexpr std::string_view ns = lather_test::test_ns;
  static constexpr auto values =
      enum_values<Shade>({{Shade::light, "light"}, {Shade::dark, "dark"}});
};
template <>
struct lather::meta<paint_request> {
  static constexpr std::string_view name = "paint";
  static constexpr std::string_view ns = lather_test::test_ns;
  static constexpr auto fields = std::tuple{element("shade", &paint_request::shade)};
};
template <>
struct lather::meta<paint_response> {
  static constexpr std::string_view name = "paintResponse";
  static constexpr std::string_view ns = lather_test::test_ns;
  static constexpr auto fields = std::tuple{element("shade", &paint_response::shade)};
};

template <>
struct lather::meta<swatch> {
  static constexpr std::string_view name = "swatch";
  static constexpr std::string_view ns = lather_test::test_ns;
  static constexpr auto fields =
      std::tuple{element("name", &swatch::name), element("shade", &swatch::shade)};
};
template <>
struct lather::meta<mix_request> {
  static constexpr std::string_view name = "mix";
  static constexpr std::string_view ns = lather_test::test_ns;
  static constexpr auto fields = std::tuple{element("badItem", &mix_request::bad_item),
                                            element("bellInName", &mix_request::bell_in_name)};
};
template <>
struct lather::meta<mix_response> {
  static constexpr std::string_view name = "mixResponse";
  static constexpr std::string_view ns = lather_test::test_ns;
  static constexpr auto fields = std::tuple{element("swatch", &mix_response::swatches)};
};

namespace {

using namespace lather;
using lather_test::add_request;
using lather_test::add_response;

struct logged_error {
  std::string path, operation, message;
};

class error_log_fixture : public ::testing::Test {
 protected:
  void SetUp() override {
    svc_.operation("add", [](const add_request& in) {
      if (in.a < 0) throw std::runtime_error("database down at /var/lib/calc");
      if (in.b < 0)
        throw soap::fault_error{
            soap::fault{.code = soap::fault_code::sender, .reason = "b must not be negative"}};
      return add_response{in.a + in.b};
    });
    // Shade 7 is no Shade: the response cannot be written.
    svc_.operation("paint", [](const paint_request& in) {
      return paint_response{static_cast<Shade>(in.shade)};
    });
    svc_.operation("mix", [](const mix_request& in) {
      mix_response out;
      out.swatches = {{in.bell_in_name ? "bell \x07" : "a", Shade::light},
                      {"b", Shade::dark},
                      {"c", Shade::light}};
      if (in.bad_item >= 1 && in.bad_item <= 3)
        out.swatches[static_cast<std::size_t>(in.bad_item - 1)].shade = static_cast<Shade>(7);
      return out;
    });
    srv_.mount("/calc", svc_);
    srv_.start();
  }
  void TearDown() override { srv_.stop(); }

  std::string url() const { return "http://127.0.0.1:" + std::to_string(srv_.port()) + "/calc"; }
  std::vector<logged_error> logged() {
    std::lock_guard lock(mutex_);
    return log_;
  }
  // The fault a call ends with (the test fails if it ends without one).
  template <class Resp, class Req>
  soap::fault_error fault_of(soap::version v, std::string_view operation, const Req& req) {
    client_options o;
    o.version = v;
    client c{url(), o};
    try {
      c.call<Resp>(operation, req);
    } catch (const soap::fault_error& e) {
      return e;
    }
    ADD_FAILURE() << operation << " answered without a fault";
    return soap::fault_error{soap::fault{}};
  }

  std::mutex mutex_;
  std::vector<logged_error> log_;
  service svc_{"Calc", std::string(lather_test::test_ns)};
  server srv_{
      {.address = "127.0.0.1", .port = 0, .threads = 2}, {.error_log = [this](const call_error& e) {
        std::lock_guard lock(mutex_);
        log_.push_back({std::string(e.path), std::string(e.operation), std::string(e.message)});
      }}};
};

TEST_F(error_log_fixture, HandlerExceptionIsLoggedWithItsMessageButNotSentToTheClient) {
  const auto e = fault_of<add_response>(soap::version::soap11, "add", add_request{-1, 2});
  EXPECT_EQ(e.get().code, soap::fault_code::receiver);
  EXPECT_EQ(e.get().reason, "Internal server error");  // hide_internal_errors (the default)
  const auto log = logged();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].path, "/calc");
  EXPECT_EQ(log[0].operation, "add");
  EXPECT_EQ(log[0].message, "database down at /var/lib/calc");
}

TEST_F(error_log_fixture, FaultsThrownOnPurposeAndClientErrorsAreNotLogged) {
  EXPECT_EQ(fault_of<add_response>(soap::version::soap11, "add", add_request{1, -2}).get().code,
            soap::fault_code::sender);
  // An operation the service does not have: the client's error.
  EXPECT_EQ(fault_of<add_response>(soap::version::soap12, "subtract", add_request{1, 2}).get().code,
            soap::fault_code::sender);
  EXPECT_TRUE(logged().empty());
}

TEST_F(error_log_fixture, UnwritableResponseIsAServerFaultNamingTheField) {
  for (auto v : {soap::version::soap11, soap::version::soap12}) {
    SCOPED_TRACE(v == soap::version::soap11 ? "SOAP 1.1" : "SOAP 1.2");
    const auto e = fault_of<paint_response>(v, "paint", paint_request{7});
    EXPECT_EQ(e.get().code, soap::fault_code::receiver);
    EXPECT_EQ(e.get().received_code.local, v == soap::version::soap11 ? "Server" : "Receiver");
    EXPECT_EQ(e.get().reason,
              "the response could not be written: /paintResponse/shade: value 7 is not in "
              "meta<Shade>::values");
  }
  const auto log = logged();
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].operation, "paint");
  EXPECT_EQ(log[0].message,
            "the response could not be written: /paintResponse/shade: value 7 is not in "
            "meta<Shade>::values");
  // The same service still answers.
  client c{url()};
  EXPECT_EQ(c.call<paint_response>("paint", paint_request{1}).shade, Shade::dark);
}

TEST_F(error_log_fixture, UnwritableValueInARepeatedElementNamesTheItem) {
  auto e = fault_of<mix_response>(soap::version::soap11, "mix", mix_request{2, false});
  EXPECT_EQ(e.get().code, soap::fault_code::receiver);
  EXPECT_EQ(e.get().reason,
            "the response could not be written: /mixResponse/swatch[2]/shade: value 7 is not in "
            "meta<Shade>::values");
  // A character XML cannot carry: the writer's error, also a Server fault naming the field.
  e = fault_of<mix_response>(soap::version::soap12, "mix", mix_request{0, true});
  EXPECT_EQ(e.get().code, soap::fault_code::receiver);
  EXPECT_TRUE(e.get().reason.starts_with(
      "the response could not be written: /mixResponse/swatch[1]/name: "))
      << e.get().reason;
  EXPECT_EQ(logged().size(), 2u);
}

TEST(error_log, DefaultIsOneLineOnStderr) {
  EXPECT_TRUE(static_cast<bool>(server_options{}.error_log));
  testing::internal::CaptureStderr();
  stderr_error_log({"/calc", "add", "database down"});
  stderr_error_log({"/calc", "", "before dispatch"});
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "lather: POST /calc add: database down\nlather: POST /calc -: before dispatch\n");
}

}  // namespace
