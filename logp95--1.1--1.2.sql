/* logp95--1.1--1.2.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION logp95 UPDATE TO '1.2'" to load this file. \quit

-- Version 1.2: every SQL object added or changed after 1.1 was released.
-- CREATE EXTENSION logp95 runs logp95--1.0.sql, logp95--1.0--1.1.sql and
-- then this script, so a fresh install and an updated one hold the same
-- objects.

-- ---------------------------------------------------------------------
-- Indexes built by the 1.0 library (issue 21).
-- ---------------------------------------------------------------------
-- logp95_line_ts is IMMUTABLE, and the 1.1 library returns other values
-- than the 1.0 library for a few inputs (a combined line with a bracketed
-- time in $remote_user, instants outside years 0001-9999 in UTC).  An
-- index built while the 1.0 library was installed can therefore miss rows
-- once a later library is.  The function keeps the 1.1 library's results
-- from now on (docs/architecture.md, "IMMUTABLE results"), so rebuilding
-- such an index once makes it true for good.  A database cannot tell
-- whether its indexes were built by 1.0, so every index whose expression or
-- predicate calls logp95_line_ts is rebuilt here (REINDEX INDEX: a SHARE
-- lock on its table, writes wait, reads go on; an ACCESS EXCLUSIVE lock on
-- the index, until the update commits).  An index of a partition is
-- rebuilt like any other, which covers partitioned indexes.  What cannot be
-- rebuilt inside the update's transaction gets a WARNING with the
-- statement to run.
--
-- The block runs as the bootstrap superuser when a trusted extension is
-- updated by its owner, so nothing in it may resolve to an object another
-- role can create: the two functions are looked up first (pg_catalog is
-- searched before the extension's schema), then search_path is narrowed to
-- pg_catalog (pg_temp last) for the rest of the block and put back at its
-- end, and the names it builds statements from come from the catalogs,
-- quoted by regclass output and %I.
DO $$
DECLARE
	fns oid[] := ARRAY['logp95_line_ts(text)'::regprocedure,
					   'logp95_line_ts(text, text)'::regprocedure]::oid[];
	old_path text := pg_catalog.current_setting('search_path');
	r record;
BEGIN
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
	-- indexes with storage (relkind i); other sessions' temporary indexes
	-- cannot be rebuilt from here
	FOR r IN
		SELECT DISTINCT c.oid, c.oid::regclass AS idx,
			   c.relpersistence = 't' AND c.relnamespace <> pg_my_temp_schema() AS foreign_temp
		  FROM pg_depend d
		  JOIN pg_class c ON c.oid = d.objid
		 WHERE d.classid = 'pg_class'::regclass
		   AND d.refclassid = 'pg_proc'::regclass
		   AND d.refobjid = ANY (fns)
		   AND c.relkind = 'i'
		 ORDER BY c.oid
	LOOP
		IF r.foreign_temp THEN
			RAISE WARNING 'index % of another session''s temporary table may be stale', r.idx
				USING DETAIL = 'It uses logp95_line_ts, whose results differ between the 1.0 library and later ones for a few inputs.',
					  HINT = pg_catalog.format('Run REINDEX INDEX %s; in the session that owns it.', r.idx);
		ELSE
			EXECUTE pg_catalog.format('REINDEX INDEX %s', r.idx);
		END IF;
	END LOOP;

	-- stored results that a REINDEX does not reach
	FOR r IN
		SELECT DISTINCT
			   CASE
				 WHEN d.classid = 'pg_rewrite'::regclass THEN
					format('materialized view %s', rw.ev_class::regclass)
				 WHEN d.classid = 'pg_constraint'::regclass THEN
					format('constraint %I on table %s', co.conname, co.conrelid::regclass)
				 WHEN d.classid = 'pg_attrdef'::regclass THEN
					format('generated column %I of table %s', a.attname, ad.adrelid::regclass)
				 ELSE
					format('partition key of table %s', d.objid::regclass)
			   END AS what,
			   CASE
				 WHEN d.classid = 'pg_rewrite'::regclass THEN
					format('REFRESH MATERIALIZED VIEW %s;', rw.ev_class::regclass)
				 WHEN d.classid = 'pg_constraint'::regclass THEN
					format('ALTER TABLE %s DROP CONSTRAINT %I, ADD CONSTRAINT %I %s;',
						   co.conrelid::regclass, co.conname, co.conname,
						   pg_get_constraintdef(co.oid))
				 WHEN d.classid = 'pg_attrdef'::regclass THEN
					-- SET the generated column = DEFAULT does not recompute it:
					-- PostgreSQL recomputes a stored generated column only when
					-- an UPDATE sets a column its expression uses
					CASE WHEN uc.attname IS NOT NULL THEN
						format('UPDATE %s SET %I = %I;', ad.adrelid::regclass, uc.attname, uc.attname)
					ELSE
						format('UPDATE %s SET <a column the expression of %I uses> = <that column>;',
							   ad.adrelid::regclass, a.attname)
					END
				 ELSE
					-- every column set to itself: rows whose key changed move
					format('UPDATE %s SET %s;', d.objid::regclass,
						   (SELECT string_agg(format('%I = %I', pa.attname, pa.attname), ', ' ORDER BY pa.attnum)
							  FROM pg_attribute pa
							 WHERE pa.attrelid = d.objid AND pa.attnum > 0
							   AND NOT pa.attisdropped AND pa.attgenerated = ''))
			   END AS fix
		  FROM pg_depend d
		  LEFT JOIN pg_rewrite rw ON d.classid = 'pg_rewrite'::regclass AND rw.oid = d.objid
		  LEFT JOIN pg_class v ON v.oid = rw.ev_class
		  LEFT JOIN pg_constraint co ON d.classid = 'pg_constraint'::regclass AND co.oid = d.objid
		  LEFT JOIN pg_attrdef ad ON d.classid = 'pg_attrdef'::regclass AND ad.oid = d.objid
		  LEFT JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
		  -- the first column a generated column's expression uses
		  LEFT JOIN LATERAL (
				SELECT ua.attname
				  FROM pg_depend ud
				  JOIN pg_attribute ua ON ua.attrelid = ud.refobjid AND ua.attnum = ud.refobjsubid
				 WHERE ud.classid = 'pg_attrdef'::regclass AND ud.objid = ad.oid
				   AND ud.refclassid = 'pg_class'::regclass AND ud.refobjid = ad.adrelid
				   AND ud.refobjsubid > 0 AND ud.refobjsubid <> ad.adnum
				 ORDER BY ua.attnum
				 LIMIT 1) uc ON true
		  LEFT JOIN pg_class pc ON d.classid = 'pg_class'::regclass AND pc.oid = d.objid
		 WHERE d.refclassid = 'pg_proc'::regclass
		   AND d.refobjid = ANY (fns)
		   AND ((d.classid = 'pg_rewrite'::regclass AND v.relkind = 'm')
				OR (d.classid = 'pg_constraint'::regclass AND co.contype = 'c')
				OR (d.classid = 'pg_attrdef'::regclass AND a.attgenerated <> '')
				OR (d.classid = 'pg_class'::regclass AND pc.relkind = 'p'))
		 ORDER BY 1
	LOOP
		RAISE WARNING '% may hold results of logp95_line_ts computed by the 1.0 library', r.what
			USING DETAIL = 'logp95_line_ts returns other values under the 1.0 library than under later ones for a few inputs; the update rebuilt every index that uses it, but cannot recompute this.',
				  HINT = pg_catalog.format('Run: %s', r.fix);
	END LOOP;

	PERFORM pg_catalog.set_config('search_path', old_path, true);
END
$$;

-- ---------------------------------------------------------------------
-- Equality, order and hashing of states (issue 21).
-- ---------------------------------------------------------------------
-- A stored state is its canonical encoding, so equal bytes are equal
-- distributions (src/logp95_ops.c).  The order is bytewise and means
-- nothing beyond grouping and sorting; it lets DISTINCT, UNION, GROUP BY
-- and logical replication with REPLICA IDENTITY FULL work.

CREATE FUNCTION logp95_state_eq(logp95_state, logp95_state) RETURNS bool
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION logp95_state_ne(logp95_state, logp95_state) RETURNS bool
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION logp95_state_lt(logp95_state, logp95_state) RETURNS bool
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION logp95_state_le(logp95_state, logp95_state) RETURNS bool
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION logp95_state_gt(logp95_state, logp95_state) RETURNS bool
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION logp95_state_ge(logp95_state, logp95_state) RETURNS bool
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION logp95_state_cmp(logp95_state, logp95_state) RETURNS int4
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION logp95_state_hash(logp95_state) RETURNS int4
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION logp95_state_hash_extended(logp95_state, int8) RETURNS int8
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_state_eq(logp95_state, logp95_state) IS
'implementation of = for logp95_state: the same routes, counts and malformed count';
COMMENT ON FUNCTION logp95_state_ne(logp95_state, logp95_state) IS
'implementation of <> for logp95_state';
COMMENT ON FUNCTION logp95_state_lt(logp95_state, logp95_state) IS
'implementation of < for logp95_state (bytewise order of the canonical encoding)';
COMMENT ON FUNCTION logp95_state_le(logp95_state, logp95_state) IS
'implementation of <= for logp95_state (bytewise order of the canonical encoding)';
COMMENT ON FUNCTION logp95_state_gt(logp95_state, logp95_state) IS
'implementation of > for logp95_state (bytewise order of the canonical encoding)';
COMMENT ON FUNCTION logp95_state_ge(logp95_state, logp95_state) IS
'implementation of >= for logp95_state (bytewise order of the canonical encoding)';
COMMENT ON FUNCTION logp95_state_cmp(logp95_state, logp95_state) IS
'btree support of logp95_state: -1, 0 or 1 in bytewise order of the canonical encoding';
COMMENT ON FUNCTION logp95_state_hash(logp95_state) IS
'hash support of logp95_state: a hash of the canonical encoding';
COMMENT ON FUNCTION logp95_state_hash_extended(logp95_state, int8) IS
'extended hash support of logp95_state: a seeded 64-bit hash of the canonical encoding';

CREATE OPERATOR = (
	LEFTARG = logp95_state, RIGHTARG = logp95_state,
	FUNCTION = logp95_state_eq,
	COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = eqsel, JOIN = eqjoinsel,
	HASHES, MERGES
);
CREATE OPERATOR <> (
	LEFTARG = logp95_state, RIGHTARG = logp95_state,
	FUNCTION = logp95_state_ne,
	COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
	LEFTARG = logp95_state, RIGHTARG = logp95_state,
	FUNCTION = logp95_state_lt,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
	LEFTARG = logp95_state, RIGHTARG = logp95_state,
	FUNCTION = logp95_state_le,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
	LEFTARG = logp95_state, RIGHTARG = logp95_state,
	FUNCTION = logp95_state_gt,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
	LEFTARG = logp95_state, RIGHTARG = logp95_state,
	FUNCTION = logp95_state_ge,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = scalargesel, JOIN = scalargejoinsel
);

COMMENT ON OPERATOR = (logp95_state, logp95_state) IS
'equal states: the same routes, counts and malformed count';
COMMENT ON OPERATOR <> (logp95_state, logp95_state) IS 'states that differ';
COMMENT ON OPERATOR < (logp95_state, logp95_state) IS 'bytewise order of the canonical encoding (for sorting and grouping only)';
COMMENT ON OPERATOR <= (logp95_state, logp95_state) IS 'bytewise order of the canonical encoding (for sorting and grouping only)';
COMMENT ON OPERATOR > (logp95_state, logp95_state) IS 'bytewise order of the canonical encoding (for sorting and grouping only)';
COMMENT ON OPERATOR >= (logp95_state, logp95_state) IS 'bytewise order of the canonical encoding (for sorting and grouping only)';

CREATE OPERATOR CLASS logp95_state_ops
DEFAULT FOR TYPE logp95_state USING btree AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 logp95_state_cmp(logp95_state, logp95_state);

CREATE OPERATOR CLASS logp95_state_ops
DEFAULT FOR TYPE logp95_state USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 logp95_state_hash(logp95_state),
	FUNCTION 2 logp95_state_hash_extended(logp95_state, int8);

COMMENT ON OPERATOR CLASS logp95_state_ops USING btree IS
'bytewise order of logp95_state (equality of distributions; the order means nothing beyond grouping)';
COMMENT ON OPERATOR CLASS logp95_state_ops USING hash IS
'hashing of logp95_state for hash joins, hash aggregation and hash partitioning';
COMMENT ON OPERATOR FAMILY logp95_state_ops USING btree IS
'the btree operator class of logp95_state, alone in its family';
COMMENT ON OPERATOR FAMILY logp95_state_ops USING hash IS
'the hash operator class of logp95_state, alone in its family';

-- ---------------------------------------------------------------------
-- Time (issue 25).
-- ---------------------------------------------------------------------
-- logp95_line_ts returns a UTC timestamp, which compares wrongly with
-- now() in a session whose TimeZone is not UTC; logp95_line_time returns
-- the same instant as timestamptz.  A C symbol of its own: logp95_line_ts
-- keeps its results (docs/architecture.md, "IMMUTABLE results").

CREATE FUNCTION logp95_line_time(line text, format text DEFAULT 'default')
RETURNS timestamptz
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_line_time(text, text) IS
'the instant of a log line in a named format (default: default) as timestamptz, or NULL when the line has no well-formed time';

-- The exact union of two states, for upserts into rollups:
-- INSERT ... ON CONFLICT (bucket) DO UPDATE SET state = r.state + excluded.state.
-- Not STRICT: a NULL side gives the other side.

CREATE FUNCTION logp95_merge(a logp95_state, b logp95_state)
RETURNS logp95_state
AS 'MODULE_PATHNAME', 'logp95_merge_pair' LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_merge(logp95_state, logp95_state) IS
'the exact union of two states (a NULL side gives the other); the operator +';

CREATE OPERATOR + (
	LEFTARG = logp95_state, RIGHTARG = logp95_state,
	FUNCTION = logp95_merge,
	COMMUTATOR = +
);

COMMENT ON OPERATOR + (logp95_state, logp95_state) IS
'the exact union of two states (logp95_merge(a, b))';

-- Exact histograms subtract exactly: a - b takes every count of b from a
-- (22023 naming the first route of b that a does not hold).

CREATE FUNCTION logp95_subtract(a logp95_state, b logp95_state)
RETURNS logp95_state
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_subtract(logp95_state, logp95_state) IS
'a with every count of b taken away, exact (22023 when b holds a count a does not); the operator -';

CREATE OPERATOR - (
	LEFTARG = logp95_state, RIGHTARG = logp95_state,
	FUNCTION = logp95_subtract
);

COMMENT ON OPERATOR - (logp95_state, logp95_state) IS
'a with every count of b taken away (logp95_subtract(a, b))';

-- A sliding window over states (logp95_merge(state) OVER (... ROWS BETWEEN
-- k PRECEDING AND CURRENT ROW)) adds the row that enters the frame and
-- subtracts the one that leaves it, instead of merging the whole frame
-- again for every row: a moving-aggregate implementation whose running
-- state is a flat state and whose steps are one ordered walk each
-- (src/lp_arith.c).  CREATE OR REPLACE AGGREGATE keeps the views that use
-- logp95_merge; its plain implementation does not change.

CREATE FUNCTION logp95_merge_mtrans(logp95_state, logp95_state)
RETURNS logp95_state
AS 'MODULE_PATHNAME', 'logp95_merge_pair' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_merge_mtrans(logp95_state, logp95_state) IS
'moving-aggregate transition function of logp95_merge: the exact union of the frame''s state and the row entering it';

CREATE FUNCTION logp95_merge_minv(logp95_state, logp95_state)
RETURNS logp95_state
AS 'MODULE_PATHNAME', 'logp95_subtract' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_merge_minv(logp95_state, logp95_state) IS
'moving-aggregate inverse transition function of logp95_merge: the frame''s state less the row leaving it';

CREATE OR REPLACE AGGREGATE logp95_merge(logp95_state) (
	SFUNC = logp95_merge_combine,
	STYPE = logp95_state,
	SSPACE = 65536,
	INITCOND = '\x010000',
	COMBINEFUNC = logp95_merge_combine,
	MSFUNC = logp95_merge_mtrans,
	MINVFUNC = logp95_merge_minv,
	MSTYPE = logp95_state,
	MINITCOND = '\x010000',
	PARALLEL = SAFE
);

-- ---------------------------------------------------------------------
-- Continuous rollups (issue 25).
-- ---------------------------------------------------------------------
-- logp95_rollup_create(source, bucket) makes a table of one state per time
-- bucket of a log table and keeps it exact at ingest: a statement-level
-- AFTER INSERT trigger on the source aggregates the statement's new rows
-- (its transition table) per bucket and upserts one row per touched bucket,
-- in bucket order.  What is created belongs to the caller, not to the
-- extension: the table, the trigger and a trigger function that is
-- SECURITY DEFINER as the caller, so that a role allowed to insert into the
-- source updates the rollup through it and can do nothing else with it.
--
-- Dynamic SQL: every statement these functions build names relations
-- through regclass output or format's %I, and passes the format, options
-- and bucket as literals quoted by %L; the trigger function's body is
-- passed to CREATE FUNCTION as a %L literal too, so no text a caller gives
-- can end a quote.  The functions themselves run as their caller (SECURITY
-- INVOKER) with search_path pinned to pg_catalog, pg_temp, and name every
-- object of the extension with its schema (docs/reliability.md).

-- The definition of every rollup: what logp95_rollup_refresh, _state and
-- _drop read, and what pg_dump keeps (a configuration table: its rows are
-- dumped, the table itself comes with CREATE EXTENSION).
CREATE TABLE logp95_rollups (
	rollup regclass PRIMARY KEY,
	source regclass NOT NULL,
	bucket interval NOT NULL,
	format text NOT NULL,
	line_column name NOT NULL,
	options text NOT NULL,
	trigger_name name NOT NULL,
	trigger_function name NOT NULL
);

COMMENT ON TABLE logp95_rollups IS
'the continuous rollups of logp95_rollup_create: one row per rollup table (written by logp95_rollup_create and logp95_rollup_drop; a role may add or remove only the rows of rollup tables it owns)';
COMMENT ON COLUMN logp95_rollups.rollup IS 'the rollup table (bucket timestamptz PRIMARY KEY, state logp95_state NOT NULL)';
COMMENT ON COLUMN logp95_rollups.source IS 'the table of log lines it summarizes';
COMMENT ON COLUMN logp95_rollups.bucket IS 'the width of a bucket, aligned on the Unix epoch in UTC';
COMMENT ON COLUMN logp95_rollups.format IS 'the log format of the lines';
COMMENT ON COLUMN logp95_rollups.line_column IS 'the column of the source that holds the lines';
COMMENT ON COLUMN logp95_rollups.options IS 'the logp95_agg options as given (the rollup adds skip)';
COMMENT ON COLUMN logp95_rollups.trigger_name IS 'the statement-level AFTER INSERT trigger on the source';
COMMENT ON COLUMN logp95_rollups.trigger_function IS 'the trigger''s function, in the rollup''s schema';

SELECT pg_catalog.pg_extension_config_dump('logp95_rollups', '');

-- A row may be written only by a role with the rights of the owner of its
-- rollup table (a superuser passes), so no role can add, change or remove
-- the definition of another role's rollup; a row whose table is gone may
-- be removed by anyone.  A row trigger rather than row-level security:
-- pg_dump run by a role that is not a superuser stops at a table with
-- row-level security (row_security = off), and it must dump this one.
-- TRUNCATE is not granted.
CREATE FUNCTION logp95_rollups_guard() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	owner oid;
BEGIN
	IF TG_OP IN ('UPDATE', 'DELETE') THEN
		SELECT c.relowner INTO owner FROM pg_class c WHERE c.oid = OLD.rollup;
		IF FOUND AND NOT pg_has_role(current_user, owner, 'USAGE') THEN
			RAISE EXCEPTION 'must be owner of table %', OLD.rollup
				USING ERRCODE = '42501',
					  DETAIL = 'Only the owner of a rollup table may change or remove its row of logp95_rollups.';
		END IF;
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		SELECT c.relowner INTO owner FROM pg_class c WHERE c.oid = NEW.rollup AND c.relkind = 'r';
		IF NOT FOUND THEN
			RAISE EXCEPTION 'relation % is not a table', NEW.rollup USING ERRCODE = '42809';
		END IF;
		IF NOT pg_has_role(current_user, owner, 'USAGE') THEN
			RAISE EXCEPTION 'must be owner of table %', NEW.rollup
				USING ERRCODE = '42501',
					  DETAIL = 'Only the owner of a rollup table may add its row to logp95_rollups.';
		END IF;
	END IF;
	RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END
$$;

COMMENT ON FUNCTION logp95_rollups_guard() IS
'trigger of logp95_rollups: a row may be added, changed or removed only by a role with the rights of the owner of its rollup table';

CREATE TRIGGER logp95_rollups_guard
BEFORE INSERT OR UPDATE OR DELETE ON logp95_rollups
FOR EACH ROW EXECUTE FUNCTION logp95_rollups_guard();

GRANT SELECT, INSERT, DELETE ON logp95_rollups TO PUBLIC;

-- The rollup's definition, or 22023 when the table is none.
CREATE FUNCTION logp95_rollup_def(rollup regclass) RETURNS logp95_rollups
LANGUAGE plpgsql STABLE STRICT SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	def @extschema@.logp95_rollups;
BEGIN
	SELECT * INTO def FROM @extschema@.logp95_rollups r WHERE r.rollup = logp95_rollup_def.rollup;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'relation % is not a logp95 rollup', rollup
			USING ERRCODE = '22023',
				  HINT = 'Rollups are made by logp95_rollup_create and listed in logp95_rollups.';
	END IF;
	RETURN def;
END
$$;

COMMENT ON FUNCTION logp95_rollup_def(regclass) IS
'the row of logp95_rollups of a rollup table (22023 when the table is not a rollup)';

-- Bounds of logp95_rollup_refresh and logp95_rollup_state: NULL, or a
-- finite time that is not a bucket edge, is 22023; -infinity and infinity
-- are edges (the bucket of lines without a time is -infinity).
CREATE FUNCTION logp95_rollup_check_edge(def logp95_rollups, fname text, what text, t timestamptz)
RETURNS void
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF t IS NULL THEN
		RAISE EXCEPTION '% bound "%" must not be null', fname, what USING ERRCODE = '22023';
	END IF;
	IF isfinite(t) AND date_bin(def.bucket, t, timestamptz 'epoch') <> t THEN
		RAISE EXCEPTION '% bound "%" is not on a bucket edge of %', fname, what, def.rollup
			USING ERRCODE = '22023',
				  DETAIL = format('Buckets are %s wide, aligned on the Unix epoch in UTC; the bucket holding %s starts at %s.',
								  def.bucket, t, date_bin(def.bucket, t, timestamptz 'epoch')),
				  HINT = format('Use date_bin(%L, t, ''epoch'') for a bound, or -infinity and infinity.', def.bucket);
	END IF;
END
$$;

COMMENT ON FUNCTION logp95_rollup_check_edge(logp95_rollups, text, text, timestamptz) IS
'22023 unless a bound of a rollup''s range is a bucket edge (or -infinity or infinity)';

-- The (bucket, state) rows of the lines a cursor returns, in bucket order:
-- read in the order they come, with one running state for the bucket being
-- read (src/logp95_rollup.c).  Lines arrive in time order, so that is one
-- state in memory where GROUP BY bucket held one for every bucket of the
-- statement; lines out of order make more runs of their bucket, merged
-- exactly.
CREATE FUNCTION logp95_rollup_rows(lines refcursor, bucket interval, format text, options text)
RETURNS TABLE (bucket timestamptz, state logp95_state)
AS 'MODULE_PATHNAME' LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION logp95_rollup_rows(refcursor, interval, text, text) IS
'the rows of a rollup made from the lines an open cursor returns (one text column): per bucket, date_bin(bucket, logp95_line_time(line, format), ''epoch'') or -infinity for lines without a time, the logp95_agg(line, format, options) of its lines with malformed lines counted, in bucket order';

-- The query of the lines of relation `rel` (a source, or the transition
-- table of the trigger) that a rollup counts, for logp95_rollup_rows.
-- With `ranged`, only the lines of the buckets in [$1, $2), found through
-- the lines' times (an expression index on logp95_line_time(line, format)
-- serves it).
CREATE FUNCTION logp95_rollup_lines(def logp95_rollups, rel text, ranged bool)
RETURNS text
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	ext text := (SELECT e.extnamespace::regnamespace::text FROM pg_extension e WHERE e.extname = 'logp95');
	t text := format('%s.logp95_line_time(l.%I, %L)', ext, def.line_column, def.format);
BEGIN
	RETURN format('SELECT l.%I::pg_catalog.text FROM %s l', def.line_column, rel)
		|| CASE WHEN ranged THEN
			format(' WHERE (%1$s >= $1 AND %1$s < $2 OR %1$s IS NULL AND $1 = %2$L::pg_catalog.timestamptz)', t, '-infinity')
		   ELSE '' END;
END
$$;

COMMENT ON FUNCTION logp95_rollup_lines(logp95_rollups, text, bool) IS
'the query of the lines of a relation that a rollup counts, read by logp95_rollup_rows (used by logp95_rollup_create and logp95_rollup_refresh)';

-- The statement that writes the rows of logp95_rollup_rows over cursor
-- `lines` (a plpgsql variable, or $1) into the rollup, in bucket order (so
-- that concurrent statements lock rollup rows in one order and never
-- deadlock), merged into the buckets already there with `upsert`.
CREATE FUNCTION logp95_rollup_insert(def logp95_rollups, lines text, upsert bool)
RETURNS text
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	ext text := (SELECT e.extnamespace::regnamespace::text FROM pg_extension e WHERE e.extname = 'logp95');
BEGIN
	RETURN format('INSERT INTO %s AS r (bucket, state) SELECT g.bucket, g.state '
				  'FROM %s.logp95_rollup_rows(%s, %L::pg_catalog.interval, %L, %L) g ORDER BY g.bucket',
				  def.rollup, ext, lines, def.bucket, def.format, def.options)
		|| CASE WHEN upsert THEN
			format(' ON CONFLICT (bucket) DO UPDATE SET state = %s.logp95_merge(r.state, excluded.state)', ext)
		   ELSE '' END;
END
$$;

COMMENT ON FUNCTION logp95_rollup_insert(logp95_rollups, text, bool) IS
'the statement that writes the rows of logp95_rollup_rows over a cursor into a rollup in bucket order (used by logp95_rollup_create, logp95_rollup_refresh and the rollup''s trigger)';

CREATE FUNCTION logp95_rollup_create(source regclass, bucket interval,
									 format text DEFAULT 'default',
									 line_column name DEFAULT 'line',
									 options text DEFAULT '')
RETURNS regclass
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	ext text := (SELECT e.extnamespace::regnamespace::text FROM pg_extension e WHERE e.extname = 'logp95');
	opts text := COALESCE(options, '');
	us bigint;
	label text;
	nsp name;
	relname name;
	kind "char";
	persistence "char";
	typ regtype;
	base text;
	tbl name;
	fn name;
	rollup regclass;
	def @extschema@.logp95_rollups;
	body text;
	lines refcursor;
BEGIN
	IF source IS NULL OR bucket IS NULL OR format IS NULL OR line_column IS NULL THEN
		RAISE EXCEPTION 'source, bucket, format and line_column of logp95_rollup_create must not be null'
			USING ERRCODE = '22004';
	END IF;

	-- the bucket: a positive, finite length of time (date_bin's rule)
	IF bucket::text IN ('infinity', '-infinity') THEN
		RAISE EXCEPTION 'bucket interval % is not finite', bucket USING ERRCODE = '22023';
	END IF;
	IF extract(year FROM bucket) <> 0 OR extract(month FROM bucket) <> 0 THEN
		RAISE EXCEPTION 'bucket interval % has months or years', bucket
			USING ERRCODE = '22023',
				  DETAIL = 'Buckets are binned by date_bin, which cannot take intervals containing months or years: a bucket has one fixed length.',
				  HINT = 'Use days, hours, minutes or seconds, as in ''1 day'' or ''5 minutes''.';
	END IF;
	us := (extract(epoch FROM bucket) * 1000000)::bigint;
	IF us <= 0 THEN
		RAISE EXCEPTION 'bucket interval % is not positive', bucket USING ERRCODE = '22023';
	END IF;

	-- the source: a table (or a partitioned table) with a text column of lines
	SELECT n.nspname, c.relname, c.relkind, c.relpersistence
	  INTO nsp, relname, kind, persistence
	  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = source;
	IF kind IS DISTINCT FROM 'r' AND kind IS DISTINCT FROM 'p' THEN
		RAISE EXCEPTION '% is not a table', source
			USING ERRCODE = '42809',
				  DETAIL = 'A rollup is kept by a trigger on a table or a partitioned table.';
	END IF;
	IF persistence = 't' THEN
		RAISE EXCEPTION 'cannot make a rollup of temporary table %', source USING ERRCODE = '0A000';
	END IF;
	SELECT a.atttypid::regtype INTO typ
	  FROM pg_attribute a
	 WHERE a.attrelid = source AND a.attname = line_column AND a.attnum > 0 AND NOT a.attisdropped;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'column "%" of relation % does not exist', line_column, source USING ERRCODE = '42703';
	END IF;
	IF typ NOT IN ('text'::regtype, 'character varying'::regtype) THEN
		RAISE EXCEPTION 'column "%" of relation % is of type %, not text', line_column, source, typ
			USING ERRCODE = '42804';
	END IF;

	-- the format and the options, checked by the aggregate itself (22023);
	-- a rollup counts malformed lines, so that no line can make an INSERT
	-- or COPY into the source fail
	IF 'error' = ANY (SELECT btrim(w, E' \t') FROM regexp_split_to_table(opts, ',') w) THEN
		RAISE EXCEPTION 'logp95_rollup_create does not take the option "error"'
			USING ERRCODE = '22023',
				  DETAIL = 'A rollup counts malformed lines (the option skip), so that no line can make an INSERT or COPY into its source fail.',
				  HINT = 'Read the malformed count with logp95_malformed.';
	END IF;
	PERFORM @extschema@.logp95_line_time('', format);
	PERFORM @extschema@.logp95_agg(l, format,
								   CASE WHEN btrim(opts, E' \t') = '' THEN 'skip' ELSE 'skip,' || opts END)
	   FROM (VALUES (''::text)) v(l);

	-- names: <source>_rollup_<bucket> and its _trigger function, the
	-- source's name shortened (by whole characters) to fit NAMEDATALEN
	label := CASE WHEN us % 86400000000 = 0 THEN (us / 86400000000) || 'd'
				  WHEN us % 3600000000 = 0 THEN (us / 3600000000) || 'h'
				  WHEN us % 60000000 = 0 THEN (us / 60000000) || 'min'
				  WHEN us % 1000000 = 0 THEN (us / 1000000) || 's'
				  WHEN us % 1000 = 0 THEN (us / 1000) || 'ms'
				  ELSE us || 'us' END;
	base := relname;
	WHILE octet_length(base || '_rollup_' || label || '_trigger') > 63 LOOP
		base := left(base, -1);
	END LOOP;
	tbl := base || '_rollup_' || label;
	fn := tbl || '_trigger';

	EXECUTE format('CREATE TABLE %I.%I (bucket timestamptz PRIMARY KEY, state %s.logp95_state NOT NULL)',
				   nsp, tbl, ext);
	rollup := format('%I.%I', nsp, tbl)::regclass;
	-- states stored uncompressed, and in the row up to a whole page: pglz
	-- took a tenth of the ingest and a fifth of merging minute states, and
	-- a state moved out of line costs a TOAST index entry to write and a
	-- lookup to read (docs/performance.md)
	EXECUTE format('ALTER TABLE %s ALTER COLUMN state SET STORAGE EXTERNAL, SET (toast_tuple_target = 8160)', rollup);
	EXECUTE format('COMMENT ON TABLE %s IS %L', rollup,
				   format('logp95 rollup of %s: the state of the lines of each %s bucket (logp95_rollup_create)',
						  source, bucket));
	def := ROW(rollup, source, bucket, format, line_column, opts, tbl, fn);

	-- the trigger function: as the caller (SECURITY DEFINER), one upsert of
	-- the statement's buckets in bucket order, so that concurrent
	-- statements lock rollup rows in one order and never deadlock
	body := format(E'DECLARE\n\tlines refcursor;\nBEGIN\n'
				   '\tOPEN lines NO SCROLL FOR %s;\n'
				   '\t%s;\n'
				   '\tCLOSE lines;\n'
				   '\tRETURN NULL;\nEND',
				   @extschema@.logp95_rollup_lines(def, 'logp95_new_rows', false),
				   @extschema@.logp95_rollup_insert(def, 'lines', true));
	EXECUTE format('CREATE FUNCTION %I.%I() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER '
				   'SET search_path = pg_catalog, pg_temp AS %L', nsp, fn, body);
	EXECUTE format('REVOKE ALL ON FUNCTION %I.%I() FROM PUBLIC', nsp, fn);
	EXECUTE format('COMMENT ON FUNCTION %I.%I() IS %L', nsp, fn,
				   format('logp95 rollup trigger: adds the lines inserted into %s to %s (logp95_rollup_create)',
						  source, rollup));
	-- the WHEN clause makes the trigger depend on the rollup table: DROP
	-- TABLE of the rollup alone is refused instead of leaving a trigger
	-- that would make every insert into the source fail
	EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %s REFERENCING NEW TABLE AS logp95_new_rows '
				   'FOR EACH STATEMENT WHEN (%L::pg_catalog.regclass IS NOT NULL) EXECUTE FUNCTION %I.%I()',
				   tbl, source, rollup, nsp, fn);

	-- the lines already there (CREATE TRIGGER holds a lock that makes
	-- inserts wait until this transaction ends, so none is missed or
	-- counted twice)
	OPEN lines NO SCROLL FOR EXECUTE @extschema@.logp95_rollup_lines(def, source::text, false);
	EXECUTE @extschema@.logp95_rollup_insert(def, '$1', false) USING lines;
	CLOSE lines;
	INSERT INTO @extschema@.logp95_rollups SELECT def.*;
	RETURN rollup;
END
$$;

COMMENT ON FUNCTION logp95_rollup_create(regclass, interval, text, name, text) IS
'create a table of one logp95_state per time bucket of a log table, filled from its lines and kept exact by a statement-level trigger on every later INSERT and COPY';

CREATE FUNCTION logp95_rollup_refresh(rollup regclass, "from" timestamptz, "to" timestamptz)
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	def @extschema@.logp95_rollups;
	n bigint;
	lines refcursor;
BEGIN
	IF rollup IS NULL THEN
		RAISE EXCEPTION 'rollup of logp95_rollup_refresh must not be null' USING ERRCODE = '22004';
	END IF;
	def := @extschema@.logp95_rollup_def(rollup);
	PERFORM @extschema@.logp95_rollup_check_edge(def, 'logp95_rollup_refresh', 'from', "from");
	PERFORM @extschema@.logp95_rollup_check_edge(def, 'logp95_rollup_refresh', 'to', "to");
	IF "from" > "to" THEN
		RAISE EXCEPTION 'lower bound % of logp95_rollup_refresh is after upper bound %', "from", "to"
			USING ERRCODE = '22023';
	END IF;
	IF NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = def.source) THEN
		RAISE EXCEPTION 'source table of rollup % no longer exists', rollup USING ERRCODE = '22023';
	END IF;
	-- inserts into the source wait until this transaction ends, and so do
	-- other refreshes: the range is recomputed from every line in it
	EXECUTE format('LOCK TABLE %s IN SHARE ROW EXCLUSIVE MODE', def.source);
	EXECUTE format('DELETE FROM %s WHERE bucket >= $1 AND bucket < $2', rollup) USING "from", "to";
	OPEN lines NO SCROLL FOR EXECUTE @extschema@.logp95_rollup_lines(def, def.source::text, true)
		USING "from", "to";
	EXECUTE @extschema@.logp95_rollup_insert(def, '$1', false) USING lines;
	GET DIAGNOSTICS n = ROW_COUNT;
	CLOSE lines;
	RETURN n;
END
$$;

COMMENT ON FUNCTION logp95_rollup_refresh(regclass, timestamptz, timestamptz) IS
'recompute the buckets of a rollup in [from, to) from the lines now in its source (the -infinity bucket of lines without a time when from is -infinity); returns the buckets written';

CREATE FUNCTION logp95_rollup_state(rollup regclass, "from" timestamptz, "to" timestamptz)
RETURNS logp95_state
LANGUAGE plpgsql STABLE STRICT SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	def @extschema@.logp95_rollups := @extschema@.logp95_rollup_def(rollup);
	ext text := (SELECT e.extnamespace::regnamespace::text FROM pg_extension e WHERE e.extname = 'logp95');
	s @extschema@.logp95_state;
BEGIN
	PERFORM @extschema@.logp95_rollup_check_edge(def, 'logp95_rollup_state', 'from', "from");
	PERFORM @extschema@.logp95_rollup_check_edge(def, 'logp95_rollup_state', 'to', "to");
	IF "from" > "to" THEN
		RAISE EXCEPTION 'lower bound % of logp95_rollup_state is after upper bound %', "from", "to"
			USING ERRCODE = '22023';
	END IF;
	EXECUTE format('SELECT %s.logp95_merge(r.state) FROM %s r WHERE r.bucket >= $1 AND r.bucket < $2', ext, rollup)
		INTO s USING "from", "to";
	RETURN s;
END
$$;

COMMENT ON FUNCTION logp95_rollup_state(regclass, timestamptz, timestamptz) IS
'the exact union of the states of a rollup''s buckets in [from, to) (bounds on bucket edges, or -infinity and infinity)';

CREATE FUNCTION logp95_rollup_drop(rollup regclass)
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	def @extschema@.logp95_rollups := @extschema@.logp95_rollup_def(rollup);
	fn regprocedure;
BEGIN
	-- the row first: only the rollup's owner may remove it (42501)
	DELETE FROM @extschema@.logp95_rollups r WHERE r.rollup = def.rollup;
	SELECT t.tgfoid::regprocedure INTO fn
	  FROM pg_trigger t
	 WHERE t.tgrelid = def.source AND t.tgname = def.trigger_name;
	IF FOUND THEN
		EXECUTE format('DROP TRIGGER %I ON %s', def.trigger_name, def.source);
	ELSE
		-- the source was dropped, and its trigger with it
		fn := to_regprocedure(format('%I.%I()', (SELECT n.nspname FROM pg_class c
												   JOIN pg_namespace n ON n.oid = c.relnamespace
												  WHERE c.oid = def.rollup), def.trigger_function));
	END IF;
	IF fn IS NOT NULL THEN
		EXECUTE format('DROP FUNCTION %s', fn);
	END IF;
	EXECUTE format('DROP TABLE %s', def.rollup);
END
$$;

COMMENT ON FUNCTION logp95_rollup_drop(regclass) IS
'drop a rollup: its trigger on the source, the trigger''s function, the rollup table and its row of logp95_rollups';

-- Comparing two states (issue 25).
-- ---------------------------------------------------------------------
-- "Which routes got slower after the deploy": per route of either state,
-- in byte order of the route, both p95s and two tests computed from the
-- exact histograms (src/lp_compare.c; docs/reference.md gives the
-- definitions and their scipy equivalents).  A route on one side only has
-- 0 requests on the other and NULL wherever both sides are needed.

CREATE FUNCTION logp95_compare(before logp95_state, after logp95_state)
RETURNS TABLE (route text, requests_before bigint, requests_after bigint,
	p95_before_ms bigint, p95_after_ms bigint, p95_change_ms bigint,
	slower_share float8, p_value float8, tail_p_value float8)
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE
ROWS 300;

COMMENT ON FUNCTION logp95_compare(logp95_state, logp95_state) IS
'per route of either state: requests and p95 before and after, the share of (before, after) pairs where after is slower (ties half), the two-sided Mann-Whitney p-value (normal approximation, tie and continuity corrections) and the binomial p-value of the after-requests above the before p95';

-- What a line gives, and which format a log is in (issue 23).
-- ---------------------------------------------------------------------
-- logp95_parse shows what a format makes of one line: its time, method,
-- route, status and latency, and for a malformed line the message
-- logp95_agg raises in error mode (STABLE: messages may be worded better
-- in a later version; not for indexes).  logp95_detect_format names the
-- format of a sample of lines (src/lp_formats.c, lp_format_detect).

CREATE FUNCTION logp95_parse(line text, format text DEFAULT 'default')
RETURNS TABLE (ts timestamptz, method text, route text, status int,
	latency_ms bigint, problem text)
AS 'MODULE_PATHNAME', 'logp95_parse' LANGUAGE C STABLE STRICT PARALLEL SAFE
ROWS 1;

COMMENT ON FUNCTION logp95_parse(text, text) IS
'one row: what the format makes of the line (time, method, route, status, latency in ms; NULL where the format or the line has none) and, for a malformed line, the problem logp95_agg would raise';

CREATE FUNCTION logp95_detect_format(sample text[]) RETURNS text
AS 'MODULE_PATHNAME', 'logp95_detect_format' LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION logp95_detect_format(text[]) IS
'the format that reads the largest share of the sample''s lines, of every preset and built-in format (a tie goes to the earlier of haproxy, alb, cloudfront, envoy, traefik, iis, caddy, traefik_json, default, combined_us, combined, combined_us_query, combined_query; W3C header lines do not count), NULL when none reads half of them';

-- ---------------------------------------------------------------------
-- Lines given as bytea (issue 26).
-- ---------------------------------------------------------------------
-- A log may hold bytes that are not text in the database encoding (nginx
-- with escape=json or escape=none writes a request's bytes as they came;
-- a UTF8 database refuses them as text).  Such logs load into a bytea
-- column, byte for byte, and these overloads read it: on a line that is
-- valid text they give what the text forms give.  A route, method or
-- quoted line that is not valid text keeps its valid characters and
-- writes every other byte as \xHH (two lower-case hex digits, the form of
-- nginx's default escaping), so that no line can make a load or a report
-- fail (src/logp95.c, logp95_bytes_escape).  Volatility and parallel
-- safety as their text forms.

CREATE FUNCTION logp95_format_bytes_trans(logp95_state, bytea, text) RETURNS logp95_state
AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_format_bytes_trans(logp95_state, bytea, text) IS
'transition function of logp95_agg(bytea, text): parse a line given as bytes in the named format, count its latency';

CREATE FUNCTION logp95_format_opts_bytes_trans(logp95_state, bytea, text, text) RETURNS logp95_state
AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_format_opts_bytes_trans(logp95_state, bytea, text, text) IS
'transition function of logp95_agg(bytea, text, text): parse a line given as bytes in the named format with per-call options, count its latency';

CREATE AGGREGATE logp95_agg(line bytea, format text) (
	SFUNC = logp95_format_bytes_trans,
	STYPE = logp95_state,
	SSPACE = 65536,
	INITCOND = '\x010000',
	COMBINEFUNC = logp95_merge_combine,
	PARALLEL = SAFE
);

CREATE AGGREGATE logp95_agg(line bytea, format text, options text) (
	SFUNC = logp95_format_opts_bytes_trans,
	STYPE = logp95_state,
	SSPACE = 65536,
	INITCOND = '\x010000',
	COMBINEFUNC = logp95_merge_combine,
	PARALLEL = SAFE
);

COMMENT ON AGGREGATE logp95_agg(bytea, text) IS
'logp95_agg(line, format) of lines given as bytes (a log with bytes that are not text): the same state for valid lines; a route''s other bytes counted as \xHH';
COMMENT ON AGGREGATE logp95_agg(bytea, text, text) IS
'logp95_agg(line, format, options) of lines given as bytes (a log with bytes that are not text): the same state for valid lines; a route''s other bytes counted as \xHH';

CREATE FUNCTION logp95_line_ts(line bytea, format text) RETURNS timestamp
AS 'MODULE_PATHNAME', 'logp95_line_ts_bytes' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_line_ts(bytea, text) IS
'logp95_line_ts(line, format) of a line given as bytes: its UTC timestamp, or NULL when it has no well-formed time';

CREATE FUNCTION logp95_line_time(line bytea, format text DEFAULT 'default')
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'logp95_line_time_bytes' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_line_time(bytea, text) IS
'logp95_line_time(line, format) of a line given as bytes: its instant as timestamptz, or NULL when it has no well-formed time';

CREATE FUNCTION logp95_parse(line bytea, format text DEFAULT 'default')
RETURNS TABLE (ts timestamptz, method text, route text, status int,
	latency_ms bigint, problem text)
AS 'MODULE_PATHNAME', 'logp95_parse_bytes' LANGUAGE C STABLE STRICT PARALLEL SAFE
ROWS 1;

COMMENT ON FUNCTION logp95_parse(bytea, text) IS
'logp95_parse(line, format) of a line given as bytes: the same row for a valid line; method, route and problem keep their valid characters and write other bytes as \xHH';

-- ---------------------------------------------------------------------
-- RED (issue 24): status classes per route beside the latency.
-- ---------------------------------------------------------------------
-- logp95_agg(line, format, 'status') counts the responses of each route by
-- status class (the options method and ok_latency imply it); a state that
-- counts statuses with something to say, or records options, is written in
-- encoding version 2, which the 1.1 library cannot read (docs/reliability.md).

CREATE FUNCTION logp95_status(state logp95_state)
RETURNS TABLE(route text, requests bigint, s1xx bigint, s2xx bigint, s3xx bigint,
			  s4xx bigint, s5xx bigint, unknown bigint)
AS 'MODULE_PATHNAME', 'logp95_status'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
ROWS 100;

COMMENT ON FUNCTION logp95_status(logp95_state) IS
'responses of every route by status class: requests counts every line, with a latency or not; unknown counts lines without a status and every request of a state counted without the option status';

CREATE FUNCTION logp95_red(state logp95_state, seconds float8 DEFAULT NULL)
RETURNS TABLE(route text, requests bigint, per_second float8, errors bigint,
			  error_share float8, p50_ms bigint, p95_ms bigint, p99_ms bigint,
			  max_ms bigint)
AS 'MODULE_PATHNAME', 'logp95_red'
LANGUAGE C IMMUTABLE PARALLEL SAFE
ROWS 100;

COMMENT ON FUNCTION logp95_red(logp95_state, float8) IS
'rate, errors and duration of every route: requests, requests per second over the given seconds (NULL without), 5xx errors and their share, and the latency percentiles of the route''s histogram';

-- ---------------------------------------------------------------------
-- Long-tailed sample latencies (issue 27).
-- ---------------------------------------------------------------------
-- logp95_generate's 1.0 and 1.1 forms are IMMUTABLE and keep their lines;
-- the latency distribution is a new argument bound to a new C symbol.
-- 'narrow' gives the four-argument form's lines; 'long_tail' a log-normal
-- body with a Pareto tail capped at 60,000 ms (docs/reference.md).

CREATE FUNCTION logp95_generate(lines bigint, routes int, seed bigint, format text, latency text)
RETURNS SETOF text
AS 'MODULE_PATHNAME', 'logp95_generate_latency' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE
ROWS 1000;

COMMENT ON FUNCTION logp95_generate(bigint, int, bigint, text, text) IS
'deterministic sample access-log lines in a log format with latencies from a named distribution: narrow (the four-argument form''s lines) or long_tail (a log-normal body with a Pareto tail out to a 60,000 ms timeout)';
