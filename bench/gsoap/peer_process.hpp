// bench/gsoap/peer_process.hpp — test helper for the peer benchmarks: runs a peer binary as a
// child process with its stdout on a pipe and stops it by PID. Header-only; the gRPC and DRb
// tests include it too.
#pragma once

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

extern char** environ;

namespace peer_test {

/// A child process with stdout on a pipe, killed by PID when the test ends.
class child_process {
 public:
  explicit child_process(std::vector<std::string> args) {
    int fds[2];
    if (pipe(fds) != 0) return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    out_ = fdopen(fds[0], "r");
  }
  ~child_process() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
    if (out_ != nullptr) fclose(out_);
  }
  child_process(const child_process&) = delete;
  child_process& operator=(const child_process&) = delete;

  /// Next stdout line ("" at end of output); blocks until the child writes it or exits.
  std::string read_line() {
    char line[1024];
    if (out_ == nullptr || fgets(line, sizeof line, out_) == nullptr) return {};
    return line;
  }
  /// Waits for the child to exit; returns its exit status (-1 if it did not exit normally).
  int wait() {
    int status = 0;
    if (pid_ <= 0 || waitpid(pid_, &status, 0) != pid_) return -1;
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  pid_t pid_ = -1;
  FILE* out_ = nullptr;
};

/// The port in a "listening on [scheme://]127.0.0.1:PORT[/path]" banner ("" if there is none).
inline std::string banner_port(const std::string& banner) {
  const auto at = banner.find("127.0.0.1:");
  if (at == std::string::npos) return {};
  const auto begin = at + 10;
  auto end = begin;
  while (end < banner.size() && banner[end] >= '0' && banner[end] <= '9') ++end;
  return banner.substr(begin, end - begin);
}

/// The value of `key=` in a "RESULT k=v ..." line ("" if absent).
inline std::string result_field(const std::string& line, const std::string& key) {
  const auto at = line.find(" " + key + "=");
  if (at == std::string::npos) return {};
  const auto begin = at + key.size() + 2;
  return line.substr(begin, line.find_first_of(" \n", begin) - begin);
}

/// Runs `args` to completion; returns its last RESULT line ("" if none) and its exit status.
inline std::pair<std::string, int> run_to_result(std::vector<std::string> args) {
  child_process child(std::move(args));
  std::string result;
  for (std::string line = child.read_line(); !line.empty(); line = child.read_line()) {
    if (line.rfind("RESULT ", 0) == 0) result = line;
  }
  return {result, child.wait()};
}

}  // namespace peer_test
