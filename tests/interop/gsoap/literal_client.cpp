// gSOAP peer client for interop.wsdl (document/literal wrapped):
// gsoap-interop-client --url U [--soap12]; prints PASS|FAIL <check> <detail> lines.
#include "soapInteropBindingProxy.h"
// The namespace table must be defined in exactly one translation unit.
#include "InteropBinding.nsmap"
#include "gsoap_support.hpp"

namespace {

using gsoap_interop::call_status;
using interop::CallStatus;
using interop::Item;

class LiteralCalls final : public interop::InteropCalls {
 public:
  explicit LiteralCalls(const gsoap_interop::Options& options)
      : url_(options.url), proxy_(url_.c_str(), SOAP_C_UTFSTRING) {
    if (options.soap12) use_soap12();
    proxy_.soap->recv_timeout = 60;
    proxy_.soap->send_timeout = 60;
  }

  CallStatus echo_string(const std::string& value, std::string& result) override {
    _ns1__echoString request;
    request.value = value;
    _ns1__echoStringResponse response;
    return finish(proxy_.echoString(&request, response), [&] { result = response.result; });
  }
  CallStatus echo_int(int value, int& result) override {
    _ns1__echoInt request;
    request.value = value;
    _ns1__echoIntResponse response;
    return finish(proxy_.echoInt(&request, response), [&] { result = response.result; });
  }
  CallStatus echo_struct(const Item& value, Item& result) override {
    _ns1__echoStruct request;
    request.value = to_struct(value);
    _ns1__echoStructResponse response;
    return finish(proxy_.echoStruct(&request, response), [&] {
      if (response.result) result = from_struct(*response.result);
    });
  }
  CallStatus echo_array(const std::vector<Item>& value, std::vector<Item>& result) override {
    _ns1__echoArray request;
    request.value.reserve(value.size());
    for (const Item& item : value) request.value.push_back(to_struct(item));
    _ns1__echoArrayResponse response;
    return finish(proxy_.echoArray(&request, response), [&] {
      result.clear();
      for (const ns1__Struct* item : response.result)
        if (item) result.push_back(from_struct(*item));
    });
  }
  CallStatus add_numbers(int a, int b, int& result) override {
    _ns1__addNumbers request;
    request.a = a;
    request.b = b;
    _ns1__addNumbersResponse response;
    return finish(proxy_.addNumbers(&request, response), [&] { result = response.result; });
  }
  CallStatus echo_binary(const std::vector<unsigned char>& value,
                         std::vector<unsigned char>& result) override {
    _ns1__echoBinary request;
    request.value = gsoap_interop::to_base64(proxy_.soap, value);
    _ns1__echoBinaryResponse response;
    return finish(proxy_.echoBinary(&request, response),
                  [&] { result = gsoap_interop::from_base64(response.result); });
  }

 private:
  // gSOAP picks the envelope version from the first entries of its namespace table, so SOAP
  // 1.2 takes a copy of the table with the 1.2 envelope and encoding namespaces first.
  void use_soap12() {
    for (const Namespace* entry = namespaces; entry->id; ++entry)
      soap12_namespaces_.push_back(*entry);
    soap12_namespaces_.push_back({});
    soap12_namespaces_[0].ns = "http://www.w3.org/2003/05/soap-envelope";
    soap12_namespaces_[0].in = "http://schemas.xmlsoap.org/soap/envelope/";
    soap12_namespaces_[1].ns = "http://www.w3.org/2003/05/soap-encoding";
    soap12_namespaces_[1].in = "http://schemas.xmlsoap.org/soap/encoding/";
    soap_set_namespaces(proxy_.soap, soap12_namespaces_.data());
  }

  ns1__Struct* to_struct(const Item& item) {
    ns1__Struct* out = soap_new_ns1__Struct(proxy_.soap);
    out->name = item.name;
    out->count = item.count;
    out->price = item.price;
    out->when = gsoap_interop::to_timeval(item.when_us);
    out->tags = item.tags;
    out->note = item.note ? soap_new_std__string(proxy_.soap) : nullptr;
    if (out->note) *out->note = *item.note;
    return out;
  }

  static Item from_struct(const ns1__Struct& in) {
    Item item{in.name, in.count, in.price, gsoap_interop::from_timeval(in.when), in.tags, {}};
    if (in.note) item.note = *in.note;
    return item;
  }

  // Copies the answer out before the call's managed memory is released.
  template <class Copy>
  CallStatus finish(int rc, Copy copy) {
    CallStatus status = call_status(proxy_.soap, rc);
    if (status.kind == CallStatus::Kind::ok) copy();
    proxy_.destroy();
    return status;
  }

  std::string url_;
  InteropBindingProxy proxy_;
  std::vector<Namespace> soap12_namespaces_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto options = gsoap_interop::parse_options(argc, argv);
  LiteralCalls calls(options);
  return interop::run_vector_checks(calls, options.soap12, std::cout) == 0 ? 0 : 1;
}
