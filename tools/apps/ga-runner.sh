#!/bin/sh
# LOG_COMPILER for Global Arrays' `make check` (tools/apps/ga.sh passes it).
# GA's own LOG_COMPILER is a shell snippet ("maybe_mpiexec=...; eval") that
# newer automake test drivers run as a command name, so every test fails
# before it starts.  This runner replaces it: MA's serial tests run directly,
# everything else under the launcher on GA_NPROCS ranks, with a hard time
# limit so that a hang is a failure, not a stuck build.
# Environment: GA_MPIEXEC (launcher words before the rank count, default
# "mpiexec -n"), GA_NPROCS (default 4), GA_TEST_TIMEOUT (seconds, default 300),
# GA_RANK_PRELOAD (a shared library the ranks, not the launcher, preload).
prog=$1
case ${prog#./} in
ma/*) exec timeout -k 5 "${GA_TEST_TIMEOUT:-300}" "$@" ;;
esac
# shellcheck disable=SC2086 # GA_MPIEXEC is a word list on purpose
[ -z "${GA_RANK_PRELOAD:-}" ] || set -- env LD_PRELOAD="$GA_RANK_PRELOAD" "$@"
exec timeout -k 5 "${GA_TEST_TIMEOUT:-300}" ${GA_MPIEXEC:-mpiexec -n} "${GA_NPROCS:-4}" "$@"
