// lather-perf-server draining as users run it, as processes on loopback: SIGTERM under load
// loses no call that was sent and the process exits within its deadline; a new process bound
// to the same port with SO_REUSEPORT takes over while the old one drains, and the clients see
// no refused connection and no failed call.
#include <signal.h>

#include <string>

#include <gtest/gtest.h>

#include "deploy_support.hpp"

namespace {

using namespace deploy_test;
using lather::http::errc;

std::string perf_url(int port) {
  return cat("http://127.0.0.1:", std::to_string(port), "/perf");
}

constexpr unsigned load_threads = 8;

TEST(Drain, SigtermUnderLoadAnswersEveryCallItReadAndExitsWithinItsDeadline) {
  constexpr auto deadline = 3s;
  perf_server srv(0, {"--drain-timeout", "3000"}, "server.log");
  ASSERT_GT(srv.port(), 0);
  echo_load load(perf_url(srv.port()), load_threads);
  ASSERT_TRUE(load.wait_answered(0, 500));

  const auto signalled_at = Clock::now();
  ASSERT_TRUE(srv.signal(SIGTERM));
  const int exit = srv.process().exit_code(signalled_at + deadline + 2s);
  const auto took = Clock::now() - signalled_at;
  EXPECT_EQ(exit, 0);
  EXPECT_LT(took, deadline + 500ms);
  load.stop();

  EXPECT_GT(load.answered(), 500u);
  EXPECT_EQ(load.wrong(), 0u);
  // The only failures are calls that were not run: connections refused once the listener had
  // closed, and a connection the drain took from the listener's queue, answered 503 draining
  // (docs/deploy.md: the one answer a drain gives to a request it did not run; a busy box
  // queues such connections). A call the server had read and then dropped would be
  // connection_closed or io_failed.
  for (const auto& f : load.failures())
    EXPECT_TRUE(f.code == errc::connect_refused ||
                (f.what.starts_with("HTTP 503") && f.what.find("draining") != std::string::npos))
        << f.what;
}

TEST(Drain, RestartOnTheSamePortWithReusePortFailsNoCall) {
  perf_server old_server(0, {"--reuse-port", "--drain-timeout", "3000"}, "old.log");
  ASSERT_GT(old_server.port(), 0);
  echo_load load(perf_url(old_server.port()), load_threads);
  ASSERT_TRUE(load.wait_answered(0, 300));

  // The new process binds the port the old one still listens on.
  perf_server new_server(old_server.port(), {"--reuse-port", "--drain-timeout", "3000"}, "new.log");
  ASSERT_EQ(new_server.port(), old_server.port()) << "the new process could not bind the port";
  ASSERT_TRUE(old_server.signal(SIGTERM));
  EXPECT_EQ(old_server.process().exit_code(Clock::now() + 6s), 0);
  // Every client has moved to the new process, which goes on answering.
  EXPECT_TRUE(load.wait_answered(load.answered(), 500));
  EXPECT_TRUE(new_server.process().running());
  load.stop();

  EXPECT_EQ(load.wrong(), 0u);
  EXPECT_EQ(load.failed(), 0u);
  for (const auto& f : load.failures()) ADD_FAILURE() << f.what;
}

}  // namespace
