/*
 * icp_coll_c.c -- an ordinary MPI program (it knows nothing of InterCom)
 * that calls every collective libintercom-pmpi intercepts: MPI_Bcast,
 * MPI_Reduce, MPI_Allreduce, MPI_Allgather(v), MPI_Reduce_scatter(_block),
 * MPI_Scatter(v), MPI_Gather(v), MPI_Barrier, with MPI_IN_PLACE wherever
 * MPI allows it, counts from 0 to 40000, several roots, a strided derived
 * datatype (data movement only: Open MPI refuses predefined ops on derived
 * types), predefined ops, MINLOC on MPI_2INT and a non-commutative user
 * op; then calls with invalid arguments under MPI_ERRORS_RETURN and a user
 * error handler, an intercommunicator and sub-communicators.
 *
 * Every rank checks each result against the value it computes itself and
 * takes a checksum of its significant buffers (gaps of the derived type
 * included); rank 0 prints one line per case with every rank's checksum,
 * collected with point-to-point messages.  tests/interpose/run-interpose.sh
 * runs it plain and under the preload and requires identical output.
 *
 *   icp_coll_c [--thread-multiple]    (MPI_Init_thread(MPI_THREAD_MULTIPLE))
 *
 * Exit status 1 when a result is wrong.
 */
#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXCASE 4096
#define SENT 0x5A5A5A5A /* gap / untouched marker, as an int */

static int rank, nprocs, errors, ncase;
static char names[MAXCASE][64];
static uint64_t sums[MAXCASE];

/* ------------------------------------------------------------ recording */

static uint64_t fnv(const void *p, size_t n)
{
    const unsigned char *c = p;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ c[i]) * 1099511628211ULL;
    return h;
}

/* Record case `name` with the checksum of buf (NULL: nothing significant
 * on this rank); if want != NULL the bytes must equal it. */
static void note(const void *buf, const void *want, size_t bytes, const char *fmt, ...)
{
    if (ncase >= MAXCASE) {
        fprintf(stderr, "icp_coll_c: too many cases\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(names[ncase], sizeof(names[ncase]), fmt, ap);
    va_end(ap);
    sums[ncase] = buf ? fnv(buf, bytes) : 0;
    if (buf && want && memcmp(buf, want, bytes) != 0) {
        errors++;
        fprintf(stderr, "icp_coll_c: rank %d: %s: wrong result\n", rank, names[ncase]);
    }
    ncase++;
}

/* --------------------------------------------------------------- data */

/* Element kinds: K_INT (MPI_INT), K_DBL (MPI_DOUBLE, integer values),
 * K_VEC (two ints at 0 and 2 of a 4-int extent: gaps at 1 and 3),
 * K_MAT (2x2 unsigned matrix, the user op multiplies), K_PAIR (MPI_2INT). */
enum { K_INT, K_DBL, K_VEC, K_MAT, K_PAIR, NKIND };
static const char *kname[NKIND] = {"int", "double", "strided", "matrix", "2int"};
static const size_t kext[NKIND] = {4, 8, 16, 16, 8};
static MPI_Datatype ktype[NKIND];
static MPI_Op matmul;

static int ival(int r, long i)
{
    return (r + 1) * 1000 + (int)(i % 997);
}

static void *buffer(int kind, long n)
{
    size_t bytes = kext[kind] * (size_t)(n > 0 ? n : 0) + 16;
    int *b = malloc(bytes);
    if (!b)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (size_t i = 0; i < bytes / sizeof(int); i++)
        b[i] = SENT;
    return b;
}

static void release(void *a, void *b, void *c)
{
    free(a);
    free(b);
    free(c);
}

/* p ints: per-rank counts or displacements. */
static int *per_rank(void)
{
    int *v = malloc(sizeof(int) * (size_t)nprocs);
    if (!v)
        MPI_Abort(MPI_COMM_WORLD, 2);
    return v;
}

/* The data element e of rank r's input (seed = r, index = i). */
static void put(int kind, void *buf, long e, int r, long i)
{
    int v = ival(r, i);
    switch (kind) {
    case K_INT:
        ((int *)buf)[e] = v;
        break;
    case K_DBL:
        ((double *)buf)[e] = v;
        break;
    case K_VEC:
        ((int *)buf)[4 * e] = v, ((int *)buf)[4 * e + 2] = v + 7;
        break;
    case K_MAT: {
        unsigned *m = (unsigned *)buf + 4 * e;
        m[0] = (unsigned)v, m[1] = (unsigned)r + 1, m[2] = (unsigned)(i % 13), m[3] = 3;
        break;
    }
    case K_PAIR:
        ((int *)buf)[2 * e] = (int)((i * 7 + r * 13) % 5), ((int *)buf)[2 * e + 1] = r;
    }
}

static void fill(int kind, void *buf, long n, int r, long first)
{
    for (long e = 0; e < n; e++)
        put(kind, buf, e, r, first + e);
}

static void user_matmul(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    unsigned *a = in, *b = inout;
    for (int k = 0; k < *len; k++, a += 4, b += 4) {
        unsigned c0 = a[0] * b[0] + a[1] * b[2], c1 = a[0] * b[1] + a[1] * b[3];
        unsigned c2 = a[2] * b[0] + a[3] * b[2], c3 = a[2] * b[1] + a[3] * b[3];
        b[0] = c0, b[1] = c1, b[2] = c2, b[3] = c3;
    }
}

/* Expected reduction over ranks 0..p-1 of element index i, stored at e. */
static void reduced(int kind, MPI_Op op, void *buf, long e, long i)
{
    /* 16-byte aligned room for one element of any kind */
    double one_mem[2], acc_mem[2];
    void *one = one_mem, *acc = acc_mem;
    put(kind, acc, 0, 0, i);
    for (int r = 1; r < nprocs; r++) {
        put(kind, one, 0, r, i);
        if (op == MPI_SUM) {
            if (kind == K_INT)
                *(int *)acc += *(int *)one;
            else if (kind == K_DBL)
                *(double *)acc += *(double *)one;
            else
                abort();
        } else if (op == MPI_MAX) {
            memcpy(acc, one, kext[kind]); /* values grow with the rank */
        } else if (op == MPI_MINLOC) {
            if (((int *)one)[0] < ((int *)acc)[0])
                memcpy(acc, one, kext[kind]);
        } else { /* acc = acc * one, in rank order */
            int len = 1;
            user_matmul(acc, one, &len, NULL);
            memcpy(acc, one, kext[kind]);
        }
    }
    memcpy((char *)buf + e * (long)kext[kind], acc, kext[kind]);
}

static void reduced_range(int kind, MPI_Op op, void *buf, long n, long first)
{
    for (long e = 0; e < n; e++)
        reduced(kind, op, buf, e, first + e);
}

static const long sizes[] = {0, 1, 5, 1000, 40000};
#define NSIZES ((int)(sizeof(sizes) / sizeof(sizes[0])))

/* Roots: 0, p-1 and p/2, without repeats. */
static int roots(int *out)
{
    int n = 0, cand[3] = {0, nprocs - 1, nprocs / 2};
    for (int i = 0; i < 3; i++) {
        int dup = 0;
        for (int j = 0; j < n; j++)
            dup |= (out[j] == cand[i]);
        if (!dup)
            out[n++] = cand[i];
    }
    return n;
}

/* Uneven block counts (zeros included) and gapped, reversed displacements. */
static long vcounts(int *counts, int *displs, long m)
{
    long total = 0;
    for (int i = 0; i < nprocs; i++)
        counts[i] = (int)(((i * 2 + 1) % 4) * m);
    for (int i = nprocs - 1; i >= 0; i--) {
        displs[i] = (int)total;
        total += counts[i] + 1;
    }
    return total;
}

/* ------------------------------------------------------------- rooted */

static void test_bcast(void)
{
    int rs[3], nr = roots(rs);
    const int kinds[] = {K_INT, K_VEC};
    for (int k = 0; k < 2; k++)
        for (int s = 0; s < NSIZES; s++)
            for (int j = 0; j < nr; j++) {
                int kind = kinds[k], root = rs[j];
                long n = sizes[s];
                void *b = buffer(kind, n), *want = buffer(kind, n);
                fill(kind, want, n, root, 0);
                if (rank == root)
                    fill(kind, b, n, root, 0);
                MPI_Bcast(b, (int)n, ktype[kind], root, MPI_COMM_WORLD);
                note(b, want, kext[kind] * n, "bcast %s n=%ld root=%d", kname[kind], n, root);
                free(b);
                free(want);
            }
}

static const struct {
    int kind;
    MPI_Op *op;
    const char *name;
} rcases[] = {{K_INT, NULL, "sum"},
              {K_DBL, NULL, "sum"},
              {K_INT, NULL, "max"},
              {K_MAT, &matmul, "user"},
              {K_PAIR, NULL, "minloc"}};
#define NRCASES ((int)(sizeof(rcases) / sizeof(rcases[0])))

static MPI_Op rop(int c)
{
    if (rcases[c].op)
        return *rcases[c].op;
    if (strcmp(rcases[c].name, "max") == 0)
        return MPI_MAX;
    if (strcmp(rcases[c].name, "minloc") == 0)
        return MPI_MINLOC;
    return MPI_SUM;
}

/* MPICH before 4.1.2 crashes in MPI_Reduce with MPI_IN_PLACE at a non-zero
 * root (pmodels/mpich issue 6540), so the plain run cannot be compared. */
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION < 40102000
#define VENDOR_REDUCE_IN_PLACE_NONZERO_ROOT 0
#else
#define VENDOR_REDUCE_IN_PLACE_NONZERO_ROOT 1
#endif

static void test_reduce(void)
{
    int rs[3], nr = roots(rs);
    for (int c = 0; c < NRCASES; c++)
        for (int s = 0; s < NSIZES; s++)
            for (int j = 0; j < nr; j++)
                for (int ip = 0; ip < 2; ip++) {
                    int kind = rcases[c].kind, root = rs[j];
                    if (ip && root != 0 && !VENDOR_REDUCE_IN_PLACE_NONZERO_ROOT)
                        continue;
                    long n = sizes[s];
                    MPI_Op op = rop(c);
                    void *sb = buffer(kind, n), *rb = buffer(kind, n), *want = buffer(kind, n);
                    fill(kind, sb, n, rank, 0);
                    reduced_range(kind, op, want, n, 0);
                    const void *send = sb;
                    if (ip && rank == root) {
                        fill(kind, rb, n, rank, 0);
                        send = MPI_IN_PLACE;
                    }
                    MPI_Reduce(send, rb, (int)n, ktype[kind], op, root, MPI_COMM_WORLD);
                    note(rank == root ? rb : NULL, want, kext[kind] * n,
                         "reduce %s %s n=%ld root=%d%s", kname[kind], rcases[c].name, n, root,
                         ip ? " in-place" : "");
                    release(sb, rb, want);
                }
}

static void test_scatter_gather(void)
{
    int rs[3], nr = roots(rs);
    const int kinds[] = {K_INT, K_VEC};
    for (int k = 0; k < 2; k++)
        for (int s = 0; s < NSIZES; s++)
            for (int j = 0; j < nr; j++)
                for (int ip = 0; ip < 2; ip++) {
                    int kind = kinds[k], root = rs[j], in_place = ip && rank == root;
                    long n = sizes[s], all = n * nprocs;
                    size_t ext = kext[kind];
                    /* scatter: block r of the root's buffer goes to rank r */
                    void *sb = buffer(kind, all), *rb = buffer(kind, n), *want = buffer(kind, n);
                    if (rank == root)
                        fill(kind, sb, all, root, 0);
                    fill(kind, want, n, root, rank * n);
                    MPI_Scatter(sb, (int)n, ktype[kind], in_place ? MPI_IN_PLACE : rb, (int)n,
                                ktype[kind], root, MPI_COMM_WORLD);
                    note(in_place ? NULL : rb, want, ext * n, "scatter %s n=%ld root=%d%s",
                         kname[kind], n, root, ip ? " in-place" : "");
                    release(sb, rb, want);
                    /* gather: rank r's block lands at block r of the root */
                    sb = buffer(kind, n);
                    rb = buffer(kind, all);
                    want = buffer(kind, all);
                    fill(kind, sb, n, rank, 0);
                    for (int r = 0; r < nprocs; r++)
                        for (long e = 0; e < n; e++)
                            put(kind, want, r * n + e, r, e);
                    if (in_place)
                        fill(kind, (char *)rb + rank * n * (long)ext, n, rank, 0);
                    MPI_Gather(in_place ? MPI_IN_PLACE : sb, (int)n, ktype[kind], rb, (int)n,
                               ktype[kind], root, MPI_COMM_WORLD);
                    note(rank == root ? rb : NULL, want, ext * all, "gather %s n=%ld root=%d%s",
                         kname[kind], n, root, ip ? " in-place" : "");
                    release(sb, rb, want);
                }
}

static void test_scatterv_gatherv(void)
{
    int rs[3], nr = roots(rs);
    int *counts = per_rank(), *displs = per_rank();
    const long ms[] = {0, 1, 1000};
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < nr; j++)
            for (int ip = 0; ip < 2; ip++) {
                int kind = K_INT, root = rs[j], in_place = ip && rank == root;
                long span = vcounts(counts, displs, ms[k]), mine = counts[rank];
                size_t ext = kext[kind];
                void *sb = buffer(kind, span), *rb = buffer(kind, mine), *want = buffer(kind, mine);
                if (rank == root)
                    for (int r = 0; r < nprocs; r++)
                        for (long e = 0; e < counts[r]; e++)
                            put(kind, sb, displs[r] + e, root, r * 10000L + e);
                for (long e = 0; e < mine; e++)
                    put(kind, want, e, root, rank * 10000L + e);
                MPI_Scatterv(sb, counts, displs, ktype[kind], in_place ? MPI_IN_PLACE : rb,
                             (int)mine, ktype[kind], root, MPI_COMM_WORLD);
                note(in_place ? NULL : rb, want, ext * mine, "scatterv m=%ld root=%d%s", ms[k],
                     root, ip ? " in-place" : "");
                release(sb, rb, want);

                sb = buffer(kind, mine);
                rb = buffer(kind, span);
                want = buffer(kind, span);
                fill(kind, sb, mine, rank, 0);
                for (int r = 0; r < nprocs; r++)
                    for (long e = 0; e < counts[r]; e++)
                        put(kind, want, displs[r] + e, r, e);
                if (in_place)
                    fill(kind, (char *)rb + displs[rank] * (long)ext, mine, rank, 0);
                MPI_Gatherv(in_place ? MPI_IN_PLACE : sb, (int)mine, ktype[kind], rb, counts,
                            displs, ktype[kind], root, MPI_COMM_WORLD);
                note(rank == root ? rb : NULL, want, ext * span, "gatherv m=%ld root=%d%s", ms[k],
                     root, ip ? " in-place" : "");
                release(sb, rb, want);
            }
    free(counts);
    free(displs);
}

/* ------------------------------------------------------------ all-to-all */

static void test_allreduce(void)
{
    for (int c = 0; c < NRCASES; c++)
        for (int s = 0; s < NSIZES; s++)
            for (int ip = 0; ip < 2; ip++) {
                int kind = rcases[c].kind;
                long n = sizes[s];
                MPI_Op op = rop(c);
                void *sb = buffer(kind, n), *rb = buffer(kind, n), *want = buffer(kind, n);
                fill(kind, ip ? rb : sb, n, rank, 0);
                reduced_range(kind, op, want, n, 0);
                MPI_Allreduce(ip ? MPI_IN_PLACE : sb, rb, (int)n, ktype[kind], op, MPI_COMM_WORLD);
                note(rb, want, kext[kind] * n, "allreduce %s %s n=%ld%s", kname[kind],
                     rcases[c].name, n, ip ? " in-place" : "");
                release(sb, rb, want);
            }
}

static void test_reduce_scatter(void)
{
    int *counts = per_rank(), *displs = per_rank();
    const long ms[] = {0, 1, 1000};
    for (int c = 0; c < NRCASES; c++)
        for (int k = 0; k < 3; k++)
            for (int ip = 0; ip < 2; ip++) {
                int kind = rcases[c].kind;
                MPI_Op op = rop(c);
                vcounts(counts, displs, ms[k]);
                long total = 0, at = 0;
                for (int r = 0; r < nprocs; r++) {
                    if (r == rank)
                        at = total;
                    total += counts[r];
                }
                long mine = counts[rank];
                /* reduce_scatter: block r (packed, rank order) to rank r */
                void *sb = buffer(kind, total), *rb = buffer(kind, total),
                     *want = buffer(kind, mine);
                fill(kind, ip ? rb : sb, total, rank, 0);
                reduced_range(kind, op, want, mine, at);
                MPI_Reduce_scatter(ip ? MPI_IN_PLACE : sb, rb, counts, ktype[kind], op,
                                   MPI_COMM_WORLD);
                note(rb, want, kext[kind] * mine, "reduce_scatter %s %s m=%ld%s", kname[kind],
                     rcases[c].name, ms[k], ip ? " in-place" : "");
                release(sb, rb, want);
                /* reduce_scatter_block with block ms[k] + 1 */
                long b = ms[k] + 1, all = b * nprocs;
                sb = buffer(kind, all);
                rb = buffer(kind, all);
                want = buffer(kind, b);
                fill(kind, ip ? rb : sb, all, rank, 0);
                reduced_range(kind, op, want, b, rank * b);
                MPI_Reduce_scatter_block(ip ? MPI_IN_PLACE : sb, rb, (int)b, ktype[kind], op,
                                         MPI_COMM_WORLD);
                note(rb, want, kext[kind] * b, "reduce_scatter_block %s %s n=%ld%s", kname[kind],
                     rcases[c].name, b, ip ? " in-place" : "");
                release(sb, rb, want);
            }
    free(counts);
    free(displs);
}

static void test_allgather(void)
{
    const int kinds[] = {K_INT, K_VEC};
    for (int k = 0; k < 2; k++)
        for (int s = 0; s < NSIZES; s++)
            for (int ip = 0; ip < 2; ip++) {
                int kind = kinds[k];
                long n = sizes[s], all = n * nprocs;
                size_t ext = kext[kind];
                void *sb = buffer(kind, n), *rb = buffer(kind, all), *want = buffer(kind, all);
                for (int r = 0; r < nprocs; r++)
                    fill(kind, (char *)want + r * n * (long)ext, n, r, 0);
                fill(kind, ip ? (char *)rb + rank * n * (long)ext : sb, n, rank, 0);
                MPI_Allgather(ip ? MPI_IN_PLACE : sb, (int)n, ktype[kind], rb, (int)n, ktype[kind],
                              MPI_COMM_WORLD);
                note(rb, want, ext * all, "allgather %s n=%ld%s", kname[kind], n,
                     ip ? " in-place" : "");
                release(sb, rb, want);
            }
    /* Different send and receive types with the same type signature:
     * strided pairs in, plain ints out. */
    for (int s = 0; s < NSIZES; s++) {
        long n = sizes[s];
        void *sb = buffer(K_VEC, n);
        int *rb = buffer(K_INT, 2 * n * nprocs), *want = buffer(K_INT, 2 * n * nprocs);
        fill(K_VEC, sb, n, rank, 0);
        for (int r = 0; r < nprocs; r++)
            for (long e = 0; e < n; e++)
                want[2 * (r * n + e)] = ival(r, e), want[2 * (r * n + e) + 1] = ival(r, e) + 7;
        MPI_Allgather(sb, (int)n, ktype[K_VEC], rb, (int)(2 * n), MPI_INT, MPI_COMM_WORLD);
        note(rb, want, sizeof(int) * 2 * (size_t)(n * nprocs), "allgather strided->int n=%ld", n);
        release(sb, rb, want);
    }
}

static void test_allgatherv(void)
{
    int *counts = per_rank(), *displs = per_rank();
    const long ms[] = {0, 1, 1000};
    for (int k = 0; k < 3; k++)
        for (int ip = 0; ip < 2; ip++)
            for (int neg = 0; neg < 2; neg++) {
                long span = vcounts(counts, displs, ms[k]), mine = counts[rank];
                /* neg: odd ranks address their receive buffer from its middle,
                 * with negative displacements (each rank its own). */
                long shift = (neg && rank % 2) ? span / 2 : 0;
                for (int r = 0; r < nprocs; r++)
                    displs[r] -= (int)shift;
                int *sb = buffer(K_INT, mine), *base = buffer(K_INT, span),
                    *want = buffer(K_INT, span);
                int *rb = base + shift;
                for (int r = 0; r < nprocs; r++)
                    for (long e = 0; e < counts[r]; e++)
                        want[shift + displs[r] + e] = ival(r, e);
                fill(K_INT, ip ? rb + displs[rank] : sb, mine, rank, 0);
                MPI_Allgatherv(ip ? MPI_IN_PLACE : sb, (int)mine, MPI_INT, rb, counts, displs,
                               MPI_INT, MPI_COMM_WORLD);
                note(base, want, sizeof(int) * (size_t)span, "allgatherv m=%ld%s%s", ms[k],
                     ip ? " in-place" : "", neg ? " negative-displs" : "");
                free(sb);
                free(base);
                free(want);
            }
    free(counts);
    free(displs);
}

/* ------------------------------------------------- errors, communicators */

static int handler_calls, handler_class;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handler_calls++;
    MPI_Error_class(*code, &handler_class);
}

static void test_errors(void)
{
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    int x[4] = {1, 2, 3, 4}, y[4 * 64] = {0}, cls[5];
    MPI_Error_class(MPI_Bcast(x, -1, MPI_INT, 0, c), &cls[0]);
    MPI_Error_class(MPI_Reduce(x, y, 1, MPI_INT, MPI_SUM, nprocs, c), &cls[1]);
    MPI_Error_class(MPI_Allreduce(x, y, 1, MPI_INT, MPI_OP_NULL, c), &cls[2]);
    MPI_Error_class(MPI_Allgather(x, 1, MPI_DATATYPE_NULL, y, 1, MPI_INT, c), &cls[3]);
    /* An error on MPI_COMM_NULL goes to MPI_COMM_WORLD's handler. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Error_class(MPI_Barrier(MPI_COMM_NULL), &cls[4]);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    note(cls, NULL, sizeof(cls), "error classes under MPI_ERRORS_RETURN");
    note(y, NULL, sizeof(y), "buffers untouched by failed calls");

    /* The same send and receive buffer without MPI_IN_PLACE: erroneous.
     * Open MPI lets one element pass (and raises the error for two on
     * MPI_COMM_WORLD); InterCom, which cannot know whether the other ranks
     * alias too, takes its part and raises MPI_ERR_BUFFER.  Either is
     * acceptable: the right sum with success, or an error with the buffer
     * untouched. */
    int sum = nprocs * (nprocs + 1) / 2, ok[2], want_ok[2] = {1, 1};
    for (int n = 1; n <= 2; n++) {
        int a[2] = {rank + 1, rank + 1};
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        int rc = MPI_Allreduce(a, a, n, MPI_INT, MPI_SUM, c);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        ok[n - 1] = rc == MPI_SUCCESS ? a[0] == sum && a[n - 1] == sum : a[0] == rank + 1;
    }
    note(ok, want_ok, sizeof(ok), "allreduce with sendbuf == recvbuf: a sum or an error");

    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(count_errors, &eh);
    MPI_Comm_set_errhandler(c, eh);
    int rc = MPI_Scatter(x, 1, MPI_INT, y, 1, MPI_INT, -5, c);
    int out[3] = {handler_calls, handler_class, rc != MPI_SUCCESS};
    note(out, NULL, sizeof(out), "user error handler: calls, class, returned an error");
    MPI_Errhandler_free(&eh);
    MPI_Comm_free(&c);
}

static void test_communicators(void)
{
    /* Sub-communicators, a communicator freed and made again, MPI_COMM_SELF. */
    for (int round = 0; round < 3; round++) {
        MPI_Comm half;
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, nprocs - rank, &half);
        int v = rank + 1, sum = 0;
        MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, half);
        MPI_Bcast(&sum, 1, MPI_INT, 0, half);
        note(&sum, NULL, sizeof(sum), "split communicator round %d", round);
        MPI_Comm_free(&half);
    }
    int v = rank, w = -1;
    MPI_Allreduce(&v, &w, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
    note(&w, &v, sizeof(w), "MPI_COMM_SELF allreduce");

    if (nprocs < 2) {
        note(NULL, NULL, 0, "intercommunicator bcast");
        note(NULL, NULL, 0, "intercommunicator allreduce");
        return;
    }
    MPI_Comm half, inter;
    int color = rank % 2, lrank;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
    MPI_Comm_rank(half, &lrank);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 99, &inter);
    int b[3] = {0, 0, 0};
    if (color == 0 && lrank == 0)
        b[0] = 11, b[1] = 22, b[2] = 33;
    int root = color == 0 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    MPI_Bcast(b, 3, MPI_INT, root, inter);
    note(b, NULL, sizeof(b), "intercommunicator bcast");
    int mine = rank + 1, r = 0;
    MPI_Allreduce(&mine, &r, 1, MPI_INT, MPI_SUM, inter);
    note(&r, NULL, sizeof(r), "intercommunicator allreduce");
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
}

/* ------------------------------------------------------------------ main */

int main(int argc, char **argv)
{
    int provided = MPI_THREAD_SINGLE;
    if (argc > 1 && strcmp(argv[1], "--thread-multiple") == 0)
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    else
        MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

    ktype[K_INT] = MPI_INT;
    ktype[K_DBL] = MPI_DOUBLE;
    ktype[K_PAIR] = MPI_2INT;
    MPI_Datatype v;
    MPI_Type_vector(2, 1, 2, MPI_INT, &v);
    MPI_Type_create_resized(v, 0, 16, &ktype[K_VEC]);
    MPI_Type_free(&v);
    MPI_Type_contiguous(4, MPI_UNSIGNED, &ktype[K_MAT]);
    MPI_Type_commit(&ktype[K_VEC]);
    MPI_Type_commit(&ktype[K_MAT]);
    MPI_Op_create(user_matmul, 0, &matmul);

    test_bcast();
    test_reduce();
    test_allreduce();
    test_reduce_scatter();
    test_allgather();
    test_allgatherv();
    test_scatter_gather();
    test_scatterv_gatherv();
    for (int i = 0; i < 3; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    note(NULL, NULL, 0, "barrier");
    test_errors();
    test_communicators();

    /* Rank 0 prints every rank's checksums, case by case. */
    if (rank == 0) {
        uint64_t *all = malloc(sizeof(uint64_t) * (size_t)ncase * (size_t)nprocs);
        memcpy(all, sums, sizeof(uint64_t) * (size_t)ncase);
        for (int r = 1; r < nprocs; r++) {
            int e = 0;
            MPI_Recv(all + (size_t)r * ncase, ncase, MPI_UINT64_T, r, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Recv(&e, 1, MPI_INT, r, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            errors += e;
        }
        printf("processes %d, thread level %s\n", nprocs,
               provided == MPI_THREAD_MULTIPLE ? "MPI_THREAD_MULTIPLE" : "below multiple");
        for (int c = 0; c < ncase; c++) {
            printf("%s:", names[c]);
            for (int r = 0; r < nprocs; r++)
                printf(" %016llx", (unsigned long long)all[(size_t)r * ncase + c]);
            printf("\n");
        }
        printf("cases %d, wrong results %d\n", ncase, errors);
        free(all);
    } else {
        MPI_Send(sums, ncase, MPI_UINT64_T, 0, 1, MPI_COMM_WORLD);
        MPI_Send(&errors, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    }
    MPI_Op_free(&matmul);
    MPI_Type_free(&ktype[K_VEC]);
    MPI_Type_free(&ktype[K_MAT]);
    MPI_Finalize();
    return rank == 0 && errors ? 1 : 0;
}
