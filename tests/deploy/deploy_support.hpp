// What the deploy tests share: lather-perf-server processes started by the test (stopped by
// PID), and a bounded load of echoStringDoc calls whose every answer is checked.
#pragma once

#include <signal.h>

#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "../support/paths.hpp"
#include "../support/process.hpp"
#include "lather/http/error.hpp"
#include "lather/perf/types.hpp"
#include "lather/service/client.hpp"

namespace deploy_test {

using Clock = lather::test::clock;
using Process = lather::test::process;
using namespace std::chrono_literals;

/// Concatenation by appending (GCC 12 warns falsely about `"literal" + std::string` chains).
template <class... Parts>
std::string cat(const Parts&... parts) {
  std::string text;
  (text.append(std::string_view(parts)), ...);
  return text;
}

inline std::filesystem::path scratch_dir() {
  const auto* test = testing::UnitTest::GetInstance()->current_test_info();
  // In the build tree: other checkouts' test runs share the temporary directory.
  auto dir = std::filesystem::path(lather::test::bin_dir).parent_path() / "test-scratch" /
             "lather_deploy" / (test ? cat(test->test_suite_name(), ".", test->name()) : "global");
  std::filesystem::create_directories(dir);
  return dir;
}

/// One lather-perf-server process, started with `extra` options on 127.0.0.1:`port` (0 = an
/// ephemeral port, read back from its "listening on" line).
class perf_server {
 public:
  perf_server(int port, const std::vector<std::string>& extra, const std::string& log_name) {
    std::vector<std::string> argv{cat(lather::test::bin_dir, "/lather-perf-server"),
                                  "--address",
                                  "127.0.0.1",
                                  "--port",
                                  std::to_string(port),
                                  "--threads",
                                  "2",
                                  "--quiet"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    process_.emplace(argv, scratch_dir() / log_name, true);
    std::string line;
    if (!process_->read_line(line, Clock::now() + 30s)) return;
    const auto at = line.find("127.0.0.1:");
    if (at != std::string::npos)
      std::from_chars(line.data() + at + 10, line.data() + line.size(), port_);
  }
  int port() const { return port_; }  ///< 0 = it did not start
  Process& process() { return *process_; }
  bool signal(int sig) { return process_->running() && ::kill(pid(), sig) == 0; }
  pid_t pid() const { return process_->pid(); }

 private:
  std::optional<Process> process_;
  int port_ = 0;
};

/// Calls echoStringDoc from `threads` threads, each with its own client (so its own
/// keep-alive connection), each call with a string of its own; records every outcome.
class echo_load {
 public:
  struct failure {
    Clock::time_point at;
    std::string what;
    lather::http::errc code{};  ///< ok when the failure was not an http::error
  };

  echo_load(std::string url, unsigned threads, std::uint64_t max_calls_per_thread = 200'000)
      : url_(std::move(url)) {
    for (unsigned t = 0; t < threads; ++t)
      threads_.emplace_back([this, t, max_calls_per_thread] { run(t, max_calls_per_thread); });
  }
  ~echo_load() { stop(); }

  void stop() {
    stopping_ = true;
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }
  std::uint64_t answered() const { return answered_.load(); }
  std::uint64_t wrong() const { return wrong_.load(); }
  std::uint64_t failed() const {
    std::lock_guard lock(mutex_);
    return failures_.size();
  }
  std::vector<failure> failures() const {
    std::lock_guard lock(mutex_);
    return failures_;
  }
  /// Waits until `n` calls more than `from` were answered; false at the deadline.
  bool wait_answered(std::uint64_t from, std::uint64_t n, std::chrono::seconds limit = 30s) const {
    const auto deadline = Clock::now() + limit;
    while (answered() < from + n) {
      if (Clock::now() > deadline) return false;
      std::this_thread::yield();
    }
    return true;
  }

 private:
  void run(unsigned thread, std::uint64_t max_calls) {
    lather::client_options o;
    o.max_connections = 1;
    o.call_timeout = 10s;
    o.connect_timeout = 2s;
    lather::client c{url_, o};
    lather::perf::echoStringDoc request;
    lather::perf::echoStringDocResponse response;
    for (std::uint64_t i = 0; i < max_calls && !stopping_; ++i) {
      request.in = cat("t", std::to_string(thread), " call ", std::to_string(i), " <&>");
      response.out.clear();
      try {
        c.call("echoStringDoc", request, response);
        ++answered_;
        if (response.out != request.in) ++wrong_;
      } catch (const lather::http::error& e) {
        record({Clock::now(), e.what(), e.code()});
      } catch (const std::exception& e) {
        record({Clock::now(), e.what(), {}});
      }
    }
  }
  void record(failure f) {
    std::lock_guard lock(mutex_);
    failures_.push_back(std::move(f));
  }

  std::string url_;
  std::atomic<bool> stopping_{false};
  std::atomic<std::uint64_t> answered_{0}, wrong_{0};
  mutable std::mutex mutex_;
  std::vector<failure> failures_;
  std::vector<std::thread> threads_;
};

}  // namespace deploy_test
