// Every tool's and benchmark peer's command line (tools/common/command_line.hpp), run as users
// run them: --help prints the usage on stdout and exits 0 at once, without starting a server or
// a benchmark; an unknown option and a malformed value are one line on stderr and exit status 2.
// LATHER_CLI_TOOLS lists the tools this build has, comma-separated.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "../support/paths.hpp"
#include "../support/process.hpp"

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::vector<std::string> built_tools() {
  std::vector<std::string> tools;
  std::string_view list = LATHER_CLI_TOOLS;
  while (!list.empty()) {
    const auto comma = list.find(',');
    if (comma != 0) tools.emplace_back(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
  }
  return tools;
}

struct outcome {
  int exit = -1;  ///< -1: still running at the deadline (then stopped)
  std::string out, err;
};

// Runs `tool args...` for at most 20 s: a --help that starts a server never exits by itself.
outcome run(const std::string& tool, const std::vector<std::string>& args) {
  // CTest runs each test in its own process, possibly at once: the pid keeps their logs apart.
  const fs::path log = fs::path(testing::TempDir()) /
                       ("tool_command_line_" + tool + "_" + std::to_string(::getpid()) + ".err");
  fs::remove(log);
  std::vector<std::string> argv{std::string(lather::test::bin_dir) + "/" + tool};
  argv.insert(argv.end(), args.begin(), args.end());
  outcome o;
  {
    lather::test::process p(argv, lather::test::process_options::with_log(log));
    if (!p.started()) return o;
    const auto deadline = lather::test::clock::now() + 20s;
    p.read_output(o.out, deadline);
    o.exit = p.exit_code(deadline);
  }
  {
    std::ifstream err(log);
    o.err.assign(std::istreambuf_iterator<char>(err), {});
  }
  fs::remove(log);  // one name per pid: nothing would reuse it
  return o;
}

// A usage error: exit status 2, nothing on stdout, one line on stderr that names `culprit`.
void expect_usage_error(const outcome& o, std::string_view culprit) {
  EXPECT_EQ(o.exit, 2) << o.out << o.err;
  EXPECT_EQ(o.out, "");
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  EXPECT_NE(o.err.find(culprit), std::string::npos) << o.err;
}

TEST(tool_command_line, EveryToolIsListed) {
  // The lather tools are always built; the peers only with their stacks installed.
  const auto tools = built_tools();
  for (const char* always :
       {"lather-bench", "lather-perf-server", "lather-fetch-server", "lather-fetch-client",
        "lather-interop-server", "lather-interop-client"})
    EXPECT_NE(std::find(tools.begin(), tools.end(), always), tools.end()) << always;
}

TEST(tool_command_line, HelpPrintsTheUsageAndExitsZeroWithoutStarting) {
  for (const auto& tool : built_tools()) {
    SCOPED_TRACE(tool);
    // --port 0 beside --help: a tool that ignored --help would start and never exit.
    const bool serves = tool.find("server") != std::string::npos || tool == "lather-http-echo";
    const auto o = run(tool, serves ? std::vector<std::string>{"--port", "0", "--help"}
                                    : std::vector<std::string>{"--help"});
    EXPECT_EQ(o.exit, 0) << o.out << o.err;
    EXPECT_EQ(o.out.rfind("Usage: " + tool + " [OPTIONS]", 0), 0u) << o.out;
    EXPECT_NE(o.out.find("--help"), std::string::npos) << o.out;
    EXPECT_EQ(o.err, "");
  }
}

TEST(tool_command_line, UnknownOptionIsOneLineAndExitStatusTwo) {
  for (const auto& tool : built_tools()) {
    SCOPED_TRACE(tool);
    expect_usage_error(run(tool, {"--no-such-option"}), "--no-such-option");
  }
}

TEST(tool_command_line, MalformedValueIsOneLineAndExitStatusTwo) {
  // Each tool's options as compare.sh, run.sh and demo.sh pass them, one value wrong.
  const std::map<std::string, std::vector<std::string>> bad = {
      {"lather-bench", {"--url", "http://127.0.0.1:9/perf", "--time", "soon"}},
      {"lather-perf-server", {"--port", "http"}},
      {"lather-fetch-server", {"--port", "70000"}},
      {"lather-fetch-client", {"--url", "http://127.0.0.1:9/fetch", "--calls", "many"}},
      {"lather-interop-server", {"--port", "-1"}},
      {"lather-interop-client", {"--encoded", "--url"}},
      {"lather-wsdl2cpp", {"perf.wsdl", "-o", "out", "--catalog"}},
      {"lather-http-echo", {"--threads", "two"}},
      {"lather-loopback-floor", {"--time", "forever"}},
      {"lather-bench-multiref", {"--sizes", "1000,lots"}},
      {"gsoap-perf-server", {"--port", "0", "--io", "mmap"}},
      {"gsoap-perf-client", {"--url", "http://127.0.0.1:9/perf", "--operation", "echoNothing"}},
      {"grpc-perf-server", {"--port", "p"}},
      {"grpc-perf-client", {"--port", "9", "--packet-size", "1.5"}}};
  for (const auto& tool : built_tools()) {
    SCOPED_TRACE(tool);
    const auto args = bad.find(tool);
    ASSERT_NE(args, bad.end()) << "add a malformed value for " << tool;
    // The option whose value is wrong is the last one given.
    const auto& culprit = *std::find_if(args->second.rbegin(), args->second.rend(),
                                        [](const std::string& a) { return a.starts_with("--"); });
    expect_usage_error(run(tool, args->second), culprit);
  }
}

}  // namespace
