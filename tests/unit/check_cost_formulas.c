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

#include "algorithms.h"
#include "cost.h"
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

typedef enum prim {
    P_BCAST,
    P_COMBINE,
    P_SCATTER,
    P_GATHER,
    P_COLLECT,
    P_DCOMBINE
} prim_t;

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

#define CHECK_T(got, want, what, p, n, root)                                                \
    ck_assert_msg(fabs((got) - (want)) <= 1e-9 * (1.0 + fabs(want)),                      \
                  "%s p=%d n=%zu root=%d: cost %.12g, expected %.12g", (what), (p), (n),  \
                  (root), (got), (want))

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
                CHECK_T(eval_prim(P_COMBINE, p, roots[q], n), want, "mst combine", p, n,
                        roots[q]);
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

Suite *suite_cost_formulas(void)
{
    Suite *s = suite_create("cost_formulas");
    TCase *tc = tcase_create("primitives");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_mst_bcast);
    tcase_add_test(tc, test_mst_combine);
    tcase_add_test(tc, test_mst_scatter);
    tcase_add_test(tc, test_mst_gather);
    tcase_add_test(tc, test_bucket_collect);
    tcase_add_test(tc, test_bucket_dcombine);
    suite_add_tcase(s, tc);
    return s;
}
