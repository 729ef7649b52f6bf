# Sourced by nwchem-qa.sh and nwchem-compare.sh: nw_tests QA_DIR prints the
# default QA test list: QA/doafewqmtests.mpi's tests and the coupled-cluster
# tests whose get/compute/accumulate traffic and shared task counter ghosts
# are for.
nw_tests() {
    # shellcheck disable=SC2016 # '$np' is the literal text of the QA script
    echo "$(sed -n 's|^\./runtests\.mpi\.unix procs \$np \([^ ]*\).*|\1|p' \
        "$1/doafewqmtests.mpi" | tr '\n' ' ')tce_h2o tce_ccsd_t_h2o"
}
