// gSOAP MTOM peer for tests/mtom/mtom-echo.wsdl (echoData: the bytes back as an MTOM part),
// for tests/mtom/gsoap_test.cpp and bench/run.sh mtom:
//   gsoap-mtom-peer --port P                      serve (MTOM answers: SOAP_ENC_MTOM)
//   gsoap-mtom-peer --url U --size N [--rounds R] [--soap 1.2]
//                                                 call echoData R times with N bytes as an
//                                                 MTOM part (SOAP 1.1, or 1.2); prints
//                                                 "ok N <MB/s>" (bytes up and down per second
//                                                 of the best round)
// The server answers in the SOAP version of the request (gSOAP's namespace table matches
// both envelope namespaces).
#include <algorithm>
#include <chrono>
#include <iterator>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>

#include "soapMtomEchoBindingProxy.h"
#include "soapMtomEchoBindingService.h"
// The namespace table must be defined in exactly one translation unit.
#include "MtomEchoBinding.nsmap"
#include "gsoap_support.hpp"

namespace {

// Byte i of the payload: (31 i + 7) mod 256, as the lather side makes it.
unsigned char payload_byte(std::size_t i) {
  return static_cast<unsigned char>(31 * i + 7);
}

class EchoServer : public MtomEchoBindingService {
 public:
  EchoServer() : MtomEchoBindingService(SOAP_C_UTFSTRING | SOAP_ENC_MTOM) {}

  int echoData(_ns1__echoData* in, _ns1__echoDataResponse& out) override {
    out.name = in->name;
    out.data = in->data;
    out.data.id = nullptr;  // gSOAP names the part
    out.data.type = const_cast<char*>("application/octet-stream");
    out.data.options = nullptr;
    return SOAP_OK;
  }
};

int call(const std::string& url, std::size_t size, int rounds, bool soap12) {
  MtomEchoBindingProxy proxy(url.c_str(), SOAP_C_UTFSTRING | SOAP_ENC_MTOM | SOAP_IO_CHUNK);
  // SOAP 1.2: the generated namespace table with the 1.2 envelope and encoding namespaces
  // first (what a contract with a SOAP 1.2 binding gets from soapcpp2).
  static Namespace soap12_namespaces[sizeof namespaces / sizeof namespaces[0]];
  if (soap12) {
    std::copy(std::begin(namespaces), std::end(namespaces), soap12_namespaces);
    soap12_namespaces[0].ns = "http://www.w3.org/2003/05/soap-envelope";
    soap12_namespaces[1].ns = "http://www.w3.org/2003/05/soap-encoding";
    soap_set_namespaces(proxy.soap, soap12_namespaces);
  }
  std::string bytes(size, '\0');
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>(payload_byte(i));
  double best = 0;
  for (int r = 0; r < rounds; ++r) {
    _ns1__echoData in;
    in.soap_default(proxy.soap);
    in.name = "gsoap";
    in.data.__ptr = reinterpret_cast<unsigned char*>(bytes.data());
    in.data.__size = static_cast<int>(size);
    in.data.type = const_cast<char*>("application/octet-stream");
    _ns1__echoDataResponse out;
    const auto started = std::chrono::steady_clock::now();
    if (proxy.echoData(&in, out) != SOAP_OK) {
      proxy.soap_stream_fault(std::cerr);
      return 1;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (out.data.__size != static_cast<int>(size) || out.name != "gsoap" ||
        std::string_view(reinterpret_cast<char*>(out.data.__ptr), size) != bytes) {
      std::cout << "bad " << out.data.__size << "\n";
      return 1;
    }
    const double rate = 2.0 * static_cast<double>(size) / seconds / 1e6;
    if (rate > best) best = rate;
    proxy.destroy();
  }
  std::cout << "ok " << size << " " << static_cast<long>(best) << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int port = -1, rounds = 1;
  bool soap12 = false;
  std::string url;
  std::size_t size = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view arg = argv[i];
    if (arg == "--port")
      port = std::atoi(argv[i + 1]);
    else if (arg == "--url")
      url = argv[i + 1];
    else if (arg == "--size")
      size = std::strtoull(argv[i + 1], nullptr, 10);
    else if (arg == "--rounds")
      rounds = std::atoi(argv[i + 1]);
    else if (arg == "--soap")
      soap12 = std::string_view(argv[i + 1]) == "1.2";
    else
      port = -2;
  }
  if ((port < 0) == url.empty() || port == -2 || argc % 2 == 0) {
    std::cerr << "usage: " << argv[0] << " --port P | --url U --size N [--rounds R] [--soap 1.2]\n";
    return 2;
  }
  if (port >= 0) {
    EchoServer server;
    return gsoap_interop::serve_forever(server, port);
  }
  return call(url, size, rounds, soap12);
}
