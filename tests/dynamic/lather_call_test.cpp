// lather-call as users run it: the listing, a call and a fault against lather-interop-server,
// --validate, and the one-line answers and exit codes of bad input (a WSDL that does not
// load, an unknown operation, JSON that does not fit, no server, an HTTP error, a TLS failure).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "../support/paths.hpp"
#include "../support/process.hpp"
#include "lather/http/server.hpp"

namespace {

using namespace std::chrono_literals;
using lather::test::clock;

const std::string interop_wsdl = std::string(lather::test::shared_dir) + "/interop/interop.wsdl";
const std::string call = std::string(lather::test::bin_dir) + "/lather-call";

lather::test::run_result lather_call(std::vector<std::string> args) {
  args.insert(args.begin(), call);
  return lather::test::run(args, clock::now() + 30s);
}

std::string scratch(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("lather-call-" + std::to_string(::getpid()) + "-" + name);
  std::ofstream(path) << text;
  return path.string();
}

TEST(LatherCall, ListsOperationsWithSignatures) {
  const auto r = lather_call({interop_wsdl});
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(r.out.find("Service: InteropService"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("      addNumbers(a: xsd:int, b: xsd:int) -> result: xsd:int\n"),
            std::string::npos)
      << r.out;
}

TEST(LatherCall, CallsPrintsJsonAndFaultsExitOne) {
  lather::test::process server({std::string(lather::test::bin_dir) + "/lather-interop-server"});
  std::string line;
  int port = 0;
  while (port == 0 && server.read_line(line, clock::now() + 30s))
    if (line.starts_with("READY ")) port = std::stoi(line.substr(6));
  ASSERT_NE(port, 0);
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/interop";
  auto r = lather_call({interop_wsdl, "addNumbers", "a=2", "b=3", "--address", url});
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_EQ(r.out, "{\n  \"result\": 5\n}\n");
  r = lather_call({interop_wsdl, "addNumbers", "--json", R"({"a": -1, "b": 3})", "--address", url});
  EXPECT_EQ(r.exit, 1) << r.out;
  EXPECT_NE(r.out.find("\"reason\": \"negative\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("negativeArgument"), std::string::npos) << r.out;

  // --trace: the request head as sent and the response's status line with every header field,
  // each followed by its body. The Content-Length lines match the bodies shown.
  r = lather_call({interop_wsdl, "echoString", "value=hi", "--address", url, "--trace"});
  EXPECT_EQ(r.exit, 0) << r.out;
  const auto section = [&](std::string_view name) {
    const std::string mark = "--- " + std::string(name) + "\n";
    const auto begin = r.out.find(mark);
    if (begin == std::string::npos) return std::string();
    const auto end = r.out.find("\n--- ", begin + mark.size());
    return r.out.substr(begin + mark.size(),
                        end == std::string::npos ? std::string::npos : end - begin - mark.size());
  };
  const std::string request = section("request"), response = section("response");
  EXPECT_EQ(request.rfind("POST /interop HTTP/1.1\nHost: 127.0.0.1:" + std::to_string(port) +
                              "\nContent-Type: text/xml; charset=utf-8\nSOAPAction: "
                              "\"urn:interop#echoString\"\nContent-Length: ",
                          0),
            0u)
      << r.out;
  const auto body_of = [](const std::string& message) {
    const auto blank = message.find("\n\n");
    return blank == std::string::npos ? std::string() : message.substr(blank + 2);
  };
  const auto length_of = [](const std::string& message) {
    const auto at = message.find("\nContent-Length: ");
    return at == std::string::npos ? std::string()
                                   : message.substr(at + 17, message.find('\n', at + 1) - at - 17);
  };
  const std::string request_body = body_of(request);
  EXPECT_EQ(request_body.rfind("<?xml", 0), 0u) << request;
  EXPECT_EQ(length_of(request), std::to_string(request_body.size())) << request;
  EXPECT_EQ(response.rfind("HTTP/1.1 200 OK\nDate: ", 0), 0u) << r.out;
  EXPECT_NE(response.find("\nServer: lather\n"), std::string::npos) << response;
  EXPECT_NE(response.find("\nContent-Type: text/xml; charset=utf-8\n"), std::string::npos)
      << response;
  const std::string response_body = body_of(response);
  EXPECT_NE(response_body.find(">hi</"), std::string::npos) << response;
  // The body shown is followed by the newline lather-call adds, then the JSON answer.
  EXPECT_EQ(length_of(response), std::to_string(response_body.find("\n{"))) << response;
}

TEST(LatherCall, BadInputOneLineExitTwo) {
  const std::string broken = scratch(
      "broken.wsdl",
      "<definitions xmlns='http://schemas.xmlsoap.org/wsdl/'>\n  <types>\n</definitions>\n");
  auto r = lather_call({broken});
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.out.rfind(broken + ":3:", 0), 0u) << r.out;
  std::filesystem::remove(broken);

  r = lather_call({interop_wsdl, "addNumber", "a=1"});
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.out,
            "lather-call: no operation addNumber; nearest: addNumbers, echoInt, echoArray, "
            "echoBinary, echoString\n");

  r = lather_call({interop_wsdl, "addNumbers", "a=x", "b=1"});
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.out, "lather-call: /addNumbers/a: \"x\" is not a valid xsd:int\n");

  r = lather_call({interop_wsdl, "echoStruct", "value.name=n", "value.count=1", "value.price=1",
                   "value.when=2000-01-01T00:00:00Z", "value.colour=red"});
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.out.find("/echoStruct/value/colour: not a member of Struct (members: name, count"),
            std::string::npos)
      << r.out;

  const std::string closed = "http://127.0.0.1:" + std::to_string(lather::test::free_port()) + "/x";
  r = lather_call({interop_wsdl, "addNumbers", "a=1", "b=2", "--address", closed});
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_NE(r.out.find("refused"), std::string::npos) << r.out;
}

TEST(LatherCall, HttpErrorAndTlsFailureOneLineExitTwo) {
  lather::test::listening_server server({std::string(lather::test::bin_dir) + "/lather-perf-server",
                                         "--port", "0", "--threads", "1"});
  ASSERT_NE(server.port, 0);
  auto r =
      lather_call({interop_wsdl, "addNumbers", "a=1", "b=2", "--address", server.url("/nothere")});
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.out.rfind("lather-call: HTTP 404 from 127.0.0.1:", 0), 0u) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  // https:// to a plain-HTTP port: the handshake fails.
  const std::string https = "https://127.0.0.1:" + std::to_string(server.port) + "/perf";
  r = lather_call({interop_wsdl, "addNumbers", "a=1", "b=2", "--address", https});
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.out.rfind("lather-call: TLS handshake with 127.0.0.1:", 0), 0u) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
}

// A server at /interop answering every request with `envelope`.
std::unique_ptr<lather::http::server> answering(std::string envelope) {
  auto srv = std::make_unique<lather::http::server>(lather::http::server_options{});
  srv->route("/interop", [envelope = std::move(envelope)](lather::http::request& req,
                                                          lather::http::response& res) {
    char chunk[4096];
    while (req.read_body(chunk, sizeof chunk) != 0) {
    }
    res.set_header("Content-Type", "text/xml; charset=utf-8");
    res.body().append(envelope);
  });
  srv->start();
  return srv;
}

// lather-call addNumbers a=2 b=3 against `srv`.
lather::test::run_result add_numbers(const lather::http::server& srv) {
  return lather_call({interop_wsdl, "addNumbers", "a=2", "b=3", "--address",
                      "http://127.0.0.1:" + std::to_string(srv.port()) + "/interop"});
}

// An answer that does not fit is printed as JSON anyway (stdout, flushed at exit), each
// problem on stderr (at once); header entries the contract does not declare are skipped and
// counted in one line.
TEST(LatherCall, AnAnswerThatDoesNotFitIsPrintedWithItsProblems) {
  const std::string envelope =
      R"(<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/">)";
  const struct {
    std::string header, response, out;
  } cases[] = {
      {"",  // a result that is not an xsd:int and an extra element
       R"(<t:result>five</t:result><t:why>x</t:why>)",
       "response does not match the schema: /Envelope/Body/addNumbersResponse/result: "
       "\"five\" is not a valid xsd:int\n"
       "response does not match the schema: /Envelope/Body/addNumbersResponse/why: "
       "unexpected element (addNumbersResponse{} has no member why)\n"
       "{\n  \"result\": \"five\"\n}\n"},
      {R"(<e:Header><x:Trace xmlns:x="urn:x">1</x:Trace>)"
       R"(<x:Quota xmlns:x="urn:x"><x:left>9</x:left></x:Quota></e:Header>)",
       R"(<t:result>5</t:result>)",
       "lather-call: skipped 2 header entries the contract does not declare for addNumbers: "
       "{urn:x}Trace, {urn:x}Quota\n"
       "{\n  \"result\": 5\n}\n"},
  };
  for (const auto& c : cases) {
    const auto srv =
        answering(envelope + c.header + R"(<e:Body><t:addNumbersResponse xmlns:t="urn:interop">)" +
                  c.response + "</t:addNumbersResponse></e:Body></e:Envelope>");
    const auto r = add_numbers(*srv);
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_EQ(r.out, c.out);
  }
}

TEST(LatherCall, ValidatePrintsEveryProblemWithItsPath) {
  const std::string message = scratch(
      "message.xml",
      R"(<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Body>)"
      R"(<t:echoInt xmlns:t="urn:interop"><t:value>12x</t:value></t:echoInt></e:Body></e:Envelope>)");
  auto r = lather_call({interop_wsdl, "--validate", message});
  EXPECT_EQ(r.exit, 1);
  EXPECT_EQ(r.out, "/Envelope/Body/echoInt/value: \"12x\" is not a valid xsd:int\n");
  std::filesystem::remove(message);
}

TEST(LatherCall, ValidatesEncodedMessagesThroughHrefsAndXsiTypes) {
  // Axis's shape: the result and its tags are multi-refs after the wrapper. Problems inside
  // them are named by the path that reaches them; each xsi:type is checked against the schema.
  const std::string encoded_wsdl =
      std::string(lather::test::source_dir) + "/tests/interop/interop-encoded.wsdl";
  const std::string head =
      R"(<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema")"
      R"( xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:enc="http://schemas.xmlsoap.org/soap/encoding/">)"
      R"(<e:Body><t:echoStructResponse xmlns:t="urn:interop"><result href="#s"/></t:echoStructResponse>)"
      R"(<multiRef id="s" xsi:type="t:Struct" xmlns:t="urn:interop"><name xsi:type="xsd:string">a</name>)";
  const std::string good =
      head +
      R"(<count xsi:type="xsd:int">3</count><price xsi:type="xsd:double">0.5</price>)"
      R"(<when xsi:type="xsd:dateTime">2000-01-01T00:00:00Z</when><tags href="#t"/></multiRef>)"
      R"(<multiRef id="t" xsi:type="enc:Array" enc:arrayType="xsd:string[2]"><item>x</item><item>y</item></multiRef>)"
      R"(</e:Body></e:Envelope>)";
  const std::string bad =
      head +
      R"(<count xsi:type="xsd:int">3x</count><price xsi:type="xsd:string">0.5</price>)"
      R"(<when xsi:type="xsd:dateTime">2000-01-01T00:00:00Z</when><tags href="#t"/><extra/></multiRef>)"
      R"(<multiRef id="t" xsi:type="enc:Array" enc:arrayType="xsd:string[3]"><item>x</item><item xsi:type="xsd:int">y</item></multiRef>)"
      R"(</e:Body></e:Envelope>)";
  const std::string good_file = scratch("encoded-good.xml", good);
  auto r = lather_call({encoded_wsdl, "--validate", good_file});
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_EQ(r.out, good_file + ": valid\n");
  const std::string bad_file = scratch("encoded-bad.xml", bad);
  r = lather_call({encoded_wsdl, "--validate", bad_file});
  EXPECT_EQ(r.exit, 1);
  const std::string at = "/Envelope/Body/echoStructResponse/result";
  EXPECT_EQ(r.out, at + "/count: \"3x\" is not a valid xsd:int\n" + at +
                       "/price: xsi:type xsd:string, but the schema says xsd:double\n" + at +
                       "/tags[1]: xsi:type xsd:int, but the schema says xsd:string\n" + at +
                       "/tags: arrayType=\"xsd:string[3]\" says 3 items, 2 present\n" + at +
                       "/extra: unexpected element (Struct has no member extra)\n");
  std::filesystem::remove(good_file);
  std::filesystem::remove(bad_file);
}

}  // namespace
