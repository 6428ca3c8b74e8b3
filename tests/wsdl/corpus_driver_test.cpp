// The corpus driver (tests/wsdl/corpus/wsdl_corpus.py) on a corpus of three small services
// with stand-ins for lather-wsdl2cpp, the generated mock server and the corpus's checker: a
// setup keeps the results of earlier runs, and the report takes a service's result only while
// it was made from the generation now in the work directory; a run fails when its service stops
// at an earlier stage than expected.txt records (a project that does not build); a rerun over
// a project built already keeps the build figures of the earlier run.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "../support/paths.hpp"
#include "../support/process.hpp"

namespace {

namespace fs = std::filesystem;
namespace test = lather::test;
using namespace std::chrono_literals;

void write(const fs::path& path, const std::string& text, bool executable = false) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
  if (executable) fs::permissions(path, fs::perms::owner_all, fs::perm_options::add);
}

std::string read(const fs::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Stands in for lather-wsdl2cpp: `ENTRY... -o OUT --namespace N --mock` writes a project whose
// target N_mock_server links the stand-in mock server (once: built, it has nothing left to do),
// and a source holding the entries' text. With FAKE_BUILD_FAILS=N, N's project does not build.
// It reports its times as lather-wsdl2cpp does, never the same twice.
constexpr const char* generator = R"(#!/usr/bin/python3
import os, sys, time
args = sys.argv[1:]
out, ns = args[args.index("-o") + 1], args[args.index("--namespace") + 1]
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "code.cpp"), "w") as f:
    for a in args[:args.index("-o")]:
        f.write(open(a).read())
server = "${CMAKE_CURRENT_BINARY_DIR}/mock-server"
broken = os.environ.get("FAKE_BUILD_FAILS") == ns
with open(os.path.join(out, "CMakeLists.txt"), "w") as f:
    f.write("add_custom_command(OUTPUT %s COMMAND ${CMAKE_COMMAND} -E %s)\n"
            "add_custom_target(%s_mock_server DEPENDS %s)\n" % (
                server, "false" if broken else "create_symlink %s %s" % (
                    os.environ["FAKE_MOCK_SERVER"], server), ns, server))
sys.stderr.write("lather-wsdl2cpp: 2 files, 99 bytes in %s (load %.1f ms, generate %.1f ms)\n" %
                 (out, time.monotonic() % 1000, time.time() % 1000))
)";

// Stands in for a generated mock server: --samples DIR writes one sample; --port P says what it
// serves and waits to be stopped.
constexpr const char* mock_server = R"(#!/usr/bin/python3
import os, signal, sys
if sys.argv[1] == "--samples":
    os.makedirs(sys.argv[2], exist_ok=True)
    open(os.path.join(sys.argv[2], "op.xml"), "w").write("<op/>")
else:
    print("serving op", flush=True)
    signal.pause()
)";

// Stands in for the corpus's checker: one operation, which passes. With FAKE_CHECKER_KILLS set,
// its plan kills the driver that runs it instead (as CTest ends a test that timed out); with
// FAKE_CHECKER_FAILS, it cannot load the contract (as for w3c-soap12-test).
constexpr const char* checker = R"(import json, os, signal, sys
if os.environ.get("FAKE_CHECKER_FAILS"):
    sys.exit("TypeError: the contract does not load")
if sys.argv[1] == "plan":
    if os.environ.get("FAKE_CHECKER_KILLS"):
        os.kill(os.getppid(), signal.SIGKILL)
    print(json.dumps({"operations": [{"key": "op"}]}))
else:
    print("PASS op")
)";

class CorpusDriver : public ::testing::Test {
 protected:
  void SetUp() override {
    if (access("/usr/bin/python3", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/python3";
    dir_ = fs::temp_directory_path() / ("lather-corpus-driver-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    write(corpus() / "manifest.json",
          R"([{"name": "a", "entries": ["a.wsdl"], "operations": 1, "bytes": 10},
              {"name": "b", "entries": ["b.wsdl"], "operations": 1, "bytes": 10},
              {"name": "c", "entries": ["c.wsdl"], "operations": 1, "bytes": 10}])");
    for (const char* name : {"a", "b", "c"})
      write(corpus() / name / (std::string(name) + ".wsdl"), "// contract " + std::string(name));
    write(corpus() / "check" / "wsdl_corpus_check.py", checker);
    write(dir_ / "wsdl2cpp", generator, true);
    write(dir_ / "mock-server", mock_server, true);
    write(dir_ / "prefix" / "include" / "lather.hpp", "// installed\n");
    write(dir_ / "prefix" / "lib" / "liblather.a", "installed\n");
    ::setenv("FAKE_MOCK_SERVER", (dir_ / "mock-server").c_str(), 1);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  fs::path corpus() const { return dir_ / "corpus"; }
  fs::path work() const { return dir_ / "work"; }

  /// wsdl_corpus.py with `args` after --work and --corpus; its output.
  test::run_result driver(const std::string& command, std::vector<std::string> args) {
    std::vector<std::string> argv = {
        "/usr/bin/python3",
        std::string(test::source_dir) + "/tests/wsdl/corpus/wsdl_corpus.py",
        command,
        "--work",
        work().string(),
        "--corpus",
        corpus().string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return test::run(argv, test::clock::now() + 120s);
  }
  void setup() {
    const auto r = driver("setup", {"--wsdl2cpp", (dir_ / "wsdl2cpp").string(), "--prefix",
                                    (dir_ / "prefix").string(), "-j", "1"});
    ASSERT_EQ(r.exit, 0) << r.out;
  }
  void run(const char* name) {
    const auto r = driver("run", {"--service", name, "-j", "1"});
    ASSERT_EQ(r.exit, 0) << r.out;
    EXPECT_NE(r.out.find(std::string(name) + ": 1 of 1 operations pass"), std::string::npos)
        << r.out;
  }

  fs::path dir_;
};

constexpr std::string_view passed =
    "\n\n| operation | samples | served by mock-server |\n|---|---|---|\n| op | PASS | PASS |\n";

std::string page_section(const char* name) {
  return std::string("<!-- result {\"name\": \"") + name +
         "\", \"passed\": 0, \"operations\": 1, \"date\": \"never\", \"stage\": \"page\"} -->\n"
         "### " +
         name + "\n\nkept from the page\n\n<!-- end -->\n";
}

TEST_F(CorpusDriver, APartialRerunKeepsCurrentResultsAndTheReportIgnoresStaleOnes) {
  setup();
  for (const char* name : {"a", "b", "c"}) run(name);
  // b's contract changes; the next setup generates b anew (a and c as before) and keeps the
  // results; only a runs again.
  write(corpus() / "b" / "b.wsdl", "// contract b, changed");
  setup();
  for (const char* name : {"a", "b", "c"})
    EXPECT_TRUE(fs::exists(work() / "results" / (std::string(name) + ".json"))) << name;
  run("a");

  const fs::path page = dir_ / "page.md", doc = dir_ / "out.md";
  write(page, page_section("a") + page_section("b") + page_section("c"));
  const auto r = driver("report", {"--doc", doc.string(), "--from", page.string()});
  ASSERT_EQ(r.exit, 0) << r.out;
  const std::string out = read(doc);
  EXPECT_NE(out.find("### a" + std::string(passed)), std::string::npos) << out;  // rerun
  EXPECT_NE(out.find("### c" + std::string(passed)), std::string::npos) << out;  // kept
  // b's result ran the code generated before its contract changed: stale, ignored, and its
  // section comes from the page.
  EXPECT_NE(out.find("### b\n\nkept from the page\n"), std::string::npos) << out;
  EXPECT_NE(r.out.find("b: ignored "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("a: ignored "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("c: ignored "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 of 3 operations, 2 services completely"), std::string::npos) << r.out;
}

TEST_F(CorpusDriver, ARunThatDoesNotFinishLeavesNoOlderResultBehind) {
  setup();
  run("a");
  ::setenv("FAKE_CHECKER_KILLS", "1", 1);
  const auto killed = driver("run", {"--service", "a", "-j", "1"});
  ::unsetenv("FAKE_CHECKER_KILLS");
  EXPECT_EQ(killed.exit, -1) << killed.out;  // killed, not exited
  const fs::path doc = dir_ / "out.md";
  const auto r = driver("report", {"--doc", doc.string()});
  ASSERT_EQ(r.exit, 0) << r.out;
  const std::string out = read(doc);
  EXPECT_NE(out.find("### a\n\nrun: the run did not finish\n"), std::string::npos) << out;
  EXPECT_EQ(out.find("| op | PASS | PASS |"), std::string::npos) << out;  // not the earlier run
}

TEST_F(CorpusDriver, AServiceThatStopsAtAnEarlierStageThanExpectedFails) {
  const fs::path expected = dir_ / "expected.txt";
  write(expected, "# NAME FLOOR STAGE\na 1 check\nb 0 checker\n");
  auto run_expecting = [&](const char* name) {
    return driver("run", {"--service", name, "-j", "1", "--expected", expected.string()});
  };
  // b's generated project does not build, and the checker cannot load b's contract (as for
  // w3c-soap12-test): no operation can pass, the floor is 0, and still b's test fails.
  ::setenv("FAKE_BUILD_FAILS", "b", 1);
  setup();
  ::unsetenv("FAKE_BUILD_FAILS");
  ::setenv("FAKE_CHECKER_FAILS", "1", 1);
  const auto broken = run_expecting("b");
  EXPECT_EQ(broken.exit, 1) << broken.out;
  EXPECT_NE(broken.out.find("b: stopped at stage build, checker expected (expected.txt)"),
            std::string::npos)
      << broken.out;
  // Built, b stops where it is expected to: at the checker.
  setup();
  const auto built = run_expecting("b");
  ::unsetenv("FAKE_CHECKER_FAILS");
  EXPECT_EQ(built.exit, 0) << built.out;
  EXPECT_NE(built.out.find("b: 0 of 0 operations pass (the checker cannot load"), std::string::npos)
      << built.out;
  const auto a = run_expecting("a");
  EXPECT_EQ(a.exit, 0) << a.out;
  // A service without a line fails: every service states what it reaches.
  const auto c = run_expecting("c");
  EXPECT_EQ(c.exit, 1) << c.out;
  EXPECT_NE(c.out.find("c: no line in "), std::string::npos) << c.out;
}

TEST_F(CorpusDriver, ARerunOverABuiltProjectKeepsTheEarlierRunsBuildFigures) {
  setup();
  run("a");
  const fs::path result = work() / "results" / "a.json";
  const std::string first = read(result);
  ASSERT_NE(first.find("\"build_cpu_seconds\""), std::string::npos) << first;
  EXPECT_EQ(first.find("\"build_from\""), std::string::npos) << first;
  // The same generation again: its build has nothing to do, and keeps the figures measured
  // before, saying which run measured them.
  setup();
  run("a");
  const std::string again = read(result);
  EXPECT_NE(again.find("\"build_cpu_seconds\""), std::string::npos) << again;
  EXPECT_NE(again.find("\"build_from\""), std::string::npos) << again;
  const fs::path doc = dir_ / "out.md";
  const auto r = driver("report", {"--doc", doc.string()});
  ASSERT_EQ(r.exit, 0) << r.out;
  const std::string out = read(doc);
  EXPECT_NE(out.find("(build figures: "), std::string::npos) << out;
  EXPECT_NE(out.find("A row whose run says `build figures: DATE at COMMIT` (or `an earlier "),
            std::string::npos)
      << out;
  // A new generation builds anew: figures of its own.
  write(corpus() / "a" / "a.wsdl", "// contract a, changed");
  setup();
  run("a");
  EXPECT_EQ(read(result).find("\"build_from\""), std::string::npos) << read(result);
  const auto fresh = driver("report", {"--doc", doc.string()});
  ASSERT_EQ(fresh.exit, 0) << fresh.out;
  EXPECT_EQ(read(doc).find("build figures"), std::string::npos) << read(doc);
}

}  // namespace
