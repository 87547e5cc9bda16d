#!/usr/bin/env python3
# test/lib/compare_reference.py -- logp95_compare's columns computed by scipy, independently of logp95
#
#   python3 test/lib/compare_reference.py --print    # the INSERT of sql/compare.sql's expected rows
#   python3 test/lib/compare_reference.py --check    # logp95_compare against scipy, live
#
# Both modes talk to a running server through psql (PSQL, default "psql",
# with the usual PG* variables); --check creates the logp95 extension in
# the database when it is not there.  The data is never rebuilt from logp95:
# the script runs the statement between "-- compare data: begin" and
# "-- compare data: end" of sql/compare.sql in a scratch schema, reads the
# raw rows back as (side, route, latency, count), and computes each column
# with numpy and scipy:
#
#   requests_*     the counts
#   p95_*_ms       the sorted latencies at rank min(floor(n * 95 / 100), n - 1)
#   p95_change_ms  p95_after_ms - p95_before_ms
#   slower_share   mannwhitneyu(after, before).statistic / (n_before * n_after)
#   p_value        mannwhitneyu(before, after, method='asymptotic',
#                  use_continuity=True).pvalue (two-sided); 1 when scipy
#                  divides by a zero variance (every request one latency)
#   tail_p_value   binomtest(k, n_after, 0.05, alternative='greater').pvalue,
#                  k = the after-requests above p95_before_ms
#   (NULL for what a route on one side only lacks)
#
# --check also compares random cases drawn here (seeded: ties, 1 to 3
# requests, up to 200,000 a side, shifts, fatter tails), loaded with COPY.
# A value agrees when both are NULL, equal (integers and slower_share, a
# ratio of integers below 2^53, exactly), both below 1e-300 (underflow),
# or within a relative 1e-9.  It prints one "ok"/"FAILED" line per case,
# the largest relative differences seen, and "N passed, N failed"; it
# exits 0 after "skipped: ..." when numpy or scipy is missing.
#
# scipy's limits, which the data stays inside: its tie term t**3 - t is
# computed in int64 and wraps past 2,097,151 equal latencies in one group
# of the pooled sample; its binomial tail (boost, in doubles) is good to
# about 1e-11 up to 10^9 requests and drifts past 10^10 (src/lp_compare.c's
# unit tests take mpmath's values there).

import os
import random
import subprocess
import sys

try:
    import numpy as np
    from scipy.stats import binomtest, mannwhitneyu
except ImportError as e:  # pragma: no cover
    print("skipped: python3 cannot import numpy and scipy (%s); Debian: apt-get install python3-scipy" % e)
    print("0 passed, 0 failed")
    sys.exit(0)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PSQL = os.environ.get("PSQL", "psql")
REL = 1e-9
TINY = 1e-300
COLUMNS = ["route", "requests_before", "requests_after", "p95_before_ms", "p95_after_ms",
           "p95_change_ms", "slower_share", "p_value", "tail_p_value"]
MAX_TIE = 2097151


def psql(sql):
    """Run sql in one psql session; the rows of its output, tab-separated."""
    r = subprocess.run([PSQL, "-X", "-q", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1"],
                       input=sql, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("psql failed: %s" % r.stderr.strip())
    return [line.split("\t") for line in r.stdout.splitlines() if line]


def data_statement():
    """The data statement of sql/compare.sql, between its marker lines."""
    text = open(os.path.join(ROOT, "sql", "compare.sql")).read()
    begin, end = "-- compare data: begin\n", "-- compare data: end\n"
    return text[text.index(begin) + len(begin):text.index(end)]


def histograms(rows):
    """{route: {side: (values, counts)}} from (side, route, latency, count) rows."""
    h = {}
    for side, route, v, c in rows:
        h.setdefault(route, {}).setdefault(side, []).append((int(v), int(c)))
    out = {}
    for route, sides in h.items():
        out[route] = {}
        for side, pairs in sides.items():
            pairs.sort()
            out[route][side] = (np.array([v for v, _ in pairs], dtype=np.int64),
                                np.array([c for _, c in pairs], dtype=np.int64))
    return out


def p95(values, counts):
    """The latency at 0-based rank min(floor(n * 95 / 100), n - 1) (src/lp_rank.c)."""
    n = int(counts.sum())
    rank = min(n * 95 // 100, n - 1)
    return int(values[np.searchsorted(np.cumsum(counts), rank, side="right")])


def expected(route, sides):
    """The row logp95_compare should return for one route, by scipy."""
    b, a = sides.get("before"), sides.get("after")
    nb = int(b[1].sum()) if b else 0
    na = int(a[1].sum()) if a else 0
    row = {"route": route, "requests_before": nb, "requests_after": na,
           "p95_before_ms": p95(*b) if b else None, "p95_after_ms": p95(*a) if a else None,
           "p95_change_ms": None, "slower_share": None, "p_value": None, "tail_p_value": None}
    if not (b and a):
        return row
    # scipy's tie term wraps in int64 past this group size: never compare there
    pooled = {}
    for v, c in zip(*b):
        pooled[v] = pooled.get(v, 0) + int(c)
    for v, c in zip(*a):
        pooled[v] = pooled.get(v, 0) + int(c)
    if max(pooled.values()) > MAX_TIE:
        raise ValueError("route %s: a tie group of %d, past scipy's int64 tie term" % (route, max(pooled.values())))
    xb = np.repeat(b[0], b[1]).astype(np.float64)
    xa = np.repeat(a[0], a[1]).astype(np.float64)
    row["p95_change_ms"] = row["p95_after_ms"] - row["p95_before_ms"]
    row["slower_share"] = float(mannwhitneyu(xa, xb, method="asymptotic").statistic) / (nb * na)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = float(mannwhitneyu(xb, xa, method="asymptotic", use_continuity=True).pvalue)
    if p != p:  # NaN: a zero variance that rounding left negative
        p = 1.0
    row["p_value"] = p
    k = int((xa > row["p95_before_ms"]).sum())
    row["tail_p_value"] = float(binomtest(k, na, 0.05, alternative="greater").pvalue)
    return row


def sql_value(v):
    if v is None:
        return "NULL"
    if isinstance(v, str):
        return "'" + v.replace("'", "''") + "'"
    if isinstance(v, float):
        return repr(v)
    return str(v)


def regression_rows():
    """The expected rows of sql/compare.sql's data, from a scratch schema."""
    rows = psql("DROP SCHEMA IF EXISTS compare_ref CASCADE;\nCREATE SCHEMA compare_ref;\nSET search_path = compare_ref;\n" + data_statement() +
                "SELECT side, route, latency_ms, count(*) FROM compare_raw GROUP BY 1, 2, 3;\n"
                "DROP SCHEMA compare_ref CASCADE;\n")
    h = histograms(rows)
    return [expected(r, h[r]) for r in sorted(h, key=lambda s: s.encode())]


def agree(col, got, want):
    """Does a column of logp95_compare agree with scipy's value?  (ok, relative difference)"""
    if got is None or want is None:
        return got is None and want is None, 0.0
    if col in ("route",):
        return got == want, 0.0
    if col in ("p_value", "tail_p_value"):
        if got == want or (got < TINY and want < TINY):
            return True, 0.0
        rel = abs(got - want) / abs(want) if want else float("inf")
        return rel <= REL, rel
    return got == want, 0.0


def parse(col, text):
    if text == "":
        return None
    if col == "route":
        return text
    if col in ("slower_share", "p_value", "tail_p_value"):
        return float(text)
    return int(text)


def random_cases(rng):
    """(name, [(side, route, latency)]) cases drawn from rng."""
    cases = []
    for i in range(40):
        kind = i % 8
        route = "r%02d" % i
        if kind == 0:    # tiny samples
            nb, na, spread, shift = rng.randint(1, 3), rng.randint(1, 3), rng.randint(1, 5), rng.randint(0, 2)
        elif kind == 1:  # heavy ties
            nb, na, spread, shift = rng.randint(50, 5000), rng.randint(50, 5000), rng.randint(1, 4), rng.randint(0, 1)
        elif kind == 2:  # everything tied
            nb, na, spread, shift = rng.randint(1, 2000), rng.randint(1, 2000), 1, 0
        elif kind == 3:  # large, close
            nb, na, spread, shift = rng.randint(50000, 200000), rng.randint(50000, 200000), rng.randint(100, 3000), 0
        else:            # middling, sometimes shifted
            nb, na, spread, shift = rng.randint(5, 3000), rng.randint(5, 3000), rng.randint(2, 500), rng.randint(0, 3)
        rows = [("before", route, rng.randrange(spread) + 10) for _ in range(nb)]
        after = [rng.randrange(spread) + 10 + shift for _ in range(na)]
        if kind == 7:    # a fatter tail: some after-requests far out
            after = [v * 5 if rng.random() < 0.04 else v for v in after]
        rows += [("after", route, v) for v in after]
        if i % 10 == 9:  # a route on one side only
            rows += [("before", route + "_gone", rng.randrange(100)) for _ in range(rng.randint(1, 50))]
            rows += [("after", route + "_new", rng.randrange(100)) for _ in range(rng.randint(1, 50))]
        cases.append(("random " + route, rows))
    return cases


def compare_rows(name, want_rows, got_rows, worst):
    """Check got against want; print one line; return True when all agree."""
    got = {r[0]: dict(zip(COLUMNS, (parse(c, t) for c, t in zip(COLUMNS, r)))) for r in got_rows}
    bad = []
    if [r[0] for r in got_rows] != [w["route"] for w in want_rows]:
        bad.append("routes or their order: got %s, want %s" % ([r[0] for r in got_rows], [w["route"] for w in want_rows]))
    for w in want_rows:
        g = got.get(w["route"])
        if g is None:
            continue
        for col in COLUMNS[1:]:
            ok, rel = agree(col, g[col], w[col])
            worst[col] = max(worst.get(col, 0.0), rel)
            if not ok:
                bad.append("route %s, %s: got %r, want %r" % (w["route"], col, g[col], w[col]))
    print(("ok     %s (%d routes)" % (name, len(want_rows))) if not bad else
          ("FAILED %s: %s" % (name, "; ".join(bad[:5]))))
    return not bad


def check():
    worst = {}
    passed = failed = 0
    # the regression data
    psql("SET client_min_messages = warning;\nCREATE EXTENSION IF NOT EXISTS logp95;\n")
    rows = psql("DROP SCHEMA IF EXISTS compare_ref CASCADE;\nCREATE SCHEMA compare_ref;\nSET search_path = compare_ref, public;\n" + data_statement() +
                "SELECT 'H', side, route, latency_ms, count(*) FROM compare_raw GROUP BY 2, 3, 4;\n"
                "SELECT 'C', c.* FROM logp95_compare("
                "(SELECT logp95_agg(route, latency_ms) FROM compare_raw WHERE side = 'before'),"
                "(SELECT logp95_agg(route, latency_ms) FROM compare_raw WHERE side = 'after')) c;\n"
                "DROP SCHEMA compare_ref CASCADE;\n")
    cases = [("sql/compare.sql data", [r[1:] for r in rows if r[0] == "H"], [r[1:] for r in rows if r[0] == "C"])]
    # random cases
    rng = random.Random(25)
    for name, raw in random_cases(rng):
        copy = "\n".join("%s\t%s\t%d" % r for r in raw)
        rows = psql("CREATE TEMP TABLE raw (side text, route text, latency_ms bigint);\n"
                    "COPY raw FROM STDIN;\n" + copy + "\n\\.\n"
                    "SELECT 'C', c.* FROM logp95_compare("
                    "(SELECT coalesce(logp95_agg(route, latency_ms), '\\x010000') FROM raw WHERE side = 'before'),"
                    "(SELECT coalesce(logp95_agg(route, latency_ms), '\\x010000') FROM raw WHERE side = 'after')) c;\n")
        hist = {}
        for side, route, v in raw:
            hist[(side, route, v)] = hist.get((side, route, v), 0) + 1
        cases.append((name, [(s, r, v, c) for (s, r, v), c in hist.items()], [r[1:] for r in rows]))
    for name, hrows, got in cases:
        h = histograms(hrows)
        want = [expected(r, h[r]) for r in sorted(h, key=lambda s: s.encode())]
        if compare_rows(name, want, got, worst):
            passed += 1
        else:
            failed += 1
    print("largest relative differences from scipy: " +
          ", ".join("%s %.3g" % (c, worst.get(c, 0.0)) for c in ("slower_share", "p_value", "tail_p_value")))
    print("%d passed, %d failed" % (passed, failed))
    return failed == 0


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "--check"
    if mode == "--print":
        print("INSERT INTO compare_expected VALUES")
        rows = regression_rows()
        print(",\n".join("\t(" + ", ".join(sql_value(r[c]) for c in COLUMNS) + ")" for r in rows) + ";")
    elif mode == "--check":
        sys.exit(0 if check() else 1)
    else:
        sys.exit("usage: compare_reference.py --print | --check")


if __name__ == "__main__":
    main()
