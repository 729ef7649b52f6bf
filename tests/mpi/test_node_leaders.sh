#!/bin/sh
# The node barrier's part among the nodes' first processes, a
# dissemination barrier of point-to-point messages (src/common/common_node.c),
# with a node count that is not a power of two and nodes of unequal size:
# test_wait_yield (whose ARMCI_WAIT_YIELD=ON phase takes the node path and
# checks that its barriers hold every process, with a late one each round,
# and that its reductions, gathers and broadcasts give the world's result)
# on 5 processes in virtual nodes of 2, so 3 nodes of 2, 2 and 1 meet in 2
# rounds.  The modes of make check give 1 node (on) or 2 (vn2, 4
# processes), where the exchange has one round.  Runs once, in mode on
# (77 = skip elsewhere).
case ${ARMCI_TEST_MODE:-on} in on) ;; *) echo "SKIP: runs in mode on"; exit 77 ;; esac
dir=${TESTS_BUILDDIR:-tests}/mpi
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
if ! out=$(ARMCI_NODE_LOCAL=on ARMCI_VIRTUAL_NODE_SIZE=2 ARMCI_TEST_MODE=vn2-of-5 \
           timeout -k 5 200 $runner 5 "$dir/test_wait_yield" 2>&1); then
    printf '%s\n' "$out"
    echo "FAIL: test_wait_yield on 5 processes in virtual nodes of 2 (3 nodes)"
    exit 1
fi
case $out in
*"PASS test_wait_yield"*) ;;
*) printf '%s\n' "$out"; echo "FAIL: test_wait_yield printed no PASS line"; exit 1 ;;
esac
echo "PASS test_node_leaders"
