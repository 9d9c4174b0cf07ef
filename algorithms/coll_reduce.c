/*
 * coll_reduce.c -- reduce to one root (mitra-1995 section 3.2), four
 * algorithms.
 *
 * The composer (compose.c) builds "mst", "dcombine_gather" and
 * "pipeline" from the primitives, on the line of all ranks (a 1-D plan)
 * or along the lines of a mesh dimension (a mesh step, plan.h); this file
 * describes them and holds what the selector needs: their closed-form
 * costs and the pipeline's segment rule.  "binary_tree" has its own
 * builder here (it is not a mesh step).
 *
 * "mst": MST combine-to-one.  Every rank first copies its input into an
 *   accumulator (the root's RECV -- nothing to copy when in_place -- or
 *   SCRATCH on the other ranks, whose RECV is not significant; a leaf
 *   sends its input as it is); partials
 *   arrive in SCRATCH2.  Keeps rank order (non-commutative ops are fine).
 *   Cost: ceil(log2 p) (alpha + n beta + n gamma).  An interior position
 *   other than the root holds 2 n; from a->bounded_from elements on the
 *   vector goes in q = 2 or 3 pieces, one combine each (ic_reduce_pieces):
 *   ceil(log2 p) (q alpha + n beta + n gamma), scratch within n.
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
 * "halving_gather": the distributed combine by recursive halving
 *   (rh_dcombine.c, partners far first, which leaves the finished block i on
 *   position i), then the MST gather of "dcombine_gather": Rabenseifner's
 *   reduce (MPICH's long-message reduce).  log2 p start-ups for the combine
 *   instead of the bucket's p - 1.  When p is a power of two the first
 *   exchange reads the input where it is and a position keeps half the
 *   vector (ic_rh_dcombine_ro); otherwise it works on a copy of the input
 *   (SCRATCH), receiving in SCRATCH2, and from a->bounded_from elements on
 *   runs on two or three pieces of the vector in turn (ic_plan_pieces),
 *   each costing what follows.  Needs a commutative op.
 *   Cost, p = 2^F:  (F + L) alpha + the halving's transfers + (p-1)/p n gamma
 *                 + (p-1)/p n beta (the gather);
 *   otherwise add alpha + n (beta + gamma) (the fold) and alpha + n/p beta
 *   (the unfold): an estimate (IC_ALG_COST_FOLDS).
 *
 * "pipeline": the pipelined chain combine-to-one (pipe_combine.c) with
 *   the selector's segment a->seg: k segments of s bytes flow along a
 *   chain ending at the root, each position combining its own segment
 *   into the partial on the way.  Not in mitra-1995; it moves n bytes
 *   through every port (dcombine_gather 2 (p-1)/p n, the MST's root
 *   ceil(log2 p) n), so for long vectors it comes close to the
 *   n (beta + gamma) bound.  Keeps rank order: for a commutative op or
 *   root 0 the chain is the ring root-1, root-2, ..., root (p - 1 hops);
 *   for a non-commutative op, root p-1: 0, 1, ..., p-1 (p - 1 hops), any
 *   other root r: r, r+1, ..., p-1, r-1, ..., 0, r (p hops; see
 *   pipe_combine.c for why).  The input is read where it is: no position
 *   copies its vector (those that append their segment to the partial,
 *   above a non-commutative root, copy one segment at a time); positions
 *   other than the root hold two segments of partials, which from
 *   a->bounded_from elements on are cut to at most half the vector where
 *   positions append (two full segments).
 *   Cost, H hops, b = 1 when the chain returns to the root (which then
 *   only receives):
 *     (H - 1 + k)(alpha + s beta) + (H - 1 + k - b) s gamma,
 *   exact when the segment divides the vector (the formula charges a full
 *   last segment otherwise).  Segment rule: the k minimising it,
 *   k = sqrt(n ((H - 1) beta + (H - 1 - b) gamma) / alpha), rounded, within
 *   1 .. count elements; p = 2 around a ring gains nothing from segments
 *   (k = 1).
 *
 * "binary_tree": the pipelined binary-tree broadcast (tree_bcast.c) run
 *   backwards, for commutative ops: in step t a position receives segment t
 *   of its first child's partial and combines its own input's segment t
 *   into it, then receives and combines its second child's, while it sends
 *   segment t - 1 of its partial to its parent.  A position other than the
 *   root works in two one-segment slots (the root combines into its RECV
 *   through one): within the message once there are two segments or more,
 *   which from a->bounded_from elements on the segment is cut to ensure
 *   (at most half the vector).  No position receives more
 *   than 2 n bytes (the MST root: ceil(log2 p) n).  Leaves send their
 *   input directly.
 *   Cost, estimated as the broadcast's with each message also combined:
 *   (2 (k - 1) + A)(alpha + s beta + s gamma), A = ic_tree_depth_cost(p).
 *
 * Buffers: input in SEND (RECV at an in_place root); SEND is only read.
 */
#include "coll_common.h"
#include "mst.h"

#include <math.h>
#include <stdlib.h>

/* The accumulator of this rank for the elements [lo, lo + n) (the root's
 * RECV; SCRATCH from 0 on the other ranks, whose RECV is not
 * significant), initialised with its input. */
static ic_region_t reduce_acc(ic_sched_t *s, const ic_coll_args_t *a, size_t lo, size_t n)
{
    int root = a->rank == a->root;
    ic_region_t acc = ic_reg(root ? IC_BUF_RECV : IC_BUF_SCRATCH, root ? lo : 0, n);
    if (!root)
        ic_sched_need(s, IC_BUF_SCRATCH, n);
    if (n > 0 && !(root && a->in_place))
        ic_sched_copy(s, ic_reg(IC_BUF_SEND, lo, n), acc);
    return acc;
}

double ic_cost_reduce_mst(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    double k = (double)ic_reduce_pieces(a, a->count);
    return t.L * (k * t.a + t.n * (t.b + t.g));
}

double ic_cost_reduce_dcombine_gather(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return (t.L + t.p - 1) * t.a + t.f * t.n * (t.bring + t.b) + t.f * t.n * t.g;
}

static double halving_gather(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    double c = (t.F + t.L) * t.a + ic_halving_beta(&t) + t.f * t.n * (t.g + t.b);
    if (t.np2) /* the fold and the unfold */
        c += 2 * t.a + t.n * (t.b + t.g) + t.n / t.p * t.b;
    return c;
}

double ic_cost_reduce_halving_gather(const ic_coll_args_t *a, const ic_model_t *m)
{
    /* read in place: one piece (ic_plan_pieces) */
    size_t q = ic_rh_reads_input(a->size) ? 1 : ic_reduce_pieces(a, a->count), lo;
    if (q == 1)
        return halving_gather(a, m);
    double c = 0; /* the pieces one after the other (compose.c) */
    for (size_t j = 0; j < q; j++) {
        ic_coll_args_t b = *a;
        b.count = ic_reduce_piece(a->count, q, j, &lo);
        c += halving_gather(&b, m);
    }
    return c;
}

/* The pipeline's chain for the call a: its hops H, and whether it returns
 * to the root (which then only receives). */
static int pipeline_hops(const ic_coll_args_t *a, int *back)
{
    int H = ic_pipe_combine_hops(a->size, a->root, !a->commutative);
    *back = H == a->size;
    return H;
}

size_t ic_reduce_pipeline_seg(const ic_coll_args_t *a, size_t seg)
{
    if (!seg || seg > a->count)
        seg = a->count;
    /* positions other than the root that append their segments to the
     * partial (non-commutative, root not 0) hold two full ones
     * (pipe_combine.c) */
    int appends = !a->commutative && a->root != 0 && a->size >= 3;
    if (appends && ic_reduce_pieces(a, a->count) > 1 && seg > a->count / 2)
        seg = a->count / 2;
    return seg;
}

size_t ic_seg_reduce_pipeline(const ic_coll_args_t *a, const ic_model_t *md)
{
    int back, H = pipeline_hops(a, &back);
    double n = (double)a->count * (double)md->elem, k = 1;
    double x = n * ((H - 1) * md->beta + (H - 1 - back) * md->gamma);
    if (H > 1 && md->alpha > 0 && x > 0)
        k = floor(sqrt(x / md->alpha) + 0.5);
    return ic_seg_of_k(a, md, k);
}

double ic_cost_reduce_pipeline(const ic_coll_args_t *a, const ic_model_t *m)
{
    if (a->size <= 1 || a->count == 0)
        return 0;
    int back, H = pipeline_hops(a, &back);
    size_t seg = ic_reduce_pipeline_seg(a, a->seg);
    double k = (double)((a->count + seg - 1) / seg);
    double sb = (double)seg * (double)m->elem, f = ic_msg_factor(m, sb);
    /* written so that one segment on two ranks is bitwise the MST's
     * alpha + n (beta + gamma): equal plans then tie, and the first met
     * wins (f is exactly 1 without a measured message time) */
    return (H - 1 + k) * (m->alpha * f + sb * (m->beta * f + m->gamma)) - back * sb * m->gamma;
}

/* The binary tree's segment: two slots of it on an interior rank. */
static size_t reduce_tree_seg(const ic_coll_args_t *a)
{
    return ic_reduce_tree_seg(a, a->count, 2);
}

int ic_coll_reduce_binary_tree(ic_sched_t *s, const ic_coll_args_t *a)
{
    ic_line_t line = ic_coll_line(a);
    int parent, child[2];
    int nchild = ic_binary_tree(&line, ic_line_pos(&line, a->root), ic_line_pos(&line, a->rank),
                                &parent, child);
    size_t seg = reduce_tree_seg(a);
    size_t k = ic_nsegments(a->count, &seg);
    if (parent < 0) { /* the root: segments of partials combine into RECV */
        reduce_acc(s, a, 0, a->count);
        ic_sched_round(s);
        ic_region_t tmp = ic_reg(IC_BUF_SCRATCH2, 0, seg);
        if (k > 0 && nchild > 0)
            ic_sched_need(s, IC_BUF_SCRATCH2, seg);
        for (size_t t = 0; t < k; t++)
            for (int c = 0; c < nchild; c++) {
                ic_region_t part = ic_segment(ic_reg(IC_BUF_RECV, 0, a->count), seg, k, t);
                tmp.count = part.count;
                ic_sched_recv(s, child[c], tmp);
                ic_sched_reduce(s, tmp, part, 1);
                ic_sched_round(s);
            }
        return ic_sched_ok(s);
    }
    ic_region_t in = ic_reg(IC_BUF_SEND, 0, a->count); /* not in place: not the root */
    ic_sched_round(s);
    if (nchild == 0) { /* a leaf: its input is its partial */
        for (size_t t = 0; t < k; t++) {
            ic_sched_send(s, parent, ic_segment(in, seg, k, t));
            ic_sched_round(s);
        }
        return ic_sched_ok(s);
    }
    /* An interior position: segment t of its partial takes shape in slot
     * t % 2 of SCRATCH (the first child's segment arrives there and the
     * input's is combined in; the second child's arrives in the other slot,
     * free again once segment t - 1 has gone to the parent). */
    if (k > 0)
        ic_sched_need(s, IC_BUF_SCRATCH, (k > 1 || nchild > 1 ? 2 : 1) * seg);
    for (size_t t = 0; t <= k && k > 0; t++) {
        ic_region_t prev = ic_reg(IC_BUF_SCRATCH, (t + 1) % 2 * seg, 0);
        if (t > 0) {
            prev.count = ic_segment(in, seg, k, t - 1).count;
            ic_sched_send(s, parent, prev);
        }
        if (t == k) {
            ic_sched_round(s);
            break;
        }
        ic_region_t mine = ic_segment(in, seg, k, t);
        ic_region_t part = ic_reg(IC_BUF_SCRATCH, t % 2 * seg, mine.count);
        for (int c = 0; c < nchild; c++) {
            ic_region_t into = c ? ic_reg(prev.buf, prev.off, mine.count) : part;
            ic_sched_recv(s, child[c], into);
            ic_sched_reduce(s, c ? into : mine, part, 1);
            ic_sched_round(s);
        }
    }
    return ic_sched_ok(s);
}

double ic_cost_reduce_binary_tree(const ic_coll_args_t *a, const ic_model_t *m)
{
    if (a->size <= 1 || a->count == 0)
        return 0;
    size_t seg = reduce_tree_seg(a);
    double k = (double)((a->count + seg - 1) / seg);
    double sb = (double)seg * (double)m->elem;
    double S = ic_tree_steps(a->size, k);
    return S * (m->alpha + sb * m->beta) + S * sb * m->gamma;
}

/* "two_tree": the two-tree broadcast backwards (two_tree.c), each message
 * combined: the broadcast's form and segment rule with beta + gamma a
 * byte, a bound as the broadcast's (IC_ALG_COST_BOUND). */
size_t ic_seg_reduce_two_tree(const ic_coll_args_t *a, const ic_model_t *md)
{
    return ic_seg_two_tree(a, md, md->beta + md->gamma);
}

size_t ic_reduce_two_tree_seg(const ic_coll_args_t *a)
{
    /* at most a tree's half; four slots (two_tree.c) */
    return ic_reduce_tree_seg(a, a->count - a->count / 2, 4);
}

double ic_cost_reduce_two_tree(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_coll_args_t b = *a;
    b.seg = ic_reduce_two_tree_seg(a);
    return ic_cost_two_tree(&b, m, m->beta + m->gamma);
}

/* "circulant": the circulant-graph broadcast backwards (circulant.c), each
 * message combined: the broadcast's form and segment rule with beta +
 * gamma a byte, a bound as the broadcast's (IC_ALG_COST_BOUND). */
size_t ic_seg_reduce_circulant(const ic_coll_args_t *a, const ic_model_t *md)
{
    return ic_seg_circulant(a, md, md->beta + md->gamma);
}

double ic_cost_reduce_circulant(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_coll_args_t b = *a;
    b.seg = ic_reduce_circulant_seg(a);
    return ic_cost_circulant(&b, m, m->beta + m->gamma);
}

/* "knomial": the k-nomial tree's combine (knomial_bcast.c), for short
 * vectors where most of a message's start-up is in flight (LogGP's o <
 * alpha): a position's children send at once and their start-ups
 * overlap, as the k-nomial broadcast's sends do; the radix from the model
 * (ic_radix_reduce_knomial).  Commutative operations only (a partial
 * covers its subtree's positions relative to the root, which wrap around
 * the line).  Scratch: the partial and its children's arriving ones, the
 * root's the most ((k - 1) per level); under the call's allowance the
 * radix is lowered until they fit, and a vector for which even the
 * binomial tree's would not is refused (ic_knomial_reduce_room). */

/* The radix that runs: a->seg within 2 .. p, lowered until the partial
 * and the root's children's (the most of any position) fit the slots. */
static int knomial_radix(const ic_coll_args_t *a)
{
    int k = a->seg < 2 ? 2 : a->seg > (size_t)a->size ? a->size : (int)a->seg;
    size_t slots = ic_scratch_vectors(a->bounded_from, a->count);
    while (k > 2 && 1 + (size_t)ic_knomial_root_children(a->size, k) > slots)
        k--;
    return k;
}

const char *ic_knomial_reduce_room(size_t bounded_from, int n, size_t m)
{
    return ic_knomial_reduce_fits(bounded_from, n, m)
               ? NULL
               : "the k-nomial combine's arriving partials would not fit the scratch allowed";
}

int ic_coll_reduce_knomial(ic_sched_t *s, const ic_coll_args_t *a)
{
    ic_line_t line = ic_coll_line(a);
    int n = line.n, k = knomial_radix(a);
    int root = ic_line_pos(&line, a->root), me = ic_line_pos(&line, a->rank);
    long j = (me - root + n) % n;
    long *child = malloc((size_t)(n > 1 ? n : 1) * sizeof(long));
    if (!child)
        return -1;
    int nc = ic_knomial_children(n, k, j, child);
    long parent = ic_knomial_parent(n, k, j);
    ic_region_t acc = ic_reg(IC_BUF_SEND, 0, a->count);
    if (parent < 0 || nc > 0)
        acc = reduce_acc(s, a, 0, a->count);
    ic_sched_round(s);
    if (nc > 0) { /* every child's partial at once, each in a slot */
        ic_sched_need(s, IC_BUF_SCRATCH2, (size_t)nc * a->count);
        for (int c = 0; c < nc; c++)
            ic_sched_recv(s, ic_line_rank(&line, (int)((child[c] + root) % n)),
                          ic_reg(IC_BUF_SCRATCH2, (size_t)c * a->count, a->count));
        for (int c = 0; c < nc && a->count > 0; c++)
            ic_sched_reduce(s, ic_reg(IC_BUF_SCRATCH2, (size_t)c * a->count, a->count), acc, 0);
        ic_sched_round(s);
    }
    if (parent >= 0) {
        ic_sched_send(s, ic_line_rank(&line, (int)((parent + root) % n)), acc);
        ic_sched_round(s);
    }
    free(child);
    return ic_sched_ok(s);
}

static double knomial_reduce_cost(const ic_coll_args_t *a, const ic_model_t *m, int k)
{
    double bytes = (double)a->count * (double)m->elem, S, R;
    ic_split_hop(m, bytes, &S, &R);
    return ic_knomial_reduce_time(a->size, k, S, R, bytes * m->gamma);
}

double ic_cost_reduce_knomial(const ic_coll_args_t *a, const ic_model_t *m)
{
    return a->size <= 1 ? 0 : knomial_reduce_cost(a, m, knomial_radix(a));
}

struct knomial_call {
    const ic_coll_args_t *a;
    const ic_model_t *m;
};

/* The combine's time at the radix that runs for k (knomial_radix). */
static double reduce_price(int k, const void *ctx)
{
    const struct knomial_call *c = ctx;
    ic_coll_args_t b = *c->a;
    b.seg = (size_t)k;
    return knomial_reduce_cost(c->a, c->m, knomial_radix(&b));
}

size_t ic_radix_reduce_knomial(const ic_coll_args_t *a, const ic_model_t *m)
{
    struct knomial_call c = {a, m};
    ic_coll_args_t b = *a;
    b.seg = (size_t)ic_knomial_best_radix(a->size, reduce_price, &c);
    return (size_t)knomial_radix(&b);
}
