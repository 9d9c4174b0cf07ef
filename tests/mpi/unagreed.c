/*
 * unagreed.c -- the linear gatherv and scatterv, whose two sides of a
 * message each count it alone (ic_sched_t.unagreed): the receiver takes
 * every message straight into its buffer, but only once it knows that
 * every message of the round is as long as its count (executor.c: the
 * lengths from the channels' slots and from probes).  Forced with
 * IC_Set_algorithm, at every p and root:
 *   - right counts: the vendor's answer, byte for byte, for blocks of a
 *     channel slot, of several (in pieces through the channel) and beyond
 *     the channel's limit (through MPI after the slot), with uneven and
 *     empty blocks and displacements out of order;
 *   - one rank's count wrong (its message shorter, longer or empty where
 *     the receiver expects data): the receiver gets MPI_ERR_TRUNCATE and
 *     its receive buffer is as it was, every byte (also those the right
 *     messages would have filled), the others succeed, and the next call
 *     is right everywhere (no message left behind);
 *   - the same through IC_Igatherv and IC_Iscatterv (nonblocking calls go
 *     through MPI: the probe path), completed with MPI_Wait;
 *   - the same through IC_Gatherv_init and IC_Scatterv_init, each started
 *     twice (IC_Start) and completed with IC_Wait, which returns the run's
 *     error (the handle's own completion cannot carry it, progress.c);
 *     the second run, the first's schedule again, the same as the first.
 * Run with INTERCOM_SHM=0 too (tests/mpi/Makefile.inc), where the
 * blocking calls probe as well.
 *
 * Under SimGrid's SMPI the receives go in place at once and are checked
 * once complete (executor.c, IC_PROBE_FIRST; README, "Errors only one rank
 * can see"): there a receiver that gets MPI_ERR_TRUNCATE may instead hold
 * exactly what its receives took (in_place), and nothing else; and the
 * IC_I* calls are SMPI's own nonblocking collectives, which take no
 * notice of a count that differs (MPI_Wait returns MPI_SUCCESS, the data
 * in place), so the nonblocking cases with a wrong count are skipped and
 * counted there.  The persistent calls are InterCom's own there too.
 */
#include <mpi.h>
#include "intercom.h"

#include <stdlib.h>
#include <string.h>

#define SIMPLE_TEST "unagreed"
#include "simple.h"

#define MAXP 64

static int cls(int rc)
{
    int c = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &c);
    return c;
}

/* Block i's elements: b, or uneven (some empty) when `uneven`. */
static int block(int i, int b, int uneven)
{
    return uneven ? (i % 3 == 1 ? 0 : b + 7 * i) : b;
}

/* Counts and displacements: blocks in reverse order of ranks, a gap of 3
 * elements between them. */
static int layout(int b, int uneven, int *counts, int *displs)
{
    int at = 0;
    for (int i = p - 1; i >= 0; i--) {
        counts[i] = block(i, b, uneven);
        displs[i] = at;
        at += counts[i] + 3;
    }
    return at;
}

static int val(int rank, int i)
{
    return rank * 1000003 + i * 7 + 1;
}

static int ninplace, nskipped;

/* Under SMPI (above): does this nonblocking case (nb 1) with a wrong
 * count (bad) go to SMPI's own collective?  Counted as skipped. */
static int vendor_nb(int nb, int bad)
{
#ifdef SMPI_H
    if (nb == 1 && bad) {
        nskipped++;
        return 1;
    }
#else
    (void)nb, (void)bad;
#endif
    return 0;
}

/* Under SMPI (above): rb (n elements) as it was (was) but for what each
 * receive in place took, as many elements of its message as both the
 * message and the receive hold: the `nmsg` messages of len[i] elements
 * from[i] (the sender's values from offset off[i]) into rb at at[i] by
 * receives of count[i]?  Counted when so.  Elsewhere never. */
static int in_place(const int *rb, const int *was, size_t n, int nmsg, const int *from,
                    const int *off, const int *len, const int *at, const int *count)
{
#ifdef SMPI_H
    int *img = malloc(n * sizeof(int)), same = img != NULL;
    if (img) {
        memcpy(img, was, n * sizeof(int));
        for (int m = 0; m < nmsg; m++)
            for (int i = 0; i < len[m] && i < count[m]; i++)
                img[at[m] + i] = val(from[m], off[m] + i);
        same = memcmp(rb, img, n * sizeof(int)) == 0;
    }
    free(img);
    ninplace += same;
    return same;
#else
    (void)rb, (void)was, (void)n, (void)nmsg, (void)from, (void)off, (void)len, (void)at,
        (void)count;
    return 0;
#endif
}

/* A persistent call's two runs (above): the first's code; the second
 * must end alike. */
static int two_runs(int rc, MPI_Request *r)
{
    if (rc != MPI_SUCCESS)
        return rc;
    int first = MPI_SUCCESS;
    for (int run = 0; run < 2 && rc == MPI_SUCCESS; run++) {
        int e = IC_Start(r);
        if (e == MPI_SUCCESS)
            e = IC_Wait(r, MPI_STATUS_IGNORE);
        if (run == 0)
            first = e;
        else if (cls(e) != cls(first))
            fail("persistent: the second run's class %d, the first's %d", cls(e), cls(first));
    }
    IC_Request_free(r);
    return first;
}

/* One call: blocking (nb 0), nonblocking (1) or persistent (2). */
static int gatherv(int nb, const int *sb, int sc, int *rb, const int *counts, const int *displs,
                   int root, MPI_Comm comm)
{
    if (!nb)
        return IC_Gatherv(sb, sc, MPI_INT, rb, counts, displs, MPI_INT, root, comm);
    MPI_Request r = MPI_REQUEST_NULL;
    if (nb == 2)
        return two_runs(IC_Gatherv_init(sb, sc, MPI_INT, rb, counts, displs, MPI_INT, root, comm,
                                        MPI_INFO_NULL, &r),
                        &r);
    int rc = IC_Igatherv(sb, sc, MPI_INT, rb, counts, displs, MPI_INT, root, comm, &r);
    return rc != MPI_SUCCESS ? rc : MPI_Wait(&r, MPI_STATUS_IGNORE);
}

static int scatterv(int nb, const int *sb, const int *counts, const int *displs, int *rb, int rc_,
                    int root, MPI_Comm comm)
{
    if (!nb)
        return IC_Scatterv(sb, counts, displs, MPI_INT, rb, rc_, MPI_INT, root, comm);
    MPI_Request r = MPI_REQUEST_NULL;
    if (nb == 2)
        return two_runs(IC_Scatterv_init(sb, counts, displs, MPI_INT, rb, rc_, MPI_INT, root, comm,
                                         MPI_INFO_NULL, &r),
                        &r);
    int rc = IC_Iscatterv(sb, counts, displs, MPI_INT, rb, rc_, MPI_INT, root, comm, &r);
    return rc != MPI_SUCCESS ? rc : MPI_Wait(&r, MPI_STATUS_IGNORE);
}

/* wrong: 0 right counts; 1 rank `other` sends (gatherv) or expects
 * (scatterv) half its block; 2 twice its block; 3 an empty one where the
 * block has data (or 5 elements where it is empty). */
static int wrong_count(int n, int wrong)
{
    switch (wrong) {
    case 1:
        return n / 2;
    case 2:
        return 2 * n + 1;
    case 3:
        return n ? 0 : 5;
    }
    return n;
}

static void gatherv_case(MPI_Comm comm, int nb, int b, int uneven, int root, int wrong, int other)
{
    int rank, counts[MAXP], displs[MAXP];
    MPI_Comm_rank(comm, &rank);
    int total = layout(b, uneven, counts, displs);
    int mine = counts[rank];
    int sc = rank == other && wrong ? wrong_count(mine, wrong) : mine;
    int bad = other != root && wrong_count(counts[other], wrong) != counts[other];
    if (vendor_nb(nb, bad))
        return;
    int *sb = malloc(((size_t)2 * mine + 8) * sizeof(int));
    int *rb = malloc(((size_t)total + 1) * sizeof(int));
    int *ref = malloc(((size_t)total + 1) * sizeof(int));
    for (int i = 0; i < 2 * mine + 8; i++)
        sb[i] = val(rank, i);
    for (int i = 0; i < total + 1; i++)
        rb[i] = ref[i] = -1 - i;
    if (!bad)
        PMPI_Gatherv(sb, mine, MPI_INT, ref, counts, displs, MPI_INT, root, comm);
    ncases++;
    int rc = gatherv(nb, sb, sc, rb, counts, displs, root, comm);
    int truncated = bad && rank == root;
    if (truncated ? cls(rc) != MPI_ERR_TRUNCATE : rc != MPI_SUCCESS)
        fail("class %d, expected %d", cls(rc), truncated ? MPI_ERR_TRUNCATE : MPI_SUCCESS);
    if (rank == root && memcmp(rb, ref, ((size_t)total + 1) * sizeof(int)) != 0) {
        /* SMPI: each non-root's message, as long as it sent, in place */
        int from[MAXP], off[MAXP], len[MAXP], at[MAXP], cnt[MAXP], n = 0;
        for (int i = 0; i < p; i++)
            if (i != root) {
                from[n] = i;
                off[n] = 0;
                len[n] = i == other ? wrong_count(counts[i], wrong) : counts[i];
                at[n] = displs[i];
                cnt[n++] = counts[i];
            }
        if (!bad || !in_place(rb, ref, (size_t)total + 1, n, from, off, len, at, cnt))
            fail("the root's buffer is not %s", bad ? "as it was" : "the vendor's");
    }
    /* the next call is right everywhere */
    for (int i = 0; i < total + 1; i++)
        rb[i] = ref[i] = -1 - i;
    PMPI_Gatherv(sb, mine, MPI_INT, ref, counts, displs, MPI_INT, root, comm);
    rc = gatherv(nb, sb, mine, rb, counts, displs, root, comm);
    if (rc != MPI_SUCCESS || (rank == root && memcmp(rb, ref, ((size_t)total + 1) * sizeof(int))))
        fail("the next gatherv: class %d or a wrong result", cls(rc));
    free(sb);
    free(rb);
    free(ref);
}

static void scatterv_case(MPI_Comm comm, int nb, int b, int uneven, int root, int wrong, int other)
{
    int rank, counts[MAXP], displs[MAXP];
    MPI_Comm_rank(comm, &rank);
    int total = layout(b, uneven, counts, displs);
    int mine = counts[rank];
    int rcount = rank == other && wrong ? wrong_count(mine, wrong) : mine;
    int bad = other != root && wrong_count(counts[other], wrong) != counts[other];
    if (vendor_nb(nb, bad))
        return;
    size_t rn = (size_t)(2 * mine + 8);
    int *sb = malloc(((size_t)total + 1) * sizeof(int));
    int *rb = malloc(rn * sizeof(int));
    int *ref = malloc(rn * sizeof(int));
    for (int i = 0; i < total + 1; i++)
        sb[i] = val(rank, i);
    for (size_t i = 0; i < rn; i++)
        rb[i] = ref[i] = -1 - (int)i;
    PMPI_Scatterv(sb, counts, displs, MPI_INT, ref, mine, MPI_INT, root, comm);
    for (size_t i = 0; bad && rank == other && i < rn; i++)
        ref[i] = -1 - (int)i; /* untouched */
    ncases++;
    int rc = scatterv(nb, sb, counts, displs, rb, rcount, root, comm);
    int truncated = bad && rank == other;
    if (truncated ? cls(rc) != MPI_ERR_TRUNCATE : rc != MPI_SUCCESS)
        fail("class %d, expected %d", cls(rc), truncated ? MPI_ERR_TRUNCATE : MPI_SUCCESS);
    /* SMPI: the root's message, as long as its count, in place */
    if (memcmp(rb, ref, rn * sizeof(int)) != 0 &&
        !(truncated &&
          in_place(rb, ref, rn, 1, &root, &displs[other], &counts[other], &(int){0}, &rcount)))
        fail("the receive buffer is not %s", truncated ? "as it was" : "the vendor's");
    for (size_t i = 0; i < rn; i++)
        rb[i] = ref[i] = -1 - (int)i;
    PMPI_Scatterv(sb, counts, displs, MPI_INT, ref, mine, MPI_INT, root, comm);
    rc = scatterv(nb, sb, counts, displs, rb, mine, root, comm);
    if (rc != MPI_SUCCESS || memcmp(rb, ref, rn * sizeof(int)))
        fail("the next scatterv: class %d or a wrong result", cls(rc));
    free(sb);
    free(rb);
    free(ref);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (p > MAXP) {
        if (wrank == 0)
            printf("unagreed: p=%d: more than %d ranks, skipped\n", p, MAXP);
        MPI_Finalize();
        return 77;
    }
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    /* a nonblocking call's error comes from MPI_Wait on its request, which
     * MPI raises on no communicator of the call's (Open MPI: the world's) */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    if (IC_Set_algorithm(IC_COLL_ID_GATHERV, "linear") != MPI_SUCCESS ||
        IC_Set_algorithm(IC_COLL_ID_SCATTERV, "linear") != MPI_SUCCESS)
        fail("cannot force the linear algorithms");
    /* blocks of 12 elements (48 bytes: in a slot), 3000 (12 KB: in pieces
     * through the channel; wrong, 6 KB or 24 KB) and 10000 (40 KB: through
     * MPI after the slot; wrong, 20 KB in pieces or 80 KB) */
    static const int blocks[] = {12, 3000, 10000};
    const int nblocks = (int)(sizeof(blocks) / sizeof(blocks[0]));
    static const char *how[] = {"right counts", "half", "twice and one", "empty"};
    static const char *kind[] = {"blocking", "nonblocking", "persistent"};
    static char text[160];
    for (int nb = 0; nb < 3; nb++)
        for (int bi = 0; bi < nblocks; bi++)
            for (int uneven = 0; uneven < 2; uneven++)
                for (int root = 0; root < p; root += (p > 3 ? p - 1 : 1))
                    for (int wrong = 0; wrong < 4; wrong++) {
                        int other = (root + 1) % p;
                        if (wrong && other == root)
                            continue; /* p = 1: nobody else to be wrong */
                        snprintf(text, sizeof(text), "%s, blocks of %d%s, root %d, %s at rank %d",
                                 kind[nb], blocks[bi], uneven ? " (uneven)" : "", root, how[wrong],
                                 other);
                        where = text;
                        gatherv_case(comm, nb, blocks[bi], uneven, root, wrong, other);
                        scatterv_case(comm, nb, blocks[bi], uneven, root, wrong, other);
                    }
    MPI_Comm_free(&comm);
    int all = 0, cases = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&ncases, &cases, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &ninplace, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &nskipped, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* as cases */
    if (wrank == 0 && ninplace)
        printf("NOTE: unagreed: p=%d: %d case(s) where the receiver of a message of another "
               "length holds what its receives in place took (SimGrid's SMPI: the receives are "
               "checked once complete), nothing else written\n",
               p, ninplace);
    if (wrank == 0 && nskipped)
        printf("NOTE: unagreed: p=%d: %d nonblocking case(s) with a wrong count skipped: the "
               "IC_I* calls are SimGrid SMPI's own there, which return MPI_SUCCESS and write in "
               "place\n",
               p, nskipped);
    if (wrank == 0)
        printf("unagreed: p=%d: %d cases, %d failures\n", p, cases, all);
    MPI_Finalize();
    return all != 0;
}
