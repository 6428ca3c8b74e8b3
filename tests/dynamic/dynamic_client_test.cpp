// lather::dynamic_client and lather::dynamic::value: JSON in and out, messages written and
// read along the schema, calls over loopback to lather-interop-server (document/literal
// wrapped, SOAP 1.1 and 1.2, a fault with detail) and lather-perf-server (rpc/literal), and
// the answers to bad input (unknown operation, JSON that does not fit, no server).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "../support/process.hpp"
#include "lather/dynamic/client.hpp"
#include "lather/http/error.hpp"

namespace {

using lather::dynamic_client;
using lather::dynamic::value;
using namespace std::chrono_literals;

const std::string interop_wsdl = LATHER_SHARED_DIR "/interop/interop.wsdl";
const std::string perf_wsdl = LATHER_SHARED_DIR "/bench/cxf-perf/perf.wsdl";
const std::string bin = LATHER_BIN_DIR;

// lather-interop-server prints "READY PORT".
struct interop_server {
  lather::test::process child{{bin + "/lather-interop-server", "--port", "0"}};
  int port = 0;
  interop_server() {
    std::string line;
    while (child.read_line(line, lather::test::clock::now() + 30s))
      if (line.starts_with("READY ")) {
        port = std::stoi(line.substr(6));
        break;
      }
  }
};

TEST(DynamicValue, JsonRoundTripKeepsOrderAndKinds) {
  const value v = value::from_json(
      R"({"b": 1, "a": [true, null, 1.5, "x"], "big": 18446744073709551615, "o": {}})");
  ASSERT_TRUE(v.is_object());
  EXPECT_EQ(v.members()[0].first, "b");
  EXPECT_EQ(v.find("b")->as_integer(), 1);
  EXPECT_EQ(v.find("a")->items()[2].as_number(), 1.5);
  EXPECT_EQ(v.find("big")->as_string(), "18446744073709551615");
  EXPECT_EQ(v.to_json(), R"({"b":1,"a":[true,null,1.5,"x"],"big":"18446744073709551615","o":{}})");
  EXPECT_EQ(value::from_json(v.to_json()), v);
  EXPECT_THROW(value::from_json("{\"a\": }"), lather::dynamic::json_error);
}

TEST(DynamicClient, ListsOperationsWithSignatures) {
  dynamic_client c{interop_wsdl};
  std::vector<std::string> names;
  for (const auto& op : c.operations()) names.push_back(op.port + "." + op.name);
  ASSERT_FALSE(names.empty());
  const auto& add = c.find("addNumbers");
  EXPECT_EQ(add.input_signature, "a: xsd:int, b: xsd:int");
  EXPECT_EQ(add.output_signature, "result: xsd:int");
  EXPECT_EQ(c.find("echoStruct").input_signature, "value: Struct");
}

TEST(DynamicClient, WritesAndReadsAlongTheSchema) {
  dynamic_client c{interop_wsdl};
  const auto& op = c.find("echoArray");
  const value in = value::from_json(
      R"({"value": [{"name": "n", "count": 2, "price": 1.5, "when": "2000-01-01T00:00:00Z",
                     "tags": ["x", "y"], "note": null}]})");
  const std::string request = c.request(op, in);
  EXPECT_NE(request.find(":note xsi:nil=\"true\"/>"), std::string::npos) << request;
  // The request read back as if it were the response (same shape, other wrapper).
  std::string response = request;
  for (auto at = response.find("echoArray"); at != std::string::npos;
       at = response.find("echoArray", at + 1))
    response.insert(at + 9, "Response"), at += 8;
  for (auto at = response.find(":value>"); at != std::string::npos; at = response.find(":value>"))
    response.replace(at, 7, ":result>");
  const auto r = c.read_response(op, response);
  EXPECT_TRUE(r.problems.empty()) << r.problems.front();
  EXPECT_EQ(
      r.body.to_json(),
      R"({"result":[{"name":"n","count":2,"price":1.5,"when":"2000-01-01T00:00:00Z","tags":["x","y"],"note":null}]})");
}

TEST(DynamicClient, ValidateNamesThePathOfEveryProblem) {
  dynamic_client c{interop_wsdl};
  const std::string bad =
      R"(<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Body>)"
      R"(<t:addNumbers xmlns:t="urn:interop"><t:a>x</t:a><t:c>1</t:c></t:addNumbers></e:Body></e:Envelope>)";
  const auto problems = c.validate(bad);
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_EQ(problems[0], "/Envelope/Body/addNumbers/a: \"x\" is not a valid xsd:int");
  EXPECT_EQ(problems[1].substr(0, 32), "/Envelope/Body/addNumbers/c: une");
  EXPECT_EQ(problems[2], "/Envelope/Body/addNumbers/b: missing");
}

TEST(DynamicClient, BadInputNamesPathTypeAndNearNames) {
  dynamic_client c{interop_wsdl};
  try {
    c.find("addNumber");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("nearest: addNumbers"), std::string::npos) << e.what();
  }
  const auto& op = c.find("echoStruct");
  try {
    c.request(op, value::from_json(R"({"value": {"name": "n", "count": "many"}})"));
    FAIL();
  } catch (const lather::dynamic::value_error& e) {
    EXPECT_STREQ(e.what(), "/echoStruct/value/count: \"many\" is not a valid xsd:int");
  }
  EXPECT_THROW(c.request(op, value::from_json(R"({"value": {"name": "n", "colour": 1}})")),
               lather::dynamic::value_error);
  lather::dynamic::client_options o;
  o.address = "http://127.0.0.1:" + std::to_string(lather::test::free_port()) + "/interop";
  o.http.connect_timeout = 2s;
  dynamic_client offline{interop_wsdl, o};
  EXPECT_THROW(offline.call("echoString", value::from_json(R"({"value": "x"})")),
               lather::http::error);
}

TEST(DynamicClient, CallsInteropServerInBothVersionsAndReadsFaultDetail) {
  interop_server server;
  ASSERT_NE(server.port, 0);
  for (auto version : {lather::soap::version::soap11, lather::soap::version::soap12}) {
    lather::dynamic::client_options o;
    o.address = "http://127.0.0.1:" + std::to_string(server.port) + "/interop";
    o.version = version;
    dynamic_client c{interop_wsdl, o};
    const auto r = c.call("addNumbers", value::from_json(R"({"a": 2, "b": 3})"));
    EXPECT_EQ(r.body.to_json(), R"({"result":5})");
    const value s = value::from_json(
        R"({"value": {"name": "n", "count": 2, "price": 0.25, "when": "2001-02-03T04:05:06Z", "tags": ["t"],
                   "note": null}})");
    EXPECT_EQ(c.call("echoStruct", s).body.find("result")->to_json(), s.find("value")->to_json());
    try {
      c.call("addNumbers", value::from_json(R"({"a": -1, "b": 3})"));
      FAIL();
    } catch (const lather::dynamic::fault_error& e) {
      EXPECT_EQ(e.get().reason, "negative");
      ASSERT_FALSE(e.detail().is_null());
      // The contract declares no fault message: the detail comes as XML.
      EXPECT_NE(e.detail().to_json().find(":name>a</"), std::string::npos) << e.detail().to_json();
    }
  }
}

TEST(DynamicClient, CallsPerfServerRpcLiteralAndDocument) {
  lather::test::listening_server server(
      {bin + "/lather-perf-server", "--port", "0", "--threads", "1"});
  ASSERT_NE(server.port, 0);
  lather::dynamic::client_options o;
  o.address = server.url("/perf/rpc");
  dynamic_client rpc{perf_wsdl, o};
  EXPECT_EQ(rpc.call("echoStringRPC", value::from_json(R"({"in": "hi"})")).body.to_json(),
            R"({"out":"hi"})");
  o.address = server.url("/perf");
  dynamic_client doc{perf_wsdl, o};
  const value in = value::from_json(R"({"in": {"item": [{"varString": "s", "varUByte": 1,
      "varUnsignedLong": 18446744073709551615, "varFloat": 0.5, "varQName": "q",
      "varBase64Binary": "AAE=", "varHexBinary": "0A", "varStruct": {"varAttrString": "a", "varFloat": 1.5,
      "varShort": 2, "varString": "t", "varByte": -3, "varDecimal": "4.5", "varDouble": 6.25,
      "varDateTime": "2000-01-01T00:00:00Z"}, "varEnum": "GREEN"}]},
      "id": 9})");
  const auto r = doc.call("echoComplexTypeDoc", in);
  EXPECT_TRUE(r.problems.empty()) << r.problems.front();
  EXPECT_EQ(r.body.find("idout")->as_integer(), 9);
  EXPECT_EQ(r.body.find("return")->to_json(), in.find("in")->to_json());
}

const std::string encoded_wsdl = LATHER_SOURCE_DIR "/tests/interop/interop-encoded.wsdl";

TEST(DynamicClient, ReadsEncodedMultiRefsAndTypedArrays) {
  dynamic_client c{encoded_wsdl};
  const auto& op = c.find("echoStruct");
  // Axis 1.4's shape: the wrapper's accessor names a multi-ref after it, which names another.
  const std::string axis =
      R"(<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/")"
      R"( xmlns:xsd="http://www.w3.org/2001/XMLSchema")"
      R"( xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body>)"
      R"(<ns1:echoStructResponse soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/")"
      R"( xmlns:ns1="urn:interop"><result href="#id0"/></ns1:echoStructResponse>)"
      R"(<multiRef id="id0" soapenc:root="0" xsi:type="ns2:Struct" xmlns:ns2="urn:interop")"
      R"( xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/"><name xsi:type="xsd:string">a</name>)"
      R"(<count xsi:type="xsd:int">3</count><price xsi:type="xsd:double">0.5</price>)"
      R"(<when xsi:type="xsd:dateTime">2000-01-01T00:00:00.000Z</when><tags href="#id1"/></multiRef>)"
      R"(<multiRef id="id1" soapenc:root="0" xsi:type="soapenc:Array" soapenc:arrayType="xsd:string[2]")"
      R"( xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/"><item>x</item><item>y</item></multiRef>)"
      R"(</soapenv:Body></soapenv:Envelope>)";
  const auto r = c.read_response(op, axis);
  EXPECT_TRUE(r.problems.empty()) << r.problems.front();
  EXPECT_EQ(
      r.body.to_json(),
      R"({"result":{"name":"a","count":3,"price":0.5,"when":"2000-01-01T00:00:00.000Z","tags":["x","y"]}})");
  std::string cycle = axis;
  cycle.replace(cycle.find("#id1"), 4, "#id0");
  EXPECT_NE(c.read_response(op, cycle).problems.at(0).find("cycle"), std::string::npos);
}

TEST(DynamicClient, CallsInteropServerRpcEncoded) {
  interop_server server;
  ASSERT_NE(server.port, 0);
  lather::dynamic::client_options o;
  o.address = "http://127.0.0.1:" + std::to_string(server.port) + "/interop/encoded";
  dynamic_client c{encoded_wsdl, o};
  const value in = value::from_json(R"({"value": [{"name": "a", "count": 1, "price": 2.5,
      "when": "2000-01-01T00:00:00Z", "tags": ["x"], "note": null}]})");
  const auto r = c.call("echoArray", in);
  EXPECT_TRUE(r.problems.empty()) << r.problems.front();
  EXPECT_EQ(r.body.find("result")->to_json(), in.find("value")->to_json());
}

TEST(DynamicClient, CallsSpyneFromItsOwnWsdl) {
  const int port = lather::test::free_port();
  lather::test::process spyne({"/usr/bin/python3",
                               LATHER_SOURCE_DIR "/tests/interop/peers/spyne_server.py",
                               std::to_string(port)});
  std::string line;
  bool ready = false;
  while (!ready && spyne.read_line(line, lather::test::clock::now() + 30s))
    ready = line.starts_with("READY");
  ASSERT_TRUE(ready) << "spyne_server.py did not start (python3-spyne)";
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/interop";
  lather::http::client http{url};
  const auto wsdl = http.get("?wsdl");
  ASSERT_EQ(wsdl.status, 200u);
  const auto path = std::filesystem::temp_directory_path() /
                    ("lather-dynamic-spyne-" + std::to_string(::getpid()) + ".wsdl");
  std::ofstream(path) << wsdl.body;
  dynamic_client c{path.string()};
  std::filesystem::remove(path);
  EXPECT_EQ(c.find("addNumbers").address, url);
  EXPECT_EQ(c.call("addNumbers", value::from_json(R"({"a": 2, "b": 40})")).body.to_json(),
            R"({"result":42})");
  const auto r = c.call("echoStruct", value::from_json(R"({"value": {"name": "n", "count": 2,
      "price": 1.5, "when": "2000-01-01T00:00:00Z", "tags": ["a", "b"]}})"));
  EXPECT_TRUE(r.problems.empty()) << r.problems.front();
  EXPECT_EQ(r.body.find("result")->find("tags")->to_json(), R"(["a","b"])");
  EXPECT_THROW(c.call("addNumbers", value::from_json(R"({"a": -1, "b": 40})")),
               lather::dynamic::fault_error);
}

}  // namespace
