/*
 * interpose.h -- libintercom-pmpi: the PMPI interposition library's shared
 * interface between the C entry points (pmpi.c) and the Fortran entry
 * points (pmpi_fortran.c).
 *
 * Every intercepted collective has one core function ic_pmpi_<op>() taking the
 * C arguments.  It decides whether InterCom serves the call (then it calls
 * the IC_ function) or the vendor MPI does (then it calls the PMPI_
 * function with the arguments unchanged), keeps the statistics of the
 * INTERCOM_REPORT table, and returns the MPI error code.  The C entry
 * MPI_<Op> is the core function itself; a Fortran entry converts handles
 * and sentinels and calls the same core function, exactly as the MPI's own
 * Fortran layer would call the C function.
 */
#ifndef IC_INTERPOSE_H
#define IC_INTERPOSE_H

#include <mpi.h>

int ic_pmpi_bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);
int ic_pmpi_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   int root, MPI_Comm comm);
int ic_pmpi_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm);
int ic_pmpi_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int ic_pmpi_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                       MPI_Comm comm);
int ic_pmpi_reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int ic_pmpi_reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int ic_pmpi_scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int ic_pmpi_scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                     MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                     int root, MPI_Comm comm);
int ic_pmpi_gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int ic_pmpi_gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                    MPI_Comm comm);
int ic_pmpi_barrier(MPI_Comm comm);

/* The nonblocking and persistent forms (the _init ones where the MPI has
 * persistent collectives: MPI-4, or Open MPI's MPIX_ extension). */
int ic_pmpi_ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   MPI_Request *request);
int ic_pmpi_bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                       MPI_Info info, MPI_Request *request);
int ic_pmpi_ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    int root, MPI_Comm comm, MPI_Request *request);
int ic_pmpi_reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int ic_pmpi_iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_Request *request);
int ic_pmpi_allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int ic_pmpi_ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
int ic_pmpi_reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                MPI_Request *request);
int ic_pmpi_ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                  MPI_Request *request);
int ic_pmpi_reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                      MPI_Info info, MPI_Request *request);
int ic_pmpi_iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int ic_pmpi_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                           MPI_Request *request);
int ic_pmpi_iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                        MPI_Comm comm, MPI_Request *request);
int ic_pmpi_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                            MPI_Request *request);
int ic_pmpi_igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    MPI_Request *request);
int ic_pmpi_gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                        MPI_Info info, MPI_Request *request);
int ic_pmpi_iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     MPI_Request *request);
int ic_pmpi_scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                         MPI_Info info, MPI_Request *request);
int ic_pmpi_igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                     MPI_Comm comm, MPI_Request *request);
int ic_pmpi_gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                         int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int ic_pmpi_iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                      MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                      int root, MPI_Comm comm, MPI_Request *request);
int ic_pmpi_scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                          MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request);
int ic_pmpi_ibarrier(MPI_Comm comm, MPI_Request *request);
int ic_pmpi_barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request);

/* MPI_Finalize: prints the INTERCOM_REPORT table (a collective over
 * MPI_COMM_WORLD), then calls PMPI_Finalize. */
int ic_pmpi_finalize(void);

#endif /* IC_INTERPOSE_H */
