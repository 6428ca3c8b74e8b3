// Generated code against real peers, over loopback HTTP. interop.wsdl: the generated client
// (InteropPortTypeClient) calls lather-interop-server, spyne and gSOAP, and the generated
// service class (InteropPortTypeService) answers zeep's and gSOAP's interop clients, which send
// every call of ../shared/interop/VECTORS.md and check the answers. perf.wsdl: the generated
// DocPortTypeClient calls lather-perf-server and gsoap-perf-server, and DocPortTypeService
// answers zeep and gsoap-perf-client. empty.wsdl
// (tests/wsdl/data): the generated EmptiesService answers zeep's and gSOAP's calls of
// operations whose request or response has an empty Body.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "../support/paths.hpp"
#include "../support/perfgen_request.hpp"
#include "../support/process.hpp"
#include "InteropPortType.hpp"
#include "empty/Empties.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "perf/DocPortType.hpp"

namespace {

namespace fs = std::filesystem;
using lather::test::clock;
using namespace std::chrono_literals;

const fs::path kBinDir = lather::test::bin_dir;
const fs::path kPeersDir = fs::path(lather::test::source_dir) / "tests/interop/peers";
const fs::path kLogDir = kBinDir.parent_path() / "interop-results";
const fs::path kPerfWsdl = fs::path(lather::test::shared_dir) / "bench/cxf-perf/perf.wsdl";
const fs::path kEmptyWsdl = fs::path(lather::test::source_dir) / "tests/wsdl/data/empty.wsdl";
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

// The peers have one state for an absent and a nil note (lather-interop-server answers both
// with xsi:nil, others with no note): both compare as no note.
std::vector<interopgen::Struct> without_nil_notes(std::vector<interopgen::Struct> v) {
  for (interopgen::Struct& s : v)
    if (s.note && s.note->is_nil()) s.note.reset();
  return v;
}

// A peer server on a free loopback port; ready once the port accepts connections.
struct peer_server {
  std::optional<lather::test::process> proc;
  int port = 0;

  // argv's "{port}" is replaced by the port.
  explicit peer_server(const std::vector<std::string>& argv, const fs::path& log) {
    lather::test::fresh_log(log);
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
    if (i % 2 != 0) s.note.emplace();  // xsi:nil
    many.value.push_back(std::move(s));
  }
  EXPECT_EQ(without_nil_notes(client.echoArray(many).result), without_nil_notes(many.value));

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
  const peer_server server(argv, kLogDir / (std::string("generated-client-") + name + ".log"));
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

// interop.wsdl's operations as lather-interop-server answers them, on the generated class.
struct echo_service final : interopgen::InteropPortTypeService {
  void echoString(const interopgen::echoString& in, interopgen::echoStringResponse& out) override {
    out.result = in.value;
  }
  void echoInt(const interopgen::echoInt& in, interopgen::echoIntResponse& out) override {
    out.result = in.value;
  }
  void echoStruct(const interopgen::echoStruct& in, interopgen::echoStructResponse& out) override {
    out.result = in.value;
  }
  void echoArray(const interopgen::echoArray& in, interopgen::echoArrayResponse& out) override {
    out.result = in.value;
  }
  void addNumbers(const interopgen::addNumbers& in, interopgen::addNumbersResponse& out) override {
    if (in.a < 0 || in.b < 0) {
      lather::soap::fault f;
      f.code = lather::soap::fault_code::sender;  // Client in SOAP 1.1
      f.reason = "negative";
      throw lather::soap::fault_error{std::move(f)};
    }
    out.result = in.a + in.b;
  }
  void echoBinary(const interopgen::echoBinary& in, interopgen::echoBinaryResponse& out) override {
    out.result = in.value;
  }
};

// A peer client's "PASS|FAIL <check> <detail>" lines against the generated service: every
// check passes, and all 22 of them ran.
// Returns the number of PASS lines.
int run_peer_client(const char* name, lather::service& svc, std::vector<std::string> argv) {
  lather::server srv{{.address = "127.0.0.1", .port = 0, .threads = 2}};
  srv.mount("/svc", svc);
  srv.start();
  argv.push_back("--url");
  argv.push_back("http://127.0.0.1:" + std::to_string(srv.port()) + "/svc");

  lather::test::process client(
      argv, lather::test::fresh_log(kLogDir / (std::string("generated-service-") + name + ".log")),
      true);
  EXPECT_TRUE(client.started()) << name;
  std::string output;
  EXPECT_TRUE(client.read_output(output, clock::now() + 60s)) << name << " did not finish";
  EXPECT_EQ(client.exit_code(clock::now() + 10s), 0) << output;
  srv.stop();

  int passed = 0;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("PASS ", 0) == 0) ++passed;
    EXPECT_NE(line.rfind("FAIL ", 0), 0u) << name << ": " << line;
  }
  return passed;
}

void peer_client_against_generated_service(const char* name, std::vector<std::string> argv) {
  echo_service impl;
  lather::service svc{"Interop", "urn:interop"};
  impl.mount_on(svc);
  EXPECT_GE(run_peer_client(name, svc, std::move(argv)), 22);  // VECTORS.md and edge cases
}

TEST(GeneratedInteropService, AnswersZeep) {
  peer_client_against_generated_service("zeep", {kPython, (kPeersDir / "zeep_client.py").string()});
}

TEST(GeneratedInteropService, AnswersGsoap) {
  if (!fs::exists(kBinDir / "gsoap-interop-client")) GTEST_SKIP() << "gSOAP is not built";
  peer_client_against_generated_service("gsoap", {(kBinDir / "gsoap-interop-client").string()});
}

// The generated perf client's three operations against a perf server `argv`. `utc_only`: the
// peer keeps an xsd:dateTime as a time_t (gSOAP), so one without a timezone would come back
// as UTC ('Z'): the request's are given one.
void generated_perf_client_against(const char* name, const std::vector<std::string>& argv,
                                   bool utc_only = false) {
  const peer_server server(argv, kLogDir / (std::string("generated-client-") + name + ".log"));
  ASSERT_TRUE(server.proc) << name << " never accepted connections";
  lather::client c{server.url("/perf")};
  perfgen::DocPortTypeClient perf{c};
  perfgen::echoComplexTypeDoc req = lather_test::perfgen_request(3);
  if (utc_only)
    for (perfgen::NestedComplexType& t : req.in.item) t.varStruct.varDateTime.tz_minutes = 0;
  const perfgen::echoComplexTypeDocResponse res = perf.echoComplexTypeDoc(req);
  EXPECT_EQ(res.return_, req.in);
  EXPECT_EQ(res.idout, 42);
  EXPECT_EQ(perf.echoStringDoc({"<&>"}).out, "<&>");
  perfgen::echoBase64Doc b;
  b.in.bytes = {0, 1, 255};
  EXPECT_EQ(perf.echoBase64Doc(b).out, b.in);
}

TEST(GeneratedPerfClient, CallsLatherPerfServer) {
  generated_perf_client_against("lather-perf",
                                {(kBinDir / "lather-perf-server").string(), "--port", "{port}"});
}

TEST(GeneratedPerfClient, CallsGsoapPerfServer) {
  if (!fs::exists(kBinDir / "gsoap-perf-server")) GTEST_SKIP() << "gSOAP is not built";
  generated_perf_client_against(
      "gsoap-perf",
      {(kBinDir / "gsoap-perf-server").string(), "--port", "{port}", "--threads", "2"}, true);
}

struct perf_echo final : perfgen::DocPortTypeService {
  void echoStringDoc(const perfgen::echoStringDoc& in,
                     perfgen::echoStringDocResponse& out) override {
    ++calls;
    out.out = in.in;
  }
  void echoBase64Doc(const perfgen::echoBase64Doc& in,
                     perfgen::echoBase64DocResponse& out) override {
    ++calls;
    out.out = in.in;
  }
  void echoComplexTypeDoc(const perfgen::echoComplexTypeDoc& in,
                          perfgen::echoComplexTypeDocResponse& out) override {
    ++calls;
    out.return_ = in.in;
    out.idout = in.id;
  }
  std::atomic<int> calls{0};  // the server's two threads may both call
};

TEST(GeneratedPerfService, AnswersZeep) {
  perf_echo impl;
  lather::service svc{"PerfService", "http://cxf.apache.org/cxf/performance"};
  impl.mount_on(svc);
  EXPECT_EQ(run_peer_client("zeep-perf", svc,
                            {kPython, (kPeersDir / "zeep_perf_client.py").string(), "--wsdl",
                             kPerfWsdl.string()}),
            10);  // every check of zeep_perf_client.py
}

// gSOAP's perf client (bench/gsoap) against the generated service: each operation 50 times at
// 5 items, every reply checked by the client (its exit status is 0 only when none failed).
TEST(GeneratedPerfService, AnswersGsoapPerfClient) {
  if (!fs::exists(kBinDir / "gsoap-perf-client")) GTEST_SKIP() << "gSOAP is not built";
  for (const char* op : {"echoComplexTypeDoc", "echoStringDoc", "echoBase64Doc"}) {
    perf_echo impl;
    lather::service svc{"PerfService", "http://cxf.apache.org/cxf/performance"};
    impl.mount_on(svc);
    EXPECT_EQ(
        run_peer_client("gsoap-perf", svc,
                        {(kBinDir / "gsoap-perf-client").string(), "--operation", op, "--count",
                         "50", "--threads", "1", "--warmup", "0", "--packet-size", "5"}),
        0);                                  // no PASS lines: the count of answered calls says it
    EXPECT_GE(impl.calls.load(), 50) << op;  // and the calls it made before its count began
  }
}

// empty.wsdl's operations, recording what zeep's calls brought.
struct empties final : emptygen::EmptiesService {
  void Ping() override { calls.push_back("Ping"); }
  void Status(emptygen::Status& out) override {
    calls.push_back("Status");
    out.state = "up";
  }
  void Reset(const emptygen::Reset& in) override { calls.push_back("Reset " + in.target); }
  void Touch(const emptygen::Touch_request_headers& in) override {
    calls.push_back("Touch " + (in.session ? in.session->id : std::string("-")));
  }
  void EchoOk(const emptygen::EchoOk_request_headers& in,
              emptygen::EchoOk_response_headers& out) override {
    calls.push_back("EchoOk " + (in.echoOk ? in.echoOk->value : std::string("-")));
    if (in.echoOk) out.responseOk = emptygen::ResponseOk{in.echoOk->value + "!"};
  }
  std::vector<std::string> calls;  // the peers call one operation at a time
};

// empty.wsdl's generated service, its calls checked by a peer client `argv`.
std::vector<std::string> empty_body_calls_from(const char* name, std::vector<std::string> argv,
                                               int checks) {
  empties impl;
  lather::service svc{"EmptyService", "urn:lather:empty"};
  impl.mount_on(svc);
  EXPECT_EQ(run_peer_client(name, svc, std::move(argv)), checks);
  return impl.calls;
}

// zeep sends an empty Body for a message without a body part and takes an empty Body (or a
// Body element) as the response; the generated service dispatches each by its SOAPAction, or
// by the wsa:Action header zeep adds for an operation with a wsam:Action (EchoOk).
TEST(GeneratedEmptyService, AnswersZeep) {
  EXPECT_EQ(empty_body_calls_from("zeep-empty",
                                  {kPython, (kPeersDir / "zeep_empty_client.py").string(), "--wsdl",
                                   kEmptyWsdl.string()},
                                  15),  // every check of zeep_empty_client.py
            (std::vector<std::string>{"Ping", "Status", "Reset disk", "Touch s1", "EchoOk hi",
                                      "EchoOk hi"}));
}

// gSOAP's client, as zeep's (without EchoOk: tests/interop/gsoap/empty_client.cpp says why).
TEST(GeneratedEmptyService, AnswersGsoap) {
  if (!fs::exists(kBinDir / "gsoap-empty-client")) GTEST_SKIP() << "gSOAP is not built";
  EXPECT_EQ(empty_body_calls_from("gsoap-empty", {(kBinDir / "gsoap-empty-client").string()}, 4),
            (std::vector<std::string>{"Ping", "Status", "Reset disk", "Touch s1"}));
}

}  // namespace
