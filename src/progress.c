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
 *     collectives (call.c, api.c).
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

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(OPEN_MPI) && !defined(SMPI_H)
#include <dlfcn.h>
#endif

_Atomic int ic_npending;
static ic_call_state_t *pending; /* the list, oldest first: head */
static ic_call_state_t *pending_tail;
/* The engine's state (the lists, the counts, the calls on them) is the
 * engine's lock's: a progress thread (below) and the program's thread may
 * both run it.  Recursive: the engine's own MPI calls may call it back
 * (Open MPI's progress loop, MPICH's poll function), and in_engine, per
 * thread, turns such calls away. */
static pthread_mutex_t engine;
static pthread_once_t engine_once = PTHREAD_ONCE_INIT;
static IC_TLS int in_engine;

static void engine_init(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&engine, &a);
    pthread_mutexattr_destroy(&a);
}

void ic_engine_lock(void)
{
    pthread_once(&engine_once, engine_init);
    pthread_mutex_lock(&engine);
}

void ic_engine_unlock(void)
{
    pthread_mutex_unlock(&engine);
}

void ic_call_enter(ic_call_state_t *st, ic_ctx_t *ctx)
{
    unsigned half = (unsigned)ctx->ntags / 2;
    st->ctx = ctx;
    st->tag = IC_TAG_NB_BASE + (int)(ctx->nb_seq++ % half);
}

/* A persistent call's tag and lane from the order of the inits, the same
 * on every rank (shm.c: "Lanes"). */
void ic_call_enter_persistent(ic_call_state_t *st, ic_ctx_t *ctx)
{
    unsigned half = (unsigned)ctx->ntags / 2, k = ctx->p_seq++;
    st->ctx = ctx;
    st->tag = IC_TAG_NB_BASE + (int)(half + k % half);
    st->lane = k < (unsigned)(ic_shm_lanes(ctx) - IC_LANE_PERSISTENT) && ic_shm_lanes(ctx) > 0
                   ? IC_LANE_PERSISTENT + (int)k
                   : IC_LANE_NONE;
}

int ic_lane_turn(const ic_call_state_t *st)
{
    for (const ic_call_state_t *o = pending; o && o != st; o = o->next)
        if (o->ctx == st->ctx && o->lane_nb && !o->over)
            return 0;
    return 1;
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

static pthread_cond_t work = PTHREAD_COND_INITIALIZER; /* a call was enqueued */

static void enqueue(ic_call_state_t *st)
{
    st->pending = 1;
    st->prev = pending_tail;
    st->next = NULL;
    if (pending_tail)
        pending_tail->next = st;
    else
        pending = st;
    pending_tail = st;
    ic_npending++;
    pthread_cond_signal(&work);
}

static void persist_done(ic_call_state_t *st);

/* st is over: off the list; its request completes (its free function may
 * free it right there: st is not touched after) or, detached, it goes. */
static void finish(ic_call_state_t *st)
{
    ic_ctx_t *ctx = st->ctx;
    unlink_call(st);
    if (st->persistent) {
        persist_done(st);
        return;
    }
    if (st->detached)
        ic_call_free(st);
    else
        MPI_Grequest_complete(st->req);
    if (ctx) {
        ctx->npending--;
        ic_ctx_call_ended(ctx);
    }
}

static _Atomic int nidle; /* persistent calls whose handle may be started */
#define IC_PROBE_EVERY 16 /* engine rounds per look for MPI_Start's starts */
/* SimGrid's SMPI has no matched probe (its MPI_Improbe and MPI_Mrecv abort:
 * "Not yet implemented"), so the engine does not look for MPI_Start's
 * starts there: a persistent call starts with IC_Start only (README). */
#if defined(SMPI_H)
#define IC_PROBE_STARTS 0
#else
#define IC_PROBE_STARTS 1
#endif
static void probe_starts(void);

/* One round of the engine; `probes`: also look for persistent calls
 * started by MPI_Start (not in the progress thread, which then would run
 * their descriptions beside the program's own calls). */
static void engine_round(int probes)
{
    if (in_engine || (!ic_npending && !(IC_PROBE_STARTS && probes && nidle)))
        return;
    pthread_once(&engine_once, engine_init);
    if (pthread_mutex_trylock(&engine) != 0)
        return; /* another thread runs it */
    in_engine = 1;
    /* a probe costs as much as a short call's whole round (Open MPI's
     * MPI_Improbe: about 750 instructions): every IC_PROBE_EVERY-th round,
     * which finds a start within a few microseconds */
    static unsigned rounds;
    if (IC_PROBE_STARTS && probes && nidle && rounds++ % IC_PROBE_EVERY == 0)
        probe_starts();
    for (ic_call_state_t *st = pending, *next; st; st = next) {
        next = st->next;
        if (ic_call_step(st, 0))
            finish(st);
    }
    in_engine = 0;
    pthread_mutex_unlock(&engine);
}

void ic_progress(void)
{
    engine_round(1);
}

int ic_progress_busy(void)
{
    return in_engine;
}

int ic_requests_running(int n, const MPI_Request *reqs, int all)
{
    if (!ic_npending)
        return 0;
    int some = 0, every = 1;
    ic_engine_lock();
    /* all: until one is not running; else until one is */
    for (int i = 0; i < n && (all ? every : !some); i++) {
        if (reqs[i] == MPI_REQUEST_NULL)
            continue;
        const ic_call_state_t *st = pending; /* a freed handle's value may be reused */
        while (st && (st->dropped || (st->persistent ? st->handle : st->req) != reqs[i]))
            st = st->next;
        some |= st != NULL;
        every &= st != NULL;
    }
    ic_engine_unlock();
    return all ? some && every : some;
}

void ic_progress_drain(void)
{
    if (in_engine)
        return;
    while (ic_npending)
        ic_progress();
}

/* ------------------------------------------------------ progress thread
 *
 * Where the MPI runs at MPI_THREAD_MULTIPLE (the program initialised it with
 * MPI_Init_thread), a thread of InterCom's own runs the engine while calls
 * are pending (yielding the processor between rounds) and sleeps while none
 * is, so the calls move on while the program computes
 * (INTERCOM_PROGRESS_THREAD=0: no thread; then only the IC_ calls move them
 * on).  It replaces the MPI's hook there (see hook()).  It does not look
 * for persistent calls started by MPI_Start: a start runs the call's
 * description, a call on its communicator, which the program's thread may
 * be using at that moment; those start in the program's thread, at once
 * with IC_Start. */

static pthread_t thread;
static _Atomic int thread_on; /* started and not told to stop */

#if !defined(SMPI_H)
static void *thread_main(void *arg)
{
    (void)arg;
    while (thread_on) {
        if (!ic_npending) {
            ic_engine_lock();
            struct timespec t;
            clock_gettime(CLOCK_REALTIME, &t);
            t.tv_nsec += 10000000; /* 10 ms: a stop request is seen soon */
            if (t.tv_nsec >= 1000000000) {
                t.tv_sec++;
                t.tv_nsec -= 1000000000;
            }
            if (!ic_npending && thread_on)
                pthread_cond_timedwait(&work, &engine, &t);
            ic_engine_unlock();
            continue;
        }
        engine_round(0);
        sched_yield();
    }
    return NULL;
}
#endif

static void thread_start(int level)
{
#if defined(SMPI_H)
    (void)level; /* SMPI: no threads of our own beside the simulated processes */
#else
    const char *v = getenv("INTERCOM_PROGRESS_THREAD");
    int asked = v && *v && strcmp(v, "0") != 0, refused = v && strcmp(v, "0") == 0;
    if (level != MPI_THREAD_MULTIPLE) {
        if (asked && ic_world_rank() == 0)
            fprintf(stderr, "InterCom: warning: INTERCOM_PROGRESS_THREAD needs MPI at "
                            "MPI_THREAD_MULTIPLE (MPI_Init_thread); no progress thread\n");
        return;
    }
    if (refused)
        return;
    pthread_once(&engine_once, engine_init);
    thread_on = 1;
    if (pthread_create(&thread, NULL, thread_main, NULL) != 0) {
        thread_on = 0;
        if (ic_world_rank() == 0)
            fprintf(stderr, "InterCom: warning: cannot start the progress thread\n");
    }
#endif
}

void ic_progress_stop(void)
{
    if (!thread_on)
        return;
    thread_on = 0;
    ic_engine_lock();
    pthread_cond_signal(&work);
    ic_engine_unlock();
    pthread_join(thread, NULL);
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

static void register_hook(void);

/* The first nonblocking or persistent call: the MPI's hook or, at
 * MPI_THREAD_MULTIPLE, the progress thread.  (Not both: Open MPI's progress
 * loop at MPI_THREAD_MULTIPLE lets one thread at a time drive it, and a
 * blocking call the engine makes from inside it -- freeing a context's
 * window, a typed copy -- would wait for that thread, itself.) */
static void hook(void)
{
    static _Atomic int done;
    if (done || __atomic_exchange_n(&done, 1, __ATOMIC_SEQ_CST))
        return;
    int level = MPI_THREAD_SINGLE;
    MPI_Query_thread(&level);
    if (level != MPI_THREAD_MULTIPLE)
        register_hook();
    thread_start(level);
}

#if defined(OPEN_MPI) && !defined(SMPI_H)
static int opal_cb(void)
{
    int before = ic_npending;
    ic_progress();
    return before - ic_npending; /* calls completed: Open MPI's "events" */
}

/* Register the engine with Open MPI's progress loop. */
static void register_hook(void)
{
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
static void register_hook(void)
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
    ic_engine_lock();
    enqueue(st);
    st->ctx->npending++;
    ic_engine_unlock();
    ic_progress(); /* its first round */
    return rc;
}

/* --------------------------------------------------------- persistent calls
 *
 * A persistent call's handle, the MPI_Request its program starts, waits
 * for and frees, is a persistent synchronous send of no data to this
 * process itself on a private copy of MPI_COMM_SELF (MPI_Ssend_init; a
 * tag per call).  It is the MPI's own request, so MPI_Start, MPI_Wait,
 * MPI_Test and the rest treat it as any other and keep it for the next
 * start (a generalized request cannot be started again).  Starting it
 * sends a message the engine finds (one MPI_Improbe for any tag on every
 * IC_PROBE_EVERY-th round of the engine while some handle is idle, which
 * takes the message out of matching, so the next probe sees the next
 * start): that starts the call's run.  IC_Start starts the run at once and
 * leaves the message queued (a probe that finds it later only takes it
 * out).  A synchronous send completes only when its message is received,
 * and the engine receives it (MPI_Mrecv, or MPI_Recv by its tag) when the
 * run is over: then the program's MPI_Wait returns.  InterCom never looks
 * at the handle
 * itself after making it, so a program may free it with MPI_Request_free
 * as MPI says; IC_Request_free also frees the call's plan and scratch,
 * which otherwise stay until MPI_Finalize.
 * Where MPI_Wait runs InterCom's engine (Open MPI's progress loop) the
 * program needs nothing else; elsewhere (MPICH, SMPI) it starts the call
 * with IC_Start and completes it with IC_Wait and its kin, or runs under
 * the interposition library.
 * A run's error (a message longer than its receive's count, found while
 * it runs) cannot ride on the handle, whose send succeeds: the IC_
 * completion call that completes the handle returns it and raises it on
 * the call's communicator, once (ic_persist_failed); the MPI's own
 * completion calls know nothing of it.
 */

static MPI_Comm hcomm = MPI_COMM_NULL; /* the handles' messages */
static ic_call_state_t *plist;         /* the persistent calls */
static int next_htag;
_Atomic int ic_npersist;

static int persist_add(ic_call_state_t *st, MPI_Request *req);

int ic_persist_add(ic_call_state_t *st, MPI_Request *req)
{
    ic_engine_lock();
    int rc = persist_add(st, req);
    ic_engine_unlock();
    return rc;
}

static int persist_add(ic_call_state_t *st, MPI_Request *req)
{
    int rc = MPI_SUCCESS;
    if (hcomm == MPI_COMM_NULL) {
        rc = MPI_Comm_dup(MPI_COMM_SELF, &hcomm);
        if (rc == MPI_SUCCESS)
            rc = MPI_Comm_set_errhandler(hcomm, MPI_ERRORS_RETURN);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    st->persistent = 1;
    st->htag = next_htag++ % 32768; /* MPI_TAG_UB is at least 32767 */
    rc = MPI_Ssend_init(NULL, 0, MPI_BYTE, 0, st->htag, hcomm, req);
    if (rc != MPI_SUCCESS)
        return rc;
    st->handle = *req;
    st->pnext = plist;
    plist = st;
    ic_npersist++;
    nidle++;
    if (st->ctx)
        st->ctx->npending++; /* the context stays while the call does */
    hook();
    return MPI_SUCCESS;
}

ic_call_state_t *ic_persist_find(MPI_Request req)
{
    if (req == MPI_REQUEST_NULL || !ic_npersist)
        return NULL;
    ic_engine_lock();
    ic_call_state_t *st = plist;
    while (st && (st->dropped || st->handle != req))
        st = st->pnext;
    ic_engine_unlock();
    return st;
}

/* A run of st: started, under way or (ended at once) done.  Returns the
 * failure that ended it in its set-up (raised already), or MPI_SUCCESS. */
static int persist_run(ic_call_state_t *st)
{
    int code;
    if (ic_call_restart(st, &code))
        enqueue(st);
    else
        persist_done(st);
    return code;
}

int ic_persist_start(ic_call_state_t *st, MPI_Request *req, int *run_code)
{
    *run_code = MPI_SUCCESS;
    ic_engine_lock();
    if (st->active) {
        ic_engine_unlock();
        return MPI_ERR_REQUEST; /* MPI: a started request cannot be started again */
    }
    st->active = 1; /* the engine no longer starts it */
    st->held = 0;   /* its message stays queued until the run is over */
    nidle--;
    int rc = PMPI_Start(req);
    if (rc != MPI_SUCCESS) {
        st->active = 0;
        nidle++;
        ic_engine_unlock();
        return rc;
    }
    int was = in_engine;
    in_engine = 1;
    *run_code = persist_run(st);
    in_engine = was;
    ic_engine_unlock();
    ic_progress();
    return MPI_SUCCESS;
}

static void probe_starts(void)
{
    for (;;) {
        int flag = 0;
        MPI_Message m;
        MPI_Status status;
        if (MPI_Improbe(0, MPI_ANY_TAG, hcomm, &flag, &m, &status) != MPI_SUCCESS || !flag)
            return;
        ic_call_state_t *st = plist;
        while (st && (st->htag != status.MPI_TAG || (st->active ? st->held : st->dropped)))
            st = st->pnext; /* a run under way whose handle is freed since still gets it */
        if (!st) {          /* no call of that tag (cannot happen): let it go */
            MPI_Mrecv(NULL, 0, MPI_BYTE, &m, MPI_STATUS_IGNORE);
            continue;
        }
        st->hmsg = m;
        st->held = 1;
        if (st->active) /* started by IC_Start, which left its message queued */
            continue;
        st->active = 1;
        nidle--;
        (void)persist_run(st); /* MPI_Start's: a set-up failure was raised, its call returned */
    }
}

static void persist_free(ic_call_state_t *st)
{
    ic_call_state_t **at = &plist;
    while (*at && *at != st)
        at = &(*at)->pnext;
    if (*at)
        *at = st->pnext;
    ic_npersist--;
    ic_ctx_t *ctx = st->ctx;
    ic_call_free(st);
    if (ctx) {
        ctx->npending--;
        ic_ctx_call_ended(ctx);
    }
}

/* A run is over: its handle's message received, which completes it. */
static void persist_done(ic_call_state_t *st)
{
    if (st->held)
        MPI_Mrecv(NULL, 0, MPI_BYTE, &st->hmsg, MPI_STATUS_IGNORE);
    else /* IC_Start's run: its message is still queued (a local one, there at once) */
        MPI_Recv(NULL, 0, MPI_BYTE, 0, st->htag, hcomm, MPI_STATUS_IGNORE);
    st->held = 0;
    st->active = 0;
    /* the handle's completion cannot carry the run's error: the IC_
     * completion call that completes it returns it (ic_persist_failed);
     * not the mistake its init raised, which each run ends with again */
    st->failed = st->code != st->mistake ? st->code : MPI_SUCCESS;
    if (st->dropped) {
        persist_free(st);
        return;
    }
    nidle++;
}

int ic_persist_failed(MPI_Request req)
{
    if (req == MPI_REQUEST_NULL || !ic_npersist)
        return MPI_SUCCESS;
    int code = MPI_SUCCESS;
    ic_engine_lock();
    ic_call_state_t *st = plist;
    while (st && (st->dropped || st->handle != req))
        st = st->pnext;
    if (st && !st->active && st->failed) {
        code = st->failed;
        st->failed = MPI_SUCCESS; /* told once */
    }
    ic_engine_unlock();
    /* raised outside the engine's lock: a handler may call InterCom */
    if (code != MPI_SUCCESS)
        ic_call_raise_failed(st, code);
    return code;
}

void ic_persist_drop(ic_call_state_t *st)
{
    ic_engine_lock();
    st->dropped = 1;
    if (!st->active) {
        nidle--;
        persist_free(st);
    }
    ic_engine_unlock();
}

/* MPI_Finalize: every persistent call goes (after ic_progress_drain). */
void ic_persist_close(void)
{
    while (plist) {
        ic_call_state_t *st = plist;
        if (!st->active)
            nidle--;
        st->active = 0;
        persist_free(st);
    }
    nidle = 0;
    if (hcomm != MPI_COMM_NULL)
        MPI_Comm_free(&hcomm);
}
