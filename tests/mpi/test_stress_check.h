/* test_stress.c's checkpoints: every rank completes everything, each
 * owner checks its shared counters against every rank's contributions and
 * records, and every target its memory against every origin's model
 * (included once, after the operations). */
static int cmp_old(const void *a, const void *b)
{
    long x = ((const rec_t *)a)->old, y = ((const rec_t *)b)->old;
    return x < y ? -1 : x > y;
}

/* Value the owner's RMW counters held at the previous checkpoint. */
static long rmw_init[4][NRMW];

/* Check one counter of this rank: the records of every rank on it. */
static void check_chain(int kind, int c, rec_t *r, long n, long final, long epoch_end)
{
    long cur = rmw_init[kind - K_FAA][c];
    qsort(r, (size_t)n, sizeof *r, cmp_old);
    if (kind == K_FAA || kind == K_FAAL) {
        /* fetched values sorted must be init, +inc, +inc...: unique, none lost */
        for (long i = 0; i < n; i++) {
            if (r[i].old != cur) {
                CHECK(0, "seed %llu rank %d checkpoint after op %ld: %s counter %d: fetched "
                      "values do not chain: expected %ld, got %ld (%s)", seed, me, epoch_end,
                      kname[kind], c, cur, r[i].old,
                      i > 0 && r[i].old == r[i - 1].old ? "duplicate: lost update" : "gap");
                return;
            }
            cur += r[i].arg;
        }
    } else {
        /* each value swapped out once, following the chain from init */
        for (long i = 1; i < n; i++)
            if (r[i].old == r[i - 1].old) {
                CHECK(0, "seed %llu rank %d checkpoint after op %ld: %s counter %d: value "
                      "%ld swapped out twice", seed, me, epoch_end, kname[kind], c, r[i].old);
                return;
            }
        for (long i = 0; i < n; i++) {
            long lo = 0, hi = n - 1, at = -1;
            while (lo <= hi) {
                long mid = (lo + hi) / 2;
                if (r[mid].old == cur) {
                    at = mid;
                    break;
                }
                if (r[mid].old < cur)
                    lo = mid + 1;
                else
                    hi = mid - 1;
            }
            if (at < 0) {
                CHECK(0, "seed %llu rank %d checkpoint after op %ld: %s counter %d: value "
                      "%ld was never swapped out (%ld of %ld swaps chained)", seed, me,
                      epoch_end, kname[kind], c, cur, i, n);
                return;
            }
            cur = r[at].arg;
        }
    }
    CHECK(final == cur, "seed %llu rank %d checkpoint after op %ld: %s counter %d holds %ld, "
          "expected %ld (%ld operations on it)", seed, me, epoch_end, kname[kind], c, final,
          cur, n);
    rmw_init[kind - K_FAA][c] = final;
}

/* Every rank completes everything; targets and other ranks check. */
static void checkpoint(long epoch_end, long epoch)
{
    sx_before_checkpoint();
    complete_all();
    int how = crnd(3);
    if (how == 0) {
        ARMCI_Barrier();
    } else {
        if (how == 1)
            ARMCI_AllFence();
        else
            for (int i = 0; i < np; i++)
                ARMCI_Fence((me + i) % np);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    memset(dirty, 0, (size_t)np * AREA);
    counts[X_CHECKPOINT]++;

    /* write slots: the target's memory against every origin's model */
    unsigned char *all = malloc((size_t)np * np * AREA);
    MPI_Allgather(model, np * AREA, MPI_BYTE, all, np * AREA, MPI_BYTE, MPI_COMM_WORLD);
    ARMCI_Access_begin(W[me]);
    for (int r = 0; r < np; r++) {
        const unsigned char *exp = all + ((size_t)r * np + me) * AREA;
        const unsigned char *got = (unsigned char *)W[me] + (size_t)r * AREA;
        if (memcmp(exp, got, AREA))
            for (int i = 0; i < AREA; i++)
                if (exp[i] != got[i]) {
                    CHECK(0, "seed %llu rank %d checkpoint after op %ld (%s): area of "
                          "origin %d, offset %d: expected 0x%02x, memory holds 0x%02x", seed,
                          me, epoch_end, how == 0 ? "Barrier" : how == 1 ? "AllFence" : "Fence",
                          r, i, exp[i], got[i]);
                    break;
                }
    }
    ARMCI_Access_end(W[me]);
    /* another origin's area on another target, read by get */
    if (np > 1) {
        int r = (int)((me + 1 + epoch) % np), t = (int)((me + 2 + epoch) % np);
        if (r == me)
            r = (r + 1) % np;
        unsigned char *got = malloc(AREA);
        ARMCI_Get((char *)W[t] + (size_t)r * AREA, got, AREA, t);
        report_bytes(epoch_end, K_GET, t, 0, all + ((size_t)r * np + t) * AREA, got, AREA,
                     "checkpoint: other origin's");
        free(got);
    }
    free(all);

    /* accumulates: the sum of every rank's contributions */
    int *si;
    long *sl;
    double *sd;
    sum_over_ranks(cacc_i, cacc_l, cacc_d, np * NACC, &si, &sl, &sd);
    counters_t *mc = C[me];
    ARMCI_Access_begin(mc);
    for (int i = 0; i < NACC; i++) {
        CHECK(mc->acc_i[i] == si[me * NACC + i], "seed %llu rank %d checkpoint after op %ld: "
              "int accumulate counter %d holds %d, expected %d", seed, me, epoch_end, i,
              mc->acc_i[i], si[me * NACC + i]);
        CHECK(mc->acc_l[i] == sl[me * NACC + i], "seed %llu rank %d checkpoint after op %ld: "
              "long accumulate counter %d holds %ld, expected %ld", seed, me, epoch_end, i,
              mc->acc_l[i], sl[me * NACC + i]);
        CHECK(mc->acc_d[i] == sd[me * NACC + i], "seed %llu rank %d checkpoint after op %ld: "
              "double accumulate counter %d holds %.17g, expected %.17g", seed, me, epoch_end,
              i, mc->acc_d[i], sd[me * NACC + i]);
    }
    free(si), free(sl), free(sd);

    /* RMW: every rank's records of this epoch */
    int mine = (int)(nrec * 5), *cnt = malloc((size_t)np * sizeof *cnt);
    int *dsp = malloc((size_t)np * sizeof *dsp), tot = 0;
    MPI_Allgather(&mine, 1, MPI_INT, cnt, 1, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < np; r++)
        dsp[r] = tot, tot += cnt[r];
    rec_t *allr = malloc((size_t)(tot / 5 + 1) * sizeof *allr);
    MPI_Allgatherv(recs, mine, MPI_LONG, allr, cnt, dsp, MPI_LONG, MPI_COMM_WORLD);
    long nall = tot / 5;
    rec_t *sel = malloc((size_t)(nall + 1) * sizeof *sel);
    for (int kind = K_FAA; kind <= K_SWAPL; kind++)
        for (int c = 0; c < NRMW; c++) {
            long n = 0;
            for (long i = 0; i < nall; i++)
                if (allr[i].kind == kind && allr[i].t == me && allr[i].c == c)
                    sel[n++] = allr[i];
            long final = kind == K_FAA ? mc->faa_i[c] : kind == K_FAAL ? mc->faa_l[c]
                         : kind == K_SWAP ? mc->sw_i[c] : mc->sw_l[c];
            check_chain(kind, c, sel, n, final, epoch_end);
        }
    ARMCI_Access_end(mc);
    nrec = 0;
    free(cnt), free(dsp), free(allr), free(sel);
    sx_check(epoch_end, epoch);
    sx_reshape();
    /* nobody writes before every check is done */
    MPI_Barrier(MPI_COMM_WORLD);
}
