/* mp3.h - start-up shorthands used by ARMCI test programs. */
#ifndef ARMCI_MP3_H
#define ARMCI_MP3_H
#include <mpi.h>
#define MP_INIT(argc, argv) MPI_Init(&(argc), &(argv))
#define MP_BARRIER() MPI_Barrier(MPI_COMM_WORLD)
#define MP_FINALIZE() MPI_Finalize()
#define MP_PROCS(n) MPI_Comm_size(MPI_COMM_WORLD, (n))
#define MP_MYID(me) MPI_Comm_rank(MPI_COMM_WORLD, (me))
#define MP_TIMER MPI_Wtime
/* As in GA's own global/testing/mp3.h: these start GA or ARMCI, never MPI
 * a second time (GA programs call MP_INIT first, then GA_INIT). */
#define GA_INIT(argc, argv) GA_Initialize()
#define ARMCI_INIT(argc, argv) ARMCI_Init()
#endif
