/*
 * threads.c -- InterCom called from several threads at once, each on a
 * communicator of its own (MPI forbids concurrent collectives on one
 * communicator, not on different ones), at MPI_THREAD_MULTIPLE.
 *
 * Main makes NT duplicates of MPI_COMM_WORLD (in the same order on every
 * rank) and starts NT threads; thread t, on its communicator only, makes
 * its first call there (so the contexts are made concurrently) and then
 * runs rounds of blocking (allreduce of short and long vectors, bcast from
 * a moving root, allgatherv, reduce_scatter_block, gatherv), nonblocking
 * (IC_Iallreduce, IC_Ibcast, completed with MPI_Wait: InterCom's progress
 * thread moves them on) and persistent calls (IC_Allreduce_init, IC_Start,
 * MPI_Wait).  Every result is checked against values each rank computes
 * itself.  Skipped (77) where the MPI does not provide
 * MPI_THREAD_MULTIPLE.
 */
#include <mpi.h>
/* Built twice: tests/mpi/threads calls the IC_ functions;
 * tests/interpose/icp_threads (THREADS_MPI) is a plain MPI program calling
 * MPI_ names, run under the interposition library
 * (tests/interpose/threads.sh), where every call must reach InterCom. */
#ifndef THREADS_MPI
#include "intercom.h"
#define CALL(f) IC_##f
#define INIT(f) IC_##f
#else
#define CALL(f) MPI_##f
#if MPI_VERSION >= 4
#define INIT(f) MPI_##f
#elif defined(OPEN_MPI)
#include <mpi-ext.h>
#define INIT(f) MPIX_##f
#endif
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NT 3
#define ROUNDS 12

static int rank, p;
static MPI_Comm comms[NT];
static int fails[NT];

static long long val(int r, int i, int k)
{
    return (long long)(r + 1) * 1009 + i * 7 + k * 131;
}

static void bad(int t, const char *what, int k)
{
    if (fails[t]++ < 5)
        fprintf(stderr, "FAIL threads: p=%d rank %d thread %d round %d: %s\n", p, rank, t, k, what);
}

static void *worker(void *arg)
{
    int t = (int)(long)arg;
    MPI_Comm c = comms[t];
    enum { LONG = 100000 };
    long long *in = calloc(LONG, sizeof(long long)), *out = calloc(LONG, sizeof(long long));
    long long *all = malloc(sizeof(long long) * (size_t)(p * 40 + 1));
    int *counts = malloc(sizeof(int) * (size_t)p), *displs = malloc(sizeof(int) * (size_t)p);
    MPI_Request pr;
    int pn = 1000 + 17 * t;
    INIT(Allreduce_init)(in, out, pn, MPI_LONG_LONG, MPI_SUM, c, MPI_INFO_NULL, &pr);
    for (int k = 0; k < ROUNDS; k++) {
        int n = k % 3 == 0 ? LONG : 1 + 37 * k + t;
        /* allreduce */
        for (int i = 0; i < n; i++)
            in[i] = val(rank, i, k + t);
        CALL(Allreduce)(in, out, n, MPI_LONG_LONG, MPI_SUM, c);
        for (int i = 0; i < n; i++) {
            long long s = 0;
            for (int r = 0; r < p; r++)
                s += val(r, i, k + t);
            if (out[i] != s) {
                bad(t, "allreduce", k);
                break;
            }
        }
        /* bcast from a moving root */
        int root = (k + t) % p;
        for (int i = 0; i < 500; i++)
            out[i] = rank == root ? val(root, i, k) : -1;
        CALL(Bcast)(out, 500, MPI_LONG_LONG, root, c);
        for (int i = 0; i < 500; i++)
            if (out[i] != val(root, i, k)) {
                bad(t, "bcast", k);
                break;
            }
        /* allgatherv and gatherv: rank r gives r % 5 + k % 3 elements */
        int tot = 0;
        for (int r = 0; r < p; r++) {
            counts[r] = r % 5 + k % 3;
            displs[r] = tot;
            tot += counts[r];
        }
        for (int i = 0; i < counts[rank]; i++)
            in[i] = val(rank, i, k);
        CALL(Allgatherv)(in, counts[rank], MPI_LONG_LONG, all, counts, displs, MPI_LONG_LONG, c);
        for (int r = 0; r < p; r++)
            for (int i = 0; i < counts[r]; i++)
                if (all[displs[r] + i] != val(r, i, k)) {
                    bad(t, "allgatherv", k);
                    r = p;
                    break;
                }
        memset(all, 0, sizeof(long long) * (size_t)(tot ? tot : 1));
        CALL(Gatherv)(in, counts[rank], MPI_LONG_LONG, all, counts, displs, MPI_LONG_LONG, root, c);
        for (int r = 0; rank == root && r < p; r++)
            for (int i = 0; i < counts[r]; i++)
                if (all[displs[r] + i] != val(r, i, k)) {
                    bad(t, "gatherv", k);
                    r = p;
                    break;
                }
        /* reduce_scatter_block of 3 elements each */
        for (int i = 0; i < 3 * p; i++)
            in[i] = val(rank, i, k);
        CALL(Reduce_scatter_block)(in, out, 3, MPI_LONG_LONG, MPI_MAX, c);
        for (int i = 0; i < 3; i++)
            if (out[i] != val(p - 1, 3 * rank + i, k))
                bad(t, "reduce_scatter_block", k);
        /* nonblocking, completed by MPI_Wait */
        MPI_Request q[2];
        long long x = rank + k, sx = 0, b = rank == root ? 77 + k : 0;
        CALL(Iallreduce)(&x, &sx, 1, MPI_LONG_LONG, MPI_SUM, c, &q[0]);
        CALL(Ibcast)(&b, 1, MPI_LONG_LONG, root, c, &q[1]);
        MPI_Wait(&q[0], MPI_STATUS_IGNORE);
        MPI_Wait(&q[1], MPI_STATUS_IGNORE);
        if (sx != (long long)p * (p - 1) / 2 + (long long)p * k || b != 77 + k)
            bad(t, "nonblocking", k);
        /* persistent */
        for (int i = 0; i < pn; i++)
            in[i] = val(rank, i, 3 * k);
        CALL(Start)(&pr);
        MPI_Wait(&pr, MPI_STATUS_IGNORE);
        for (int i = 0; i < pn; i++) {
            long long s = 0;
            for (int r = 0; r < p; r++)
                s += val(r, i, 3 * k);
            if (out[i] != s) {
                bad(t, "persistent allreduce", k);
                break;
            }
        }
    }
    CALL(Request_free)(&pr);
    free(in);
    free(out);
    free(all);
    free(counts);
    free(displs);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (provided != MPI_THREAD_MULTIPLE) {
        if (rank == 0)
            printf("SKIP: threads: the MPI does not provide MPI_THREAD_MULTIPLE\n");
        MPI_Finalize();
        return 77;
    }
    for (int t = 0; t < NT; t++)
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
    pthread_t th[NT];
    for (int t = 0; t < NT; t++)
        pthread_create(&th[t], NULL, worker, (void *)(long)t);
    for (int t = 0; t < NT; t++)
        pthread_join(th[t], NULL);
    int mine = 0, all = 0;
    for (int t = 0; t < NT; t++) {
        mine += fails[t];
        MPI_Comm_free(&comms[t]);
    }
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%s threads p=%d: %d threads x %d rounds, %d failure(s)\n",
               all ? "FAIL:" : "PASS:", p, NT, ROUNDS, all);
    MPI_Finalize();
    return all != 0;
}
