/*
 * registry.c -- the one registry of algorithms: every algorithm of every
 * collective, with its restrictions.  The selector, the environment
 * override, the tuning tools, the tests and the info tool all enumerate
 * ic_algorithms[]; nothing else knows the list.
 */
#include "coll_common.h"

#include <string.h>

#define KEEPS IC_ALG_KEEPS_ORDER

/* ALG(collective, name, flags, builder, cost, description); SEGMENTED adds
 * the pipelined algorithm's segment rule. */
#define ALG(c, n, f, b, k, d)                                                                      \
    {                                                                                              \
        .name = n, .coll = c, .description = d, .flags = f, .build = b, .cost = k                  \
    }
#define SEGMENTED(c, n, f, b, k, r, d)                                                             \
    {                                                                                              \
        .name = n, .coll = c, .description = d, .flags = f, .build = b, .cost = k, .seg_rule = r   \
    }

const ic_algorithm_t ic_algorithms[] = {
    ALG(IC_COLL_BCAST, "mst", KEEPS, ic_coll_bcast_mst, ic_cost_bcast_mst,
        "MST broadcast (short vectors)"),
    ALG(IC_COLL_BCAST, "scatter_collect", KEEPS, ic_coll_bcast_scatter_collect,
        ic_cost_bcast_scatter_collect, "MST scatter + bucket collect (long vectors)"),
    SEGMENTED(IC_COLL_BCAST, "pipeline", KEEPS, ic_coll_bcast_pipeline, ic_cost_bcast_pipeline,
              ic_seg_bcast_pipeline, "pipelined chain broadcast in segments (long vectors)"),
    SEGMENTED(IC_COLL_BCAST, "binary_tree", KEEPS, ic_coll_bcast_binary_tree,
              ic_cost_bcast_binary_tree, ic_seg_bcast_binary_tree,
              "pipelined binary-tree broadcast (middle vectors, long lines)"),
    SEGMENTED(IC_COLL_BCAST, "knomial", KEEPS, ic_coll_bcast_knomial, ic_cost_bcast_knomial,
              ic_radix_bcast_knomial,
              "k-nomial tree broadcast, radix from the model (short vectors, o < alpha)"),

    ALG(IC_COLL_REDUCE, "mst", KEEPS, ic_coll_reduce_mst, ic_cost_reduce_mst,
        "MST combine-to-one (short vectors)"),
    ALG(IC_COLL_REDUCE, "dcombine_gather", 0, ic_coll_reduce_dcombine_gather,
        ic_cost_reduce_dcombine_gather, "bucket distributed combine + MST gather (long vectors)"),
    SEGMENTED(IC_COLL_REDUCE, "binary_tree", 0, ic_coll_reduce_binary_tree,
              ic_cost_reduce_binary_tree, ic_seg_bcast_binary_tree,
              "pipelined binary-tree combine (middle vectors, long lines)"),

    ALG(IC_COLL_ALLREDUCE, "mst", KEEPS, ic_coll_allreduce_mst, ic_cost_allreduce_mst,
        "MST combine-to-one + MST broadcast (short vectors)"),
    ALG(IC_COLL_ALLREDUCE, "dcombine_collect", 0, ic_coll_allreduce_dcombine_collect,
        ic_cost_allreduce_dcombine_collect,
        "bucket distributed combine + bucket collect (long vectors)"),
    ALG(IC_COLL_ALLREDUCE, "recursive_doubling", KEEPS, ic_coll_allreduce_rd, ic_cost_allreduce_rd,
        "pairwise exchanges at distance 1, 2, 4, ... (shortest vectors)"),
    ALG(IC_COLL_ALLREDUCE, "halving_doubling", 0, ic_coll_allreduce_halving_doubling,
        ic_cost_allreduce_halving_doubling,
        "recursive-halving distributed combine + Bruck collect (middle vectors)"),

    ALG(IC_COLL_ALLGATHER, "gather_bcast", KEEPS, ic_coll_allgather_gather_bcast,
        ic_cost_allgather_gather_bcast, "MST gather + MST broadcast (short vectors)"),
    ALG(IC_COLL_ALLGATHER, "bucket", KEEPS, ic_coll_allgather_bucket, ic_cost_allgather_bucket,
        "bucket collect (long vectors)"),
    ALG(IC_COLL_ALLGATHER, "bruck", KEEPS, ic_coll_allgather_bruck, ic_cost_allgather_bruck,
        "Bruck collect, ceil(log2 p) steps (short and middle vectors)"),

    ALG(IC_COLL_ALLGATHERV, "gather_bcast", KEEPS, ic_coll_allgather_gather_bcast,
        ic_cost_allgather_gather_bcast, "MST gather + MST broadcast (short vectors)"),
    ALG(IC_COLL_ALLGATHERV, "bucket", KEEPS, ic_coll_allgather_bucket, ic_cost_allgather_bucket,
        "bucket collect (long vectors)"),
    ALG(IC_COLL_ALLGATHERV, "bruck", KEEPS, ic_coll_allgather_bruck, ic_cost_allgather_bruck,
        "Bruck collect, ceil(log2 p) steps (short and middle vectors)"),

    ALG(IC_COLL_REDUCE_SCATTER, "mst", KEEPS, ic_coll_reduce_scatter_mst,
        ic_cost_reduce_scatter_mst, "MST combine-to-one + MST scatter (short vectors)"),
    ALG(IC_COLL_REDUCE_SCATTER, "bucket", 0, ic_coll_reduce_scatter_bucket,
        ic_cost_reduce_scatter_bucket, "bucket distributed combine (long vectors)"),
    ALG(IC_COLL_REDUCE_SCATTER, "recursive_halving", 0, ic_coll_reduce_scatter_halving,
        ic_cost_reduce_scatter_halving,
        "recursive-halving distributed combine (short and middle vectors)"),

    ALG(IC_COLL_REDUCE_SCATTER_BLOCK, "mst", KEEPS, ic_coll_reduce_scatter_mst,
        ic_cost_reduce_scatter_mst, "MST combine-to-one + MST scatter (short vectors)"),
    ALG(IC_COLL_REDUCE_SCATTER_BLOCK, "bucket", 0, ic_coll_reduce_scatter_bucket,
        ic_cost_reduce_scatter_bucket, "bucket distributed combine (long vectors)"),
    ALG(IC_COLL_REDUCE_SCATTER_BLOCK, "recursive_halving", 0, ic_coll_reduce_scatter_halving,
        ic_cost_reduce_scatter_halving,
        "recursive-halving distributed combine (short and middle vectors)"),

    ALG(IC_COLL_SCATTER, "mst", KEEPS, ic_coll_scatter_mst, ic_cost_scatter_mst, "MST scatter"),

    ALG(IC_COLL_SCATTERV, "mst", KEEPS, ic_coll_scatter_mst, ic_cost_scatter_mst, "MST scatter"),

    ALG(IC_COLL_GATHER, "mst", KEEPS, ic_coll_gather_mst, ic_cost_gather_mst, "MST gather"),

    ALG(IC_COLL_GATHERV, "mst", KEEPS, ic_coll_gather_mst, ic_cost_gather_mst, "MST gather"),

    ALG(IC_COLL_BARRIER, "mst", KEEPS, ic_coll_barrier_mst, ic_cost_barrier_mst,
        "empty MST fan-in + fan-out"),
    ALG(IC_COLL_BARRIER, "dissemination", KEEPS, ic_coll_barrier_dissemination,
        ic_cost_barrier_dissemination, "dissemination, ceil(log2 p) rounds"),

    {.name = NULL, .coll = IC_COLL_COUNT}};

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
    if (no && why)
        *why = no;
    return no == NULL;
}
