#!/usr/bin/env bash
# test/package.sh -- build the Debian package postgresql-15-logp95 the way
# Debian builds extension packages (dpkg-buildpackage + pg_buildext) from a
# copy of the working tree, check its file list, install it, CREATE EXTENSION
# in a throwaway cluster, remove it, and put back whatever logp95 files were
# installed before (the source-built installation the other tests use).
# PostgreSQL kits in /usr/lib/postgresql/<major> that are not Debian packages
# (16, 18 here) get a package built too, checked by file list and by LOADing
# its library into that kit's server; they are not installed (see below).
# Last line "N passed, N failed".
#
# The install checks (5. below) are skipped, with a line saying so, when
# postgresql-15-logp95 is installed already (they would remove it) and when
# LP_PG_ROOT is set (test/run.sh testing private copies of the servers:
# the package goes into the system's server).
#
#   sudo test/package.sh
#   LP_PKG_VERSIONS=15 sudo test/package.sh     # only the Debian-packaged 15
set -euo pipefail
. "$(dirname "$0")/lib/cluster.sh"
cd "$LP_ROOT"
# the package is for the system's server, whatever LP_PG_ROOT or LP_PG_BINDIR say
PGBIN=/usr/lib/postgresql/$PG_MAJOR/bin


# The build dependencies of debian/control, build-essential (which Debian
# assumes) and the tools used here.
lp_apt build-essential dpkg-dev debhelper postgresql-all postgresql-server-dev-all git

extver=$(sed -n "s/^default_version = '\(.*\)'/\1/p" logp95.control)
debver=$(sed -n '1s/^logp95 (\([^)]*\)).*/\1/p' debian/changelog)
arch=$(dpkg --print-architecture)
pkg=postgresql-$PG_MAJOR-logp95

# The majors to build for: every /usr/lib/postgresql/<major> with a working
# pg_config from 15 on (debian/pgversions says 15+), unless LP_PKG_VERSIONS
# names them.  pg_buildext's own "installed" list only knows the majors whose
# postgresql-server-dev-<major> is a Debian package, so name them explicitly.
if [ -n "${LP_PKG_VERSIONS:-}" ]; then
	versions=$LP_PKG_VERSIONS
else
	versions=$(for c in /usr/lib/postgresql/*/bin/pg_config; do
		v=$(basename "$(dirname "$(dirname "$c")")")
		[ "$v" -ge 15 ] 2>/dev/null && "$c" --version >/dev/null 2>&1 && echo "$v"
	done | sort -n | tr '\n' ' ')
fi
versions=${versions% }
printf '# logp95 %s, Debian version %s, building for PostgreSQL %s\n' "$extver" "$debver" "$versions"

tmp=$(mktemp -d /tmp/logp95-pkg.XXXXXX)
chmod 755 "$tmp"
installed_by_us=
restore=

# Undo everything on the way out, failure or not: the cluster, the package,
# the logp95 files that were installed before, the scratch directory.
cleanup() {
	lp_cluster_stop
	if [ -n "$installed_by_us" ]; then
		dpkg -r "$pkg" >/dev/null 2>&1 || true
		installed_by_us=
	fi
	if [ -n "$restore" ]; then
		tar -C / -xpf "$tmp/before.tar"
		restore=
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM	# exit runs cleanup through the EXIT trap

# 1. A copy of the working tree: tracked and untracked files that git does
# not ignore (uncommitted work included, build products left out).
src=$tmp/src/logp95
mkdir -p "$src"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -z -co --exclude-standard | while IFS= read -r -d '' f; do
		[ -e "$f" ] && printf '%s\0' "$f"
	done | tar --null -T - -cf - | tar -xf - -C "$src"
else
	tar --exclude=./.git -cf - . | tar -xf - -C "$src"
	make -s -C "$src" clean >/dev/null 2>&1 || true
fi
# pg_virtualenv runs the build-time regression tests as postgres, and the
# file_fdw test makes the server read test/data from the copy
chmod -R a+rX "$tmp/src"

# 2. debian/control as committed must be what debian/control.in makes
lp_check "debian/control is up to date with debian/control.in (pg_buildext checkcontrol)" \
	sh -c "cd '$src' && env -u PG_SUPPORTED_VERSIONS -u DEB_PG_SUPPORTED_VERSIONS pg_buildext checkcontrol >/dev/null"

# 2b. What the build runs needs no package that Build-Depends does not
# bring: pg_buildext installcheck loads PostgreSQL's test modules, which
# use IPC::Run (a normal user's dpkg-buildpackage stopped without it)
lp_check "debian/control Build-Depends names libipc-run-perl" \
	sh -c "cd '$src' && dpkg-checkbuilddeps >/dev/null 2>&1 && sed -n '/^Build-Depends:/,/^[A-Z]/p' debian/control | grep -q 'libipc-run-perl'"

# 3. dpkg-buildpackage, with none of the test environment leaking in (a
# cluster's PGPORT is taken by pg_virtualenv, PG_CFLAGS would add -Werror,
# LP_TEST_DATA_DIR may name a directory already removed)
buildenv=(env -u PGHOST -u PGPORT -u PGUSER -u PGDATABASE -u PG_CONFIG -u PG_CFLAGS -u LP_TEST_DATA_DIR
	PG_SUPPORTED_VERSIONS="$versions")
if [ "$versions" != "$PG_MAJOR" ]; then
	# list a postgresql-<major>-logp95 package for each major being built
	(cd "$src" && "${buildenv[@]}" pg_buildext updatecontrol)
fi
lp_say "dpkg-buildpackage -us -uc -b for PostgreSQL $versions (log: $tmp/build.log)"
start=$(date +%s)
if (cd "$src" && "${buildenv[@]}" dpkg-buildpackage -us -uc -b) > "$tmp/build.log" 2>&1 </dev/null; then
	lp_check "dpkg-buildpackage -us -uc -b ($(($(date +%s) - start)) s)" true
else
	tail -n 60 "$tmp/build.log"
	lp_check "dpkg-buildpackage -us -uc -b" false
fi
lp_check "the build ran the regression tests against $pkg (pg_buildext installcheck)" \
	grep -q "### End $PG_MAJOR installcheck ###" "$tmp/build.log"
for v in $versions; do
	if grep -q "PostgreSQL $v installation does not support 'extension_destdir'" "$tmp/build.log"; then
		printf '# %s: no build-time regression tests (pg_virtualenv needs the extension_destdir patch of Debian'"'"'s own PostgreSQL packages)\n' "$v"
	fi
done

# 3b. The README's install commands: the Build-Depends it installs, and the
# file it installs is the one the build made (it named 1.1-1 after the
# version became 1.2-1)
readme_deb=$(sed -n 's|^sudo apt install \.\./\(postgresql-[^ ]*\.deb\).*|\1|p' README.md)
lp_check "README.md installs ../$readme_deb, which names the package built ($(cd "$tmp/src" && ls $readme_deb 2>/dev/null | tr '\n' ' '))" \
	sh -c "cd '$tmp/src' && test \"\$(ls $readme_deb 2>/dev/null)\" = '${pkg}_${debver}_$arch.deb'"
lp_check "README.md's apt-get install line brings every Build-Depends package" \
	sh -c "deps=\$(sed -n '/^Build-Depends:/,/^[A-Z]/p' debian/control | sed -n 's/^ \\([a-z0-9.+-]*\\).*/\\1/p' | grep -v '^debhelper-compat\$'); line=\$(grep '^sudo apt-get install' README.md | head -n 1); for d in \$deps; do case \" \$line \" in *\" \$d \"*) ;; *) echo \"missing: \$d\"; exit 1 ;; esac; done"

# 4. Each package's files: the library in pkglibdir (and its JIT bitcode
# when the server was built with LLVM), the control file and every
# logp95--*.sql script of the tree in sharedir/extension, the docs; nothing else
scripts=$(ls logp95--*.sql | sort | tr '\n' ' ')
for v in $versions; do
	deb=$tmp/src/postgresql-$v-logp95_${debver}_$arch.deb
	lp_check "postgresql-$v-logp95_${debver}_$arch.deb was built" test -f "$deb"
	[ -f "$deb" ] || continue
	pgc=/usr/lib/postgresql/$v/bin/pg_config
	lib=$("$pgc" --pkglibdir)
	ext=$("$pgc" --sharedir)/extension
	doc=/usr/share/doc/postgresql-$v-logp95
	dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|' | grep -v '/$' > "$tmp/files-$v"
	printf '# postgresql-%s-logp95:\n' "$v"; sed 's/^/#   /' "$tmp/files-$v"
	lp_check "$v: $lib/logp95.so" grep -qxF "$lib/logp95.so" "$tmp/files-$v"
	lp_check "$v: $ext/logp95.control" grep -qxF "$ext/logp95.control" "$tmp/files-$v"
	lp_check "$v: $ext holds exactly the tree's scripts ($scripts)" \
		test "$(sed -n "s|^$ext/\(logp95--.*\.sql\)$|\1|p" "$tmp/files-$v" | sort | tr '\n' ' ')" = "$scripts"
	lp_check "$v: $doc/copyright" grep -qxF "$doc/copyright" "$tmp/files-$v"
	unexpected=$(grep -vxE "$lib/logp95\.so|$lib/bitcode/logp95/src/[A-Za-z0-9_]+\.bc|$lib/bitcode/logp95\.index\.bc|$ext/logp95\.control|$ext/logp95--[0-9.]+(--[0-9.]+)?\.sql|$doc/(copyright|changelog\.Debian\.gz|changelog\.gz|README\.md|docs/[a-z0-9_-]+\.(md|png)|docs/grafana/[a-z0-9_-]+\.json)" "$tmp/files-$v" || true)
	[ -n "$unexpected" ] && printf '# unexpected: %s\n' $unexpected
	lp_check "$v: nothing unexpected in the package" test -z "$unexpected"
	lp_check "$v: Depends on postgresql-$v" sh -c "dpkg-deb -f '$deb' Depends | grep -q 'postgresql-$v\\b'"
	# the packaged README's links lead to files of the package (issue 26:
	# it linked docs/*.md that the package did not hold)
	lp_check "$v: every doc file of the tree is in the package ($(cd docs && ls *.md *.png grafana/*.json 2>/dev/null | tr '\n' ' '))" \
		sh -c "cd docs && for f in *.md *.png grafana/*.json; do [ -e \"\$f\" ] || continue; grep -qxF '$doc/docs/'\"\$f\" '$tmp/files-$v' || exit 1; done"
	dpkg-deb -x "$deb" "$tmp/docx$v"
	lp_check "$v: every relative link of the packaged README.md, CHANGELOG.md and docs resolves (test/doc_links.py)" \
		python3 test/doc_links.py "$tmp/docx$v$doc"
done

# 5. Install the 15 package, use it, remove it.
# sums: the checksum of every file under the paths in before[]
sums() { [ ${#before[@]} -eq 0 ] || (cd / && find "${before[@]}" -type f -exec sha256sum {} + | sort); }
deb=$tmp/src/${pkg}_${debver}_$arch.deb
if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
	printf 'skipped: installing, using and removing %s: it is installed here already (dpkg -r %s to run these checks)\n' "$pkg" "$pkg"
elif [ -n "${LP_PG_ROOT:-}" ]; then
	printf 'skipped: installing, using and removing %s: LP_PG_ROOT is set (this run leaves the system'"'"'s PostgreSQL %s alone)\n' "$pkg" "$PG_MAJOR"
elif [ -f "$deb" ]; then
	lib=$("$PGBIN/pg_config" --pkglibdir)
	ext=$("$PGBIN/pg_config" --sharedir)/extension
	# keep the logp95 files installed now (by make install) to put them back
	before=()
	for f in "$lib/logp95.so" "$lib/bitcode/logp95" "$lib/bitcode/logp95.index.bc" "$ext"/logp95.control "$ext"/logp95--*.sql; do
		[ -e "$f" ] && before+=("${f#/}")
	done
	tar -C / -cf "$tmp/before.tar" --files-from /dev/null
	[ ${#before[@]} -gt 0 ] && tar -C / -cpf "$tmp/before.tar" "${before[@]}"
	sums_before=$(sums)
	printf '# %d logp95 paths installed before the test, kept in %s\n' "${#before[@]}" "$tmp/before.tar"
	restore=1
	installed_by_us=1
	lp_check "dpkg -i $(basename "$deb")" sh -c "dpkg -i '$deb' > '$tmp/dpkg.log' 2>&1 || { cat '$tmp/dpkg.log'; exit 1; }"
	lp_check "dpkg --verify $pkg (installed files are the package's)" sh -c "test -z \"\$(dpkg --verify $pkg)\""

	cd "$tmp"	# initdb as postgres: a cwd it can enter (not a clone under /root)
	lp_cluster_start
	cd "$LP_ROOT"
	trap cleanup EXIT
	lp_say "cluster on $PGHOST port $PGPORT"
	lp_check "CREATE EXTENSION logp95" lp_psql -c "CREATE EXTENSION logp95"
	got=$(lp_psql -tA -c "SELECT extversion FROM pg_extension WHERE extname = 'logp95'" || true)
	lp_check "installed version '$got' is default_version $extver" test "$got" = "$extver"
	got=$(lp_psql -tA -c "SELECT requests, p95_ms FROM logp95_report((SELECT logp95_agg(l) FROM (VALUES ('2026-11-30T10:00:00Z GET /a 7')) v(l)))" || true)
	lp_check "logp95_report over one line answers 1|7 (got '$got')" test "$got" = "1|7"
	if [ -f logp95--1.0.sql ] && [ "$extver" != 1.0 ]; then
		got=$(lp_psql -c "CREATE DATABASE up" && lp_psql -tA -d up -c "CREATE EXTENSION logp95 VERSION '1.0'" \
			-c "ALTER EXTENSION logp95 UPDATE" -c "SELECT extversion FROM pg_extension WHERE extname = 'logp95'" 2>&1 || true)
		lp_check "CREATE EXTENSION logp95 VERSION '1.0' then ALTER EXTENSION UPDATE reaches $extver (got '$got')" test "$got" = "$extver"
	fi
	lp_cluster_stop

	lp_check "dpkg -r $pkg" sh -c "dpkg -r '$pkg' > '$tmp/dpkg.log' 2>&1 || { cat '$tmp/dpkg.log'; exit 1; }"
	installed_by_us=
	lp_check "$pkg is gone" sh -c "! dpkg-query -W -f='\${Status}' '$pkg' 2>/dev/null | grep -q 'install ok installed'"
	tar -C / -xpf "$tmp/before.tar"
	restore=
	sums_after=$(sums)
	lp_check "the ${#before[@]} logp95 paths installed before are back, byte for byte" test "$sums_before" = "$sums_after"
fi

# 6. The packages for other majors are not installed: they Depend on
# postgresql-<major>, which a tarball kit is not, so dpkg -i would need
# --force-depends and leave dpkg with a broken dependency.  Their library is
# LOADed into that major's server instead, straight from the package.
for v in $versions; do
	[ "$v" = "$PG_MAJOR" ] && continue
	deb=$tmp/src/postgresql-$v-logp95_${debver}_$arch.deb
	[ -f "$deb" ] || continue
	x=$tmp/x$v
	dpkg-deb -x "$deb" "$x"
	chmod -R a+rX "$x"
	so=$x$(/usr/lib/postgresql/$v/bin/pg_config --pkglibdir)/logp95.so
	PGBIN=/usr/lib/postgresql/$v/bin
	cd "$tmp"
	lp_cluster_start
	cd "$LP_ROOT"
	trap cleanup EXIT
	got=$(lp_psql -tA -c "LOAD '$so'" -c "SHOW logp95.on_malformed" 2>&1 || true)
	lp_check "$v: the package's logp95.so loads into PostgreSQL $v (its setting logp95.on_malformed then shows '$got')" test "$got" = error
	lp_cluster_stop
done
PGBIN=/usr/lib/postgresql/$PG_MAJOR/bin

lp_checks_done
