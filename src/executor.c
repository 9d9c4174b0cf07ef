/*
 * executor.c -- runs a schedule over MPI point-to-point.
 *
 * Per round: post every receive (MPI_Irecv), then every send (MPI_Isend),
 * wait for all, then apply the round's local actions in order: REDUCE with
 * MPI_Reduce_local, COPY with memcpy or, for non-contiguous or differing
 * datatypes, a typed copy through MPI.  Messages of 0 elements are sent (a
 * barrier is made of them).  All library traffic uses the context's private
 * communicator and one tag; MPI's non-overtaking rule orders the messages
 * between two ranks, which is how schedules are written.
 *
 * Long messages go in pieces: when a round has messages longer than
 * ctx->chunk bytes (INTERCOM_CHUNK), it runs as lock-step sub-rounds, each
 * posting the next piece of at most chunk bytes of every message and
 * waiting for them.  Over TCP this keeps every message below the eager
 * limit and the links' queues short: a ring step of 512 KiB over the
 * emulated cluster's shaped links (bench/README.md) took 1.3 times its
 * alpha-beta time sent whole, or posted as all its pieces at once (its
 * rendezvous handshakes and acknowledgements wait behind bulk data in the
 * other direction's queue), and 1.04 times in 32 KiB sub-rounds.  The
 * pieces cost an extra start-up each, which the cost model does not charge
 * (for 32 KiB pieces at 100 MB/s a few percent).  Whatever the chunk, no
 * piece is longer than IC_MSG_MAX bytes (about 1.3 GB), so that its count
 * fits MPI's int; reductions and copies of more elements than that run
 * piece by piece too.
 */
#include "config.h"
#include "ic_internal.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

/* Elements of buffer buf's datatype in `count` schedule units (see
 * ic_binding_t.ubytes). */
static size_t elems(const ic_binding_t *b, int buf, size_t count)
{
    return b->ubytes[buf] ? count * b->ubytes[buf] / (size_t)b->size[buf] : count;
}

static void *addr(const ic_binding_t *b, const ic_region_t *r)
{
    return (char *)b->base[r->buf] + (MPI_Aint)elems(b, r->buf, r->off) * b->extent[r->buf];
}

/* Room for n requests, and for n messages through shared memory. */
static int reqs_reserve(ic_ctx_t *ctx, size_t n)
{
    if (n <= ctx->nreqs_cap)
        return 0;
    size_t cap = ctx->nreqs_cap ? ctx->nreqs_cap : 8;
    while (cap < n)
        cap *= 2;
    MPI_Request *r = realloc(ctx->reqs, cap * sizeof(*r));
    if (!r)
        return -1;
    ctx->reqs = r;
    ic_shm_op_t *o = realloc(ctx->shm_ops, cap * sizeof(*o));
    if (!o)
        return -1;
    ctx->shm_ops = o;
    if (ic_trace_on()) {
        ic_trace_msg_t *t = realloc(ctx->tmsg, cap * sizeof(*t));
        if (!t)
            return -1;
        ctx->tmsg = t;
        int *x = realloc(ctx->tidx, cap * sizeof(*x));
        if (!x)
            return -1;
        ctx->tidx = x;
    }
    ctx->nreqs_cap = cap;
    return 0;
}

/* MPI_Waitall or, with flag, MPI_Testall, without statuses.  GCC 12 takes
 * MPICH's MPI_STATUSES_IGNORE, ((MPI_Status *)1), for an array of size 0
 * and warns (-Wstringop-overflow); it is MPI's sentinel, never written
 * through.  (shm.c tests its rounds' MPI requests with it.) */
int ic_complete_all(ic_ctx_t *ctx, int n, MPI_Request *reqs, int *flag)
{
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
    if (!ctx->tmsg || !ic_trace_on())
        return flag ? MPI_Testall(n, reqs, flag, MPI_STATUSES_IGNORE)
                    : MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
    /* tracing: each message's completion time (MPI_Waitany, not
     * MPI_Waitsome: SimGrid's SMPI charges every MPI_Test* and
     * MPI_Waitsome simulated time, smpi/test, which doubled a 64-rank
     * allreduce's simulated time) */
    for (int i = 0; !flag && i < n; i++) {
        int at = MPI_UNDEFINED, rc = MPI_Waitany(n, reqs, &at, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
        if (at == MPI_UNDEFINED)
            break;
        ctx->tmsg[at].t1 = MPI_Wtime();
    }
    for (; flag;) {
        int out = 0, rc = MPI_Testsome(n, reqs, &out, ctx->tidx, MPI_STATUSES_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
        if (out == MPI_UNDEFINED) { /* none active: all complete */
            *flag = 1;
            return MPI_SUCCESS;
        }
        double now = MPI_Wtime();
        for (int i = 0; i < out; i++)
            ctx->tmsg[ctx->tidx[i]].t1 = now;
        if (out == 0) {
            *flag = 0;
            return MPI_SUCCESS;
        }
    }
    return MPI_SUCCESS;
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic pop
#endif
}

/* Schedule units of buffer `buf` per piece of a message when messages are
 * cut into pieces of at most `chunk` bytes (at least one unit); SIZE_MAX
 * when they are not cut (chunk 0, or a datatype of size 0). */
static size_t piece_elems(const ic_binding_t *b, int buf, size_t chunk)
{
    size_t sz = b->ubytes[buf] ? b->ubytes[buf] : b->size[buf] > 0 ? (size_t)b->size[buf] : 0;
    if (!chunk || !sz)
        return SIZE_MAX;
    return chunk / sz ? chunk / sz : 1;
}

/* Action a's regions cut into pieces whose element counts MPI's int
 * arguments hold (IC_MSG_MAX bytes each): a local action on more than
 * INT_MAX elements runs as several calls.  Sets *e, the units per piece,
 * and returns the number of pieces. */
static size_t local_pieces(const ic_binding_t *b, const ic_action_t *a, size_t *e)
{
    size_t es = piece_elems(b, a->src.buf, IC_MSG_MAX);
    size_t ed = piece_elems(b, a->dst.buf, IC_MSG_MAX);
    *e = es < ed ? es : ed;
    if (*e == SIZE_MAX || a->src.count <= *e || a->src.count != a->dst.count) {
        *e = a->src.count;
        return 1;
    }
    return a->src.count / *e + (a->src.count % *e != 0);
}

/* Piece j (e units each) of action a. */
static ic_action_t local_piece(const ic_action_t *a, size_t j, size_t e)
{
    ic_action_t p = *a;
    size_t off = j * e;
    size_t n = a->src.count - off < e ? a->src.count - off : e;
    p.src.off += off;
    p.dst.off += off;
    p.src.count = p.dst.count = n;
    return p;
}

static int do_reduce(ic_ctx_t *ctx, const ic_binding_t *b, const ic_action_t *a, MPI_Op op,
                     int commutative)
{
    if (a->src.count == 0)
        return MPI_SUCCESS;
    if (elems(b, a->src.buf, a->src.count) > INT_MAX)
        return MPI_ERR_COUNT; /* local_pieces() cuts them */
    void *src = addr(b, &a->src);
    void *dst = addr(b, &a->dst);
    MPI_Datatype t = b->type[a->dst.buf];
    int n = (int)elems(b, a->src.buf, a->src.count);
    /* MPI_Reduce_local(in, inout): inout = in (op) inout. */
    if (a->src_first || commutative)
        return MPI_Reduce_local(src, dst, n, t, op);
    /* dst = dst (op) src: compute into src, then move it to dst. */
    int rc = MPI_Reduce_local(dst, src, n, t, op);
    if (rc != MPI_SUCCESS)
        return rc;
    return ic_typed_copy(ctx, src, elems(b, a->src.buf, a->src.count), b->type[a->src.buf],
                         b->contiguous[a->src.buf], b->size[a->src.buf], dst,
                         elems(b, a->dst.buf, a->dst.count), t, b->contiguous[a->dst.buf]);
}

/* Post piece j of the round's messages: receives first, so early senders
 * find them posted.  Piece j of a message of c elements, e per piece, is
 * elements [j e, min(c, (j+1) e)); a message has max(1, ceil(c / e))
 * pieces (a 0-element message is one, a barrier is made of them).  Sender
 * and receiver cut alike: a call's messages are in the same units on every
 * rank (bytes for the data movements, the common datatype for the
 * reductions; api.c). */
static int post_piece(ic_ctx_t *ctx, const ic_binding_t *b, const ic_action_t *acts, size_t n,
                      size_t j, size_t chunk, size_t *k, size_t *nshm)
{
    int rc = MPI_SUCCESS, tracing = ctx->tmsg && ic_trace_on();
    for (int pass = 0; pass < 2 && rc == MPI_SUCCESS; pass++) {
        ic_act_kind_t kind = pass ? IC_ACT_SEND : IC_ACT_RECV;
        for (size_t i = 0; i < n && rc == MPI_SUCCESS; i++) {
            const ic_action_t *a = &acts[i];
            if (a->kind != kind)
                continue;
            ic_region_t r = pass ? a->src : a->dst;
            size_t e = piece_elems(b, r.buf, chunk);
            size_t off = e == SIZE_MAX ? 0 : j * e;
            if (j > 0 && off >= r.count)
                continue; /* this message has fewer pieces */
            size_t c = r.count - off < e ? r.count - off : e;
            c = elems(b, r.buf, c);
            if (c > INT_MAX)
                return MPI_ERR_COUNT;
            r.off += off;
            size_t bytes = c * (size_t)(b->size[r.buf] > 0 ? b->size[r.buf] : 0);
            if (ctx->shm && ic_shm_peer(ctx, a->peer, bytes)) {
                ic_shm_op_t *o = &ctx->shm_ops[(*nshm)++];
                o->send = pass;
                o->peer = a->peer;
                o->buf = addr(b, &r);
                o->n = c;
                o->type = b->type[r.buf];
                o->contig = b->contiguous[r.buf];
                o->size = b->size[r.buf];
                o->bytes = bytes;
                o->t0 = tracing ? MPI_Wtime() : 0;
                ic_shm_number(ctx, o);
                continue;
            }
            if (tracing) {
                ic_trace_msg_t *t = &ctx->tmsg[*k];
                t->t0 = MPI_Wtime();
                t->t1 = t->t0;
                t->bytes = bytes;
                t->kind = pass ? IC_ACT_SEND : IC_ACT_RECV;
                t->peer = a->peer;
            }
            if (pass)
                rc = MPI_Isend(addr(b, &r), (int)c, b->type[r.buf], a->peer, IC_TAG, ctx->comm,
                               &ctx->reqs[*k]);
            else
                rc = MPI_Irecv(addr(b, &r), (int)c, b->type[r.buf], a->peer, IC_TAG, ctx->comm,
                               &ctx->reqs[*k]);
            if (rc == MPI_SUCCESS) /* a failed call made no request */
                (*k)++;
        }
    }
    return rc;
}

/* INTERCOM_TRACE: the records of a piece's k MPI and nshm channel
 * messages, now complete. */
static void trace_piece(const ic_ctx_t *ctx, size_t k, size_t nshm)
{
    for (size_t i = 0; i < k; i++) {
        const ic_trace_msg_t *t = &ctx->tmsg[i];
        ic_trace_record(t->kind, ctx->world ? ctx->world[t->peer] : t->peer, t->bytes, t->t0,
                        t->t1);
    }
    for (size_t i = 0; i < nshm; i++) {
        const ic_shm_op_t *o = &ctx->shm_ops[i];
        ic_trace_record(o->send ? IC_ACT_SEND : IC_ACT_RECV,
                        ctx->world ? ctx->world[o->peer] : o->peer, o->bytes, o->t0, o->t1);
    }
}

/* Cancel and free the requests among reqs[0, k) that are still active
 * (those a failed post or wait left behind; completed ones are
 * MPI_REQUEST_NULL). */
static void drop_requests(MPI_Request *reqs, size_t k)
{
    for (size_t i = 0; i < k; i++)
        if (reqs[i] != MPI_REQUEST_NULL) {
            MPI_Cancel(&reqs[i]);
            MPI_Request_free(&reqs[i]);
        }
}

/* The round's messages: all at once, or, when some are longer than
 * ctx->chunk bytes, in lock-step sub-rounds of one piece of each message
 * (see the file's comment). */
static int communicate(ic_ctx_t *ctx, const ic_binding_t *b, const ic_action_t *acts, size_t n)
{
    size_t ncomm = 0, npieces = 1, chunk = ic_piece_bytes(ctx->chunk);
    for (size_t i = 0; i < n; i++) {
        const ic_action_t *a = &acts[i];
        if (a->kind != IC_ACT_SEND && a->kind != IC_ACT_RECV)
            continue;
        ncomm++;
        const ic_region_t *r = a->kind == IC_ACT_SEND ? &a->src : &a->dst;
        size_t e = piece_elems(b, r->buf, chunk);
        if (e != SIZE_MAX && r->count / e + (r->count % e != 0) > npieces)
            npieces = r->count / e + (r->count % e != 0);
    }
    if (!ncomm)
        return MPI_SUCCESS;
    if (reqs_reserve(ctx, ncomm))
        return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS;
    size_t k = 0;
    for (size_t j = 0; j < npieces && rc == MPI_SUCCESS; j++) {
        size_t nshm = 0;
        k = 0;
        rc = post_piece(ctx, b, acts, n, j, npieces > 1 ? chunk : 0, &k, &nshm);
        if (rc == MPI_SUCCESS && nshm)
            rc = ic_shm_progress(ctx, ctx->shm_ops, nshm, ctx->reqs, (int)k);
        else if (rc == MPI_SUCCESS)
            rc = ic_complete_all(ctx, (int)k, ctx->reqs, NULL);
        if (rc == MPI_SUCCESS && ctx->tmsg && ic_trace_on())
            trace_piece(ctx, k, nshm);
    }
    if (rc != MPI_SUCCESS) /* do not leave requests behind */
        drop_requests(ctx->reqs, k);
    return rc;
}

static int do_copy(ic_ctx_t *ctx, const ic_binding_t *b, const ic_action_t *a)
{
    return ic_typed_copy(ctx, addr(b, &a->src), elems(b, a->src.buf, a->src.count),
                         b->type[a->src.buf], b->contiguous[a->src.buf], b->size[a->src.buf],
                         addr(b, &a->dst), elems(b, a->dst.buf, a->dst.count), b->type[a->dst.buf],
                         b->contiguous[a->dst.buf]);
}

int ic_exec(ic_ctx_t *ctx, const ic_sched_t *s, const ic_binding_t *b, MPI_Op op, int commutative)
{
    int rc = MPI_SUCCESS, tracing = ic_trace_on();
    for (size_t r = 0; r < s->nrounds && rc == MPI_SUCCESS; r++) {
        size_t n;
        const ic_action_t *acts = ic_sched_round_acts(s, r, &n);
        if ((rc = communicate(ctx, b, acts, n)) != MPI_SUCCESS)
            return rc;
        for (size_t i = 0; i < n && rc == MPI_SUCCESS; i++) {
            const ic_action_t *a = &acts[i];
            if (a->kind != IC_ACT_REDUCE && a->kind != IC_ACT_COPY)
                continue;
            if (a->kind == IC_ACT_REDUCE && op == MPI_OP_NULL)
                continue; /* a call that only keeps the others' protocol whole */
            size_t e, np = local_pieces(b, a, &e);
            double t0 = tracing ? MPI_Wtime() : 0;
            for (size_t j = 0; j < np && rc == MPI_SUCCESS; j++) {
                ic_action_t p = np > 1 ? local_piece(a, j, e) : *a;
                rc = p.kind == IC_ACT_REDUCE ? do_reduce(ctx, b, &p, op, commutative)
                                             : do_copy(ctx, b, &p);
            }
            if (tracing)
                ic_trace_record(a->kind, -1,
                                elems(b, a->dst.buf, a->dst.count) *
                                    (size_t)(b->size[a->dst.buf] > 0 ? b->size[a->dst.buf] : 0),
                                t0, MPI_Wtime());
        }
    }
    return rc;
}
