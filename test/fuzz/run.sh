#!/usr/bin/env bash
# test/fuzz/run.sh -- build the libFuzzer harnesses and run each for a bounded time
#
#   test/fuzz/run.sh [SECONDS_PER_HARNESS]     (default $LP_FUZZ_SECONDS or 60)
#
# Harnesses: parse (lp_parse_line), decode (lp_validate, lp_decode_into,
# lp_reader, lp_encode round trip), hex (lp_hex_decode + the same checks),
# formats (lp_parse_combined in the four combined formats, lp_combined_ts,
# the ISO and CLF timestamp parsers, the request-time converters).
# Built with clang -fsanitize=fuzzer,address,undefined into test/fuzz/build/
# (gitignored); seeds come from test/fuzz/corpus/<harness>/, new inputs go to
# build/corpus-<harness>/, crashes to build/crash-<harness>-*.  Prints the
# executions of each harness and exits non-zero on any crash.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../../src
build=$here/build
secs=${1:-${LP_FUZZ_SECONDS:-60}}
CLANG=${CLANG:-clang}
harnesses=(parse decode hex formats)

mkdir -p "$build"
flags=(-g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
	-fno-sanitize-recover=all -I"$src" -I"$here")
units=("$src/lp_parse.c" "$src/lp_state.c" "$src/lp_codec.c")
# fuzz_formats links the format and timestamp units instead
formats_units=("$src/lp_formats.c" "$src/lp_ts.c" "$src/lp_parse.c")
# build the harnesses side by side; skip one that is up to date
pids=()
for h in "${harnesses[@]}"; do
	hu=("${units[@]}")
	[ "$h" = formats ] && hu=("${formats_units[@]}")
	fresh=1
	for f in "$here/fuzz_$h.c" "$here/fuzz_common.h" "${hu[@]}" "$src"/lp_*.h; do
		[ "$f" -nt "$build/fuzz_$h" ] && fresh=0
	done
	[ -x "$build/fuzz_$h" ] && [ "$fresh" = 1 ] && continue
	"$CLANG" "${flags[@]}" -o "$build/fuzz_$h" "$here/fuzz_$h.c" "${hu[@]}" \
		> "$build/build-$h.log" 2>&1 &
	pids+=($!)
done
for p in "${pids[@]}"; do
	wait "$p" || { cat "$build"/build-*.log; echo "fuzz: cannot build the harnesses"; exit 1; }
done

status=0
total=0
for h in "${harnesses[@]}"; do
	mkdir -p "$build/corpus-$h"
	opts=()
	[ -f "$here/$h.dict" ] && opts+=(-dict="$here/$h.dict")
	# keep inputs small enough for many executions; the seeds fit
	case $h in
		decode) opts+=(-max_len=4096) ;;
		hex) opts+=(-max_len=8192) ;;
		formats) opts+=(-max_len=1024) ;;
	esac
	"$build/fuzz_$h" -max_total_time="$secs" -print_final_stats=1 -timeout=10 \
		-rss_limit_mb=2048 -artifact_prefix="$build/crash-$h-" "${opts[@]}" \
		"$build/corpus-$h" "$here/corpus/$h" > "$build/$h.log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/$h.log" | tail -n 1)
	cov=$(grep -aoE 'cov: [0-9]+' "$build/$h.log" | tail -n 1)
	if [ "$rc" != 0 ]; then
		grep -aE 'ERROR|SUMMARY|runtime error|Test unit written' "$build/$h.log" | head -n 20
		echo "fuzz_$h: CRASH (exit $rc) after ${execs:-?} executions; log $build/$h.log"
		status=1
	else
		echo "fuzz_$h: ${execs:-?} executions in ${secs} s, ${cov:-cov: ?}, no crash"
	fi
	total=$((total + ${execs:-0}))
done
echo "fuzz: $total executions in all"
exit $status
