// A UsernameToken (PasswordDigest, Nonce, Created) costs no heap allocation per call once warm,
// on the server (token read, digest checked, replay cache) and in the client (nonce, Created,
// digest written): lather's client and server in one process over one keep-alive connection,
// told apart by thread. OpenSSL allocates through its own functions, which the operator-new
// counter does not see, so they are counted too (installed before OpenSSL's first allocation).
#include <gtest/gtest.h>
#include <openssl/crypto.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "../support/alloc_counter.hpp"
#include "calc_types.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "lather/wsse.hpp"

namespace {

using namespace lather;

std::atomic<std::uint64_t> openssl_allocations{0};
thread_local std::uint64_t openssl_thread_allocations = 0;

void* counting_malloc(std::size_t n, const char*, int) {
  openssl_allocations.fetch_add(1, std::memory_order_relaxed);
  ++openssl_thread_allocations;
  return std::malloc(n);
}
void* counting_realloc(void* p, std::size_t n, const char*, int) {
  openssl_allocations.fetch_add(1, std::memory_order_relaxed);
  ++openssl_thread_allocations;
  return std::realloc(p, n);
}
void counting_free(void* p, const char*, int) {
  std::free(p);
}
// Before main: OpenSSL refuses new functions once it has allocated anything.
const bool openssl_counted =
    CRYPTO_set_mem_functions(counting_malloc, counting_realloc, counting_free) == 1;

constexpr int warm_up_calls = 400;
constexpr int counted_calls = 1000;

TEST(wsse_allocations, UsernameTokenDigestAllocatesNothingPerCallOnEitherSide) {
  service calc{"Calc", std::string(wsse_test::ns)};
  calc.operation("add", [](const wsse_test::add& in) {
    return wsse_test::addResponse{in.a + in.b, {}};
  });
  wsse::server_security sec{[](std::string_view user) -> std::optional<std::string> {
                              if (user == "alice") return "wonderland";
                              return std::nullopt;
                            },
                            {.username_token = true}};
  // Full after the warm-up: each call's nonce then takes the place of the oldest, as it does
  // in a server whose nonces expire as fast as they come.
  sec.set_replay_capacity(256);
  sec.install(calc);
  server srv{{.address = "127.0.0.1", .port = 0, .threads = 1}};
  srv.mount("/calc", calc);
  srv.start();
  client_options co;
  co.max_connections = 1;
  client c{"http://127.0.0.1:" + std::to_string(srv.port()) + "/calc", co};
  wsse::client_security{{.token = wsse::username_token{"alice", "wonderland"}}}.install(c);

  wsse_test::addResponse out;
  int failures = 0;
  auto call = [&](int i) {
    c.call("add", wsse_test::add{i, 1}, out);
    failures += out.result != i + 1;
  };
  for (int i = 0; i < warm_up_calls; ++i) call(i);
  const std::uint64_t all_before = test::allocations();
  const std::uint64_t client_before = test::thread_allocations();
  const std::uint64_t ssl_before = openssl_allocations.load();
  const std::uint64_t ssl_client_before = openssl_thread_allocations;
  for (int i = 0; i < counted_calls; ++i) call(i);
  const std::uint64_t client = test::thread_allocations() - client_before;
  const std::uint64_t server = test::allocations() - all_before - client;
  const std::uint64_t ssl_client = openssl_thread_allocations - ssl_client_before;
  const std::uint64_t ssl_server = openssl_allocations.load() - ssl_before - ssl_client;
  srv.stop();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(sec.replay_entries(), 256u);
  std::printf("per UsernameToken call: operator new server %.3f, client %.3f; OpenSSL "
              "allocations server %.3f, client %.3f%s\n",
              double(server) / counted_calls, double(client) / counted_calls,
              double(ssl_server) / counted_calls, double(ssl_client) / counted_calls,
              openssl_counted ? "" : " (OpenSSL's not counted: it allocated before main)");
  EXPECT_EQ(server, 0u);
  EXPECT_EQ(client, 0u);
  if (openssl_counted) {
    EXPECT_EQ(ssl_server, 0u);
    EXPECT_EQ(ssl_client, 0u);
  }
}

}  // namespace
