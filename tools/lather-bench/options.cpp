#include "options.hpp"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace lather::bench {
namespace {

template <class T>
T parse_number(std::string_view text, const char* what) {
  T value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size())
    throw std::invalid_argument(std::string("bad ") + what + ": '" + std::string(text) + "'");
  return value;
}

}  // namespace

std::vector<unsigned> parse_thread_list(std::string_view spec) {
  // CXF's -Threads syntax: "1-4,6,8,10".
  std::vector<unsigned> out;
  while (!spec.empty()) {
    auto comma = spec.find(',');
    std::string_view item = spec.substr(0, comma);
    spec = comma == std::string_view::npos ? std::string_view{} : spec.substr(comma + 1);
    auto dash = item.find('-');
    if (dash == std::string_view::npos) {
      out.push_back(parse_number<unsigned>(item, "thread count"));
    } else {
      auto lo = parse_number<unsigned>(item.substr(0, dash), "thread range");
      auto hi = parse_number<unsigned>(item.substr(dash + 1), "thread range");
      if (lo > hi) throw std::invalid_argument("bad thread range: '" + std::string(item) + "'");
      for (unsigned t = lo; t <= hi; ++t) out.push_back(t);
    }
  }
  for (unsigned t : out)
    if (t == 0 || t > 100000) throw std::invalid_argument("thread counts must be 1..100000");
  if (out.empty()) throw std::invalid_argument("empty --threads");
  return out;
}

const char* usage() {
  return R"(usage: lather-bench --url URL [options]
Calls a server of the CXF performance contract (perf.wsdl) the way CXF's harness does and
prints its result block.
  --url URL                 endpoint, e.g. http://127.0.0.1:8080/perf (required)
  --operation OP            echoComplexTypeDoc (default) | echoStringDoc | echoBase64Doc
  --threads LIST            e.g. 16 or 1,8,16-32: one timed run per count (default 1)
  --time SECONDS            timed window per run (default 30 unless --count)
  --count N                 calls per thread instead of a time window
  --packet-size N           items per request, CXF's PacketSize (default 1)
  --warmup SECONDS          global warm-up, 4 threads (default 5; CXF uses 30 s + 1200 calls)
  --warmup-calls N          and at least N calls per warm-up thread (default 0)
  --guard-calls N           untimed calls before/after each thread's window (default 25)
  --windows R               with --count: time R consecutive windows of N calls per thread
                            on the same connection (default 1); --json lists each window
  --splits LIST             the 2002 Axis table in one process: --items sent as C calls of
                            items/C, for each C in LIST (e.g. 1,2,4,1000), each on its own
                            connection; --windows R cycles each time one window of every
                            split, interleaved (one thread; no --count/--time;
                            echoComplexTypeDoc only: a split's calls send distinct slices
                            of the items, and its echoes are verified after each window)
  --items N                 items per window with --splits (default 1000)
  --client-threads T        run the clients as fibers on T threads (default 0: one OS
                            thread per client, as CXF); each keeps its own connection
  --chunking-threshold N|never   request body framing (default 4096)
  --soap12                  send SOAP 1.2 instead of 1.1
  --timeout SECONDS         per-call timeout (default 30)
  --spin-us US              poll for each answer up to US microseconds before sleeping
                            (adaptive; 0 = sleep at once; default 200; not with
                            --client-threads, whose event loop waits)
  --receive-buffer BYTES    each connection's kernel receive buffer (default 4194304 when
                            net.core.rmem_max allows it; 0 = the kernel's autotuning)
  --wait-ready SECONDS      poll the URL until it answers before starting (default 0)
  --no-verify               do not compare echoed payloads (ids are always checked)
  --json                    one JSON object per run instead of the text block
  --no-progress             no live progress line
Exit status: 0 when every call succeeded, 1 when some failed, 2 on usage or setup errors.
)";
}

options parse_options(int argc, char** argv) {
  options o;
  bool time_given = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    auto value = [&]() -> std::string_view {
      if (i + 1 >= argc) throw std::invalid_argument(std::string(arg) + " needs a value");
      return argv[++i];
    };
    if (arg == "--url") o.url = value();
    else if (arg == "--operation") o.run.operation = value();
    else if (arg == "--threads") o.run.thread_counts = parse_thread_list(value());
    else if (arg == "--time") { o.run.seconds = parse_number<double>(value(), "--time"); time_given = true; }
    else if (arg == "--count") o.run.count = parse_number<std::uint64_t>(value(), "--count");
    else if (arg == "--packet-size") o.packet_size = parse_number<unsigned>(value(), "--packet-size");
    else if (arg == "--warmup") o.run.warmup_seconds = parse_number<double>(value(), "--warmup");
    else if (arg == "--warmup-calls") o.run.warmup_min_calls = parse_number<std::uint64_t>(value(), "--warmup-calls");
    else if (arg == "--guard-calls") o.run.guard_calls = parse_number<unsigned>(value(), "--guard-calls");
    else if (arg == "--splits") {
      for (std::string_view list = value(); !list.empty();) {
        const auto comma = list.find(',');
        o.split.calls.push_back(parse_number<unsigned>(list.substr(0, comma), "--splits"));
        list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
      }
    }
    else if (arg == "--items") o.split.items = parse_number<unsigned>(value(), "--items");
    else if (arg == "--windows") o.run.windows = parse_number<unsigned>(value(), "--windows");
    else if (arg == "--client-threads") o.run.client_threads = parse_number<unsigned>(value(), "--client-threads");
    else if (arg == "--chunking-threshold") {
      auto v = value();
      if (v == "never") o.chunking_never = true;
      else o.chunking_threshold = parse_number<std::size_t>(v, "--chunking-threshold");
    }
    else if (arg == "--soap12") o.soap12 = true;
    else if (arg == "--timeout") o.timeout_s = parse_number<double>(value(), "--timeout");
    else if (arg == "--spin-us") o.spin_us = parse_number<long>(value(), "--spin-us");
    else if (arg == "--receive-buffer") o.receive_buffer = parse_number<long>(value(), "--receive-buffer");
    else if (arg == "--wait-ready") o.wait_ready_s = parse_number<double>(value(), "--wait-ready");
    else if (arg == "--no-verify") o.verify = false;
    else if (arg == "--json") o.run.json = true;
    else if (arg == "--no-progress") o.progress = false;
    else if (arg == "--help" || arg == "-h") { std::fputs(usage(), stdout); std::exit(0); }
    else throw std::invalid_argument("unknown option '" + std::string(arg) + "'");
  }
  if (o.url.empty()) throw std::invalid_argument("--url is required");
  if (o.run.operation != "echoComplexTypeDoc" && o.run.operation != "echoStringDoc" &&
      o.run.operation != "echoBase64Doc")
    throw std::invalid_argument("unknown --operation '" + o.run.operation + "'");
  if (o.packet_size == 0) throw std::invalid_argument("--packet-size must be >= 1");
  if (!o.split.calls.empty()) {
    if (o.run.count > 0 || time_given)
      throw std::invalid_argument("--splits times windows of its own calls: no --count or --time");
    if (o.run.thread_counts != std::vector<unsigned>{1} || o.run.client_threads > 0)
      throw std::invalid_argument("--splits runs one client thread");
    if (o.run.operation != "echoComplexTypeDoc")
      throw std::invalid_argument("--splits sends items: echoComplexTypeDoc only");
    for (unsigned c : o.split.calls)
      if (c == 0 || o.split.items % c != 0)
        throw std::invalid_argument("--splits: " + std::to_string(c) + " does not divide --items " +
                                    std::to_string(o.split.items));
    if (o.run.windows == 0) throw std::invalid_argument("--windows must be >= 1");
    o.run.progress = false;
    return o;
  }
  if (o.run.count > 0 && time_given) throw std::invalid_argument("give --time or --count, not both");
  if (o.run.count == 0 && !time_given) o.run.seconds = 30;
  if (o.run.count == 0 && o.run.seconds <= 0) throw std::invalid_argument("--time must be > 0");
  if (o.run.windows == 0) throw std::invalid_argument("--windows must be >= 1");
  if (o.run.windows > 1 && o.run.count == 0)
    throw std::invalid_argument("--windows needs --count (windows of N calls)");
  o.run.progress = o.progress && !o.run.json;
  return o;
}

}  // namespace lather::bench
