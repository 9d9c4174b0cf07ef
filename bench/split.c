/*
 * split.c -- tan-strazdins-2002 section 3.1's split send/receive model,
 * S(n) = alpha_s + beta_s n and R(n) = alpha_r + beta_r n, from its
 * "modified ping-pong" (see bench.h): `loggp` reports it beside the LogGP
 * signature, `patterns` prices every pattern with it.
 *
 * A ping-pong of each length between two processes: the sender's part
 * S(n) is the time of P1's MPI_Send call in it, the receiver's R(n) the
 * rest of the one-way time (half the round trip), so that alpha = alpha_s
 * + alpha_r and beta = beta_s + beta_r.  Each is a least-squares line over
 * the lengths, residuals relative to the one-way time (as the Hockney fits
 * of fit.h: over decades of lengths the longest would decide the
 * start-ups otherwise).  On the Bunyip the paper found alpha_s = 24 us,
 * alpha_r = 180 us, beta_s = 0.0825 us and beta_r = 1.063 us per unit of n.
 */
#include "config.h"
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_SPLIT = 211 };

double ic_bench_split_pingpong(int me, int n, char *sbuf, char *rbuf, MPI_Comm pc, double *send)
{
    enum { WARM = IC_SPLIT_WARMUP, REPS = IC_SPLIT_REPS };
    double t[REPS], s[REPS];
    for (int r = -WARM; r < REPS; r++) {
        double t0 = MPI_Wtime(), t1 = t0;
        if (me == 0) {
            MPI_Send(sbuf, n, MPI_BYTE, 1, TAG_SPLIT, pc);
            t1 = MPI_Wtime();
            MPI_Recv(rbuf, n, MPI_BYTE, 1, TAG_SPLIT, pc, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(rbuf, n, MPI_BYTE, 0, TAG_SPLIT, pc, MPI_STATUS_IGNORE);
            MPI_Send(sbuf, n, MPI_BYTE, 0, TAG_SPLIT, pc);
        }
        if (r >= 0) {
            t[r] = (MPI_Wtime() - t0) / 2;
            s[r] = t1 - t0;
        }
    }
    double est[2] = {ic_median(t, REPS), ic_median(s, REPS)};
    MPI_Bcast(est, 2, MPI_DOUBLE, 0, pc);
    *send = est[1];
    return est[0];
}

void ic_bench_split_report(ic_report_t *r, const size_t *sizes, int ns, const double *oneway,
                           const double *send, const ic_split_fit_t *f)
{
    ic_rtable_t *t = ic_report_table(r, "split", "Split send/receive model (ping-pong)");
    ic_rtable_col(t, "bytes", NULL, IC_COL_INT, NULL);
    ic_rtable_col(t, "oneway", "one-way", IC_COL_SEC, NULL);
    ic_rtable_col(t, "S", "S(n)", IC_COL_SEC, NULL);
    ic_rtable_col(t, "R", "R(n)", IC_COL_SEC, NULL);
    ic_rtable_col(t, "S_fit", "S fit", IC_COL_SEC, NULL);
    ic_rtable_col(t, "R_fit", "R fit", IC_COL_SEC, NULL);
    for (int i = 0; i < ns; i++) {
        double x = (double)sizes[i];
        ic_rtable_row(t);
        ic_rtable_num(t, x);
        ic_rtable_num(t, oneway[i]);
        ic_rtable_num(t, send[i]);
        ic_rtable_num(t, oneway[i] - send[i]);
        ic_rtable_num(t, f->ok ? f->alpha_s + f->beta_s * x : NAN);
        ic_rtable_num(t, f->ok ? f->alpha_r + f->beta_r * x : NAN);
    }
    if (f->ok) {
        ic_report_info_num(r, "alpha_s", f->alpha_s, "s");
        ic_report_info_num(r, "beta_s", f->beta_s, "s/B");
        ic_report_info_num(r, "alpha_r", f->alpha_r, "s");
        ic_report_info_num(r, "beta_r", f->beta_r, "s/B");
    }
    ic_report_note(r,
                   "split model (tan-strazdins-2002 3.1): S(n) = alpha_s + beta_s n is the "
                   "time of rank 0's MPI_Send in a ping-pong, R(n) = alpha_r + beta_r n the rest "
                   "of its one-way time (medians of %d after %d untimed); least-squares lines over "
                   "the lengths, residuals relative to the one-way time%s",
                   IC_SPLIT_REPS, IC_SPLIT_WARMUP, f->ok ? "" : " (not enough lengths to fit)");
    if (f->ok && f->clamped)
        ic_report_note(r, "split model: %d term%s fitted negative (noisy timings) and set to 0",
                       f->clamped, f->clamped == 1 ? "" : "s");
}

int ic_bench_split_measure(ic_bench_t *b, int peer, const size_t *sizes, int ns, double *oneway,
                           double *send)
{
    int me = b->rank == 0 ? 0 : b->rank == peer ? 1 : -1, failures = 0;
    MPI_Comm pc = MPI_COMM_NULL;
    MPI_Comm_split(b->comm, me >= 0 ? 0 : MPI_UNDEFINED, me, &pc);
    if (me >= 0) {
        size_t maxb = 1;
        for (int i = 0; i < ns; i++)
            if (sizes[i] > maxb)
                maxb = sizes[i];
        char *sbuf = ic_bench_alloc(b, maxb), *rbuf = ic_bench_alloc(b, maxb);
        ic_bench_fill(sbuf, maxb, (unsigned)me + 1);
        for (int i = 0; i < ns; i++) {
            if (me == 0)
                ic_bench_progress(b, "[split] %zu B (%d/%d)", sizes[i], i + 1, ns);
            memset(rbuf, 0, sizes[i]);
            oneway[i] = ic_bench_split_pingpong(me, (int)sizes[i], sbuf, rbuf, pc, &send[i]);
            failures += ic_bench_check(rbuf, sizes[i], me == 0 ? 2 : 1) != 0;
        }
        free(sbuf);
        free(rbuf);
        MPI_Comm_free(&pc);
    }
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, b->comm);
    MPI_Bcast(oneway, ns, MPI_DOUBLE, 0, b->comm);
    MPI_Bcast(send, ns, MPI_DOUBLE, 0, b->comm);
    return all;
}
