// deploy/haproxy/haproxy.cfg as shipped (only its ports, stats socket and log target
// substituted) in front of three lather-perf-server processes on loopback, under a bounded
// load: one backend restarted (SIGTERM, then started again on its port), another killed
// (SIGKILL). Every call the client saw answered was answered correctly; the only errors are
// calls in flight on the killed process; the restarted process rejoins and serves.
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../support/paths.hpp"
#include "deploy_support.hpp"

namespace {

using namespace deploy_test;
namespace fs = std::filesystem;

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

/// One server row of HAProxy's "show stat", by column name.
using stat_row = std::map<std::string, std::string>;

/// "show stat" over the runtime API socket: backend `lather`'s server rows by name.
std::map<std::string, stat_row> show_stat(const fs::path& socket_path) {
  std::map<std::string, stat_row> rows;
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", socket_path.c_str());
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return rows;
  }
  static constexpr char command[] = "show stat\n";
  std::string text;
  if (::write(fd, command, sizeof command - 1) == sizeof command - 1) {
    char buffer[8192];
    for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;)
      text.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  std::istringstream lines(text);
  std::string line;
  std::vector<std::string> columns;
  auto split = [](const std::string& s) {
    std::vector<std::string> out;
    std::string field;
    std::istringstream in(s);
    while (std::getline(in, field, ',')) out.push_back(field);
    return out;
  };
  while (std::getline(lines, line)) {
    if (line.rfind("# ", 0) == 0) {
      columns = split(line.substr(2));
      continue;
    }
    auto fields = split(line);
    if (fields.size() < 2 || fields[0] != "lather" || fields[1] == "BACKEND") continue;
    stat_row row;
    for (std::size_t i = 0; i < columns.size() && i < fields.size(); ++i)
      row[columns[i]] = fields[i];
    rows[fields[1]] = std::move(row);
  }
  return rows;
}

long long number(const stat_row& row, const std::string& column) {
  auto it = row.find(column);
  return it == row.end() || it->second.empty() ? 0 : std::atoll(it->second.c_str());
}

/// Waits until HAProxy reports `server` with status `status` ("UP", "DOWN", ...); false at the
/// deadline or when HAProxy has exited.
bool wait_status(Process& haproxy, const fs::path& socket, const std::string& server,
                 const std::string& status, std::chrono::seconds limit = 20s) {
  const auto deadline = Clock::now() + limit;
  while (Clock::now() < deadline && haproxy.running()) {
    auto rows = show_stat(socket);
    if (auto it = rows.find(server); it != rows.end() && it->second["status"] == status)
      return true;
    std::this_thread::sleep_for(50ms);  // HAProxy reports status only when asked
  }
  return false;
}

bool haproxy_installed() {
  return std::system("command -v haproxy >/dev/null 2>&1") == 0;
}

TEST(HAProxy, RestartAndKillBehindTheShippedConfigLoseOnlyTheKilledProcessInFlightCalls) {
  if (!haproxy_installed()) GTEST_SKIP() << "haproxy is not installed (scripts/setup.sh)";
  const std::vector<std::string> backend_options{"--reuse-port", "--drain-delay", "1500",
                                                 "--drain-timeout", "3000"};
  // Reserved test ports (tests/support/process.hpp), not the kernel's: lather1 restarts on
  // its port after its process has exited, and nothing else may take the port meanwhile.
  std::vector<std::unique_ptr<perf_server>> backends;
  for (int i = 0; i < 3; ++i) {
    backends.push_back(std::make_unique<perf_server>(lather::test::free_port(), backend_options,
                                                     cat("lather", std::to_string(i + 1), ".log")));
    ASSERT_GT(backends.back()->port(), 0);
  }

  // The shipped file with this run's ports and paths.
  const fs::path dir = scratch_dir();
  // A socket path must fit sockaddr_un (HAProxy allows 97 bytes): a short directory of its own.
  char socket_dir[] = "/tmp/lather-haproxy-XXXXXX";
  ASSERT_NE(::mkdtemp(socket_dir), nullptr);
  const fs::path stats_socket = fs::path(socket_dir) / "stats.sock";
  struct remove_dir {
    fs::path path;
    ~remove_dir() { fs::remove_all(path); }
  } socket_dir_guard{socket_dir};
  const int front_port = lather::test::free_port();
  std::ifstream shipped(fs::path(lather::test::source_dir) / "deploy/haproxy/haproxy.cfg");
  ASSERT_TRUE(shipped) << "deploy/haproxy/haproxy.cfg";
  std::string config{std::istreambuf_iterator<char>(shipped), {}};
  ASSERT_NE(config.find("bind 127.0.0.1:8080"), std::string::npos);
  config = replace_all(config, "bind 127.0.0.1:8080",
                       cat("bind 127.0.0.1:", std::to_string(front_port)));
  for (int i = 0; i < 3; ++i) {
    const std::string shipped_address = cat("127.0.0.1:", std::to_string(8081 + i));
    ASSERT_NE(config.find(shipped_address), std::string::npos);
    config = replace_all(config, shipped_address,
                         cat("127.0.0.1:", std::to_string(backends[i]->port())));
  }
  config = replace_all(config, "/run/haproxy/lather.sock", stats_socket.string());
  config = replace_all(config, "log stdout format raw", "log stderr format raw");
  const fs::path config_path = dir / "haproxy.cfg";
  std::ofstream(config_path) << config;

  fs::remove(stats_socket);
  Process haproxy({"/usr/sbin/haproxy", "-db", "-f", config_path.string()}, dir / "haproxy.log",
                  false);
  ASSERT_TRUE(haproxy.started());
  for (const char* name : {"lather1", "lather2", "lather3"})
    ASSERT_TRUE(wait_status(haproxy, stats_socket, name, "UP")) << name << " never came UP";

  echo_load load(cat("http://127.0.0.1:", std::to_string(front_port), "/perf"), 8);
  ASSERT_TRUE(load.wait_answered(0, 300));

  // Restart lather1: SIGTERM (it drains), then a new process on the same port.
  const int restarted_port = backends[0]->port();
  ASSERT_TRUE(backends[0]->signal(SIGTERM));
  EXPECT_EQ(backends[0]->process().exit_code(Clock::now() + 10s), 0);
  // Kill lather2 mid-load.
  ASSERT_TRUE(load.wait_answered(load.answered(), 100));
  const auto killed_at = Clock::now();
  ASSERT_TRUE(backends[1]->signal(SIGKILL));
  backends[0] = std::make_unique<perf_server>(restarted_port, backend_options, "lather1b.log");
  ASSERT_EQ(backends[0]->port(), restarted_port);

  // The restarted process rejoins: HAProxy sees it UP and it serves calls again.
  ASSERT_TRUE(wait_status(haproxy, stats_socket, "lather1", "UP")) << "lather1 did not rejoin";
  ASSERT_TRUE(wait_status(haproxy, stats_socket, "lather2", "DOWN"));
  const long long lather1_sessions = number(show_stat(stats_socket)["lather1"], "stot");
  ASSERT_TRUE(load.wait_answered(load.answered(), 400));
  load.stop();
  auto stats = show_stat(stats_socket);
  EXPECT_GT(number(stats["lather1"], "stot"), lather1_sessions) << "lather1 served nothing";

  EXPECT_EQ(load.wrong(), 0u);
  // Errors: only calls in flight on lather2 when it was killed, so at most one per client
  // connection, all after the kill, and HAProxy counts them against lather2 alone.
  const auto failures = load.failures();
  EXPECT_LE(failures.size(), 8u);
  for (const auto& f : failures) {
    EXPECT_GE(f.at, killed_at) << f.what;
    EXPECT_NE(f.what.find("502"), std::string::npos) << f.what;
  }
  for (const char* name : {"lather1", "lather3"}) {
    EXPECT_EQ(number(stats[name], "eresp"), 0) << name;
    EXPECT_EQ(number(stats[name], "srv_abrt"), 0) << name;
  }
  // A call cut off on lather2 is counted there, as a response error or a server abort
  // (HAProxy may also close the client's connection instead of answering 502: lather's
  // client then replays the call on a new connection, so not every one reaches the client).
  if (!failures.empty()) {
    EXPECT_GT(number(stats["lather2"], "eresp") + number(stats["lather2"], "srv_abrt"), 0);
  }
  RecordProperty("client_errors", static_cast<int>(failures.size()));
  RecordProperty("lather2_eresp", static_cast<int>(number(stats["lather2"], "eresp")));
}

}  // namespace
