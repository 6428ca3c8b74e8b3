// lather-fetch-client — the client half of the 2003 experiment: --calls fetch("test") calls
// per run, timed, --runs times; every reply is checked (values, shared Values still shared,
// the child -> root cycle a cycle). Prints each run and the median, in the same format as
// bench/drb/drbclient.rb. See docs/fetch.md.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "lather/perf/fetch_types.hpp"

int main(int argc, char** argv) {
  std::string url, param = "test";
  unsigned calls = 100, runs = 5;
  lather::tools::command_line cli{
      "lather-fetch-client",
      "Times --runs runs of --calls fetch(PARAM) calls against lather-fetch-server (or any\n"
      "server of fetch.wsdl) and checks every reply's graph; prints each run and the median."};
  cli.add_option("--url", url, "endpoint, e.g. http://127.0.0.1:8080/fetch")
      ->type_name("URL")
      ->required();
  cli.add_option("--calls", calls, "calls per run (default 100)")->type_name("N");
  cli.add_option("--runs", runs, "timed runs (default 5)")->type_name("N");
  cli.add_option("--param", param, "fetch's argument (default test)")->type_name("TEXT");
  cli.parse_or_exit(argc, argv);
  if (calls == 0 || runs == 0) cli.fail("--calls and --runs must be >= 1");

  try {
    lather::perf::fetch_client client{url};
    lather::perf::fetchResponse reply;
    auto check = [&] {
      if (std::string why = lather::perf::check_fetch_graph(reply.return_, param); !why.empty()) {
        std::fprintf(stderr, "lather-fetch-client: reply has the wrong shape: %s\n", why.c_str());
        std::exit(1);
      }
    };
    client.call(param, reply);  // connect and warm up, as drbclient.rb's first call does
    check();
    std::vector<double> seconds;
    for (unsigned run = 0; run < runs; ++run) {
      const auto start = std::chrono::steady_clock::now();
      for (unsigned c = 0; c < calls; ++c) {
        client.call(param, reply);
        check();
      }
      const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
      seconds.push_back(elapsed.count());
      std::printf("Using lather: %.4f secs (%u calls)\n", elapsed.count(), calls);
    }
    std::vector<double> sorted = seconds;
    std::sort(sorted.begin(), sorted.end());
    std::printf("RESULT stack=lather calls=%u runs=%u median_s=%.4f min_s=%.4f\n", calls, runs,
                sorted[sorted.size() / 2], sorted.front());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lather-fetch-client: %s\n", e.what());
    return 1;
  }
  return 0;
}
