// gSOAP peer client for tests/wsdl/data/empty.wsdl (binding EmptiesSoap): operations whose
// request or response has no body part, so an empty SOAP Body goes one way or both.
// gsoap-empty-client --url U; prints PASS|FAIL <check> <detail> lines, exits 1 on a FAIL.
//
// EchoOk is not called: its messages' one part is bound to soap:header under a soap:body
// without a parts attribute, which wsdl2h reads as WSDL 1.1 words it (every part in the Body
// too: it sends the element in the Body), where lather and zeep read a header-only message
// with an empty Body.
#include "soapEmptiesSoapProxy.h"
// The namespace table must be defined in exactly one translation unit.
#include "EmptiesSoap.nsmap"

#include <cstdio>
#include <cstring>
#include <string>

namespace {

int failures = 0;

void check(const char* name, bool ok, soap* ctx, const std::string& detail = {}) {
  std::string why = detail;
  if (!ok && ctx->error != SOAP_OK) {
    char text[1024];
    soap_sprint_fault(ctx, text, sizeof text);
    for (char& c : text)
      if (c == '\n') c = ' ';
    why += text;
  }
  std::printf("%s %s %s\n", ok ? "PASS" : "FAIL", name, why.c_str());
  failures += !ok;
}

}  // namespace

int main(int argc, char** argv) {
  std::string url;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--url") == 0) url = argv[++i];
  if (url.empty()) {
    std::fprintf(stderr, "usage: gsoap-empty-client --url URL\n");
    return 2;
  }
  EmptiesSoapProxy proxy(url.c_str(), SOAP_C_UTFSTRING);
  proxy.soap->recv_timeout = 60;
  proxy.soap->send_timeout = 60;

  // An empty Body both ways.
  __ns1__PingResponse ping;
  check("Ping", proxy.Ping(ping) == SOAP_OK, proxy.soap);
  // An empty request, a response element.
  _ns1__Status status;
  const bool status_ok = proxy.Status(status) == SOAP_OK;
  check("Status", status_ok && status.state == "up", proxy.soap, "state " + status.state + " ");
  // A request element, an empty response.
  _ns1__Reset reset;
  reset.target = "disk";
  __ns1__ResetResponse reset_response;
  check("Reset", proxy.Reset(&reset, reset_response) == SOAP_OK, proxy.soap);
  // One-way, the request's only part a SOAP header (mustUnderstand) and an empty Body.
  proxy.soap->header = soap_new_SOAP_ENV__Header(proxy.soap);
  proxy.soap->header->ns1__Session = soap_new__ns1__Session(proxy.soap);
  proxy.soap->header->ns1__Session->id = "s1";
  check("Touch", proxy.Touch() == SOAP_OK, proxy.soap);
  proxy.destroy();
  return failures ? 1 : 0;
}
