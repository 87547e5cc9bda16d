# test/sanitize/010_sanitizers.pl -- the unit tests (test/unit) under AddressSanitizer
# + UBSan (clang) and under valgrind (gcc build): make -C test sanitize.
#
# make -C test/unit asan / valgrind fail on any sanitizer report, valgrind
# error, definite or indirect leak, or failed unit assertion: one assertion
# per target, that it exited 0, and the unit tally ("N passed, N failed") as
# a note.  Needs no cluster.  The make targets build next to the sources: in
# a copy of the tree when it is not writable (lp_writable_tree).  clang, its
# runtimes and valgrind are installed by test/run.sh (apt packages clang,
# libclang-rt-14-dev, valgrind); without them the test is skipped.

use strict;
use warnings FATAL => 'all';

use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;

for my $tool (qw(clang valgrind make cc))
{
	plan skip_all => "$tool is not installed (apt: clang libclang-rt-14-dev valgrind)"
	  unless grep { -x "$_/$tool" } split /:/, $ENV{PATH};
}

my $tree = lp_writable_tree(qw(test/unit test/unit/test_units test/unit/test_units_san));

for my $target (qw(asan valgrind))
{
	my ($secs, $rc, $out) =
	  lp_timed(sub { lp_run_logged('make', '-s', '-C', "$tree/test/unit", $target) });
	my @lines = split /\n/, $out;
	my $tally = @lines ? $lines[-1] : '(no output)';
	ok($rc == 0, "unit tests under $target: make exits 0")
	  or diag("exit $rc after $secs s, last lines:\n"
		  . join("\n", @lines[ ($#lines > 39 ? $#lines - 39 : 0) .. $#lines ]));
	note("$target: $tally ($secs s)");
}

done_testing();
