// A SOAP envelope POSTed as it is (text/xml, the SOAPAction given), for tests that send what a
// typed client would not write; returns the response body whatever its status.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "lather/http/client.hpp"

namespace lather::test {

inline std::string post_envelope(const std::string& url, std::string_view soap_action,
                                 std::string_view envelope) {
  lather::http::client c{url};
  const std::pair<std::string_view, std::string_view> headers[] = {
      {"Content-Type", "text/xml; charset=utf-8"}, {"SOAPAction", soap_action}};
  std::string body;
  c.post(
      "", headers, [&](lather::byte_buffer& out) { out.append(envelope); },
      [&](const lather::http::response_head&, const lather::byte_source& src) {
        char buf[4096];
        while (std::size_t n = src(buf, sizeof buf)) body.append(buf, n);
      });
  return body;
}

/// A SOAP 1.1 envelope whose Body holds `body`.
inline std::string soap11_envelope(std::string_view body) {
  return R"(<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>)" +
         std::string(body) + "</s:Body></s:Envelope>";
}

}  // namespace lather::test
