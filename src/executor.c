/*
 * executor.c -- runs a schedule over MPI point-to-point.
 *
 * Per round: post every receive (MPI_Irecv), then every send (MPI_Isend),
 * wait for all, then apply the round's local actions in order: REDUCE with
 * MPI_Reduce_local, COPY with memcpy or, for non-contiguous or differing
 * datatypes, a typed copy through MPI.  (A pipelined chain's blocking
 * call runs as a dataflow instead, each action as soon as what it depends
 * on is done: "Dataflow" below.)  Messages of 0
 * elements are sent (a barrier is made of them).  All library traffic
 * uses the context's private communicator and one tag; MPI's
 * non-overtaking rule orders the messages between two ranks, which is how
 * schedules are written.  Before the first
 * round and after the last, the call's packing and unpacking steps
 * (ic_steps_t) run as local actions of their own.
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
#include <string.h>

/* Unagreed schedules (below): under SimGrid's SMPI, which charges every
 * probe simulated time (smpi/iprobe, 100 us by default: a gatherv's root
 * at p = 16 paid 1.5 ms where the vendor's call took 65 us), the receives
 * go in place at once and are checked once complete, as MPI's own
 * receives are: there a message of another length than its count may
 * leave the receive buffer partly written (and a longer one is SMPI's
 * truncation error). */
#ifdef SMPI_H
#define IC_PROBE_FIRST 0
#else
#define IC_PROBE_FIRST 1
#endif

/* Elements of buffer buf's datatype in `count` schedule units (see
 * ic_binding_t.ubytes). */
static size_t elems(const ic_binding_t *b, int buf, size_t count)
{
    return b->at[buf].ubytes ? count * b->at[buf].ubytes / (size_t)b->at[buf].size : count;
}

/* Bytes of `count` schedule units of buffer buf (0 for a datatype of
 * size 0). */
static size_t region_bytes(const ic_binding_t *b, int buf, size_t count)
{
    return elems(b, buf, count) * (size_t)(b->at[buf].size > 0 ? b->at[buf].size : 0);
}

/* Bytes from region r's buffer base to its first element. */
static MPI_Aint offset_of(const ic_binding_t *b, const ic_region_t *r)
{
    return (MPI_Aint)elems(b, r->buf, r->off) * b->at[r->buf].extent;
}

/* A buffer of absolute addresses is bound at MPI_BOTTOM or below it
 * (ic_shift). */
static void *addr(const ic_binding_t *b, const ic_region_t *r)
{
    return ic_shift(b->at[r->buf].base, offset_of(b, r));
}

/* Room for n requests, and for n messages through shared memory: in the
 * context's arrays (a blocking call) or in the call's own (x->nb). */
static int grow(void **p, size_t *cap, size_t n, size_t each)
{
    if (n <= *cap)
        return 0;
    size_t c = *cap ? *cap : 8;
    while (c < n)
        c *= 2;
    void *q = realloc(*p, c * each);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

/* Room for n statuses and n receives to probe (unagreed schedules). */
static int grow_probes(MPI_Status **stats, ic_probe_t **probes, size_t *cap, size_t n)
{
    size_t c = *cap;
    if (grow((void **)stats, &c, n, sizeof(MPI_Status)))
        return -1;
    c = *cap;
    if (grow((void **)probes, &c, n, sizeof(ic_probe_t)))
        return -1;
    *cap = c;
    return 0;
}

static int reqs_reserve(ic_exec_t *x, size_t n)
{
    if (x->nb) {
        if (x->lane != IC_LANE_NONE && grow((void **)&x->shm_ops, &x->scap, n, sizeof(ic_shm_op_t)))
            return -1;
        if (x->s->unagreed && grow_probes(&x->stats, &x->probes, &x->stcap, n))
            return -1;
        return grow((void **)&x->reqs, &x->cap, n, sizeof(MPI_Request));
    }
    ic_ctx_t *ctx = x->ctx;
    if (x->s->unagreed && grow_probes(&ctx->stats, &ctx->probes, &ctx->stats_cap, n))
        return -1;
    x->stats = ctx->stats;
    x->probes = ctx->probes;
    if (n > ctx->nreqs_cap) {
        size_t c = ctx->nreqs_cap, c2 = c, c3 = c, c4 = c;
        if (grow((void **)&ctx->reqs, &c, n, sizeof(MPI_Request)) ||
            grow((void **)&ctx->shm_ops, &c2, n, sizeof(ic_shm_op_t)))
            return -1;
        if (ic_trace_on() && (grow((void **)&ctx->tmsg, &c3, n, sizeof(ic_trace_msg_t)) ||
                              grow((void **)&ctx->tidx, &c4, n, sizeof(int))))
            return -1;
        ctx->nreqs_cap = c;
    }
    x->reqs = ctx->reqs;
    x->shm_ops = ctx->shm_ops;
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
    if (!ctx || !ctx->tmsg || !ic_trace_on())
        return flag ? PMPI_Testall(n, reqs, flag, MPI_STATUSES_IGNORE)
                    : PMPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
    /* tracing: each message's completion time (MPI_Waitany, not
     * MPI_Waitsome: SimGrid's SMPI charges every MPI_Test* and
     * MPI_Waitsome simulated time, smpi/test, which doubled a 64-rank
     * allreduce's simulated time) */
    for (int i = 0; !flag && i < n; i++) {
        int at = MPI_UNDEFINED, rc = PMPI_Waitany(n, reqs, &at, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
        if (at == MPI_UNDEFINED)
            break;
        ctx->tmsg[at].t1 = MPI_Wtime();
    }
    for (; flag;) {
        int out = 0, rc = PMPI_Testsome(n, reqs, &out, ctx->tidx, MPI_STATUSES_IGNORE);
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

/* Bytes of one schedule unit of buffer buf (0: a datatype of size 0). */
static size_t unit_bytes(const ic_binding_t *b, int buf)
{
    return b->at[buf].ubytes     ? b->at[buf].ubytes
           : b->at[buf].size > 0 ? (size_t)b->at[buf].size
                                 : 0;
}

/* Does a region of `count` units of buffer buf go as one piece of at most
 * `chunk` bytes (chunk 0: messages are not cut)?  count <= chunk / size,
 * without the division: the short messages of most calls then cost none
 * (a 64-bit division takes tens of cycles, several a call). */
static int whole_piece(const ic_binding_t *b, int buf, size_t count, size_t chunk)
{
    size_t sz = unit_bytes(b, buf);
    return !chunk || !sz || (count <= chunk && count * sz <= chunk);
}

/* Schedule units of buffer `buf` per piece of a message when messages are
 * cut into pieces of at most `chunk` bytes (at least one unit); SIZE_MAX
 * when they are not cut (chunk 0, or a datatype of size 0). */
static size_t piece_elems(const ic_binding_t *b, int buf, size_t chunk)
{
    size_t sz = unit_bytes(b, buf);
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
    if (a->src.count != a->dst.count || (whole_piece(b, a->src.buf, a->src.count, IC_MSG_MAX) &&
                                         whole_piece(b, a->dst.buf, a->src.count, IC_MSG_MAX))) {
        *e = a->src.count;
        return 1;
    }
    size_t es = piece_elems(b, a->src.buf, IC_MSG_MAX);
    size_t ed = piece_elems(b, a->dst.buf, IC_MSG_MAX);
    *e = es < ed ? es : ed;
    if (*e == SIZE_MAX || a->src.count <= *e) {
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

/* ns elements of src's buffer bs to nd of dst's, bd (as reduce_at below). */
static int copy_at(ic_ctx_t *ctx, const void *src, size_t ns, const ic_bound_t *bs, void *dst,
                   size_t nd, const ic_bound_t *bd)
{
    return ic_typed_copy(ctx, src, ns, bs->type, bs->contiguous, bs->size, dst, nd, bd->type,
                         bd->contiguous);
}

/* dst = src (op) dst or, unless src_first, dst (op) src: ns elements of
 * src's buffer bs (reduced as elements of dst's datatype) and nd of dst's,
 * bd. */
static int reduce_at(ic_ctx_t *ctx, void *src, size_t ns, const ic_bound_t *bs, void *dst,
                     size_t nd, const ic_bound_t *bd, MPI_Op op, int src_first)
{
    if (ns > INT_MAX)
        return MPI_ERR_COUNT; /* local_pieces() cuts them */
    /* MPI_Reduce_local(in, inout): inout = in (op) inout. */
    if (src_first)
        return MPI_Reduce_local(src, dst, (int)ns, bd->type, op);
    /* dst = dst (op) src: compute into src, then move it to dst. */
    int rc = MPI_Reduce_local(dst, src, (int)ns, bd->type, op);
    if (rc != MPI_SUCCESS)
        return rc;
    return copy_at(ctx, src, ns, bs, dst, nd, bd);
}

static int do_reduce(ic_ctx_t *ctx, const ic_binding_t *b, const ic_action_t *a, MPI_Op op,
                     int commutative)
{
    if (a->src.count == 0)
        return MPI_SUCCESS;
    return reduce_at(ctx, addr(b, &a->src), elems(b, a->src.buf, a->src.count), &b->at[a->src.buf],
                     addr(b, &a->dst), elems(b, a->dst.buf, a->dst.count), &b->at[a->dst.buf], op,
                     a->src_first || commutative);
}

/* Does a message of `bytes` bytes to or from peer go through a channel?
 * An unagreed schedule's do whatever their length (shm.c: "Unagreed
 * messages"). */
static int to_channel(const ic_exec_t *x, int peer, size_t bytes)
{
    if (x->lane == IC_LANE_NONE || !x->ctx->shm)
        return 0;
    return x->s->unagreed ? ic_shm_local(x->ctx, peer) : ic_shm_peer(x->ctx, peer, x->lane, bytes);
}

/* Piece j of the message of action a (a send or a receive) when messages
 * go in pieces of at most chunk bytes: its region *r and its *c elements
 * of r's datatype; 0 when the message has fewer pieces.  Piece j of a
 * message of c elements, e per piece, is elements [j e, min(c, (j+1) e));
 * a message has max(1, ceil(c / e)) pieces (a 0-element message is one, a
 * barrier is made of them). */
static int piece_of(const ic_binding_t *b, const ic_action_t *a, size_t j, size_t chunk,
                    ic_region_t *r, size_t *c)
{
    *r = a->kind == IC_ACT_SEND ? a->src : a->dst;
    size_t e = piece_elems(b, r->buf, chunk);
    size_t off = e == SIZE_MAX ? 0 : j * e;
    if (j > 0 && off >= r->count)
        return 0;
    *c = elems(b, r->buf, r->count - off < e ? r->count - off : e);
    r->off += off;
    return 1;
}

/*
 * Replay.  A blocking call repeated with the same arguments (call.c, "The
 * last call again") runs the same schedule on the same buffers, so its
 * rounds cut the same pieces, send and receive the same regions and counts
 * through the same channels or MPI, and reduce and copy at the same
 * addresses: working that out again was most of a short call's executor
 * time (an 8-byte gather's root at p = 2: 1200 instructions a call in
 * ic_exec, of the 1600 of the whole repeat; compiled, 760 of 1150).  So
 * such a run is compiled at its first repeat: per round its messages as
 * post_piece would post them (a channel message's op, an MPI message's
 * region, count and datatype) and its local actions' regions and element
 * counts, each address as an offset from its buffer's base (the scratch
 * buffers are bound anew for every run); each repeat then posts, waits
 * and runs them in the same order as ic_exec (an unagreed round's checks
 * of lengths included).  Only a schedule that runs round by round in
 * whole messages: not a dataflow (run_flow), no message in pieces, no
 * local action in pieces, and no unagreed receive through MPI (probed
 * before it is posted).
 */
typedef struct rp_msg {
    int send, peer, buf, count;
    MPI_Aint off; /* bytes from its buffer's base */
    int shm;      /* through a channel: op (its buf set at each run) */
    ic_shm_op_t op;
} rp_msg_t;

typedef struct rp_local {
    ic_act_kind_t kind;
    int src_first; /* a reduction's order (do_reduce) */
    int sbuf, dbuf;
    MPI_Aint soff, doff;
    size_t ns, nd; /* elements of each buffer's datatype */
} rp_local_t;

typedef struct rp_round {
    const ic_action_t *acts; /* the schedule's (an unagreed round checks them) */
    size_t n, nmsg, nloc;
} rp_round_t;

struct ic_replay {
    const ic_sched_t *s;
    size_t maxmsg;
    rp_round_t *rounds; /* s->nrounds */
    rp_msg_t *msgs;
    rp_local_t *locs;
    size_t nmsgs, nlocs, msgcap, loccap;
};

static void *at_offset(const ic_binding_t *b, int buf, MPI_Aint off)
{
    return ic_shift(b->at[buf].base, off);
}

/* ic_replay_build: record the message post_piece was about to post (o: a
 * channel's). */
static int record_msg(ic_exec_t *x, int send, int peer, const ic_region_t *r, size_t c,
                      const ic_shm_op_t *o)
{
    ic_replay_t *rp = x->rec;
    if (grow((void **)&rp->msgs, &rp->msgcap, rp->nmsgs + 1, sizeof(rp_msg_t)))
        return MPI_ERR_NO_MEM;
    rp_msg_t *m = &rp->msgs[rp->nmsgs++];
    memset(m, 0, sizeof(*m));
    m->send = send;
    m->peer = peer;
    m->buf = r->buf;
    m->off = offset_of(x->b, r);
    m->count = (int)c;
    if ((m->shm = o != NULL))
        m->op = *o;
    return MPI_SUCCESS;
}

/* Whether round acts (n actions) receives from peer: its sends to peer
 * then are an exchange (shm.c: "Long messages, one copy or through MPI"). */
static int receives_from(const ic_action_t *acts, size_t n, int peer)
{
    for (size_t i = 0; i < n; i++)
        if (acts[i].kind == IC_ACT_RECV && acts[i].peer == peer)
            return 1;
    return 0;
}

/* Post piece j of the round's messages: receives first, so early senders
 * find them posted; pieces as piece_of() cuts them.  Sender and receiver
 * cut alike: a call's messages are in the same units on every rank (bytes
 * for the data movements, the common datatype for the reductions;
 * collectives.c).  An unagreed schedule's receives through MPI are not
 * posted here: learn_lengths() probes them first. */
static int post_piece(ic_exec_t *x, const ic_action_t *acts, size_t n, size_t j, size_t chunk,
                      size_t *k, size_t *nshm)
{
    ic_ctx_t *ctx = x->ctx;
    const ic_binding_t *b = x->b;
    int rc = MPI_SUCCESS, tracing = x->trace && ctx->tmsg;
    for (int pass = 0; pass < 2 && rc == MPI_SUCCESS; pass++) {
        ic_act_kind_t kind = pass ? IC_ACT_SEND : IC_ACT_RECV;
        for (size_t i = 0; i < n && rc == MPI_SUCCESS; i++) {
            const ic_action_t *a = &acts[i];
            if (a->kind != kind)
                continue;
            ic_region_t r;
            size_t c;
            if (!piece_of(b, a, j, chunk, &r, &c))
                continue; /* this message has fewer pieces */
            if (c > INT_MAX)
                return MPI_ERR_COUNT;
            size_t bytes = c * (size_t)(b->at[r.buf].size > 0 ? b->at[r.buf].size : 0);
            if (to_channel(x, a->peer, bytes)) {
                ic_shm_op_t *o = &x->shm_ops[(*nshm)++];
                o->unagreed = x->s->unagreed;
                o->stage = o->mismatch = o->take = o->via = o->direct = 0;
                o->len = 0;
                o->tag = x->tag;
                o->req = MPI_REQUEST_NULL;
                o->drain = NULL;
                o->send = pass;
                o->peer = a->peer;
                o->lane = x->lane;
                o->buf = addr(b, &r);
                o->n = c;
                o->type = b->at[r.buf].type;
                o->contig = b->at[r.buf].contiguous;
                o->size = b->at[r.buf].size;
                o->bytes = bytes;
                /* only a message longer than a channel's slots can hold
                 * (IC_SHM_LONG at least) asks */
                o->exch = pass && bytes > IC_SHM_LONG && receives_from(acts, n, a->peer);
                o->probe = -1;
                o->t0 = tracing ? MPI_Wtime() : 0;
                if (x->rec) { /* ic_replay_build: the message as posted */
                    rc = record_msg(x, pass, a->peer, &r, c, o);
                    (*nshm)--;
                    continue;
                }
                ic_shm_number(ctx, o);
                continue;
            }
            if (!pass && x->s->unagreed && IC_PROBE_FIRST) { /* probed first (learn_lengths) */
                x->probes[x->nprobe].act = i;
                x->probes[x->nprobe++].probed = 0;
                continue;
            }
            if (x->rec) {
                rc = record_msg(x, pass, a->peer, &r, c, NULL);
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
                rc = MPI_Isend(addr(b, &r), (int)c, b->at[r.buf].type, a->peer, x->tag, ctx->comm,
                               &x->reqs[*k]);
            else
                rc = MPI_Irecv(addr(b, &r), (int)c, b->at[r.buf].type, a->peer, x->tag, ctx->comm,
                               &x->reqs[*k]);
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
            PMPI_Request_free(&reqs[i]);
        }
}

/* A blocking call's wait for its piece while nonblocking calls of this
 * process are pending: MPI's progress rule says they move on meanwhile
 * (a rank may wait for one of them before its next blocking call while
 * another rank makes that call first and waits in it for the first one),
 * and only Open MPI's progress loop would run the engine inside
 * MPI_Waitall. */
static int wait_moving(ic_exec_t *x)
{
    for (;;) {
        int flag = 0;
        int rc = ic_complete_all(x->trace ? x->ctx : NULL, (int)x->k, x->reqs, &flag);
        if (rc != MPI_SUCCESS || flag)
            return rc;
        ic_progress();
    }
}

/* The messages of round x->round: all at once, or, when some are longer
 * than ctx->chunk bytes, in lock-step sub-rounds of one piece of each
 * message (see the file's comment).  Sets x->npieces, 0 when the round
 * sends and receives nothing. */
static int round_pieces(ic_exec_t *x, const ic_action_t *acts, size_t n)
{
    /* an unagreed schedule's messages go whole (up to IC_MSG_MAX): both
     * sides must cut them alike whatever their counts */
    size_t ncomm = 0, npieces = 1, chunk = ic_piece_bytes(x->s->unagreed ? 0 : x->ctx->chunk);
    for (size_t i = 0; i < n; i++) {
        const ic_action_t *a = &acts[i];
        if (a->kind != IC_ACT_SEND && a->kind != IC_ACT_RECV)
            continue;
        ncomm++;
        const ic_region_t *r = a->kind == IC_ACT_SEND ? &a->src : &a->dst;
        if (whole_piece(x->b, r->buf, r->count, chunk))
            continue; /* one piece */
        size_t e = piece_elems(x->b, r->buf, chunk);
        if (e != SIZE_MAX && r->count / e + (r->count % e != 0) > npieces)
            npieces = r->count / e + (r->count % e != 0);
    }
    x->npieces = ncomm ? npieces : 0;
    x->chunk = npieces > 1 ? chunk : 0;
    return ncomm && reqs_reserve(x, ncomm) ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

static int do_copy(ic_ctx_t *ctx, const ic_binding_t *b, const ic_action_t *a)
{
    return copy_at(ctx, addr(b, &a->src), elems(b, a->src.buf, a->src.count), &b->at[a->src.buf],
                   addr(b, &a->dst), elems(b, a->dst.buf, a->dst.count), &b->at[a->dst.buf]);
}

/* Does local action a run?  A reduction needs an op: a call without one
 * only keeps the others' protocol whole. */
static int runs_locally(const ic_action_t *a, MPI_Op op)
{
    return a->kind == IC_ACT_COPY || (a->kind == IC_ACT_REDUCE && op != MPI_OP_NULL);
}

/* The round's local actions, in order. */
static int local_actions(ic_exec_t *x, const ic_action_t *acts, size_t n)
{
    const ic_binding_t *b = x->b;
    int rc = MPI_SUCCESS, tracing = x->trace;
    for (size_t i = 0; i < n && rc == MPI_SUCCESS; i++) {
        const ic_action_t *a = &acts[i];
        if (!runs_locally(a, x->op))
            continue;
        size_t e, np = local_pieces(b, a, &e);
        double t0 = tracing ? MPI_Wtime() : 0;
        for (size_t j = 0; j < np && rc == MPI_SUCCESS; j++) {
            ic_action_t p = np > 1 ? local_piece(a, j, e) : *a;
            rc = p.kind == IC_ACT_REDUCE ? do_reduce(x->ctx, b, &p, x->op, x->commutative)
                                         : do_copy(x->ctx, b, &p);
        }
        if (tracing)
            ic_trace_record(a->kind, -1, region_bytes(b, a->dst.buf, a->dst.count), t0,
                            MPI_Wtime());
    }
    return rc;
}

/* Would a message of x's schedule go through the channels?  Pieces are
 * cut as round_pieces() and post_piece() cut them. */
static int uses_channels(const ic_exec_t *x)
{
    const ic_binding_t *b = x->b;
    size_t chunk = ic_piece_bytes(x->ctx->chunk);
    for (size_t r = 0; r < x->s->nrounds; r++) {
        size_t n, npieces = 1;
        const ic_action_t *acts = ic_sched_round_acts(x->s, r, &n);
        for (int pass = 0; pass < 2; pass++)
            for (size_t i = 0; i < n; i++) {
                const ic_action_t *a = &acts[i];
                if (a->kind != IC_ACT_SEND && a->kind != IC_ACT_RECV)
                    continue;
                const ic_region_t *g = a->kind == IC_ACT_SEND ? &a->src : &a->dst;
                size_t e = piece_elems(b, g->buf, chunk);
                size_t np = e == SIZE_MAX ? 1 : g->count / e + (g->count % e != 0);
                if (!pass) { /* count the round's pieces first */
                    npieces = np > npieces ? np : npieces;
                    continue;
                }
                size_t sz = (size_t)(b->at[g->buf].size > 0 ? b->at[g->buf].size : 0);
                size_t whole = elems(b, g->buf, g->count) * sz;
                if (npieces == 1 || e == SIZE_MAX) { /* sent whole */
                    if (ic_shm_peer(x->ctx, a->peer, x->lane, whole))
                        return 1;
                    continue;
                }
                size_t last = g->count % e ? g->count % e : e; /* the shortest piece */
                if (ic_shm_peer(x->ctx, a->peer, x->lane,
                                elems(b, g->buf, g->count < e ? g->count : last) * sz))
                    return 1;
            }
    }
    return 0;
}

/* Unagreed schedules (ic_sched_t.unagreed: each side counts a message
 * alone).  A receiver writes nothing of a round before it knows that every
 * message of the round is as long as its receive's count: its messages
 * through the channels tell their lengths in their slots (shm.c, "Unagreed
 * messages"), those through MPI are probed (MPI_Iprobe, or MPI_Probe when
 * nothing else needs moving on).  Then, all as long as their counts, each
 * message goes straight into place (MPI_Irecv, the slot copied out);
 * otherwise every one is taken into a buffer of its own and dropped, and
 * the round ends with MPI_ERR_TRUNCATE, the user's buffers as they were (a
 * piece's only receive, through a channel, decides alone as soon as it has
 * its length: complete_checked).  A message's length learnt first also
 * means that MPI never truncates one (MPICH would raise that on
 * MPI_COMM_WORLD's handler: MPI_Waitall reports it on no communicator).
 * Checked per piece: a message longer than IC_MSG_MAX bytes goes in pieces,
 * each probed, and a mismatch found in a later piece leaves the earlier
 * ones written.
 *
 * A probe, not a matched probe (MPI_Improbe): SimGrid's SMPI has no
 * MPI_Mprobe.  A probe names the message a receive by the same source and
 * tag then takes as long as no other receive can take it first: a round of
 * an unagreed schedule receives at most one message from each rank (the
 * linear gatherv and scatterv), and nothing else receives on the context's
 * communicator with the call's tag meanwhile (a blocking call's tag is the
 * communicator's, whose collectives MPI orders; a nonblocking call's is its
 * own). */

/* The j-th receive through MPI of piece x->piece: its action, region and
 * count. */
static const ic_action_t *mpi_recv(const ic_exec_t *x, const ic_action_t *acts, size_t j,
                                   ic_region_t *r, size_t *c)
{
    const ic_action_t *a = &acts[x->probes[j].act];
    return piece_of(x->b, a, x->piece, x->chunk, r, c) ? a : NULL;
}

/* Take the probed message from peer (its status st) into a buffer of its
 * own and drop it. */
static int drop_message(ic_exec_t *x, int peer, MPI_Status *st)
{
    int len = 0;
    char one;
    if (MPI_Get_count(st, MPI_PACKED, &len) != MPI_SUCCESS || len < 0)
        len = 0;
    char *buf = len > 0 ? malloc((size_t)len) : &one;
    if (!buf)
        return MPI_ERR_NO_MEM;
    int rc = MPI_Recv(buf, len, MPI_PACKED, peer, x->tag, x->ctx->comm, MPI_STATUS_IGNORE);
    if (buf != &one)
        free(buf);
    return rc;
}

/* The probed messages of the piece not received yet, dropped (a run that
 * failed: none may be left for a later receive to take). */
static void drop_probed(ic_exec_t *x)
{
    size_t n;
    const ic_action_t *acts = ic_sched_round_acts(x->s, x->round, &n);
    for (size_t j = 0; j < x->nprobe; j++) {
        ic_region_t r;
        size_t c;
        const ic_action_t *a = mpi_recv(x, acts, j, &r, &c);
        if (x->probes[j].probed && a)
            drop_message(x, a->peer, &x->stats[j]);
        x->probes[j].probed = 0;
    }
}

/* Every length of the piece: *flag 0 when some is not known yet (block:
 * wait for them all). */
static int learn_lengths(ic_exec_t *x, int block, int *flag, const ic_action_t *acts)
{
    ic_ctx_t *ctx = x->ctx;
    int idle = 0, rc;
    for (;;) {
        int known = 1, moved = 0, all;
        if (x->nshm && (rc = ic_shm_poll(ctx, x->shm_ops, x->nshm, &all)) != MPI_SUCCESS)
            return rc;
        for (size_t i = 0; i < x->nshm; i++) {
            const ic_shm_op_t *o = &x->shm_ops[i];
            if (!o->send && !o->done && o->stage == 0)
                known = 0;
        }
        /* blocking, with nothing else to move on: wait in MPI for each */
        int wait = block && !x->nshm && !(ic_npending && !ic_progress_busy());
        for (size_t j = 0; j < x->nprobe; j++) {
            if (x->probes[j].probed)
                continue;
            ic_region_t r;
            size_t c = 0;
            const ic_action_t *a = mpi_recv(x, acts, j, &r, &c);
            int got = 0, f = 1;
            if (!a)
                return MPI_ERR_INTERN;
            rc = wait ? MPI_Probe(a->peer, x->tag, ctx->comm, &x->stats[j])
                      : MPI_Iprobe(a->peer, x->tag, ctx->comm, &f, &x->stats[j]);
            if (rc != MPI_SUCCESS)
                return rc;
            if (!f) {
                known = 0;
                continue;
            }
            x->probes[j].probed = 1;
            moved = 1;
            if (MPI_Get_count(&x->stats[j], x->b->at[r.buf].type, &got) != MPI_SUCCESS ||
                got == MPI_UNDEFINED || (size_t)got != c)
                x->truncated = 1;
        }
        if (known)
            break;
        if (!block) {
            *flag = 0;
            return MPI_SUCCESS;
        }
        if (!x->nprobe && x->k && /* the round's own MPI sends move on */
            (rc = ic_complete_all(NULL, (int)x->k, x->reqs, &(int){0})) != MPI_SUCCESS)
            return rc;
        if (ic_npending) /* calls of this process pending: move them on too */
            ic_progress();
        if (!moved)
            ic_shm_idle(ctx, &idle);
    }
    *flag = 1;
    return MPI_SUCCESS;
}

/* Every length known: the piece's data into place, or every message
 * dropped when some is not as long as its receive's count. */
static int take_messages(ic_exec_t *x, const ic_action_t *acts)
{
    ic_ctx_t *ctx = x->ctx;
    for (size_t i = 0; i < x->nshm; i++)
        x->truncated |= !x->shm_ops[i].send && x->shm_ops[i].mismatch;
    for (size_t i = 0; i < x->nshm; i++)
        if (!x->shm_ops[i].send)
            x->shm_ops[i].take = x->truncated ? 2 : 1;
    int rc = MPI_SUCCESS, tracing = x->trace && ctx->tmsg;
    for (size_t j = 0; j < x->nprobe; j++) {
        ic_region_t r;
        size_t c = 0;
        const ic_action_t *a = mpi_recv(x, acts, j, &r, &c);
        int e;
        if (!a) {
            e = MPI_ERR_INTERN;
        } else if (x->truncated) {
            e = drop_message(x, a->peer, &x->stats[j]);
        } else {
            if (tracing) {
                ic_trace_msg_t *t = &ctx->tmsg[x->k];
                t->t0 = t->t1 = MPI_Wtime();
                t->bytes = c * (size_t)(x->b->at[r.buf].size > 0 ? x->b->at[r.buf].size : 0);
                t->kind = IC_ACT_RECV;
                t->peer = a->peer;
            }
            e = MPI_Irecv(addr(x->b, &r), (int)c, x->b->at[r.buf].type, a->peer, x->tag, ctx->comm,
                          &x->reqs[x->k]);
            if (e == MPI_SUCCESS)
                x->k++;
        }
        x->probes[j].probed = 0;
        if (rc == MPI_SUCCESS)
            rc = e;
    }
    x->known = 1;
    return rc;
}

/* Test each of reqs[0, k) still active into its own status: *flag 1 when
 * all are complete.  For SimGrid's SMPI (IC_PROBE_FIRST 0), whose
 * MPI_Testall completes and frees each request that is done even when
 * others are not, and gives a request completed by an earlier call an
 * empty status (of count 0): the status of a request that completed in
 * an earlier test is kept here. */
static int test_each(int k, MPI_Request *reqs, MPI_Status *stats, int *flag)
{
    *flag = 1;
    for (int i = 0; i < k; i++) {
        int f = 1;
        if (reqs[i] == MPI_REQUEST_NULL)
            continue; /* complete: stats[i] is its status */
        int rc = PMPI_Test(&reqs[i], &f, &stats[i]);
        if (rc != MPI_SUCCESS)
            return rc;
        *flag &= f;
    }
    return MPI_SUCCESS;
}

/* An unagreed schedule's piece: learn its lengths, take its messages
 * (above), then wait for its x->k requests (block) or test them, with
 * statuses, and its channel messages. */
static int complete_checked(ic_exec_t *x, int block, int *flag, const ic_action_t *acts, size_t n)
{
    int rc;
    *flag = 1;
    if (IC_PROBE_FIRST && !x->known && !x->nprobe) {
        /* one receive in the piece, through a channel (every receive
         * through MPI is probed first): no other length to wait for, so it
         * takes (or drops) its message at once */
        ic_shm_op_t *alone = NULL;
        size_t nrecv = 0;
        for (size_t i = 0; i < x->nshm; i++)
            if (!x->shm_ops[i].send && nrecv++ == 0)
                alone = &x->shm_ops[i];
        if (nrecv == 1 && !alone->take)
            alone->take = 3;
    }
    if (!x->known) {
        if ((rc = learn_lengths(x, block, flag, acts)) != MPI_SUCCESS || !*flag)
            return rc;
        if ((rc = take_messages(x, acts)) != MPI_SUCCESS)
            return rc;
    }
    int k = (int)x->k;
    if (x->nshm && (rc = ic_shm_progress(x->ctx, x->shm_ops, x->nshm, NULL, 0)) != MPI_SUCCESS)
        return rc;
    if (k == 0) /* the channels' messages only */
        rc = MPI_SUCCESS;
    else if (block && !(ic_npending && !ic_progress_busy()))
        rc = PMPI_Waitall(k, x->reqs, x->stats);
    else
        for (;;) { /* calls of this process pending: move them on too */
            rc = IC_PROBE_FIRST ? PMPI_Testall(k, x->reqs, flag, x->stats)
                                : test_each(k, x->reqs, x->stats, flag);
            if (rc != MPI_SUCCESS || *flag || !block)
                break;
            ic_progress();
        }
    if (rc != MPI_SUCCESS) {
        /* A request failed: the others may still be under way (Open MPI's
         * MPI_Waitall returns at once when one has failed before it
         * waits), and a message left unreceived would be taken by the next
         * call's receive: wait for each of them.  The first error, from
         * the statuses or the waits, is the answer. */
        int first = MPI_SUCCESS;
        for (int i = 0; i < k; i++) {
            int e = rc == MPI_ERR_IN_STATUS ? x->stats[i].MPI_ERROR : MPI_SUCCESS;
            if (e == MPI_ERR_PENDING || x->reqs[i] != MPI_REQUEST_NULL)
                e = PMPI_Wait(&x->reqs[i], MPI_STATUS_IGNORE);
            if (first == MPI_SUCCESS)
                first = e;
        }
        int cls = first;
        if (first != MPI_SUCCESS)
            MPI_Error_class(first, &cls);
        *flag = 1;
        return cls == MPI_ERR_TRUNCATE ? MPI_ERR_TRUNCATE : first != MPI_SUCCESS ? first : rc;
    }
    if (*flag && x->trace && x->ctx->tmsg) { /* INTERCOM_TRACE: complete now */
        double now = MPI_Wtime();
        for (int i = 0; i < k; i++)
            x->ctx->tmsg[i].t1 = now;
    }
    if (!*flag)
        return MPI_SUCCESS;
    /* SMPI (IC_PROBE_FIRST 0): the receives went in place; each must have
     * brought what its count says.  They are the first requests, in the
     * order of the round's RECV actions (post_piece).  A longer message
     * SMPI takes as far as the count and marks MPI_ERR_TRUNCATE in the
     * status alone (its MPI_Test and MPI_Testall return MPI_SUCCESS), with
     * the count of the receive. */
    for (size_t i = 0, j = 0; !IC_PROBE_FIRST && !x->truncated && x->npieces == 1 && i < n; i++) {
        const ic_action_t *a = &acts[i];
        int got = MPI_UNDEFINED;
        if (a->kind != IC_ACT_RECV || to_channel(x, a->peer, 0))
            continue;
        const MPI_Status *st = &x->stats[j++];
        MPI_Get_count(st, x->b->at[a->dst.buf].type, &got);
        if (st->MPI_ERROR != MPI_SUCCESS || got == MPI_UNDEFINED ||
            (size_t)got != elems(x->b, a->dst.buf, a->dst.count))
            x->truncated = 1;
    }
    return x->truncated ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}

static inline void exec_begin(ic_exec_t *x, ic_ctx_t *ctx, const ic_sched_t *s,
                              const ic_binding_t *b, const ic_steps_t *steps, MPI_Op op,
                              int commutative, int tag, int nb, int lane)
{
    x->ctx = ctx;
    x->s = s;
    x->b = b;
    if (steps)
        x->steps = *steps;
    else
        x->steps.n = x->steps.npack = 0;
    x->packed = x->late = 0;
    x->op = op;
    x->commutative = commutative;
    x->tag = tag;
    x->nb = nb;
    /* an unagreed schedule's messages: those to the node's ranks through
     * the blocking lane's channels, a slot each whatever their lengths
     * (shm.c: "Unagreed messages"), the others through MPI, which matches
     * them whatever their lengths; a nonblocking call's through MPI */
    x->lane = ctx->shm && (!s->unagreed || (!nb && lane == IC_LANE_BLOCKING)) ? lane : IC_LANE_NONE;
    x->round = x->piece = x->k = x->nshm = 0;
    x->npieces = SIZE_MAX; /* the round's pieces are not counted yet */
    x->posted = 0;
    x->trace = !nb && ic_trace_on();
    if (!nb) {
        x->reqs = NULL;
        x->shm_ops = NULL;
        x->stats = NULL;
        x->probes = NULL;
        x->cap = x->scap = x->stcap = 0;
    }
    x->nprobe = 0;
    x->rec = NULL;
}

int ic_exec_begin(ic_exec_t *x, ic_ctx_t *ctx, const ic_sched_t *s, const ic_binding_t *b,
                  const ic_steps_t *steps, MPI_Op op, int commutative, int tag, int lane)
{
    exec_begin(x, ctx, s, b, steps, op, commutative, tag, 1, lane);
    if (x->lane == IC_LANE_NB && !uses_channels(x))
        x->lane = IC_LANE_NONE;
    return x->lane;
}

/* The packing steps (ic_steps_t): one that fails leaves zeros where it
 * was to write and its failure for the end of the run. */
static void pack_steps(ic_exec_t *x)
{
    for (size_t i = 0; i < x->steps.npack; i++) {
        const ic_action_t *a = &x->steps.acts[i];
        int rc = local_actions(x, a, 1);
        if (rc == MPI_SUCCESS)
            continue;
        const ic_binding_t *b = x->b;
        memset(addr(b, &a->dst), 0,
               elems(b, a->dst.buf, a->dst.count) * (size_t)b->at[a->dst.buf].size);
        if (!x->late)
            x->late = rc;
    }
    x->packed = 1;
}

/*
 * Dataflow.  In lock step a round's messages wait for every message of the
 * rounds before, and a message whose receive is not posted may not move
 * at all (so SimGrid's SMPI models every transfer, smpi/async-small-thresh
 * 0, and so does a rendezvous protocol): a chain that receives segment s
 * in round s pays a whole start-up and transfer per segment, and the two
 * chains of bidir_pipeline, which share each rank's rounds, pace each
 * other.  On the simulated Paragon a ring of 16 nodes broadcast 1 MiB in
 * segments of 8 KiB in 12 ms, 78 rounds of 152 us, where each direction's
 * link carries its 512 KiB in 2.8 ms.
 *
 * So a blocking call's schedule whose messages are all a stream's
 * (ic_sched_stream: the pipelined chains, whose rounds are a clock) and
 * go whole through MPI (none through a channel, none in pieces, no round
 * of more than IC_FLOW_ACTS actions) runs as a dataflow: each
 * action starts as soon as nothing it depends on is unfinished, among the
 * whole rounds from the first unfinished action that fit IC_FLOW_RING
 * actions.  Action j, before i in the schedule's order (rounds in turn;
 * in a round its messages, then its local actions in order), holds i back
 * when
 *   - j writes what i reads or writes, or reads what i writes (a send
 *     reads its source; a receive writes its destination; a copy reads
 *     its source and writes its destination; a reduction reads both and
 *     may write both); the messages of one round do not hold each other
 *     back;
 *   - both are sends to one peer, or receives from one peer, and j is not
 *     posted yet: MPI matches in posting order, so the schedule's order
 *     per peer and kind is kept;
 *   - both are receives from one peer and IC_FLOW_DEPTH such receives are
 *     under way (i then waits for the first of them): a receive posted is
 *     a transfer that may start, and transfers in flight together share
 *     the link (under SimGrid's fair sharing each of d segments that start
 *     together arrives after alpha + d m beta, so a chain forwards later;
 *     the stream's first segment goes in growing pieces, schedule.h, so
 *     that they do not: on the Paragon's 512 nodes, 1 MiB in segments of
 *     7296 B, depth 2 15.6 ms, 3 16.0, and with the pieces 15.0 and 14.1);
 *   - i is a message of no elements (a barrier's) and j is of an earlier
 *     round: such a message carries only the order of the rounds;
 *   - on a rank whose schedule sends but receives nothing (a broadcast's
 *     root: every send may start at once), where a tuning table measured
 *     one link for a rank's sends (cost.h: links; a torus node has several,
 *     and one window for them all starves them: on the simulated Paragon
 *     the 1 MiB broadcast of a 2-D bidir_pipeline plan went from 15.1 to
 *     18.7 ms with it), both are sends and j is not
 *     posted yet, or a send window's worth of them are under way
 *     (ic_cost_send_window for i's bytes under the start-up and rate a
 *     tuning table measured, ic_ctx_measured_cost; i then waits for the
 *     first of them).  Such a rank's sends are synchronous (MPI_Issend),
 *     so that one under way is one on the link.  Posted all at once, a
 *     source's sends share its link and each arrives about as late as the
 *     last: on the simulated modern cluster's 64 nodes the circulant
 *     graph's 1 MiB in 6 KiB blocks took 160 us, the root's first block
 *     116 us to arrive; in a window of 9 sends (the table's 2 us and
 *     11.8 GB/s) 134 us (7 to 9 sends as good, 4 158, 16 152; a window
 *     of 10 on every rank 140, and the reduce, the graph backwards, 2.3
 *     times slower).  Without measured figures every send goes at once: the
 *     built-in ones describe no machine in particular, and a window too
 *     short costs more than one too long (the same broadcast under the
 *     built-in figures, a window of 2: 253 us).
 * The user's send and receive buffers may be one, so a region of either
 * meets any of the other, unless the run finds the memory the schedule
 * touches in each apart (both bound to plain bytes: flow_apart); scratch
 * areas are the library's own.  (Taken as one, a reduce's root, which
 * receives into its result and reads its input, took one segment at a
 * time: on the simulated modern cluster's 64 nodes the two-tree reduce of
 * 1 MiB in 8 KiB segments ran 344 us, apart 241.)  A message
 * is posted (MPI_Isend, MPI_Irecv) when free, a local action runs; then
 * the run waits for any message (MPI_Waitany) and looks again.  No
 * schedule that completes in lock step can hang here: every action of a
 * round may start once the rounds before it are done, as in lock step,
 * except a receive the depth holds back, which waits for an earlier
 * receive from the same peer, whose message that peer sends without
 * waiting for anything this rank does later.
 *
 * Only streams: other schedules order their rounds on purpose (an MST
 * scatter's root sends the largest block first; as a dataflow it posts
 * them all at once, they share its link and the largest arrives last),
 * and on the simulated modern cluster (64 ranks, 1 MiB) the dataflow made
 * scatter_collect 1.19 times slower and bidir_scatter_collect 1.25, while
 * 2-D plans of them ran 1.07-1.08 times faster.
 */
#define IC_FLOW_ACTS 64  /* rounds of more actions: lock step              */
#define IC_FLOW_RING 256 /* actions in the window at most                  */
/* receives from one peer under way at most (schedule.h) */
#define IC_FLOW_DEPTH IC_STREAM_DEPTH
#define IC_FLOW_NONE SIZE_MAX

typedef struct flow_slot {
    double t0; /* INTERCOM_TRACE: when it was posted */
    size_t act, round;
    size_t blk;             /* the action that held it back last time ... */
    unsigned char blkstate; /* ... and that action's state then         */
    unsigned char state;    /* 0 waiting, 1 posted, 2 done              */
} flow_slot_t;

typedef struct flow {
    int apart;                    /* the user's send and receive buffers do not meet */
    const ic_cost_params_t *pace; /* a source's send window's model, or NULL */
    const ic_binding_t *b;
    flow_slot_t f[IC_FLOW_RING];
    MPI_Request reqs[IC_FLOW_RING]; /* the posted messages' requests ... */
    size_t slot[IC_FLOW_RING];      /* ... and their slots               */
    int nact;
} flow_t;

/* Does x's schedule run as a dataflow (above)? */
static int flow_ok(const ic_exec_t *x)
{
    const ic_sched_t *s = x->s;
    const ic_binding_t *b = x->b;
    if (x->nb || s->unagreed || s->nrounds < 2 || !s->nstream)
        return 0;
    size_t chunk = ic_piece_bytes(x->ctx->chunk), nmsg = 0;
    for (size_t r = 0; r < s->nrounds; r++) {
        size_t n;
        const ic_action_t *acts = ic_sched_round_acts(s, r, &n);
        if (n > IC_FLOW_ACTS)
            return 0;
        for (size_t i = 0; i < n; i++) {
            const ic_action_t *a = &acts[i];
            if (!ic_act_is_msg(a))
                continue;
            const ic_region_t *g = a->kind == IC_ACT_SEND ? &a->src : &a->dst;
            nmsg++;
            if (!whole_piece(b, g->buf, g->count, chunk) || elems(b, g->buf, g->count) > INT_MAX ||
                to_channel(x, a->peer, region_bytes(b, g->buf, g->count)))
                return 0;
        }
    }
    return nmsg == s->nstream;
}

/* May regions a and b (of one schedule) share memory?  Of one buffer when
 * they overlap; of two when neither is a scratch area and the user's two
 * buffers are not known apart. */
static int regions_meet(const ic_region_t *a, const ic_region_t *b, int apart)
{
    if (a->buf == b->buf)
        return ic_regions_overlap(a, b);
    return !apart && a->count && b->count && a->buf != IC_BUF_SCRATCH &&
           a->buf != IC_BUF_SCRATCH2 && b->buf != IC_BUF_SCRATCH && b->buf != IC_BUF_SCRATCH2;
}

/* The bytes [*lo, *hi) that x's schedule touches in buffer buf, bound to
 * plain bytes (else 0: not known); *lo == *hi when it touches none. */
static int touched(const ic_exec_t *x, int buf, uintptr_t *lo, uintptr_t *hi)
{
    const ic_binding_t *b = x->b;
    const ic_sched_t *s = x->s;
    *lo = UINTPTR_MAX;
    *hi = 0;
    for (size_t i = 0; i < s->nacts; i++) {
        const ic_action_t *a = &s->acts[i];
        const ic_region_t *r[2] = {&a->src, &a->dst};
        for (int k = a->kind == IC_ACT_RECV; k < (a->kind == IC_ACT_SEND ? 1 : 2); k++) {
            if ((int)r[k]->buf != buf || r[k]->count == 0)
                continue;
            if (!b->at[buf].contiguous)
                return 0;
            uintptr_t from = (uintptr_t)addr(b, r[k]);
            uintptr_t to = from + region_bytes(b, buf, r[k]->count);
            *lo = from < *lo ? from : *lo;
            *hi = to > *hi ? to : *hi;
        }
    }
    if (*lo > *hi)
        *lo = *hi = 0;
    return 1;
}

/* Are the user's send and receive buffers, as x's schedule touches them,
 * apart (above)? */
static int flow_apart(const ic_exec_t *x)
{
    uintptr_t slo, shi, rlo, rhi;
    if (!touched(x, IC_BUF_SEND, &slo, &shi) || !touched(x, IC_BUF_RECV, &rlo, &rhi))
        return 0;
    return slo == shi || rlo == rhi || shi <= rlo || rhi <= slo;
}

/* The regions action a reads (*nr of them) and writes (*nw), at most two each. */
static void accesses(const ic_action_t *a, const ic_region_t **rd, int *nr, const ic_region_t **wr,
                     int *nw)
{
    *nr = *nw = 0;
    if (a->kind != IC_ACT_RECV)
        rd[(*nr)++] = &a->src;
    if (a->kind == IC_ACT_REDUCE) { /* reads its destination, may write its source */
        rd[(*nr)++] = &a->dst;
        wr[(*nw)++] = &a->src;
    }
    if (a->kind != IC_ACT_SEND)
        wr[(*nw)++] = &a->dst;
}

/* Must i wait for j, which comes before it (above)? */
static int hazard(const ic_action_t *j, const ic_action_t *i, int apart)
{
    const ic_region_t *jr[2], *jw[2], *ir[2], *iw[2];
    int njr, njw, nir, niw;
    accesses(j, jr, &njr, jw, &njw);
    accesses(i, ir, &nir, iw, &niw);
    for (int u = 0; u < njw; u++) {
        for (int v = 0; v < nir; v++)
            if (regions_meet(jw[u], ir[v], apart))
                return 1;
        for (int v = 0; v < niw; v++)
            if (regions_meet(jw[u], iw[v], apart))
                return 1;
    }
    for (int u = 0; u < njr; u++)
        for (int v = 0; v < niw; v++)
            if (regions_meet(jr[u], iw[v], apart))
                return 1;
    return 0;
}

/* The action that holds back the waiting action i (above), the window
 * being actions lo to end - 1, or IC_FLOW_NONE: it may start. */
static size_t flow_blocker(const ic_sched_t *s, const flow_t *w, size_t lo, size_t end, size_t i)
{
    const flow_slot_t *f = w->f, *si = &f[i % IC_FLOW_RING];
    const ic_action_t *a = &s->acts[i];
    int msg = ic_act_is_msg(a), under_way = 0, sends = 0, window = 0;
    size_t first = IC_FLOW_NONE, sfirst = IC_FLOW_NONE; /* the first of them */
    if (w->pace && a->kind == IC_ACT_SEND)
        window = ic_cost_send_window(w->pace, region_bytes(w->b, a->src.buf, a->src.count));
    for (size_t j = lo; j < end; j++) {
        const flow_slot_t *sj = &f[j % IC_FLOW_RING];
        if (j == i || sj->state == 2)
            continue;
        if (sj->round > si->round)
            break;
        const ic_action_t *b = &s->acts[j];
        int bmsg = ic_act_is_msg(b);
        if (window && j < i && b->kind == IC_ACT_SEND) { /* a source's window */
            if (sj->state == 0)
                return j;
            if (!sends++)
                sfirst = j;
            if (sends >= window)
                return sfirst;
        }
        if (msg && bmsg && j < i && b->kind == a->kind && b->peer == a->peer) {
            if (sj->state == 0)
                return j; /* posted in the schedule's order */
            if (a->kind == IC_ACT_RECV && !under_way++)
                first = j;
            if (a->kind == IC_ACT_RECV && under_way >= IC_FLOW_DEPTH)
                return first; /* until the first of them is done */
        }
        if (sj->round == si->round) {
            if (msg || (!bmsg && j > i))
                continue; /* a round's messages together, its local actions after them */
        } else if (msg && (a->kind == IC_ACT_SEND ? a->src.count : a->dst.count) == 0) {
            return j; /* a barrier's message: after the rounds before it */
        }
        if (hazard(b, a, w->apart))
            return j;
    }
    return IC_FLOW_NONE;
}

/* Post or run the action of slot sl. */
static int flow_start(ic_exec_t *x, flow_t *w, flow_slot_t *sl)
{
    const ic_action_t *a = &x->s->acts[sl->act];
    const ic_binding_t *b = x->b;
    if (!ic_act_is_msg(a)) {
        sl->state = 2;
        return local_actions(x, a, 1);
    }
    const ic_region_t *r = a->kind == IC_ACT_SEND ? &a->src : &a->dst;
    int c = (int)elems(b, r->buf, r->count), rc;
    MPI_Request *q = &w->reqs[w->nact];
    sl->t0 = x->trace ? MPI_Wtime() : 0;
    if (a->kind == IC_ACT_SEND && w->pace)
        rc = MPI_Issend(addr(b, r), c, b->at[r->buf].type, a->peer, x->tag, x->ctx->comm, q);
    else if (a->kind == IC_ACT_SEND)
        rc = MPI_Isend(addr(b, r), c, b->at[r->buf].type, a->peer, x->tag, x->ctx->comm, q);
    else
        rc = MPI_Irecv(addr(b, r), c, b->at[r->buf].type, a->peer, x->tag, x->ctx->comm, q);
    if (rc != MPI_SUCCESS)
        return rc;
    sl->state = 1;
    w->slot[w->nact++] = (size_t)(sl - w->f);
    return MPI_SUCCESS;
}

/* INTERCOM_TRACE: slot sl's message, complete now. */
static void flow_trace(const ic_exec_t *x, const flow_slot_t *sl)
{
    const ic_action_t *a = &x->s->acts[sl->act];
    const ic_binding_t *b = x->b;
    const ic_region_t *r = a->kind == IC_ACT_SEND ? &a->src : &a->dst;
    ic_trace_record(a->kind, x->ctx->world ? x->ctx->world[a->peer] : a->peer,
                    region_bytes(b, r->buf, r->count), sl->t0, MPI_Wtime());
}

/* Wait for one posted message (or, calls of this process pending, move
 * them on meanwhile) and mark it done. */
static int flow_wait(ic_exec_t *x, flow_t *w)
{
    int at = MPI_UNDEFINED, rc;
    if (!w->nact)
        return MPI_ERR_INTERN; /* nothing under way and nothing may start */
    if (!(ic_npending && !ic_progress_busy()))
        rc = PMPI_Waitany(w->nact, w->reqs, &at, MPI_STATUS_IGNORE);
    else
        for (;;) {
            int flag = 0;
            rc = PMPI_Testany(w->nact, w->reqs, &at, &flag, MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS || flag)
                break;
            ic_progress();
        }
    if (rc != MPI_SUCCESS || at == MPI_UNDEFINED)
        return rc != MPI_SUCCESS ? rc : MPI_ERR_INTERN;
    flow_slot_t *sl = &w->f[w->slot[at]];
    sl->state = 2;
    if (x->trace)
        flow_trace(x, sl);
    w->nact--; /* the last one takes its place */
    w->reqs[at] = w->reqs[w->nact];
    w->slot[at] = w->slot[w->nact];
    return MPI_SUCCESS;
}

/* Whether schedule s only sends, no receive: a broadcast's root. */
static int flow_source(const ic_sched_t *s)
{
    int sends = 0;
    for (size_t i = 0; i < s->nacts; i++) {
        if (s->acts[i].kind == IC_ACT_RECV)
            return 0;
        sends |= s->acts[i].kind == IC_ACT_SEND;
    }
    return sends;
}

/* Run x's rounds as a dataflow (above). */
static int run_flow(ic_exec_t *x)
{
    const ic_sched_t *s = x->s;
    flow_t w;
    flow_slot_t *f = w.f;
    size_t lo = 0, end = 0, next = 0; /* the window: actions [lo, end), rounds before next */
    int rc = MPI_SUCCESS;
    w.nact = 0;
    w.apart = flow_apart(x);
    w.b = x->b;
    /* a source's window, where a table measured one link (several, or
     * none measured: every send at once) */
    w.pace = ic_ctx_measured_cost(x->ctx);
    if (w.pace && (w.pace->links != 1 || !flow_source(s)))
        w.pace = NULL;
    while (rc == MPI_SUCCESS) {
        while (lo < end && f[lo % IC_FLOW_RING].state == 2)
            lo++;
        while (next < s->nrounds) { /* widen by whole rounds */
            size_t n, at = s->round_first[next];
            ic_sched_round_acts(s, next, &n);
            if (at + n - lo > IC_FLOW_RING)
                break;
            for (size_t i = at; i < at + n; i++) {
                flow_slot_t *sl = &f[i % IC_FLOW_RING];
                sl->act = i;
                sl->round = next;
                sl->state = 0;
                sl->blk = IC_FLOW_NONE;
            }
            end = at + n;
            next++;
        }
        if (lo == end && next == s->nrounds)
            break; /* every action done */
        int ran = 0;
        for (size_t i = lo; i < end && rc == MPI_SUCCESS; i++) {
            flow_slot_t *sl = &f[i % IC_FLOW_RING];
            if (sl->state != 0 || (sl->blk != IC_FLOW_NONE && sl->blk >= lo &&
                                   f[sl->blk % IC_FLOW_RING].state == sl->blkstate))
                continue;
            size_t j = flow_blocker(s, &w, lo, end, i);
            if (j == IC_FLOW_NONE) {
                rc = flow_start(x, &w, sl);
                ran |= sl->state == 2;
            } else {
                sl->blk = j;
                sl->blkstate = f[j % IC_FLOW_RING].state;
            }
        }
        if (rc == MPI_SUCCESS && !ran)
            rc = flow_wait(x, &w);
    }
    for (int k = 0; k < w.nact; k++) /* a failed run: cancel what is under way */
        drop_requests(&w.reqs[k], 1);
    return rc;
}

/* Wait for (block) or test the posted piece's x->k requests and x->nshm
 * channel messages (of round acts, n actions); *flag: all complete. */
static int piece_done(ic_exec_t *x, int block, int *flag, const ic_action_t *acts, size_t n)
{
    *flag = 1;
    if (x->s->unagreed)
        return complete_checked(x, block, flag, acts, n);
    if (x->nshm && x->nb) { /* one attempt at each */
        int rc = ic_shm_poll(x->ctx, x->shm_ops, x->nshm, flag);
        if (rc == MPI_SUCCESS && *flag)
            return ic_complete_all(NULL, (int)x->k, x->reqs, flag);
        if (rc == MPI_SUCCESS && x->k) /* MPI moves its part on */
            rc = ic_complete_all(NULL, (int)x->k, x->reqs, &(int){0});
        return rc;
    }
    if (x->nshm)
        return ic_shm_progress(x->ctx, x->shm_ops, x->nshm, x->reqs, (int)x->k);
    if (block && ic_npending && !ic_progress_busy())
        return wait_moving(x); /* calls of this process pending: move them on */
    return ic_complete_all(x->trace ? x->ctx : NULL, (int)x->k, x->reqs, block ? NULL : flag);
}

int ic_exec_progress(ic_exec_t *x, int block, int *done)
{
    const ic_sched_t *s = x->s;
    int rc;
    *done = 0;
    if (!x->packed)
        pack_steps(x);
    if (x->round == 0 && flow_ok(x)) {
        if ((rc = run_flow(x)) != MPI_SUCCESS)
            return rc;
        x->round = s->nrounds;
    }
    while (x->round < s->nrounds) {
        size_t n;
        const ic_action_t *acts = ic_sched_round_acts(s, x->round, &n);
        if (x->npieces == SIZE_MAX && (rc = round_pieces(x, acts, n)) != MPI_SUCCESS)
            return rc;
        while (x->piece < x->npieces) {
            if (!x->posted) {
                x->k = x->nshm = x->nprobe = 0;
                x->known = x->truncated = 0;
                x->posted = 1;
                rc = post_piece(x, acts, n, x->piece, x->chunk, &x->k, &x->nshm);
                if (rc != MPI_SUCCESS)
                    return rc;
            }
            int flag = 1;
            rc = piece_done(x, block, &flag, acts, n);
            if (rc != MPI_SUCCESS)
                return rc;
            if (!flag)
                return MPI_SUCCESS; /* not yet: call again */
            if (x->trace && x->ctx->tmsg)
                trace_piece(x->ctx, x->k, x->nshm);
            x->posted = 0;
            x->k = 0;
            x->piece++;
        }
        if ((rc = local_actions(x, acts, n)) != MPI_SUCCESS)
            return rc;
        x->round++;
        x->piece = 0;
        x->npieces = SIZE_MAX;
    }
    if (x->steps.n > x->steps.npack &&
        (rc = local_actions(x, x->steps.acts + x->steps.npack, x->steps.n - x->steps.npack)) !=
            MPI_SUCCESS)
        return rc;
    *done = 1;
    return x->late;
}

void ic_exec_abandon(ic_exec_t *x, int release)
{
    if (x->posted && x->s->unagreed && !x->known)
        drop_probed(x);
    if (x->posted) {
        drop_requests(x->reqs, x->k);
        ic_shm_release(x->shm_ops, x->nshm);
    }
    x->posted = 0;
    x->k = 0;
    if (x->nb && release) {
        free(x->reqs);
        free(x->shm_ops);
        free(x->stats);
        free(x->probes);
        x->reqs = NULL;
        x->shm_ops = NULL;
        x->stats = NULL;
        x->probes = NULL;
        x->cap = x->scap = x->stcap = 0;
    }
}

int ic_exec(ic_ctx_t *ctx, const ic_sched_t *s, const ic_binding_t *b, const ic_steps_t *steps,
            MPI_Op op, int commutative)
{
    ic_exec_t x;
    int done;
    exec_begin(&x, ctx, s, b, steps, op, commutative, IC_TAG, 0, IC_LANE_BLOCKING);
    int rc = ic_exec_progress(&x, 1, &done);
    if (rc != MPI_SUCCESS)
        ic_exec_abandon(&x, 0); /* do not leave requests behind */
    return rc;
}

/* Replay (above): compile. */
int ic_replay_build(ic_ctx_t *ctx, const ic_sched_t *s, const ic_binding_t *b, MPI_Op op,
                    int commutative, ic_replay_t **out)
{
    ic_exec_t x;
    exec_begin(&x, ctx, s, b, NULL, op, commutative, IC_TAG, 0, IC_LANE_BLOCKING);
    *out = NULL;
    if (flow_ok(&x))
        return -1;
    ic_replay_t *rp = calloc(1, sizeof(*rp));
    if (!rp || !(rp->rounds = calloc(s->nrounds ? s->nrounds : 1, sizeof(rp_round_t)))) {
        free(rp);
        return -1;
    }
    rp->s = s;
    x.rec = rp;
    for (size_t i = 0; i < s->nrounds; i++) {
        size_t n, m0 = rp->nmsgs, l0 = rp->nlocs, k = 0, nshm = 0;
        const ic_action_t *acts = ic_sched_round_acts(s, i, &n);
        x.nprobe = 0;
        if (round_pieces(&x, acts, n) != MPI_SUCCESS || x.npieces > 1 ||
            (x.npieces && post_piece(&x, acts, n, 0, x.chunk, &k, &nshm) != MPI_SUCCESS) ||
            x.nprobe)
            goto no; /* (an unagreed receive through MPI: probed first at each run) */
        for (size_t j = 0; j < n; j++) {
            const ic_action_t *a = &acts[j];
            size_t e;
            if (!runs_locally(a, op) || (a->kind == IC_ACT_REDUCE && a->src.count == 0))
                continue; /* as do_reduce() */
            if (local_pieces(b, a, &e) != 1 ||
                grow((void **)&rp->locs, &rp->loccap, rp->nlocs + 1, sizeof(rp_local_t)))
                goto no;
            rp_local_t *l = &rp->locs[rp->nlocs++];
            l->kind = a->kind;
            l->src_first = a->src_first || commutative;
            l->sbuf = a->src.buf;
            l->dbuf = a->dst.buf;
            l->soff = offset_of(b, &a->src);
            l->doff = offset_of(b, &a->dst);
            l->ns = elems(b, a->src.buf, a->src.count);
            l->nd = elems(b, a->dst.buf, a->dst.count);
        }
        rp->rounds[i].acts = acts;
        rp->rounds[i].n = n;
        rp->rounds[i].nmsg = rp->nmsgs - m0;
        rp->rounds[i].nloc = rp->nlocs - l0;
        if (rp->rounds[i].nmsg > rp->maxmsg)
            rp->maxmsg = rp->rounds[i].nmsg;
    }
    *out = rp;
    return 0;
no:
    ic_replay_free(rp);
    return -1;
}

/* Replay (above): run, as ic_exec runs the schedule. */
int ic_replay_run(ic_ctx_t *ctx, const ic_replay_t *rp, const ic_binding_t *b, MPI_Op op)
{
    ic_exec_t x;
    exec_begin(&x, ctx, rp->s, b, NULL, op, 0, IC_TAG, 0, IC_LANE_BLOCKING);
    int rc = reqs_reserve(&x, rp->maxmsg) ? MPI_ERR_NO_MEM : MPI_SUCCESS;
    const rp_msg_t *m = rp->msgs;
    const rp_local_t *l = rp->locs;
    for (size_t i = 0; i < rp->s->nrounds && rc == MPI_SUCCESS; i++) {
        const rp_round_t *r = &rp->rounds[i];
        if (r->nmsg) {
            x.round = i; /* as ic_exec_progress has it (an unagreed */
            x.piece = 0; /* round's checks read it) */
            x.npieces = 1;
            x.chunk = 0;
            x.posted = 1;
            x.k = x.nshm = x.nprobe = 0;
            x.known = x.truncated = 0;
            for (const rp_msg_t *end = m + r->nmsg; m < end && rc == MPI_SUCCESS; m++) {
                void *p = at_offset(b, m->buf, m->off);
                if (m->shm) {
                    ic_shm_op_t *o = &x.shm_ops[x.nshm++];
                    *o = m->op;
                    o->buf = p;
                    ic_shm_number(ctx, o);
                    continue;
                }
                MPI_Datatype t = b->at[m->buf].type;
                rc = m->send ? MPI_Isend(p, m->count, t, m->peer, x.tag, ctx->comm, &x.reqs[x.k])
                             : MPI_Irecv(p, m->count, t, m->peer, x.tag, ctx->comm, &x.reqs[x.k]);
                if (rc == MPI_SUCCESS) /* a failed call made no request */
                    x.k++;
            }
            int flag;
            if (rc == MPI_SUCCESS)
                rc = piece_done(&x, 1, &flag, r->acts, r->n);
            if (rc != MPI_SUCCESS)
                break;
            x.posted = 0;
            x.k = 0;
        }
        for (const rp_local_t *end = l + r->nloc; l < end && rc == MPI_SUCCESS; l++) {
            const ic_bound_t *bs = &b->at[l->sbuf], *bd = &b->at[l->dbuf];
            void *src = at_offset(b, l->sbuf, l->soff), *dst = at_offset(b, l->dbuf, l->doff);
            rc = l->kind == IC_ACT_REDUCE
                     ? reduce_at(ctx, src, l->ns, bs, dst, l->nd, bd, op, l->src_first)
                     : copy_at(ctx, src, l->ns, bs, dst, l->nd, bd);
        }
    }
    if (rc != MPI_SUCCESS)
        ic_exec_abandon(&x, 0); /* do not leave requests behind */
    return rc;
}

void ic_replay_free(ic_replay_t *rp)
{
    if (!rp)
        return;
    free(rp->rounds);
    free(rp->msgs);
    free(rp->locs);
    free(rp);
}
