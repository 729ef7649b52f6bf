/* The exact end checks of test_adapt_switch and test_adapt_inphase: the
 * accumulates and fetch-and-adds that flowed while redirection switched;
 * and the thresholds that make the automatic mode flip at every round.
 * Include after testutil.h (CHECK). */
#ifndef ADAPT_CHECK_H
#define ADAPT_CHECK_H

#include <stdlib.h>
#include <mpi.h>

/* Each of my nw words (mine) equals what every origin added there; added
 * is this origin's contributions, [target * nw + word]. */
static inline void adapt_check_sums(const long *mine, const long *added, int nw)
{
    int me, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    long *want = malloc((size_t)np * (size_t)nw * sizeof(long));
    MPI_Allreduce(added, want, np * nw, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    for (int w = 0; w < nw; w++)
        CHECK(mine[w] == want[me * nw + w], "word %d = %ld, expected %ld", w, mine[w],
              want[me * nw + w]);
    free(want);
}

/* The values each target's counter handed out, gathered from every origin
 * (fetched: [target * maxf + i], nfetched[target] of them), are 0..m-1
 * once each, and my counter (counter) ends at m. */
static inline void adapt_check_counters(const long *fetched, const int *nfetched, int maxf,
                                 long counter)
{
    int me, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int *cnt = malloc((size_t)np * sizeof(int)), *disp = malloc((size_t)np * sizeof(int));
    for (int t = 0; t < np; t++) {
        int mine = nfetched[t], m = 0;
        MPI_Gather(&mine, 1, MPI_INT, cnt, 1, MPI_INT, t, MPI_COMM_WORLD);
        if (t == me)
            for (int p = 0; p < np; p++)
                disp[p] = m, m += cnt[p];
        long *all = malloc((size_t)(m ? m : 1) * sizeof(long));
        MPI_Gatherv(fetched + (size_t)t * (size_t)maxf, mine, MPI_LONG, all, cnt, disp,
                    MPI_LONG, t, MPI_COMM_WORLD);
        if (t == me) {
            char *seen = calloc((size_t)(m ? m : 1), 1);
            for (int i = 0; i < m; i++) {
                int ok = all[i] >= 0 && all[i] < m && !seen[all[i]];
                CHECK(ok, "counter handed out %ld (of %d, or twice)", all[i], m);
                if (ok)
                    seen[all[i]] = 1;
            }
            CHECK(counter == m, "counter ends at %ld after %d fetch-and-adds", counter, m);
            free(seen);
        }
        free(all);
    }
    free(cnt);
    free(disp);
}

/* Before MPI_Init (ghosts read these when the job is laid out): the
 * automatic mode decides inside phases every 2 ms, and every decision
 * flips the setting.  The environment's own values win. */
static inline void adapt_force_flips(void)
{
    static const char *const env[][2] = {
        {"ARMCI_GHOST_ASYNC", "AUTO"},  {"ARMCI_ADAPT_INPHASE", "1"},
        {"ARMCI_ADAPT_INTERVAL", "2"},
        {"ARMCI_ADAPT_WAIT_ON", "0"},   /* off -> on always */
        {"ARMCI_ADAPT_CR_LOW", "100"},
        {"ARMCI_ADAPT_CR_HIGH", "0"},   /* on -> off always */
        {"ARMCI_ADAPT_REPROBE", "0"}};
    for (size_t i = 0; i < sizeof env / sizeof env[0]; i++)
        setenv(env[i][0], env[i][1], 0);
}

#endif
