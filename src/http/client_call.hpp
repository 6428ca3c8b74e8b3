// Internal to lather_http: the client's state shared by its translation units. client.cpp
// runs a call (the request written through the framer, the response parsed) and the public
// API; client_socket.cpp is a call's socket I/O (connect, send, receive, deadlines).
#pragma once

#include "lather/http/client.hpp"

#include "lather/detail/object_pool.hpp"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/error.hpp>
#include <condition_variable>
#include <cstring>
#include <limits>
#include <mutex>

#include "asio_names.hpp"
#include "framer.hpp"
#include "lent_stack.hpp"
#include "spin.hpp"
#include "tls.hpp"
#include "wire.hpp"

namespace lather::http {

namespace detail {

struct parsed_url {
  bool https = false;
  std::string host, port, path, host_header;
};

parsed_url parse_url(std::string_view url);

/// Thrown inside a call when a reused connection failed before any response byte arrived.
struct stale_connection {
  error cause;
};

struct client_connection;
struct client_call;

using response_parser = message_parser<false>;

/// The response bytes received and not yet parsed. 64 KiB, as the server's reads: a large
/// response arrives in a quarter of the receives.
struct read_area {
  static constexpr std::size_t capacity = 64 * 1024;
  std::unique_ptr<char[]> bytes = std::make_unique_for_overwrite<char[]>(capacity);
};

/// The request being written: head and body staging (the body's sink is wired per call; a
/// caller may bring its own body staging, see client_call::body_out).
struct request_staging {
  std::string head;
  byte_buffer body;
};

// A connection holds a read_area only while it has unparsed bytes or a receive that could not
// wait without one is in progress, and a request_staging only while it writes its request: both
// are lent by one LIFO pool per process. So the sets in use are the few that calls are filling or
// emptying right now, warm in the cache, whether the clients are fibers on a few threads
// (lather-bench --client-threads) or one blocking thread each (128 threads held 128 cold sets,
// ~100 KiB each, when the pool was per thread). Each pool keeps at most 128 (128 blocking
// threads sending PacketSize-100 requests into full sockets hold one each).
template <class T>
lather::detail::object_pool<T>& spares() {
  static lather::detail::object_pool<T> pool{128};
  return pool;
}

/// The io_context a TLS connection's operations run on (client_call::run_io), taken from a
/// few spares and given back when the connection closes: a new connection (one per call with
/// keep-alive off, or after the server closed one) then makes no epoll, eventfd and timerfd of
/// its own. Every operation has completed by then (run_io runs each to its end).
struct tls_context {
  tls_context() : ctx(spare().take_unique(1)) {}
  tls_context(const tls_context&) = delete;
  tls_context& operator=(const tls_context&) = delete;
  ~tls_context() { spare().give_back(ctx); }
  static lather::detail::object_pool<asio::io_context>& spare() {
    static lather::detail::object_pool<asio::io_context> pool{16};  // 3 descriptors each
    return pool;
  }
  std::unique_ptr<asio::io_context> ctx;
};

/// A TLS connection's asio side, made once its TCP connection is up: an io_context per
/// connection from the start would cost an epoll, an eventfd and a timerfd besides the socket,
/// four descriptors per plain connection, so 1,024 connections would need 4,096.
struct tls_link {
  explicit tls_link(asio::ssl::context& settings) : stream(socket, settings) {
    // asio turns SSL_MODE_RELEASE_BUFFERS on: OpenSSL then frees its ~17 KB read and write
    // buffers after every record and allocates them again for the next (three malloc/free
    // pairs per call). A client holds few connections (max_connections per endpoint), so
    // they keep their buffers. The server keeps the mode: it may hold thousands of idle ones.
    SSL_clear_mode(stream.native_handle(), SSL_MODE_RELEASE_BUFFERS);
  }
  tls_context context;  // destroyed last: the socket is deregistered from it first
  asio::io_context& ctx = *context.ctx;
  tcp::socket socket{ctx};
  asio::ssl::stream<tcp::socket&> stream;
};

/// A pooled connection. Used by one call at a time.
struct client_connection {
  client_connection(std::chrono::microseconds spin_max, std::atomic<std::size_t>& areas)
      : areas_held(areas), spin(spin_max) {}
  client_connection(const client_connection&) = delete;
  client_connection& operator=(const client_connection&) = delete;
  ~client_connection() { close_socket(); }
  // Plain TCP: the socket, never asio's (asio registers every socket it holds with its
  // io_context's epoll, and there each arriving segment would also run that epoll's callback).
  // TLS: -1, the socket is tls->socket.
  int fd = -1;
  std::unique_ptr<tls_link> tls;
  void close_socket() {
    if (fd >= 0) ::close(fd);
    fd = -1;
    tls.reset();
  }
  bool connected = false;
  std::uint64_t uses = 0;
  clock_type::time_point last_used{};
  std::unique_ptr<read_area> input;  // unparsed bytes are input->bytes[read_begin, read_end)
  std::size_t read_begin = 0, read_end = 0;
  std::unique_ptr<request_staging> out;  // while the request is written
  std::atomic<std::size_t>& areas_held;  // the client's count (client::stats::read_areas_held)
  char* read_data() { return input->bytes.get(); }
  void take_input() {
    if (input) return;
    input = spares<read_area>().take_unique();
    areas_held.fetch_add(1, std::memory_order_relaxed);
  }
  /// Returns the read area when no unparsed byte is left in it (or `discard`: the connection
  /// is being dropped or reconnected).
  void return_input(bool discard = false) {
    if (discard) read_begin = read_end = 0;
    if (read_begin != read_end || !input) return;
    read_begin = read_end = 0;
    spares<read_area>().give_back(input);
    areas_held.fetch_sub(1, std::memory_order_relaxed);
  }
  void return_output() {
    if (out) out->body.clear_sink();
    spares<request_staging>().give_back(out);
  }
  // The current response's head, kept here so its capacity is reused.
  head_fields response_head;
  // SO_SNDTIMEO / SO_RCVTIMEO now set on the blocking plain-TCP socket (zero = not yet).
  clock_type::duration send_timeout{}, receive_timeout{};
  // The last blocking receive filled all the room it had: more bytes are probably queued, so
  // the next one keeps the read area instead of waiting in the stack buffer (receive_blocking).
  bool last_receive_filled = false;
  spin_budget spin;  // polling before a blocking recv (client_options::spin_budget)
};

/// One request/response on a connection.
struct client_call final : frame_transport {
  client_call(client::impl& owner, client_connection& conn, clock_type::time_point deadline)
      : cl(owner), c(conn), call_deadline(deadline) {}
  client::impl& cl;
  client_connection& c;
  clock_type::time_point call_deadline;
  bool reused = false;
  bool response_started = false;  // any response byte arrived
  // With the wait_socket hook: a send had to wait, or a receive was tried (receive_blocking).
  bool send_waited = false, receive_tried = false;
  staging_lender* caller_staging = nullptr;  // post() with the caller's own staging output
  byte_buffer* body_out = nullptr;           // the request body being written: that, or c.out->body
  // The peer closed the connection while the request was being sent: the rest of the request
  // is dropped, and the answer the peer may have sent first (413, an HTTP/1.0 server's 500 for a
  // chunked body it cannot read) is read before giving up (RFC 9112 section 9.5).
  sys_error send_error;
  body_framer framer{*this};  // the request body's
  std::optional<response_parser> parser;
  body_window body_in;  // read_body's destination

  std::string_view header(std::string_view name) const { return c.response_head.header(name); }

  // ---- synchronous driving of asynchronous operations ----
  struct io_deadline {
    clock_type::time_point at;
    errc code;
  };
  io_deadline next_deadline() const;
  /// awaits_peer: the operation waits for the server (a handshake, a read), so it may spin
  /// first (spin_io); a write does not.
  template <class Start>
  std::size_t run_io(io_deadline d, sys_error& ec, Start&& start, bool awaits_peer = true);
  bool spin_io(asio::io_context& ctx, const bool& done);
  bool counted_spin(spin_outcome outcome);
  [[noreturn]] void fail_io(const sys_error& ec, std::string_view what);
  // Plain TCP: blocking socket calls bounded by the deadline.
  [[noreturn]] void time_out(io_deadline d);
  void bound_wait(int option, clock_type::duration& applied, io_deadline d);
  void wait_ready(bool writable, io_deadline d);
  int finish_connect(io_deadline d);
  void send_blocking(iovec* iov, std::size_t count);
  std::size_t receive_blocking(io_deadline d, sys_error& ec);
  ssize_t receive_sleeping();
  ssize_t recv_spinning(char* dest, std::size_t capacity);

  void connect();
  void write_head_and(std::string_view framing, std::span<const asio::const_buffer> more);
  template <class Buffers>
  void write_all(const Buffers& b);
  void on_body_flush(std::string_view bytes);
  // frame_transport: the request's head and writes for `framer`.
  std::string_view complete_head(std::string_view framing) override;
  void write(std::span<const std::string_view> pieces) override;
  void send_request(std::string_view method, std::string_view target, header_list headers,
                    const body_writer* write_body);
  void await_response();
  void read_head();
  void read_early_response();
  std::size_t read_body(char* dest, std::size_t capacity);
  bool drain(std::size_t budget);
  bool fill(io_deadline d);
  response_head head() const {
    response_head h;
    h.status = parser->status();
    h.content_type = header("Content-Type");
    h.call_ = this;
    return h;
  }
};

}  // namespace detail

struct client::impl {
  std::atomic<bool> peer_http10{false};  ///< the server answered HTTP/1.0: never chunk
  std::atomic<bool> peer_http11{false};  ///< the server answered HTTP/1.1: chunk by threshold
  impl(std::string u, client_options o) : url(detail::parse_url(u)), opts(std::move(o)) {
    if (url.https) {
      tls.emplace(asio::ssl::context::tls_client);
      tls->set_options(asio::ssl::context::default_workarounds);
      tls_options t = opts.tls.value_or(tls_options{});
      detail::set_tls_versions(*tls, t);
      if (t.session_resumption) sessions.emplace(*tls);
      try {
        if (t.verify_peer) {
          tls->set_verify_mode(asio::ssl::verify_peer);
          if (t.ca_file.empty())
            tls->set_default_verify_paths();
          else
            tls->load_verify_file(t.ca_file);
        } else {
          tls->set_verify_mode(asio::ssl::verify_none);
        }
        if (!t.cert_file.empty()) {
          tls->use_certificate_chain_file(t.cert_file);
          tls->use_private_key_file(t.key_file, asio::ssl::context::pem);
        }
      } catch (const boost::system::system_error& e) {
        throw error(errc::tls_failed, std::string("loading TLS files: ") + e.what());
      }
      verify_peer = t.verify_peer;
    }
    if (opts.auth)
      authorization = "Authorization: Basic " +
                      wire::base64_encode(opts.auth->user + ":" + opts.auth->password) + "\r\n";
  }

  detail::parsed_url url;
  client_options opts;
  std::optional<detail::session_store> sessions;  // outlives `tls`, whose callback uses it
  std::optional<asio::ssl::context> tls;
  bool verify_peer = true;
  std::string authorization;

  std::mutex pool_mutex;
  std::condition_variable pool_changed;
  std::vector<std::unique_ptr<detail::client_connection>> idle;
  std::size_t open = 0;
  std::optional<tcp::resolver::results_type> endpoints;  // resolved once, under pool_mutex

  std::once_flag async_once;
  std::unique_ptr<asio::thread_pool> async_pool;

  std::atomic<std::uint64_t> connections_opened{0}, requests{0}, retries{0};
  std::atomic<std::uint64_t> tls_handshakes{0}, tls_resumed{0};
  std::atomic<std::uint64_t> spins_found{0}, spins_gave_up{0};
  std::atomic<std::size_t> read_areas_held{0};

  std::unique_ptr<detail::client_connection> acquire(clock_type::time_point deadline) {
    std::vector<std::unique_ptr<detail::client_connection>> expired;  // closed outside the lock
    std::unique_lock lock(pool_mutex);
    for (;;) {
      auto now = clock_type::now();
      while (!idle.empty()) {
        auto c = std::move(idle.back());
        idle.pop_back();
        if (now - c->last_used < opts.idle_expiry) return c;
        --open;
        expired.push_back(std::move(c));
      }
      if (open < opts.max_connections) {
        ++open;
        lock.unlock();
        return std::make_unique<detail::client_connection>(opts.spin_budget, read_areas_held);
      }
      if (pool_changed.wait_until(lock, deadline) == std::cv_status::timeout && idle.empty() &&
          open >= opts.max_connections)
        throw error(errc::call_timeout, "no pooled connection became free within call_timeout");
    }
  }
  void release(std::unique_ptr<detail::client_connection> c, bool keep) {
    c->return_input(!keep);
    c->return_output();
    c->last_used = clock_type::now();
    {
      std::lock_guard lock(pool_mutex);
      if (keep)
        idle.push_back(std::move(c));
      else
        --open;
    }
    pool_changed.notify_one();
    // A dropped connection is destroyed here, outside the lock.
  }

  tcp::resolver::results_type resolve() {
    {
      std::lock_guard lock(pool_mutex);
      if (endpoints) return *endpoints;
    }
    asio::io_context ctx{1};  // once per client: a synchronous resolve runs nothing on it
    tcp::resolver resolver{ctx};
    sys_error ec;
    auto r = resolver.resolve(url.host, url.port, ec);
    if (ec) throw error(errc::resolve_failed, "resolving " + url.host + ": " + ec.message());
    std::lock_guard lock(pool_mutex);
    endpoints = r;
    return r;
  }

  std::string_view default_target() const { return url.path; }

  void call(std::string_view method, std::string_view target, header_list headers,
            const body_writer* write_body, const body_reader& read_body,
            std::chrono::milliseconds timeout = {}, staging_lender* staging = nullptr);
};

namespace detail {

/// Start an asynchronous operation on a TLS connection's io_context and run that context on
/// this thread until it completes or the deadline passes (then the socket is closed).
template <class Start>
std::size_t client_call::run_io(io_deadline d, sys_error& ec, Start&& start, bool awaits_peer) {
  bool done = false;
  std::size_t transferred = 0;
  start([&](const sys_error& e, std::size_t n) {
    ec = e;
    transferred = n;
    done = true;
  });
  asio::io_context& ctx = c.tls->ctx;
  ctx.restart();
  const auto waiting_since = spin_clock::now();
  const bool learn = awaits_peer && spin_io(ctx, done);
  while (!done) {
    if (ctx.run_one_until(d.at) == 0 && !done) {
      if (clock_type::now() < d.at && !ctx.stopped()) continue;
      sys_error ignored;
      c.tls->socket.close(ignored);  // aborts the operation; its handler still has to run
      c.connected = false;
      ctx.restart();
      while (!done && ctx.run_one() > 0) {
      }
      throw error(d.code,
                  std::string(describe(d.code)) + " talking to " + cl.url.host + ":" + cl.url.port);
    }
  }
  if (learn) c.spin.waited(spin_clock::now() - waiting_since);
  return transferred;
}

}  // namespace detail
}  // namespace lather::http
