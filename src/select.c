/*
 * select.c -- which algorithm serves a call.
 *
 * Order of precedence:
 *   1. an algorithm forced by IC_Set_algorithm() or INTERCOM_<OP>_ALGORITHM
 *      (OP is the collective's name in capitals, e.g. ALLREDUCE,
 *      REDUCE_SCATTER_BLOCK), if it can serve the call; otherwise one warning
 *      per collective and process, and automatic selection;
 *   2. automatic: ic_choose() (tuning/choose.c) builds every usable
 *      registered algorithm for all p ranks and prices it with the cost
 *      evaluator, using the alpha, beta, gamma of the environment; the
 *      cheapest wins.  Decisions are cached per communicator.
 * A pipelined algorithm also gets its segment size here (a->seg), from its
 * own cost formula and the same parameters.  The tuning table will replace the built-in parameters.
 * The inputs are only arguments that MPI requires to agree across ranks, so
 * every rank reaches the same decision without communicating.
 */
#include "config.h"
#include "ic_internal.h"
#include "choose.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert((int)IC_COLL_ID_COUNT == (int)IC_COLL_COUNT,
               "public and internal collective enumerations must agree");

static const ic_algorithm_t *forced[IC_COLL_COUNT];
static int forced_set[IC_COLL_COUNT];   /* by IC_Set_algorithm */
static int env_read[IC_COLL_COUNT];
static int warned[IC_COLL_COUNT];
static const char *last[IC_COLL_COUNT];
static size_t last_packed[IC_COLL_COUNT];

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

const ic_algorithm_t *ic_forced(ic_coll_t c)
{
    if (!forced_set[c] && !env_read[c]) {
        env_read[c] = 1;
        char var[64];
        snprintf(var, sizeof(var), "INTERCOM_%s_ALGORITHM", ic_coll_name(c));
        for (char *q = var; *q; q++)
            *q = (char)toupper((unsigned char)*q);
        const char *v = getenv(var);
        if (v && *v && strcmp(v, "auto") != 0) {
            forced[c] = ic_alg_find(c, v);
            if (!forced[c]) {
                char msg[160];
                snprintf(msg, sizeof(msg), "%s=%s: no such algorithm; using automatic selection",
                         var, v);
                warn_once(c, "%s", msg);
            }
        }
    }
    return forced[c];
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

const ic_algorithm_t *ic_select(ic_ctx_t *ctx, ic_coll_args_t *a, size_t elem)
{
    ic_coll_t c = a->coll;
    const ic_algorithm_t *f = ic_forced(c);
    if (f) {
        const char *why = NULL;
        if (ic_alg_usable(f, a, &why)) {
            a->seg = ic_choose_seg(f, a, ctx->cost, elem);
            return f;
        }
        char msg[200];
        snprintf(msg, sizeof(msg),
                 "forced %s algorithm '%s' cannot serve this call (%s); using automatic selection",
                 ic_coll_name(c), f->name, why ? why : "unsuitable");
        warn_once(c, "%s", msg);
    }
    size_t bytes = total_elems(a) * elem;
    unsigned long key = counts_key(a, elem);
    for (int i = 0; i < IC_DECISION_CACHE; i++) {
        ic_decision_t *d = &ctx->decisions[i];
        if (d->valid && d->coll == c && d->bytes == bytes && d->root == a->root &&
            d->commutative == a->commutative && d->key == key) {
            a->seg = d->seg;
            return d->alg;
        }
    }
    double best_t = 0;
    const ic_algorithm_t *best = ic_choose(a, ctx->cost, elem, &best_t);
    if (!best)
        return NULL;
    a->seg = ic_choose_seg(best, a, ctx->cost, elem);
    if (ic_env()->verbose && ctx->rank == 0)
        fprintf(stderr, "InterCom: %s p=%d bytes=%zu root=%d -> %s (predicted %.3g s)\n",
                ic_coll_name(c), a->size, bytes, a->root, best->name, best_t);
    ic_decision_t *d = &ctx->decisions[ctx->next_decision++ % IC_DECISION_CACHE];
    d->valid = 1;
    d->coll = c;
    d->bytes = bytes;
    d->root = a->root;
    d->commutative = a->commutative;
    d->key = key;
    d->alg = best;
    d->seg = a->seg;
    return best;
}

void ic_record_last(ic_coll_t c, const ic_algorithm_t *alg)
{
    last[c] = alg ? alg->name : "";
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
    return last[coll] ? last[coll] : "";
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

int IC_Set_algorithm(IC_Coll coll, const char *name)
{
    if ((int)coll < 0 || (int)coll >= IC_COLL_COUNT)
        return MPI_ERR_ARG;
    ic_coll_t c = (ic_coll_t)coll;
    if (!name || strcmp(name, "auto") == 0) {
        forced[c] = NULL;
        forced_set[c] = 1;
        warned[c] = 0;
        return MPI_SUCCESS;
    }
    const ic_algorithm_t *alg = ic_alg_find(c, name);
    if (!alg)
        return MPI_ERR_ARG;
    forced[c] = alg;
    forced_set[c] = 1;
    warned[c] = 0;
    return MPI_SUCCESS;
}
