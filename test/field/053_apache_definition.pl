# test/field/053_apache_definition.pl -- the field test of issue 23 for an
# Apache LogFormat definition: Debian's apache2 (mod_proxy_http in front of
# test/field/backend.py) logs with a LogFormat of its own, %{ms}T (whole
# milliseconds) in another order than combined, under normal load from wrk
# and the hostile requests of hostile.py, and one request whose path is not
# UTF-8 (its route keeps the logged \xff).  The log is read with 'apache:'
# || the LogFormat string copied, quotes and all, from the running
# configuration, and compared with test/field/ref_formats.py --layout
# apache_ms: the report route by route, the malformed count, every line's
# route and latency (logp95_parse) and time (logp95_line_time,
# logp95_line_ts through an expression index).
#
#   make -C test field
#   bash test/prove.sh 15 test/field/053_apache_definition.pl
#
# Everything listens on 127.0.0.1; apache2 (-DFOREGROUND) and the backend run
# under timeout(1) and are stopped at the end and in an END block.

use strict;
use warnings FATAL => 'all';

use IO::Socket::INET;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;
use LogP95::Field;
use LogP95::FieldFormats;

my $seconds = $ENV{LP_FIELD_SECONDS} // 6;
my $python = $LogP95::Field::python;
my $field = $LogP95::Field::field;

my ($apache, $wrk) = field_programs('apache2 wrk', 'apache2', 'wrk');
my $modules = '/usr/lib/apache2/modules';
plan skip_all =>
  'skipped: apache2 and wrk are needed (Debian: apt-get install apache2 wrk, without starting the service: lp_apt_nostart in test/lib/cluster.sh)'
  if !$apache || !$wrk;
plan skip_all => "skipped: apache2's modules are needed in $modules (mod_proxy_http, mod_mpm_event)"
  if !-f "$modules/mod_proxy_http.so";
plan skip_all => "skipped: $python is needed (the backend, the hostile requests, the reference)"
  if !-x $python;

my $dir = PostgreSQL::Test::Utils::tempdir('apache_def');
my $life = $seconds + 90;
my $backend_port = field_backend($dir, $life);
my $port = PostgreSQL::Test::Cluster::get_free_port();
field_config("$field/apache2_ms.conf.in", "$dir/apache2.conf",
	DIR => $dir, PORT => $port, BACKEND_PORT => $backend_port, MODULES => $modules);
field_start([ 'timeout', $life, $apache, '-f', "$dir/apache2.conf", '-DFOREGROUND' ],
	"$dir/apache2.out", "$dir/apache2.err");
field_wait_port($port, 'apache2');
note((`$apache -v 2>&1` =~ /Server version: (\S+)/)[0] . " on 127.0.0.1:$port, backend on 127.0.0.1:$backend_port");

my $load_secs = field_load(
	wrk => $wrk, port => $port, seconds => $seconds, rounds => 2,
	server => 'apache2', dir => $dir,
	after => sub {
		# a path that is not UTF-8, from 127.0.0.3
		my $s = IO::Socket::INET->new(
			PeerAddr => '127.0.0.1', PeerPort => $port, LocalAddr => '127.0.0.3', Timeout => 5)
		  or die "probe: $!";
		print $s "GET /bad/\xff\xfe/name HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
		{ local $/; my $answer = <$s>; }
		close $s;
	});
note("load: $load_secs s");
like(slurp_file("$dir/access.log"), qr{"GET /bad/\\xff\\xfe/name HTTP/1\.1"},
	'Apache logs the bytes of a path that is not UTF-8 as \xhh');

my $format = 'apache:' . ff_apache_log_format("$dir/apache2.conf", 'field_ms');
my $node = ff_node('apache_def');
ff_check($node, t => 'apache', format => $format, log => "$dir/access.log",
	layout => 'apache_ms', dir => $dir, malformed => 1, detect => 'NULL');

$node->stop;
done_testing();
