/*
 * plan.c -- plans as data (plan.h): the text form, what a plan can serve,
 * and its cost.  The composer that builds a plan's schedule is compose.c.
 */
#include "plan.h"
#include "coll_common.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ic_step_kind_t ic_plan_step_kind(const ic_algorithm_t *alg)
{
    return alg ? alg->step : IC_STEP_NONE;
}

int ic_plan_step_shrinks(ic_step_kind_t k)
{
    return k == IC_STEP_BCAST_SCATTER || k == IC_STEP_BCAST_SCATTER2 ||
           k == IC_STEP_BCAST_SCATTER_HALF || k == IC_STEP_BCAST_SCATTER_RD ||
           k == IC_STEP_REDUCE_DCOMBINE || k == IC_STEP_REDUCE_RH ||
           k == IC_STEP_ALLREDUCE_DCOMBINE || k == IC_STEP_ALLREDUCE_DCOMBINE2 ||
           k == IC_STEP_ALLREDUCE_HALFWAY || k == IC_STEP_ALLREDUCE_RH ||
           k == IC_STEP_ALLREDUCE_RHRD || k == IC_STEP_ALLREDUCE_SWING ||
           k == IC_STEP_ALLREDUCE_TREE || k == IC_STEP_ALLREDUCE_CHAIN ||
           k == IC_STEP_ALLREDUCE_FANIN || k == IC_STEP_ALLREDUCE_FANOUT;
}

/* The steps whose positions hold permuted blocks (ic_rh_block): the
 * halving's pairing they follow (IC_PAIRS_FAR: none). */
static int pairing(ic_step_kind_t k)
{
    if (k == IC_STEP_ALLREDUCE_SWING || k == IC_STEP_RS_SWING || k == IC_STEP_COLLECT_SWING)
        return IC_PAIRS_SWING;
    if (k == IC_STEP_ALLREDUCE_RHRD || k == IC_STEP_RS_RH || k == IC_STEP_COLLECT_RD)
        return IC_PAIRS_NEAR;
    return IC_PAIRS_FAR;
}

int ic_plan_step_block(ic_step_kind_t k, int d, int c)
{
    return ic_rh_block(d, c, pairing(k));
}

int ic_plan_step_blocks(ic_step_kind_t k, int d, int *block)
{
    return ic_rh_blocks(d, pairing(k), block);
}

const ic_algorithm_t *ic_alg_two_rings(const ic_algorithm_t *alg)
{
    static const ic_step_kind_t twins[][2] = {
        {IC_STEP_BCAST_SCATTER, IC_STEP_BCAST_SCATTER2},
        {IC_STEP_BCAST_PIPELINE, IC_STEP_BCAST_PIPELINE2},
        {IC_STEP_ALLREDUCE_DCOMBINE, IC_STEP_ALLREDUCE_DCOMBINE2},
        {IC_STEP_COLLECT_BUCKET, IC_STEP_COLLECT_BUCKET2},
        {IC_STEP_RS_BUCKET, IC_STEP_RS_BUCKET2},
    };
    for (size_t i = 0; alg && i < sizeof(twins) / sizeof(twins[0]); i++)
        if (alg->step == twins[i][0])
            return ic_alg_of_step(alg->coll, twins[i][1]);
    return NULL;
}

const ic_algorithm_t *ic_alg_of_step(ic_coll_t c, ic_step_kind_t k)
{
    for (const ic_algorithm_t *t = ic_algorithms; t->name; t++)
        if (t->coll == c && t->step == k)
            return t;
    return NULL;
}

int ic_plan_two_rings(const ic_plan_t *pl, ic_plan_t *out)
{
    int changed = 0;
    *out = *pl;
    if (pl->ndims == 0) {
        const ic_algorithm_t *t = ic_alg_two_rings(pl->alg);
        if (t) {
            *out = ic_plan_1d(t, 0);
            changed = 1;
        }
        return changed;
    }
    for (int i = 0; i < pl->ndims; i++) {
        const ic_algorithm_t *t = ic_alg_two_rings(pl->step[i].alg);
        if (t) {
            out->step[i].alg = t;
            out->step[i].param = 0;
            changed = 1;
        }
    }
    return changed;
}

int ic_plan_ranks(const ic_plan_t *pl)
{
    if (pl->ndims == 0)
        return 0;
    long p = 1;
    for (int i = 0; i < pl->ndims; i++) {
        p *= pl->dims[i];
        if (p > (1L << 30))
            return -1;
    }
    return (int)p;
}

int ic_plan_equal(const ic_plan_t *x, const ic_plan_t *y)
{
    if (x->coll != y->coll || x->ndims != y->ndims)
        return 0;
    if (x->ndims == 0)
        return x->alg == y->alg && x->param == y->param;
    for (int i = 0; i < x->ndims; i++)
        if (x->dims[i] != y->dims[i] || x->step[i].dim != y->step[i].dim ||
            x->step[i].alg != y->step[i].alg || x->step[i].param != y->step[i].param)
            return 0;
    return 1;
}

/* ---------------------------------------------------------- text form */

/* A positive integer at *s (advanced); -1 when there is none or it is too
 * large. */
static long number(const char **s)
{
    const char *q = *s;
    long v = 0;
    if (!isdigit((unsigned char)*q))
        return -1;
    while (isdigit((unsigned char)*q)) {
        v = v * 10 + (*q - '0');
        if (v > (1L << 40))
            return -1;
        q++;
    }
    *s = q;
    return v;
}

/* NAME [ "(" PARAM ")" ] at *s: the algorithm of collective c and its
 * parameter. */
static int name_param(ic_coll_t c, const char **s, const ic_algorithm_t **alg, size_t *param,
                      const char **why)
{
    const char *q = *s;
    char name[64];
    size_t n = 0;
    while (isalnum((unsigned char)q[n]) || q[n] == '_')
        n++;
    if (n == 0 || n >= sizeof(name)) {
        *why = "expected an algorithm name";
        return -1;
    }
    memcpy(name, q, n);
    name[n] = 0;
    *alg = ic_alg_find(c, name);
    if (!*alg) {
        *why = "no such algorithm for this collective (intercom-info list)";
        return -1;
    }
    q += n;
    *param = 0;
    if (*q == '(') {
        q++;
        long v = number(&q);
        if (v <= 0 || *q != ')') {
            *why = "expected a positive parameter in parentheses";
            return -1;
        }
        *param = (size_t)v;
        q++;
    }
    *s = q;
    return 0;
}

int ic_plan_parse(ic_coll_t c, const char *text, ic_plan_t *pl, const char **why)
{
    const char *dummy;
    if (!why)
        why = &dummy;
    *why = NULL;
    if (!text || !*text) {
        *why = "empty plan";
        return -1;
    }
    if ((int)c < 0 || c >= IC_COLL_COUNT) {
        *why = "no such collective";
        return -1;
    }
    const char *s = text;
    *pl = ic_plan_1d(NULL, 0);
    pl->coll = c;
    if (!strchr(text, ':')) {
        if (name_param(c, &s, &pl->alg, &pl->param, why) != 0)
            return -1;
        if (*s) {
            *why = "unexpected text after the algorithm";
            return -1;
        }
        return 0;
    }
    int k = 0;
    for (;;) {
        long d = number(&s);
        if (d <= 0 || d > (1L << 30)) {
            *why = "expected the mesh shape, dimensions like 16x32";
            return -1;
        }
        if (k == IC_PLAN_MAXDIMS) {
            *why = "too many dimensions";
            return -1;
        }
        pl->dims[k++] = (int)d;
        if (*s == 'x') {
            s++;
            continue;
        }
        if (*s != ':') {
            *why = "expected 'x' or ':' after a dimension";
            return -1;
        }
        s++;
        break;
    }
    long ranks = 1;
    for (int i = 0; i < k; i++)
        ranks = ranks * pl->dims[i] > (1L << 30) ? (1L << 31) : ranks * pl->dims[i];
    if (ranks > (1L << 30)) {
        *why = "mesh too large";
        return -1;
    }
    int seen[IC_PLAN_MAXDIMS] = {0};
    for (int t = 0; t < k; t++) {
        if (t > 0) {
            if (*s != ',') {
                *why = "expected ',' between steps (one per dimension)";
                return -1;
            }
            s++;
        }
        if (*s != 'd') {
            *why = "expected a step like d1=mst";
            return -1;
        }
        s++;
        long d = number(&s);
        if (d < 0 || d >= k || *s != '=') {
            *why = "expected a step like d1=mst, with a dimension of the shape";
            return -1;
        }
        if (seen[d]++) {
            *why = "a dimension appears twice";
            return -1;
        }
        s++;
        ic_plan_step_t *st = &pl->step[t];
        st->dim = (int)d;
        if (name_param(c, &s, &st->alg, &st->param, why) != 0)
            return -1;
        if (ic_plan_step_kind(st->alg) == IC_STEP_NONE) {
            *why = "this algorithm cannot be a mesh step";
            return -1;
        }
    }
    if (*s) {
        *why = "unexpected text after the steps (one step per dimension)";
        return -1;
    }
    if (k == 1) { /* a mesh of one dimension is the 1-D plan */
        const ic_algorithm_t *alg = pl->step[0].alg;
        size_t param = pl->step[0].param;
        *pl = ic_plan_1d(alg, param);
        return 0;
    }
    pl->ndims = k;
    return 0;
}

int ic_plan_format(const ic_plan_t *pl, char *buf, size_t len)
{
    char tmp[IC_PLAN_TEXT_MAX * 2];
    size_t n = 0;
#define PUT(...) n += (size_t)snprintf(tmp + n, n < sizeof(tmp) ? sizeof(tmp) - n : 0, __VA_ARGS__)
    if (pl->ndims == 0) {
        PUT("%s", pl->alg ? pl->alg->name : "");
        if (pl->param)
            PUT("(%zu)", pl->param);
    } else {
        for (int i = 0; i < pl->ndims; i++)
            PUT("%s%d", i ? "x" : "", pl->dims[i]);
        PUT(":");
        for (int t = 0; t < pl->ndims; t++) {
            PUT("%sd%d=%s", t ? "," : "", pl->step[t].dim,
                pl->step[t].alg ? pl->step[t].alg->name : "");
            if (pl->step[t].param)
                PUT("(%zu)", pl->step[t].param);
        }
    }
#undef PUT
    if (len > 0) {
        size_t c = n < sizeof(tmp) ? n : sizeof(tmp) - 1;
        if (c >= len)
            c = len - 1;
        memcpy(buf, tmp, c);
        buf[c] = 0;
    }
    return (int)n;
}

void ic_plan_scale_params(ic_plan_t *pl, size_t mul, size_t div)
{
    if (mul == div)
        return;
    size_t *ps[1 + IC_PLAN_MAXDIMS];
    int n = 0;
    if (pl->ndims == 0 && pl->alg && !(pl->alg->flags & IC_ALG_RADIX))
        ps[n++] = &pl->param;
    for (int t = 0; t < pl->ndims; t++)
        if (pl->step[t].alg && !(pl->step[t].alg->flags & IC_ALG_RADIX))
            ps[n++] = &pl->step[t].param;
    for (int i = 0; i < n; i++)
        if (*ps[i]) {
            size_t v = *ps[i] * mul / div;
            *ps[i] = v ? v : 1;
        }
}

void ic_plan_from_written(ic_plan_t *pl, size_t unit)
{
    if (!ic_coll_reduces(pl->coll))
        ic_plan_scale_params(pl, 1, unit ? unit : 1);
}

void ic_plan_to_written(ic_plan_t *pl, size_t unit)
{
    if (!ic_coll_reduces(pl->coll))
        ic_plan_scale_params(pl, unit ? unit : 1, 1);
}

int ic_coll_reduces(ic_coll_t c)
{
    return c == IC_COLL_REDUCE || c == IC_COLL_ALLREDUCE || c == IC_COLL_REDUCE_SCATTER ||
           c == IC_COLL_REDUCE_SCATTER_BLOCK;
}

/* ------------------------------------------------------ what it serves */

/* Elements of the whole vector of the call (all blocks together). */
static size_t vector_elems(const ic_coll_args_t *a)
{
    if (a->counts && a->coll != IC_COLL_BCAST && a->coll != IC_COLL_REDUCE &&
        a->coll != IC_COLL_ALLREDUCE) {
        size_t t = 0;
        for (int i = 0; i < a->size; i++)
            t += a->counts[i];
        return t;
    }
    return a->count;
}

int ic_plan_usable(const ic_plan_t *pl, const ic_coll_args_t *a, const char **why)
{
    const char *no = NULL;
    if (pl->coll != a->coll)
        no = "plan of another collective";
    else if (pl->ndims == 0)
        return ic_alg_usable(pl->alg, a, why);
    else if (ic_plan_ranks(pl) != a->size)
        no = "the mesh does not have the communicator's size";
    else {
        double v = ic_plan_start(a); /* the elements a step's lines see */
        for (int t = 0; t < pl->ndims && !no; t++) {
            const ic_algorithm_t *alg = pl->step[t].alg;
            int d = pl->dims[pl->step[t].dim];
            if (!alg || alg->coll != a->coll || ic_plan_step_kind(alg) == IC_STEP_NONE)
                no = "a step is not a mesh step of this collective";
            else if (!(no = ic_alg_op(alg, a))) {
                v = ic_plan_step_input(a, d, v);
                no = ic_alg_room(alg, a, d, (size_t)(v + 0.5));
                v = ic_plan_step_output(a, alg, d, v);
            }
        }
        if (!no && !a->commutative && ic_coll_reduces(a->coll)) {
            /* Rank order is kept when the combining runs along the fastest
             * dimension first: reduce and allreduce combine in step
             * order, reduce_scatter in reverse step order. */
            int rs = a->coll == IC_COLL_REDUCE_SCATTER || a->coll == IC_COLL_REDUCE_SCATTER_BLOCK;
            for (int t = 0; t < pl->ndims && !no; t++) {
                int want = rs ? t : pl->ndims - 1 - t;
                if (pl->step[t].dim != want)
                    no = "a non-commutative op needs the fastest dimension combined first";
            }
            if (!no && a->order)
                no = "a non-commutative op needs ranks in mesh order";
        }
    }
    if (no && why)
        *why = no;
    return no == NULL;
}

/* ---------------------------------------------------- pieces, read-only */

static int is_rs(ic_coll_t c)
{
    return c == IC_COLL_REDUCE_SCATTER || c == IC_COLL_REDUCE_SCATTER_BLOCK;
}

/* Does step t keep its line's blocks in position order (ic_plan_step_blocks:
 * not the permuted order of a near-first or Swing halving on 4 positions or
 * more)? */
static int rank_order(const ic_plan_t *pl, int t)
{
    ic_step_kind_t k = ic_plan_step_kind(pl->step[t].alg);
    int d = pl->dims[pl->step[t].dim], same = 1;
    if (pairing(k) == IC_PAIRS_FAR || d <= 2)
        return 1;
    int *block = malloc((size_t)d * sizeof(int));
    if (!block || ic_plan_step_blocks(k, d, block) != 0)
        same = 0;
    for (int c = 0; same && c < d; c++)
        same = block[c] == c;
    free(block);
    return same;
}

int ic_plan_rs_reads_input(const ic_plan_t *pl, const ic_coll_args_t *a)
{
    int k = pl->ndims;
    ic_step_kind_t first = k < 1 ? IC_STEP_NONE : ic_plan_step_kind(pl->step[k - 1].alg);
    int one = first == IC_STEP_RS_BUCKET;
    /* the two rings only on a mesh, where the run they leave goes to
     * scratch (on one line in place it would land on the input) */
    int two = (first == IC_STEP_RS_BUCKET2 || first == IC_STEP_RS_HALFWAY) && k > 1;
    if (!is_rs(a->coll) || k < 1 || pl->dims[pl->step[k - 1].dim] < 2 || !(one || two) ||
        (k > 1 && a->order))
        return 0;
    /* the first step along the slowest dimension: its blocks are runs of
     * consecutive ranks' blocks, in the input as they are */
    int identity = 1;
    for (int t = 0; t < k; t++) {
        if (!rank_order(pl, t) || (t == k - 1 && pl->step[t].dim != 0))
            return 0;
        identity &= pl->step[t].dim == k - 1 - t;
    }
    size_t n = vector_elems(a);
    /* On one line the one-way ring keeps two blocks of partials, the two
     * largest at most: within the vector. */
    if (one && (k == 1 || ic_reduce_pieces(a, n) == 1))
        return 1;
    /* From a->bounded_from on (and for the two rings' four slots always),
     * the scratch within the vector: the first
     * step's slots (two runs of blocks for one ring, four for two: a run
     * is the blocks of p / d consecutive ranks, its line's position), and
     * on a mesh the run it keeps (twice when the later steps want its
     * blocks in another order: compose.c copies them), where the later
     * steps' partials take no more than the slots did. */
    int d = pl->dims[0], v = a->size / d;
    size_t big = 0;
    for (int j = 0; j < d; j++) {
        size_t run = 0;
        for (int r = j * v; r < (j + 1) * v; r++)
            run += a->counts ? a->counts[r] : a->count / (size_t)a->size;
        big = run > big ? run : big;
    }
    size_t need = (one ? 2 : 4) * big + (k > 1 ? (2 - identity) * big : 0);
    return need <= n;
}

size_t ic_plan_pieces(const ic_plan_t *pl, const ic_coll_args_t *a)
{
    if (a->coll == IC_COLL_REDUCE) {
        /* on one line these read the input where it is and hold at most
         * the vector (the pipeline's segment is cut for it,
         * ic_reduce_pipeline_seg; the halving on a power of two only) */
        ic_step_kind_t k = ic_plan_step_kind(pl->step[0].alg);
        return pl->ndims == 1 && (k == IC_STEP_REDUCE_DCOMBINE || k == IC_STEP_REDUCE_PIPELINE ||
                                  k == IC_STEP_REDUCE_CIRCULANT ||
                                  (k == IC_STEP_REDUCE_RH && ic_rh_reads_input(a->size)))
                   ? 1
                   : ic_reduce_pieces(a, a->count);
    }
    if (is_rs(a->coll))
        return ic_plan_rs_reads_input(pl, a) ? 1 : ic_reduce_pieces(a, vector_elems(a));
    return 1;
}

/* ------------------------------------------------------------------ cost */

static int collect_like(ic_coll_t c)
{
    return c == IC_COLL_ALLGATHER || c == IC_COLL_ALLGATHERV || c == IC_COLL_REDUCE_SCATTER ||
           c == IC_COLL_REDUCE_SCATTER_BLOCK;
}

double ic_plan_step_input(const ic_coll_args_t *a, int d, double v)
{
    return collect_like(a->coll) ? v * d : v;
}

double ic_plan_step_output(const ic_coll_args_t *a, const ic_algorithm_t *alg, int d, double v)
{
    if (collect_like(a->coll) || !ic_plan_step_shrinks(ic_plan_step_kind(alg)))
        return v;
    return v / d;
}

double ic_plan_start(const ic_coll_args_t *a)
{
    double n = (double)vector_elems(a);
    return collect_like(a->coll) ? n / (a->size > 0 ? a->size : 1) : n;
}

size_t ic_alg_segment(const ic_algorithm_t *alg, const ic_coll_args_t *a, const ic_model_t *m)
{
    size_t seg = alg->seg_rule(a, m);
    const ic_msgtime_t *c = m->msgtime;
    if (!c || (alg->flags & IC_ALG_RADIX) || a->count < 2 || m->elem == 0)
        return seg;
    /* the rule's segment, or the longest no longer than a measured
     * length: the cheapest under the measured factors */
    ic_coll_args_t b = *a;
    b.seg = seg;
    double best = alg->cost(&b, m);
    for (int i = 0; i < c->n; i++) {
        size_t most = (size_t)(c->bytes[i] / (double)m->elem);
        if (most < 1)
            continue;
        b.seg = ic_seg_of_k(a, m, (double)((a->count + most - 1) / most));
        double t = alg->cost(&b, m);
        if (t < best * (1 - 1e-12)) {
            best = t;
            seg = b.seg;
        }
    }
    return seg;
}

double ic_plan_step_cost(const ic_algorithm_t *alg, const ic_coll_args_t *a, int d, double v,
                         size_t *param, const ic_model_t *m, int share)
{
    if (d <= 1)
        return 0;
    ic_coll_args_t b = *a;
    b.size = d;
    b.rank = 0;
    b.root = 0;
    b.counts = NULL;
    b.displs = NULL;
    b.order = NULL;
    b.count = ic_plan_step_count(v);
    b.sendcount = b.count / (size_t)d;
    b.recvcount = b.sendcount;
    b.seg = *param;
    if (alg->seg_rule && !b.seg) { /* one stream's trade-off (see plan.h) */
        ic_model_t one = ic_model_shared(m, share < 1 ? share : 1);
        *param = b.seg = ic_alg_segment(alg, &b, &one);
    }
    ic_model_t ms = ic_model_shared(m, share);
    return alg->cost(&b, &ms);
}

int ic_plan_streams(const ic_plan_t *pl, ic_coll_t coll, int t, size_t count)
{
    if (coll != IC_COLL_BCAST || t + 1 >= pl->ndims)
        return 0;
    ic_step_kind_t k = ic_plan_step_kind(pl->step[t].alg);
    int d = pl->dims[pl->step[t].dim], d2 = pl->dims[pl->step[t + 1].dim];
    if (k != ic_plan_step_kind(pl->step[t + 1].alg))
        return 0;
    return k == IC_STEP_BCAST_PIPELINE2 ? ic_pipe_stream_ok(d, d2, count)
           : k == IC_STEP_BCAST_HALFWAY ? ic_torus_trees_ok(d, d2, count)
                                        : 0;
}

long ic_plan_stride(const ic_plan_t *pl, int dim)
{
    long w = 1;
    for (int e = dim + 1; e < pl->ndims; e++)
        w *= pl->dims[e];
    return w;
}

/* Position pos's coordinate on dimension dim of mesh plan pl. */
static int plan_coord(const ic_plan_t *pl, long pos, int dim)
{
    return (int)(pos / ic_plan_stride(pl, dim) % pl->dims[dim]);
}

/* Whether position i of mesh plan pl sits on a line that step t (run by
 * alg) leaves idle, its root at position 0: a rooted collective's step
 * that keeps the vector whole runs on the lines the data has reached.  A
 * broadcast's step t on the lines whose coordinates on the later steps'
 * dimensions are the root's (0; an earlier step, whole or scattered,
 * spreads the data along its dimension); a reduce's on the lines whose
 * coordinates are the root's on the earlier steps' dimensions where those
 * combined whole vectors (a shrinking step leaves a piece on each of its
 * positions, its gather comes after).  On 64 x 8 nodes of eight ranks
 * `64x8:d0=circulant,d1=circulant` broadcasts across the nodes on one
 * line of 64, one rank a node, not eight. */
static int rooted_idle(const ic_plan_t *pl, int t, const ic_algorithm_t *alg,
                       const ic_coll_args_t *a, long i)
{
    int bcast = a->coll == IC_COLL_BCAST, reduce = a->coll == IC_COLL_REDUCE;
    if (!alg || (!bcast && !reduce) || ic_plan_step_shrinks(ic_plan_step_kind(alg)))
        return 0;
    for (int u = bcast ? t + 1 : 0; u < (bcast ? pl->ndims : t); u++) {
        if (reduce && ic_plan_step_shrinks(ic_plan_step_kind(pl->step[u].alg)))
            continue;
        if (plan_coord(pl, i, pl->step[u].dim) != 0)
            return 1;
    }
    return 0;
}

int ic_plan_step_share(const ic_plan_t *pl, int t, const ic_algorithm_t *alg,
                       const ic_coll_args_t *a, const ic_model_t *m)
{
    int q = m->node_ranks;
    if (!m->node || q < 2)
        return 1;
    int next = alg && (alg->flags & IC_ALG_NEIGHBOURS);
    if (pl->ndims == 0) /* one line through every node: in rank order
                           (a->order NULL) it leaves a node once */
        return next && !a->order ? 1 : q;
    int dim = pl->step[t].dim;
    long block = ic_plan_stride(pl, dim) * pl->dims[dim]; /* positions of its sub-meshes */
    if (q % block == 0)
        return 0;
    /* the node of positions 0 .. q-1 (the root's, position 0): its
     * positions on lines that take part (rooted_idle), each line once
     * for a ring or chain (its first position there: coordinate 0 on
     * the step's dimension, since the node starts a sub-mesh) */
    int n = 0;
    for (long i = 0; i < q; i++)
        n += !rooted_idle(pl, t, alg, a, i) && (!next || plan_coord(pl, i, dim) == 0);
    return n;
}

ic_model_t ic_model_shared(const ic_model_t *m, int share)
{
    ic_model_t s = share == 0 && m->node ? *m->node : *m;
    if (share > 1) {
        s.beta *= share;
        s.beta_x *= share;
    }
    return s;
}

/* The measured stride nearest to `stride` (log scale). */
static int stride_index(const ic_strides_t *S, long stride)
{
    int best = 0;
    double bd = INFINITY;
    for (int i = 0; i < S->n && bd > 0; i++) /* measured: a divisor of p */
        if (S->stride[i] == stride) {
            best = i;
            bd = 0;
        }
    for (int i = 0; i < S->n && bd > 0; i++) {
        double dist = fabs(log((double)S->stride[i] / (double)stride));
        if (dist < bd) {
            bd = dist;
            best = i;
        }
    }
    return best;
}

/* Its factors: the slowest rank's of a shift over all ranks, or with
 * `in` the median rank's (a ring within its block of ranks, ic_strides_t). */
static void stride_factors(const ic_strides_t *S, long stride, int in, double *fa, double *fb)
{
    int i = stride_index(S, stride);
    double a = in ? S->in_alpha[i] : S->alpha[i], b = in ? S->in_beta[i] : S->beta[i];
    *fa = a > 1 ? a : 1;
    *fb = b > 1 ? b : 1;
}

/* The factors of a line of d positions at stride w, of p ranks, run by
 * alg.  A ring or chain (IC_ALG_NEIGHBOURS): its stride's, but every
 * round waits for the start-up of the message that closes the ring, at
 * distance (d - 1) w (w again when the line spans all p: the shift by
 * -w); its bytes go at the neighbours' rate (it is one message a line).
 * A ring that spans fewer than p ranks sends within its block of d w
 * only: its stride's and its closing message's figures are the median
 * rank's of their shifts (the slowest's include the messages that cross
 * from block to block, ic_strides_t).  Any other algorithm: the mean over
 * the distances w, 2w, 4w, ... below d w (trees, recursive doubling and
 * halving visit each once). */
static void line_factors(const ic_strides_t *S, const ic_algorithm_t *alg, long w, int d, long p,
                         double *fa, double *fb)
{
    if (alg && (alg->flags & IC_ALG_NEIGHBOURS)) {
        double wa, wb;
        int in = (long)d * w < p;
        stride_factors(S, w, in, fa, fb);
        stride_factors(S, in ? (long)(d - 1) * w : w, in, &wa, &wb);
        *fa = wa > *fa ? wa : *fa;
        return;
    }
    double sa = 0, sb = 0;
    int k = 0;
    for (long j = 1; j < d; j *= 2, k++) {
        double a, b;
        stride_factors(S, w * j, 0, &a, &b);
        sa += a;
        sb += b;
    }
    *fa = k ? sa / k : 1;
    *fb = k ? sb / k : 1;
}

ic_model_t ic_model_strided(const ic_model_t *m, const ic_plan_t *pl, int t,
                            const ic_algorithm_t *alg, const ic_coll_args_t *a, int streams)
{
    ic_model_t s = *m;
    s.strides = NULL;
    if (!m->strides || m->strides->n < 1 || m->node || a->order)
        return s;
    double fa, fb;
    if (pl->ndims == 0) {
        line_factors(m->strides, alg, 1, a->size, a->size, &fa, &fb);
    } else {
        if (t < 0 || t >= pl->ndims)
            return s;
        int dim = pl->step[t].dim;
        line_factors(m->strides, alg, ic_plan_stride(pl, dim), pl->dims[dim], a->size, &fa, &fb);
        if (streams && t + 1 < pl->ndims) {
            double ga, gb;
            dim = pl->step[t + 1].dim;
            line_factors(m->strides, alg, ic_plan_stride(pl, dim), pl->dims[dim], a->size, &ga,
                         &gb);
            fa = ga > fa ? ga : fa;
            fb = gb > fb ? gb : fb;
        }
    }
    if (alg && (alg->flags & IC_ALG_TWO_WAYS)) { /* two sends a round, over the
                                                    step's stride (1-D: 1) */
        const ic_strides_t *S = m->strides;
        /* the torus's two trees send both ways along both dimensions at once */
        int both = streams && alg->step == IC_STEP_BCAST_HALFWAY;
        for (int u = t; u <= t + both; u++) {
            long w = pl->ndims ? ic_plan_stride(pl, pl->step[u].dim) : 1;
            int i = stride_index(S, w);
            /* a ring within its block: the median rank's (line_factors) */
            int in = (alg->flags & IC_ALG_NEIGHBOURS) && pl->ndims &&
                     w * pl->dims[pl->step[u].dim] < a->size;
            double ta = in ? S->in_two_alpha[i] : S->two_alpha[i];
            fa *= ta > 1 ? ta : 1;
            fb *= S->two_beta[i] <= 0 ? 2 : S->two_beta[i] > 1 ? S->two_beta[i] : 1;
        }
    }
    s.alpha *= fa;
    s.beta *= fb;
    s.beta_x *= fb;
    return s;
}

double ic_plan_stream_cost(const ic_plan_t *pl, int t, const ic_coll_args_t *a, double v,
                           size_t *param, const ic_model_t *m)
{
    const ic_algorithm_t *alg = pl->step[t].alg;
    int d = pl->dims[pl->step[t].dim], d2 = pl->dims[pl->step[t + 1].dim], chain = d + d2 - 1;
    ic_model_t mt = ic_model_strided(m, pl, t, alg, a, 1);
    if (alg->step == IC_STEP_BCAST_HALFWAY) {
        /* the torus's two trees side by side: one half's halfway pipeline
         * as deep as the deeper tree (a ring of twice its depth) */
        chain = 2 * ic_torus_trees_depth(d, d2);
        v -= floor(v / 2);
    }
    return ic_plan_step_cost(alg, a, chain, v, param, &mt, ic_plan_step_share(pl, t, alg, a, m));
}

static double walk(ic_plan_t *pl, const ic_coll_args_t *a, const ic_model_t *m, int resolve)
{
    if (pl->ndims == 0) {
        ic_coll_args_t b = *a;
        ic_model_t mt = ic_model_strided(m, pl, 0, pl->alg, a, 0);
        ic_model_t ms = ic_model_shared(&mt, ic_plan_step_share(pl, 0, pl->alg, a, m));
        size_t seg = pl->param;
        if (!seg && pl->alg->seg_rule) /* one stream's trade-off (see plan.h) */
            seg = ic_alg_segment(pl->alg, &b, &mt);
        if (resolve)
            pl->param = seg;
        b.seg = seg;
        return pl->alg->cost(&b, &ms);
    }
    size_t pieces = ic_plan_pieces(pl, a);
    if (pieces > 1) { /* a long reduction runs on pieces of the vector (compose.c) */
        double cost = 0;
        for (size_t j = 0; j < pieces; j++) {
            ic_coll_args_t b = *a;
            size_t lo = 0;
            b.count = ic_reduce_piece(vector_elems(a), pieces, j, &lo);
            b.counts = NULL; /* a reduce_scatter's piece: its length counts */
            b.bounded_from = 0;
            cost += walk(pl, &b, m, resolve);
        }
        return cost;
    }
    double v = ic_plan_start(a), cost = 0;
    for (int t = 0; t < pl->ndims; t++) {
        int d = pl->dims[pl->step[t].dim];
        const ic_algorithm_t *alg = pl->step[t].alg;
        size_t param = pl->step[t].param;
        v = ic_plan_step_input(a, d, v);
        /* a step streaming into the next: one chain of d + d' - 1
         * positions, whose segment both steps take */
        int streams = ic_plan_streams(pl, a->coll, t, (size_t)(v + 0.5));
        if (streams) {
            cost += ic_plan_stream_cost(pl, t, a, v, &param, m);
        } else {
            ic_model_t mt = ic_model_strided(m, pl, t, alg, a, 0);
            cost +=
                ic_plan_step_cost(alg, a, d, v, &param, &mt, ic_plan_step_share(pl, t, alg, a, m));
        }
        if (resolve)
            pl->step[t].param = param;
        if (streams) {
            t++;
            if (resolve)
                pl->step[t].param = param;
        }
        v = ic_plan_step_output(a, alg, d, v);
    }
    return cost;
}

void ic_plan_resolve(ic_plan_t *pl, const ic_coll_args_t *a, const ic_model_t *m)
{
    walk(pl, a, m, 1);
}

double ic_plan_cost(const ic_plan_t *pl, const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_plan_t copy = *pl;
    return walk(&copy, a, m, 0);
}
