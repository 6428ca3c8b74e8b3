#!/usr/bin/env python3
"""bench/codegen.py: lather-wsdl2cpp beside gSOAP's wsdl2h + soapcpp2 on big contracts (issue 23).

For each contract, in one run: generation time, generated lines and bytes, the compile of the
generated code (every .cpp, JOBS at a time: wall and total CPU seconds, the largest peak RSS of
one compile) and the size of the objects, for lather and for gSOAP on the same WSDLs with the
same compiler and flags (g++ -std=c++20 -OPT -w, ccache off).

lather: `lather-wsdl2cpp ENTRY... -o DIR --namespace NS [--catalog C] -q` (the library: types,
the client proxies and the service classes; no --mock); its .cpp files are compiled as the
generated CMakeLists.txt would.

gSOAP (Debian's gsoap), doing the same work: `wsdl2h -O4 -P -L -t typemap.dat ENTRY...` (xs:any
kept as lather keeps it: no -x) then `soapcpp2 -L -x -w -I/usr/share/gsoap/import` (client and
server side: no -C), and soapC.cpp + soapClient.cpp + soapServer.cpp compiled with `pkg-config
--cflags gsoap++`. wsdl2h has no XML catalog and fetches absolute schemaLocations over HTTP (its
-I finds relative paths only), so for a contract with a catalog the driver copies the contract
into the work directory with those URLs rewritten to the catalog's local files.

Each compile runs under an address-space limit (--mem-limit, GiB, default 4): one that needs
more fails with "out of memory" and is reported as such, not left to swap the shared box. A
compile that fails leaves its contract's compile figures out (the failure is recorded instead).

Object size is given three ways: the bytes of the .o files; their text + data as size(1) counts
it (the rest of a .o is symbol and string tables, relocations and one section per COMDAT group);
and the objects linked into one program (`g++ -pie -Wl,--unresolved-symbols=ignore-all`: COMDAT
duplicates across files merged, the tool's runtime library not linked for either tool), as its
text + data and its bytes once stripped.

Results: bench/results/codegen.json keeps one entry per contract and tool, replaced by each
run that measures it (with its date, commit, command and load average), so `--tools lather`
reruns lather alone beside the gSOAP figures kept from an earlier run. A run writes that file
back only with --results FILE (bench/RESULTS.md), which also rewrites the table between the
codegen markers from it; otherwise the updated entries go to --work's codegen.json (nowhere
without --work), so a trial run leaves the recorded figures alone. --json FILE reads and writes
FILE instead. The table is printed either way. Each entry records the commit it started from (both,
if the worktree moved while it ran), its 1-minute load average at start and end and the range
sampled while it ran, and the run (invocation) that measured it: the table names the runs A,
B, ... and each lather / gSOAP ratio row says whether its two rows are one run's back-to-back
pair, the only like-for-like load, or come from two runs (then only its bytes ratios compare
like with like). A run of one tool alone that replaces one row of such a pair keeps the pair in
the JSON ("pair"), and the table gives its ratio row too, with the commit it measured.
"""

import argparse
import datetime
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(os.path.dirname(REPO), "shared", "wsdl-corpus")
GSOAP_IMPORT = "/usr/share/gsoap/import"
GSOAP_TYPEMAP = "/usr/share/gsoap/WS/typemap.dat"
CXX = "/usr/bin/g++"
BEGIN = "<!-- codegen table: bench/codegen.py --results writes between these markers -->"
END = "<!-- codegen table end -->"

# name -> title, WSDL entries (relative to the corpus), a catalog for absolute URLs, and the
# corpus services whose operation counts add up (manifest.json).
CONTRACTS = {
    "onvif": {
        "title": "ONVIF device+media",
        "entries": ["onvif-devicemgmt/wsdl/ver10/device/wsdl/devicemgmt.wsdl",
                    "onvif-media/wsdl/ver10/media/wsdl/media.wsdl"],
        "catalog": "onvif-devicemgmt/catalog.xml",
        "services": ["onvif-devicemgmt", "onvif-media"],
    },
    "bingads": {
        "title": "Bing Ads campaign mgmt",
        "entries": ["bingads-campaignmgmt/campaignmanagement_service.xml"],
        "services": ["bingads-campaignmgmt"],
    },
    "ews": {
        "title": "Exchange (EWS)",
        "entries": ["ms-ews/services.wsdl"],
        "services": ["ms-ews"],
    },
    "vsphere": {
        "title": "vSphere",
        "entries": ["vmware-vsphere/vimService.wsdl"],
        "services": ["vmware-vsphere"],
    },
}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


class Load:
    """The 1-minute load average: at a measurement's start and end, and its lowest and highest
    value sampled while it ran (every poll of run_pool), so a row says what the box was doing."""

    def __init__(self):
        self.first = self.low = self.high = os.getloadavg()[0]

    def sample(self):
        v = os.getloadavg()[0]
        self.low, self.high = min(self.low, v), max(self.high, v)

    def figures(self):
        self.sample()
        return {"load": [round(self.first, 1), round(os.getloadavg()[0], 1)],
                "load_range": [round(self.low, 1), round(self.high, 1)]}


LOAD = None  # the Load of the measurement running, sampled by run_pool


class Run:
    """One finished child: exit status, wall and CPU seconds, peak RSS, its stderr tail."""

    def __init__(self, rc, wall, cpu, rss_mb, err, timed_out=False):
        self.rc, self.wall, self.cpu, self.rss_mb = rc, wall, cpu, rss_mb
        self.err, self.timed_out = err, timed_out


def start(cmd, cwd, mem_limit, out_path):
    """Starts cmd in its own process group with RLIMIT_AS at mem_limit bytes (0: none)."""

    def limit():
        if mem_limit:
            resource.setrlimit(resource.RLIMIT_AS, (mem_limit, mem_limit))

    env = dict(os.environ, CCACHE_DISABLE="1", LC_ALL="C")
    out = open(out_path, "wb")
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                            preexec_fn=limit, start_new_session=True, env=env)
    out.close()
    return proc


def tail(path, n=600):
    with open(path, "rb") as f:
        data = f.read()
    return data[-n:].decode("utf-8", "replace")


def run_pool(jobs, parallel, mem_limit, timeout):
    """Runs [(key, cmd, cwd, log)] `parallel` at a time; returns ({key: Run}, wall seconds).

    wait4 gives each child's own CPU time and peak RSS (including the compiler it waited for);
    a child over `timeout` seconds is killed with its process group."""
    pending = list(jobs)
    running = {}  # pid -> (key, started, proc, log)
    done = {}
    t0 = time.monotonic()
    while pending or running:
        while pending and len(running) < parallel:
            key, cmd, cwd, out = pending.pop(0)
            proc = start(cmd, cwd, mem_limit, out)
            running[proc.pid] = (key, time.monotonic(), proc, out)
        pid, status, ru = os.wait4(-1, os.WNOHANG)
        if pid == 0:
            if LOAD:
                LOAD.sample()
            now = time.monotonic()
            for p, (key, started, proc, out) in running.items():
                if now - started > timeout:
                    os.killpg(p, signal.SIGKILL)
            time.sleep(0.05)  # polling interval for several children and their time-outs
            continue
        if pid not in running:
            continue
        key, started, proc, out = running.pop(pid)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - started
        done[key] = Run(proc.returncode, wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024,
                        tail(out), timed_out=wall > timeout)
    return done, time.monotonic() - t0


def run_one(cmd, cwd, out, mem_limit=0, timeout=3600):
    done, _ = run_pool([("x", cmd, cwd, out)], 1, mem_limit, timeout)
    return done["x"]


def count_lines(paths):
    lines = size = 0
    for p in paths:
        with open(p, "rb") as f:
            data = f.read()
        lines += data.count(b"\n")
        size += len(data)
    return lines, size


def object_sizes(objects):
    """(bytes of the .o files, text + data of their sections as size(1) counts them)."""
    files = sum(os.path.getsize(o) for o in objects)
    out = subprocess.run(["size", *objects], capture_output=True, text=True, check=True).stdout
    text_data = 0
    for line in out.splitlines()[1:]:
        f = line.split()
        text_data += int(f[0]) + int(f[1])
    return files, text_data


def linked_sizes(objects, program):
    """(text + data, stripped bytes) of the objects linked into one program.

    What a program carries once the linker has merged the COMDAT groups (inline functions,
    template instances) that several objects define. The objects are compiled as a static
    library's are (PIE, Debian's default), which `g++ -shared` cannot link (it needs -fPIC), so
    they are linked as a PIE executable; the tool's runtime (liblather, libgsoap++) is not linked
    for either tool: its symbols are left undefined. No --gc-sections: the whole library."""
    r = subprocess.run([CXX, "-pie", "-Wl,--unresolved-symbols=ignore-all", "-o", program,
                        *objects], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"linking {program} failed:\n{r.stderr[-2000:]}")
    _, text_data = object_sizes([program])
    stripped = program + ".stripped"
    subprocess.run(["strip", "-o", stripped, program], check=True)
    return text_data, os.path.getsize(stripped)


def compile_all(sources, includes, extra, opt, args, tag):
    """Compiles every source to SOURCE.o, args.jobs at a time; the figures as a dict."""
    jobs = []
    for src in sources:
        obj = src + ".o"
        cmd = [CXX, "-std=c++20", "-" + opt, "-w", *extra, *("-I" + i for i in includes),
               "-c", src, "-o", obj]
        jobs.append((src, cmd, os.path.dirname(src), src + ".log"))
    log(f"  {tag}: compiling {len(jobs)} files, {args.jobs} at a time, -{opt}")
    done, wall = run_pool(jobs, args.jobs, int(args.mem_limit * 2**30), args.timeout)
    result = {
        "files": len(sources),
        "wall_s": round(wall, 2),
        "cpu_s": round(sum(r.cpu for r in done.values()), 2),
        "max_rss_mb": round(max(r.rss_mb for r in done.values()), 1),
        "per_file": {os.path.basename(k): {"cpu_s": round(r.cpu, 2), "rss_mb": round(r.rss_mb, 1),
                                           "rc": r.rc} for k, r in sorted(done.items())},
    }
    failed = []
    for src, r in sorted(done.items()):
        if r.rc == 0:
            continue
        why = "timed out" if r.timed_out else (
            f"out of memory (limit {args.mem_limit:g} GiB)"
            if re.search(r"memory exhausted|out of memory|std::bad_alloc|Cannot allocate", r.err)
            else f"exit {r.rc}: {r.err.strip().splitlines()[-1] if r.err.strip() else ''}")
        failed.append(f"{os.path.basename(src)}: {why}")
    if failed:
        result["failed"] = failed
        log(f"  {tag}: FAILED " + "; ".join(failed))
    else:
        objects = [s + ".o" for s in sources]
        result["objects_bytes"], result["text_data_bytes"] = object_sizes(objects)
        result["linked_text_data_bytes"], result["linked_stripped_bytes"] = linked_sizes(
            objects, os.path.join(os.path.dirname(sources[0]), "linked"))
    log(f"  {tag}: {result['wall_s']:.1f} s wall, {result['cpu_s']:.1f} s CPU, "
        f"max RSS {result['max_rss_mb']:.0f} MB")
    return result


def catalog_map(catalog):
    """systemId/uri name -> absolute local path, from an OASIS catalog."""
    ns = "{urn:oasis:names:tc:entity:xmlns:xml:catalog}"
    base = os.path.dirname(catalog)
    m = {}
    for el in ET.parse(catalog).getroot():
        key = el.get("systemId") or el.get("name")
        if el.tag in (ns + "system", ns + "uri") and key:
            m[key] = os.path.normpath(os.path.join(base, el.get("uri")))
    return m


def offline_copy(contract, work):
    """The contract's entries as wsdl2h reads them offline: for a contract with a catalog, its
    services' trees merged into work/gsoap-src with each absolute location the catalog maps
    rewritten to a relative path to the local copy."""
    if "catalog" not in contract:
        return [os.path.join(CORPUS, e) for e in contract["entries"]]
    root = os.path.join(work, "gsoap-src")
    for service in contract["services"]:
        shutil.copytree(os.path.join(CORPUS, service), root, dirs_exist_ok=True)
    mapped = {url: os.path.join(root, os.path.relpath(path, os.path.join(
        CORPUS, contract["services"][0]))) for url, path in
        catalog_map(os.path.join(CORPUS, contract["catalog"])).items()}
    attr = re.compile(rb'((?:schemaLocation|location)=")([^"]+)(")')
    for d, _, files in os.walk(root):
        for name in files:
            path = os.path.join(d, name)
            with open(path, "rb") as f:
                data = f.read()

            def local(m):
                url = m.group(2).decode()
                if url not in mapped:
                    return m.group(0)
                rel = os.path.relpath(mapped[url], d)
                return m.group(1) + rel.encode() + m.group(3)

            new = attr.sub(local, data)
            if new != data:
                with open(path, "wb") as f:
                    f.write(new)
    return [os.path.join(root, e.split("/", 1)[1]) for e in contract["entries"]]


def lather(name, contract, args, work):
    out = os.path.join(work, "lather")
    os.makedirs(out)
    cmd = [args.wsdl2cpp, *(os.path.join(CORPUS, e) for e in contract["entries"]), "-o", out,
           "--namespace", name, "-q"]
    if "catalog" in contract:
        cmd += ["--catalog", os.path.join(CORPUS, contract["catalog"])]
    r = run_one(cmd, work, os.path.join(work, "lather.log"))
    if r.rc != 0:
        raise SystemExit(f"{name}: lather-wsdl2cpp failed:\n{r.err}")
    code = sorted(os.path.join(out, f) for f in os.listdir(out) if f.endswith((".hpp", ".cpp")))
    lines, size = count_lines(code)
    res = {"generate": {"wall_s": round(r.wall, 2), "cpu_s": round(r.cpu, 2),
                        "rss_mb": round(r.rss_mb, 1)},
           "generated_files": len(code), "lines": lines, "bytes": size}
    log(f"  lather: generated {len(code)} files, {lines:,} lines in {r.wall:.2f} s")
    if not args.no_compile:
        sources = [p for p in code if p.endswith(".cpp")]
        res["compile"] = compile_all(sources, [os.path.join(REPO, "include"), out], [], args.opt,
                                     args, "lather")
    return res


def gsoap(name, contract, args, work):
    entries = offline_copy(contract, work)
    out = os.path.join(work, "gsoap")
    os.makedirs(out)
    header = os.path.join(work, name + ".h")
    w = run_one(["wsdl2h", "-O4", "-P", "-L", "-t", GSOAP_TYPEMAP, "-o", header, *entries],
                work, os.path.join(work, "wsdl2h.log"))
    if w.rc != 0 or not os.path.exists(header):
        raise SystemExit(f"{name}: wsdl2h failed:\n{w.err}")
    s = run_one(["soapcpp2", "-L", "-x", "-w", "-I" + GSOAP_IMPORT, "-d", out, header], work,
                os.path.join(work, "soapcpp2.log"))
    if s.rc != 0:
        raise SystemExit(f"{name}: soapcpp2 failed:\n{s.err}")
    code = sorted(os.path.join(out, f) for f in os.listdir(out))
    lines, size = count_lines(code)
    wl, _ = count_lines([header])
    res = {"generate": {"wall_s": round(w.wall + s.wall, 2), "cpu_s": round(w.cpu + s.cpu, 2),
                        "rss_mb": round(max(w.rss_mb, s.rss_mb), 1),
                        "wsdl2h_s": round(w.wall, 2), "soapcpp2_s": round(s.wall, 2)},
           "generated_files": len(code), "lines": lines, "bytes": size, "wsdl2h_lines": wl,
           "sides": "client+server"}
    log(f"  gSOAP: generated {len(code)} files, {lines:,} lines in {w.wall + s.wall:.2f} s")
    if not args.no_compile:
        cflags = subprocess.run(["pkg-config", "--cflags", "gsoap++"], capture_output=True,
                                text=True).stdout.split()
        sources = [os.path.join(out, f)
                   for f in ("soapC.cpp", "soapClient.cpp", "soapServer.cpp")]
        res["compile"] = compile_all(sources, [out], cflags, args.opt, args, "gSOAP")
    return res


def git_commit():
    def git(*a):
        return subprocess.run(["git", "-C", REPO, *a], capture_output=True, text=True).stdout
    head = git("rev-parse", "--short", "HEAD").strip()
    dirty = git("status", "--porcelain", "--", "src", "include", "tools").strip()
    return head + ("+changes" if dirty else "")


def operations(contract):
    with open(os.path.join(CORPUS, "manifest.json")) as f:
        manifest = {e["name"]: e for e in json.load(f)}
    return sum(manifest[s]["operations"] for s in contract["services"])


def fmt_s(v):
    return f"{v:.1f}" if v < 100 else f"{v:,.0f}"


def client_server(gsoap_entry):
    """Whether a gSOAP entry compiled both sides (entries of older runs are client-only: no
    ratio is drawn against them)."""
    return gsoap_entry.get("sides") == "client+server"


LINKED = ("linked_text_data_bytes", "linked_stripped_bytes")


def cap(entry):
    """The address-space cap of a run's compiles, when it was not the default."""
    gib = entry.get("mem_limit_gib", 4.0)
    return "" if gib == 4.0 else f", {gib:g} GiB address-space cap per compile"


def run_key(entry):
    """Which invocation measured an entry (entries of older runs carry no id: their command
    stands for it)."""
    return entry.get("run") or entry["command"]


def ratio_row(lather, gsoap, names):
    """The lather / gSOAP ratio row of two entries, saying whether they are one run's pair
    (None when either has no compile figures or they are not alike)."""
    lk, gk = lather.get("compile", {}), gsoap.get("compile", {})
    if not ("objects_bytes" in lk and "objects_bytes" in gk and lather.get("opt") ==
            gsoap.get("opt") and client_server(gsoap)):
        return None
    lr, gr = names[run_key(lather)][0], names[run_key(gsoap)][0]
    pair = f"one run ({lr})" if lr == gr else f"runs {lr} / {gr}, not paired (bytes only)"
    return (f"| | lather / gSOAP, {pair} | | {lather['lines'] / gsoap['lines']:.2f} | "
            f"{lather['bytes'] / gsoap['bytes']:.2f} | | {lk['wall_s'] / gk['wall_s']:.2f} | "
            f"{lk['cpu_s'] / gk['cpu_s']:.2f} | {lk['max_rss_mb'] / gk['max_rss_mb']:.2f} | "
            f"{lk['objects_bytes'] / gk['objects_bytes']:.2f} | "
            f"{lk['text_data_bytes'] / gk['text_data_bytes']:.2f} | " + " | ".join(
                f"{lk[f] / gk[f]:.2f}" if f in lk and f in gk else "" for f in LINKED) + " |")


def entries(e):
    """A contract's rows, then the rows of the same-run pair it keeps (see main)."""
    return [t for t in (e.get("lather"), e.get("gsoap"), *e.get("pair", {}).values()) if t]


def render(results):
    """The markdown table of every contract in the JSON, in CONTRACTS order.

    Runs are named A, B, ... in order of first appearance; a ratio row says whether its two rows
    come from one run (measured back to back, like loads) or from two."""
    names = {}
    for name in CONTRACTS:
        for t in entries(results.get(name, {})):
            names.setdefault(run_key(t), (chr(ord("A") + len(names)), t["command"]))
    rows = ["| contract (operations) | generator | generate s | lines | MB of C++ | files | "
            "compile wall s | compile CPU s | max RSS GB | objects MB | text+data MB | "
            "linked text+data MB | linked stripped MB |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    notes = []
    for name, c in CONTRACTS.items():
        e = results.get(name)
        if not e:
            continue
        first = f"{c['title']} ({e['operations']})"
        for tool, label in (("lather", "lather-wsdl2cpp"), ("gsoap", "wsdl2h + soapcpp2")):
            t = e.get(tool)
            if not t:
                continue
            if tool == "gsoap" and not client_server(t):
                label += " -C (client only)"
            k = t.get("compile", {})
            if "failed" in k:  # what it used until it failed
                comp = ["-", f"> {fmt_s(k['cpu_s'])}", f"> {k['max_rss_mb'] / 1024:.2f}"] + ["-"] * 4
                notes.append(f"{c['title']}, {label}: " + "; ".join(k["failed"]))
            elif k:
                comp = [fmt_s(k["wall_s"]), fmt_s(k["cpu_s"]), f"{k['max_rss_mb'] / 1024:.2f}",
                        f"{k['objects_bytes'] / 1e6:.1f}", f"{k['text_data_bytes'] / 1e6:.1f}"] + [
                            f"{k[f] / 1e6:.1f}" if f in k else "-" for f in LINKED]
            else:
                comp = ["-"] * 7
            rows.append(f"| {first} | {label} | {t['generate']['wall_s']:.2f} | {t['lines']:,} | "
                        f"{t['bytes'] / 1e6:.1f} | {k.get('files', '-')} | " + " | ".join(comp)
                        + " |")
            first = ""
        pair = ratio_row(e.get("lather", {}), e.get("gsoap", {}), names)
        if pair:
            rows.append(pair)
        kept = e.get("pair")
        if kept and not (pair and run_key(e["lather"]) == run_key(e["gsoap"])):
            row = ratio_row(kept["lather"], kept["gsoap"], names)
            if row:
                rows.append(row.replace("lather / gSOAP, one run",
                                        f"lather / gSOAP at {kept['lather']['commit']}, one run"))
    runs = []
    for name, c in CONTRACTS.items():
        e = results.get(name, {})
        for tool, label in (("lather", "lather"), ("gsoap", "gSOAP")):
            kept = e.get("pair", {}).get(tool)
            if not (kept and e.get(tool) and run_key(kept) != run_key(e[tool])):
                kept = None
            for t, what in ((e.get(tool), ""), (kept, " (the kept pair's row: its ratio row only)")):
                if not t:
                    continue
                during = (f" ({t['load_range'][0]:.1f}-{t['load_range'][1]:.1f} while it ran)"
                          if "load_range" in t else "")
                runs.append(f"* {c['title']}, {label}, run {names[run_key(t)][0]}{what}: "
                            f"{t['date']}, commit {t['commit']}, -{t['opt']}, {t['jobs']} jobs"
                            f"{cap(t)}, load average {t['load'][0]:.1f} -> {t['load'][1]:.1f}"
                            f"{during}")
    legend = [f"* run {letter}: `{command}`" for letter, command in names.values()]
    return "\n".join(rows + [""] + legend + runs +
                     ([""] + ["* " + n for n in notes] if notes else []))


def update_results(path, table):
    with open(path) as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{path}: no codegen markers ({BEGIN})")
    head, rest = text.split(BEGIN, 1)
    _, tail_ = rest.split(END, 1)
    with open(path, "w") as f:
        f.write(head + BEGIN + "\n" + table + "\n" + END + tail_)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--contracts", default="onvif,bingads,ews,vsphere",
                   help="comma-separated subset of: " + ", ".join(CONTRACTS))
    p.add_argument("--opt", default="O2", choices=["O0", "O1", "O2", "O3", "Os"])
    p.add_argument("--jobs", type=int, default=2, help="compiles at a time (default 2)")
    p.add_argument("--mem-limit", type=float, default=4.0,
                   help="address space of one compile, GiB (default 4)")
    p.add_argument("--timeout", type=float, default=5400, help="seconds per compile")
    p.add_argument("--tools", default="lather,gsoap", help="lather, gsoap or both")
    p.add_argument("--no-compile", action="store_true", help="generation figures only")
    p.add_argument("--wsdl2cpp", default=os.path.join(
        os.environ.get("BUILD_DIR", os.path.join(REPO, "build")), "bin", "lather-wsdl2cpp"))
    p.add_argument("--work", help="keep the generated code and objects here (default: a "
                   "temporary directory, removed)")
    p.add_argument("--json", help="the results store to read and write (default: read "
                   "bench/results/codegen.json; write it with --results, else --work/codegen.json)")
    p.add_argument("--results", help="rewrite the codegen table of this file (bench/RESULTS.md)")
    p.add_argument("--render-only", action="store_true", help="render the JSON, measure nothing")
    args = p.parse_args()
    names = [n for n in args.contracts.split(",") if n]
    for n in names:
        if n not in CONTRACTS:
            p.error(f"unknown contract {n!r} (known: {', '.join(CONTRACTS)})")
    tools = set(args.tools.split(","))

    recorded = os.path.join(REPO, "bench", "results", "codegen.json")
    source = args.json or recorded
    if args.json or args.results:
        store = source
    else:
        store = os.path.join(args.work, "codegen.json") if args.work else None
    results = {}
    if os.path.exists(source):
        with open(source) as f:
            results = json.load(f)
    if not args.render_only:
        work_root = args.work or tempfile.mkdtemp(prefix="lather-codegen-")
        command = "bench/run.sh codegen " + " ".join(sys.argv[1:])
        # One id per invocation: rows with the same id ran back to back in this run, and only
        # such a pair is a ratio of like loads (render says which rows are paired).
        # (The process id too: invocations started in the same second are still two runs.)
        run_id = (datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
                  + f", pid {os.getpid()}")
        global LOAD
        try:
            for name in names:
                c = CONTRACTS[name]
                log(f"{c['title']}:")
                work = os.path.join(work_root, name)
                shutil.rmtree(work, ignore_errors=True)
                os.makedirs(work)
                entry = results.setdefault(name, {})
                entry["operations"] = operations(c)
                # A same-run pair this run is about to break up (one tool rerun alone) is kept,
                # so the table still shows the last like-for-like ratio beside the new rows.
                if (len(tools & {"lather", "gsoap"}) == 1 and "lather" in entry and "gsoap" in entry
                        and run_key(entry["lather"]) == run_key(entry["gsoap"])):
                    entry["pair"] = {"lather": entry["lather"], "gsoap": entry["gsoap"]}
                for tool, measure in (("lather", lather), ("gsoap", gsoap)):
                    if tool not in tools:
                        continue
                    LOAD = Load()
                    date = datetime.datetime.now(datetime.timezone.utc).strftime(
                        "%Y-%m-%d %H:%M UTC")
                    commit = git_commit()  # what the generator and the compiles start from
                    entry[tool] = measure(name, c, args, work)
                    end = git_commit()
                    entry[tool].update({
                        "opt": args.opt, "jobs": args.jobs, "mem_limit_gib": args.mem_limit,
                        "date": date, "command": command, "run": run_id,
                        "commit": commit if end == commit else f"{commit} -> {end}",
                        **LOAD.figures()})
                    LOAD = None
                if "pair" in entry and run_key(entry["lather"]) == run_key(entry["gsoap"]):
                    del entry["pair"]  # the rows are a pair again: a newer one
                if store:
                    os.makedirs(os.path.dirname(store), exist_ok=True)
                    with open(store, "w") as f:
                        json.dump(results, f, indent=1, sort_keys=True)
                        f.write("\n")
        finally:
            if not args.work:
                shutil.rmtree(work_root, ignore_errors=True)
    table = render(results)
    print(table)
    if args.results:
        update_results(args.results, table)


if __name__ == "__main__":
    main()
