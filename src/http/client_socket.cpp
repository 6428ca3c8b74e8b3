// A client call's socket I/O. Plain TCP is plain sockets: a non-blocking connect waited for
// with poll (or the caller's wait_socket hook), then a blocking socket with
// SO_SNDTIMEO/SO_RCVTIMEO no later than the deadline, so a call is one sendmsg and one recv,
// and a connection holds one descriptor. A TLS connection runs asio operations on its own
// io_context from the calling thread (run_io), so every read and write has an exact deadline.
#include "client_call.hpp"

namespace lather::http::detail {

client_call::io_deadline client_call::next_deadline() const {
  auto io = clock_type::now() + cl.opts.io_timeout;
  return io < call_deadline ? io_deadline{io, errc::io_timeout}
                            : io_deadline{call_deadline, errc::call_timeout};
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
    const auto outcome = spin_for(budget.current(), [&] {
      n = ::recv(fd, dest, capacity, MSG_DONTWAIT);
      return n >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
    });
    learn = counted_spin(outcome);
    if (outcome == spin_outcome::found) return n;
  }
  ssize_t n = ::recv(fd, dest, capacity, 0);
  if (learn) budget.waited(spin_clock::now() - waiting_since);
  return n;
}

/// TLS: recv_spinning's rule for the connection's io_context, before run_io blocks in its
/// epoll_wait: with a spin budget, run what is ready, then poll for up to the budget. True =
/// the budget learns from how long the whole wait takes (not when it ended at once, in the
/// spin, or after contention).
bool client_call::spin_io(asio::io_context& ctx, const bool& done) {
  spin_budget& budget = c.spin;
  if (budget.current() <= spin_clock::duration::zero() || !machine_has_idle_cpu(spin_clock::now()))
    return true;  // blocks at once: learn
  ctx.poll();
  if (done || ctx.stopped()) return false;  // no wait at all (the bytes were there)
  return counted_spin(spin_for(budget.current(), [&] {
    ctx.poll();
    return done || ctx.stopped();
  }));
}

/// Counts a spin's outcome in the client's stats. False = the budget does not learn from this
/// wait: the spin caught the answer, or another thread wanted the CPU (the wait then says more
/// about the CPU than about the server, and spinning stops until waits are short again).
bool client_call::counted_spin(spin_outcome outcome) {
  if (outcome == spin_outcome::found) {
    cl.spins_found.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  if (outcome != spin_outcome::machine_busy)
    cl.spins_gave_up.fetch_add(1, std::memory_order_relaxed);
  if (outcome == spin_outcome::contended) {
    c.spin.contended();
    return false;
  }
  return true;
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
    if (cl.sessions) cl.sessions->offer(c.tls->stream.native_handle());
    run_io(d, ec, [&](auto&& done) {
      c.tls->stream.async_handshake(asio::ssl::stream_base::client,
                                    [done](const sys_error& e) { done(e, 0); });
    });
    if (ec) {
      c.close_socket();
      throw error(errc::tls_failed,
                  "TLS handshake with " + cl.url.host + ":" + cl.url.port + ": " + ec.message());
    }
    cl.tls_handshakes.fetch_add(1, std::memory_order_relaxed);
    if (SSL_session_reused(c.tls->stream.native_handle()))
      cl.tls_resumed.fetch_add(1, std::memory_order_relaxed);
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

}  // namespace lather::http::detail
