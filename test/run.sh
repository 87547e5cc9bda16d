#!/usr/bin/env bash
# test/run.sh -- every test layer, on every PostgreSQL version found; last line "N passed, N failed"
#
#   sudo test/run.sh                              # everything (what CI runs)
#   LP_VERSIONS="15 18-cassert" test/run.sh       # only these (default: 15 16 17 18 18-cassert)
#   LP_FUZZ_SECONDS=300 test/run.sh               # longer fuzzing
#   LP_PG_ROOT=/var/tmp/pgroot test/run.sh        # every server a private copy under this root
#
# PostgreSQL 15 (Debian's packages) gets every layer: the unit tests,
# pg_regress (make installcheck), the server's TAP tests (test/t, as make
# prove_installcheck), the sanitizers, the fuzzers, the field tests and
# Citus (make -C test sanitize, fuzz, field, citus), the docs (links, and
# every SQL block run in order: test/docs_sql.sh), the main command run.sh
# with its HTML report (test/main_command.sh), the Debian package and
# the META.json checks.  16, 17 and 18 get pg_regress, the postgres_fdw
# shard test and the upgrade test; 18-cassert, 18 built with
# --enable-cassert, gets pg_regress and every server TAP test, the library
# built with -DUSE_ASSERT_CHECKING.  A version that is not installed comes
# from its kit in ../shared/pg beside the repository; one with neither is
# reported as skipped.  Every build must be free of warnings under
# PG_CFLAGS (default -Wall -Wextra -Werror -Wno-unused-parameter, as
# pgvector's CI without its -Wno-sign-compare).  The time of each part is
# printed at the end.
#
# Files of Debian packages are not overwritten: when the logp95.so that
# make install would write belongs to a package (postgresql-15-logp95
# installed), every server is a private copy under a temporary LP_PG_ROOT,
# and the package test skips its install checks (it says so).
set -uo pipefail
# LP_PG_BINDIR names one installation (test/prove.sh, make -C test); a run
# over every version takes LP_PG_ROOT instead
unset LP_PG_BINDIR
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

# Record the time of a part: lp_time NAME START (START from $SECONDS)
lp_time() { timings+=("$(printf '%6d s  %s' $((SECONDS - $2)) "$1")"); }

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

# Run a step that ends with its own "N passed, N failed" line, and time it:
# lp_step NAME LOGFILE COMMAND...
lp_step() {
	local name=$1 log=$2 rc start=$SECONDS
	shift 2
	lp_say "$name"
	"$@" > "$log" 2>&1; rc=$?
	tail -n 15 "$log"
	lp_count_line "$name" "$log" $rc
	lp_time "$name" $start
}

# make installcheck (pg_regress alone) in directory $1 against the running
# cluster; every test is counted (15 prints "test x ... ok", 16 and later
# "ok N - x").  $2 names the version in the output.
lp_regress() {
	local dir=$1 name=$2 log=/tmp/logp95-regress-$2.log rc rp rf start=$SECONDS
	lp_say "$name: make installcheck"
	rm -f "$dir/regression.diffs"
	make -C "$dir" -s PG_CONFIG="$PG_CONFIG" installcheck > "$log" 2>&1; rc=$?
	cat "$log"
	rp=$(grep -cE '^(ok|test|    ) .*\.\.\. ok|^ok [0-9]+ ' "$log")
	rf=$(grep -cE '\.\.\. FAILED|^not ok ' "$log")
	passed=$((passed + rp)); failed=$((failed + rf))
	[ "$rf" -gt 0 ] && failures+=("pg_regress on $name ($rf)")
	if [ "$rc" != 0 ] && [ "$rf" = 0 ]; then failed=$((failed + 1)); failures+=("make installcheck on $name (exit $rc)"); fi
	[ -f "$dir/regression.diffs" ] && head -n 200 "$dir/regression.diffs"
	lp_time "$name: pg_regress" $start
}

# Build in directory $1 with PG_CFLAGS $2 and install into PG_CONFIG's
# installation; $3 names the version.  Counted as one check.
lp_build() {
	local dir=$1 cflags=$2 name=$3 log=/tmp/logp95-build-$3.log start=$SECONDS rc=0
	lp_say "$name: building with $PG_CONFIG and PG_CFLAGS=$cflags"
	make -C "$dir" -s PG_CONFIG="$PG_CONFIG" PG_CFLAGS="$cflags" > "$log" 2>&1 &&
		lp_root make -C "$dir" -s PG_CONFIG="$PG_CONFIG" install >> "$log" 2>&1 || { rc=1; cat "$log"; }
	lp_count "build with $cflags and install on $name" $rc
	lp_time "$name: build and install" $start
	return $rc
}

all_start=$SECONDS
lp_deps
export PG_CFLAGS=${PG_CFLAGS:--Wall -Wextra -Werror -Wno-unused-parameter}
versions=${LP_VERSIONS:-15 16 17 18 18-cassert}

# No make install over a Debian package's files: with a packaged logp95.so
# in a server under test, every server is a private copy (lp_kit_install).
made_root=
if [ -z "$LP_PG_ROOT" ] && command -v dpkg >/dev/null; then
	for v in $versions; do
		pgc=$(lp_pg_bindir "$v")/pg_config
		[ -x "$pgc" ] || continue
		so=$("$pgc" --pkglibdir)/logp95.so
		owner=$(dpkg -S "$so" 2>/dev/null) || continue
		LP_PG_ROOT=$(mktemp -d /var/tmp/logp95-pgroot.XXXXXX)
		chmod 755 "$LP_PG_ROOT"
		made_root=1
		lp_say "$so belongs to the Debian package ${owner%%:*}: every server under test is a private copy under $LP_PG_ROOT"
		break
	done
fi
export LP_PG_ROOT

# The server reads test data as the postgres OS user: when it cannot reach
# the source tree (a clone under /root, say), give it a readable copy.
if ! lp_as_pg test -r "$LP_ROOT/test/data/access_bytes.log"; then
	LP_TEST_DATA_DIR=$(mktemp -d /tmp/logp95-data.XXXXXX)
	cp -a test/data/. "$LP_TEST_DATA_DIR/"
	chmod -R a+rX "$LP_TEST_DATA_DIR"
	export LP_TEST_DATA_DIR
	lp_say "test data copied to $LP_TEST_DATA_DIR (the source tree is not readable by postgres)"
fi

# ---------- PostgreSQL 15: every layer ----------
if [[ " $versions " == *" 15 "* ]]; then
	start=$SECONDS
	part=$SECONDS
	lp_citus_server		# 15.20 for Citus, before any private copy
	if why=$(lp_kit_install 15); then
		lp_use_version 15
		lp_citus_install
		lp_time "15: setup (server, Citus)" $part
		lp_build "$LP_ROOT" "$PG_CFLAGS" 15

		# plain C unit tests (no PostgreSQL)
		lp_step "15: unit tests" /tmp/logp95-unit.log make -C test/unit -s run

		# pg_regress
		lp_cluster_start
		lp_say "PostgreSQL 15 cluster on $PGHOST port $PGPORT"
		lp_regress "$LP_ROOT" 15
		lp_cluster_stop

		# scipy, the reference of test/t/070_compare_scipy.pl (logp95_compare)
		lp_apt python3-scipy
		# the server's TAP tests (test/t/*.pl, what make prove_installcheck
		# runs), each with the clusters it needs, as postgres
		lp_step "15: server TAP tests" /tmp/logp95-tap-15.log \
			env LP_PG_BINDIR="$PGBIN" bash test/prove.sh 15

		# the other layers (test/Makefile), each with what it needs: clang,
		# its runtimes and valgrind; nginx, apache2, wrk and python3,
		# installed without starting nginx's or apache's service on port 80;
		# Citus (above)
		lp_apt clang libclang-rt-14-dev valgrind
		lp_step "15: sanitize" /tmp/logp95-sanitize.log make -s -C test sanitize PG_CONFIG="$PG_CONFIG"
		lp_step "15: fuzz" /tmp/logp95-fuzz.log make -s -C test fuzz PG_CONFIG="$PG_CONFIG"
		lp_apt_nostart nginx-light apache2 wrk python3
		# the servers of the definition and preset field tests (052-057), one
		# at a time: one that cannot be had makes only its own test skip
		for p in caddy haproxy lighttpd varnish; do lp_apt_nostart $p; done
		lp_step "15: field" /tmp/logp95-field.log make -s -C test field PG_CONFIG="$PG_CONFIG"
		lp_step "15: citus" /tmp/logp95-citus.log make -s -C test citus PG_CONFIG="$PG_CONFIG"

		# the docs followed literally: every relative link resolves; every
		# SQL block of README.md and docs/*.md runs in order in one database,
		# and docs/nginx.md end to end (Grafana queries, the loading script,
		# the pg_cron job, Debian's postgresql-15-cron)
		part=$SECONDS
		python3 test/doc_links.py > /tmp/logp95-doclinks.log 2>&1; rc=$?
		tail -n 5 /tmp/logp95-doclinks.log
		lp_count "15: doc links ($(tail -n 1 /tmp/logp95-doclinks.log))" $rc
		lp_time "15: doc links" $part
		lp_step "15: docs' SQL blocks and nginx.md" /tmp/logp95-docs-sql.log \
			env LP_PG_BINDIR="$PGBIN" bash test/docs_sql.sh

		# the main command, run.sh, on hostile logs, and its HTML report
		# in headless Chromium (installed by the test when missing)
		lp_step "15: run.sh (the main command)" /tmp/logp95-main-command.log \
			env LP_PG_BINDIR="$PGBIN" bash test/main_command.sh

		# shipping: the Debian package (built, listed, installed, used,
		# removed) and the PGXN metadata.  test/package.sh builds a package
		# for every major it finds in /usr/lib/postgresql, so the kits of
		# the other versions under test are unpacked first (their parts
		# below find them there): on a fresh machine it would otherwise
		# build and check the package for 15 alone
		for v in 16 17 18; do
			[[ " $versions " == *" $v "* ]] || continue
			why=$(lp_kit_install "$v") || lp_say "no package for PostgreSQL $v: $why"
		done
		lp_step "15: Debian package" /tmp/logp95-package.log bash test/package.sh
		lp_step "15: META.json and make dist" /tmp/logp95-meta.log bash test/meta.sh
		lp_time "15 in all" $start
	else
		echo "skipped PostgreSQL 15: $why"
	fi
fi

# ---------- every other version ----------
# 16, 17, 18: pg_regress, the shard and upgrade TAP tests; 18-cassert:
# pg_regress and every server TAP test.
for v in $versions; do
	[ "$v" = 15 ] && continue
	start=$SECONDS
	if ! why=$(lp_kit_install "$v"); then
		echo "skipped PostgreSQL $v: $why"
		continue
	fi
	lp_use_version "$v"
	lp_time "$v: setup (kit)" $start
	cflags=$PG_CFLAGS
	tap=(test/t/020_fdw_shards.pl test/t/040_upgrade.pl test/t/041_upgrade_libraries.pl test/t/046_replication_equality.pl)
	if [ "$v" = 18-cassert ]; then
		cflags="-DUSE_ASSERT_CHECKING $PG_CFLAGS"
		tap=()
	fi
	# a private copy, so that each version's objects stay apart
	build=$(mktemp -d /tmp/logp95-build-$v.XXXXXX)
	rsync -a --exclude .git --exclude '*.o' --exclude '*.bc' --exclude '*.so' \
		--exclude results --exclude tmp_check "$LP_ROOT/" "$build/"
	chmod -R a+rX "$build"
	if lp_build "$build" "$cflags" "$v"; then
		lp_cluster_start
		lp_say "PostgreSQL $v cluster on $PGHOST port $PGPORT"
		lp_regress "$build" "$v"
		lp_cluster_stop
		lp_step "$v: server TAP tests${tap[*]:+ (shards, upgrade, replication)}" /tmp/logp95-tap-$v.log \
			env LP_PG_BINDIR="$PGBIN" bash test/prove.sh "$PG_MAJOR" "${tap[@]}"
	fi
	rm -rf "$build"
	lp_time "$v in all" $start
done

[ -n "${LP_TEST_DATA_DIR:-}" ] && rm -rf "$LP_TEST_DATA_DIR"
[ -n "$made_root" ] && rm -rf "$LP_PG_ROOT"
lp_time "everything" $all_start
echo "time of each part:"
printf '%s\n' "${timings[@]}"
[ ${#failures[@]} -gt 0 ] && printf 'failed: %s\n' "${failures[@]}"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
