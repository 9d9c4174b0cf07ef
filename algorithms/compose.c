/*
 * compose.c -- the one composer: any plan's schedule (plan.h) from the
 * primitives, run along the lines of a logical mesh.  No builder per plan.
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
    M->map = NULL;
    M->cnt = NULL;
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
    M->map = malloc((size_t)M->maxd * sizeof(int));
    M->cnt = malloc((size_t)M->k * (size_t)M->maxd * sizeof(size_t));
    if (!M->map || !M->cnt) {
        mesh_free(M);
        return -1;
    }
    return 0;
}

/* The line of dimension i through my position. */
static ic_line_t mesh_line(const mesh_t *M, int i)
{
    int first = M->me - M->c[i] * M->w[i];
    if (!M->order) {
        ic_line_t l = {M->d[i], first, M->w[i], NULL};
        return l;
    }
    for (int j = 0; j < M->d[i]; j++)
        M->map[j] = M->order[first + j * M->w[i]];
    ic_line_t l = {M->d[i], 0, 0, M->map};
    return l;
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
 * that combine to one position. */
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
                    (!before_mst_only || k == IC_STEP_REDUCE_MST || k == IC_STEP_ALLREDUCE_MST);
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

static void vector_steps(ic_sched_t *s, const ic_plan_t *pl, const ic_coll_args_t *a, mesh_t *M,
                         const int *ref, ic_region_t whole)
{
    ic_region_t R[IC_PLAN_MAXDIMS], cur = whole;
    ic_coll_t coll = a->coll;
    /* down */
    for (int t = 0; t < pl->ndims; t++) {
        const ic_plan_step_t *st = &pl->step[t];
        int dim = st->dim, d = M->d[dim];
        ic_step_kind_t kind = ic_plan_step_kind(st->alg);
        size_t *cnt = step_counts(M, t);
        ic_blocks_even(cnt, d, cur.count);
        R[t] = cur;
        int active = coll == IC_COLL_BCAST ? my_line_active(M, pl, t, ref, 0, 0, 1)
                                           : my_line_active(M, pl, t, ref, 1, 1, 0);
        if (active && d > 1) {
            ic_line_t line = mesh_line(M, dim);
            int root = ref[dim];
            ic_region_t tmp =
                ic_reg(coll == IC_COLL_REDUCE ? IC_BUF_SCRATCH2 : IC_BUF_SCRATCH, 0, cur.count);
            switch (kind) {
            case IC_STEP_BCAST_SCATTER:
                ic_mst_scatter(s, &line, root, cur.buf, cur.off, cnt);
                break;
            case IC_STEP_BCAST_MST:
                ic_mst_bcast(s, &line, root, cur);
                break;
            case IC_STEP_BCAST_PIPELINE:
                ic_pipe_bcast(s, &line, root, cur, st->param);
                break;
            case IC_STEP_BCAST_TREE:
                ic_tree_bcast(s, &line, root, cur, st->param);
                break;
            case IC_STEP_BCAST_KNOMIAL:
                ic_knomial_bcast(s, &line, root, cur, st->param ? (int)st->param : 2);
                break;
            case IC_STEP_REDUCE_DCOMBINE:
            case IC_STEP_ALLREDUCE_DCOMBINE:
                ic_bucket_dcombine(s, &line, cur.buf, cur.off, cnt, tmp.buf, 0);
                break;
            case IC_STEP_ALLREDUCE_RH:
                ic_rh_dcombine(s, &line, cur.buf, cur.off, cnt, tmp.buf, 0);
                break;
            case IC_STEP_REDUCE_MST:
            case IC_STEP_ALLREDUCE_MST:
                ic_mst_combine(s, &line, root, cur, tmp);
                break;
            case IC_STEP_ALLREDUCE_RD:
                ic_rd_allreduce(s, &line, cur, tmp);
                break;
            default:
                break;
            }
        }
        if (ic_plan_step_shrinks(kind))
            cur = my_block(cur, cnt, M->c[dim]);
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
        case IC_STEP_ALLREDUCE_RH:
            ic_bruck_collect(s, &line, R[t].buf, R[t].off, cnt, NULL, IC_BUF_SCRATCH, 0);
            break;
        case IC_STEP_REDUCE_DCOMBINE:
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
    if (n == 0)
        return 0;
    /* A reduce keeps, on a non-root, a copy of its input and a buffer for
     * partials: from a->bounded_from elements on it runs on two or three
     * pieces of the vector in turn, so that its scratch stays within the
     * message (as the 1-D reductions, coll_common.h). */
    size_t pieces = a->coll == IC_COLL_REDUCE ? ic_reduce_pieces(a, n) : 1;
    for (size_t j = 0; j < pieces; j++) {
        size_t lo = 0, len = pieces > 1 ? ic_reduce_piece(n, pieces, j, &lo) : n;
        ic_region_t acc = ic_reg(IC_BUF_RECV, lo, len);
        if (a->coll == IC_COLL_REDUCE && a->rank != a->root) {
            acc = ic_reg(IC_BUF_SCRATCH, 0, len); /* non-roots must not touch RECV */
            ic_sched_need(s, IC_BUF_SCRATCH, len);
        }
        if (a->coll != IC_COLL_BCAST) {
            int input_in_recv = a->in_place && (a->coll == IC_COLL_ALLREDUCE || a->rank == a->root);
            if (!input_in_recv)
                ic_sched_copy(s, ic_reg(IC_BUF_SEND, lo, len), acc);
            ic_sched_round(s);
        }
        vector_steps(s, pl, a, M, ref, acc);
    }
    return 0;
}

/* ------------------------------------------------- block collectives */

typedef struct qlayout {
    int *rank_of_q; /* p */
    size_t *poff;   /* p + 1: offset of block q in plan order */
    size_t *uoff;   /* p: user offset of rank r's block */
    int identity;   /* plan order is rank order */
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
    Q->identity = 1;
    for (int pos = 0; pos < p; pos++) {
        size_t q = 0;
        for (int t = 0; t < pl->ndims; t++)
            q += (size_t)coord(M, pos, pl->step[t].dim) * Q->v[t];
        Q->rank_of_q[q] = rank_at(M, pos);
        if (pos == M->me)
            Q->myq = (int)q;
    }
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
        size_t n = a->counts[r];
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
    for (int u = t + 1; u < pl->ndims; u++)
        qb += (size_t)M->c[pl->step[u].dim] * Q->v[u];
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
    ic_buf_t w = direct ? IC_BUF_RECV : IC_BUF_SCRATCH;
    if (!direct)
        ic_sched_need(s, IC_BUF_SCRATCH, total);
    size_t mine = a->counts[a->rank], at = wbase + Q.poff[Q.myq];
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
        case IC_STEP_COLLECT_BRUCK:
            ic_bruck_collect(s, &line, w, base, lcnt, NULL, IC_BUF_SCRATCH2, 0);
            break;
        case IC_STEP_COLLECT_GB:
            ic_mst_gather(s, &line, 0, w, base, lcnt);
            ic_mst_bcast(s, &line, 0, ic_reg(w, base, ic_blocks_total(lcnt, M->d[dim])));
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

static int reduce_scatter_plan(ic_sched_t *s, const ic_plan_t *pl, const ic_coll_args_t *a,
                               mesh_t *M)
{
    qlayout_t Q;
    if (qlayout_init(&Q, pl, a, M) != 0)
        return -1;
    size_t total = Q.poff[a->size];
    if (total > 0) {
        ic_sched_need(s, IC_BUF_SCRATCH, total);
        /* the input is packed in rank order (uoff with displs NULL) */
        qcopy(s, &Q, a, IC_BUF_SCRATCH, 0, a->in_place ? IC_BUF_RECV : IC_BUF_SEND, 0, -1);
        ic_sched_round(s);
    }
    for (int t = pl->ndims - 1; t >= 0 && total > 0; t--) {
        int dim = pl->step[t].dim, d = M->d[dim];
        if (d <= 1)
            continue;
        size_t *lcnt = step_counts(M, t);
        size_t base = Q.poff[line_runs(pl, M, &Q, t, lcnt)];
        size_t tl = ic_blocks_total(lcnt, d);
        ic_line_t line = mesh_line(M, dim);
        switch (ic_plan_step_kind(pl->step[t].alg)) {
        case IC_STEP_RS_BUCKET:
            ic_bucket_dcombine(s, &line, IC_BUF_SCRATCH, base, lcnt, IC_BUF_SCRATCH2, 0);
            break;
        case IC_STEP_RS_RH:
            ic_rh_dcombine(s, &line, IC_BUF_SCRATCH, base, lcnt, IC_BUF_SCRATCH2, 0);
            break;
        case IC_STEP_RS_MST:
            ic_mst_combine(s, &line, 0, ic_reg(IC_BUF_SCRATCH, base, tl),
                           ic_reg(IC_BUF_SCRATCH2, 0, tl));
            ic_mst_scatter(s, &line, 0, IC_BUF_SCRATCH, base, lcnt);
            break;
        default:
            break;
        }
    }
    ic_sched_round(s);
    size_t mine = a->counts[a->rank];
    if (mine > 0)
        ic_sched_copy(s, ic_reg(IC_BUF_SCRATCH, Q.poff[Q.myq], mine), ic_reg(IC_BUF_RECV, 0, mine));
    ic_sched_round(s);
    qlayout_free(&Q);
    return 0;
}

/* ------------------------------------------------------------ entry */

int ic_plan_build(ic_sched_t *s, const ic_plan_t *pl, const ic_coll_args_t *a)
{
    if (pl->ndims == 0) {
        if (!pl->alg)
            return -1;
        if (pl->param == a->seg)
            return pl->alg->build(s, a);
        ic_coll_args_t b = *a;
        b.seg = pl->param;
        return pl->alg->build(s, &b);
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
