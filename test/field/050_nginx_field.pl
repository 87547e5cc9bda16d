# test/field/050_nginx_field.pl -- the field test of issue 12: real nginx
# output, normal load from wrk and hostile requests, loaded with the
# documented COPY recipe into a table with a logp95_line_ts(line, 'combined')
# expression index and read through file_fdw; logp95's report, malformed
# count and line times must equal those of test/field/reference.py, an
# independent reference computed from the file.
#
#   make -C test field                              # with 051, against pg_config's PostgreSQL
#   bash test/field/run.sh                          # as root: installs nginx-light and wrk, then runs this
#   bash test/prove.sh 15 test/field/050_nginx_field.pl
#   LP_FIELD_SECONDS=20 LP_FIELD_KEEP=/tmp/x ...    # longer load; keep the log and the reference's files
#
# The programs and the reference (backend.py, hostile.py, nginx.conf.in,
# reference.py, wrk.lua) live in test/field, the steps shared with
# 051_apache_field.pl in test/perl/LogP95/Field.pm; test/run.sh installs nginx-light,
# wrk and python3 before make -C test field (lp_apt_nostart in test/lib/cluster.sh).
#
# Everything listens on 127.0.0.1; normal traffic comes from 127.0.0.1,
# hostile requests from 127.0.0.2, tricky-but-valid ones from 127.0.0.3.
# nginx and the backend run under timeout(1) and are stopped at the end and
# in an END block.

use strict;
use warnings FATAL => 'all';

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;
use LogP95::Field;

my $seconds = $ENV{LP_FIELD_SECONDS} // 12;
my $python = $LogP95::Field::python;
my $field = $LogP95::Field::field;

# The programs, or a clear skip.
my ($nginx, $wrk) = field_programs('nginx-light wrk', 'nginx', 'wrk');
plan skip_all =>
  'nginx and wrk are needed (Debian: apt-get install nginx-light wrk); as root, test/field/run.sh installs them and runs this test'
  if !$nginx || !$wrk;
plan skip_all => "$python is needed (the backend, the hostile requests, the reference)"
  if !-x $python;

my $dir = PostgreSQL::Test::Utils::tempdir('field');
my $log = "$dir/access.log";

# The backend and nginx, on free ports; they stop by themselves after $life s
# (field_stop_all stops them before, and in an END block).
my $life = $seconds + 90;
my $backend_port = field_backend($dir, $life);
my $port = PostgreSQL::Test::Cluster::get_free_port();
field_config("$field/nginx.conf.in", "$dir/nginx.conf",
	DIR => $dir, PORT => $port, BACKEND_PORT => $backend_port);
field_start([ 'timeout', $life, $nginx, '-p', "$dir/", '-e', "$dir/error.log", '-c', "$dir/nginx.conf" ],
	"$dir/nginx.out", "$dir/nginx.err");
field_wait_port($port, 'nginx');
note("nginx " . `$nginx -v 2>&1` =~ s/\s+\z//r . " on 127.0.0.1:$port, backend on 127.0.0.1:$backend_port");

# Bounded load: wrk for $seconds s, and the hostile requests during it.
my $load_secs = field_load(
	wrk => $wrk, port => $port, seconds => $seconds, rounds => 3,
	server => 'nginx', dir => $dir);

# The reference, from the file; the database; logp95 against the reference.
my $node = field_check_log('combined', 'nginx', 'field', $log, $dir, $load_secs);
field_check_status($node, 'combined', 'nginx', $log, $dir);    # issue 24

done_testing();
