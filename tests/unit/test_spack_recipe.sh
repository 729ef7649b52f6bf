#!/bin/sh
# The Spack recipes' logic without Spack (tests/unit/test_spack_recipe.py).
top=${TESTS_SRCDIR:-tests}/..
command -v python3 >/dev/null || { echo "SKIP test_spack_recipe: no python3"; exit 77; }
exec python3 "$top/tests/unit/test_spack_recipe.py"
