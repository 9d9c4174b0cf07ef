/*
 * mpitest.h -- shared machinery of the multi-rank tests (tests/mpi/).
 *
 * Every test compares an IC_ collective with the vendor MPI's function of
 * the same name on identical inputs.  The pieces:
 *
 *   - cases: a description (collective, algorithm, p, root, count, types,
 *     op, in_place) printed with every failure, and a failure count that
 *     mt_finalize() sums over the ranks for the exit status;
 *   - types: every predefined datatype, grouped by the classes of MPI-3.1
 *     section 5.9.2 (C integer, floating point, logical, complex, byte,
 *     MINLOC/MAXLOC pairs), plus derived ones (strided vector, resized with
 *     a non-zero lower bound, contiguous 2x2 matrix) built on them, and
 *     two user ops (one commutative, one not) that reduce them;
 *   - buffers (mt_buf_t): user memory with guard bytes on both sides,
 *     filled with a pattern; the bytes of the datatype's type map that a
 *     call may write are recorded in a mask (found by MPI_Unpack into a
 *     zeroed copy), so after a call every other byte -- vector gaps, the
 *     lower-bound area of a resized type, gaps between v-variant blocks,
 *     guards -- is checked to be untouched.  Values go in and out through
 *     MPI_Pack/MPI_Unpack, so a derived type's data is compared as the
 *     sequence of its predefined elements;
 *   - comparisons: integers exact, floating point within a relative
 *     tolerance of the vendor's result (orders of evaluation differ), and
 *     a hash of the canonical value bytes compared across ranks where
 *     every rank must hold the same result (bitwise).
 *   - the case runners of tests/mpi/cases.c (one call of a collective with
 *     one algorithm forced, checked against the vendor), shared by the
 *     programs that sweep the matrix and by the communicator tests.
 */
#ifndef IC_MPITEST_H
#define IC_MPITEST_H

#include "intercom.h"

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------- program */

/* MPI_Init, a duplicate of MPI_COMM_WORLD with MPI_ERRORS_RETURN in
 * mt_world, the program name for messages.  Returns the world size. */
int mt_init(int *argc, char ***argv, const char *name);
/* Sum the failures of all ranks, print the summary (rank 0), MPI_Finalize.
 * Returns the process exit status (0 pass, 1 fail). */
int mt_finalize(void);

/* The collective's name as InterCom writes it ("bcast", ...; "?"). */
const char *mt_coll_name(IC_Coll c);

extern MPI_Comm mt_world; /* duplicate of MPI_COMM_WORLD, errors return */
extern int mt_rank, mt_size;
extern long mt_ncases;   /* cases run by this process */
extern long mt_nskipped; /* cases skipped: their datatype is one this MPI lays out wrongly */
/* reference calls (the MPI's own) not made because this MPI crashes in
 * them; InterCom's call of the case is still made and checked */
extern long mt_nref_skipped;
/* Is a case with these datatypes to be skipped (either broken)?  Counts it. */
struct mt_type;
int mt_skip_types(const struct mt_type *a, const struct mt_type *b);
extern int mt_verbose; /* IC_TEST_VERBOSE: print each case (rank 0)    */

/* IC_TEST_NONBLOCKING=1: the case runners call every InterCom collective
 * through its nonblocking form (IC_I*), completed at once by MPI's own
 * MPI_Wait or, every other call, an MPI_Test loop (mt_nb_complete), so
 * the whole matrix also holds for the nonblocking calls.  IC_CALL(Name,
 * name, args...) is IC_Name(args...) or that. */
extern int mt_nonblocking;
extern MPI_Request mt_req;
int mt_nb_complete(int rc, MPI_Request *req);
#define IC_CALL(Name, name, ...)                                                                   \
    (mt_nonblocking ? mt_nb_complete(IC_I##name(__VA_ARGS__, &mt_req), &mt_req)                    \
                    : IC_##Name(__VA_ARGS__))
#define IC_CALL1(Name, name, arg)                                                                  \
    (mt_nonblocking ? mt_nb_complete(IC_I##name(arg, &mt_req), &mt_req) : IC_##Name(arg))

/* ---------------------------------------------------------------- cases */

typedef struct mt_case {
    const char *coll; /* "allreduce" ...                                */
    const char *alg;  /* forced algorithm name, or "auto"               */
    MPI_Comm comm;
    const char *comm_name;
    int root;         /* -1: none                                       */
    long count;       /* count, per-block count or total (see `what`)   */
    const char *type; /* datatype(s), e.g. "MPI_INT" or "vec2->MPI_INT" */
    const char *op;   /* NULL when no op                                */
    int in_place;
    const char *extra; /* layout details (v-variants), or NULL           */
} mt_case_t;

/* Print a failure of case c on this rank (the first 20 per rank; all are
 * counted). */
void mt_fail(const mt_case_t *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* A remark about case c that is not a failure (the first 20 per rank). */
void mt_note(const mt_case_t *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Failure outside any case. */
void mt_failx(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
long mt_failures(void);
/* Announce a case (rank 0 of the world, when IC_TEST_VERBOSE is set) and
 * count it. */
void mt_begin(const mt_case_t *c);
/* "coll=... alg=... p=... root=... count=... type=... op=... in_place=..." */
const char *mt_case_str(const mt_case_t *c);

/* Check an MPI return code; on error report it for case c.  Returns 0
 * when rc == MPI_SUCCESS. */
int mt_rc(const mt_case_t *c, int rc, const char *what);

/* ----------------------------------------------------------- algorithms */

/* Number of choices for coll: every registered algorithm, then "auto". */
int mt_nalgs(IC_Coll coll);
/* Name of choice i and force it (IC_Set_algorithm; "auto" restores
 * automatic selection). */
const char *mt_alg(IC_Coll coll, int i);
/* After a call that moved data with choice `alg`: check that the forced
 * algorithm ran (IC_Last_algorithm), unless it may fall back because the
 * op is not commutative, or not exact (any_order = 0: the result depends
 * on the order of combining, which some algorithms do not keep), or it
 * would outgrow the scratch allowance (a one-shot allreduce step, the
 * circulant reduce; bytes and elems: a reduction's vector per rank, else
 * 0). */
void mt_check_alg(const mt_case_t *c, IC_Coll coll, int any_order, long bytes, long elems);

/* -------------------------------------------------------------- types */

typedef enum mt_class {
    MT_INT,     /* C integer (signed or unsigned)          */
    MT_FLOAT,   /* floating point                          */
    MT_BOOL,    /* logical (MPI_C_BOOL)                    */
    MT_COMPLEX, /* complex                                 */
    MT_BYTE,    /* MPI_BYTE                                */
    MT_PAIR,    /* MINLOC/MAXLOC value-index pairs         */
    MT_MAT      /* 2x2 unsigned matrix of the user ops     */
} mt_class_t;

/* A predefined type as its packed elements. */
typedef struct mt_basic {
    MPI_Datatype type;
    const char *name;
    mt_class_t cls;
    int size;      /* packed bytes per element                      */
    int is_signed; /* integers; pairs: the value part               */
    int fkind;     /* floating kinds: 'f', 'd', 'l' (value part)    */
    int vsize;     /* pairs: bytes of the value part                */
    int ioff;      /* pairs: where the index sits in a packed element: after the
                      value (size = vsize + 4), or where the C struct has it when
                      this MPI packs the padding too (SMPI)             */
} mt_basic_t;

extern const mt_basic_t *mt_basics; /* every predefined type, NULL-named end */
const mt_basic_t *mt_basic_find(MPI_Datatype t);

/* A datatype used in a case: made of `per` packed elements of `basic`. */
typedef struct mt_type {
    MPI_Datatype type;
    const char *name;
    const mt_basic_t *basic;
    int per;
    /* this MPI lays the type out wrongly (mt_init probes it): cases with
     * it are skipped and counted, not run */
    int broken;
} mt_type_t;

/* Derived types, built by mt_init. */
extern mt_type_t mt_vec_int;    /* MPI_Type_vector(2, 1, 3, MPI_INT): 2 ints, gaps */
extern mt_type_t mt_res_int;    /* one int at byte 8, resized to lb 4, extent 16  */
extern mt_type_t mt_resneg_int; /* one int at byte 0, resized to lb -4, extent 12 */
/* The same layouts of MPI_UNSIGNED, for the commutative user op (MPI's
 * predefined ops are defined on predefined datatypes only). */
extern mt_type_t mt_vec_uint, mt_res_uint, mt_resneg_uint;
extern mt_type_t mt_mat;              /* MPI_Type_contiguous(4, MPI_UNSIGNED): 2x2 matrix */
extern mt_type_t mt_matgap;           /* the matrix as MPI_Type_vector(2, 2, 3, MPI_UNSIGNED) */
mt_type_t mt_type_of(MPI_Datatype t); /* a predefined type as mt_type_t */

/* ------------------------------------------------------------------ ops */

typedef enum mt_opkind {
    MT_OP_SUM,
    MT_OP_PROD,
    MT_OP_MINMAX,
    MT_OP_LOGIC,
    MT_OP_BITS,
    MT_OP_LOC,
    MT_OP_USER_COMM,
    MT_OP_USER_MAT
} mt_opkind_t;

typedef struct mt_op {
    MPI_Op op;
    const char *name;
    mt_opkind_t kind;
    int commutative;
} mt_op_t;

extern mt_op_t mt_ops[];      /* predefined ops, then the user ops; NULL-named end */
extern mt_op_t *mt_op_matmul; /* non-commutative: 2x2 matrix product (mt_mat, mt_matgap) */
extern mt_op_t *mt_op_ucomm;  /* commutative: a + b + ab mod 2^32 (MPI_UNSIGNED,
                                 mt_vec_uint, mt_res_uint, mt_resneg_uint)        */
const mt_op_t *mt_op_find(MPI_Op op);
/* Does MPI define predefined op o for predefined type b (MPI-3.1 5.9.2)? */
int mt_op_defined(const mt_op_t *o, const mt_basic_t *b);

/* -------------------------------------------------------------- values */

/* Fill n packed elements of b for rank r (p ranks) and op kind k, element
 * indices from i0 on; `seed` varies the data between cases.  Values keep
 * every reduction over p <= 64 ranks exact for integers and free of
 * overflow, cancellation and NaN for floating point. */
void mt_gen(const mt_basic_t *b, mt_opkind_t k, int r, int p, size_t i0, size_t n, unsigned seed,
            void *packed);
/* Compare n packed elements; exact unless `tol` > 0 for floating/complex
 * parts (relative).  Returns -1 when equal, else the first differing
 * element and a description in why. */
long mt_cmp(const mt_basic_t *b, const void *got, const void *want, size_t n, double tol, char *why,
            size_t whylen);
/* Hash of n packed elements' value bytes (long double padding excluded). */
uint64_t mt_hash(const mt_basic_t *b, const void *packed, size_t n, uint64_t h);
/* Relative tolerance for floating results of a reduction over p ranks. */
double mt_tol(const mt_basic_t *b, int p);
/* Is every rank's h the same?  (Collective over comm.) */
int mt_same_everywhere(MPI_Comm comm, uint64_t h);

/* ------------------------------------------------------------- buffers */

typedef struct mt_buf {
    MPI_Datatype type;
    MPI_Aint extent;
    int tsize;          /* MPI_Type_size                              */
    unsigned char *mem; /* allocation: guard, data area, guard        */
    size_t len;
    char *buf;           /* what the call gets (element 0)             */
    unsigned char *mask; /* 1 = a type-map byte the call may write     */
    unsigned char *init; /* contents before the call                   */
} mt_buf_t;

/* A buffer for `span` elements of `type` (offsets 0 .. span-1), filled with
 * a pattern from `seed`; the mask starts empty. */
int mt_buf_alloc(mt_buf_t *b, MPI_Datatype type, long span, unsigned seed);
void mt_buf_free(mt_buf_t *b);
/* Add the type-map bytes of elements [off, off + n) to the mask. */
void mt_buf_mark(mt_buf_t *b, long off, int n);
/* Store n elements' packed values at element off (MPI_Unpack). */
void mt_buf_put(mt_buf_t *b, long off, int n, const void *packed);
/* Read n elements' packed values from element off (MPI_Pack). */
void mt_buf_get(const mt_buf_t *b, long off, int n, void *packed);
/* Remember the current contents as the "before" state. */
void mt_buf_snapshot(mt_buf_t *b);
/* Bytes that changed since the snapshot although they are outside the
 * mask (all bytes when `all`): -1 if none, else the first offset from
 * element 0 (may be negative). */
long mt_buf_changed(const mt_buf_t *b, int all);
/* Two buffers alike: same type, span and seed (one for the vendor, one
 * for InterCom). */
int mt_buf_pair(mt_buf_t *v, mt_buf_t *i, MPI_Datatype type, long span, unsigned seed);

/* A pointer that must never be dereferenced (non-significant buffers). */
#define MT_NOWHERE NULL

/* --------------------------------------------------------------- cases */

/* Block counts of v-variants and reduce_scatter: the total over p ranks
 * split evenly (MT_EVEN), unevenly with zeros (MT_UNEVEN), or all on one
 * rank (MT_ONE, the rank `which`). */
enum { MT_EVEN, MT_UNEVEN, MT_ONE, MT_NPATTERNS };
void mt_counts(int *counts, int p, long total, int pattern, int which);
/* Displacements (in elements): packed, gaps between blocks, reversed
 * block order with gaps, the reversed ones relative to the middle of the
 * buffer (half of them negative); MT_PER_RANK: each rank its own of those
 * four (MPI lets the receive layouts of allgatherv differ between ranks).
 * mt_displs() gives the offsets from the start of the buffer (MT_NEGATIVE
 * as MT_REVERSED; mt_run_move shifts them). */
enum { MT_PACKED, MT_GAPS, MT_REVERSED, MT_NEGATIVE, MT_PER_RANK, MT_NDISPLS };
long mt_displs(int *displs, const int *counts, int p, int kind); /* returns span */
const char *mt_pattern_name(int pattern);
const char *mt_displs_name(int kind);

/* Reductions: reduce, allreduce, reduce_scatter, reduce_scatter_block. */
typedef struct mt_red {
    IC_Coll coll;
    const mt_type_t *type;
    const mt_op_t *op;
    long count;  /* reduce/allreduce: count; RSB: per block; RS: total */
    int pattern; /* reduce_scatter: counts pattern                    */
    int root;
    int in_place;
    int null_recv; /* reduce: non-roots pass recvbuf = NULL             */
} mt_red_t;

/* Run one reduction case with choice alg_i (mt_alg) on comm; return the
 * number of failures seen by this rank. */
int mt_run_red(MPI_Comm comm, const char *comm_name, const mt_red_t *r, int alg_i);

/* Data movement: bcast, gather(v), scatter(v), allgather(v), with the
 * type pair (send, recv) where sk send elements hold the data of rk
 * receive elements.  swap_odd: odd ranks use the pair the other way round
 * (recv as their send type and send as their receive type), so the ranks
 * of one call use different datatypes with the same type signature. */
typedef struct mt_tpair {
    const char *name;
    const mt_type_t *send, *recv;
    int sk, rk;
    int swap_odd;
} mt_tpair_t;

typedef struct mt_move {
    IC_Coll coll;
    const mt_tpair_t *tp;
    long count;  /* per block (in units of sk/rk); bcast: total       */
    int pattern; /* v-variants: counts pattern                        */
    int dkind;   /* v-variants: displacement kind                     */
    int root;
    int in_place;
    int junk; /* pass non-significant arguments as junk/NULL       */
} mt_move_t;

int mt_run_move(MPI_Comm comm, const char *comm_name, const mt_move_t *m, int alg_i);

/* Barrier: no rank leaves before every rank entered (each rank late in
 * turn; a violation is seen through messages sent after leaving). */
int mt_run_barrier(MPI_Comm comm, const char *comm_name, int alg_i);

/* The type pairs the movement tests use. */
extern const mt_tpair_t *mt_tpairs;
extern int mt_ntpairs;

#endif /* IC_MPITEST_H */
