#!/usr/bin/env bash
# test/t/11_fuzz.sh -- run each libFuzzer harness for a short bounded time
#
# LP_FUZZ_SECONDS per harness (default 7: about 28 s of fuzzing for the
# four harnesses, plus the build).  Exits non-zero on any crash.  Needs no
# cluster.  For a longer run: make -C test/fuzz run SECONDS=600
set -uo pipefail
. "$(dirname "$0")/../lib/cluster.sh"
cd "$LP_ROOT"

lp_apt clang libclang-rt-14-dev
make -s -C test/fuzz run SECONDS="${LP_FUZZ_SECONDS:-7}"
