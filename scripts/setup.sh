#!/usr/bin/env bash
# Installs every Debian package lather's build, tests, benchmarks and interop peers need.
# Idempotent: a second run on a set-up machine takes a few seconds.
set -euo pipefail
packages=(
  build-essential cmake ninja-build ccache pkg-config git
  libboost-dev libboost-context-dev libboost-coroutine-dev libssl-dev openssl
  libgtest-dev libgmock-dev libbenchmark-dev
  libexpat1-dev libxml2-dev libxml2-utils
  libfast-float-dev libcli11-dev nlohmann-json3-dev
  clang libclang-rt-14-dev
  gsoap libgsoap-dev
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  wrk gnuplot-nox ruby ruby-soap4r ruby-webrick curl procps haproxy xmlsec1
  python3 python3-zeep python3-lxml python3-spyne python3-xmlsec
  php-cli php-soap php-xml
  default-jdk-headless libjaxws-java libaxis-java
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
