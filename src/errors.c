/*
 * errors.c -- argument checks and error raising, as MPI does it.
 *
 * The argument checks (ic_check_*) raise nothing: they record the error
 * class and a message in an ic_argerr_t, and the call (call.c) decides
 * when to raise it -- at once when every rank sees the mistake or the rank
 * cannot take part in the communication, after taking its part when only
 * this rank can see it (collectives.c, "errors only one rank can see").  No check
 * writes to user memory.  An error is raised through the communicator's error handler
 * (MPI_COMM_WORLD's when the communicator itself is invalid); under MPI_ERRORS_RETURN the call
 * returns the code.  A one-line message naming the call and the argument is printed on stderr
 * unless the handler is MPI_ERRORS_RETURN (the caller handles the code) and INTERCOM_VERBOSE is
 * unset.
 */
#include "config.h"
#include "ic_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int ic_error(MPI_Comm comm, int code, const char *fmt, ...)
{
    MPI_Comm target = (comm == MPI_COMM_NULL) ? MPI_COMM_WORLD : comm;
    int is_return = 0, is_fatal = 0;
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    if (MPI_Comm_get_errhandler(target, &eh) == MPI_SUCCESS) {
        is_return = (eh == MPI_ERRORS_RETURN);
        is_fatal = (eh == MPI_ERRORS_ARE_FATAL);
        if (eh != MPI_ERRHANDLER_NULL)
            MPI_Errhandler_free(&eh);
    }
    if (!is_return || ic_env()->verbose) {
        char msg[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        fprintf(stderr, "InterCom: %s\n", msg);
        fflush(stderr);
    }
    /* MPI_ERRORS_RETURN does nothing, so it is not called: SimGrid's SMPI
     * (3.32) calls a predefined handler's function, which it has none of,
     * and crashed at the first error of a program under MPI_ERRORS_RETURN.
     * Its MPI_ERRORS_ARE_FATAL has none either: there the job is aborted as
     * that handler would. */
    if (!is_return) {
#ifdef SMPI_H
        if (is_fatal)
            MPI_Abort(target, code);
#else
        (void)is_fatal;
#endif
        MPI_Comm_call_errhandler(target, code);
    }
    return code;
}

int ic_check_init(const char *fn)
{
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (!init || fin) {
        fprintf(stderr, "InterCom: %s called %s\n", fn,
                fin ? "after MPI_Finalize" : "before MPI_Init");
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

int ic_check_comm(const char *fn, MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL)
        return ic_error(MPI_COMM_NULL, MPI_ERR_COMM, "%s: communicator is MPI_COMM_NULL", fn);
    int inter = 0;
    if (MPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
        return ic_error(MPI_COMM_NULL, MPI_ERR_COMM, "%s: invalid communicator", fn);
    if (inter)
        return ic_error(comm, MPI_ERR_COMM, "%s: intercommunicators are not supported by InterCom",
                        fn);
    return MPI_SUCCESS;
}

int ic_argerr(ic_argerr_t *e, int code, const char *fmt, ...)
{
    int n = snprintf(e->msg, sizeof(e->msg), "%s: ", e->fn);
    if (n < 0 || (size_t)n >= sizeof(e->msg))
        n = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg + n, sizeof(e->msg) - (size_t)n, fmt, ap);
    va_end(ap);
    e->code = code;
    return code;
}

int ic_check_count(ic_argerr_t *e, long long count, const char *what)
{
    if (count < 0)
        return ic_argerr(e, MPI_ERR_COUNT, "%s is negative (%lld)", what, count);
    return MPI_SUCCESS;
}

int ic_check_type(ic_argerr_t *e, MPI_Datatype type, const char *what)
{
    if (type == MPI_DATATYPE_NULL)
        return ic_argerr(e, MPI_ERR_TYPE, "%s is MPI_DATATYPE_NULL", what);
    int size;
    if (ic_type_named(type)) /* remembered: no query */
        return MPI_SUCCESS;
    if (MPI_Type_size(type, &size) != MPI_SUCCESS)
        return ic_argerr(e, MPI_ERR_TYPE, "%s is not a valid datatype", what);
    return MPI_SUCCESS;
}

/* SimGrid's SMPI reads a send's data when it is posted, also to
 * MPI_PROC_NULL, but checks the commit at a count of 0 too. */
#ifdef SMPI_H
#define PROBE_COUNT 0
#else
#define PROBE_COUNT 1
#endif

/* MPI has no query for "committed"; a send to MPI_PROC_NULL makes the MPI
 * check it (Open MPI and MPICH reject an uncommitted
 * datatype there with MPI_ERR_TYPE), on a private copy of MPI_COMM_SELF,
 * whose errors return.  Predefined datatypes are always committed. */
int ic_check_committed(ic_argerr_t *e, MPI_Datatype type, const char *what)
{
    int ni, na, nd, comb = MPI_COMBINER_NAMED;
    if (ic_type_named(type) || MPI_Type_get_envelope(type, &ni, &na, &nd, &comb) != MPI_SUCCESS ||
        comb == MPI_COMBINER_NAMED)
        return MPI_SUCCESS;
    /* One element (MPICH checks nothing for a count of 0), from an address
     * that is never read: the destination is MPI_PROC_NULL (PROBE_COUNT). */
    static char dummy;
    MPI_Comm self = ic_self_comm();
    if (self == MPI_COMM_NULL ||
        MPI_Send(&dummy, PROBE_COUNT, type, MPI_PROC_NULL, 0, self) == MPI_SUCCESS)
        return MPI_SUCCESS;
    return ic_argerr(e, MPI_ERR_TYPE, "%s is not committed (MPI_Type_commit)", what);
}

int ic_check_root(ic_argerr_t *e, int root, int size)
{
    if (root < 0 || root >= size)
        return ic_argerr(e, MPI_ERR_ROOT, "root %d is out of range (communicator size %d)", root,
                         size);
    return MPI_SUCCESS;
}

int ic_check_buf(ic_argerr_t *e, const void *buf, long long count, MPI_Datatype type,
                 const char *what)
{
    if (buf != NULL || count == 0 || buf == MPI_IN_PLACE)
        return MPI_SUCCESS;
    /* A NULL (MPI_BOTTOM) buffer is legal with a datatype that carries
     * absolute addresses; reject it only when the data would start at 0. */
    MPI_Aint tlb, text;
    int size = 0;
    MPI_Type_size(type, &size);
    if (size == 0)
        return MPI_SUCCESS;
    if (MPI_Type_get_true_extent(type, &tlb, &text) == MPI_SUCCESS && tlb != 0)
        return MPI_SUCCESS;
    return ic_argerr(e, MPI_ERR_BUFFER, "%s is NULL with count %lld", what, count);
}

/* --- predefined op / type compatibility (MPI-3.1 section 5.9.2) ---
 *
 * Predefined ops are defined on predefined datatypes only: a derived
 * datatype, even a contiguous one of a single predefined type, is rejected
 * with MPI_ERR_OP, as Open MPI and MPICH do (their MPI_Reduce_local, which
 * the executor calls, rejects it too, and through MPI_COMM_WORLD's error
 * handler).  The groups follow the standard's table, with MPI_CHAR and
 * MPI_CHARACTER treated as integers and the multi-language types (MPI_AINT,
 * MPI_OFFSET, MPI_COUNT) also accepted by the logical ops, as both vendors
 * do.  Predefined types in no group (MPI_WCHAR, MPI_PACKED, ...) get
 * MPI_ERR_OP for every predefined op. */

enum {
    T_INT = 1,      /* C integer (and MPI_CHAR, multi-language types)  */
    T_FINT = 2,     /* Fortran integer                                 */
    T_FLOAT = 4,    /* floating point, C and Fortran                   */
    T_LOGICAL = 8,  /* MPI_C_BOOL, MPI_LOGICAL                         */
    T_COMPLEX = 16, /* complex, C and Fortran                          */
    T_BYTE = 32,
    T_PAIR = 64 /* MINLOC/MAXLOC pairs, C and Fortran              */
};

typedef struct type_class {
    MPI_Datatype type;
    int cls;
} type_class_t;

/* (datatype.c keeps the answer with a predefined type it has seen: a
 * short call does not scan the table.) */
int ic_type_op_class(MPI_Datatype t)
{
    static const type_class_t table[] = {
        {MPI_CHAR, T_INT},
        {MPI_SIGNED_CHAR, T_INT},
        {MPI_UNSIGNED_CHAR, T_INT},
        {MPI_SHORT, T_INT},
        {MPI_UNSIGNED_SHORT, T_INT},
        {MPI_INT, T_INT},
        {MPI_UNSIGNED, T_INT},
        {MPI_LONG, T_INT},
        {MPI_UNSIGNED_LONG, T_INT},
        {MPI_LONG_LONG, T_INT},
        {MPI_UNSIGNED_LONG_LONG, T_INT},
        {MPI_INT8_T, T_INT},
        {MPI_INT16_T, T_INT},
        {MPI_INT32_T, T_INT},
        {MPI_INT64_T, T_INT},
        {MPI_UINT8_T, T_INT},
        {MPI_UINT16_T, T_INT},
        {MPI_UINT32_T, T_INT},
        {MPI_UINT64_T, T_INT},
        {MPI_AINT, T_INT},
        {MPI_OFFSET, T_INT},
        {MPI_COUNT, T_INT},
        {MPI_FLOAT, T_FLOAT},
        {MPI_DOUBLE, T_FLOAT},
        {MPI_LONG_DOUBLE, T_FLOAT},
        {MPI_C_BOOL, T_LOGICAL},
        {MPI_C_FLOAT_COMPLEX, T_COMPLEX},
        {MPI_C_DOUBLE_COMPLEX, T_COMPLEX},
        {MPI_C_LONG_DOUBLE_COMPLEX, T_COMPLEX},
        {MPI_BYTE, T_BYTE},
        {MPI_FLOAT_INT, T_PAIR},
        {MPI_DOUBLE_INT, T_PAIR},
        {MPI_LONG_INT, T_PAIR},
        {MPI_2INT, T_PAIR},
        {MPI_SHORT_INT, T_PAIR},
        {MPI_LONG_DOUBLE_INT, T_PAIR},
#ifdef MPI_INTEGER
        {MPI_INTEGER, T_FINT},
#endif
#ifdef MPI_INTEGER1
        {MPI_INTEGER1, T_FINT},
#endif
#ifdef MPI_INTEGER2
        {MPI_INTEGER2, T_FINT},
#endif
#ifdef MPI_INTEGER4
        {MPI_INTEGER4, T_FINT},
#endif
#ifdef MPI_INTEGER8
        {MPI_INTEGER8, T_FINT},
#endif
#ifdef MPI_CHARACTER
        {MPI_CHARACTER, T_INT},
#endif
#ifdef MPI_REAL
        {MPI_REAL, T_FLOAT},
#endif
#ifdef MPI_DOUBLE_PRECISION
        {MPI_DOUBLE_PRECISION, T_FLOAT},
#endif
#ifdef MPI_REAL4
        {MPI_REAL4, T_FLOAT},
#endif
#ifdef MPI_REAL8
        {MPI_REAL8, T_FLOAT},
#endif
#ifdef MPI_LOGICAL
        {MPI_LOGICAL, T_LOGICAL},
#endif
#ifdef MPI_COMPLEX
        {MPI_COMPLEX, T_COMPLEX},
#endif
#ifdef MPI_DOUBLE_COMPLEX
        {MPI_DOUBLE_COMPLEX, T_COMPLEX},
#endif
#ifdef MPI_COMPLEX8
        {MPI_COMPLEX8, T_COMPLEX},
#endif
#ifdef MPI_COMPLEX16
        {MPI_COMPLEX16, T_COMPLEX},
#endif
#ifdef MPI_2INTEGER
        {MPI_2INTEGER, T_PAIR},
#endif
#ifdef MPI_2REAL
        {MPI_2REAL, T_PAIR},
#endif
#ifdef MPI_2DOUBLE_PRECISION
        {MPI_2DOUBLE_PRECISION, T_PAIR},
#endif
    };
    if (t == MPI_DATATYPE_NULL)
        return 0;
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
        if (t == table[i].type)
            return table[i].cls;
    return 0;
}

int ic_check_op(ic_argerr_t *e, MPI_Op op, MPI_Datatype type)
{
    if (op == MPI_OP_NULL)
        return ic_argerr(e, MPI_ERR_OP, "op is MPI_OP_NULL");
    if (op == MPI_REPLACE || op == MPI_NO_OP)
        return ic_argerr(e, MPI_ERR_OP, "MPI_REPLACE/MPI_NO_OP are for one-sided only");
    const int any_int = T_INT | T_FINT;
    int allowed = -1; /* -1: a user op, defined on any datatype */
    if (op == MPI_SUM || op == MPI_PROD)
        allowed = any_int | T_FLOAT | T_COMPLEX;
    else if (op == MPI_MIN || op == MPI_MAX)
        allowed = any_int | T_FLOAT;
    else if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR)
        allowed = T_INT | T_LOGICAL;
    else if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR)
        allowed = any_int | T_BYTE;
    else if (op == MPI_MINLOC || op == MPI_MAXLOC)
        allowed = T_PAIR;
    if (allowed < 0)
        return MPI_SUCCESS;
    if (type == MPI_DATATYPE_NULL)
        return ic_argerr(e, MPI_ERR_OP, "a predefined op with MPI_DATATYPE_NULL");
    int cls = ic_type_named_class(type);
    if (cls < 0)
        return ic_argerr(e, MPI_ERR_OP, "a predefined op is defined on predefined datatypes only");
    if (!(cls & allowed))
        return ic_argerr(e, MPI_ERR_OP, "this predefined op is not defined for the datatype");
    return MPI_SUCCESS;
}
