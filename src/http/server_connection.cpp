// A connection of the HTTP/1.1 server and the request/response exchange on it: the request
// parsed by framer.hpp's message_parser (head into the lent buffers, body straight into the
// handler's buffer), the handler call, the response framed by body_framer and written with
// writev.
#include "server_connection.hpp"

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace lather::http {

using namespace std::string_view_literals;  // appends of literals without a strlen

namespace {

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

}  // namespace

namespace detail {

lazy_read_buffer::const_iterator lazy_read_buffer::begin() const {
  return c->resolve_read();
}
lazy_read_buffer::const_iterator lazy_read_buffer::end() const {
  return &c->read_target + 1;  // begin() resolves; asio may ask for the end first
}

void server_connection::run(yield_type y) {
  stack_top = static_cast<const char*>(__builtin_frame_address(0));
  yield = &y;
  current_connection = this;
  // Link into the worker's list so stop() can find idle connections.
  next = owner.connections;
  if (next) next->prev = this;
  owner.connections = this;
  owner.peak_connections = std::max(owner.peak_connections, ++owner.open_connections);
  owner.burst |= owner.open_connections >= released_connections;
  try {
    bool ok = !srv.tls || handshake();
    while (ok && !closed) {
      if (!wait_for_request()) break;
      bool served = false;
      detail::run_on_lent_stack(owner.stacks, [&] {
        if (!read_request_head()) return;
        serve_request();
        served = true;
      });
      end_request();
      if (!served || !keep_alive || srv.stopping.load(std::memory_order_relaxed)) break;
    }
  } catch (const boost::coroutines::detail::forced_unwind&) {
    throw;
  } catch (...) {
    // Connection-level failure: nothing more can be said to this client.
  }
  parser.reset();
  send_close_notify();
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
  // After a burst of connections (released_connections open at once), at each halving of the
  // open count, down to a few: each time the connections' stacks, buffers and objects freed
  // since the last time go back. A few connections coming and going never get there.
  ++owner.closed_since_release;
  if (owner.burst && owner.open_connections <= owner.peak_connections / 2 &&
      owner.closed_since_release >= released_connections / 16) {
    // After this coroutine's stack is freed too (once run returns), not before.
    try {
      asio::post(owner.ctx, &release_freed_memory);
    } catch (const std::bad_alloc&) {
      release_freed_memory();
    }
    owner.peak_connections = owner.open_connections;
    owner.closed_since_release = 0;
    owner.burst = owner.open_connections >= released_connections / 16;
  }
  current_connection = nullptr;
  srv.connection_closed();
}

/// The TLS handshake, within handshake_timeout. False = close the connection; a plain HTTP
/// request instead of a ClientHello (OpenSSL knows its method) is answered first.
bool server_connection::handshake() {
  tls.emplace(socket, *srv.tls);
  set_deadline(srv.opts.handshake_timeout);
  sys_error ec;
  tls->async_handshake(asio::ssl::stream_base::server, (*yield)[ec]);
  current_connection = this;
  if (!ec) {
    clear_deadline();
    tls_established = true;
    srv.tls_handshakes.fetch_add(1, std::memory_order_relaxed);
    if (SSL_session_reused(tls->native_handle()))
      srv.tls_resumed.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  if (ec.category() == asio::error::get_ssl_category()) {
    const auto reason =
        ERR_GET_REASON(static_cast<unsigned long>(static_cast<unsigned>(ec.value())));
    if (reason == SSL_R_HTTP_REQUEST || reason == SSL_R_HTTPS_PROXY_REQUEST) answer_plain_http();
  }
  return false;
}

/// A TLS connection closing after its handshake ends with a close_notify (RFC 8446 §6.1): a
/// client sees a clean end instead of a truncation, which would make OpenSSL discard the
/// session it could resume. The client's own close_notify is not awaited.
void server_connection::send_close_notify() {
  if (!tls_established || closed) return;
  tls_established = false;
  SSL_set_shutdown(tls->native_handle(), SSL_RECEIVED_SHUTDOWN);  // SSL_shutdown: send only
  set_deadline(srv.opts.idle_timeout);
  sys_error ec;
  tls->async_shutdown((*yield)[ec]);
  current_connection = this;
}

/// A plain HTTP request on the TLS port: "400 Bad Request" in plain text, as nginx answers, so
/// that whoever typed http:// for https:// reads why instead of a reset. Then what the client
/// still sends is read (within handshake_timeout) until it closes, so that closing does not
/// reset the connection under the answer.
void server_connection::answer_plain_http() {
  static constexpr std::string_view answer =
      "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 42\r\n"
      "Connection: close\r\n\r\nplain HTTP request sent to the HTTPS port\n"sv;
  sys_error ec;
  asio::async_write(socket, asio::buffer(answer.data(), answer.size()), (*yield)[ec]);
  current_connection = this;
  if (ec || closed) return;
  socket.shutdown(tcp::socket::shutdown_send, ec);
  char unread[1024];
  while (!ec && !closed) {
    socket.async_read_some(asio::buffer(unread), (*yield)[ec]);
    current_connection = this;
  }
}

void server_connection::end_request() {
  const bool large = message_bytes > large_message_bytes;
  message_bytes = 0;
  if (large && buffers) {
    buffers.reset();
    worker::add(owner.buffer_sets, std::uint64_t(-1));
  }
  give_back_buffers();
  give_back_read_area(false);
  if (large) release_freed_memory();
}

void release_freed_memory() {
#ifdef __GLIBC__
  // Walks every arena and returns their free pages to the kernel (madvise), hence only after
  // a large call.
  ::malloc_trim(0);
#endif
}

void tune_allocator() {
#ifdef __GLIBC__
  static std::once_flag once;
  std::call_once(once, [] {
    // Setting either also ends glibc's adaptive thresholds, which rose to the largest chunk
    // freed so far (a large message's buffers) and made a thread arena's free top that large.
    constexpr int threshold = int{large_message_bytes};
    ::mallopt(M_MMAP_THRESHOLD, threshold);
    ::mallopt(M_TRIM_THRESHOLD, threshold);
  });
#endif
}

/// Until the next request's first bytes are in the read buffer (at once for pipelined ones),
/// on the coroutine's own stack. False = closed, reset, timed out or stopping.
bool server_connection::wait_for_request() {
  if (read_end > read_begin) return true;
  if (srv.stopping.load(std::memory_order_relaxed) && !refuse_requests) return false;
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
  continue_sent = false;
  user = nullptr;
  body_error = {};
  status = 200;
  framer.reset();
  head_request = false;
  keep_alive = true;
  // The request's first bytes are in: it needs its buffers from now on.
  take_buffers();
  buffers->response_fields.clear();
  buffers->body.clear();
  buffers->body.set_threshold(wire::first_flush(srv.opts.response_chunking));
  parser.emplace(buffers->request_head, body_in);
  parser->header_limit(static_cast<std::uint32_t>(
      std::min<std::size_t>(srv.opts.header_limit, std::numeric_limits<std::uint32_t>::max())));
  parser->body_limit(srv.opts.body_limit);

  bool header_clock = false;  // header_timeout runs from the first partial head
  for (;;) {
    if (read_end > read_begin) {
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
  if (refuse_requests) {
    // Not run, so safe to send elsewhere. Its body is read (up to the usual bound) so that
    // closing does not reset the connection under the answer; stopping adds the close.
    buffers->response_fields.append("Retry-After: 1\r\n"sv);
    answer(503, "draining\n", false);
    return;
  }
  if (parser->has_transfer_encoding() && !parser->chunked()) {
    // Beast accepted a coding list not ending in "chunked": the length is unknowable.
    answer(400, "transfer coding not supported\n", true);
    return;
  }
  if (parser->has_transfer_encoding() &&
      !wire::iequals(wire::trim(header("Transfer-Encoding")), "chunked")) {
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
    if (framer.current() != body_framer::state::finished && !parser->is_done() &&
        !drain_body(256 * 1024))
      keep_alive = false;
    finish_response();
  } catch (const boost::coroutines::detail::forced_unwind&) {
    throw;
  } catch (...) {
    if (!framer.started() && !peer_gone && !closed) {
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
  framer.reset();
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
  if (parser->expect_continue() && !continue_sent && read_begin == read_end && !framer.started()) {
    continue_sent = true;
    static constexpr std::string_view continue_line = "HTTP/1.1 100 Continue\r\n\r\n";
    write_all(asio::buffer(continue_line.data(), continue_line.size()));
  }
  body_in.open(dest, capacity);
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
      if (body_in.length > 0 || parser->is_done()) return body_in.length;
    }
    sys_error ec;
    if (read_begin == read_end && capacity >= direct_to_caller) {
      // Nothing buffered: the socket's bytes go straight into the caller's buffer (the XML
      // reader's), saving a copy of the body through the connection's buffer.
      read_begin = read_end = 0;
      if (std::size_t n = read_now(dest, std::min(capacity, read_capacity), ec)) {
        if (parse_body_in_place(n)) return body_in.length;
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

/// Parse `n` body bytes that read_now put at body_in.dest: the body stays where it is (chunk
/// framing is squeezed out); what the parser did not take (a split chunk header, the next
/// pipelined request) moves to the empty read buffer. True when read_body can return.
bool server_connection::parse_body_in_place(std::size_t n) {
  std::size_t used = 0;
  while (used < n && !parser->is_done()) {
    sys_error ec;
    std::size_t m = parser->put(asio::buffer(body_in.dest + used, n - used), ec);
    used += m;
    if (ec && ec != bhttp::error::need_more && ec != bhttp::error::need_buffer) {
      body_error = ec;
      keep_alive = false;
      throw error(errc_for(ec), "request body: " + ec.message());
    }
    if (m == 0) break;
  }
  if (used < n) hold_read_area();
  if (read_buffer) std::memcpy(read_buffer.get(), body_in.dest + used, n - used);
  read_end = n - used;
  return body_in.length > 0 || parser->is_done();
}

/// Read and drop what is left of the request body, up to `budget` bytes.
bool server_connection::drain_body(std::size_t budget) {
  if (body_error || closed) return false;
  if (parser->expect_continue() && !continue_sent) return false;  // the client waits: close instead
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
  else if (version() == 10)
    head.append("Connection: keep-alive\r\n"sv);
  head.append("\r\n"sv);
}

void server_connection::on_body_flush(std::string_view bytes) {
  if (bytes.empty() || framer.current() == body_framer::state::finished) return;
  const bool chunked_ok = version() != 10;  // HTTP/1.0 peers do not know chunked
  if (!framer.started()) {
    if (!chunked_ok) keep_alive = false;  // the body streams and ends by closing
    buffers->body.set_threshold(wire::streaming_flush(srv.opts.response_chunking));
  }
  framer.write_piece(bytes, chunked_ok);
}

void server_connection::finish_response() {
  if (framer.current() == body_framer::state::finished) return;
  byte_buffer& body = buffers->body;
  const std::string_view rest = body.view();
  const chunking& c = srv.opts.response_chunking;
  const bool fits = c.never || head_request || (c.threshold > 0 && rest.size() <= c.threshold);
  framer.finish(rest, fits || version() == 10, head_request);
  // A huge buffered body should not stay pinned in the worker's pool.
  if (body.view().size() > (1u << 20)) {
    body = byte_buffer{};
    install_body_sink();
  } else {
    body.clear();
    if (head_request) install_body_sink();
  }
}

std::string_view server_connection::complete_head(std::string_view framing) {
  start_head(framing);
  return buffers->head;
}

void server_connection::write(std::span<const std::string_view> pieces) {
  write_all(piece_buffers{pieces});
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
  return x_.version();
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
std::string_view request::remote_address() const {
  return std::string_view(x_.peer_ip.data());
}
std::uint16_t request::remote_port() const {
  return x_.peer_port;
}
std::string request::remote_endpoint() const {
  const std::string_view ip = remote_address();
  if (ip.empty()) return {};
  const std::string port = std::to_string(remote_port());
  if (ip.find(':') != std::string_view::npos) return "[" + std::string(ip) + "]:" + port;
  return std::string(ip) + ":" + port;
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
byte_buffer& response::body() {
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

}  // namespace lather::http
