/*
 * select.c -- which plan serves a call.
 *
 * Order of precedence:
 *   1. a plan forced by IC_Set_algorithm() or INTERCOM_<OP>_ALGORITHM
 *      (OP is the collective's name in capitals, e.g. ALLREDUCE,
 *      REDUCE_SCATTER_BLOCK): an algorithm's name or a mesh plan in the
 *      text form of algorithms/plan.h, if it can serve the call; otherwise
 *      one warning per collective and process, and automatic selection;
 *   2. the tuning table (src/tuning.c: IC_Tuning_load, INTERCOM_TUNING_FILE
 *      or the installed default): the first rule that matches the call and
 *      whose plan can serve it (tuning/table.c), when the communicator's
 *      ranks agree on the table;
 *   3. automatic: ic_choose_plan() (tuning/choose.c) prices every usable
 *      1-D algorithm and mesh plan with its closed-form cost under the
 *      alpha, beta, gamma of the environment (only plans on the shape of
 *      INTERCOM_MESH when it has the communicator's size); the cheapest
 *      wins.  Decisions are cached per communicator.
 * Parameters a forced plan or a rule leaves out (segment, radix) come from
 * the same model; decisions of 2 and 3 are cached per communicator.  The inputs are only arguments
 * that MPI requires to agree across ranks, so every rank reaches the same decision without
 * communicating.
 */
#include "config.h"
#include <pthread.h>
#include "ic_internal.h"
#include "choose.h"
#include "table.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert((int)IC_COLL_ID_COUNT == (int)IC_COLL_COUNT,
               "public and internal collective enumerations must agree");

static ic_plan_t forced[IC_COLL_COUNT];
static int forced_on[IC_COLL_COUNT];  /* forced[c] holds a plan */
static int forced_set[IC_COLL_COUNT]; /* by IC_Set_algorithm */
static _Atomic int env_read[IC_COLL_COUNT];
static int warned[IC_COLL_COUNT];
static int mesh_warned;
/* IC_Last_algorithm and IC_Last_packed_bytes: this thread's last calls */
static IC_TLS char last[IC_COLL_COUNT][IC_PLAN_TEXT_MAX];
static IC_TLS ic_plan_t last_plan[IC_COLL_COUNT]; /* IC_Last_algorithm */
static IC_TLS size_t last_gran[IC_COLL_COUNT];
static IC_TLS int last_on[IC_COLL_COUNT];
static IC_TLS size_t last_packed[IC_COLL_COUNT];

static void warn_once(ic_coll_t c, const char *fmt, const char *arg)
{
    if (warned[c])
        return;
    warned[c] = 1;
    if (ic_world_rank() != 0)
        return;
    fprintf(stderr, "InterCom: warning: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
}

static pthread_mutex_t forced_mu = PTHREAD_MUTEX_INITIALIZER; /* the first look */

const ic_plan_t *ic_forced(ic_coll_t c)
{
    if (!forced_set[c] && !env_read[c]) {
        pthread_mutex_lock(&forced_mu);
        if (forced_set[c] || env_read[c]) {
            pthread_mutex_unlock(&forced_mu);
            return forced_on[c] ? &forced[c] : NULL;
        }
        char var[64];
        snprintf(var, sizeof(var), "INTERCOM_%s_ALGORITHM", ic_coll_name(c));
        for (char *q = var; *q; q++)
            *q = (char)toupper((unsigned char)*q);
        const char *v = getenv(var);
        if (v && *v && strcmp(v, "auto") != 0) {
            const char *why = NULL;
            forced_on[c] = ic_plan_parse(c, v, &forced[c], &why) == 0;
            if (!forced_on[c]) {
                char msg[400];
                snprintf(msg, sizeof(msg), "%s=%s: %s; using automatic selection", var, v,
                         why ? why : "not a plan");
                warn_once(c, "%s", msg);
            }
        }
        env_read[c] = 1;
        pthread_mutex_unlock(&forced_mu);
    }
    return forced_on[c] ? &forced[c] : NULL;
}

/* The block counts and the element size of a call (a cached segment is in
 * elements; the same bytes in other elements need their own decision). */
static unsigned long counts_key(const ic_coll_args_t *a, size_t elem)
{
    unsigned long h = (1469598103UL ^ (unsigned long)elem) * 1099511628211UL;
    if (a->counts)
        for (int i = 0; i < a->size; i++)
            h = (h ^ (unsigned long)a->counts[i]) * 1099511628211UL;
    return h;
}

static size_t total_elems(const ic_coll_args_t *a)
{
    if (a->counts) {
        size_t t = 0;
        for (int i = 0; i < a->size; i++)
            t += a->counts[i];
        return t;
    }
    return a->count;
}

/* INTERCOM_MESH's shape when it has the communicator's size. */
static const int *mesh_shape(const ic_coll_args_t *a, int *nshape)
{
    const ic_env_t *e = ic_env();
    *nshape = 0;
    if (e->mesh_ndims == 0)
        return NULL;
    long p = 1;
    for (int i = 0; i < e->mesh_ndims; i++)
        p *= e->mesh_dims[i];
    if (p != a->size) {
        if (!mesh_warned && ic_env()->verbose && ic_world_rank() == 0)
            fprintf(stderr,
                    "InterCom: INTERCOM_MESH=%s has %ld ranks, a communicator %d: it "
                    "chooses freely\n",
                    e->mesh, p, a->size);
        mesh_warned = 1;
        return NULL;
    }
    *nshape = e->mesh_ndims;
    return e->mesh_dims;
}

/* The model's parameters for ctx: the tuning table's measured ones where
 * its ranks agree on a table that has them (ic_tuning_params); else, for
 * the links across nodes, the figures the context measured (calibrate.c);
 * else the environment's. */
static const ic_cost_params_t *table_cost(const ic_ctx_t *ctx, const ic_cost_params_t *base)
{
    return ctx->table_ok ? ic_tuning_params(base) : base;
}

static const ic_cost_params_t *cost_of(const ic_ctx_t *ctx, const ic_cost_params_t *base)
{
    const ic_cost_params_t *c = table_cost(ctx, base);
    return c == base && base == ctx->cost && ctx->calibrated ? &ctx->calib : c;
}

const ic_cost_params_t *ic_ctx_cost(const ic_ctx_t *ctx)
{
    return cost_of(ctx, ctx->cost);
}

const ic_cost_params_t *ic_ctx_measured_cost(const ic_ctx_t *ctx)
{
    const ic_cost_params_t *c = table_cost(ctx, ctx->cost);
    return c != ctx->cost ? c : NULL;
}

/* A plan as written (forced, or a tuning table's rule) made ready to run:
 * the byte-counted collectives take segments in bytes and count units of
 * elem bytes; what it leaves out (segment, radix) comes from the model. */
static double resolve_written(const ic_ctx_t *ctx, ic_coll_args_t *a, size_t elem, ic_plan_t *pl)
{
    ic_plan_from_written(pl, elem);
    ic_model_t m = ic_model_of(cost_of(ctx, ctx->cost), elem), mnode;
    if (ctx->cost_in) {
        mnode = ic_model_of(cost_of(ctx, ctx->cost_in), elem);
        m.node = &mnode;
        m.node_ranks = ctx->node_ranks;
    }
    ic_plan_resolve(pl, a, &m);
    a->seg = pl->param;
    return ic_plan_cost(pl, a, &m);
}

int ic_select(ic_ctx_t *ctx, ic_coll_args_t *a, size_t elem, ic_plan_t *pl)
{
    ic_coll_t c = a->coll;
    a->order = ctx->order; /* mesh plans place ranks (1-D plans ignore it) */
    const ic_plan_t *f = ic_forced(c);
    if (f) {
        const char *why = NULL;
        if (ic_plan_usable(f, a, &why)) {
            *pl = *f;
            double t = resolve_written(ctx, a, elem, pl);
            static size_t said[IC_COLL_COUNT]; /* bytes + 1 of the last one told */
            size_t bytes = total_elems(a) * elem;
            if (ic_env()->verbose && ctx->rank == 0 && said[c] != bytes + 1) {
                char text[IC_PLAN_TEXT_MAX];
                said[c] = bytes + 1;
                ic_plan_format(pl, text, sizeof(text));
                fprintf(stderr,
                        "InterCom: %s p=%d bytes=%zu root=%d -> %s (forced; model: %.3g s)\n",
                        ic_coll_name(c), a->size, bytes, a->root, text, t);
            }
            return 0;
        }
        char msg[400], text[IC_PLAN_TEXT_MAX];
        ic_plan_format(f, text, sizeof(text));
        snprintf(msg, sizeof(msg),
                 "forced %s plan '%s' cannot serve this call (%s); using automatic selection",
                 ic_coll_name(c), text, why ? why : "unsuitable");
        warn_once(c, "%s", msg);
    }
    size_t bytes = total_elems(a) * elem;
    unsigned long key = counts_key(a, elem);
    for (int i = 0; i < IC_DECISION_CACHE; i++) {
        ic_decision_t *d = &ctx->decisions[i];
        if (d->valid && d->coll == c && d->bytes == bytes && d->root == a->root &&
            d->commutative == a->commutative && d->exact == a->exact && d->key == key) {
            *pl = d->plan;
            a->seg = pl->param;
            return 0;
        }
    }
    double best_t = 0;
    long priced = 0;
    int nshape = 0, line = 0;
    const ic_table_t *tb = ctx->table_ok ? ic_tuning_table() : NULL;
    if (tb)
        line = ic_table_lookup(tb, a, bytes, ctx->rpn, pl);
    if (line > 0) {
        resolve_written(ctx, a, elem, pl);
    } else {
        const int *shape = mesh_shape(a, &nshape);
        const ic_cost_params_t *in = ctx->cost_in ? cost_of(ctx, ctx->cost_in) : NULL;
        if (ic_choose_plan(a, cost_of(ctx, ctx->cost), in, ctx->node_ranks, elem, shape, nshape, pl,
                           &best_t, &priced) != 0)
            return -1;
        a->seg = pl->param;
    }
    if (ic_env()->verbose && ctx->rank == 0) {
        char text[IC_PLAN_TEXT_MAX];
        ic_plan_format(pl, text, sizeof(text));
        if (line > 0)
            fprintf(stderr, "InterCom: %s p=%d bytes=%zu root=%d -> %s (tuning table %s:%d)\n",
                    ic_coll_name(c), a->size, bytes, a->root, text, ic_tuning_source(), line);
        else
            fprintf(stderr,
                    "InterCom: %s p=%d bytes=%zu root=%d -> %s (model: predicted %.3g s, %ld "
                    "plans)\n",
                    ic_coll_name(c), a->size, bytes, a->root, text, best_t, priced);
    }
    ic_decision_t *d = &ctx->decisions[ctx->next_decision++ % IC_DECISION_CACHE];
    d->valid = 1;
    d->coll = c;
    d->bytes = bytes;
    d->root = a->root;
    d->commutative = a->commutative;
    d->exact = a->exact;
    d->key = key;
    d->plan = *pl;
    return 0;
}

/* gatherv and scatterv: the algorithm that needs no block sizes from the
 * root (IC_ALG_OWN_COUNT: a non-root's schedule reads only its own count),
 * or NULL for the others, which need the sizes first (collectives.c).
 * Decided alike on every rank from what every rank knows: the forced plan,
 * else ic_choose_direct (a tuning table's rule for empty blocks, else the
 * model), kept in the context until the decisions are forgotten.  With the
 * sizes known, the table's rules for the call's bytes choose among the
 * others as for any collective. */
const ic_algorithm_t *ic_select_direct(ic_ctx_t *ctx, ic_coll_t c, int root)
{
    const ic_plan_t *f = ic_forced(c);
    if (f)
        return ic_plan_direct(f);
    int k = c == IC_COLL_GATHERV ? 0 : 1;
    if (!ctx->direct[k]) {
        const ic_table_t *tb = ctx->table_ok ? ic_tuning_table() : NULL;
        ctx->direct_alg[k] =
            ic_choose_direct(c, ctx->size, root, cost_of(ctx, ctx->cost), tb, ctx->rpn, NULL);
        ctx->direct[k] = ctx->direct_alg[k] ? 1 : -1;
    }
    return ctx->direct[k] > 0 ? ctx->direct_alg[k] : NULL;
}

/* Kept as a plan, written out when asked (formatting on every call cost
 * about a fifth of a short call). */
void ic_record_last(ic_coll_t c, const ic_plan_t *pl, size_t gran)
{
    last_on[c] = pl != NULL;
    if (pl) {
        last_plan[c] = *pl;
        last_gran[c] = gran;
    }
}

void ic_record_packed(ic_coll_t c, size_t bytes)
{
    last_packed[c] = bytes;
}

/* ------------------------------------------------- public introspection */

size_t IC_Last_packed_bytes(IC_Coll coll)
{
    if ((int)coll < 0 || (int)coll >= IC_COLL_COUNT)
        return 0;
    return last_packed[coll];
}

const char *IC_Last_algorithm(IC_Coll coll)
{
    if ((int)coll < 0 || (int)coll >= IC_COLL_COUNT)
        return "";
    last[coll][0] = 0;
    if (last_on[coll]) {
        ic_plan_t shown = last_plan[coll]; /* as written */
        ic_plan_to_written(&shown, last_gran[coll]);
        ic_plan_format(&shown, last[coll], sizeof(last[coll]));
    }
    return last[coll];
}

int IC_Algorithm_count(IC_Coll coll)
{
    int n = 0;
    for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++)
        if ((int)alg->coll == (int)coll)
            n++;
    return n;
}

const char *IC_Algorithm_name(IC_Coll coll, int i)
{
    int n = 0;
    for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++)
        if ((int)alg->coll == (int)coll && n++ == i)
            return alg->name;
    return NULL;
}

int IC_Set_algorithm(IC_Coll coll, const char *plan)
{
    if ((int)coll < 0 || (int)coll >= IC_COLL_COUNT)
        return MPI_ERR_ARG;
    ic_coll_t c = (ic_coll_t)coll;
    if (!plan || strcmp(plan, "auto") == 0) {
        forced_on[c] = 0;
        forced_set[c] = 1;
        warned[c] = 0;
        ic_ctx_forget_schedules();
        return MPI_SUCCESS;
    }
    ic_plan_t pl;
    if (ic_plan_parse(c, plan, &pl, NULL) != 0)
        return MPI_ERR_ARG;
    forced[c] = pl;
    forced_on[c] = 1;
    forced_set[c] = 1;
    warned[c] = 0;
    ic_ctx_forget_schedules();
    return MPI_SUCCESS;
}
