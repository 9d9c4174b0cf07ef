/*
 * coll_gather.c -- gather and gatherv: "mst", the MST gather primitive to
 * the root (mitra-1995 section 3.2), and "linear", every block straight to
 * the root.
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
 *
 * "linear": in one round every non-root sends its SEND (its own count,
 * which is all a gatherv's non-root knows of the counts) to the root, which
 * receives block i straight into RECV at its offset, whatever the displs,
 * and copies its own.  A non-root reads no count but its own, so gatherv
 * needs no block sizes from the root first (collectives.c): its schedules
 * are marked unagreed (ic_sched_t), and the executor learns at the root
 * that every message is as long as the root's count says before it takes
 * any into RECV, so that a mismatch leaves RECV as it was.  Every non-root sends
 * one message, an empty one for an empty block, so that the messages match
 * whatever the counts.  What the vendors' gatherv does (Open MPI's basic
 * linear, MPICH's).
 * Restrictions: none.
 * Cost: the root receives p - 1 messages one after the other; with LogGP's
 * overhead o < alpha (ic_send_overhead, the rest of alpha in flight) the
 * next can start o + m beta after the last did: alpha + m beta +
 * (p - 2)(o + m beta) for blocks of m (the plain model, o = alpha:
 * (p - 1)(alpha + m beta)); exact for even blocks.
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

int ic_coll_gather_linear(ic_sched_t *s, const ic_coll_args_t *a)
{
    ic_layout_t L;
    if (ic_layout_init(&L, a, a->counts, a->displs) != 0)
        return -1;
    /* gatherv: each side counts a message alone (the executor checks them
     * all before it takes any) */
    s->unagreed = a->coll == IC_COLL_GATHERV;
    ic_sched_round(s);
    if (L.me != L.root) {
        ic_sched_send(s, ic_line_rank(&L.line, L.root), ic_reg(IC_BUF_SEND, 0, L.pc[L.me]));
    } else {
        for (int i = 0; i < L.n; i++)
            if (i != L.me)
                ic_sched_recv(s, ic_line_rank(&L.line, i),
                              ic_reg(IC_BUF_RECV, L.pc[i] ? L.uoff[i] : 0, L.pc[i]));
        if (!a->in_place && (a->sendcount > 0 || L.pc[L.me] > 0))
            ic_sched_copy(s, ic_reg(IC_BUF_SEND, 0, a->sendcount),
                          ic_reg(IC_BUF_RECV, L.uoff[L.me], L.pc[L.me]));
    }
    ic_sched_round(s);
    ic_layout_free(&L);
    return ic_sched_ok(s);
}

/* The linear gather's and the linear scatter's: the root's p - 1 messages
 * of (at most) bmax bytes through its one port, each o + m beta after the
 * last, the last arriving alpha + m beta after it started. */
double ic_cost_linear(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    if (t.p < 2)
        return 0;
    double o = ic_send_overhead(t.a, m->overhead), mb = t.bmax * t.b;
    return t.a + mb + (t.p - 2) * (o + mb);
}
