# test/field/051_apache_field.pl -- the field test of issue 12 for Apache with
# %D: Debian's apache2 (mod_proxy_http in front of test/field/backend.py),
# normal load from wrk and hostile requests, its log (LogFormat "%h %l %u %t
# \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\" %D", docs/formats.md) loaded
# with the documented COPY recipe into a table with a
# logp95_line_ts(line, 'combined_us') expression index and read through
# file_fdw; logp95's report, malformed count and line times must equal those
# of test/field/reference.py --format combined_us, computed from the file.
#
#   make -C test field                               # with 050, against pg_config's PostgreSQL
#   bash test/prove.sh 16 test/field/051_apache_field.pl
#   LP_FIELD_SECONDS=20 LP_FIELD_KEEP=/tmp/x ...    # longer load; keep the log and the reference's files
#
# The programs and the reference (apache2.conf.in, backend.py, hostile.py,
# reference.py, wrk.lua) live in test/field, the steps shared with
# 050_nginx_field.pl in test/perl/LogP95/Field.pm; test/run.sh installs apache2, wrk
# and python3 before make -C test field (lp_apt_nostart in test/lib/cluster.sh, so
# that the package does not start the system's apache on port 80).
#
# Everything listens on 127.0.0.1; normal traffic comes from 127.0.0.1,
# hostile requests from 127.0.0.2, tricky-but-valid ones from 127.0.0.3.
# apache2 (-DFOREGROUND) and the backend run under timeout(1) and are stopped
# at the end and in an END block.
#
# What Apache 2.4 logs, as this test checks it (docs/formats.md):
# * %u is r->user, set only where an auth module runs: under /private (Basic
#   auth, no known user) the user name sent is logged even with the 401; an
#   Authorization header on a path without auth logs "-".
# * Basic credentials are split at the first ':', so a user name cannot hold a
#   full fake time: "[01/Jan/2000:00:00:00 +0000]" is logged "[01/Jan/2000".
# * '"' and '\' are logged as \" and \\, other non-printable bytes as \xhh
#   (or \b \n \t ...), in %u, %r and the headers alike.

use strict;
use warnings FATAL => 'all';

use Digest::SHA;
use IO::Socket::INET;
use MIME::Base64 ();
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;
use LogP95::Field;

my $seconds = $ENV{LP_FIELD_SECONDS} // 12;
my $python = $LogP95::Field::python;
my $field = $LogP95::Field::field;

# The programs, or a clear skip.
my ($apache, $wrk) = field_programs('apache2 wrk', 'apache2', 'wrk');
my $modules = '/usr/lib/apache2/modules';
plan skip_all =>
  'apache2 and wrk are needed (Debian: apt-get install apache2 wrk, without starting the service: lp_apt_nostart in test/lib/cluster.sh; test/run.sh does it as root)'
  if !$apache || !$wrk;
plan skip_all => "apache2's modules are needed in $modules (mod_proxy_http, mod_auth_basic, mod_mpm_event)"
  if !-f "$modules/mod_proxy_http.so" || !-f "$modules/mod_auth_basic.so";
plan skip_all => "$python is needed (the backend, the hostile requests, the reference)"
  if !-x $python;

my $dir = PostgreSQL::Test::Utils::tempdir('apache_field');
my $log = "$dir/access.log";

# The backend and apache2, on free ports; they stop by themselves after $life
# s (field_stop_all stops them before, and in an END block).
my $life = $seconds + 90;
my $backend_port = field_backend($dir, $life);
my $port = PostgreSQL::Test::Cluster::get_free_port();

# An htpasswd file that knows none of the hostile users.
open(my $pw, '>', "$dir/htpasswd") or die "$dir/htpasswd: $!";
print $pw "alice:{SHA}" . Digest::SHA::sha1_base64('not-sent') . "=\n";
close $pw;
field_config("$field/apache2.conf.in", "$dir/apache2.conf",
	DIR => $dir, PORT => $port, BACKEND_PORT => $backend_port, MODULES => $modules);
field_start([ 'timeout', $life, $apache, '-f', "$dir/apache2.conf", '-DFOREGROUND' ],
	"$dir/apache2.out", "$dir/apache2.err");
field_wait_port($port, 'apache2');
note((`$apache -v 2>&1` =~ /Server version: (\S+)/)[0] . " on 127.0.0.1:$port, backend on 127.0.0.1:$backend_port");

# Bounded load: wrk for $seconds s, and the hostile requests during it; then
# an Authorization header on a path without auth (from 127.0.0.3): Apache
# logs %u as '-' there, since no auth module sets the user.
my $rounds = 3;
my $load_secs = field_load(
	wrk => $wrk, port => $port, seconds => $seconds, rounds => $rounds,
	server => 'apache2', dir => $dir,
	after => sub {
		my $probe = IO::Socket::INET->new(
			PeerAddr => '127.0.0.1', PeerPort => $port, LocalAddr => '127.0.0.3', Timeout => 5)
		  or die "probe: $!";
		print $probe "GET /users/99/authz-probe HTTP/1.1\r\nHost: localhost\r\nAuthorization: Basic "
		  . MIME::Base64::encode_base64('[admin]:pw', '') . "\r\nConnection: close\r\n\r\n";
		{ local $/; my $answer = <$probe>; }
		close $probe;
	});

# What Apache wrote for the users (see the header).
my $text = slurp_file($log);
is(scalar(() = $text =~ /^127\.0\.0\.2 - \[admin\] \[[^]\n]*\] "GET \/private\/area HTTP\/1\.1" 401 /mg),
	$rounds, 'a refused Basic user [admin] is logged as sent, with the 401');
is(scalar(() = $text =~ /^127\.0\.0\.2 - \[01\/Jan\/2000 \[[^]\n]*\] "GET \/private\/area(?:\?x=1)? HTTP\/1\.1" 401 /mg),
	2 * $rounds, 'a fake-time user is cut at its first colon: [01/Jan/2000');
is(scalar(() = $text =~ /^127\.0\.0\.3 - q\\"u\\\\ote \[/mg),
	$rounds, 'a user q"u\\ote is logged q\\"u\\\\ote');
is(scalar(() = $text =~ /^127\.0\.0\.3 - - \[[^]\n]*\] "GET \/users\/99\/authz-probe HTTP\/1\.1" 200 /mg),
	1, 'an Authorization header on a path without auth: %u is -');
note('lines from 127.0.0.2 by request start: '
	  . join(', ', map { my $k = $_; "$k " . scalar(() = $text =~ /^127\.0\.0\.2 - \S+ \[[^]\n]*\] "\Q$k\E/mg) }
		  ('\x16', '\x', 'GARBAGE', 'PRI', 'GET"', 'G{T', 'GET http')));

# The reference, from the file; the database; logp95 against the reference.
my $node = field_check_log('combined_us', 'apache', 'apache_field', $log, $dir, $load_secs);
field_check_status($node, 'combined_us', 'apache', $log, $dir);    # issue 24

done_testing();
