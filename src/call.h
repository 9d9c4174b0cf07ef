/*
 * call.h -- the call object of the IC_ collectives and its driver, shared
 * by the three files that make the calls:
 *   api.c          the entry points (MPI's signatures), thin wrappers;
 *   collectives.c  the description of each collective (its checks, its
 *                  ic_coll_args_t, its buffers);
 *   call.c         the driver that runs them: the call object, the checks
 *                  turned into errors, selecting, building and running
 *                  the schedule, bytes and datatypes, the progress
 *                  engine's side and the persistent calls.
 * Private to the library: the functions shared between those files are
 * icc_-prefixed and stay inside libintercom.so (which exports ^IC_ only).
 */
#ifndef IC_CALL_H
#define IC_CALL_H

#include "ic_internal.h"

#include <stddef.h>
#include <stdint.h>

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

static inline long long cv(cview_t v, int k)
{
    return v.i ? (long long)v.i[k] : (long long)v.c[k];
}
static inline int cv_null(cview_t v)
{
    return !v.i && !v.c;
}
static inline long long dv(dview_t v, int k)
{
    return v.i ? (long long)v.i[k] : (long long)v.a[k];
}
static inline int dv_null(dview_t v)
{
    return !v.i && !v.a;
}
static inline cview_t cv_int(const int *x)
{
    cview_t v = {x, NULL};
    return v;
}
static inline dview_t dv_int(const int *x)
{
    dview_t v = {x, NULL};
    return v;
}
#ifdef IC_HAVE_LARGE_COUNT
static inline cview_t cv_big(const MPI_Count *x)
{
    cview_t v = {NULL, x};
    return v;
}
static inline dview_t dv_big(const MPI_Aint *x)
{
    dview_t v = {NULL, x};
    return v;
}
#endif

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

/* A call: from its arguments to its end.  A blocking call lives on the
 * caller's stack, uses the context's cached schedule and scratch and runs
 * to its end in one go; a nonblocking one (nb) lives on the heap, owns its
 * schedule, scratch and staging and the tag of its place in the
 * communicator's sequence, and its schedule runs as the progress engine
 * (src/progress.c) moves it on.  Either way each phase of a call is a
 * schedule, run by the executor between the call's packing and unpacking
 * steps (call.c, "bytes and datatypes"), and followed by `then` (for
 * gatherv and scatterv, after the block sizes arrived, the gather's own
 * schedule), so both kinds run the same code. */
enum { IC_CALL_COUNTS = 64 };
typedef struct call call_t;
typedef int (*then_t)(call_t *c);
struct call {
    const char *fn;
    MPI_Comm comm;
    ic_ctx_t *ctx;
    ic_coll_args_t a;
    ic_binding_t b;
    size_t *counts;     /* owned */
    size_t *displs;     /* owned */
    void *stage[2];     /* owned staging areas or stand-ins for SEND / RECV */
    ic_action_t *steps; /* owned: the packing and unpacking steps (ic_steps_t) */
    size_t nsteps, npack, steps_cap;
    size_t packed;               /* bytes packed or unpacked through them */
    size_t elem;                 /* bytes per element of the selection (icc_prepare)  */
    size_t gran;                 /* byte-counted collectives: bytes per schedule unit
                                    (0 = 1; see "bytes and datatypes")              */
    int blind;                   /* the mistake hides the call's shape: raise now   */
    int quiet;                   /* not the call's own schedule (block sizes)        */
    int recorded;                /* IC_Last_packed_bytes has this call's bytes       */
    int aux_made;                /* aux (below) is initialised                       */
    int again;                   /* a blocking call its context may keep to repeat
                                    (akey: its arguments; call.c, "The last call
                                    again")                                          */
    uint64_t *sizes;             /* the block sizes' message (p + 1 words)         */
    const ic_algorithm_t *fixed; /* gatherv, scatterv without the sizes: the
                                    algorithm every rank runs (icc_prepare
                                    does not select: the ranks' counts differ) */
    ic_nbsched_t *nbs;           /* nb: the context's schedule it runs, or NULL   */
    /* Last: icc_begin() clears only their codes (the rest is written when a
     * check fails), which keeps a call's set-up to a few cache lines. */
    ic_argerr_t t; /* what the last check found                       */
    ic_argerr_t e; /* the first mistake of the call (e.code 0: none)  */
    /* Set before icc_begin() (call_init, icc_nb_new) and kept by it. */
    int nb;       /* nonblocking (see above)                          */
    int keep;     /* persistent: own, key and scratch last across runs */
    int dry;      /* persistent, at init: prepare, but do not launch  */
    int ready;    /* ... it got as far as launching                    */
    int rerun;    /* ... and a start may run the last run's schedule,
                     bindings and scratch again as they are (icc_launch) */
    int own_made; /* own is initialised                                */
    /* Written before they are read (icc_prepare, icc_launch, the descriptions). */
    ic_again_key_t akey;           /* with again                                   */
    const ic_typeinfo_t *unit;     /* icc_prepare's unit of the scratch buffers    */
    ic_plan_t plan;                /* the plan of the phase under way             */
    ic_sched_t *s;                 /* its schedule: &ctx->sched, or &own           */
    MPI_Op op;                     /* its reduction (MPI_OP_NULL: none)          */
    int commutative;               /* ... and whether it commutes                */
    then_t then;                   /* what follows the schedule (NULL: the end)    */
    then_t after;                  /* gatherv, scatterv: what follows the sizes    */
    double t0;                     /* INTERCOM_TRACE: the schedule's start         */
    ic_call_state_t st;            /* nb: the request and the engine's view (progress.c) */
    ic_exec_t x;                   /* nb: the schedule running                     */
    ic_sched_t own;                /* nb: its schedule                             */
    ic_sched_key_t key;            /* persistent: what own holds                   */
    ic_sched_t aux;                /* the block sizes' schedule                    */
    void *scratch[IC_NBUF];        /* nb: its own scratch ...                      */
    size_t scratch_bytes[IC_NBUF]; /* ... of these sizes                   */
    pargs_t pa;                    /* persistent: the arguments of every start     */
    char *rmsg;                    /* ... its last run's failure (owned)           */
    /* the user's side of gatherv and scatterv, kept for their second phase */
    const void *sbuf;
    void *rbuf;
    long long scount, rcount;
    ic_typeinfo_t sti, rti;
    cview_t vcounts;
    dview_t vdispls;
    int in_place, is_root, bad_send, bad_recv;
    /* c->counts of a communicator of at most IC_CALL_COUNTS ranks: in the
     * call object, not the heap (a calloc and a free per call were 5-7 % of
     * an 8-byte allgather at p = 2) */
    size_t counts_in[IC_CALL_COUNTS];
};

/* The byte unit of the broadcast and the gather family: MPI_PACKED, which
 * matches any datatype (MPI's type-matching rules), so a rank that sends
 * or receives a typed region of its own datatype in place and a rank that
 * uses bytes (a contiguous buffer, a staging area) make a legal pair. */
extern const ic_typeinfo_t icc_byte_ti;

/* ------------------------------------------------ the driver (call.c) */

int icc_chk(call_t *c, int rc, int blind);
/* A mistake found here (not by an ic_check_ function). */
int icc_mistake(call_t *c, int blind, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
int icc_raise_err(call_t *c);
int icc_fail(call_t *c, int rc, const char *what);
int icc_begin(call_t *c, const char *fn, MPI_Comm comm, int *rank, int *size);
/* The last call again (call.c): a blocking call whose arguments k are
 * those of the last call its context kept runs that call's run again and
 * returns 1 (its result in *rc); otherwise 0, and the call goes the full
 * way.  icc_begin_again: both in one, icc_begin() of a call of arguments
 * k unless it is a repeat, then letting the context keep it; returns 1
 * when the call is over (*rc: the repeat's result, or icc_begin()'s
 * failure), 0 when it goes on. */
int icc_again(const call_t *c, const ic_again_key_t *k, MPI_Comm comm, const char *fn, int *rc);
static inline int icc_begin_again(call_t *c, const ic_again_key_t *k, const char *fn, MPI_Comm comm,
                                  int *rank, int *size, int *rc)
{
    if (icc_again(c, k, comm, fn, rc))
        return 1;
    if ((*rc = icc_begin(c, fn, comm, rank, size)) != MPI_SUCCESS)
        return 1;
    c->again = !c->nb && !c->dry;
    c->akey = *k;
    return 0;
}
int icc_uncommitted(call_t *c, MPI_Datatype type, const char *what);
size_t *icc_alloc_counts(call_t *c, int p);
void *icc_standin(call_t *c, int side, size_t bytes);
int icc_prepare(call_t *c, size_t elem, const ic_typeinfo_t *sti);
int icc_done(call_t *c);
int icc_launch(call_t *c, MPI_Op op, int commutative, then_t then);
int icc_run_done(call_t *c, MPI_Op op, int commutative, size_t elem, const ic_typeinfo_t *sti);

/* bytes and datatypes (call.c) */
long long icc_lowest_displ(cview_t counts, dview_t displs, int p);
int icc_pack(call_t *c, int side, const void *ubuf, long long count, const ic_typeinfo_t *ti,
             size_t at);
int icc_pack_blocks(call_t *c, int side, const void *ubuf, cview_t counts, dview_t displs,
                    const ic_typeinfo_t *ti);
int icc_launch_unpack(call_t *c, int on, void *ubuf, long long ucount, const ic_typeinfo_t *uti);
int icc_launch_unpack_blocks(call_t *c, int on, void *ubuf, cview_t counts, dview_t displs,
                             const ic_typeinfo_t *uti, int skip);
void icc_bind_bytes(call_t *c, int buf, const void *base);
int icc_bind_standin(call_t *c, int buf, int side, size_t bytes);
int icc_bind_user(call_t *c, int buf, const void *base, const ic_typeinfo_t *ti);
int icc_bind_send_bytes(call_t *c, const void *buf, long long count, const ic_typeinfo_t *ti,
                        size_t bytes, int bad);
int icc_stage_recv(call_t *c, size_t bytes);

/* the progress engine's side and the persistent calls (call.c) */
call_t *icc_nb_new(void);
#if !IC_NB_VENDOR
int icc_nb_started(call_t *c, int rc, MPI_Request *req);
#endif
int icc_persist_init(const pargs_t *a, MPI_Request *request);

/* The context; a nonblocking call also takes its place in the
 * communicator's sequence (every rank that gets here for this call does,
 * in the same order). */
static inline int icc_get_ctx(call_t *c)
{
    int rc = MPI_SUCCESS;
    if (c->nb && c->keep && !c->dry)
        c->ctx = c->st.ctx;
    else
        rc = ic_ctx_get(c->comm, &c->ctx);
    if (rc != MPI_SUCCESS)
        return icc_fail(c, rc, "cannot set up the communicator's context");
    c->a.rank = c->ctx->rank;
    c->a.size = c->ctx->size;
    if (c->nb && !c->keep)
        ic_call_enter(&c->st, c->ctx);
    else if (c->dry && c->keep) /* a blocking call sets nb and dry only */
        ic_call_enter_persistent(&c->st, c->ctx);
    return MPI_SUCCESS;
}

/* ------------------------------------- the descriptions (collectives.c) */

int icc_bcast_impl(call_t *c, void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                   MPI_Comm comm, const char *fn);
int icc_reduce_impl(call_t *c, const void *sendbuf, void *recvbuf, MPI_Count count,
                    MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, const char *fn);
int icc_allreduce_impl(call_t *c, const void *sendbuf, void *recvbuf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, const char *fn);
int icc_reduce_scatter_impl(call_t *c, const void *sendbuf, void *recvbuf, cview_t recvcounts,
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, const char *fn);
int icc_reduce_scatter_block_impl(call_t *c, const void *sendbuf, void *recvbuf,
                                  MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
                                  MPI_Comm comm, const char *fn);
int icc_gather_impl(call_t *c, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                    MPI_Comm comm, const char *fn);
int icc_scatter_impl(call_t *c, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                     MPI_Comm comm, const char *fn);
int icc_allgather_impl(call_t *c, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                       const char *fn);
int icc_allgatherv_impl(call_t *c, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, cview_t recvcounts, dview_t displs, MPI_Datatype recvtype,
                        MPI_Comm comm, const char *fn);
int icc_gatherv_impl(call_t *c, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void *recvbuf, cview_t recvcounts, dview_t displs, MPI_Datatype recvtype,
                     int root, MPI_Comm comm, const char *fn);
int icc_scatterv_impl(call_t *c, const void *sendbuf, cview_t sendcounts, dview_t displs,
                      MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, const char *fn);
int icc_barrier_impl(call_t *c, MPI_Comm comm, const char *fn);

/* gatherv, scatterv: the phase of the block sizes (nb_run tells it) */
int icc_then_sizes(call_t *c);

#endif
