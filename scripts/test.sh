#!/usr/bin/env bash
# Builds lather (g++, Release, -Werror) and runs the whole test suite through CTest, then
# builds the libFuzzer targets with clang (ASan+UBSan) and runs each briefly.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DLATHER_WERROR=ON
cmake --build build -j"$jobs"
ctest --test-dir build -j"$jobs" --output-on-failure --timeout 600
if [ -x scripts/fuzz.sh ]; then
  bash scripts/fuzz.sh short
fi
