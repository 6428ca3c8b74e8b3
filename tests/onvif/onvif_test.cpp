// ONVIF-shaped: a device and its event service generated from the ONVIF WSDLs (only the
// operations used), as a camera serves them: UsernameToken digest on every operation but
// GetSystemDateAndTime; a client whose clock is 2 h ahead is refused, asks the device its time
// and recovers through wsse::clock_offset; events through WS-Addressing, PullMessages sent to
// the subscription's endpoint reference with its reference parameter echoed.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>

#include "../support/paths.hpp"
#include "../support/xml_query.hpp"
#include "onvif_device/Device.hpp"
#include "onvif_events/EventPortType.hpp"
#include "onvif_events/PullPointSubscription.hpp"
#include "lather/service/server.hpp"
#include "lather/wsa.hpp"
#include "lather/wsse.hpp"

// docs/wsdl2cpp.md's client (quickstart.cpp).
onvif_device::DateTime camera_clock(const std::string& url, const std::string& user,
                                    const std::string& password);

namespace {

using namespace lather;
using namespace std::chrono_literals;
using std::chrono::system_clock;

// The reference parameter this "device" puts into its subscriptions' EPRs (a vendor element,
// as Axis' dom0:SubscriptionId).
constexpr std::string_view sub_ns = "urn:lather:onvif-test";
constexpr std::string_view events_ns = "http://www.onvif.org/ver10/events/wsdl";

std::string subscription_parameter(std::string_view id) {
  return "<s:SubscriptionId xmlns:s=\"" + std::string(sub_ns) + "\">" + std::string(id) +
         "</s:SubscriptionId>";
}

xsd::date_time to_date_time(system_clock::time_point t) {
  const auto day = std::chrono::floor<std::chrono::days>(t);
  const std::chrono::year_month_day ymd{day};
  const std::chrono::hh_mm_ss hms{std::chrono::floor<std::chrono::seconds>(t - day)};
  xsd::date_time d;
  d.year = static_cast<int>(ymd.year());
  d.month = static_cast<std::uint8_t>(static_cast<unsigned>(ymd.month()));
  d.day = static_cast<std::uint8_t>(static_cast<unsigned>(ymd.day()));
  d.hour = static_cast<std::uint8_t>(hms.hours().count());
  d.minute = static_cast<std::uint8_t>(hms.minutes().count());
  d.second = static_cast<std::uint8_t>(hms.seconds().count());
  d.tz_minutes = 0;
  return d;
}

struct device final : onvif_device::DeviceService {
  std::string events_url;
  void GetDeviceInformation(const onvif_device::GetDeviceInformation&,
                            onvif_device::GetDeviceInformationResponse& r) override {
    r.Manufacturer = "lather";
    r.Model = "ONVIF-shaped";
    r.FirmwareVersion = "1.0";
    r.SerialNumber = "0001";
    r.HardwareId = "test";
  }
  void GetSystemDateAndTime(const onvif_device::GetSystemDateAndTime&,
                            onvif_device::GetSystemDateAndTimeResponse& r) override {
    const xsd::date_time now = to_date_time(system_clock::now());
    r.SystemDateAndTime.DateTimeType = onvif_device::SetDateTimeType::NTP;
    r.SystemDateAndTime.UTCDateTime =
        onvif_device::DateTime{{now.hour, now.minute, now.second}, {now.year, now.month, now.day}};
  }
  void GetCapabilities(const onvif_device::GetCapabilities&,
                       onvif_device::GetCapabilitiesResponse& r) override {
    r.Capabilities.Events = onvif_device::EventCapabilities{};
    r.Capabilities.Events->XAddr.value = events_url;
    r.Capabilities.Events->WSPullPointSupport = true;
  }
};

struct events final : onvif_events::EventPortTypeService {
  std::string subscription_url;
  void CreatePullPointSubscription(const onvif_events::CreatePullPointSubscription&,
                                   onvif_events::CreatePullPointSubscriptionResponse& r) override {
    r.SubscriptionReference.Address.value.value = subscription_url;
    r.SubscriptionReference.ReferenceParameters.emplace();
    r.SubscriptionReference.ReferenceParameters->any.push_back({subscription_parameter("7")});
    r.CurrentTime = to_date_time(system_clock::now());
  }
};

struct pull_point final : onvif_events::PullPointSubscriptionService {
  void PullMessages(const onvif_events::PullMessages& in,
                    onvif_events::PullMessagesResponse& r) override {
    r.CurrentTime = to_date_time(system_clock::now());
    r.TerminationTime = to_date_time(system_clock::now() + 60s);
    if (in.MessageLimit <= 0) return;
    auto& m = r.NotificationMessage.emplace_back();
    m.Message.any.xml =
        R"(<tt:Message xmlns:tt="http://www.onvif.org/ver10/schema" PropertyOperation="Changed">)"
        R"(<tt:Data><tt:SimpleItem Name="State" Value="true"/></tt:Data></tt:Message>)";
  }
};

std::optional<std::string> password_of(std::string_view user) {
  if (user == "admin") return "secret";
  return std::nullopt;
}

class onvif : public ::testing::Test {
 protected:
  void SetUp() override {
    device_.mount_on(device_svc_);
    device_security_.operation("GetSystemDateAndTime", {});  // open: clients learn the time
    device_security_.install(device_svc_);
    device_addressing_.install(device_svc_);

    events_.mount_on(events_svc_);
    events_security_.install(events_svc_);
    events_addressing_.install(events_svc_);

    pull_point_.mount_on(subscription_svc_);
    subscription_security_.install(subscription_svc_);
    subscription_addressing_.reference_parameter(std::string(sub_ns), "SubscriptionId");
    subscription_addressing_.install(subscription_svc_);
    // The subscription the EPR names, checked before PullMessages runs.
    subscription_svc_.intercept(
        {.before =
             [this](call_context& ctx) {
               const auto& params = wsa::server_addressing::request(ctx).reference_parameters;
               if (!params.empty()) {
                 std::lock_guard lock(mutex_);
                 last_parameter_ = params.front();
               }
               auto id = wsa::server_addressing::reference_parameter(ctx, sub_ns, "SubscriptionId");
               if (id != "7")
                 wsa::server_addressing::fail(ctx, wsa::fault_kind::destination_unreachable);
             },
         .after = {},
         .whole_request = {},
         .fault_headers = {}});
    srv_.mount("/onvif/device_service", device_svc_);
    srv_.mount("/onvif/events", events_svc_);
    srv_.mount("/onvif/subscription", subscription_svc_);
    srv_.start();
    device_.events_url = url("/onvif/events");  // the port is known now
    events_.subscription_url = url("/onvif/subscription");
  }
  void TearDown() override { srv_.stop(); }

  std::string url(std::string_view path) const {
    return "http://127.0.0.1:" + std::to_string(srv_.port()) + std::string(path);
  }
  static client_options soap12() {
    client_options o;
    o.version = soap::version::soap12;  // ONVIF's binding
    return o;
  }
  static wsse::client_policy digest(std::string password = "secret") {
    wsse::client_policy p;
    p.token = wsse::username_token{"admin", std::move(password)};
    return p;
  }
  template <class F>
  static soap::fault fault_of(F&& call) {
    try {
      call();
    } catch (const soap::fault_error& e) {
      return e.get();
    }
    ADD_FAILURE() << "the call succeeded";
    return {};
  }

  server srv_{{.address = "127.0.0.1", .port = 0, .threads = 2}};
  device device_;
  events events_;
  pull_point pull_point_;
  service device_svc_{"Device", "http://www.onvif.org/ver10/device/wsdl"};
  service events_svc_{"Events", std::string(events_ns)};
  service subscription_svc_{"PullPoint", std::string(events_ns)};
  wsse::server_security device_security_{password_of, {.username_token = true}};
  wsse::server_security events_security_{password_of, {.username_token = true}};
  wsse::server_security subscription_security_{password_of, {.username_token = true}};
  wsa::server_addressing device_addressing_;
  wsa::server_addressing events_addressing_;
  wsa::server_addressing subscription_addressing_{{.required = true}};
  std::mutex mutex_;
  std::string last_parameter_;
};

TEST_F(onvif, SkewedClientIsRefusedThenRecoversThroughGetSystemDateAndTime) {
  client dev{url("/onvif/device_service"), soap12()};
  wsse::client_security sec{digest()};
  sec.operation("GetSystemDateAndTime", {});  // sent without a Security header
  sec.install(dev);
  wsa::client_addressing{}.install(dev);  // devicemgmt declares no Action: nothing is sent
  const auto skew = std::chrono::milliseconds(2h);
  sec.set_clock_offset(skew);  // this client's clock runs 2 h ahead of the device's
  onvif_device::DeviceClient device{dev};

  const soap::fault refused = fault_of([&] { device.GetDeviceInformation({}); });
  EXPECT_TRUE(wsse::is_fault(refused, wsse::fault_code::message_expired)) << refused.reason;

  // Ask the device its time (open), measured with this client's own (skewed) clock.
  const auto sent = system_clock::now() + skew;
  const auto reported = device.GetSystemDateAndTime({});
  const auto received = system_clock::now() + skew;
  ASSERT_TRUE(reported.SystemDateAndTime.UTCDateTime);
  const onvif_device::DateTime& u = *reported.SystemDateAndTime.UTCDateTime;
  const auto peer =
      wsse::utc_time(u.Date.Year, static_cast<unsigned>(u.Date.Month),
                     static_cast<unsigned>(u.Date.Day), static_cast<unsigned>(u.Time.Hour),
                     static_cast<unsigned>(u.Time.Minute), static_cast<unsigned>(u.Time.Second));
  sec.set_clock_offset(skew + wsse::clock_offset(peer, sent, received));
  EXPECT_LT(std::chrono::abs(sec.clock_offset()), 2s);  // the device reports whole seconds

  wsa::call call;
  const auto info = device.GetDeviceInformation({}, call.options());
  EXPECT_EQ(info.Manufacturer, "lather");
  EXPECT_EQ(info.Model, "ONVIF-shaped");
  EXPECT_FALSE(call.response().ver.has_value());  // no WS-Addressing either way
  onvif_device::GetCapabilities all;
  all.Category = {onvif_device::CapabilityCategory::All};
  const auto caps = device.GetCapabilities(all);
  ASSERT_TRUE(caps.Capabilities.Events);
  EXPECT_EQ(caps.Capabilities.Events->XAddr.value, url("/onvif/events"));

  client wrong{url("/onvif/device_service"), soap12()};
  wsse::client_security{digest("guess")}.install(wrong);
  const soap::fault denied =
      fault_of([&] { onvif_device::DeviceClient{wrong}.GetDeviceInformation({}); });
  EXPECT_TRUE(wsse::is_fault(denied, wsse::fault_code::failed_authentication)) << denied.reason;
}

TEST_F(onvif, PullMessagesEchoesTheSubscriptionReferenceParameter) {
  client ev{url("/onvif/events"), soap12()};
  wsse::client_security{digest()}.install(ev);
  wsa::client_addressing{}.install(ev);  // Actions from the contract (wsaw:Action)
  wsa::call create;
  const auto created =
      onvif_events::EventPortTypeClient{ev}.CreatePullPointSubscription({}, create.options());
  EXPECT_TRUE(create.correlated());
  EXPECT_EQ(create.response().action,
            "http://www.onvif.org/ver10/events/wsdl/EventPortType/"
            "CreatePullPointSubscriptionResponse");

  // The generated EndpointReferenceType as a wsa::endpoint_reference.
  wsa::endpoint_reference subscription{created.SubscriptionReference.Address.value.value, {}};
  ASSERT_TRUE(created.SubscriptionReference.ReferenceParameters);
  for (const auto& p : created.SubscriptionReference.ReferenceParameters->any)
    subscription.reference_parameters.push_back(p.xml);
  EXPECT_EQ(subscription.address, url("/onvif/subscription"));
  ASSERT_EQ(subscription.reference_parameters.size(), 1u);

  onvif_events::PullMessages pull;
  pull.Timeout.seconds = 5;
  pull.MessageLimit = 10;
  {
    client sub{subscription.address, soap12()};
    wsse::client_security{digest()}.install(sub);
    wsa::client_addressing{{.to = subscription}}.install(sub);
    wsa::call c;
    const auto messages =
        onvif_events::PullPointSubscriptionClient{sub}.PullMessages(pull, c.options());
    ASSERT_EQ(messages.NotificationMessage.size(), 1u);
    EXPECT_EQ(test::find_element(messages.NotificationMessage[0].Message.any.xml,
                                 "/Message/Data/SimpleItem")
                  ->attribute("Value"),
              "true");
    EXPECT_TRUE(c.correlated());
    EXPECT_EQ(c.response().action,
              "http://www.onvif.org/ver10/events/wsdl/PullPointSubscription/PullMessagesResponse");
    std::lock_guard lock(mutex_);
    const auto echoed = test::find_element(last_parameter_, "/SubscriptionId");
    ASSERT_TRUE(echoed) << last_parameter_;
    EXPECT_EQ(echoed->ns, sub_ns);
    EXPECT_EQ(echoed->text, "7");
    EXPECT_EQ(echoed->attribute("IsReferenceParameter"), "true");
  }
  // Without the reference parameter, and with one the device never handed out.
  for (const std::vector<std::string>& params :
       {std::vector<std::string>{}, std::vector<std::string>{subscription_parameter("99")}}) {
    client sub{subscription.address, soap12()};
    wsse::client_security{digest()}.install(sub);
    wsa::client_addressing{{.to = wsa::endpoint_reference{subscription.address, params}}}.install(
        sub);
    const soap::fault f =
        fault_of([&] { onvif_events::PullPointSubscriptionClient{sub}.PullMessages(pull); });
    EXPECT_TRUE(wsa::is_fault(f, wsa::fault_kind::destination_unreachable)) << f.reason;
  }
}

std::string file_text(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The doc's client against a device that requires the UsernameToken on every operation: the
// right password reads the device's clock, a wrong one is refused.
TEST(onvif_quickstart, DocClientReadsTheClockWithADigest) {
  device impl;
  service svc{"Device", "http://www.onvif.org/ver10/device/wsdl"};
  impl.mount_on(svc);
  wsse::server_security security{password_of, {.username_token = true}};
  security.install(svc);
  server srv{{.address = "127.0.0.1", .port = 0, .threads = 1}};
  srv.mount("/onvif/device_service", svc);
  srv.start();
  const std::string url =
      "http://127.0.0.1:" + std::to_string(srv.port()) + "/onvif/device_service";

  const auto before = std::chrono::floor<std::chrono::seconds>(system_clock::now());
  const onvif_device::DateTime t = camera_clock(url, "admin", "secret");
  const auto after = system_clock::now();
  const auto reported =
      wsse::utc_time(t.Date.Year, static_cast<unsigned>(t.Date.Month),
                     static_cast<unsigned>(t.Date.Day), static_cast<unsigned>(t.Time.Hour),
                     static_cast<unsigned>(t.Time.Minute), static_cast<unsigned>(t.Time.Second));
  EXPECT_GE(reported, before);
  EXPECT_LE(reported, after);

  soap::fault denied;
  try {
    camera_clock(url, "admin", "guess");
    ADD_FAILURE() << "a wrong password was accepted";
  } catch (const soap::fault_error& e) {
    denied = e.get();
  }
  EXPECT_TRUE(wsse::is_fault(denied, wsse::fault_code::failed_authentication)) << denied.reason;
  srv.stop();
}

// lather_generate(... OPERATIONS ...) generated the three operations asked for and what they
// reach, not the other 100 of devicemgmt.wsdl (CATALOG: without it nothing would generate).
TEST(onvif_generate, OperationsSelectTheGeneratedCode) {
  const std::string names = file_text(LATHER_ONVIF_DEVICE_NAMES);
  const std::string device = "{http://www.onvif.org/ver10/device/wsdl}";
  for (const char* op : {"GetSystemDateAndTime", "GetDeviceInformation", "GetCapabilities"})
    EXPECT_NE(names.find(device + op + " ->"), std::string::npos) << op;
  for (const char* op : {"GetHostname", "SetSystemDateAndTime", "GetUsers"})
    EXPECT_EQ(names.find(device + op + " ->"), std::string::npos) << op;
}

// docs/wsdl2cpp.md shows quickstart.cpp (after its leading comment) as it is built here.
TEST(onvif_quickstart, DocShowsTheTestedClient) {
  std::string code =
      file_text((std::string(lather::test::source_dir) + "/tests/onvif/quickstart.cpp").c_str());
  ASSERT_NE(code.find("#include"), std::string::npos);
  code.erase(0, code.find("#include"));
  EXPECT_NE(file_text((std::string(lather::test::source_dir) + "/docs/wsdl2cpp.md").c_str())
                .find("```cpp\n" + code + "```\n"),
            std::string::npos)
      << "docs/wsdl2cpp.md must show, in a cpp block:\n"
      << code;
}

}  // namespace
