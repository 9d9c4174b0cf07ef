/*
 * choose.h -- choosing an algorithm with the cost model, without MPI.
 *
 * Every registered algorithm of the call's collective that can serve the
 * call is built for all p ranks and priced with the cost evaluator; the
 * cheapest wins (ties: registry order).  The MPI runtime (src/select.c)
 * caches these decisions per communicator; the info tool and the unit
 * tests call this directly.
 */
#ifndef IC_CHOOSE_H
#define IC_CHOOSE_H

#include "algorithms.h"
#include "cost.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Predicted time of `alg` for the call described by a (a->rank is ignored:
 * all ranks are built; a pipelined algorithm with a->seg == 0 gets the
 * segment of ic_choose_seg()).  elem: bytes per element of every buffer.  Returns
 * a negative value if the algorithm cannot be built or priced. */
double ic_predict(const ic_algorithm_t *alg, const ic_coll_args_t *a, const ic_cost_params_t *c,
                  size_t elem);

/* Segment size (elements) of a pipelined algorithm (one with a seg_rule)
 * for the call a under the cost parameters c; 0 for other algorithms. */
size_t ic_choose_seg(const ic_algorithm_t *alg, const ic_coll_args_t *a,
                     const ic_cost_params_t *c, size_t elem);

/* Cheapest usable algorithm, or NULL.  *t (if not NULL) gets its time.
 * Pipelined algorithms are priced with the segment ic_choose_seg() gives
 * (unless a->seg is set). */
const ic_algorithm_t *ic_choose(const ic_coll_args_t *a, const ic_cost_params_t *c, size_t elem,
                                double *t);

#ifdef __cplusplus
}
#endif
#endif
