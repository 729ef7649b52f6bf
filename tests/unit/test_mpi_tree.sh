#!/bin/sh
# tools/mpi/tree.sh: submodules placed at the commits their parents pin
# (recursively, each name mapped to a git directory), a blob missing from a
# snapshot left out with a message, a submodule with no repository left
# empty with a message, a pinned commit the given repository lacks refused.
set -u
top=${TESTS_SRCDIR:-$(dirname "$0")/..}/..
tree=$top/tools/mpi/tree.sh
command -v git >/dev/null || { echo "SKIP: no git"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
g() { git -c user.name=t -c user.email=t@t -c init.defaultBranch=main "$@"; }

mk() {  # mk NAME: a repository with one file holding its name
    g init -q "$tmp/$1" && echo "$1" > "$tmp/$1/file" &&
    g -C "$tmp/$1" add file && g -C "$tmp/$1" commit -qm "$1"
}
link() {  # link REPO PATH URL SUBREPO: pin SUBREPO's HEAD at PATH
    sha=$(g -C "$tmp/$4" rev-parse HEAD)
    printf '[submodule "%s"]\n\tpath = %s\n\turl = %s\n' "$2" "$2" "$3" >> "$tmp/$1/.gitmodules"
    g -C "$tmp/$1" add .gitmodules &&
    g -C "$tmp/$1" update-index --add --cacheinfo 160000,"$sha","$2"
}
# leaf (pinned by mid), mid (pinned by top), other (named by no map entry)
mk leaf && mk mid && mk other && mk top || exit 99
link mid sub/leaf ../../x/leaf.git leaf && g -C "$tmp/mid" commit -qm pin || exit 99
link top 3rd/mid https://example.org/mid mid && link top mods/other ../other other || exit 99
echo big > "$tmp/top/big.tar.gz" && g -C "$tmp/top" add big.tar.gz && g -C "$tmp/top" commit -qm top || exit 99
g -C "$tmp/top" tag v1 || exit 99
# a snapshot without one blob, as the Open MPI mirror lacks its hwloc tarball
blob=$(g -C "$tmp/top" rev-parse HEAD:big.tar.gz)
rm -f "$tmp/top/.git/objects/$(echo "$blob" | cut -c1-2)/$(echo "$blob" | cut -c3-)"

out=$(bash "$tree" "$tmp/top/.git" v1 "$tmp/dest" mid="$tmp/mid/.git" leaf="$tmp/leaf/.git" 2>&1)
rc=$?
[ $rc -eq 0 ] || bad "tree.sh exited $rc: $out"
[ "$(cat "$tmp/dest/file" 2>/dev/null)" = top ] || bad "top's file not placed"
[ "$(cat "$tmp/dest/3rd/mid/file" 2>/dev/null)" = mid ] || bad "submodule mid not placed"
[ "$(cat "$tmp/dest/3rd/mid/sub/leaf/file" 2>/dev/null)" = leaf ] || bad "nested submodule leaf not placed"
[ ! -e "$tmp/dest/big.tar.gz" ] || bad "a missing blob produced a file"
echo "$out" | grep -q 'big.tar.gz missing' || bad "missing blob not reported: $out"
echo "$out" | grep -q 'mods/other (other @ .*) not given; left empty' || bad "unmapped submodule not reported: $out"
grep -q "^v1 " "$tmp/dest/.tree-source" 2>/dev/null || bad ".tree-source does not name v1"

# the pinned commit must be in the given repository
out=$(bash "$tree" "$tmp/top/.git" v1 "$tmp/dest2" mid="$tmp/other/.git" 2>&1) &&
    bad "a repository without the pinned commit was accepted"
echo "$out" | grep -q 'lacks the pinned commit' || bad "no reason for the refusal: $out"
# an existing destination is never overwritten
out=$(bash "$tree" "$tmp/top/.git" v1 "$tmp/dest" 2>&1) && bad "existing destination overwritten"
echo "$out" | grep -q 'exists' || bad "no reason for refusing an existing destination: $out"
[ $fail -eq 0 ] && echo "PASS: tree.sh places pinned submodules and reports what it leaves out"
exit $fail
