// Linearity of RPC/encoded multi-ref decoding (the Axis 1.0 lesson: no per-reference rescans).
// Instruction-independent measure: hash-map operations per element must not grow with N; plus
// a generous CPU-time bound (5k vs 50k per element < 3x; kept small for CI time).
#include <gtest/gtest.h>

#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "lather/soap/encoded.hpp"
#include "lather/soap/envelope.hpp"
#include "lather/soap/style.hpp"

namespace soap = lather::soap;
namespace xml = lather::xml;

namespace lin {
struct Pair {
  std::int32_t a = 0;
  std::string b;
  std::shared_ptr<Pair> next;  // every element also points at its successor: hrefs both ways
};
}  // namespace lin

template <>
struct lather::meta<lin::Pair> {
  static constexpr std::string_view ns = "urn:lin", name = "Pair";
  static constexpr auto encoding = lather::bind::encoding::soap;
  static constexpr auto fields =
      std::make_tuple(lather::element("a", &lin::Pair::a), lather::element("b", &lin::Pair::b),
                      lather::element("next", &lin::Pair::next));
};

namespace {

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct run {
  double seconds_per_element;
  double hash_ops_per_element;
};

run measure(std::size_t n) {
  std::vector<std::shared_ptr<lin::Pair>> items(n);
  for (std::size_t i = n; i-- > 0;) {
    items[i] = std::make_shared<lin::Pair>();
    items[i]->a = static_cast<std::int32_t>(i);
    items[i]->b = std::to_string(i % 97);
    items[i]->b.insert(0, 1, 'v');
    if (i + 1 < n) items[i]->next = items[i + 1];
  }
  xml::output out;
  xml::writer w{out};
  soap::envelope_writer env{w, soap::version::soap11};
  env.begin({.encoded = true, .namespaces = {{"l", "urn:lin"}}});
  env.begin_body();
  soap::encoder enc{w};
  enc.count(items);  // every element is referenced twice (array + predecessor): all multi-refs
  soap::write_rpc_start(w, soap::version::soap11, soap::style::rpc_encoded, "urn:lin", "r");
  enc.write("", "items", items);
  w.end_element();
  enc.write_independents();
  env.end();
  for (auto& p : items) p->next.reset();

  run best{1e9, 0};
  for (int rep = 0; rep < 2; ++rep) {
    const double t0 = cpu_seconds();
    xml::reader r;
    r.reset(out.view());
    soap::envelope_reader in{r};
    in.begin();
    soap::decoder dec{r, in.body_namespaces()};
    soap::rpc_reader parts{r};
    std::vector<std::shared_ptr<lin::Pair>> back;
    while (parts.next()) dec.read(back);
    dec.read_trailing(in);
    in.finish();
    const double t = (cpu_seconds() - t0) / static_cast<double>(n);
    EXPECT_EQ(back.size(), n);
    EXPECT_EQ(back[n / 2]->next, back[n / 2 + 1]) << "shared successor restored as shared";
    best.seconds_per_element = std::min(best.seconds_per_element, t);
    best.hash_ops_per_element = static_cast<double>(dec.hash_operations()) / static_cast<double>(n);
    for (auto& p : back) p->next.reset();
  }
  return best;
}

}  // namespace

TEST(SoapLinearity, MultiRefDecodingIsLinear) {
  const run small = measure(5000);
  const run large = measure(50000);
  EXPECT_LT(large.hash_ops_per_element / small.hash_ops_per_element, 1.01);
  EXPECT_LE(large.hash_ops_per_element, 3.0);
  EXPECT_LT(large.seconds_per_element / small.seconds_per_element, 3.0)
      << "5k: " << small.seconds_per_element * 1e9
      << " ns/element, 50k: " << large.seconds_per_element * 1e9 << " ns/element";
}
