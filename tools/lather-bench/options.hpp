// Command line of lather-bench (CXF's client flags, in GNU long-option form).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "harness.hpp"

namespace lather::bench {

struct options {
  std::string url;
  run_options run;
  split_options split;  ///< --splits: the Axis table's splits, interleaved (split.calls empty: off)
  unsigned packet_size = 1;
  std::size_t chunking_threshold = 4096;
  bool chunking_never = false;
  bool soap12 = false;
  bool verify = true;
  bool progress = true;
  double timeout_s = 30;
  double wait_ready_s = 0;
  long spin_us = -1;  ///< client_options::spin_budget in microseconds; -1 = the library's default
  long receive_buffer =
      -1;                 ///< client_options::receive_buffer in bytes; -1 = the library's default
  std::string ca_file;    ///< https: the CA to verify the server with ("" = the system's)
  bool insecure = false;  ///< https: no verification
  bool new_connections = false;  ///< every call on a new connection (TLS: a handshake each)
  bool resume = true;            ///< TLS: offer the last session (abbreviated handshakes)
  /// echoComplexTypeDoc through the client proxy lather-wsdl2cpp generates from perf.wsdl
  /// instead of the hand-written perf types (the same bytes on the wire).
  bool generated = false;
};

/// --help prints the usage and exits 0; a usage error prints one line and exits 2.
options parse_options(int argc, char** argv);
/// CXF's -Threads syntax ("1-4,6,8,10"); throws std::invalid_argument with a one-line message.
std::vector<unsigned> parse_thread_list(std::string_view spec);

}  // namespace lather::bench
