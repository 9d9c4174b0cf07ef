/*
 * grid.c -- process grids (IC_Grid_create, _info, _row_comm, _col_comm,
 * _free).
 *
 * For every factorisation rows x cols of p, on a duplicate of
 * MPI_COMM_WORLD and on a communicator whose ranks run the other way (so
 * that a grid placed by world rank instead of the communicator's rank is
 * caught), and 1 x 1 on a copy of MPI_COMM_SELF:
 *   - IC_Grid_info gives the shape and (rank / cols, rank % cols);
 *   - the row communicator has cols ranks, the caller's being its column,
 *     and holds exactly the ranks of its row in column order (an
 *     IC_Allgather of the communicator rank over it), so does the column
 *     communicator in row order; an IC_Allreduce of the world rank over
 *     each equals the sum over that row or column;
 *   - IC_Bcast along each row from column 0 and from the last column, and
 *     along each column from row 0, short and long, deliver the root's
 *     values;
 *   - the communicators are new ones (not comm), with comm's error
 *     handler, and comm is not touched;
 *   - IC_Grid_free sets the grid to NULL and frees both communicators
 *     (their attribute delete callbacks run; no communicator made by
 *     MPI_Comm_split is left: the program counts them through the
 *     profiling interface), and the calls on the NULL grid then fail.
 * Two grids alive at once, and a grid that outlives the communicator it
 * was made from.
 *
 * Bad input, under MPI_ERRORS_RETURN: a shape whose product is not p,
 * zero or negative sides (-1 x -p, whose product is p), sides whose int
 * product wraps to p, a NULL grid pointer, MPI_COMM_NULL (on
 * MPI_COMM_WORLD's handler), an intercommunicator; the accessors with NULL
 * arguments.  Each returns its class (MPI_ERR_ARG, MPI_ERR_COMM for the
 * communicator), sets the grid to NULL, writes no other output and calls
 * MPI_Comm_split not at all (nothing allocated, no communication: one
 * case is made by one rank alone, which would hang otherwise).  With a
 * user error handler, each error invokes it exactly once, on the right
 * communicator, with that class.  After MPI_Finalize, IC_Grid_free returns
 * MPI_ERR_OTHER and sets the grid to NULL without crashing.
 */
#include <mpi.h>
#include "intercom.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 64
#define NSHORT 7
#define NLONG 40000 /* doubles: 320 KB, the long-message algorithms */

#define SIMPLE_TEST "grid"
#include "simple.h"

static int cls(int rc)
{
    int c = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &c);
    return c;
}

/* ---------------------------------------------- counting MPI_Comm_split
 * The library's calls of MPI_Comm_split and MPI_Comm_free come here
 * through the profiling interface: nsplits counts the splits, live holds
 * the communicators they made that are not freed yet. */

static long nsplits;
static MPI_Comm live[4 * MAXP];
static int nlive;

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    int rc = PMPI_Comm_split(comm, color, key, newcomm);
    nsplits++;
    if (rc == MPI_SUCCESS && *newcomm != MPI_COMM_NULL && nlive < 4 * MAXP)
        live[nlive++] = *newcomm;
    return rc;
}

int MPI_Comm_free(MPI_Comm *comm)
{
    MPI_Comm c = *comm;
    for (int i = 0; i < nlive; i++)
        if (live[i] == c) {
            live[i] = live[--nlive];
            break;
        }
    return PMPI_Comm_free(comm);
}

/* ------------------------------------------------ attribute on the comms
 * Its delete callback counts the communicators freed. */

static int keyval = MPI_KEYVAL_INVALID, ndeleted;

static int count_delete(MPI_Comm comm, int kv, void *attr, void *extra)
{
    (void)comm;
    (void)kv;
    (void)attr;
    (void)extra;
    ndeleted++;
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------- user handler */

static int hcalls, hcode;
static MPI_Comm hcomm;

static void handler(MPI_Comm *comm, int *code, ...)
{
    hcalls++;
    hcomm = *comm;
    hcode = *code;
}

/* ------------------------------------------------------------ good grids */

/* Check the communicator c (size n, the caller's rank me) of grid
 * position list `members` (comm ranks in order) against wmap (world rank
 * of each comm rank). */
static void check_line(const char *what, MPI_Comm c, int n, int me, const int *members,
                       const int *wmap)
{
    int size = -1, r = -1;
    if (c == MPI_COMM_NULL) {
        fail("%s communicator is MPI_COMM_NULL", what);
        return;
    }
    MPI_Comm_size(c, &size);
    MPI_Comm_rank(c, &r);
    if (size != n || r != me) {
        fail("%s communicator: size %d rank %d, expected %d and %d", what, size, r, n, me);
        return;
    }
    /* membership and order: the comm rank of each member, in order */
    int got[MAXP], mine = members[me];
    int rc = IC_Allgather(&mine, 1, MPI_INT, got, 1, MPI_INT, c);
    for (int k = 0; k < n; k++)
        if (rc != MPI_SUCCESS || got[k] != members[k]) {
            fail("%s communicator: member %d is comm rank %d, expected %d (rc %d)", what, k,
                 rc ? -1 : got[k], members[k], rc);
            break;
        }
    long long sum = 0, want = 0, w = wmap[mine];
    for (int k = 0; k < n; k++)
        want += wmap[members[k]];
    rc = IC_Allreduce(&w, &sum, 1, MPI_LONG_LONG, MPI_SUM, c);
    if (rc != MPI_SUCCESS || sum != want)
        fail("%s communicator: allreduce of the world ranks %lld, expected %lld (rc %d)", what, sum,
             want, rc);
    /* broadcasts from the first and the last member, short and long */
    static double lbuf[NLONG];
    int sbuf[NSHORT];
    for (int rt = 0; rt < 2; rt++) {
        int root = rt ? n - 1 : 0, rw = wmap[members[root]];
        for (int k = 0; k < NSHORT; k++)
            sbuf[k] = me == root ? 1000 * rw + k + 1 : -1;
        rc = IC_Bcast(sbuf, NSHORT, MPI_INT, root, c);
        for (int k = 0; k < NSHORT; k++)
            if (rc != MPI_SUCCESS || sbuf[k] != 1000 * rw + k + 1) {
                fail("%s bcast from %d: element %d is %d, expected %d (rc %d)", what, root, k,
                     sbuf[k], 1000 * rw + k + 1, rc);
                break;
            }
        for (int k = 0; k < NLONG; k++)
            lbuf[k] = me == root ? rw + 0.5 * k : -1.0;
        rc = IC_Bcast(lbuf, NLONG, MPI_DOUBLE, root, c);
        for (int k = 0; k < NLONG; k++)
            if (rc != MPI_SUCCESS || lbuf[k] != rw + 0.5 * k) {
                fail("%s long bcast from %d: element %d is %g, expected %g (rc %d)", what, root, k,
                     lbuf[k], rw + 0.5 * k, rc);
                break;
            }
    }
}

/* Calls on a freed (NULL) grid fail with MPI_ERR_ARG on MPI_COMM_WORLD's
 * handler (MPI_ERRORS_RETURN while it runs). */
static void check_null_grid(IC_Grid g)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int a = -77, b = -77, c = -77, d = -77;
    MPI_Comm x = MPI_COMM_SELF;
    int rc = IC_Grid_info(g, &a, &b, &c, &d);
    if (cls(rc) != MPI_ERR_ARG || a != -77 || b != -77 || c != -77 || d != -77)
        fail("IC_Grid_info on the freed grid: class %d, outputs %d %d %d %d", cls(rc), a, b, c, d);
    rc = IC_Grid_row_comm(g, &x);
    if (cls(rc) != MPI_ERR_ARG || x != MPI_COMM_SELF)
        fail("IC_Grid_row_comm on the freed grid: class %d", cls(rc));
    rc = IC_Grid_col_comm(g, &x);
    if (cls(rc) != MPI_ERR_ARG || x != MPI_COMM_SELF)
        fail("IC_Grid_col_comm on the freed grid: class %d", cls(rc));
    rc = IC_Grid_free(&g);
    if (cls(rc) != MPI_ERR_ARG)
        fail("IC_Grid_free of the freed grid: class %d", cls(rc));
    rc = IC_Grid_free(NULL);
    if (cls(rc) != MPI_ERR_ARG)
        fail("IC_Grid_free(NULL): class %d", cls(rc));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* One grid rows x cols on comm, checked through and freed. */
static void run_grid(const char *cname, MPI_Comm comm, int rows, int cols)
{
    char name[96];
    snprintf(name, sizeof(name), "%s %d x %d", cname, rows, cols);
    where = name;
    ncases++;
    int n, me;
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &me);
    int wmap[MAXP];
    MPI_Allgather(&wrank, 1, MPI_INT, wmap, 1, MPI_INT, comm);

    long s0 = nsplits;
    int live0 = nlive;
    IC_Grid g = NULL;
    int rc = IC_Grid_create(comm, rows, cols, &g);
    if (rc != MPI_SUCCESS || g == NULL) {
        fail("IC_Grid_create: rc %d, grid %p", rc, (void *)g);
        return;
    }
    if (nsplits - s0 != 2 || nlive - live0 != 2)
        fail("IC_Grid_create: %ld splits, %d new communicators, expected 2 and 2", nsplits - s0,
             nlive - live0);

    int r = -1, c = -1, myrow = -1, mycol = -1;
    rc = IC_Grid_info(g, &r, &c, &myrow, &mycol);
    if (rc != MPI_SUCCESS || r != rows || c != cols || myrow != me / cols || mycol != me % cols)
        fail("IC_Grid_info: rc %d, %d x %d at (%d, %d), expected %d x %d at (%d, %d)", rc, r, c,
             myrow, mycol, rows, cols, me / cols, me % cols);
    myrow = me / cols;
    mycol = me % cols;

    MPI_Comm row = MPI_COMM_NULL, col = MPI_COMM_NULL;
    if ((rc = IC_Grid_row_comm(g, &row)) != MPI_SUCCESS)
        fail("IC_Grid_row_comm: rc %d", rc);
    if ((rc = IC_Grid_col_comm(g, &col)) != MPI_SUCCESS)
        fail("IC_Grid_col_comm: rc %d", rc);
    if (row == comm || col == comm || (row == col && row != MPI_COMM_NULL))
        fail("the row and column communicators are not two new communicators");
    int rowm[MAXP], colm[MAXP];
    for (int j = 0; j < cols; j++)
        rowm[j] = myrow * cols + j;
    for (int i = 0; i < rows; i++)
        colm[i] = i * cols + mycol;
    check_line("row", row, cols, mycol, rowm, wmap);
    check_line("column", col, rows, myrow, colm, wmap);

    /* comm's error handler (MPI_ERRORS_RETURN here), inherited */
    MPI_Comm lines[2] = {row, col};
    for (int k = 0; k < 2 && row != MPI_COMM_NULL && col != MPI_COMM_NULL; k++) {
        MPI_Errhandler eh;
        MPI_Comm_get_errhandler(lines[k], &eh);
        if (eh != MPI_ERRORS_RETURN)
            fail("the %s communicator does not have comm's error handler", k ? "column" : "row");
        MPI_Errhandler_free(&eh);
        MPI_Comm_set_attr(lines[k], keyval, NULL);
    }
    /* the same calls on both at once, then on comm: nothing got mixed up */
    int x = me + 1, srow = 0, scol = 0, sall = 0;
    if (IC_Allreduce(&x, &srow, 1, MPI_INT, MPI_SUM, row) != MPI_SUCCESS ||
        IC_Allreduce(&x, &scol, 1, MPI_INT, MPI_SUM, col) != MPI_SUCCESS ||
        IC_Allreduce(&x, &sall, 1, MPI_INT, MPI_SUM, comm) != MPI_SUCCESS ||
        srow != cols * (myrow * cols + 1) + cols * (cols - 1) / 2 ||
        scol != rows * (mycol + 1) + cols * rows * (rows - 1) / 2 || sall != n * (n + 1) / 2)
        fail("allreduce on row, column and comm: %d %d %d", srow, scol, sall);

    ndeleted = 0;
    rc = IC_Grid_free(&g);
    if (rc != MPI_SUCCESS || g != NULL)
        fail("IC_Grid_free: rc %d, grid %p", rc, (void *)g);
    if (ndeleted != 2)
        fail("IC_Grid_free: %d of the two communicators freed (attribute callbacks)", ndeleted);
    if (nlive != live0)
        fail("IC_Grid_free: %d communicators made by MPI_Comm_split left", nlive - live0);
    check_null_grid(g);
    where = "";
}

/* Two grids alive at once on comm (1 x n and n x 1), used alternately. */
static void run_two(MPI_Comm comm)
{
    where = "two grids at once";
    ncases++;
    int n, me;
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &me);
    IC_Grid a = NULL, b = NULL;
    int rc = IC_Grid_create(comm, 1, n, &a);
    int rc2 = IC_Grid_create(comm, n, 1, &b);
    if (rc != MPI_SUCCESS || rc2 != MPI_SUCCESS) {
        fail("IC_Grid_create: %d %d", rc, rc2);
        return;
    }
    MPI_Comm ra, cb;
    IC_Grid_row_comm(a, &ra); /* everyone */
    IC_Grid_col_comm(b, &cb); /* everyone */
    for (int round = 0; round < 3; round++) {
        int v = me == round % n ? 100 + round : -1, w = me == n - 1 ? 200 + round : -1;
        rc = IC_Bcast(&v, 1, MPI_INT, round % n, ra);
        rc2 = IC_Bcast(&w, 1, MPI_INT, n - 1, cb);
        if (rc != MPI_SUCCESS || rc2 != MPI_SUCCESS || v != 100 + round || w != 200 + round)
            fail("round %d: bcasts gave %d and %d", round, v, w);
    }
    IC_Grid_free(&a);
    int v = me == 0 ? 42 : 0;
    rc = IC_Bcast(&v, 1, MPI_INT, 0, cb);
    if (rc != MPI_SUCCESS || v != 42)
        fail("the second grid after the first was freed: %d", v);
    IC_Grid_free(&b);
    where = "";
}

/* A grid outlives the communicator it was made from. */
static void run_orphan(void)
{
    where = "grid after its communicator was freed";
    ncases++;
    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    IC_Grid g = NULL;
    int rc = IC_Grid_create(d, p, 1, &g);
    MPI_Comm_free(&d);
    MPI_Comm col = MPI_COMM_NULL;
    if (rc != MPI_SUCCESS || IC_Grid_col_comm(g, &col) != MPI_SUCCESS) {
        fail("IC_Grid_create/IC_Grid_col_comm failed");
        return;
    }
    int v = wrank == p - 1 ? 1234 : 0;
    rc = IC_Bcast(&v, 1, MPI_INT, p - 1, col);
    if (rc != MPI_SUCCESS || v != 1234)
        fail("bcast on the column: rc %d, %d", rc, v);
    if (IC_Grid_free(&g) != MPI_SUCCESS || g != NULL)
        fail("IC_Grid_free");
    where = "";
}

/* ------------------------------------------------------------- bad input */

/* A bad IC_Grid_create: class `want`, the grid set to NULL, no split. */
static void bad_create(const char *name, MPI_Comm comm, int rows, int cols, int null_ptr, int want)
{
    where = name;
    ncases++;
    IC_Grid g = (IC_Grid)&ncases; /* not NULL: must be set to NULL */
    long s0 = nsplits;
    int rc = IC_Grid_create(comm, rows, cols, null_ptr ? NULL : &g);
    if (cls(rc) != want)
        fail("class %d, expected %d", cls(rc), want);
    if (!null_ptr && g != NULL)
        fail("the grid was not set to NULL");
    if (nsplits != s0)
        fail("%ld calls of MPI_Comm_split", nsplits - s0);
    where = "";
}

/* Sides whose product is p modulo 2^32 (an int product would wrap to p). */
static void wrapping_sides(int *rows, int *cols)
{
    for (long long k = 1; k < 64; k++) {
        long long target = k * 4294967296LL + p;
        for (long long d = 2; d < 1000000; d++)
            if (target % d == 0 && target / d <= INT_MAX) {
                *rows = (int)d;
                *cols = (int)(target / d);
                return;
            }
    }
    *rows = *cols = 65536; /* wraps to 0 */
}

#ifndef SMPI_H /* (no intercommunicators there: see run_bad) */
static MPI_Comm make_inter(void)
{
    MPI_Comm half, inter = MPI_COMM_NULL;
    int color = wrank % 2;
    MPI_Comm_split(MPI_COMM_WORLD, color, wrank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color ? 0 : 1, 77, &inter);
    MPI_Comm_free(&half);
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    return inter;
}
#endif

static void run_bad(void)
{
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int wr, wc;
    wrapping_sides(&wr, &wc);

    bad_create("(p+1) x 1", comm, p + 1, 1, 0, MPI_ERR_ARG);
    bad_create("1 x (p+1)", comm, 1, p + 1, 0, MPI_ERR_ARG);
    if (p > 1)
        bad_create("1 x (p-1)", comm, 1, p - 1, 0, MPI_ERR_ARG);
    bad_create("0 x p", comm, 0, p, 0, MPI_ERR_ARG);
    bad_create("p x 0", comm, p, 0, 0, MPI_ERR_ARG);
    bad_create("0 x 0", comm, 0, 0, 0, MPI_ERR_ARG);
    bad_create("-1 x -p (product p)", comm, -1, -p, 0, MPI_ERR_ARG);
    bad_create("-p x -1 (product p)", comm, -p, -1, 0, MPI_ERR_ARG);
    bad_create("sides whose int product wraps to p", comm, wr, wc, 0, MPI_ERR_ARG);
    bad_create("INT_MAX x INT_MAX", comm, INT_MAX, INT_MAX, 0, MPI_ERR_ARG);
    bad_create("NULL grid pointer", comm, p, 1, 1, MPI_ERR_ARG);
    /* one rank alone: a check that communicated would hang here */
    if (wrank == p - 1)
        bad_create("0 x p on one rank alone", comm, 0, p, 0, MPI_ERR_ARG);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    bad_create("MPI_COMM_NULL", MPI_COMM_NULL, p, 1, 0, MPI_ERR_COMM);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
#ifdef SMPI_H
    /* SimGrid's SMPI has no intercommunicators (MPI_Intercomm_create aborts) */
    if (p > 1 && wrank == 0)
        printf("NOTE: grid: this MPI (SimGrid SMPI) has no intercommunicators: "
               "the intercommunicator case skipped\n");
#else
    if (p > 1) {
        MPI_Comm inter = make_inter();
        int local;
        MPI_Comm_size(inter, &local);
        bad_create("intercommunicator", inter, local, 1, 0, MPI_ERR_COMM);
        MPI_Comm_free(&inter);
    }
#endif

    /* accessors with NULL outputs on a good grid: MPI_ERR_ARG, and the
     * outputs that were given are not written */
    IC_Grid g = NULL;
    if (IC_Grid_create(comm, 1, p, &g) != MPI_SUCCESS) {
        fail("IC_Grid_create(1 x p) failed");
        MPI_Comm_free(&comm);
        return;
    }
    where = "accessors with NULL outputs";
    for (int k = 0; k < 4; k++) {
        ncases++;
        int o[4] = {-77, -77, -77, -77};
        int *a[4] = {&o[0], &o[1], &o[2], &o[3]};
        a[k] = NULL;
        int rc = IC_Grid_info(g, a[0], a[1], a[2], a[3]);
        for (int i = 0; i < 4; i++)
            if (cls(rc) != MPI_ERR_ARG || o[i] != -77) {
                fail("IC_Grid_info with output %d NULL: class %d, output %d is %d", k, cls(rc), i,
                     o[i]);
                break;
            }
    }
    ncases += 2;
    if (cls(IC_Grid_row_comm(g, NULL)) != MPI_ERR_ARG)
        fail("IC_Grid_row_comm(grid, NULL) did not fail with MPI_ERR_ARG");
    if (cls(IC_Grid_col_comm(g, NULL)) != MPI_ERR_ARG)
        fail("IC_Grid_col_comm(grid, NULL) did not fail with MPI_ERR_ARG");
    /* the grid still works after the errors */
    MPI_Comm row;
    int v = wrank == 0 ? 7 : 0;
    if (IC_Grid_row_comm(g, &row) != MPI_SUCCESS || IC_Bcast(&v, 1, MPI_INT, 0, row) != 0 || v != 7)
        fail("the grid after the errors: bcast gave %d", v);
    IC_Grid_free(&g);
    ncases++;
    check_null_grid(NULL);
    where = "";
    MPI_Comm_free(&comm);
}

/* A user error handler: invoked once per error, on the right communicator,
 * with the class the call returns. */
static void expect_handler(const char *name, int rc, MPI_Comm on, int want)
{
    where = name;
    ncases++;
    if (hcalls != 1 || hcomm != on || cls(hcode) != want || rc != hcode)
        fail("handler called %d time(s), on the %s communicator, class %d, returned %d (class "
             "%d); expected once, class %d",
             hcalls, hcomm == on ? "right" : "wrong", cls(hcode), rc, cls(rc), want);
    hcalls = 0;
    hcomm = MPI_COMM_NULL;
    hcode = MPI_SUCCESS;
    where = "";
}

static void run_handlers(void)
{
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(handler, &eh);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, eh);
    IC_Grid g = NULL;
    hcalls = 0;
    int rc = IC_Grid_create(comm, p + 1, 1, &g);
    expect_handler("handler: (p+1) x 1", rc, comm, MPI_ERR_ARG);
    rc = IC_Grid_create(comm, -1, -p, &g);
    expect_handler("handler: -1 x -p", rc, comm, MPI_ERR_ARG);
    rc = IC_Grid_create(comm, p, 1, NULL);
    expect_handler("handler: NULL grid pointer", rc, comm, MPI_ERR_ARG);

    where = "handler: a good grid";
    ncases++;
    rc = IC_Grid_create(comm, p, 1, &g);
    MPI_Comm row = MPI_COMM_NULL, col = MPI_COMM_NULL;
    if (rc != MPI_SUCCESS || IC_Grid_row_comm(g, &row) != MPI_SUCCESS ||
        IC_Grid_col_comm(g, &col) != MPI_SUCCESS || hcalls != 0) {
        fail("IC_Grid_create and accessors: rc %d, handler called %d time(s)", rc, hcalls);
        MPI_Comm_free(&comm);
        MPI_Errhandler_free(&eh);
        return;
    }
    int a = 0, b = 0, c = 0;
    rc = IC_Grid_info(g, &a, &b, &c, NULL);
    expect_handler("handler: IC_Grid_info(mycol NULL)", rc, row, MPI_ERR_ARG);
    rc = IC_Grid_row_comm(g, NULL);
    expect_handler("handler: IC_Grid_row_comm(NULL)", rc, row, MPI_ERR_ARG);
    rc = IC_Grid_col_comm(g, NULL);
    expect_handler("handler: IC_Grid_col_comm(NULL)", rc, row, MPI_ERR_ARG);
    /* the column communicator has the handler too (inherited) */
    rc = IC_Bcast(&a, -1, MPI_INT, 0, col);
    expect_handler("handler: IC_Bcast(count -1) on the column", rc, col, MPI_ERR_COUNT);
    rc = IC_Grid_free(&g);
    if (rc != MPI_SUCCESS || hcalls != 0)
        fail("IC_Grid_free: rc %d, handler called %d time(s)", rc, hcalls);

    /* without a communicator: MPI_COMM_WORLD's handler */
    MPI_Errhandler old;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &old);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    hcalls = 0;
    rc = IC_Grid_create(MPI_COMM_NULL, p, 1, &g);
    expect_handler("handler: MPI_COMM_NULL", rc, MPI_COMM_WORLD, MPI_ERR_COMM);
    rc = IC_Grid_info(NULL, &a, &b, &c, &c);
    expect_handler("handler: IC_Grid_info(NULL grid)", rc, MPI_COMM_WORLD, MPI_ERR_ARG);
    rc = IC_Grid_row_comm(NULL, &row);
    expect_handler("handler: IC_Grid_row_comm(NULL grid)", rc, MPI_COMM_WORLD, MPI_ERR_ARG);
    rc = IC_Grid_free(&g);
    expect_handler("handler: IC_Grid_free(&NULL)", rc, MPI_COMM_WORLD, MPI_ERR_ARG);
    rc = IC_Grid_free(NULL);
    expect_handler("handler: IC_Grid_free(NULL)", rc, MPI_COMM_WORLD, MPI_ERR_ARG);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, old);
    MPI_Errhandler_free(&old);

    MPI_Comm_free(&comm);
    MPI_Errhandler_free(&eh);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (p > MAXP) {
        if (wrank == 0)
            fprintf(stderr, "grid: at most %d ranks\n", MAXP);
        MPI_Finalize();
        return 1;
    }
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &keyval, NULL);

    MPI_Comm world, reversed, self;
    MPI_Comm_dup(MPI_COMM_WORLD, &world);
    MPI_Comm_split(MPI_COMM_WORLD, 0, p - 1 - wrank, &reversed);
    MPI_Comm_dup(MPI_COMM_SELF, &self);
    MPI_Comm cs[3] = {world, reversed, self};
    const char *names[3] = {"world", "reversed", "self"};
    for (int k = 0; k < 3; k++) {
        MPI_Comm_set_errhandler(cs[k], MPI_ERRORS_RETURN);
        int n;
        MPI_Comm_size(cs[k], &n);
        for (int rows = 1; rows <= n; rows++)
            if (n % rows == 0)
                run_grid(names[k], cs[k], rows, n / rows);
        /* comm itself is untouched and usable */
        MPI_Errhandler eh;
        MPI_Comm_get_errhandler(cs[k], &eh);
        int x = 1, s = 0;
        if (eh != MPI_ERRORS_RETURN || IC_Allreduce(&x, &s, 1, MPI_INT, MPI_SUM, cs[k]) != 0 ||
            s != n)
            fail("%s after its grids: error handler changed or allreduce gave %d", names[k], s);
        MPI_Errhandler_free(&eh);
    }
    run_two(world);
    run_orphan();
    run_bad();
    run_handlers();

    /* A grid left for after MPI_Finalize. */
    IC_Grid late = NULL;
    if (IC_Grid_create(self, 1, 1, &late) != MPI_SUCCESS || late == NULL)
        fail("IC_Grid_create(MPI_COMM_SELF copy, 1 x 1)");
    MPI_Comm_free(&self);
    MPI_Comm_free(&reversed);
    MPI_Comm_free(&world);
    MPI_Comm_free_keyval(&keyval);

    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();

    /* After MPI_Finalize: no crash, MPI_ERR_OTHER, the grid set to NULL
     * (InterCom says on stderr that the call came after MPI_Finalize). */
    int rc = IC_Grid_free(&late);
    if (rc != MPI_ERR_OTHER || late != NULL) {
        fprintf(stderr, "FAIL grid: p=%d rank %d: IC_Grid_free after MPI_Finalize: rc %d\n", p,
                wrank, rc);
        total++;
    }
    if (wrank == 0)
        printf("%s: grid p=%d: %d cases, %d failure(s)\n", total ? "FAIL" : "PASS", p, ncases + 1,
               total);
    return total ? 1 : 0;
}
