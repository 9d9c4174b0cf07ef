/*
 * api.c -- the IC_ collectives: MPI's signatures, InterCom's algorithms.
 *
 * Each call: checks its arguments (before touching anything), gets the
 * communicator's context, describes itself as an ic_coll_args_t, lets the
 * selector choose an algorithm, builds this rank's schedule, binds the
 * schedule's buffers and runs it.  See ic_internal.h for the units: the
 * reductions work in elements of the user's datatype, the broadcast and
 * the gather family in bytes (see "bytes and datatypes" below).
 */
#include "config.h"
#include "ic_internal.h"
#include "choose.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct call {
    const char *fn;
    MPI_Comm comm;
    ic_ctx_t *ctx;
    ic_coll_args_t a;
    ic_binding_t b;
    size_t *counts;  /* owned */
    size_t *displs;  /* owned */
    void *stage[2];  /* owned staging areas for SEND / RECV */
    size_t packed;   /* bytes packed or unpacked through them */
    size_t gran;     /* byte-counted collectives: bytes per schedule unit
                        (0 = 1; see "bytes and datatypes")              */
} call_t;

/* The byte unit of the broadcast and the gather family: MPI_PACKED, which
 * matches any datatype (MPI's type-matching rules), so a rank that sends
 * or receives a typed region of its own datatype in place and a rank that
 * uses bytes (a contiguous buffer, a staging area) make a legal pair. */
static const ic_typeinfo_t byte_ti = {MPI_PACKED, 0, 1, 0, 1, 1, 1};

static void call_free(call_t *c)
{
    free(c->counts);
    free(c->displs);
    free(c->stage[0]);
    free(c->stage[1]);
    if (c->ctx)
        ic_ctx_release_scratch(c->ctx);
}

static int fail(call_t *c, int rc, const char *what)
{
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, s, &len) != MPI_SUCCESS)
        strcpy(s, "unknown error");
    call_free(c);
    return ic_error(c->comm, rc, "%s: %s: %s", c->fn, what, s);
}

/* Common prologue: MPI state and communicator.  On success fills size/rank. */
static int begin(call_t *c, const char *fn, MPI_Comm comm, int *rank, int *size)
{
    memset(c, 0, sizeof(*c));
    c->fn = fn;
    c->comm = comm;
    int rc = ic_check_init(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = ic_check_comm(fn, comm)) != MPI_SUCCESS)
        return rc;
    MPI_Comm_rank(comm, rank);
    MPI_Comm_size(comm, size);
    return MPI_SUCCESS;
}

static int get_ctx(call_t *c)
{
    int rc = ic_ctx_get(c->comm, &c->ctx);
    if (rc != MPI_SUCCESS)
        return fail(c, rc, "cannot set up the communicator's context");
    c->a.rank = c->ctx->rank;
    c->a.size = c->ctx->size;
    return MPI_SUCCESS;
}

static size_t *alloc_counts(call_t *c, int p)
{
    c->counts = calloc((size_t)p ? (size_t)p : 1, sizeof(size_t));
    return c->counts;
}

/* Select the algorithm, build this rank's schedule and bind its scratch
 * (in units of `sti`); *alg gets the algorithm.  On failure the call is
 * cleaned up (fail()). */
static int prepare(call_t *c, size_t elem, const ic_typeinfo_t *sti, const ic_algorithm_t **alg)
{
    ic_ctx_t *ctx = c->ctx;
    /* messages longer than the slack keep their scratch within themselves */
    c->a.bounded_from = ic_bounded_from(ic_env()->scratch_slack, elem);
    *alg = ic_select(ctx, &c->a, elem);
    if (!*alg)
        return fail(c, MPI_ERR_INTERN, "no algorithm can serve this call");
    ic_sched_reset(&ctx->sched, ctx->rank, ctx->size);
    if ((*alg)->build(&ctx->sched, &c->a) != 0 || ic_sched_ok(&ctx->sched) != 0)
        return fail(c, MPI_ERR_NO_MEM, "cannot build the schedule");
    for (int k = IC_BUF_SCRATCH; k <= IC_BUF_SCRATCH2; k++) {
        size_t n = ctx->sched.scratch[k] * (c->gran ? c->gran : 1);
        ic_binding_set_bytes(&c->b, k, NULL, sti, c->gran);
        if (n == 0)
            continue;
        size_t bytes = ic_type_span(sti, n);
        char *mem = ic_ctx_scratch(ctx, k, bytes);
        if (!mem)
            return fail(c, MPI_ERR_NO_MEM, "out of memory for scratch");
        ic_binding_set_bytes(&c->b, k, mem - sti->true_lb, sti, c->gran);
    }
    return MPI_SUCCESS;
}

/* Run the prepared schedule of algorithm alg. */
static int execute(call_t *c, const ic_algorithm_t *alg, MPI_Op op, int commutative)
{
    int rc = ic_exec(c->ctx, &c->ctx->sched, &c->b, op, commutative);
    if (rc != MPI_SUCCESS)
        return fail(c, rc, "communication failed");
    ic_record_last(c->a.coll, alg);
    return MPI_SUCCESS;
}

/* Select, build, bind scratch (in units of `sti`) and execute. */
static int run(call_t *c, MPI_Op op, int commutative, size_t elem, const ic_typeinfo_t *sti)
{
    const ic_algorithm_t *alg;
    int rc = prepare(c, elem, sti, &alg);
    return rc == MPI_SUCCESS ? execute(c, alg, op, commutative) : rc;
}

/* Successful end of a call. */
static int done(call_t *c)
{
    ic_record_packed(c->a.coll, c->packed);
    call_free(c);
    return MPI_SUCCESS;
}

/* run() and then done(); run() has already cleaned up on failure. */
static int run_done(call_t *c, MPI_Op op, int commutative, size_t elem, const ic_typeinfo_t *sti)
{
    int rc = run(c, op, commutative, elem, sti);
    return rc == MPI_SUCCESS ? done(c) : rc;
}

/* ================================================= bytes and datatypes
 *
 * The broadcast and the gather family work in bytes: ranks may pass
 * different datatypes of one type signature (MPI allows it for these
 * calls), so only byte counts agree across ranks, and every rank's
 * schedule is the same function of them.  A rank then addresses its own
 * buffers as it can:
 *   - a contiguous datatype: the bytes in place;
 *   - a non-contiguous one, when every region of its schedule on that
 *     buffer starts and ends on an element boundary (whole blocks of the
 *     gather family, the whole message of a broadcast tree, the blocks and
 *     segments of a long broadcast, cut on multiples of its unit g,
 *     bcast_granule; see ic_sched_aligned): typed regions in place,
 *     (buf + (o g / size) extent, c g / size, datatype), no packing;
 *   - otherwise (messages cut inside an element: a long broadcast of
 *     elements whose size does not divide g, executor pieces that are not
 *     whole elements; a buffer at MPI_BOTTOM): packed into (SEND side) or
 *     unpacked from (RECV side) a staging area with MPI_Pack/MPI_Unpack.
 * The decision is each rank's own: the bytes are MPI_PACKED, which matches
 * any datatype, so typed and packed ranks can be paired.  A buffer at
 * MPI_BOTTOM (a datatype of absolute addresses) goes through a message to
 * self received or sent as MPI_PACKED instead of MPI_Pack, which MPI
 * defines to produce the same bytes: MPICH 4.0's MPI_Pack and MPI_Unpack
 * reject a NULL buffer.  IC_Last_packed_bytes() tells what a call packed.
 */
#define IC_TAG_STAGE 0x1C1

static int pack_into(call_t *c, const void *src, int count, MPI_Datatype type, void *dst,
                     size_t bytes)
{
    int pos = 0;
    c->packed += bytes;
    if (src == MPI_BOTTOM)
        return MPI_Sendrecv(src, count, type, c->ctx->rank, IC_TAG_STAGE, dst, (int)bytes,
                            MPI_PACKED, c->ctx->rank, IC_TAG_STAGE, c->ctx->comm,
                            MPI_STATUS_IGNORE);
    return MPI_Pack(src, count, type, dst, (int)bytes, &pos, c->ctx->comm);
}

/* MPICH 4.0.2 (Debian 12) truncates a message sent as MPI_PACKED or
 * MPI_BYTE and received with a datatype whose extent exceeds its size,
 * from some length on (MPI_Send of 12000 bytes, MPI_Recv of 1000
 * MPI_DOUBLE_INT: MPI_ERR_TRUNCATE; 100 work; so do a struct {double, int}
 * of extent 16 and MPI_LONG_INT), which MPI's type matching allows and
 * Open MPI does.  There a non-contiguous receive buffer is staged; typed
 * sends, which it receives as MPI_PACKED correctly, stay in place. */
#ifdef MPICH
#define IC_TYPED_RECV_BROKEN 1
#else
#define IC_TYPED_RECV_BROKEN 0
#endif

/* Bind buffer `buf` to plain bytes at base (MPI_PACKED, c->gran per unit). */
static void bind_bytes(call_t *c, int buf, const void *base)
{
    ic_typeinfo_t bt = byte_ti;
    ic_binding_set_bytes(&c->b, buf, (void *)base, &bt, c->gran ? c->gran : 1);
}

/* Bind buffer `buf` of the prepared schedule to the user's `base` of
 * datatype ti in place: as bytes when ti is contiguous, as typed regions
 * when the schedule's regions on it fall on ti's elements.  0 when it
 * cannot (the caller stages it). */
static int bind_user(call_t *c, int buf, const void *base, const ic_typeinfo_t *ti)
{
    if (ti->contiguous) {
        bind_bytes(c, buf, base);
        return 1;
    }
    size_t g = c->gran ? c->gran : 1;
    if (base == MPI_BOTTOM || (IC_TYPED_RECV_BROKEN && buf == IC_BUF_RECV) ||
        !ic_sched_aligned(&c->ctx->sched, buf, g, (size_t)ti->size, c->ctx->chunk))
        return 0;
    ic_binding_set_bytes(&c->b, buf, (void *)base, ti, g);
    return 1;
}

/* Bind SEND to the caller's contribution of `count` x `ti` as bytes (after
 * prepare()): in place if it can, else packed. */
static int bind_send_bytes(call_t *c, const void *buf, int count, const ic_typeinfo_t *ti)
{
    if (count == 0 || bind_user(c, IC_BUF_SEND, buf, ti)) {
        if (count == 0)
            bind_bytes(c, IC_BUF_SEND, buf);
        return MPI_SUCCESS;
    }
    size_t bytes = (size_t)count * (size_t)ti->size;
    c->stage[0] = malloc(bytes ? bytes : 1);
    if (!c->stage[0])
        return MPI_ERR_NO_MEM;
    int rc = pack_into(c, buf, count, ti->type, c->stage[0], bytes);
    bind_bytes(c, IC_BUF_SEND, c->stage[0]);
    return rc;
}

/* Stage RECV in `bytes` packed bytes (when the receive side cannot be used
 * in place). */
static int stage_recv(call_t *c, size_t bytes)
{
    c->stage[1] = malloc(bytes ? bytes : 1);
    if (!c->stage[1])
        return MPI_ERR_NO_MEM;
    bind_bytes(c, IC_BUF_RECV, c->stage[1]);
    return MPI_SUCCESS;
}

static int pack_at(call_t *c, const void *src, int count, const ic_typeinfo_t *ti, char *dst,
                   size_t bytes)
{
    return pack_into(c, src, count, ti->type, dst, bytes);
}

static int unpack_at(call_t *c, const char *src, size_t bytes, void *dst, int count,
                     const ic_typeinfo_t *ti)
{
    int pos = 0;
    if (bytes == 0)
        return MPI_SUCCESS;
    c->packed += bytes;
    if (dst == MPI_BOTTOM)
        return MPI_Sendrecv(src, (int)bytes, MPI_PACKED, c->ctx->rank, IC_TAG_STAGE, dst, count,
                            ti->type, c->ctx->rank, IC_TAG_STAGE, c->ctx->comm,
                            MPI_STATUS_IGNORE);
    return MPI_Unpack(src, (int)bytes, &pos, dst, count, ti->type, c->ctx->comm);
}

/* ================================================================ bcast */

/* The broadcast's schedule unit: a divisor of the message's n bytes, the
 * same on every rank (a function of n and p), so that the blocks and
 * segments the long-vector algorithms cut fall on element boundaries of
 * any datatype whose size divides it.  The largest divisor of n made of
 * 2^12, 3^2, 5 and 7 (element sizes 1 to 10, 12, 14, 15, 16, 18, 20, 24,
 * ... and their multiples up to 4 KiB), reduced (7, 5, the twos above 16,
 * the threes, the rest) until n has at least 16 p units, so that blocks
 * and segments stay even to within 1/16. */
static size_t bcast_granule(size_t n, int p)
{
    static const size_t f[] = {2, 3, 5, 7};
    static const int fmax[] = {12, 2, 1, 1};
    size_t g = 1;
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < fmax[i] && (n / g) % f[i] == 0; k++)
            g *= f[i];
    size_t want = 16 * (size_t)p;
    static const size_t drop[] = {7, 5, 2, 3, 2};
    for (int i = 0; i < 5; i++)
        while (n / g < want && g % drop[i] == 0 && (i != 2 || g % 32 == 0))
            g /= drop[i];
    return g;
}

int IC_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    call_t c;
    int rank, size, rc;
    if ((rc = begin(&c, "IC_Bcast", comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    if ((rc = ic_check_count(c.fn, comm, count, "count")) ||
        (rc = ic_check_type(c.fn, comm, datatype, "datatype")) ||
        (rc = ic_check_root(c.fn, comm, root, size)) ||
        (rc = ic_check_buf(c.fn, comm, buffer, count, datatype, "buffer")))
        return rc;
    if (buffer == MPI_IN_PLACE)
        return ic_error(comm, IC_ERR_INPLACE, "IC_Bcast: MPI_IN_PLACE is not allowed");
    ic_typeinfo_t ti;
    ic_typeinfo(datatype, &ti);
    /* In bytes: ranks may pass different datatypes with the same type
     * signature, so only the byte count agrees across ranks. */
    size_t bytes = (size_t)count * (size_t)ti.size;
    if (bytes == 0 || size == 1)
        return MPI_SUCCESS;
    if ((rc = get_ctx(&c)) != MPI_SUCCESS)
        return rc;
    c.gran = bcast_granule(bytes, size);
    c.a.coll = IC_COLL_BCAST;
    c.a.root = root;
    c.a.count = bytes / c.gran;
    c.a.commutative = 1;
    c.a.units_match = 1;
    ic_typeinfo_t bt = byte_ti;
    const ic_algorithm_t *alg;
    if ((rc = prepare(&c, c.gran, &bt, &alg)) != MPI_SUCCESS)
        return rc;
    int staged = !(bind_user(&c, IC_BUF_RECV, buffer, &ti) &&
                   bind_user(&c, IC_BUF_SEND, buffer, &ti));
    if (staged) {
        if ((rc = stage_recv(&c, bytes)))
            return fail(&c, rc, "out of memory");
        if (rank == root && (rc = pack_at(&c, buffer, count, &ti, c.stage[1], bytes)))
            return fail(&c, rc, "cannot pack the buffer");
        bind_bytes(&c, IC_BUF_SEND, c.stage[1]);
    }
    if ((rc = execute(&c, alg, MPI_OP_NULL, 1)) != MPI_SUCCESS)
        return rc;
    if (staged && rank != root && (rc = unpack_at(&c, c.stage[1], bytes, buffer, count, &ti)))
        return fail(&c, rc, "cannot unpack the result");
    return done(&c);
}

/* =========================================================== reductions */

/* Checks shared by the reductions; sets *commutative.  The op is checked
 * before the datatype (a predefined op with MPI_DATATYPE_NULL is MPI_ERR_OP,
 * as the vendors have it).  inplace_cls: the class of a recvbuf that is
 * MPI_IN_PLACE or aliases sendbuf. */
static int check_reduction(call_t *c, const void *sendbuf, const void *recvbuf, int count,
                           MPI_Datatype type, MPI_Op op, int recv_significant, int inplace_cls,
                           int *commutative)
{
    int rc;
    if ((rc = ic_check_count(c->fn, c->comm, count, "count")) ||
        (rc = ic_check_op(c->fn, c->comm, op, type)) ||
        (rc = ic_check_type(c->fn, c->comm, type, "datatype")))
        return rc;
    if (sendbuf != MPI_IN_PLACE &&
        (rc = ic_check_buf(c->fn, c->comm, sendbuf, count, type, "sendbuf")))
        return rc;
    if (recv_significant) {
        if (recvbuf == MPI_IN_PLACE)
            return ic_error(c->comm, inplace_cls, "%s: recvbuf cannot be MPI_IN_PLACE", c->fn);
        if ((rc = ic_check_buf(c->fn, c->comm, recvbuf, count, type, "recvbuf")))
            return rc;
        if (sendbuf == recvbuf && count > 0)
            return ic_error(c->comm, inplace_cls,
                            "%s: sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)",
                            c->fn);
    }
    *commutative = 1;
    MPI_Op_commutative(op, commutative);
    return MPI_SUCCESS;
}

static int reduction_run(call_t *c, const void *sendbuf, void *recvbuf, MPI_Datatype type,
                         MPI_Op op, int commutative)
{
    ic_typeinfo_t ti;
    ic_typeinfo(type, &ti);
    c->a.commutative = commutative;
    c->a.units_match = 1;
    c->a.in_place = (sendbuf == MPI_IN_PLACE);
    ic_binding_set(&c->b, IC_BUF_SEND, c->a.in_place ? recvbuf : (void *)sendbuf, &ti);
    ic_binding_set(&c->b, IC_BUF_RECV, recvbuf, &ti);
    return run_done(c, op, commutative, (size_t)ti.size, &ti);
}

int IC_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              int root, MPI_Comm comm)
{
    call_t c;
    int rank, size, rc, commutative;
    if ((rc = begin(&c, "IC_Reduce", comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    if ((rc = ic_check_root(c.fn, comm, root, size)))
        return rc;
    if (sendbuf == MPI_IN_PLACE && rank != root)
        return ic_error(comm, IC_ERR_INPLACE,
                        "IC_Reduce: MPI_IN_PLACE is only valid at the root");
    if ((rc = check_reduction(&c, sendbuf, recvbuf, count, datatype, op, rank == root,
                              IC_ERR_INPLACE, &commutative)))
        return rc;
    ic_typeinfo_t ti;
    ic_typeinfo(datatype, &ti);
    if (count == 0 || ti.size == 0)
        return MPI_SUCCESS;
    if ((rc = get_ctx(&c)) != MPI_SUCCESS)
        return rc;
    c.a.coll = IC_COLL_REDUCE;
    c.a.root = root;
    c.a.count = (size_t)count;
    return reduction_run(&c, sendbuf, recvbuf, datatype, op, commutative);
}

int IC_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm)
{
    call_t c;
    int rank, size, rc, commutative;
    if ((rc = begin(&c, "IC_Allreduce", comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    if ((rc = check_reduction(&c, sendbuf, recvbuf, count, datatype, op, 1, MPI_ERR_BUFFER,
                              &commutative)))
        return rc;
    ic_typeinfo_t ti;
    ic_typeinfo(datatype, &ti);
    if (count == 0 || ti.size == 0)
        return MPI_SUCCESS;
    if ((rc = get_ctx(&c)) != MPI_SUCCESS)
        return rc;
    c.a.coll = IC_COLL_ALLREDUCE;
    c.a.count = (size_t)count;
    return reduction_run(&c, sendbuf, recvbuf, datatype, op, commutative);
}

static int reduce_scatter_common(call_t *c, const void *sendbuf, void *recvbuf, size_t total,
                                 int own, MPI_Datatype datatype, MPI_Op op, ic_coll_t coll)
{
    int rc, commutative;
    /* recvbuf holds counts[rank] elements, or the whole input when in place. */
    if ((rc = check_reduction(c, sendbuf, recvbuf, own, datatype, op, 1, IC_ERR_INPLACE,
                              &commutative)) ||
        (sendbuf != MPI_IN_PLACE &&
         (rc = ic_check_buf(c->fn, c->comm, sendbuf, (int)total, datatype, "sendbuf")))) {
        free(c->counts);
        return rc;
    }
    ic_typeinfo_t ti;
    ic_typeinfo(datatype, &ti);
    if (total == 0 || ti.size == 0) {
        free(c->counts);
        return MPI_SUCCESS;
    }
    size_t *counts = c->counts;
    c->counts = NULL;
    if ((rc = get_ctx(c)) != MPI_SUCCESS) {
        free(counts);
        return rc;
    }
    c->counts = counts;
    c->a.coll = coll;
    c->a.counts = c->counts;
    c->a.count = total;
    return reduction_run(c, sendbuf, recvbuf, datatype, op, commutative);
}

int IC_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    call_t c;
    int rank, size, rc;
    if ((rc = begin(&c, "IC_Reduce_scatter", comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    if (!recvcounts)
        return ic_error(comm, MPI_ERR_ARG, "IC_Reduce_scatter: recvcounts is NULL");
    size_t total = 0;
    for (int i = 0; i < size; i++) {
        if ((rc = ic_check_count(c.fn, comm, recvcounts[i], "recvcounts[i]")))
            return rc;
        total += (size_t)recvcounts[i];
    }
    if (total > INT_MAX)
        return ic_error(comm, MPI_ERR_COUNT, "IC_Reduce_scatter: total count exceeds INT_MAX");
    if (!alloc_counts(&c, size))
        return ic_error(comm, MPI_ERR_NO_MEM, "IC_Reduce_scatter: out of memory");
    for (int i = 0; i < size; i++)
        c.counts[i] = (size_t)recvcounts[i];
    return reduce_scatter_common(&c, sendbuf, recvbuf, total,
                                 sendbuf == MPI_IN_PLACE ? (int)total : recvcounts[rank],
                                 datatype, op, IC_COLL_REDUCE_SCATTER);
}

int IC_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    call_t c;
    int rank, size, rc;
    if ((rc = begin(&c, "IC_Reduce_scatter_block", comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    if ((rc = ic_check_count(c.fn, comm, recvcount, "recvcount")))
        return rc;
    size_t total = (size_t)recvcount * (size_t)size;
    if (!alloc_counts(&c, size))
        return ic_error(comm, MPI_ERR_NO_MEM, "IC_Reduce_scatter_block: out of memory");
    for (int i = 0; i < size; i++)
        c.counts[i] = (size_t)recvcount;
    if (total > INT_MAX) {
        free(c.counts);
        return ic_error(comm, MPI_ERR_COUNT, "IC_Reduce_scatter_block: total count too large");
    }
    return reduce_scatter_common(&c, sendbuf, recvbuf, total,
                                 sendbuf == MPI_IN_PLACE ? (int)total : recvcount, datatype, op,
                                 IC_COLL_REDUCE_SCATTER_BLOCK);
}

/* ========================================================= gather family
 *
 * In bytes, staged as the broadcast (see "staging" above).
 */

static int check_side(call_t *c, const void *buf, int count, MPI_Datatype type,
                      const char *cname, const char *tname, const char *bname, int nblocks)
{
    int rc;
    if ((rc = ic_check_count(c->fn, c->comm, count, cname)) ||
        (rc = ic_check_type(c->fn, c->comm, type, tname)))
        return rc;
    long long n = (long long)count * nblocks;
    if (n > INT_MAX)
        return ic_error(c->comm, MPI_ERR_COUNT, "%s: %s x communicator size is too large", c->fn,
                        cname);
    return ic_check_buf(c->fn, c->comm, buf, (int)n, type, bname);
}

/* Broadcast per-rank byte counts from root (gatherv/scatterv: only the root
 * knows them, but every rank's schedule needs them). */
static int bcast_counts(call_t *c, int root)
{
    int p = c->ctx->size;
    uint64_t *v = malloc((size_t)p * sizeof(uint64_t));
    if (!v)
        return MPI_ERR_NO_MEM;
    if (c->ctx->rank == root)
        for (int i = 0; i < p; i++)
            v[i] = (uint64_t)c->counts[i];
    ic_sched_t s;
    ic_sched_init(&s, c->ctx->rank, p);
    ic_line_t line = ic_line_identity(p);
    ic_mst_bcast(&s, &line, root, ic_reg(IC_BUF_RECV, 0, (size_t)p));
    int rc = ic_sched_ok(&s) ? MPI_ERR_NO_MEM : MPI_SUCCESS;
    if (rc == MPI_SUCCESS) {
        ic_typeinfo_t ti;
        ic_typeinfo(MPI_UINT64_T, &ti);
        ic_binding_t b;
        memset(&b, 0, sizeof(b));
        ic_binding_set(&b, IC_BUF_RECV, v, &ti);
        rc = ic_exec(c->ctx, &s, &b, MPI_OP_NULL, 1);
    }
    ic_sched_free(&s);
    for (int i = 0; rc == MPI_SUCCESS && i < p; i++)
        c->counts[i] = (size_t)v[i];
    free(v);
    return rc;
}

static int truncated(call_t *c)
{
    if (c->counts)
        free(c->counts), c->counts = NULL;
    return ic_error(c->comm, MPI_ERR_TRUNCATE,
                    "%s: send and receive amounts differ (type signatures do not match)", c->fn);
}

int IC_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
              int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    call_t c;
    int rank, size, rc;
    if ((rc = begin(&c, "IC_Gather", comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    if ((rc = ic_check_root(c.fn, comm, root, size)))
        return rc;
    int is_root = rank == root, in_place = sendbuf == MPI_IN_PLACE;
    if (in_place && !is_root)
        return ic_error(comm, IC_ERR_INPLACE,
                        "IC_Gather: MPI_IN_PLACE is only valid at the root");
    if (!in_place && (rc = check_side(&c, sendbuf, sendcount, sendtype, "sendcount", "sendtype",
                                      "sendbuf", 1)))
        return rc;
    if (is_root) {
        if (recvbuf == MPI_IN_PLACE)
            return ic_error(comm, IC_ERR_INPLACE, "IC_Gather: recvbuf cannot be MPI_IN_PLACE");
        if ((rc = check_side(&c, recvbuf, recvcount, recvtype, "recvcount", "recvtype",
                             "recvbuf", size)))
            return rc;
    }
    ic_typeinfo_t sti, rti;
    if (!in_place)
        ic_typeinfo(sendtype, &sti);
    if (is_root)
        ic_typeinfo(recvtype, &rti);
    size_t bb = in_place ? (size_t)recvcount * rti.size : (size_t)sendcount * sti.size;
    if (is_root && (size_t)recvcount * rti.size != bb)
        return truncated(&c);
    if (bb == 0)
        return MPI_SUCCESS;
    if ((rc = get_ctx(&c)) != MPI_SUCCESS)
        return rc;
    if (!alloc_counts(&c, size))
        return fail(&c, MPI_ERR_NO_MEM, "out of memory");
    for (int i = 0; i < size; i++)
        c.counts[i] = bb;
    c.a.coll = IC_COLL_GATHER;
    c.a.root = root;
    c.a.counts = c.counts;
    c.a.sendcount = bb;
    c.a.in_place = in_place;
    c.a.units_match = 1;
    c.a.commutative = 1;
    ic_typeinfo_t bt = byte_ti;
    const ic_algorithm_t *alg;
    if ((rc = prepare(&c, 1, &bt, &alg)) != MPI_SUCCESS)
        return rc;
    if (!in_place && (rc = bind_send_bytes(&c, sendbuf, sendcount, &sti)))
        return fail(&c, rc, "cannot pack the send buffer");
    int staged = is_root && !bind_user(&c, IC_BUF_RECV, recvbuf, &rti);
    if (staged) {
        if ((rc = stage_recv(&c, bb * (size_t)size)))
            return fail(&c, rc, "out of memory");
        if (in_place &&
            (rc = pack_at(&c, (char *)recvbuf + (MPI_Aint)root * recvcount * rti.extent,
                          recvcount, &rti, (char *)c.stage[1] + bb * (size_t)root, bb)))
            return fail(&c, rc, "cannot pack the root's block");
    }
    if (in_place) /* SEND is not used; bind it to something valid */
        ic_binding_set(&c.b, IC_BUF_SEND, c.b.base[IC_BUF_RECV], &bt);
    if ((rc = execute(&c, alg, MPI_OP_NULL, 1)) != MPI_SUCCESS)
        return rc;
    if (staged && (rc = unpack_at(&c, c.stage[1], bb * (size_t)size, recvbuf,
                                  recvcount * size, &rti)))
        return fail(&c, rc, "cannot unpack the result");
    return done(&c);
}

int IC_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    call_t c;
    int rank, size, rc;
    if ((rc = begin(&c, "IC_Scatter", comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    if ((rc = ic_check_root(c.fn, comm, root, size)))
        return rc;
    int is_root = rank == root, in_place = recvbuf == MPI_IN_PLACE;
    if (in_place && !is_root)
        return ic_error(comm, IC_ERR_INPLACE,
                        "IC_Scatter: MPI_IN_PLACE is only valid at the root");
    if (is_root) {
        if (sendbuf == MPI_IN_PLACE)
            return ic_error(comm, IC_ERR_INPLACE, "IC_Scatter: sendbuf cannot be MPI_IN_PLACE");
        if ((rc = check_side(&c, sendbuf, sendcount, sendtype, "sendcount", "sendtype",
                             "sendbuf", size)))
            return rc;
    }
    if (!in_place && (rc = check_side(&c, recvbuf, recvcount, recvtype, "recvcount", "recvtype",
                                      "recvbuf", 1)))
        return rc;
    ic_typeinfo_t sti, rti;
    if (is_root)
        ic_typeinfo(sendtype, &sti);
    if (!in_place)
        ic_typeinfo(recvtype, &rti);
    size_t bb = in_place ? (size_t)sendcount * sti.size : (size_t)recvcount * rti.size;
    if (is_root && (size_t)sendcount * sti.size != bb)
        return truncated(&c);
    if (bb == 0)
        return MPI_SUCCESS;
    if ((rc = get_ctx(&c)) != MPI_SUCCESS)
        return rc;
    if (!alloc_counts(&c, size))
        return fail(&c, MPI_ERR_NO_MEM, "out of memory");
    for (int i = 0; i < size; i++)
        c.counts[i] = bb;
    c.a.coll = IC_COLL_SCATTER;
    c.a.root = root;
    c.a.counts = c.counts;
    c.a.recvcount = bb;
    c.a.in_place = in_place;
    c.a.units_match = 1;
    c.a.commutative = 1;
    ic_typeinfo_t bt = byte_ti;
    const ic_algorithm_t *alg;
    if ((rc = prepare(&c, 1, &bt, &alg)) != MPI_SUCCESS)
        return rc;
    if (is_root && (rc = bind_send_bytes(&c, sendbuf, sendcount * size, &sti)))
        return fail(&c, rc, "cannot pack the send buffer");
    int staged = !in_place && !bind_user(&c, IC_BUF_RECV, recvbuf, &rti);
    if (staged) {
        if ((rc = stage_recv(&c, bb)))
            return fail(&c, rc, "out of memory");
    } else if (in_place) {
        ic_binding_set(&c.b, IC_BUF_RECV, NULL, &bt);
    }
    if ((rc = execute(&c, alg, MPI_OP_NULL, 1)) != MPI_SUCCESS)
        return rc;
    if (staged && (rc = unpack_at(&c, c.stage[1], bb, recvbuf, recvcount, &rti)))
        return fail(&c, rc, "cannot unpack the result");
    return done(&c);
}

int IC_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    call_t c;
    int rank, size, rc;
    if ((rc = begin(&c, "IC_Allgather", comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    int in_place = sendbuf == MPI_IN_PLACE;
    if (!in_place && (rc = check_side(&c, sendbuf, sendcount, sendtype, "sendcount", "sendtype",
                                      "sendbuf", 1)))
        return rc;
    if (recvbuf == MPI_IN_PLACE)
        return ic_error(comm, IC_ERR_INPLACE, "IC_Allgather: recvbuf cannot be MPI_IN_PLACE");
    if (sendbuf == recvbuf && sendcount > 0)
        return ic_error(comm, MPI_ERR_BUFFER,
                        "IC_Allgather: sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)");
    if ((rc = check_side(&c, recvbuf, recvcount, recvtype, "recvcount", "recvtype", "recvbuf",
                         size)))
        return rc;
    ic_typeinfo_t sti, rti;
    if (!in_place)
        ic_typeinfo(sendtype, &sti);
    ic_typeinfo(recvtype, &rti);
    size_t bb = (size_t)recvcount * rti.size;
    if (!in_place && (size_t)sendcount * sti.size != bb)
        return truncated(&c);
    if (bb == 0)
        return MPI_SUCCESS;
    if ((rc = get_ctx(&c)) != MPI_SUCCESS)
        return rc;
    if (!alloc_counts(&c, size))
        return fail(&c, MPI_ERR_NO_MEM, "out of memory");
    for (int i = 0; i < size; i++)
        c.counts[i] = bb;
    c.a.coll = IC_COLL_ALLGATHER;
    c.a.counts = c.counts;
    c.a.sendcount = bb;
    c.a.in_place = in_place;
    c.a.units_match = 1;
    c.a.commutative = 1;
    ic_typeinfo_t bt = byte_ti;
    const ic_algorithm_t *alg;
    if ((rc = prepare(&c, 1, &bt, &alg)) != MPI_SUCCESS)
        return rc;
    if (!in_place && (rc = bind_send_bytes(&c, sendbuf, sendcount, &sti)))
        return fail(&c, rc, "cannot pack the send buffer");
    int staged = !bind_user(&c, IC_BUF_RECV, recvbuf, &rti);
    if (staged) {
        if ((rc = stage_recv(&c, bb * (size_t)size)))
            return fail(&c, rc, "out of memory");
        if (in_place &&
            (rc = pack_at(&c, (char *)recvbuf + (MPI_Aint)rank * recvcount * rti.extent,
                          recvcount, &rti, (char *)c.stage[1] + bb * (size_t)rank, bb)))
            return fail(&c, rc, "cannot pack own block");
    }
    if (in_place) /* SEND is not used; bind it to something valid */
        ic_binding_set(&c.b, IC_BUF_SEND, c.b.base[IC_BUF_RECV], &bt);
    if ((rc = execute(&c, alg, MPI_OP_NULL, 1)) != MPI_SUCCESS)
        return rc;
    if (staged && (rc = unpack_at(&c, c.stage[1], bb * (size_t)size, recvbuf,
                                  recvcount * size, &rti)))
        return fail(&c, rc, "cannot unpack the result");
    return done(&c);
}

/* Are displs (in elements of a contiguous type) the packed layout? */
static int packed_displs(const int *counts, const int *displs, int p)
{
    long long at = 0;
    for (int i = 0; i < p; i++) {
        if (displs[i] != at)
            return 0;
        at += counts[i];
    }
    return 1;
}

int IC_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                  MPI_Comm comm)
{
    call_t c;
    int rank, size, rc;
    if ((rc = begin(&c, "IC_Allgatherv", comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    int in_place = sendbuf == MPI_IN_PLACE;
    if (!recvcounts || !displs)
        return ic_error(comm, MPI_ERR_ARG, "IC_Allgatherv: recvcounts or displs is NULL");
    if (!in_place && (rc = check_side(&c, sendbuf, sendcount, sendtype, "sendcount", "sendtype",
                                      "sendbuf", 1)))
        return rc;
    if (recvbuf == MPI_IN_PLACE)
        return ic_error(comm, IC_ERR_INPLACE, "IC_Allgatherv: recvbuf cannot be MPI_IN_PLACE");
    if (sendbuf == recvbuf && sendcount > 0)
        return ic_error(comm, MPI_ERR_BUFFER,
                        "IC_Allgatherv: sendbuf and recvbuf are the same buffer "
                        "(use MPI_IN_PLACE)");
    if ((rc = ic_check_type(c.fn, comm, recvtype, "recvtype")))
        return rc;
    int maxc = 0;
    for (int i = 0; i < size; i++) {
        if ((rc = ic_check_count(c.fn, comm, recvcounts[i], "recvcounts[i]")))
            return rc;
        if (recvcounts[i] > maxc)
            maxc = recvcounts[i];
    }
    if ((rc = ic_check_buf(c.fn, comm, recvbuf, maxc, recvtype, "recvbuf")))
        return rc;
    ic_typeinfo_t sti, rti;
    if (!in_place)
        ic_typeinfo(sendtype, &sti);
    ic_typeinfo(recvtype, &rti);
    if (!in_place && (size_t)sendcount * sti.size != (size_t)recvcounts[rank] * rti.size)
        return truncated(&c);
    size_t total = 0;
    for (int i = 0; i < size; i++)
        total += (size_t)recvcounts[i] * rti.size;
    if (total == 0)
        return MPI_SUCCESS;
    if ((rc = get_ctx(&c)) != MPI_SUCCESS)
        return rc;
    c.counts = calloc((size_t)size, sizeof(size_t));
    c.displs = calloc((size_t)size, sizeof(size_t));
    if (!c.counts || !c.displs)
        return fail(&c, MPI_ERR_NO_MEM, "out of memory");
    /* Displacements may be negative (recvbuf need not be the lowest block):
     * the schedule sees the buffer from the lowest non-empty block on. */
    int dmin = 0, have = 0;
    for (int i = 0; i < size; i++)
        if (recvcounts[i] > 0 && (!have || displs[i] < dmin)) {
            dmin = displs[i];
            have = 1;
        }
    /* In place (bytes, or typed regions), block i is at byte (displs[i] -
     * dmin) size of the schedule's view (size = extent for contiguous). */
    for (int i = 0; i < size; i++) {
        c.counts[i] = (size_t)recvcounts[i] * rti.size;
        if (recvcounts[i] > 0)
            c.displs[i] = (size_t)((long long)displs[i] - dmin) * (size_t)rti.size;
    }
    c.a.coll = IC_COLL_ALLGATHERV;
    c.a.counts = c.counts;
    c.a.displs = c.displs;
    c.a.sendcount = c.counts[rank];
    c.a.in_place = in_place;
    c.a.units_match = 1;
    c.a.commutative = 1;
    ic_typeinfo_t bt = byte_ti;
    const ic_algorithm_t *alg;
    if ((rc = prepare(&c, 1, &bt, &alg)) != MPI_SUCCESS)
        return rc;
    int staged;
    if (recvbuf == MPI_BOTTOM && !rti.contiguous)
        staged = 1; /* absolute addresses: no offsets from MPI_BOTTOM */
    else
        staged = !bind_user(&c, IC_BUF_RECV, (char *)recvbuf + (MPI_Aint)dmin * rti.extent, &rti);
    if (staged) { /* rebuild on the packed layout of the staging area */
        free(c.displs);
        c.displs = NULL;
        c.a.displs = NULL;
        if ((rc = prepare(&c, 1, &bt, &alg)) != MPI_SUCCESS)
            return rc;
    }
    if (!in_place && (rc = bind_send_bytes(&c, sendbuf, sendcount, &sti)))
        return fail(&c, rc, "cannot pack the send buffer");
    if (staged) {
        if ((rc = stage_recv(&c, total)))
            return fail(&c, rc, "out of memory");
        size_t at = ic_blocks_prefix(c.counts, rank);
        if (in_place && (rc = pack_at(&c, (char *)recvbuf + (MPI_Aint)displs[rank] * rti.extent,
                                      recvcounts[rank], &rti, (char *)c.stage[1] + at,
                                      c.counts[rank])))
            return fail(&c, rc, "cannot pack own block");
    }
    if (in_place) /* SEND is not used; bind it to something valid */
        ic_binding_set(&c.b, IC_BUF_SEND, c.b.base[IC_BUF_RECV], &bt);
    if ((rc = execute(&c, alg, MPI_OP_NULL, 1)) != MPI_SUCCESS)
        return rc;
    for (int i = 0; staged && i < size; i++)
        if ((rc = unpack_at(&c, (char *)c.stage[1] + ic_blocks_prefix(c.counts, i), c.counts[i],
                            (char *)recvbuf + (MPI_Aint)displs[i] * rti.extent, recvcounts[i],
                            &rti)))
            return fail(&c, rc, "cannot unpack the result");
    return done(&c);
}

int IC_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
               MPI_Comm comm)
{
    call_t c;
    int rank, size, rc;
    if ((rc = begin(&c, "IC_Gatherv", comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    if ((rc = ic_check_root(c.fn, comm, root, size)))
        return rc;
    int is_root = rank == root, in_place = sendbuf == MPI_IN_PLACE;
    if (in_place && !is_root)
        return ic_error(comm, IC_ERR_INPLACE,
                        "IC_Gatherv: MPI_IN_PLACE is only valid at the root");
    if (!in_place && (rc = check_side(&c, sendbuf, sendcount, sendtype, "sendcount", "sendtype",
                                      "sendbuf", 1)))
        return rc;
    ic_typeinfo_t sti, rti;
    if (!in_place)
        ic_typeinfo(sendtype, &sti);
    if (is_root) {
        if (!recvcounts || !displs)
            return ic_error(comm, MPI_ERR_ARG, "IC_Gatherv: recvcounts or displs is NULL");
        if (recvbuf == MPI_IN_PLACE)
            return ic_error(comm, IC_ERR_INPLACE, "IC_Gatherv: recvbuf cannot be MPI_IN_PLACE");
        if ((rc = ic_check_type(c.fn, comm, recvtype, "recvtype")))
            return rc;
        int maxc = 0;
        for (int i = 0; i < size; i++) {
            if ((rc = ic_check_count(c.fn, comm, recvcounts[i], "recvcounts[i]")))
                return rc;
            if (recvcounts[i] > maxc)
                maxc = recvcounts[i];
        }
        if ((rc = ic_check_buf(c.fn, comm, recvbuf, maxc, recvtype, "recvbuf")))
            return rc;
        ic_typeinfo(recvtype, &rti);
        if (!in_place && (size_t)sendcount * sti.size != (size_t)recvcounts[rank] * rti.size)
            return truncated(&c);
    }
    if (size == 1 && in_place)
        return MPI_SUCCESS;
    if ((rc = get_ctx(&c)) != MPI_SUCCESS)
        return rc;
    if (!alloc_counts(&c, size))
        return fail(&c, MPI_ERR_NO_MEM, "out of memory");
    if (is_root)
        for (int i = 0; i < size; i++)
            c.counts[i] = (size_t)recvcounts[i] * rti.size;
    if (size > 1 && (rc = bcast_counts(&c, root)) != MPI_SUCCESS)
        return fail(&c, rc, "cannot distribute the block sizes");
    if (!in_place && (size_t)sendcount * sti.size != c.counts[rank]) {
        call_free(&c);
        return ic_error(comm, MPI_ERR_TRUNCATE,
                        "IC_Gatherv: sendcount does not match the root's recvcounts[%d]", rank);
    }
    size_t total = ic_blocks_total(c.counts, size);
    if (total == 0)
        return done(&c);
    c.a.coll = IC_COLL_GATHERV;
    c.a.root = root;
    c.a.counts = c.counts;
    c.a.sendcount = c.counts[rank];
    c.a.in_place = in_place;
    c.a.units_match = 1;
    c.a.commutative = 1;
    ic_typeinfo_t bt = byte_ti;
    const ic_algorithm_t *alg;
    if ((rc = prepare(&c, 1, &bt, &alg)) != MPI_SUCCESS)
        return rc;
    if (!in_place && (rc = bind_send_bytes(&c, sendbuf, sendcount, &sti)))
        return fail(&c, rc, "cannot pack the send buffer");
    int staged = is_root && !(packed_displs(recvcounts, displs, size) &&
                              bind_user(&c, IC_BUF_RECV, recvbuf, &rti));
    if (staged) {
        if ((rc = stage_recv(&c, total)))
            return fail(&c, rc, "out of memory");
        if (in_place &&
            (rc = pack_at(&c, (char *)recvbuf + (MPI_Aint)displs[root] * rti.extent,
                          recvcounts[root], &rti,
                          (char *)c.stage[1] + ic_blocks_prefix(c.counts, root),
                          c.counts[root])))
            return fail(&c, rc, "cannot pack the root's block");
    }
    if (in_place)
        ic_binding_set(&c.b, IC_BUF_SEND, c.b.base[IC_BUF_RECV], &bt);
    if ((rc = execute(&c, alg, MPI_OP_NULL, 1)) != MPI_SUCCESS)
        return rc;
    for (int i = 0; staged && i < size; i++) {
        if (i == root && in_place)
            continue;
        if ((rc = unpack_at(&c, (char *)c.stage[1] + ic_blocks_prefix(c.counts, i), c.counts[i],
                            (char *)recvbuf + (MPI_Aint)displs[i] * rti.extent, recvcounts[i],
                            &rti)))
            return fail(&c, rc, "cannot unpack the result");
    }
    return done(&c);
}

int IC_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                int root, MPI_Comm comm)
{
    call_t c;
    int rank, size, rc;
    if ((rc = begin(&c, "IC_Scatterv", comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    if ((rc = ic_check_root(c.fn, comm, root, size)))
        return rc;
    int is_root = rank == root, in_place = recvbuf == MPI_IN_PLACE;
    if (in_place && !is_root)
        return ic_error(comm, IC_ERR_INPLACE,
                        "IC_Scatterv: MPI_IN_PLACE is only valid at the root");
    ic_typeinfo_t sti, rti;
    if (is_root) {
        if (!sendcounts || !displs)
            return ic_error(comm, MPI_ERR_ARG, "IC_Scatterv: sendcounts or displs is NULL");
        if (sendbuf == MPI_IN_PLACE)
            return ic_error(comm, IC_ERR_INPLACE, "IC_Scatterv: sendbuf cannot be MPI_IN_PLACE");
        if ((rc = ic_check_type(c.fn, comm, sendtype, "sendtype")))
            return rc;
        int maxc = 0;
        for (int i = 0; i < size; i++) {
            if ((rc = ic_check_count(c.fn, comm, sendcounts[i], "sendcounts[i]")))
                return rc;
            if (sendcounts[i] > maxc)
                maxc = sendcounts[i];
        }
        if ((rc = ic_check_buf(c.fn, comm, sendbuf, maxc, sendtype, "sendbuf")))
            return rc;
        ic_typeinfo(sendtype, &sti);
    }
    if (!in_place) {
        if ((rc = check_side(&c, recvbuf, recvcount, recvtype, "recvcount", "recvtype",
                             "recvbuf", 1)))
            return rc;
        ic_typeinfo(recvtype, &rti);
        if (is_root && (size_t)sendcounts[rank] * sti.size != (size_t)recvcount * rti.size)
            return truncated(&c);
    }
    if (size == 1 && in_place)
        return MPI_SUCCESS;
    if ((rc = get_ctx(&c)) != MPI_SUCCESS)
        return rc;
    if (!alloc_counts(&c, size))
        return fail(&c, MPI_ERR_NO_MEM, "out of memory");
    if (is_root)
        for (int i = 0; i < size; i++)
            c.counts[i] = (size_t)sendcounts[i] * sti.size;
    if (size > 1 && (rc = bcast_counts(&c, root)) != MPI_SUCCESS)
        return fail(&c, rc, "cannot distribute the block sizes");
    if (!in_place && (size_t)recvcount * rti.size != c.counts[rank]) {
        call_free(&c);
        return ic_error(comm, MPI_ERR_TRUNCATE,
                        "IC_Scatterv: recvcount does not match the root's sendcounts[%d]", rank);
    }
    size_t total = ic_blocks_total(c.counts, size);
    if (total == 0)
        return done(&c);
    c.a.coll = IC_COLL_SCATTERV;
    c.a.root = root;
    c.a.counts = c.counts;
    c.a.recvcount = c.counts[rank];
    c.a.in_place = in_place;
    c.a.units_match = 1;
    c.a.commutative = 1;
    ic_typeinfo_t bt = byte_ti;
    const ic_algorithm_t *alg;
    if ((rc = prepare(&c, 1, &bt, &alg)) != MPI_SUCCESS)
        return rc;
    if (is_root) {
        if (!(packed_displs(sendcounts, displs, size) &&
              bind_user(&c, IC_BUF_SEND, sendbuf, &sti))) {
            c.stage[0] = malloc(total);
            if (!c.stage[0])
                return fail(&c, MPI_ERR_NO_MEM, "out of memory");
            for (int i = 0; i < size; i++)
                if (c.counts[i] &&
                    (rc = pack_at(&c, (const char *)sendbuf + (MPI_Aint)displs[i] * sti.extent,
                                  sendcounts[i], &sti,
                                  (char *)c.stage[0] + ic_blocks_prefix(c.counts, i),
                                  c.counts[i])))
                    return fail(&c, rc, "cannot pack the send buffer");
            ic_binding_set(&c.b, IC_BUF_SEND, c.stage[0], &bt);
        }
    }
    int staged = !in_place && !bind_user(&c, IC_BUF_RECV, recvbuf, &rti);
    if (staged) {
        if ((rc = stage_recv(&c, c.counts[rank])))
            return fail(&c, rc, "out of memory");
    } else if (in_place) {
        ic_binding_set(&c.b, IC_BUF_RECV, NULL, &bt);
    }
    if ((rc = execute(&c, alg, MPI_OP_NULL, 1)) != MPI_SUCCESS)
        return rc;
    if (staged && (rc = unpack_at(&c, c.stage[1], c.counts[rank], recvbuf, recvcount, &rti)))
        return fail(&c, rc, "cannot unpack the result");
    return done(&c);
}

/* ============================================================== barrier */

int IC_Barrier(MPI_Comm comm)
{
    call_t c;
    int rank, size, rc;
    if ((rc = begin(&c, "IC_Barrier", comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    if (size == 1)
        return MPI_SUCCESS;
    if ((rc = get_ctx(&c)) != MPI_SUCCESS)
        return rc;
    c.a.coll = IC_COLL_BARRIER;
    c.a.commutative = 1;
    c.a.units_match = 1;
    ic_typeinfo_t bt = byte_ti;
    ic_binding_set(&c.b, IC_BUF_SEND, NULL, &bt);
    ic_binding_set(&c.b, IC_BUF_RECV, NULL, &bt);
    return run_done(&c, MPI_OP_NULL, 1, 1, &bt);
}
