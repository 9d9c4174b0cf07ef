/*
 * choose.c -- see choose.h.
 */
#include "choose.h"

#include <stdlib.h>

size_t ic_scratch_slack(void)
{
    const char *v = getenv("INTERCOM_SCRATCH_SLACK");
    char *end = NULL;
    double d = v && *v ? strtod(v, &end) : -1;
    return d >= 0 && !*end ? (size_t)d : IC_SCRATCH_SLACK;
}

ic_model_t ic_model_of(const ic_cost_params_t *c, size_t elem)
{
    ic_model_t m;
    m.alpha = c->alpha;
    m.beta = c->beta;
    m.beta_x = c->beta_x > 0 ? c->beta_x : c->beta;
    m.x_min = c->x_min;
    m.gamma = c->gamma;
    m.elem = elem;
    m.burst = c->burst;
    m.overhead = c->overhead;
    return m;
}

size_t ic_choose_seg(const ic_algorithm_t *alg, const ic_coll_args_t *a,
                     const ic_cost_params_t *c, size_t elem)
{
    if (!alg->seg_rule)
        return 0;
    ic_model_t m = ic_model_of(c, elem);
    return alg->seg_rule(a, &m);
}

double ic_estimate(const ic_algorithm_t *alg, const ic_coll_args_t *a0, const ic_cost_params_t *c,
                   size_t elem)
{
    ic_coll_args_t a = *a0;
    if (!a.seg)
        a.seg = ic_choose_seg(alg, &a, c, elem);
    ic_model_t m = ic_model_of(c, elem);
    return alg->cost(&a, &m);
}

const ic_algorithm_t *ic_choose(const ic_coll_args_t *a, const ic_cost_params_t *c, size_t elem,
                                double *t)
{
    const ic_algorithm_t *best = NULL;
    double best_t = 0;
    for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++) {
        if (alg->coll != a->coll || !ic_alg_usable(alg, a, NULL))
            continue;
        double x = ic_estimate(alg, a, c, elem);
        if (x < 0)
            continue;
        if (!best || x < best_t) {
            best = alg;
            best_t = x;
        }
    }
    if (t)
        *t = best_t;
    return best;
}
