/*
 * mst_scatter.c -- minimum-spanning-tree scatter on a line (mitra-1995
 * section 3.1.1): the MST broadcast, except that each message carries only
 * the blocks of the positions in the other half.
 *
 * Blocks are packed in position order from element `base` of `buf`, block
 * i holding counts[i] elements.  The subtree of a position in the MST (see
 * mst.h) is a contiguous range of positions, so the blocks a root hands to
 * the other half are one contiguous region, received at the same offsets
 * of the receiver's own `buf`; a non-root position ends up holding the
 * blocks of its whole subtree there, its own block at base + prefix(pos).
 * Blocks may be uneven or empty: a message whose blocks are all empty is
 * skipped on both sides (counts are known everywhere).
 *
 * Restrictions: none (any n, any root, any counts).  On non-roots, `buf`
 * is written (so it must not be IC_BUF_SEND there).
 *
 * Cost: ceil(log2 n) alpha + (n-1)/n m beta for even blocks (the root keeps
 * the larger half, so for odd ranges it forwards the smaller part).
 */
#include "algorithms.h"
#include "mst.h"

void ic_mst_scatter(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_buf_t buf, size_t base,
                    const size_t *counts)
{
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me < 0 || line->n <= 1)
        return;

    ic_mst_step_t st[IC_MST_MAXSTEPS];
    int k = ic_mst_steps(line->n, root_pos, me, st);
    for (int i = 0; i < k; i++) {
        if (st[i].role == IC_MST_IDLE)
            continue;
        size_t off = ic_blocks_prefix(counts, st[i].sub_lo);
        size_t len = ic_blocks_prefix(counts, st[i].sub_hi) - off;
        if (len == 0)
            continue;
        ic_region_t r = ic_reg(buf, base + off, len);
        if (st[i].role == IC_MST_SEND)
            ic_sched_send(s, ic_line_rank(line, st[i].peer), r);
        else
            ic_sched_recv(s, ic_line_rank(line, st[i].peer), r);
        ic_sched_round(s);
    }
}
