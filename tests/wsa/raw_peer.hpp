// A raw WS-Addressing peer for the tests: POSTs an envelope with the headers and body given,
// as another stack would write it.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lather/http/client.hpp"
#include "lather/soap/version.hpp"

namespace wsa_test {

struct raw_response {
  unsigned status = 0;
  std::string body;
};

/// POSTs to `url` an Envelope (WS-Addressing 1.0 bound to prefix "a") with these header
/// entries and body; `soap_action` goes in SOAPAction (1.1).
inline raw_response raw_post(const std::string& url, lather::soap::version v,
                             std::string_view headers, std::string_view body,
                             std::string_view soap_action = "") {
  const bool v12 = v == lather::soap::version::soap12;
  const std::string env =
      v12 ? "http://www.w3.org/2003/05/soap-envelope" : "http://schemas.xmlsoap.org/soap/envelope/";
  const std::string request = "<e:Envelope xmlns:e=\"" + env +
                              "\" xmlns:a=\"http://www.w3.org/2005/08/addressing\"><e:Header>" +
                              std::string(headers) + "</e:Header><e:Body>" + std::string(body) +
                              "</e:Body></e:Envelope>";
  const std::string content_type = v12 ? "application/soap+xml; charset=utf-8" : "text/xml";
  std::string action = "\"";  // (built by append: g++ 12 -Wrestrict misfires on "x" + str)
  action.append(soap_action).append("\"");
  std::vector<std::pair<std::string_view, std::string_view>> h = {{"Content-Type", content_type}};
  if (!v12) h.push_back({"SOAPAction", action});
  raw_response response;
  lather::http::client c{url};
  c.post(
      "", h, [&](lather::byte_buffer& out) { out.append(request); },
      [&](const lather::http::response_head& head, const lather::byte_source& src) {
        response.status = head.status;
        char buf[4096];
        while (std::size_t n = src(buf, sizeof buf)) response.body.append(buf, n);
      });
  return response;
}

}  // namespace wsa_test
