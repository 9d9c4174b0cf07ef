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

void ic_cost_defaults_node(ic_cost_params_t *c)
{
    ic_cost_defaults(c);
    c->alpha = 1e-6;      /* shared memory: about 1 us ...   */
    c->beta = 1.0 / 5e9;  /* ... 5 GB/s per copy ...         */
    c->gamma = 1.0 / 2e9; /* ... and 2 GB/s reduced         */
    c->alpha_s = c->alpha / 2;
    c->alpha_r = c->alpha / 2;
    c->beta_s = c->beta / 2;
    c->beta_r = c->beta / 2;
}
