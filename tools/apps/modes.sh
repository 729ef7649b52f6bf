# Sourced by tools/apps scripts: mode_env MODE NPROCS RUNTIME sets the
# library's environment for one transport mode and puts the number of
# processes to launch in mode_np.  MODE: on, off (ARMCI_NODE_LOCAL), vnK
# (virtual nodes of K ranks: vn2; vn1 puts every rank on a node of its
# own, so that 2 processes still talk through MPI RMA), ghost-on, ghost-off, ghost-auto (2 virtual nodes of
# NPROCS/2 users + 1 ghost each, ARMCI_GHOST_ASYNC; ghost-default leaves it
# unset, for the library's own choice; ghost-on-vnK etc.: virtual
# nodes of K users + 1 ghost each), native (a GA runtime;
# MPI-PR adds its progress rank), native-vnK (GA's MPI-TS or MPI-PR with
# every K computing ranks a node of their own, each with its progress rank
# under MPI-PR: tools/apps/procname_shim.c, which ga.sh preloads).
mode_env() {
    mode_np=$2
    unset ARMCI_NODE_LOCAL ARMCI_VIRTUAL_NODE_SIZE ARMCI_GHOST_ASYNC ARMCI_GHOSTS_PER_NODE \
        PROCNAME_SHIM_PER_NODE
    case $1 in
    on | off) export ARMCI_NODE_LOCAL=$1 ;;
    vn[1-9] | vn[1-9][0-9]) export ARMCI_NODE_LOCAL=on ARMCI_VIRTUAL_NODE_SIZE=${1#vn} ;;
    ghost-on | ghost-off | ghost-auto | ghost-default)
        export ARMCI_VIRTUAL_NODE_SIZE=$(($2 / 2)) ARMCI_GHOSTS_PER_NODE=1
        [ "$1" = ghost-default ] || export ARMCI_GHOST_ASYNC=${1#ghost-}
        mode_np=$(($2 + 2)) ;;
    ghost-on-vn[1-9]* | ghost-off-vn[1-9]* | ghost-auto-vn[1-9]* | ghost-default-vn[1-9]*)
        k=${1##*-vn} a=${1#ghost-}
        [ $(($2 % k)) -eq 0 ] ||
            { echo "mode_env: $2 processes are not nodes of $k" >&2; return 2; }
        export ARMCI_VIRTUAL_NODE_SIZE=$k ARMCI_GHOSTS_PER_NODE=1
        [ "${a%-vn*}" = default ] || export ARMCI_GHOST_ASYNC=${a%-vn*}
        mode_np=$(($2 + $2 / k)) ;;
    native) if [ "$3" = mpi-pr ]; then mode_np=$(($2 + 1)); fi ;;
    native-vn[1-9] | native-vn[1-9][0-9])
        k=${1#native-vn}
        case $3 in
        mpi-ts) export PROCNAME_SHIM_PER_NODE=$k ;;
        mpi-pr) [ $(($2 % k)) -eq 0 ] ||
                    { echo "mode_env: $2 processes are not nodes of $k" >&2; return 2; }
                export PROCNAME_SHIM_PER_NODE=$((k + 1))
                mode_np=$(($2 + $2 / k)) ;;
        *) echo "mode_env: mode $1 is for GA's runtimes" >&2; return 2 ;;
        esac ;;
    *) echo "mode_env: unknown mode $1" >&2; return 2 ;;
    esac
}

# app_options LINES "$@": the options ga.sh and nwchem.sh share (-r
# runtime, -m MPI, -M modes, -n processes, -T tests, -B build only, -j
# jobs; -L relink, which only nwchem.sh reads); sets runtime mpi modes
# nprocs tests check jobs relink, leaves OPTIND for the caller's shift, and
# prints lines LINES of $0 (its usage) on a bad option.
app_options() {
    usage_lines=$1
    shift
    runtime=armci mpi=ompi modes="" nprocs=4 check=1 jobs=$(nproc) tests="" relink=0
    OPTIND=1
    while getopts r:m:M:n:T:BLj: opt; do
        case $opt in
        r) runtime=$OPTARG ;; m) mpi=$OPTARG ;; M) modes=$OPTARG ;;
        n) nprocs=$OPTARG ;; T) tests=$OPTARG ;; B) check=0 ;; j) jobs=$OPTARG ;;
        L) relink=1 ;;
        *) sed -n "${usage_lines}p" "$0"; exit 2 ;;
        esac
    done
}
