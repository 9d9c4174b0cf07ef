/*
 * trace.c -- time records of what the executor does (INTERCOM_TRACE=PREFIX).
 *
 * With INTERCOM_TRACE set, every process writes PREFIX.<world rank>: one
 * line per collective call and one per message, reduction and copy of its
 * schedule, with their start and end on this process's MPI_Wtime clock,
 * and a line that relates that clock to another process's (the first
 * communicator's rank 0).  `intercom-bench chart` reads the files.
 *
 * The format (text, one record per line, fields separated by blanks):
 *   # InterCom trace 1
 *   rank R of P                      world rank and size of this process
 *   clock REF OFFSET RTT              OFFSET added to this clock gives world
 *                                     rank REF's (RTT: the round trip it
 *                                     was measured with); absent: unknown
 *   call ID COLL PLAN P ROOT COUNT BLOCK ELEM COMMUTATIVE IN_PLACE BOUNDED T0 T1
 *                                     a collective call: its number on this
 *                                     process, collective, plan (canonical
 *                                     text), communicator size, root (-1:
 *                                     none), count (ic_coll_args_t.count)
 *                                     and every rank's block (-1: blocks
 *                                     differ) in schedule units of ELEM
 *                                     bytes (the plan's segments are in
 *                                     those units too), op commutative, in
 *                                     place, bounded_from
 *   send|recv ID PEER BYTES T0 T1     a message (a piece of one, when the
 *                                     executor cuts it) to or from world
 *                                     rank PEER: posted at T0, complete at
 *                                     T1 (as this process saw it)
 *   reduce|copy ID - BYTES T0 T1      a local reduction or copy
 * Event lines come before their call's line (a call is written when it
 * ends).  Times are seconds.
 *
 * Cost: two MPI_Wtime calls per record, and MPI_Waitany in place of
 * MPI_Waitall (each message's completion; under SimGrid's SMPI the
 * simulated times are the same traced or not); records are buffered in memory
 * (IC_TRACE_EVENTS of them) and formatted into the file when the buffer
 * fills, when a communicator is freed and at MPI_Finalize (the file is
 * flushed at those two), so memory stays bounded whatever the run's
 * length.  A file that cannot be written gets one warning and tracing
 * stops; a collective never fails for it.
 *
 * The clock relation: when a context is created (collective over its
 * communicator) each rank exchanges IC_TRACE_PINGS empty messages with the
 * communicator's rank 0, which answers with its clock; the exchange with
 * the shortest round trip gives the offset (Cristian's method: error at
 * most half that round trip).  A process keeps the first relation it
 * measured to world rank 0, else the first one.
 */
#include "config.h"
#include <pthread.h>
#include "ic_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IC_TRACE_EVENTS 16384 /* records buffered between writes ... */
#define IC_TRACE_CALLS 1024   /* ... of which at most this many calls  */
#define IC_TRACE_PINGS 8      /* clock exchanges per rank and context */
#define IC_TRACE_CALL (-1)    /* trace_rec_t.kind of a call */

typedef struct trace_call {
    ic_plan_t plan;
    ic_coll_t coll;
    int size, root, commutative, in_place;
    size_t count, elem, bounded;
    long long block;
} trace_call_t;

typedef struct trace_rec {
    double t0, t1;
    unsigned long call;
    unsigned long long bytes;
    int kind; /* ic_act_kind_t, or IC_TRACE_CALL */
    int peer; /* world rank, -1 for local actions; a call: its calls[] slot */
} trace_rec_t;

int ic_trace_state = 0; /* 0: environment not read, 1: on, -1: off */

static struct {
    char path[1024];
    FILE *f;
    trace_rec_t *rec;
    size_t n;
    trace_call_t *calls;
    size_t ncalls;
    unsigned long call; /* number of the call in progress (from 1) */
    int clock_ref;      /* -1: no relation measured yet */
    double offset, rtt;
    int clock_written;
} tr = {.clock_ref = -1};

/* Threads (calls on several communicators at once): one writer at a time.
 * Recursive: the recording functions flush. */
static pthread_mutex_t tr_mu;
static pthread_once_t tr_once = PTHREAD_ONCE_INIT;
static void tr_mu_init(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&tr_mu, &a);
    pthread_mutexattr_destroy(&a);
}
static void tr_lock(void)
{
    pthread_once(&tr_once, tr_mu_init);
    pthread_mutex_lock(&tr_mu);
}

static void stop(const char *why)
{
    if (ic_trace_state == 1)
        fprintf(stderr, "InterCom: warning: INTERCOM_TRACE: cannot write %s (%s); not tracing\n",
                tr.path, why);
    ic_trace_state = -1;
    if (tr.f)
        fclose(tr.f);
    tr.f = NULL;
    free(tr.rec);
    free(tr.calls);
    tr.rec = NULL;
    tr.calls = NULL;
    tr.n = tr.ncalls = 0;
}

int ic_trace_start(void)
{
    if (ic_trace_state)
        return ic_trace_state > 0;
    const char *p = ic_env()->trace;
    ic_trace_state = -1;
    if (!p || !*p)
        return 0;
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (snprintf(tr.path, sizeof(tr.path), "%s.%d", p, rank) >= (int)sizeof(tr.path)) {
        ic_trace_state = 1;
        stop("path too long");
        return 0;
    }
    tr.rec = malloc(IC_TRACE_EVENTS * sizeof(*tr.rec));
    tr.calls = malloc(IC_TRACE_CALLS * sizeof(*tr.calls));
    tr.f = fopen(tr.path, "w");
    ic_trace_state = 1;
    if (!tr.rec || !tr.calls || !tr.f) {
        stop(!tr.f ? "cannot open it" : "out of memory");
        return 0;
    }
    fprintf(tr.f, "# InterCom trace 1\nrank %d of %d\n", rank, size);
    return 1;
}

static const char *kind_name(int kind)
{
    switch (kind) {
    case IC_ACT_SEND:
        return "send";
    case IC_ACT_RECV:
        return "recv";
    case IC_ACT_REDUCE:
        return "reduce";
    default:
        return "copy";
    }
}

static void ic_trace_flush_locked(void)
{
    if (ic_trace_state <= 0)
        return;
    if (!tr.clock_written && tr.clock_ref >= 0) {
        fprintf(tr.f, "clock %d %.9e %.3e\n", tr.clock_ref, tr.offset, tr.rtt);
        tr.clock_written = 1;
    }
    for (size_t i = 0; i < tr.n; i++) {
        const trace_rec_t *r = &tr.rec[i];
        if (r->kind == IC_TRACE_CALL) {
            const trace_call_t *c = &tr.calls[r->peer];
            char text[IC_PLAN_TEXT_MAX];
            ic_plan_format(&c->plan, text, sizeof(text));
            fprintf(tr.f, "call %lu %s %s %d %d %zu %lld %zu %d %d %zu %.9f %.9f\n", r->call,
                    ic_coll_name(c->coll), text, c->size, c->root, c->count, c->block, c->elem,
                    c->commutative, c->in_place, c->bounded, r->t0, r->t1);
        } else if (r->peer >= 0)
            fprintf(tr.f, "%s %lu %d %llu %.9f %.9f\n", kind_name(r->kind), r->call, r->peer,
                    r->bytes, r->t0, r->t1);
        else
            fprintf(tr.f, "%s %lu - %llu %.9f %.9f\n", kind_name(r->kind), r->call, r->bytes, r->t0,
                    r->t1);
    }
    tr.n = tr.ncalls = 0;
    if (ferror(tr.f))
        stop("write error");
}

void ic_trace_flush(void)
{
    tr_lock();
    ic_trace_flush_locked();
    pthread_mutex_unlock(&tr_mu);
}

static void ic_trace_sync_locked(void)
{
    ic_trace_flush();
    if (ic_trace_state > 0 && fflush(tr.f) != 0)
        stop("write error");
}

void ic_trace_sync(void)
{
    tr_lock();
    ic_trace_sync_locked();
    pthread_mutex_unlock(&tr_mu);
}

static void ic_trace_close_locked(void)
{
    ic_trace_sync();
    if (tr.f && fclose(tr.f) != 0)
        fprintf(stderr, "InterCom: warning: INTERCOM_TRACE: closing %s failed\n", tr.path);
    tr.f = NULL;
    free(tr.rec);
    free(tr.calls);
    tr.rec = NULL;
    tr.calls = NULL;
    if (ic_trace_state > 0)
        ic_trace_state = -1; /* after MPI_Finalize nothing more is recorded */
}

void ic_trace_close(void)
{
    tr_lock();
    ic_trace_close_locked();
    pthread_mutex_unlock(&tr_mu);
}

static void ic_trace_record_locked(int kind, int peer, size_t bytes, double t0, double t1)
{
    if (ic_trace_state <= 0)
        return;
    if (tr.n == IC_TRACE_EVENTS)
        ic_trace_flush();
    if (ic_trace_state <= 0)
        return;
    trace_rec_t *r = &tr.rec[tr.n++];
    r->t0 = t0;
    r->t1 = t1;
    r->call = tr.call;
    r->bytes = bytes;
    r->kind = kind;
    r->peer = peer;
}

void ic_trace_record(int kind, int peer, size_t bytes, double t0, double t1)
{
    tr_lock();
    ic_trace_record_locked(kind, peer, bytes, t0, t1);
    pthread_mutex_unlock(&tr_mu);
}

static void ic_trace_call_begin_locked(void)
{
    tr.call++;
}

void ic_trace_call_begin(void)
{
    tr_lock();
    ic_trace_call_begin_locked();
    pthread_mutex_unlock(&tr_mu);
}

static void ic_trace_call_locked(const ic_ctx_t *ctx, const ic_coll_args_t *a,
                                 const ic_plan_t *plan, size_t elem, double t0, double t1)
{
    if (ic_trace_state <= 0)
        return;
    if (tr.ncalls == IC_TRACE_CALLS || tr.n == IC_TRACE_EVENTS)
        ic_trace_flush(); /* then ic_trace_record does not */
    if (ic_trace_state <= 0)
        return;
    ic_trace_record(IC_TRACE_CALL, (int)tr.ncalls, 0, t0, t1);
    trace_call_t *c = &tr.calls[tr.ncalls++];
    int rooted = a->coll == IC_COLL_BCAST || a->coll == IC_COLL_REDUCE ||
                 a->coll == IC_COLL_GATHER || a->coll == IC_COLL_GATHERV ||
                 a->coll == IC_COLL_SCATTER || a->coll == IC_COLL_SCATTERV;
    c->plan = *plan;
    c->coll = a->coll;
    c->size = ctx->size;
    c->root = rooted ? a->root : -1;
    c->count = a->count;
    c->block = a->counts ? (long long)a->counts[0] : 0;
    for (int i = 1; a->counts && i < a->size && c->block >= 0; i++)
        if (a->counts[i] != a->counts[0])
            c->block = -1;
    c->bounded = a->bounded_from;
    c->elem = elem;
    c->commutative = a->commutative;
    c->in_place = a->in_place;
}

void ic_trace_call(const ic_ctx_t *ctx, const ic_coll_args_t *a, const ic_plan_t *plan, size_t elem,
                   double t0, double t1)
{
    tr_lock();
    ic_trace_call_locked(ctx, a, plan, elem, t0, t1);
    pthread_mutex_unlock(&tr_mu);
}

/* World rank of each rank of ctx->comm, into ctx->world (tracing only). */
static int world_ranks(ic_ctx_t *ctx)
{
    MPI_Group g, w;
    int *mine = malloc((size_t)ctx->size * sizeof(int));
    ctx->world = malloc((size_t)ctx->size * sizeof(int));
    if (!mine || !ctx->world) {
        free(mine);
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < ctx->size; i++)
        mine[i] = i;
    int rc = MPI_Comm_group(ctx->comm, &g);
    if (rc == MPI_SUCCESS) {
        rc = MPI_Comm_group(MPI_COMM_WORLD, &w);
        if (rc == MPI_SUCCESS) {
            rc = MPI_Group_translate_ranks(g, ctx->size, mine, w, ctx->world);
            MPI_Group_free(&w);
        }
        MPI_Group_free(&g);
    }
    free(mine);
    return rc;
}

int ic_trace_ctx(ic_ctx_t *ctx)
{
    /* Every rank takes part when the variable is set (one environment),
     * also one whose file could not be opened: its partners would wait. */
    const char *prefix = ic_env()->trace;
    if (!prefix || !*prefix)
        return MPI_SUCCESS;
    int ok = ic_trace_on() && world_ranks(ctx) == MPI_SUCCESS;
    int rc = MPI_SUCCESS;
    double best = -1, off = 0;
    for (int i = 1; i < ctx->size && rc == MPI_SUCCESS; i++) {
        for (int k = 0; k < IC_TRACE_PINGS && rc == MPI_SUCCESS; k++) {
            if (ctx->rank == i) {
                double t1 = MPI_Wtime(), r;
                rc = MPI_Send(NULL, 0, MPI_BYTE, 0, IC_TAG, ctx->comm);
                if (rc == MPI_SUCCESS)
                    rc = MPI_Recv(&r, 1, MPI_DOUBLE, 0, IC_TAG, ctx->comm, MPI_STATUS_IGNORE);
                double t2 = MPI_Wtime();
                if (rc == MPI_SUCCESS && (best < 0 || t2 - t1 < best)) {
                    best = t2 - t1;
                    off = r - (t1 + t2) / 2;
                }
            } else if (ctx->rank == 0) {
                rc = MPI_Recv(NULL, 0, MPI_BYTE, i, IC_TAG, ctx->comm, MPI_STATUS_IGNORE);
                double now = MPI_Wtime();
                if (rc == MPI_SUCCESS)
                    rc = MPI_Send(&now, 1, MPI_DOUBLE, i, IC_TAG, ctx->comm);
            }
        }
    }
    if (ctx->rank == 0)
        best = 0, off = 0;
    if (rc == MPI_SUCCESS && ok && best >= 0) {
        int ref = ctx->world[0];
        if (tr.clock_ref < 0 || (ref == 0 && tr.clock_ref != 0 && !tr.clock_written)) {
            tr.clock_ref = ref;
            tr.offset = off;
            tr.rtt = best;
        }
    }
    return rc;
}
