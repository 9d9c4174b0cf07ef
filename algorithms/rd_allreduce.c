/*
 * rd_allreduce.c -- recursive-doubling combine-to-all on a line.
 *
 * Not one of mitra-1995's primitives: its short-vector combine-to-all
 * (combine-to-one + broadcast, section 3.2.1) takes 2 ceil(log2 n) start-ups;
 * exchanging partial results pairwise at distance 1, 2, 4, ... takes
 * floor(log2 n) (+ 2 when n is not a power of two), which is what wins for
 * the shortest vectors (the MPI libraries use it there too).
 *
 * n = 2^k + rem positions: first the 2 rem lowest positions fold pairwise
 * (position 2i sends its vector to 2i + 1, which combines x_2i (op) x_2i+1),
 * leaving 2^k "virtual" positions that each hold the combination of a
 * contiguous run of positions, in position order.  In step j virtual
 * position v exchanges its partial result with v XOR 2^j and combines the
 * two runs lower-run first, so non-commutative operations keep position
 * order, and both partners compute the very same expression: every
 * position ends with a bitwise identical result.  Finally 2i + 1 sends the
 * result back to 2i.  Trace, n = 6 (rem = 2; [a-b] = runs combined):
 *   fold:    0 -> 1, 2 -> 3           P1 [0-1]  P3 [2-3]  P4 [4]  P5 [5]
 *   step 0:  P1 <-> P3, P4 <-> P5     P1 P3 [0-3]         P4 P5 [4-5]
 *   step 1:  P1 <-> P4, P3 <-> P5     P1 P3 P4 P5 [0-5]
 *   unfold:  1 -> 0, 3 -> 2           everyone [0-5]
 *
 * Restrictions: none (any n; keeps order).  acc holds each position's
 * contribution and ends with the result; tmp (acc.count elements) receives
 * the partner's partial results.
 *
 * Cost: floor(log2 n)(alpha + m beta + m gamma)
 *       + (n not a power of two) (2 alpha + 2 m beta + m gamma).
 */
#include "algorithms.h"

void ic_rd_allreduce(ic_sched_t *s, const ic_line_t *line, ic_region_t acc, ic_region_t tmp)
{
    int n = line->n;
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me < 0 || n <= 1)
        return;
    ic_region_t in = ic_reg(tmp.buf, tmp.off, acc.count);
    ic_sched_need(s, tmp.buf, tmp.off + acc.count);
    int pof2 = ic_fold_pof2(n);
    int rem = n - pof2;
    int folded = me < 2 * rem; /* takes part in the fold and the unfold */

    /* Receive the partner's partial into `in` and combine, lower run first
     * (the reduce runs after the round's messages). */
    int v = ic_fold_virtual(me, rem);
    if (folded && v < 0)
        ic_sched_send(s, ic_line_rank(line, me + 1), acc);
    if (folded && v >= 0) {
        ic_sched_recv(s, ic_line_rank(line, me - 1), in);
        if (acc.count > 0)
            ic_sched_reduce(s, in, acc, 1); /* acc = x_{me-1} (op) x_me */
    }
    ic_sched_round(s);
    for (int mask = 1; v >= 0 && mask < pof2; mask <<= 1) {
        int pv = v ^ mask;
        int peer = ic_line_rank(line, ic_fold_real(pv, rem));
        ic_sched_send(s, peer, acc);
        ic_sched_recv(s, peer, in);
        if (acc.count > 0)
            ic_sched_reduce(s, in, acc, pv < v);
        ic_sched_round(s);
    }
    if (folded) {
        if (v < 0)
            ic_sched_recv(s, ic_line_rank(line, me + 1), acc);
        else
            ic_sched_send(s, ic_line_rank(line, me - 1), acc);
        ic_sched_round(s);
    }
}
