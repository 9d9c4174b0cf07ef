/*
 * api.c -- the IC_ collectives: MPI's signatures, InterCom's algorithms.
 *
 * The public entry points only, each a thin wrapper: the blocking calls,
 * the nonblocking ones (IC_I*), the persistent ones (IC_*_init) and their
 * large-count IC_*_c forms, the starts of persistent requests and the
 * completion calls.  What each collective does is described in
 * collectives.c (icc_bcast_impl ... icc_barrier_impl), the driver that
 * runs the descriptions is call.c, and call.h holds the call object they
 * share.
 */
#include "config.h"
#include "call.h"

#include <string.h>

/* ========================================== starts and completions
 *
 * The persistent calls' requests (call.c: "persistent calls"; the handle
 * and the starts are the engine's, progress.c) and the completion calls. */

int IC_Start(MPI_Request *request)
{
    if (!request)
        return ic_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "IC_Start: request is NULL");
    ic_call_state_t *st = ic_persist_find(*request);
    int run_code = MPI_SUCCESS;
    int rc = st ? ic_persist_start(st, request, &run_code) : PMPI_Start(request);
    if (rc != MPI_SUCCESS)
        return ic_error(MPI_COMM_WORLD, rc, "IC_Start: %s",
                        st && st->active ? "the request is active already"
                                         : "cannot start the request");
    return run_code; /* a run that failed in its set-up: raised on its communicator */
}

int IC_Startall(int count, MPI_Request requests[])
{
    if (count < 0 || (count > 0 && !requests))
        return ic_error(MPI_COMM_WORLD, MPI_ERR_ARG, "IC_Startall: bad count or requests");
    /* every request is started, whatever one of them did: the other ranks
     * run the others (each failure raised by IC_Start; the first returned) */
    int first = MPI_SUCCESS;
    for (int i = 0; i < count; i++) {
        int rc = IC_Start(&requests[i]);
        if (first == MPI_SUCCESS)
            first = rc;
    }
    return first;
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

#define IC_WAIT_TEST 64 /* IC_Wait's engine rounds per MPI test (below) */

/* May a wait's round skip the MPI's test?  Not once in IC_WAIT_TEST
 * rounds; otherwise while one of reqs (all: each non-null one) is an
 * InterCom call still running. */
static int engine_only(unsigned round, int n, const MPI_Request *reqs, int all)
{
    return round % IC_WAIT_TEST && ic_requests_running(n, reqs, all);
}

/* The errors of persistent runs.  A persistent call's handle is the MPI's
 * own request (progress.c), whose completion cannot carry the run's
 * error: the IC_ completion call that completes the handle returns it
 * (raised through the call's communicator's handler, once), as MPI's
 * completion calls return a persistent collective's.  One request, now
 * complete (h: its handle), its status: */
static int one_done(int rc, MPI_Request h, MPI_Status *status)
{
    int e = rc == MPI_SUCCESS && ic_npersist ? ic_persist_failed(h) : MPI_SUCCESS;
    if (e == MPI_SUCCESS)
        return rc;
    if (status != MPI_STATUS_IGNORE)
        status->MPI_ERROR = e;
    return e;
}

/* ... and those of reqs[at[j]] (at NULL: reqs[j]), j < n, complete, with
 * statuses[j] (MPI_ERR_IN_STATUS, each status's MPI_ERROR set, when one
 * of them failed and the statuses are not ignored). */
static int some_done(int rc, int n, const MPI_Request *reqs, const int *at, MPI_Status *statuses)
{
    if (!ic_npersist || (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS) || n == MPI_UNDEFINED)
        return rc;
    int first = MPI_SUCCESS, ign = statuses == MPI_STATUSES_IGNORE;
    for (int j = 0; j < n; j++) {
        int e = ic_persist_failed(reqs[at ? at[j] : j]);
        if (e == MPI_SUCCESS)
            continue;
        if (!ign && rc == MPI_SUCCESS && first == MPI_SUCCESS)
            for (int i = 0; i < n; i++) /* the others succeeded */
                statuses[i].MPI_ERROR = MPI_SUCCESS;
        if (!ign)
            statuses[j].MPI_ERROR = e;
        if (first == MPI_SUCCESS)
            first = e;
    }
    if (first == MPI_SUCCESS)
        return rc;
    return ign ? (rc == MPI_SUCCESS ? first : rc) : MPI_ERR_IN_STATUS;
}

/* The completion calls that move InterCom's calls on as they wait: each
 * round runs the engine and then the MPI's test of the same name (while
 * the wait cannot end before one of InterCom's calls does, only once in
 * IC_WAIT_TEST rounds); with no InterCom call pending, the MPI's own wait. */
int IC_Wait(MPI_Request *request, MPI_Status *status)
{
    MPI_Request h = request ? *request : MPI_REQUEST_NULL;
    for (unsigned round = 0;; round++) {
        if (!ic_npending && !ic_npersist)
            return PMPI_Wait(request, status);
        ic_progress();
        /* An InterCom call still running: only the engine moves it (its
         * MPI messages are tested there), and the MPI's test (its whole
         * progress loop) once in IC_WAIT_TEST rounds, for the program's
         * own communication that the other ranks may wait for. */
        if (engine_only(round, 1, request, 1))
            continue;
        int flag = 0, rc = PMPI_Test(request, &flag, status);
        if (rc != MPI_SUCCESS || flag)
            return one_done(rc, h, status);
    }
}

int IC_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    MPI_Request h = request ? *request : MPI_REQUEST_NULL;
    ic_progress();
    int rc = PMPI_Test(request, flag, status);
    return rc == MPI_SUCCESS && *flag ? one_done(rc, h, status) : rc;
}

int IC_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    for (unsigned round = 0;; round++) {
        if (!ic_npending && !ic_npersist)
            return PMPI_Waitall(count, requests, statuses);
        ic_progress();
#if defined(SMPI_H)
        /* SimGrid's SMPI: its MPI_Testall completes (and frees) each
         * request that is done even when others are not, and then gives
         * it an empty status; so the engine alone until none of InterCom's
         * calls among them runs (SMPI moves the program's own messages on
         * without it), then the MPI's own wait */
        if (ic_requests_running(count, requests, 0))
            continue;
        return some_done(PMPI_Waitall(count, requests, statuses), count, requests, NULL, statuses);
#else
        if (engine_only(round, count, requests, 0))
            continue; /* as IC_Wait: not all done while one of InterCom's runs */
        int flag = 0, rc = PMPI_Testall(count, requests, &flag, statuses);
        if (rc != MPI_SUCCESS || flag)
            return some_done(rc, count, requests, NULL, statuses);
#endif
    }
}

int IC_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
    ic_progress();
    int rc = PMPI_Testall(count, requests, flag, statuses);
    return *flag ? some_done(rc, count, requests, NULL, statuses) : rc;
}

int IC_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
    for (unsigned round = 0;; round++) {
        if (!ic_npending && !ic_npersist)
            return PMPI_Waitany(count, requests, index, status);
        ic_progress();
        if (engine_only(round, count, requests, 1))
            continue; /* as IC_Wait: none done while each is one of InterCom's runs */
        int flag = 0, rc = PMPI_Testany(count, requests, index, &flag, status);
        /* None active, says the test: the MPI's own wait returns that too.
         * (SimGrid's SMPI: its MPI_Testany overlooks a send that went
         * eagerly, smpi/send-is-detached-thresh, and says so while such a
         * send is still active; its MPI_Waitany completes it.) */
        if (rc == MPI_SUCCESS && flag && *index == MPI_UNDEFINED)
            return PMPI_Waitany(count, requests, index, status);
        if (rc != MPI_SUCCESS || flag)
            return rc == MPI_SUCCESS && flag ? one_done(rc, requests[*index], status) : rc;
    }
}

int IC_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status)
{
    ic_progress();
    int rc = PMPI_Testany(count, requests, index, flag, status);
    return *flag && *index != MPI_UNDEFINED ? one_done(rc, requests[*index], status) : rc;
}

int IC_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                MPI_Status statuses[])
{
    for (unsigned round = 0;; round++) {
        if (!ic_npending && !ic_npersist)
            return PMPI_Waitsome(incount, requests, outcount, indices, statuses);
        ic_progress();
        if (engine_only(round, incount, requests, 1))
            continue;
        int rc = PMPI_Testsome(incount, requests, outcount, indices, statuses);
        if (rc != MPI_SUCCESS || *outcount != 0)
            return some_done(rc, *outcount, requests, indices, statuses);
    }
}

int IC_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                MPI_Status statuses[])
{
    ic_progress();
    int rc = PMPI_Testsome(incount, requests, outcount, indices, statuses);
    return some_done(rc, *outcount, requests, indices, statuses);
}

/* ============================================================ entry points
 *
 * The IC_ calls with MPI's int counts, and the IC_*_c calls with MPI-4's
 * MPI_Count counts and MPI_Aint displacements, over one implementation. */

int IC_Barrier(MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return icc_barrier_impl(&c, comm, "IC_Barrier");
}

int IC_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return icc_bcast_impl(&c, buffer, count, datatype, root, comm, "IC_Bcast");
}

int IC_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              int root, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return icc_reduce_impl(&c, sendbuf, recvbuf, count, datatype, op, root, comm, "IC_Reduce");
}

int IC_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return icc_allreduce_impl(&c, sendbuf, recvbuf, count, datatype, op, comm, "IC_Allreduce");
}

int IC_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return icc_reduce_scatter_impl(&c, sendbuf, recvbuf, cv_int(recvcounts), datatype, op, comm,
                                   "IC_Reduce_scatter");
}

int IC_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return icc_reduce_scatter_block_impl(&c, sendbuf, recvbuf, recvcount, datatype, op, comm,
                                         "IC_Reduce_scatter_block");
}

int IC_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
              int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return icc_gather_impl(&c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                           comm, "IC_Gather");
}

int IC_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return icc_scatter_impl(&c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                            comm, "IC_Scatter");
}

int IC_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return icc_allgather_impl(&c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              "IC_Allgather");
}

int IC_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return icc_allgatherv_impl(&c, sendbuf, sendcount, sendtype, recvbuf, cv_int(recvcounts),
                               dv_int(displs), recvtype, comm, "IC_Allgatherv");
}

int IC_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
               MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return icc_gatherv_impl(&c, sendbuf, sendcount, sendtype, recvbuf, cv_int(recvcounts),
                            dv_int(displs), recvtype, root, comm, "IC_Gatherv");
}

int IC_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                int root, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return icc_scatterv_impl(&c, sendbuf, cv_int(sendcounts), dv_int(displs), sendtype, recvbuf,
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
    call_t *c = icc_nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Ibcast");
    return icc_nb_started(c, icc_bcast_impl(c, buffer, count, datatype, root, comm, "IC_Ibcast"),
                          request);
#endif
}

int IC_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request);
#else
    call_t *c = icc_nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Ireduce");
    return icc_nb_started(
        c, icc_reduce_impl(c, sendbuf, recvbuf, count, datatype, op, root, comm, "IC_Ireduce"),
        request);
#endif
}

int IC_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request);
#else
    call_t *c = icc_nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Iallreduce");
    return icc_nb_started(
        c, icc_allreduce_impl(c, sendbuf, recvbuf, count, datatype, op, comm, "IC_Iallreduce"),
        request);
#endif
}

int IC_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
#else
    call_t *c = icc_nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Ireduce_scatter");
    return icc_nb_started(c,
                          icc_reduce_scatter_impl(c, sendbuf, recvbuf, cv_int(recvcounts), datatype,
                                                  op, comm, "IC_Ireduce_scatter"),
                          request);
#endif
}

int IC_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request);
#else
    call_t *c = icc_nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Ireduce_scatter_block");
    return icc_nb_started(c,
                          icc_reduce_scatter_block_impl(c, sendbuf, recvbuf, recvcount, datatype,
                                                        op, comm, "IC_Ireduce_scatter_block"),
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
    call_t *c = icc_nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Igather");
    return icc_nb_started(c,
                          icc_gather_impl(c, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                          recvtype, root, comm, "IC_Igather"),
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
    call_t *c = icc_nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Iscatter");
    return icc_nb_started(c,
                          icc_scatter_impl(c, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                           recvtype, root, comm, "IC_Iscatter"),
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
    call_t *c = icc_nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Iallgather");
    return icc_nb_started(c,
                          icc_allgather_impl(c, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                             recvtype, comm, "IC_Iallgather"),
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
    call_t *c = icc_nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Iallgatherv");
    return icc_nb_started(c,
                          icc_allgatherv_impl(c, sendbuf, sendcount, sendtype, recvbuf,
                                              cv_int(recvcounts), dv_int(displs), recvtype, comm,
                                              "IC_Iallgatherv"),
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
    call_t *c = icc_nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Igatherv");
    return icc_nb_started(c,
                          icc_gatherv_impl(c, sendbuf, sendcount, sendtype, recvbuf,
                                           cv_int(recvcounts), dv_int(displs), recvtype, root, comm,
                                           "IC_Igatherv"),
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
    call_t *c = icc_nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Iscatterv");
    return icc_nb_started(c,
                          icc_scatterv_impl(c, sendbuf, cv_int(sendcounts), dv_int(displs),
                                            sendtype, recvbuf, recvcount, recvtype, root, comm,
                                            "IC_Iscatterv"),
                          request);
#endif
}

int IC_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Ibarrier(comm, request);
#else
    call_t *c = icc_nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Ibarrier");
    return icc_nb_started(c, icc_barrier_impl(c, comm, "IC_Ibarrier"), request);
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
    return icc_persist_init(&a, request);
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
    return icc_persist_init(&a, request);
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
    return icc_persist_init(&a, request);
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
    return icc_persist_init(&a, request);
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
    return icc_persist_init(&a, request);
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
    return icc_persist_init(&a, request);
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
    return icc_persist_init(&a, request);
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
    return icc_persist_init(&a, request);
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
    return icc_persist_init(&a, request);
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
    return icc_persist_init(&a, request);
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
    return icc_persist_init(&a, request);
}

int IC_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    pargs_t a;
    memset(&a, 0, sizeof(a));
    (void)info;
    a.kind = P_BARRIER;
    a.comm = comm;
    a.fn = "IC_Barrier_init";
    return icc_persist_init(&a, request);
}

#ifdef IC_HAVE_LARGE_COUNT
int IC_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return icc_bcast_impl(&c, buffer, count, datatype, root, comm, "IC_Bcast_c");
}

int IC_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                MPI_Op op, int root, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return icc_reduce_impl(&c, sendbuf, recvbuf, count, datatype, op, root, comm, "IC_Reduce_c");
}

int IC_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return icc_allreduce_impl(&c, sendbuf, recvbuf, count, datatype, op, comm, "IC_Allreduce_c");
}

int IC_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return icc_reduce_scatter_impl(&c, sendbuf, recvbuf, cv_big(recvcounts), datatype, op, comm,
                                   "IC_Reduce_scatter_c");
}

int IC_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return icc_reduce_scatter_block_impl(&c, sendbuf, recvbuf, recvcount, datatype, op, comm,
                                         "IC_Reduce_scatter_block_c");
}

int IC_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return icc_gather_impl(&c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                           comm, "IC_Gather_c");
}

int IC_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                 MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return icc_scatter_impl(&c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                            comm, "IC_Scatter_c");
}

int IC_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return icc_allgather_impl(&c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              "IC_Allgather_c");
}

int IC_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                    MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return icc_allgatherv_impl(&c, sendbuf, sendcount, sendtype, recvbuf, cv_big(recvcounts),
                               dv_big(displs), recvtype, comm, "IC_Allgatherv_c");
}

int IC_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                 int root, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return icc_gatherv_impl(&c, sendbuf, sendcount, sendtype, recvbuf, cv_big(recvcounts),
                            dv_big(displs), recvtype, root, comm, "IC_Gatherv_c");
}

int IC_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                  MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm)
{
    call_t c;
    c.nb = c.dry = 0;
    return icc_scatterv_impl(&c, sendbuf, cv_big(sendcounts), dv_big(displs), sendtype, recvbuf,
                             recvcount, recvtype, root, comm, "IC_Scatterv_c");
}

int IC_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Ibcast_c(buffer, count, datatype, root, comm, request);
#else
    call_t *c = icc_nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Ibcast_c");
    return icc_nb_started(c, icc_bcast_impl(c, buffer, count, datatype, root, comm, "IC_Ibcast_c"),
                          request);
#endif
}

int IC_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Ireduce_c(sendbuf, recvbuf, count, datatype, op, root, comm, request);
#else
    call_t *c = icc_nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Ireduce_c");
    return icc_nb_started(
        c, icc_reduce_impl(c, sendbuf, recvbuf, count, datatype, op, root, comm, "IC_Ireduce_c"),
        request);
#endif
}

int IC_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Iallreduce_c(sendbuf, recvbuf, count, datatype, op, comm, request);
#else
    call_t *c = icc_nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Iallreduce_c");
    return icc_nb_started(
        c, icc_allreduce_impl(c, sendbuf, recvbuf, count, datatype, op, comm, "IC_Iallreduce_c"),
        request);
#endif
}

int IC_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
#if IC_NB_VENDOR
    return MPI_Ireduce_scatter_c(sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
#else
    call_t *c = icc_nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Ireduce_scatter_c");
    return icc_nb_started(c,
                          icc_reduce_scatter_impl(c, sendbuf, recvbuf, cv_big(recvcounts), datatype,
                                                  op, comm, "IC_Ireduce_scatter_c"),
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
    call_t *c = icc_nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Ireduce_scatter_block_c");
    return icc_nb_started(c,
                          icc_reduce_scatter_block_impl(c, sendbuf, recvbuf, recvcount, datatype,
                                                        op, comm, "IC_Ireduce_scatter_block_c"),
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
    call_t *c = icc_nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Igather_c");
    return icc_nb_started(c,
                          icc_gather_impl(c, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                          recvtype, root, comm, "IC_Igather_c"),
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
    call_t *c = icc_nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Iscatter_c");
    return icc_nb_started(c,
                          icc_scatter_impl(c, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                           recvtype, root, comm, "IC_Iscatter_c"),
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
    call_t *c = icc_nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Iallgather_c");
    return icc_nb_started(c,
                          icc_allgather_impl(c, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                             recvtype, comm, "IC_Iallgather_c"),
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
    call_t *c = icc_nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Iallgatherv_c");
    return icc_nb_started(c,
                          icc_allgatherv_impl(c, sendbuf, sendcount, sendtype, recvbuf,
                                              cv_big(recvcounts), dv_big(displs), recvtype, comm,
                                              "IC_Iallgatherv_c"),
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
    call_t *c = icc_nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Igatherv_c");
    return icc_nb_started(c,
                          icc_gatherv_impl(c, sendbuf, sendcount, sendtype, recvbuf,
                                           cv_big(recvcounts), dv_big(displs), recvtype, root, comm,
                                           "IC_Igatherv_c"),
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
    call_t *c = icc_nb_new();
    if (!c)
        return nb_nomem(comm, request, "IC_Iscatterv_c");
    return icc_nb_started(c,
                          icc_scatterv_impl(c, sendbuf, cv_big(sendcounts), dv_big(displs),
                                            sendtype, recvbuf, recvcount, recvtype, root, comm,
                                            "IC_Iscatterv_c"),
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
    return icc_persist_init(&a, request);
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
    return icc_persist_init(&a, request);
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
    return icc_persist_init(&a, request);
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
    return icc_persist_init(&a, request);
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
    return icc_persist_init(&a, request);
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
    return icc_persist_init(&a, request);
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
    return icc_persist_init(&a, request);
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
    return icc_persist_init(&a, request);
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
    return icc_persist_init(&a, request);
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
    return icc_persist_init(&a, request);
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
    return icc_persist_init(&a, request);
}
#endif
