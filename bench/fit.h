/*
 * fit.h -- the statistics and model fits of intercom-bench, without MPI.
 *
 * Summary statistics of repeated timings (median, quartiles, extremes),
 * weighted linear least squares, Hockney's COMMS1/COMMS2 fit
 * t = (n + n_1/2) / r_inf with an optional breakpoint (a separate fit for
 * each side), and the alpha-beta-gamma lower bounds of the collectives.
 * Unit tests (tests/unit/check_bench_fit.c) link this file alone.
 */
#ifndef IC_BENCH_FIT_H
#define IC_BENCH_FIT_H

#include "algorithms.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ statistics */

typedef struct ic_stats {
    int n;
    double min, q1, median, q3, max, mean;
} ic_stats_t;

/* Statistics of x[0..n-1] (x is not modified; n == 0 gives NaNs).
 * Quartiles interpolate linearly between order statistics. */
void ic_stats(const double *x, int n, ic_stats_t *s);
double ic_median(const double *x, int n);

/* ------------------------------------------- vendor against InterCom */

/* The comparison of one point (coll): the vendor's and InterCom's times,
 * each a series of repetitions measured side by side.  A median is known
 * to within its relative half-width 1.57 IQR / sqrt(n) / median (the notch
 * of a box plot, McGill, Tukey and Larsen 1978: about a 95 % interval);
 * unlike the spread itself it shrinks with more repetitions.
 *   IC_CMP_NOISE   a median's half-width is above `spread` (e.g. 0.05):
 *                  the point says nothing;
 *   IC_CMP_FASTER  InterCom faster beyond noise: the two intervals apart,
 *                  and the ratio of medians vendor / InterCom above
 *                  1 + effect;
 *   IC_CMP_SLOWER  the mirror image;
 *   IC_CMP_SAME    otherwise (the intervals overlap, or the medians
 *                  differ by at most `effect`, e.g. 0.03). */
typedef enum ic_cmp {
    IC_CMP_SAME = 0,
    IC_CMP_FASTER,
    IC_CMP_SLOWER,
    IC_CMP_NOISE,
    IC_CMP_KINDS
} ic_cmp_t;

double ic_rel_spread(const ic_stats_t *s);       /* (q3 - q1) / median; NaN if undefined */
double ic_median_halfwidth(const ic_stats_t *s); /* 1.57 (q3 - q1) / sqrt(n) / median */
ic_cmp_t ic_compare(const ic_stats_t *vendor, const ic_stats_t *ic, double spread, double effect);
const char *ic_cmp_name(ic_cmp_t c); /* "same", "faster", "slower", "noise" */

/* Counts of verdicts and the geometric mean of the ratios of the points
 * that are not noise. */
typedef struct ic_cmp_summary {
    int count[IC_CMP_KINDS];
    double log_sum; /* sum of ln(ratio) over the points that are not noise */
    int nlog;
} ic_cmp_summary_t;

void ic_cmp_add(ic_cmp_summary_t *s, ic_cmp_t c, double ratio);
double ic_cmp_geomean(const ic_cmp_summary_t *s); /* NaN without points */
int ic_cmp_total(const ic_cmp_summary_t *s);

/* ----------------------------------------------------- least squares */

/* Weighted least squares y = a + b x over n points; w == NULL weighs every
 * point 1.  Returns 0, or -1 if the points do not determine a line (fewer
 * than two distinct x with positive weight). */
int ic_linfit(const double *x, const double *y, const double *w, int n, double *a, double *b);

/* ------------------------------------- the split send/receive model
 *
 * tan-strazdins-2002 section 3.1 (measured by split.c): S(n) = alpha_s +
 * beta_s n, R(n) = alpha_r + beta_r n.  Every term is a start-up or a time
 * per byte, never negative: where noisy timings fit a negative one (a
 * falling slope between two close long lengths, a send time above the
 * one-way time), it is refitted at 0 and `clamped` counts those terms. */
typedef struct ic_split_fit {
    double alpha_s, beta_s, alpha_r, beta_r; /* seconds, seconds per byte */
    int ok;
    int clamped; /* terms fitted negative and set to 0 */
} ic_split_fit_t;

/* Least-squares lines through S = send and R = oneway - send (residuals
 * relative to the one-way time): 0, or -1 (f->ok = 0, NaN terms). */
int ic_bench_split_fit(const size_t *sizes, int ns, const double *oneway, const double *send,
                       ic_split_fit_t *f);
/* The same as the plain model of `coll` and `patterns` takes alpha and
 * beta (t0 of the shortest messages, r_inf of the longest): beta_s and
 * beta_r the slopes of lines through the lengths of IC_SPLIT_LONG bytes and
 * more (unweighted), alpha_s and alpha_r the rest of S and R at the
 * shortest length.  Fewer than two such lengths, or the longest under
 * twice the shortest of them (a slope over a few percent of length is
 * noise): ic_bench_split_fit. */
#define IC_SPLIT_LONG 65536
int ic_bench_split_fit_ends(const size_t *sizes, int ns, const double *oneway, const double *send,
                            ic_split_fit_t *f);

/* ------------------------------------------------------ Hockney's model
 *
 * t(n) = (n + n_1/2) / r_inf = t0 + n / r_inf  (hockney-comms1-comms2, eq. 2)
 *   r_inf   asymptotic rate (bytes/s)
 *   n_1/2   half-performance message length (bytes)
 *   t0      start-up time n_1/2 / r_inf (s), eq. 5
 *   pi0     specific performance 1 / t0 = r_inf / n_1/2 (1/s), eq. 8
 *
 * The fit minimises relative residuals (each point weighted by 1/t^2): over
 * message lengths spanning several decades an unweighted fit would let the
 * noise of the longest messages decide the start-up time.
 */
typedef struct ic_hockney {
    double r_inf, n_half, t0, pi0;
    double rms_rel;    /* root mean square of (t_fit - t) / t over the points */
    double n_lo, n_hi; /* shortest and longest message fitted                 */
    int npoints;
} ic_hockney_t;

/* Fit points (n[i], t[i]), i < m, t[i] > 0.  Returns 0, or -1 when they
 * cannot be fitted (fewer than two distinct lengths, non-positive times);
 * a non-increasing time gives r_inf = +inf and n_1/2 = NaN (still 0). */
int ic_hockney_fit(const double *n, const double *t, int m, ic_hockney_t *out);

/* Predicted time of message length n. */
double ic_hockney_time(const ic_hockney_t *h, double n);

/* Piecewise fits: the points split into regions at the breakpoints
 * bps[0] < bps[1] < ... (a length n belongs to region k when
 * bps[k-1] <= n < bps[k]); fits[k] is region k's own fit (nbp + 1 entries).
 * Returns 0, or -1 when a region has fewer than two distinct lengths or
 * cannot be fitted. */
int ic_hockney_fit_regions(const double *n, const double *t, int m, const double *bps, int nbp,
                           ic_hockney_t *fits);

/* Breakpoints chosen from the data (segmented least squares): for k = 1 ..
 * max_bps the k breakpoints that minimise the total sum of squared relative
 * residuals with at least min_points distinct lengths per region; a
 * larger k is kept only if its sum is below half the sum of the number
 * kept so far (starting from one region).  A breakpoint sits at the
 * geometric mean of the two lengths around it.  Returns their number (0:
 * one region describes the data); bps needs max_bps entries. */
int ic_hockney_breakpoints(const double *n, const double *t, int m, int min_points, int max_bps,
                           double *bps);

/* One line for a piecewise fit: start-up from the shortest messages, rate
 * from the longest (Hockney: pi0 characterises short messages, r_inf long
 * ones): t0 and pi0 of fits[0], r_inf of fits[nregions-1], n_1/2 =
 * r_inf t0; n_lo, n_hi and npoints span all regions; rms_rel is NaN.  With
 * one region this is that region's fit. */
void ic_hockney_summary(const ic_hockney_t *fits, int nregions, ic_hockney_t *out);

/* The time of the region of length n (bps as for ic_hockney_fit_regions). */
double ic_hockney_time_regions(const ic_hockney_t *fits, const double *bps, int nbp, double n);

/* ------------------------------------------------------- lower bounds
 *
 * Lower bound of a collective on p ranks moving n bytes in the
 * alpha-beta-gamma model (n: the whole vector: the broadcast message, the
 * reduced vector, the gathered or scattered vector):
 *   bcast                    max(ceil(log2 p) alpha, n beta)
 *   allgather(v)             ceil(log2 p) alpha + (p-1)/p n beta
 *   reduce_scatter(_block)   ceil(log2 p) alpha + (p-1)/p n (beta + gamma)
 *   allreduce                ceil(log2 p) alpha + (p-1)/p n (2 beta + gamma)
 *   reduce                   ceil(log2 p) alpha + n beta + (p-1)/p n gamma
 *   scatter(v), gather(v)    ceil(log2 p) alpha + (p-1)/p n beta
 *   barrier                  ceil(log2 p) alpha
 * The first four are the classic bounds of the alpha-beta-gamma model; the
 * others are the same arguments applied to the rooted operations (the
 * root sends or receives (p-1)/p n bytes; every element of a reduce's
 * result depends on other ranks' inputs, so its root receives at least n
 * bytes, as a broadcast's root sends them: the bound a pipelined chain
 * approaches).
 * p == 1 gives 0.
 */
double ic_lower_bound(ic_coll_t coll, int p, double n, double alpha, double beta, double gamma);

/* A bound no measured time can beat, what intercom-bench coll reports:
 * one start-up (alpha_min, the shortest one-way time seen, not a fitted
 * intercept) plus the bytes terms of ic_lower_bound at the fitted beta and
 * gamma.  ic_lower_bound's ceil(log2 p) alpha is the bound of the
 * alpha-beta model, in which a sender waits a whole alpha between
 * messages; real networks overlap start-ups (LogP's overhead against
 * latency), and a k-nomial tree or a vendor's linear scatter beats it in
 * simulation too.  p == 1 gives 0. */
double ic_time_floor(ic_coll_t coll, int p, double n, double alpha_min, double beta, double gamma);

/* The same on `nodes` nodes of q = p / nodes ranks each (nodes >= 2,
 * q >= 2; otherwise ic_time_floor): a node's ranks share its link, so the
 * bytes terms are those of ic_lower_bound with the nodes as its ranks (at
 * beta, the q ranks of a node sharing the combining at gamma / q), or of
 * the p ranks at node_beta (the fastest link a rank has), whichever is
 * more.  On 4 nodes of 2 an allgather's bound is (3/4) n beta, not
 * (7/8) n beta: a node's blocks reach its other rank inside the node. */
double ic_time_floor_nodes(ic_coll_t coll, int p, int nodes, double n, double alpha_min,
                           double beta, double gamma, double node_beta);

#ifdef __cplusplus
}
#endif
#endif /* IC_BENCH_FIT_H */
