/*
 * coll_reduce.c -- reduce to one root (mitra-1995 section 3.2), two
 * algorithms.
 *
 * "mst": MST combine-to-one.  Every rank first copies its input into an
 *   accumulator (the root's RECV -- nothing to copy when in_place -- or
 *   SCRATCH on the other ranks, whose RECV is not significant); partials
 *   arrive in SCRATCH2.  Keeps rank order (non-commutative ops are fine).
 *   Cost: ceil(log2 p) (alpha + n beta + n gamma).
 *
 * "dcombine_gather": the long-vector reduce.  The vector, split evenly
 *   into p blocks, is reduced by a bucket distributed combine that reads
 *   the input in place (ic_bucket_dcombine_ro: only partials travel, in two
 *   scratch blocks), which leaves the finished block i on position i, and
 *   an MST gather collects the finished blocks at the root (straight into
 *   its RECV; another position keeps only the blocks of its subtree).
 *   Needs a commutative op.
 *     p = 3, root 0:  dcombine -> P0 holds block 0, P1 block 1, P2 block 2
 *                     gather   -> P1 sends {1} to P0, then P2 sends {2}
 *                                 to P0 (mst.h's tree run backwards)
 *   Cost: (p-1) alpha + (p-1)/p n (beta + gamma)     (distributed combine)
 *       + ceil(log2 p) alpha + (p-1)/p n beta        (gather)
 *
 * "binary_tree": the pipelined binary-tree broadcast (tree_bcast.c) run
 *   backwards, for commutative ops: in step t a position receives segment t
 *   of its first child's partial into a one-segment buffer and combines it
 *   into its accumulator, then its second child's, while it sends segment
 *   t - 1 of its own partial to its parent.  No position receives more
 *   than 2 n bytes (the MST root: ceil(log2 p) n), which is what counts on
 *   rate-bound links (ic_model_t.burst; the emulated cluster's 4 KiB
 *   reduce to 8 ranks).  Leaves send their input directly.
 *   Cost, estimated as the broadcast's with each message also combined:
 *   (2 (k - 1) + A)(alpha + s beta + s gamma), A = ic_tree_depth_cost(p);
 *   with a burst, A alpha + 2 n beta (+ n gamma) while 2 n <= burst.
 *
 * Buffers: input in SEND (RECV at an in_place root); SEND is only read.
 */
#include "coll_common.h"
#include "mst.h"

/* The accumulator of this rank, initialised with its input. */
static ic_region_t reduce_acc(ic_sched_t *s, const ic_coll_args_t *a)
{
    int root = a->rank == a->root;
    ic_region_t acc = ic_reg(root ? IC_BUF_RECV : IC_BUF_SCRATCH, 0, a->count);
    if (!root)
        ic_sched_need(s, IC_BUF_SCRATCH, a->count);
    if (a->count > 0 && !(root && a->in_place))
        ic_sched_copy(s, ic_reg(IC_BUF_SEND, 0, a->count), acc);
    return acc;
}

int ic_coll_reduce_mst(ic_sched_t *s, const ic_coll_args_t *a)
{
    ic_line_t line = ic_coll_line(a);
    int root = ic_line_pos(&line, a->root);
    ic_region_t acc = reduce_acc(s, a);
    ic_mst_combine(s, &line, root, acc, ic_reg(IC_BUF_SCRATCH2, 0, a->count));
    ic_sched_round(s);
    return ic_sched_ok(s);
}

/* The positions [*lo, *hi) whose blocks position me holds before it sends
 * them to its parent in the MST gather (its range as a give root; all
 * positions at the root). */
static void gather_range(const ic_layout_t *L, int *lo, int *hi)
{
    ic_mst_step_t st[IC_MST_MAXSTEPS];
    int k = ic_mst_steps(L->n, L->root, L->me, st);
    *lo = 0;
    *hi = L->n;
    for (int i = 0; i < k; i++)
        if (st[i].role == IC_MST_RECV) {
            *lo = st[i].sub_lo;
            *hi = st[i].sub_hi;
        }
}

int ic_coll_reduce_dcombine_gather(ic_sched_t *s, const ic_coll_args_t *a)
{
    ic_layout_t L;
    if (ic_layout_init(&L, a, NULL, NULL) != 0)
        return -1;
    /* The gather collects into G: the root's RECV, or on another position
     * a SCRATCH2 area holding just the blocks of its range [lo, hi) (its
     * RECV is not significant).  G's element 0 is block lo, so the gather
     * runs with base = -prefix(lo): the offsets it adds are all >= that,
     * and size_t arithmetic wraps back to the area. */
    int root = L.me == L.root, lo, hi;
    gather_range(&L, &lo, &hi);
    ic_buf_t g = root ? IC_BUF_RECV : IC_BUF_SCRATCH2;
    size_t gbase = root ? 0 : (size_t)0 - L.poff[lo];
    if (!root)
        ic_sched_need(s, IC_BUF_SCRATCH2, L.poff[hi] - L.poff[lo]);
    ic_buf_t in = root && a->in_place ? IC_BUF_RECV : IC_BUF_SEND;
    ic_bucket_dcombine_ro(s, &L.line, in, L.uoff, L.pc, ic_reg(g, gbase + L.poff[L.me], L.pc[L.me]),
                          IC_BUF_SCRATCH, 0);
    ic_mst_gather(s, &L.line, L.root, g, gbase, L.pc);
    ic_sched_round(s);
    ic_layout_free(&L);
    return ic_sched_ok(s);
}

double ic_cost_reduce_mst(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return t.L * (t.a + t.n * (t.b + t.g));
}

double ic_cost_reduce_dcombine_gather(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return (t.L + t.p - 1) * t.a + t.f * t.n * (t.bring + t.b) + t.f * t.n * t.g;
}

int ic_coll_reduce_binary_tree(ic_sched_t *s, const ic_coll_args_t *a)
{
    ic_line_t line = ic_coll_line(a);
    int parent, child[2];
    int nchild = ic_binary_tree(&line, ic_line_pos(&line, a->root), ic_line_pos(&line, a->rank),
                                &parent, child);
    int nonroot = parent >= 0;
    size_t seg = a->seg;
    size_t k = ic_nsegments(a->count, &seg);
    if (nchild == 0 && nonroot) { /* a leaf: its input is its partial */
        for (size_t t = 0; t < k; t++) {
            ic_sched_send(s, parent, ic_segment(ic_reg(IC_BUF_SEND, 0, a->count), seg, k, t));
            ic_sched_round(s);
        }
        return ic_sched_ok(s);
    }
    ic_region_t acc = reduce_acc(s, a);
    ic_sched_round(s);
    ic_region_t tmp = ic_reg(IC_BUF_SCRATCH2, 0, seg);
    if (k > 0 && nchild > 0)
        ic_sched_need(s, IC_BUF_SCRATCH2, seg);
    for (size_t t = 0; t <= k; t++) {
        for (int c = 0; c < nchild && t < k; c++) {
            ic_region_t part = ic_segment(acc, seg, k, t);
            tmp.count = part.count;
            ic_sched_recv(s, child[c], tmp);
            if (c == 0 && nonroot && t > 0)
                ic_sched_send(s, parent, ic_segment(acc, seg, k, t - 1));
            ic_sched_reduce(s, tmp, part, 1);
            ic_sched_round(s);
        }
        if (t == k && nonroot && k > 0) {
            ic_sched_send(s, parent, ic_segment(acc, seg, k, k - 1));
            ic_sched_round(s);
        }
    }
    return ic_sched_ok(s);
}

double ic_cost_reduce_binary_tree(const ic_coll_args_t *a, const ic_model_t *m)
{
    if (a->size <= 1 || a->count == 0)
        return 0;
    size_t seg = a->seg && a->seg < a->count ? a->seg : a->count;
    double k = (double)((a->count + seg - 1) / seg), n = (double)a->count * (double)m->elem;
    double sb = (double)seg * (double)m->elem;
    double S = ic_tree_steps(a->size, k);
    return ic_burst_cost(S, sb, ic_tree_port(a->size) * n, m) + S * sb * m->gamma;
}
