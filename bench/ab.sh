#!/usr/bin/env bash
# bench/ab.sh — is build NEW faster than build OLD? Both run at the same time on this box.
#
#   bench/ab.sh OLD_BUILD NEW_BUILD [--clients N] [--rounds R] [--seconds S] [--packet-size P]
#               [--old-args ARGS] [--new-args ARGS]
#
# Each build directory holds bin/lather-perf-server and bin/lather-bench. Every round runs both
# stacks side by side (each its own server, --threads 2, and lather-bench --threads N
# --client-threads 2 against it) for S seconds, and reads each one's Total(N) calls/s.
#
# Why side by side: back-to-back runs on these shared 2-core machines differ by 10-30% from one
# run to the next (the host's load, not the code), so one build against another run after it
# needs hundreds of runs to see a 3% change. Run at the same time, both stacks meet the same
# box; each gets half of it, and the ratio of their calls/s moves by ~2-5% per round. The slot
# started second can come out ahead (A/A runs: ~1-2% at 1,024 clients, up to 25% either way at
# 4), so half the rounds put OLD in the first slot and half NEW, and the estimate is the
# geometric mean of the two halves' medians, which cancels a bias both halves share. Each stack
# runs on a box shared with the other stack (twice the connections, the caches shared): a
# speed-up here means less work per call, not the rows of compare.sh's tables.
#
# --old-args / --new-args: more lather-bench arguments for that side (split at spaces), e.g.
# one build against itself with `--new-args --generated`: the generated perf client against the
# hand-written one.
#
# Defaults: --clients 1024, --rounds 10 (5 per slot order), --seconds 3, --packet-size 1.
# Prints each round and the estimate NEW/OLD (> 1: NEW is faster); exits 1 without an estimate
# when a server does not start or a slot order had no successful round. Servers it starts
# (on port 0, each reporting the port it got) are stopped by PID; each lather-bench runs under
# timeout(1).
set -uo pipefail

usage() { sed -n '2,/^set -uo/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//'; exit 2; }
(($# >= 2)) || usage
old=$1 new=$2
shift 2
clients=1024 rounds=10 seconds=3 packet_size=1 old_args='' new_args=''
while (($#)); do
  case $1 in
    --clients) clients=${2:?}; shift ;;
    --rounds) rounds=${2:?}; shift ;;
    --seconds) seconds=${2:?}; shift ;;
    --packet-size) packet_size=${2:?}; shift ;;
    --old-args) old_args=${2?}; shift ;;
    --new-args) new_args=${2?}; shift ;;
    *) usage ;;
  esac
  shift
done
((rounds >= 2)) || { echo "ab.sh: --rounds must be at least 2 (one per slot order)" >&2; exit 2; }
for b in "$old" "$new"; do
  for t in lather-perf-server lather-bench; do
    [[ -x $b/bin/$t ]] || { echo "ab.sh: $b/bin/$t is not built" >&2; exit 2; }
  done
done

work=$(mktemp -d)
server_pids=()
stop_servers() {
  ((${#server_pids[@]})) && kill "${server_pids[@]}" 2>/dev/null && wait "${server_pids[@]}" 2>/dev/null
  server_pids=()
}
trap 'stop_servers; rm -rf "$work"' EXIT

# One half of the rounds: "old" or "new" (the build started first in each round), rounds.
run_half() {
  local first=$1
  local -a slot=("$old" "$new") args=("$old_args" "$new_args") port=()
  [[ $first == new ]] && slot=("$new" "$old") args=("$new_args" "$old_args")
  local k r
  # Each server binds port 0 and reports the port it got on its first line, read through a FIFO
  # (EOF if it exits first). A port picked here could already be taken: the ephemeral range
  # overlaps any range chosen at random, and under ctest -j other tests hold ports too.
  local line fifo=$work/listening
  for k in 0 1; do
    mkfifo "$fifo"
    "${slot[k]}/bin/lather-perf-server" --port 0 --threads 2 --quiet >"$fifo" 2>"$work/server.log" &
    server_pids+=($!)
    line=''
    read -r -t 10 line <"$fifo"
    rm -f "$fifo"
    [[ $line =~ 127\.0\.0\.1:([0-9]+)/ ]] ||
      { echo "ab.sh: ${slot[k]}'s server did not start: $(cat "$work/server.log")" >&2; exit 1; }
    port[k]=${BASH_REMATCH[1]}
  done
  for ((r = 0; r < $2; r++)); do
    local -a pid=()
    for k in 0 1; do
      # shellcheck disable=SC2086 # ARGS split at spaces on purpose
      timeout $((seconds + 60)) "${slot[k]}/bin/lather-bench" \
        --url "http://127.0.0.1:${port[k]}/perf" --threads "$clients" --client-threads 2 \
        --packet-size "$packet_size" --time "$seconds" --warmup 1 --json --no-progress \
        ${args[k]} >"$work/$k.json" 2>/dev/null &
      pid[k]=$!
    done
    wait "${pid[@]}"
    local tps0 tps1
    tps0=$(grep -o '"total_tps":[0-9.]*' "$work/0.json" | head -1 | cut -d: -f2)
    tps1=$(grep -o '"total_tps":[0-9.]*' "$work/1.json" | head -1 | cut -d: -f2)
    [[ -n $tps0 && -n $tps1 ]] || { echo "ab.sh: a run failed" >&2; continue; }
    if [[ $first == old ]]; then
      echo "old first: OLD $tps0 NEW $tps1" | tee -a "$work/rounds"
    else
      echo "new first: OLD $tps1 NEW $tps0" | tee -a "$work/rounds"
    fi
  done
  stop_servers
}

echo "ab.sh: OLD $old${old_args:+ ($old_args)}, NEW $new${new_args:+ ($new_args)}; $clients clients, PacketSize $packet_size, ${seconds} s rounds"
run_half old $(((rounds + 1) / 2))
run_half new $((rounds / 2))
touch "$work/rounds"
/usr/bin/python3 - "$work/rounds" <<'EOF'
import statistics, sys
halves = {"old": [], "new": []}
for line in open(sys.argv[1]):
    f = line.split()
    halves[f[0]].append(float(f[5]) / float(f[3]))
show = lambda v: " ".join(f"{x:.3f}" for x in sorted(v))
for k in ("old", "new"):
    if halves[k]:
        print(f"NEW/OLD, {k.upper()} in the first slot: {show(halves[k])}; median {statistics.median(halves[k]):.3f}")
if not (halves["old"] and halves["new"]):
    sys.exit("ab.sh: no estimate: a slot order has no successful round")
a, b = statistics.median(halves["old"]), statistics.median(halves["new"])
print(f"estimate NEW/OLD: {(a * b) ** 0.5:.3f} (the second slot's bias: {(a / b) ** 0.5:.3f})")
EOF
