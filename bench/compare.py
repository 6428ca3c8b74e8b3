#!/usr/bin/env python3
"""lather against its peers (gSOAP, gRPC, Ruby DRb) in one run on one machine.

    bench/compare.py [run] [--quick] [--build DIR] [--only 1,2,...] [--no-results]
                           [--json FILE] [--results FILE]
    bench/compare.py render [--json FILE] [--results FILE] [--plots DIR] [--stdout]

run (the default) measures, prints each table, and unless --no-results merges this run's
sections into the JSON results file (bench/results/compare.json), then renders the markdown
tables into bench/RESULTS.md (between the compare.sh markers, other text untouched) and the
gnuplot PNGs into bench/results/. render does only the last step, from the JSON.

  --quick       CI-sized: 1 s windows, fewer points, no 50 MB message (< 3 min)
  --build DIR   build directory holding bin/ (default: build; relative to the repo root)
  --bin DIR     the binaries' directory itself (default: the build directory's bin/)
  --only LIST   run only these measurements (1 e2e, 2 wrk, 3 client, 4 clients, 5 axis,
                6 sizes, 7 drb, 8 tls)
  --no-results  print only; touch neither the JSON, bench/RESULTS.md nor bench/results/
  --json FILE   the JSON results file (default bench/results/compare.json)
  --results FILE  the markdown file holding the tables (default bench/RESULTS.md)
  --plots DIR   the PNG plots (default bench/results)
  --work DIR    scratch: server logs, captured requests, plot data (default bench/work)

Measurements:
  1 end to end: lather->lather, gSOAP->gSOAP (as generated and fixed QName prefix), gRPC->gRPC,
    echoComplexTypeDoc, PacketSize 1 and 100, client threads 1, 16, 128
  2 server alone: wrk posting one captured gSOAP request to the lather and gSOAP servers
  3 client alone: lather-bench vs gsoap-perf-client, both against the gSOAP server
  4 client-count table of the 2024 CXF post (per-client and total calls/s), with paired ratios
  5 the 2002 Axis table: 1000 items sent as 1..1000 calls, total time per split
  6 message size sweep: round-trip ms, ms/MB, server peak RSS (VmHWM), chunking default/never
  7 the 2003 experiment: lather-fetch-server vs the Ruby DRb server, 100 fetch calls
  8 TLS: lather->lather and gSOAP->gSOAP (its OpenSSL build) over HTTPS: keep-alive calls/s at
    PacketSize 1, and calls on a new connection each (full handshakes, and resumed ones), in
    short paired rounds (median of the per-round ratios), lather-bench driving both servers
    too, CPU per call of each side, and the TLS parameters each server negotiated

The stacks alternate inside every measurement so that drift (other load on the box, CPU
frequency) hits all of them alike. The JSON keeps every raw sample; medians, paired ratios,
geometric means and goal verdicts are computed when rendering, so a table can be re-rendered
(or its statistics changed) without measuring again. A missing lather binary prints
"lather: not built" and its column stays empty. Every server started here is stopped by PID;
every client runs with a time limit, so a run cannot hang.
"""

import argparse
import datetime
import json
import math
import os
import re
import resource
import shutil
import subprocess
import sys
import threading
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN, END = "<!-- compare.sh:begin -->", "<!-- compare.sh:end -->"
SECTION_MARKER = re.compile(r"^<!-- compare\.sh:section (\d+) -->$", re.M)
ALL_SECTIONS = (1, 2, 3, 4, 5, 6, 7, 8)

# guard: lather-bench's untimed calls per thread around each window (CXF: 25); axis_warm: the
# warm-up of each Axis client process; axis_reps: Axis rounds (client processes) per stack;
# axis_windows: interleaved cycles over all splits per gSOAP round, axis_lather_windows per
# lather round (lather's cycles take ~0.2 s, gSOAP's ~2 s; neighbouring splits of few calls
# differ by one call's fixed cost, ~0.1 ms or 1.5% of a window, so lather needs ~800 paired
# windows to resolve them); clients_reps: interleaved passes over all client counts (section 4);
# clients_pairs: back-to-back pairs of the best row's count and the largest (section 4's goal
# without the winner's curse); e2e_reps: interleaved passes over section 1's points (its
# PacketSize-100 points move 15-20% between passes on a shared box, for every stack alike, so
# two passes leave the ratios to luck).
MODES = {
    "quick": dict(secs=1, warm=1, reps=1, e2e_reps=1, guard=2, axis_warm=0, axis_reps=2,
                  axis_windows=2, axis_lather_windows=5, clients_reps=1, clients_pairs=1,
                  e2e_threads=[1, 16, 128], wrk_conns=[1, 16, 256], client_counts=[1, 16, 1024],
                  sweep_items=[6, 64, 640], axis_calls=[1, 10, 100, 1000],
                  tls_rounds=1, tls_secs=1, tls_warm=1, tls_threads=[16],
                  tls_cpu_calls=[100, 10], tls_cpu_rounds=1),
    "full": dict(secs=5, warm=2, reps=2, e2e_reps=3, guard=25, axis_warm=1, axis_reps=5,
                 axis_windows=5, axis_lather_windows=160, clients_reps=3, clients_pairs=7,
                 e2e_threads=[1, 16, 128], wrk_conns=[1, 16, 256],
                 client_counts=[1, 8, 16, 32, 64, 100, 128, 256, 512, 1024],
                 sweep_items=[6, 64, 640, 6400, 32000],
                 axis_calls=[1, 2, 4, 5, 10, 20, 40, 50, 100, 200, 250, 500, 1000],
                 tls_rounds=4, tls_secs=1, tls_warm=1, tls_threads=[1, 16],
                 tls_cpu_calls=[400, 25], tls_cpu_rounds=2),
}

TITLES = {
    1: "1. End to end: echoComplexTypeDoc, client and server of the same stack",
    2: "2. Server alone: wrk posting one captured gSOAP request",
    3: "3. Client alone: lather-bench and gsoap-perf-client against the gSOAP server",
    4: "4. Client count: per-client and total calls/s (echoComplexTypeDoc, PacketSize 1)",
    5: "5. 1000 items as 1..1000 calls (the 2002 Axis table): total time per split",
    6: "6. Message size sweep: round trip, ms/MB, server peak RSS",
    7: "7. The 2003 experiment: 100 fetch calls, lather (RPC/encoded SOAP) vs Ruby DRb",
    8: "8. TLS: keep-alive calls/s and new-connection handshakes, lather vs gSOAP (OpenSSL)",
}

# =============================================================================================
# statistics (pure; unit-tested)


def number(x):
    """x when it is a measured number, else None (None, "-", "timeout" are no measurement)."""
    return x if isinstance(x, (int, float)) and not isinstance(x, bool) else None


def best(values):
    """The largest measured value, None when there is none."""
    vals = [v for v in map(number, values) if v is not None]
    return max(vals) if vals else None


def lowest(values):
    vals = [v for v in map(number, values) if v is not None]
    return min(vals) if vals else None


def median(values):
    v = sorted(x for x in map(number, values) if x is not None)
    n = len(v)
    if not n:
        return None
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def median_interval(values):
    """Distribution-free ~95% interval for the median: order statistics n/2 -+ 0.98 sqrt(n)."""
    v = sorted(values)
    n = len(v)
    h = 0.98 * math.sqrt(n)
    return v[max(int(n / 2 - h), 1) - 1], v[min(int(n / 2 + 1 + h + 0.999), n) - 1]


def ratio(a, b):
    """a / b, None when either is missing or b is 0."""
    a, b = number(a), number(b)
    return None if a is None or not b else a / b


def geomean(values):
    """Geometric mean of the positive measured values (ratios), None when there is none."""
    vals = [v for v in map(number, values) if v is not None and v > 0]
    return math.exp(sum(map(math.log, vals)) / len(vals)) if vals else None


def paired_ratios(rounds, base, split):
    """Ratios split/base of windows timed in the same cycle, over every round."""
    return [y / x for r in rounds for x, y in zip(r.get(str(base), []), r.get(str(split), []))
            if number(x) and number(y) and x > 0 and y > 0]


def fmt0(x):
    x = number(x)
    return "-" if x is None else f"{x:.0f}"


def fmt2(x):
    x = number(x)
    return "-" if x is None else f"{x:.2f}"


def fmt_ratio(a, b):
    return fmt2(ratio(a, b))


def verdict(ok):
    return "not measured" if ok is None else "met" if ok else "not met"


# =============================================================================================
# parsing each tool's output (pure; unit-tested)


def parse_lather_bench(text):
    """The last JSON object lather-bench --json printed, {} when there is none."""
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line.startswith("{") and line.endswith("}"):
            try:
                return json.loads(line)
            except json.JSONDecodeError:
                continue
    return {}


def parse_result_line(text):
    """key=value pairs of the last "RESULT ..." line a peer client printed (numbers as float)."""
    lines = [l for l in text.splitlines() if l.startswith("RESULT ")]
    if not lines:
        return {}
    fields = {}
    for item in lines[-1].split()[1:]:
        key, sep, value = item.partition("=")
        if not sep:
            continue
        try:
            fields[key] = float(value)
        except ValueError:
            fields[key] = value
    return fields


def parse_wrk(text):
    """wrk's Requests/sec, None when it failed or any answer was not a 2xx."""
    if "Non-2xx" in text:
        return None
    m = re.search(r"^Requests/sec:\s*([0-9.]+)", text, re.M)
    return float(m.group(1)) if m else None


def parse_listening_port(text):
    """The port of a "listening on [scheme://]127.0.0.1:P" line, None before it is printed."""
    m = re.search(r"listening on (?:[a-z]+://)?127\.0\.0\.1:(\d+)", text)
    return int(m.group(1)) if m and int(m.group(1)) else None


def parse_tls_handshakes(metrics):
    """(full, resumed) TLS handshakes from lather's /metrics, None when it has no such lines."""
    counts = {}
    for line in metrics.splitlines():
        m = re.match(r'^lather_tls_handshakes_total\{resumed="(true|false)"\}\s+(\d+)', line)
        if m:
            counts[m.group(1)] = int(m.group(2))
    if len(counts) != 2:
        return None
    return counts["false"], counts["true"]


def parse_cpu_ticks(stat):
    """utime + stime (clock ticks) of a /proc/PID/stat line, None when it does not parse."""
    fields = stat.rsplit(")", 1)[-1].split()
    try:
        return int(fields[11]) + int(fields[12])  # fields 14 and 15 of the whole line
    except (IndexError, ValueError):
        return None


def parse_schedstat_ns(text):
    """The run time (ns) of a /proc/PID/task/TID/schedstat line, None when it does not parse."""
    try:
        return int(text.split()[0])
    except (IndexError, ValueError):
        return None


def parse_s_client(text):
    """{protocol, cipher, group, signature} from `openssl s_client -brief` (None: not shown)."""
    def field(name):
        m = re.search(rf"^{name}:\s*(.+)$", text, re.M)
        return m.group(1).strip() if m else None
    group = field("Server Temp Key") or field("Negotiated TLS1.3 group")
    signature = field("Signature type")
    digest = field("Hash used")
    return dict(protocol=field("Protocol version"), cipher=field("Ciphersuite"),
                group=group.split(",")[0] if group else None,
                signature=f"{signature}/{digest}" if signature and digest else signature)


def parse_vm_hwm_kb(status):
    m = re.search(r"^VmHWM:\s*(\d+) kB", status, re.M)
    return int(m.group(1)) if m else None


def parse_request_bytes(metrics):
    """Mean request body bytes per echoComplexTypeDoc call at /perf from lather's /metrics."""
    n = b = None
    for line in metrics.splitlines():
        m = re.match(r'^(lather_requests_total|lather_request_bytes_total)\{(.*)\}\s+(\S+)', line)
        if not m or 'path="/perf"' not in m.group(2) or \
                'operation="echoComplexTypeDoc"' not in m.group(2):
            continue
        if m.group(1) == "lather_requests_total":
            n = float(m.group(3))
        else:
            b = float(m.group(3))
    return round(b / n) if n and b is not None else None


def parse_lather_splits(text):
    """lather-bench --splits --json: ({calls: [window ms or None]}, {calls: cpu ms per window})."""
    line = next((l for l in text.splitlines() if l.startswith('{"operation"')), None)
    if line is None:
        return {}, {}
    windows, cpu = {}, {}
    for s in json.loads(line).get("splits", []):
        ws = s.get("windows_ms", [])
        windows[str(s["calls"])] = [w if w >= 0 else None for w in ws]
        if ws:
            cpu[str(s["calls"])] = s["cpu_ms"] / len(ws)
    return windows, cpu


def parse_gsoap_splits(text):
    """gsoap-perf-client --splits: {calls: [window ms or None]} (a failed window is -1)."""
    windows = {}
    for m in re.finditer(r"^SPLIT calls=(\d+) \S+ windows_ms=(\S*)$", text, re.M):
        windows[m.group(1)] = [float(w) if float(w) >= 0 else None
                               for w in m.group(2).split(",") if w]
    return windows


def parse_curl_mean_ms(text, n):
    """Mean ms of n curl transfers ("code size seconds" lines); None unless all n are 200s
    with a body."""
    rows = [l.split() for l in text.splitlines() if l.strip()]
    if len(rows) != n or any(len(r) != 3 or r[0] != "200" or r[1] == "0" for r in rows):
        return None
    return sum(float(r[2]) for r in rows) * 1000 / n


def as_generated_request(fixed):
    """gSOAP's request with QName prefixes as generated (a fresh xmlns:_N on every item), made
    from its fixed-prefix one by a linear rewrite: gSOAP's own writer needs minutes at 50 MB."""
    text = fixed.replace(' xmlns:cxf="http://cxf.apache.org"', "", 1)
    count = iter(range(1 << 62))
    text = re.sub(r"<x1:item>",
                  lambda _: f'<x1:item xmlns:_{next(count)}="http://cxf.apache.org">', text)
    count = iter(range(1 << 62))
    return re.sub(r">cxf:return<", lambda _: f">_{next(count)}:return<", text)


def sweep_calls(request_bytes, mode):
    """Calls per size-sweep point: ~20 MB (4 MB quick) of requests, 2..300 calls."""
    return min(max(int((4e6 if mode == "quick" else 2e7) / request_bytes), 2), 300)


def gsoap_generated_calls(request_bytes):
    """Calls of gSOAP's as-generated request (quadratic in size): ~2 MB, 1..30 calls."""
    return min(max(int(2e6 / request_bytes), 1), 30)


# =============================================================================================
# rendering: JSON section -> markdown lines (pure; unit-tested)


def run_line(sec):
    return f"_Run {sec['ran_at']}, {sec['mode']} mode, load average {sec['load']}._"


def table(header, aligns, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join(aligns) + "|"]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return out


def e2e_rows(sec):
    """Section 1: per point the best of the passes of each stack, and the ratios."""
    rows = []
    for p in sec["points"]:
        b = {s: best(v) for s, v in p["runs"].items()}
        gsoap = best([b.get("gsoap"), b.get("gsoap_fixed")])
        rows.append(dict(packet=p["packet"], threads=p["threads"], best=b,
                         vs_gsoap=ratio(b.get("lather"), gsoap),
                         vs_grpc=ratio(b.get("lather"), b.get("grpc"))))
    return rows


def render_e2e(sec):
    p = sec["params"]
    rows = e2e_rows(sec)
    out = [
        f"Calls/s, best of {p['e2e_reps']} interleaved run(s) of {p['secs']} s after {p['warm']} s "
        "warm-up (passes",
        "alternate which stack runs first; the same rule for every stack); gSOAP with keep-alive,",
        "thread pool, SOAP_IO_STORE, -O2, memory freed per request; gRPC sync.",
        "Servers: `lather-perf-server --port P --quiet`, `gsoap-perf-server --port 0 --threads 200",
        "--io store [--qname-prefix fixed]`, `grpc-perf-server --port 0`. Clients: `lather-bench "
        "--url U",
        f"--operation echoComplexTypeDoc --threads T --time {p['secs']} --packet-size K --warmup "
        f"{p['warm']}",
        f"--guard-calls {p['guard']} --json`,",
        f"`gsoap-perf-client --url U --threads T --time {p['secs']} --warmup {p['warm']} "
        "--packet-size K --io store",
        f"--qname-prefix generated|fixed`, `grpc-perf-client --port P --threads T --time "
        f"{p['secs']} --warmup",
        f"{p['warm']} --packet-size K`.",
        "",
    ]
    out += table(["PacketSize", "threads", "lather", "gSOAP", "gSOAP fixed prefix", "gRPC",
                  "lather/gSOAP", "lather/gRPC"], ["---:"] * 8,
                 [[r["packet"], r["threads"], fmt0(r["best"].get("lather")),
                   fmt0(r["best"].get("gsoap")), fmt0(r["best"].get("gsoap_fixed")),
                   fmt0(r["best"].get("grpc")), fmt2(r["vs_gsoap"]), fmt2(r["vs_grpc"])]
                  for r in rows])
    s = e2e_summary(sec)
    out += [
        "",
        "Goals: lather >= 2x gSOAP (ratio against the faster gSOAP variant) and >= gRPC at",
        f"PacketSize 1 and 100; lather aggregate at PacketSize 1: {fmt0(s['best_p1'])} calls/s "
        "(goal >= 34,722).",
        f"Geometric mean over the points: lather/gSOAP {fmt2(s['geomean_gsoap'])}, lather/gRPC "
        f"{fmt2(s['geomean_grpc'])}. Verdicts: >= 2x gSOAP at every point "
        f"**{verdict(s['goal_gsoap'])}**, >= gRPC at every point **{verdict(s['goal_grpc'])}**, "
        f"aggregate **{verdict(s['goal_aggregate'])}**.",
    ]
    return out


def all_at_least(values, floor):
    vals = [number(v) for v in values]
    return None if not vals or None in vals else all(v >= floor for v in vals)


def e2e_summary(sec):
    rows = e2e_rows(sec)
    best_p1 = best([r["best"].get("lather") for r in rows if r["packet"] == 1])
    return dict(best_p1=best_p1,
                geomean_gsoap=geomean([r["vs_gsoap"] for r in rows]),
                geomean_grpc=geomean([r["vs_grpc"] for r in rows]),
                goal_gsoap=all_at_least([r["vs_gsoap"] for r in rows], 2.0),
                goal_grpc=all_at_least([r["vs_grpc"] for r in rows], 1.0),
                goal_aggregate=None if best_p1 is None else best_p1 >= 34722)


def render_wrk(sec):
    p = sec["params"]
    out = [f"curl check failed: {c['stack']}, PacketSize {c['packet']} (see "
           "bench/work/curl-response.xml)" for c in sec.get("curl_failed", [])]
    out += [
        f"Requests/s, best of {p['reps']} run(s): `BODY=bench/work/gsoap-request-pK.xml wrk -t "
        f"min(2,C) -c C -d {p['secs']}s -s bench/wrk-post.lua URL`",
        "(the request gSOAP's client writes, QName prefixes as generated; both servers checked "
        "with curl first).",
        "",
    ]
    rows = []
    for pt in sec["points"]:
        lather, gsoap = best(pt["runs"].get("lather", [])), best(pt["runs"].get("gsoap", []))
        rows.append([pt["packet"], pt["connections"], fmt0(lather), fmt0(gsoap),
                     fmt_ratio(lather, gsoap)])
    return out + table(["PacketSize", "connections", "lather", "gSOAP", "lather/gSOAP"],
                       ["---:"] * 5, rows)


def render_client(sec):
    p = sec["params"]
    out = [f"Calls/s against `gsoap-perf-server --threads 64 --io store`, best of {p['reps']} "
           f"run(s) of {p['secs']} s;", "clients as in section 1.", ""]
    rows = []
    for pt in sec["points"]:
        lather, gsoap = best(pt["runs"].get("lather", [])), best(pt["runs"].get("gsoap", []))
        rows.append([pt["packet"], pt["threads"], fmt0(lather), fmt0(gsoap),
                     fmt_ratio(lather, gsoap)])
    return out + table(["PacketSize", "threads", "lather-bench", "gsoap-perf-client",
                        "lather/gSOAP"], ["---:"] * 5, rows)


def clients_rows(sec):
    """Section 4: per client count and stack, the pass with the best total (its per-client
    figure with it) and the lowest total."""
    rows = []
    for c in sec["params"]["client_counts"]:
        row = {"clients": c}
        for stack in ("lather", "gsoap"):
            passes = [x for x in sec["passes"].get(stack, {}).get(str(c), [])
                      if number(x.get("total")) is not None]
            top = max(passes, key=lambda x: x["total"], default=None)
            row[stack] = dict(total=top and top["total"], per=top and top.get("per"),
                              low=lowest(x["total"] for x in passes))
        rows.append(row)
    return rows


def best_row_count(rows):
    """The client count (not the largest) of lather's best total, None without one."""
    cands = [(r["lather"]["total"], r["clients"]) for r in rows[:-1]
             if number(r["lather"]["total"]) is not None]
    return max(cands)[1] if cands else None


def clients_summary(sec):
    rows = clients_rows(sec)
    totals = [r["lather"]["total"] for r in rows]
    table_ratio = ratio(totals[-1] if totals else None, best(totals))
    ratios = [ratio(p["largest"], p["best"]) for p in sec.get("pairs", [])
              if number(p.get("largest")) and number(p.get("best"))]
    ratios = [float(f"{r:.2f}") for r in ratios]  # the table shows 2 decimals; decide on those
    med = median(ratios)
    return dict(table_ratio=table_ratio, ratios=ratios, median=med,
                goal=None if med is None else med >= 0.9)


def render_clients(sec):
    p = sec["params"]
    ct, secs, warm, guard = p["client_threads"], p["secs"], p["warm"], p["guard"]
    out = [
        f"{secs} s per point after {warm} s warm-up: `lather-bench --url U --threads C "
        f"--client-threads {ct} --time {secs}",
        f"--warmup {warm} --guard-calls {guard} --json` (overall_throughput, total_tps; C clients,"
        " each with its own",
        f"connection, as fibers on {ct} threads) and `gsoap-perf-client --url U --threads C",
        f"--time {secs} --warmup {warm} --io store` (per_thread, calls_per_s; one thread per "
        "client) against `gsoap-perf-server",
        "--threads 1030 --io store` (one worker per keep-alive connection).",
        f"Each row is the best of {p['clients_reps']} interleaved pass(es) over all rows, the same "
        "rule for both",
        "stacks: passes alternate forward and backward over the client counts and which stack runs",
        "first, so drift on the shared box spreads over all rows; a row's per-client figure comes",
        "from the pass that gave its best total. The minimum total of the passes is shown as the "
        "spread.",
        "",
    ]
    rows = clients_rows(sec)
    out += table(["clients", "lather per client", "lather total", "lather lowest pass",
                  "gSOAP per client", "gSOAP total", "gSOAP lowest pass"], ["---:"] * 7,
                 [[r["clients"], fmt0(r["lather"]["per"]), fmt0(r["lather"]["total"]),
                   fmt0(r["lather"]["low"]), fmt0(r["gsoap"]["per"]), fmt0(r["gsoap"]["total"]),
                   fmt0(r["gsoap"]["low"])] for r in rows])

    def errors(stack):
        e = sec.get("errors", {}).get(stack, [])
        return " " + " ".join(f"{x['clients']}:{x['errors']:.0f}" for x in e) if e else " none"

    out += ["", "Failed calls (clients:count over all passes; the figures count successful calls "
            f"only): lather{errors('lather')};", f"gSOAP{errors('gsoap')}.", ""]
    s = clients_summary(sec)
    largest = p["client_counts"][-1]
    if not s["ratios"]:
        return out + [f"Goal: lather total at {largest} clients >= 90% of its best row: table "
                      f"{fmt2(s['table_ratio'])} of best (no pair ran)."]
    pairs = ", ".join(f"{fmt0(x['largest'])} / {fmt0(x['best'])}" for x in sec["pairs"]
                      if number(x.get("largest")) and number(x.get("best")))
    return out + [
        f"Paired: {largest} vs {sec['best_count']} clients (the best row's count), "
        f"{len(s['ratios'])} pair(s) run back to back,",
        f"alternating which goes first (`lather-bench` as above; {largest} / {sec['best_count']} "
        f"calls/s: {pairs}): ratios",
        f"{' '.join(f'{r:.2f}' for r in s['ratios'])}, median **{s['median']:.2f}**.",
        "",
        f"Goal: lather total at {largest} clients >= 90% of its best row, read on the paired "
        "median:",
        f"**{s['median']:.2f}: {verdict(s['goal'])}**. The table's own ratio, "
        f"{fmt2(s['table_ratio'])}, sets one row's best",
        f"pass against the largest of {len(rows)} rows' best passes, which noise alone pulls down "
        "by up to",
        "~7 % (docs/benchmarks.md: an A/A run with every row at 100 clients).",
    ]


def axis_summary(sec):
    """Section 5: per split the window statistics and paired ratios; the goal's verdicts."""
    calls = sec["params"]["axis_calls"]
    lather, gsoap = sec["rounds"].get("lather", []), sec["rounds"].get("gsoap", [])
    rows, medians, to_one = [], [], [1.0]
    above, within, inverted, one_fastest = [], [], [], []
    for i, c in enumerate(calls):
        key = str(c)
        lw = [w for r in lather for w in r.get(key, []) if number(w)]
        gw = [w for r in gsoap for w in r.get(key, []) if number(w)]
        rm = [m for m in (median([w for w in r.get(key, []) if number(w)]) for r in lather)
              if m is not None]
        row = dict(calls=c, items=1000 // c, lather_min=lowest(lw), lather_median=median(lw),
                   rounds_low=lowest(rm), rounds_high=best(rm), lather_max=best(lw),
                   cpu=median(sec.get("cpu", {}).get(key, [])), gsoap_min=lowest(gw),
                   gsoap_median=median(gw), gsoap_max=best(gw), vs_previous=None, vs_one=None)
        for base, field in ((calls[i - 1] if i else None, "vs_previous"),
                            (calls[0] if i else None, "vs_one")):
            ratios = paired_ratios(lather, base, c) if base else []
            if not ratios:
                continue
            lo, hi = median_interval(ratios)
            row[field] = (median(ratios), lo, hi)
            pair = f"{c} vs {base} calls"
            if field == "vs_previous":
                (above if lo > 1 else inverted if hi < 1 else within).append(pair)
            else:
                to_one.append(median(ratios))
                if lo <= 1:
                    one_fastest.append(pair)
        rows.append(row)
        medians.append(row["lather_median"])

    def lower_at(v):
        drops = [f"{calls[i]} calls" for i in range(1, len(v)) if v[i] < v[i - 1]]
        return "monotonic" if not drops else "not monotonic (lower at " + ", ".join(drops) + ")"

    measured = bool(lather) and None not in medians
    return dict(rows=rows, measured=measured,
                by_pairs=(lower_at(to_one) if len(to_one) == len(calls) else "not measured")
                if measured else None,
                by_median=lower_at(medians) if measured else None,
                above=above, within=within, inverted=inverted, one_fastest=one_fastest)


def render_axis(sec):
    p = sec["params"]
    calls = p["axis_calls"]
    lather_n = p["axis_reps"] * p["axis_lather_windows"]
    gsoap_n = p["axis_reps"] * p["axis_windows"]
    splits = ",".join(map(str, calls))
    out = [
        "One client thread. 1000 items are sent as C calls of 1000/C items (lather-bench: each "
        "split's",
        "C requests hold the 1000 items in slices and it keeps C responses, verified after the "
        "window",
        "is timed; see docs/benchmarks.md); every split has its own",
        "warm connection, and one client process times **interleaved cycles**: each cycle times "
        "one",
        "window (the split's C calls) of every split, in order and then in reverse in the next",
        "cycle, so whatever drifts on this shared 2-vCPU box (other load, where the host runs the",
        f"vCPUs) hits all splits alike within a fraction of a second. {p['axis_reps']} rounds "
        "(client processes) per stack,",
        f"alternating which stack goes first; lather {p['axis_lather_windows']} cycles per round "
        f"({lather_n} windows per split), gSOAP",
        f"{p['axis_windows']} ({gsoap_n}; its cycles take ~2 s):",
        f"`lather-bench --splits {splits} --windows {p['axis_lather_windows']} --warmup "
        f"{p['axis_warm']} --guard-calls 1 --json`,",
        f"`gsoap-perf-client --splits {splits} --windows {p['axis_windows']} --warmup "
        f"{p['axis_warm']} --io store`",
        "(QName prefixes as generated). Milliseconds for all C calls: minimum, **median** over all",
        "windows, the rounds' own medians (lowest-highest) and maximum. **Paired**: the ratio of a",
        "split's window to the neighbouring split's window of the same cycle, median over all "
        "cycles",
        "with its ~95% interval (order statistics n/2 -+ 0.98 sqrt(n)); \"vs previous\" compares "
        "with the",
        "split of fewer calls above it, \"vs 1 call\" with one call of 1000 items. Pairing cancels "
        "the",
        "drift the cycles share (timing each split in its own process instead lets one split's",
        "rounds differ up to 3x). 'client CPU' is lather-bench's thread on a CPU per window "
        "(median",
        "over the rounds, from its schedstat; the server's CPU is not in it).",
        "",
    ]
    s = axis_summary(sec)

    def paired(x):
        return "-" if x is None else f"{x[0]:.3f} ({x[1]:.3f}-{x[2]:.3f})"

    out += table(["calls", "items/call", "lather min ms", "lather median", "(rounds' medians)",
                  "lather max", "vs previous (paired)", "vs 1 call (paired)", "client CPU ms",
                  "gSOAP min ms", "gSOAP median", "gSOAP max"], ["---:"] * 12,
                 [[r["calls"], r["items"], fmt2(r["lather_min"]), fmt2(r["lather_median"]),
                   f"{fmt2(r['rounds_low'])}-{fmt2(r['rounds_high'])}", fmt2(r["lather_max"]),
                   paired(r["vs_previous"]), paired(r["vs_one"]), fmt2(r["cpu"]),
                   fmt2(r["gsoap_min"]), fmt2(r["gsoap_median"]), fmt2(r["gsoap_max"])]
                  for r in s["rows"]])
    out.append("")
    if not s["measured"]:
        return out + ["Goal (lather's time grows with the number of calls): not measured "
                      "(lather missing)."]
    within = f" ({', '.join(s['within'])})" if s["within"] else ""
    one = ("measured fastest against every other split" if not s["one_fastest"]
           else "not measured faster than " + ", ".join(s["one_fastest"]))
    return out + [
        "Goal: lather's time grows with the number of calls. By the paired ratio to one call: "
        f"{s['by_pairs']}; by the median (drift between cycles not cancelled): {s['by_median']}. "
        f"Paired against the split of fewer calls: {len(s['above'])} of {len(calls) - 1} pairs "
        f"measured slower (interval above 1), {len(s['within'])} within the resolution{within}, "
        f"measured inversions: {', '.join(s['inverted']) if s['inverted'] else 'none'}. "
        f"One call of 1000 items: {one}."]


def size_cell(v):
    """Section 6, first table: one variant's figures from its raw measurement."""
    none = dict(ms="-", mb="-", mspmb="-", rss="-", ratio="-")
    if not v or number(v.get("ms")) is None or not number(v.get("request_bytes")):
        return none
    mb = v["request_bytes"] / 1048576
    growth_kb = v["rss_kb"] - v["rss_base_kb"]
    return dict(ms=f"{v['ms']:.3f}", mb=f"{mb:.3f}", mspmb=f"{v['ms'] / float(f'{mb:.3f}'):.2f}",
                rss=f"{growth_kb / 1024:.1f}", ratio=f"{growth_kb * 1024 / v['request_bytes']:.2f}")


def per_mb(ms, mb):
    if ms == "timeout" or ms is None:
        return ms
    return ms / mb


def fmt_ms(x, limit, digits=3):
    if x == "timeout":
        return f"> {limit} s"
    return "-" if number(x) is None else f"{x:.{digits}f}"


def generated_row(r, limit):
    """Section 6, second table: one size's cells."""
    mb = float(f"{r['bytes'] / 1048576:.3f}")
    fixed_mb = r["fixed_bytes"] / 1048576
    lather = r.get("lather_ms")
    gsoap = r.get("gsoap_ms")
    if gsoap == "timeout" and number(lather) is not None:  # a lower bound: the limit over gn calls
        speedup = "> " + fmt_ratio(limit * 1000 // r["gn"], float(f"{lather:.3f}"))
    else:
        speedup = fmt_ratio(gsoap, lather)
    return [r["items"], f"{mb:.3f}", fmt_ms(lather, limit),
            fmt_ms(per_mb(lather, mb), limit, 2), fmt_ms(per_mb(r.get("lather_fixed_ms"), fixed_mb),
                                                         limit, 2),
            fmt_ms(gsoap, limit), fmt_ms(per_mb(gsoap, mb), limit, 2), speedup,
            fmt_ms(per_mb(r.get("gsoap_roundtrip_ms"), mb), limit, 2)]


def render_sizes(sec):
    out = [
        "One client thread: `lather-bench --threads 1 --count N --packet-size ITEMS --warmup 0",
        "--guard-calls 1 --json [--chunking-threshold never]` against `lather-perf-server",
        "[--chunking-threshold never]`, and `gsoap-perf-client --threads 1 --count N --packet-size "
        "ITEMS",
        "--warmup 0 --io store --qname-prefix fixed` against `gsoap-perf-server --io store "
        "--qname-prefix",
        "fixed`. Each stack's request size is its own serialization of the same items (gSOAP's: "
        "its",
        "saved request; lather's: the server's /metrics request bytes per call), and each stack's",
        "ms/MB and RSS ratio use its own size. Peak RSS is the server's VmHWM after the calls "
        "minus",
        "after start-up, each point on a fresh server; 'x req' = that growth / the request size.",
        "",
    ]
    rows = []
    for r in sec["rows"]:
        d, n, g = (size_cell(r["variants"].get(v)) for v in ("default", "never", "gsoap"))
        rows.append([r["items"], d["mb"], r["calls"], d["ms"], d["mspmb"], d["rss"], d["ratio"],
                     n["mspmb"], n["rss"], g["mb"], g["ms"], g["mspmb"], g["rss"], g["ratio"]])
    out += table(["items", "lather request MB", "calls", "lather ms", "lather ms/MB",
                  "lather RSS MB", "x req", "'never' ms/MB", "'never' RSS MB", "gSOAP request MB",
                  "gSOAP ms", "gSOAP ms/MB", "gSOAP RSS MB", "x req"], ["---:"] * 14, rows)
    s = sizes_summary(sec)
    out += ["", "Goals: lather ms/MB at the largest size within 1.2x of ~100 KB (64 items) and <= "
            "5 ms/MB;", "lather peak RSS <= 1.0x the request size ('x req'). Verdicts: "
            f"flat **{verdict(s['goal_flat'])}**, <= 5 ms/MB **{verdict(s['goal_mspmb'])}**, "
            f"RSS **{verdict(s['goal_rss'])}**."]
    gen = sec.get("generated")
    if gen is None:
        return out
    limit = gen["limit"]
    out += [
        "",
        "**QName prefixes as gSOAP generates them** (a fresh `xmlns:_N` declared on every item).",
        "Servers alone, on the same request bytes: `curl --data-binary @REQUEST` N times on one",
        "keep-alive connection (mean of time_total; every answer a 200 with a body) against",
        "`lather-perf-server` and `gsoap-perf-server --io store --qname-prefix generated`; the",
        "request is gSOAP's, rewritten linearly from its fixed-prefix one (byte-identical to "
        "gSOAP's",
        "own at 64 items). gSOAP round trip: `gsoap-perf-client --qname-prefix generated "
        "--count N`",
        f"against that server. '> {limit} s': N calls did not finish within {limit} s.",
        "",
    ]
    return out + table(["items", "request MB", "lather server ms", "lather ms/MB",
                        "lather ms/MB, fixed-prefix request", "gSOAP server ms", "gSOAP ms/MB",
                        "gSOAP/lather", "gSOAP round trip ms/MB"], ["---:"] * 9,
                       [generated_row(r, limit) for r in gen["rows"]])


def sizes_summary(sec):
    cells = {r["items"]: size_cell(r["variants"].get("default")) for r in sec["rows"]}
    largest = cells[sec["rows"][-1]["items"]] if sec["rows"] else None
    small = cells.get(64)
    goal_flat = goal_mspmb = goal_rss = None
    if largest and largest["mspmb"] != "-":
        goal_mspmb = float(largest["mspmb"]) <= 5
        if small and small["mspmb"] != "-":
            goal_flat = float(largest["mspmb"]) <= 1.2 * float(small["mspmb"])
    if largest and largest["ratio"] != "-":  # the goal is about a large message
        goal_rss = float(largest["ratio"]) <= 1.0
    return dict(goal_flat=goal_flat, goal_mspmb=goal_mspmb, goal_rss=goal_rss)


def render_drb(sec):
    drb, lather = sec.get("drb_median_s"), sec.get("lather_median_s")
    return [
        "Median of 5 runs of 100 sequential fetch(\"test\") calls, seconds (2003: DRb 0.31 s,",
        "soap4r 48.6 s on a PIII-400): `ruby bench/drb/drbclient.rb --uri druby://127.0.0.1:P "
        "--calls 100",
        "--runs 5` against `ruby bench/drb/drbserver.rb --port 0`, and `lather-fetch-client --url",
        "http://127.0.0.1:P/fetch --calls 100 --runs 5` against `lather-fetch-server` (both verify",
        "the graph: shared objects shared, the cycle a cycle).",
        "",
        "| stack | 100 calls, s | vs DRb |",
        "|---|---:|---:|",
        f"| Ruby DRb (drbserver.rb / drbclient.rb) | {fmt_ms(drb, 0, 4)} | 1.00 |",
        f"| lather (lather-fetch-server / lather-fetch-client) | {fmt_ms(lather, 0, 4)} | "
        f"{fmt_ratio(lather, drb)} |",
        "",
        f"Goal: lather's 100 calls faster than DRb's (ratio < 1): "
        f"**{verdict(None if ratio(lather, drb) is None else ratio(lather, drb) < 1)}**.",
    ]


TLS_KINDS = {"keepalive": "keep-alive calls", "full": "new connection, full handshake",
             "resumed": "new connection, resumed session"}
# Who drives the servers: each stack's own client (end to end), or lather-bench for both (one
# load generator, so that the ratio is the servers' alone).
TLS_CLIENTS = {"own": "own client", "common": "lather-bench for both"}


def tls_pairs(runs):
    """lather/gSOAP of each round's two passes (run back to back), rounds where both ran."""
    return [r for r in (ratio(a, b) for a, b in zip(runs.get("lather", []),
                                                        runs.get("gsoap", []))) if r is not None]


def tls_rows(sec):
    """Section 8, per point: each stack's median pass, the paired ratios, and their median
    (the figure the goals read: drift on the box hits both passes of a pair alike)."""
    rows = []
    for p in sec["points"]:
        runs = p["runs"]
        pairs = tls_pairs(runs)
        shares = {s: [ratio(r, h) for h, r in p.get("handshakes", {}).get(s, [])]
                  for s in ("lather", "gsoap")}
        rows.append(dict(kind=p["kind"], threads=p["threads"], client=p.get("client", "own"),
                         lather=median(runs.get("lather", [])), gsoap=median(runs.get("gsoap", [])),
                         paired=median(pairs), pairs=pairs,
                         resumed={s: median(v) for s, v in shares.items()}))
    return rows


def tls_cpu_rows(sec):
    """Per CPU point: each stack's median client and server microseconds per call."""
    rows = []
    for c in sec.get("cpu", []):
        row = dict(kind=c["kind"], threads=c["threads"], client=c.get("client", "own"))
        for st in ("lather", "gsoap"):
            ok = [x for x in c["runs"].get(st, []) if x]
            row[st] = dict(client=median([x["client_us"] for x in ok]),
                           server=median([x["server_us"] for x in ok]),
                           total=median([x["client_us"] + x["server_us"] for x in ok]))
        # What the goals compare: the other stack's CPU over lather's (> 1: lather uses less).
        key = "total" if row["client"] == "own" else "server"
        row["advantage"] = ratio(row["gsoap"][key], row["lather"][key])
        rows.append(row)
    return rows


def tls_summary(sec):
    rows = [r for r in tls_rows(sec) if r["client"] == "own"]
    e2e = [r["paired"] for r in rows if r["kind"] == "keepalive"]
    hs = [r["paired"] for r in rows if r["kind"] != "keepalive"]
    cpu = [r for r in tls_cpu_rows(sec) if r["client"] == "own"]
    cpu_e2e = [r["advantage"] for r in cpu if r["kind"] == "keepalive"]
    cpu_hs = [r["advantage"] for r in cpu if r["kind"] != "keepalive"]
    return dict(goal_e2e=all_at_least(e2e, 2.0), goal_handshakes=all_at_least(hs, 1.0),
                cpu_e2e=all_at_least(cpu_e2e, 2.0), cpu_handshakes=all_at_least(cpu_hs, 1.0))


def fmt_share(x):
    x = number(x)
    return "-" if x is None else f"{100 * x:.0f}%"


def fmt_spread(values):
    return "-" if not values else f"{min(values):.2f}-{max(values):.2f}"


def tls_config_lines(config):
    """What each server negotiated with one probe (openssl s_client, OpenSSL's default offer,
    as both clients make): the check that the two sides are configured alike."""
    if not config:
        return []
    keys = ("protocol", "cipher", "group", "signature")
    out = ["Negotiated, probed with `openssl s_client -brief` (the same default offer both "
           "clients make: TLS 1.2-1.3, OpenSSL's default groups and suites):", ""]
    out += table(["server", "protocol", "cipher suite", "key exchange", "certificate"],
                 ["---"] * 5, [[s] + [config.get(s, {}).get(k) or "-" for k in keys]
                               for s in ("lather", "gsoap")])
    same = all(config.get("lather", {}).get(k) == config.get("gsoap", {}).get(k) for k in keys)
    alike = "yes" if same else "NO: the ratios compare different TLS"
    out += ["", f"Both sides alike: **{alike}**."]
    return out


def render_tls(sec):
    p = sec["params"]
    rows = tls_rows(sec)
    out = [
        f"echoComplexTypeDoc at PacketSize 1 over HTTPS. {p.get('tls_rounds', p.get('tls_reps'))} "
        "rounds; in each, "
        f"every point runs lather's pass and gSOAP's back to back ({p['tls_secs']} s timed after "
        f"{p['tls_warm']} s warm-up, the order alternating), so a pair shares the box's load. "
        "The ratio column is the median of the per-round ratios lather/gSOAP (their spread "
        "beside it); the calls/s columns are each stack's median pass. Keep-alive: one "
        "connection per client thread. New connection: every call connects, handshakes, calls "
        "and closes; full = session resumption off in the client (`--no-resume`), resumed = on "
        "(the servers allow it; `resumed` is the share of handshakes that resumed: lather from "
        "its server's /metrics, gSOAP from its client). Certificate: ECDSA P-256, made for the "
        "run, the same for both servers; both clients verify it against its CA.",
        "Servers: `lather-perf-server --port P --quiet --tls-cert server.pem --tls-key "
        "server.key`, `gsoap-perf-server-tls --port 0 --threads 200 --io store --tls-keyfile "
        "server-keyfile.pem`. Clients: `lather-bench --url https://127.0.0.1:P/perf --ca ca.pem "
        f"--threads T --time {p['tls_secs']} --warmup {p['tls_warm']} --guard-calls "
        f"{p['guard']} --json [--new-connections [--no-resume]]`, `gsoap-perf-client-tls --url "
        f"https://127.0.0.1:P/perf --ca ca.pem --threads T --time {p['tls_secs']} --warmup "
        f"{p['tls_warm']} --io store [--new-connections [--no-resume]]`; `lather-bench for both` "
        "rows drive gSOAP's server with lather-bench too (one load generator: the servers alone). "
        "For lather those rows repeat its own-client configuration, so the two lather figures of "
        "a kind differ only by the box's noise (an A/A check on the calls/s).",
        "",
    ]
    out += tls_config_lines(sec.get("config"))
    out += [""]
    out += table(["what", "threads", "client", "lather calls/s", "gSOAP calls/s",
                  "lather/gSOAP (median of pairs)", "pairs' spread", "resumed: lather",
                  "resumed: gSOAP"], ["---", "---:", "---", "---:", "---:", "---:", "---:", "---:",
                                      "---:"],
                 [[TLS_KINDS.get(r["kind"], r["kind"]), r["threads"],
                   TLS_CLIENTS.get(r["client"], r["client"]), fmt0(r["lather"]),
                   fmt0(r["gsoap"]), f"**{fmt2(r['paired'])}**" if r["client"] == "own" else
                   fmt2(r["paired"]), fmt_spread(r["pairs"]),
                   fmt_share(r["resumed"]["lather"]) if r["kind"] != "keepalive" else "",
                   fmt_share(r["resumed"]["gsoap"]) if r["kind"] != "keepalive" else ""]
                  for r in rows])
    cpu = tls_cpu_rows(sec)
    if cpu:
        c = p["tls_cpu_calls"]
        c = c if isinstance(c, list) else [20 * c, c]  # results of the older, single-pass layout
        out += ["", "CPU per call: CPU seconds the calls cost, measured as the difference "
                "between two counted passes of the same client (`--count N --warmup 0`, N = "
                f"{c[0] // 5} and {c[0]} per thread for keep-alive calls, {c[1] // 5} and "
                f"{c[1]} for new connections, {cpu[0]['threads']} threads), so that process "
                "start, thread start and the first handshake cancel out; client from its "
                "rusage, server from its threads' run time (/proc/PID/task/*/schedstat, in "
                "ns); the median of the rounds, in microseconds. This is what each stack "
                "costs, whatever CPU other work on the box leaves it; calls/s follow it when "
                "the box is quiet.", ""]
        out += table(["what", "client", "lather µs/call (client + server)",
                      "gSOAP µs/call (client + server)", "gSOAP/lather"],
                     ["---", "---", "---:", "---:", "---:"],
                     [[TLS_KINDS.get(r["kind"], r["kind"]), TLS_CLIENTS.get(r["client"],
                                                                          r["client"]),
                       f"{fmt0(r['lather']['total'])} ({fmt0(r['lather']['client'])} + "
                       f"{fmt0(r['lather']['server'])})",
                       f"{fmt0(r['gsoap']['total'])} ({fmt0(r['gsoap']['client'])} + "
                       f"{fmt0(r['gsoap']['server'])})",
                       fmt2(r["advantage"]) + (" (servers)" if r["client"] != "own" else "")]
                      for r in cpu])
    s = tls_summary(sec)
    out += ["", "Goals, end to end (own clients), on the paired medians: keep-alive calls over "
            f"TLS >= 2x gSOAP's at every thread count **{verdict(s['goal_e2e'])}**; "
            "new-connection calls (handshakes) per second not below gSOAP's "
            f"**{verdict(s['goal_handshakes'])}**. The same goals read on CPU per call "
            f"(gSOAP/lather >= 2 and >= 1): **{verdict(s['cpu_e2e'])}** and "
            f"**{verdict(s['cpu_handshakes'])}**."]
    return out


RENDERERS = {1: render_e2e, 2: render_wrk, 3: render_client, 4: render_clients, 5: render_axis,
             6: render_sizes, 7: render_drb, 8: render_tls}


def render_section(number_, sec):
    """The markdown of one section, with the marker that lets a later --only run replace it."""
    lines = [f"<!-- compare.sh:section {number_} -->", f"### {TITLES[number_]}", "",
             run_line(sec), ""]
    lines += sec.get("notes", [])
    lines += RENDERERS[number_](sec)
    return "\n".join(lines)


def old_sections(block):
    """{number: text} of the marked sections of a compare.sh block in RESULTS.md."""
    found = list(SECTION_MARKER.finditer(block))
    return {int(m.group(1)): block[m.start():(found[i + 1].start() if i + 1 < len(found)
                                              else len(block))].strip()
            for i, m in enumerate(found)}


def render_block(results, old_block=""):
    """The whole compare.sh block: JSON sections rendered, others kept from the old block."""
    texts = old_sections(old_block)
    for k, sec in results.get("sections", {}).items():
        texts[int(k)] = render_section(int(k), sec)
    run = results.get("run", {})
    header = (
        "## Peer comparison (bench/compare.sh)\n\n"
        "Tables written by `bench/compare.sh` (full) or `bench/compare.sh --quick` from "
        "`bench/results/compare.json` (`bench/compare.py render` redraws them); each says when "
        f"it ran. Last run: {run.get('started', '?')}, {run.get('mode', '?')} mode, sections "
        f"{run.get('only', '?')}. Machine: {run.get('cores', '?')} cores "
        f"({run.get('cpu', '?')}), shared with other work (1-minute load average "
        f"{run.get('load_before', '?')} at the start of the last run, "
        f"{run.get('load_after', '?')} at its end), so read ratios taken in the same run rather "
        "than absolute figures. Plots: `bench/results/*.png`. How the peers are built and "
        "configured: `bench/peers.md`.")
    body = "\n\n".join(texts[k] for k in sorted(texts))
    return f"{BEGIN}\n{header}\n\n{body}\n{END}"


def splice_block(text, block):
    """text with its compare.sh block replaced by block (appended when there is none)."""
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        return head + block + rest.split(END, 1)[1]
    return text.rstrip("\n") + "\n\n" + block + "\n"


def merge_results(old, new):
    """new's sections replace old's; the run header is new's."""
    merged = dict(old)
    merged["sections"] = dict(old.get("sections", {}))
    merged["sections"].update(new.get("sections", {}))
    merged["run"] = new.get("run", old.get("run", {}))
    merged["version"] = 1
    return merged


# =============================================================================================
# plots (gnuplot, from the JSON)


def plot_data(number_, sec):
    """{name: (data lines, gnuplot plot command with DAT for the data file)} of a section."""
    def v(x):
        x = number(x)
        return "?" if x is None else f"{x:g}"

    if number_ == 1:
        lines = [f"{r['packet']} {r['threads']} " + " ".join(
            v(r["best"].get(s)) for s in ("lather", "gsoap", "gsoap_fixed", "grpc"))
            for r in e2e_rows(sec)]
        curves = [f"using ($1=={k}?$2:1/0):{col} with linespoints title '{name} P{k}'"
                  for k in (1, 100) for col, name in ((3, "lather"), (4, "gSOAP"),
                                                      (5, "gSOAP fixed"), (6, "gRPC"))]
        return {"e2e": (lines, "set title 'echoComplexTypeDoc end to end'; set xlabel 'client "
                        "threads'; set ylabel 'calls/s'; set logscale xy; set key outside; plot "
                        "'DAT' " + ", '' ".join(curves))}
    if number_ == 4:
        lines = [f"{r['clients']} {v(r['lather']['per'])} {v(r['lather']['total'])} "
                 f"{v(r['gsoap']['per'])} {v(r['gsoap']['total'])}" for r in clients_rows(sec)]
        return {"clients": (lines, "set title 'client count (PacketSize 1)'; set xlabel 'clients';"
                            " set ylabel 'total calls/s'; set logscale x; plot 'DAT' using 1:3 "
                            "with linespoints title 'lather total', '' using 1:5 with linespoints "
                            "title 'gSOAP total'")}
    if number_ == 5:
        p = sec["params"]
        rows = axis_summary(sec)["rows"]
        lines = [f"{r['calls']} {v(r['lather_median'])} {v(r['gsoap_median'])} "
                 f"{v(r['lather_min'])} {v(r['gsoap_min'])}" for r in rows]
        return {"axis": (lines, "set title '1000 items split into C calls (interleaved; "
                         f"{p['axis_reps'] * p['axis_lather_windows']} windows per split for "
                         f"lather, {p['axis_reps'] * p['axis_windows']} for gSOAP)'; set xlabel "
                         "'calls'; set ylabel 'total ms'; set logscale xy; plot 'DAT' using 1:2 "
                         "with linespoints lc 1 title 'lather median', '' using 1:4 with lines "
                         "dt 2 lc 1 title 'lather minimum', '' using 1:3 with linespoints lc 2 "
                         "title 'gSOAP median', '' using 1:5 with lines dt 2 lc 2 title 'gSOAP "
                         "minimum'")}
    if number_ == 6:
        lines = []
        for r in sec["rows"]:
            d, n, g = (size_cell(r["variants"].get(x)) for x in ("default", "never", "gsoap"))
            lines.append(" ".join(c.replace("-", "?") for c in (
                g["mb"], d["mspmb"], n["mspmb"], g["mspmb"], d["rss"], g["rss"])))
        return {
            "sizes": (lines, "set title 'message size sweep'; set xlabel 'request MB'; set ylabel "
                      "'ms per MB'; set logscale x; plot 'DAT' using 1:2 with linespoints title "
                      "'lather', '' using 1:3 with linespoints title 'lather never chunk', '' "
                      "using 1:4 with linespoints title 'gSOAP (fixed prefix)'"),
            "sizes-rss": (lines, "set title 'server peak RSS growth'; set xlabel 'request MB'; "
                          "set ylabel 'MB'; set logscale xy; plot 'DAT' using 1:5 with "
                          "linespoints title 'lather', '' using 1:6 with linespoints title "
                          "'gSOAP', '' using 1:1 with lines title '1.0x request'")}
    return {}


def render_plots(results, plots, work):
    if not shutil.which("gnuplot"):
        return
    os.makedirs(plots, exist_ok=True)
    os.makedirs(work, exist_ok=True)
    for k, sec in results.get("sections", {}).items():
        for name, (lines, command) in plot_data(int(k), sec).items():
            dat = os.path.join(work, f"{name}.dat")
            with open(dat, "w") as f:
                f.write("\n".join(lines) + "\n")
            script = (f"set terminal pngcairo size 900,560 noenhanced; set output "
                      f"'{os.path.join(plots, name + '.png')}'; " + command.replace("DAT", dat))
            done = subprocess.run(["gnuplot", "-e", script], capture_output=True, text=True)
            if done.returncode:
                print(f"plot {name} failed: {done.stderr.strip()}", file=sys.stderr)


def render_files(json_path, results_path, plots, work, results=None):
    if results is None:
        with open(json_path) as f:
            results = json.load(f)
    text = "# Benchmark results\n"
    if os.path.exists(results_path):
        with open(results_path) as f:
            text = f.read()
    old_block = text.split(BEGIN, 1)[1].split(END, 1)[0] if BEGIN in text and END in text else ""
    tmp = results_path + ".tmp"
    with open(tmp, "w") as f:
        f.write(splice_block(text, render_block(results, old_block)))
    os.replace(tmp, results_path)
    render_plots(results, plots, work)


# =============================================================================================
# processes


class Processes:
    """The servers this run started; each is stopped by its PID, all of them at exit."""

    def __init__(self, work):
        self.work = work
        self.started = []

    def start(self, name, argv, timeout=10.0):
        """Run a server, wait (timeout s at most) for its "listening on" line; return
        (process, port) or (None, None): the port it prints. Its output goes to
        bench/work/NAME.log."""
        log = open(os.path.join(self.work, name + ".log"), "w")
        try:
            proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    text=True, errors="replace")
        except OSError as e:
            print(f"{name}: did not start: {e}", file=sys.stderr)
            return None, None
        self.started.append(proc)
        ready = threading.Event()
        seen = {}

        def drain():  # copy the output to the log; note the port once it listens
            for line in proc.stdout:
                log.write(line)
                log.flush()
                if not ready.is_set() and "listening on" in line:
                    seen["port"] = parse_listening_port(line)
                    ready.set()
            log.close()
            ready.set()

        proc.drain = threading.Thread(target=drain, daemon=True)
        proc.drain.start()
        if ready.wait(timeout) and proc.poll() is None and seen.get("port"):
            return proc, seen["port"]
        print(f"{name}: did not start (log: {log.name})", file=sys.stderr)
        self.stop(proc)
        return None, None

    def stop(self, *procs):
        for proc in procs:
            self.stop_one(proc)

    def stop_one(self, proc):
        if proc is None:
            return
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(3)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        proc.drain.join(5)  # the output's end follows the exit
        proc.stdout.close()
        if proc in self.started:
            self.started.remove(proc)

    def stop_all(self):
        for proc in list(self.started):
            self.stop(proc)


def run_bounded(limit, argv, env=None, stdin=None):
    """(exit code, output) of argv with a hard time limit; 124 when it was killed for time."""
    try:
        done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              errors="replace", timeout=limit, env=env, stdin=stdin)
        return done.returncode, done.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else e.stdout or ""
        return 124, out
    except OSError as e:
        return 127, str(e)


def tail(text, n=2):
    return " ".join(text.strip().splitlines()[-n:])


def now_utc():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def load_average():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def process_cpu_s(pid):
    """CPU seconds of a process's live threads (their schedstat, ns), else of the whole process
    from /proc/PID/stat (clock ticks); None when it is gone."""
    total = 0
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                ns = parse_schedstat_ns(f.read())
            if ns is None:
                raise OSError
            total += ns
        return total / 1e9
    except OSError:
        pass
    try:
        with open(f"/proc/{pid}/stat") as f:
            ticks = parse_cpu_ticks(f.read())
        return None if ticks is None else ticks / os.sysconf("SC_CLK_TCK")
    except OSError:
        return None


def vm_hwm_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            return parse_vm_hwm_kb(f.read())
    except OSError:
        return None


# =============================================================================================
# the measurements


class Compare:
    def __init__(self, bin_dir, mode, work):
        self.bin = bin_dir
        self.mode = mode
        self.m = MODES[mode]
        self.work = work
        self.procs = Processes(work)
        b = lambda name: os.path.join(bin_dir, name)
        self.lather_server, self.lather_bench = b("lather-perf-server"), b("lather-bench")
        self.lather_fetch = b("lather-fetch-server")
        self.lather_fetch_client = b("lather-fetch-client")
        self.gsoap_server, self.gsoap_client = b("gsoap-perf-server"), b("gsoap-perf-client")
        self.grpc_server, self.grpc_client = b("grpc-perf-server"), b("grpc-perf-client")
        self.gsoap_tls_server = b("gsoap-perf-server-tls")
        self.gsoap_tls_client = b("gsoap-perf-client-tls")

    # --- helpers

    @staticmethod
    def have(*paths):
        return all(os.access(p, os.X_OK) for p in paths)

    def need_lather(self, *paths):
        for p in paths:
            if not self.have(p):
                print(f"lather: not built ({os.path.basename(p)} missing)")
                return False
        return True

    def start_lather(self, name, binary, *args):
        # Port 0: the server binds a port of the kernel's and prints it.
        return self.procs.start(name, [binary, "--port", "0", "--quiet", *args])

    def start_peer(self, name, *argv):
        return self.procs.start(name, list(argv))

    def start_perf_servers(self, gsoap_threads, lather_needs, gsoap_needs):
        """lather-perf-server and gsoap-perf-server --threads N, each when the binaries it needs
        are built: ({stack: url}, [servers started])."""
        urls, servers = {}, []
        if self.need_lather(*lather_needs):
            p, port = self.start_lather("lather-perf-server", self.lather_server)
            if p:
                servers.append(p)
                urls["lather"] = f"http://127.0.0.1:{port}/perf"
        if self.have(*gsoap_needs):
            p, port = self.start_peer("gsoap-perf-server", self.gsoap_server, "--port", "0",
                                      "--threads", str(gsoap_threads), "--io", "store")
            if p:
                servers.append(p)
                urls["gsoap"] = f"http://127.0.0.1:{port}/perf"
        return urls, servers

    @staticmethod
    def record(point, stack, value, label):
        """One sample of a point: kept for the JSON, shown on stderr as it comes."""
        point["runs"][stack].append(value)
        where = ", ".join(f"{k} {v}" for k, v in point.items() if k not in ("runs", "handshakes"))
        print(f"  {label} {stack:<11} {where}: {fmt0(value)}", file=sys.stderr)

    def section(self, number_):
        print(f"compare: section {TITLES[number_]}", file=sys.stderr, flush=True)
        return dict(ran_at=now_utc(), mode=self.mode, load=load_average(), notes=[],
                    params={k: self.m[k] for k in self.m})

    # --- the clients, one call each: calls/s or None

    def lather_e2e(self, url, threads, packet):
        m = self.m
        rc, out = run_bounded(m["secs"] + m["warm"] + 60, [
            self.lather_bench, "--url", url, "--operation", "echoComplexTypeDoc", "--threads",
            str(threads), "--time", str(m["secs"]), "--packet-size", str(packet), "--warmup",
            str(m["warm"]), "--guard-calls", str(m["guard"]), "--json", "--no-progress"])
        r = parse_lather_bench(out)
        if rc == 0 and r.get("errors") == 0:
            return r.get("total_tps")
        print(f"lather-bench failed: {tail(out)}", file=sys.stderr)
        return None

    def gsoap_e2e(self, url, threads, packet, qname):
        m = self.m
        rc, out = run_bounded(m["secs"] + m["warm"] + 60, [
            self.gsoap_client, "--url", url, "--threads", str(threads), "--time", str(m["secs"]),
            "--warmup", str(m["warm"]), "--packet-size", str(packet), "--io", "store",
            "--qname-prefix", qname])
        if rc == 0:
            return number(parse_result_line(out).get("calls_per_s"))
        print(f"gsoap-perf-client failed: {tail(out)}", file=sys.stderr)
        return None

    def grpc_e2e(self, port, threads, packet):
        m = self.m
        rc, out = run_bounded(m["secs"] + m["warm"] + 60, [
            self.grpc_client, "--port", str(port), "--threads", str(threads), "--time",
            str(m["secs"]), "--warmup", str(m["warm"]), "--packet-size", str(packet)])
        if rc == 0:
            return number(parse_result_line(out).get("calls_per_s"))
        print(f"grpc-perf-client failed: {tail(out)}", file=sys.stderr)
        return None

    # --- 1. end to end

    def measure_e2e(self):
        sec = self.section(1)
        urls, servers = self.start_perf_servers(200, (self.lather_server, self.lather_bench),
                                                (self.gsoap_server, self.gsoap_client))
        if not self.have(self.gsoap_server, self.gsoap_client):
            print("gsoap: not built")
        elif self.mode == "full":  # the fixed-prefix variant only in full mode
            p, port = self.start_peer("gsoap-perf-server-fixed", self.gsoap_server, "--port", "0",
                                      "--threads", "200", "--io", "store", "--qname-prefix",
                                      "fixed")
            if p:
                servers.append(p)
                urls["gsoap_fixed"] = f"http://127.0.0.1:{port}/perf"
        if self.have(self.grpc_server, self.grpc_client):
            p, port = self.start_peer("grpc-perf-server", self.grpc_server, "--port", "0")
            if p:
                servers.append(p)
                urls["grpc"] = port
        else:
            print("grpc: not built")
        stacks = ["lather", "gsoap", "grpc"] if self.mode == "quick" else \
            ["lather", "gsoap", "gsoap_fixed", "grpc"]
        points = [dict(packet=k, threads=t, runs={s: [] for s in stacks})
                  for k in (1, 100) for t in self.m["e2e_threads"]]
        for rep in range(self.m["e2e_reps"]):
            for pt in points:
                for s in (stacks if rep % 2 == 0 else stacks[::-1]):  # alternate against drift
                    value = None
                    if s in urls:
                        k, t = pt["packet"], pt["threads"]
                        if s == "lather":
                            value = self.lather_e2e(urls[s], t, k)
                        elif s == "grpc":
                            value = self.grpc_e2e(urls[s], t, k)
                        else:
                            value = self.gsoap_e2e(urls[s], t, k,
                                                   "fixed" if s == "gsoap_fixed" else "generated")
                    self.record(pt, s, value, "e2e")
        self.procs.stop(*servers)
        sec["points"] = points
        return sec

    # --- 2. server alone (wrk)

    def save_requests(self):
        for k in (1, 100):
            rc, _ = run_bounded(60, [self.gsoap_client, "--save-request",
                                     os.path.join(self.work, f"gsoap-request-p{k}.xml"),
                                     "--packet-size", str(k)])
            if rc:
                return False
        return True

    def curl_check(self, url, path):
        """True when the server answers the request in path with 200 and idout 1."""
        response = os.path.join(self.work, "curl-response.xml")
        rc, code = run_bounded(20, ["curl", "-s", "-o", response, "-w", "%{http_code}", "-H",
                                    "Content-Type: text/xml; charset=utf-8", "-H",
                                    'SOAPAction: ""', "--data-binary", "@" + path, url])
        if rc or code.strip() != "200":
            return False
        with open(response, errors="replace") as f:
            return "idout>1<" in f.read()

    def measure_wrk(self):
        sec = self.section(2)
        sec["points"] = []
        if not shutil.which("wrk"):
            print("wrk: not installed")
            return sec
        if not self.have(self.gsoap_client) or not self.save_requests():
            print("gsoap: not built")
            return sec
        lua = os.path.join(ROOT, "bench", "wrk-post.lua")
        urls, servers = self.start_perf_servers(300, (self.lather_server,), (self.gsoap_server,))
        sec["curl_failed"] = []
        for k in (1, 100):
            for s, url in urls.items():
                if self.curl_check(url, os.path.join(self.work, f"gsoap-request-p{k}.xml")):
                    print(f"  curl: {s} answers the captured PacketSize {k} request with 200 and "
                          "idout 1", file=sys.stderr)
                else:
                    print(f"  curl: {s} did NOT answer the captured PacketSize {k} request "
                          "correctly", file=sys.stderr)
                    sec["curl_failed"].append(dict(stack=s, packet=k))
        points = [dict(packet=k, connections=c, runs={"lather": [], "gsoap": []})
                  for k in (1, 100) for c in self.m["wrk_conns"]]
        for rep in range(self.m["reps"]):
            for pt in points:
                for s in (["lather", "gsoap"] if rep % 2 == 0 else ["gsoap", "lather"]):
                    if s not in urls:
                        continue
                    c = pt["connections"]
                    env = dict(os.environ, BODY=os.path.join(self.work,
                                                             f"gsoap-request-p{pt['packet']}.xml"))
                    rc, out = run_bounded(self.m["secs"] + 30, [
                        "wrk", "-t", str(min(c, 2)), "-c", str(c), "-d", f"{self.m['secs']}s",
                        "--timeout", "10s", "-s", lua, urls[s]], env=env)
                    value = parse_wrk(out) if rc == 0 else None
                    if rc == 0 and "Non-2xx" in out:
                        print(f"  wrk {s}: non-2xx answers", file=sys.stderr)
                    self.record(pt, s, value, "wrk")
        self.procs.stop(*servers)
        sec["points"] = points
        return sec

    # --- 3. client alone

    def measure_client(self):
        sec = self.section(3)
        sec["points"] = []
        if not self.have(self.gsoap_server, self.gsoap_client):
            print("gsoap: not built")
            return sec
        server, port = self.start_peer("gsoap-perf-server", self.gsoap_server, "--port", "0",
                                       "--threads", "64", "--io", "store")
        if not server:
            return sec
        url = f"http://127.0.0.1:{port}/perf"
        lather_ok = self.need_lather(self.lather_bench)
        points = [dict(packet=k, threads=t, runs={"lather": [], "gsoap": []})
                  for k in (1, 100) for t in (1, 16)]
        for rep in range(self.m["reps"]):
            for pt in points:
                for s in (["lather", "gsoap"] if rep % 2 == 0 else ["gsoap", "lather"]):
                    if s == "lather":
                        value = self.lather_e2e(url, pt["threads"], pt["packet"]) \
                            if lather_ok else None
                    else:
                        value = self.gsoap_e2e(url, pt["threads"], pt["packet"], "generated")
                    self.record(pt, s, value, "client")
        self.procs.stop(server)
        sec["points"] = points
        return sec

    # --- 4. client count (CXF 2024 post)

    def clients_lather(self, url, clients, client_threads):
        m = self.m
        rc, out = run_bounded(m["secs"] + m["warm"] + 90, [
            self.lather_bench, "--url", url, "--threads", str(clients), "--client-threads",
            str(client_threads), "--time", str(m["secs"]), "--warmup", str(m["warm"]),
            "--guard-calls", str(m["guard"]), "--json", "--no-progress"])
        r = parse_lather_bench(out)
        if "total_tps" not in r:
            print(f"  lather-bench failed at {clients} clients: {tail(out)}", file=sys.stderr)
        return dict(total=r.get("total_tps"), per=r.get("overall_throughput"),
                    errors=r.get("errors"))

    def clients_gsoap(self, url, clients):
        m = self.m
        rc, out = run_bounded(m["secs"] + m["warm"] + 90, [
            self.gsoap_client, "--url", url, "--threads", str(clients), "--time", str(m["secs"]),
            "--warmup", str(m["warm"]), "--io", "store"])
        r = parse_result_line(out)
        if "calls_per_s" not in r:
            print(f"  gsoap-perf-client failed at {clients} clients: {tail(out)}",
                  file=sys.stderr)
        return dict(total=number(r.get("calls_per_s")), per=number(r.get("per_thread")),
                    errors=number(r.get("errors")))

    def measure_clients(self):
        sec = self.section(4)
        # lather's C clients run as fibers on one thread per core (each its own connection, one
        # call in flight, every echo verified): C sleeping threads would measure the kernel's
        # scheduler more than either stack. gsoap-perf-client keeps one thread per client.
        ct = os.cpu_count() or 1
        sec["params"]["client_threads"] = ct
        urls, servers = self.start_perf_servers(1030, (self.lather_server, self.lather_bench),
                                                (self.gsoap_server, self.gsoap_client))
        counts = self.m["client_counts"]
        passes = {"lather": {str(c): [] for c in counts}, "gsoap": {str(c): [] for c in counts}}
        errors = {"lather": [], "gsoap": []}
        # Pass r runs every client count, forward in even passes and backward in odd ones,
        # lather and gSOAP alternating which goes first.
        for rep in range(self.m["clients_reps"]):
            for c in (counts if rep % 2 == 0 else counts[::-1]):
                for s in (["lather", "gsoap"] if rep % 2 == 0 else ["gsoap", "lather"]):
                    if s not in urls:
                        continue
                    r = self.clients_lather(urls[s], c, ct) if s == "lather" \
                        else self.clients_gsoap(urls[s], c)
                    print(f"  clients {s:<6} pass {rep + 1}, {c:>4} clients: {fmt0(r['total'])} "
                          "calls/s", file=sys.stderr)
                    if number(r["errors"]):
                        errors[s].append(dict(clients=c, errors=r["errors"]))
                    if number(r["total"]) is not None:
                        passes[s][str(c)].append(dict(total=r["total"], per=r["per"]))
        sec["passes"], sec["errors"] = passes, errors
        # The goal's ratio without the table's winner's curse: the best row is the largest of
        # noisy rows (each the best of its passes), and passes drift by 20-30% on a shared box,
        # so the table's ratio compares the largest count with the luckiest moment of another.
        # The best row's count and the largest run back to back instead, alternating the order;
        # the median of the pairs' ratios is the estimate and the goal's verdict.
        best_c = best_row_count(clients_rows(sec))
        sec["best_count"], sec["pairs"] = best_c, []
        largest = counts[-1]
        for p in range(self.m["clients_pairs"] if best_c and "lather" in urls else 0):
            pair = {}
            for c in ((best_c, largest) if p % 2 == 0 else (largest, best_c)):
                r = self.clients_lather(urls["lather"], c, ct)
                print(f"  clients pair {p + 1}, {c:>4} clients: {fmt0(r['total'])} calls/s",
                      file=sys.stderr)
                pair["largest" if c == largest else "best"] = r["total"]
            sec["pairs"].append(pair)
        self.procs.stop(*servers)
        return sec

    # --- 5. the 2002 Axis table

    def measure_axis(self):
        sec = self.section(5)
        m = self.m
        # A keep-alive connection holds one gSOAP worker: one per split's connection + spares.
        urls, servers = self.start_perf_servers(16, (self.lather_server, self.lather_bench),
                                                (self.gsoap_server, self.gsoap_client))
        splits = ",".join(map(str, m["axis_calls"]))
        rounds = {"lather": [], "gsoap": []}
        cpu = {str(c): [] for c in m["axis_calls"]}
        # One round of one stack: a client process times interleaved cycles over all splits
        # (lather-bench --splits, gsoap-perf-client --splits: the same rule for both).
        for rep in range(m["axis_reps"]):
            for s in (["lather", "gsoap"] if rep % 2 == 0 else ["gsoap", "lather"]):
                if s not in urls:
                    continue
                if s == "lather":
                    rc, out = run_bounded(900, [
                        self.lather_bench, "--url", urls[s], "--splits", splits, "--windows",
                        str(m["axis_lather_windows"]), "--warmup", str(m["axis_warm"]),
                        "--guard-calls", "1", "--json"])
                    windows, round_cpu = parse_lather_splits(out)
                    for c, v in round_cpu.items():
                        cpu.setdefault(c, []).append(v)
                else:
                    rc, out = run_bounded(900, [
                        self.gsoap_client, "--url", urls[s], "--splits", splits, "--windows",
                        str(m["axis_windows"]), "--warmup", str(m["axis_warm"]), "--io", "store"])
                    windows = parse_gsoap_splits(out)
                if rc:
                    print(f"  axis round {rep}: {s} failed (exit {rc}): {tail(out)}",
                          file=sys.stderr)
                if windows:
                    rounds[s].append(windows)
            print(f"  axis round {rep} done", file=sys.stderr)
        self.procs.stop(*servers)
        sec["rounds"], sec["cpu"] = rounds, cpu
        return sec

    # --- 6. message size sweep

    def lather_request_bytes(self, url):
        try:
            with urllib.request.urlopen(url.rsplit("/perf", 1)[0] + "/metrics", timeout=10) as r:
                return parse_request_bytes(r.read().decode(errors="replace"))
        except OSError:
            return None

    def save_gsoap_request(self, path, items, qname):
        rc, _ = run_bounded(300, [self.gsoap_client, "--save-request", path, "--packet-size",
                                  str(items), "--qname-prefix", qname])
        return rc == 0

    def sweep_variant(self, variant, items, calls, request_bytes):
        """One point of the first table on a fresh server: ms per call, request bytes and the
        server's VmHWM before and after; None when it did not run."""
        if variant == "gsoap":
            proc, port = self.start_peer("gsoap-perf-server", self.gsoap_server, "--port", "0",
                                         "--threads", "2", "--io", "store", "--qname-prefix",
                                         "fixed")
        else:
            extra = ["--chunking-threshold", "never"] if variant == "never" else []
            proc, port = self.start_lather("lather-perf-server", self.lather_server, *extra)
        if not proc:
            return None
        url = f"http://127.0.0.1:{port}/perf"
        base = vm_hwm_kb(proc.pid)
        ms = None
        if variant == "gsoap":
            rc, out = run_bounded(300, [self.gsoap_client, "--url", url, "--threads", "1",
                                        "--count", str(calls), "--packet-size", str(items),
                                        "--warmup", "0", "--io", "store", "--qname-prefix",
                                        "fixed"])
            seconds = number(parse_result_line(out).get("seconds"))
            if rc == 0 and seconds is not None:
                ms = seconds * 1000 / calls
        else:
            rc, out = run_bounded(300, [self.lather_bench, "--url", url, "--threads", "1",
                                        "--count", str(calls), "--packet-size", str(items),
                                        "--warmup", "0", "--guard-calls", "1", "--json",
                                        "--no-progress", *extra])
            r = parse_lather_bench(out)
            if rc == 0 and r.get("errors") == 0 and r.get("invocations"):
                ms = r["running_s"] * 1000 / r["invocations"]
                request_bytes = self.lather_request_bytes(url)
        rss = vm_hwm_kb(proc.pid)
        self.procs.stop(proc)
        return dict(ms=ms, request_bytes=request_bytes, rss_base_kb=base, rss_kb=rss)

    def measure_sizes(self):
        sec = self.section(6)
        sec["rows"] = []
        if not self.have(self.gsoap_client):
            print("gsoap: not built (needed to size the requests)")
            return sec
        lather_ok = self.need_lather(self.lather_server, self.lather_bench)
        request = os.path.join(self.work, "sweep-request.xml")
        for items in self.m["sweep_items"]:
            if not self.save_gsoap_request(request, items, "fixed"):
                continue
            size = os.path.getsize(request)
            calls = sweep_calls(size, self.mode)
            row = dict(items=items, calls=calls, gsoap_request_bytes=size, variants={})
            for variant in ("default", "never", "gsoap"):
                if (variant == "gsoap" and not self.have(self.gsoap_server)) or \
                        (variant != "gsoap" and not lather_ok):
                    continue
                row["variants"][variant] = self.sweep_variant(variant, items, calls, size)
            print(f"  sizes {items} items: {row['variants']}", file=sys.stderr)
            sec["rows"].append(row)
        os.remove(request) if os.path.exists(request) else None
        sec["generated"] = self.measure_sizes_generated()
        return sec

    def post_mean_ms(self, url, path, n, limit):
        """Mean ms per POST of path, n POSTs on one keep-alive connection (curl); None when an
        answer is not a 200 with a body, "timeout" when the n calls took longer than limit s."""
        urls = []
        for _ in range(n):
            urls += ["-o", "/dev/null", url]
        rc, out = run_bounded(limit, ["curl", "-s", "-w", "%{http_code} %{size_download} "
                                      "%{time_total}\n", "-H", "Content-Type: text/xml; "
                                      "charset=utf-8", "-H", 'SOAPAction: ""', "-H", "Expect:",
                                      "--data-binary", "@" + path, *urls])
        if rc == 124:
            return "timeout"
        return parse_curl_mean_ms(out, n) if rc == 0 else None

    def measure_sizes_generated(self):
        """Second table of section 6: the QName prefixes as gSOAP generates them. gSOAP declares
        a fresh xmlns:_N on every item and then grows quadratically; lather must stay linear."""
        if not (self.have(self.gsoap_client, self.gsoap_server) and shutil.which("curl")):
            return None
        limit = 30 if self.mode == "quick" else 90
        fixed = os.path.join(self.work, "sweep-fixed.xml")
        generated = os.path.join(self.work, "sweep-generated.xml")
        own = os.path.join(self.work, "sweep-gsoap-generated.xml")
        if not (self.save_gsoap_request(fixed, 64, "fixed") and
                self.save_gsoap_request(own, 64, "generated")):
            return None
        with open(fixed) as f, open(own) as g:
            if as_generated_request(f.read()) != g.read():
                print("compare: the as-generated rewrite no longer matches gSOAP's own request",
                      file=sys.stderr)
                return None
        rows = []
        for items in self.m["sweep_items"]:
            if not self.save_gsoap_request(fixed, items, "fixed"):
                continue
            with open(fixed) as f:
                text = as_generated_request(f.read())
            with open(generated, "w") as f:
                f.write(text)
            size = os.path.getsize(generated)
            n, gn = sweep_calls(size, self.mode), gsoap_generated_calls(size)
            row = dict(items=items, bytes=size, fixed_bytes=os.path.getsize(fixed), n=n, gn=gn,
                       lather_ms=None, lather_fixed_ms=None, gsoap_ms=None,
                       gsoap_roundtrip_ms=None)
            if self.have(self.lather_server):
                proc, port = self.start_lather("lather-perf-server", self.lather_server)
                if proc:
                    url = f"http://127.0.0.1:{port}/perf"
                    row["lather_ms"] = self.post_mean_ms(url, generated, n, limit)
                    row["lather_fixed_ms"] = self.post_mean_ms(url, fixed, n, limit)
                    self.procs.stop(proc)
            proc, port = self.start_peer("gsoap-perf-server", self.gsoap_server, "--port", "0",
                                         "--threads", "2", "--io", "store", "--qname-prefix",
                                         "generated")
            if proc:
                url = f"http://127.0.0.1:{port}/perf"
                row["gsoap_ms"] = self.post_mean_ms(url, generated, gn, limit)
                rc, out = run_bounded(limit, [self.gsoap_client, "--url", url, "--threads", "1",
                                              "--count", str(gn), "--packet-size", str(items),
                                              "--warmup", "0", "--io", "store", "--qname-prefix",
                                              "generated"])
                seconds = number(parse_result_line(out).get("seconds"))
                if rc == 0 and seconds is not None:
                    row["gsoap_roundtrip_ms"] = seconds * 1000 / gn
                elif rc == 124:
                    row["gsoap_roundtrip_ms"] = "timeout"
                self.procs.stop(proc)
            print(f"  sizes as generated, {items} items: {row}", file=sys.stderr)
            rows.append(row)
        for path in (fixed, generated, own):
            if os.path.exists(path):
                os.remove(path)
        return dict(limit=limit, rows=rows)

    # --- 7. the 2003 experiment

    def fetch_median(self, server, client_argv, name):
        """Median seconds of 100 fetch calls x 5 runs of a client against a started server."""
        proc, port = server
        if not proc:
            return None
        rc, out = run_bounded(120, [a.format(port=port) for a in client_argv] +
                              ["--calls", "100", "--runs", "5"])
        self.procs.stop(proc)
        if rc:
            print(f"{name} failed: {tail(out)}", file=sys.stderr)
            return None
        return number(parse_result_line(out).get("median_s"))

    def measure_drb(self):
        sec = self.section(7)
        sec["drb_median_s"] = sec["lather_median_s"] = None
        ruby, drb = "/usr/bin/ruby", os.path.join(ROOT, "bench", "drb")
        if os.access(ruby, os.X_OK):
            sec["drb_median_s"] = self.fetch_median(
                self.start_peer("drbserver", ruby, os.path.join(drb, "drbserver.rb"), "--port",
                                "0"),
                [ruby, os.path.join(drb, "drbclient.rb"), "--uri", "druby://127.0.0.1:{port}"],
                "drbclient")
        else:
            print("drb: /usr/bin/ruby missing")
        if self.need_lather(self.lather_fetch, self.lather_fetch_client):
            sec["lather_median_s"] = self.fetch_median(
                self.start_lather("lather-fetch-server", self.lather_fetch),
                [self.lather_fetch_client, "--url", "http://127.0.0.1:{port}/fetch"],
                "lather-fetch-client")
        return sec

    # --- 8. TLS

    def make_certificates(self):
        """A CA and a server certificate (ECDSA P-256, IP 127.0.0.1) in work/tls: {name: path},
        None when the openssl CLI failed."""
        d = os.path.join(self.work, "tls")
        os.makedirs(d, exist_ok=True)
        f = {n: os.path.join(d, n) for n in ("ca.key", "ca.pem", "server.key", "server.csr",
                                             "server.pem", "san.ext", "server-keyfile.pem")}
        with open(f["san.ext"], "w") as out:
            out.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
        ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        steps = [
            ["openssl", "req", "-x509", *ec, "-keyout", f["ca.key"], "-out", f["ca.pem"], "-days",
             "2", "-subj", "/CN=compare-ca"],
            ["openssl", "req", *ec, "-keyout", f["server.key"], "-out", f["server.csr"], "-subj",
             "/CN=127.0.0.1"],
            ["openssl", "x509", "-req", "-in", f["server.csr"], "-CA", f["ca.pem"], "-CAkey",
             f["ca.key"], "-CAcreateserial", "-out", f["server.pem"], "-days", "2", "-extfile",
             f["san.ext"]]]
        for argv in steps:
            rc, out = run_bounded(30, argv)
            if rc:
                print(f"tls: {' '.join(argv[:3])} failed: {tail(out)}", file=sys.stderr)
                return None
        with open(f["server-keyfile.pem"], "w") as out:  # gSOAP takes key and chain in one file
            for name in ("server.key", "server.pem"):
                with open(f[name]) as part:
                    out.write(part.read())
        return f

    @staticmethod
    def tls_probe(url, ca):
        """What a server negotiates with OpenSSL's default client offer (parse_s_client)."""
        hostport = url.split("//", 1)[1].split("/", 1)[0]
        rc, out = run_bounded(20, ["openssl", "s_client", "-connect", hostport, "-CAfile", ca,
                                   "-brief"], stdin=subprocess.DEVNULL)
        return parse_s_client(out)

    def lather_metrics_handshakes(self, url):
        """(full, resumed) from lather-perf-server's /metrics over HTTPS, None on failure."""
        import ssl
        try:
            context = ssl._create_unverified_context()  # the run's own server, on loopback
            with urllib.request.urlopen(url.replace("/perf", "/metrics"), timeout=10,
                                        context=context) as r:
                return parse_tls_handshakes(r.read().decode())
        except (OSError, ValueError):
            return None

    @staticmethod
    def tls_extra(kind):
        return [] if kind == "keepalive" else \
            ["--new-connections"] + (["--no-resume"] if kind == "full" else [])

    def tls_client_argv(self, client, url, ca, threads, kind, window):
        """The client's command: client "lather" is lather-bench, "gsoap" gSOAP's; window is
        ["--time", S, "--warmup", W] or ["--count", N, "--warmup", "0"]."""
        if client == "lather":
            return [self.lather_bench, "--url", url, "--ca", ca, "--operation",
                    "echoComplexTypeDoc", "--threads", str(threads), "--packet-size", "1",
                    "--guard-calls", str(self.m["guard"] if window[0] == "--time" else 0),
                    "--json", "--no-progress", *window, *self.tls_extra(kind)]
        return [self.gsoap_tls_client, "--url", url, "--ca", ca, "--threads", str(threads),
                "--packet-size", "1", "--io", "store", *window, *self.tls_extra(kind)]

    def tls_pass(self, client, url, ca, threads, kind, lather_server):
        """One timed pass: (calls/s, [handshakes, resumed] or None), (None, None) on failure."""
        m = self.m
        before = self.lather_metrics_handshakes(url) if lather_server else None
        rc, out = run_bounded(m["tls_secs"] + m["tls_warm"] + 60, self.tls_client_argv(
            client, url, ca, threads, kind,
            ["--time", str(m["tls_secs"]), "--warmup", str(m["tls_warm"])]))
        if client == "lather":
            r = parse_lather_bench(out)
            ok, rate = rc == 0 and r.get("errors") == 0, r.get("total_tps")
        else:
            r = parse_result_line(out)
            ok, rate = rc == 0, number(r.get("calls_per_s"))
        if not ok:
            print(f"{client} client (TLS) failed: {tail(out)}", file=sys.stderr)
            return None, None
        counts = None
        if lather_server:  # the whole run's handshakes, warm-up and guard calls included
            after = self.lather_metrics_handshakes(url)
            if before and after:
                full, resumed = after[0] - before[0], after[1] - before[1]
                counts = [full + resumed, resumed]
        elif number(r.get("handshakes")) is not None:
            counts = [r["handshakes"], r.get("resumed", 0)]
        return rate, counts

    def tls_cpu(self, client, url, ca, server_pid, threads, kind):
        """{client_us, server_us} per call: the CPU of a counted pass of N calls per thread
        less that of one of N/5 (process and thread start, first handshakes cancel), or None."""
        n = self.m["tls_cpu_calls"][0 if kind == "keepalive" else 1]
        spent = []
        for count in (n // 5, n):
            s0, c0 = process_cpu_s(server_pid), resource.getrusage(resource.RUSAGE_CHILDREN)
            rc, out = run_bounded(120, self.tls_client_argv(client, url, ca, threads, kind,
                                                            ["--count", str(count), "--warmup",
                                                             "0"]))
            s1, c1 = process_cpu_s(server_pid), resource.getrusage(resource.RUSAGE_CHILDREN)
            if rc != 0 or s0 is None or s1 is None:
                print(f"{client} TLS CPU pass failed: {tail(out)}", file=sys.stderr)
                return None
            spent.append(((c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime), s1 - s0))
        calls = threads * (n - n // 5)
        return dict(client_us=1e6 * (spent[1][0] - spent[0][0]) / calls,
                    server_us=1e6 * (spent[1][1] - spent[0][1]) / calls)

    def start_tls_servers(self, certs):
        """{stack: (url, pid)} of the servers that started, and the processes."""
        found, servers = {}, []
        if self.need_lather(self.lather_server, self.lather_bench):
            p, port = self.start_lather("lather-perf-server-tls", self.lather_server,
                                        "--tls-cert", certs["server.pem"], "--tls-key",
                                        certs["server.key"])
            if p:
                servers.append(p)
                found["lather"] = (f"https://127.0.0.1:{port}/perf", p.pid)
        if not self.have(self.gsoap_tls_server, self.gsoap_tls_client):
            print("gsoap (OpenSSL): not built")
        else:
            p, port = self.start_peer("gsoap-perf-server-tls", self.gsoap_tls_server, "--port",
                                      "0", "--threads", "200", "--io", "store", "--tls-keyfile",
                                      certs["server-keyfile.pem"])
            if p:
                servers.append(p)
                found["gsoap"] = (f"https://127.0.0.1:{port}/perf", p.pid)
        return found, servers

    def measure_tls(self):
        sec = self.section(8)
        certs = self.make_certificates()
        if not certs:
            sec["points"], sec["cpu"] = [], []
            return sec
        found, servers = self.start_tls_servers(certs)
        ca = certs["ca.pem"]
        sec["config"] = {s: self.tls_probe(url, ca) for s, (url, _) in found.items()}
        stacks = ["lather", "gsoap"]
        kinds = ("keepalive", "full", "resumed")
        top = max(self.m["tls_threads"])
        # Own clients at every thread count; lather-bench against both servers at the top one.
        points = [dict(kind=k, threads=t, client="own", runs={s: [] for s in stacks},
                       handshakes={s: [] for s in stacks})
                  for k in kinds for t in self.m["tls_threads"]]
        points += [dict(kind=k, threads=top, client="common", runs={s: [] for s in stacks},
                        handshakes={s: [] for s in stacks}) for k in ("keepalive", "full")]
        cpu = [dict(kind=k, threads=top, client=c, runs={s: [] for s in stacks})
               for c in ("own", "common") for k in kinds]

        def client_of(stack, client):
            return stack if client == "own" else "lather"

        for rnd in range(self.m["tls_rounds"]):
            for i, pt in enumerate(points):
                for s in (stacks if (rnd + i) % 2 == 0 else stacks[::-1]):
                    value, counts = None, None
                    if s in found:
                        value, counts = self.tls_pass(client_of(s, pt["client"]), found[s][0],
                                                      ca, pt["threads"], pt["kind"], s == "lather")
                    if counts:
                        pt["handshakes"][s].append(counts)
                    self.record(pt, s, value, "tls")
            if rnd >= self.m["tls_cpu_rounds"]:
                continue
            for i, c in enumerate(cpu):
                for s in (stacks if (rnd + i) % 2 == 0 else stacks[::-1]):
                    got = None
                    if s in found:
                        got = self.tls_cpu(client_of(s, c["client"]), found[s][0], ca,
                                           found[s][1], c["threads"], c["kind"])
                    c["runs"][s].append(got)
                    shown = "-" if not got else \
                        f"{got['client_us']:.0f} + {got['server_us']:.0f} us/call"
                    print(f"  tls cpu {s:<11} kind {c['kind']}, client {c['client']}: {shown}",
                          file=sys.stderr)
        self.procs.stop(*servers)
        sec["points"], sec["cpu"] = points, cpu
        sec["load"] = f"{sec['load']} at the start, {load_average()} at the end"
        return sec

    MEASURES = {1: "measure_e2e", 2: "measure_wrk", 3: "measure_client", 4: "measure_clients",
                5: "measure_axis", 6: "measure_sizes", 7: "measure_drb", 8: "measure_tls"}


# =============================================================================================
# command line


def parse_only(text):
    try:
        only = sorted({int(x) for x in text.split(",") if x.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"--only needs numbers 1-8, got {text!r}")
    if not only or any(n not in ALL_SECTIONS for n in only):
        raise argparse.ArgumentTypeError(f"--only needs numbers 1-8, got {text!r}")
    return only


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            return next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "?")
    except OSError:
        return "?"


def command_run(args):
    build = args.build if os.path.isabs(args.build) else os.path.join(ROOT, args.build)
    bin_dir = os.path.abspath(args.bin) if args.bin else os.path.join(build, "bin")
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    # The 1,024-client rows need ~1,030 descriptors in each process (gSOAP's client and server
    # as well as lather's tools, which raise their own): a login shell's soft limit is often
    # 1,024. Children inherit the raised limit.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    mode = "quick" if args.quick else "full"
    run = dict(started=now_utc(), mode=mode, only=",".join(map(str, args.only)),
               load_before=load_average(), cores=os.cpu_count(), cpu=cpu_model())
    print(f"compare: {mode} mode, binaries from {bin_dir}", file=sys.stderr)
    cmp = Compare(bin_dir, mode, work)
    results = dict(version=1, run=run, sections={})
    try:
        for n in args.only:
            sec = getattr(cmp, Compare.MEASURES[n])()
            results["sections"][str(n)] = sec
            print("\n" + render_section(n, sec).split("\n", 1)[1], flush=True)
    finally:
        cmp.procs.stop_all()
    run["load_after"] = load_average()
    with open(os.path.join(work, "compare-run.json"), "w") as f:
        json.dump(results, f, indent=1)
    if args.no_results:
        return 0
    old = {}
    if os.path.exists(args.json):
        with open(args.json) as f:
            old = json.load(f)
    merged = merge_results(old, results)
    os.makedirs(os.path.dirname(args.json), exist_ok=True)
    tmp = args.json + ".tmp"
    with open(tmp, "w") as f:
        json.dump(merged, f, indent=1)
        f.write("\n")
    os.replace(tmp, args.json)
    render_files(args.json, args.results, args.plots, work, merged)
    print(f"compare: results in {os.path.relpath(args.json, ROOT)}, tables in "
          f"{os.path.relpath(args.results, ROOT)}, plots in {os.path.relpath(args.plots, ROOT)}/",
          file=sys.stderr)
    return 0


def command_render(args):
    if not os.path.exists(args.json):
        print(f"compare: {args.json}: no such results file", file=sys.stderr)
        return 2
    if args.stdout:
        with open(args.json) as f:
            results = json.load(f)
        for k in sorted(results.get("sections", {}), key=int):
            print(render_section(int(k), results["sections"][k]) + "\n")
        return 0
    render_files(args.json, args.results, args.plots, os.path.abspath(args.work))
    return 0


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in ("run", "render", "-h", "--help"):
        argv.insert(0, "run")  # bench/compare.sh [options] means run
    parser = argparse.ArgumentParser(
        prog="compare", description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 2)[2])
    sub = parser.add_subparsers(dest="command", required=True)
    files = argparse.ArgumentParser(add_help=False)
    files.add_argument("--json", default=os.path.join(ROOT, "bench/results/compare.json"),
                       help="the JSON results file")
    files.add_argument("--results", default=os.path.join(ROOT, "bench/RESULTS.md"),
                       help="the markdown file that holds the tables")
    files.add_argument("--plots", default=os.path.join(ROOT, "bench/results"),
                       help="the directory of the PNG plots")
    files.add_argument("--work", default=os.path.join(ROOT, "bench/work"),
                       help="scratch directory: server logs, captured requests, plot data")
    run = sub.add_parser("run", parents=[files], help="measure, then write JSON, tables, plots")
    run.add_argument("--quick", action="store_true", help="CI-sized run (< 3 min)")
    run.add_argument("--build", default="build", help="build directory holding bin/")
    run.add_argument("--bin", help="directory of the binaries (default: the build's bin/)")
    run.add_argument("--only", type=parse_only, default=list(ALL_SECTIONS),
                     help="comma-separated sections to run (1-8)")
    run.add_argument("--no-results", action="store_true",
                     help="print only; write no JSON, tables or plots")
    render = sub.add_parser("render", parents=[files], help="tables and plots from the JSON")
    render.add_argument("--stdout", action="store_true",
                        help="print the sections' markdown instead of writing files")
    args = parser.parse_args(argv)
    for path in ("json", "results", "plots"):
        setattr(args, path, os.path.abspath(getattr(args, path)))
    return command_run(args) if args.command == "run" else command_render(args)


if __name__ == "__main__":
    sys.exit(main())
