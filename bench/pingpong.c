/*
 * pingpong.c -- COMMS1 (pingpong) and COMMS2 (exchange) of
 * hockney-comms1-comms2-pingpong, and the ping-pong sweep other
 * subcommands measure alpha and beta with.
 *
 * COMMS1: rank 0 sends n bytes to the peer, which receives them and
 * immediately returns them; half the round trip is the time t(n) of one
 * message.  COMMS2: both ranks send to each other at once (MPI_Sendrecv)
 * and then return what they received; half of that is the time of one
 * exchange, which moves 2n bytes (both directions count, so a full-duplex
 * link shows up as a higher r_inf than COMMS1's).  The medians over the
 * repetitions are fitted by least squares (relative residuals) to
 * t = (n + n_1/2) / r_inf, reporting r_inf, n_1/2, t0 = n_1/2 / r_inf and
 * pi0 = 1 / t0.  Where the protocol changes with the length (eager and
 * rendezvous sends, a shaper's burst), one line does not describe the
 * points: as Hockney's COMMS1 reads a breakpoint and fits each region
 * separately, --breakpoint N[,M] gives them, and by default they are
 * chosen from the data (fit.h: at most two, each must halve the residual).
 * With several regions the headline takes r_inf from the longest messages
 * and t0, pi0 from the shortest (n_1/2 = r_inf t0); the table lists every
 * region's own fit and the one-region fit.
 */
#include "config.h"
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_PP = 101, TAG_ST = 102, TAG_ST_READY = 103, TAG_ST_DONE = 104 };

/* One timed repetition; returns the one-way time on rank a (and peer). */
static double one_rep(MPI_Comm comm, int me, int a, int peer, size_t bytes, int exchange,
                      char *sbuf, char *rbuf, char *rbuf2)
{
    int other = me == a ? peer : a;
    int n = (int)bytes;
    double t0 = MPI_Wtime();
    if (exchange) {
        MPI_Sendrecv(sbuf, n, MPI_BYTE, other, TAG_PP, rbuf, n, MPI_BYTE, other, TAG_PP, comm,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(rbuf, n, MPI_BYTE, other, TAG_PP, rbuf2, n, MPI_BYTE, other, TAG_PP, comm,
                     MPI_STATUS_IGNORE);
    } else if (me == a) {
        MPI_Send(sbuf, n, MPI_BYTE, peer, TAG_PP, comm);
        MPI_Recv(rbuf, n, MPI_BYTE, peer, TAG_PP, comm, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(rbuf, n, MPI_BYTE, a, TAG_PP, comm, MPI_STATUS_IGNORE);
        MPI_Send(rbuf, n, MPI_BYTE, a, TAG_PP, comm);
    }
    return (MPI_Wtime() - t0) / 2;
}

/* The repetitions of one length of a sweep between rank a and its peer:
 * decided on rank a from the warm-up's time tw, broadcast from there
 * (every rank of comm calls), with room for n arrays of them in *t on the
 * active ranks (*cap times each, grown as needed). */
static int length_reps(ic_bench_t *b, MPI_Comm comm, int me, int a, int active, double tw, int n,
                       double **t, int *cap)
{
    int reps = me == a ? ic_bench_reps(b, 2 * tw) : 0;
    MPI_Bcast(&reps, 1, MPI_INT, a, comm);
    if (active && reps > *cap) {
        free(*t);
        *cap = reps;
        *t = ic_bench_alloc(b, (size_t)n * (size_t)reps * sizeof(double));
    }
    return reps;
}

int ic_bench_pingpong_sweep(ic_bench_t *b, MPI_Comm comm, int a, int peer, const size_t *sizes,
                            int nsizes, int exchange, const char *progress_tag, ic_pp_result_t *res)
{
    int me;
    MPI_Comm_rank(comm, &me);
    int active = (me == a || me == peer) && a != peer;
    size_t maxb = 0;
    for (int i = 0; i < nsizes; i++)
        if (sizes[i] > maxb)
            maxb = sizes[i];
    memset(res, 0, sizeof(*res));
    if (me == a)
        res->stats = ic_bench_alloc(b, (size_t)(nsizes ? nsizes : 1) * sizeof(ic_stats_t));
    char *sbuf = NULL, *rbuf = NULL, *rbuf2 = NULL;
    double *t = NULL;
    int tcap = 0, failures = 0;
    unsigned my_seed = (unsigned)me + 1, other_seed = (unsigned)(me == a ? peer : a) + 1;
    if (active) {
        sbuf = ic_bench_alloc(b, maxb);
        rbuf = ic_bench_alloc(b, maxb);
        rbuf2 = ic_bench_alloc(b, maxb);
        ic_bench_fill(sbuf, maxb, my_seed);
    }
    for (int i = 0; i < nsizes; i++) {
        size_t bytes = sizes[i];
        if (me == a)
            ic_bench_progress(b, "[%s] %zu B (%d/%d)", progress_tag, bytes, i + 1, nsizes);
        double tw = 0;
        if (active)
            for (int w = 0; w < (b->o.warmup > 0 ? b->o.warmup : 1); w++)
                tw = one_rep(comm, me, a, peer, bytes, exchange, sbuf, rbuf, rbuf2);
        int reps = length_reps(b, comm, me, a, active, tw, 1, &t, &tcap);
        if (!active)
            continue;
        /* Stale data must not pass the checks below. */
        memset(rbuf, 0, bytes);
        memset(rbuf2, 0, bytes);
        for (int r = 0; r < reps; r++)
            t[r] = one_rep(comm, me, a, peer, bytes, exchange, sbuf, rbuf, rbuf2);
        if (exchange)
            failures += ic_bench_check(rbuf, bytes, other_seed) != 0 ||
                        ic_bench_check(rbuf2, bytes, my_seed) != 0;
        else
            failures += ic_bench_check(rbuf, bytes, me == a ? my_seed : other_seed) != 0;
        if (me == a)
            ic_stats(t, reps, &res->stats[i]);
    }
    if (me == a)
        ic_bench_progress_end(b);
    MPI_Reduce(&failures, &res->failures, 1, MPI_INT, MPI_SUM, a, comm);
    free(t);
    free(sbuf);
    free(rbuf);
    free(rbuf2);
    return 0;
}

/* One timed run of k messages of `bytes` from rank a to each of the np
 * peers (sent in turn, nonblocking, one buffer; a stream to one peer, or
 * the links' test's to two): each peer posts its receives (into rbuf, k *
 * bytes) and says so, rank a starts its clock after all have, and stops
 * at the last empty answer.  Returns the time on rank a, 0 elsewhere. */
static double peer_streams(MPI_Comm comm, int me, int a, const int *peers, int np, int k,
                           size_t bytes, const char *sbuf, char *rbuf)
{
    int n = (int)bytes;
    MPI_Request req[4 * IC_STREAM_K];
    MPI_Status st[4 * IC_STREAM_K]; /* not MPI_STATUSES_IGNORE: MPICH's access attributes */
    for (int j = 0; j < np; j++)
        if (me == peers[j]) {
            for (int i = 0; i < k; i++)
                MPI_Irecv(rbuf + (size_t)i * bytes, n, MPI_BYTE, a, TAG_ST, comm, &req[i]);
            MPI_Send(NULL, 0, MPI_BYTE, a, TAG_ST_READY, comm);
            MPI_Waitall(k, req, st);
            MPI_Send(NULL, 0, MPI_BYTE, a, TAG_ST_DONE, comm);
            return 0;
        }
    if (me != a)
        return 0;
    for (int j = 0; j < np; j++)
        MPI_Recv(NULL, 0, MPI_BYTE, peers[j], TAG_ST_READY, comm, MPI_STATUS_IGNORE);
    double t0 = MPI_Wtime();
    int c = 0;
    for (int i = 0; i < k; i++)
        for (int j = 0; j < np; j++)
            MPI_Isend(sbuf, n, MPI_BYTE, peers[j], TAG_ST, comm, &req[c++]);
    MPI_Waitall(c, req, st);
    for (int j = 0; j < np; j++)
        MPI_Recv(NULL, 0, MPI_BYTE, peers[j], TAG_ST_DONE, comm, MPI_STATUS_IGNORE);
    return MPI_Wtime() - t0;
}

int ic_bench_stream_sweep(ic_bench_t *b, MPI_Comm comm, int a, int peer, const size_t *sizes,
                          int nsizes, ic_stream_result_t *res)
{
    int me;
    MPI_Comm_rank(comm, &me);
    int active = (me == a || me == peer) && a != peer;
    const int k = IC_STREAM_K;
    size_t maxb = 0;
    for (int i = 0; i < nsizes; i++)
        if (sizes[i] > maxb)
            maxb = sizes[i];
    memset(res, 0, sizeof(*res));
    if (me == a) {
        res->one = ic_bench_alloc(b, (size_t)(nsizes ? nsizes : 1) * sizeof(ic_stats_t));
        res->many = ic_bench_alloc(b, (size_t)(nsizes ? nsizes : 1) * sizeof(ic_stats_t));
    }
    char *sbuf = NULL, *rbuf = NULL;
    double *t1 = NULL, *tk = NULL;
    int tcap = 0, failures = 0;
    if (active) {
        sbuf = ic_bench_alloc(b, maxb ? maxb : 1);
        rbuf = ic_bench_alloc(b, (maxb ? maxb : 1) * (size_t)k);
        ic_bench_fill(sbuf, maxb, (unsigned)a + 1);
    }
    for (int i = 0; i < nsizes; i++) {
        size_t bytes = sizes[i];
        if (me == a)
            ic_bench_progress(b, "[stream] %zu B (%d/%d)", bytes, i + 1, nsizes);
        double tw = 0;
        if (active)
            for (int w = 0; w < (b->o.warmup > 0 ? b->o.warmup : 1); w++) {
                peer_streams(comm, me, a, &peer, 1, 1, bytes, sbuf, rbuf);
                tw = peer_streams(comm, me, a, &peer, 1, k, bytes, sbuf, rbuf);
            }
        int reps = length_reps(b, comm, me, a, active, tw, 2, &t1, &tcap);
        if (!active)
            continue;
        tk = t1 + tcap;
        memset(rbuf, 0, bytes * (size_t)k);
        for (int r = 0; r < reps; r++) {
            t1[r] = peer_streams(comm, me, a, &peer, 1, 1, bytes, sbuf, rbuf);
            tk[r] = peer_streams(comm, me, a, &peer, 1, k, bytes, sbuf, rbuf);
        }
        if (me == peer)
            for (int j = 0; j < k; j++)
                failures += ic_bench_check(rbuf + (size_t)j * bytes, bytes, (unsigned)a + 1) != 0;
        if (me == a) {
            ic_stats(t1, reps, &res->one[i]);
            ic_stats(tk, reps, &res->many[i]);
        }
    }
    if (me == a)
        ic_bench_progress_end(b);
    MPI_Reduce(&failures, &res->failures, 1, MPI_INT, MPI_SUM, a, comm);
    free(t1);
    free(sbuf);
    free(rbuf);
    return 0;
}

double ic_bench_links(ic_bench_t *b, MPI_Comm comm, int a, int p1, int p2, size_t bytes,
                      int *failures)
{
    int me, k = IC_STREAM_K;
    MPI_Comm_rank(comm, &me);
    *failures = 0;
    if (p1 == a || p2 == a || p1 == p2 || p1 < 0 || p2 < 0)
        return 0;
    int active = me == a || me == p1 || me == p2, one[1] = {p1}, two[2] = {p1, p2};
    char *sbuf = NULL, *rbuf = NULL;
    if (active) {
        sbuf = ic_bench_alloc(b, bytes ? bytes : 1);
        rbuf = ic_bench_alloc(b, (bytes ? bytes : 1) * 2 * (size_t)k);
        ic_bench_fill(sbuf, bytes, (unsigned)a + 1);
        memset(rbuf, 0, bytes * 2 * (size_t)k);
    }
    enum { REPS = 5 };
    double t1[REPS], t2[REPS];
    for (int r = -1; r < REPS; r++) { /* r = -1: the warm-up */
        double x = active ? peer_streams(comm, me, a, one, 1, 2 * k, bytes, sbuf, rbuf) : 0;
        double y = active ? peer_streams(comm, me, a, two, 2, k, bytes, sbuf, rbuf) : 0;
        if (r >= 0) {
            t1[r] = x;
            t2[r] = y;
        }
    }
    int bad = 0;
    if (me == p1 || me == p2)
        for (int j = 0; j < (me == p1 ? 2 * k : k); j++)
            bad += ic_bench_check(rbuf + (size_t)j * bytes, bytes, (unsigned)a + 1) != 0;
    MPI_Reduce(&bad, failures, 1, MPI_INT, MPI_SUM, a, comm);
    free(sbuf);
    free(rbuf);
    if (me != a)
        return 0;
    double m1 = ic_median(t1, REPS), m2 = ic_median(t2, REPS);
    return m2 > 0 ? m1 / m2 : 0;
}

int ic_bench_pingpong_fit(const size_t *sizes, int nsizes, const ic_stats_t *stats,
                          double bytes_scale, int nbp, const size_t *bps, ic_pp_fit_t *out)
{
    memset(out, 0, sizeof(*out));
    double *n = malloc((size_t)(nsizes ? nsizes : 1) * 2 * sizeof(double));
    if (!n)
        return -1;
    double *t = n + nsizes;
    int m = 0;
    for (int i = 0; i < nsizes; i++) {
        if (!(stats[i].median > 0))
            continue;
        n[m] = (double)sizes[i] * bytes_scale;
        t[m] = stats[i].median;
        m++;
    }
    int rc = -1;
    if (ic_hockney_fit(n, t, m, &out->all) == 0) {
        rc = 0;
        int k = 0;
        if (nbp < 0) {
            k = ic_hockney_breakpoints(n, t, m, 3, 2, out->bps);
        } else {
            if (nbp > IC_PP_MAX_REGIONS - 1)
                nbp = IC_PP_MAX_REGIONS - 1;
            for (int i = 0; i < nbp; i++)
                out->bps[i] = (double)bps[i] * bytes_scale;
            k = nbp;
        }
        if (k > 0 && ic_hockney_fit_regions(n, t, m, out->bps, k, out->region) != 0) {
            rc = 1; /* a given breakpoint left a region too small */
            k = 0;
        }
        if (k == 0)
            out->region[0] = out->all;
        out->nregions = k + 1;
        ic_hockney_summary(out->region, out->nregions, &out->summary);
    }
    free(n);
    return rc;
}

double ic_bench_pingpong_fit_time(const ic_pp_fit_t *f, double n)
{
    return ic_hockney_time_regions(f->region, f->bps, f->nregions - 1, n);
}

void ic_bench_pingpong_fit_rows(ic_rtable_t *t, const char *label, const char *prefix,
                                const ic_pp_fit_t *f)
{
    ic_bench_fit_row(t, label, &f->summary);
    for (int k = 0; f->nregions > 1 && k < f->nregions; k++) {
        char l[96];
        if (k == 0)
            snprintf(l, sizeof(l), "%sn < %.0f", prefix, f->bps[0]);
        else if (k == f->nregions - 1)
            snprintf(l, sizeof(l), "%sn >= %.0f", prefix, f->bps[k - 1]);
        else
            snprintf(l, sizeof(l), "%s%.0f <= n < %.0f", prefix, f->bps[k - 1], f->bps[k]);
        ic_bench_fit_row(t, l, &f->region[k]);
    }
}

static void plot_fits(ic_bench_t *b, const char *name, const size_t *sizes, int ns,
                      const ic_stats_t *st, double scale, const ic_pp_fit_t *fit)
{
    double *x = ic_bench_alloc(b, (size_t)ns * 5 * sizeof(double));
    double *y = x + ns, *fa = x + 2 * ns, *fr = x + 3 * ns, *rate = x + 4 * ns;
    for (int i = 0; i < ns; i++) {
        x[i] = (double)sizes[i] * scale;
        y[i] = st[i].median;
        fa[i] = ic_hockney_time(&fit->all, x[i]);
        fr[i] = ic_bench_pingpong_fit_time(fit, x[i]);
        rate[i] = x[i] / y[i] / 1e6;
    }
    const ic_hockney_t *h = &fit->summary;
    char fig[64], title[160];
    snprintf(fig, sizeof(fig), "%s-time", name);
    snprintf(title, sizeof(title), "%s: t = (n + n_1/2) / r_inf (r_inf %.4g MB/s, t0 %.3g us)",
             name, h->r_inf / 1e6, h->t0 * 1e6);
    ic_plot_t *pl = ic_plot_new(b->o.plot, fig, title, "n [bytes]", "time [s]", 1, 1);
    ic_plot_series(pl, "measured (median)", IC_PLOT_POINTS, x, y, ns);
    ic_plot_series(pl, "fit, one region", IC_PLOT_LINES, x, fa, ns);
    if (fit->nregions > 1)
        ic_plot_series(pl, "fit per region", IC_PLOT_LINES, x, fr, ns);
    b->failures += ic_plot_finish(pl) != 0;
    snprintf(fig, sizeof(fig), "%s-rate", name);
    pl = ic_plot_new(b->o.plot, fig, title, "n [bytes]", "rate n/t [MB/s]", 1, 0);
    ic_plot_series(pl, "measured", IC_PLOT_LINESPOINTS, x, rate, ns);
    for (int i = 0; i < ns; i++)
        fr[i] = x[i] / fr[i] / 1e6;
    ic_plot_series(pl, "fit: r_inf / (1 + n_1/2 / n)", IC_PLOT_LINES, x, fr, ns);
    b->failures += ic_plot_finish(pl) != 0;
    free(x);
}

int ic_bench_pingpong(ic_bench_t *b, int exchange)
{
    const char *name = exchange ? "exchange" : "pingpong";
    int peer = ic_bench_peer(b, name);
    if (peer < 0)
        return 2;
    ic_bench_defaults(b, 0.2, 1000, 2);
    ic_bench_describe(b);
    size_t *sizes;
    int ns = ic_bench_sizes(b, 1, 4u << 20, 2, &sizes);
    ic_pp_result_t res;
    ic_bench_pingpong_sweep(b, b->comm, 0, peer, sizes, ns, exchange, name, &res);
    if (b->rank != 0) /* the results are rank 0's (res.stats is NULL elsewhere) */
        goto out;
    double scale = exchange ? 2 : 1;
    b->failures += res.failures;
    ic_report_t *r = b->rep;
    ic_report_info(r, "pair", "ranks 0 and %d", peer);
    ic_report_info(r, "method",
                   exchange ? "COMMS2: MPI_Sendrecv both ways, then returned; t = half the "
                              "round, n = 2 x message (both directions)"
                            : "COMMS1: MPI_Send, echoed back with MPI_Send; t = half the "
                              "round trip");

    ic_pp_fit_t fit;
    int frc = ic_bench_pingpong_fit(sizes, ns, res.stats, scale, b->o.nbps, b->o.bps, &fit);
    if (frc < 0) {
        ic_report_note(r, "the points could not be fitted");
    } else {
        const ic_hockney_t *h = &fit.summary;
        ic_report_info_num(r, "r_inf", h->r_inf / 1e6, "MB/s");
        ic_report_info_num(r, "n_1/2", h->n_half, "B");
        ic_report_info_num(r, "t0", h->t0, "s");
        ic_report_info_num(r, "pi0", h->pi0 / 1e3, "kHz");
        if (fit.nregions == 2)
            ic_report_info(r, "breakpoints", "%.0f B", fit.bps[0]);
        else if (fit.nregions > 2)
            ic_report_info(r, "breakpoints", "%.0f B, %.0f B%s", fit.bps[0], fit.bps[1],
                           fit.nregions > 3 ? ", ..." : "");
        if (frc == 1)
            ic_report_note(r, "a breakpoint leaves fewer than two lengths in a region: one "
                              "region fitted");
        if (fit.nregions > 1)
            ic_report_note(r,
                           "%d regions: r_inf is the longest messages' rate, t0 and pi0 the "
                           "shortest messages' start-up, n_1/2 = r_inf t0 (each region's "
                           "own fit in the table)",
                           fit.nregions);
    }

    ic_rtable_t *t = ic_report_table(r, name, exchange ? "COMMS2 exchange" : "COMMS1 ping-pong");
    ic_rtable_col(t, "bytes", NULL, IC_COL_INT, NULL);
    ic_rtable_col(t, "n", exchange ? "n(2x)" : "n", IC_COL_INT, NULL);
    ic_rtable_col(t, "reps", NULL, IC_COL_INT, NULL);
    ic_rtable_col(t, "t", "t(median)", IC_COL_SEC, NULL);
    ic_rtable_col(t, "t_min", NULL, IC_COL_SEC, NULL);
    ic_rtable_col(t, "t_max", NULL, IC_COL_SEC, NULL);
    ic_rtable_col(t, "rate", "rate[MB/s]", IC_COL_NUM, "%.4g");
    ic_rtable_col(t, "t_fit", NULL, IC_COL_SEC, NULL);
    ic_rtable_col(t, "err", "err[%]", IC_COL_NUM, "%+.1f");
    for (int i = 0; i < ns; i++) {
        double n = (double)sizes[i] * scale, tm = res.stats[i].median;
        double tf = frc >= 0 ? ic_bench_pingpong_fit_time(&fit, n) : NAN;
        ic_rtable_row(t);
        ic_rtable_num(t, (double)sizes[i]);
        ic_rtable_num(t, n);
        ic_rtable_num(t, res.stats[i].n);
        ic_rtable_num(t, tm);
        ic_rtable_num(t, res.stats[i].min);
        ic_rtable_num(t, res.stats[i].max);
        ic_rtable_num(t, tm > 0 ? n / tm / 1e6 : NAN);
        ic_rtable_num(t, tf);
        ic_rtable_num(t, tm > 0 ? (tf - tm) / tm * 100 : NAN);
    }
    if (frc >= 0) {
        ic_rtable_t *f =
            ic_bench_fit_table(b, "fits", "Least-squares fits of t = (n + n_1/2) / r_inf");
        ic_bench_pingpong_fit_rows(f, fit.nregions > 1 ? "summary" : "all", "  ", &fit);
        if (fit.nregions > 1)
            ic_bench_fit_row(f, "one region", &fit.all);
        if (b->o.plot)
            plot_fits(b, name, sizes, ns, res.stats, scale, &fit);
    }
    if (res.failures)
        ic_report_note(r, "VERIFICATION FAILED: %d sizes returned wrong data", res.failures);
out:
    free(res.stats);
    free(sizes);
    return 0;
}
