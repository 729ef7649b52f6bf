#!/bin/sh
# The committed bad-input table (tests/badinput/matrix_table.h) is what
# gen_matrix.py makes from today's include/*.h: an entry point or argument
# added to a header without a kind fails here (the generator stops), and
# so does a table not regenerated after a header or generator change.
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: python3 not found (tools/install-deps.sh installs it)"; exit 77
fi
exec python3 "$here/gen_matrix.py" --check --srcdir "$here/../.." -o "$here/matrix_table.h"
