// The options of both servers given with designated initializers, as the headers' comments
// show them (lather/http/server.hpp, lather/service/server.hpp), in servers that start and
// answer: what compiles is the point, and each setting must also take effect.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>

#include "../support/xml_query.hpp"
#include "add_types.hpp"
#include "lather/http/client.hpp"
#include "lather/http/server.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "lather/service/service.hpp"

namespace {

using lather_test::add_request;
using lather_test::add_response;

std::string base_url(std::uint16_t port) {
  return "http://127.0.0.1:" + std::to_string(port);
}

TEST(server_options, HttpServerTakesDesignatedInitializers) {
  lather::http::server srv{{.address = "127.0.0.1", .port = 0, .threads = 1, .realm = "here"}};
  srv.route(
      "/", [](lather::http::request&, lather::http::response& res) { res.body().append("hello"); });
  srv.start();
  lather::http::client c{base_url(srv.port())};
  const auto reply = c.get("/");
  EXPECT_EQ(reply.status, 200u);
  EXPECT_EQ(reply.body, "hello");
  srv.stop();
}

TEST(server_options, SoapServerTakesItsHttpOptionsAlone) {
  lather::server srv{{.address = "127.0.0.1", .port = 0, .threads = 1}};
  srv.start();
  lather::http::client c{base_url(srv.port())};
  EXPECT_EQ(c.get("/healthz").body, "ok\n");
  srv.stop();
}

TEST(server_options, SoapServerTakesBothPartsDesignated) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> log{std::tmpfile(), &std::fclose};
  ASSERT_TRUE(log);
  lather::service svc{"Adder", std::string(lather_test::test_ns)};
  svc.operation("add", [](const add_request& in) { return add_response{in.a + in.b}; });
  lather::server srv{{.address = "127.0.0.1", .port = 0, .threads = 1},
                     {.access_log = log.get(), .public_base_url = "http://soap.example:1234"}};
  srv.mount("/add", svc);
  srv.start();
  lather::client c{base_url(srv.port()) + "/add"};
  EXPECT_EQ(c.call<add_response>("add", add_request{2, 3}).result, 5);
  lather::http::client h{base_url(srv.port())};
  const std::string wsdl = h.get("/add?wsdl").body;
  EXPECT_TRUE(lather::test::has_element(wsdl, "/definitions/service/port/address",
                                        {{"location", "http://soap.example:1234/add"}}))
      << wsdl;
  srv.stop();
  std::rewind(log.get());
  char line[256] = {};
  ASSERT_NE(std::fgets(line, sizeof line, log.get()), nullptr);
  EXPECT_EQ(std::string(line).rfind("POST /add add 200 ", 0), 0u) << line;
}

TEST(server_options, ServerOptionsAggregateBothPartsAndReadAsOne) {
  lather::server_options o{{.port = 8080, .threads = 3}, {.hide_internal_errors = false}};
  EXPECT_EQ(o.port, 8080);
  EXPECT_EQ(o.threads, 3u);
  EXPECT_EQ(o.address, "127.0.0.1");  // the defaults of what was not named
  EXPECT_EQ(o.access_log, nullptr);
  EXPECT_FALSE(o.hide_internal_errors);
  o.port = 0;
  o.address = "127.0.0.1";
  lather::server srv{o};
  srv.start();
  EXPECT_NE(srv.port(), 0);
  srv.stop();
}

}  // namespace
