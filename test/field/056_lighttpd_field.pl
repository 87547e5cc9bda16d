# test/field/056_lighttpd_field.pl -- the field test of issue 23 for
# lighttpd's accesslog.format read as an Apache definition: Debian's
# lighttpd (mod_proxy in front of test/field/backend.py) logs with an
# accesslog.format using %D (microseconds), under normal load from wrk and
# the hostile requests of hostile.py (lighttpd logs a request it could not
# read as "  ", a placeholder that is malformed).  The log is read with
# 'apache:' || the accesslog.format string copied, quotes and all, from the
# running configuration, and compared with test/field/ref_formats.py
# --layout lighttpd_us: the report route by route, the malformed count,
# every line's route and latency (logp95_parse) and time
# (logp95_line_time, logp95_line_ts through an expression index).
#
#   make -C test field
#   bash test/prove.sh 15 test/field/056_lighttpd_field.pl
#
# Everything listens on 127.0.0.1; lighttpd (-D) and the backend run under
# timeout(1) and are stopped at the end and in an END block.

use strict;
use warnings FATAL => 'all';

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;
use LogP95::Field;
use LogP95::FieldFormats;

my $seconds = $ENV{LP_FIELD_SECONDS} // 6;
my $python = $LogP95::Field::python;
my $field = $LogP95::Field::field;

my ($lighttpd, $wrk) = field_programs('lighttpd wrk', 'lighttpd', 'wrk');
my $modules = '/usr/lib/lighttpd';
plan skip_all =>
  'skipped: lighttpd and wrk are needed (Debian: apt-get install lighttpd wrk, without starting the service: lp_apt_nostart in test/lib/cluster.sh)'
  if !$lighttpd || !$wrk;
plan skip_all => "skipped: lighttpd's modules are needed in $modules (mod_proxy, mod_accesslog)"
  if !-f "$modules/mod_proxy.so" || !-f "$modules/mod_accesslog.so";
plan skip_all => "skipped: $python is needed (the backend, the hostile requests, the reference)"
  if !-x $python;

my $dir = PostgreSQL::Test::Utils::tempdir('lighttpd_field');
my $life = $seconds + 90;
my $backend_port = field_backend($dir, $life);
my $port = PostgreSQL::Test::Cluster::get_free_port();
field_config("$field/lighttpd.conf.in", "$dir/lighttpd.conf",
	DIR => $dir, PORT => $port, BACKEND_PORT => $backend_port, MODULES => $modules);
field_start([ 'timeout', $life, $lighttpd, '-D', '-f', "$dir/lighttpd.conf" ],
	"$dir/lighttpd.out", "$dir/lighttpd.err");
field_wait_port($port, 'lighttpd');
note(`$lighttpd -v 2>&1` =~ s/\s+\z//r . " on 127.0.0.1:$port, backend on 127.0.0.1:$backend_port");

my $load_secs = field_load(
	wrk => $wrk, port => $port, seconds => $seconds, rounds => 2,
	server => 'lighttpd', dir => $dir);
note("load: $load_secs s");
cmp_ok(scalar(() = slurp_file("$dir/access.log") =~ /^127\.0\.0\.2 \S+ \S+ \[[^\]]+\] "  " /mg),
	'>', 0, 'lighttpd logs a request it could not read as "  "');

my $format = 'apache:' . ff_lighttpd_format("$dir/lighttpd.conf");
my $node = ff_node('lighttpd_field');
ff_check($node, t => 'lighttpd', format => $format, log => "$dir/access.log",
	layout => 'lighttpd_us', dir => $dir, malformed => 1, detect => 'NULL');

$node->stop;
done_testing();
