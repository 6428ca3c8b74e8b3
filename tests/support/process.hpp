// tests/support/process.hpp — the one way tests and the peer benchmarks' tests run programs:
// a child started by us and stopped by us, by PID and process group, never by name; every wait
// bounded by a deadline. Plus test ports reserved across processes (free_port), a wait for a
// child to listen on one, and the parsing of the "listening on" and "RESULT k=v ..." lines the
// servers and benchmark clients print.
//
//   lather::test::listening_server server({bin + "/lather-perf-server", "--port", "0"});
//   ASSERT_NE(server.port, 0);                             // it printed "listening on ...:P"
//   auto [exit, out] = lather::test::run({"/usr/bin/curl", "-s", url}, clock::now() + 10s);
#pragma once

#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

extern char** environ;

namespace lather::test {

using clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

/// Where a child's stdout and stderr go.
struct process_options {
  /// stdout to a pipe the test reads (read_line, read_output); else to `log` (or inherited).
  bool capture_stdout = true;
  /// stderr (and stdout when not captured) appended to this file (fresh_log starts one for a
  /// test run); empty: inherited, and with capture_stdout stderr goes to the pipe too.
  std::filesystem::path log;
  /// The child's working directory; empty: the test's.
  std::filesystem::path working_directory;

  static process_options with_log(std::filesystem::path log) {
    process_options o;
    o.log = std::move(log);
    return o;
  }
  static process_options in_directory(std::filesystem::path dir) {
    process_options o;
    o.working_directory = std::move(dir);
    return o;
  }
};

/// `log` emptied for this run of the test that owns it (its directory made, an earlier run's
/// file removed), so that it holds this run's output alone. Children open their log in append
/// mode (process_options::log), and that stays: a test's server and client, or a server
/// started again on another port, share one log, each line landing after the last one written
/// instead of over another process's.
inline std::filesystem::path fresh_log(std::filesystem::path log) {
  std::error_code ignored;
  std::filesystem::create_directories(log.parent_path(), ignored);
  std::filesystem::remove(log, ignored);
  return log;
}

/// A child process in its own process group. The destructor stops it (SIGTERM to the group,
/// SIGKILL after a grace period) unless it has exited.
class process {
 public:
  explicit process(const std::vector<std::string>& argv, const process_options& options = {}) {
    std::vector<char*> args;
    for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    int out_pipe[2] = {-1, -1};
    if (options.capture_stdout && ::pipe2(out_pipe, O_CLOEXEC) != 0) return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (!options.log.empty())
      posix_spawn_file_actions_addopen(&actions, 2, options.log.c_str(),
                                       O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (options.capture_stdout) {
      posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
      if (options.log.empty()) posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 2);
    } else if (!options.log.empty()) {
      posix_spawn_file_actions_adddup2(&actions, 2, 1);
    }
    if (!options.working_directory.empty())
      posix_spawn_file_actions_addchdir_np(&actions, options.working_directory.c_str());
    // Its own process group, so a stop reaches whatever the child itself started.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    if (::posix_spawn(&pid_, args[0], &actions, &attr, args.data(), environ) != 0) pid_ = -1;
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    if (options.capture_stdout) {
      ::close(out_pipe[1]);
      stdout_fd_ = out_pipe[0];
    }
    // A descriptor that becomes readable when the child exits: waits poll it, no sleeps.
    if (pid_ > 0) exit_fd_ = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
  }
  /// The interop tests' form: stdout to a pipe (capture_stdout) or to `log`; stderr to `log`.
  process(const std::vector<std::string>& argv, const std::filesystem::path& log,
          bool capture_stdout)
      : process(argv, process_options{capture_stdout, log, {}}) {}
  process(const process&) = delete;
  process& operator=(const process&) = delete;
  ~process() {
    stop();
    if (stdout_fd_ >= 0) ::close(stdout_fd_);
    if (exit_fd_ >= 0) ::close(exit_fd_);
  }

  bool started() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }

  /// True until the child has exited (reaps it once it has).
  bool running() {
    if (pid_ <= 0 || exited_) return false;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      exited_ = true;
      exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    return !exited_;
  }

  /// The exit status once the child has exited by itself (-1 if a signal ended it or it has
  /// not exited by `deadline`).
  int exit_code(clock::time_point deadline) {
    while (running() && wait_for_exit(deadline)) {
    }
    return exited_ ? exit_code_ : -1;
  }

  /// Reads stdout until EOF or the deadline; false on timeout.
  bool read_output(std::string& out, clock::time_point deadline) {
    char buffer[65536];
    for (;;) {
      const ssize_t n = read_some(buffer, sizeof buffer, deadline);
      if (n == -2) return false;
      if (n <= 0) return true;
      out.append(buffer, static_cast<std::size_t>(n));
    }
  }

  /// Reads one stdout line (without the newline); false on EOF or timeout.
  bool read_line(std::string& line, clock::time_point deadline) {
    line.clear();
    for (;;) {
      char c = 0;
      if (read_some(&c, 1, deadline) <= 0) return false;
      if (c == '\n') return true;
      line.push_back(c);
    }
  }

  /// Waits for exit up to `grace` after SIGTERM to the group, then SIGKILLs the group.
  void stop(std::chrono::milliseconds grace = 3000ms) {
    if (pid_ <= 0 || !running()) return;
    ::kill(-pid_, SIGTERM);
    const auto deadline = clock::now() + grace;
    while (running() && wait_for_exit(deadline)) {
    }
    if (running()) {
      ::kill(-pid_, SIGKILL);
      int status = 0;
      ::waitpid(pid_, &status, 0);
      exited_ = true;
    }
  }

 private:
  // One read of at most `size` bytes: >0 bytes, 0 at EOF, -1 on error, -2 at the deadline.
  ssize_t read_some(char* buffer, std::size_t size, clock::time_point deadline) {
    for (;;) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - clock::now());
      if (left <= 0ms) return -2;
      pollfd fd{stdout_fd_, POLLIN, 0};
      const int ready = ::poll(&fd, 1, static_cast<int>(left.count()));
      if (ready < 0 && errno == EINTR) continue;
      if (ready < 0) return -1;
      if (ready == 0) return -2;
      const ssize_t n = ::read(stdout_fd_, buffer, size);
      if (n < 0 && errno == EINTR) continue;
      return n;
    }
  }
  // Blocks until the child may have exited or the deadline passed; false at the deadline.
  bool wait_for_exit(clock::time_point deadline) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - clock::now());
    if (left <= 0ms) return false;
    if (exit_fd_ < 0) {  // no pidfd (kernel < 5.3): poll the status
      std::this_thread::sleep_for(std::min<std::chrono::milliseconds>(left, 20ms));
      return true;
    }
    pollfd fd{exit_fd_, POLLIN, 0};
    return ::poll(&fd, 1, static_cast<int>(left.count())) != 0 || clock::now() < deadline;
  }

  pid_t pid_ = -1;
  int stdout_fd_ = -1;
  int exit_fd_ = -1;
  bool exited_ = false;
  int exit_code_ = -1;
};

// Test ports. A test often has to choose a port for a server that cannot report the one it
// bound (PHP's built-in server, spyne, gSOAP peers, HAProxy): the port is chosen first, the
// server binds it later. A port the kernel gave out and took back (bind to port 0, close) is
// not safe in that gap: another test process may be given the same one, a server binding port 0
// may get it, a client's connect() may take it as its local port, and another test probing its
// own server may connect to ours. So a test port is:
//  - outside the kernel's ephemeral range (/proc/sys/net/ipv4/ip_local_port_range), from
//    10000 up: no bind(port 0) and no connect() is ever given it;
//  - reserved across processes for the life of the test process: an abstract Unix socket
//    named "lather-test-port-P" is bound (and never closed). Its scope is the network
//    namespace, the same as the port's; the kernel drops it when the process ends, however it
//    ends; no lock files, directories or TMPDIR to agree on. tests/wsdl/corpus/wsdl_corpus.py
//    reserves ports the same way, so C++ and Python tests share the scheme;
//  - bindable when reserved: nothing listens on it nor holds it in TIME_WAIT (bound on every
//    address without SO_REUSEADDR, so even a server that does not set it can bind it).
// A port is handed out once per process and stays reserved, so a test can restart a server
// on its port.

namespace detail {

// The ports free_port() chooses from: 10000-65535 outside the ephemeral range (all of them if
// the range covers everything, when only the reservations keep tests apart).
inline const std::vector<int>& test_port_candidates() {
  static const std::vector<int> ports = [] {
    int low = 32768, high = 60999;  // Linux's default range
    std::ifstream range("/proc/sys/net/ipv4/ip_local_port_range");
    if (int l = 0, h = 0; range >> l >> h) low = l, high = h;
    std::vector<int> out;
    for (int p = 10000; p <= 65535; ++p)
      if (p < low || p > high) out.push_back(p);
    if (out.empty())
      for (int p = 10000; p <= 65535; ++p) out.push_back(p);
    return out;
  }();
  return ports;
}

// Whether a listening server can bind `port` now: nothing is bound to it on any address.
inline bool port_bindable(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_ANY);
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return ok;
}

}  // namespace detail

/// Reserves `port` for this process: true if no process had reserved it (this one included)
/// and nothing is bound to it. The reservation lasts until the process exits.
inline bool reserve_port(int port) {
  const int lock = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (lock < 0) return false;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  const std::string name = "lather-test-port-" + std::to_string(port);
  name.copy(addr.sun_path + 1, name.size());  // sun_path[0] == 0: the abstract namespace
  const auto len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
  if (::bind(lock, reinterpret_cast<sockaddr*>(&addr), len) == 0 && detail::port_bindable(port))
    return true;  // `lock` stays open: the reservation
  ::close(lock);
  return false;
}

/// A loopback port for a server this test starts, reserved for this process (above); -1 if
/// none is left.
inline int free_port() {
  const std::vector<int>& ports = detail::test_port_candidates();
  const std::size_t start = std::random_device{}() % ports.size();
  for (std::size_t i = 0; i < ports.size(); ++i) {
    const int port = ports[(start + i) % ports.size()];
    if (reserve_port(port)) return port;
  }
  return -1;
}

inline bool port_accepts(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return ok;
}

/// Who listens on a loopback port, from /proc/net/tcp{,6} and the group's descriptors.
enum class port_listener { group, other, none };

/// Whether a process in process group `group` holds a socket listening on `port` (group),
/// only other processes do (other), or none does (none). Without /proc/net: group.
inline port_listener listener_of(int port, pid_t group) {
  std::vector<std::string> sockets;  // "socket:[inode]" of the listeners
  bool readable = false;
  for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
    std::ifstream in(table);
    if (!in) continue;
    readable = true;
    std::string line, slot, local, remote, state, queues, timer, retransmits, uid, timeout, inode;
    std::getline(in, line);  // the heading
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      if (!(fields >> slot >> local >> remote >> state >> queues >> timer >> retransmits >> uid >>
            timeout >> inode))
        continue;
      const auto colon = local.rfind(':');
      if (state == "0A" && colon != std::string::npos &&  // 0A: TCP_LISTEN
          std::strtol(local.c_str() + colon + 1, nullptr, 16) == port)
        sockets.push_back("socket:[" + inode + "]");
    }
  }
  if (!readable) return port_listener::group;
  if (sockets.empty()) return port_listener::none;
  // Each directory read with error codes: a process may exit while it is looked at.
  const auto each_entry = [](const std::filesystem::path& dir, const auto& visit) {
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
      if (visit(it->path())) return true;
    return false;
  };
  const bool found = each_entry("/proc", [&](const std::filesystem::path& proc) {
    const std::string pid = proc.filename();
    if (pid.find_first_not_of("0123456789") != std::string::npos) return false;
    std::ifstream stat(proc / "stat");
    const std::string text((std::istreambuf_iterator<char>(stat)), {});
    const auto paren = text.rfind(')');  // the command name may hold spaces and parentheses
    if (paren == std::string::npos) return false;
    std::istringstream after(text.substr(paren + 1));
    std::string state;
    pid_t parent = 0, process_group = 0;
    if (!(after >> state >> parent >> process_group) || process_group != group) return false;
    return each_entry(proc / "fd", [&](const std::filesystem::path& fd) {
      std::error_code ec;
      const std::string target = std::filesystem::read_symlink(fd, ec);
      return !ec && std::find(sockets.begin(), sockets.end(), target) != sockets.end();
    });
  });
  if (found) return port_listener::group;
  return port_listener::other;
}

/// For servers that print no "listening on" line (PHP's built-in server, spyne): retries a
/// connect until `server` (or a process it started) listens on `port`; false if it exited,
/// another process listens there (so `server` cannot bind it), or the deadline passed.
inline bool wait_for_port(process& server, int port, clock::time_point deadline) {
  while (clock::now() < deadline) {
    if (!server.running()) return false;
    if (port_accepts(port)) {
      const port_listener who = listener_of(port, server.pid());
      if (who == port_listener::group) return true;
      if (who == port_listener::other) {
        std::fprintf(stderr, "port %d: another process listens there, not pid %d\n", port,
                     static_cast<int>(server.pid()));
        return false;
      }
    }
    std::this_thread::sleep_for(20ms);
  }
  return false;
}

/// The port in a "listening on [scheme://]127.0.0.1:PORT[/path]" line; nullopt if none.
inline std::optional<int> banner_port(const std::string& banner) {
  const auto at = banner.find("127.0.0.1:");
  if (at == std::string::npos) return std::nullopt;
  int port = 0;
  std::size_t i = at + 10;
  for (; i < banner.size() && banner[i] >= '0' && banner[i] <= '9'; ++i)
    port = port * 10 + (banner[i] - '0');
  if (i == at + 10 || port == 0) return std::nullopt;
  return port;
}

/// The value of `key=` in a "RESULT k=v ..." line ("" if absent).
inline std::string result_field(const std::string& line, const std::string& key) {
  const auto at = line.find(" " + key + "=");
  if (at == std::string::npos) return {};
  const auto begin = at + key.size() + 2;
  return line.substr(begin, line.find_first_of(" \n", begin) - begin);
}

/// A program's exit status (-1: killed at the deadline or by a signal, or not started) and its
/// output.
struct run_result {
  int exit = -1;
  std::string out;
};

/// Runs a program to completion (killed at the deadline). Without a log its stdout and stderr
/// interleave in the output; with one, stderr goes to the log (emptied first) and is appended
/// to the output after stdout.
inline run_result run(const std::vector<std::string>& argv, clock::time_point deadline,
                      process_options options = {}) {
  options.capture_stdout = true;
  if (!options.log.empty()) std::filesystem::remove(options.log);
  run_result r;
  {
    process child(argv, options);
    if (!child.started()) return r;
    child.read_output(r.out, deadline);
    r.exit = child.exit_code(deadline);
  }
  if (!options.log.empty()) {
    std::ifstream err(options.log);
    r.out.append(std::istreambuf_iterator<char>(err), {});
  }
  return r;
}

/// A server started for a test that prints "listening on [scheme://]127.0.0.1:PORT..." once it
/// is ready: port is 0 when it did not within the wait.
struct listening_server {
  process child;
  int port = 0;
  std::string banner;  ///< the "listening on" line

  explicit listening_server(const std::vector<std::string>& argv,
                            const process_options& options = {},
                            std::chrono::seconds wait = std::chrono::seconds(30))
      : child(argv, options) {
    const auto deadline = clock::now() + wait;
    std::string line;
    while (child.read_line(line, deadline)) {
      if (line.find("listening on") == std::string::npos) continue;
      port = banner_port(line).value_or(0);
      banner = line;
      break;
    }
  }
  std::string url(std::string_view path = "") const {
    return "http://127.0.0.1:" + std::to_string(port) + std::string(path);
  }
};

/// Runs a benchmark client to completion; its last "RESULT ..." line ("" if none) and its
/// exit status.
inline std::pair<std::string, int> run_to_result(const std::vector<std::string>& argv,
                                                 clock::time_point deadline) {
  const run_result r = run(argv, deadline);
  std::string result;
  std::size_t begin = 0;
  while (begin < r.out.size()) {
    std::size_t end = r.out.find('\n', begin);
    if (end == std::string::npos) end = r.out.size();
    if (r.out.compare(begin, 7, "RESULT ") == 0) result = r.out.substr(begin, end - begin);
    begin = end + 1;
  }
  return {result, r.exit};
}

}  // namespace lather::test
