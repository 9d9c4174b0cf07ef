/*
 * comet.c -- `intercom-bench comet`: the kernels of the CoMet benchmark
 * (ganapati-1994-comet-benchmark, section 2.2) in MPI.
 *
 * The ranks form a logical r x c mesh (MPI_Dims_create, row-major ranks,
 * periodic in both dimensions, the paper's "adjacency matrix"); the test
 * node is rank 0 at (0,0).  Basic kernels, over a sweep of message lengths:
 *   echo        rank 0 and a node h hops away on the mesh (h = 1..r+c-2):
 *               send, echoed back; one-way time = half, fitted per h by
 *               t(N) = t_startup + N t_per_byte, and the overhead per hop
 *               h from t_startup against hops
 *   exchange    pairwise exchange with the same partners (both send, then
 *               both receive: MPI_Sendrecv)
 *   bcast       broadcast from the test node (vendor MPI_Bcast and IC_Bcast)
 *   gsum        global sum of a vector of doubles (MPI_Allreduce and
 *               IC_Allreduce)
 *   barrier     minimum and median time of a barrier (MPI and InterCom)
 *   contention  echo between ranks 1 and 2 while rank 0 streams messages to
 *               rank 3 (the paper's Figure 5 on the linear array 0-1-2-3,
 *               whose load path crosses the echo's link); load messages of
 *               n_1/2 and 9 n_1/2 bytes of the hop-1 echo, the lengths at
 *               which echo reaches 50% and 90% of its asymptotic rate
 *   overlap     pairwise exchange plus a DAXPY of a given vector length,
 *               first synchronous (exchange, then DAXPY), then overlapped
 *               (Isend/Irecv, DAXPY, Waitall)
 * Matrix kernels, on a block-distributed matrix with a one-element guard
 * wrapper around each node's ld x ld block (periodic neighbours):
 *   guard       update the guard wrapper from the four neighbours
 *   shift       shift the whole local matrix north (to the top node) and east
 *   transpose   exchange of blocks with the transpose node, then a local
 *               transpose (any mesh: block (i,j) goes to position (j,i) of
 *               the c x r mesh of the transposed matrix)
 *   rowcol      broadcast of one global row within the mesh columns and of
 *               one global column (marshalled) within the mesh rows (vendor
 *               and InterCom broadcasts on the row/column communicators)
 * Every kernel verifies what arrived against the values it must hold (the
 * matrix holds A(i,j) = i * columns + j + 1, exact in doubles).  Times are
 * medians over the repetitions; echo, exchange and contention are timed on
 * the test node (as in the paper), the other kernels by the slowest rank.
 */
#include "config.h"
#include "bench.h"
#include "intercom.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    TAG_LOAD = 401,
    TAG_STOP,
    TAG_END,
    TAG_OVL,
    TAG_N, /* guard rows and columns travelling north, south, east, west */
    TAG_S,
    TAG_E,
    TAG_W,
    TAG_MAT
};

static const char *const kernel_names[] = {"echo",    "exchange",   "bcast",   "gsum",
                                           "barrier", "contention", "overlap", "guard",
                                           "shift",   "transpose",  "rowcol"};
#define NKERNELS ((int)(sizeof(kernel_names) / sizeof(kernel_names[0])))

typedef struct comet {
    ic_bench_t *b;
    MPI_Comm cart;
    int r, c;          /* mesh rows and columns  */
    int i, j;          /* this rank's position   */
    ic_rtable_t *t;    /* rank 0                 */
    ic_rtable_t *fits; /* rank 0                 */
    size_t *sizes;
    int ns;
    double n_half1; /* hop-1 echo n_1/2 (for contention loads) */
} comet_t;

/* ------------------------------------------------------------- rows */

static void row(comet_t *cm, const char *kernel, const char *variant, double hops, double bytes,
                double n, const ic_stats_t *st, int bad)
{
    if (cm->b->rank != 0)
        return;
    ic_rtable_t *t = cm->t;
    ic_rtable_row(t);
    ic_rtable_str(t, kernel);
    ic_rtable_str(t, variant);
    ic_rtable_num(t, hops);
    ic_rtable_num(t, bytes);
    ic_rtable_num(t, n);
    ic_rtable_num(t, st->n);
    ic_rtable_num(t, st->median);
    ic_rtable_num(t, st->min);
    ic_rtable_num(t, bytes > 0 && st->median > 0 ? bytes / st->median / 1e6 : NAN);
    ic_rtable_str(t, bad ? "FAILED" : "ok");
    cm->b->failures += bad != 0;
}

/* ------------------------------------------------ timing of a kernel */

typedef struct kern {
    MPI_Comm comm;
    void (*prepare)(struct kern *k);
    int (*run)(struct kern *k);
    size_t (*verify)(struct kern *k); /* wrong values on this rank */
    void *ctx;
    int lib; /* 0 vendor, 1 InterCom       */
} kern_t;

/* Warm up, repeat, take the slowest rank per repetition; stats and the
 * number of failed repetitions (ranks x reps) on rank 0 of k->comm. */
static void time_all(ic_bench_t *b, kern_t *k, ic_stats_t *st, int *bad)
{
    int me, errors = 0;
    MPI_Comm_rank(k->comm, &me);
    double tw = 0, gw = 0;
    for (int w = 0; w < b->o.warmup; w++) {
        double t0 = MPI_Wtime(); /* the whole repetition, for its count */
        if (k->prepare)
            k->prepare(k);
        MPI_Barrier(k->comm);
        errors += k->run(k) != MPI_SUCCESS;
        if (k->verify)
            k->verify(k);
        tw = MPI_Wtime() - t0;
    }
    MPI_Allreduce(&tw, &gw, 1, MPI_DOUBLE, MPI_MAX, k->comm);
    int reps = ic_bench_reps(b, gw);
    double *t = ic_bench_alloc(b, 2 * (size_t)reps * sizeof(double));
    for (int r = 0; r < reps; r++) {
        if (k->prepare)
            k->prepare(k);
        MPI_Barrier(k->comm);
        double t0 = MPI_Wtime();
        errors += k->run(k) != MPI_SUCCESS;
        t[r] = MPI_Wtime() - t0;
        if (k->verify)
            errors += k->verify(k) != 0;
    }
    MPI_Reduce(t, t + reps, reps, MPI_DOUBLE, MPI_MAX, 0, k->comm);
    *bad = 0;
    MPI_Reduce(&errors, bad, 1, MPI_INT, MPI_SUM, 0, k->comm);
    if (me == 0)
        ic_stats(t + reps, reps, st);
    free(t);
}

/* ------------------------------------------------------ echo, exchange */

/* Rank h hops from (0,0): along the row first, then down the column. */
static int hop_partner(const comet_t *cm, int h)
{
    int j = h < cm->c - 1 ? h : cm->c - 1;
    int i = h - j;
    return i * cm->c + j;
}

static void echo_kernels(comet_t *cm, int do_echo, int do_exchange)
{
    ic_bench_t *b = cm->b;
    int maxhop = cm->r - 1 + cm->c - 1;
    double *h0 = ic_bench_alloc(b, (size_t)(maxhop + 1) * sizeof(double));
    double *hx = ic_bench_alloc(b, (size_t)(maxhop + 1) * sizeof(double));
    int nh = 0;
    for (int ex = 0; ex < 2; ex++) {
        if (!(ex ? do_exchange : do_echo))
            continue;
        const char *kname = ex ? "exchange" : "echo";
        nh = 0;
        ic_plot_t *pl = NULL;
        if (b->rank == 0 && b->o.plot) {
            char fig[32], title[96];
            snprintf(fig, sizeof(fig), "comet-%s", kname);
            snprintf(title, sizeof(title), "CoMet %s by hop distance: measured and fitted", kname);
            pl = ic_plot_new(b->o.plot, fig, title, "bytes", "time [s]", 1, 1);
        }
        for (int h = 1; h <= maxhop; h++) {
            int partner = hop_partner(cm, h);
            char tag[40];
            snprintf(tag, sizeof(tag), "comet %s, %d hop%s", kname, h, h > 1 ? "s" : "");
            ic_pp_result_t res;
            ic_bench_pingpong_sweep(b, cm->cart, 0, partner, cm->sizes, cm->ns, ex, tag, &res);
            if (b->rank != 0)
                continue;
            for (int i = 0; i < cm->ns; i++)
                row(cm, kname, ex ? "exchange" : "one-way", h, (double)cm->sizes[i],
                    (double)partner, &res.stats[i], res.failures);
            ic_pp_fit_t fit;
            char label[48];
            snprintf(label, sizeof(label), "%s %d hop%s", kname, h, h > 1 ? "s" : "");
            int fitted = ic_bench_pingpong_fit(cm->sizes, cm->ns, res.stats, 1, b->o.nbps, b->o.bps,
                                               &fit) >= 0;
            if (fitted) {
                char prefix[56];
                snprintf(prefix, sizeof(prefix), "%s: ", label);
                ic_bench_pingpong_fit_rows(cm->fits, label, prefix, &fit);
                hx[nh] = h;
                h0[nh++] = fit.summary.t0;
                if (!ex && h == 1)
                    cm->n_half1 = fit.summary.n_half;
            }
            if (pl) {
                double *x = ic_bench_alloc(b, 3 * (size_t)cm->ns * sizeof(double));
                double *y = x + cm->ns, *f = y + cm->ns;
                for (int i = 0; i < cm->ns; i++) {
                    x[i] = (double)cm->sizes[i];
                    y[i] = res.stats[i].median;
                    f[i] = fitted ? ic_bench_pingpong_fit_time(&fit, x[i]) : NAN;
                }
                ic_plot_series(pl, label, IC_PLOT_POINTS, x, y, cm->ns);
                snprintf(label + strlen(label), sizeof(label) - strlen(label), " (fit)");
                ic_plot_series(pl, label, IC_PLOT_LINES, x, f, cm->ns);
                free(x);
            }
            free(res.stats);
        }
        if (pl)
            b->failures += ic_plot_finish(pl) != 0;
        if (b->rank == 0 && nh >= 2) {
            double a, s;
            if (ic_linfit(hx, h0, NULL, nh, &a, &s) == 0) {
                char key[48];
                snprintf(key, sizeof(key), "%s overhead per hop h", kname);
                ic_report_info_num(b->rep, key, s, "s");
            }
        }
    }
    free(h0);
    free(hx);
    MPI_Bcast(&cm->n_half1, 1, MPI_DOUBLE, 0, cm->cart);
}

/* ------------------------------------------------ bcast, gsum, barrier */

typedef struct gctx {
    comet_t *cm;
    char *buf;
    double *x, *y;
    size_t n; /* bytes (bcast) or doubles (gsum) */
} gctx_t;

static void bcast_prepare(kern_t *k)
{
    gctx_t *g = k->ctx;
    if (g->cm->b->rank == 0)
        ic_bench_fill(g->buf, g->n, 77);
    else
        memset(g->buf, 0, g->n);
}

static int bcast_run(kern_t *k)
{
    gctx_t *g = k->ctx;
    return k->lib ? IC_Bcast(g->buf, (int)g->n, MPI_BYTE, 0, k->comm)
                  : MPI_Bcast(g->buf, (int)g->n, MPI_BYTE, 0, k->comm);
}

static size_t bcast_verify(kern_t *k)
{
    gctx_t *g = k->ctx;
    return ic_bench_check(g->buf, g->n, 77);
}

static void gsum_prepare(kern_t *k)
{
    gctx_t *g = k->ctx;
    int me = g->cm->b->rank;
    for (size_t i = 0; i < g->n; i++) {
        g->x[i] = (double)(((size_t)me + i) % 17);
        g->y[i] = -1;
    }
}

static int gsum_run(kern_t *k)
{
    gctx_t *g = k->ctx;
    return k->lib ? IC_Allreduce(g->x, g->y, (int)g->n, MPI_DOUBLE, MPI_SUM, k->comm)
                  : MPI_Allreduce(g->x, g->y, (int)g->n, MPI_DOUBLE, MPI_SUM, k->comm);
}

static size_t gsum_verify(kern_t *k)
{
    gctx_t *g = k->ctx;
    int p = g->cm->b->size;
    size_t bad = 0;
    for (size_t i = 0; i < g->n; i++) {
        double want = 0;
        for (int r = 0; r < p; r++)
            want += (double)(((size_t)r + i) % 17);
        bad += g->y[i] != want;
    }
    return bad;
}

static int barrier_run(kern_t *k)
{
    return k->lib ? IC_Barrier(k->comm) : MPI_Barrier(k->comm);
}

/* Vector length of the global sum for a message length (at least 1). */
static size_t doubles_in(size_t bytes)
{
    return bytes >= sizeof(double) ? bytes / sizeof(double) : 1;
}

static void global_kernels(comet_t *cm, int do_bcast, int do_gsum, int do_barrier)
{
    ic_bench_t *b = cm->b;
    static const char *const lib[2] = {"vendor", "intercom"};
    gctx_t g = {cm, NULL, NULL, NULL, 0};
    kern_t k = {cm->cart, NULL, NULL, NULL, &g, 0};
    ic_stats_t st;
    int bad;
    for (int l = 0; l < 2; l++) {
        k.lib = l;
        for (int i = 0; do_bcast && i < cm->ns; i++) {
            g.n = cm->sizes[i];
            g.buf = ic_bench_alloc(b, g.n);
            k.prepare = bcast_prepare;
            k.run = bcast_run;
            k.verify = bcast_verify;
            ic_bench_progress(b, "[comet] bcast %s %zu B", lib[l], g.n);
            time_all(b, &k, &st, &bad);
            row(cm, "bcast", lib[l], NAN, (double)g.n, b->size, &st, bad);
            free(g.buf);
        }
        for (int i = 0; do_gsum && i < cm->ns; i++) {
            g.n = doubles_in(cm->sizes[i]);
            if (i > 0 && g.n == doubles_in(cm->sizes[i - 1]))
                continue; /* lengths below one double all give one double */
            g.x = ic_bench_alloc(b, g.n * sizeof(double));
            g.y = ic_bench_alloc(b, g.n * sizeof(double));
            k.prepare = gsum_prepare;
            k.run = gsum_run;
            k.verify = gsum_verify;
            ic_bench_progress(b, "[comet] gsum %s %zu doubles", lib[l], g.n);
            time_all(b, &k, &st, &bad);
            row(cm, "gsum", lib[l], NAN, (double)(g.n * sizeof(double)), (double)g.n, &st, bad);
            free(g.x);
            free(g.y);
        }
        if (do_barrier) {
            k.prepare = NULL;
            k.run = barrier_run;
            k.verify = NULL;
            ic_bench_progress(b, "[comet] barrier %s", lib[l]);
            time_all(b, &k, &st, &bad);
            row(cm, "barrier", lib[l], NAN, NAN, b->size, &st, bad);
        }
    }
}

/* ---------------------------------------------------------- contention */

/* Rank 0 streams `load`-byte messages to rank 3 until rank 1 says stop. */
static void load_generator(comet_t *cm, size_t load, char *buf)
{
    int me = cm->b->rank, stop = 0, token = 0;
    if (me == 0) {
        while (!stop) {
            if (load > 0)
                MPI_Send(buf, (int)load, MPI_BYTE, 3, TAG_LOAD, cm->b->comm);
            MPI_Iprobe(1, TAG_STOP, cm->b->comm, &stop, MPI_STATUS_IGNORE);
            if (!stop && load == 0) {
                MPI_Recv(&token, 1, MPI_INT, 1, TAG_STOP, cm->b->comm, MPI_STATUS_IGNORE);
                break;
            }
        }
        if (stop)
            MPI_Recv(&token, 1, MPI_INT, 1, TAG_STOP, cm->b->comm, MPI_STATUS_IGNORE);
        MPI_Send(&token, 0, MPI_INT, 3, TAG_END, cm->b->comm);
    } else if (me == 3) {
        MPI_Status st;
        do {
            MPI_Recv(buf, (int)load, MPI_BYTE, 0, MPI_ANY_TAG, cm->b->comm, &st);
        } while (st.MPI_TAG != TAG_END);
    }
}

static void contention_kernel(comet_t *cm)
{
    ic_bench_t *b = cm->b;
    if (b->size < 4) {
        if (b->rank == 0)
            ic_report_note(b->rep, "contention: needs p >= 4 (echo pair 1-2, load pair 0-3)");
        return;
    }
    int me = b->rank;
    double nh = cm->n_half1 > 0 && isfinite(cm->n_half1) ? cm->n_half1 : 4096;
    size_t loads[3] = {0, (size_t)llround(nh), (size_t)llround(9 * nh)};
    const char *names[3] = {"no load", "50% load", "90% load"};
    for (int l = 1; l < 3; l++) {
        if (loads[l] < 1)
            loads[l] = 1;
        if (loads[l] > (4u << 20))
            loads[l] = 4u << 20;
    }
    MPI_Comm pair;
    MPI_Comm_split(b->comm, me == 1 || me == 2 ? 0 : MPI_UNDEFINED, me, &pair);
    char *lbuf = ic_bench_alloc(b, loads[2]);
    ic_bench_fill(lbuf, loads[2], 5);
    for (int l = 0; l < 3; l++) {
        MPI_Barrier(b->comm);
        ic_pp_result_t res;
        memset(&res, 0, sizeof(res));
        if (me == 1 || me == 2) {
            char tag[48];
            snprintf(tag, sizeof(tag), "comet contention, %s", names[l]);
            ic_bench_pingpong_sweep(b, pair, 0, 1, cm->sizes, cm->ns, 0, tag, &res);
            if (me == 1) {
                int token = 1;
                MPI_Send(&token, 1, MPI_INT, 0, TAG_STOP, b->comm);
                /* results to the test node */
                MPI_Send(res.stats, (int)(cm->ns * sizeof(ic_stats_t)), MPI_BYTE, 0, TAG_LOAD,
                         b->comm);
                MPI_Send(&res.failures, 1, MPI_INT, 0, TAG_LOAD, b->comm);
                free(res.stats);
            }
        } else if (me == 0 || me == 3) {
            load_generator(cm, loads[l], lbuf);
        }
        if (me == 0) {
            ic_stats_t *st = ic_bench_alloc(b, (size_t)cm->ns * sizeof(ic_stats_t));
            int failed = 0;
            MPI_Recv(st, (int)(cm->ns * sizeof(ic_stats_t)), MPI_BYTE, 1, TAG_LOAD, b->comm,
                     MPI_STATUS_IGNORE);
            MPI_Recv(&failed, 1, MPI_INT, 1, TAG_LOAD, b->comm, MPI_STATUS_IGNORE);
            char variant[64];
            snprintf(variant, sizeof(variant), "%s (%zu B)", names[l], loads[l]);
            for (int i = 0; i < cm->ns; i++)
                row(cm, "contention", variant, 1, (double)cm->sizes[i], 2, &st[i], failed);
            free(st);
        }
    }
    free(lbuf);
    if (pair != MPI_COMM_NULL)
        MPI_Comm_free(&pair);
}

/* ------------------------------------------------------------- overlap */

typedef struct octx {
    comet_t *cm;
    int other;
    size_t bytes, vec;
    char *sbuf, *rbuf;
    double *x, *y;
    long applied; /* DAXPYs applied to y since the last reset */
} octx_t;

static void daxpy(size_t n, double a, const double *x, double *y)
{
    for (size_t i = 0; i < n; i++)
        y[i] += a * x[i];
}

static int overlap_sync(kern_t *k)
{
    octx_t *o = k->ctx;
    int rc = MPI_Sendrecv(o->sbuf, (int)o->bytes, MPI_BYTE, o->other, TAG_OVL, o->rbuf,
                          (int)o->bytes, MPI_BYTE, o->other, TAG_OVL, k->comm, MPI_STATUS_IGNORE);
    daxpy(o->vec, 2.0, o->x, o->y);
    o->applied++;
    return rc;
}

static int overlap_async(kern_t *k)
{
    octx_t *o = k->ctx;
    MPI_Request rq[2];
    MPI_Irecv(o->rbuf, (int)o->bytes, MPI_BYTE, o->other, TAG_OVL, k->comm, &rq[0]);
    MPI_Isend(o->sbuf, (int)o->bytes, MPI_BYTE, o->other, TAG_OVL, k->comm, &rq[1]);
    daxpy(o->vec, 2.0, o->x, o->y);
    o->applied++;
    MPI_Status st[2]; /* not MPI_STATUSES_IGNORE: MPICH's access attributes */
    return MPI_Waitall(2, rq, st);
}

static void overlap_prepare(kern_t *k)
{
    octx_t *o = k->ctx;
    memset(o->rbuf, 0, o->bytes);
}

static size_t overlap_verify(kern_t *k)
{
    octx_t *o = k->ctx;
    int me;
    MPI_Comm_rank(k->comm, &me);
    return ic_bench_check(o->rbuf, o->bytes, (unsigned)o->other + 11);
}

/* y = y0 + 2 * applied * x exactly (small integers). */
static size_t daxpy_check(const octx_t *o)
{
    size_t bad = 0;
    for (size_t i = 0; i < o->vec; i++)
        bad += o->y[i] != (double)(i % 7) + 2.0 * (double)o->applied * (double)(i % 13);
    return bad;
}

static void overlap_kernel(comet_t *cm)
{
    ic_bench_t *b = cm->b;
    int me = b->rank, partner = hop_partner(cm, 1);
    if (b->size < 2)
        return;
    MPI_Comm pair;
    MPI_Comm_split(b->comm, me == 0 || me == partner ? 0 : MPI_UNDEFINED, me, &pair);
    static const size_t dflt_vec[] = {0, 1000, 10000, 100000};
    const size_t *vecs = b->o.vecs ? b->o.vecs : dflt_vec;
    int nv = b->o.vecs ? b->o.nvecs : (int)(sizeof(dflt_vec) / sizeof(dflt_vec[0]));
    static const size_t msgs[] = {0, 2536, 85000}; /* the paper's Figures 24-27 */
    int nm = (int)(sizeof(msgs) / sizeof(msgs[0]));
    if (pair == MPI_COMM_NULL)
        return;
    int pme;
    MPI_Comm_rank(pair, &pme);
    octx_t o;
    memset(&o, 0, sizeof(o));
    o.cm = cm;
    o.other = !pme;
    size_t vmax = 1, mmax = msgs[nm - 1];
    for (int v = 0; v < nv; v++)
        if (vecs[v] > vmax)
            vmax = vecs[v];
    o.sbuf = ic_bench_alloc(b, mmax);
    o.rbuf = ic_bench_alloc(b, mmax);
    o.x = ic_bench_alloc(b, vmax * sizeof(double));
    o.y = ic_bench_alloc(b, vmax * sizeof(double));
    ic_bench_fill(o.sbuf, mmax, (unsigned)pme + 11);
    for (size_t i = 0; i < vmax; i++)
        o.x[i] = (double)(i % 13);
    kern_t k = {pair, overlap_prepare, NULL, overlap_verify, &o, 0};
    for (int mi = 0; mi < nm; mi++)
        for (int v = 0; v < nv; v++) {
            o.bytes = msgs[mi];
            o.vec = vecs[v];
            for (int mode = 0; mode < 2; mode++) {
                for (size_t i = 0; i < o.vec; i++)
                    o.y[i] = (double)(i % 7);
                o.applied = 0;
                k.run = mode ? overlap_async : overlap_sync;
                if (pme == 0)
                    ic_bench_progress(b, "[comet] overlap %zu B, DAXPY %zu", o.bytes, o.vec);
                ic_stats_t st;
                int bad = 0, dbad = daxpy_check(&o) != 0, dsum = 0;
                time_all(b, &k, &st, &bad);
                MPI_Reduce(&dbad, &dsum, 1, MPI_INT, MPI_SUM, 0, pair);
                if (pme == 0)
                    row(cm, "overlap", mode ? "overlapped" : "synchronous", 1, (double)o.bytes,
                        (double)o.vec, &st, bad + dsum);
            }
        }
    free(o.sbuf);
    free(o.rbuf);
    free(o.x);
    free(o.y);
    MPI_Comm_free(&pair);
}

/* ------------------------------------------------------ matrix kernels */

typedef struct mctx {
    comet_t *cm;
    int ld, w;      /* local order, row width ld + 2 */
    double *a;      /* (ld+2) x (ld+2) with the guard wrapper */
    double *buf[8]; /* 4 send and 4 receive vectors, or blocks */
    MPI_Comm rowc, colc;
    int top, bottom, pred, succ;
    int kind; /* which matrix kernel */
    int lib;
} mctx_t;

enum { MK_GUARD, MK_NORTH, MK_EAST, MK_TRANSPOSE, MK_ROW, MK_COL };

static double gval(const comet_t *cm, int ld, long gr, long gc)
{
    long rows = (long)cm->r * ld, cols = (long)cm->c * ld;
    gr = ((gr % rows) + rows) % rows;
    gc = ((gc % cols) + cols) % cols;
    return (double)(gr * cols + gc + 1);
}

#define A(m, x, y) ((m)->a[(size_t)((x) + 1) * (size_t)(m)->w + (size_t)(y) + 1])

static void matrix_init(mctx_t *m)
{
    const comet_t *cm = m->cm;
    for (size_t k = 0; k < (size_t)m->w * (size_t)m->w; k++)
        m->a[k] = -1;
    for (int x = 0; x < m->ld; x++)
        for (int y = 0; y < m->ld; y++)
            A(m, x, y) = gval(cm, m->ld, (long)cm->i * m->ld + x, (long)cm->j * m->ld + y);
}

static void mat_prepare(kern_t *k)
{
    matrix_init(k->ctx);
}

/* Figure 15: assemble and send the four boundary vectors, receive the four
 * guard vectors, wait, unpack. */
static int guard_run(kern_t *k)
{
    mctx_t *m = k->ctx;
    int ld = m->ld;
    double **v = m->buf;
    MPI_Request rq[8];
    for (int y = 0; y < ld; y++) {
        v[0][y] = A(m, 0, y);      /* first row, to top     */
        v[1][y] = A(m, ld - 1, y); /* last row, to bottom   */
    }
    MPI_Isend(v[0], ld, MPI_DOUBLE, m->top, TAG_N, m->cm->cart, &rq[0]);
    MPI_Isend(v[1], ld, MPI_DOUBLE, m->bottom, TAG_S, m->cm->cart, &rq[1]);
    for (int x = 0; x < ld; x++) {
        v[2][x] = A(m, x, ld - 1); /* last column, to succ */
        v[3][x] = A(m, x, 0);      /* first column, to pred */
    }
    MPI_Isend(v[2], ld, MPI_DOUBLE, m->succ, TAG_E, m->cm->cart, &rq[2]);
    MPI_Isend(v[3], ld, MPI_DOUBLE, m->pred, TAG_W, m->cm->cart, &rq[3]);
    MPI_Irecv(v[4], ld, MPI_DOUBLE, m->top, TAG_S, m->cm->cart, &rq[4]);    /* north guard */
    MPI_Irecv(v[5], ld, MPI_DOUBLE, m->bottom, TAG_N, m->cm->cart, &rq[5]); /* south guard */
    MPI_Irecv(v[6], ld, MPI_DOUBLE, m->pred, TAG_E, m->cm->cart, &rq[6]);   /* west guard  */
    MPI_Irecv(v[7], ld, MPI_DOUBLE, m->succ, TAG_W, m->cm->cart, &rq[7]);   /* east guard  */
    MPI_Status st[8];
    int rc = MPI_Waitall(8, rq, st);
    for (int y = 0; y < ld; y++) {
        A(m, -1, y) = v[4][y];
        A(m, ld, y) = v[5][y];
    }
    for (int x = 0; x < ld; x++) {
        A(m, x, -1) = v[6][x];
        A(m, x, ld) = v[7][x];
    }
    return rc;
}

static int shift_run(kern_t *k)
{
    mctx_t *m = k->ctx;
    int n = m->w * m->w;
    if (m->kind == MK_NORTH)
        return MPI_Sendrecv_replace(m->a, n, MPI_DOUBLE, m->top, TAG_MAT, m->bottom, TAG_MAT,
                                    m->cm->cart, MPI_STATUS_IGNORE);
    return MPI_Sendrecv_replace(m->a, n, MPI_DOUBLE, m->succ, TAG_MAT, m->pred, TAG_MAT,
                                m->cm->cart, MPI_STATUS_IGNORE);
}

static int transpose_run(kern_t *k)
{
    mctx_t *m = k->ctx;
    const comet_t *cm = m->cm;
    int ld = m->ld, me = cm->b->rank;
    int to = cm->j * cm->r + cm->i;               /* (j,i) of the c x r mesh */
    int from = (me % cm->r) * cm->c + me / cm->r; /* whose block lands here */
    double *s = m->buf[0], *rcv = m->buf[1];
    for (int x = 0; x < ld; x++)
        memcpy(s + (size_t)x * ld, &A(m, x, 0), (size_t)ld * sizeof(double));
    int rc = MPI_Sendrecv(s, ld * ld, MPI_DOUBLE, to, TAG_MAT, rcv, ld * ld, MPI_DOUBLE, from,
                          TAG_MAT, cm->cart, MPI_STATUS_IGNORE);
    for (int x = 0; x < ld; x++)
        for (int y = 0; y < ld; y++)
            A(m, x, y) = rcv[(size_t)y * ld + x];
    return rc;
}

/* Global row / column broadcast: the mesh row (column) that owns it
 * multicasts within the mesh columns (rows). */
static int rowcol_run(kern_t *k)
{
    mctx_t *m = k->ctx;
    const comet_t *cm = m->cm;
    int ld = m->ld;
    if (m->kind == MK_ROW) {
        long g = (long)cm->r * ld / 2;
        int owner = (int)(g / ld), lr = (int)(g % ld);
        double *row = &A(m, lr, 0);
        return m->lib ? IC_Bcast(row, ld, MPI_DOUBLE, owner, m->colc)
                      : MPI_Bcast(row, ld, MPI_DOUBLE, owner, m->colc);
    }
    long g = (long)cm->c * ld / 2;
    int owner = (int)(g / ld), lc = (int)(g % ld);
    double *col = m->buf[0];
    if (cm->j == owner)
        for (int x = 0; x < ld; x++)
            col[x] = A(m, x, lc);
    int rc = m->lib ? IC_Bcast(col, ld, MPI_DOUBLE, owner, m->rowc)
                    : MPI_Bcast(col, ld, MPI_DOUBLE, owner, m->rowc);
    for (int x = 0; x < ld; x++)
        A(m, x, lc) = col[x];
    return rc;
}

static size_t mat_verify(kern_t *k)
{
    mctx_t *m = k->ctx;
    const comet_t *cm = m->cm;
    int ld = m->ld, me = cm->b->rank;
    long r0 = (long)cm->i * ld, c0 = (long)cm->j * ld;
    size_t bad = 0;
    switch (m->kind) {
    case MK_GUARD:
        for (int y = 0; y < ld; y++) {
            bad += A(m, -1, y) != gval(cm, ld, r0 - 1, c0 + y);
            bad += A(m, ld, y) != gval(cm, ld, r0 + ld, c0 + y);
        }
        for (int x = 0; x < ld; x++) {
            bad += A(m, x, -1) != gval(cm, ld, r0 + x, c0 - 1);
            bad += A(m, x, ld) != gval(cm, ld, r0 + x, c0 + ld);
        }
        break;
    case MK_NORTH: /* now holds the block of the node below */
    case MK_EAST:  /* now holds the block of the node to the west */
        for (int x = 0; x < ld; x++)
            for (int y = 0; y < ld; y++) {
                long gr = m->kind == MK_NORTH ? r0 + ld + x : r0 + x;
                long gc = m->kind == MK_EAST ? c0 - ld + y : c0 + y;
                bad += A(m, x, y) != gval(cm, ld, gr, gc);
            }
        break;
    case MK_TRANSPOSE: {
        /* position (I, J) of the c x r mesh of the transposed matrix */
        long I = me / cm->r, J = me % cm->r;
        for (int x = 0; x < ld; x++)
            for (int y = 0; y < ld; y++)
                bad += A(m, x, y) != gval(cm, ld, J * ld + y, I * ld + x);
        break;
    }
    case MK_ROW: {
        long g = (long)cm->r * ld / 2;
        for (int y = 0; y < ld; y++)
            bad += A(m, g % ld, y) != gval(cm, ld, g, c0 + y);
        break;
    }
    default: {
        long g = (long)cm->c * ld / 2;
        for (int x = 0; x < ld; x++)
            bad += A(m, x, g % ld) != gval(cm, ld, r0 + x, g);
        break;
    }
    }
    return bad;
}

static void matrix_kernels(comet_t *cm, const int *use)
{
    ic_bench_t *b = cm->b;
    static const size_t dflt_ld[] = {16, 64, 256};
    const size_t *lds = b->o.dims ? b->o.dims : dflt_ld;
    int nld = b->o.dims ? b->o.ndims : (int)(sizeof(dflt_ld) / sizeof(dflt_ld[0]));
    mctx_t m;
    memset(&m, 0, sizeof(m));
    m.cm = cm;
    MPI_Cart_shift(cm->cart, 0, 1, &m.top, &m.bottom);
    MPI_Cart_shift(cm->cart, 1, 1, &m.pred, &m.succ);
    MPI_Comm_split(cm->cart, cm->i, cm->j, &m.rowc); /* my mesh row    */
    MPI_Comm_split(cm->cart, cm->j, cm->i, &m.colc); /* my mesh column */
    static const struct {
        int kind, idx;
        const char *kernel, *variant;
        int (*run)(kern_t *);
        int lib;
    } plan[] = {
        {MK_GUARD, 7, "guard", "4 neighbours", guard_run, 0},
        {MK_NORTH, 8, "shift", "north", shift_run, 0},
        {MK_EAST, 8, "shift", "east", shift_run, 0},
        {MK_TRANSPOSE, 9, "transpose", "blocks + local", transpose_run, 0},
        {MK_ROW, 10, "rowcol", "row vendor", rowcol_run, 0},
        {MK_COL, 10, "rowcol", "column vendor", rowcol_run, 0},
        {MK_ROW, 10, "rowcol", "row intercom", rowcol_run, 1},
        {MK_COL, 10, "rowcol", "column intercom", rowcol_run, 1},
    };
    for (int li = 0; li < nld; li++) {
        int ld = (int)lds[li];
        if (ld < 1)
            continue;
        m.ld = ld;
        m.w = ld + 2;
        m.a = ic_bench_alloc(b, (size_t)m.w * (size_t)m.w * sizeof(double));
        for (int v = 0; v < 8; v++)
            m.buf[v] = ic_bench_alloc(b, (size_t)ld * (size_t)ld * sizeof(double));
        for (size_t s = 0; s < sizeof(plan) / sizeof(plan[0]); s++) {
            if (!use[plan[s].idx])
                continue;
            m.kind = plan[s].kind;
            m.lib = plan[s].lib;
            kern_t k = {cm->cart, mat_prepare, plan[s].run, mat_verify, &m, plan[s].lib};
            ic_bench_progress(b, "[comet] %s %s, ld %d", plan[s].kernel, plan[s].variant, ld);
            ic_stats_t st;
            int bad;
            time_all(b, &k, &st, &bad);
            double bytes = m.kind == MK_GUARD       ? 4.0 * ld * sizeof(double)
                           : m.kind == MK_TRANSPOSE ? (double)ld * ld * sizeof(double)
                           : m.kind <= MK_EAST      ? (double)m.w * m.w * sizeof(double)
                                                    : (double)ld * sizeof(double);
            row(cm, plan[s].kernel, plan[s].variant, NAN, bytes, ld, &st, bad);
        }
        free(m.a);
        for (int v = 0; v < 8; v++)
            free(m.buf[v]);
    }
    MPI_Comm_free(&m.rowc);
    MPI_Comm_free(&m.colc);
}

/* ---------------------------------------------------------------- main */

int ic_bench_comet(ic_bench_t *b)
{
    int use[NKERNELS], idx[NKERNELS];
    for (int k = 0; k < NKERNELS; k++)
        use[k] = b->o.kernels == NULL;
    if (b->o.kernels) {
        int n = ic_bench_names(b, b->o.kernels, kernel_names, NKERNELS, idx, "kernel");
        if (n < 0)
            return 2;
        for (int k = 0; k < n; k++)
            use[idx[k]] = 1;
    }
    ic_bench_defaults(b, 0.05, 200, 2);
    comet_t cm;
    memset(&cm, 0, sizeof(cm));
    cm.b = b;
    int dims[2] = {0, 0}, periods[2] = {1, 1}, coords[2];
    MPI_Dims_create(b->size, 2, dims);
    cm.r = dims[0];
    cm.c = dims[1];
    MPI_Cart_create(b->comm, 2, dims, periods, 0, &cm.cart);
    MPI_Cart_coords(cm.cart, b->rank, 2, coords);
    cm.i = coords[0];
    cm.j = coords[1];
    cm.ns = ic_bench_sizes(b, 0, 16384, 4, &cm.sizes);
    ic_bench_describe(b);
    if (b->rank == 0) {
        ic_report_info(b->rep, "mesh", "%d x %d (row-major ranks, periodic); test node rank 0",
                       cm.r, cm.c);
        ic_report_note(b->rep, "hops: mesh distance from the test node; n: partner rank "
                               "(echo, exchange), ranks (bcast, barrier), doubles (gsum, "
                               "overlap DAXPY length), local order ld (matrix kernels)");
        cm.t = ic_report_table(b->rep, "comet", "CoMet kernels");
        ic_rtable_col(cm.t, "kernel", NULL, IC_COL_STR, NULL);
        ic_rtable_col(cm.t, "variant", NULL, IC_COL_STR, NULL);
        ic_rtable_col(cm.t, "hops", NULL, IC_COL_INT, NULL);
        ic_rtable_col(cm.t, "bytes", NULL, IC_COL_INT, NULL);
        ic_rtable_col(cm.t, "n", NULL, IC_COL_INT, NULL);
        ic_rtable_col(cm.t, "reps", NULL, IC_COL_INT, NULL);
        ic_rtable_col(cm.t, "time", "time(median)", IC_COL_SEC, NULL);
        ic_rtable_col(cm.t, "time_min", "min", IC_COL_SEC, NULL);
        ic_rtable_col(cm.t, "rate", "MB/s", IC_COL_NUM, "%.4g");
        ic_rtable_col(cm.t, "check", NULL, IC_COL_STR, NULL);
        cm.fits = ic_bench_fit_table(b, "comet_fits",
                                     "Echo and exchange fits per hop distance: t_startup = t0, "
                                     "t_per_byte = 1 / r_inf");
    }
    if (b->size < 2 && b->rank == 0)
        ic_report_note(b->rep, "p = 1: only the global kernels and the matrix kernels run");
    if (b->size >= 2 && (use[0] || use[1] || use[5]))
        echo_kernels(&cm, use[0] || use[5], use[1]);
    global_kernels(&cm, use[2], use[3], use[4]);
    if (use[5])
        contention_kernel(&cm);
    if (use[6])
        overlap_kernel(&cm);
    if (use[7] || use[8] || use[9] || use[10])
        matrix_kernels(&cm, use);
    ic_bench_progress_end(b);
    free(cm.sizes);
    MPI_Comm_free(&cm.cart);
    return 0;
}
