/*
 * ring_allreduce.c -- combine-to-all of whole vectors round a ring: the
 * Ring pattern of tan-strazdins-2002 section 3.3.4 for allreduce.
 *
 * In step k = 1, ..., n-1 every position sends its partial to the next
 * position (mod n), receives the previous position's and combines its own
 * contribution into it: after step k position i holds the combination of
 * positions i-k, ..., i, so after n-1 steps everyone holds all of them.
 * n-1 start-ups and (n-1) m bytes through every port: the paper's
 * equation (9), optimal in beta for allgather and reduce-scatter "but not
 * for All-Reduce" (the bucket distributed combine + collect moves
 * 2 (n-1)/n m).
 *
 * Each position's result is combined in its own order (position i's
 * starts with x_(i+1)), so with an op whose result depends on the grouping
 * (floating-point sums) the positions would end with results that differ
 * in the last bits: the registry flags it IC_ALG_EXACT_OP, and it serves
 * only ops that give the same bits in any order (ic_coll_args_t.exact).
 *
 * Partials alternate between acc and one block of tmp, ending in acc; the
 * own contribution is *in when given (read-only, acc.count elements, not
 * overlapping acc), else copied from acc into a second block of tmp first.
 * Trace, n = 3 ([a-b] = positions combined):
 *   step 1:  0>1 1>2 2>0    P0 [2,0]  P1 [0,1]  P2 [1,2]
 *   step 2:  0>1 1>2 2>0    P0 [1,2,0]  P1 [2,0,1]  P2 [0,1,2]
 *
 * Restrictions: an exact op (any n; commutative).
 * Cost (n-1)(alpha + m beta + m gamma) (beta_x when n = 2: an exchange).
 */
#include "algorithms.h"

void ic_ring_allreduce(ic_sched_t *s, const ic_line_t *line, ic_region_t acc, ic_region_t tmp,
                       const ic_region_t *in)
{
    int n = line->n;
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me < 0 || n <= 1)
        return;
    size_t m = acc.count;
    ic_region_t slot = ic_reg(tmp.buf, tmp.off, m), x = in ? *in : ic_reg(tmp.buf, tmp.off + m, m);
    if (m > 0)
        ic_sched_need(s, tmp.buf, tmp.off + (in ? m : 2 * m));
    if (!in && m > 0) {
        ic_sched_copy(s, acc, x);
        ic_sched_round(s);
    }
    int next = ic_line_rank(line, (me + 1) % n), prev = ic_line_rank(line, (me + n - 1) % n);
    ic_region_t sent = x;
    for (int k = 1; k < n; k++) {
        /* the last step receives into acc */
        ic_region_t into = (n - 1 - k) % 2 == 0 ? acc : slot;
        ic_sched_send(s, next, sent);
        ic_sched_recv(s, prev, into);
        if (m > 0)
            ic_sched_reduce(s, x, into, 0);
        ic_sched_round(s);
        sent = into;
    }
}
