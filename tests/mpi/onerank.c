/*
 * onerank.c -- mistakes only one rank can see.
 *
 * MPI calls these programs erroneous, but a library that is dropped into
 * working programs must not turn one rank's mistake into a hang, or into
 * wrong results of the calls that follow.  In every case exactly one rank
 * (`who`) passes a bad argument that only it can see -- a NULL or aliased
 * buffer, MPI_IN_PLACE where MPI forbids it, an uncommitted datatype, a
 * count that does not match the others', and the arguments significant at
 * the root only (gather's recvcount, gatherv's recvcounts, scatterv's
 * displs) -- while the other ranks make a correct call.  Under
 * MPI_ERRORS_RETURN:
 *   - `who` gets the expected error class, the others MPI_SUCCESS, and
 *     nobody hangs (the launcher's time limit catches one); in gatherv and
 *     scatterv the algorithm decides who can see a count that differs
 *     (the linear ones send without the root's counts: the receiver finds
 *     the message short), and a rank left without its data by the root's
 *     mistake may return MPI_ERR_TRUNCATE instead (its buffers untouched);
 *   - nothing `who` owns is written (its buffers are compared with a copy;
 *     under SimGrid's SMPI, where the linear gatherv's and scatterv's
 *     receives go in place and are checked once complete, a `who` that
 *     receives a message of another length than its count may hold
 *     exactly what those receives took, and nothing else: in_place);
 *   - where the mistake leaves `who`'s contribution readable, the others'
 *     results are right (a bcast through a rank with a NULL buffer still
 *     reaches everyone);
 *   - then a correct allreduce and a correct call of the same collective
 *     on the same communicator give the right answer on every rank.
 *
 * Built twice from this file: tests/mpi/onerank calls the IC_ functions;
 * tests/interpose/icp_onerank (ONERANK_MPI) is a plain MPI program calling
 * MPI_ names, run under the interposition library (tests/interpose/
 * onerank.sh), where every call must reach InterCom.
 */
#include <mpi.h>
#ifndef ONERANK_MPI
#include "intercom.h"
#define CALL(f) IC_##f
#else
#define CALL(f) MPI_##f
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(OPEN_MPI)
#define INPLACE_CLASS MPI_ERR_ARG /* Open MPI's class for misused MPI_IN_PLACE */
#else
#define INPLACE_CLASS MPI_ERR_BUFFER
#endif

#define N 12 /* elements per block */
#define MAXP 64

static MPI_Comm comm;
static int rank, p, failures, ncases, ninplace;
static int sb[N * MAXP], rb[N * MAXP], copy_s[N * MAXP], copy_r[N * MAXP];
static int *accept_r; /* rb as the receives in place leave it, where accepted */
static int counts[MAXP], displs[MAXP];

/* fmt takes what, then a and b as far as it names them */
static void failf(const char *name, const char *fmt, const char *what, long a, long b)
{
    failures++;
    if (failures <= 30) {
        fprintf(stderr, "FAIL onerank: p=%d rank %d: %s: ", p, rank, name);
        fprintf(stderr, fmt, what, a, b);
        fprintf(stderr, "\n");
    }
}

static int cls(int rc)
{
    int c = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &c);
    return c;
}

static void fill(void)
{
    for (int i = 0; i < N * MAXP; i++) {
        sb[i] = 1000 * rank + i;
        rb[i] = -1 - i;
    }
    for (int i = 0; i < MAXP; i++) {
        counts[i] = N;
        displs[i] = N * i;
    }
    memcpy(copy_s, sb, sizeof(sb));
    memcpy(copy_r, rb, sizeof(rb));
    accept_r = NULL;
}

/* Under SimGrid's SMPI the linear gatherv's and scatterv's receives go
 * in place at once and are checked once complete (README, "Errors only
 * one rank can see"; executor.c, IC_PROBE_FIRST), so a rank that receives
 * a message of another length than its count may hold what its receives
 * took: from each message received (`len` elements from sender `from`'s
 * send buffer at `off`, into rb at `at` by a receive of `count`), as many
 * elements as both the message and the receive hold, and nothing else.
 * Called per message before the case's call (fill() first); elsewhere a
 * mistake found must leave rb as it was. */
static void received_in_place(int from, int off, int len, int at, int count)
{
#ifdef SMPI_H
    static int in_place[N * MAXP];
    if (!accept_r)
        memcpy(in_place, copy_r, sizeof(in_place));
    accept_r = in_place;
    for (int i = 0; i < len && i < count; i++)
        in_place[at + i] = 1000 * from + off + i;
#else
    (void)from, (void)off, (void)len, (void)at, (void)count;
#endif
}

/* After the erroneous call: a correct allreduce and a correct call of the
 * same collective give the right answer everywhere. */
static void follow_up(const char *name, const char *coll)
{
    int x[4], y[4];
    for (int i = 0; i < 4; i++)
        x[i] = rank + 1 + i;
    int rc = CALL(Allreduce)(x, y, 4, MPI_INT, MPI_SUM, comm);
    for (int i = 0; i < 4; i++)
        if (rc != MPI_SUCCESS || y[i] != p * (p + 1) / 2 + p * i)
            failf(name, "%s: element %ld is %ld", "next allreduce", i, rc ? -1 : y[i]);
    int v[N], g[N * MAXP];
    for (int i = 0; i < N; i++)
        v[i] = rank * 100 + i;
    int root = p - 1;
    if (strcmp(coll, "bcast") == 0) {
        rc = CALL(Bcast)(v, N, MPI_INT, root, comm);
        for (int i = 0; i < N && rc == MPI_SUCCESS; i++)
            if (v[i] != root * 100 + i)
                failf(name, "%s: element %ld is %ld", "next bcast", i, v[i]);
    } else if (strncmp(coll, "gather", 6) == 0 || strncmp(coll, "allgather", 9) == 0) {
        rc = CALL(Allgather)(v, N, MPI_INT, g, N, MPI_INT, comm);
        for (int i = 0; i < N * p && rc == MPI_SUCCESS; i++)
            if (g[i] != (i / N) * 100 + i % N)
                failf(name, "%s: element %ld is %ld", "next allgather", i, g[i]);
        rc = rc ? rc : CALL(Gather)(v, N, MPI_INT, g, N, MPI_INT, root, comm);
        for (int i = 0; rank == root && i < N * p && rc == MPI_SUCCESS; i++)
            if (g[i] != (i / N) * 100 + i % N)
                failf(name, "%s: element %ld is %ld", "next gather", i, g[i]);
    } else if (strncmp(coll, "scatter", 7) == 0) {
        for (int i = 0; i < N * p; i++)
            g[i] = i;
        rc = CALL(Scatter)(g, N, MPI_INT, v, N, MPI_INT, root, comm);
        for (int i = 0; i < N && rc == MPI_SUCCESS; i++)
            if (v[i] != rank * N + i)
                failf(name, "%s: element %ld is %ld", "next scatter", i, v[i]);
    } else {
        int out = 0;
        rc = CALL(Reduce)(&v[0], &out, 1, MPI_INT, MPI_SUM, root, comm);
        if (rc == MPI_SUCCESS && rank == root && out != 100 * p * (p - 1) / 2)
            failf(name, "%s: %ld, expected %ld", "next reduce", out, 100 * p * (p - 1) / 2);
        rc = rc ? rc : CALL(Reduce_scatter_block)(g, &out, 0, MPI_INT, MPI_SUM, comm);
    }
    if (rc != MPI_SUCCESS)
        failf(name, "%s: class %ld", "the next call failed", cls(rc), 0);
}

/* Buffers as fill() left them? */
static void untouched(const char *name, const char *whose)
{
    if (memcmp(sb, copy_s, sizeof(sb)) != 0)
        failf(name, "%s's send buffer was written", whose, 0, 0);
    if (memcmp(rb, copy_r, sizeof(rb)) == 0)
        return;
    if (accept_r && memcmp(rb, accept_r, sizeof(rb)) == 0)
        ninplace++; /* exactly what its receives took (SMPI) */
    else
        failf(name, "%s's receive buffer was written", whose, 0, 0);
}

/* The outcome of case `name`: rc on every rank, untouched buffers at who;
 * the other ranks succeed, or (alt != MPI_SUCCESS) may instead return alt
 * with their buffers untouched: a rank that did not get the data it asked
 * for because of who's mistake. */
static void outcome_or(const char *name, const char *coll, int rc, int who, int want, int alt)
{
    ncases++;
    if (rank == who) {
        if (cls(rc) != want)
            failf(name, "%s: class %ld, expected %ld", "the erring rank", cls(rc), want);
        untouched(name, "the erring rank");
    } else if (alt != MPI_SUCCESS && cls(rc) == alt) {
        untouched(name, "a rank short of its data");
    } else if (rc != MPI_SUCCESS) {
        failf(name, "%s: class %ld", "a correct rank failed", cls(rc), 0);
    }
    follow_up(name, coll);
}

static void outcome(const char *name, const char *coll, int rc, int who, int want)
{
    outcome_or(name, coll, rc, who, want, MPI_SUCCESS);
}

/* The rank among a and b whose call returned class want (a when neither). */
static int reporter(int rc, int a, int b, int want)
{
    int c = cls(rc), at_b = 0;
    MPI_Bcast(&c, 1, MPI_INT, b, comm);
    at_b = c == want;
    return at_b ? b : a;
}

/* Did every rank but `who` (and the rank `skip`) receive the values v(i)
 * of the sender `from` in rb? */
static void check_block(const char *name, int who, int skip, int from, int n)
{
    if (rank == who || rank == skip)
        return;
    for (int i = 0; i < n; i++)
        if (rb[i] != 1000 * from + i) {
            failf(name, "%s: element %ld is %ld", "a correct rank's result", i, rb[i]);
            return;
        }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    if (p > MAXP) {
        if (rank == 0)
            fprintf(stderr, "onerank: at most %d ranks\n", MAXP);
        MPI_Finalize();
        return 1;
    }
    MPI_Datatype unc; /* never committed: one rank passes it */
    MPI_Type_contiguous(N, MPI_INT, &unc);
    int root = p > 1 ? 1 : 0;
    int other = p > 2 ? 2 : p - 1 - root > 0 ? 0 : root; /* a non-root rank */
    if (p == 2)
        other = 0;
    int me_root = rank == root, rc;

    /* bcast: a non-root passes a NULL buffer; the data still reach every
     * other rank through it. */
    fill();
    rc = CALL(Bcast)(rank == other ? NULL : sb, N * 4, MPI_INT, root, comm);
    if (rank != other && rank != root)
        memcpy(rb, sb, sizeof(int) * N * 4);
    check_block("bcast, NULL buffer at a non-root", other, root, root, N * 4);
    outcome("bcast, NULL buffer at a non-root", "bcast", rc, other, MPI_ERR_BUFFER);

    /* bcast: the root's datatype is not committed. */
    fill();
    rc =
        me_root ? CALL(Bcast)(sb, 2, unc, root, comm) : CALL(Bcast)(rb, 2 * N, MPI_INT, root, comm);
    outcome("bcast, uncommitted datatype at the root", "bcast", rc, root, MPI_ERR_TYPE);

    /* reduce: sendbuf == recvbuf at the root only. */
    fill();
    rc = CALL(Reduce)(sb, me_root ? sb : rb, N, MPI_INT, MPI_SUM, root, comm);
    outcome("reduce, sendbuf == recvbuf at the root", "reduce", rc, root, INPLACE_CLASS);

    /* reduce: MPI_IN_PLACE at a non-root. */
    fill();
    rc = CALL(Reduce)(rank == other && other != root ? MPI_IN_PLACE : sb, rb, N, MPI_INT, MPI_SUM,
                      root, comm);
    if (other != root)
        outcome("reduce, MPI_IN_PLACE at a non-root", "reduce", rc, other, INPLACE_CLASS);

    /* allreduce: one rank's recvbuf is NULL; its contribution still counts. */
    fill();
    rc = CALL(Allreduce)(sb, rank == other ? NULL : rb, N, MPI_INT, MPI_SUM, comm);
    for (int i = 0; rank != other && rc == MPI_SUCCESS && i < N; i++)
        if (rb[i] != 1000 * p * (p - 1) / 2 + p * i) {
            failf("allreduce, NULL recvbuf at one rank", "%s: element %ld is %ld",
                  "a correct rank's result", i, rb[i]);
            break;
        }
    outcome("allreduce, NULL recvbuf at one rank", "reduce", rc, other, MPI_ERR_BUFFER);

    /* allreduce: one rank aliases its buffers. */
    fill();
    rc = CALL(Allreduce)(sb, rank == other ? sb : rb, N, MPI_INT, MPI_SUM, comm);
    outcome("allreduce, sendbuf == recvbuf at one rank", "reduce", rc, other, MPI_ERR_BUFFER);

    /* reduce_scatter_block: one rank's recvbuf is MPI_IN_PLACE. */
    fill();
    rc = CALL(Reduce_scatter_block)(sb, rank == other ? MPI_IN_PLACE : rb, N / 2, MPI_INT, MPI_SUM,
                                    comm);
    outcome("reduce_scatter_block, recvbuf MPI_IN_PLACE at one rank", "reduce", rc, other,
            INPLACE_CLASS);

    /* reduce_scatter: one rank's recvbuf is NULL. */
    fill();
    rc = CALL(Reduce_scatter)(sb, rank == other ? NULL : rb, counts, MPI_INT, MPI_SUM, comm);
    outcome("reduce_scatter, NULL recvbuf at one rank", "reduce", rc, other, MPI_ERR_BUFFER);

    /* allgather: one rank sends two blocks' worth where all receive one. */
    fill();
    rc = CALL(Allgather)(sb, rank == other ? 2 * N : N, MPI_INT, rb, N, MPI_INT, comm);
    outcome("allgather, sendcount differs at one rank", "allgather", rc, other, MPI_ERR_TRUNCATE);

    /* allgather: one rank's sendtype is not committed. */
    fill();
    rc = CALL(Allgather)(sb, rank == other ? 1 : N, rank == other ? unc : MPI_INT, rb, N, MPI_INT,
                         comm);
    outcome("allgather, uncommitted sendtype at one rank", "allgather", rc, other, MPI_ERR_TYPE);

    /* allgatherv: one rank's displs is NULL. */
    fill();
    rc = CALL(Allgatherv)(sb, N, MPI_INT, rb, counts, rank == other ? NULL : displs, MPI_INT, comm);
    outcome("allgatherv, NULL displs at one rank", "allgather", rc, other, MPI_ERR_ARG);

    /* gather: the root receives 2 where everyone sends 1. */
    fill();
    rc = CALL(Gather)(sb, N, MPI_INT, rb, me_root ? 2 * N : N, MPI_INT, root, comm);
    outcome("gather, recvcount differs at the root", "gather", rc, root, MPI_ERR_TRUNCATE);

    /* gather: the root's recvbuf is NULL. */
    fill();
    rc = CALL(Gather)(sb, N, MPI_INT, me_root ? NULL : rb, N, MPI_INT, root, comm);
    outcome("gather, NULL recvbuf at the root", "gather", rc, root, MPI_ERR_BUFFER);

    /* gatherv: the root's recvcounts is NULL (only the root knows the blocks). */
    fill();
    rc = CALL(Gatherv)(sb, N, MPI_INT, rb, me_root ? NULL : counts, displs, MPI_INT, root, comm);
    outcome("gatherv, NULL recvcounts at the root", "gather", rc, root, MPI_ERR_ARG);

    /* gatherv: a non-root sends less than the root expects.  The rank that
     * can see it reports it: the non-root when the root's counts come
     * first (the MST gather), the root when every rank sends what its own
     * arguments say (the linear gather: the root finds the message short). */
    fill();
    for (int i = 0; me_root && i < p; i++)
        if (i != root)
            received_in_place(i, 0, i == other ? N / 2 : N, displs[i], counts[i]);
    rc = CALL(Gatherv)(sb, rank == other && other != root ? N / 2 : N, MPI_INT, rb, counts, displs,
                       MPI_INT, root, comm);
    if (other != root)
        outcome("gatherv, sendcount differs at a non-root", "gather", rc,
                reporter(rc, other, root, MPI_ERR_TRUNCATE), MPI_ERR_TRUNCATE);

    /* gatherv: a non-root sends more than the root expects.  The linear
     * gather's root learns every length before it takes any message (from
     * the channels' slots, or by probing), so either MPI returns the error
     * (a receive shorter than its message, MPICH would raise on
     * MPI_COMM_WORLD). */
    if (other != root) {
        fill();
        for (int i = 0; me_root && i < p; i++)
            if (i != root)
                received_in_place(i, 0, i == other ? 2 * N : N, displs[i], counts[i]);
        rc = CALL(Gatherv)(sb, rank == other ? 2 * N : N, MPI_INT, rb, counts, displs, MPI_INT,
                           root, comm);
        outcome("gatherv, sendcount longer at a non-root", "gather", rc,
                reporter(rc, other, root, MPI_ERR_TRUNCATE), MPI_ERR_TRUNCATE);
    }

    /* scatter: the root's sendbuf is NULL. */
    fill();
    rc = CALL(Scatter)(me_root ? NULL : sb, N, MPI_INT, rb, N, MPI_INT, root, comm);
    outcome("scatter, NULL sendbuf at the root", "scatter", rc, root, MPI_ERR_BUFFER);

    /* scatter: a non-root's recvbuf is MPI_IN_PLACE. */
    fill();
    rc = CALL(Scatter)(sb, N, MPI_INT, rank == other && other != root ? MPI_IN_PLACE : rb, N,
                       MPI_INT, root, comm);
    if (other != root)
        outcome("scatter, MPI_IN_PLACE at a non-root", "scatter", rc, other, INPLACE_CLASS);

    /* scatterv: the root's displs is NULL. */
    fill();
    rc = CALL(Scatterv)(sb, counts, me_root ? NULL : displs, MPI_INT, rb, N, MPI_INT, root, comm);
    /* the others get nothing: when they learn it from the root first (MST
     * scatter) they succeed, when they find their message empty (linear
     * scatter) MPI_ERR_TRUNCATE */
    outcome_or("scatterv, NULL displs at the root", "scatter", rc, root, MPI_ERR_ARG,
               MPI_ERR_TRUNCATE);

    /* scatterv: a non-root expects more than the root sends. */
    fill();
    if (rank == other && other != root)
        received_in_place(root, displs[other], counts[other], 0, 2 * N);
    rc = CALL(Scatterv)(sb, counts, displs, MPI_INT, rb, rank == other && other != root ? 2 * N : N,
                        MPI_INT, root, comm);
    if (other != root)
        outcome("scatterv, recvcount differs at a non-root", "scatter", rc, other,
                MPI_ERR_TRUNCATE);

    MPI_Type_free(&unc);
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &ninplace, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && ninplace)
        printf("NOTE: onerank p=%d: %d case(s) where the rank that found a count mismatch "
               "holds what its receives in place took (SimGrid's SMPI: the linear gatherv's "
               "and scatterv's receives are checked once complete), nothing else written\n",
               p, ninplace);
    if (rank == 0)
        printf("%s: onerank p=%d: %d cases, %d failure(s)\n", total ? "FAIL" : "PASS", p, ncases,
               total);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return total ? 1 : 0;
}
