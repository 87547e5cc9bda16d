-- test/lib/ref_report.sql -- the exact report in plain SQL: the independent
-- reference of the benchmark and the TAP tests.  @TABLE@ becomes the table
-- to create, @QUERY@ a query yielding (route, ms).  One row per route with
-- requests, p50_ms, p95_ms, p99_ms, max_ms under logp95's rule (0-based rank
-- min(floor(n*K/100), n-1)) and p95_disc under percentile_disc's (0-based
-- rank ceil(n*0.95)-1).  Read by lp_ref_sql in test/lib/cluster.sh and in
-- test/perl/LogP95/TestLib.pm; sql/reference.sql spells the rule out on its
-- own, as a pg_regress file must stand alone.
CREATE TABLE @TABLE@ AS
SELECT route, n AS requests,
	min(ms) FILTER (WHERE rk = least(n * 50 / 100, n - 1)) AS p50_ms,
	min(ms) FILTER (WHERE rk = least(n * 95 / 100, n - 1)) AS p95_ms,
	min(ms) FILTER (WHERE rk = least(n * 99 / 100, n - 1)) AS p99_ms,
	max(ms) AS max_ms,
	min(ms) FILTER (WHERE rk = (n * 95 + 99) / 100 - 1) AS p95_disc
FROM (SELECT route, ms,
		row_number() OVER (PARTITION BY route ORDER BY ms) - 1 AS rk,
		count(*) OVER (PARTITION BY route) AS n
	FROM (@QUERY@) src) ranked
GROUP BY route, n;
