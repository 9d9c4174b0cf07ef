/*
 * coll_scatter.c -- scatter and scatterv: "mst", the MST scatter primitive
 * from the root (mitra-1995 section 3.2), and "linear", every block
 * straight from the root.
 *
 * The primitive needs the blocks packed in line-position order.  At the
 * root that is SEND itself when its displs are packed (possibly shifted);
 * otherwise the root first copies the other ranks' blocks into a packed
 * SCRATCH.  Non-roots with children in the tree receive their subtree's
 * blocks in SCRATCH (at their packed offsets) and finally copy their own
 * block to RECV; a leaf (about half of the ranks) receives its block in
 * RECV itself and needs no scratch.  The root's own
 * block is never sent: it is one COPY SEND -> RECV, or nothing when
 * in_place.  SEND at the root is taken to be in RECV units (the MPI layer
 * converts beforehand when the types differ).
 *
 * Restrictions: none (any counts, zeros included, any displs).
 * Cost: ceil(log2 p) alpha + (p-1)/p n beta for even blocks (n = total).
 *
 * "linear": in one round the root sends block i from SEND at its offset,
 * whatever the displs, to rank i, which receives it (its own count, which
 * is all a scatterv's non-root knows of the counts) straight into RECV,
 * and copies its own.  A non-root reads no count but its own, so scatterv
 * needs no block sizes from the root first (collectives.c): its schedules
 * are marked unagreed (ic_sched_t), and the executor checks at each
 * non-root that its message is as long as its recvcount says before it
 * takes it into RECV, so that a mismatch leaves RECV as it was.  The root sends
 * every non-root one message, an empty one for an empty block.
 * Restrictions: none.
 * Cost: as the linear gather's, the root's p - 1 sends through its one
 * port (ic_cost_linear, coll_gather.c).
 */
#include "coll_common.h"

int ic_coll_scatter_mst(ic_sched_t *s, const ic_coll_args_t *a)
{
    ic_layout_t L;
    if (ic_layout_init(&L, a, a->counts, a->displs) != 0)
        return -1;
    int is_root = L.me == L.root;
    size_t base = 0;
    int parent = ic_layout_mst_leaf(&L);
    if (parent >= 0 && a->recvcount == L.pc[L.me]) {
        /* a leaf: its block straight into RECV (the primitive's one message) */
        ic_sched_round(s);
        if (L.pc[L.me] > 0)
            ic_sched_recv(s, parent, ic_reg(IC_BUF_RECV, 0, L.pc[L.me]));
        ic_sched_round(s);
        ic_layout_free(&L);
        return ic_sched_ok(s);
    }
    ic_buf_t w = IC_BUF_SCRATCH;
    if (is_root && ic_layout_direct(&L, &base)) {
        w = IC_BUF_SEND;
    } else {
        base = 0;
        ic_sched_need(s, IC_BUF_SCRATCH, L.total);
        if (is_root)
            ic_layout_copy(s, &L, IC_BUF_SEND, L.uoff, 0, IC_BUF_SCRATCH, L.poff, 0, L.me);
    }
    ic_mst_scatter(s, &L.line, L.root, w, base, L.pc);
    size_t n = L.pc[L.me];
    if (n > 0 && !(is_root && a->in_place)) {
        size_t from = is_root ? L.uoff[L.me] : L.poff[L.me];
        ic_sched_copy(s, ic_reg(is_root ? IC_BUF_SEND : IC_BUF_SCRATCH, from, n),
                      ic_reg(IC_BUF_RECV, 0, n));
    }
    ic_sched_round(s);
    ic_layout_free(&L);
    return ic_sched_ok(s);
}

double ic_cost_scatter_mst(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return t.L * t.a + t.f * t.n * t.b;
}

int ic_coll_scatter_linear(ic_sched_t *s, const ic_coll_args_t *a)
{
    ic_layout_t L;
    if (ic_layout_init(&L, a, a->counts, a->displs) != 0)
        return -1;
    /* scatterv: each side counts a message alone (the executor checks a
     * non-root's before it takes it) */
    s->unagreed = a->coll == IC_COLL_SCATTERV;
    ic_sched_round(s);
    if (L.me != L.root) {
        ic_sched_recv(s, ic_line_rank(&L.line, L.root), ic_reg(IC_BUF_RECV, 0, L.pc[L.me]));
    } else {
        for (int i = 0; i < L.n; i++)
            if (i != L.me)
                ic_sched_send(s, ic_line_rank(&L.line, i),
                              ic_reg(IC_BUF_SEND, L.pc[i] ? L.uoff[i] : 0, L.pc[i]));
        if (!a->in_place && (a->recvcount > 0 || L.pc[L.me] > 0))
            ic_sched_copy(s, ic_reg(IC_BUF_SEND, L.uoff[L.me], L.pc[L.me]),
                          ic_reg(IC_BUF_RECV, 0, a->recvcount));
    }
    ic_sched_round(s);
    ic_layout_free(&L);
    return ic_sched_ok(s);
}
