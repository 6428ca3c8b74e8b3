// lather-fetch-client — the client half of the 2003 experiment: --calls fetch("test") calls
// per run, timed, --runs times; every reply is checked (values, shared Values still shared,
// the child -> root cycle a cycle). Prints each run and the median, in the same format as
// bench/drb/drbclient.rb. See docs/fetch.md.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "lather/perf/fetch_types.hpp"

namespace {

const char* usage =
    "usage: lather-fetch-client --url http://127.0.0.1:P/fetch [--calls 100] [--runs 5]\n"
    "                           [--param test]\n";

unsigned number(const char* text, const char* what) {
  unsigned v = 0;
  auto [end, ec] = std::from_chars(text, text + std::strlen(text), v);
  if (ec != std::errc{} || *end != '\0' || v == 0) {
    std::fprintf(stderr, "lather-fetch-client: bad %s '%s'\n%s", what, text, usage);
    std::exit(2);
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  std::string url, param = "test";
  unsigned calls = 100, runs = 5;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "lather-fetch-client: %s needs a value\n%s", argv[i], usage);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--url") {
      url = value();
    } else if (a == "--calls") {
      calls = number(value(), "call count");
    } else if (a == "--runs") {
      runs = number(value(), "run count");
    } else if (a == "--param") {
      param = value();
    } else if (a == "--help" || a == "-h") {
      std::fputs(usage, stdout);
      return 0;
    } else {
      std::fprintf(stderr, "lather-fetch-client: unknown option '%s'\n%s", argv[i], usage);
      return 2;
    }
  }
  if (url.empty()) {
    std::fputs(usage, stderr);
    return 2;
  }

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
