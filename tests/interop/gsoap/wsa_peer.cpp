// gSOAP WS-Addressing peer for tests/wsa/wsa-echo.wsdl (echo), with gSOAP's wsaapi plugin, for
// tests/wsa/gsoap_test.cpp:
//   gsoap-wsa-peer --port P    serve: soap_wsa_check on each request, soap_wsa_reply with the
//                              contract's response Action
//   gsoap-wsa-peer --url U     call echo("hi") with soap_wsa_request (fresh MessageID, To = U,
//                              the contract's Action); prints "ok <text> relates=<yes|no>
//                              action=<Action>" from the response's headers, or "fault <text>"
//   gsoap-wsa-peer --url U --reply-to R
//                              the same with ReplyTo R (soap_wsa_add_ReplyTo): prints
//                              "accepted <MessageID>" when the service answered 202/200
//                              without a response (it went to R)
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>

#include "soapWsaEchoBindingProxy.h"
#include "soapWsaEchoBindingService.h"
#include "wsaapi.h"
// The namespace table must be defined in exactly one translation unit.
#include "WsaEchoBinding.nsmap"

namespace {

constexpr const char* echo_action = "urn:lather:wsa-interop/echo";
constexpr const char* echo_reply = "urn:lather:wsa-interop/echoResponse";

class EchoServer : public WsaEchoBindingService {
 public:
  EchoServer() : WsaEchoBindingService(SOAP_C_UTFSTRING) { soap_register_plugin(soap, soap_wsa); }

  int echo(_ns1__echo* in, _ns1__echoResponse& out) override {
    if (soap_wsa_check(soap) != SOAP_OK) return soap->error;
    out.text = in->text;
    return soap_wsa_reply(soap, nullptr, echo_reply);
  }
};

// (gsoap_support.hpp's serve_forever needs xsd:base64Binary, which this contract lacks.)
int serve(int port) {
  EchoServer server;
  server.soap->bind_flags = SO_REUSEADDR;
  server.soap->recv_timeout = server.soap->send_timeout = 30;
  if (!soap_valid_socket(server.bind("127.0.0.1", port, 16))) {
    server.soap_stream_fault(std::cerr);
    return 1;
  }
  std::cout << "READY" << std::endl;
  while (soap_valid_socket(server.accept())) {
    server.serve();  // a WS-Addressing fault is an answer, not a server error
    server.destroy();
  }
  server.soap_stream_fault(std::cerr);
  return 1;
}

int call(const std::string& url, const char* reply_to) {
  WsaEchoBindingProxy proxy(url.c_str(), SOAP_C_UTFSTRING);
  soap_register_plugin(proxy.soap, soap_wsa);
  const std::string id = soap_wsa_rand_uuid(proxy.soap);
  soap_wsa_request(proxy.soap, id.c_str(), url.c_str(), echo_action);
  if (reply_to) soap_wsa_add_ReplyTo(proxy.soap, reply_to);
  _ns1__echo in;
  in.soap_default(proxy.soap);
  in.text = "hi";
  _ns1__echoResponse out;
  if (proxy.echo(&in, out) != SOAP_OK) {
    if (reply_to && (proxy.soap->error == 202 || proxy.soap->error == 200)) {
      std::cout << "accepted " << id << "\n";  // wsaapi's documented outcome of a relayed reply
      return 0;
    }
    const char* text = soap_fault_string(proxy.soap);
    std::cout << "fault " << (text ? text : "?") << "\n";
    return 0;
  }
  const SOAP_ENV__Header* h = proxy.soap->header;
  const bool relates =
      h && h->wsa5__RelatesTo && h->wsa5__RelatesTo->__item && id == h->wsa5__RelatesTo->__item;
  std::cout << "ok " << out.text << " relates=" << (relates ? "yes" : "no")
            << " action=" << (h && h->wsa5__Action ? h->wsa5__Action : "None") << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string_view option = argc == 3 ? argv[1] : "";
  if (option == "--port") return serve(std::atoi(argv[2]));
  if (option == "--url") return call(argv[2], nullptr);
  if (argc == 5 && std::string_view(argv[1]) == "--url" &&
      std::string_view(argv[3]) == "--reply-to")
    return call(argv[2], argv[4]);
  std::cerr << "usage: " << argv[0] << " --port P | --url U [--reply-to R]\n";
  return 2;
}
