/*
 * again.c -- the last call again (src/call.c): a blocking call with the
 * arguments of the last one its communicator's context kept runs that
 * call's run again without its checks and set-up.  Every case compares
 * each rank's result with the vendor's, byte for byte, over calls in a
 * row where a repeat must run as the full way would:
 *   - the same arguments and new data in the buffers (the repeats);
 *   - the same buffers with one argument changed between two repeats: the
 *     count (one element less: a stale run would write the element past
 *     it, a guard), the op, the root, MPI_IN_PLACE, the datatype, and the
 *     contents of the count and displacement arrays (the same arrays) of
 *     reduce_scatter and the v variants, whose arrays and datatype that
 *     mean nothing at a rank other than the root are addresses never to
 *     be read there;
 *   - other calls in between (another collective, another communicator,
 *     one that is not kept and runs a schedule of its own), IC_Set_algorithm between two repeats
 *     (IC_Last_algorithm must name the new plan), a user op freed and
 *     made again, a derived datatype freed and made again (neither is
 *     ever kept: their handles may come back for new ones);
 *   - a repeat's mistake: a negative count in reduce_scatter's array
 *     (MPI_ERR_COUNT, nothing written) and the call after it;
 *   - the linear gatherv and scatterv repeated at the root while another
 *     rank's count changes (MPI_ERR_TRUNCATE where the message arrives,
 *     nothing written there) and the call after it.
 * It looks inside (libicrt, like placement.c) only to make sure the
 * repeats are kept at all, and some of them compiled (src/executor.c,
 * "Replay"), so that the cases test the repeat paths.
 */
#include <mpi.h>
#include "ic_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SIMPLE_TEST "again"
#include "simple.h"

#define N 300 /* elements of the vectors: above a channel message at p = 2 */
#define GUARD 0x7a5a5a5a

static void fill(int *x, int n, int seed)
{
    for (int i = 0; i < n; i++)
        x[i] = (seed * 7919 + i * 31 + wrank * 13) % 1001 - 500;
}

static void same(const void *a, const void *b, size_t bytes, const char *what, int it)
{
    ncases++;
    if (memcmp(a, b, bytes) != 0)
        fail("%s (call %d): differs from the vendor's", what, it);
}

/* Was the last call on comm kept for a repeat? */
static int kept(MPI_Comm comm)
{
    const ic_ctx_t *ctx = ic_ctx_known(comm);
    return ctx && ctx->again && ctx->again->valid;
}

/* Repeats that ran compiled (src/executor.c, "Replay"), at the points
 * expect_kept looks. */
static int replayed;

static void expect_kept(MPI_Comm comm, const char *what)
{
    ncases++;
    if (!kept(comm))
        fail("%s: the call was not kept for a repeat", what);
    else if (ic_ctx_known(comm)->again->rp_state > 0)
        replayed++;
}

/* gatherv and scatterv: kept where they run in one phase (the linear
 * plan, each side counting alone), never where the block sizes go first
 * (a phase of their own, which every rank must run again: see recounted). */
static void expect_kept_once(MPI_Comm comm, ic_coll_t c, int root, const char *what)
{
    if (ic_select_direct(ic_ctx_known(comm), c, root)) {
        expect_kept(comm, what);
        return;
    }
    ncases++;
    if (kept(comm))
        fail("%s: a call whose block sizes went first was kept for a repeat", what);
}

/* Ops and datatypes that are never kept: a user op and a derived
 * datatype, freed and made again between calls on the same buffers.
 * The non-commutative op must still be associative, as MPI requires of
 * every op (a - b is not: the vendors group its terms as they like, SMPI
 * as x0 - (x1 - x2) at p = 3, Open MPI otherwise at p = 5): each int is a
 * map t -> a t + b modulo 2^16, b its low half and a (made odd) its high
 * half xor b, so that small ints of either sign are maps of many slopes,
 * and the op composes them, in (after) inout. */
static void map_of(unsigned f, unsigned *a, unsigned *b)
{
    *b = f & 0xffff;
    *a = ((f >> 16) ^ *b) | 1;
}

static unsigned compose(unsigned f, unsigned g)
{
    unsigned a, b, c, d;
    map_of(f, &a, &b);
    map_of(g, &c, &d);
    unsigned slope = (a * c) & 0xffff, shift = (a * d + b) & 0xffff;
    return (slope ^ shift) << 16 | shift;
}

static void composed(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    const unsigned *a = in; /* MPI_INT: read and written as unsigned */
    unsigned *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = compose(a[i], b[i]);
}

static void add(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    int *a = in, *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = a[i] + b[i];
}

/* Allreduces on the same buffers: repeats with new data, then each
 * argument changed in turn between repeats. */
static void allreduces(MPI_Comm comm)
{
    int *in = malloc((N + 1) * sizeof(int)), *out = malloc((N + 1) * sizeof(int));
    int *ref = malloc((N + 1) * sizeof(int));
    where = "allreduce";
    for (int it = 0; it < 40; it++) {
        /* 0-9 repeats, 10-13 one less (guard), 14-19 MAX, 20-23 in place,
         * 24-29 a bcast between, 30-33 a shorter one with a user op
         * between, 34-39 repeats */
        int n = it >= 10 && it < 14 ? N - 1 : N;
        MPI_Op op = it >= 14 && it < 20 ? MPI_MAX : MPI_SUM;
        int inplace = it >= 20 && it < 24;
        fill(in, N, it);
        in[N] = out[N] = GUARD;
        memcpy(out, in, N * sizeof(int)); /* in place: the input in out */
        MPI_Allreduce(in, ref, n, MPI_INT, op, comm);
        int rc = IC_Allreduce(inplace ? MPI_IN_PLACE : in, out, n, MPI_INT, op, comm);
        if (rc != MPI_SUCCESS)
            fail("call %d returned %d", it, rc);
        same(out, ref, (size_t)n * sizeof(int), "result", it);
        ncases++;
        if (out[N] != GUARD || (n < N && out[N - 1] != in[N - 1] && !inplace))
            fail("call %d wrote past its count", it);
        if (it >= 24 && it < 30) {
            int b[3] = {it, it + 1, it + 2};
            IC_Bcast(b, 3, MPI_INT, 0, comm);
        }
        if (it >= 30 && it < 34) { /* a call that is not kept, on a schedule of its own */
            int u[N / 2], v[N / 2], w[N / 2];
            MPI_Op uop;
            MPI_Op_create(add, 1, &uop);
            fill(u, N / 2, it);
            MPI_Allreduce(u, w, N / 2, MPI_INT, uop, comm);
            IC_Allreduce(u, v, N / 2, MPI_INT, uop, comm);
            same(v, w, sizeof(v), "user op between", it);
            MPI_Op_free(&uop);
        }
        if ((it == 9 || it == 19 || it == 39) && p > 1)
            expect_kept(comm, "allreduce");
    }
    free(in);
    free(out);
    free(ref);
}

/* Reduce and bcast with the root moving between repeats. */
static void rooted(MPI_Comm comm)
{
    int size, rank;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    int *in = malloc(N * sizeof(int)), *out = malloc(N * sizeof(int)),
        *ref = malloc(N * sizeof(int));
    where = "reduce, bcast";
    for (int it = 0; it < 24; it++) {
        int root = (it / 4) % size;
        fill(in, N, it);
        memset(out, 0, N * sizeof(int));
        memset(ref, 0, N * sizeof(int));
        MPI_Reduce(in, ref, N, MPI_INT, MPI_SUM, root, comm);
        IC_Reduce(in, out, N, MPI_INT, MPI_SUM, root, comm);
        if (rank == root)
            same(out, ref, N * sizeof(int), "reduce", it);
        fill(ref, N, it + 100);
        memcpy(out, ref, N * sizeof(int));
        MPI_Bcast(ref, N, MPI_INT, root, comm);
        IC_Bcast(out, N, MPI_INT, root, comm);
        same(out, ref, N * sizeof(int), "bcast", it);
    }
    if (size > 1)
        expect_kept(comm, "bcast");
    free(in);
    free(out);
    free(ref);
}

/* reduce_scatter with one count array whose contents change between
 * repeats, and a negative count in it: the mistake, not a repeat. */
static void reduce_scatters(MPI_Comm comm)
{
    int size;
    MPI_Comm_size(comm, &size);
    int *counts = malloc((size_t)size * sizeof(int));
    int total = 3 * size + 2;
    int *in = malloc((size_t)total * sizeof(int));
    int *out = malloc((size_t)(total + 1) * sizeof(int)),
        *ref = malloc((size_t)total * sizeof(int));
    where = "reduce_scatter";
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    for (int it = 0; it < 30; it++) {
        for (int i = 0; i < size; i++)
            counts[i] = 3;
        counts[0] += 2;
        if (it >= 10 && it < 20) { /* the same total, other blocks */
            counts[size - 1] += 2;
            counts[0] -= 2;
        }
        if (it == 25) {
            counts[0] = -1;
            out[0] = GUARD;
            int rc = IC_Reduce_scatter(in, out, counts, MPI_INT, MPI_SUM, comm);
            int cls = rc;
            MPI_Error_class(rc, &cls);
            ncases++;
            if (cls != MPI_ERR_COUNT)
                fail("a negative count: error class %d, not MPI_ERR_COUNT", cls);
            ncases++;
            if (out[0] != GUARD)
                fail("a negative count: the receive buffer was written");
            continue;
        }
        fill(in, total, it);
        for (int i = 0; i <= total; i++)
            out[i] = GUARD;
        MPI_Reduce_scatter(in, ref, counts, MPI_INT, MPI_SUM, comm);
        IC_Reduce_scatter(in, out, counts, MPI_INT, MPI_SUM, comm);
        int mine;
        MPI_Comm_rank(comm, &mine);
        same(out, ref, (size_t)counts[mine] * sizeof(int), "result", it);
        ncases++;
        if (out[counts[mine]] != GUARD)
            fail("call %d wrote past its block", it);
        if ((it == 9 || it == 19) && size > 1)
            expect_kept(comm, "reduce_scatter");
    }
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_ARE_FATAL);
    free(counts);
    free(in);
    free(out);
    free(ref);
}

/* The gather family and reduce_scatter_block in a row, each repeated. */
static void blocks(MPI_Comm comm)
{
    int size, rank;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    int m = 5;
    int *mine = malloc((size_t)m * size * sizeof(int)),
        *all = malloc((size_t)m * size * sizeof(int));
    int *ref = malloc((size_t)m * size * sizeof(int));
    where = "gather family";
    for (int it = 0; it < 12; it++) {
        int root = it % 2 ? size - 1 : 0;
        fill(mine, m * size, it);
        memset(all, 0, (size_t)m * size * sizeof(int));
        memset(ref, 0, (size_t)m * size * sizeof(int));
        MPI_Allgather(mine, m, MPI_INT, ref, m, MPI_INT, comm);
        IC_Allgather(mine, m, MPI_INT, all, m, MPI_INT, comm);
        same(all, ref, (size_t)m * size * sizeof(int), "allgather", it);
        memset(all, 0, (size_t)m * size * sizeof(int));
        memset(ref, 0, (size_t)m * size * sizeof(int));
        MPI_Gather(mine, m, MPI_INT, ref, m, MPI_INT, root, comm);
        IC_Gather(mine, m, MPI_INT, all, m, MPI_INT, root, comm);
        same(all, ref, (size_t)m * size * sizeof(int), "gather", it);
        MPI_Scatter(mine, m, MPI_INT, ref, m, MPI_INT, root, comm);
        IC_Scatter(mine, m, MPI_INT, all, m, MPI_INT, root, comm);
        same(all, ref, (size_t)m * sizeof(int), "scatter", it);
        MPI_Reduce_scatter_block(mine, ref, m, MPI_INT, MPI_SUM, comm);
        IC_Reduce_scatter_block(mine, all, m, MPI_INT, MPI_SUM, comm);
        same(all, ref, (size_t)m * sizeof(int), "reduce_scatter_block", it);
        IC_Barrier(comm);
    }
    free(mine);
    free(all);
    free(ref);
}

/* The v variants: the same count and displacement arrays whose contents
 * change between repeats; the arrays and datatype that mean nothing at the
 * other ranks of gatherv and scatterv passed as addresses that must not be
 * read there. */
static void vblocks(MPI_Comm comm)
{
    int size, rank;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    int *counts = malloc((size_t)size * sizeof(int)), *displs = malloc((size_t)size * sizeof(int));
    int cap = 8 * size + 8;
    int *mine = malloc(8 * sizeof(int)), *all = malloc((size_t)(cap + 1) * sizeof(int));
    int *ref = malloc((size_t)cap * sizeof(int));
    int *const bad = (int *)(uintptr_t)8; /* never to be read */
    where = "v variants";
    for (int it = 0; it < 24; it++) {
        int root = it % 3 == 2 ? size - 1 : 0;
        int shape = (it / 6) % 2; /* two layouts of the same arrays */
        int at = 0;
        for (int i = 0; i < size; i++) {
            counts[i] = shape ? 1 + (i % 3) : 3;
            displs[i] = at + shape; /* shape 1: a gap before each block */
            at += counts[i] + shape;
        }
        int n = counts[rank];
        fill(mine, 8, it);
        for (int i = 0; i <= cap; i++)
            all[i] = GUARD;
        memcpy(ref, all, (size_t)cap * sizeof(int));
        MPI_Allgatherv(mine, n, MPI_INT, ref, counts, displs, MPI_INT, comm);
        IC_Allgatherv(mine, n, MPI_INT, all, counts, displs, MPI_INT, comm);
        same(all, ref, (size_t)cap * sizeof(int), "allgatherv", it);
        for (int i = 0; i <= cap; i++)
            all[i] = GUARD;
        memcpy(ref, all, (size_t)cap * sizeof(int));
        int is_root = rank == root;
        MPI_Gatherv(mine, n, MPI_INT, ref, counts, displs, MPI_INT, root, comm);
        IC_Gatherv(mine, n, MPI_INT, is_root ? all : NULL, is_root ? counts : bad,
                   is_root ? displs : bad, is_root ? MPI_INT : MPI_DATATYPE_NULL, root, comm);
        same(all, ref, (size_t)cap * sizeof(int), "gatherv", it);
        fill(ref, cap, it + 7);
        memcpy(all, ref, (size_t)cap * sizeof(int));
        int got[8], want[8];
        memset(got, 0, sizeof(got));
        memset(want, 0, sizeof(want));
        MPI_Scatterv(ref, counts, displs, MPI_INT, want, n, MPI_INT, root, comm);
        IC_Scatterv(is_root ? all : NULL, is_root ? counts : bad, is_root ? displs : bad,
                    is_root ? MPI_INT : MPI_DATATYPE_NULL, got, n, MPI_INT, root, comm);
        same(got, want, sizeof(got), "scatterv", it);
        if ((it == 5 || it == 17) && size > 1) /* blocks without gaps: not packed */
            expect_kept_once(comm, IC_COLL_SCATTERV, root, "scatterv");
    }
    free(counts);
    free(displs);
    free(mine);
    free(all);
    free(ref);
}

/* IC_Set_algorithm between repeats: the repeat runs the new plan. */
static void forced(MPI_Comm comm)
{
    int in[N], out[N], ref[N];
    where = "IC_Set_algorithm";
    const char *plans[] = {"recursive_doubling", "dcombine_collect", "auto"};
    for (int k = 0; k < 3; k++) {
        IC_Set_algorithm(IC_COLL_ID_ALLREDUCE, plans[k]);
        char first[256] = "";
        for (int it = 0; it < 4; it++) {
            fill(in, N, it + 10 * k);
            MPI_Allreduce(in, ref, N, MPI_INT, MPI_SUM, comm);
            IC_Allreduce(in, out, N, MPI_INT, MPI_SUM, comm);
            same(out, ref, sizeof(out), plans[k], it);
            if (p == 1)
                continue; /* nothing runs */
            const char *last = IC_Last_algorithm(IC_COLL_ID_ALLREDUCE);
            ncases++;
            if (k < 2 && strncmp(last, plans[k], strlen(plans[k])) != 0)
                fail("%s forced: the call ran %s", plans[k], last);
            if (it == 0)
                snprintf(first, sizeof(first), "%s", last);
            ncases++;
            if (strcmp(first, last) != 0)
                fail("%s: a repeat ran %s, the first %s", plans[k], last, first);
        }
    }
}

static void handles(MPI_Comm comm)
{
    int in[N], out[N], ref[N];
    where = "user ops, derived datatypes";
    for (int it = 0; it < 8; it++) {
        MPI_Op op;
        MPI_Op_create(it % 2 ? composed : add, it % 2 ? 0 : 1, &op);
        fill(in, N, it);
        MPI_Allreduce(in, ref, N, MPI_INT, op, comm);
        IC_Allreduce(in, out, N, MPI_INT, op, comm);
        same(out, ref, sizeof(out), "user op", it);
        MPI_Op_free(&op);
        MPI_Datatype t;
        if (it % 2)
            MPI_Type_vector(N / 2, 1, 2, MPI_INT, &t);
        else
            MPI_Type_contiguous(N / 2, MPI_INT, &t);
        MPI_Type_commit(&t);
        fill(ref, N, it + 50);
        memcpy(out, ref, sizeof(out));
        MPI_Bcast(ref, 1, t, 0, comm);
        IC_Bcast(out, 1, t, 0, comm);
        same(out, ref, sizeof(out), "derived datatype", it);
        MPI_Type_free(&t);
    }
}

/* The buffers of the v cases below: blocks of up to 4 elements, the
 * rank's own 8 to send, a receive buffer and the vendor's with a guard. */
typedef struct vbufs {
    int size, rank, cap;
    int *counts, *displs, *mine, *all, *ref;
} vbufs_t;

static void vbufs_make(vbufs_t *v, MPI_Comm comm)
{
    MPI_Comm_size(comm, &v->size);
    MPI_Comm_rank(comm, &v->rank);
    v->cap = 4 * v->size;
    v->counts = malloc((size_t)v->size * sizeof(int));
    v->displs = malloc((size_t)v->size * sizeof(int));
    v->mine = malloc(8 * sizeof(int));
    v->all = malloc((size_t)(v->cap + 1) * sizeof(int));
    v->ref = malloc((size_t)(v->cap + 1) * sizeof(int));
}

/* Blocks of 4, rank `other`'s of n, in rank order without gaps (nothing
 * to pack: vblocks). */
static void vbufs_layout(vbufs_t *v, int other, int n)
{
    for (int i = 0; i < v->size; i++) {
        v->counts[i] = i == other ? n : 4;
        v->displs[i] = 4 * i;
    }
}

static void vbufs_free(vbufs_t *v)
{
    free(v->counts);
    free(v->displs);
    free(v->mine);
    free(v->all);
    free(v->ref);
}

/* Under SimGrid's SMPI the receives of an unagreed call (the linear
 * gatherv and scatterv) go in place and are checked once complete
 * (src/executor.c, IC_PROBE_FIRST; README): there a message of another
 * length than its count leaves what it brought in the receive buffer,
 * and the messages of the other ranks theirs.  Elsewhere each message is
 * probed first and nothing is written. */
#ifdef SMPI_H
#define IN_PLACE_RECEIVES 1
#else
#define IN_PLACE_RECEIVES 0
#endif

/* A receive buffer after a call that raised a mismatch: each of its n
 * elements as it was (GUARD) or, where brought[i] is not GUARD, that
 * (what a message in place brought there). */
static void as_it_was(const int *got, const int *brought, int n, const char *what, int it)
{
    ncases++;
    for (int i = 0; i < n; i++)
        if (got[i] != GUARD && got[i] != brought[i]) {
            fail("%s (call %d): element %d written (%d)", what, it, i, got[i]);
            return;
        }
}

static int err_class(int rc)
{
    int c = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &c);
    return c;
}

/* The linear gatherv and scatterv (their two sides count alone) with the
 * root repeating its call while the rank after it changes its count: the
 * root's repeat runs compiled and must still see the mismatch (gatherv:
 * MPI_ERR_TRUNCATE at the root, its buffer as it was; scatterv: at the
 * receiver), and the call after it must be right everywhere. */
static void mismatched(MPI_Comm comm, vbufs_t *v)
{
    int root = 0, other = 1, rank = v->rank, cap = v->cap;
    int *counts = v->counts, *displs = v->displs, *mine = v->mine, *all = v->all, *ref = v->ref;
    int *brought = malloc((size_t)(cap + 1) * sizeof(int));
    vbufs_layout(v, other, 4);
    IC_Set_algorithm(IC_COLL_ID_GATHERV, "linear");
    IC_Set_algorithm(IC_COLL_ID_SCATTERV, "linear");
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    where = "mismatched counts under a repeat";
    for (int it = 0; it < 12; it++) {   /* gatherv repeats */
        int wrong = it == 5 || it == 9; /* `other` sends 2 of its 4 */
        int n = wrong && rank == other ? 2 : 4;
        fill(mine, 8, it);
        for (int i = 0; i <= cap; i++)
            all[i] = ref[i] = GUARD;
        if (!wrong)
            MPI_Gatherv(mine, 4, MPI_INT, ref, counts, displs, MPI_INT, root, comm);
        else if (IN_PLACE_RECEIVES) {
            /* what the messages bring: the others' blocks, `other`'s first 2 */
            memcpy(brought, all, (size_t)(cap + 1) * sizeof(int));
            MPI_Gatherv(mine, 4, MPI_INT, brought, counts, displs, MPI_INT, root, comm);
            for (int q = 0; q < v->size; q++)
                for (int i = q == root ? 0 : q == other ? 2 : 4; i < counts[q]; i++)
                    brought[displs[q] + i] = GUARD;
        }
        int rc = IC_Gatherv(mine, n, MPI_INT, all, counts, displs, MPI_INT, root, comm);
        int want = wrong && rank == root ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
        ncases++;
        if (err_class(rc) != want)
            fail("gatherv (call %d): class %d, expected %d", it, err_class(rc), want);
        if (rank == root && wrong && IN_PLACE_RECEIVES)
            as_it_was(all, brought, cap + 1, "gatherv: the root's buffer", it);
        else if (rank == root)
            same(all, ref, (size_t)(cap + 1) * sizeof(int),
                 wrong ? "gatherv: the root's buffer as it was" : "gatherv", it);
        if (it == 4)
            expect_kept(comm, "gatherv");
    }
    for (int it = 0; it < 12; it++) {   /* scatterv repeats */
        int wrong = it == 5 || it == 9; /* `other` expects 2 of its 4 */
        int n = wrong && rank == other ? 2 : 4;
        for (int i = 0; i < cap; i++) /* the same on every rank */
            ref[i] = it * 1009 + i;
        memcpy(all, ref, (size_t)cap * sizeof(int));
        int got[5] = {GUARD, GUARD, GUARD, GUARD, GUARD}, exp[5];
        memcpy(exp, got, sizeof(got));
        memcpy(exp, ref + displs[rank], 4 * sizeof(int)); /* its block */
        int rc = IC_Scatterv(all, counts, displs, MPI_INT, got, n, MPI_INT, root, comm);
        int want = wrong && rank == other ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
        ncases++;
        if (err_class(rc) != want)
            fail("scatterv (call %d): class %d, expected %d", it, err_class(rc), want);
        if (wrong && rank == other) {
            /* nothing written (in place: the first 2 of its block at most) */
            for (int i = IN_PLACE_RECEIVES ? 2 : 0; i < 5; i++)
                exp[i] = GUARD;
            as_it_was(got, exp, 5, "scatterv: the receive buffer", it);
        } else
            same(got, exp, sizeof(got), "scatterv", it);
        if (it == 4)
            expect_kept(comm, "scatterv");
    }
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_ARE_FATAL);
    free(brought);
    IC_Set_algorithm(IC_COLL_ID_GATHERV, "auto");
    IC_Set_algorithm(IC_COLL_ID_SCATTERV, "auto");
}

/* The automatic gatherv and scatterv, correct programs: the root and the
 * rank after it change that rank's count between repeats while every other
 * rank repeats its call unchanged (its arguments say nothing of the
 * counts).  Where the block sizes go first (a phase of their own), every
 * rank must run that phase again: a call of two phases is never kept. */
static void recounted(MPI_Comm comm, vbufs_t *v)
{
    int root = 0, other = 1, rank = v->rank, cap = v->cap;
    int *counts = v->counts, *displs = v->displs, *mine = v->mine, *all = v->all, *ref = v->ref;
    where = "counts changed at the root and one rank";
    for (int it = 0; it < 16; it++) {
        vbufs_layout(v, other, it >= 6 && it < 10 ? 2 : 4); /* 4, then 2, then 4 */
        int n = counts[rank];
        fill(mine, 8, it);
        for (int i = 0; i <= cap; i++)
            all[i] = ref[i] = GUARD;
        MPI_Gatherv(mine, n, MPI_INT, ref, counts, displs, MPI_INT, root, comm);
        IC_Gatherv(mine, n, MPI_INT, all, counts, displs, MPI_INT, root, comm);
        if (rank == root)
            same(all, ref, (size_t)(cap + 1) * sizeof(int), "gatherv", it);
        if (it == 5)
            expect_kept_once(comm, IC_COLL_GATHERV, root, "gatherv");
    }
    for (int it = 0; it < 16; it++) {
        vbufs_layout(v, other, it >= 6 && it < 10 ? 2 : 4);
        int n = counts[rank];
        for (int i = 0; i < cap; i++)
            all[i] = it * 1009 + i;
        int got[5] = {GUARD, GUARD, GUARD, GUARD, GUARD}, exp[5];
        memcpy(exp, got, sizeof(got));
        MPI_Scatterv(all, counts, displs, MPI_INT, exp, n, MPI_INT, root, comm);
        IC_Scatterv(all, counts, displs, MPI_INT, got, n, MPI_INT, root, comm);
        same(got, exp, sizeof(got), "scatterv", it);
        if (it == 5)
            expect_kept_once(comm, IC_COLL_SCATTERV, root, "scatterv");
    }
}

static void run(MPI_Comm comm)
{
    allreduces(comm);
    rooted(comm);
    reduce_scatters(comm);
    blocks(comm);
    vblocks(comm);
    forced(comm);
    handles(comm);
    vbufs_t v; /* the v cases of more than one rank */
    vbufs_make(&v, comm);
    if (v.size > 1) {
        recounted(comm, &v);
        mismatched(comm, &v);
    }
    vbufs_free(&v);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    run(MPI_COMM_WORLD);
    /* two communicators in turn: each keeps its own */
    MPI_Comm rev;
    MPI_Comm_split(MPI_COMM_WORLD, 0, p - wrank, &rev);
    for (int k = 0; k < 3; k++) {
        allreduces(rev);
        allreduces(MPI_COMM_WORLD);
    }
    MPI_Comm_free(&rev);
    /* with whole messages (no INTERCOM_CHUNK) the short calls' repeats
     * run compiled: make sure the cases test that path too */
    if (p > 1 && !getenv("INTERCOM_CHUNK")) {
        ncases++;
        if (!replayed)
            fail("no repeat ran compiled");
    }
    int all = 0, cases = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&ncases, &cases, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (wrank == 0)
        printf("again: p=%d: %d cases, %d failures\n", p, cases, all);
    MPI_Finalize();
    return all != 0;
}
