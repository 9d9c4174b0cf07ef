/*
 * coll_allreduce.c -- allreduce (mitra-1995 section 3.2), four algorithms,
 * and tan-strazdins-2002's patterns (section 3.3): recursive halving then
 * recursive doubling (rh_dcombine.c, rd_collect.c), the whole-vector ring
 * (ring_allreduce.c), and the repeated binary tree, pipeline, full fan-in
 * and full fan-out as their distributed combine of the p blocks followed
 * by their collect (repeated.c, fanout.c).
 *
 * The composer (compose.c) builds them from the primitives, on the line of
 * all ranks (a 1-D plan) or along the lines of a mesh dimension (a mesh
 * step, plan.h); this file describes them and holds what the selector
 * needs: their closed-form costs.
 *
 * "mst": MST combine-to-one to position 0, then MST broadcast from it.
 *   The accumulator is RECV (input copied from SEND unless in_place),
 *   partials arrive in SCRATCH.  Keeps rank order.
 *   Cost: 2 ceil(log2 p) alpha + 2 ceil(log2 p) n beta + ceil(log2 p) n gamma.
 *
 * "dcombine_collect": the long-vector allreduce.  The vector in RECV is
 *   split evenly into p blocks; a bucket distributed combine leaves the
 *   finished block i on position i, a bucket collect spreads all finished
 *   blocks.  Needs a commutative op.  Trace, p = 3 (b = finished block):
 *     start:     P0 x0       P1 x1       P2 x2        (full vectors)
 *     dcombine:  P0 b0       P1 b1       P2 b2        (2 ring steps)
 *     collect:   P0 b0 b1 b2 P1 b0 b1 b2 P2 b0 b1 b2  (2 ring steps)
 *   Cost: 2 (p-1) alpha + 2 (p-1)/p n beta + (p-1)/p n gamma.
 *
 * "bidir_dcombine_collect": "dcombine_collect" on two counter-rotating
 *   rings (bidir_bucket.c), the lower half of every block going right,
 *   the upper half left, so that both directions of every neighbour link
 *   carry data.  Needs a commutative op.  On full-duplex neighbour links
 *   (a torus) half the transfer time of "dcombine_collect"; a model with
 *   one port per rank sees no gain, so the cost is the links' lower bound
 *   (IC_ALG_COST_BOUND: run when forced or named by a tuning table).
 *   Every link carries half a block each way in every step, an exchange:
 *   where exchanges cost beta_x = 2 beta per direction (TCP), no gain.
 *   Cost (p > 2; at p = 2 both rings join the same pair: the cost of
 *   "dcombine_collect"): 2 (p-1)(alpha + m/2 beta_x) + (p-1)/p n gamma,
 *   m = n/p, with beta_x = beta on full-duplex links:
 *   2 (p-1) alpha + (p-1)/p n beta + (p-1)/p n gamma.
 *
 * "recursive_doubling": pairwise exchanges at distance 1, 2, 4, ... (see
 *   rd_allreduce.c); half the start-ups of "mst", for the shortest vectors.
 *   Keeps rank order.  Accumulator RECV, partner's partials in SCRATCH.
 *   Cost: floor(log2 p)(alpha + n beta + n gamma)
 *       + (p not a power of two)(2 alpha + 2 n beta + n gamma).
 *
 * "halving_doubling": the long-vector recipe of "dcombine_collect" with
 *   the logarithmic primitives: distributed combine by recursive halving
 *   (rh_dcombine.c), then Bruck's collect (bruck_collect.c).  Needs a
 *   commutative op.  For middle lengths, where p - 1 start-ups per phase
 *   cost more than the extra fold of a non-power-of-two p.
 *   Cost (p = 2^k): 2 log2 p alpha + 2 (p-1)/p n beta + (p-1)/p n gamma.
 *
 * "one_shot": every rank sends its whole vector to every other in one
 *   round and combines all p in rank order (fanout.c: ic_fanout_allreduce;
 *   keeps rank order, the same expression on every rank).  One round
 *   instead of log2 p, at p - 1 sends per rank: for the shortest vectors
 *   where a round costs more than a send (latency that grows with the
 *   distance, as on a torus, or a low per-message overhead).  Cost: the
 *   full fan-out's bound (IC_ALG_COST_BOUND: run when forced or named by a
 *   tuning table), ic_fanout_time() + (p-1) n gamma: (p-1)(alpha + n beta_x
 *   + n gamma) in the plain model, alpha + (p-2)(o + n beta_x) + n beta_x
 *   + (p-1) n gamma with LogGP's overhead o.  Its scratch, p - 1
 *   vectors, must stay within the call's allowance (ic_one_shot_fits: up
 *   to INTERCOM_SCRATCH_SLACK below it, the message beyond); where it
 *   would not, the plan cannot serve the call (ic_alg_room): a forced one
 *   gives way to the selector, a table's rule to the model.
 */
#include "coll_common.h"

double ic_cost_allreduce_mst(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return 2 * t.L * t.a + 2 * t.L * t.n * t.b + t.L * t.n * t.g;
}

double ic_cost_allreduce_dcombine_collect(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return 2 * (t.p - 1) * t.a + 2 * t.f * t.n * t.bring + t.f * t.n * t.g;
}

double ic_cost_allreduce_dcombine_collect2(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return 2 * (t.p - 1) * ic_ring2_step(&t) + t.f * t.n * t.g;
}

double ic_cost_allreduce_halfway(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return 2 * ic_halfway_steps(&t) + t.f * t.n * t.g;
}

double ic_cost_allreduce_rd(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    double c = t.F * (t.a + t.n * (ic_xbeta(&t, t.n) + t.g));
    if (t.np2)
        c += 2 * t.a + 2 * t.n * t.b + t.n * t.g;
    return c;
}

/* The halving steps are exchanges.  The fold adds alpha + n (beta + gamma)
 * and the unfold alpha + (n/p) beta to the distributed combine when p is
 * not a power of two (an estimate then: the folded ranks' virtual blocks
 * are twice as large). */
double ic_cost_allreduce_halving_doubling(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    double c = (t.F + t.L) * t.a + ic_halving_beta(&t) + t.f * t.n * t.g + ic_bruck_beta(&t);
    if (t.np2)
        c += 2 * t.a + t.n * (t.b + t.g) + t.n / t.p * t.b;
    return c;
}

/* "recursive_halving_doubling": recursive halving with the partners 1, 2,
 * 4, ... apart first (rh_dcombine.c, near first: the halves of the vector
 * between neighbours, only the last, smallest pieces between distant
 * ranks), then the doubling that mirrors it (rd_collect.c,
 * ic_rd_collect: partners far first).  On 512 ranks of a simulated
 * cluster of 8-rank nodes (bench/simgrid/README.md) the far-first order
 * took 4.5 times as long at 1 MiB: its first exchange sends half the
 * vector out of every node at once.  In a mesh plan a line's positions
 * keep permuted blocks in between (ic_plan_step_block).
 * Cost: either order's (alpha-beta has no distance), with the
 * halving's fold (alpha + n (beta + gamma)) and unfold (alpha + n/p beta)
 * when p is not a power of two, the doubling's in ic_rd_collect_cost. */
double ic_cost_allreduce_rhrd(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    double c =
        t.F * t.a + ic_halving_beta(&t) + t.f * t.n * t.g + ic_rd_collect_cost(&t, t.n / t.p, t.n);
    if (t.np2)
        c += 2 * t.a + t.n * (t.b + t.g) + t.n / t.p * t.b;
    return c;
}

/* ring_allreduce.c: p - 1 steps of the whole vector (an exchange at
 * p = 2). */
double ic_cost_allreduce_ring(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    double b = t.p == 2 ? ic_xbeta(&t, t.n) : t.b;
    return (t.p - 1) * (t.a + t.n * (b + t.g));
}

/* The repeated patterns: their distributed combine on blocks of n/p,
 * then their collect (estimates); the fan-out: the lower bound of both
 * halves (fanout.c). */
static double ar_pattern(const ic_coll_args_t *a, const ic_model_t *m, ic_step_kind_t rs,
                         ic_step_kind_t ag)
{
    ic_terms_t t = ic_terms(a, m);
    double b = t.n / t.p;
    return ic_pattern_cost(rs, &t, b, 1) + ic_pattern_cost(ag, &t, b, 0);
}

double ic_cost_allreduce_tree(const ic_coll_args_t *a, const ic_model_t *m)
{
    return ar_pattern(a, m, IC_STEP_RS_TREE, IC_STEP_COLLECT_TREE);
}

double ic_cost_allreduce_chain(const ic_coll_args_t *a, const ic_model_t *m)
{
    return ar_pattern(a, m, IC_STEP_RS_CHAIN, IC_STEP_COLLECT_CHAIN);
}

double ic_cost_allreduce_fanin(const ic_coll_args_t *a, const ic_model_t *m)
{
    return ar_pattern(a, m, IC_STEP_RS_FANIN, IC_STEP_COLLECT_FANIN);
}

double ic_cost_allreduce_one_shot(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    if (t.p <= 1 || t.n == 0)
        return 0;
    return ic_fanout_time(&t, m, t.n) + (t.p - 1) * t.n * t.g;
}

double ic_cost_allreduce_fanout(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    double b = t.bmax;
    return (t.p - 1) * (2 * t.a + b * (2 * ic_xbeta(&t, b) + t.g));
}
