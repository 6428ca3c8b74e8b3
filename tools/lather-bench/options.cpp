#include "options.hpp"

#include <charconv>
#include <stdexcept>
#include <string>

#include "command_line.hpp"

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

options parse_options(int argc, char** argv) {
  options o;
  tools::command_line cli{
      "lather-bench",
      "Calls a server of the CXF performance contract (perf.wsdl) the way CXF's harness does and\n"
      "prints its result block. Exit status: 0 when every call succeeded, 1 when some failed,\n"
      "2 on usage or setup errors."};
  std::string threads = "1", chunking;
  cli.add_option("--url", o.url, "endpoint, e.g. http://127.0.0.1:8080/perf")
      ->type_name("URL")
      ->required();
  cli.add_option("--operation", o.run.operation,
                 "echoComplexTypeDoc (default) | echoStringDoc | echoBase64Doc")
      ->type_name("OP");
  cli.add_option("--threads", threads, "e.g. 16 or 1,8,16-32: one timed run per count (default 1)")
      ->type_name("LIST");
  auto* time =
      cli.add_option("--time", o.run.seconds, "timed window per run (default 30 unless --count)")
          ->type_name("SECONDS");
  cli.add_option("--count", o.run.count, "calls per thread instead of a time window")
      ->type_name("N");
  cli.add_option("--packet-size", o.packet_size, "items per request, CXF's PacketSize (default 1)")
      ->type_name("N");
  cli.add_option("--warmup", o.run.warmup_seconds,
                 "global warm-up, 4 threads (default 5; CXF uses 30 s + 1200 calls)")
      ->type_name("SECONDS");
  cli.add_option("--warmup-calls", o.run.warmup_min_calls,
                 "and at least N calls per warm-up thread (default 0)")
      ->type_name("N");
  cli.add_option("--guard-calls", o.run.guard_calls,
                 "untimed calls before/after each thread's window (default 25)")
      ->type_name("N");
  cli.add_option("--windows", o.run.windows,
                 "with --count: time R consecutive windows of N calls per thread\n"
                 "on the same connection (default 1); --json lists each window")
      ->type_name("R");
  cli.add_option("--splits", o.split.calls,
                 "the 2002 Axis table in one process: --items sent as C calls of\n"
                 "items/C, for each C in LIST (e.g. 1,2,4,1000), each on its own\n"
                 "connection; --windows R cycles each time one window of every\n"
                 "split, interleaved (one thread; no --count/--time;\n"
                 "echoComplexTypeDoc only: a split's calls send distinct slices\n"
                 "of the items, and its echoes are verified after each window)")
      ->type_name("LIST")
      ->delimiter(',')
      ->allow_extra_args(false);
  cli.add_option("--items", o.split.items, "items per window with --splits (default 1000)")
      ->type_name("N");
  cli.add_option("--client-threads", o.run.client_threads,
                 "run the clients as fibers on T threads (default 0: one OS\n"
                 "thread per client, as CXF); each keeps its own connection")
      ->type_name("T");
  cli.add_option("--chunking-threshold", chunking, "request body framing (default 4096)")
      ->type_name("N|never");
  cli.add_flag("--soap12", o.soap12, "send SOAP 1.2 instead of 1.1");
  cli.add_option("--timeout", o.timeout_s, "per-call timeout (default 30)")->type_name("SECONDS");
  cli.add_option("--spin-us", o.spin_us,
                 "poll for each answer up to US microseconds before sleeping\n"
                 "(adaptive; 0 = sleep at once; default 200; not with\n"
                 "--client-threads, whose event loop waits)")
      ->type_name("US");
  cli.add_option("--receive-buffer", o.receive_buffer,
                 "each connection's kernel receive buffer (default 4194304 when\n"
                 "net.core.rmem_max allows it; 0 = the kernel's autotuning)")
      ->type_name("BYTES");
  cli.add_option("--ca", o.ca_file,
                 "https: verify the server against this CA (default: the\n"
                 "system's)")
      ->type_name("FILE");
  cli.add_flag("--insecure", o.insecure, "https: do not verify the server");
  cli.add_flag("--new-connections", o.new_connections,
               "every call on a new connection (https: a TLS handshake per call;\n"
               "resumed unless --no-resume)");
  cli.add_flag_callback(
      "--no-resume", [&o] { o.resume = false; },
      "https: no TLS session resumption (every handshake a full one)");
  cli.add_option("--wait-ready", o.wait_ready_s,
                 "poll the URL until it answers before starting (default 0)")
      ->type_name("SECONDS");
  cli.add_flag_callback(
      "--no-verify", [&o] { o.verify = false; },
      "do not compare echoed payloads (ids are always checked)");
  cli.add_flag("--generated", o.generated,
               "echoComplexTypeDoc through the client proxy generated from perf.wsdl\n"
               "(lather-wsdl2cpp) instead of the hand-written types");
  cli.add_flag("--json", o.run.json, "one JSON object per run instead of the text block");
  cli.add_flag_callback(
      "--no-progress", [&o] { o.progress = false; }, "no live progress line");
  cli.parse_or_exit(argc, argv);

  try {
    o.run.thread_counts = parse_thread_list(threads);
  } catch (const std::invalid_argument& e) {
    cli.fail(e.what());
  }
  o.chunking_never = cli.bytes_or_never("--chunking-threshold", chunking, o.chunking_threshold);
  const bool time_given = time->count() > 0;
  if (o.run.operation != "echoComplexTypeDoc" && o.run.operation != "echoStringDoc" &&
      o.run.operation != "echoBase64Doc")
    cli.fail("unknown --operation '" + o.run.operation + "'");
  if (o.packet_size == 0) cli.fail("--packet-size must be >= 1");
  if (o.generated && o.run.operation != "echoComplexTypeDoc")
    cli.fail("--generated calls echoComplexTypeDoc only");
  if (!o.split.calls.empty()) {
    if (o.run.count > 0 || time_given)
      cli.fail("--splits times windows of its own calls: no --count or --time");
    if (o.run.thread_counts != std::vector<unsigned>{1} || o.run.client_threads > 0)
      cli.fail("--splits runs one client thread");
    if (o.run.operation != "echoComplexTypeDoc" || o.generated)
      cli.fail("--splits sends items: echoComplexTypeDoc only, hand-written types");
    for (unsigned c : o.split.calls)
      if (c == 0 || o.split.items % c != 0)
        cli.fail("--splits: " + std::to_string(c) + " does not divide --items " +
                 std::to_string(o.split.items));
    if (o.run.windows == 0) cli.fail("--windows must be >= 1");
    o.run.progress = false;
    return o;
  }
  if (o.run.count > 0 && time_given) cli.fail("give --time or --count, not both");
  if (o.run.count == 0 && !time_given) o.run.seconds = 30;
  if (o.run.count == 0 && o.run.seconds <= 0) cli.fail("--time must be > 0");
  if (o.run.windows == 0) cli.fail("--windows must be >= 1");
  if (o.run.windows > 1 && o.run.count == 0)
    cli.fail("--windows needs --count (windows of N calls)");
  o.run.progress = o.progress && !o.run.json;
  return o;
}

}  // namespace lather::bench
