// Streaming through the service layer: a 50 MB request is consumed item by item while the
// client is still sending it, and a 50 MB response is produced item by item, both in bounded
// memory (the process's peak RSS grows by far less than the message).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <future>
#include <optional>
#include <stdexcept>
#include <string>

#include "../support/sanitizer.hpp"
#include "../support/xml_query.hpp"
#include "lather/http/client.hpp"
#include "lather/perf/types.hpp"
#include "lather/service/server.hpp"
#include "lather/service/service.hpp"
#include "streaming_support.hpp"

namespace {

using namespace lather;
constexpr std::string_view test_ns = "urn:lather:stream";
// ~2 KB each: 25,000 items are ~50 MB of XML. LATHER_STREAM_ITEMS=500000 runs the same tests
// with ~1 GB each way (about a minute on 2 cores; the RSS bounds are the same).
const int items = [] {
  const char* env = std::getenv("LATHER_STREAM_ITEMS");
  return env ? std::atoi(env) : 25'000;
}();

using namespace streaming_support;

// Reads the children of the current element one at a time; calls f for each <item>.
template <class F>
void for_each_item(xml::reader& r, F&& f) {
  for (auto t = r.next(); t != xml::token::end_element; t = r.next()) {
    if (t == xml::token::error) throw xml::error(r.error());
    if (t == xml::token::start_element) f(r);
  }
}

class streaming : public ::testing::Test {
 protected:
  void SetUp() override {
    svc_.raw_operation("consume", std::string(test_ns), "consume",
                       [this](call_context&, xml::reader& r, xml::writer& w) {
                         perf::NestedComplexType item;
                         int count = 0;
                         for_each_item(r, [&](xml::reader& rr) {
                           if (count == 0) written_at_first_item_ = written_.load();
                           bind::read_or_throw(rr, item);
                           ++count;
                         });
                         w.start_element(test_ns, "consumeResponse");
                         w.text(std::to_string(count));
                         w.end_element();
                       });
    svc_.raw_operation("produce", std::string(test_ns), "produce",
                       [](call_context&, xml::reader& r, xml::writer& w) {
                         r.skip_element();
                         const perf::NestedComplexType item = perf::make_cxf_item();
                         w.start_element(test_ns, "produceResponse");
                         for (int i = 0; i < items; ++i) bind::write(w, test_ns, "item", item);
                         w.end_element();
                       });
    server_options o;
    o.body_limit = 1ull << 30;
    srv_ = std::make_unique<server>(o);
    srv_->mount("/s", svc_);
    srv_->start();
    url_ = "http://127.0.0.1:" + std::to_string(srv_->port()) + "/s";
  }
  void TearDown() override { srv_->stop(); }

  // No total-size cap on the request reader: LATHER_STREAM_ITEMS can make it 1 GB.
  service svc_{"Streaming", std::string(test_ns), [] {
                 service_options o;
                 o.xml_limits.max_total_bytes = 0;
                 return o;
               }()};
  std::unique_ptr<server> srv_;
  std::string url_;
  std::atomic<int> written_{0};
  int written_at_first_item_ = -1;
};

TEST_F(streaming, FiftyMegabyteRequestIsConsumedWhileItArrivesInBoundedMemory) {
  http::client c{url_};
  const perf::NestedComplexType item = perf::make_cxf_item();
  std::string reply;
  reset_peak_rss();
  const long before = peak_rss_kb();
  std::size_t sent = 0;
  c.post(
      "", soap11_headers,
      [&](xml::output& out) {
        written_ = 0;
        xml::writer w{out};
        begin_soap11_body(w);
        w.start_element(test_ns, "consume");
        for (int i = 0; i < items; ++i) {
          bind::write(w, test_ns, "item", item);
          written_.fetch_add(1);
        }
        w.end_document();
        sent = out.flushed() + out.size();
      },
      [&](const http::response_head& h, const xml::source_fn& src) {
        EXPECT_EQ(h.status, 200u);
        char buf[4096];
        while (std::size_t n = src(buf, sizeof buf)) reply.append(buf, n);
      });
  const long growth_kb = peak_rss_kb() - before;
  EXPECT_GT(sent, std::size_t(items) * 1800);
  EXPECT_EQ(lather::test::find_text(reply, "/Envelope/Body/consumeResponse"), std::to_string(items))
      << reply;
  // The handler saw its first item long before the client had written the last one.
  EXPECT_GE(written_at_first_item_, 0);
  EXPECT_LT(written_at_first_item_, items / 2);
  // Neither side buffered the message: peak RSS grew by far less than its 50 MB.
  if (!lather::test::sanitized_memory) {  // the RSS holds the sanitizer's shadow and caches
    EXPECT_LT(growth_kb, 16 * 1024) << "peak RSS grew by " << growth_kb << " KB";
  }
}

TEST_F(streaming, FiftyMegabyteResponseIsProducedAndReadItemByItem) {
  http::client c{url_};
  int received = 0;
  std::size_t bytes = 0;
  reset_peak_rss();
  const long before = peak_rss_kb();
  c.post(
      "", soap11_headers,
      [&](xml::output& out) {
        out.append(
            "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
            "<p:produce xmlns:p='urn:lather:stream'/></s:Body></s:Envelope>");
      },
      [&](const http::response_head& h, const xml::source_fn& src) {
        ASSERT_EQ(h.status, 200u);
        EXPECT_FALSE(h.content_length().has_value());  // streamed: chunked
        received = static_cast<int>(read_items(src, bytes));
      });
  const long growth_kb = peak_rss_kb() - before;
  EXPECT_EQ(received, items);
  EXPECT_GT(bytes, std::size_t(items) * 1800);
  if (!lather::test::sanitized_memory) {  // the RSS holds the sanitizer's shadow and caches
    EXPECT_LT(growth_kb, 16 * 1024) << "peak RSS grew by " << growth_kb << " KB";
  }
}

// A typed handler gets the whole request object, so the server's peak RSS grows by one object
// graph: less than the message (the C++ items are smaller than their XML). After a large
// message the operation frees its pooled request/response objects instead of keeping them
// warm, so a second call reuses that memory rather than holding a second graph (a swapping
// echo otherwise keeps the previous response's items while it reads the next request).
TEST(streaming_typed, LargeEchoHoldsOneObjectGraphSmallerThanTheMessage) {
  if (lather::test::sanitized_memory) GTEST_SKIP() << lather::test::sanitized_memory_reason;
  service svc{"PerfService", std::string(perf::service_ns)};
  svc.operation("echoComplexTypeDoc",
                [](perf::echoComplexTypeDoc& in, perf::echoComplexTypeDocResponse& out) {
                  std::swap(out.return_, in.in);
                  out.idout = in.id;
                });
  server_options o;
  o.body_limit = 1ull << 30;
  server srv{o};
  srv.mount("/perf", svc);
  srv.start();
  // The request streams from its first call: this process's peak RSS is the measure, and a
  // client that has not heard from its server yet would buffer the first 1 MiB (RFC 9112 §6.1).
  http::client c{"http://127.0.0.1:" + std::to_string(srv.port()) + "/perf",
                 {.unknown_server_buffer = 0}};
  // ~13 MB of request XML; just under a power of two, so the item vector has little slack.
  const int echo_items = 8000;
  const perf::NestedComplexType item = perf::make_cxf_item();
  // Streams the request and reads the reply item by item: the client side stays small.
  auto echo = [&] {
    std::size_t sent = 0;
    int received = 0;
    c.post(
        "", soap11_headers,
        [&](xml::output& out) {
          xml::writer w{out};
          begin_soap11_body(w);
          w.start_element(perf::types_ns, "echoComplexTypeDoc");
          w.start_element(perf::types_ns, "in");
          for (int i = 0; i < echo_items; ++i) bind::write(w, perf::types_ns, "item", item);
          w.end_element();
          w.start_element(perf::types_ns, "id");
          w.text("7");
          w.end_document();
          sent = out.flushed() + out.size();
        },
        [&](const http::response_head& h, const xml::source_fn& src) {
          ASSERT_EQ(h.status, 200u);
          xml::reader r;
          r.reset();
          r.set_source(src);
          perf::NestedComplexType got;
          for (auto t = r.next(); t != xml::token::end_document; t = r.next()) {
            ASSERT_NE(t, xml::token::error) << r.error().message();
            if (t == xml::token::start_element && r.local_name() == "item") {
              bind::read_or_throw(r, got);
              ++received;
            }
          }
        });
    EXPECT_EQ(received, echo_items);
    return sent;
  };
  reset_peak_rss();
  const long before = peak_rss_kb();
  const std::size_t sent = echo();
  const long first_kb = peak_rss_kb() - before;
  echo();
  const long both_kb = peak_rss_kb() - before;
  srv.stop();
  EXPECT_GT(sent, std::size_t(echo_items) * 1500);
  // ~0.75x measured: 384-byte items plus ~670 bytes of strings and binaries each, against
  // ~1,630 bytes of XML.
  EXPECT_LT(double(first_kb) * 1024, 0.9 * double(sent))
      << "peak RSS grew by " << first_kb << " KB";
  EXPECT_LT(both_kb, first_kb + first_kb / 4)
      << "first call " << first_kb << " KB, both " << both_kb << " KB";
}

// A streamed response is complete when the operation has written it: its last chunk goes out
// then, not when the call returns, so the client is not kept waiting for what the server does
// after writing (freeing a large message's objects, interceptors). Here the `after` interceptor
// waits until the client has read the whole response (bounded: 20 s).
TEST(streaming_typed, StreamedResponseEndsBeforeTheCallReturns) {
  service svc{"PerfService", std::string(perf::service_ns)};
  svc.operation("echoStringDoc", [](perf::echoStringDoc& in, perf::echoStringDocResponse& out) {
    out.out.assign(std::stoul(in.in), 'x');
  });
  std::promise<void> client_has_all;
  std::promise<bool> server_saw_it;  // true: the client had the whole response before `after`
  svc.intercept({.before = {}, .after = [&](call_context&, const call_info&) {
                   server_saw_it.set_value(
                       client_has_all.get_future().wait_for(std::chrono::seconds(20)) ==
                       std::future_status::ready);
                 }});
  server srv{server_options{}};
  srv.mount("/perf", svc);
  srv.start();
  http::client c{"http://127.0.0.1:" + std::to_string(srv.port()) + "/perf"};
  std::size_t received = 0;
  c.post(
      "", soap11_headers,
      [&](xml::output& out) {
        out.append(
            "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
            "<p:echoStringDoc xmlns:p='http://cxf.apache.org/cxf/performance/types'>"
            "<p:in>200000</p:in></p:echoStringDoc></s:Body></s:Envelope>");
      },
      [&](const http::response_head& h, const xml::source_fn& src) {
        EXPECT_EQ(h.status, 200u);
        EXPECT_FALSE(h.content_length().has_value());  // streamed (chunked)
        char buf[4096];
        while (std::size_t n = src(buf, sizeof buf)) received += n;  // to the last chunk
        client_has_all.set_value();
      });
  EXPECT_GT(received, 200'000u);
  auto saw = server_saw_it.get_future();
  ASSERT_EQ(saw.wait_for(std::chrono::seconds(30)), std::future_status::ready);
  EXPECT_TRUE(saw.get()) << "the last chunk was sent only after the call returned";
  srv.stop();
}

// chunking never buffers a whole response to send its Content-Length; that buffer is bounded
// like a request body: a response past body_limit becomes a Server fault instead of growing.
TEST(streaming_never, BufferedResponseIsBoundedByTheBodyLimit) {
  service svc{"PerfService", std::string(perf::service_ns)};
  svc.operation("echoStringDoc", [](perf::echoStringDoc& in, perf::echoStringDocResponse& out) {
    out.out.assign(std::stoul(in.in), 'x');  // a response of the requested size
  });
  server_options o;
  o.response_chunking.never = true;
  o.body_limit = 256 * 1024;
  server srv{o};
  srv.mount("/perf", svc);
  srv.start();
  http::client c{"http://127.0.0.1:" + std::to_string(srv.port()) + "/perf"};
  struct answer {
    unsigned status = 0;
    std::optional<std::uint64_t> content_length;
    std::string body;
  };
  auto call = [&](std::size_t size) {
    answer a;
    c.post(
        "", soap11_headers,
        [&](xml::output& out) {
          out.append(
              "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
              "<p:echoStringDoc xmlns:p='http://cxf.apache.org/cxf/performance/types'><p:in>" +
              std::to_string(size) + "</p:in></p:echoStringDoc></s:Body></s:Envelope>");
        },
        [&](const http::response_head& h, const xml::source_fn& src) {
          a.status = h.status;
          a.content_length = h.content_length();
          char buf[4096];
          while (std::size_t n = src(buf, sizeof buf)) a.body.append(buf, n);
        });
    return a;
  };
  const answer fits = call(200'000);
  EXPECT_EQ(fits.status, 200u);
  ASSERT_TRUE(fits.content_length.has_value());
  EXPECT_GT(*fits.content_length, 200'000u);
  const answer too_big = call(300'000);
  EXPECT_EQ(too_big.status, 500u);
  EXPECT_EQ(lather::test::count_elements(too_big.body, "/Envelope/Body/Fault"), 1u)
      << too_big.body.substr(0, 300);
  EXPECT_LT(too_big.body.size(), 4096u);
  EXPECT_EQ(call(100).status, 200u);  // the exchange is usable again
  srv.stop();
}

}  // namespace

namespace {

// A client that disconnects in the middle of a streamed response: the handler's next write
// throws (the client is gone), the handler unwinds, and the server goes on serving.
TEST(streaming_disconnect, HandlerIsCancelledWhenTheClientGoesAway) {
  std::atomic<int> finished{0}, unwound{0};
  std::promise<void> handler_exited;
  service svc{"Cancel", std::string(test_ns)};
  svc.raw_operation("produce", std::string(test_ns), "produce",
                    [&](call_context&, xml::reader& r, xml::writer& w) {
                      struct on_exit {
                        std::atomic<int>& n;
                        std::promise<void>& done;
                        ~on_exit() {
                          ++n;
                          done.set_value();
                        }
                      } guard{unwound, handler_exited};
                      r.skip_element();
                      const perf::NestedComplexType item = perf::make_cxf_item();
                      w.start_element(test_ns, "produceResponse");
                      for (int i = 0; i < 200'000; ++i) bind::write(w, test_ns, "item", item);
                      w.end_element();
                      ++finished;
                    });
  server srv{server_options{}};
  srv.mount("/s", svc);
  srv.start();
  const std::string url = "http://127.0.0.1:" + std::to_string(srv.port()) + "/s";
  {
    http::client c{url};
    try {
      c.post(
          "", soap11_headers,
          [](xml::output& out) {
            out.append(
                "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
                "<p:produce xmlns:p='urn:lather:stream'/></s:Body></s:Envelope>");
          },
          [](const http::response_head&, const xml::source_fn& src) {
            char buf[4096];
            src(buf, sizeof buf);  // read a little, then hang up
            throw std::runtime_error("client hangs up");
          });
    } catch (const std::runtime_error&) {
    }
  }  // the client and its connection are gone
  // The handler notices on a write and unwinds.
  ASSERT_EQ(handler_exited.get_future().wait_for(std::chrono::seconds(30)),
            std::future_status::ready);
  EXPECT_EQ(unwound.load(), 1);
  EXPECT_EQ(finished.load(), 0);  // it did not run to the end of its 400 MB
  // The server still answers.
  http::client c2{url};
  EXPECT_EQ(c2.get("?wsdl").status, 200u);
  srv.stop();
}

}  // namespace
