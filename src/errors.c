/*
 * errors.c -- argument checks and error raising, as MPI does it.
 *
 * Every check runs before any communication or any write to user memory,
 * so a rejected call leaves the user's buffers as they were.  The error is
 * raised through the communicator's error handler (MPI_COMM_WORLD's when the
 * communicator itself is invalid); under MPI_ERRORS_RETURN the call returns
 * the code.  A one-line message naming the call and the argument is printed
 * on stderr unless the handler is MPI_ERRORS_RETURN (the caller handles the
 * code) and INTERCOM_VERBOSE is unset.
 */
#include "config.h"
#include "ic_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int ic_error(MPI_Comm comm, int code, const char *fmt, ...)
{
    MPI_Comm target = (comm == MPI_COMM_NULL) ? MPI_COMM_WORLD : comm;
    int is_return = 0;
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    if (MPI_Comm_get_errhandler(target, &eh) == MPI_SUCCESS) {
        is_return = (eh == MPI_ERRORS_RETURN);
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
    MPI_Comm_call_errhandler(target, code);
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
        return ic_error(comm, MPI_ERR_COMM,
                        "%s: intercommunicators are not supported by InterCom", fn);
    return MPI_SUCCESS;
}

int ic_check_count(const char *fn, MPI_Comm comm, int count, const char *what)
{
    if (count < 0)
        return ic_error(comm, MPI_ERR_COUNT, "%s: %s is negative (%d)", fn, what, count);
    return MPI_SUCCESS;
}

int ic_check_type(const char *fn, MPI_Comm comm, MPI_Datatype type, const char *what)
{
    if (type == MPI_DATATYPE_NULL)
        return ic_error(comm, MPI_ERR_TYPE, "%s: %s is MPI_DATATYPE_NULL", fn, what);
    int size;
    if (MPI_Type_size(type, &size) != MPI_SUCCESS)
        return ic_error(comm, MPI_ERR_TYPE, "%s: %s is not a valid datatype", fn, what);
    return MPI_SUCCESS;
}

int ic_check_root(const char *fn, MPI_Comm comm, int root, int size)
{
    if (root < 0 || root >= size)
        return ic_error(comm, MPI_ERR_ROOT, "%s: root %d is out of range (communicator size %d)",
                        fn, root, size);
    return MPI_SUCCESS;
}

int ic_check_buf(const char *fn, MPI_Comm comm, const void *buf, int count, MPI_Datatype type,
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
    return ic_error(comm, MPI_ERR_BUFFER, "%s: %s is NULL with count %d", fn, what, count);
}

/* --- predefined op / type compatibility (MPI-3.1 section 5.9.2) --- */

enum { T_INT = 1, T_FLOAT = 2, T_LOGICAL = 4, T_COMPLEX = 8, T_BYTE = 16, T_PAIR = 32 };

static int basic_class(MPI_Datatype t)
{
    static const MPI_Datatype ints[] = {
        MPI_CHAR, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_INT,
        MPI_UNSIGNED, MPI_LONG, MPI_UNSIGNED_LONG, MPI_LONG_LONG, MPI_UNSIGNED_LONG_LONG,
        MPI_INT8_T, MPI_INT16_T, MPI_INT32_T, MPI_INT64_T, MPI_UINT8_T, MPI_UINT16_T,
        MPI_UINT32_T, MPI_UINT64_T, MPI_AINT, MPI_OFFSET, MPI_COUNT, MPI_WCHAR};
    static const MPI_Datatype floats[] = {MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE};
    static const MPI_Datatype pairs[] = {MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT,
                                         MPI_2INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT};
    for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
        if (t == ints[i])
            return T_INT;
    for (size_t i = 0; i < sizeof(floats) / sizeof(floats[0]); i++)
        if (t == floats[i])
            return T_FLOAT;
    for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
        if (t == pairs[i])
            return T_PAIR;
    if (t == MPI_C_BOOL)
        return T_LOGICAL;
    if (t == MPI_C_FLOAT_COMPLEX || t == MPI_C_DOUBLE_COMPLEX || t == MPI_C_LONG_DOUBLE_COMPLEX)
        return T_COMPLEX;
    if (t == MPI_BYTE)
        return T_BYTE;
    return 0; /* unknown predefined (e.g. Fortran types): let MPI decide */
}

/* The single predefined type a (possibly derived) type is built from, or
 * MPI_DATATYPE_NULL when it mixes several. */
static MPI_Datatype basic_of(MPI_Datatype t, int depth)
{
    int ni, na, nd, comb;
    if (depth > 32 || MPI_Type_get_envelope(t, &ni, &na, &nd, &comb) != MPI_SUCCESS)
        return MPI_DATATYPE_NULL;
    if (comb == MPI_COMBINER_NAMED)
        return t;
    int ints[64];
    MPI_Aint addrs[64];
    MPI_Datatype types[16];
    if (ni > 64 || na > 64 || nd > 16)
        return MPI_DATATYPE_NULL;
    if (MPI_Type_get_contents(t, ni, na, nd, ints, addrs, types) != MPI_SUCCESS)
        return MPI_DATATYPE_NULL;
    MPI_Datatype res = MPI_DATATYPE_NULL;
    int mixed = 0;
    for (int i = 0; i < nd; i++) {
        MPI_Datatype b = mixed ? MPI_DATATYPE_NULL : basic_of(types[i], depth + 1);
        int ni2, na2, nd2, comb2;
        MPI_Type_get_envelope(types[i], &ni2, &na2, &nd2, &comb2);
        if (comb2 != MPI_COMBINER_NAMED)
            MPI_Type_free(&types[i]);
        if (mixed)
            continue;
        if (b == MPI_DATATYPE_NULL || (res != MPI_DATATYPE_NULL && res != b))
            mixed = 1;
        else
            res = b;
    }
    if (mixed)
        return MPI_DATATYPE_NULL;
    return res;
}

int ic_check_op(const char *fn, MPI_Comm comm, MPI_Op op, MPI_Datatype type)
{
    if (op == MPI_OP_NULL)
        return ic_error(comm, MPI_ERR_OP, "%s: op is MPI_OP_NULL", fn);
    static const MPI_Op arith[] = {MPI_SUM, MPI_PROD};
    static const MPI_Op order[] = {MPI_MIN, MPI_MAX};
    static const MPI_Op logic[] = {MPI_LAND, MPI_LOR, MPI_LXOR};
    static const MPI_Op bits[] = {MPI_BAND, MPI_BOR, MPI_BXOR};
    int allowed = -1; /* -1: user op or unknown, MPI decides */
    for (int i = 0; i < 2; i++)
        if (op == arith[i])
            allowed = T_INT | T_FLOAT | T_COMPLEX;
    for (int i = 0; i < 2; i++)
        if (op == order[i])
            allowed = T_INT | T_FLOAT;
    for (int i = 0; i < 3; i++)
        if (op == logic[i])
            allowed = T_INT | T_LOGICAL;
    for (int i = 0; i < 3; i++)
        if (op == bits[i])
            allowed = T_INT | T_BYTE;
    if (op == MPI_MINLOC || op == MPI_MAXLOC)
        allowed = T_PAIR;
    if (op == MPI_REPLACE || op == MPI_NO_OP)
        return ic_error(comm, MPI_ERR_OP, "%s: MPI_REPLACE/MPI_NO_OP are for one-sided only", fn);
    if (allowed < 0)
        return MPI_SUCCESS;
    MPI_Datatype basic = basic_of(type, 0);
    if (basic == MPI_DATATYPE_NULL)
        return ic_error(comm, MPI_ERR_OP,
                        "%s: a predefined op needs a datatype built from one predefined type", fn);
    int cls = basic_class(basic);
    if (cls == 0)
        return MPI_SUCCESS;
    if (!(cls & allowed))
        return ic_error(comm, MPI_ERR_OP, "%s: this predefined op is not defined for the datatype",
                        fn);
    return MPI_SUCCESS;
}
