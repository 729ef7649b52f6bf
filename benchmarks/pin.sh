#!/bin/sh
# Runs a command on the core PIN_MAP gives its rank (launch wrapper):
#   PIN_MAP="0 0 1 0" mpiexec -n 4 --bind-to none benchmarks/pin.sh ./prog
# puts world rank 2 alone on core 1 and ranks 0, 1 and 3 on core 0.  The
# rank comes from Open MPI's OMPI_COMM_WORLD_RANK or MPICH's PMI_RANK.
# Without PIN_MAP, or with fewer entries than ranks, the command runs
# unpinned.  Why: on a host with fewer cores than processes the kernel
# decides which processes share a core, and a ghost placed beside the
# user it serves (a user computing outside MPI) gets the core only at
# time-slice ends, so progress benchmarks measure the scheduler's draw.
r=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-}}
core=
if [ -n "${PIN_MAP:-}" ] && [ -n "$r" ]; then
    core=$(echo "$PIN_MAP" | awk -v i="$((r + 1))" '{ print $i }')
fi
if [ -n "$core" ]; then
    exec taskset -c "$core" "$@"
fi
exec "$@"
