// interop.wsdl through lather-wsdl2cpp against real peers, over loopback HTTP: the generated
// client (InteropPortTypeClient) calls lather-interop-server, spyne and gSOAP, and the
// generated service class (InteropPortTypeService) answers zeep's and gSOAP's interop clients,
// which send every call of ../shared/interop/VECTORS.md and check the answers.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "../support/process.hpp"
#include "InteropPortType.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"

namespace {

namespace fs = std::filesystem;
using lather::test::clock;
using namespace std::chrono_literals;

const fs::path kBinDir = LATHER_BIN_DIR;
const fs::path kPeersDir = fs::path(LATHER_SOURCE_DIR) / "tests/interop/peers";
constexpr const char* kPython = "/usr/bin/python3";  // Debian's, with python3-zeep and -spyne

interopgen::Struct s1() {
  interopgen::Struct s;
  s.name = "h\u00e9llo w\u00f6rld \u2713 <&>\"'";
  s.count = 7;
  s.price = 1234.5;
  s.when.year = 2003;
  s.when.month = 11;
  s.when.day = 5;
  s.when.hour = 12;
  s.when.minute = 34;
  s.when.second = 56;
  s.when.tz_minutes = 0;
  s.tags = {"alpha", "h\u00e9llo w\u00f6rld \u2713", "<&>\"'"};
  s.note = "a note";
  return s;
}

// A peer server on a free loopback port; ready once the port accepts connections.
struct peer_server {
  std::optional<lather::test::process> proc;
  int port = 0;

  // argv's "{port}" is replaced by the port.
  explicit peer_server(const std::vector<std::string>& argv, const fs::path& log) {
    for (int attempt = 0; attempt < 3 && !proc; ++attempt) {
      port = lather::test::free_port();
      std::vector<std::string> args;
      for (const std::string& a : argv) args.push_back(a == "{port}" ? std::to_string(port) : a);
      proc.emplace(args, log, false);
      if (!proc->started() || !lather::test::wait_for_port(*proc, port, clock::now() + 20s))
        proc.reset();
    }
  }
  std::string url(std::string_view path) const {
    return "http://127.0.0.1:" + std::to_string(port) + std::string(path);
  }
};

// The generated client's calls, checked value by value.
void call_with_generated_client(const std::string& url) {
  lather::client c{url};
  interopgen::InteropPortTypeClient client{c};

  EXPECT_EQ(client.echoString({"h\u00e9llo w\u00f6rld \u2713 <&>\"'"}).result,
            "h\u00e9llo w\u00f6rld \u2713 <&>\"'");
  EXPECT_EQ(client.echoString({""}).result, "");
  EXPECT_EQ(client.echoInt({-2147483647 - 1}).result, -2147483647 - 1);
  EXPECT_EQ(client.echoStruct({s1()}).result, s1());

  interopgen::echoArray many;
  for (int i = 0; i < 100; ++i) {
    interopgen::Struct s = s1();
    s.count = i;
    s.price = i + 0.5;
    if (i % 2 != 0) s.note.reset();
    many.value.push_back(std::move(s));
  }
  EXPECT_EQ(client.echoArray(many).result, many.value);

  EXPECT_EQ(client.addNumbers({2, 3}).result, 5);
  try {
    client.addNumbers({-1, 5});
    ADD_FAILURE() << "addNumbers(-1, 5) did not fault";
  } catch (const lather::soap::fault_error& e) {
    EXPECT_EQ(e.get().code, lather::soap::fault_code::sender);
    EXPECT_EQ(e.get().reason, "negative");
  }

  interopgen::echoBinary bytes;
  for (int b = 0; b < 256; ++b) bytes.value.bytes.push_back(static_cast<std::uint8_t>(b));
  EXPECT_EQ(client.echoBinary(bytes).result, bytes.value);
}

void generated_client_against(const char* name, const std::vector<std::string>& argv) {
  const peer_server server(argv, kBinDir / (std::string("generated-client-") + name + ".log"));
  ASSERT_TRUE(server.proc) << name << " never accepted connections";
  call_with_generated_client(server.url("/interop"));
}

TEST(GeneratedInteropClient, CallsLatherInteropServer) {
  generated_client_against("lather",
                           {(kBinDir / "lather-interop-server").string(), "--port", "{port}"});
}

TEST(GeneratedInteropClient, CallsSpyne) {
  generated_client_against("spyne", {kPython, (kPeersDir / "spyne_server.py").string(), "{port}"});
}

TEST(GeneratedInteropClient, CallsGsoap) {
  if (!fs::exists(kBinDir / "gsoap-interop-server")) GTEST_SKIP() << "gSOAP is not built";
  generated_client_against("gsoap",
                           {(kBinDir / "gsoap-interop-server").string(), "--port", "{port}"});
}

}  // namespace
