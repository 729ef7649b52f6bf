/*
 * Locality domains.  Every process is its own domain, as in the reference
 * ARMCI over MPI: Global Arrays then never assumes that another process's
 * ARMCI addresses are mapped into its own address space.  SCOPE_NODE
 * collectives and ARMCI_Same_node are consistent with that choice.
 * Domain ids are process ranks, so an id out of range is a bad rank, except
 * where classic ARMCI documents a negative domain id as "my domain"
 * (armci_domain_nprocs, armci_domain_glob_proc_id): Global Arrays passes -1
 * there (GA's pgtest, overlay and its main Fortran test do).
 */
#include "armci_api.h"

static void check(const char *call, armci_domain_t domain, int id)
{
    armcii_check_init(call);
    if (domain != ARMCI_DOMAIN_SMP)
        armcii_error(call, "unknown domain kind %d (only ARMCI_DOMAIN_SMP = %d)", domain,
                     ARMCI_DOMAIN_SMP);
    if (id < 0 || id >= armcii_state.nproc)
        armcii_error(call, "domain/process %d out of range [0, %d)", id, armcii_state.nproc);
}

/* A negative domain id names the caller's own domain (classic ARMCI). */
static int mine_if_negative(int id)
{
    return id < 0 ? armcii_state.rank : id;
}

int armci_domain_nprocs(armci_domain_t domain, int id)
{
    check("armci_domain_nprocs", domain, mine_if_negative(id));
    return 1;
}

int armci_domain_id(armci_domain_t domain, int glob_proc_id)
{
    check("armci_domain_id", domain, glob_proc_id);
    return glob_proc_id;
}

int armci_domain_my_id(armci_domain_t domain)
{
    check("armci_domain_my_id", domain, 0);
    return armcii_state.rank;
}

int armci_domain_count(armci_domain_t domain)
{
    check("armci_domain_count", domain, 0);
    return armcii_state.nproc;
}

int armci_domain_same_id(armci_domain_t domain, int proc)
{
    check("armci_domain_same_id", domain, proc);
    return proc == armcii_state.rank;
}

int ARMCI_Same_node(int proc)
{
    armcii_check_init("ARMCI_Same_node");
    armcii_check_proc("ARMCI_Same_node", proc);
    return proc == armcii_state.rank;
}

int armci_domain_glob_proc_id(armci_domain_t domain, int id, int loc_proc_id)
{
    id = mine_if_negative(id);
    check("armci_domain_glob_proc_id", domain, id);
    if (loc_proc_id != 0)
        armcii_error("armci_domain_glob_proc_id", "domain %d has one process; local "
                     "index %d is out of range", id, loc_proc_id);
    return id;
}
