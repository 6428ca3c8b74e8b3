// A large MTOM upload and download through lather's client and server in bounded memory: the
// upload streams from a generator into a handler that checks each byte as it arrives
// (options::stream_parts), the download streams from a generator into the client's temporary
// file. The process's peak RSS may grow by less than 64 MiB whatever the size
// (LATHER_MTOM_BYTES: 64 MiB in the default run, 1 GiB in mtom_1gib_test, label long).
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "../support/sanitizer.hpp"
#include "lather/mtom.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"

namespace mtom_large {
constexpr std::string_view ns = "urn:lather:mtom-large";
struct put {
  lather::mtom::attachment data;
};
struct putResponse {
  std::uint64_t size = 0;
  bool intact = false;
};
struct get {
  std::uint64_t size = 0;
};
struct getResponse {
  lather::mtom::attachment data;
};
}  // namespace mtom_large

template <>
struct lather::meta<mtom_large::put> {
  static constexpr std::string_view name = "put", ns = mtom_large::ns;
  static constexpr auto fields = std::tuple{element("data", &mtom_large::put::data)};
};
template <>
struct lather::meta<mtom_large::putResponse> {
  static constexpr std::string_view name = "putResponse", ns = mtom_large::ns;
  static constexpr auto fields = std::tuple{element("size", &mtom_large::putResponse::size),
                                            element("intact", &mtom_large::putResponse::intact)};
};
template <>
struct lather::meta<mtom_large::get> {
  static constexpr std::string_view name = "get", ns = mtom_large::ns;
  static constexpr auto fields = std::tuple{element("size", &mtom_large::get::size)};
};
template <>
struct lather::meta<mtom_large::getResponse> {
  static constexpr std::string_view name = "getResponse", ns = mtom_large::ns;
  static constexpr auto fields = std::tuple{element("data", &mtom_large::getResponse::data)};
};

namespace {

using namespace lather;
using namespace mtom_large;

constexpr std::uint64_t total_bytes = LATHER_MTOM_BYTES;

// Byte p of the stream: the bytes of the 64-bit word p / 8 = (p / 8) * K.
void fill_pattern(char* dest, std::uint64_t at, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t p = at + i;
    dest[i] = static_cast<char>(((p / 8) * 0x9E3779B97F4A7C15ull) >> (8 * (p % 8)));
  }
}

// A generator of `size` pattern bytes.
byte_source pattern_source(std::uint64_t size) {
  auto at = std::make_shared<std::uint64_t>(0);
  return [at, size](char* dest, std::size_t n) {
    const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(n, size - *at));
    fill_pattern(dest, *at, k);
    *at += k;
    return k;
  };
}

// Reads `in` to its end; returns the byte count, and whether every byte was the pattern's.
std::pair<std::uint64_t, bool> drain_and_check(const byte_source& in) {
  std::vector<char> buf(1 << 16), expected(1 << 16);
  std::uint64_t at = 0;
  bool intact = true;
  while (std::size_t n = in(buf.data(), buf.size())) {
    fill_pattern(expected.data(), at, n);
    intact = intact && std::memcmp(buf.data(), expected.data(), n) == 0;
    at += n;
  }
  return {at, intact};
}

long peak_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

TEST(mtom_large, upload_and_download_in_bounded_memory) {
  service svc{"Large", std::string(ns)};
  svc.operation("put", [](const put& in) {
    auto [size, intact] = drain_and_check(in.data.open());
    return putResponse{size, intact};
  });
  svc.operation("get", [](const get& in) {
    return getResponse{mtom::attachment::from_stream(pattern_source(in.size), in.size)};
  });
  mtom::options receive;
  receive.stream_parts = true;
  mtom::enable(svc, receive);
  http::server_options http_options;
  http_options.body_limit = 4ull << 30;
  server srv{http_options};
  srv.mount("/large", svc);
  srv.start();

  client c{"http://127.0.0.1:" + std::to_string(srv.port()) + "/large"};
  mtom::enable(c);
  // Warm: a small call each way, so the measurement sees only what grows with the size.
  ASSERT_TRUE(
      c.call<putResponse>("put", put{mtom::attachment::from_stream(pattern_source(5000))}).intact);
  ASSERT_EQ(c.call<getResponse>("get", get{5000}).data.size(), 5000u);
  const long before = peak_rss_kib();

  auto started = std::chrono::steady_clock::now();
  const putResponse up = c.call<putResponse>(
      "put", put{mtom::attachment::from_stream(pattern_source(total_bytes), total_bytes)});
  const double up_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(up.size, total_bytes);
  EXPECT_TRUE(up.intact);

  started = std::chrono::steady_clock::now();
  getResponse down = c.call<getResponse>("get", get{total_bytes});
  ASSERT_EQ(down.data.size(), total_bytes);
  EXPECT_FALSE(down.data.file_path().empty());  // past memory_threshold: a temporary file
  auto [size, intact] = drain_and_check(down.data.open());
  const double down_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(size, total_bytes);
  EXPECT_TRUE(intact);

  // The same download taken as it arrives (on_response_part): no file, no copy in memory.
  std::pair<std::uint64_t, bool> streamed{0, false};
  mtom::options take;
  take.on_response_part = [&](std::string_view, std::string_view, const byte_source& in) {
    streamed = drain_and_check(in);
  };
  client streaming{"http://127.0.0.1:" + std::to_string(srv.port()) + "/large"};
  mtom::enable(streaming, take);
  started = std::chrono::steady_clock::now();
  const getResponse taken = streaming.call<getResponse>("get", get{total_bytes});
  const double streamed_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(streamed.first, total_bytes);
  EXPECT_TRUE(streamed.second);
  EXPECT_TRUE(taken.data.file_path().empty());

  const long growth_kib = peak_rss_kib() - before;
  std::printf(
      "mtom %llu MiB: upload %.0f MB/s, download (to a file, then read) %.0f MB/s, download "
      "taken as it arrives %.0f MB/s, peak RSS growth %ld KiB\n",
      static_cast<unsigned long long>(total_bytes >> 20), total_bytes / up_s / 1e6,
      total_bytes / down_s / 1e6, total_bytes / streamed_s / 1e6, growth_kib);
  if (!lather::test::sanitized_memory) {  // the RSS holds the sanitizer's shadow and caches
    EXPECT_LT(growth_kib, 64 * 1024);
  }
  srv.stop();
}

}  // namespace
