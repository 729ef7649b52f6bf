#!/bin/sh
# The README's environment table must match the configuration table.
top=${TESTS_SRCDIR:-tests}/..
fail=0
rows=$(python3 "$top/tools/env-table.py" "$top/src/common/common_config.def")
[ -n "$rows" ] || { echo "FAIL test_readme_env: no rows generated"; exit 1; }
echo "$rows" | while IFS= read -r line; do
    grep -qxF -- "$line" "$top/README.md" || { echo "README lacks: $line"; exit 1; }
done || fail=1
n_readme=$(grep -c '^| `ARMCI_[A-Z_]*` |' "$top/README.md")
n_table=$(echo "$rows" | wc -l)
if [ "$n_readme" -ne "$n_table" ]; then
    echo "README has $n_readme ARMCI_ rows, the table $n_table"; fail=1
fi
[ $fail -eq 0 ] && echo "PASS test_readme_env" || echo "FAIL test_readme_env"
exit $fail
