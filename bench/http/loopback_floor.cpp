// lather-loopback-floor: the kernel's loopback TCP cost per call, with no HTTP, XML or SOAP.
// A trivial echo with the same shape as an echoComplexTypeDoc call at PacketSize 1: each of
// T client threads owns one blocking connection and sends a REQ-byte message, the server (S
// epoll threads, connections spread round-robin, one read and one write per message) answers
// with RESP bytes. What it reaches is the ceiling for any stack on the same machine and
// sockets; lather's calls/s divided by it is the share the kernel leaves to user space.
// With --client-threads C the T connections are multiplexed on C epoll threads instead (one
// message in flight per connection), the way lather-bench --client-threads runs its clients.
// It also prints the process's CPU time per call (user+sys, clients and servers together).
// --server-spin-us / --client-spin-us poll (non-blocking epoll_wait / recv) that long for the
// next message before sleeping, with sched_yield between polls under --spin-yield 1: what a
// wake-up per message costs with one call in flight (docs/http.md, "Spinning before sleeping").
//
//   lather-loopback-floor [--threads T] [--client-threads C] [--server-threads S] [--time SEC]
//                         [--req N] [--resp N] [--server-spin-us US] [--client-spin-us US]
//                         [--spin-yield 0|1]   (--help)
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "command_line.hpp"

namespace {

struct options {
  unsigned threads = 16, client_threads = 0, server_threads = 2;  // 0: a thread per client
  double seconds = 5;
  std::size_t request = 2150, response = 2190;  // PacketSize 1 call, HTTP head included
  // Poll this long (non-blocking) for the next message before sleeping: 0 = sleep at once.
  std::chrono::microseconds server_spin{0}, client_spin{0};
  bool spin_yield = false;  // sched_yield between polls
};

using spin_clock = std::chrono::steady_clock;

// Bytes of the current request seen on a server connection (fits epoll_event's u64).
struct server_conn {
  int fd;
  std::size_t got = 0;
};

void serve(int epfd, const options& o, const std::atomic<bool>& stop) {
  std::vector<char> buf(64 * 1024), reply(o.response, 'r');
  epoll_event events[64];
  while (!stop.load(std::memory_order_relaxed)) {
    int n = 0;
    if (o.server_spin.count() > 0) {
      const auto until = spin_clock::now() + o.server_spin;
      do {
        n = ::epoll_wait(epfd, events, 64, 0);
        if (n == 0 && o.spin_yield) ::sched_yield();
      } while (n == 0 && spin_clock::now() < until);
    }
    if (n == 0) n = ::epoll_wait(epfd, events, 64, 100);
    for (int i = 0; i < n; ++i) {
      auto* c = static_cast<server_conn*>(events[i].data.ptr);
      ssize_t r = ::recv(c->fd, buf.data(), buf.size(), MSG_DONTWAIT);
      if (r <= 0) {
        if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
          ::epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, nullptr);
          ::close(c->fd);
          delete c;
        }
        continue;
      }
      c->got += static_cast<std::size_t>(r);
      while (c->got >= o.request) {
        c->got -= o.request;
        if (::send(c->fd, reply.data(), reply.size(), MSG_NOSIGNAL) < 0) break;
      }
    }
  }
}

// Client connections multiplexed on one thread: each sends a request, waits (epoll, level
// triggered) for the whole response, sends the next; `mine` counts completed calls.
struct client_conn {
  int fd;
  std::size_t got = 0;
};

void client_loop(const std::vector<int>& fds, const options& o, const std::atomic<bool>& stop,
                 std::atomic<std::uint64_t>& calls, std::atomic<std::uint64_t>& failures) {
  int epfd = ::epoll_create1(0);
  std::vector<client_conn> conns;
  conns.reserve(fds.size());
  std::vector<char> request(o.request, 'q'), buf(64 * 1024);
  for (int fd : fds) {
    conns.push_back({fd});
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.ptr = &conns.back();
    ::epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
    if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) < 0) failures.fetch_add(1);
  }
  std::uint64_t mine = 0;
  std::size_t outstanding = conns.size();
  epoll_event events[256];
  // After stop, no new requests: wait for the answers in flight so the servers end cleanly.
  while (outstanding > 0) {
    int n = ::epoll_wait(epfd, events, 256, 100);
    for (int i = 0; i < n; ++i) {
      auto* c = static_cast<client_conn*>(events[i].data.ptr);
      ssize_t r = ::recv(c->fd, buf.data(), buf.size(), MSG_DONTWAIT);
      if (r <= 0) {
        if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
          failures.fetch_add(1);
          ::epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, nullptr);
          --outstanding;
        }
        continue;
      }
      c->got += static_cast<std::size_t>(r);
      if (c->got < o.response) continue;
      c->got -= o.response;
      if (stop.load(std::memory_order_relaxed)) {
        --outstanding;
        continue;
      }
      ++mine;
      if (::send(c->fd, request.data(), request.size(), MSG_NOSIGNAL) < 0) {
        failures.fetch_add(1);
        --outstanding;
      }
    }
  }
  calls.fetch_add(mine);
  for (int fd : fds) ::close(fd);
  ::close(epfd);
}

double cpu_seconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  long server_spin_us = 0, client_spin_us = 0;
  int spin_yield = 0;
  lather::tools::command_line cli{
      "lather-loopback-floor",
      "The kernel's loopback TCP cost per call, with no HTTP, XML or SOAP: T client threads,\n"
      "one blocking connection each, REQ-byte requests answered with RESP bytes by S epoll\n"
      "server threads, for SEC seconds (see the header of bench/http/loopback_floor.cpp)."};
  cli.add_option("--threads", o.threads, "client connections T (default 16)")->type_name("T");
  cli.add_option("--client-threads", o.client_threads,
                 "multiplex the T connections on C epoll threads (default 0:\n"
                 "a thread per connection)")
      ->type_name("C");
  cli.add_option("--server-threads", o.server_threads, "server epoll threads (default 2)")
      ->type_name("S");
  cli.add_option("--time", o.seconds, "timed window (default 5)")->type_name("SEC");
  cli.add_option("--req", o.request, "request bytes (default 2150)")->type_name("N");
  cli.add_option("--resp", o.response, "response bytes (default 2190)")->type_name("N");
  cli.add_option("--server-spin-us", server_spin_us,
                 "server threads poll that long for the next message (default 0)")
      ->type_name("US");
  cli.add_option("--client-spin-us", client_spin_us,
                 "client threads poll that long for the answer (default 0)")
      ->type_name("US");
  cli.add_option("--spin-yield", spin_yield, "sched_yield between polls (default 0)")
      ->type_name("0|1");
  cli.parse_or_exit(argc, argv);
  if (o.threads == 0 || o.server_threads == 0)
    cli.fail("--threads and --server-threads must be >= 1");
  if (o.seconds <= 0) cli.fail("--time must be > 0");
  if (server_spin_us < 0 || client_spin_us < 0) cli.fail("spin budgets must be >= 0");
  o.server_spin = std::chrono::microseconds(server_spin_us);
  o.client_spin = std::chrono::microseconds(client_spin_us);
  o.spin_yield = spin_yield != 0;
  int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(listener, 4096) != 0 ||
      ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    std::perror("listen");
    return 1;
  }
  std::atomic<bool> stop{false}, go{false}, servers_stop{false};
  std::vector<int> epolls;
  std::vector<std::thread> servers;
  for (unsigned s = 0; s < o.server_threads; ++s) epolls.push_back(::epoll_create1(0));

  std::atomic<std::uint64_t> calls{0}, failures{0};
  std::atomic<unsigned> connected{0};
  std::vector<std::thread> clients;
  // Multiplexed: connect every client here (the backlog completes the handshakes), then hand
  // connection t to client thread t % C.
  std::vector<std::vector<int>> groups(o.client_threads);
  for (unsigned t = 0; o.client_threads > 0 && t < o.threads; ++t) {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      std::perror("connect");
      return 1;
    }
    groups[t % o.client_threads].push_back(fd);
    connected.fetch_add(1);
  }
  for (const auto& fds : groups) {
    clients.emplace_back([&, &fds = fds] {
      while (!go.load()) std::this_thread::yield();
      client_loop(fds, o, stop, calls, failures);
    });
  }
  for (unsigned t = 0; o.client_threads == 0 && t < o.threads; ++t) {
    clients.emplace_back([&] {
      int fd = ::socket(AF_INET, SOCK_STREAM, 0);
      int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        failures.fetch_add(1);
        connected.fetch_add(1);
        return;
      }
      connected.fetch_add(1);
      std::vector<char> request(o.request, 'q'), buf(64 * 1024);
      while (!go.load()) std::this_thread::yield();
      std::uint64_t mine = 0;
      while (!stop.load(std::memory_order_relaxed)) {
        if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) < 0) break;
        std::size_t got = 0;
        while (got < o.response) {
          ssize_t r = -1;
          errno = EAGAIN;
          if (o.client_spin.count() > 0) {
            const auto until = spin_clock::now() + o.client_spin;
            do {
              r = ::recv(fd, buf.data(), buf.size(), MSG_DONTWAIT);
              if (r < 0 && errno == EAGAIN && o.spin_yield) ::sched_yield();
            } while (r < 0 && errno == EAGAIN && spin_clock::now() < until);
          }
          if (r < 0 && errno == EAGAIN) r = ::recv(fd, buf.data(), buf.size(), 0);
          if (r <= 0) {
            failures.fetch_add(1);
            ::close(fd);
            return;
          }
          got += static_cast<std::size_t>(r);
        }
        ++mine;
      }
      calls.fetch_add(mine);
      ::close(fd);
    });
  }
  for (unsigned i = 0; i < o.threads; ++i) {
    int fd = ::accept(listener, nullptr, nullptr);
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.ptr = new server_conn{fd};
    ::epoll_ctl(epolls[i % epolls.size()], EPOLL_CTL_ADD, fd, &ev);
  }
  while (connected.load() < o.threads) std::this_thread::yield();
  for (int epfd : epolls)
    servers.emplace_back([&o, &servers_stop, epfd] { serve(epfd, o, servers_stop); });
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds();
  go = true;
  std::this_thread::sleep_for(std::chrono::duration<double>(o.seconds));  // the timed window
  stop = true;
  for (auto& c : clients) c.join();
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu = cpu_seconds() - cpu_start;
  servers_stop = true;  // only now: a client may still wait for its last answer above
  for (auto& s : servers) s.join();
  std::printf(
      "loopback floor: %u clients on %u threads, %u server threads, %zu/%zu bytes: %.0f calls/s,"
      " %.1f us CPU per call (%llu calls, %llu failures)\n",
      o.threads, o.client_threads ? o.client_threads : o.threads, o.server_threads, o.request,
      o.response, double(calls.load()) / elapsed,
      calls.load() ? cpu * 1e6 / double(calls.load()) : 0.0,
      static_cast<unsigned long long>(calls.load()),
      static_cast<unsigned long long>(failures.load()));
  return failures.load() == 0 ? 0 : 1;
}
