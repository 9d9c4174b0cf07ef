/*
 * check_tan_strazdins.c -- the performance models of tan-strazdins-2002
 * ("The Analysis and Optimization of Collective Communications on a
 * Beowulf Cluster"), equations (2) to (14), against the cost evaluator
 * (tuning/cost.c) run on the schedules of InterCom's plans for the
 * paper's patterns, under the paper's split send/receive model
 * (section 3.1: S(n) = alpha_s + beta_s n, R(n) = alpha_r + beta_r n,
 * alpha = alpha_s + alpha_r, beta = beta_s + beta_r) with the values the
 * paper measured on the Bunyip (alpha_s = 24 us, alpha_r = 180 us,
 * beta_s = 0.0825 us, beta_r = 1.063 us per double), reductions free (the
 * paper neglects them) and exchanges at full rate in both directions (its
 * contention-free switch).
 *
 * n is in doubles (8 bytes): the elements of each rank's block for
 * allgather and reduce-scatter, of the vector for allreduce.  p runs over
 * powers of two (the paper's formulas assume them) and n over multiples
 * of p.  One test per equation, quoting it; where the evaluator departs
 * from the paper's formula, the test holds the departure and says why.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms.h"
#include "choose.h"
#include "cost.h"

#define A_S 24e-6
#define A_R 180e-6
#define B_S (0.0825e-6 / 8) /* per byte */
#define B_R (1.063e-6 / 8)
#define ALPHA (A_S + A_R)
#define BETA (8 * (B_S + B_R)) /* per double, as the paper's n */

static const int ps[] = {2, 4, 8, 16, 32};
static const size_t ns[] = {32, 128, 1024, 10016};
#define NP ((int)(sizeof(ps) / sizeof(ps[0])))
#define NN ((int)(sizeof(ns) / sizeof(ns[0])))

static double S(double n)
{
    return A_S + 8 * B_S * n;
}

static double R(double n)
{
    return A_R + 8 * B_R * n;
}

static double lg(int p)
{
    return log2((double)p);
}

/* The evaluator's time of algorithm `name` of coll on p ranks, n doubles
 * (per block, or the vector of an allreduce), under the split model. */
static double eval(ic_coll_t coll, const char *name, int p, size_t n)
{
    const ic_algorithm_t *alg = ic_alg_find(coll, name);
    ck_assert_msg(alg != NULL, "%s/%s is not registered", ic_coll_name(coll), name);
    ic_cost_params_t c;
    ic_cost_defaults(&c);
    c.alpha = ALPHA;
    c.beta = B_S + B_R;
    c.gamma = c.delta = 0;
    c.beta_x = 0; /* exchanges at beta */
    c.x_min = 0;
    c.overhead = 0;
    c.chunk = 0;
    c.split = 1;
    c.alpha_s = A_S;
    c.alpha_r = A_R;
    c.beta_s = B_S;
    c.beta_r = B_R;
    size_t *counts = calloc((size_t)p, sizeof(size_t));
    ck_assert_ptr_nonnull(counts);
    ic_coll_args_t a;
    memset(&a, 0, sizeof(a));
    a.coll = coll;
    a.size = p;
    a.commutative = 1;
    a.exact = 1;
    if (coll == IC_COLL_ALLREDUCE) {
        a.count = n;
    } else {
        for (int r = 0; r < p; r++)
            counts[r] = n;
        a.counts = counts;
        a.count = n * (size_t)p;
        a.sendcount = a.recvcount = n;
    }
    double t = ic_predict(alg, &a, &c, 8);
    free(counts);
    ck_assert_msg(t >= 0, "%s/%s p=%d n=%zu: schedules do not match", ic_coll_name(coll), name, p,
                  n);
    return t;
}

/* The evaluator equals the formula. */
#define EXACT(coll, name, p, n, want)                                                              \
    do {                                                                                           \
        double got_ = eval((coll), (name), (p), (n)), want_ = (want);                              \
        ck_assert_msg(fabs(got_ - want_) <= 1e-9 * want_,                                          \
                      "%s/%s p=%d n=%zu: evaluator %.9g s, "                                       \
                      "paper %.9g s",                                                              \
                      ic_coll_name(coll), (name), (p), (size_t)(n), got_, want_);                  \
    } while (0)

/* (2) t_bidir^ag(n, p) = alpha log2 p + (p - 1)(beta n) */
START_TEST(test_eq2_bidirectional_allgather)
{
    for (int i = 0; i < NP; i++)
        for (int j = 0; j < NN; j++) {
            int p = ps[i];
            double n = (double)ns[j];
            EXACT(IC_COLL_ALLGATHER, "bidirectional_exchange", p, ns[j],
                  ALPHA * lg(p) + (p - 1) * (BETA * n));
        }
}
END_TEST

/* (3) t_bidir^ar(n, p) = log2 p (alpha + beta n) */
START_TEST(test_eq3_bidirectional_allreduce)
{
    for (int i = 0; i < NP; i++)
        for (int j = 0; j < NN; j++) {
            int p = ps[i];
            double n = (double)ns[j];
            EXACT(IC_COLL_ALLREDUCE, "bidirectional_exchange", p, ns[j],
                  lg(p) * (ALPHA + BETA * n));
        }
}
END_TEST

/* (4) t_rec^ag(n, p) = log2 p (alpha + beta n/2) + alpha log2 p
 *                      + (p - 1)(beta n)
 * InterCom's recursive_halving_doubling allgather is the bidirectional
 * exchange (an alias): an allgather has nothing to combine, so it has no
 * halving phase, and the evaluator gives (4) without its first term,
 * log2 p (alpha + beta n/2), which is equation (2). */
START_TEST(test_eq4_rec_allgather)
{
    for (int i = 0; i < NP; i++)
        for (int j = 0; j < NN; j++) {
            int p = ps[i];
            double n = (double)ns[j];
            double eq4 = lg(p) * (ALPHA + BETA * n / 2) + ALPHA * lg(p) + (p - 1) * (BETA * n);
            EXACT(IC_COLL_ALLGATHER, "recursive_halving_doubling", p, ns[j],
                  eq4 - lg(p) * (ALPHA + BETA * n / 2));
        }
}
END_TEST

/* (5) t_rec^ar(n, p) = 2 (alpha log2 p + (p - 1)(beta n / p)) */
START_TEST(test_eq5_rec_allreduce)
{
    for (int i = 0; i < NP; i++)
        for (int j = 0; j < NN; j++) {
            int p = ps[i];
            double n = (double)ns[j];
            EXACT(IC_COLL_ALLREDUCE, "recursive_halving_doubling", p, ns[j],
                  2 * (ALPHA * lg(p) + (p - 1) * (BETA * n / p)));
        }
}
END_TEST

/* (6) t_rec^rs(n, p) = alpha log2 p + (p - 1)(beta n); the bidirectional
 * exchange of reduce-scatter is the same pattern (an alias). */
START_TEST(test_eq6_rec_reduce_scatter)
{
    for (int i = 0; i < NP; i++)
        for (int j = 0; j < NN; j++) {
            int p = ps[i];
            double n = (double)ns[j], want = ALPHA * lg(p) + (p - 1) * (BETA * n);
            EXACT(IC_COLL_REDUCE_SCATTER_BLOCK, "recursive_halving_doubling", p, ns[j], want);
            EXACT(IC_COLL_REDUCE_SCATTER_BLOCK, "bidirectional_exchange", p, ns[j], want);
        }
}
END_TEST

/* (7) t_fan^ag(n, p) = alpha log2 p + (p - 1) beta n + log2 p (alpha + beta n p) */
START_TEST(test_eq7_fan_allgather)
{
    for (int i = 0; i < NP; i++)
        for (int j = 0; j < NN; j++) {
            int p = ps[i];
            double n = (double)ns[j];
            EXACT(IC_COLL_ALLGATHER, "fan_in_fan_out", p, ns[j],
                  ALPHA * lg(p) + (p - 1) * BETA * n + lg(p) * (ALPHA + BETA * n * p));
        }
}
END_TEST

/* (8) t_fan^ar(n, p) = 2 (log2 p)(alpha + beta n) */
START_TEST(test_eq8_fan_allreduce)
{
    for (int i = 0; i < NP; i++)
        for (int j = 0; j < NN; j++) {
            int p = ps[i];
            double n = (double)ns[j];
            EXACT(IC_COLL_ALLREDUCE, "fan_in_fan_out", p, ns[j], 2 * lg(p) * (ALPHA + BETA * n));
        }
}
END_TEST

/* (9) t_ring^ag(n, p) = t_ring^rs(n, p) = t_ring^ar(n, p) = (p - 1)(alpha + beta n) */
START_TEST(test_eq9_ring)
{
    for (int i = 0; i < NP; i++)
        for (int j = 0; j < NN; j++) {
            int p = ps[i];
            double want = (p - 1) * (ALPHA + BETA * (double)ns[j]);
            EXACT(IC_COLL_ALLGATHER, "ring", p, ns[j], want);
            EXACT(IC_COLL_REDUCE_SCATTER_BLOCK, "ring", p, ns[j], want);
            EXACT(IC_COLL_ALLREDUCE, "ring", p, ns[j], want);
        }
}
END_TEST

/* (10) t_tree^ag(n, p) = (p log2 p - (p - 1)) S(n) + min[log2 p, 2] p R(n)
 * The paper derives it from a bound ("the total execution time must be at
 * least ...") and its simulator's charts.  The evaluator overlaps the
 * broadcasts further: every position receives its p - 1 blocks one after
 * another, and the MST roots' sends go out S(n) apart while earlier
 * broadcasts still travel.  Held: between 0.75 and 1 times (10) for
 * p >= 4 (0.82 at the paper's p = 8), and (10) is within 7 % above at
 * p = 2, where its min[.] counts one receive too few. */
START_TEST(test_eq10_repeated_tree_allgather)
{
    double lo = 1e9, hi = 0;
    for (int i = 0; i < NP; i++)
        for (int j = 0; j < NN; j++) {
            int p = ps[i];
            double n = (double)ns[j], L = lg(p);
            double want = (p * L - (p - 1)) * S(n) + (L < 2 ? L : 2) * p * R(n);
            double r = eval(IC_COLL_ALLGATHER, "repeated_binary_tree", p, ns[j]) / want;
            lo = r < lo ? r : lo;
            hi = r > hi ? r : hi;
            ck_assert_msg(p == 2 ? r >= 1 && r <= 1.07 : r >= 0.75 && r <= 1.0,
                          "repeated binary tree allgather p=%d n=%zu: evaluator / (10) = %.4f", p,
                          ns[j], r);
        }
    printf("equation (10): evaluator / paper %.3f .. %.3f\n", lo, hi);
}
END_TEST

/* (11) t_tree^rs(n, p) = p log2 p (alpha + beta n)
 * "no such overlap can occur, due to the stringent dependencies inherent
 * in reduce operations": in the evaluator the next combine's leaves send
 * while the previous combine is still on its way to its root, so it is a
 * little faster, never slower: between 0.9 and 1 times (11). */
START_TEST(test_eq11_repeated_tree_reduce_scatter)
{
    for (int i = 0; i < NP; i++)
        for (int j = 0; j < NN; j++) {
            int p = ps[i];
            double want = p * lg(p) * (ALPHA + BETA * (double)ns[j]);
            double r = eval(IC_COLL_REDUCE_SCATTER_BLOCK, "repeated_binary_tree", p, ns[j]) / want;
            ck_assert_msg(r >= 0.9 && r <= 1 + 1e-9,
                          "repeated binary tree reduce_scatter p=%d n=%zu: evaluator / (11) = %.4f",
                          p, ns[j], r);
        }
}
END_TEST

/* (12) t_pipe^ag(n, p) = t_pipe^rs(n, p) = 3 (p - 1)(alpha + beta n)
 * (a start-up sequence, a broadcast sequence and a finishing sequence):
 * exact for p >= 4; at p = 2 there is no middle, 2 (p - 1). */
START_TEST(test_eq12_pipeline)
{
    for (int i = 0; i < NP; i++)
        for (int j = 0; j < NN; j++) {
            int p = ps[i];
            double want = (p == 2 ? 2 : 3) * (p - 1) * (ALPHA + BETA * (double)ns[j]);
            EXACT(IC_COLL_ALLGATHER, "pipeline", p, ns[j], want);
            EXACT(IC_COLL_REDUCE_SCATTER_BLOCK, "pipeline", p, ns[j], want);
        }
}
END_TEST

/* (13) t_fi^ag(n, p) = t_fi^rs(n, p) = p S(n) + 2 (p - 1) R(n) */
START_TEST(test_eq13_full_fanin)
{
    for (int i = 0; i < NP; i++)
        for (int j = 0; j < NN; j++) {
            int p = ps[i];
            double n = (double)ns[j], want = p * S(n) + 2 * (p - 1) * R(n);
            EXACT(IC_COLL_ALLGATHER, "full_fanin", p, ns[j], want);
            EXACT(IC_COLL_REDUCE_SCATTER_BLOCK, "full_fanin", p, ns[j], want);
        }
}
END_TEST

/* (14) t_fo^ag(n, p) = t_fo^rs(n, p) = (p - 1)/o (alpha + beta n), with the
 * overlap coefficient o = 1 (one receive at a time: the evaluator's one
 * receive port; the paper's three NICs per node allow up to 3). */
START_TEST(test_eq14_full_fanout)
{
    for (int i = 0; i < NP; i++)
        for (int j = 0; j < NN; j++) {
            int p = ps[i];
            double want = (p - 1) / 1.0 * (ALPHA + BETA * (double)ns[j]);
            EXACT(IC_COLL_ALLGATHER, "full_fanout", p, ns[j], want);
            EXACT(IC_COLL_REDUCE_SCATTER_BLOCK, "full_fanout", p, ns[j], want);
        }
}
END_TEST

Suite *suite_tan_strazdins(void)
{
    Suite *s = suite_create("tan_strazdins");
    TCase *tc = tcase_create("equations");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_eq2_bidirectional_allgather);
    tcase_add_test(tc, test_eq3_bidirectional_allreduce);
    tcase_add_test(tc, test_eq4_rec_allgather);
    tcase_add_test(tc, test_eq5_rec_allreduce);
    tcase_add_test(tc, test_eq6_rec_reduce_scatter);
    tcase_add_test(tc, test_eq7_fan_allgather);
    tcase_add_test(tc, test_eq8_fan_allreduce);
    tcase_add_test(tc, test_eq9_ring);
    tcase_add_test(tc, test_eq10_repeated_tree_allgather);
    tcase_add_test(tc, test_eq11_repeated_tree_reduce_scatter);
    tcase_add_test(tc, test_eq12_pipeline);
    tcase_add_test(tc, test_eq13_full_fanin);
    tcase_add_test(tc, test_eq14_full_fanout);
    suite_add_tcase(s, tc);
    return s;
}
