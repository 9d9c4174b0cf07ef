/*
 * bucket_dcombine.c -- bucket distributed combine (ring reduce-scatter) on
 * a line (mitra-1995 section 3.1.2): the bucket collect run in reverse,
 * the buckets accumulating contributions.
 *
 * Every position holds a full vector packed at `base` of `buf` (block j of
 * counts[j] elements at base + prefix(j)).  The line is a ring (i sends to
 * i+1, receives from i-1).  In step k (0 <= k < n-1) position i sends its
 * partial of block (i-k-1) mod n and receives the partial of block
 * (i-k-2) mod n into tmp; after the round's messages it combines tmp into
 * its own copy of that block, which it forwards in step k+1.  The partial
 * of block j starts at position j+1, travels j+1, j+2, ..., j-1 and
 * arrives, complete, at position j in step n-2.  Sends read `buf`, receives
 * write `tmp`, so a round never overwrites what it sends.  Empty blocks are
 * not sent (both sides skip them).
 *
 * Trace, n = 4 ("x>" = the partial of block x goes right; {..} = the
 * positions combined into the block the receiver updates):
 *            P0          P1          P2          P3
 *   step 0   3>          0>          1>          2>
 *   updates  2:{3,0}     3:{0,1}     0:{1,2}     1:{2,3}
 *   step 1   2>          3>          0>          1>
 *   updates  1:{2,3,0}   2:{3,0,1}   3:{0,1,2}   0:{1,2,3}
 *   step 2   1>          2>          3>          0>
 *   updates  0:all       1:all       2:all       3:all
 *
 * Restrictions: the operation must be commutative (a block's partial
 * combines the positions in ring order starting after the block's owner,
 * which is line order only for block n-1).  tmp needs room for the largest
 * block from element tmpbase on and must not overlap the blocks.
 *
 * Cost: (n-1) alpha + (n-1)/n m beta + (n-1)/n m gamma for even blocks.
 */
#include "algorithms.h"

void ic_bucket_dcombine(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                        const size_t *counts, ic_buf_t tmp, size_t tmpbase)
{
    int n = line->n;
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me < 0 || n <= 1)
        return;

    size_t maxb = 0;
    for (int j = 0; j < n; j++)
        if (counts[j] > maxb)
            maxb = counts[j];
    if (tmp == IC_BUF_SCRATCH || tmp == IC_BUF_SCRATCH2)
        ic_sched_need(s, tmp, tmpbase + maxb);

    /* Block offsets are tracked as the block indices step down by one (mod n),
     * so the whole schedule takes O(n) time. */
    size_t total = ic_blocks_total(counts, n);
    int right = ic_line_rank(line, (me + 1) % n);
    int left = ic_line_rank(line, (me + n - 1) % n);
    int sb = (me + n - 1) % n, rb = (me + n - 2) % n;
    size_t soff = ic_blocks_prefix(counts, sb), roff = ic_blocks_prefix(counts, rb);
    for (int k = 0; k < n - 1; k++) {
        /* step k: sb == (me - k - 1) mod n, rb == (me - k - 2) mod n */
        if (counts[sb] > 0)
            ic_sched_send(s, right, ic_reg(buf, base + soff, counts[sb]));
        if (counts[rb] > 0) {
            ic_region_t in = ic_reg(tmp, tmpbase, counts[rb]);
            ic_sched_recv(s, left, in);
            ic_sched_reduce(s, in, ic_reg(buf, base + roff, counts[rb]), 1);
        }
        ic_sched_round(s);
        sb = rb;
        soff = roff;
        rb = (rb + n - 1) % n;
        roff = (rb == n - 1) ? total - counts[rb] : roff - counts[rb];
    }
}
