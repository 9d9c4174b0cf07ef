/*
 * check_cost_formulas.c -- the cost evaluator (tuning/cost.c) applied to the
 * real schedules of the primitives and of the composed collectives of the
 * registry, checked against the closed forms of mitra-1995 sections 3.1
 * and 3.2.
 *
 * Parameters are powers of two (alpha = 1, beta = 2^-6, gamma = 2^-8,
 * element size 1 byte), so every expected value is exact in binary and the
 * comparisons use a tiny relative tolerance.  Sizes sweep p = 1, 2, 3, 5, 8,
 * 16, 31, 64 and several vector lengths, with p dividing n and not.
 *
 * Where the schedule moves a different amount of data than the paper's
 * formula assumes (uneven blocks, empty blocks that are skipped, the
 * broadcast phase of a short collect that sends the whole vector), the
 * expected value is stated next to the check and derived in its comment.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms.h"
#include "choose.h"
#include "cost.h"
#include "plan.h"
#include "schedule.h"

#define ALPHA 1.0
#define BETA (1.0 / 64)
#define GAMMA (1.0 / 256)

static const int ps[] = {1, 2, 3, 5, 8, 16, 31, 64};
#define NPS ((int)(sizeof(ps) / sizeof(ps[0])))

static void params(ic_cost_params_t *c)
{
    ic_cost_defaults(c);
    c->alpha = ALPHA;
    c->beta = BETA;
    c->gamma = GAMMA;
    c->delta = 0;
}

/* ceil(log2 p), as in the paper's ceil(log p) */
static int lg(int p)
{
    return ic_ceil_log2(p);
}

static size_t ceil_div(size_t a, size_t b)
{
    return (a + b - 1) / b;
}

/* --------------------------------------------------- primitive schedules */

typedef enum prim { P_BCAST, P_COMBINE, P_SCATTER, P_GATHER, P_COLLECT, P_DCOMBINE } prim_t;

typedef struct pcase {
    prim_t prim;
    int p, root;
    size_t n;
    size_t *counts; /* p even blocks of n */
} pcase_t;

static void build_prim(ic_sched_t *s, const pcase_t *k)
{
    ic_line_t line = ic_line_identity(k->p);
    switch (k->prim) {
    case P_BCAST:
        ic_mst_bcast(s, &line, k->root, ic_reg(IC_BUF_RECV, 0, k->n));
        break;
    case P_COMBINE:
        ic_sched_need(s, IC_BUF_SCRATCH, k->n);
        ic_mst_combine(s, &line, k->root, ic_reg(IC_BUF_RECV, 0, k->n),
                       ic_reg(IC_BUF_SCRATCH, 0, k->n));
        break;
    case P_SCATTER:
        ic_mst_scatter(s, &line, k->root, IC_BUF_RECV, 0, k->counts);
        break;
    case P_GATHER:
        ic_mst_gather(s, &line, k->root, IC_BUF_RECV, 0, k->counts);
        break;
    case P_COLLECT:
        ic_bucket_collect(s, &line, IC_BUF_RECV, 0, k->counts);
        break;
    case P_DCOMBINE:
        ic_bucket_dcombine(s, &line, IC_BUF_RECV, 0, k->counts, IC_BUF_SCRATCH, 0);
        break;
    }
}

/* Build all p schedules of one primitive call and evaluate them. */
static double eval_prim(prim_t prim, int p, int root, size_t n)
{
    pcase_t k = {prim, p, root, n, calloc((size_t)p, sizeof(size_t))};
    ck_assert_ptr_nonnull(k.counts);
    ic_blocks_even(k.counts, p, n);
    ic_sched_t *s = calloc((size_t)p, sizeof(*s));
    ck_assert_ptr_nonnull(s);
    for (int r = 0; r < p; r++) {
        ic_sched_init(&s[r], r, p);
        build_prim(&s[r], &k);
        ck_assert_int_eq(ic_sched_ok(&s[r]), 0);
    }
    ic_cost_params_t c;
    params(&c);
    ic_cost_result_t res;
    ck_assert_int_eq(ic_cost_eval(s, p, &c, 0, &res), 0);
    double t = res.time;
    ic_cost_result_free(&res);
    for (int r = 0; r < p; r++)
        ic_sched_free(&s[r]);
    free(s);
    free(k.counts);
    return t;
}

#define CHECK_T(got, want, what, p, n, root)                                                       \
    ck_assert_msg(fabs((got) - (want)) <= 1e-9 * (1.0 + fabs(want)),                               \
                  "%s p=%d n=%zu root=%d: cost %.12g, expected %.12g", (what), (p), (n), (root),   \
                  (got), (want))

static const size_t ns_any[] = {0, 1, 7, 64, 1000, 4096};
#define NNS ((int)(sizeof(ns_any) / sizeof(ns_any[0])))

/* Short-vector primitives, mitra-1995 3.1.1. */
START_TEST(test_mst_bcast)
{
    for (int i = 0; i < NPS; i++) {
        int p = ps[i];
        int roots[3] = {0, p / 2, p - 1};
        for (int j = 0; j < NNS; j++)
            for (int q = 0; q < 3; q++) {
                size_t n = ns_any[j];
                /* broadcast: "the total time required is
                 *   ceil(log p)(alpha + n beta)" (3.1.1); exact for every n
                 * and root (a zero-length vector is still sent). */
                double want = lg(p) * (ALPHA + (double)n * BETA);
                CHECK_T(eval_prim(P_BCAST, p, roots[q], n), want, "mst bcast", p, n, roots[q]);
            }
    }
}
END_TEST

/* The same formula for every p = 1..1000 (root moving with p). */
START_TEST(test_mst_bcast_every_p)
{
    for (int p = 1; p <= 1000; p++) {
        int root = (p / 3 + p % 7) % p;
        size_t n = 1000;
        double want = lg(p) * (ALPHA + (double)n * BETA);
        CHECK_T(eval_prim(P_BCAST, p, root, n), want, "mst bcast", p, n, root);
    }
}
END_TEST

START_TEST(test_mst_combine)
{
    for (int i = 0; i < NPS; i++) {
        int p = ps[i];
        int roots[3] = {0, p / 2, p - 1};
        for (int j = 0; j < NNS; j++)
            for (int q = 0; q < 3; q++) {
                size_t n = ns_any[j];
                /* combine-to-one: "ceil(log p)(alpha + n beta + n gamma)"
                 * (3.1.1); exact: both halves finish their sub-combine at
                 * the same time, then one message and one reduction. */
                double want = lg(p) * (ALPHA + (double)n * (BETA + GAMMA));
                CHECK_T(eval_prim(P_COMBINE, p, roots[q], n), want, "mst combine", p, n, roots[q]);
            }
    }
}
END_TEST

/*
 * Scatter and gather: "If each node receives an equal share of the initial
 * vector, the cost is approximately ceil(log p) alpha + [(p-1)/p] n beta"
 * (3.1.1).  With p | n it is exact for every root: the root's range halves
 * as c_0 = p, c_{t+1} = ceil(c_t / 2), it hands floor(c_t / 2) blocks to the
 * other half in step t, and sum_t floor(c_t / 2) = c_0 - 1 = p - 1 blocks.
 *
 * Uneven blocks (ic_blocks_even: the first n mod p blocks hold one element
 * more), n >= p, root 0: the root keeps the left half, which has at least
 * as many blocks and elementwise larger ones, so the root's own sequence of
 * messages is the critical path: it sends every block but its own,
 *     ceil(log p) alpha + (n - ceil(n/p)) beta.
 * For n < p the empty blocks are not sent at all (fewer startups), so those
 * cases are not compared with the formula.
 */
static void check_scatter_gather(prim_t prim, const char *what)
{
    static const size_t mult[] = {1, 3, 64};
    for (int i = 0; i < NPS; i++) {
        int p = ps[i];
        int roots[3] = {0, p / 2, p - 1};
        for (int j = 0; j < 3; j++)
            for (int q = 0; q < 3; q++) {
                size_t n = (size_t)p * mult[j];
                double want = lg(p) * ALPHA + (double)(p - 1) / p * (double)n * BETA;
                CHECK_T(eval_prim(prim, p, roots[q], n), want, what, p, n, roots[q]);
            }
        for (size_t n = (size_t)p; n < (size_t)p + 40; n += 3) {
            double want = lg(p) * ALPHA + (double)(n - ceil_div(n, (size_t)p)) * BETA;
            CHECK_T(eval_prim(prim, p, 0, n), want, what, p, n, 0);
        }
        /* nothing to move: no message at all */
        CHECK_T(eval_prim(prim, p, 0, 0), 0.0, what, p, (size_t)0, 0);
    }
}

START_TEST(test_mst_scatter)
{
    check_scatter_gather(P_SCATTER, "mst scatter");
}
END_TEST

START_TEST(test_mst_gather)
{
    check_scatter_gather(P_GATHER, "mst gather");
}
END_TEST

/*
 * Long-vector primitives, mitra-1995 3.1.2.
 *   bucket collect:              (p-1) alpha + [(p-1)/p] n beta
 *   bucket distributed combine:  (p-1) alpha + [(p-1)/p] n beta
 *                                            + [(p-1)/p] n gamma
 * exact when p | n (every step moves one block of n/p on every link).
 * Uneven blocks with n >= p: the largest blocks (ceil(n/p)) travel p-1
 * consecutive hops, so the chain that carries one of them takes
 * (p-1)(alpha + ceil(n/p) beta [+ ceil(n/p) gamma]); no step can take
 * longer, so that is the exact cost.  n = 0: nothing is sent, cost 0.
 */
static void check_bucket(prim_t prim, const char *what, double g)
{
    static const size_t mult[] = {1, 3, 64};
    for (int i = 0; i < NPS; i++) {
        int p = ps[i];
        for (int j = 0; j < 3; j++) {
            size_t n = (size_t)p * mult[j];
            double want = (p - 1) * ALPHA + (double)(p - 1) / p * (double)n * (BETA + g);
            CHECK_T(eval_prim(prim, p, 0, n), want, what, p, n, 0);
        }
        for (size_t n = (size_t)p + 1; n < (size_t)p + 40; n += 3) {
            if (n % (size_t)p == 0)
                continue;
            double b = (double)ceil_div(n, (size_t)p);
            double want = (p - 1) * (ALPHA + b * (BETA + g));
            CHECK_T(eval_prim(prim, p, 0, n), want, what, p, n, 0);
        }
        CHECK_T(eval_prim(prim, p, 0, 0), 0.0, what, p, (size_t)0, 0);
    }
}

START_TEST(test_bucket_collect)
{
    check_bucket(P_COLLECT, "bucket collect", 0);
}
END_TEST

START_TEST(test_bucket_dcombine)
{
    check_bucket(P_DCOMBINE, "bucket dcombine", GAMMA);
}
END_TEST

/* ------------------------------------------------ composed collectives */

/* Build the 1-D plan of a registered algorithm with the call's parameter. */
static int build_1d(const ic_algorithm_t *alg, ic_sched_t *s, const ic_coll_args_t *a)
{
    ic_plan_t pl = ic_plan_1d(alg, a->seg);
    return ic_plan_build(s, &pl, a);
}

/*
 * One call of a registry algorithm on p ranks.  n is the vector length for
 * bcast/reduce/allreduce and the total of the blocks for the block
 * collectives; counts (NULL = even split of n) are the per-rank blocks.
 */
static double eval_alg(const ic_algorithm_t *alg, int p, int root, size_t n,
                       const size_t *counts_in)
{
    size_t *counts = calloc((size_t)p, sizeof(size_t));
    ck_assert_ptr_nonnull(counts);
    if (counts_in) {
        for (int r = 0; r < p; r++)
            counts[r] = counts_in[r];
    } else {
        ic_blocks_even(counts, p, n);
    }
    ic_sched_t *s = calloc((size_t)p, sizeof(*s));
    ck_assert_ptr_nonnull(s);
    for (int r = 0; r < p; r++) {
        ic_coll_args_t a;
        memset(&a, 0, sizeof(a));
        a.coll = alg->coll;
        a.rank = r;
        a.size = p;
        a.root = root;
        a.count = n;
        a.sendcount = counts[r];
        a.recvcount = counts[r];
        a.counts = counts;
        a.displs = NULL;
        a.commutative = 1;
        a.exact = 1;
        const char *why = NULL;
        ck_assert_msg(ic_alg_usable(alg, &a, &why), "%s/%s unusable: %s", ic_coll_name(alg->coll),
                      alg->name, why ? why : "?");
        ic_sched_init(&s[r], r, p);
        ck_assert_int_eq(build_1d(alg, &s[r], &a), 0);
    }
    ic_cost_params_t c;
    params(&c);
    ic_cost_result_t res;
    ck_assert_msg(ic_cost_eval(s, p, &c, 0, &res) == 0, "%s/%s p=%d n=%zu: schedules do not match",
                  ic_coll_name(alg->coll), alg->name, p, n);
    double t = res.time;
    ic_cost_result_free(&res);
    for (int r = 0; r < p; r++)
        ic_sched_free(&s[r]);
    free(s);
    free(counts);
    return t;
}

/* Closed-form pieces (L = ceil(log p), f = (p-1)/p). */
static double t_bcast(int p, double n)
{
    return lg(p) * (ALPHA + n * BETA);
}
static double t_combine(int p, double n)
{
    return lg(p) * (ALPHA + n * (BETA + GAMMA));
}
static double t_scatter(int p, double n) /* also gather */
{
    return lg(p) * ALPHA + (double)(p - 1) / p * n * BETA;
}
static double t_collect(int p, double n)
{
    return (p - 1) * ALPHA + (double)(p - 1) / p * n * BETA;
}
static double t_dcombine(int p, double n)
{
    return (p - 1) * ALPHA + (double)(p - 1) / p * n * (BETA + GAMMA);
}

/*
 * Not in the paper (tree_bcast.c): in a binary tree in heap order every
 * parent sends to its first child, then to its second, one message time
 * each, so the first segment reaches relative index j after a(j) message
 * times, a(0) = 0, a(2j+1) = a(j) + 1, a(2j+2) = a(j) + 2.  Computed here by
 * walking the tree, independently of ic_tree_depth_cost.
 */
static double tree_arrival(int p)
{
    int *a = calloc((size_t)p, sizeof(int)), worst = 0;
    ck_assert_ptr_nonnull(a);
    for (int j = 1; j < p; j++) {
        a[j] = a[(j - 1) / 2] + (j % 2 ? 1 : 2);
        if (a[j] > worst)
            worst = a[j];
    }
    free(a);
    return worst;
}

/*
 * Expected cost of registry algorithm (coll, name) for p ranks, root, even
 * blocks of a total n with p | n.  Each case quotes mitra-1995.
 */
static double formula_even(ic_coll_t coll, const char *name, int p, double n)
{
    switch (coll) {
    case IC_COLL_BCAST:
        if (!strcmp(name, "mst")) /* 3.1.1: ceil(log p)(alpha + n beta) */
            return t_bcast(p, n);
        if (!strcmp(name, "scatter_collect"))
            /* 3.2.2 Broadcast, scatter followed by collect:
             *   (ceil(log p) + p - 1) alpha + 2 (p-1)/p n beta */
            return (lg(p) + p - 1) * ALPHA + 2.0 * (p - 1) / p * n * BETA;
        if (!strcmp(name, "pipeline")) /* one segment (seg 0): the plain chain */
            return p == 1 ? 0 : (p - 1) * (ALPHA + n * BETA);
        if (!strcmp(name, "knomial")) /* plain model: the radix rule keeps k = 2, the MST's tree */
            return t_bcast(p, n);
        if (!strcmp(name, "binary_tree")) /* one segment: tree_arrival(p) messages */
            return p == 1 || n == 0 ? 0 : tree_arrival(p) * (ALPHA + n * BETA);
        break;
    case IC_COLL_REDUCE:
        if (!strcmp(name, "mst")) /* 3.1.1: ceil(log p)(alpha + n beta + n gamma) */
            return t_combine(p, n);
        if (!strcmp(name, "pipeline"))
            /* one segment (seg 0), a commutative op: the ring ending at the
             * root, p - 1 messages each combined on arrival */
            return p == 1 ? 0 : (p - 1) * (ALPHA + n * (BETA + GAMMA));
        if (!strcmp(name, "dcombine_gather"))
            /* 3.2.2 Combine-to-one, distributed combine followed by gather:
             *   (ceil(log p) + p - 1) alpha + 2 (p-1)/p n beta + (p-1)/p n gamma */
            return (lg(p) + p - 1) * ALPHA + 2.0 * (p - 1) / p * n * BETA +
                   (double)(p - 1) / p * n * GAMMA;
        break;
    case IC_COLL_ALLREDUCE:
        if (!strcmp(name, "mst"))
            /* 3.2.1 Global combine-to-all, combine-to-one followed by
             * broadcast: 2 ceil(log p) alpha + 2 ceil(log p) n beta
             *            + ceil(log p) n gamma */
            return 2 * lg(p) * ALPHA + 2 * lg(p) * n * BETA + lg(p) * n * GAMMA;
        if (!strcmp(name, "dcombine_collect"))
            /* 3.2.2 Global combine-to-all, distributed combine followed by
             * collect: 2(p-1) alpha + 2 (p-1)/p n beta + (p-1)/p n gamma */
            return 2 * (p - 1) * ALPHA + 2.0 * (p - 1) / p * n * BETA +
                   (double)(p - 1) / p * n * GAMMA;
        if (!strcmp(name, "halving_doubling")) {
            /* Not in the paper (coll_allreduce.c), p = 2^k only: recursive
             * halving k alpha + (p-1)/p n (beta + gamma), then Bruck's
             * collect k alpha + (p-1)/p n beta */
            if (p & (p - 1))
                return -1;
            return 2 * lg(p) * ALPHA + 2.0 * (p - 1) / p * n * BETA +
                   (double)(p - 1) / p * n * GAMMA;
        }
        if (!strcmp(name, "recursive_doubling")) {
            /* Not in the paper (rd_allreduce.c): floor(log p) exchanges of the
             * whole vector, each followed by a combine, plus a fold and an
             * unfold when p is not a power of two:
             *   floor(log p)(alpha + n beta + n gamma)
             *   + (p != 2^k)(2 alpha + 2 n beta + n gamma) */
            int fl = lg(p) - ((p & (p - 1)) != 0);
            double t = fl * (ALPHA + n * (BETA + GAMMA));
            if (p & (p - 1))
                t += 2 * ALPHA + 2 * n * BETA + n * GAMMA;
            return t;
        }
        break;
    case IC_COLL_ALLGATHER:
    case IC_COLL_ALLGATHERV:
        if (!strcmp(name, "gather_bcast"))
            /* 3.2.1 Collect, gather followed by broadcast:
             *   2 ceil(log p) alpha + ((p-1)/p + ceil(log p)) n beta
             * (the broadcast phase sends the whole collected vector of n,
             * which is what the paper's ceil(log p) n beta term counts) */
            return 2 * lg(p) * ALPHA + ((double)(p - 1) / p + lg(p)) * n * BETA;
        if (!strcmp(name, "bucket")) /* 3.1.2: (p-1) alpha + (p-1)/p n beta */
            return t_collect(p, n);
        if (!strcmp(name, "bruck"))
            /* Not in the paper (bruck_collect.c): step k sends min(2^k, p-2^k)
             * blocks of n/p, all ranks alike: ceil(log p) alpha + (p-1)/p n beta */
            return lg(p) * ALPHA + (double)(p - 1) / p * n * BETA;
        break;
    case IC_COLL_REDUCE_SCATTER:
    case IC_COLL_REDUCE_SCATTER_BLOCK:
        if (!strcmp(name, "mst"))
            /* 3.2.1 Distributed global combine, combine-to-one followed by
             * scatter: 2 ceil(log p) alpha + ((p-1)/p + ceil(log p)) n beta
             *          + ceil(log p) n gamma */
            return 2 * lg(p) * ALPHA + ((double)(p - 1) / p + lg(p)) * n * BETA + lg(p) * n * GAMMA;
        if (!strcmp(name, "bucket"))
            /* 3.1.2: (p-1) alpha + (p-1)/p n beta + (p-1)/p n gamma */
            return t_dcombine(p, n);
        if (!strcmp(name, "recursive_halving"))
            /* Not in the paper (rh_dcombine.c), p = 2^k only (otherwise the
             * folded ranks' uneven halves make the critical path rank-
             * dependent): log p alpha + (p-1)/p n (beta + gamma) */
            return (p & (p - 1)) ? -1 : lg(p) * ALPHA + (double)(p - 1) / p * n * (BETA + GAMMA);
        break;
    case IC_COLL_SCATTER:
    case IC_COLL_SCATTERV:
    case IC_COLL_GATHER:
    case IC_COLL_GATHERV:
        if (!strcmp(name, "mst")) /* 3.1.1: ceil(log p) alpha + (p-1)/p n beta */
            return t_scatter(p, n);
        break;
    case IC_COLL_BARRIER:
        /* Not in the paper; costs as documented in coll_barrier.c: an empty
         * combine-to-one plus an empty broadcast, 2 ceil(log p) alpha, and
         * dissemination, ceil(log p) alpha. */
        if (!strcmp(name, "mst"))
            return 2 * lg(p) * ALPHA;
        if (!strcmp(name, "dissemination"))
            return lg(p) * ALPHA;
        break;
    default:
        break;
    }
    return -1;
}

/* The algorithms of sections 3.1/3.2 that the registry must hold. */
static const struct {
    ic_coll_t coll;
    const char *name;
} required[] = {
    {IC_COLL_BCAST, "mst"},
    {IC_COLL_BCAST, "scatter_collect"},
    {IC_COLL_REDUCE, "mst"},
    {IC_COLL_REDUCE, "dcombine_gather"},
    {IC_COLL_ALLREDUCE, "mst"},
    {IC_COLL_ALLREDUCE, "dcombine_collect"},
    {IC_COLL_ALLGATHER, "gather_bcast"},
    {IC_COLL_ALLGATHER, "bucket"},
    {IC_COLL_REDUCE_SCATTER, "mst"},
    {IC_COLL_REDUCE_SCATTER, "bucket"},
    {IC_COLL_SCATTER, "mst"},
    {IC_COLL_GATHER, "mst"},
};

START_TEST(test_registry_has_paper_algorithms)
{
    for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
        ck_assert_msg(ic_alg_find(required[i].coll, required[i].name) != NULL,
                      "registry lacks %s/%s", ic_coll_name(required[i].coll), required[i].name);
}
END_TEST

/* Every registry algorithm with a closed form, p | n, several roots. */
START_TEST(test_registry_even)
{
    static const size_t mult[] = {1, 3, 64};
    int checked = 0;
    for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++) {
        if (formula_even(alg->coll, alg->name, 2, 2) < 0) {
            fprintf(stderr, "check_cost_formulas: no closed form for %s/%s, not checked\n",
                    ic_coll_name(alg->coll), alg->name);
            continue;
        }
        checked++;
        for (int i = 0; i < NPS; i++) {
            int p = ps[i];
            int roots[3] = {0, p / 2, p - 1};
            for (int j = 0; j < 3; j++)
                for (int q = 0; q < 3; q++) {
                    size_t n = alg->coll == IC_COLL_BARRIER ? 0 : (size_t)p * mult[j];
                    double want = formula_even(alg->coll, alg->name, p, (double)n);
                    if (want < 0)
                        continue; /* closed form for some p only */
                    double got = eval_alg(alg, p, roots[q], n, NULL);
                    ck_assert_msg(fabs(got - want) <= 1e-9 * (1.0 + want),
                                  "%s/%s p=%d n=%zu root=%d: cost %.12g, expected %.12g",
                                  ic_coll_name(alg->coll), alg->name, p, n, roots[q], got, want);
                }
        }
    }
    ck_assert_int_ge(checked, (int)(sizeof(required) / sizeof(required[0])));
}
END_TEST

#define CHECK_ALG(coll, name, p, n, root, counts, want)                                            \
    do {                                                                                           \
        const ic_algorithm_t *alg_ = ic_alg_find((coll), (name));                                  \
        ck_assert_ptr_nonnull(alg_);                                                               \
        CHECK_T(eval_alg(alg_, (p), (root), (n), (counts)), (want), (name), (p), (n), (root));     \
    } while (0)

/*
 * Lengths p does not divide (n >= p, so no block is empty; ic_blocks_even
 * gives the first n mod p blocks c = ceil(n/p) elements, the others one
 * less).  Exact expected values:
 *   - the MST broadcast, combine-to-one and the short allreduce do not split
 *     the vector: the formulas above hold for every n;
 *   - long broadcast, root 0: scatter ceil(log p) alpha + (n - c) beta (the
 *     root's own messages are the critical path, see the scatter test),
 *     then every rank has finished the scatter and the big block 0 leaves
 *     the root for p-1 ring hops: + (p-1)(alpha + c beta);
 *   - long allreduce: the distributed combine ends on position 0 exactly at
 *     (p-1)(alpha + c beta + c gamma) (block 0's partial is big and travels
 *     p-1 hops), then block 0 travels p-1 hops of the collect:
 *     + (p-1)(alpha + c beta);
 *   - bucket collect / distributed combine with arbitrary positive block
 *     counts b_i: (p-1)(alpha + max b_i beta [+ max b_i gamma]): the largest
 *     block's chain of p-1 hops is critical and no step takes longer.
 */
START_TEST(test_registry_uneven)
{
    for (int i = 0; i < NPS; i++) {
        int p = ps[i];
        for (size_t n = (size_t)p + 1; n < (size_t)p + 30; n += 4) {
            if (n % (size_t)p == 0)
                continue;
            double c = (double)ceil_div(n, (size_t)p), dn = (double)n;
            int roots[2] = {0, p - 1};
            for (int q = 0; q < 2; q++) {
                CHECK_ALG(IC_COLL_BCAST, "mst", p, n, roots[q], NULL, t_bcast(p, dn));
                CHECK_ALG(IC_COLL_REDUCE, "mst", p, n, roots[q], NULL, t_combine(p, dn));
            }
            CHECK_ALG(IC_COLL_ALLREDUCE, "mst", p, n, 0, NULL,
                      2 * lg(p) * ALPHA + 2 * lg(p) * dn * BETA + lg(p) * dn * GAMMA);
            CHECK_ALG(IC_COLL_BCAST, "scatter_collect", p, n, 0, NULL,
                      lg(p) * ALPHA + (dn - c) * BETA + (p - 1) * (ALPHA + c * BETA));
            CHECK_ALG(IC_COLL_ALLREDUCE, "dcombine_collect", p, n, 0, NULL,
                      (p - 1) * (ALPHA + c * (BETA + GAMMA)) + (p - 1) * (ALPHA + c * BETA));
        }
        /* arbitrary positive counts for the ring algorithms */
        size_t *counts = malloc((size_t)p * sizeof(size_t));
        size_t total = 0, maxb = 0;
        for (int r = 0; r < p; r++) {
            counts[r] = 1 + (size_t)((r * 7 + 3) % 11);
            total += counts[r];
            if (counts[r] > maxb)
                maxb = counts[r];
        }
        double mb = (double)maxb;
        CHECK_ALG(IC_COLL_ALLGATHERV, "bucket", p, total, 0, counts, (p - 1) * (ALPHA + mb * BETA));
        CHECK_ALG(IC_COLL_REDUCE_SCATTER, "bucket", p, total, 0, counts,
                  (p - 1) * (ALPHA + mb * (BETA + GAMMA)));
        free(counts);
    }
}
END_TEST

/* A broadcast of n elements over p ranks from root, with parameter seg. */
static ic_coll_args_t bcast_args(int p, int root, size_t n, size_t seg)
{
    ic_coll_args_t a;
    memset(&a, 0, sizeof(a));
    a.coll = IC_COLL_BCAST;
    a.size = p;
    a.root = root;
    a.count = n;
    a.seg = seg;
    a.commutative = 1;
    a.exact = 1;
    return a;
}

/*
 * The pipelined chain broadcast (algorithms/pipe_bcast.c): k segments of
 * `seg` elements flow through p - 1 hops; the last position receives
 * segment k-1 in round p - 2 + k, every round costing alpha + seg beta when
 * seg divides n:  (p - 2 + k)(alpha + seg beta)  (p >= 2; 0 for p = 1).
 * With one segment this is the chain (p - 1)(alpha + n beta).  The
 * segment rule must give k = round(sqrt((p-2) n beta / alpha)).  A stream
 * cuts its first segment in IC_STREAM_DEPTH - 1 growing pieces when it
 * has two or more (ic_stream_ramps): IC_STREAM_DEPTH - 2 more rounds,
 * each costing alpha more than what its pieces save, so
 * (IC_STREAM_DEPTH - 2) alpha more.
 */
START_TEST(test_pipeline_bcast)
{
    const ic_algorithm_t *alg = ic_alg_find(IC_COLL_BCAST, "pipeline");
    ck_assert_ptr_nonnull(alg);
    ck_assert_ptr_nonnull(alg->seg_rule);
    ic_cost_params_t c;
    params(&c);
    for (int i = 0; i < NPS; i++) {
        int p = ps[i];
        const size_t ns[] = {64, 960, 4096};
        for (size_t j = 0; j < 3; j++) {
            size_t n = ns[j];
            const size_t segs[] = {n, n / 4, n / 64, 1};
            for (size_t q = 0; q < 4; q++) {
                ic_coll_args_t a = bcast_args(p, p / 2, n, segs[q]);
                double k = (double)(n / segs[q]);
                double ramp = ic_stream_ramps(n, segs[q]) ? IC_STREAM_DEPTH - 2 : 0;
                double want =
                    p == 1 ? 0 : (p - 2 + k) * (ALPHA + (double)segs[q] * BETA) + ramp * ALPHA;
                CHECK_T(ic_predict(alg, &a, &c, 1), want, "pipeline", p, n, a.root);
            }
            /* the segment rule minimises the formula above */
            ic_coll_args_t a;
            memset(&a, 0, sizeof(a));
            a.coll = IC_COLL_BCAST;
            a.size = p;
            a.count = n;
            ic_model_t md = {
                .alpha = ALPHA, .beta = BETA, .beta_x = BETA, .gamma = GAMMA, .elem = 1};
            size_t seg = alg->seg_rule(&a, &md);
            double kk = p > 2 ? floor(sqrt((p - 2) * (double)n * BETA / ALPHA) + 0.5) : 1;
            if (kk < 1)
                kk = 1;
            ck_assert_uint_eq(seg, (size_t)ceil((double)n / kk));
        }
    }
}
END_TEST

/*
 * The pipelined chain combine-to-one (algorithms/pipe_combine.c, the
 * reduce "pipeline"): k segments of s elements, the chain of H hops that
 * ends at the root (p - 1 for a commutative op, or root 0 or p - 1; p for a
 * non-commutative op and a root in between: the root's segments go out
 * first and the result comes back).  Every position combines what it
 * receives in the same round, so rounds take alpha + s beta + s gamma, and
 * the last segment reaches the root after H - 1 + k rounds, the last not
 * combined when the chain returns to the root:
 *   (H - 1 + k)(alpha + s beta) + (H - 1 + k - back) s gamma
 * when s divides n.  The closed form gives the same, and the segment rule
 * k = round(sqrt(n ((H-1) beta + (H-1-back) gamma) / alpha)).  From
 * bounded_from on, positions other than the root that append to the
 * partial (those above a non-commutative root other than 0) hold two
 * segments: those are then at most n / 2.
 */
START_TEST(test_pipeline_reduce)
{
    const ic_algorithm_t *alg = ic_alg_find(IC_COLL_REDUCE, "pipeline");
    ck_assert_ptr_nonnull(alg);
    ck_assert_ptr_nonnull(alg->seg_rule);
    ck_assert(alg->flags & IC_ALG_KEEPS_ORDER);
    ic_cost_params_t c;
    params(&c);
    ic_model_t md = {.alpha = ALPHA, .beta = BETA, .beta_x = BETA, .gamma = GAMMA, .elem = 1};
    for (int i = 0; i < NPS; i++) {
        int p = ps[i];
        const size_t ns[] = {64, 960, 4096};
        for (size_t j = 0; j < 3; j++)
            for (int comm = 0; comm <= 1; comm++)
                for (int ri = 0; ri < 3; ri++) {
                    int root = ri == 0 ? 0 : ri == 1 ? p / 2 : p - 1;
                    if ((ri == 1 && root == 0) || (ri == 2 && root == p / 2))
                        continue;
                    size_t n = ns[j];
                    int back = !comm && root != 0 && root != p - 1;
                    double H = p - 1 + back;
                    const size_t segs[] = {n, n / 4, n / 64, 1};
                    for (size_t q = 0; q < 4; q++) {
                        ic_coll_args_t a = bcast_args(p, root, n, segs[q]);
                        a.coll = IC_COLL_REDUCE;
                        a.commutative = comm;
                        double k = (double)(n / segs[q]), sb = (double)segs[q];
                        double want = p == 1 ? 0
                                             : (H - 1 + k) * (ALPHA + sb * BETA) +
                                                   (H - 1 + k - back) * sb * GAMMA;
                        CHECK_T(ic_predict(alg, &a, &c, 1), want, "reduce pipeline", p, n, root);
                        CHECK_T(alg->cost(&a, &md), want, "reduce pipeline closed form", p, n,
                                root);
                    }
                    /* the segment rule minimises the formula above */
                    ic_coll_args_t a = bcast_args(p, root, n, 0);
                    a.coll = IC_COLL_REDUCE;
                    a.commutative = comm;
                    double x = (double)n * ((H - 1) * BETA + (H - 1 - back) * GAMMA);
                    double kk = p > 1 && x > 0 ? floor(sqrt(x / ALPHA) + 0.5) : 1;
                    if (kk < 1)
                        kk = 1;
                    size_t seg = alg->seg_rule(&a, &md);
                    ck_assert_uint_eq(seg, (size_t)ceil((double)n / kk));
                    /* bounded: two segments within the vector where positions
                     * append, and the closed form still exact (n / 2 divides n) */
                    a.bounded_from = 1;
                    a.seg = n;
                    size_t eff = !comm && root != 0 && p >= 3 ? n / 2 : n;
                    double k2 = (double)(n / eff), s2 = (double)eff;
                    double want = p == 1 ? 0
                                         : (H - 1 + k2) * (ALPHA + s2 * BETA) +
                                               (H - 1 + k2 - back) * s2 * GAMMA;
                    CHECK_T(ic_predict(alg, &a, &c, 1), want, "reduce pipeline bounded", p, n,
                            root);
                    CHECK_T(alg->cost(&a, &md), want, "reduce pipeline bounded closed form", p, n,
                            root);
                }
    }
}
END_TEST

/*
 * Segments no longer than the executor's piece (ic_model_t.piece): a
 * segment a little longer than a piece would go as a piece and a short
 * remainder, in lock-step, two start-ups for one.  Every registered
 * segment rule, on calls whose unbounded optimum is longer than a piece
 * (4 MiB of 4-byte elements on 8 ranks at 20 us and 100 MB/s: the reduce
 * pipeline wants 8887 elements, 35.5 KB), gives at most piece / elem
 * elements, and the same without pieces as before; a piece shorter than an
 * element still gives one element.
 */
START_TEST(test_segments_fit_pieces)
{
    int capped = 0;
    for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++) {
        if (!alg->seg_rule || (alg->flags & IC_ALG_RADIX))
            continue;
        ic_coll_args_t a;
        memset(&a, 0, sizeof(a));
        a.coll = alg->coll;
        a.size = 8;
        a.root = 0;
        a.commutative = 1;
        a.exact = 1;
        a.count = 1u << 20;
        ic_model_t md = {.alpha = 20e-6, .beta = 1e-8, .beta_x = 1e-8, .gamma = 1e-9, .elem = 4};
        size_t whole = alg->seg_rule(&a, &md);
        md.piece = 32768;
        size_t seg = alg->seg_rule(&a, &md);
        ck_assert_msg(seg >= 1 && seg * md.elem <= md.piece, "%s: segment %zu of %zu B elements",
                      alg->name, seg, md.elem);
        ck_assert_uint_eq(seg, whole < 8192 ? whole : 8192);
        capped += whole > 8192;
        md.piece = 3; /* shorter than an element */
        ck_assert_uint_eq(alg->seg_rule(&a, &md), 1);
    }
    ck_assert_int_gt(capped, 0); /* the case this test is about occurs */
}
END_TEST

/*
 * The pipelined binary-tree broadcast (algorithms/tree_bcast.c): every
 * interior position sends each segment twice, so segments leave the root
 * every 2 (alpha + seg beta) and the last one arrives
 *   (2 (k - 1) + A)(alpha + seg beta),  A = tree_arrival(p)
 * after the start when seg divides n (p >= 3; p = 2: k (alpha + seg beta)).
 */
START_TEST(test_binary_tree_bcast)
{
    const ic_algorithm_t *alg = ic_alg_find(IC_COLL_BCAST, "binary_tree");
    ck_assert_ptr_nonnull(alg);
    ck_assert_ptr_nonnull(alg->seg_rule);
    ic_cost_params_t c;
    params(&c);
    for (int p = 1; p <= 70; p++) {
        ck_assert_int_eq(ic_tree_depth_cost(p), (int)tree_arrival(p));
        const size_t ns[] = {64, 960};
        for (size_t j = 0; j < 2; j++) {
            size_t n = ns[j];
            const size_t segs[] = {n, n / 4, n / 16, 1};
            for (size_t q = 0; q < 4; q++) {
                ic_coll_args_t a = bcast_args(p, (p * 2) / 3, n, segs[q]);
                double k = (double)(n / segs[q]), m = ALPHA + (double)segs[q] * BETA;
                double want = p == 1 ? 0 : p == 2 ? k * m : (2 * (k - 1) + tree_arrival(p)) * m;
                CHECK_T(ic_predict(alg, &a, &c, 1), want, "binary_tree", p, n, a.root);
                CHECK_T(alg->cost(&a, &(ic_model_t){.alpha = ALPHA,
                                                    .beta = BETA,
                                                    .beta_x = BETA,
                                                    .gamma = GAMMA,
                                                    .elem = 1}),
                        want, "binary_tree closed form", p, n, a.root);
            }
        }
    }
}
END_TEST

/*
 * The k-nomial broadcast (algorithms/knomial_bcast.c) against the
 * evaluator with LogGP's overhead o = alpha / 4 (ic_cost_params_t.overhead,
 * the plain model of cost.c): a send keeps its sender busy S = o + m beta,
 * the message arrives R = alpha - o after that.  Exact for every radix,
 * every p up to 70, two roots.  The same schedules under the split model
 * (tan-strazdins-2002 3.1: alpha_s = o, beta_s = beta, alpha_r = alpha - o,
 * beta_r = 0) give the same times: in a tree broadcast every rank receives
 * once, so the two views of a message agree.  Then the radix rule for
 * p = 8, o = alpha / 4, m = 0 (S = 5, R = 15 in units of alpha/20):
 *   k = 2: 3 (S + R) = 60;  k = 3: root sends to 3, 6, 1, 2, and 3 to 4, 5:
 *   max(4 S + R, 3 S + 2 R) = 45;  k = 4: 4 S + 2 R = 50;  k = 5: 45;
 *   k = 8 (flat): 7 S + R = 50.  The first best, k = 3, wins.
 */
START_TEST(test_knomial_bcast)
{
    const ic_algorithm_t *alg = ic_alg_find(IC_COLL_BCAST, "knomial");
    ck_assert_ptr_nonnull(alg);
    const double o = ALPHA / 4;
    ic_cost_params_t c, split;
    params(&c);
    c.overhead = o;
    params(&split);
    split.split = 1;
    split.alpha_s = o;
    split.alpha_r = ALPHA - o;
    split.beta_s = BETA;
    split.beta_r = 0;
    for (int p = 1; p <= 70; p++) {
        const int ks[] = {2, 3, 4, 7, p};
        for (size_t q = 0; q < 5; q++)
            for (int root = 0; root < p; root += (p + 1) / 2) {
                ic_coll_args_t a = bcast_args(p, root, 96, (size_t)ks[q]);
                double want = ic_estimate(alg, &a, &c, 1);
                CHECK_T(ic_predict(alg, &a, &c, 1), want, "knomial, overhead", p, a.count, root);
                CHECK_T(ic_predict(alg, &a, &split, 1), want, "knomial, split", p, a.count, root);
            }
    }
    ic_coll_args_t a;
    memset(&a, 0, sizeof(a));
    a.coll = IC_COLL_BCAST;
    a.size = 8;
    ic_model_t m = {.alpha = 20, .beta = BETA, .overhead = 5, .elem = 1};
    ck_assert_uint_eq(alg->seg_rule(&a, &m), 3);
    CHECK_T(ic_knomial_time(8, 3, 5, 15), 45.0, "knomial k=3", 8, (size_t)0, 0);
    CHECK_T(ic_knomial_time(8, 4, 5, 15), 50.0, "knomial k=4", 8, (size_t)0, 0);
    CHECK_T(ic_knomial_time(8, 8, 5, 15), 50.0, "knomial flat", 8, (size_t)0, 0);
    CHECK_T(ic_knomial_time(8, 2, 5, 15), 60.0, "knomial binomial", 8, (size_t)0, 0);
    m.overhead = 0; /* the plain model: the binomial tree */
    ck_assert_uint_eq(alg->seg_rule(&a, &m), 2);
}
END_TEST

/* A commutative call of alg's collective on p ranks, root p / 2, n
 * elements in the blocks `counts`. */
static ic_coll_args_t even_args(const ic_algorithm_t *alg, int p, size_t n, const size_t *counts)
{
    ic_coll_args_t a;
    memset(&a, 0, sizeof(a));
    a.coll = alg->coll;
    a.size = p;
    a.root = p / 2;
    a.count = n;
    a.counts = counts;
    a.commutative = 1;
    a.exact = 1;
    return a;
}

/*
 * The other closed forms keep the plain alpha-beta model, which charges a
 * sender alpha + m beta for every message it sends.  The evaluator with
 * 0 < o < alpha frees the sender after o + m beta, so its next message can
 * start while the last one travels.  Every time the evaluator computes is
 * a maximum of posts and port times plus durations, and o only shortens
 * the sender's durations, so (as long as no port serves its messages in
 * another order) every time moves earlier or stays: the plain closed forms
 * are upper bounds, equal to the evaluator at o = 0 and above it wherever
 * a rank's consecutive sends are on the critical path (the MST's root on
 * p = 5, the binary tree's parents, the MST scatter's root).  Checked on
 * every registry algorithm whose closed form is exact at o = 0 (the
 * estimates are held to their tolerance by the test below), with
 * o = alpha / 8 (the library's default across nodes) and alpha / 2.  The
 * closed forms other than the k-nomial broadcast's and the linear gathers'
 * and scatters' do not read o at all; those stay exact (a linear root's
 * p - 1 messages o + m beta apart at either end), and the one-round
 * fan-outs' bounds (the one-shot allreduce, the allgather's full fan-out:
 * ic_fanout_time) stay bounds, below their plain value.
 */
START_TEST(test_overhead_upper_bound)
{
    static const size_t mult[] = {1, 3, 64};
    static const double os[] = {ALPHA / 8, ALPHA / 2};
    ic_cost_params_t c0;
    params(&c0);
    int exact = 0, below = 0;
    for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++) {
        /* the closed forms that read o, exact with it; and the one-round
         * fan-outs' bounds (ic_fanout_time), bounds with it */
        int reads_o = !strcmp(alg->name, "knomial") || !strcmp(alg->name, "linear");
        int bound_o = !strcmp(alg->name, "one_shot") ||
                      ((alg->coll == IC_COLL_ALLGATHER || alg->coll == IC_COLL_ALLGATHERV) &&
                       !strcmp(alg->name, "full_fanout"));
        for (int i = 0; i < NPS; i++) {
            int p = ps[i];
            for (int j = 0; j < 3; j++) {
                size_t n = alg->coll == IC_COLL_BARRIER ? 0 : (size_t)p * mult[j];
                size_t *counts = calloc((size_t)p, sizeof(size_t));
                ck_assert_ptr_nonnull(counts);
                ic_blocks_even(counts, p, n);
                for (int q = 0; q < 2; q++) {
                    ic_cost_params_t c = c0;
                    c.overhead = os[q];
                    ic_coll_args_t a = even_args(alg, p, n, counts);
                    a.seg = ic_choose_seg(alg, &a, &c, 1);
                    double closed = ic_estimate(alg, &a, &c, 1);
                    double got = ic_predict(alg, &a, &c, 1);
                    ck_assert_msg(got >= 0, "%s/%s p=%d: schedules do not match",
                                  ic_coll_name(alg->coll), alg->name, p);
                    if (reads_o) {
                        CHECK_T(got, closed, "knomial or linear, overhead", p, n, a.root);
                        continue;
                    }
                    if (bound_o) {
                        ck_assert_msg(closed <= got * (1 + 1e-12) &&
                                          closed <= ic_estimate(alg, &a, &c0, 1),
                                      "%s/%s p=%d n=%zu o=%g: bound %.12g, evaluator %.12g",
                                      ic_coll_name(alg->coll), alg->name, p, n, os[q], closed, got);
                        continue;
                    }
                    ck_assert_msg(closed == ic_estimate(alg, &a, &c0, 1),
                                  "%s/%s p=%d n=%zu: the closed form reads the overhead",
                                  ic_coll_name(alg->coll), alg->name, p, n);
                    double plain = ic_predict(alg, &a, &c0, 1);
                    if (fabs(plain - closed) > 1e-9 * (1.0 + closed) ||
                        (alg->flags & IC_ALG_COST_ESTIMATE))
                        continue; /* an estimate at o = 0 already */
                    exact++;
                    ck_assert_msg(got <= closed * (1 + 1e-12),
                                  "%s/%s p=%d n=%zu o=%g: evaluator %.12g above the closed form "
                                  "%.12g",
                                  ic_coll_name(alg->coll), alg->name, p, n, os[q], got, closed);
                    if (got < closed * (1 - 1e-9))
                        below++;
                }
                free(counts);
            }
        }
    }
    printf("overhead: %d exact cases, evaluator below the plain closed form in %d\n", exact, below);
    ck_assert_int_gt(exact, 0);
    ck_assert_int_gt(below, 0);
}
END_TEST

/*
 * Algorithms flagged IC_ALG_COST_BOUND: their closed form is their
 * paper's model, a lower bound of the evaluator's time rather than equal
 * to it: the full fan-out (tan-strazdins-2002 equation (14) with overlap
 * coefficient o = 1, every rank's n-1 receives one after the other, all
 * messages in flight at once).  The evaluator also makes a message wait
 * for its sender's earlier ones, in the order they were matched, which the
 * pattern's single round leaves to chance: at p = 32 with o = 0 its time
 * is 8.8 times the bound.  Checked: never below the bound, at most p
 * times it.
 */

/*
 * The selector prices algorithms with their closed forms (the .cost of
 * each registry entry), not by running the evaluator: each must give the
 * evaluator's time on the real schedules.  Exactly for even blocks (p | n),
 * except where the algorithm's file calls its formula an estimate: the
 * folds of recursive halving when p is not a power of two, and a pipeline
 * whose segment does not divide the vector (the formula charges a full
 * last segment); those within 35%.  Run four times: exchanges at beta; at
 * twice beta (ic_cost_params_t.beta_x); at twice beta only for messages of
 * more than a quarter of the vector (ic_cost_params_t.x_min: the first
 * halving step pays it, the later ones do not); and for none of them.
 */
/* The estimates (IC_ALG_COST_ESTIMATE) within this factor of the
 * evaluator, both ways. */
#define PATTERN_TOL 2.0

START_TEST(test_registry_closed_forms)
{
    double pat_lo = 1, pat_hi = 1;
    ic_cost_params_t c;
    params(&c);
    /* _i == 1: exchanges (both directions between a pair in one round) cost
     * twice beta per byte, as COMMS2 shows over TCP */
    if (_i >= 1)
        c.beta_x = 2 * BETA;
    static const size_t mult[] = {1, 3, 64};
    for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++) {
        ck_assert_msg(alg->cost != NULL, "%s/%s has no closed-form cost", ic_coll_name(alg->coll),
                      alg->name);
        int folds = (alg->flags & IC_ALG_COST_FOLDS) != 0;
        int pattern = (alg->flags & IC_ALG_COST_ESTIMATE) != 0;
        /* the pipelined binary-tree combine's formula is an estimate */
        int combine_tree = alg->coll == IC_COLL_REDUCE && !strcmp(alg->name, "binary_tree");
        int bound = (alg->flags & IC_ALG_COST_BOUND) != 0;
        for (int i = 0; i < NPS; i++) {
            int p = ps[i];
            /* j / 3: 0 as the papers; 1 with scratch within the message
             * (bounded_from = 1); 2 that and in place (reduce_scatter) */
            int rs =
                alg->coll == IC_COLL_REDUCE_SCATTER || alg->coll == IC_COLL_REDUCE_SCATTER_BLOCK;
            for (int j = 0; j < (rs ? 9 : 6); j++) {
                size_t n = alg->coll == IC_COLL_BARRIER ? 0 : (size_t)p * mult[j % 3];
                size_t *counts = calloc((size_t)p, sizeof(size_t));
                ck_assert_ptr_nonnull(counts);
                ic_blocks_even(counts, p, n);
                ic_coll_args_t a = even_args(alg, p, n, counts);
                a.bounded_from = j >= 3;
                a.in_place = j >= 6;
                c.x_min = _i == 2 ? n / 4 + 1 : _i == 3 ? n + 1 : 0;
                a.seg = ic_choose_seg(alg, &a, &c, 1);
                double want = ic_predict(alg, &a, &c, 1);
                double got = ic_estimate(alg, &a, &c, 1);
                /* a reduce_scatter in pieces: slices of the blocks, exact
                 * when the blocks cut evenly (here the blocks are alike, so
                 * also in place); so the reduce by halving, whose pieces
                 * are vectors of uneven blocks unless they cut evenly */
                int halves = alg->coll == IC_COLL_REDUCE && alg->step == IC_STEP_REDUCE_RH &&
                             !ic_rh_reads_input(p);
                size_t q = (rs || halves) && a.bounded_from && n >= 2 ? (n % 2 ? 3 : 2) : 1;
                size_t blk = n / (size_t)p;
                int exact = !(folds && (p & (p - 1))) && !(alg->seg_rule && a.seg && n % a.seg) &&
                            !combine_tree && blk % q == 0;
                double tol = exact ? 1e-9 * (1.0 + want) : 0.35 * want;
                if (pattern && q > 1 && blk < q) {
                    /* pieces that hold some blocks each: the patterns
                     * skip the empty ones, which their estimate (every
                     * block in every piece) does not know */
                    free(counts);
                    continue;
                }
                if (pattern) {
                    double r = want > 0 ? got / want : 1;
                    pat_lo = r < pat_lo ? r : pat_lo;
                    pat_hi = r > pat_hi ? r : pat_hi;
                    ck_assert_msg(want == 0 ? got == 0 : r >= 1 / PATTERN_TOL && r <= PATTERN_TOL,
                                  "%s/%s p=%d n=%zu: estimate %.12g, evaluator %.12g",
                                  ic_coll_name(alg->coll), alg->name, p, n, got, want);
                    free(counts);
                    continue;
                }
                if (bound) {
                    /* a dataflow's start-ups overlap (IC_ALG_DATAFLOW) */
                    double far = alg->flags & IC_ALG_DATAFLOW ? IC_STREAM_DEPTH * p : p;
                    ck_assert_msg(got <= want * (1 + 1e-9) + 1e-12 && want <= far * got + 1e-12,
                                  "%s/%s p=%d n=%zu: closed form %.12g is no lower bound of the "
                                  "evaluator's %.12g (or far below it)",
                                  ic_coll_name(alg->coll), alg->name, p, n, got, want);
                    free(counts);
                    continue;
                }
                /* blocks shorter than the pieces (which then hold only
                 * some blocks each): within 2 times */
                if (q > 1 && blk < q) {
                    ck_assert_msg(got >= want / 2 && got <= 2 * want,
                                  "%s/%s p=%d n=%zu in pieces: closed form %.12g, evaluator "
                                  "%.12g",
                                  ic_coll_name(alg->coll), alg->name, p, n, got, want);
                    got = want;
                }
                ck_assert_msg(want >= 0 && fabs(got - want) <= tol,
                              "%s/%s p=%d n=%zu bounded %zu: closed form %.12g, evaluator %.12g",
                              ic_coll_name(alg->coll), alg->name, p, n, a.bounded_from, got, want);
                free(counts);
            }
        }
    }
    printf("patterns (IC_ALG_COST_ESTIMATE): estimate / evaluator within %.3f .. %.3f\n", pat_lo,
           pat_hi);
}
END_TEST

/*
 * Two levels (nodes of q consecutive positions): ic_plan_step_share on
 * steps inside a node (0), across nodes with one line per node position
 * (q), rings whose line holds several of a node's positions (one stream
 * per line), 1-D plans in and out of rank order; ic_model_shared's
 * transfer terms; and the search's visit orders: on 4 nodes x 2 ranks a
 * long allgather and reduce_scatter run the dimension across nodes with
 * one block per rank (visited first: the allgather's first step, the
 * reduce_scatter's last) and the node's own dimension last, priced well
 * below the plan of 4 x 2 visited fastest first.
 */
START_TEST(test_two_level_share)
{
    ic_cost_params_t c, cn;
    params(&c);
    ic_cost_defaults_node(&cn);
    ic_model_t m = ic_model_of(&c, 1), mn = ic_model_of(&cn, 1);
    m.node = &mn;
    m.node_ranks = 2;
    size_t counts[8];
    ic_blocks_even(counts, 8, 8 << 17);
    ic_coll_args_t a;
    memset(&a, 0, sizeof(a));
    a.coll = IC_COLL_ALLGATHER;
    a.size = 8;
    a.count = 8 << 17;
    a.counts = counts;
    a.commutative = 1;
    a.exact = 1;
    const ic_algorithm_t *bucket = ic_alg_find(IC_COLL_ALLGATHER, "bucket");
    const ic_algorithm_t *bruck = ic_alg_find(IC_COLL_ALLGATHER, "bruck");
    ck_assert_ptr_nonnull(bucket);
    ck_assert_ptr_nonnull(bruck);
    ic_plan_t pl;
    ck_assert_int_eq(ic_plan_parse(IC_COLL_ALLGATHER, "4x2:d0=bucket,d1=bucket", &pl, NULL), 0);
    ck_assert_int_eq(ic_plan_step_share(&pl, 0, bucket, &a, &m), 2);
    ck_assert_int_eq(ic_plan_step_share(&pl, 0, bruck, &a, &m), 2);
    ck_assert_int_eq(ic_plan_step_share(&pl, 1, bucket, &a, &m), 0);
    ck_assert_int_eq(ic_plan_parse(IC_COLL_ALLGATHER, "2x4:d1=bucket,d0=bucket", &pl, NULL), 0);
    ck_assert_int_eq(ic_plan_step_share(&pl, 0, bucket, &a, &m), 1); /* 2 of 4 on a node */
    ck_assert_int_eq(ic_plan_step_share(&pl, 0, bruck, &a, &m), 2);
    ck_assert_int_eq(ic_plan_step_share(&pl, 1, bucket, &a, &m), 2);
    m.node_ranks = 4;
    ck_assert_int_eq(
        ic_plan_parse(IC_COLL_ALLGATHER, "2x2x2:d2=bucket,d1=bucket,d0=bucket", &pl, NULL), 0);
    ck_assert_int_eq(ic_plan_step_share(&pl, 0, bucket, &a, &m), 0);
    ck_assert_int_eq(ic_plan_step_share(&pl, 1, bucket, &a, &m), 0);
    ck_assert_int_eq(ic_plan_step_share(&pl, 2, bucket, &a, &m), 4);
    m.node_ranks = 2;
    ic_plan_t one = ic_plan_1d(bucket, 0);
    ck_assert_int_eq(ic_plan_step_share(&one, 0, bucket, &a, &m), 1);
    one = ic_plan_1d(bruck, 0);
    ck_assert_int_eq(ic_plan_step_share(&one, 0, bruck, &a, &m), 2);
    static const int rr[8] = {0, 4, 1, 5, 2, 6, 3, 7}; /* ranks r, r + 4 on a node */
    a.order = rr;
    one = ic_plan_1d(bucket, 0);
    ck_assert_int_eq(ic_plan_step_share(&one, 0, bucket, &a, &m), 2);
    a.order = NULL;
    ic_model_t one_level = ic_model_of(&c, 1);
    ck_assert_int_eq(ic_plan_step_share(&pl, 2, bucket, &a, &one_level), 1);

    /* a rooted step that keeps the vector runs on the lines the data has
     * reached: 4 nodes x 2, a broadcast across the nodes first on one
     * line (one rank a node), after the nodes' own step on both; a
     * reduce the other way round; a scatter step on every line */
    a.coll = IC_COLL_BCAST;
    const ic_algorithm_t *bmst = ic_alg_find(IC_COLL_BCAST, "mst");
    const ic_algorithm_t *bpipe = ic_alg_find(IC_COLL_BCAST, "pipeline");
    const ic_algorithm_t *bsc = ic_alg_find(IC_COLL_BCAST, "scatter_collect");
    const ic_algorithm_t *rmst = ic_alg_find(IC_COLL_REDUCE, "mst");
    ck_assert(bmst && bpipe && bsc && rmst);
    ck_assert_int_eq(ic_plan_parse(IC_COLL_BCAST, "4x2:d0=mst,d1=mst", &pl, NULL), 0);
    ck_assert_int_eq(ic_plan_step_share(&pl, 0, bmst, &a, &m), 1);
    ck_assert_int_eq(ic_plan_step_share(&pl, 0, bpipe, &a, &m), 1);
    ck_assert_int_eq(ic_plan_step_share(&pl, 0, bsc, &a, &m), 2);
    ck_assert_int_eq(ic_plan_step_share(&pl, 1, bmst, &a, &m), 0);
    ck_assert_int_eq(ic_plan_parse(IC_COLL_BCAST, "4x2:d1=mst,d0=mst", &pl, NULL), 0);
    ck_assert_int_eq(ic_plan_step_share(&pl, 1, bmst, &a, &m), 2);
    ck_assert_int_eq(ic_plan_step_share(&pl, 1, bpipe, &a, &m), 2);
    a.coll = IC_COLL_REDUCE;
    ck_assert_int_eq(ic_plan_parse(IC_COLL_REDUCE, "4x2:d1=mst,d0=mst", &pl, NULL), 0);
    ck_assert_int_eq(ic_plan_step_share(&pl, 1, rmst, &a, &m), 1);
    ck_assert_int_eq(ic_plan_parse(IC_COLL_REDUCE, "4x2:d1=dcombine_gather,d0=mst", &pl, NULL), 0);
    ck_assert_int_eq(ic_plan_step_share(&pl, 1, rmst, &a, &m), 2);
    ck_assert_int_eq(ic_plan_parse(IC_COLL_REDUCE, "4x2:d0=mst,d1=mst", &pl, NULL), 0);
    ck_assert_int_eq(ic_plan_step_share(&pl, 0, rmst, &a, &m), 2);
    a.coll = IC_COLL_ALLGATHER;

    ic_model_t s3 = ic_model_shared(&m, 3), s0 = ic_model_shared(&m, 0);
    ck_assert(s3.beta == 3 * m.beta && s3.beta_x == 3 * m.beta_x && s3.alpha == m.alpha);
    ck_assert(s0.beta == mn.beta && s0.alpha == mn.alpha);

    static const ic_coll_t colls[] = {IC_COLL_ALLGATHER, IC_COLL_REDUCE_SCATTER_BLOCK};
    const char *fastest_first = "4x2:d1=bucket,d0=bucket";
    for (int i = 0; i < 2; i++) {
        a.coll = colls[i];
        ic_plan_t best, slow;
        double t = 0;
        ck_assert_int_eq(ic_choose_plan(&a, &c, &cn, 2, 1, NULL, 0, &best, &t, NULL), 0);
        char text[IC_PLAN_TEXT_MAX];
        ic_plan_format(&best, text, sizeof(text));
        int k = best.ndims;
        ck_assert_msg(k >= 2 && ic_plan_step_share(&best, 0, best.step[0].alg, &a, &m) > 0 &&
                          ic_plan_step_share(&best, k - 1, best.step[k - 1].alg, &a, &m) == 0,
                      "%s on 4 nodes x 2: %s", ic_coll_name(a.coll), text);
        ck_assert_int_eq(ic_plan_parse(a.coll, fastest_first, &slow, NULL), 0);
        double ts = ic_plan_cost(&slow, &a, &m);
        ck_assert_msg(t < 0.8 * ts, "%s: %s %g s against %s %g s", ic_coll_name(a.coll), text, t,
                      fastest_first, ts);
    }
}
END_TEST

/* Figures by rank distance (ic_model_strided): 16 ranks as a 4 x 4 torus
 * in rank order, where strides 2 and 8 cross two links per message and
 * share them (factors 3) while 1 and 4 are a row's and a column's
 * neighbours.  A ring on a dimension takes its stride's factors (the
 * start-up that of its closing message's distance), a tree
 * the mean over the distances it talks over, a 1-D plan is one line of
 * stride 1; placement and two levels turn them off; the selector prices
 * with them, and prices the bidir_ rings where two ways go at once. */
/* One message's time by its length (ic_msgtime_t): the factor between the
 * measured lengths, the pipelines' price and segment, the plan's. */
START_TEST(test_msgtime)
{
    ic_msgtime_t T;
    memset(&T, 0, sizeof(T));
    /* the line's time up to 8 KiB, 1.5 times it at 16 KiB, back on the line
     * at the long length (256 KiB) */
    static const double len[4] = {4096, 8192, 16384, 262144}, fac[4] = {1, 1, 1.5, 1};
    T.n = 4;
    for (int i = 0; i < 4; i++) {
        T.bytes[i] = len[i];
        T.factor[i] = fac[i];
    }
    ck_assert(ic_msgtime_factor(&T, 100) == 1 && ic_msgtime_factor(&T, 8192) == 1);
    ck_assert_double_eq_tol(ic_msgtime_factor(&T, 12288), 1.25, 1e-12);
    ck_assert_double_eq_tol(ic_msgtime_factor(&T, 16384 + (262144 - 16384) / 2.0), 1.25, 1e-12);
    ck_assert(ic_msgtime_factor(&T, 1 << 20) == 1);

    ic_cost_params_t c;
    params(&c);
    c.alpha = 100e-6; /* a latency-bound chain: the line's segment is long */
    c.beta = 1e-8;
    c.chunk = 0;
    ic_model_t plain = ic_model_of(&c, 8);
    c.msgtime = &T;
    ic_model_t m = ic_model_of(&c, 8);
    ck_assert(!plain.msgtime && m.msgtime == &T);
    const ic_algorithm_t *pipe = ic_alg_find(IC_COLL_BCAST, "pipeline");
    ck_assert(pipe != NULL);
    ic_coll_args_t a;
    memset(&a, 0, sizeof(a));
    a.coll = IC_COLL_BCAST;
    a.size = 48;
    a.count = (size_t)1 << 17; /* 1 MiB of 8-byte elements */
    a.commutative = 1;
    size_t line = ic_alg_segment(pipe, &a, &plain);
    ck_assert_uint_eq(line, pipe->seg_rule(&a, &plain)); /* nothing measured: the rule's */
    ck_assert_uint_gt(line * 8, 8192);                   /* ... past the cheap lengths  */
    size_t seg = ic_alg_segment(pipe, &a, &m);
    ck_assert_uint_le(seg * 8, 8192); /* the longest of the line's lengths */
    ck_assert_uint_ge(seg * 8, 4096);
    ic_coll_args_t b = a, r = a;
    b.seg = seg;
    r.seg = line;
    /* priced with the factor: the rule's segment dearer than on the line,
     * the one chosen no dearer than it; within the line's lengths the same */
    ck_assert(pipe->cost(&r, &m) > pipe->cost(&r, &plain));
    ck_assert(pipe->cost(&b, &m) < pipe->cost(&r, &m));
    ck_assert(pipe->cost(&b, &m) == pipe->cost(&b, &plain));
    /* the selector's plan takes it, and a radix rule is left alone */
    ic_plan_t pl = ic_plan_1d(pipe, 0);
    ic_plan_resolve(&pl, &a, &m);
    ck_assert_uint_eq(pl.param, seg);
    const ic_algorithm_t *kn = ic_alg_find(IC_COLL_BCAST, "knomial");
    ck_assert_uint_eq(ic_alg_segment(kn, &a, &m), kn->seg_rule(&a, &m));
    /* every factor 1: bitwise the plain price */
    for (int i = 0; i < 4; i++)
        T.factor[i] = 1;
    ck_assert(pipe->cost(&r, &m) == pipe->cost(&r, &plain));
    ic_plan_t p2 = ic_plan_1d(ic_alg_find(IC_COLL_REDUCE, "pipeline"), 0);
    a.coll = IC_COLL_REDUCE;
    ck_assert(ic_plan_cost(&p2, &a, &m) == ic_plan_cost(&p2, &a, &plain));
}
END_TEST

/* A vector shorter than a shrinking step's line still costs the later
 * steps their messages: an 8-byte reduce's chains after a distributed
 * combine are priced, not free. */
START_TEST(test_short_vector_steps)
{
    ic_cost_params_t c;
    params(&c);
    ic_model_t m = ic_model_of(&c, 8);
    ic_coll_args_t a;
    memset(&a, 0, sizeof(a));
    a.coll = IC_COLL_REDUCE;
    a.size = 96;
    a.count = 1;
    a.commutative = 1;
    ic_plan_t pl, chain;
    ck_assert_int_eq(ic_plan_parse(IC_COLL_REDUCE,
                                   "2x3x16:d1=dcombine_gather,d2=pipeline,d0=pipeline", &pl, NULL),
                     0);
    ic_coll_args_t b = a;
    b.size = 16;
    chain = ic_plan_1d(ic_alg_find(IC_COLL_REDUCE, "pipeline"), 0);
    double one = ic_plan_cost(&chain, &b, &m);
    ck_assert(one >= 15 * m.alpha);
    ck_assert(ic_plan_cost(&pl, &a, &m) >= one);
    ck_assert_uint_eq(ic_plan_step_count(0), 0);
    ck_assert_uint_eq(ic_plan_step_count(1.0 / 3), 1);
    ck_assert_uint_eq(ic_plan_step_count(2.4), 2);
}
END_TEST

START_TEST(test_stride_figures)
{
    ic_cost_params_t c;
    params(&c);
    ic_strides_t S;
    memset(&S, 0, sizeof(S));
    static const long st[4] = {1, 2, 4, 8};
    static const double f[4] = {1, 3, 1, 3};
    S.n = 4;
    for (int i = 0; i < 4; i++) {
        S.stride[i] = st[i];
        S.alpha[i] = S.in_alpha[i] = f[i];
        S.beta[i] = S.in_beta[i] = f[i];
    }
    c.strides = &S;
    ic_model_t m = ic_model_of(&c, 1);
    ck_assert_ptr_eq(m.strides, &S);
    size_t counts[16];
    ic_blocks_even(counts, 16, (size_t)16 << 16);
    ic_coll_args_t a;
    memset(&a, 0, sizeof(a));
    a.coll = IC_COLL_ALLGATHER;
    a.size = 16;
    a.count = (size_t)16 << 16;
    a.sendcount = a.recvcount = (size_t)1 << 16;
    a.counts = counts;
    a.commutative = 1;
    const ic_algorithm_t *bucket = ic_alg_find(IC_COLL_ALLGATHER, "bucket");
    const ic_algorithm_t *bruck = ic_alg_find(IC_COLL_ALLGATHER, "bruck");
    ck_assert(bucket && bruck);
    ic_plan_t pl;
    ck_assert_int_eq(ic_plan_parse(IC_COLL_ALLGATHER, "2x8:d1=bucket,d0=bucket", &pl, NULL), 0);
    ic_model_t s0 = ic_model_strided(&m, &pl, 0, bucket, &a, 0); /* stride 1 */
    ic_model_t s1 = ic_model_strided(&m, &pl, 1, bucket, &a, 0); /* stride 8 */
    /* the ring closes over distance 7 (nearest 8) on the line of 8, over 8
     * (the shift by -8) on the line of 2 that spans all 16 */
    ck_assert(s0.alpha == 3 * m.alpha && s0.beta == m.beta && s0.beta_x == m.beta_x);
    ck_assert(s1.alpha == 3 * m.alpha && s1.beta == 3 * m.beta && s1.beta_x == 3 * m.beta_x);
    ck_assert(s1.overhead == m.overhead && s1.gamma == m.gamma && !s1.strides);
    /* a ring within its block of ranks (8 of 16) takes the median rank's
     * figures, the one over all 16 the slowest's */
    S.in_alpha[3] = S.in_beta[3] = 1;
    ck_assert(ic_model_strided(&m, &pl, 0, bucket, &a, 0).alpha == m.alpha);
    ck_assert(ic_model_strided(&m, &pl, 1, bucket, &a, 0).alpha == 3 * m.alpha);
    S.in_alpha[3] = S.in_beta[3] = f[3];
    /* bruck on the line of 8 at stride 1: distances 1, 2, 4 */
    ic_model_t t0 = ic_model_strided(&m, &pl, 0, bruck, &a, 0);
    ck_assert_double_eq_tol(t0.beta, m.beta * (1 + 3 + 1) / 3.0, 1e-20);
    /* a stride not measured takes the nearest on a log scale (16 -> 8) */
    ck_assert_int_eq(ic_plan_parse(IC_COLL_ALLGATHER, "2x16:d1=bucket,d0=bucket", &pl, NULL), 0);
    ck_assert(ic_model_strided(&m, &pl, 1, bucket, &a, 0).beta == 3 * m.beta);
    ic_plan_t one = ic_plan_1d(bucket, 0);
    ck_assert(ic_model_strided(&m, &one, 0, bucket, &a, 0).beta == m.beta);
    one = ic_plan_1d(bruck, 0); /* distances 1, 2, 4, 8 */
    ck_assert_double_eq_tol(ic_model_strided(&m, &one, 0, bruck, &a, 0).alpha, m.alpha * 2, 1e-20);
    /* the price of a plan: the stride-8 dimension's ring three times dearer */
    ck_assert_int_eq(ic_plan_parse(IC_COLL_ALLGATHER, "2x8:d1=bucket,d0=bucket", &pl, NULL), 0);
    ic_model_t flat = m;
    flat.strides = NULL;
    double slow = ic_plan_cost(&pl, &a, &m), plain = ic_plan_cost(&pl, &a, &flat);
    ck_assert(slow > plain * 1.2);
    /* placement or two levels: every stride alike */
    static const int rr[16] = {0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15};
    a.order = rr;
    ck_assert(ic_model_strided(&m, &pl, 1, bucket, &a, 0).beta == m.beta);
    a.order = NULL;
    ic_model_t mn = m, two = m;
    two.node = &mn;
    two.node_ranks = 2;
    ck_assert(ic_model_strided(&two, &pl, 1, bucket, &a, 0).beta == m.beta);
    /* the selector prices with them: its pick costs what ic_plan_cost says
     * under the figures, no more than the 4 x 4 rings (factors 1), less
     * than the 2 x 8 rings */
    ic_plan_t best, rows;
    double t = 0;
    ck_assert_int_eq(ic_choose_plan(&a, &c, NULL, 0, 1, NULL, 0, &best, &t, NULL), 0);
    char text[IC_PLAN_TEXT_MAX];
    ic_plan_format(&best, text, sizeof(text));
    ck_assert_double_eq_tol(ic_plan_cost(&best, &a, &m), t, t * 1e-9);
    ck_assert_int_eq(ic_plan_parse(IC_COLL_ALLGATHER, "4x4:d1=bucket,d0=bucket", &rows, NULL), 0);
    ck_assert_msg(t <= ic_plan_cost(&rows, &a, &m) * (1 + 1e-9) && t < slow, "%s %g s", text, t);

    /* the bidir_ rings are priced where a rank's two sends were measured
     * at full rate over some stride, each line at its stride's rate */
    const ic_algorithm_t *bidir = ic_alg_find(IC_COLL_ALLGATHER, "bidir_bucket");
    ck_assert(bidir && (bidir->flags & IC_ALG_TWO_WAYS) && !ic_alg_priced(bidir));
    ck_assert(!ic_alg_priced_in(bidir, &m) && ic_alg_priced_in(bucket, &m));
    S.two_any = 1;
    S.two_beta[0] = 1; /* stride 1: full rate; 2: shared; 8: not measured */
    S.two_alpha[0] = S.in_two_alpha[0] = 1.25;
    S.two_beta[1] = 2;
    ck_assert(ic_alg_priced_in(bidir, &m) && !ic_alg_priced_in(bidir, &flat));
    ck_assert(!ic_alg_priced_in(ic_alg_find(IC_COLL_ALLGATHER, "full_fanout"), &m));
    ck_assert_int_eq(
        ic_plan_parse(IC_COLL_ALLGATHER, "2x8:d1=bidir_bucket,d0=bidir_bucket", &pl, NULL), 0);
    ic_model_t b0 = ic_model_strided(&m, &pl, 0, bidir, &a, 0),
               b1 = ic_model_strided(&m, &pl, 1, bidir, &a, 0);
    ck_assert(b0.beta == m.beta && b0.alpha == 3 * 1.25 * m.alpha);
    ck_assert(b1.beta == 3 * 2 * m.beta && b1.alpha == 3 * m.alpha);
    /* the line of 8 within its block: the median rank's both ways */
    S.in_two_alpha[0] = 1;
    ck_assert(ic_model_strided(&m, &pl, 0, bidir, &a, 0).alpha == 3 * m.alpha);
}
END_TEST

/*
 * Mesh plans (plan.h): the selector's price, the sum of the steps' closed
 * forms on their lines (ic_plan_cost), against the evaluator on the
 * composed schedules of all ranks, for every plan kind (each step
 * algorithm along every dimension, and a mix) on meshes up to 32 x 32 and
 * 8 x 8 x 8, with the vector a multiple of p so that every split is even.
 * Exact (as the 1-D closed forms) when every step's formula is exact;
 * the estimates of the 1-D test above (recursive halving's folds on lines
 * that are not powers of two, pipelines whose segment does not divide
 * their vector) within 35 %, and then also: the evaluator lets a rank
 * start its next step as soon as its own line is done, while the sum
 * charges every step to everyone (lines of one dimension finish at
 * different times only through those estimated steps).  The worst ratio
 * seen is printed by the test.  (Commutative ops only: with a
 * non-commutative op the reduce's pipelined chain takes one hop more on a
 * line whose root lies strictly inside it, which the price, every line
 * rooted at its position 0, does not see; plan.h.)
 */
START_TEST(test_plan_closed_forms)
{
    ic_cost_params_t c;
    params(&c);
    static const int shapes[][4] = {{2, 2, 2},    {2, 4, 4},    {2, 2, 8},   {2, 8, 2},
                                    {2, 3, 5},    {2, 4, 8},    {2, 16, 32}, {2, 32, 32},
                                    {3, 2, 2, 2}, {3, 4, 2, 4}, {3, 8, 8, 8}};
    static const ic_coll_t colls[] = {IC_COLL_BCAST, IC_COLL_REDUCE, IC_COLL_ALLREDUCE,
                                      IC_COLL_ALLGATHER, IC_COLL_REDUCE_SCATTER_BLOCK};
    double worst = 1;
    for (size_t si = 0; si < sizeof(shapes) / sizeof(shapes[0]); si++) {
        int k = shapes[si][0], p = 1;
        for (int i = 0; i < k; i++)
            p *= shapes[si][1 + i];
        for (size_t ci = 0; ci < sizeof(colls) / sizeof(colls[0]); ci++) {
            ic_coll_t coll = colls[ci];
            const ic_algorithm_t *algs[16];
            int n = 0;
            for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++)
                if (alg->coll == coll && ic_plan_step_kind(alg) != IC_STEP_NONE)
                    algs[n++] = alg;
            size_t *counts = calloc((size_t)p, sizeof(size_t));
            ck_assert_ptr_nonnull(counts);
            size_t total = (size_t)p * 64;
            ic_blocks_even(counts, p, total);
            ic_coll_args_t a;
            memset(&a, 0, sizeof(a));
            a.coll = coll;
            a.size = p;
            a.root = p / 3;
            a.count = total;
            a.counts = coll == IC_COLL_BCAST || coll == IC_COLL_REDUCE || coll == IC_COLL_ALLREDUCE
                           ? NULL
                           : counts;
            a.sendcount = a.recvcount = 64;
            a.commutative = 1;
            a.exact = 1;
            for (int j = 0; j <= n; j++) {
                /* the large meshes: the first algorithm and the mix */
                if (p > 64 && j != 0 && j != n)
                    continue;
                ic_plan_t pl = ic_plan_1d(NULL, 0);
                pl.coll = coll;
                pl.ndims = k;
                int estimate = 0, bound = 0, pattern = 0;
                for (int t = 0; t < k; t++) {
                    pl.dims[t] = shapes[si][1 + t];
                    pl.step[t].dim = k - 1 - t;
                    pl.step[t].alg = algs[j < n ? j : t % n];
                    int d = pl.dims[pl.step[t].dim];
                    const char *nm = pl.step[t].alg->name;
                    if ((pl.step[t].alg->flags & IC_ALG_COST_FOLDS) && (d & (d - 1)))
                        estimate = 1;
                    if (pl.step[t].alg->flags & IC_ALG_COST_ESTIMATE)
                        pattern = 1; /* tan-strazdins-2002's: within PATTERN_TOL */
                    if (pl.step[t].alg->seg_rule && strcmp(nm, "knomial") != 0)
                        estimate = 1; /* pipelines: checked within the tolerance */
                    if (coll == IC_COLL_REDUCE && !strcmp(nm, "binary_tree"))
                        estimate = 1;
                    bound |= (pl.step[t].alg->flags & IC_ALG_COST_BOUND) != 0;
                }
                ic_model_t m = ic_model_of(&c, 1);
                ic_plan_resolve(&pl, &a, &m);
                double got = ic_plan_cost(&pl, &a, &m);
                double want = ic_predict_plan(&pl, &a, &c, 1);
                char text[IC_PLAN_TEXT_MAX];
                ic_plan_format(&pl, text, sizeof(text));
                if (bound) { /* a lower bound (IC_ALG_COST_BOUND) */
                    ck_assert_msg(want > 0 && got <= want * (1 + 1e-9) && want <= p * got,
                                  "%s %s p=%d: closed forms %.12g, evaluator %.12g",
                                  ic_coll_name(coll), text, p, got, want);
                    continue;
                }
                double tol = pattern    ? (PATTERN_TOL - 1) * want
                             : estimate ? 0.35 * want
                                        : 1e-9 * (1.0 + want);
                if (!estimate && !pattern && want > 0 && got / want > worst)
                    worst = got / want;
                ck_assert_msg(want > 0 && fabs(got - want) <= tol,
                              "%s %s p=%d n=%zu: closed forms %.12g, evaluator %.12g",
                              ic_coll_name(coll), text, p, total, got, want);
                if (coll == IC_COLL_REDUCE || coll == IC_COLL_REDUCE_SCATTER_BLOCK) {
                    /* a long reduce or reduce_scatter, in two pieces (the
                     * reduce_scatter's: slices of every block, even here) */
                    ic_coll_args_t b = a;
                    b.bounded_from = 1;
                    got = ic_plan_cost(&pl, &b, &m);
                    want = ic_predict_plan(&pl, &b, &c, 1);
                    tol = pattern    ? (PATTERN_TOL - 1) * want
                          : estimate ? 0.35 * want
                                     : 1e-9 * (1.0 + want);
                    ck_assert_msg(want > 0 && fabs(got - want) <= tol,
                                  "%s %s p=%d n=%zu in pieces: closed forms %.12g, evaluator "
                                  "%.12g",
                                  ic_coll_name(coll), text, p, total, got, want);
                }
            }
            free(counts);
        }
    }
    printf("mesh plans: worst closed form / evaluator ratio of the exact kinds %.6f\n", worst);
}
END_TEST

Suite *suite_cost_formulas(void)
{
    Suite *s = suite_create("cost_formulas");
    TCase *tc = tcase_create("primitives");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_mst_bcast);
    tcase_add_test(tc, test_mst_bcast_every_p);
    tcase_add_test(tc, test_mst_combine);
    tcase_add_test(tc, test_mst_scatter);
    tcase_add_test(tc, test_mst_gather);
    tcase_add_test(tc, test_bucket_collect);
    tcase_add_test(tc, test_bucket_dcombine);
    suite_add_tcase(s, tc);
    TCase *tr = tcase_create("registry");
    tcase_set_timeout(tr, 60);
    tcase_add_test(tr, test_registry_has_paper_algorithms);
    tcase_add_test(tr, test_plan_closed_forms);
    tcase_add_test(tr, test_two_level_share);
    tcase_add_test(tr, test_stride_figures);
    tcase_add_test(tr, test_msgtime);
    tcase_add_test(tr, test_short_vector_steps);
    tcase_add_test(tr, test_registry_even);
    tcase_add_test(tr, test_registry_uneven);
    tcase_add_test(tr, test_pipeline_bcast);
    tcase_add_test(tr, test_pipeline_reduce);
    tcase_add_test(tr, test_segments_fit_pieces);
    tcase_add_test(tr, test_binary_tree_bcast);
    tcase_add_test(tr, test_knomial_bcast);
    tcase_add_test(tr, test_overhead_upper_bound);
    tcase_add_loop_test(tr, test_registry_closed_forms, 0, 4);
    suite_add_tcase(s, tr);
    return s;
}
