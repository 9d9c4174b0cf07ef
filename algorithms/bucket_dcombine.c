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

/*
 * The same ring with a read-only input (ic_bucket_dcombine_ro): the input
 * blocks stay where the caller has them (block j of position j at in_off[j]
 * of `in`, never written) and only the partials travel, in two scratch
 * blocks used in turn -- the one received this step is combined with the
 * own input of its block and sent on the next step while the other
 * receives.  Extra memory: at most two blocks (each block but one is
 * received once) instead of a copy of the whole vector plus one block.
 *
 *   step 0      send in[(i-1) mod n]                 recv -> T0, T0 = in op T0
 *   step k      send T(k-1)                          recv -> Tk, Tk = in op Tk
 *   after n-1   copy T(n-2) (= the finished block i) -> out
 *
 * With `out` in the input's buffer (reduce_scatter in place: input in RECV,
 * result at RECV's start) the result is written only after the last step,
 * as above, so the two may overlap.  Otherwise the last step receives
 * straight into `out` and combines the own input into it (no copy, one
 * block less of scratch).
 */
void ic_bucket_dcombine_ro(ic_sched_t *s, const ic_line_t *line, ic_buf_t in, const size_t *in_off,
                           const size_t *counts, ic_region_t out, ic_buf_t tmp, size_t tmpbase)
{
    int n = line->n;
    int me = ic_ro_start(s, line, in, in_off, counts, out);
    if (me < 0)
        return;
    /* T0 receives in the even steps, T1 in the odd ones: each as large as
     * the largest block it receives.  Every block but one is received
     * once, so T0 + T1 <= the two largest blocks <= the vector.  When
     * `out` is another buffer than the input, the last step receives
     * straight into it and needs no T. */
    int direct = out.buf != in;
    size_t tsize[2] = {0, 0};
    for (int k = 0; k < n - 1 - direct; k++) {
        size_t c = counts[((me - k - 2) % n + n) % n];
        if (c > tsize[k % 2])
            tsize[k % 2] = c;
    }
    size_t toff[2] = {tmpbase, tmpbase + tsize[0]};
    ic_sched_need(s, tmp, tmpbase + tsize[0] + tsize[1]);

    int right = ic_line_rank(line, (me + 1) % n);
    int left = ic_line_rank(line, (me + n - 1) % n);
    int sb = (me + n - 1) % n, rb = (me + n - 2) % n;
    for (int k = 0; k < n - 1; k++) {
        /* step k: sb == (me - k - 1) mod n, rb == (me - k - 2) mod n */
        size_t tk = toff[k % 2], tprev = toff[(k + 1) % 2];
        if (counts[sb] > 0)
            ic_sched_send(s, right,
                          k == 0 ? ic_reg(in, in_off[sb], counts[sb])
                                 : ic_reg(tmp, tprev, counts[sb]));
        if (counts[rb] > 0) {
            ic_region_t t = direct && k == n - 2 ? out : ic_reg(tmp, tk, counts[rb]);
            ic_sched_recv(s, left, t);
            ic_sched_reduce(s, ic_reg(in, in_off[rb], counts[rb]), t, 1);
        }
        ic_sched_round(s);
        sb = rb;
        rb = (rb + n - 1) % n;
    }
    /* the last step received block sb == me */
    if (counts[me] > 0 && !direct)
        ic_sched_copy(s, ic_reg(tmp, toff[(n - 2) % 2], counts[me]), out);
}
