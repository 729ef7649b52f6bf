#!/bin/bash
# Assemble a buildable source tree from git repositories on this machine,
# with every submodule at the commit its parent pins (recursively).
#
#   tools/mpi/tree.sh GITDIR REV DEST [NAME=GITDIR ...]
#
# NAME is the last component of a submodule's URL without ".git" (prrte,
# openpmix, oac, yaksa, ...); its GITDIR must hold the pinned commit.
# A submodule with no NAME given is left empty and reported: the MPI's own
# configure then needs the external package (for example Debian's hwloc).
# Nothing is downloaded; CI never runs this (it cannot fetch sources).
set -euo pipefail

die() { echo "tree.sh: $*" >&2; exit 1; }
[ $# -ge 3 ] || die "usage: tree.sh GITDIR REV DEST [NAME=GITDIR ...]"
top_git=$1 rev=$2 dest=$3
shift 3
declare -A repos=()
for kv in "$@"; do
    [[ $kv == *=* ]] || die "expected NAME=GITDIR, got '$kv'"
    repos[${kv%%=*}]=${kv#*=}
done
[ ! -e "$dest" ] || die "$dest exists; remove it first"

# Place COMMIT of GITDIR at DIR, then its submodules.
place() {
    local git=$1 commit=$2 dir=$3
    mkdir -p "$dir"
    # A snapshot may lack some blobs (large tarballs); leave those out and
    # say so rather than fail the whole tree.
    local -a skip=()
    while read -r path; do
        echo "tree.sh: $path missing from $git; left out" >&2
        skip+=(":(exclude,literal)$path")
    done < <(git --git-dir="$git" ls-tree -r "$commit" | awk '$2 == "blob"' |
             while read -r m t obj p; do
                 git --git-dir="$git" cat-file -e "$obj" 2>/dev/null || printf '%s\n' "$p"
             done)
    git --git-dir="$git" archive "$commit" -- . "${skip[@]}" | tar -x -C "$dir"
    local mode type sub path url name
    while read -r mode type sub path; do
        url=$(git --git-dir="$git" config -f <(git --git-dir="$git" show "$commit:.gitmodules") \
              --get-regexp '^submodule\..*\.path$' | awk -v p="$path" '$2 == p {print $1}')
        url=$(git --git-dir="$git" config -f <(git --git-dir="$git" show "$commit:.gitmodules") \
              --get "${url%.path}.url")
        name=$(basename "$url" .git)
        if [ -z "${repos[$name]:-}" ]; then
            echo "tree.sh: submodule $path ($name @ $sub) not given; left empty" >&2
            continue
        fi
        git --git-dir="${repos[$name]}" cat-file -e "$sub^{commit}" 2>/dev/null ||
            die "$name: ${repos[$name]} lacks the pinned commit $sub for $path"
        echo "tree.sh: $path <- $name @ ${sub:0:12}"
        rmdir "$dir/$path" 2>/dev/null || true
        place "${repos[$name]}" "$sub" "$dir/$path"
    done < <(git --git-dir="$git" ls-tree -r "$commit" | awk '$1 == "160000"')
}

commit=$(git --git-dir="$top_git" rev-parse "$rev^{commit}") || die "no revision $rev in $top_git"
place "$top_git" "$commit" "$dest"
echo "$rev $commit" > "$dest/.tree-source"
echo "tree.sh: $dest ready ($rev)"
