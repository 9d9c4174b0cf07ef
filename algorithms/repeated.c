/*
 * repeated.c -- collect and distributed combine as n one-to-all (or
 * all-to-one) operations in turn: tan-strazdins-2002's Repeated Binary
 * Tree (section 3.3.5) and Pipeline (section 3.3.6).
 *
 * Collect: for j = 0, 1, ..., n-1 position j broadcasts its block to all;
 * distributed combine: for j = 0, 1, ..., n-1 block j is combined to
 * position j.  The sub-operations are those of the library:
 *   - tree: the MST broadcast and combine-to-one (the paper's "binary
 *     tree": its timing argument, where the root's first send goes to the
 *     position n/2 away, is the binomial tree's);
 *   - chain: the chain broadcast from j along j+1, j+2, ... (mod n), one
 *     segment (ic_pipe_bcast), and its reverse, the chain combine ending
 *     at j (ic_pipe_combine): each position adds its block to the partial
 *     as it passes.
 * Every position runs the n sub-operations in the same order, each in its
 * own rounds; a position done with its part of one goes on to the next,
 * so consecutive sub-operations overlap where the pattern lets them (the
 * paper's "sub-operation overlap"; the combines overlap less: a partial
 * must arrive before it is passed on).
 *
 * Restrictions: none; the combines keep position order (the MST combine
 * always, the chain with keep_order).  Blocks of counts[j] elements at
 * base + prefix(j) of buf (packed), as ic_bucket_collect /
 * ic_bucket_dcombine; the combine clobbers the other blocks.  tmp: one
 * block (tree), one block or two (chain, keep_order), from tmpbase.
 * Cost: the paper's equations (10)-(12) describe their overlap; the
 * library's closed forms (coll_allgather.c, coll_reduce_scatter.c) are
 * estimates checked against the cost evaluator
 * (tests/unit/check_cost_formulas.c).
 */
#include "algorithms.h"

#include <stdlib.h>

void ic_repeated_collect(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                         const size_t *counts, int chain)
{
    int n = line->n;
    ic_sched_round(s);
    if (ic_line_pos(line, s->rank) < 0 || n <= 1)
        return;
    for (int j = 0; j < n; j++) {
        if (counts[j] == 0)
            continue;
        ic_region_t blk = ic_reg(buf, base + ic_blocks_prefix(counts, j), counts[j]);
        if (chain)
            ic_pipe_bcast(s, line, j, blk, 0);
        else
            ic_mst_bcast(s, line, j, blk);
    }
    ic_sched_round(s);
}

void ic_repeated_dcombine(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                          const size_t *counts, ic_buf_t tmp, size_t tmpbase, int chain,
                          int keep_order)
{
    int n = line->n;
    ic_sched_round(s);
    if (ic_line_pos(line, s->rank) < 0 || n <= 1)
        return;
    /* A commutative chain runs on the line reversed, so that block j's
     * goes j+1, j+2, ..., j (ic_pipe_combine's "down" chain there): its
     * second position starts block j+1's chain as soon as it has passed
     * block j's partial on. */
    int *rev = NULL;
    ic_line_t rline = *line;
    if (chain && !keep_order) {
        rev = malloc((size_t)n * sizeof(int));
        if (!rev) {
            s->oom = 1;
            return;
        }
        for (int q = 0; q < n; q++)
            rev[q] = ic_line_rank(line, (n - q) % n);
        rline.map = rev;
    }
    for (int j = 0; j < n; j++) {
        if (counts[j] == 0)
            continue;
        ic_region_t blk = ic_reg(buf, base + ic_blocks_prefix(counts, j), counts[j]);
        if (chain)
            ic_pipe_combine(s, &rline, rev ? (n - j) % n : j, NULL, blk, tmp, tmpbase, 0,
                            keep_order);
        else
            ic_mst_combine(s, line, j, blk, ic_reg(tmp, tmpbase, counts[j]));
    }
    free(rev);
    ic_sched_round(s);
}

/* ------------------------------------------------------------------ cost */

#include "coll_common.h"

/* In message times T = alpha + b beta (T + b gamma for the combines), as
 * the cost evaluator times the schedules above in the plain model (every
 * position's rounds in turn: a position receives one sub-operation's
 * message and passes it on before it receives the next one's):
 *   tree:   p ceil(log2 p) T: the MST roots' sends do not overlap (exact
 *           for powers of two, 15 % over at p = 5);
 *   chain:  4 (p-1) T for p >= 4 (3 (p-1) at p = 3): a position
 *           receives and forwards each broadcast in two rounds, so the
 *           next one reaches it two message times later (the paper's
 *           equation (12) charges 3 (p-1) for the start-up, the middle
 *           and the end);
 *   fan-in: 3 (p-1) T for the collect, about 4 (p-1) (T + b gamma) for
 *           the combine (p >= 3): stage j+1 starts as soon as stage j
 *           has received its first message, so the stages overlap.
 * tests/unit/check_cost_formulas.c holds them within a factor of the
 * evaluator and prints the worst ratio. */
double ic_pattern_cost(ic_step_kind_t kind, const ic_terms_t *t, double b, int combine)
{
    double p = t->p, L = t->L, T = t->a + b * t->b + (combine ? b * t->g : 0);
    if (p <= 1)
        return 0;
    switch (kind) {
    case IC_STEP_COLLECT_TREE:
    case IC_STEP_RS_TREE:
        return p * L * T;
    case IC_STEP_COLLECT_CHAIN:
    case IC_STEP_RS_CHAIN:
        return (p >= 4 ? 4 : p) * (p - 1) * T;
    case IC_STEP_COLLECT_FANIN:
    case IC_STEP_RS_FANIN:
        return (p <= 2 ? 2 : combine ? 4 : 3) * (p - 1) * T;
    default:
        return 0;
    }
}
