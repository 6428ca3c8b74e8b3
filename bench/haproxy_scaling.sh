#!/usr/bin/env bash
# Throughput through HAProxy (deploy/haproxy/haproxy.cfg, ports substituted) with 1, 2 and 3
# lather-perf-server backends, beside lather-perf-server alone without the balancer.
#   bench/haproxy_scaling.sh [BUILD_DIR] [--time S] [--clients N] [--backend-threads T]
#                            [--rounds R] [--backend-args "ARGS"]
# Runs the four configurations R times (default 3), interleaved so that the box's load moves
# them alike, and prints each round and the medians: calls/s, the efficiency against one
# backend behind HAProxy (calls/s / (backends x one backend's calls/s)), and the server side's
# CPU time per call (backends + HAProxy, from /proc; calls counted by the backends' /metrics),
# which other work on the machine disturbs far less than calls/s. Processes started here are
# stopped here, by PID.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
seconds=5 clients=32 backend_threads=1 rounds=3 backend_args=
if [[ $# -gt 0 && $1 != --* ]]; then build=$1; shift; fi
while [[ $# -gt 0 ]]; do
  case $1 in
    --time) seconds=$2; shift 2 ;;
    --clients) clients=$2; shift 2 ;;
    --backend-threads) backend_threads=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --backend-args) backend_args=$2; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
command -v haproxy >/dev/null || { echo "haproxy is not installed (scripts/setup.sh)" >&2; exit 2; }
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# Six ports (three backends, three HAProxy front ends) by the tests' scheme
# (tests/support/test_ports.py, as tests/support/process.hpp's free_port): outside the
# ephemeral range that clients' connect() draws from, and held by the holder process until
# this script ends, so neither a test running meanwhile nor a connection of this benchmark's
# own clients takes one before its server binds it.
python3 "$root/tests/support/test_ports.py" 6 > "$work/ports" &
pids+=($!)
for _ in $(seq 100); do [[ $(wc -l < "$work/ports") -ge 6 ]] && break; sleep 0.1; done
mapfile -t held_ports < "$work/ports"
[[ ${#held_ports[@]} -eq 6 ]] || { echo "no test ports (tests/support/test_ports.py)" >&2; exit 1; }
backend_pids=()
start_backend() {  # port (waits for its "listening" line)
  "$build/bin/lather-perf-server" --address 127.0.0.1 --port "$1" --threads "$backend_threads" \
    --quiet $backend_args > "$work/backend-$1.out" 2>&1 &
  pids+=($!)
  backend_pids+=($!)
  for _ in $(seq 100); do grep -q listening "$work/backend-$1.out" && return; sleep 0.1; done
  echo "backend on $1 did not start" >&2; exit 1
}
# CPU ticks (user + system) of the given PIDs, and SOAP calls the backends on the given ports
# have answered: "TICKS CALLS".
server_counters() {  # "PID..." "PORT..."
  python3 - "$1" "$2" <<'PY'
import sys, urllib.request
ticks = 0
for pid in sys.argv[1].split():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    ticks += int(fields[11]) + int(fields[12])
calls = 0
for port in sys.argv[2].split():
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics").read().decode()
    calls += sum(int(l.rsplit(" ", 1)[1]) for l in text.splitlines()
                 if l.startswith("lather_requests_total{"))
print(ticks, calls)
PY
}
bench() {  # url "PID..." "PORT..." -> "calls/s cpu-us-per-call"
  local before after tps
  before=$(server_counters "$2" "$3")
  tps=$("$build/bin/lather-bench" --url "$1" --threads "$clients" --client-threads 1 --time "$seconds" \
    --warmup 2 --wait-ready 10 --json --no-progress |
    python3 -c 'import json,sys; print(round(json.loads(sys.stdin.readline())["total_tps"]))')
  after=$(server_counters "$2" "$3")
  python3 - "$tps" "$before" "$after" <<'PY'
import os, sys
tps = sys.argv[1]
t0, c0 = map(int, sys.argv[2].split()); t1, c1 = map(int, sys.argv[3].split())
print(tps, round((t1 - t0) / os.sysconf("SC_CLK_TCK") * 1e6 / max(1, c1 - c0), 1))
PY
}

ports=("${held_ports[@]:0:3}")
for p in "${ports[@]}"; do start_backend "$p"; done
fronts=() haproxy_pids=()
for n in 1 2 3; do
  front=${held_ports[$((n + 2))]}
  fronts+=("$front")
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
  pids+=($!)
  haproxy_pids+=($!)
done

# Rounds: alone, then 1, 2, 3 backends behind HAProxy (each HAProxy idle between its runs).
results=$work/results
for r in $(seq "$rounds"); do
  read -r tps cpu < <(bench "http://127.0.0.1:${ports[0]}/perf" "${backend_pids[0]}" "${ports[0]}")
  echo "alone $tps $cpu" >> "$results"
  line="round $r: alone $tps ($cpu us/call)"
  for n in 1 2 3; do
    read -r tps cpu < <(bench "http://127.0.0.1:${fronts[$((n - 1))]}/perf" \
      "${haproxy_pids[$((n - 1))]} ${backend_pids[*]:0:n}" "${ports[*]:0:n}")
    echo "$n $tps $cpu" >> "$results"
    line+=", $n backend(s) $tps ($cpu)"
  done
  echo "$line calls/s (load average $(cut -d' ' -f1 /proc/loadavg))"
done
python3 - "$results" "$backend_threads" <<'PY'
import statistics, sys
runs, cpu = {}, {}
for line in open(sys.argv[1]):
    key, tps, us = line.split()
    runs.setdefault(key, []).append(float(tps))
    cpu.setdefault(key, []).append(float(us))
med = {k: statistics.median(v) for k, v in runs.items()}
mcpu = {k: statistics.median(v) for k, v in cpu.items()}
print(f"median lather-perf-server alone (--threads {sys.argv[2]}): {med['alone']:.0f} calls/s, "
      f"server CPU {mcpu['alone']:.1f} us/call")
for n in (1, 2, 3):
    k = str(n)
    print(f"median HAProxy + {n} backend(s): {med[k]:.0f} calls/s, {med[k] / med['1']:.2f}x one "
          f"backend, efficiency {med[k] / (n * med['1']):.2f}; server CPU {mcpu[k]:.1f} us/call "
          f"(HAProxy included; {mcpu['1'] / mcpu[k]:.2f} of one backend's per-call efficiency)")
PY
