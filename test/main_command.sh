#!/usr/bin/env bash
# test/main_command.sh -- run.sh, the main command, on logs a real server writes; last line "N passed, N failed"
#
#   sudo LP_PG_BINDIR=/usr/lib/postgresql/15/bin bash test/main_command.sh
#   LP_DOCS_SHOT=1 ...                  # also remake docs/run-report.png from the generated sample
#
# test/run.sh runs it on PostgreSQL 15 (run.sh builds and installs the
# extension into that server, as test/run.sh itself does).  The logs are
# made here, with what each should give computed here too, from the
# values written into the lines (the reference: no logp95 in it):
# - a combined log of 1,200 lines, 1 in 10 ending in CR LF, tabs and
#   backslashes in routes and user agents, a line "\.", bytes that are not
#   UTF-8 (nginx's escape=none), an empty line, one-request ID routes;
#   with it a rotated .gz file and a file whose name holds a ' and spaces:
#   the lines loaded are the files' bytes (md5), the format is detected
#   from 1,000 lines, the counts, the time span, the whole-service line
#   (requests, per second, 5xx share, p50/p95/p99/max by the percentile
#   rule), the slowest route and its p95, the routes --min-requests hides,
#   the escaped route of the non-UTF-8 bytes;
# - a mostly malformed log (394 of 395 lines): exit 1, the count line, the
#   reasons with a sample line, the hint to pass --format; without
#   --format, "none detected";
# - a default-format log (detected) and a combined_us one (--format given);
# - the HTML report rendered in headless Chromium (Debian's chromium,
#   installed when missing; the checks are skipped, saying so, when it
#   cannot be): no console error, the page's own "charts: 3 drawn, errors:
#   0", and in the screenshot each of the 3 canvases holds drawn pixels;
# - a Debian package owning logp95.so (a dpkg stand-in first in PATH that
#   says so): run.sh uses the installed extension and installs nothing.
set -uo pipefail
. "$(dirname "$0")/lib/cluster.sh"
cd "$LP_ROOT"

W=$(mktemp -d /tmp/logp95-main.XXXXXX)
chmod 755 "$W"
[ -n "${LP_KEEP:-}" ] || trap 'rm -rf "$W"' EXIT

# ---------- the logs and their reference ----------
perl - "$W" <<'PERL'
use strict;
use warnings;
use POSIX qw(floor strftime);
my $dir = shift;
srand(26);
my @mon = qw(Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec);
my $t0 = 1794045600;	# 2026-11-07 10:00:00 UTC
my (%lat, %st5, @all, $good, $bad, $n5, $tmin, $tmax);
my $n = 0;
sub clf { my $t = shift; my @g = gmtime($t); sprintf("%02d/%s/%04d:%02d:%02d:%02d +0000", $g[3], $mon[$g[4]], $g[5] + 1900, $g[2], $g[1], $g[0]); }
# one combined line: the route as counted ($key), as written ($path)
sub line {
	my ($t, $path, $key, $status, $ms, $ua, $eol) = @_;
	$lat{$key} ||= [];
	push @{$lat{$key}}, $ms;
	push @all, $ms;
	$good++;
	$n5++ if $status >= 500 && $status < 600;
	$tmin = $t if !defined $tmin || $t < $tmin;
	$tmax = $t if !defined $tmax || $t > $tmax;
	return sprintf("10.0.%d.%d - - [%s] \"GET %s HTTP/1.1\" %d 512 \"-\" \"%s\" %d.%03d%s",
		$n % 250, $n % 7, clf($t), $path, $status, $ua, $ms / 1000, $ms % 1000, $eol);
}
sub ms { my $base = shift; my $x = int($base * (0.5 + rand()) ** 3) + 1; return $x; }
sub status { my $p5 = shift; return rand() < $p5 ? 503 : (rand() < 0.1 ? 404 : 200); }
my @bytes;	# the bytes of every file, in order
sub file {
	my ($name, $lines) = @_;
	open(my $fh, '>:raw', "$dir/$name") or die;
	print $fh $lines;
	close $fh;
}
# rotated file first in time (passed second), plain file, the ' file
my ($rot, $main, $odd) = ('', '', '');
for my $i (0 .. 299) {
	$n++;
	my $r = $i % 8;
	$rot .= line($t0 - 3600 + 10 * $i, "/api/v1/r$r", "/api/v1/r$r", status(0.02 * $r), ms(40 * ($r + 1)), "curl/8.0", "\n");
}
for my $i (0 .. 1199) {
	$n++;
	my $t = $t0 + 2 * $i;
	my $eol = $i % 10 == 3 ? "\r\n" : "\n";
	if ($i == 500) { $main .= "\\.\n"; $bad++; next; }
	if ($i == 700) { $main .= "\n"; $bad++; next; }
	if ($i == 900) { $main .= "\x00\x01garbage \\N\tnot a log line\n"; $bad++; next; }
	if ($i % 97 == 5) {
		# escape=none: the raw bytes of a Latin-1 request and user agent
		$main .= line($t, "/caf\xe9/menu", "/caf\\xe9/menu", status(0), ms(300), "Mozilla \xff\xfe", $eol);
		next;
	}
	if ($i % 50 == 7) {
		# tabs and backslashes, as escape=none writes them
		$main .= line($t, "/a\\b/c", "/a\\b/c", status(0.1), ms(900), "tab\there \\x22 back\\slash", $eol);
		next;
	}
	if ($i % 20 == 11) {
		my $id = 48000 + $i;
		$main .= line($t, "/users/$id", "/users/$id", status(0.05), ms(2000), "bot", $eol);
		next;
	}
	my $r = $i % 8;
	$main .= line($t, "/api/v1/r$r?page=$i", "/api/v1/r$r", status(0.02 * $r), ms(40 * ($r + 1)), "Mozilla/5.0", $eol);
}
for my $i (0 .. 49) {
	$n++;
	my $r = $i % 3;
	$odd .= line($t0 + 2400 + $i, "/api/v1/r$r", "/api/v1/r$r", status(0.5), ms(100), "it's", "\n");
}
file("access.log", $main);
file("access.log.1", $rot);
file("it's a log.log", $odd);
file("all.bytes", $main . $rot . $odd);

# the percentile rule: sorted[min(floor(n f), n - 1)]
sub pct { my ($v, $f) = @_; my @s = sort { $a <=> $b } @$v; my $i = floor(@s * $f); $i = @s - 1 if $i > @s - 1; return $s[$i]; }
my %p95 = map { $_ => pct($lat{$_}, 0.95) } keys %lat;
sub shown { my $min = shift; return grep { @{$lat{$_}} >= $min } keys %lat; }
my @shown = sort { $p95{$b} <=> $p95{$a} || $a cmp $b } shown(20);
my $total = $good + $bad;
my $secs = $tmax - $tmin;
open(my $ref, '>', "$dir/ref") or die;
print $ref "total=$total\nbad=$bad\ngood=$good\n";
(my $commas = reverse $total) =~ s/(\d{3})(?=\d)/$1,/g;
print $ref "total_commas=", scalar reverse($commas), "\n";
printf $ref "whole=whole service: %d requests, %.1f per second, 5xx %.2f %%, p50 %d ms, p95 %d ms, p99 %d ms, max %d ms; %d routes\n",
	$good, $good / $secs, 100 * $n5 / $good, pct(\@all, 0.5), pct(\@all, 0.95), pct(\@all, 0.99), pct(\@all, 1), scalar(keys %lat);
print $ref "span=time span: ", strftime("%Y-%m-%d %H:%M:%S", gmtime($tmin)), "+00 to ", strftime("%Y-%m-%d %H:%M:%S", gmtime($tmax)), "+00\n";
printf $ref "shown20=among the %d with at least 20 requests (%d routes with fewer hidden\n", scalar(@shown), scalar(keys %lat) - @shown;
printf $ref "shown3=among the %d with at least 3 requests (%d routes with fewer hidden\n", scalar(shown(3)), scalar(keys %lat) - shown(3);
print $ref "id_requests=", scalar(grep { m{^/users/} } map { ($_) x @{$lat{$_}} } grep { m{^/users/} } keys %lat), "\n";
print $ref "slowest=$shown[0]\nslowest_p95=$p95{$shown[0]}\nslowest_requests=", scalar(@{$lat{$shown[0]}}), "\n";

# a mostly malformed log: 394 lines no format reads, 1 combined line
open(my $b, '>', "$dir/bad.log") or die;
for my $i (1 .. 394) { printf $b "GET /x%d took %dms\n", $i % 5, $i; }
print $b "10.0.0.1 - - [07/Nov/2026:12:00:00 +0000] \"GET /ok HTTP/1.1\" 200 5 \"-\" \"-\" 0.010\n";
close $b;
# a default-format log of 1,100 lines and a combined_us one
open(my $d, '>', "$dir/default.log") or die;
for my $i (1 .. 1100) { printf $d "2026-11-07T12:%02d:%02d GET /d%d %d\n", int($i / 60) % 60, $i % 60, $i % 4, 10 * ($i % 4) + 5; }
close $d;
open(my $u, '>', "$dir/us.log") or die;
for my $i (1 .. 200) { printf $u "10.0.0.1 - - [07/Nov/2026:12:00:00 +0000] \"GET /u%d HTTP/1.1\" 200 5 \"-\" \"-\" %d\n", $i % 2, 1000 * ($i % 4 ? 3 : 7); }
close $u;
PERL
gzip -n "$W/access.log.1"
chmod -R a+rX "$W"
ref() { sed -n "s/^$1=//p" "$W/ref"; }

# run.sh with its output in $W/NAME.out and .err; its exit status in $W/NAME.rc
run() {
	local name=$1
	shift
	LP_PORT=${LP_PORT:-$((20000 + RANDOM % 20000))} bash "$LP_ROOT/run.sh" "$@" >"$W/$name.out" 2>"$W/$name.err"
	echo $? >"$W/$name.rc"
}
has() { grep -qF -- "$2" "$W/$1"; }		# FILE holds the line part STRING
show() { echo "--- $1:"; cat "$W/$1"; }

# ---------- the combined logs: three files, .gz, a ' in a name ----------
md5=$(md5sum < "$W/all.bytes" | cut -d' ' -f1)
LP_RUN_CHECK_SQL="SELECT 'md5 ' || md5(string_agg(line || '\\x0a'::bytea, ''::bytea ORDER BY n)) || ' lines ' || count(*) FROM access_log" \
	run main --html "$W/report.html" "$W/access.log" "$W/access.log.1.gz" "$W/it's a log.log"
show main.out
lp_check "run.sh on three files exits 0" test "$(cat "$W/main.rc")" = 0
lp_check "the loaded lines are the files' bytes (md5 $md5)" has main.out "check: md5 $md5 lines $(ref total)"
lp_check "the format is detected from 1,000 lines" has main.out "format: combined (detected from 1,000 lines)"
lp_check "the lines that could not be read are counted" \
	has main.out "$(ref bad) of $(ref total_commas) lines ($(perl -e "printf '%.1f', 100 * $(ref bad) / $(ref total)") %) could not be read"
lp_check "the reason of the line \\. with its sample" grep -qE '^ +line 501: \\\.$' "$W/main.out"
lp_check "the time span" has main.out "$(ref span)"
lp_check "the whole-service line (requests, per second, 5xx, p50/p95/p99/max)" has main.out "$(ref whole)"
lp_check "the routes --min-requests 20 hides are counted" has main.out "$(ref shown20)"
# the first row of the table: route, requests and p95_ms (column 6)
first_row() { awk -F'|' '/^-+\+-/ { getline; gsub(/ +/, "", $1); gsub(/ +/, "", $2); gsub(/ +/, "", $6); print $1 "|" $2 "|" $6; exit }' "$W/$1"; }
lp_check "the slowest route first, with its requests and p95" \
	test "$(first_row main.out)" = "$(ref slowest)|$(ref slowest_requests)|$(ref slowest_p95)"
lp_check "one-request ID routes are not among the 20" bash -c "! grep -q '^ /users/' '$W/main.out'"

run full --full --min-requests 3 "$W/access.log" "$W/access.log.1.gz" "$W/it's a log.log"
lp_check "--full lists the route of the bytes that are not UTF-8, escaped" grep -qF ' /caf\xe9/menu ' "$W/full.out"
lp_check "--full lists the one-request ID routes" grep -q '^ /users/48011 ' "$W/full.out"
lp_check "--full lists the route with a backslash" grep -qF ' /a\b/c ' "$W/full.out"
run min3 --min-requests 3 "$W/access.log" "$W/access.log.1.gz" "$W/it's a log.log"
lp_check "--min-requests 3 hides fewer routes" has min3.out "$(ref shown3)"
run templates --options templates --full "$W/access.log"
lp_check "--options templates folds the ID routes into /users/:id" \
	grep -qE "^ /users/:id +\| +$(ref id_requests) \|" "$W/templates.out"

# ---------- a mostly malformed log ----------
run bad --format combined "$W/bad.log"
show bad.out
show bad.err
lp_check "394 of 395 malformed lines: exit 1" test "$(cat "$W/bad.rc")" = 1
lp_check "the count line" has bad.out "394 of 395 lines (99.7 %) could not be read"
lp_check "the reasons, each with a sample line" \
	bash -c "[ \$(grep -cE '^ +[0-9]+  malformed log line: ' '$W/bad.out') -ge 1 ] && grep -qE '^ +line 1: GET /x1 took 1ms$' '$W/bad.out'"
lp_check "the hint to pass --format" has bad.err "Pass your log's format with --format"
run bad_default --format combined "$W/default.log"
lp_check "a default log read as combined: exit 1, the format detection suggests" \
	bash -c "grep -qF \"The first lines read best as 'default': run.sh --format default\" '$W/bad_default.err' && [ \$(cat '$W/bad_default.rc') = 1 ]"
run bad_detect "$W/bad.log"
lp_check "no format detected: said, exit 1" \
	bash -c "grep -qF 'format: none detected' '$W/bad_detect.out' && [ \$(cat '$W/bad_detect.rc') = 1 ]"

# ---------- --format detected and given ----------
run default "$W/default.log"
lp_check "a default-format log is detected" has default.out "format: default (detected from 1,000 lines)"
lp_check "the default format has no status: said" has default.out "5xx n/a (the format has no status)"
lp_check "the default log's whole service" has default.out "whole service: 1100 requests, "
run us --format combined_us "$W/us.log"
lp_check "--format given" has us.out "format: combined_us (given)"
lp_check "combined_us read as microseconds" has us.out "p50 3 ms, p95 7 ms, p99 7 ms, max 7 ms"
run typo --format combind "$W/us.log"
lp_check "an unknown --format: logp95's message, exit 2" \
	bash -c "grep -qF 'unknown log format \"combind\"' '$W/typo.err' && [ \$(cat '$W/typo.rc') = 2 ]"

# ---------- the HTML report in headless Chromium ----------
html_checks() {
	local page=$1 shot=$2 height=${3:-2600} dom=$W/dom.html log=$W/chromium.log prof=$W/chromium-profile
	local args=(--headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1
		--window-size=1150,$height --virtual-time-budget=10000 --user-data-dir="$prof" --enable-logging=stderr --v=0)
	timeout 120 chromium "${args[@]}" --dump-dom "file://$page" >"$dom" 2>"$log"
	timeout 120 chromium "${args[@]}" --screenshot="$shot" "file://$page" >/dev/null 2>>"$log"
	lp_check "the page says its 3 charts are drawn, no error" grep -qF 'charts: 3 drawn, errors: 0;' "$dom"
	lp_check "no console error in Chromium's log" bash -c "! grep -E 'CONSOLE|Uncaught' '$log' | grep -qiE 'error|uncaught'"
	lp_check "the page fetches nothing (no http(s) URL in src or href)" \
		bash -c "! grep -qE '(src|href)=\"?https?:' '$page'"
	# each canvas's place (data-rect) from the DOM, its drawn pixels from the PNG
	lp_check "the screenshot shows 3 charts (non-white pixels in each canvas)" python3 - "$dom" "$shot" <<'PY'
import re, struct, sys, zlib
dom = open(sys.argv[1], encoding='utf-8', errors='replace').read()
rects = [tuple(int(v) for v in m.split(',')) for m in re.findall(r'<canvas[^>]*data-rect="([0-9,.-]+)"', dom)]
data = open(sys.argv[2], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat, w, h, ctype = 8, b'', 0, 0, 0
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        assert depth == 8, 'bit depth %d' % depth
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
bpp = {2: 3, 6: 4}[ctype]
raw = zlib.decompress(idat)
stride = w * bpp
rows, prev, i = [], bytearray(stride), 0
for y in range(h):
    f = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]
        c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(line)); prev = line
ok = len(rects) == 3
for (x0, y0, rw, rh) in rects:
    if rw <= 0 or rh <= 0 or y0 + rh > h or x0 + rw > w:
        print('canvas at', (x0, y0, rw, rh), 'outside the %dx%d screenshot' % (w, h)); ok = False; continue
    ink = 0
    for y in range(y0, y0 + rh):
        r = rows[y]
        for x in range(x0, x0 + rw):
            p = r[x * bpp:x * bpp + 3]
            if p[0] < 200 or p[1] < 200 or p[2] < 200:
                ink += 1
    share = ink / (rw * rh)
    print('canvas at %s: %.1f %% drawn' % ((x0, y0, rw, rh), 100 * share))
    ok = ok and share > 0.02
print('%d canvases' % len(rects))
sys.exit(0 if ok else 1)
PY
}
if [ "$(cat "$W/main.rc")" = 0 ] && [ -s "$W/report.html" ]; then
	lp_check "the HTML report inlines Chart.js and the data" \
		bash -c "grep -qF 'Chart.js v3' '$W/report.html' && grep -qF 'const LP = {' '$W/report.html'"
	command -v chromium >/dev/null || lp_apt chromium >/dev/null 2>&1
	if command -v chromium >/dev/null; then
		html_checks "$W/report.html" "$W/report.png"
	else
		echo "skipped the HTML rendering checks: chromium is not installed and could not be (apt-get install chromium)"
	fi
else
	lp_check "run.sh --html wrote the report" false
fi
if [ -n "${LP_DOCS_SHOT:-}" ] && command -v chromium >/dev/null; then
	run sample --html "$W/sample.html"
	html_checks "$W/sample.html" "$LP_ROOT/docs/run-report.png" 2150
fi

# ---------- a Debian package owning logp95.so ----------
# a dpkg that says postgresql-15-logp95 owns every logp95.so: run.sh must
# use the installed extension and install nothing over it
mkdir -p "$W/bin"
cat >"$W/bin/dpkg" <<'EOF'
#!/bin/sh
if [ "$1" = -S ]; then
	case $2 in */logp95.so) echo "postgresql-15-logp95: $2"; exit 0 ;; esac
fi
exec /usr/bin/dpkg "$@"
EOF
chmod 755 "$W/bin/dpkg"
so=$("$PG_CONFIG" --pkglibdir)/logp95.so
before=$(stat -c %Y.%s "$so" 2>/dev/null)
PATH=$W/bin:$PATH run pkg "$W/us.log"
lp_check "with a packaged logp95.so: run.sh says it uses it" has pkg.err "of the Debian package postgresql-15-logp95"
lp_check "with a packaged logp95.so: nothing installed over it, the job done" \
	bash -c "[ '$before' = \"\$(stat -c %Y.%s '$so')\" ] && [ \$(cat '$W/pkg.rc') = 0 ] && grep -qF 'format: combined_us' '$W/pkg.out'"

lp_checks_done
