#!/usr/bin/env bash
# test/run.sh -- every test, on every PostgreSQL version found; last line "N passed, N failed"
#
#   sudo test/run.sh                    # everything (what CI runs)
#   LP_VERSIONS="15 18" test/run.sh     # only these versions (default: 15 16 17 18)
#   LP_FUZZ_SECONDS=300 test/run.sh     # longer fuzzing
#
# PostgreSQL 15 (Debian's packages) gets the whole suite: unit tests,
# pg_regress (make installcheck), the TAP tests in test/t, the Debian
# package and the META.json checks.  Every other version that is installed,
# or whose kit lies in ../shared/pg beside the repository, gets pg_regress,
# the postgres_fdw shard test and the upgrade test, each on a cluster of
# that version; a version that is neither is reported as skipped.
set -uo pipefail
. "$(dirname "$0")/lib/cluster.sh"
cd "$LP_ROOT"

passed=0
failed=0
failures=()
timings=()

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

# Run a step that ends with its own "N passed, N failed" line:
# lp_step NAME LOGFILE COMMAND...
lp_step() {
	local name=$1 log=$2 rc
	shift 2
	lp_say "$name"
	"$@" > "$log" 2>&1; rc=$?
	tail -n 15 "$log"
	lp_count_line "$name" "$log" $rc
}

# make installcheck in directory $1 against the running cluster; every
# test is counted (15 prints "test x ... ok", 16 and later "ok N - x").
lp_regress() {
	local dir=$1 log=/tmp/logp95-regress-$PG_MAJOR.log rc rp rf
	lp_say "PostgreSQL $PG_MAJOR: make installcheck"
	rm -f "$dir/regression.diffs"
	# (TAP_TESTS= : the TAP tests run on their own, through test/prove.sh)
	make -C "$dir" -s PG_CONFIG="$PG_CONFIG" TAP_TESTS= installcheck > "$log" 2>&1; rc=$?
	cat "$log"
	rp=$(grep -cE '^(ok|test|    ) .*\.\.\. ok|^ok [0-9]+ ' "$log")
	rf=$(grep -cE '\.\.\. FAILED|^not ok ' "$log")
	passed=$((passed + rp)); failed=$((failed + rf))
	[ "$rf" -gt 0 ] && failures+=("pg_regress on $PG_MAJOR ($rf)")
	if [ "$rc" != 0 ] && [ "$rf" = 0 ]; then failed=$((failed + 1)); failures+=("make installcheck on $PG_MAJOR (exit $rc)"); fi
	[ -f "$dir/regression.diffs" ] && head -n 200 "$dir/regression.diffs"
}

lp_deps
export PG_CFLAGS=${PG_CFLAGS:--Werror}
versions=${LP_VERSIONS:-15 16 17 18}

# The server reads test data as the postgres OS user: when it cannot reach
# the source tree (a clone under /root, say), give it a readable copy.
if ! lp_as_pg test -r "$LP_ROOT/test/data/access_bytes.log"; then
	LP_TEST_DATA_DIR=$(mktemp -d /tmp/logp95-data.XXXXXX)
	cp -a test/data/. "$LP_TEST_DATA_DIR/"
	chmod -R a+rX "$LP_TEST_DATA_DIR"
	export LP_TEST_DATA_DIR
	lp_say "test data copied to $LP_TEST_DATA_DIR (the source tree is not readable by postgres)"
fi

# ---------- PostgreSQL 15: everything ----------
if [[ " $versions " == *" 15 "* ]]; then
	start=$SECONDS
	lp_use_version 15
	# Citus for test/t/060_citus.pl (brings the server to 15.20 first)
	lp_citus_install
	lp_build_install

	# plain C unit tests (no PostgreSQL)
	lp_step "unit tests" /tmp/logp95-unit.log make -C test/unit -s run

	lp_cluster_start
	lp_say "PostgreSQL 15 cluster on $PGHOST port $PGPORT"
	lp_regress "$LP_ROOT"
	lp_cluster_stop

	# TAP tests (test/t/*.pl), each with the clusters it needs; the
	# sanitizer and fuzz tests need clang, its runtimes and valgrind
	lp_apt clang libclang-rt-14-dev valgrind
	# the field tests (test/t/050_nginx_field.pl, 051_apache_field.pl):
	# nginx, apache2, wrk, python3, installed without starting nginx's or
	# apache's service on port 80
	lp_apt_nostart nginx-light apache2 wrk python3
	# scipy, the reference of test/t/070_compare_scipy.pl (logp95_compare)
	lp_apt python3-scipy
	# TAP tests (test/t/*.pl), each with the clusters it needs
	lp_step "TAP tests on PostgreSQL 15" /tmp/logp95-tap-15.log bash test/prove.sh 15

	# scripted tests not (yet) on the TAP harness: exit 0 is a pass
	for t in test/t/*.sh; do
		[ -e "$t" ] || continue
		lp_say "$t"
		bash "$t" > "/tmp/logp95-$(basename "$t").log" 2>&1; rc=$?
		tail -n 15 "/tmp/logp95-$(basename "$t").log"
		lp_count "$t" $rc
	done

	# shipping: the Debian package (built, listed, installed, used, removed)
	# and the PGXN metadata
	lp_step "Debian package" /tmp/logp95-package.log bash test/package.sh
	lp_step "META.json and make dist" /tmp/logp95-meta.log bash test/meta.sh
	timings+=("PostgreSQL 15: $((SECONDS - start)) s")
fi

# ---------- every other version: pg_regress, shards, upgrade ----------
for v in $versions; do
	[ "$v" = 15 ] && continue
	if ! why=$(lp_kit_install "$v"); then
		echo "skipped PostgreSQL $v: $why"
		continue
	fi
	start=$SECONDS
	lp_use_version "$v"
	# a private copy, so that each version's objects stay apart
	build=$(mktemp -d /tmp/logp95-build-$v.XXXXXX)
	rsync -a --exclude .git --exclude '*.o' --exclude '*.bc' --exclude '*.so' \
		--exclude results --exclude tmp_check "$LP_ROOT/" "$build/"
	chmod -R a+rX "$build"
	lp_say "PostgreSQL $v: building with $PG_CONFIG"
	if make -C "$build" -s PG_CONFIG="$PG_CONFIG" PG_CFLAGS="$PG_CFLAGS" > /tmp/logp95-build-$v.log 2>&1 &&
		lp_root make -C "$build" -s PG_CONFIG="$PG_CONFIG" install >> /tmp/logp95-build-$v.log 2>&1; then
		lp_count "build with $PG_CFLAGS and install on PostgreSQL $v" 0
	else
		cat /tmp/logp95-build-$v.log
		lp_count "build with $PG_CFLAGS and install on PostgreSQL $v" 1
		rm -rf "$build"
		continue
	fi
	lp_cluster_start
	lp_say "PostgreSQL $v cluster on $PGHOST port $PGPORT"
	lp_regress "$build"
	lp_cluster_stop
	lp_step "TAP tests on PostgreSQL $v" /tmp/logp95-tap-$v.log \
		bash test/prove.sh "$v" test/t/020_fdw_shards.pl test/t/040_upgrade.pl
	rm -rf "$build"
	timings+=("PostgreSQL $v: $((SECONDS - start)) s")
done

[ -n "${LP_TEST_DATA_DIR:-}" ] && rm -rf "$LP_TEST_DATA_DIR"
[ ${#timings[@]} -gt 0 ] && printf 'time: %s\n' "${timings[@]}"
[ ${#failures[@]} -gt 0 ] && printf 'failed: %s\n' "${failures[@]}"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
