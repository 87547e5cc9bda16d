#!/bin/bash
# test/bench/formats.sh -- every format's parser beside combined: instructions (callgrind) and ns a line
#
#   test/bench/formats.sh [lines] [name...]      (default 20000 lines; names: formats_driver.c)
#
# Builds formats_driver, runs it once under callgrind (--instr: one dump
# per parse loop, each loop once) and once natively (the fastest of 5
# repeats, each format timed in turns with combined), and prints one row
# a format: bytes a line, instructions a line and their ratio to
# combined's (the table entry's parser, the issue's reference), ns a line
# and its ratio to combined's of the same turns.  The targets of issue 23
# (docs/performance.md, "Formats"): nginx-combined within 1.2x, JSON
# lines within 2x, every other within 1.5x.  No timing is asserted: the
# figures are printed.  Needs valgrind.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
n=${1:-20000}
shift || true
make -s -C "$here" formats_driver
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$here/formats_driver" --instr "$n" "$@" \
	>/dev/null 2>"$tmp/vg.log" || { cat "$tmp/vg.log" >&2; exit 1; }
# each dump: "desc: Trigger: Client Request: NAME" and "summary: INSTRUCTIONS"
for f in "$tmp"/cg.out.*; do
	name=$(sed -n 's/^desc: Trigger: Client Request: //p' "$f")
	ir=$(sed -n 's/^summary: //p' "$f" | awk '{print $1}')
	[ -n "$name" ] && echo "$name $ir"
done > "$tmp/instr"
"$here/formats_driver" "$n" 5 "$@" > "$tmp/time"
echo "# $(date -u +%Y-%m-%d) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $n lines, ISA ${LOGP95_ISA:-best}"
awk -v n="$n" '
	FNR == NR { ir[$1] = $2 / n; next }
	{ bytes[$1] = $2; ns[$1] = $4; ratio[$1] = $8; order[++k] = $1 }
	END {
		printf "%-16s %7s %9s %7s %8s %7s\n", "format", "bytes", "instr", "x", "ns", "x"
		for (i = 1; i <= k; i++) {
			f = order[i]
			printf "%-16s %7.0f %9.1f %6.2fx %8.1f %7s\n", f, bytes[f], ir[f], ir[f] / ir["combined"], ns[f], ratio[f]
		}
	}' "$tmp/instr" "$tmp/time"
