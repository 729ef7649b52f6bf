# Sourced by the unit shell tests: expect WHAT GOT WANT reports a mismatch
# under the test's name and sets fail=1; the test exits $fail at its end.
fail=0
expect() {
    if [ "$2" != "$3" ]; then
        echo "FAIL $(basename "$0" .sh): $1: got '$2', expected '$3'"; fail=1
    fi
}
