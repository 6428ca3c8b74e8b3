// What lather's command-line tools do at start: raise the process's soft limit on open
// descriptors to its hard limit, as the JVM does by default (-XX:+MaxFDLimit). A shell's soft
// limit is often 1,024 (Debian's default) while the hard one is far higher, and the tools are
// made for many connections: lather-bench at 1,024 clients needs 1,024 sockets plus a few,
// lather-perf-server as many for the connections it serves.
#pragma once

#include <sys/resource.h>

namespace lather::tools {

/// Raises RLIMIT_NOFILE's soft limit to the hard limit; returns the soft limit now in force
/// (unchanged when it cannot be read or raised).
inline rlim_t raise_descriptor_limit() noexcept {
  rlimit l{};
  if (::getrlimit(RLIMIT_NOFILE, &l) != 0) return 0;
  if (l.rlim_cur < l.rlim_max) {
    const rlim_t before = l.rlim_cur;
    l.rlim_cur = l.rlim_max;
    if (::setrlimit(RLIMIT_NOFILE, &l) != 0) return before;
  }
  return l.rlim_cur;
}

}  // namespace lather::tools
