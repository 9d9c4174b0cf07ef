/*
 * api.c -- the IC_ collectives: MPI's signatures, InterCom's algorithms.
 *
 * Each call: checks its arguments, gets the communicator's context,
 * describes itself as an ic_coll_args_t, lets the selector choose an
 * algorithm, builds this rank's schedule, binds the schedule's buffers and
 * runs it.  See ic_internal.h for the units: the reductions work in
 * elements of the user's datatype, the broadcast and the gather family in
 * bytes (see "bytes and datatypes" below).
 *
 * Counts.  Every call is written once, on 64-bit counts (MPI_Count) and
 * displacements (MPI_Aint): the IC_ functions with MPI's int arguments and,
 * where the MPI has MPI-4's large-count calls, the IC_*_c functions are thin
 * wrappers.  Sizes and offsets are size_t throughout; the executor cuts
 * anything longer than MPI's int counts hold into pieces (IC_MSG_MAX), so
 * a call may move any amount MPI allows: up to INT_MAX elements of any
 * extent per argument, totals beyond INT_MAX elements and 2^31 bytes.
 *
 * Errors only one rank can see.  MPI requires some arguments to agree
 * across the ranks of a collective (the root, the amount of data in each
 * block, the op), and the shape of the communication -- which messages go
 * between which ranks, and how long they are -- depends on those only.
 * The other arguments matter only where they are passed: the buffers, a
 * rank's own datatype and its commit state, and the arguments significant
 * at the root only.  A rank that finds a mistake in those still knows the
 * shape, so it takes its part: it receives into scratch, sends zeros in
 * place of data it cannot read, writes nothing the user owns (and skips
 * its reductions when its op or datatype is unusable), and raises the
 * error after the communication.  Every message of the call is matched
 * within the call, so the communicator stays consistent and the next call
 * is correct on every rank.  In gatherv and scatterv only the root knows
 * the block sizes: a root whose counts are unusable sends, instead of
 * them, a flag that ends the call on every rank.  A mistake that hides
 * the shape from the rank that makes it (a negative count, an invalid
 * datatype, a root out of range) is raised at once, before any
 * communication: when every rank makes it, every rank returns the error;
 * when only some do, the others wait for them, as in the vendor's own
 * collectives (MPI calls such programs erroneous).
 */
#include "config.h"
#include "ic_internal.h"
#include "choose.h"

#include <limits.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Where no progress hook exists (progress.c: SimGrid's SMPI), the IC_I*
 * calls are the MPI's own nonblocking collectives. */
#if defined(SMPI_H)
#define IC_NB_VENDOR 1
#else
#define IC_NB_VENDOR 0
#endif

/* Per-rank counts and displacements, as int (the IC_ calls) or as
 * MPI_Count and MPI_Aint (the IC_*_c calls). */
typedef struct cview {
    const int *i;
    const MPI_Count *c;
} cview_t;
typedef struct dview {
    const int *i;
    const MPI_Aint *a;
} dview_t;

static long long cv(cview_t v, int k)
{
    return v.i ? (long long)v.i[k] : (long long)v.c[k];
}
static int cv_null(cview_t v)
{
    return !v.i && !v.c;
}
static long long dv(dview_t v, int k)
{
    return v.i ? (long long)v.i[k] : (long long)v.a[k];
}
static int dv_null(dview_t v)
{
    return !v.i && !v.a;
}
static cview_t cv_int(const int *x)
{
    cview_t v = {x, NULL};
    return v;
}
static dview_t dv_int(const int *x)
{
    dview_t v = {x, NULL};
    return v;
}

/* What a call hands back to the user after its schedule (then_unpack):
 * the staged receive side unpacked into the user's buffer, whole (one
 * block of ucount elements at ubuf) or block by block (the v-calls: block
 * i of ucounts[i] elements at ubuf + udispls[i] extents, but block skip).
 * The views of a nonblocking call point into the user's arrays, which MPI
 * keeps untouched until the call completes. */
typedef struct unpack {
    void *ubuf;
    long long ucount;
    ic_typeinfo_t uti;
    int blocks, skip;
    cview_t ucounts;
    dview_t udispls;
} unpack_t;

/* A call: from its arguments to its end.  A blocking call lives on the
 * caller's stack, uses the context's cached schedule and scratch and runs
 * to its end in one go; a nonblocking one (nb) lives on the heap, owns its
 * schedule, scratch and staging and the tag of its place in the
 * communicator's sequence, and its schedule runs as the progress engine
 * (src/progress.c) moves it on.  Either way each phase of a call is a
 * schedule followed by `then` (what comes after it: unpacking the result,
 * or, for gatherv and scatterv after the block sizes arrived, the
 * gather's own schedule), so both kinds run the same code. */
/* The arguments of a persistent call, bound at its init and used by every
 * start (persist_run). */
typedef enum pkind {
    P_BCAST,
    P_REDUCE,
    P_ALLREDUCE,
    P_REDUCE_SCATTER,
    P_REDUCE_SCATTER_BLOCK,
    P_GATHER,
    P_GATHERV,
    P_SCATTER,
    P_SCATTERV,
    P_ALLGATHER,
    P_ALLGATHERV,
    P_BARRIER
} pkind_t;
typedef struct pargs {
    pkind_t kind;
    const void *sbuf;
    void *rbuf;
    MPI_Count scount, rcount;  /* the reductions' and bcast's count: rcount */
    MPI_Datatype stype, rtype; /* theirs: rtype                           */
    MPI_Op op;
    int root;
    MPI_Comm comm;
    cview_t counts;
    dview_t displs;
    const char *fn;
} pargs_t;

typedef struct call call_t;
typedef int (*then_t)(call_t *c);
struct call {
    const char *fn;
    MPI_Comm comm;
    ic_ctx_t *ctx;
    ic_coll_args_t a;
    ic_binding_t b;
    size_t *counts;    /* owned */
    size_t *displs;    /* owned */
    void *stage[2];    /* owned staging areas or stand-ins for SEND / RECV */
    size_t packed;     /* bytes packed or unpacked through them */
    size_t elem;       /* bytes per element of the selection (prepare)      */
    size_t gran;       /* byte-counted collectives: bytes per schedule unit
                          (0 = 1; see "bytes and datatypes")              */
    int blind;         /* the mistake hides the call's shape: raise now   */
    int quiet;         /* not the call's own schedule (block sizes)        */
    int aux_made;      /* aux (below) is initialised                       */
    uint64_t *sizes;   /* the block sizes' message (p + 1 words)         */
    ic_nbsched_t *nbs; /* nb: the context's schedule it runs, or NULL   */
    /* Last: begin() clears only their codes (the rest is written when a
     * check fails), which keeps a call's set-up to a few cache lines. */
    ic_argerr_t t; /* what the last check found                       */
    ic_argerr_t e; /* the first mistake of the call (e.code 0: none)  */
    /* Set before begin() (call_init, nb_new) and kept by it. */
    int nb;       /* nonblocking (see above)                          */
    int keep;     /* persistent: own, key and scratch last across runs */
    int dry;      /* persistent, at init: prepare, but do not launch  */
    int ready;    /* ... it got as far as launching                    */
    int rerun;    /* ... and a start may run the last run's schedule,
                     bindings and scratch again as they are (launch)    */
    int own_made; /* own is initialised                                */
    /* Written before they are read (prepare, launch, the descriptions). */
    ic_plan_t plan;                /* the plan of the phase under way             */
    ic_sched_t *s;                 /* its schedule: &ctx->sched, or &own           */
    MPI_Op op;                     /* its reduction (MPI_OP_NULL: none)          */
    int commutative;               /* ... and whether it commutes                */
    then_t then;                   /* what follows the schedule (NULL: the end)    */
    then_t after;                  /* gatherv, scatterv: what follows the sizes    */
    unpack_t u;                    /* then_unpack's arguments                     */
    double t0;                     /* INTERCOM_TRACE: the schedule's start         */
    ic_call_state_t st;            /* nb: the request and the engine's view (progress.c) */
    ic_exec_t x;                   /* nb: the schedule running                     */
    ic_sched_t own;                /* nb: its schedule                             */
    ic_sched_key_t key;            /* persistent: what own holds                   */
    ic_sched_t aux;                /* the block sizes' schedule                    */
    void *scratch[IC_NBUF];        /* nb: its own scratch ...                      */
    size_t scratch_bytes[IC_NBUF]; /* ... of these sizes                   */
    pargs_t pa;                    /* persistent: the arguments of every start     */
    /* the user's side of gatherv and scatterv, kept for their second phase */
    const void *sbuf;
    void *rbuf;
    long long scount, rcount;
    ic_typeinfo_t sti, rti;
    cview_t vcounts;
    dview_t vdispls;
    int in_place, is_root, bad_send, bad_recv;
};

/* The byte unit of the broadcast and the gather family: MPI_PACKED, which
 * matches any datatype (MPI's type-matching rules), so a rank that sends
 * or receives a typed region of its own datatype in place and a rank that
 * uses bytes (a contiguous buffer, a staging area) make a legal pair. */
static const ic_typeinfo_t byte_ti = {MPI_PACKED, 0, 1, 0, 1, 1, 1};

/* What a nonblocking call keeps over its run (a persistent one over all
 * of them). */
static void call_free_kept(call_t *c)
{
    for (int k = 0; k < IC_NBUF; k++) {
        free(c->scratch[k]);
        c->scratch[k] = NULL;
        c->scratch_bytes[k] = 0;
    }
    if (c->own_made)
        ic_sched_free(&c->own);
    c->own_made = 0;
    ic_sched_key_drop(&c->key);
}

/* The end of a call's run: what it allocated for this run goes (a
 * persistent call keeps its schedule and scratch for the next). */
static void call_free(call_t *c)
{
    if (c->counts || c->displs || c->stage[0] || c->stage[1]) {
        free(c->counts);
        free(c->displs);
        free(c->stage[0]);
        free(c->stage[1]);
        c->counts = c->displs = NULL;
        c->stage[0] = c->stage[1] = NULL;
    }
    if (c->nb) {
        ic_exec_abandon(&c->x, !c->keep); /* a persistent call keeps its arrays */
        if (c->nbs)
            ic_nbsched_put(c->nbs);
        c->nbs = NULL;
        if (!c->keep)
            call_free_kept(c);
    } else if (c->ctx)
        ic_ctx_release_scratch(c->ctx);
    if (c->aux_made)
        ic_sched_free(&c->aux);
    c->aux_made = 0;
    if (c->sizes) {
        free(c->sizes);
        c->sizes = NULL;
    }
}

/* Keep the result rc of a check (in c->t): the first mistake is the one
 * the call reports; `blind`: this one hides the call's shape.  Returns 1
 * when the check failed. */
static int chk(call_t *c, int rc, int blind)
{
    if (rc == MPI_SUCCESS)
        return 0;
    if (!c->e.code)
        c->e = c->t;
    if (blind)
        c->blind = 1;
    return 1;
}

/* A mistake found here (not by an ic_check_ function). */
static int mistake(call_t *c, int blind, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int mistake(call_t *c, int blind, int code, const char *fmt, ...)
{
    char m[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof(m), fmt, ap);
    va_end(ap);
    return chk(c, ic_argerr(&c->t, code, "%s", m), blind);
}

/* The end of a call with code (MPI_SUCCESS or an error).  A blocking call,
 * or a nonblocking one still in its start, raises an error through the
 * communicator's handler (as MPI does) and returns it; a nonblocking one
 * already under way hands it to its request (progress.c). */
static inline int end(call_t *c, int code, const char *msg)
{
    call_free(c);
    if (c->nb && c->st.started)
        return ic_call_over(&c->st, code);
    if (c->nb)
        c->st.over = 1;
    if (code == MPI_SUCCESS)
        return MPI_SUCCESS;
    return ic_error(c->comm, code, "%s", msg);
}

/* Raise the call's mistake through the communicator's error handler. */
static int raise_err(call_t *c)
{
    return end(c, c->e.code, c->e.msg);
}

/* A failure of the library or of MPI while running the call. */
static int fail(call_t *c, int rc, const char *what)
{
    char s[MPI_MAX_ERROR_STRING], m[MPI_MAX_ERROR_STRING + 160];
    int len = 0;
    if (MPI_Error_string(rc, s, &len) != MPI_SUCCESS)
        strcpy(s, "unknown error");
    snprintf(m, sizeof(m), "%s: %s: %s", c->fn, what, s);
    return end(c, rc, m);
}

/* Common prologue: MPI state and communicator.  On success fills size/rank. */
static int begin(call_t *c, const char *fn, MPI_Comm comm, int *rank, int *size)
{
    memset(c, 0, offsetof(call_t, t));
    c->fn = fn;
    c->t.fn = c->e.fn = fn;
    c->t.code = c->e.code = 0;
    c->comm = comm;
    if (ic_npending || ic_npersist) /* every IC_ call moves the nonblocking ones on */
        ic_progress();
    /* checked when it was made; a persistent call's start uses the context
     * of its init (the program may have freed the communicator since) */
    const ic_ctx_t *known = c->nb && c->keep && !c->dry ? c->st.ctx : ic_ctx_known(comm);
    if (known) {
        *rank = known->rank;
        *size = known->size;
        return MPI_SUCCESS;
    }
    int rc = ic_check_init(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = ic_check_comm(fn, comm)) != MPI_SUCCESS)
        return rc;
    MPI_Comm_rank(comm, rank);
    MPI_Comm_size(comm, size);
    return MPI_SUCCESS;
}

/* The context; a nonblocking call also takes its place in the
 * communicator's sequence (every rank that gets here for this call does,
 * in the same order). */
static inline int get_ctx(call_t *c)
{
    int rc = MPI_SUCCESS;
    if (c->nb && c->keep && !c->dry)
        c->ctx = c->st.ctx;
    else
        rc = ic_ctx_get(c->comm, &c->ctx);
    if (rc != MPI_SUCCESS)
        return fail(c, rc, "cannot set up the communicator's context");
    c->a.rank = c->ctx->rank;
    c->a.size = c->ctx->size;
    if (c->nb && !c->keep)
        ic_call_enter(&c->st, c->ctx);
    else if (c->keep && c->dry)
        ic_call_enter_persistent(&c->st, c->ctx);
    return MPI_SUCCESS;
}

/* Is `type` committed?  (A failed check is kept as a mistake of this rank
 * only: it takes part with stand-ins.)  Returns 1 when it is not.  Runs
 * before the calls that move nothing return, so those report it too. */
static int uncommitted(call_t *c, MPI_Datatype type, const char *what)
{
    return chk(c, ic_check_committed(&c->t, type, what), 0);
}

static size_t *alloc_counts(call_t *c, int p)
{
    c->counts = calloc((size_t)p ? (size_t)p : 1, sizeof(size_t));
    return c->counts;
}

/* Zeroed memory standing in for a user buffer this rank cannot use
 * (side 0: SEND, 1: RECV); NULL when out of memory. */
static void *standin(call_t *c, int side, size_t bytes)
{
    free(c->stage[side]);
    c->stage[side] = calloc(bytes ? bytes : 1, 1);
    return c->stage[side];
}

/* Scratch buffer k of at least `bytes` bytes: the context's cache, or a
 * nonblocking call's own. */
static void *scratch(call_t *c, int k, size_t bytes)
{
    if (!c->nb)
        return ic_ctx_scratch(c->ctx, k, bytes);
    if (c->scratch[k] && c->scratch_bytes[k] >= bytes)
        return c->scratch[k];
    free(c->scratch[k]);
    c->scratch[k] = malloc(bytes ? bytes : 1);
    c->scratch_bytes[k] = c->scratch[k] ? bytes : 0;
    return c->scratch[k];
}

/* Select the plan, build this rank's schedule and bind its scratch (in
 * units of `sti`) into c->plan, c->s.  A blocking call runs the context's
 * cached schedule when it is this call's; a nonblocking one builds its
 * own.  On failure the call is cleaned up (fail()). */
static int prepare(call_t *c, size_t elem, const ic_typeinfo_t *sti)
{
    ic_ctx_t *ctx = c->ctx;
    c->elem = elem;
    /* messages longer than the slack keep their scratch within themselves */
    c->a.bounded_from = ic_bounded_from(ic_env()->scratch_slack, elem);
    ic_sched_key_t *key = &ctx->built;
    c->s = &ctx->sched;
    if (c->nbs) { /* a phase before this one's */
        ic_nbsched_put(c->nbs);
        c->nbs = NULL;
    }
    if (c->nb && !c->keep && (c->nbs = ic_nbsched_get(ctx, &c->a, elem, c->gran))) {
        c->s = &c->nbs->s;
        key = &c->nbs->key;
    } else if (c->nb) {
        if (!c->own_made)
            ic_sched_init(&c->own, ctx->rank, ctx->size);
        c->own_made = 1;
        c->s = &c->own;
        key = c->keep ? &c->key : NULL;
    }
    if (!key || !ic_sched_key_hit(key, &c->a, elem, c->gran, &c->plan)) {
        if (key)
            ic_sched_key_drop(key);
        if (ic_select(ctx, &c->a, elem, &c->plan) != 0)
            return fail(c, MPI_ERR_INTERN, "no algorithm can serve this call");
        ic_sched_reset(c->s, ctx->rank, ctx->size);
        if (ic_plan_build(c->s, &c->plan, &c->a) != 0 || ic_sched_ok(c->s) != 0)
            return fail(c, MPI_ERR_NO_MEM, "cannot build the schedule");
        if (key)
            ic_sched_key_keep(key, &c->a, elem, c->gran, &c->plan);
    }
    for (int k = IC_BUF_SCRATCH; k <= IC_BUF_SCRATCH2; k++) {
        size_t n = c->s->scratch[k] * (c->gran ? c->gran : 1);
        ic_binding_set_bytes(&c->b, k, NULL, sti, c->gran);
        if (n == 0)
            continue;
        size_t bytes = ic_type_span(sti, n);
        char *mem = scratch(c, k, bytes);
        if (!mem)
            return fail(c, MPI_ERR_NO_MEM, "out of memory for scratch");
        ic_binding_set_bytes(&c->b, k, mem - sti->true_lb, sti, c->gran);
    }
    return MPI_SUCCESS;
}

/* End of a call: the mistake this rank found (after it took its part), or
 * success. */
static int done(call_t *c)
{
    if (c->e.code && !(c->nb && c->st.raised))
        return raise_err(c);
    ic_record_packed(c->a.coll, c->packed);
    return end(c, c->e.code, c->e.msg);
}

/* The schedule c->s has run to its end: the trace's record of the call
 * and IC_Last_algorithm's; then what follows it. */
static inline int ran(call_t *c)
{
    if (c->t0 != 0)
        ic_trace_call(c->ctx, &c->a, &c->plan, c->gran ? c->gran : c->elem, c->t0, MPI_Wtime());
    if (!c->quiet && !c->nb)
        ic_record_last(c->a.coll, &c->plan, c->gran);
    then_t then = c->then;
    c->then = NULL;
    return then ? then(c) : done(c);
}

static int then_sizes(call_t *c);

/* A nonblocking or persistent call's schedule c->s starts (it moves on in
 * the engine: ic_call_step). */
static void nb_run(call_t *c)
{
    if (ic_trace_on() && !c->quiet) {
        ic_trace_call_begin();
        c->t0 = MPI_Wtime();
    }
    if (!c->quiet) /* IC_Last_algorithm: the plan of the call started last */
        ic_record_last(c->a.coll, &c->plan, c->gran);
    int lane = ic_exec_begin(&c->x, c->ctx, c->s, &c->b, c->op, c->commutative, c->st.tag,
                             c->keep ? c->st.lane : IC_LANE_NB);
    /* in turn on lane IC_LANE_NB (shm.c: "Lanes"); a call of two phases
     * from its first, whatever that one sends */
    if (!c->keep && (lane == IC_LANE_NB || (c->then == then_sizes && ic_shm_lanes(c->ctx))))
        c->st.lane_nb = 1;
    c->st.running = 1;
}

/* The driver: run the prepared schedule c->s with reduction op, then
 * `then` (NULL: the call ends).  A blocking call runs it to its end here;
 * a nonblocking one starts it and returns: the progress engine calls
 * ic_call_progress() until it has run. */
static int launch(call_t *c, MPI_Op op, int commutative, then_t then)
{
    c->op = op;
    c->commutative = commutative;
    c->then = then;
    c->t0 = 0;
    /* A persistent call whose description did nothing but bind the
     * arguments and build (no staging, no phase after this one, no
     * mistake): its next starts run this schedule again at once. */
    if (c->keep)
        c->rerun = !then && !c->stage[0] && !c->stage[1] && !c->counts && !c->displs && !c->sizes &&
                   !c->aux_made && !c->e.code;
    if (c->dry) { /* a persistent call's init: ready for its starts */
        c->ready = 1;
        return MPI_SUCCESS;
    }
    if (c->nb) {
        nb_run(c);
        return MPI_SUCCESS;
    }
    if (ic_trace_on() && !c->quiet) {
        ic_trace_call_begin();
        c->t0 = MPI_Wtime();
    }
    int rc = ic_exec(c->ctx, c->s, &c->b, op, commutative);
    if (rc != MPI_SUCCESS)
        return fail(c, rc, "communication failed");
    return ran(c);
}

/* Select, build, bind scratch (in units of `sti`) and run. */
static int run_done(call_t *c, MPI_Op op, int commutative, size_t elem, const ic_typeinfo_t *sti)
{
    int rc = prepare(c, elem, sti);
    return rc == MPI_SUCCESS ? launch(c, op, commutative, NULL) : rc;
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
 * reject a NULL buffer.  Packing runs over whole elements, at most INT_MAX
 * bytes at a time (MPI_Pack's sizes are ints); an element that is itself
 * longer than that cannot be packed (MPI_ERR_COUNT).
 * IC_Last_packed_bytes() tells what a call packed.  The message to self
 * carries IC_TAG_STAGE (ic_internal.h).
 */

/* Elements of `ti` per piece of at most INT_MAX packed bytes (0: one
 * element is longer). */
static long long pack_step(const ic_typeinfo_t *ti)
{
    return ti->size > 0 ? INT_MAX / ti->size : INT_MAX;
}

/* Pack or unpack (unpack != 0) count elements of ti at user buffer `ubuf`
 * to or from the packed bytes at `pk`. */
static int pack_loop(call_t *c, int unpack, void *ubuf, long long count, const ic_typeinfo_t *ti,
                     char *pk)
{
    long long step = pack_step(ti);
    if (count > 0 && step == 0)
        return MPI_ERR_COUNT;
    int rc = MPI_SUCCESS;
    for (long long i = 0; i < count && rc == MPI_SUCCESS; i += step) {
        int n = (int)(count - i < step ? count - i : step);
        int bytes = n * ti->size, pos = 0;
        char *u = i ? (char *)ubuf + (MPI_Aint)i * ti->extent : (char *)ubuf;
        char *p = pk + (size_t)i * (size_t)ti->size;
        if (ubuf == MPI_BOTTOM && !unpack)
            rc = MPI_Sendrecv(u, n, ti->type, c->ctx->rank, IC_TAG_STAGE, p, bytes, MPI_PACKED,
                              c->ctx->rank, IC_TAG_STAGE, c->ctx->comm, MPI_STATUS_IGNORE);
        else if (ubuf == MPI_BOTTOM)
            rc = MPI_Sendrecv(p, bytes, MPI_PACKED, c->ctx->rank, IC_TAG_STAGE, u, n, ti->type,
                              c->ctx->rank, IC_TAG_STAGE, c->ctx->comm, MPI_STATUS_IGNORE);
        else if (!unpack)
            rc = MPI_Pack(u, n, ti->type, p, bytes, &pos, c->ctx->comm);
        else
            rc = MPI_Unpack(p, bytes, &pos, u, n, ti->type, c->ctx->comm);
    }
    return rc;
}

/* Pack `count` elements of ti at src into dst (count x size bytes).  A
 * failure is a mistake of this rank (it goes on with zeros). */
static int pack_at(call_t *c, const void *src, long long count, const ic_typeinfo_t *ti, char *dst)
{
    size_t bytes = (size_t)count * (size_t)ti->size;
    c->packed += bytes;
    int rc = pack_loop(c, 0, (void *)src, count, ti, dst);
    if (rc != MPI_SUCCESS) {
        memset(dst, 0, bytes);
        return chk(c,
                   ic_argerr(&c->t, rc, "cannot pack the data (datatype %s)",
                             pack_step(ti) ? "rejected by MPI_Pack" : "element over 2 GiB"),
                   0);
    }
    return 0;
}

/* Unpack count elements of ti from src (count x size bytes) to dst. */
static int unpack_at(call_t *c, const char *src, void *dst, long long count,
                     const ic_typeinfo_t *ti)
{
    if (count == 0 || ti->size == 0)
        return MPI_SUCCESS;
    c->packed += (size_t)count * (size_t)ti->size;
    return pack_loop(c, 1, dst, count, ti, (char *)src);
}

/* then: unpack the staged result (c->u) into the user's buffer; the end. */
static int then_unpack(call_t *c)
{
    unpack_t *u = &c->u;
    int rc = MPI_SUCCESS;
    if (!u->blocks)
        rc = unpack_at(c, c->stage[1], u->ubuf, u->ucount, &u->uti);
    for (int i = 0; u->blocks && rc == MPI_SUCCESS && i < c->ctx->size; i++)
        if (i != u->skip)
            rc = unpack_at(c, (char *)c->stage[1] + ic_blocks_prefix(c->counts, i),
                           (char *)u->ubuf + (MPI_Aint)dv(u->udispls, i) * u->uti.extent,
                           cv(u->ucounts, i), &u->uti);
    if (rc != MPI_SUCCESS)
        return fail(c, rc, "cannot unpack the result");
    return done(c);
}

/* Run the prepared schedule of a data movement; then, when `on`, unpack
 * ucount elements of uti from the staging area into ubuf. */
static int launch_unpack(call_t *c, int on, void *ubuf, long long ucount, const ic_typeinfo_t *uti)
{
    if (!on)
        return launch(c, MPI_OP_NULL, 1, NULL);
    c->u.blocks = 0;
    c->u.ubuf = ubuf;
    c->u.ucount = ucount;
    c->u.uti = *uti;
    return launch(c, MPI_OP_NULL, 1, then_unpack);
}

/* The same, block by block (the v-calls), all but block skip (-1: none). */
static int launch_unpack_blocks(call_t *c, int on, void *ubuf, cview_t counts, dview_t displs,
                                const ic_typeinfo_t *uti, int skip)
{
    if (!on)
        return launch(c, MPI_OP_NULL, 1, NULL);
    c->u.blocks = 1;
    c->u.ubuf = ubuf;
    c->u.ucounts = counts;
    c->u.udispls = displs;
    c->u.uti = *uti;
    c->u.skip = skip;
    return launch(c, MPI_OP_NULL, 1, then_unpack);
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

/* Bind buffer `buf` to a zeroed stand-in of `bytes` bytes (side 0 SEND,
 * 1 RECV). */
static int bind_standin(call_t *c, int buf, int side, size_t bytes)
{
    void *m = standin(c, side, bytes);
    if (!m)
        return MPI_ERR_NO_MEM;
    bind_bytes(c, buf, m);
    return MPI_SUCCESS;
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
        !ic_sched_aligned(c->s, buf, g, (size_t)ti->size, c->ctx->chunk))
        return 0;
    ic_binding_set_bytes(&c->b, buf, (void *)base, ti, g);
    return 1;
}

/* Bind SEND to the caller's contribution of `count` x `ti` (`bytes`
 * bytes) after prepare(): in place if it can, else packed; zeros when
 * `bad` (this rank's mistake). */
static int bind_send_bytes(call_t *c, const void *buf, long long count, const ic_typeinfo_t *ti,
                           size_t bytes, int bad)
{
    if (bad)
        return bind_standin(c, IC_BUF_SEND, 0, bytes);
    if (count == 0 || bind_user(c, IC_BUF_SEND, buf, ti)) {
        if (count == 0)
            bind_bytes(c, IC_BUF_SEND, buf);
        return MPI_SUCCESS;
    }
    c->stage[0] = malloc(bytes ? bytes : 1);
    if (!c->stage[0])
        return MPI_ERR_NO_MEM;
    pack_at(c, buf, count, ti, c->stage[0]);
    bind_bytes(c, IC_BUF_SEND, c->stage[0]);
    return MPI_SUCCESS;
}

/* Stage RECV in `bytes` packed bytes (when the receive side cannot be used
 * in place, or as a stand-in). */
static int stage_recv(call_t *c, size_t bytes)
{
    return bind_standin(c, IC_BUF_RECV, 1, bytes);
}

/* ================================================================ bcast */

/* The broadcast's schedule unit: a divisor of the message's n bytes, the
 * same on every rank (a function of n and p), so that the blocks and
 * segments the long-vector algorithms cut fall on element boundaries of
 * any datatype whose size divides it.  The largest divisor of n made of
 * 2^12, 3^2, 5 and 7 (element sizes 1 to 10, 12, 14, 15, 16, 18, 20, 24,
 * ... and their multiples up to 4 KiB), reduced (7, 5, the twos above 16,
 * the threes, the rest) until n has at least 16 p units, so that blocks
 * and segments stay even to within 1/16.  (Every such unit divides
 * IC_MSG_MAX, so the executor's pieces of long messages fall on them.) */
static size_t bcast_granule(size_t n, int p)
{
    static IC_TLS size_t last_n, last_p, last_g; /* a loop of one call: once */
    if (n == last_n && (size_t)p == last_p && last_g)
        return last_g;
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
    last_n = n;
    last_p = (size_t)p;
    last_g = g;
    return g;
}

static int bcast_impl(call_t *c, void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                      MPI_Comm comm, const char *fn)
{
    int rank, size, rc;
    if ((rc = begin(c, fn, comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    if (chk(c, ic_check_count(&c->t, count, "count"), 1) ||
        chk(c, ic_check_type(&c->t, datatype, "datatype"), 1) ||
        chk(c, ic_check_root(&c->t, root, size), 1))
        return raise_err(c);
    int bad = chk(c, ic_check_buf(&c->t, buffer, count, datatype, "buffer"), 0);
    if (buffer == MPI_IN_PLACE)
        bad = mistake(c, 0, IC_ERR_INPLACE, "MPI_IN_PLACE is not allowed");
    ic_typeinfo_t ti;
    ic_typeinfo(datatype, &ti);
    /* In bytes: ranks may pass different datatypes with the same type
     * signature, so only the byte count agrees across ranks. */
    size_t bytes = (size_t)count * (size_t)ti.size;
    bad |= uncommitted(c, datatype, "datatype");
    if (bytes == 0 || size == 1)
        return done(c);
    if ((rc = get_ctx(c)) != MPI_SUCCESS)
        return rc;
    c->gran = bcast_granule(bytes, size);
    c->a.coll = IC_COLL_BCAST;
    c->a.root = root;
    c->a.count = bytes / c->gran;
    c->a.commutative = 1;
    ic_typeinfo_t bt = byte_ti;
    if ((rc = prepare(c, c->gran, &bt)) != MPI_SUCCESS)
        return rc;
    int staged =
        bad || !(bind_user(c, IC_BUF_RECV, buffer, &ti) && bind_user(c, IC_BUF_SEND, buffer, &ti));
    if (staged) {
        if ((rc = stage_recv(c, bytes)))
            return fail(c, rc, "out of memory");
        if (rank == root && !bad)
            bad = pack_at(c, buffer, count, &ti, c->stage[1]);
        bind_bytes(c, IC_BUF_SEND, c->stage[1]);
    }
    return launch_unpack(c, staged && !bad && rank != root, buffer, count, &ti);
}

/* Checks of per-rank counts (significant where given): each non-negative,
 * *maxc the largest.  Returns 1 on a mistake. */
static int check_counts(call_t *c, cview_t counts, int p, const char *what, long long *maxc,
                        int blind)
{
    *maxc = 0;
    for (int i = 0; i < p; i++) {
        if (chk(c, ic_check_count(&c->t, cv(counts, i), what), blind))
            return 1;
        if (cv(counts, i) > *maxc)
            *maxc = cv(counts, i);
    }
    return 0;
}

/* =========================================================== reductions */

/* One rank's view of a reduction's buffers after the checks. */
typedef struct red {
    const void *sendbuf;
    void *recvbuf;
    int recv_significant;
    int bad_send; /* sendbuf unusable: zeros go in its place            */
    int bad_recv; /* recvbuf (where significant) unusable: scratch      */
    int unusable; /* datatype or op unusable: bytes, and no reductions  */
} red_t;

/* Checks shared by the reductions.  The op is checked before the datatype
 * (a predefined op with MPI_DATATYPE_NULL is MPI_ERR_OP, as the vendors
 * have it).  inplace_cls: the class of a recvbuf that is MPI_IN_PLACE or
 * aliases sendbuf.  The shape of a reduction depends on the count, the
 * datatype's size and whether the op commutes (the selector offers only
 * order-keeping algorithms otherwise): a mistake there is blind. */
static void check_reduction(call_t *c, red_t *r, MPI_Count count, MPI_Datatype type, MPI_Op op,
                            int inplace_cls)
{
    chk(c, ic_check_count(&c->t, count, "count"), 1);
    r->unusable = chk(c, ic_check_op(&c->t, op, type), op == MPI_OP_NULL);
    chk(c, ic_check_type(&c->t, type, "datatype"), 1);
    if (c->blind)
        return;
    if (r->sendbuf != MPI_IN_PLACE)
        r->bad_send |= chk(c, ic_check_buf(&c->t, r->sendbuf, count, type, "sendbuf"), 0);
    if (r->recv_significant) {
        if (r->recvbuf == MPI_IN_PLACE)
            r->bad_recv = mistake(c, 0, inplace_cls, "recvbuf cannot be MPI_IN_PLACE");
        else
            r->bad_recv |= chk(c, ic_check_buf(&c->t, r->recvbuf, count, type, "recvbuf"), 0);
        if (r->sendbuf == r->recvbuf && count > 0)
            r->bad_recv = mistake(c, 0, inplace_cls,
                                  "sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)");
    }
}

/* Bind buffer `buf` to a zeroed stand-in of n elements of ti. */
static int bind_typed_standin(call_t *c, int buf, int side, size_t n, const ic_typeinfo_t *ti)
{
    char *m = standin(c, side, ic_type_span(ti, n));
    if (!m)
        return MPI_ERR_NO_MEM;
    ic_binding_set(&c->b, buf, m - ti->true_lb, ti);
    return MPI_SUCCESS;
}

/* Run a reduction (c->a describes it but for the buffers): SEND holds
 * send_elems elements, RECV recv_elems (where significant). */
static int reduction_run(call_t *c, red_t *r, const ic_typeinfo_t *tip, MPI_Op op,
                         size_t send_elems, size_t recv_elems)
{
    ic_typeinfo_t ti = *tip;
    MPI_Datatype type = ti.type;
    int commutative = 1, rc = MPI_SUCCESS;
    MPI_Op_commutative(op, &commutative); /* op is not MPI_OP_NULL here */
    r->unusable |= uncommitted(c, type, "datatype");
    r->bad_recv |= c->e.code != 0; /* after a mistake nothing of the user's is written */
    c->a.commutative = commutative;
    c->a.exact = ic_op_exact(op, type);
    c->a.in_place = r->sendbuf == MPI_IN_PLACE && r->recv_significant;
    const ic_typeinfo_t *sti = &ti;
    ic_typeinfo_t bt = byte_ti;
    if (r->unusable) {
        /* Elements as plain bytes (MPI_PACKED matches what the others
         * send); zeros in, scratch out, no reductions. */
        sti = &bt;
        c->gran = (size_t)ti.size;
        op = MPI_OP_NULL;
        if ((rc = bind_standin(c, IC_BUF_SEND, 0, send_elems * ti.size)) ||
            (rc = bind_standin(c, IC_BUF_RECV, 1, recv_elems * ti.size)))
            return fail(c, rc, "out of memory");
    } else {
        if (r->bad_recv && r->recv_significant)
            rc = bind_typed_standin(c, IC_BUF_RECV, 1, recv_elems, &ti);
        else
            ic_binding_set(&c->b, IC_BUF_RECV, r->recvbuf, &ti);
        if (rc == MPI_SUCCESS && r->bad_send)
            rc = bind_typed_standin(c, IC_BUF_SEND, 0, send_elems, &ti);
        else if (c->a.in_place)
            ic_binding_set(&c->b, IC_BUF_SEND, c->b.base[IC_BUF_RECV], &ti);
        else
            ic_binding_set(&c->b, IC_BUF_SEND, (void *)r->sendbuf, &ti);
        if (rc != MPI_SUCCESS)
            return fail(c, rc, "out of memory");
    }
    return run_done(c, op, commutative, (size_t)ti.size, sti);
}

static int reduce_impl(call_t *c, const void *sendbuf, void *recvbuf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, const char *fn)
{
    int rank, size, rc;
    if ((rc = begin(c, fn, comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    if (chk(c, ic_check_root(&c->t, root, size), 1))
        return raise_err(c);
    red_t r = {sendbuf, recvbuf, rank == root, 0, 0, 0};
    if (sendbuf == MPI_IN_PLACE && rank != root)
        r.bad_send = mistake(c, 0, IC_ERR_INPLACE, "MPI_IN_PLACE is only valid at the root");
    check_reduction(c, &r, count, datatype, op, IC_ERR_INPLACE);
    if (c->blind)
        return raise_err(c);
    ic_typeinfo_t ti;
    ic_typeinfo(datatype, &ti);
    if (count == 0 || ti.size == 0)
        return done(c);
    if ((rc = get_ctx(c)) != MPI_SUCCESS)
        return rc;
    c->a.coll = IC_COLL_REDUCE;
    c->a.root = root;
    c->a.count = (size_t)count;
    return reduction_run(c, &r, &ti, op, (size_t)count, (size_t)count);
}

static int allreduce_impl(call_t *c, const void *sendbuf, void *recvbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, const char *fn)
{
    int rank, size, rc;
    if ((rc = begin(c, fn, comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    red_t r = {sendbuf, recvbuf, 1, 0, 0, 0};
    check_reduction(c, &r, count, datatype, op, MPI_ERR_BUFFER);
    if (c->blind)
        return raise_err(c);
    ic_typeinfo_t ti;
    ic_typeinfo(datatype, &ti);
    if (count == 0 || ti.size == 0)
        return done(c);
    if ((rc = get_ctx(c)) != MPI_SUCCESS)
        return rc;
    c->a.coll = IC_COLL_ALLREDUCE;
    c->a.count = (size_t)count;
    return reduction_run(c, &r, &ti, op, (size_t)count, (size_t)count);
}

/* c->counts holds the blocks (elements, per rank); total their sum. */
static int reduce_scatter_common(call_t *c, int rank, const void *sendbuf, void *recvbuf,
                                 size_t total, MPI_Datatype datatype, MPI_Op op, ic_coll_t coll)
{
    int rc;
    /* recvbuf holds counts[rank] elements, or the whole input when in place. */
    size_t own = sendbuf == MPI_IN_PLACE ? total : c->counts[rank];
    red_t r = {sendbuf, recvbuf, 1, 0, 0, 0};
    check_reduction(c, &r, (MPI_Count)own, datatype, op, IC_ERR_INPLACE);
    if (c->blind)
        return raise_err(c);
    if (sendbuf != MPI_IN_PLACE && !r.bad_send)
        r.bad_send = chk(c, ic_check_buf(&c->t, sendbuf, (long long)total, datatype, "sendbuf"), 0);
    ic_typeinfo_t ti;
    ic_typeinfo(datatype, &ti);
    if (total == 0 || ti.size == 0)
        return done(c);
    if ((rc = get_ctx(c)) != MPI_SUCCESS)
        return rc; /* get_ctx() has freed c->counts (fail()) */
    c->a.coll = coll;
    c->a.counts = c->counts;
    c->a.count = total;
    return reduction_run(c, &r, &ti, op, total, own);
}

static int reduce_scatter_impl(call_t *c, const void *sendbuf, void *recvbuf, cview_t recvcounts,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, const char *fn)
{
    int rank, size, rc;
    if ((rc = begin(c, fn, comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    if (cv_null(recvcounts)) {
        mistake(c, 1, MPI_ERR_ARG, "recvcounts is NULL");
        return raise_err(c);
    }
    long long maxc;
    if (check_counts(c, recvcounts, size, "recvcounts[i]", &maxc, 1))
        return raise_err(c);
    size_t total = 0;
    for (int i = 0; i < size; i++)
        total += (size_t)cv(recvcounts, i);
    if (!alloc_counts(c, size))
        return fail(c, MPI_ERR_NO_MEM, "out of memory");
    for (int i = 0; i < size; i++)
        c->counts[i] = (size_t)cv(recvcounts, i);
    return reduce_scatter_common(c, rank, sendbuf, recvbuf, total, datatype, op,
                                 IC_COLL_REDUCE_SCATTER);
}

static int reduce_scatter_block_impl(call_t *c, const void *sendbuf, void *recvbuf,
                                     MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
                                     MPI_Comm comm, const char *fn)
{
    int rank, size, rc;
    if ((rc = begin(c, fn, comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    if (chk(c, ic_check_count(&c->t, recvcount, "recvcount"), 1))
        return raise_err(c);
    size_t total = (size_t)recvcount * (size_t)size;
    if (!alloc_counts(c, size))
        return fail(c, MPI_ERR_NO_MEM, "out of memory");
    for (int i = 0; i < size; i++)
        c->counts[i] = (size_t)recvcount;
    return reduce_scatter_common(c, rank, sendbuf, recvbuf, total, datatype, op,
                                 IC_COLL_REDUCE_SCATTER_BLOCK);
}

/* ========================================================= gather family
 *
 * In bytes, staged as the broadcast (see "bytes and datatypes" above).
 */

/* Check one side of a call: count, datatype, and a buffer of nblocks x
 * count elements.  A count or datatype mistake is blind when `shape` (the
 * side defines the block size).  Returns 0 when the side is usable, 1
 * when only its buffer is not, 2 when its count or datatype is not. */
static int check_side(call_t *c, const void *buf, MPI_Count count, MPI_Datatype type,
                      const char *cname, const char *tname, const char *bname, int nblocks,
                      int shape)
{
    if (chk(c, ic_check_count(&c->t, count, cname), shape) ||
        chk(c, ic_check_type(&c->t, type, tname), shape))
        return 2;
    return chk(c, ic_check_buf(&c->t, buf, (long long)count * nblocks, type, bname), 0);
}

/* gatherv and scatterv: only the root knows the block sizes, but every
 * rank's schedule needs them.  The first phase of those calls broadcasts
 * the per-rank byte counts from the root (an MST broadcast), with a flag
 * set when the root cannot describe the blocks (root_bad): then the call
 * ends there on every rank.  Then c->after, the call's own phase. */
static int then_sizes(call_t *c)
{
    int p = c->ctx->size;
    for (int i = 0; i < p; i++)
        c->counts[i] = (size_t)c->sizes[i];
    int ended = c->sizes[p] != 0;
    free(c->sizes);
    c->sizes = NULL;
    c->quiet = 0;
    memset(&c->b, 0, sizeof(c->b));
    return ended ? done(c) : c->after(c);
}

static int launch_sizes(call_t *c, int root, int root_bad, then_t after)
{
    int p = c->ctx->size;
    uint64_t *v = c->sizes = calloc((size_t)p + 1, sizeof(uint64_t));
    if (!v)
        return fail(c, MPI_ERR_NO_MEM, "out of memory");
    if (c->ctx->rank == root) {
        for (int i = 0; i < p && !root_bad; i++)
            v[i] = (uint64_t)c->counts[i];
        v[p] = (uint64_t)(root_bad != 0);
    }
    if (!c->aux_made)
        ic_sched_init(&c->aux, c->ctx->rank, p);
    c->aux_made = 1;
    c->s = &c->aux;
    ic_line_t line = ic_line_identity(p);
    ic_mst_bcast(c->s, &line, root, ic_reg(IC_BUF_RECV, 0, (size_t)p + 1));
    if (ic_sched_ok(c->s))
        return fail(c, MPI_ERR_NO_MEM, "cannot distribute the block sizes");
    ic_typeinfo_t ti;
    ic_typeinfo(MPI_UINT64_T, &ti);
    memset(&c->b, 0, sizeof(c->b));
    ic_binding_set(&c->b, IC_BUF_RECV, v, &ti);
    c->quiet = 1;
    c->after = after;
    return launch(c, MPI_OP_NULL, 1, then_sizes);
}

static const char *const mismatch =
    "send and receive amounts differ (type signatures do not match)";

static int gather_impl(call_t *c, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, const char *fn)
{
    int rank, size, rc;
    if ((rc = begin(c, fn, comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    if (chk(c, ic_check_root(&c->t, root, size), 1))
        return raise_err(c);
    int is_root = rank == root, in_place = sendbuf == MPI_IN_PLACE;
    int ip = in_place && is_root; /* in place where MPI allows it */
    int bad_send = 0, bad_recv = 0, rside = 0;
    if (in_place && !is_root)
        bad_send = mistake(c, 0, IC_ERR_INPLACE, "MPI_IN_PLACE is only valid at the root");
    /* The block size comes from the send side, or the root's receive side
     * when it gathers in place. */
    if (!ip)
        bad_send |= check_side(c, sendbuf, sendcount, sendtype, "sendcount", "sendtype", "sendbuf",
                               1, 1) != 0;
    if (is_root) {
        if (recvbuf == MPI_IN_PLACE)
            bad_recv = mistake(c, 0, IC_ERR_INPLACE, "recvbuf cannot be MPI_IN_PLACE");
        rside = check_side(c, recvbuf, recvcount, recvtype, "recvcount", "recvtype", "recvbuf",
                           size, ip);
        bad_recv |= rside != 0;
    }
    if (c->blind)
        return raise_err(c);
    ic_typeinfo_t sti, rti;
    if (!ip)
        ic_typeinfo(sendtype, &sti);
    if (is_root && rside < 2)
        ic_typeinfo(recvtype, &rti);
    size_t bb = ip ? (size_t)recvcount * rti.size : (size_t)sendcount * sti.size;
    if (is_root && rside < 2 && (size_t)recvcount * rti.size != bb)
        bad_recv = mistake(c, 0, MPI_ERR_TRUNCATE, "%s", mismatch);
    if (!ip)
        bad_send |= uncommitted(c, sendtype, "sendtype");
    if (is_root && rside < 2)
        bad_recv |= uncommitted(c, recvtype, "recvtype");
    if (bb == 0)
        return done(c);
    if ((rc = get_ctx(c)) != MPI_SUCCESS)
        return rc;
    if (!alloc_counts(c, size))
        return fail(c, MPI_ERR_NO_MEM, "out of memory");
    for (int i = 0; i < size; i++)
        c->counts[i] = bb;
    c->a.coll = IC_COLL_GATHER;
    c->a.root = root;
    c->a.counts = c->counts;
    c->a.sendcount = bb;
    c->a.in_place = ip;
    c->a.commutative = 1;
    ic_typeinfo_t bt = byte_ti;
    if ((rc = prepare(c, 1, &bt)) != MPI_SUCCESS)
        return rc;
    if (!c->a.in_place && (rc = bind_send_bytes(c, sendbuf, sendcount, &sti, bb, bad_send)))
        return fail(c, rc, "out of memory");
    bad_recv |= c->e.code != 0; /* after a mistake nothing of the user's is written */
    int staged = is_root && (bad_recv || !bind_user(c, IC_BUF_RECV, recvbuf, &rti));
    if (staged) {
        if ((rc = stage_recv(c, bb * (size_t)size)))
            return fail(c, rc, "out of memory");
        if (ip && !bad_recv)
            pack_at(c, (char *)recvbuf + (MPI_Aint)root * recvcount * rti.extent, recvcount, &rti,
                    (char *)c->stage[1] + bb * (size_t)root);
    }
    if (c->a.in_place) /* SEND is not used; bind it to something valid */
        ic_binding_set(&c->b, IC_BUF_SEND, c->b.base[IC_BUF_RECV], &bt);
    return launch_unpack(c, staged && !c->e.code, recvbuf, recvcount * size, &rti);
}

static int scatter_impl(call_t *c, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, const char *fn)
{
    int rank, size, rc;
    if ((rc = begin(c, fn, comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    if (chk(c, ic_check_root(&c->t, root, size), 1))
        return raise_err(c);
    int is_root = rank == root, in_place = recvbuf == MPI_IN_PLACE;
    int ip = in_place && is_root; /* in place where MPI allows it */
    int bad_send = 0, bad_recv = 0, sside = 0;
    if (in_place && !is_root)
        bad_recv = mistake(c, 0, IC_ERR_INPLACE, "MPI_IN_PLACE is only valid at the root");
    if (is_root) {
        if (sendbuf == MPI_IN_PLACE)
            bad_send = mistake(c, 0, IC_ERR_INPLACE, "sendbuf cannot be MPI_IN_PLACE");
        sside = check_side(c, sendbuf, sendcount, sendtype, "sendcount", "sendtype", "sendbuf",
                           size, ip);
        bad_send |= sside != 0;
    }
    /* The block size comes from the receive side, or the root's send side
     * when it scatters in place. */
    if (!ip)
        bad_recv |= check_side(c, recvbuf, recvcount, recvtype, "recvcount", "recvtype", "recvbuf",
                               1, 1) != 0;
    if (c->blind)
        return raise_err(c);
    ic_typeinfo_t sti, rti;
    if (is_root && sside < 2)
        ic_typeinfo(sendtype, &sti);
    if (!ip)
        ic_typeinfo(recvtype, &rti);
    size_t bb = ip ? (size_t)sendcount * sti.size : (size_t)recvcount * rti.size;
    if (is_root && sside < 2 && (size_t)sendcount * sti.size != bb)
        bad_send = mistake(c, 0, MPI_ERR_TRUNCATE, "%s", mismatch);
    if (is_root && sside < 2)
        bad_send |= uncommitted(c, sendtype, "sendtype");
    if (!ip)
        bad_recv |= uncommitted(c, recvtype, "recvtype");
    if (bb == 0)
        return done(c);
    if ((rc = get_ctx(c)) != MPI_SUCCESS)
        return rc;
    if (!alloc_counts(c, size))
        return fail(c, MPI_ERR_NO_MEM, "out of memory");
    for (int i = 0; i < size; i++)
        c->counts[i] = bb;
    c->a.coll = IC_COLL_SCATTER;
    c->a.root = root;
    c->a.counts = c->counts;
    c->a.recvcount = bb;
    c->a.in_place = ip;
    c->a.commutative = 1;
    ic_typeinfo_t bt = byte_ti;
    if ((rc = prepare(c, 1, &bt)) != MPI_SUCCESS)
        return rc;
    if (is_root &&
        (rc = bind_send_bytes(c, sendbuf, sendcount * size, &sti, bb * (size_t)size, bad_send)))
        return fail(c, rc, "out of memory");
    bad_recv |= c->e.code != 0;
    int staged = 0;
    if (c->a.in_place) {
        ic_binding_set(&c->b, IC_BUF_RECV, NULL, &bt);
    } else if (bad_recv || !bind_user(c, IC_BUF_RECV, recvbuf, &rti)) {
        staged = 1;
        if ((rc = stage_recv(c, bb)))
            return fail(c, rc, "out of memory");
    }
    return launch_unpack(c, staged && !c->e.code, recvbuf, recvcount, &rti);
}

static int allgather_impl(call_t *c, const void *sendbuf, MPI_Count sendcount,
                          MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm, const char *fn)
{
    int rank, size, rc;
    if ((rc = begin(c, fn, comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    int in_place = sendbuf == MPI_IN_PLACE;
    int bad_send = 0, bad_recv = 0, sside = 0;
    if (!in_place)
        sside =
            check_side(c, sendbuf, sendcount, sendtype, "sendcount", "sendtype", "sendbuf", 1, 0);
    bad_send = sside != 0;
    if (recvbuf == MPI_IN_PLACE)
        bad_recv = mistake(c, 0, IC_ERR_INPLACE, "recvbuf cannot be MPI_IN_PLACE");
    if (sendbuf == recvbuf && sendcount > 0)
        bad_recv = mistake(c, 0, MPI_ERR_BUFFER,
                           "sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)");
    bad_recv |= check_side(c, recvbuf, recvcount, recvtype, "recvcount", "recvtype", "recvbuf",
                           size, 1) != 0;
    if (c->blind)
        return raise_err(c);
    ic_typeinfo_t sti, rti;
    if (!in_place && sside < 2)
        ic_typeinfo(sendtype, &sti);
    ic_typeinfo(recvtype, &rti);
    size_t bb = (size_t)recvcount * rti.size;
    if (!in_place && sside < 2 && (size_t)sendcount * sti.size != bb)
        bad_send = mistake(c, 0, MPI_ERR_TRUNCATE, "%s", mismatch);
    if (!in_place && sside < 2)
        bad_send |= uncommitted(c, sendtype, "sendtype");
    bad_recv |= uncommitted(c, recvtype, "recvtype");
    if (bb == 0)
        return done(c);
    if ((rc = get_ctx(c)) != MPI_SUCCESS)
        return rc;
    if (!alloc_counts(c, size))
        return fail(c, MPI_ERR_NO_MEM, "out of memory");
    for (int i = 0; i < size; i++)
        c->counts[i] = bb;
    c->a.coll = IC_COLL_ALLGATHER;
    c->a.counts = c->counts;
    c->a.sendcount = bb;
    c->a.in_place = in_place;
    c->a.commutative = 1;
    ic_typeinfo_t bt = byte_ti;
    if ((rc = prepare(c, 1, &bt)) != MPI_SUCCESS)
        return rc;
    if (!in_place && (rc = bind_send_bytes(c, sendbuf, sendcount, &sti, bb, bad_send)))
        return fail(c, rc, "out of memory");
    bad_recv |= c->e.code != 0;
    int staged = bad_recv || !bind_user(c, IC_BUF_RECV, recvbuf, &rti);
    if (staged) {
        if ((rc = stage_recv(c, bb * (size_t)size)))
            return fail(c, rc, "out of memory");
        if (in_place && !bad_recv)
            pack_at(c, (char *)recvbuf + (MPI_Aint)rank * recvcount * rti.extent, recvcount, &rti,
                    (char *)c->stage[1] + bb * (size_t)rank);
    }
    if (in_place) /* SEND is not used; bind it to something valid */
        ic_binding_set(&c->b, IC_BUF_SEND, c->b.base[IC_BUF_RECV], &bt);
    return launch_unpack(c, staged && !c->e.code, recvbuf, recvcount * size, &rti);
}

/* Are displs (in elements of a contiguous type) the packed layout? */
static int packed_displs(cview_t counts, dview_t displs, int p)
{
    long long at = 0;
    for (int i = 0; i < p; i++) {
        if (dv(displs, i) != at)
            return 0;
        at += cv(counts, i);
    }
    return 1;
}

static int allgatherv_impl(call_t *c, const void *sendbuf, MPI_Count sendcount,
                           MPI_Datatype sendtype, void *recvbuf, cview_t recvcounts, dview_t displs,
                           MPI_Datatype recvtype, MPI_Comm comm, const char *fn)
{
    int rank, size, rc;
    if ((rc = begin(c, fn, comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    int in_place = sendbuf == MPI_IN_PLACE;
    int bad_send = 0, bad_recv = 0, sside = 0;
    if (cv_null(recvcounts) || dv_null(displs))
        bad_recv = mistake(c, cv_null(recvcounts), MPI_ERR_ARG, "recvcounts or displs is NULL");
    if (c->blind)
        return raise_err(c);
    if (!in_place)
        sside =
            check_side(c, sendbuf, sendcount, sendtype, "sendcount", "sendtype", "sendbuf", 1, 0);
    bad_send = sside != 0;
    if (recvbuf == MPI_IN_PLACE)
        bad_recv = mistake(c, 0, IC_ERR_INPLACE, "recvbuf cannot be MPI_IN_PLACE");
    if (sendbuf == recvbuf && sendcount > 0)
        bad_recv = mistake(c, 0, MPI_ERR_BUFFER,
                           "sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)");
    long long maxc = 0;
    if (chk(c, ic_check_type(&c->t, recvtype, "recvtype"), 1) ||
        check_counts(c, recvcounts, size, "recvcounts[i]", &maxc, 1))
        return raise_err(c);
    bad_recv |= chk(c, ic_check_buf(&c->t, recvbuf, maxc, recvtype, "recvbuf"), 0);
    ic_typeinfo_t sti, rti;
    if (!in_place && sside < 2)
        ic_typeinfo(sendtype, &sti);
    ic_typeinfo(recvtype, &rti);
    if (!in_place && sside < 2 &&
        (size_t)sendcount * sti.size != (size_t)cv(recvcounts, rank) * rti.size)
        bad_send = mistake(c, 0, MPI_ERR_TRUNCATE, "%s", mismatch);
    size_t total = 0;
    for (int i = 0; i < size; i++)
        total += (size_t)cv(recvcounts, i) * rti.size;
    if (!in_place && sside < 2)
        bad_send |= uncommitted(c, sendtype, "sendtype");
    bad_recv |= uncommitted(c, recvtype, "recvtype");
    if (total == 0)
        return done(c);
    if ((rc = get_ctx(c)) != MPI_SUCCESS)
        return rc;
    bad_recv |= c->e.code != 0;
    c->counts = calloc((size_t)size, sizeof(size_t));
    c->displs = calloc((size_t)size, sizeof(size_t));
    if (!c->counts || !c->displs)
        return fail(c, MPI_ERR_NO_MEM, "out of memory");
    /* Displacements may be negative (recvbuf need not be the lowest block):
     * the schedule sees the buffer from the lowest non-empty block on. */
    long long dmin = 0;
    int have = 0;
    for (int i = 0; !bad_recv && i < size; i++)
        if (cv(recvcounts, i) > 0 && (!have || dv(displs, i) < dmin)) {
            dmin = dv(displs, i);
            have = 1;
        }
    /* In place (bytes, or typed regions), block i is at byte (displs[i] -
     * dmin) size of the schedule's view (size = extent for contiguous). */
    for (int i = 0; i < size; i++) {
        c->counts[i] = (size_t)cv(recvcounts, i) * rti.size;
        if (!bad_recv && cv(recvcounts, i) > 0)
            c->displs[i] = (size_t)(dv(displs, i) - dmin) * (size_t)rti.size;
    }
    c->a.coll = IC_COLL_ALLGATHERV;
    c->a.counts = c->counts;
    c->a.displs = bad_recv ? NULL : c->displs;
    c->a.sendcount = c->counts[rank];
    c->a.in_place = in_place;
    c->a.commutative = 1;
    ic_typeinfo_t bt = byte_ti;
    if ((rc = prepare(c, 1, &bt)) != MPI_SUCCESS)
        return rc;
    int staged;
    if (bad_recv || (recvbuf == MPI_BOTTOM && !rti.contiguous))
        staged = 1; /* absolute addresses: no offsets from MPI_BOTTOM */
    else
        staged = !bind_user(c, IC_BUF_RECV, (char *)recvbuf + (MPI_Aint)dmin * rti.extent, &rti);
    if (staged && c->a.displs) { /* rebuild on the packed layout of the staging area */
        free(c->displs);
        c->displs = NULL;
        c->a.displs = NULL;
        if ((rc = prepare(c, 1, &bt)) != MPI_SUCCESS)
            return rc;
    }
    if (!in_place && (rc = bind_send_bytes(c, sendbuf, sendcount, &sti, c->counts[rank], bad_send)))
        return fail(c, rc, "out of memory");
    if (staged) {
        if ((rc = stage_recv(c, total)))
            return fail(c, rc, "out of memory");
        size_t at = ic_blocks_prefix(c->counts, rank);
        if (in_place && !bad_recv)
            pack_at(c, (char *)recvbuf + (MPI_Aint)dv(displs, rank) * rti.extent,
                    cv(recvcounts, rank), &rti, (char *)c->stage[1] + at);
    }
    if (in_place) /* SEND is not used; bind it to something valid */
        ic_binding_set(&c->b, IC_BUF_SEND, c->b.base[IC_BUF_RECV], &bt);
    return launch_unpack_blocks(c, staged && !c->e.code, recvbuf, recvcounts, displs, &rti, -1);
}

static int gatherv_main(call_t *c);
static int scatterv_main(call_t *c);

static int gatherv_impl(call_t *c, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, cview_t recvcounts, dview_t displs, MPI_Datatype recvtype,
                        int root, MPI_Comm comm, const char *fn)
{
    int rank, size, rc;
    if ((rc = begin(c, fn, comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    if (chk(c, ic_check_root(&c->t, root, size), 1))
        return raise_err(c);
    int is_root = rank == root, in_place = sendbuf == MPI_IN_PLACE;
    int bad_send = 0, bad_recv = 0, sside = 0, root_bad = 0;
    if (in_place && !is_root)
        bad_send = mistake(c, 0, IC_ERR_INPLACE, "MPI_IN_PLACE is only valid at the root");
    /* Only the root's counts define the blocks: elsewhere every mistake
     * leaves the rank able to take its part. */
    if (!in_place)
        sside =
            check_side(c, sendbuf, sendcount, sendtype, "sendcount", "sendtype", "sendbuf", 1, 0);
    bad_send |= sside != 0;
    ic_typeinfo_t sti, rti;
    if (!in_place && sside < 2)
        ic_typeinfo(sendtype, &sti);
    if (is_root) {
        long long maxc = 0;
        if (cv_null(recvcounts) || dv_null(displs))
            root_bad = mistake(c, 0, MPI_ERR_ARG, "recvcounts or displs is NULL");
        if (recvbuf == MPI_IN_PLACE)
            bad_recv = mistake(c, 0, IC_ERR_INPLACE, "recvbuf cannot be MPI_IN_PLACE");
        root_bad |= chk(c, ic_check_type(&c->t, recvtype, "recvtype"), 0);
        if (!root_bad)
            root_bad |= check_counts(c, recvcounts, size, "recvcounts[i]", &maxc, 0);
        if (!root_bad) {
            bad_recv |= chk(c, ic_check_buf(&c->t, recvbuf, maxc, recvtype, "recvbuf"), 0);
            ic_typeinfo(recvtype, &rti);
            if (!in_place && sside < 2 &&
                (size_t)sendcount * sti.size != (size_t)cv(recvcounts, rank) * rti.size)
                bad_send = mistake(c, 0, MPI_ERR_TRUNCATE, "%s", mismatch);
        }
    }
    if (!in_place && sside < 2)
        bad_send |= uncommitted(c, sendtype, "sendtype");
    if (is_root && !root_bad)
        bad_recv |= uncommitted(c, recvtype, "recvtype");
    if (size == 1 && in_place)
        return done(c);
    if ((rc = get_ctx(c)) != MPI_SUCCESS)
        return rc;
    if (!alloc_counts(c, size))
        return fail(c, MPI_ERR_NO_MEM, "out of memory");
    for (int i = 0; is_root && !root_bad && i < size; i++)
        c->counts[i] = (size_t)cv(recvcounts, i) * rti.size;
    c->sbuf = sendbuf;
    c->scount = sendcount;
    c->rbuf = recvbuf;
    c->vcounts = recvcounts;
    c->vdispls = displs;
    c->in_place = in_place;
    c->is_root = is_root;
    c->bad_send = bad_send;
    c->bad_recv = bad_recv;
    c->a.root = root;
    if (!in_place && sside < 2)
        c->sti = sti;
    if (is_root && !root_bad)
        c->rti = rti;
    if (size == 1)
        return root_bad ? done(c) : gatherv_main(c);
    return launch_sizes(c, root, root_bad, gatherv_main);
}

/* gatherv once the block sizes are known (c->counts). */
static int gatherv_main(call_t *c)
{
    int rc, rank = c->ctx->rank, size = c->ctx->size, root = c->a.root;
    int in_place = c->in_place, is_root = c->is_root, bad_send = c->bad_send;
    int bad_recv = c->bad_recv;
    const void *sendbuf = c->sbuf;
    void *recvbuf = c->rbuf;
    long long sendcount = c->scount;
    cview_t recvcounts = c->vcounts;
    dview_t displs = c->vdispls;
    const ic_typeinfo_t sti = c->sti, rti = c->rti;
    if (!in_place && !bad_send && (size_t)sendcount * sti.size != c->counts[rank])
        bad_send = mistake(c, 0, MPI_ERR_TRUNCATE,
                           "sendcount does not match the root's recvcounts[%d]", rank);
    size_t total = ic_blocks_total(c->counts, size);
    if (total == 0)
        return done(c);
    c->a.coll = IC_COLL_GATHERV;
    c->a.root = root;
    c->a.counts = c->counts;
    c->a.sendcount = c->counts[rank];
    c->a.in_place = in_place && is_root;
    c->a.commutative = 1;
    ic_typeinfo_t bt = byte_ti;
    if ((rc = prepare(c, 1, &bt)) != MPI_SUCCESS)
        return rc;
    if (!c->a.in_place &&
        (rc = bind_send_bytes(c, sendbuf, sendcount, &sti, c->counts[rank], bad_send)))
        return fail(c, rc, "out of memory");
    bad_recv |= c->e.code != 0;
    int staged = is_root && (bad_recv || !(packed_displs(recvcounts, displs, size) &&
                                           bind_user(c, IC_BUF_RECV, recvbuf, &rti)));
    if (staged) {
        if ((rc = stage_recv(c, total)))
            return fail(c, rc, "out of memory");
        if (in_place && !bad_recv)
            pack_at(c, (char *)recvbuf + (MPI_Aint)dv(displs, root) * rti.extent,
                    cv(recvcounts, root), &rti,
                    (char *)c->stage[1] + ic_blocks_prefix(c->counts, root));
    }
    if (c->a.in_place)
        ic_binding_set(&c->b, IC_BUF_SEND, c->b.base[IC_BUF_RECV], &bt);
    return launch_unpack_blocks(c, staged && !c->e.code, recvbuf, recvcounts, displs, &rti,
                                in_place ? root : -1);
}

static int scatterv_impl(call_t *c, const void *sendbuf, cview_t sendcounts, dview_t displs,
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm, const char *fn)
{
    int rank, size, rc;
    if ((rc = begin(c, fn, comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    if (chk(c, ic_check_root(&c->t, root, size), 1))
        return raise_err(c);
    int is_root = rank == root, in_place = recvbuf == MPI_IN_PLACE;
    int bad_send = 0, bad_recv = 0, rside = 0, root_bad = 0;
    if (in_place && !is_root)
        bad_recv = mistake(c, 0, IC_ERR_INPLACE, "MPI_IN_PLACE is only valid at the root");
    ic_typeinfo_t sti, rti;
    if (is_root) {
        long long maxc = 0;
        if (cv_null(sendcounts) || dv_null(displs))
            root_bad = mistake(c, 0, MPI_ERR_ARG, "sendcounts or displs is NULL");
        if (sendbuf == MPI_IN_PLACE)
            bad_send = mistake(c, 0, IC_ERR_INPLACE, "sendbuf cannot be MPI_IN_PLACE");
        root_bad |= chk(c, ic_check_type(&c->t, sendtype, "sendtype"), 0);
        if (!root_bad)
            root_bad |= check_counts(c, sendcounts, size, "sendcounts[i]", &maxc, 0);
        if (!root_bad) {
            bad_send |= chk(c, ic_check_buf(&c->t, sendbuf, maxc, sendtype, "sendbuf"), 0);
            ic_typeinfo(sendtype, &sti);
        }
    }
    if (!in_place)
        rside =
            check_side(c, recvbuf, recvcount, recvtype, "recvcount", "recvtype", "recvbuf", 1, 0);
    bad_recv |= rside != 0;
    if (!in_place && rside < 2)
        ic_typeinfo(recvtype, &rti);
    if (is_root && !root_bad && !in_place && rside < 2 &&
        (size_t)cv(sendcounts, rank) * sti.size != (size_t)recvcount * rti.size)
        bad_recv = mistake(c, 0, MPI_ERR_TRUNCATE, "%s", mismatch);
    if (is_root && !root_bad)
        bad_send |= uncommitted(c, sendtype, "sendtype");
    if (!in_place && rside < 2)
        bad_recv |= uncommitted(c, recvtype, "recvtype");
    if (size == 1 && in_place)
        return done(c);
    if ((rc = get_ctx(c)) != MPI_SUCCESS)
        return rc;
    if (!alloc_counts(c, size))
        return fail(c, MPI_ERR_NO_MEM, "out of memory");
    for (int i = 0; is_root && !root_bad && i < size; i++)
        c->counts[i] = (size_t)cv(sendcounts, i) * sti.size;
    c->sbuf = sendbuf;
    c->rbuf = recvbuf;
    c->rcount = recvcount;
    c->vcounts = sendcounts;
    c->vdispls = displs;
    c->in_place = in_place;
    c->is_root = is_root;
    c->bad_send = bad_send;
    c->bad_recv = bad_recv;
    c->a.root = root;
    if (!in_place && rside < 2)
        c->rti = rti;
    if (is_root && !root_bad)
        c->sti = sti;
    if (size == 1)
        return root_bad ? done(c) : scatterv_main(c);
    return launch_sizes(c, root, root_bad, scatterv_main);
}

/* scatterv once the block sizes are known (c->counts). */
static int scatterv_main(call_t *c)
{
    int rc, rank = c->ctx->rank, size = c->ctx->size, root = c->a.root;
    int in_place = c->in_place, is_root = c->is_root, bad_send = c->bad_send;
    int bad_recv = c->bad_recv;
    const void *sendbuf = c->sbuf;
    void *recvbuf = c->rbuf;
    long long recvcount = c->rcount;
    cview_t sendcounts = c->vcounts;
    dview_t displs = c->vdispls;
    const ic_typeinfo_t sti = c->sti, rti = c->rti;
    if (!in_place && !bad_recv && (size_t)recvcount * rti.size != c->counts[rank])
        bad_recv = mistake(c, 0, MPI_ERR_TRUNCATE,
                           "recvcount does not match the root's sendcounts[%d]", rank);
    size_t total = ic_blocks_total(c->counts, size);
    if (total == 0)
        return done(c);
    c->a.coll = IC_COLL_SCATTERV;
    c->a.root = root;
    c->a.counts = c->counts;
    c->a.recvcount = c->counts[rank];
    c->a.in_place = in_place && is_root;
    c->a.commutative = 1;
    ic_typeinfo_t bt = byte_ti;
    if ((rc = prepare(c, 1, &bt)) != MPI_SUCCESS)
        return rc;
    if (is_root) {
        if (bad_send) {
            if ((rc = bind_standin(c, IC_BUF_SEND, 0, total)))
                return fail(c, rc, "out of memory");
        } else if (!(packed_displs(sendcounts, displs, size) &&
                     bind_user(c, IC_BUF_SEND, sendbuf, &sti))) {
            c->stage[0] = malloc(total);
            if (!c->stage[0])
                return fail(c, MPI_ERR_NO_MEM, "out of memory");
            for (int i = 0; i < size; i++)
                if (c->counts[i])
                    pack_at(c, (const char *)sendbuf + (MPI_Aint)dv(displs, i) * sti.extent,
                            cv(sendcounts, i), &sti,
                            (char *)c->stage[0] + ic_blocks_prefix(c->counts, i));
            ic_binding_set(&c->b, IC_BUF_SEND, c->stage[0], &bt);
        }
    }
    bad_recv |= c->e.code != 0;
    int staged = 0;
    if (c->a.in_place) {
        ic_binding_set(&c->b, IC_BUF_RECV, NULL, &bt);
    } else if (bad_recv || !bind_user(c, IC_BUF_RECV, recvbuf, &rti)) {
        staged = 1;
        if ((rc = stage_recv(c, c->counts[rank])))
            return fail(c, rc, "out of memory");
    }
    return launch_unpack(c, staged && !c->e.code, recvbuf, recvcount, &rti);
}

/* ============================================================== barrier */

static int barrier_impl(call_t *c, MPI_Comm comm, const char *fn)
{
    int rank, size, rc;
    if ((rc = begin(c, fn, comm, &rank, &size)) != MPI_SUCCESS)
        return rc;
    if (size == 1)
        return done(c);
    if ((rc = get_ctx(c)) != MPI_SUCCESS)
        return rc;
    c->a.coll = IC_COLL_BARRIER;
    c->a.commutative = 1;
    ic_typeinfo_t bt = byte_ti;
    ic_binding_set(&c->b, IC_BUF_SEND, NULL, &bt);
    ic_binding_set(&c->b, IC_BUF_RECV, NULL, &bt);
    return run_done(c, MPI_OP_NULL, 1, 1, &bt);
}

/* ============================================== the progress engine's side
 *
 * A nonblocking call's state (c->st) is a member of its call object. */

static call_t *call_of(ic_call_state_t *st)
{
    return (call_t *)(void *)((char *)st - offsetof(call_t, st));
}

int ic_call_step(ic_call_state_t *st, int block)
{
    call_t *c = call_of(st);
    if (st->running && st->lane_nb && !st->turn && !(st->turn = ic_lane_turn(st)))
        return 0;
    while (st->running) {
        int fin = 0;
        int rc = ic_exec_progress(&c->x, block, &fin);
        if (rc != MPI_SUCCESS) {
            fail(c, rc, "communication failed");
            break;
        }
        if (!fin)
            return 0;
        st->running = 0;
        ran(c); /* the next phase (running again), or the end */
    }
    return 1;
}

void ic_call_free(ic_call_state_t *st)
{
    call_t *c = call_of(st);
    call_free(c);
    ic_exec_abandon(&c->x, 1);
    call_free_kept(c);
    free(c);
}

/* A nonblocking call's object (NULL: out of memory). */
static call_t *nb_new(void)
{
    call_t *c = calloc(1, sizeof(*c));
    if (c)
        c->nb = 1;
    return c;
}

#if !IC_NB_VENDOR
/* The end of a nonblocking call's start: the description returned rc. */
static int nb_started(call_t *c, int rc, MPI_Request *req)
{
    int mistake_code = c->st.running ? c->e.code : 0;
    return ic_call_launched(&c->st, rc, c->fn, c->comm, mistake_code, c->e.msg, req);
}
#endif

/* ===================================================== persistent calls
 *
 * A persistent call is a nonblocking call object kept over its runs
 * (keep): its plan and schedule are built at the first run that gets to
 * them -- the init itself, a dry run that checks the arguments and goes as
 * far as launching (c->dry), for every call but gatherv and scatterv,
 * whose block sizes arrive at a start -- and its scratch stays.  Every
 * start runs the call's description again on the arguments bound at the
 * init (the buffers' contents change, not their addresses), which finds
 * the schedule built.  The handle and the starts are the engine's
 * (progress.c, "Persistent calls"). */

static int persist_desc(call_t *c, const pargs_t *a)
{
    switch (a->kind) {
    case P_BCAST:
        return bcast_impl(c, a->rbuf, a->rcount, a->rtype, a->root, a->comm, a->fn);
    case P_REDUCE:
        return reduce_impl(c, a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, a->root, a->comm,
                           a->fn);
    case P_ALLREDUCE:
        return allreduce_impl(c, a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, a->comm, a->fn);
    case P_REDUCE_SCATTER:
        return reduce_scatter_impl(c, a->sbuf, a->rbuf, a->counts, a->rtype, a->op, a->comm, a->fn);
    case P_REDUCE_SCATTER_BLOCK:
        return reduce_scatter_block_impl(c, a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, a->comm,
                                         a->fn);
    case P_GATHER:
        return gather_impl(c, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, a->root,
                           a->comm, a->fn);
    case P_GATHERV:
        return gatherv_impl(c, a->sbuf, a->scount, a->stype, a->rbuf, a->counts, a->displs,
                            a->rtype, a->root, a->comm, a->fn);
    case P_SCATTER:
        return scatter_impl(c, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, a->root,
                            a->comm, a->fn);
    case P_SCATTERV:
        return scatterv_impl(c, a->sbuf, a->counts, a->displs, a->stype, a->rbuf, a->rcount,
                             a->rtype, a->root, a->comm, a->fn);
    case P_ALLGATHER:
        return allgather_impl(c, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                              a->comm, a->fn);
    case P_ALLGATHERV:
        return allgatherv_impl(c, a->sbuf, a->scount, a->stype, a->rbuf, a->counts, a->displs,
                               a->rtype, a->comm, a->fn);
    default:
        return barrier_impl(c, a->comm, a->fn);
    }
}

int ic_call_restart(ic_call_state_t *st)
{
    call_t *c = call_of(st);
    st->over = st->running = 0;
    st->code = 0;
    st->started = 0;
    c->dry = 0;
    if (c->rerun) {
        c->t0 = 0;
        c->then = NULL;
        nb_run(c);
        st->started = 1;
        return 1;
    }
    persist_desc(c, &c->pa); /* a failure ends the run (raised as at a start) */
    st->started = 1;
    return st->running && !st->over;
}

/* The init of a persistent call: check, prepare, make the handle. */
static int persist_init(const pargs_t *a, MPI_Request *request)
{
    *request = MPI_REQUEST_NULL;
    call_t *c = nb_new();
    if (!c)
        return ic_error(a->comm, MPI_ERR_NO_MEM, "%s: out of memory", a->fn);
    c->keep = 1;
    c->dry = 1;
    c->pa = *a;
    int rc = persist_desc(c, &c->pa);
    if (!c->ready && rc != MPI_SUCCESS) { /* raised; no call */
        ic_call_free(&c->st);
        return rc;
    }
    int mistake_code = c->ready ? c->e.code : 0;
    if (!c->ctx) { /* ended before its context (p = 1, nothing to move): every start is empty */
        int r2 = ic_ctx_get(a->comm, &c->ctx);
        if (r2 != MPI_SUCCESS) {
            ic_call_free(&c->st);
            return ic_error(a->comm, r2, "%s: cannot set up the communicator's context", a->fn);
        }
        ic_call_enter_persistent(&c->st, c->ctx);
    }
    call_free(c);     /* what the dry run packed or staged */
    c->st.raised = 1; /* a mistake of this rank's arguments: raised here, once */
    c->dry = 0;
    if ((rc = ic_persist_add(&c->st, request)) != MPI_SUCCESS) {
        ic_call_free(&c->st);
        *request = MPI_REQUEST_NULL;
        return ic_error(a->comm, rc, "%s: cannot make the request", a->fn);
    }
    if (mistake_code) /* the handle stays: this rank still takes its part */
        return ic_error(a->comm, mistake_code, "%s", c->e.msg);
    return MPI_SUCCESS;
}

int IC_Start(MPI_Request *request)
{
    if (!request)
        return ic_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "IC_Start: request is NULL");
    ic_call_state_t *st = ic_persist_find(*request);
    int rc = st ? ic_persist_start(st, request) : PMPI_Start(request);
    if (rc != MPI_SUCCESS)
        return ic_error(MPI_COMM_WORLD, rc, "IC_Start: %s",
                        st && st->active ? "the request is active already"
                                         : "cannot start the request");
    return MPI_SUCCESS;
}

int IC_Startall(int count, MPI_Request requests[])
{
    if (count < 0 || (count > 0 && !requests))
        return ic_error(MPI_COMM_WORLD, MPI_ERR_ARG, "IC_Startall: bad count or requests");
    for (int i = 0; i < count; i++) {
        int rc = IC_Start(&requests[i]);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

int IC_Request_free(MPI_Request *request)
{
    if (!request)
        return ic_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "IC_Request_free: request is NULL");
    ic_call_state_t *st = ic_persist_find(*request);
    if (st)
        ic_persist_drop(st);
    return PMPI_Request_free(request);
}

/* The completion calls that move InterCom's calls on as they wait: each
 * round runs the engine and then the MPI's test of the same name; with no
 * InterCom call pending, the MPI's own wait. */
int IC_Wait(MPI_Request *request, MPI_Status *status)
{
    for (;;) {
        if (!ic_npending && !ic_npersist)
            return PMPI_Wait(request, status);
        ic_progress();
        int flag = 0, rc = PMPI_Test(request, &flag, status);
        if (rc != MPI_SUCCESS || flag)
            return rc;
    }
}

int IC_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    ic_progress();
    return PMPI_Test(request, flag, status);
}

int IC_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    for (;;) {
        if (!ic_npending && !ic_npersist)
            return PMPI_Waitall(count, requests, statuses);
        ic_progress();
        int flag = 0, rc = PMPI_Testall(count, requests, &flag, statuses);
        if (rc != MPI_SUCCESS || flag)
            return rc;
    }
}

int IC_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
    ic_progress();
    return PMPI_Testall(count, requests, flag, statuses);
}

int IC_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
    for (;;) {
        if (!ic_npending && !ic_npersist)
            return PMPI_Waitany(count, requests, index, status);
        ic_progress();
        int flag = 0, rc = PMPI_Testany(count, requests, index, &flag, status);
        if (rc != MPI_SUCCESS || flag)
            return rc;
    }
}

int IC_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status)
{
    ic_progress();
    return PMPI_Testany(count, requests, index, flag, status);
}

int IC_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                MPI_Status statuses[])
{
    for (;;) {
        if (!ic_npending && !ic_npersist)
            return PMPI_Waitsome(incount, requests, outcount, indices, statuses);
        ic_progress();
        int rc = PMPI_Testsome(incount, requests, outcount, indices, statuses);
        if (rc != MPI_SUCCESS || *outcount != 0)
            return rc;
    }
}

int IC_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                MPI_Status statuses[])
{
    ic_progress();
    return PMPI_Testsome(incount, requests, outcount, indices, statuses);
}

/* ============================================================ entry points
 *
 * The IC_ calls with MPI's int counts, and the IC_*_c calls with MPI-4's
 * MPI_Count counts and MPI_Aint displacements, over one implementation. */

int IC_Barrier(MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return barrier_impl(&c, comm, "IC_Barrier");
}

int IC_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return bcast_impl(&c, buffer, count, datatype, root, comm, "IC_Bcast");
}

int IC_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              int root, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return reduce_impl(&c, sendbuf, recvbuf, count, datatype, op, root, comm, "IC_Reduce");
}

int IC_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return allreduce_impl(&c, sendbuf, recvbuf, count, datatype, op, comm, "IC_Allreduce");
}

int IC_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return reduce_scatter_impl(&c, sendbuf, recvbuf, cv_int(recvcounts), datatype, op, comm,
                               "IC_Reduce_scatter");
}

int IC_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return reduce_scatter_block_impl(&c, sendbuf, recvbuf, recvcount, datatype, op, comm,
                                     "IC_Reduce_scatter_block");
}

int IC_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
              int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return gather_impl(&c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                       "IC_Gather");
}

int IC_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return scatter_impl(&c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                        "IC_Scatter");
}

int IC_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return allgather_impl(&c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                          "IC_Allgather");
}

int IC_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return allgatherv_impl(&c, sendbuf, sendcount, sendtype, recvbuf, cv_int(recvcounts),
                           dv_int(displs), recvtype, comm, "IC_Allgatherv");
}

int IC_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
               MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return gatherv_impl(&c, sendbuf, sendcount, sendtype, recvbuf, cv_int(recvcounts),
                        dv_int(displs), recvtype, root, comm, "IC_Gatherv");
}

int IC_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                int root, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return scatterv_impl(&c, sendbuf, cv_int(sendcounts), dv_int(displs), sendtype, recvbuf,
                         recvcount, recvtype, root, comm, "IC_Scatterv");
}

/* ============================================== the nonblocking calls */

#if !IC_NB_VENDOR
static int nb_nomem(MPI_Comm comm, MPI_Request *request, const char *fn)
{
    *request = MPI_REQUEST_NULL;
    return ic_error(comm, MPI_ERR_NO_MEM, "%s: out of memory", fn);
}
#endif

int IC_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
              MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Ibcast(buffer, count, datatype, root, comm, request);
#else
    call_t *c = nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Ibcast");
    return nb_started(c, bcast_impl(c, buffer, count, datatype, root, comm, "IC_Ibcast"), request);
#endif
}

int IC_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request);
#else
    call_t *c = nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Ireduce");
    return nb_started(
        c, reduce_impl(c, sendbuf, recvbuf, count, datatype, op, root, comm, "IC_Ireduce"),
        request);
#endif
}

int IC_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request);
#else
    call_t *c = nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Iallreduce");
    return nb_started(
        c, allreduce_impl(c, sendbuf, recvbuf, count, datatype, op, comm, "IC_Iallreduce"),
        request);
#endif
}

int IC_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
#else
    call_t *c = nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Ireduce_scatter");
    return nb_started(c,
                      reduce_scatter_impl(c, sendbuf, recvbuf, cv_int(recvcounts), datatype, op,
                                          comm, "IC_Ireduce_scatter"),
                      request);
#endif
}

int IC_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request);
#else
    call_t *c = nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Ireduce_scatter_block");
    return nb_started(c,
                      reduce_scatter_block_impl(c, sendbuf, recvbuf, recvcount, datatype, op, comm,
                                                "IC_Ireduce_scatter_block"),
                      request);
#endif
}

int IC_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                       request);
#else
    call_t *c = nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Igather");
    return nb_started(c,
                      gather_impl(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  root, comm, "IC_Igather"),
                      request);
#endif
}

int IC_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                        request);
#else
    call_t *c = nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Iscatter");
    return nb_started(c,
                      scatter_impl(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                   root, comm, "IC_Iscatter"),
                      request);
#endif
}

int IC_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                          request);
#else
    call_t *c = nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Iallgather");
    return nb_started(c,
                      allgather_impl(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                     comm, "IC_Iallgather"),
                      request);
#endif
}

int IC_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                   MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                           comm, request);
#else
    call_t *c = nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Iallgatherv");
    return nb_started(c,
                      allgatherv_impl(c, sendbuf, sendcount, sendtype, recvbuf, cv_int(recvcounts),
                                      dv_int(displs), recvtype, comm, "IC_Iallgatherv"),
                      request);
#endif
}

int IC_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                        comm, request);
#else
    call_t *c = nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Igatherv");
    return nb_started(c,
                      gatherv_impl(c, sendbuf, sendcount, sendtype, recvbuf, cv_int(recvcounts),
                                   dv_int(displs), recvtype, root, comm, "IC_Igatherv"),
                      request);
#endif
}

int IC_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                         comm, request);
#else
    call_t *c = nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Iscatterv");
    return nb_started(c,
                      scatterv_impl(c, sendbuf, cv_int(sendcounts), dv_int(displs), sendtype,
                                    recvbuf, recvcount, recvtype, root, comm, "IC_Iscatterv"),
                      request);
#endif
}

int IC_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Ibarrier(comm, request);
#else
    call_t *c = nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Ibarrier");
    return nb_started(c, barrier_impl(c, comm, "IC_Ibarrier"), request);
#endif
}

/* ============================================== the persistent calls */

int IC_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                  MPI_Info info, MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_BCAST;
    a.rbuf = buffer;
    a.rcount = count;
    a.rtype = datatype;
    a.root = root;
    a.comm = comm;
    a.fn = "IC_Bcast_init";
    return persist_init(&a, request);
}

int IC_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_REDUCE;
    a.sbuf = sendbuf;
    a.rbuf = recvbuf;
    a.rcount = count;
    a.rtype = datatype;
    a.op = op;
    a.root = root;
    a.comm = comm;
    a.fn = "IC_Reduce_init";
    return persist_init(&a, request);
}

int IC_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_ALLREDUCE;
    a.sbuf = sendbuf;
    a.rbuf = recvbuf;
    a.rcount = count;
    a.rtype = datatype;
    a.op = op;
    a.comm = comm;
    a.fn = "IC_Allreduce_init";
    return persist_init(&a, request);
}

int IC_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                           MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_REDUCE_SCATTER;
    a.sbuf = sendbuf;
    a.rbuf = recvbuf;
    a.counts = cv_int(recvcounts);
    a.rtype = datatype;
    a.op = op;
    a.comm = comm;
    a.fn = "IC_Reduce_scatter_init";
    return persist_init(&a, request);
}

int IC_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_REDUCE_SCATTER_BLOCK;
    a.sbuf = sendbuf;
    a.rbuf = recvbuf;
    a.rcount = recvcount;
    a.rtype = datatype;
    a.op = op;
    a.comm = comm;
    a.fn = "IC_Reduce_scatter_block_init";
    return persist_init(&a, request);
}

int IC_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                   MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_GATHER;
    a.sbuf = sendbuf;
    a.scount = sendcount;
    a.stype = sendtype;
    a.rbuf = recvbuf;
    a.rcount = recvcount;
    a.rtype = recvtype;
    a.root = root;
    a.comm = comm;
    a.fn = "IC_Gather_init";
    return persist_init(&a, request);
}

int IC_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                    MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_SCATTER;
    a.sbuf = sendbuf;
    a.scount = sendcount;
    a.stype = sendtype;
    a.rbuf = recvbuf;
    a.rcount = recvcount;
    a.rtype = recvtype;
    a.root = root;
    a.comm = comm;
    a.fn = "IC_Scatter_init";
    return persist_init(&a, request);
}

int IC_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_ALLGATHER;
    a.sbuf = sendbuf;
    a.scount = sendcount;
    a.stype = sendtype;
    a.rbuf = recvbuf;
    a.rcount = recvcount;
    a.rtype = recvtype;
    a.comm = comm;
    a.fn = "IC_Allgather_init";
    return persist_init(&a, request);
}

int IC_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_ALLGATHERV;
    a.sbuf = sendbuf;
    a.scount = sendcount;
    a.stype = sendtype;
    a.rbuf = recvbuf;
    a.counts = cv_int(recvcounts);
    a.displs = dv_int(displs);
    a.rtype = recvtype;
    a.comm = comm;
    a.fn = "IC_Allgatherv_init";
    return persist_init(&a, request);
}

int IC_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_GATHERV;
    a.sbuf = sendbuf;
    a.scount = sendcount;
    a.stype = sendtype;
    a.rbuf = recvbuf;
    a.counts = cv_int(recvcounts);
    a.displs = dv_int(displs);
    a.rtype = recvtype;
    a.root = root;
    a.comm = comm;
    a.fn = "IC_Gatherv_init";
    return persist_init(&a, request);
}

int IC_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                     MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                     int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_SCATTERV;
    a.sbuf = sendbuf;
    a.counts = cv_int(sendcounts);
    a.displs = dv_int(displs);
    a.stype = sendtype;
    a.rbuf = recvbuf;
    a.rcount = recvcount;
    a.rtype = recvtype;
    a.root = root;
    a.comm = comm;
    a.fn = "IC_Scatterv_init";
    return persist_init(&a, request);
}

int IC_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_BARRIER;
    a.comm = comm;
    a.fn = "IC_Barrier_init";
    return persist_init(&a, request);
}

#ifdef IC_HAVE_LARGE_COUNT
static cview_t cv_big(const MPI_Count *x)
{
    cview_t v = {NULL, x};
    return v;
}
static dview_t dv_big(const MPI_Aint *x)
{
    dview_t v = {NULL, x};
    return v;
}

int IC_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return bcast_impl(&c, buffer, count, datatype, root, comm, "IC_Bcast_c");
}

int IC_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                MPI_Op op, int root, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return reduce_impl(&c, sendbuf, recvbuf, count, datatype, op, root, comm, "IC_Reduce_c");
}

int IC_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return allreduce_impl(&c, sendbuf, recvbuf, count, datatype, op, comm, "IC_Allreduce_c");
}

int IC_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return reduce_scatter_impl(&c, sendbuf, recvbuf, cv_big(recvcounts), datatype, op, comm,
                               "IC_Reduce_scatter_c");
}

int IC_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return reduce_scatter_block_impl(&c, sendbuf, recvbuf, recvcount, datatype, op, comm,
                                     "IC_Reduce_scatter_block_c");
}

int IC_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return gather_impl(&c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                       "IC_Gather_c");
}

int IC_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                 MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return scatter_impl(&c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                        "IC_Scatter_c");
}

int IC_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return allgather_impl(&c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                          "IC_Allgather_c");
}

int IC_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                    MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return allgatherv_impl(&c, sendbuf, sendcount, sendtype, recvbuf, cv_big(recvcounts),
                           dv_big(displs), recvtype, comm, "IC_Allgatherv_c");
}

int IC_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                 int root, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return gatherv_impl(&c, sendbuf, sendcount, sendtype, recvbuf, cv_big(recvcounts),
                        dv_big(displs), recvtype, root, comm, "IC_Gatherv_c");
}

int IC_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                  MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return scatterv_impl(&c, sendbuf, cv_big(sendcounts), dv_big(displs), sendtype, recvbuf,
                         recvcount, recvtype, root, comm, "IC_Scatterv_c");
}

int IC_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Ibcast_c(buffer, count, datatype, root, comm, request);
#else
    call_t *c = nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Ibcast_c");
    return nb_started(c, bcast_impl(c, buffer, count, datatype, root, comm, "IC_Ibcast_c"),
                      request);
#endif
}

int IC_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Ireduce_c(sendbuf, recvbuf, count, datatype, op, root, comm, request);
#else
    call_t *c = nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Ireduce_c");
    return nb_started(
        c, reduce_impl(c, sendbuf, recvbuf, count, datatype, op, root, comm, "IC_Ireduce_c"),
        request);
#endif
}

int IC_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Iallreduce_c(sendbuf, recvbuf, count, datatype, op, comm, request);
#else
    call_t *c = nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Iallreduce_c");
    return nb_started(
        c, allreduce_impl(c, sendbuf, recvbuf, count, datatype, op, comm, "IC_Iallreduce_c"),
        request);
#endif
}

int IC_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Ireduce_scatter_c(sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
#else
    call_t *c = nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Ireduce_scatter_c");
    return nb_started(c,
                      reduce_scatter_impl(c, sendbuf, recvbuf, cv_big(recvcounts), datatype, op,
                                          comm, "IC_Ireduce_scatter_c"),
                      request);
#endif
}

int IC_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Ireduce_scatter_block_c(sendbuf, recvbuf, recvcount, datatype, op, comm, request);
#else
    call_t *c = nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Ireduce_scatter_block_c");
    return nb_started(c,
                      reduce_scatter_block_impl(c, sendbuf, recvbuf, recvcount, datatype, op, comm,
                                                "IC_Ireduce_scatter_block_c"),
                      request);
#endif
}

int IC_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                 MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Igather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                         request);
#else
    call_t *c = nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Igather_c");
    return nb_started(c,
                      gather_impl(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  root, comm, "IC_Igather_c"),
                      request);
#endif
}

int IC_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Iscatter_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                          request);
#else
    call_t *c = nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Iscatter_c");
    return nb_started(c,
                      scatter_impl(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                   root, comm, "IC_Iscatter_c"),
                      request);
#endif
}

int IC_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Iallgather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                            request);
#else
    call_t *c = nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Iallgather_c");
    return nb_started(c,
                      allgather_impl(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                     comm, "IC_Iallgather_c"),
                      request);
#endif
}

int IC_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Iallgatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                             comm, request);
#else
    call_t *c = nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Iallgatherv_c");
    return nb_started(c,
                      allgatherv_impl(c, sendbuf, sendcount, sendtype, recvbuf, cv_big(recvcounts),
                                      dv_big(displs), recvtype, comm, "IC_Iallgatherv_c"),
                      request);
#endif
}

int IC_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                  int root, MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Igatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                          comm, request);
#else
    call_t *c = nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Igatherv_c");
    return nb_started(c,
                      gatherv_impl(c, sendbuf, sendcount, sendtype, recvbuf, cv_big(recvcounts),
                                   dv_big(displs), recvtype, root, comm, "IC_Igatherv_c"),
                      request);
#endif
}

int IC_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Iscatterv_c(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                           root, comm, request);
#else
    call_t *c = nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Iscatterv_c");
    return nb_started(c,
                      scatterv_impl(c, sendbuf, cv_big(sendcounts), dv_big(displs), sendtype,
                                    recvbuf, recvcount, recvtype, root, comm, "IC_Iscatterv_c"),
                      request);
#endif
}

int IC_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    MPI_Info info, MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_BCAST;
    a.rbuf = buffer;
    a.rcount = count;
    a.rtype = datatype;
    a.root = root;
    a.comm = comm;
    a.fn = "IC_Bcast_init_c";
    return persist_init(&a, request);
}

int IC_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_REDUCE;
    a.sbuf = sendbuf;
    a.rbuf = recvbuf;
    a.rcount = count;
    a.rtype = datatype;
    a.op = op;
    a.root = root;
    a.comm = comm;
    a.fn = "IC_Reduce_init_c";
    return persist_init(&a, request);
}

int IC_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_ALLREDUCE;
    a.sbuf = sendbuf;
    a.rbuf = recvbuf;
    a.rcount = count;
    a.rtype = datatype;
    a.op = op;
    a.comm = comm;
    a.fn = "IC_Allreduce_init_c";
    return persist_init(&a, request);
}

int IC_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_REDUCE_SCATTER;
    a.sbuf = sendbuf;
    a.rbuf = recvbuf;
    a.counts = cv_big(recvcounts);
    a.rtype = datatype;
    a.op = op;
    a.comm = comm;
    a.fn = "IC_Reduce_scatter_init_c";
    return persist_init(&a, request);
}

int IC_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_REDUCE_SCATTER_BLOCK;
    a.sbuf = sendbuf;
    a.rbuf = recvbuf;
    a.rcount = recvcount;
    a.rtype = datatype;
    a.op = op;
    a.comm = comm;
    a.fn = "IC_Reduce_scatter_block_init_c";
    return persist_init(&a, request);
}

int IC_Gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     MPI_Info info, MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_GATHER;
    a.sbuf = sendbuf;
    a.scount = sendcount;
    a.stype = sendtype;
    a.rbuf = recvbuf;
    a.rcount = recvcount;
    a.rtype = recvtype;
    a.root = root;
    a.comm = comm;
    a.fn = "IC_Gather_init_c";
    return persist_init(&a, request);
}

int IC_Scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                      MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_SCATTER;
    a.sbuf = sendbuf;
    a.scount = sendcount;
    a.stype = sendtype;
    a.rbuf = recvbuf;
    a.rcount = recvcount;
    a.rtype = recvtype;
    a.root = root;
    a.comm = comm;
    a.fn = "IC_Scatter_init_c";
    return persist_init(&a, request);
}

int IC_Allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_ALLGATHER;
    a.sbuf = sendbuf;
    a.scount = sendcount;
    a.stype = sendtype;
    a.rbuf = recvbuf;
    a.rcount = recvcount;
    a.rtype = recvtype;
    a.comm = comm;
    a.fn = "IC_Allgather_init_c";
    return persist_init(&a, request);
}

int IC_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_ALLGATHERV;
    a.sbuf = sendbuf;
    a.scount = sendcount;
    a.stype = sendtype;
    a.rbuf = recvbuf;
    a.counts = cv_big(recvcounts);
    a.displs = dv_big(displs);
    a.rtype = recvtype;
    a.comm = comm;
    a.fn = "IC_Allgatherv_init_c";
    return persist_init(&a, request);
}

int IC_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                      MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_GATHERV;
    a.sbuf = sendbuf;
    a.scount = sendcount;
    a.stype = sendtype;
    a.rbuf = recvbuf;
    a.counts = cv_big(recvcounts);
    a.displs = dv_big(displs);
    a.rtype = recvtype;
    a.root = root;
    a.comm = comm;
    a.fn = "IC_Gatherv_init_c";
    return persist_init(&a, request);
}

int IC_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                       MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_SCATTERV;
    a.sbuf = sendbuf;
    a.counts = cv_big(sendcounts);
    a.displs = dv_big(displs);
    a.stype = sendtype;
    a.rbuf = recvbuf;
    a.rcount = recvcount;
    a.rtype = recvtype;
    a.root = root;
    a.comm = comm;
    a.fn = "IC_Scatterv_init_c";
    return persist_init(&a, request);
}
#endif
