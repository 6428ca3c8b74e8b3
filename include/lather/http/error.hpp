// lather/http/error.hpp — error codes of the HTTP layer.
//
// One enum for the layer, wired into std::error_code like the XML layer's. Thrown as
// lather::http::error by request::read_body, response writes and the client.
#pragma once

#include <stdexcept>
#include <string>
#include <system_error>

namespace lather::http {

enum class errc : int {
  ok = 0,
  invalid_url = 1,    ///< client: URL is not http://host[:port][/path] or https://...
  resolve_failed,     ///< client: host name did not resolve
  connect_refused,    ///< client: the server refused or reset the connection attempt
  connect_timeout,    ///< client: connect (incl. TLS handshake) exceeded connect_timeout
  io_timeout,         ///< a read or write made no progress within its timeout
  call_timeout,       ///< client: the whole call exceeded call_timeout
  connection_closed,  ///< the peer closed the connection (mid-message or before a response)
  tls_failed,         ///< TLS handshake or certificate verification failed
  bad_message,        ///< malformed HTTP (request/status line, header, chunk framing)
  header_limit,       ///< header block larger than the limit (server answers 431)
  body_limit,         ///< body larger than the limit (server answers 413)
  http_status,        ///< client: the server answered with a status the caller rejected
  client_gone,        ///< server: the client disconnected while the handler was running
  shutting_down,      ///< the server or client is stopping
  io_failed,          ///< any other socket error (what() carries the system message)
  resume_dropped,     ///< server::await: the last copy of `resume` was destroyed uncalled
  await_timeout,      ///< server::await: `resume` was not called within the await's timeout
};

const std::error_category& category() noexcept;
inline std::error_code make_error_code(errc e) noexcept {
  return {static_cast<int>(e), category()};
}

/// Stable, short description of a code (also what category().message() returns).
const char* describe(errc e) noexcept;

/// What the HTTP layer throws. what() adds detail (host, status, body excerpt, OS message).
class error : public std::runtime_error {
 public:
  error(errc code, const std::string& what) : std::runtime_error(what), code_(code) {}
  explicit error(errc code) : error(code, describe(code)) {}
  errc code() const noexcept { return code_; }
  /// For errc::http_status: the HTTP status the server sent (0 otherwise).
  unsigned status() const noexcept { return status_; }
  error& with_status(unsigned s) noexcept {
    status_ = s;
    return *this;
  }

 private:
  errc code_;
  unsigned status_ = 0;
};

}  // namespace lather::http

template <>
struct std::is_error_code_enum<lather::http::errc> : std::true_type {};
