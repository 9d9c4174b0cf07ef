/*
 * compose.c -- the one composer: any plan's schedule (plan.h) from the
 * primitives, run along the lines of a logical mesh.  No builder per plan.
 * A 1-D plan is the mesh of one dimension (all ranks in rank order); only
 * the algorithms that cannot be mesh steps (scatter, gather, barrier, the
 * reduce's binary tree: ic_algorithm_t.build) have builders of their own.
 *
 * Memory: a first distributed combine reads the input where it is
 * (ic_bucket_dcombine_ro: a reduce, or a reduce_scatter whose plan order
 * is rank order), and so does a reduce's first pipelined chain
 * (ic_pipe_combine), a leaf of a first MST combine sends its input as it is,
 * and a long reduction runs in pieces (ic_plan_pieces) so that every
 * rank's scratch stays within the message.
 *
 * The mesh d0 x ... x d(k-1) is row-major: position pos has coordinate
 * c_i = (pos / w_i) % d_i with w_(k-1) = 1, w_i = w_(i+1) d_(i+1); the rank
 * at a position is a->order[pos] (node-aware placement) or pos itself.  The
 * line of dimension i through a rank is the d_i positions that differ from
 * it in c_i only, in increasing c_i, so a primitive's "position" on it is
 * c_i.
 *
 * Vector collectives (bcast, reduce, allreduce): steps run in plan order
 * ("down"), then the second halves of the shrinking steps in reverse order
 * ("up").  A shrinking step splits the rank's current region of the vector
 * evenly over the line (ic_blocks_even) and keeps block c_i; the others
 * keep the region.  Which lines of a dimension take part, by the
 * coordinates x of the other dimensions (R: must be the root's
 * coordinate, *: any):
 *
 *                       dims visited before          dims visited after
 *   bcast  down          *                            R
 *   bcast  up (collect)  *                            *
 *   reduce down          R after an MST step, else *  *
 *   reduce up (gather)   R after an MST step, else *  R
 *   allreduce down, up   0 after an MST step, else *  *
 * ("an MST step": one that combines to one position, the reduce's
 * pipelined chain and circulant trees too.)
 *
 * Example, broadcast from rank 0 on 2 x 3 with d1=scatter_collect,d0=mst,
 * 6 elements (ranks 0 1 2 / 3 4 5):
 *   down d1: row 0 scatters: 0 keeps [0,2), 1 gets [2,4), 2 gets [4,6)
 *   down d0: columns broadcast their block: 3 [0,2), 4 [2,4), 5 [4,6)
 *   up   d1: both rows collect: everyone [0,6)
 *
 * Block collectives (allgather(v), reduce_scatter(_block)) work in *plan
 * order*: position pos has index q = sum_t c_dim(t) v_t with v_0 = 1,
 * v_(t+1) = v_t d_dim(t), so the dimension visited first varies fastest.
 * After the collect steps 0..t-1 a rank holds the blocks of a run of
 * consecutive q; step t's line joins d such runs, again consecutive, so
 * each step is one primitive on a packed range.  Blocks are kept in RECV
 * when plan order is rank order and RECV is packed (possibly shifted),
 * otherwise in SCRATCH and copied to and from the user's layout.
 * reduce_scatter runs the steps in reverse order (the last visited splits
 * the whole vector first), mirroring allgather.
 */
#include "plan.h"
#include "coll_common.h"
#include "mst.h"

#include <stdlib.h>
#include <string.h>

typedef struct mesh {
    int k, p;
    int d[IC_PLAN_MAXDIMS]; /* length of each dimension */
    int w[IC_PLAN_MAXDIMS]; /* position stride of each dimension */
    const int *order;       /* position -> rank, NULL = identity */
    int me;                 /* my position */
    int c[IC_PLAN_MAXDIMS]; /* my coordinates */
    int *map;               /* line map (order != NULL), max d entries */
    size_t *cnt;            /* k x maxd block counts of the steps */
    size_t *off;            /* maxd block offsets (read-only inputs) */
    int maxd;
} mesh_t;

static int coord(const mesh_t *M, int pos, int i)
{
    return pos / M->w[i] % M->d[i];
}

static int rank_at(const mesh_t *M, int pos)
{
    return M->order ? M->order[pos] : pos;
}

static int pos_of(const mesh_t *M, int rank)
{
    if (!M->order)
        return rank;
    for (int pos = 0; pos < M->p; pos++)
        if (M->order[pos] == rank)
            return pos;
    return -1;
}

static void mesh_free(mesh_t *M)
{
    free(M->map);
    free(M->cnt);
    free(M->off);
    M->map = NULL;
    M->cnt = NULL;
    M->off = NULL;
}

static int mesh_init(mesh_t *M, const ic_plan_t *pl, const ic_coll_args_t *a)
{
    memset(M, 0, sizeof(*M));
    M->k = pl->ndims;
    M->p = a->size;
    M->order = a->order;
    M->maxd = 1;
    for (int i = M->k - 1, w = 1; i >= 0; i--) {
        M->d[i] = pl->dims[i];
        M->w[i] = w;
        w *= pl->dims[i];
        if (pl->dims[i] > M->maxd)
            M->maxd = pl->dims[i];
    }
    M->me = pos_of(M, a->rank);
    if (M->me < 0)
        return -1;
    for (int i = 0; i < M->k; i++)
        M->c[i] = coord(M, M->me, i);
    M->map = malloc(2 * (size_t)M->maxd * sizeof(int)); /* two lines at once */
    M->cnt = malloc((size_t)M->k * (size_t)M->maxd * sizeof(size_t));
    M->off = malloc((size_t)M->maxd * sizeof(size_t));
    if (!M->map || !M->cnt || !M->off) {
        mesh_free(M);
        return -1;
    }
    return 0;
}

/* The line of dimension i through my position (its map, under a
 * placement, in M->map's half `half`: two lines can be held at once). */
static ic_line_t mesh_line_in(const mesh_t *M, int i, int half)
{
    int first = M->me - M->c[i] * M->w[i];
    if (!M->order) {
        ic_line_t l = {M->d[i], first, M->w[i], NULL};
        return l;
    }
    int *map = M->map + (half ? M->maxd : 0);
    for (int j = 0; j < M->d[i]; j++)
        map[j] = M->order[first + j * M->w[i]];
    ic_line_t l = {M->d[i], 0, 0, map};
    return l;
}

static ic_line_t mesh_line(const mesh_t *M, int i)
{
    return mesh_line_in(M, i, 0);
}

static size_t *step_counts(const mesh_t *M, int t)
{
    return M->cnt + (size_t)t * (size_t)M->maxd;
}

/* ------------------------------------------------ vector collectives */

/* Does my line of step t take part?  ref: the reference coordinates (the
 * root's, or 0); before/after: for the dimensions visited before and
 * after step t, whether a rank's coordinate must equal ref's (1) or may
 * be anything (0); `before_mst` makes "before" apply only to the steps
 * that combine to one position (MST, the pipelined chain). */
static int my_line_active(const mesh_t *M, const ic_plan_t *pl, int t, const int *ref, int before,
                          int before_mst_only, int after)
{
    for (int u = 0; u < pl->ndims; u++) {
        if (u == t)
            continue;
        int x = pl->step[u].dim, fixed;
        if (u < t) {
            ic_step_kind_t k = ic_plan_step_kind(pl->step[u].alg);
            fixed = before &&
                    (!before_mst_only || k == IC_STEP_REDUCE_MST || k == IC_STEP_REDUCE_PIPELINE ||
                     k == IC_STEP_REDUCE_CIRCULANT || k == IC_STEP_ALLREDUCE_MST);
        } else {
            fixed = after;
        }
        if (fixed && M->c[x] != ref[x])
            return 0;
    }
    return 1;
}

/* My block of region r split evenly over a line (counts cnt) at position c. */
static ic_region_t my_block(ic_region_t r, const size_t *cnt, int c)
{
    return ic_reg(r.buf, r.off + ic_blocks_prefix(cnt, c), cnt[c]);
}

/* The steps of a vector collective on the region `whole` of every rank's
 * accumulator.  in != NULL: the first step is a distributed combine that
 * reads the input where it is (`in`, not written) instead of from the
 * accumulator. */
static void vector_steps(ic_sched_t *s, const ic_plan_t *pl, const ic_coll_args_t *a, mesh_t *M,
                         const int *ref, ic_region_t whole, const ic_region_t *in)
{
    ic_region_t R[IC_PLAN_MAXDIMS], cur = whole;
    ic_coll_t coll = a->coll;
    /* a broadcast's step fed by a stream (ic_plan_streams): its roots, the
     * ranks of the previous step's line, ran it already; the others use
     * the previous step's segment */
    int fed = 0, was_active = 0, fed_pos = 0, fed_n = 1;
    size_t fed_seg = 0;
    /* down */
    for (int t = 0; t < pl->ndims; t++) {
        const ic_plan_step_t *st = &pl->step[t];
        int dim = st->dim, d = M->d[dim];
        ic_step_kind_t kind = ic_plan_step_kind(st->alg);
        size_t *cnt = step_counts(M, t);
        ic_blocks_even(cnt, d, cur.count);
        R[t] = cur;
        int streams = !fed && ic_plan_streams(pl, coll, t, cur.count);
        /* the torus's two trees span both dimensions' planes at once */
        int trees = streams && kind == IC_STEP_BCAST_HALFWAY;
        int active = coll == IC_COLL_BCAST ? my_line_active(M, pl, t + trees, ref, 0, 0, 1)
                                           : my_line_active(M, pl, t, ref, 1, 1, 0);
        int ran = fed && was_active; /* my part of this step ran with the previous one's */
        if (active && d > 1 && !ran) {
            ic_line_t line = mesh_line(M, dim);
            int root = ref[dim];
            ic_region_t tmp =
                ic_reg(coll == IC_COLL_REDUCE ? IC_BUF_SCRATCH2 : IC_BUF_SCRATCH, 0, cur.count);
            switch (kind) {
            case IC_STEP_BCAST_SCATTER:
            case IC_STEP_BCAST_SCATTER2:
            case IC_STEP_BCAST_SCATTER_HALF:
            case IC_STEP_BCAST_SCATTER_RD:
                ic_mst_scatter(s, &line, root, cur.buf, cur.off, cnt);
                break;
            case IC_STEP_BCAST_MST:
                ic_mst_bcast(s, &line, root, cur);
                break;
            case IC_STEP_BCAST_PIPELINE:
                ic_pipe_bcast(s, &line, root, cur, st->param);
                break;
            case IC_STEP_BCAST_PIPELINE2:
                if (streams) {
                    ic_line_t next = mesh_line_in(M, pl->step[t + 1].dim, 1);
                    ic_pipe_bcast2_into(s, &line, root, &next, cur, st->param);
                } else if (fed) {
                    ic_pipe_bcast2_fed(s, &line, root, cur, fed_seg, fed_pos, fed_n);
                } else {
                    ic_pipe_bcast2(s, &line, root, cur, st->param);
                }
                break;
            case IC_STEP_BCAST_HALFWAY:
                if (trees) {
                    int dim2 = pl->step[t + 1].dim;
                    ic_line_t other = mesh_line_in(M, dim2, 1);
                    ic_bcast_torus_trees(s, &line, root, &other, ref[dim2], cur, st->param);
                } else {
                    ic_pipe_bcast_halfway(s, &line, root, cur, st->param);
                }
                break;
            case IC_STEP_BCAST_TREE:
                ic_tree_bcast(s, &line, root, cur, st->param);
                break;
            case IC_STEP_BCAST_TWOTREE:
                ic_two_tree_bcast(s, &line, root, cur, st->param);
                break;
            case IC_STEP_BCAST_CIRCULANT:
                ic_circulant_bcast(s, &line, root, cur, st->param);
                break;
            case IC_STEP_BCAST_KNOMIAL: /* the radix, within 2 .. d */
                ic_knomial_bcast(s, &line, root, cur,
                                 st->param < 2           ? 2
                                 : st->param > (size_t)d ? d
                                                         : (int)st->param);
                break;
            case IC_STEP_REDUCE_DCOMBINE:
            case IC_STEP_ALLREDUCE_DCOMBINE:
                if (t == 0 && in) {
                    for (int j = 0; j < d; j++)
                        M->off[j] = in->off + ic_blocks_prefix(cnt, j);
                    ic_bucket_dcombine_ro(s, &line, in->buf, M->off, cnt,
                                          my_block(cur, cnt, M->c[dim]), tmp.buf, 0);
                } else {
                    ic_bucket_dcombine(s, &line, cur.buf, cur.off, cnt, tmp.buf, 0);
                }
                break;
            case IC_STEP_ALLREDUCE_DCOMBINE2:
            case IC_STEP_ALLREDUCE_HALFWAY:
                ic_bucket_dcombine2(s, &line, cur.buf, cur.off, cnt, tmp.buf, 0,
                                    kind == IC_STEP_ALLREDUCE_HALFWAY);
                break;
            case IC_STEP_ALLREDUCE_RH:
            case IC_STEP_ALLREDUCE_RHRD:
            case IC_STEP_ALLREDUCE_SWING:
                ic_rh_dcombine(s, &line, cur.buf, cur.off, cnt, tmp.buf, 0,
                               kind == IC_STEP_ALLREDUCE_RHRD    ? IC_PAIRS_NEAR
                               : kind == IC_STEP_ALLREDUCE_SWING ? IC_PAIRS_SWING
                                                                 : IC_PAIRS_FAR);
                break;
            case IC_STEP_REDUCE_RH: /* far first: block j on position j, for the gather;
                                       a first one reads the input where it is */
                ic_rh_dcombine_ro(s, &line, t == 0 ? in : NULL, cur.buf, cur.off, cnt, tmp.buf, 0,
                                  0);
                break;
            case IC_STEP_ALLREDUCE_TREE:
            case IC_STEP_ALLREDUCE_CHAIN:
                ic_repeated_dcombine(s, &line, cur.buf, cur.off, cnt, tmp.buf, 0,
                                     kind == IC_STEP_ALLREDUCE_CHAIN, !a->commutative);
                break;
            case IC_STEP_ALLREDUCE_FANIN:
                ic_fanin_dcombine(s, &line, cur.buf, cur.off, cnt, tmp.buf, 0);
                break;
            case IC_STEP_ALLREDUCE_FANOUT:
                ic_fanout_dcombine(s, &line, cur.buf, cur.off, cnt, tmp.buf, 0);
                break;
            case IC_STEP_ALLREDUCE_RING: /* a first one reads the input where it is */
                ic_ring_allreduce(s, &line, cur, tmp, t == 0 ? in : NULL);
                break;
            case IC_STEP_REDUCE_MST:
            case IC_STEP_ALLREDUCE_MST: /* a first one reads the input where it is */
                ic_mst_combine_ro(s, &line, root, t == 0 ? in : NULL, cur, tmp);
                break;
            case IC_STEP_REDUCE_PIPELINE: { /* a first one reads the input where it is */
                /* a stream, as the broadcast's chain (the simulated modern
                 * cluster's 64 nodes, 1 MiB: 566 -> 435 us as a dataflow) */
                size_t from = s->nacts;
                ic_pipe_combine(s, &line, root, t == 0 ? in : NULL, cur, tmp.buf, 0,
                                pl->ndims == 1 ? ic_reduce_pipeline_seg(a, st->param) : st->param,
                                !a->commutative);
                ic_sched_stream(s, from);
                break;
            }
            case IC_STEP_REDUCE_CIRCULANT: { /* a first one reads the input where it is */
                int bounded = ic_reduce_pieces(a, a->count) > 1;
                ic_circulant_reduce(s, &line, root, t == 0 ? in : NULL, cur, tmp.buf, 0,
                                    ic_circulant_reduce_block(cur.count, st->param, d, bounded),
                                    bounded);
                break;
            }
            case IC_STEP_ALLREDUCE_RD:
                ic_rd_allreduce(s, &line, cur, tmp);
                break;
            case IC_STEP_ALLREDUCE_ONESHOT: /* where it fits (ic_plan_usable) */
                ic_fanout_allreduce(s, &line, cur, tmp);
                break;
            default:
                break;
            }
        }
        if (ic_plan_step_shrinks(kind))
            cur = my_block(cur, cnt, ic_plan_step_block(kind, d, M->c[dim]));
        fed = streams;
        fed_seg = st->param;
        fed_n = d;
        fed_pos = (M->c[dim] - ref[dim] + d) % d; /* my column's root on this line */
        was_active = active;
    }
    /* up: the second halves of the shrinking steps, and the allreduce's
     * broadcasts after its combines */
    for (int t = pl->ndims - 1; t >= 0; t--) {
        const ic_plan_step_t *st = &pl->step[t];
        int dim = st->dim, d = M->d[dim];
        ic_step_kind_t kind = ic_plan_step_kind(st->alg);
        int up = ic_plan_step_shrinks(kind) || kind == IC_STEP_ALLREDUCE_MST;
        if (!up || d <= 1)
            continue;
        int active = coll == IC_COLL_BCAST    ? 1
                     : coll == IC_COLL_REDUCE ? my_line_active(M, pl, t, ref, 1, 1, 1)
                                              : my_line_active(M, pl, t, ref, 1, 1, 0);
        if (!active)
            continue;
        ic_line_t line = mesh_line(M, dim);
        size_t *cnt = step_counts(M, t);
        switch (kind) {
        case IC_STEP_BCAST_SCATTER:
        case IC_STEP_ALLREDUCE_DCOMBINE:
            ic_bucket_collect(s, &line, R[t].buf, R[t].off, cnt);
            break;
        case IC_STEP_BCAST_SCATTER2:
        case IC_STEP_ALLREDUCE_DCOMBINE2:
        case IC_STEP_BCAST_SCATTER_HALF:
        case IC_STEP_ALLREDUCE_HALFWAY:
            ic_bucket_collect2(s, &line, R[t].buf, R[t].off, cnt,
                               kind == IC_STEP_BCAST_SCATTER_HALF ||
                                   kind == IC_STEP_ALLREDUCE_HALFWAY);
            break;
        case IC_STEP_ALLREDUCE_RH:
            ic_bruck_collect(s, &line, R[t].buf, R[t].off, cnt, NULL, IC_BUF_SCRATCH, 0);
            break;
        case IC_STEP_ALLREDUCE_RHRD:
            ic_rd_collect(s, &line, R[t].buf, R[t].off, cnt, IC_PAIRS_NEAR);
            break;
        case IC_STEP_ALLREDUCE_SWING:
            ic_rd_collect(s, &line, R[t].buf, R[t].off, cnt, IC_PAIRS_SWING);
            break;
        case IC_STEP_BCAST_SCATTER_RD: /* the MST scatter's natural layout */
            ic_rd_collect(s, &line, R[t].buf, R[t].off, cnt, 0);
            break;
        case IC_STEP_ALLREDUCE_TREE:
        case IC_STEP_ALLREDUCE_CHAIN:
            ic_repeated_collect(s, &line, R[t].buf, R[t].off, cnt, kind == IC_STEP_ALLREDUCE_CHAIN);
            break;
        case IC_STEP_ALLREDUCE_FANIN:
            ic_fanin_collect(s, &line, R[t].buf, R[t].off, cnt);
            break;
        case IC_STEP_ALLREDUCE_FANOUT:
            ic_fanout_collect(s, &line, R[t].buf, R[t].off, cnt);
            break;
        case IC_STEP_REDUCE_DCOMBINE:
        case IC_STEP_REDUCE_RH:
            ic_mst_gather(s, &line, ref[dim], R[t].buf, R[t].off, cnt);
            break;
        case IC_STEP_ALLREDUCE_MST:
            ic_mst_bcast(s, &line, 0, R[t]);
            break;
        default:
            break;
        }
    }
    ic_sched_round(s);
}

/* The positions [*lo, *hi) of a line of n whose blocks position me holds
 * before it sends them on in an MST gather to root (its subtree; all
 * positions at the root). */
static void gather_range(int n, int root, int me, int *lo, int *hi)
{
    ic_mst_step_t st[IC_MST_MAXSTEPS];
    int k = ic_mst_steps(n, root, me, st);
    *lo = 0;
    *hi = n;
    for (int i = 0; i < k; i++)
        if (st[i].role == IC_MST_RECV) {
            *lo = st[i].sub_lo;
            *hi = st[i].sub_hi;
        }
}

/*
 * The accumulator of a reduce on a rank other than the root, for a piece
 * of len elements whose input is `in`; *ro is set when the first step reads
 * the input where it is.  Its RECV is not significant, so it works in
 * SCRATCH, and holds no more than it must:
 *   - a leaf of a first MST step sends its input as it is (and takes no
 *     part in later steps: their lines hold the root's coordinate there),
 *     and a position that receives in it reads its input where it is,
 *     combining into an area of its own (ic_mst_combine_ro);
 *   - a first pipelined chain reads the input where it is, so only the
 *     root of its line (which goes on to the later steps) needs an area,
 *     for the line's result;
 *   - under a first distributed combine (read-only: no copy of the input)
 *     it keeps its own block, or, when its line gathers in the first
 *     step's second half, the blocks of its subtree of that gather: the
 *     area starts at the subtree's first block, so the region's offset
 *     wraps below zero and every block of the subtree lands inside it; a
 *     first recursive halving on a line of a power of two (read-only too)
 *     keeps the half of the vector its first exchange leaves it, which
 *     holds its subtree's blocks;
 *   - otherwise a copy of its input.
 */
static ic_region_t reduce_acc(ic_sched_t *s, const ic_plan_t *pl, const mesh_t *M, const int *ref,
                              ic_region_t in, int *ro)
{
    const ic_plan_step_t *first = &pl->step[0];
    int dim = first->dim, d = M->d[dim];
    ic_step_kind_t kind = ic_plan_step_kind(first->alg);
    size_t len = in.count;
    *ro = 0;
    if (d > 1 && kind == IC_STEP_REDUCE_MST) {
        /* a leaf sends its input; a position that receives combines into
         * room of its own, reading its input where it is */
        ic_mst_step_t st[IC_MST_MAXSTEPS];
        if (!ic_mst_receives(st, ic_mst_steps(d, ref[dim], M->c[dim], st)))
            return in;
        *ro = 1;
        ic_sched_need(s, IC_BUF_SCRATCH, len);
        return ic_reg(IC_BUF_SCRATCH, 0, len);
    }
    if (d > 1 && (kind == IC_STEP_REDUCE_PIPELINE || kind == IC_STEP_REDUCE_CIRCULANT)) {
        /* the chain (the circulant graph's trees) reads the input where it
         * is; only the line's root needs room for the result, which later
         * steps work on */
        *ro = 1;
        if (M->c[dim] != ref[dim])
            return in;
        ic_sched_need(s, IC_BUF_SCRATCH, len);
        return ic_reg(IC_BUF_SCRATCH, 0, len);
    }
    if (d > 1 &&
        (kind == IC_STEP_REDUCE_DCOMBINE || (kind == IC_STEP_REDUCE_RH && ic_rh_reads_input(d)))) {
        size_t *cnt = step_counts(M, 0);
        ic_blocks_even(cnt, d, len);
        int lo = M->c[dim], hi = lo + 1;
        if (my_line_active(M, pl, 0, ref, 1, 1, 1))
            gather_range(d, ref[dim], M->c[dim], &lo, &hi);
        if (kind == IC_STEP_REDUCE_RH) { /* and the half its first halving keeps */
            int h0 = M->c[dim] < d / 2 ? 0 : d / 2;
            lo = lo < h0 ? lo : h0;
            hi = hi > h0 + d / 2 ? hi : h0 + d / 2;
        }
        size_t from = ic_blocks_prefix(cnt, lo), to = ic_blocks_prefix(cnt, hi);
        *ro = 1;
        if (to > from)
            ic_sched_need(s, IC_BUF_SCRATCH, to - from);
        return ic_reg(IC_BUF_SCRATCH, (size_t)0 - from, len);
    }
    ic_sched_need(s, IC_BUF_SCRATCH, len);
    ic_region_t acc = ic_reg(IC_BUF_SCRATCH, 0, len);
    if (len > 0)
        ic_sched_copy(s, in, acc);
    return acc;
}

static int vector_plan(ic_sched_t *s, const ic_plan_t *pl, const ic_coll_args_t *a, mesh_t *M)
{
    size_t n = a->count;
    int ref[IC_PLAN_MAXDIMS] = {0};
    if (a->coll != IC_COLL_ALLREDUCE) {
        int rp = pos_of(M, a->root);
        if (rp < 0)
            return -1;
        for (int i = 0; i < M->k; i++)
            ref[i] = coord(M, rp, i);
    }
    /* An empty vector moves nothing on a mesh; a line keeps the empty
     * messages its closed forms count. */
    if (n == 0 && M->k > 1)
        return 0;
    /* A reduce keeps, on a non-root, its accumulator and a buffer for
     * partials: from a->bounded_from elements on it runs on two or three
     * pieces of the vector in turn, so that its scratch stays within the
     * message (ic_plan_pieces; not a 1-D distributed combine + gather,
     * whose positions other than the root hold at most half the vector
     * and two blocks). */
    size_t pieces = ic_plan_pieces(pl, a);
    int root = a->rank == a->root;
    for (size_t j = 0; j < pieces; j++) {
        size_t lo = 0, len = pieces > 1 ? ic_reduce_piece(n, pieces, j, &lo) : n;
        ic_region_t acc = ic_reg(IC_BUF_RECV, lo, len), input = ic_reg(IC_BUF_SEND, lo, len);
        int ro = 0;
        if (a->coll == IC_COLL_REDUCE && !root) {
            acc = reduce_acc(s, pl, M, ref, input, &ro);
        } else if (a->coll != IC_COLL_BCAST) {
            int in_place = a->in_place && (a->coll == IC_COLL_ALLREDUCE || root);
            if (in_place)
                input = acc;
            /* the root of a reduce whose first step is a distributed
             * combine reads its input where it is, too, and so does one
             * whose first step is a pipelined chain or an MST combine (a
             * reduce's or an allreduce's), or an allreduce's distributed
             * combine (its collect then fills the rest of the
             * accumulator), unless in place (its input is then its
             * accumulator, which the step may write) */
            ic_step_kind_t k0 = ic_plan_step_kind(pl->step[0].alg);
            ro = M->d[pl->step[0].dim] > 1 &&
                 ((a->coll == IC_COLL_REDUCE &&
                   (k0 == IC_STEP_REDUCE_DCOMBINE ||
                    ((k0 == IC_STEP_REDUCE_PIPELINE || k0 == IC_STEP_REDUCE_CIRCULANT ||
                      (k0 == IC_STEP_REDUCE_RH && ic_rh_reads_input(M->d[pl->step[0].dim]))) &&
                     !in_place))) ||
                  ((k0 == IC_STEP_ALLREDUCE_RING || k0 == IC_STEP_REDUCE_MST ||
                    k0 == IC_STEP_ALLREDUCE_MST || k0 == IC_STEP_ALLREDUCE_DCOMBINE) &&
                   !in_place));
            if (!in_place && !ro && len > 0)
                ic_sched_copy(s, input, acc);
        }
        if (a->coll != IC_COLL_BCAST)
            ic_sched_round(s);
        vector_steps(s, pl, a, M, ref, acc, ro ? &input : NULL);
    }
    return 0;
}

/* ------------------------------------------------- block collectives */

typedef struct qlayout {
    const size_t *cnt; /* p: block count of rank r (a->counts, or a piece's) */
    int *rank_of_q;    /* p */
    size_t *poff;      /* p + 1: offset of block q in plan order */
    size_t *uoff;      /* p: user offset of rank r's block */
    int identity;      /* plan order is rank order */
    int myq;
    size_t v[IC_PLAN_MAXDIMS]; /* run length (in blocks) of step t */
} qlayout_t;

static void qlayout_free(qlayout_t *Q)
{
    free(Q->rank_of_q);
    free(Q->poff);
    free(Q->uoff);
}

static int qlayout_init(qlayout_t *Q, const ic_plan_t *pl, const ic_coll_args_t *a, const mesh_t *M)
{
    int p = a->size;
    Q->cnt = a->counts;
    Q->rank_of_q = malloc((size_t)p * sizeof(int));
    Q->poff = malloc(((size_t)p + 1) * sizeof(size_t));
    Q->uoff = malloc((size_t)p * sizeof(size_t));
    if (!Q->rank_of_q || !Q->poff || !Q->uoff) {
        qlayout_free(Q);
        return -1;
    }
    size_t v = 1;
    for (int t = 0; t < pl->ndims; t++) {
        Q->v[t] = v;
        v *= (size_t)M->d[pl->step[t].dim];
    }
    /* slot[t][c]: where step t's line keeps position c's run */
    size_t nslot = 0;
    for (int t = 0; t < pl->ndims; t++)
        nslot += (size_t)M->d[pl->step[t].dim];
    int *slot = malloc(nslot * sizeof(int)), *st[IC_PLAN_MAXDIMS];
    int bad = !slot;
    for (int t = 0, *at = slot; !bad && t < pl->ndims; at += M->d[pl->step[t].dim], t++) {
        st[t] = at;
        bad =
            ic_plan_step_blocks(ic_plan_step_kind(pl->step[t].alg), M->d[pl->step[t].dim], at) != 0;
    }
    if (bad) {
        free(slot);
        qlayout_free(Q);
        return -1;
    }
    Q->identity = 1;
    for (int pos = 0; pos < p; pos++) {
        size_t q = 0;
        for (int t = 0; t < pl->ndims; t++)
            q += (size_t)st[t][coord(M, pos, pl->step[t].dim)] * Q->v[t];
        Q->rank_of_q[q] = rank_at(M, pos);
        if (pos == M->me)
            Q->myq = (int)q;
    }
    free(slot);
    size_t sum = 0;
    for (int q = 0; q < p; q++) {
        Q->poff[q] = sum;
        sum += a->counts[Q->rank_of_q[q]];
        if (Q->rank_of_q[q] != q)
            Q->identity = 0;
    }
    Q->poff[p] = sum;
    sum = 0;
    for (int r = 0; r < p; r++) {
        Q->uoff[r] = a->displs ? a->displs[r] : sum;
        sum += a->counts[r];
    }
    return 0;
}

/* Copy every non-empty block but `skip` between plan order (pbuf, pbase +
 * poff[q]) and the user layout (ubuf, uoff[rank]); to_user picks the
 * direction.  Runs adjacent on both sides go as one COPY. */
static void qcopy(ic_sched_t *s, const qlayout_t *Q, const ic_coll_args_t *a, ic_buf_t pbuf,
                  size_t pbase, ic_buf_t ubuf, int to_user, int skip)
{
    size_t rp = 0, ru = 0, len = 0;
    for (int q = 0; q < a->size; q++) {
        int r = Q->rank_of_q[q];
        size_t n = Q->cnt[r];
        if (n == 0 || r == skip)
            continue;
        size_t fp = pbase + Q->poff[q], fu = Q->uoff[r];
        if (len > 0 && fp == rp + len && fu == ru + len) {
            len += n;
            continue;
        }
        if (len > 0)
            ic_sched_copy(s, to_user ? ic_reg(pbuf, rp, len) : ic_reg(ubuf, ru, len),
                          to_user ? ic_reg(ubuf, ru, len) : ic_reg(pbuf, rp, len));
        rp = fp;
        ru = fu;
        len = n;
    }
    if (len > 0)
        ic_sched_copy(s, to_user ? ic_reg(pbuf, rp, len) : ic_reg(ubuf, ru, len),
                      to_user ? ic_reg(ubuf, ru, len) : ic_reg(pbuf, rp, len));
}

/* The block counts of my line at step t (runs of Q->v[t] blocks) into
 * lcnt; returns the plan-order index of the line's first block. */
static size_t line_runs(const ic_plan_t *pl, const mesh_t *M, const qlayout_t *Q, int t,
                        size_t *lcnt)
{
    size_t qb = 0;
    for (int u = t + 1; u < pl->ndims; u++) {
        int dim = pl->step[u].dim;
        qb += (size_t)ic_plan_step_block(ic_plan_step_kind(pl->step[u].alg), M->d[dim], M->c[dim]) *
              Q->v[u];
    }
    int d = M->d[pl->step[t].dim];
    for (int j = 0; j < d; j++)
        lcnt[j] = Q->poff[qb + (size_t)(j + 1) * Q->v[t]] - Q->poff[qb + (size_t)j * Q->v[t]];
    return qb;
}

static int allgather_plan(ic_sched_t *s, const ic_plan_t *pl, const ic_coll_args_t *a, mesh_t *M)
{
    qlayout_t Q;
    if (qlayout_init(&Q, pl, a, M) != 0)
        return -1;
    size_t total = Q.poff[a->size], wbase = 0;
    int direct = Q.identity, have = 0;
    for (int r = 0; r < a->size && direct; r++) {
        if (a->counts[r] == 0)
            continue;
        if (!have) {
            direct = Q.uoff[r] >= Q.poff[r];
            wbase = direct ? Q.uoff[r] - Q.poff[r] : 0;
            have = 1;
        } else if (Q.uoff[r] != wbase + Q.poff[r]) {
            direct = 0;
        }
    }
    if (!direct)
        wbase = 0;
    size_t mine = a->counts[a->rank], at = wbase + Q.poff[Q.myq];
    if (!direct && M->k == 1 && ic_plan_step_kind(pl->step[0].alg) == IC_STEP_COLLECT_BRUCK) {
        /* On one line Bruck works on its own rotated copy anyway: it reads
         * the own block from, and writes the others to, their places in
         * RECV, whatever the layout (positions are ranks here). */
        if (!a->in_place && (a->sendcount > 0 || mine > 0))
            ic_sched_copy(s, ic_reg(IC_BUF_SEND, 0, a->sendcount),
                          ic_reg(IC_BUF_RECV, Q.uoff[a->rank], mine));
        ic_sched_round(s);
        if (total > 0) {
            ic_line_t line = mesh_line(M, 0);
            ic_bruck_collect(s, &line, IC_BUF_RECV, 0, a->counts, Q.uoff, IC_BUF_SCRATCH, 0);
        }
        ic_sched_round(s);
        qlayout_free(&Q);
        return 0;
    }
    ic_buf_t w = direct ? IC_BUF_RECV : IC_BUF_SCRATCH;
    if (!direct)
        ic_sched_need(s, IC_BUF_SCRATCH, total);
    if (a->in_place) {
        if (mine > 0 && !direct)
            ic_sched_copy(s, ic_reg(IC_BUF_RECV, Q.uoff[a->rank], mine), ic_reg(w, at, mine));
    } else if (a->sendcount > 0 || mine > 0) {
        ic_sched_copy(s, ic_reg(IC_BUF_SEND, 0, a->sendcount), ic_reg(w, at, mine));
    }
    ic_sched_round(s);
    for (int t = 0; t < pl->ndims && total > 0; t++) {
        int dim = pl->step[t].dim;
        if (M->d[dim] <= 1)
            continue;
        size_t *lcnt = step_counts(M, t);
        size_t qb = line_runs(pl, M, &Q, t, lcnt);
        size_t base = wbase + Q.poff[qb];
        ic_line_t line = mesh_line(M, dim);
        switch (ic_plan_step_kind(pl->step[t].alg)) {
        case IC_STEP_COLLECT_BUCKET:
            ic_bucket_collect(s, &line, w, base, lcnt);
            break;
        case IC_STEP_COLLECT_BUCKET2:
        case IC_STEP_COLLECT_HALFWAY:
            ic_bucket_collect2(s, &line, w, base, lcnt,
                               ic_plan_step_kind(pl->step[t].alg) == IC_STEP_COLLECT_HALFWAY);
            break;
        case IC_STEP_COLLECT_BRUCK:
            ic_bruck_collect(s, &line, w, base, lcnt, NULL, IC_BUF_SCRATCH2, 0);
            break;
        case IC_STEP_COLLECT_GB:
            ic_mst_gather(s, &line, 0, w, base, lcnt);
            ic_mst_bcast(s, &line, 0, ic_reg(w, base, ic_blocks_total(lcnt, M->d[dim])));
            break;
        case IC_STEP_COLLECT_FANOUT:
            ic_fanout_collect(s, &line, w, base, lcnt);
            break;
        case IC_STEP_COLLECT_FANIN:
            ic_fanin_collect(s, &line, w, base, lcnt);
            break;
        case IC_STEP_COLLECT_RD: /* from the layout of the near-first halving */
            ic_rd_collect(s, &line, w, base, lcnt, IC_PAIRS_NEAR);
            break;
        case IC_STEP_COLLECT_SWING: /* ... of Swing's halving */
            ic_rd_collect(s, &line, w, base, lcnt, IC_PAIRS_SWING);
            break;
        case IC_STEP_COLLECT_TREE:
        case IC_STEP_COLLECT_CHAIN:
            ic_repeated_collect(s, &line, w, base, lcnt,
                                ic_plan_step_kind(pl->step[t].alg) == IC_STEP_COLLECT_CHAIN);
            break;
        default:
            break;
        }
    }
    ic_sched_round(s);
    if (!direct)
        qcopy(s, &Q, a, IC_BUF_SCRATCH, 0, IC_BUF_RECV, 1, a->in_place ? a->rank : -1);
    ic_sched_round(s);
    qlayout_free(&Q);
    return 0;
}

/* Piece j of q of a reduce_scatter's vector of `total` elements: the part
 * of every rank's block it covers, pc[r] elements from start[r] within the
 * block.  Slices of every block (a scaled copy of the whole call, so its
 * steps move as evenly as the whole vector's; the slices' remainders go
 * round-robin over the pieces, keeping them within one element of each
 * other), or with `ranges` the range j of the rank-packed vector. */
static void rs_piece(const ic_coll_args_t *a, size_t total, size_t q, size_t j, int ranges,
                     size_t *pc, size_t *start)
{
    size_t lo, len = ic_reduce_piece(total, q, j, &lo), rr = 0, off = 0;
    for (int r = 0; r < a->size; off += a->counts[r], r++) {
        size_t c = a->counts[r], b0, b1;
        if (ranges) {
            b0 = off > lo ? off : lo;
            b1 = off + c < lo + len ? off + c : lo + len;
            b1 = b1 > b0 ? b1 - off : 0;
            b0 = b1 ? b0 - off : 0;
        } else {
            size_t base = c / q, rem = c % q;
            b0 = j * base;
            for (size_t e = 0; e < j; e++)
                b0 += (e + q - rr) % q < rem;
            b1 = b0 + base + ((j + q - rr) % q < rem);
            rr = (rr + rem) % q;
        }
        start[r] = b0;
        pc[r] = b1 - b0;
    }
}

/* The steps t0, t0 - 1, ..., 0 of a reduce_scatter on the plan-order
 * blocks in SCRATCH (block q at sbase + poff[q]); partials in SCRATCH2. */
static void rs_steps(ic_sched_t *s, const ic_plan_t *pl, mesh_t *M, const qlayout_t *Q, int t0,
                     size_t sbase, int keep_order)
{
    for (int t = t0; t >= 0; t--) {
        int dim = pl->step[t].dim, d = M->d[dim];
        if (d <= 1)
            continue;
        size_t *lcnt = step_counts(M, t);
        size_t base = sbase + Q->poff[line_runs(pl, M, Q, t, lcnt)];
        size_t tl = ic_blocks_total(lcnt, d);
        ic_line_t line = mesh_line(M, dim);
        switch (ic_plan_step_kind(pl->step[t].alg)) {
        case IC_STEP_RS_BUCKET:
            ic_bucket_dcombine(s, &line, IC_BUF_SCRATCH, base, lcnt, IC_BUF_SCRATCH2, 0);
            break;
        case IC_STEP_RS_BUCKET2:
        case IC_STEP_RS_HALFWAY:
            ic_bucket_dcombine2(s, &line, IC_BUF_SCRATCH, base, lcnt, IC_BUF_SCRATCH2, 0,
                                ic_plan_step_kind(pl->step[t].alg) == IC_STEP_RS_HALFWAY);
            break;
        case IC_STEP_RS_RH:
            ic_rh_dcombine(s, &line, IC_BUF_SCRATCH, base, lcnt, IC_BUF_SCRATCH2, 0, IC_PAIRS_NEAR);
            break;
        case IC_STEP_RS_SWING:
            ic_rh_dcombine(s, &line, IC_BUF_SCRATCH, base, lcnt, IC_BUF_SCRATCH2, 0,
                           IC_PAIRS_SWING);
            break;
        case IC_STEP_RS_MST:
            ic_mst_combine(s, &line, 0, ic_reg(IC_BUF_SCRATCH, base, tl),
                           ic_reg(IC_BUF_SCRATCH2, 0, tl));
            ic_mst_scatter(s, &line, 0, IC_BUF_SCRATCH, base, lcnt);
            break;
        case IC_STEP_RS_TREE:
        case IC_STEP_RS_CHAIN:
            ic_repeated_dcombine(s, &line, IC_BUF_SCRATCH, base, lcnt, IC_BUF_SCRATCH2, 0,
                                 ic_plan_step_kind(pl->step[t].alg) == IC_STEP_RS_CHAIN,
                                 keep_order);
            break;
        case IC_STEP_RS_FANIN:
            ic_fanin_dcombine(s, &line, IC_BUF_SCRATCH, base, lcnt, IC_BUF_SCRATCH2, 0);
            break;
        case IC_STEP_RS_FANOUT:
            ic_fanout_dcombine(s, &line, IC_BUF_SCRATCH, base, lcnt, IC_BUF_SCRATCH2, 0);
            break;
        default:
            break;
        }
    }
    ic_sched_round(s);
}

/* The whole vector (or a piece: Q's counts) from `in` into SCRATCH in plan
 * order, every step, and the own finished block to RECV at `at`. */
static void rs_copied(ic_sched_t *s, const ic_plan_t *pl, const ic_coll_args_t *a, mesh_t *M,
                      const qlayout_t *Q, ic_buf_t in, size_t at)
{
    size_t total = Q->poff[a->size], mine = Q->cnt[a->rank];
    if (total == 0)
        return;
    ic_sched_need(s, IC_BUF_SCRATCH, total);
    qcopy(s, Q, a, IC_BUF_SCRATCH, 0, in, 0, -1);
    ic_sched_round(s);
    rs_steps(s, pl, M, Q, pl->ndims - 1, 0, !a->commutative);
    if (mine > 0)
        ic_sched_copy(s, ic_reg(IC_BUF_SCRATCH, Q->poff[Q->myq], mine),
                      ic_reg(IC_BUF_RECV, at, mine));
    ic_sched_round(s);
}

/* The first step a bucket distributed combine, on one ring or two, that
 * reads the input where it is (ic_plan_rs_reads_input: it runs along the
 * slowest dimension, so its blocks are runs of consecutive ranks' blocks),
 * so no copy of the vector: on one line it leaves the own block in RECV;
 * on a mesh, the combined run of my position in SCRATCH (from the run's
 * first block: offsets wrap below zero; copied there into plan order when
 * that is not rank order), where the other steps finish it. */
static void rs_read_only(ic_sched_t *s, const ic_plan_t *pl, const ic_coll_args_t *a, mesh_t *M,
                         const qlayout_t *Q, ic_buf_t in)
{
    int t = pl->ndims - 1, dim = pl->step[t].dim, d = M->d[dim];
    size_t *lcnt = step_counts(M, t), mine = Q->cnt[a->rank];
    line_runs(pl, M, Q, t, lcnt);
    for (int j = 0; j < d; j++)
        M->off[j] = Q->poff[(size_t)j * Q->v[t]];
    size_t run = M->off[M->c[dim]], sbase = (size_t)0 - run, len = lcnt[M->c[dim]];
    ic_region_t out = ic_reg(IC_BUF_RECV, 0, mine);
    if (pl->ndims > 1) { /* my run's blocks in rank order; the later steps
                            want plan order: a copy after the run when
                            they differ */
        out = ic_reg(IC_BUF_SCRATCH, Q->identity ? 0 : len, len);
        ic_sched_need(s, IC_BUF_SCRATCH, out.off + len);
    }
    ic_line_t line = mesh_line(M, dim);
    ic_step_kind_t kind = ic_plan_step_kind(pl->step[t].alg);
    if (kind == IC_STEP_RS_BUCKET)
        ic_bucket_dcombine_ro(s, &line, in, M->off, lcnt, out, IC_BUF_SCRATCH2, 0);
    else /* the two rings, ic_plan_rs_reads_input */
        ic_bucket_dcombine2_ro(s, &line, in, M->off, lcnt, out, IC_BUF_SCRATCH2, 0,
                               kind == IC_STEP_RS_HALFWAY);
    ic_sched_round(s);
    if (pl->ndims == 1)
        return;
    if (!Q->identity) {
        int v = (int)Q->v[t], c = M->c[dim];
        size_t first = Q->uoff[c * v]; /* identity placement: ranks c v .. */
        for (int q = c * v; q < (c + 1) * v; q++) {
            int r = Q->rank_of_q[q];
            if (Q->cnt[r] > 0)
                ic_sched_copy(s, ic_reg(IC_BUF_SCRATCH, len + Q->uoff[r] - first, Q->cnt[r]),
                              ic_reg(IC_BUF_SCRATCH, sbase + Q->poff[q], Q->cnt[r]));
        }
        ic_sched_round(s);
    }
    rs_steps(s, pl, M, Q, t - 1, sbase, !a->commutative);
    if (mine > 0)
        ic_sched_copy(s, ic_reg(IC_BUF_SCRATCH, sbase + Q->poff[Q->myq], mine),
                      ic_reg(IC_BUF_RECV, 0, mine));
    ic_sched_round(s);
}

static int reduce_scatter_plan(ic_sched_t *s, const ic_plan_t *pl, const ic_coll_args_t *a,
                               mesh_t *M)
{
    qlayout_t Q, P;
    if (qlayout_init(&Q, pl, a, M) != 0)
        return -1;
    ic_buf_t in = a->in_place ? IC_BUF_RECV : IC_BUF_SEND;
    size_t total = Q.poff[a->size], q = ic_plan_pieces(pl, a);
    int rc = 0;
    if (total > 0 && ic_plan_rs_reads_input(pl, a)) {
        rs_read_only(s, pl, a, M, &Q, in);
    } else if (q == 1) {
        rs_copied(s, pl, a, M, &Q, in, 0);
    } else {
        /* Pieces (ic_plan_pieces), slices of every block.  In place, the
         * own result slice j lands in RECV over the start of block 0's
         * input, which is block 0's slice j or an earlier one when all
         * blocks are alike (block 0 takes the first remainders, so its
         * slices end last), already copied to SCRATCH.  With uneven blocks
         * in place it could be a later slice's; there piece j is a range of
         * the packed vector instead, whose result slice lands over input of
         * that piece or an earlier one (the own block's offset is never
         * below its slice's). */
        int ranges = 0;
        for (int r = 1; a->in_place && r < a->size; r++)
            ranges |= a->counts[r] != a->counts[0];
        size_t p = (size_t)a->size;
        size_t *pc = malloc(2 * p * sizeof(size_t)), *start = pc ? pc + p : NULL;
        P = Q;
        P.poff = malloc((p + 1) * sizeof(size_t));
        P.uoff = malloc(p * sizeof(size_t));
        if (!pc || !P.poff || !P.uoff) {
            rc = -1;
        } else {
            P.cnt = pc;
            for (size_t j = 0; j < q; j++) {
                rs_piece(a, total, q, j, ranges, pc, start);
                P.poff[0] = 0;
                for (size_t x = 0; x < p; x++)
                    P.poff[x + 1] = P.poff[x] + pc[Q.rank_of_q[x]];
                for (size_t r = 0; r < p; r++)
                    P.uoff[r] = Q.uoff[r] + start[r];
                rs_copied(s, pl, a, M, &P, in, start[a->rank]);
            }
        }
        free(pc);
        free(P.poff);
        free(P.uoff);
    }
    qlayout_free(&Q);
    return rc;
}

/* ------------------------------------------------------------ entry */

static int plan_build(ic_sched_t *s, const ic_plan_t *pl, const ic_coll_args_t *a);

int ic_plan_build(ic_sched_t *s, const ic_plan_t *pl, const ic_coll_args_t *a)
{
    int rc = plan_build(s, pl, a);
    if (rc == 0 && !a->in_place) /* in place, SEND aliases RECV */
        ic_sched_send_input(s);
    return rc == 0 ? ic_sched_ok(s) : rc;
}

static int plan_build(ic_sched_t *s, const ic_plan_t *pl, const ic_coll_args_t *a)
{
    ic_plan_t line;
    ic_coll_args_t b;
    if (pl->ndims == 0) {
        if (!pl->alg)
            return -1;
        if (pl->alg->build) { /* an algorithm with its own builder */
            if (pl->param == a->seg)
                return pl->alg->build(s, a);
            b = *a;
            b.seg = pl->param;
            return pl->alg->build(s, &b);
        }
        /* A 1-D plan: the mesh of one dimension, all ranks in rank order. */
        line = *pl;
        line.ndims = 1;
        line.dims[0] = a->size;
        line.step[0].dim = 0;
        line.step[0].alg = pl->alg;
        line.step[0].param = pl->param;
        b = *a;
        b.order = NULL;
        pl = &line;
        a = &b;
    }
    if (ic_plan_ranks(pl) != a->size || pl->coll != a->coll)
        return -1;
    mesh_t M;
    if (mesh_init(&M, pl, a) != 0)
        return -1;
    int rc;
    switch (a->coll) {
    case IC_COLL_BCAST:
    case IC_COLL_REDUCE:
    case IC_COLL_ALLREDUCE:
        rc = vector_plan(s, pl, a, &M);
        break;
    case IC_COLL_ALLGATHER:
    case IC_COLL_ALLGATHERV:
        rc = a->counts ? allgather_plan(s, pl, a, &M) : -1;
        break;
    case IC_COLL_REDUCE_SCATTER:
    case IC_COLL_REDUCE_SCATTER_BLOCK:
        rc = a->counts ? reduce_scatter_plan(s, pl, a, &M) : -1;
        break;
    default:
        rc = -1;
        break;
    }
    mesh_free(&M);
    ic_sched_round(s);
    return rc == 0 ? ic_sched_ok(s) : -1;
}
