/*
 * mst_gather.c -- minimum-spanning-tree gather on a line (mitra-1995
 * section 3.1.1): the MST scatter run backwards.
 *
 * Every position holds its block at base + prefix(pos) of its own `buf`
 * (blocks packed in position order, block i of counts[i] elements).  In
 * reverse step order (see mst.h) the root of the other half sends the
 * blocks of its whole half -- one contiguous region, collected in the
 * previous steps at the same offsets of its `buf` -- to the root of the
 * range.  On return the root holds all blocks.  Non-root positions' `buf`
 * outside their own block may be written (their subtree's blocks).  A
 * message whose blocks are all empty is skipped on both sides.
 *
 * Restrictions: none (any n, any root, any counts).
 *
 * Cost: ceil(log2 n) alpha + (n-1)/n m beta for even blocks.
 */
#include "algorithms.h"
#include "mst.h"

void ic_mst_gather(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_buf_t buf, size_t base,
                   const size_t *counts)
{
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me < 0 || line->n <= 1)
        return;

    ic_mst_step_t st[IC_MST_MAXSTEPS];
    int k = ic_mst_steps(line->n, root_pos, me, st);
    for (int i = k - 1; i >= 0; i--) {
        if (st[i].role == IC_MST_IDLE)
            continue;
        size_t off = ic_blocks_prefix(counts, st[i].sub_lo);
        size_t len = ic_blocks_prefix(counts, st[i].sub_hi) - off;
        if (len == 0)
            continue;
        ic_region_t r = ic_reg(buf, base + off, len);
        if (st[i].role == IC_MST_SEND)
            ic_sched_recv(s, ic_line_rank(line, st[i].peer), r);
        else
            ic_sched_send(s, ic_line_rank(line, st[i].peer), r);
        ic_sched_round(s);
    }
}
