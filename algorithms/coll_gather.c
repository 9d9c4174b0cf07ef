/*
 * coll_gather.c -- gather and gatherv (mitra-1995 section 3.2): "mst", the
 * MST gather primitive to the root.
 *
 * The primitive needs the blocks packed in line-position order.  Every
 * non-root with children in the tree copies its contribution (the whole
 * SEND, converted by the executor when the types differ) to its packed
 * offset in SCRATCH, where its subtree's blocks also arrive; a leaf (about
 * half of the ranks) sends SEND itself and needs no scratch.  The root gathers straight into RECV
 * when its displs are packed (possibly shifted), otherwise into a packed
 * SCRATCH and copies the blocks out to their displs.  The root's own block
 * never travels: one COPY SEND -> RECV, nothing when in_place.  RECV on a
 * non-root is never touched.
 *
 * Restrictions: none (any counts, zeros included, any displs).
 * Cost: ceil(log2 p) alpha + (p-1)/p n beta for even blocks (n = total).
 */
#include "coll_common.h"

int ic_coll_gather_mst(ic_sched_t *s, const ic_coll_args_t *a)
{
    ic_layout_t L;
    if (ic_layout_init(&L, a, a->counts, a->displs) != 0)
        return -1;
    int is_root = L.me == L.root;
    size_t base = 0, n = L.pc[L.me];
    int parent = ic_layout_mst_leaf(&L);
    if (parent >= 0 && a->sendcount == n) {
        /* a leaf: its block straight from SEND (the primitive's one message) */
        ic_sched_round(s);
        if (n > 0)
            ic_sched_send(s, parent, ic_reg(IC_BUF_SEND, 0, n));
        ic_sched_round(s);
        ic_layout_free(&L);
        return ic_sched_ok(s);
    }
    int direct = is_root && ic_layout_direct(&L, &base);
    ic_buf_t w = direct ? IC_BUF_RECV : IC_BUF_SCRATCH;
    if (!direct) {
        base = 0;
        ic_sched_need(s, IC_BUF_SCRATCH, L.total);
    }
    if (!(is_root && a->in_place) && (a->sendcount > 0 || n > 0)) {
        ic_region_t dst = is_root ? ic_reg(IC_BUF_RECV, L.uoff[L.me], n)
                                  : ic_reg(IC_BUF_SCRATCH, L.poff[L.me], n);
        ic_sched_copy(s, ic_reg(IC_BUF_SEND, 0, a->sendcount), dst);
    }
    ic_mst_gather(s, &L.line, L.root, w, base, L.pc);
    ic_sched_round(s);
    if (is_root && !direct)
        ic_layout_copy(s, &L, IC_BUF_SCRATCH, L.poff, 0, IC_BUF_RECV, L.uoff, 0, L.me);
    ic_sched_round(s);
    ic_layout_free(&L);
    return ic_sched_ok(s);
}

double ic_cost_gather_mst(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return t.L * t.a + t.f * t.n * t.b;
}
