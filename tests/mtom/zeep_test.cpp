// zeep (python3-zeep) receives lather's MTOM: a lather server answers fetch with the bytes as
// an xop:Include part (multipart/related), SOAP 1.1 and 1.2, and zeep's XOP decoding gives
// them back intact.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "../support/paths.hpp"
#include "../support/process.hpp"
#include "lather/mtom.hpp"
#include "lather/service/server.hpp"

namespace mtom_zeep {
constexpr std::string_view ns = "urn:lather:mtom-zeep";
struct fetch {
  std::int32_t size = 0;
};
struct fetchResponse {
  lather::mtom::attachment data;
};
}  // namespace mtom_zeep

template <>
struct lather::meta<mtom_zeep::fetch> {
  static constexpr std::string_view name = "fetch", ns = mtom_zeep::ns;
  static constexpr auto fields = std::tuple{element("size", &mtom_zeep::fetch::size)};
};
template <>
struct lather::meta<mtom_zeep::fetchResponse> {
  static constexpr std::string_view name = "fetchResponse", ns = mtom_zeep::ns;
  static constexpr auto fields = std::tuple{element("data", &mtom_zeep::fetchResponse::data)};
};

namespace {

using namespace lather;
namespace fs = std::filesystem;

const fs::path kPython = "/usr/bin/python3";
const fs::path kScript = fs::path(lather::test::source_dir) / "tests/mtom/zeep_mtom.py";

TEST(mtom_zeep, zeep_reads_lather_mtom_responses) {
  if (!fs::exists(kPython)) GTEST_SKIP() << "python3 missing";
  service svc{"Files", std::string(mtom_zeep::ns)};
  svc.operation("fetch", [](const mtom_zeep::fetch& in) {
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(in.size));
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::uint8_t>(31 * i + 7);
    return mtom_zeep::fetchResponse{mtom::attachment::from_bytes(std::move(bytes), "image/png")};
  });
  mtom::options o;
  o.respond_in_kind = false;  // zeep sends plain SOAP; it gets MTOM back
  mtom::enable(svc, o);
  server srv{{.address = "127.0.0.1", .port = 0, .threads = 2}};
  srv.mount("/files", svc);
  srv.start();
  const std::string wsdl = "http://127.0.0.1:" + std::to_string(srv.port()) + "/files?wsdl";
  for (const char* version : {"--soap11", "--soap12"}) {
    std::vector<std::string> argv = {kPython.string(), kScript.string(), "--wsdl", wsdl,
                                     "--size",         "300000"};
    if (std::string_view(version) == "--soap12") argv.push_back(version);
    const auto r = test::run(argv, test::clock::now() + std::chrono::seconds(60));
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_EQ(r.out, "ok 300000 multipart/related\n") << version;
  }
  srv.stop();
}

}  // namespace
