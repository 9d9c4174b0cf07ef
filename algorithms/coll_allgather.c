/*
 * coll_allgather.c -- allgather and allgatherv (mitra-1995 section 3.2),
 * three algorithms, and tan-strazdins-2002's patterns (section 3.3: the
 * bidirectional exchange, rd_collect.c; the repeated binary tree and the
 * pipeline, repeated.c; the full fan-in and fan-out, fanout.c), each
 * serving both collectives and any displacements.
 *
 * The composer (compose.c) builds them from the primitives, on the line of
 * all ranks (a 1-D plan) or along the lines of a mesh dimension (a mesh
 * step, plan.h); this file describes them and holds what the selector
 * needs: their closed-form costs.
 *
 * The primitives work on blocks packed in line-position order.  When the
 * user's RECV layout is that packed layout (possibly shifted), they work on
 * RECV directly; otherwise (gaps, other block order) they work on a packed
 * copy in SCRATCH and every rank copies the blocks out to their displs at
 * the end.  The own block is placed first: a COPY of the whole SEND
 * contribution (converted by the executor when the types differ), or
 * nothing / one COPY from RECV when in_place.
 *
 * "gather_bcast": MST gather to position 0, then MST broadcast of the whole
 *   vector.  Short vectors.
 *   Cost: 2 ceil(log2 p) alpha + ((p-1)/p + ceil(log2 p)) n beta.
 *
 * "bucket": bucket collect (ring).  Long vectors.  Trace, p = 3:
 *     start   P0 {0}      P1 {1}      P2 {2}
 *     step 0  0> 1> 2>    -> P0 {0,2}  P1 {0,1}  P2 {1,2}
 *     step 1  2> 0> 1>    -> everyone {0,1,2}
 *   Cost: (p-1) alpha + (p-1)/p n beta.
 *
 * "bruck": Bruck's collect (bruck_collect.c), distance-doubling exchanges
 *   on a rotated copy in scratch, unrotated straight into RECV's layout
 *   (no packed copy even when the layout has gaps).  Not in mitra-1995;
 *   the fewest start-ups for any p, so it wins for short and middle
 *   vectors.
 *   Cost: ceil(log2 p) alpha + (p-1)/p n beta.
 *
 * "bidirectional_exchange" (rd_collect.c): recursive doubling with the
 *   partners far first, so the largest exchanges are between neighbours;
 *   its blocks in the packed copy in the order that leaves every range a
 *   position holds contiguous (ic_rh_block: bit-reversed positions), so it
 *   works on SCRATCH unless the line has fewer than 4 positions.
 *
 * (n = total elements gathered.)  Restrictions: none.
 */
#include "coll_common.h"

double ic_cost_allgather_gather_bcast(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return 2 * t.L * t.a + (t.f + t.L) * t.n * t.b;
}

/* With uneven blocks the largest one sets the pace of every ring step. */
double ic_cost_allgather_bucket(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return (t.p - 1) * (t.a + t.bmax * t.bring);
}

/* bidir_bucket.c: the links' bound (IC_ALG_COST_BOUND). */
double ic_cost_allgather_bucket2(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return (t.p - 1) * ic_ring2_step(&t);
}

double ic_cost_allgather_halfway(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return ic_halfway_steps(&t);
}

/* fanout.c: every position's receives serialised, each message exchanged
 * both ways in the round. */
double ic_cost_allgather_fanout(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return t.p <= 1 ? 0 : ic_fanout_time(&t, m, t.bmax);
}

double ic_cost_allgather_bruck(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return t.L * t.a + ic_bruck_beta(&t);
}

/* rd_collect.c (tan-strazdins-2002 equation (2), with exchanges). */
double ic_cost_allgather_rd(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return ic_rd_collect_cost(&t, t.bmax, t.n);
}

/* repeated.c and the fan-in (fanout.c): estimates. */
double ic_cost_allgather_tree(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return ic_pattern_cost(IC_STEP_COLLECT_TREE, &t, t.bmax, 0);
}

double ic_cost_allgather_chain(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return ic_pattern_cost(IC_STEP_COLLECT_CHAIN, &t, t.bmax, 0);
}

double ic_cost_allgather_fanin(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return ic_pattern_cost(IC_STEP_COLLECT_FANIN, &t, t.bmax, 0);
}
