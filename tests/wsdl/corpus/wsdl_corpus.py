#!/usr/bin/python3
"""The WSDL corpus through lather-wsdl2cpp --mock, checked by the corpus's own checker.

  wsdl_corpus.py setup  --work W --corpus C --wsdl2cpp BIN (--install-from BUILD | --prefix P)
                        [--build-target T]... [-j N] [--only NAME,...]
      Generates every service of C/manifest.json (or those of --only) with --mock into
      W/src/<name> (a failure is recorded as that service's result), writes W/src/CMakeLists.txt
      adding each generated project, and configures one shared build tree W/build at -O0
      against an installed lather. Earlier results (W/results) are kept: each generation
      records a fingerprint (FINGERPRINT below), and `report` takes a service's result only
      when it was made from the generation now in W. --install-from: first brings BUILD up to date for the
      targets T (lather's libraries and lather-wsdl2cpp), so an install is never older than the
      source tree (after a rebase, say), then installs its libraries into W/prefix (only files
      that changed are copied, so the generated projects recompile only what that touches);
      W/prefix/lather-corpus.stamp records the commit installed. --prefix P: an installed
      lather used as is (a warning when its libraries are older than the newest source file
      of the tree BIN was built from). CMAKE_GENERATOR, CXX and CMAKE_CXX_COMPILER_LAUNCHER from
      the environment are used as a user's would be.
  wsdl_corpus.py run    --work W --corpus C --service NAME [--expected FILE] [-j N]
      Builds NAME's mock-server, writes its samples (--samples), checks them against the
      ORIGINAL WSDL with C/check/wsdl_corpus_check.py, then POSTs them to mock-server --port
      (checker --url --serving). Records W/results/NAME.json, with the fingerprint of the
      generation it ran (first as "did not finish", so that a run that dies leaves no older
      result behind). Exit 1 when fewer operations pass than FILE expects for NAME (the floor
      that keeps a regression from passing unseen), when NAME stops at an earlier stage than
      FILE expects (STAGES: a contract that cannot be checked still has to build), or when FILE
      has no line for NAME. A build that finds the project built already (nothing to do: the
      same generation built by an earlier run) keeps that run's build figures, with its date
      and commit (build_from), rather than measuring nothing.
  -j N: parallel compile jobs of each build (default: CMAKE_BUILD_PARALLEL_LEVEL, else 2; one
      -O0 compile of generated code takes up to about 1 GB).
  wsdl_corpus.py report --work W --corpus C --doc OUT [--from DOC] [--command TEXT]
      Writes OUT, the table per service and per operation from W/results; a service without a
      current result in W (a `long` test not run, or a result whose fingerprint is not that of
      the service's generation now in W: stale, ignored with a note) keeps its section of DOC
      (default: OUT as it was). A partial rerun (`ctest -R 'wsdl_corpus[.]NAME'`) thus keeps
      the other services' results where setup generated the same code from the same inputs.
      The CTest wsdl_corpus_report writes W/wsdl-corpus.md from docs/wsdl-corpus.md (a test
      never writes into the checkout); the build target wsdl_corpus_doc writes
      docs/wsdl-corpus.md itself from the last run's results.
"""
import argparse
import datetime
import hashlib
import json
import os
import re
import select
import shutil
import subprocess
import sys
import time

# The test ports of tests/support/process.hpp, shared with C++ tests and scripts.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "support"))
from test_ports import free_port  # noqa: E402

CHECKER = "check/wsdl_corpus_check.py"
PYTHON = "/usr/bin/python3"  # zeep and lxml are Debian's


def manifest(corpus):
    with open(os.path.join(corpus, "manifest.json")) as f:
        return json.load(f)


def ident(name):
    return re.sub(r"[^A-Za-z0-9]", "_", name)


def write_json(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(value, f, indent=1, sort_keys=True)


# What a result stands for, hashed: this driver's result format, the installed lather (its
# headers and libraries), the corpus's checker, the service's files in the corpus and the code
# generated from them. A result of another fingerprint is stale: it ran other code or inputs.
RESULT_FORMAT = "2"


def hash_files(h, paths):
    """Feeds `h` every file under `paths` (a file or a directory), in a fixed order, each as its
    path relative to its root and its bytes."""
    for top in paths:
        files = [top] if os.path.isfile(top) else sorted(
            os.path.join(d, f) for d, _, fs in os.walk(top) for f in fs)
        for p in files:
            h.update(os.path.relpath(p, top).encode() + b"\0")
            with open(p, "rb") as f:
                h.update(f.read())
            h.update(b"\0")


TIMES = re.compile(r" \(load [0-9.]+ ms, generate [0-9.]+ ms\)")


def fingerprint(prefix, corpus, svc, out, gen):
    h = hashlib.sha256(RESULT_FORMAT.encode())
    hash_files(h, [os.path.join(prefix, d) for d in ("include", "lib", "lib64")
                   if os.path.isdir(os.path.join(prefix, d))])
    hash_files(h, [os.path.join(corpus, CHECKER), os.path.join(corpus, svc["name"])])
    if os.path.isdir(out):
        hash_files(h, [out])
    # (Not the times lather-wsdl2cpp reports, which differ from run to run.)
    stderr = [TIMES.sub("", line) for line in gen["stderr"]]
    h.update(json.dumps([gen["status"], stderr]).encode())
    return h.hexdigest()[:16]


def jobs(a):
    """-j, else CMAKE_BUILD_PARALLEL_LEVEL, else 2 (the build machines have 2 cores)."""
    if a.jobs:
        return a.jobs
    env = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "")
    return int(env) if env.isdigit() and int(env) > 0 else 2


def source_tree(build):
    """The source directory of CMake build tree `build` (CMAKE_HOME_DIRECTORY)."""
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith("CMAKE_HOME_DIRECTORY:"):
                return line.split("=", 1)[1].strip()
    return None


def commit_of(tree):
    """The commit of the source tree, `+` when what it installs and generates with (src,
    include, tools, cmake) has changes not committed ('' without git)."""
    r = subprocess.run(["git", "-C", tree, "rev-parse", "--short=12", "HEAD"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return ""
    dirty = subprocess.run(["git", "-C", tree, "status", "--porcelain", "--untracked-files=no",
                            "--", "src", "include", "tools", "cmake", "CMakeLists.txt"],
                           capture_output=True, text=True).stdout.strip()
    return r.stdout.strip() + ("+" if dirty else "")


def newest(paths):
    """(mtime, path) of the newest file under `paths`."""
    best = (0.0, "")
    for top in paths:
        for d, _, files in os.walk(top):
            for f in files:
                p = os.path.join(d, f)
                best = max(best, (os.stat(p).st_mtime, p))
    return best


def install(a, work):
    """BUILD brought up to date for the corpus's targets, then its libraries installed."""
    prefix = os.path.join(work, "prefix")
    if a.build_target:
        subprocess.run(["cmake", "--build", a.install_from, "-j", str(jobs(a)), "--target"] +
                       a.build_target, check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--install", a.install_from, "--prefix", prefix, "--component",
                    "lather_development"], check=True, stdout=subprocess.DEVNULL)
    tree = source_tree(a.install_from)
    with open(os.path.join(prefix, "lather-corpus.stamp"), "w") as f:
        f.write("%s\n" % (commit_of(tree) if tree else ""))
    return prefix


def check_prefix(prefix, wsdl2cpp):
    """Warns when the installed libraries are older than the source tree BIN was built from."""
    build = os.path.dirname(os.path.dirname(os.path.abspath(wsdl2cpp)))
    tree = source_tree(build) if os.path.exists(os.path.join(build, "CMakeCache.txt")) else None
    if not tree:
        return
    src_time, src_file = newest([os.path.join(tree, "include"), os.path.join(tree, "src")])
    lib_time, _ = newest([os.path.join(prefix, "lib"), os.path.join(prefix, "lib64")])
    if lib_time < src_time:
        print("warning: the lather installed in %s is older than %s: reinstall it, or use "
              "--install-from" % (prefix, src_file))


def setup(a):
    work, corpus = os.path.abspath(a.work), os.path.abspath(a.corpus)
    prefix = a.prefix
    if prefix:
        check_prefix(prefix, a.wsdl2cpp)
    else:
        prefix = install(a, work)
    src = os.path.join(work, "src")
    os.makedirs(src, exist_ok=True)
    # W/results stays: a result counts while its fingerprint is its service's (report).
    subdirs = []
    only = set(a.only.split(",")) if a.only else None
    for svc in manifest(corpus):
        if only is not None and svc["name"] not in only:
            continue
        name, d = svc["name"], os.path.join(corpus, svc["name"])
        out = os.path.join(src, name)
        cmd = [a.wsdl2cpp] + [os.path.join(d, e) for e in svc["entries"]]
        cmd += ["-o", out, "--namespace", ident(name), "--mock"]
        if svc.get("catalog"):
            cmd += ["--catalog", os.path.join(d, "catalog.xml")]
        t0 = time.monotonic()
        r = subprocess.run(cmd, capture_output=True, text=True)
        gen = {"status": r.returncode, "seconds": round(time.monotonic() - t0, 2),
               "stderr": r.stderr.strip().splitlines()[-40:]}
        gen["fingerprint"] = fingerprint(prefix, corpus, svc, out, gen)
        write_json(os.path.join(work, "generate", name + ".json"), gen)
        if r.returncode == 0:
            subdirs.append(name)
    with open(os.path.join(src, "CMakeLists.txt"), "w") as f:
        f.write("# Written by tests/wsdl/corpus/wsdl_corpus.py: every generated service.\n"
                "cmake_minimum_required(VERSION 3.25)\nproject(wsdl_corpus LANGUAGES CXX)\n")
        for s in subdirs:
            f.write("add_subdirectory(%s)\n" % s)
    # Warning-free, as the issue asks of generated code: a warning fails the service's build.
    cfg = ["cmake", "-S", src, "-B", os.path.join(work, "build"), "-DCMAKE_BUILD_TYPE=Debug",
           "-DCMAKE_CXX_FLAGS_DEBUG=-O0", "-DCMAKE_CXX_FLAGS=-Wall -Wextra -Werror",
           "-DCMAKE_PREFIX_PATH=" + os.path.abspath(prefix)]
    subprocess.run(cfg, check=True, stdout=subprocess.DEVNULL)
    print("generated %d of %d services into %s" % (len(subdirs), len(only or manifest(corpus)),
                                                   src))


def check(corpus, svc, samples, extra):
    """Runs the checker on every entry WSDL: {op: "PASS" | reason}."""
    d = os.path.join(corpus, svc["name"])
    ops = {}
    for entry in svc["entries"]:
        cmd = [PYTHON, os.path.join(corpus, CHECKER), "check", os.path.join(d, entry),
               "--samples", samples] + extra
        if svc.get("catalog"):
            cmd += ["--catalog", os.path.join(d, "catalog.xml")]
        r = subprocess.run(cmd, capture_output=True, text=True)
        for line in r.stdout.splitlines():
            if line.startswith("PASS "):
                ops[line[5:].strip()] = "PASS"
            elif line.startswith("FAIL "):
                key, _, why = line[5:].partition(": ")
                ops[key.strip()] = why.strip() or "FAIL"
        if not ops and r.returncode != 0:
            ops["(checker)"] = (r.stderr.strip().splitlines() or ["failed"])[-1]
    return ops


def plan(corpus, svc):
    d = os.path.join(corpus, svc["name"])
    keys = []
    for entry in svc["entries"]:
        cmd = [PYTHON, os.path.join(corpus, CHECKER), "plan", os.path.join(d, entry)]
        if svc.get("catalog"):
            cmd += ["--catalog", os.path.join(d, "catalog.xml")]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("the checker cannot load %s: %s" % (
                entry, (r.stderr.strip().splitlines() or ["?"])[-1]))
        keys += [o["key"] for o in json.loads(r.stdout)["operations"]]
    return keys


def serve_and_check(corpus, svc, server, samples, serving):
    """Starts mock-server --port on a free port, checks with --url, stops it by PID."""
    for attempt in range(3):
        port = free_port()
        p = subprocess.Popen([server, "--port", str(port)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        # Raw reads: the `serving` lines come in one write, after the server has started.
        data = b""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            ready, _, _ = select.select([p.stdout], [], [], 0.3 if data else 1.0)
            if not ready:
                if data or p.poll() is not None:
                    break
                continue
            chunk = os.read(p.stdout.fileno(), 65536)
            if not chunk:
                break
            data += chunk
        lines = data.decode(errors="replace").splitlines(keepends=True)
        if not lines:
            err = p.stderr.read().decode(errors="replace") if p.poll() is not None else ""
            p.kill()
            p.wait()
            if attempt == 2 or p.returncode == 1:  # 1: it has nothing to serve
                return {"(server)": "mock-server did not start: " + err.strip()[-300:]}
            continue
        with open(serving, "w") as f:
            f.writelines(lines)
        try:
            return check(corpus, svc, samples,
                         ["--url", "http://127.0.0.1:%d" % port, "--serving", serving])
        finally:
            p.terminate()
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
    return {}


# The stages a run reaches, in order: a service that stops at an earlier one than expected.txt
# records fails its test. `run` (the run did not finish), `checker` (the corpus's checker cannot
# load the contract; the project generated and built) and `check` all come after the build.
STAGES = {"generate": 0, "build": 1, "run": 2, "checker": 2, "check": 2}
BUILD_FIGURES = ("build_seconds", "build_cpu_seconds", "build_peak_mb")


def expectation(path, name):
    """(floor, stage) that FILE records for NAME: `NAME FLOOR STAGE`; None without a line."""
    with open(path) as f:
        for line in f:
            parts = line.split("#")[0].split()
            if parts and parts[0] == name:
                if len(parts) != 3 or not parts[1].isdigit() or parts[2] not in STAGES:
                    raise ValueError("%s: bad line for %s: %r (NAME FLOOR STAGE, STAGE one of "
                                     "%s)" % (path, name, line.strip(), ", ".join(STAGES)))
                return int(parts[1]), parts[2]
    return None


def earlier_build(path, fingerprint):
    """The build figures of the result at `path` when it ran the same generation (its
    fingerprint), with the run they were measured in (build_from: date and commit); {} else."""
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        prev = json.load(f)
    if not fingerprint or prev.get("fingerprint") != fingerprint or any(
            not isinstance(prev.get(k), (int, float)) for k in BUILD_FIGURES):
        return {}
    kept = {k: prev[k] for k in BUILD_FIGURES}
    kept["build_from"] = prev.get("build_from") or {"date": prev.get("date", ""),
                                                    "commit": prev.get("commit", "")}
    return kept


def build(work, name, jobs):
    """Builds NAME's mock server: (exit status, output, {build_seconds (wall), build_cpu_seconds
    (user + system of every compile and link; a ccache hit costs almost none),
    build_peak_mb (the largest process, a compile of the generated code)}, empty when the
    build had nothing to do: ninja says so, or the mock server was not written again)."""
    server = os.path.join(work, "build", name, "mock-server")
    before = os.lstat(server).st_mtime_ns if os.path.lexists(server) else None
    with open(os.path.join(work, "build", name + ".build.log"), "w+") as out:
        t0 = time.monotonic()
        p = subprocess.Popen(["cmake", "--build", os.path.join(work, "build"), "-j", str(jobs),
                              "--target", ident(name) + "_mock_server"], stdout=out,
                             stderr=subprocess.STDOUT)
        # wait4: the usage of this child and every descendant it waited for, ru_maxrss the
        # largest of them (Linux).
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        cost = {"build_seconds": round(time.monotonic() - t0, 1),
                "build_cpu_seconds": round(usage.ru_utime + usage.ru_stime, 1),
                "build_peak_mb": round(usage.ru_maxrss / 1024)}
        out.seek(0)
        text = out.read()
        # A rerun over a tree already built costs nothing: no figures rather than ~0 (the
        # caller keeps an earlier run's of the same generation).
        after = os.lstat(server).st_mtime_ns if os.path.lexists(server) else None
        no_op = "ninja: no work to do" in text or (p.returncode == 0 and before is not None and
                                                   before == after)
        return p.returncode, text, {} if no_op else cost


def run(a):
    work, corpus = os.path.abspath(a.work), os.path.abspath(a.corpus)
    svc = next(s for s in manifest(corpus) if s["name"] == a.service)
    name = svc["name"]
    result = {"name": name, "operations": svc["operations"], "bytes": svc["bytes"],
              "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
              "stage": "generate", "detail": "", "ops": {}}
    stamp = os.path.join(work, "prefix", "lather-corpus.stamp")
    if os.path.exists(stamp):
        with open(stamp) as f:
            result["commit"] = f.read().strip()
    gen_json = os.path.join(work, "generate", name + ".json")
    if not os.path.exists(gen_json):
        print("%s: not generated by the last setup (--only?)" % name)
        return 1
    with open(gen_json) as f:
        gen = json.load(f)
    result["generate_seconds"] = gen["seconds"]
    result["fingerprint"] = gen.get("fingerprint", "")
    expected = None
    if a.expected:
        try:
            expected = expectation(a.expected, name)
        except (OSError, ValueError) as e:
            print(e)
            return 1
        if expected is None:
            print("%s: no line in %s (NAME FLOOR STAGE)" % (name, a.expected))
            return 1
    # The build figures of an earlier run of this same generation, for a build with nothing
    # left to do; kept in the placeholder too, so that a run that dies does not lose them.
    results = os.path.join(work, "results", name + ".json")
    earlier = earlier_build(results, result["fingerprint"])
    # Until this run ends, its result says so: a run that dies leaves no older one behind.
    write_json(results, dict(result, stage="run", detail="the run did not finish", passed=0,
                             **earlier))
    checker_error = ""
    try:
        keys = plan(corpus, svc)
    except RuntimeError as e:
        keys = []
        checker_error = str(e)
        result["stage"], result["detail"] = "checker", checker_error
    if gen["status"] != 0:
        why = next((l for l in gen["stderr"] if not l.startswith(("skipped:", "warning:"))),
                   "lather-wsdl2cpp failed")
        result["stage"], result["detail"] = "generate", why
        result["ops"] = {k: {"samples": "not generated", "served": "not generated"} for k in keys}
    else:
        result["stage"] = "build"
        status, output, cost = build(work, name, jobs(a))
        result.update(cost or earlier)
        if status != 0:
            errors = [l for l in output.splitlines() if "error:" in l]
            result["detail"] = (errors or ["build failed"])[0][-300:]
            sys.stdout.write(output[-4000:])
            result["ops"] = {k: {"samples": "build failed", "served": "build failed"}
                             for k in keys}
        elif checker_error:
            # Nothing can be checked, but the samples show how far lather gets.
            samples = os.path.join(work, "samples", name)
            shutil.rmtree(samples, ignore_errors=True)
            s = subprocess.run([os.path.join(work, "build", name, "mock-server"), "--samples",
                                samples], capture_output=True, text=True)
            written = len(os.listdir(samples)) if os.path.isdir(samples) else 0
            result["stage"] = "checker"
            result["detail"] = ("%s (lather-wsdl2cpp generated the contract, its mock server "
                                "built, and mock-server --samples wrote %d files%s: none can be "
                                "checked)" % (checker_error, written,
                                              "" if s.returncode == 0 else ", then failed"))
        else:
            result["stage"] = "check"
            server = os.path.join(work, "build", name, "mock-server")
            samples = os.path.join(work, "samples", name)
            shutil.rmtree(samples, ignore_errors=True)
            s = subprocess.run([server, "--samples", samples], capture_output=True, text=True)
            if s.returncode != 0:
                result["detail"] = "mock-server --samples: " + s.stderr.strip()[-300:]
            by_samples = check(corpus, svc, samples, [])
            by_url = serve_and_check(corpus, svc, server, samples,
                                     os.path.join(work, "samples", name + ".serving"))
            for k in keys:
                result["ops"][k] = {"samples": by_samples.get(k, "no result"),
                                    "served": by_url.get(k, "no result")}
            for k in ("(checker)", "(server)"):
                for got in (by_samples, by_url):
                    if k in got:
                        result["detail"] = got[k]
    passed = sum(1 for o in result["ops"].values() if o["samples"] == "PASS" and
                 o["served"] == "PASS")
    result["passed"] = passed
    write_json(os.path.join(work, "results", name + ".json"), result)
    for k, o in sorted(result["ops"].items()):
        ok = o["samples"] == "PASS" and o["served"] == "PASS"
        print("%s %s%s" % ("PASS" if ok else "FAIL", k,
                           "" if ok else ": samples: %s; served: %s" % (o["samples"], o["served"])))
    print("%s: %d of %d operations pass (%s)" % (name, passed, len(keys), result["detail"] or
                                                  "generated, built, checked"))
    if expected is None:
        return 0
    floor, stage = expected
    failed = 0
    if STAGES[result["stage"]] < STAGES[stage]:
        print("%s: stopped at stage %s, %s expected (%s)" % (name, result["stage"], stage,
                                                             os.path.basename(a.expected)))
        failed = 1
    if passed < floor:
        print("%s: %d operations pass, %d expected (%s)" % (name, passed, floor,
                                                            os.path.basename(a.expected)))
        failed = 1
    return failed


# gSOAP's own sample messages through the same checker, per service (bench/gsoap_samples.py).
GSOAP_SAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                             "bench", "results", "gsoap-samples.json")
LONG_BYTES = 800000  # as tests/wsdl/CMakeLists.txt labels them: vSphere, EWS, eBay, Bing Ads


def short(commit):
    """A commit as the table shows it: 7 digits, `+` kept (changes not committed)."""
    return commit[:7] + ("+" if commit.endswith("+") else "")


def report(a):
    work, corpus = os.path.abspath(a.work), os.path.abspath(a.corpus)
    old = {}
    previous = a.from_doc or a.doc
    if os.path.exists(previous):
        with open(previous) as f:
            text = f.read()
        for m in re.finditer(r"<!-- result (\{.*?\}) -->\n(.*?)<!-- end -->\n", text, re.S):
            r = json.loads(m.group(1))
            old[r["name"]] = (r, m.group(0))
    gsoap = {}
    if os.path.exists(GSOAP_SAMPLES):
        with open(GSOAP_SAMPLES) as f:
            gsoap = json.load(f)
    rows, sections = [], []
    passed = {}  # service -> operations passed
    total_pass = total_ops = full = 0
    kept_figures = False
    for svc in manifest(corpus):
        name = svc["name"]
        path = os.path.join(work, "results", name + ".json")
        r = None
        if os.path.exists(path):
            with open(path) as f:
                r = json.load(f)
            gen_json = os.path.join(work, "generate", name + ".json")
            generated = ""
            if os.path.exists(gen_json):
                with open(gen_json) as f:
                    generated = json.load(f).get("fingerprint", "")
            if not generated or r.get("fingerprint") != generated:
                print("%s: ignored %s: stale, made from another generation than the one in %s "
                      "(result %s, generation %s)" % (name, path, work,
                                                      r.get("fingerprint") or "unmarked",
                                                      generated or "none"))
                r = None
        if r is not None:
            summary = {k: r.get(k, "") for k in ("name", "passed", "operations", "date", "commit",
                                                 "stage") + BUILD_FIGURES}
            if r.get("build_from"):
                summary["build_from"] = r["build_from"]
            lines = ["### %s\n\n" % name]
            if r["detail"]:
                lines.append("%s: %s\n\n" % (r["stage"], r["detail"].replace("|", "\\|")))
            lines.append("| operation | samples | served by mock-server |\n|---|---|---|\n")
            for k, o in sorted(r["ops"].items()):
                cell = [v if v == "PASS" else v.replace("|", "\\|")[:160] for v in
                        (o["samples"], o["served"])]
                lines.append("| %s | %s | %s |\n" % (k, cell[0], cell[1]))
            section = "<!-- result %s -->\n%s\n<!-- end -->\n" % (json.dumps(summary),
                                                                  "".join(lines))
        elif name in old:
            summary, section = old[name]
        else:
            summary = {"name": name, "passed": 0, "operations": svc["operations"],
                       "date": "never", "stage": "not run"}
            section = ("<!-- result %s -->\n### %s\n\nnot run yet\n\n<!-- end -->\n" %
                       (json.dumps(summary), name))
        passed[name] = summary["passed"]
        total_pass += summary["passed"]
        total_ops += summary["operations"]
        full += summary["passed"] == summary["operations"]
        label = " (`long`)" if svc["bytes"] > LONG_BYTES else ""
        ran = summary["date"] + (" at " + short(summary["commit"]) if summary.get("commit") else "")
        if summary.get("build_from"):  # the build had nothing to do: an earlier run's figures
            kept_figures = True
            b = summary["build_from"]
            at = b.get("date", "") + (" at " + short(b["commit"]) if b.get("commit") else "")
            ran += " (build figures: %s)" % ("an earlier run" if at == ran else at)
        g = gsoap.get(name)
        rows.append("| [%s](#%s)%s | %d | %d | %s | %s | %s | %s | %s | %s |\n" % (
            name, name, label, summary["passed"], summary["operations"],
            g["passed"] if g else "", summary["stage"],
            summary.get("build_seconds", ""), summary.get("build_cpu_seconds", ""),
            summary.get("build_peak_mb", ""), ran))
        sections.append(section)
    os.makedirs(os.path.dirname(os.path.abspath(a.doc)), exist_ok=True)
    with open(a.doc, "w") as f:
        f.write("# The WSDL corpus through lather-wsdl2cpp --mock\n\n"
                "Written from the last test run's results by `cmake --build build --target "
                "wsdl_corpus_doc` (`tests/wsdl/corpus/wsdl_corpus.py report`): for each "
                "service of `../shared/wsdl-corpus`, lather-wsdl2cpp generates the contract with "
                "`--mock`, the generated project is built at -O0 with -Wall -Wextra -Werror "
                "against the installed lather, "
                "`mock-server --samples` writes each operation's request and response, and "
                "`wsdl_corpus_check.py check` checks them against the original WSDL (zeep strict "
                "+ libxml2 XSD validation) and again as POSTed to `mock-server --port` and "
                "answered (`--url`). An operation passes when both pass.\n\n"
                "Command: `%s`. Contracts over 800 kB (vSphere, EWS, eBay, Bing Ads) carry the "
                "CTest label `long` and run only with -DLATHER_LONG_TESTS=ON: their generated code "
                "takes minutes to compile at -O0 (below: the build's wall seconds, which depend on "
                "the machine's load, its CPU seconds, all compiles and links, where ccache hits "
                "count almost nothing, and the peak memory of its largest process, one compile of "
                "the generated code); the others run in every `ctest` and in CI's release stage, "
                "where the eight between 50 and 800 kB take 168 CPU seconds together (generation, "
                "build and checks, ccache off; 158 of them the builds); a row "
                "keeps the date it last ran and the commit of the lather it ran against. A "
                "service's result counts only while it describes the generation in the work "
                "directory (a fingerprint of the installed lather, the checker, the service's "
                "corpus files and the generated code): a partial rerun keeps the other services' "
                "results where the setup generated the same code again, and a result of an older "
                "generation is ignored as stale, its row then kept from this page as it was.\n\n"
                % a.command)
        f.write("**%d of %d operations pass; %d of %d services completely**" % (
            total_pass, total_ops, full, len(rows)))
        if gsoap:
            g = list(gsoap.values())
            f.write(" (gSOAP's own sample messages, soapcpp2's, through the same checks but "
                    "`--url`, as gSOAP writes no mock server: column `gSOAP`, %d of %d operations, "
                    "%d services; `bench/gsoap_samples.py`, gSOAP %s). Per service, lather passes "
                    "more operations than gSOAP on %d, as many on %d, fewer on %d" % (
                        sum(r["passed"] for r in g), sum(r["operations"] for r in g),
                        sum(r["passed"] == r["operations"] for r in g), g[0].get("gsoap", ""),
                        *(sum(1 for n, p in passed.items() if n in gsoap and
                              cmp(p, gsoap[n]["passed"])) for cmp in
                          (lambda a, b: a > b, lambda a, b: a == b, lambda a, b: a < b))))
        f.write(".\n\n| service | pass | operations | gSOAP | stage reached | build s | "
                "build CPU s | peak MB | run |\n|---|---|---|---|---|---|---|---|---|\n")
        f.writelines(rows)
        if kept_figures:
            f.write("\nA row whose run says `build figures: DATE at COMMIT` (or `an earlier "
                    "run`, of the same day and commit) found its generated project built already "
                    "(the build had nothing to do): its build figures are those that earlier run "
                    "measured, on the same generation, so the same code.\n")
        f.write("\nStage: `generate` = lather-wsdl2cpp refused the contract, `build` = the "
                "generated project did not compile, `check` = generated and built, then "
                "checked per operation, `run` = the run did not finish, `checker` = the corpus's checker cannot load the original "
                "WSDL, so none of its operations can be checked: it builds one zeep Client for the "
                "whole WSDL before it looks at any operation, in `plan` and `check` alike (checks "
                "1-3 included), and the checker is shared code this test does not change. "
                "A service's test fails when it stops at an earlier stage than "
                "`tests/wsdl/corpus/expected.txt` records for it (generate, then build, then "
                "the rest: w3c-soap12-test must build, its `checker` is expected), or when fewer "
                "of its operations pass than the floor recorded there. "
                "An operation without a proxy method (reason in the generated names.txt) has no "
                "sample: `no result`.\n\n"
                "**Why w3c-soap12-test cannot pass** (any generator's samples, gSOAP's too): the "
                "checker fails on the contract itself, twice over. (1) Its schema gives complexType "
                "`echoResolvedRef_t` (which no operation uses) an xs:complexContent that holds an xs:sequence directly: XSD "
                "1.0 allows only (annotation?, (restriction | extension)) there (Part 1, 3.4.2; "
                "libxml2 says \"Element complexContent: The content is not valid\"), and zeep "
                "4.2.1's visit_complex_content returns nothing for it, hence the TypeError quoted "
                "in its section. (2) With that one element removed in a copy, zeep stops at the "
                "next one: the attributeGroup `enc:arrayAttributes` of "
                "http://www.w3.org/2003/05/soap-encoding, a namespace the WSDL imports without a "
                "schemaLocation and that neither the corpus nor the checker's schemas/ supplies "
                "(manifest: imports PARTIAL). gSOAP's wsdl2h 2.8.124 skips the xs:sequence with a "
                "warning and reports a circular restriction/extension for the type, so its "
                "echoResolvedRef_t is empty. lather-wsdl2cpp reads the particle as the content of a "
                "type derived from anyType, which is what the author meant (docs/wsdl2cpp.md, "
                "tolerated constructs), generates all 20 operations (emptyBody and echoOk, whose "
                "messages have no body part, with an empty Body: docs/wsdl2cpp.md, \"Empty "
                "bodies\"), and the mock server builds and writes their 40 samples; the row stays "
                "at `checker` until the corpus or its checker changes.\n\n## Per operation\n\n")
        f.writelines(sections)
    print("%s: %d of %d operations, %d services completely" % (a.doc, total_pass, total_ops,
                                                                full))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("setup")
    s.add_argument("--work", required=True)
    s.add_argument("--corpus", required=True)
    s.add_argument("--wsdl2cpp", required=True)
    g = s.add_mutually_exclusive_group(required=True)
    g.add_argument("--install-from")
    g.add_argument("--prefix")
    s.add_argument("--build-target", action="append", default=[],
                   help="a target of BUILD to bring up to date before installing (repeatable)")
    s.add_argument("--only", help="generate only these services (comma-separated)")
    s.add_argument("-j", "--jobs", type=int)
    r = sub.add_parser("run")
    r.add_argument("--work", required=True)
    r.add_argument("--corpus", required=True)
    r.add_argument("--service", required=True)
    r.add_argument("--expected")
    r.add_argument("-j", "--jobs", type=int)
    p = sub.add_parser("report")
    p.add_argument("--work", required=True)
    p.add_argument("--corpus", required=True)
    p.add_argument("--doc", required=True)
    p.add_argument("--from", dest="from_doc",
                   help="the document whose sections services without a result keep")
    p.add_argument("--command", default="ctest --test-dir build -L wsdl_corpus")
    a = ap.parse_args()
    if a.cmd == "setup":
        setup(a)
        return 0
    return run(a) if a.cmd == "run" else report(a)


if __name__ == "__main__":
    sys.exit(main())
