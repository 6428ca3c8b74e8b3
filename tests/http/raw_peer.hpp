// A raw-socket HTTP peer on loopback for client tests: it records each request's bytes exactly
// as sent and answers with a canned response; it can also drop a connection the way a server
// closing an idle keep-alive connection does, to make the client retry.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace lather::http::test {

/// A listening TCP socket on 127.0.0.1 and an ephemeral port (returned in `port`), for peers
/// written with raw sockets; -1 if it could not be made.
inline int listen_on_loopback(std::uint16_t& port, int backlog = 4) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      ::listen(fd, backlog) != 0 || ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    if (fd >= 0) ::close(fd);
    return -1;
  }
  port = ntohs(a.sin_port);
  return fd;
}

/// Serves one connection after another, recording every request's bytes and answering each
/// with `response`. With `answers_per_connection` > 0, the request after that many on one
/// connection is read whole, recorded and then dropped by closing the connection unanswered
/// (as a server closes an idle keep-alive connection just as the client reuses it). Chunked
/// bodies must be made of 'x' (the chunked end is found by its terminator).
class raw_peer {
 public:
  static constexpr std::string_view empty_ok = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";

  explicit raw_peer(std::string response = std::string(empty_ok),
                    unsigned answers_per_connection = 0)
      : response_(std::move(response)), answers_per_connection_(answers_per_connection) {
    listener_ = listen_on_loopback(port_);
    thread_ = std::thread([this] {
      for (int fd; (fd = ::accept(listener_, nullptr, nullptr)) >= 0;) serve(fd);
    });
  }
  ~raw_peer() {
    ::shutdown(listener_, SHUT_RDWR);
    ::close(listener_);
    thread_.join();
  }
  raw_peer(const raw_peer&) = delete;
  raw_peer& operator=(const raw_peer&) = delete;

  std::uint16_t port() const { return port_; }
  std::string last_request() {
    std::lock_guard lock(mutex_);
    return requests_.empty() ? std::string() : requests_.back();
  }
  std::vector<std::string> requests() {
    std::lock_guard lock(mutex_);
    return requests_;
  }

 private:
  void serve(int fd) {
    timeval tv{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    std::string in;
    char buf[65536];
    for (unsigned answered = 0;; ++answered) {
      std::size_t head_end, request_end = std::string::npos;
      while (request_end == std::string::npos) {
        head_end = in.find("\r\n\r\n");
        if (head_end != std::string::npos) {
          std::string head = in.substr(0, head_end);
          auto cl = head.find("Content-Length: ");
          if (head.find("Transfer-Encoding: chunked") != std::string::npos) {
            auto t = in.find("\r\n0\r\n\r\n", head_end);
            if (t != std::string::npos)
              request_end = t + 7;
            else if (in.compare(head_end + 4, 5, "0\r\n\r\n") == 0)
              request_end = head_end + 9;
          } else if (cl != std::string::npos) {
            std::size_t n = std::stoul(head.substr(cl + 16));
            if (in.size() >= head_end + 4 + n) request_end = head_end + 4 + n;
          } else {
            request_end = head_end + 4;
          }
        }
        if (request_end != std::string::npos) break;
        ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0) {
          ::close(fd);
          return;
        }
        in.append(buf, static_cast<std::size_t>(n));
      }
      {
        std::lock_guard lock(mutex_);
        requests_.push_back(in.substr(0, request_end));
      }
      in.erase(0, request_end);
      if (answers_per_connection_ > 0 && answered == answers_per_connection_) {
        ::close(fd);
        return;
      }
      ::send(fd, response_.data(), response_.size(), MSG_NOSIGNAL);
    }
  }
  std::string response_;
  unsigned answers_per_connection_;
  int listener_;
  std::uint16_t port_ = 0;
  std::thread thread_;
  std::mutex mutex_;
  std::vector<std::string> requests_;
};

}  // namespace lather::http::test
