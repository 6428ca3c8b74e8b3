// lather-interop-client — lather's client for the interop contract, for the interop matrix
// (tests/interop): lather-interop-client --url U [--encoded] [--soap12]
// Sends the VECTORS.md calls (vectors.hpp) and prints PASS|FAIL <check> <detail> lines.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "command_line.hpp"
#include "interop_types.hpp"
#include "lather/service/client.hpp"
#include "lather/soap/encoded.hpp"
#include "lather/soap/envelope.hpp"
#include "lather/soap/style.hpp"
#include "vectors.hpp"

namespace {

using namespace interop_types;
using interop::CallStatus;
using interop::Item;
namespace chrono = std::chrono;

// ---- Item <-> xsd:dateTime (UTC, microseconds) ----

lather::xsd::date_time to_date_time(std::int64_t when_us) {
  const chrono::sys_time<chrono::microseconds> instant{chrono::microseconds{when_us}};
  const auto day = chrono::floor<chrono::days>(instant);
  const chrono::year_month_day date{day};
  const chrono::hh_mm_ss time{instant - day};
  lather::xsd::date_time out;
  out.year = static_cast<int>(date.year());
  out.month = static_cast<std::uint8_t>(static_cast<unsigned>(date.month()));
  out.day = static_cast<std::uint8_t>(static_cast<unsigned>(date.day()));
  out.hour = static_cast<std::uint8_t>(time.hours().count());
  out.minute = static_cast<std::uint8_t>(time.minutes().count());
  out.second = static_cast<std::uint8_t>(time.seconds().count());
  std::string digits = std::to_string(1000000 + time.subseconds().count()).substr(1);
  while (!digits.empty() && digits.back() == '0') digits.pop_back();
  out.fraction = digits;
  out.tz_minutes = 0;
  return out;
}

std::int64_t from_date_time(const lather::xsd::date_time& in) {
  const chrono::year_month_day date{chrono::year{in.year}, chrono::month{in.month},
                                    chrono::day{in.day}};
  auto instant = chrono::sys_days{date} + chrono::hours{in.hour} + chrono::minutes{in.minute} +
                 chrono::seconds{in.second};
  std::int64_t micros = 0;
  for (std::size_t i = 0; i < 6; ++i)
    micros = micros * 10 + (i < in.fraction.size() ? in.fraction[i] - '0' : 0);
  // A value without an offset is read as UTC (VECTORS.md).
  const auto offset = chrono::minutes{in.tz_minutes.value_or(0)};
  return chrono::duration_cast<chrono::microseconds>((instant - offset).time_since_epoch())
             .count() +
         micros;
}

Struct to_literal(const Item& item) {
  Struct out;
  out.name = item.name;
  out.count = item.count;
  out.price = item.price;
  out.when = to_date_time(item.when_us);
  out.tags = item.tags;
  if (item.note) out.note = *item.note;
  return out;
}

EncodedStruct to_encoded(const Item& item) {
  EncodedStruct out;
  out.name = item.name;
  out.count = item.count;
  out.price = item.price;
  out.when = to_date_time(item.when_us);
  out.tags = item.tags;
  out.note = item.note;
  return out;
}

Item to_item(const Struct& in) {
  Item item{in.name, in.count, in.price, from_date_time(in.when), in.tags, {}};
  if (!in.note.is_nil()) item.note = *in.note;
  return item;
}

Item to_item(const EncodedStruct& in) {
  return {in.name, in.count, in.price, from_date_time(in.when), in.tags, in.note};
}

// ---- the calls ----

class LatherCalls final : public interop::InteropCalls {
 public:
  LatherCalls(const std::string& url, bool encoded, bool soap12)
      : client_(url, options(soap12)), encoded_(encoded) {}

  CallStatus echo_string(const std::string& value, std::string& result) override {
    if (encoded_)
      return call<EncodedEchoStringResponse>("echoString", EncodedEchoString{value},
                                             [&](auto& r) { result = r.result; });
    return call<EchoStringResponse>("echoString", EchoString{value},
                                    [&](auto& r) { result = r.result; });
  }
  CallStatus echo_int(int value, int& result) override {
    if (encoded_)
      return call<EncodedIntResponse>("echoInt", EncodedEchoInt{value},
                                      [&](auto& r) { result = r.result; });
    return call<EchoIntResponse>("echoInt", EchoInt{value}, [&](auto& r) { result = r.result; });
  }
  CallStatus echo_struct(const Item& value, Item& result) override {
    if (encoded_)
      return call<EncodedEchoStructResponse>("echoStruct", EncodedEchoStruct{to_encoded(value)},
                                             [&](auto& r) { result = to_item(r.result); });
    return call<EchoStructResponse>("echoStruct", EchoStruct{to_literal(value)},
                                    [&](auto& r) { result = to_item(r.result); });
  }
  CallStatus echo_array(const std::vector<Item>& value, std::vector<Item>& result) override {
    result.clear();
    if (encoded_) {
      EncodedEchoArray request;
      for (const Item& item : value) request.value.push_back(to_encoded(item));
      return call<EncodedEchoArrayResponse>("echoArray", request, [&](auto& r) {
        for (const auto& item : r.result) result.push_back(to_item(item));
      });
    }
    EchoArray request;
    for (const Item& item : value) request.value.push_back(to_literal(item));
    return call<EchoArrayResponse>("echoArray", request, [&](auto& r) {
      for (const auto& item : r.result) result.push_back(to_item(item));
    });
  }
  CallStatus add_numbers(int a, int b, int& result) override {
    if (encoded_)
      return call<EncodedIntResponse>("addNumbers", EncodedAddNumbers{a, b},
                                      [&](auto& r) { result = r.result; });
    return call<AddNumbersResponse>("addNumbers", AddNumbers{a, b},
                                    [&](auto& r) { result = r.result; });
  }
  CallStatus echo_binary(const std::vector<unsigned char>& value,
                         std::vector<unsigned char>& result) override {
    lather::xsd::base64_binary bytes{{value.begin(), value.end()}};
    auto copy = [&](auto& r) { result.assign(r.result.bytes.begin(), r.result.bytes.end()); };
    if (encoded_)
      return call<EncodedEchoBinaryResponse>("echoBinary", EncodedEchoBinary{bytes}, copy);
    return call<EchoBinaryResponse>("echoBinary", EchoBinary{bytes}, copy);
  }

 private:
  static lather::client_options options(bool soap12) {
    lather::client_options o;
    o.version = soap12 ? lather::soap::version::soap12 : lather::soap::version::soap11;
    o.call_timeout = std::chrono::seconds{60};
    return o;
  }

  // Through lather::client: document/literal wrapped, or RPC/encoded for the Encoded* types
  // (their meta<> says encoding::soap).
  template <class Resp, class Req, class Copy>
  CallStatus call(std::string_view operation, const Req& request, Copy copy) {
    lather::call_options o;
    o.soap_action = "urn:interop#" + std::string(operation);
    return guarded([&] {
      Resp response = client_.call<Resp>(operation, request, o);
      copy(response);
    });
  }

  template <class Call>
  static CallStatus guarded(Call&& run) {
    try {
      run();
      return {};
    } catch (const lather::soap::fault_error& e) {
      const lather::soap::fault& f = e.get();
      CallStatus status;
      status.kind = CallStatus::Kind::fault;
      status.code_namespace = f.received_code.ns;
      status.code_local = f.received_code.local;
      status.reason = f.reason;
      return status;
    } catch (const std::exception& e) {
      return CallStatus::failed(e.what());
    }
  }

  lather::client client_;
  bool encoded_;
};

}  // namespace

int main(int argc, char** argv) {
  std::string url;
  bool encoded = false, soap12 = false;
  lather::tools::command_line cli{
      "lather-interop-client",
      "Sends the interop contract's VECTORS.md calls to URL and prints a PASS|FAIL <check>\n"
      "<detail> line per check; exit status 1 when one failed."};
  cli.add_option("--url", url, "endpoint, e.g. http://127.0.0.1:8080/interop")
      ->type_name("URL")
      ->required();
  cli.add_flag("--encoded", encoded,
               "RPC/encoded (SOAP 1.1 section 5) instead of document/literal");
  cli.add_flag("--soap12", soap12, "SOAP 1.2 instead of 1.1");
  cli.parse_or_exit(argc, argv);
  LatherCalls calls(url, encoded, soap12);
  return interop::run_vector_checks(calls, soap12, std::cout) == 0 ? 0 : 1;
}
