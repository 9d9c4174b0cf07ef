/*
 * point.c -- see point.h.
 */
#include "config.h"
#include "point.h"
#include "choose.h"
#include "intercom.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ic_bench_type(const char *name, MPI_Datatype *t)
{
    if (!name || !strcmp(name, "int"))
        *t = MPI_INT;
    else if (!strcmp(name, "double"))
        *t = MPI_DOUBLE;
    else if (!strcmp(name, "float"))
        *t = MPI_FLOAT;
    else if (!strcmp(name, "long"))
        *t = MPI_LONG;
    else
        return -1;
    return 0;
}

/* Small integers (|v| <= 510): sums over up to 2^20 ranks are exact in
 * every type, so any summation order gives the same bits. */
static void fill_values(char *buf, size_t n, MPI_Datatype t, int rank)
{
    for (size_t i = 0; i < n; i++) {
        long v = (long)(((size_t)rank * 131u + i * 7u + 3u) % 1021u) - 510;
        if (t == MPI_INT)
            ((int *)buf)[i] = (int)v;
        else if (t == MPI_DOUBLE)
            ((double *)buf)[i] = (double)v;
        else if (t == MPI_FLOAT)
            ((float *)buf)[i] = (float)v;
        else
            ((long *)buf)[i] = v;
    }
}

static int is_v(ic_coll_t c)
{
    return c == IC_COLL_ALLGATHERV || c == IC_COLL_GATHERV || c == IC_COLL_SCATTERV ||
           c == IC_COLL_REDUCE_SCATTER;
}

/* Simulated ranks are threads of one process (SimGrid's SMPI), so a point
 * of 16 MiB on 512 ranks would hold 24 GiB of buffers in it.  Beyond
 * IC_POINT_SHARED_FROM bytes of vector over all ranks (the same decision on
 * every rank) its buffers come from SMPI's shared malloc: every rank's map
 * the same few pages, SMPI skips copying them, and the simulated times stay
 * what they are (the network model does not look at the bytes), but the
 * results mean nothing: the point is not compared (check "shared").  On a
 * real machine never. */
static int shared_point(const ic_point_t *pt)
{
#ifdef SMPI_H
    return (double)pt->total * (double)pt->esz * (double)pt->p > (double)IC_POINT_SHARED_FROM;
#else
    (void)pt;
    return 0;
#endif
}

static void *point_alloc(ic_bench_t *b, const ic_point_t *pt, size_t bytes)
{
#ifdef SMPI_H
    if (pt->shared) {
        void *p = SMPI_SHARED_MALLOC(bytes ? bytes : 1);
        if (!p)
            return ic_bench_alloc(b, (size_t)-1); /* aborts */
        return p;
    }
#endif
    (void)pt;
    return ic_bench_alloc(b, bytes);
}

/* Lay out a point of about `bytes` bytes; allocates the buffers. */
void ic_point_setup(ic_bench_t *b, ic_point_t *pt, ic_coll_t c, size_t bytes, MPI_Datatype t,
                    int root)
{
    memset(pt, 0, sizeof(*pt));
    pt->comm = b->comm;
    pt->c = c;
    pt->p = b->size;
    pt->rank = b->rank;
    pt->root = root;
    pt->type = t;
    int sz;
    MPI_Type_size(t, &sz);
    pt->esz = (size_t)sz;
    int p = pt->p, me = pt->rank, is_root = me == root;
    size_t elems = bytes / pt->esz;
    pt->count = elems > 0 ? elems : 1;
    pt->blk = elems / (size_t)p > 0 ? elems / (size_t)p : 1;
    pt->counts = ic_bench_alloc(b, (size_t)p * sizeof(int));
    pt->displs = ic_bench_alloc(b, (size_t)p * sizeof(int));
    size_t tot = 0;
    for (int i = 0; i < p; i++) {
        size_t k = pt->blk;
        if (is_v(c)) /* 3/4 and 5/4 of the even block, alternating */
            k = i % 2 ? pt->blk + pt->blk / 4 : pt->blk - pt->blk / 4;
        pt->counts[i] = (int)k;
        pt->displs[i] = (int)tot;
        tot += k;
    }
    size_t own = (size_t)pt->counts[me], in = 0, out = 0;
    int sig = 1; /* is the result defined on this rank */
    switch (c) {
    case IC_COLL_BCAST:
        pt->total = pt->count;
        in = is_root ? pt->count : 0;
        out = pt->count;
        break;
    case IC_COLL_REDUCE:
    case IC_COLL_ALLREDUCE:
        pt->total = pt->count;
        in = out = pt->count;
        sig = c == IC_COLL_ALLREDUCE || is_root;
        break;
    case IC_COLL_ALLGATHER:
    case IC_COLL_ALLGATHERV:
        pt->total = tot;
        in = own;
        out = tot;
        break;
    case IC_COLL_REDUCE_SCATTER:
    case IC_COLL_REDUCE_SCATTER_BLOCK:
        pt->total = tot;
        in = tot;
        out = own;
        break;
    case IC_COLL_SCATTER:
    case IC_COLL_SCATTERV:
        pt->total = tot;
        in = is_root ? tot : 0;
        out = own;
        break;
    case IC_COLL_GATHER:
    case IC_COLL_GATHERV:
        pt->total = tot;
        in = own;
        out = is_root ? tot : 0;
        sig = is_root;
        break;
    default: /* barrier */
        pt->total = 0;
        sig = 0;
        break;
    }
    pt->sbytes = in * pt->esz;
    pt->rbytes = out * pt->esz;
    pt->shared = shared_point(pt);
    pt->cmp_bytes = sig && !pt->shared ? pt->rbytes : 0;
    pt->sbuf = point_alloc(b, pt, pt->sbytes);
    pt->out[0] = point_alloc(b, pt, pt->rbytes);
    pt->out[1] = point_alloc(b, pt, pt->rbytes);
    fill_values(pt->sbuf, in, t, me);
}

static void point_free(const ic_point_t *pt, void *buf)
{
#ifdef SMPI_H
    if (pt->shared) {
        SMPI_SHARED_FREE(buf);
        return;
    }
#endif
    (void)pt;
    free(buf);
}

void ic_point_free(ic_point_t *pt)
{
    free(pt->counts);
    free(pt->displs);
    point_free(pt, pt->sbuf);
    point_free(pt, pt->out[0]);
    point_free(pt, pt->out[1]);
}

/* Inputs in place, outputs poisoned. */
void ic_point_reset(ic_point_t *pt, int lib)
{
    if (pt->c == IC_COLL_BCAST && pt->rank == pt->root)
        memcpy(pt->out[lib], pt->sbuf, pt->rbytes);
    else if (pt->rbytes)
        memset(pt->out[lib], 0xA5, pt->rbytes);
}

/* ------------------------------------------------------------- calls */

int ic_point_call(const ic_point_t *pt, int lib)
{
    MPI_Comm comm = pt->comm;
    MPI_Datatype t = pt->type;
    int root = pt->root, n = (int)pt->count, blk = (int)pt->blk;
    int own = pt->counts[pt->rank];
    void *s = pt->sbuf, *r = pt->out[lib];
    const int *cs = pt->counts, *ds = pt->displs;
    int ic = lib == IC_LIB_IC;
    switch (pt->c) {
    case IC_COLL_BCAST:
        return ic ? IC_Bcast(r, n, t, root, comm) : MPI_Bcast(r, n, t, root, comm);
    case IC_COLL_REDUCE:
        return ic ? IC_Reduce(s, r, n, t, MPI_SUM, root, comm)
                  : MPI_Reduce(s, r, n, t, MPI_SUM, root, comm);
    case IC_COLL_ALLREDUCE:
        return ic ? IC_Allreduce(s, r, n, t, MPI_SUM, comm)
                  : MPI_Allreduce(s, r, n, t, MPI_SUM, comm);
    case IC_COLL_ALLGATHER:
        return ic ? IC_Allgather(s, blk, t, r, blk, t, comm)
                  : MPI_Allgather(s, blk, t, r, blk, t, comm);
    case IC_COLL_ALLGATHERV:
        return ic ? IC_Allgatherv(s, own, t, r, cs, ds, t, comm)
                  : MPI_Allgatherv(s, own, t, r, cs, ds, t, comm);
    case IC_COLL_REDUCE_SCATTER:
        return ic ? IC_Reduce_scatter(s, r, cs, t, MPI_SUM, comm)
                  : MPI_Reduce_scatter(s, r, cs, t, MPI_SUM, comm);
    case IC_COLL_REDUCE_SCATTER_BLOCK:
        return ic ? IC_Reduce_scatter_block(s, r, blk, t, MPI_SUM, comm)
                  : MPI_Reduce_scatter_block(s, r, blk, t, MPI_SUM, comm);
    case IC_COLL_SCATTER:
        return ic ? IC_Scatter(s, blk, t, r, blk, t, root, comm)
                  : MPI_Scatter(s, blk, t, r, blk, t, root, comm);
    case IC_COLL_SCATTERV:
        return ic ? IC_Scatterv(s, cs, ds, t, r, own, t, root, comm)
                  : MPI_Scatterv(s, cs, ds, t, r, own, t, root, comm);
    case IC_COLL_GATHER:
        return ic ? IC_Gather(s, blk, t, r, blk, t, root, comm)
                  : MPI_Gather(s, blk, t, r, blk, t, root, comm);
    case IC_COLL_GATHERV:
        return ic ? IC_Gatherv(s, own, t, r, cs, ds, t, root, comm)
                  : MPI_Gatherv(s, own, t, r, cs, ds, t, root, comm);
    default:
        return ic ? IC_Barrier(comm) : MPI_Barrier(comm);
    }
}

/* One timed call of one library on this rank, `settle` seconds after the
 * ranks met in a barrier. */
double ic_point_timed(const ic_point_t *pt, int lib, int *errors, double settle)
{
    ic_point_reset((ic_point_t *)pt, lib);
    if (settle > 0) {
        MPI_Barrier(pt->comm);
        ic_bench_sleep(settle);
    }
    MPI_Barrier(pt->comm);
    double t0 = MPI_Wtime();
    int rc = ic_point_call(pt, lib);
    double t = MPI_Wtime() - t0;
    *errors += rc != MPI_SUCCESS;
    return t;
}

size_t ic_point_unit(const ic_point_t *pt)
{
    switch (pt->c) {
    case IC_COLL_BCAST: /* src/collectives.c */
        return ic_bcast_unit((size_t)pt->count * pt->esz, pt->p);
    case IC_COLL_REDUCE:
    case IC_COLL_ALLREDUCE:
    case IC_COLL_REDUCE_SCATTER:
    case IC_COLL_REDUCE_SCATTER_BLOCK:
        return pt->esz;
    default: /* the gather family works in bytes (src/call.c) */
        return 1;
    }
}

size_t ic_point_args(const ic_point_t *pt, ic_coll_args_t *a, size_t *counts)
{
    int p = pt->p;
    memset(a, 0, sizeof(*a));
    a->coll = pt->c;
    a->size = p;
    a->root = pt->root;
    a->commutative = 1;
    /* the benchmark's reductions are MPI_SUM: exact in any order on the
     * integer types of --type (src/datatype.c, ic_op_exact) */
    a->exact = pt->type == MPI_INT || pt->type == MPI_LONG;
    size_t elem = ic_point_unit(pt);
    a->bounded_from = ic_bounded_from(ic_scratch_slack(), elem);
    switch (pt->c) {
    case IC_COLL_BCAST:
        a->count = (size_t)pt->count * pt->esz / elem;
        break;
    case IC_COLL_REDUCE:
    case IC_COLL_ALLREDUCE:
        a->count = pt->count;
        break;
    case IC_COLL_REDUCE_SCATTER:
    case IC_COLL_REDUCE_SCATTER_BLOCK:
        for (int i = 0; i < p; i++)
            counts[i] = (size_t)pt->counts[i];
        a->counts = counts;
        a->count = pt->total;
        break;
    case IC_COLL_BARRIER:
        break;
    default:
        for (int i = 0; i < p; i++)
            counts[i] = (size_t)pt->counts[i] * pt->esz;
        a->counts = counts;
        a->sendcount = a->recvcount = counts[0];
        break;
    }
    return elem;
}

double ic_point_predict(const ic_point_t *pt, const char *name, const ic_bench_model_t *m)
{
    ic_plan_t plan;
    if (!name || ic_plan_parse(pt->c, name, &plan, NULL) != 0 || isnan(m->cost.alpha))
        return NAN;
    size_t *counts = calloc((size_t)pt->p, sizeof(size_t));
    if (!counts)
        return NAN;
    ic_coll_args_t a;
    size_t elem = ic_point_args(pt, &a, counts);
    ic_plan_from_written(&plan, elem);
    double t = ic_predict_plan(&plan, &a, &m->cost, elem);
    free(counts);
    return t < 0 ? NAN : t;
}

/* beta_x and x_min (cost.h) from the ping-pong's and the exchange's
 * medians on the same lengths (rank 0): x_min is the shortest length from
 * which on every exchange is more than IC_EXCHANGE_SLOW times the
 * ping-pong's time (the links stop carrying both directions at full
 * rate); beta_x the time per byte and direction of those exchanges (a
 * Hockney fit, at least beta).  No such length: 0 and beta (full duplex
 * throughout). */
#define IC_EXCHANGE_SLOW 1.25
static void exchange_terms(const size_t *sizes, int ns, const ic_stats_t *pp, const ic_stats_t *x,
                           double beta, double *beta_x, double *x_min)
{
    int from = ns;
    while (from > 0 && x[from - 1].median > IC_EXCHANGE_SLOW * pp[from - 1].median)
        from--;
    *beta_x = beta;
    *x_min = 0;
    if (from == ns)
        return;
    *x_min = (double)sizes[from];
    double *n = calloc((size_t)(ns - from), sizeof(double));
    double *t = calloc((size_t)(ns - from), sizeof(double));
    ic_hockney_t h;
    if (n && t) {
        for (int i = from; i < ns; i++) {
            n[i - from] = (double)sizes[i];
            t[i - from] = x[i].median;
        }
        if (ns - from >= 2 && ic_hockney_fit(n, t, ns - from, &h) == 0 && h.r_inf > 0 &&
            !isinf(h.r_inf))
            *beta_x = 1.0 / h.r_inf;
        else
            *beta_x = x[ns - 1].median / (double)sizes[ns - 1];
    }
    if (*beta_x < beta)
        *beta_x = beta;
    free(n);
    free(t);
}

/* Ping-pong between ranks 0 and peer over sizes (collective): on rank 0
 * alpha and beta into v[0], v[1] (Hockney fit, else the shortest time
 * and the longest message's time per byte), the shortest one-way time
 * into v[3], the fit into the report as table `name`; the sweep's stats
 * into *res (rank 0; the caller frees them). */
static void fit_pair(ic_bench_t *b, int peer, const size_t *sizes, int ns, const char *name,
                     const char *title, ic_pp_result_t *res, double *v)
{
    ic_bench_pingpong_sweep(b, b->comm, 0, peer, sizes, ns, 0, "ping-pong", res);
    if (b->rank != 0)
        return;
    ic_pp_fit_t fit;
    b->failures += res->failures;
    int ok = ic_bench_pingpong_fit(sizes, ns, res->stats, 1, b->o.nbps, b->o.bps, &fit) >= 0;
    if (ok) {
        ic_rtable_t *f = ic_bench_fit_table(b, name, title);
        ic_bench_pingpong_fit_rows(f, fit.nregions > 1 ? "summary" : "all", "  ", &fit);
    }
    if (ns > 0)
        v[3] = res->stats[0].min;
    if (ok && fit.summary.t0 > 0 && fit.summary.r_inf > 0 && !isinf(fit.summary.r_inf)) {
        v[0] = fit.summary.t0;
        v[1] = 1.0 / fit.summary.r_inf;
    } else if (ns > 0) {
        /* timings too noisy for the model: the shortest message's time
         * and the longest message's time per byte */
        v[0] = res->stats[0].median;
        v[1] = res->stats[ns - 1].median / (double)sizes[ns - 1];
        ic_report_note(b->rep,
                       "the %s fit is unusable (t0 <= 0 or r_inf not finite): alpha = t(%zu B), "
                       "beta = t(%zu B) / %zu B",
                       name, sizes[0], sizes[ns - 1], sizes[ns - 1]);
    }
}

/* The lowest rank on the caller's node (its own rank when nodes are
 * unknown).  Collective. */
static int node_lead(const ic_bench_t *b)
{
    MPI_Comm node;
    int lowest = b->rank;
    if (MPI_Comm_split_type(b->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) ==
        MPI_SUCCESS) {
        MPI_Allreduce(&b->rank, &lowest, 1, MPI_INT, MPI_MIN, node);
        MPI_Comm_free(&node);
    }
    return lowest;
}

/* The lowest rank other than 0 on rank 0's node; -1 when rank 0 is alone
 * there or nodes are unknown.  Collective. */
static int node_peer(const ic_bench_t *b)
{
    int peer = INT_MAX, mine = node_lead(b) == 0 && b->rank != 0 ? b->rank : INT_MAX;
    MPI_Allreduce(&mine, &peer, 1, MPI_INT, MPI_MIN, b->comm);
    return peer == INT_MAX ? -1 : peer;
}

/* The lowest rank on neither rank 0's node nor rank p-1's, or -1 (every
 * rank). */
static int third_node_rank(ic_bench_t *b)
{
    int lowest = node_lead(b), r = -1;
    int *leads = b->rank == 0 ? ic_bench_alloc(b, (size_t)b->size * sizeof(int)) : NULL;
    MPI_Gather(&lowest, 1, MPI_INT, leads, 1, MPI_INT, 0, b->comm);
    for (int i = 1; leads && i < b->size - 1 && r < 0; i++)
        if (leads[i] != leads[0] && leads[i] != leads[b->size - 1])
            r = i;
    free(leads);
    MPI_Bcast(&r, 1, MPI_INT, 0, b->comm);
    return r;
}

/* m->links (every rank) and the report's table "links": ic_bench_links
 * from rank 0 to ranks p-1 and third_node_rank at `bytes`, rounded to 1
 * or 2; 0 without a third node. */
static void fit_links(ic_bench_t *b, size_t bytes, ic_bench_model_t *m)
{
    int other = third_node_rank(b), failures = 0;
    m->links = 0;
    if (other < 0)
        return;
    double ratio = ic_bench_links(b, b->comm, 0, b->size - 1, other, bytes, &failures);
    if (b->rank == 0) {
        b->failures += failures;
        m->links = ratio >= 1.5 ? 2 : ratio > 0 ? 1 : 0;
        ic_rtable_t *t = ic_report_table(b->rep, "links",
                                         "Links: rank 0's streams to two other nodes at once "
                                         "against one (time of one over time of two)");
        ic_rtable_col(t, "bytes", NULL, IC_COL_INT, NULL);
        ic_rtable_col(t, "peers", NULL, IC_COL_STR, NULL);
        ic_rtable_col(t, "ratio", NULL, IC_COL_NUM, "%.3g");
        ic_rtable_col(t, "links", NULL, IC_COL_INT, NULL);
        char peers[64];
        snprintf(peers, sizeof(peers), "%d,%d", b->size - 1, other);
        ic_rtable_row(t);
        ic_rtable_num(t, (double)bytes);
        ic_rtable_str(t, peers);
        ic_rtable_num(t, ratio);
        ic_rtable_num(t, (double)m->links);
    }
    MPI_Bcast(&m->links, 1, MPI_INT, 0, b->comm);
}

/* The streams between ranks 0 and p-1 (ic_bench_stream_sweep) into
 * m->st_* on rank 0 (see point.h) and the report's table "stream": an
 * empty stream first, whose one message's time is an empty round trip. */
static void fit_stream(ic_bench_t *b, size_t top, ic_bench_model_t *m)
{
    size_t sizes[IC_BENCH_PP_MAX];
    int ns = 0;
    sizes[ns++] = 0;
    for (size_t s = 256; s <= top && s <= (1u << 20) && ns < IC_BENCH_PP_MAX; s *= 2)
        sizes[ns++] = s;
    ic_stream_result_t res;
    ic_bench_stream_sweep(b, b->comm, 0, b->size - 1, sizes, ns, &res);
    m->nst = 0;
    if (b->rank != 0)
        return;
    b->failures += res.failures;
    ic_rtable_t *t = ic_report_table(b->rep, "stream",
                                     "Streams from rank 0 to p-1: one message's time, the gap "
                                     "between messages sent back to back");
    ic_rtable_col(t, "bytes", NULL, IC_COL_INT, NULL);
    ic_rtable_col(t, "t", "t(one-way)", IC_COL_SEC, NULL);
    ic_rtable_col(t, "gap", NULL, IC_COL_SEC, NULL);
    ic_rtable_col(t, "gap_per_byte", "gap/B[ns]", IC_COL_NUM, "%.4g");
    double rt0 = res.one[0].median; /* an empty round trip */
    for (int i = 1; i < ns; i++) {
        double one = res.one[i].median - rt0 / 2;
        double gap = (res.many[i].median - res.one[i].median) / (IC_STREAM_K - 1);
        if (!(one > 0) || !(gap > 0))
            continue;
        m->st_bytes[m->nst] = (double)sizes[i];
        m->st_time[m->nst] = one;
        m->st_gap[m->nst++] = gap;
        ic_rtable_row(t);
        ic_rtable_num(t, (double)sizes[i]);
        ic_rtable_num(t, one);
        ic_rtable_num(t, gap);
        ic_rtable_num(t, gap / (double)sizes[i] * 1e9);
    }
    free(res.one);
    free(res.many);
}

void ic_bench_fit_model(ic_bench_t *b, MPI_Datatype type, size_t max_bytes, int node, int what,
                        ic_bench_model_t *m)
{
    int exchange = what & IC_FIT_EXCHANGE;
    double v[6] = {NAN, NAN, NAN, NAN, NAN, NAN}, vn[4] = {NAN, NAN, NAN, NAN};
    m->npp = m->nst = 0;
    ic_bench_opts_t saved = b->o;
    b->o.budget = 0.05;
    b->o.max_reps = 200;
    b->o.reps = 0;
    b->o.sizes = NULL;
    b->o.min_size = b->o.max_size = -1;
    b->o.factor = 0;
    /* across nodes with several ranks on rank 0's node: that node's link too */
    int peer = node ? -1 : node_peer(b);
    if (b->size > 1) {
        size_t *sizes;
        size_t top = max_bytes < 65536 ? 65536 : max_bytes > (4u << 20) ? 4u << 20 : max_bytes;
        int ns = ic_bench_sizes(b, 1, top, 4, &sizes);
        ic_pp_result_t res, xres, nres;
        fit_pair(b, b->size - 1, sizes, ns, "pingpong_fit",
                 "Ping-pong between ranks 0 and p-1: alpha = t0, beta = 1/r_inf", &res, v);
        if (exchange)
            ic_bench_pingpong_sweep(b, b->comm, 0, b->size - 1, sizes, ns, 1, "exchange", &xres);
        if (peer > 0) {
            char title[128];
            snprintf(title, sizeof(title),
                     "Ping-pong within a node, ranks 0 and %d: node alpha = t0, node beta = "
                     "1/r_inf",
                     peer);
            fit_pair(b, peer, sizes, ns, "node_pingpong_fit", title, &nres, vn);
            if (b->rank == 0)
                free(nres.stats);
        }
        if (what & IC_FIT_STREAM) {
            fit_stream(b, top, m);
            fit_links(b, top < (1u << 20) ? top : 1u << 20, m);
        }
        if (b->rank == 0) {
            for (int i = 0; i < ns && m->npp < IC_BENCH_PP_MAX; i++)
                if (res.stats[i].median > 0) {
                    m->pp_bytes[m->npp] = (double)sizes[i];
                    m->pp_time[m->npp++] = res.stats[i].median;
                }
            if (exchange && ns > 0) {
                b->failures += xres.failures;
                exchange_terms(sizes, ns, res.stats, xres.stats, v[1], &v[4], &v[5]);
                free(xres.stats);
            }
            free(res.stats);
        }
        free(sizes);
    }
    b->o = saved;
    /* gamma: time per byte of MPI_Reduce_local */
    if (b->rank == 0) {
        int esz;
        MPI_Type_size(type, &esz);
        size_t n = (256u << 10) / (size_t)esz;
        char *x = ic_bench_alloc(b, n * (size_t)esz), *y = ic_bench_alloc(b, n * (size_t)esz);
        fill_values(x, n, type, 1);
        fill_values(y, n, type, 2);
        double t[9];
        for (int r = 0; r < 11; r++) {
            double t0 = MPI_Wtime();
            MPI_Reduce_local(x, y, (int)n, type, MPI_SUM);
            if (r >= 2)
                t[r - 2] = MPI_Wtime() - t0;
            fill_values(y, n, type, 2); /* keep values small */
        }
        v[2] = ic_median(t, 9) / (double)(n * (size_t)esz);
        free(x);
        free(y);
    }
    MPI_Bcast(v, 6, MPI_DOUBLE, 0, b->comm);
    MPI_Bcast(vn, 2, MPI_DOUBLE, 0, b->comm);
    MPI_Bcast(&m->npp, 1, MPI_INT, 0, b->comm);
    MPI_Bcast(m->pp_bytes, m->npp, MPI_DOUBLE, 0, b->comm);
    MPI_Bcast(m->pp_time, m->npp, MPI_DOUBLE, 0, b->comm);
    MPI_Bcast(&m->nst, 1, MPI_INT, 0, b->comm);
    MPI_Bcast(m->st_bytes, m->nst, MPI_DOUBLE, 0, b->comm);
    MPI_Bcast(m->st_time, m->nst, MPI_DOUBLE, 0, b->comm);
    MPI_Bcast(m->st_gap, m->nst, MPI_DOUBLE, 0, b->comm);
    ic_cost_defaults_node(&m->node);
    m->node_fit = peer > 0 && !isnan(vn[0]) && !isnan(vn[1]);
    if (m->node_fit) {
        m->node.alpha = vn[0];
        m->node.beta = vn[1];
        m->node.gamma = v[2];
    }
    ic_cost_derive(&m->node, 1);
    if (node)
        ic_cost_defaults_node(&m->cost);
    else
        ic_cost_defaults(&m->cost);
    m->cost.alpha = v[0];
    m->cost.beta = v[1];
    m->cost.gamma = v[2];
    ic_cost_derive(&m->cost, node); /* as src/env.c */
    m->alpha_min = v[3];
    m->exchange = exchange && !isnan(v[4]);
    if (m->exchange) {
        m->cost.beta_x = v[4];
        m->cost.x_min = (size_t)v[5];
    }
}

int ic_bench_layout(const ic_bench_t *b, int *nodes, int *rpn)
{
    MPI_Comm node;
    int here = b->size, lead = 0, mm[2], ext[2];
    if (MPI_Comm_split_type(b->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) ==
        MPI_SUCCESS) {
        int r;
        MPI_Comm_size(node, &here);
        MPI_Comm_rank(node, &r);
        lead = r == 0;
        MPI_Comm_free(&node);
    }
    MPI_Allreduce(&lead, nodes, 1, MPI_INT, MPI_SUM, b->comm);
    mm[0] = here;
    mm[1] = -here;
    MPI_Allreduce(mm, ext, 2, MPI_INT, MPI_MAX, b->comm);
    *rpn = ext[0] == -ext[1] ? here : 0;
    return *nodes == 1;
}

void ic_point_bare_text(const ic_plan_t *pl, char *buf, size_t len)
{
    ic_plan_t q = *pl;
    q.param = 0;
    for (int t = 0; t < IC_PLAN_MAXDIMS; t++)
        q.step[t].param = 0;
    ic_plan_format(&q, buf, len);
}

int ic_point_ran_as(ic_coll_t c, const char *forced)
{
    ic_plan_t a, b;
    char ta[IC_PLAN_TEXT_MAX], tb[IC_PLAN_TEXT_MAX];
    if (ic_plan_parse(c, forced, &a, NULL) != 0 ||
        ic_plan_parse(c, IC_Last_algorithm((IC_Coll)c), &b, NULL) != 0)
        return 0;
    ic_point_bare_text(&a, ta, sizeof(ta));
    ic_point_bare_text(&b, tb, sizeof(tb));
    return !strcmp(ta, tb);
}
