// MTOM/XOP and SwA between lather's client and server: attachments both ways in SOAP 1.1 and
// 1.2, inline base64 to and from peers without MTOM, spilling to temporary files, the
// streaming multipart reader, and each kind of bad input answered with a Sender fault.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "../support/xml_query.hpp"
#include "lather/http/client.hpp"
#include "lather/mtom.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"

namespace mtom_test {
constexpr std::string_view ns = "urn:lather:mtom-test";
struct upload {
  std::string name;
  lather::mtom::attachment data;
};
struct uploadResponse {
  std::string name;
  std::uint64_t size = 0;
  std::string content_type;
  bool spilled = false;
  lather::mtom::attachment echo;
};
}  // namespace mtom_test

template <>
struct lather::meta<mtom_test::upload> {
  static constexpr std::string_view name = "upload", ns = mtom_test::ns;
  static constexpr auto fields = std::tuple{element("name", &mtom_test::upload::name),
                                            element("data", &mtom_test::upload::data)};
};
template <>
struct lather::meta<mtom_test::uploadResponse> {
  static constexpr std::string_view name = "uploadResponse", ns = mtom_test::ns;
  static constexpr auto fields =
      std::tuple{element("name", &mtom_test::uploadResponse::name),
                 element("size", &mtom_test::uploadResponse::size),
                 element("contentType", &mtom_test::uploadResponse::content_type),
                 element("spilled", &mtom_test::uploadResponse::spilled),
                 element("echo", &mtom_test::uploadResponse::echo)};
};

namespace {

using namespace lather;
using mtom_test::upload;
using mtom_test::uploadResponse;

std::vector<std::uint8_t> pattern(std::size_t n, unsigned seed = 7) {
  std::vector<std::uint8_t> v(n);
  std::uint32_t x = seed;
  for (auto& b : v) {
    x = x * 1103515245u + 12345u;
    b = static_cast<std::uint8_t>(x >> 16);
  }
  return v;
}

// A byte_source over a string, `step` bytes per pull.
byte_source string_source(std::string s, std::size_t step = 1u << 20) {
  auto data = std::make_shared<std::string>(std::move(s));
  auto at = std::make_shared<std::size_t>(0);
  return [data, at, step](char* dest, std::size_t n) {
    const std::size_t k = std::min({n, step, data->size() - *at});
    std::memcpy(dest, data->data() + *at, k);
    *at += k;
    return k;
  };
}

TEST(mtom_multipart, reads_parts_pulled_a_byte_at_a_time) {
  const std::string body =
      "preamble\r\n--b1\r\nContent-Type: text/xml\r\nContent-ID: <root@x>\r\n\r\n<a/>"
      "\r\n--b1  \r\nContent-ID:\r\n <p2@x>\r\n\r\n\r\n--b\r\n-b1\r\n--b1--\r\nepilogue";
  mtom::multipart_reader parts{"b1", string_source(body, 1)};
  std::vector<std::pair<std::string, std::string>> got;
  while (parts.next_part()) {
    std::string bytes;
    char c;
    while (parts.read(&c, 1)) bytes.push_back(c);
    got.emplace_back(parts.part().content_id, bytes);
  }
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].first, "root@x");
  EXPECT_EQ(got[0].second, "<a/>");
  EXPECT_EQ(got[1].first, "p2@x");             // a folded header
  EXPECT_EQ(got[1].second, "\r\n--b\r\n-b1");  // near-delimiters are data
}

TEST(mtom_multipart, media_type_parameters) {
  auto m = mtom::parse_media_type(
      "Multipart/Related; type=\"application/xop+xml\"; boundary=\"uuid:a;b\"; "
      "start-info=\"application/soap+xml; action=\\\"urn:x\\\"\"");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->type, "multipart/related");
  EXPECT_EQ(m->parameter("boundary"), "uuid:a;b");
  EXPECT_EQ(m->parameter("start-info"), "application/soap+xml; action=\"urn:x\"");
  EXPECT_FALSE(mtom::parse_media_type("no-slash"));
}

class mtom_call : public ::testing::Test {
 protected:
  void SetUp() override {
    auto handler = [](call_context& ctx, const upload& in) {
      uploadResponse r;
      r.name = in.name + "|" + std::string(ctx.http_header("Content-Type").substr(0, 17)) + "|" +
               std::string(ctx.soap_action());
      std::vector<std::uint8_t> bytes = in.data.bytes();  // opened once (stream_parts)
      r.size = bytes.size();
      r.content_type = in.data.content_type();
      r.spilled = !in.data.file_path().empty();
      r.echo = mtom::attachment::from_bytes(std::move(bytes), "application/x-echo");
      return r;
    };
    svc_.operation("upload", handler);
    mtom::enable(svc_);
    srv_.mount("/files", svc_);
    spill_svc_.operation("upload", handler);
    mtom::options spill;
    spill.memory_threshold = 1000;
    spill.limits.max_part_bytes = 300'000;
    mtom::enable(spill_svc_, spill);
    srv_.mount("/spill", spill_svc_);
    stream_svc_.operation("upload", handler);
    mtom::options stream;
    stream.stream_parts = true;
    mtom::enable(stream_svc_, stream);
    srv_.mount("/stream", stream_svc_);
    plain_svc_.operation("upload", handler);
    srv_.mount("/plain", plain_svc_);
    srv_.start();
  }
  void TearDown() override { srv_.stop(); }

  std::string url(std::string_view path = "/files") const {
    return "http://127.0.0.1:" + std::to_string(srv_.port()) + std::string(path);
  }

  // POSTs `body` as `content_type`; returns the status and the response body.
  std::pair<unsigned, std::string> post(std::string_view content_type, std::string body,
                                        std::string_view path = "/files") {
    http::client c{url(path)};
    std::pair<std::string_view, std::string_view> headers[] = {{"Content-Type", content_type},
                                                               {"SOAPAction", "\"\""}};
    std::pair<unsigned, std::string> result;
    c.post(
        "", headers, [&](byte_buffer& out) { out.append(body); },
        [&](const http::response_head& head, const byte_source& in) {
          result.first = head.status;
          char buf[4096];
          while (std::size_t n = in(buf, sizeof buf)) result.second.append(buf, n);
        });
    return result;
  }

  service svc_{"Files", std::string(mtom_test::ns)};
  service spill_svc_{"Files", std::string(mtom_test::ns)};
  service stream_svc_{"Files", std::string(mtom_test::ns)};
  service plain_svc_{"Files", std::string(mtom_test::ns)};
  server srv_{{.port = 0}};
};

constexpr std::string_view envelope_head =
    "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>"
    "<t:upload xmlns:t=\"urn:lather:mtom-test\"><t:name>n</t:name><t:data>";
constexpr std::string_view envelope_tail = "</t:data></t:upload></s:Body></s:Envelope>";
constexpr std::string_view mtom_type =
    "multipart/related; type=\"application/xop+xml\"; boundary=\"B\"; start=\"<root>\"; "
    "start-info=\"text/xml\"";

// A root part whose data field is an xop:Include of `href`.
std::string root_part(std::string_view data_content);
std::string including(std::string_view href) {
  return root_part("<xop:Include xmlns:xop=\"http://www.w3.org/2004/08/xop/include\" href=\"" +
                   std::string(href) + "\"/>");
}

std::string root_part(std::string_view data_content) {
  return "--B\r\nContent-Type: application/xop+xml; charset=UTF-8; type=\"text/xml\"\r\n"
         "Content-ID: <root>\r\n\r\n" +
         std::string(envelope_head) + std::string(data_content) + std::string(envelope_tail);
}

// The envelope of a multipart answer (its root part), or the answer itself.
std::string envelope_of(const std::string& answer) {
  if (!answer.starts_with("--")) return answer;
  const std::size_t boundary_end = answer.find("\r\n");
  const std::string delimiter = "\r\n" + answer.substr(0, boundary_end);
  const std::size_t start = answer.find("\r\n\r\n") + 4;
  return answer.substr(start, answer.find(delimiter, start) - start);
}

std::string fault_reason(const std::string& body) {
  return lather::test::find_text(body, "/Envelope/Body/Fault/faultstring").value_or("(none)");
}
std::string fault_code(const std::string& body) {
  return lather::test::find_text(body, "/Envelope/Body/Fault/faultcode").value_or("(none)");
}

TEST_F(mtom_call, attachments_both_ways_soap11_and_soap12) {
  for (soap::version v : {soap::version::soap11, soap::version::soap12}) {
    client_options o;
    o.version = v;
    client c{url(), o};
    mtom::enable(c);
    const auto bytes = pattern(200'000);
    call_options co;
    co.soap_action = "urn:upload";
    auto r = c.call<uploadResponse>(
        "upload", upload{"a", mtom::attachment::from_bytes(bytes, "image/png")}, co);
    EXPECT_EQ(r.name, "a|multipart/related|urn:upload");
    EXPECT_EQ(r.size, bytes.size());
    EXPECT_EQ(r.content_type, "image/png");
    EXPECT_FALSE(r.spilled);
    EXPECT_EQ(r.echo.content_type(), "application/x-echo");  // came back as a part
    EXPECT_EQ(r.echo.bytes(), bytes);
  }
}

TEST_F(mtom_call, inline_base64_without_mtom_on_either_side) {
  const auto bytes = pattern(70'000);
  client plain{url()};  // no MTOM: the field goes as base64 text, the answer too
  auto r = plain.call<uploadResponse>("upload", upload{"b", mtom::attachment::from_bytes(bytes)});
  EXPECT_EQ(r.name, "b|text/xml; charset|");
  EXPECT_EQ(r.size, bytes.size());
  EXPECT_EQ(r.echo.bytes(), bytes);

  client mtom_client{url("/plain")};  // an MTOM client to a service without MTOM
  mtom::options inline_only;
  inline_only.send = false;
  mtom::enable(mtom_client, inline_only);
  r = mtom_client.call<uploadResponse>("upload", upload{"c", mtom::attachment::from_bytes(bytes)});
  EXPECT_EQ(r.size, bytes.size());
}

TEST_F(mtom_call, small_fields_inline_by_threshold_or_by_choice) {
  client c{url()};
  mtom::options o;
  o.attachment_threshold = 100;
  mtom::enable(c, o);
  // 50 bytes: under the threshold, inline in the multipart message's envelope.
  auto r = c.call<uploadResponse>("upload", upload{"s", mtom::attachment::from_bytes(pattern(50))});
  EXPECT_EQ(r.content_type, "application/octet-stream");
  EXPECT_EQ(r.size, 50u);
  auto forced = mtom::attachment::from_bytes(pattern(5), "text/plain");
  forced.set_mode(mtom::send_as::part);
  r = c.call<uploadResponse>("upload", upload{"p", forced});
  EXPECT_EQ(r.content_type, "text/plain");  // only a part has a type of its own
}

TEST_F(mtom_call, large_parts_spill_to_temporary_files) {
  client c{url("/spill")};
  mtom::options spill;
  spill.memory_threshold = 1000;
  mtom::enable(c, spill);
  const auto bytes = pattern(250'000);
  auto r = c.call<uploadResponse>("upload", upload{"f", mtom::attachment::from_bytes(bytes)});
  EXPECT_TRUE(r.spilled);
  EXPECT_EQ(r.size, bytes.size());
  // The client's received part spilled too, and its file goes with the last reference.
  const std::string path{r.echo.file_path()};
  ASSERT_FALSE(path.empty());
  EXPECT_EQ(r.echo.bytes(), bytes);
  r = {};
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST_F(mtom_call, handler_reads_parts_as_they_arrive) {
  client c{url("/stream")};
  mtom::enable(c);
  const auto bytes = pattern(300'000);
  auto r =
      c.call<uploadResponse>("upload", upload{"s", mtom::attachment::from_bytes(bytes, "a/b")});
  EXPECT_EQ(r.size, bytes.size());
  EXPECT_EQ(r.content_type, "a/b");
  EXPECT_FALSE(r.spilled);  // never stored: read from the request body
  EXPECT_EQ(r.echo.bytes(), bytes);
  // A missing part is found when the handler opens it: the same Sender fault.
  std::string body = including("cid:gone");
  body += "\r\n--B\r\nContent-ID: <other>\r\n\r\nxyz\r\n--B--\r\n";
  auto [status, answer] = post(mtom_type, body, "/stream");
  EXPECT_EQ(status, 500u);
  EXPECT_EQ(lather::test::qname_local(fault_code(answer)), "Client");
  EXPECT_EQ(fault_reason(answer),
            "no MIME part has Content-ID <gone> (an xop:Include refers to it)");
}

// MIME base64 (RFC 2045): 76 characters a line.
std::string mime_base64(const std::vector<std::uint8_t>& bytes) {
  static constexpr char alphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t k = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t v = std::uint32_t(bytes[i]) << 16;
    if (k > 1) v |= std::uint32_t(bytes[i + 1]) << 8;
    if (k > 2) v |= bytes[i + 2];
    for (std::size_t j = 0; j < 4; ++j) out += j <= k ? alphabet[(v >> (18 - 6 * j)) & 63] : '=';
    if (out.size() % 78 == 76) out += "\r\n";
  }
  return out;
}

// The body of the part after the root in a multipart answer.
std::string second_part(const std::string& answer) {
  const std::string delimiter = "\r\n" + answer.substr(0, answer.find("\r\n"));
  const std::size_t second = answer.find(delimiter);
  const std::size_t start = answer.find("\r\n\r\n", second) + 4;
  return answer.substr(start, answer.find(delimiter, start) - start);
}

TEST_F(mtom_call, base64_parts_are_decoded_while_read) {
  for (std::size_t size : {0u, 1u, 2u, 3u, 100'001u}) {
    const auto bytes = pattern(size);
    for (std::string_view path : {"/files", "/stream"}) {
      const std::string body = including("cid:p1") +
                               "\r\n--B\r\nContent-ID: <p1>\r\nContent-Type: a/b\r\n"
                               "Content-Transfer-Encoding: BASE64\r\n\r\n" +
                               mime_base64(bytes) + "\r\n--B--\r\n";
      auto [status, answer] = post(mtom_type, body, path);
      ASSERT_EQ(status, 200u) << answer.substr(0, 600);
      EXPECT_EQ(lather::test::find_text(envelope_of(answer), "/Envelope/Body/uploadResponse/size"),
                std::to_string(size));
      if (size < 1024)  // echoed inline (attachment_threshold)
        EXPECT_EQ(
            lather::test::find_text(envelope_of(answer), "/Envelope/Body/uploadResponse/echo"),
            mime_base64(bytes));
      else
        EXPECT_EQ(second_part(answer), std::string(bytes.begin(), bytes.end())) << path;
    }
  }
  // Not base64, data after the padding, a quantum cut short: a Sender fault that says so.
  for (const auto& [text, why] : std::vector<std::pair<std::string, std::string>>{
           {"AA*A", "a base64 MIME part has a byte that is not base64"},
           {"AA==AA==", "a base64 MIME part has data after its padding"},
           {"AAA", "a base64 MIME part ends inside a quantum"}}) {
    const std::string body = including("cid:p1") +
                             "\r\n--B\r\nContent-ID: <p1>\r\n"
                             "Content-Transfer-Encoding: base64\r\n\r\n" +
                             text + "\r\n--B--\r\n";
    auto [status, answer] = post(mtom_type, body);
    EXPECT_EQ(status, 500u);
    EXPECT_EQ(fault_reason(answer), why) << text;
  }
}

TEST_F(mtom_call, client_takes_a_response_part_as_it_arrives) {
  // A part past memory_threshold would be stored in temp_dir before call() returns; handed to
  // on_response_part it is read from the response body, and nothing is stored.
  const auto dir =
      std::filesystem::temp_directory_path() / ("lather-mtom-stream-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto bytes = pattern(3'000'000);
  std::string id, type;
  std::uint64_t received = 0;
  bool same = true;
  mtom::options o;
  o.temp_dir = dir.string();
  o.on_response_part = [&](std::string_view content_id, std::string_view content_type,
                           const byte_source& in) {
    id = content_id;
    type = content_type;
    char buf[65536];
    while (std::size_t n = in(buf, sizeof buf)) {
      same =
          same && received + n <= bytes.size() && std::memcmp(buf, bytes.data() + received, n) == 0;
      received += n;
      EXPECT_TRUE(std::filesystem::is_empty(dir));  // nothing stored meanwhile
    }
  };
  client c{url()};
  mtom::enable(c, o);
  auto r = c.call<uploadResponse>("upload", upload{"s", mtom::attachment::from_bytes(bytes)});
  EXPECT_EQ(r.size, bytes.size());
  EXPECT_EQ(received, bytes.size());
  EXPECT_TRUE(same);
  EXPECT_EQ(type, "application/x-echo");
  EXPECT_FALSE(id.empty());
  EXPECT_EQ(r.echo.content_id(), id);
  EXPECT_THROW(r.echo.open(), std::logic_error);  // read once, in the callback
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  // A callback that reads nothing: the part is skipped, the call succeeds.
  o.on_response_part = [&](std::string_view, std::string_view, const byte_source&) {};
  client skip{url()};
  mtom::enable(skip, o);
  EXPECT_EQ(
      skip.call<uploadResponse>("upload", upload{"s", mtom::attachment::from_bytes(bytes)}).size,
      bytes.size());
  std::filesystem::remove_all(dir);
}

TEST_F(mtom_call, swa_href_and_percent_encoded_cid) {
  const std::string body =
      "--B\r\nContent-Type: text/xml; charset=utf-8\r\nContent-ID: <root>\r\n\r\n" +
      std::string(envelope_head).substr(0, envelope_head.size() - 8) +
      "<t:data href=\"cid:a%20b@x\"/></t:upload></s:Body></s:Envelope>"
      "\r\n--B\r\nContent-Type: image/gif\r\nContent-ID: <a b@x>\r\n\r\nGIF89a\r\n--B--\r\n";
  auto [status, answer] =
      post("multipart/related; type=\"text/xml\"; boundary=B; start=\"<root>\"", body);
  EXPECT_EQ(status, 200u) << answer;
  const std::string envelope = envelope_of(answer);
  EXPECT_EQ(lather::test::find_text(envelope, "/Envelope/Body/uploadResponse/size"), "6");
  EXPECT_EQ(lather::test::find_text(envelope, "/Envelope/Body/uploadResponse/contentType"),
            "image/gif");
}

// ---- bad input: each a Sender (1.1: Client) fault saying what is wrong ----

TEST_F(mtom_call, multipart_without_boundary) {
  auto [status, body] = post("multipart/related; type=\"application/xop+xml\"", root_part("AA=="));
  EXPECT_EQ(status, 500u);
  EXPECT_EQ(lather::test::qname_local(fault_code(body)), "Client");
  EXPECT_EQ(fault_reason(body), "multipart/related without a boundary parameter");
}

TEST_F(mtom_call, part_over_the_limit) {
  std::string body = including("cid:big");
  body += "\r\n--B\r\nContent-ID: <big>\r\n\r\n" + std::string(400'000, 'x') + "\r\n--B--\r\n";
  auto [status, answer] = post(mtom_type, body, "/spill");
  EXPECT_EQ(status, 500u);
  EXPECT_EQ(fault_reason(answer), "a MIME part is larger than the limit of 300000 bytes");
}

TEST_F(mtom_call, missing_part) {
  std::string body = including("cid:gone");
  body += "\r\n--B\r\nContent-ID: <other>\r\n\r\nxyz\r\n--B--\r\n";
  auto [status, answer] = post(mtom_type, body);
  EXPECT_EQ(status, 500u);
  EXPECT_EQ(lather::test::qname_local(fault_code(answer)), "Client");
  EXPECT_EQ(fault_reason(answer),
            "no MIME part has Content-ID <gone> (an xop:Include refers to it)");
}

TEST_F(mtom_call, non_cid_href) {
  for (std::string href : {"http://169.254.169.254/latest/meta-data", "file:///etc/passwd"}) {
    std::string body = including(href);
    body += "\r\n--B--\r\n";
    auto [status, answer] = post(mtom_type, body);
    EXPECT_EQ(status, 500u);
    EXPECT_EQ(lather::test::qname_local(fault_code(answer)), "Client");
    EXPECT_EQ(fault_reason(answer),
              "/upload/data: an attachment reference must be a cid: URL (only cid: references "
              "are honoured), not \"" +
                  href + "\"");
  }
}

TEST_F(mtom_call, xop_include_outside_a_multipart_message) {
  const std::string body = including("cid:x");
  const std::string envelope = body.substr(body.find("<s:Envelope"));
  auto [status, answer] = post("text/xml; charset=utf-8", envelope);
  EXPECT_EQ(status, 500u);
  EXPECT_EQ(lather::test::qname_local(fault_code(answer)), "Client");
  EXPECT_EQ(fault_reason(answer),
            "/upload/data: an attachment reference (cid:x) in a message that is not MIME "
            "multipart/related");
}

TEST_F(mtom_call, multipart_bomb_of_a_million_parts) {
  std::string body = root_part("AAAA");
  body.reserve(body.size() + 1'000'000 * 11 + 16);
  for (int i = 0; i < 1'000'000; ++i) body += "\r\n--B\r\n\r\nx";
  body += "\r\n--B--\r\n";
  const auto started = std::chrono::steady_clock::now();
  auto [status, answer] = post(mtom_type, body);
  const auto took = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(status, 500u);
  EXPECT_EQ(fault_reason(answer), "the multipart message has more than 1000 parts");
  EXPECT_LT(took, std::chrono::seconds(10));
}

TEST_F(mtom_call, truncated_stream) {
  std::string body = including("cid:p");
  body += "\r\n--B\r\nContent-ID: <p>\r\n\r\nonly half of it";
  auto [status, answer] = post(mtom_type, body);
  EXPECT_EQ(status, 500u);
  EXPECT_EQ(fault_reason(answer), "the multipart body ends before its closing boundary");
  // Cut inside the envelope: the same fault, not an XML error.
  std::tie(status, answer) = post(mtom_type, root_part("AAAA").substr(0, 150));
  EXPECT_EQ(fault_reason(answer), "the multipart body ends before its closing boundary");
}

TEST_F(mtom_call, soap12_action_kept_and_faults_in_soap12) {
  const std::string body =
      "--B\r\nContent-Type: application/xop+xml; type=\"application/soap+xml\"\r\n\r\n"
      "<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\"><s:Body>"
      "<t:upload xmlns:t=\"urn:lather:mtom-test\"><t:name>n</t:name><t:data>AAAA</t:data>"
      "</t:upload></s:Body></s:Envelope>\r\n--B--\r\n";
  auto [status, answer] = post(
      "multipart/related; type=\"application/xop+xml\"; boundary=B; "
      "start-info=\"application/soap+xml\"; action=\"urn:upload\"",
      body);
  EXPECT_EQ(status, 200u) << answer;
  EXPECT_EQ(lather::test::find_text(envelope_of(answer), "/Envelope/Body/uploadResponse/size"),
            "3");
  EXPECT_EQ(lather::test::find_text(envelope_of(answer), "/Envelope/Body/uploadResponse/name"),
            "n|multipart/related|urn:upload");
  std::tie(status, answer) = post(
      "multipart/related; type=\"application/xop+xml\"; start-info=\"application/soap+xml\"", body);
  EXPECT_EQ(status, 400u);  // SOAP 1.2 Sender
  EXPECT_EQ(lather::test::find_text(answer, "/Envelope/Body/Fault/Reason/Text"),
            "multipart/related without a boundary parameter");
}

}  // namespace
