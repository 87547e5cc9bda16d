#!/usr/bin/env bash
# test/docs_sql.sh -- every SQL block of README.md and docs/*.md, run in order in one fresh database
#
#   sudo test/docs_sql.sh                                # PostgreSQL 15 (Debian's)
#   LP_PG_BINDIR=/opt/pg15-x/usr/lib/postgresql/15/bin sudo test/docs_sql.sh
#   LP_DOCS_KEEP=1 ...                                   # keep the block files (printed path)
#
# The docs are followed literally: the blocks (```sql fences) of README.md,
# then of docs/*.md in the order below (a reader's order: formats, time
# series, scale-out, the reference, nginx end to end), run one after the
# other in a new database, each in its own psql session, as a role that is
# not a superuser but owns the database (README: "a database owner may do
# it"; logp95 is trusted).  A block fails the test when it raises an error.
# The working directory holds access.log (100,000 default-format lines of
# logp95_generate(100000, 300, 42)) for the README's \copy.
#
# A block is run as written unless the line before it (blank lines aside)
# is a marker, an HTML comment that GitHub does not show:
#   <!-- test: superuser -->          run it as the superuser postgres
#   <!-- test: error 22P02 42501 -->  it must raise exactly these errors, in order
#   <!-- test: skip (needs Citus) --> not run; the reason is printed
#   <!-- test: shards -->             postgres_fdw's shards: the hosts
#                                     shard1.example and shard2.example are the
#                                     databases shard1 and shard2 of this cluster
#                                     (each with half of a generated log), the
#                                     user mapping postgres's
#   <!-- test: on each shard -->      run in shard1 and shard2 as postgres,
#                                     "1 AS shard" written as that shard's number
#   <!-- test: grafana -->            a Grafana panel query: its macros
#                                     ($__timeFilter(col), $__interval...)
#                                     replaced by literals (test/lib/grafana_sql.py)
# ("superuser; error 42501" combines them).  Output blocks (``` without
# sql) and shell blocks are not run.
#
# Then docs/nginx.md end to end, in the same database: every query of the
# Grafana dashboard docs/grafana/logp95.json as the role grafana, macros
# written out (test/lib/grafana_sql.py), its table panel against
# logp95_report over the raw lines; the loading script (the sh block after
# <!-- test: loader -->) on a log cut mid-line, rotated and appended to,
# every line once and byte for byte, the rollup equal to the aggregate; the
# pg_cron retention job (the cluster preloads pg_cron, from Debian's
# postgresql-NN-cron) moved to every minute: ran within 90 s, succeeded,
# deleted what is old and kept the rest.  Last line "N passed, N failed".
set -uo pipefail
. "$(dirname "$0")/lib/cluster.sh"
cd "$LP_ROOT"

# the reading order; every docs/*.md with an sql block must be listed
order=(README.md docs/formats.md docs/sre.md docs/scale-out.md docs/reference.md docs/nginx.md)
owner=docs_owner
db=docs

work=$(mktemp -d /tmp/logp95-docs.XXXXXX)
chmod 755 "$work"
trap 'lp_cluster_stop; [ -n "${LP_DOCS_KEEP:-}" ] || rm -rf "$work"' EXIT

for f in README.md docs/*.md; do
	grep -qE '^[[:space:]]*```sql' "$f" || continue
	case " ${order[*]} " in
		*" $f "*) ;;
		*) lp_check "$f has SQL blocks and is in this test's reading order" false ;;
	esac
done

# What the docs say about the scripts, against the scripts: the one
# version the CHANGELOG calls unreleased is default_version (1.1 was
# called unreleased after its release), and reliability.md names every
# script that holds a DO block (it once said the update had no
# procedural code).
defver=$(sed -n "s/^default_version = '\(.*\)'/\1/p" logp95.control)
unrel=$(sed -nE 's/^## ([0-9.]+) \(unreleased\).*/\1/p' CHANGELOG.md | tr '\n' ' ')
lp_check "CHANGELOG.md calls only default_version $defver unreleased (it says: ${unrel:-none})" test "$unrel" = "$defver "
for v in $(sed -nE 's/^## ([0-9.]+) \(released.*/\1/p' CHANGELOG.md); do
	lp_check "CHANGELOG.md: released $v has its frozen script in the tree" \
		sh -c "ls logp95--$v.sql logp95--*--$v.sql 2>/dev/null | grep -q ."
done
for f in logp95--*.sql; do
	grep -qE '^DO ' "$f" || continue
	lp_check "docs/reliability.md names $f, which holds a DO block" grep -qF "$f" docs/reliability.md
done

# Split the files into one .sql file per block, and a list:
# number <TAB> file:line <TAB> marker
python3 - "$work" "${order[@]}" > "$work/blocks.tsv" <<'EOF'
import re, sys, os
work, files = sys.argv[1], sys.argv[2:]
n = 0
for f in files:
    if not os.path.exists(f):
        continue
    lines = open(f, encoding='utf-8').read().split('\n')
    i = 0
    last = ''      # the last non-blank line outside a block
    while i < len(lines):
        m = re.match(r'^(\s*)```(\S*)\s*$', lines[i])
        if not m:
            if lines[i].strip():
                last = lines[i].strip()
            i += 1
            continue
        indent, lang, start = m.group(1), m.group(2), i
        body = []
        i += 1
        while i < len(lines) and not re.match(r'^\s*```\s*$', lines[i]):
            l = lines[i]
            body.append(l[len(indent):] if l.startswith(indent) else l.lstrip())
            i += 1
        i += 1
        mk = re.match(r'^<!--\s*test:\s*(.*?)\s*-->$', last)
        last = ''
        if lang != 'sql':
            continue
        n += 1
        open(os.path.join(work, 'block%03d.sql' % n), 'w', encoding='utf-8').write('\n'.join(body) + '\n')
        print('%d\t%s:%d\t%s' % (n, f, start + 1, mk.group(1) if mk else ''))
EOF
nblocks=$(wc -l < "$work/blocks.tsv")
lp_check "$nblocks SQL blocks found in ${order[*]}" test "$nblocks" -gt 0

# the sample log the README's \copy reads, written by the server's own generator
# pg_cron for nginx.md's retention job (Debian's postgresql-NN-cron), in
# the server under test: a private copy gets the package's files
lp_apt postgresql-$PG_MAJOR-cron
pkglib=$("$PG_CONFIG" --pkglibdir)
if [ ! -f "$pkglib/pg_cron.so" ]; then
	prefix=${PGBIN%/usr/lib/postgresql/$PG_MAJOR/bin}
	if [ "$prefix" != "$PGBIN" ] && [ -n "$prefix" ]; then
		dpkg -L postgresql-$PG_MAJOR-cron | while read -r f; do
			[ -f "$f" ] && case $f in /usr/lib/postgresql/*|/usr/share/postgresql/*) install -D -m 644 "$f" "$prefix$f" ;; esac
		done
	fi
fi
lp_check "pg_cron is in $pkglib (postgresql-$PG_MAJOR-cron)" test -f "$pkglib/pg_cron.so"

cd "$work"	# initdb as postgres: a cwd it can enter
# jobs run in background workers: the cluster listens on a socket only
lp_cluster_start "shared_preload_libraries = 'pg_cron'" "cron.database_name = '$db'" "cron.use_background_workers = on"
trap 'lp_cluster_stop; cd /; [ -n "${LP_DOCS_KEEP:-}" ] || rm -rf "$work"' EXIT	# lp_cluster_start set its own
lp_say "cluster on $PGHOST port $PGPORT; blocks in $work"
lp_psql -c "CREATE ROLE $owner LOGIN" -c "CREATE DATABASE $db OWNER $owner" >/dev/null
lp_psql -d "$db" -c "CREATE EXTENSION logp95" -c "\\copy (SELECT logp95_generate(100000, 300, 42)) TO '$work/access.log'" >/dev/null ||
	lp_check "logp95 is installed in $PGBIN (CREATE EXTENSION logp95 to write access.log)" false
lp_psql -d "$db" -c "DROP EXTENSION logp95" >/dev/null
# the shards of scale-out.md: two databases, half a generated log each
for i in 1 2; do
	lp_psql -c "CREATE DATABASE shard$i" >/dev/null
	lp_psql -d "shard$i" -c "CREATE EXTENSION logp95" -c "CREATE TABLE access_log(line text)" \
		-c "INSERT INTO access_log SELECT l FROM logp95_generate(20000, 50, 5) WITH ORDINALITY g(l, n) WHERE n % 2 = $i - 1" >/dev/null
done
# and what the generator never writes but logs hold: a CRLF line end, a
# backslash (nginx's \x22), a tab in the user agent of a combined line
printf '2026-11-07T00:00:05 GET /api/v1/crlf 12\r\n2026-11-07T00:00:06 GET /api/v1/a\\x22b 9\n2026-11-07T00:00:07 GET /api/v1/tab 3 "curl\t8"\n' >> "$work/access.log"
file_md5=$(LC_ALL=C sort "$work/access.log" | md5sum | cut -d' ' -f1)

while IFS=$'\t' read -r n where marker; do
	block=$work/$(printf 'block%03d.sql' "$n")
	role=$owner
	expect=
	skip=
	on_shards=
	parts=()
	case $marker in
		skip*) parts=("$marker") ;;	# the reason may hold anything
		*) IFS=';' read -ra parts <<< "$marker" ;;
	esac
	for p in "${parts[@]}"; do
		p=$(echo "$p" | sed -E 's/^ +| +$//g')
		case $p in
			'') ;;
			superuser) role=postgres ;;
			shards) sed -i -E -e "s/host 'shard([12])\.example', port '5432', dbname 'logs'/host '${PGHOST//\//\\/}', port '$PGPORT', dbname 'shard\1'/" \
					-e "s/OPTIONS \(user 'logs', password '[^']*'\)/OPTIONS (user 'postgres')/" "$block" ;;
			'on each shard') on_shards=1 ;;
			grafana) python3 "$LP_ROOT/test/lib/grafana_sql.py" < "$block" > "$block.g" && mv "$block.g" "$block" ||
				lp_check "$where: its Grafana macros have literals" false ;;
			error\ *) expect=${p#error } ;;
			skip*) skip=${p#skip} ;;
			*) lp_check "$where: marker '$p' is one of superuser, error CODES, skip (WHY)" false ;;
		esac
	done
	if [ -n "$skip" ] || [ "$marker" = skip ]; then
		printf 'skipped %s %s\n' "$where" "$skip"
		continue
	fi
	if [ -n "$on_shards" ]; then
		for i in 1 2; do
			sed "s/\b1 AS shard\b/$i AS shard/" "$block" > "$block.$i"
			out=$("$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -U postgres -d "shard$i" -f "$block.$i" 2>&1 >/dev/null)
			lp_check "$where (on shard$i as postgres)" test -z "$out"
			[ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/#   /'
		done
	elif [ -z "$expect" ]; then
		if out=$("$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -U "$role" -d "$db" -f "$block" 2>&1 >/dev/null); then
			lp_check "$where (as $role)" true
			# the load of access.log keeps every byte of every line
			if grep -q '^\\copy access_log(line) FROM' "$block"; then
				got=$("$PGBIN/psql" -X -tA -U "$role" -d "$db" -c "SELECT md5(string_agg(line, E'\\n' ORDER BY line COLLATE \"C\") || E'\\n') FROM access_log")
				lp_check "$where: access_log holds the lines of access.log byte for byte (md5 of the sorted lines $got = $file_md5)" test "$got" = "$file_md5"
			fi
		else
			printf '%s\n' "$out" | sed 's/^/#   /' | head -n 20
			lp_check "$where (as $role)" false
		fi
	else
		# VERBOSITY verbose: "ERROR:  22023: message"; each message must
		# also be written in the doc, as it is (the doc shows the real one)
		"$PGBIN/psql" -X -q -v ON_ERROR_STOP=0 -v VERBOSITY=verbose -U "$role" -d "$db" -f "$block" 2>&1 >/dev/null |
			sed -nE 's/.*ERROR:  ([0-9A-Z]{5}): (.*)$/\1 \2/p' > "$block.err"
		got=$(cut -d' ' -f1 "$block.err" | tr '\n' ' ')
		got=${got% }
		lp_check "$where (as $role) raises $expect (got '${got:-no error}')" test "$got" = "$expect"
		while read -r code msg; do
			# as it is, or with its quoted values written "..."
			gen=$(printf '%s' "$msg" | sed -E 's/"[^"]*"/"..."/g')
			lp_check "$where: ${where%%:*} quotes the message of $code: $msg" \
				sh -c 'grep -qF -- "$1" "$3" || grep -qF -- "$2" "$3"' sh "$msg" "$gen" "$LP_ROOT/${where%%:*}"
		done < "$block.err"
	fi
done < "$work/blocks.tsv"

psql_as() { local r=$1; shift; "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -U "$r" -d "$db" "$@"; }
q() { local r=$1; shift; psql_as "$r" -tA -c "$@"; }

# no block threw the reader's lines away (reference.md's retention example
# once deleted every line of the tour)
got=$(q "$owner" "SELECT count(*) FROM access_log")
lp_check "access_log still holds the $(wc -l < "$work/access.log") lines of access.log after every block ($got)" test "$got" = "$(wc -l < "$work/access.log")"

# scale-out.md's two forms over the shards give the state of all the lines
all="(SELECT logp95_agg(l) FROM logp95_generate(20000, 50, 5) l)"
got=$(q postgres "SELECT (SELECT logp95_merge(s) FROM (SELECT logp95_agg(line) AS s FROM shard1_log UNION ALL SELECT logp95_agg(line) FROM shard2_log) p) = $all")
lp_check "scale-out.md: the merge of shard1_log and shard2_log is the state of the whole log ($got)" test "$got" = t
got=$(q postgres "SET enable_partitionwise_aggregate = on; SELECT (SELECT logp95_merge(s) FROM (SELECT shard, logp95_agg(line) AS s FROM sharded_log GROUP BY shard) p) = $all")
lp_check "scale-out.md: the partitioned form over the shards' views gives it too ($got)" test "$got" = t
got=$(q postgres "SET enable_partitionwise_aggregate = on; EXPLAIN (VERBOSE, COSTS OFF) SELECT logp95_merge(s) FROM (SELECT shard, logp95_agg(line) AS s FROM sharded_log GROUP BY shard) p" | grep -c 'Remote SQL: SELECT shard, public.logp95_agg(line) FROM public.access_log_v GROUP BY 1')
lp_check "scale-out.md: each shard runs the GROUP BY aggregate (Remote SQL as the doc says: $got of 2)" test "$got" = 2

# ---------- docs/nginx.md, end to end ----------

# The Grafana dashboard: every panel query and the variable's, as the role
# grafana (which may read the rollup only), with the macros written out;
# the table panel against logp95_report over the raw lines of the range.
mkdir -p "$work/grafana"
python3 "$LP_ROOT/test/lib/grafana_sql.py" "$LP_ROOT/docs/grafana/logp95.json" "$work/grafana" > "$work/grafana/panels.tsv"
lp_check "docs/grafana/logp95.json has 6 queries (5 panels, 1 variable)" test "$(wc -l < "$work/grafana/panels.tsv")" = 6
while IFS=$'\t' read -r n title ref; do
	rows=$(psql_as grafana -tA -f "$work/grafana/panel$n.sql" 2>"$work/grafana/err$n" | grep -c .)
	[ -s "$work/grafana/err$n" ] && sed 's/^/#   /' "$work/grafana/err$n"
	lp_check "grafana panel $n ($title) runs as grafana and gives rows ($rows)" test ! -s "$work/grafana/err$n" -a "$rows" -gt 0
done < "$work/grafana/panels.tsv"
table=$(grep -P '^\d+\tslowest routes' "$work/grafana/panels.tsv" | cut -f1)
ref="SELECT route, requests, p50_ms, p95_ms, p99_ms, max_ms FROM logp95_report((SELECT logp95_agg(line, 'combined', 'skip') FROM nginx_log
	WHERE logp95_line_time(line, 'combined') >= '2026-11-07 00:00+00' AND logp95_line_time(line, 'combined') < '2026-11-07 03:01+00'))
	WHERE requests >= 20 ORDER BY p95_ms DESC, route LIMIT 20"
got=$(psql_as grafana -tA -f "$work/grafana/panel$table.sql" | md5sum)
want=$(q postgres "$ref" | md5sum)
lp_check "grafana table panel = logp95_report over the raw lines of the range ($(q postgres "SELECT count(*) FROM ($ref) r") rows)" test "$got" = "$want"

# The loading script, run on a log it has not seen: a line cut in two by
# a run, a rotation with lines still written to the old file, a run with
# nothing new.  Every line once, byte for byte.
awk '/<!-- test: loader -->/ { m = 1; next } m && /^```sh/ { b = 1; next } b && /^```/ { exit } b { print }' \
	"$LP_ROOT/docs/nginx.md" > "$work/loader.sh"
mkdir -p "$work/nginx"
chmod 777 "$work/nginx"
q "$owner" "CREATE TABLE nginx_before AS SELECT line FROM nginx_log" >/dev/null
psql_as "$owner" -c "\\copy (SELECT logp95_generate(3000, 40, 9, 'combined')) TO '$work/nginx/gen.log'" >/dev/null
printf '203.0.113.9 - - [07/Nov/2026:01:00:00 +0000] "GET /a\\x22b HTTP/1.1" 200 5 "-" "tab\there" 0.005\r\n' >> "$work/nginx/gen.log"
log=$work/nginx/access.log
loader() { LOG=$log STATE=$work/nginx/state PSQL="$PGBIN/psql -X -q -v ON_ERROR_STOP=1 -U $owner -d $db" sh "$work/loader.sh"; }
head -n 1000 "$work/nginx/gen.log" > "$log"
sed -n 1001p "$work/nginx/gen.log" | head -c 40 >> "$log"
loader; r1=$?
sed -n 1001p "$work/nginx/gen.log" | tail -c +41 >> "$log"
sed -n 1002,2000p "$work/nginx/gen.log" >> "$log"
loader; r2=$?
sed -n 2001,2300p "$work/nginx/gen.log" >> "$log"
loader; r3=$?
mv "$log" "$log.1"
sed -n 2301,2500p "$work/nginx/gen.log" >> "$log.1"	# nginx writes the old file until it reopens
sed -n '2501,$p' "$work/nginx/gen.log" > "$log"
loader; r4=$?
loader; r5=$?
lp_check "the loading script of nginx.md ran 5 times without error ($r1 $r2 $r3 $r4 $r5)" test "$r1$r2$r3$r4$r5" = 00000
want=$(LC_ALL=C sort "$work/nginx/gen.log" | md5sum | cut -d' ' -f1)
got=$(q "$owner" "SELECT md5(string_agg(line, E'\\n' ORDER BY line COLLATE \"C\") || E'\\n') FROM (SELECT line FROM nginx_log EXCEPT ALL SELECT line FROM nginx_before) s")
lp_check "it loaded each of the $(wc -l < "$work/nginx/gen.log") lines once, byte for byte (md5 of the sorted lines $got = $want)" test "$got" = "$want"
got=$(q "$owner" "SELECT logp95_rollup_state('nginx_log_rollup_1min', '-infinity', 'infinity') = logp95_agg(line, 'combined', 'skip') FROM nginx_log")
lp_check "nginx_log_rollup_1min holds exactly logp95_agg over nginx_log after the loads ($got)" test "$got" = t

# The retention job of pg_cron, moved to every minute: it runs within 90
# seconds, deletes lines older than a week and states older than 90 days,
# and leaves the rest.
q "$owner" "INSERT INTO nginx_log SELECT '203.0.113.9 - - [' || to_char(now() AT TIME ZONE 'UTC', 'DD/Mon/YYYY:HH24:MI:SS') || ' +0000] \"GET /fresh HTTP/1.1\" 200 5 \"-\" \"curl\" 0.005'" >/dev/null
q "$owner" "INSERT INTO nginx_log_rollup_1min VALUES (date_bin('1 minute', now() - interval '100 days', 'epoch'), '\\x010000')" >/dev/null
old_lines=$(q postgres "SELECT count(*) FROM nginx_log WHERE logp95_line_time(line, 'combined') < now() - interval '7 days'")
kept_states=$(q postgres "SELECT count(*) FROM nginx_log_rollup_1min WHERE bucket >= now() - interval '90 days'")
job=$(q postgres "SELECT jobid FROM cron.job WHERE jobname = 'logp95-retention'")
lp_check "nginx.md scheduled the job logp95-retention (jobid '$job')" test -n "$job"
if [ -n "$job" ]; then
	q postgres "SELECT cron.alter_job($job, schedule := '* * * * *')" >/dev/null
	status=
	for _ in $(seq 1 45); do
		status=$(q postgres "SELECT status FROM cron.job_run_details WHERE jobid = $job AND status IN ('succeeded', 'failed') LIMIT 1")
		[ -n "$status" ] && break
		sleep 2
	done
	lp_check "the retention job ran within 90 s and succeeded (status '${status:-none}'; $(q postgres "SELECT return_message FROM cron.job_run_details WHERE jobid = $job LIMIT 1"))" test "$status" = succeeded
	got=$(q postgres "SELECT count(*) FILTER (WHERE logp95_line_time(line, 'combined') < now() - interval '7 days') || ' ' || count(*) FILTER (WHERE line LIKE '%/fresh %') FROM nginx_log")
	lp_check "it deleted the $old_lines lines older than a week and kept the fresh one (left: old, fresh = $got)" test "$got" = "0 1" -a "$old_lines" -gt 0
	got=$(q postgres "SELECT count(*) FILTER (WHERE bucket < now() - interval '90 days' AND bucket > '-infinity') || ' ' || count(*) FILTER (WHERE bucket >= now() - interval '90 days') FROM nginx_log_rollup_1min")
	lp_check "it deleted the state older than 90 days and kept the $kept_states others (left: old, kept = $got)" test "$got" = "0 $kept_states"
	q postgres "SELECT cron.unschedule($job)" >/dev/null
fi

cd "$LP_ROOT"
lp_checks_done
