#!/usr/bin/env bash
# The whole test suite, as CI runs it:
#   1. g++ Release build of everything with -Werror, then every test through CTest (unit,
#      hostile-input, interop with real third-party stacks, peer benchmarks' smoke tests);
#   2. clang++ build of the libraries and tools with -Werror (both compilers must stay clean);
#   3. the libFuzzer targets built with clang (ASan+UBSan) and run briefly (scripts/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
# The release preset (CMakePresets.json) sets tests and benchmarks on explicitly: the README's
# first command (scripts/demo.sh) configures the same build directory without tests, and a cached
# OFF would otherwise leave CTest nothing to run.
cmake --preset release
cmake --build --preset release -j"$jobs"
ctest --preset release -j"$jobs"
cmake -S . -B build-clang -G Ninja -DCMAKE_BUILD_TYPE=Release -DLATHER_WERROR=ON \
  -DCMAKE_CXX_COMPILER=clang++ -DLATHER_TESTS=OFF -DLATHER_BENCH=OFF >/dev/null
cmake --build build-clang -j"$jobs"
bash scripts/fuzz.sh short
