// The character-data scan (src/xml/scan.hpp): its SSE2 loop and its AVX2 loop (chosen at run
// time) against a byte-by-byte reference, and the reader's events and errors with the AVX2
// loop switched off and on.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../support/paths.hpp"
#include "event_trace.hpp"
#include "scan.hpp"

namespace lather::xml {
namespace {

#if LATHER_XML_SSE2
const char* bytewise(const char* p, const char* end) {
  for (; p < end; ++p) {
    auto c = static_cast<unsigned char>(*p);
    if (c == '<' || c == '&' || c == ']' || c >= 0x80 || (c < 0x20 && c != '\t' && c != '\n'))
      return p;
  }
  return end;
}

// Puts the dispatch flag back however a test ends.
struct avx2_flag_restorer {
  bool saved = detail::text_scan_avx2;
  ~avx2_flag_restorer() { detail::text_scan_avx2 = saved; }
};

TEST(TextScan, EveryLoopStopsWhereTheBytewiseReferenceDoes) {
  avx2_flag_restorer restore;
  // Every byte the scan stops at, at every offset of runs of up to 160 bytes, each run also
  // holding bytes it must pass over (tab, LF, '>', '[', DEL, space) and starting at every
  // alignment modulo 32.
  const std::string stops("<&]\r\x01\x1f\x80\xC3\xFF", 9);
  const std::string passes("\t\n>[\x7F ", 6);
  std::string buffer(32 + 160 + 1, 'a');
  std::size_t checked = 0;
  for (std::size_t len = 0; len <= 160; ++len) {
    for (std::size_t stop_at = 0; stop_at <= len; ++stop_at) {
      for (char stop : stops) {
        const std::size_t align = (len + stop_at) % 32;
        char* p = buffer.data() + align;
        for (std::size_t i = 0; i < len; ++i) p[i] = i % 11 == 5 ? passes[i % passes.size()] : 'x';
        if (stop_at < len) p[stop_at] = stop;
        const char* end = p + len;
        const char* want = bytewise(p, end);
        ASSERT_EQ(detail::find_text_special_sse2(p, end), want) << len << " " << stop_at;
        detail::text_scan_avx2 = false;
        ASSERT_EQ(detail::find_text_special(p, end), want) << len << " " << stop_at;
        if (detail::text_scan_avx2_available) {
          ASSERT_EQ(detail::find_text_special_avx2(p, end), want) << len << " " << stop_at;
          detail::text_scan_avx2 = true;
          ASSERT_EQ(detail::find_text_special(p, end), want) << len << " " << stop_at;
        }
        ++checked;
        if (stop_at == len) break;  // no stop byte: once is enough
      }
    }
  }
  EXPECT_GT(checked, 100000u);
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(TextScan, ReaderGivesTheSameEventsAndErrorsWithoutAvx2) {
  avx2_flag_restorer restore;
  namespace fs = std::filesystem;
  std::vector<std::string> docs;
  for (const char* dir : {"tests/xml/data", "fuzz/corpus/xml"}) {
    for (const auto& e : fs::directory_iterator(fs::path(lather::test::source_dir) / dir))
      if (e.is_regular_file()) docs.push_back(read_file(e.path()));
  }
  // Long runs with each kind of stop byte deep inside, and errors there (offsets compared).
  const std::string run(300, 'Q');
  for (std::string_view stop : {"&amp;", "\r\n", "\xC3\xA9", "]]>", "\x01", "\xC3", "&bogus;"})
    for (std::size_t at : {33u, 64u, 100u, 299u})
      docs.push_back("<p:r xmlns:p='u'><p:a>" + run.substr(0, at) + std::string(stop) +
                     run.substr(at) + "</p:a><p:b>" + run + "</p:b></p:r>");
  ASSERT_GT(docs.size(), 50u);
  for (const std::string& doc : docs) {
    const std::vector<std::string> leaves = test::leaf_candidates(doc);
    for (test::feed_mode mode : {test::feed_mode::whole, test::feed_mode::pull}) {
      detail::text_scan_avx2 = false;
      const test::trace_result sse2 = test::run_reader(doc, mode, 4096, 1, leaves);
      detail::text_scan_avx2 = detail::text_scan_avx2_available;
      const test::trace_result best = test::run_reader(doc, mode, 4096, 1, leaves);
      ASSERT_EQ(best.events, sse2.events) << doc.substr(0, 200);
      ASSERT_EQ(best.code, sse2.code) << doc.substr(0, 200);
      ASSERT_EQ(best.offset, sse2.offset) << doc.substr(0, 200);
    }
  }
}
#endif

}  // namespace
}  // namespace lather::xml
