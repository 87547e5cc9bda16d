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
lp_say "unit tests with -fsanitize=address,undefined"
if make -C test/unit -s asan > /tmp/logp95-unit-asan.log 2>&1; then
	echo "asan: $(tail -n 1 /tmp/logp95-unit-asan.log)"
else
	tail -n 40 /tmp/logp95-unit-asan.log
	echo "asan: FAILED"
	status=1
fi

lp_say "unit tests under valgrind"
if make -C test/unit -s valgrind > /tmp/logp95-unit-valgrind.log 2>&1; then
	echo "valgrind: $(tail -n 1 /tmp/logp95-unit-valgrind.log)"
else
	tail -n 40 /tmp/logp95-unit-valgrind.log
	echo "valgrind: FAILED"
	status=1
fi
exit $status
