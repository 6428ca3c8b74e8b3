// gSOAP's MTOM both ways (gsoap-mtom-peer, SOAP_ENC_MTOM, built from tests/mtom/mtom-echo.wsdl
// in tests/interop/gsoap): lather's client sends a part to gSOAP's server and reads the part it
// echoes; gSOAP's client does the same against lather's server.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "../support/process.hpp"
#include "lather/perf/mtom_echo.hpp"
#include "lather/mtom.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"

namespace {

using namespace lather;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

const fs::path kPeer = fs::path(LATHER_BIN_DIR) / "gsoap-mtom-peer";

std::vector<std::uint8_t> payload(std::size_t n) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = mtom_echo::payload_byte(i);
  return v;
}

TEST(mtom_gsoap, lather_client_to_gsoap_server) {
  if (!fs::exists(kPeer)) GTEST_SKIP() << "gsoap-mtom-peer not built (gSOAP missing)";
  const int port = test::free_port();
  test::process peer({kPeer.string(), "--port", std::to_string(port)});
  ASSERT_TRUE(test::wait_for_port(peer, port, test::clock::now() + 30s));
  client c{"http://127.0.0.1:" + std::to_string(port) + "/mtom"};
  mtom::enable(c);
  const auto bytes = payload(300'000);
  auto r = c.call<mtom_echo::echoDataResponse>(
      "echoData", mtom_echo::echoData{"lather", mtom::attachment::from_bytes(bytes)});
  EXPECT_EQ(r.name, "lather");
  EXPECT_FALSE(r.data.content_id().empty());  // gSOAP answered with a part
  EXPECT_EQ(r.data.bytes(), bytes);
}

TEST(mtom_gsoap, gsoap_client_to_lather_server) {
  if (!fs::exists(kPeer)) GTEST_SKIP() << "gsoap-mtom-peer not built (gSOAP missing)";
  service svc{"MtomEcho", std::string(mtom_echo::ns)};
  bool was_part = false;
  svc.operation("echoData", [&was_part](const mtom_echo::echoData& in) {
    was_part = !in.data.content_id().empty();
    return mtom_echo::echoDataResponse{in.name, in.data};
  });
  mtom::enable(svc);
  server srv{{.address = "127.0.0.1", .port = 0, .threads = 2}};
  srv.mount("/mtom", svc);
  srv.start();
  const auto r =
      test::run({kPeer.string(), "--url",
                 "http://127.0.0.1:" + std::to_string(srv.port()) + "/mtom", "--size", "300000"},
                test::clock::now() + 60s);
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_TRUE(r.out.starts_with("ok 300000 ")) << r.out;  // gSOAP checked the echoed part
  EXPECT_TRUE(was_part);
  srv.stop();
}

}  // namespace
