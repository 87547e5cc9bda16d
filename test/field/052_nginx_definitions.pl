# test/field/052_nginx_definitions.pl -- the field test of issue 23 for
# nginx log_format definitions: Debian's nginx writes two logs of the same
# requests (normal load from wrk, the hostile requests of hostile.py), one
# with a log_format whose fields stand in another order than combined
# (rt=$request_time first, $upstream_response_time as urt=, "-" for the
# locations answered by nginx itself with return 200), the other with
# escape=json.  Each is read with 'nginx:' || the text of its log_format
# directive copied from the running nginx.conf, and compared with the
# independent reference test/field/ref_formats.py: the report route by
# route, the malformed count, every line's route and latency
# (logp95_parse) and time (logp95_line_time, logp95_line_ts through an
# expression index).  The two logs must give the same report: the same
# requests count under the same routes whatever the log's escaping.  A
# third log without $request_time takes its latency from
# $upstream_response_time, where "-" is no latency (a malformed line).
#
#   make -C test field                      # with the other field tests
#   bash test/prove.sh 15 test/field/052_nginx_definitions.pl
#   LP_FIELD_SECONDS=20 LP_FIELD_KEEP=/tmp/x ...   # longer load; keep the logs
#
# Everything listens on 127.0.0.1; nginx and the backend run under
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

my ($nginx, $wrk) = field_programs('nginx-light wrk', 'nginx', 'wrk');
plan skip_all =>
  'skipped: nginx and wrk are needed (Debian: apt-get install nginx-light wrk, without starting the service: lp_apt_nostart in test/lib/cluster.sh)'
  if !$nginx || !$wrk;
plan skip_all => "skipped: $python is needed (the backend, the hostile requests, the reference)"
  if !-x $python;

my $dir = PostgreSQL::Test::Utils::tempdir('nginx_defs');
my $life = $seconds + 90;
my $backend_port = field_backend($dir, $life);
my $port = PostgreSQL::Test::Cluster::get_free_port();
field_config("$field/nginx_defs.conf.in", "$dir/nginx.conf",
	DIR => $dir, PORT => $port, BACKEND_PORT => $backend_port);
field_start([ 'timeout', $life, $nginx, '-p', "$dir/", '-e', "$dir/error.log", '-c', "$dir/nginx.conf" ],
	"$dir/nginx.out", "$dir/nginx.err");
field_wait_port($port, 'nginx');
note("nginx " . `$nginx -v 2>&1` =~ s/\s+\z//r . " on 127.0.0.1:$port, backend on 127.0.0.1:$backend_port");

my $load_secs = field_load(
	wrk => $wrk, port => $port, seconds => $seconds, rounds => 2,
	server => 'nginx', dir => $dir);
note("load: $load_secs s");

# The two logs hold the same requests, and the locations without an
# upstream wrote "-" for it.
my $custom_text = slurp_file("$dir/custom.log");
my $json_text = slurp_file("$dir/json.log");
is(($json_text =~ tr/\n//), ($custom_text =~ tr/\n//), 'both logs have a line for every request');
cmp_ok(scalar(() = $custom_text =~ / urt=- /g), '>', 0, 'requests without an upstream are logged urt=-');

# The formats, as they stand in the running nginx.conf.
my $custom = 'nginx:' . ff_nginx_log_format("$dir/nginx.conf", 'fieldorder');
my $json = 'nginx:' . ff_nginx_log_format("$dir/nginx.conf", 'fieldjson');

my $node = ff_node('nginx_defs');
my $k1 = ff_check($node, t => 'custom', format => $custom, log => "$dir/custom.log",
	layout => 'nginx_fieldorder', dir => $dir, malformed => 1, detect => 'NULL');
my $k2 = ff_check($node, t => 'json', format => $json, log => "$dir/json.log",
	layout => 'nginx_fieldjson', dir => $dir, malformed => 1, detect => 'NULL');
# The third log has no $request_time: the latency is the upstream's, and
# the requests nginx answered itself ("-") are malformed.
my $upstream = 'nginx:' . ff_nginx_log_format("$dir/nginx.conf", 'fieldupstream');
ff_check($node, t => 'upstream', format => $upstream, log => "$dir/upstream.log",
	layout => 'nginx_fieldupstream', dir => $dir, malformed => 1, detect => 'NULL');
SKIP:
{
	skip('both logs must be read to compare them', 1) unless $k1 && $k2;
	ff_same_reports($node, 'default escaping and escape=json', 'custom', 'json');
}

$node->stop;
done_testing();
