// gSOAP peer server for interop-encoded.wsdl (RPC/encoded):
// gsoap-interop-encoded-server --port P
#include "soapInteropEncodedBindingService.h"
// The namespace table must be defined in exactly one translation unit.
#include "InteropEncodedBinding.nsmap"
#include "gsoap_support.hpp"

namespace {

class EncodedServer : public InteropEncodedBindingService {
 public:
  EncodedServer() : InteropEncodedBindingService(SOAP_C_UTFSTRING) {}

  int echoString(const std::string& value, std::string& result) override {
    result = value;
    return SOAP_OK;
  }
  int echoInt(int value, int& result) override {
    result = value;
    return SOAP_OK;
  }
  int echoStruct(ns1__Struct* value, ns1__echoStructResponse& out) override {
    out.result = value;
    return SOAP_OK;
  }
  int echoArray(ArrayOfStruct* value, ns1__echoArrayResponse& out) override {
    out.result = value;
    return SOAP_OK;
  }
  int addNumbers(int a, int b, int& result) override {
    if (a < 0 || b < 0) return soap_sender_fault(soap, "negative", nullptr);
    result = a + b;
    return SOAP_OK;
  }
  int echoBinary(const xsd__base64Binary& value, xsd__base64Binary& result) override {
    result = value;
    return SOAP_OK;
  }
};

}  // namespace

int main(int argc, char** argv) {
  const auto options = gsoap_interop::parse_options(argc, argv);
  EncodedServer server;
  return gsoap_interop::serve_forever(server, options.port);
}
