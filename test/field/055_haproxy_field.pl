# test/field/055_haproxy_field.pl -- the field test of issue 23 for the
# haproxy preset: Debian's HAProxy with option httplog (its default format)
# in front of test/field/backend.py, under normal load from wrk, the
# hostile requests of hostile.py and a request line longer than HAProxy's
# 1024-byte message (logged without its closing quote).  The same messages
# are logged three ways: raw on stdout (log stdout format raw), and as RFC
# 3164 and RFC 5424 syslog messages over UDP to test/field/syslog_sink.py,
# which writes each to a file as a syslog daemon does.  Each file is read
# with the preset 'haproxy' and compared with test/field/ref_formats.py
# --layout haproxy: the report route by route, the malformed count, every
# line's route and latency (logp95_parse) and time (logp95_line_time,
# logp95_line_ts through an expression index; %tr has no offset and is
# UTC, HAProxy runs with TZ=UTC); the three files must give one report.
#
#   make -C test field
#   bash test/prove.sh 15 test/field/055_haproxy_field.pl
#
# Everything listens on 127.0.0.1; haproxy (-db), the syslog receiver and
# the backend run under timeout(1) and are stopped at the end and in an END
# block.

use strict;
use warnings FATAL => 'all';

use IO::Socket::INET;
use Time::HiRes ();
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;
use LogP95::Field;
use LogP95::FieldFormats;

my $seconds = $ENV{LP_FIELD_SECONDS} // 6;
my $python = $LogP95::Field::python;
my $field = $LogP95::Field::field;

my ($haproxy, $wrk) = field_programs('haproxy wrk', 'haproxy', 'wrk');
plan skip_all =>
  'skipped: haproxy and wrk are needed (Debian: apt-get install haproxy wrk, without starting the service: lp_apt_nostart in test/lib/cluster.sh)'
  if !$haproxy || !$wrk;
plan skip_all => "skipped: $python is needed (the backend, the hostile requests, the syslog receiver, the reference)"
  if !-x $python;

my $dir = PostgreSQL::Test::Utils::tempdir('haproxy_field');
my $life = $seconds + 90;
my $backend_port = field_backend($dir, $life);
my ($port, $syslog3164, $syslog5424) = map { PostgreSQL::Test::Cluster::get_free_port() } 1 .. 3;
field_start(
	[ 'timeout', $life, $python, "$field/syslog_sink.py", '--listen', "$syslog3164:$dir/rfc3164.log",
	  '--listen', "$syslog5424:$dir/rfc5424.log", '--lifetime', $life - 5 ],
	"$dir/syslog.out", "$dir/syslog.err");
for (1 .. 100)
{
	last if -s "$dir/syslog.out";    # "listening": both ports bound
	Time::HiRes::sleep(0.1);
}
field_config("$field/haproxy.cfg.in", "$dir/haproxy.cfg",
	DIR => $dir, PORT => $port, BACKEND_PORT => $backend_port,
	SYSLOG_PORT => $syslog3164, SYSLOG_PORT1 => $syslog5424);
field_start([ 'env', 'TZ=UTC', 'timeout', $life, $haproxy, '-db', '-f', "$dir/haproxy.cfg" ],
	"$dir/raw.log", "$dir/error.log");
field_wait_port($port, 'haproxy');
note((`$haproxy -v 2>&1` =~ /^(HAProxy version \S+)/)[0] . " on 127.0.0.1:$port, backend on 127.0.0.1:$backend_port");

my $long = '/long/' . ('a' x 1100);
my $load_secs = field_load(
	wrk => $wrk, port => $port, seconds => $seconds, rounds => 2,
	server => 'haproxy', dir => $dir,
	after => sub {
		# a request line longer than a log message, from 127.0.0.3
		my $s = IO::Socket::INET->new(
			PeerAddr => '127.0.0.1', PeerPort => $port, LocalAddr => '127.0.0.3', Timeout => 5)
		  or die "probe: $!";
		print $s "GET $long?q=1 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
		{ local $/; my $answer = <$s>; }
		close $s;
		sleep 1;    # the syslog receiver writes what is in flight
	});
note("load: $load_secs s");

# HAProxy writes each message to stdout and to both syslog targets, the
# receiver each to its file: wait (10 s at most) until the three files
# hold as many lines, so that no datagram is still in flight to the
# receiver when they are read.  (raw.log once stayed one line short for
# good: HAProxy drops a stdout message that two threads contend for, the
# reason for nbthread 1 in haproxy.cfg.in; waiting does not bring it back.)
my @counts;
for (1 .. 100)
{
	@counts = map { -e "$dir/$_" ? scalar(() = slurp_file("$dir/$_") =~ /\n/g) : -1 }
	  qw(raw.log rfc3164.log rfc5424.log);
	last if $counts[0] == $counts[1] && $counts[1] == $counts[2];
	Time::HiRes::sleep(0.1);
}
note("lines: raw @{[ $counts[0] ]}, rfc3164 @{[ $counts[1] ]}, rfc5424 @{[ $counts[2] ]}");

my $raw = slurp_file("$dir/raw.log");
like($raw, qr{^127\.0\.0\.3:\d+ \[[^\]]+\] .* "GET /long/a+\n}m,
	'a long request line is logged cut, without its closing quote');
cmp_ok(scalar(() = $raw =~ /"<BADREQ>"$/mg), '>', 0, 'HAProxy logs junk as <BADREQ>');

my $node = ff_node('haproxy_field');
my @ran;
for my $log ([ 'raw', 'raw.log' ], [ 'rfc3164', 'rfc3164.log' ], [ 'rfc5424', 'rfc5424.log' ])
{
	my ($t, $file) = @$log;
	is(scalar(() = slurp_file("$dir/$file") =~ /\n/g), scalar(() = $raw =~ /\n/g),
		"$t: a line for every message");
	push @ran, $t if ff_check($node, t => $t, format => 'haproxy', log => "$dir/$file",
		layout => 'haproxy', dir => $dir, malformed => 1, detect => 'haproxy');
}
SKIP:
{
	skip('the three logs must be read to compare them', 2) unless @ran == 3;
	# the long request is cut at 1024 bytes of message, syslog header
	# included: its route differs with the header's length
	ff_same_reports($node, 'raw and RFC 3164', 'raw', 'rfc3164', "route LIKE '/long/%'");
	ff_same_reports($node, 'raw and RFC 5424', 'raw', 'rfc5424', "route LIKE '/long/%'");
}

$node->stop;
done_testing();
