/*
 * pmpi_fortran.c -- libintercom-pmpi: the Fortran entry points (Open MPI).
 *
 * Open MPI's Fortran bindings (libmpi_mpifh for mpif.h and `use mpi`,
 * libmpi_usempif08 for `use mpi_f08`) convert their arguments and call the
 * C PMPI_ functions directly, so wrapping the C MPI_ symbols does not catch
 * Fortran callers.  This file defines the Fortran symbols themselves:
 *   mpif.h / use mpi:  mpi_bcast_, mpi_bcast, mpi_bcast__, MPI_BCAST
 *                      (the four manglings Open MPI exports);
 *   use mpi_f08:       mpi_bcast_f08_ (and mpi_bcast_f08, mpi_bcast_f08__
 *                      for compilers that mangle without or with two
 *                      underscores).
 * A Fortran handle is an INTEGER (TYPE(MPI_Comm) etc. in mpi_f08 is a
 * sequence type holding that INTEGER, passed by reference: the same thing),
 * converted with PMPI_Comm_f2c, PMPI_Type_f2c, PMPI_Op_f2c.  Fortran's
 * MPI_IN_PLACE and MPI_BOTTOM are the addresses of the common blocks
 * mpi_fortran_in_place / mpi_fortran_bottom (under the Fortran compiler's
 * mangling); weak references give this library the one address every
 * object of the process uses, and are NULL (never matching) when no
 * Fortran runtime is loaded.  The converted call goes to the same core
 * function as the C entry point (pmpi.c): InterCom or the C PMPI_ function,
 * which is exactly what Open MPI's own Fortran layer would call; errors go
 * through the communicator's error handler there, and the code is stored in
 * IERROR (optional in mpi_f08, so it may be absent).
 *
 * MPICH (4.0): the mpif.h and `use mpi' bindings, and the mpi_f08
 * bindings of the calls with buffers, call the C MPI_ functions after their
 * own conversions, so the C entry points already intercept them; only
 * mpi_f08's MPI_Barrier and MPI_Finalize call PMPI_ directly, and are
 * defined here (their f08 names: no clash with MPICH's own mpif.h ones).
 * An MPICH Fortran handle is the C handle, and PMPI_Comm_f2c says so.
 *
 * Nothing is defined for other MPIs, or when MPI_Fint is not a C int
 * (configure: IC_FINT_IS_INT).
 */
#include "config.h"
#include "interpose.h"

#if (defined(OPEN_MPI) || defined(MPICH_VERSION)) && defined(IC_FINT_IS_INT)

#include <stddef.h>

static void set_ierr(MPI_Fint *ierr, int rc)
{
    if (ierr)
        *ierr = (MPI_Fint)rc;
}

#define COMM(c) PMPI_Comm_f2c(*(c))

static void f_barrier(MPI_Fint *comm, MPI_Fint *ierr)
{
    set_ierr(ierr, ic_pmpi_barrier(COMM(comm)));
}

static void f_finalize(MPI_Fint *ierr)
{
    set_ierr(ierr, ic_pmpi_finalize());
}

#define ICF_ALIAS(impl, name) extern __typeof__(impl) name __attribute__((alias(#impl)));
#define ICF_F08_NAMES(impl, lower)                                                                 \
    ICF_ALIAS(impl, lower##_f08)                                                                   \
    ICF_ALIAS(impl, lower##_f08_)                                                                  \
    ICF_ALIAS(impl, lower##_f08__)
#define ICF_NAMES(impl, lower, UPPER)                                                              \
    ICF_ALIAS(impl, lower)                                                                         \
    ICF_ALIAS(impl, lower##_)                                                                      \
    ICF_ALIAS(impl, lower##__)                                                                     \
    ICF_ALIAS(impl, UPPER)                                                                         \
    ICF_F08_NAMES(impl, lower)

#endif

#if defined(OPEN_MPI) && defined(IC_FINT_IS_INT)
#include <mpi-ext.h>

/* ------------------------------------------------------------ sentinels */

#define ICF_WEAK __attribute__((weak))
extern int mpi_fortran_in_place_ ICF_WEAK, mpi_fortran_in_place ICF_WEAK,
    mpi_fortran_in_place__ ICF_WEAK, MPI_FORTRAN_IN_PLACE ICF_WEAK;
extern int mpi_fortran_bottom_ ICF_WEAK, mpi_fortran_bottom ICF_WEAK, mpi_fortran_bottom__ ICF_WEAK,
    MPI_FORTRAN_BOTTOM ICF_WEAK;

static int is_in_place(const void *p)
{
    return p && (p == (void *)&mpi_fortran_in_place_ || p == (void *)&mpi_fortran_in_place ||
                 p == (void *)&mpi_fortran_in_place__ || p == (void *)&MPI_FORTRAN_IN_PLACE);
}

static int is_bottom(const void *p)
{
    return p && (p == (void *)&mpi_fortran_bottom_ || p == (void *)&mpi_fortran_bottom ||
                 p == (void *)&mpi_fortran_bottom__ || p == (void *)&MPI_FORTRAN_BOTTOM);
}

/* A buffer argument: Fortran MPI_BOTTOM becomes C MPI_BOTTOM. */
static void *buf(void *p)
{
    return is_bottom(p) ? MPI_BOTTOM : p;
}

/* A buffer argument where MPI allows MPI_IN_PLACE. */
static void *buf_ip(void *p)
{
    return is_in_place(p) ? MPI_IN_PLACE : buf(p);
}

#define TYPE(t) PMPI_Type_f2c(*(t))
#define OP(o) PMPI_Op_f2c(*(o))

/* ----------------------------------------------------------- the calls */

static void f_bcast(void *buffer, MPI_Fint *count, MPI_Fint *type, MPI_Fint *root, MPI_Fint *comm,
                    MPI_Fint *ierr)
{
    set_ierr(ierr, ic_pmpi_bcast(buf(buffer), *count, TYPE(type), *root, COMM(comm)));
}

static void f_reduce(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *op,
                     MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr)
{
    set_ierr(ierr, ic_pmpi_reduce(buf_ip(sendbuf), buf(recvbuf), *count, TYPE(type), OP(op), *root,
                                  COMM(comm)));
}

static void f_allreduce(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *op,
                        MPI_Fint *comm, MPI_Fint *ierr)
{
    set_ierr(ierr, ic_pmpi_allreduce(buf_ip(sendbuf), buf(recvbuf), *count, TYPE(type), OP(op),
                                     COMM(comm)));
}

static void f_allgather(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                        MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *comm, MPI_Fint *ierr)
{
    set_ierr(ierr, ic_pmpi_allgather(buf_ip(sendbuf), *sendcount, TYPE(sendtype), buf(recvbuf),
                                     *recvcount, TYPE(recvtype), COMM(comm)));
}

static void f_allgatherv(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                         MPI_Fint *recvcounts, MPI_Fint *displs, MPI_Fint *recvtype, MPI_Fint *comm,
                         MPI_Fint *ierr)
{
    set_ierr(ierr, ic_pmpi_allgatherv(buf_ip(sendbuf), *sendcount, TYPE(sendtype), buf(recvbuf),
                                      recvcounts, displs, TYPE(recvtype), COMM(comm)));
}

static void f_reduce_scatter(void *sendbuf, void *recvbuf, MPI_Fint *recvcounts, MPI_Fint *type,
                             MPI_Fint *op, MPI_Fint *comm, MPI_Fint *ierr)
{
    set_ierr(ierr, ic_pmpi_reduce_scatter(buf_ip(sendbuf), buf(recvbuf), recvcounts, TYPE(type),
                                          OP(op), COMM(comm)));
}

static void f_reduce_scatter_block(void *sendbuf, void *recvbuf, MPI_Fint *recvcount,
                                   MPI_Fint *type, MPI_Fint *op, MPI_Fint *comm, MPI_Fint *ierr)
{
    set_ierr(ierr, ic_pmpi_reduce_scatter_block(buf_ip(sendbuf), buf(recvbuf), *recvcount,
                                                TYPE(type), OP(op), COMM(comm)));
}

static void f_scatter(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                      MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm,
                      MPI_Fint *ierr)
{
    set_ierr(ierr, ic_pmpi_scatter(buf(sendbuf), *sendcount, TYPE(sendtype), buf_ip(recvbuf),
                                   *recvcount, TYPE(recvtype), *root, COMM(comm)));
}

static void f_scatterv(void *sendbuf, MPI_Fint *sendcounts, MPI_Fint *displs, MPI_Fint *sendtype,
                       void *recvbuf, MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *root,
                       MPI_Fint *comm, MPI_Fint *ierr)
{
    set_ierr(ierr,
             ic_pmpi_scatterv(buf(sendbuf), sendcounts, displs, TYPE(sendtype), buf_ip(recvbuf),
                              *recvcount, TYPE(recvtype), *root, COMM(comm)));
}

static void f_gather(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                     MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm,
                     MPI_Fint *ierr)
{
    set_ierr(ierr, ic_pmpi_gather(buf_ip(sendbuf), *sendcount, TYPE(sendtype), buf(recvbuf),
                                  *recvcount, TYPE(recvtype), *root, COMM(comm)));
}

static void f_gatherv(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                      MPI_Fint *recvcounts, MPI_Fint *displs, MPI_Fint *recvtype, MPI_Fint *root,
                      MPI_Fint *comm, MPI_Fint *ierr)
{
    set_ierr(ierr, ic_pmpi_gatherv(buf_ip(sendbuf), *sendcount, TYPE(sendtype), buf(recvbuf),
                                   recvcounts, displs, TYPE(recvtype), *root, COMM(comm)));
}

/* ------------------------------------ the nonblocking and persistent calls
 *
 * The request goes back as a Fortran handle (PMPI_Request_c2f); MPI_START,
 * MPI_WAIT and the rest need nothing of InterCom's here (Open MPI's Fortran
 * layer calls the C PMPI_ functions, and InterCom's requests move on in
 * Open MPI's progress loop: progress.c).  Persistent: Open MPI's MPIX_
 * names (its extension pcollreq; MPI 3.1 has none). */
#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
#define ICP_F_INIT 1
#endif

static void f_ibcast(void *buffer, MPI_Fint *count, MPI_Fint *type, MPI_Fint *root, MPI_Fint *comm,
                     MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = ic_pmpi_ibcast(buf(buffer), *count, TYPE(type), *root, COMM(comm), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}

#if defined(ICP_F_INIT)
static void f_bcast_init(void *buffer, MPI_Fint *count, MPI_Fint *type, MPI_Fint *root,
                         MPI_Fint *comm, MPI_Fint *info, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = ic_pmpi_bcast_init(buf(buffer), *count, TYPE(type), *root, COMM(comm),
                                PMPI_Info_f2c(*info), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}
#endif

static void f_ireduce(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *op,
                      MPI_Fint *root, MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = ic_pmpi_ireduce(buf_ip(sendbuf), buf(recvbuf), *count, TYPE(type), OP(op), *root,
                             COMM(comm), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}

#if defined(ICP_F_INIT)
static void f_reduce_init(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *type,
                          MPI_Fint *op, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *info,
                          MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = ic_pmpi_reduce_init(buf_ip(sendbuf), buf(recvbuf), *count, TYPE(type), OP(op), *root,
                                 COMM(comm), PMPI_Info_f2c(*info), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}
#endif

static void f_iallreduce(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *type,
                         MPI_Fint *op, MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = ic_pmpi_iallreduce(buf_ip(sendbuf), buf(recvbuf), *count, TYPE(type), OP(op),
                                COMM(comm), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}

#if defined(ICP_F_INIT)
static void f_allreduce_init(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *type,
                             MPI_Fint *op, MPI_Fint *comm, MPI_Fint *info, MPI_Fint *request,
                             MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = ic_pmpi_allreduce_init(buf_ip(sendbuf), buf(recvbuf), *count, TYPE(type), OP(op),
                                    COMM(comm), PMPI_Info_f2c(*info), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}
#endif

static void f_iallgather(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                         MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *comm, MPI_Fint *request,
                         MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = ic_pmpi_iallgather(buf_ip(sendbuf), *sendcount, TYPE(sendtype), buf(recvbuf),
                                *recvcount, TYPE(recvtype), COMM(comm), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}

#if defined(ICP_F_INIT)
static void f_allgather_init(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                             MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *comm,
                             MPI_Fint *info, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc =
        ic_pmpi_allgather_init(buf_ip(sendbuf), *sendcount, TYPE(sendtype), buf(recvbuf),
                               *recvcount, TYPE(recvtype), COMM(comm), PMPI_Info_f2c(*info), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}
#endif

static void f_iallgatherv(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                          MPI_Fint *recvcounts, MPI_Fint *displs, MPI_Fint *recvtype,
                          MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = ic_pmpi_iallgatherv(buf_ip(sendbuf), *sendcount, TYPE(sendtype), buf(recvbuf),
                                 recvcounts, displs, TYPE(recvtype), COMM(comm), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}

#if defined(ICP_F_INIT)
static void f_allgatherv_init(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                              MPI_Fint *recvcounts, MPI_Fint *displs, MPI_Fint *recvtype,
                              MPI_Fint *comm, MPI_Fint *info, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = ic_pmpi_allgatherv_init(buf_ip(sendbuf), *sendcount, TYPE(sendtype), buf(recvbuf),
                                     recvcounts, displs, TYPE(recvtype), COMM(comm),
                                     PMPI_Info_f2c(*info), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}
#endif

static void f_ireduce_scatter(void *sendbuf, void *recvbuf, MPI_Fint *recvcounts, MPI_Fint *type,
                              MPI_Fint *op, MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = ic_pmpi_ireduce_scatter(buf_ip(sendbuf), buf(recvbuf), recvcounts, TYPE(type), OP(op),
                                     COMM(comm), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}

#if defined(ICP_F_INIT)
static void f_reduce_scatter_init(void *sendbuf, void *recvbuf, MPI_Fint *recvcounts,
                                  MPI_Fint *type, MPI_Fint *op, MPI_Fint *comm, MPI_Fint *info,
                                  MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = ic_pmpi_reduce_scatter_init(buf_ip(sendbuf), buf(recvbuf), recvcounts, TYPE(type),
                                         OP(op), COMM(comm), PMPI_Info_f2c(*info), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}
#endif

static void f_ireduce_scatter_block(void *sendbuf, void *recvbuf, MPI_Fint *recvcount,
                                    MPI_Fint *type, MPI_Fint *op, MPI_Fint *comm, MPI_Fint *request,
                                    MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = ic_pmpi_ireduce_scatter_block(buf_ip(sendbuf), buf(recvbuf), *recvcount, TYPE(type),
                                           OP(op), COMM(comm), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}

#if defined(ICP_F_INIT)
static void f_reduce_scatter_block_init(void *sendbuf, void *recvbuf, MPI_Fint *recvcount,
                                        MPI_Fint *type, MPI_Fint *op, MPI_Fint *comm,
                                        MPI_Fint *info, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc =
        ic_pmpi_reduce_scatter_block_init(buf_ip(sendbuf), buf(recvbuf), *recvcount, TYPE(type),
                                          OP(op), COMM(comm), PMPI_Info_f2c(*info), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}
#endif

static void f_iscatter(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                       MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm,
                       MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = ic_pmpi_iscatter(buf(sendbuf), *sendcount, TYPE(sendtype), buf_ip(recvbuf), *recvcount,
                              TYPE(recvtype), *root, COMM(comm), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}

#if defined(ICP_F_INIT)
static void f_scatter_init(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                           MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm,
                           MPI_Fint *info, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc =
        ic_pmpi_scatter_init(buf(sendbuf), *sendcount, TYPE(sendtype), buf_ip(recvbuf), *recvcount,
                             TYPE(recvtype), *root, COMM(comm), PMPI_Info_f2c(*info), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}
#endif

static void f_iscatterv(void *sendbuf, MPI_Fint *sendcounts, MPI_Fint *displs, MPI_Fint *sendtype,
                        void *recvbuf, MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *root,
                        MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = ic_pmpi_iscatterv(buf(sendbuf), sendcounts, displs, TYPE(sendtype), buf_ip(recvbuf),
                               *recvcount, TYPE(recvtype), *root, COMM(comm), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}

#if defined(ICP_F_INIT)
static void f_scatterv_init(void *sendbuf, MPI_Fint *sendcounts, MPI_Fint *displs,
                            MPI_Fint *sendtype, void *recvbuf, MPI_Fint *recvcount,
                            MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *info,
                            MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = ic_pmpi_scatterv_init(buf(sendbuf), sendcounts, displs, TYPE(sendtype),
                                   buf_ip(recvbuf), *recvcount, TYPE(recvtype), *root, COMM(comm),
                                   PMPI_Info_f2c(*info), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}
#endif

static void f_igather(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                      MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm,
                      MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = ic_pmpi_igather(buf_ip(sendbuf), *sendcount, TYPE(sendtype), buf(recvbuf), *recvcount,
                             TYPE(recvtype), *root, COMM(comm), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}

#if defined(ICP_F_INIT)
static void f_gather_init(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                          MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm,
                          MPI_Fint *info, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc =
        ic_pmpi_gather_init(buf_ip(sendbuf), *sendcount, TYPE(sendtype), buf(recvbuf), *recvcount,
                            TYPE(recvtype), *root, COMM(comm), PMPI_Info_f2c(*info), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}
#endif

static void f_igatherv(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                       MPI_Fint *recvcounts, MPI_Fint *displs, MPI_Fint *recvtype, MPI_Fint *root,
                       MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = ic_pmpi_igatherv(buf_ip(sendbuf), *sendcount, TYPE(sendtype), buf(recvbuf), recvcounts,
                              displs, TYPE(recvtype), *root, COMM(comm), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}

#if defined(ICP_F_INIT)
static void f_gatherv_init(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                           MPI_Fint *recvcounts, MPI_Fint *displs, MPI_Fint *recvtype,
                           MPI_Fint *root, MPI_Fint *comm, MPI_Fint *info, MPI_Fint *request,
                           MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc =
        ic_pmpi_gatherv_init(buf_ip(sendbuf), *sendcount, TYPE(sendtype), buf(recvbuf), recvcounts,
                             displs, TYPE(recvtype), *root, COMM(comm), PMPI_Info_f2c(*info), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}
#endif

static void f_ibarrier(MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = ic_pmpi_ibarrier(COMM(comm), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}

#if defined(ICP_F_INIT)
static void f_barrier_init(MPI_Fint *comm, MPI_Fint *info, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = ic_pmpi_barrier_init(COMM(comm), PMPI_Info_f2c(*info), &r);
    *request = PMPI_Request_c2f(r);
    set_ierr(ierr, rc);
}
#endif

/* ------------------------------------------------------------ the names */

ICF_NAMES(f_bcast, mpi_bcast, MPI_BCAST)
ICF_NAMES(f_reduce, mpi_reduce, MPI_REDUCE)
ICF_NAMES(f_allreduce, mpi_allreduce, MPI_ALLREDUCE)
ICF_NAMES(f_allgather, mpi_allgather, MPI_ALLGATHER)
ICF_NAMES(f_allgatherv, mpi_allgatherv, MPI_ALLGATHERV)
ICF_NAMES(f_reduce_scatter, mpi_reduce_scatter, MPI_REDUCE_SCATTER)
ICF_NAMES(f_reduce_scatter_block, mpi_reduce_scatter_block, MPI_REDUCE_SCATTER_BLOCK)
ICF_NAMES(f_scatter, mpi_scatter, MPI_SCATTER)
ICF_NAMES(f_scatterv, mpi_scatterv, MPI_SCATTERV)
ICF_NAMES(f_gather, mpi_gather, MPI_GATHER)
ICF_NAMES(f_gatherv, mpi_gatherv, MPI_GATHERV)
ICF_NAMES(f_barrier, mpi_barrier, MPI_BARRIER)
ICF_NAMES(f_finalize, mpi_finalize, MPI_FINALIZE)
ICF_NAMES(f_ibcast, mpi_ibcast, MPI_IBCAST)
ICF_NAMES(f_ireduce, mpi_ireduce, MPI_IREDUCE)
ICF_NAMES(f_iallreduce, mpi_iallreduce, MPI_IALLREDUCE)
ICF_NAMES(f_iallgather, mpi_iallgather, MPI_IALLGATHER)
ICF_NAMES(f_iallgatherv, mpi_iallgatherv, MPI_IALLGATHERV)
ICF_NAMES(f_ireduce_scatter, mpi_ireduce_scatter, MPI_IREDUCE_SCATTER)
ICF_NAMES(f_ireduce_scatter_block, mpi_ireduce_scatter_block, MPI_IREDUCE_SCATTER_BLOCK)
ICF_NAMES(f_iscatter, mpi_iscatter, MPI_ISCATTER)
ICF_NAMES(f_iscatterv, mpi_iscatterv, MPI_ISCATTERV)
ICF_NAMES(f_igather, mpi_igather, MPI_IGATHER)
ICF_NAMES(f_igatherv, mpi_igatherv, MPI_IGATHERV)
ICF_NAMES(f_ibarrier, mpi_ibarrier, MPI_IBARRIER)
#if defined(ICP_F_INIT)
ICF_NAMES(f_bcast_init, mpix_bcast_init, MPIX_BCAST_INIT)
ICF_NAMES(f_reduce_init, mpix_reduce_init, MPIX_REDUCE_INIT)
ICF_NAMES(f_allreduce_init, mpix_allreduce_init, MPIX_ALLREDUCE_INIT)
ICF_NAMES(f_allgather_init, mpix_allgather_init, MPIX_ALLGATHER_INIT)
ICF_NAMES(f_allgatherv_init, mpix_allgatherv_init, MPIX_ALLGATHERV_INIT)
ICF_NAMES(f_reduce_scatter_init, mpix_reduce_scatter_init, MPIX_REDUCE_SCATTER_INIT)
ICF_NAMES(f_reduce_scatter_block_init, mpix_reduce_scatter_block_init,
          MPIX_REDUCE_SCATTER_BLOCK_INIT)
ICF_NAMES(f_scatter_init, mpix_scatter_init, MPIX_SCATTER_INIT)
ICF_NAMES(f_scatterv_init, mpix_scatterv_init, MPIX_SCATTERV_INIT)
ICF_NAMES(f_gather_init, mpix_gather_init, MPIX_GATHER_INIT)
ICF_NAMES(f_gatherv_init, mpix_gatherv_init, MPIX_GATHERV_INIT)
ICF_NAMES(f_barrier_init, mpix_barrier_init, MPIX_BARRIER_INIT)
#endif

#elif defined(MPICH_VERSION) && defined(IC_FINT_IS_INT)

ICF_F08_NAMES(f_barrier, mpi_barrier)
ICF_F08_NAMES(f_finalize, mpi_finalize)

#else

/* No Fortran entry points for this MPI (see above). */
typedef int icp_no_fortran_entry_points;

#endif
