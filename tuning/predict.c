/*
 * predict.c -- ic_predict_plan() and ic_predict() (see choose.h): the cost
 * evaluator on the schedules of all p ranks of one plan.  Tool code (the
 * benchmark's prediction column, intercom-info, the unit tests): it lives
 * in libictools with the evaluator, not in the installed library, whose
 * selector prices algorithms with their closed forms (choose.c).
 */
#include "choose.h"

#include <stdlib.h>

int ic_predict_chart(const ic_plan_t *pl0, const ic_coll_args_t *a0, const ic_cost_params_t *c0,
                     size_t elem, int want_chart, ic_cost_result_t *res)
{
    int p = a0->size;
    ic_plan_t pl = *pl0;
    ic_model_t m = ic_model_of(c0, elem);
    ic_plan_resolve(&pl, a0, &m);
    ic_sched_t *s = calloc((size_t)p, sizeof(*s));
    if (!s)
        return -1;
    int ok = 1, built = 0;
    for (int r = 0; r < p && ok; r++) {
        ic_coll_args_t a = *a0;
        a.rank = r;
        /* only arguments that agree across ranks matter: in place is one
         * for all ranks of the rootless reductions (MPI's rule), the
         * root's own business otherwise */
        a.in_place =
            a0->in_place && (a0->coll == IC_COLL_ALLREDUCE || a0->coll == IC_COLL_REDUCE_SCATTER ||
                             a0->coll == IC_COLL_REDUCE_SCATTER_BLOCK);
        a.seg = pl.param;
        ic_sched_init(&s[r], r, p);
        built = r + 1;
        ok = ic_plan_build(&s[r], &pl, &a) == 0 && ic_sched_ok(&s[r]) == 0;
    }
    if (ok) {
        ic_cost_params_t c = *c0;
        for (int b = 0; b < IC_NBUF; b++)
            c.elem_size[b] = elem;
        ok = ic_cost_eval(s, p, &c, want_chart, res) == 0;
    }
    for (int r = 0; r < built; r++)
        ic_sched_free(&s[r]);
    free(s);
    return ok ? 0 : -1;
}

double ic_predict_plan(const ic_plan_t *pl, const ic_coll_args_t *a, const ic_cost_params_t *c,
                       size_t elem)
{
    ic_cost_result_t res;
    if (ic_predict_chart(pl, a, c, elem, 0, &res) != 0)
        return -1;
    double t = res.time;
    ic_cost_result_free(&res);
    return t;
}

double ic_predict(const ic_algorithm_t *alg, const ic_coll_args_t *a, const ic_cost_params_t *c,
                  size_t elem)
{
    ic_plan_t pl = ic_plan_1d(alg, a->seg);
    return ic_predict_plan(&pl, a, c, elem);
}
