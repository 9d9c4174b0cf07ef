/*
 * choose.h -- choosing an algorithm with the cost model, without MPI.
 *
 * Every registered algorithm of the call's collective that can serve the
 * call is priced with its closed-form cost (ic_algorithm_t.cost, written as
 * in the papers and held against the cost evaluator by the unit tests), and
 * the cheapest wins (ties: registry order).  That takes O(1) per algorithm
 * whatever p is, so every rank can afford it at run time.  ic_predict()
 * prices one algorithm exactly instead: it builds the schedules of all p
 * ranks and runs the cost evaluator (for reports, the benchmark's
 * prediction column and the info tool; tuning/predict.c, in the tool
 * library libictools, not in the installed one).  The MPI runtime
 * (src/select.c) caches decisions per communicator.
 */
#ifndef IC_CHOOSE_H
#define IC_CHOOSE_H

#include "algorithms.h"
#include "cost.h"
#include "plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* INTERCOM_SCRATCH_SLACK's default (bytes): calls on messages up to this
 * long may use scratch up to twice the message, longer ones at most the
 * message (ic_coll_args_t.bounded_from). */
#define IC_SCRATCH_SLACK 65536

/* ic_coll_args_t.bounded_from for a slack of `slack` bytes and elements of
 * elem bytes: the first length longer than the slack. */
static inline size_t ic_bounded_from(size_t slack, size_t elem)
{
    return slack / (elem ? elem : 1) + 1;
}

/* The slack of the environment (INTERCOM_SCRATCH_SLACK, else the
 * default), for the tools; the library reads it once (src/env.c). */
size_t ic_scratch_slack(void);

/* The closed-form model of cost parameters c for elements of elem bytes. */
ic_model_t ic_model_of(const ic_cost_params_t *c, size_t elem);

/* The same with two levels when node is given and 2 <= node_ranks < size:
 * lines within a node priced with node's parameters (ic_model_t.node,
 * which points to *mnode: keep it as long as the result). */
ic_model_t ic_model_levels(const ic_cost_params_t *c, const ic_cost_params_t *node, int node_ranks,
                           int size, size_t elem, ic_model_t *mnode);

/* Segment size (elements) of a pipelined algorithm (one with a seg_rule)
 * for the call a under the cost parameters c; 0 for other algorithms. */
size_t ic_choose_seg(const ic_algorithm_t *alg, const ic_coll_args_t *a, const ic_cost_params_t *c,
                     size_t elem);

/* Closed-form cost of `alg` for the call a (a pipelined algorithm with
 * a->seg == 0 gets the segment of ic_choose_seg()). */
double ic_estimate(const ic_algorithm_t *alg, const ic_coll_args_t *a, const ic_cost_params_t *c,
                   size_t elem);

/* Predicted time of `alg` by the cost evaluator on the schedules of all p
 * ranks (a->rank is ignored; a pipelined algorithm with a->seg == 0 gets
 * the segment of ic_choose_seg()).  elem: bytes per element of every
 * buffer.  Returns a negative value if the algorithm cannot be built or
 * priced.  O(p x schedule length): for reports, not for every call. */
double ic_predict(const ic_algorithm_t *alg, const ic_coll_args_t *a, const ic_cost_params_t *c,
                  size_t elem);

/* The same for any plan (plan.h); parameters left 0 come from the model. */
double ic_predict_plan(const ic_plan_t *pl, const ic_coll_args_t *a, const ic_cost_params_t *c,
                       size_t elem);
/* The same evaluation, its result (and with want_chart its messages) into
 * *res (free with ic_cost_result_free): 0, or -1 (nothing to free). */
int ic_predict_chart(const ic_plan_t *pl, const ic_coll_args_t *a, const ic_cost_params_t *c,
                     size_t elem, int want_chart, ic_cost_result_t *res);

/*
 * The selector: the cheapest usable plan by its closed-form cost
 * (ic_plan_cost): every registered 1-D algorithm, and mesh plans on every
 * ordered factorisation of a->size into two or three dimensions of at
 * least 2, visited fastest dimension first (slowest first for a
 * non-commutative reduce_scatter, which needs it; in every order with two
 * levels, below), and every combination of the collective's step
 * algorithms.  Ties go to the plan met first (1-D before meshes, fewer dimensions first).  With
 * `shape` (nshape dimensions multiplying to a->size; INTERCOM_MESH) only
 * plans on that shape, in every visit order (a shape of one dimension
 * means the 1-D plans), or all plans when none on it can serve the call
 * (a non-commutative op on an order-changing mesh, a long reduction).  The winner's parameters are
 * resolved.  Returns 0, or -1 when nothing can serve the call.  *t: its predicted time; *priced:
 * how many plans were priced.  Two levels: with `node` and node_ranks
 * (the ranks of every node, consecutive mesh positions under the
 * placement a->order; 2 <= node_ranks < a->size), a step whose lines stay
 * inside a node is priced with `node`'s parameters, and one across nodes
 * with its transfer terms multiplied by the streams a node's link carries
 * at once (ic_plan_step_share), so the selector sees the node-aware
 * hybrids (reduce-scatter inside the nodes, allreduce across, allgather
 * inside; an allgather across the nodes first) for what they are.
 */
int ic_choose_plan(const ic_coll_args_t *a, const ic_cost_params_t *c, const ic_cost_params_t *node,
                   int node_ranks, size_t elem, const int *shape, int nshape, ic_plan_t *best,
                   double *t, long *priced);

/* The same search keeping the k cheapest plans (k >= 1), cheapest first,
 * into plans[] and their predicted times into t[] (k entries each; ties in
 * the order met), parameters resolved: the candidates an autotuner
 * measures.  Returns how many it found (0 when nothing can serve the
 * call). */
int ic_choose_plans(const ic_coll_args_t *a, const ic_cost_params_t *c,
                    const ic_cost_params_t *node, int node_ranks, size_t elem, const int *shape,
                    int nshape, int k, ic_plan_t *plans, double *t, long *priced);

/* Gatherv and scatterv (c), decided before any count is known, the same on
 * every rank: the algorithm that needs no block sizes from the root
 * (IC_ALG_OWN_COUNT), or NULL (the sizes first).  A tuning table's rule
 * for empty blocks decides when tb has one (*line, if not NULL: its line;
 * 0 when the model decided); else the model, which takes the direct one
 * when no slower at empty blocks than the MST plus the MST broadcast of
 * the p + 1 words of sizes (both move the same bytes through the root).
 * (A forced plan goes first; ic_plan_direct says what it means.) */
struct ic_table;
const ic_algorithm_t *ic_choose_direct(ic_coll_t c, int p, int root, const ic_cost_params_t *cp,
                                       const struct ic_table *tb, int rpn, int *line);

/* The algorithm a plan names if it runs without the block sizes first
 * (a 1-D plan of an IC_ALG_OWN_COUNT algorithm), else NULL. */
static inline const ic_algorithm_t *ic_plan_direct(const ic_plan_t *pl)
{
    return pl->ndims == 0 && pl->alg && (pl->alg->flags & IC_ALG_OWN_COUNT) ? pl->alg : NULL;
}

#ifdef __cplusplus
}
#endif
#endif
