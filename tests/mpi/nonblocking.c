/*
 * nonblocking.c -- the IC_I* calls beyond one call at a time.
 *
 * (Each nonblocking call's results over the whole correctness matrix are
 * tests/mpi/nbmatrix.sh: reductions and movement with IC_TEST_NONBLOCKING.)
 * Here, against the vendor's blocking collectives on the same inputs:
 *   - many calls in flight on one communicator (every collective, short
 *     and long vectors, the long ones in many pieces), started in the same
 *     order on every rank and completed in an order of each rank's own
 *     with MPI_Waitany, MPI_Testsome, MPI_Testall and MPI_Waitall;
 *   - calls in flight on several overlapping communicators at once (the
 *     world, its halves, the world reversed), interleaved;
 *   - nonblocking calls with blocking IC_ and vendor collectives between
 *     their start and their completion;
 *   - a communicator freed while its calls are pending (they complete, and
 *     the context goes with the last);
 *   - zero counts (a request that is complete at once), MPI_REQUEST_NULL
 *     after a bad argument, the status of a completed request, MPI_Cancel
 *     refused and the request still completing;
 *   - one rank's mistake that only it can see (a NULL receive buffer):
 *     its start returns the error class, it still takes its part, and the
 *     other ranks' calls complete with the right result;
 *   - a program that completes with nothing but MPI's own calls (all of the
 *     above: no IC_ call runs while these wait);
 *   - persistent calls of every kind (IC_*_init), each run many times with
 *     new inputs, started with IC_Start, IC_Startall and (Open MPI) MPI_Start,
 *     completed with IC_Waitall, IC_Waitany and (Open MPI) MPI_Wait, with
 *     nonblocking and blocking calls between; one on a communicator freed since its init; freed
 * with IC_Request_free and MPI_Request_free; persistent calls whose buffers
 * are packed and unpacked at every start.
 */
#include <mpi.h>
/* Built twice: tests/mpi/nonblocking calls the IC_ functions;
 * tests/interpose/icp_nonblocking (NB_MPI) is a plain MPI program calling
 * MPI_ names (MPI-4's _init calls, or Open MPI's MPIX_ ones), run under the
 * interposition library (tests/interpose/nonblocking.sh), where every call
 * must reach InterCom.  The answers come from the vendor's PMPI_ calls in
 * both. */
#ifndef NB_MPI
#include "intercom.h"
#define CALL(f) IC_##f
#define INIT(f) IC_##f
#define HAVE_PERSISTENT 1
#else
#define CALL(f) MPI_##f
#if MPI_VERSION >= 4
#define INIT(f) MPI_##f
#define HAVE_PERSISTENT 1
#elif defined(OPEN_MPI)
#include <mpi-ext.h>
#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
#define INIT(f) MPIX_##f
#define HAVE_PERSISTENT 1
#endif
#endif
#endif
#ifndef HAVE_PERSISTENT
#define HAVE_PERSISTENT 0
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Under SimGrid's SMPI the IC_I* calls are SMPI's own nonblocking
 * collectives (README: no progress hook there), and so are their requests:
 * SMPI accepts MPI_Cancel of one (MPI_SUCCESS, and a status that says
 * cancelled, though the call completes with its result) and completes a
 * zero-count call only once the simulation has moved on. */
#if defined(SMPI_H) && !defined(NB_MPI)
#define VENDOR_REQUESTS 1
#else
#define VENDOR_REQUESTS 0
#endif

#define SIMPLE_TEST "nonblocking"
#include "simple.h"

#define NCALLS 14

static int rank;
/* statuses for the completion calls (GCC 12 warns of MPICH's
 * MPI_STATUSES_IGNORE, a sentinel pointer, as an empty array) */
static MPI_Status sts[80];

static void check(int ok, const char *fmt, int k)
{
    ncases++;
    if (!ok) {
        char m[160];
        snprintf(m, sizeof(m), fmt, k);
        fail("%s", m);
    }
}

static long long val(int r, int i, int k)
{
    return (long long)((r + 1) * 1000003LL + i * 7919LL + k * 104729LL) % 1000000007LL;
}

/* One call of the mix: its inputs, InterCom's output and the vendor's. */
typedef struct item {
    int kind; /* which collective (below) */
    int n;    /* elements per rank */
    long long *in, *out, *ref;
    int *counts, *displs;
    size_t nin, nout;
} item_t;

enum { K_ALLREDUCE, K_BCAST, K_REDUCE, K_ALLGATHERV, K_GATHERV, K_SCATTERV, K_RSB, K_BARRIER };
#define NKINDS 8

static void item_fill(item_t *it, int k, int run, MPI_Comm comm);

static void item_make(item_t *it, int kind, int n, int k, MPI_Comm comm)
{
    int p, r;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    it->kind = kind;
    it->n = n;
    it->counts = malloc(sizeof(int) * (size_t)p);
    it->displs = malloc(sizeof(int) * (size_t)p);
    int tot = 0;
    for (int i = 0; i < p; i++) {
        it->counts[i] = kind == K_RSB ? n : n + (i % 3);
        it->displs[i] = tot;
        tot += it->counts[i];
    }
    size_t nin = (size_t)(kind == K_SCATTERV || kind == K_RSB ? tot : n + 3);
    it->nout = (size_t)(kind == K_ALLGATHERV || kind == K_GATHERV ? tot : n + 3);
    if (kind == K_RSB)
        it->nout = (size_t)n;
    it->nin = nin;
    it->in = malloc(sizeof(long long) * (nin ? nin : 1));
    it->out = calloc(it->nout ? it->nout : 1, sizeof(long long));
    it->ref = calloc(it->nout ? it->nout : 1, sizeof(long long));
    item_fill(it, k, 0, comm);
}

/* Inputs of run `run` of call k (a persistent call's runs differ), and the
 * vendor's answer for them. */
static void item_fill(item_t *it, int k, int run, MPI_Comm comm)
{
    int p, r, n = it->n, kind = it->kind;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    for (size_t i = 0; i < it->nin; i++)
        it->in[i] = val(r, (int)i, k + 31 * run);
    memset(it->out, 0, it->nout * sizeof(long long));
    int root = k % p, mine = it->counts[r];
    switch (kind) { /* the vendor's answer, blocking */
    case K_ALLREDUCE:
        PMPI_Allreduce(it->in, it->ref, n, MPI_LONG_LONG, MPI_SUM, comm);
        break;
    case K_BCAST:
        memcpy(it->ref, it->in, sizeof(long long) * (size_t)n);
        PMPI_Bcast(it->ref, n, MPI_LONG_LONG, root, comm);
        if (r == root)
            memcpy(it->out, it->in, sizeof(long long) * (size_t)n);
        break;
    case K_REDUCE:
        PMPI_Reduce(it->in, it->ref, n, MPI_LONG_LONG, MPI_MAX, root, comm);
        break;
    case K_ALLGATHERV:
        PMPI_Allgatherv(it->in, mine, MPI_LONG_LONG, it->ref, it->counts, it->displs, MPI_LONG_LONG,
                        comm);
        break;
    case K_GATHERV:
        PMPI_Gatherv(it->in, mine, MPI_LONG_LONG, it->ref, it->counts, it->displs, MPI_LONG_LONG,
                     root, comm);
        break;
    case K_SCATTERV:
        PMPI_Scatterv(it->in, it->counts, it->displs, MPI_LONG_LONG, it->ref, mine, MPI_LONG_LONG,
                      root, comm);
        break;
    case K_RSB:
        PMPI_Reduce_scatter_block(it->in, it->ref, n, MPI_LONG_LONG, MPI_SUM, comm);
        break;
    default:
        break;
    }
}

static int item_start(item_t *it, int k, MPI_Comm comm, MPI_Request *req)
{
    int p, r;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    int root = k % p, mine = it->counts[r], n = it->n;
    switch (it->kind) {
    case K_ALLREDUCE:
        return CALL(Iallreduce)(it->in, it->out, n, MPI_LONG_LONG, MPI_SUM, comm, req);
    case K_BCAST:
        return CALL(Ibcast)(it->out, n, MPI_LONG_LONG, root, comm, req);
    case K_REDUCE:
        return CALL(Ireduce)(it->in, it->out, n, MPI_LONG_LONG, MPI_MAX, root, comm, req);
    case K_ALLGATHERV:
        return CALL(Iallgatherv)(it->in, mine, MPI_LONG_LONG, it->out, it->counts, it->displs,
                                 MPI_LONG_LONG, comm, req);
    case K_GATHERV:
        return CALL(Igatherv)(it->in, mine, MPI_LONG_LONG, it->out, it->counts, it->displs,
                              MPI_LONG_LONG, root, comm, req);
    case K_SCATTERV:
        return CALL(Iscatterv)(it->in, it->counts, it->displs, MPI_LONG_LONG, it->out, mine,
                               MPI_LONG_LONG, root, comm, req);
    case K_RSB:
        return CALL(Ireduce_scatter_block)(it->in, it->out, n, MPI_LONG_LONG, MPI_SUM, comm, req);
    default:
        return CALL(Ibarrier)(comm, req);
    }
}

#if HAVE_PERSISTENT
/* The persistent form of call k. */
static int item_init(item_t *it, int k, MPI_Comm comm, MPI_Request *req)
{
    int p, r;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    int root = k % p, mine = it->counts[r], n = it->n;
    MPI_Info no = MPI_INFO_NULL;
    switch (it->kind) {
    case K_ALLREDUCE:
        return INIT(Allreduce_init)(it->in, it->out, n, MPI_LONG_LONG, MPI_SUM, comm, no, req);
    case K_BCAST:
        return INIT(Bcast_init)(it->out, n, MPI_LONG_LONG, root, comm, no, req);
    case K_REDUCE:
        return INIT(Reduce_init)(it->in, it->out, n, MPI_LONG_LONG, MPI_MAX, root, comm, no, req);
    case K_ALLGATHERV:
        return INIT(Allgatherv_init)(it->in, mine, MPI_LONG_LONG, it->out, it->counts, it->displs,
                                     MPI_LONG_LONG, comm, no, req);
    case K_GATHERV:
        return INIT(Gatherv_init)(it->in, mine, MPI_LONG_LONG, it->out, it->counts, it->displs,
                                  MPI_LONG_LONG, root, comm, no, req);
    case K_SCATTERV:
        return INIT(Scatterv_init)(it->in, it->counts, it->displs, MPI_LONG_LONG, it->out, mine,
                                   MPI_LONG_LONG, root, comm, no, req);
    case K_RSB:
        return INIT(Reduce_scatter_block_init)(it->in, it->out, n, MPI_LONG_LONG, MPI_SUM, comm, no,
                                               req);
    default:
        return INIT(Barrier_init)(comm, no, req);
    }
}
#endif

/* Is InterCom's output the vendor's (where it is significant)? */
static int item_ok(const item_t *it, int k, MPI_Comm comm)
{
    int p, r;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    int root = k % p;
    size_t n = (size_t)it->n;
    switch (it->kind) {
    case K_ALLREDUCE:
    case K_BCAST:
    case K_RSB:
        return memcmp(it->out, it->ref, n * sizeof(long long)) == 0;
    case K_REDUCE:
        return r != root || memcmp(it->out, it->ref, n * sizeof(long long)) == 0;
    case K_ALLGATHERV:
        return memcmp(it->out, it->ref, it->nout * sizeof(long long)) == 0;
    case K_GATHERV:
        return r != root || memcmp(it->out, it->ref, it->nout * sizeof(long long)) == 0;
    case K_SCATTERV:
        return memcmp(it->out, it->ref, (size_t)it->counts[r] * sizeof(long long)) == 0;
    default:
        return 1;
    }
}

static void item_free(item_t *it)
{
    free(it->in);
    free(it->out);
    free(it->ref);
    free(it->counts);
    free(it->displs);
}

/* The n of call k: short, middle and long (the long ones cut into many
 * pieces by the executor when INTERCOM_CHUNK is small). */
static int size_of(int k)
{
    static const int sz[] = {1, 0, 17, 1000, 3, 40000, 250, 7, 120000};
    return sz[k % 9];
}

/* Complete reqs[0, n) in an order of this rank's own: way 0 MPI_Waitany,
 * 1 MPI_Testsome, 2 MPI_Testall, 3 MPI_Waitall. */
static void complete(MPI_Request *reqs, int n, int way)
{
    int left = n, *idx = malloc(sizeof(int) * (size_t)n), flag = 0;
    switch (way) {
    case 0:
        while (left > 0) {
            int at = MPI_UNDEFINED;
            if (MPI_Waitany(n, reqs, &at, MPI_STATUS_IGNORE) != MPI_SUCCESS || at == MPI_UNDEFINED)
                break;
            left--;
        }
        break;
    case 1:
        while (left > 0) {
            int out = 0;
            if (MPI_Testsome(n, reqs, &out, idx, sts) != MPI_SUCCESS || out == MPI_UNDEFINED)
                break;
            left -= out;
        }
        break;
    case 2:
        while (!flag)
            if (MPI_Testall(n, reqs, &flag, sts) != MPI_SUCCESS)
                break;
        break;
    default:
        MPI_Waitall(n, reqs, sts);
    }
    for (int i = 0; i < n; i++)
        check(reqs[i] == MPI_REQUEST_NULL, "request %d not completed", i);
    free(idx);
}

/* Many calls of every kind in flight on comm, completed by `way`. */
static void mix(MPI_Comm comm, int way, int seed, const char *name)
{
    item_t it[NCALLS];
    MPI_Request reqs[NCALLS];
    where = name;
    for (int k = 0; k < NCALLS; k++)
        item_make(&it[k], (k + seed) % NKINDS, size_of(k + seed), k + seed, comm);
    for (int k = 0; k < NCALLS; k++)
        check(item_start(&it[k], k + seed, comm, &reqs[k]) == MPI_SUCCESS, "start of call %d", k);
    complete(reqs, NCALLS, way);
    for (int k = 0; k < NCALLS; k++) {
        check(item_ok(&it[k], k + seed, comm), "result of call %d", k);
        item_free(&it[k]);
    }
}

/* Calls in flight on several communicators at once, interleaved. */
static void overlapping(void)
{
    MPI_Comm half, rev;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_split(MPI_COMM_WORLD, 0, p - rank, &rev);
    MPI_Comm comms[3] = {MPI_COMM_WORLD, half, rev};
    enum { PER = 5 };
    item_t it[3 * PER];
    MPI_Request reqs[3 * PER];
    where = "overlapping communicators";
    for (int k = 0; k < 3 * PER; k++)
        item_make(&it[k], (k * 3 + 1) % NKINDS, size_of(k), k, comms[k % 3]);
    for (int k = 0; k < 3 * PER; k++)
        check(item_start(&it[k], k, comms[k % 3], &reqs[k]) == MPI_SUCCESS, "start of call %d", k);
    complete(reqs, 3 * PER, rank % 2 ? 0 : 1);
    for (int k = 0; k < 3 * PER; k++) {
        check(item_ok(&it[k], k, comms[k % 3]), "result of call %d", k);
        item_free(&it[k]);
    }
    MPI_Comm_free(&half);
    MPI_Comm_free(&rev);
}

/* Blocking collectives (InterCom's and the vendor's) between the start and
 * the completion of nonblocking ones on the same communicator. */
static void mixed_blocking(void)
{
    item_t a, b;
    MPI_Request r[2];
    where = "blocking calls while nonblocking ones are pending";
    item_make(&a, K_ALLREDUCE, 40000, 1, MPI_COMM_WORLD);
    item_make(&b, K_ALLGATHERV, 333, 2, MPI_COMM_WORLD);
    check(item_start(&a, 1, MPI_COMM_WORLD, &r[0]) == MPI_SUCCESS, "start %d", 0);
    long long x = rank + 1, s = 0, s2 = 0;
    check(CALL(Allreduce)(&x, &s, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS,
          "blocking IC_Allreduce %d", 0);
    check(item_start(&b, 2, MPI_COMM_WORLD, &r[1]) == MPI_SUCCESS, "start %d", 1);
    MPI_Allreduce(&x, &s2, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    check(s == (long long)p * (p + 1) / 2 && s2 == s, "blocking sums %d", 0);
    long long bc = rank == 0 ? 42 : 0;
    check(CALL(Bcast)(&bc, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD) == MPI_SUCCESS && bc == 42,
          "blocking IC_Bcast %d", 0);
    MPI_Waitall(2, r, sts);
    check(item_ok(&a, 1, MPI_COMM_WORLD) && item_ok(&b, 2, MPI_COMM_WORLD), "results %d", 0);
    item_free(&a);
    item_free(&b);
}

/* Ranks complete a nonblocking call and make the next blocking call in
 * different orders (legal: only the starts are ordered): even ranks wait
 * first, odd ranks make the blocking call first, whose data come from rank
 * 0, which is waiting.  The odd ranks' blocking call must move their
 * nonblocking call on meanwhile (MPI's progress rule), or nobody returns.
 * A call of several rounds (the ring, where the IC_ calls can force it),
 * of a short vector (the shared-memory channels) and of a long one. */
static void blocking_before_wait(void)
{
    where = "a blocking call before the wait on some ranks";
#ifndef NB_MPI
    IC_Set_algorithm(IC_COLL_ID_ALLREDUCE, "ring");
#endif
    for (int k = 0; k < 2; k++) {
        item_t a;
        MPI_Request r;
        item_make(&a, K_ALLREDUCE, k ? 40000 : 9, 70 + k, MPI_COMM_WORLD);
        check(item_start(&a, 70 + k, MPI_COMM_WORLD, &r) == MPI_SUCCESS, "start %d", k);
        long long bc = rank == 0 ? 42 : 0;
        if (rank % 2 == 0)
            check(MPI_Wait(&r, MPI_STATUS_IGNORE) == MPI_SUCCESS, "the wait first %d", k);
        check(CALL(Bcast)(&bc, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD) == MPI_SUCCESS && bc == 42,
              "the blocking call %d", k);
        if (rank % 2)
            check(MPI_Wait(&r, MPI_STATUS_IGNORE) == MPI_SUCCESS, "the wait after %d", k);
        check(item_ok(&a, 70 + k, MPI_COMM_WORLD), "result %d", k);
        item_free(&a);
    }
#ifndef NB_MPI
    IC_Set_algorithm(IC_COLL_ID_ALLREDUCE, NULL);
#endif
}

/* A communicator freed while calls on it are pending. */
static void freed_comm(void)
{
    MPI_Comm d;
    item_t it[3];
    MPI_Request r[3];
    where = "communicator freed with calls pending";
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    for (int k = 0; k < 3; k++) {
        item_make(&it[k], k == 1 ? K_GATHERV : K_ALLREDUCE, k == 2 ? 120000 : 100, k, d);
        check(item_start(&it[k], k, d, &r[k]) == MPI_SUCCESS, "start %d", k);
    }
    int p2 = p;
    MPI_Comm_free(&d);
    MPI_Comm_size(MPI_COMM_WORLD, &p2);
    MPI_Waitall(3, r, sts);
    for (int k = 0; k < 3; k++) {
        /* the results against the vendor's on a communicator of the same
         * ranks (d is gone) */
        check(item_ok(&it[k], k, MPI_COMM_WORLD), "result %d", k);
        item_free(&it[k]);
    }
    /* a new communicator may get d's handle: it must get a fresh context */
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    long long x = 1, s = 0;
    check(CALL(Allreduce)(&x, &s, 1, MPI_LONG_LONG, MPI_SUM, d) == MPI_SUCCESS && s == p2,
          "a new communicator after it %d", 0);
    MPI_Comm_free(&d);
}

/* Requests themselves: zero counts, bad arguments, status, cancel. */
static void requests(void)
{
    MPI_Request r;
    MPI_Status st;
    int flag = 0, cancelled = 1;
    where = "requests";
    long long x = 0, y = 0;
    check(CALL(Iallreduce)(&x, &y, 0, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, &r) == MPI_SUCCESS &&
              r != MPI_REQUEST_NULL,
          "zero count: a request %d", 0);
#if VENDOR_REQUESTS
    /* SMPI's request completes once the simulation has moved on (at p > 1,
     * a second MPI_Test): MPI asks no more */
    (void)flag;
    check(MPI_Wait(&r, &st) == MPI_SUCCESS && r == MPI_REQUEST_NULL, "zero count: complete %d", 0);
#else
    check(MPI_Test(&r, &flag, &st) == MPI_SUCCESS && flag && r == MPI_REQUEST_NULL,
          "zero count: complete at once %d", 0);
#endif
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
#ifndef NB_MPI /* under the preload this goes to the vendor, which reports it */
    /* a bad argument on every rank: the class at the start, no request */
    r = (MPI_Request)0;
    int rc = CALL(Iallreduce)(&x, &y, -1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, &r);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    check(cls == MPI_ERR_COUNT && r == MPI_REQUEST_NULL, "count -1: MPI_ERR_COUNT %d", cls);
#endif
    /* status of a completed call; MPI_Cancel refused, the call completes */
    x = rank + 1;
    check(CALL(Iallreduce)(&x, &y, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, &r) == MPI_SUCCESS,
          "start %d", 0);
#if !VENDOR_REQUESTS
    check(MPI_Cancel(&r) != MPI_SUCCESS, "MPI_Cancel refused %d", 0);
#endif
    check(MPI_Wait(&r, &st) == MPI_SUCCESS && y == (long long)p * (p + 1) / 2, "result %d", 0);
    MPI_Test_cancelled(&st, &cancelled);
    int count = -1;
    MPI_Get_count(&st, MPI_BYTE, &count);
    check(!cancelled, "status: not cancelled %d", cancelled);
    check(count == 0, "status: %d bytes", count);
#if VENDOR_REQUESTS
    if (rank == 0)
        printf("NOTE: nonblocking: the IC_I* requests are this MPI's own (SimGrid SMPI), which "
               "accepts MPI_Cancel of a collective and completes a zero-count call later: "
               "MPI_Cancel refused and complete at once not checked, nor which plan a "
               "forced IC_Iallreduce ran (none of InterCom's)\n");
#endif
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* One rank passes recvbuf NULL to an allreduce: a mistake only it sees. */
static void one_rank_mistake(void)
{
#if VENDOR_REQUESTS
    /* SMPI's own start at the rank with the NULL buffer fails without
     * taking part, so the others would wait for ever (README: under SMPI a
     * nonblocking call's mistakes are SMPI's to find). */
    if (rank == 0)
        printf("NOTE: nonblocking: the IC_I* calls are SimGrid SMPI's own here, which leave "
               "the others waiting for a rank whose start fails: one rank's mistake not run\n");
    return;
#endif
    enum { N = 50 };
    long long in[N], out[N], ref[N];
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Comm c;
    where = "one rank's mistake";
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    int who = p - 1;
    for (int i = 0; i < N; i++)
        in[i] = val(rank, i, 5);
    PMPI_Allreduce(in, ref, N, MPI_LONG_LONG, MPI_SUM, c);
    int rc = CALL(Iallreduce)(in, rank == who ? NULL : out, N, MPI_LONG_LONG, MPI_SUM, c, &r);
    if (rank == who) {
        int cls = -1;
        MPI_Error_class(rc, &cls);
        check(cls == MPI_ERR_BUFFER && r == MPI_REQUEST_NULL, "its start: MPI_ERR_BUFFER %d", cls);
    } else {
        check(rc == MPI_SUCCESS && MPI_Wait(&r, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
                  memcmp(out, ref, sizeof(out)) == 0,
              "the others: the right result %d", 0);
    }
    /* the communicator is whole: the next call is right everywhere */
    for (int i = 0; i < N; i++)
        out[i] = 0;
    check(CALL(Iallreduce)(in, out, N, MPI_LONG_LONG, MPI_SUM, c, &r) == MPI_SUCCESS &&
              MPI_Wait(&r, MPI_STATUS_IGNORE) == MPI_SUCCESS && memcmp(out, ref, sizeof(out)) == 0,
          "the next call %d", 0);
    MPI_Comm_free(&c);
}

/* Under Open MPI the MPI's own MPI_Start and completion calls serve
 * InterCom's persistent requests (progress.c); elsewhere IC_Start and
 * IC_Wait* do. */
#if defined(OPEN_MPI) || defined(NB_MPI)
#define MPI_SERVES_PERSISTENT 1
#else
#define MPI_SERVES_PERSISTENT 0
#endif
/* ... but not at MPI_THREAD_MULTIPLE, where InterCom's progress thread
 * replaces Open MPI's hook and MPI_Start is seen only by InterCom's own
 * calls (README) */
static int mpi_serves_persistent = MPI_SERVES_PERSISTENT;

#if HAVE_PERSISTENT
/* Persistent calls of every kind, each run many times with new inputs,
 * started and completed in several ways, with other calls between. */
static void persistent(void)
{
    enum { RUNS = 12 };
    item_t it[NKINDS];
    MPI_Request req[NKINDS];
    where = "persistent";
    for (int k = 0; k < NKINDS; k++) {
        item_make(&it[k], k, size_of(k), k, MPI_COMM_WORLD);
        check(item_init(&it[k], k, MPI_COMM_WORLD, &req[k]) == MPI_SUCCESS &&
                  req[k] != MPI_REQUEST_NULL,
              "init of call %d", k);
    }
    for (int run = 0; run < RUNS; run++) {
        for (int k = 0; k < NKINDS; k++)
            item_fill(&it[k], k, run, MPI_COMM_WORLD);
        int way = run % 3;
        if (way == 0) {
            check(CALL(Startall)(NKINDS, req) == MPI_SUCCESS, "IC_Startall, run %d", run);
            check(CALL(Waitall)(NKINDS, req, sts) == MPI_SUCCESS, "IC_Waitall, run %d", run);
        } else if (way == 1 || !mpi_serves_persistent) {
            item_t x;
            MPI_Request xr;
            item_make(&x, K_ALLREDUCE, 1000, 99, MPI_COMM_WORLD);
            for (int k = 0; k < NKINDS; k++) {
                check(CALL(Start)(&req[k]) == MPI_SUCCESS, "IC_Start, run %d", run);
                if (k == 2)
                    check(item_start(&x, 99, MPI_COMM_WORLD, &xr) == MPI_SUCCESS,
                          "a nonblocking call between, run %d", run);
                if (k == 4) {
                    long long b = rank == 0 ? 7 : 0;
                    check(CALL(Bcast)(&b, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD) == MPI_SUCCESS &&
                              b == 7,
                          "a blocking call between, run %d", run);
                }
            }
            for (int done = 0; done < NKINDS; done++) {
                int at = MPI_UNDEFINED;
                check(CALL(Waitany)(NKINDS, req, &at, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
                          at != MPI_UNDEFINED,
                      "IC_Waitany, run %d", run);
            }
            check(CALL(Wait)(&xr, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
                      item_ok(&x, 99, MPI_COMM_WORLD),
                  "the nonblocking call between, run %d", run);
            item_free(&x);
        } else { /* the MPI's own calls only */
            for (int k = 0; k < NKINDS; k++)
                check(MPI_Start(&req[k]) == MPI_SUCCESS, "MPI_Start, run %d", run);
            for (int k = NKINDS - 1; k >= 0; k--)
                check(MPI_Wait(&req[k], MPI_STATUS_IGNORE) == MPI_SUCCESS, "MPI_Wait, run %d", run);
        }
        for (int k = 0; k < NKINDS; k++) {
            check(req[k] != MPI_REQUEST_NULL, "the handle stays, run %d", run);
            check(item_ok(&it[k], k, MPI_COMM_WORLD), "result, run %d", run);
        }
    }
    for (int k = 0; k < NKINDS; k++) {
        check(CALL(Request_free)(&req[k]) == MPI_SUCCESS && req[k] == MPI_REQUEST_NULL,
              "IC_Request_free %d", k);
        item_free(&it[k]);
    }
    /* a communicator freed while a persistent call on it lives */
    MPI_Comm d;
    MPI_Request r;
    item_t a;
    where = "persistent call on a freed communicator";
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    item_make(&a, K_ALLREDUCE, 40000, 3, d);
    check(item_init(&a, 3, d, &r) == MPI_SUCCESS, "init %d", 0);
    MPI_Comm_free(&d);
    for (int run = 0; run < 3; run++) {
        item_fill(&a, 3, run, MPI_COMM_WORLD);
        check(CALL(Start)(&r) == MPI_SUCCESS && CALL(Wait)(&r, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
                  item_ok(&a, 3, MPI_COMM_WORLD),
              "run %d", run);
    }
    /* freed by the MPI's own call: allowed (the plan stays until
     * MPI_Finalize) */
    check(MPI_Request_free(&r) == MPI_SUCCESS && r == MPI_REQUEST_NULL, "MPI_Request_free %d", 0);
    item_free(&a);
    /* a run whose handle is freed while it is under way, with another
     * handle idle (so the engine probes for starts meanwhile): it ends and
     * goes (MPI: its buffers stay the program's until then, which it cannot
     * tell, so they stay for good here) */
    static item_t busy_it, idle_it;
    MPI_Request busy, idle;
    where = "persistent run freed while under way";
    item_make(&busy_it, K_ALLREDUCE, 400000, 5, MPI_COMM_WORLD);
    item_make(&idle_it, K_BCAST, 100, 6, MPI_COMM_WORLD);
    check(item_init(&busy_it, 5, MPI_COMM_WORLD, &busy) == MPI_SUCCESS &&
              item_init(&idle_it, 6, MPI_COMM_WORLD, &idle) == MPI_SUCCESS,
          "inits %d", 0);
    item_fill(&busy_it, 5, 0, MPI_COMM_WORLD);
    check(CALL(Start)(&busy) == MPI_SUCCESS && CALL(Request_free)(&busy) == MPI_SUCCESS,
          "start and free %d", 0);
    for (int k = 0; k < 200; k++) { /* blocking calls run the engine (and its probes) */
        long long x = k;
        check(CALL(Allreduce)(MPI_IN_PLACE, &x, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD) ==
                      MPI_SUCCESS &&
                  x == (long long)k * p,
              "blocking call %d", k);
    }
    check(CALL(Request_free)(&idle) == MPI_SUCCESS, "free the idle handle %d", 0);
}

/* Persistent calls whose buffers go through staging areas (a datatype
 * of absolute addresses at MPI_BOTTOM is packed and unpacked, call.c):
 * every start packs the buffer's contents of that moment and unpacks
 * into it, run after run; an allgatherv's blocks unpacked at negative
 * displacements, in reverse rank order. */
static void persistent_staged(void)
{
    enum { N = 1001, M = 37, RUNS = 4 };
    long long *b = calloc(2 * N, sizeof(long long)), *s = calloc(2 * N, sizeof(long long));
    long long *g = calloc((size_t)p * N, sizeof(long long));
    long long *v = calloc(4 * (size_t)p * M + 2, sizeof(long long)), mine[M];
    long long *mid = v + 2 * (size_t)p * M; /* displacement 0 */
    int *counts = malloc(sizeof(int) * (size_t)p), *displs = malloc(sizeof(int) * (size_t)p);
    MPI_Aint at[3];
    int one = 1, root = p - 1;
    MPI_Datatype vec, tb, ts, every2, tv;
    MPI_Request r[3];
    where = "persistent calls through staging areas";
    MPI_Get_address(b, &at[0]);
    MPI_Get_address(s, &at[1]);
    MPI_Get_address(mid, &at[2]);
    MPI_Type_vector(N, 1, 2, MPI_LONG_LONG, &vec); /* every other element */
    MPI_Type_create_hindexed(1, &one, &at[0], vec, &tb);
    MPI_Type_create_hindexed(1, &one, &at[1], vec, &ts);
    MPI_Type_create_resized(MPI_LONG_LONG, 0, 2 * sizeof(long long), &every2);
    MPI_Type_create_hindexed(1, &one, &at[2], every2, &tv);
    MPI_Type_commit(&tb);
    MPI_Type_commit(&ts);
    MPI_Type_commit(&tv);
    for (int j = 0; j < p; j++) { /* block j at (p - 1 - j - p / 2) M: reversed, around 0 */
        counts[j] = M;
        displs[j] = (p - 1 - j - p / 2) * M;
    }
    check(INIT(Allgatherv_init)(mine, M, MPI_LONG_LONG, MPI_BOTTOM, counts, displs, tv,
                                MPI_COMM_WORLD, MPI_INFO_NULL, &r[2]) == MPI_SUCCESS,
          "init of the allgatherv %d", 0);
    check(INIT(Bcast_init)(MPI_BOTTOM, 1, tb, root, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]) ==
              MPI_SUCCESS,
          "init of the broadcast %d", 0);
    check(INIT(Allgather_init)(MPI_BOTTOM, 1, ts, g, N, MPI_LONG_LONG, MPI_COMM_WORLD,
                               MPI_INFO_NULL, &r[1]) == MPI_SUCCESS,
          "init of the allgather %d", 0);
    for (int run = 0; run < RUNS; run++) {
        for (int i = 0; i < N; i++) {
            b[2 * i] = rank == root ? val(root, i, run) : -1;
            s[2 * i] = val(rank, i, run + 10);
            b[2 * i + 1] = s[2 * i + 1] = -7; /* the gaps stay */
        }
        for (int i = 0; i < M; i++)
            mine[i] = val(rank, i, run + 20);
        for (size_t i = 0; i < 4 * (size_t)p * M + 2; i++)
            v[i] = -7;
        check(CALL(Startall)(3, r) == MPI_SUCCESS && CALL(Waitall)(3, r, sts) == MPI_SUCCESS,
              "run %d", run);
        int ok = 1;
        for (int i = 0; i < N; i++)
            ok &= b[2 * i] == val(root, i, run) && b[2 * i + 1] == -7 && s[2 * i + 1] == -7;
        check(ok, "broadcast, run %d", run);
        ok = 1;
        for (int j = 0; j < p; j++)
            for (int i = 0; i < N; i++)
                ok &= g[(size_t)j * N + i] == val(j, i, run + 10);
        check(ok, "allgather, run %d", run);
        ok = 1;
        for (int j = 0; j < p; j++)
            for (int i = 0; i < M; i++)
                ok &= mid[2 * (displs[j] + i)] == val(j, i, run + 20) &&
                      mid[2 * (displs[j] + i) + 1] == -7;
        ok &= v[0] == -7 && v[4 * (size_t)p * M + 1] == -7;
        check(ok, "allgatherv, run %d", run);
#ifndef NB_MPI
        check(p == 1 || IC_Last_packed_bytes(IC_COLL_ID_ALLGATHER) == N * sizeof(long long),
              "the allgather packed its contribution, run %d", run);
        check(p == 1 || IC_Last_packed_bytes(IC_COLL_ID_ALLGATHERV) == p * M * sizeof(long long),
              "the allgatherv unpacked its result, run %d", run);
#endif
    }
    for (int k = 0; k < 3; k++)
        check(CALL(Request_free)(&r[k]) == MPI_SUCCESS, "free %d", k);
    MPI_Type_free(&vec);
    MPI_Type_free(&tb);
    MPI_Type_free(&ts);
    MPI_Type_free(&every2);
    MPI_Type_free(&tv);
    free(v);
    free(counts);
    free(displs);
    free(b);
    free(s);
    free(g);
}

#ifndef NB_MPI
/* A context keeps the schedules of its last nonblocking calls for the
 * next ones with the same arguments (context.c): a plan forced or released
 * between two such calls must still be the one that runs. */
static void cached_schedules(void)
{
    static const char *plans[] = {"ring", "recursive_doubling", NULL};
    enum { N = 3000 };
    long long *in = malloc(sizeof(long long) * N), *out = malloc(sizeof(long long) * N);
    where = "cached schedules and forced plans";
    for (int round = 0; round < 6; round++) {
        const char *want = plans[round % 3];
        check(IC_Set_algorithm(IC_COLL_ID_ALLREDUCE, want) == MPI_SUCCESS, "force %d", round);
        for (int rep = 0; rep < 2; rep++) {
            MPI_Request r;
            for (int i = 0; i < N; i++)
                in[i] = (long long)(rank + 1) * (i + round + rep);
            check(IC_Iallreduce(in, out, N, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, &r) ==
                          MPI_SUCCESS &&
                      MPI_Wait(&r, MPI_STATUS_IGNORE) == MPI_SUCCESS,
                  "call %d", round);
            int ok = 1;
            for (int i = 0; i < N; i++)
                ok &= out[i] == (long long)p * (p + 1) / 2 * (i + round + rep);
            check(ok, "result %d", round);
            const char *ran = IC_Last_algorithm(IC_COLL_ID_ALLREDUCE);
            /* (SMPI: the call was SMPI's own, no plan of InterCom's ran) */
            check(VENDOR_REQUESTS || p == 1 || !want ||
                      (ran && strncmp(ran, want, strlen(want)) == 0),
                  "the forced plan ran, round %d", round);
        }
    }
    IC_Set_algorithm(IC_COLL_ID_ALLREDUCE, NULL);
    free(in);
    free(out);
}
#endif

/* More persistent calls on one communicator than the shared-memory
 * channels have lanes for (shm.c: the first ones get a lane of their own,
 * the rest go through MPI), of every kind and of short and long vectors,
 * started by each rank in an order of its own (MPI-4 allows it: the inits
 * fix the matching), completed with IC_Waitall, several times. */
static void many_persistent(void)
{
    enum { M = 72, RUNS = 3 };
    item_t *it = malloc(sizeof(item_t) * M);
    MPI_Request *req = malloc(sizeof(MPI_Request) * M);
    MPI_Comm c;
    where = "more persistent calls than lanes";
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    for (int k = 0; k < M; k++) {
        item_make(&it[k], k % NKINDS, size_of(k), k, c);
        check(item_init(&it[k], k, c, &req[k]) == MPI_SUCCESS, "init of call %d", k);
    }
    for (int run = 0; run < RUNS; run++) {
        for (int k = 0; k < M; k++)
            item_fill(&it[k], k, run, c);
        for (int j = 0; j < M; j++) { /* rank r: from call 5r + run on, odd ranks backwards */
            int k = (5 * rank + run + (rank % 2 ? M - j : j)) % M;
            check(CALL(Start)(&req[k]) == MPI_SUCCESS, "IC_Start of call %d", k);
        }
        check(CALL(Waitall)(M, req, sts) == MPI_SUCCESS, "IC_Waitall, run %d", run);
        for (int k = 0; k < M; k++)
            check(item_ok(&it[k], k, c), "result of call %d", k);
    }
    for (int k = 0; k < M; k++) {
        check(CALL(Request_free)(&req[k]) == MPI_SUCCESS, "IC_Request_free %d", k);
        item_free(&it[k]);
    }
    MPI_Comm_free(&c);
    free(it);
    free(req);
}

#endif

int main(int argc, char **argv)
{
    /* INTERCOM_PROGRESS_THREAD=1: everything again with InterCom's progress
     * thread, which needs MPI_THREAD_MULTIPLE */
    const char *pt = getenv("INTERCOM_PROGRESS_THREAD");
    int provided = MPI_THREAD_SINGLE;
    if (pt && *pt && strcmp(pt, "0") != 0)
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    else
        MPI_Init(&argc, &argv);
#ifndef NB_MPI
    if (provided == MPI_THREAD_MULTIPLE)
        mpi_serves_persistent = 0;
#endif
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    wrank = rank;
    for (int way = 0; way < 4; way++) {
        static const char *names[] = {"in flight, MPI_Waitany", "in flight, MPI_Testsome",
                                      "in flight, MPI_Testall", "in flight, MPI_Waitall"};
        mix(MPI_COMM_WORLD, (way + rank) % 4, way * 5, names[(way + rank) % 4]);
    }
    overlapping();
    mixed_blocking();
    blocking_before_wait();
    freed_comm();
    requests();
    one_rank_mistake();
#if HAVE_PERSISTENT
    persistent();
    persistent_staged();
    many_persistent();
#endif
#ifndef NB_MPI
    cached_schedules();
#endif
    int all = 0;
    PMPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%s nonblocking p=%d: %d cases\n", all ? "FAIL:" : "PASS:", p, ncases);
    MPI_Finalize();
    return all != 0;
}
