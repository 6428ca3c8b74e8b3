#!/usr/bin/env bash
# lather used as its users use it (run by CTest, see tests/CMakeLists.txt):
#   run.sh installed SRC BUILD WORK  cmake --install BUILD into WORK/prefix, then configure this
#                                    folder with only -DCMAKE_PREFIX_PATH, build, call the
#                                    greeter; compile a program with pkg-config's lather.pc;
#                                    check docs/getting-started.md shows CMakeLists.txt; and
#                                    build generate/ (lather_generate()) and call it
#   run.sh vendored SRC WORK         the same greeter with lather as a subproject (vendored/)
#   run.sh components SRC BUILD WORK find_package(lather COMPONENTS ...): present components
#                                    configure, missing ones fail naming what provides them;
#                                    an install into a read-only prefix fails
# The environment sets the generator, compiler and launcher (CMAKE_GENERATOR, CXX,
# CMAKE_CXX_COMPILER_LAUNCHER), so the configure lines are exactly a user's.
set -euo pipefail
mode=$1
here=$(cd "$(dirname "$0")" && pwd)
jobs=${LATHER_CONSUMER_JOBS:-2}

# Starts greeter-server from $1 on a free port, calls it with greeter-client, checks the answer.
call_greeter() {
  local bin=$1
  coproc server { exec "$bin/greeter-server" 0; }
  local pid=$server_PID url answer
  trap 'kill $pid 2>/dev/null || true' EXIT
  IFS= read -r -t 60 url <&"${server[0]}"
  answer=$("$bin/greeter-client" "$url" Ada)
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  trap - EXIT
  if [ "$answer" != "Hello, Ada!" ]; then
    echo "greeter-client answered '$answer', expected 'Hello, Ada!'" >&2
    exit 1
  fi
  echo "greeter at $url answered: $answer"
}

# lather_generate(): generate/ (a copy, so its schema can be changed) builds the greeter's
# client and service from greeter.wsdl at build time against the prefix in $1/prefix and calls
# it; a rebuild with nothing changed does not run the generator, a change in the schema the
# WSDL imports does.
generated_greeter() {
  local work=$1 answer
  local src="$work/generate-src" bin="$work/generate"
  local out="$bin/lather_generate/greeter_api"
  cp -r "$here/generate" "$src"
  cmake -S "$src" -B "$bin" -DCMAKE_PREFIX_PATH="$work/prefix"
  cmake --build "$bin" -j"$jobs"
  answer=$("$bin/greeter-generated" Ada)
  if [ "$answer" != "Hello, Ada!" ]; then
    echo "greeter-generated answered '$answer', expected 'Hello, Ada!'" >&2
    exit 1
  fi
  echo "lather_generate: the generated greeter answered: $answer"
  local stamp
  stamp=$(stat -c %y "$out/names.txt")
  cmake --build "$bin" -j"$jobs"
  if [ "$(stat -c %y "$out/names.txt")" != "$stamp" ]; then
    echo "lather_generate: a rebuild with nothing changed ran lather-wsdl2cpp again" >&2
    exit 1
  fi
  # The header of namespace urn:greeter: greeter_2.hpp, since portType Greeter's Greeter.hpp
  # is named first and file names differ whatever their case.
  local types="$out/greeter_2.hpp"
  if grep -q "salutation" "$types"; then
    echo "lather_generate: greeter_2.hpp already has 'salutation'" >&2
    exit 1
  fi
  sed -i 's|<xs:element name="greeting" type="xs:string"/>|&<xs:element name="salutation" type="xs:string" minOccurs="0"/>|' \
    "$src/greeter.xsd"
  cmake --build "$bin" -j"$jobs"
  if ! grep -q "salutation" "$types"; then
    echo "lather_generate: a change in greeter.xsd (imported by greeter.wsdl) did not regenerate" >&2
    exit 1
  fi
  echo "lather_generate: regenerated after a change in the imported greeter.xsd"
}

# Configures component/ for component $1 with extra arguments; $2 = pass|fail, $3 = text the
# failure must show.
check_component() {
  local component=$1 expect=$2 text=$3 dir=$4
  shift 4
  rm -rf "$dir"
  local status=0
  cmake -S "$here/component" -B "$dir" -DLATHER_COMPONENT="$component" "$@" >"$dir.log" 2>&1 ||
    status=$?
  if [ "$expect" = pass ] && [ $status -ne 0 ]; then
    cat "$dir.log" >&2
    echo "find_package(lather COMPONENTS $component) failed" >&2
    exit 1
  fi
  if [ "$expect" = fail ]; then
    # CMake wraps the package's message: compare with the line breaks folded.
    if [ $status -eq 0 ] || ! tr -s ' \n' ' ' <"$dir.log" | grep -qF -- "$text"; then
      cat "$dir.log" >&2
      echo "find_package(lather COMPONENTS $component) should fail and say: $text" >&2
      exit 1
    fi
    echo "COMPONENTS $component: fails as it should:"
    sed -n '/Reason given by package/,/^-- Configuring incomplete/p' "$dir.log" | sed '$d'
  fi
}

case "$mode" in
  installed)
    src=$2 build=$3 work=$4
    rm -rf "$work"
    # docs/getting-started.md shows this CMakeLists.txt: its first cmake block, verbatim.
    if ! diff <(awk '/^```cmake$/ {on = 1; next} on && /^```$/ {exit} on' \
      "$src/docs/getting-started.md") "$here/CMakeLists.txt"; then
      echo "docs/getting-started.md's cmake block differs from tests/consumer/CMakeLists.txt" >&2
      exit 1
    fi
    cmake --install "$build" --prefix "$work/prefix" >/dev/null
    cmake -S "$here" -B "$work/greeter" -DCMAKE_PREFIX_PATH="$work/prefix"
    cmake --build "$work/greeter" -j"$jobs"
    call_greeter "$work/greeter"
    # lather.pc: pc_reader.cpp compiled and linked with pkg-config's flags alone.
    export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
    # shellcheck disable=SC2046
    ${CXX:-c++} -std=c++20 -o "$work/pc-reader" "$here/pc_reader.cpp" \
      $(pkg-config --cflags --libs lather)
    [ "$("$work/pc-reader")" = Ada ]
    echo "pkg-config lather: pc_reader.cpp built and read Ada"
    generated_greeter "$work"
    ;;
  vendored)
    src=$2 work=$3
    rm -rf "$work"
    cmake -S "$here/vendored" -B "$work" -DLATHER_SOURCE_DIR="$src"
    cmake --build "$work" -j"$jobs" --target greeter-server greeter-client
    call_greeter "$work/greeter"
    ;;
  components)
    src=$2 build=$3 work=$4
    rm -rf "$work"
    mkdir -p "$work"
    # A packager's split: the libraries without the tools (install component lather_development).
    cmake --install "$build" --prefix "$work/prefix-dev" --component lather_development >/dev/null
    cmake --install "$build" --prefix "$work/prefix" >/dev/null
    check_component service pass "" "$work/service" -DCMAKE_PREFIX_PATH="$work/prefix-dev"
    check_component tools pass "" "$work/tools" -DCMAKE_PREFIX_PATH="$work/prefix"
    check_component tools fail "--component lather_tools" "$work/tools-dev" \
      -DCMAKE_PREFIX_PATH="$work/prefix-dev"
    check_component nosuch fail "lather has no component 'nosuch'" "$work/nosuch" \
      -DCMAKE_PREFIX_PATH="$work/prefix"
    # Bad input: an install into a read-only prefix fails with CMake's message and status and
    # installs nothing (as root, the install runs as nobody: root may write anywhere).
    ro="$work/read-only"
    mkdir -p "$ro"
    chmod 555 "$ro"
    as_other=()
    if [ "$(id -u)" = 0 ]; then as_other=(setpriv --reuid=65534 --regid=65534 --clear-groups); fi
    if "${as_other[@]}" cmake --install "$build" --prefix "$ro" >"$ro.log" 2>&1; then
      echo "cmake --install into read-only $ro succeeded" >&2
      exit 1
    fi
    tr -s ' \n' ' ' <"$ro.log" | grep -qF "file cannot create directory: $ro/"
    [ -z "$(ls -A "$ro")" ]
    echo "read-only prefix: $(grep -m1 -A1 'cannot create' "$ro.log" | tr -s ' \n' ' ')"
    chmod 755 "$ro"
    # Vendored: a subproject builds no tools unless asked.
    check_component tools fail "-DLATHER_TOOLS=ON" "$work/tools-vendored" -DLATHER_SOURCE_DIR="$src"
    check_component tools pass "" "$work/tools-vendored-on" -DLATHER_SOURCE_DIR="$src" \
      -DLATHER_TOOLS=ON
    ;;
  *)
    echo "usage: $0 installed SRC BUILD WORK | vendored SRC WORK | components SRC BUILD WORK" >&2
    exit 2
    ;;
esac
