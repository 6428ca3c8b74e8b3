// lather-bench-multiref — RPC/encoded arrays of N structs by multi-ref (Axis style: the array
// holds N hrefs, the N structs follow the RPC element as multiRef elements, every reference
// forward). Times (thread CPU time, best of repetitions) encode and decode per element for N = 1k
// .. 1M and checks that decoding is linear: time per element at the largest N within 1.5x of the
// smallest.
//
//   lather-bench-multiref [--sizes 1000,10000,100000,1000000] [--reps 3]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "lather/soap/encoded.hpp"
#include "lather/soap/envelope.hpp"
#include "lather/soap/style.hpp"

namespace soap = lather::soap;
namespace xml = lather::xml;

namespace bench {
struct Quote {
  std::int32_t id = 0;
  double price = 0;
  std::string symbol;
  friend bool operator==(const Quote&, const Quote&) = default;
};
}  // namespace bench

template <>
struct lather::meta<bench::Quote> {
  static constexpr std::string_view ns = "urn:bench", name = "Quote";
  static constexpr auto encoding = lather::bind::encoding::soap;
  static constexpr auto fields = std::make_tuple(lather::element("id", &bench::Quote::id),
                                                 lather::element("price", &bench::Quote::price),
                                                 lather::element("symbol", &bench::Quote::symbol));
};

namespace {

using quotes = std::vector<std::shared_ptr<bench::Quote>>;
// CPU time of this thread: the machines are shared, wall time would measure the neighbours.
double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

quotes make_quotes(std::size_t n) {
  quotes q;
  q.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    auto quote = std::make_shared<bench::Quote>();
    quote->id = static_cast<std::int32_t>(i);
    quote->price = 0.25 * static_cast<double>(i % 1000);
    quote->symbol = std::to_string(i % 9973);
    quote->symbol.insert(0, 1, 'S');
    q.push_back(std::move(quote));
  }
  return q;
}

void encode(const quotes& q, xml::output& out) {
  out.clear();
  xml::writer w{out};
  soap::envelope_writer env{w, soap::version::soap11};
  env.begin({.encoded = true, .namespaces = {{"b", "urn:bench"}}});
  env.begin_body();
  soap::encode_options opts;
  opts.multiref_all = true;
  soap::encoder enc{w, opts};
  enc.count(q);
  soap::write_rpc_start(w, soap::version::soap11, soap::style::rpc_encoded, "urn:bench",
                        "getQuotesResponse");
  enc.write("", "return", q);
  w.end_element();
  enc.write_independents();
  env.end();
}

std::uint64_t decode(std::string_view doc, quotes& q) {
  xml::limits lim;
  lim.max_total_bytes = 0;  // the 1M message is ~170 MB
  xml::reader r{lim};
  r.reset(doc);
  soap::envelope_reader env{r};
  env.begin();
  soap::decoder dec{r, env.body_namespaces()};
  soap::rpc_reader parts{r};
  while (parts.next()) dec.read(q);
  dec.read_trailing(env);
  env.finish();
  return dec.hash_operations();
}

double seconds_since(double t0) {
  return cpu_seconds() - t0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::size_t> sizes{1000, 10000, 100000, 1000000};
  int reps = 3;
  lather::tools::command_line cli{
      "lather-bench-multiref",
      "Times encoding and decoding RPC/encoded arrays of N structs by multi-ref and checks that\n"
      "decoding is linear (time per element at the largest N within 1.5x of the smallest)."};
  cli.add_option("--sizes", sizes, "array sizes N (default 1000,10000,100000,1000000)")
      ->type_name("N,N,...")
      ->delimiter(',')
      ->allow_extra_args(false);
  cli.add_option("--reps", reps, "repetitions per size, best taken (default 3)")->type_name("R");
  cli.parse_or_exit(argc, argv);
  if (reps < 1) cli.fail("--reps must be >= 1");
  if (sizes.empty()) cli.fail("--sizes needs at least one size");
  std::printf("%10s %12s %14s %14s %12s\n", "N", "bytes", "encode ns/el", "decode ns/el",
              "hash ops/el");
  double first = 0, last = 0;
  for (std::size_t n : sizes) {
    const quotes q = make_quotes(n);
    xml::output out;
    double best_enc = 1e300, best_dec = 1e300;
    std::uint64_t hash_ops = 0;
    // Small sizes get more repetitions so each measurement covers at least ~1M elements.
    const int r = std::max<int>(reps, static_cast<int>(std::min<std::size_t>(1000, 1000000 / n)));
    for (int i = 0; i < r; ++i) {
      double t0 = cpu_seconds();
      encode(q, out);
      best_enc = std::min(best_enc, seconds_since(t0));
      quotes back;
      t0 = cpu_seconds();
      hash_ops = decode(out.view(), back);
      best_dec = std::min(best_dec, seconds_since(t0));
      if (i == 0) {
        bool same = back.size() == q.size();
        for (std::size_t k = 0; same && k < n; ++k) same = back[k] && *back[k] == *q[k];
        if (!same) {
          std::fprintf(stderr, "CHECK FAILED: decoded graph differs at N=%zu\n", n);
          return 1;
        }
      }
    }
    const double enc_ns = best_enc * 1e9 / static_cast<double>(n);
    const double dec_ns = best_dec * 1e9 / static_cast<double>(n);
    std::printf("%10zu %12zu %14.1f %14.1f %12.2f\n", n, out.size(), enc_ns, dec_ns,
                static_cast<double>(hash_ops) / static_cast<double>(n));
    if (first == 0) first = dec_ns;
    last = dec_ns;
  }
  const double ratio = last / first;
  std::printf("decode time per element, N=%zu vs N=%zu: %.2fx (goal <= 1.5x): %s\n", sizes.back(),
              sizes.front(), ratio, ratio <= 1.5 ? "PASS" : "FAIL");
  return ratio <= 1.5 ? 0 : 1;
}
