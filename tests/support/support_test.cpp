// The test helpers themselves: xml_query finds elements by path with lather's reader (and
// finds nothing in a malformed document), process runs and stops children by PID, test ports
// are reserved across processes (C++ and Python) and wait_for_port knows who listens.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "paths.hpp"
#include "process.hpp"
#include "xml_query.hpp"

namespace {

namespace test = lather::test;
using namespace std::chrono_literals;

const std::string fault =
    "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body><s:Fault>"
    "<faultcode>s:Server</faultcode><faultstring>a &lt;b&gt;<![CDATA[ c]]></faultstring>"
    "</s:Fault><n:r xmlns:n='urn:n' a='1'><n:i>1</n:i><n:i/><n:i>3</n:i></n:r></s:Body>"
    "</s:Envelope>";

TEST(XmlQuery, FindsTextByPathDecoded) {
  EXPECT_EQ(test::find_text(fault, "/Envelope/Body/Fault/faultcode"), "s:Server");
  EXPECT_EQ(test::qname_local(test::find_text(fault, "/Envelope/Body/Fault/faultcode")), "Server");
  EXPECT_EQ(test::find_text(fault, "Envelope/Body/Fault/faultstring"), "a <b> c");
  EXPECT_EQ(test::find_text(fault, "/Envelope/Body/Fault"), "");  // own text only
}

TEST(XmlQuery, ResolvesTheQNamePrefixOfTextInTheElementsScope) {
  EXPECT_EQ(test::find_element(fault, "/Envelope/Body/Fault/faultcode")->text_ns,
            "http://schemas.xmlsoap.org/soap/envelope/");
  EXPECT_EQ(test::find_element(fault, "/Envelope/Body/r/i")->text_ns, "");  // no prefix
  const std::string rebound =
      "<s:a xmlns:s='urn:outer'><b xmlns:s='urn:inner'>s:x</b><c>s:y</c><d>zz:q</d></s:a>";
  EXPECT_EQ(test::find_element(rebound, "/a/b")->text_ns, "urn:inner");
  EXPECT_EQ(test::find_element(rebound, "/a/c")->text_ns, "urn:outer");
  EXPECT_EQ(test::find_element(rebound, "/a/d")->text_ns, "");  // undeclared prefix
}

TEST(XmlQuery, APathMustMatchFromTheRoot) {
  EXPECT_EQ(test::find_text(fault, "/Body/Fault/faultcode"), std::nullopt);
  EXPECT_EQ(test::find_text(fault, "/Envelope/Body/faultcode"), std::nullopt);
  EXPECT_EQ(test::find_text(fault, "/Envelope/*/Fault/faultcode"), "s:Server");
}

TEST(XmlQuery, EveryMatchInOrderWithNamespaceAndAttributes) {
  std::vector<std::string> texts;
  for (const auto& e : test::find_elements(fault, "/Envelope/Body/r/i")) {
    EXPECT_EQ(e.ns, "urn:n");
    texts.push_back(e.text);
  }
  EXPECT_EQ(texts, (std::vector<std::string>{"1", "", "3"}));
  EXPECT_EQ(test::count_elements(fault, "/Envelope/Body/r/i"), 3u);
  EXPECT_TRUE(test::has_element(fault, "/Envelope/Body/r", {{"a", "1"}}));
  EXPECT_FALSE(test::has_element(fault, "/Envelope/Body/r", {{"a", "2"}}));
  EXPECT_EQ(test::declarations_of(fault, "urn:n"),
            (std::vector<std::pair<std::string, std::string>>{{"/Envelope/Body/r", "n"}}));
}

TEST(XmlQuery, FaultCodeAndReasonOfBothSoapVersions) {
  EXPECT_EQ(test::fault_code(fault), "Server");
  EXPECT_EQ(test::fault_string(fault), "a <b> c");
  const std::string fault12 =
      "<e:Envelope xmlns:e='http://www.w3.org/2003/05/soap-envelope'><e:Body><e:Fault>"
      "<e:Code><e:Value>e:Sender</e:Value></e:Code><e:Reason><e:Text xml:lang='en'>no</e:Text>"
      "</e:Reason></e:Fault></e:Body></e:Envelope>";
  EXPECT_EQ(test::fault_code(fault12), "Sender");
  EXPECT_EQ(test::fault_string(fault12), "no");
  EXPECT_EQ(test::fault_code("<a/>"), std::nullopt);
  EXPECT_EQ(test::fault_string("<a/>"), "");
}

TEST(XmlQuery, AMalformedDocumentMatchesNothing) {
  const std::string cut = fault.substr(0, fault.size() - 5);  // no end tag
  EXPECT_FALSE(test::well_formed(cut));
  EXPECT_TRUE(test::well_formed(fault));
  EXPECT_EQ(test::find_text(cut, "/Envelope/Body/Fault/faultcode"), std::nullopt);
  EXPECT_EQ(test::find_text("<a><b>x</b></c>", "/a/b"), std::nullopt);
  EXPECT_EQ(test::find_text("not xml <a>faultcode</a>", "/a"), std::nullopt);
}

TEST(Process, RunCollectsOutputAndExitStatus) {
  const auto r =
      test::run({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, test::clock::now() + 10s);
  EXPECT_EQ(r.exit, 3);
  EXPECT_NE(r.out.find("out"), std::string::npos);
  EXPECT_NE(r.out.find("err"), std::string::npos);
}

TEST(Process, RunKillsAChildAtItsDeadline) {
  const auto start = test::clock::now();
  const auto r = test::run({"/bin/sleep", "30"}, start + 200ms);
  EXPECT_EQ(r.exit, -1);
  EXPECT_LT(test::clock::now() - start, 10s);
}

TEST(Process, ListeningServerReadsItsPortAndIsStoppedByPid) {
  test::listening_server server(
      {"/bin/sh", "-c",
       "echo starting; echo 'listening on http://127.0.0.1:4711/x'; exec sleep 30"});
  EXPECT_EQ(server.port, 4711);
  EXPECT_EQ(server.url("/p"), "http://127.0.0.1:4711/p");
  EXPECT_TRUE(server.child.running());
  server.child.stop();
  EXPECT_FALSE(server.child.running());
}

TEST(Process, AFreshLogHoldsThisRunsChildrenOnly) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("lather-fresh-log-" + std::to_string(::getpid()));
  const std::filesystem::path log = dir / "peer.log";
  std::filesystem::create_directories(dir);
  std::ofstream(log) << "an earlier run\n";
  ASSERT_EQ(test::fresh_log(log), log);
  // Two children of this run (a server and its client, say) append to one log in turn.
  for (const char* line : {"echo one >&2", "echo two"}) {
    test::process child({"/bin/sh", "-c", line}, log, false);
    ASSERT_TRUE(child.started());
    EXPECT_EQ(child.exit_code(test::clock::now() + 10s), 0);
  }
  std::ifstream in(log);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "one\ntwo\n");
  std::filesystem::remove_all(dir);
  EXPECT_EQ(test::fresh_log(dir / "made" / "x.log"), dir / "made" / "x.log");
  EXPECT_TRUE(std::filesystem::is_directory(dir / "made"));  // its directory made
  std::filesystem::remove_all(dir);
}

TEST(Process, ResultLinesAndBanners) {
  const auto [result, exit] =
      test::run_to_result({"/bin/sh", "-c", "echo 'RESULT a=1 b=x'; echo 'RESULT a=2 calls=5'"},
                          test::clock::now() + 10s);
  EXPECT_EQ(exit, 0);
  EXPECT_EQ(test::result_field(result, "a"), "2");
  EXPECT_EQ(test::result_field(result, "calls"), "5");
  EXPECT_EQ(test::result_field(result, "b"), "");
  EXPECT_EQ(test::banner_port("listening on druby://127.0.0.1:99"), 99);
  EXPECT_EQ(test::banner_port("listening on 127.0.0.1:0"), std::nullopt);
}

// A socket of this process listening on 127.0.0.1:port (0: a port of the kernel's).
struct listener {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int port = 0;
  explicit listener(int at) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<std::uint16_t>(at));
    socklen_t len = sizeof addr;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 && ::listen(fd, 8) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
      port = ntohs(addr.sin_port);
  }
  ~listener() { ::close(fd); }
};

// python3 running `code` after `import test_ports as w` (the port scheme of Python tests and
// scripts, tests/support/test_ports.py), held until stopped once it has printed.
std::vector<std::string> python_ports(const std::string& code) {
  return {"/usr/bin/python3", "-c",
          "import signal, sys; sys.path.insert(0, '" + std::string(test::source_dir) +
              "/tests/support'); import test_ports as w; " + code +
              "; sys.stdout.flush(); signal.pause()"};
}

TEST(TestPorts, OutsideTheEphemeralRangeAndHandedOutOncePerProcess) {
  int low = 0, high = 0;
  std::ifstream("/proc/sys/net/ipv4/ip_local_port_range") >> low >> high;
  std::set<int> seen;
  for (int i = 0; i < 50; ++i) {
    const int port = test::free_port();
    ASSERT_GE(port, 10000);
    if (low > 10000 || high < 65535) {  // the range leaves test ports outside it
      EXPECT_TRUE(port < low || port > high) << port;
    }
    EXPECT_TRUE(seen.insert(port).second) << port << " handed out twice";
    EXPECT_FALSE(test::reserve_port(port)) << port;  // reserved: not again
    listener server(port);                           // and free for a server
    EXPECT_EQ(server.port, port);
  }
}

TEST(TestPorts, APortSomethingIsBoundToIsNotReserved) {
  listener bound(0);
  ASSERT_NE(bound.port, 0);
  EXPECT_FALSE(test::reserve_port(bound.port));
}

TEST(TestPorts, PythonAndCxxProcessesNeverShareAPort) {
  if (access("/usr/bin/python3", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/python3";
  const int mine = test::free_port();
  ASSERT_GT(mine, 0);
  // Another process, through the Python functions: it cannot reserve this process's
  // port, and the port it reserves is not free for this one while it lives.
  test::process other(
      python_ports("print(w.free_port(), w.reserve_port(" + std::to_string(mine) + "))"));
  std::string line;
  ASSERT_TRUE(other.read_line(line, test::clock::now() + 30s)) << "python3 printed nothing";
  const int theirs = std::atoi(line.c_str());
  ASSERT_GT(theirs, 0) << line;
  EXPECT_NE(theirs, mine);
  EXPECT_EQ(line.substr(line.find(' ') + 1), "False") << line;
  EXPECT_FALSE(test::reserve_port(theirs));
  for (int i = 0; i < 50; ++i) EXPECT_NE(test::free_port(), theirs);
  // Once that process has ended, the kernel has dropped its reservation.
  other.stop();
  EXPECT_TRUE(test::reserve_port(theirs));
}

TEST(TestPorts, AScriptHoldsThePortsItWasGivenUntilItsHolderStops) {
  if (access("/usr/bin/python3", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/python3";
  // test_ports.py N, as a shell script runs it in the background (bench/haproxy_scaling.sh).
  test::process holder(
      {"/usr/bin/python3", std::string(test::source_dir) + "/tests/support/test_ports.py", "3"});
  std::set<int> held;
  for (int i = 0; i < 3; ++i) {
    std::string line;
    ASSERT_TRUE(holder.read_line(line, test::clock::now() + 30s)) << "printed " << i << " ports";
    const int port = std::atoi(line.c_str());
    ASSERT_GE(port, 10000) << line;
    EXPECT_TRUE(held.insert(port).second) << port;
    EXPECT_FALSE(test::reserve_port(port)) << port << " is not held";
    listener server(port);  // free for the script's server meanwhile
    EXPECT_EQ(server.port, port);
  }
  holder.stop();
  for (int port : held) EXPECT_TRUE(test::reserve_port(port)) << port << " still held";
}

TEST(TestPorts, WaitForPortKnowsWhoListens) {
  // The child's group listens: ready.
  const int port = test::free_port();
  test::process server({"/usr/bin/python3", "-c",
                        "import signal, socket; s = socket.socket(); s.bind(('127.0.0.1', " +
                            std::to_string(port) + ")); s.listen(); signal.pause()"});
  EXPECT_TRUE(test::wait_for_port(server, port, test::clock::now() + 30s));
  // Another process listens on the port (this one): not the child's, so not ready, at once.
  listener stranger(test::free_port());
  ASSERT_NE(stranger.port, 0);
  test::process idle({"/bin/sleep", "30"});
  const auto start = test::clock::now();
  EXPECT_FALSE(test::wait_for_port(idle, stranger.port, start + 30s));
  EXPECT_LT(test::clock::now() - start, 10s);
  // The child exited (as a server does when its bind fails): not ready, at once.
  test::process gone({"/bin/true"});
  EXPECT_FALSE(test::wait_for_port(gone, test::free_port(), test::clock::now() + 30s));
  EXPECT_LT(test::clock::now() - start, 20s);
}

}  // namespace
