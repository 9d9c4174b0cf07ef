/*
 * plan.h -- an algorithm is data: plans on logical meshes.
 *
 * A plan says how one collective runs:
 *   - a *1-D plan* is one registered algorithm (algorithms/registry.c) on
 *     the line of all p ranks, with its parameter (segment length of the
 *     pipelined ones, radix of the k-nomial tree; 0 = from the model);
 *   - a *mesh plan* lays the p ranks on a logical mesh d0 x d1 x ... x
 *     d(k-1) = p (row-major: the last dimension varies fastest, so with
 *     the identity placement rank r sits at coordinates (r / d1, r % d1) on
 *     a 2-D mesh), visits every dimension once in a given order, and runs
 *     one registered 1-D algorithm of the same collective along the lines
 *     of each dimension (mitra-1995 sections 3.3 and 3.4).  Mixed choices
 *     are the hybrids: long-vector steps (scatter, distributed combine)
 *     shrink the vector that later dimensions work on, short-vector steps
 *     (MST, recursive doubling, pipelines) keep it, and the long steps'
 *     second halves (collect, gather) run in the reverse order on the way
 *     back.  Broadcast on 16 x 32 = scatter in the root's row, MST in the
 *     columns, collect in the row is  16x32:d1=scatter_collect,d0=mst.
 *
 * Canonical text form (what IC_Last_algorithm and intercom-info print and
 * INTERCOM_<OP>_ALGORITHM and IC_Set_algorithm accept; it round-trips):
 *
 *   plan   := step1 | mesh
 *   step1  := NAME [ "(" PARAM ")" ]            a 1-D plan
 *   mesh   := DIM { "x" DIM } ":" step { "," step }
 *   step   := "d" INDEX "=" NAME [ "(" PARAM ")" ]
 *
 * NAME is a registered algorithm of the plan's collective (`intercom-info
 * list`), PARAM a positive integer, DIM a positive integer, INDEX a
 * dimension (0 = the first, slowest-varying).  Steps are listed in the
 * order they run; every dimension appears exactly once.  A mesh of one
 * dimension is the 1-D plan of its step (its canonical form is step1), so
 * today's names are the 1-D plans.  Examples:
 *   pipeline(8192)
 *   16x32:d1=dcombine_collect,d0=recursive_doubling
 *   8x8x8:d2=bucket,d1=bucket,d0=bucket
 *
 * Which 1-D algorithms can be a mesh step, per collective:
 *   bcast               mst, pipeline, bidir_pipeline, halfway_pipeline,
 *                       binary_tree, two_tree, knomial, circulant
 *                       (keep the vector); scatter_collect,
 *                       bidir_scatter_collect, halfway_scatter_collect,
 *                       scatter_doubling (shrink it)
 *   reduce              mst, pipeline (to the line's root); dcombine_gather,
 *                       halving_gather (shrink)
 *   allreduce           mst, recursive_doubling (keep); dcombine_collect,
 *                       halving_doubling (shrink)
 *   allgather(v)        bucket, bruck, gather_bcast
 *   reduce_scatter(_block)  bucket, recursive_halving, mst
 * Scatter, gather and barrier have 1-D plans only (an MST on p ranks is
 * already log2 p steps; a mesh changes nothing but placement).
 *
 * Cost: a mesh plan's time is the sum over its steps of the step
 * algorithm's closed-form cost (ic_algorithm_t.cost) on a line of that
 * dimension's length and the vector that reaches it: the two halves of a
 * long step together are exactly that 1-D algorithm on its line, and
 * lines of one dimension run side by side on disjoint ranks.  One formula
 * per algorithm, wherever it runs; tests/unit/check_cost_formulas.c
 * (test_plan_closed_forms) holds the sum to the cost evaluator run on the
 * composed schedules.  A step is priced
 * as if its lines were rooted at their position 0 (ic_plan_step_cost):
 * only the reduce's pipelined chain cares, and only for a non-commutative
 * op, where a line whose root lies strictly inside it takes one hop (one
 * segment time) more than priced.
 */
#ifndef IC_PLAN_H
#define IC_PLAN_H

#include "algorithms.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IC_PLAN_MAXDIMS 4
#define IC_PLAN_TEXT_MAX 160 /* longest canonical text, NUL included */

typedef struct ic_plan_step {
    int dim;                   /* which dimension                       */
    const ic_algorithm_t *alg; /* the 1-D algorithm along its lines     */
    size_t param;              /* its segment / radix, 0 = from the model */
} ic_plan_step_t;

typedef struct ic_plan {
    ic_coll_t coll;
    int ndims; /* 0: a 1-D plan (alg, param); >= 2: a mesh plan */
    const ic_algorithm_t *alg;
    size_t param;
    int dims[IC_PLAN_MAXDIMS];
    ic_plan_step_t step[IC_PLAN_MAXDIMS]; /* in the order they run */
} ic_plan_t;

/* The 1-D plan of a registered algorithm. */
static inline ic_plan_t ic_plan_1d(const ic_algorithm_t *alg, size_t param)
{
    ic_plan_t pl;
    pl.coll = alg ? alg->coll : IC_COLL_COUNT;
    pl.ndims = 0;
    pl.alg = alg;
    pl.param = param;
    for (int i = 0; i < IC_PLAN_MAXDIMS; i++) {
        pl.dims[i] = 0;
        pl.step[i].dim = 0;
        pl.step[i].alg = NULL;
        pl.step[i].param = 0;
    }
    return pl;
}

/* Ranks of the plan's mesh (the product of its dimensions; 0 for 1-D). */
int ic_plan_ranks(const ic_plan_t *pl);

/* Parse `text` as a plan of collective c.  Returns 0, or -1 with *why (if
 * not NULL) saying what is wrong in a few words. */
int ic_plan_parse(ic_coll_t c, const char *text, ic_plan_t *pl, const char **why);

/* The canonical text of pl into buf (at most len bytes, NUL included);
 * returns the length it needs (as snprintf). */
int ic_plan_format(const ic_plan_t *pl, char *buf, size_t len);

/* What a 1-D algorithm does as a mesh step: its step kind
 * (ic_algorithm_t.step, algorithms.h; IC_STEP_NONE: it cannot be one). */

ic_step_kind_t ic_plan_step_kind(const ic_algorithm_t *alg);

/* Whether step t of mesh plan pl, for collective coll on count elements,
 * streams into step t + 1: a broadcast's two-chain pipeline followed by
 * another (ic_pipe_bcast2_into; compose.c builds it, ic_plan_cost prices
 * the pair as one chain of d + d' - 1 positions), or its halfway pipeline
 * followed by another (the torus's two trees, ic_bcast_torus_trees).  The caller makes sure
 * step t is not itself fed by a stream. */
int ic_plan_streams(const ic_plan_t *pl, ic_coll_t coll, int t, size_t count);
/* The closed-form cost of steps t and t + 1 of pl, which stream
 * (ic_plan_streams), for the v elements that reach step t, under m (with
 * its figures by rank distance: ic_model_strided of a stream): two-chain
 * pipelines as one chain of d + d' - 1 positions, two halfway_pipeline
 * steps as the torus's two trees side by side (one half's halfway
 * pipeline as deep as the deeper tree); *param as ic_plan_step_cost's,
 * the segment both steps take. */
double ic_plan_stream_cost(const ic_plan_t *pl, int t, const ic_coll_args_t *a, double v,
                           size_t *param, const ic_model_t *m);

/* How many pieces the mesh plan pl (ndims >= 1) runs the reduction a in,
 * one after the other, so that every rank's scratch stays within the
 * message (ic_reduce_pieces, from a->bounded_from elements on): reduce and
 * reduce_scatter plans whose ranks copy their input, or hold partials of
 * the whole vector; 1 for the others. */
size_t ic_plan_pieces(const ic_plan_t *pl, const ic_coll_args_t *a);

/* Does the reduce_scatter plan pl (ndims >= 1) start with a bucket
 * distributed combine, on one ring or two, that reads the input where it
 * is (plan order is rank order), with no copy of the vector and no
 * pieces?  From a->bounded_from on where its scratch fits the vector:
 * two runs of blocks of partials for one ring, four for two, and on a
 * mesh the run it keeps. */
int ic_plan_rs_reads_input(const ic_plan_t *pl, const ic_coll_args_t *a);

/* Does a step of this kind shrink the vector (a long-vector step with a
 * second half on the way back)? */
int ic_plan_step_shrinks(ic_step_kind_t k);
/* The block of a step's vector that belongs to position c of its line of
 * d: the block a shrinking step leaves on c for the steps after it, the
 * slot of c's run in a block collective's packed copy (compose.c).  c
 * itself, but a permutation of it for the recursive halving and doubling
 * (partners near first in the halving, far first in the doubling, each
 * range contiguous: ic_rh_block). */
int ic_plan_step_block(ic_step_kind_t k, int d, int c);
/* ... for every position of the line at once (block[0..d-1]); -1 when out
 * of memory. */
int ic_plan_step_blocks(ic_step_kind_t k, int d, int *block);

/* The algorithm of alg's collective that runs alg's ring steps on two
 * counter-rotating rings (bidir_bucket.c: bucket -> bidir_bucket, ...), or
 * NULL when alg has none. */
const ic_algorithm_t *ic_alg_two_rings(const ic_algorithm_t *alg);

/* The algorithm of collective c whose step kind is k (NULL: none). */
const ic_algorithm_t *ic_alg_of_step(ic_coll_t c, ic_step_kind_t k);

/* Plan pl with every step that has a two-ring twin (ic_alg_two_rings)
 * replaced by it, its parameter reset; 0 when no step has one. */
int ic_plan_two_rings(const ic_plan_t *pl, ic_plan_t *out);

/* Can plan pl serve the call a?  If not and why != NULL, *why says why.
 * A mesh plan needs dims multiplying to a->size; with a non-commutative
 * op it needs order-keeping steps that combine along the fastest
 * dimension first (rank order is then kept) and the identity placement.
 * Long reductions are served too: from a->bounded_from on, reduce and
 * reduce_scatter plans run on pieces of the vector (ic_plan_pieces), each
 * paying its start-ups, and their price says so. */
int ic_plan_usable(const ic_plan_t *pl, const ic_coll_args_t *a, const char **why);

/* Fill the parameters left 0 from the steps' segment rules under model m
 * (the vector each step sees), as the selector does. */
void ic_plan_resolve(ic_plan_t *pl, const ic_coll_args_t *a, const ic_model_t *m);

/* The segment (elements) of alg, which has a seg_rule, for the call a
 * under m: the rule's (the minimum of the closed form on the alpha-beta
 * line), or where m measured one message's time by its length
 * (ic_msgtime_t) the cheapest of it and the longest segments within each
 * measured length, priced by alg's cost.  A radix rule's as it is. */
size_t ic_alg_segment(const ic_algorithm_t *alg, const ic_coll_args_t *a, const ic_model_t *m);

/* Closed-form cost (s): a 1-D plan's algorithm cost, a mesh plan's sum of
 * step costs (see above).  Parameters left 0 are taken from the model. */
double ic_plan_cost(const ic_plan_t *pl, const ic_coll_args_t *a, const ic_model_t *m);

/* The pieces of ic_plan_cost, for a selector that prices many plans:
 * the elements that reach the first step (ic_plan_start); those a step on
 * lines of d ranks sees, given what reached it (ic_plan_step_input: the
 * collect-style collectives' lines hold d runs of blocks), and what it
 * passes on (ic_plan_step_output: a shrinking step 1/d of it); and its
 * closed-form cost (parameter *param, 0 = from the model, which is then
 * stored there) under m at the step's share (ic_plan_step_share below).
 * ic_plan_cost is the sum of the step costs along the plan.  A segment
 * rule sees one stream's model (m, or m->node inside a node), not the
 * shared one: while one stream pays a message's start-up the others use
 * the link, so sharing it does not make shorter segments pay (measured:
 * on the simulated 64 x 8 cluster a 1 MiB broadcast whose across-nodes
 * pipeline took 3 KiB segments from the shared model ran 1.28x slower
 * than with one stream's 7 KiB). */
double ic_plan_start(const ic_coll_args_t *a);
/* The elements a step priced at v elements (a mean: a shrinking step
 * leaves v / d) runs on: v rounded, but at least 1 when v > 0 (a vector
 * shorter than its line still sends a message along each later step: on
 * 96 Bunyip nodes an 8-byte reduce priced its chains after a distributed
 * combine at 0 and took 3.7 ms where the MST takes 1.2). */
static inline size_t ic_plan_step_count(double v)
{
    return v > 0 && v < 1 ? 1 : (size_t)(v + 0.5);
}
/* Two levels (m->node set, every node m->node_ranks = q consecutive mesh
 * positions): how many streams of step t of pl, run by algorithm alg,
 * one node's link carries at once (t = 0 and alg = pl->alg for a 1-D
 * plan, the line of all ranks).  0: the step's lines stay inside a node
 * (the dimensions from the step's on span a divisor of q), priced with
 * m->node.  Otherwise the step crosses nodes and every line through a
 * node that takes part runs at once: a ring or chain (IC_ALG_NEIGHBOURS)
 * leaves the node once per line (its on-node positions are consecutive
 * on the line), any other algorithm may send from each of the node's
 * ranks on such lines at once.  Every line takes part but in a rooted
 * collective's steps that keep the vector whole (not shrinking): a
 * broadcast's on the lines whose coordinates on the later steps'
 * dimensions are the root's, a reduce's on those whose coordinates on
 * the earlier whole-vector steps' dimensions are (counted in the root's
 * node, positions 0 .. q-1).  A 1-D plan is one line: 1 for a ring or
 * chain in rank order (a->order NULL: nodes hold consecutive ranks), q
 * otherwise (1-D plans do not follow the placement).  One level: 1. */
int ic_plan_step_share(const ic_plan_t *pl, int t, const ic_algorithm_t *alg,
                       const ic_coll_args_t *a, const ic_model_t *m);
/* The model a step of that share is priced with: m->node for 0, m with
 * its transfer terms (beta, beta_x) multiplied by the share otherwise
 * (the streams divide the node's link). */
ic_model_t ic_model_shared(const ic_model_t *m, int share);
/* The model step t of plan pl, run by alg, is priced with (before its
 * share): with figures by rank distance (m->strides; one level, a->order
 * NULL: positions are ranks, up to the root's rotation) m with its
 * start-up and its transfer terms multiplied by the factors of the
 * distances the step's lines talk over: for a ring or chain
 * (IC_ALG_NEIGHBOURS) their stride's (the start-up no less than that of
 * the message closing the ring), for any other algorithm the mean
 * over the stride times 1, 2, 4, ... below the line's length (each
 * distance the measured stride nearest to it, on a log scale); a 1-D
 * plan is one line of stride 1; a step that streams into the next
 * (`streams`: ic_plan_streams) takes the larger of the two dimensions'
 * factors; an IC_ALG_TWO_WAYS algorithm also those of sending both ways
 * at once over the step's stride (two_alpha, two_beta; not measured: a
 * shared port, 2).  Otherwise m itself. */
ic_model_t ic_model_strided(const ic_model_t *m, const ic_plan_t *pl, int t,
                            const ic_algorithm_t *alg, const ic_coll_args_t *a, int streams);
/* The position stride of dimension dim of mesh plan pl (row-major: the
 * last dimension varies fastest). */
long ic_plan_stride(const ic_plan_t *pl, int dim);
double ic_plan_step_input(const ic_coll_args_t *a, int d, double v);
double ic_plan_step_output(const ic_coll_args_t *a, const ic_algorithm_t *alg, int d, double v);
double ic_plan_step_cost(const ic_algorithm_t *alg, const ic_coll_args_t *a, int d, double v,
                         size_t *param, const ic_model_t *m, int share);

/* Build the schedule of a->rank (the one composer: every plan; algorithms
 * with a builder of their own, ic_algorithm_t.build, through it). */
int ic_plan_build(ic_sched_t *s, const ic_plan_t *pl, const ic_coll_args_t *a);

/* Multiply every non-zero segment length by mul / div (at least 1).
 * Radixes (IC_ALG_RADIX) stay as they are. */
void ic_plan_scale_params(ic_plan_t *pl, size_t mul, size_t div);

/* A plan as written (forced, in a tuning table, reported) and as its
 * schedule counts: the byte-counted collectives (all but the reductions)
 * state segments in bytes, their schedules count units of `unit` bytes
 * (the broadcast's ic_bcast_unit, 1 for the gather family); a reduction's
 * are elements either way.  ic_plan_from_written: written to units (a
 * segment below one unit becomes one); ic_plan_to_written: back. */
void ic_plan_from_written(ic_plan_t *pl, size_t unit);
void ic_plan_to_written(ic_plan_t *pl, size_t unit);

/* Is c a reduction (its parameters count elements, not bytes)? */
int ic_coll_reduces(ic_coll_t c);

/* Equal plans (same collective, shape, steps, parameters)? */
int ic_plan_equal(const ic_plan_t *x, const ic_plan_t *y);

#ifdef __cplusplus
}
#endif
#endif /* IC_PLAN_H */
