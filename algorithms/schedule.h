/*
 * schedule.h -- the schedule intermediate representation (IR).
 *
 * An algorithm never calls MPI: it builds, for one rank, a schedule, i.e. an
 * ordered list of rounds.  Each round holds
 *   - communication actions (SEND, RECV) that are started together, and
 *   - local actions (REDUCE, COPY) that run, in order, after every
 *     communication action of the round has completed.
 * A round may hold only local actions (for instance an initial copy).
 *
 * Every action works on regions: (buffer, element offset, element count).
 * Offsets and counts are in units of the datatype attached to that buffer by
 * whoever executes the schedule, so a derived datatype needs no packing:
 * (char *)base + off * extent, count, datatype is a valid MPI buffer.
 *
 * Three consumers read the same schedule: the MPI executor (src/executor.c),
 * the in-memory simulator (tuning/sim.c) and the cost evaluator
 * (tuning/cost.c).  It lives with the algorithms that build it, at the
 * bottom of the layers, and depends on nothing but the C library.
 *
 * Rules a builder must follow (the simulator checks them):
 *   - within one round, no region written by a RECV overlaps a region read by
 *     a SEND or written by another RECV;
 *   - messages between one ordered pair of ranks are matched in the order
 *     they are posted (MPI's non-overtaking rule), so both sides must list
 *     them in the same order;
 *   - the element counts of a matched SEND and RECV describe the same
 *     amount of data (the same count when both buffers have one datatype).
 */
#ifndef IC_SCHEDULE_H
#define IC_SCHEDULE_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The named buffers of one collective call on one rank. */
typedef enum ic_buf {
    IC_BUF_SEND = 0,    /* the user's send buffer (or its stand-in)        */
    IC_BUF_RECV = 1,    /* the user's receive buffer                      */
    IC_BUF_SCRATCH = 2, /* library scratch, sized by ic_sched_t.scratch   */
    IC_BUF_SCRATCH2 = 3 /* second scratch area (e.g. receive temporaries) */
} ic_buf_t;
#define IC_NBUF 4

typedef enum ic_act_kind {
    IC_ACT_SEND = 0,
    IC_ACT_RECV = 1,
    IC_ACT_REDUCE = 2,
    IC_ACT_COPY = 3
} ic_act_kind_t;

typedef struct ic_region {
    ic_buf_t buf;
    size_t off;   /* in elements of the buffer's datatype */
    size_t count; /* in elements of the buffer's datatype */
} ic_region_t;

/*
 * One action.
 *   SEND:   peer <- src
 *   RECV:   dst  <- peer
 *   COPY:   dst  <- src               (src.count and dst.count may differ
 *                                      only when the buffers' datatypes do)
 *   REDUCE: src_first ? dst = src (op) dst : dst = dst (op) src
 *           For a non-commutative op with src_first == 0 the executor
 *           may overwrite src (it computes into src, then copies), so
 *           builders only pass a src they no longer need in that case.
 */
typedef struct ic_action {
    ic_act_kind_t kind;
    int peer; /* communicator rank, SEND/RECV only */
    int src_first;
    ic_region_t src;
    ic_region_t dst;
} ic_action_t;

typedef struct ic_sched {
    int rank;          /* the rank this schedule belongs to       */
    int size;          /* communicator size                       */
    ic_action_t *acts; /* all actions, round after round          */
    size_t nacts, acts_cap;
    size_t *round_first; /* round r = acts[round_first[r] .. round_first[r+1]) */
    size_t nrounds, rounds_cap;
    size_t scratch[IC_NBUF]; /* elements needed in SCRATCH/SCRATCH2 (only
                                those two entries are used)              */
    int oom;                 /* sticky: an allocation failed while building */
    int unagreed;            /* the two sides of a message may count it
                                differently (each rank knows only its own
                                block: the linear gatherv and scatterv):
                                the executor sends every message whole and
                                learns every length of a round before it
                                takes any data (a mismatch: nothing
                                written, MPI_ERR_TRUNCATE) */
    size_t nstream;          /* messages whose rounds are a stream's clock,
                                not a barrier (ic_sched_stream)          */
} ic_sched_t;

/* Lifetime. */
void ic_sched_init(ic_sched_t *s, int rank, int size);
void ic_sched_reset(ic_sched_t *s, int rank, int size); /* keeps memory */
void ic_sched_free(ic_sched_t *s);

/* Builders.  Allocation failure is sticky and reported by ic_sched_ok(). */
void ic_sched_round(ic_sched_t *s); /* close the current round (no-op if empty) */
void ic_sched_send(ic_sched_t *s, int peer, ic_region_t src);
void ic_sched_recv(ic_sched_t *s, int peer, ic_region_t dst);
void ic_sched_reduce(ic_sched_t *s, ic_region_t src, ic_region_t dst, int src_first);
void ic_sched_copy(ic_sched_t *s, ic_region_t src, ic_region_t dst);
/* Ensure scratch buffer b (IC_BUF_SCRATCH or IC_BUF_SCRATCH2) holds n
 * elements; nothing for a user buffer (a primitive's temporary may be one). */
void ic_sched_need(ic_sched_t *s, ic_buf_t b, size_t n);
/* Let sends of a copy of the input read the input itself: a COPY from SEND
 * to a region R moves as late as it may, and the sends of exactly R before
 * it read the COPY's source instead (schedule.c says why).  The data
 * every rank ends with is unchanged. */
void ic_sched_send_input(ic_sched_t *s);
/* The messages added since action `from` are a stream's (a pipelined
 * chain's): their rounds are its clock, each segment forwarded as it
 * arrives, not a barrier.  A schedule whose messages all are may run as a
 * dataflow (src/executor.c, "Dataflow"). */
void ic_sched_stream(ic_sched_t *s, size_t from);
/* A stream's depth: the receives from one peer its dataflow keeps under
 * way (src/executor.c); and its first segment goes in IC_STREAM_DEPTH - 1
 * pieces that grow 1 : 2 : ... (ic_stream_segment in algorithms.h), so
 * that the first messages in flight together on a link do not start and
 * end together (under fair sharing, messages that start together share
 * the link to the end and free it together: the next ones again start
 * together, and each pays its latency anew). */
#define IC_STREAM_DEPTH 3
/* 0 when the schedule is complete and usable, -1 after an allocation failure. */
int ic_sched_ok(const ic_sched_t *s);

/* Reading. */
static inline size_t ic_sched_nrounds(const ic_sched_t *s)
{
    return s->nrounds;
}
static inline const ic_action_t *ic_sched_round_acts(const ic_sched_t *s, size_t r, size_t *n)
{
    size_t first = s->round_first[r];
    size_t last = (r + 1 < s->nrounds) ? s->round_first[r + 1] : s->nacts;
    *n = last - first;
    return s->acts + first;
}

/* Do regions x and y of one buffer share an element? */
static inline int ic_regions_overlap(const ic_region_t *x, const ic_region_t *y)
{
    return x->buf == y->buf && x->count > 0 && y->count > 0 && x->off < y->off + y->count &&
           y->off < x->off + x->count;
}

/* Is a a message (a SEND or a RECV)? */
static inline int ic_act_is_msg(const ic_action_t *a)
{
    return a->kind == IC_ACT_SEND || a->kind == IC_ACT_RECV;
}

/* Convenience constructor. */
static inline ic_region_t ic_reg(ic_buf_t b, size_t off, size_t count)
{
    ic_region_t r;
    r.buf = b;
    r.off = off;
    r.count = count;
    return r;
}

/* "send", "recv", "scratch", "scratch2". */
const char *ic_buf_name(ic_buf_t b);

/* Human-readable dump (one line per action), for debugging and the info tool. */
void ic_sched_dump(const ic_sched_t *s, FILE *out);

#ifdef __cplusplus
}
#endif
#endif /* IC_SCHEDULE_H */
