-- sql/file_fdw.sql -- reading a log file in place with file_fdw, and loading it with \copy, every byte kept
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
CREATE EXTENSION IF NOT EXISTS file_fdw;
RESET client_min_messages;

-- test/data/access_bytes.log holds backslashes (\b, \N, \., \t, \\, \x22),
-- real tabs, double and single quotes, commas and UTF-8; the server reads it
-- as the postgres OS user
-- (test/run.sh sets LP_TEST_DATA_DIR to a readable copy when the postgres
-- user cannot read the source tree, e.g. a clone under /root)
\getenv abs_srcdir PG_ABS_SRCDIR
\getenv datadir LP_TEST_DATA_DIR
\if :{?datadir}
\else
\set datadir :abs_srcdir '/test/data'
\endif
\set logfile :datadir '/access_bytes.log'

-- CSV mode interprets no backslash; \x01 as delimiter and \x02 as quote never
-- occur in nginx or Apache logs (both escape control bytes as \xHH)
CREATE SERVER fdw_logfiles FOREIGN DATA WRAPPER file_fdw;
CREATE FOREIGN TABLE access_log_file (line text)
	SERVER fdw_logfiles
	OPTIONS (filename :'logfile', format 'csv', delimiter E'\x01', quote E'\x02');

-- every byte: the lines joined with newlines are the file, byte for byte
SELECT count(*) AS lines,
       md5(string_agg(line, E'\n') || E'\n') = md5(pg_read_file(:'logfile')) AS same_bytes,
       sum(octet_length(line) + 1) = octet_length(pg_read_binary_file(:'logfile')) AS same_length
FROM access_log_file;
-- and line by line against the file split on newlines
SELECT count(*) AS differing_lines FROM (
	(SELECT line FROM access_log_file
	 EXCEPT ALL
	 SELECT l FROM regexp_split_to_table(rtrim(pg_read_file(:'logfile'), E'\n'), E'\n') l)
	UNION ALL
	(SELECT l FROM regexp_split_to_table(rtrim(pg_read_file(:'logfile'), E'\n'), E'\n') l
	 EXCEPT ALL
	 SELECT line FROM access_log_file)) d;
SELECT line, octet_length(line) AS bytes,
       position(E'\\' IN line) > 0 AS backslash, position(E'\t' IN line) > 0 AS tab,
       position('"' IN line) > 0 AS dquote, position('''' IN line) > 0 AS squote
FROM access_log_file;

-- the report straight from the file: no ingestion step
SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM access_log_file));
-- the plan reads the file under the aggregate (the path printed here is cut)
-- (PostgreSQL 17 prints the InitPlan as "InitPlan 1": expected/file_fdw_1.out)
CREATE FUNCTION fdw_plan_lines(query text) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
	l text;
BEGIN
	FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
		RETURN NEXT regexp_replace(l, 'Foreign File: .*/', 'Foreign File: .../');
	END LOOP;
END
$$;
SELECT fdw_plan_lines('SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM access_log_file))');

-- what text format would do to the same file: backslashes are eaten (and
-- PostgreSQL 18 refuses the line with "\." in it: expected/file_fdw_2.out)
CREATE FOREIGN TABLE access_log_text (line text)
	SERVER fdw_logfiles
	OPTIONS (filename :'logfile', format 'text', delimiter E'\x01');
SELECT count(*) AS lines_changed_by_text_format
FROM (SELECT line FROM access_log_text EXCEPT ALL SELECT line FROM access_log_file) d;

-- the COPY recipe: \copy reads the file on the client side, same options
CREATE TABLE fdw_loaded(line text);
\cd :datadir
\copy fdw_loaded(line) FROM 'access_bytes.log' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
SELECT count(*) AS differing_lines FROM (
	(TABLE fdw_loaded EXCEPT ALL SELECT line FROM access_log_file)
	UNION ALL
	(SELECT line FROM access_log_file EXCEPT ALL TABLE fdw_loaded)) d;
SELECT (SELECT logp95_agg(line) FROM fdw_loaded)::text
     = (SELECT logp95_agg(line) FROM access_log_file)::text AS same_state;
-- server-side COPY (superuser or pg_read_server_files) takes the same options
TRUNCATE fdw_loaded;
COPY fdw_loaded(line) FROM :'logfile' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02');
SELECT count(*) AS lines, md5(string_agg(line, E'\n') || E'\n') = md5(pg_read_file(:'logfile')) AS same_bytes
FROM fdw_loaded;

DROP FOREIGN TABLE access_log_text;
DROP FOREIGN TABLE access_log_file;
DROP SERVER fdw_logfiles;
DROP FUNCTION fdw_plan_lines(text);
DROP TABLE fdw_loaded;
