// gSOAP peer server for interop.wsdl (document/literal wrapped): gsoap-interop-server --port P
#include "soapInteropBindingService.h"
// The namespace table must be defined in exactly one translation unit.
#include "InteropBinding.nsmap"
#include "gsoap_support.hpp"

namespace {

class LiteralServer : public InteropBindingService {
 public:
  LiteralServer() : InteropBindingService(SOAP_C_UTFSTRING) {}

  int echoString(_ns1__echoString* in, _ns1__echoStringResponse& out) override {
    out.result = in->value;
    return SOAP_OK;
  }
  int echoInt(_ns1__echoInt* in, _ns1__echoIntResponse& out) override {
    out.result = in->value;
    return SOAP_OK;
  }
  int echoStruct(_ns1__echoStruct* in, _ns1__echoStructResponse& out) override {
    out.result = in->value;
    return SOAP_OK;
  }
  int echoArray(_ns1__echoArray* in, _ns1__echoArrayResponse& out) override {
    out.result = in->value;
    return SOAP_OK;
  }
  int addNumbers(_ns1__addNumbers* in, _ns1__addNumbersResponse& out) override {
    if (in->a < 0 || in->b < 0) return soap_sender_fault(soap, "negative", nullptr);
    out.result = in->a + in->b;
    return SOAP_OK;
  }
  int echoBinary(_ns1__echoBinary* in, _ns1__echoBinaryResponse& out) override {
    out.result = in->value;
    return SOAP_OK;
  }
};

}  // namespace

int main(int argc, char** argv) {
  const auto options = gsoap_interop::parse_options(argc, argv);
  LiteralServer server;
  return gsoap_interop::serve_forever(server, options.port);
}
