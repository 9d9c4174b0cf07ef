/*
 * tuning.c -- the tuning table the selector consults (README, "Tuning
 * tables"; the format and its parser: tuning/table.c).
 *
 * Which table, in order:
 *   1. the one IC_Tuning_load() loaded last (NULL: back to 2 and 3);
 *   2. the file INTERCOM_TUNING_FILE names ("none": no table at all);
 *   3. the installed default, ic_tuning_default_path(), when it exists.
 * 2 and 3 are read once per process, on the first collective that needs a
 * decision.  Every problem in the file is reported once, on world rank 0,
 * as "InterCom: warning: FILE:LINE: what is wrong"; the rest of the table
 * is used and the model decides where no rule does.
 *
 * The ranks of a communicator must decide alike, so they must see the
 * same table: a context compares a hash of the table's text across its
 * ranks when it is made (ic_tuning_agree, collective, with the rest of the
 * context's set-up) and consults the table only when all agree; otherwise
 * the model decides for that communicator, with one warning.
 */
#include "config.h"
#include "ic_internal.h"
#include "table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ic_table_t *table;        /* the table in use, NULL: none */
static unsigned long table_hash; /* of its text; 0 without a table */
static char table_path[1024];
static int table_loaded; /* by IC_Tuning_load */
static int table_looked; /* the environment and the default were read */
static int disagree_warned;

static void report(void *ctx, const char *msg)
{
    (void)ctx;
    if (ic_world_rank() == 0)
        fprintf(stderr, "InterCom: warning: %s\n", msg);
}

static unsigned long hash_text(const char *text, size_t len)
{
    unsigned long h = 1469598103UL;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)text[i]) * 1099511628211UL;
    return h ? h : 1;
}

/* Read and parse path into the table in use; 0, or -1 (reported). */
static int load(const char *path)
{
    char *text = NULL;
    size_t len = 0;
    if (ic_table_read_file(path, &text, &len, report, NULL) != 0)
        return -1;
    ic_table_t *t = ic_table_parse(text, len, path, report, NULL);
    unsigned long h = hash_text(text, len);
    free(text);
    if (!t)
        return -1;
    ic_table_free(table);
    table = t;
    table_hash = h;
    snprintf(table_path, sizeof(table_path), "%s", path);
    return 0;
}

static void drop(void)
{
    ic_table_free(table);
    table = NULL;
    table_hash = 0;
    table_path[0] = 0;
}

const ic_table_t *ic_tuning_table(void)
{
    if (!table_loaded && !table_looked) {
        table_looked = 1;
        char buf[1024];
        const char *path = ic_tuning_path(buf, sizeof(buf));
        if (path)
            load(path);
    }
    return table;
}

const char *ic_tuning_source(void)
{
    ic_tuning_table();
    return table ? table_path : NULL;
}

int ic_tuning_agree(MPI_Comm comm, int rank)
{
    ic_tuning_table();
    unsigned long h[2] = {table_hash, ~table_hash};
    if (PMPI_Allreduce(MPI_IN_PLACE, h, 2, MPI_UNSIGNED_LONG, MPI_MAX, comm) != MPI_SUCCESS)
        return 0;
    int same = h[0] == table_hash && h[1] == ~table_hash;
    if (!same && !disagree_warned && rank == 0) {
        disagree_warned = 1;
        fprintf(stderr, "InterCom: warning: the ranks of a communicator see different tuning "
                        "tables (INTERCOM_TUNING_FILE, IC_Tuning_load): its collectives are "
                        "chosen by the model\n");
    }
    return same;
}

int IC_Tuning_load(const char *path)
{
    if (!path) {
        drop();
        table_loaded = 0;
        table_looked = 0;
    } else if (load(path) != 0) {
        return MPI_ERR_ARG;
    } else {
        table_loaded = 1;
    }
    ic_ctx_forget_decisions();
    return MPI_SUCCESS;
}
