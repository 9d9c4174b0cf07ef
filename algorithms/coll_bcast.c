/*
 * coll_bcast.c -- broadcast (mitra-1995 section 3.2), twelve algorithms.
 *
 * The composer (compose.c) builds them from the primitives, on the line of
 * all ranks (a 1-D plan) or along the lines of a mesh dimension (a mesh
 * step, plan.h); this file describes them and holds what the selector
 * needs: their closed-form costs and parameter rules.
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
 * "scatter_doubling": the same scatter, then a collect by recursive
 *   doubling (rd_collect.c, partners near first, 1, 2, 4, ... apart, from
 *   the scatter's layout): ceil(log2 p) start-ups for the collect instead
 *   of p - 1, every message an exchange.  On a switch that carries a
 *   pair's two directions at full rate (a fat tree) it is the bucket's
 *   bandwidth for far fewer start-ups; over TCP, where a pair's exchange
 *   shares one connection (beta_x = 2 beta), the model prices its bytes
 *   twice.  MPICH's long-message broadcast for powers of two.
 *   Cost: ceil(log2 p) alpha + (p-1)/p n beta   (scatter)
 *       + the doubling's ic_rd_collect_cost (p = 2^k: k alpha + (p-1)/p n
 *         beta_x; otherwise a fold and an unfold more)
 *
 * "halfway_scatter_collect": the same scatter, then the collect on the
 *   halfway rings (bidir_bucket.c): every block whole both ways, half way
 *   round each, ceil((p-1)/2) steps of a block each way on every link
 *   (the "bidir_scatter_collect" takes p - 1 of half a block).  The links'
 *   bound (IC_ALG_COST_BOUND), as the bidir rings:
 *   Cost: ceil(log2 p) alpha + (p-1)/p n beta + ic_halfway_steps.
 *
 * "pipeline": the pipelined chain broadcast (pipe_bcast.c) with the
 *   selector's segment size a->seg.  Not in mitra-1995; it is what comes
 *   within a few percent of the m beta bound for long vectors on a switch.
 *   Cost: (p - 2 + k)(alpha + (n/k) beta) for k segments.
 *
 * "bidir_pipeline": the pipeline on two chains from the root, one each way
 *   round the line (pipe_bcast.c), each with half the vector.  On
 *   full-duplex neighbour links, k segments per half:
 *   (p - 2 + k)(alpha + (n/(2k)) beta), a lower bound where one port per
 *   rank serialises a round's two sends (IC_ALG_COST_BOUND: forced or
 *   tables only).  Its segment rule: the pipeline's for half the vector.
 *
 * "halfway_pipeline": the whole vector on two chains from the root, one
 *   each way half way round the line (halfway_bcast.c): the farthest
 *   position floor(p/2) hops away, the whole vector on every link.  On
 *   full-duplex neighbour links, k segments of s bytes, D = floor(p/2),
 *   priced as the dataflow it runs as (executor.c): D (alpha + s beta) +
 *   (k - 1) max(s beta, (alpha + s beta) / IC_STREAM_DEPTH), the first
 *   segment's way down, then one segment a link's time, the start-ups of
 *   the segments in flight overlapping; a lower bound of the lock-step
 *   (D - 1 + k)(alpha + s beta), and where one port per rank serialises
 *   the root's two sends (IC_ALG_COST_BOUND).  Two halfway_pipeline steps
 *   of a 2-D mesh plan stream as the torus's two edge-disjoint trees, a
 *   half of the vector each, side by side: plan.c prices them as one
 *   half's halfway pipeline of D = ic_torus_trees_depth hops.  Its
 *   segment rule minimises the closed form.
 *
 * "binary_tree": the pipelined binary-tree broadcast (tree_bcast.c): no
 *   position sends more than 2 n bytes, where the MST's root sends
 *   ceil(log2 p) n.  Cost (2 (k - 1) + A)(alpha + (n/k) beta), A =
 *   ic_tree_depth_cost(p) (4 for p = 8).  It never beats the MST with one
 *   segment; with many, its first segment arrives after A message times
 *   against the chain's p - 1, so on long lines it wins middle sizes.
 *
 * "two_tree": two pipelined binary trees (two_tree.c), the vector's halves,
 *   every position interior in at most one: each receives n and sends at
 *   most n bytes, like a chain, and the first segments arrive after about
 *   2 log2 p hops instead of p - 1.  k segments of s bytes per half:
 *   (2k + A)(alpha + s beta), A = ic_tree_depth_cost(p - 1), the root's
 *   2k sends one after another and the last one's way down (exactly: the
 *   root's sends 2k alpha + n beta, then A (alpha + s' beta) for s' the
 *   shorter of the halves' last segments); a lower bound where a
 *   position's two receives fall in one round (IC_ALG_COST_BOUND: forced
 *   or tables only).  Its segment rule minimises that:
 *   k = sqrt(A m beta / (4 alpha)) for the half m / 2.
 *
 * "knomial": the k-nomial tree broadcast (knomial_bcast.c), a->seg its
 *   radix k.  With S = o + n beta the sender's time per message and
 *   R = alpha - o the rest of a hop (o = ic_model_t.overhead, LogGP's
 *   sender overhead; 0 means alpha, the plain model): ic_knomial_time(p,
 *   k, S, R).  For o = alpha the binomial tree (k = 2, the MST's cost) is
 *   the best; the smaller o against alpha, the larger the best radix (p = 8:
 *   3 (S + R) binomial, 4 S + 2 R for k = 4, 7 S + R flat).  The radix
 *   rule tries k = 2 .. 8, 16, 32 and p.
 *
 * "circulant": the round-optimal broadcast on a circulant graph
 *   (circulant.c; Traff 2025): B blocks in B - 1 + q rounds, q =
 *   ceil(log2 p), every position sending one block and receiving one a
 *   round, so each receives n and sends at most n bytes, as in a chain,
 *   and the first block is everywhere after q rounds, as in the MST.
 *   Blocks of s bytes: (B - 1 + q)(alpha + s beta) in lock step where a
 *   rank's send and receive of a round overlap (full duplex): a lower
 *   bound (IC_ALG_COST_BOUND: forced or tables only), since for even p
 *   the rounds over skip p / 2 (one a phase) hold exchanges, which cost
 *   s beta_x where a pair's two directions share a connection (TCP), and
 *   a rank's node shares one port among its ranks.  Its segment rule
 *   minimises it: B = sqrt((q - 1) m beta / alpha).
 *
 * Restrictions: none.  All move nothing but data, so order is moot.
 * Buffers: RECV only (the vector is in RECV on every rank).
 */
#include "coll_common.h"

#include <math.h>

/* The radix a->seg, within 2 .. p. */
static int radix_of(const ic_coll_args_t *a)
{
    return a->seg < 2 ? 2 : a->seg > (size_t)a->size ? a->size : (int)a->seg;
}

/* Pipelined broadcasts: k segments of seg elements of a vector of n. */
static double pipeline_cost(const ic_coll_args_t *a, const ic_model_t *m, size_t seg)
{
    double k = (double)((a->count + seg - 1) / seg);
    double ramp = ic_stream_ramps(a->count, seg) ? IC_STREAM_DEPTH - 2 : 0; /* algorithms.h */
    double sb = (double)seg * (double)m->elem, f = ic_msg_factor(m, sb);
    return ((double)a->size - 2 + k) * (m->alpha * f + sb * m->beta * f) + ramp * m->alpha;
}

static double tree_cost(const ic_coll_args_t *a, const ic_model_t *m, size_t seg)
{
    double k = (double)((a->count + seg - 1) / seg);
    double sb = (double)seg * (double)m->elem, f = ic_msg_factor(m, sb);
    return ic_tree_steps(a->size, k) * (m->alpha * f + sb * m->beta * f);
}

/* k = sqrt((p - 2) m beta / alpha) segments minimise
 * (p - 2 + k)(alpha + (m / k) beta) for m bytes; p = 2 gains nothing from
 * pipelining (k = 1). */
size_t ic_seg_bcast_pipeline(const ic_coll_args_t *a, const ic_model_t *md)
{
    double m = (double)a->count * (double)md->elem;
    double k = 1;
    if (a->size > 2 && md->alpha > 0 && md->beta > 0)
        k = floor(sqrt((double)(a->size - 2) * m * md->beta / md->alpha) + 0.5);
    return ic_seg_of_k(a, md, k);
}

/* One of bidir_pipeline's two chains as a call of its own: the whole line
 * and the larger half of the vector; 0 where it runs as the one-chain
 * pipeline (p < 3, fewer than 2 elements). */
static int half_chain(const ic_coll_args_t *a, ic_coll_args_t *half)
{
    if (a->size < 3 || a->count < 2)
        return 0;
    *half = *a;
    half->count = a->count - a->count / 2;
    return 1;
}

size_t ic_seg_bcast_pipeline2(const ic_coll_args_t *a, const ic_model_t *md)
{
    ic_coll_args_t h;
    return half_chain(a, &h) ? ic_seg_bcast_pipeline(&h, md) : ic_seg_bcast_pipeline(a, md);
}

/* The k-nomial broadcast's time at radix k for one message's S and R. */
static double bcast_price(int k, const void *ctx)
{
    const double *sr = ctx; /* n, S, R */
    return ic_knomial_time((int)sr[0], k, sr[1], sr[2]);
}

size_t ic_radix_bcast_knomial(const ic_coll_args_t *a, const ic_model_t *m)
{
    double sr[3] = {(double)a->size, 0, 0};
    ic_split_hop(m, (double)a->count * (double)m->elem, &sr[1], &sr[2]);
    return (size_t)ic_knomial_best_radix(a->size, bcast_price, sr);
}

/* (2 k + A - 2)(alpha + (m / k) beta) is least at
 * k = sqrt((A - 2) m beta / (2 alpha)). */
size_t ic_seg_bcast_binary_tree(const ic_coll_args_t *a, const ic_model_t *md)
{
    double m = (double)a->count * (double)md->elem;
    double A = ic_tree_depth_cost(a->size), k = 1;
    if (a->size > 2 && A > 2 && md->alpha > 0 && md->beta > 0)
        k = floor(sqrt((A - 2) * m * md->beta / (2 * md->alpha)) + 0.5);
    return ic_seg_of_k(a, md, k);
}

double ic_cost_bcast_mst(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return t.L * (t.a + t.n * t.b);
}

double ic_cost_bcast_scatter_collect(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return (t.L + t.p - 1) * t.a + t.f * t.n * (t.b + t.bring);
}

/* bidir_bucket.c: the links' bound of the collect (IC_ALG_COST_BOUND). */
double ic_cost_bcast_scatter_collect2(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return t.L * t.a + t.f * t.n * t.b + (t.p - 1) * ic_ring2_step(&t);
}

double ic_cost_bcast_scatter_halfway(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return t.L * t.a + t.f * t.n * t.b + ic_halfway_steps(&t);
}

double ic_cost_bcast_scatter_doubling(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return t.L * t.a + t.f * t.n * t.b + ic_rd_collect_cost(&t, t.bmax, t.n);
}

double ic_cost_bcast_pipeline(const ic_coll_args_t *a, const ic_model_t *m)
{
    if (a->size <= 1)
        return 0;
    size_t seg = a->seg && a->seg < a->count ? a->seg : a->count;
    if (!seg) /* count 0: the chain's empty messages */
        return ((double)a->size - 1) * m->alpha;
    return pipeline_cost(a, m, seg);
}

double ic_cost_bcast_pipeline2(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_coll_args_t h;
    return half_chain(a, &h) ? ic_cost_bcast_pipeline(&h, m) : ic_cost_bcast_pipeline(a, m);
}

/* A stream of k segments of sb bytes down D hops run as a dataflow
 * (executor.c, "Dataflow"): the first segment pays D hops of alpha + sb
 * beta; every later one a link's time for its bytes, but no less than a
 * hop shared among the IC_STREAM_DEPTH receives a link has under way (the
 * start-ups of segments in flight overlap).  f: the message factor of sb
 * (ic_msg_factor). */
static double dataflow_time(double D, double k, double sb, const ic_model_t *m)
{
    double f = ic_msg_factor(m, sb), hop = (m->alpha + sb * m->beta) * f, next = sb * m->beta * f;
    if (hop / IC_STREAM_DEPTH > next)
        next = hop / IC_STREAM_DEPTH;
    return D * hop + (k - 1) * next;
}

/* The halfway pipeline: floor(p/2) hops, the whole vector. */
double ic_cost_bcast_halfway(const ic_coll_args_t *a, const ic_model_t *m)
{
    if (a->size <= 1 || a->count == 0)
        return 0;
    size_t seg = a->seg && a->seg < a->count ? a->seg : a->count;
    return dataflow_time((double)(a->size / 2), (double)((a->count + seg - 1) / seg),
                         (double)seg * (double)m->elem, m);
}

/* Its least: where a hop's start-up no longer hides behind the segments
 * in flight, s = alpha / ((IC_STREAM_DEPTH - 1) beta), or, while it does,
 * D s beta + (m / s) alpha / IC_STREAM_DEPTH at s = sqrt(m alpha /
 * (IC_STREAM_DEPTH D beta)): the larger of the two. */
size_t ic_seg_bcast_halfway(const ic_coll_args_t *a, const ic_model_t *md)
{
    double m = (double)a->count * (double)md->elem, D = (double)(a->size / 2), k = 1;
    if (D >= 1 && md->alpha > 0 && md->beta > 0) {
        double s1 = md->alpha / ((IC_STREAM_DEPTH - 1) * md->beta);
        double s2 = sqrt(m * md->alpha / (IC_STREAM_DEPTH * D * md->beta));
        k = floor(m / (s1 > s2 ? s1 : s2) + 0.5);
    }
    return ic_seg_of_k(a, md, k);
}

double ic_cost_bcast_binary_tree(const ic_coll_args_t *a, const ic_model_t *m)
{
    if (a->size <= 1 || a->count == 0)
        return 0;
    return tree_cost(a, m, a->seg && a->seg < a->count ? a->seg : a->count);
}

/* The larger half of the vector (two_tree.c's first) as a call of its own. */
static ic_coll_args_t larger_half(const ic_coll_args_t *a)
{
    ic_coll_args_t h = *a;
    h.count = a->count - a->count / 2;
    return h;
}

/* The two trees' segment rule and closed form, with b the time per byte
 * of a message: beta for the broadcast, beta + gamma for the reduce (its
 * messages run backwards, each combined).  (2k + A)(alpha + (m/(2k)) b) is
 * least at k = sqrt(A m b / (4 alpha)). */
size_t ic_seg_two_tree(const ic_coll_args_t *a, const ic_model_t *md, double b)
{
    ic_coll_args_t h = larger_half(a);
    double half = (double)h.count * (double)md->elem;
    double A = ic_tree_depth_cost(a->size - 1), k = 1;
    if (a->size > 2 && A > 0 && md->alpha > 0 && b > 0)
        k = floor(sqrt(A * half * b / (2 * md->alpha)) + 0.5);
    return ic_seg_of_k(&h, md, k);
}

double ic_cost_two_tree(const ic_coll_args_t *a, const ic_model_t *m, double b)
{
    if (a->size <= 1 || a->count == 0)
        return 0;
    size_t hi = a->count - a->count / 2, lo = a->count / 2;
    size_t seg = a->seg && a->seg < hi ? a->seg : hi;
    size_t k = (hi + seg - 1) / seg + (lo + seg - 1) / seg;
    /* the root's sends, every element once; then the way down of the last
     * segment, no longer than the shorter of the halves' last ones */
    size_t last = hi - (hi - 1) / seg * seg;
    if (lo > 0 && lo - (lo - 1) / seg * seg < last)
        last = lo - (lo - 1) / seg * seg;
    double A = ic_tree_depth_cost(a->size - 1), e = (double)m->elem * b;
    return (double)k * m->alpha + (double)a->count * e + A * (m->alpha + (double)last * e);
}

size_t ic_seg_bcast_two_tree(const ic_coll_args_t *a, const ic_model_t *md)
{
    return ic_seg_two_tree(a, md, md->beta);
}

double ic_cost_bcast_two_tree(const ic_coll_args_t *a, const ic_model_t *m)
{
    return ic_cost_two_tree(a, m, m->beta);
}

size_t ic_seg_circulant(const ic_coll_args_t *a, const ic_model_t *md, double b)
{
    double m = (double)a->count * (double)md->elem, q = ic_ceil_log2(a->size), k = 1;
    if (q > 1 && md->alpha > 0 && b > 0)
        k = floor(sqrt((q - 1) * m * b / md->alpha) + 0.5);
    return ic_seg_of_k(a, md, k);
}

double ic_cost_circulant(const ic_coll_args_t *a, const ic_model_t *m, double b)
{
    if (a->size <= 1 || a->count == 0)
        return 0;
    size_t seg = a->seg && a->seg < a->count ? a->seg : a->count;
    size_t last = a->count - (a->count - 1) / seg * seg; /* the shortest block */
    double B = (double)((a->count + seg - 1) / seg), q = ic_ceil_log2(a->size);
    double e = (double)m->elem * b;
    /* the root's blocks, every element once; then q - 1 rounds of the last */
    return (B - 1 + q) * m->alpha + (double)a->count * e + (q - 1) * (double)last * e;
}

size_t ic_seg_bcast_circulant(const ic_coll_args_t *a, const ic_model_t *md)
{
    return ic_seg_circulant(a, md, md->beta);
}

double ic_cost_bcast_circulant(const ic_coll_args_t *a, const ic_model_t *m)
{
    return ic_cost_circulant(a, m, m->beta);
}

double ic_cost_bcast_knomial(const ic_coll_args_t *a, const ic_model_t *m)
{
    double S, R;
    ic_split_hop(m, (double)a->count * (double)m->elem, &S, &R);
    return ic_knomial_time(a->size, radix_of(a), S, R);
}
