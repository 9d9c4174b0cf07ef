/*
 * bruck_collect.c -- collect in ceil(log2 n) steps (Bruck's
 * concatenation) on a line.
 *
 * Not one of mitra-1995's primitives: its short-vector collect (gather +
 * broadcast, section 3.2.1) takes 2 ceil(log2 n) start-ups and moves
 * ceil(log2 n) m bytes through the root; this one takes ceil(log2 n)
 * start-ups and moves (n-1)/n m bytes per position, for any n.
 *
 * Each position works on a rotated copy of the vector in `tmp`: slot j holds
 * block (me + j) mod n.  In step k (distance d = 2^k) position me sends its
 * slots [0, c) to position me - d and receives slots [d, d + c) from
 * position me + d (mod n), with c = min(d, n - d): the sender's first slots
 * are exactly the blocks the receiver misses next.  After the last step
 * every slot is filled and the blocks are copied back, unrotated, into
 * `buf`.  Trace, n = 5, slots of position 0 (x = block x):
 *   start      0
 *   d = 1      0 1           (from position 1, its slot 0)
 *   d = 2      0 1 2 3       (from position 2, its slots 0..1)
 *   d = 4      0 1 2 3 4     (from position 4, its slot 0)
 *
 * Blocks may be uneven (counts per position); slot ranges are contiguous
 * in the rotated layout, so every step is one message each way.
 *
 * Restrictions: none (any n, counts).  Block i lives at base + offs[i] of
 * buf (offs NULL: packed, base + prefix(i)); block me must be there on
 * entry, the others are written there at the end.  tmp needs the total
 * count.
 *
 * Cost: ceil(log2 n) alpha + (n-1)/n m beta for even blocks (plus two local
 * copies of the vector).
 */
#include "algorithms.h"

#include <stdlib.h>

void ic_bruck_collect(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                      const size_t *counts, const size_t *offs, ic_buf_t tmp, size_t tmpbase)
{
    int n = line->n;
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me < 0 || n <= 1)
        return;
    size_t total = ic_blocks_total(counts, n);
    if (total == 0)
        return;
    /* rot[j]: offset of slot j in the rotated layout (n + 1 entries). */
    size_t *rot = malloc(((size_t)n + 1) * sizeof(size_t));
    if (!rot) {
        s->oom = 1;
        return;
    }
    rot[0] = 0;
    for (int j = 0; j < n; j++)
        rot[j + 1] = rot[j] + counts[(me + j) % n];
    ic_sched_need(s, tmp, tmpbase + total);

    size_t mine = offs ? offs[me] : ic_blocks_prefix(counts, me);
    if (counts[me] > 0)
        ic_sched_copy(s, ic_reg(buf, base + mine, counts[me]), ic_reg(tmp, tmpbase, counts[me]));
    ic_sched_round(s);
    for (int d = 1; d < n; d *= 2) {
        int c = d < n - d ? d : n - d;
        int to = ic_line_rank(line, (me - d + n) % n);
        int from = ic_line_rank(line, (me + d) % n);
        /* what I send and what I receive can be empty (zero counts): both
         * sides compute the same sizes, so they skip the same messages */
        size_t slen = rot[c], rlen = rot[d + c] - rot[d];
        if (slen > 0)
            ic_sched_send(s, to, ic_reg(tmp, tmpbase, slen));
        if (rlen > 0)
            ic_sched_recv(s, from, ic_reg(tmp, tmpbase + rot[d], rlen));
        ic_sched_round(s);
    }
    /* Unrotate: slots 1 .. n-me-1 are blocks me+1 .. n-1, the rest 0 .. me-1;
     * packed, that is two copies; at offsets, one per block. */
    if (offs) {
        for (int j = 1; j < n; j++) {
            int b = (me + j) % n;
            if (counts[b] > 0)
                ic_sched_copy(s, ic_reg(tmp, tmpbase + rot[j], counts[b]),
                              ic_reg(buf, base + offs[b], counts[b]));
        }
    } else {
        size_t upper = rot[n - me] - rot[1];
        if (upper > 0)
            ic_sched_copy(s, ic_reg(tmp, tmpbase + rot[1], upper),
                          ic_reg(buf, base + mine + counts[me], upper));
        if (mine > 0)
            ic_sched_copy(s, ic_reg(tmp, tmpbase + rot[n - me], mine), ic_reg(buf, base, mine));
    }
    ic_sched_round(s);
    free(rot);
}
