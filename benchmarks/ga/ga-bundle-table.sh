#!/bin/sh
# ga-bundle-table.sh - medians and the side-by-side table of ga-bundle-run.sh
# runs.  Raw files are RAWDIR/r<round>.<TAG>.<CONFIG>.txt (several runs of
# the script may be merged into one RAWDIR by renumbering their rounds).
#
# usage: ga-bundle-table.sh RAWDIR                 medians, one line per
#            (tag, config, kernel, size): "TAG CONFIG KERNEL SIZE MEDIAN N"
#        ga-bundle-table.sh -t RAWDIR CONFIG...    one row per (tag, kernel,
#            size), one column per CONFIG (median seconds; '-' where that
#            config did not run the row), then each config's ratio to the
#            reference on the same kind of node: configs whose name contains
#            "vn" against ours-vn2 (virtual nodes), the others against ours
#            (one node).  Above 1 = slower than this library.
set -eu
table=0
[ "${1:-}" = -t ] && { table=1; shift; }
raw=${1:?usage: ga-bundle-table.sh [-t] RAWDIR [CONFIG...]}
shift
medians() {
    # Rows are "kernel size seconds"; comments start with '#', the
    # header's third field is not a number.
    for f in "$raw"/r*.txt; do
        [ -e "$f" ] || continue
        b=$(basename "$f" .txt)
        tag=$(echo "$b" | cut -d. -f2)
        cfg=$(echo "$b" | cut -d. -f3-)
        awk -v t="$tag" -v c="$cfg" 'NF == 3 && $1 !~ /^#/ && $3 ~ /^[0-9.eE+-]+$/ {
            print t, c, $1, $2, $3 }' "$f"
    done | sort -k1,1 -k2,2 -k3,3 -k4,4 -k5,5g | awk '
        function flush() { if (n) print key, (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2), n }
        { k = $1 " " $2 " " $3 " " $4
          if (k != key) { flush(); key = k; n = 0 }
          v[++n] = $5 }
        END { flush() }'
}
if [ "$table" = 0 ]; then
    medians
    exit 0
fi
[ $# -ge 1 ] || { echo "ga-bundle-table.sh -t: name the configs" >&2; exit 2; }
medians | awk -v cfgs="$*" '
    BEGIN { nc = split(cfgs, c, " ") }
    { row = $1 " " $3 " " $4; if (!(row in seen)) { seen[row] = 1; rows[++nr] = row }
      m[row, $2] = $5; runs[$2] = runs[$2] < $6 ? $6 : runs[$2] }
    function ref(name) { return name ~ /vn/ ? "ours-vn2" : "ours" }
    END {
        printf "%-8s %-17s %-12s", "tag", "kernel", "size"
        for (i = 1; i <= nc; i++) printf " %14s", c[i]
        for (i = 1; i <= nc; i++) if (c[i] != ref(c[i])) printf " %9s", c[i] "/" ref(c[i])
        printf "\n"
        for (r = 1; r <= nr; r++) {
            split(rows[r], f, " ")
            printf "%-8s %-17s %-12s", f[1], f[2], f[3]
            for (i = 1; i <= nc; i++)
                printf " %14s", ((rows[r], c[i]) in m) ? sprintf("%.4g", m[rows[r], c[i]]) : "-"
            for (i = 1; i <= nc; i++) {
                if (c[i] == ref(c[i])) continue
                b = (rows[r], ref(c[i])) in m ? m[rows[r], ref(c[i])] : 0
                x = (rows[r], c[i]) in m ? m[rows[r], c[i]] : 0
                printf " %9s", (b > 0 && x > 0) ? sprintf("%.2f", x / b) : "-"
            }
            printf "\n"
        }
        printf "# runs per config (max over rows):"
        for (i = 1; i <= nc; i++) printf " %s=%d", c[i], runs[c[i]]
        printf "\n"
    }'
