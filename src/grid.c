/*
 * grid.c -- two-dimensional process grids (IC_Grid), as ScaLAPACK's BLACS
 * lay them out.
 *
 * A grid of rows x cols over a communicator of rows * cols ranks puts rank
 * r at (r / cols, r % cols) (row-major) and holds two communicators made by
 * MPI_Comm_split: the row communicator of (i, j), the ranks of row i in
 * column order (its rank is j), and the column communicator, the ranks of
 * column j in row order (its rank is i).  They are ordinary communicators:
 * every IC_ collective (and every MPI call) works on them, each getting its
 * own InterCom context on first use, released when the grid frees them.
 *
 * The grid keeps no reference to the communicator it was made from (the
 * user may free that one first).  Both communicators get its error handler
 * at creation: MPI_Comm_split should pass it on, but SimGrid's SMPI (3.32)
 * gives the communicators it makes MPI_ERRORS_ARE_FATAL, so the grid sets
 * comm's handler on them itself (the same handler again elsewhere, which
 * changes nothing).  The grid's own errors -- a NULL output pointer of an
 * accessor -- go through the row communicator's handler, and errors with
 * no grid to speak of (a NULL grid) through MPI_COMM_WORLD's, as
 * ic_error() does for MPI_COMM_NULL.
 *
 * Argument checks come before any communication: rows and cols must be the
 * same on every rank (as MPI_Cart_create's dims), so a bad shape is seen by
 * every rank, which returns at once; nothing is allocated and *grid is set
 * to NULL wherever grid is a valid pointer.
 */
#include "config.h"
#include "ic_internal.h"

#include <stdlib.h>

struct ic_grid {
    MPI_Comm row, col; /* row communicator (rank mycol), column (rank myrow) */
    int rows, cols;
    int myrow, mycol;
};

int IC_Grid_create(MPI_Comm comm, int rows, int cols, IC_Grid *grid)
{
    static const char fn[] = "IC_Grid_create";
    if (grid)
        *grid = NULL;
    int rc = ic_check_init(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = ic_check_comm(fn, comm)) != MPI_SUCCESS)
        return rc;
    int rank, size;
    if ((rc = MPI_Comm_rank(comm, &rank)) != MPI_SUCCESS ||
        (rc = MPI_Comm_size(comm, &size)) != MPI_SUCCESS)
        return rc; /* raised by MPI on comm */
    if (grid == NULL)
        return ic_error(comm, MPI_ERR_ARG, "%s: grid is NULL", fn);
    if (rows <= 0 || cols <= 0)
        return ic_error(comm, MPI_ERR_ARG, "%s: rows (%d) and cols (%d) must be positive", fn, rows,
                        cols);
    if ((long long)rows * cols != size)
        return ic_error(comm, MPI_ERR_ARG,
                        "%s: rows * cols (%d x %d) is not the communicator's size %d", fn, rows,
                        cols, size);

    struct ic_grid g = {MPI_COMM_NULL, MPI_COMM_NULL, rows, cols, rank / cols, rank % cols};
    struct ic_grid *out = NULL;
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    /* Collective from here on.  A failing MPI call has already raised its
     * error on comm (the new communicators inherit comm's handler); the
     * handle it leaves is not a communicator to free. */
    rc = MPI_Comm_split(comm, g.myrow, g.mycol, &g.row);
    if (rc != MPI_SUCCESS) {
        g.row = MPI_COMM_NULL;
        goto done;
    }
    rc = MPI_Comm_split(comm, g.mycol, g.myrow, &g.col);
    if (rc != MPI_SUCCESS) {
        g.col = MPI_COMM_NULL;
        goto done;
    }
    /* comm's error handler on both (see the top of the file): local calls,
     * whose failure MPI has raised */
    rc = MPI_Comm_get_errhandler(comm, &eh);
    if (rc != MPI_SUCCESS)
        goto done;
    if ((rc = MPI_Comm_set_errhandler(g.row, eh)) == MPI_SUCCESS)
        rc = MPI_Comm_set_errhandler(g.col, eh);
    MPI_Errhandler_free(&eh);
    if (rc != MPI_SUCCESS)
        goto done;
    /* Allocated after the splits: a rank that runs out of memory reports it
     * without leaving the others waiting in a split it never reaches.
     * (MPI_Comm_free is local in practice; the others keep their grids.) */
    out = malloc(sizeof(*out));
    if (out) {
        *out = g; /* the grid owns the communicators now */
        *grid = out;
        g.row = g.col = MPI_COMM_NULL;
    }
done:
    if (g.col != MPI_COMM_NULL)
        MPI_Comm_free(&g.col);
    if (g.row != MPI_COMM_NULL)
        MPI_Comm_free(&g.row);
    if (rc == MPI_SUCCESS && !out)
        rc = ic_error(comm, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    return rc;
}

/* Common prologue of the accessors: MPI state and the grid. */
static int check_grid(const char *fn, IC_Grid grid)
{
    int rc = ic_check_init(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (grid == NULL)
        return ic_error(MPI_COMM_NULL, MPI_ERR_ARG, "%s: grid is NULL", fn);
    return MPI_SUCCESS;
}

int IC_Grid_info(IC_Grid grid, int *rows, int *cols, int *myrow, int *mycol)
{
    static const char fn[] = "IC_Grid_info";
    int rc = check_grid(fn, grid);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!rows || !cols || !myrow || !mycol)
        return ic_error(grid->row, MPI_ERR_ARG, "%s: %s is NULL", fn,
                        !rows    ? "rows"
                        : !cols  ? "cols"
                        : !myrow ? "myrow"
                                 : "mycol");
    *rows = grid->rows;
    *cols = grid->cols;
    *myrow = grid->myrow;
    *mycol = grid->mycol;
    return MPI_SUCCESS;
}

int IC_Grid_row_comm(IC_Grid grid, MPI_Comm *row)
{
    static const char fn[] = "IC_Grid_row_comm";
    int rc = check_grid(fn, grid);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!row)
        return ic_error(grid->row, MPI_ERR_ARG, "%s: row is NULL", fn);
    *row = grid->row;
    return MPI_SUCCESS;
}

int IC_Grid_col_comm(IC_Grid grid, MPI_Comm *col)
{
    static const char fn[] = "IC_Grid_col_comm";
    int rc = check_grid(fn, grid);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!col)
        return ic_error(grid->row, MPI_ERR_ARG, "%s: col is NULL", fn);
    *col = grid->col;
    return MPI_SUCCESS;
}

int IC_Grid_free(IC_Grid *grid)
{
    static const char fn[] = "IC_Grid_free";
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized && grid && *grid) {
        /* The communicators went with MPI: release the memory only. */
        free(*grid);
        *grid = NULL;
    }
    int rc = ic_check_init(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (grid == NULL)
        return ic_error(MPI_COMM_NULL, MPI_ERR_ARG, "%s: grid is NULL", fn);
    if (*grid == NULL)
        return ic_error(MPI_COMM_NULL, MPI_ERR_ARG, "%s: *grid is NULL (not created, or freed)",
                        fn);
    struct ic_grid *g = *grid;
    /* Freeing runs the communicators' attribute callbacks, which release
     * InterCom's contexts on them.  An MPI error has been raised by MPI. */
    int rc_col = MPI_Comm_free(&g->col);
    rc = MPI_Comm_free(&g->row);
    free(g);
    *grid = NULL;
    return rc != MPI_SUCCESS ? rc : rc_col;
}
