#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs them.
#   scripts/fuzz.sh short         ~60 s in total (called at the end of scripts/test.sh)
#   scripts/fuzz.sh long [secs]   each target for secs (default 600)
#   FUZZ_TARGETS="fuzz_a fuzz_b=1800"  only these targets; name=secs sets one target's time
#   FUZZ_FORK=N                   long runs: N forked workers per target (default 2; 1 = one
#                                 process, whose final stats give executions and exec/s)
# Builds: build-fuzz/ (preset fuzz: ASan+UBSan) for every target but fuzz_http_request, which
# runs from build-fuzz-ubsan/ (UBSan alone, no ASan): ASan reports false positives when an
# exception unwinds on a Boost.Asio spawn coroutine's stack (see docs/fuzzing.md).
# Findings land in <build>/artifacts/; the working corpus (seeds + discoveries) in
# <build>/corpus/<seeds>/. See docs/fuzzing.md.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-short}
case "$mode" in
  short|long) ;;
  *) echo "usage: $0 short | long [seconds]" >&2; exit 2 ;;
esac
# target : seed corpus folder under fuzz/corpus : dictionary : seconds in the short run : build
targets=(
  fuzz_xml_reader:xml:fuzz/xml.dict:30:build-fuzz
  fuzz_bind_roundtrip:bind:fuzz/xml.dict:8:build-fuzz
  fuzz_soap_envelope:soap:fuzz/xml.dict:8:build-fuzz
  fuzz_wsdl_reader:wsdl:fuzz/xml.dict:8:build-fuzz
  fuzz_http_request:http:fuzz/http.dict:8:build-fuzz-ubsan
)
declare -A seconds_of=()
# Prints a finding so that CI's log alone reproduces it (CI's tree is gone afterwards): the input
# as a printf %b string (printable ASCII as is, other bytes as \xHH; the first 8 KiB) and what
# the target prints when it replays the input.
show_finding() {
  local target=$1 file=$2 hex escaped="" i byte char
  hex=$(od -An -v -tx1 -N8192 "$file" | tr -d ' \n')
  for ((i = 0; i < ${#hex}; i += 2)); do
    byte=${hex:i:2}
    if [[ $byte =~ ^([2-6][0-9a-f]|7[0-9a-e])$ && $byte != 27 && $byte != 5c ]]; then
      printf -v char '%b' "\\x$byte"
      escaped+=$char
    else
      escaped+="\\x$byte"
    fi
  done
  echo "== finding $file ($(wc -c <"$file") bytes; reproduce:"
  echo "   printf '%b' '$escaped' >finding && $target finding)"
  echo "== $target replaying it:"
  "$target" -timeout=10 -rss_limit_mb=2048 "$file" 2>&1 | head -n 200 || true
}
if [ -n "${FUZZ_TARGETS:-}" ]; then  # e.g. FUZZ_TARGETS="fuzz_bind_roundtrip fuzz_wsdl_reader=900"
  selected=()
  for t in "${targets[@]}"; do
    for want in $FUZZ_TARGETS; do
      if [ "${want%%=*}" = "${t%%:*}" ]; then
        selected+=("$t")
        [[ $want == *=* ]] && seconds_of[${t%%:*}]=${want#*=}
      fi
    done
  done
  targets=("${selected[@]}")
fi
# Configure and build what the selected targets need.
asan_targets=() ubsan_targets=()
for t in "${targets[@]}"; do
  if [ "${t##*:}" = build-fuzz ]; then asan_targets+=("${t%%:*}"); else ubsan_targets+=("${t%%:*}"); fi
done
if [ ${#asan_targets[@]} -gt 0 ]; then
  cmake --preset fuzz >/dev/null  # clang, ASan+UBSan, -fsanitize=fuzzer-no-link, into build-fuzz
  cmake --build build-fuzz -j2 --target "${asan_targets[@]}"
fi
if [ ${#ubsan_targets[@]} -gt 0 ]; then
  cmake --preset fuzz -B build-fuzz-ubsan -DLATHER_SANITIZE= \
    "-DCMAKE_CXX_FLAGS=-fsanitize=fuzzer-no-link,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
    >/dev/null
  cmake --build build-fuzz-ubsan -j2 --target "${ubsan_targets[@]}"
fi
# The short run (CI's) draws the same seed every time, so that its verdict follows the code, not
# the draw; long runs draw a new one each time.
run_options=()
[ "$mode" = short ] && run_options=(-seed=1)
if [ "$mode" = long ] && [ "${FUZZ_FORK:-2}" -gt 1 ]; then
  run_options=(-fork="${FUZZ_FORK:-2}" -ignore_crashes=1)
fi
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for t in "${targets[@]}"; do
  IFS=: read -r name seeds dict short_secs build <<<"$t"
  if [ "$mode" = short ]; then per_target=$short_secs; else per_target=${seconds_of[$name]:-${2:-600}}; fi
  work="$build/corpus/$seeds"
  mkdir -p "$work" "$build/artifacts"
  echo "== $name ($build): $per_target s ${run_options[*]}"
  marker="$build/artifacts/.start-$name"
  touch "$marker"
  "$build/bin/$name" "$work" "fuzz/corpus/$seeds" -dict="$dict" -max_len=8192 \
    -max_total_time="$per_target" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/" "${run_options[@]}" 2>&1 |
    grep -E "^(#[0-9]+ *DONE|stat::|==[0-9]+==|SUMMARY|INFO: (Seed|Done|-max_len|fuzzed for))|lather/expat|round trip:|http request:|re-encoded|runtime error|ERROR" || true
  echo "corpus: $(find "$work" -type f | wc -l) inputs in $work"
  findings=$(find "$build/artifacts" -newer "$marker" -type f \( -name 'crash-*' -o -name 'leak-*' \
    -o -name 'timeout-*' -o -name 'oom-*' \))
  if [ -n "$findings" ]; then
    for f in $findings; do show_finding "$build/bin/$name" "$f"; done
    echo "fuzz: new findings in $build/artifacts/ (reproduce: $build/bin/$name <file>)" >&2
    exit 1
  fi
done
