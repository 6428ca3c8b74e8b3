// lather/http/server.hpp — HTTP/1.1 server (Boost.Beast parser + Asio, optional TLS).
//
//   lather::http::server srv{{.port = 0}};
//   srv.route("/echo", [](http::request& req, http::response& res) {
//     char buf[4096];
//     while (std::size_t n = req.read_body(buf, sizeof buf)) res.body().append({buf, n});
//     res.set_header("Content-Type", "text/xml; charset=utf-8");
//   });
//   srv.start();                       // returns immediately; srv.port() is the bound port
//
// A fixed pool of threads (one io_context each) serves many connections. Each connection runs
// on a stackful coroutine (boost::asio::spawn), so a handler's read_body() and body() writes
// suspend the coroutine on socket I/O instead of blocking a thread; when the whole body is
// already buffered (small requests) nothing suspends. Handlers therefore must not block a
// thread for long (use server::await for work done elsewhere). Keep-alive, HTTP/1.0,
// pipelining (answered in order), Expect: 100-continue, chunked or Content-Length request
// bodies, and responses through the chunking threshold are supported. Limits and their
// answers are documented in docs/limits.md. Shutdown: run() drains on SIGTERM/SIGINT; stop()
// drains from any thread (docs/deploy.md).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "lather/byte_buffer.hpp"
#include "lather/http/error.hpp"
#include "lather/http/options.hpp"

namespace lather::http {

struct server_options {
  std::string address = "127.0.0.1";
  std::uint16_t port = 0;                  ///< 0 = ephemeral (see server::port())
  unsigned threads = 0;                    ///< 0 = one per core
  std::size_t header_limit = 16 * 1024;    ///< request line + headers; beyond -> 431 + close
  std::uint64_t body_limit = 64ull << 20;  ///< checked while streaming; beyond -> 413 + close
  std::chrono::milliseconds header_timeout{10'000};  ///< first byte -> end of headers
  std::chrono::milliseconds idle_timeout{30'000};    ///< between requests; also per body read/write
  /// TLS: accept -> handshake done; a client that does not finish in time is dropped.
  std::chrono::milliseconds handshake_timeout{10'000};
  /// stop() (and a drain on SIGTERM/SIGINT): how long requests in progress get to finish once
  /// the server stopped accepting; what is still open then is closed. See docs/deploy.md.
  std::chrono::milliseconds shutdown_deadline{10'000};
  /// stop(): how long the server goes on serving normally after draining() turned true (so
  /// /readyz answered 503) before it stops accepting, so that a load balancer's health check
  /// takes it out of rotation first (set it above the check's interval x fall count).
  std::chrono::milliseconds drain_delay{0};
  /// run() drains (stop()) on SIGTERM and SIGINT. false: run() returns only after stop(), for
  /// a program that handles the signals itself.
  bool stop_on_signals = true;
  /// Bind with SO_REUSEPORT: a new process can bind the same address and port while this one
  /// still listens, then this one drains (zero-downtime restart, docs/deploy.md).
  bool reuse_port = false;
  /// An already listening TCP socket to serve instead of binding address:port (inherited from
  /// a parent process, or systemd_listen_fd()). The server owns it from start() on.
  int listen_fd = -1;
  /// Open connections beyond this are accepted, answered "503 Service Unavailable"
  /// (Connection: close, Retry-After: 1) and closed at once.
  std::size_t max_connections = 10'000;
  chunking response_chunking{};
  /// Set = HTTPS only. A plain HTTP request on it is answered "400 Bad Request" in plain text
  /// and closed (docs/http.md, "TLS").
  std::optional<tls_options> tls{};
  std::optional<basic_auth> auth{};  ///< set = every request needs these credentials (else 401)
  std::string realm = "lather";
  /// Stack of each connection's coroutine (it waits for requests on it) and of each stack a
  /// request runs on (head parse and handler; lent per request). Touched pages only.
  std::size_t coroutine_stack = 256 * 1024;
  /// A worker thread that runs out of ready work polls for new events (yielding the CPU
  /// between polls) for up to this long before it sleeps, so that with one call in flight the
  /// next request finds it awake instead of paying a wake-up. Adaptive: the budget grows while
  /// waits end within it and falls to 0 when they do not or when other threads want the CPU;
  /// a server without traffic does not spin. 0 = always sleep at once. See docs/http.md.
  std::chrono::microseconds spin_budget{200};
  /// Each connection's kernel receive buffer (SO_RCVBUF on the listening socket), so that a
  /// request of a few MB fits in flight: when the buffer fills before the handler catches up,
  /// the client's queued bytes are pushed through TCP by this server's receives, on its CPU.
  /// Applied only when net.core.rmem_max allows it; 0 = the kernel's autotuning. See
  /// docs/http.md ("Receive buffers").
  std::size_t receive_buffer = 4u << 20;
  /// How long server::await waits for its `resume` before the handler is resumed with
  /// http::error(errc::await_timeout) (answered "504 Gateway Timeout" if it escapes), so a
  /// backend that never answers cannot pin a connection, its stack and buffers for good.
  /// 30 s as idle_timeout (and a servlet container's async default). 0 = no limit.
  std::chrono::milliseconds await_timeout{30'000};
  /// glibc only, process-wide, set by the first server started with it: allocations of 4 MiB
  /// and more get pages of their own, and a malloc arena keeps at most 4 MiB free at its top.
  /// glibc's default thresholds adapt upwards after a large message is freed (up to 32 MiB),
  /// and a worker thread's arena then kept tens of MB after one large call for good (malloc_trim
  /// does not reach a thread arena's top). false = leave the allocator's settings alone.
  /// See docs/limits.md ("Memory").
  bool tune_allocator = true;
};

namespace detail {
struct server_connection;  // a connection and its current exchange (server.cpp)
}

/// The request being handled. Valid only inside the handler call; views stay valid until it
/// returns.
class request {
 public:
  std::string_view method() const;
  std::string_view target() const;  ///< path + query, as sent
  std::string_view path() const;
  std::string_view query() const;  ///< after '?', "" if none
  /// Value of the first header with this name (case-insensitive); "" if absent.
  std::string_view header(std::string_view name) const;
  unsigned version() const;                             ///< 10 or 11
  std::optional<std::uint64_t> content_length() const;  ///< nullopt for chunked; 0 if no body
  /// Pull up to `capacity` body bytes as they arrive (suspends the connection's coroutine,
  /// never blocks a thread); returns 0 at the end of the body. Sends "100 Continue" first if
  /// the client asked for it. Throws http::error (body_limit, io_timeout, client_gone,
  /// bad_message) — the server then answers/closes by itself; let it propagate.
  /// Signature-compatible with lather::byte_source (xml::source_fn):
  ///   reader.set_source([&](char* d, std::size_t n) { return req.read_body(d, n); });
  std::size_t read_body(char* dest, std::size_t capacity);
  /// The Basic-auth user when server_options::auth is set, else nullptr.
  const std::string* authenticated_user() const;
  /// The IP address of the peer as its connection was accepted (over TLS too): "127.0.0.1",
  /// "::1" (an IPv4 client of an IPv6 listener as IPv4); "" if the socket could not say.
  /// Behind a reverse proxy this is the proxy: the client address a proxy forwards
  /// (X-Forwarded-For, Forwarded) is a request header like any other, read with header() and
  /// never parsed here (any client can send one).
  std::string_view remote_address() const;
  std::uint16_t remote_port() const;  ///< the peer's TCP port; 0 if unknown
  /// remote_address() and remote_port() together: "127.0.0.1:53211", "[::1]:53211".
  std::string remote_endpoint() const;

 private:
  friend struct detail::server_connection;
  explicit request(detail::server_connection& x) : x_(x) {}
  detail::server_connection& x_;
};

/// A response header checked once, when it is made, for headers a handler sends on every call
/// (e.g. a constant Content-Type): response::set_header(line) then only appends it.
class header_line {
 public:
  /// Throws std::invalid_argument for an invalid name or value, or a name the server owns
  /// (Content-Length, Transfer-Encoding, Connection, Date).
  header_line(std::string_view name, std::string_view value);
  std::string_view text() const noexcept { return text_; }  ///< "Name: value\r\n"

 private:
  std::string text_;
};

/// The response being produced. Valid only inside the handler call. Default status 200.
class response {
 public:
  void set_status(unsigned code);
  /// Add a header. Content-Length, Transfer-Encoding, Connection and Date are the server's.
  void set_header(std::string_view name, std::string_view value);
  /// Add a header checked when `line` was made.
  void set_header(const header_line& line);
  /// The body. Its sink is wired to the chunking threshold: the first hand-off (once more than
  /// `threshold` bytes are buffered and the writer calls maybe_flush()/flush()) sends the
  /// headers + first chunk; if nothing was handed off by finish(), the body goes out in one
  /// write with Content-Length (a body over the threshold that was never flushed goes out as
  /// one chunk). Writes suspend the coroutine on socket back-pressure and throw http::error
  /// (client_gone, io_timeout) when the client is gone.
  byte_buffer& body();
  /// Send the response now (optional: returning from the handler finishes it too). After
  /// finish() set_status/set_header/body() writes are ignored.
  void finish();
  /// The client disconnected (a long-running handler may stop early).
  bool client_gone() const;

 private:
  friend struct detail::server_connection;
  explicit response(detail::server_connection& x) : x_(x) {}
  detail::server_connection& x_;
};

/// The listening socket systemd passed to this process (socket activation: LISTEN_FDS and
/// LISTEN_PID, sd_listen_fds(3)), for server_options::listen_fd; -1 when there is none.
int systemd_listen_fd();

/// Runs on the connection's coroutine. An exception escaping it gives "500 Internal Server
/// Error" (if nothing was sent yet) or closes the connection (if the response had started).
using handler = std::function<void(request&, response&)>;

class server {
 public:
  explicit server(server_options opts);
  ~server();  ///< stop()
  server(const server&) = delete;
  server& operator=(const server&) = delete;

  /// Route requests whose path starts with `path_prefix` (longest prefix wins; "/" matches
  /// everything; no match -> 404). Call before start().
  void route(std::string path_prefix, handler h);
  /// Bind, listen and start the threads; returns immediately. Throws http::error / system_error
  /// if the address cannot be bound or TLS files cannot be loaded.
  void start();
  /// The bound port (after start()).
  std::uint16_t port() const;
  /// start() (if not yet started) and block until stop() has completed. With
  /// server_options::stop_on_signals (the default) SIGTERM and SIGINT run stop(). Under
  /// systemd (Type=notify) it reports READY=1 once listening and STOPPING=1 when stop()
  /// begins. See docs/deploy.md.
  void run();
  /// Graceful stop (a drain), callable from any thread except a handler: draining() turns
  /// true, requests are served as before for drain_delay, then the server stops accepting
  /// (a request on a connection still in the accept queue, or accepted and not yet started by
  /// its worker, gets 503 with Connection: close),
  /// closes idle connections, lets requests in progress finish (their responses carry
  /// Connection: close) within shutdown_deadline, then closes the rest and joins the threads.
  /// Idempotent; a second call waits for the first.
  void stop();
  /// True from the moment stop() begins (what /readyz reports as 503 in lather::server).
  bool draining() const noexcept;

  /// From inside a handler: suspend it until `start`'s argument `resume` is called (from any
  /// thread, at any time, also from inside `start`), without holding a server thread. `start`
  /// runs on the handler's thread before the suspension. The handler always resumes on its
  /// own thread, exactly once, and throws http::error (let it propagate: its locals unwind,
  /// its stack and buffers go back to the server) when the await ends without `resume`:
  ///  * errc::resume_dropped: the last copy of `resume` was destroyed uncalled (the work was
  ///    cancelled or lost its callback). Answered 500 if it escapes.
  ///  * errc::await_timeout: server_options::await_timeout passed first. Answered 504.
  ///  * errc::shutting_down: stop() reached shutdown_deadline with the handler still waiting
  ///    (the connection is closed by then). Also thrown at once when stop() closed the
  ///    connection already.
  ///  * errc::client_gone: the client closed the connection (plain TCP, the request body read
  ///    to its end: as response::client_gone()). Nothing is answered.
  /// Only the first of these or `resume` counts: calling `resume` again, after a timeout,
  /// after stop() or after the server was destroyed does nothing. See docs/http.md.
  static void await(const std::function<void(std::function<void()> resume)>& start);
  /// As above with this await's own timeout instead of server_options::await_timeout
  /// (0 = no limit: for a caller that enforces its own deadline).
  static void await(const std::function<void(std::function<void()> resume)>& start,
                    std::chrono::milliseconds timeout);

  struct stats {
    std::uint64_t connections_total, connections_open, requests, bytes_in, bytes_out;
    std::uint64_t rejected_connections;  ///< answered 503 because of max_connections
    /// Sets of request buffers (request head, response head and body) the server holds: one
    /// per request in progress plus a per-thread pool of no more sets than open connections.
    /// Idle connections hold none.
    std::uint64_t request_buffers;
    /// Stacks requests run on (head parse and handler), by the same rule: one per request in
    /// progress plus a per-thread pool of no more than open connections. Idle connections wait
    /// on their own coroutine's stack, in shallow frames.
    std::uint64_t request_stacks;
    /// Read areas the socket's bytes land in, by the same rule: held by a request in progress
    /// (or bytes not parsed yet), else in the per-thread pool; an idle connection's wait for
    /// its next request holds none (a TLS connection's does).
    std::uint64_t read_buffers;
    /// Spins before sleeping (server_options::spin_budget) that found work / that gave up (the
    /// budget ran out, or another thread wanted the CPU) and slept.
    std::uint64_t spins_found_work, spins_gave_up;
    /// TLS handshakes completed, and how many of them resumed a session (a ticket).
    std::uint64_t tls_handshakes, tls_resumed;
  };
  stats get_stats() const;

 private:
  friend struct detail::server_connection;
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace lather::http
