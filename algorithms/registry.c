/*
 * registry.c -- the one registry of algorithms: every algorithm of every
 * collective, with its restrictions.  The selector, the environment
 * override, the tuning tools, the tests and the info tool all enumerate
 * ic_algorithms[]; nothing else knows the list.
 */
#include "coll_common.h"

#include <string.h>

#define KEEPS IC_ALG_KEEPS_ORDER

const ic_algorithm_t ic_algorithms[] = {
    {"mst", IC_COLL_BCAST, "MST broadcast (short vectors)", KEEPS, ic_coll_bcast_mst},
    {"scatter_collect", IC_COLL_BCAST, "MST scatter + bucket collect (long vectors)", KEEPS,
     ic_coll_bcast_scatter_collect},

    {"mst", IC_COLL_REDUCE, "MST combine-to-one (short vectors)", KEEPS, ic_coll_reduce_mst},
    {"dcombine_gather", IC_COLL_REDUCE,
     "bucket distributed combine + MST gather (long vectors)", 0,
     ic_coll_reduce_dcombine_gather},

    {"mst", IC_COLL_ALLREDUCE, "MST combine-to-one + MST broadcast (short vectors)", KEEPS,
     ic_coll_allreduce_mst},
    {"dcombine_collect", IC_COLL_ALLREDUCE,
     "bucket distributed combine + bucket collect (long vectors)", 0,
     ic_coll_allreduce_dcombine_collect},

    {"gather_bcast", IC_COLL_ALLGATHER, "MST gather + MST broadcast (short vectors)", KEEPS,
     ic_coll_allgather_gather_bcast},
    {"bucket", IC_COLL_ALLGATHER, "bucket collect (long vectors)", KEEPS,
     ic_coll_allgather_bucket},
    {"gather_bcast", IC_COLL_ALLGATHERV, "MST gather + MST broadcast (short vectors)", KEEPS,
     ic_coll_allgather_gather_bcast},
    {"bucket", IC_COLL_ALLGATHERV, "bucket collect (long vectors)", KEEPS,
     ic_coll_allgather_bucket},

    {"mst", IC_COLL_REDUCE_SCATTER, "MST combine-to-one + MST scatter (short vectors)", KEEPS,
     ic_coll_reduce_scatter_mst},
    {"bucket", IC_COLL_REDUCE_SCATTER, "bucket distributed combine (long vectors)", 0,
     ic_coll_reduce_scatter_bucket},
    {"mst", IC_COLL_REDUCE_SCATTER_BLOCK, "MST combine-to-one + MST scatter (short vectors)",
     KEEPS, ic_coll_reduce_scatter_mst},
    {"bucket", IC_COLL_REDUCE_SCATTER_BLOCK, "bucket distributed combine (long vectors)", 0,
     ic_coll_reduce_scatter_bucket},

    {"mst", IC_COLL_SCATTER, "MST scatter", KEEPS, ic_coll_scatter_mst},
    {"mst", IC_COLL_SCATTERV, "MST scatter", KEEPS, ic_coll_scatter_mst},
    {"mst", IC_COLL_GATHER, "MST gather", KEEPS, ic_coll_gather_mst},
    {"mst", IC_COLL_GATHERV, "MST gather", KEEPS, ic_coll_gather_mst},

    {"mst", IC_COLL_BARRIER, "empty MST fan-in + fan-out", KEEPS, ic_coll_barrier_mst},
    {"dissemination", IC_COLL_BARRIER, "dissemination, ceil(log2 p) rounds", KEEPS,
     ic_coll_barrier_dissemination},

    {NULL, IC_COLL_COUNT, NULL, 0, NULL}};

const ic_algorithm_t *ic_alg_find(ic_coll_t c, const char *name)
{
    if (!name)
        return NULL;
    for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++)
        if (alg->coll == c && strcmp(alg->name, name) == 0)
            return alg;
    return NULL;
}

int ic_alg_usable(const ic_algorithm_t *alg, const ic_coll_args_t *a, const char **why)
{
    const char *no = NULL;
    if (!alg || !alg->build)
        no = "no such algorithm";
    else if (alg->coll != a->coll)
        no = "algorithm of another collective";
    else if (a->size < 1)
        no = "empty communicator";
    else if (!a->commutative && !(alg->flags & IC_ALG_KEEPS_ORDER))
        no = "needs a commutative op";
    else if ((alg->flags & IC_ALG_NEEDS_PACKED) && a->displs)
        no = "needs packed blocks";
    if (no && why)
        *why = no;
    return no == NULL;
}
