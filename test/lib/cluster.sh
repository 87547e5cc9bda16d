# test/lib/cluster.sh -- shared helpers: dependencies, build, throwaway cluster
# Source it; it defines lp_* functions and sets PG_CONFIG and PGBIN.

PG_MAJOR=${PG_MAJOR:-15}
# LP_PG_ROOT: a private root for the PostgreSQL installations (default /):
# version NN is then $LP_PG_ROOT/usr/lib/postgresql/NN, and lp_kit_install
# copies or unpacks it there (test/run.sh, so as to leave the system's
# servers, and the files of Debian packages, alone).
LP_PG_ROOT=${LP_PG_ROOT:-}
# LP_PG_BINDIR: another installation's bin directory (a private copy), as in test/prove.sh
PGBIN=${LP_PG_BINDIR:-$LP_PG_ROOT/usr/lib/postgresql/$PG_MAJOR/bin}
export PG_CONFIG=${PG_CONFIG:-$PGBIN/pg_config}
# LP_PG_BINDIR=/path/bin: use another installation (a private copy such as
# /opt/pg16-c/bin) for the server, psql and pg_config, as test/prove.sh does;
# nothing is then installed from Debian packages for the server.
if [ -n "${LP_PG_BINDIR:-}" ]; then
	PGBIN=$LP_PG_BINDIR
	export PG_CONFIG=$PGBIN/pg_config
	PG_MAJOR=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
fi
LP_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# The bin directory of PostgreSQL $1 under LP_PG_ROOT: $1 is a major
# version, or 18-cassert for the assert-enabled build of 18 (prefix
# /opt/pg18-cassert, from ../shared/pg).
lp_pg_bindir() {
	case $1 in
		18-cassert) echo "$LP_PG_ROOT/opt/pg18-cassert/bin" ;;
		*) echo "$LP_PG_ROOT/usr/lib/postgresql/$1/bin" ;;
	esac
}

# Point PG_MAJOR, PGBIN and PG_CONFIG at PostgreSQL $1 (as lp_pg_bindir).
# Always name the version's own programs: once several versions are
# installed, Debian's /usr/bin/pg_config and /usr/bin/psql pick the highest.
lp_use_version() {
	PG_MAJOR=${1%%-*}
	PGBIN=$(lp_pg_bindir "$1")
	export PG_CONFIG=$PGBIN/pg_config
}

# Make PostgreSQL $1 (as lp_pg_bindir) available under LP_PG_ROOT: nothing
# to do when it is there; under a private root, a copy of the system's
# installation when there is one; else the test kit of ../shared/pg beside
# the repository, unpacked.  Prints why not and returns 1 when the version
# cannot be had.
lp_kit_install() {
	local kit=$LP_ROOT/../shared/pg/postgresql-$1-debian12-amd64.tar.xz
	local dest=${LP_PG_ROOT:-/} bindir
	bindir=$(lp_pg_bindir "$1")
	[ -x "$bindir/pg_config" ] && return 0
	if [ -n "$LP_PG_ROOT" ] && [ -x "$(LP_PG_ROOT='' lp_pg_bindir "$1")/pg_config" ]; then
		lp_pg_copy "$1" || { echo "could not copy PostgreSQL $1 under $LP_PG_ROOT"; return 1; }
		return 0
	fi
	if [ ! -r "$kit" ]; then
		echo "no PostgreSQL $1 installed and no kit $kit"
		return 1
	fi
	lp_say "installing the PostgreSQL $1 kit from $kit under $dest"
	lp_root mkdir -p "$dest" && lp_root tar --no-overwrite-dir -C "$dest" -xJf "$kit" ||
		{ echo "could not unpack $kit"; return 1; }
	[ -x "$bindir/pg_config" ] || { echo "$kit holds no ${bindir#"$LP_PG_ROOT"}/pg_config"; return 1; }
}

# Copy the system's installation of PostgreSQL $1 under LP_PG_ROOT, paths
# kept: the programs find their libraries, share and include directories
# relative to their own (so Debian's 15, whose share and include
# directories lie outside /usr/lib/postgresql/15, moves with them).
lp_pg_copy() {
	local sys top d dirs=()
	sys=$(LP_PG_ROOT='' lp_pg_bindir "$1")
	top=$(dirname "$sys")
	dirs=("$top")
	for d in "$("$sys/pg_config" --sharedir)" "$("$sys/pg_config" --pkgincludedir)"; do
		case "$d/" in "$top"/*) ;; *) dirs+=("$d") ;; esac
	done
	lp_say "copying PostgreSQL $1 (${dirs[*]}) under $LP_PG_ROOT"
	for d in "${dirs[@]}"; do
		lp_root mkdir -p -m 755 "$LP_PG_ROOT$(dirname "$d")" && lp_root cp -a "$d" "$LP_PG_ROOT$d" || return 1
	done
}

# The Citus kit of ../shared/citus (Citus 13.2.2, built against PostgreSQL
# 15.20) goes into PostgreSQL 15 as its README says: the server brought to
# 15.20 first (lp_citus_server, before a private copy of the server is
# made), then the tree unpacked over the root of the installation
# (lp_citus_install).  Without the kit they say so and return 0:
# test/citus/060_citus.pl then skips itself.
LP_CITUS_KIT=$LP_ROOT/../shared/citus/citus-13.2.2-pg15-debian12-amd64.tar.xz
lp_citus_server() {
	local ver
	[ -r "$LP_CITUS_KIT" ] || return 0
	ver=$(/usr/lib/postgresql/15/bin/postgres --version | sed -n 's/.* 15\.\([0-9]*\).*/\1/p')
	[ "${ver:-0}" -ge 20 ] && return 0
	lp_say "Citus 13.2.2 needs PostgreSQL 15.20 (15.${ver:-?} installed): apt-get install postgresql-15"
	lp_root apt-get update -q >/dev/null
	lp_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql-15 >/dev/null ||
		lp_say "could not upgrade postgresql-15: the Citus test will be skipped"
	return 0
}
lp_citus_install() {
	local pkglib ver root
	pkglib=$("$PGBIN/pg_config" --pkglibdir)
	[ -f "$pkglib/citus.so" ] && return 0
	if [ ! -r "$LP_CITUS_KIT" ]; then
		lp_say "no Citus kit at $LP_CITUS_KIT: the Citus test (test/citus/060_citus.pl) will be skipped"
		return 0
	fi
	ver=$("$PGBIN/postgres" --version | sed -n 's/.* 15\.\([0-9]*\).*/\1/p')
	if [ "${ver:-0}" -lt 20 ]; then
		lp_say "Citus 13.2.2 needs PostgreSQL 15.20 ($PGBIN is 15.${ver:-?}): the Citus test will be skipped"
		return 0
	fi
	# the kit's paths are /usr/lib/postgresql/15/..., /usr/share/postgresql/15/...
	root=${PGBIN%/usr/lib/postgresql/15/bin}
	if [ "$root" = "$PGBIN" ]; then
		lp_say "$PGBIN does not end in /usr/lib/postgresql/15/bin, where the Citus kit goes: the Citus test will be skipped"
		return 0
	fi
	lp_say "installing Citus 13.2.2 from $LP_CITUS_KIT under ${root:-/}"
	lp_root tar --no-overwrite-dir -C "${root:-/}" -xJf "$LP_CITUS_KIT" ||
		lp_say "could not unpack $LP_CITUS_KIT: the Citus test will be skipped"
	return 0
}

# Checks of a scripted test: lp_check NAME COMMAND... records a pass when
# COMMAND succeeds and prints an ok/FAILED line; lp_checks_done prints the
# closing "N passed, N failed" and fails when any check failed.
LP_PASSED=0
LP_FAILED=0
lp_check() {
	local name=$1
	shift
	if "$@"; then LP_PASSED=$((LP_PASSED + 1)); printf 'ok     %s\n' "$name"
	else LP_FAILED=$((LP_FAILED + 1)); printf 'FAILED %s\n' "$name"; fi
}
lp_checks_done() {
	echo "$LP_PASSED passed, $LP_FAILED failed"
	[ "$LP_FAILED" = 0 ]
}

# Print a progress line on stderr.
lp_say() { printf '== %s\n' "$*" >&2; }

# Run a command as root, through sudo when we are not root.
lp_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# Install Debian packages that are missing (apt-get update once, only if needed).
lp_apt() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	lp_say "installing ${missing[*]}"
	lp_root apt-get update -q >/dev/null
	lp_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
}

# lp_apt, without letting a package start its service (nginx-light would
# start the system nginx on port 80): a temporary /usr/sbin/policy-rc.d that
# exits 101 forbids service starts during the install, unless one exists.
lp_apt_nostart() {
	local policy=/usr/sbin/policy-rc.d made= rc=0
	if [ ! -e "$policy" ]; then
		lp_root sh -c "printf '#!/bin/sh\nexit 101\n' >$policy && chmod 755 $policy" && made=1
	fi
	lp_apt "$@" || rc=$?
	[ -n "$made" ] && lp_root rm -f "$policy"
	return $rc
}

# The server, its build headers (PGXS, pg_regress, the TAP modules), a
# compiler, IPC::Run for the TAP tests and rsync for private build copies.
lp_deps() {
	if [ -n "${LP_PG_BINDIR:-}" ]; then
		lp_apt gcc make libipc-run-perl rsync	# the server is $LP_PG_BINDIR's
		return
	fi
	lp_apt postgresql-$PG_MAJOR postgresql-server-dev-$PG_MAJOR gcc make libipc-run-perl rsync
}

# Build and install the extension into the server's directories.
lp_build_install() {
	lp_say "building logp95"
	# objects built against another server (or other flags) are rebuilt:
	# make alone would install them, and the server could not load them
	local stamp="$LP_ROOT/.lp-build-stamp" want
	want="$("$PG_CONFIG" --version) $("$PG_CONFIG" --includedir-server) ${PG_CFLAGS:-}"
	if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
		make -C "$LP_ROOT" -s clean >/dev/null
		printf '%s' "$want" >"$stamp"
	fi
	make -C "$LP_ROOT" -s PG_CONFIG="$PG_CONFIG" ${PG_CFLAGS:+PG_CFLAGS="$PG_CFLAGS"} >/dev/null
	lp_root make -C "$LP_ROOT" -s PG_CONFIG="$PG_CONFIG" install >/dev/null
}

# Run a command as the postgres OS user (the server refuses to run as root).
lp_as_pg() {
	if [ "$(id -un)" = postgres ]; then "$@"
	elif [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"
	else sudo -u postgres "$@"; fi
}

# Start a throwaway cluster on a Unix socket in a fresh temporary directory.
# Exports PGHOST, PGPORT, PGUSER, PGDATABASE for psql and pg_regress.
# Extra "name=value" arguments go to postgresql.conf.
lp_cluster_start() {
	LP_TMP=$(mktemp -d /tmp/logp95-pg.XXXXXX)
	chmod 755 "$LP_TMP"
	chown postgres: "$LP_TMP" 2>/dev/null || lp_root chown postgres: "$LP_TMP"
	export PGHOST=$LP_TMP PGPORT=${LP_PORT:-$((20000 + RANDOM % 20000))} PGUSER=postgres PGDATABASE=postgres
	lp_as_pg "$PGBIN/initdb" --no-sync -D "$LP_TMP/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
	{
		echo "listen_addresses = ''"
		echo "unix_socket_directories = '$LP_TMP'"
		echo "port = $PGPORT"
		echo "fsync = off"
		echo "shared_buffers = 512MB"
		echo "max_parallel_workers_per_gather = 2"
		local kv
		for kv in "$@"; do echo "$kv"; done
	} | lp_as_pg tee -a "$LP_TMP/data/postgresql.conf" >/dev/null
	lp_as_pg "$PGBIN/pg_ctl" -D "$LP_TMP/data" -l "$LP_TMP/server.log" -w -t 60 start >/dev/null
	trap lp_cluster_stop EXIT
}

# Stop the cluster and remove its directory.
lp_cluster_stop() {
	[ -n "${LP_TMP:-}" ] && [ -d "$LP_TMP" ] || return 0
	lp_as_pg "$PGBIN/pg_ctl" -D "$LP_TMP/data" -m fast -w stop >/dev/null 2>&1 || true
	rm -rf "$LP_TMP"
	LP_TMP=
}

# psql with the settings a script wants: stop on error, quiet, no psqlrc.
lp_psql() { "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }

# SQL that builds table $1 with the exact report computed in plain SQL from
# query $2, which yields (route, ms): test/lib/ref_report.sql with its
# placeholders filled (the replacements are quoted, so an & in the query is
# kept as it is).
lp_ref_sql() {
	local sql
	sql=$(<"$LP_ROOT/test/lib/ref_report.sql")
	sql=${sql//@TABLE@/"$1"}
	printf '%s\n' "${sql//@QUERY@/"$2"}"
}
