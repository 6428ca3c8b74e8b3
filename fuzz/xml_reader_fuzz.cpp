// libFuzzer target: the lather XML reader against the expat oracle, and against itself fed in
// random pieces (push and pull, sizes derived from the input) and under tiny limits.
// Any disagreement aborts with both event traces. Built with clang
// (-fsanitize=fuzzer,address,undefined) by scripts/fuzz.sh; replayed under CTest with g++ by
// replay_main.cpp.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "differential.hpp"

namespace {

using namespace lather::xml;
using namespace lather::xml::test;

[[noreturn]] void report(std::string_view doc, const std::string& what) {
  std::fprintf(stderr, "lather/expat disagreement on %zu-byte input:\n%s\n", doc.size(),
               what.c_str());
  std::abort();
}

std::uint32_t seed_of(std::string_view doc) {
  std::uint32_t h = 2166136261u;
  for (char c : doc) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return h;
}

// Small limits derived from the input, so the fuzzer reaches every limit.
limits small_limits(std::uint32_t seed) {
  limits lim;
  lim.max_depth = 1 + seed % 8;
  lim.max_name_length = 1 + (seed >> 3) % 16;
  lim.max_attributes = 1 + (seed >> 7) % 4;
  lim.max_namespaces = 1 + (seed >> 9) % 4;
  lim.max_text_length = 1 + (seed >> 11) % 64;
  lim.max_attribute_length = 1 + (seed >> 27) % 32;
  lim.max_total_bytes = (seed >> 17) % 2 ? 0 : 1 + (seed >> 18) % 512;
  return lim;
}

// Whole vs streamed under small limits: the limit errors must be identical in every mode.
void check_small_limits(std::string_view doc, std::uint32_t seed) {
  reader w(small_limits(seed)), s(small_limits(seed));
  trace_result whole = run_reader(w, doc, feed_mode::whole);
  trace_result streamed = run_reader(s, doc, feed_mode::push, -3, seed);
  if (whole.events != streamed.events || whole.code != streamed.code ||
      whole.offset != streamed.offset) {
    report(doc, std::string("small limits: whole ") + describe(whole.code) + "@" +
                    std::to_string(whole.offset) + " vs push " + describe(streamed.code) + "@" +
                    std::to_string(streamed.offset));
  }
}

// reader::next_simple_element() tried before every next() (with the input's own element names)
// must leave the events, error and offset unchanged, whole and streamed, also under the small
// limits (every limit it must leave to next()).
void check_simple_elements(std::string_view doc, const trace_result& whole, std::uint32_t seed) {
  const std::vector<std::string> leaves = leaf_candidates(doc);
  auto differs = [&](const trace_result& a, const trace_result& b) {
    return a.events != b.events || a.code != b.code || a.offset != b.offset;
  };
  auto check = [&](const trace_result& expected, reader& r, feed_mode mode, int piece,
                   const char* what) {
    trace_result t = run_reader(r, doc, mode, piece, seed, leaves);
    if (differs(t, expected)) {
      report(doc, std::string("next_simple_element ") + what + ": " + describe(t.code) + "@" +
                      std::to_string(t.offset) + " vs " + describe(expected.code) + "@" +
                      std::to_string(expected.offset) + "\n--- with\n" + t.events +
                      "--- without\n" + expected.events);
    }
  };
  reader plain;
  check(whole, plain, feed_mode::whole, 1, "whole");
  check(whole, plain, feed_mode::push, -static_cast<int>(1 + seed % 64), "push");
  reader w(small_limits(seed)), s(small_limits(seed));
  trace_result limited = run_reader(w, doc, feed_mode::whole);
  check(limited, w, feed_mode::whole, 1, "whole, small limits");
  check(limited, s, feed_mode::pull, -3, "pull, small limits");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view doc(reinterpret_cast<const char*>(data), size);
  if (std::string diff = compare_with_expat(doc); !diff.empty()) report(doc, diff);
  trace_result whole = run_reader(doc, feed_mode::whole);
  std::uint32_t seed = seed_of(doc);
  int piece = -static_cast<int>(1 + seed % 64);
  for (feed_mode m : {feed_mode::push, feed_mode::pull}) {
    if (std::string d = compare_modes(doc, whole, m, piece, seed); !d.empty()) report(doc, d);
  }
  if (size <= 512) {
    if (std::string d = compare_modes(doc, whole, feed_mode::push, 1, seed); !d.empty()) {
      report(doc, d);
    }
  }
  if (size > 0) {
    if (std::string d = compare_split(doc, whole, seed % (size + 1)); !d.empty()) report(doc, d);
  }
  check_small_limits(doc, seed);
  check_simple_elements(doc, whole, seed);
  return 0;
}
