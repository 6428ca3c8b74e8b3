// lather::client calling RPC/encoded (request types with encoding::soap in meta<>): xsi:typed
// parts, SOAP-ENC arrays, nil, faults; against lather's own rpc/encoded server and against a
// real peer, PHP ext/soap's SoapServer (tests/interop/peers/php/router.php). The multi-ref
// graph with shared values and a cycle is covered by fetch_test (perf::fetch_client is
// lather::client).
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "../../tools/lather-interop-server/interop_types.hpp"
#include "../support/paths.hpp"
#include "../support/process.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "lather/service/service.hpp"

namespace {

using namespace lather;
using namespace interop_types;
namespace fs = std::filesystem;

call_options action(std::string_view operation) {
  call_options o;
  o.soap_action = "urn:interop#" + std::string(operation);
  return o;
}

EncodedStruct sample(int i) {
  EncodedStruct s;
  s.name = "item <" + std::to_string(i) + "> & \xC3\xA9";
  s.count = 40 + i;
  s.price = 2.5 * i;
  s.when.year = 2024;
  s.when.month = 2;
  s.when.day = 29;
  s.when.hour = 12;
  s.when.tz_minutes = 0;
  s.tags = {"a", "b" + std::to_string(i)};
  if (i % 2) s.note = "odd";
  return s;
}

void expect_same(const EncodedStruct& a, const EncodedStruct& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.count, b.count);
  EXPECT_EQ(a.price, b.price);
  EXPECT_EQ(a.when, b.when);
  EXPECT_EQ(a.tags, b.tags);
  EXPECT_EQ(a.note, b.note);
}

// The calls every rpc/encoded peer under test answers (interop-encoded.wsdl).
void exercise(client& c) {
  EXPECT_EQ(
      c.call<EncodedIntResponse>("addNumbers", EncodedAddNumbers{20, 22}, action("addNumbers"))
          .result,
      42);
  EXPECT_EQ(c.call<EncodedEchoStringResponse>("echoString", EncodedEchoString{"h\xC3\xA9 <&>"},
                                              action("echoString"))
                .result,
            "h\xC3\xA9 <&>");
  auto s = c.call<EncodedEchoStructResponse>("echoStruct", EncodedEchoStruct{sample(1)},
                                             action("echoStruct"));
  expect_same(s.result, sample(1));
  EncodedEchoArray array{{sample(1), sample(2), sample(3)}};
  EncodedEchoArrayResponse back;
  c.call("echoArray", array, back, action("echoArray"));
  ASSERT_EQ(back.result.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) expect_same(back.result[i], array.value[i]);
  c.call("echoArray", EncodedEchoArray{}, back, action("echoArray"));  // reused, now empty
  EXPECT_TRUE(back.result.empty());
  try {
    c.call<EncodedIntResponse>("addNumbers", EncodedAddNumbers{-1, 2}, action("addNumbers"));
    ADD_FAILURE() << "expected a fault";
  } catch (const soap::fault_error& e) {
    EXPECT_EQ(e.get().code, soap::fault_code::sender);
  }
}

TEST(encoded_client, CallsLathersOwnRpcEncodedServer) {
  service svc{"InteropEncoded", std::string(ns)};
  operation_options o;
  o.element_ns = std::string(ns);
  svc.operation(
      "addNumbers",
      [](const EncodedAddNumbers& in) {
        if (in.a < 0 || in.b < 0) {
          soap::fault f;
          f.code = soap::fault_code::sender;
          f.reason = "negative";
          throw soap::fault_error(std::move(f));
        }
        return EncodedIntResponse{in.a + in.b};
      },
      o);
  svc.operation(
      "echoString", [](const EncodedEchoString& in) { return EncodedEchoStringResponse{in.value}; },
      o);
  svc.operation(
      "echoStruct", [](const EncodedEchoStruct& in) { return EncodedEchoStructResponse{in.value}; },
      o);
  svc.operation(
      "echoArray", [](const EncodedEchoArray& in) { return EncodedEchoArrayResponse{in.value}; },
      o);
  server srv{server_options{}};
  srv.mount("/interop/encoded", svc);
  srv.start();
  client c{"http://127.0.0.1:" + std::to_string(srv.port()) + "/interop/encoded"};
  exercise(c);
  srv.stop();
}

TEST(encoded_client, CallsPhpSoapServerRpcEncoded) {
  const fs::path router = fs::path(lather::test::source_dir) / "tests/interop/peers/php/router.php";
  const int port = lather::test::free_port();
  ASSERT_GT(port, 0);
  const fs::path log = fs::temp_directory_path() / ("lather-php-encoded-" + std::to_string(port));
  lather::test::process php(
      {"/usr/bin/php", "-S", "127.0.0.1:" + std::to_string(port), router.string()}, log, false);
  ASSERT_TRUE(php.started());
  ASSERT_TRUE(lather::test::wait_for_port(php, port,
                                          lather::test::clock::now() + std::chrono::seconds(20)));
  client c{"http://127.0.0.1:" + std::to_string(port) + "/interop/encoded"};
  exercise(c);
  php.stop();
  fs::remove(log);
}

}  // namespace
