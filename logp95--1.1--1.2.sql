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
					format('UPDATE %s SET %I = DEFAULT;', ad.adrelid::regclass, a.attname)
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
