#!/usr/bin/env python3
# test/lib/grafana_sql.py -- Grafana PostgreSQL queries with their macros replaced by literals
#
#   grafana_sql.py < query.sql                 # one query on stdin, printed ready for psql
#   grafana_sql.py DASHBOARD.json OUTDIR       # every panel query into OUTDIR/panelNN.sql;
#                                              # prints "NN <TAB> panel title <TAB> target refId"
#
# What Grafana's PostgreSQL data source does with the macros, over a fixed
# range (LP_GRAFANA_FROM, LP_GRAFANA_TO; default 2026-11-07 00:00 to 03:00
# UTC) and interval (LP_GRAFANA_INTERVAL, default 5m): $__timeFilter(col)
# becomes "col BETWEEN from AND to", $__timeFrom() and $__timeTo() the
# bounds, $__interval the interval as Grafana writes it (1m, 5m, 30s), and
# dashboard variables ($route) a value (LP_GRAFANA_ROUTE).
import json, os, re, sys

t_from = os.environ.get('LP_GRAFANA_FROM', '2026-11-07T00:00:00Z')
t_to = os.environ.get('LP_GRAFANA_TO', '2026-11-07T03:00:00Z')
interval = os.environ.get('LP_GRAFANA_INTERVAL', '5m')
route = os.environ.get('LP_GRAFANA_ROUTE', '/api/v1/resource1')


def literal(sql):
    sql = re.sub(r'\$__timeFilter\(([^)]*)\)',
                 lambda m: "%s BETWEEN '%s' AND '%s'" % (m.group(1).strip(), t_from, t_to), sql)
    sql = sql.replace('$__timeFrom()', "'%s'" % t_from).replace('$__timeTo()', "'%s'" % t_to)
    sql = sql.replace('$__interval_ms', str(int(re.match(r'(\d+)', interval).group(1)) *
                                            {'s': 1000, 'm': 60000, 'h': 3600000}[interval[-1]]))
    sql = sql.replace('$__interval', interval)
    sql = re.sub(r'\$\{route(:[a-z]+)?\}|\$route\b', route, sql)
    left = re.findall(r'\$__\w+|\$\{?\w+', sql)
    if left:
        sys.exit('grafana_sql.py: no literal for %s' % ', '.join(sorted(set(left))))
    return sql


if len(sys.argv) == 1:
    sys.stdout.write(literal(sys.stdin.read()))
    sys.exit(0)

dash = json.load(open(sys.argv[1], encoding='utf-8'))
out = sys.argv[2]
n = 0


def panels(ps):
    for p in ps:
        yield p
        yield from panels(p.get('panels', []))


for p in panels(dash.get('panels', [])):
    for t in p.get('targets', []):
        if 'rawSql' not in t:
            continue
        n += 1
        open(os.path.join(out, 'panel%02d.sql' % n), 'w', encoding='utf-8').write(literal(t['rawSql']) + ';\n')
        print('%02d\t%s\t%s' % (n, p.get('title', ''), t.get('refId', '')))
for v in dash.get('templating', {}).get('list', []):
    if v.get('type') == 'query':
        q = v.get('query')
        q = q.get('rawSql', q.get('query')) if isinstance(q, dict) else q
        n += 1
        open(os.path.join(out, 'panel%02d.sql' % n), 'w', encoding='utf-8').write(literal(q) + ';\n')
        print('%02d\tvariable %s\t' % (n, v.get('name', '')))
