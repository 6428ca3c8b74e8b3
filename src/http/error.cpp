#include "lather/http/error.hpp"

namespace lather::http {

const char* describe(errc e) noexcept {
  switch (e) {
    case errc::ok:
      return "ok";
    case errc::invalid_url:
      return "invalid URL";
    case errc::resolve_failed:
      return "host name did not resolve";
    case errc::connect_refused:
      return "connection refused";
    case errc::connect_timeout:
      return "connect timed out";
    case errc::io_timeout:
      return "read/write timed out";
    case errc::call_timeout:
      return "call timed out";
    case errc::connection_closed:
      return "connection closed by peer";
    case errc::tls_failed:
      return "TLS handshake or certificate verification failed";
    case errc::bad_message:
      return "malformed HTTP message";
    case errc::header_limit:
      return "HTTP header too large";
    case errc::body_limit:
      return "HTTP body too large";
    case errc::http_status:
      return "unexpected HTTP status";
    case errc::client_gone:
      return "client disconnected";
    case errc::shutting_down:
      return "shutting down";
    case errc::resume_dropped:
      return "awaited work ended without resuming the handler";
    case errc::await_timeout:
      return "awaited work did not resume the handler in time";
    case errc::io_failed:
      return "I/O error";
  }
  return "unknown HTTP error";
}

namespace {
class http_category final : public std::error_category {
 public:
  const char* name() const noexcept override { return "lather.http"; }
  std::string message(int ev) const override { return describe(static_cast<errc>(ev)); }
};
}  // namespace

const std::error_category& category() noexcept {
  static const http_category instance;
  return instance;
}

}  // namespace lather::http
