#!/usr/bin/env bash
# The test suite. With no argument (or `all`), the three stages below in this order: what CI
# (`.ci/run`) runs. Each prints its wall and CPU time, and so does each build, test run, check
# and the fuzzing run inside it; the first failure stops the run.
#   1. release: g++ Release build of everything with -Werror, then every test through CTest
#      (unit, hostile-input, interop with real third-party stacks, peer benchmarks' smoke
#      tests); the libFuzzer targets built with clang (ASan+UBSan) and run briefly
#      (scripts/fuzz.sh short);
#   2. asan: clang++ build with -Werror (preset asan, build-asan/) of the libraries, the tools
#      and the tests of the code that reads hostile input, those tests under ASan+UBSan (all
#      areas of tests/ but package, tools, interop and onvif; docs/testing.md says why), so
#      both compilers stay checked on everything but the tests the release stage alone runs;
#      then bind's and the generated code's constant tables parsed by g++ under
#      -fsanitize=undefined, which takes fewer expressions as constant than plain g++;
#   3. tsan: the tests of the multi-threaded code (http, service, deploy, mtom, wsse, wsa)
#      under TSan (preset tsan, build-tsan/).
# `scripts/test.sh release|asan|tsan` runs one stage alone.
# CI's budget is 45 minutes on 2 cores from a clean clone (90 at most); after a change to a header
# most of the tree includes, `all` takes about 37 of them on 2 quiet cores, about 13 with a warm
# ccache. docs/testing.md has the cost of each part, the cuts made and why; bench/RESULTS.md the
# measurements.
#
# The sanitizer builds (CMakePresets.json) are -O1 with line tables, without the benchmarks and
# the gSOAP interop peers (third-party code, not ours to sanitize; the interop matrix runs
# without them). A sanitizer report fails the test that triggered it: every runtime stops at
# its first report (halt_on_error, abort_on_error; UBSan is built non-recoverable). There is no
# suppressions file: a finding is fixed, not silenced. Left out of the sanitizer runs, by label:
#   consumer    tests/consumer builds against the installed libraries, which carry no
#               sanitizer flags for a consumer's own link;
#   nosanitize  the WSDL corpus projects (tests/wsdl/corpus) are generated and compiled the
#               same way, against the installed libraries;
#   long        as in the release stage (corpus contracts over 800 kB, the 1 GiB MTOM run).
# Left out of the ASan run by label, for its cost: dynamic_corpus (every corpus WSDL read by
# lather-call at run time: trusted contracts, one test each). Left out of the ASan run by
# name: alloc_fault.Every* and two socket_fault cases throw on the server's connection
# coroutines, whose stack switches (inside Boost.Asio's spawn) ASan is not told about; the
# frames such a throw unwinds stay poisoned and a later frame there reports a false overflow
# (google/sanitizers#189). They run in the release stage.
# Under ASan and TSan, tests that bound the process's RSS skip that bound
# (tests/support/sanitizer.hpp): the sanitizer's shadow memory and caches would be measured.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
stage=${1:-all}

# LeakSanitizer is on; stack-use-after-return is off: its fake frames do not follow the
# server's stackful coroutines (Boost.Context switches stacks without telling ASan).
asan_options=detect_leaks=1:halt_on_error=1:abort_on_error=1:detect_stack_use_after_return=0
ubsan_options=print_stacktrace=1:halt_on_error=1
tsan_options=halt_on_error=1:second_deadlock_stack=1

# Runs "${@:2}" and prints its wall and CPU time as "== $1: ...", so that each build and test
# run of a stage can be costed on its own.
phase() {
  # A subshell, so that a failure leaves the stage's own time format for the stage's report.
  (
    TIMEFORMAT="== $1: %0R s (CPU: %0U s user, %0S s system)"
    shift
    time "$@"
  )
}

# A sanitizer stage: configure and build its preset, run the check $2 names on the build (none
# if empty), then the tests with the runtime's options (children the tests start, such as
# lather-perf-server, inherit them).
sanitizer_stage() {
  local preset=$1 check=$2
  shift 2
  cmake --preset "$preset" >/dev/null
  phase "$preset build" cmake --build --preset "$preset" -j"$jobs"
  [ -z "$check" ] || phase "$check" "$check" "build-$preset"
  phase "$preset tests" env "$@" ctest --preset "$preset" -j"$jobs"
}

# The release build, its tests and the short fuzzing run.
release_stage() {
  # The release preset (CMakePresets.json) sets tests and benchmarks on explicitly: the
  # README's first command (scripts/demo.sh) configures the same build directory without
  # tests, and a cached OFF would otherwise leave CTest nothing to run.
  cmake --preset release
  phase "release build" cmake --build --preset release -j"$jobs"
  phase "release tests" ctest --preset release -j"$jobs"
  phase "fuzz" bash scripts/fuzz.sh short
}

# g++ with -fsanitize=undefined (implied -fno-delete-null-pointer-checks) does not take a
# function's address compared with nullptr as a constant expression, which plain g++ and clang
# do: a constant field table that compares one failed to compile for a user's UBSan build
# (c5cf508), and so does the address of a constant with external linkage (a facets constant
# that is a static member of a meta<T>). The clang ASan build cannot see it, so the sources with
# such tables or facets (those that include lather/bind/table.hpp or lather/bind/facets.hpp, and
# the generated code the tests build) are parsed again by g++ with the build's flags, once each:
# -fsyntax-only, since the front end decides what is constant.
gxx_ubsan_constants() {
  python3 - "$1" <<'PY' | xargs -0 -n1 -P"$jobs" bash -c
import json, os, re, shlex, sys
includes_table = re.compile(r'^\s*#\s*include\s*[<"]lather/bind/(table|facets)\.hpp', re.M)
seen = set()
for e in json.load(open(sys.argv[1] + "/compile_commands.json")):
    f = e["file"]
    if f in seen or not os.path.exists(f):  # a generated source of a target not built
        continue
    seen.add(f)
    generated = "/generated/" in f or "/lather_generate/" in f
    if not generated and not includes_table.search(open(f, errors="replace").read()):
        continue
    args = shlex.split(e["command"])
    i = args.index("-o")
    del args[i:i + 2]
    args[0] = "g++"
    cmd = "cd " + shlex.quote(e["directory"]) + " && " + shlex.join(args + ["-fsyntax-only"])
    sys.stdout.write(cmd + "\0")
PY
}

# Runs stage $1 and prints its wall time, and the CPU time it took (compilers and tests
# included): on a busy machine the wall time says little, the CPU time over the cores is what
# a quiet one would take at best.
timed() {
  echo "== stage $1"
  local TIMEFORMAT="== stage $1: %0R s (CPU: %0U s user, %0S s system)"
  time "${1}_stage"
}

asan_stage() {
  sanitizer_stage asan gxx_ubsan_constants ASAN_OPTIONS="$asan_options" \
    UBSAN_OPTIONS="$ubsan_options"
}
tsan_stage() { sanitizer_stage tsan "" TSAN_OPTIONS="$tsan_options"; }

case "$stage" in
  all) for s in release asan tsan; do timed "$s"; done ;;
  release | asan | tsan) timed "$stage" ;;
  *) echo "usage: $0 [release | asan | tsan | all]" >&2; exit 2 ;;
esac
