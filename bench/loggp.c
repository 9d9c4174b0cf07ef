/*
 * loggp.c -- `intercom-bench loggp`: the LogGP signature of MPI
 * point-to-point by the method of al-tawil-moritz-mpi-loggp (section 3.1,
 * Figure 2).
 *
 * Two processes, P1 = rank 0 and P2 = the peer, on a communicator of their
 * own.  For each send mode (send, ssend: blocking standard and synchronous;
 * isend, issend: their nonblocking forms, completed with an MPI_Test loop)
 * and message length, after `--warmup` (default 10) untimed iterations:
 *
 *   P1: Barrier; timer11 = Send;      [Test loop]  Barrier; wait delta;
 *       timer12 = Receive; [Test loop]
 *   P2: Barrier; timer21 = Receive;   [Test loop]  Barrier;
 *       timer22 = Send;    [Test loop]
 *
 * delta is twice the one-way time of a ping-pong of that length plus 50 us,
 * so the returned message has arrived (or, beyond the eager limit, waits
 * for the receive) when P1 receives.  Medians over the repetitions give:
 *   o_s  send overhead: timer11
 *   o_r  receive overhead: timer12 (blocking: the delayed receive, so no
 *        idle time is included), timer21 for the nonblocking modes (the time
 *        around posting the receive)
 *   L    latency, an upper bound: timer21 - timer12 of the blocking
 *        synchronous mode (a receive that waits for the first data, minus
 *        the receive overhead) at the shortest length
 *   g    gap: approximated by the send overhead at the shortest length (the
 *        paper's argument: MPI's overheads exceed the network's gap)
 *   G    gap per byte: (blocking receive - nonblocking receive overhead) / k
 *        at the longest length k, per send mode family
 * The paper also repeats with the barrier's root moved; MPI_Barrier has no
 * root, so that step does not apply.
 */
#include "config.h"
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_LOGGP = 201 };

typedef struct mode {
    const char *name;
    int sync, nonblocking;
} send_mode_t;

static const send_mode_t all_modes[] = {
    {"send", 0, 0},
    {"ssend", 1, 0},
    {"isend", 0, 1},
    {"issend", 1, 1},
};
#define NMODES 4

static void complete(MPI_Request *req)
{
    int flag = 0;
    while (!flag)
        MPI_Test(req, &flag, MPI_STATUS_IGNORE);
}

static double do_send(const send_mode_t *m, char *buf, int n, int to, MPI_Comm pc, MPI_Request *req)
{
    double t0 = MPI_Wtime();
    if (m->nonblocking && m->sync)
        MPI_Issend(buf, n, MPI_BYTE, to, TAG_LOGGP, pc, req);
    else if (m->nonblocking)
        MPI_Isend(buf, n, MPI_BYTE, to, TAG_LOGGP, pc, req);
    else if (m->sync)
        MPI_Ssend(buf, n, MPI_BYTE, to, TAG_LOGGP, pc);
    else
        MPI_Send(buf, n, MPI_BYTE, to, TAG_LOGGP, pc);
    double t = MPI_Wtime() - t0;
    if (m->nonblocking)
        complete(req);
    return t;
}

static double do_recv(const send_mode_t *m, char *buf, int n, int from, MPI_Comm pc,
                      MPI_Request *req)
{
    double t0 = MPI_Wtime();
    if (m->nonblocking)
        MPI_Irecv(buf, n, MPI_BYTE, from, TAG_LOGGP, pc, req);
    else
        MPI_Recv(buf, n, MPI_BYTE, from, TAG_LOGGP, pc, MPI_STATUS_IGNORE);
    double t = MPI_Wtime() - t0;
    if (m->nonblocking)
        complete(req);
    return t;
}

/* One iteration of Figure 2; t[0..1] get this process's two timers. */
static void iteration(const send_mode_t *m, int me, int n, double delta, char *sbuf, char *rbuf,
                      MPI_Comm pc, double *t)
{
    MPI_Request req;
    MPI_Barrier(pc);
    if (me == 0)
        t[0] = do_send(m, sbuf, n, 1, pc, &req);
    else
        t[0] = do_recv(m, rbuf, n, 0, pc, &req);
    MPI_Barrier(pc);
    if (me == 0) {
        ic_bench_sleep(delta);
        t[1] = do_recv(m, rbuf, n, 1, pc, &req);
    } else {
        t[1] = do_send(m, sbuf, n, 0, pc, &req);
    }
}

/* Results of one (mode, length) on P1. */
typedef struct cell {
    int reps;
    double o_s, t12, t21, t22, delta;
    double oneway, send; /* that length's ping-pong: one-way time, P1's
                            send call (split.c: ic_bench_split_pingpong) */
} cell_t;

static double o_r_of(const send_mode_t *m, const cell_t *c)
{
    return m->nonblocking ? c->t21 : c->t12;
}

/* tan-strazdins-2002 section 3.1's split model (split.c), from the
 * ping-pong of every length (its "modified ping-pong"). */
static void split_model(ic_report_t *r, const cell_t *cells, const size_t *sizes, int ns)
{
    double *oneway = malloc(2 * (size_t)ns * sizeof(double)), *send = oneway + ns;
    if (!oneway)
        return;
    for (int i = 0; i < ns; i++) {
        oneway[i] = cells[i].oneway;
        send[i] = cells[i].send;
    }
    ic_split_fit_t f;
    ic_bench_split_fit(sizes, ns, oneway, send, &f);
    ic_bench_split_report(r, sizes, ns, oneway, send, &f);
    free(oneway);
}

int ic_bench_loggp(ic_bench_t *b)
{
    int use[NMODES], idx[NMODES];
    for (int k = 0; k < NMODES; k++)
        use[k] = b->o.modes == NULL;
    if (b->o.modes) {
        const char *names[NMODES];
        for (int k = 0; k < NMODES; k++)
            names[k] = all_modes[k].name;
        int n = ic_bench_names(b, b->o.modes, names, NMODES, idx, "send mode");
        if (n < 0)
            return 2;
        for (int k = 0; k < n; k++)
            use[idx[k]] = 1;
    }
    int peer = ic_bench_peer(b, "loggp");
    if (peer < 0)
        return 2;
    ic_bench_defaults(b, 0.3, 600, 10); /* the paper: 600 repetitions, 10 warm-up */
    int warmup = b->o.warmup;
    ic_bench_describe(b);
    size_t *sizes = NULL;
    int ns;
    if (b->o.sizes || b->o.min_size >= 0 || b->o.max_size >= 0) {
        ns = ic_bench_sizes(b, 16, 1u << 20, 4, &sizes);
    } else {
        static const size_t dflt[] = {16, 1024, 10000, 65536, 262144, 1048576};
        ns = (int)(sizeof(dflt) / sizeof(dflt[0]));
        sizes = ic_bench_alloc(b, sizeof(dflt));
        memcpy(sizes, dflt, sizeof(dflt));
    }
    size_t maxb = 1;
    for (int i = 0; i < ns; i++)
        if (sizes[i] > maxb)
            maxb = sizes[i];

    int me = b->rank == 0 ? 0 : b->rank == peer ? 1 : -1;
    MPI_Comm pc = MPI_COMM_NULL;
    MPI_Comm_split(b->comm, me >= 0 ? 0 : MPI_UNDEFINED, me, &pc);
    cell_t *cells = ic_bench_alloc(b, (size_t)NMODES * (size_t)ns * sizeof(cell_t));
    memset(cells, 0, (size_t)NMODES * (size_t)ns * sizeof(cell_t));
    int failures = 0;
    if (me >= 0) {
        char *sbuf = ic_bench_alloc(b, maxb), *rbuf = ic_bench_alloc(b, maxb);
        ic_bench_fill(sbuf, maxb, (unsigned)me + 1);
        double *t = NULL;
        int tcap = 0, step = 0, nsteps = 0;
        for (int k = 0; k < NMODES; k++)
            nsteps += use[k] * ns;
        for (int i = 0; i < ns; i++) {
            int n = (int)sizes[i];
            double send, oneway = ic_bench_split_pingpong(me, n, sbuf, rbuf, pc, &send);
            double delta = 2 * oneway + 50e-6;
            for (int k = 0; k < NMODES; k++) {
                if (!use[k])
                    continue;
                const send_mode_t *m = &all_modes[k];
                if (me == 0)
                    ic_bench_progress(b, "[loggp] %s %d B (%d/%d)", m->name, n, ++step, nsteps);
                double tw[2], t0 = MPI_Wtime();
                for (int w = 0; w < warmup; w++)
                    iteration(m, me, n, delta, sbuf, rbuf, pc, tw);
                double per = warmup > 0 ? (MPI_Wtime() - t0) / warmup : delta;
                int reps = ic_bench_reps(b, per);
                MPI_Bcast(&reps, 1, MPI_INT, 0, pc);
                if (reps > tcap) {
                    free(t);
                    tcap = reps;
                    t = ic_bench_alloc(b, 2 * (size_t)tcap * sizeof(double));
                }
                memset(rbuf, 0, (size_t)n);
                for (int r = 0; r < reps; r++)
                    iteration(m, me, n, delta, sbuf, rbuf, pc, t + 2 * r);
                failures += ic_bench_check(rbuf, (size_t)n, me == 0 ? 2 : 1) != 0;
                /* P2's timers go to P1 */
                double *mine = ic_bench_alloc(b, 2 * (size_t)reps * sizeof(double));
                for (int r = 0; r < reps; r++) {
                    mine[r] = t[2 * r];
                    mine[reps + r] = t[2 * r + 1];
                }
                if (me == 1) {
                    MPI_Send(mine, 2 * reps, MPI_DOUBLE, 0, TAG_LOGGP, pc);
                } else {
                    double *other = ic_bench_alloc(b, 2 * (size_t)reps * sizeof(double));
                    MPI_Recv(other, 2 * reps, MPI_DOUBLE, 1, TAG_LOGGP, pc, MPI_STATUS_IGNORE);
                    cell_t *c = &cells[k * ns + i];
                    c->reps = reps;
                    c->delta = delta;
                    c->oneway = oneway;
                    c->send = send;
                    c->o_s = ic_median(mine, reps);
                    c->t12 = ic_median(mine + reps, reps);
                    c->t21 = ic_median(other, reps);
                    c->t22 = ic_median(other + reps, reps);
                    free(other);
                }
                free(mine);
            }
        }
        ic_bench_progress_end(b);
        int fsum = 0;
        MPI_Reduce(&failures, &fsum, 1, MPI_INT, MPI_SUM, 0, pc);
        failures = fsum;
        free(t);
        free(sbuf);
        free(rbuf);
        MPI_Comm_free(&pc);
    }
    if (b->rank == 0) {
        ic_report_t *r = b->rep;
        b->failures += failures;
        ic_report_info(r, "pair", "P1 = rank 0, P2 = rank %d", peer);
        ic_report_info(r, "method",
                       "al-tawil-moritz Figure 2: barrier-separated, delayed "
                       "receive on P1, %d warm-up iterations",
                       warmup);
        ic_rtable_t *t = ic_report_table(r, "loggp", "Timers per send mode and length (medians)");
        ic_rtable_col(t, "mode", NULL, IC_COL_STR, NULL);
        ic_rtable_col(t, "bytes", NULL, IC_COL_INT, NULL);
        ic_rtable_col(t, "reps", NULL, IC_COL_INT, NULL);
        ic_rtable_col(t, "o_s", NULL, IC_COL_SEC, NULL);
        ic_rtable_col(t, "o_r", NULL, IC_COL_SEC, NULL);
        ic_rtable_col(t, "recv_wait", "recv(timer21)", IC_COL_SEC, NULL);
        ic_rtable_col(t, "recv_delayed", "recv(timer12)", IC_COL_SEC, NULL);
        ic_rtable_col(t, "send_back", "send(timer22)", IC_COL_SEC, NULL);
        ic_rtable_col(t, "delta", NULL, IC_COL_SEC, NULL);
        for (int k = 0; k < NMODES; k++)
            for (int i = 0; use[k] && i < ns; i++) {
                const cell_t *c = &cells[k * ns + i];
                ic_rtable_row(t);
                ic_rtable_str(t, all_modes[k].name);
                ic_rtable_num(t, (double)sizes[i]);
                ic_rtable_num(t, c->reps);
                ic_rtable_num(t, c->o_s);
                ic_rtable_num(t, o_r_of(&all_modes[k], c));
                ic_rtable_num(t, c->t21);
                ic_rtable_num(t, c->t12);
                ic_rtable_num(t, c->t22);
                ic_rtable_num(t, c->delta);
            }
        /* L: blocking synchronous (or, without it, blocking standard) */
        int lk = use[1] ? 1 : use[0] ? 0 : -1;
        double L = lk >= 0 ? cells[lk * ns].t21 - cells[lk * ns].t12 : NAN;
        if (lk >= 0) {
            ic_report_info_num(r, "L", L, "s");
            ic_report_info(r, "L from", "%s, %zu B: timer21 - timer12", all_modes[lk].name,
                           sizes[0]);
        }
        double kmax = (double)sizes[ns - 1];
        ic_rtable_t *sg = ic_report_table(r, "signature", "LogGP signature per send mode");
        ic_rtable_col(sg, "mode", NULL, IC_COL_STR, NULL);
        ic_rtable_col(sg, "L", NULL, IC_COL_SEC, NULL);
        ic_rtable_col(sg, "o_s_short", "o_s(short)", IC_COL_SEC, NULL);
        ic_rtable_col(sg, "o_s_long", "o_s(long)", IC_COL_SEC, NULL);
        ic_rtable_col(sg, "o_r_short", "o_r(short)", IC_COL_SEC, NULL);
        ic_rtable_col(sg, "o_r_long", "o_r(long)", IC_COL_SEC, NULL);
        ic_rtable_col(sg, "g", NULL, IC_COL_SEC, NULL);
        ic_rtable_col(sg, "G", "G[s/B]", IC_COL_NUM, "%.4g");
        ic_rtable_col(sg, "1/G", "1/G[MB/s]", IC_COL_NUM, "%.4g");
        for (int k = 0; k < NMODES; k++) {
            if (!use[k])
                continue;
            const send_mode_t *m = &all_modes[k];
            const cell_t *s0 = &cells[k * ns], *s1 = &cells[k * ns + ns - 1];
            /* G of the family: the blocking mode's delayed receive minus the
             * nonblocking mode's receive overhead, at the longest length */
            int kb = m->sync ? 1 : 0, kn = m->sync ? 3 : 2;
            double G = NAN;
            if (use[kb] && use[kn] && kmax > 0)
                G = (cells[kb * ns + ns - 1].t12 - cells[kn * ns + ns - 1].t21) / kmax;
            else if (use[kb] && ns > 1 && kmax > (double)sizes[0])
                G = (cells[kb * ns + ns - 1].t12 - cells[kb * ns].t12) / (kmax - (double)sizes[0]);
            ic_rtable_row(sg);
            ic_rtable_str(sg, m->name);
            ic_rtable_num(sg, L);
            ic_rtable_num(sg, s0->o_s);
            ic_rtable_num(sg, s1->o_s);
            ic_rtable_num(sg, o_r_of(m, s0));
            ic_rtable_num(sg, o_r_of(m, s1));
            ic_rtable_num(sg, s0->o_s);
            ic_rtable_num(sg, G);
            ic_rtable_num(sg, G > 0 ? 1e-6 / G : NAN);
        }
        ic_report_note(r,
                       "short = %zu B, long = %zu B; g = o_s(short) (the paper's "
                       "approximation); G from the longest length",
                       sizes[0], sizes[ns - 1]);
        for (int k = 0; k < NMODES; k++)
            if (use[k]) { /* the ping-pong is the same for every mode */
                split_model(r, cells + k * ns, sizes, ns);
                break;
            }
        if (failures)
            ic_report_note(r, "VERIFICATION FAILED: %d transfers delivered wrong data", failures);
        if (b->o.plot) {
            ic_plot_t *pl =
                ic_plot_new(b->o.plot, "loggp-overheads", "LogGP overheads against message length",
                            "message length", "time [s]", 1, 1);
            double *x = ic_bench_alloc(b, 2 * (size_t)ns * sizeof(double)), *y = x + ns;
            for (int k = 0; k < NMODES; k++) {
                if (!use[k])
                    continue;
                char name[64];
                for (int i = 0; i < ns; i++) {
                    x[i] = (double)sizes[i];
                    y[i] = cells[k * ns + i].o_s;
                }
                snprintf(name, sizeof(name), "o_s %s", all_modes[k].name);
                ic_plot_series(pl, name, IC_PLOT_LINESPOINTS, x, y, ns);
                for (int i = 0; i < ns; i++)
                    y[i] = o_r_of(&all_modes[k], &cells[k * ns + i]);
                snprintf(name, sizeof(name), "o_r %s", all_modes[k].name);
                ic_plot_series(pl, name, IC_PLOT_LINESPOINTS, x, y, ns);
            }
            free(x);
            b->failures += ic_plot_finish(pl) != 0;
        }
    }
    free(cells);
    free(sizes);
    return 0;
}
