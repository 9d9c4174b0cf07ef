/*
 * registry.c -- the one registry of algorithms: every algorithm of every
 * collective, with its restrictions.  The selector, the environment
 * override, the tuning tools, the tests and the info tool all enumerate
 * ic_algorithms[]; nothing else knows the list.
 */
#include "coll_common.h"

#include <string.h>

#define KEEPS IC_ALG_KEEPS_ORDER
#define NEXT IC_ALG_NEIGHBOURS
#define TWO IC_ALG_TWO_WAYS

/* STEP(collective, name, flags, step kind, cost, segment rule, description):
 * an algorithm the composer builds (compose.c), on the whole line or as a
 * mesh step; the segment rule (or radix rule) NULL where there is no
 * parameter.  ALG(collective, name, flags, builder, cost, description): an
 * algorithm with its own builder, on the whole communicator only.
 * STEP_ROOM and ALG_ROOM (room rule before the description): an algorithm
 * whose scratch can outgrow the call's allowance, with its rule
 * (ic_room_fn). */
#define STEP_ROOM(c, n, f, s, k, r, room_, d)                                                      \
    {                                                                                              \
        .name = n, .coll = c, .description = d, .flags = f, .step = s, .cost = k, .seg_rule = r,   \
        .room = room_                                                                              \
    }
#define ALG_ROOM(c, n, f, b, k, r, room_, d)                                                       \
    {                                                                                              \
        .name = n, .coll = c, .description = d, .flags = f, .build = b, .cost = k, .seg_rule = r,  \
        .room = room_                                                                              \
    }
#define STEP(c, n, f, s, k, r, d) STEP_ROOM(c, n, f, s, k, r, NULL, d)
#define ALG(c, n, f, b, k, r, d) ALG_ROOM(c, n, f, b, k, r, NULL, d)

#define TS "tan-strazdins-2002"

const ic_algorithm_t ic_algorithms[] = {
    STEP(IC_COLL_BCAST, "mst", KEEPS, IC_STEP_BCAST_MST, ic_cost_bcast_mst, NULL,
         "MST broadcast (short vectors)"),
    STEP(IC_COLL_BCAST, "scatter_collect", KEEPS, IC_STEP_BCAST_SCATTER,
         ic_cost_bcast_scatter_collect, NULL, "MST scatter + bucket collect (long vectors)"),
    STEP(IC_COLL_BCAST, "bidir_scatter_collect", KEEPS | IC_ALG_COST_BOUND | TWO,
         IC_STEP_BCAST_SCATTER2, ic_cost_bcast_scatter_collect2, NULL,
         "scatter_collect whose collect runs on two counter-rotating rings (full-duplex "
         "neighbour links: tori)"),
    STEP(IC_COLL_BCAST, "halfway_scatter_collect", KEEPS | IC_ALG_COST_BOUND | TWO,
         IC_STEP_BCAST_SCATTER_HALF, ic_cost_bcast_scatter_halfway, NULL,
         "scatter_collect whose collect runs on the halfway rings: whole blocks half way round "
         "each (full-duplex neighbour links: tori)"),
    STEP(IC_COLL_BCAST, "scatter_doubling", KEEPS | IC_ALG_COST_FOLDS, IC_STEP_BCAST_SCATTER_RD,
         ic_cost_bcast_scatter_doubling, NULL,
         "MST scatter + recursive-doubling collect (long vectors, switched networks)"),
    STEP(IC_COLL_BCAST, "pipeline", KEEPS | NEXT, IC_STEP_BCAST_PIPELINE, ic_cost_bcast_pipeline,
         ic_seg_bcast_pipeline, "pipelined chain broadcast in segments (long vectors)"),
    STEP(IC_COLL_BCAST, "bidir_pipeline", KEEPS | NEXT | IC_ALG_COST_BOUND | TWO,
         IC_STEP_BCAST_PIPELINE2, ic_cost_bcast_pipeline2, ic_seg_bcast_pipeline2,
         "pipeline on two chains, one each way round the ring (full-duplex neighbour links: "
         "tori)"),
    STEP(IC_COLL_BCAST, "halfway_pipeline",
         KEEPS | NEXT | IC_ALG_COST_BOUND | TWO | IC_ALG_DATAFLOW, IC_STEP_BCAST_HALFWAY,
         ic_cost_bcast_halfway, ic_seg_bcast_halfway,
         "the whole vector on two chains, one each way half way round the ring; on a 2-D mesh "
         "two edge-disjoint trees of the torus, a half each (full-duplex neighbour links: tori)"),
    STEP(IC_COLL_BCAST, "binary_tree", KEEPS, IC_STEP_BCAST_TREE, ic_cost_bcast_binary_tree,
         ic_seg_bcast_binary_tree, "pipelined binary-tree broadcast (middle vectors, long lines)"),
    STEP(IC_COLL_BCAST, "two_tree", KEEPS | IC_ALG_COST_BOUND, IC_STEP_BCAST_TWOTREE,
         ic_cost_bcast_two_tree, ic_seg_bcast_two_tree,
         "two pipelined binary trees, a half of the vector each, every rank interior in at most "
         "one (long vectors, long lines; Sanders, Speck, Traff)"),
    STEP(IC_COLL_BCAST, "knomial", KEEPS | IC_ALG_RADIX, IC_STEP_BCAST_KNOMIAL,
         ic_cost_bcast_knomial, ic_radix_bcast_knomial,
         "k-nomial tree broadcast, radix from the model (short vectors, o < alpha)"),
    STEP(IC_COLL_BCAST, "circulant", KEEPS | IC_ALG_COST_BOUND, IC_STEP_BCAST_CIRCULANT,
         ic_cost_bcast_circulant, ic_seg_bcast_circulant,
         "round-optimal broadcast on a circulant graph: blocks in B - 1 + ceil(log2 p) rounds, "
         "one sent and one received a round everywhere (long vectors; Traff 2025)"),

    STEP(IC_COLL_REDUCE, "mst", KEEPS, IC_STEP_REDUCE_MST, ic_cost_reduce_mst, NULL,
         "MST combine-to-one (short vectors)"),
    STEP(IC_COLL_REDUCE, "dcombine_gather", 0, IC_STEP_REDUCE_DCOMBINE,
         ic_cost_reduce_dcombine_gather, NULL,
         "bucket distributed combine + MST gather (long vectors)"),
    STEP(IC_COLL_REDUCE, "halving_gather", IC_ALG_COST_FOLDS, IC_STEP_REDUCE_RH,
         ic_cost_reduce_halving_gather, NULL,
         "recursive-halving distributed combine + MST gather (middle and long vectors; "
         "Rabenseifner)"),
    ALG(IC_COLL_REDUCE, "binary_tree", 0, ic_coll_reduce_binary_tree, ic_cost_reduce_binary_tree,
        ic_seg_bcast_binary_tree, "pipelined binary-tree combine (middle vectors, long lines)"),
    ALG_ROOM(IC_COLL_REDUCE, "knomial", IC_ALG_RADIX, ic_coll_reduce_knomial,
             ic_cost_reduce_knomial, ic_radix_reduce_knomial, ic_knomial_reduce_room,
             "k-nomial tree combine, the children's partials at once, radix from the model "
             "(short vectors, o < alpha)"),
    STEP(IC_COLL_REDUCE, "pipeline", KEEPS | NEXT, IC_STEP_REDUCE_PIPELINE, ic_cost_reduce_pipeline,
         ic_seg_reduce_pipeline, "pipelined chain combine-to-one in segments (long vectors)"),
    ALG(IC_COLL_REDUCE, "two_tree", IC_ALG_COST_BOUND, ic_coll_reduce_two_tree,
        ic_cost_reduce_two_tree, ic_seg_reduce_two_tree,
        "two pipelined binary trees combining upwards, a half of the vector each, every rank "
        "interior in at most one (long vectors, long lines; Sanders, Speck, Traff)"),
    STEP_ROOM(IC_COLL_REDUCE, "circulant", IC_ALG_COST_BOUND, IC_STEP_REDUCE_CIRCULANT,
              ic_cost_reduce_circulant, ic_seg_reduce_circulant, ic_circulant_reduce_room,
              "the circulant-graph broadcast run backwards: blocks combined up in B - 1 + "
              "ceil(log2 p) rounds (long vectors; Traff)"),

    STEP(IC_COLL_ALLREDUCE, "mst", KEEPS, IC_STEP_ALLREDUCE_MST, ic_cost_allreduce_mst, NULL,
         "MST combine-to-one + MST broadcast (short vectors)"),
    STEP(IC_COLL_ALLREDUCE, "dcombine_collect", NEXT, IC_STEP_ALLREDUCE_DCOMBINE,
         ic_cost_allreduce_dcombine_collect, NULL,
         "bucket distributed combine + bucket collect (long vectors)"),
    STEP(IC_COLL_ALLREDUCE, "bidir_dcombine_collect", NEXT | IC_ALG_COST_BOUND | TWO,
         IC_STEP_ALLREDUCE_DCOMBINE2, ic_cost_allreduce_dcombine_collect2, NULL,
         "dcombine_collect on two counter-rotating rings, half of each block each "
         "(full-duplex neighbour links: tori)"),
    STEP(IC_COLL_ALLREDUCE, "halfway_dcombine_collect", NEXT | IC_ALG_COST_BOUND | TWO,
         IC_STEP_ALLREDUCE_HALFWAY, ic_cost_allreduce_halfway, NULL,
         "dcombine_collect with whole blocks on two counter-rotating rings, each half way round: "
         "half the steps (full-duplex neighbour links: tori)"),
    STEP(IC_COLL_ALLREDUCE, "recursive_doubling", KEEPS, IC_STEP_ALLREDUCE_RD, ic_cost_allreduce_rd,
         NULL, "pairwise exchanges at distance 1, 2, 4, ... (shortest vectors)"),
    STEP(IC_COLL_ALLREDUCE, "halving_doubling", IC_ALG_COST_FOLDS, IC_STEP_ALLREDUCE_RH,
         ic_cost_allreduce_halving_doubling, NULL,
         "recursive-halving distributed combine + Bruck collect (middle vectors)"),
    STEP(IC_COLL_ALLREDUCE, "recursive_halving_doubling", IC_ALG_COST_FOLDS, IC_STEP_ALLREDUCE_RHRD,
         ic_cost_allreduce_rhrd, NULL,
         "recursive halving, near partners first, then recursive doubling (" TS " 3.3.2)"),
    /* After recursive_halving_doubling: the same closed form (alpha-beta
     * has no distance), so the model keeps that one; Swing's shorter
     * partners show where links are shared (a torus), and tables name it. */
    STEP(IC_COLL_ALLREDUCE, "swing", IC_ALG_COST_FOLDS, IC_STEP_ALLREDUCE_SWING,
         ic_cost_allreduce_rhrd, NULL,
         "recursive halving then doubling with Swing's partners, 1, -1, 3, -5, 11, ... apart "
         "(tori; De Sensi et al., NSDI 2024)"),
    STEP(IC_COLL_ALLREDUCE, "ring", IC_ALG_EXACT_OP | NEXT, IC_STEP_ALLREDUCE_RING,
         ic_cost_allreduce_ring, NULL,
         "whole vectors round the ring, exact ops only (" TS " 3.3.4)"),
    STEP(IC_COLL_ALLREDUCE, "repeated_binary_tree", KEEPS | IC_ALG_COST_ESTIMATE,
         IC_STEP_ALLREDUCE_TREE, ic_cost_allreduce_tree, NULL,
         "p MST combines of the blocks, then p MST broadcasts (" TS " 3.3.5)"),
    STEP(IC_COLL_ALLREDUCE, "pipeline", KEEPS | NEXT | IC_ALG_COST_ESTIMATE,
         IC_STEP_ALLREDUCE_CHAIN, ic_cost_allreduce_chain, NULL,
         "p chain combines of the blocks, then p chain broadcasts (" TS " 3.3.6)"),
    STEP(IC_COLL_ALLREDUCE, "full_fanin", IC_ALG_COST_ESTIMATE, IC_STEP_ALLREDUCE_FANIN,
         ic_cost_allreduce_fanin, NULL,
         "full fan-in of the blocks, then full fan-in collect (" TS " 3.3.7)"),
    STEP(IC_COLL_ALLREDUCE, "full_fanout", IC_ALG_COST_BOUND, IC_STEP_ALLREDUCE_FANOUT,
         ic_cost_allreduce_fanout, NULL,
         "full fan-out of the blocks, then full fan-out collect (" TS " 3.3.7)"),
    STEP_ROOM(IC_COLL_ALLREDUCE, "one_shot", KEEPS | IC_ALG_COST_BOUND, IC_STEP_ALLREDUCE_ONESHOT,
              ic_cost_allreduce_one_shot, NULL, ic_one_shot_room,
              "whole vectors to every rank in one round, combined in rank order (shortest vectors, "
              "tori)"),

    STEP(IC_COLL_ALLGATHER, "gather_bcast", KEEPS, IC_STEP_COLLECT_GB,
         ic_cost_allgather_gather_bcast, NULL, "MST gather + MST broadcast (short vectors)"),
    STEP(IC_COLL_ALLGATHER, "bucket", KEEPS | NEXT, IC_STEP_COLLECT_BUCKET,
         ic_cost_allgather_bucket, NULL, "bucket collect (long vectors)"),
    STEP(IC_COLL_ALLGATHER, "bidir_bucket", KEEPS | NEXT | IC_ALG_COST_BOUND | TWO,
         IC_STEP_COLLECT_BUCKET2, ic_cost_allgather_bucket2, NULL,
         "bucket collect on two counter-rotating rings, half of each block each (full-duplex "
         "neighbour links: tori)"),
    STEP(IC_COLL_ALLGATHER, "halfway_bucket", KEEPS | NEXT | IC_ALG_COST_BOUND | TWO,
         IC_STEP_COLLECT_HALFWAY, ic_cost_allgather_halfway, NULL,
         "bucket collect with whole blocks on two counter-rotating rings, each half way round: "
         "half the steps (full-duplex neighbour links: tori)"),
    /* Before bruck: at p = 2^k the two take the same start-ups and bytes
     * (ties go to the first), and the pairwise exchanges need no rotated
     * copy of the vector (Bruck copies it twice).  Over TCP, 8 emulated
     * hosts, 32 B and 1 KiB: 0.99-1.0 of Open MPI's speed against
     * 0.86-0.93 for Bruck. */
    STEP(IC_COLL_ALLGATHER, "bidirectional_exchange", KEEPS | IC_ALG_COST_FOLDS, IC_STEP_COLLECT_RD,
         ic_cost_allgather_rd, NULL, "pairwise exchanges at distance 1, 2, 4, ... (" TS " 3.3.1)"),
    STEP(IC_COLL_ALLGATHER, "swing", KEEPS | IC_ALG_COST_FOLDS, IC_STEP_COLLECT_SWING,
         ic_cost_allgather_rd, NULL,
         "pairwise exchanges with Swing's partners, ..., 11, -5, 3, -1, 1 apart (tori; the same "
         "closed form: tables name it)"),
    STEP(IC_COLL_ALLGATHER, "full_fanout", KEEPS | IC_ALG_COST_BOUND, IC_STEP_COLLECT_FANOUT,
         ic_cost_allgather_fanout, NULL,
         "full fan-out: every block to every rank in one round (" TS " 3.3.7)"),
    STEP(IC_COLL_ALLGATHER, "bruck", KEEPS, IC_STEP_COLLECT_BRUCK, ic_cost_allgather_bruck, NULL,
         "Bruck collect, ceil(log2 p) steps (short and middle vectors)"),
    STEP(IC_COLL_ALLGATHER, "repeated_binary_tree", KEEPS | IC_ALG_COST_ESTIMATE,
         IC_STEP_COLLECT_TREE, ic_cost_allgather_tree, NULL,
         "p MST broadcasts in turn (" TS " 3.3.5)"),
    STEP(IC_COLL_ALLGATHER, "pipeline", KEEPS | NEXT | IC_ALG_COST_ESTIMATE, IC_STEP_COLLECT_CHAIN,
         ic_cost_allgather_chain, NULL, "p chain broadcasts in turn (" TS " 3.3.6)"),
    STEP(IC_COLL_ALLGATHER, "full_fanin", KEEPS | IC_ALG_COST_ESTIMATE, IC_STEP_COLLECT_FANIN,
         ic_cost_allgather_fanin, NULL, "p stages of p-1 receives in turn (" TS " 3.3.7)"),

    STEP(IC_COLL_ALLGATHERV, "gather_bcast", KEEPS, IC_STEP_COLLECT_GB,
         ic_cost_allgather_gather_bcast, NULL, "MST gather + MST broadcast (short vectors)"),
    STEP(IC_COLL_ALLGATHERV, "bucket", KEEPS | NEXT, IC_STEP_COLLECT_BUCKET,
         ic_cost_allgather_bucket, NULL, "bucket collect (long vectors)"),
    STEP(IC_COLL_ALLGATHERV, "bidir_bucket", KEEPS | NEXT | IC_ALG_COST_BOUND | TWO,
         IC_STEP_COLLECT_BUCKET2, ic_cost_allgather_bucket2, NULL,
         "bucket collect on two counter-rotating rings, half of each block each (full-duplex "
         "neighbour links: tori)"),
    STEP(IC_COLL_ALLGATHERV, "halfway_bucket", KEEPS | NEXT | IC_ALG_COST_BOUND | TWO,
         IC_STEP_COLLECT_HALFWAY, ic_cost_allgather_halfway, NULL,
         "bucket collect with whole blocks on two counter-rotating rings, each half way round: "
         "half the steps (full-duplex neighbour links: tori)"),
    /* Before bruck: as for allgather. */
    STEP(IC_COLL_ALLGATHERV, "bidirectional_exchange", KEEPS | IC_ALG_COST_FOLDS,
         IC_STEP_COLLECT_RD, ic_cost_allgather_rd, NULL,
         "pairwise exchanges at distance 1, 2, 4, ... (" TS " 3.3.1)"),
    STEP(IC_COLL_ALLGATHERV, "swing", KEEPS | IC_ALG_COST_FOLDS, IC_STEP_COLLECT_SWING,
         ic_cost_allgather_rd, NULL,
         "pairwise exchanges with Swing's partners, ..., 11, -5, 3, -1, 1 apart (tori; the same "
         "closed form: tables name it)"),
    STEP(IC_COLL_ALLGATHERV, "full_fanout", KEEPS | IC_ALG_COST_BOUND, IC_STEP_COLLECT_FANOUT,
         ic_cost_allgather_fanout, NULL,
         "full fan-out: every block to every rank in one round (" TS " 3.3.7)"),
    STEP(IC_COLL_ALLGATHERV, "bruck", KEEPS, IC_STEP_COLLECT_BRUCK, ic_cost_allgather_bruck, NULL,
         "Bruck collect, ceil(log2 p) steps (short and middle vectors)"),
    STEP(IC_COLL_ALLGATHERV, "repeated_binary_tree", KEEPS | IC_ALG_COST_ESTIMATE,
         IC_STEP_COLLECT_TREE, ic_cost_allgather_tree, NULL,
         "p MST broadcasts in turn (" TS " 3.3.5)"),
    STEP(IC_COLL_ALLGATHERV, "pipeline", KEEPS | NEXT | IC_ALG_COST_ESTIMATE, IC_STEP_COLLECT_CHAIN,
         ic_cost_allgather_chain, NULL, "p chain broadcasts in turn (" TS " 3.3.6)"),
    STEP(IC_COLL_ALLGATHERV, "full_fanin", KEEPS | IC_ALG_COST_ESTIMATE, IC_STEP_COLLECT_FANIN,
         ic_cost_allgather_fanin, NULL, "p stages of p-1 receives in turn (" TS " 3.3.7)"),

    STEP(IC_COLL_REDUCE_SCATTER, "mst", KEEPS, IC_STEP_RS_MST, ic_cost_reduce_scatter_mst, NULL,
         "MST combine-to-one + MST scatter (short vectors)"),
    STEP(IC_COLL_REDUCE_SCATTER, "bucket", NEXT, IC_STEP_RS_BUCKET, ic_cost_reduce_scatter_bucket,
         NULL, "bucket distributed combine (long vectors)"),
    STEP(IC_COLL_REDUCE_SCATTER, "bidir_bucket", NEXT | IC_ALG_COST_BOUND | TWO, IC_STEP_RS_BUCKET2,
         ic_cost_reduce_scatter_bucket2, NULL,
         "bucket distributed combine on two counter-rotating rings, half of each block each "
         "(full-duplex neighbour links: tori)"),
    STEP(IC_COLL_REDUCE_SCATTER, "halfway_bucket", NEXT | IC_ALG_COST_BOUND | TWO,
         IC_STEP_RS_HALFWAY, ic_cost_reduce_scatter_halfway, NULL,
         "bucket distributed combine with whole blocks on two counter-rotating rings, each half "
         "way round: half the steps (full-duplex neighbour links: tori)"),
    STEP(IC_COLL_REDUCE_SCATTER, "recursive_halving", IC_ALG_COST_FOLDS, IC_STEP_RS_RH,
         ic_cost_reduce_scatter_halving, NULL,
         "recursive-halving distributed combine (short and middle vectors)"),
    STEP(IC_COLL_REDUCE_SCATTER, "swing", IC_ALG_COST_FOLDS, IC_STEP_RS_SWING,
         ic_cost_reduce_scatter_halving, NULL,
         "recursive-halving distributed combine with Swing's partners, 1, -1, 3, -5, 11, ... "
         "apart (tori; the same closed form: tables name it)"),
    STEP(IC_COLL_REDUCE_SCATTER, "repeated_binary_tree", KEEPS | IC_ALG_COST_ESTIMATE,
         IC_STEP_RS_TREE, ic_cost_reduce_scatter_tree, NULL,
         "p MST combines in turn (" TS " 3.3.5)"),
    STEP(IC_COLL_REDUCE_SCATTER, "pipeline", KEEPS | NEXT | IC_ALG_COST_ESTIMATE, IC_STEP_RS_CHAIN,
         ic_cost_reduce_scatter_chain, NULL, "p chain combines in turn (" TS " 3.3.6)"),
    STEP(IC_COLL_REDUCE_SCATTER, "full_fanin", IC_ALG_COST_ESTIMATE, IC_STEP_RS_FANIN,
         ic_cost_reduce_scatter_fanin, NULL,
         "p stages of p-1 receives and reductions (" TS " 3.3.7)"),
    STEP(IC_COLL_REDUCE_SCATTER, "full_fanout", IC_ALG_COST_BOUND, IC_STEP_RS_FANOUT,
         ic_cost_reduce_scatter_fanout, NULL,
         "full fan-out: every block to its rank in one round (" TS " 3.3.7)"),

    STEP(IC_COLL_REDUCE_SCATTER_BLOCK, "mst", KEEPS, IC_STEP_RS_MST, ic_cost_reduce_scatter_mst,
         NULL, "MST combine-to-one + MST scatter (short vectors)"),
    STEP(IC_COLL_REDUCE_SCATTER_BLOCK, "bucket", NEXT, IC_STEP_RS_BUCKET,
         ic_cost_reduce_scatter_bucket, NULL, "bucket distributed combine (long vectors)"),
    STEP(IC_COLL_REDUCE_SCATTER_BLOCK, "bidir_bucket", NEXT | IC_ALG_COST_BOUND | TWO,
         IC_STEP_RS_BUCKET2, ic_cost_reduce_scatter_bucket2, NULL,
         "bucket distributed combine on two counter-rotating rings, half of each block each "
         "(full-duplex neighbour links: tori)"),
    STEP(IC_COLL_REDUCE_SCATTER_BLOCK, "halfway_bucket", NEXT | IC_ALG_COST_BOUND | TWO,
         IC_STEP_RS_HALFWAY, ic_cost_reduce_scatter_halfway, NULL,
         "bucket distributed combine with whole blocks on two counter-rotating rings, each half "
         "way round: half the steps (full-duplex neighbour links: tori)"),
    STEP(IC_COLL_REDUCE_SCATTER_BLOCK, "recursive_halving", IC_ALG_COST_FOLDS, IC_STEP_RS_RH,
         ic_cost_reduce_scatter_halving, NULL,
         "recursive-halving distributed combine (short and middle vectors)"),
    STEP(IC_COLL_REDUCE_SCATTER_BLOCK, "swing", IC_ALG_COST_FOLDS, IC_STEP_RS_SWING,
         ic_cost_reduce_scatter_halving, NULL,
         "recursive-halving distributed combine with Swing's partners, 1, -1, 3, -5, 11, ... "
         "apart (tori; the same closed form: tables name it)"),
    STEP(IC_COLL_REDUCE_SCATTER_BLOCK, "repeated_binary_tree", KEEPS | IC_ALG_COST_ESTIMATE,
         IC_STEP_RS_TREE, ic_cost_reduce_scatter_tree, NULL,
         "p MST combines in turn (" TS " 3.3.5)"),
    STEP(IC_COLL_REDUCE_SCATTER_BLOCK, "pipeline", KEEPS | NEXT | IC_ALG_COST_ESTIMATE,
         IC_STEP_RS_CHAIN, ic_cost_reduce_scatter_chain, NULL,
         "p chain combines in turn (" TS " 3.3.6)"),
    STEP(IC_COLL_REDUCE_SCATTER_BLOCK, "full_fanin", IC_ALG_COST_ESTIMATE, IC_STEP_RS_FANIN,
         ic_cost_reduce_scatter_fanin, NULL,
         "p stages of p-1 receives and reductions (" TS " 3.3.7)"),
    STEP(IC_COLL_REDUCE_SCATTER_BLOCK, "full_fanout", IC_ALG_COST_BOUND, IC_STEP_RS_FANOUT,
         ic_cost_reduce_scatter_fanout, NULL,
         "full fan-out: every block to its rank in one round (" TS " 3.3.7)"),

    ALG(IC_COLL_SCATTER, "mst", KEEPS, ic_coll_scatter_mst, ic_cost_scatter_mst, NULL,
        "MST scatter"),
    ALG(IC_COLL_SCATTER, "linear", KEEPS, ic_coll_scatter_linear, ic_cost_linear, NULL,
        "every block straight from the root, one round"),

    ALG(IC_COLL_SCATTERV, "mst", KEEPS, ic_coll_scatter_mst, ic_cost_scatter_mst, NULL,
        "MST scatter (the block sizes from the root first)"),
    ALG(IC_COLL_SCATTERV, "linear", KEEPS | IC_ALG_OWN_COUNT, ic_coll_scatter_linear,
        ic_cost_linear, NULL,
        "every block straight from the root, one round, no block sizes first"),

    ALG(IC_COLL_GATHER, "mst", KEEPS, ic_coll_gather_mst, ic_cost_gather_mst, NULL, "MST gather"),
    ALG(IC_COLL_GATHER, "linear", KEEPS, ic_coll_gather_linear, ic_cost_linear, NULL,
        "every block straight to the root, one round"),

    ALG(IC_COLL_GATHERV, "mst", KEEPS, ic_coll_gather_mst, ic_cost_gather_mst, NULL,
        "MST gather (the block sizes from the root first)"),
    ALG(IC_COLL_GATHERV, "linear", KEEPS | IC_ALG_OWN_COUNT, ic_coll_gather_linear, ic_cost_linear,
        NULL, "every block straight to the root, one round, no block sizes first"),

    ALG(IC_COLL_BARRIER, "mst", KEEPS, ic_coll_barrier_mst, ic_cost_barrier_mst, NULL,
        "empty MST fan-in + fan-out"),
    ALG(IC_COLL_BARRIER, "dissemination", KEEPS, ic_coll_barrier_dissemination,
        ic_cost_barrier_dissemination, NULL, "dissemination, ceil(log2 p) rounds"),

    {.name = NULL, .coll = IC_COLL_COUNT}};

/* tan-strazdins-2002 section 3.3's names for patterns registered above
 * under another name.  Its recursive halving + recursive doubling is, for
 * reduce-scatter, recursive halving alone (as the paper says), and for
 * allgather the doubling alone: the bidirectional exchange (its equation
 * (4) also charges a halving phase of half-vector exchanges, which has
 * nothing to combine in an allgather).  Its patterns that differ from
 * InterCom's are registered under their own names (the ring allreduce
 * passes whole vectors where "dcombine_collect" passes blocks, its
 * bidirectional-exchange allgather pairs ranks where Bruck's sends to one
 * and receives from another, its recursive halving + doubling allreduce
 * ends in recursive doubling where "halving_doubling" ends in Bruck's
 * collect). */
const ic_alg_alias_t ic_alg_aliases[] = {
    {IC_COLL_ALLREDUCE, "bidirectional_exchange", "recursive_doubling", TS " 3.3.1"},
    {IC_COLL_ALLREDUCE, "fan_in_fan_out", "mst", TS " 3.3.3"},
    {IC_COLL_ALLGATHER, "fan_in_fan_out", "gather_bcast", TS " 3.3.3"},
    {IC_COLL_ALLGATHER, "ring", "bucket", TS " 3.3.4"},
    {IC_COLL_ALLGATHER, "recursive_halving_doubling", "bidirectional_exchange", TS " 3.3.2"},
    {IC_COLL_ALLGATHERV, "fan_in_fan_out", "gather_bcast", TS " 3.3.3"},
    {IC_COLL_ALLGATHERV, "ring", "bucket", TS " 3.3.4"},
    {IC_COLL_ALLGATHERV, "recursive_halving_doubling", "bidirectional_exchange", TS " 3.3.2"},
    {IC_COLL_REDUCE_SCATTER, "bidirectional_exchange", "recursive_halving", TS " 3.3.1"},
    {IC_COLL_REDUCE_SCATTER, "ring", "bucket", TS " 3.3.4"},
    {IC_COLL_REDUCE_SCATTER, "recursive_halving_doubling", "recursive_halving", TS " 3.3.2"},
    {IC_COLL_REDUCE_SCATTER_BLOCK, "bidirectional_exchange", "recursive_halving", TS " 3.3.1"},
    {IC_COLL_REDUCE_SCATTER_BLOCK, "ring", "bucket", TS " 3.3.4"},
    {IC_COLL_REDUCE_SCATTER_BLOCK, "recursive_halving_doubling", "recursive_halving", TS " 3.3.2"},
    {IC_COLL_COUNT, NULL, NULL, NULL}};
#undef TS

const ic_algorithm_t *ic_alg_find(ic_coll_t c, const char *name)
{
    if (!name)
        return NULL;
    for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++)
        if (alg->coll == c && strcmp(alg->name, name) == 0)
            return alg;
    for (const ic_alg_alias_t *a = ic_alg_aliases; a->alias; a++)
        if (a->coll == c && strcmp(a->alias, name) == 0)
            return ic_alg_find(c, a->name);
    return NULL;
}

int ic_alg_usable(const ic_algorithm_t *alg, const ic_coll_args_t *a, const char **why)
{
    const char *no = NULL;
    if (!alg || (!alg->build && alg->step == IC_STEP_NONE))
        no = "no such algorithm";
    else if (alg->coll != a->coll)
        no = "algorithm of another collective";
    else if (a->size < 1)
        no = "empty communicator";
    else if (!(no = ic_alg_op(alg, a)))
        no = ic_alg_room(alg, a, a->size, a->count);
    if (no && why)
        *why = no;
    return no == NULL;
}

const char *ic_alg_op(const ic_algorithm_t *alg, const ic_coll_args_t *a)
{
    if (!a->commutative && !(alg->flags & IC_ALG_KEEPS_ORDER))
        return "needs a commutative op";
    if (!a->exact && (alg->flags & IC_ALG_EXACT_OP))
        return IC_ALG_EXACT_WHY;
    return NULL;
}

const char *ic_alg_room(const ic_algorithm_t *alg, const ic_coll_args_t *a, int n, size_t count)
{
    return alg->room ? alg->room(a->bounded_from, n, count) : NULL;
}
