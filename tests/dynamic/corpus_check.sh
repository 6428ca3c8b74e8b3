#!/usr/bin/env bash
# One service of ../shared/wsdl-corpus through lather-call, as issue 24 asks:
#  1. `lather-call WSDL` lists every operation (distinct PortType.Operation, vs manifest.json);
#  2. `lather-call WSDL --samples DIR` writes a request and a response of every operation, and
#     wsdl_corpus_check.py (zeep + libxml2 against the original WSDL) passes them;
#  3. `lather-call WSDL --mock --port 0` serves every port, and the checker's requests sent to
#     it get answers that pass as the operations' outputs (check --url, --serving).
# usage: corpus_check.sh LATHER_CALL CORPUS_DIR SERVICE WORK_DIR
# Prints "RESULT service=S listed=L/M samples=P/T" and exits 0 when every figure is complete.
# Runs only programs it starts and stops them by PID.
set -uo pipefail
call=$1 corpus=$2 service=$3 work=$4/$3
python=/usr/bin/python3
rm -rf "$work" && mkdir -p "$work"
read -r expected catalog entries < <($python - "$corpus/manifest.json" "$service" <<'PY'
import json, sys
s = [x for x in json.load(open(sys.argv[1])) if x["name"] == sys.argv[2]][0]
print(s["operations"], "catalog.xml" if s.get("catalog") else "-", " ".join(s["entries"]))
PY
)
catalog_args=()
[[ $catalog != - ]] && catalog_args=(--catalog "$corpus/$service/$catalog")
listed=0 passed=0 total=0 failed=0 unchecked=0
for entry in $entries; do
  wsdl=$corpus/$service/$entry
  name=$(basename "$entry")
  # 1. the listing: "      name(" lines under "Port: P (..., binding B)"; PortType.Operation
  # pairs are counted through --samples' file names, which are exactly those.
  if ! "$call" "$wsdl" "${catalog_args[@]}" > "$work/$name.list" 2> "$work/$name.list.err"; then
    echo "FAIL $service: lather-call $entry: $(head -1 "$work/$name.list.err")"
    failed=1
    continue
  fi
  samples=$work/$name.samples
  "$call" "$wsdl" "${catalog_args[@]}" --samples "$samples" 2> "$work/$name.samples.err" || failed=1
  n=$(ls "$samples" | grep -c '\.req\.xml$')
  listed_ops=$(grep -c '^      [A-Za-z_]' "$work/$name.list")
  [[ $listed_ops -ge $n ]] || { echo "FAIL $service: $entry lists $listed_ops operations, $n samples"; failed=1; }
  listed=$((listed + n))
  # The checker loads the contract with zeep first; a contract zeep itself cannot load
  # (w3c-soap12-test: a TypeError inside zeep) is checked for its listing only.
  if ! $python "$corpus/check/wsdl_corpus_check.py" plan "$wsdl" "${catalog_args[@]}" \
      > "$work/$name.plan" 2>&1; then
    echo "NOTE $service: the checker cannot load $entry: $(tail -1 "$work/$name.plan")"
    unchecked=1
    continue
  fi
  # 2 + 3. samples and the mock's answers through the checker.
  "$call" "$wsdl" "${catalog_args[@]}" --mock --port 0 > "$work/$name.serving" 2> "$work/$name.mock.err" &
  mock=$!
  port=
  for _ in $(seq 1 1200); do  # up to a minute: a large WSDL under ASan on a loaded machine
    port=$(sed -n 's/^listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/$name.serving")
    [[ -n $port ]] && break
    kill -0 $mock 2>/dev/null || break
    sleep 0.05
  done
  if [[ -z $port ]]; then
    echo "FAIL $service: lather-call --mock did not start: $(head -1 "$work/$name.mock.err")"
    kill $mock 2>/dev/null; wait $mock 2>/dev/null
    failed=1
    continue
  fi
  $python "$corpus/check/wsdl_corpus_check.py" check "$wsdl" "${catalog_args[@]}" --samples "$samples" \
    --url "http://127.0.0.1:$port" --serving "$work/$name.serving" > "$work/$name.check" 2>&1
  kill $mock 2>/dev/null; wait $mock 2>/dev/null
  grep '^FAIL' "$work/$name.check" | head -5
  line=$(grep '^ops: ' "$work/$name.check" | tail -1)
  if [[ -z $line ]]; then
    echo "FAIL $service: the checker did not finish: $(tail -1 "$work/$name.check")"
    failed=1
    continue
  fi
  p=${line#ops: }; passed=$((passed + ${p%/*})); total=$((total + ${p#*/}))
done
echo "RESULT service=$service listed=$listed/$expected samples=$passed/$total"
[[ $failed == 0 && $listed -ge $expected && $passed == "$total" && ($total -gt 0 || $unchecked == 1) ]]
