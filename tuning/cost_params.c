/*
 * cost_params.c -- the default cost parameters (cost.h).  The runtime
 * takes them (src/env.c) without the evaluator of cost.c, which is tool
 * code (libictools).
 */
#include "cost.h"

#include <string.h>

void ic_cost_defaults(ic_cost_params_t *c)
{
    memset(c, 0, sizeof(*c));
    c->alpha = 20e-6;
    c->beta = 1.0 / 100e6;
    c->gamma = 1.0 / 1e9;
    c->delta = 0;
    c->split = 0;
    c->alpha_s = c->alpha / 2;
    c->alpha_r = c->alpha / 2;
    c->beta_s = c->beta / 2;
    c->beta_r = c->beta / 2;
    for (int b = 0; b < IC_NBUF; b++)
        c->elem_size[b] = 1;
}
