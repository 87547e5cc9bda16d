#!/usr/bin/env bash
# test/field/run.sh -- run the nginx field test (test/field/050_nginx_field.pl)
# against PostgreSQL NN (default 15): as root, install what it needs from
# Debian first (nginx-light, wrk, python3), without letting the package start
# the system's nginx service; then test/prove.sh runs it as postgres.
#
#   sudo bash test/field/run.sh [NN]
#   LP_FIELD_SECONDS=20 LP_FIELD_KEEP=/tmp/field sudo -E bash test/field/run.sh
set -uo pipefail
NN=${1:-15}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

need=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx-light)
command -v wrk >/dev/null 2>&1 || need+=(wrk)
[ -x /usr/bin/python3 ] || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "skipped field test: ${need[*]} missing and not root (apt-get install ${need[*]})"
		echo "0 passed, 0 failed"
		exit 0
	fi
	# The package would start nginx on port 80 of every address: forbid
	# service starts during the install unless a policy is already there.
	policy=/usr/sbin/policy-rc.d
	made_policy=
	if [ ! -e "$policy" ]; then
		printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && made_policy=1
	fi
	apt-get -o DPkg::Lock::Timeout=300 update -qq >/dev/null 2>&1
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -q "${need[@]}" >/dev/null ||
		echo "test/field/run.sh: apt-get install ${need[*]} failed" >&2
	[ -n "$made_policy" ] && rm -f "$policy"
fi

exec bash "$ROOT/test/prove.sh" "$NN" test/field/050_nginx_field.pl
