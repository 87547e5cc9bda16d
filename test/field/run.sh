#!/usr/bin/env bash
# test/field/run.sh -- run the field tests (test/field/*.pl: nginx, Apache,
# Caddy, HAProxy, lighttpd, varnish) against PostgreSQL NN (default 15): as
# root, install what they need from Debian first (nginx-light, apache2,
# caddy, haproxy, lighttpd, varnish, wrk, python3), without letting the
# packages start their services; then test/prove.sh runs them as postgres.
# A server that is still missing makes its test skip, with a line saying so.
#
#   sudo bash test/field/run.sh [NN]
#   LP_FIELD_SECONDS=20 LP_FIELD_KEEP=/tmp/field sudo -E bash test/field/run.sh
set -uo pipefail
NN=${1:-15}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

need=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx-light)
[ -x /usr/sbin/apache2 ] || need+=(apache2)
command -v caddy >/dev/null 2>&1 || need+=(caddy)
[ -x /usr/sbin/haproxy ] || need+=(haproxy)
[ -x /usr/sbin/lighttpd ] || need+=(lighttpd)
[ -x /usr/sbin/varnishd ] || need+=(varnish)
command -v wrk >/dev/null 2>&1 || need+=(wrk)
[ -x /usr/bin/python3 ] || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "skipped field test: ${need[*]} missing and not root (apt-get install ${need[*]})"
		echo "0 passed, 0 failed"
		exit 0
	fi
	# The packages would start nginx, apache2, lighttpd and varnish on every
	# address: forbid service starts during the install unless a policy is
	# already there.
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

exec bash "$ROOT/test/prove.sh" "$NN" test/field/*.pl
