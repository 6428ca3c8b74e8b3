#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan+UBSan) into build-fuzz/ and runs them.
#   scripts/fuzz.sh short         ~60 s in total (called at the end of scripts/test.sh)
#   scripts/fuzz.sh long [secs]   each target for secs (default 600), 2 forked workers
# Findings land in build-fuzz/artifacts/; the working corpus (seeds + discoveries) in
# build-fuzz/corpus/<target>/. See docs/fuzzing.md.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-short}
build=build-fuzz
# The fuzz preset (CMakePresets.json): clang, ASan+UBSan, -fsanitize=fuzzer-no-link, into build-fuzz.
cmake --preset fuzz >/dev/null
# target name -> seed corpus folder under fuzz/corpus, dictionary
targets=(fuzz_xml_reader:xml:fuzz/xml.dict)
cmake --build "$build" -j2 --target "${targets[@]%%:*}"
mkdir -p "$build/artifacts"
case "$mode" in
  short) per_target=$((60 / ${#targets[@]})); parallel=() ;;
  long) per_target=${2:-600}; parallel=(-fork=2 -ignore_crashes=1) ;;
  *) echo "usage: $0 short | long [seconds]" >&2; exit 2 ;;
esac
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for t in "${targets[@]}"; do
  IFS=: read -r name seeds dict <<<"$t"
  work="$build/corpus/$seeds"
  mkdir -p "$work"
  echo "== $name: $per_target s ${parallel[*]}"
  marker="$build/artifacts/.start-$name"
  touch "$marker"
  "$build/bin/$name" "$work" "fuzz/corpus/$seeds" -dict="$dict" -max_len=8192 \
    -max_total_time="$per_target" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/" "${parallel[@]}" 2>&1 |
    grep -E "^(#[0-9]+ *DONE|stat::|==[0-9]+==|SUMMARY|INFO: (Seed|Done|-max_len))|lather/expat|runtime error|ERROR" || true
  if [ -n "$(find "$build/artifacts" -newer "$marker" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \))" ]; then
    echo "fuzz: new findings in $build/artifacts/ (reproduce: $build/bin/$name <file>)" >&2
    exit 1
  fi
done
