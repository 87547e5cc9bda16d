#!/usr/bin/env bash
# test/t/33_security.sh -- security: no SECURITY DEFINER function, no dynamic
# SQL or file access in the code, the report reads only what the caller may
# read, support functions with `internal` arguments are not usable from SQL,
# and (trusted = true in logp95.control) a database owner without superuser
# can CREATE EXTENSION logp95 while a plain user cannot.
set -uo pipefail
. "$(dirname "$0")/../lib/cluster.sh"
cd "$LP_ROOT"

DB=lp_t33
DB_OWNED=lp_t33_owned
fails=0

# Run SQL in database $DB as the superuser, unaligned, tuples only.
q() { "$PGBIN/psql" -X -q -At -v ON_ERROR_STOP=1 -d "$DB" "$@"; }

# Run SQL as user $1 in database $2; stderr too, errors in verbose form.
as() {
	local u=$1 d=$2
	shift 2
	"$PGBIN/psql" -X -q -At -U "$u" -d "$d" -v VERBOSITY=verbose "$@" 2>&1
}

# Compare: check NAME EXPECTED ACTUAL
check() {
	if [ "$2" = "$3" ]; then printf 'ok   %s: %s\n' "$1" "$3"
	else printf 'FAIL %s: expected [%s] got [%s]\n' "$1" "$2" "$3"; fails=$((fails + 1)); fi
}

# Passes when the output contains the pattern: has NAME PATTERN OUTPUT
has() {
	if grep -qE "$2" <<<"$3"; then printf 'ok   %s\n' "$1"
	else printf 'FAIL %s: no [%s] in:\n%s\n' "$1" "$2" "$3"; fails=$((fails + 1)); fi
}

# Roles are cluster-wide: drop what an earlier, interrupted run left behind.
cleanup() {
	"$PGBIN/psql" -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "DROP DATABASE IF EXISTS $DB_OWNED" \
		-c "DROP ROLE IF EXISTS lp_t33_reader" -c "DROP ROLE IF EXISTS lp_t33_owner" -c "DROP ROLE IF EXISTS lp_t33_plain" 2>/dev/null
}
cleanup
"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE $DB" || exit 1
q -c "CREATE EXTENSION logp95" || exit 1

# --- 1. no SECURITY DEFINER, no procedural language, no SET clauses -------
got=$(q <<'EOF'
SELECT count(*), count(*) FILTER (WHERE p.prosecdef),
       count(*) FILTER (WHERE l.lanname NOT IN ('c', 'sql', 'internal')),
       count(*) FILTER (WHERE p.proconfig IS NOT NULL)
FROM pg_depend d
JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
JOIN pg_language l ON l.oid = p.prolang
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'logp95');
EOF
)
nfunc=${got%%|*}
check "extension functions: SECURITY DEFINER, other languages, SET clauses" "$nfunc|0|0|0" "$got"
[ "$nfunc" -gt 10 ] || { echo "FAIL only $nfunc functions found through pg_depend"; fails=$((fails + 1)); }

# --- 2. no dynamic SQL, no file or process access in the code -------------
hits=$(grep -nE '\bSPI_|\bfopen\(|\bopen\(|AllocateFile|OpenTransientFile|\bsystem\(|\bpopen\(|\bexec[lv]p?\(' src/*.c src/*.h || true)
check "src/: no SPI_, no file or process access" "" "$hits"
hits=$(grep -niE '\bEXECUTE\b|LANGUAGE\s+plpgsql|SECURITY\s+DEFINER|\bGRANT\b|ALTER\s+SYSTEM|\bCOPY\b' logp95--*.sql || true)
check "install and upgrade scripts: no EXECUTE, plpgsql, SECURITY DEFINER, GRANT, ALTER SYSTEM, COPY" "" "$hits"

# --- 3. the report reads only what the caller may read ---------------------
q <<'EOF' || exit 1
CREATE TABLE access_log(line text);
INSERT INTO access_log SELECT l FROM logp95_generate(1000, 10, 7) l;
CREATE ROLE lp_t33_reader LOGIN;
EOF
REPORT="SELECT count(*), sum(requests) FROM logp95_report((SELECT logp95_agg(line) FROM access_log));"
out=$(as lp_t33_reader "$DB" -c "$REPORT")
has "role without SELECT: report gets 42501 permission denied" \
	'ERROR:  42501: permission denied for table access_log' "$out"
out=$(as lp_t33_reader "$DB" -c "SELECT logp95_percentile(logp95_agg(line), 'x', 0.5) FROM access_log")
has "role without SELECT: logp95_percentile over the table gets 42501" \
	'ERROR:  42501: permission denied for table access_log' "$out"
q -c "GRANT SELECT ON access_log TO lp_t33_reader"
check "after GRANT SELECT the same report works" "10|1000" "$(as lp_t33_reader "$DB" -c "$REPORT")"
q -c "REVOKE SELECT ON access_log FROM lp_t33_reader"
# column privileges are honoured too
q -c "ALTER TABLE access_log ADD COLUMN secret text; GRANT SELECT (secret) ON access_log TO lp_t33_reader"
out=$(as lp_t33_reader "$DB" -c "$REPORT")
has "SELECT on another column only: 42501" 'ERROR:  42501: permission denied for table access_log' "$out"

# --- 4. support functions with internal arguments are not callable from SQL
# (no value of type internal can be written), and merging outside an
# aggregate changes neither argument.
for f in "logp95_agg_line_trans(NULL::internal, 'a b c 1')" "logp95_agg_pair_trans(NULL::internal, 'a', 1)" \
	"logp95_combine(NULL::internal, NULL::internal)" "logp95_final(NULL::internal)" \
	"logp95_serialize(NULL::internal)" "logp95_deserialize('\\x010000'::bytea, NULL::internal)"; do
	out=$(as lp_t33_reader "$DB" -c "SELECT $f")
	has "not callable from SQL: ${f%%(*}" 'ERROR:  42846: cannot cast type unknown to internal' "$out"
done
q -c "CREATE TABLE states AS SELECT logp95_agg(l) AS s FROM logp95_generate(1000, 10, 7) l; GRANT SELECT ON states TO lp_t33_reader"
before=$(q -c "SELECT md5(s::text) FROM states")
got=$(as lp_t33_reader "$DB" -c "SELECT sum(requests) FROM states, logp95_report(logp95_merge_combine(s, s))")
check "logp95_merge_combine(s, s) outside an aggregate" "2000" "$got"
check "and the stored state is unchanged" "$before" "$(q -c "SELECT md5(s::text) FROM states")"

# --- 5. trusted: a database owner without superuser installs it ------------
check "logp95.control says trusted = true" "1" "$(grep -cE '^trusted\s*=\s*true' logp95.control)"
q <<EOF || exit 1
CREATE ROLE lp_t33_owner LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE;
CREATE ROLE lp_t33_plain LOGIN NOSUPERUSER;
CREATE DATABASE $DB_OWNED OWNER lp_t33_owner;
REVOKE CREATE ON DATABASE $DB_OWNED FROM PUBLIC;
EOF
out=$(as lp_t33_plain "$DB_OWNED" -c "CREATE EXTENSION logp95")
has "a user without CREATE on the database cannot install it (42501)" 'ERROR:  42501: permission denied' "$out"
out=$(as lp_t33_owner "$DB_OWNED" -c "CREATE EXTENSION logp95" -c "SELECT extname, extowner::regrole FROM pg_extension WHERE extname = 'logp95'")
check "the database owner (no superuser) installs it; the extension is theirs" "logp95|lp_t33_owner" "$out"
out=$(as lp_t33_owner "$DB_OWNED" -c "SELECT count(*), sum(requests), max(p95_ms) > 0 FROM logp95_report((SELECT logp95_agg(l) FROM logp95_generate(5000, 20, 3) l))")
check "the owner uses it" "20|5000|t" "$out"
out=$(as lp_t33_plain "$DB_OWNED" -c "SELECT (SELECT logp95_agg(l) FROM logp95_generate(100, 5, 3) l)::text::logp95_state IS NOT NULL")
check "another user uses it" "t" "$out"
out=$(as lp_t33_owner "$DB_OWNED" -c "DROP EXTENSION logp95" -c "SELECT count(*) FROM pg_extension WHERE extname = 'logp95'")
check "the owner drops it" "0" "$out"

cleanup
echo "security: $fails failed"
[ "$fails" = 0 ]
