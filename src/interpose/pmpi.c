/*
 * pmpi.c -- libintercom-pmpi: MPI_Bcast, MPI_Reduce, MPI_Allreduce,
 * MPI_Allgather(v), MPI_Reduce_scatter(_block), MPI_Scatter(v),
 * MPI_Gather(v) and MPI_Barrier served by InterCom for unmodified MPI
 * programs (LD_PRELOAD, or linked before the MPI library).
 *
 * Each call goes to the IC_ function of the same name, or unchanged to the
 * PMPI_ function of the vendor MPI when InterCom must not or cannot serve
 * it.  The tests, in order (the first that applies is the reason the report
 * gives):
 *   - the call comes from inside InterCom (an error handler, a user op):
 *     vendor, so the library never recurses into itself;
 *   - MPI is not initialised, or already finalised: vendor (MPI's own
 *     behaviour for such calls);
 *   - MPI_COMM_NULL or an intercommunicator: vendor;
 *   - invalid arguments among those MPI requires to agree across the
 *     ranks (negative count, null datatype or op, root out of range; see
 *     "routing decisions" below): vendor, so the program sees the vendor's
 *     own error report;
 *   - the operation is disabled (INTERCOM_DISABLE=all or a comma list such
 *     as bcast,allreduce): vendor.
 * At MPI_THREAD_MULTIPLE InterCom serves calls from several threads at once
 * on different communicators (MPI forbids concurrent collectives on one);
 * the flag `nested` is per thread.
 * All these tests read only what every rank of a communicator agrees on,
 * so all ranks take the same path.  Where the MPI has MPI-4's large-count
 * calls (MPI_Bcast_c, ...), those are served the same way.
 *
 * InterCom raises its own errors through the communicator's error handler
 * as MPI does (MPI_ERRORS_RETURN: the code is returned).
 *
 * INTERCOM_REPORT=1 (or INTERCOM_REPORT_FILE=PATH) prints, in MPI_Finalize,
 * one table from rank 0 of MPI_COMM_WORLD with the calls of all ranks per
 * operation: calls, the InterCom/vendor split, bytes, time spent inside,
 * the algorithms InterCom chose and why calls went to the vendor.
 */
#include "config.h"
#include "interpose.h"
#include "ic_internal.h"

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#if defined(OPEN_MPI)
#include <mpi-ext.h>
#endif

/* The vendor's persistent collectives: MPI-4's, or Open MPI's extension
 * (MPIX_, before MPI-4); without either, no _init call is intercepted. */
#if MPI_VERSION >= 4
#define ICP_HAVE_INIT 1
#define ICP_VENDOR_INIT(name) PMPI_##name
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
#define ICP_HAVE_INIT 1
#define ICP_VENDOR_INIT(name) PMPIX_##name
#endif

/* ------------------------------------------------------------- reasons */

enum {
    ICP_WHY_NESTED,
    ICP_WHY_STATE,
    ICP_WHY_COMM,
    ICP_WHY_INTER,
    ICP_WHY_ARGS,
    ICP_WHY_DISABLED,
    ICP_NWHY,
    ICP_WHY_NONE = -1
};

static const char *const why_text[ICP_NWHY] = {
    "called from inside InterCom",
    "called before MPI_Init or after MPI_Finalize",
    "MPI_COMM_NULL or invalid communicator",
    "intercommunicator",
    "invalid arguments (the MPI reports the error)",
    "disabled by INTERCOM_DISABLE",
};

/* Indexed by IC_Coll. */
static const char *const op_name[IC_COLL_ID_COUNT] = {
    "MPI_Bcast",
    "MPI_Reduce",
    "MPI_Allreduce",
    "MPI_Allgather",
    "MPI_Allgatherv",
    "MPI_Reduce_scatter",
    "MPI_Reduce_scatter_block",
    "MPI_Scatter",
    "MPI_Scatterv",
    "MPI_Gather",
    "MPI_Gatherv",
    "MPI_Barrier",
};

/* ---------------------------------------------------------- statistics */

#define ICP_MAX_ALG 32

/* One operation on this process; only uint64_t members, so that the table
 * of all operations reduces as one array of MPI_UINT64_T. */
typedef struct op_stats {
    uint64_t calls;            /* all calls                                 */
    uint64_t ic;               /* served by InterCom                        */
    uint64_t bytes;            /* data of the calls with valid arguments    */
    uint64_t ns;               /* time inside the call                      */
    uint64_t why[ICP_NWHY];    /* calls passed to the vendor, by reason     */
    uint64_t alg[ICP_MAX_ALG]; /* InterCom calls by registry algorithm      */
    uint64_t alg_none;         /* InterCom calls that moved no data         */
    uint64_t alg_other;        /* algorithm not found in the registry list  */
} op_stats_t;

static op_stats_t stats[IC_COLL_ID_COUNT];

/* Relaxed atomic adds: under MPI_THREAD_MULTIPLE several threads count. */
static void add(uint64_t *x, uint64_t v)
{
    __atomic_fetch_add(x, v, __ATOMIC_RELAXED);
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------- settings */

static struct {
    int disabled[IC_COLL_ID_COUNT];
    int report;
    const char *report_file;
    char unknown[256]; /* INTERCOM_DISABLE entries that name no operation */
} cfg;

static pthread_once_t cfg_once = PTHREAD_ONCE_INIT;
static pthread_once_t mpi_once = PTHREAD_ONCE_INIT;
static _Thread_local int nested; /* inside an IC_ call on this thread */

/* Does `tok` (n characters) name operation `op`?  Case does not matter and
 * the MPI_ prefix is optional: bcast, MPI_Bcast, REDUCE_SCATTER_BLOCK. */
static int names_op(const char *tok, size_t n, int op)
{
    const char *name = op_name[op] + 4;
    if (n > 4 && strncasecmp(tok, "mpi_", 4) == 0) {
        tok += 4;
        n -= 4;
    }
    return strlen(name) == n && strncasecmp(tok, name, n) == 0;
}

static void read_config(void)
{
    const char *r = getenv("INTERCOM_REPORT");
    cfg.report = r && *r && strcmp(r, "0") != 0;
    const char *f = getenv("INTERCOM_REPORT_FILE");
    if (f && *f) {
        cfg.report = 1;
        cfg.report_file = f;
    }
    const char *d = getenv("INTERCOM_DISABLE");
    while (d && *d) {
        size_t n = strcspn(d, ", \t");
        if (n == 3 && strncasecmp(d, "all", 3) == 0) {
            for (int op = 0; op < IC_COLL_ID_COUNT; op++)
                cfg.disabled[op] = 1;
        } else if (n > 0) {
            int found = 0;
            for (int op = 0; op < IC_COLL_ID_COUNT; op++)
                if (names_op(d, n, op))
                    cfg.disabled[op] = found = 1;
            size_t used = strlen(cfg.unknown);
            if (!found && used + n + 3 < sizeof(cfg.unknown))
                snprintf(cfg.unknown + used, sizeof(cfg.unknown) - used, "%s'%.*s'",
                         used ? ", " : "", (int)n, d);
        }
        d += n;
        d += strspn(d, ", \t");
    }
}

/* Once MPI is initialised: the warning about INTERCOM_DISABLE entries that
 * name no operation. */
static void mpi_setup(void)
{
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (cfg.unknown[0] && rank == 0)
        fprintf(stderr,
                "InterCom: INTERCOM_DISABLE: ignoring %s (not an operation; use all or a comma "
                "list such as bcast,allreduce,reduce_scatter_block)\n",
                cfg.unknown);
}

/* ------------------------------------------------------- one call's path */

typedef struct icp_call {
    IC_Coll op;
    int why;     /* reason for the vendor path, ICP_WHY_NONE when InterCom runs */
    int entered; /* InterCom runs the call                                       */
    int rank, size;
    uint64_t bytes;
    uint64_t t0;
} icp_call_t;

static int decline(icp_call_t *k, int why)
{
    k->why = why;
    return 0;
}

/* Common tests before the arguments: may InterCom look at this call? */
static int icp_begin(icp_call_t *k, IC_Coll op, MPI_Comm comm)
{
    pthread_once(&cfg_once, read_config);
    memset(k, 0, sizeof(*k));
    k->op = op;
    k->why = ICP_WHY_NONE;
    if (cfg.report)
        k->t0 = now_ns();
    if (nested)
        return decline(k, ICP_WHY_NESTED);
    int init = 0, fin = 0;
    PMPI_Initialized(&init);
    PMPI_Finalized(&fin);
    if (!init || fin)
        return decline(k, ICP_WHY_STATE);
    pthread_once(&mpi_once, mpi_setup);
    int inter = 0;
    if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS ||
        PMPI_Comm_rank(comm, &k->rank) != MPI_SUCCESS ||
        PMPI_Comm_size(comm, &k->size) != MPI_SUCCESS)
        return decline(k, ICP_WHY_COMM);
    if (inter)
        return decline(k, ICP_WHY_INTER);
    return 1;
}

/* The arguments are valid as far as InterCom needs to know. */
static int icp_valid(icp_call_t *k, int ok)
{
    return ok ? 1 : decline(k, ICP_WHY_ARGS);
}

/* Final tests; on success InterCom runs the call (of `bytes` bytes, for
 * the report). */
static int icp_ready(icp_call_t *k, uint64_t bytes)
{
    k->bytes = bytes;
    if (cfg.disabled[k->op])
        return decline(k, ICP_WHY_DISABLED);
    k->entered = 1;
    nested = 1;
    if (cfg.report)
        ic_record_last((ic_coll_t)k->op, NULL, 0); /* "" unless an algorithm runs */
    return 1;
}

static void count_algorithm(op_stats_t *s, IC_Coll op)
{
    const char *name = IC_Last_algorithm(op);
    if (!name || !*name) {
        add(&s->alg_none, 1);
        return;
    }
    int n = IC_Algorithm_count(op);
    for (int i = 0; i < n; i++) {
        const char *a = IC_Algorithm_name(op, i);
        if (a == name || (a && strcmp(a, name) == 0)) {
            add(i < ICP_MAX_ALG ? &s->alg[i] : &s->alg_other, 1);
            return;
        }
    }
    add(&s->alg_other, 1);
}

static int icp_end(icp_call_t *k, int rc)
{
    if (k->entered)
        nested = 0;
    if (!cfg.report)
        return rc;
    op_stats_t *s = &stats[k->op];
    add(&s->calls, 1);
    add(&s->bytes, k->bytes);
    add(&s->ns, now_ns() - k->t0);
    if (k->entered) {
        add(&s->ic, 1);
        count_algorithm(s, k->op);
    } else {
        add(&s->why[k->why], 1);
    }
    return rc;
}

/* ------------------------------------------------------ argument helpers */

static uint64_t tsize(MPI_Datatype t)
{
    int s = 0;
    if (t == MPI_DATATYPE_NULL || PMPI_Type_size(t, &s) != MPI_SUCCESS || s < 0)
        return 0;
    return (uint64_t)s;
}

static int root_ok(const icp_call_t *k, int root)
{
    return root >= 0 && root < k->size;
}

/* Per-rank counts, int (MPI_) or MPI_Count (MPI_..._c). */
typedef struct icp_counts {
    const int *i;
    const MPI_Count *c;
} icp_counts_t;

static icp_counts_t counts_int(const int *x)
{
    icp_counts_t v = {x, NULL};
    return v;
}

/* All n counts are there and non-negative; *sum gets their sum. */
static int counts_ok(icp_counts_t v, int n, uint64_t *sum)
{
    *sum = 0;
    if (!v.i && !v.c)
        return 0;
    for (int i = 0; i < n; i++) {
        long long x = v.i ? v.i[i] : (long long)v.c[i];
        if (x < 0)
            return 0;
        *sum += (uint64_t)x;
    }
    return 1;
}

#define ICP_TYPE_OK(t) ((t) != MPI_DATATYPE_NULL)

/* ===================================================== routing decisions
 *
 * Whether InterCom serves a call is decided from the arguments that MPI
 * requires every rank to agree on -- the communicator, the root, the
 * amount of data in each block (a count and a datatype that describe it),
 * the op -- never from arguments that only some ranks see (buffers,
 * MPI_IN_PLACE, a rank's own datatype, the root's receive or send side in
 * the gather and scatter family), so that all ranks take the same path.
 * InterCom itself handles the mistakes only some ranks make (collectives.c: that
 * rank takes its part and reports the error), so a mistake in those goes
 * to InterCom too.  A mistake in the agreed arguments goes to the vendor,
 * which reports it in its own words.  Each route function runs the tests
 * and returns 1 when InterCom serves the call. */

static int route_bcast(icp_call_t *k, MPI_Comm comm, long long count, MPI_Datatype type, int root)
{
    return icp_begin(k, IC_COLL_ID_BCAST, comm) &&
           icp_valid(k, count >= 0 && ICP_TYPE_OK(type) && root_ok(k, root)) &&
           icp_ready(k, (uint64_t)count * tsize(type));
}

static int route_reduction(icp_call_t *k, IC_Coll op_id, MPI_Comm comm, long long count,
                           MPI_Datatype type, MPI_Op op, int root)
{
    return icp_begin(k, op_id, comm) &&
           icp_valid(k, count >= 0 && ICP_TYPE_OK(type) && op != MPI_OP_NULL &&
                            (root < 0 || root_ok(k, root))) &&
           icp_ready(k, (uint64_t)count * tsize(type));
}

static int route_reduce_scatter(icp_call_t *k, MPI_Comm comm, icp_counts_t recvcounts,
                                MPI_Datatype type, MPI_Op op)
{
    uint64_t total = 0;
    return icp_begin(k, IC_COLL_ID_REDUCE_SCATTER, comm) &&
           icp_valid(k, counts_ok(recvcounts, k->size, &total) && ICP_TYPE_OK(type) &&
                            op != MPI_OP_NULL) &&
           icp_ready(k, total * tsize(type));
}

static int route_reduce_scatter_block(icp_call_t *k, MPI_Comm comm, long long recvcount,
                                      MPI_Datatype type, MPI_Op op)
{
    return icp_begin(k, IC_COLL_ID_REDUCE_SCATTER_BLOCK, comm) &&
           icp_valid(k, recvcount >= 0 && ICP_TYPE_OK(type) && op != MPI_OP_NULL) &&
           icp_ready(k, (uint64_t)recvcount * (uint64_t)k->size * tsize(type));
}

/* Allgather: the block is recvcount x recvtype on every rank. */
static int route_allgather(icp_call_t *k, MPI_Comm comm, long long recvcount, MPI_Datatype recvtype)
{
    return icp_begin(k, IC_COLL_ID_ALLGATHER, comm) &&
           icp_valid(k, recvcount >= 0 && ICP_TYPE_OK(recvtype)) &&
           icp_ready(k, (uint64_t)recvcount * tsize(recvtype) * (uint64_t)k->size);
}

static int route_allgatherv(icp_call_t *k, MPI_Comm comm, icp_counts_t recvcounts,
                            MPI_Datatype recvtype)
{
    uint64_t total = 0;
    return icp_begin(k, IC_COLL_ID_ALLGATHERV, comm) &&
           icp_valid(k, counts_ok(recvcounts, k->size, &total) && ICP_TYPE_OK(recvtype)) &&
           icp_ready(k, total * tsize(recvtype));
}

/* Gather and scatter: the block is the `own` side's count x type (the
 * send side of a gather, the receive side of a scatter), or the root's
 * other side when the root works in place. */
static int route_rooted(icp_call_t *k, IC_Coll op_id, MPI_Comm comm, int root, int in_place,
                        long long own, MPI_Datatype own_type, long long other,
                        MPI_Datatype other_type)
{
    if (!icp_begin(k, op_id, comm) || !icp_valid(k, root_ok(k, root)))
        return 0;
    int ip = in_place && k->rank == root;
    long long n = ip ? other : own;
    MPI_Datatype t = ip ? other_type : own_type;
    return icp_valid(k, n >= 0 && ICP_TYPE_OK(t)) &&
           icp_ready(k, (uint64_t)n * tsize(t) * (uint64_t)k->size);
}

/* Gatherv and scatterv: only the root knows the blocks; InterCom handles
 * every mistake but the root's range.  Bytes: all blocks at the root,
 * the own block elsewhere. */
static int route_rooted_v(icp_call_t *k, IC_Coll op_id, MPI_Comm comm, int root,
                          icp_counts_t counts, MPI_Datatype root_type, long long own,
                          MPI_Datatype own_type)
{
    if (!icp_begin(k, op_id, comm) || !icp_valid(k, root_ok(k, root)))
        return 0;
    uint64_t total = 0;
    if (k->rank == root)
        total = counts_ok(counts, k->size, &total) ? total * tsize(root_type) : 0;
    else
        total = own > 0 ? (uint64_t)own * tsize(own_type) : 0;
    return icp_ready(k, total);
}

/* =========================================================== collectives */

int ic_pmpi_bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    icp_call_t k;
    int rc = route_bcast(&k, comm, count, datatype, root)
                 ? IC_Bcast(buffer, count, datatype, root, comm)
                 : PMPI_Bcast(buffer, count, datatype, root, comm);
    return icp_end(&k, rc);
}

int ic_pmpi_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   int root, MPI_Comm comm)
{
    icp_call_t k;
    int rc = route_reduction(&k, IC_COLL_ID_REDUCE, comm, count, datatype, op, root)
                 ? IC_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm)
                 : PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
    return icp_end(&k, rc);
}

int ic_pmpi_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm)
{
    icp_call_t k;
    int rc = route_reduction(&k, IC_COLL_ID_ALLREDUCE, comm, count, datatype, op, -1)
                 ? IC_Allreduce(sendbuf, recvbuf, count, datatype, op, comm)
                 : PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
    return icp_end(&k, rc);
}

int ic_pmpi_reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    icp_call_t k;
    int rc = route_reduce_scatter(&k, comm, counts_int(recvcounts), datatype, op)
                 ? IC_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm)
                 : PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
    return icp_end(&k, rc);
}

int ic_pmpi_reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    icp_call_t k;
    int rc = route_reduce_scatter_block(&k, comm, recvcount, datatype, op)
                 ? IC_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm)
                 : PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
    return icp_end(&k, rc);
}

int ic_pmpi_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    icp_call_t k;
    int rc = route_allgather(&k, comm, recvcount, recvtype)
                 ? IC_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm)
                 : PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    return icp_end(&k, rc);
}

int ic_pmpi_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                       MPI_Comm comm)
{
    icp_call_t k;
    int rc = route_allgatherv(&k, comm, counts_int(recvcounts), recvtype)
                 ? IC_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                 recvtype, comm)
                 : PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                   recvtype, comm);
    return icp_end(&k, rc);
}

int ic_pmpi_gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    icp_call_t k;
    int rc =
        route_rooted(&k, IC_COLL_ID_GATHER, comm, root, sendbuf == MPI_IN_PLACE, sendcount,
                     sendtype, recvcount, recvtype)
            ? IC_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm)
            : PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    return icp_end(&k, rc);
}

int ic_pmpi_scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    icp_call_t k;
    int rc =
        route_rooted(&k, IC_COLL_ID_SCATTER, comm, root, recvbuf == MPI_IN_PLACE, recvcount,
                     recvtype, sendcount, sendtype)
            ? IC_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm)
            : PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    return icp_end(&k, rc);
}

int ic_pmpi_gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                    MPI_Comm comm)
{
    icp_call_t k;
    int rc = route_rooted_v(&k, IC_COLL_ID_GATHERV, comm, root, counts_int(recvcounts), recvtype,
                            sendcount, sendtype)
                 ? IC_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                              root, comm)
                 : PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                                root, comm);
    return icp_end(&k, rc);
}

int ic_pmpi_scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                     MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                     int root, MPI_Comm comm)
{
    icp_call_t k;
    int rc = route_rooted_v(&k, IC_COLL_ID_SCATTERV, comm, root, counts_int(sendcounts), sendtype,
                            recvcount, recvtype)
                 ? IC_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                               root, comm)
                 : PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                 recvtype, root, comm);
    return icp_end(&k, rc);
}

int ic_pmpi_barrier(MPI_Comm comm)
{
    icp_call_t k;
    int rc = icp_begin(&k, IC_COLL_ID_BARRIER, comm) && icp_ready(&k, 0) ? IC_Barrier(comm)
                                                                         : PMPI_Barrier(comm);
    return icp_end(&k, rc);
}

#ifdef IC_HAVE_LARGE_COUNT
/* ------------------------------------------ MPI-4 large-count collectives */

static icp_counts_t counts_big(const MPI_Count *x)
{
    icp_counts_t v = {NULL, x};
    return v;
}

int MPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    icp_call_t k;
    int rc = route_bcast(&k, comm, count, datatype, root)
                 ? IC_Bcast_c(buffer, count, datatype, root, comm)
                 : PMPI_Bcast_c(buffer, count, datatype, root, comm);
    return icp_end(&k, rc);
}

int MPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, int root, MPI_Comm comm)
{
    icp_call_t k;
    int rc = route_reduction(&k, IC_COLL_ID_REDUCE, comm, count, datatype, op, root)
                 ? IC_Reduce_c(sendbuf, recvbuf, count, datatype, op, root, comm)
                 : PMPI_Reduce_c(sendbuf, recvbuf, count, datatype, op, root, comm);
    return icp_end(&k, rc);
}

int MPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm)
{
    icp_call_t k;
    int rc = route_reduction(&k, IC_COLL_ID_ALLREDUCE, comm, count, datatype, op, -1)
                 ? IC_Allreduce_c(sendbuf, recvbuf, count, datatype, op, comm)
                 : PMPI_Allreduce_c(sendbuf, recvbuf, count, datatype, op, comm);
    return icp_end(&k, rc);
}

int MPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    icp_call_t k;
    int rc = route_reduce_scatter(&k, comm, counts_big(recvcounts), datatype, op)
                 ? IC_Reduce_scatter_c(sendbuf, recvbuf, recvcounts, datatype, op, comm)
                 : PMPI_Reduce_scatter_c(sendbuf, recvbuf, recvcounts, datatype, op, comm);
    return icp_end(&k, rc);
}

int MPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    icp_call_t k;
    int rc = route_reduce_scatter_block(&k, comm, recvcount, datatype, op)
                 ? IC_Reduce_scatter_block_c(sendbuf, recvbuf, recvcount, datatype, op, comm)
                 : PMPI_Reduce_scatter_block_c(sendbuf, recvbuf, recvcount, datatype, op, comm);
    return icp_end(&k, rc);
}

int MPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    icp_call_t k;
    int rc =
        route_allgather(&k, comm, recvcount, recvtype)
            ? IC_Allgather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm)
            : PMPI_Allgather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    return icp_end(&k, rc);
}

int MPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                     MPI_Comm comm)
{
    icp_call_t k;
    int rc = route_allgatherv(&k, comm, counts_big(recvcounts), recvtype)
                 ? IC_Allgatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                   recvtype, comm)
                 : PMPI_Allgatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                     recvtype, comm);
    return icp_end(&k, rc);
}

int MPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                 MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    icp_call_t k;
    int rc =
        route_rooted(&k, IC_COLL_ID_GATHER, comm, root, sendbuf == MPI_IN_PLACE, sendcount,
                     sendtype, recvcount, recvtype)
            ? IC_Gather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm)
            : PMPI_Gather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    return icp_end(&k, rc);
}

int MPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    icp_call_t k;
    int rc =
        route_rooted(&k, IC_COLL_ID_SCATTER, comm, root, recvbuf == MPI_IN_PLACE, recvcount,
                     recvtype, sendcount, sendtype)
            ? IC_Scatter_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm)
            : PMPI_Scatter_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                             comm);
    return icp_end(&k, rc);
}

int MPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                  int root, MPI_Comm comm)
{
    icp_call_t k;
    int rc = route_rooted_v(&k, IC_COLL_ID_GATHERV, comm, root, counts_big(recvcounts), recvtype,
                            sendcount, sendtype)
                 ? IC_Gatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                                root, comm)
                 : PMPI_Gatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                  recvtype, root, comm);
    return icp_end(&k, rc);
}

int MPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm)
{
    icp_call_t k;
    int rc = route_rooted_v(&k, IC_COLL_ID_SCATTERV, comm, root, counts_big(sendcounts), sendtype,
                            recvcount, recvtype)
                 ? IC_Scatterv_c(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                 recvtype, root, comm)
                 : PMPI_Scatterv_c(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                   recvtype, root, comm);
    return icp_end(&k, rc);
}
#endif

/* ==================================================== nonblocking calls
 *
 * MPI_I<op>: routed as the blocking call (the same agreed arguments), to
 * InterCom's nonblocking call or the vendor's. */

int ic_pmpi_ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   MPI_Request *request)
{
    icp_call_t k;
    int rc = route_bcast(&k, comm, count, datatype, root)
                 ? IC_Ibcast(buffer, count, datatype, root, comm, request)
                 : PMPI_Ibcast(buffer, count, datatype, root, comm, request);
    return icp_end(&k, rc);
}

int ic_pmpi_ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    int root, MPI_Comm comm, MPI_Request *request)
{
    icp_call_t k;
    int rc = route_reduction(&k, IC_COLL_ID_REDUCE, comm, count, datatype, op, root)
                 ? IC_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request)
                 : PMPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request);
    return icp_end(&k, rc);
}

int ic_pmpi_iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    icp_call_t k;
    int rc = route_reduction(&k, IC_COLL_ID_ALLREDUCE, comm, count, datatype, op, -1)
                 ? IC_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request)
                 : PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request);
    return icp_end(&k, rc);
}

int ic_pmpi_ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    icp_call_t k;
    int rc = route_reduce_scatter(&k, comm, counts_int(recvcounts), datatype, op)
                 ? IC_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request)
                 : PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
    return icp_end(&k, rc);
}

int ic_pmpi_ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                  MPI_Request *request)
{
    icp_call_t k;
    int rc =
        route_reduce_scatter_block(&k, comm, recvcount, datatype, op)
            ? IC_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request)
            : PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request);
    return icp_end(&k, rc);
}

int ic_pmpi_iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    icp_call_t k;
    int rc = route_allgather(&k, comm, recvcount, recvtype)
                 ? IC_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                 request)
                 : PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                   request);
    return icp_end(&k, rc);
}

int ic_pmpi_iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                        MPI_Comm comm, MPI_Request *request)
{
    icp_call_t k;
    int rc = route_allgatherv(&k, comm, counts_int(recvcounts), recvtype)
                 ? IC_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                  recvtype, comm, request)
                 : PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                    recvtype, comm, request);
    return icp_end(&k, rc);
}

int ic_pmpi_igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    MPI_Request *request)
{
    icp_call_t k;
    int rc = route_rooted(&k, IC_COLL_ID_GATHER, comm, root, sendbuf == MPI_IN_PLACE, sendcount,
                          sendtype, recvcount, recvtype)
                 ? IC_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                              comm, request)
                 : PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                                comm, request);
    return icp_end(&k, rc);
}

int ic_pmpi_iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     MPI_Request *request)
{
    icp_call_t k;
    int rc = route_rooted(&k, IC_COLL_ID_SCATTER, comm, root, recvbuf == MPI_IN_PLACE, recvcount,
                          recvtype, sendcount, sendtype)
                 ? IC_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                               comm, request)
                 : PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                                 comm, request);
    return icp_end(&k, rc);
}

int ic_pmpi_igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                     MPI_Comm comm, MPI_Request *request)
{
    icp_call_t k;
    int rc = route_rooted_v(&k, IC_COLL_ID_GATHERV, comm, root, counts_int(recvcounts), recvtype,
                            sendcount, sendtype)
                 ? IC_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                               root, comm, request)
                 : PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                 recvtype, root, comm, request);
    return icp_end(&k, rc);
}

int ic_pmpi_iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                      MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                      int root, MPI_Comm comm, MPI_Request *request)
{
    icp_call_t k;
    int rc = route_rooted_v(&k, IC_COLL_ID_SCATTERV, comm, root, counts_int(sendcounts), sendtype,
                            recvcount, recvtype)
                 ? IC_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                                root, comm, request)
                 : PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                  recvtype, root, comm, request);
    return icp_end(&k, rc);
}

int ic_pmpi_ibarrier(MPI_Comm comm, MPI_Request *request)
{
    icp_call_t k;
    int rc = icp_begin(&k, IC_COLL_ID_BARRIER, comm) && icp_ready(&k, 0)
                 ? IC_Ibarrier(comm, request)
                 : PMPI_Ibarrier(comm, request);
    return icp_end(&k, rc);
}

/* ===================================================== persistent calls
 *
 * MPI-4's MPI_<op>_init, and Open MPI's MPIX_<op>_init (its extension
 * pcollreq, before MPI-4), routed as the blocking call to InterCom's
 * persistent call or the vendor's.  InterCom's handles are started and
 * completed through the calls below. */
#if defined(ICP_HAVE_INIT)

int ic_pmpi_bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                       MPI_Info info, MPI_Request *request)
{
    icp_call_t k;
    int rc = route_bcast(&k, comm, count, datatype, root)
                 ? IC_Bcast_init(buffer, count, datatype, root, comm, info, request)
                 : ICP_VENDOR_INIT(Bcast_init)(buffer, count, datatype, root, comm, info, request);
    return icp_end(&k, rc);
}

int ic_pmpi_reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    icp_call_t k;
    int rc = route_reduction(&k, IC_COLL_ID_REDUCE, comm, count, datatype, op, root)
                 ? IC_Reduce_init(sendbuf, recvbuf, count, datatype, op, root, comm, info, request)
                 : ICP_VENDOR_INIT(Reduce_init)(sendbuf, recvbuf, count, datatype, op, root, comm,
                                                info, request);
    return icp_end(&k, rc);
}

int ic_pmpi_allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    icp_call_t k;
    int rc = route_reduction(&k, IC_COLL_ID_ALLREDUCE, comm, count, datatype, op, -1)
                 ? IC_Allreduce_init(sendbuf, recvbuf, count, datatype, op, comm, info, request)
                 : ICP_VENDOR_INIT(Allreduce_init)(sendbuf, recvbuf, count, datatype, op, comm,
                                                   info, request);
    return icp_end(&k, rc);
}

int ic_pmpi_reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                MPI_Request *request)
{
    icp_call_t k;
    int rc = route_reduce_scatter(&k, comm, counts_int(recvcounts), datatype, op)
                 ? IC_Reduce_scatter_init(sendbuf, recvbuf, recvcounts, datatype, op, comm, info,
                                          request)
                 : ICP_VENDOR_INIT(Reduce_scatter_init)(sendbuf, recvbuf, recvcounts, datatype, op,
                                                        comm, info, request);
    return icp_end(&k, rc);
}

int ic_pmpi_reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                      MPI_Info info, MPI_Request *request)
{
    icp_call_t k;
    int rc = route_reduce_scatter_block(&k, comm, recvcount, datatype, op)
                 ? IC_Reduce_scatter_block_init(sendbuf, recvbuf, recvcount, datatype, op, comm,
                                                info, request)
                 : ICP_VENDOR_INIT(Reduce_scatter_block_init)(sendbuf, recvbuf, recvcount, datatype,
                                                              op, comm, info, request);
    return icp_end(&k, rc);
}

int ic_pmpi_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                           MPI_Request *request)
{
    icp_call_t k;
    int rc = route_allgather(&k, comm, recvcount, recvtype)
                 ? IC_Allgather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                     comm, info, request)
                 : ICP_VENDOR_INIT(Allgather_init)(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                   recvtype, comm, info, request);
    return icp_end(&k, rc);
}

int ic_pmpi_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                            MPI_Request *request)
{
    icp_call_t k;
    int rc =
        route_allgatherv(&k, comm, counts_int(recvcounts), recvtype)
            ? IC_Allgatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                 recvtype, comm, info, request)
            : ICP_VENDOR_INIT(Allgatherv_init)(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                               displs, recvtype, comm, info, request);
    return icp_end(&k, rc);
}

int ic_pmpi_gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    icp_call_t k;
    int rc = route_rooted(&k, IC_COLL_ID_GATHER, comm, root, sendbuf == MPI_IN_PLACE, sendcount,
                          sendtype, recvcount, recvtype)
                 ? IC_Gather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                                  comm, info, request)
                 : ICP_VENDOR_INIT(Gather_init)(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                recvtype, root, comm, info, request);
    return icp_end(&k, rc);
}

int ic_pmpi_scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                         MPI_Info info, MPI_Request *request)
{
    icp_call_t k;
    int rc = route_rooted(&k, IC_COLL_ID_SCATTER, comm, root, recvbuf == MPI_IN_PLACE, recvcount,
                          recvtype, sendcount, sendtype)
                 ? IC_Scatter_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                                   comm, info, request)
                 : ICP_VENDOR_INIT(Scatter_init)(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                 recvtype, root, comm, info, request);
    return icp_end(&k, rc);
}

int ic_pmpi_gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                         int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    icp_call_t k;
    int rc = route_rooted_v(&k, IC_COLL_ID_GATHERV, comm, root, counts_int(recvcounts), recvtype,
                            sendcount, sendtype)
                 ? IC_Gatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                   recvtype, root, comm, info, request)
                 : ICP_VENDOR_INIT(Gatherv_init)(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                                 displs, recvtype, root, comm, info, request);
    return icp_end(&k, rc);
}

int ic_pmpi_scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                          MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    icp_call_t k;
    int rc = route_rooted_v(&k, IC_COLL_ID_SCATTERV, comm, root, counts_int(sendcounts), sendtype,
                            recvcount, recvtype)
                 ? IC_Scatterv_init(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                    recvtype, root, comm, info, request)
                 : ICP_VENDOR_INIT(Scatterv_init)(sendbuf, sendcounts, displs, sendtype, recvbuf,
                                                  recvcount, recvtype, root, comm, info, request);
    return icp_end(&k, rc);
}

int ic_pmpi_barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    icp_call_t k;
    int rc = icp_begin(&k, IC_COLL_ID_BARRIER, comm) && icp_ready(&k, 0)
                 ? IC_Barrier_init(comm, info, request)
                 : ICP_VENDOR_INIT(Barrier_init)(comm, info, request);
    return icp_end(&k, rc);
}
#endif

/* ======================================================= completion calls
 *
 * MPI_Start(all) start InterCom's persistent calls (progress.c, "Persistent
 * calls"); MPI_Request_free frees their plans; the waits and tests move
 * InterCom's pending calls on while they wait (under Open MPI its progress
 * loop does that too; under MPICH nothing else does for persistent calls).
 * With nothing of InterCom's pending, and inside InterCom itself, they are
 * the vendor's calls unchanged. */

/* Pass straight to the vendor? */
static int icp_plain(void)
{
    return nested || (!ic_npending && !ic_npersist) || ic_progress_busy();
}

int MPI_Start(MPI_Request *request)
{
    ic_call_state_t *st = !nested && ic_npersist && request ? ic_persist_find(*request) : NULL;
    if (!st)
        return PMPI_Start(request);
    nested = 1;
    int rc = IC_Start(request);
    nested = 0;
    return rc;
}

int MPI_Startall(int count, MPI_Request requests[])
{
    int rc = MPI_SUCCESS;
    for (int i = 0; i < count && rc == MPI_SUCCESS; i++)
        rc = MPI_Start(&requests[i]);
    return rc;
}

int MPI_Request_free(MPI_Request *request)
{
    ic_call_state_t *st = !nested && ic_npersist && request ? ic_persist_find(*request) : NULL;
    if (st)
        ic_persist_drop(st);
    return PMPI_Request_free(request);
}

/* Each is InterCom's own completion call (api.c: IC_Wait ... IC_Testsome,
 * which run the engine as they wait), or, where it must not or need not
 * (icp_plain), the vendor's. */
int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    return icp_plain() ? PMPI_Wait(request, status) : IC_Wait(request, status);
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    return icp_plain() ? PMPI_Test(request, flag, status) : IC_Test(request, flag, status);
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    return icp_plain() ? PMPI_Waitall(count, requests, statuses)
                       : IC_Waitall(count, requests, statuses);
}

int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
    return icp_plain() ? PMPI_Testall(count, requests, flag, statuses)
                       : IC_Testall(count, requests, flag, statuses);
}

int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
    return icp_plain() ? PMPI_Waitany(count, requests, index, status)
                       : IC_Waitany(count, requests, index, status);
}

int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status)
{
    return icp_plain() ? PMPI_Testany(count, requests, index, flag, status)
                       : IC_Testany(count, requests, index, flag, status);
}

int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                 MPI_Status statuses[])
{
    return icp_plain() ? PMPI_Waitsome(incount, requests, outcount, indices, statuses)
                       : IC_Waitsome(incount, requests, outcount, indices, statuses);
}

int MPI_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                 MPI_Status statuses[])
{
    return icp_plain() ? PMPI_Testsome(incount, requests, outcount, indices, statuses)
                       : IC_Testsome(incount, requests, outcount, indices, statuses);
}

/* ================================================================ report */

static void print_report(FILE *out, const op_stats_t *sum, const uint64_t *ns_max, int nranks)
{
    fprintf(out,
            "InterCom report: %d rank%s (calls and bytes summed over the ranks; time: the "
            "slowest rank)\n",
            nranks, nranks == 1 ? "" : "s");
    fprintf(out, "%-26s %10s %10s %10s %16s %10s\n", "operation", "calls", "InterCom", "vendor",
            "bytes", "time [s]");
    int any = 0;
    for (int op = 0; op < IC_COLL_ID_COUNT; op++) {
        const op_stats_t *s = &sum[op];
        if (!s->calls)
            continue;
        any = 1;
        fprintf(out, "%-26s %10llu %10llu %10llu %16llu %10.4f\n", op_name[op],
                (unsigned long long)s->calls, (unsigned long long)s->ic,
                (unsigned long long)(s->calls - s->ic), (unsigned long long)s->bytes,
                (double)ns_max[op] * 1e-9);
    }
    if (!any) {
        fprintf(out, "(no intercepted call)\n");
        return;
    }
    fprintf(out, "algorithms chosen by InterCom (calls):\n");
    for (int op = 0; op < IC_COLL_ID_COUNT; op++) {
        const op_stats_t *s = &sum[op];
        if (!s->ic)
            continue;
        fprintf(out, "  %-24s", op_name[op]);
        const char *sep = " ";
        int n = IC_Algorithm_count((IC_Coll)op);
        for (int i = 0; i < n && i < ICP_MAX_ALG; i++) {
            if (!s->alg[i])
                continue;
            fprintf(out, "%s%s %llu", sep, IC_Algorithm_name((IC_Coll)op, i),
                    (unsigned long long)s->alg[i]);
            sep = ", ";
        }
        if (s->alg_other) {
            fprintf(out, "%sother %llu", sep, (unsigned long long)s->alg_other);
            sep = ", ";
        }
        if (s->alg_none)
            fprintf(out, "%s(no data to move) %llu", sep, (unsigned long long)s->alg_none);
        fprintf(out, "\n");
    }
    int vendor = 0;
    for (int op = 0; op < IC_COLL_ID_COUNT; op++)
        vendor |= (sum[op].calls != sum[op].ic);
    if (!vendor) {
        fprintf(out, "calls passed to the vendor MPI: none\n");
        return;
    }
    fprintf(out, "calls passed to the vendor MPI (calls: reason):\n");
    for (int op = 0; op < IC_COLL_ID_COUNT; op++) {
        const op_stats_t *s = &sum[op];
        if (s->calls == s->ic)
            continue;
        fprintf(out, "  %-24s", op_name[op]);
        const char *sep = " ";
        for (int w = 0; w < ICP_NWHY; w++) {
            if (!s->why[w])
                continue;
            fprintf(out, "%s%llu: %s", sep, (unsigned long long)s->why[w], why_text[w]);
            sep = "; ";
        }
        fprintf(out, "\n");
    }
}

/* Collective over MPI_COMM_WORLD: rank 0 prints the table of all ranks. */
static void report(void)
{
    static op_stats_t sum[IC_COLL_ID_COUNT];
    uint64_t ns[IC_COLL_ID_COUNT], ns_max[IC_COLL_ID_COUNT];
    int rank = 0, nranks = 1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &nranks);
    for (int op = 0; op < IC_COLL_ID_COUNT; op++)
        ns[op] = stats[op].ns;
    _Static_assert(sizeof(op_stats_t) % sizeof(uint64_t) == 0, "op_stats_t: uint64_t only");
    int n = (int)(IC_COLL_ID_COUNT * (sizeof(op_stats_t) / sizeof(uint64_t)));
    if (PMPI_Reduce(stats, sum, n, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD) != MPI_SUCCESS ||
        PMPI_Reduce(ns, ns_max, IC_COLL_ID_COUNT, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD) !=
            MPI_SUCCESS ||
        rank != 0)
        return;
    FILE *out = stderr;
    if (cfg.report_file) {
        out = fopen(cfg.report_file, "w");
        if (!out) {
            fprintf(stderr, "InterCom: cannot write the report to %s; printing it here\n",
                    cfg.report_file);
            out = stderr;
        }
    }
    print_report(out, sum, ns_max, nranks);
    if (out != stderr)
        fclose(out);
    else
        fflush(stderr);
}

int ic_pmpi_finalize(void)
{
    pthread_once(&cfg_once, read_config);
    int init = 0, fin = 0;
    PMPI_Initialized(&init);
    PMPI_Finalized(&fin);
    if (init && !fin) {
        pthread_once(&mpi_once, mpi_setup); /* the INTERCOM_DISABLE warning */
        if (cfg.report && !nested)
            report();
    }
    return PMPI_Finalize();
}

/* ======================================================= C entry points */

/* The C entry points are the core functions under MPI's names. */
#define ICP_C_ENTRY(name, impl) extern __typeof__(impl) name __attribute__((alias(#impl)));

ICP_C_ENTRY(MPI_Bcast, ic_pmpi_bcast)
ICP_C_ENTRY(MPI_Reduce, ic_pmpi_reduce)
ICP_C_ENTRY(MPI_Allreduce, ic_pmpi_allreduce)
ICP_C_ENTRY(MPI_Allgather, ic_pmpi_allgather)
ICP_C_ENTRY(MPI_Allgatherv, ic_pmpi_allgatherv)
ICP_C_ENTRY(MPI_Reduce_scatter, ic_pmpi_reduce_scatter)
ICP_C_ENTRY(MPI_Reduce_scatter_block, ic_pmpi_reduce_scatter_block)
ICP_C_ENTRY(MPI_Scatter, ic_pmpi_scatter)
ICP_C_ENTRY(MPI_Scatterv, ic_pmpi_scatterv)
ICP_C_ENTRY(MPI_Gather, ic_pmpi_gather)
ICP_C_ENTRY(MPI_Gatherv, ic_pmpi_gatherv)
ICP_C_ENTRY(MPI_Barrier, ic_pmpi_barrier)
ICP_C_ENTRY(MPI_Finalize, ic_pmpi_finalize)
ICP_C_ENTRY(MPI_Ibcast, ic_pmpi_ibcast)
ICP_C_ENTRY(MPI_Ireduce, ic_pmpi_ireduce)
ICP_C_ENTRY(MPI_Iallreduce, ic_pmpi_iallreduce)
ICP_C_ENTRY(MPI_Ireduce_scatter, ic_pmpi_ireduce_scatter)
ICP_C_ENTRY(MPI_Ireduce_scatter_block, ic_pmpi_ireduce_scatter_block)
ICP_C_ENTRY(MPI_Iallgather, ic_pmpi_iallgather)
ICP_C_ENTRY(MPI_Iallgatherv, ic_pmpi_iallgatherv)
ICP_C_ENTRY(MPI_Igather, ic_pmpi_igather)
ICP_C_ENTRY(MPI_Iscatter, ic_pmpi_iscatter)
ICP_C_ENTRY(MPI_Igatherv, ic_pmpi_igatherv)
ICP_C_ENTRY(MPI_Iscatterv, ic_pmpi_iscatterv)
ICP_C_ENTRY(MPI_Ibarrier, ic_pmpi_ibarrier)
#if defined(ICP_HAVE_INIT) && MPI_VERSION >= 4
ICP_C_ENTRY(MPI_Bcast_init, ic_pmpi_bcast_init)
ICP_C_ENTRY(MPI_Reduce_init, ic_pmpi_reduce_init)
ICP_C_ENTRY(MPI_Allreduce_init, ic_pmpi_allreduce_init)
ICP_C_ENTRY(MPI_Reduce_scatter_init, ic_pmpi_reduce_scatter_init)
ICP_C_ENTRY(MPI_Reduce_scatter_block_init, ic_pmpi_reduce_scatter_block_init)
ICP_C_ENTRY(MPI_Allgather_init, ic_pmpi_allgather_init)
ICP_C_ENTRY(MPI_Allgatherv_init, ic_pmpi_allgatherv_init)
ICP_C_ENTRY(MPI_Gather_init, ic_pmpi_gather_init)
ICP_C_ENTRY(MPI_Scatter_init, ic_pmpi_scatter_init)
ICP_C_ENTRY(MPI_Gatherv_init, ic_pmpi_gatherv_init)
ICP_C_ENTRY(MPI_Scatterv_init, ic_pmpi_scatterv_init)
ICP_C_ENTRY(MPI_Barrier_init, ic_pmpi_barrier_init)
#endif
#if defined(ICP_HAVE_INIT) && defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
ICP_C_ENTRY(MPIX_Bcast_init, ic_pmpi_bcast_init)
ICP_C_ENTRY(MPIX_Reduce_init, ic_pmpi_reduce_init)
ICP_C_ENTRY(MPIX_Allreduce_init, ic_pmpi_allreduce_init)
ICP_C_ENTRY(MPIX_Reduce_scatter_init, ic_pmpi_reduce_scatter_init)
ICP_C_ENTRY(MPIX_Reduce_scatter_block_init, ic_pmpi_reduce_scatter_block_init)
ICP_C_ENTRY(MPIX_Allgather_init, ic_pmpi_allgather_init)
ICP_C_ENTRY(MPIX_Allgatherv_init, ic_pmpi_allgatherv_init)
ICP_C_ENTRY(MPIX_Gather_init, ic_pmpi_gather_init)
ICP_C_ENTRY(MPIX_Scatter_init, ic_pmpi_scatter_init)
ICP_C_ENTRY(MPIX_Gatherv_init, ic_pmpi_gatherv_init)
ICP_C_ENTRY(MPIX_Scatterv_init, ic_pmpi_scatterv_init)
ICP_C_ENTRY(MPIX_Barrier_init, ic_pmpi_barrier_init)
#endif
