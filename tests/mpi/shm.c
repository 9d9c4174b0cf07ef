/*
 * shm.c -- short messages through shared memory (src/shm.c) against the
 * vendor MPI.
 *
 * Run at every p of IC_TEST_NPROCS on one node, so every message goes
 * through the channels (up to 16 KiB in pieces of a 4 KiB slot beyond
 * one, longer ones read from the sender in one copy where the kernel
 * allows it), and again by chunked.sh with INTERCOM_SHM=1 (longer ones
 * through MPI) and INTERCOM_SHM=0 (all through MPI).  Each case compares
 * every rank's result with the vendor's, byte for byte:
 *   - many calls in a row (more than a channel's slots: a root that runs
 *     ahead waits for its slots), on MPI_COMM_WORLD, on a communicator
 *     whose ranks run the other way (its ranks are not the node's), and
 *     on the even and odd ranks (a node shared with ranks of no concern);
 *   - broadcasts of 4092, 4096 and 4100 bytes (either side of a slot),
 *     16380, 16384 and 16388 bytes (either side of the pieces' limit: 4
 *     pieces fill the channel), 32 KiB and 256 KiB (read in one copy or,
 *     one way, through MPI: the first ones of a length a rank sends try
 *     both ways, then it keeps the faster) and
 *     of 1 and 0 elements; with more ranks than cores (p > 2 here) the
 *     blocking lane is deeper and carries longer messages in pieces (64
 *     slots, 256 KiB, at p = 3; 32 at p = 4-7; 16 at p = 8), so also 4
 *     bytes either side of 64 and 128 KiB; the root's datatype contiguous
 *     and the others' a strided vector of the same signature, and the
 *     other way round (packed into and out of the slots, or whole before
 *     the pieces or the one copy);
 *   - allgatherv of uneven blocks whose rounds mix single-slot, pieced
 *     and longer messages between the same ranks, and of blocks of 3
 *     pieces and longer ones (both ways at once);
 *   - allreduce with a non-commutative user op (rank order kept) and
 *     reduce to every root;
 *   - broadcasts and allgathers whose buffers lie at a different offset
 *     in their page on every rank (4 bytes more per rank), so that copies
 *     and direct reads meet the destination a few bytes past the source
 *     modulo 4096, where they may take the other way (copy.c, shm.c's
 *     bounce buffer): more calls than the ways' probes;
 *   - a barrier between them all.
 */
#include <mpi.h>
#include "intercom.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SIMPLE_TEST "shm"
#include "simple.h"

/* 2x2 integer matrices, multiplied: a non-commutative op. */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    int *a = in, *b = inout;
    for (int i = 0; i < *len; i++, a += 4, b += 4) {
        int c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
                    a[2] * b[1] + a[3] * b[3]};
        memcpy(b, c, sizeof(c));
    }
}

static void fill(int *x, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        x[i] = (int)((seed * 7919 + (int)i * 31) % 17) - 8;
}

static void same(const void *a, const void *b, size_t bytes, const char *what, int it)
{
    ncases++;
    if (memcmp(a, b, bytes) != 0)
        fail("%s (call %d): differs from the vendor's", what, it);
}

/* Broadcasts of n ints around the channel's limit, many in a row, the
 * root's type or the others' strided (every other int of 2n). */
static void bcasts(MPI_Comm comm, MPI_Datatype strided_n, int n, int strided_root)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *mine = calloc(2 * (size_t)n + 1, sizeof(int));
    int *ref = calloc((size_t)n + 1, sizeof(int));
    int *flat = calloc((size_t)n + 1, sizeof(int));
    for (int it = 0; it < 12; it++) {
        int root = it % size;
        int strided = (rank == root) == strided_root;
        fill(ref, (size_t)n, it + root);
        if (rank != root)
            memset(ref, 0, (size_t)n * sizeof(int));
        MPI_Bcast(ref, n, MPI_INT, root, comm);
        memset(mine, 0x5a, (2 * (size_t)n + 1) * sizeof(int));
        if (rank == root) {
            if (strided)
                for (int i = 0; i < n; i++)
                    mine[2 * i] = ref[i];
            else
                memcpy(mine, ref, (size_t)n * sizeof(int));
        }
        int rc = strided ? IC_Bcast(mine, 1, strided_n, root, comm)
                         : IC_Bcast(mine, n, MPI_INT, root, comm);
        if (rc != MPI_SUCCESS)
            fail("IC_Bcast of %d ints returned %d", n, rc);
        if (strided)
            for (int i = 0; i < n; i++)
                flat[i] = mine[2 * i];
        else
            memcpy(flat, mine, (size_t)n * sizeof(int));
        same(flat, ref, (size_t)n * sizeof(int), "bcast", it);
    }
    free(mine);
    free(ref);
    free(flat);
}

static void gathers(MPI_Comm comm, int big)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *counts = malloc((size_t)size * sizeof(int)), *displs = malloc((size_t)size * sizeof(int));
    int total = 0;
    for (int i = 0; i < size; i++) {
        /* blocks of 1 int to 1400 ints (5600 bytes): some rounds of the
         * ring carry blocks on both sides of a slot's 4 KiB; or of 3000
         * (12000 bytes, 3 pieces) and 9000 (36000: one copy or MPI) */
        if (big)
            counts[i] = i % 2 ? 9000 : 3000;
        else
            counts[i] = i % 3 == 0 ? 1 : i % 3 == 1 ? 1400 : 1023;
        displs[i] = total;
        total += counts[i];
    }
    int *in = malloc((size_t)counts[rank] * sizeof(int));
    int *out = malloc((size_t)total * sizeof(int)), *ref = malloc((size_t)total * sizeof(int));
    for (int it = 0; it < 8; it++) {
        fill(in, (size_t)counts[rank], rank + it);
        MPI_Allgatherv(in, counts[rank], MPI_INT, ref, counts, displs, MPI_INT, comm);
        memset(out, 0, (size_t)total * sizeof(int));
        IC_Allgatherv(in, counts[rank], MPI_INT, out, counts, displs, MPI_INT, comm);
        same(out, ref, (size_t)total * sizeof(int), "allgatherv", it);
    }
    free(counts);
    free(displs);
    free(in);
    free(out);
    free(ref);
}

static void reductions(MPI_Comm comm, MPI_Op mm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Datatype mat;
    MPI_Type_contiguous(4, MPI_INT, &mat);
    MPI_Type_commit(&mat);
    static const int counts[] = {1, 3, 255, 256, 257, 1000};
    for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
        int n = counts[k];
        int *in = malloc((size_t)n * 4 * sizeof(int)), *out = malloc((size_t)n * 4 * sizeof(int));
        int *ref = malloc((size_t)n * 4 * sizeof(int));
        for (int it = 0; it < 6; it++) {
            fill(in, (size_t)n * 4, rank * 3 + it);
            for (int i = 0; i < n; i++) /* small entries: no overflow */
                for (int j = 0; j < 4; j++)
                    in[4 * i + j] = in[4 * i + j] % 2;
            MPI_Allreduce(in, ref, n, mat, mm, comm);
            memset(out, 0, (size_t)n * 4 * sizeof(int));
            IC_Allreduce(in, out, n, mat, mm, comm);
            same(out, ref, (size_t)n * 4 * sizeof(int), "allreduce (non-commutative)", it);
            int root = (it * 5) % size;
            MPI_Reduce(in, ref, n * 4, MPI_INT, MPI_SUM, root, comm);
            IC_Reduce(in, out, n * 4, MPI_INT, MPI_SUM, root, comm);
            if (rank == root)
                same(out, ref, (size_t)n * 4 * sizeof(int), "reduce", it);
            IC_Barrier(comm);
        }
        free(in);
        free(out);
        free(ref);
    }
    MPI_Type_free(&mat);
}

/* Buffers 4 bytes further into their page on every rank (rank r at
 * 4 r modulo 64, past a page of slack). */
static int *shifted_buf(int rank, size_t bytes, void **base)
{
    size_t whole = (bytes + 3 * 4096) & ~(size_t)4095;
    *base = aligned_alloc(4096, whole);
    if (!*base)
        fail("out of memory for %zu bytes", bytes);
    return (int *)((char *)*base + 4096 + 4 * (size_t)(rank % 16));
}

static void shifted(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    static const int ns[] = {4096, 4100, 65539};
    for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
        int n = ns[k];
        size_t bytes = (size_t)n * size * sizeof(int);
        void *bm, *br, *bp;
        int *mine = shifted_buf(rank, bytes, &bm), *ref = shifted_buf(rank + 1, bytes, &br);
        int *part = shifted_buf(rank + 2, bytes / size, &bp);
        for (int it = 0; it < 20; it++) {
            int root = it % size;
            fill(ref, (size_t)n, it);
            if (rank != root)
                memset(ref, 0, (size_t)n * sizeof(int));
            memcpy(mine, ref, (size_t)n * sizeof(int));
            MPI_Bcast(ref, n, MPI_INT, root, comm);
            if (IC_Bcast(mine, n, MPI_INT, root, comm) != MPI_SUCCESS)
                fail("IC_Bcast of %d ints at shifted offsets failed", n);
            same(mine, ref, (size_t)n * sizeof(int), "bcast, shifted buffers", it);
            fill(part, (size_t)n / size, it * size + rank);
            MPI_Allgather(part, n / size, MPI_INT, ref, n / size, MPI_INT, comm);
            if (IC_Allgather(part, n / size, MPI_INT, mine, n / size, MPI_INT, comm) != MPI_SUCCESS)
                fail("IC_Allgather of %d ints at shifted offsets failed", n / size);
            same(mine, ref, (size_t)(n / size) * size * sizeof(int), "allgather, shifted buffers",
                 it);
        }
        free(bm);
        free(br);
        free(bp);
    }
}

static void run(MPI_Comm comm, const char *name, MPI_Op mm)
{
    where = name;
    static const int ns[] = {0,    1,     1023,  1024,  1025,  4095,  4096,  4097,
                             8192, 16383, 16384, 16385, 32767, 32768, 32769, 65536};
    for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
        int n = ns[k];
        MPI_Datatype v;
        MPI_Type_vector(n, 1, 2, MPI_INT, &v);
        MPI_Type_commit(&v);
        bcasts(comm, v, n, 0);
        bcasts(comm, v, n, 1);
        MPI_Type_free(&v);
    }
    gathers(comm, 0);
    gathers(comm, 1);
    reductions(comm, mm);
    shifted(comm);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Op mm;
    MPI_Op_create(matmul, 0, &mm);
    run(MPI_COMM_WORLD, "MPI_COMM_WORLD", mm);
    MPI_Comm rev, half;
    MPI_Comm_split(MPI_COMM_WORLD, 0, p - wrank, &rev);
    run(rev, "reversed ranks", mm);
    MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wrank, &half);
    run(half, "even or odd ranks", mm);
    MPI_Comm_free(&rev);
    MPI_Comm_free(&half);
    MPI_Op_free(&mm);
    int all = 0, cases = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&ncases, &cases, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (wrank == 0)
        printf("shm: p=%d: %d cases, %d failures\n", p, cases, all);
    MPI_Finalize();
    return all != 0;
}
