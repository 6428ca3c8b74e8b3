#!/usr/bin/env bash
# lather against its peers (gSOAP, gRPC, Ruby DRb): bench/compare.py's "run", kept as the command
# the docs and scripts name. Options as bench/compare.py --help lists them:
#
#   bench/compare.sh [--quick] [--build DIR] [--only 1,2,...] [--no-results]
exec python3 "$(dirname "$0")/compare.py" run "$@"
