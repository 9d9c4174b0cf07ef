/*
 * ic_internal.h -- the MPI runtime's private interfaces.
 *
 * Call flow of every IC_ collective (src/api.c, the entry points; src/
 * collectives.c, their descriptions; src/call.c, the driver):
 *   check arguments (errors.c) -> per-communicator context (context.c) ->
 *   describe the call without MPI (ic_coll_args_t) -> choose an algorithm
 *   (select.c) -> build this rank's schedule (algorithms/) -> bind the
 *   schedule's named buffers to memory and datatypes -> run it (executor.c).
 *
 * Units.  Reductions work in elements of the user's datatype (MPI requires
 * the same count and datatype on every rank; derived types, with user ops,
 * are passed to MPI as (base + off * extent, count, type)).  The broadcast
 * and the gather family (gather, scatter, allgather and their v-variants)
 * work in bytes: a contiguous user buffer is used in place as bytes, a
 * non-contiguous one is staged (packed/unpacked) around the schedule, so
 * ranks whose datatypes differ but whose type signatures agree always
 * build matching schedules.
 */
#ifndef IC_INTERNAL_H
#define IC_INTERNAL_H

#include "intercom.h"
#include "schedule.h"
#include "algorithms.h"
#include "plan.h"
#include "cost.h"

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------- context */

#define IC_DECISION_CACHE 64

typedef struct ic_decision {
    int valid;
    ic_coll_t coll;
    size_t bytes; /* total payload that drives the choice */
    int root;
    int commutative;
    int exact;         /* the op's result is order-independent  */
    unsigned long key; /* hash of counts for v-variants        */
    ic_plan_t plan;    /* the choice, parameters resolved    */
} ic_decision_t;

/* What the context's schedule was built for: the call's arguments that
 * the selection and the builders read (counts and displacements copied),
 * the unit sizes, and the plan chosen.  A call that matches runs the
 * schedule again without selecting or building (call.c: icc_prepare). */
typedef struct ic_sched_key {
    int valid;
    ic_coll_args_t a; /* a.counts, a.displs: the copies below           */
    size_t elem, gran;
    size_t *counts, *displs; /* owned, a.size each, or NULL            */
    ic_plan_t plan;
} ic_sched_key_t;

/* Short messages within a node through shared memory (shm.c). */
#define IC_SHM_BYTES 4096    /* a channel's slot: a message or a piece      */
#define IC_SHM_SLOTS 4       /* slots of a channel                          */
#define IC_SHM_DEEP 64       /* ... of a blocking one, at most, with more ranks than cores */
#define IC_SHM_LONG 16384    /* longest message through the slots (pieces)  */
#define IC_SHM_MAX_RANKS 256 /* ranks of a node beyond which MPI carries all */
#define IC_SHM_SPIN 65536    /* idle polls between yields (ranks <= cores)  */
#define IC_SHM_SPIN_FREE 64  /* ... of a rank not bound to one core         */
#define IC_SHM_PEEK 16       /* idle polls between looks at the peers' CPUs */
/* The channels' lanes (shm.c: "Lanes"): at most IC_SHM_LANES, in at most
 * IC_SHM_BUDGET bytes per rank (at least the first); lane 0 for the
 * blocking calls, 1 for the nonblocking ones in turn, from 2 one for each
 * of the first persistent calls; IC_LANE_NONE: a call's messages go
 * through MPI only. */
#define IC_SHM_LANES 64
#define IC_SHM_BUDGET (2u * 1024 * 1024)
#define IC_LANE_BLOCKING 0
#define IC_LANE_NB 1
#define IC_LANE_PERSISTENT 2
#define IC_LANE_NONE (-1)
typedef struct ic_shm ic_shm_t;

/* The schedules the nonblocking calls of a context ran last, kept for the
 * next calls with the same arguments (context.c: ic_nbsched_get).  Calls
 * in flight together share one (a schedule is read only while it runs);
 * one that no call runs may be rebuilt for other arguments. */
#define IC_NB_SCHEDS 4
typedef struct ic_nbsched {
    ic_sched_key_t key; /* what s holds                                 */
    ic_sched_t s;
    int made;           /* s is initialised                             */
    _Atomic int users;  /* calls running s                              */
    unsigned long used; /* the context's nbs_tick at its last use       */
} ic_nbsched_t;

/* One message of a round through a channel (executor.c). */
/* A receive of an unagreed schedule through MPI, probed before it is
 * posted (executor.c): its action in the round, and whether its message
 * has been probed. */
typedef struct ic_probe {
    size_t act;
    int probed;
} ic_probe_t;

typedef struct ic_shm_op {
    int send; /* 1: to peer, 0: from peer */
    int peer;
    int lane;  /* its channel's lane (shm.c) */
    void *buf; /* n elements of type (contiguous or not, size bytes each) */
    size_t n;
    MPI_Datatype type;
    int contig, size;
    size_t bytes;
    unsigned long long seq; /* its number in the channel (ic_shm_number) */
    int done;
    size_t piece;  /* pieces moved (shm.c: "Long messages")              */
    char *pack;    /* ... a datatype not contiguous: the message packed */
    double t0, t1; /* INTERCOM_TRACE: posted, complete (trace.c) */
    /* A message of an unagreed schedule (shm.c: "Unagreed messages"): bytes
     * is this side's own count; the first slot carries the sender's
     * length, and a message longer than IC_SHM_LONG is read from the
     * sender in one copy (direct) or, where the node cannot, goes through
     * MPI (req, on comm with tag) after it.  A receiver reads the length
     * first and notes a mismatch; it takes the data only once the executor
     * says (take), when every message of the round is known to be as long
     * as its receiver's count, and otherwise drops it (a direct one
     * unread, one through MPI taken into drain); the only receive of its
     * round decides alone, as soon as it has read the length (take 3). */
    int unagreed;
    int stage; /* 0: the slot, 2: its length read, 1: the MPI message under way */
    int mismatch;
    int take;     /* receiver at stage 2: 0 wait, 1 take the data, 2 drop it,
                     3 take it unless its length differs (then 2)            */
    int via;      /* ... the message follows through MPI                      */
    int direct;   /* ... its receiver reads it from the sender (shm.c: "Direct
                     messages")                                              */
    uint64_t len; /* ... the sender's length                                  */
    int tag;
    MPI_Request req;
    void *drain;
    /* A message of an agreed schedule longer than its lane's slots hold
     * (shm.c: "Long messages, one copy or through MPI"): */
    uint64_t lseq; /* its number among the channel's long messages         */
    int exch;      /* a long send whose round also receives from its peer */
    int probe;     /* the sender's timed choice of its way (copy.h), -1    */
    uint64_t tw;   /* ... timed from here                                  */
} ic_shm_op_t;

/* One MPI message of a round, as INTERCOM_TRACE records it (executor.c). */
typedef struct ic_trace_msg {
    double t0, t1;
    size_t bytes;
    int kind, peer;
} ic_trace_msg_t;

typedef struct ic_ctx {
    MPI_Comm user; /* the user's communicator (attribute holder) */
    MPI_Comm comm; /* private duplicate: all library traffic     */
    int rank, size;
    const ic_cost_params_t *cost;    /* the selector's model for this comm */
    const ic_cost_params_t *cost_in; /* two levels: lines inside a node ... */
    int node_ranks;                  /* ... of this many ranks (0: one level) */
    int rpn;                         /* ranks on each of its nodes when every
                                        node holds as many (size on one node),
                                        0 unknown: the tuning table's RPN    */
    int table_ok;                    /* its ranks agree on the tuning table  */
    int *order;                      /* placement: rank at each mesh position,
                                        NULL = identity (context.c)         */
    size_t chunk;                    /* piece size of long messages (bytes,
                                        0 = whole; its model's chunk)       */
    ic_sched_t sched;                /* reused between calls                       */
    ic_sched_key_t built;            /* what sched holds                           */
    struct ic_again *again;          /* the last blocking call, to repeat (call.c) */
    ic_nbsched_t nbs[IC_NB_SCHEDS];  /* nonblocking calls' schedules (context.c) */
    unsigned long nbs_tick;          /* their last uses' clock                     */
    MPI_Request *reqs;               /* reused request array                       */
    size_t nreqs_cap;
    ic_shm_t *shm;          /* channels within the node, NULL: none       */
    ic_shm_op_t *shm_ops;   /* a round's messages through them (cap as    */
                            /* reqs)                                      */
    int *world;             /* INTERCOM_TRACE: world rank of each rank    */
    ic_trace_msg_t *tmsg;   /* ... each request's message (cap as reqs)   */
    int *tidx;              /* ... MPI_Waitsome's indices (cap as reqs)   */
    MPI_Status *stats;      /* a round's statuses (unagreed schedules) ... */
    ic_probe_t *probes;     /* ... its receives to probe ...              */
    size_t stats_cap;       /* ... both of this capacity                  */
    void *scratch[IC_NBUF]; /* cached scratch allocations      */
    size_t scratch_bytes[IC_NBUF];
    ic_decision_t decisions[IC_DECISION_CACHE];
    unsigned next_decision;
    /* gatherv, scatterv (select.c: ic_select_direct): run without the block
     * sizes first (1, by direct_alg), with them (-1), not asked yet (0) */
    int direct[2];
    const ic_algorithm_t *direct_alg[2];
    unsigned nb_seq;            /* nonblocking calls started on it  */
    unsigned p_seq;             /* persistent calls made on it      */
    int ntags;                  /* their tags: IC_TAG_NB_BASE + [0, ntags):
                                   the first half nonblocking calls', the
                                   second persistent ones'           */
    int npending;               /* of them not over yet, and the
                                   persistent calls alive            */
    ic_cost_params_t calib;     /* cost with alpha and beta measured ...  */
    int calibrated;             /* ... in use (calibrate.c)              */
    ic_strides_t strides;       /* figures by rank distance (calib.strides
                                   points here when any is not 1)     */
    ic_msgtime_t msgtime;       /* one message's time by its length
                                   (calib.msgtime points here when any
                                   factor is not 1)                   */
    int doomed;                 /* the user freed the communicator: it
                                   goes once npending is 0           */
    struct ic_ctx *next, *prev; /* list of live contexts           */
} ic_ctx_t;

/* A nonblocking call as the progress engine sees it (src/progress.c); it
 * is a member of the call object (call.h), which ic_call_step and
 * ic_call_free reach from it. */
typedef struct ic_call_state {
    ic_ctx_t *ctx;
    int tag;      /* its messages' tag (ic_call_enter)                     */
    int started;  /* its start has returned: its end goes to its request  */
    int running;  /* a schedule of it is under way                        */
    int over;     /* it has ended, with code                              */
    int code;     /* MPI_SUCCESS or the error its request completes with   */
    int raised;   /* its mistake was raised by its start                   */
    int detached; /* no request: it frees itself once over               */
    int pending;  /* on the engine's list                                 */
    int lane;     /* a persistent call's channel lane (ic_call_enter_*)   */
    int lane_nb;  /* it may send through lane IC_LANE_NB: in turn, ...    */
    int turn;     /* ... which it has (ic_lane_turn)                      */
    MPI_Request req;
    struct ic_call_state *next, *prev;
    /* persistent calls (progress.c: "Persistent calls") */
    int persistent; /* one: its runs start from its handle             */
    int htag;       /* the tag of its handle's messages                 */
    int active;     /* a run is under way                               */
    int dropped;    /* the handle was freed: it goes after its run      */
    int mistake;    /* the mistake of its arguments its init raised     */
    int failed;     /* its last run's error, for the completion call
                       that completes its handle (0: none, or told)     */
    MPI_Request handle;
    MPI_Message hmsg; /* an active run's start message (MPI_Improbe), */
    int held;         /* when the engine found it                      */
    struct ic_call_state *pnext;
} ic_call_state_t;

/* The engine (progress.c).  ic_call_enter: a call's place in ctx's
 * sequence (its tag).  ic_call_over: the call has ended with code (at its
 * start or while progressing); returns MPI_SUCCESS.  ic_call_launched:
 * the end of a start call of the IC_I* family, given what the description
 * returned (rc) -- hands the user a request (*req) and puts a running
 * call on the engine's list; returns what the start call returns.
 * ic_progress: moves every pending call on as far as it can without
 * waiting (every IC_ call and the MPI's progress hook run it);
 * ic_progress_drain: until none is left (MPI_Finalize). */
void ic_call_enter(ic_call_state_t *st, ic_ctx_t *ctx);
/* May st, a call with lane_nb, send through lane IC_LANE_NB now: has every
 * older call of its communicator with lane_nb ended on this rank? */
int ic_lane_turn(const ic_call_state_t *st);
void ic_call_enter_persistent(ic_call_state_t *st, ic_ctx_t *ctx);
int ic_call_over(ic_call_state_t *st, int code);
int ic_call_launched(ic_call_state_t *st, int rc, const char *fn, MPI_Comm comm, int raise_code,
                     const char *raise_msg, MPI_Request *req);
extern _Atomic int ic_npending; /* calls on the list */
/* The engine's lock (recursive), for what touches its state from outside:
 * a context's count of pending calls. */
void ic_engine_lock(void);
void ic_engine_unlock(void);
void ic_progress(void);
void ic_progress_drain(void);
int ic_progress_busy(void); /* the engine is running (its MPI calls) */
/* Is one of the n requests (all: each non-null one) the request of an
 * InterCom call still on the engine's list (a nonblocking call's, or a
 * persistent call's handle during a run)? */
int ic_requests_running(int n, const MPI_Request *reqs, int all);
void ic_progress_stop(void); /* MPI_Finalize: the progress thread ends */
/* Persistent calls (progress.c): ic_persist_add makes st's handle (*req)
 * and registers it; ic_persist_find: the call of a handle (NULL: not
 * InterCom's); ic_persist_start: start the handle and a run (its own
 * failure returned, to be raised; a failure of the run's set-up, raised
 * already, in *run_code); ic_persist_drop: the handle is freed (the call
 * goes once its run is over). */
int ic_persist_add(ic_call_state_t *st, MPI_Request *req);
ic_call_state_t *ic_persist_find(MPI_Request req);
int ic_persist_start(ic_call_state_t *st, MPI_Request *req, int *run_code);
void ic_persist_drop(ic_call_state_t *st);
/* After an IC_ completion call completed req: when req is the handle of a
 * persistent call whose run failed, that error, raised once through its
 * communicator's handler (ic_call_raise_failed); else MPI_SUCCESS. */
int ic_persist_failed(MPI_Request req);
void ic_persist_close(void);    /* MPI_Finalize: they all go */
extern _Atomic int ic_npersist; /* persistent calls alive */
/* call.c: move call st on (block: until it ends); 1 once it is over.  Free
 * a call that is over.  Restart a persistent call: 1 when its run is
 * under way, 0 when it ended at once; *code: the failure that ended it in
 * its set-up (out of memory for its scratch, say), already raised through
 * the communicator's handler, or MPI_SUCCESS. */
int ic_call_step(ic_call_state_t *st, int block);
void ic_call_free(ic_call_state_t *st);
int ic_call_restart(ic_call_state_t *st, int *code);
/* Raise the error `code` of persistent call st's last run through its
 * communicator's handler, with the run's message; returns code. */
int ic_call_raise_failed(ic_call_state_t *st, int code);

/* Context of comm, created (collectively: MPI_Comm_dup) on first use.
 * Returns an MPI error code. */
int ic_ctx_get(MPI_Comm comm, ic_ctx_t **ctx);

/* A call on ctx has ended: ctx goes if the user freed its communicator
 * and this was its last pending call. */
void ic_ctx_call_ended(ic_ctx_t *ctx);

/* comm's context when comm is the communicator of the last context looked
 * up (then comm is a valid intracommunicator and MPI is running), else
 * NULL; no MPI call. */
ic_ctx_t *ic_ctx_known(MPI_Comm comm);

/* Shared-memory channels to the ranks of ctx's node (shm.c).  Setup is
 * collective on ctx->comm and leaves ctx->shm NULL where they cannot be
 * made.  ic_shm_peer: does a message of `bytes` bytes to or from peer go
 * through them, on lane?  ic_shm_number: give op its place in its
 * channel, in the schedule's order.  ic_shm_progress: complete ops[0, n)
 * and the MPI requests reqs[0, nreqs) together; an MPI error code.
 * ic_shm_poll: one attempt at each of ops[0, n) not done yet, *all when
 * all are done.  ic_shm_lanes: the lanes the window holds (0: no
 * channels). */
int ic_shm_setup(ic_ctx_t *ctx);
void ic_shm_destroy(ic_ctx_t *ctx);
int ic_shm_lanes(const ic_ctx_t *ctx);
int ic_shm_peer(const ic_ctx_t *ctx, int peer, int lane, size_t bytes);
/* Is peer another rank of this node with a channel (any length)? */
int ic_shm_local(const ic_ctx_t *ctx, int peer);
/* Take the next message of an unagreed schedule from peer (a blocking
 * call's, through its channel: shm.c, "Unagreed messages") whole and drop
 * it; an MPI error code. */
int ic_shm_drain(ic_ctx_t *ctx, int peer, int tag);
int ic_shm_poll(ic_ctx_t *ctx, ic_shm_op_t *ops, size_t n, int *all);
void ic_shm_number(ic_ctx_t *ctx, ic_shm_op_t *op);
int ic_shm_progress(ic_ctx_t *ctx, ic_shm_op_t *ops, size_t n, MPI_Request *reqs, int nreqs);
/* Free what ops[0, n) hold (a run abandoned part way). */
void ic_shm_release(ic_shm_op_t *ops, size_t n);
/* A waiting rank's idle poll: *idle counts them, and past the channels'
 * spin limit (0 when the node has more ranks than cores) it yields. */
void ic_shm_idle(ic_ctx_t *ctx, int *idle);

/* MPI_Waitall (flag NULL) or MPI_Testall of reqs[0, n), statuses ignored
 * (executor.c).  When ctx (NULL: none) records a trace, each request's completion time
 * goes to ctx->tmsg[i].t1 (MPI_Waitany / MPI_Testsome instead). */
int ic_complete_all(ic_ctx_t *ctx, int n, MPI_Request *reqs, int *flag);

/* INTERCOM_TRACE (trace.c).  ic_trace_on: is this process recording (reads
 * the environment once)?  ic_trace_ctx: collective over a new context's
 * communicator: its ranks' world ranks and the clock relation.
 * ic_trace_call_begin numbers the next call; ic_trace_record keeps a
 * message (kind IC_ACT_SEND / RECV, peer a world rank) or a local action
 * (peer -1); ic_trace_call the call itself once it ended.  ic_trace_sync
 * writes the records out (a communicator freed), ic_trace_close at
 * MPI_Finalize. */
extern int ic_trace_state; /* trace.c: 0 environment not read, 1 on, -1 off */
int ic_trace_start(void);
static inline int ic_trace_on(void)
{
    return ic_trace_state ? ic_trace_state > 0 : ic_trace_start();
}
int ic_trace_ctx(ic_ctx_t *ctx);
void ic_trace_call_begin(void);
void ic_trace_record(int kind, int peer, size_t bytes, double t0, double t1);
void ic_trace_call(const ic_ctx_t *ctx, const ic_coll_args_t *a, const ic_plan_t *plan, size_t elem,
                   double t0, double t1);
void ic_trace_flush(void);
void ic_trace_sync(void);
void ic_trace_close(void);

/* Drop every context's cached decisions and schedules (a new tuning
 * table), and trust that all ranks loaded the same table. */
void ic_ctx_forget_decisions(void);

/* Drop every context's cached schedule (a plan forced or released). */
void ic_ctx_forget_schedules(void);

/* Is k the key of call a (elem, gran: call.c's unit sizes)?  Then *plan
 * gets its plan, a its order and segment, and 1 is returned; else 0.
 * ic_sched_key_keep records the key of a schedule just built;
 * ic_sched_key_drop forgets it (before building another).  A context
 * keeps the key of its cached schedule (ctx->built for ctx->sched), a
 * persistent call that of its own. */
int ic_sched_key_hit(const ic_sched_key_t *k, ic_coll_args_t *a, size_t elem, size_t gran,
                     ic_plan_t *plan);
void ic_sched_key_keep(ic_sched_key_t *k, const ic_coll_args_t *a, size_t elem, size_t gran,
                       const ic_plan_t *plan);
void ic_sched_key_drop(ic_sched_key_t *k);
/* ctx no longer repeats its last call (its schedule is going; call.c);
 * ..._free: and lets go of its memory (the context goes). */
void ic_ctx_again_drop(ic_ctx_t *ctx);
void ic_ctx_again_free(ic_ctx_t *ctx);

static inline void ic_ctx_sched_drop(ic_ctx_t *ctx)
{
    ic_ctx_again_drop(ctx);
    ic_sched_key_drop(&ctx->built);
    for (int i = 0; i < IC_NB_SCHEDS; i++)
        ic_sched_key_drop(&ctx->nbs[i].key);
}

/* A schedule for a nonblocking call of ctx with arguments a (elem, gran):
 * the cached one whose key hits, else the one no call runs used longest
 * ago (its key for the caller to drop and rebuild: call.c, icc_prepare), else
 * NULL (all run: the call builds its own).  Taken: ic_nbsched_put gives
 * it back when the call's run is over. */
ic_nbsched_t *ic_nbsched_get(ic_ctx_t *ctx, ic_coll_args_t *a, size_t elem, size_t gran);
void ic_nbsched_put(ic_nbsched_t *n);

/* The tuning table in use (src/tuning.c), NULL: none; the file it came
 * from.  ic_tuning_agree: do all ranks of comm see the same table?
 * Collective on comm; rank 0 warns once when not. */
struct ic_table;
const struct ic_table *ic_tuning_table(void);
const char *ic_tuning_source(void);
int ic_tuning_agree(MPI_Comm comm, int rank);
/* The model's parameters base (ic_env()->cost or ->cost_node) as the
 * table in use measured them: the header's alpha, beta, gamma (and
 * overhead, beta-x, x-min, else derived from them) replace the built-in
 * ones at the level the table was made on (one node: within a node;
 * several: across nodes), except where an INTERCOM_ variable sets one.
 * base itself without a table or without those entries. */
const ic_cost_params_t *ic_tuning_params(const ic_cost_params_t *base);
/* The IC_KEEP_* bits (table.h) of the INTERCOM_ variables set: terms a
 * measured model leaves as the user gave them. */
unsigned ic_env_keep(void);

/* The model's alpha and beta across nodes measured (calibrate.c): collective
 * on ctx->comm, at the context's creation, after its model and table are
 * known.  spans: its ranks are on several nodes; lead: the lowest rank of
 * this rank's node.  Sets ctx->calib and ctx->calibrated where the figures
 * apply (ic_ctx_cost), and ctx->strides (figures by rank distance) on a
 * communicator of one rank per node.  ic_calibrations: measurements this
 * process made; ic_stride_calibrations: of them by rank distance. */
int ic_calibrate(ic_ctx_t *ctx, int spans, int lead);
int ic_calibrations(void);
int ic_stride_calibrations(void);

/* A private copy of MPI_COMM_SELF whose errors return (made on first use,
 * not collective; freed at MPI_Finalize), for local checks that need a
 * communicator; MPI_COMM_NULL if it cannot be made. */
MPI_Comm ic_self_comm(void);

/* Scratch memory for buffer b with at least `bytes` bytes; cached up to a
 * cap (INTERCOM_SCRATCH_CACHE bytes, default 16 MiB), larger requests are
 * released by ic_ctx_release_scratch() after the call. */
void *ic_ctx_scratch(ic_ctx_t *ctx, int b, size_t bytes);
void ic_ctx_release_scratch(ic_ctx_t *ctx);

/* Scratch memory: from a page on, half a page past a page boundary (clear
 * of the copy slow case of src/copy.c with page-aligned and malloc'ed
 * buffers, context.c); free with the size it was allocated with. */
void *ic_scratch_alloc(size_t bytes);
void ic_scratch_free(void *p, size_t bytes);

/* --------------------------------------------------------------- errors */

/* Raise an error as MPI does: print a clear message (unless the handler is
 * MPI_ERRORS_RETURN or the user asked for silence), invoke the error handler
 * of comm (MPI_COMM_WORLD when comm is MPI_COMM_NULL), return the code. */
int ic_error(MPI_Comm comm, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Error class of a misused MPI_IN_PLACE or of aliased send and receive
 * buffers: the class the vendor MPI gives for the same mistake (Open MPI:
 * MPI_ERR_ARG, MPICH and others: MPI_ERR_BUFFER).  Allreduce's recvbuf ==
 * MPI_IN_PLACE and aliasing in allreduce and allgather are MPI_ERR_BUFFER
 * under both. */
#if defined(OPEN_MPI)
#define IC_ERR_INPLACE MPI_ERR_ARG
#else
#define IC_ERR_INPLACE MPI_ERR_BUFFER
#endif

/* Argument checks shared by the collectives.  A check records the first
 * problem it finds in an ic_argerr_t (class and a message naming the call
 * and the argument) and returns the class, or MPI_SUCCESS; it raises
 * nothing (the caller decides when: call.c). */
typedef struct ic_argerr {
    const char *fn; /* the call, e.g. "IC_Gather"    */
    int code;       /* the class of the last problem */
    char msg[320];
} ic_argerr_t;

/* Record code and "fn: <message>" in e; returns code. */
int ic_argerr(ic_argerr_t *e, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
int ic_check_init(const char *fn);                /* raises */
int ic_check_comm(const char *fn, MPI_Comm comm); /* raises */
int ic_check_count(ic_argerr_t *e, long long count, const char *what);
int ic_check_type(ic_argerr_t *e, MPI_Datatype type, const char *what);
int ic_check_committed(ic_argerr_t *e, MPI_Datatype type, const char *what);
int ic_check_op(ic_argerr_t *e, MPI_Op op, MPI_Datatype type);
int ic_check_root(ic_argerr_t *e, int root, int size);
int ic_check_buf(ic_argerr_t *e, const void *buf, long long count, MPI_Datatype type,
                 const char *what);

/* ----------------------------------------------------------- datatypes */

typedef struct ic_typeinfo {
    MPI_Datatype type;
    MPI_Aint lb, extent, true_lb, true_extent;
    int size;
    int contiguous; /* count elements are size*count plain bytes at buf+lb */
    int integer;    /* a predefined integer type: 1, no: 0, not known: -1 */
    int op_class;   /* a predefined type's group for the predefined ops
                       (errors.c: ic_type_op_class); 0 for the others     */
} ic_typeinfo_t;

int ic_typeinfo(MPI_Datatype type, ic_typeinfo_t *ti);

/* Is type a predefined (named) datatype?  Remembered for the last few. */
int ic_type_named(MPI_Datatype type);
/* A predefined type's group for the predefined ops (a bit set of errors.c's
 * groups, 0: in none), remembered with it; -1 when type is not predefined. */
int ic_type_named_class(MPI_Datatype type);
/* The same, looked up in the standard's table (errors.c). */
int ic_type_op_class(MPI_Datatype type);

/* Does op give the same bits on type whatever the order and grouping of
 * the contributions (ic_coll_args_t.exact)?  MAX, MIN, the logical and
 * bitwise ops and MAXLOC/MINLOC; SUM and PROD of a predefined integer type;
 * not user ops. */
int ic_op_exact(MPI_Op op, MPI_Datatype type);

/* Bytes needed to hold n elements (true extent of n elements). */
size_t ic_type_span(const ic_typeinfo_t *ti, size_t n);

/* ----------------------------------------------------------------- tags */

/* The tags of the library's own messages, all of them on a context's
 * private duplicate (ic_ctx_t.comm), so no user message can match them;
 * distinct, so that one kind never matches another:
 *   IC_TAG        every message of a schedule (executor.c);
 *   IC_TAG_COPY   ic_typed_copy's message to self between two datatypes
 *                 (datatype.c; packing and unpacking at MPI_BOTTOM);
 *   IC_TAG_CALIBRATE the round trips that measure the links (calibrate.c);
 *   IC_TAG_NB_BASE and up: the schedules of nonblocking calls (below). */
#define IC_TAG 0x1C
#define IC_TAG_COPY 0x1C0
#define IC_TAG_CALIBRATE 0x1C1
/* Nonblocking and persistent calls: the n-th one started on a context
 * carries tag IC_TAG_NB_BASE + n mod half the context's tag range
 * (ctx->ntags, from MPI_TAG_UB), so that calls in flight together never
 * match each other's messages (every rank starts a communicator's
 * collectives in the same order, so they number them alike).  A
 * persistent call has one tag of the second half for all its runs (from
 * the order of the inits, the same everywhere; not from the order of the
 * starts, which a rank may see in another order when it finds them by
 * probing): its runs follow each other, and MPI's non-overtaking rule
 * keeps one run's messages before the next's. */
#define IC_TAG_NB_BASE 0x200

/* --------------------------------------------------------------- threads */

/* Per-thread state (caches a thread fills and reads alone).  Under SimGrid's
 * SMPI the simulated processes share OS threads, and it gives each its own
 * copy of the globals instead: plain statics there. */
#if defined(SMPI_H)
#define IC_TLS
#else
#define IC_TLS _Thread_local
#endif

/* ------------------------------------------------------------ executor */

/* The executor's buffers beyond the schedule's (algorithms/schedule.h),
 * named only by a call's packing and unpacking steps (ic_steps_t): the
 * user's buffer that packing reads and the one that unpacking writes, in
 * their own datatypes (a rank packs from one buffer of its own, unpacks
 * into one), and the staging areas that stand in for SEND and RECV, as
 * plain bytes. */
enum {
    IC_BUF_USER_IN = IC_NBUF,
    IC_BUF_USER_OUT = IC_NBUF + 1,
    IC_BUF_STAGE_SEND = IC_NBUF + 2,
    IC_BUF_STAGE_RECV = IC_NBUF + 3,
    IC_NBIND = IC_NBUF + 4
};

typedef struct ic_bound {
    void *base; /* element 0 of the buffer           */
    MPI_Datatype type;
    MPI_Aint extent;
    int contiguous; /* plain bytes: memcpy fast paths    */
    int size;       /* type size in bytes                */
    size_t ubytes;  /* 0: the schedule counts elements of
                       this buffer's datatype; otherwise it
                       counts units of ubytes bytes, unit o
                       being element o ubytes / size     */
} ic_bound_t;
/* Each buffer's binding (the schedule's first, which a run reads most). */
typedef struct ic_binding {
    ic_bound_t at[IC_NBIND];
} ic_binding_t;

/* The last call again (call.c, "The last call again").  A blocking call's
 * arguments, as a repeat of it must give them ... */
typedef struct ic_again_key {
    int coll; /* ic_coll_t */
    int root;
    /* at a rank other than the root, the receive side (1) or the send side
     * (2) means nothing (gather, scatter and their v variants): its count,
     * datatype and arrays are not read (icc_again clears them) */
    int root_side;
    const void *sbuf;
    const void *rbuf;
    long long scount, rcount;
    MPI_Datatype stype, rtype;
    MPI_Op op;
    /* arrays of counts (ints or MPI_Counts) and displacements (ints or
     * MPI_Aints), of the communicator's size, or NULL: compared by what
     * they hold */
    const int *icounts;
    const MPI_Count *ccounts;
    const int *idispls;
    const MPI_Aint *adispls;
} ic_again_key_t;

/* A blocking run compiled for its repeats (executor.c, "Replay"). */
typedef struct ic_replay ic_replay_t;

/* ... and its run on the context's schedule (ic_ctx_t.sched), which stays
 * this call's while the context keeps it (ic_ctx_t.again). */
typedef struct ic_again {
    int valid;
    ic_again_key_t key; /* its array pointers only say whether it had them */
    long long *counts;  /* what its arrays held (the context's size each) */
    long long *displs;
    ic_binding_t b;    /* its buffers (the scratch ones bound at each run) */
    ic_typeinfo_t sti; /* the scratch buffers' unit                        */
    int coll;          /* the collective it ran (ic_coll_t)                */
    size_t gran;       /* the schedule's byte unit (0 = 1)                 */
    MPI_Op op;         /* the run's reduction (MPI_OP_NULL: none) ...      */
    int commutative;   /* ... and whether it commutes                      */
    ic_plan_t plan;    /* IC_Last_algorithm's record                       */
    ic_replay_t *rp;   /* its run compiled (rp_state 1), at its first      */
    int rp_state;      /* repeat (0: not yet, -1: it cannot be)            */
} ic_again_t;

/* A call's packing and unpacking steps: COPY actions from a user buffer
 * (IC_BUF_USER_IN) into a staging area (IC_BUF_STAGE_*), the first npack,
 * which run before the schedule's first round, then from a staging area
 * into IC_BUF_USER_OUT, which run after its last.  A packing step that
 * fails leaves zeros in the staging area and the run goes on (so the
 * other ranks do not wait for this one), ending with the failure. */
typedef struct ic_steps {
    const ic_action_t *acts;
    size_t n, npack;
} ic_steps_t;

/* The longest piece of one message, reduction or copy that the executor
 * hands to MPI, in bytes: MPI's counts are ints, so longer ones go in
 * pieces (the same lock-step pieces as INTERCOM_CHUNK's).  Below INT_MAX,
 * and a multiple of 2^22 3^2 5 7, so that every broadcast unit
 * (bcast_granule in collectives.c) and the common element sizes divide it and
 * typed buffers stay in place. */
#define IC_MSG_MAX ((size_t)1321205760)

/* Bytes per piece of the executor's messages for a context whose
 * INTERCOM_CHUNK is `chunk` (0: whole messages up to IC_MSG_MAX). */
static inline size_t ic_piece_bytes(size_t chunk)
{
    return chunk && chunk < IC_MSG_MAX ? chunk : IC_MSG_MAX;
}

/* base + bytes, in integers: base may be MPI_BOTTOM (a buffer of absolute
 * addresses) and bytes negative, which pointer arithmetic does not allow.
 * SimGrid's SMPI defines MPI_BOTTOM as (void *)-111 and takes any other
 * pointer for an address: there an offset from MPI_BOTTOM is one from 0,
 * and an address that comes back to 0 (a block at a negative displacement
 * shifted back by as much) is MPI_BOTTOM again, not NULL, which SMPI's
 * MPI_Unpack, MPI_Pack, MPI_Isend and MPI_Irecv refuse (MPI_ERR_BUFFER)
 * with a count above 0. */
static inline void *ic_shift(const void *base, MPI_Aint bytes)
{
#ifdef SMPI_H
    if (base == MPI_BOTTOM)
        return bytes != 0 ? (void *)(uintptr_t)bytes : MPI_BOTTOM;
    if ((uintptr_t)base + (uintptr_t)bytes == 0)
        return MPI_BOTTOM;
#endif
    return (void *)((uintptr_t)base + (uintptr_t)bytes);
}

/* Bind a buffer whose elements the schedule counts. */
void ic_binding_set(ic_binding_t *b, int buf, void *base, const ic_typeinfo_t *ti);
/* Bind a buffer of `ti` elements to a schedule that counts units of
 * `ubytes` bytes (the broadcast and the gather family): unit offsets and
 * counts times ubytes must be multiples of ti's size (ic_sched_aligned). */
void ic_binding_set_bytes(ic_binding_t *b, int buf, void *base, const ic_typeinfo_t *ti,
                          size_t ubytes);
/* May schedule s, counting units of `ubytes` bytes, address buffer `buf`
 * as elements of `size` bytes?  Every region on it must start and end on
 * an element boundary, and so must the executor's pieces of `chunk` bytes
 * (0: none) of its longer messages. */
int ic_sched_aligned(const ic_sched_t *s, int buf, size_t ubytes, size_t size, size_t chunk);

/* Run schedule s on ctx->comm, between the packing and unpacking steps
 * (NULL: none).  op: the reduction (MPI_OP_NULL if none); commutative:
 * whether op is.  Returns an MPI error code (no handler call). */
int ic_exec(ic_ctx_t *ctx, const ic_sched_t *s, const ic_binding_t *b, const ic_steps_t *steps,
            MPI_Op op, int commutative);

/* Compile the blocking run of s on b with op (as ic_exec would run it,
 * without steps) for its repeats: 0 and *rp, or -1 when s does not run
 * round by round in whole messages (executor.c, "Replay") or memory ran
 * out.  ic_replay_run runs it on b, whose buffers may have moved since
 * (the scratch ones), as ic_exec runs s; ic_replay_free frees it. */
int ic_replay_build(ic_ctx_t *ctx, const ic_sched_t *s, const ic_binding_t *b, MPI_Op op,
                    int commutative, ic_replay_t **rp);
int ic_replay_run(ic_ctx_t *ctx, const ic_replay_t *rp, const ic_binding_t *b, MPI_Op op);
void ic_replay_free(ic_replay_t *rp);

/* A schedule running: where it is.  A blocking call's messages carry
 * IC_TAG and may go through the shared-memory channels of lane 0, and its
 * requests live in the context's arrays; a nonblocking or persistent
 * call's (nb) carry the tag of its place in the communicator's sequence
 * (IC_TAG_NB_BASE up), go through the channels of its lane, if it has one
 * (shm.c: "Lanes"), and have arrays of their own. */
typedef struct ic_exec {
    ic_ctx_t *ctx;
    const ic_sched_t *s;
    const ic_binding_t *b;
    MPI_Op op;
    int commutative, tag, nb;
    int lane;       /* its channels' lane, IC_LANE_NONE: MPI only       */
    int trace;      /* INTERCOM_TRACE records its messages (blocking)   */
    size_t round;   /* the round under way                              */
    size_t piece;   /* its piece under way (of npieces; SIZE_MAX: not   */
    size_t npieces; /* counted yet, 0: the round has no messages)       */
    size_t chunk;   /* bytes per piece, 0: whole messages               */
    int posted;     /* the piece's messages are posted: k requests and  */
    size_t k, nshm; /* nshm channel messages                            */
    MPI_Request *reqs;
    ic_shm_op_t *shm_ops;
    size_t cap, scap; /* nb: reqs and shm_ops are the call's own, of   */
                      /* cap and scap entries                          */
    ic_steps_t steps; /* packing and unpacking (n 0: none)             */
    int packed;       /* ... the packing steps have run                */
    int late;         /* a packing step's failure, returned at the end */
    /* an unagreed schedule's statuses and probed messages: nb, its own of
     * stcap entries; else the context's */
    MPI_Status *stats;
    ic_probe_t *probes;
    size_t stcap;
    size_t nprobe;    /* the piece's receives through MPI (probes, stats)   */
    int known;        /* ... every length of the piece known, data taken    */
    int truncated;    /* ... some message not as long as its receive's count */
    ic_replay_t *rec; /* ic_replay_build: pieces recorded, not posted    */
} ic_exec_t;

/* Start s as a nonblocking run (nothing is posted yet) on channel lane
 * `lane`; returns the lane it runs on (IC_LANE_NB becomes IC_LANE_NONE for
 * a schedule none of whose messages would go through the channels, and
 * every lane does when ctx has none).  progress: post and complete as much
 * as can be done now (block: wait for everything), *done when s has run to
 * its end.  An MPI error code; after one, ic_exec_abandon() cancels what
 * is still posted; with `release`, also a nonblocking run's arrays (a
 * persistent call keeps them for its next run). */
int ic_exec_begin(ic_exec_t *x, ic_ctx_t *ctx, const ic_sched_t *s, const ic_binding_t *b,
                  const ic_steps_t *steps, MPI_Op op, int commutative, int tag, int lane);
int ic_exec_progress(ic_exec_t *x, int block, int *done);
void ic_exec_abandon(ic_exec_t *x, int release);

/* Typed copy: n_src elements of ts at src -> n_dst of td at dst (same
 * signature).  Uses memcpy when both are contiguous. */
int ic_typed_copy(ic_ctx_t *ctx, const void *src, size_t n_src, MPI_Datatype ts, int src_contig,
                  int src_size, void *dst, size_t n_dst, MPI_Datatype td, int dst_contig);

/* ------------------------------------------------------------ selection */

/* Choose the plan for a call (same answer on every rank) into *pl, its
 * parameters resolved (a 1-D plan's also in a->seg).  `elem` is the
 * element size in bytes used for the cost model.  Returns 0, or -1 when
 * nothing can serve the call. */
int ic_select(ic_ctx_t *ctx, ic_coll_args_t *a, size_t elem, ic_plan_t *pl);
/* The parameters the selector prices ctx's plans with (their level
 * across nodes, or the one node's): a tuning table's measured ones, the
 * context's measured ones (calibrate.c), or the environment's. */
const ic_cost_params_t *ic_ctx_cost(const ic_ctx_t *ctx);
/* The parameters a tuning table measured for ctx's links (where its ranks
 * agree on a table that has them), or NULL: the built-in figures. */
const ic_cost_params_t *ic_ctx_measured_cost(const ic_ctx_t *ctx);

/* Forced plan for a collective (from IC_Set_algorithm or the
 * environment), or NULL. */
const ic_plan_t *ic_forced(ic_coll_t c);

/* gatherv (c = IC_COLL_GATHERV) and scatterv: the algorithm to run without
 * the block sizes from the root first (IC_ALG_OWN_COUNT), or NULL: the
 * sizes first, then ic_select (select.c). */
const ic_algorithm_t *ic_select_direct(ic_ctx_t *ctx, ic_coll_t c, int root);

/* The plan that ran last (NULL: none), for IC_Last_algorithm; gran: the
 * bytes per schedule unit of a byte-counted collective (0 = 1). */
void ic_record_last(ic_coll_t c, const ic_plan_t *pl, size_t gran);
void ic_record_packed(ic_coll_t c, size_t bytes);

/* ---------------------------------------------------------- environment */

typedef struct ic_env {
    int verbose;                    /* INTERCOM_VERBOSE                      */
    ic_cost_params_t cost;          /* INTERCOM_ALPHA, _BETA, _GAMMA, or a
                                       switched cluster's figures           */
    ic_cost_params_t cost_node;     /* the same, or shared memory's figures,
                                       for communicators within one node    */
    size_t scratch_cache;           /* INTERCOM_SCRATCH_CACHE (bytes)        */
    size_t scratch_slack;           /* INTERCOM_SCRATCH_SLACK (bytes): up to
                                       this message length a call's scratch
                                       may reach twice the message            */
    const char *mesh;               /* INTERCOM_MESH as given, or NULL       */
    int mesh_dims[IC_PLAN_MAXDIMS]; /* ... parsed: RxC or RxCxD ...       */
    int mesh_ndims;                 /* ... 0 when unset or unreadable       */
    int ranks_per_node;             /* INTERCOM_RANKS_PER_NODE (topo.c); 0:
                                       MPI says which ranks share a node     */
    const char *trace;              /* INTERCOM_TRACE: file prefix, or NULL  */
    int shm;                        /* INTERCOM_SHM: messages within a node
                                       through shared memory (shm.c): 0 none,
                                       1 up to IC_SHM_LONG, 2 (default) also
                                       longer ones, read in one copy        */
    int calibrate;                  /* INTERCOM_CALIBRATE (calibrate.c): 0
                                       never, 1 on any communicator, 2
                                       (default) on those spanning nodes    */
} ic_env_t;

const ic_env_t *ic_env(void);
int ic_world_rank(void);

/* ------------------------------------------------------------- topology */

int ic_topo_ncores(void); /* cores of this node (hwloc; sysconf without it) */
/* Ranks of comm running on this machine (the same Linux boot id), which
 * may be more than MPI's node holds: an emulated cluster's "nodes" share
 * one machine's cores.  0 when unknown.  Collective on comm. */
int ic_topo_machine_ranks(MPI_Comm comm);
/* A communicator the library split off for itself (a node's, a machine's;
 * rc: the split's): its errors come back as codes, which the caller
 * handles.  MPI passes the parent's handler on (the private communicator's
 * MPI_ERRORS_RETURN), but SimGrid's SMPI 3.32 gives what it splits
 * MPI_ERRORS_ARE_FATAL.  Returns rc, or the setting's failure (context.c). */
int ic_split_returns(int rc, MPI_Comm c);

/* Placement on a logical mesh (algorithms/placement.h).  Keys per rank:
 * node (the lowest rank of comm on that node), package, shared cache
 * (hwloc; -1 where unknown), IC_TOPO_NLEVELS ints per rank. */
#define IC_TOPO_NLEVELS 3

/* Collective on comm, whose errors should return (a context's private
 * communicator): every rank's keys into keys (size x IC_TOPO_NLEVELS
 * ints), the same on every rank; *nlevels = IC_TOPO_NLEVELS.  Nodes from
 * INTERCOM_RANKS_PER_NODE when set.  Returns an MPI error code; keys are
 * valid on every rank or on none (a failure on one rank is agreed on). */
int ic_topo_keys(MPI_Comm comm, int *keys, int *nlevels);

/* Collective: the placement of comm's ranks, order[pos] = rank (size
 * ints), and *q the ranks per node when every node holds the same number
 * (ic_place_uniform), else 0.  Never fails half-way: on any error the
 * identity and q = 0 on every rank (said under INTERCOM_VERBOSE), and the
 * error code is returned. */
int ic_topo_order(MPI_Comm comm, int *order, int *q);

#endif /* IC_INTERNAL_H */
