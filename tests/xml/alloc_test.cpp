// Steady state allocates nothing: a reused reader parses the CXF 100-item request with zero
// heap allocations, whole-document, pushed and pulled. Counted by replacing operator new.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "../support/alloc_counter.hpp"
#include "../support/paths.hpp"
#include "lather/xml/reader.hpp"

namespace lather::xml {
namespace {

std::string load(const char* name) {
  std::ifstream in(std::filesystem::path(lather::test::source_dir) / "tests/xml/data" / name,
                   std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

enum class mode { whole, push, pull };

// Parses doc once; returns the number of events (errors fail the test).
std::size_t parse(reader& r, const std::string& doc, mode m, std::size_t& fed) {
  fed = 0;
  if (m == mode::whole) {
    r.reset(doc);
  } else {
    r.reset();
  }
  std::size_t events = 0;
  for (;;) {
    token t = r.next();
    if (t == token::end_document) return events;
    if (t == token::error) {
      ADD_FAILURE() << r.error().message();
      return events;
    }
    if (t == token::need_more) {
      if (fed == doc.size()) {
        r.finish();
      } else {
        std::size_t n = std::min<std::size_t>(4096, doc.size() - fed);
        r.feed(std::string_view(doc).substr(fed, n));
        fed += n;
      }
      continue;
    }
    ++events;
  }
}

void expect_no_allocation(const char* file, mode m) {
  std::string doc = load(file);
  ASSERT_GT(doc.size(), 1000u);
  reader r;
  std::size_t fed = 0;
  if (m == mode::pull) {
    r.set_source([&](char* dest, std::size_t cap) {
      std::size_t n = std::min({cap, std::size_t{4096}, doc.size() - fed});
      std::memcpy(dest, doc.data() + fed, n);
      fed += n;
      return n;
    });
  }
  std::size_t warm = parse(r, doc, m, fed);
  parse(r, doc, m, fed);
  const std::uint64_t before = test::thread_allocations();
  std::size_t events = parse(r, doc, m, fed);
  const std::uint64_t allocations = test::thread_allocations() - before;
  EXPECT_EQ(events, warm);
  EXPECT_GT(events, 1000u);
  EXPECT_EQ(allocations, 0u) << file << " mode " << static_cast<int>(m);
}

std::string* volatile keep_alive = nullptr;

TEST(ReaderAllocations, CounterSeesAllocations) {
  const std::uint64_t before = test::thread_allocations();
  keep_alive = new std::string(100, 'x');
  const std::uint64_t allocations = test::thread_allocations() - before;
  delete keep_alive;
  EXPECT_GE(allocations, 1u);
}

TEST(ReaderAllocations, NoneInSteadyStateWhole) {
  expect_no_allocation("cxf_echoComplexTypeDoc_100.xml", mode::whole);
  expect_no_allocation("rpc_encoded_multiref_500.xml", mode::whole);
}
TEST(ReaderAllocations, NoneInSteadyStatePush) {
  expect_no_allocation("cxf_echoComplexTypeDoc_100.xml", mode::push);
  expect_no_allocation("rpc_encoded_multiref_500.xml", mode::push);
}
TEST(ReaderAllocations, NoneInSteadyStatePull) {
  expect_no_allocation("cxf_echoComplexTypeDoc_100.xml", mode::pull);
  expect_no_allocation("rpc_encoded_multiref_500.xml", mode::pull);
}

}  // namespace
}  // namespace lather::xml
