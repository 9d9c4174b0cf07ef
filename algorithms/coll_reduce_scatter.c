/*
 * coll_reduce_scatter.c -- reduce_scatter and reduce_scatter_block
 * (mitra-1995 section 3.2), three algorithms serving both (block counts may
 * be uneven and zero).
 *
 * "mst" and "recursive_halving" work on a full copy of the input in
 * SCRATCH, blocks packed in line position order (one COPY from SEND -- or
 * from RECV when in_place -- on the identity line), and end with a COPY of
 * the own finished block to RECV at offset 0.  With partials arriving in
 * SCRATCH2 that is up to twice the message; from a->bounded_from elements
 * on they run on q = 2 or 3 pieces of the vector in turn
 * (ic_reduce_pieces), within the message: piece j is slice j of every
 * block, the call scaled by 1/q, so the formulas below hold with q times
 * the start-ups.  In place with uneven blocks, piece j is a range of the
 * packed vector instead (see reduce_scatter()), which the scatter or the
 * halving moves less evenly (up to twice the transfer); the formulas then
 * charge each piece the whole vector's transfer, an estimate.
 * "bucket" reads the input in place and keeps only two blocks of partials
 * (ic_bucket_dcombine_ro).
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

/* "mst" or "recursive_halving" on the layout P (the whole vector, or a
 * piece of it): the blocks from `in` into SCRATCH, combined there, and this
 * rank's finished block (part) to RECV at `at`. */
static void rs_piece(ic_sched_t *s, const ic_layout_t *P, ic_buf_t in, size_t at, int how)
{
    ic_sched_need(s, IC_BUF_SCRATCH, P->total);
    ic_layout_copy(s, P, in, P->uoff, 0, IC_BUF_SCRATCH, P->poff, 0, -1);
    if (how == RS_HALVING) {
        ic_rh_dcombine(s, &P->line, IC_BUF_SCRATCH, 0, P->pc, IC_BUF_SCRATCH2, 0);
    } else {
        ic_mst_combine(s, &P->line, 0, ic_reg(IC_BUF_SCRATCH, 0, P->total),
                       ic_reg(IC_BUF_SCRATCH2, 0, P->total));
        ic_mst_scatter(s, &P->line, 0, IC_BUF_SCRATCH, 0, P->pc);
    }
    ic_sched_round(s);
    size_t n = P->pc[P->me];
    if (n > 0)
        ic_sched_copy(s, ic_reg(IC_BUF_SCRATCH, P->poff[P->me], n), ic_reg(IC_BUF_RECV, at, n));
    ic_sched_round(s);
}

/* Do the pieces cut every block (else: ranges of the vector)? */
static int rs_slices(const ic_coll_args_t *a, const size_t *counts, int p)
{
    for (int i = 1; a->in_place && i < p; i++)
        if (counts[i] != counts[0])
            return 0;
    return 1;
}

static int reduce_scatter(ic_sched_t *s, const ic_coll_args_t *a, int how)
{
    ic_layout_t L;
    if (ic_layout_init(&L, a, a->counts, NULL) != 0)
        return -1;
    ic_buf_t in = a->in_place ? IC_BUF_RECV : IC_BUF_SEND;
    if (how == RS_BUCKET) {
        /* the ring reads the input where it is: no copy of the vector */
        ic_bucket_dcombine_ro(s, &L.line, in, L.uoff, L.pc, ic_reg(IC_BUF_RECV, 0, L.pc[L.me]),
                              IC_BUF_SCRATCH, 0);
        ic_sched_round(s);
        ic_layout_free(&L);
        return ic_sched_ok(s);
    }
    size_t q = ic_reduce_pieces(a, L.total);
    if (q == 1) {
        rs_piece(s, &L, in, 0, how);
        ic_layout_free(&L);
        return ic_sched_ok(s);
    }
    /* Pieces (ic_reduce_pieces).  Piece j is slice j of every block: each
     * piece a scaled copy of the whole call, so its scatter or halving
     * moves as evenly as the whole vector's.  The slices' remainders go
     * round-robin over the pieces (rr), which keeps the pieces within one
     * element of each other.  In place, the own result slice j lands in
     * RECV over the start of block 0's input, which is block 0's slice j
     * or an earlier one when all blocks are alike (block 0 takes the first
     * remainders, so its slices end last), already copied to SCRATCH.
     * With uneven blocks in place it could be a later slice's; there piece
     * j is a range of the packed vector instead, whose result slice lands
     * over input of that piece or an earlier one (the own block's offset
     * is never below its slice's). */
    int ranges = !rs_slices(a, L.pc, L.n);
    ic_layout_t P = L;
    size_t n = (size_t)L.n;
    P.pc = malloc((3 * n + 1) * sizeof(size_t));
    if (!P.pc) {
        ic_layout_free(&L);
        return -1;
    }
    P.poff = P.pc + n;
    P.uoff = P.poff + n + 1;
    for (size_t j = 0; j < q; j++) {
        size_t lo, len = ic_reduce_piece(L.total, q, j, &lo), rr = 0;
        P.poff[0] = 0;
        for (int i = 0; i < L.n; i++) {
            size_t b0, b1; /* slice [b0, b1) of the packed vector */
            if (ranges) {
                b0 = L.poff[i] > lo ? L.poff[i] : lo;
                b1 = L.poff[i + 1] < lo + len ? L.poff[i + 1] : lo + len;
                if (b1 < b0)
                    b1 = b0;
            } else {
                size_t base = L.pc[i] / q, rem = L.pc[i] % q;
                b0 = L.poff[i] + j * base;
                for (size_t e = 0; e < j; e++)
                    b0 += (e + q - rr) % q < rem;
                b1 = b0 + base + ((j + q - rr) % q < rem);
                rr = (rr + rem) % q;
            }
            P.pc[i] = b1 - b0;
            P.uoff[i] = L.uoff[i] + (b0 - L.poff[i]);
            P.poff[i + 1] = P.poff[i] + P.pc[i];
        }
        P.total = P.poff[n];
        rs_piece(s, &P, in, P.uoff[P.me] - L.uoff[P.me], how);
    }
    ic_layout_free(&P);
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

/* The pieces (ic_reduce_pieces) of a reduce_scatter. */
static double rs_pieces(const ic_coll_args_t *a)
{
    return a->bounded_from && a->counts
               ? (double)ic_reduce_pieces(a, ic_blocks_total(a->counts, a->size))
               : 1;
}

/* The terms of one of q pieces: slices of every block (exact), or ranges
 * of the vector, charged as the whole vector (an estimate: a range moves
 * less evenly, see above). */
static ic_terms_t rs_piece_terms(const ic_coll_args_t *a, const ic_model_t *m, double q)
{
    ic_terms_t t = ic_terms(a, m);
    if (!a->counts || rs_slices(a, a->counts, a->size)) {
        t.n /= q;
        t.bmax /= q;
    }
    return t;
}

double ic_cost_reduce_scatter_mst(const ic_coll_args_t *a, const ic_model_t *m)
{
    double q = rs_pieces(a);
    ic_terms_t t = rs_piece_terms(a, m, q), w = ic_terms(a, m);
    return q * (2 * t.L * t.a + t.f * t.n * t.b) + w.L * w.n * (w.b + w.g);
}

double ic_cost_reduce_scatter_bucket(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return (t.p - 1) * (t.a + t.bmax * (t.bring + t.g));
}

/* Fold and unfold as in ic_cost_allreduce_halving_doubling. */
double ic_cost_reduce_scatter_halving(const ic_coll_args_t *a, const ic_model_t *m)
{
    double q = rs_pieces(a);
    ic_terms_t t = rs_piece_terms(a, m, q), w = ic_terms(a, m);
    double c = q * (t.F * t.a + ic_halving_beta(&t)) + w.f * w.n * w.g;
    if (t.np2)
        c += q * (2 * t.a + t.n / t.p * t.b) + w.n * (w.b + w.g);
    return c;
}
