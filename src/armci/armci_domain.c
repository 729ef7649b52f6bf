/*
 * Locality domains.  Every process is its own domain, as in the reference
 * ARMCI over MPI: Global Arrays then never assumes that another process's
 * ARMCI addresses are mapped into its own address space.  SCOPE_NODE
 * collectives and ARMCI_Same_node are consistent with that choice.
 */
#include "armci_api.h"

int armci_domain_nprocs(armci_domain_t domain, int id) { return 1; }
int armci_domain_id(armci_domain_t domain, int glob_proc_id) { return glob_proc_id; }
int armci_domain_my_id(armci_domain_t domain) { return armcii_state.rank; }
int armci_domain_count(armci_domain_t domain) { return armcii_state.nproc; }
int armci_domain_same_id(armci_domain_t domain, int proc) { return proc == armcii_state.rank; }
int ARMCI_Same_node(int proc) { return proc == armcii_state.rank; }

int armci_domain_glob_proc_id(armci_domain_t domain, int id, int loc_proc_id)
{
    if (loc_proc_id != 0)
        armcii_error("armci_domain_glob_proc_id", "domain %d has one process; local "
                     "index %d is out of range", id, loc_proc_id);
    return id;
}
