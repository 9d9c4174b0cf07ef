/*
 * coll.c -- `intercom-bench coll`: every collective of the vendor MPI
 * against InterCom's, over a sweep of message sizes.
 *
 * First a summary (coll_summary: sizes where InterCom is faster or slower
 * beyond noise, the same, or noise, and the geometric mean of vendor /
 * InterCom, > 1: InterCom faster), then one row per (operation, p, bytes)
 * [and algorithm with --algorithms]: median time of the vendor's call and
 * of InterCom's, with their spread, the ratio vendor / InterCom, the
 * verdict (fit.h: ic_compare), off one node a bound no measurement can
 * beat (fit.h: ic_time_floor), InterCom's algorithm (IC_Last_algorithm)
 * and the cost model's predicted time of that algorithm (ic_predict with
 * this run's alpha, beta, gamma and the parameters the library derives
 * from them, ic_bench_model_t).  --plot adds the figure of the ratios.
 *
 * Method.
 *   - alpha and beta: a COMMS1 ping-pong between ranks 0 and p-1 in the same
 *     run, fitted with Hockney's model (per region when the protocol
 *     changes, see pingpong.c): alpha = t0 of the shortest messages,
 *     beta = 1 / r_inf of the longest;
 *     gamma: MPI_Reduce_local of the benchmark's type and MPI_SUM, per
 *     byte.
 *   - bytes is the whole vector n of the lower bounds: the broadcast
 *     message, the reduced vector, the vector gathered, scattered or
 *     reduce-scattered (blocks of n/p; the v-variants use uneven blocks of
 *     3/4 and 5/4 of that, alternating).  Element type int (--type), op
 *     MPI_SUM; data are small integers, so every reduction is exact in any
 *     order and results are compared bitwise.
 *   - per point: --warmup untimed calls of each library, then rounds of
 *     repetitions until both medians are known within --spread (measure),
 *     each repetition timing one vendor call and one InterCom call,
 *     alternating which goes first; each call starts after an MPI_Barrier and its time is
 *     that of the slowest rank (MPI_Reduce MAX of the per-rank times, done
 *     after the repetitions); medians and quartiles over the repetitions.
 *     With --block N the libraries take turns in blocks of N calls
 *     instead of single calls: each block after the first call then runs
 *     in its own library's steady state (on links limited by a token
 *     bucket, single calls in turn share the bucket: a library that leaves
 *     it fuller speeds up the other's next call).
 *     With --settle S the ranks idle S seconds (after a barrier) before
 *     each call's barrier: on links limited by a token bucket (the emulated
 *     cluster's tbf) the bucket then refills, and a call does not run on
 *     the credit the other library's call left or pay for its debt.
 *   - every repetition compares InterCom's result with the vendor's, byte
 *     for byte, on every rank where the result is defined (outputs are
 *     poisoned before each call, so a call that writes nothing fails).
 *     The barrier is checked for its one promise: a rank that left it
 *     cannot have sent a message before the last rank entered it.
 */
#include "config.h"
#include "bench.h"
#include "point.h"
#include "choose.h"
#include "table.h"
#include "intercom.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { TAG_BARRIER_CHECK = 301 };

typedef struct result {
    ic_stats_t v, i;
    int reps;
    ic_cmp_t verdict;
    int mismatch; /* ranks x repetitions with differing results    */
    char alg[IC_PLAN_TEXT_MAX + 48];
} result_t;

/* ------------------------------------------------------------- calls */

/* The barrier's promise: rank 0 enters late; the last rank sends it a
 * message right after leaving.  Had anyone left before rank 0 entered,
 * the message could already be there when rank 0 looks, before entering.
 * A correct barrier can never fail this check.  Returns 1 on violation
 * (rank 0). */
static int barrier_check(const ic_point_t *pt, int lib)
{
    int p = pt->p, me = pt->rank, bad = 0, flag = 0, token = 1;
    if (p < 2)
        return 0;
    MPI_Barrier(pt->comm);
    if (me == 0) {
        ic_bench_sleep(0.005);
        MPI_Iprobe(p - 1, TAG_BARRIER_CHECK, pt->comm, &flag, MPI_STATUS_IGNORE);
        bad = flag;
    }
    if (lib == IC_LIB_IC)
        IC_Barrier(pt->comm);
    else
        MPI_Barrier(pt->comm);
    if (me == p - 1)
        MPI_Send(&token, 1, MPI_INT, 0, TAG_BARRIER_CHECK, pt->comm);
    if (me == 0)
        MPI_Recv(&token, 1, MPI_INT, p - 1, TAG_BARRIER_CHECK, pt->comm, MPI_STATUS_IGNORE);
    return bad;
}

/* Time one point: warm-up, then rounds of repetitions.  A round is as many
 * repetitions as fit --time; after each round rank 0 looks at how well
 * both medians are known (fit.h: ic_median_halfwidth) and, while one is
 * less certain than --spread and fewer than IC_COLL_ROUNDS rounds ran,
 * asks for another round (not with --reps: exactly that many).  What is
 * still less certain after the last round is marked noise (ic_compare). */
static void measure(ic_bench_t *b, const ic_point_t *pt, result_t *res)
{
    int errors = 0, mism = 0;
    double est = 0, gest = 0;
    for (int w = 0; w < b->o.warmup; w++) {
        double t0 = MPI_Wtime(); /* a whole repetition: both calls, barriers, checks */
        for (int lib = 0; lib < 2; lib++)
            ic_point_timed(pt, lib, &errors, b->o.settle);
        if (pt->cmp_bytes)
            mism += memcmp(pt->out[0], pt->out[1], pt->cmp_bytes) != 0;
        est = MPI_Wtime() - t0;
    }
    MPI_Allreduce(&est, &gest, 1, MPI_DOUBLE, MPI_MAX, pt->comm);
    int reps = ic_bench_reps(b, gest);
    int rounds = b->o.reps > 0 ? 1 : IC_COLL_ROUNDS;
    double spread = (b->o.spread > 0 ? b->o.spread : IC_COLL_SPREAD) / 100.0;
    double *t = ic_bench_alloc(b, 4 * (size_t)reps * sizeof(double)), *tmax = t + 2 * reps;
    /* rank 0: the series of the slowest rank's times, vendor and InterCom */
    double *sv = NULL, *si = NULL;
    if (b->rank == 0) {
        sv = ic_bench_alloc(b, (size_t)reps * (size_t)rounds * sizeof(double));
        si = ic_bench_alloc(b, (size_t)reps * (size_t)rounds * sizeof(double));
    }
    int blk = b->o.block > 1 ? b->o.block : 1, have = 0, more = 1;
    for (int round = 0; round < rounds && more; round++) {
        for (int r0 = 0; r0 < reps; r0 += blk) {
            /* which library goes first alternates over the whole point */
            int first = ((have + r0) / blk) % 2 ? IC_LIB_IC : IC_LIB_VENDOR;
            int end = r0 + blk < reps ? r0 + blk : reps;
            for (int k = 0; k < 2; k++) {
                int lib = k ? !first : first;
                for (int r = r0; r < end; r++)
                    t[2 * r + lib] = ic_point_timed(pt, lib, &errors, b->o.settle);
            }
            if (pt->cmp_bytes && memcmp(pt->out[0], pt->out[1], pt->cmp_bytes) != 0)
                mism++;
        }
        MPI_Reduce(t, tmax, 2 * reps, MPI_DOUBLE, MPI_MAX, 0, pt->comm);
        if (b->rank == 0) {
            for (int r = 0; r < reps; r++) {
                sv[have + r] = tmax[2 * r];
                si[have + r] = tmax[2 * r + 1];
            }
            ic_stats(sv, have + reps, &res->v);
            ic_stats(si, have + reps, &res->i);
            more =
                !(ic_median_halfwidth(&res->v) <= spread && ic_median_halfwidth(&res->i) <= spread);
        }
        have += reps;
        MPI_Bcast(&more, 1, MPI_INT, 0, pt->comm);
    }
    if (pt->c == IC_COLL_BARRIER)
        mism += barrier_check(pt, IC_LIB_VENDOR) + barrier_check(pt, IC_LIB_IC);
    int local[2] = {mism, errors}, sum[2] = {0, 0};
    MPI_Reduce(local, sum, 2, MPI_INT, MPI_SUM, 0, pt->comm);
    if (b->rank == 0) {
        res->reps = have;
        res->mismatch = sum[0] + sum[1];
        res->verdict = ic_compare(&res->v, &res->i, spread, IC_COLL_EFFECT);
        const char *alg = pt->p > 1 ? IC_Last_algorithm((IC_Coll)pt->c) : "";
        snprintf(res->alg, sizeof(res->alg), "%s", *alg ? alg : "-");
    }
    free(sv);
    free(si);
    free(t);
}

/* ------------------------------------------------------------ tables */

/* The main table.  `floor`: whether the run has a time floor (fit.h:
 * ic_time_floor) -- not on one node, where shared memory's ping-pong
 * bounds nothing a collective does. */
static ic_rtable_t *coll_table(ic_bench_t *b, const char *name, const char *title, int floor)
{
    ic_rtable_t *t = ic_report_table(b->rep, name, title);
    ic_rtable_col(t, "op", NULL, IC_COL_STR, NULL);
    ic_rtable_col(t, "p", NULL, IC_COL_INT, NULL);
    ic_rtable_col(t, "bytes", NULL, IC_COL_INT, NULL);
    ic_rtable_col(t, "reps", NULL, IC_COL_INT, NULL);
    ic_rtable_col(t, "vendor", NULL, IC_COL_SEC, NULL);
    ic_rtable_col(t, "vendor_iqr", "v_iqr%", IC_COL_NUM, "%.0f");
    ic_rtable_col(t, "intercom", NULL, IC_COL_SEC, NULL);
    ic_rtable_col(t, "intercom_iqr", "i_iqr%", IC_COL_NUM, "%.0f");
    ic_rtable_col(t, "ratio", "vendor/ic", IC_COL_RATIO, NULL);
    ic_rtable_col(t, "verdict", NULL, IC_COL_STR, NULL);
    if (floor) {
        ic_rtable_col(t, "bound", NULL, IC_COL_SEC, NULL);
        ic_rtable_col(t, "ic_over_bound", "ic/bound", IC_COL_NUM, "%.2f");
    }
    ic_rtable_col(t, "predicted", NULL, IC_COL_SEC, NULL);
    ic_rtable_col(t, "algorithm", NULL, IC_COL_STR, NULL);
    ic_rtable_col(t, "check", NULL, IC_COL_STR, NULL);
    ic_rtable_col(t, "vendor_min", NULL, IC_COL_SEC | IC_COL_DETAIL, NULL);
    ic_rtable_col(t, "vendor_q1", NULL, IC_COL_SEC | IC_COL_DETAIL, NULL);
    ic_rtable_col(t, "vendor_q3", NULL, IC_COL_SEC | IC_COL_DETAIL, NULL);
    ic_rtable_col(t, "vendor_max", NULL, IC_COL_SEC | IC_COL_DETAIL, NULL);
    ic_rtable_col(t, "intercom_min", NULL, IC_COL_SEC | IC_COL_DETAIL, NULL);
    ic_rtable_col(t, "intercom_q1", NULL, IC_COL_SEC | IC_COL_DETAIL, NULL);
    ic_rtable_col(t, "intercom_q3", NULL, IC_COL_SEC | IC_COL_DETAIL, NULL);
    ic_rtable_col(t, "intercom_max", NULL, IC_COL_SEC | IC_COL_DETAIL, NULL);
    return t;
}

static double rel_iqr(const ic_stats_t *s)
{
    return ic_rel_spread(s) * 100;
}

static void coll_row(ic_rtable_t *t, const ic_point_t *pt, const result_t *r, int floor,
                     double bound, double pred)
{
    ic_rtable_row(t);
    ic_rtable_str(t, ic_coll_name(pt->c));
    ic_rtable_num(t, pt->p);
    ic_rtable_num(t, (double)(pt->total * pt->esz));
    ic_rtable_num(t, r->reps);
    ic_rtable_num(t, r->v.median);
    ic_rtable_num(t, rel_iqr(&r->v));
    ic_rtable_num(t, r->i.median);
    ic_rtable_num(t, rel_iqr(&r->i));
    ic_rtable_num(t, r->i.median > 0 ? r->v.median / r->i.median : NAN);
    ic_rtable_str(t, ic_cmp_name(r->verdict));
    if (floor) {
        ic_rtable_num(t, bound);
        ic_rtable_num(t, bound > 0 ? r->i.median / bound : NAN);
    }
    ic_rtable_num(t, pred);
    ic_rtable_str(t, r->alg);
    ic_rtable_str(t, r->mismatch ? "MISMATCH" : pt->shared ? "shared" : "ok");
    ic_rtable_num(t, r->v.min);
    ic_rtable_num(t, r->v.q1);
    ic_rtable_num(t, r->v.q3);
    ic_rtable_num(t, r->v.max);
    ic_rtable_num(t, r->i.min);
    ic_rtable_num(t, r->i.q1);
    ic_rtable_num(t, r->i.q3);
    ic_rtable_num(t, r->i.max);
}

/* The summary a reader sees first: a headline and one row per operation
 * (rank 0). */
static void coll_summary(ic_bench_t *b, ic_rtable_t *st, const ic_coll_t *ops, int nops,
                         const ic_cmp_summary_t *per, const ic_cmp_summary_t *all)
{
    for (int k = 0; k <= nops; k++) {
        const ic_cmp_summary_t *s = k < nops ? &per[k] : all;
        ic_rtable_row(st);
        ic_rtable_str(st, k < nops ? ic_coll_name(ops[k]) : "all");
        ic_rtable_num(st, ic_cmp_total(s));
        ic_rtable_num(st, s->count[IC_CMP_FASTER]);
        ic_rtable_num(st, s->count[IC_CMP_SLOWER]);
        ic_rtable_num(st, s->count[IC_CMP_SAME]);
        ic_rtable_num(st, s->count[IC_CMP_NOISE]);
        ic_rtable_num(st, ic_cmp_geomean(s));
    }
    char g[32];
    ic_report_headline(
        b->rep, "summary",
        "InterCom faster at %d of %d sizes, slower at %d, the same at %d, noise at %d; "
        "geometric mean of vendor/InterCom %s (> 1: InterCom faster)",
        all->count[IC_CMP_FASTER], ic_cmp_total(all), all->count[IC_CMP_SLOWER],
        all->count[IC_CMP_SAME], all->count[IC_CMP_NOISE],
        ic_fmt_ratio(ic_cmp_geomean(all), g, sizeof(g)));
    ic_report_note(b->rep,
                   "ratio = vendor time / InterCom time, medians of the same run: above 1 "
                   "InterCom is faster (1.25: the vendor takes 25%% longer), below 1 slower. "
                   "faster/slower: beyond noise (the medians' 95%% intervals apart and more than "
                   "%.0f%%); same: within that; noise: a median still uncertain by more than "
                   "%g%% after %d rounds of repetitions (left out of the geometric mean)",
                   IC_COLL_EFFECT * 100, b->o.spread > 0 ? b->o.spread : IC_COLL_SPREAD,
                   IC_COLL_ROUNDS);
}

/* Per-operation figure data (rank 0). */
typedef struct series {
    char name[80];
    double *x, *y;
    int n;
} series_t;

typedef struct figure {
    ic_coll_t c;
    series_t s[24]; /* vendor, intercom, bound, predicted, one per algorithm */
    int ns;
} figure_t;

static void fig_add(figure_t *f, const char *name, double x, double y, int cap)
{
    series_t *s = NULL;
    for (int i = 0; i < f->ns && !s; i++)
        if (!strcmp(f->s[i].name, name))
            s = &f->s[i];
    if (!s) {
        if (f->ns == (int)(sizeof(f->s) / sizeof(f->s[0])))
            return;
        s = &f->s[f->ns++];
        memset(s, 0, sizeof(*s));
        snprintf(s->name, sizeof(s->name), "%s", name);
        s->x = calloc((size_t)cap, sizeof(double));
        s->y = calloc((size_t)cap, sizeof(double));
        if (!s->x || !s->y) {
            free(s->x);
            free(s->y);
            f->ns--;
            return;
        }
    }
    if (s->n < cap) {
        s->x[s->n] = x;
        s->y[s->n] = y;
        s->n++;
    }
}

static void fig_finish(ic_bench_t *b, figure_t *f)
{
    char name[64], title[128];
    snprintf(name, sizeof(name), "coll-%s", ic_coll_name(f->c));
    snprintf(title, sizeof(title), "%s, p = %d: time against size", ic_coll_name(f->c), b->size);
    ic_plot_t *pl = ic_plot_new(b->o.plot, name, title, "bytes", "time [s]", 1, 1);
    for (int i = 0; i < f->ns; i++) {
        series_t *s = &f->s[i];
        int model = !strncmp(s->name, "lower bound", 11) || !strncmp(s->name, "predicted", 9);
        ic_plot_series(pl, s->name, model ? IC_PLOT_LINES : IC_PLOT_LINESPOINTS, s->x, s->y, s->n);
        free(s->x);
        free(s->y);
    }
    f->ns = 0;
    b->failures += ic_plot_finish(pl) != 0;
}

/* The figure to look at first: vendor/InterCom against size, one line per
 * operation, with the line of equal times. */
static void ratio_figure(ic_bench_t *b, figure_t *f, const size_t *sizes, int ns)
{
    char title[160];
    snprintf(title, sizeof(title), "p = %d: vendor time / InterCom time (above 1: InterCom faster)",
             b->size);
    ic_plot_t *pl = ic_plot_new(b->o.plot, "coll-ratio", title, "bytes", "vendor / InterCom", 1, 1);
    double lo = (double)sizes[0], hi = (double)sizes[ns - 1];
    for (int i = 0; i < ns; i++) {
        lo = (double)sizes[i] < lo ? (double)sizes[i] : lo;
        hi = (double)sizes[i] > hi ? (double)sizes[i] : hi;
    }
    double ex[2] = {lo > 0 ? lo : 1, hi > lo ? hi : lo * 2}, ey[2] = {1, 1};
    ic_plot_series(pl, "equal (1)", IC_PLOT_LINES, ex, ey, 2);
    for (int i = 0; i < f->ns; i++) {
        series_t *s = &f->s[i];
        ic_plot_series(pl, s->name, IC_PLOT_LINESPOINTS, s->x, s->y, s->n);
        free(s->x);
        free(s->y);
    }
    f->ns = 0;
    b->failures += ic_plot_finish(pl) != 0;
}

/* ------------------------------------------------------------ regret */

/* How close a choice came to the fastest variant over the points. */
typedef struct regret {
    int n, within110, over150;
    double max;
} regret_t;

static void regret_add(regret_t *r, double x)
{
    if (isnan(x))
        return;
    r->n++;
    r->within110 += x <= 1.10;
    r->over150 += x > 1.5;
    r->max = x > r->max ? x : r->max;
}

static void regret_headline(ic_bench_t *b, const char *key, const char *what, const regret_t *r)
{
    if (r->n == 0)
        return;
    ic_report_headline(b->rep, key,
                       "regret of %s: within 1.10 of the fastest at %d of %d points (%.0f %%), "
                       "above 1.5 at %d, at most %.2f",
                       what, r->within110, r->n, 100.0 * r->within110 / r->n, r->over150, r->max);
}

/* ------------------------------------------------------------ driver */

static void table2(ic_bench_t *b, const double *ratio_bcast, const double *ratio_allreduce,
                   const double *tv, const double *ti, const size_t *sizes, int ns)
{
    ic_rtable_t *t =
        ic_report_table(b->rep, "table2", "mitra-1995 Table 2 layout: vendor time / InterCom time");
    ic_rtable_col(t, "bytes", NULL, IC_COL_INT, NULL);
    ic_rtable_col(t, "bcast_ratio", "Broadcast vendor/InterCom", IC_COL_RATIO, NULL);
    ic_rtable_col(t, "allreduce_ratio", "Sum-to-all vendor/InterCom", IC_COL_RATIO, NULL);
    ic_rtable_col(t, "bcast_vendor", NULL, IC_COL_SEC, NULL);
    ic_rtable_col(t, "bcast_intercom", NULL, IC_COL_SEC, NULL);
    ic_rtable_col(t, "allreduce_vendor", NULL, IC_COL_SEC, NULL);
    ic_rtable_col(t, "allreduce_intercom", NULL, IC_COL_SEC, NULL);
    for (int i = 0; i < ns; i++) {
        ic_rtable_row(t);
        ic_rtable_num(t, (double)sizes[i]);
        ic_rtable_num(t, ratio_bcast[i]);
        ic_rtable_num(t, ratio_allreduce[i]);
        ic_rtable_num(t, tv[i]);
        ic_rtable_num(t, ti[i]);
        ic_rtable_num(t, tv[ns + i]);
        ic_rtable_num(t, ti[ns + i]);
    }
}

int ic_bench_coll(ic_bench_t *b)
{
    ic_coll_t ops[IC_COLL_COUNT];
    int nops;
    MPI_Datatype type;
    const char *tname = b->o.type ? b->o.type : b->o.table2 ? "double" : "int";
    if (ic_bench_type(tname, &type) != 0) {
        if (b->rank == 0)
            fprintf(stderr, "intercom-bench coll: --type must be int, long, float or double\n");
        return 2;
    }
    if (b->o.table2) {
        ops[0] = IC_COLL_BCAST;
        ops[1] = IC_COLL_ALLREDUCE;
        nops = 2;
    } else if (!b->o.ops) {
        for (nops = 0; nops < IC_COLL_COUNT; nops++)
            ops[nops] = (ic_coll_t)nops;
    } else if ((nops = ic_bench_colls(b, b->o.ops, ops)) < 0) {
        return 2;
    }
    if (b->o.root >= b->size) {
        if (b->rank == 0)
            fprintf(stderr, "intercom-bench coll: --root must be below p = %d\n", b->size);
        return 2;
    }
    ic_bench_defaults(b, 0.2, 1000, 2);
    size_t *sizes;
    int ns;
    if (b->o.table2) {
        static const size_t t2[4] = {16, 1024, 65536, 1048576};
        sizes = ic_bench_alloc(b, sizeof(t2));
        memcpy(sizes, t2, sizeof(t2));
        ns = 4;
    } else {
        ns = ic_bench_sizes(b, 8, 2u << 20, 8, &sizes);
    }
    size_t max_bytes = 0;
    for (int i = 0; i < ns; i++)
        if (sizes[i] > max_bytes)
            max_bytes = sizes[i];

    ic_bench_describe(b);
    /* One node (every rank shares memory with rank 0's node): no time
     * floor, see coll_table. */
    int nodes = 1, rpn = 0;
    int one = ic_bench_layout(b, &nodes, &rpn), floor = !one && b->size > 1;
    ic_bench_model_t m;
    ic_bench_fit_model(b, type, max_bytes, one, 0, &m);
    if (b->o.selector_fit && !isnan(m.cost.alpha)) {
        char v[32];
        snprintf(v, sizeof(v), "%.9g", m.cost.alpha);
        setenv("INTERCOM_ALPHA", v, 1);
        snprintf(v, sizeof(v), "%.9g", m.cost.beta);
        setenv("INTERCOM_BETA", v, 1);
        snprintf(v, sizeof(v), "%.9g", m.cost.gamma);
        setenv("INTERCOM_GAMMA", v, 1);
    }
    if (b->o.selector_fit)
        IC_Barrier(b->comm); /* the context, with these figures (cli.c) */
    ic_rtable_t *t = NULL, *st = NULL;
    ic_cmp_summary_t per[IC_COLL_COUNT], all;
    memset(per, 0, sizeof(per));
    memset(&all, 0, sizeof(all));
    figure_t ratios; /* vendor/InterCom against size, one series per operation */
    memset(&ratios, 0, sizeof(ratios));
    if (b->rank == 0) {
        ic_report_t *r = b->rep;
        char tn[MPI_MAX_OBJECT_NAME];
        int len;
        MPI_Type_get_name(type, tn, &len);
        ic_report_info(r, "data", "%s, MPI_SUM, root %d; bytes = the whole vector n", tn,
                       b->o.root);
        ic_report_info_num(r, "alpha", m.cost.alpha, "s");
        ic_report_info_num(r, "beta", m.cost.beta, "s/B");
        ic_report_info_num(r, "gamma", m.cost.gamma, "s/B");
        /* the library's pieces in this build (0: whole messages), for
         * tools that price its plans (bench/simgrid/table2.sh) */
        ic_report_info_num(r, "pieces", (double)m.cost.chunk, "B");
        char tbuf[1024];
        const char *table = ic_tuning_path(tbuf, sizeof(tbuf)); /* the library reads it */
        ic_report_info(r, "selector", "%s%s%s",
                       b->o.selector_fit ? "InterCom chooses with this run's alpha, beta, gamma"
                                         : "InterCom's own parameters (INTERCOM_ALPHA/_BETA/"
                                           "_GAMMA, else across nodes its measured ones, "
                                           "else built-in)",
                       table ? "; the tuning table's rules first: " : "", table ? table : "");
        if (b->o.block > 1)
            ic_report_info(r, "block", "the libraries take turns every %d calls", b->o.block);
        if (b->o.settle > 0)
            ic_report_info(r, "settle", "%g s idle before every timed call", b->o.settle);
        ic_report_note(r, "times: median over the repetitions of the slowest rank's time; "
                          "*_iqr%%: interquartile range / median; predicted: InterCom's cost "
                          "model for its algorithm, with this run's alpha, beta, gamma (the rest "
                          "derived from them as in the library)");
        if (floor)
            ic_report_note(r,
                           "bound: no measurement can be below it: the shortest one-way "
                           "ping-pong time (%s) plus the bytes the busiest rank must move "
                           "at the fitted beta (and reduce at gamma)%s",
                           "alpha_min",
                           rpn >= 2 && m.node_fit
                               ? "; with several ranks per node, the bytes the busiest node's "
                                 "link must carry at beta (its ranks share it), or a rank's at "
                                 "the node beta, whichever is more"
                               : "");
        else
            ic_report_note(r, "no lower bound: the ranks share one node, where the shared-memory "
                              "ping-pong bounds nothing a collective does (bench/README.md)");
        if (floor)
            ic_report_info_num(r, "alpha_min", m.alpha_min, "s");
        st = ic_report_table(b->rep, "summary",
                             "Summary per operation: sizes where InterCom is faster or slower "
                             "beyond noise; geomean = geometric mean of vendor/InterCom");
        ic_rtable_col(st, "op", NULL, IC_COL_STR, NULL);
        ic_rtable_col(st, "sizes", NULL, IC_COL_INT, NULL);
        ic_rtable_col(st, "faster", NULL, IC_COL_INT, NULL);
        ic_rtable_col(st, "slower", NULL, IC_COL_INT, NULL);
        ic_rtable_col(st, "same", NULL, IC_COL_INT, NULL);
        ic_rtable_col(st, "noise", NULL, IC_COL_INT, NULL);
        ic_rtable_col(st, "geomean", NULL, IC_COL_RATIO, NULL);
        t = coll_table(b, "coll", "Collectives: vendor MPI against InterCom", floor);
    }
    double *t2v = NULL, *t2i = NULL;
    if (b->o.table2) {
        t2v = ic_bench_alloc(b, 2 * (size_t)ns * sizeof(double));
        t2i = ic_bench_alloc(b, 2 * (size_t)ns * sizeof(double));
    }
    ic_rtable_t *rt = NULL;
    regret_t rg[2];
    memset(rg, 0, sizeof(rg));
    if (b->o.tuned) { /* every rank can read the table, or the run stops here */
        int ok = access(b->o.tuned, R_OK) == 0, all_ok = 0;
        MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, b->comm);
        if (!all_ok) {
            if (b->rank == 0)
                fprintf(stderr, "intercom-bench coll: --tuned %s: not readable on every rank\n",
                        b->o.tuned);
            free(sizes);
            return 2;
        }
    }
    if (b->rank == 0 && (b->o.algorithms || b->o.tuned)) {
        rt = ic_report_table(b->rep, "regret",
                             "Regret: each choice's time over the fastest variant measured at "
                             "that point (1.00: it was the fastest)");
        ic_rtable_col(rt, "op", NULL, IC_COL_STR, NULL);
        ic_rtable_col(rt, "bytes", NULL, IC_COL_INT, NULL);
        ic_rtable_col(rt, "best", NULL, IC_COL_SEC, NULL);
        ic_rtable_col(rt, "auto", "auto/best", IC_COL_NUM, "%.2f");
        ic_rtable_col(rt, "tuned", "tuned/best", IC_COL_NUM, "%.2f");
        ic_rtable_col(rt, "fastest", NULL, IC_COL_STR, NULL);
    }
    figure_t fig;
    memset(&fig, 0, sizeof(fig));
    int npoints = 0, done = 0;
    for (int k = 0; k < nops; k++)
        npoints += ops[k] == IC_COLL_BARRIER ? 1 : ns;
    for (int k = 0; k < nops; k++) {
        ic_coll_t c = ops[k];
        IC_Coll id = (IC_Coll)c;
        fig.c = c;
        int nalg = b->o.algorithms ? IC_Algorithm_count(id) : 0;
        for (int si = 0; si < (c == IC_COLL_BARRIER ? 1 : ns); si++) {
            size_t bytes = c == IC_COLL_BARRIER ? 0 : sizes[si];
            ic_point_t pt;
            ic_point_setup(b, &pt, c, bytes, type, b->o.root);
            double n = (double)(pt.total * pt.esz);
            double bound = !floor || isnan(m.alpha_min)
                               ? NAN
                               : ic_time_floor_nodes(c, b->size, rpn >= 2 ? nodes : b->size, n,
                                                     m.alpha_min, m.cost.beta, m.cost.gamma,
                                                     m.node_fit ? m.node.beta : NAN);
            ic_bench_progress(b, "[coll] %s %.0f B (%d/%d)", ic_coll_name(c), n, ++done, npoints);
            /* regret (--algorithms, --tuned): each variant's time over the best */
            double t_best = INFINITY, t_auto = NAN, t_tuned = NAN;
            char best_alg[sizeof(((result_t *)0)->alg)] = "-";
            int nvar = nalg + 1 + (b->o.tuned != NULL);
            if (nvar > 1) {
                /* Several variants of one point are compared with each other:
                 * the first would otherwise meet the machine as the previous
                 * point left it (queues, a shaper's bucket, pages first
                 * touched) and pay for it.  Untimed calls of both libraries
                 * settle the point first. */
                int errors = 0;
                for (int w = 0; w < 2 * (b->o.warmup > 2 ? b->o.warmup : 2); w++)
                    for (int lib = 0; lib < 2; lib++)
                        ic_point_timed(&pt, lib, &errors, b->o.settle);
            }
            for (int var = 0; var < nvar; var++) {
                /* the automatic choice; --tuned: the automatic choice under
                 * that table; --algorithms: each one forced */
                int a = var == 0                 ? -1
                        : b->o.tuned && var == 1 ? -2
                                                 : var - 1 - (b->o.tuned != NULL);
                const char *force = a < 0 ? NULL : IC_Algorithm_name(id, a);
                if (nalg || b->o.tuned)
                    IC_Set_algorithm(id, force);
                if (a == -2 && IC_Tuning_load(b->o.tuned) != MPI_SUCCESS)
                    continue; /* reported by the library; checked before the loop */
                result_t res;
                memset(&res, 0, sizeof(res));
                measure(b, &pt, &res);
                if (a == -2)
                    IC_Tuning_load(NULL);
                if (b->rank != 0)
                    continue;
                char label[80];
                double pred = ic_point_predict(&pt, res.alg, &m);
                if ((nalg || b->o.tuned) && !force && strlen(res.alg) + 8 < sizeof(res.alg))
                    strcat(res.alg, a == -2 ? " (tuned)" : " (auto)");
                if (a == -2)
                    t_tuned = res.i.median;
                else if (a == -1)
                    t_auto = res.i.median;
                if (res.i.median < t_best && !res.mismatch) {
                    t_best = res.i.median;
                    memcpy(best_alg, res.alg, sizeof(best_alg));
                }
                /* the plan that ran may add its parameter: "pipeline(4096)" */
                size_t fl = force ? strlen(force) : 0;
                if (force && (strncmp(res.alg, force, fl) != 0 ||
                              (res.alg[fl] != 0 && res.alg[fl] != '('))) {
                    char ran[sizeof(res.alg)];
                    memcpy(ran, res.alg, sizeof(ran));
                    snprintf(res.alg, sizeof(res.alg), "%.36s (unusable: ran %.36s)", force, ran);
                }
                b->failures += res.mismatch != 0;
                coll_row(t, &pt, &res, floor, bound, pred);
                double ratio = res.i.median > 0 ? res.v.median / res.i.median : NAN;
                if (a < 0) { /* the automatic choice: what the summary is about */
                    ic_cmp_add(&per[k], res.verdict, ratio);
                    ic_cmp_add(&all, res.verdict, ratio);
                    if (b->o.plot && c != IC_COLL_BARRIER)
                        fig_add(&ratios, ic_coll_name(c), n, ratio, ns);
                }
                if (b->o.table2) {
                    int row = (c == IC_COLL_BCAST ? 0 : ns) + si;
                    t2v[row] = res.v.median;
                    t2i[row] = res.i.median;
                }
                if (b->o.plot) {
                    if (a < 0) {
                        fig_add(&fig, "vendor", n, res.v.median, ns);
                        snprintf(label, sizeof(label), "InterCom (%s)",
                                 nalg ? "automatic" : "automatic choice");
                        fig_add(&fig, label, n, res.i.median, ns);
                        if (floor)
                            fig_add(&fig, "lower bound", n, bound, ns);
                        fig_add(&fig, "predicted (chosen algorithm)", n, pred, ns);
                    } else {
                        snprintf(label, sizeof(label), "InterCom %s", force);
                        fig_add(&fig, label, n, res.i.median, ns);
                    }
                }
            }
            if (nalg || b->o.tuned)
                IC_Set_algorithm(id, NULL);
            if (b->rank == 0 && rt) {
                ic_rtable_row(rt);
                ic_rtable_str(rt, ic_coll_name(c));
                ic_rtable_num(rt, n);
                ic_rtable_num(rt, t_best);
                ic_rtable_num(rt, t_auto / t_best);
                ic_rtable_num(rt, t_tuned / t_best);
                ic_rtable_str(rt, best_alg);
                regret_add(&rg[0], t_auto / t_best);
                regret_add(&rg[1], t_tuned / t_best);
            }
            ic_point_free(&pt);
        }
        if (b->rank == 0 && b->o.plot && c != IC_COLL_BARRIER)
            fig_finish(b, &fig);
        else if (b->rank == 0)
            for (int i = 0; i < fig.ns; i++) {
                free(fig.s[i].x);
                free(fig.s[i].y);
            }
        fig.ns = 0;
    }
    ic_bench_progress_end(b);
    if (b->rank == 0 && rt) {
        regret_headline(b, "regret_auto", "the automatic choice", &rg[0]);
        if (b->o.tuned)
            regret_headline(b, "regret_tuned", "the choice under --tuned", &rg[1]);
    }
    if (b->rank == 0) {
        coll_summary(b, st, ops, nops, per, &all);
        if (b->o.plot)
            ratio_figure(b, &ratios, sizes, ns);
    }
    if (b->rank == 0 && b->o.table2) {
        double *rb = ic_bench_alloc(b, 2 * (size_t)ns * sizeof(double)), *ra = rb + ns;
        for (int i = 0; i < ns; i++) {
            rb[i] = t2v[i] / t2i[i];
            ra[i] = t2v[ns + i] / t2i[ns + i];
        }
        table2(b, rb, ra, t2v, t2i, sizes, ns);
        free(rb);
    }
    free(t2v);
    free(t2i);
    free(sizes);
    return 0;
}
