// gSOAP peer client for interop-encoded.wsdl (RPC/encoded):
// gsoap-interop-encoded-client --url U; prints PASS|FAIL <check> <detail> lines.
#include "soapInteropEncodedBindingProxy.h"
// The namespace table must be defined in exactly one translation unit.
#include "InteropEncodedBinding.nsmap"
#include "gsoap_support.hpp"

namespace {

using gsoap_interop::call_status;
using interop::CallStatus;
using interop::Item;

class EncodedCalls final : public interop::InteropCalls {
 public:
  explicit EncodedCalls(const gsoap_interop::Options& options)
      : url_(options.url), proxy_(url_.c_str(), SOAP_C_UTFSTRING) {
    proxy_.soap->recv_timeout = 60;
    proxy_.soap->send_timeout = 60;
  }

  CallStatus echo_string(const std::string& value, std::string& result) override {
    std::string answer;
    return finish(proxy_.echoString(value, answer), [&] { result = answer; });
  }
  CallStatus echo_int(int value, int& result) override {
    int answer = 0;
    return finish(proxy_.echoInt(value, answer), [&] { result = answer; });
  }
  CallStatus echo_struct(const Item& value, Item& result) override {
    ns1__echoStructResponse response{};
    return finish(proxy_.echoStruct(to_struct(value), response), [&] {
      if (response.result) result = from_struct(*response.result);
    });
  }
  CallStatus echo_array(const std::vector<Item>& value, std::vector<Item>& result) override {
    ArrayOfStruct* request = soap_new_ArrayOfStruct(proxy_.soap);
    request->__size = static_cast<int>(value.size());
    request->__ptr = static_cast<ns1__Struct**>(
        soap_malloc(proxy_.soap, sizeof(ns1__Struct*) * (value.size() + 1)));
    for (std::size_t i = 0; i < value.size(); ++i) request->__ptr[i] = to_struct(value[i]);
    ns1__echoArrayResponse response{};
    return finish(proxy_.echoArray(request, response), [&] {
      result.clear();
      if (!response.result) return;
      for (int i = 0; i < response.result->__size; ++i)
        if (response.result->__ptr[i]) result.push_back(from_struct(*response.result->__ptr[i]));
    });
  }
  CallStatus add_numbers(int a, int b, int& result) override {
    int answer = 0;
    return finish(proxy_.addNumbers(a, b, answer), [&] { result = answer; });
  }
  CallStatus echo_binary(const std::vector<unsigned char>& value,
                         std::vector<unsigned char>& result) override {
    xsd__base64Binary answer;
    return finish(proxy_.echoBinary(gsoap_interop::to_base64(proxy_.soap, value), answer),
                  [&] { result = gsoap_interop::from_base64(answer); });
  }

 private:
  ns1__Struct* to_struct(const Item& item) {
    ns1__Struct* out = soap_new_ns1__Struct(proxy_.soap);
    out->name = item.name;
    out->count = item.count;
    out->price = item.price;
    out->when = gsoap_interop::to_timeval(item.when_us);
    out->tags = soap_new_ArrayOfString(proxy_.soap);
    out->tags->__size = static_cast<int>(item.tags.size());
    out->tags->__ptr = soap_new_std__string(proxy_.soap, static_cast<int>(item.tags.size()) + 1);
    for (std::size_t i = 0; i < item.tags.size(); ++i) out->tags->__ptr[i] = item.tags[i];
    out->note = item.note ? soap_new_std__string(proxy_.soap) : nullptr;
    if (out->note) *out->note = *item.note;
    return out;
  }

  static Item from_struct(const ns1__Struct& in) {
    Item item{in.name, in.count, in.price, gsoap_interop::from_timeval(in.when), {}, {}};
    if (in.tags) item.tags.assign(in.tags->__ptr, in.tags->__ptr + std::max(in.tags->__size, 0));
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
  InteropEncodedBindingProxy proxy_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto options = gsoap_interop::parse_options(argc, argv);
  EncodedCalls calls(options);
  return interop::run_vector_checks(calls, options.soap12, std::cout) == 0 ? 0 : 1;
}
