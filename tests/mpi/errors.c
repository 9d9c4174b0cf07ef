/*
 * errors.c -- bad input to the IC_ collectives, as MPI would see it.
 *
 * Every case is an erroneous call that every rank makes (so no rank enters
 * a collective that others left): negative counts, invalid roots,
 * MPI_DATATYPE_NULL, MPI_OP_NULL, a predefined op the datatype does not
 * have (a derived datatype included), NULL buffers with a positive count,
 * MPI_COMM_NULL, misused MPI_IN_PLACE and aliased buffers, an
 * intercommunicator, and mismatched amounts on a communicator of size 1.
 * Under MPI_ERRORS_RETURN each must
 *   - return the error class the vendor MPI gives for the same call (the
 *     vendor is asked first wherever it checks the mistake without
 *     crashing: vendors differ, e.g. Open MPI does not check NULL buffers
 *     and MPICH does not check MPI_IN_PLACE on a non-root; elsewhere the
 *     class the standard or the other vendor gives),
 *   - leave every byte of the user's buffers as it was,
 *   - leave the communicator usable (a correct IC_Allreduce follows).
 * Then the error handlers: a custom handler on a duplicated communicator is
 * invoked (once, with the code the call returns), MPI_COMM_NULL raises on
 * MPI_COMM_WORLD's handler, and a correct call invokes nothing.  And the
 * algorithm calls with bad names or collectives, and an unknown name in
 * INTERCOM_BARRIER_ALGORITHM (automatic selection goes on).
 *
 *   errors [--probe] [--only K]   --probe asks the vendor in every case (to
 *                                 learn what it checks; may crash)
 */
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Which vendors check a mistake without crashing (from their sources and
 * runs: Open MPI 4.1, MPICH 4.0). */
enum { P_NONE = 0, P_OMPI = 1, P_MPICH = 2, P_ALL = 3 };
#if defined(OPEN_MPI)
#define P_THIS P_OMPI
#define INPLACE_CLASS MPI_ERR_ARG /* what Open MPI gives for misused in-place */
#elif defined(MPICH_VERSION)
#define P_THIS P_MPICH
#define INPLACE_CLASS MPI_ERR_BUFFER
#else
#define P_THIS 0
#define INPLACE_CLASS MPI_ERR_BUFFER
#endif

enum { C_DUP, C_NULL, C_INTER, C_SELF };

typedef struct ecase {
    const char *name;
    int cls;   /* expected class when the vendor is not asked */
    int probe; /* P_* */
    int comm;  /* C_* */
} ecase_t;

#define NBUF 256
static int *sb, *rb;          /* the call's buffers (NBUF ints + guards) */
static int cnts[64], dsp[64]; /* counts/displs (p <= 64)                */
static MPI_Datatype contig2;  /* MPI_Type_contiguous(2, MPI_INT)        */

/* Both libraries, same arguments. */
#define X(f, ...) (ic ? IC_##f(__VA_ARGS__) : MPI_##f(__VA_ARGS__))
#define CASE(k_, name_, cls_, probe_, comm_, call_)                                                \
    case k_:                                                                                       \
        if (d) {                                                                                   \
            *d = (ecase_t){name_, cls_, probe_, comm_};                                            \
            return MPI_SUCCESS;                                                                    \
        }                                                                                          \
        return call_;

/* Case k: describe it (d != NULL) or make the call (ic: InterCom, else the
 * vendor).  Returns -1 past the last case. */
static int ecall(int k, ecase_t *d, int ic, MPI_Comm comm, int rank, int p)
{
    int *s = sb, *r = rb;
    int root = p > 1 ? 1 : 0, nonroot = rank != root;
    for (int i = 0; i < 64; i++) {
        cnts[i] = 1;
        dsp[i] = 2 * i;
    }
    (void)nonroot;
    switch (k) {
        /* ---- negative counts */
        CASE(0, "bcast: count < 0", MPI_ERR_COUNT, P_ALL, C_DUP, X(Bcast, s, -1, MPI_INT, 0, comm))
        CASE(1, "reduce: count < 0", MPI_ERR_COUNT, P_OMPI, C_DUP,
             X(Reduce, s, r, -1, MPI_INT, MPI_SUM, 0, comm))
        CASE(2, "allreduce: count < 0", MPI_ERR_COUNT, P_OMPI, C_DUP,
             X(Allreduce, s, r, -1, MPI_INT, MPI_SUM, comm))
        CASE(3, "allgather: sendcount < 0", MPI_ERR_COUNT, P_ALL, C_DUP,
             X(Allgather, s, -1, MPI_INT, r, 1, MPI_INT, comm))
        CASE(4, "allgather: recvcount < 0", MPI_ERR_COUNT, P_ALL, C_DUP,
             X(Allgather, s, 1, MPI_INT, r, -1, MPI_INT, comm))
        CASE(5, "allgatherv: recvcounts[p-1] < 0", MPI_ERR_COUNT, P_MPICH, C_DUP,
             (cnts[p - 1] = -1, X(Allgatherv, s, 1, MPI_INT, r, cnts, dsp, MPI_INT, comm)))
        CASE(6, "reduce_scatter: recvcounts[0] < 0", MPI_ERR_COUNT, P_ALL, C_DUP,
             (cnts[0] = -1, X(Reduce_scatter, s, r, cnts, MPI_INT, MPI_SUM, comm)))
        CASE(7, "reduce_scatter_block: recvcount < 0", MPI_ERR_COUNT, P_OMPI, C_DUP,
             X(Reduce_scatter_block, s, r, -1, MPI_INT, MPI_SUM, comm))
        CASE(8, "scatter: recvcount < 0 everywhere", MPI_ERR_COUNT, P_ALL, C_DUP,
             X(Scatter, s, 1, MPI_INT, r, -1, MPI_INT, 0, comm))
        CASE(9, "scatterv: recvcount < 0 everywhere", MPI_ERR_COUNT, P_ALL, C_DUP,
             X(Scatterv, s, cnts, dsp, MPI_INT, r, -1, MPI_INT, 0, comm))
        CASE(10, "gather: sendcount < 0 everywhere", MPI_ERR_COUNT, P_ALL, C_DUP,
             X(Gather, s, -1, MPI_INT, r, 1, MPI_INT, 0, comm))
        CASE(11, "gatherv: sendcount < 0 everywhere", MPI_ERR_COUNT, P_ALL, C_DUP,
             X(Gatherv, s, -1, MPI_INT, r, cnts, dsp, MPI_INT, 0, comm))
        /* ---- invalid roots */
        CASE(12, "bcast: root -1", MPI_ERR_ROOT, P_ALL, C_DUP, X(Bcast, s, 1, MPI_INT, -1, comm))
        CASE(13, "bcast: root p", MPI_ERR_ROOT, P_ALL, C_DUP, X(Bcast, s, 1, MPI_INT, p, comm))
        CASE(14, "reduce: root p", MPI_ERR_ROOT, P_ALL, C_DUP,
             X(Reduce, s, r, 1, MPI_INT, MPI_SUM, p, comm))
        CASE(15, "gather: root -1", MPI_ERR_ROOT, P_ALL, C_DUP,
             X(Gather, s, 1, MPI_INT, r, 1, MPI_INT, -1, comm))
        CASE(16, "gatherv: root p", MPI_ERR_ROOT, P_ALL, C_DUP,
             X(Gatherv, s, 1, MPI_INT, r, cnts, dsp, MPI_INT, p, comm))
        CASE(17, "scatter: root p", MPI_ERR_ROOT, P_ALL, C_DUP,
             X(Scatter, s, 1, MPI_INT, r, 1, MPI_INT, p, comm))
        CASE(18, "scatterv: root -1", MPI_ERR_ROOT, P_ALL, C_DUP,
             X(Scatterv, s, cnts, dsp, MPI_INT, r, 1, MPI_INT, -1, comm))
        /* ---- MPI_DATATYPE_NULL (with a predefined op, the op is checked
         * first: MPI_ERR_OP, as both vendors give) */
        CASE(19, "bcast: MPI_DATATYPE_NULL", MPI_ERR_TYPE, P_ALL, C_DUP,
             X(Bcast, s, 1, MPI_DATATYPE_NULL, 0, comm))
        CASE(20, "reduce: MPI_DATATYPE_NULL", MPI_ERR_OP, P_ALL, C_DUP,
             X(Reduce, s, r, 1, MPI_DATATYPE_NULL, MPI_SUM, 0, comm))
        CASE(21, "allreduce: MPI_DATATYPE_NULL", MPI_ERR_OP, P_ALL, C_DUP,
             X(Allreduce, s, r, 1, MPI_DATATYPE_NULL, MPI_SUM, comm))
        CASE(22, "allgather: sendtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, P_ALL, C_DUP,
             X(Allgather, s, 1, MPI_DATATYPE_NULL, r, 1, MPI_INT, comm))
        CASE(23, "allgatherv: recvtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, P_ALL, C_DUP,
             X(Allgatherv, s, 1, MPI_INT, r, cnts, dsp, MPI_DATATYPE_NULL, comm))
        CASE(24, "reduce_scatter: MPI_DATATYPE_NULL", MPI_ERR_OP, P_ALL, C_DUP,
             X(Reduce_scatter, s, r, cnts, MPI_DATATYPE_NULL, MPI_SUM, comm))
        CASE(25, "reduce_scatter_block: MPI_DATATYPE_NULL", MPI_ERR_OP, P_ALL, C_DUP,
             X(Reduce_scatter_block, s, r, 1, MPI_DATATYPE_NULL, MPI_SUM, comm))
        CASE(26, "gather: sendtype MPI_DATATYPE_NULL everywhere", MPI_ERR_TYPE, P_ALL, C_DUP,
             X(Gather, s, 1, MPI_DATATYPE_NULL, r, 1, MPI_INT, 0, comm))
        CASE(27, "scatter: recvtype MPI_DATATYPE_NULL everywhere", MPI_ERR_TYPE, P_ALL, C_DUP,
             X(Scatter, s, 1, MPI_INT, r, 1, MPI_DATATYPE_NULL, 0, comm))
        CASE(28, "gatherv: sendtype MPI_DATATYPE_NULL everywhere", MPI_ERR_TYPE, P_ALL, C_DUP,
             X(Gatherv, s, 1, MPI_DATATYPE_NULL, r, cnts, dsp, MPI_INT, 0, comm))
        CASE(29, "scatterv: recvtype MPI_DATATYPE_NULL everywhere", MPI_ERR_TYPE, P_ALL, C_DUP,
             X(Scatterv, s, cnts, dsp, MPI_INT, r, 1, MPI_DATATYPE_NULL, 0, comm))
        /* ---- MPI_OP_NULL, ops the datatype does not have */
        CASE(30, "reduce: MPI_OP_NULL", MPI_ERR_OP, P_ALL, C_DUP,
             X(Reduce, s, r, 1, MPI_INT, MPI_OP_NULL, 0, comm))
        CASE(31, "allreduce: MPI_OP_NULL", MPI_ERR_OP, P_ALL, C_DUP,
             X(Allreduce, s, r, 1, MPI_INT, MPI_OP_NULL, comm))
        CASE(32, "reduce_scatter: MPI_OP_NULL", MPI_ERR_OP, P_ALL, C_DUP,
             X(Reduce_scatter, s, r, cnts, MPI_INT, MPI_OP_NULL, comm))
        CASE(33, "reduce_scatter_block: MPI_OP_NULL", MPI_ERR_OP, P_ALL, C_DUP,
             X(Reduce_scatter_block, s, r, 1, MPI_INT, MPI_OP_NULL, comm))
        CASE(34, "allreduce: MPI_BAND on MPI_DOUBLE", MPI_ERR_OP, P_ALL, C_DUP,
             X(Allreduce, s, r, 1, MPI_DOUBLE, MPI_BAND, comm))
        CASE(35, "allreduce: MPI_MINLOC on MPI_INT", MPI_ERR_OP, P_ALL, C_DUP,
             X(Allreduce, s, r, 1, MPI_INT, MPI_MINLOC, comm))
        CASE(36, "reduce: MPI_SUM on MPI_C_BOOL", MPI_ERR_OP, P_ALL, C_DUP,
             X(Reduce, s, r, 1, MPI_C_BOOL, MPI_SUM, 0, comm))
        CASE(37, "allreduce: MPI_MAX on MPI_C_DOUBLE_COMPLEX", MPI_ERR_OP, P_ALL, C_DUP,
             X(Allreduce, s, r, 1, MPI_C_DOUBLE_COMPLEX, MPI_MAX, comm))
        CASE(38, "reduce_scatter_block: MPI_LAND on MPI_DOUBLE", MPI_ERR_OP, P_OMPI, C_DUP,
             X(Reduce_scatter_block, s, r, 1, MPI_DOUBLE, MPI_LAND, comm))
        CASE(39, "allreduce: MPI_SUM on a contiguous derived datatype", MPI_ERR_OP, P_ALL, C_DUP,
             X(Allreduce, s, r, 1, contig2, MPI_SUM, comm))
        CASE(40, "reduce: MPI_MAX on a strided vector", MPI_ERR_OP, P_ALL, C_DUP,
             X(Reduce, s, r, 1, mt_vec_int.type, MPI_MAX, 0, comm))
        CASE(41, "allreduce: MPI_SUM on MPI_BYTE", MPI_ERR_OP, P_ALL, C_DUP,
             X(Allreduce, s, r, 4, MPI_BYTE, MPI_SUM, comm))
        CASE(42, "allreduce: MPI_REPLACE", MPI_ERR_OP, P_ALL, C_DUP,
             X(Allreduce, s, r, 1, MPI_INT, MPI_REPLACE, comm))
        CASE(43, "allreduce: MPI_SUM on MPI_WCHAR", MPI_ERR_OP, P_ALL, C_DUP,
             X(Allreduce, s, r, 1, MPI_WCHAR, MPI_SUM, comm))
        /* ---- NULL buffers with count > 0 */
        CASE(44, "bcast: NULL buffer", MPI_ERR_BUFFER, P_MPICH, C_DUP,
             X(Bcast, NULL, 1, MPI_INT, 0, comm))
        CASE(45, "allreduce: NULL sendbuf", MPI_ERR_BUFFER, P_MPICH, C_DUP,
             X(Allreduce, NULL, r, 1, MPI_INT, MPI_SUM, comm))
        CASE(46, "allreduce: NULL recvbuf", MPI_ERR_BUFFER, P_MPICH, C_DUP,
             X(Allreduce, s, NULL, 1, MPI_INT, MPI_SUM, comm))
        CASE(47, "reduce: NULL recvbuf at the root, NULL sendbuf elsewhere", MPI_ERR_BUFFER,
             P_MPICH, C_DUP,
             X(Reduce, nonroot ? NULL : s, nonroot ? r : NULL, 1, MPI_INT, MPI_SUM, root, comm))
        CASE(48, "allgather: NULL sendbuf", MPI_ERR_BUFFER, P_MPICH, C_DUP,
             X(Allgather, NULL, 1, MPI_INT, r, 1, MPI_INT, comm))
        CASE(49, "gather: NULL sendbuf everywhere", MPI_ERR_BUFFER, P_MPICH, C_DUP,
             X(Gather, NULL, 1, MPI_INT, r, 1, MPI_INT, 0, comm))
        CASE(50, "scatter: NULL recvbuf everywhere", MPI_ERR_BUFFER, P_MPICH, C_DUP,
             X(Scatter, s, 1, MPI_INT, NULL, 1, MPI_INT, 0, comm))
        CASE(51, "reduce_scatter_block: NULL recvbuf", MPI_ERR_BUFFER, P_MPICH, C_DUP,
             X(Reduce_scatter_block, s, NULL, 1, MPI_INT, MPI_SUM, comm))
        /* ---- MPI_COMM_NULL (raised on MPI_COMM_WORLD's handler) */
        CASE(52, "bcast: MPI_COMM_NULL", MPI_ERR_COMM, P_ALL, C_NULL,
             X(Bcast, s, 1, MPI_INT, 0, MPI_COMM_NULL))
        CASE(53, "reduce: MPI_COMM_NULL", MPI_ERR_COMM, P_ALL, C_NULL,
             X(Reduce, s, r, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_NULL))
        CASE(54, "allreduce: MPI_COMM_NULL", MPI_ERR_COMM, P_ALL, C_NULL,
             X(Allreduce, s, r, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL))
        CASE(55, "allgather: MPI_COMM_NULL", MPI_ERR_COMM, P_MPICH, C_NULL,
             X(Allgather, s, 1, MPI_INT, r, 1, MPI_INT, MPI_COMM_NULL))
        CASE(56, "allgatherv: MPI_COMM_NULL", MPI_ERR_COMM, P_ALL, C_NULL,
             X(Allgatherv, s, 1, MPI_INT, r, cnts, dsp, MPI_INT, MPI_COMM_NULL))
        CASE(57, "reduce_scatter: MPI_COMM_NULL", MPI_ERR_COMM, P_ALL, C_NULL,
             X(Reduce_scatter, s, r, cnts, MPI_INT, MPI_SUM, MPI_COMM_NULL))
        CASE(58, "reduce_scatter_block: MPI_COMM_NULL", MPI_ERR_COMM, P_ALL, C_NULL,
             X(Reduce_scatter_block, s, r, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL))
        CASE(59, "scatter: MPI_COMM_NULL", MPI_ERR_COMM, P_ALL, C_NULL,
             X(Scatter, s, 1, MPI_INT, r, 1, MPI_INT, 0, MPI_COMM_NULL))
        CASE(60, "scatterv: MPI_COMM_NULL", MPI_ERR_COMM, P_ALL, C_NULL,
             X(Scatterv, s, cnts, dsp, MPI_INT, r, 1, MPI_INT, 0, MPI_COMM_NULL))
        CASE(61, "gather: MPI_COMM_NULL", MPI_ERR_COMM, P_ALL, C_NULL,
             X(Gather, s, 1, MPI_INT, r, 1, MPI_INT, 0, MPI_COMM_NULL))
        CASE(62, "gatherv: MPI_COMM_NULL", MPI_ERR_COMM, P_ALL, C_NULL,
             X(Gatherv, s, 1, MPI_INT, r, cnts, dsp, MPI_INT, 0, MPI_COMM_NULL))
        CASE(63, "barrier: MPI_COMM_NULL", MPI_ERR_COMM, P_ALL, C_NULL, X(Barrier, MPI_COMM_NULL))
        /* ---- misused MPI_IN_PLACE, aliased buffers */
        CASE(64, "bcast: MPI_IN_PLACE", INPLACE_CLASS, P_OMPI, C_DUP,
             X(Bcast, MPI_IN_PLACE, 1, MPI_INT, 0, comm))
        CASE(65, "allreduce: recvbuf MPI_IN_PLACE", MPI_ERR_BUFFER, P_ALL, C_DUP,
             X(Allreduce, s, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, comm))
        CASE(66, "allreduce: sendbuf == recvbuf", MPI_ERR_BUFFER, P_ALL, C_DUP,
             X(Allreduce, r, r, 2, MPI_INT, MPI_SUM, comm))
        CASE(67, "reduce: recvbuf MPI_IN_PLACE at the root, sendbuf elsewhere", INPLACE_CLASS,
             P_OMPI, C_DUP,
             X(Reduce, nonroot ? MPI_IN_PLACE : s, nonroot ? r : MPI_IN_PLACE, 1, MPI_INT, MPI_SUM,
               root, comm))
        CASE(68, "reduce: sendbuf == recvbuf at the root, MPI_IN_PLACE elsewhere", INPLACE_CLASS,
             P_OMPI, C_DUP,
             X(Reduce, nonroot ? MPI_IN_PLACE : r, r, 1, MPI_INT, MPI_SUM, root, comm))
        CASE(69, "reduce_scatter_block: recvbuf MPI_IN_PLACE", INPLACE_CLASS, P_ALL, C_DUP,
             X(Reduce_scatter_block, s, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, comm))
        CASE(70, "reduce_scatter: recvbuf MPI_IN_PLACE", INPLACE_CLASS, P_ALL, C_DUP,
             X(Reduce_scatter, s, MPI_IN_PLACE, cnts, MPI_INT, MPI_SUM, comm))
        CASE(71, "allgather: recvbuf MPI_IN_PLACE", INPLACE_CLASS, P_ALL, C_DUP,
             X(Allgather, s, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, comm))
        CASE(72, "allgatherv: recvbuf MPI_IN_PLACE", INPLACE_CLASS, P_ALL, C_DUP,
             X(Allgatherv, s, 1, MPI_INT, MPI_IN_PLACE, cnts, dsp, MPI_INT, comm))
        CASE(73, "gather: recvbuf MPI_IN_PLACE at the root, sendbuf elsewhere", INPLACE_CLASS,
             P_OMPI, C_DUP,
             X(Gather, nonroot ? MPI_IN_PLACE : s, 1, MPI_INT, nonroot ? r : MPI_IN_PLACE, 1,
               MPI_INT, root, comm))
        CASE(74, "scatter: sendbuf MPI_IN_PLACE at the root, recvbuf elsewhere", INPLACE_CLASS,
             P_OMPI, C_DUP,
             X(Scatter, nonroot ? s : MPI_IN_PLACE, 1, MPI_INT, nonroot ? MPI_IN_PLACE : r, 1,
               MPI_INT, root, comm))
        CASE(75, "gatherv: recvbuf MPI_IN_PLACE at the root, sendbuf elsewhere", INPLACE_CLASS,
             P_OMPI, C_DUP,
             X(Gatherv, nonroot ? MPI_IN_PLACE : s, 1, MPI_INT, nonroot ? r : MPI_IN_PLACE, cnts,
               dsp, MPI_INT, root, comm))
        CASE(76, "scatterv: sendbuf MPI_IN_PLACE at the root, recvbuf elsewhere", INPLACE_CLASS,
             P_OMPI, C_DUP,
             X(Scatterv, nonroot ? s : MPI_IN_PLACE, cnts, dsp, MPI_INT, nonroot ? MPI_IN_PLACE : r,
               1, MPI_INT, root, comm))
        CASE(85, "allgather: sendbuf == recvbuf", MPI_ERR_BUFFER, P_NONE, C_DUP,
             X(Allgather, r, 1, MPI_INT, r, 1, MPI_INT, comm))
        /* ---- more NULL buffers with count > 0 */
        CASE(86, "gatherv: NULL recvbuf at the root, NULL sendbuf elsewhere", MPI_ERR_BUFFER,
             P_MPICH, C_DUP,
             X(Gatherv, nonroot ? NULL : s, 1, MPI_INT, nonroot ? r : NULL, cnts, dsp, MPI_INT,
               root, comm))
        CASE(87, "scatterv: NULL sendbuf at the root, NULL recvbuf elsewhere", MPI_ERR_BUFFER,
             P_MPICH, C_DUP,
             X(Scatterv, nonroot ? s : NULL, cnts, dsp, MPI_INT, nonroot ? NULL : r, 1, MPI_INT,
               root, comm))
        CASE(88, "allgatherv: NULL recvbuf", MPI_ERR_BUFFER, P_MPICH, C_DUP,
             X(Allgatherv, s, 1, MPI_INT, NULL, cnts, dsp, MPI_INT, comm))
        CASE(89, "reduce_scatter: NULL sendbuf", MPI_ERR_BUFFER, P_MPICH, C_DUP,
             X(Reduce_scatter, NULL, r, cnts, MPI_INT, MPI_SUM, comm))
        /* ---- intercommunicators: not served by InterCom */
        CASE(77, "bcast: intercommunicator", MPI_ERR_COMM, P_NONE, C_INTER,
             X(Bcast, s, 1, MPI_INT, MPI_ROOT, comm))
        CASE(78, "allreduce: intercommunicator", MPI_ERR_COMM, P_NONE, C_INTER,
             X(Allreduce, s, r, 1, MPI_INT, MPI_SUM, comm))
        CASE(79, "gatherv: intercommunicator", MPI_ERR_COMM, P_NONE, C_INTER,
             X(Gatherv, s, 1, MPI_INT, r, cnts, dsp, MPI_INT, 0, comm))
        CASE(80, "barrier: intercommunicator", MPI_ERR_COMM, P_NONE, C_INTER, X(Barrier, comm))
        /* ---- mismatched amounts (size 1: every rank sees the mistake) */
        CASE(81, "gather: sendcount 2, recvcount 1", MPI_ERR_TRUNCATE, P_ALL, C_SELF,
             X(Gather, s, 2, MPI_INT, r, 1, MPI_INT, 0, comm))
        CASE(82, "scatter: sendcount 2, recvcount 1", MPI_ERR_TRUNCATE, P_ALL, C_SELF,
             X(Scatter, s, 2, MPI_INT, r, 1, MPI_INT, 0, comm))
        CASE(83, "allgather: sendcount 2, recvcount 1", MPI_ERR_TRUNCATE, P_ALL, C_SELF,
             X(Allgather, s, 2, MPI_INT, r, 1, MPI_INT, comm))
        CASE(84, "gatherv: sendcount 2, recvcounts[0] 1", MPI_ERR_TRUNCATE, P_ALL, C_SELF,
             X(Gatherv, s, 2, MPI_INT, r, cnts, dsp, MPI_INT, 0, comm))
    default:
        return -1;
    }
}

/* ------------------------------------------------------------- checks */

static const char *class_name(int cls)
{
    static char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(cls, s, &len) != MPI_SUCCESS)
        snprintf(s, sizeof(s), "class %d", cls);
    char *colon = strchr(s, ':');
    if (colon)
        *colon = '\0';
    return s;
}

static int error_class(int rc)
{
    int cls = rc;
    if (rc != MPI_SUCCESS && MPI_Error_class(rc, &cls) != MPI_SUCCESS)
        cls = -1;
    return cls;
}

static int *sb_mem, *rb_mem, *sb_init, *rb_init;
#define GUARD 16
#define TOTAL (NBUF + 2 * GUARD)

static void fill(int salt)
{
    for (int i = 0; i < TOTAL; i++) {
        sb_mem[i] = 0x5A000000 + i * 7 + salt;
        rb_mem[i] = 0x3C000000 + i * 11 + salt;
    }
    memcpy(sb_init, sb_mem, TOTAL * sizeof(int));
    memcpy(rb_init, rb_mem, TOTAL * sizeof(int));
}

/* A correct IC_Allreduce on comm: the communicator still works. */
static void still_usable(MPI_Comm comm, const mt_case_t *c)
{
    int rank, p, x, sum = -1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    x = rank + 1;
    int rc = IC_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, comm);
    if (rc != MPI_SUCCESS || sum != p * (p + 1) / 2)
        mt_fail(c,
                "the communicator is not usable after the error (IC_Allreduce: rc %d, "
                "sum %d, expected %d)",
                rc, sum, p * (p + 1) / 2);
}

static MPI_Comm make_inter(void)
{
#ifdef SMPI_H
    /* SimGrid's SMPI has no intercommunicators (MPI_Intercomm_create aborts) */
    if (mt_rank == 0)
        printf("NOTE: errors: this MPI (SimGrid SMPI) has no intercommunicators: "
               "their cases skipped\n");
    return MPI_COMM_NULL;
#endif
    MPI_Comm half, inter = MPI_COMM_NULL;
    int color = mt_rank % 2;
    MPI_Comm_split(mt_world, color, mt_rank, &half);
    /* local leader 0 of each half; remote leader: world rank 1 or 0 */
    MPI_Intercomm_create(half, 0, mt_world, color ? 0 : 1, 77, &inter);
    MPI_Comm_free(&half);
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    return inter;
}

static void run_cases(int probe_all, int only)
{
    MPI_Comm dup, self, inter = MPI_COMM_NULL;
    MPI_Comm_dup(mt_world, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_SELF, &self);
    MPI_Comm_set_errhandler(self, MPI_ERRORS_RETURN);
    if (mt_size >= 2)
        inter = make_inter();
    /* MPI_COMM_NULL and errors without a communicator go to MPI_COMM_WORLD */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    for (int k = 0;; k++) {
        ecase_t d;
        if (ecall(k, &d, 0, MPI_COMM_NULL, 0, 1) < 0)
            break;
        if (only >= 0 && k != only)
            continue;
        MPI_Comm comm = d.comm == C_DUP     ? dup
                        : d.comm == C_SELF  ? self
                        : d.comm == C_INTER ? inter
                                            : MPI_COMM_NULL;
        if (d.comm == C_INTER && inter == MPI_COMM_NULL)
            continue;
        int rank = 0, p = 1;
        if (comm != MPI_COMM_NULL) {
            MPI_Comm_rank(comm, &rank);
            if (d.comm == C_INTER)
                MPI_Comm_remote_size(comm, &p);
            else
                MPI_Comm_size(comm, &p);
        }
        char what[16];
        snprintf(what, sizeof(what), "case %d", k);
        mt_case_t c = {"errors",
                       NULL,
                       comm == MPI_COMM_NULL ? mt_world : comm,
                       d.comm == C_SELF    ? "self"
                       : d.comm == C_INTER ? "intercomm"
                                           : "world",
                       -1,
                       0,
                       NULL,
                       NULL,
                       0,
                       d.name};
        mt_begin(&c);
        int expect = d.cls, vendor = -2;
        if (probe_all || (d.probe & P_THIS)) {
            fill(k);
            vendor = error_class(ecall(k, NULL, 0, comm, rank, p));
            if (vendor != MPI_SUCCESS)
                expect = vendor;
            if (probe_all && mt_rank == 0)
                printf("probe %d %s: vendor %s\n", k, d.name,
                       vendor == MPI_SUCCESS ? "MPI_SUCCESS" : class_name(vendor));
        }
        fill(k + 1000);
        int rc = ecall(k, NULL, 1, comm, rank, p);
        int cls = error_class(rc);
        if (rc == MPI_SUCCESS) {
            mt_fail(&c, "%s: InterCom returned MPI_SUCCESS, expected %s", what, class_name(expect));
        } else if (cls != expect) {
            char got[MPI_MAX_ERROR_STRING];
            snprintf(got, sizeof(got), "%s", class_name(cls));
            mt_fail(&c, "%s: InterCom returned %s, expected %s%s", what, got, class_name(expect),
                    vendor > 0 ? " (the vendor's class)" : "");
        }
        for (int i = 0; i < TOTAL; i++)
            if (sb_mem[i] != sb_init[i] || rb_mem[i] != rb_init[i]) {
                mt_fail(&c, "%s: user buffer written at int %d of %s", what, i - GUARD,
                        sb_mem[i] != sb_init[i] ? "sendbuf" : "recvbuf");
                break;
            }
        if (d.comm == C_DUP || d.comm == C_SELF)
            still_usable(comm, &c);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    if (inter != MPI_COMM_NULL)
        MPI_Comm_free(&inter);
    MPI_Comm_free(&self);
    MPI_Comm_free(&dup);
}

/* ------------------------------------------------------ error handlers */

static int calls;
static MPI_Comm called_on;
static int called_code;

static void handler(MPI_Comm *comm, int *code, ...)
{
    calls++;
    called_on = *comm;
    called_code = *code;
}

/* -------------------------------------------------------- introspection */

/* Bad names and collectives for the algorithm calls; an unknown name in
 * INTERCOM_<OP>_ALGORITHM (set before the first barrier) leaves automatic
 * selection working. */
static void run_introspection(void)
{
    mt_case_t c = {"introspection",
                   NULL,
                   mt_world,
                   "world",
                   -1,
                   0,
                   NULL,
                   NULL,
                   0,
                   "IC_Set_algorithm, IC_Algorithm_name, IC_Last_algorithm"};
    mt_begin(&c);
    if (IC_Set_algorithm(IC_COLL_ID_ALLREDUCE, "no-such-algorithm") != MPI_ERR_ARG)
        mt_fail(&c, "IC_Set_algorithm accepted an unknown name");
    if (IC_Set_algorithm(IC_COLL_ID_COUNT, NULL) != MPI_ERR_ARG ||
        IC_Set_algorithm((IC_Coll)-1, "auto") != MPI_ERR_ARG)
        mt_fail(&c, "IC_Set_algorithm accepted an invalid collective");
    if (IC_Algorithm_name(IC_COLL_ID_BCAST, IC_Algorithm_count(IC_COLL_ID_BCAST)) != NULL ||
        IC_Algorithm_name(IC_COLL_ID_BCAST, -1) != NULL ||
        IC_Algorithm_count(IC_COLL_ID_COUNT) != 0)
        mt_fail(&c, "IC_Algorithm_name/_count out of range");
    for (int k = 0; k < IC_COLL_ID_COUNT; k++)
        if (IC_Algorithm_count((IC_Coll)k) < 1)
            mt_fail(&c, "collective %d has no algorithm", k);
    if (strcmp(IC_Last_algorithm(IC_COLL_ID_COUNT), "") != 0)
        mt_fail(&c, "IC_Last_algorithm of an invalid collective");
    /* the environment override with an unknown name: a warning, then auto */
    if (strcmp(IC_Last_algorithm(IC_COLL_ID_BARRIER), "") != 0)
        mt_fail(&c, "IC_Last_algorithm(barrier) before any barrier: '%s'",
                IC_Last_algorithm(IC_COLL_ID_BARRIER));
    int rc = IC_Barrier(mt_world), known = mt_size == 1;
    const char *last = IC_Last_algorithm(IC_COLL_ID_BARRIER);
    for (int i = 0; i < IC_Algorithm_count(IC_COLL_ID_BARRIER); i++)
        known |= strcmp(last, IC_Algorithm_name(IC_COLL_ID_BARRIER, i)) == 0;
    if (rc != MPI_SUCCESS || !known)
        mt_fail(&c, "IC_Barrier with INTERCOM_BARRIER_ALGORITHM=no-such: rc %d, ran '%s'", rc,
                last);
}

static void run_handlers(void)
{
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(handler, &eh);
    MPI_Comm comm;
    MPI_Comm_dup(mt_world, &comm);
    MPI_Comm_set_errhandler(comm, eh);
    mt_case_t c = {"errors", NULL, comm, "dup+handler",         -1, 0,
                   NULL,     NULL, 0,    "custom error handler"};
    mt_begin(&c);
    int buf[4] = {1, 2, 3, 4};

    calls = 0;
    int rc = IC_Bcast(buf, -1, MPI_INT, 0, comm);
    int cls = error_class(rc);
    if (calls != 1 || called_on != comm || error_class(called_code) != MPI_ERR_COUNT ||
        cls != MPI_ERR_COUNT || called_code != rc)
        mt_fail(&c,
                "IC_Bcast(count -1): handler called %d time(s) (code %d), returned %d "
                "(expected one call on the communicator, MPI_ERR_COUNT, same code)",
                calls, called_code, rc);

    calls = 0;
    rc = IC_Allreduce(MPI_IN_PLACE, buf, 4, MPI_INT, MPI_SUM, comm);
    if (calls != 0 || rc != MPI_SUCCESS)
        mt_fail(&c, "a correct IC_Allreduce invoked the handler %d time(s), returned %d", calls,
                rc);

    /* MPI_COMM_NULL: MPI_COMM_WORLD's handler */
    MPI_Errhandler old;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &old);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    calls = 0;
    rc = IC_Barrier(MPI_COMM_NULL);
    if (calls != 1 || called_on != MPI_COMM_WORLD || error_class(rc) != MPI_ERR_COMM)
        mt_fail(&c,
                "IC_Barrier(MPI_COMM_NULL): MPI_COMM_WORLD's handler called %d time(s), "
                "returned %d (expected one call, MPI_ERR_COMM)",
                calls, rc);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, old);
    MPI_Errhandler_free(&old);

    MPI_Comm_free(&comm);
    MPI_Errhandler_free(&eh);
}

int main(int argc, char **argv)
{
    setenv("INTERCOM_BARRIER_ALGORITHM", "no-such", 1); /* see run_introspection */
    mt_init(&argc, &argv, "errors");
    int probe_all = 0, only = -1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--probe") == 0)
            probe_all = 1;
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = atoi(argv[++i]);
    }
    sb_mem = malloc(TOTAL * sizeof(int));
    rb_mem = malloc(TOTAL * sizeof(int));
    sb_init = malloc(TOTAL * sizeof(int));
    rb_init = malloc(TOTAL * sizeof(int));
    sb = sb_mem + GUARD;
    rb = rb_mem + GUARD;
    MPI_Type_contiguous(2, MPI_INT, &contig2);
    MPI_Type_commit(&contig2);
    if (only < 0)
        run_introspection();
    run_cases(probe_all, only);
    if (only < 0)
        run_handlers();
    MPI_Type_free(&contig2);
    free(sb_mem);
    free(rb_mem);
    free(sb_init);
    free(rb_init);
    return mt_finalize();
}
