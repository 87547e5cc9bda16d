# test/fuzz/011_fuzz.pl -- each libFuzzer harness of test/fuzz for a short
# bounded time: make -C test fuzz.
#
# make -s -C test/fuzz run SECONDS=LP_FUZZ_SECONDS (default 7 per harness:
# about 42 s of fuzzing for the six harnesses, plus the build).  It fails on
# any crash; for each harness it prints "fuzz_H: N executions in S s, cov: C,
# no crash".  Assertions: make exits 0, and each harness reported more than
# zero executions without a crash.  Needs no cluster.  Builds in
# test/fuzz/build, in a copy of the tree when it is not writable
# (lp_writable_tree).  Skipped without clang's libFuzzer runtime (apt:
# clang libclang-rt-14-dev, installed by test/run.sh).  For a longer run:
# make -C test/fuzz run SECONDS=600

use strict;
use warnings FATAL => 'all';

use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;

my $seconds = $ENV{LP_FUZZ_SECONDS} // 7;
my @harnesses = qw(parse decode hex formats tag presets);

# libFuzzer present: a trivial harness links with -fsanitize=fuzzer.
my $tmp = PostgreSQL::Test::Utils::tempdir('probe');
open(my $fh, '>', "$tmp/probe.c") or die "cannot write $tmp/probe.c: $!";
print $fh "#include <stddef.h>\n#include <stdint.h>\n"
  . "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return 0; }\n";
close($fh);
my ($probe_rc, $probe_out) =
  lp_run_logged('clang', '-fsanitize=fuzzer,address,undefined', '-o', "$tmp/probe", "$tmp/probe.c");
plan skip_all =>
  "clang's libFuzzer runtime is missing (apt: clang libclang-rt-14-dev): $probe_out"
  if $probe_rc != 0;

my $tree = lp_writable_tree(qw(test/fuzz test/fuzz/build));

my ($secs, $rc, $out) = lp_timed(
	sub { lp_run_logged('make', '-s', '-C', "$tree/test/fuzz", 'run', "SECONDS=$seconds") });
ok($rc == 0, "make -C test/fuzz run SECONDS=$seconds exits 0")
  or diag("exit $rc after $secs s, output:\n$out");

for my $h (@harnesses)
{
	my ($line) = grep { /^fuzz_$h: / } split /\n/, $out;
	ok(defined $line && $line =~ /^fuzz_$h: ([0-9]+) executions in .*, no crash$/ && $1 > 0,
		"fuzz_$h: executions reported, no crash")
	  or diag('its line: ' . ($line // '(none)'));
	note($line) if defined $line;
}
my ($total) = grep { /^fuzz: / } split /\n/, $out;
note(($total // 'no total') . " ($secs s with the build)");

done_testing();
