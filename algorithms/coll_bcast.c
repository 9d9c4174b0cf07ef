/*
 * coll_bcast.c -- broadcast (mitra-1995 section 3.2), two algorithms:
 *
 * "mst": the MST broadcast primitive on the whole line.
 *   Cost: ceil(log2 p) (alpha + n beta).
 *
 * "scatter_collect": the long-vector broadcast.  The vector is split evenly
 *   into p blocks (the first n mod p blocks one element longer; when
 *   n < p some blocks are empty and are never sent), MST-scattered from the
 *   root, then every position has its own block and a bucket collect
 *   completes the vector everywhere.  Trace, p = 4, root 0 (block i goes to
 *   position i; see bucket_collect.c for the ring steps):
 *     scatter:  P0 {0,1,2,3} -> P2 {2,3};  then P0 -> P1 {1}, P2 -> P3 {3}
 *     collect:  3 ring steps, each position forwards the block it received
 *   Cost: ceil(log2 p) alpha + (p-1)/p n beta   (scatter)
 *       + (p-1) alpha + (p-1)/p n beta          (collect)
 *
 * Restrictions: none.  Both keep nothing but data, so order is moot.
 * Buffers: RECV only (the vector is in RECV on every rank).
 */
#include "coll_common.h"

int ic_coll_bcast_mst(ic_sched_t *s, const ic_coll_args_t *a)
{
    ic_line_t line = ic_coll_line(a);
    int root = ic_line_pos(&line, a->root);
    ic_mst_bcast(s, &line, root, ic_reg(IC_BUF_RECV, 0, a->count));
    ic_sched_round(s);
    return ic_sched_ok(s);
}

int ic_coll_bcast_scatter_collect(ic_sched_t *s, const ic_coll_args_t *a)
{
    ic_layout_t L;
    if (ic_layout_init(&L, a, NULL, NULL) != 0)
        return -1;
    ic_mst_scatter(s, &L.line, L.root, IC_BUF_RECV, 0, L.pc);
    ic_bucket_collect(s, &L.line, IC_BUF_RECV, 0, L.pc);
    ic_sched_round(s);
    ic_layout_free(&L);
    return ic_sched_ok(s);
}
