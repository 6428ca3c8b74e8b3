// lather-http-coroutine-cost: what the server's threading decision costs, measured on this box.
// Prints the cost of (a) creating a connection coroutine (asio::spawn, 256 KiB stack) and
// (b) one suspend/resume round trip through the io_context, against (c) the same round trip
// as a plain callback, so docs/http.md can quote numbers.
#define BOOST_COROUTINES_NO_DEPRECATION_WARNING
#define BOOST_ALLOW_DEPRECATED_HEADERS  // Boost.Coroutine 1.74 includes deprecated headers
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/spawn.hpp>
#include <chrono>
#include <cstdio>
#include <functional>

namespace asio = boost::asio;
using clock_type = std::chrono::steady_clock;
using yield_type =
    asio::basic_yield_context<asio::executor_binder<void (*)(), asio::io_context::executor_type>>;

void noop() {}

double ns_per(clock_type::duration d, long n) {
  return std::chrono::duration<double, std::nano>(d).count() / static_cast<double>(n);
}

int main() {
  constexpr long spawns = 20000, switches = 2000000;
  asio::io_context ctx{1};
  auto handler = asio::bind_executor(ctx.get_executor(), &noop);
  const boost::coroutines::attributes stack(256 * 1024);

  auto t0 = clock_type::now();
  for (long i = 0; i < spawns; ++i)
    asio::spawn(
        handler, [](yield_type) {}, stack);
  ctx.run();
  auto spawn_cost = clock_type::now() - t0;

  ctx.restart();
  t0 = clock_type::now();
  asio::spawn(
      handler,
      [&](yield_type y) {
        for (long i = 0; i < switches; ++i) asio::post(ctx, y);  // suspend, resume via the queue
      },
      stack);
  ctx.run();
  auto switch_cost = clock_type::now() - t0;

  ctx.restart();
  long left = switches;
  std::function<void()> step = [&] {
    if (--left > 0) asio::post(ctx, step);
  };
  t0 = clock_type::now();
  asio::post(ctx, step);
  ctx.run();
  auto callback_cost = clock_type::now() - t0;

  std::printf("spawn (create + run + destroy a coroutine): %.0f ns\n", ns_per(spawn_cost, spawns));
  std::printf("suspend/resume through the io_context:     %.0f ns\n",
              ns_per(switch_cost, switches));
  std::printf("same round trip as a plain callback:       %.0f ns\n",
              ns_per(callback_cost, switches));
  return 0;
}
