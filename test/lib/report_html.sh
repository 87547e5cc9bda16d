# test/lib/report_html.sh -- run.sh --html: one self-contained, offline HTML report of the job
# Sourced by run.sh after its screen, with its cluster running and its
# tables there (job, routes, parsed, log_lines) and its q/qv helpers.
# Defines lp_report_html FILE MINREQ.
#
# The page holds everything it needs: the data as one JSON object and
# Chart.js from Debian's libjs-chart.js (MIT), inlined; nothing is fetched.
# Three charts (the canvases, in this order): p95 of the slowest routes,
# p95 per minute of the top five of them over the log's span (per hour
# past a day, per day past 30 days), the latency histogram and CDF of the
# slowest route; above them the whole-service line, beside them a table of
# the slowest routes (requests, per second, 5xx share).  When the charts
# are drawn the page writes "charts: N drawn, errors: M" into #lp-status
# and each canvas's place into its data-rect attribute (test/main_command.sh
# reads both).

LP_CHARTJS=${LP_CHARTJS:-/usr/share/javascript/chart.js/chart.min.js}

# The job as one JSON object (every "<" written \u003c, so that no route can
# close the script element it sits in).
lp_report_json() {
	local minreq=$1
	# the buckets' width, then the state of each bucket in a table of its
	# own (one parallel pass over the lines), then the document
	qv "
CREATE TABLE html_width AS
SELECT CASE WHEN j.seconds IS NULL THEN NULL
            WHEN j.seconds <= 86400 THEN interval '1 minute'
            WHEN j.seconds <= 30 * 86400 THEN interval '1 hour'
            ELSE interval '1 day' END AS w,
       CASE WHEN j.seconds <= 86400 THEN 'minute' WHEN j.seconds <= 30 * 86400 THEN 'hour' ELSE 'day' END AS label,
       date_trunc('minute', j.t0) AS origin
  FROM job j;
CREATE TABLE html_per AS
SELECT date_bin(width.w, p.ts, width.origin) AS b,
       logp95_agg(l.line, :'fmt', 'skip' || coalesce(nullif(',' || :'opts', ','), '')) AS s
  FROM log_lines l JOIN parsed p USING (n), html_width width
 WHERE p.ts IS NOT NULL AND width.w IS NOT NULL
 GROUP BY 1;
WITH j AS (SELECT * FROM job),
top AS (
	SELECT route, requests, per_second, error_pct, p50_ms, p95_ms, p99_ms, max_ms
	  FROM routes WHERE requests >= :minreq ORDER BY p95_ms DESC, route LIMIT 20),
whole AS (
	SELECT r.*, e.errors FROM j
	 CROSS JOIN logp95_report(logp95_total(j.s)) r
	  LEFT JOIN logp95_red(logp95_total(j.s)) e ON true),
width AS (SELECT * FROM html_width),
buckets AS (
	SELECT g.b FROM j, width, generate_series(date_bin(width.w, j.t0, width.origin),
	                                          date_bin(width.w, j.t1, width.origin), width.w) g(b)
	 WHERE width.w IS NOT NULL),
five AS (SELECT route, p95_ms FROM top ORDER BY p95_ms DESC, route LIMIT 5),
per_route AS MATERIALIZED (
	SELECT per.b, r.route, r.p95_ms FROM html_per per, logp95_report(per.s) r
	 WHERE r.route IN (SELECT route FROM five)),
slow AS (SELECT route, requests FROM top ORDER BY p95_ms DESC, route LIMIT 1),
hist AS (
	SELECT h.* FROM slow, logp95_histogram((SELECT s FROM j), slow.route) h)
SELECT replace(json_build_object(
	'format', :'fmt',
	'options', :'opts',
	'min_requests', :minreq,
	'lines', (SELECT count(*) FROM parsed),
	'unread', (SELECT count(*) FROM parsed WHERE problem IS NOT NULL),
	't0', (SELECT t0 FROM j), 't1', (SELECT t1 FROM j), 'seconds', (SELECT seconds FROM j),
	'has_status', (SELECT has_status FROM j),
	'routes_total', (SELECT count(*) FROM routes),
	'routes_shown', (SELECT count(*) FROM routes WHERE requests >= :minreq),
	'whole', (SELECT json_build_object('requests', requests, 'errors', coalesce(errors, 0),
	                                   'p50', p50_ms, 'p95', p95_ms, 'p99', p99_ms, 'max', max_ms) FROM whole),
	'top', (SELECT coalesce(json_agg(json_build_object('route', route, 'requests', requests,
	                                 'per_second', per_second, 'error_pct', error_pct,
	                                 'p50', p50_ms, 'p95', p95_ms, 'p99', p99_ms, 'max', max_ms)
	                                 ORDER BY p95_ms DESC, route), '[]') FROM top),
	'width', (SELECT label FROM width WHERE w IS NOT NULL),
	'buckets', (SELECT coalesce(json_agg(to_char(b AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') ORDER BY b), '[]') FROM buckets),
	'series', (SELECT coalesce(json_agg(json_build_object('route', f.route,
	                  'p95', (SELECT json_agg(pr.p95_ms ORDER BY bk.b) FROM buckets bk
	                            LEFT JOIN per_route pr ON pr.b = bk.b AND pr.route = f.route))
	                  ORDER BY f.p95_ms DESC, f.route), '[]') FROM five f),
	'slowest', (SELECT json_build_object('route', route, 'requests', requests) FROM slow),
	'hist', (SELECT coalesce(json_agg(json_build_object('le', le_ms, 'requests', requests, 'cumulative', cumulative)
	                                  ORDER BY le_ms NULLS LAST), '[]') FROM hist)
)::text, '<', '\\u003c')" "$minreq"
}

# Write the report to $1; $2 = the --min-requests in force.
lp_report_html() {
	local out=$1 minreq=$2 json tmp
	[ -r "$LP_CHARTJS" ] || lp_apt libjs-chart.js
	[ -r "$LP_CHARTJS" ] || { echo "run.sh: no $LP_CHARTJS (Debian's libjs-chart.js): no HTML report" >&2; return 1; }
	json=$(lp_report_json "$minreq")
	tmp=$(mktemp "$out.XXXXXX")
	{
		cat <<'EOF'
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>logp95: which routes are slow</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; background: #fff; width: 1100px; }
h1 { font-size: 20px; margin: 0 0 8px; }
h2 { font-size: 16px; margin: 24px 0 8px; }
.whole { background: #f3f6fa; padding: 10px 14px; border-radius: 6px; }
.chart { position: relative; width: 1100px; height: 420px; }
table { border-collapse: collapse; margin-top: 8px; }
td, th { padding: 2px 10px; text-align: right; border-bottom: 1px solid #e4e4e4; }
td:first-child, th:first-child { text-align: left; max-width: 520px; overflow-wrap: anywhere; }
#lp-status { color: #888; font-size: 12px; }
</style>
<script>
/* errors of the page, shown in #lp-status (and read by the tests) */
window.lpErrors = [];
window.addEventListener('error', function (e) { window.lpErrors.push(String(e.message)); });
</script>
<script>
EOF
		cat "$LP_CHARTJS"
		printf '\n</script>\n<script>\nconst LP = %s;\n</script>\n' "$json"
		cat <<'EOF'
</head>
<body>
<h1>logp95: which routes are slow</h1>
<p id="lp-source"></p>
<p class="whole" id="lp-whole"></p>
<h2 id="lp-top-title">p95 of the slowest routes</h2>
<div class="chart"><canvas id="lp-top"></canvas></div>
<table id="lp-table"><thead><tr><th>route</th><th>requests</th><th>per second</th><th>5xx</th><th>p50 ms</th><th>p95 ms</th><th>p99 ms</th><th>max ms</th></tr></thead><tbody></tbody></table>
<h2 id="lp-time-title">p95 over time</h2>
<div class="chart"><canvas id="lp-time"></canvas></div>
<h2 id="lp-hist-title">latency of the slowest route</h2>
<div class="chart"><canvas id="lp-hist"></canvas></div>
<p id="lp-status">drawing</p>
<script>
(function () {
	'use strict';
	const fmt = (x, d) => x === null || x === undefined ? 'n/a' :
		Number(x).toLocaleString('en-US', { minimumFractionDigits: d || 0, maximumFractionDigits: d || 0 });
	const cut = (s, n) => s.length > n ? s.slice(0, n - 1) + '\u2026' : s;
	const text = (id, s) => { document.getElementById(id).textContent = s; };
	const colours = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd'];
	let drawn = 0;
	Chart.defaults.animation = false;
	Chart.defaults.responsive = true;
	Chart.defaults.maintainAspectRatio = false;

	text('lp-source', LP.lines.toLocaleString('en-US') + ' lines read as ' + LP.format +
		(LP.options ? ' (options ' + LP.options + ')' : '') + '; ' +
		(LP.unread ? LP.unread.toLocaleString('en-US') + ' could not be read; ' : 'every line read; ') +
		(LP.t0 ? 'time span ' + LP.t0 + ' to ' + LP.t1 : 'no time in the lines'));
	const w = LP.whole || {};
	const perSecond = LP.seconds ? w.requests / LP.seconds : null;
	text('lp-whole', 'whole service: ' + fmt(w.requests) + ' requests, ' + fmt(perSecond, 1) + ' per second, 5xx ' +
		(LP.has_status && w.requests ? fmt(100 * w.errors / w.requests, 2) + ' %' : 'n/a') +
		', p50 ' + fmt(w.p50) + ' ms, p95 ' + fmt(w.p95) + ' ms, p99 ' + fmt(w.p99) + ' ms, max ' + fmt(w.max) +
		' ms; ' + fmt(LP.routes_total) + ' routes');

	/* 1. p95 of the slowest routes */
	text('lp-top-title', 'p95 of the ' + LP.top.length + ' slowest routes among the ' + fmt(LP.routes_shown) +
		' with at least ' + LP.min_requests + ' requests (' + fmt(LP.routes_total - LP.routes_shown) + ' hidden)');
	new Chart(document.getElementById('lp-top'), {
		type: 'bar',
		data: {
			labels: LP.top.map(r => cut(r.route, 60)),
			datasets: [{ label: 'p95 ms', data: LP.top.map(r => r.p95), backgroundColor: '#1f77b4' }]
		},
		options: {
			indexAxis: 'y',
			plugins: {
				legend: { display: false },
				tooltip: { callbacks: { afterLabel: c => { const r = LP.top[c.dataIndex];
					return fmt(r.requests) + ' requests, 5xx ' + (r.error_pct === null ? 'n/a' : fmt(r.error_pct, 1) + ' %'); } } }
			},
			scales: { x: { title: { display: true, text: 'p95 latency, ms' }, beginAtZero: true } }
		}
	});
	drawn++;
	const tbody = document.querySelector('#lp-table tbody');
	LP.top.forEach(r => {
		const tr = document.createElement('tr');
		[r.route, fmt(r.requests), fmt(r.per_second, 2), r.error_pct === null ? 'n/a' : fmt(r.error_pct, 1) + ' %',
		 fmt(r.p50), fmt(r.p95), fmt(r.p99), fmt(r.max)].forEach(v => {
			const td = document.createElement('td');
			td.textContent = v;
			tr.appendChild(td);
		});
		tbody.appendChild(tr);
	});

	/* 2. p95 per minute (hour, day) of the top five routes */
	text('lp-time-title', LP.width ? 'p95 per ' + LP.width +
		' of the ' + LP.series.length + ' slowest routes, UTC' : 'p95 over time: the lines give no time');
	new Chart(document.getElementById('lp-time'), {
		type: 'line',
		data: {
			labels: LP.buckets,
			datasets: LP.series.map((s, i) => ({ label: cut(s.route, 50), data: s.p95, borderColor: colours[i % 5],
				backgroundColor: colours[i % 5], borderWidth: 1.5, pointRadius: LP.buckets.length > 120 ? 0 : 2, spanGaps: false }))
		},
		options: { scales: { y: { title: { display: true, text: 'p95 latency, ms' }, beginAtZero: true },
			x: { ticks: { maxTicksLimit: 12 } } } }
	});
	drawn++;

	/* 3. the latency histogram and CDF of the slowest route */
	const h = LP.hist;
	const total = h.length ? h[h.length - 1].cumulative : 0;
	text('lp-hist-title', LP.slowest ? 'latency of the slowest route, ' + cut(LP.slowest.route, 80) + ' (' +
		fmt(LP.slowest.requests) + ' requests): histogram and CDF' : 'latency of the slowest route: no route');
	new Chart(document.getElementById('lp-hist'), {
		data: {
			labels: h.map(b => b.le === null ? '+Inf' : '\u2264 ' + b.le),
			datasets: [
				{ type: 'bar', label: 'requests', data: h.map(b => b.requests), backgroundColor: '#1f77b4', yAxisID: 'y' },
				{ type: 'line', label: 'share at most (CDF)', data: h.map(b => total ? b.cumulative / total : null),
				  borderColor: '#d62728', backgroundColor: '#d62728', pointRadius: 0, yAxisID: 'cdf' }
			]
		},
		options: { scales: {
			x: { title: { display: true, text: 'latency, ms (at most)' } },
			y: { title: { display: true, text: 'requests' }, beginAtZero: true },
			cdf: { position: 'right', min: 0, max: 1, title: { display: true, text: 'CDF' }, grid: { drawOnChartArea: false } }
		} }
	});
	drawn++;

	document.querySelectorAll('canvas').forEach(c => {
		const r = c.getBoundingClientRect();
		c.dataset.rect = [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height].map(Math.round).join(',');
	});
	text('lp-status', 'charts: ' + drawn + ' drawn, errors: ' + window.lpErrors.length +
		(window.lpErrors.length ? ' (' + window.lpErrors.join('; ') + ')' : '') + '; made by logp95 run.sh');
})();
</script>
</body>
</html>
EOF
	} > "$tmp"
	chmod 644 "$tmp"
	mv "$tmp" "$out"
}
