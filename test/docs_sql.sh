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
#   <!-- test: grafana -->            a Grafana panel query: its macros
#                                     ($__timeFilter(col), $__interval...)
#                                     replaced by literals (test/lib/grafana_sql.py)
# ("superuser; error 42501" combines them).  Output blocks (``` without
# sql) and shell blocks are not run.  Last line "N passed, N failed".
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
cd "$work"	# initdb as postgres: a cwd it can enter
lp_cluster_start
lp_say "cluster on $PGHOST port $PGPORT; blocks in $work"
lp_psql -c "CREATE ROLE $owner LOGIN" -c "CREATE DATABASE $db OWNER $owner" >/dev/null
lp_psql -d "$db" -c "CREATE EXTENSION logp95" -c "\\copy (SELECT logp95_generate(100000, 300, 42)) TO '$work/access.log'" >/dev/null ||
	lp_check "logp95 is installed in $PGBIN (CREATE EXTENSION logp95 to write access.log)" false
lp_psql -d "$db" -c "DROP EXTENSION logp95" >/dev/null
# and what the generator never writes but logs hold: a CRLF line end, a
# backslash (nginx's \x22), a tab in the user agent of a combined line
printf '2026-11-07T00:00:05 GET /api/v1/crlf 12\r\n2026-11-07T00:00:06 GET /api/v1/a\\x22b 9\n2026-11-07T00:00:07 GET /api/v1/tab 3 "curl\t8"\n' >> "$work/access.log"
file_md5=$(LC_ALL=C sort "$work/access.log" | md5sum | cut -d' ' -f1)

while IFS=$'\t' read -r n where marker; do
	block=$work/$(printf 'block%03d.sql' "$n")
	role=$owner
	expect=
	skip=
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
	if [ -z "$expect" ]; then
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
cd "$LP_ROOT"
lp_checks_done
