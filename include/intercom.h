/*
 * intercom.h -- InterCom: fast collective communication on top of MPI.
 *
 * Every IC_ collective takes exactly the arguments of the MPI function of the
 * same name and means the same thing, so a program switches by renaming the
 * call.  Errors are reported as MPI does: an MPI error code, raised through
 * the communicator's error handler (under MPI_ERRORS_RETURN the call returns
 * it and leaves the user's buffers untouched).
 *
 * The library needs MPI to be initialised; it keeps its own private
 * duplicate of each communicator it is used on (so its messages never match
 * the user's), and releases it when the communicator is freed or at
 * MPI_Finalize.
 */
#ifndef INTERCOM_H
#define INTERCOM_H

#include <mpi.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define INTERCOM_VERSION_MAJOR 0
#define INTERCOM_VERSION_MINOR 1
#define INTERCOM_VERSION_PATCH 0
#define INTERCOM_VERSION_STRING "0.1.0"

/* ----------------------------------------------------------- collectives */

int IC_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);
int IC_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              int root, MPI_Comm comm);
int IC_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm);
int IC_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int IC_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm);
int IC_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int IC_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int IC_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int IC_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                int root, MPI_Comm comm);
int IC_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
              int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int IC_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
               MPI_Comm comm);
int IC_Barrier(MPI_Comm comm);

/* Nonblocking collectives, with MPI's signatures.  The request completes
 * with MPI's own MPI_Wait, MPI_Test, MPI_Waitall, ...; the README's
 * "Nonblocking collectives" says what moves them on under each MPI. */
int IC_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
              MPI_Request *request);
int IC_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm, MPI_Request *request);
int IC_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm, MPI_Request *request);
int IC_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
int IC_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
int IC_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
int IC_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                MPI_Request *request);
int IC_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int IC_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                   MPI_Request *request);
int IC_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm, MPI_Request *request);
int IC_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm, MPI_Request *request);
int IC_Ibarrier(MPI_Comm comm, MPI_Request *request);

/* MPI-4's large-count collectives (MPI_Count counts, MPI_Aint
 * displacements), where the MPI has them (MPI_VERSION >= 4, e.g. MPICH 4).
 * The int versions above move any amount too (totals and messages beyond
 * 2 GiB); these add counts beyond INT_MAX. */

/* Persistent collectives, MPI-4's signatures (the info is not used): the
 * plan, schedule and scratch are made once.  The request is started with
 * IC_Start / IC_Startall (under Open MPI also with MPI_Start), completed
 * with MPI's completion calls (under MPICH and SMPI with IC_Wait and its
 * kin below, which run InterCom's progress as they wait) and freed with
 * IC_Request_free (MPI_Request_free leaves the plan until MPI_Finalize).
 * The README's "Nonblocking and persistent collectives" says why. */
int IC_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                  MPI_Info info, MPI_Request *request);
int IC_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int IC_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int IC_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                           MPI_Request *request);
int IC_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request);
int IC_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                   MPI_Request *request);
int IC_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                    MPI_Request *request);
int IC_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request);
int IC_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request);
int IC_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                    MPI_Comm comm, MPI_Info info, MPI_Request *request);
int IC_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                     MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                     int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int IC_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request);
int IC_Start(MPI_Request *request);
int IC_Startall(int count, MPI_Request requests[]);
int IC_Request_free(MPI_Request *request);

/* MPI's completion calls, moving InterCom's nonblocking and persistent
 * calls on while they wait (needed where the MPI's own do not: see above). */
int IC_Wait(MPI_Request *request, MPI_Status *status);
int IC_Test(MPI_Request *request, int *flag, MPI_Status *status);
int IC_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]);
int IC_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[]);
int IC_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status);
int IC_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status);
int IC_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                MPI_Status statuses[]);
int IC_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                MPI_Status statuses[]);
#if defined(MPI_VERSION) && MPI_VERSION >= 4
#define IC_HAVE_LARGE_COUNT 1
int IC_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm);
int IC_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                MPI_Op op, int root, MPI_Comm comm);
int IC_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm);
int IC_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int IC_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                    MPI_Comm comm);
int IC_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int IC_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int IC_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                 MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int IC_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                  MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm);
int IC_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int IC_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                 int root, MPI_Comm comm);
int IC_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                MPI_Request *request);
int IC_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, int root, MPI_Comm comm, MPI_Request *request);
int IC_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm, MPI_Request *request);
int IC_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
int IC_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Request *request);
int IC_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                 MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request);
int IC_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request);
int IC_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request *request);
int IC_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request *request);
int IC_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                  int root, MPI_Comm comm, MPI_Request *request);
int IC_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request *request);
int IC_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    MPI_Info info, MPI_Request *request);
int IC_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int IC_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int IC_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request);
int IC_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request);
int IC_Gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     MPI_Info info, MPI_Request *request);
int IC_Scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                      MPI_Comm comm, MPI_Info info, MPI_Request *request);
int IC_Allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                        MPI_Info info, MPI_Request *request);
int IC_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int IC_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                      MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request);
int IC_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                       MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request);
#endif

/* ---------------------------------------------------------- process grids */

/* A two-dimensional grid of processes with a communicator per row and per
 * column, as ScaLAPACK's BLACS use them (panel broadcasts along rows and
 * columns, row and column reductions).  The row and column communicators
 * are ordinary communicators: any IC_ collective (or MPI call) runs on
 * them. */
typedef struct ic_grid *IC_Grid;

/* Make a rows x cols grid of comm's ranks (collective over comm; comm is
 * not modified, and may be freed before the grid).  Rank r of comm is at
 * row r / cols, column r % cols.  rows and cols must be the same on every
 * rank (nothing checks that they are), positive, and rows * cols the size
 * of comm; grid must not be NULL.  Otherwise the call returns MPI_ERR_ARG
 * through comm's error handler, before any communication, with nothing
 * allocated and *grid set to NULL when grid is not NULL.  MPI_COMM_NULL
 * (raised on MPI_COMM_WORLD's handler) and intercommunicators get
 * MPI_ERR_COMM in the same way. */
int IC_Grid_create(MPI_Comm comm, int rows, int cols, IC_Grid *grid);

/* The shape of the grid and the calling rank's row and column.  Every
 * output must be non-NULL (MPI_ERR_ARG otherwise). */
int IC_Grid_info(IC_Grid grid, int *rows, int *cols, int *myrow, int *mycol);

/* The calling rank's row communicator (the cols ranks of its row; its rank
 * in it is its column) and column communicator (the rows ranks of its
 * column; its rank in it is its row).  Both belong to the grid: use them
 * until IC_Grid_free, never free them yourself.  They inherit comm's error
 * handler at IC_Grid_create; errors of the grid calls on a valid grid (a
 * NULL output pointer) go through the row communicator's handler, errors
 * without a grid (a NULL grid) through MPI_COMM_WORLD's. */
int IC_Grid_row_comm(IC_Grid grid, MPI_Comm *row);
int IC_Grid_col_comm(IC_Grid grid, MPI_Comm *col);

/* Free the grid and its two communicators (collective over comm, as
 * MPI_Comm_free) and set *grid to NULL; grid or *grid NULL: MPI_ERR_ARG.
 * Call it before MPI_Finalize; after it, the call only releases the
 * grid's memory, sets *grid to NULL and returns MPI_ERR_OTHER, as every
 * IC_ call after MPI_Finalize does. */
int IC_Grid_free(IC_Grid *grid);

/* --------------------------------------------------------- introspection */

/* The collectives, for the introspection calls below. */
typedef enum IC_Coll {
    IC_COLL_ID_BCAST = 0,
    IC_COLL_ID_REDUCE,
    IC_COLL_ID_ALLREDUCE,
    IC_COLL_ID_ALLGATHER,
    IC_COLL_ID_ALLGATHERV,
    IC_COLL_ID_REDUCE_SCATTER,
    IC_COLL_ID_REDUCE_SCATTER_BLOCK,
    IC_COLL_ID_SCATTER,
    IC_COLL_ID_SCATTERV,
    IC_COLL_ID_GATHER,
    IC_COLL_ID_GATHERV,
    IC_COLL_ID_BARRIER,
    IC_COLL_ID_COUNT
} IC_Coll;

/* Name of the algorithm the most recent IC_ call of this collective on this
 * process used ("" before the first call).  The pointer stays valid for the
 * life of the program. */
const char *IC_Last_algorithm(IC_Coll coll);

/* Bytes the most recent IC_ call of this collective on this thread (a
 * blocking one that completed, a nonblocking or persistent one that
 * started) copies through a staging area with MPI_Pack/MPI_Unpack (its
 * non-contiguous datatype could not be used in place; see the README), 0
 * when it uses every buffer in place. */
size_t IC_Last_packed_bytes(IC_Coll coll);

/* Number of registered algorithms for a collective, and the name of the
 * i-th (NULL when out of range). */
int IC_Algorithm_count(IC_Coll coll);
const char *IC_Algorithm_name(IC_Coll coll, int i);

/* Force an algorithm for a collective on this process (as the environment
 * variable INTERCOM_<OP>_ALGORITHM does); NULL or "auto" restores automatic
 * selection.  Returns MPI_SUCCESS or MPI_ERR_ARG for an unknown name.  Every
 * rank of a communicator must force the same algorithm. */
int IC_Set_algorithm(IC_Coll coll, const char *name);

/* Use the tuning table in the file at path (README, "Tuning tables") for
 * every later automatic choice on this process, in place of
 * INTERCOM_TUNING_FILE's or the installed default; NULL goes back to
 * those.  Problems in the file are reported once on world rank 0 and
 * their lines skipped.  Returns MPI_SUCCESS, or MPI_ERR_ARG when the file
 * cannot be read or is not a tuning table (the table in use stays).
 * Every process must load the same table. */
int IC_Tuning_load(const char *path);

/* Number of cores of the calling process's node (hwloc).  A run with more
 * ranks per node than cores times the operating system's scheduler rather
 * than the algorithms; the benchmark says so when it sees one. */
int IC_Node_cores(void);

#ifdef __cplusplus
}
#endif
#endif /* INTERCOM_H */
