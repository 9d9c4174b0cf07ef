/*
 * fit.c -- statistics, least squares, Hockney fits and lower bounds for
 * intercom-bench (see fit.h).  No MPI.
 */
#include "fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ statistics */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Quantile q of sorted s[0..n-1], linear interpolation between ranks. */
static double quantile_sorted(const double *s, int n, double q)
{
    double pos = q * (n - 1);
    int i = (int)floor(pos);
    if (i >= n - 1)
        return s[n - 1];
    double f = pos - i;
    return s[i] + f * (s[i + 1] - s[i]);
}

void ic_stats(const double *x, int n, ic_stats_t *s)
{
    memset(s, 0, sizeof(*s));
    s->n = n;
    if (n <= 0) {
        s->min = s->q1 = s->median = s->q3 = s->max = s->mean = NAN;
        return;
    }
    double *c = malloc((size_t)n * sizeof(*c));
    if (!c) {
        s->min = s->q1 = s->median = s->q3 = s->max = s->mean = NAN;
        return;
    }
    double sum = 0;
    for (int i = 0; i < n; i++) {
        c[i] = x[i];
        sum += x[i];
    }
    qsort(c, (size_t)n, sizeof(*c), cmp_double);
    s->min = c[0];
    s->max = c[n - 1];
    s->q1 = quantile_sorted(c, n, 0.25);
    s->median = quantile_sorted(c, n, 0.5);
    s->q3 = quantile_sorted(c, n, 0.75);
    s->mean = sum / n;
    free(c);
}

double ic_rel_spread(const ic_stats_t *s)
{
    return s->n > 0 && s->median > 0 ? (s->q3 - s->q1) / s->median : NAN;
}

double ic_median_halfwidth(const ic_stats_t *s)
{
    return s->n > 0 && s->median > 0 ? 1.57 * (s->q3 - s->q1) / sqrt((double)s->n) / s->median
                                     : NAN;
}

ic_cmp_t ic_compare(const ic_stats_t *vendor, const ic_stats_t *ic, double spread, double effect)
{
    double hv = ic_median_halfwidth(vendor), hi = ic_median_halfwidth(ic);
    if (!(hv <= spread) || !(hi <= spread)) /* NaN too: nothing measured */
        return IC_CMP_NOISE;
    double ratio = vendor->median / ic->median;
    double v_lo = vendor->median * (1 - hv), v_hi = vendor->median * (1 + hv);
    double i_lo = ic->median * (1 - hi), i_hi = ic->median * (1 + hi);
    if (i_hi < v_lo && ratio > 1 + effect)
        return IC_CMP_FASTER;
    if (i_lo > v_hi && ratio < 1 / (1 + effect))
        return IC_CMP_SLOWER;
    return IC_CMP_SAME;
}

const char *ic_cmp_name(ic_cmp_t c)
{
    static const char *const names[IC_CMP_KINDS] = {"same", "faster", "slower", "noise"};
    return c >= 0 && c < IC_CMP_KINDS ? names[c] : "?";
}

void ic_cmp_add(ic_cmp_summary_t *s, ic_cmp_t c, double ratio)
{
    if (c < 0 || c >= IC_CMP_KINDS)
        return;
    s->count[c]++;
    if (c != IC_CMP_NOISE && ratio > 0 && isfinite(ratio)) {
        s->log_sum += log(ratio);
        s->nlog++;
    }
}

double ic_cmp_geomean(const ic_cmp_summary_t *s)
{
    return s->nlog > 0 ? exp(s->log_sum / s->nlog) : NAN;
}

int ic_cmp_total(const ic_cmp_summary_t *s)
{
    int n = 0;
    for (int k = 0; k < IC_CMP_KINDS; k++)
        n += s->count[k];
    return n;
}

double ic_median(const double *x, int n)
{
    ic_stats_t s;
    ic_stats(x, n, &s);
    return s.median;
}

/* ----------------------------------------------------- least squares */

int ic_linfit(const double *x, const double *y, const double *w, int n, double *a, double *b)
{
    /* Centre on the weighted means for numerical stability. */
    double sw = 0, sx = 0, sy = 0;
    for (int i = 0; i < n; i++) {
        double wi = w ? w[i] : 1.0;
        if (!(wi > 0))
            continue;
        sw += wi;
        sx += wi * x[i];
        sy += wi * y[i];
    }
    if (!(sw > 0))
        return -1;
    double mx = sx / sw, my = sy / sw;
    double sxx = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        double wi = w ? w[i] : 1.0;
        if (!(wi > 0))
            continue;
        double dx = x[i] - mx;
        sxx += wi * dx * dx;
        sxy += wi * dx * (y[i] - my);
    }
    if (!(sxx > 0))
        return -1;
    *b = sxy / sxx;
    *a = my - *b * mx;
    return 0;
}

/* ------------------------------------- the split send/receive model */

/* y = a + b x by weighted least squares with a, b >= 0: a negative slope
 * refitted as b = 0 (a the weighted mean), then a negative intercept as a
 * = 0 (b the line through the origin), whatever is left negative 0.
 * Returns -1 when no line fits, else the number of terms clamped. */
static int nonneg_linfit(const double *x, const double *y, const double *w, int n, double *a,
                         double *b)
{
    if (ic_linfit(x, y, w, n, a, b) != 0)
        return -1;
    int clamped = 0;
    double sw = 0, swy = 0, swxy = 0, swxx = 0;
    for (int i = 0; i < n; i++) {
        double wi = w ? w[i] : 1.0;
        if (!(wi > 0))
            continue;
        sw += wi;
        swy += wi * y[i];
        swxy += wi * x[i] * y[i];
        swxx += wi * x[i] * x[i];
    }
    if (*b < 0) {
        *b = 0;
        *a = swy / sw;
        clamped++;
    }
    if (*a < 0) {
        *a = 0;
        *b = swxx > 0 && swxy > 0 ? swxy / swxx : 0;
        clamped++;
    }
    return clamped;
}

static void split_unfit(ic_split_fit_t *f)
{
    memset(f, 0, sizeof(*f));
    f->alpha_s = f->beta_s = f->alpha_r = f->beta_r = NAN;
}

int ic_bench_split_fit(const size_t *sizes, int ns, const double *oneway, const double *send,
                       ic_split_fit_t *f)
{
    split_unfit(f);
    if (ns < 1)
        return -1;
    double *x = malloc(4 * (size_t)ns * sizeof(double)), *S = x + ns, *R = S + ns, *w = R + ns;
    if (!x)
        return -1;
    for (int i = 0; i < ns; i++) {
        x[i] = (double)sizes[i];
        S[i] = send[i];
        R[i] = oneway[i] - send[i];
        w[i] = oneway[i] > 0 ? 1 / (oneway[i] * oneway[i]) : 0;
    }
    int cs = nonneg_linfit(x, S, w, ns, &f->alpha_s, &f->beta_s);
    int cr = cs < 0 ? -1 : nonneg_linfit(x, R, w, ns, &f->alpha_r, &f->beta_r);
    free(x);
    if (cs < 0 || cr < 0) {
        split_unfit(f);
        return -1;
    }
    f->ok = 1;
    f->clamped = cs + cr;
    return 0;
}

/* b >= 0 the slope of the long lengths, a >= 0 the rest at length x0 (the
 * slope kept when that rest is negative: the long lengths decide it). */
static int nonneg_ends(const double *x, const double *y, int n, double x0, double y0, double *a,
                       double *b)
{
    double a_long;
    if (ic_linfit(x, y, NULL, n, &a_long, b) != 0)
        return -1;
    int clamped = 0;
    if (*b < 0) {
        *b = 0;
        clamped++;
    }
    *a = y0 - *b * x0;
    if (*a < 0) {
        *a = 0;
        clamped++;
    }
    return clamped;
}

int ic_bench_split_fit_ends(const size_t *sizes, int ns, const double *oneway, const double *send,
                            ic_split_fit_t *f)
{
    int from = ns;
    while (from > 0 && sizes[from - 1] >= IC_SPLIT_LONG)
        from--;
    if (ns - from < 2 || sizes[ns - 1] < 2 * sizes[from]) /* no bandwidth region to speak of */
        return ic_bench_split_fit(sizes, ns, oneway, send, f);
    split_unfit(f);
    int nl = ns - from;
    double *x = malloc(3 * (size_t)nl * sizeof(double)), *S = x + nl, *R = S + nl;
    if (!x)
        return -1;
    for (int i = 0; i < nl; i++) {
        x[i] = (double)sizes[from + i];
        S[i] = send[from + i];
        R[i] = oneway[from + i] - send[from + i];
    }
    /* the slopes of the long messages, the rest of the shortest one's
     * time the start-ups */
    double x0 = (double)sizes[0];
    int cs = nonneg_ends(x, S, nl, x0, send[0], &f->alpha_s, &f->beta_s);
    int cr = cs < 0 ? -1 : nonneg_ends(x, R, nl, x0, oneway[0] - send[0], &f->alpha_r, &f->beta_r);
    free(x);
    if (cs < 0 || cr < 0) {
        split_unfit(f);
        return -1;
    }
    f->ok = 1;
    f->clamped = cs + cr;
    return 0;
}

/* ------------------------------------------------------ Hockney's model */

/* Number of distinct values among n[0..m-1]. */
static int distinct(const double *n, int m)
{
    int d = 0;
    for (int i = 0; i < m; i++) {
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = n[j] == n[i];
        d += !seen;
    }
    return d;
}

/* Sum of squared relative residuals of a fit t = a + b n. */
static double rel_ss(const double *n, const double *t, int m, double a, double b)
{
    double ss = 0;
    for (int i = 0; i < m; i++) {
        double r = (a + b * n[i] - t[i]) / t[i];
        ss += r * r;
    }
    return ss;
}

/* Fit t = a + b n with weights 1/t^2; returns the residual sum in *ss. */
static int rel_linfit(const double *n, const double *t, int m, double *a, double *b, double *ss)
{
    if (m < 2 || distinct(n, m) < 2)
        return -1;
    double *w = malloc((size_t)m * sizeof(*w));
    if (!w)
        return -1;
    int rc = 0;
    for (int i = 0; i < m && rc == 0; i++) {
        if (!(t[i] > 0) || !isfinite(t[i]))
            rc = -1;
        else
            w[i] = 1.0 / (t[i] * t[i]);
    }
    if (rc == 0)
        rc = ic_linfit(n, t, w, m, a, b);
    free(w);
    if (rc == 0 && ss)
        *ss = rel_ss(n, t, m, *a, *b);
    return rc;
}

static void hockney_from_line(double a, double b, const double *n, const double *t, int m,
                              ic_hockney_t *out)
{
    memset(out, 0, sizeof(*out));
    out->t0 = a;
    out->pi0 = a > 0 ? 1.0 / a : NAN;
    if (b > 0) {
        out->r_inf = 1.0 / b;
        out->n_half = a / b;
    } else {
        out->r_inf = INFINITY;
        out->n_half = NAN;
    }
    out->npoints = m;
    out->n_lo = INFINITY;
    out->n_hi = -INFINITY;
    for (int i = 0; i < m; i++) {
        if (n[i] < out->n_lo)
            out->n_lo = n[i];
        if (n[i] > out->n_hi)
            out->n_hi = n[i];
    }
    out->rms_rel = sqrt(rel_ss(n, t, m, a, b) / m);
}

int ic_hockney_fit(const double *n, const double *t, int m, ic_hockney_t *out)
{
    double a, b;
    memset(out, 0, sizeof(*out));
    if (rel_linfit(n, t, m, &a, &b, NULL) != 0)
        return -1;
    hockney_from_line(a, b, n, t, m, out);
    return 0;
}

double ic_hockney_time(const ic_hockney_t *h, double n)
{
    if (isinf(h->r_inf))
        return h->t0;
    return h->t0 + n / h->r_inf;
}

/* Copy the points with lo <= n < hi into (xn, xt); returns their number. */
static int pick_range(const double *n, const double *t, int m, double lo, double hi, double *xn,
                      double *xt)
{
    int k = 0;
    for (int i = 0; i < m; i++)
        if (n[i] >= lo && n[i] < hi) {
            xn[k] = n[i];
            xt[k] = t[i];
            k++;
        }
    return k;
}

int ic_hockney_fit_regions(const double *n, const double *t, int m, const double *bps, int nbp,
                           ic_hockney_t *fits)
{
    if (m <= 0 || nbp < 0)
        return -1;
    double *xn = malloc(2 * (size_t)m * sizeof(*xn));
    if (!xn)
        return -1;
    double *xt = xn + m;
    int rc = 0;
    for (int k = 0; k <= nbp && rc == 0; k++) {
        double lo = k > 0 ? bps[k - 1] : -INFINITY, hi = k < nbp ? bps[k] : INFINITY;
        int c = pick_range(n, t, m, lo, hi, xn, xt);
        rc = ic_hockney_fit(xn, xt, c, &fits[k]);
    }
    free(xn);
    return rc;
}

/* Breakpoint between the distinct lengths a < b. */
static double between(double a, double b)
{
    double g = sqrt(a * b);
    return g > a && g <= b ? g : b;
}

int ic_hockney_breakpoints(const double *n, const double *t, int m, int min_points, int max_bps,
                           double *bps)
{
    if (min_points < 2)
        min_points = 2;
    if (m < 2 || max_bps < 1)
        return 0;
    /* the distinct lengths, sorted */
    double *u = malloc(3 * (size_t)m * sizeof(*u));
    if (!u)
        return 0;
    double *xn = u + m, *xt = u + 2 * m;
    int nu = 0;
    for (int i = 0; i < m; i++) {
        int seen = 0;
        for (int j = 0; j < nu && !seen; j++)
            seen = u[j] == n[i];
        if (!seen)
            u[nu++] = n[i];
    }
    qsort(u, (size_t)nu, sizeof(*u), cmp_double);
    if (max_bps > nu / min_points - 1)
        max_bps = nu / min_points - 1;
    int kept = 0;
    if (max_bps < 1)
        goto out;
    /* cost[i * (nu + 1) + j]: residual sum of one region over u[i..j-1] */
    size_t w = (size_t)nu + 1;
    double *cost = malloc(w * w * sizeof(*cost));
    double *best = malloc((size_t)(max_bps + 1) * w * sizeof(*best));
    int *from = malloc((size_t)(max_bps + 1) * w * sizeof(*from));
    if (!cost || !best || !from) {
        free(cost);
        free(best);
        free(from);
        goto out;
    }
    for (int i = 0; i < nu; i++)
        for (int j = i + 1; j <= nu; j++) {
            double a, b, ss = INFINITY;
            if (j - i >= min_points) {
                double hi = j < nu ? u[j] : INFINITY;
                int c = pick_range(n, t, m, u[i], hi, xn, xt);
                if (rel_linfit(xn, xt, c, &a, &b, &ss) != 0)
                    ss = INFINITY;
            }
            cost[i * w + j] = ss;
        }
    /* best[k][j]: u[0..j-1] in k + 1 regions; from: where the last starts */
    for (int j = 0; j <= nu; j++) {
        best[j] = j > 0 ? cost[j] : INFINITY;
        from[j] = 0;
    }
    for (int k = 1; k <= max_bps; k++)
        for (int j = 0; j <= nu; j++) {
            double bv = INFINITY;
            int bi = -1;
            for (int i = 1; i < j; i++) {
                double v = best[(k - 1) * w + i] + cost[i * w + j];
                if (v < bv) {
                    bv = v;
                    bi = i;
                }
            }
            best[k * w + j] = bv;
            from[k * w + j] = bi;
        }
    for (int k = 1; k <= max_bps; k++)
        if (best[k * w + nu] < 0.5 * best[kept * w + nu])
            kept = k;
    for (int k = kept, j = nu; k > 0; k--) {
        int i = from[k * w + j];
        bps[k - 1] = between(u[i - 1], u[i]);
        j = i;
    }
    free(cost);
    free(best);
    free(from);
out:
    free(u);
    return kept;
}

void ic_hockney_summary(const ic_hockney_t *fits, int nregions, ic_hockney_t *out)
{
    if (nregions <= 1) {
        *out = fits[0];
        return;
    }
    memset(out, 0, sizeof(*out));
    out->t0 = fits[0].t0;
    out->pi0 = fits[0].pi0;
    out->r_inf = fits[nregions - 1].r_inf;
    out->n_half = isinf(out->r_inf) ? NAN : out->r_inf * out->t0;
    out->n_lo = fits[0].n_lo;
    out->n_hi = fits[nregions - 1].n_hi;
    for (int k = 0; k < nregions; k++)
        out->npoints += fits[k].npoints;
    out->rms_rel = NAN;
}

double ic_hockney_time_regions(const ic_hockney_t *fits, const double *bps, int nbp, double n)
{
    int k = 0;
    while (k < nbp && n >= bps[k])
        k++;
    return ic_hockney_time(&fits[k], n);
}

/* ------------------------------------------------------- lower bounds */

double ic_lower_bound(ic_coll_t coll, int p, double n, double alpha, double beta, double gamma)
{
    if (p <= 1)
        return 0;
    double lg = ic_ceil_log2(p) * alpha;
    double f = (double)(p - 1) / p * n;
    switch (coll) {
    case IC_COLL_BCAST:
        return fmax(lg, n * beta);
    case IC_COLL_ALLGATHER:
    case IC_COLL_ALLGATHERV:
    case IC_COLL_SCATTER:
    case IC_COLL_SCATTERV:
    case IC_COLL_GATHER:
    case IC_COLL_GATHERV:
        return lg + f * beta;
    case IC_COLL_REDUCE: /* every element of the root's result needs one from outside */
        return lg + n * beta + f * gamma;
    case IC_COLL_REDUCE_SCATTER:
    case IC_COLL_REDUCE_SCATTER_BLOCK:
        return lg + f * (beta + gamma);
    case IC_COLL_ALLREDUCE:
        return lg + f * (2 * beta + gamma);
    case IC_COLL_BARRIER:
        return lg;
    default:
        return NAN;
    }
}

double ic_time_floor(ic_coll_t coll, int p, double n, double alpha_min, double beta, double gamma)
{
    if (p <= 1)
        return 0;
    return alpha_min + ic_lower_bound(coll, p, n, 0, beta, gamma);
}

double ic_time_floor_nodes(ic_coll_t coll, int p, int nodes, double n, double alpha_min,
                           double beta, double gamma, double node_beta)
{
    if (nodes < 2 || nodes >= p || p % nodes || !(node_beta >= 0))
        return ic_time_floor(coll, p, n, alpha_min, beta, gamma);
    int q = p / nodes;
    double across = ic_lower_bound(coll, nodes, n, 0, beta, gamma / q);
    double inside = ic_lower_bound(coll, p, n, 0, node_beta, gamma);
    return alpha_min + fmax(across, inside);
}
