/*
 * calibrate.c -- the model's start-up and rate across nodes, measured on
 * the machine at hand.
 *
 * Without a tuning table the selector prices plans with the built-in
 * figures of a switched cluster (tuning/cost_params.c: 20 us, 100 MB/s).
 * A network ten times slower or faster moves every switch between a
 * latency-bound and a bandwidth-bound plan by the same factor: on the
 * emulated cluster's 100 Mbit/s links the 64 KiB broadcast took 1.73
 * times its bound with the built-in figures (a 2-D scatter and collect)
 * and 1.05 with the links' own (a pipeline).  So the first communicator
 * that spans nodes measures them, once per process:
 *
 *   - its rank 0 and the lowest rank on another node (rank 1 when every
 *     rank shares a node and INTERCOM_CALIBRATE=1 asks anyway) time round
 *     trips of IC_CAL_SHORT bytes (after two that open the connection):
 *     alpha is half the fastest;
 *   - then of IC_CAL_FIRST bytes, four times longer each time until one
 *     way takes IC_CAL_ENOUGH or the length reaches IC_CAL_LAST (a short
 *     long message measures a shaper's burst or a cache, not the link):
 *     beta is the fastest one way of the last length, less alpha, per
 *     byte.  Rank 0 says which length comes next, so both sides stop
 *     together;
 *   - every rank takes rank 0's figures (an allreduce), so all choose
 *     alike.  Every later communicator agrees first on the figures its
 *     ranks already hold (the largest of each; a rank without any takes
 *     them) and measures only when none does.
 *
 * The figures replace alpha and beta of the model across nodes as a
 * table's would (tuning/table.c: ic_cost_take: overhead, beta_x, x_min
 * follow from them), for that communicator's choices only; a tuning
 * table's model, and any INTERCOM_ALPHA or INTERCOM_BETA set, come first
 * (with both set nothing is measured). INTERCOM_CALIBRATE=0 keeps the
 * built-in figures.  On 100 Mbit/s links the measurement takes about
 * 0.1 s; on fast ones, well under a millisecond.
 */
#include "config.h"
#include "ic_internal.h"
#include "table.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IC_CAL_SHORT 8                   /* bytes of the start-up's round trips */
#define IC_CAL_TRIPS 8                   /* ... timed (the fastest counts)      */
#define IC_CAL_FIRST ((size_t)256 << 10) /* the first long length               */
#define IC_CAL_LAST ((size_t)4 << 20)    /* the longest                         */
#define IC_CAL_LONG_TRIPS 3              /* round trips timed of a long length  */
#define IC_CAL_ENOUGH 2e-3               /* one way: the length is long enough  */

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static double known[2];  /* this process's figures (alpha, beta), 0: none */
static int measurements; /* measured here (tests: ic_calibrations)        */

int ic_calibrations(void)
{
    pthread_mutex_lock(&mu);
    int n = measurements;
    pthread_mutex_unlock(&mu);
    return n;
}

/* The fastest of n round trips of `bytes` between this rank and peer, one
 * way (half of it): *best.  `first`: this rank sends first. */
static int trips(MPI_Comm comm, int first, int peer, char *buf, size_t bytes, int n, double *best)
{
    *best = INFINITY;
    for (int i = 0; i < n; i++) {
        double t = MPI_Wtime();
        int rc;
        if (first) {
            rc = MPI_Send(buf, (int)bytes, MPI_BYTE, peer, IC_TAG_CALIBRATE, comm);
            if (rc == MPI_SUCCESS)
                rc = MPI_Recv(buf, (int)bytes, MPI_BYTE, peer, IC_TAG_CALIBRATE, comm,
                              MPI_STATUS_IGNORE);
        } else {
            rc = MPI_Recv(buf, (int)bytes, MPI_BYTE, peer, IC_TAG_CALIBRATE, comm,
                          MPI_STATUS_IGNORE);
            if (rc == MPI_SUCCESS)
                rc = MPI_Send(buf, (int)bytes, MPI_BYTE, peer, IC_TAG_CALIBRATE, comm);
        }
        if (rc != MPI_SUCCESS)
            return rc;
        t = (MPI_Wtime() - t) / 2;
        if (t < *best)
            *best = t;
    }
    return MPI_SUCCESS;
}

/* Rank 0 and peer measure (the file's header); rank 0's figures into
 * fig (alpha, beta), left 0 where they cannot be had. */
static int measure(MPI_Comm comm, int rank, int peer, double fig[2])
{
    int lead = rank == 0, other = lead ? peer : 0;
    char *buf = malloc(IC_CAL_LAST);
    int ok = buf != NULL, both = 0;
    int rc = MPI_Sendrecv(&ok, 1, MPI_INT, other, IC_TAG_CALIBRATE, &both, 1, MPI_INT, other,
                          IC_TAG_CALIBRATE, comm, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS || !ok || !both)
        goto out;
    double t0, t;
    memset(buf, 0, IC_CAL_LAST);
    if ((rc = trips(comm, lead, other, buf, IC_CAL_SHORT, 2, &t0)) != MPI_SUCCESS ||
        (rc = trips(comm, lead, other, buf, IC_CAL_SHORT, IC_CAL_TRIPS, &t0)) != MPI_SUCCESS)
        goto out;
    uint64_t len = IC_CAL_FIRST, last = 0;
    for (;;) {
        /* rank 0 decides the next length (0: stop) and says it */
        if (lead)
            rc = MPI_Send(&len, 1, MPI_UINT64_T, other, IC_TAG_CALIBRATE, comm);
        else
            rc = MPI_Recv(&len, 1, MPI_UINT64_T, other, IC_TAG_CALIBRATE, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS || len == 0)
            break;
        if ((rc = trips(comm, lead, other, buf, (size_t)len, IC_CAL_LONG_TRIPS, &t)) != MPI_SUCCESS)
            break;
        last = len;
        if (lead)
            len = t >= IC_CAL_ENOUGH || len >= IC_CAL_LAST ? 0 : len * 4;
    }
    if (rc == MPI_SUCCESS && lead && last > 0 && t0 > 0) {
        double beta = (t - t0) / (double)(last - IC_CAL_SHORT);
        fig[0] = t0;
        fig[1] = beta > 0 ? beta : t / (double)last;
    }
out:
    free(buf);
    return rc;
}

int ic_calibrate(ic_ctx_t *ctx, int spans, int lead)
{
    const ic_env_t *e = ic_env();
    ctx->calibrated = 0;
    if (e->calibrate == 0 || ctx->size < 2 || (e->calibrate == 2 && !spans))
        return MPI_SUCCESS;
    unsigned keep = ic_env_keep();
    int want = (keep & (IC_KEEP_ALPHA | IC_KEEP_BETA)) != (IC_KEEP_ALPHA | IC_KEEP_BETA) &&
               !(ctx->table_ok && ic_tuning_params(ctx->cost) != ctx->cost);
    /* the peer: the lowest rank off rank 0's node (whose ranks lead = 0) */
    int cand = (spans ? lead != 0 : ctx->rank != 0) ? ctx->rank : ctx->size;
    double v[4];
    pthread_mutex_lock(&mu);
    v[0] = want;
    v[1] = known[0];
    v[2] = known[1];
    pthread_mutex_unlock(&mu);
    v[3] = -(double)cand;
    int rc = PMPI_Allreduce(MPI_IN_PLACE, v, 4, MPI_DOUBLE, MPI_MAX, ctx->comm);
    if (rc != MPI_SUCCESS || v[0] == 0)
        return rc;
    int peer = (int)-v[3];
    if (!(v[1] > 0 && v[2] > 0)) { /* nobody has figures: measure */
        if (peer >= ctx->size)
            return MPI_SUCCESS;
        double fig[2] = {0, 0}, took = MPI_Wtime();
        if (ctx->rank == 0 || ctx->rank == peer)
            rc = measure(ctx->comm, ctx->rank, peer, fig);
        took = MPI_Wtime() - took;
        /* every rank takes part, whatever the measurement gave */
        int rc2 = PMPI_Allreduce(MPI_IN_PLACE, fig, 2, MPI_DOUBLE, MPI_MAX, ctx->comm);
        if (rc != MPI_SUCCESS || rc2 != MPI_SUCCESS)
            return rc != MPI_SUCCESS ? rc : rc2;
        if (!(fig[0] > 0 && fig[1] > 0))
            return MPI_SUCCESS;
        v[1] = fig[0];
        v[2] = fig[1];
        pthread_mutex_lock(&mu);
        measurements++;
        pthread_mutex_unlock(&mu);
        if (e->verbose && ctx->rank == 0)
            fprintf(stderr,
                    "InterCom: measured %s (ranks 0 and %d of %d, %.3g s): alpha %.3g s, "
                    "beta %.3g s/B (%.4g MB/s); the model takes them where no tuning table "
                    "and no INTERCOM_ALPHA or INTERCOM_BETA does (INTERCOM_CALIBRATE=0: the "
                    "built-in figures)\n",
                    spans ? "across nodes" : "within a node", peer, ctx->size, took, v[1], v[2],
                    1e-6 / v[2]);
    }
    pthread_mutex_lock(&mu);
    known[0] = v[1];
    known[1] = v[2];
    pthread_mutex_unlock(&mu);
    ctx->calib = *ctx->cost;
    ic_cost_take(&ctx->calib, keep, ctx->cost == &e->cost_node, v[1], v[2], NAN, NAN, NAN, NAN);
    ctx->calibrated = 1;
    return MPI_SUCCESS;
}
