// Helpers shared by the gSOAP interop peers: conversions between gSOAP's generated types
// and interop::Item, fault decoding, and the command line / listening loop.
// Included after the generated soapH.h of one binding.
#pragma once

#include <sys/time.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "vectors.hpp"

namespace gsoap_interop {

inline timeval to_timeval(std::int64_t when_us) {
  std::int64_t seconds = when_us / 1000000;
  std::int64_t micros = when_us % 1000000;
  if (micros < 0) {
    micros += 1000000;
    --seconds;
  }
  return timeval{static_cast<time_t>(seconds), static_cast<suseconds_t>(micros)};
}

inline std::int64_t from_timeval(const timeval& when) {
  return static_cast<std::int64_t>(when.tv_sec) * 1000000 + when.tv_usec;
}

inline xsd__base64Binary to_base64(soap* ctx, const std::vector<unsigned char>& bytes) {
  xsd__base64Binary binary;
  binary.soap_default(ctx);
  binary.__size = static_cast<int>(bytes.size());
  binary.__ptr = static_cast<unsigned char*>(soap_malloc(ctx, bytes.size() + 1));
  std::memcpy(binary.__ptr, bytes.data(), bytes.size());
  return binary;
}

inline std::vector<unsigned char> from_base64(const xsd__base64Binary& binary) {
  if (binary.__ptr == nullptr || binary.__size <= 0) return {};
  return {binary.__ptr, binary.__ptr + binary.__size};
}

// gSOAP maps a received fault code onto its own prefix table, where "SOAP-ENV" is the
// envelope namespace of the message it just read (soap->version).
inline interop::CallStatus call_status(soap* ctx, int rc) {
  if (rc == SOAP_OK) return {};
  if (ctx->fault == nullptr || soap_fault_string(ctx) == nullptr) {
    char text[1024];
    soap_sprint_fault(ctx, text, sizeof text);
    for (char& c : text)
      if (c == '\n') c = ' ';
    return interop::CallStatus::failed(text);
  }
  interop::CallStatus status;
  status.kind = interop::CallStatus::Kind::fault;
  const char** code = soap_faultcode(ctx);
  std::string_view text = code && *code ? *code : "";
  const auto colon = text.find(':');
  const std::string_view prefix = colon == text.npos ? "" : text.substr(0, colon);
  status.code_local = std::string(colon == text.npos ? text : text.substr(colon + 1));
  if (prefix == "SOAP-ENV") {
    status.code_namespace = ctx->version == 2 ? "http://www.w3.org/2003/05/soap-envelope"
                                              : "http://schemas.xmlsoap.org/soap/envelope/";
  } else {
    status.code_namespace = std::string(prefix);  // unknown prefix: report it as is
  }
  status.reason = soap_fault_string(ctx);
  return status;
}

struct Options {
  int port = 0;
  std::string url;
  bool soap12 = false;
};

inline Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--port" && i + 1 < argc) {
      options.port = std::atoi(argv[++i]);
    } else if (arg == "--url" && i + 1 < argc) {
      options.url = argv[++i];
    } else if (arg == "--soap12") {
      options.soap12 = true;
    } else {
      std::cerr << "usage: " << argv[0] << " --port P | --url U [--soap12]\n";
      std::exit(2);
    }
  }
  return options;
}

// Iterative server on 127.0.0.1 (one request at a time, like gSOAP's own run()).
template <class Service>
int serve_forever(Service& service, int port) {
  service.soap->bind_flags = SO_REUSEADDR;
  service.soap->recv_timeout = 30;  // a stalled client must not wedge the server
  service.soap->send_timeout = 30;
  if (!soap_valid_socket(service.bind("127.0.0.1", port, 16))) {
    service.soap_stream_fault(std::cerr);
    return 1;
  }
  std::cout << "READY" << std::endl;
  for (;;) {
    if (!soap_valid_socket(service.accept())) {
      service.soap_stream_fault(std::cerr);
      return 1;
    }
    // Faults the handlers raise on purpose (addNumbers) are answers, not server errors.
    const int rc = service.serve();
    if (rc != SOAP_OK && rc != SOAP_EOF && rc != SOAP_FAULT && rc != SOAP_CLI_FAULT)
      service.soap_stream_fault(std::cerr);
    service.destroy();
  }
}

}  // namespace gsoap_interop
