#!/usr/bin/env bash
# test/meta.sh -- release metadata agrees with itself: META.json (PGXN),
# logp95.control, the install and upgrade scripts, LICENSE, debian/changelog,
# and the zip of `make dist`.  Last line "N passed, N failed".
#
#   sudo test/meta.sh
set -euo pipefail
. "$(dirname "$0")/lib/cluster.sh"
cd "$LP_ROOT"


# perl and JSON::PP read META.json (perl-modules on Debian), unzip lists the
# zip, make and pg_config run `make dist` (the Makefile includes PGXS)
lp_apt perl unzip make git postgresql-server-dev-$PG_MAJOR

# meta KEY/KEY/... -- one value of META.json, empty when absent
meta() {
	perl -MJSON::PP -e '
		local $/; open my $f, "<", "META.json" or exit 1;
		my $v = JSON::PP->new->decode(<$f>);
		for my $k (split m{/}, $ARGV[0]) { $v = ref $v eq "HASH" ? $v->{$k} : undef }
		print defined $v && !ref $v ? $v : "";' "$1"
}

extver=$(sed -n "s/^default_version = '\(.*\)'/\1/p" logp95.control)
# PGXN wants a SemVer (major.minor.patch): 1.1 is published as 1.1.0
semver=$extver
case $semver in *.*.*) ;; *.*) semver=$semver.0 ;; *) semver=$semver.0.0 ;; esac
printf '# default_version %s, as SemVer %s\n' "$extver" "$semver"

lp_check "logp95.control has a default_version" test -n "$extver"
lp_check "META.json parses as JSON" perl -MJSON::PP -e 'local $/; open my $f, "<", "META.json" or die; JSON::PP->new->decode(<$f>)'
lp_check "META.json name is logp95" test "$(meta name)" = logp95
lp_check "META.json version $(meta version) is default_version $extver as SemVer" test "$(meta version)" = "$semver"
lp_check "META.json provides.logp95.version $(meta provides/logp95/version) is $semver" test "$(meta provides/logp95/version)" = "$semver"
pfile=$(meta provides/logp95/file)
lp_check "provides.logp95.file '$pfile' exists" test -n "$pfile" -a -f "$pfile"
dfile=$(meta provides/logp95/docfile)
lp_check "provides.logp95.docfile '$dfile' exists" test -n "$dfile" -a -f "$dfile"
lp_check "META.json requires PostgreSQL $(meta prereqs/runtime/requires/PostgreSQL) at runtime" test -n "$(meta prereqs/runtime/requires/PostgreSQL)"
lp_check "META.json meta-spec is 1.0.0" test "$(meta meta-spec/version)" = 1.0.0
lp_check "META.json release_status is stable, testing or unstable" grep -qxE 'stable|testing|unstable' <<<"$(meta release_status)"
for k in abstract maintainer generated_by; do
	lp_check "META.json has $k" test -n "$(meta "$k")"
done
lp_check "META.json license is postgresql" test "$(meta license)" = postgresql
lp_check "LICENSE exists and holds the PostgreSQL Licence" grep -q 'Permission to use, copy, modify, and distribute this software' LICENSE

# CREATE EXTENSION reaches default_version from an install script
# logp95--X.sql through upgrade scripts logp95--A--B.sql
reach() {
	perl -e '
		my ($target, @files) = @ARGV;
		my (%edge, @todo, %seen);
		for (@files) {
			if (/^logp95--([^-]+(?:-[^-]+)*?)--(.+)\.sql$/) { push @{$edge{$1}}, $2 }
			elsif (/^logp95--(.+)\.sql$/) { push @todo, $1 }
		}
		while (defined(my $v = shift @todo)) {
			next if $seen{$v}++;
			exit 0 if $v eq $target;
			push @todo, @{$edge{$v} || []};
		}
		exit 1;' "$extver" logp95--*.sql
}
lp_check "an install or upgrade path reaches $extver ($(ls logp95--*.sql | tr '\n' ' '))" reach

debver=$(sed -n '1s/^logp95 (\([^)]*\)).*/\1/p' debian/changelog)
upver=${debver#*:}
upver=${upver%-*}
lp_check "debian/changelog version $debver has upstream version $extver" test "$upver" = "$extver"
lp_check "debian/control.in builds postgresql-PGVERSION-logp95" grep -qx 'Package: postgresql-PGVERSION-logp95' debian/control.in

# make dist from the working tree's Makefile, run in a scratch directory
# (not in the source tree) against the repository's HEAD
tmp=$(mktemp -d /tmp/logp95-meta.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cp Makefile logp95.control "$tmp/"
gitdir=$(git rev-parse --absolute-git-dir)
zip=$tmp/logp95-$extver.zip
lp_check "make dist writes logp95-$extver.zip" \
	env GIT_DIR="$gitdir" make -s -C "$tmp" PG_CONFIG="$PG_CONFIG" dist
if [ -f "$zip" ]; then
	unzip -Z1 "$zip" > "$tmp/list"
	lp_check "every zip entry is under logp95-$extver/" \
		test -z "$(grep -v "^logp95-$extver/" "$tmp/list")"
	for f in logp95.control META.json LICENSE README.md Makefile $(git ls-tree --name-only HEAD | grep -E '^logp95--.*\.sql$'); do
		lp_check "zip holds logp95-$extver/$f" grep -qxF "logp95-$extver/$f" "$tmp/list"
	done
	lp_check "zip leaves out debian/, .ci/ and .git* (export-ignore)" \
		test -z "$(grep -E "^logp95-$extver/(debian/|\.ci/|\.git)" "$tmp/list")"
	lp_check "zip's META.json version is $semver" \
		test "$(unzip -p "$zip" "logp95-$extver/META.json" | perl -MJSON::PP -e 'local $/; print JSON::PP->new->decode(<STDIN>)->{version}')" = "$semver"
fi

lp_checks_done
