// HTTP/1.1 client. A call checks a pooled connection out and drives it from the calling
// thread: the request is written through the framer (Content-Length or chunked by the
// threshold), the response parsed as it arrives, the connection given back for reuse. The
// socket I/O under it (connect, send, receive, deadlines) is in client_socket.cpp.
#include "client_call.hpp"

namespace lather::http {

using namespace std::string_view_literals;  // appends of literals without a strlen

namespace detail {

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

}  // namespace detail

namespace {

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
  run_io(
      next_deadline(), ec, [&](auto&& done) { asio::async_write(c.tls->stream, b, done); }, false);
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
  if (cl.opts.on_request_head) cl.opts.on_request_head(h);
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
    if (cl.opts.on_request_head) cl.opts.on_request_head(h);
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
std::size_t response_head::header_count() const {
  return call_ ? call_->c.response_head.field_count() : 0;
}
std::pair<std::string_view, std::string_view> response_head::header_at(std::size_t i) const {
  if (!call_ || i >= call_->c.response_head.field_count()) return {};
  return call_->c.response_head.field_at(i);
}
std::string_view response_head::reason() const {
  return call_ ? call_->parser->reason() : std::string_view{};
}
unsigned response_head::version() const {
  return call_ ? call_->parser->version() : 11;
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
    } catch (const detail::stale_connection& s) {
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
  async_run([this, target = std::move(target), headers = std::move(headers),
             write_body = std::move(write_body), read_body = std::move(read_body),
             done = std::move(done)] {
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

void client::async_run(std::function<void()> task) {
  std::call_once(impl_->async_once, [this] {
    impl_->async_pool =
        std::make_unique<asio::thread_pool>(std::max(1u, impl_->opts.async_threads));
  });
  asio::post(*impl_->async_pool, std::move(task));
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
  st.tls_handshakes = impl_->tls_handshakes.load(std::memory_order_relaxed);
  st.tls_resumed = impl_->tls_resumed.load(std::memory_order_relaxed);
  std::lock_guard lock(impl_->pool_mutex);
  st.connections_idle = impl_->idle.size();
  return st;
}

}  // namespace lather::http
