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
 *   - then round trips of every length doubling from IC_CAL_LADDER below
 *     the long one, each against the line through alpha and the long
 *     length (ic_msgtime_t: an MPI's protocols make some lengths dearer
 *     than the line says; the pipelined algorithms price their segments
 *     with it and keep them where messages are cheap: on the simulated
 *     Paragon the 1 MiB broadcast's 20 KiB segments cost 1.3 times the
 *     line's, 8 KiB ones the line's, and it went from 27.5 to 14.5 ms);
 *   - then both send that length at once (COMMS2's exchange, as a
 *     schedule's halving or doubling step does): beta_x is the fastest
 *     exchange, less alpha, per byte each way, no less than beta.  The
 *     built-in figures take twice beta (TCP: one connection carries both
 *     ways); a full-duplex network moves both ways at beta;
 *   - every rank takes rank 0's figures (an allreduce), so all choose
 *     alike.  Every later communicator agrees first on the figures its
 *     ranks already hold (the largest of each; a rank without any takes
 *     them) and measures only when none does.
 *
 * A communicator of 4 ranks or more, each alone on its node (any with
 * INTERCOM_CALIBRATE=1), also measures figures by rank distance
 * (ic_strides_t): on the simulated 16 x 32 Paragon, a torus, the selector
 * priced a line of 2 ranks 256 apart (16 hops, every link shared by 16
 * messages) like neighbours, and the 1 MiB reduce-scatter took 0.35 of
 * SMPI's selector's speed; with them 1.23.  Every rank at once shifts
 * 8 B and then a long message by each stride dividing p; the slowest
 * rank's times against the cheapest stride's are the factors
 * (measure_strides), kept per process with the communicator's group, so
 * a communicator of the same group takes them without measuring.  Each
 * stride also both ways at once (every rank to the ranks s on and s
 * back): where both go at full rate over some stride (a torus: a link
 * each way; the Bunyip's three NICs, for ranks in other groups) the
 * selector also prices the bidir_ rings and chains (IC_ALG_TWO_WAYS),
 * whose closed forms assume it, each line at its stride's rate; the
 * Paragon's 1 MiB broadcast went from 43.1 to 25.0 ms.  On a switched
 * network of one port a node every factor is 1, two sends share the
 * port, and nothing changes.
 *
 * The figures replace alpha, beta and beta_x of the model across nodes as
 * a table's would (tuning/table.c: ic_cost_take: overhead and x_min
 * follow from them), for that communicator's choices only; a tuning
 * table's model, and any INTERCOM_ALPHA, INTERCOM_BETA or
 * INTERCOM_BETA_EXCHANGE set, come first (with alpha and beta both set
 * nothing is measured). INTERCOM_CALIBRATE=0 keeps the
 * built-in figures.  On 100 Mbit/s links the measurement takes about
 * 0.35 s (the emulated cluster); on 100 Gbit/s ones a few milliseconds.
 */
#include "config.h"
#include "ic_internal.h"
#include "table.h"

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
#define IC_CAL_LADDER 128                /* the first length of the ladder      */
#define IC_CAL_LADDER_TRIPS 3            /* round trips timed of each            */
#define IC_CAL_MSG_SIGNIFICANT 1.15      /* a smaller message factor counts as 1 */
/* alpha, beta, beta_x, long length; the ladder's one-way times */
#define IC_CAL_FIGS (4 + IC_MSGTIME_MAX)
#define IC_CAL_SHIFT_LONG IC_CAL_FIRST /* a shift's long messages, at most    */
#define IC_CAL_SHIFTS 4                /* short shifts a timing averages      */
#define IC_CAL_SHIFT_ROUNDS 3          /* timings of short shifts (fastest)   */
#define IC_CAL_LONG_ROUNDS 3           /* ... of long ones, one shift each    */
#define IC_CAL_SIGNIFICANT 1.5         /* a smaller factor counts as 1        */

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static double known[IC_CAL_FIGS]; /* this process's figures, 0: none    */
static int measurements;          /* measured here (tests: ic_calibrations)        */
/* the last figures by rank distance measured here, and the group of the
 * communicator they belong to (MPI_GROUP_NULL: none) */
static ic_strides_t known_strides;
static MPI_Group known_group = MPI_GROUP_NULL;
static int stride_measurements;

int ic_calibrations(void)
{
    pthread_mutex_lock(&mu);
    int n = measurements;
    pthread_mutex_unlock(&mu);
    return n;
}

int ic_stride_calibrations(void)
{
    pthread_mutex_lock(&mu);
    int n = stride_measurements;
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

/* The fastest of n exchanges of `bytes` each way between this rank and
 * peer (both send at once, as a schedule's exchange): *best. */
static int swaps(MPI_Comm comm, int peer, char *buf, size_t bytes, int n, double *best)
{
    *best = INFINITY;
    for (int i = 0; i < n; i++) {
        double t = MPI_Wtime();
        int rc =
            MPI_Sendrecv(buf, (int)bytes, MPI_BYTE, peer, IC_TAG_CALIBRATE, buf + bytes, (int)bytes,
                         MPI_BYTE, peer, IC_TAG_CALIBRATE, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
        t = MPI_Wtime() - t;
        if (t < *best)
            *best = t;
    }
    return MPI_SUCCESS;
}

/* Rank 0 and peer measure (the file's header); rank 0's figures into
 * fig (alpha, beta, beta_x), left 0 where they cannot be had. */
static int measure(MPI_Comm comm, int rank, int peer, double fig[IC_CAL_FIGS])
{
    int lead = rank == 0, other = lead ? peer : 0;
    char *buf = malloc(2 * IC_CAL_LAST); /* an exchange's two messages */
    int ok = buf != NULL, both = 0;
    int rc = MPI_Sendrecv(&ok, 1, MPI_INT, other, IC_TAG_CALIBRATE, &both, 1, MPI_INT, other,
                          IC_TAG_CALIBRATE, comm, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS || !ok || !both)
        goto out;
    double t0 = 0, t = 0, tx = 0;
    memset(buf, 0, 2 * IC_CAL_LAST);
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
    /* the ladder: lengths doubling from IC_CAL_LADDER below the long one
     * (both sides know them: `last` is agreed) */
    double ladder[IC_MSGTIME_MAX] = {0};
    for (int i = 0;
         rc == MPI_SUCCESS && i < IC_MSGTIME_MAX - 1 && ((uint64_t)IC_CAL_LADDER << i) < last; i++)
        rc = trips(comm, lead, other, buf, (size_t)IC_CAL_LADDER << i, IC_CAL_LADDER_TRIPS,
                   &ladder[i]);
    /* the exchange: the same length both ways at once (COMMS2) */
    if (rc == MPI_SUCCESS && last > 0)
        rc = swaps(comm, other, buf, (size_t)last, IC_CAL_LONG_TRIPS, &tx);
    if (rc == MPI_SUCCESS && lead && last > 0 && t0 > 0) {
        double beta = (t - t0) / (double)(last - IC_CAL_SHORT);
        fig[0] = t0;
        fig[1] = beta > 0 ? beta : t / (double)last;
        double beta_x = (tx - t0) / (double)(last - IC_CAL_SHORT);
        fig[2] = beta_x > fig[1] ? beta_x : fig[1]; /* no faster than one way alone */
        fig[3] = (double)last;
        for (int i = 0; i < IC_MSGTIME_MAX; i++)
            fig[4 + i] = ladder[i];
    }
out:
    free(buf);
    return rc;
}

/* One message's time by its length (ic_msgtime_t) from the figures: each
 * ladder length's time against the line through alpha (IC_CAL_SHORT
 * bytes) and the long length's; below IC_CAL_MSG_SIGNIFICANT: 1.  The
 * long length closes it at 1.  c->n = 0 when every factor is 1. */
static void msgtime_of(const double fig[IC_CAL_FIGS], ic_msgtime_t *c)
{
    memset(c, 0, sizeof(*c));
    int any = 0, n = 0;
    for (int i = 0; i < IC_MSGTIME_MAX - 1 && fig[4 + i] > 0; i++) {
        double len = (double)((size_t)IC_CAL_LADDER << i);
        double f = fig[4 + i] / (fig[0] + (len - IC_CAL_SHORT) * fig[1]);
        c->bytes[n] = len;
        c->factor[n] = f >= IC_CAL_MSG_SIGNIFICANT ? f : 1;
        any |= c->factor[n++] > 1;
    }
    if (!any || !(fig[3] > c->bytes[n - 1]))
        return;
    c->bytes[n] = fig[3];
    c->factor[n++] = 1;
    c->n = n;
}

/* The strides measured on p ranks: every divisor s of p up to p / 2 (a
 * shift by p - s is the one by s backwards; a mesh dimension's stride
 * divides p), evenly spread over them when there are more than
 * IC_STRIDES_MAX. */
static int stride_list(int p, long *out)
{
    int all = 0;
    for (long s = 1; s <= p / 2; s++)
        all += p % s == 0;
    int n = 0, k = 0;
    for (long s = 1; s <= p / 2; s++) {
        if (p % s)
            continue;
        /* divisor number k of `all`: taken when it is the next of n evenly spread */
        if (all <= IC_STRIDES_MAX || (long)k * (IC_STRIDES_MAX - 1) >= (long)n * (all - 1)) {
            if (n < IC_STRIDES_MAX)
                out[n++] = s;
        }
        k++;
    }
    return n;
}

/* Every rank sends `bytes` to the rank s on and receives from the rank s
 * back (ways = 1), or also the other way at once (ways = 2: to both,
 * from both), `reps` times in a row: the fastest of `rounds` timings
 * (each after a barrier, which `reps` amortises), per time, on this rank:
 * *best.  buf holds 4 `bytes`. */
static int shift_time(MPI_Comm comm, int rank, int p, long s, int ways, char *buf, size_t bytes,
                      int reps, int rounds, double *best)
{
    int up = (int)((rank + s) % p), down = (int)((rank - s % p + p) % p), n = (int)bytes;
    *best = INFINITY;
    for (int r = 0; r < rounds; r++) {
        int rc = PMPI_Barrier(comm);
        double t = MPI_Wtime();
        for (int i = 0; rc == MPI_SUCCESS && i < reps; i++) {
            MPI_Request q[4];
            int k = 0;
            rc = MPI_Irecv(buf + 2 * bytes, n, MPI_BYTE, down, IC_TAG_CALIBRATE, comm, &q[k++]);
            if (rc == MPI_SUCCESS && ways == 2)
                rc = MPI_Irecv(buf + 3 * bytes, n, MPI_BYTE, up, IC_TAG_CALIBRATE, comm, &q[k++]);
            if (rc == MPI_SUCCESS)
                rc = MPI_Isend(buf, n, MPI_BYTE, up, IC_TAG_CALIBRATE, comm, &q[k++]);
            if (rc == MPI_SUCCESS && ways == 2)
                rc = MPI_Isend(buf + bytes, n, MPI_BYTE, down, IC_TAG_CALIBRATE, comm, &q[k++]);
            if (rc == MPI_SUCCESS)
                rc = ic_complete_all(NULL, k, q, NULL);
        }
        if (rc != MPI_SUCCESS)
            return rc;
        t = (MPI_Wtime() - t) / reps;
        if (t < *best)
            *best = t;
    }
    return MPI_SUCCESS;
}

/* The median rank's factor f as kept: no more than the slowest's, and
 * below IC_CAL_SIGNIFICANT 1, as those are. */
static double median_factor(double f, double slowest)
{
    return f >= slowest ? slowest : f >= IC_CAL_SIGNIFICANT ? f : 1;
}

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* Figures by rank distance on ctx's communicator (ic_strides_t): for each
 * stride s of stride_list, every rank at once shifts IC_CAL_SHORT bytes
 * and then `len` bytes by s; the slowest rank's times count, and for
 * S->in_alpha, in_beta, in_two_alpha the median rank's (every rank's
 * times gathered, so every rank computes the same factors).  The start-up's
 * factor is the short shift's time against the fastest stride's, the
 * rate's the long one's less the short one's; factors below
 * IC_CAL_SIGNIFICANT count as 1 (a switched network's strides differ by
 * its noise only).  The shift by p / 2 is an exchange between pairs: its
 * rate's factor is taken relative to the pair's exchange (xr: beta_x /
 * beta), which the closed forms price already.  Each stride below p / 2
 * also both ways at once (shift_time's ways 2): the time per byte against
 * the one-way shift's, S->two_beta (below IC_CAL_SIGNIFICANT: 1, the
 * bidir_ algorithms' premise), and the start-up's, S->two_alpha (at least
 * 1: the second send's overhead).  When every factor is 1 and two ways
 * share a port everywhere, S->n is 0 (nothing to price differently).
 * Every rank takes part, a failed allocation anywhere skips it
 * everywhere. */
static int measure_strides(MPI_Comm comm, int rank, int p, size_t len, double xr, ic_strides_t *S)
{
    memset(S, 0, sizeof(*S));
    long stride[IC_STRIDES_MAX];
    int n = stride_list(p, stride);
    if (len > IC_CAL_SHIFT_LONG)
        len = IC_CAL_SHIFT_LONG;
    if (len <= IC_CAL_SHORT || n < 2)
        return MPI_SUCCESS;
    char *buf = malloc(4 * len); /* two sends and two receives at once */
    int ok = buf != NULL, all = 0;
    int rc = PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    if (rc != MPI_SUCCESS || !all) {
        free(buf);
        return rc;
    }
    memset(buf, 0, 4 * len);
    /* per stride: one way short and long, both ways short and long */
    double t[4 * IC_STRIDES_MAX];
    for (int i = 0; rc == MPI_SUCCESS && i < n; i++) {
        double warm, *ti = t + 4 * i;
        ti[2] = ti[3] = 0;
        rc = shift_time(comm, rank, p, stride[i], 1, buf, IC_CAL_SHORT, 1, 1, &warm);
        /* both ways: two ranks, not one twice */
        for (int w = 1; w <= (2 * stride[i] < p ? 2 : 1) && rc == MPI_SUCCESS; w++) {
            rc = shift_time(comm, rank, p, stride[i], w, buf, IC_CAL_SHORT, IC_CAL_SHIFTS,
                            IC_CAL_SHIFT_ROUNDS, &ti[2 * (w - 1)]);
            if (rc == MPI_SUCCESS)
                rc = shift_time(comm, rank, p, stride[i], w, buf, len, 1, IC_CAL_LONG_ROUNDS,
                                &ti[2 * (w - 1) + 1]);
        }
    }
    /* every rank's times: the slowest's (t) and the median rank's (med) */
    size_t m = 4 * (size_t)n;
    double *every = rc == MPI_SUCCESS ? malloc((size_t)p * (m + 1) * sizeof(double)) : NULL;
    int have = every != NULL, everywhere = 0;
    if (rc == MPI_SUCCESS)
        rc = PMPI_Allreduce(&have, &everywhere, 1, MPI_INT, MPI_MIN, comm);
    if (rc == MPI_SUCCESS && everywhere)
        rc = PMPI_Allgather(t, (int)m, MPI_DOUBLE, every, (int)m, MPI_DOUBLE, comm);
    free(buf);
    if (rc != MPI_SUCCESS || !everywhere) {
        free(every);
        return rc;
    }
    double med[4 * IC_STRIDES_MAX], *col = every + (size_t)p * m;
    for (size_t e = 0; e < m; e++) {
        for (int r = 0; r < p; r++)
            col[r] = every[(size_t)r * m + e];
        qsort(col, (size_t)p, sizeof(double), by_value);
        t[e] = col[p - 1];
        med[e] = col[p / 2];
    }
    free(every);
    /* against the cheapest shift (neighbours on every link), which the
     * pair's alpha and beta measured alone */
    double a1 = INFINITY, b1 = INFINITY;
    for (int i = 0; i < n; i++) {
        a1 = t[4 * i] < a1 ? t[4 * i] : a1;
        b1 = t[4 * i + 1] - t[4 * i] < b1 ? t[4 * i + 1] - t[4 * i] : b1;
    }
    if (!(a1 > 0 && b1 > 0))
        return MPI_SUCCESS;
    int any = 0;
    for (int i = 0; i < n; i++) {
        const double *ti = t + 4 * i, *mi = med + 4 * i;
        double fa = ti[0] / a1, fb = (ti[1] - ti[0]) / b1;
        double ma = mi[0] / a1, mb = (mi[1] - mi[0]) / b1;
        if (2 * stride[i] == p) { /* pairs exchange: the closed forms' beta_x has it */
            fb /= xr;
            mb /= xr;
        }
        S->stride[i] = stride[i];
        S->alpha[i] = fa >= IC_CAL_SIGNIFICANT ? fa : 1;
        S->beta[i] = fb >= IC_CAL_SIGNIFICANT ? fb : 1;
        S->in_alpha[i] = median_factor(ma, S->alpha[i]);
        S->in_beta[i] = median_factor(mb, S->beta[i]);
        S->in_two_alpha[i] = mi[2] > mi[0] && mi[0] > 0 ? mi[2] / mi[0] : 1;
        any |= S->alpha[i] > 1 || S->beta[i] > 1;
        if (ti[2] > 0 && ti[3] > ti[2] && ti[1] > ti[0] && ti[0] > 0) {
            double f2 = (ti[3] - ti[2]) / (ti[1] - ti[0]);
            S->two_beta[i] = f2 >= IC_CAL_SIGNIFICANT ? f2 : 1;
            S->two_alpha[i] = ti[2] > ti[0] ? ti[2] / ti[0] : 1;
            S->two_any |= S->two_beta[i] == 1;
        }
    }
    any |= S->two_any;
    S->n = any ? n : 0;
    return MPI_SUCCESS;
}

/* Whether ctx's communicator takes figures by rank distance: rank order
 * on the meshes, one level (every rank alone on its node; any
 * communicator with INTERCOM_CALIBRATE=1), 4 ranks or more. */
static int wants_strides(const ic_ctx_t *ctx, const ic_env_t *e)
{
    return ctx->size >= 4 && !ctx->order && ctx->node_ranks == 0 &&
           (ctx->rpn == 1 || e->calibrate == 1);
}

/* Whether this process holds figures by rank distance for ctx's group. */
static int holds_strides(const ic_ctx_t *ctx)
{
    MPI_Group g = MPI_GROUP_NULL;
    int same = MPI_UNEQUAL;
    pthread_mutex_lock(&mu);
    if (known_group != MPI_GROUP_NULL && MPI_Comm_group(ctx->comm, &g) == MPI_SUCCESS)
        MPI_Group_compare(known_group, g, &same);
    pthread_mutex_unlock(&mu);
    if (g != MPI_GROUP_NULL)
        MPI_Group_free(&g);
    return same == MPI_IDENT;
}

/* Keep S as the figures of ctx's group. */
static void keep_strides(const ic_ctx_t *ctx, const ic_strides_t *S)
{
    MPI_Group g = MPI_GROUP_NULL;
    if (MPI_Comm_group(ctx->comm, &g) != MPI_SUCCESS)
        return;
    pthread_mutex_lock(&mu);
    MPI_Group old = known_group;
    known_group = g;
    known_strides = *S;
    stride_measurements++;
    pthread_mutex_unlock(&mu);
    if (old != MPI_GROUP_NULL)
        MPI_Group_free(&old);
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
    /* agreed at once: whether any rank wants them, the figures held (the
     * largest of each), the peer (the lowest candidate) */
    int strided = wants_strides(ctx, e);
    double v[IC_CAL_FIGS + 3], *fig = v + 1;
    v[0] = want;
    pthread_mutex_lock(&mu);
    for (int i = 0; i < IC_CAL_FIGS; i++)
        fig[i] = known[i];
    pthread_mutex_unlock(&mu);
    v[IC_CAL_FIGS + 1] = -(double)cand;
    v[IC_CAL_FIGS + 2] = strided && !holds_strides(ctx); /* figures by distance wanted */
    int rc = PMPI_Allreduce(MPI_IN_PLACE, v, IC_CAL_FIGS + 3, MPI_DOUBLE, MPI_MAX, ctx->comm);
    if (rc != MPI_SUCCESS || v[0] == 0)
        return rc;
    int peer = (int)-v[IC_CAL_FIGS + 1], need_strides = v[IC_CAL_FIGS + 2] > 0, fresh = 0;
    if (!(fig[0] > 0)) { /* nobody holds figures: measure */
        if (peer >= ctx->size)
            return MPI_SUCCESS;
        double took = MPI_Wtime();
        for (int i = 0; i < IC_CAL_FIGS; i++)
            fig[i] = 0;
        if (ctx->rank == 0 || ctx->rank == peer)
            rc = measure(ctx->comm, ctx->rank, peer, fig);
        took = MPI_Wtime() - took;
        /* every rank takes part, whatever the measurement gave */
        int rc2 = PMPI_Allreduce(MPI_IN_PLACE, fig, IC_CAL_FIGS, MPI_DOUBLE, MPI_MAX, ctx->comm);
        if (rc != MPI_SUCCESS || rc2 != MPI_SUCCESS)
            return rc != MPI_SUCCESS ? rc : rc2;
        if (!(fig[0] > 0 && fig[1] > 0 && fig[2] > 0))
            return MPI_SUCCESS;
        pthread_mutex_lock(&mu);
        measurements++;
        pthread_mutex_unlock(&mu);
        fresh = 1;
        if (e->verbose && ctx->rank == 0)
            fprintf(stderr,
                    "InterCom: measured %s (ranks 0 and %d of %d, %.3g s): alpha %.3g s, "
                    "beta %.3g s/B (%.4g MB/s), exchanging %.3g s/B each way; the model takes "
                    "them where no tuning table and no INTERCOM_ variable does "
                    "(INTERCOM_CALIBRATE=0: the built-in figures)\n",
                    spans ? "across nodes" : "within a node", peer, ctx->size, took, fig[0], fig[1],
                    1e-6 / fig[1], fig[2]);
    }
    pthread_mutex_lock(&mu);
    for (int i = 0; i < IC_CAL_FIGS; i++)
        known[i] = fig[i];
    pthread_mutex_unlock(&mu);
    ctx->calib = *ctx->cost;
    ic_cost_take(&ctx->calib, keep, ctx->cost == &e->cost_node, fig[0], fig[1], NAN, NAN, fig[2],
                 NAN);
    msgtime_of(fig, &ctx->msgtime);
    if (e->verbose && ctx->rank == 0 && fresh) {
        fprintf(stderr, "InterCom: one message's time against the line, by length: ");
        for (int i = 0; i < IC_MSGTIME_MAX - 1 && fig[4 + i] > 0; i++) {
            double len = (double)((size_t)IC_CAL_LADDER << i);
            fprintf(stderr, "%.0f B x%.3g%s", len,
                    fig[4 + i] / (fig[0] + (len - IC_CAL_SHORT) * fig[1]),
                    i + 1 < IC_MSGTIME_MAX - 1 && fig[5 + i] > 0 ? ", " : "");
        }
        fprintf(stderr, "%s\n",
                ctx->msgtime.n ? " (segments priced by it)" : " (every length on the line)");
    }
    if (ctx->msgtime.n > 0 && !(keep & (IC_KEEP_ALPHA | IC_KEEP_BETA)))
        ctx->calib.msgtime = &ctx->msgtime;
    ctx->calibrated = 1;
    if (!strided)
        return MPI_SUCCESS;
    if (need_strides) { /* some rank holds none for this group: all measure */
        double took = MPI_Wtime();
        if ((rc = measure_strides(ctx->comm, ctx->rank, ctx->size, (size_t)fig[3], fig[2] / fig[1],
                                  &ctx->strides)) != MPI_SUCCESS)
            return rc;
        keep_strides(ctx, &ctx->strides);
        took = MPI_Wtime() - took;
        if (e->verbose && ctx->rank == 0) {
            fprintf(stderr,
                    "InterCom: measured shifts by rank distance on %d ranks (%.3g s): ", ctx->size,
                    took);
            if (ctx->strides.n == 0)
                fprintf(stderr, "every stride alike, two ways at once share a port\n");
            for (int i = 0; i < ctx->strides.n; i++)
                fprintf(stderr,
                        "%ld: start-up x%.3g, per byte x%.3g (both ways x%.3g, x%.3g; median "
                        "rank x%.3g, x%.3g, both ways x%.3g)%s",
                        ctx->strides.stride[i], ctx->strides.alpha[i], ctx->strides.beta[i],
                        ctx->strides.two_alpha[i], ctx->strides.two_beta[i],
                        ctx->strides.in_alpha[i], ctx->strides.in_beta[i],
                        ctx->strides.in_two_alpha[i], i + 1 < ctx->strides.n ? "; " : "\n");
        }
    } else {
        pthread_mutex_lock(&mu);
        ctx->strides = known_strides;
        pthread_mutex_unlock(&mu);
    }
    if (ctx->strides.n > 0)
        ctx->calib.strides = &ctx->strides;
    return MPI_SUCCESS;
}
