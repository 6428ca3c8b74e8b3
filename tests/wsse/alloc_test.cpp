// A UsernameToken (PasswordDigest, Nonce, Created) costs no heap allocation per call once warm,
// on the server (token read, digest checked, replay cache) and in the client (nonce, Created,
// digest written), and a signed call (request and response, each signed and verified) no
// operator new on either side: lather's client and server in one process over one keep-alive
// connection, told apart by thread. OpenSSL allocates through its own functions, which the
// operator-new counter does not see, so they are counted too (installed before OpenSSL's first
// allocation).
//
// Built twice: wsse_alloc_test counts OpenSSL's allocations with malloc behind them;
// wsse_openssl_cache_test (LATHER_OPENSSL_CACHE) installs lather::wsse's OpenSSL cache
// (lather/wsse/openssl_cache.hpp) instead and counts what still reaches malloc: nothing per
// signed call once warm, on either side.
#include <gtest/gtest.h>
#include <openssl/crypto.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "../support/alloc_counter.hpp"
#include "../support/process.hpp"
#include "calc_types.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "lather/wsse.hpp"
#include "lather/wsse/openssl_cache.hpp"
#include "test_certs.hpp"

namespace {

using namespace lather;

#ifdef LATHER_OPENSSL_CACHE
// Before main, as OpenSSL requires; OpenSSL's requests are then served by the cache.
const bool openssl_counted = wsse::install_openssl_cache();
// What reaches malloc (both sides together) and this thread's requests.
std::uint64_t openssl_all() {
  return wsse::openssl_cache_system_allocations();
}
std::uint64_t openssl_mine() {
  return 0;
}
#else
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
std::uint64_t openssl_all() {
  return openssl_allocations.load();
}
std::uint64_t openssl_mine() {
  return openssl_thread_allocations;
}
#endif

// Allocations per call, each side's: operator new and OpenSSL's.
struct per_call {
  double server, client, ssl_server, ssl_client;
};

// `sec` and `csec` installed on a Calc service and a client over one loopback keep-alive
// connection (a server thread, the calling thread as client); `warm` calls, then `counted`
// calls whose allocations are counted, the calling (client) thread's apart from the others'
// (the server's). Every call must answer right.
per_call count_allocations(wsse::server_security& sec, const wsse::client_security& csec, int warm,
                           int counted) {
  service calc{"Calc", std::string(wsse_test::ns)};
  calc.operation("add", [](const wsse_test::add& in) {
    return wsse_test::addResponse{in.a + in.b, {}};
  });
  sec.install(calc);
  // A reserved test port: the server's count is every thread's but the client's, so no other
  // process may connect to it (tests/support/process.hpp).
  server srv{{.address = "127.0.0.1",
              .port = static_cast<std::uint16_t>(test::free_port()),
              .threads = 1}};
  srv.mount("/calc", calc);
  srv.start();
  client_options co;
  co.max_connections = 1;
  client c{"http://127.0.0.1:" + std::to_string(srv.port()) + "/calc", co};
  csec.install(c);
  wsse_test::addResponse out;
  int failures = 0;
  auto call = [&](int i) {
    c.call("add", wsse_test::add{i, 1}, out);
    failures += out.result != i + 1;
  };
  for (int i = 0; i < warm; ++i) call(i);
  const std::uint64_t all = test::allocations(), mine = test::thread_allocations();
  const std::uint64_t ssl_all = openssl_all(), ssl_mine = openssl_mine();
  const std::uint64_t requests = wsse::openssl_cache_thread_requests();
  for (int i = 0; i < counted; ++i) call(i);
  const std::uint64_t client = test::thread_allocations() - mine;
  const std::uint64_t ssl_client = openssl_mine() - ssl_mine;
  const std::uint64_t server = test::allocations() - all - client;
  const std::uint64_t ssl_server = openssl_all() - ssl_all - ssl_client;
  if (wsse::openssl_cache_installed())
    std::printf("OpenSSL requests served by the cache per call, client side: %.1f\n",
                double(wsse::openssl_cache_thread_requests() - requests) / counted);
  srv.stop();
  EXPECT_EQ(failures, 0);
  const double n = counted;
  return {double(server) / n, double(client) / n, double(ssl_server) / n, double(ssl_client) / n};
}

void print(const char* what, const per_call& a) {
  std::printf("per %s: operator new server %.3f, client %.3f; ", what, a.server, a.client);
  if (!openssl_counted)
    std::printf("OpenSSL's allocations not counted: it allocated before main\n");
  else if (wsse::openssl_cache_installed())
    std::printf("OpenSSL allocations reaching malloc, both sides %.3f\n", a.ssl_server);
  else
    std::printf("OpenSSL allocations server %.3f, client %.3f\n", a.ssl_server, a.ssl_client);
}

TEST(wsse_allocations, UsernameTokenDigestAllocatesNothingPerCallOnEitherSide) {
  wsse::server_security sec{[](std::string_view user) -> std::optional<std::string> {
                              if (user == "alice") return "wonderland";
                              return std::nullopt;
                            },
                            {.username_token = true}};
  // Full after the warm-up: each call's nonce then takes the place of the oldest, as it does
  // in a server whose nonces expire as fast as they come.
  sec.set_replay_capacity(256);
  const per_call a = count_allocations(
      sec, wsse::client_security{{.token = wsse::username_token{"alice", "wonderland"}}}, 400,
      1000);
  print("UsernameToken call", a);
  EXPECT_EQ(sec.replay_entries(), 256u);
  EXPECT_EQ(a.server, 0);
  EXPECT_EQ(a.client, 0);
  if (openssl_counted) {
    EXPECT_EQ(a.ssl_server, 0);
    EXPECT_EQ(a.ssl_client, 0);
  }
}

// A signed request (Body and Timestamp, RSA-SHA256, BinarySecurityToken) verified by the
// server, and a signed response verified by the client: sign, verify, both sides.
TEST(wsse_allocations, SignedCallMakesNoOperatorNewPerCallOnEitherSide) {
  std::string log;
  const std::filesystem::path dir = wsse_test::make_certificates(log);
  ASSERT_FALSE(dir.empty()) << log;
  const wsse::signing key{wsse::credentials::from_files(dir / "signer.key", dir / "signer.pem")};
  wsse::trust_store trusted;
  trusted.add_file(dir / "ca.pem");
  wsse::server_policy sp;
  sp.signature = true;
  sp.timestamp = true;
  sp.sign_response = key;
  wsse::server_security sec{[](std::string_view) { return std::optional<std::string>{}; }, sp};
  sec.set_trust_store(trusted);
  wsse::client_policy cp;
  cp.timestamp = true;
  cp.sign = key;
  cp.verify_response = wsse::response_verification{trusted};
  const per_call a = count_allocations(sec, wsse::client_security{cp}, 200, 200);
  print("signed call", a);
  EXPECT_EQ(a.server, 0);
  EXPECT_EQ(a.client, 0);
  // OpenSSL 3's RSA allocates its big-number context in each private (sign) and public
  // (verify) operation, whatever the caller keeps (about 32 allocations a side per call); the
  // rest of the signed path (digests, certificate parsing and chain checks, the signing and
  // verifying contexts) allocates nothing once warm. Before, 1,630 a side per call.
  if (!openssl_counted) return;
#ifdef LATHER_OPENSSL_CACHE
  // With the cache, none of those reaches malloc (ssl_server: both sides together).
  EXPECT_EQ(a.ssl_server, 0);
#else
  EXPECT_LT(a.ssl_server, 40);
  EXPECT_LT(a.ssl_client, 40);
#endif
}

}  // namespace
