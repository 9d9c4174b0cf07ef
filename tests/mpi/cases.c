/*
 * cases.c -- one case of a collective, run by the vendor MPI and by
 * InterCom on identical inputs and compared (see mpitest.h):
 *
 *   mt_run_red      reduce, allreduce, reduce_scatter, reduce_scatter_block
 *   mt_run_move     bcast, gather(v), scatter(v), allgather(v)
 *   mt_run_barrier  barrier semantics (nobody leaves before all entered)
 *
 * What is checked, on every rank: both calls succeed; InterCom's result
 * equals the vendor's (integers exactly, floating point within a relative
 * tolerance, and bitwise the same on every rank for allreduce); moved
 * data equals the data sent, exactly (the vendor's too, or a note);
 * bytes outside the type map of what the call may write (gaps, lower-bound
 * areas, gaps between v-variant blocks, guards) are untouched; send
 * buffers and non-significant receive buffers are not written at all; the
 * forced algorithm is the one that ran.  Non-significant arguments
 * (receive side of a gather on non-roots, send side of a scatter, the
 * ignored count and type of MPI_IN_PLACE calls) are passed as NULL /
 * MPI_DATATYPE_NULL to InterCom when the case asks for it, as MPI allows
 * (the vendor gets the real ones: MPICH's scatter does not always ignore
 * them).
 */
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------ counts, displs */

void mt_counts(int *counts, int p, long total, int pattern, int which)
{
    if (pattern == MT_ONE) {
        for (int i = 0; i < p; i++)
            counts[i] = i == which ? (int)total : 0;
        return;
    }
    if (pattern == MT_EVEN) {
        for (int i = 0; i < p; i++)
            counts[i] = (int)(total / p + (i < total % p));
        return;
    }
    /* uneven: weights 2 3 0 1 2 3 0 1 ..., the remainder on the first block */
    long w = 0, sum = 0;
    for (int i = 0; i < p; i++)
        w += (i * 5 + 2) % 4;
    for (int i = 0; i < p; i++) {
        counts[i] = (int)(total * ((i * 5 + 2) % 4) / w);
        sum += counts[i];
    }
    counts[0] += (int)(total - sum);
}

long mt_displs(int *displs, const int *counts, int p, int kind)
{
    long d = 0, span = 0;
    if (kind == MT_REVERSED || kind == MT_NEGATIVE) {
        for (int i = p - 1; i >= 0; i--) {
            displs[i] = (int)d;
            d += counts[i] + (i % 2);
        }
    } else {
        d = kind == MT_GAPS ? 1 : 0;
        for (int i = 0; i < p; i++) {
            displs[i] = (int)d;
            d += counts[i] + (kind == MT_GAPS ? 2 : 0);
        }
    }
    for (int i = 0; i < p; i++)
        if (counts[i] > 0 && displs[i] + counts[i] > span)
            span = displs[i] + counts[i];
    return span;
}

const char *mt_pattern_name(int pattern)
{
    return pattern == MT_EVEN ? "even" : pattern == MT_UNEVEN ? "uneven" : "one";
}

const char *mt_displs_name(int kind)
{
    static const char *const names[] = {"packed", "gaps", "reversed", "negative", "per-rank"};
    return kind >= 0 && kind < MT_NDISPLS ? names[kind] : "?";
}

/* ----------------------------------------------------------- helpers */

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        mt_failx("out of memory (%zu bytes)", n);
    return p;
}

/* Compare elements [off, off + n) of InterCom's buffer with the vendor's;
 * returns 0 when equal. */
static int cmp_region(const mt_case_t *c, const mt_buf_t *vb, const mt_buf_t *ib,
                      const mt_basic_t *basic, int per, long off, int n, double tol,
                      const char *what, uint64_t *hash)
{
    if (n <= 0)
        return 0;
    size_t bytes = (size_t)n * (size_t)vb->tsize;
    unsigned char *gv = xmalloc(bytes), *gi = xmalloc(bytes);
    int bad = 0;
    if (gv && gi) {
        mt_buf_get(vb, off, n, gv);
        mt_buf_get(ib, off, n, gi);
        char why[256];
        long e = mt_cmp(basic, gi, gv, (size_t)n * (size_t)per, tol, why, sizeof(why));
        if (e >= 0) {
            mt_fail(c, "%s: wrong result at element %ld (basic %s): %s", what, off + e / per,
                    basic->name, why);
            bad = 1;
        }
        if (hash)
            *hash = mt_hash(basic, gi, (size_t)n * (size_t)per, *hash);
    }
    free(gv);
    free(gi);
    return bad;
}

/* Bytes InterCom changed that it must not have: outside the mask, or
 * anywhere when `all`. */
static void check_untouched(const mt_case_t *c, const mt_buf_t *b, int all, const char *what)
{
    long at = mt_buf_changed(b, all);
    if (at != -1)
        mt_fail(c, "%s: byte at offset %ld %s was written", what, at,
                all ? "(buffer must not be written)" : "(outside the type map of the result)");
}

/* The four buffers of a call: send and receive, the vendor's and
 * InterCom's (empty ones are freed as well). */
static void bufs_zero(mt_buf_t *sv, mt_buf_t *si, mt_buf_t *rv, mt_buf_t *ri)
{
    memset(sv, 0, sizeof(*sv));
    memset(si, 0, sizeof(*si));
    memset(rv, 0, sizeof(*rv));
    memset(ri, 0, sizeof(*ri));
}

static void bufs_free(mt_buf_t *sv, mt_buf_t *si, mt_buf_t *rv, mt_buf_t *ri)
{
    mt_buf_free(sv);
    mt_buf_free(si);
    mt_buf_free(rv);
    mt_buf_free(ri);
}

static unsigned case_seed(int salt)
{
    return (unsigned)mt_ncases * 7919u + (unsigned)salt * 104729u;
}

/* ---------------------------------------------------------- reductions */

int mt_run_red(MPI_Comm comm, const char *comm_name, const mt_red_t *r, int alg_i)
{
    if (mt_skip_types(r->type, NULL))
        return 0;
    long f0 = mt_failures();
    int rank, p;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    const char *alg = mt_alg(r->coll, alg_i);
    const mt_type_t *t = r->type;
    const mt_basic_t *b = t->basic;
    MPI_Datatype dt = t->type;
    MPI_Op op = r->op->op;
    int is_reduce = r->coll == IC_COLL_ID_REDUCE;
    char extra[64];
    mt_case_t c = {mt_coll_name(r->coll),
                   alg,
                   comm,
                   comm_name,
                   is_reduce ? r->root : -1,
                   r->count,
                   t->name,
                   r->op->name,
                   r->in_place,
                   NULL};

    int *counts = NULL;
    long nin, nout;
    switch (r->coll) {
    case IC_COLL_ID_REDUCE_SCATTER:
        counts = xmalloc((size_t)p * sizeof(int));
        if (!counts)
            return 1;
        mt_counts(counts, p, r->count, r->pattern, p - 1);
        nin = r->count;
        nout = counts[rank];
        snprintf(extra, sizeof(extra), "counts=%s(total)", mt_pattern_name(r->pattern));
        c.extra = extra;
        break;
    case IC_COLL_ID_REDUCE_SCATTER_BLOCK:
        nin = r->count * p;
        nout = r->count;
        c.extra = "(count per block)";
        break;
    default:
        nin = nout = r->count;
        break;
    }
    if (is_reduce && r->null_recv)
        c.extra = "(recvbuf NULL on non-roots)";
    mt_begin(&c);

    int is_root = rank == r->root;
    int significant = !is_reduce || is_root;
    int ip = r->in_place && (!is_reduce || is_root);
    int null_recv = is_reduce && r->null_recv && !significant;
    size_t per = (size_t)t->per;
    unsigned seed = case_seed(rank);
    unsigned char *in = xmalloc((size_t)nin * per * (size_t)b->size);
    mt_buf_t sv, si, rv, ri;
    bufs_zero(&sv, &si, &rv, &ri);
    int rcv = MPI_SUCCESS, rci = MPI_SUCCESS;
    uint64_t h = 1469598103934665603ull;
    if (!in)
        goto out;
    mt_gen(b, r->op->kind, rank, p, 0, (size_t)nin * per, seed, in);
    /* The vendor's reference call gets neither MPI_IN_PLACE nor a NULL
     * recvbuf at reduce's non-roots (the result is the same): MPICH 4.0's
     * reduce crashes on both for long vectors, its in-place
     * reduce_scatter on overlapping memcpy. */
    if (mt_buf_pair(&sv, &si, dt, nin, seed ^ 0x1111u))
        goto out;
    mt_buf_mark(&si, 0, (int)nin);
    mt_buf_put(&sv, 0, (int)nin, in);
    mt_buf_put(&si, 0, (int)nin, in);
    if (mt_buf_pair(&rv, &ri, dt, ip ? nin : nout, seed ^ 0x2222u))
        goto out;
    if (ip) {
        mt_buf_mark(&ri, 0, (int)nin);
        mt_buf_put(&rv, 0, (int)nin, in);
        mt_buf_put(&ri, 0, (int)nin, in);
    } else if (significant) {
        mt_buf_mark(&ri, 0, (int)nout);
    }
    mt_buf_snapshot(&si);
    mt_buf_snapshot(&ri);
    void *vs = sv.buf, *is = ip ? MPI_IN_PLACE : si.buf;
    void *vr = rv.buf, *ir = null_recv ? NULL : ri.buf;
    int cnt = (int)r->count;
    switch (r->coll) {
    case IC_COLL_ID_REDUCE:
        rcv = MPI_Reduce(vs, vr, cnt, dt, op, r->root, comm);
        rci = IC_CALL(Reduce, reduce, is, ir, cnt, dt, op, r->root, comm);
        break;
    case IC_COLL_ID_ALLREDUCE:
#ifdef SMPI_H
        /* SMPI 3.32 crashes (SIGFPE) in this one, whose ompi selector
         * takes the segmented ring at p = 16..31, and that divides by its
         * segment count, 0; with nothing to reduce there is no reference
         * result to compare anyway */
        if (cnt == 0 && t->type != b->type && r->op->commutative && p >= 16 && p < 32) {
            mt_nref_skipped++;
            rcv = MPI_SUCCESS;
        } else
#endif
            rcv = MPI_Allreduce(vs, vr, cnt, dt, op, comm);
        rci = IC_CALL(Allreduce, allreduce, is, ir, cnt, dt, op, comm);
        break;
    case IC_COLL_ID_REDUCE_SCATTER:
        rcv = MPI_Reduce_scatter(vs, vr, counts, dt, op, comm);
        rci = IC_CALL(Reduce_scatter, reduce_scatter, is, ir, counts, dt, op, comm);
        break;
    default:
        rcv = MPI_Reduce_scatter_block(vs, vr, cnt, dt, op, comm);
        rci = IC_CALL(Reduce_scatter_block, reduce_scatter_block, is, ir, cnt, dt, op, comm);
        break;
    }
    if (mt_rc(&c, rcv, "vendor call") | mt_rc(&c, rci, "InterCom call"))
        goto out;
    if (!ip)
        check_untouched(&c, &si, 1, "sendbuf");
    if (significant) {
        int floating = b->cls == MT_FLOAT || b->cls == MT_COMPLEX;
        double tol =
            floating && (r->op->kind == MT_OP_SUM || r->op->kind == MT_OP_PROD) ? mt_tol(b, p) : 0;
        check_untouched(&c, &ri, 0, "recvbuf");
        cmp_region(&c, &rv, &ri, b, t->per, 0, (int)nout, tol, "recvbuf", &h);
    } else if (!null_recv) {
        check_untouched(&c, &ri, 1, "recvbuf (not significant on a non-root)");
    }
    if (p > 1 && nin > 0) {
        /* ops that give the same bits in any order of combining: the
         * algorithms that combine in a different order on each rank (the
         * ring allreduce) serve only those, and fall back otherwise */
        int k = r->op->kind;
        int exact = k == MT_OP_MINMAX || k == MT_OP_LOGIC || k == MT_OP_BITS || k == MT_OP_LOC ||
                    ((k == MT_OP_SUM || k == MT_OP_PROD) && b->cls == MT_INT);
        int vec = r->coll == IC_COLL_ID_ALLREDUCE || r->coll == IC_COLL_ID_REDUCE;
        mt_check_alg(&c, r->coll, r->op->commutative && exact,
                     vec ? (long)(nin * t->per * b->size) : 0, vec ? (long)nin : 0);
    }
out:
    /* every rank of an allreduce holds the same bits (rank-independent condition) */
    if (r->coll == IC_COLL_ID_ALLREDUCE && (b->cls == MT_FLOAT || b->cls == MT_COMPLEX) &&
        r->count > 0 && !mt_same_everywhere(comm, h))
        mt_fail(&c, "the result is not bitwise identical on every rank");
    bufs_free(&sv, &si, &rv, &ri);
    free(in);
    free(counts);
    return (int)(mt_failures() - f0);
}

/* -------------------------------------------------------- data movement */

/* Values of rank i's block: n packed elements of basic b. */
static unsigned char *block_values(const mt_basic_t *b, int i, int p, size_t n, unsigned seed)
{
    unsigned char *v = xmalloc(n * (size_t)b->size);
    if (v)
        mt_gen(b, MT_OP_MINMAX, i, p, 0, n, seed, v);
    return v;
}

/* Fill (vendor and InterCom copies of) the blocks of ranks [from, to) at
 * displs in units of type t, with block i holding k[i] elements; mark them. */
static int put_blocks(mt_buf_t *v, mt_buf_t *i, const mt_type_t *t, const int *k, const int *displs,
                      int from, int to, int p, unsigned seed, int mark)
{
    for (int q = from; q < to; q++) {
        size_t n = (size_t)k[q] * (size_t)t->per;
        unsigned char *vals = block_values(t->basic, q, p, n, seed);
        if (!vals)
            return -1;
        if (v->mem) {
            mt_buf_put(v, displs[q], k[q], vals);
            if (mark)
                mt_buf_mark(v, displs[q], k[q]);
        }
        if (i->mem) {
            mt_buf_put(i, displs[q], k[q], vals);
            if (mark)
                mt_buf_mark(i, displs[q], k[q]);
        }
        free(vals);
    }
    return 0;
}

typedef struct move_ctx {
    mt_case_t c;
    int rank, p;
    const mt_type_t *S, *R; /* this rank's send and receive types    */
    int sk, rk;
    int *u;       /* signature units per rank                */
    int *sc, *rc; /* send/receive counts per rank            */
    int *sd, *rd; /* send/receive displacements per rank     */
    long sspan, rspan;
    /* v-variants: what MPI gets is the buffer moved `shift` elements on and
     * the displacements sd - sshift, rd - rshift (negative ones too) */
    int *sdm, *rdm;
    long sshift, rshift;
    unsigned seed;
} move_ctx_t;

/* Element `shift` of b (NULL stays NULL). */
static void *shifted(const mt_buf_t *b, long shift)
{
    return b->buf ? b->buf + shift * b->extent : NULL;
}

/* This rank's contribution (send side) into both send buffers. */
static void put_own(mt_buf_t *v, mt_buf_t *i, const move_ctx_t *x)
{
    int n = x->sc[x->rank];
    unsigned char *vals =
        block_values(x->S->basic, x->rank, x->p, (size_t)n * (size_t)x->S->per, x->seed);
    if (vals) {
        mt_buf_put(v, 0, n, vals);
        mt_buf_put(i, 0, n, vals);
    }
    free(vals);
}

/* Data movement has exact expected values: block `owner`'s values.  Check
 * InterCom's elements [off, off + n) of type t against them, and note (not
 * fail) when the vendor's differ or the vendor call failed (vendor bugs:
 * MPICH 4.0's binomial scatter truncates MPI_DOUBLE_INT blocks). */
static void check_block(const move_ctx_t *x, const mt_buf_t *vb, const mt_buf_t *ib, int vendor_rc,
                        const mt_type_t *t, long off, int n, int owner, const char *what)
{
    if (n <= 0)
        return;
    size_t ne = (size_t)n * (size_t)t->per, bytes = ne * (size_t)t->basic->size;
    unsigned char *want = block_values(t->basic, owner, x->p, ne, x->seed);
    unsigned char *got = xmalloc(bytes);
    if (want && got) {
        char why[256];
        mt_buf_get(ib, off, n, got);
        long e = mt_cmp(t->basic, got, want, ne, 0, why, sizeof(why));
        if (e >= 0)
            mt_fail(&x->c, "%s: wrong data at element %ld (the block of rank %d): %s", what,
                    off + e / t->per, owner, why);
        if (vendor_rc == MPI_SUCCESS) {
            mt_buf_get(vb, off, n, got);
            if (mt_cmp(t->basic, got, want, ne, 0, why, sizeof(why)) >= 0)
                mt_note(&x->c, "%s: the vendor's result differs from the expected data", what);
        }
    }
    free(want);
    free(got);
}

/* Both calls made: note a vendor failure, report InterCom's.  Returns 0
 * when InterCom succeeded. */
static int move_rc(const move_ctx_t *x, int rcv, int rci)
{
    if (rcv != MPI_SUCCESS) {
        char s[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rcv, s, &len);
        char *nl = strchr(s, '\n');
        if (nl)
            *nl = '\0';
        mt_note(&x->c, "the vendor call failed (%s); checked against the expected data", s);
    }
    return mt_rc(&x->c, rci, "InterCom call");
}

static void move_bcast(move_ctx_t *x, const mt_move_t *m, MPI_Comm comm)
{
    const mt_type_t *t = x->rank % 2 == 0 ? x->S : x->R;
    int k = (int)m->count * (x->rank % 2 == 0 ? x->sk : x->rk);
    mt_buf_t v, i;
    if (mt_buf_pair(&v, &i, t->type, k, x->seed ^ (unsigned)x->rank))
        return;
    mt_buf_mark(&i, 0, k);
    int zero = 0;
    if (x->rank == m->root)
        put_blocks(&v, &i, t, &k, &zero, 0, 1, x->p, x->seed, 0);
    mt_buf_snapshot(&i);
    int rcv = MPI_Bcast(v.buf, k, t->type, m->root, comm);
    int rci = IC_CALL(Bcast, bcast, i.buf, k, t->type, m->root, comm);
    if (!move_rc(x, rcv, rci)) {
        check_untouched(&x->c, &i, 0, "buffer");
        check_block(x, &v, &i, rcv, t, 0, k, 0, "buffer");
    }
    mt_buf_free(&v);
    mt_buf_free(&i);
}

static void move_gather(move_ctx_t *x, const mt_move_t *m, MPI_Comm comm, int v_variant)
{
    int root = m->root, is_root = x->rank == root;
    int ip = m->in_place && is_root;
    mt_buf_t sv, si, rv, ri;
    bufs_zero(&sv, &si, &rv, &ri);
    if (!ip) {
        if (mt_buf_pair(&sv, &si, x->S->type, x->sc[x->rank], x->seed ^ 0x51u))
            return;
        put_own(&sv, &si, x);
    }
    if (is_root || !m->junk) {
        if (mt_buf_pair(&rv, &ri, x->R->type, x->rspan, x->seed ^ 0x52u))
            goto out;
        if (is_root) {
            for (int q = 0; q < x->p; q++)
                mt_buf_mark(&ri, x->rd[q], x->rc[q]);
            if (ip)
                put_blocks(&rv, &ri, x->R, x->rc, x->rd, root, root + 1, x->p, x->seed, 0);
        }
    }
    mt_buf_snapshot(&si);
    mt_buf_snapshot(&ri);
    void *vs = ip ? MPI_IN_PLACE : sv.buf, *is = ip ? MPI_IN_PLACE : si.buf;
    /* arguments MPI ignores here: junk for InterCom only */
    int scount = x->sc[x->rank], iscount = ip && m->junk ? 0 : scount;
    MPI_Datatype stype = x->S->type, istype = ip && m->junk ? MPI_DATATYPE_NULL : stype;
    int junk_recv = !is_root && m->junk;
    MPI_Datatype rtype = x->R->type, irtype = junk_recv ? MPI_DATATYPE_NULL : rtype;
    int rcv, rci;
    if (!v_variant) {
        int rcount = x->rc[0], ircount = junk_recv ? 0 : rcount;
        rcv = MPI_Gather(vs, scount, stype, rv.buf, rcount, rtype, root, comm);
        rci = IC_CALL(Gather, gather, is, iscount, istype, ri.buf, ircount, irtype, root, comm);
    } else {
        const int *irc = junk_recv ? NULL : x->rc, *ird = junk_recv ? NULL : x->rdm;
        rcv = MPI_Gatherv(vs, scount, stype, shifted(&rv, x->rshift), x->rc, x->rdm, rtype, root,
                          comm);
        rci = IC_CALL(Gatherv, gatherv, is, iscount, istype, shifted(&ri, x->rshift), irc, ird,
                      irtype, root, comm);
    }
    if (move_rc(x, rcv, rci))
        goto out;
    if (!ip)
        check_untouched(&x->c, &si, 1, "sendbuf");
    if (is_root) {
        check_untouched(&x->c, &ri, 0, "recvbuf");
        for (int q = 0; q < x->p; q++)
            check_block(x, &rv, &ri, rcv, x->R, x->rd[q], x->rc[q], q, "recvbuf");
    } else if (ri.mem) {
        check_untouched(&x->c, &ri, 1, "recvbuf (not significant on a non-root)");
    }
out:
    bufs_free(&sv, &si, &rv, &ri);
}

static void move_scatter(move_ctx_t *x, const mt_move_t *m, MPI_Comm comm, int v_variant)
{
    int root = m->root, is_root = x->rank == root;
    int ip = m->in_place && is_root;
    mt_buf_t sv, si, rv, ri;
    bufs_zero(&sv, &si, &rv, &ri);
    if (is_root || !m->junk) {
        if (mt_buf_pair(&sv, &si, x->S->type, x->sspan, x->seed ^ 0x61u))
            return;
        if (is_root)
            put_blocks(&sv, &si, x->S, x->sc, x->sd, 0, x->p, x->p, x->seed, 1);
    }
    if (!ip) {
        if (mt_buf_pair(&rv, &ri, x->R->type, x->rc[x->rank], x->seed ^ 0x62u))
            goto out;
        mt_buf_mark(&ri, 0, x->rc[x->rank]);
    }
    mt_buf_snapshot(&si);
    mt_buf_snapshot(&ri);
    void *vr = ip ? MPI_IN_PLACE : rv.buf, *ir = ip ? MPI_IN_PLACE : ri.buf;
    int rcount = x->rc[x->rank], ircount = ip && m->junk ? 0 : rcount;
    MPI_Datatype rtype = x->R->type, irtype = ip && m->junk ? MPI_DATATYPE_NULL : rtype;
    int junk_send = !is_root && m->junk;
    MPI_Datatype stype = x->S->type, istype = junk_send ? MPI_DATATYPE_NULL : stype;
    int rcv, rci;
    if (!v_variant) {
        int scount = x->sc[0], iscount = junk_send ? 0 : scount;
        rcv = MPI_Scatter(sv.buf, scount, stype, vr, rcount, rtype, root, comm);
        rci = IC_CALL(Scatter, scatter, si.buf, iscount, istype, ir, ircount, irtype, root, comm);
    } else {
        const int *isc = junk_send ? NULL : x->sc, *isd = junk_send ? NULL : x->sdm;
        rcv = MPI_Scatterv(shifted(&sv, x->sshift), x->sc, x->sdm, stype, vr, rcount, rtype, root,
                           comm);
        rci = IC_CALL(Scatterv, scatterv, shifted(&si, x->sshift), isc, isd, istype, ir, ircount,
                      irtype, root, comm);
    }
    if (move_rc(x, rcv, rci))
        goto out;
    if (si.mem)
        check_untouched(&x->c, &si, 1, "sendbuf");
    if (!ip) {
        check_untouched(&x->c, &ri, 0, "recvbuf");
        check_block(x, &rv, &ri, rcv, x->R, 0, x->rc[x->rank], x->rank, "recvbuf");
    }
out:
    bufs_free(&sv, &si, &rv, &ri);
}

static void move_allgather(move_ctx_t *x, const mt_move_t *m, MPI_Comm comm, int v_variant)
{
    int ip = m->in_place;
    mt_buf_t sv, si, rv, ri;
    bufs_zero(&sv, &si, &rv, &ri);
    if (!ip) {
        if (mt_buf_pair(&sv, &si, x->S->type, x->sc[x->rank], x->seed ^ 0x71u))
            return;
        put_own(&sv, &si, x);
    }
    if (mt_buf_pair(&rv, &ri, x->R->type, x->rspan, x->seed ^ 0x72u))
        goto out;
    for (int q = 0; q < x->p; q++)
        mt_buf_mark(&ri, x->rd[q], x->rc[q]);
    if (ip)
        put_blocks(&rv, &ri, x->R, x->rc, x->rd, x->rank, x->rank + 1, x->p, x->seed, 0);
    mt_buf_snapshot(&si);
    mt_buf_snapshot(&ri);
    void *vs = ip ? MPI_IN_PLACE : sv.buf, *is = ip ? MPI_IN_PLACE : si.buf;
    int scount = x->sc[x->rank], iscount = ip && m->junk ? 0 : scount;
    MPI_Datatype stype = x->S->type, istype = ip && m->junk ? MPI_DATATYPE_NULL : stype;
    int rcv, rci;
    if (!v_variant) {
        rcv = MPI_Allgather(vs, scount, stype, rv.buf, x->rc[0], x->R->type, comm);
        rci =
            IC_CALL(Allgather, allgather, is, iscount, istype, ri.buf, x->rc[0], x->R->type, comm);
    } else {
        rcv = MPI_Allgatherv(vs, scount, stype, shifted(&rv, x->rshift), x->rc, x->rdm, x->R->type,
                             comm);
        rci = IC_CALL(Allgatherv, allgatherv, is, iscount, istype, shifted(&ri, x->rshift), x->rc,
                      x->rdm, x->R->type, comm);
    }
    if (move_rc(x, rcv, rci))
        goto out;
    if (!ip)
        check_untouched(&x->c, &si, 1, "sendbuf");
    check_untouched(&x->c, &ri, 0, "recvbuf");
    for (int q = 0; q < x->p; q++)
        check_block(x, &rv, &ri, rcv, x->R, x->rd[q], x->rc[q], q, "recvbuf");
out:
    bufs_free(&sv, &si, &rv, &ri);
}

int mt_run_move(MPI_Comm comm, const char *comm_name, const mt_move_t *m, int alg_i)
{
    if (mt_skip_types(m->tp->send, m->tp->recv))
        return 0;
    long f0 = mt_failures();
    move_ctx_t x;
    memset(&x, 0, sizeof(x));
    MPI_Comm_rank(comm, &x.rank);
    MPI_Comm_size(comm, &x.p);
    int p = x.p;
    const char *alg = mt_alg(m->coll, alg_i);
    IC_Coll cl = m->coll;
    int v_variant =
        cl == IC_COLL_ID_GATHERV || cl == IC_COLL_ID_SCATTERV || cl == IC_COLL_ID_ALLGATHERV;
    int rooted = cl == IC_COLL_ID_BCAST || cl == IC_COLL_ID_GATHER || cl == IC_COLL_ID_GATHERV ||
                 cl == IC_COLL_ID_SCATTER || cl == IC_COLL_ID_SCATTERV;
    char extra[96] = "";
    x.c = (mt_case_t){mt_coll_name(cl), alg,         comm, comm_name,   rooted ? m->root : -1,
                      m->count,         m->tp->name, NULL, m->in_place, NULL};
    if (v_variant)
        snprintf(extra, sizeof(extra), "counts=%s displs=%s%s", mt_pattern_name(m->pattern),
                 mt_displs_name(m->dkind), m->junk ? " junk-args" : "");
    else if (m->junk)
        snprintf(extra, sizeof(extra), "junk-args");
    if (cl != IC_COLL_ID_BCAST)
        x.c.extra = extra[0] ? extra : "(count per block)";
    mt_begin(&x.c);
    x.S = m->tp->send;
    x.R = m->tp->recv;
    x.sk = m->tp->sk;
    x.rk = m->tp->rk;
    if (m->tp->swap_odd && x.rank % 2) {
        x.S = m->tp->recv;
        x.R = m->tp->send;
        x.sk = m->tp->rk;
        x.rk = m->tp->sk;
    }
    /* the same on every rank of comm (ranks may have run different cases) */
    x.seed = (unsigned)(cl * 1000003 + alg_i * 10007 + m->count * 101 + m->pattern * 31 +
                        m->dkind * 17 + (m->root + 1) * 7 + m->in_place * 3 + m->junk +
                        (int)(m->tp - mt_tpairs) * 65537);
    if (cl == IC_COLL_ID_BCAST) {
        move_bcast(&x, m, comm);
    } else {
        x.u = xmalloc((size_t)p * 7 * sizeof(int));
        if (!x.u)
            return 1;
        x.sc = x.u + p;
        x.rc = x.sc + p;
        x.sd = x.rc + p;
        x.rd = x.sd + p;
        x.sdm = x.rd + p;
        x.rdm = x.sdm + p;
        if (v_variant)
            mt_counts(x.u, p, m->count * p, m->pattern, m->root >= 0 ? m->root : p - 1);
        else
            for (int q = 0; q < p; q++)
                x.u[q] = (int)m->count;
        for (int q = 0; q < p; q++) { /* in this rank's own units */
            x.sc[q] = x.u[q] * x.sk;
            x.rc[q] = x.u[q] * x.rk;
        }
        int dk = v_variant ? m->dkind : MT_PACKED;
        if (dk == MT_PER_RANK)
            dk = x.rank % MT_PER_RANK;
        x.sspan = mt_displs(x.sd, x.sc, p, dk);
        x.rspan = mt_displs(x.rd, x.rc, p, dk);
        if (!v_variant) { /* MPI's fixed layout: block q at q * count */
            x.sspan = (long)p * x.sc[0];
            x.rspan = (long)p * x.rc[0];
        }
        if (dk == MT_NEGATIVE) { /* the buffer starts in the middle */
            x.sshift = x.sspan / 2;
            x.rshift = x.rspan / 2;
        }
        for (int q = 0; q < p; q++) {
            x.sdm[q] = x.sd[q] - (int)x.sshift;
            x.rdm[q] = x.rd[q] - (int)x.rshift;
        }
        if (cl == IC_COLL_ID_GATHER || cl == IC_COLL_ID_GATHERV)
            move_gather(&x, m, comm, v_variant);
        else if (cl == IC_COLL_ID_SCATTER || cl == IC_COLL_ID_SCATTERV)
            move_scatter(&x, m, comm, v_variant);
        else
            move_allgather(&x, m, comm, v_variant);
    }
    long total = 0;
    for (int q = 0; x.u && q < p; q++)
        total += x.u[q];
    if (cl == IC_COLL_ID_BCAST)
        total = m->count;
    if (p > 1 && total > 0)
        mt_check_alg(&x.c, cl, 1, 0, 0);
    free(x.u);
    return (int)(mt_failures() - f0);
}

/* ------------------------------------------------------------- barrier */

#define BARRIER_TAG 4242

int mt_run_barrier(MPI_Comm comm, const char *comm_name, int alg_i)
{
    long f0 = mt_failures();
    int rank, p;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    const char *alg = mt_alg(IC_COLL_ID_BARRIER, alg_i);
    mt_case_t c = {"barrier", alg, comm, comm_name, -1, 0, NULL, NULL, 0, NULL};
    mt_begin(&c);
    mt_rc(&c, IC_CALL1(Barrier, barrier, comm), "IC_Barrier");
    for (int late = 0; late < p; late++) {
        MPI_Barrier(comm);
        if (rank == late) {
            /* Others report when they leave; none may before we entered. */
            int early = 0;
            for (int k = 0; k < 4 && !early; k++) {
                struct timespec ts = {0, 1000000};
                nanosleep(&ts, NULL);
                MPI_Iprobe(MPI_ANY_SOURCE, BARRIER_TAG, comm, &early, MPI_STATUS_IGNORE);
            }
            if (early)
                mt_fail(&c, "a rank left the barrier before rank %d entered it", late);
            mt_rc(&c, IC_CALL1(Barrier, barrier, comm), "IC_Barrier");
            for (int q = 0; q < p - 1; q++)
                MPI_Recv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, BARRIER_TAG, comm, MPI_STATUS_IGNORE);
        } else {
            mt_rc(&c, IC_CALL1(Barrier, barrier, comm), "IC_Barrier");
            MPI_Send(NULL, 0, MPI_BYTE, late, BARRIER_TAG, comm);
        }
    }
    if (p > 1)
        mt_check_alg(&c, IC_COLL_ID_BARRIER, 1, 0, 0);
    return (int)(mt_failures() - f0);
}
