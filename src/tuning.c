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
 * context's set-up; ic_table_hash) and consults the table only when all agree; otherwise
 * the model decides for that communicator, with one warning.
 *
 * A table made by intercom-tune also says what it measured (alpha, beta,
 * gamma in its header): where the table has no rule, and to set a plan's
 * segment sizes, the model then runs on those figures
 * (ic_tuning_params) instead of the built-in guesses.
 */
#include "config.h"
#include <pthread.h>
#include "ic_internal.h"
#include "table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ic_table_t *table;      /* the table in use, NULL: none */
static ic_cost_params_t tuned; /* its measured model ... */
static int tuned_level = -1;   /* ... of this level (0: across nodes, 1: within one), -1: none */
static ic_cost_params_t tuned_node; /* a table of level 0: its figures within a node ... */
static int tuned_node_ok;           /* ... when it measured them */
static char table_path[1024];
static int table_loaded;         /* by IC_Tuning_load */
static _Atomic int table_looked; /* the environment and the default were read */
static int disagree_warned;

static void report(void *ctx, const char *msg)
{
    (void)ctx;
    if (ic_world_rank() == 0)
        fprintf(stderr, "InterCom: warning: %s\n", msg);
}

static int env_set(const char *name)
{
    const char *v = getenv(name);
    return v && *v;
}

unsigned ic_env_keep(void)
{
    static const struct {
        const char *var;
        unsigned bit;
    } vars[] = {
        {"INTERCOM_ALPHA", IC_KEEP_ALPHA},          {"INTERCOM_BETA", IC_KEEP_BETA},
        {"INTERCOM_GAMMA", IC_KEEP_GAMMA},          {"INTERCOM_OVERHEAD", IC_KEEP_OVERHEAD},
        {"INTERCOM_BETA_EXCHANGE", IC_KEEP_BETA_X}, {"INTERCOM_EXCHANGE_MIN", IC_KEEP_X_MIN}};
    unsigned keep = 0;
    for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
        if (env_set(vars[i].var))
            keep |= vars[i].bit;
    return keep;
}

/* The measured model of table t (ic_tuning_params; table.h:
 * ic_table_model): into tuned, its level into tuned_level (-1 when t
 * measured neither alpha nor beta); a table measured across nodes may
 * also give the figures within a node (ic_table_node_model: tuned_node).
 * INTERCOM_ variables keep their terms. */
static void take_params(const ic_table_t *t)
{
    unsigned keep = ic_env_keep();
    tuned_level = ic_table_level(t);
    tuned_node_ok = 0;
    if (tuned_level < 0)
        return;
    const ic_env_t *e = ic_env();
    tuned = tuned_level ? e->cost_node : e->cost;
    ic_table_model(t, keep, &tuned);
    tuned_node = e->cost_node;
    tuned_node_ok = ic_table_node_model(t, keep, &tuned_node) == 0;
}

const ic_cost_params_t *ic_tuning_params(const ic_cost_params_t *base)
{
    const ic_env_t *e = ic_env();
    if (!ic_tuning_table() || tuned_level < 0)
        return base;
    if (tuned_node_ok && base == &e->cost_node)
        return &tuned_node;
    return base == (tuned_level ? &e->cost_node : &e->cost) ? &tuned : base;
}

/* Read and parse path into the table in use; 0, or -1 (reported). */
static int load(const char *path)
{
    ic_table_t *t = ic_table_load(path, report, NULL);
    if (!t)
        return -1;
    ic_table_free(table);
    table = t;
    take_params(t);
    snprintf(table_path, sizeof(table_path), "%s", path);
    return 0;
}

static void drop(void)
{
    ic_table_free(table);
    table = NULL;
    tuned_level = -1;
    table_path[0] = 0;
}

static pthread_mutex_t table_mu = PTHREAD_MUTEX_INITIALIZER; /* the first look */

const ic_table_t *ic_tuning_table(void)
{
    if (!table_loaded && !table_looked) {
        pthread_mutex_lock(&table_mu);
        if (!table_loaded && !table_looked) {
            char buf[1024];
            const char *path = ic_tuning_path(buf, sizeof(buf));
            if (path)
                load(path);
            table_looked = 1;
        }
        pthread_mutex_unlock(&table_mu);
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
    unsigned long mine = ic_table_hash(table), h[2] = {mine, ~mine};
    if (PMPI_Allreduce(MPI_IN_PLACE, h, 2, MPI_UNSIGNED_LONG, MPI_MAX, comm) != MPI_SUCCESS)
        return 0;
    int same = h[0] == mine && h[1] == ~mine;
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
