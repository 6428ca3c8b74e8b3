#!/usr/bin/env bash
# Soak: lather-perf-server under 1,000 keep-alive clients for N minutes (not run in CI).
#
#   bench/soak.sh [--minutes N] [--clients C] [--build DIR] [--port P] [--threads T]
#
# The clients are lather-bench processes (fibers, one connection each, every echo checked),
# one per (operation, PacketSize) group, mixing all three DocPortType operations with
# PacketSize 1, 10, 100 and 1000, each client on one connection for the whole run; per-minute
# figures come from the server's /metrics (one kept-alive connection). Beside them, 1% of
# the well-formed rate (measured over the previous minute) is hostile: requests made from the
# hostile catalogue of the test suite (tests/hostile/xml_hostile_test.cpp's documents, the
# generated attacks it describes, and broken HTTP framing), each on its own connection; each
# must get an HTTP answer (4xx/5xx) or a close, never hang.
# Report: throughput per minute, errors (well-formed calls: must be 0), hostile requests and
# their answers, server RSS and open descriptors (/proc/PID/fd) at start, each minute, at the
# end, and once the clients have left. Exit status 1 if a well-formed call failed, the server
# died, or the descriptors did not come back to their baseline.
set -euo pipefail
cd "$(dirname "$0")/.."

minutes=10 clients=1000 build=build port=0 threads=0
minute_s=${SOAK_MINUTE_S:-60}  # shorter "minutes" only to try the script itself
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) minutes=$2; shift 2 ;;
    --clients) clients=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "soak.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
for tool in lather-perf-server lather-bench; do
  [ -x "$build/bin/$tool" ] || { echo "soak.sh: $build/bin/$tool missing (build it first)" >&2; exit 2; }
done

work=$(mktemp -d /tmp/lather-soak.XXXXXX)
server_pid=""
cleanup() {
  # Only what this script started, by PID.
  for p in $(cat "$work"/pids 2>/dev/null) $server_pid; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT

# 1,000 clients in groups: (operation, PacketSize, share of the clients in per mille).
groups=(
  "echoComplexTypeDoc 1 300" "echoComplexTypeDoc 10 150" "echoComplexTypeDoc 100 50"
  "echoComplexTypeDoc 1000 10" "echoStringDoc 1 200" "echoStringDoc 100 90"
  "echoStringDoc 1000 10" "echoBase64Doc 1 150" "echoBase64Doc 1000 40"
)

# Every client is a descriptor in the server: at the usual soft limit (1024) the server holds
# ~1000 connections and accepts the rest only as descriptors free up (50 ms apart).
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt $((clients + 100)) ]; then
  echo "soak.sh: the descriptor limit ($(ulimit -n)) is below $((clients + 100))" >&2; exit 2
fi
server_args=(--address 127.0.0.1 --port "$port" --quiet)
[ "$threads" -gt 0 ] && server_args+=(--threads "$threads")
"$build/bin/lather-perf-server" "${server_args[@]}" >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
for _ in $(seq 100); do
  grep -q "listening on" "$work/server.out" 2>/dev/null && break
  sleep 0.1
done
url=$(grep -o 'http://[^ ]*/perf' "$work/server.out" | head -1)
[ -n "$url" ] || { echo "soak.sh: the server did not start" >&2; cat "$work/server.err" >&2; exit 1; }
hostport=${url#http://}; hostport=${hostport%%/*}

rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$server_pid/status" 2>/dev/null || echo 0; }
fds() { ls "/proc/$server_pid/fd" 2>/dev/null | wc -l; }
sample() { printf '%-18s RSS %7d KiB  fds %5d\n' "$1" "$(rss_kb)" "$(fds)"; }

echo "lather soak: $clients clients, $minutes min, server $url (pid $server_pid), $(nproc) cores"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
# One warm-up call per group, so the baseline has the server's pools and stacks for them.
for g in "${groups[@]}"; do
  read -r op size _ <<<"$g"
  "$build/bin/lather-bench" --url "$url" --operation "$op" --packet-size "$size" --count 1 \
    --warmup 0 --guard-calls 0 --no-progress --json >/dev/null
done
# And a short burst, so the server has also spun once (its worker threads' first spin opens
# /proc/loadavg for good) before the descriptors are counted.
"$build/bin/lather-bench" --url "$url" --threads 16 --client-threads 1 --time 2 --warmup 0 \
  --guard-calls 0 --no-progress --json >/dev/null
baseline_fds=$(fds)
sample "start"

# Hostile requests: 1% of the previous minute's well-formed rate (fixed 10/s in minute 1).
echo 10 >"$work/hostile_rate"
python3 - "$hostport" "$work/hostile_rate" "$work/hostile.log" "$((minutes * minute_s))" <<'EOF' &
import os, re, socket, sys, time
host, port = sys.argv[1].rsplit(":", 1)
rate_file, log, seconds = sys.argv[2], sys.argv[3], int(sys.argv[4])
src = open("tests/hostile/xml_hostile_test.cpp", encoding="utf-8").read()
docs = [eval('"' + d + '"') for d in re.findall(r'expect_error\(\s*"((?:[^"\\]|\\.)*)"', src)]
docs += [
    "<a>" + "<b>" * 100000 + "</b>" * 100000 + "</a>",             # nesting far over the limit
    "<a " + " ".join(f"x{i}='1'" for i in range(20000)) + "/>",     # attribute count
    "<a x='" + "y" * (2 << 20) + "'/>",                              # one huge attribute value
    "<" + "n" * 100000 + "/>",                                       # a huge name
    "<!DOCTYPE a [<!ENTITY x 'y'>]><a>&x;</a>",                      # DTD (never accepted)
    "<a>" + "&amp;" * 200000 + "</a>",
]
env = ('<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>{}'
       '</soap:Body></soap:Envelope>')
def post(body, extra=""):
    b = body.encode("utf-8", "surrogateescape") if isinstance(body, str) else body
    return (f"POST /perf HTTP/1.1\r\nHost: soak\r\nContent-Type: text/xml; charset=utf-8\r\n"
            f"{extra}Content-Length: {len(b)}\r\n\r\n").encode() + b
reqs = [post(d) for d in docs] + [post(env.format(d)) for d in docs[:20]]
reqs += [
    b"POST /perf HTTP/1.1\r\nHost: soak\r\nContent-Length: 10\r\nContent-Length: 20\r\n\r\n0123456789",
    b"POST /perf HTTP/1.1\r\nHost: soak\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    b"POST /perf HTTP/1.1\r\nHost: soak\r\nContent-Length: 999999999999\r\n\r\n<a>",
    b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\nHost: soak\r\n\r\n",
    b"POST /perf HTTP/1.1\r\n" + b"X: y\r\n" * 5000 + b"\r\n",
    b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03",               # a TLS hello on plain HTTP
    post("<a/>", "Content-Type: application/json\r\n"),
    post(env.format("<x:nope xmlns:x='urn:x'/>")),
]
sent = answered = closed = hung = 0
statuses = {}
end = time.time() + seconds
i = 0
while time.time() < end:
    try:
        rate = max(1.0, float(open(rate_file).read()))
    except (OSError, ValueError):
        rate = 10.0
    t0 = time.time()
    req = reqs[i % len(reqs)]
    i += 1
    try:
        s = socket.create_connection((host, int(port)), timeout=10)
        try:
            s.sendall(req)
        except OSError:
            pass  # refused early: the answer (or close) is what counts
        try:
            s.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        s.close()
        sent += 1
        if data.startswith(b"HTTP/1."):
            answered += 1
            code = data[9:12].decode()
            statuses[code] = statuses.get(code, 0) + 1
        else:
            closed += 1
    except socket.timeout:
        sent += 1; hung += 1
    except OSError:
        sent += 1; closed += 1
    with open(log, "w") as f:
        f.write(f"{sent} {answered} {closed} {hung} "
                + ",".join(f"{k}:{v}" for k, v in sorted(statuses.items())) + "\n")
    time.sleep(max(0.0, 1.0 / rate - (time.time() - t0)))
EOF
echo $! >>"$work/pids"

# Per minute: the server's own counters (SOAP calls answered, faults: the hostile requests'
# included; well-formed errors are the clients' own count at the end), from GET /metrics on
# one connection opened before the clients come (a new one would queue behind them).
python3 - "$hostport" "$minute_s" "$minutes" >"$work/metrics" <<'PY' &
import http.client, sys, time
host, port = sys.argv[1].rsplit(":", 1)
every, count = int(sys.argv[2]), int(sys.argv[3])
c = http.client.HTTPConnection(host, int(port), timeout=120)
def sample_quiet():
    c.request("GET", "/metrics")
    calls = faults = 0
    for line in c.getresponse().read().decode().splitlines():
        if line.startswith("lather_requests_total"):
            calls += int(float(line.rsplit(" ", 1)[1]))
        elif line.startswith("lather_faults_total"):
            faults += int(float(line.rsplit(" ", 1)[1]))
    return calls, faults
start = time.time()
last = sample_quiet()
print(*last, flush=True)
# Asked every 10 s (under the server's 30 s idle timeout), printed once a minute.
step = min(10, every)
for i in range(1, count * every // step + 1):
    time.sleep(max(0.0, start + i * step - time.time()))
    try:
        last = sample_quiet()
    except (OSError, http.client.HTTPException):
        c.close()  # reopened by the next request
    if (i * step) % every == 0:
        print(*last, flush=True)
PY
echo $! >>"$work/pids"
while [ ! -s "$work/metrics" ]; do sleep 0.2; done
# The clients: one lather-bench per group for the whole run (each client keeps its connection).
: >"$work/pids.clients"
gi=0
for g in "${groups[@]}"; do
  read -r op size share <<<"$g"
  n=$(( clients * share / 1000 )); [ "$n" -ge 1 ] || n=1
  "$build/bin/lather-bench" --url "$url" --operation "$op" --packet-size "$size" \
    --threads "$n" --client-threads 1 --time $((minutes * minute_s)) --warmup 0 --guard-calls 0 \
    --timeout 60 --no-progress --json >"$work/g$gi.json" 2>"$work/g$gi.err" &
  echo $! >>"$work/pids.clients"
  gi=$((gi + 1))
done
cat "$work/pids.clients" >>"$work/pids"
printf '%-8s %12s %10s %8s %12s %8s\n' minute calls calls/s faults "RSS KiB" fds
prev_calls=0 prev_faults=0
for m in $(seq 1 "$minutes"); do
  while [ "$(wc -l <"$work/metrics")" -le "$m" ]; do sleep 1; done
  read -r now_calls now_faults < <(sed -n "$((m + 1))p" "$work/metrics")
  [ "$m" -gt 1 ] || read -r prev_calls prev_faults < <(head -1 "$work/metrics")
  calls=$((now_calls - prev_calls))
  echo $(( calls / minute_s / 100 )) >"$work/hostile_rate"  # 1% of calls/s
  printf '%-8s %12d %10d %8d %12d %8d\n' "$m" "$calls" $((calls / minute_s)) \
    $((now_faults - prev_faults)) "$(rss_kb)" "$(fds)"
  prev_calls=$now_calls prev_faults=$now_faults
  [ "$m" -eq $(( (minutes + 1) / 2 )) ] && mid="$(rss_kb) $(fds)"
  [ "$m" -eq 2 ] && rss_minute2=$(rss_kb)
  kill -0 "$server_pid" 2>/dev/null || { echo "soak.sh: the server died" >&2; exit 1; }
done
for p in $(cat "$work/pids.clients"); do wait "$p" || true; done
total_calls=0 total_errors=0
for f in "$work"/g*.json; do
  c=$(grep -o '"invocations":[0-9]*' "$f" | head -1 | cut -d: -f2)
  e=$(grep -o '"errors":[0-9]*' "$f" | tail -1 | cut -d: -f2)
  [ -n "$c" ] || { c=0; e=$((${e:-0} + 1)); echo "$(basename "$f") gave no result: $(head -c 300 "${f%.json}.err")" >&2; }
  total_calls=$((total_calls + c)); total_errors=$((total_errors + ${e:-0}))
done
end_rss=$(rss_kb) end_fds=$(fds)
# Clients gone: the hostile sender stops at the end of its time; wait for it.
for p in $(cat "$work/pids"); do wait "$p" 2>/dev/null || true; done
after_fds=$(fds)
for _ in $(seq 100); do
  [ "$after_fds" -le "$baseline_fds" ] && break
  sleep 0.1
  after_fds=$(fds)
done
read -r h_sent h_answered h_closed h_hung h_codes <"$work/hostile.log" || true
echo
echo "well-formed calls: $total_calls, errors: $total_errors"
echo "hostile requests: ${h_sent:-0} (${h_answered:-0} answered: ${h_codes:-none}; ${h_closed:-0} closed without an answer; ${h_hung:-0} hung)"
printf '%-18s RSS %7s KiB  fds %5s\n' "middle" "${mid% *}" "${mid#* }"
printf '%-18s RSS %7d KiB  fds %5d\n' "end" "$end_rss" "$end_fds"
sample "clients left"
echo "baseline fds: $baseline_fds; load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "${rss_minute2:-}" ]; then
  awk -v a="$rss_minute2" -v b="$end_rss" \
    'BEGIN { printf "RSS growth from the end of minute 2 to the end: %+.1f%%\n", (b - a) * 100 / a }'
fi
status=0
[ "$total_errors" -eq 0 ] || { echo "FAIL: well-formed calls failed" >&2; status=1; }
[ "${h_hung:-0}" -eq 0 ] || { echo "FAIL: hostile requests hung" >&2; status=1; }
[ "$after_fds" -le "$baseline_fds" ] || { echo "FAIL: descriptors did not return to baseline" >&2; status=1; }
rm -rf "$work"
exit $status
