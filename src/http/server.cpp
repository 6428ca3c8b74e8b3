// HTTP/1.1 server: the worker threads (one io_context each, spinning briefly before they
// sleep), accepting connections, run() and its signals, stop() (the drain) and server::await.
// A connection's requests are served in server_connection.cpp.
#include "server_connection.hpp"

#include <signal.h>
#include <sys/socket.h>

#include <boost/asio/signal_set.hpp>
#include <cerrno>
#include <limits>
#include <new>
#include <utility>

#include "systemd.hpp"

namespace lather::http {

using detail::current_connection;
using detail::route_entry;
using detail::worker;
using detail::yield_type;

namespace {

// Coroutines run on their worker's io_context executor directly. asio::spawn(executor) would
// wrap it in a strand, a lock per completion that buys nothing with one thread per context.
void coroutine_done() {}

}  // namespace

/// The worker's event loop. With a spin budget, a worker that ran out of ready handlers polls
/// (non-blocking epoll_wait) for up to the adaptive budget before it blocks in epoll_wait, so a
/// request that comes soon after the last completion finds it awake (see spin.hpp). Spinning
/// starts only after handlers ran: a server without traffic blocks.
void detail::worker::run(std::chrono::microseconds spin) {
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

// ---- server ----

namespace {

/// Runs `fn` when destroyed unless disarmed. It travels inside a handler that asio may destroy
/// without calling it when asio itself runs out of memory: the exception then surfaces from
/// io_context::run in the worker's loop, far from whoever started the operation, and this is
/// how the operation's owner still hears of it.
template <class Fn>
class unless_called {
 public:
  explicit unless_called(Fn fn) : fn_(std::move(fn)) {}
  unless_called(unless_called&& o) noexcept
      : fn_(std::move(o.fn_)), armed_(std::exchange(o.armed_, false)) {}
  unless_called& operator=(unless_called&&) = delete;
  ~unless_called() {
    if (armed_) fn_();
  }
  void disarm() { armed_ = false; }

 private:
  Fn fn_;
  bool armed_ = true;
};

}  // namespace

void server::impl::accept_next() {
  worker& w = *workers[next_worker];
  next_worker = (next_worker + 1) % workers.size();
  // Lost (the accepted socket could not be set up): the listener's loop accepts again, else
  // it would never accept again.
  unless_called lost{[this] { accept_lost = true; }};
  acceptor->async_accept(
      w.ctx, [this, &w, lost = std::move(lost)](const sys_error& ec, tcp::socket socket) mutable {
        lost.disarm();
        on_accept(ec, std::move(socket), w);
      });
}

void server::impl::on_accept(const sys_error& ec, tcp::socket socket, worker& w) {
  if (ec) {
    if (ec == asio::error::operation_aborted || stopping.load()) return;
    // Out of descriptors or similar: back off briefly instead of spinning.
    auto pause = std::make_shared<asio::steady_timer>(*listener, std::chrono::milliseconds(50));
    pause->async_wait([this, pause](const sys_error&) {
      if (!stopping.load()) accept_next();
    });
    return;
  }
  serve(std::move(socket), w);
  if (stopping.load()) return;
  // The rest of the queue now: accepting one connection per turn of an event loop left
  // connections waiting in the listen queue behind all the work queued there (when the loop
  // was a busy worker's, until their clients gave up).
  const sys_error queue_end = take_queue(accept_batch);
  if (queue_end && queue_end != asio::error::would_block && queue_end != asio::error::try_again)
    return on_accept(queue_end, tcp::socket(w.ctx), w);  // the same back-off
  accept_next();
}

/// A new connection for `w` (on the listener's thread): handed to `w`, or refused at once past
/// max_connections. Accepted while stopping, it answers its request 503
/// (server_connection::refuse_requests).
void server::impl::serve(tcp::socket socket, worker& w) {
  sys_error ignored;
  socket.set_option(tcp::no_delay(true), ignored);
  connections_total.fetch_add(1, std::memory_order_relaxed);
  if (open_connections.load(std::memory_order_relaxed) >= opts.max_connections)
    return reject(std::move(socket));
  // Counted here, so that a drain waits for the connections it took from the queue.
  open_connections.fetch_add(1, std::memory_order_relaxed);
  // Set up on the worker's thread, so what a connection allocates comes from that thread's
  // malloc arena. Here are allocated only the reactor's records of the sockets, which asio
  // keeps for reuse for good: between a burst of connections' freed state they kept ~3 KB of
  // pages each resident after the connections closed.
  bool first = false;
  try {
    std::lock_guard lock(w.handoff_mutex);
    first = w.handed.empty();
    w.handed.push_back(std::move(socket));
  } catch (...) {
    connection_closed();  // out of memory: the connection closes
    return;
  }
  if (!first) return;  // the worker has yet to take the others: these too
  try {
    asio::post(w.ctx, [this, &w] { start_handed(w); });
  } catch (...) {
    // Out of memory: nothing will take them; they close (this thread alone hands over).
    std::lock_guard lock(w.handoff_mutex);
    for (; !w.handed.empty(); w.handed.pop_back()) connection_closed();
  }
}

/// On `w`'s thread: the connections handed to it.
void server::impl::start_handed(worker& w) {
  {
    std::lock_guard lock(w.handoff_mutex);
    w.handed.swap(w.taking);
  }
  for (tcp::socket& socket : w.taking) start_connection(std::move(socket), w);
  w.taking.clear();
}

/// On `w`'s thread: the connection and its coroutine.
void server::impl::start_connection(tcp::socket socket, worker& w) {
  // Out of memory setting up the connection or its coroutine (the spawned function destroyed
  // uncalled: run() never began): the connection closes.
  bool handed_over = false;
  try {
    auto c = std::make_shared<detail::server_connection>(*this, w, std::move(socket));
    unless_called dropped{[this] { connection_closed(); }};
    handed_over = true;
    asio::spawn(
        asio::bind_executor(w.ctx.get_executor(), &coroutine_done),
        [c, dropped = std::move(dropped)](yield_type y) mutable {
          dropped.disarm();
          c->run(y);
        },
        boost::coroutines::attributes(opts.coroutine_stack));
  } catch (...) {
    if (!handed_over) connection_closed();
  }
}

/// Accepts what the listen queue holds now, without waiting, up to `most` connections, each
/// served or (past max_connections) refused by serve(). Returns the error that ended it
/// (would_block: the queue is empty); none when `most` were taken.
sys_error server::impl::take_queue(std::size_t most) {
  sys_error ec;
  if (!acceptor->non_blocking()) acceptor->non_blocking(true, ec);  // async_accept is unaffected
  for (std::size_t taken = 0; !ec && taken < most; ++taken) {
    worker& w = *workers[next_worker];
    tcp::socket socket(w.ctx);
    acceptor->accept(socket, ec);
    if (ec) break;
    next_worker = (next_worker + 1) % workers.size();  // only once a connection came
    serve(std::move(socket), w);
  }
  return ec;
}

/// The connections the kernel completed for this listener and nobody accepted yet: closing
/// the listener would reset them, so a drain takes them first (each gets a 503).
void server::impl::accept_queued() {
  if (!acceptor || !acceptor->is_open()) return;
  take_queue(std::numeric_limits<std::size_t>::max());
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
  // the TLS context and routes they refer to; a pending accept (which names a worker's
  // io_context) before them.
  impl_->acceptor.reset();
  impl_->listener.reset();
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
  if (s.opts.tune_allocator) detail::tune_allocator();
  if (s.opts.auth)
    s.expected_credentials = wire::base64_encode(s.opts.auth->user + ":" + s.opts.auth->password);
  try {
    if (s.opts.tls) {
      const tls_options& t = *s.opts.tls;
      s.tls.emplace(asio::ssl::context::tls_server);
      s.tls->set_options(asio::ssl::context::default_workarounds);
      detail::set_tls_versions(*s.tls, t);
      s.ticket_keys.emplace(*s.tls, t);
      s.tls->use_certificate_chain_file(t.cert_file);
      s.tls->use_private_key_file(t.key_file, asio::ssl::context::pem);
      if (!t.ca_file.empty()) {
        s.tls->load_verify_file(t.ca_file);
        s.tls->set_verify_mode(asio::ssl::verify_peer | asio::ssl::verify_fail_if_no_peer_cert);
      }
    }
    s.listener.emplace(1);
    s.acceptor.emplace(*s.listener);
    if (s.opts.listen_fd >= 0) {
      sockaddr_storage address{};
      socklen_t size = sizeof address;
      if (::getsockname(s.opts.listen_fd, reinterpret_cast<sockaddr*>(&address), &size) != 0)
        throw boost::system::system_error(errno, boost::system::system_category(), "listen_fd");
      s.acceptor->assign(address.ss_family == AF_INET6 ? tcp::v6() : tcp::v4(), s.opts.listen_fd);
      wire::raise_receive_buffer(s.acceptor->native_handle(), s.opts.receive_buffer);
    } else {
      tcp::endpoint ep{asio::ip::make_address(s.opts.address), s.opts.port};
      s.acceptor->open(ep.protocol());
      s.acceptor->set_option(tcp::acceptor::reuse_address(true));
      if (s.opts.reuse_port) {
        const int on = 1;
        if (::setsockopt(s.acceptor->native_handle(), SOL_SOCKET, SO_REUSEPORT, &on, sizeof on))
          throw boost::system::system_error(errno, boost::system::system_category(),
                                            "SO_REUSEPORT");
      }
      wire::raise_receive_buffer(s.acceptor->native_handle(), s.opts.receive_buffer);
      s.acceptor->bind(ep);
      s.acceptor->listen(asio::socket_base::max_listen_connections);
    }
    s.bound_port = s.acceptor->local_endpoint().port();
  } catch (const boost::system::system_error& e) {
    // Not started: no thread runs the workers, so stop() must not wait on them.
    s.acceptor.reset();
    s.listener.reset();
    s.workers.clear();
    s.started = false;
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
          // A handler outside any connection threw (out of memory inside asio); keep serving.
        }
      }
    });
  }
  // The listener's own thread (it sleeps in epoll_wait between connections): a connection
  // waits for no worker's queue to be accepted, and the reactor's per-socket records are
  // allocated away from the connections' own state (serve).
  s.listener_thread = std::thread([&s] {
    auto guard = asio::make_work_guard(*s.listener);
    for (;;) {
      try {
        if (s.accept_lost.exchange(false) && !s.stopping.load()) s.accept_next();
        s.listener->run();
        return;
      } catch (...) {
        // Out of memory inside asio; accept again.
      }
    }
  });
}

std::uint16_t server::port() const {
  return impl_->bound_port;
}

void server::run() {
  impl& s = *impl_;
  s.notify_service_manager = true;
  start();
  detail::notify_service_manager("READY=1");
  auto wait_stopped = [&s] {
    std::unique_lock lock(s.state_mutex);
    s.state_changed.wait(lock, [&] { return s.stopped.load(); });
  };
  if (!s.opts.stop_on_signals) return wait_stopped();
  // The signal's handler only wakes this io_context; stop() then runs here, on run()'s
  // thread. A stop() from elsewhere ends the wait for signals.
  asio::io_context signal_context;
  asio::signal_set signals(signal_context, SIGINT, SIGTERM);
  signals.async_wait([this](const sys_error& ec, int) {
    if (!ec) stop();
  });
  std::thread watcher([&] {
    wait_stopped();
    asio::post(signal_context, [&signals] {
      sys_error ignored;
      signals.cancel(ignored);
    });
  });
  signal_context.run();
  watcher.join();
}

bool server::draining() const noexcept {
  return impl_->draining.load();
}

void server::stop() {
  impl& s = *impl_;
  if (!s.started) return;
  std::call_once(s.stop_once, [&s] {
    if (s.notify_service_manager) detail::notify_service_manager("STOPPING=1");
    if (s.opts.drain_delay.count() > 0) {
      // Unready first; the balancer's next checks see it while calls are still served.
      s.draining = true;
      std::this_thread::sleep_for(s.opts.drain_delay);
    }
    s.draining = true;
    // The listener closes first (after its queue is taken), and only then do responses say
    // Connection: close and idle connections close: their clients reconnect elsewhere (a new
    // process on the port), never to this listener's queue.
    asio::post(*s.listener, [&s] {
      s.refusing = true;
      s.accept_queued();
      sys_error ignored;
      if (s.acceptor) s.acceptor->close(ignored);
      s.stopping = true;
      {
        std::lock_guard lock(s.state_mutex);
        s.listener_closed = true;
      }
      s.state_changed.notify_all();
      // Idle connections close now; busy ones close after their current response.
      for (auto& w : s.workers) {
        asio::post(w->ctx, [wp = w.get()] {
          for (auto* c = wp->connections; c; c = c->next)
            if (c->idle && !c->refuse_requests) c->close_socket();
        });
      }
    });
    auto deadline = clock_type::now() + s.opts.shutdown_deadline;
    {
      std::unique_lock lock(s.state_mutex);
      s.state_changed.wait_until(
          lock, deadline, [&] { return s.listener_closed && s.open_connections.load() == 0; });
    }
    s.stopping = true;  // also when the listener's thread never got to it
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
    s.listener->stop();
    if (s.listener_thread.joinable()) s.listener_thread.join();
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
  st.tls_handshakes = impl_->tls_handshakes.load();
  st.tls_resumed = impl_->tls_resumed.load();
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
