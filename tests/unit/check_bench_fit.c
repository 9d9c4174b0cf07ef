/*
 * check_bench_fit.c -- the statistics and fits of intercom-bench
 * (bench/fit.c) on synthetic data with known parameters: Hockney's
 * t = (n + n_1/2) / r_inf recovered exactly from exact data and within 1%
 * from noisy data, breakpoints, the split send/receive model's lines (never
 * a negative term), and the alpha-beta-gamma lower bounds.
 */
#include "suites.h"
#include "fit.h"
#include "report.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define NMAX 64

/* Relative difference. */
static double rel(double got, double want)
{
    return fabs(got - want) / fabs(want);
}

/* Deterministic noise in [-amp, amp] (a 64-bit LCG). */
static double noise(uint64_t *s, double amp)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return amp * (2.0 * (double)(*s >> 11) / 9007199254740992.0 - 1.0);
}

/* Lengths 1, 2, 4, ..., 2^(m-1) and their times under (r_inf, n_half),
 * with relative noise of +-amp. */
static int make_points(double *n, double *t, int m, double r_inf, double n_half, double amp,
                       uint64_t seed)
{
    for (int i = 0; i < m; i++) {
        n[i] = ldexp(1.0, i);
        t[i] = (n[i] + n_half) / r_inf * (1.0 + noise(&seed, amp));
    }
    return m;
}

START_TEST(stats_known_values)
{
    const double x[] = {5, 1, 4, 2, 3};
    ic_stats_t s;
    ic_stats(x, 5, &s);
    ck_assert_int_eq(s.n, 5);
    ck_assert_double_eq(s.min, 1);
    ck_assert_double_eq(s.max, 5);
    ck_assert_double_eq(s.median, 3);
    ck_assert_double_eq(s.q1, 2);
    ck_assert_double_eq(s.q3, 4);
    ck_assert_double_eq(s.mean, 3);
    const double y[] = {4, 1, 3, 2};
    ck_assert_double_eq(ic_median(y, 4), 2.5);
    ck_assert_double_eq(x[0], 5); /* input untouched */
    ic_stats(x, 0, &s);
    ck_assert(isnan(s.median));
}
END_TEST

START_TEST(linfit_exact_and_weighted)
{
    double x[6], y[6], w[6], a, b;
    for (int i = 0; i < 6; i++) {
        x[i] = i;
        y[i] = 3.0 - 0.5 * i;
        w[i] = 1.0 + i;
    }
    ck_assert_int_eq(ic_linfit(x, y, NULL, 6, &a, &b), 0);
    ck_assert(fabs(a - 3.0) < 1e-12 && fabs(b + 0.5) < 1e-12);
    /* an outlier with zero weight is ignored */
    y[5] = 100;
    w[5] = 0;
    ck_assert_int_eq(ic_linfit(x, y, w, 6, &a, &b), 0);
    ck_assert(fabs(a - 3.0) < 1e-12 && fabs(b + 0.5) < 1e-12);
    /* one distinct x: no line */
    double xs[3] = {2, 2, 2};
    ck_assert_int_eq(ic_linfit(xs, y, NULL, 3, &a, &b), -1);
}
END_TEST

START_TEST(hockney_exact_recovery)
{
    double n[NMAX], t[NMAX];
    const double r_inf = 12.5e6, n_half = 850;
    int m = make_points(n, t, 23, r_inf, n_half, 0, 1);
    ic_hockney_t h;
    ck_assert_int_eq(ic_hockney_fit(n, t, m, &h), 0);
    ck_assert(rel(h.r_inf, r_inf) < 1e-9);
    ck_assert(rel(h.n_half, n_half) < 1e-9);
    ck_assert(rel(h.t0, n_half / r_inf) < 1e-9);
    ck_assert(rel(h.pi0, r_inf / n_half) < 1e-9);
    ck_assert(h.rms_rel < 1e-9);
    ck_assert_int_eq(h.npoints, 23);
    ck_assert_double_eq(h.n_lo, 1);
    ck_assert_double_eq(h.n_hi, ldexp(1.0, 22));
    ck_assert(rel(ic_hockney_time(&h, 1e6), (1e6 + n_half) / r_inf) < 1e-9);
}
END_TEST

/* Noisy measurements (+-2% per point) of several machines: r_inf and n_1/2
 * within 1% of the truth. */
START_TEST(hockney_noisy_within_one_percent)
{
    static const double machines[][2] = {
        {12.0e6, 250},   /* 100 Mbit/s Ethernet, TCP */
        {110.0e6, 2400}, /* 1 Gbit/s                  */
        {5.0e9, 25000},  /* shared memory             */
        {175.0e6, 8750}, /* the Paragon of mitra-1995 */
    };
    for (int k = 0; k < 4; k++) {
        double n[NMAX], t[NMAX];
        int m = make_points(n, t, 24, machines[k][0], machines[k][1], 0.02, 1000 + k);
        ic_hockney_t h;
        ck_assert_int_eq(ic_hockney_fit(n, t, m, &h), 0);
        ck_assert_msg(rel(h.r_inf, machines[k][0]) < 0.01, "machine %d: r_inf %g", k, h.r_inf);
        ck_assert_msg(rel(h.n_half, machines[k][1]) < 0.01, "machine %d: n_1/2 %g", k, h.n_half);
        ck_assert(h.rms_rel < 0.02);
    }
}
END_TEST

START_TEST(hockney_degenerate)
{
    double n[3] = {64, 64, 64}, t[3] = {1e-5, 1e-5, 1e-5};
    ic_hockney_t h;
    ck_assert_int_eq(ic_hockney_fit(n, t, 3, &h), -1);
    double n2[2] = {1, 1024}, t2[2] = {1e-5, -1};
    ck_assert_int_eq(ic_hockney_fit(n2, t2, 2, &h), -1);
    /* a time that does not grow: infinite rate, t0 kept */
    double t3[2] = {1e-5, 1e-5};
    ck_assert_int_eq(ic_hockney_fit(n2, t3, 2, &h), 0);
    ck_assert(isinf(h.r_inf));
    ck_assert(rel(h.t0, 1e-5) < 1e-12);
}
END_TEST

/* Two protocols (eager below 8 KiB, rendezvous above): a separate fit per
 * region recovers both, at a given breakpoint and at the one found. */
START_TEST(hockney_breakpoint_regions)
{
    double n[NMAX], t[NMAX];
    const double r1 = 300e6, h1 = 1500, r2 = 1.2e9, h2 = 40000;
    uint64_t seed = 7;
    int m = 0;
    for (int i = 0; i < 23; i++, m++) {
        n[m] = ldexp(1.0, i);
        double r = n[m] < 8192 ? r1 : r2, nh = n[m] < 8192 ? h1 : h2;
        t[m] = (n[m] + nh) / r * (1.0 + noise(&seed, 0.01));
    }
    ic_hockney_t f[3];
    double bp = 8192;
    ck_assert_int_eq(ic_hockney_fit_regions(n, t, m, &bp, 1, f), 0);
    ck_assert(rel(f[0].r_inf, r1) < 0.01 && rel(f[0].n_half, h1) < 0.01);
    ck_assert(rel(f[1].r_inf, r2) < 0.01 && rel(f[1].n_half, h2) < 0.01);
    ck_assert_double_eq(f[0].n_hi, 4096);
    ck_assert_double_eq(f[1].n_lo, 8192);

    double bps[2];
    ck_assert_int_eq(ic_hockney_breakpoints(n, t, m, 3, 2, bps), 1);
    ck_assert_msg(bps[0] > 4096 && bps[0] <= 8192, "breakpoint %g", bps[0]);
    ck_assert_int_eq(ic_hockney_fit_regions(n, t, m, bps, 1, f), 0);
    ck_assert(rel(f[0].r_inf, r1) < 0.01 && rel(f[1].r_inf, r2) < 0.01);
    /* the summary: start-up of the short messages, rate of the long ones */
    ic_hockney_t s;
    ic_hockney_summary(f, 2, &s);
    ck_assert(rel(s.t0, h1 / r1) < 0.01 && rel(s.r_inf, r2) < 0.01);
    ck_assert(rel(s.n_half, r2 * h1 / r1) < 0.02);
    ck_assert(rel(ic_hockney_time_regions(f, bps, 1, 1e6), (1e6 + h2) / r2) < 0.01);
    ck_assert(rel(ic_hockney_time_regions(f, bps, 1, 100), (100 + h1) / r1) < 0.01);

    /* one region: no breakpoint is found */
    m = make_points(n, t, 23, r2, h2, 0.01, 8);
    ck_assert_int_eq(ic_hockney_breakpoints(n, t, m, 3, 2, bps), 0);
    /* a breakpoint beyond the data leaves a region without points */
    bp = 1e12;
    ck_assert_int_eq(ic_hockney_fit_regions(n, t, m, &bp, 1, f), -1);
}
END_TEST

/* A shaped link: fast short messages (a token bucket's burst), a
 * transition, and the shaped rate: two breakpoints, and the rate of the
 * longest region is the link's (the single fit is far off). */
START_TEST(hockney_three_regions)
{
    double n[NMAX], t[NMAX];
    uint64_t seed = 11;
    int m = 24;
    for (int i = 0; i < m; i++) {
        n[i] = ldexp(1.0, i);
        if (n[i] < 8192)
            t[i] = (n[i] + 3000) / 200e6;
        else if (n[i] < 131072)
            t[i] = (n[i] + 100) / 25e6;
        else
            t[i] = (n[i] + 500) / 12e6;
        t[i] *= 1.0 + noise(&seed, 0.01);
    }
    double bps[2];
    ck_assert_int_eq(ic_hockney_breakpoints(n, t, m, 3, 2, bps), 2);
    ck_assert_msg(bps[0] > 4096 && bps[0] <= 8192, "first breakpoint %g", bps[0]);
    ck_assert_msg(bps[1] > 65536 && bps[1] <= 131072, "second breakpoint %g", bps[1]);
    ic_hockney_t f[3], s, one;
    ck_assert_int_eq(ic_hockney_fit_regions(n, t, m, bps, 2, f), 0);
    ic_hockney_summary(f, 3, &s);
    ck_assert(rel(s.r_inf, 12e6) < 0.01);
    ck_assert(rel(s.t0, 3000 / 200e6) < 0.02);
    ck_assert_int_eq(ic_hockney_fit(n, t, m, &one), 0);
    ck_assert(rel(one.r_inf, 12e6) > 0.1);
}
END_TEST

/* The lower bounds of bench/fit.h, written out. */
START_TEST(lower_bounds)
{
    const double a = 20e-6, b = 1e-8, g = 1e-9, n = 4e6;
    const int p = 8; /* ceil(log2 8) = 3 */
    const double f = 7.0 / 8.0 * n;
    ck_assert(rel(ic_lower_bound(IC_COLL_BCAST, p, n, a, b, g), n * b) < 1e-12);
    ck_assert(rel(ic_lower_bound(IC_COLL_BCAST, p, 8, a, b, g), 3 * a) < 1e-12);
    ck_assert(rel(ic_lower_bound(IC_COLL_ALLGATHER, p, n, a, b, g), 3 * a + f * b) < 1e-12);
    ck_assert(rel(ic_lower_bound(IC_COLL_REDUCE_SCATTER, p, n, a, b, g), 3 * a + f * (b + g)) <
              1e-12);
    ck_assert(rel(ic_lower_bound(IC_COLL_ALLREDUCE, p, n, a, b, g), 3 * a + 2 * f * b + f * g) <
              1e-12);
    ck_assert(rel(ic_lower_bound(IC_COLL_REDUCE, p, n, a, b, g), 3 * a + n * b + f * g) < 1e-12);
    ck_assert(rel(ic_lower_bound(IC_COLL_BARRIER, p, 0, a, b, g), 3 * a) < 1e-12);
    /* p = 5: ceil(log2 5) = 3, (p-1)/p = 4/5 */
    ck_assert(rel(ic_lower_bound(IC_COLL_GATHER, 5, n, a, b, g), 3 * a + 0.8 * n * b) < 1e-12);
    ck_assert_double_eq(ic_lower_bound(IC_COLL_ALLREDUCE, 1, n, a, b, g), 0);
}
END_TEST

/* One start-up and the bytes terms; nothing below them. */
START_TEST(time_floor)
{
    const double a = 20e-6, b = 1e-8, g = 1e-9, n = 4e6;
    const double f = 7.0 / 8.0 * n;
    ck_assert(rel(ic_time_floor(IC_COLL_BCAST, 8, n, a, b, g), a + n * b) < 1e-12);
    ck_assert(rel(ic_time_floor(IC_COLL_BCAST, 8, 8, a, b, g), a + 8 * b) < 1e-12);
    ck_assert(rel(ic_time_floor(IC_COLL_ALLREDUCE, 8, n, a, b, g), a + 2 * f * b + f * g) < 1e-12);
    ck_assert(rel(ic_time_floor(IC_COLL_BARRIER, 8, 0, a, b, g), a) < 1e-12);
    ck_assert_double_eq(ic_time_floor(IC_COLL_BARRIER, 1, 0, a, b, g), 0);
    /* never above the alpha-beta model's bound, but for the broadcast
     * (whose model bound takes the larger of its two terms, not their sum) */
    for (int p = 2; p <= 64; p *= 2)
        for (int c = 0; c < IC_COLL_COUNT; c++)
            ck_assert(c == IC_COLL_BCAST ||
                      ic_time_floor((ic_coll_t)c, p, n, a, b, g) <=
                          ic_lower_bound((ic_coll_t)c, p, n, a, b, g) * (1 + 1e-12));
}
END_TEST

/* Nodes of several ranks: the nodes' links bound, or the ranks at the
 * node's beta when that is more; one rank per node or one node: as
 * ic_time_floor. */
START_TEST(time_floor_nodes)
{
    const double a = 20e-6, b = 1e-8, g = 1e-9, n = 4e6, bn = 1e-9;
    ck_assert(rel(ic_time_floor_nodes(IC_COLL_ALLGATHER, 8, 4, n, a, b, g, bn), a + 0.75 * n * b) <
              1e-12);
    ck_assert(rel(ic_time_floor_nodes(IC_COLL_ALLREDUCE, 8, 4, n, a, b, g, bn),
                  a + 0.75 * n * (2 * b + g / 2)) < 1e-12);
    ck_assert(rel(ic_time_floor_nodes(IC_COLL_BCAST, 8, 4, n, a, b, g, bn), a + n * b) < 1e-12);
    /* a slow node: its ranks' own bound is the larger */
    ck_assert(rel(ic_time_floor_nodes(IC_COLL_ALLGATHER, 8, 4, n, a, b, g, 2 * b),
                  a + 7.0 / 8.0 * n * 2 * b) < 1e-12);
    for (int c = 0; c < IC_COLL_COUNT; c++) {
        ic_coll_t k = (ic_coll_t)c;
        ck_assert_double_eq(ic_time_floor_nodes(k, 8, 8, n, a, b, g, bn),
                            ic_time_floor(k, 8, n, a, b, g));
        ck_assert_double_eq(ic_time_floor_nodes(k, 8, 1, n, a, b, g, bn),
                            ic_time_floor(k, 8, n, a, b, g));
        ck_assert_double_eq(ic_time_floor_nodes(k, 8, 4, n, a, b, g, NAN),
                            ic_time_floor(k, 8, n, a, b, g));
        /* never above the one-level floor at the same beta */
        ck_assert(ic_time_floor_nodes(k, 16, 4, n, a, b, g, bn) <=
                  ic_time_floor(k, 16, n, a, b, g) * (1 + 1e-12));
    }
}
END_TEST

static ic_stats_t quartiles(double q1, double med, double q3)
{
    ic_stats_t s = {.n = 10, .min = q1, .q1 = q1, .median = med, .q3 = q3, .max = q3, .mean = med};
    return s;
}

/* Verdicts: beyond noise only when the medians' intervals (1.57 IQR /
 * sqrt(n), n = 10 here: half the IQR) separate and the medians differ by
 * more than the effect; an uncertain median is noise. */
START_TEST(compare_verdicts)
{
    ic_stats_t v = quartiles(95, 100, 105), fast = quartiles(76, 80, 84),
               slow = quartiles(120, 125, 130), close = quartiles(96, 98, 100),
               wide = quartiles(50, 100, 150), tight_near = quartiles(98.9, 99, 99.1),
               tight_v = quartiles(99.9, 100, 100.1);
    ck_assert_int_eq(ic_compare(&v, &fast, 0.1, 0.03), IC_CMP_FASTER);
    ck_assert_int_eq(ic_compare(&v, &slow, 0.1, 0.03), IC_CMP_SLOWER);
    ck_assert_int_eq(ic_compare(&v, &close, 0.1, 0.03), IC_CMP_SAME); /* intervals overlap */
    ck_assert(rel(ic_median_halfwidth(&v), 1.57 * 10 / sqrt(10.0) / 100) < 1e-12);
    /* more repetitions of the same spread: a narrower interval */
    ic_stats_t wide_many = quartiles(50, 100, 150);
    wide_many.n = 10000;
    ck_assert_int_eq(ic_compare(&v, &wide_many, 0.1, 0.03), IC_CMP_SAME);
    ck_assert_int_eq(ic_compare(&v, &wide, 0.1, 0.03), IC_CMP_NOISE);
    ck_assert_int_eq(ic_compare(&wide, &fast, 0.1, 0.03), IC_CMP_NOISE);
    /* separated but by 1 %: not an effect */
    ck_assert_int_eq(ic_compare(&tight_v, &tight_near, 0.1, 0.03), IC_CMP_SAME);
    ck_assert_int_eq(ic_compare(&tight_v, &tight_near, 0.1, 0.005), IC_CMP_FASTER);
    /* zero spread (simulation): the medians decide */
    ic_stats_t s1 = quartiles(1, 1, 1), s2 = quartiles(2, 2, 2);
    ck_assert_int_eq(ic_compare(&s2, &s1, 0.1, 0.03), IC_CMP_FASTER);
    ck_assert_int_eq(ic_compare(&s1, &s2, 0.1, 0.03), IC_CMP_SLOWER);
    ck_assert_int_eq(ic_compare(&s1, &s1, 0.1, 0.03), IC_CMP_SAME);
    ck_assert_str_eq(ic_cmp_name(IC_CMP_FASTER), "faster");
    ck_assert_str_eq(ic_cmp_name(IC_CMP_NOISE), "noise");

    ic_cmp_summary_t sum;
    memset(&sum, 0, sizeof(sum));
    ck_assert(isnan(ic_cmp_geomean(&sum)));
    ic_cmp_add(&sum, IC_CMP_FASTER, 2.0);
    ic_cmp_add(&sum, IC_CMP_SLOWER, 0.5);
    ic_cmp_add(&sum, IC_CMP_SAME, 4.0);
    ic_cmp_add(&sum, IC_CMP_NOISE, 100.0); /* left out of the mean */
    ck_assert_int_eq(ic_cmp_total(&sum), 4);
    ck_assert_int_eq(sum.count[IC_CMP_NOISE], 1);
    ck_assert(rel(ic_cmp_geomean(&sum), cbrt(4.0)) < 1e-12);
}
END_TEST

/* The split model (tan-strazdins-2002 3.1): exact lines recovered by both
 * fits; noisy timings that fit a negative term get it at 0 and say so. */
START_TEST(split_fits_nonnegative)
{
    const double as = 2e-6, bs = 1e-9, ar = 5e-6, br = 3e-9;
    size_t sz[] = {8, 64, 512, 4096, 32768, 65536, 131072, 262144};
    int ns = (int)(sizeof(sz) / sizeof(sz[0]));
    double ow[8], se[8];
    for (int i = 0; i < ns; i++) {
        se[i] = as + bs * (double)sz[i];
        ow[i] = se[i] + ar + br * (double)sz[i];
    }
    ic_split_fit_t f;
    ck_assert_int_eq(ic_bench_split_fit(sz, ns, ow, se, &f), 0);
    ck_assert(f.ok && f.clamped == 0);
    ck_assert(rel(f.alpha_s, as) < 1e-6 && rel(f.beta_s, bs) < 1e-6);
    ck_assert(rel(f.alpha_r, ar) < 1e-6 && rel(f.beta_r, br) < 1e-6);
    ck_assert_int_eq(ic_bench_split_fit_ends(sz, ns, ow, se, &f), 0);
    ck_assert(f.ok && f.clamped == 0);
    ck_assert(rel(f.alpha_s, as) < 1e-6 && rel(f.beta_r, br) < 1e-6);

    /* a busy machine: the receiver's part falls over the long lengths
     * (its slope fits negative), the send of 8 B takes longer than the
     * one-way time (the rest at 8 B is negative) */
    ow[6] = 0.5 * ow[5];
    ow[7] = 0.3 * ow[5];
    se[0] = 2 * ow[0];
    ck_assert_int_eq(ic_bench_split_fit_ends(sz, ns, ow, se, &f), 0);
    ck_assert(f.ok && f.clamped >= 2);
    ck_assert(f.alpha_s >= 0 && f.beta_s >= 0 && f.alpha_r >= 0 && f.beta_r >= 0);
    ck_assert_int_eq(ic_bench_split_fit(sz, ns, ow, se, &f), 0);
    ck_assert(f.ok && f.clamped >= 1);
    ck_assert(f.alpha_s >= 0 && f.beta_s >= 0 && f.alpha_r >= 0 && f.beta_r >= 0);

    /* two long lengths 10 % apart whose receiver parts fall: no slope is
     * taken from them; the whole fit's terms, none negative */
    size_t close[] = {8, 512, 32768, 65536, 72000};
    double ow2[5], se2[5];
    for (int i = 0; i < 5; i++) {
        se2[i] = as + bs * (double)close[i];
        ow2[i] = se2[i] + ar + br * (double)close[i];
    }
    ow2[4] = se2[4] + 0.5 * (ow2[3] - se2[3]);
    ck_assert_int_eq(ic_bench_split_fit_ends(close, 5, ow2, se2, &f), 0);
    ck_assert(f.ok && f.beta_r >= 0 && f.alpha_r >= 0);
    ck_assert(rel(f.beta_s, bs) < 1e-6);

    ck_assert_int_eq(ic_bench_split_fit(sz, 1, ow, se, &f), -1);
    ck_assert(!f.ok && isnan(f.alpha_s));
}
END_TEST

/* A ratio as the reports print it: two decimals, two significant digits
 * below 0.1, so that InterCom 200x slower reads 0.0050, never 0.00 (the
 * quick start's summary check reads a positive mean). */
START_TEST(ratio_text)
{
    char b[32];
    ck_assert_str_eq(ic_fmt_ratio(1.234, b, sizeof(b)), "1.23");
    ck_assert_str_eq(ic_fmt_ratio(0.5, b, sizeof(b)), "0.50");
    ck_assert_str_eq(ic_fmt_ratio(0.1, b, sizeof(b)), "0.10");
    ck_assert_str_eq(ic_fmt_ratio(0.05, b, sizeof(b)), "0.050");
    ck_assert_str_eq(ic_fmt_ratio(0.00533, b, sizeof(b)), "0.0053");
    ck_assert_str_eq(ic_fmt_ratio(172.564, b, sizeof(b)), "172.56");
    ck_assert_str_eq(ic_fmt_ratio(0, b, sizeof(b)), "0.00");
    ck_assert_str_eq(ic_fmt_ratio(NAN, b, sizeof(b)), "-");
    ck_assert_str_eq(ic_fmt_ratio(INFINITY, b, sizeof(b)), "inf");
}
END_TEST

Suite *suite_bench_fit(void)
{
    Suite *s = suite_create("bench_fit");
    TCase *tc = tcase_create("stats");
    tcase_add_test(tc, stats_known_values);
    tcase_add_test(tc, linfit_exact_and_weighted);
    suite_add_tcase(s, tc);
    tc = tcase_create("hockney");
    tcase_add_test(tc, hockney_exact_recovery);
    tcase_add_test(tc, hockney_noisy_within_one_percent);
    tcase_add_test(tc, hockney_degenerate);
    tcase_add_test(tc, hockney_breakpoint_regions);
    tcase_add_test(tc, hockney_three_regions);
    tcase_add_test(tc, split_fits_nonnegative);
    suite_add_tcase(s, tc);
    tc = tcase_create("bounds");
    tcase_add_test(tc, lower_bounds);
    tcase_add_test(tc, time_floor);
    tcase_add_test(tc, time_floor_nodes);
    suite_add_tcase(s, tc);
    tc = tcase_create("compare");
    tcase_add_test(tc, compare_verdicts);
    tcase_add_test(tc, ratio_text);
    suite_add_tcase(s, tc);
    return s;
}
