// Odd but legal requests, as real SOAP stacks send them (shared/interop/WIRE-QUIRKS.md), sent
// byte for byte over a socket to lather-interop-server: each must be answered with the right
// result.  The server is started once per test on an ephemeral port (it prints "READY <port>").
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <optional>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "../support/paths.hpp"
#include "../support/process.hpp"
#include "../support/xml_query.hpp"

namespace {

namespace fs = std::filesystem;
using Clock = lather::test::clock;
using Process = lather::test::process;
using namespace std::chrono_literals;

struct HttpAnswer {
  int status = 0;
  std::string head;  // status line and headers
  std::string body;  // de-chunked
};

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::optional<std::string> header(const HttpAnswer& answer, std::string_view name) {
  const std::string head = lower(answer.head);
  const std::string key = "\r\n" + lower(name) + ":";
  const auto at = head.find(key);
  if (at == std::string::npos) return std::nullopt;
  const auto begin = answer.head.find_first_not_of(' ', at + key.size());
  const auto end = answer.head.find("\r\n", begin);
  return answer.head.substr(begin, end - begin);
}

std::string dechunk(std::string_view data) {
  std::string out;
  std::size_t at = 0;
  while (at < data.size()) {
    const auto eol = data.find("\r\n", at);
    if (eol == std::string_view::npos) break;
    const std::size_t size = std::stoul(std::string(data.substr(at, eol - at)), nullptr, 16);
    if (size == 0) break;
    out.append(data.substr(eol + 2, size));
    at = eol + 2 + size + 2;
  }
  return out;
}

// Sends `request` as is and reads until the server closes (every request here either says
// Connection: close or is HTTP/1.0 without keep-alive).
std::optional<HttpAnswer> send_raw(int port, const std::string& request) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  timeval timeout{10, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return std::nullopt;
  }
  for (std::size_t sent = 0; sent < request.size();) {
    const ssize_t n = send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) {
      close(fd);
      return std::nullopt;
    }
    sent += static_cast<std::size_t>(n);
  }
  std::string raw;
  char buffer[16384];
  for (;;) {
    const ssize_t n = recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) break;  // close, or the 10 s timeout: the answer is checked below
    raw.append(buffer, static_cast<std::size_t>(n));
  }
  close(fd);
  const auto head_end = raw.find("\r\n\r\n");
  if (head_end == std::string::npos || raw.size() < 12) return std::nullopt;
  HttpAnswer answer;
  answer.status = std::stoi(raw.substr(9, 3));
  answer.head = raw.substr(0, head_end);
  answer.body = raw.substr(head_end + 4);
  const auto encoding = header(answer, "Transfer-Encoding");
  if (encoding && lower(*encoding) == "chunked") answer.body = dechunk(answer.body);
  return answer;
}

// A request: head lines (CRLF added; Content-Length added unless chunked) and body.
std::string http_request(std::string_view request_line, std::vector<std::string> headers,
                         std::string_view body) {
  std::string out(request_line);
  out += "\r\nHost: 127.0.0.1\r\n";
  bool chunked = false;
  for (const std::string& h : headers) {
    out += h + "\r\n";
    chunked = chunked || lower(h).starts_with("transfer-encoding: chunked");
  }
  if (chunked) {
    // Two chunks, split inside the body, to exercise a body arriving in pieces.
    const std::size_t half = body.size() / 2;
    char size[32];
    out += "\r\n";
    std::snprintf(size, sizeof size, "%zx\r\n", half);
    out += size;
    out += body.substr(0, half);
    std::snprintf(size, sizeof size, "\r\n%zx\r\n", body.size() - half);
    out += size;
    out += body.substr(half);
    out += "\r\n0\r\n\r\n";
    return out;
  }
  out += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out += body;
  return out;
}

constexpr std::string_view kSoap11 = "http://schemas.xmlsoap.org/soap/envelope/";

std::string envelope11(std::string_view body_content) {
  return "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\">"
         "<soap:Body>" +
         std::string(body_content) + "</soap:Body></soap:Envelope>";
}

// The text of the response's `result` part (or of a field below it, `below` = "/name"): the
// RPC wrapper's child, read by path with lather's reader.
std::optional<std::string> result(const std::string& body, const std::string& below = "") {
  return lather::test::find_text(body, "/Envelope/Body/*/result" + below);
}

class LatherWire : public testing::Test {
 protected:
  void SetUp() override {
    const fs::path binary = fs::path(lather::test::bin_dir) / "lather-interop-server";
    if (!fs::exists(binary)) GTEST_SKIP() << "lather-interop-server not built";
    // A log per test: CTest runs them as processes of their own, side by side.
    const fs::path log = lather::test::fresh_log(
        fs::path(lather::test::bin_dir).parent_path() / "lather_wire_test" /
        (std::string(testing::UnitTest::GetInstance()->current_test_info()->name()) + ".log"));
    server_.emplace(std::vector<std::string>{binary.string(), "--port", "0"}, log, true);
    ASSERT_TRUE(server_->started());
    std::string line;
    ASSERT_TRUE(server_->read_line(line, Clock::now() + 20s)) << "no READY; see " << log;
    ASSERT_TRUE(line.starts_with("READY ")) << line;
    port_ = std::stoi(line.substr(6));
  }
  void TearDown() override {
    if (server_) server_->stop();
  }

  // Posts to /interop and expects 200 with `expected` as the text of the response's result.
  void expect_result(const std::string& request, std::string_view expected) {
    const auto answer = send_raw(port_, request);
    ASSERT_TRUE(answer) << "no HTTP answer";
    EXPECT_EQ(answer->status, 200) << answer->head << "\n" << answer->body;
    EXPECT_EQ(result(answer->body), expected) << answer->body;
  }

  std::optional<Process> server_;
  int port_ = 0;
};

const std::vector<std::string> kSoap11Headers = {"Content-Type: text/xml; charset=utf-8",
                                                 "SOAPAction: \"urn:interop#echoString\"",
                                                 "Connection: close"};

TEST_F(LatherWire, DefaultNamespaceRedeclaredOnEveryElement) {
  // node-soap style: default namespaces, no prefixes at all, redeclared per element.
  const std::string body =
      "<Envelope xmlns=\"http://schemas.xmlsoap.org/soap/envelope/\"><Body>"
      "<echoString xmlns=\"urn:interop\"><value xmlns=\"urn:interop\">plain</value>"
      "</echoString></Body></Envelope>";
  expect_result(http_request("POST /interop HTTP/1.1", kSoap11Headers, body), "plain");
}

TEST_F(LatherWire, UnprefixedChildrenUnderPrefixedWrapper) {
  const std::string body = envelope11(
      "<ns1:echoInt xmlns:ns1=\"urn:interop\"><value xmlns=\"urn:interop\">42</value>"
      "</ns1:echoInt>");
  expect_result(http_request("POST /interop HTTP/1.1",
                             {"Content-Type: text/xml; charset=utf-8",
                              "SOAPAction: \"urn:interop#echoInt\"", "Connection: close"},
                             body),
                "42");
}

TEST_F(LatherWire, SoapLiteStyleRequest) {
  // A fresh prefix per element, encodingStyle on a literal Envelope, xsi:type on the value,
  // SOAPAction without quotes.
  const std::string body =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?><soap:Envelope "
      "xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\" "
      "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
      "xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" "
      "soap:encodingStyle=\"http://schemas.xmlsoap.org/soap/encoding/\"><soap:Body>"
      "<namesp1:echoString xmlns:namesp1=\"urn:interop\"><namesp45731:value "
      "xmlns:namesp45731=\"urn:interop\" xsi:type=\"xsd:string\">lite</namesp45731:value>"
      "</namesp1:echoString></soap:Body></soap:Envelope>";
  expect_result(http_request("POST /interop HTTP/1.1",
                             {"Content-Type: text/xml; charset=utf-8",
                              "SOAPAction: urn:interop#echoString", "Connection: close"},
                             body),
                "lite");
}

TEST_F(LatherWire, XsiTypeOnLiteralStruct) {
  const std::string body = envelope11(
      "<n:echoStruct xmlns:n=\"urn:interop\" "
      "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
      "xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><n:value xsi:type=\"n:Struct\">"
      "<n:name xsi:type=\"xsd:string\">typed</n:name><n:count xsi:type=\"xsd:int\">1</n:count>"
      "<n:price xsi:type=\"xsd:double\">2.5</n:price>"
      "<n:when xsi:type=\"xsd:dateTime\">2003-11-05T12:34:56Z</n:when></n:value>"
      "</n:echoStruct>");
  const auto answer =
      send_raw(port_, http_request("POST /interop HTTP/1.1",
                                   {"Content-Type: text/xml; charset=utf-8",
                                    "SOAPAction: \"urn:interop#echoStruct\"", "Connection: close"},
                                   body));
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->status, 200) << answer->body;
  EXPECT_EQ(result(answer->body, "/name"), "typed") << answer->body;
  EXPECT_EQ(result(answer->body, "/price"), "2.5") << answer->body;
}

TEST_F(LatherWire, PrettyPrintedWithExtraWhitespace) {
  const std::string body =
      "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\n"
      "<soap:Envelope\n    xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"\n"
      "    xmlns:n=\"urn:interop\" >\n  <soap:Header>\n  </soap:Header>\n  <soap:Body>\n"
      "    <n:addNumbers>\n      <n:a>\n        2\n      </n:a>\n      <n:b>\t3 </n:b>\n"
      "    </n:addNumbers>\n  </soap:Body>\n</soap:Envelope>\n\n";
  expect_result(http_request("POST /interop HTTP/1.1",
                             {"Content-Type: text/xml; charset=utf-8",
                              "SOAPAction: \"urn:interop#addNumbers\"", "Connection: close"},
                             body),
                "5");
}

TEST_F(LatherWire, CharsetMissingOrQuoted) {
  const std::string body = envelope11(
      "<n:echoString xmlns:n=\"urn:interop\"><n:value>caf\xc3\xa9</n:value>"
      "</n:echoString>");
  for (const char* content_type :
       {"Content-Type: text/xml", "Content-Type: text/xml; charset=\"utf-8\"",
        "Content-Type: text/xml;charset=UTF-8", "Content-Type: TEXT/XML; Charset=\"UTF-8\""}) {
    SCOPED_TRACE(content_type);
    expect_result(
        http_request("POST /interop HTTP/1.1",
                     {content_type, "SOAPAction: \"urn:interop#echoString\"", "Connection: close"},
                     body),
        "caf\xc3\xa9");
  }
}

TEST_F(LatherWire, SoapActionUnquotedEmptyOrMissing) {
  const std::string body =
      envelope11("<n:echoString xmlns:n=\"urn:interop\"><n:value>act</n:value></n:echoString>");
  for (const char* action : {"SOAPAction: urn:interop#echoString", "SOAPAction: \"\"",
                             "SOAPAction: \"urn:interop#echoString\""}) {
    SCOPED_TRACE(action);
    expect_result(
        http_request("POST /interop HTTP/1.1",
                     {"Content-Type: text/xml; charset=utf-8", action, "Connection: close"}, body),
        "act");
  }
}

TEST_F(LatherWire, Http10WithoutKeepAlive) {
  const std::string body =
      envelope11("<n:echoString xmlns:n=\"urn:interop\"><n:value>old</n:value></n:echoString>");
  const auto answer = send_raw(port_, http_request("POST /interop HTTP/1.0",
                                                   {"Content-Type: text/xml; charset=utf-8",
                                                    "SOAPAction: \"urn:interop#echoString\""},
                                                   body));
  // send_raw() reads until the server closes: getting here with the body means it did.
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->status, 200) << answer->body;
  EXPECT_EQ(result(answer->body), "old") << answer->body;
  EXPECT_FALSE(header(*answer, "Transfer-Encoding").has_value())
      << "no chunked encoding towards an HTTP/1.0 client:\n"
      << answer->head;
}

TEST_F(LatherWire, ChunkedRequestBody) {
  const std::string body = envelope11(
      "<n:echoString xmlns:n=\"urn:interop\"><n:value>in pieces</n:value></n:echoString>");
  expect_result(http_request("POST /interop HTTP/1.1",
                             {"Content-Type: text/xml; charset=utf-8",
                              "SOAPAction: \"urn:interop#echoString\"",
                              "Transfer-Encoding: chunked", "Connection: close"},
                             body),
                "in pieces");
}

TEST_F(LatherWire, Soap12ActionInContentType) {
  const std::string body =
      "<env:Envelope xmlns:env=\"http://www.w3.org/2003/05/soap-envelope\"><env:Body>"
      "<n:echoInt xmlns:n=\"urn:interop\"><n:value>-7</n:value></n:echoInt></env:Body>"
      "</env:Envelope>";
  expect_result(http_request("POST /interop HTTP/1.1",
                             {"Content-Type: application/soap+xml; charset=utf-8; "
                              "action=\"urn:interop#echoInt\"",
                              "Connection: close"},
                             body),
                "-7");
}

TEST_F(LatherWire, OtherStacksLexicalForms) {
  // soap4r's leading '+' on doubles, Axis's ".000Z", zeep's "+00:00".
  const std::string body = envelope11(
      "<n:echoStruct xmlns:n=\"urn:interop\"><n:value><n:name>forms</n:name>"
      "<n:count>+7</n:count><n:price>+1234.5</n:price>"
      "<n:when>2003-11-05T12:34:56.000Z</n:when><n:tags>t</n:tags></n:value></n:echoStruct>");
  const auto answer =
      send_raw(port_, http_request("POST /interop HTTP/1.1",
                                   {"Content-Type: text/xml; charset=utf-8",
                                    "SOAPAction: \"urn:interop#echoStruct\"", "Connection: close"},
                                   body));
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->status, 200) << answer->body;
  EXPECT_EQ(result(answer->body, "/price"), "1234.5") << answer->body;
  EXPECT_EQ(result(answer->body, "/count"), "7") << answer->body;
  EXPECT_EQ(result(answer->body, "/when").value_or("").substr(0, 19), "2003-11-05T12:34:56")
      << answer->body;
}

TEST_F(LatherWire, Base64WithLineBreaks) {
  // soap4r breaks base64 every 60 characters; "AAECAwQF..." is bytes 0..44.
  std::string encoded =
      "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKiss\n"
      "\n";
  const std::string body = envelope11("<n:echoBinary xmlns:n=\"urn:interop\"><n:value>" + encoded +
                                      "</n:value></n:echoBinary>");
  expect_result(http_request("POST /interop HTTP/1.1",
                             {"Content-Type: text/xml; charset=utf-8",
                              "SOAPAction: \"urn:interop#echoBinary\"", "Connection: close"},
                             body),
                "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKiss");
}

TEST_F(LatherWire, FaultIsClientWithReason) {
  const std::string body =
      envelope11("<n:addNumbers xmlns:n=\"urn:interop\"><n:a>-1</n:a><n:b>5</n:b></n:addNumbers>");
  const auto answer =
      send_raw(port_, http_request("POST /interop HTTP/1.1",
                                   {"Content-Type: text/xml; charset=utf-8",
                                    "SOAPAction: \"urn:interop#addNumbers\"", "Connection: close"},
                                   body));
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->status, 500);
  const auto envelope = lather::test::find_element(answer->body, "/Envelope");
  ASSERT_TRUE(envelope) << answer->body;
  EXPECT_EQ(envelope->ns, kSoap11);
  EXPECT_EQ(lather::test::qname_local(
                lather::test::find_text(answer->body, "/Envelope/Body/Fault/faultcode")),
            "Client")
      << answer->body;
  EXPECT_EQ(lather::test::find_text(answer->body, "/Envelope/Body/Fault/faultstring"), "negative")
      << answer->body;
  EXPECT_EQ(
      lather::test::count_elements(answer->body, "/Envelope/Body/Fault/detail/negativeArgument"),
      1u)
      << "the fault carries a detail:\n"
      << answer->body;
}

TEST_F(LatherWire, EncodedAxisMultiRefsAnsweredWithTypedValues) {
  // Axis 1.4 style: the struct is a top-level multiRef after the RPC element, items of the
  // SOAP-ENC array are named after the field, encodingStyle on every element.
  const std::string body =
      "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\" "
      "xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" "
      "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"><soapenv:Body>"
      "<ns1:echoStruct soapenv:encodingStyle=\"http://schemas.xmlsoap.org/soap/encoding/\" "
      "xmlns:ns1=\"urn:interop\"><value href=\"#id0\"/></ns1:echoStruct>"
      "<multiRef id=\"id0\" soapenc:root=\"0\" "
      "soapenv:encodingStyle=\"http://schemas.xmlsoap.org/soap/encoding/\" "
      "xsi:type=\"ns2:Struct\" xmlns:soapenc=\"http://schemas.xmlsoap.org/soap/encoding/\" "
      "xmlns:ns2=\"urn:interop\"><name xsi:type=\"xsd:string\">axis</name>"
      "<count xsi:type=\"xsd:int\">3</count><price xsi:type=\"xsd:double\">0.5</price>"
      "<when xsi:type=\"xsd:dateTime\">2003-11-05T12:34:56.000Z</when>"
      "<tags xsi:type=\"soapenc:Array\" soapenc:arrayType=\"xsd:string[2]\">"
      "<tags xsi:type=\"xsd:string\">a</tags><tags xsi:type=\"xsd:string\">b</tags></tags>"
      "<note xsi:type=\"xsd:string\" xsi:nil=\"true\"/></multiRef></soapenv:Body>"
      "</soapenv:Envelope>";
  const auto answer =
      send_raw(port_, http_request("POST /interop/encoded HTTP/1.1",
                                   {"Content-Type: text/xml; charset=utf-8",
                                    "SOAPAction: \"urn:interop#echoStruct\"", "Connection: close"},
                                   body));
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->status, 200) << answer->body;
  EXPECT_EQ(result(answer->body, "/name"), "axis") << answer->body;
  std::vector<std::string> tags;
  for (const auto& item : lather::test::find_elements(answer->body, "/Envelope/Body/*/*/tags/item"))
    tags.push_back(item.text);
  EXPECT_EQ(tags, (std::vector<std::string>{"a", "b"})) << answer->body;
  // Section 5 on the way out: typed values and a SOAP-ENC array with its arrayType.
  const auto name = lather::test::find_element(answer->body, "/Envelope/Body/*/*/name");
  ASSERT_TRUE(name) << answer->body;
  EXPECT_EQ(name->attribute("type"), "xsd:string") << answer->body;
  EXPECT_TRUE(lather::test::has_element(answer->body, "/Envelope/Body/*/*/tags",
                                        {{"arrayType", "xsd:string[2]"}}))
      << answer->body;
}

TEST_F(LatherWire, ResponseNamesItsContentType) {
  const std::string body =
      envelope11("<n:echoString xmlns:n=\"urn:interop\"><n:value>ct</n:value></n:echoString>");
  const auto answer = send_raw(port_, http_request("POST /interop HTTP/1.1", kSoap11Headers, body));
  ASSERT_TRUE(answer);
  const auto content_type = header(*answer, "Content-Type");
  ASSERT_TRUE(content_type) << "no Content-Type in\n" << answer->head;
  EXPECT_TRUE(lower(*content_type).starts_with("text/xml")) << *content_type;
}

}  // namespace
