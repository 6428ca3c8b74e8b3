// gSOAP's MTOM both ways (gsoap-mtom-peer, SOAP_ENC_MTOM, built from tests/mtom/mtom-echo.wsdl
// in tests/interop/gsoap), in SOAP 1.1 and 1.2: lather's client sends a part to gSOAP's server
// and reads the part it echoes; gSOAP's client does the same against lather's server.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "../support/paths.hpp"
#include "../support/process.hpp"
#include "../support/xml_query.hpp"
#include "lather/mtom.hpp"
#include "lather/perf/mtom_echo.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"

namespace {

using namespace lather;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

const fs::path kPeer = fs::path(lather::test::bin_dir) / "gsoap-mtom-peer";

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
  for (auto v : {soap::version::soap11, soap::version::soap12}) {
    client_options o;
    o.version = v;
    client c{"http://127.0.0.1:" + std::to_string(port) + "/mtom", o};
    mtom::enable(c);
    std::string envelope_ns;  // of gSOAP's answer: the version it answered in
    c.intercept(
        {.write_headers = {},
         .after = {},
         .whole_request = {},
         .write_call_headers = {},
         .read_header = {},
         .whole_response = [&](std::string_view, std::string_view envelope, const part_source&) {
           const auto root = test::find_element(envelope, "/Envelope");
           envelope_ns = root ? root->ns : "";
         }});
    const auto bytes = payload(300'000);
    auto r = c.call<mtom_echo::echoDataResponse>(
        "echoData", mtom_echo::echoData{"lather", mtom::attachment::from_bytes(bytes)});
    EXPECT_EQ(r.name, "lather");
    EXPECT_FALSE(r.data.content_id().empty());  // gSOAP answered with a part
    EXPECT_EQ(r.data.bytes(), bytes);
    EXPECT_EQ(envelope_ns, soap::envelope_ns(v));
  }
}

TEST(mtom_gsoap, gsoap_client_to_lather_server) {
  if (!fs::exists(kPeer)) GTEST_SKIP() << "gsoap-mtom-peer not built (gSOAP missing)";
  service svc{"MtomEcho", std::string(mtom_echo::ns)};
  bool was_part = false;
  soap::version version = soap::version::soap11;
  svc.operation("echoData", [&](call_context& ctx, const mtom_echo::echoData& in) {
    was_part = !in.data.content_id().empty();
    version = ctx.version();
    return mtom_echo::echoDataResponse{in.name, in.data};
  });
  mtom::enable(svc);
  server srv{{.address = "127.0.0.1", .port = 0, .threads = 2}};
  srv.mount("/mtom", svc);
  srv.start();
  for (std::string_view v : {"1.1", "1.2"}) {
    was_part = false;
    const auto r = test::run(
        {kPeer.string(), "--url", "http://127.0.0.1:" + std::to_string(srv.port()) + "/mtom",
         "--size", "300000", "--soap", std::string(v)},
        test::clock::now() + 60s);
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(r.out.starts_with("ok 300000 ")) << r.out;  // gSOAP checked the echoed part
    EXPECT_TRUE(was_part);
    EXPECT_EQ(version, v == "1.2" ? soap::version::soap12 : soap::version::soap11);
  }
  srv.stop();
}

}  // namespace
