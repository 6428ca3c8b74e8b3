// lather/http/client.hpp — HTTP/1.1 client with pooled keep-alive connections (optional TLS).
//
//   lather::http::client c{"http://127.0.0.1:8080/perf"};
//   std::pair<std::string_view, std::string_view> hdrs[] = {
//       {"Content-Type", "text/xml; charset=utf-8"}, {"SOAPAction", "\"\""}};
//   c.post("", hdrs,
//          [&](lather::byte_buffer& out) { xml::writer w{out}; /* ... */ w.end_document(); },
//          [&](const http::response_head& head, const lather::byte_source& body) {
//            if (head.status != 200) ...;
//            reader.set_source(body); /* pull tokens */ });
//
// Every call runs on the calling thread: I/O is asynchronous on the connection's own
// io_context, driven by the caller with deadlines, so timeouts are exact and there is no
// thread hand-off. The client is thread-safe: concurrent calls take different connections
// from the pool (at most max_connections; further callers wait, within call_timeout).
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lather/byte_buffer.hpp"
#include "lather/http/error.hpp"
#include "lather/http/options.hpp"

namespace lather::http {

struct client_options {
  std::chrono::milliseconds connect_timeout{10'000};  ///< TCP connect + TLS handshake
  std::chrono::milliseconds io_timeout{30'000};       ///< any single read/write without progress
  std::chrono::milliseconds call_timeout{60'000};     ///< the whole call, incl. pool wait + retry
  std::size_t max_connections = 64;                   ///< per client (= per endpoint)
  std::chrono::milliseconds idle_expiry{30'000};      ///< pooled connections idle longer are closed
  chunking request_chunking{};
  /// RFC 9112 §6.1: no chunked request to a server not known to take HTTP/1.1. Until this
  /// client has seen a response from the server, a request is buffered up to this many bytes
  /// (or request_chunking.threshold, if larger) and sent with a Content-Length; only a larger
  /// one streams chunked. An HTTP/1.1 response lifts it; after an HTTP/1.0 one nothing is
  /// chunked. 0, or request_chunking.threshold 0 (the user says the server takes chunks),
  /// turns it off.
  std::size_t unknown_server_buffer = 1u << 20;
  std::optional<tls_options> tls{};  ///< for https:// (defaults apply when unset)
  std::optional<basic_auth> auth{};  ///< sent preemptively on every request
  unsigned async_threads = 2;        ///< threads of the pool behind async_post
  /// How a plain-TCP call waits for its socket. Unset (the default): the socket is blocking
  /// and the calling thread sleeps in sendmsg/recv. Set: the socket is non-blocking and, when
  /// a send or receive would block, the client calls wait_socket(fd, writable, deadline),
  /// then retries; it returns false once the deadline has passed (the call then times out).
  /// It also waits there before the first receive of an answer whose request went out without
  /// waiting (the peer cannot have answered yet; trying first would cost an empty recv per
  /// call), so the hook must return at once for a socket that is already ready, including
  /// readiness that came while nobody waited on it (poll(2) does; an edge-triggered loop must
  /// remember such edges, as lather-bench's does).
  /// For event loops running many clients on one thread (lather-bench --client-threads):
  /// the hook suspends the calling coroutine until the descriptor is ready. A plain connect
  /// waits there too (writable); TLS still waits on the calling thread.
  std::function<bool(int fd, bool writable, std::chrono::steady_clock::time_point deadline)>
      wait_socket{};
  /// Without wait_socket: a receive that would block (over TLS: a read or a handshake step)
  /// first polls (yielding the CPU between polls) for up to this long, so that with one call in
  /// flight the answer finds the calling thread awake instead of paying a wake-up. Adaptive per
  /// connection: the budget grows while answers come within it and falls to 0 when they do
  /// not or when other threads want the CPU. 0 = always sleep at once. See docs/http.md.
  std::chrono::microseconds spin_budget{200};
  /// Each connection's kernel receive buffer (SO_RCVBUF, set before connecting), so that a
  /// response of a few MB fits in flight (see server_options::receive_buffer). Applied only
  /// when net.core.rmem_max allows it; 0 = the kernel's autotuning.
  std::size_t receive_buffer = 4u << 20;
  /// Sees each request's head exactly as it goes on the wire, before its body: the request
  /// line, every header field (Host, Authorization and the Content-Length or
  /// Transfer-Encoding line included) and the blank line, CRLF-terminated. Called on the
  /// calling thread, again for the one retry; for tracing (lather-call --trace). Unset: no cost.
  std::function<void(std::string_view head)> on_request_head{};
};

namespace detail {
struct client_call;
}

/// Status line and headers of a response; valid during the read_body callback. Reading them
/// costs nothing more: the head is parsed into the connection's reused buffer either way.
///
///   for (std::size_t i = 0; i < head.header_count(); ++i) {
///     auto [name, value] = head.header_at(i);   // in the order received, names as sent
///   }
class response_head {
 public:
  unsigned status = 0;
  std::string_view content_type;  ///< "" if absent
  /// Value of the first header with this name (case-insensitive); "" if absent.
  std::string_view header(std::string_view name) const;
  /// How many header fields the response has (trailer fields of a chunked body excluded).
  std::size_t header_count() const;
  /// Field `i` as received: its name as the server spelled it, its value without surrounding
  /// whitespace ("", "" when i >= header_count()).
  std::pair<std::string_view, std::string_view> header_at(std::size_t i) const;
  std::string_view reason() const;  ///< the status line's reason phrase ("OK"); may be ""
  unsigned version() const;         ///< HTTP version of the status line: 10 or 11
  std::optional<std::uint64_t> content_length() const;  ///< nullopt if chunked / until close
  std::string peer() const;                             ///< "host:port" of the server that answered

 private:
  friend struct detail::client_call;
  const detail::client_call* call_ = nullptr;
};

/// For a read_body callback that rejects the status: an http::error (errc::http_status,
/// status() set) whose message names the status, the content type and the first `excerpt`
/// bytes of the body (control characters shown as '.'), e.g.
///   "HTTP 502 from 127.0.0.1:8080 (text/html): <html>Bad gateway..."
///   if (head.status != 200 && head.status != 500) throw http::status_error(head, body);
error status_error(const response_head& head, const byte_source& body, std::size_t excerpt = 200);

using header_list = std::span<const std::pair<std::string_view, std::string_view>>;
/// Writes the request body into the output (threshold-chunked, streamed). May be called a
/// second time for the one retry (see post()), so it must be repeatable.
using body_writer = std::function<void(byte_buffer&)>;
/// Lends post() the output a request body is written into (e.g. one an XML writer is bound
/// to), once per attempt: the one retry takes one again, so the caller can give its output back
/// to a pool as soon as the request is on the wire instead of holding it across the wait.
class staging_lender {
 public:
  /// Before write_body runs; write_body gets the output returned.
  virtual byte_buffer& lend() = 0;
  /// Once the request is sent (or sending it failed), before the response is read. The
  /// output has no sink then and, after a complete send, holds no bytes.
  virtual void give_back() noexcept = 0;

 protected:
  ~staging_lender() = default;
};

/// Gets the response head and a pull source for the body (0 = end). The source throws
/// http::error on timeout / truncation. Unread body bytes (up to 1 MiB) are drained after it
/// returns — or throws: its exception then propagates out of post() with the connection kept.
using body_reader = std::function<void(const response_head&, const byte_source&)>;

class client {
 public:
  /// http://host[:port][/path] or https://... ; the path is the default target.
  explicit client(std::string url, client_options opts = {});
  ~client();  ///< waits for async calls in flight, then closes all connections
  client(const client&) = delete;
  client& operator=(const client&) = delete;

  /// Synchronous POST. `target` "" = the URL's path. `headers` are sent as given (Host,
  /// Content-Length/Transfer-Encoding, Authorization are the client's). write_body streams
  /// the request through the chunking threshold; read_body gets the response head (any
  /// status) and a streaming body source. If a reused pooled connection fails before any
  /// byte of the response arrived, the call is retried once on a fresh connection
  /// (write_body runs again). Throws http::error (connect_refused, *_timeout, tls_failed,
  /// bad_message, connection_closed, ...); exceptions from the callbacks propagate (the
  /// connection is then dropped).
  /// `timeout` > 0 replaces client_options::call_timeout for this call.
  void post(std::string_view target, header_list headers, const body_writer& write_body,
            const body_reader& read_body, std::chrono::milliseconds timeout = {});
  /// As above, but the request body goes through the caller's own output (e.g. the one its
  /// XML writer is bound to) instead of one the client lends: each attempt takes it from
  /// `staging`, write_body gets it, the bytes are sent from it with no copy in between, and it
  /// goes back before the response is read (a retry takes one again and writes the request
  /// anew). The client sets its sink and threshold for the time the request is written and
  /// clears both (and the buffer) before giving it back. write_body may clear the sink before
  /// it ends (e.g. ahead of an XML writer's closing flush()): what is left is then framed as if
  /// it had never been flushed (Content-Length when it all fits the threshold).
  void post(std::string_view target, header_list headers, staging_lender& staging,
            const body_writer& write_body, const body_reader& read_body,
            std::chrono::milliseconds timeout = {});

  /// Asynchronous POST: returns at once; the call runs on a client-owned thread pool
  /// (client_options::async_threads) and `done` is called there with nullptr or the
  /// exception. Headers are copied; the callbacks must stay valid until `done` runs.
  void async_post(std::string target, std::vector<std::pair<std::string, std::string>> headers,
                  body_writer write_body, body_reader read_body,
                  std::function<void(std::exception_ptr)> done);
  /// Runs `task` on the same thread pool, after the tasks before it have started (a layer above
  /// makes its own calls asynchronous this way: lather::client::async_call). The destructor
  /// waits for it.
  void async_run(std::function<void()> task);

  struct get_result {
    unsigned status = 0;
    std::string content_type;
    std::string body;
  };
  /// GET helper (e.g. "?wsdl" or "/perf?wsdl"): any status is returned, not thrown.
  /// `target` "" = the URL's path; a target starting with '?' is appended to the path.
  get_result get(std::string_view target = {});

  struct stats {
    std::uint64_t connections_opened, requests, retries;
    std::size_t connections_idle;
    /// Receives that polled first (client_options::spin_budget) and found the answer / gave up
    /// (the budget ran out, or another thread wanted the CPU) and slept.
    std::uint64_t spins_found_work, spins_gave_up;
    /// Pooled 64 KiB read areas this client's connections hold right now: one per call that
    /// has response bytes not yet parsed (or a receive that cannot wait without one: TLS, or
    /// right after a receive that filled its area). A call waiting for its response holds none
    /// (read areas are lent by one pool per process, so waiting threads or fibers share a few).
    std::size_t read_areas_held;
    /// TLS handshakes completed, and how many of them resumed a session the server gave
    /// before (tls_options::session_resumption).
    std::uint64_t tls_handshakes, tls_resumed;
  };
  stats get_stats() const;

 private:
  friend struct detail::client_call;
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace lather::http
