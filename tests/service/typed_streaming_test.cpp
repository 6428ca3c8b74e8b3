// Typed streaming handlers (lather/service/sequence.hpp) over loopback: a request sequence
// bound item by item while it arrives, a response sequence written item by item, head fields
// around them, item errors as Client faults with the element path, early stops, the WSDL of
// the plain equivalent, and 1 GB through a typed operation in bounded memory.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <string>

#include "../support/sanitizer.hpp"
#include "../support/xml_query.hpp"
#include "lather/http/client.hpp"
#include "lather/perf/types.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "lather/service/service.hpp"
#include "streaming_support.hpp"

namespace {

constexpr std::string_view test_ns = "urn:lather:typed-stream";

struct upload {
  std::string name;
  std::int32_t tag = 0;
  std::vector<lather::perf::NestedComplexType> item;
};
struct upload_response {
  std::string name;
  std::int64_t count = 0;
  std::int64_t bytes = 0;  // sum of the items' varString sizes: every item was bound
};
struct download {
  std::int32_t count = 0;
};
struct download_response {
  std::string label;
  std::vector<lather::perf::NestedComplexType> item;
};

}  // namespace

template <>
struct lather::meta<upload> {
  static constexpr std::string_view name = "upload";
  static constexpr std::string_view ns = test_ns;
  static constexpr auto fields =
      std::tuple{element("name", &upload::name), attribute("tag", &upload::tag),
                 element("item", &upload::item)};
};
template <>
struct lather::meta<upload_response> {
  static constexpr std::string_view name = "uploadResponse";
  static constexpr std::string_view ns = test_ns;
  static constexpr auto fields =
      std::tuple{element("name", &upload_response::name), element("count", &upload_response::count),
                 element("bytes", &upload_response::bytes)};
};
template <>
struct lather::meta<download> {
  static constexpr std::string_view name = "download";
  static constexpr std::string_view ns = test_ns;
  static constexpr auto fields = std::tuple{element("count", &download::count)};
};
template <>
struct lather::meta<download_response> {
  static constexpr std::string_view name = "downloadResponse";
  static constexpr std::string_view ns = test_ns;
  static constexpr auto fields = std::tuple{element("label", &download_response::label),
                                            element("item", &download_response::item)};
};

namespace {

using namespace lather;

using namespace streaming_support;
using lather::test::fault_code;
using lather::test::fault_string;

// Registers the streaming operations; `stop_after` > 0 makes upload stop reading early.
void add_streaming_operations(service& svc, std::atomic<long>* sent_at_first_item,
                              const std::atomic<long>* sent, int stop_after = 0) {
  svc.operation("upload", [=](const upload& head, sequence_reader<perf::NestedComplexType> items) {
    upload_response r{head.name + "/" + std::to_string(head.tag), 0, 0};
    for (const perf::NestedComplexType& it : items) {
      if (r.count == 0 && sent_at_first_item) *sent_at_first_item = sent->load();
      ++r.count;
      r.bytes += static_cast<std::int64_t>(it.varString.size());
      if (stop_after > 0 && r.count == stop_after) break;
    }
    return r;
  });
  svc.operation("download", [](const download& in, sequence_writer<download_response>& out) {
    out.begin({"n=" + std::to_string(in.count), {}});
    const perf::NestedComplexType item = perf::make_cxf_item();
    for (int i = 0; i < in.count; ++i) out.push(item);
  });
}

class typed_streaming : public ::testing::Test {
 protected:
  void SetUp() override {
    add_streaming_operations(svc_, &sent_at_first_item_, &sent_);
    add_streaming_operations(early_, nullptr, nullptr, 2);
    server_options o;
    o.body_limit = 2ull << 30;
    srv_ = std::make_unique<server>(o);
    srv_->mount("/s", svc_);
    srv_->mount("/early", early_);
    srv_->start();
    base_ = "http://127.0.0.1:" + std::to_string(srv_->port());
  }
  void TearDown() override { srv_->stop(); }

  // POST an upload whose items are written by `items(w)`; returns status and body.
  template <class WriteItems>
  std::pair<unsigned, std::string> post_upload(http::client& c, WriteItems items) {
    std::pair<unsigned, std::string> reply;
    c.post(
        "", soap11_headers,
        [&](xml::output& out) {
          xml::writer w{out};
          begin_soap11_body(w);
          w.start_element(test_ns, "upload");
          w.attribute("", "tag", "7");
          w.start_element(test_ns, "name");
          w.text("up");
          w.end_element();
          items(w, out);
          w.end_document();
        },
        [&](const http::response_head& h, const xml::source_fn& src) {
          reply.first = h.status;
          char buf[4096];
          while (std::size_t n = src(buf, sizeof buf)) reply.second.append(buf, n);
        });
    return reply;
  }

  static service_options unlimited() {
    service_options o;
    o.xml_limits.max_total_bytes = 0;
    return o;
  }
  service svc_{"Streaming", std::string(test_ns), unlimited()};
  service early_{"Early", std::string(test_ns)};
  std::unique_ptr<server> srv_;
  std::string base_;
  std::atomic<long> sent_{0}, sent_at_first_item_{-1};
};

TEST_F(typed_streaming, PeersCallStreamingOperationsWithPlainMessagesOverBothVersions) {
  for (auto v : {soap::version::soap11, soap::version::soap12}) {
    client_options o;
    o.version = v;
    client c{base_ + "/s", o};
    upload req{"plain", 3, perf::make_cxf_seq(5).item};
    auto r = c.call<upload_response>("upload", req);
    EXPECT_EQ(r.name, "plain/3");
    EXPECT_EQ(r.count, 5);
    EXPECT_EQ(r.bytes, 5 * 9);
    auto d = c.call<download_response>("download", download{4});
    EXPECT_EQ(d.label, "n=4");
    ASSERT_EQ(d.item.size(), 4u);
    EXPECT_EQ(d.item[3], perf::make_cxf_item());
    // Empty sequences: no items read, a head-only response.
    EXPECT_EQ(c.call<upload_response>("upload", upload{"none", 1, {}}).count, 0);
    EXPECT_TRUE(c.call<download_response>("download", download{0}).item.empty());
  }
}

TEST_F(typed_streaming, TheWsdlIsThatOfThePlainEquivalent) {
  service plain{"Streaming", std::string(test_ns)};
  plain.operation("upload", [](const upload&) { return upload_response{}; });
  plain.operation("download", [](const download&) { return download_response{}; });
  const std::string streamed = generate_wsdl(svc_, "http://x/s");
  EXPECT_EQ(streamed, generate_wsdl(plain, "http://x/s"));
  EXPECT_TRUE(lather::test::has_element(streamed, "/definitions/types/schema/*/*/sequence/element",
                                        {{"name", "item"},
                                         {"type", "ns1:NestedComplexType"},
                                         {"form", "qualified"},
                                         {"minOccurs", "0"},
                                         {"maxOccurs", "unbounded"}}))
      << streamed;
}

TEST_F(typed_streaming, AnItemThatFailsToBindIsAClientFaultWithItsPath) {
  http::client c{base_ + "/s"};
  auto [status, body] = post_upload(c, [](xml::writer& w, xml::output&) {
    const perf::NestedComplexType item = perf::make_cxf_item();
    for (int i = 0; i < 2; ++i) bind::write(w, test_ns, "item", item);
    w.start_element(test_ns, "item");
    w.start_element(perf::types_ns, "varString");
    w.text("x");
    w.end_element();
    w.start_element(perf::types_ns, "varUByte");
    w.text("300");
    w.end_element();
    w.end_element();
  });
  EXPECT_EQ(status, 500u);
  EXPECT_EQ(fault_code(body), "Client") << body;
  EXPECT_EQ(fault_string(body),
            "/upload/item[3]/varUByte: \"300\" is out of range for xsd:unsignedByte")
      << body;
}

TEST_F(typed_streaming, AnUnexpectedElementAmongTheItemsIsAClientFault) {
  http::client c{base_ + "/s"};
  auto [status, body] = post_upload(c, [](xml::writer& w, xml::output&) {
    bind::write(w, test_ns, "item", perf::make_cxf_item());
    w.start_element(test_ns, "bogus");
    w.end_element();
  });
  EXPECT_EQ(status, 500u);
  // The binding's own message: what the same operation with a plain struct answers.
  EXPECT_EQ(fault_code(body), "Client") << body;
  EXPECT_EQ(fault_string(body),
            "/upload: unexpected element 'bogus' in namespace 'urn:lather:typed-stream'; "
            "expected 'item'")
      << body;
}

TEST_F(typed_streaming, AHeadFieldErrorIsAClientFault) {
  http::client c{base_ + "/s"};
  std::pair<unsigned, std::string> reply;
  c.post(
      "", soap11_headers,
      [](xml::output& out) {
        out.append(
            "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
            "<u:upload xmlns:u='urn:lather:typed-stream' tag='x'><u:name>a</u:name></u:upload>"
            "</s:Body></s:Envelope>");
      },
      [&](const http::response_head& h, const xml::source_fn& src) {
        reply.first = h.status;
        char buf[4096];
        while (std::size_t n = src(buf, sizeof buf)) reply.second.append(buf, n);
      });
  EXPECT_EQ(reply.first, 500u);
  EXPECT_EQ(fault_code(reply.second), "Client") << reply.second;
  EXPECT_EQ(fault_string(reply.second), "/upload/@tag: \"x\" is not a valid xsd:int")
      << reply.second;
}

TEST_F(typed_streaming, AHandlerThatStopsEarlyStillAnswersAndTheConnectionIsReusable) {
  http::client c{base_ + "/early"};
  for (int round = 0; round < 2; ++round) {  // the second call reuses the connection
    auto [status, body] = post_upload(c, [](xml::writer& w, xml::output&) {
      const perf::NestedComplexType item = perf::make_cxf_item();
      for (int i = 0; i < 2000; ++i) bind::write(w, test_ns, "item", item);  // ~4 MB
    });
    EXPECT_EQ(status, 200u);
    EXPECT_EQ(lather::test::find_text(body, "/Envelope/Body/uploadResponse/count"), "2")
        << body.substr(0, 500);
  }
  EXPECT_EQ(c.get("?wsdl").status, 200u);
}

// The client side: a request sequence from a generator, a response sequence read lazily, both
// through lather::client, ~50 MB each way in bounded memory.
TEST_F(typed_streaming, ClientSendsASequenceFromAGeneratorAndReadsOneLazily) {
  constexpr int count = 25'000;  // ~50 MB
  client c{base_ + "/s"};
  reset_peak_rss();
  const long before = peak_rss_kb();
  const perf::NestedComplexType item = perf::make_cxf_item();
  auto up = c.send_sequence<upload_response>("upload", upload{"gen", 5, {}},
                                             [&](sequence_writer<upload>& out) {
                                               for (int i = 0; i < count; ++i) out.push(item);
                                             });
  EXPECT_EQ(up.name, "gen/5");
  EXPECT_EQ(up.count, count);
  EXPECT_EQ(up.bytes, count * 9);
  long received = 0;
  std::string label;
  c.receive_sequence<download_response>(
      "download", download{count},
      [&](const download_response& head, sequence_reader<perf::NestedComplexType> items) {
        label = head.label;
        for (const perf::NestedComplexType& it : items) {
          if (it.varString == item.varString) ++received;
        }
      });
  const long growth_kb = peak_rss_kb() - before;
  EXPECT_EQ(label, "n=" + std::to_string(count));
  EXPECT_EQ(received, count);
  if (!lather::test::sanitized_memory) {  // the RSS holds the sanitizer's shadow and caches
    EXPECT_LT(growth_kb, 32 * 1024) << "peak RSS grew by " << growth_kb << " KB";
  }

  // A consumer that stops early: the rest is skipped and the client stays usable.
  long seen = 0;
  c.receive_sequence<download_response>(
      "download", download{1000},
      [&](const download_response&, sequence_reader<perf::NestedComplexType> items) {
        for (auto it = items.begin(); it != items.end() && seen < 3; ++it) ++seen;
      });
  EXPECT_EQ(seen, 3);
  EXPECT_EQ(c.call<download_response>("download", download{2}).item.size(), 2u);
}

// 1 GB request through the typed operation: bound item by item while it arrives, the peak
// RSS of the process (server and client) grows by far less than the message.
TEST_F(typed_streaming, OneGigabyteRequestStreamsThroughATypedHandlerInBoundedMemory) {
  if (lather::test::sanitized_memory) GTEST_SKIP() << lather::test::sanitized_memory_reason;
  http::client c{base_ + "/s"};
  const std::size_t target = std::size_t(1) << 30;
  long items = 0;
  std::size_t sent_bytes = 0;
  reset_peak_rss();
  const long before = peak_rss_kb();
  auto [status, body] = post_upload(c, [&](xml::writer& w, xml::output& out) {
    const perf::NestedComplexType item = perf::make_cxf_item();
    while (out.flushed() + out.size() < target) {
      bind::write(w, test_ns, "item", item);
      sent_ = ++items;
    }
    sent_bytes = out.flushed() + out.size();
  });
  const long growth_kb = peak_rss_kb() - before;
  EXPECT_EQ(status, 200u) << body.substr(0, 500);
  EXPECT_GE(sent_bytes, target);
  EXPECT_EQ(lather::test::find_text(body, "/Envelope/Body/uploadResponse/count"),
            std::to_string(items))
      << body;
  EXPECT_EQ(lather::test::find_text(body, "/Envelope/Body/uploadResponse/bytes"),
            std::to_string(items * 9));
  // The handler had its first item long before the client wrote the last one.
  EXPECT_GE(sent_at_first_item_.load(), 0);
  EXPECT_LT(sent_at_first_item_.load(), items / 2);
  EXPECT_LT(growth_kb, 64 * 1024) << "peak RSS grew by " << growth_kb << " KB";
}

// 1 GB response from a sequence_writer, read item by item by the client.
TEST_F(typed_streaming, OneGigabyteResponseStreamsFromATypedHandlerInBoundedMemory) {
  if (lather::test::sanitized_memory) GTEST_SKIP() << lather::test::sanitized_memory_reason;
  const int count = 1 << 30 >> 11;  // items of ~2 KB
  http::client c{base_ + "/s"};
  long received = 0;
  std::size_t bytes = 0;
  reset_peak_rss();
  const long before = peak_rss_kb();
  c.post(
      "", soap11_headers,
      [&](xml::output& out) {
        out.append(
            "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
            "<t:download xmlns:t='urn:lather:typed-stream'><t:count>" +
            std::to_string(count) + "</t:count></t:download></s:Body></s:Envelope>");
      },
      [&](const http::response_head& h, const xml::source_fn& src) {
        ASSERT_EQ(h.status, 200u);
        EXPECT_FALSE(h.content_length().has_value());  // streamed: chunked
        received = read_items(src, bytes);
      });
  const long growth_kb = peak_rss_kb() - before;
  EXPECT_EQ(received, count);
  EXPECT_GT(bytes, std::size_t(1) << 30);
  EXPECT_LT(growth_kb, 64 * 1024) << "peak RSS grew by " << growth_kb << " KB";
}

}  // namespace
