#!/usr/bin/env bash
# Throughput through HAProxy (deploy/haproxy/haproxy.cfg, ports substituted) with 1, 2 and 3
# lather-perf-server backends, beside lather-perf-server alone without the balancer.
#   bench/haproxy_scaling.sh [BUILD_DIR] [--time S] [--clients N] [--backend-threads T]
# Prints one line per configuration: calls/s and the efficiency against one backend behind
# HAProxy (calls/s / (backends x one backend's calls/s)). Processes started here are stopped
# here, by PID.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
seconds=5 clients=32 backend_threads=1
if [[ $# -gt 0 && $1 != --* ]]; then build=$1; shift; fi
while [[ $# -gt 0 ]]; do
  case $1 in
    --time) seconds=$2; shift 2 ;;
    --clients) clients=$2; shift 2 ;;
    --backend-threads) backend_threads=$2; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
command -v haproxy >/dev/null || { echo "haproxy is not installed (scripts/setup.sh)" >&2; exit 2; }
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
start_backend() {  # port -> pid in $! (waits for its "listening" line)
  "$build/bin/lather-perf-server" --address 127.0.0.1 --port "$1" --threads "$backend_threads" \
    --quiet > "$work/backend-$1.out" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do grep -q listening "$work/backend-$1.out" && return; sleep 0.1; done
  echo "backend on $1 did not start" >&2; exit 1
}
bench() {  # url -> calls/s
  "$build/bin/lather-bench" --url "$1" --threads "$clients" --client-threads 1 --time "$seconds" \
    --warmup 2 --wait-ready 10 --json --no-progress |
    python3 -c 'import json,sys; print(round(json.loads(sys.stdin.readline())["total_tps"]))'
}

ports=($(free_port) $(free_port) $(free_port))
for p in "${ports[@]}"; do start_backend "$p"; done
alone=$(bench "http://127.0.0.1:${ports[0]}/perf")
echo "lather-perf-server alone (--threads $backend_threads): $alone calls/s"

one=
for n in 1 2 3; do
  front=$(free_port)
  cfg=$work/haproxy-$n.cfg
  sed -e "s/bind 127.0.0.1:8080/bind 127.0.0.1:$front/" \
      -e "s#/run/haproxy/lather.sock#$work/haproxy-$n.sock#" \
      -e "s/127.0.0.1:8081/127.0.0.1:${ports[0]}/" -e "s/127.0.0.1:8082/127.0.0.1:${ports[1]}/" \
      -e "s/127.0.0.1:8083/127.0.0.1:${ports[2]}/" "$root/deploy/haproxy/haproxy.cfg" > "$cfg"
  # Keep the first n server lines.
  python3 - "$cfg" "$n" <<'PY'
import sys
path, n = sys.argv[1], int(sys.argv[2])
out, seen = [], 0
for line in open(path):
    if line.strip().startswith("server lather"):
        seen += 1
        if seen > n: continue
    out.append(line)
open(path, "w").write("".join(out))
PY
  haproxy -db -f "$cfg" > "$work/haproxy-$n.log" 2>&1 &
  hp=$!
  pids+=($hp)
  tps=$(bench "http://127.0.0.1:$front/perf")
  kill "$hp"; wait "$hp" 2>/dev/null || true
  [[ -z $one ]] && one=$tps
  eff=$(python3 -c "print(f'{$tps / ($n * $one):.2f}')")
  echo "HAProxy + $n backend(s): $tps calls/s, efficiency $eff"
done
