/*
 * The two symbols of src/common that the translation table needs, for the
 * fuzzer build, which links the pure-C sources alone (the real definitions
 * live in files that call MPI).  The state is all zero: not threaded, so
 * armcii_lock() never takes the slow path.
 */
#include <stdlib.h>
#include "../../src/common/common.h"

armcii_state_t armcii_state;

void armcii_lock_slow(armcii_lock_t *l)
{
    (void)l;
    abort();   /* unreachable: armcii_state.threaded is 0 */
}
