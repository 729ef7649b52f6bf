/*
 * src/info: the armci-info tool (installed beside the library).
 *
 * Role: tell a user what the library will do on their machine: build,
 * MPI and its quirks, which one-sided component serves each window kind,
 * configuration, node layout, and (--probe) which operation classes need
 * the target to make MPI progress.  It links the convenience library so it
 * sees the state ARMCI_Init built, and reports it; it decides nothing.
 * Output is rank 0's; everything that creates windows is collective.
 * May call: every module's header (read-only use of their state) and MPI.
 */
#ifndef ARMCI_INFO_H
#define ARMCI_INFO_H

#include "../common/common.h"
#include "../common/common_quirks.h"

/* The window kinds the library creates somewhere (src/gmr, src/ghost). */
enum { INFO_WIN_SHARED, INFO_WIN_ALLOCATE, INFO_WIN_CREATE, INFO_WIN_DYNAMIC, INFO_NWIN };

typedef struct {
    int ok;                          /* created on every process */
    int osc;                         /* ARMCII_OSC_* of rank 0's window */
    int quirks;                      /* armcii_win_quirks() of that window */
    char name[MPI_MAX_OBJECT_NAME];  /* the MPI's name for the window */
    char err[MPI_MAX_ERROR_STRING];  /* why it was refused (rank 0's view); the MPI
                                      * may write all of it (strncpy padding) */
} info_win_t;

/* Section header and "key : value" line (rank 0 only calls them). */
void info_section(const char *title);
void info_kv(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* MPICH's device ("ch4:ucx"), "" on other MPIs. */
const char *info_mpich_device(void);

/* Collective: create and free one small window of each kind. */
void info_windows_probe(info_win_t w[INFO_NWIN]);
/* Rank 0: sections "MPI quirks" and "One-sided components". */
void info_print_quirks(const info_win_t w[INFO_NWIN]);
void info_print_windows(const info_win_t w[INFO_NWIN]);

/* Collective: the target-progress section; measures only when run is set
 * (T = ms of computation on rank 1). */
void info_probe(int run, int ms);

#endif /* ARMCI_INFO_H */
