#!/usr/bin/env bash
# test/lib/released.sh -- the source trees of logp95's released versions
#
#   bash test/lib/released.sh DIR
#
# writes DIR/1.0 and DIR/1.1, each the tree of that release's commit (git
# archive), and DIR/RELEASES, one "version commit" a line.  test/prove.sh
# runs it before it copies the source tree (without .git) for the tests
# and hands DIR to them in LP_RELEASED_SRC; test/t/041_upgrade_libraries.pl
# builds the released libraries from it.  The commits are named by id,
# which every clone has (the tags v1.0 and v1.1 a clone may lack).  Exits
# 1, saying why on stderr, when the source tree is not a git work tree
# that holds them (a tarball, say): the tests that need them then skip.
set -uo pipefail

DIR=${1:?usage: test/lib/released.sh DIR}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

# version and commit of each release: 1.0 is the parent of its release
# commit 1bb163f (v1.0); 1.1 is v1.1
RELEASES="1.0 27d5dff
1.1 bbdeb19"

command -v git >/dev/null || { echo "released.sh: no git" >&2; exit 1; }
git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1 ||
	{ echo "released.sh: $ROOT is not a git work tree" >&2; exit 1; }
mkdir -p "$DIR" || exit 1
while read -r version commit; do
	rm -rf "${DIR:?}/$version"
	mkdir "$DIR/$version" || exit 1
	git -C "$ROOT" archive --format=tar "$commit" | tar -x -C "$DIR/$version" ||
		{ echo "released.sh: cannot extract $version ($commit) from $ROOT" >&2; exit 1; }
done <<<"$RELEASES"
printf '%s\n' "$RELEASES" > "$DIR/RELEASES"
