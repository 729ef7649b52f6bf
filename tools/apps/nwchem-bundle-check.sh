#!/bin/sh
# nwchem-bundle-check.sh - NWChem's own check of the outputs that
# nwchem-bundle-run.sh brought back, done here (the lent machine has no
# Perl): what QA/runtests.mpi.unix does after a run -- no nga_wait warning,
# nwparse.pl on the output and on the reference, EOMCCSD lines sorted,
# `diff -w` -- so a wrong answer is a "fail" row.
#
# usage: nwchem-bundle-check.sh RESULTS_DIR QA_DIR > RAW
#   RESULTS_DIR  holds raw.txt and outputs.tar.gz from nwchem-bundle-run.sh
#   QA_DIR       NWChem's QA/ (nwparse.pl, tests/TEST/TEST.out)
# RAW: "round config test status seconds", as nwchem-compare.sh -t reads;
# a failed comparison's diff goes to stderr.  Exits non-zero if a run failed.
# EXPECT_NPROC: the computing processes every run must report (NWChem's
# "nproc =" line): a ghost or progress rank counted as a computing process
# means the wrong library ran (the plain build ignores the ghost settings).
set -eu
res=$(cd "${1:?usage: nwchem-bundle-check.sh RESULTS_DIR QA_DIR}" && pwd)
qa=$(cd "${2:?QA_DIR}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "$res/outputs.tar.gz" -C "$work"
# nwparse.pl writes FILE.nwparse beside FILE
parse() {
    perl "$qa/nwparse.pl" "$1" > /dev/null 2>&1 || return 1
    if grep -q EOMCCSD "$1.nwparse"; then sort -n "$1.nwparse" > "$1.sorted"; mv "$1.sorted" "$1.nwparse"; fi
}
status=0
while read -r round cfg test rc secs; do
    o=$work/runs/r$round.$cfg.$test.out
    ok=$work/ref.$test.out
    [ -f "$ok" ] || cp "$qa/tests/$test/$test.out" "$ok"
    [ -f "$ok.nwparse" ] || parse "$ok" || { echo "nwchem-bundle-check.sh: nwparse.pl failed on $ok" >&2; exit 1; }
    r=fail
    if [ "$rc" = 0 ] && [ -f "$o" ] && ! grep -q nga_wait "$o" && parse "$o"; then
        np=$(awk '$1 == "nproc" && $2 == "=" { print $3; exit }' "$o")
        if [ -n "${EXPECT_NPROC:-}" ] && [ "$np" != "$EXPECT_NPROC" ]; then
            echo "== r$round $cfg $test: $np computing processes, not $EXPECT_NPROC" >&2
        elif diff -w "$ok.nwparse" "$o.nwparse" > "$work/diff" 2>&1; then
            r=pass
        else
            echo "== r$round $cfg $test: differs from the reference" >&2
            head -20 "$work/diff" >&2
        fi
    else
        echo "== r$round $cfg $test: exit $rc, or no parsable output" >&2
    fi
    [ "$r" = pass ] || status=1
    echo "$round $cfg $test $r $secs"
done < "$res/raw.txt"
exit $status
