#!/usr/bin/env bash
# test/run.sh -- run every test against a throwaway cluster; last line "N passed, N failed"
#
#   sudo test/run.sh            # everything (what CI runs)
#   LP_FUZZ_SECONDS=300 test/run.sh   # longer fuzzing
set -uo pipefail
. "$(dirname "$0")/lib/cluster.sh"
cd "$LP_ROOT"

passed=0
failed=0
failures=()

# Record one result: lp_count NAME STATUS
lp_count() {
	if [ "$2" = 0 ]; then passed=$((passed + 1)); printf 'ok     %s\n' "$1"
	else failed=$((failed + 1)); failures+=("$1"); printf 'FAILED %s\n' "$1"; fi
}

# Add a runner's "N passed, N failed" line to the totals (NAME LOGFILE RC).
lp_count_line() {
	local line p f
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$2" | tail -n 1)
	if [ -z "$line" ]; then lp_count "$1 (no result line)" 1; return; fi
	p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
	passed=$((passed + p)); failed=$((failed + f))
	[ "$f" -gt 0 ] && failures+=("$1 ($f)")
	[ "$3" != 0 ] && [ "$f" = 0 ] && { failed=$((failed + 1)); failures+=("$1 (exit $3)"); }
	printf '%-6s %s: %s\n' "$([ "$f" = 0 ] && [ "$3" = 0 ] && echo ok || echo FAILED)" "$1" "$line"
}

lp_deps
export PG_CFLAGS=${PG_CFLAGS:--Werror}
lp_build_install

# 1. plain C unit tests (no PostgreSQL)
if [ -d test/unit ]; then
	lp_say "unit tests"
	make -C test/unit -s run > /tmp/logp95-unit.log 2>&1; rc=$?
	tail -n 20 /tmp/logp95-unit.log
	lp_count_line "unit tests" /tmp/logp95-unit.log $rc
fi

lp_cluster_start
lp_say "cluster on $PGHOST port $PGPORT"

# The server reads test data as the postgres OS user: when it cannot reach
# the source tree (a clone under /root, say), give it a readable copy.
if ! lp_as_pg test -r "$LP_ROOT/test/data/access_bytes.log"; then
	LP_TEST_DATA_DIR=$(mktemp -d /tmp/logp95-data.XXXXXX)
	cp -a test/data/. "$LP_TEST_DATA_DIR/"
	chmod -R a+rX "$LP_TEST_DATA_DIR"
	export LP_TEST_DATA_DIR
	lp_say "test data copied to $LP_TEST_DATA_DIR (the source tree is not readable by postgres)"
fi

# 2. pg_regress: make installcheck
lp_say "make installcheck"
make -s PG_CONFIG="$PG_CONFIG" installcheck > /tmp/logp95-regress.log 2>&1; rc=$?
cat /tmp/logp95-regress.log
rp=$(grep -cE '^(ok|test|    ) .*\.\.\. ok|^ok [0-9]+ ' /tmp/logp95-regress.log)
rf=$(grep -cE '\.\.\. FAILED|^not ok ' /tmp/logp95-regress.log)
passed=$((passed + rp)); failed=$((failed + rf))
[ "$rf" -gt 0 ] && failures+=("pg_regress ($rf)")
if [ "$rc" != 0 ] && [ "$rf" = 0 ]; then failed=$((failed + 1)); failures+=("make installcheck (exit $rc)"); fi
[ -f regression.diffs ] && head -n 200 regression.diffs

# 3. scripted tests: each test/t/*.sh runs against the cluster; exit 0 is a pass
for t in test/t/*.sh; do
	[ -e "$t" ] || continue
	lp_say "$t"
	bash "$t" > "/tmp/logp95-$(basename "$t").log" 2>&1; rc=$?
	tail -n 15 "/tmp/logp95-$(basename "$t").log"
	lp_count "$t" $rc
done

lp_cluster_stop
[ -n "${LP_TEST_DATA_DIR:-}" ] && rm -rf "$LP_TEST_DATA_DIR"
[ ${#failures[@]} -gt 0 ] && printf 'failed: %s\n' "${failures[@]}"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
