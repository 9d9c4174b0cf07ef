/*
 * patterns.c -- `intercom-bench patterns`: tan-strazdins-2002's
 * Figures 2 to 6.  For allgather, allreduce and reduce_scatter_block at
 * this run's p and over the paper's n (doubles), every registered
 * algorithm of the collective (the paper's communication patterns:
 * IC_Algorithm_count / IC_Algorithm_name enumerate the registry, each
 * forced in turn with IC_Set_algorithm) next to the vendor MPI's own
 * collective and InterCom's automatic choice; for each pattern and size
 * the measured time against two models of it, and which pattern wins.
 *
 * n is the paper's n (its Figure 1): the elements each rank contributes
 * to an allgather (the result holds n p), the vector of an allreduce, the
 * elements each rank keeps of a reduce-scatter (the input holds n p);
 * elements are doubles, the op MPI_SUM.  "bytes" is coll's whole vector:
 * 8 n p, 8 n and 8 n p.
 *
 * Method.
 *   1. Models, both fitted in this run (or the split one given by
 *      --split):
 *      - plain: alpha and beta from a COMMS1 ping-pong between ranks 0
 *        and p-1, gamma from MPI_Reduce_local, the exchange's beta_x and
 *        x_min from COMMS2 between the same ranks (as the tuner fits
 *        them), LogGP's overhead derived as the library does (point.h:
 *        ic_bench_fit_model);
 *      - split (tan-strazdins-2002 3.1): S(n) = alpha_s + beta_s n,
 *        R(n) = alpha_r + beta_r n from a ping-pong of each length between
 *        the same ranks (split.c, the code `loggp` reports it with: 8 B
 *        to 32 KiB x8, then x2 from 64 KiB to the longest whole vector),
 *        fitted as the plain model is (split.c: ic_bench_split_fit_ends:
 *        the betas from the lengths of 64 KiB and more, the alphas from
 *        the shortest); the other terms (gamma, the chunk the executor
 *        sends long messages in) as the plain model's.
 *      Either prices the plan that ran (IC_Last_algorithm, segment sizes
 *      included) with the cost evaluator on every rank's schedule
 *      (point.h: ic_point_predict; tuning/cost.c).  The vendor's
 *      algorithm is unknown: it has no model.
 *   2. InterCom's selector then chooses with the fitted alpha, beta,
 *      gamma and exchange terms (INTERCOM_ALPHA, _BETA, _GAMMA,
 *      _BETA_EXCHANGE, _EXCHANGE_MIN set before the first InterCom call)
 *      and no tuning table
 *      (INTERCOM_TUNING_FILE=none): the model alone decides.
 *   3. Per point, the variants (vendor, every pattern, the automatic
 *      choice) are timed as the tuner times its candidates (tune.c):
 *      one warm-up call each, then rounds in which every variant in turn
 *      (the order rotating from round to round) makes one untimed call
 *      and a block of timed calls, each after a barrier, a call's time
 *      being its slowest rank's.  So each variant runs in its own steady
 *      state (on token-bucket links, the state the previous variant left
 *      would otherwise be charged to it).  Points whose calls take over
 *      IC_PAT_LONG seconds skip the untimed call of a turn (a shaper's
 *      burst is then a small part of a call) and run in one round.
 *      Every result is compared byte for byte with the vendor's (data are
 *      small integers: sums are exact in any order).
 *   4. Per point: the winner (the fastest of all variants), the fastest
 *      pattern, the models' choices (the pattern each model prices
 *      lowest), and whether the selector picked the fastest pattern: yes
 *      (the same plan), near (another plan, measured within
 *      IC_COLL_EFFECT of it) or no.  Per pattern: the median over the
 *      sizes of |model - measured| / measured for either model, and at
 *      how many sizes it won.
 *   --plot PREFIX: per collective the time against n, log-log, one line
 *   of measured points per pattern and the vendor, with the split model's
 *   lines (PREFIX-patterns-OP.png) and the plain model's
 *   (PREFIX-patterns-OP-plain.png), each in its pattern's colour.
 *   Figure 5 (n = 1000 over p = 2..8) takes one run per p:
 *   bench/tan-strazdins.sh.
 */
#include "config.h"
#include "bench.h"
#include "choose.h"
#include "intercom.h"
#include "point.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The paper's n: 1 to 10000 doubles, then on by x4 to the --max whole
 * vector (default 4 MiB), which ends every collective's sweep. */
static const size_t default_n[] = {1, 3, 10, 30, 100, 300, 1000, 3000, 10000};
#define IC_PAT_MAX_BYTES (4u << 20)
#define IC_PAT_ROUNDS 4  /* rounds of interleaved blocks per point        */
#define IC_PAT_LONG 0.02 /* s: calls this long skip the turn's first call */
#define IC_PAT_GOAL 0.15 /* the goal for the median model error   */
/* The fits' long regime: whole vectors of at least this many bytes, where
 * the split model's betas were fitted (split.c) and the links, not the
 * scheduling of many ranks on few cores, set the time. */
#define IC_PAT_LONG_BYTES (64u << 10)
#define IC_PAT_MAXVAR 40  /* vendor + patterns + automatic                 */
#define IC_PAT_VENDOR 8   /* gnuplot's black                               */
#define IC_PAT_SPLIT_DT 2 /* dash type of the split model's lines          */
#define IC_PAT_PLAIN_DT 3 /* ... and of the plain model's                  */

static const ic_coll_t pattern_ops[] = {IC_COLL_ALLGATHER, IC_COLL_ALLREDUCE,
                                        IC_COLL_REDUCE_SCATTER_BLOCK};
#define NPOPS ((int)(sizeof(pattern_ops) / sizeof(pattern_ops[0])))

enum { V_VENDOR = 0 }; /* variant 0; the patterns follow, the automatic choice is last */

typedef struct variant {
    char name[IC_PLAN_TEXT_MAX]; /* "vendor", a registered name, "auto" */
    char paper[96];              /* tan-strazdins-2002's names (aliases), or "" */
    char ran[IC_PLAN_TEXT_MAX];  /* the plan that ran (IC_Last_algorithm) */
    int pattern;                 /* a registered algorithm */
    double *t;                   /* rank 0: the slowest rank's times */
    int n, bad, other;
    ic_stats_t s;
    double split, plain; /* the models' times (NaN: none) */
} variant_t;

/* Per (collective, pattern): the relative errors over the sizes (rank 0). */
typedef struct fitacc {
    double *es, *ep;   /* every size */
    double *esl, *epl; /* the long sizes (IC_PAT_LONG_BYTES and more) */
    int n, nlong, wins, wins_all;
} fitacc_t;

/* The element type (--type, default double) and its size. */
static MPI_Datatype elem_type = MPI_DOUBLE;
static size_t elem_size = 8;

/* Whole vector in bytes of the paper's n for collective c at p ranks. */
static double whole_bytes(ic_coll_t c, size_t n, int p)
{
    return (double)elem_size * (double)n * (c == IC_COLL_ALLREDUCE ? 1 : p);
}

/* The paper's names of registered algorithm `name` of c (its aliases). */
static void paper_names(ic_coll_t c, const char *name, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = 0;
    for (const ic_alg_alias_t *a = ic_alg_aliases; a->alias; a++)
        if (a->coll == c && !strcmp(a->name, name) && k + 2 < len) {
            int w = snprintf(buf + k, len - k, "%s%s", k ? "/" : "", a->alias);
            if (w < 0)
                break;
            k += (size_t)w;
        }
}

/* The n of a sweep (every rank): --n, else the default list and beyond;
 * n whose whole vector exceeds the cap are left out (a given --n only
 * with --max).  Returns the count; *out malloc'ed. */
static int sweep(const ic_bench_t *b, ic_coll_t c, size_t **out)
{
    double cap = b->o.max_size >= 0 ? (double)b->o.max_size : (double)IC_PAT_MAX_BYTES;
    int given = b->o.nlist != NULL, k = 0;
    int cap_n = given ? b->o.nnlist : (int)(sizeof(default_n) / sizeof(default_n[0])) + 32;
    size_t *v = ic_bench_alloc(b, (size_t)cap_n * sizeof(size_t));
    if (given) {
        for (int i = 0; i < b->o.nnlist; i++)
            if (b->o.max_size < 0 || whole_bytes(c, b->o.nlist[i], b->size) <= cap)
                v[k++] = b->o.nlist[i];
    } else {
        for (size_t i = 0; i < sizeof(default_n) / sizeof(default_n[0]); i++)
            if (whole_bytes(c, default_n[i], b->size) <= cap)
                v[k++] = default_n[i];
        size_t last = k ? v[k - 1] : 0;
        size_t top = (size_t)(cap / whole_bytes(c, 1, b->size));
        for (size_t n = last * 4; last > 0 && n < top && k < cap_n - 1; n *= 4)
            v[k++] = n;
        if (top > (k ? v[k - 1] : 0) && k < cap_n)
            v[k++] = top;
    }
    *out = v;
    return k;
}

/* ------------------------------------------------------- measurement */

/* Force variant v (InterCom's), or nothing for the vendor. */
static int lib_of(const variant_t *v, IC_Coll id, int j)
{
    if (j == V_VENDOR)
        return IC_LIB_VENDOR;
    IC_Set_algorithm(id, v->pattern ? v->name : NULL);
    return IC_LIB_IC;
}

/* Time the nv variants of pt (every rank; see the method above). */
static void measure(ic_bench_t *b, const ic_point_t *pt, variant_t *vs, int nv)
{
    IC_Coll id = (IC_Coll)pt->c;
    int errors = 0;
    int *bad = ic_bench_alloc(b, 2 * (size_t)nv * sizeof(int)), *other = bad + nv;
    int *gbad = ic_bench_alloc(b, 2 * (size_t)nv * sizeof(int));
    memset(bad, 0, 2 * (size_t)nv * sizeof(int));
    char *ref = ic_bench_alloc(b, pt->rbytes > 0 ? pt->rbytes : 1);
    /* warm-up: the vendor's result is the reference; the slowest call
     * tells how long a turn takes */
    double turn = 0, slow = 0, g[2] = {0, 0};
    for (int j = 0; j < nv; j++) {
        int lib = lib_of(&vs[j], id, j);
        for (int w = 0; w < (b->o.warmup > 0 ? b->o.warmup : 1) && !other[j]; w++) {
            double t0 = MPI_Wtime();
            ic_point_timed(pt, lib, &errors, 0);
            double t = MPI_Wtime() - t0;
            if (w == 0 && vs[j].pattern && !ic_point_ran_as(pt->c, vs[j].name)) {
                /* it cannot serve the call: another plan ran (the same on
                 * every rank), which is not timed under its name */
                other[j] = 1;
                if (b->rank == 0)
                    snprintf(vs[j].ran, sizeof(vs[j].ran), "%s", IC_Last_algorithm(id));
            } else if (w == 0) {
                turn += t;
                slow = t > slow ? t : slow;
            }
        }
        if (j == V_VENDOR)
            memcpy(ref, pt->out[IC_LIB_VENDOR], pt->rbytes);
    }
    IC_Set_algorithm(id, NULL);
    double mine[2] = {turn, slow};
    MPI_Allreduce(mine, g, 2, MPI_DOUBLE, MPI_MAX, pt->comm);
    int reps = ic_bench_reps(b, g[0]); /* --time: the whole point */
    int longc = g[1] > IC_PAT_LONG && b->o.reps <= 0;
    int rounds = longc ? 1 : reps < IC_PAT_ROUNDS ? reps : IC_PAT_ROUNDS;
    int blk = (reps + rounds - 1) / rounds;
    double *t = ic_bench_alloc(b, (size_t)blk * sizeof(double));
    double *tmax = ic_bench_alloc(b, (size_t)blk * sizeof(double));
    for (int j = 0; j < nv; j++) {
        vs[j].n = 0;
        vs[j].t =
            b->rank == 0 ? ic_bench_alloc(b, (size_t)rounds * (size_t)blk * sizeof(double)) : NULL;
    }
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < nv; k++) {
            int j = (k + r) % nv;
            if (other[j])
                continue;
            int lib = lib_of(&vs[j], id, j);
            int e0 = errors;
            if (!longc) /* untimed: the turn's first call */
                ic_point_timed(pt, lib, &errors, 0);
            for (int i = 0; i < blk; i++)
                t[i] = ic_point_timed(pt, lib, &errors, b->o.settle);
            if (lib == IC_LIB_IC) {
                if (vs[j].pattern)
                    other[j] += !ic_point_ran_as(pt->c, vs[j].name);
                if (b->rank == 0)
                    snprintf(vs[j].ran, sizeof(vs[j].ran), "%s", IC_Last_algorithm(id));
            }
            bad[j] +=
                errors != e0 || (pt->cmp_bytes && memcmp(pt->out[lib], ref, pt->cmp_bytes) != 0);
            MPI_Reduce(t, tmax, blk, MPI_DOUBLE, MPI_MAX, 0, pt->comm);
            if (b->rank == 0) {
                memcpy(vs[j].t + vs[j].n, tmax, (size_t)blk * sizeof(double));
                vs[j].n += blk;
            }
        }
    }
    IC_Set_algorithm(id, NULL);
    MPI_Reduce(bad, gbad, 2 * nv, MPI_INT, MPI_SUM, 0, pt->comm);
    if (b->rank == 0)
        for (int j = 0; j < nv; j++) {
            vs[j].bad = gbad[j];
            vs[j].other = gbad[nv + j];
            if (vs[j].n > 0)
                ic_stats(vs[j].t, vs[j].n, &vs[j].s);
            else
                vs[j].s.median = vs[j].s.min = vs[j].s.q1 = vs[j].s.q3 = vs[j].s.max = NAN;
        }
    free(t);
    free(tmax);
    free(ref);
    free(gbad);
    free(bad);
}

/* ----------------------------------------------------------- tables */

static double rel_err(double model, double measured)
{
    return isnan(model) || !(measured > 0) ? NAN : fabs(model - measured) / measured;
}

static int usable(const variant_t *v)
{
    return !v->bad && !v->other && v->n > 0;
}

static ic_rtable_t *main_table(ic_bench_t *b)
{
    ic_rtable_t *t = ic_report_table(b->rep, "patterns",
                                     "Patterns: measured time against the split and the plain "
                                     "model (err = |model - measured| / measured)");
    ic_rtable_col(t, "op", NULL, IC_COL_STR, NULL);
    ic_rtable_col(t, "p", NULL, IC_COL_INT, NULL);
    ic_rtable_col(t, "n", NULL, IC_COL_INT, NULL);
    ic_rtable_col(t, "bytes", NULL, IC_COL_INT, NULL);
    ic_rtable_col(t, "pattern", NULL, IC_COL_STR, NULL);
    ic_rtable_col(t, "paper", NULL, IC_COL_STR, NULL);
    ic_rtable_col(t, "reps", NULL, IC_COL_INT, NULL);
    ic_rtable_col(t, "time", NULL, IC_COL_SEC, NULL);
    ic_rtable_col(t, "iqr", "iqr%", IC_COL_NUM, "%.0f");
    ic_rtable_col(t, "split", NULL, IC_COL_SEC, NULL);
    ic_rtable_col(t, "split_err", "err%", IC_COL_NUM, "%.0f");
    ic_rtable_col(t, "plain", NULL, IC_COL_SEC, NULL);
    ic_rtable_col(t, "plain_err", "err%", IC_COL_NUM, "%.0f");
    ic_rtable_col(t, "ran", NULL, IC_COL_STR, NULL);
    ic_rtable_col(t, "check", NULL, IC_COL_STR, NULL);
    ic_rtable_col(t, "min", NULL, IC_COL_SEC | IC_COL_DETAIL, NULL);
    ic_rtable_col(t, "q1", NULL, IC_COL_SEC | IC_COL_DETAIL, NULL);
    ic_rtable_col(t, "q3", NULL, IC_COL_SEC | IC_COL_DETAIL, NULL);
    ic_rtable_col(t, "max", NULL, IC_COL_SEC | IC_COL_DETAIL, NULL);
    return t;
}

static void main_row(ic_rtable_t *t, const ic_point_t *pt, size_t n, const variant_t *v)
{
    ic_rtable_row(t);
    ic_rtable_str(t, ic_coll_name(pt->c));
    ic_rtable_num(t, pt->p);
    ic_rtable_num(t, (double)n);
    ic_rtable_num(t, (double)(pt->total * pt->esz));
    ic_rtable_str(t, v->name);
    ic_rtable_str(t, *v->paper ? v->paper : "-");
    ic_rtable_num(t, v->n);
    ic_rtable_num(t, v->s.median);
    ic_rtable_num(t, ic_rel_spread(&v->s) * 100);
    ic_rtable_num(t, v->split);
    ic_rtable_num(t, rel_err(v->split, v->s.median) * 100);
    ic_rtable_num(t, v->plain);
    ic_rtable_num(t, rel_err(v->plain, v->s.median) * 100);
    ic_rtable_str(t, *v->ran ? v->ran : "-");
    ic_rtable_str(t, v->bad ? "MISMATCH" : v->other ? "unusable" : "ok");
    ic_rtable_num(t, v->s.min);
    ic_rtable_num(t, v->s.q1);
    ic_rtable_num(t, v->s.q3);
    ic_rtable_num(t, v->s.max);
}

static ic_rtable_t *winners_table(ic_bench_t *b)
{
    char title[256];
    snprintf(title, sizeof(title),
             "Winners: the fastest variant, the fastest pattern, the pattern each model prices "
             "lowest, the selector's choice (picks winner: yes = the fastest pattern, near = "
             "another plan within %.0f %% of it, no)",
             IC_COLL_EFFECT * 100);
    ic_rtable_t *t = ic_report_table(b->rep, "winners", title);
    ic_rtable_col(t, "op", NULL, IC_COL_STR, NULL);
    ic_rtable_col(t, "p", NULL, IC_COL_INT, NULL);
    ic_rtable_col(t, "n", NULL, IC_COL_INT, NULL);
    ic_rtable_col(t, "winner", NULL, IC_COL_STR, NULL);
    ic_rtable_col(t, "best_pattern", "best pattern", IC_COL_STR, NULL);
    ic_rtable_col(t, "best", NULL, IC_COL_SEC, NULL);
    ic_rtable_col(t, "vendor_over_best", "vendor/best", IC_COL_NUM, "%.2f");
    ic_rtable_col(t, "split_pick", "split model", IC_COL_STR, NULL);
    ic_rtable_col(t, "plain_pick", "plain model", IC_COL_STR, NULL);
    ic_rtable_col(t, "selector", NULL, IC_COL_STR, NULL);
    ic_rtable_col(t, "selector_over_best", "sel/best", IC_COL_NUM, "%.2f");
    ic_rtable_col(t, "selector_ok", "picks winner", IC_COL_STR, NULL);
    return t;
}

static ic_rtable_t *fit_table(ic_bench_t *b)
{
    char title[256];
    snprintf(title, sizeof(title),
             "Fit per pattern: median over the sizes of |model - measured| / measured (goal "
             "<= %.0f %%); long: the sizes of %u KiB and more, their medians; wins: sizes "
             "where it was the fastest pattern (of all variants)",
             IC_PAT_GOAL * 100, IC_PAT_LONG_BYTES >> 10);
    ic_rtable_t *t = ic_report_table(b->rep, "fit", title);
    ic_rtable_col(t, "op", NULL, IC_COL_STR, NULL);
    ic_rtable_col(t, "p", NULL, IC_COL_INT, NULL);
    ic_rtable_col(t, "pattern", NULL, IC_COL_STR, NULL);
    ic_rtable_col(t, "paper", NULL, IC_COL_STR, NULL);
    ic_rtable_col(t, "sizes", NULL, IC_COL_INT, NULL);
    ic_rtable_col(t, "split_med_err", "split err%", IC_COL_NUM, "%.1f");
    ic_rtable_col(t, "plain_med_err", "plain err%", IC_COL_NUM, "%.1f");
    ic_rtable_col(t, "long_sizes", "long", IC_COL_INT, NULL);
    ic_rtable_col(t, "split_long_err", "split long%", IC_COL_NUM, "%.1f");
    ic_rtable_col(t, "plain_long_err", "plain long%", IC_COL_NUM, "%.1f");
    ic_rtable_col(t, "wins", NULL, IC_COL_INT, NULL);
    ic_rtable_col(t, "wins_all", "wins(all)", IC_COL_INT, NULL);
    return t;
}

/* Median of the finite values of x[0..n-1] (NaN when none). */
static double finite_median(const double *x, int n)
{
    double *y = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    int k = 0;
    for (int i = 0; y && i < n; i++)
        if (isfinite(x[i]))
            y[k++] = x[i];
    double m = k > 0 ? ic_median(y, k) : NAN;
    free(y);
    return m;
}

/* The bare plan text of what variant v ran ("" when nothing ran). */
static void bare_ran(ic_coll_t c, const variant_t *v, char *buf, size_t len)
{
    ic_plan_t pl;
    buf[0] = 0;
    if (*v->ran && ic_plan_parse(c, v->ran, &pl, NULL) == 0)
        ic_point_bare_text(&pl, buf, len);
}

/* A colour of plot.h's palette for the k-th pattern: black (the vendor's)
 * left out. */
static int pattern_colour(int k)
{
    int c = 1 + k % 11;
    return c >= IC_PAT_VENDOR ? c + 1 : c;
}

/* Headline counters (rank 0). */
typedef struct tally {
    int points, sel_yes, sel_near, ic_faster;
    int pats, split_ok, plain_ok, split_long_ok, plain_long_ok;
} tally_t;

/* Figures of one collective (rank 0): measured lines and one model's. */
static void figures(ic_bench_t *b, ic_coll_t c, const size_t *nl, int nn, const variant_t *vs,
                    int nv, const double *med, const double *spl, const double *pln)
{
    /* the key in the paper's order: slowest at n = 1000 (or the nearest n) first */
    int at = 0, *order = ic_bench_alloc(b, (size_t)nv * sizeof(int)), no = 0;
    for (int i = 1; i < nn; i++)
        if (fabs(log((double)nl[i] / 1000.0)) < fabs(log((double)nl[at] / 1000.0)))
            at = i;
    for (int j = 0; j < nv; j++)
        if (j == V_VENDOR || vs[j].pattern)
            order[no++] = j;
    for (int i = 1; i < no; i++) /* insertion sort, slowest first, NaN last */
        for (int k = i; k > 0; k--) {
            double a = med[order[k - 1] * nn + at], z = med[order[k] * nn + at];
            if (!(isnan(a) || z > a))
                break;
            int x = order[k];
            order[k] = order[k - 1];
            order[k - 1] = x;
        }
    double *x = ic_bench_alloc(b, (size_t)nn * sizeof(double));
    for (int i = 0; i < nn; i++)
        x[i] = (double)nl[i];
    for (int which = 0; which < 2; which++) {
        char name[64], title[200], label[IC_PLAN_TEXT_MAX + 128];
        snprintf(name, sizeof(name), "patterns-%s%s", ic_coll_name(c), which ? "-plain" : "");
        snprintf(title, sizeof(title), "%s, p = %d, %s (key: slowest at n = %zu first)",
                 ic_coll_name(c), b->size, which ? "plain model dotted" : "split model dashed",
                 nl[at]);
        ic_plot_t *pl =
            ic_plot_new(b->o.plot, name, title, "n [elements: per rank; allreduce: the vector]",
                        "time [s]", 1, 1);
        ic_plot_xaxis(pl, 10, "%g");
        ic_plot_key(pl, "outside right top Left reverse width -6");
        for (int k = 0; k < no; k++) {
            int j = order[k], lc = j == V_VENDOR ? IC_PAT_VENDOR : pattern_colour(j - 1);
            if (*vs[j].paper) /* the paper's first name: a long key squeezes the plot */
                snprintf(label, sizeof(label), "%s (%.*s)", vs[j].name,
                         (int)strcspn(vs[j].paper, "/"), vs[j].paper);
            else
                snprintf(label, sizeof(label), "%s", j == V_VENDOR ? "vendor MPI" : vs[j].name);
            ic_plot_series_styled(pl, label, IC_PLOT_LINESPOINTS, lc, 0, 1, x, med + j * nn, nn);
            if (j == V_VENDOR)
                continue;
            strncat(label, " model", sizeof(label) - strlen(label) - 1);
            ic_plot_series_styled(pl, label, IC_PLOT_LINES, lc,
                                  which ? IC_PAT_PLAIN_DT : IC_PAT_SPLIT_DT, 0, x,
                                  (which ? pln : spl) + j * nn, nn);
        }
        b->failures += ic_plot_finish(pl) != 0;
    }
    free(x);
    free(order);
}

/* One collective's sweep (every rank). */
static void run_op(ic_bench_t *b, ic_coll_t c, const ic_bench_model_t *m,
                   const ic_bench_model_t *ms, ic_rtable_t *tp, ic_rtable_t *tw, ic_rtable_t *tf,
                   tally_t *ty, int *done, int npoints)
{
    IC_Coll id = (IC_Coll)c;
    size_t *nl;
    int nn = sweep(b, c, &nl);
    int nalg = IC_Algorithm_count(id);
    if (nalg > IC_PAT_MAXVAR - 2)
        nalg = IC_PAT_MAXVAR - 2;
    int nv = nalg + 2;
    variant_t *vs = ic_bench_alloc(b, (size_t)nv * sizeof(variant_t));
    memset(vs, 0, (size_t)nv * sizeof(variant_t));
    snprintf(vs[V_VENDOR].name, sizeof(vs[V_VENDOR].name), "vendor");
    for (int a = 0; a < nalg; a++) {
        variant_t *v = &vs[1 + a];
        snprintf(v->name, sizeof(v->name), "%s", IC_Algorithm_name(id, a));
        paper_names(c, v->name, v->paper, sizeof(v->paper));
        v->pattern = 1;
    }
    snprintf(vs[nv - 1].name, sizeof(vs[nv - 1].name), "auto");
    /* rank 0: per variant and size, for the fit table and the figures */
    double *med = NULL, *spl = NULL, *pln = NULL;
    fitacc_t *acc = NULL;
    if (b->rank == 0) {
        med = ic_bench_alloc(b, 3 * (size_t)nv * (size_t)nn * sizeof(double));
        spl = med + nv * nn;
        pln = spl + nv * nn;
        for (int i = 0; i < 3 * nv * nn; i++)
            med[i] = NAN;
        acc = ic_bench_alloc(b, (size_t)nv * sizeof(fitacc_t));
        memset(acc, 0, (size_t)nv * sizeof(fitacc_t));
        for (int j = 0; j < nv; j++) {
            acc[j].es = ic_bench_alloc(b, 4 * (size_t)nn * sizeof(double));
            acc[j].ep = acc[j].es + nn;
            acc[j].esl = acc[j].es + 2 * nn;
            acc[j].epl = acc[j].es + 3 * nn;
        }
    }
    for (int si = 0; si < nn; si++) {
        ic_point_t pt;
        ic_point_setup(b, &pt, c, (size_t)whole_bytes(c, nl[si], b->size), elem_type, 0);
        ic_bench_progress(b, "[patterns] %s n = %zu (%d/%d)", ic_coll_name(c), nl[si], ++*done,
                          npoints);
        measure(b, &pt, vs, nv);
        if (b->rank == 0) {
            int win = -1, best = -1, sp = -1, pp = -1;
            for (int j = 0; j < nv; j++) {
                variant_t *v = &vs[j];
                v->split = v->plain = NAN;
                if (j != V_VENDOR && !v->other) {
                    v->split = ic_point_predict(&pt, v->ran, ms);
                    v->plain = ic_point_predict(&pt, v->ran, m);
                }
                main_row(tp, &pt, nl[si], v);
                b->failures += v->bad != 0;
                if (!usable(v))
                    continue;
                med[j * nn + si] = v->s.median;
                spl[j * nn + si] = v->split;
                pln[j * nn + si] = v->plain;
                acc[j].es[acc[j].n] = rel_err(v->split, v->s.median);
                acc[j].ep[acc[j].n] = rel_err(v->plain, v->s.median);
                acc[j].n++;
                if (whole_bytes(c, nl[si], b->size) >= IC_PAT_LONG_BYTES) {
                    acc[j].esl[acc[j].nlong] = rel_err(v->split, v->s.median);
                    acc[j].epl[acc[j].nlong] = rel_err(v->plain, v->s.median);
                    acc[j].nlong++;
                }
                if (win < 0 || v->s.median < vs[win].s.median)
                    win = j;
                if (!v->pattern)
                    continue;
                if (best < 0 || v->s.median < vs[best].s.median)
                    best = j;
                if (!isnan(v->split) && (sp < 0 || v->split < vs[sp].split))
                    sp = j;
                if (!isnan(v->plain) && (pp < 0 || v->plain < vs[pp].plain))
                    pp = j;
            }
            if (win >= 0)
                acc[win].wins_all++;
            if (best >= 0)
                acc[best].wins++;
            /* the selector: the automatic choice's plan against the
             * fastest pattern's; another plan counts as near when it (as
             * a pattern, or as the automatic choice) ran within the
             * effect of it */
            const variant_t *au = &vs[nv - 1];
            char sel[IC_PLAN_TEXT_MAX], bp[IC_PLAN_TEXT_MAX], tx[IC_PLAN_TEXT_MAX];
            bare_ran(c, au, sel, sizeof(sel));
            const char *ok = "-";
            double t_sel = usable(au) ? au->s.median : NAN;
            if (best >= 0 && *sel) {
                bare_ran(c, &vs[best], bp, sizeof(bp));
                for (int j = 0; j < nv; j++) {
                    bare_ran(c, &vs[j], tx, sizeof(tx));
                    if (vs[j].pattern && usable(&vs[j]) && !strcmp(tx, sel))
                        t_sel = vs[j].s.median;
                }
                double r = t_sel / vs[best].s.median;
                ok = !strcmp(sel, bp) ? "yes" : r <= 1 + IC_COLL_EFFECT ? "near" : "no";
                ty->points++;
                ty->sel_yes += !strcmp(ok, "yes");
                ty->sel_near += !strcmp(ok, "near");
                if (usable(&vs[V_VENDOR]) &&
                    vs[best].s.median < vs[V_VENDOR].s.median * (1 - IC_COLL_EFFECT))
                    ty->ic_faster++;
            }
            ic_rtable_row(tw);
            ic_rtable_str(tw, ic_coll_name(c));
            ic_rtable_num(tw, b->size);
            ic_rtable_num(tw, (double)nl[si]);
            ic_rtable_str(tw, win >= 0 ? vs[win].name : "-");
            ic_rtable_str(tw, best >= 0 ? vs[best].name : "-");
            ic_rtable_num(tw, best >= 0 ? vs[best].s.median : NAN);
            ic_rtable_num(tw, best >= 0 && usable(&vs[V_VENDOR])
                                  ? vs[V_VENDOR].s.median / vs[best].s.median
                                  : NAN);
            ic_rtable_str(tw, sp >= 0 ? vs[sp].name : "-");
            ic_rtable_str(tw, pp >= 0 ? vs[pp].name : "-");
            ic_rtable_str(tw, *au->ran ? au->ran : "-");
            ic_rtable_num(tw, best >= 0 ? t_sel / vs[best].s.median : NAN);
            ic_rtable_str(tw, ok);
        }
        for (int j = 0; j < nv; j++) {
            free(vs[j].t);
            vs[j].t = NULL;
        }
        ic_point_free(&pt);
    }
    if (b->rank == 0) {
        for (int j = 0; j < nv; j++) {
            double es = finite_median(acc[j].es, acc[j].n), ep = finite_median(acc[j].ep, acc[j].n);
            double esl = finite_median(acc[j].esl, acc[j].nlong);
            double epl = finite_median(acc[j].epl, acc[j].nlong);
            ic_rtable_row(tf);
            ic_rtable_str(tf, ic_coll_name(c));
            ic_rtable_num(tf, b->size);
            ic_rtable_str(tf, vs[j].name);
            ic_rtable_str(tf, *vs[j].paper ? vs[j].paper : "-");
            ic_rtable_num(tf, acc[j].n);
            ic_rtable_num(tf, es * 100);
            ic_rtable_num(tf, ep * 100);
            ic_rtable_num(tf, acc[j].nlong);
            ic_rtable_num(tf, esl * 100);
            ic_rtable_num(tf, epl * 100);
            ic_rtable_num(tf, vs[j].pattern ? acc[j].wins : NAN);
            ic_rtable_num(tf, acc[j].wins_all);
            if (vs[j].pattern && acc[j].n > 0) {
                ty->pats++;
                ty->split_ok += es <= IC_PAT_GOAL;
                ty->plain_ok += ep <= IC_PAT_GOAL;
                ty->split_long_ok += acc[j].nlong > 0 && esl <= IC_PAT_GOAL;
                ty->plain_long_ok += acc[j].nlong > 0 && epl <= IC_PAT_GOAL;
            }
            free(acc[j].es);
        }
        if (b->o.plot)
            figures(b, c, nl, nn, vs, nv, med, spl, pln);
        free(acc);
        free(med);
    }
    free(vs);
    free(nl);
}

/* "alpha_s,alpha_r,beta_s,beta_r" of --split into f (validated by the
 * command line). */
static void given_split(const ic_bench_t *b, ic_split_fit_t *f)
{
    memset(f, 0, sizeof(*f));
    f->alpha_s = b->o.split[0];
    f->alpha_r = b->o.split[1];
    f->beta_s = b->o.split[2];
    f->beta_r = b->o.split[3];
    f->ok = 1;
}

static void setenv_num(const char *name, double v)
{
    char s[32];
    snprintf(s, sizeof(s), "%.9g", v);
    setenv(name, s, 1);
}

int ic_bench_patterns(ic_bench_t *b)
{
    ic_coll_t ops[IC_COLL_COUNT];
    int nops = 0;
    if (b->size < 2) {
        if (b->rank == 0)
            fprintf(stderr, "intercom-bench patterns: needs at least 2 ranks\n");
        return 2;
    }
    if (ic_bench_type(b->o.type ? b->o.type : "double", &elem_type) != 0) {
        if (b->rank == 0)
            fprintf(stderr, "intercom-bench patterns: --type must be int, long, float or double\n");
        return 2;
    }
    int tsz;
    MPI_Type_size(elem_type, &tsz);
    elem_size = (size_t)tsz;
    if (!b->o.ops) {
        for (nops = 0; nops < NPOPS; nops++)
            ops[nops] = pattern_ops[nops];
    } else if ((nops = ic_bench_colls(b, b->o.ops, ops)) < 0) {
        return 2;
    }
    for (int k = 0; k < nops; k++) {
        int known = 0;
        for (int i = 0; i < NPOPS; i++)
            known |= ops[k] == pattern_ops[i];
        if (!known) {
            if (b->rank == 0)
                fprintf(stderr,
                        "intercom-bench patterns: --ops takes allgather, allreduce, "
                        "reduce_scatter_block (not %s)\n",
                        ic_coll_name(ops[k]));
            return 2;
        }
    }
    ic_bench_defaults(b, 2.0, 200, 1);
    double maxb = 8;
    int npoints = 0;
    for (int k = 0; k < nops; k++) {
        size_t *nl;
        int nn = sweep(b, ops[k], &nl);
        npoints += nn;
        for (int i = 0; i < nn; i++)
            if (whole_bytes(ops[k], nl[i], b->size) > maxb)
                maxb = whole_bytes(ops[k], nl[i], b->size);
        free(nl);
    }
    ic_bench_describe(b);
    int one = ic_bench_one_node(b);
    ic_bench_model_t m, ms;
    /* with COMMS2's exchange (beta_x, x_min measured, as the tuner fits):
     * the halving and doubling patterns are exchanges */
    ic_bench_fit_model(b, elem_type, (size_t)maxb, one, IC_FIT_EXCHANGE, &m);
    /* the split model: given, or from the split ping-pong between ranks 0
     * and p-1 over 8 B to the longest message (x8) */
    ic_split_fit_t sf;
    if (b->o.have_split) {
        given_split(b, &sf);
    } else {
        size_t sz[32];
        int ns = 0;
        for (size_t x = 8; x < (size_t)maxb && x < IC_SPLIT_LONG && ns < 31; x *= 8)
            sz[ns++] = x;
        for (size_t x = IC_SPLIT_LONG; x < (size_t)maxb && ns < 31; x *= 2)
            sz[ns++] = x;
        sz[ns++] = (size_t)maxb;
        double *ow = ic_bench_alloc(b, 2 * (size_t)ns * sizeof(double)), *se = ow + ns;
        int bad = ic_bench_split_measure(b, b->size - 1, sz, ns, ow, se);
        ic_bench_split_fit_ends(sz, ns, ow, se, &sf);
        if (b->rank == 0) {
            b->failures += bad;
            ic_bench_split_report(b->rep, sz, ns, ow, se, &sf);
        }
        free(ow);
    }
    ms = m;
    ms.cost.split = 1;
    ms.cost.alpha_s = sf.alpha_s;
    ms.cost.alpha_r = sf.alpha_r;
    ms.cost.beta_s = sf.beta_s;
    ms.cost.beta_r = sf.beta_r;
    if (!sf.ok)
        ms.cost.alpha = NAN; /* nothing to price with (ic_point_predict) */
    /* the selector: the fitted model alone (no tuning table) */
    if (!isnan(m.cost.alpha)) {
        setenv_num("INTERCOM_ALPHA", m.cost.alpha);
        setenv_num("INTERCOM_BETA", m.cost.beta);
        setenv_num("INTERCOM_GAMMA", m.cost.gamma);
        if (m.exchange) {
            setenv_num("INTERCOM_BETA_EXCHANGE", m.cost.beta_x);
            setenv_num("INTERCOM_EXCHANGE_MIN", (double)m.cost.x_min);
        }
    }
    setenv("INTERCOM_TUNING_FILE", "none", 1);

    ic_rtable_t *tp = NULL, *tw = NULL, *tf = NULL;
    if (b->rank == 0) {
        ic_report_t *r = b->rep;
        char tn[MPI_MAX_OBJECT_NAME];
        int len;
        MPI_Type_get_name(elem_type, tn, &len);
        ic_report_info(r, "data",
                       "%s, MPI_SUM; n = tan-strazdins-2002's n: elements each rank gives "
                       "(allgather) or keeps (reduce_scatter_block), or the vector (allreduce); "
                       "bytes = the whole vector",
                       tn);
        ic_report_info_num(r, "alpha", m.cost.alpha, "s");
        ic_report_info_num(r, "beta", m.cost.beta, "s/B");
        ic_report_info_num(r, "gamma", m.cost.gamma, "s/B");
        ic_report_info_num(r, "overhead", m.cost.overhead, "s");
        if (m.exchange) {
            ic_report_info_num(r, "beta_x", m.cost.beta_x, "s/B");
            ic_report_info_num(r, "x_min", (double)m.cost.x_min, "B");
        } else {
            ic_report_info(r, "beta_x", "derived (COMMS2's exchange gave no fit)");
        }
        if (b->o.have_split) {
            ic_report_info_num(r, "alpha_s", sf.alpha_s, "s");
            ic_report_info_num(r, "beta_s", sf.beta_s, "s/B");
            ic_report_info_num(r, "alpha_r", sf.alpha_r, "s");
            ic_report_info_num(r, "beta_r", sf.beta_r, "s/B");
            ic_report_info(r, "split from", "--split");
        }
        ic_report_info(r, "selector",
                       "InterCom chooses with this run's alpha, beta, gamma, exchange terms and "
                       "no tuning table");
        ic_report_note(
            r, "time: median over the repetitions of the slowest rank's time; iqr%%: "
               "interquartile range / median; split: the cost evaluator with the split "
               "send/receive model (alpha_s, beta_s, alpha_r, beta_r), plain: with the "
               "alpha-beta model (alpha, beta, gamma and COMMS2's exchange terms fitted; "
               "overhead derived as the library does), each on the plan that ran (ran); err%%: "
               "|model - measured| / measured; vendor: no model");
        ic_report_note(r, "pattern: the registered algorithm forced (IC_Set_algorithm); paper: "
                          "its names in tan-strazdins-2002 (aliases); auto: InterCom's choice; "
                          "check unusable: the forced pattern cannot serve the call (another "
                          "ran; left out of winners and fits)");
        tp = main_table(b);
        tw = winners_table(b);
        tf = fit_table(b);
    }
    tally_t ty;
    memset(&ty, 0, sizeof(ty));
    int done = 0;
    for (int k = 0; k < nops; k++)
        run_op(b, ops[k], &m, &ms, tp, tw, tf, &ty, &done, npoints);
    ic_bench_progress_end(b);
    if (b->rank == 0)
        ic_report_headline(b->rep, "summary",
                           "the selector picks the fastest pattern at %d of %d points (another "
                           "within %.0f %% at %d more); split model's median error <= %.0f %% for "
                           "%d of %d patterns, plain model's for %d (from %u KiB: %d and %d); "
                           "InterCom's fastest pattern beats the vendor at %d of %d points",
                           ty.sel_yes, ty.points, IC_COLL_EFFECT * 100, ty.sel_near,
                           IC_PAT_GOAL * 100, ty.split_ok, ty.pats, ty.plain_ok,
                           IC_PAT_LONG_BYTES >> 10, ty.split_long_ok, ty.plain_long_ok,
                           ty.ic_faster, ty.points);
    return 0;
}
