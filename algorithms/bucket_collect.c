/*
 * bucket_collect.c -- bucket collect (ring allgather) on a line
 * (mitra-1995 section 3.1.2).
 *
 * The line is viewed as a ring: position i sends to i+1 and receives from
 * i-1 (position n-1 sends to 0), so on a linear array only the wrap-around
 * message goes left and no two messages of a step share a link direction.
 * In step k (0 <= k < n-1) position i sends block (i-k) mod n and receives
 * block (i-k-1) mod n: every block travels once around the ring, each step
 * forwarding the block received in the previous one.  One SEND and one
 * RECV per round (full duplex).  Blocks are packed in position order from
 * `base` of `buf` (block i of counts[i] elements, at base + prefix(i)); an
 * empty block is not sent (both sides skip it, counts are known
 * everywhere).
 *
 * Trace, n = 4 ("x>" = block x goes to the right-hand neighbour):
 *            P0         P1         P2         P3
 *   start    0          1          2          3
 *   step 0   0>         1>         2>         3>
 *   holds    0,3        0,1        1,2        2,3
 *   step 1   3>         0>         1>         2>
 *   holds    0,2,3      0,1,3      0,1,2      1,2,3
 *   step 2   2>         3>         0>         1>
 *   holds    0,1,2,3    0,1,2,3    0,1,2,3    0,1,2,3
 *
 * Restrictions: none (any n, any counts, packed layout).
 *
 * Cost: (n-1) alpha + (n-1)/n m beta for even blocks.
 */
#include "algorithms.h"

void ic_bucket_collect(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                       const size_t *counts)
{
    int n = line->n;
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me < 0 || n <= 1)
        return;

    /* Block offsets are tracked as the block indices step down by one (mod n),
     * so the whole schedule takes O(n) time. */
    size_t total = ic_blocks_total(counts, n);
    int right = ic_line_rank(line, (me + 1) % n);
    int left = ic_line_rank(line, (me + n - 1) % n);
    int sb = me, rb = (me + n - 1) % n;
    size_t soff = ic_blocks_prefix(counts, sb), roff = ic_blocks_prefix(counts, rb);
    for (int k = 0; k < n - 1; k++) {
        /* step k: sb == (me - k) mod n, rb == (me - k - 1) mod n */
        if (counts[sb] > 0)
            ic_sched_send(s, right, ic_reg(buf, base + soff, counts[sb]));
        if (counts[rb] > 0)
            ic_sched_recv(s, left, ic_reg(buf, base + roff, counts[rb]));
        ic_sched_round(s);
        sb = rb;
        soff = roff;
        rb = (rb + n - 1) % n;
        roff = (rb == n - 1) ? total - counts[rb] : roff - counts[rb];
    }
}
