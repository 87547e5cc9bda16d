#!/usr/bin/env bash
# test/t/20_fdw_shards.sh -- two shard clusters and a coordinator through postgres_fdw:
# logp95_agg runs on each shard (Remote SQL), only states travel, and the
# coordinator's logp95_merge equals one node holding every line.
#
# Run by test/run.sh with its cluster (PGHOST/PGPORT) as the coordinator; this
# script starts two more throwaway clusters itself and stops them on exit.
#   LP_FDW_LINES=4000000 bash test/t/20_fdw_shards.sh   # a bigger log
set -euo pipefail
. "$(dirname "$0")/../lib/cluster.sh"

: "${PGHOST:?run this from test/run.sh, or export PGHOST/PGPORT/PGUSER of a running cluster}"
LINES=${LP_FDW_LINES:-400000}
ROUTES=${LP_FDW_ROUTES:-300}
SEED=20
HALF=$((LINES / 2))
DB=lp_fdw_coordinator
SHARD_DIRS=()
SHARD_PORTS=()

# Start one more throwaway cluster (the logic of lp_cluster_start, without
# touching its variables or its trap); appends to SHARD_DIRS and SHARD_PORTS.
shard_start() {
	local dir port
	dir=$(mktemp -d /tmp/logp95-shard.XXXXXX)
	chmod 755 "$dir"
	chown postgres: "$dir" 2>/dev/null || lp_root chown postgres: "$dir"
	SHARD_DIRS+=("$dir")
	port=$((20000 + RANDOM % 20000))
	lp_as_pg "$PGBIN/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 --no-sync >/dev/null
	{
		echo "listen_addresses = ''"
		echo "unix_socket_directories = '$dir'"
		echo "port = $port"
		echo "fsync = off"
		echo "shared_buffers = 128MB"
	} | lp_as_pg tee -a "$dir/data/postgresql.conf" >/dev/null
	lp_as_pg "$PGBIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null
	SHARD_PORTS+=("$port")
}

# Stop the shard clusters and drop the coordinator's database.
cleanup() {
	local dir
	for dir in "${SHARD_DIRS[@]}"; do
		lp_as_pg "$PGBIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
		rm -rf "$dir"
	done
	lp_psql -d postgres -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1 || true
}
trap cleanup EXIT

# psql on the coordinator database, unaligned, tuples only.
coord() { lp_psql -d "$DB" -At "$@"; }

fail=0
# check NAME EXPECTED ACTUAL
check() {
	if [ "$2" = "$3" ]; then printf 'ok     %s\n' "$1"
	else printf 'FAILED %s: expected %s, got %s\n' "$1" "$2" "$3"; fail=1; fi
}

lp_say "[${SECONDS}s] starting two shard clusters"
shard_start
shard_start

# Each shard holds one half of the same generated log (by line number).
for i in 1 2; do
	if [ "$i" = 1 ]; then cond="n <= $HALF"; else cond="n > $HALF"; fi
	PGHOST=${SHARD_DIRS[$((i - 1))]} PGPORT=${SHARD_PORTS[$((i - 1))]} lp_psql -d postgres <<-SQL
		CREATE EXTENSION logp95;
		CREATE TABLE access_log(line text);
		INSERT INTO access_log SELECT l FROM logp95_generate($LINES, $ROUTES, $SEED) WITH ORDINALITY g(l, n) WHERE $cond;
		ANALYZE access_log;
	SQL
done

lp_say "[${SECONDS}s] coordinator: database $DB on $PGHOST port $PGPORT"
PGOPTIONS="-c client_min_messages=warning" lp_psql -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" >/dev/null
lp_psql -d "$DB" <<SQL
CREATE EXTENSION logp95;
CREATE EXTENSION postgres_fdw;
CREATE SERVER shard1 FOREIGN DATA WRAPPER postgres_fdw
	OPTIONS (host '${SHARD_DIRS[0]}', port '${SHARD_PORTS[0]}', dbname 'postgres',
	         extensions 'logp95', async_capable 'true');
CREATE SERVER shard2 FOREIGN DATA WRAPPER postgres_fdw
	OPTIONS (host '${SHARD_DIRS[1]}', port '${SHARD_PORTS[1]}', dbname 'postgres',
	         extensions 'logp95', async_capable 'true');
CREATE USER MAPPING FOR CURRENT_USER SERVER shard1 OPTIONS (user 'postgres');
CREATE USER MAPPING FOR CURRENT_USER SERVER shard2 OPTIONS (user 'postgres');
CREATE FOREIGN TABLE shard1_log(line text) SERVER shard1 OPTIONS (schema_name 'public', table_name 'access_log');
CREATE FOREIGN TABLE shard2_log(line text) SERVER shard2 OPTIONS (schema_name 'public', table_name 'access_log');
-- the single node: every line in one local table
CREATE TABLE all_lines AS SELECT l AS line FROM logp95_generate($LINES, $ROUTES, $SEED) l;
ANALYZE all_lines;
SQL

QUERY="SELECT logp95_merge(s) FROM (SELECT logp95_agg(line) AS s FROM shard1_log
       UNION ALL SELECT logp95_agg(line) FROM shard2_log) parts"

lp_say "[${SECONDS}s]"
echo "-- the plan: each shard runs logp95_agg itself"
plan=$(coord -c "EXPLAIN (VERBOSE, COSTS OFF) $QUERY")
echo "$plan"
check "logp95_agg in the Remote SQL of both shards" 2 \
	"$(grep -c 'Remote SQL: SELECT public.logp95_agg(line) FROM public.access_log' <<<"$plan" || true)"
check "no raw lines fetched" 0 "$(grep -c 'Remote SQL: SELECT line' <<<"$plan" || true)"
check "shards scanned concurrently (Async Foreign Scan)" 2 "$(grep -c 'Async Foreign Scan' <<<"$plan" || true)"
# one row (a state) comes back from each shard
rows=$(coord -c "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) $QUERY" | grep 'Foreign Scan' || true)
echo "$rows"
check "one row from each shard" 2 "$(grep -c 'actual rows=1 loops=1' <<<"$rows" || true)"

lp_say "[${SECONDS}s]"
echo "-- the merged report equals the single node's, route for route"
res=$(coord <<SQL
CREATE TABLE sharded AS SELECT * FROM logp95_report(($QUERY));
CREATE TABLE single AS SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM all_lines));
SELECT (SELECT count(*) FROM sharded) || ' ' || (SELECT count(*) FROM single)
    || ' ' || (SELECT sum(requests) FROM sharded)
    || ' ' || (SELECT count(*) FROM (TABLE sharded EXCEPT TABLE single) x)
    || ' ' || (SELECT count(*) FROM (TABLE single EXCEPT TABLE sharded) x)
    || ' ' || (($QUERY)::text = (SELECT logp95_agg(line) FROM all_lines)::text);
SQL
)
read -r n_sharded n_single requests only_sharded only_single same_state <<<"$res"
check "routes (sharded)" "$ROUTES" "$n_sharded"
check "routes (single node)" "$ROUTES" "$n_single"
check "requests" "$LINES" "$requests"
check "rows only in the sharded report" 0 "$only_sharded"
check "rows only in the single-node report" 0 "$only_single"
check "identical state bytes" true "$same_state"
coord -c "SELECT * FROM sharded ORDER BY p95_ms DESC, route LIMIT 3"

lp_say "[${SECONDS}s]"
echo "-- a table partitioned by shard over the foreign tables: GROUP BY the key pushes each aggregate down"
coord <<'SQL'
CREATE TABLE sharded_log(shard int NOT NULL, line text) PARTITION BY LIST (shard);
SQL
for i in 1 2; do
	coord <<-SQL
		CREATE FOREIGN TABLE sharded_log_$i PARTITION OF sharded_log FOR VALUES IN ($i)
			SERVER shard$i OPTIONS (schema_name 'public', table_name 'access_log_v');
	SQL
	PGHOST=${SHARD_DIRS[$((i - 1))]} PGPORT=${SHARD_PORTS[$((i - 1))]} lp_psql -d postgres \
		-c "CREATE VIEW access_log_v AS SELECT $i AS shard, line FROM access_log"
done
PQUERY="SELECT logp95_merge(s) FROM (SELECT shard, logp95_agg(line) AS s FROM sharded_log GROUP BY shard) parts"
pplan=$(coord -c "SET enable_partitionwise_aggregate = on" -c "EXPLAIN (VERBOSE, COSTS OFF) $PQUERY")
echo "$pplan"
check "partitionwise: logp95_agg in the Remote SQL of both shards" 2 \
	"$(grep -c 'Remote SQL: SELECT shard, public.logp95_agg(line) FROM public.access_log_v GROUP BY 1' <<<"$pplan" || true)"
check "partitionwise: same state as the single node" t \
	"$(coord -c "SET enable_partitionwise_aggregate = on" -c "SELECT ($PQUERY)::text = (SELECT logp95_agg(line) FROM all_lines)::text")"

lp_say "[${SECONDS}s]"
echo "-- bytes that travel versus the raw log"
sizes=$(coord <<SQL
WITH s AS (SELECT logp95_agg(line) AS st FROM shard1_log UNION ALL SELECT logp95_agg(line) FROM shard2_log)
SELECT (SELECT sum(octet_length(line) + 1) FROM all_lines)
    || ' ' || (SELECT sum(octet_length(st::text)) FROM s)
    || ' ' || (SELECT sum(length(logp95_state_send(st))) FROM s);
SQL
)
read -r raw_bytes text_bytes bin_bytes <<<"$sizes"
printf 'raw log: %s lines, %s bytes (lines + newlines)\n' "$LINES" "$raw_bytes"
printf 'states from 2 shards: %s bytes as text (what postgres_fdw transfers), %s bytes encoded\n' "$text_bytes" "$bin_bytes"
awk -v r="$raw_bytes" -v t="$text_bytes" -v b="$bin_bytes" \
	'BEGIN { printf "travel / raw: %.2f%% as text (%.0fx less), %.2f%% encoded\n", 100 * t / r, r / t, 100 * b / r }'
check "states travel fewer bytes than the raw log" 1 "$([ "$text_bytes" -lt "$raw_bytes" ] && echo 1 || echo 0)"

lp_say "[${SECONDS}s] done"
if [ "$fail" = 0 ]; then echo "20_fdw_shards: all checks passed"; else echo "20_fdw_shards: FAILED"; fi
exit "$fail"
