/*
 * choose.c -- see choose.h.
 */
#include "choose.h"
#include "plan.h"
#include "table.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t ic_scratch_slack(void)
{
    const char *v = getenv("INTERCOM_SCRATCH_SLACK");
    char *end = NULL;
    double d = v && *v ? strtod(v, &end) : -1;
    return d >= 0 && !*end ? (size_t)d : IC_SCRATCH_SLACK;
}

ic_model_t ic_model_of(const ic_cost_params_t *c, size_t elem)
{
    ic_model_t m;
    m.alpha = c->alpha;
    m.beta = c->beta;
    m.beta_x = c->beta_x > 0 ? c->beta_x : c->beta;
    m.x_min = c->x_min;
    m.gamma = c->gamma;
    m.elem = elem;
    m.overhead = c->overhead;
    m.piece = c->chunk;
    m.node = NULL;
    m.node_ranks = 0;
    m.strides = c->strides && c->strides->n > 0 ? c->strides : NULL;
    m.msgtime = c->msgtime && c->msgtime->n > 0 ? c->msgtime : NULL;
    return m;
}

ic_model_t ic_model_levels(const ic_cost_params_t *c, const ic_cost_params_t *node, int node_ranks,
                           int size, size_t elem, ic_model_t *mnode)
{
    ic_model_t m = ic_model_of(c, elem);
    if (node && node_ranks >= 2 && node_ranks < size) {
        *mnode = ic_model_of(node, elem);
        m.node = mnode;
        m.node_ranks = node_ranks;
    }
    return m;
}

size_t ic_choose_seg(const ic_algorithm_t *alg, const ic_coll_args_t *a, const ic_cost_params_t *c,
                     size_t elem)
{
    if (!alg->seg_rule)
        return 0;
    ic_model_t m = ic_model_of(c, elem);
    return ic_alg_segment(alg, a, &m);
}

double ic_estimate(const ic_algorithm_t *alg, const ic_coll_args_t *a0, const ic_cost_params_t *c,
                   size_t elem)
{
    ic_coll_args_t a = *a0;
    if (!a.seg)
        a.seg = ic_choose_seg(alg, &a, c, elem);
    ic_model_t m = ic_model_of(c, elem);
    return alg->cost(&a, &m);
}

/* ------------------------------------------------------ mesh plans */

/* Step costs met while searching, by (algorithm, line length, elements):
 * shapes share most of them. */
#define MEMO_SIZE 4096

typedef struct memo {
    const ic_algorithm_t *alg;
    int share; /* the step's ic_plan_step_share, + 1 (0 = empty) */
    int d;
    long stride; /* its dimension's (with figures by rank distance), else 1 */
    size_t v;
    double cost;
    size_t param;
} memo_t;

typedef struct search {
    const ic_coll_args_t *a;
    const ic_model_t *m;
    const ic_algorithm_t *algs[16]; /* the collective's mesh steps */
    int nalgs;
    ic_plan_t cur;
    /* paired[t]: the algorithm of step t - 1 that streams into step t when
     * step t runs it too (ic_plan_streams): that pair is priced as one */
    const ic_algorithm_t *paired[IC_PLAN_MAXDIMS];
    ic_plan_t *top; /* the k cheapest so far, cheapest first */
    double *top_t;
    int k, have;
    long priced;
    memo_t *memo;
} search_t;

/* Costs within this relative margin are a tie: two plans of the same
 * messages priced by different closed forms (the reduce's binary tree of
 * one segment and the MST at p = 2) can differ in the last bits, and the
 * plan met first (the registry's order, the simpler plan) should win. */
#define TIE_MARGIN 1e-9

/* Whether cost x beats cost y by more than a tie. */
static int cheaper(double x, double y)
{
    return x * (1 + TIE_MARGIN) < y;
}

/* Whether a plan of cost x would enter the k cheapest. */
static int search_admits(const search_t *S, double x)
{
    return S->have < S->k || cheaper(x, S->top_t[S->k - 1]);
}

/* Enter plan pl of cost x among the k cheapest (after every plan of equal
 * cost met before it: ties go to the plan met first). */
static void search_add(search_t *S, const ic_plan_t *pl, double x)
{
    if (!search_admits(S, x))
        return;
    int i = S->have < S->k ? S->have++ : S->k - 1;
    while (i > 0 && cheaper(x, S->top_t[i - 1])) {
        S->top[i] = S->top[i - 1];
        S->top_t[i] = S->top_t[i - 1];
        i--;
    }
    S->top[i] = *pl;
    S->top_t[i] = x;
}

/* Step t of S->cur run by alg, priced with its line's figures by rank
 * distance (ic_model_strided, made on a miss only: stride, the memo's key
 * for them, is its dimension's when S->m has any, else 1). */
static double step_cost(search_t *S, int t, const ic_algorithm_t *alg, int d, double v, int share,
                        long stride)
{
    size_t key = ic_plan_step_count(v);
    size_t h = ((size_t)(uintptr_t)alg * 31u + (size_t)share * 7u + (size_t)d * 1000003u +
                key * 2654435761u + (size_t)stride * 40503u) %
               MEMO_SIZE;
    if (S->memo) {
        for (int probe = 0; probe < 8; probe++) {
            memo_t *e = &S->memo[(h + (size_t)probe) % MEMO_SIZE];
            if (e->alg == alg && e->share == share + 1 && e->d == d && e->v == key &&
                e->stride == stride)
                return e->cost;
            if (!e->alg) {
                size_t param = 0;
                ic_model_t m = ic_model_strided(S->m, &S->cur, t, alg, S->a, 0);
                e->cost = ic_plan_step_cost(alg, S->a, d, v, &param, &m, share);
                e->alg = alg;
                e->share = share + 1;
                e->d = d;
                e->stride = stride;
                e->v = key;
                e->param = param;
                return e->cost;
            }
        }
    }
    size_t param = 0;
    ic_model_t m = ic_model_strided(S->m, &S->cur, t, alg, S->a, 0);
    return ic_plan_step_cost(alg, S->a, d, v, &param, &m, share);
}

/* Every combination of step algorithms for the shape and order in cur,
 * from step t on, given the elements v that reach it and the cost so far
 * (branch and bound: costs only grow).  Two steps that stream
 * (ic_plan_streams: the same broadcast pipeline on both) are priced
 * together (ic_plan_stream_cost), as ic_plan_cost does. */
static void try_steps(search_t *S, int t, double v, double sofar)
{
    if (!search_admits(S, sofar))
        return;
    if (t == S->cur.ndims) {
        if (!ic_plan_usable(&S->cur, S->a, NULL))
            return;
        S->priced++;
        search_add(S, &S->cur, sofar);
        return;
    }
    int d = S->cur.dims[S->cur.step[t].dim];
    double in = ic_plan_step_input(S->a, d, v);
    long stride = S->m->strides ? ic_plan_stride(&S->cur, S->cur.step[t].dim) : 1;
    for (int i = 0; i < S->nalgs; i++) {
        const ic_algorithm_t *alg = S->algs[i];
        if (alg == S->paired[t]) /* streams from the step before: priced with it */
            continue;
        S->cur.step[t].alg = alg;
        S->cur.step[t].param = 0;
        if (t + 1 < S->cur.ndims) { /* alg again on step t + 1: a stream? */
            S->cur.step[t + 1].alg = alg;
            S->cur.step[t + 1].param = 0;
            S->paired[t + 1] = NULL;
            if (ic_plan_streams(&S->cur, S->a->coll, t, ic_plan_step_count(in))) {
                size_t param = 0;
                double c = ic_plan_stream_cost(&S->cur, t, S->a, in, &param, S->m);
                S->priced++;
                if (c >= 0)
                    try_steps(S, t + 2, ic_plan_step_output(S->a, alg, d, in), sofar + c);
                S->paired[t + 1] = alg;
            }
        }
        double c =
            step_cost(S, t, alg, d, in, ic_plan_step_share(&S->cur, t, alg, S->a, S->m), stride);
        S->priced++;
        if (c >= 0)
            try_steps(S, t + 1, ic_plan_step_output(S->a, alg, d, in), sofar + c);
        if (t + 1 < S->cur.ndims)
            S->paired[t + 1] = NULL;
    }
}

/* Visit orders of the shape in cur: all of them for a forced shape, with
 * two levels or with figures by rank distance (a step's price depends on
 * its dimension's stride).  Otherwise the fastest dimension first: in the
 * closed-form model of one level a plan costs what its sequence of (line
 * length, step) costs, and every sequence is some shape visited fastest
 * first, the order in which plan order is rank order (no copies through
 * scratch).  A non-commutative reduce_scatter needs the slowest first (it
 * combines in reverse).  With two levels a step's price also depends on
 * where its dimension lies (inside a node or across, how many lines share
 * a node's link: ic_plan_step_share), so a shape's orders differ: an
 * allgather wants the dimension across nodes first (each rank's own block
 * over the network, the node's blocks after), a reduce_scatter last. */
static void try_orders(search_t *S, int all)
{
    int k = S->cur.ndims, perm[IC_PLAN_MAXDIMS] = {0};
    int slowest = !S->a->commutative && (S->a->coll == IC_COLL_REDUCE_SCATTER ||
                                         S->a->coll == IC_COLL_REDUCE_SCATTER_BLOCK);
    for (int i = 0; i < k; i++)
        perm[i] = slowest && !all ? i : k - 1 - i;
    for (;;) {
        for (int t = 0; t < k; t++)
            S->cur.step[t].dim = perm[t];
        try_steps(S, 0, ic_plan_start(S->a), 0);
        if (!all)
            break;
        /* next permutation in decreasing lexicographic order */
        int i = k - 2;
        while (i >= 0 && perm[i] < perm[i + 1])
            i--;
        if (i < 0)
            break;
        int j = k - 1;
        while (perm[j] > perm[i])
            j--;
        int x = perm[i];
        perm[i] = perm[j];
        perm[j] = x;
        for (int l = i + 1, r = k - 1; l < r; l++, r--) {
            x = perm[l];
            perm[l] = perm[r];
            perm[r] = x;
        }
    }
}

/* Every ordered factorisation of `rest` into the dimensions t.. of cur,
 * each at least 2, up to `maxk` dimensions in all. */
static void try_shapes(search_t *S, int t, int rest, int maxk)
{
    if (rest == 1) {
        if (t >= 2) {
            S->cur.ndims = t;
            try_orders(S, S->m->node != NULL || S->m->strides != NULL);
        }
        return;
    }
    if (t == maxk)
        return;
    for (int d = 2; d <= rest; d++) {
        if (rest % d)
            continue;
        S->cur.dims[t] = d;
        try_shapes(S, t + 1, rest / d, maxk);
    }
}

int ic_choose_plans(const ic_coll_args_t *a, const ic_cost_params_t *c,
                    const ic_cost_params_t *node, int node_ranks, size_t elem, const int *shape,
                    int nshape, int k, ic_plan_t *plans, double *t, long *priced)
{
    if (k < 1)
        return 0;
    ic_model_t mnode, m = ic_model_levels(c, node, node_ranks, a->size, elem, &mnode);
    if (m.node || a->order) /* figures by rank distance: one level, rank order */
        m.strides = NULL;
    search_t S;
    memset(&S, 0, sizeof(S));
    S.a = a;
    S.m = &m;
    S.k = k;
    S.top = plans;
    S.top_t = t;
    int forced_shape = shape && nshape >= 1;
    int shape_p = 1;
    for (int i = 0; forced_shape && i < nshape; i++)
        shape_p *= shape[i];
    if (forced_shape && shape_p != a->size)
        forced_shape = 0; /* the caller warns */
    /* 1-D plans: every registered algorithm (a forced shape of one
     * dimension means exactly these) */
    if (!forced_shape || nshape == 1) {
        for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++) {
            if (alg->coll != a->coll || !ic_alg_priced_in(alg, &m) || !ic_alg_usable(alg, a, NULL))
                continue;
            ic_plan_t pl = ic_plan_1d(alg, 0);
            double x = ic_plan_cost(&pl, a, &m);
            S.priced++;
            if (x >= 0)
                search_add(&S, &pl, x);
        }
    }
    for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++)
        if (alg->coll == a->coll && ic_plan_step_kind(alg) != IC_STEP_NONE &&
            ic_alg_priced_in(alg, &m) && S.nalgs < (int)(sizeof(S.algs) / sizeof(S.algs[0])))
            S.algs[S.nalgs++] = alg;
    if (S.nalgs > 0 && a->size >= 4) {
        S.memo = calloc(MEMO_SIZE, sizeof(memo_t)); /* without it: slower, same answer */
        S.cur = ic_plan_1d(NULL, 0);
        S.cur.coll = a->coll;
        if (forced_shape && nshape >= 2) {
            S.cur.ndims = nshape;
            for (int i = 0; i < nshape; i++)
                S.cur.dims[i] = shape[i];
            try_orders(&S, 1);
        } else if (!forced_shape) {
            try_shapes(&S, 0, a->size, 3);
        }
    }
    free(S.memo);
    if (priced)
        *priced = S.priced;
    if (!S.have && forced_shape) /* no plan on that shape can serve the call */
        return ic_choose_plans(a, c, node, node_ranks, elem, NULL, 0, k, plans, t, priced);
    for (int i = 0; i < S.have; i++)
        ic_plan_resolve(&plans[i], a, &m);
    return S.have;
}

int ic_choose_plan(const ic_coll_args_t *a, const ic_cost_params_t *c, const ic_cost_params_t *node,
                   int node_ranks, size_t elem, const int *shape, int nshape, ic_plan_t *best,
                   double *t, long *priced)
{
    double bt = 0;
    if (ic_choose_plans(a, c, node, node_ranks, elem, shape, nshape, 1, best, &bt, priced) < 1)
        return -1;
    if (t)
        *t = bt;
    return 0;
}

const ic_algorithm_t *ic_choose_direct(ic_coll_t c, int p, int root, const ic_cost_params_t *cp,
                                       const struct ic_table *tb, int rpn, int *line)
{
    ic_coll_args_t a; /* empty blocks: what every rank knows */
    memset(&a, 0, sizeof(a));
    a.coll = c;
    a.size = p;
    a.root = root;
    a.commutative = 1;
    ic_plan_t pl;
    int ln = tb ? ic_table_lookup(tb, &a, 0, rpn, &pl) : 0;
    if (line)
        *line = ln > 0 ? ln : 0;
    if (ln > 0)
        return ic_plan_direct(&pl);
    const ic_algorithm_t *d = NULL, *mst = NULL, *bc = ic_alg_find(IC_COLL_BCAST, "mst");
    for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++)
        if (alg->coll == c && (alg->flags & IC_ALG_OWN_COUNT))
            d = d ? d : alg;
        else if (alg->coll == c && !strcmp(alg->name, "mst"))
            mst = alg;
    if (!d || !mst || !bc || !d->cost || !mst->cost || !bc->cost)
        return NULL;
    ic_model_t m = ic_model_of(cp, 1);
    ic_coll_args_t b = a;
    b.coll = IC_COLL_BCAST;
    b.count = ((size_t)p + 1) * sizeof(uint64_t);
    return d->cost(&a, &m) <= mst->cost(&a, &m) + bc->cost(&b, &m) ? d : NULL;
}
