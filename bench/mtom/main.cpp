// lather-bench-mtom: MB/s of one large attachment echoed through lather (client and server in
// this process, over loopback), as an MTOM part and as inline base64; with --gsoap-peer, the
// same echo between gSOAP's MTOM client and server (gsoap-mtom-peer) in the same run.
//
//   lather-bench-mtom [--size BYTES] [--rounds R] [--gsoap-peer PATH]
//
// One echo moves the bytes up and back: the rate is 2 x size / seconds of the best round.
// lather's server stores the received part as a part above 1 MiB is stored (a temporary file,
// options::memory_threshold) and streams it back from there; its client stores the answer's
// part the same way. gSOAP holds both in memory.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "lather/mtom.hpp"
#include "lather/perf/mtom_echo.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"

namespace {

using namespace lather;

struct result {
  double mb_per_s = 0;
  bool ok = false;
};

// The best of `rounds` echoes of `bytes` through `c`.
result echo_rounds(client& c, const std::vector<std::uint8_t>& bytes, int rounds) {
  result best;
  for (int r = 0; r < rounds; ++r) {
    const auto started = std::chrono::steady_clock::now();
    // A stream over the payload: the request holds no copy of it.
    std::size_t at = 0;
    auto source = [&bytes, &at](char* dest, std::size_t n) {
      const std::size_t k = std::min(n, bytes.size() - at);
      std::memcpy(dest, bytes.data() + at, k);
      at += k;
      return k;
    };
    auto answer = c.call<mtom_echo::echoDataResponse>(
        "echoData",
        mtom_echo::echoData{"lather", mtom::attachment::from_stream(source, bytes.size())});
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    best.ok = answer.data.size() == bytes.size();
    if (!best.ok) return best;
    best.mb_per_s =
        std::max(best.mb_per_s, 2.0 * static_cast<double>(bytes.size()) / seconds / 1e6);
  }
  return best;
}

// gsoap-mtom-peer's server and client; the client's "ok N MBPS" line.
result gsoap_echo(const std::string& peer, std::size_t size, int rounds) {
  const int port = 20000 + static_cast<int>(getpid() % 20000);
  const pid_t server = fork();
  if (server == 0) {
    std::freopen("/dev/null", "w", stdout);  // its READY line
    execl(peer.c_str(), peer.c_str(), "--port", std::to_string(port).c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  result r;
  const std::string command = peer + " --url http://127.0.0.1:" + std::to_string(port) +
                              "/mtom --size " + std::to_string(size) + " --rounds " +
                              std::to_string(rounds);
  for (int attempt = 0; attempt < 50 && !r.ok; ++attempt) {  // until the server listens
    if (FILE* out = popen(command.c_str(), "r")) {
      char line[256] = {};
      long rate = 0;
      unsigned long long n = 0;
      if (std::fgets(line, sizeof line, out) && std::sscanf(line, "ok %llu %ld", &n, &rate) == 2) {
        r.ok = n == size;
        r.mb_per_s = static_cast<double>(rate);
      }
      pclose(out);
    }
    if (!r.ok) usleep(100'000);
  }
  kill(server, SIGTERM);
  waitpid(server, nullptr, 0);
  return r;
}

long peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t size = 100'000'000;
  int rounds = 3;
  std::string gsoap_peer;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--size" && i + 1 < argc) {
      size = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--rounds" && i + 1 < argc) {
      rounds = std::atoi(argv[++i]);
    } else if (arg == "--gsoap-peer" && i + 1 < argc) {
      gsoap_peer = argv[++i];
    } else {
      std::fprintf(stderr,
                   "usage: lather-bench-mtom [--size BYTES] [--rounds R] [--gsoap-peer PATH]\n");
      return 2;
    }
  }
  if (size == 0 || rounds < 1) {
    std::fprintf(stderr, "lather-bench-mtom: --size and --rounds must be positive\n");
    return 2;
  }

  service mtom_svc{"MtomEcho", std::string(mtom_echo::ns)};
  service inline_svc{"MtomEcho", std::string(mtom_echo::ns)};
  for (service* s : {&mtom_svc, &inline_svc})
    s->operation("echoData", [](const mtom_echo::echoData& in) {
      return mtom_echo::echoDataResponse{in.name, in.data};
    });
  mtom::enable(mtom_svc);
  http::server_options http_options;
  http_options.body_limit = 4 * static_cast<std::uint64_t>(size) + (1u << 20);
  server srv{http_options};
  srv.mount("/mtom", mtom_svc);
  srv.mount("/inline", inline_svc);
  srv.start();
  const std::string base = "http://127.0.0.1:" + std::to_string(srv.port());

  std::vector<std::uint8_t> bytes(size);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = mtom_echo::payload_byte(i);

  client_options no_limits;
  no_limits.xml_limits.max_total_bytes = 0;
  no_limits.xml_limits.max_text_length = 2 * size + 1024;
  client mtom_client{base + "/mtom", no_limits};
  mtom::enable(mtom_client);
  const long rss_before = peak_rss_mib();
  const result as_mtom = echo_rounds(mtom_client, bytes, rounds);
  const long rss_mtom = peak_rss_mib();

  client inline_client{base + "/inline", no_limits};
  const result as_inline = echo_rounds(inline_client, bytes, rounds);
  const long rss_inline = peak_rss_mib();
  srv.stop();

  const result as_gsoap = gsoap_peer.empty() ? result{} : gsoap_echo(gsoap_peer, size, rounds);

  std::printf("echo of %zu bytes (up and back), best of %d rounds\n", size, rounds);
  std::printf("%-34s%12s%22s\n", "", "MB/s", "peak RSS after (MiB)");
  const auto row = [](const char* name, const result& r, long rss) {
    if (!r.ok)
      std::printf("%-34s%12s\n", name, "FAILED");
    else if (rss >= 0)
      std::printf("%-34s%12.0f%22ld\n", name, r.mb_per_s, rss);
    else
      std::printf("%-34s%12.0f%22s\n", name, r.mb_per_s, "-");
  };
  std::printf("%-34s%12s%22ld\n", "(before: the payload in memory)", "", rss_before);
  row("lather MTOM", as_mtom, rss_mtom);
  row("lather inline base64", as_inline, rss_inline);
  if (!gsoap_peer.empty()) row("gSOAP MTOM (gsoap-mtom-peer)", as_gsoap, -1);
  if (as_mtom.ok && as_inline.ok)
    std::printf("lather MTOM / inline base64: %.2fx\n", as_mtom.mb_per_s / as_inline.mb_per_s);
  if (as_mtom.ok && as_gsoap.ok)
    std::printf("lather MTOM / gSOAP MTOM: %.2fx\n", as_mtom.mb_per_s / as_gsoap.mb_per_s);
  return as_mtom.ok && as_inline.ok && (gsoap_peer.empty() || as_gsoap.ok) ? 0 : 1;
}
