// A blocking loopback socket for looking at the HTTP wire format byte by byte in tests.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

namespace lather::http::test {

/// What a response looked like on the wire.
struct wire_response {
  unsigned status = 0;
  std::string head;  // status line + headers, as received
  std::string body;  // de-chunked
  bool chunked = false;
  bool has_content_length = false;
  bool closed_after = false;  // body was delimited by the connection closing
  std::string header(std::string_view name) const {
    std::string lower_head, lower_name{name};
    for (char c : head) lower_head += char(std::tolower(static_cast<unsigned char>(c)));
    for (char& c : lower_name) c = char(std::tolower(static_cast<unsigned char>(c)));
    auto p = lower_head.find("\r\n" + lower_name + ":");
    if (p == std::string::npos) return {};
    p += 3 + lower_name.size();
    auto e = head.find("\r\n", p);
    std::string v = head.substr(p, e - p);
    while (!v.empty() && v.front() == ' ') v.erase(0, 1);
    return v;
  }
};

class raw_socket {
 public:
  explicit raw_socket(std::uint16_t port, int timeout_ms = 5000) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd_ < 0) throw std::runtime_error("socket");
    timeval tv{timeout_ms / 1000, (timeout_ms % 1000) * 1000};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    int one = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
      ::close(fd_);
      throw std::runtime_error("connect");
    }
  }
  ~raw_socket() {
    if (fd_ >= 0) ::close(fd_);
  }
  raw_socket(const raw_socket&) = delete;
  raw_socket& operator=(const raw_socket&) = delete;
  raw_socket(raw_socket&& o) noexcept : fd_(o.fd_), buffered_(std::move(o.buffered_)) {
    o.fd_ = -1;
  }

  /// False if the peer has closed (send fails).
  bool send(std::string_view data) {
    while (!data.empty()) {
      ssize_t n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
      if (n <= 0) return false;
      data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
  }
  void shutdown_write() { ::shutdown(fd_, SHUT_WR); }

  /// Read more bytes into the buffer; false on EOF / error / timeout.
  bool fill() {
    char buf[65536];
    ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
    if (n <= 0) return false;
    buffered_.append(buf, static_cast<std::size_t>(n));
    return true;
  }
  /// True if the server closed the connection (EOF or reset) with nothing more to read.
  bool closed_by_peer() {
    if (!buffered_.empty()) return false;
    char c;
    ssize_t n = ::recv(fd_, &c, 1, 0);
    if (n > 0) {
      buffered_.push_back(c);
      return false;
    }
    return n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
  }
  /// Everything until EOF.
  std::string read_all() {
    while (fill()) {
    }
    return std::exchange(buffered_, {});
  }

  /// Read one response; status 0 if the connection closed (or timed out) before a full head.
  wire_response read_response(bool head_request = false) {
    wire_response r;
    std::size_t end;
    while ((end = buffered_.find("\r\n\r\n")) == std::string::npos)
      if (!fill()) return r;
    r.head = buffered_.substr(0, end + 2);
    buffered_.erase(0, end + 4);
    r.status = static_cast<unsigned>(std::stoul(r.head.substr(9, 3)));
    if (r.status / 100 == 1) return r;
    std::string te = r.header("Transfer-Encoding"), cl = r.header("Content-Length");
    r.has_content_length = !cl.empty();
    if (head_request || r.status == 204 || r.status == 304) return r;
    if (te == "chunked") {
      r.chunked = true;
      for (;;) {
        std::size_t eol;
        while ((eol = buffered_.find("\r\n")) == std::string::npos)
          if (!fill()) return wire_response{};
        std::size_t size = std::stoul(buffered_.substr(0, eol), nullptr, 16);
        buffered_.erase(0, eol + 2);
        while (buffered_.size() < size + 2)
          if (!fill()) return wire_response{};
        if (size == 0) {  // no trailers from our server
          buffered_.erase(0, 2);
          return r;
        }
        r.body.append(buffered_, 0, size);
        buffered_.erase(0, size + 2);
      }
    }
    if (!cl.empty()) {
      std::size_t size = std::stoul(cl);
      while (buffered_.size() < size)
        if (!fill()) return wire_response{};
      r.body = buffered_.substr(0, size);
      buffered_.erase(0, size);
      return r;
    }
    r.closed_after = true;
    r.body = read_all();
    return r;
  }

  int fd() const { return fd_; }
  /// This end's port (the client's, as the server sees it).
  std::uint16_t local_port() const {
    sockaddr_in a{};
    socklen_t len = sizeof a;
    if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0) return 0;
    return ntohs(a.sin_port);
  }

 private:
  int fd_ = -1;
  std::string buffered_;
};

/// "POST <target> HTTP/1.1" with a Content-Length body.
inline std::string post_request(std::string_view target, std::string_view body,
                                std::string_view extra_headers = {}) {
  std::string r = "POST " + std::string(target) + " HTTP/1.1\r\nHost: t\r\n" +
                  std::string(extra_headers) + "Content-Length: " + std::to_string(body.size()) +
                  "\r\n\r\n";
  r += body;
  return r;
}

/// Connects to `port` until a connect fails (the listener has closed), for at most `wait`;
/// the connections made meanwhile close again at once. False if it still accepted.
/// Each accepted probe is a connection the server must still serve, so the probes back off
/// (1 ms doubling to 32 ms): a tight loop made ~1,600 of them under TSan on a loaded machine,
/// and a one-thread server spent its whole drain deadline on them.
inline bool wait_until_refused(std::uint16_t port, std::chrono::milliseconds wait) {
  const auto deadline = std::chrono::steady_clock::now() + wait;
  for (std::chrono::milliseconds pause{1};; pause = std::min(pause * 2, decltype(pause){32})) {
    try {
      raw_socket probe{port};
    } catch (const std::runtime_error&) {
      return true;
    }
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return false;
    std::this_thread::sleep_for(
        std::min<std::chrono::steady_clock::duration>(pause, deadline - now));
  }
}

}  // namespace lather::http::test
