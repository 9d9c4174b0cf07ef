/*
 * mst_combine.c -- minimum-spanning-tree combine-to-one on a line
 * (mitra-1995 section 3.1.1): the MST broadcast's messages run backwards,
 * each receiver combining what it gets into its own partial result.
 *
 * In the broadcast, the root of range [lo, hi) hands the other half to that
 * half's root.  Here, in reverse step order, the other half's root sends its
 * partial (the combination over the other half) to the range's root, which
 * combines it with its own partial (over its own half).  The two halves are
 * adjacent, so the result covers [lo, hi), and the lower half's partial is
 * always the left operand:
 *   partial from the lower half:  acc = tmp (op) acc   (src_first = 1)
 *   partial from the upper half:  acc = acc (op) tmp   (src_first = 0; the
 *                                 executor may clobber tmp, which is free)
 * so the root ends with x_0 (op) x_1 (op) ... (op) x_{n-1} in line order,
 * also for non-commutative operations.  Each position sends once, after all
 * its receives; one step is one round (receive into tmp, then reduce).
 *
 * Restrictions: none (any n, any root, keeps line order).  tmp must have
 * acc.count elements and must not overlap acc (a leaf, which receives
 * nothing, does not use it; acc may then be its input, only read).  A
 * zero-length vector is still sent (empty messages), so the combine also
 * synchronises.
 *
 * Cost: ceil(log2 n) (alpha + m beta + m gamma).
 */
#include "algorithms.h"
#include "mst.h"

void ic_mst_combine(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_region_t acc,
                    ic_region_t tmp)
{
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me < 0 || line->n <= 1)
        return;

    ic_region_t in = ic_reg(tmp.buf, tmp.off, acc.count);
    ic_mst_step_t st[IC_MST_MAXSTEPS];
    int k = ic_mst_steps(line->n, root_pos, me, st);
    if (ic_mst_receives(st, k) && (tmp.buf == IC_BUF_SCRATCH || tmp.buf == IC_BUF_SCRATCH2))
        ic_sched_need(s, tmp.buf, tmp.off + acc.count);
    for (int i = k - 1; i >= 0; i--) {
        if (st[i].role == IC_MST_SEND) {
            /* broadcast sender = combine receiver */
            ic_sched_recv(s, ic_line_rank(line, st[i].peer), in);
            if (acc.count > 0)
                ic_sched_reduce(s, in, acc, st[i].sub_is_low);
        } else if (st[i].role == IC_MST_RECV) {
            ic_sched_send(s, ic_line_rank(line, st[i].peer), acc);
        }
        ic_sched_round(s);
    }
}
