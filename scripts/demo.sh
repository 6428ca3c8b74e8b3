#!/usr/bin/env bash
# The main job: build, start lather-perf-server, run lather-bench for 10 s at 16 threads
# (echoComplexTypeDoc, PacketSize 1), print CXF's result block, stop the server.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DLATHER_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)"
if [ -x build/bin/lather-perf-server ] && [ -x build/bin/lather-bench ]; then
  port=${PORT:-18080}
  build/bin/lather-perf-server --port "$port" --quiet &
  server=$!
  trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
  build/bin/lather-bench --url "http://127.0.0.1:$port/perf" --wait-ready 10 \
    --operation echoComplexTypeDoc --threads 16 --time 10 --warmup 2
else
  bash bench/run.sh xml
fi
