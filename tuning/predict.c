/*
 * predict.c -- ic_predict() (see choose.h): the cost evaluator on the
 * schedules of all p ranks of one registered algorithm.  Tool code (the
 * benchmark's prediction column, intercom-info, the unit tests): it lives
 * in libictools with the evaluator, not in the installed library, whose
 * selector prices algorithms with their closed forms (choose.c).
 */
#include "choose.h"

#include <stdlib.h>

double ic_predict(const ic_algorithm_t *alg, const ic_coll_args_t *a0, const ic_cost_params_t *c0,
                  size_t elem)
{
    int p = a0->size;
    size_t seg = a0->seg ? a0->seg : ic_choose_seg(alg, a0, c0, elem);
    ic_sched_t *s = calloc((size_t)p, sizeof(*s));
    if (!s)
        return -1;
    double t = -1;
    int ok = 1, built = 0;
    for (int r = 0; r < p && ok; r++) {
        ic_coll_args_t a = *a0;
        a.rank = r;
        /* only arguments that agree across ranks matter: in place is one
         * for all ranks of the rootless reductions (MPI's rule), the
         * root's own business otherwise */
        a.in_place = a0->in_place && (a0->coll == IC_COLL_ALLREDUCE ||
                                      a0->coll == IC_COLL_REDUCE_SCATTER ||
                                      a0->coll == IC_COLL_REDUCE_SCATTER_BLOCK);
        a.seg = seg;
        ic_sched_init(&s[r], r, p);
        built = r + 1;
        ok = alg->build(&s[r], &a) == 0 && ic_sched_ok(&s[r]) == 0;
    }
    if (ok) {
        ic_cost_params_t c = *c0;
        for (int b = 0; b < IC_NBUF; b++)
            c.elem_size[b] = elem;
        ic_cost_result_t res;
        if (ic_cost_eval(s, p, &c, 0, &res) == 0) {
            t = res.time;
            ic_cost_result_free(&res);
        }
    }
    for (int r = 0; r < built; r++)
        ic_sched_free(&s[r]);
    free(s);
    return t;
}
