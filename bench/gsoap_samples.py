#!/usr/bin/env python3
"""bench/gsoap_samples.py: gSOAP's own sample messages through the WSDL corpus checker, per service.

Issue 23 compares lather-wsdl2cpp's `mock-server --samples` with the sample messages gSOAP
writes for the same WSDL (15 of 26 services, 1,163 of 1,529 operations, in the issue's words).
This measures that figure per service on this machine, so docs/wsdl-corpus.md can put the two
side by side:

  wsdl2h -O4 -P -L -t typemap.dat ENTRY...   (offline: bench/codegen.py's copy with the
                                             catalog's absolute URLs made relative)
  soapcpp2 -L -w -I/usr/share/gsoap/import   (without -x: it writes BINDING.OP.req.xml/.res.xml)

then each operation PORTTYPE.OP of the checker's plan gets gSOAP's sample of that operation
(BINDING.OP.req.xml/.res.xml; wsdl2h's `//gsoap P service name:` is the binding, `service type:`
its portType: the sample of a binding of that portType where there is one, else of any binding,
as wsdl2h merges the bindings of one namespace into one service), and `wsdl_corpus_check.py
check WSDL --samples DIR` runs on each entry WSDL as the corpus test runs it, without --url
(gSOAP writes no server to POST to). A service whose
wsdl2h or soapcpp2 fails passes nothing; its error is recorded.

Usage: bench/run.sh gsoap-samples [--services a,b] [--work DIR] [--json FILE]
Results go to FILE (default bench/results/gsoap-samples.json), one entry per service, replaced
by each run that measures it.
"""

import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import codegen  # noqa: E402  (offline_copy, the same gSOAP inputs as the codegen bench)

CHECKER = os.path.join(codegen.CORPUS, "check", "wsdl_corpus_check.py")
PYTHON = "/usr/bin/python3"  # Debian's, with python3-zeep and python3-lxml
SERVICE_LINE = re.compile(r"^//gsoap\s+(\S+)\s+service (name|type):\s*(\S+)", re.M)


def bindings_to_port_types(header):
    """[(binding, portType)] in wsdl2h's order, from its `//gsoap P service ...` lines."""
    with open(header, encoding="utf-8", errors="replace") as f:
        text = f.read()
    names, types, order = {}, {}, []
    for prefix, kind, value in SERVICE_LINE.findall(text):
        if kind == "name":
            names[prefix] = value
            order.append(prefix)
        else:
            types[prefix] = value
    return [(names[p], types[p]) for p in order if p in types]


def plan(entries, catalog):
    """The checker's operation keys, PORTTYPE.OP, over the service's entry WSDLs."""
    keys = []
    for entry in entries:
        cmd = [PYTHON, CHECKER, "plan", entry] + (["--catalog", catalog] if catalog else [])
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode == 0:
            keys += [op["key"] for op in json.loads(r.stdout)["operations"]]
    return keys


def copy_samples(out, bindings, keys, samples):
    """gSOAP's BINDING.OP samples as the checker's PORTTYPE.OP. wsdl2h merges the bindings of
    one namespace into one service (ONVIF's event bindings become one), so a sample is found by
    its operation's name: the binding whose portType is PORTTYPE first, else any binding."""
    port_type_of = dict(bindings)
    by_op = {}
    for f in sorted(os.listdir(out)):
        for suffix in (".req.xml", ".res.xml"):
            if f.endswith(suffix):
                binding, _, op = f[: -len(suffix)].partition(".")
                by_op.setdefault((op, suffix), []).append(binding)
    for key in keys:
        port_type, _, op = key.partition(".")
        for suffix in (".req.xml", ".res.xml"):
            found = by_op.get((op, suffix), [])
            if found:
                best = [b for b in found if port_type_of.get(b) == port_type] or found
                shutil.copy(os.path.join(out, best[0] + "." + op + suffix),
                            os.path.join(samples, key + suffix))


def check(entries, catalog, samples, log):
    """Runs the checker on every entry WSDL, as the corpus test does: (passed keys, operations
    checked or None when the checker gave no result, the first failure)."""
    passed, total, first = set(), 0, None
    with open(log, "w") as f:
        for entry in entries:
            cmd = [PYTHON, CHECKER, "check", entry, "--samples", samples]
            if catalog:
                cmd += ["--catalog", catalog]
            r = subprocess.run(cmd, capture_output=True, text=True)
            f.write(r.stdout + r.stderr)
            m = re.search(r"^ops: (\d+)/(\d+)", r.stdout, re.M)
            if not m:
                return passed, None, first
            total += int(m.group(2))
            passed |= set(re.findall(r"^PASS (.*)$", r.stdout, re.M))
            fail = re.search(r"^FAIL (.*)$", r.stdout, re.M)
            first = first or (fail.group(1)[:240] if fail else None)
    return passed, total, first


def one(svc, work):
    name = svc["name"]
    d = os.path.join(work, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    catalog = os.path.join(codegen.CORPUS, name, "catalog.xml") if svc.get("catalog") else None
    contract = {"entries": [name + "/" + e for e in svc["entries"]], "services": [name]}
    if catalog:
        contract["catalog"] = os.path.relpath(catalog, codegen.CORPUS)
    entries = codegen.offline_copy(contract, d)
    header = os.path.join(d, "gsoap.h")
    res = {"operations": svc["operations"], "passed": 0}
    w = subprocess.run(["wsdl2h", "-O4", "-P", "-L", "-t", codegen.GSOAP_TYPEMAP, "-o", header,
                        *entries], cwd=d, capture_output=True, text=True)
    if w.returncode != 0 or not os.path.exists(header):
        res["error"] = "wsdl2h: " + (w.stderr or w.stdout)[-300:].strip()
        return res
    out = os.path.join(d, "gsoap")
    os.makedirs(out)
    s = subprocess.run(["soapcpp2", "-L", "-w", "-I" + codegen.GSOAP_IMPORT, "-d", out, header],
                       cwd=d, capture_output=True, text=True)
    if s.returncode != 0:
        res["error"] = "soapcpp2: " + (s.stderr or s.stdout)[-300:].strip()
        return res
    # The checker reads the original WSDLs, as the corpus test gives them.
    originals = [os.path.join(codegen.CORPUS, name, e) for e in svc["entries"]]
    samples = os.path.join(d, "samples")
    os.makedirs(samples)
    copy_samples(out, bindings_to_port_types(header), plan(originals, catalog), samples)
    passed, total, first = check(originals, catalog, samples, os.path.join(d, "check.log"))
    res["passed"] = len(passed)
    if first:
        res["first_failure"] = first
    if total is None:
        res["error"] = "checker: no result (see check.log)"
    elif total != svc["operations"]:
        res["checker_operations"] = total
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--services", help="comma-separated corpus service names (default: all)")
    ap.add_argument("--work", help="work directory (default: a temporary one, removed)")
    ap.add_argument("--json", default=os.path.join(codegen.REPO, "bench", "results",
                                                   "gsoap-samples.json"))
    args = ap.parse_args()
    with open(os.path.join(codegen.CORPUS, "manifest.json")) as f:
        manifest = json.load(f)
    wanted = set(args.services.split(",")) if args.services else None
    work = args.work or tempfile.mkdtemp(prefix="gsoap-samples-")
    results = {}
    if os.path.exists(args.json):
        with open(args.json) as f:
            results = json.load(f)
    version = subprocess.run(["soapcpp2", "-V"], capture_output=True, text=True)
    stamp = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
             "commit": codegen.git_commit(),
             "gsoap": " ".join((version.stdout + version.stderr).split()[:1])}
    for svc in manifest:
        if wanted and svc["name"] not in wanted:
            continue
        res = one(svc, work)
        res.update(stamp)
        results[svc["name"]] = res
        print(f"{svc['name']}: {res['passed']} of {res['operations']}"
              + (f" ({res['error']})" if "error" in res else ""), flush=True)
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    with open(args.json, "w") as f:
        json.dump(dict(sorted(results.items())), f, indent=1)
        f.write("\n")
    full = sum(1 for r in results.values() if r["passed"] == r["operations"])
    print(f"total: {sum(r['passed'] for r in results.values())} of "
          f"{sum(r['operations'] for r in results.values())} operations, {full} services")


if __name__ == "__main__":
    main()
