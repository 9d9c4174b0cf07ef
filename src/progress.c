/*
 * progress.c -- the nonblocking calls' requests and the engine that moves
 * their schedules on.
 *
 * A nonblocking IC_I* call builds its schedule, posts what its first
 * round allows and returns an MPI_Request: a generalized request
 * (MPI_Grequest_start), which the program completes with MPI's own
 * MPI_Wait, MPI_Test, MPI_Waitall, ... as any other.  The schedule moves
 * on only when something runs the engine (ic_progress): each round's
 * messages are tested, and once they are done the round's reductions run
 * and the next round is posted.  What runs it:
 *   - every IC_ call (the engine runs first thing, when calls are pending);
 *   - Open MPI: its progress loop.  opal_progress() calls the functions
 *     registered with opal_progress_register() (Open MPI's own
 *     nonblocking collectives, libnbc, are moved on that way) each time
 *     round, from MPI_Wait, MPI_Test and every blocking call; InterCom
 *     registers the engine there (looked up at run time: the symbol
 *     belongs to Open MPI's libopen-pal, not to MPI).  So a program that
 *     waits or tests with nothing but MPI's calls completes its requests,
 *     and the schedules also move on while it sits in other MPI calls;
 *   - MPICH: extended generalized requests (MPIX_Grequest_start), whose
 *     poll function MPICH calls while a completion call waits for or
 *     tests such a request; the engine is that poll function, so MPI_Wait
 *     and MPI_Test on InterCom's requests move every pending call on (not
 *     MPICH's other calls: between them, only IC_ calls move them);
 *   - nothing else: under SimGrid's SMPI, whose MPI_Wait on a generalized
 *     request sleeps until another simulated process completes it, there
 *     is no hook, and the IC_I* calls are SMPI's own nonblocking
 *     collectives (api.c).
 * The engine is not re-entered: an MPI call it makes may run the MPI's
 * progress loop, which calls it back; that call returns at once.
 *
 * Completion.  A call whose schedule has ended (or failed) leaves the
 * engine's list and its request is completed (MPI_Grequest_complete); the
 * request's query function gives the call's error code (MPI_SUCCESS, or
 * what failed while it ran), and its free function frees the call.  A
 * call whose start found a mistake of this rank's arguments raised it
 * then and runs on without a request (it still takes its part, so no
 * other rank waits for it) and frees itself once over.  MPI_Cancel of an
 * InterCom request is refused (MPI: collectives cannot be cancelled).
 * MPI_Finalize runs the engine until no call is left.
 */
#include "config.h"
#include "ic_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(OPEN_MPI) && !defined(SMPI_H)
#include <dlfcn.h>
#endif

int ic_npending;
static ic_call_state_t *pending; /* the list, oldest first: head */
static ic_call_state_t *pending_tail;
static int in_engine; /* the engine is running (no re-entry) */

void ic_call_enter(ic_call_state_t *st, ic_ctx_t *ctx)
{
    st->ctx = ctx;
    st->tag = IC_TAG_NB_BASE + (int)(ctx->nb_seq++ % (unsigned)ctx->ntags);
}

int ic_call_over(ic_call_state_t *st, int code)
{
    st->over = 1;
    st->running = 0;
    if (!st->code)
        st->code = code;
    return MPI_SUCCESS;
}

static void unlink_call(ic_call_state_t *st)
{
    if (st->prev)
        st->prev->next = st->next;
    else
        pending = st->next;
    if (st->next)
        st->next->prev = st->prev;
    else
        pending_tail = st->prev;
    st->next = st->prev = NULL;
    st->pending = 0;
    ic_npending--;
}

/* st is over: off the list; its request completes (its free function may
 * free it right there: st is not touched after) or, detached, it goes. */
static void finish(ic_call_state_t *st)
{
    ic_ctx_t *ctx = st->ctx;
    unlink_call(st);
    if (st->detached)
        ic_call_free(st);
    else
        MPI_Grequest_complete(st->req);
    if (ctx) {
        ctx->npending--;
        ic_ctx_call_ended(ctx);
    }
}

void ic_progress(void)
{
    if (in_engine || !pending)
        return;
    in_engine = 1;
    for (ic_call_state_t *st = pending, *next; st; st = next) {
        next = st->next;
        if (ic_call_step(st, 0))
            finish(st);
    }
    in_engine = 0;
}

void ic_progress_drain(void)
{
    if (in_engine)
        return;
    while (pending)
        ic_progress();
}

/* ------------------------------------------------ generalized requests */

static int query_fn(void *extra, MPI_Status *status)
{
    ic_call_state_t *st = extra;
    MPI_Status_set_elements(status, MPI_BYTE, 0);
    MPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_UNDEFINED;
    status->MPI_TAG = MPI_UNDEFINED;
    status->MPI_ERROR = st ? st->code : MPI_SUCCESS;
    return st ? st->code : MPI_SUCCESS;
}

static int free_fn(void *extra)
{
    if (extra)
        ic_call_free(extra);
    return MPI_SUCCESS;
}

static int cancel_fn(void *extra, int complete)
{
    (void)extra;
    (void)complete;
    /* MPI-3.1 5.12: a nonblocking collective cannot be cancelled */
    return MPI_ERR_REQUEST;
}

#if defined(MPICH) && !defined(SMPI_H)
static int poll_fn(void *extra, MPI_Status *status)
{
    (void)extra;
    (void)status;
    ic_progress();
    return MPI_SUCCESS;
}

/* MPICH's wait function (it requires one): move every call on until one
 * of these is over (the MPI_Testall of each round moves MPICH's own
 * requests on too). */
static int wait_fn(int n, void **states, double timeout, MPI_Status *status)
{
    (void)timeout;
    (void)status;
    for (;;) {
        for (int i = 0; i < n; i++)
            if (!states[i] || ((ic_call_state_t *)states[i])->over)
                return MPI_SUCCESS;
        if (in_engine)
            return MPI_SUCCESS;
        ic_progress();
    }
}
#endif

#if defined(OPEN_MPI) && !defined(SMPI_H)
static int opal_cb(void)
{
    int before = ic_npending;
    ic_progress();
    return before - ic_npending; /* calls completed: Open MPI's "events" */
}

/* Register the engine with Open MPI's progress loop, once. */
static void hook(void)
{
    static int tried;
    if (tried)
        return;
    tried = 1;
    typedef int (*cb_t)(void);
    int (*reg)(cb_t) = NULL;
    void *f = dlsym(RTLD_DEFAULT, "opal_progress_register");
    memcpy(&reg, &f, sizeof(reg));
    if (reg)
        reg(opal_cb);
    else if (ic_env()->verbose && ic_world_rank() == 0)
        fprintf(stderr, "InterCom: warning: no opal_progress_register in this Open MPI: "
                        "nonblocking calls move on only inside IC_ calls\n");
}
#else
static void hook(void)
{
}
#endif

/* A request for st (NULL: one that is complete already). */
static int make_request(ic_call_state_t *st, MPI_Request *req)
{
#if defined(MPICH) && !defined(SMPI_H)
    int rc = MPIX_Grequest_start(query_fn, free_fn, cancel_fn, poll_fn, wait_fn, st, req);
#else
    int rc = MPI_Grequest_start(query_fn, free_fn, cancel_fn, st, req);
#endif
    if (rc == MPI_SUCCESS && !st)
        rc = MPI_Grequest_complete(*req);
    return rc;
}

int ic_call_launched(ic_call_state_t *st, int rc, const char *fn, MPI_Comm comm, int raise_code,
                     const char *raise_msg, MPI_Request *req)
{
    *req = MPI_REQUEST_NULL;
    if (!st->running) { /* the call ended in its start: rc says how */
        ic_call_free(st);
        if (rc == MPI_SUCCESS && (rc = make_request(NULL, req)) != MPI_SUCCESS)
            return ic_error(comm, rc, "%s: cannot make a request", fn);
        return rc;
    }
    hook();
    st->started = 1;
    rc = MPI_SUCCESS;
    if (raise_code) { /* a mistake of this rank: raised now, the call runs on */
        st->raised = 1;
        st->detached = 1;
        rc = ic_error(comm, raise_code, "%s", raise_msg);
    } else if (make_request(st, req) != MPI_SUCCESS) {
        st->detached = 1;
        rc = ic_error(comm, MPI_ERR_INTERN, "%s: cannot make a request", fn);
    } else
        st->req = *req;
    st->pending = 1;
    st->prev = pending_tail;
    st->next = NULL;
    if (pending_tail)
        pending_tail->next = st;
    else
        pending = st;
    pending_tail = st;
    ic_npending++;
    st->ctx->npending++;
    ic_progress(); /* its first round */
    return rc;
}
