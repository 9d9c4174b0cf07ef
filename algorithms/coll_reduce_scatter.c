/*
 * coll_reduce_scatter.c -- reduce_scatter and reduce_scatter_block
 * (mitra-1995 section 3.2), three algorithms, and tan-strazdins-2002's
 * patterns (section 3.3: the repeated binary tree and the pipeline,
 * repeated.c; the full fan-in and fan-out, fanout.c), serving both (block
 * counts may be uneven and zero).
 *
 * The composer (compose.c) builds them from the primitives, on the line of
 * all ranks (a 1-D plan) or along the lines of a mesh dimension (a mesh
 * step, plan.h); this file describes them and holds what the selector
 * needs: their closed-form costs.
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
 *   (rh_dcombine.c), partners 1, 2, 4, ... apart (near first: the
 *   largest exchanges between neighbours), so the copy in SCRATCH puts
 *   position p's block where that order ends it, at ic_rh_block(p, p, 1)
 *   of the line (compose.c, qlayout_init).  Not in mitra-1995; log2 p
 *   start-ups instead of p - 1.  Needs a commutative op.
 *   Cost (p = 2^k): log2 p alpha + (p-1)/p n (beta + gamma).
 *
 * (n = sum of the block counts.)
 */
#include "coll_common.h"

/* Do the pieces cut every block (else: ranges of the vector)? */
static int rs_slices(const ic_coll_args_t *a, const size_t *counts, int p)
{
    for (int i = 1; a->in_place && i < p; i++)
        if (counts[i] != counts[0])
            return 0;
    return 1;
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

/* bidir_bucket.c: the links' bound (IC_ALG_COST_BOUND). */
double ic_cost_reduce_scatter_bucket2(const ic_coll_args_t *a, const ic_model_t *m)
{
    /* it copies its input (no read-only variant): in pieces when bounded */
    double q = rs_pieces(a);
    ic_terms_t t = rs_piece_terms(a, m, q), w = ic_terms(a, m);
    return q * (t.p - 1) * ic_ring2_step(&t) + (w.p - 1) * w.bmax * w.g;
}

double ic_cost_reduce_scatter_halfway(const ic_coll_args_t *a, const ic_model_t *m)
{
    double q = rs_pieces(a);
    ic_terms_t t = rs_piece_terms(a, m, q), w = ic_terms(a, m);
    return q * ic_halfway_steps(&t) + (w.p - 1) * w.bmax * w.g;
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

/* The patterns of tan-strazdins-2002 (repeated.c, fanout.c), each piece
 * in turn: estimates, and for the fan-out the lower bound of equation
 * (14) with o = 1 and the reductions. */
static double rs_pattern(const ic_coll_args_t *a, const ic_model_t *m, ic_step_kind_t kind)
{
    double q = rs_pieces(a);
    ic_terms_t t = rs_piece_terms(a, m, q);
    return q * ic_pattern_cost(kind, &t, t.bmax, 1);
}

double ic_cost_reduce_scatter_tree(const ic_coll_args_t *a, const ic_model_t *m)
{
    return rs_pattern(a, m, IC_STEP_RS_TREE);
}

double ic_cost_reduce_scatter_chain(const ic_coll_args_t *a, const ic_model_t *m)
{
    return rs_pattern(a, m, IC_STEP_RS_CHAIN);
}

double ic_cost_reduce_scatter_fanin(const ic_coll_args_t *a, const ic_model_t *m)
{
    return rs_pattern(a, m, IC_STEP_RS_FANIN);
}

double ic_cost_reduce_scatter_fanout(const ic_coll_args_t *a, const ic_model_t *m)
{
    double q = rs_pieces(a);
    ic_terms_t t = rs_piece_terms(a, m, q);
    return q * (t.p - 1) * (t.a + t.bmax * (ic_xbeta(&t, t.bmax) + t.g));
}
