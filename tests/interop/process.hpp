// Child processes for the interop tests: started by us, stopped by us, by PID (and process
// group), never by name.  Plus loopback port helpers.
#pragma once

#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace interop_test {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

class Process {
 public:
  // stdout goes to a pipe (read_output) or to `log`; stderr always goes to `log`.
  Process(const std::vector<std::string>& argv, const std::filesystem::path& log,
          bool capture_stdout) {
    std::vector<char*> args;
    for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    int out_pipe[2] = {-1, -1};
    if (capture_stdout && pipe2(out_pipe, O_CLOEXEC) != 0) return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (capture_stdout)
      posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
    else
      posix_spawn_file_actions_adddup2(&actions, 2, 1);
    // Its own process group, so a stop reaches whatever the peer itself started.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    if (posix_spawn(&pid_, args[0], &actions, &attr, args.data(), environ) != 0) pid_ = -1;
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    if (capture_stdout) {
      close(out_pipe[1]);
      stdout_fd_ = out_pipe[0];
    }
  }
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;
  ~Process() {
    stop();
    if (stdout_fd_ >= 0) close(stdout_fd_);
  }

  bool started() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }

  // Polling interval while waiting for a child to exit or a port to open.
  static void wait_a_little() { std::this_thread::sleep_for(20ms); }

  bool running() {
    if (pid_ <= 0 || exited_) return false;
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      exited_ = true;
      exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    return !exited_;
  }

  // The exit status once the process has exited by itself (-1 if a signal ended it or it has
  // not exited yet); waits at most until `deadline`.
  int exit_code(Clock::time_point deadline) {
    while (running() && Clock::now() < deadline) wait_a_little();
    return exited_ ? exit_code_ : -1;
  }

  // Reads stdout until EOF or the deadline; false on timeout.
  bool read_output(std::string& out, Clock::time_point deadline) {
    char buffer[65536];
    for (;;) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left <= 0ms) return false;
      pollfd fd{stdout_fd_, POLLIN, 0};
      const int ready = poll(&fd, 1, static_cast<int>(left.count()));
      if (ready < 0 && errno == EINTR) continue;
      if (ready <= 0) return false;
      const ssize_t n = read(stdout_fd_, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return true;
      out.append(buffer, static_cast<std::size_t>(n));
    }
  }

  // Reads one stdout line (without the newline); false on EOF or timeout.
  bool read_line(std::string& line, Clock::time_point deadline) {
    line.clear();
    for (;;) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left <= 0ms) return false;
      pollfd fd{stdout_fd_, POLLIN, 0};
      const int ready = poll(&fd, 1, static_cast<int>(left.count()));
      if (ready < 0 && errno == EINTR) continue;
      if (ready <= 0) return false;
      char c = 0;
      const ssize_t n = read(stdout_fd_, &c, 1);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      if (c == '\n') return true;
      line.push_back(c);
    }
  }

  // Waits for exit up to `grace`, then SIGKILLs the process group.
  void stop(std::chrono::milliseconds grace = 3000ms) {
    if (pid_ <= 0 || exited_) return;
    kill(-pid_, SIGTERM);
    const auto deadline = Clock::now() + grace;
    while (running() && Clock::now() < deadline) wait_a_little();
    if (running()) {
      kill(-pid_, SIGKILL);
      int status = 0;
      waitpid(pid_, &status, 0);
      exited_ = true;
    }
  }

 private:
  pid_t pid_ = -1;
  int stdout_fd_ = -1;
  bool exited_ = false;
  int exit_code_ = -1;
};

inline int free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  int port = -1;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
    port = ntohs(addr.sin_port);
  close(fd);
  return port;
}

inline bool port_accepts(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  const bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  close(fd);
  return ok;
}

// Polls the port until the server accepts; false if the server died or the deadline passed.
inline bool wait_for_port(Process& server, int port, Clock::time_point deadline) {
  while (Clock::now() < deadline) {
    if (!server.running()) return false;
    if (port_accepts(port)) return true;
    Process::wait_a_little();
  }
  return false;
}

}  // namespace interop_test
