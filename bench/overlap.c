/*
 * overlap.c -- `intercom-bench overlap`: how much of a nonblocking
 * collective hides behind computation, the vendor's MPI_I<coll> against
 * InterCom's IC_I<coll>, in the manner of the OSU nonblocking collective
 * benchmarks; and InterCom's persistent collectives (IC_<Coll>_init,
 * IC_Start, IC_Wait) against its blocking ones.
 *
 * Per collective (--ops, default allreduce, bcast, allgather,
 * reduce_scatter_block, reduce), size (default 8 B..4 MiB, x4) and library:
 *   t_pure     median of (start; MPI_Wait), nothing between;
 *   t_compute  median of the compute loop alone, calibrated to last t_pure
 *              (a dependent chain of floating-point multiply-adds whose time
 *              per iteration is measured once at startup, in processor
 *              time; every rank uses the same iteration count: the fastest
 *              rank's time per iteration, MPI_Allreduce MIN);
 *   t_overall  median of (start; compute for t_pure; MPI_Wait), with
 *              --test-every N: MPI_Test on the request N times, spread
 *              evenly through the compute loop (until it completes);
 *   overlap %  100 max(0, min(1, 1 - (t_overall - t_compute) / t_pure)).
 * Every repetition starts after an MPI_Barrier and counts as its slowest
 * rank's time (MPI_Reduce MAX after the repetitions); the two libraries
 * alternate, which goes first alternating by repetition, as coll does.
 *
 * Persistent: per collective and size, IC_<Coll>_init once, then
 * repetitions of the vendor's blocking call, InterCom's blocking call and
 * IC_Start + IC_Wait of the persistent request, the order rotating;
 * IC_Request_free at the end.  Ratio: blocking / persistent (> 1: the
 * persistent call is faster).
 *
 * Verification: the point's layout and data are coll's (point.h: small
 * integers, MPI_SUM, exact in any order).  The vendor's blocking call makes
 * the reference once per point; every later result (the vendor's
 * nonblocking one too) is compared with it byte for byte on every rank
 * where the result is defined, outputs poisoned before each call.
 */
#include "config.h"
#include "bench.h"
#include "point.h"
#include "intercom.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Sizes from which the summary's means are taken (when the run has any). */
#define OVL_LARGE (1u << 20)

/* ----------------------------------------------------------- compute */

static volatile double sink; /* keeps the compute loop from being removed */

/* iters iterations of a dependent multiply-add chain; with tests > 0 and a
 * request, MPI_Test on it `tests` times, evenly spread, until it is done. */
static void compute(long iters, int tests, MPI_Request *req)
{
    double x = sink + 1.0;
    int flag = 0;
    long done = 0;
    for (int k = 0; k <= tests; k++) {
        long upto = tests > 0 ? (long)((double)iters * (k + 1) / (tests + 1)) : iters;
        for (; done < upto; done++)
            x = x * 1.0000001 + 1e-9;
        if (k < tests && req && !flag)
            MPI_Test(req, &flag, MPI_STATUS_IGNORE);
    }
    sink = x;
}

/* This thread's processor time (MPI_Wtime where there is no such clock):
 * ranks that share a core while they calibrate still see their own cost. */
static double cpu_now(void)
{
#ifdef CLOCK_THREAD_CPUTIME_ID
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#endif
    return MPI_Wtime();
}

/* Seconds per iteration of compute() on this rank: the fastest of a few
 * runs of at least 10 ms each, in processor time. */
static double compute_calibrate(void)
{
    long n = 1000;
    double t = 0;
    for (;;) {
        double t0 = cpu_now();
        compute(n, 0, NULL);
        t = cpu_now() - t0;
        if (t >= 0.01 || n > (1L << 40))
            break;
        n *= 2;
    }
    double best = t / (double)n;
    for (int r = 0; r < 4; r++) {
        double t0 = cpu_now();
        compute(n, 0, NULL);
        double s = (cpu_now() - t0) / (double)n;
        if (s < best)
            best = s;
    }
    return best;
}

/* -------------------------------------------------------------- calls */

static int nb_start(const ic_point_t *pt, int lib, MPI_Request *req)
{
    MPI_Comm comm = pt->comm;
    MPI_Datatype t = pt->type;
    int root = pt->root, n = (int)pt->count, blk = (int)pt->blk;
    int own = pt->counts[pt->rank];
    void *s = pt->sbuf, *r = pt->out[lib];
    const int *cs = pt->counts, *ds = pt->displs;
    int ic = lib == IC_LIB_IC;
    *req = MPI_REQUEST_NULL;
    switch (pt->c) {
    case IC_COLL_BCAST:
        return ic ? IC_Ibcast(r, n, t, root, comm, req) : MPI_Ibcast(r, n, t, root, comm, req);
    case IC_COLL_REDUCE:
        return ic ? IC_Ireduce(s, r, n, t, MPI_SUM, root, comm, req)
                  : MPI_Ireduce(s, r, n, t, MPI_SUM, root, comm, req);
    case IC_COLL_ALLREDUCE:
        return ic ? IC_Iallreduce(s, r, n, t, MPI_SUM, comm, req)
                  : MPI_Iallreduce(s, r, n, t, MPI_SUM, comm, req);
    case IC_COLL_ALLGATHER:
        return ic ? IC_Iallgather(s, blk, t, r, blk, t, comm, req)
                  : MPI_Iallgather(s, blk, t, r, blk, t, comm, req);
    case IC_COLL_ALLGATHERV:
        return ic ? IC_Iallgatherv(s, own, t, r, cs, ds, t, comm, req)
                  : MPI_Iallgatherv(s, own, t, r, cs, ds, t, comm, req);
    case IC_COLL_REDUCE_SCATTER:
        return ic ? IC_Ireduce_scatter(s, r, cs, t, MPI_SUM, comm, req)
                  : MPI_Ireduce_scatter(s, r, cs, t, MPI_SUM, comm, req);
    case IC_COLL_REDUCE_SCATTER_BLOCK:
        return ic ? IC_Ireduce_scatter_block(s, r, blk, t, MPI_SUM, comm, req)
                  : MPI_Ireduce_scatter_block(s, r, blk, t, MPI_SUM, comm, req);
    case IC_COLL_SCATTER:
        return ic ? IC_Iscatter(s, blk, t, r, blk, t, root, comm, req)
                  : MPI_Iscatter(s, blk, t, r, blk, t, root, comm, req);
    case IC_COLL_SCATTERV:
        return ic ? IC_Iscatterv(s, cs, ds, t, r, own, t, root, comm, req)
                  : MPI_Iscatterv(s, cs, ds, t, r, own, t, root, comm, req);
    case IC_COLL_GATHER:
        return ic ? IC_Igather(s, blk, t, r, blk, t, root, comm, req)
                  : MPI_Igather(s, blk, t, r, blk, t, root, comm, req);
    case IC_COLL_GATHERV:
        return ic ? IC_Igatherv(s, own, t, r, cs, ds, t, root, comm, req)
                  : MPI_Igatherv(s, own, t, r, cs, ds, t, root, comm, req);
    default:
        return ic ? IC_Ibarrier(comm, req) : MPI_Ibarrier(comm, req);
    }
}

/* InterCom's persistent request of the point, into out[IC_LIB_IC]. */
static int persistent_init(const ic_point_t *pt, MPI_Request *req)
{
    MPI_Comm comm = pt->comm;
    MPI_Datatype t = pt->type;
    MPI_Info in = MPI_INFO_NULL;
    int root = pt->root, n = (int)pt->count, blk = (int)pt->blk;
    int own = pt->counts[pt->rank];
    void *s = pt->sbuf, *r = pt->out[IC_LIB_IC];
    const int *cs = pt->counts, *ds = pt->displs;
    *req = MPI_REQUEST_NULL;
    switch (pt->c) {
    case IC_COLL_BCAST:
        return IC_Bcast_init(r, n, t, root, comm, in, req);
    case IC_COLL_REDUCE:
        return IC_Reduce_init(s, r, n, t, MPI_SUM, root, comm, in, req);
    case IC_COLL_ALLREDUCE:
        return IC_Allreduce_init(s, r, n, t, MPI_SUM, comm, in, req);
    case IC_COLL_ALLGATHER:
        return IC_Allgather_init(s, blk, t, r, blk, t, comm, in, req);
    case IC_COLL_ALLGATHERV:
        return IC_Allgatherv_init(s, own, t, r, cs, ds, t, comm, in, req);
    case IC_COLL_REDUCE_SCATTER:
        return IC_Reduce_scatter_init(s, r, cs, t, MPI_SUM, comm, in, req);
    case IC_COLL_REDUCE_SCATTER_BLOCK:
        return IC_Reduce_scatter_block_init(s, r, blk, t, MPI_SUM, comm, in, req);
    case IC_COLL_SCATTER:
        return IC_Scatter_init(s, blk, t, r, blk, t, root, comm, in, req);
    case IC_COLL_SCATTERV:
        return IC_Scatterv_init(s, cs, ds, t, r, own, t, root, comm, in, req);
    case IC_COLL_GATHER:
        return IC_Gather_init(s, blk, t, r, blk, t, root, comm, in, req);
    case IC_COLL_GATHERV:
        return IC_Gatherv_init(s, own, t, r, cs, ds, t, root, comm, in, req);
    default:
        return IC_Barrier_init(comm, in, req);
    }
}

/* A point: its layout, the reference result and the mismatch counts. */
typedef struct ovl_point {
    ic_point_t pt;
    char *ref;     /* the vendor's blocking result (cmp_bytes)       */
    int mism[3];   /* per this rank: vendor, InterCom, persistent    */
    int errors[3]; /* calls that did not return MPI_SUCCESS          */
} ovl_point_t;

static void check(ovl_point_t *o, int lib, int slot)
{
    const ic_point_t *pt = &o->pt;
    if (pt->cmp_bytes && memcmp(pt->out[lib], o->ref, pt->cmp_bytes) != 0)
        o->mism[slot]++;
}

/* One nonblocking call of lib, checked: (start; compute iters; wait), its
 * time on this rank. */
static double timed_nb(ovl_point_t *o, int lib, long iters, int tests)
{
    ic_point_t *pt = &o->pt;
    MPI_Request req;
    ic_point_reset(pt, lib);
    MPI_Barrier(pt->comm);
    double t0 = MPI_Wtime();
    int rc = nb_start(pt, lib, &req);
    if (iters > 0)
        compute(iters, rc == MPI_SUCCESS ? tests : 0, &req);
    if (rc == MPI_SUCCESS)
        rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    double t = MPI_Wtime() - t0;
    o->errors[lib] += rc != MPI_SUCCESS;
    check(o, lib, lib);
    return t;
}

static double timed_compute(const ic_point_t *pt, long iters)
{
    MPI_Barrier(pt->comm);
    double t0 = MPI_Wtime();
    compute(iters, 0, NULL);
    return MPI_Wtime() - t0;
}

/* -------------------------------------------------------- measurement */

typedef struct ovl_result {
    int reps;
    ic_stats_t pure[2], comp[2], all[2];
    long iters[2];
    double overlap[2];
    int mism[2];
} ovl_result_t;

typedef struct pers_result {
    int reps;
    ic_stats_t v, ib, ip; /* vendor blocking, InterCom blocking, persistent */
    int mism;
} pers_result_t;

static double overlap_pct(double all, double comp, double pure)
{
    if (!(pure > 0))
        return NAN;
    double f = 1 - (all - comp) / pure;
    return 100 * (f < 0 ? 0 : f > 1 ? 1 : f);
}

/* The nonblocking point: warm-up, the pure times, then (after the compute
 * loop is sized from them) the overall and compute times. */
static void measure_nb(ic_bench_t *b, ovl_point_t *o, double per_iter, ovl_result_t *res)
{
    ic_point_t *pt = &o->pt;
    double est = INFINITY, gest = 0;
    for (int w = 0; w < (b->o.warmup > 0 ? b->o.warmup : 1); w++) {
        double t0 = MPI_Wtime();
        for (int lib = 0; lib < 2; lib++)
            timed_nb(o, lib, 0, 0);
        double e = MPI_Wtime() - t0;
        est = e < est ? e : est; /* not a first touch's outlier */
    }
    MPI_Allreduce(&est, &gest, 1, MPI_DOUBLE, MPI_MAX, pt->comm);
    /* one repetition of all three phases: about three times a pure pair */
    int reps = ic_bench_reps(b, 3 * gest);
    double *t = ic_bench_alloc(b, 8 * (size_t)reps * sizeof(double)), *tmax = t + 4 * reps;
    double *s = ic_bench_alloc(b, (size_t)reps * sizeof(double));

    /* 1. pure */
    for (int r = 0; r < reps; r++) {
        int first = r % 2 ? IC_LIB_IC : IC_LIB_VENDOR;
        for (int k = 0; k < 2; k++) {
            int lib = k ? !first : first;
            t[2 * r + lib] = timed_nb(o, lib, 0, 0);
        }
    }
    MPI_Reduce(t, tmax, 2 * reps, MPI_DOUBLE, MPI_MAX, 0, pt->comm);
    double tp[2] = {0, 0};
    if (b->rank == 0)
        for (int lib = 0; lib < 2; lib++) {
            for (int r = 0; r < reps; r++)
                s[r] = tmax[2 * r + lib];
            ic_stats(s, reps, &res->pure[lib]);
            tp[lib] = res->pure[lib].median;
        }
    MPI_Bcast(tp, 2, MPI_DOUBLE, 0, pt->comm);
    long iters[2];
    for (int lib = 0; lib < 2; lib++)
        iters[lib] = per_iter > 0 ? (long)ceil(tp[lib] / per_iter) : 0;

    /* 2. overall and compute alone */
    for (int r = 0; r < reps; r++) {
        int first = r % 2 ? IC_LIB_IC : IC_LIB_VENDOR;
        for (int k = 0; k < 2; k++) {
            int lib = k ? !first : first;
            t[4 * r + lib] = timed_nb(o, lib, iters[lib], b->o.test_every);
        }
        for (int k = 0; k < 2; k++) {
            int lib = k ? !first : first;
            t[4 * r + 2 + lib] = timed_compute(pt, iters[lib]);
        }
    }
    MPI_Reduce(t, tmax, 4 * reps, MPI_DOUBLE, MPI_MAX, 0, pt->comm);
    int local[2] = {o->mism[0] + o->errors[0], o->mism[1] + o->errors[1]}, sum[2] = {0, 0};
    MPI_Reduce(local, sum, 2, MPI_INT, MPI_SUM, 0, pt->comm);
    if (b->rank == 0) {
        res->reps = reps;
        for (int lib = 0; lib < 2; lib++) {
            for (int r = 0; r < reps; r++)
                s[r] = tmax[4 * r + lib];
            ic_stats(s, reps, &res->all[lib]);
            for (int r = 0; r < reps; r++)
                s[r] = tmax[4 * r + 2 + lib];
            ic_stats(s, reps, &res->comp[lib]);
            res->iters[lib] = iters[lib];
            res->mism[lib] = sum[lib];
            res->overlap[lib] =
                overlap_pct(res->all[lib].median, res->comp[lib].median, res->pure[lib].median);
        }
    }
    free(t);
    free(s);
}

/* One call of the persistent comparison: 0 vendor blocking, 1 InterCom
 * blocking, 2 InterCom persistent (req). */
static double timed_pers(ovl_point_t *o, int which, MPI_Request *req)
{
    ic_point_t *pt = &o->pt;
    int lib = which == 0 ? IC_LIB_VENDOR : IC_LIB_IC;
    ic_point_reset(pt, lib);
    MPI_Barrier(pt->comm);
    double t0 = MPI_Wtime();
    int rc;
    if (which < 2) {
        rc = ic_point_call(pt, lib);
    } else {
        rc = IC_Start(req);
        if (rc == MPI_SUCCESS)
            rc = IC_Wait(req, MPI_STATUS_IGNORE);
    }
    double t = MPI_Wtime() - t0;
    o->errors[which] += rc != MPI_SUCCESS;
    check(o, lib, which);
    return t;
}

static void measure_pers(ic_bench_t *b, ovl_point_t *o, pers_result_t *res)
{
    ic_point_t *pt = &o->pt;
    MPI_Request req;
    memset(o->mism, 0, sizeof(o->mism));
    memset(o->errors, 0, sizeof(o->errors));
    int rc = persistent_init(pt, &req);
    o->errors[2] += rc != MPI_SUCCESS;
    double est = INFINITY, gest = 0;
    for (int w = 0; w < (b->o.warmup > 0 ? b->o.warmup : 1); w++) {
        double t0 = MPI_Wtime();
        for (int k = 0; k < 3; k++)
            if (k < 2 || rc == MPI_SUCCESS)
                timed_pers(o, k, &req);
        double e = MPI_Wtime() - t0;
        est = e < est ? e : est;
    }
    MPI_Allreduce(&est, &gest, 1, MPI_DOUBLE, MPI_MAX, pt->comm);
    int reps = ic_bench_reps(b, gest);
    double *t = ic_bench_alloc(b, 6 * (size_t)reps * sizeof(double)), *tmax = t + 3 * reps;
    double *s = ic_bench_alloc(b, (size_t)reps * sizeof(double));
    for (int i = 0; i < 3 * reps; i++)
        t[i] = NAN;
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < 3; k++) {
            int which = (r + k) % 3; /* the order rotates */
            if (which < 2 || rc == MPI_SUCCESS)
                t[3 * r + which] = timed_pers(o, which, &req);
        }
    if (rc == MPI_SUCCESS)
        IC_Request_free(&req);
    MPI_Reduce(t, tmax, 3 * reps, MPI_DOUBLE, MPI_MAX, 0, pt->comm);
    int local = o->mism[1] + o->mism[2] + o->errors[0] + o->errors[1] + o->errors[2] + o->mism[0];
    int sum = 0;
    MPI_Reduce(&local, &sum, 1, MPI_INT, MPI_SUM, 0, pt->comm);
    if (b->rank == 0) {
        ic_stats_t *st[3] = {&res->v, &res->ib, &res->ip};
        for (int which = 0; which < 3; which++) {
            for (int r = 0; r < reps; r++)
                s[r] = tmax[3 * r + which];
            ic_stats(s, reps, st[which]);
        }
        res->reps = reps;
        res->mism = sum;
    }
    free(t);
    free(s);
}

/* ------------------------------------------------------------- report */

static ic_rtable_t *nb_table(ic_bench_t *b, ic_coll_t c)
{
    char name[64], title[160];
    snprintf(name, sizeof(name), "overlap_%s", ic_coll_name(c));
    snprintf(title, sizeof(title),
             "%s, p = %d: nonblocking call alone (t_pure), the compute loop alone (t_compute), "
             "both (t_overall)",
             ic_coll_name(c), b->size);
    ic_rtable_t *t = ic_report_table(b->rep, name, title);
    ic_rtable_col(t, "op", NULL, IC_COL_STR | IC_COL_DETAIL, NULL);
    ic_rtable_col(t, "bytes", NULL, IC_COL_INT, NULL);
    ic_rtable_col(t, "library", NULL, IC_COL_STR, NULL);
    ic_rtable_col(t, "reps", NULL, IC_COL_INT, NULL);
    ic_rtable_col(t, "t_pure", NULL, IC_COL_SEC, NULL);
    ic_rtable_col(t, "t_compute", NULL, IC_COL_SEC, NULL);
    ic_rtable_col(t, "t_overall", NULL, IC_COL_SEC, NULL);
    ic_rtable_col(t, "overlap", "overlap%", IC_COL_NUM, "%.1f");
    ic_rtable_col(t, "pure_ratio", "pure v/ic", IC_COL_RATIO, NULL);
    ic_rtable_col(t, "overall_ratio", "overall v/ic", IC_COL_RATIO, NULL);
    ic_rtable_col(t, "check", NULL, IC_COL_STR, NULL);
    ic_rtable_col(t, "iterations", NULL, IC_COL_INT | IC_COL_DETAIL, NULL);
    static const char *const q[3] = {"pure", "compute", "overall"};
    for (int k = 0; k < 3; k++) {
        char key[32];
        snprintf(key, sizeof(key), "%s_q1", q[k]);
        ic_rtable_col(t, key, NULL, IC_COL_SEC | IC_COL_DETAIL, NULL);
        snprintf(key, sizeof(key), "%s_q3", q[k]);
        ic_rtable_col(t, key, NULL, IC_COL_SEC | IC_COL_DETAIL, NULL);
    }
    return t;
}

static void nb_rows(ic_rtable_t *t, ic_coll_t c, double bytes, const ovl_result_t *r)
{
    for (int lib = 0; lib < 2; lib++) {
        int ic = lib == IC_LIB_IC;
        ic_rtable_row(t);
        ic_rtable_str(t, ic_coll_name(c));
        ic_rtable_num(t, bytes);
        ic_rtable_str(t, ic ? "intercom" : "vendor");
        ic_rtable_num(t, r->reps);
        ic_rtable_num(t, r->pure[lib].median);
        ic_rtable_num(t, r->comp[lib].median);
        ic_rtable_num(t, r->all[lib].median);
        ic_rtable_num(t, r->overlap[lib]);
        ic_rtable_num(t, ic && r->pure[1].median > 0 ? r->pure[0].median / r->pure[1].median : NAN);
        ic_rtable_num(t, ic && r->all[1].median > 0 ? r->all[0].median / r->all[1].median : NAN);
        ic_rtable_str(t, r->mism[lib] ? "MISMATCH" : "ok");
        ic_rtable_num(t, (double)r->iters[lib]);
        const ic_stats_t *st[3] = {&r->pure[lib], &r->comp[lib], &r->all[lib]};
        for (int k = 0; k < 3; k++) {
            ic_rtable_num(t, st[k]->q1);
            ic_rtable_num(t, st[k]->q3);
        }
    }
}

static ic_rtable_t *pers_table(ic_bench_t *b)
{
    char title[160];
    snprintf(title, sizeof(title),
             "Persistent against blocking, p = %d: InterCom's IC_Start + IC_Wait of a request "
             "made once, its blocking call, the vendor's blocking call",
             b->size);
    ic_rtable_t *t = ic_report_table(b->rep, "persistent", title);
    ic_rtable_col(t, "op", NULL, IC_COL_STR, NULL);
    ic_rtable_col(t, "bytes", NULL, IC_COL_INT, NULL);
    ic_rtable_col(t, "reps", NULL, IC_COL_INT, NULL);
    ic_rtable_col(t, "vendor", "vendor blocking", IC_COL_SEC, NULL);
    ic_rtable_col(t, "blocking", "ic blocking", IC_COL_SEC, NULL);
    ic_rtable_col(t, "persistent", "ic persistent", IC_COL_SEC, NULL);
    ic_rtable_col(t, "ratio", "blocking/persistent", IC_COL_NUM, "%.2f");
    ic_rtable_col(t, "check", NULL, IC_COL_STR, NULL);
    ic_rtable_col(t, "vendor_q1", NULL, IC_COL_SEC | IC_COL_DETAIL, NULL);
    ic_rtable_col(t, "vendor_q3", NULL, IC_COL_SEC | IC_COL_DETAIL, NULL);
    ic_rtable_col(t, "blocking_q1", NULL, IC_COL_SEC | IC_COL_DETAIL, NULL);
    ic_rtable_col(t, "blocking_q3", NULL, IC_COL_SEC | IC_COL_DETAIL, NULL);
    ic_rtable_col(t, "persistent_q1", NULL, IC_COL_SEC | IC_COL_DETAIL, NULL);
    ic_rtable_col(t, "persistent_q3", NULL, IC_COL_SEC | IC_COL_DETAIL, NULL);
    return t;
}

static const char *thread_level_name(int level)
{
    switch (level) {
    case MPI_THREAD_SINGLE:
        return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED:
        return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED:
        return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE:
        return "MPI_THREAD_MULTIPLE";
    default:
        return "unknown";
    }
}

/* Summary accumulators (rank 0). */
typedef struct ovl_sum {
    int n;         /* nonblocking points counted                        */
    double ovl[2]; /* sums of overlap %, vendor and InterCom           */
    double lpure;  /* sum of log(vendor t_pure / InterCom t_pure)      */
    double lall;   /* sum of log(vendor t_overall / InterCom t_overall) */
    int nratio;    /* points with both ratios finite and positive       */
    double worst;  /* lowest blocking/persistent ratio                  */
    char worst_at[64];
} ovl_sum_t;

static void sum_add(ovl_sum_t *s, const ovl_result_t *r)
{
    if (isnan(r->overlap[0]) || isnan(r->overlap[1]))
        return;
    s->n++;
    s->ovl[0] += r->overlap[0];
    s->ovl[1] += r->overlap[1];
    double a = r->pure[0].median / r->pure[1].median, c = r->all[0].median / r->all[1].median;
    if (a > 0 && isfinite(a) && c > 0 && isfinite(c)) {
        s->lpure += log(a);
        s->lall += log(c);
        s->nratio++;
    }
}

/* ------------------------------------------------------------- driver */

typedef struct series {
    double *x, *y[2];
    int n;
} series_t;

int ic_bench_overlap(ic_bench_t *b)
{
    ic_coll_t ops[IC_COLL_COUNT];
    int nops;
    MPI_Datatype type;
    if (ic_bench_type(b->o.type, &type) != 0) {
        if (b->rank == 0)
            fprintf(stderr, "intercom-bench overlap: --type must be int, long, float or double\n");
        return 2;
    }
    if (!b->o.ops) {
        static const ic_coll_t def[] = {IC_COLL_ALLREDUCE, IC_COLL_BCAST, IC_COLL_ALLGATHER,
                                        IC_COLL_REDUCE_SCATTER_BLOCK, IC_COLL_REDUCE};
        nops = (int)(sizeof(def) / sizeof(def[0]));
        memcpy(ops, def, sizeof(def));
    } else if ((nops = ic_bench_colls(b, b->o.ops, ops)) < 0) {
        return 2;
    }
    if (b->o.root >= b->size) {
        if (b->rank == 0)
            fprintf(stderr, "intercom-bench overlap: --root must be below p = %d\n", b->size);
        return 2;
    }
    ic_bench_defaults(b, 0.2, 1000, 2);
    size_t *sizes;
    int ns = ic_bench_sizes(b, 8, 4u << 20, 4, &sizes);
    /* a sweep of --factor steps ends at its longest length even when a
     * step passes it (the default: 8 B, 32 B, ..., 2 MiB, 4 MiB) */
    size_t top = b->o.max_size >= 0 ? (size_t)b->o.max_size : 4u << 20;
    if (!b->o.sizes && ns > 0 && sizes[ns - 1] < top) {
        size_t *more = realloc(sizes, (size_t)(ns + 1) * sizeof(size_t));
        if (!more) {
            free(sizes);
            ic_bench_alloc(b, (size_t)-1); /* aborts */
            return 2;
        }
        sizes = more;
        sizes[ns++] = top;
    }

    ic_bench_describe(b);
    double mine = compute_calibrate(), per_iter = 0;
    MPI_Allreduce(&mine, &per_iter, 1, MPI_DOUBLE, MPI_MIN, b->comm);
    int level = MPI_THREAD_SINGLE;
    MPI_Query_thread(&level);
    const char *pt_env = getenv("INTERCOM_PROGRESS_THREAD");

    ic_rtable_t *tabs[IC_COLL_COUNT], *pt_tab = NULL;
    if (b->rank == 0) {
        ic_report_t *r = b->rep;
        char tn[MPI_MAX_OBJECT_NAME];
        int len;
        MPI_Type_get_name(type, tn, &len);
        ic_report_info(r, "data", "%s, MPI_SUM, root %d; bytes = the whole vector n", tn,
                       b->o.root);
        ic_report_info(r, "thread level", "%s (MPI_Query_thread)", thread_level_name(level));
        if (pt_env)
            ic_report_info(r, "INTERCOM_PROGRESS_THREAD", "%s", pt_env);
        else
            ic_report_info(r, "INTERCOM_PROGRESS_THREAD", "unset");
        if (b->o.test_every > 0)
            ic_report_info(r, "test every",
                           "MPI_Test on the request %d times, evenly spread "
                           "through the compute loop",
                           b->o.test_every);
        else
            ic_report_info(r, "test every", "0 (no MPI_Test in the compute loop: --test-every N)");
        ic_report_info_num(r, "compute_iteration", per_iter, "s");
        ic_report_note(r, "overlap%% = 100 max(0, min(1, 1 - (t_overall - t_compute) / t_pure)): "
                          "100 the call hid entirely behind the computation, 0 not at all; "
                          "t_pure: start and MPI_Wait; t_compute: the compute loop alone, sized "
                          "to last that library's t_pure; t_overall: start, the compute loop, "
                          "MPI_Wait");
        ic_report_note(r, "times: median over the repetitions of the slowest rank's time; pure "
                          "v/ic, overall v/ic: vendor time / InterCom time (above 1 InterCom is "
                          "faster); blocking/persistent above 1: the persistent call is faster");
        if (level != MPI_THREAD_MULTIPLE)
            ic_report_note(r, "no progress thread can run at this thread level: a nonblocking "
                              "call moves on only inside MPI calls (MPI_Test: --test-every) and "
                              "by what the MPI's own transport does in the background");
        for (int k = 0; k < nops; k++)
            tabs[k] = nb_table(b, ops[k]);
        pt_tab = pers_table(b);
    }

    ovl_sum_t sum_large, sum_all;
    memset(&sum_large, 0, sizeof(sum_large));
    memset(&sum_all, 0, sizeof(sum_all));
    sum_large.worst = sum_all.worst = INFINITY;
    int npoints = 0, done = 0, have_large = 0;
    for (int k = 0; k < nops; k++)
        npoints += ops[k] == IC_COLL_BARRIER ? 1 : ns;
    for (int i = 0; i < ns; i++)
        have_large |= sizes[i] >= OVL_LARGE;
    series_t fig;
    memset(&fig, 0, sizeof(fig));
    if (b->rank == 0 && b->o.plot) {
        fig.x = ic_bench_alloc(b, (size_t)ns * sizeof(double));
        fig.y[0] = ic_bench_alloc(b, (size_t)ns * sizeof(double));
        fig.y[1] = ic_bench_alloc(b, (size_t)ns * sizeof(double));
    }
    for (int k = 0; k < nops; k++) {
        ic_coll_t c = ops[k];
        fig.n = 0;
        for (int si = 0; si < (c == IC_COLL_BARRIER ? 1 : ns); si++) {
            size_t bytes = c == IC_COLL_BARRIER ? 0 : sizes[si];
            ovl_point_t o;
            memset(&o, 0, sizeof(o));
            ic_point_setup(b, &o.pt, c, bytes, type, b->o.root);
            double n = (double)(o.pt.total * o.pt.esz);
            ic_bench_progress(b, "[overlap] %s %.0f B (%d/%d)", ic_coll_name(c), n, ++done,
                              npoints);
            /* the reference: the vendor's blocking call */
            o.ref = ic_bench_alloc(b, o.pt.cmp_bytes);
            ic_point_reset(&o.pt, IC_LIB_VENDOR);
            ic_point_call(&o.pt, IC_LIB_VENDOR);
            memcpy(o.ref, o.pt.out[IC_LIB_VENDOR], o.pt.cmp_bytes);

            ovl_result_t res;
            memset(&res, 0, sizeof(res));
            measure_nb(b, &o, per_iter, &res);
            pers_result_t pr;
            memset(&pr, 0, sizeof(pr));
            measure_pers(b, &o, &pr);
            if (b->rank == 0) {
                b->failures += (res.mism[0] != 0) + (res.mism[1] != 0) + (pr.mism != 0);
                nb_rows(tabs[k], c, n, &res);
                sum_add(&sum_all, &res);
                if (n >= OVL_LARGE)
                    sum_add(&sum_large, &res);
                double ratio = pr.ip.median > 0 ? pr.ib.median / pr.ip.median : NAN;
                ic_rtable_row(pt_tab);
                ic_rtable_str(pt_tab, ic_coll_name(c));
                ic_rtable_num(pt_tab, n);
                ic_rtable_num(pt_tab, pr.reps);
                ic_rtable_num(pt_tab, pr.v.median);
                ic_rtable_num(pt_tab, pr.ib.median);
                ic_rtable_num(pt_tab, pr.ip.median);
                ic_rtable_num(pt_tab, ratio);
                ic_rtable_str(pt_tab, pr.mism ? "MISMATCH" : "ok");
                ic_rtable_num(pt_tab, pr.v.q1);
                ic_rtable_num(pt_tab, pr.v.q3);
                ic_rtable_num(pt_tab, pr.ib.q1);
                ic_rtable_num(pt_tab, pr.ib.q3);
                ic_rtable_num(pt_tab, pr.ip.q1);
                ic_rtable_num(pt_tab, pr.ip.q3);
                if (ratio < sum_all.worst) {
                    sum_all.worst = ratio;
                    snprintf(sum_all.worst_at, sizeof(sum_all.worst_at), "%s %.0f B",
                             ic_coll_name(c), n);
                }
                if (b->o.plot && fig.n < ns) {
                    fig.x[fig.n] = n;
                    fig.y[0][fig.n] = res.overlap[0];
                    fig.y[1][fig.n] = res.overlap[1];
                    fig.n++;
                }
            }
            free(o.ref);
            ic_point_free(&o.pt);
        }
        if (b->rank == 0 && b->o.plot && c != IC_COLL_BARRIER) {
            char name[64], title[160];
            snprintf(name, sizeof(name), "overlap-%s", ic_coll_name(c));
            snprintf(title, sizeof(title), "%s, p = %d: overlap of the nonblocking call%s",
                     ic_coll_name(c), b->size, b->o.test_every > 0 ? " (with MPI_Test)" : "");
            ic_plot_t *pl = ic_plot_new(b->o.plot, name, title, "bytes", "overlap [%]", 1, 0);
            ic_plot_series(pl, "vendor", IC_PLOT_LINESPOINTS, fig.x, fig.y[0], fig.n);
            ic_plot_series(pl, "InterCom", IC_PLOT_LINESPOINTS, fig.x, fig.y[1], fig.n);
            b->failures += ic_plot_finish(pl) != 0;
        }
    }
    ic_bench_progress_end(b);
    if (b->rank == 0) {
        const ovl_sum_t *s = have_large ? &sum_large : &sum_all;
        char over[64];
        if (have_large)
            snprintf(over, sizeof(over), "sizes >= 1 MiB");
        else
            snprintf(over, sizeof(over), "all sizes (none >= 1 MiB)");
        double m_ic = s->n ? s->ovl[1] / s->n : NAN, m_v = s->n ? s->ovl[0] / s->n : NAN;
        double g_pure = s->nratio ? exp(s->lpure / s->nratio) : NAN;
        double g_all = s->nratio ? exp(s->lall / s->nratio) : NAN;
        char gp[32], ga[32];
        ic_report_headline(b->rep, "summary",
                           "over %s (%d points): InterCom overlap %.1f %% (vendor %.1f %%); "
                           "geometric mean of vendor/InterCom nonblocking time %s alone, "
                           "%s with computation (> 1: InterCom faster); lowest "
                           "blocking/persistent %.2f (%s; > 1: persistent faster)",
                           over, s->n, m_ic, m_v, ic_fmt_ratio(g_pure, gp, sizeof(gp)),
                           ic_fmt_ratio(g_all, ga, sizeof(ga)), sum_all.worst,
                           sum_all.worst_at[0] ? sum_all.worst_at : "-");
        ic_report_note(b->rep, "the summary's overlap %% is the arithmetic mean of the points' "
                               "overlap (a percentage may be 0, where a geometric mean says "
                               "nothing); the time ratios' mean is geometric; the lowest "
                               "blocking/persistent ratio is over every measured point");
    }
    free(fig.x);
    free(fig.y[0]);
    free(fig.y[1]);
    free(sizes);
    return 0;
}
