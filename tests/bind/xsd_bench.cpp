// Micro benchmarks of the simple-type codecs (not a test: run build/bin/bind_xsd_bench).
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "lather/bind/xsd.hpp"

namespace {

using namespace lather;

std::vector<std::uint8_t> random_bytes(std::size_t n) {
  std::mt19937_64 rng(1);
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

void base64_encode(benchmark::State& state) {
  const auto data = random_bytes(static_cast<std::size_t>(state.range(0)));
  const auto level = static_cast<xsd::simd_level>(state.range(1));
  std::string out;
  for (auto _ : state) {
    out.clear();
    xsd::base64_encode(data, out, level);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * data.size()));
}

void base64_decode(benchmark::State& state) {
  const auto data = random_bytes(static_cast<std::size_t>(state.range(0)));
  const auto level = static_cast<xsd::simd_level>(state.range(1));
  std::string text;
  xsd::base64_encode(data, text);
  std::vector<std::uint8_t> out;
  for (auto _ : state) {
    benchmark::DoNotOptimize(xsd::base64_decode(text, out, level));
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

// MIME-style input (CRLF every 76 characters): whitespace forces scalar stretches.
void base64_decode_mime(benchmark::State& state) {
  const auto data = random_bytes(static_cast<std::size_t>(state.range(0)));
  const auto level = static_cast<xsd::simd_level>(state.range(1));
  std::string plain, text;
  xsd::base64_encode(data, plain);
  for (std::size_t i = 0; i < plain.size(); i += 76)
    text.append(plain.substr(i, 76)).append("\r\n");
  std::vector<std::uint8_t> out;
  for (auto _ : state) {
    benchmark::DoNotOptimize(xsd::base64_decode(text, out, level));
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

void hex_encode(benchmark::State& state) {
  const auto data = random_bytes(static_cast<std::size_t>(state.range(0)));
  const auto level = static_cast<xsd::simd_level>(state.range(1));
  std::string out;
  for (auto _ : state) {
    out.clear();
    xsd::hex_encode(data, out, level);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * data.size()));
}

void hex_decode(benchmark::State& state) {
  const auto data = random_bytes(static_cast<std::size_t>(state.range(0)));
  const auto level = static_cast<xsd::simd_level>(state.range(1));
  std::string text;
  xsd::hex_encode(data, text);
  std::vector<std::uint8_t> out;
  for (auto _ : state) {
    benchmark::DoNotOptimize(xsd::hex_decode(text, out, level));
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

// Levels: 1 scalar, 2 ssse3, 3 avx2; sizes: the CXF item's 256 bytes and 1 MiB.
void binary_args(benchmark::internal::Benchmark* b) {
  for (int size : {256, 1 << 20})
    for (int level : {1, 2, 3}) b->Args({size, level});
}
BENCHMARK(base64_encode)->Apply(binary_args);
BENCHMARK(base64_decode)->Apply(binary_args);
BENCHMARK(base64_decode_mime)->Apply(binary_args);
BENCHMARK(hex_encode)->Apply(binary_args);
BENCHMARK(hex_decode)->Apply(binary_args);

template <class T>
void parse_value(benchmark::State& state, std::string_view text) {
  T value{};
  for (auto _ : state) {
    benchmark::DoNotOptimize(bind::xsd_traits<T>::parse(text, value));
    benchmark::DoNotOptimize(&value);
  }
}

template <class T>
void format_value(benchmark::State& state, T value) {
  std::string out;
  for (auto _ : state) {
    out.clear();
    bind::xsd_traits<T>::format(value, out);
    benchmark::DoNotOptimize(out.data());
  }
}

void parse_int(benchmark::State& s) {
  parse_value<std::int32_t>(s, "-1234567");
}
BENCHMARK(parse_int);
void parse_unsignedLong(benchmark::State& s) {
  parse_value<std::uint64_t>(s, "18446744073709551615");
}
BENCHMARK(parse_unsignedLong);
void parse_float(benchmark::State& s) {
  parse_value<float>(s, "3.4028235E38");
}
BENCHMARK(parse_float);
void parse_double(benchmark::State& s) {
  parse_value<double>(s, "1.7976931348623157E308");
}
BENCHMARK(parse_double);
void parse_decimal(benchmark::State& s) {
  parse_value<xsd::decimal>(s, "12345678901234567890.123456789");
}
BENCHMARK(parse_decimal);
void parse_dateTime(benchmark::State& s) {
  parse_value<xsd::date_time>(s, "2024-02-29T12:34:56.789+05:30");
}
BENCHMARK(parse_dateTime);
void format_int(benchmark::State& s) {
  format_value<std::int32_t>(s, -1234567);
}
BENCHMARK(format_int);
void format_unsignedLong(benchmark::State& s) {
  format_value<std::uint64_t>(s, 18446744073709551615u);
}
BENCHMARK(format_unsignedLong);
void format_float(benchmark::State& s) {
  format_value<float>(s, 3.4028235e38f);
}
BENCHMARK(format_float);
void format_double(benchmark::State& s) {
  format_value<double>(s, 1.7976931348623157e308);
}
BENCHMARK(format_double);

}  // namespace
