/*
 * comms.c -- communicators: isolation of library traffic, context
 * lifecycle, communicators of size 1, split and reordered communicators.
 *
 *   1. isolation: receives with MPI_ANY_SOURCE/MPI_ANY_TAG are posted on a
 *      communicator, and user messages (one with the tag InterCom uses
 *      internally) are left in flight, before IC_ collectives run on that
 *      communicator with every algorithm; no library message may match a
 *      user receive, no user message may be consumed by the library, and
 *      both are delivered intact afterwards;
 *   2. lifecycle: the test interposes MPI_Comm_dup/_split/_create/_free and
 *      MPI_Finalize (PMPI) and keeps the set of communicators the library
 *      creates.  Many communicators are created, used by IC_ calls and
 *      freed in a loop: freeing one must free its private duplicate at
 *      once; what is still alive (MPI_COMM_WORLD's and MPI_COMM_SELF's
 *      contexts, a communicator the test never frees) must be freed by
 *      MPI_Finalize;
 *      an IC_ call after MPI_Finalize returns an error;
 *   3. MPI_COMM_SELF, a split of size 1, MPI_COMM_WORLD itself, and a split
 *      into halves with the rank order reversed (descending key): the
 *      collectives against the vendor on each, the non-commutative op
 *      included (its result depends on the new rank order), and calls
 *      interleaved between two communicators;
 *   4. MPI_BOTTOM with a datatype of absolute addresses (bcast, gather,
 *      allgatherv at displacements around 0).
 *
 * IC_TEST_COMMS_LOOP sets the number of loop iterations (default 100).  The
 * scratch cache is set small (INTERCOM_SCRATCH_CACHE=4096 unless set), so
 * scratch is also released after calls.
 */
#include "mpitest.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ----------------------------------------------- PMPI: who creates what */

#define MAXLIB 4096
static MPI_Comm lib_comms[MAXLIB]; /* created by the library, still alive */
static int nlib, lib_created, lib_freed, overflow;
static int test_creating; /* the test itself is creating a communicator */

static void created(MPI_Comm c)
{
    if (test_creating || c == MPI_COMM_NULL)
        return;
    lib_created++;
    if (nlib < MAXLIB)
        lib_comms[nlib++] = c;
    else
        overflow = 1;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    int rc = PMPI_Comm_dup(comm, newcomm);
    if (rc == MPI_SUCCESS)
        created(*newcomm);
    return rc;
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    int rc = PMPI_Comm_split(comm, color, key, newcomm);
    if (rc == MPI_SUCCESS)
        created(*newcomm);
    return rc;
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    int rc = PMPI_Comm_create(comm, group, newcomm);
    if (rc == MPI_SUCCESS)
        created(*newcomm);
    return rc;
}

int MPI_Comm_free(MPI_Comm *comm)
{
    MPI_Comm c = *comm;
    int rc = PMPI_Comm_free(comm);
    if (rc == MPI_SUCCESS)
        for (int i = 0; i < nlib; i++)
            if (lib_comms[i] == c) {
                lib_comms[i] = lib_comms[--nlib];
                lib_freed++;
                break;
            }
    return rc;
}

static int finalize_leaks = -1;

int MPI_Finalize(void)
{
    int rc = PMPI_Finalize();
    finalize_leaks = nlib;
    return rc;
}

/* The test's own communicators are not the library's. */
static void test_dup(MPI_Comm from, MPI_Comm *to)
{
    test_creating = 1;
    MPI_Comm_dup(from, to);
    test_creating = 0;
    MPI_Comm_set_errhandler(*to, MPI_ERRORS_RETURN);
}

static void test_split(MPI_Comm from, int color, int key, MPI_Comm *to)
{
    test_creating = 1;
    MPI_Comm_split(from, color, key, to);
    test_creating = 0;
    MPI_Comm_set_errhandler(*to, MPI_ERRORS_RETURN);
}

/* ------------------------------------------------------ a set of cases */

static mt_type_t t_int, t_double;

/* Every collective with every algorithm at a few counts and roots. */
static void sweep(MPI_Comm comm, const char *name, int all_roots)
{
    int p;
    MPI_Comm_size(comm, &p);
    const IC_Coll red[] = {IC_COLL_ID_REDUCE, IC_COLL_ID_ALLREDUCE, IC_COLL_ID_REDUCE_SCATTER,
                           IC_COLL_ID_REDUCE_SCATTER_BLOCK};
    const IC_Coll mov[] = {IC_COLL_ID_BCAST,     IC_COLL_ID_GATHER,   IC_COLL_ID_GATHERV,
                           IC_COLL_ID_SCATTER,   IC_COLL_ID_SCATTERV, IC_COLL_ID_ALLGATHER,
                           IC_COLL_ID_ALLGATHERV};
    long counts[] = {0, 1, p + 1, 1000};
    int k = 0;
    for (int i = 0; i < 4; i++)
        for (int a = 0; a < mt_nalgs(red[i]); a++)
            for (int ci = 0; ci < 4; ci++)
                for (int root = 0; root < p; root++) {
                    if (!all_roots && root != k % p)
                        continue;
                    if (red[i] != IC_COLL_ID_REDUCE && root > 0)
                        continue;
                    mt_red_t r = {red[i],    &mt_mat, mt_op_matmul, counts[ci],
                                  MT_UNEVEN, root,    k % 2,        0};
                    mt_run_red(comm, name, &r, a);
                    mt_red_t d = {red[i],  &t_double, &mt_ops[0],  counts[ci],
                                  MT_EVEN, root,      (k + 1) % 2, 1};
                    mt_run_red(comm, name, &d, a);
                    k++;
                }
    for (int i = 0; i < 7; i++)
        for (int a = 0; a < mt_nalgs(mov[i]); a++)
            for (int ci = 0; ci < 4; ci++)
                for (int root = 0; root < p; root++) {
                    if (!all_roots && root != k % p)
                        continue;
                    int rooted = mov[i] != IC_COLL_ID_ALLGATHER && mov[i] != IC_COLL_ID_ALLGATHERV;
                    if (!rooted && root > 0)
                        continue;
                    mt_move_t m = {mov[i],
                                   &mt_tpairs[k % mt_ntpairs],
                                   counts[ci] % 7,
                                   MT_UNEVEN,
                                   MT_GAPS,
                                   rooted ? root : -1,
                                   mov[i] != IC_COLL_ID_BCAST && k % 2,
                                   k % 3 == 0};
                    mt_run_move(comm, name, &m, a);
                    k++;
                }
    for (int a = 0; a < mt_nalgs(IC_COLL_ID_BARRIER); a++)
        mt_run_barrier(comm, name, a);
}

/* ------------------------------------------------------------ isolation */

#define UTAG 0x1C /* the tag of InterCom's messages on its private duplicate */

static void isolation(void)
{
    MPI_Comm comm;
    test_dup(mt_world, &comm);
    int rank = mt_rank, p = mt_size, right = (rank + 1) % p, left = (rank + p - 1) % p;
    mt_case_t c = {
        "isolation", "all", comm, "dup", -1,
        0,           NULL,  NULL, 0,     "user receives and messages pending around IC_ calls"};
    mt_begin(&c);

    /* receives that would match anything, and messages nobody receives yet */
    int got[2][4];
    MPI_Request rq[2];
    for (int i = 0; i < 2; i++)
        MPI_Irecv(got[i], 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &rq[i]);

    /* every collective, every algorithm, small counts, on this communicator */
    for (int cl = 0; cl < IC_COLL_ID_COUNT; cl++)
        for (int a = 0; a < mt_nalgs((IC_Coll)cl); a++) {
            mt_alg((IC_Coll)cl, a);
            int x[64], y[64];
            for (int i = 0; i < 64; i++)
                x[i] = rank * 100 + i;
            int n = 3, ok = 1, *cnt = malloc((size_t)p * 2 * sizeof(int)), *dsp = cnt + p;
            for (int i = 0; i < p; i++) {
                cnt[i] = n;
                dsp[i] = i * n;
            }
            int rc = MPI_SUCCESS;
            switch ((IC_Coll)cl) {
            case IC_COLL_ID_BCAST:
                rc = IC_Bcast(x, n, MPI_INT, p - 1, comm);
                break;
            case IC_COLL_ID_REDUCE:
                rc = IC_Reduce(x, y, n, MPI_INT, MPI_SUM, 0, comm);
                break;
            case IC_COLL_ID_ALLREDUCE:
                rc = IC_Allreduce(x, y, n, MPI_INT, MPI_SUM, comm);
                break;
            case IC_COLL_ID_ALLGATHER:
                rc = p * n <= 64 ? IC_Allgather(x, n, MPI_INT, y, n, MPI_INT, comm) : 0;
                break;
            case IC_COLL_ID_ALLGATHERV:
                rc = p * n <= 64 ? IC_Allgatherv(x, n, MPI_INT, y, cnt, dsp, MPI_INT, comm) : 0;
                break;
            case IC_COLL_ID_REDUCE_SCATTER:
                rc = IC_Reduce_scatter(x, y, cnt, MPI_INT, MPI_SUM, comm);
                break;
            case IC_COLL_ID_REDUCE_SCATTER_BLOCK:
                rc = IC_Reduce_scatter_block(x, y, n, MPI_INT, MPI_SUM, comm);
                break;
            case IC_COLL_ID_SCATTER:
                rc = p * n <= 64 ? IC_Scatter(x, n, MPI_INT, y, n, MPI_INT, 0, comm) : 0;
                break;
            case IC_COLL_ID_SCATTERV:
                rc = p * n <= 64 ? IC_Scatterv(x, cnt, dsp, MPI_INT, y, n, MPI_INT, 0, comm) : 0;
                break;
            case IC_COLL_ID_GATHER:
                rc = p * n <= 64 ? IC_Gather(x, n, MPI_INT, y, n, MPI_INT, 0, comm) : 0;
                break;
            case IC_COLL_ID_GATHERV:
                rc = p * n <= 64 ? IC_Gatherv(x, n, MPI_INT, y, cnt, dsp, MPI_INT, 0, comm) : 0;
                break;
            default:
                rc = IC_Barrier(comm);
                break;
            }
            free(cnt);
            ok = rc == MPI_SUCCESS;
            if (!ok)
                mt_fail(&c, "collective %d with algorithm %s returned %d", cl,
                        mt_alg((IC_Coll)cl, a), rc);
            if (cl == IC_COLL_ID_BARRIER && a == 0) {
                /* mid-way: user messages in flight, one with the library's tag */
                int msg[4] = {rank, UTAG, 42, -rank};
                MPI_Send(msg, 4, MPI_INT, right, UTAG, comm);
            }
        }
    /* One user message is in flight (sent mid-way): the first receive may
     * have matched it, but nothing else may have. */
    int done[2] = {0, 0};
    MPI_Status st[2];
    MPI_Test(&rq[0], &done[0], &st[0]);
    MPI_Test(&rq[1], &done[1], &st[1]);
    if (done[1])
        mt_fail(&c, "a second message matched a user MPI_ANY_SOURCE/MPI_ANY_TAG receive: "
                    "library traffic leaked onto the user's communicator");
    /* now satisfy them (once every rank has looked): the mid-way message
     * is one; send the other */
    MPI_Barrier(comm);
    int msg2[4] = {rank, 7, 43, rank * 3};
    MPI_Send(msg2, 4, MPI_INT, right, 7, comm);
    for (int i = 0; i < 2; i++)
        if (!done[i])
            MPI_Wait(&rq[i], &st[i]);
    int seen_utag = 0, seen_7 = 0;
    for (int i = 0; i < 2; i++) {
        if (st[i].MPI_SOURCE != left || got[i][0] != left)
            mt_fail(&c, "user message %d came from %d (payload %d), expected %d", i,
                    st[i].MPI_SOURCE, got[i][0], left);
        if (st[i].MPI_TAG == UTAG && got[i][1] == UTAG && got[i][2] == 42 && got[i][3] == -left)
            seen_utag++;
        else if (st[i].MPI_TAG == 7 && got[i][1] == 7 && got[i][2] == 43 && got[i][3] == left * 3)
            seen_7++;
    }
    if (seen_utag != 1 || seen_7 != 1)
        mt_fail(&c, "user messages lost or corrupted (tag %d: %d, tag 7: %d)", UTAG, seen_utag,
                seen_7);

    /* a message sent before any IC_ call on a fresh communicator (the call
     * that creates the context), received after */
    MPI_Comm fresh;
    test_dup(mt_world, &fresh);
    int m[2] = {rank, 99}, r[2] = {-1, -1};
    MPI_Request sr;
    MPI_Isend(m, 2, MPI_INT, right, UTAG, fresh, &sr);
    int one = 1, sum = 0;
    if (IC_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, fresh) != MPI_SUCCESS || sum != p)
        mt_fail(&c, "IC_Allreduce on a fresh communicator with a message in flight: sum %d", sum);
    MPI_Recv(r, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, fresh, MPI_STATUS_IGNORE);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    if (r[0] != left || r[1] != 99)
        mt_fail(&c, "the in-flight user message arrived as {%d, %d}", r[0], r[1]);
    MPI_Comm_free(&fresh);
    MPI_Comm_free(&comm);
}

/* ------------------------------------------------------------ lifecycle */

static void lifecycle(void)
{
    mt_case_t c = {
        "lifecycle", "auto", mt_world, "world", -1,
        0,           NULL,   NULL,     0,       "communicators created, used and freed in a loop"};
    mt_begin(&c);
    const char *v = getenv("IC_TEST_COMMS_LOOP");
    int loops = v ? atoi(v) : 100;
    int live0 = nlib;
    for (int i = 0; i < loops; i++) {
        MPI_Comm comm;
        if (i % 3 == 2)
            test_split(mt_world, mt_rank % 2, mt_rank, &comm);
        else
            test_dup(mt_world, &comm);
        int p, x = 1, sum = 0;
        MPI_Comm_size(comm, &p);
        int rc = IC_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, comm);
        if (i % 2)
            rc |= IC_Bcast(&x, 1, MPI_INT, 0, comm);
        if (rc != MPI_SUCCESS || sum != p)
            mt_fail(&c, "iteration %d: IC_Allreduce gave %d (rc %d)", i, sum, rc);
        if (p > 1 && nlib != live0 + 1)
            mt_fail(&c, "iteration %d: %d library communicators alive, expected %d", i, nlib,
                    live0 + 1);
        MPI_Comm_free(&comm);
        if (nlib != live0) {
            mt_fail(&c,
                    "iteration %d: freeing the communicator left %d library "
                    "communicator(s) alive (expected %d)",
                    i, nlib, live0);
            break;
        }
    }
    /* attributes copied by MPI_Comm_dup must not carry the context along */
    MPI_Comm a, b;
    test_dup(mt_world, &a);
    int x = 1, y = 0;
    IC_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, a);
    test_dup(a, &b);
    int live1 = nlib;
    IC_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, b);
    if (mt_size > 1 && nlib != live1 + 1)
        mt_fail(&c, "a duplicate of a communicator with a context shares it");
    MPI_Comm_free(&a);
    if (y != mt_size)
        mt_fail(&c, "IC_Allreduce on the duplicate gave %d", y);
    MPI_Comm_free(&b);
    if (nlib != live0)
        mt_fail(&c, "%d library communicator(s) alive after freeing both, expected %d", nlib,
                live0);
}

/* ------------------------------------------------------------ MPI_BOTTOM */

/* The struct idiom: a datatype of absolute addresses and MPI_BOTTOM as the
 * buffer, broadcast and gathered (into relative struct types). */
static void bottom(MPI_Comm comm, const char *name)
{
    int rank, p;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    mt_case_t c = {
        "bcast+gather+allgatherv", "auto", comm, name, 0, 1, "struct at MPI_BOTTOM", NULL, 0,
        "absolute addresses"};
    mt_begin(&c);
    int a = -1, cc[2] = {-1, -1};
    double b[3] = {-1, -1, -1};
    int bl[3] = {1, 3, 2};
    MPI_Aint disp[3];
    MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_INT}, abs_t, rel_t, rel;
    MPI_Get_address(&a, &disp[0]);
    MPI_Get_address(b, &disp[1]);
    MPI_Get_address(cc, &disp[2]);
    MPI_Type_create_struct(3, bl, disp, ty, &abs_t);
    MPI_Type_commit(&abs_t);
    /* the same signature relative to a record {int; double[3]; int[2]} */
    struct rec {
        int a;
        double b[3];
        int c[2];
    };
    MPI_Aint rd[3] = {offsetof(struct rec, a), offsetof(struct rec, b), offsetof(struct rec, c)};
    MPI_Type_create_struct(3, bl, rd, ty, &rel_t);
    MPI_Type_create_resized(rel_t, 0, sizeof(struct rec), &rel);
    MPI_Type_commit(&rel);
    if (rank == 0) {
        a = 7;
        b[0] = 1.5, b[1] = 2.5, b[2] = -3.25;
        cc[0] = 11, cc[1] = 12;
    }
    int rc = IC_Bcast(MPI_BOTTOM, 1, abs_t, 0, comm);
    if (rc != MPI_SUCCESS || a != 7 || b[0] != 1.5 || b[1] != 2.5 || b[2] != -3.25 || cc[0] != 11 ||
        cc[1] != 12)
        mt_fail(&c, "IC_Bcast(MPI_BOTTOM): rc %d, got {%d, %g %g %g, %d %d}", rc, a, b[0], b[1],
                b[2], cc[0], cc[1]);
    a = 100 + rank;
    cc[1] = -rank;
    struct rec *all = calloc((size_t)p, sizeof(*all));
    rc = IC_Gather(MPI_BOTTOM, 1, abs_t, all, 1, rel, 0, comm);
    for (int q = 0; rank == 0 && all && q < p; q++)
        if (rc != MPI_SUCCESS || all[q].a != 100 + q || all[q].b[2] != -3.25 || all[q].c[0] != 11 ||
            all[q].c[1] != -q) {
            mt_fail(&c, "IC_Gather(MPI_BOTTOM): rc %d, record %d is {%d, .., %g, %d %d}", rc, q,
                    all[q].a, all[q].b[2], all[q].c[0], all[q].c[1]);
            break;
        }
    free(all);
    /* an allgatherv into MPI_BOTTOM: every other int from an absolute
     * address, blocks at displacements around it (negative ones too) in
     * reverse rank order, the gaps and the ends left as they were */
    enum { M = 5 };
    int one = 1, *v = calloc((size_t)(4 * p * M + 2), sizeof(int));
    int *counts = calloc((size_t)p, sizeof(int)), *displs = calloc((size_t)p, sizeof(int));
    if (v && counts && displs) {
        int *mid = v + 2 * p * M, mine[M]; /* element 0 of the type */
        MPI_Aint at;
        MPI_Datatype every2, tv;
        MPI_Get_address(mid, &at);
        MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &every2);
        MPI_Type_create_hindexed(1, &one, &at, every2, &tv);
        MPI_Type_commit(&tv);
        for (int q = 0; q < p; q++) {
            counts[q] = M;
            displs[q] = (p - 1 - q - p / 2) * M;
        }
        for (int i = 0; i < M; i++)
            mine[i] = 1000 * rank + i;
        for (int i = 0; i < 4 * p * M + 2; i++)
            v[i] = -7;
        rc = IC_Allgatherv(mine, M, MPI_INT, MPI_BOTTOM, counts, displs, tv, comm);
        int bad = rc != MPI_SUCCESS ? 0 : -1;
        for (int i = 0; bad < 0 && i < 4 * p * M + 2; i++) {
            long e = (long)(i - 2 * p * M), k = e / 2; /* ints from mid; element k */
            int want = -7;
            for (int q = 0; e % 2 == 0 && q < p; q++)
                if (k >= displs[q] && k < displs[q] + M)
                    want = 1000 * q + (int)(k - displs[q]);
            if (v[i] != want)
                bad = i;
        }
        if (bad >= 0)
            mt_fail(&c, "IC_Allgatherv(MPI_BOTTOM): rc %d, int %d of the buffer is %d", rc,
                    bad - 2 * p * M, rc == MPI_SUCCESS ? v[bad] : 0);
        MPI_Type_free(&tv);
        MPI_Type_free(&every2);
    }
    free(v);
    free(counts);
    free(displs);
    MPI_Type_free(&rel);
    MPI_Type_free(&rel_t);
    MPI_Type_free(&abs_t);
}

/* -------------------------------------------------- special communicators */

static void special(void)
{
    /* predefined communicators: their contexts live until MPI_Finalize */
    sweep(MPI_COMM_SELF, "self", 1);
    int x = mt_rank, y = -1;
    mt_case_t c = {"allreduce", "auto", MPI_COMM_WORLD, "MPI_COMM_WORLD",
                   -1,          1,      "MPI_INT",      "MPI_MAX",
                   0,           NULL};
    mt_begin(&c);
    if (IC_Allreduce(&x, &y, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS ||
        y != mt_size - 1)
        mt_fail(&c, "IC_Allreduce on MPI_COMM_WORLD gave %d", y);

    bottom(mt_world, "world");

    /* size 1 by splitting */
    MPI_Comm one;
    test_split(mt_world, mt_rank, 0, &one);
    sweep(one, "split-size-1", 1);
    MPI_Comm_free(&one);

    /* halves, rank order reversed */
    MPI_Comm rev;
    test_split(mt_world, mt_rank % 2, -mt_rank, &rev);
    sweep(rev, "split-halves-reversed", 1);

    /* interleaved calls on two communicators (and a third one that is never
     * freed: MPI_Finalize must release its context) */
    MPI_Comm whole, kept;
    test_split(mt_world, 0, mt_size - mt_rank, &whole);
    test_dup(mt_world, &kept);
    for (int i = 0; i < 3; i++) {
        mt_red_t r = {IC_COLL_ID_ALLREDUCE, &mt_mat, mt_op_matmul, 5 + i, MT_EVEN, 0, i % 2, 0};
        mt_run_red(rev, "split-halves-reversed", &r, mt_nalgs(IC_COLL_ID_ALLREDUCE) - 1);
        mt_run_red(whole, "world-reversed", &r, mt_nalgs(IC_COLL_ID_ALLREDUCE) - 1);
        mt_run_red(kept, "kept", &r, i % mt_nalgs(IC_COLL_ID_ALLREDUCE));
        int prev;
        MPI_Comm_size(rev, &prev);
        mt_move_t m = {IC_COLL_ID_BCAST, &mt_tpairs[2], 3 + i, MT_EVEN,
                       MT_PACKED,        i % mt_size,   0,     0};
        mt_run_move(whole, "world-reversed", &m, i % mt_nalgs(IC_COLL_ID_BCAST));
        m.root = i % prev;
        mt_run_move(rev, "split-halves-reversed", &m, mt_nalgs(IC_COLL_ID_BCAST) - 1);
    }
    MPI_Comm_free(&whole);
    MPI_Comm_free(&rev);
    /* `kept` stays alive on purpose */
}

int main(int argc, char **argv)
{
    /* keep little scratch between calls: the release path runs too */
    setenv("INTERCOM_SCRATCH_CACHE", "4096", 0);
    test_creating = 1; /* mt_init duplicates MPI_COMM_WORLD */
    int p = mt_init(&argc, &argv, "comms");
    test_creating = 0;
    t_int = mt_type_of(MPI_INT);
    t_double = mt_type_of(MPI_DOUBLE);
    if (p > 1)
        isolation();
    lifecycle();
    special();
    int rc = mt_finalize();
    /* after MPI_Finalize: an error code, no crash, no MPI call */
    int x = 0;
    if (IC_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD) == MPI_SUCCESS) {
        printf("FAIL comms: rank %d: IC_Bcast after MPI_Finalize returned MPI_SUCCESS\n", mt_rank);
        rc = 1;
    }
    if (finalize_leaks != 0 || overflow) {
        printf("FAIL comms: rank %d: %d communicator(s) created by InterCom still alive after "
               "MPI_Finalize (created %d, freed %d)\n",
               mt_rank, finalize_leaks, lib_created, lib_freed);
        rc = 1;
    }
    return rc;
}
