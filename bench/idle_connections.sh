#!/usr/bin/env bash
# bench/idle_connections.sh — what N idle keep-alive connections cost lather-perf-server.
#
#   bench/idle_connections.sh [--build DIR] [--connections N] [--threads T] [--hold SECONDS]
#
# Starts DIR/bin/lather-perf-server (default DIR: build) on a free loopback port with
# --max-connections N, then from one client process (python3): opens N keep-alive connections,
# makes one echoStringDoc call on each (every answer checked), and holds them idle. It reads
# the server's VmRSS and open descriptors (/proc/PID) at start (after one call on a connection
# that is closed again), with the N connections held, and after they have closed; and checks
# that connection N+1 is refused cleanly (503 with Connection: close). Prints one line per
# step and a RESULT line:
#   RESULT connections=N baseline_kb=.. held_kb=.. per_connection_b=.. after_close_kb=.. ...
# Exit status 0 when every call was answered, N+1 was refused and the RSS after closing is
# within 1.5x the baseline; 1 otherwise; 2 on usage or setup errors.
#
# Descriptors: the server needs N + a few and the client N + a few; the script raises its soft
# RLIMIT_NOFILE to the hard limit (both processes inherit it) and stops when that is too low.
# The server it starts is stopped by PID; the client runs under timeout(1).
set -uo pipefail

usage() { sed -n '2,/^set -uo/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//'; exit 2; }
build=build connections=10000 threads=2 hold=2
while (($#)); do
  case $1 in
    --build) build=${2:?}; shift ;;
    --connections) connections=${2:?}; shift ;;
    --threads) threads=${2:?}; shift ;;
    --hold) hold=${2:?}; shift ;;
    -h|--help) usage ;;
    *) usage ;;
  esac
  shift
done
server_bin=$build/bin/lather-perf-server
[[ -x $server_bin ]] || { echo "idle_connections.sh: $server_bin is not built" >&2; exit 2; }
command -v python3 > /dev/null || { echo "idle_connections.sh: python3 is missing" >&2; exit 2; }

hard=$(ulimit -Hn)
[[ $hard == unlimited ]] || ((hard >= connections + 64)) || {
  echo "idle_connections.sh: RLIMIT_NOFILE hard limit $hard < $((connections + 64))" >&2
  exit 2
}
ulimit -n "$hard"

work=$(mktemp -d)
server_pid=
cleanup() {
  [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

"$server_bin" --port 0 --threads "$threads" --max-connections "$connections" --quiet \
  > "$work/server.out" 2> "$work/server.err" &
server_pid=$!
port=
for _ in $(seq 100); do
  port=$(grep -o '127\.0\.0\.1:[0-9]*' "$work/server.out" | head -1 | cut -d: -f2)
  [[ -n $port ]] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.05
done
[[ -n $port ]] || { echo "idle_connections.sh: the server did not start" >&2; cat "$work/server.err" >&2; exit 2; }

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$server_pid/status"; }
fds() { ls "/proc/$server_pid/fd" | wc -l; }

# The client: reads commands on stdin ("warm", "open", "extra", "close"), answers one line each.
cat > "$work/client.py" <<'EOF'
import socket, sys

port, count = int(sys.argv[1]), int(sys.argv[2])
NS = "http://cxf.apache.org/cxf/performance/types"

def request(text):
    body = ('<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap='
            '"http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><p:echoStringDoc xmlns:p="'
            + NS + '"><p:in>' + text + '</p:in></p:echoStringDoc></soap:Body></soap:Envelope>')
    body = body.encode()
    head = ("POST /perf HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/xml; charset=utf-8\r\n"
            'SOAPAction: ""\r\nContent-Length: %d\r\n\r\n' % len(body)).encode()
    return head + body

def read_response(s):
    """Status, headers (lower-case names) and body of one Content-Length response."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            raise ConnectionError("closed before the response head")
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    while len(rest) < length:
        chunk = s.recv(65536)
        if not chunk:
            raise ConnectionError("closed inside the response body")
        rest += chunk
    return status, headers, rest[:length]

def call(s, i):
    text = "call %d" % i
    s.sendall(request(text))
    status, _, body = read_response(s)
    return status == 200 and (">" + text + "<").encode() in body

socks = []
for line in sys.stdin:
    cmd = line.strip()
    if cmd == "warm":
        s = socket.create_connection(("127.0.0.1", port))
        ok = call(s, -1)
        s.close()
        print("warm ok=%d" % ok, flush=True)
    elif cmd == "open":
        failed = 0
        for i in range(count):
            s = socket.create_connection(("127.0.0.1", port))
            socks.append(s)
        for i, s in enumerate(socks):
            try:
                if not call(s, i):
                    failed += 1
            except OSError:
                failed += 1
        print("open connections=%d failed=%d" % (len(socks), failed), flush=True)
    elif cmd == "extra":
        s = socket.create_connection(("127.0.0.1", port))
        s.settimeout(10)
        try:
            s.sendall(request("one too many"))
            status, headers, _ = read_response(s)
            closed = s.recv(1) == b""
            print("extra status=%d connection=%s closed=%d"
                  % (status, headers.get("connection", "-"), closed), flush=True)
        except OSError as e:
            print("extra status=0 error=%s" % type(e).__name__, flush=True)
        s.close()
    elif cmd == "close":
        for s in socks:
            s.close()
        socks = []
        print("closed", flush=True)
EOF

coproc CLIENT { timeout 600 python3 "$work/client.py" "$port" "$connections"; }
ask() {
  echo "$1" >&"${CLIENT[1]}"
  local reply
  read -r -t 300 reply <&"${CLIENT[0]}" || { echo "idle_connections.sh: the client did not answer '$1'" >&2; exit 1; }
  echo "$reply"
}

warm=$(ask warm)
baseline_kb=$(rss_kb) baseline_fds=$(fds)
echo "baseline: RSS $baseline_kb kB, $baseline_fds descriptors ($warm)"

t0=$(date +%s.%N)
opened=$(ask open)
t1=$(date +%s.%N)
sleep "$hold"  # idle: the connections hold nothing but their own state now
held_kb=$(rss_kb) held_fds=$(fds)
echo "held: RSS $held_kb kB, $held_fds descriptors ($opened; opened and called in $(awk "BEGIN {printf \"%.1f\", $t1 - $t0}") s)"

extra=$(ask extra)
echo "connection $((connections + 1)): $extra"

ask close > /dev/null
# Closing is asynchronous on the server: wait (bounded) for its descriptors to return.
for _ in $(seq 200); do
  (($(fds) <= baseline_fds + 2)) && break
  sleep 0.05
done
after_kb=$(rss_kb) after_fds=$(fds)
echo "after close: RSS $after_kb kB, $after_fds descriptors"

per_connection=$(((held_kb - baseline_kb) * 1024 / connections))
failed=$(sed -n 's/.*failed=\([0-9]*\).*/\1/p' <<< "$opened")
extra_status=$(sed -n 's/.*status=\([0-9]*\).*/\1/p' <<< "$extra")
echo "RESULT connections=$connections baseline_kb=$baseline_kb held_kb=$held_kb" \
  "per_connection_b=$per_connection after_close_kb=$after_kb failed=$failed" \
  "extra_status=$extra_status fds_held=$held_fds fds_after=$after_fds"
((failed == 0)) && [[ $extra_status == 503 ]] && ((after_kb * 2 <= baseline_kb * 3))
