# test/t/070_compare_scipy.pl -- logp95_compare against scipy, computed live
#
# Runs test/lib/compare_reference.py --check on a throwaway cluster: the
# data of sql/compare.sql and 40 seeded random cases (ties, 1 to 3
# requests, up to 200,000 a side, shifts, fatter tails, routes on one side
# only), each route's columns computed by numpy and scipy from the raw rows
# and compared with logp95_compare's (integers and slower_share exactly,
# p-values within a relative 1e-9 or both below 1e-300).  One assertion a
# case; the largest relative differences are a note.  Skipped, with the
# reason, when no python3 here imports numpy and scipy (Debian:
# python3-scipy).

use strict;
use warnings FATAL => 'all';

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;

# The first python3 that imports scipy: PATH's, then Debian's.
my $python;
for my $py ('python3', '/usr/bin/python3')
{
	my ($rc) = lp_run_logged($py, '-c', 'import numpy, scipy.stats');
	if ($rc == 0)
	{
		$python = $py;
		last;
	}
}
plan skip_all => 'no python3 here imports numpy and scipy (Debian: apt-get install python3-scipy)'
  unless defined $python;

my $node = lp_node('compare');
$node->safe_psql('postgres', 'CREATE EXTENSION logp95');

local $ENV{PGHOST} = $node->host;
local $ENV{PGPORT} = $node->port;
local $ENV{PGDATABASE} = 'postgres';
local $ENV{PSQL} = 'psql';
my ($rc, $out) =
  lp_run_logged($python, lp_source_dir() . '/test/lib/compare_reference.py', '--check');

my $cases = 0;
for my $line (split /\n/, $out)
{
	if ($line =~ /^ok\s+(.*)$/)
	{
		pass("scipy agrees: $1");
		$cases++;
	}
	elsif ($line =~ /^FAILED\s+(.*)$/)
	{
		fail("scipy agrees: $1");
		$cases++;
	}
	elsif ($line =~ /^largest relative differences/)
	{
		note($line);
	}
}
is($rc, 0, "compare_reference.py exits 0") or diag($out);
cmp_ok($cases, '>', 40, "compare_reference.py compared every case ($cases)");

done_testing();
