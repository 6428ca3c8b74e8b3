// HTTP/1.1 server: one io_context per thread, one stackful coroutine per connection, Beast's
// basic_parser for the wire format (its hooks copy the header into a per-connection arena and
// the body straight into the handler's buffer), responses written with writev.
#define BOOST_COROUTINES_NO_DEPRECATION_WARNING
#define BOOST_ALLOW_DEPRECATED_HEADERS  // Boost.Coroutine 1.74 includes deprecated headers
#include "lather/http/server.hpp"

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
#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/error.hpp>
#include <charconv>
#include <condition_variable>
#include <cstring>
#include <limits>
#include <mutex>
#include <thread>
#include <vector>

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

namespace detail {

struct field_ref {
  std::uint32_t name_offset, name_length, value_offset, value_length;
};

/// What a connection needs only while it serves a request: the request head's text and the
/// response's head and body. Idle connections hold none; a worker lends them out of a LIFO
/// pool, so with many connections the few sets in use stay in the cache instead of one set per
/// connection going cold between its calls.
struct request_buffers {
  server_connection* owner = nullptr;  // the connection it is lent to
  std::string head_text;               // method, target, then each header name and value
  std::vector<field_ref> fields;
  std::string response_fields;  // "Name: value\r\n"...
  std::string head;             // the response head being written
  xml::output body;
};

}  // namespace detail

namespace {

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
  asio::io_context ctx{1};
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

/// The worker's event loop. With a spin budget, a worker that ran out of ready handlers polls
/// (non-blocking epoll_wait) for up to the adaptive budget before it blocks in epoll_wait, so a
/// request that comes soon after the last completion finds it awake (see spin.hpp). Spinning
/// starts only after handlers ran: a server without traffic blocks.
void worker::run(std::chrono::microseconds spin) {
  if (spin.count() <= 0) {
    ctx.run();
    return;
  }
  detail::spin_budget budget{spin};
  while (!ctx.stopped()) {
    if (ctx.poll() > 0) continue;  // ready work first
    const auto idle_since = detail::spin_clock::now();
    bool learn = true;
    if (budget.current() > detail::spin_clock::duration::zero()) {
      auto outcome =
          detail::spin_for(budget.current(), [&] { return ctx.poll() > 0 || ctx.stopped(); });
      if (outcome == detail::spin_outcome::found) {
        add(spins_found, 1);
        continue;
      }
      if (outcome != detail::spin_outcome::machine_busy) add(spins_gave_up, 1);
      if (outcome == detail::spin_outcome::contended) {
        budget.contended();
        learn = false;  // this wait says more about the CPU than about the traffic
      }
    }
    ctx.run_one();
    if (learn) budget.waited(detail::spin_clock::now() - idle_since);
  }
}

struct route_entry {
  std::string prefix;
  handler fn;
};

/// What to answer when the request could not be handed to a handler.
struct rejection {
  unsigned status;
  std::string_view text;
};

rejection rejection_for(const sys_error& ec) {
  if (ec == bhttp::error::header_limit) return {431, "request header too large\n"};
  if (ec == bhttp::error::body_limit) return {413, "request body too large\n"};
  return {400, "malformed request\n"};
}

/// What to answer for the exception escaping a handler (called in its catch block).
rejection handler_failure() {
  try {
    throw;
  } catch (const error& e) {
    if (e.code() == errc::await_timeout) return {504, "awaited work timed out\n"};
    if (e.code() == errc::shutting_down) return {503, "server shutting down\n"};
  } catch (...) {
  }
  return {500, "internal server error\n"};
}

errc errc_for(const sys_error& ec) {
  if (ec == bhttp::error::body_limit) return errc::body_limit;
  if (ec == bhttp::error::header_limit) return errc::header_limit;
  return errc::bad_message;
}

thread_local detail::server_connection* current_connection = nullptr;

// Coroutines run on their worker's io_context executor directly. asio::spawn(executor) would
// wrap it in a strand, a lock per completion that buys nothing with one thread per context.
void coroutine_done() {}
using yield_type =
    asio::basic_yield_context<asio::executor_binder<void (*)(), asio::io_context::executor_type>>;

}  // namespace

struct server::impl {
  explicit impl(server_options o) : opts(std::move(o)) {}
  server_options opts;
  std::vector<route_entry> routes;  // longest prefix first
  std::vector<std::unique_ptr<worker>> workers;
  std::optional<tcp::acceptor> acceptor;
  std::optional<asio::ssl::context> tls;
  std::string expected_credentials;  // base64("user:password")
  std::uint16_t bound_port = 0;
  std::size_t next_worker = 0;
  std::atomic<bool> started{false}, stopping{false}, stopped{false};
  std::atomic<std::uint64_t> connections_total{0}, open_connections{0}, rejected{0};
  std::mutex state_mutex;
  std::condition_variable state_changed;  // open_connections fell / stop completed
  std::once_flag stop_once;

  void accept_next();
  void on_accept(const sys_error& ec, tcp::socket socket, worker& w);
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

/// Beast's push parser; its hooks (defined below) copy the header into the connection's arena
/// and the body straight into the handler's buffer: no allocation per request.
class request_parser final : public bhttp::basic_parser<true> {
 public:
  explicit request_parser(server_connection& c) : c_(c) {}

 private:
  server_connection& c_;
  void on_request_impl(bhttp::verb, beast::string_view method, beast::string_view target,
                       int version, sys_error&) override;
  void on_response_impl(int, beast::string_view, int, sys_error&) override {}
  void on_field_impl(bhttp::field f, beast::string_view name, beast::string_view value,
                     sys_error& ec) override;
  void on_header_impl(sys_error&) override;
  void on_body_init_impl(const boost::optional<std::uint64_t>&, sys_error&) override {}
  std::size_t take(beast::string_view bytes, sys_error& ec);
  std::size_t on_body_impl(beast::string_view body, sys_error& ec) override {
    return take(body, ec);
  }
  void on_chunk_header_impl(std::uint64_t, beast::string_view, sys_error&) override {}
  std::size_t on_chunk_body_impl(std::uint64_t, beast::string_view body, sys_error& ec) override {
    return take(body, ec);
  }
  void on_finish_impl(sys_error&) override {}
};

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
struct server_connection : std::enable_shared_from_this<server_connection> {
  server_connection(server::impl& s, worker& w, tcp::socket sock)
      : srv(s), owner(w), socket(std::move(sock)), timer(w.ctx) {
    // Room for a whole head: the parser reports header_limit before the buffer can fill up.
    // 64 KiB (one loopback TCP segment): a large body arrives in a quarter of the reads, wake-ups
    // and coroutine switches of 16 KiB; a small request touches only its own pages.
    read_capacity = std::max<std::size_t>(64 * 1024, srv.opts.header_limit + 1024);
  }

  server::impl& srv;
  worker& owner;
  tcp::socket socket;
  std::optional<asio::ssl::stream<tcp::socket&>> tls;
  asio::steady_timer timer;
  clock_type::time_point deadline = clock_type::time_point::max(), armed_expiry{};
  bool timer_pending = false;
  bool timed_out = false, closed = false, idle = false, peer_gone = false;
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
  std::uint32_t method_length = 0, target_length = 0;
  unsigned version = 11;
  unsigned content_length_fields = 0;
  bool has_transfer_encoding = false, expect_continue = false, continue_sent = false;
  bool header_done = false;
  const std::string* user = nullptr;
  sys_error body_error;  // a framing/limit error met while streaming the body
  char* body_dest = nullptr;
  std::size_t body_capacity = 0, body_length = 0;

  // Current response.
  enum class phase { fresh, streaming, finished };
  phase response_phase = phase::fresh;
  unsigned status = 200;
  bool keep_alive = true, head_request = false, close_delimited = false;

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
    landing = top_read_area().get();
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

  std::string_view text(std::uint32_t offset, std::uint32_t length) const {
    return {buffers->head_text.data() + offset, length};
  }
  std::string_view method() const { return text(0, method_length); }
  std::string_view target() const { return text(method_length, target_length); }
  std::string_view header(std::string_view name) const {
    for (const auto& f : buffers->fields)
      if (wire::iequals(text(f.name_offset, f.name_length), name))
        return text(f.value_offset, f.value_length);
    return {};
  }

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
  bool wait_for_request();
  bool read_request_head();
  void serve_request();
  void answer(unsigned code, std::string_view text, bool close);
  std::size_t read_body(char* dest, std::size_t capacity);
  bool drain_body(std::size_t budget);
  void start_head(std::string_view framing);
  void on_body_flush(std::string_view bytes);
  void finish_response();
};

lazy_read_buffer::const_iterator lazy_read_buffer::begin() const {
  return c->resolve_read();
}
lazy_read_buffer::const_iterator lazy_read_buffer::end() const {
  return &c->read_target + 1;  // begin() resolves; asio may ask for the end first
}

void request_parser::on_request_impl(bhttp::verb, beast::string_view method,
                                     beast::string_view target, int version, sys_error&) {
  c_.buffers->head_text.append(method.data(), method.size());
  c_.buffers->head_text.append(target.data(), target.size());
  c_.method_length = static_cast<std::uint32_t>(method.size());
  c_.target_length = static_cast<std::uint32_t>(target.size());
  c_.version = static_cast<unsigned>(version);
}

void request_parser::on_field_impl(bhttp::field f, beast::string_view name,
                                   beast::string_view value, sys_error& ec) {
  if (c_.header_done) return;  // trailer fields are read and ignored
  if (f == bhttp::field::content_length && ++c_.content_length_fields > 1) {
    // Even identical duplicates are refused: intermediaries disagree on them (smuggling).
    ec = bhttp::error::bad_content_length;
    return;
  }
  if (f == bhttp::field::transfer_encoding) {
    if (c_.has_transfer_encoding) {
      ec = bhttp::error::bad_transfer_encoding;
      return;
    }
    c_.has_transfer_encoding = true;
  }
  if (f == bhttp::field::expect &&
      wire::iequals(wire::trim({value.data(), value.size()}), "100-continue"))
    c_.expect_continue = true;
  field_ref r;
  r.name_offset = static_cast<std::uint32_t>(c_.buffers->head_text.size());
  r.name_length = static_cast<std::uint32_t>(name.size());
  c_.buffers->head_text.append(name.data(), name.size());
  r.value_offset = static_cast<std::uint32_t>(c_.buffers->head_text.size());
  r.value_length = static_cast<std::uint32_t>(value.size());
  c_.buffers->head_text.append(value.data(), value.size());
  c_.buffers->fields.push_back(r);
}

void request_parser::on_header_impl(sys_error&) {
  c_.header_done = true;
}

std::size_t request_parser::take(beast::string_view bytes, sys_error& ec) {
  std::size_t room = c_.body_capacity - c_.body_length;
  std::size_t n = std::min(room, bytes.size());
  // Bytes read straight into the caller's buffer are in place, or move down over chunk framing.
  char* to = c_.body_dest + c_.body_length;
  if (n && to != bytes.data()) std::memmove(to, bytes.data(), n);
  c_.body_length += n;
  if (n < bytes.size()) ec = bhttp::error::need_buffer;  // the caller's buffer is full
  return n;
}

void server_connection::run(yield_type y) {
  stack_top = static_cast<const char*>(__builtin_frame_address(0));
  yield = &y;
  current_connection = this;
  // Link into the worker's list so stop() can find idle connections.
  next = owner.connections;
  if (next) next->prev = this;
  owner.connections = this;
  ++owner.open_connections;
  try {
    bool ok = true;
    if (srv.tls) {
      tls.emplace(socket, *srv.tls);
      set_deadline(srv.opts.header_timeout);
      sys_error ec;
      tls->async_handshake(asio::ssl::stream_base::server, y[ec]);
      current_connection = this;
      clear_deadline();
      ok = !ec;
    }
    while (ok && !closed) {
      if (!wait_for_request()) break;
      bool served = false;
      detail::run_on_lent_stack(owner.stacks, [&] {
        if (!read_request_head()) return;
        serve_request();
        served = true;
      });
      give_back_buffers();
      give_back_read_area(false);
      if (!served || !keep_alive || srv.stopping.load(std::memory_order_relaxed)) break;
    }
  } catch (const boost::coroutines::detail::forced_unwind&) {
    throw;
  } catch (...) {
    // Connection-level failure: nothing more can be said to this client.
  }
  parser.reset();
  close_socket();
  if (prev)
    prev->next = next;
  else
    owner.connections = next;
  if (next) next->prev = prev;
  --owner.open_connections;
  if (owner.landing_owner == this) owner.landing_owner = nullptr;
  give_back_buffers();
  give_back_read_area(true);
  owner.stacks.trim(owner.open_connections);  // as give_back_buffers
  current_connection = nullptr;
  srv.connection_closed();
}

/// Until the next request's first bytes are in the read buffer (at once for pipelined ones),
/// on the coroutine's own stack. False = closed, reset, timed out or stopping.
bool server_connection::wait_for_request() {
  if (read_end > read_begin) return true;
  if (srv.stopping.load(std::memory_order_relaxed)) return false;
  sys_error ec;
  if (next_request_early) {
    // Read into the pool's area and go on at once. Through asio, a read that finds its bytes
    // at once posts its completion, holding the area until the worker has run everything
    // queued before it (many areas in use, none warm); one that finds nothing costs the same
    // empty recv as this one, hence only when the last read found bytes at once.
    hold_read_area();
    read_end = read_now(read_buffer.get(), read_capacity, ec);
    next_request_early = read_end > 0;
    if (ec) return false;
    if (read_end > 0) return true;
    give_back_read_area(false);
  }
  idle = true;
  set_deadline(srv.opts.idle_timeout);
  const bool got = fill(ec);
  idle = false;
  return got;
}

/// Parse the next request head, whose first bytes are in the read buffer. False = close the
/// connection (after any error answer).
bool server_connection::read_request_head() {
  method_length = target_length = 0;
  content_length_fields = 0;
  has_transfer_encoding = expect_continue = continue_sent = header_done = false;
  user = nullptr;
  body_error = {};
  status = 200;
  response_phase = phase::fresh;
  close_delimited = head_request = false;
  keep_alive = true;
  parser.emplace(*this);
  parser->header_limit(static_cast<std::uint32_t>(
      std::min<std::size_t>(srv.opts.header_limit, std::numeric_limits<std::uint32_t>::max())));
  parser->body_limit(srv.opts.body_limit);

  bool header_clock = false;  // header_timeout runs from the first partial head
  for (;;) {
    if (read_end > read_begin) {
      if (!buffers) {  // the request's first bytes: it needs its buffers from now on
        take_buffers();
        buffers->head_text.clear();
        buffers->fields.clear();
        buffers->response_fields.clear();
        buffers->body.clear();
        buffers->body.set_threshold(wire::first_flush(srv.opts.response_chunking));
      }
      sys_error ec;
      std::size_t n =
          parser->put(asio::buffer(read_buffer.get() + read_begin, read_end - read_begin), ec);
      read_begin += n;
      if (!ec && parser->is_header_done()) break;
      if (ec && ec != bhttp::error::need_more) {
        clear_deadline();
        rejection r = rejection_for(ec);
        answer(r.status, r.text, true);
        return false;
      }
      if (!header_clock) {
        header_clock = true;
        set_deadline(srv.opts.header_timeout);
      }
    }
    sys_error ec;
    if (!fill(ec)) return false;  // closed, reset or timed out: nothing to answer
  }
  clear_deadline();
  parser->eager(true);
  worker::add(owner.requests, 1);
  return true;
}

void server_connection::serve_request() {
  keep_alive = parser->keep_alive() && !srv.stopping.load(std::memory_order_relaxed);
  head_request = method() == "HEAD";
  if (head_request) buffers->body.clear_sink();

  std::string_view path = target().substr(0, target().find('?'));
  const handler* h = nullptr;
  if (has_transfer_encoding && !parser->chunked()) {
    // Beast accepted a coding list not ending in "chunked": the length is unknowable.
    answer(400, "transfer coding not supported\n", true);
    return;
  }
  if (has_transfer_encoding && !wire::iequals(wire::trim(header("Transfer-Encoding")), "chunked")) {
    answer(501, "transfer coding not implemented\n", true);
    return;
  }
  if (!srv.expected_credentials.empty()) {
    std::string_view auth = wire::trim(header("Authorization"));
    bool ok = auth.size() > 6 && wire::iequals(auth.substr(0, 6), "Basic ") &&
              wire::secure_equals(wire::trim(auth.substr(6)), srv.expected_credentials);
    if (!ok) {
      buffers->response_fields.append("WWW-Authenticate: Basic realm=\""sv);
      buffers->response_fields.append(srv.opts.realm);
      buffers->response_fields.append("\", charset=\"UTF-8\"\r\n"sv);
      answer(401, "authentication required\n", false);
      return;
    }
    user = &srv.opts.auth->user;
  }
  if (!(h = srv.find_route(path))) {
    answer(404, "no such endpoint\n", false);
    return;
  }

  request req{*this};
  response res{*this};
  try {
    (*h)(req, res);
    if (response_phase != phase::finished && !parser->is_done() && !drain_body(256 * 1024))
      keep_alive = false;
    finish_response();
  } catch (const boost::coroutines::detail::forced_unwind&) {
    throw;
  } catch (...) {
    if (response_phase == phase::fresh && !peer_gone && !closed) {
      buffers->response_fields.clear();
      rejection r = body_error ? rejection_for(body_error) : handler_failure();
      answer(r.status, r.text, true);
    } else {
      keep_alive = false;  // a half-sent response can only be ended by closing
    }
    return;
  }
  if (!parser->is_done() && !drain_body(256 * 1024)) keep_alive = false;
}

/// A short response produced by the server itself. `close` ends the connection after it.
void server_connection::answer(unsigned code, std::string_view text, bool close) {
  if (close || (parser && !parser->is_done() && !drain_body(64 * 1024))) keep_alive = false;
  status = code;
  buffers->body.clear();
  if (!head_request) buffers->body.append(text);
  response_phase = phase::fresh;
  buffers->response_fields.append("Content-Type: text/plain; charset=utf-8\r\n"sv);
  try {
    finish_response();
  } catch (const error&) {
    keep_alive = false;
  }
}

std::size_t server_connection::read_body(char* dest, std::size_t capacity) {
  if (body_error) throw error(errc_for(body_error), body_error.message());
  if (capacity == 0 || parser->is_done()) return 0;
  if (expect_continue && !continue_sent && read_begin == read_end &&
      response_phase == phase::fresh) {
    continue_sent = true;
    static constexpr std::string_view continue_line = "HTTP/1.1 100 Continue\r\n\r\n";
    write_all(asio::buffer(continue_line.data(), continue_line.size()));
  }
  body_dest = dest;
  body_capacity = capacity;
  body_length = 0;
  for (;;) {
    if (read_end > read_begin) {
      sys_error ec;
      std::size_t n =
          parser->put(asio::buffer(read_buffer.get() + read_begin, read_end - read_begin), ec);
      read_begin += n;
      if (ec && ec != bhttp::error::need_buffer && ec != bhttp::error::need_more) {
        body_error = ec;
        keep_alive = false;
        throw error(errc_for(ec), "request body: " + ec.message());
      }
      if (body_length > 0 || parser->is_done()) return body_length;
    }
    sys_error ec;
    if (read_begin == read_end && capacity >= direct_to_caller) {
      // Nothing buffered: the socket's bytes go straight into the caller's buffer (the XML
      // reader's), saving a copy of the body through the connection's buffer.
      read_begin = read_end = 0;
      if (std::size_t n = read_now(dest, std::min(capacity, read_capacity), ec)) {
        if (parse_body_in_place(n)) return body_length;
        continue;
      }
    } else {
      hold_read_area();
      make_room();
      if (std::size_t n = read_now(read_buffer.get() + read_end, read_capacity - read_end, ec)) {
        read_end += n;
        continue;
      }
    }
    bool got = !ec;
    if (got) {
      set_deadline(srv.opts.idle_timeout);
      got = fill(ec);
      clear_deadline();
    }
    if (!got) {
      peer_gone = true;
      keep_alive = false;
      throw error(timed_out ? errc::io_timeout : errc::client_gone,
                  "request body: connection ended before the body did");
    }
  }
}

/// Parse `n` body bytes that read_now put at body_dest: the body stays where it is (chunk
/// framing is squeezed out); what the parser did not take (a split chunk header, the next
/// pipelined request) moves to the empty read buffer. True when read_body can return.
bool server_connection::parse_body_in_place(std::size_t n) {
  std::size_t used = 0;
  while (used < n && !parser->is_done()) {
    sys_error ec;
    std::size_t m = parser->put(asio::buffer(body_dest + used, n - used), ec);
    used += m;
    if (ec && ec != bhttp::error::need_more && ec != bhttp::error::need_buffer) {
      body_error = ec;
      keep_alive = false;
      throw error(errc_for(ec), "request body: " + ec.message());
    }
    if (m == 0) break;
  }
  if (used < n) hold_read_area();
  if (read_buffer) std::memcpy(read_buffer.get(), body_dest + used, n - used);
  read_end = n - used;
  return body_length > 0 || parser->is_done();
}

/// Read and drop what is left of the request body, up to `budget` bytes.
bool server_connection::drain_body(std::size_t budget) {
  if (body_error || closed) return false;
  if (expect_continue && !continue_sent) return false;  // the client waits: close instead
  char scratch[4096];
  try {
    while (!parser->is_done()) {
      std::size_t n = read_body(scratch, std::min(budget, sizeof scratch));
      if (n == 0 && !parser->is_done()) return false;
      budget -= n;
      if (budget == 0 && !parser->is_done()) return false;
    }
  } catch (const error&) {
    return false;
  }
  return true;
}

/// Fill `head` with the status line and headers; `framing` is the Content-Length or
/// Transfer-Encoding line (or "" for a close-delimited body).
void server_connection::start_head(std::string_view framing) {
  std::string& head = buffers->head;
  const std::string& response_fields = buffers->response_fields;
  head.clear();
  head.append("HTTP/1.1 "sv);
  wire::append_decimal(head, status);
  head.push_back(' ');
  head.append(wire::reason_phrase(status));
  head.append("\r\nDate: "sv);
  head.append(wire::http_date());
  head.append("\r\nServer: lather\r\n"sv);
  head.append(response_fields);
  head.append(framing);
  if (srv.stopping.load(std::memory_order_relaxed)) keep_alive = false;
  if (!keep_alive)
    head.append("Connection: close\r\n"sv);
  else if (version == 10)
    head.append("Connection: keep-alive\r\n"sv);
  head.append("\r\n"sv);
}

void server_connection::on_body_flush(std::string_view bytes) {
  std::string& head = buffers->head;
  xml::output& body = buffers->body;
  if (bytes.empty() || response_phase == phase::finished) return;
  char size_line[20];
  if (response_phase == phase::fresh) {
    // HTTP/1.0 peers do not know chunked: stream the body and end it by closing.
    close_delimited = version == 10;
    if (close_delimited) keep_alive = false;
    start_head(close_delimited ? std::string_view{} : "Transfer-Encoding: chunked\r\n");
    response_phase = phase::streaming;
    body.set_threshold(wire::streaming_flush(srv.opts.response_chunking));
    if (close_delimited) {
      std::array<asio::const_buffer, 2> b{asio::buffer(head),
                                          asio::buffer(bytes.data(), bytes.size())};
      write_all(b);
    } else {
      std::array<asio::const_buffer, 4> b{
          asio::buffer(head), asio::buffer(wire::chunk_size_line(size_line, bytes.size())),
          asio::buffer(bytes.data(), bytes.size()), asio::buffer("\r\n", 2)};
      write_all(b);
    }
    return;
  }
  if (close_delimited) {
    write_all(asio::buffer(bytes.data(), bytes.size()));
  } else {
    std::array<asio::const_buffer, 3> b{
        asio::buffer(wire::chunk_size_line(size_line, bytes.size())),
        asio::buffer(bytes.data(), bytes.size()), asio::buffer("\r\n", 2)};
    write_all(b);
  }
}

void server_connection::finish_response() {
  std::string& head = buffers->head;
  xml::output& body = buffers->body;
  if (response_phase == phase::finished) return;
  std::string_view rest = body.view();
  const chunking& c = srv.opts.response_chunking;
  char size_line[20];
  static constexpr std::string_view last_chunk = "0\r\n\r\n";
  if (response_phase == phase::fresh) {
    bool fits = c.never || head_request || (c.threshold > 0 && rest.size() <= c.threshold);
    if (fits || version == 10) {
      // Built on the stack: "Content-Length: " alone is past std::string's small buffer.
      char framing[48] = "Content-Length: ";
      constexpr std::size_t prefix = sizeof("Content-Length: ") - 1;
      auto digits = std::to_chars(framing + prefix, framing + sizeof framing - 2, rest.size());
      digits.ptr[0] = '\r';
      digits.ptr[1] = '\n';
      start_head(std::string_view(framing, static_cast<std::size_t>(digits.ptr + 2 - framing)));
      if (head_request) rest = {};
      std::array<asio::const_buffer, 2> b{asio::buffer(head),
                                          asio::buffer(rest.data(), rest.size())};
      response_phase = phase::finished;
      write_all(b);
    } else {
      start_head("Transfer-Encoding: chunked\r\n");
      response_phase = phase::finished;
      if (rest.empty()) {
        std::array<asio::const_buffer, 2> b{asio::buffer(head),
                                            asio::buffer(last_chunk.data(), last_chunk.size())};
        write_all(b);
      } else {
        std::array<asio::const_buffer, 5> b{
            asio::buffer(head), asio::buffer(wire::chunk_size_line(size_line, rest.size())),
            asio::buffer(rest.data(), rest.size()), asio::buffer("\r\n", 2),
            asio::buffer(last_chunk.data(), last_chunk.size())};
        write_all(b);
      }
    }
  } else if (close_delimited) {
    response_phase = phase::finished;
    if (!rest.empty()) write_all(asio::buffer(rest.data(), rest.size()));
  } else {
    response_phase = phase::finished;
    if (rest.empty()) {
      write_all(asio::buffer(last_chunk.data(), last_chunk.size()));
    } else {
      std::array<asio::const_buffer, 4> b{
          asio::buffer(wire::chunk_size_line(size_line, rest.size())),
          asio::buffer(rest.data(), rest.size()), asio::buffer("\r\n", 2),
          asio::buffer(last_chunk.data(), last_chunk.size())};
      write_all(b);
    }
  }
  // A huge buffered body should not stay pinned in the worker's pool.
  if (body.view().size() > (1u << 20)) {
    body = xml::output{};
    install_body_sink();
  } else {
    body.clear();
    if (head_request) install_body_sink();
  }
}

}  // namespace detail

// ---- request / response ----

std::string_view request::method() const {
  return x_.method();
}
std::string_view request::target() const {
  return x_.target();
}
std::string_view request::path() const {
  std::string_view t = x_.target();
  return t.substr(0, t.find('?'));
}
std::string_view request::query() const {
  std::string_view t = x_.target();
  std::size_t q = t.find('?');
  return q == std::string_view::npos ? std::string_view{} : t.substr(q + 1);
}
std::string_view request::header(std::string_view name) const {
  return x_.header(name);
}
unsigned request::version() const {
  return x_.version;
}
std::optional<std::uint64_t> request::content_length() const {
  if (x_.parser->chunked()) return std::nullopt;
  auto n = x_.parser->content_length();
  return n ? std::optional<std::uint64_t>(*n) : std::optional<std::uint64_t>(0);
}
std::size_t request::read_body(char* dest, std::size_t capacity) {
  return x_.read_body(dest, capacity);
}
const std::string* request::authenticated_user() const {
  return x_.user;
}
std::string request::remote_endpoint() const {
  sys_error ec;
  auto ep = x_.socket.remote_endpoint(ec);
  if (ec) return {};
  return ep.address().to_string() + ":" + std::to_string(ep.port());
}

void response::set_status(unsigned code) {
  if (code < 100 || code > 999) throw std::invalid_argument("HTTP status out of range");
  x_.status = code;
}
namespace {
/// Throws for an invalid header; false for one of the server's own (ignored).
bool acceptable_header(std::string_view name, std::string_view value) {
  if (!wire::is_token(name) || !wire::is_safe_value(value))
    throw std::invalid_argument("invalid HTTP header name or value");
  for (std::string_view reserved : {"Content-Length", "Transfer-Encoding", "Connection", "Date"})
    if (wire::iequals(name, reserved)) return false;
  return true;
}
}  // namespace

header_line::header_line(std::string_view name, std::string_view value) {
  if (!acceptable_header(name, value))
    throw std::invalid_argument("HTTP header " + std::string(name) + " is set by the server");
  text_.append(name).append(": "sv).append(value).append("\r\n"sv);
}

void response::set_header(std::string_view name, std::string_view value) {
  if (!acceptable_header(name, value)) return;
  x_.buffers->response_fields.append(name);
  x_.buffers->response_fields.append(": "sv);
  x_.buffers->response_fields.append(value);
  x_.buffers->response_fields.append("\r\n"sv);
}
void response::set_header(const header_line& line) {
  x_.buffers->response_fields.append(line.text());
}
xml::output& response::body() {
  return x_.buffers->body;
}
void response::finish() {
  if (!x_.parser->is_done() && !x_.drain_body(256 * 1024)) x_.keep_alive = false;
  x_.finish_response();
}
bool response::client_gone() const {
  // With the request body consumed, a readable EOF means the client has gone.
  return x_.peer_gone || x_.closed || x_.peer_closed();
}

// ---- server ----

void server::impl::accept_next() {
  worker& w = *workers[next_worker];
  next_worker = (next_worker + 1) % workers.size();
  acceptor->async_accept(w.ctx, [this, &w](const sys_error& ec, tcp::socket socket) {
    on_accept(ec, std::move(socket), w);
  });
}

void server::impl::on_accept(const sys_error& ec, tcp::socket socket, worker& w) {
  if (stopping.load()) return;
  if (ec) {
    if (ec == asio::error::operation_aborted) return;
    // Out of descriptors or similar: back off briefly instead of spinning.
    auto pause =
        std::make_shared<asio::steady_timer>(workers[0]->ctx, std::chrono::milliseconds(50));
    pause->async_wait([this, pause](const sys_error&) {
      if (!stopping.load()) accept_next();
    });
    return;
  }
  sys_error ignored;
  socket.set_option(tcp::no_delay(true), ignored);
  connections_total.fetch_add(1, std::memory_order_relaxed);
  if (open_connections.load(std::memory_order_relaxed) >= opts.max_connections) {
    reject(std::move(socket));
  } else {
    open_connections.fetch_add(1, std::memory_order_relaxed);
    auto c = std::make_shared<detail::server_connection>(*this, w, std::move(socket));
    asio::spawn(
        asio::bind_executor(w.ctx.get_executor(), &coroutine_done),
        [c](yield_type y) { c->run(y); }, boost::coroutines::attributes(opts.coroutine_stack));
  }
  accept_next();
}

/// Over max_connections: a fixed 503 and close, without reading the request.
void server::impl::reject(tcp::socket socket) {
  rejected.fetch_add(1, std::memory_order_relaxed);
  if (tls) return;  // no handshake for a refused TLS client: just close
  static constexpr std::string_view busy =
      "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\n"
      "Content-Length: 0\r\n\r\n";
  auto s = std::make_shared<tcp::socket>(std::move(socket));
  asio::async_write(*s, asio::buffer(busy.data(), busy.size()), [s](const sys_error&, std::size_t) {
    sys_error ignored;
    s->shutdown(tcp::socket::shutdown_both, ignored);
  });
}

server::server(server_options opts) : impl_(std::make_unique<impl>(std::move(opts))) {}

server::~server() {
  stop();
  // Suspended coroutines (if any outlived the deadline) die with their io_context, before
  // the TLS context and routes they refer to.
  impl_->acceptor.reset();
  impl_->workers.clear();
}

void server::route(std::string path_prefix, handler h) {
  if (impl_->started) throw std::logic_error("http::server::route after start()");
  auto& routes = impl_->routes;
  routes.push_back({std::move(path_prefix), std::move(h)});
  std::stable_sort(routes.begin(), routes.end(), [](const route_entry& a, const route_entry& b) {
    return a.prefix.size() > b.prefix.size();
  });
}

void server::start() {
  impl& s = *impl_;
  if (s.started.exchange(true)) return;
  unsigned n = s.opts.threads ? s.opts.threads : std::max(1u, std::thread::hardware_concurrency());
  for (unsigned i = 0; i < n; ++i) {
    s.workers.push_back(std::make_unique<worker>());
    s.workers.back()->stacks.stack_size = s.opts.coroutine_stack;
    s.workers.back()->stacks.keep = &s.workers.back()->open_connections;
  }
  if (s.opts.auth)
    s.expected_credentials = wire::base64_encode(s.opts.auth->user + ":" + s.opts.auth->password);
  try {
    if (s.opts.tls) {
      const tls_options& t = *s.opts.tls;
      s.tls.emplace(asio::ssl::context::tls_server);
      s.tls->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                         asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                         asio::ssl::context::no_tlsv1_1);
      s.tls->use_certificate_chain_file(t.cert_file);
      s.tls->use_private_key_file(t.key_file, asio::ssl::context::pem);
      if (!t.ca_file.empty()) {
        s.tls->load_verify_file(t.ca_file);
        s.tls->set_verify_mode(asio::ssl::verify_peer | asio::ssl::verify_fail_if_no_peer_cert);
      }
    }
    tcp::endpoint ep{asio::ip::make_address(s.opts.address), s.opts.port};
    s.acceptor.emplace(s.workers[0]->ctx);
    s.acceptor->open(ep.protocol());
    s.acceptor->set_option(tcp::acceptor::reuse_address(true));
    wire::raise_receive_buffer(s.acceptor->native_handle(), s.opts.receive_buffer);
    s.acceptor->bind(ep);
    s.acceptor->listen(asio::socket_base::max_listen_connections);
    s.bound_port = s.acceptor->local_endpoint().port();
  } catch (const boost::system::system_error& e) {
    throw error(errc::io_failed, std::string("http::server::start: ") + e.what());
  }
  s.accept_next();
  for (auto& w : s.workers) {
    worker* wp = w.get();
    w->thread = std::thread([wp, spin = s.opts.spin_budget] {
      auto guard = asio::make_work_guard(wp->ctx);
      for (;;) {
        try {
          wp->run(spin);
          return;
        } catch (...) {
          // A handler outside any connection threw (should not happen); keep serving.
        }
      }
    });
  }
}

std::uint16_t server::port() const {
  return impl_->bound_port;
}

void server::run() {
  start();
  std::unique_lock lock(impl_->state_mutex);
  impl_->state_changed.wait(lock, [&] { return impl_->stopped.load(); });
}

void server::stop() {
  impl& s = *impl_;
  if (!s.started) return;
  std::call_once(s.stop_once, [&s] {
    s.stopping = true;
    asio::post(s.workers[0]->ctx, [&s] {
      sys_error ignored;
      if (s.acceptor) s.acceptor->close(ignored);
    });
    // Idle connections close now; busy ones close after their current response.
    for (auto& w : s.workers) {
      asio::post(w->ctx, [wp = w.get()] {
        for (auto* c = wp->connections; c; c = c->next)
          if (c->idle) c->close_socket();
      });
    }
    auto deadline = clock_type::now() + s.opts.shutdown_deadline;
    {
      std::unique_lock lock(s.state_mutex);
      s.state_changed.wait_until(lock, deadline, [&] { return s.open_connections.load() == 0; });
    }
    // Past the deadline: close the rest, and resume suspended handlers so they unwind.
    auto close_all = [](worker& w) {
      for (auto* c = w.connections; c; c = c->next) {
        c->close_socket();
        if (c->waiting) c->waiting->end(detail::await_state::outcome::stopping);
      }
    };
    for (auto& w : s.workers) asio::post(w->ctx, [close_all, wp = w.get()] { close_all(*wp); });
    {
      std::unique_lock lock(s.state_mutex);
      s.state_changed.wait_for(lock, std::chrono::seconds(1),
                               [&] { return s.open_connections.load() == 0; });
    }
    for (auto& w : s.workers) w->ctx.stop();
    for (auto& w : s.workers)
      if (w->thread.joinable()) w->thread.join();
    // Handlers still suspended (their thread never got to the close above) unwind when their
    // io_context is destroyed; a late `resume` then finds their await ended.
    for (auto& w : s.workers) close_all(*w);
    {
      std::lock_guard lock(s.state_mutex);
      s.stopped = true;
    }
    s.state_changed.notify_all();
  });
}

void server::await(const std::function<void(std::function<void()> resume)>& start) {
  detail::server_connection* c = current_connection;
  if (!c || !c->yield) throw std::logic_error("http::server::await outside a handler");
  await(start, c->srv.opts.await_timeout);
}

void server::await(const std::function<void(std::function<void()> resume)>& start,
                   std::chrono::milliseconds timeout) {
  using outcome = detail::await_state::outcome;
  detail::server_connection* c = current_connection;
  if (!c || !c->yield) throw std::logic_error("http::server::await outside a handler");
  if (c->closed)  // nobody to answer: stopped past the deadline, or the client is gone
    throw error(c->srv.stopping ? errc::shutting_down : errc::client_gone,
                "http::server::await: the connection is closed");
  yield_type y = *c->yield;  // async_completion moves from its token: use a copy
  asio::async_completion<yield_type, void(outcome)> completion(y);
  auto state = std::make_shared<detail::await_state>(c->owner.ctx.get_executor());
  state->handler.emplace(std::move(completion.completion_handler));
  asio::steady_timer timer(c->owner.ctx);
  struct suspended {  // also on a forced unwind
    detail::server_connection* c;
    detail::await_state& state;
    ~suspended() {
      c->waiting = nullptr;
      state.abandon();  // only `start` threw before anything ended the await
    }
  } scope{c, *state};
  c->waiting = state.get();
  if (timeout.count() > 0) {
    timer.expires_after(timeout);
    timer.async_wait([state](const sys_error& ec) {
      if (!ec) state->end(outcome::timed_out);
    });
  }
  start([token = std::make_shared<detail::resume_token>(state)] {
    token->state->end(outcome::resumed);
  });
  const bool watching = c->watch_for_close(state);
  const outcome why = completion.result.get();  // resumed on the connection's own thread
  current_connection = c;
  if (watching && !c->closed) {
    sys_error ignored;
    c->socket.cancel(ignored);  // the close watch: the only operation on the socket now
  }
  switch (why) {
    case outcome::resumed:
      return;
    case outcome::dropped:
      throw error(errc::resume_dropped,
                  "http::server::await: resume was destroyed without being called");
    case outcome::timed_out:
      throw error(errc::await_timeout, "http::server::await: resume was not called within " +
                                           std::to_string(timeout.count()) + " ms");
    case outcome::client_gone:
      throw error(errc::client_gone, "http::server::await: the client closed the connection");
    case outcome::stopping:
      break;
  }
  throw error(errc::shutting_down, "http::server::await: the server is stopping");
}

server::stats server::get_stats() const {
  stats st{};
  st.connections_total = impl_->connections_total.load();
  st.connections_open = impl_->open_connections.load();
  st.rejected_connections = impl_->rejected.load();
  for (const auto& w : impl_->workers) {
    st.requests += w->requests.load(std::memory_order_relaxed);
    st.bytes_in += w->bytes_in.load(std::memory_order_relaxed);
    st.bytes_out += w->bytes_out.load(std::memory_order_relaxed);
    st.request_buffers += w->buffer_sets.load(std::memory_order_relaxed);
    st.read_buffers += w->read_areas.load(std::memory_order_relaxed);
    st.request_stacks += w->stacks.made.load(std::memory_order_relaxed);
    st.spins_found_work += w->spins_found.load(std::memory_order_relaxed);
    st.spins_gave_up += w->spins_gave_up.load(std::memory_order_relaxed);
  }
  return st;
}

}  // namespace lather::http
