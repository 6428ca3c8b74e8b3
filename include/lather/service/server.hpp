// lather/service/server.hpp — serve lather::service objects over HTTP(S).
//
//   lather::server srv{{.port = 8080}};  // or {{.port = 8080}, {.access_log = stderr}}
//   srv.mount("/perf", perf);   // POST /perf -> SOAP; GET /perf?wsdl -> WSDL 1.1
//   srv.run();                  // GET /readyz, /livez, /healthz, /metrics are always there
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "lather/http/server.hpp"
#include "lather/service/service.hpp"

namespace lather {

/// A call that failed inside the service: what soap_server_options::error_log hears.
struct call_error {
  std::string_view path{};       ///< the service's mount path
  std::string_view operation{};  ///< "" when the call failed before dispatch
  /// What went wrong: the handler's exception's what() (also when the client was answered
  /// "Internal server error"), or why the response could not be written.
  std::string_view message{};
};

/// The default error log: one line on stderr,
/// "lather: POST <path> <operation>: <message>".
void stderr_error_log(const call_error& e);

/// What a SOAP server adds to the HTTP server's options.
struct soap_server_options {
  /// One access-log line per SOAP call (method, path, operation, status, bytes in/out, µs);
  /// nullptr = off.
  std::FILE* access_log = nullptr;
  /// Told about every call that failed on the service's side: a handler threw something other
  /// than soap::fault_error, or the response could not be written (both answered with a
  /// Server/Receiver fault). Faults a handler throws on purpose and the client's errors are
  /// not logged. Called on the worker thread that ran the call; empty = off.
  std::function<void(const call_error&)> error_log = stderr_error_log;
  /// Reply to handler exceptions other than soap::fault_error with a generic reason
  /// (no what(), no internal paths); error_log still hears the message. Set false while
  /// debugging.
  bool hide_internal_errors = true;
  /// Address advertised in generated WSDLs; empty = from the request's Host header.
  std::string public_base_url{};
};

/// All of a lather::server's options: its members are read and set as one struct
/// (`o.port = 8080; o.access_log = stderr;`). With designated initializers each part takes its
/// own braces, HTTP first:
///   lather::server_options o{{.port = 8080, .threads = 4}, {.access_log = stderr}};
struct server_options : http::server_options, soap_server_options {};

class server {
 public:
  explicit server(server_options opts = {});
  /// The same from its two parts, so that either can be given with designated initializers:
  ///   lather::server srv{{.port = 8080}};
  ///   lather::server srv{{.port = 8080}, {.access_log = stderr}};
  explicit server(http::server_options http, soap_server_options soap = {});
  ~server();
  server(const server&) = delete;
  server& operator=(const server&) = delete;

  /// Serve `s` at `path` (exact path; query "?wsdl" gives its WSDL). The service must outlive
  /// the server. Call before start(). Once the server has started, registering an operation,
  /// header, interceptor or codec on `s` throws std::logic_error.
  void mount(std::string path, service& s);
  void start();
  /// start() and block until stop(); SIGTERM/SIGINT drain (see http::server::run and
  /// docs/deploy.md).
  void run();
  void stop();  ///< drain (see http::server::stop)
  /// A drain has begun: GET /readyz answers 503.
  bool draining() const noexcept;
  std::uint16_t port() const;

  /// Prometheus text exposition of the server's metrics (what GET /metrics returns).
  std::string metrics_text() const;

 private:
  void seal_services();
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace lather
