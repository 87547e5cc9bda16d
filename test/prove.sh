#!/usr/bin/env bash
# test/prove.sh -- run logp95's TAP tests against PostgreSQL NN's installed
# server and extension: the server's tests (test/t/*.pl), or the files named
# (the other layers' TAP files: test/sanitize, test/fuzz, test/field,
# test/citus, run so by make -C test); last line "N passed, N failed" (TAP
# assertions; a test file that dies or exits non-zero counts one failure
# at least), non-zero exit on any failure.
#
#   bash test/prove.sh 15                            # every test/t/*.pl
#   bash test/prove.sh 16 test/t/020_fdw_shards.pl   # some of them
#
# The environment is the one PGXS's prove_installcheck gives (PATH with
# /usr/lib/postgresql/NN/bin first, PG_REGRESS, TESTDIR, TESTDATADIR,
# TESTLOGDIR), with the version's own PostgreSQL::Test modules: from its
# PGXS when it ships them, else extracted once from
# ../shared/pg/postgresql-NN-src.tar.xz (relative to the source tree, or
# $LP_PG_SRC_TARBALL) into $LP_TAP_CACHE (default /var/tmp/logp95-tap-perl).
# With neither, it prints "skipped PostgreSQL NN TAP tests: ..." and exits 0.
#
# PostgreSQL does not run as root: as root the tests run as the postgres OS
# user, from a copy of the source tree under /tmp (a clone under /root is
# not readable by postgres).  The clusters, their logs and the tests' logs
# go to a temporary directory, removed when everything passed and kept
# (its path printed) otherwise.  LP_* variables (LP_LONG,
# LP_PGBENCH_SECONDS, LP_CANCEL_BOUND, LP_FDW_LINES, ...) reach the tests.
# LP_PG_BINDIR runs them against another installation of version NN (a
# private copy of the tree, say) instead of /usr/lib/postgresql/NN/bin.
# LP_RELEASED_SRC names the released versions' source trees
# (test/lib/released.sh makes them from git when it is not set).
set -uo pipefail

NN=${1:?usage: test/prove.sh NN [FILE.pl ...]}
shift
ROOT=$(cd "$(dirname "$0")/.." && pwd -P)
CALLER=$PWD
cd "$ROOT"
BINDIR=${LP_PG_BINDIR:-/usr/lib/postgresql/$NN/bin}
PG_CONFIG=$BINDIR/pg_config

# No TAP run here: say why, and give the tally line anyway.
skip() {
	echo "skipped PostgreSQL $NN TAP tests: $*"
	echo "0 passed, 0 failed"
	exit 0
}

# Fail before any test ran: say why, count one failure.
fail() {
	echo "test/prove.sh: $*" >&2
	echo "0 passed, 1 failed"
	exit 1
}

[ -x "$PG_CONFIG" ] || skip "no $PG_CONFIG"
PGXS_DIR=$(dirname "$(dirname "$(dirname "$("$PG_CONFIG" --pgxs)")")")
PG_REGRESS=$PGXS_DIR/src/test/regress/pg_regress
[ -x "$PG_REGRESS" ] || fail "no $PG_REGRESS (PGXS of PostgreSQL $NN)"
perl -MIPC::Run -e 1 2>/dev/null || fail "the Perl module IPC::Run is missing (Debian: libipc-run-perl)"

# The version's PostgreSQL::Test modules.
PERL_DIR=$PGXS_DIR/src/test/perl
if [ ! -f "$PERL_DIR/PostgreSQL/Test/Cluster.pm" ]; then
	TARBALL=${LP_PG_SRC_TARBALL:-$ROOT/../shared/pg/postgresql-$NN-src.tar.xz}
	CACHE=${LP_TAP_CACHE:-/var/tmp/logp95-tap-perl}/$NN
	PERL_DIR=$CACHE/perl
	if [ ! -f "$PERL_DIR/PostgreSQL/Test/Cluster.pm" ]; then
		[ -f "$TARBALL" ] || skip "neither $PGXS_DIR/src/test/perl nor $TARBALL"
		mkdir -p "$CACHE" || fail "cannot create $CACHE"
		x=$(mktemp -d "$CACHE/x.XXXXXX") || fail "cannot write to $CACHE"
		tar -xJf "$TARBALL" -C "$x" --wildcards '*/src/test/perl/*' ||
			{ rm -rf "$x"; fail "cannot extract src/test/perl from $TARBALL"; }
		src=$(echo "$x"/*/src/test/perl)
		[ -f "$src/PostgreSQL/Test/Cluster.pm" ] ||
			{ rm -rf "$x"; fail "no PostgreSQL/Test/Cluster.pm in $TARBALL"; }
		chmod -R a+rX "$x"
		chmod a+rx "$CACHE" "$(dirname "$CACHE")"
		# another run may have got there first: keep whichever landed
		mv -T "$src" "$PERL_DIR" 2>/dev/null || true
		rm -rf "$x"
		[ -f "$PERL_DIR/PostgreSQL/Test/Cluster.pm" ] || fail "could not set up $PERL_DIR"
		echo "PostgreSQL $NN TAP modules extracted from $TARBALL into $PERL_DIR"
	fi
fi

# No file named: the server's tests.  A file is named relative to the
# current directory or to the source tree, and must lie in the tree.
if [ $# -eq 0 ]; then set -- test/t/*.pl; fi
tests=()
for t in "$@"; do
	case $t in /*) ;; *) [ -f "$CALLER/$t" ] && t=$CALLER/$t ;; esac
	[ -f "$t" ] || fail "no test file $t"
	t=$(realpath "$t")
	case "$t" in "$ROOT"/*) tests+=("${t#"$ROOT"/}") ;; *) fail "$t is not in $ROOT" ;; esac
done

# Where the tests run: in place, or as postgres from a copy when we are root.
WORK=$(mktemp -d /tmp/logp95-tap-"$NN".XXXXXX) || fail "cannot create a temporary directory"
RUN_AS=()
SRC=$ROOT

# The released versions' sources (git archive of their commits), for the
# tests that build the released libraries: the tests run from a copy
# without .git.  LP_RELEASED_SRC set by the caller is kept; without git
# those tests skip and say so.
if [ -z "${LP_RELEASED_SRC:-}" ] && bash test/lib/released.sh "$WORK/released"; then
	export LP_RELEASED_SRC=$WORK/released
fi

if [ "$(id -u)" = 0 ]; then
	id postgres >/dev/null 2>&1 || fail "running as root and there is no postgres OS user to run the tests as"
	SRC=$WORK/src
	mkdir "$SRC"
	tar -C "$ROOT" --exclude=.git --exclude=tmp_check --exclude=results --exclude='*.o' --exclude='*.bc' \
		--exclude='*.so' --exclude=test/bench/out --exclude=test/fuzz/build -cf - . | tar -C "$SRC" -xf - ||
		fail "cannot copy the source tree to $SRC"
	chown -R postgres: "$WORK"
	RUN_AS=(runuser -u postgres --)
fi

# What prove would do, through the library prove runs (TAP::Harness), so
# that the tally counts assertions: passed and failed tests of every file,
# and one failure at least for a file that died, exited non-zero, or ran
# another number of tests than it planned.
HARNESS='
use strict;
use warnings;
use TAP::Harness;
my $harness = TAP::Harness->new({ verbosity => 1, timer => 1, color => 0,
	lib => [ split /:/, $ENV{LP_TAP_LIB} ] });
my $agg = $harness->runtests(@ARGV);
my ($passed, $failed) = (0, 0);
print "\n";
for my $file ($agg->descriptions)
{
	my ($parser) = $agg->parsers($file);
	my $p = scalar(my @p = $parser->passed);
	my $f = scalar(my @f = $parser->failed);
	$f ||= 1 if $parser->has_problems;
	my $secs = defined $parser->end_time ? $parser->end_time - $parser->start_time : 0;
	printf "  %-32s %4d passed, %d failed%s, %.1f s\n", $file, $p, $f,
		$parser->skip_all ? " (skipped: " . $parser->skip_all . ")" : "", $secs;
	$passed += $p;
	$failed += $f;
}
print "logs of the tests and their clusters: $ENV{LP_TAP_LOGS}\n" if $failed;
print "$passed passed, $failed failed\n";
exit($failed ? 1 : 0);
'

echo "PostgreSQL $NN: $("$PG_CONFIG" --version), TAP modules from $PERL_DIR, work directory $WORK"
cd "$SRC"
"${RUN_AS[@]}" env \
	PATH="$BINDIR:$PATH" \
	PG_REGRESS="$PG_REGRESS" \
	TESTDIR="$WORK" \
	TESTDATADIR="$WORK/tmp_check" \
	TESTLOGDIR="$WORK/tmp_check/log" \
	LP_TAP_LOGS="$WORK/tmp_check/log" \
	LP_TAP_LIB="$PERL_DIR:$SRC/test/perl" \
	perl -e "$HARNESS" "${tests[@]}"
rc=$?

[ "$rc" = 0 ] && rm -rf "$WORK"
exit "$rc"
