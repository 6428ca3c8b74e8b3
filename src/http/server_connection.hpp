// Internal to lather_http: the server's state shared by its translation units. server.cpp
// runs the workers, accepts and stops; server_connection.cpp serves the requests of one
// connection (parsing, the handler call, the response's framing) and the request/response
// facades over it.
#pragma once

#define BOOST_COROUTINES_NO_DEPRECATION_WARNING
#define BOOST_ALLOW_DEPRECATED_HEADERS  // Boost.Coroutine 1.74 includes deprecated headers
#include "lather/http/server.hpp"

#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/spawn.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/buffers_suffix.hpp>
#include <boost/beast/http/error.hpp>
#include <charconv>
#include <condition_variable>
#include <cstring>
#include <limits>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include "asio_names.hpp"
#include "framer.hpp"
#include "lent_stack.hpp"
#include "spin.hpp"
#include "tls.hpp"
#include "wire.hpp"

namespace lather::http {

namespace detail {

/// A request whose bytes read plus written exceed this is large: afterwards its buffer set is
/// freed rather than pooled (a never-chunked response grows the set's body to the whole
/// message) and the memory the call freed goes back to the system.
inline constexpr std::uint64_t large_message_bytes = 4u << 20;

/// Connections open at once on one worker (a burst) after which the memory they held (a
/// coroutine stack each) goes back to the system as they close (at each halving).
inline constexpr std::size_t released_connections = 512;

/// Returns the memory freed since the last time to the system: glibc keeps freed chunks in its
/// arenas (per thread), where a large call's thousands of small objects leave the heap
/// fragmented, so the process stayed at several times its baseline for good after one.
void release_freed_memory();

/// Fixed malloc thresholds (server_options::tune_allocator), once per process.
void tune_allocator();

/// What a connection needs only while it serves a request: the request head's text and the
/// response's head and body. Idle connections hold none; a worker lends them out of a LIFO
/// pool, so with many connections the few sets in use stay in the cache instead of one set per
/// connection going cold between its calls.
struct request_buffers {
  server_connection* owner = nullptr;  // the connection it is lent to
  head_fields request_head;            // the request's method, target and fields
  std::string response_fields;         // "Name: value\r\n"...
  std::string head;                    // the response head being written
  byte_buffer body;
};

}  // namespace detail

namespace detail {

/// One thread, one io_context, and the connections it serves (touched on that thread only).
struct worker {
  // Declared before ctx: coroutines unwound when ctx is destroyed never return sets or stacks
  // here.
  std::vector<std::unique_ptr<detail::request_buffers>> spare_buffers;  // LIFO
  std::vector<std::unique_ptr<char[]>> spare_reads;  // read areas (LIFO), see lazy_read_buffer
  // The connection whose read last resolved to spare_reads.back(): the bytes asio read there
  // are its own as long as it still is and that area is still on top.
  detail::server_connection* landing_owner = nullptr;
  detail::stack_pool stacks;         // a request's head parse and handler run on one of these
  std::size_t open_connections = 0;  // the pools are kept no larger than this
  // The most open at once since memory was last given back, and how many closed since: when
  // half of them have closed (and enough to matter), their freed state goes back to the system.
  std::size_t peak_connections = 0, closed_since_release = 0;
  bool burst = false;  // released_connections were open at once, not yet released down to few
  asio::io_context ctx{1};
  // Connections the listener accepted for this worker, not yet started (server::impl::serve):
  // handed over in a vector, not one allocated handler each, so that the listener's thread
  // allocates nothing per connection between the reactor's records of the sockets.
  std::mutex handoff_mutex;
  std::vector<tcp::socket> handed, taking;           // taking: the worker's, swapped with handed
  detail::server_connection* connections = nullptr;  // intrusive list head
  std::thread thread;
  // Single-writer counters (the worker's thread), read by get_stats from anywhere.
  std::atomic<std::uint64_t> requests{0}, bytes_in{0}, bytes_out{0};
  std::atomic<std::uint64_t> buffer_sets{0};  // request_buffers in the pool or lent out
  std::atomic<std::uint64_t> read_areas{0};   // read areas in the pool or held
  std::atomic<std::uint64_t> spins_found{0}, spins_gave_up{0};
  static void add(std::atomic<std::uint64_t>& c, std::uint64_t n) {
    c.store(c.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  }
  /// Frees spares beyond what open connections could use (a pool is no larger than that).
  template <class Spare>
  void trim(std::vector<Spare>& spare, std::atomic<std::uint64_t>& made) {
    for (; spare.size() > open_connections; spare.pop_back())
      made.store(made.load(std::memory_order_relaxed) - 1, std::memory_order_relaxed);
  }
  void run(std::chrono::microseconds spin);
};

struct route_entry {
  std::string prefix;
  handler fn;
};

inline constinit thread_local server_connection* current_connection = nullptr;

// Coroutines run on their worker's io_context executor directly. asio::spawn(executor) would
// wrap it in a strand, a lock per completion that buys nothing with one thread per context.
using yield_type =
    asio::basic_yield_context<asio::executor_binder<void (*)(), asio::io_context::executor_type>>;

}  // namespace detail

struct server::impl {
  explicit impl(server_options o) : opts(std::move(o)) {}
  server_options opts;
  std::vector<detail::route_entry> routes;  // longest prefix first
  std::vector<std::unique_ptr<detail::worker>> workers;
  // The listener's io_context and thread: they accept and hand connections to the workers.
  std::optional<asio::io_context> listener;
  std::thread listener_thread;
  std::optional<tcp::acceptor> acceptor;
  std::optional<detail::ticket_keys> ticket_keys;  // outlives `tls`, whose callback uses it
  std::optional<asio::ssl::context> tls;
  std::string expected_credentials;  // base64("user:password")
  std::uint16_t bound_port = 0;
  std::size_t next_worker = 0;
  // draining: stop() has begun (readiness lost). refusing: the drain takes the listener's
  // queue (after drain_delay); stopping: the listener is closed, responses say
  // Connection: close. notify_service_manager: run() started it, so systemd hears of the drain.
  std::atomic<bool> started{false}, draining{false}, refusing{false}, stopping{false},
      stopped{false};
  std::atomic<bool> notify_service_manager{false};
  std::atomic<bool> accept_lost{false};  // the pending accept failed outside its handler
  std::atomic<std::uint64_t> connections_total{0}, open_connections{0}, rejected{0};
  std::atomic<std::uint64_t> tls_handshakes{0}, tls_resumed{0};
  bool listener_closed = false;  // stop(): its accept queue taken (under state_mutex)
  std::mutex state_mutex;
  std::condition_variable state_changed;  // open_connections fell / stop completed
  std::once_flag stop_once;

  void accept_next();
  void on_accept(const sys_error& ec, tcp::socket socket, detail::worker& w);
  void serve(tcp::socket socket, detail::worker& w);
  void start_connection(tcp::socket socket, detail::worker& w);
  void start_handed(detail::worker& w);
  void accept_queued();
  sys_error take_queue(std::size_t most);
  /// Connections accepted per wake-up of the listener at most (the default listen backlog),
  /// so that a flood of connects cannot keep the listener from a drain's work.
  static constexpr std::size_t accept_batch = 4096;
  void reject(tcp::socket socket);
  const handler* find_route(std::string_view path) const {
    for (const auto& r : routes)
      if (path.substr(0, r.prefix.size()) == r.prefix) return &r.fn;
    return nullptr;
  }
  void connection_closed() {
    {
      std::lock_guard lock(state_mutex);
      open_connections.fetch_sub(1, std::memory_order_relaxed);
    }
    state_changed.notify_all();
  }
};

namespace detail {

/// A read's destination resolved when asio performs the read (its first attempt as the read
/// starts, or when epoll reports the socket readable), not when the read starts: a connection
/// waiting for its next request then holds no read area, and the request lands in the area on
/// top of its worker's pool, the one the previous request was read into (warm), instead of in a
/// buffer of its own last touched a thousand calls earlier (with many connections). A read into
/// the pool's area takes it once its bytes are in (server_connection::claim_landing); asio 1.74
/// offers no readiness wait without an epoll_ctl per wait, so the read itself is the wait.
struct lazy_read_buffer {
  server_connection* c;
  using value_type = asio::mutable_buffer;
  using const_iterator = const asio::mutable_buffer*;
  const_iterator begin() const;
  const_iterator end() const;
};

using request_parser = message_parser<true>;

/// One server::await in progress, shared by the suspended handler, its timeout and the
/// `resume` callbacks given out; whichever ends it first wins, later ends do nothing. While it
/// has not ended it holds the suspended coroutine (so a handler is never reclaimed while a
/// `resume` may still come); ending it hands the coroutine to its thread to resume.
struct await_state {
  enum class outcome { resumed = 1, dropped, timed_out, stopping, client_gone };
  using completion = asio::async_completion<yield_type, void(outcome)>::completion_handler_type;

  explicit await_state(asio::io_context::executor_type e) : executor(e) {}
  /// Any thread. Posts under the lock: the server ends every await before its io_context
  /// goes (server::stop), so a post that got here always has a live io_context.
  void end(outcome why) {
    std::lock_guard lock(mutex);
    if (!handler) return;
    asio::post(executor, [h = std::move(*handler), why]() mutable { h(why); });
    handler.reset();
  }
  bool ended() {
    std::lock_guard lock(mutex);
    return !handler;
  }
  /// Ends it without resuming: the handler did not suspend after all.
  void abandon() {
    std::lock_guard lock(mutex);
    handler.reset();
  }

  std::mutex mutex;
  std::optional<completion> handler;
  asio::io_context::executor_type executor;
};

/// Owned by the copies of one `resume`: the last copy destroyed uncalled ends the await.
struct resume_token {
  explicit resume_token(std::shared_ptr<await_state> s) : state(std::move(s)) {}
  resume_token(const resume_token&) = delete;
  resume_token& operator=(const resume_token&) = delete;
  ~resume_token() { state->end(await_state::outcome::dropped); }
  std::shared_ptr<await_state> state;
};

/// A connection; also the state of the request/response exchange in progress on it.
struct server_connection final : std::enable_shared_from_this<server_connection>, frame_transport {
  server_connection(server::impl& s, worker& w, tcp::socket sock)
      : srv(s),
        owner(w),
        socket(std::move(sock)),
        timer(w.ctx),
        refuse_requests(s.refusing.load()) {
    // Room for a whole head: the parser reports header_limit before the buffer can fill up.
    // 64 KiB (one loopback TCP segment): a large body arrives in a quarter of the reads, wake-ups
    // and coroutine switches of 16 KiB; a small request touches only its own pages.
    read_capacity = std::max<std::size_t>(64 * 1024, srv.opts.header_limit + 1024);
    note_peer();
  }

  /// peer_ip and peer_port from the accepted socket (one getpeername per connection), so that
  /// they are known to every request on it, also once the client has gone. An IPv4 client of
  /// an IPv6 listener (::ffff:a.b.c.d) is shown as IPv4. Text without allocating.
  void note_peer() noexcept {
    sys_error ec;
    const tcp::endpoint ep = socket.remote_endpoint(ec);
    if (ec) return;
    asio::ip::address a = ep.address();
    if (a.is_v6() && a.to_v6().is_v4_mapped())
      a = asio::ip::make_address_v4(asio::ip::v4_mapped, a.to_v6());
    const char* text = nullptr;
    if (a.is_v4()) {
      const auto bytes = a.to_v4().to_bytes();
      text = ::inet_ntop(AF_INET, bytes.data(), peer_ip.data(), peer_ip.size());
    } else {
      const auto bytes = a.to_v6().to_bytes();
      text = ::inet_ntop(AF_INET6, bytes.data(), peer_ip.data(), peer_ip.size());
    }
    if (text == nullptr) {
      peer_ip[0] = '\0';
      return;
    }
    peer_port = ep.port();
  }

  server::impl& srv;
  worker& owner;
  tcp::socket socket;
  /// The peer as accepted (note_peer): NUL-terminated address text ("" if unknown), its port.
  std::array<char, INET6_ADDRSTRLEN> peer_ip{};
  std::uint16_t peer_port = 0;
  std::optional<asio::ssl::stream<tcp::socket&>> tls;
  bool tls_established = false;  // handshake done, no close_notify sent yet
  asio::steady_timer timer;
  clock_type::time_point deadline = clock_type::time_point::max(), armed_expiry{};
  bool timer_pending = false;
  bool timed_out = false, closed = false, idle = false, peer_gone = false;
  // Accepted once the server was draining (from its accept queue): its request is answered
  // 503 with Connection: close, not run and not cut off by a reset.
  const bool refuse_requests;
  // The last read for a next request found its bytes at once: try the socket directly first.
  bool next_request_early = false;
  yield_type* yield = nullptr;
  // While the coroutine waits for its next request (on its own stack; a read within a request
  // waits on a lent one): the frame of that read (what the wait adds lies below it). And run's
  // frame, the top of the coroutine's frames. See prefetch_for_resume.
  const char* suspended_at = nullptr;
  const char* stack_top = nullptr;
  await_state* waiting = nullptr;  // the handler is suspended in server::await
  server_connection *prev = nullptr, *next = nullptr;
  /// Bytes read_now may still take before a read goes through the event loop again.
  static constexpr std::size_t direct_read_budget = 256 * 1024;
  std::size_t direct_read_left = direct_read_budget;
  /// A caller's buffer at least this large gets the socket's bytes directly (smaller ones
  /// would cost a system call per few bytes: they are served from the read buffer).
  static constexpr std::size_t direct_to_caller = 16 * 1024;

  // Read side: unconsumed bytes are read_buffer[read_begin, read_end). The read area is lent
  // by the worker: held while it has unconsumed bytes or a request is in progress, null
  // between requests (see lazy_read_buffer).
  std::unique_ptr<char[]> read_buffer;
  std::size_t read_capacity = 0, read_begin = 0, read_end = 0;
  asio::mutable_buffer read_target;  // where the read in progress puts its bytes
  char* landing = nullptr;           // the pool's area read_target was resolved to, if any

  // Current request; `buffers` is lent by the worker from its first byte to the response's end.
  std::unique_ptr<request_buffers> buffers;
  std::optional<request_parser> parser;
  bool continue_sent = false;
  const std::string* user = nullptr;
  sys_error body_error;  // a framing/limit error met while streaming the body
  body_window body_in;   // read_body's destination

  // Current response.
  body_framer framer{*this};
  unsigned status = 200;
  bool keep_alive = true, head_request = false;
  std::uint64_t message_bytes = 0;  // read and written for the current request

  /// After a request: the buffer set and read area back to the worker; after a large one
  /// (over large_message_bytes in or out) the set is freed instead, and so is what the call
  /// freed (release_freed_memory).
  void end_request();

  /// A read area of its own from now on (a request in progress; TLS, whose reads fill the
  /// buffer after the wait).
  void hold_read_area() {
    if (read_buffer) return;
    read_buffer = std::move(top_read_area());
    owner.spare_reads.pop_back();
    owner.landing_owner = nullptr;  // bytes put in it may be overwritten from now on
  }
  /// The area on top of the worker's pool, made if the pool is empty.
  std::unique_ptr<char[]>& top_read_area() {
    auto& spare = owner.spare_reads;
    if (spare.empty()) {
      spare.push_back(std::make_unique_for_overwrite<char[]>(read_capacity));
      worker::add(owner.read_areas, 1);
    }
    return spare.back();
  }
  char* top_read_area_or_null() noexcept {
    try {
      return top_read_area().get();
    } catch (const std::bad_alloc&) {
      return nullptr;
    }
  }
  /// Back to the pool if nothing in it is left to parse (`drop`: whatever is left).
  void give_back_read_area(bool drop) {
    if (drop) read_begin = read_end;
    if (read_buffer && read_begin == read_end) {
      owner.spare_reads.push_back(std::move(read_buffer));
      read_begin = read_end = 0;
    }
    owner.trim(owner.spare_reads, owner.read_areas);
  }
  /// The next read's destination (lazy_read_buffer): the rest of the area held, else the area on
  /// top of the pool, marked with a 0 first byte (no request starts with one) so that a read
  /// asio completed at once can be told from one that found nothing.
  const asio::mutable_buffer* resolve_read() {
    prefetch_for_resume();
    if (read_buffer) {
      landing = nullptr;
      read_target = asio::buffer(read_buffer.get() + read_end, read_capacity - read_end);
      return &read_target;
    }
    landing = top_read_area_or_null();
    if (!landing) {
      // Out of memory, inside asio's reactor (where an exception would end the process): an
      // empty read, which asio reports as the end of the stream, so the connection closes.
      read_target = asio::mutable_buffer();
      return &read_target;
    }
    landing[0] = '\0';
    owner.landing_owner = this;
    read_target = asio::buffer(landing, read_capacity);
    return &read_target;
  }
  /// asio performs a waiting read when epoll reports the socket readable, then resumes the
  /// coroutine, which touches its frames and this object first: with many connections both
  /// were last touched a whole round of calls earlier and are cold. Asking for them here lets
  /// them load while the receive runs (a few microseconds in the kernel): ~40 lines.
  void prefetch_for_resume() const {
    // Not waiting for a request: asio's first attempt (on the running coroutine: all warm), or
    // a read within a request.
    if (!suspended_at) return;
    const auto prefetch = [](std::uintptr_t from, std::uintptr_t to) {
      for (; from < to; from += 64) __builtin_prefetch(reinterpret_cast<const void*>(from), 1);
    };
    // From below the read's frame (the wait's frames and the registers the switch saved) to
    // just above run's (the coroutine's own control block sits at the top of its stack).
    prefetch(reinterpret_cast<std::uintptr_t>(suspended_at) - 768,
             reinterpret_cast<std::uintptr_t>(stack_top) + 512);
    prefetch(reinterpret_cast<std::uintptr_t>(this),
             reinterpret_cast<std::uintptr_t>(this) + sizeof *this);
  }
  /// Takes the pool's area a read of this connection put its bytes in. False if another
  /// connection's read may have used it since (the bytes are lost).
  bool claim_landing() {
    auto& spare = owner.spare_reads;
    if (owner.landing_owner != this || spare.empty() || spare.back().get() != landing) return false;
    read_buffer = std::move(spare.back());
    spare.pop_back();
    owner.landing_owner = nullptr;
    landing = nullptr;
    return true;
  }

  void take_buffers() {
    if (buffers) return;
    auto& spare = owner.spare_buffers;
    if (spare.empty()) {
      buffers = std::make_unique<request_buffers>();
      install_body_sink();
      worker::add(owner.buffer_sets, 1);
    } else {
      buffers = std::move(spare.back());
      spare.pop_back();
    }
    buffers->owner = this;
  }
  /// Back to the pool, which keeps no more sets than the worker has open connections.
  void give_back_buffers() {
    auto& spare = owner.spare_buffers;
    if (buffers) spare.push_back(std::move(buffers));
    owner.trim(spare, owner.buffer_sets);
  }

  /// The sink follows the set to whichever connection it is lent to.
  void install_body_sink() {
    const chunking& c = srv.opts.response_chunking;
    if (c.never)
      buffers->body.clear_sink();
    else
      buffers->body.set_sink(
          [b = buffers.get()](std::string_view bytes) { b->owner->on_body_flush(bytes); },
          wire::first_flush(c));
  }

  std::string_view method() const { return parser->method(); }
  std::string_view target() const { return parser->target(); }
  std::string_view header(std::string_view name) const {
    return buffers->request_head.header(name);
  }
  /// The request's HTTP version (11 until its request line is parsed).
  unsigned version() const { return parser ? parser->version() : 11; }

  // ---- timeouts: one timer per connection, re-armed lazily to the latest deadline ----
  void set_deadline(clock_type::duration d) { set_deadline_at(clock_type::now() + d); }
  // The timer stays armed at `armed_expiry`; moving the deadline later costs a store (the
  // timer re-arms itself when it fires early), moving it earlier re-arms it.
  void set_deadline_at(clock_type::time_point t) {
    deadline = t;
    if (!timer_pending || t < armed_expiry) arm_timer();
  }
  void clear_deadline() { deadline = clock_type::time_point::max(); }
  void arm_timer() {
    timer_pending = true;
    armed_expiry = deadline;
    timer.expires_at(deadline);
    timer.async_wait([self = shared_from_this()](const sys_error& ec) {
      if (ec == asio::error::operation_aborted) return;  // superseded by a newer wait
      self->timer_pending = false;
      if (ec || self->closed) return;
      if (self->deadline == clock_type::time_point::max()) return;  // armed again on next set
      if (clock_type::now() >= self->deadline) {
        self->timed_out = true;
        self->close_socket();
      } else {
        self->arm_timer();
      }
    });
  }

  void close_socket() {
    if (closed) return;
    closed = true;
    sys_error ignored;
    socket.shutdown(tcp::socket::shutdown_both, ignored);
    socket.close(ignored);
    timer.cancel();
  }

  // ---- raw I/O on the coroutine ----
  /// Reads at read_end through the event loop, into the area held or one from the pool.
  std::size_t read_some(sys_error& ec) {
    std::size_t got = 0;
    if (tls) {
      hold_read_area();
      got = tls->async_read_some(
          asio::buffer(read_buffer.get() + read_end, read_capacity - read_end), (*yield)[ec]);
    } else {
      yield_type y = (*yield)[ec];  // async_completion moves from its token: use a copy
      asio::async_completion<yield_type, void(sys_error, std::size_t)> done(y);
      landing = nullptr;
      socket.async_read_some(lazy_read_buffer{this}, std::move(done.completion_handler));
      // asio's first attempt found bytes: its completion is posted, so take the area now,
      // before another connection's read lands in it too.
      next_request_early = landing && landing[0] != '\0';
      if (next_request_early) claim_landing();
      suspended_at = idle ? static_cast<const char*>(__builtin_frame_address(0)) : nullptr;
      got = done.result.get();
      suspended_at = nullptr;
      if (got > 0 && !read_buffer && !claim_landing()) {
        ec = asio::error::connection_aborted;  // a request starting with a 0 byte, clobbered
        got = 0;
      }
    }
    current_connection = this;
    direct_read_left = direct_read_budget;  // this read went through the event loop
    worker::add(owner.bytes_in, got);
    message_bytes += got;
    return got;
  }
  /// Plain TCP, while a request body is being read: take what the socket holds now without
  /// going through the event loop. asio posts even a successful speculative read's completion,
  /// so with many connections a worker parsed a piece of every request in turn and none of
  /// them stayed in the cache; this way one request is read and parsed while it is hot. At
  /// most direct_read_budget bytes between two reads through the loop, so a connection that
  /// always has data cannot keep its worker from the others. 0 = nothing now (or the budget is
  /// spent): read through asio, whose own first attempt makes a wait cost one more empty
  /// read. Sets `ec` at the end of the stream or on an error.
  std::size_t read_now(char* dest, std::size_t n, sys_error& ec) {
    if (tls || direct_read_left == 0) return 0;
    n = std::min(n, direct_read_left);
    ssize_t r;
    do r = ::recv(socket.native_handle(), dest, n, MSG_DONTWAIT);
    while (r < 0 && errno == EINTR);
    if (r > 0) {
      direct_read_left -= static_cast<std::size_t>(r);
      worker::add(owner.bytes_in, static_cast<std::size_t>(r));
      message_bytes += static_cast<std::size_t>(r);
      return static_cast<std::size_t>(r);
    }
    if (r == 0)
      ec = asio::error::eof;
    else if (errno != EAGAIN && errno != EWOULDBLOCK)
      ec = sys_error(errno, boost::system::system_category());
    return 0;
  }
  /// Plain TCP: one non-blocking sendmsg of as much as the socket takes now. An asio write
  /// whose speculative send succeeds still posts its completion, switching the coroutine out
  /// and back in through the io_context (~2.5k instructions per response); writing first
  /// leaves asio only the rest, when the socket is full. Reads stay with asio: their readiness
  /// comes from its (edge-triggered) reactor, and bypassing it lost wake-ups (df29f0d).
  template <class Buffers>
  std::size_t write_now(const Buffers& buffers) {
    std::array<iovec, 8> iov;
    std::size_t count = 0;
    for (auto it = asio::buffer_sequence_begin(buffers); it != asio::buffer_sequence_end(buffers);
         ++it) {
      const asio::const_buffer b(*it);
      if (b.size() == 0) continue;
      if (count == iov.size()) break;
      iov[count++] = {const_cast<void*>(b.data()), b.size()};
    }
    msghdr m{};
    m.msg_iov = iov.data();
    m.msg_iovlen = count;
    ssize_t n;
    do n = ::sendmsg(socket.native_handle(), &m, MSG_DONTWAIT | MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    return n < 0 ? 0 : static_cast<std::size_t>(n);  // errors: asio meets them again below
  }
  template <class Buffers>
  void write_all(const Buffers& buffers) {
    if (closed) throw error(errc::client_gone);
    const std::size_t total = asio::buffer_size(buffers);
    std::size_t n = tls ? 0 : write_now(buffers);
    sys_error ec;
    if (n < total) {
      beast::buffers_suffix<Buffers> rest(buffers);
      rest.consume(n);
      set_deadline(srv.opts.idle_timeout);
      n += tls ? asio::async_write(*tls, rest, (*yield)[ec])
               : asio::async_write(socket, rest, (*yield)[ec]);
      current_connection = this;
      clear_deadline();
    }
    worker::add(owner.bytes_out, n);
    message_bytes += n;
    if (ec) {
      peer_gone = true;
      keep_alive = false;
      throw error(timed_out ? errc::io_timeout : errc::client_gone,
                  "writing the response: " + ec.message());
    }
  }
  /// Make room at the end of the read buffer (compacting).
  void make_room() {
    if (read_begin == read_end) read_begin = read_end = 0;
    if (read_end == read_capacity && read_begin > 0) {
      std::memmove(read_buffer.get(), read_buffer.get() + read_begin, read_end - read_begin);
      read_end -= read_begin;
      read_begin = 0;
    }
  }
  /// Read at least one byte into the read buffer through the event loop.
  bool fill(sys_error& ec) {
    make_room();
    std::size_t n = read_some(ec);
    read_end += n;
    return !ec && n > 0;
  }
  bool parse_body_in_place(std::size_t n);
  /// Plain TCP with the request read to its end: the client closed (or reset) the connection.
  bool peer_closed() {
    if (tls || !parser->is_done() || read_end > read_begin) return false;
    char probe;
    ssize_t n = ::recv(socket.native_handle(), &probe, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
  }
  /// While the handler waits in server::await: end the await when the client closes. The
  /// wait is armed before the check: asio's reactor is edge-triggered, so a close that an
  /// earlier epoll_wait saw (with nothing waiting) only shows to the check, and one after it
  /// wakes the wait. True = armed (server::await cancels it when it returns).
  bool watch_for_close(const std::shared_ptr<await_state>& state) {
    if (tls || !parser->is_done() || read_end > read_begin) return false;  // bytes to come
    socket.async_wait(tcp::socket::wait_read, [this, state](const sys_error& ec) {
      // Not ended = still suspended: this connection lives while this runs on its thread.
      if (ec || state->ended()) return;
      if (peer_closed())
        end_for_close(*state);
      else
        watch_for_close(state);  // bytes (a pipelined request): the close comes after them
    });
    if (peer_closed()) end_for_close(*state);
    return true;
  }
  void end_for_close(await_state& state) {
    peer_gone = true;
    keep_alive = false;
    state.end(await_state::outcome::client_gone);
  }

  void run(yield_type y);
  bool handshake();
  void answer_plain_http();
  void send_close_notify();
  bool wait_for_request();
  bool read_request_head();
  void serve_request();
  void answer(unsigned code, std::string_view text, bool close);
  std::size_t read_body(char* dest, std::size_t capacity);
  bool drain_body(std::size_t budget);
  void start_head(std::string_view framing);
  void on_body_flush(std::string_view bytes);
  void finish_response();
  // frame_transport: the response's head and writes for `framer`.
  std::string_view complete_head(std::string_view framing) override;
  void write(std::span<const std::string_view> pieces) override;
};

}  // namespace detail
}  // namespace lather::http
