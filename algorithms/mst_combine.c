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
 * Read-only input (ic_mst_combine_ro, in != NULL): each position's
 * contribution is in `in`, never written, and acc is only where its partial
 * goes.  The first partial a position receives from the upper half of its
 * range goes straight into acc, combined with the input as the left
 * operand (acc = in (op) acc): no copy of the input, and at p = 2 the
 * root's whole reduce is one message and one combine.  A first partial
 * from the lower half needs the input copied into acc (as without `in`),
 * and a position that receives nothing sends its input.
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
    ic_mst_combine_ro(s, line, root_pos, NULL, acc, tmp);
}

void ic_mst_combine_ro(ic_sched_t *s, const ic_line_t *line, int root_pos, const ic_region_t *in,
                       ic_region_t acc, ic_region_t tmp)
{
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me < 0)
        return;
    if (line->n <= 1) {
        if (in && acc.count > 0)
            ic_sched_copy(s, *in, acc);
        return;
    }

    ic_region_t part = ic_reg(tmp.buf, tmp.off, acc.count);
    ic_mst_step_t st[IC_MST_MAXSTEPS];
    int k = ic_mst_steps(line->n, root_pos, me, st);
    /* with a read-only input, a first partial from the upper half goes
     * straight into acc (own (op) partial: the input is the left operand,
     * which the executor only reads); one from the lower half needs the
     * input copied into acc first, since the executor computes a
     * non-commutative partial (op) input into its right operand */
    int first = k - 1;
    while (first >= 0 && st[first].role != IC_MST_SEND)
        first--;
    int direct = in && first >= 0 && !st[first].sub_is_low;
    int tmp_recvs = 0;
    for (int i = 0; i < k; i++)
        tmp_recvs += st[i].role == IC_MST_SEND && !(direct && i == first);
    if (tmp_recvs)
        ic_sched_need(s, tmp.buf, tmp.off + acc.count);
    for (int i = k - 1; i >= 0; i--) {
        if (st[i].role == IC_MST_SEND) {
            /* broadcast sender = combine receiver */
            if (direct && i == first) {
                ic_sched_recv(s, ic_line_rank(line, st[i].peer), acc);
                if (acc.count > 0)
                    ic_sched_reduce(s, *in, acc, 1);
            } else {
                if (in && i == first && acc.count > 0)
                    ic_sched_copy(s, *in, acc);
                ic_sched_recv(s, ic_line_rank(line, st[i].peer), part);
                if (acc.count > 0)
                    ic_sched_reduce(s, part, acc, st[i].sub_is_low);
            }
        } else if (st[i].role == IC_MST_RECV) {
            /* a position that received nothing sends its input */
            ic_sched_send(s, ic_line_rank(line, st[i].peer), in && first < 0 ? *in : acc);
        }
        ic_sched_round(s);
    }
}
