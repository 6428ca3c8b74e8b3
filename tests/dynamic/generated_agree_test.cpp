// Generated code and the dynamic engine agree: every operation of the interop contract is
// called through the client lather-wsdl2cpp generates and through lather::dynamic_client with
// the same values, against a loopback server that records each request and answers with the
// dynamic engine's response envelope; the two requests must be the same bytes, and both
// clients must read the answer into the same values.
#include <gtest/gtest.h>

#include <mutex>
#include <string>

#include "../support/paths.hpp"
#include "InteropPortType.hpp"
#include "lather/dynamic/client.hpp"
#include "lather/http/server.hpp"
#include "lather/service/client.hpp"

namespace {

using lather::dynamic::value;
const std::string interop_wsdl = std::string(lather::test::shared_dir) + "/interop/interop.wsdl";

// Records the last request body and answers with the envelope set for the next call.
class recorder {
 public:
  recorder() : server_(options()) {
    server_.route("/", [this](lather::http::request& req, lather::http::response& res) {
      std::string body;
      char chunk[4096];
      for (std::size_t n; (n = req.read_body(chunk, sizeof chunk)) != 0;) body.append(chunk, n);
      std::lock_guard lock(mutex_);
      last_ = std::move(body);
      res.set_header("Content-Type", "text/xml; charset=utf-8");
      res.body().append(answer_);
    });
    server_.start();
  }
  std::string url() const {
    return "http://127.0.0.1:" + std::to_string(server_.port()) + "/interop";
  }
  void answer(std::string envelope) {
    std::lock_guard lock(mutex_);
    answer_ = std::move(envelope);
  }
  std::string last() {
    std::lock_guard lock(mutex_);
    return last_;
  }

 private:
  static lather::http::server_options options() {
    lather::http::server_options o;
    o.threads = 1;
    o.stop_on_signals = false;
    return o;
  }
  lather::http::server server_;
  std::mutex mutex_;
  std::string last_, answer_;
};

interopgen::Struct make_struct(std::string name, int count) {
  interopgen::Struct s;
  s.name = std::move(name);
  s.count = count;
  s.price = 2.5;
  EXPECT_EQ(lather::bind::xsd_traits<lather::xsd::date_time>::parse("2001-02-03T04:05:06Z", s.when),
            lather::bind::errc{});
  s.tags = {"a", "b"};
  s.note = "n";
  return s;
}

value struct_value(std::string name, int count) {
  value v = value::from_json(R"({"count": 0, "price": 2.5, "when": "2001-02-03T04:05:06Z",
                                 "tags": ["a", "b"], "note": "n"})");
  v.members().insert(v.members().begin(), {"name", value(std::move(name))});
  v["count"] = count;
  return v;
}

class GeneratedAgree : public ::testing::Test {
 protected:
  recorder server;
  lather::client typed{server.url()};
  interopgen::InteropPortTypeClient generated{typed};
  lather::dynamic_client dynamic{interop_wsdl, [this] {
                                   lather::dynamic::client_options o;
                                   o.address = server.url();
                                   return o;
                                 }()};

  // Calls `op` both ways with the same input; the requests must be the same bytes. The answer
  // is the dynamic engine's envelope of `output`; returns what the dynamic client read.
  template <class Call>
  value both(std::string_view op, const value& input, const value& output, Call&& call_generated) {
    const auto& info = dynamic.find(op);
    server.answer(dynamic.response(info, output));
    call_generated();
    const std::string from_generated = server.last();
    const value read = dynamic.call(info, input).body;
    EXPECT_EQ(server.last(), from_generated) << op;
    EXPECT_EQ(read.to_json(), output.to_json()) << op;
    return read;
  }
};

TEST_F(GeneratedAgree, EveryInteropOperationSameBytesSameValues) {
  both("echoString", value::from_json(R"({"value": "h\u00e9llo <&>"})"),
       value::from_json(R"({"result": "h\u00e9llo <&>"})"),
       [&] { EXPECT_EQ(generated.echoString({"h\xc3\xa9llo <&>"}).result, "h\xc3\xa9llo <&>"); });
  both("echoInt", value::from_json(R"({"value": -42})"), value::from_json(R"({"result": -42})"),
       [&] { EXPECT_EQ(generated.echoInt({-42}).result, -42); });
  both("addNumbers", value::from_json(R"({"a": 2, "b": 3})"), value::from_json(R"({"result": 5})"),
       [&] {
         EXPECT_EQ(generated.addNumbers({2, 3}).result, 5);
       });
  {
    value in, out;
    in["value"] = struct_value("s", 7);
    out["result"] = struct_value("s", 7);
    both("echoStruct", in, out, [&] {
      EXPECT_EQ(generated.echoStruct({make_struct("s", 7)}).result, make_struct("s", 7));
    });
  }
  {
    value in, out;
    in["value"] = lather::dynamic::array{struct_value("x", 1), struct_value("y", 2)};
    out["result"] = in["value"];
    both("echoArray", in, out, [&] {
      interopgen::echoArray request{{make_struct("x", 1), make_struct("y", 2)}};
      EXPECT_EQ(generated.echoArray(request).result, request.value);
    });
  }
  {
    // minOccurs="0" nillable note: absent (no member, std::nullopt) and nil (null, an empty
    // lather::nillable) the same bytes both ways, and read back apart.
    value absent = struct_value("a", 1), nil = struct_value("n", 2);
    absent.members().pop_back();  // "note"
    nil["note"] = nullptr;
    value in, out;
    in["value"] = lather::dynamic::array{absent, nil};
    out["result"] = in["value"];
    both("echoArray", in, out, [&] {
      interopgen::echoArray request{{make_struct("a", 1), make_struct("n", 2)}};
      request.value[0].note.reset();
      request.value[1].note.emplace();
      EXPECT_EQ(generated.echoArray(request).result, request.value);
    });
  }
  both("echoBinary", value::from_json(R"({"value": "AAEC/w=="})"),
       value::from_json(R"({"result": "AAEC/w=="})"), [&] {
         const lather::xsd::base64_binary bytes{{0, 1, 2, 255}};
         EXPECT_EQ(generated.echoBinary({bytes}).result, bytes);
       });
}

}  // namespace
