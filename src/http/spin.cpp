// The machine-wide check behind spinning before sleeping (spin.hpp).
#include "spin.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdint>
#include <string_view>

namespace lather::http::detail {
namespace {

struct loadavg_file {
  int fd = ::open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
  ~loadavg_file() {
    if (fd >= 0) ::close(fd);
  }
};

/// "0.38 1.24 7.57 3/210 12345": the fourth field's first number counts the runnable threads.
bool read_idle_cpu() {
  static const loadavg_file file;
  static const long cpus = std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN));
  if (file.fd < 0) return true;
  char text[128];
  const ssize_t n = ::pread(file.fd, text, sizeof text, 0);
  if (n <= 0) return true;
  std::string_view line(text, static_cast<std::size_t>(n));
  for (int field = 0; field < 3; ++field) {
    const std::size_t space = line.find(' ');
    if (space == std::string_view::npos) return true;
    line.remove_prefix(space + 1);
  }
  long running = 0;
  if (std::from_chars(line.data(), line.data() + line.size(), running).ec != std::errc{})
    return true;
  return running <= cpus;
}

std::atomic<bool (*)()> probe{nullptr};
std::atomic<std::int64_t> checked_at{0};  // steady_clock ns; 0 = never
std::atomic<bool> idle_cpu{true};

}  // namespace

bool machine_has_idle_cpu(spin_clock::time_point now) {
  constexpr std::int64_t refresh = std::chrono::nanoseconds(std::chrono::milliseconds(1)).count();
  const std::int64_t t = std::chrono::nanoseconds(now.time_since_epoch()).count();
  std::int64_t last = checked_at.load(std::memory_order_relaxed);
  // One thread re-reads it when it is stale; the others use the value they find.
  if (t - last < refresh || !checked_at.compare_exchange_strong(last, t, std::memory_order_relaxed))
    return idle_cpu.load(std::memory_order_relaxed);
  bool (*p)() = probe.load(std::memory_order_relaxed);
  const bool idle = p ? p() : read_idle_cpu();
  idle_cpu.store(idle, std::memory_order_relaxed);
  return idle;
}

void set_idle_cpu_probe(bool (*replacement)()) {
  probe.store(replacement, std::memory_order_relaxed);
  checked_at.store(0, std::memory_order_relaxed);
}

}  // namespace lather::http::detail
