// lather-bench-dynamic: what a program that learns the contract at run time pays with
// lather::dynamic_client. Prints "RESULT" lines for bench/run.sh dynamic:
//   --address URL: echoComplexTypeDoc calls for --seconds on one thread (one connection,
//     keep-alive), the request value built once from JSON; calls/s and µs per call;
//   --load WSDL: lather::wsdl::load + the operation listing of a contract, --loads times;
//     the medians of wall and CPU (user + system) time in ms.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "lather/dynamic/client.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

// One NestedComplexType item: PacketSize 1 of the CXF benchmark.
constexpr const char* request_json = R"({"in": {"item": [{"varString": "hello world",
  "varUByte": 200, "varUnsignedLong": 1234567890123, "varFloat": 3.25, "varQName": "q",
  "varBase64Binary": "AAECAwQFBgcICQ==", "varHexBinary": "0A0B0C", "varStruct": {
  "varAttrString": "attr", "varFloat": 1.5, "varShort": 12, "varString": "inner",
  "varByte": -3, "varDecimal": "12.25", "varDouble": 6.5, "varDateTime": "2024-01-02T03:04:05Z"},
  "varEnum": "GREEN"}]}, "id": 7})";

double ms(clock_type::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

}  // namespace

int main(int argc, char** argv) {
  std::string wsdl, address, load;
  double seconds = 5;
  unsigned loads = 5;
  lather::tools::command_line cli{"lather-bench-dynamic",
                                  "lather::dynamic_client calls/s against lather-perf-server "
                                  "(--address) and contract load time (--load)."};
  cli.add_option("--wsdl", wsdl, "perf.wsdl (for --address)")->type_name("FILE");
  cli.add_option("--address", address, "lather-perf-server's /perf URL")->type_name("URL");
  cli.add_option("--seconds", seconds, "timed window of the calls (default 5)")->type_name("S");
  cli.add_option("--load", load, "a WSDL to load --loads times")->type_name("FILE");
  cli.add_option("--loads", loads, "loads of --load (default 5)")->type_name("N");
  cli.parse_or_exit(argc, argv);
  if (!address.empty() && wsdl.empty()) cli.fail("--address needs --wsdl");
  try {
    if (!address.empty()) {
      lather::dynamic::client_options o;
      o.address = address;
      lather::dynamic_client c{wsdl, o};
      const lather::dynamic::operation_info& op = c.find("echoComplexTypeDoc");
      const lather::dynamic::value in = lather::dynamic::value::from_json(request_json);
      // Warm-up, and the check that the echo comes back whole.
      const auto first = c.call(op, in);
      if (!first.problems.empty() ||
          first.body.find("return")->to_json() != in.find("in")->to_json()) {
        std::fprintf(stderr, "lather-bench-dynamic: the echo differs from the request\n");
        return 1;
      }
      // The engine alone, no network: the request written and the echo read, CPU time.
      {
        const std::string answer = first.envelope;
        const int rounds = 2000;
        const std::clock_t cpu = std::clock();
        for (int i = 0; i < rounds; ++i) {
          const std::string request = c.request(op, in);
          const auto r = c.read_response(op, answer);
          if (request.empty() || r.body.is_null()) return 1;
        }
        std::printf("RESULT engine=lather-dynamic write_read_us=%.1f\n",
                    1e6 * double(std::clock() - cpu) / CLOCKS_PER_SEC / rounds);
      }
      std::uint64_t calls = 0;
      const auto start = clock_type::now();
      const auto end = start + std::chrono::duration_cast<clock_type::duration>(
                                   std::chrono::duration<double>(seconds));
      auto now = start;
      while (now < end) {
        c.call(op, in);
        ++calls;
        now = clock_type::now();
      }
      const double elapsed = std::chrono::duration<double>(now - start).count();
      std::printf(
          "RESULT engine=lather-dynamic calls=%llu seconds=%.2f calls_per_s=%.0f "
          "us_per_call=%.1f\n",
          static_cast<unsigned long long>(calls), elapsed, calls / elapsed, 1e6 * elapsed / calls);
    }
    if (!load.empty()) {
      std::vector<double> times, cpu_times;
      std::size_t operations = 0;
      for (unsigned i = 0; i < loads; ++i) {
        const auto start = clock_type::now();
        const std::clock_t cpu = std::clock();
        lather::dynamic_client c{load};
        operations = c.operations().size();
        times.push_back(ms(clock_type::now() - start));
        cpu_times.push_back(1e3 * double(std::clock() - cpu) / CLOCKS_PER_SEC);
      }
      std::sort(times.begin(), times.end());
      std::sort(cpu_times.begin(), cpu_times.end());
      std::printf(
          "RESULT engine=lather-dynamic load_ms=%.1f load_cpu_ms=%.1f loads=%u operations=%zu\n",
          times[times.size() / 2], cpu_times[cpu_times.size() / 2], loads, operations);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lather-bench-dynamic: %s\n", e.what());
    return 1;
  }
  return 0;
}
