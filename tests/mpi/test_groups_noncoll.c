/* The group test with ARMCI_NONCOLLECTIVE_GROUPS=1 (members-only creation). */
#define NONCOLLECTIVE 1
#include "test_groups.c"
