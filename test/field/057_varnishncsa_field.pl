# test/field/057_varnishncsa_field.pl -- the field test of issue 23 for
# varnishncsa's -F format read as an Apache definition: Debian's varnishd in
# front of test/field/backend.py, varnishncsa writing its log with -F and
# the format of test/field/varnishncsa.format (with %D, microseconds; %r
# is rebuilt by varnishncsa with the host, "GET http://localhost/p
# HTTP/1.1"), under normal load from wrk and the hostile requests of
# hostile.py.  The log is read with 'apache:' || that format and compared
# with test/field/ref_formats.py --layout varnishncsa_us: the report route
# by route, the malformed count, every line's route and latency
# (logp95_parse) and time (logp95_line_time, logp95_line_ts through an
# expression index).
#
#   make -C test field
#   bash test/prove.sh 15 test/field/057_varnishncsa_field.pl
#
# Everything listens on 127.0.0.1; varnishd (-F -j none), varnishncsa and
# the backend run under timeout(1) and are stopped at the end and in an END
# block.

use strict;
use warnings FATAL => 'all';

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(sleep);
use LogP95::TestLib;
use LogP95::Field;
use LogP95::FieldFormats;

my $seconds = $ENV{LP_FIELD_SECONDS} // 6;
my $python = $LogP95::Field::python;
my $field = $LogP95::Field::field;

my ($varnishd, $varnishncsa, $wrk) = field_programs('varnish wrk', 'varnishd', 'varnishncsa', 'wrk');
plan skip_all =>
  'skipped: varnishd, varnishncsa and wrk are needed (Debian: apt-get install varnish wrk, without starting the service: lp_apt_nostart in test/lib/cluster.sh)'
  if !$varnishd || !$varnishncsa || !$wrk;
plan skip_all => "skipped: $python is needed (the backend, the hostile requests, the reference)"
  if !-x $python;

my $dir = PostgreSQL::Test::Utils::tempdir('varnish_field');
my $life = $seconds + 90;
my $backend_port = field_backend($dir, $life);
my $port = PostgreSQL::Test::Cluster::get_free_port();
my $fmt = slurp_file("$field/varnishncsa.format") =~ s/\n\z//r;
field_start(
	[ 'timeout', $life, $varnishd, '-F', '-j', 'none', '-n', "$dir/varnish", '-a', "127.0.0.1:$port",
	  '-b', "127.0.0.1:$backend_port", '-s', 'malloc,32m', '-p', 'thread_pools=1' ],
	"$dir/varnishd.out", "$dir/error.log");
field_wait_port($port, 'varnishd');
field_start(
	[ 'timeout', $life, $varnishncsa, '-n', "$dir/varnish", '-F', $fmt, '-w', "$dir/access.log" ],
	"$dir/varnishncsa.out", "$dir/varnishncsa.err");
sleep 1;
note((`$varnishd -V 2>&1` =~ /\((varnish-\S+)/)[0] . " on 127.0.0.1:$port, backend on 127.0.0.1:$backend_port");

my $load_secs = field_load(
	wrk => $wrk, port => $port, seconds => $seconds, rounds => 2,
	server => 'varnishd', dir => $dir,
	after => sub { sleep 1.5 });    # varnishncsa writes what it has read
note("load: $load_secs s");
cmp_ok(scalar(() = slurp_file("$dir/access.log") =~ /^\S+ \[[^\]]+\] "\S+ http:\/\//mg),
	'>', 0, 'varnishncsa writes %r with the host');

my $node = ff_node('varnish_field');
ff_check($node, t => 'varnishncsa', format => "apache:$fmt", log => "$dir/access.log",
	layout => 'varnishncsa_us', dir => $dir, malformed => 1, detect => 'NULL');

$node->stop;
done_testing();
