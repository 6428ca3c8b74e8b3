#include "systemd.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "lather/http/server.hpp"

namespace lather::http {

namespace detail {

void notify_service_manager(std::string_view state) noexcept {
  const char* path = std::getenv("NOTIFY_SOCKET");
  if (!path || (path[0] != '/' && path[0] != '@')) return;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  const std::size_t length = std::strlen(path);
  if (length >= sizeof addr.sun_path) return;
  std::memcpy(addr.sun_path, path, length);
  if (addr.sun_path[0] == '@') addr.sun_path[0] = '\0';  // abstract namespace
  const int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return;
  const auto size = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + length);
  (void)::sendto(fd, state.data(), state.size(), MSG_NOSIGNAL, reinterpret_cast<sockaddr*>(&addr),
                 size);
  ::close(fd);
}

}  // namespace detail

int systemd_listen_fd() {
  // sd_listen_fds(3): descriptors start at 3; LISTEN_PID names the process they are meant for
  // (a child that inherited the environment must not take them).
  constexpr int first_fd = 3;
  auto number = [](const char* text, long& value) {
    if (!text) return false;
    const char* end = text + std::strlen(text);
    auto [at, ec] = std::from_chars(text, end, value);
    return ec == std::errc{} && at == end;
  };
  long pid = 0, count = 0;
  if (!number(std::getenv("LISTEN_PID"), pid) || pid != static_cast<long>(::getpid())) return -1;
  if (!number(std::getenv("LISTEN_FDS"), count) || count < 1) return -1;
  int type = 0;
  socklen_t type_size = sizeof type;
  if (::getsockopt(first_fd, SOL_SOCKET, SO_TYPE, &type, &type_size) != 0 || type != SOCK_STREAM)
    return -1;
  ::fcntl(first_fd, F_SETFD, FD_CLOEXEC);
  return first_fd;
}

}  // namespace lather::http
