/*
 * call.c -- the driver of the IC_ collectives: one for every call,
 * blocking, nonblocking or persistent (call.h: the call object).
 *
 * A description (collectives.c) calls it at each step: icc_begin (MPI's
 * state and the communicator), icc_chk and icc_mistake (a failed check
 * becomes the call's mistake), icc_raise_err and icc_fail (the call ends
 * with an error), icc_get_ctx (call.h: the context), icc_prepare (select
 * the plan, build the schedule, bind its scratch), the binding of the
 * user's buffers (see "bytes and datatypes" below), icc_launch (run the
 * schedule: at once for a blocking call, through the progress engine for
 * a nonblocking one) and icc_done (the end).  After those: the progress
 * engine's side of a nonblocking call, and the persistent calls.  The
 * entry points are in api.c.
 */
#include "config.h"
#include "call.h"
#include "choose.h"

#include <limits.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The byte unit of the broadcast and the gather family (call.h). */
const ic_typeinfo_t icc_byte_ti = {MPI_PACKED, 0, 1, 0, 1, 1, 1, 0, 0};

/* A run's block counts, staging areas and packing steps. */
static void free_staging(call_t *c)
{
    if (c->counts || c->displs || c->stage[0] || c->stage[1] || c->steps) {
        if (c->counts != c->counts_in)
            free(c->counts);
        free(c->displs);
        free(c->stage[0]);
        free(c->stage[1]);
        free(c->steps);
        c->counts = c->displs = NULL;
        c->stage[0] = c->stage[1] = NULL;
        c->steps = NULL;
        c->nsteps = c->npack = c->steps_cap = 0;
    }
}

/* What a nonblocking call keeps over its run (a persistent one over all
 * of them). */
static void call_free_kept(call_t *c)
{
    free_staging(c);
    for (int k = 0; k < IC_NBUF; k++) {
        ic_scratch_free(c->scratch[k], c->scratch_bytes[k]);
        c->scratch[k] = NULL;
        c->scratch_bytes[k] = 0;
    }
    if (c->own_made)
        ic_sched_free(&c->own);
    c->own_made = 0;
    ic_sched_key_drop(&c->key);
    free(c->rmsg);
    c->rmsg = NULL;
}

/* The end of a call's run: what it allocated for this run goes (a
 * persistent call keeps its schedule and scratch for the next, and its
 * staging too when its starts rerun the run). */
static void call_free(call_t *c)
{
    if (!(c->nb && c->keep && c->rerun))
        free_staging(c);
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
int icc_chk(call_t *c, int rc, int blind)
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
int icc_mistake(call_t *c, int blind, int code, const char *fmt, ...)
{
    char m[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof(m), fmt, ap);
    va_end(ap);
    return icc_chk(c, ic_argerr(&c->t, code, "%s", m), blind);
}

/* A persistent run's failure message, for the completion call that
 * returns its error (ic_call_raise_failed). */
static void keep_failure(call_t *c, const char *msg)
{
    size_t n = strlen(msg ? msg : "") + 1;
    free(c->rmsg);
    if ((c->rmsg = malloc(n)) != NULL)
        memcpy(c->rmsg, msg ? msg : "", n);
}

/* The end of a call with code (MPI_SUCCESS or an error).  A blocking call,
 * or a nonblocking one still in its start, raises an error through the
 * communicator's handler (as MPI does) and returns it; a nonblocking one
 * already under way hands it to its request (progress.c). */
static inline int end(call_t *c, int code, const char *msg)
{
    call_free(c);
    if (c->nb && c->st.started) {
        if (c->keep && code != MPI_SUCCESS && code != c->st.mistake) /* for the completion */
            keep_failure(c, msg);
        return ic_call_over(&c->st, code);
    }
    if (c->nb)
        c->st.over = 1;
    if (code == MPI_SUCCESS)
        return MPI_SUCCESS;
    return ic_error(c->comm, code, "%s", msg);
}

/* Raise the call's mistake through the communicator's error handler. */
int icc_raise_err(call_t *c)
{
    return end(c, c->e.code, c->e.msg);
}

/* The message of a failure rc of function fn while doing `what`. */
#define FAIL_TEXT (MPI_MAX_ERROR_STRING + 160)
static void fail_text(char *m, const char *fn, int rc, const char *what)
{
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, s, &len) != MPI_SUCCESS)
        strcpy(s, "unknown error");
    snprintf(m, FAIL_TEXT, "%s: %s: %s", fn, what, s);
}

/* A failure of the library or of MPI while running the call. */
int icc_fail(call_t *c, int rc, const char *what)
{
    char m[FAIL_TEXT];
    fail_text(m, c->fn, rc, what);
    return end(c, rc, m);
}

/* Common prologue: MPI state and communicator.  On success fills size/rank. */
int icc_begin(call_t *c, const char *fn, MPI_Comm comm, int *rank, int *size)
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

/* Is `type` committed?  (A failed check is kept as a mistake of this rank
 * only: it takes part with stand-ins.)  Returns 1 when it is not.  Runs
 * before the calls that move nothing return, so those report it too. */
int icc_uncommitted(call_t *c, MPI_Datatype type, const char *what)
{
    return icc_chk(c, ic_check_committed(&c->t, type, what), 0);
}

size_t *icc_alloc_counts(call_t *c, int p)
{
    if (p <= IC_CALL_COUNTS) {
        memset(c->counts_in, 0, (size_t)p * sizeof(size_t));
        c->counts = c->counts_in;
    } else
        c->counts = calloc((size_t)p, sizeof(size_t));
    return c->counts;
}

/* Zeroed memory standing in for a user buffer this rank cannot use
 * (side 0: SEND, 1: RECV); NULL when out of memory. */
void *icc_standin(call_t *c, int side, size_t bytes)
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
    ic_scratch_free(c->scratch[k], c->scratch_bytes[k]);
    c->scratch[k] = ic_scratch_alloc(bytes ? bytes : 1);
    c->scratch_bytes[k] = c->scratch[k] ? bytes : 0;
    return c->scratch[k];
}

/* Select the plan, build this rank's schedule and bind its scratch (in
 * units of `sti`) into c->plan, c->s.  A blocking call runs the context's
 * cached schedule when it is this call's; a nonblocking one builds its
 * own.  On failure the call is cleaned up (icc_fail()). */
int icc_prepare(call_t *c, size_t elem, const ic_typeinfo_t *sti)
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
    c->unit = sti;
    if (!key || !ic_sched_key_hit(key, &c->a, elem, c->gran, &c->plan)) {
        if (key == &ctx->built)
            ic_ctx_again_drop(ctx); /* the schedule it repeats goes */
        if (key)
            ic_sched_key_drop(key);
        if (c->fixed)
            c->plan = ic_plan_1d(c->fixed, 0);
        else if (ic_select(ctx, &c->a, elem, &c->plan) != 0)
            return icc_fail(c, MPI_ERR_INTERN, "no algorithm can serve this call");
        ic_sched_reset(c->s, ctx->rank, ctx->size);
        if (ic_plan_build(c->s, &c->plan, &c->a) != 0 || ic_sched_ok(c->s) != 0)
            return icc_fail(c, MPI_ERR_NO_MEM, "cannot build the schedule");
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
            return icc_fail(c, MPI_ERR_NO_MEM, "out of memory for scratch");
        ic_binding_set_bytes(&c->b, k, mem - sti->true_lb, sti, c->gran);
    }
    return MPI_SUCCESS;
}

/* End of a call: the mistake this rank found (after it took its part), or
 * success. */
int icc_done(call_t *c)
{
    if (c->e.code && !(c->nb && c->st.raised))
        return icc_raise_err(c);
    if (!c->recorded)
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
    return then ? then(c) : icc_done(c);
}

/* What a schedule that failed with rc was doing (the error's message). */
static const char *exec_what(int rc)
{
    return rc == MPI_ERR_TRUNCATE ? "a message is not as long as this rank's count says (the "
                                    "amounts of the sender and the receiver differ)"
                                  : "communication failed";
}

/* The schedule failed with rc.  MPI_ERR_TRUNCATE: a message of a schedule
 * whose sides count alone (ic_sched_t.unagreed) was not as long as this
 * rank's count said; when this rank made a mistake of its own (its data
 * unreadable, say, so that it sent or expected the wrong amount), that
 * mistake is the answer. */
static int exec_failed(call_t *c, int rc)
{
    if (rc == MPI_ERR_TRUNCATE && c->e.code)
        return icc_raise_err(c);
    return icc_fail(c, rc, exec_what(rc));
}

/* A nonblocking or persistent call's schedule c->s starts (it moves on in
 * the engine: ic_call_step). */
static void nb_run(call_t *c)
{
    if (ic_trace_on() && !c->quiet) {
        ic_trace_call_begin();
        c->t0 = MPI_Wtime();
    }
    if (!c->quiet) { /* IC_Last_algorithm: the plan of the call started last */
        ic_record_last(c->a.coll, &c->plan, c->gran);
        ic_record_packed(c->a.coll, c->packed); /* its steps are made */
        c->recorded = 1;
    }
    ic_steps_t steps = {c->steps, c->nsteps, c->npack};
    int lane = ic_exec_begin(&c->x, c->ctx, c->s, &c->b, &steps, c->op, c->commutative, c->st.tag,
                             c->keep ? c->st.lane : IC_LANE_NB);
    /* in turn on lane IC_LANE_NB (shm.c: "Lanes"); a call of two phases
     * from its first, whatever that one sends */
    if (!c->keep && (lane == IC_LANE_NB || (c->then == icc_then_sizes && ic_shm_lanes(c->ctx))))
        c->st.lane_nb = 1;
    c->st.running = 1;
}

/* ================================================= the last call again
 *
 * A short call's fixed costs are its argument checks, its datatype and op
 * queries, its bindings and the schedule cache's lookup: about half of
 * the 2700 instructions of an 8-byte allreduce at p = 2, where the
 * vendor's whole call takes about 2000.  A program mostly repeats its
 * calls with the same arguments (a time step, a solver's iterations): the
 * same buffers, counts, datatypes, op and root, and a repeat finds the
 * same answer to every check and the same run.  So a context keeps the
 * last blocking call (ic_ctx_t.again) that
 *   - went through without a mistake (no stand-ins) and in one phase (a
 *     gatherv or scatterv whose block sizes went first ran in two: a
 *     non-root's arguments do not say whether the root's counts changed),
 *   - ran the context's schedule (ic_ctx_t.sched) with no packing steps,
 *   - named predefined datatypes and a predefined op (or none): handles
 *     that never name anything else, where a freed derived datatype's or
 *     user op's handle may come back for a new one,
 *   - and was not traced (INTERCOM_TRACE records come from the full way);
 * a call with the same arguments on that context runs it again: scratch
 * bound, schedule executed (compiled at the first repeat: executor.c,
 * "Replay"), IC_Last_algorithm recorded.  Every rank runs
 * the schedule the full way would build, so ranks that repeat and ranks
 * that do not meet as always.  The entry goes with the schedule it runs
 * (a call of other arguments, IC_Set_algorithm, a tuning table:
 * ic_ctx_sched_drop).  The arrays of the v variants and reduce_scatter
 * are compared by what they hold (copies kept with the call); a side that
 * means nothing at a non-root (gather, scatter and their v variants) is
 * never read there. */

void ic_ctx_again_drop(ic_ctx_t *ctx)
{
    if (ctx->again)
        ctx->again->valid = 0;
}

void ic_ctx_again_free(ic_ctx_t *ctx)
{
    if (ctx->again) {
        free(ctx->again->counts);
        free(ctx->again->displs);
        ic_replay_free(ctx->again->rp);
        free(ctx->again);
    }
    ctx->again = NULL;
}

/* k as it matters at `rank`: a side that means nothing there cleared. */
static ic_again_key_t again_norm(const ic_again_key_t *k, int rank)
{
    ic_again_key_t n = *k;
    if (k->root_side && rank != k->root) {
        if (k->root_side == 1) {
            n.rbuf = NULL;
            n.rcount = 0;
            n.rtype = MPI_DATATYPE_NULL;
        } else {
            n.sbuf = NULL;
            n.scount = 0;
            n.stype = MPI_DATATYPE_NULL;
        }
        n.icounts = NULL;
        n.ccounts = NULL;
        n.idispls = NULL;
        n.adispls = NULL;
    }
    return n;
}

static int again_same(const ic_again_key_t *x, const ic_again_key_t *y)
{
    return x->coll == y->coll && x->root == y->root && x->sbuf == y->sbuf && x->rbuf == y->rbuf &&
           x->scount == y->scount && x->rcount == y->rcount && x->stype == y->stype &&
           x->rtype == y->rtype && x->op == y->op &&
           (x->icounts || x->ccounts) == (y->icounts || y->ccounts) &&
           (x->idispls || x->adispls) == (y->idispls || y->adispls);
}

static long long again_count(const ic_again_key_t *k, int i)
{
    return k->icounts ? k->icounts[i] : (long long)k->ccounts[i];
}

static long long again_displ(const ic_again_key_t *k, int i)
{
    return k->idispls ? k->idispls[i] : (long long)k->adispls[i];
}

/* Do k's arrays (n entries) hold what the kept call's held? */
static int again_arrays(const ic_again_t *g, const ic_again_key_t *k, int n)
{
    int hc = k->icounts || k->ccounts, hd = k->idispls || k->adispls;
    for (int i = 0; hc && i < n; i++)
        if (again_count(k, i) != g->counts[i])
            return 0;
    for (int i = 0; hd && i < n; i++)
        if (again_displ(k, i) != g->displs[i])
            return 0;
    return 1;
}

static int op_predefined(MPI_Op op)
{
    return op == MPI_OP_NULL || op == MPI_SUM || op == MPI_PROD || op == MPI_MAX || op == MPI_MIN ||
           op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR || op == MPI_BAND || op == MPI_BOR ||
           op == MPI_BXOR || op == MPI_MAXLOC || op == MPI_MINLOC;
}

static int type_predefined(MPI_Datatype t)
{
    return t == MPI_DATATYPE_NULL || ic_type_named(t); /* NULL: not used (barrier) */
}

/* Room for the kept arrays (n entries each, where k has them; a
 * context's size never changes). */
static int again_room(ic_again_t *g, const ic_again_key_t *k, int n)
{
    if ((k->icounts || k->ccounts) && !g->counts &&
        !(g->counts = malloc((size_t)n * sizeof(long long))))
        return -1;
    if ((k->idispls || k->adispls) && !g->displs &&
        !(g->displs = malloc((size_t)n * sizeof(long long))))
        return -1;
    return 0;
}

/* After c's run: may its context repeat it? */
static void again_keep(call_t *c)
{
    ic_ctx_t *ctx = c->ctx;
    /* aux_made: a first phase ran (the block sizes; above) */
    if (c->then || c->aux_made || c->nsteps || c->stage[0] || c->stage[1] || c->e.code ||
        c->quiet || c->t0 != 0 || c->s != &ctx->sched || !ctx->built.valid || !c->unit)
        return;
    ic_again_key_t k = again_norm(&c->akey, ctx->rank);
    if (!op_predefined(k.op) || !type_predefined(k.stype) || !type_predefined(k.rtype))
        return;
    if (!ctx->again && !(ctx->again = calloc(1, sizeof(*ctx->again))))
        return;
    ic_again_t *g = ctx->again;
    g->valid = 0;
    ic_replay_free(g->rp);
    g->rp = NULL;
    g->rp_state = 0;
    if (again_room(g, &k, ctx->size) != 0)
        return;
    for (int i = 0; (k.icounts || k.ccounts) && i < ctx->size; i++)
        g->counts[i] = again_count(&k, i);
    for (int i = 0; (k.idispls || k.adispls) && i < ctx->size; i++)
        g->displs[i] = again_displ(&k, i);
    g->key = k;
    g->b = c->b;
    g->sti = *c->unit;
    g->coll = c->a.coll;
    g->gran = c->gran;
    g->op = c->op;
    g->commutative = c->commutative;
    g->plan = c->plan;
    g->valid = 1;
}

int icc_again(const call_t *c, const ic_again_key_t *key, MPI_Comm comm, const char *fn, int *rc)
{
    if (c->nb || c->dry)
        return 0;
    if (ic_npending || ic_npersist) /* every IC_ call moves the nonblocking ones on */
        ic_progress();
    ic_ctx_t *ctx = ic_ctx_known(comm);
    ic_again_t *g = ctx ? ctx->again : NULL;
    if (!g || !g->valid || ic_trace_on())
        return 0;
    ic_again_key_t norm; /* copied only where a side means nothing */
    const ic_again_key_t *k = key;
    if (key->root_side && ctx->rank != key->root) {
        norm = again_norm(key, ctx->rank);
        k = &norm;
    }
    if (!again_same(&g->key, k) || !again_arrays(g, k, ctx->size))
        return 0;
    int scratch = 0;
    for (int b = IC_BUF_SCRATCH; b <= IC_BUF_SCRATCH2; b++) { /* as icc_prepare */
        size_t n = ctx->sched.scratch[b] * (g->gran ? g->gran : 1);
        if (n == 0)
            continue;
        char *mem = ic_ctx_scratch(ctx, b, ic_type_span(&g->sti, n));
        if (!mem)
            return 0; /* the full way reports it */
        g->b.at[b].base = mem - g->sti.true_lb;
        scratch = 1;
    }
    if (g->rp_state == 0) /* its first repeat: compiled, for it and the next */
        g->rp_state =
            ic_replay_build(ctx, &ctx->sched, &g->b, g->op, g->commutative, &g->rp) ? -1 : 1;
    int r = g->rp_state > 0 ? ic_replay_run(ctx, g->rp, &g->b, g->op)
                            : ic_exec(ctx, &ctx->sched, &g->b, NULL, g->op, g->commutative);
    if (scratch) /* none grew otherwise: every call releases what it grew */
        ic_ctx_release_scratch(ctx);
    if (r != MPI_SUCCESS) {
        g->valid = 0;
        char m[FAIL_TEXT];
        fail_text(m, fn, r, exec_what(r));
        *rc = ic_error(comm, r, "%s", m);
        return 1;
    }
    ic_record_last((ic_coll_t)g->coll, &g->plan, g->gran);
    ic_record_packed((ic_coll_t)g->coll, 0);
    *rc = MPI_SUCCESS;
    return 1;
}

/* The driver: run the prepared schedule c->s with reduction op, then
 * `then` (NULL: the call ends).  A blocking call runs it to its end here;
 * a nonblocking one starts it and returns: the progress engine calls
 * ic_call_progress() until it has run. */
int icc_launch(call_t *c, MPI_Op op, int commutative, then_t then)
{
    c->op = op;
    c->commutative = commutative;
    c->then = then;
    c->t0 = 0;
    /* A persistent call of one phase without a mistake: its next starts
     * run this schedule again at once, between the same packing and
     * unpacking steps. */
    if (c->nb && c->keep)
        c->rerun = !then && !c->sizes && !c->aux_made && !c->e.code;
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
    ic_steps_t steps = {c->steps, c->nsteps, c->npack};
    int rc = ic_exec(c->ctx, c->s, &c->b, &steps, op, commutative);
    if (rc != MPI_SUCCESS)
        return exec_failed(c, rc);
    if (c->again)
        again_keep(c);
    return ran(c);
}

/* Select, build, bind scratch (in units of `sti`) and run. */
int icc_run_done(call_t *c, MPI_Op op, int commutative, size_t elem, const ic_typeinfo_t *sti)
{
    int rc = icc_prepare(c, elem, sti);
    return rc == MPI_SUCCESS ? icc_launch(c, op, commutative, NULL) : rc;
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
 *     bcast_granule in collectives.c; see ic_sched_aligned): typed
 *     regions in place, (buf + (o g / size) extent, c g / size,
 *     datatype), no packing;
 *   - otherwise (messages cut inside an element: a long broadcast of
 *     elements whose size does not divide g, executor pieces that are not
 *     whole elements; a buffer at MPI_BOTTOM): packed into (SEND side) or
 *     unpacked from (RECV side) a staging area.
 * The decision is each rank's own: the bytes are MPI_PACKED, which matches
 * any datatype, so typed and packed ranks can be paired.  Packing and
 * unpacking are steps of the call's run (ic_steps_t): COPY actions between
 * the user's buffer in its datatype and the staging area in bytes, which
 * the executor runs before the schedule's first round and after its last
 * (ic_typed_copy: MPI_Pack and MPI_Unpack, or at MPI_BOTTOM a message to
 * self sent or received as MPI_PACKED, which MPI defines to give the same
 * bytes; MPICH 4.0's MPI_Pack rejects a NULL buffer).  So a nonblocking
 * call packs as its run begins, and a persistent call's starts pack the
 * buffer's current contents without running its description again.
 * Packing runs over whole elements, at most INT_MAX bytes at a time
 * (MPI_Pack's sizes are ints); an element that is itself longer than that
 * cannot be packed (MPI_ERR_COUNT).  IC_Last_packed_bytes() tells what a
 * call packed and unpacked.
 */

/* Elements of `ti` per piece of at most INT_MAX packed bytes (0: one
 * element is longer). */
static long long pack_step(const ic_typeinfo_t *ti)
{
    return ti->size > 0 ? INT_MAX / ti->size : INT_MAX;
}

/* Append a COPY step (a packing one before any unpacking one). */
static int add_step(call_t *c, ic_region_t src, ic_region_t dst)
{
    if (c->nsteps == c->steps_cap) {
        size_t cap = c->steps_cap ? 2 * c->steps_cap : 4;
        ic_action_t *a = realloc(c->steps, cap * sizeof(*a));
        if (!a)
            return MPI_ERR_NO_MEM;
        c->steps = a;
        c->steps_cap = cap;
    }
    ic_action_t a = {IC_ACT_COPY, -1, 0, src, dst};
    c->steps[c->nsteps++] = a;
    return MPI_SUCCESS;
}

/* Steps between `count` elements of ti at element uoff of the user's
 * buffer `user` (IC_BUF_USER_IN or _OUT, bound by the caller) and the
 * packed bytes at byte `at` of staging area `side`: packing into it
 * (user IN) or unpacking from it (user OUT), in pieces of at most INT_MAX
 * bytes (MPI_Pack's sizes are ints).  An element longer than that cannot
 * be packed: a mistake of this rank (MPI_ERR_COUNT; a packing rank goes on
 * with zeros).  Returns 1 on a mistake, -1 out of memory. */
static int steps_for(call_t *c, int user, int side, size_t uoff, long long count,
                     const ic_typeinfo_t *ti, size_t at)
{
    int pack = user == IC_BUF_USER_IN;
    long long step = pack_step(ti);
    if (count == 0 || ti->size == 0)
        return 0;
    if (step == 0) {
        if (pack)
            memset((char *)c->stage[side] + at, 0, (size_t)count * (size_t)ti->size);
        return icc_mistake(c, 0, MPI_ERR_COUNT,
                           "cannot %s the data: an element of the datatype is over 2 GiB",
                           pack ? "pack" : "unpack");
    }
    ic_typeinfo_t bt = icc_byte_ti;
    int stage = side ? IC_BUF_STAGE_RECV : IC_BUF_STAGE_SEND;
    ic_binding_set(&c->b, stage, c->stage[side], &bt);
    for (long long i = 0; i < count; i += step) {
        size_t n = (size_t)(count - i < step ? count - i : step);
        ic_region_t u = ic_reg((ic_buf_t)user, uoff + (size_t)i, n);
        ic_region_t g =
            ic_reg((ic_buf_t)stage, at + (size_t)i * (size_t)ti->size, n * (size_t)ti->size);
        if (pack && c->nsteps > c->npack)
            return -1; /* packing goes first: not reached (the descriptions pack, then launch) */
        if (add_step(c, pack ? u : g, pack ? g : u) != MPI_SUCCESS)
            return -1;
        if (pack)
            c->npack++;
    }
    c->packed += (size_t)count * (size_t)ti->size;
    return 0;
}

/* The smallest displacement of the non-empty blocks (0: none). */
long long icc_lowest_displ(cview_t counts, dview_t displs, int p)
{
    long long d = 0;
    int have = 0;
    for (int i = 0; i < p; i++)
        if (cv(counts, i) > 0 && (!have || dv(displs, i) < d)) {
            d = dv(displs, i);
            have = 1;
        }
    return d;
}

/* Pack `count` elements of ti at ubuf into staging area `side` at byte
 * `at`: a step before the schedule.  Returns 1 on a mistake (this rank
 * goes on with zeros there), -1 out of memory. */
int icc_pack(call_t *c, int side, const void *ubuf, long long count, const ic_typeinfo_t *ti,
             size_t at)
{
    ic_binding_set(&c->b, IC_BUF_USER_IN, (void *)ubuf, ti);
    return steps_for(c, IC_BUF_USER_IN, side, 0, count, ti, at);
}

/* The same for every block of a v-call's buffer: block i (counts[i]
 * elements at displs[i] extents from ubuf) to byte
 * ic_blocks_prefix(c->counts, i) of the staging area. */
int icc_pack_blocks(call_t *c, int side, const void *ubuf, cview_t counts, dview_t displs,
                    const ic_typeinfo_t *ti)
{
    int p = c->ctx->size, bad = 0;
    long long d0 = icc_lowest_displ(counts, displs, p);
    ic_binding_set(&c->b, IC_BUF_USER_IN, ic_shift(ubuf, (MPI_Aint)d0 * ti->extent), ti);
    for (int i = 0; i < p; i++) {
        int rc = steps_for(c, IC_BUF_USER_IN, side, (size_t)(dv(displs, i) - d0), cv(counts, i), ti,
                           ic_blocks_prefix(c->counts, i));
        if (rc < 0)
            return rc;
        bad |= rc;
    }
    return bad;
}

/* Run the prepared schedule of a data movement; then, when `on`, unpack
 * ucount elements of uti from the staging area into ubuf (a step after
 * the schedule). */
int icc_launch_unpack(call_t *c, int on, void *ubuf, long long ucount, const ic_typeinfo_t *uti)
{
    if (on) {
        ic_binding_set(&c->b, IC_BUF_USER_OUT, ubuf, uti);
        if (steps_for(c, IC_BUF_USER_OUT, 1, 0, ucount, uti, 0) < 0)
            return icc_fail(c, MPI_ERR_NO_MEM, "out of memory");
    }
    return icc_launch(c, MPI_OP_NULL, 1, NULL);
}

/* The same, block by block (the v-calls), all but block skip (-1: none). */
int icc_launch_unpack_blocks(call_t *c, int on, void *ubuf, cview_t counts, dview_t displs,
                             const ic_typeinfo_t *uti, int skip)
{
    if (!on)
        return icc_launch(c, MPI_OP_NULL, 1, NULL);
    int p = c->ctx->size;
    long long d0 = icc_lowest_displ(counts, displs, p);
    ic_binding_set(&c->b, IC_BUF_USER_OUT, ic_shift(ubuf, (MPI_Aint)d0 * uti->extent), uti);
    for (int i = 0; i < p; i++)
        if (i != skip && steps_for(c, IC_BUF_USER_OUT, 1, (size_t)(dv(displs, i) - d0),
                                   cv(counts, i), uti, ic_blocks_prefix(c->counts, i)) < 0)
            return icc_fail(c, MPI_ERR_NO_MEM, "out of memory");
    return icc_launch(c, MPI_OP_NULL, 1, NULL);
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
void icc_bind_bytes(call_t *c, int buf, const void *base)
{
    ic_typeinfo_t bt = icc_byte_ti;
    ic_binding_set_bytes(&c->b, buf, (void *)base, &bt, c->gran ? c->gran : 1);
}

/* Bind buffer `buf` to a zeroed stand-in of `bytes` bytes (side 0 SEND,
 * 1 RECV). */
int icc_bind_standin(call_t *c, int buf, int side, size_t bytes)
{
    void *m = icc_standin(c, side, bytes);
    if (!m)
        return MPI_ERR_NO_MEM;
    icc_bind_bytes(c, buf, m);
    return MPI_SUCCESS;
}

/* Bind buffer `buf` of the prepared schedule to the user's `base` of
 * datatype ti in place: as bytes when ti is contiguous, as typed regions
 * when the schedule's regions on it fall on ti's elements.  0 when it
 * cannot (the caller stages it). */
int icc_bind_user(call_t *c, int buf, const void *base, const ic_typeinfo_t *ti)
{
    if (ti->contiguous) {
        icc_bind_bytes(c, buf, base);
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
 * bytes) after icc_prepare(): in place if it can, else packed; zeros when
 * `bad` (this rank's mistake). */
int icc_bind_send_bytes(call_t *c, const void *buf, long long count, const ic_typeinfo_t *ti,
                        size_t bytes, int bad)
{
    if (bad)
        return icc_bind_standin(c, IC_BUF_SEND, 0, bytes);
    if (count == 0 || icc_bind_user(c, IC_BUF_SEND, buf, ti)) {
        if (count == 0)
            icc_bind_bytes(c, IC_BUF_SEND, buf);
        return MPI_SUCCESS;
    }
    c->stage[0] = malloc(bytes ? bytes : 1);
    if (!c->stage[0])
        return MPI_ERR_NO_MEM;
    icc_bind_bytes(c, IC_BUF_SEND, c->stage[0]);
    return icc_pack(c, 0, buf, count, ti, 0) < 0 ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

/* Stage RECV in `bytes` packed bytes (when the receive side cannot be used
 * in place, or as a stand-in). */
int icc_stage_recv(call_t *c, size_t bytes)
{
    return icc_bind_standin(c, IC_BUF_RECV, 1, bytes);
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
            exec_failed(c, rc);
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
call_t *icc_nb_new(void)
{
    call_t *c = calloc(1, sizeof(*c));
    if (c)
        c->nb = 1;
    return c;
}

#if !IC_NB_VENDOR
/* The end of a nonblocking call's start: the description returned rc. */
int icc_nb_started(call_t *c, int rc, MPI_Request *req)
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
        return icc_bcast_impl(c, a->rbuf, a->rcount, a->rtype, a->root, a->comm, a->fn);
    case P_REDUCE:
        return icc_reduce_impl(c, a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, a->root, a->comm,
                               a->fn);
    case P_ALLREDUCE:
        return icc_allreduce_impl(c, a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, a->comm, a->fn);
    case P_REDUCE_SCATTER:
        return icc_reduce_scatter_impl(c, a->sbuf, a->rbuf, a->counts, a->rtype, a->op, a->comm,
                                       a->fn);
    case P_REDUCE_SCATTER_BLOCK:
        return icc_reduce_scatter_block_impl(c, a->sbuf, a->rbuf, a->rcount, a->rtype, a->op,
                                             a->comm, a->fn);
    case P_GATHER:
        return icc_gather_impl(c, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                               a->root, a->comm, a->fn);
    case P_GATHERV:
        return icc_gatherv_impl(c, a->sbuf, a->scount, a->stype, a->rbuf, a->counts, a->displs,
                                a->rtype, a->root, a->comm, a->fn);
    case P_SCATTER:
        return icc_scatter_impl(c, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                                a->root, a->comm, a->fn);
    case P_SCATTERV:
        return icc_scatterv_impl(c, a->sbuf, a->counts, a->displs, a->stype, a->rbuf, a->rcount,
                                 a->rtype, a->root, a->comm, a->fn);
    case P_ALLGATHER:
        return icc_allgather_impl(c, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                                  a->comm, a->fn);
    case P_ALLGATHERV:
        return icc_allgatherv_impl(c, a->sbuf, a->scount, a->stype, a->rbuf, a->counts, a->displs,
                                   a->rtype, a->comm, a->fn);
    default:
        return icc_barrier_impl(c, a->comm, a->fn);
    }
}

int ic_call_restart(ic_call_state_t *st, int *code)
{
    call_t *c = call_of(st);
    *code = MPI_SUCCESS;
    st->over = st->running = 0;
    st->code = 0;
    st->failed = 0;
    st->started = 0;
    c->dry = 0;
    if (c->rerun) {
        c->t0 = 0;
        c->then = NULL;
        nb_run(c);
        st->started = 1;
        return 1;
    }
    *code = persist_desc(c, &c->pa); /* a failure ends the run (raised as at a start) */
    if (*code == c->st.mistake)
        *code = MPI_SUCCESS; /* the init's mistake, raised there: each run ends with it */
    st->started = 1;
    return st->running && !st->over;
}

int ic_call_raise_failed(ic_call_state_t *st, int code)
{
    const call_t *c = call_of(st);
    return ic_error(c->comm, code, "%s", c->rmsg ? c->rmsg : c->fn);
}

/* The init of a persistent call: check, prepare, make the handle. */
int icc_persist_init(const pargs_t *a, MPI_Request *request)
{
    *request = MPI_REQUEST_NULL;
    call_t *c = icc_nb_new();
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
    c->st.mistake = mistake_code;
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
