#!/usr/bin/env bash
# test/t/10_sanitizers.sh -- unit tests under ASan + UBSan (clang) and under valgrind (gcc)
#
# Exits non-zero on any sanitizer report, valgrind error, definite or
# indirect leak, or failed assertion.  Needs no cluster.
set -uo pipefail
. "$(dirname "$0")/../lib/cluster.sh"
cd "$LP_ROOT"

lp_apt clang libclang-rt-14-dev valgrind make gcc

status=0

# Run the unit tests through make target $1 (asan, valgrind); print their tally.
run_units() {
	local log=/tmp/logp95-unit-$1.log
	if make -C test/unit -s "$1" > "$log" 2>&1; then
		echo "$1: $(tail -n 1 "$log")"
	else
		tail -n 40 "$log"
		echo "$1: FAILED"
		status=1
	fi
}

lp_say "unit tests with -fsanitize=address,undefined"
run_units asan
lp_say "unit tests under valgrind"
run_units valgrind
exit $status
