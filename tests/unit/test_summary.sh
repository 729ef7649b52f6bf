#!/bin/sh
# docs/performance.md's summary table must be exactly what
# benchmarks/summary.sh makes from the results files: numbers in the docs
# come from results, never typed by hand.
top=${TESTS_SRCDIR:-tests}/..
doc="$top/docs/performance.md"
want=$(sh "$top/benchmarks/summary.sh" "$top/benchmarks/results") ||
    { echo "FAIL test_summary: benchmarks/summary.sh failed"; exit 1; }
have=$(sed -n '/^<!-- BEGIN benchmarks\/summary.sh/,/^<!-- END benchmarks\/summary.sh/p' "$doc" |
       grep '^|')
if [ "$(echo "$want" | wc -l)" -lt 3 ]; then
    echo "FAIL test_summary: summary.sh made no rows from $top/benchmarks/results"; exit 1
fi
if [ "$want" != "$have" ]; then
    echo "FAIL test_summary: docs/performance.md's table differs from benchmarks/summary.sh:"
    printf '%s\n' "$want" >/tmp/test_summary.want.$$
    printf '%s\n' "$have" >/tmp/test_summary.have.$$
    diff /tmp/test_summary.have.$$ /tmp/test_summary.want.$$
    rm -f /tmp/test_summary.want.$$ /tmp/test_summary.have.$$
    exit 1
fi
# every file the table comes from goes into the tarball too, or distcheck's
# copy of this test sees fewer rows than the docs hold
for f in "$top"/benchmarks/results/nwchem_vnodes.*.2core.txt "$top"/benchmarks/results/ga_vnodes.*.2core.txt \
         "$top"/benchmarks/results/nwchem_tce_vnodes.*.2core.txt \
         "$top"/benchmarks/results/nwchem_ghosts.*.16core.txt; do
    [ -f "$f" ] || continue
    grep -q "benchmarks/results/$(basename "$f")" "$top/benchmarks/Makefile.mk" ||
        { echo "FAIL test_summary: $(basename "$f") is not in benchmarks/Makefile.mk's EXTRA_DIST"; exit 1; }
done
echo "PASS test_summary"
