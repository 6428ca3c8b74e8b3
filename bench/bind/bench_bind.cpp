// lather-bench-bind: serialize + parse of the CXF echoComplexTypeDoc request (a
// NestedComplexTypeSeq of 1, 10, 100, 1000 items inside a SOAP 1.1 envelope), in memory,
// lather versus gSOAP 2.8 (when bench/gsoap is built). Reports ns per operation, MB/s of
// message text and heap allocations per operation (malloc level, so gSOAP's soap_malloc counts).
//
// Correctness first: before timing, every size is round-tripped by both stacks and checked,
// and gSOAP's envelope is read back by lather.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "alloc_hook.hpp"
#include "lather/bind/bind.hpp"
#include "lather/perf/types.hpp"
#if LATHER_BENCH_GSOAP
#include "gsoap_perf.hpp"
#endif

namespace {

using namespace lather;

constexpr std::string_view soap11_ns = "http://schemas.xmlsoap.org/soap/envelope/";
constexpr int sizes[] = {1, 10, 100, 1000};

/// lather's side: one writer, one reader and one destination, reused like a server would.
class lather_codec {
 public:
  explicit lather_codec(int items) : request_(perf::make_cxf_request(items, 1)), writer_(out_) {}

  std::string_view serialize() {
    out_.clear();
    writer_.reset();
    writer_.declare_namespace("soap", soap11_ns);
    writer_.start_element(soap11_ns, "Envelope");
    writer_.start_element(soap11_ns, "Body");
    bind::write(writer_, perf::types_ns, "echoComplexTypeDoc", request_);
    writer_.end_document();
    return out_.view();
  }

  /// Parse an envelope into the reused destination; true if it bound with `items` items.
  bool parse(std::string_view doc, int items) {
    reader_.reset(doc);
    if (!to_body_child()) return false;
    bind::error_info e = bind::read(reader_, received_, options_);
    if (e) {
      std::fprintf(stderr, "CHECK FAILED: %s\n", e.message.c_str());
      return false;
    }
    return received_.in.item.size() == static_cast<std::size_t>(items);
  }

  const perf::echoComplexTypeDoc& request() const { return request_; }
  const perf::echoComplexTypeDoc& received() const { return received_; }

 private:
  /// Advance to the first child of soap:Body.
  bool to_body_child() {
    bool in_body = false;
    for (xml::token t = reader_.next(); t != xml::token::end_document; t = reader_.next()) {
      if (t == xml::token::error || t == xml::token::need_more) return false;
      if (t != xml::token::start_element) continue;
      if (in_body) return true;
      if (reader_.is(soap11_ns, "Body")) in_body = true;
    }
    return false;
  }

  perf::echoComplexTypeDoc request_;
  perf::echoComplexTypeDoc received_;
  xml::output out_;
  xml::writer writer_;
  xml::reader reader_;
  bind::read_options options_;
};

void report(benchmark::State& state, std::size_t bytes, long allocs) {
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
  state.counters["allocs"] =
      benchmark::Counter(static_cast<double>(allocs), benchmark::Counter::kAvgIterations);
  state.counters["bytes"] = static_cast<double>(bytes);
}

void lather_roundtrip(benchmark::State& state) {
  const int items = static_cast<int>(state.range(0));
  lather_codec codec(items);
  std::size_t bytes = codec.serialize().size();
  codec.parse(codec.serialize(), items);  // warm: destination, reader and writer sized
  long before = bench::allocations();
  for (auto _ : state) {
    std::string_view doc = codec.serialize();
    bool ok = codec.parse(doc, items);
    benchmark::DoNotOptimize(ok);
  }
  report(state, bytes, bench::allocations() - before);
}

void lather_serialize(benchmark::State& state) {
  const int items = static_cast<int>(state.range(0));
  lather_codec codec(items);
  std::size_t bytes = codec.serialize().size();
  long before = bench::allocations();
  for (auto _ : state) benchmark::DoNotOptimize(codec.serialize().data());
  report(state, bytes, bench::allocations() - before);
}

void lather_parse(benchmark::State& state) {
  const int items = static_cast<int>(state.range(0));
  lather_codec codec(items);
  const std::string doc(codec.serialize());
  codec.parse(doc, items);
  long before = bench::allocations();
  for (auto _ : state) benchmark::DoNotOptimize(codec.parse(doc, items));
  report(state, doc.size(), bench::allocations() - before);
}

#if LATHER_BENCH_GSOAP
void gsoap_roundtrip(benchmark::State& state) {
  const int items = static_cast<int>(state.range(0));
  gsoap_perf_codec codec;
  std::size_t bytes = codec.serialize(items).size();
  codec.parse(codec.serialize(items), items);
  long before = bench::allocations();
  for (auto _ : state) {
    std::string_view doc = codec.serialize(items);
    bool ok = codec.parse(doc, items);
    benchmark::DoNotOptimize(ok);
  }
  report(state, bytes, bench::allocations() - before);
}

void gsoap_serialize(benchmark::State& state) {
  const int items = static_cast<int>(state.range(0));
  gsoap_perf_codec codec;
  std::size_t bytes = codec.serialize(items).size();
  long before = bench::allocations();
  for (auto _ : state) benchmark::DoNotOptimize(codec.serialize(items).data());
  report(state, bytes, bench::allocations() - before);
}

void gsoap_parse(benchmark::State& state) {
  const int items = static_cast<int>(state.range(0));
  gsoap_perf_codec codec;
  const std::string doc(codec.serialize(items));
  long before = bench::allocations();
  for (auto _ : state) benchmark::DoNotOptimize(codec.parse(doc, items));
  report(state, doc.size(), bench::allocations() - before);
}
#endif

/// Round-trip every size through each stack and across them before any timing.
bool check() {
  bool ok = true;
  for (int items : sizes) {
    lather_codec codec(items);
    std::string doc(codec.serialize());
    bool good = codec.parse(doc, items) && codec.received() == codec.request();
    std::printf("checked lather round trip, %d items (%zu bytes): %s\n", items, doc.size(),
                good ? "ok" : "FAILED");
    ok = ok && good;
#if LATHER_BENCH_GSOAP
    gsoap_perf_codec gsoap;
    std::string gdoc(gsoap.serialize(items));
    bool gsoap_good = gsoap.parse(gdoc, items) && gsoap.parse(doc, items);
    // gSOAP's envelope, read by lather, must give the CXF values too.
    bool cross = codec.parse(gdoc, items) && codec.received().in.item == codec.request().in.item;
    std::printf("checked gSOAP round trip, %d items (%zu bytes): %s; lather reads gSOAP: %s\n",
                items, gdoc.size(), gsoap_good ? "ok" : "FAILED", cross ? "ok" : "FAILED");
    ok = ok && gsoap_good && cross;
#endif
  }
  return ok;
}

void register_all() {
  for (int items : sizes) {
    benchmark::RegisterBenchmark("roundtrip/lather", lather_roundtrip)->Arg(items);
#if LATHER_BENCH_GSOAP
    benchmark::RegisterBenchmark("roundtrip/gsoap", gsoap_roundtrip)->Arg(items);
#endif
  }
  for (int items : sizes) {
    benchmark::RegisterBenchmark("serialize/lather", lather_serialize)->Arg(items);
    benchmark::RegisterBenchmark("parse/lather", lather_parse)->Arg(items);
#if LATHER_BENCH_GSOAP
    benchmark::RegisterBenchmark("serialize/gsoap", gsoap_serialize)->Arg(items);
    benchmark::RegisterBenchmark("parse/gsoap", gsoap_parse)->Arg(items);
#endif
  }
}

/// `n` round trips, nothing else: callgrind measures this function alone
/// (--toggle-collect='*count_roundtrips*'), so instructions per round trip = Ir / n.
template <class Codec>
[[gnu::noinline]] bool count_roundtrips(Codec& codec, int items, int n) {
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<Codec, lather_codec>)
      ok = codec.parse(codec.serialize(), items) && ok;
    else
      ok = codec.parse(codec.serialize(items), items) && ok;
  }
  return ok;
}

/// `n` serializations, nothing else (--toggle-collect='*count_serializes*'), so instructions
/// per message written = Ir / n.
template <class Codec>
[[gnu::noinline]] std::size_t count_serializes(Codec& codec, int items, int n) {
  std::size_t bytes = 0;
  for (int i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<Codec, lather_codec>)
      bytes += codec.serialize().size();
    else
      bytes += codec.serialize(items).size();
  }
  return bytes;
}

/// --count <lather|gsoap> <items> <n>: one warm-up round trip, then n in count_roundtrips.
/// --count-serialize <lather|gsoap> <items> <n>: one warm-up round trip, then n in
/// count_serializes.
int count_mode(std::string_view engine, int items, int n, bool serialize_only) {
  bool ok = false;
  if (serialize_only) {
    std::size_t bytes = 0;
    if (engine == "lather") {
      lather_codec codec(items);
      ok = codec.parse(codec.serialize(), items);
      bytes = count_serializes(codec, items, n);
    }
#if LATHER_BENCH_GSOAP
    if (engine == "gsoap") {
      gsoap_perf_codec codec;
      ok = codec.parse(codec.serialize(items), items);
      bytes = count_serializes(codec, items, n);
    }
#endif
    std::printf("%s %d items x %d serializations (%zu bytes each): %s\n",
                std::string(engine).c_str(), items, n, n > 0 ? bytes / n : 0, ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
  }
  if (engine == "lather") {
    lather_codec codec(items);
    ok = codec.parse(codec.serialize(), items) && count_roundtrips(codec, items, n);
  }
#if LATHER_BENCH_GSOAP
  if (engine == "gsoap") {
    gsoap_perf_codec codec;
    ok = codec.parse(codec.serialize(items), items) && count_roundtrips(codec, items, n);
  }
#endif
  std::printf("%s %d items x %d round trips: %s\n", std::string(engine).c_str(), items, n,
              ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}

/// Reads one SOAP envelope the way the server (stream: pulled from a source in 16 KiB reads)
/// or an in-memory caller (whole) does: to the Body child, then bind::read into the request or
/// response wrapper, whichever the child is.
class envelope_parser {
 public:
  envelope_parser(std::string doc, bool stream) : doc_(std::move(doc)), stream_(stream) {
    if (stream_)
      reader_.set_source([this](char* dest, std::size_t n) {
        n = std::min(n, std::min<std::size_t>(16384, doc_.size() - offset_));
        std::memcpy(dest, doc_.data() + offset_, n);
        offset_ += n;
        return n;
      });
  }

  /// True if the envelope bound (and named a known wrapper).
  bool parse() {
    if (stream_) {
      offset_ = 0;
      reader_.reset();
    } else {
      reader_.reset(doc_);
    }
    bool in_body = false;
    for (xml::token t = reader_.next(); t != xml::token::end_document; t = reader_.next()) {
      if (t == xml::token::error || t == xml::token::need_more) return false;
      if (t != xml::token::start_element) continue;
      if (!in_body) {
        in_body = reader_.is(soap11_ns, "Body");
        continue;
      }
      bind::error_info e = reader_.local_name() == "echoComplexTypeDocResponse"
                               ? bind::read(reader_, response_, options_)
                               : bind::read(reader_, request_, options_);
      if (e) std::fprintf(stderr, "CHECK FAILED: %s\n", e.message.c_str());
      return !e;
    }
    return false;
  }

 private:
  std::string doc_;
  bool stream_;
  std::size_t offset_ = 0;
  xml::reader reader_;
  perf::echoComplexTypeDoc request_;
  perf::echoComplexTypeDocResponse response_;
  bind::read_options options_;
};

[[gnu::noinline]] bool count_parses(envelope_parser& p, int n) {
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = p.parse() && ok;
  return ok;
}

/// --count-file <file | lather:ITEMS> <n> <whole|stream>: one warm-up parse, then n parses in
/// count_parses (callgrind: --toggle-collect='*count_parses*'). `lather:ITEMS` parses lather's
/// own serialization of an ITEMS-item request.
int count_file_mode(std::string_view source, int n, std::string_view mode) {
  std::string doc;
  if (source.starts_with("lather:")) {
    lather_codec codec(std::atoi(source.substr(7).data()));
    doc = codec.serialize();
  } else {
    std::FILE* f = std::fopen(std::string(source).c_str(), "rb");
    if (f == nullptr) {
      std::fprintf(stderr, "cannot open %s\n", std::string(source).c_str());
      return 1;
    }
    char buf[65536];
    for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, f)) > 0;) doc.append(buf, got);
    std::fclose(f);
  }
  envelope_parser p(doc, mode == "stream");
  bool ok = p.parse() && count_parses(p, n);
  std::printf("%s (%zu bytes) x %d %s parses: %s\n", std::string(source).c_str(), doc.size(), n,
              std::string(mode).c_str(), ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 5 &&
      (std::string_view(argv[1]) == "--count" || std::string_view(argv[1]) == "--count-serialize"))
    return count_mode(argv[2], std::atoi(argv[3]), std::atoi(argv[4]),
                      std::string_view(argv[1]) == "--count-serialize");
  if (argc == 5 && std::string_view(argv[1]) == "--count-file")
    return count_file_mode(argv[2], std::atoi(argv[3]), argv[4]);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  if (!check()) {
    std::fprintf(stderr, "CHECK FAILED: not timing a benchmark that gives wrong results\n");
    return 1;
  }
  register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
