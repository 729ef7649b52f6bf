#!/bin/sh
# Counts the skipped tests of one stage of tools/check-all.sh and fails on
# any that tests/skips.allow does not allow for that stage.
# usage: check-skips.sh STAGE LOG...
#   LOG: an automake test-suite log (test-suite.log, test-suite-MODE.log:
#   each non-passing test under a "RESULT: name" line underlined with =,
#   followed by its own output, where the SKIP line gives the reason), or
#   a captured console of make check (lines "SKIP: name"; no reason).
# A LOG that is missing or ran no test fails too: a stage that ran nothing
# was skipped as a whole.  CHECK_ALL_MISSING (words: ga, fortran, python3)
# also accepts the skips those pieces cause, for hosts that lack them.
set -f # TESTS patterns and * are matched by case, never expanded
stage=$1
shift
here=$(dirname "$0")
allow=${SKIPS_ALLOW:-$here/skips.allow}
[ -r "$allow" ] || { echo "check-skips: $allow not found"; exit 1; }
fail=0 total=0 nskip=0 bad=0
tab=$(printf '\t')
list=$(mktemp) || exit 1
trap 'rm -f "$list"' EXIT
for log in "$@"; do
    if [ ! -s "$log" ]; then
        echo "FAIL stage $stage: $log is missing or empty (the stage did not run its tests)"
        fail=1
        continue
    fi
    # "mode<TAB>test<TAB>reason" per skip
    awk -v tab="$tab" '
        function emit(name, reason,    mode) {
            mode = "unit"
            if (name ~ /^modes\/[^\/]+\//) {
                mode = name; sub(/^modes\//, "", mode); sub(/\/.*/, "", mode)
                sub(/^modes\/[^\/]+\//, "", name)
                sub("\\." mode "$", "", name)
            }
            print mode tab name tab reason
        }
        # a header is underlined with exactly its own length of =
        pending != "" && /^=+$/ && length($0) == length("SKIP: " pending) {
            reason_for = pending; pending = ""; next }
        pending != "" { emit(pending, ""); pending = "" }
        reason_for != "" && /SKIP/ { r = $0; sub(/^[^A-Za-z]*SKIP:? */, "", r); emit(reason_for, r); reason_for = ""; next }
        /^SKIP: [^ ]+$/ { pending = $2; reason_for = ""; next }
        END { if (pending != "") emit(pending, "") }
    ' "$log" >>"$list"
    n=$(sed -n 's/^# TOTAL: *\([0-9]*\)$/\1/p' "$log" | awk '{ s += $1 } END { print s + 0 }')
    s=$(sed -n 's/^# SKIP: *\([0-9]*\)$/\1/p' "$log" | awk '{ s += $1 } END { print s + 0 }')
    ran=$(grep -c -E '^(PASS|FAIL|SKIP|XFAIL|XPASS|ERROR): [^ ]+$' "$log")
    [ "$n" -gt 0 ] || [ "$ran" -gt 0 ] || {
        echo "FAIL stage $stage: $log ran no test"; fail=1; }
    total=$((total + n))
    nskip=$((nskip + s))
done
found=$(wc -l <"$list")
# test-suite logs count their skips: every one must have been read
if [ "$nskip" -gt 0 ] && [ "$found" -lt "$nskip" ]; then
    echo "FAIL stage $stage: the logs count $nskip skips, $found were read"
    fail=1
fi
# one pattern per word of CHECK_ALL_MISSING
missing_re=
for w in ${CHECK_ALL_MISSING:-}; do
    case $w in
    ga) re="Global Arrays" ;;
    fortran) re="Fortran MPI compiler" ;;
    python3) re="python3" ;;
    *) re= ;;
    esac
    [ -n "$re" ] && missing_re="${missing_re:+$missing_re|}$re"
done
in_list() { # word, comma-separated list or *
    [ "$2" = "*" ] && return 0
    case ",$2," in *",$1,"*) return 0 ;; esac
    return 1
}
matches() { # path, comma-separated patterns
    old_ifs=$IFS
    IFS=,
    for p in $2; do
        IFS=$old_ifs
        # shellcheck disable=SC2254
        case $1 in $p) return 0 ;; esac
    done
    IFS=$old_ifs
    return 1
}
while IFS="$tab" read -r mode t reason; do
    ok=
    while read -r rstages rmodes rtests rreason; do
        case $rstages in ''|'#'*) continue ;; esac
        in_list "$stage" "$rstages" || continue
        in_list "$mode" "$rmodes" || continue
        matches "$t" "$rtests" || continue
        if [ "$rreason" = "*" ] || printf '%s\n' "$reason" | grep -Eq -- "$rreason"; then
            ok=1
            break
        fi
    done <"$allow"
    if [ -z "$ok" ] && [ -n "$missing_re" ] &&
        printf '%s\n' "$reason" | grep -Eq -- "$missing_re"; then
        echo "accepted (CHECK_ALL_MISSING=$CHECK_ALL_MISSING): SKIP $t [$mode]: $reason"
        ok=1
    fi
    if [ -z "$ok" ]; then
        echo "FAIL stage $stage: SKIP $t [mode $mode] is not allowed (tests/skips.allow): ${reason:-no reason in the log}"
        bad=$((bad + 1))
        fail=1
    fi
done <"$list"
echo "stage $stage: $total tests, $found skipped, $bad of them not allowed"
exit $fail
