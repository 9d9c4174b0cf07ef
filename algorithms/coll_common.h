/*
 * coll_common.h -- helpers shared by the composed collectives of
 * mitra-1995 section 3.2 (algorithms/coll_*.c): the line a collective runs
 * on, and block layouts.
 *
 * The primitives want blocks packed in *line position* order (block i at
 * prefix(i)).  The user's buffers hold per-*rank* blocks, packed in rank
 * order or at arbitrary displacements.  An ic_layout_t keeps both views in
 * position order:
 *   pc[i]   elements of the block of position i (= counts[rank(i)]),
 *   poff[i] its offset in the position-packed layout (poff[n] = total),
 *   uoff[i] its offset in the user's layout (displs, or rank-packed).
 * ic_layout_copy() moves blocks between two such views with as few COPY
 * actions as possible (adjacent blocks that stay adjacent are merged, so
 * the identity line with packed buffers costs one COPY).
 */
#ifndef IC_COLL_COMMON_H
#define IC_COLL_COMMON_H

#include "algorithms.h"
#include "mst.h"

#include <stdlib.h>

/* The line a whole-communicator collective runs on.  One place to change
 * when meshes arrive.  Order-keeping claims (IC_ALG_KEEPS_ORDER) rely on
 * this line listing ranks in increasing order. */
static inline ic_line_t ic_coll_line(const ic_coll_args_t *a)
{
    return ic_line_identity(a->size);
}

typedef struct ic_layout {
    ic_line_t line;
    int n;        /* positions                                   */
    int me;       /* position of a->rank                         */
    int root;     /* position of a->root (0 when no root)        */
    size_t total; /* sum of all blocks                           */
    size_t *pc;   /* n block counts, position order              */
    size_t *poff; /* n + 1 packed offsets, position order        */
    size_t *uoff; /* n user offsets, position order              */
} ic_layout_t;

/* The parent's rank of a non-root position that is a leaf of the MST
 * from L's root (it only exchanges its own block, with that parent), or
 * -1 when the position is the root or has children.  Gather and scatter
 * let a leaf send or receive its block in place, without scratch. */
static inline int ic_layout_mst_leaf(const ic_layout_t *L)
{
    ic_mst_step_t st[IC_MST_MAXSTEPS];
    if (L->me < 0 || L->me == L->root)
        return -1;
    int k = ic_mst_steps(L->n, L->root, L->me, st), parent = -1;
    if (ic_mst_receives(st, k))
        return -1;
    for (int i = 0; i < k; i++)
        if (st[i].role == IC_MST_RECV)
            parent = st[i].peer;
    return parent < 0 ? -1 : ic_line_rank(&L->line, parent);
}

static inline void ic_layout_free(ic_layout_t *L)
{
    free(L->pc);
    L->pc = NULL;
    L->poff = NULL;
    L->uoff = NULL;
}

/*
 * Set up L for the call a.  counts == NULL: an even split of a->count over
 * the positions (the user layout is then the same packed vector).
 * Otherwise counts/displs are per rank (displs NULL = packed in rank order).
 * Returns 0, or -1 when out of memory.
 */
static inline int ic_layout_init(ic_layout_t *L, const ic_coll_args_t *a, const size_t *counts,
                                 const size_t *displs)
{
    L->line = ic_coll_line(a);
    L->n = L->line.n;
    L->me = ic_line_pos(&L->line, a->rank);
    L->root = ic_line_pos(&L->line, a->root);
    if (L->root < 0)
        L->root = 0;
    size_t n = (size_t)L->n;
    L->pc = malloc((3 * n + 1) * sizeof(size_t));
    if (!L->pc)
        return -1;
    L->poff = L->pc + n;
    L->uoff = L->poff + n + 1;
    if (!counts) {
        ic_blocks_even(L->pc, L->n, a->count);
    } else {
        for (int i = 0; i < L->n; i++)
            L->pc[i] = counts[ic_line_rank(&L->line, i)];
    }
    L->poff[0] = 0;
    for (int i = 0; i < L->n; i++)
        L->poff[i + 1] = L->poff[i] + L->pc[i];
    L->total = L->poff[n];
    if (!counts) {
        for (int i = 0; i < L->n; i++)
            L->uoff[i] = L->poff[i];
    } else if (displs) {
        for (int i = 0; i < L->n; i++)
            L->uoff[i] = displs[ic_line_rank(&L->line, i)];
    } else {
        /* rank-packed: offset of rank r = sum of counts of ranks < r */
        size_t *rp = L->uoff; /* borrow: prefix by rank, then permute in place below */
        size_t sum = 0;
        for (int r = 0; r < L->n; r++) {
            rp[r] = sum;
            sum += counts[r];
        }
        if (L->line.map || L->line.first != 0 || L->line.stride != 1) {
            size_t *tmp = malloc(n * sizeof(size_t));
            if (!tmp) {
                ic_layout_free(L);
                return -1;
            }
            for (int i = 0; i < L->n; i++)
                tmp[i] = rp[ic_line_rank(&L->line, i)];
            for (int i = 0; i < L->n; i++)
                rp[i] = tmp[i];
            free(tmp);
        }
    }
    return 0;
}

/* Is the user layout the packed layout shifted by some *base (only
 * non-empty blocks count)?  Then primitives can work on the user buffer. */
static inline int ic_layout_direct(const ic_layout_t *L, size_t *base)
{
    int have = 0;
    size_t b = 0;
    for (int i = 0; i < L->n; i++) {
        if (L->pc[i] == 0)
            continue;
        if (!have) {
            if (L->uoff[i] < L->poff[i])
                return 0;
            b = L->uoff[i] - L->poff[i];
            have = 1;
        } else if (L->uoff[i] != b + L->poff[i]) {
            return 0;
        }
    }
    *base = b;
    return 1;
}

/*
 * COPY every non-empty block (except position `skip`; -1 = none) from
 * (from, from_base + from_off[i]) to (to, to_base + to_off[i]), merging
 * runs of blocks that are adjacent on both sides into one action.
 */
static inline void ic_layout_copy(ic_sched_t *s, const ic_layout_t *L, ic_buf_t from,
                                  const size_t *from_off, size_t from_base, ic_buf_t to,
                                  const size_t *to_off, size_t to_base, int skip)
{
    size_t rs = 0, rd = 0, len = 0;
    for (int i = 0; i < L->n; i++) {
        if (L->pc[i] == 0 || i == skip)
            continue;
        size_t fs = from_base + from_off[i], fd = to_base + to_off[i];
        if (len > 0 && fs == rs + len && fd == rd + len) {
            len += L->pc[i];
            continue;
        }
        if (len > 0)
            ic_sched_copy(s, ic_reg(from, rs, len), ic_reg(to, rd, len));
        rs = fs;
        rd = fd;
        len = L->pc[i];
    }
    if (len > 0)
        ic_sched_copy(s, ic_reg(from, rs, len), ic_reg(to, rd, len));
}

/*
 * Pieces of the short-vector reductions.  An MST combine-to-one and
 * recursive halving hold, on a rank whose input is read-only and whose
 * RECV is not significant (or too short), a partial of the whole vector
 * and a second one arriving: up to twice the message.  From
 * a->bounded_from elements on they run on pieces of the vector one after
 * another instead, each piece at most half the vector (two pieces when n
 * is even, three when odd: 2 ceil(n/3) <= n), so their scratch stays
 * within the message; each piece costs the start-ups again.  (The tree
 * reduces cut their segments instead: ic_reduce_tree_seg below.)  Returns
 * the number of pieces (1 = all at once).
 */
static inline size_t ic_reduce_pieces(const ic_coll_args_t *a, size_t n)
{
    if (a->bounded_from == 0 || n < a->bounded_from || n < 2)
        return 1;
    return n % 2 ? 3 : 2;
}

/* A reduce with nothing to move (one position, or no elements): the
 * root's input into its result.  Returns 1 when so (the schedule is then
 * complete), else 0. */
static inline int ic_reduce_alone(ic_sched_t *s, const ic_coll_args_t *a, int n, int root)
{
    if (n > 1 && a->count > 0)
        return 0;
    if (root && !a->in_place && a->count > 0)
        ic_sched_copy(s, ic_reg(IC_BUF_SEND, 0, a->count), ic_reg(IC_BUF_RECV, 0, a->count));
    ic_sched_round(s);
    return 1;
}

/* The segment of a reduce that holds `slots` segments of scratch at once:
 * seg (0 = one segment) but at most `whole` elements, and when `bounded`
 * at most count / slots (at least 1), so that the slots fit within the
 * message of `count`. */
static inline size_t ic_slotted_seg(size_t seg, size_t whole, size_t count, size_t slots,
                                    int bounded)
{
    seg = seg && seg < whole ? seg : whole;
    size_t cap = count / slots ? count / slots : 1;
    return bounded && seg > cap ? cap : seg;
}

/* The segment of a tree reduce (the binary tree, the two trees), whose
 * interior ranks hold `slots` segments at once: the selector's (a->seg),
 * bounded from a->bounded_from on. */
static inline size_t ic_reduce_tree_seg(const ic_coll_args_t *a, size_t whole, size_t slots)
{
    return ic_slotted_seg(a->seg, whole, a->count, slots, ic_reduce_pieces(a, a->count) > 1);
}

/* The segment that cuts a->count elements into about k segments (k within
 * 1 .. count; at least 1 element), no longer than m's piece: the segment
 * rules' last step. */
static inline size_t ic_seg_of_k(const ic_coll_args_t *a, const ic_model_t *m, double k)
{
    if (k < 1)
        k = 1;
    if (k > (double)a->count)
        k = (double)a->count;
    size_t seg = k > 0 ? (a->count + (size_t)k - 1) / (size_t)k : 0;
    if (m->piece && m->elem) { /* as executor.c cuts: at least one element */
        size_t piece = m->piece / m->elem ? m->piece / m->elem : 1;
        seg = seg < piece ? seg : piece;
    }
    return seg ? seg : 1;
}

/* LogGP split of one message of `bytes`: the sender's (and receiver's
 * port's) time S and the rest of its start-up R, in flight. */
static inline void ic_split_hop(const ic_model_t *m, double bytes, double *S, double *R)
{
    double o = ic_send_overhead(m->alpha, m->overhead);
    *S = o + bytes * m->beta;
    *R = m->alpha - o;
}

/* Piece j of k of n elements: [*lo, *lo + return). */
static inline size_t ic_reduce_piece(size_t n, size_t k, size_t j, size_t *lo)
{
    *lo = n * j / k;
    return n * (j + 1) / k - *lo;
}

/* ---------------------------------------------------- closed-form costs
 *
 * The terms the cost formulas of the coll_*.c files are written in, for the
 * call a under the model m (see ic_cost_fn in algorithms.h).
 */
typedef struct ic_terms {
    double p;       /* ranks                                            */
    double L;       /* ceil(log2 p)                                     */
    double F;       /* floor(log2 p)                                    */
    int np2;        /* p is not a power of two (folds are needed)       */
    double f;       /* (p - 1) / p                                      */
    double n;       /* bytes: the vector, or all blocks together        */
    double bmax;    /* bytes of the largest block (per-rank blocks)     */
    double a, b, g; /* alpha, beta, gamma                             */
    double bx;      /* beta of an exchange (both directions at once)    */
    double xmin;    /* ... for messages of at least xmin bytes          */
    double bring;   /* beta of a ring step: an exchange when p == 2     */
} ic_terms_t;

/* The pipelined binary tree of k segments on p ranks (tree_bcast.c): its
 * message times in sequence. */
static inline double ic_tree_steps(int p, double k)
{
    return p == 2 ? k : 2 * (k - 1) + ic_tree_depth_cost(p);
}

/* Beta per byte of one of two messages of `bytes` bytes that a pair of
 * ranks exchange in the same round (ic_model_t.x_min). */
static inline double ic_xbeta(const ic_terms_t *t, double bytes)
{
    return bytes >= t->xmin ? t->bx : t->b;
}

static inline ic_terms_t ic_terms(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t;
    int p = a->size > 0 ? a->size : 1;
    t.p = p;
    t.L = ic_ceil_log2(p);
    t.np2 = (p & (p - 1)) != 0;
    t.F = t.L - t.np2;
    t.f = (double)(p - 1) / p;
    size_t total = a->count, bmax = p > 0 ? (a->count + (size_t)p - 1) / (size_t)p : 0;
    if (a->counts && a->coll != IC_COLL_BCAST && a->coll != IC_COLL_REDUCE &&
        a->coll != IC_COLL_ALLREDUCE) {
        total = 0;
        bmax = 0;
        for (int i = 0; i < a->size; i++) {
            total += a->counts[i];
            if (a->counts[i] > bmax)
                bmax = a->counts[i];
        }
    }
    t.n = (double)total * (double)m->elem;
    t.bmax = (double)bmax * (double)m->elem;
    t.a = m->alpha;
    t.b = m->beta;
    t.g = m->gamma;
    t.bx = m->beta_x;
    t.xmin = (double)m->x_min;
    t.bring = p == 2 ? ic_xbeta(&t, t.bmax) : t.b;
    return t;
}

/* One round of a full fan-out on p ranks, messages of b bytes exchanged
 * between every pair (fanout.c): every rank's receives one after the
 * other, the last arriving alpha + b beta_x after it starts, and with
 * LogGP's overhead o < alpha (ic_send_overhead) each earlier one keeping
 * the ports busy only o + b beta_x: (p-2)(o + b beta_x) + alpha + b beta_x,
 * (p-1)(alpha + b beta_x) in the plain model.  A lower bound of the cost
 * evaluator's time (IC_ALG_COST_BOUND). */
static inline double ic_fanout_time(const ic_terms_t *t, const ic_model_t *m, double b)
{
    double bx = b * ic_xbeta(t, b), o = ic_send_overhead(t->a, m->overhead);
    return t->p <= 1 ? 0 : (t->p - 2) * (o + bx) + t->a + bx;
}

/* A step of the two counter-rotating rings (bidir_bucket.c) moving blocks
 * of at most t->bmax bytes: half a block each way on every link, an
 * exchange (at p = 2 both rings join one pair: the one-way ring's step,
 * t->bmax at t->bring). */
static inline double ic_ring2_step(const ic_terms_t *t)
{
    double h = t->bmax / 2;
    return t->p <= 2 ? t->a + t->bmax * t->bring : t->a + h * ic_xbeta(t, h);
}

/* The steps of the halfway rings (bidir_bucket.c) moving whole blocks of
 * at most t->bmax bytes (the bidir rings' when that is more than half of
 * t->n, ic_halfway_lopsided): floor((p-1)/2) of them with a block each way on
 * every link (an exchange), and for an even p one of half blocks (at p =
 * 2 both halves join one pair: the one-way ring's step, t->bmax at
 * t->bring, as ic_ring2_step). */
static inline double ic_halfway_steps(const ic_terms_t *t)
{
    if (2 * t->bmax > t->n) /* lopsided: the bidir rings */
        return (t->p - 1) * ic_ring2_step(t);
    int p = (int)t->p;
    double h = t->bmax / 2, c = (p - 1) / 2 * (t->a + t->bmax * ic_xbeta(t, t->bmax));
    if (p == 2)
        c += t->a + t->bmax * t->bring;
    else if (p % 2 == 0)
        c += t->a + h * ic_xbeta(t, h);
    return c;
}

/* The transfer part of Bruck's collect (bruck_collect.c) of p blocks of
 * at most t->bmax bytes, t->n in all: step k sends min(2^k, p - 2^k)
 * blocks, a message no longer than their longest (uneven blocks) nor the
 * whole vector (blocks of a short one are mostly empty); for even blocks
 * (p-1)/p n in all.  For p = 2^k the last step, half the blocks, is an
 * exchange between partners p/2 apart. */
static inline double ic_bruck_beta(const ic_terms_t *t)
{
    double c = 0;
    for (double k2 = 1; k2 < t->p; k2 *= 2) {
        double blocks = k2 < t->p - k2 ? k2 : t->p - k2;
        double x = blocks * t->bmax < t->n ? blocks * t->bmax : t->n;
        c += x * (!t->np2 && 2 * k2 == t->p ? ic_xbeta(t, x) : t->b);
    }
    return c;
}

/* The transfer part of F = floor(log2 p) halving steps over the vector of
 * t->n bytes (recursive halving, rh_dcombine.c), every step an exchange:
 * step k moves n / 2^k each way when p = 2^F, (p-1)/p n in all.  For other
 * p the same split of (p-1)/p n over the steps (an estimate). */
static inline double ic_halving_beta(const ic_terms_t *t)
{
    double c = 0, steps = 1;
    for (int k = 0; k < (int)t->F; k++)
        steps *= 2;
    double x = t->np2 ? t->f * t->n / (steps - 1) * (steps / 2) : t->n / 2; /* first step */
    for (int k = 0; k < (int)t->F; k++, x /= 2)
        c += x * ic_xbeta(t, x);
    return c;
}

/* Recursive-doubling collect (rd_collect.c) of blocks of b bytes, m bytes
 * in all: an exchange of 2^j blocks in step j when p = 2^F; otherwise the
 * fold and unfold, and steps whose largest run holds 2^j + min(2^j, rem)
 * blocks (an estimate for uneven runs). */
static inline double ic_rd_collect_cost(const ic_terms_t *t, double b, double m)
{
    int p = (int)t->p, pof2 = 1 << (int)t->F, rem = p - pof2;
    double c = 0;
    for (int j = 0, w = 1; j < (int)t->F; j++, w *= 2) {
        double x = b * (w + (w < rem ? w : rem));
        c += t->a + x * ic_xbeta(t, x);
    }
    if (rem)
        c += 2 * t->a + b * t->b + (m - b) * t->b;
    return c;
}

/* The repeated sub-operations of tan-strazdins-2002 (repeated.c) and its
 * full fan-in (fanout.c): estimates of the overlap of n operations in
 * turn on blocks of b bytes, in message times alpha + b beta (gamma for
 * the combines' reductions); tests/unit/check_cost_formulas.c holds them
 * against the cost evaluator.  `combine`: the distributed combine (its
 * partials must arrive before they are passed on). */
double ic_pattern_cost(ic_step_kind_t kind, const ic_terms_t *t, double b, int combine);

/* The builders of algorithms/coll_*.c, listed in algorithms/registry.c. */
int ic_coll_reduce_binary_tree(ic_sched_t *s, const ic_coll_args_t *a);
int ic_coll_reduce_two_tree(ic_sched_t *s, const ic_coll_args_t *a); /* two_tree.c */
int ic_coll_reduce_knomial(ic_sched_t *s, const ic_coll_args_t *a);
double ic_cost_reduce_knomial(const ic_coll_args_t *a, const ic_model_t *m);
size_t ic_radix_reduce_knomial(const ic_coll_args_t *a, const ic_model_t *m);
const char *ic_knomial_reduce_room(size_t bounded_from, int n, size_t m);
size_t ic_seg_bcast_pipeline(const ic_coll_args_t *a, const ic_model_t *m);
size_t ic_seg_bcast_pipeline2(const ic_coll_args_t *a, const ic_model_t *m);
size_t ic_seg_bcast_halfway(const ic_coll_args_t *a, const ic_model_t *m);
size_t ic_seg_bcast_binary_tree(const ic_coll_args_t *a, const ic_model_t *m);
size_t ic_seg_reduce_pipeline(const ic_coll_args_t *a, const ic_model_t *m);
/* The segment the 1-D pipelined reduce runs with for parameter seg (0 or
 * at least the vector: one segment), coll_reduce.c. */
size_t ic_reduce_pipeline_seg(const ic_coll_args_t *a, size_t seg);
size_t ic_radix_bcast_knomial(const ic_coll_args_t *a, const ic_model_t *m);
int ic_coll_scatter_mst(ic_sched_t *s, const ic_coll_args_t *a);
int ic_coll_gather_mst(ic_sched_t *s, const ic_coll_args_t *a);
int ic_coll_scatter_linear(ic_sched_t *s, const ic_coll_args_t *a);
int ic_coll_gather_linear(ic_sched_t *s, const ic_coll_args_t *a);
int ic_coll_barrier_mst(ic_sched_t *s, const ic_coll_args_t *a);
int ic_coll_barrier_dissemination(ic_sched_t *s, const ic_coll_args_t *a);

/* Their closed-form costs (ic_cost_fn), in the same files. */
double ic_cost_bcast_mst(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_bcast_scatter_collect(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_bcast_pipeline(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_bcast_pipeline2(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_bcast_halfway(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_bcast_binary_tree(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_bcast_knomial(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_bcast_circulant(const ic_coll_args_t *a, const ic_model_t *m);
size_t ic_seg_bcast_circulant(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_reduce_binary_tree(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_reduce_mst(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_reduce_dcombine_gather(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_reduce_pipeline(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_allreduce_mst(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_allreduce_dcombine_collect(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_allreduce_dcombine_collect2(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_allreduce_halfway(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_allgather_halfway(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_reduce_scatter_halfway(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_bcast_scatter_collect2(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_bcast_scatter_halfway(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_bcast_scatter_doubling(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_bcast_two_tree(const ic_coll_args_t *a, const ic_model_t *m);
size_t ic_seg_bcast_two_tree(const ic_coll_args_t *a, const ic_model_t *m);
/* the two trees (coll_bcast.c) with b seconds per byte of a message */
size_t ic_seg_two_tree(const ic_coll_args_t *a, const ic_model_t *m, double b);
double ic_cost_two_tree(const ic_coll_args_t *a, const ic_model_t *m, double b);
double ic_cost_reduce_two_tree(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_reduce_halving_gather(const ic_coll_args_t *a, const ic_model_t *m);
size_t ic_seg_reduce_two_tree(const ic_coll_args_t *a, const ic_model_t *m);
/* the segment the two-tree reduce runs for call a (coll_reduce.c) */
size_t ic_reduce_two_tree_seg(const ic_coll_args_t *a);
/* the circulant graph (coll_bcast.c) with b seconds per byte of a message */
size_t ic_seg_circulant(const ic_coll_args_t *a, const ic_model_t *m, double b);
double ic_cost_circulant(const ic_coll_args_t *a, const ic_model_t *m, double b);
double ic_cost_reduce_circulant(const ic_coll_args_t *a, const ic_model_t *m);
size_t ic_seg_reduce_circulant(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_allgather_bucket2(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_reduce_scatter_bucket2(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_allreduce_rd(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_allreduce_halving_doubling(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_allgather_gather_bcast(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_allgather_rd(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_allgather_tree(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_allgather_chain(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_allgather_fanin(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_allreduce_rhrd(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_allreduce_ring(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_allreduce_tree(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_allreduce_chain(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_allreduce_fanin(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_allreduce_fanout(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_allreduce_one_shot(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_reduce_scatter_tree(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_reduce_scatter_chain(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_reduce_scatter_fanin(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_reduce_scatter_fanout(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_allgather_fanout(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_allgather_bucket(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_allgather_bruck(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_reduce_scatter_mst(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_reduce_scatter_bucket(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_reduce_scatter_halving(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_scatter_mst(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_gather_mst(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_linear(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_barrier_mst(const ic_coll_args_t *a, const ic_model_t *m);
double ic_cost_barrier_dissemination(const ic_coll_args_t *a, const ic_model_t *m);

#endif /* IC_COLL_COMMON_H */
