// lather::dynamic_client and lather::dynamic::value: JSON in and out, messages written and
// read along the schema, calls over loopback to lather-interop-server (document/literal
// wrapped, SOAP 1.1 and 1.2, a fault with detail) and lather-perf-server (rpc/literal), and
// the answers to bad input (unknown operation, JSON that does not fit, no server).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "../soap/fetch_responses.hpp"
#include "../support/paths.hpp"
#include "../support/process.hpp"
#include "lather/dynamic/client.hpp"
#include "lather/http/error.hpp"

namespace {

using lather::dynamic_client;
using lather::dynamic::value;
using namespace std::chrono_literals;

const std::string interop_wsdl = std::string(lather::test::shared_dir) + "/interop/interop.wsdl";
const std::string perf_wsdl = std::string(lather::test::shared_dir) + "/bench/cxf-perf/perf.wsdl";
const std::string bin = lather::test::bin_dir;

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

/// features.wsdl's client, and the envelope of a drawing (head + its content + tail).
struct features_drawing {
  dynamic_client c{std::string(lather::test::source_dir) + "/tests/wsdl/data/features.wsdl"};
  const std::string head =
      R"(<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Body>)"
      R"(<t:drawing xmlns:t="urn:features" xmlns:x="http://www.w3.org/2001/XMLSchema-instance">)";
  const std::string tail = "</t:drawing></e:Body></e:Envelope>";
};

TEST(DynamicClient, AnElementsTypeMustNotBeAbstract) {
  // features.wsdl: drawing/shape is of the abstract type Shape, which Polygon extends.
  features_drawing d;
  dynamic_client& c = d.c;
  const std::string& head = d.head;
  const std::string& tail = d.tail;
  const std::string shape = R"(id="1"><t:name>n</t:name><t:rgb>1</t:rgb>)";
  EXPECT_EQ(c.validate(head + R"(<t:shape x:type="t:Polygon" )" + shape +
                       "<t:side>1</t:side></t:shape>" + tail),
            std::vector<std::string>{});
  EXPECT_EQ(c.validate(head + R"(<t:shape x:type="t:Shape" )" + shape + "</t:shape>" + tail),
            std::vector<std::string>{"/Envelope/Body/drawing/shape: xsi:type Shape names an "
                                     "abstract type: an element's type must be a concrete one"});
  EXPECT_EQ(c.validate(head + "<t:shape " + shape + "</t:shape>" + tail),
            std::vector<std::string>{"/Envelope/Body/drawing/shape: the declared type Shape is "
                                     "abstract: an xsi:type naming a concrete type is required"});
  // A subtype the contract does not define: read as the declared type, named, its own content
  // listed.
  EXPECT_EQ(c.validate(head + R"(<t:shape x:type="t:Circle" )" + shape +
                       "<t:radius>1</t:radius></t:shape>" + tail),
            (std::vector<std::string>{
                "/Envelope/Body/drawing/shape: xsi:type t:Circle names a type the contract does "
                "not define: read as Shape",
                "/Envelope/Body/drawing/shape/radius: unexpected element (Shape has no member "
                "radius)"}));
}

TEST(DynamicClient, ANonAbstractBaseTakesItsDerivedTypes) {
  // features.wsdl: drawing/device is of type Device, which Disk extends, and Flash extends Disk.
  features_drawing d;
  dynamic_client& c = d.c;
  const std::string& head = d.head;
  const std::string& tail = d.tail;
  EXPECT_EQ(c.validate(head + "<t:device><t:label>a</t:label></t:device>" +
                       R"(<t:device x:type="t:Disk"><t:label>b</t:label>)" +
                       "<t:capacity>1</t:capacity></t:device>" +
                       R"(<t:device x:type="t:Flash"><t:label>c</t:label>)" +
                       "<t:capacity>2</t:capacity><t:cells>3</t:cells></t:device>" + tail),
            std::vector<std::string>{});
  EXPECT_EQ(c.validate(head + R"(<t:device x:type="t:Flash"><t:label>c</t:label>)" +
                       "<t:cells>3</t:cells></t:device>" + tail),
            std::vector<std::string>{"/Envelope/Body/drawing/device/capacity: missing"});
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

const std::string encoded_wsdl =
    std::string(lather::test::source_dir) + "/tests/interop/interop-encoded.wsdl";

// An echoStruct answer of interop-encoded.wsdl read with no problem as {a, 3, 0.5, when, [x, y]}.
void expect_struct_answer(const dynamic_client& c, const std::string& envelope,
                          const std::string& when) {
  const auto r = c.read_response(c.find("echoStruct"), envelope);
  EXPECT_TRUE(r.problems.empty()) << r.problems.front();
  EXPECT_EQ(r.body.to_json(), R"({"result":{"name":"a","count":3,"price":0.5,"when":")" + when +
                                  R"(","tags":["x","y"]}})");
}

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
  expect_struct_answer(c, axis, "2000-01-01T00:00:00.000Z");
  std::string cycle = axis;
  cycle.replace(cycle.find("#id1"), 4, "#id0");
  EXPECT_NE(c.read_response(op, cycle).problems.at(0).find("cycle"), std::string::npos);
}

TEST(DynamicClient, ReadsSoap12EncodedGraphsAsGsoapWritesThem) {
  // gSOAP's SOAP 1.2 answer of the fetch graph: enc:id in place, enc:ref after it (also into
  // a value nested in another one with an id), arrays with enc:arraySize. The child -> root
  // parent links are cycles: reported and left null, as SOAP 1.1 href cycles are.
  dynamic_client c{std::string(lather::test::source_dir) + "/tools/lather-fetch-server/fetch.wsdl"};
  const auto r = c.read_response(c.find("fetch"), lather::test_wire::gsoap12_fetch);
  ASSERT_EQ(r.problems.size(), 2u);
  for (int i = 0; i < 2; ++i)
    EXPECT_EQ(r.problems[i], "/Envelope/Body/fetchResponse/return/children[" + std::to_string(i) +
                                 "]/parent: enc:ref=\"_1\" refers to an element it is part of "
                                 "(a cycle)");
  const value& root = *r.body.find("return");
  EXPECT_EQ(root.find("stype")->as_string(), "root:x");
  ASSERT_EQ(root.find("children")->items().size(), 2u);
  const auto params = [](const value& setting) { return setting.find("params")->find("item"); };
  const value* items = params(root);
  ASSERT_TRUE(items && items->items().size() == 3u) << root.to_json();
  const std::string v1 = R"({"_type":"Value","errcode":0,"new":"1","errtext":"none","cur":"0"})";
  const std::string v2 =
      R"({"_type":"Value","errcode":2,"new":"h\u00e9llo","errtext":"out of range <&>","cur":"5"})";
  EXPECT_EQ(items->items()[0].find("value")->to_json(), value::from_json(v1).to_json());
  EXPECT_EQ(items->items()[1].find("value")->to_json(), value::from_json(v1).to_json());
  EXPECT_EQ(items->items()[2].find("value")->to_json(), value::from_json(v2).to_json());
  EXPECT_EQ(params(root.find("children")->items()[0])->items()[0].find("value")->to_json(),
            value::from_json(v2).to_json());
}

TEST(DynamicClient, ReadsSoap12ForwardRefsAndNamesBadReferences) {
  dynamic_client c{encoded_wsdl};
  const auto& op = c.find("echoStruct");
  // SOAP 1.2 Part 2 section 3.1.5: refs forward to elements after the wrapper.
  const std::string good =
      R"(<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope")"
      R"( xmlns:enc="http://www.w3.org/2003/05/soap-encoding" xmlns:xsd="http://www.w3.org/2001/XMLSchema">)"
      R"(<e:Body><t:echoStructResponse xmlns:t="urn:interop" e:encodingStyle="http://www.w3.org/2003/05/soap-encoding">)"
      R"(<result><name enc:ref="n"/><count>3</count><price>0.5</price><when>2000-01-01T00:00:00Z</when>)"
      R"(<tags enc:ref="t"/></result></t:echoStructResponse>)"
      R"(<t:s xmlns:t="urn:interop" enc:id="n">a</t:s>)"
      R"(<t:a xmlns:t="urn:interop" enc:id="t" enc:itemType="xsd:string" enc:arraySize="2"><i>x</i><i>y</i></t:a>)"
      R"(</e:Body></e:Envelope>)";
  expect_struct_answer(c, good, "2000-01-01T00:00:00Z");
  const auto problems = [&](std::string_view from, std::string_view to) {
    std::string doc = good;
    doc.replace(doc.find(from), from.size(), to);
    return c.read_response(op, doc).problems;
  };
  EXPECT_EQ(problems(R"(enc:ref="n")", R"(enc:ref="zz")"),
            std::vector<std::string>{"/Envelope/Body/echoStructResponse/result/name: "
                                     "enc:ref=\"zz\" names no element with that id"});
  EXPECT_EQ(problems(R"(enc:id="t")", R"(enc:id="n")").at(0),
            "/Envelope: id \"n\" is on more than one element");
  EXPECT_EQ(problems(R"(<tags enc:ref="t"/>)", R"(<tags enc:ref="t">junk</tags>)"),
            std::vector<std::string>{"/Envelope/Body/echoStructResponse/result/tags: "
                                     "enc:ref=\"t\" on an element with content of its own"});
}

TEST(DynamicClient, TwoDimensionalArraysAreRowsOfItems) {
  // SOAPBuilders round 2 group B: ArrayOfString2D is wsdl:arrayType="xsd:string[,]".
  dynamic_client c{std::string(lather::test::shared_dir) +
                   "/wsdl-corpus/soapbuilders-r2-groupb/InteropBtyped.wsdl"};
  const auto& op = c.find("echo2DStringArray");
  const std::string request = c.request(
      op, value::from_json(R"({"input2DStringArray": [["a", "b", "c"], ["d", "e", "f"]]})"));
  EXPECT_NE(request.find(R"(soapenc:arrayType="xsd:string[2,3]")"), std::string::npos) << request;
  EXPECT_NE(request.find(">a</item><item xsi:type=\"xsd:string\">b</item>"), std::string::npos);
  EXPECT_NE(request.find(">c</item><item xsi:type=\"xsd:string\">d</item>"), std::string::npos);
  try {
    c.request(op, value::from_json(R"({"input2DStringArray": [["a", "b"], ["c"]]})"));
    FAIL();
  } catch (const lather::dynamic::value_error& e) {
    EXPECT_STREQ(e.what(), "/echo2DStringArray/input2DStringArray[1]: has 1 items, row 0 has 2");
  }
  // Answers in SOAP 1.1 (arrayType="T[2,3]") and SOAP 1.2 (enc:arraySize "2 3", "* 3").
  const auto answer = [&](std::string_view version_ns, std::string_view size_attribute) {
    return c.read_response(
        op, std::string(R"(<e:Envelope xmlns:e=")") + std::string(version_ns) +
                R"(" xmlns:a="http://schemas.xmlsoap.org/soap/encoding/")"
                R"( xmlns:enc="http://www.w3.org/2003/05/soap-encoding"><e:Body>)"
                R"(<m:echo2DStringArrayResponse xmlns:m="http://soapinterop.org/"><return )" +
                std::string(size_attribute) +
                R"(><i>a</i><i>b</i><i>c</i><i>d</i><i>e</i><i>f</i></return>)"
                R"(</m:echo2DStringArrayResponse></e:Body></e:Envelope>)");
  };
  const std::string soap11 = "http://schemas.xmlsoap.org/soap/envelope/";
  const std::string soap12 = "http://www.w3.org/2003/05/soap-envelope";
  const std::string rows = R"({"return":[["a","b","c"],["d","e","f"]]})";
  for (const auto& [ns, size] :
       {std::pair{soap11, R"(a:arrayType="xsd:string[2,3]")"},
        std::pair{soap12, R"(enc:arraySize="2 3")"}, std::pair{soap12, R"(enc:arraySize="* 3")"}}) {
    SCOPED_TRACE(size);
    const auto r = answer(ns, size);
    EXPECT_TRUE(r.problems.empty()) << r.problems.front();
    EXPECT_EQ(r.body.to_json(), rows);
  }
  const auto r = answer(soap11, R"(a:arrayType="xsd:string[2,2]")");
  EXPECT_EQ(r.problems, std::vector<std::string>{"/Envelope/Body/echo2DStringArrayResponse/return: "
                                                 "arrayType=\"xsd:string[2,2]\" says 4 items, "
                                                 "6 present"});
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
  lather::test::process spyne(
      {"/usr/bin/python3",
       std::string(lather::test::source_dir) + "/tests/interop/peers/spyne_server.py",
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
