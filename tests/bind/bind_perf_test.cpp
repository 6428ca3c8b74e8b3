// The CXF performance contract types: round trip, golden bytes, peer-style input, reuse
// without allocation.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "../support/alloc_counter.hpp"
#include "../support/paths.hpp"
#include "bind_test_util.hpp"
#include "lather/perf/types.hpp"

namespace lather::bind::test {
namespace {

using perf::types_ns;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::string golden_path =
    std::string(lather::test::source_dir) + "/tests/bind/golden/echoComplexTypeDoc-2items.xml";

TEST(BindPerf, RoundTripsRequestOfTenItems) {
  perf::echoComplexTypeDoc req = perf::make_cxf_request(10, 42);
  std::string doc = to_xml(types_ns, "echoComplexTypeDoc", req);
  perf::echoComplexTypeDoc back;
  error_info e = from_xml(doc, back);
  ASSERT_FALSE(e) << e.message;
  EXPECT_EQ(back, req);
  EXPECT_EQ(back.in.item.size(), 10u);
  EXPECT_EQ(back.id, 42);
  EXPECT_EQ(back.in.item[3].varQName.ns, "http://cxf.apache.org");
  EXPECT_EQ(back.in.item[3].varQName.local, "return");
}

TEST(BindPerf, MatchesGoldenBytes) {
  const std::string golden = read_file(golden_path);
  ASSERT_FALSE(golden.empty()) << golden_path;
  EXPECT_EQ(to_xml(types_ns, "echoComplexTypeDoc", perf::make_cxf_request(2, 7)), golden);
  perf::echoComplexTypeDoc back;
  error_info e = from_xml(golden, back);
  ASSERT_FALSE(e) << e.message;
  EXPECT_EQ(back, perf::make_cxf_request(2, 7));
}

TEST(BindPerf, ResponseAndOtherWrappersRoundTrip) {
  perf::echoComplexTypeDocResponse resp{perf::make_cxf_seq(3), 9};
  std::string doc = to_xml(types_ns, "echoComplexTypeDocResponse", resp);
  EXPECT_NE(doc.find(":return>"), std::string::npos);
  perf::echoComplexTypeDocResponse back;
  ASSERT_FALSE(from_xml(doc, back));
  EXPECT_EQ(back, resp);

  perf::echoStringDoc s{perf::make_cxf_string(2)};
  perf::echoStringDoc s2;
  ASSERT_FALSE(from_xml(to_xml(types_ns, "echoStringDoc", s), s2));
  EXPECT_EQ(s2, s);
  EXPECT_EQ(s2.in.size(), 2048u);

  perf::echoBase64Doc b{perf::make_cxf_base64()};
  perf::echoBase64Doc b2;
  ASSERT_FALSE(from_xml(to_xml(types_ns, "echoBase64Doc", b), b2));
  EXPECT_EQ(b2, b);
  EXPECT_EQ(b2.in.bytes.size(), 1024u);
}

// What a Java peer (JAXB) sends: default namespace, other prefixes, Java float spelling,
// base64 with line breaks, whitespace between elements.
TEST(BindPerf, ReadsPeerStyleDocument) {
  const std::string doc = R"(<?xml version="1.0" encoding="UTF-8"?>
<echoComplexTypeDoc xmlns="http://cxf.apache.org/cxf/performance/types">
  <in>
    <item>
      <varString>#12345ABc</varString>
      <varUByte>255</varUByte>
      <varUnsignedLong>13691056728</varUnsignedLong>
      <varFloat>3.4028235E38</varFloat>
      <varQName xmlns:ns3="http://cxf.apache.org">ns3:return</varQName>
      <varBase64Binary>AAEC
AwQ=</varBase64Binary>
      <varHexBinary>0a0B</varHexBinary>
      <varStruct varAttrString="attr">
        <varFloat>3.4028235E38</varFloat><varShort>32767</varShort>
        <varString>s</varString><varByte>127</varByte><varDecimal>3.1415926</varDecimal>
        <varDouble>1.7976931348623157E308</varDouble>
        <varDateTime>2005-12-03T00:00:09.000Z</varDateTime>
      </varStruct>
      <varEnum>GREEN</varEnum>
    </item>
  </in>
  <id>5</id>
</echoComplexTypeDoc>)";
  perf::echoComplexTypeDoc v;
  error_info e = from_xml(doc, v);
  ASSERT_FALSE(e) << e.message;
  ASSERT_EQ(v.in.item.size(), 1u);
  const perf::NestedComplexType& it = v.in.item[0];
  EXPECT_EQ(it.varFloat, std::numeric_limits<float>::max());
  EXPECT_EQ(it.varQName.ns, "http://cxf.apache.org");
  EXPECT_EQ(it.varBase64Binary.bytes, (std::vector<std::uint8_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(it.varHexBinary.bytes, (std::vector<std::uint8_t>{10, 11}));
  EXPECT_EQ(it.varStruct.varAttrString, "attr");
  EXPECT_EQ(it.varStruct.varDouble, std::numeric_limits<double>::max());
  EXPECT_EQ(it.varStruct.varDateTime.second, 9);
  EXPECT_EQ(it.varEnum, perf::ColourEnum::GREEN);
  EXPECT_EQ(v.id, 5);
}

TEST(BindPerf, ReusedDestinationReadsWithoutAllocating) {
  const std::string doc = to_xml(types_ns, "echoComplexTypeDoc", perf::make_cxf_request(20, 1));
  perf::echoComplexTypeDoc v;
  xml::reader r;
  std::uint64_t allocations = 0;
  for (int round = 0; round < 3; ++round) {  // rounds 0 and 1 warm up the destination and reader
    r.reset(doc);
    ASSERT_EQ(r.next(), xml::token::start_element);
    const std::uint64_t before = lather::test::thread_allocations();
    error_info e = read(r, v);
    allocations = lather::test::thread_allocations() - before;
    ASSERT_FALSE(e) << e.message;
  }
  EXPECT_EQ(allocations, 0u);
  EXPECT_EQ(v, perf::make_cxf_request(20, 1));

  // Fewer items into the same destination: the tail goes, nothing is allocated.
  const std::string small = to_xml(types_ns, "echoComplexTypeDoc", perf::make_cxf_request(3, 2));
  r.reset(small);
  ASSERT_EQ(r.next(), xml::token::start_element);
  const std::uint64_t before = lather::test::thread_allocations();
  error_info e = read(r, v);
  allocations = lather::test::thread_allocations() - before;
  ASSERT_FALSE(e) << e.message;
  EXPECT_EQ(allocations, 0u);
  EXPECT_EQ(v, perf::make_cxf_request(3, 2));
}

TEST(BindPerf, WritingWithAWarmWriterDoesNotAllocate) {
  const perf::echoComplexTypeDoc req = perf::make_cxf_request(20, 1);
  xml::output out;
  xml::writer w{out};
  std::uint64_t allocations = 0;
  for (int round = 0; round < 3; ++round) {  // rounds 0 and 1 warm up the output and the writer
    out.clear();
    w.reset();
    const std::uint64_t before = lather::test::thread_allocations();
    write(w, types_ns, "echoComplexTypeDoc", req);
    w.end_document();
    allocations = lather::test::thread_allocations() - before;
  }
  EXPECT_EQ(allocations, 0u);
  perf::echoComplexTypeDoc back;
  ASSERT_FALSE(from_xml(out.view(), back));
  EXPECT_EQ(back, req);
}

}  // namespace
}  // namespace lather::bind::test
