// HTTP/1.1 client. A call checks a pooled connection out and drives it from the calling
// thread. Plain TCP is plain sockets: a non-blocking connect waited for with poll (or the
// caller's wait_socket hook), then a blocking socket with SO_SNDTIMEO/SO_RCVTIMEO no later
// than the deadline, so a call is one sendmsg and one recv (asio's reactor added an epoll_wait
// per operation and a handler allocation), and a connection holds one descriptor. A TLS
// connection hands its connected socket to asio: a small io_context of its own, whose
// asynchronous operations the calling thread runs with run_one_until(), so every read and
// write has an exact deadline and no thread hand-off is needed.
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

#include "framer.hpp"
#include "lent_stack.hpp"
#include "spin.hpp"
#include "wire.hpp"

namespace lather::http {

using namespace std::string_view_literals;  // appends of literals without a strlen

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = asio::ip::tcp;
using clock_type = std::chrono::steady_clock;
using sys_error = boost::system::error_code;

namespace {

struct parsed_url {
  bool https = false;
  std::string host, port, path, host_header;
};

parsed_url parse_url(std::string_view url) {
  parsed_url u;
  std::string_view rest;
  if (url.substr(0, 7) == "http://") {
    rest = url.substr(7);
  } else if (url.substr(0, 8) == "https://") {
    u.https = true;
    rest = url.substr(8);
  } else {
    throw error(errc::invalid_url, "URL must start with http:// or https://: " + std::string(url));
  }
  std::size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  u.path = slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
  if (authority.find('@') != std::string_view::npos)
    throw error(errc::invalid_url,
                "credentials in URLs are not supported; use client_options::auth");
  std::string_view host = authority, port;
  if (!authority.empty() && authority.front() == '[') {  // [IPv6]:port
    std::size_t close = authority.find(']');
    if (close == std::string_view::npos) throw error(errc::invalid_url, "bad IPv6 literal");
    host = authority.substr(1, close - 1);
    if (close + 1 < authority.size() && authority[close + 1] == ':')
      port = authority.substr(close + 2);
  } else if (std::size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (host.empty()) throw error(errc::invalid_url, "no host in URL: " + std::string(url));
  u.host = std::string(host);
  u.port = port.empty() ? (u.https ? "443" : "80") : std::string(port);
  u.host_header = std::string(authority);
  return u;
}

/// Thrown inside a call when a reused connection failed before any response byte arrived.
struct stale_connection {
  error cause;
};

/// With a wait_socket hook one thread runs many calls, each on its own (fiber) stack, so a
/// call's deep frames (the request's serialization, the response's parse) would land on a
/// stack last touched many calls earlier: they run on a stack lent by the thread instead
/// (lent_stack.hpp), 1 MiB reserved, guard-paged.
detail::stack_pool& thread_call_stacks() {
  static constexpr std::size_t spare_kept = 16;
  thread_local detail::stack_pool pool;
  if (!pool.keep) {
    pool.stack_size = 1024 * 1024;
    pool.keep = &spare_kept;
  }
  return pool;
}

}  // namespace

namespace detail {

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

/// A TLS connection's asio side, made once its TCP connection is up: an io_context per
/// connection from the start would cost an epoll, an eventfd and a timerfd besides the socket,
/// four descriptors per plain connection, so 1,024 connections would need 4,096.
struct tls_link {
  explicit tls_link(asio::ssl::context& settings) : stream(socket, settings) {}
  asio::io_context ctx{1};
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
  template <class Start>
  std::size_t run_io(io_deadline d, sys_error& ec, Start&& start);
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
  impl(std::string u, client_options o) : url(parse_url(u)), opts(std::move(o)) {
    if (url.https) {
      tls.emplace(asio::ssl::context::tls_client);
      tls->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                       asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                       asio::ssl::context::no_tlsv1_1);
      tls_options t = opts.tls.value_or(tls_options{});
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

  parsed_url url;
  client_options opts;
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

client_call::io_deadline client_call::next_deadline() const {
  auto io = clock_type::now() + cl.opts.io_timeout;
  return io < call_deadline ? io_deadline{io, errc::io_timeout}
                            : io_deadline{call_deadline, errc::call_timeout};
}

/// Start an asynchronous operation on a TLS connection's io_context and run that context on
/// this thread until it completes or the deadline passes (then the socket is closed).
template <class Start>
std::size_t client_call::run_io(io_deadline d, sys_error& ec, Start&& start) {
  bool done = false;
  std::size_t transferred = 0;
  start([&](const sys_error& e, std::size_t n) {
    ec = e;
    transferred = n;
    done = true;
  });
  asio::io_context& ctx = c.tls->ctx;
  ctx.restart();
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
  return transferred;
}

void client_call::time_out(io_deadline d) {
  c.close_socket();
  c.connected = false;
  throw error(d.code,
              std::string(describe(d.code)) + " talking to " + cl.url.host + ":" + cl.url.port);
}

/// Make the socket's SO_SNDTIMEO/SO_RCVTIMEO end no later than the deadline. A timeout already
/// set that ends sooner is kept (an early wake-up just re-checks the clock), so a steady stream
/// of calls does not pay a setsockopt each; a new one is set a little short of the deadline for
/// the same reason. The kernel rounds it up to a scheduler tick.
void client_call::bound_wait(int option, clock_type::duration& applied, io_deadline d) {
  const auto now = clock_type::now();
  if (now >= d.at) time_out(d);
  const auto remaining = d.at - now;
  if (applied > clock_type::duration::zero() && applied <= remaining) return;
  auto wait = remaining > std::chrono::milliseconds(16) ? remaining - remaining / 16 : remaining;
  auto us = std::max<std::int64_t>(
      1, std::chrono::duration_cast<std::chrono::microseconds>(wait).count());
  timeval tv{static_cast<time_t>(us / 1'000'000), static_cast<suseconds_t>(us % 1'000'000)};
  if (::setsockopt(c.fd, SOL_SOCKET, option, &tv, sizeof tv) != 0)
    fail_io(sys_error(errno, boost::system::system_category()), "setting a timeout for");
  applied = std::chrono::microseconds(us);
}

/// The socket would block: with a wait_socket hook, wait there (non-blocking socket); without
/// one the blocking call timed out early (SO_*TIMEO), and the caller's bound_wait re-checks.
void client_call::wait_ready(bool writable, io_deadline d) {
  if (cl.opts.wait_socket && !cl.opts.wait_socket(c.fd, writable, d.at)) time_out(d);
}

void client_call::send_blocking(iovec* iov, std::size_t count) {
  const io_deadline d = next_deadline();
  while (count > 0) {
    if (!cl.opts.wait_socket) bound_wait(SO_SNDTIMEO, c.send_timeout, d);
    msghdr m{};
    m.msg_iov = iov;
    m.msg_iovlen = count;
    ssize_t n = ::sendmsg(c.fd, &m, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        send_waited = true;
        wait_ready(true, d);
        continue;
      }
      const sys_error ec(errno, boost::system::system_category());
      if (ec == asio::error::broken_pipe || ec == asio::error::connection_reset) {
        send_error = ec;
        return;
      }
      fail_io(ec, "sending the request to");
    }
    auto sent = static_cast<std::size_t>(n);
    while (count > 0 && sent >= iov->iov_len) {
      sent -= iov->iov_len;
      ++iov;
      --count;
    }
    if (count > 0) {
      iov->iov_base = static_cast<char*>(iov->iov_base) + sent;
      iov->iov_len -= sent;
    }
  }
}

/// Receives at c.read_end, into the connection's read area (taken from the pool if needed).
std::size_t client_call::receive_blocking(io_deadline d, sys_error& ec) {
  // With the hook, a request sent whole without a wait cannot have been answered before this
  // thread went back to its event loop: the peer answers only what it read, and every byte of
  // the answer raises readiness after the hook is asked. The first receive then waits first
  // instead of paying a recv that finds nothing (one empty syscall per call). Not with bytes
  // left unparsed from before the request: the peer was sending already.
  const bool wait_first = cl.opts.wait_socket && !receive_tried && !send_waited && !send_error &&
                          c.read_begin == c.read_end;
  receive_tried = true;
  if (wait_first) wait_ready(false, d);
  for (;;) {
    if (!cl.opts.wait_socket) bound_wait(SO_RCVTIMEO, c.receive_timeout, d);
    ssize_t n = 0;
    if (cl.opts.wait_socket) {
      c.take_input();
      n = ::recv(c.fd, c.read_data() + c.read_end, read_area::capacity - c.read_end, 0);
    } else if (c.input) {
      const std::size_t room = read_area::capacity - c.read_end;
      n = recv_spinning(c.read_data() + c.read_end, room);
      c.last_receive_filled = n == static_cast<ssize_t>(room);
    } else {
      n = receive_sleeping();
    }
    if (n > 0) return static_cast<std::size_t>(n);
    if (n == 0) {
      ec = asio::error::eof;
      return 0;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      c.return_input();  // nothing unparsed: wait without it (other fibers of this thread may)
      wait_ready(false, d);
      continue;
    }
    ec = sys_error(errno, boost::system::system_category());
    return 0;
  }
}

/// A thread that may sleep in recv with nothing unparsed holds no pooled read area meanwhile:
/// the first bytes land in a small buffer on its own stack (a PacketSize-1 response fits) and
/// are moved into an area taken once they came. With one blocking thread per client (CXF's
/// model), 128 threads then share a few warm areas instead of holding 128 cold ones.
ssize_t client_call::receive_sleeping() {
  char first[4096];
  const ssize_t n = recv_spinning(first, sizeof first);
  c.last_receive_filled = n == static_cast<ssize_t>(sizeof first);
  if (n > 0) {
    c.take_input();
    std::memcpy(c.read_data(), first, static_cast<std::size_t>(n));  // read_end is 0
  }
  return n;
}

/// A blocking recv, after polling (MSG_DONTWAIT) for up to the connection's adaptive spin
/// budget when it is not 0 (see spin.hpp): with one call in flight the answer then finds the
/// thread awake instead of paying a wake-up. Every wait teaches the budget.
ssize_t client_call::recv_spinning(char* dest, std::size_t capacity) {
  const int fd = c.fd;
  spin_budget& budget = c.spin;
  const auto waiting_since = spin_clock::now();
  bool learn = true;
  if (budget.current() > spin_clock::duration::zero() && machine_has_idle_cpu(waiting_since)) {
    ssize_t n = ::recv(fd, dest, capacity, MSG_DONTWAIT);
    if (n >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) return n;  // no wait at all
    auto outcome = spin_for(budget.current(), [&] {
      n = ::recv(fd, dest, capacity, MSG_DONTWAIT);
      return n >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
    });
    if (outcome == spin_outcome::found) {
      cl.spins_found.fetch_add(1, std::memory_order_relaxed);
      return n;
    }
    if (outcome != spin_outcome::machine_busy)
      cl.spins_gave_up.fetch_add(1, std::memory_order_relaxed);
    if (outcome == spin_outcome::contended) {
      budget.contended();
      learn = false;  // this wait says more about the CPU than about the server
    }
  }
  ssize_t n = ::recv(fd, dest, capacity, 0);
  if (learn) budget.waited(spin_clock::now() - waiting_since);
  return n;
}

void client_call::fail_io(const sys_error& ec, std::string_view what) {
  c.connected = false;
  errc code = errc::io_failed;
  if (ec == asio::error::eof || ec == asio::error::connection_reset ||
      ec == asio::error::broken_pipe || ec == asio::error::connection_aborted ||
      ec == asio::ssl::error::stream_truncated)
    code = errc::connection_closed;
  error e(code, std::string(what) + " " + cl.url.host + ":" + cl.url.port + ": " + ec.message());
  if (reused && !response_started && code == errc::connection_closed) throw stale_connection{e};
  throw e;
}

void client_call::connect() {
  const auto endpoints = cl.resolve();
  auto connect_deadline = std::min(clock_type::now() + cl.opts.connect_timeout, call_deadline);
  io_deadline d{connect_deadline,
                connect_deadline == call_deadline ? errc::call_timeout : errc::connect_timeout};
  int err = EADDRNOTAVAIL;  // no endpoint
  tcp::endpoint peer;
  // Endpoint by endpoint, as asio's range connect does; the receive buffer is set between
  // socket() and connect() (the window scale is chosen then).
  for (const auto& entry : endpoints) {
    peer = entry.endpoint();
    c.close_socket();
    c.fd = ::socket(peer.protocol().family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c.fd < 0) {
      err = errno;
      continue;
    }
    wire::raise_receive_buffer(c.fd, cl.opts.receive_buffer);
    err = ::connect(c.fd, peer.data(), static_cast<socklen_t>(peer.size())) == 0 ? 0 : errno;
    if (err == EINPROGRESS) err = finish_connect(d);
    if (err == 0) break;
  }
  if (err != 0) {
    c.close_socket();
    c.connected = false;
    const sys_error ec(err, boost::system::system_category());
    errc code = ec == asio::error::connection_refused ? errc::connect_refused : errc::io_failed;
    throw error(code, "connecting to " + cl.url.host + ":" + cl.url.port + ": " + ec.message());
  }
  const int on = 1;
  ::setsockopt(c.fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
  if (!cl.tls) {
    // Plain TCP: blocking calls from here on, unless a wait_socket hook does the waiting.
    if (!cl.opts.wait_socket && ::fcntl(c.fd, F_SETFL, ::fcntl(c.fd, F_GETFL) & ~O_NONBLOCK) != 0)
      fail_io(sys_error(errno, boost::system::system_category()), "configuring the connection to");
    c.send_timeout = c.receive_timeout = clock_type::duration::zero();
  } else {
    sys_error ec;
    c.tls = std::make_unique<tls_link>(*cl.tls);
    c.tls->socket.assign(peer.protocol(), c.fd, ec);
    if (ec) fail_io(ec, "configuring the connection to");  // c.fd is still ours to close
    c.fd = -1;                                             // the socket's now
    sys_error not_an_address;
    asio::ip::make_address(cl.url.host, not_an_address);
    if (not_an_address)  // SNI is for host names only
      SSL_set_tlsext_host_name(c.tls->stream.native_handle(), cl.url.host.c_str());
    if (cl.verify_peer)
      c.tls->stream.set_verify_callback(asio::ssl::host_name_verification(cl.url.host));
    run_io(d, ec, [&](auto&& done) {
      c.tls->stream.async_handshake(asio::ssl::stream_base::client,
                                    [done](const sys_error& e) { done(e, 0); });
    });
    if (ec) {
      c.close_socket();
      throw error(errc::tls_failed,
                  "TLS handshake with " + cl.url.host + ":" + cl.url.port + ": " + ec.message());
    }
  }
  c.connected = true;
  cl.connections_opened.fetch_add(1, std::memory_order_relaxed);
}

/// A non-blocking connect is under way on c.fd: waits until it is writable, through the
/// wait_socket hook when there is one, else with poll, until the deadline (then times out);
/// returns the connect's errno, 0 once connected (a wake-up before either waits again).
int client_call::finish_connect(io_deadline d) {
  for (;;) {
    if (cl.opts.wait_socket) {
      wait_ready(true, d);
    } else {
      const auto now = clock_type::now();
      if (now >= d.at) time_out(d);
      const auto ms = std::chrono::ceil<std::chrono::milliseconds>(d.at - now).count();
      pollfd p{c.fd, POLLOUT, 0};
      const int n = ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(ms, 60'000)));
      if (n < 0 && errno != EINTR) return errno;
      if (n <= 0) continue;
    }
    int err = 0;
    socklen_t length = sizeof err;
    if (::getsockopt(c.fd, SOL_SOCKET, SO_ERROR, &err, &length) != 0) return errno;
    if (err != 0) return err;
    sockaddr_storage peer{};
    socklen_t peer_length = sizeof peer;
    if (::getpeername(c.fd, reinterpret_cast<sockaddr*>(&peer), &peer_length) == 0) return 0;
    if (errno != ENOTCONN) return errno;
  }
}

template <class Buffers>
void client_call::write_all(const Buffers& b) {
  if (send_error) return;  // the peer is gone: the rest of the request goes nowhere
  if (!c.tls) {
    std::array<iovec, 8> iov;
    std::size_t count = 0;
    for (auto it = asio::buffer_sequence_begin(b); it != asio::buffer_sequence_end(b); ++it) {
      asio::const_buffer part(*it);
      if (part.size() > 0) iov[count++] = {const_cast<void*>(part.data()), part.size()};
    }
    send_blocking(iov.data(), count);
    return;
  }
  sys_error ec;
  run_io(next_deadline(), ec, [&](auto&& done) { asio::async_write(c.tls->stream, b, done); });
  if (ec == asio::error::broken_pipe || ec == asio::error::connection_reset)
    send_error = ec;
  else if (ec)
    fail_io(ec, "sending the request to");
}

void client_call::on_body_flush(std::string_view bytes) {
  if (bytes.empty()) return;
  if (!framer.started()) body_out->set_threshold(wire::streaming_flush(cl.opts.request_chunking));
  framer.write_piece(bytes, true);
}

std::string_view client_call::complete_head(std::string_view framing) {
  std::string& h = c.out->head;
  h.append(framing);
  h.append("\r\n"sv);
  return h;
}

void client_call::write(std::span<const std::string_view> pieces) {
  write_all(piece_buffers{pieces});
}

void client_call::send_request(std::string_view method, std::string_view target,
                               header_list headers, const body_writer* write_body) {
  if (!c.out) c.out = spares<request_staging>().take_unique();
  std::string& h = c.out->head;
  h.clear();
  h.append(method);
  h.push_back(' ');
  if (target.empty())
    h.append(cl.url.path);
  else if (target.front() == '?')
    h.append(cl.url.path).append(target);
  else
    h.append(target);
  h.append(" HTTP/1.1\r\nHost: "sv);
  h.append(cl.url.host_header);
  h.append("\r\n"sv);
  h.append(cl.authorization);
  for (const auto& [name, value] : headers) {
    if (!wire::is_token(name) || !wire::is_safe_value(value))
      throw std::invalid_argument("invalid HTTP header name or value");
    h.append(name).append(": "sv).append(value).append("\r\n"sv);
  }
  if (!write_body) {
    h.append("\r\n"sv);
    write_all(asio::buffer(h));
    c.return_output();
    return;
  }
  const chunking& configured = cl.opts.request_chunking;
  chunking ch{configured.threshold,
              configured.never || cl.peer_http10.load(std::memory_order_relaxed)};
  if (ch.threshold > 0 && !cl.peer_http11.load(std::memory_order_relaxed))
    ch.threshold = std::max(ch.threshold, cl.opts.unknown_server_buffer);
  byte_buffer& body = caller_staging ? caller_staging->lend() : c.out->body;
  body_out = &body;
  // The caller's staging goes back once the request is sent, and without a sink into this
  // call, even on a throw.
  struct give_back {
    staging_lender* lender;
    byte_buffer& body;
    ~give_back() {
      if (!lender) return;
      body.clear_sink();
      lender->give_back();
    }
  } give_back_staging{caller_staging, body};
  body.clear();
  if (ch.never)
    body.clear_sink();
  else
    body.set_sink([this](std::string_view bytes) { on_body_flush(bytes); }, wire::first_flush(ch));
  (*write_body)(body);
  std::string_view rest = body.view();
  framer.finish(rest, ch.never || (ch.threshold > 0 && rest.size() <= ch.threshold));
  body.clear_sink();
  // Keep a pooled staging from pinning a huge buffered request.
  if (body.view().size() > (1u << 20)) body = byte_buffer{};
  body.clear();
  body_out = nullptr;
  c.return_output();
}

/// After send_error: the response the peer sent before it closed, or the send error itself. The
/// connection is not reused either way (the request was not sent whole).
void client_call::read_early_response() {
  try {
    read_head();
  } catch (const error&) {
    fail_io(send_error, "sending the request to");
  } catch (const stale_connection&) {
    fail_io(send_error, "sending the request to");
  }
  c.connected = false;
}

bool client_call::fill(io_deadline d) {
  if (c.read_begin == c.read_end) {
    c.read_begin = c.read_end = 0;
    // A blocking thread waits without the area unless its last receive found more than fitted.
    if (!c.tls && !cl.opts.wait_socket && !c.last_receive_filled) c.return_input();
  }
  if (c.read_end == read_area::capacity && c.read_begin > 0) {
    std::memmove(c.read_data(), c.read_data() + c.read_begin, c.read_end - c.read_begin);
    c.read_end -= c.read_begin;
    c.read_begin = 0;
  }
  sys_error ec;
  std::size_t n = 0;
  if (c.tls) {
    c.take_input();
    n = run_io(d, ec, [&](auto&& done) {
      c.tls->stream.async_read_some(
          asio::buffer(c.read_data() + c.read_end, read_area::capacity - c.read_end), done);
    });
  } else {
    n = receive_blocking(d, ec);
  }
  c.read_end += n;
  if (n > 0) response_started = true;
  if (ec == asio::error::eof || ec == asio::ssl::error::stream_truncated) return false;
  // A server that answered early and closed while our request was still arriving leaves our
  // bytes unread, so its kernel ends the connection with a reset instead of a FIN (RFC 9112
  // §9.6): after a failed send that reset is how its answer ends, not a cut-off. Whatever it
  // sent before is read first (the kernel hands over queued data before the error).
  if (ec == asio::error::connection_reset && send_error) return false;
  if (ec) fail_io(ec, "reading the response from");
  return n > 0;
}

/// Waits until response bytes are unparsed or the peer ended the connection (read_head then
/// reads that end again and says what it means).
void client_call::await_response() {
  if (c.read_end == c.read_begin) fill(next_deadline());
}

void client_call::read_head() {
  for (;;) {  // loops past 1xx interim responses
    parser.emplace(c.response_head, body_in);
    parser->header_limit(64 * 1024);
    parser->body_limit(std::numeric_limits<std::uint64_t>::max());  // the reader decides
    for (;;) {
      if (c.read_end > c.read_begin) {
        sys_error ec;
        std::size_t n =
            parser->put(asio::buffer(c.read_data() + c.read_begin, c.read_end - c.read_begin), ec);
        c.read_begin += n;
        if (!ec && parser->is_header_done()) break;
        if (ec && ec != bhttp::error::need_more) {
          c.connected = false;
          throw error(ec == bhttp::error::header_limit ? errc::header_limit : errc::bad_message,
                      "response from " + cl.url.host + ":" + cl.url.port + ": " + ec.message());
        }
      }
      if (!fill(next_deadline())) {
        c.connected = false;
        error e(errc::connection_closed,
                "connection closed by " + cl.url.host + ":" + cl.url.port + " before a response");
        if (reused && !response_started) throw stale_connection{e};
        throw e;
      }
    }
    if (parser->status() / 100 != 1) break;
  }
  // An HTTP/1.0 server cannot read a chunked body (RFC 9112 §7.1 is HTTP/1.1 only): once one
  // has answered, this client buffers requests and sends Content-Length (CXF's
  // AllowChunking=false, decided for us). An HTTP/1.1 answer lifts unknown_server_buffer.
  (parser->version() < 11 ? cl.peer_http10 : cl.peer_http11).store(true, std::memory_order_relaxed);
  parser->eager(true);
}

std::size_t client_call::read_body(char* dest, std::size_t capacity) {
  if (capacity == 0 || parser->is_done()) return 0;
  body_in.open(dest, capacity);
  for (;;) {
    if (c.read_end > c.read_begin) {
      sys_error ec;
      std::size_t n =
          parser->put(asio::buffer(c.read_data() + c.read_begin, c.read_end - c.read_begin), ec);
      c.read_begin += n;
      if (ec && ec != bhttp::error::need_buffer && ec != bhttp::error::need_more) {
        c.connected = false;
        throw error(errc::bad_message, "response body from " + cl.url.host + ": " + ec.message());
      }
      if (body_in.length > 0 || parser->is_done()) return body_in.length;
    }
    if (!fill(next_deadline())) {
      c.connected = false;
      if (parser->need_eof()) {  // body delimited by the connection closing
        sys_error ec;
        parser->put_eof(ec);
        return 0;
      }
      throw error(errc::connection_closed,
                  "connection closed by " + cl.url.host + " in the middle of the response body");
    }
  }
}

bool client_call::drain(std::size_t budget) {
  char scratch[4096];
  while (!parser->is_done()) {
    std::size_t n = read_body(scratch, std::min(budget, sizeof scratch));
    if (n == 0) return parser->is_done();
    budget -= n;
    if (budget == 0) return parser->is_done();
  }
  return true;
}

}  // namespace detail

// ---- response_head ----

std::string_view response_head::header(std::string_view name) const {
  return call_ ? call_->header(name) : std::string_view{};
}
std::string response_head::peer() const {
  return call_ ? call_->cl.url.host + ":" + call_->cl.url.port : std::string{};
}
std::optional<std::uint64_t> response_head::content_length() const {
  if (!call_ || call_->parser->chunked()) return std::nullopt;
  auto n = call_->parser->content_length();
  return n ? std::optional<std::uint64_t>(*n) : std::nullopt;
}

error status_error(const response_head& head, const byte_source& body, std::size_t excerpt) {
  std::string text(excerpt, '\0');
  std::size_t got = 0;
  while (got < excerpt) {
    std::size_t n = body(text.data() + got, excerpt - got);
    if (n == 0) break;
    got += n;
  }
  text.resize(got);
  for (char& ch : text)
    if (static_cast<unsigned char>(ch) < 0x20) ch = '.';
  std::string what = "HTTP " + std::to_string(head.status);
  if (std::string peer = head.peer(); !peer.empty()) what += " from " + peer;
  what +=
      " (" + std::string(head.content_type.empty() ? "no content type" : head.content_type) + ")";
  if (!text.empty()) what += ": " + text;
  return std::move(error(errc::http_status, what).with_status(head.status));
}

// ---- client ----

void client::impl::call(std::string_view method, std::string_view target, header_list headers,
                        const body_writer* write_body, const body_reader& read_body,
                        std::chrono::milliseconds timeout, staging_lender* staging) {
  auto call_deadline = clock_type::now() + (timeout.count() > 0 ? timeout : opts.call_timeout);
  for (int attempt = 0;; ++attempt) {
    auto conn = acquire(call_deadline);
    bool keep = false;
    std::exception_ptr rejected;  // the reader threw (e.g. status_error): keep the connection
    try {
      detail::client_call call{*this, *conn, call_deadline};
      call.caller_staging = staging;
      call.reused = conn->connected;
      if (!conn->connected) {
        conn->tls.reset();
        conn->read_begin = conn->read_end = 0;
        conn->close_socket();
        call.connect();
      }
      // Only the wait for the response's first bytes stays on the caller's stack (see
      // thread_call_stacks); the request's writing and everything after that wait (the head's
      // parse, the body's reader, the drain) may run on a lent one. A waiting fiber then holds
      // ~1.3 KiB of frames here. With the head parsed and the drain inlined here, this frame was
      // 4.6 KiB (the drain's 4 KiB scratch) and the parse went 4 KiB deeper (Beast's
      // parse_fields keeps room for folded lines): cold lines on every fiber's own stack.
      auto deep = [&](auto&& fn) {
        if (opts.wait_socket)
          detail::run_on_lent_stack(thread_call_stacks(), fn);
        else
          fn();
      };
      deep([&] { call.send_request(method, target, headers, write_body); });
      if (call.send_error)
        call.read_early_response();
      else
        call.await_response();
      deep([&] {
        if (!call.send_error) call.read_head();
        response_head head = call.head();
        byte_source source = [&call](char* dest, std::size_t n) { return call.read_body(dest, n); };
        try {
          read_body(head, source);
        } catch (...) {
          rejected = std::current_exception();
        }
        try {
          keep = conn->connected && call.drain(1u << 20) && call.parser->keep_alive();
        } catch (const error&) {
          if (!rejected) throw;
        }
      });
      ++conn->uses;
      requests.fetch_add(1, std::memory_order_relaxed);
    } catch (const stale_connection& s) {
      conn->connected = false;
      release(std::move(conn), false);
      if (attempt == 0) {
        retries.fetch_add(1, std::memory_order_relaxed);
        continue;
      }
      throw s.cause;
    } catch (...) {
      conn->connected = false;
      release(std::move(conn), false);
      throw;
    }
    if (!keep) conn->connected = false;
    release(std::move(conn), keep);
    if (rejected) std::rethrow_exception(rejected);
    return;
  }
}

client::client(std::string url, client_options opts)
    : impl_(std::make_unique<impl>(std::move(url), std::move(opts))) {}

client::~client() {
  if (impl_->async_pool) impl_->async_pool->join();
}

void client::post(std::string_view target, header_list headers, const body_writer& write_body,
                  const body_reader& read_body, std::chrono::milliseconds timeout) {
  impl_->call("POST", target, headers, &write_body, read_body, timeout);
}

void client::post(std::string_view target, header_list headers, staging_lender& staging,
                  const body_writer& write_body, const body_reader& read_body,
                  std::chrono::milliseconds timeout) {
  impl_->call("POST", target, headers, &write_body, read_body, timeout, &staging);
}

void client::async_post(std::string target,
                        std::vector<std::pair<std::string, std::string>> headers,
                        body_writer write_body, body_reader read_body,
                        std::function<void(std::exception_ptr)> done) {
  std::call_once(impl_->async_once, [this] {
    impl_->async_pool =
        std::make_unique<asio::thread_pool>(std::max(1u, impl_->opts.async_threads));
  });
  asio::post(*impl_->async_pool, [this, target = std::move(target), headers = std::move(headers),
                                  write_body = std::move(write_body),
                                  read_body = std::move(read_body), done = std::move(done)] {
    std::vector<std::pair<std::string_view, std::string_view>> views;
    views.reserve(headers.size());
    for (const auto& [n, v] : headers) views.emplace_back(n, v);
    std::exception_ptr failure;
    try {
      impl_->call("POST", target, views, &write_body, read_body);
    } catch (...) {
      failure = std::current_exception();
    }
    if (done) done(failure);
  });
}

client::get_result client::get(std::string_view target) {
  get_result result;
  impl_->call("GET", target, {}, nullptr, [&](const response_head& head, const byte_source& body) {
    result.status = head.status;
    result.content_type = std::string(head.content_type);
    char buf[16384];
    while (std::size_t n = body(buf, sizeof buf)) result.body.append(buf, n);
  });
  return result;
}

client::stats client::get_stats() const {
  stats st{};
  st.connections_opened = impl_->connections_opened.load();
  st.requests = impl_->requests.load();
  st.retries = impl_->retries.load();
  st.spins_found_work = impl_->spins_found.load(std::memory_order_relaxed);
  st.spins_gave_up = impl_->spins_gave_up.load(std::memory_order_relaxed);
  st.read_areas_held = impl_->read_areas_held.load(std::memory_order_relaxed);
  std::lock_guard lock(impl_->pool_mutex);
  st.connections_idle = impl_->idle.size();
  return st;
}

}  // namespace lather::http
