# test/bench/hugepages.sh -- LP_BENCH_HUGEPAGES=1 for the benchmarks (sourced by
# bench.sh and tail.sh): run the server with huge_pages = on.
#
# The caller keeps its server settings in the array CONF and gives the
# reserved pages back at its exit: [ -n "$HUGE_OLD" ] && echo "$HUGE_OLD" >
# /proc/sys/vm/nr_hugepages.
HUGE_OLD=

# LP_BENCH_HUGEPAGES=1: reserve 2 MB pages for shared_buffers (2 GB) plus
# the rest of the server's shared memory, and ask for huge_pages = on.  Fresh
# parallel workers then map shared buffers with 2 MB pages instead of
# faulting them in 4 kB at a time.
bench_hugepages() {
	local want=1200 got
	if [ "${LP_BENCH_HUGEPAGES:-0}" != 1 ]; then
		CONF+=(huge_pages=off)	# the same run whatever the machine has reserved
		return 0
	fi
	if [ "$(id -u)" != 0 ]; then
		echo "huge pages: skipped (LP_BENCH_HUGEPAGES=1 needs root to set vm.nr_hugepages)"
		CONF+=(huge_pages=off)
		return 0
	fi
	HUGE_OLD=$(cat /proc/sys/vm/nr_hugepages)
	echo "$want" > /proc/sys/vm/nr_hugepages
	got=$(cat /proc/sys/vm/nr_hugepages)
	if [ "$got" -lt "$want" ]; then
		echo "huge pages: skipped (only $got of $want 2 MB pages could be reserved)"
		echo "$HUGE_OLD" > /proc/sys/vm/nr_hugepages
		HUGE_OLD=
		CONF+=(huge_pages=off)
		return 0
	fi
	CONF+=(huge_pages=on)
	echo "huge pages: vm.nr_hugepages $HUGE_OLD -> $got for this run; huge_pages = on"
}

