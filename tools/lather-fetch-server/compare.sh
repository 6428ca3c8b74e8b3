#!/usr/bin/env bash
# The 2003 experiment: lather-fetch-client against lather-fetch-server vs bench/drb's DRb pair,
# 100 calls x 5 runs each (median of runs), alternated for --rounds rounds so that both see the
# same machine load. Also prints the CPU seconds each side used (utime+stime from /proc), which
# load from other processes disturbs far less than wall time.
#
#   tools/lather-fetch-server/compare.sh [BUILD_DIR (default build)] [ROUNDS (default 5)]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=${1:-$repo/build}/bin
rounds=${2:-5}
ticks=$(getconf CLK_TCK)
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
wait_listening() {
  for _ in $(seq 1 100); do
    grep -q listening "$1" && return 0
    sleep 0.1
  done
  echo "compare.sh: server did not start: $(cat "$1")" >&2
  exit 1
}

"$bin/lather-fetch-server" --port 0 >"$tmp/lather.out" 2>&1 &
pids+=($!)
lather_pid=$!
ruby "$repo/bench/drb/drbserver.rb" --port 0 >"$tmp/drb.out" 2>&1 &
pids+=($!)
drb_pid=$!
wait_listening "$tmp/lather.out"
wait_listening "$tmp/drb.out"
url=$(grep -o 'http://[^ ]*' "$tmp/lather.out")
uri=$(grep -o 'druby://[^ ]*' "$tmp/drb.out")

run() {  # stack server_pid command...: prints "stack median_s client_cpu_s server_cpu_s"
  local stack=$1 server=$2
  shift 2
  local before after
  before=$(cpu_ticks "$server")
  /usr/bin/time -f "%U %S" -o "$tmp/time" "$@" >"$tmp/client.out"
  after=$(cpu_ticks "$server")
  local median
  median=$(grep -o 'median_s=[0-9.]*' "$tmp/client.out" | cut -d= -f2)
  awk -v s="$stack" -v m="$median" -v b="$before" -v a="$after" -v t="$ticks" \
    '{printf "%s median_s=%s client_cpu_s=%.2f server_cpu_s=%.2f\n", s, m, $1 + $2, (a - b) / t}' \
    "$tmp/time"
}

uptime
for r in $(seq 1 "$rounds"); do
  run lather "$lather_pid" "$bin/lather-fetch-client" --url "$url" --calls 100 --runs 5
  run drb "$drb_pid" ruby "$repo/bench/drb/drbclient.rb" --uri "$uri" --calls 100 --runs 5
done
uptime
