/*
 * large.c -- every collective beyond 2 GiB (make check-large).
 *
 * Each case moves a message longer than 2^31 bytes, or a total (gathered
 * result, reduce-scatter vector) of more than INT_MAX elements and 2^31
 * bytes, through MPI's int-count calls -- legal calls that a library
 * counting in int would refuse or corrupt -- and checks every element of
 * the result against a formula on every rank:
 *   bcast      2^28 + 512 MPI_DOUBLE (2^31 + 4096 bytes)
 *   reduce, allreduce   2^30 + 2048 MPI_UINT16_T, MPI_SUM, in place
 *   reduce_scatter_block, reduce_scatter   MPI_UINT8_T, total > INT_MAX
 *   allgather, allgatherv, gather, scatter, scatterv   MPI_BYTE blocks,
 *              total > INT_MAX
 *   gatherv    one element per rank of a contiguous type of 1.1e9
 *              MPI_CHAR (p x 1.1 GB at the root)
 * and, where the MPI has MPI-4's large-count calls (IC_HAVE_LARGE_COUNT),
 * bcast_c, allreduce_c and allgather_c with counts beyond INT_MAX.
 *
 *   large [--only NAME[,NAME...]]
 *
 * Built twice: tests/mpi/large calls the IC_ functions; with LARGE_MPI
 * (tests/interpose/icp_large) it is a plain MPI program calling MPI_
 * names, run under the interposition library.  The machines running it
 * need about 3 GB of memory per rank at p = 3.  Sums stay below the
 * types' range: Open MPI 4.1's AVX reduction kernels saturate 8- and
 * 16-bit unsigned sums instead of wrapping (MPI_Reduce_local of 32774 and
 * 32775 as MPI_UINT16_T gives 65535), and InterCom reduces with
 * MPI_Reduce_local.
 */
#include <mpi.h>
#ifndef LARGE_MPI
#include "intercom.h"
#define CALL(f) IC_##f
#ifdef IC_HAVE_LARGE_COUNT
#define HAVE_C 1
#endif
#else
#define CALL(f) MPI_##f
#if defined(MPI_VERSION) && MPI_VERSION >= 4
#define HAVE_C 1
#endif
#endif

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static int rank, p, failures;
static double t_end; /* when the last call returned */
static const char *only;

static void fail(const char *name, const char *what, size_t i, long long got, long long want)
{
    failures++;
    fprintf(stderr, "FAIL large: p=%d rank %d: %s: %s at %zu: %lld, expected %lld\n", p, rank, name,
            what, i, got, want);
}

/* Large buffers on transparent huge pages where the system offers them
 * (madvise mode): first touches of gigabytes are then far cheaper. */
static void *xmalloc(size_t n)
{
    void *m = NULL;
    if (posix_memalign(&m, (size_t)2 << 20, n ? n : 1) != 0)
        m = NULL;
#ifdef MADV_HUGEPAGE
    if (m)
        madvise(m, n, MADV_HUGEPAGE);
#endif
    if (!m) {
        fprintf(stderr, "large: rank %d: cannot allocate %zu bytes\n", rank, n);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return m;
}

/* Is case `name` in the --only list (comma-separated; none: all)? */
static int want(const char *name)
{
    size_t n = strlen(name);
    for (const char *o = only; o && *o; o += strcspn(o, ",") + (o[strcspn(o, ",")] == ',')) {
        if (strncmp(o, name, n) == 0 && (o[n] == ',' || o[n] == 0))
            return 1;
    }
    return !only;
}

static double now(void)
{
    return MPI_Wtime();
}

static void report(const char *name, int rc, double t0, int failed_before, size_t bytes)
{
    double t = now() - t0;
    if (rc != MPI_SUCCESS) {
        char s[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, s, &len);
        failures++;
        fprintf(stderr, "FAIL large: p=%d rank %d: %s returned %s\n", p, rank, name, s);
    }
    int bad = 0, mine = failures > failed_before;
    MPI_Allreduce(&mine, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%s large: p=%d %-22s %5.2f GB %6.1f s (the call %.1f s)\n", bad ? "FAIL" : "ok", p,
               name, (double)bytes / 1e9, t, t_end - t0);
    fflush(stdout);
}

/* Pattern of byte i of rank r's block (loops the compiler vectorises). */
static unsigned char byte_of(int r, size_t i)
{
    return (unsigned char)((size_t)r * 31 + i + (i >> 8));
}

static void fill_block(unsigned char *b, int r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        b[i] = byte_of(r, i);
}

/* Is b rank r's block of n bytes?  Reports the first difference. */
static void check_block(const char *name, const unsigned char *b, int r, size_t n)
{
    unsigned char diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned char)(b[i] ^ byte_of(r, i));
    for (size_t i = 0; diff && i < n; i++)
        if (b[i] != byte_of(r, i)) {
            fail(name, "byte", i, b[i], byte_of(r, i));
            return;
        }
}

/* Blocks of a total just over 2^31 bytes (and INT_MAX elements of one
 * byte): even, or uneven (block r gets r * 4096 bytes more). */
static void blocks(size_t *counts, int uneven)
{
    size_t total = ((size_t)1 << 31) + 64, base = total / (size_t)p + 1;
    for (int r = 0; r < p; r++)
        counts[r] = uneven ? base - (size_t)(p - 1) * 2048 + (size_t)r * 4096 : base;
}

static void case_bcast(void)
{
    const char *name = "bcast";
    if (!want(name))
        return;
    int n = (1 << 28) + 512, root = p - 1;
    double *x = xmalloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; i++)
        x[i] = rank == root ? (double)i : -1.0;
    double t0 = now();
    int f0 = failures;
    int rc = CALL(Bcast)(x, n, MPI_DOUBLE, root, MPI_COMM_WORLD);
    t_end = now();
    for (int i = 0; rc == MPI_SUCCESS && i < n; i++)
        if (x[i] != (double)i) {
            fail(name, "element", (size_t)i, (long long)x[i], i);
            break;
        }
    free(x);
    report(name, rc, t0, f0, (size_t)n * sizeof(double));
}

/* reduce (at root 0) or allreduce, in place, of 2^30 + 2048 uint16. */
static void case_reduce(int all)
{
    const char *name = all ? "allreduce" : "reduce";
    if (!want(name))
        return;
    int n = (1 << 30) + 2048, root = 0;
    uint16_t *x = xmalloc((size_t)n * sizeof(uint16_t));
    for (int i = 0; i < n; i++)
        x[i] = (uint16_t)(((unsigned)i & 0x0fff) + (unsigned)rank);
    int in_place = all || rank == root;
    double t0 = now();
    int f0 = failures;
    int rc = all ? CALL(Allreduce)(MPI_IN_PLACE, x, n, MPI_UINT16_T, MPI_SUM, MPI_COMM_WORLD)
                 : CALL(Reduce)(in_place ? MPI_IN_PLACE : x, in_place ? x : NULL, n, MPI_UINT16_T,
                                MPI_SUM, root, MPI_COMM_WORLD);
    t_end = now();
    for (int i = 0; rc == MPI_SUCCESS && (all || rank == root) && i < n; i++) {
        uint16_t w = (uint16_t)((unsigned)p * ((unsigned)i & 0x0fff) + (unsigned)(p * (p - 1) / 2));
        if (x[i] != w) {
            fail(name, "element", (size_t)i, x[i], w);
            break;
        }
    }
    free(x);
    report(name, rc, t0, f0, (size_t)n * sizeof(uint16_t));
}

/* reduce_scatter(_block) of uint8, the vector just over 2^31 elements. */
static void case_reduce_scatter(int uneven)
{
    const char *name = uneven ? "reduce_scatter" : "reduce_scatter_block";
    if (!want(name))
        return;
    size_t counts[64];
    int icounts[64];
    blocks(counts, uneven);
    size_t total = 0, at = 0;
    for (int r = 0; r < p; r++) {
        icounts[r] = (int)counts[r];
        if (r < rank)
            at += counts[r];
        total += counts[r];
    }
    uint8_t *x = xmalloc(total), *y = xmalloc(counts[rank]);
    for (size_t i = 0; i < total; i++)
        x[i] = (uint8_t)(((i + (i >> 16)) & 0x1f) + (size_t)rank);
    double t0 = now();
    int f0 = failures;
    int rc =
        uneven ? CALL(Reduce_scatter)(x, y, icounts, MPI_UINT8_T, MPI_SUM, MPI_COMM_WORLD)
               : CALL(Reduce_scatter_block)(x, y, icounts[0], MPI_UINT8_T, MPI_SUM, MPI_COMM_WORLD);
    t_end = now();
    for (size_t i = 0; rc == MPI_SUCCESS && i < counts[rank]; i++) {
        size_t g = at + i;
        uint8_t w = (uint8_t)((size_t)p * ((g + (g >> 16)) & 0x1f) + (size_t)(p * (p - 1) / 2));
        if (y[i] != w) {
            fail(name, "element", i, y[i], w);
            break;
        }
    }
    free(x);
    free(y);
    report(name, rc, t0, f0, total);
}

/* allgather(v) and gather(v) of MPI_BYTE blocks, total just over 2^31. */
static void case_gathers(const char *name, int all, int uneven)
{
    if (!want(name))
        return;
    size_t counts[64];
    int icounts[64], idispls[64];
    blocks(counts, uneven);
    size_t total = 0;
    for (int r = 0; r < p; r++) {
        icounts[r] = (int)counts[r];
        idispls[r] = (int)total;
        total += counts[r];
    }
    int root = p > 1 ? 1 : 0, receives = all || rank == root;
    unsigned char *s = xmalloc(counts[rank]), *y = receives ? xmalloc(total) : NULL;
    fill_block(s, rank, counts[rank]);
    double t0 = now();
    int f0 = failures;
    int rc;
    if (all && uneven)
        rc = CALL(Allgatherv)(s, icounts[rank], MPI_BYTE, y, icounts, idispls, MPI_BYTE,
                              MPI_COMM_WORLD);
    else if (all)
        rc = CALL(Allgather)(s, icounts[0], MPI_BYTE, y, icounts[0], MPI_BYTE, MPI_COMM_WORLD);
    else
        rc = CALL(Gather)(s, icounts[0], MPI_BYTE, y, icounts[0], MPI_BYTE, root, MPI_COMM_WORLD);
    t_end = now();
    for (int r = 0; rc == MPI_SUCCESS && receives && r < p; r++)
        check_block(name, y + idispls[r], r, counts[r]);
    free(s);
    free(y);
    report(name, rc, t0, f0, total);
}

/* scatter(v) of MPI_BYTE blocks, total just over 2^31. */
static void case_scatters(int uneven)
{
    const char *name = uneven ? "scatterv" : "scatter";
    if (!want(name))
        return;
    size_t counts[64];
    int icounts[64], idispls[64];
    blocks(counts, uneven);
    size_t total = 0;
    for (int r = 0; r < p; r++) {
        icounts[r] = (int)counts[r];
        idispls[r] = (int)total;
        total += counts[r];
    }
    int root = 0;
    unsigned char *x = rank == root ? xmalloc(total) : NULL, *y = xmalloc(counts[rank]);
    for (int r = 0; rank == root && r < p; r++)
        fill_block(x + idispls[r], r, counts[r]);
    double t0 = now();
    int f0 = failures;
    int rc = uneven ? CALL(Scatterv)(x, icounts, idispls, MPI_BYTE, y, icounts[rank], MPI_BYTE,
                                     root, MPI_COMM_WORLD)
                    : CALL(Scatter)(x, icounts[0], MPI_BYTE, y, icounts[0], MPI_BYTE, root,
                                    MPI_COMM_WORLD);
    t_end = now();
    if (rc == MPI_SUCCESS)
        check_block(name, y, rank, counts[rank]);
    free(x);
    free(y);
    report(name, rc, t0, f0, total);
}

/* gatherv of one element per rank of a contiguous type of 1.1e9 chars. */
static void case_gatherv_bigtype(void)
{
    const char *name = "gatherv_bigtype";
    if (!want(name))
        return;
    const int elem = 1100000000;
    MPI_Datatype big;
    MPI_Type_contiguous(elem, MPI_CHAR, &big);
    MPI_Type_commit(&big);
    int counts[64], displs[64], root = p - 1;
    for (int r = 0; r < p; r++) {
        counts[r] = 1;
        displs[r] = r;
    }
    unsigned char *s = xmalloc((size_t)elem);
    unsigned char *y = rank == root ? xmalloc((size_t)elem * (size_t)p) : NULL;
    fill_block(s, rank, (size_t)elem);
    double t0 = now();
    int f0 = failures;
    int rc = CALL(Gatherv)(s, 1, big, y, counts, displs, big, root, MPI_COMM_WORLD);
    t_end = now();
    for (int r = 0; rc == MPI_SUCCESS && rank == root && r < p; r++)
        check_block(name, y + (size_t)r * (size_t)elem, r, (size_t)elem);
    free(s);
    free(y);
    MPI_Type_free(&big);
    report(name, rc, t0, f0, (size_t)elem * (size_t)p);
}

#ifdef HAVE_C
/* MPI-4's large-count calls with counts beyond INT_MAX. */
static void case_large_count(void)
{
    MPI_Count n = (MPI_Count)INT_MAX + 4097;
    if (want("bcast_c")) {
        unsigned char *x = xmalloc((size_t)n);
        if (rank == 0)
            fill_block(x, 7, (size_t)n);
        double t0 = now();
        int f0 = failures;
        int rc = CALL(Bcast_c)(x, n, MPI_BYTE, 0, MPI_COMM_WORLD);
        t_end = now();
        if (rc == MPI_SUCCESS)
            check_block("bcast_c", x, 7, (size_t)n);
        free(x);
        report("bcast_c", rc, t0, f0, (size_t)n);
    }
    if (want("allreduce_c")) {
        uint8_t *x = xmalloc((size_t)n);
        for (MPI_Count i = 0; i < n; i++)
            x[i] = (uint8_t)((i & 0x1f) + rank);
        double t0 = now();
        int f0 = failures;
        int rc = CALL(Allreduce_c)(MPI_IN_PLACE, x, n, MPI_UINT8_T, MPI_SUM, MPI_COMM_WORLD);
        t_end = now();
        for (MPI_Count i = 0; rc == MPI_SUCCESS && i < n; i++)
            if (x[i] != (uint8_t)(p * (i & 0x1f) + p * (p - 1) / 2)) {
                fail("allreduce_c", "element", (size_t)i, x[i],
                     (uint8_t)(p * (i & 0x1f) + p * (p - 1) / 2));
                break;
            }
        free(x);
        report("allreduce_c", rc, t0, f0, (size_t)n);
    }
    if (want("allgather_c")) {
        MPI_Count b = n / p + 1;
        unsigned char *s = xmalloc((size_t)b), *y = xmalloc((size_t)b * (size_t)p);
        fill_block(s, rank, (size_t)b);
        double t0 = now();
        int f0 = failures;
        int rc = CALL(Allgather_c)(s, b, MPI_BYTE, y, b, MPI_BYTE, MPI_COMM_WORLD);
        t_end = now();
        for (int r = 0; rc == MPI_SUCCESS && r < p; r++)
            check_block("allgather_c", y + (size_t)r * (size_t)b, r, (size_t)b);
        free(s);
        free(y);
        report("allgather_c", rc, t0, f0, (size_t)b * (size_t)p);
    }
}
#endif

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
    if (p > 64) {
        if (rank == 0)
            fprintf(stderr, "large: at most 64 ranks\n");
        MPI_Finalize();
        return 1;
    }
    case_bcast();
    case_reduce(0);
    case_reduce(1);
    case_reduce_scatter(0);
    case_reduce_scatter(1);
    case_gathers("allgather", 1, 0);
    case_gathers("allgatherv", 1, 1);
    case_gathers("gather", 0, 0);
    case_scatters(0);
    case_scatters(1);
    case_gatherv_bigtype();
#ifdef HAVE_C
    case_large_count();
#endif
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%s: large p=%d: %d failure(s)\n", total ? "FAIL" : "PASS", p, total);
    MPI_Finalize();
    return total ? 1 : 0;
}
