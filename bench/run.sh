#!/usr/bin/env bash
# bench/run.sh <mode> — run one benchmark and print its summary table.
#
# Modes:
#   xml   lather's XML reader vs expat vs libxml2 (+ lather's writer), ~1 minute.
#   bind  lather vs gSOAP: serialize+parse of the CXF request, 1..1000 items, ~2 minutes.
#   mtom  MB/s of a 100 MB attachment echoed through lather as an MTOM part, the same bytes as
#         inline base64, and gSOAP's MTOM (gsoap-mtom-peer, when gSOAP is installed), in one
#         run; SIZE (bytes, default 100000000), ROUNDS (default 3, the best counts), ~1 minute.
#   dynamic  lather::dynamic_client vs zeep in the same run: echoComplexTypeDoc calls/s against
#         lather-perf-server (one client thread each, alternated ROUNDS times) and the load time
#         of the largest corpus WSDL (vSphere), ~1 minute.
#   wss   WS-Security: calls/s of plain calls, UsernameToken digest and an RSA-SHA256 signature,
#         lather beside gSOAP's wsse plugin in the same run, ~1 minute.
#   codegen  lather-wsdl2cpp beside gSOAP's wsdl2h + soapcpp2 on vSphere, EWS, Bing Ads and ONVIF
#         device+media: generation time, lines, compile time at -j2 (wall, CPU) and object size
#         of the generated code (objects, their text+data, and linked into one program)
#         (bench/codegen.py; its options follow, e.g. `--contracts onvif` alone: ~13 CPU minutes
#         at -O2; `--tools lather`, `--opt O0`, `--mem-limit GIB` (one compile's address space,
#         default 4), `--results bench/RESULTS.md`; `--help`). All four: hours at -O2 on this box.
#   gsoap-samples  gSOAP's own sample messages (soapcpp2's) for every WSDL corpus service through
#         the corpus checker, per service: the `gSOAP` column of docs/wsdl-corpus.md
#         (bench/gsoap_samples.py; `--services a,b`, `--work DIR`; ~3 minutes; writes
#         bench/results/gsoap-samples.json).
#
# Environment: BUILD_DIR (default <repo>/build; configured if needed, the mode's target is
# brought up to date first), REPETITIONS (default 3), MIN_TIME (seconds per repetition, 0.3).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-$repo/build}"
python=/usr/bin/python3

usage() {
  # The comment block at the top of this file.
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//'
  exit 2
}

# ensure_target <target>: configure (Release) if needed and bring the target up to date, so a
# stale binary never produces the figures.
ensure_target() {
  if [[ ! -f "$build_dir/CMakeCache.txt" ]]; then
    cmake -S "$repo" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  fi
  cmake --build "$build_dir" --target "$1" -j2 >/dev/null
}

run_xml() {
  ensure_target lather-bench-xml
  local json log
  json="$(mktemp)"
  log="$(mktemp)"
  # RETURN traps outlive the function in bash: clear it once it has run.
  trap 'rm -f "$json" "$log"; trap - RETURN' RETURN
  local status=0
  "$build_dir/bin/lather-bench-xml" \
    --benchmark_repetitions="${REPETITIONS:-3}" \
    --benchmark_min_time="${MIN_TIME:-0.3}" \
    --benchmark_report_aggregates_only=true \
    --benchmark_out="$json" --benchmark_out_format=json >/dev/null 2>"$log" || status=$?
  # The correctness checks that ran before timing (and any failure).
  grep -E '^(checked|CHECK FAILED|FATAL)' "$log" || cat "$log"
  [[ -s "$json" ]] || return "$status"
  "$python" - "$json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["benchmarks"]
rate = {}   # (kind, engine, document) -> median bytes/s
errors = {}
for b in runs:
    name = b.get("run_name", b["name"])
    kind, engine, doc = name.split("/", 2)
    if b.get("error_occurred"):
        errors[(kind, engine, doc)] = b.get("error_message", "error")
    elif b.get("aggregate_name") == "median":
        rate[(kind, engine, doc)] = b["bytes_per_second"] / 1e6
docs = []
for b in runs:
    kind, engine, doc = b.get("run_name", b["name"]).split("/", 2)
    if kind == "parse" and doc not in docs:
        docs.append(doc)
def cell(key):
    if key in rate:
        return f"{rate[key]:10.1f}"
    return f"{'ERROR' if key in errors else '-':>10}"
print(f"{'document':<20}{'lather MB/s':>12}{'expat MB/s':>12}{'libxml2 MB/s':>14}{'lather/expat':>14}")
for doc in docs:
    l, e, x = (("parse", eng, doc) for eng in ("lather", "expat", "libxml2"))
    ratio = f"{rate[l] / rate[e]:13.2f}x" if l in rate and e in rate else f"{'-':>14}"
    print(f"{doc:<20}{cell(l):>12}{cell(e):>12}{cell(x):>14}{ratio}")
for (kind, engine, doc), v in sorted(rate.items()):
    if kind == "write":
        print(f"writer ({engine}) writing {doc}: {v:.1f} MB/s")
for key, msg in errors.items():
    print(f"ERROR {'/'.join(key)}: {msg}")
print("MB = 10^6 bytes; median of repetitions, CPU time.")
PY
  return "$status"
}

# wrk: the HTTP layer alone — wrk POSTs a ~2 KB SOAP 1.1 request to lather-http-echo (which
# streams the body back) at 1, 16 and 256 connections. Environment: DURATION (seconds per
# run, default 5), CONNECTIONS (default "1 16 256"), THREADS (server threads, default 2).
run_wrk() {
  ensure_target lather-http-echo
  command -v wrk >/dev/null || { echo "wrk is not installed" >&2; return 1; }
  local dir pid port=""
  dir="$(mktemp -d)"
  "$python" - "$dir/body.xml" <<'PY'
import sys
pad = "x" * 1950
open(sys.argv[1], "w").write(
    '<?xml version="1.0" encoding="UTF-8"?><soap:Envelope '
    'xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>'
    f'<echo>{pad}</echo></soap:Body></soap:Envelope>')
PY
  "$build_dir/bin/lather-http-echo" --threads "${THREADS:-2}" >"$dir/port" 2>"$dir/log" &
  pid=$!
  for _ in $(seq 50); do
    port="$(awk '/^port/ {print $2}' "$dir/port")"
    [[ -n "$port" ]] && break
    sleep 0.1
  done
  if [[ -z "$port" ]]; then
    kill "$pid" 2>/dev/null || true
    echo "lather-http-echo did not start" >&2
    return 1
  fi
  printf '%-12s%14s%14s%10s\n' connections requests/s latency-avg errors
  local c threads out
  for c in ${CONNECTIONS:-1 16 256}; do
    threads=2
    ((c < 2)) && threads=1
    out="$(BODY="$dir/body.xml" wrk -t"$threads" -c"$c" -d"${DURATION:-5}"s -s "$repo/bench/wrk-post.lua" \
      "http://127.0.0.1:$port/perf")"
    printf '%-12s%14s%14s%10s\n' "$c" \
      "$(awk '/Requests\/sec/ {print $2}' <<<"$out")" \
      "$(awk '/Latency/ {print $2}' <<<"$out")" \
      "$(grep -c -E 'Non-2xx|Socket errors' <<<"$out" || true)"
  done
  kill -TERM "$pid"
  wait "$pid" || true
  cat "$dir/log"
  rm -rf "$dir"
}

run_bind() {
  ensure_target lather-bench-bind
  local json log
  json="$(mktemp)"
  log="$(mktemp)"
  trap 'rm -f "$json" "$log"; trap - RETURN' RETURN
  local status=0
  "$build_dir/bin/lather-bench-bind" \
    --benchmark_repetitions="${REPETITIONS:-3}" \
    --benchmark_min_time="${MIN_TIME:-0.3}" \
    --benchmark_report_aggregates_only=true \
    --benchmark_out="$json" --benchmark_out_format=json >/dev/null 2>"$log" || status=$?
  grep -E '^(checked|CHECK FAILED)' "$log" || true
  [[ -s "$json" ]] || { cat "$log"; return "$status"; }
  "$python" - "$json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["benchmarks"]
med = {}  # (op, engine, items) -> benchmark record (median)
for b in runs:
    if b.get("aggregate_name") != "median" or b.get("error_occurred"):
        continue
    op, engine, items = b["run_name"].split("/")
    med[(op, engine, int(items))] = b
def ns(b):
    scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b["time_unit"]]
    return b["cpu_time"] * scale
for op in ("roundtrip", "serialize", "parse"):
    print(f"{op}: CPU ns per message, MB/s of message text, heap allocations per message")
    print(f"{'items':>6}{'lather ns':>13}{'gSOAP ns':>14}{'ratio':>8}{'lather MB/s':>13}"
          f"{'gSOAP MB/s':>12}{'lather allocs':>15}{'gSOAP allocs':>14}")
    for items in sorted({k[2] for k in med if k[0] == op}):
        l, g = med.get((op, "lather", items)), med.get((op, "gsoap", items))
        row = f"{items:>6}{ns(l):>13.0f}" if l else f"{items:>6}{'-':>13}"
        row += f"{ns(g):>14.0f}" if g else f"{'-':>14}"
        row += f"{ns(g) / ns(l):>7.1f}x" if l and g else f"{'-':>8}"
        for b in (l, g):
            w = 13 if b is l else 12
            row += f"{b['bytes_per_second'] / 1e6:>{w}.1f}" if b else f"{'-':>{w}}"
        row += f"{l['allocs']:>15.1f}" if l else f"{'-':>15}"
        row += f"{g['allocs']:>14.1f}" if g else f"{'-':>14}"
        print(row)
    print()
print("ratio = gSOAP time / lather time; median of repetitions; MB = 10^6 bytes.")
PY
  return "$status"
}

# multiref: RPC/encoded arrays of N structs by multi-ref (N = 1k, 10k, 100k, 1M), encode and
# decode time per element and the 1M/1k ratio (goal <= 1.5x). Environment: SIZES (default
# 1000,10000,100000,1000000), REPETITIONS (default 3). Needs ~700 MB of memory at 1M.
run_multiref() {
  ensure_target lather-bench-multiref
  "$build_dir/bin/lather-bench-multiref" --sizes "${SIZES:-1000,10000,100000,1000000}" \
    --reps "${REPETITIONS:-3}"
}

# dynamic: lather-bench-dynamic and bench/dynamic/zeep_dynamic.py take turns against one
# lather-perf-server (DURATION seconds each, default 5; ROUNDS turns, default 2), then load
# vSphere's WSDL (LOADS times each, default 3). Medians of the turns; ratios lather/zeep.
run_dynamic() {
  ensure_target lather-bench-dynamic
  ensure_target lather-perf-server
  local shared="$repo/../shared" dir pid port=""
  dir="$(mktemp -d)"
  "$build_dir/bin/lather-perf-server" --port 0 --threads 1 >"$dir/server" 2>&1 &
  pid=$!
  for _ in $(seq 100); do
    port="$(sed -n 's/^listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$dir/server")"
    [[ -n "$port" ]] && break
    sleep 0.05
  done
  if [[ -z "$port" ]]; then
    kill "$pid" 2>/dev/null || true
    echo "lather-perf-server did not start" >&2
    return 1
  fi
  local url="http://127.0.0.1:$port/perf" wsdl="$shared/bench/cxf-perf/perf.wsdl"
  local vsphere="$shared/wsdl-corpus/vmware-vsphere/vimService.wsdl" round
  for round in $(seq "${ROUNDS:-2}"); do
    "$build_dir/bin/lather-bench-dynamic" --wsdl "$wsdl" --address "$url" \
      --seconds "${DURATION:-5}" >>"$dir/results"
    "$python" "$repo/bench/dynamic/zeep_dynamic.py" --wsdl "$wsdl" --address "$url" \
      --seconds "${DURATION:-5}" >>"$dir/results"
  done
  kill -TERM "$pid"
  wait "$pid" || true
  "$build_dir/bin/lather-bench-dynamic" --load "$vsphere" --loads "${LOADS:-3}" >>"$dir/results"
  "$python" "$repo/bench/dynamic/zeep_dynamic.py" --load "$vsphere" --loads "${LOADS:-3}" \
    >>"$dir/results"
  "$python" - "$dir/results" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    if not line.startswith("RESULT "):
        continue
    f = dict(kv.split("=", 1) for kv in line.split()[1:])
    for k, v in f.items():
        if k != "engine":
            rows.setdefault((f["engine"], k), []).append(float(v))
def med(engine, key):
    v = rows.get((engine, key))
    return statistics.median(v) if v else None
lc, zc = med("lather-dynamic", "calls_per_s"), med("zeep", "calls_per_s")
ll, zl = med("lather-dynamic", "load_ms"), med("zeep", "load_ms")
print(f"{'':<34}{'lather dynamic':>16}{'zeep':>12}{'ratio':>10}")
if lc and zc:
    print(f"{'echoComplexTypeDoc calls/s':<34}{lc:>16.0f}{zc:>12.0f}{lc / zc:>9.1f}x")
w = med("lather-dynamic", "write_read_us")
if w:
    print(f"{'  write + read, CPU us (no network)':<34}{w:>16.1f}")
if ll and zl:
    print(f"{'vSphere WSDL load, ms':<34}{ll:>16.1f}{zl:>12.1f}{zl / ll:>9.1f}x")
lcpu, zcpu = med("lather-dynamic", "load_cpu_ms"), med("zeep", "load_cpu_ms")
if lcpu and zcpu:
    print(f"{'  CPU ms (user + system)':<34}{lcpu:>16.1f}{zcpu:>12.1f}{zcpu / lcpu:>9.1f}x")
print("calls: one client thread each, alternating turns against one lather-perf-server "
      "(--threads 1); medians of the turns. load: lather::dynamic_client (load + operation "
      "listing) vs zeep.Client(wsdl); medians; the CPU figure is the one the machine's load "
      "moves least.")
PY
  rm -rf "$dir"
}

# mtom: lather-bench-mtom runs lather's client and server in one process, then gSOAP's peer
# client against its peer server (built with the tests, tests/interop/gsoap).
run_mtom() {
  ensure_target lather-bench-mtom
  local peer=()
  if cmake --build "$build_dir" --target gsoap-mtom-peer -j2 >/dev/null 2>&1; then
    peer=(--gsoap-peer "$build_dir/bin/gsoap-mtom-peer")
  else
    echo "gsoap-mtom-peer not built (gSOAP missing or LATHER_TESTS off): lather only"
  fi
  "$build_dir/bin/lather-bench-mtom" --size "${SIZE:-100000000}" --rounds "${ROUNDS:-3}" \
    "${peer[@]}"
}

# wss: lather-bench-wss and gsoap-wss-bench (bench/gsoap: gSOAP's wsse plugin) take turns, each
# a server thread and a client over one loopback keep-alive connection calling add(2, 3) for
# DURATION seconds (default 3), per mode (plain, UsernameToken digest, signature), ROUNDS times
# (default 3). The certificates (a CA and a signer it issued, RSA 2048) are made for the run.
run_wss() {
  ensure_target lather-bench-wss
  ensure_target gsoap-wss-bench
  local dir round mode
  dir="$(mktemp -d)"
  trap 'rm -rf "$dir"; trap - RETURN' RETURN
  (
    cd "$dir"
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -subj '/CN=bench CA' \
      -days 2 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -keyout signer.key -out signer.csr \
      -subj '/O=lather/CN=signer' 2>/dev/null
    openssl x509 -req -in signer.csr -CA ca.pem -CAkey ca.key -set_serial 1 -days 2 \
      -out signer.pem 2>/dev/null
  )
  for round in $(seq "${ROUNDS:-3}"); do
    for mode in plain digest sign; do
      "$build_dir/bin/lather-bench-wss" --mode "$mode" --seconds "${DURATION:-3}" \
        --certs "$dir" >>"$dir/results"
      if [ "$mode" = sign ]; then
        "$build_dir/bin/lather-bench-wss" --mode sign --seconds "${DURATION:-3}" \
          --certs "$dir" --openssl-cache off >>"$dir/results"
      fi
      "$build_dir/bin/gsoap-wss-bench" --mode "$mode" --seconds "${DURATION:-3}" \
        --certs "$dir" >>"$dir/results"
    done
  done
  "$python" - "$dir/results" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    if line.startswith("RESULT "):
        f = dict(kv.split("=", 1) for kv in line.split()[1:])
        rows.setdefault((f["engine"], f["mode"]), []).append(float(f["calls_per_s"]))
med = {k: statistics.median(v) for k, v in rows.items()}
names = {"plain": "plain", "digest": "UsernameToken digest", "sign": "signature (RSA-SHA256)"}
print(f"{'calls/s':<26}{'lather':>10}{'gSOAP':>10}{'ratio':>8}{'lather/plain':>14}{'gSOAP/plain':>13}")
for mode in ("plain", "digest", "sign"):
    l, g = med.get(("lather", mode)), med.get(("gsoap", mode))
    lp, gp = med.get(("lather", "plain")), med.get(("gsoap", "plain"))
    row = f"{names[mode]:<26}{l or 0:>10.0f}{g or 0:>10.0f}"
    row += f"{l / g:>7.2f}x" if l and g else f"{'-':>8}"
    row += f"{l / lp:>14.2f}" if l and lp else f"{'-':>14}"
    row += f"{g / gp:>13.2f}" if g and gp else f"{'-':>13}"
    print(row)
l, g = med.get(("lather-malloc", "sign")), med.get(("gsoap", "sign"))
if l:
    row = f"{'  OpenSSL cache off':<26}{l:>10.0f}{g or 0:>10.0f}"
    row += f"{l / g:>7.2f}x" if g else f"{'-':>8}"
    print(row)
print("one client, one server thread, one keep-alive connection, in one process each; medians "
      "of the rounds. signature: Timestamp + Body signed by the client (BinarySecurityToken, "
      "exc-c14n, RSA-SHA256), verified by the server against the CA; responses unsigned. "
      "lather runs with lather::wsse's OpenSSL cache (no malloc per signed call) unless "
      "'cache off'.")
PY
}

# codegen: bench/codegen.py with the rest of the command line.
run_codegen() {
  ensure_target lather-wsdl2cpp
  BUILD_DIR="$build_dir" "$python" "$repo/bench/codegen.py" "$@"
}

case "${1:-}" in
  xml) run_xml ;;
  wss) run_wss ;;
  dynamic) run_dynamic ;;
  bind) run_bind ;;
  wrk) run_wrk ;;
  multiref) run_multiref ;;
  mtom) run_mtom ;;
  codegen) shift; run_codegen "$@" ;;
  gsoap-samples) shift; "$python" "$repo/bench/gsoap_samples.py" "$@" ;;
  *) usage ;;
esac
