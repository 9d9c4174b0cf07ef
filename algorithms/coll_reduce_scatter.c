/*
 * coll_reduce_scatter.c -- reduce_scatter and reduce_scatter_block
 * (mitra-1995 section 3.2), three algorithms serving both (block counts may
 * be uneven and zero).
 *
 * "mst" and "recursive_halving" work on a full copy of the input in
 * SCRATCH, blocks packed in line position order (one COPY from SEND -- or
 * from RECV when in_place -- on the identity line), and end with a COPY of
 * the own finished block to RECV at offset 0.  "bucket" reads the input in
 * place and keeps only two blocks of partials (ic_bucket_dcombine_ro).
 *
 * "mst": MST combine-to-one to position 0 (partials in SCRATCH2), then MST
 *   scatter of the finished blocks from position 0.  Keeps rank order.
 *   Cost: 2 ceil(log2 p) alpha + (ceil(log2 p) + (p-1)/p) n beta
 *       + ceil(log2 p) n gamma.
 *
 * "bucket": bucket distributed combine (partials in SCRATCH): block i's
 *   partial travels once around the ring and ends, complete, at position i.
 *   Needs a commutative op.  Trace, p = 3 ({..} = ranks combined):
 *     step 0  P0 sends 2>, P1 0>, P2 1>  -> P0 2:{2,0} P1 0:{0,1} P2 1:{1,2}
 *     step 1  P0 sends 1>, P1 2>, P2 0>  -> P0 0:all   P1 1:all   P2 2:all
 *   Cost: (p-1) alpha + (p-1)/p n (beta + gamma).
 *
 * "recursive_halving": the distributed combine by recursive halving
 *   (rh_dcombine.c).  Not in mitra-1995; log2 p start-ups instead of p - 1.
 *   Needs a commutative op.
 *   Cost (p = 2^k): log2 p alpha + (p-1)/p n (beta + gamma).
 *
 * (n = sum of the block counts.)
 */
#include "coll_common.h"

enum { RS_MST, RS_BUCKET, RS_HALVING };

static int reduce_scatter(ic_sched_t *s, const ic_coll_args_t *a, int how)
{
    ic_layout_t L;
    if (ic_layout_init(&L, a, a->counts, NULL) != 0)
        return -1;
    if (how == RS_BUCKET) {
        /* the ring reads the input where it is: no copy of the vector */
        ic_bucket_dcombine_ro(s, &L.line, a->in_place ? IC_BUF_RECV : IC_BUF_SEND, L.uoff, L.pc,
                              ic_reg(IC_BUF_RECV, 0, L.pc[L.me]), IC_BUF_SCRATCH, 0);
        ic_sched_round(s);
        ic_layout_free(&L);
        return ic_sched_ok(s);
    }
    ic_sched_need(s, IC_BUF_SCRATCH, L.total);
    ic_layout_copy(s, &L, a->in_place ? IC_BUF_RECV : IC_BUF_SEND, L.uoff, 0, IC_BUF_SCRATCH,
                   L.poff, 0, -1);
    if (how == RS_HALVING) {
        ic_rh_dcombine(s, &L.line, IC_BUF_SCRATCH, 0, L.pc, IC_BUF_SCRATCH2, 0);
    } else {
        ic_mst_combine(s, &L.line, 0, ic_reg(IC_BUF_SCRATCH, 0, L.total),
                       ic_reg(IC_BUF_SCRATCH2, 0, L.total));
        ic_mst_scatter(s, &L.line, 0, IC_BUF_SCRATCH, 0, L.pc);
    }
    ic_sched_round(s);
    size_t n = L.pc[L.me];
    if (n > 0)
        ic_sched_copy(s, ic_reg(IC_BUF_SCRATCH, L.poff[L.me], n), ic_reg(IC_BUF_RECV, 0, n));
    ic_sched_round(s);
    ic_layout_free(&L);
    return ic_sched_ok(s);
}

int ic_coll_reduce_scatter_mst(ic_sched_t *s, const ic_coll_args_t *a)
{
    return reduce_scatter(s, a, RS_MST);
}

int ic_coll_reduce_scatter_bucket(ic_sched_t *s, const ic_coll_args_t *a)
{
    return reduce_scatter(s, a, RS_BUCKET);
}

int ic_coll_reduce_scatter_halving(ic_sched_t *s, const ic_coll_args_t *a)
{
    return reduce_scatter(s, a, RS_HALVING);
}

double ic_cost_reduce_scatter_mst(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return 2 * t.L * t.a + (t.L + t.f) * t.n * t.b + t.L * t.n * t.g;
}

double ic_cost_reduce_scatter_bucket(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return (t.p - 1) * (t.a + t.bmax * (t.bring + t.g));
}

/* Fold and unfold as in ic_cost_allreduce_halving_doubling. */
double ic_cost_reduce_scatter_halving(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    double c = t.F * t.a + ic_halving_beta(&t) + t.f * t.n * t.g;
    if (t.np2)
        c += 2 * t.a + t.n * (t.b + t.g) + t.n / t.p * t.b;
    return c;
}
