/*
 * coll_barrier.c -- barrier, two algorithms.  No data moves: every message
 * is empty, and what matters is that no rank finishes before every rank
 * has started.
 *
 * "mst": an empty MST combine-to-one to position 0 (fan-in: position 0
 *   hears, transitively, from everyone) followed by an empty MST broadcast
 *   from it (fan-out).  Both primitives send empty messages (they skip
 *   nothing for a zero-length vector).
 *   Cost: 2 ceil(log2 p) alpha.
 *
 * "dissemination": ceil(log2 p) rounds; in round k rank r sends to
 *   (r + 2^k) mod p and receives from (r - 2^k) mod p.  After round k a
 *   rank has heard, transitively, from the 2^(k+1) ranks before it, so
 *   after the last round from all p.  Trace, p = 5 ({..} = heard from):
 *     round 0 (+1): P0 {4,0}     P1 {0,1}     P2 {1,2}   ...
 *     round 1 (+2): P0 {2,3,4,0} P1 {3,4,0,1} ...
 *     round 2 (+4): everyone {0..4}
 *   Cost: ceil(log2 p) alpha.
 *
 * Restrictions: none.
 */
#include "coll_common.h"

int ic_coll_barrier_mst(ic_sched_t *s, const ic_coll_args_t *a)
{
    ic_line_t line = ic_coll_line(a);
    ic_region_t none = ic_reg(IC_BUF_SCRATCH, 0, 0);
    ic_mst_combine(s, &line, 0, none, ic_reg(IC_BUF_SCRATCH2, 0, 0));
    ic_mst_bcast(s, &line, 0, none);
    ic_sched_round(s);
    return ic_sched_ok(s);
}

int ic_coll_barrier_dissemination(ic_sched_t *s, const ic_coll_args_t *a)
{
    ic_line_t line = ic_coll_line(a);
    int n = line.n, me = ic_line_pos(&line, a->rank);
    ic_sched_round(s);
    if (me < 0)
        return ic_sched_ok(s);
    ic_region_t none = ic_reg(IC_BUF_SCRATCH, 0, 0);
    for (long d = 1; d < n; d *= 2) {
        ic_sched_send(s, ic_line_rank(&line, (int)((me + d) % n)), none);
        ic_sched_recv(s, ic_line_rank(&line, (int)((me - d + n) % n)), none);
        ic_sched_round(s);
    }
    return ic_sched_ok(s);
}

double ic_cost_barrier_mst(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return 2 * t.L * t.a;
}

double ic_cost_barrier_dissemination(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return t.L * t.a;
}
