// For client tests: a server handler that echoes the request body, and a client call that posts
// a body and returns the response body.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "lather/http/client.hpp"
#include "lather/http/server.hpp"

namespace lather::http::test {

/// Echoes the request body, streamed through the chunking threshold.
inline void echo(request& req, response& res) {
  char buf[8192];
  while (std::size_t n = req.read_body(buf, sizeof buf)) {
    res.body().append({buf, n});
    res.body().maybe_flush();
  }
  res.set_header("Content-Type", "text/xml; charset=utf-8");
}

/// POST `body` and return the response body (any status; `status` gets it).
inline std::string call(client& c, std::string_view body, unsigned* status = nullptr) {
  std::string out;
  std::pair<std::string_view, std::string_view> hdrs[] = {
      {"Content-Type", "text/xml; charset=utf-8"}, {"SOAPAction", "\"\""}};
  c.post(
      "", hdrs, [&](lather::byte_buffer& o) { o.append(body); },
      [&](const response_head& head, const lather::byte_source& src) {
        if (status) *status = head.status;
        char buf[4096];
        while (std::size_t n = src(buf, sizeof buf)) out.append(buf, n);
      });
  return out;
}

}  // namespace lather::http::test
