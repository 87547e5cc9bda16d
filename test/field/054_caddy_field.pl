# test/field/054_caddy_field.pl -- the field test of issue 23 for the
# caddy preset: Debian's Caddy 2 (reverse_proxy in front of
# test/field/backend.py) writes its default access log (JSON, the log
# directive with no encoder named) under normal load from wrk and the
# hostile requests of hostile.py.  The log is read with the preset 'caddy'
# and compared with test/field/ref_formats.py --layout caddy (Python's own
# JSON reader): the report route by route, the malformed count, every
# line's route and latency (logp95_parse) and time (logp95_line_time,
# logp95_line_ts through an expression index).
#
#   make -C test field
#   bash test/prove.sh 15 test/field/054_caddy_field.pl
#
# Everything listens on 127.0.0.1 (no admin endpoint, no automatic HTTPS);
# caddy and the backend run under timeout(1) and are stopped at the end and
# in an END block.

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

my ($caddy, $wrk) = field_programs('caddy wrk', 'caddy', 'wrk');
plan skip_all =>
  'skipped: caddy and wrk are needed (Debian: apt-get install caddy wrk, without starting the service: lp_apt_nostart in test/lib/cluster.sh)'
  if !$caddy || !$wrk;
plan skip_all => "skipped: $python is needed (the backend, the hostile requests, the reference)"
  if !-x $python;

my $dir = PostgreSQL::Test::Utils::tempdir('caddy_field');
my $life = $seconds + 90;
my $backend_port = field_backend($dir, $life);
my $port = PostgreSQL::Test::Cluster::get_free_port();
field_config("$field/Caddyfile.in", "$dir/Caddyfile",
	DIR => $dir, PORT => $port, BACKEND_PORT => $backend_port);
field_start(
	[ 'env', "HOME=$dir", "XDG_DATA_HOME=$dir/data", "XDG_CONFIG_HOME=$dir/config",
	  'timeout', $life, $caddy, 'run', '--config', "$dir/Caddyfile", '--adapter', 'caddyfile' ],
	"$dir/caddy.out", "$dir/caddy.err");
field_wait_port($port, 'caddy');
note(`$caddy version 2>&1` =~ s/\s+\z//r . " on 127.0.0.1:$port, backend on 127.0.0.1:$backend_port");

my $load_secs = field_load(
	wrk => $wrk, port => $port, seconds => $seconds, rounds => 2,
	server => 'caddy', dir => $dir);
note("load: $load_secs s");

my $node = ff_node('caddy_field');
ff_check($node, t => 'caddy', format => 'caddy', log => "$dir/access.log",
	layout => 'caddy', dir => $dir, malformed => 0, detect => 'caddy');

$node->stop;
done_testing();
