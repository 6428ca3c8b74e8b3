// lather-bench-wss — calls per second of lather's client and server in one process over one
// loopback keep-alive connection, calling add(2, 3) for --seconds, with or without WS-Security:
//
//   lather-bench-wss --mode plain|digest|sign [--seconds S] [--certs DIR] [--openssl-cache on|off]
//
// digest: a UsernameToken with PasswordDigest, Nonce and Created on each request, checked by
// the server (replay cache included). sign: a Timestamp, and Body and Timestamp signed with
// RSA-SHA256 over exc-c14n with a BinarySecurityToken; the server verifies against DIR/ca.pem.
// DIR holds signer.key, signer.pem and ca.pem. The same calls as bench/gsoap's gsoap-wss-bench.
// --openssl-cache (default on): lather::wsse's OpenSSL cache (lather/wsse/openssl_cache.hpp),
// so that OpenSSL's ~30 allocations per RSA operation do not reach malloc; off: plain malloc,
// engine "lather-malloc".
// Output: "RESULT engine=lather mode=M calls_per_s=N failures=F".
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "lather/wsse.hpp"

namespace bench {
constexpr std::string_view ns = "urn:lather:wsse-bench";
struct add {
  int a = 0, b = 0;
};
struct addResponse {
  int result = 0;
};
}  // namespace bench

template <>
struct lather::meta<bench::add> {
  static constexpr std::string_view name = "add", ns = bench::ns;
  static constexpr auto fields =
      std::tuple{element("a", &bench::add::a), element("b", &bench::add::b)};
};
template <>
struct lather::meta<bench::addResponse> {
  static constexpr std::string_view name = "addResponse", ns = bench::ns;
  static constexpr auto fields = std::tuple{element("result", &bench::addResponse::result)};
};

int main(int argc, char** argv) {
  using namespace lather;
  std::string mode = "plain", certs = ".", openssl_cache = "on";
  double seconds = 3;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--mode")
      mode = value;
    else if (flag == "--seconds")
      seconds = std::stod(value);
    else if (flag == "--certs")
      certs = value;
    else if (flag == "--openssl-cache")
      openssl_cache = value;
  }
  if ((mode != "plain" && mode != "digest" && mode != "sign") ||
      (openssl_cache != "on" && openssl_cache != "off")) {
    std::fprintf(stderr,
                 "usage: lather-bench-wss --mode plain|digest|sign [--seconds S] "
                 "[--certs DIR] [--openssl-cache on|off]\n");
    return 2;
  }
  // Before anything makes OpenSSL allocate.
  if (openssl_cache == "on" && !wsse::install_openssl_cache()) {
    std::fprintf(stderr, "lather-bench-wss: OpenSSL allocated before main: no cache\n");
    return 1;
  }

  service calc{"calc", std::string(bench::ns)};
  calc.operation("add", [](const bench::add& in) { return bench::addResponse{in.a + in.b}; });
  wsse::server_policy required;
  required.username_token = mode == "digest";
  required.timestamp = required.signature = mode == "sign";
  wsse::server_security sec{[](std::string_view user) -> std::optional<std::string> {
                              if (user == "alice") return "wonderland";
                              return std::nullopt;
                            },
                            required};
  wsse::client_policy sent;
  if (mode == "digest") sent.token = wsse::username_token{"alice", "wonderland"};
  if (mode == "sign") {
    wsse::trust_store trusted;
    trusted.add_file(certs + "/ca.pem");
    sec.set_trust_store(trusted);
    sent.timestamp = true;
    sent.sign =
        wsse::signing{wsse::credentials::from_files(certs + "/signer.key", certs + "/signer.pem")};
  }
  if (mode != "plain") sec.install(calc);
  server srv{{.address = "127.0.0.1", .port = 0, .threads = 1}};
  srv.mount("/calc", calc);
  srv.start();

  client_options co;
  co.max_connections = 1;
  client c{"http://127.0.0.1:" + std::to_string(srv.port()) + "/calc", co};
  if (mode != "plain") wsse::client_security{sent}.install(c);
  long calls = 0, failures = 0;
  bench::addResponse out;
  const auto start = std::chrono::steady_clock::now();
  const auto until = start + std::chrono::duration<double>(seconds);
  auto now = start;
  do {
    try {
      c.call("add", bench::add{2, 3}, out);
      failures += out.result != 5;
    } catch (const std::exception& e) {
      if (failures++ == 0) std::fprintf(stderr, "%s\n", e.what());
    }
    ++calls;
    now = std::chrono::steady_clock::now();
  } while (now < until);
  srv.stop();
  const double elapsed = std::chrono::duration<double>(now - start).count();
  std::printf("RESULT engine=%s mode=%s calls_per_s=%.0f failures=%ld\n",
              openssl_cache == "on" ? "lather" : "lather-malloc", mode.c_str(), calls / elapsed,
              failures);
  return failures == 0 ? 0 : 1;
}
