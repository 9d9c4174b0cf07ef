/*
 * table.h -- tuning tables: measured plan choices, as an editable text
 * file, that take precedence over the cost model where they have a rule.
 *
 * The format (version 1) is specified in README.md, "Tuning tables"; in
 * short:
 *
 *   # comments run from '#' to the end of the line
 *   intercom-tuning 1                       first line that is not blank
 *   alpha: 2.1e-05                          header: key: value ...
 *   made-by: intercom-tune --ops bcast
 *   bcast  2-*  any  0-8K     any  mst       rules: COLL RANKS RPN BYTES
 *   bcast  64   8    8K-*     any  8x8:d1=scatter_collect,d0=mst   OP PLAN
 *
 * A lookup takes the first rule in file order that matches the call and
 * whose plan can serve it (ic_plan_usable); none: the model decides.
 * First match, not best match, so that a person editing a table can tell
 * which rule decides by reading from the top, and move a rule up to make
 * it win.
 *
 * A table never breaks a job: every problem is one message
 * "NAME:LINE: what is wrong" to the diagnostic callback, the line is
 * skipped and the rest of the file is used.  Only a file that is not a
 * table of a version this code reads (no "intercom-tuning N" line first,
 * or N > IC_TABLE_VERSION) is refused as a whole (one message, NULL).
 *
 * No MPI: the parser, the lookup and the writer are in libiccore, meant
 * for the runtime's selector (src/select.c) and used by the tools
 * (intercom-info --check, table).
 * A table is read-only once built, so lookups may run concurrently.
 */
#ifndef IC_TABLE_H
#define IC_TABLE_H

#include "algorithms.h"
#include "cost.h"
#include "plan.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IC_TABLE_VERSION 1
/* Defensive bounds (README.md, "Tuning tables"): the text of a line
 * before its comment, the rules and header entries kept, a file's size. */
#define IC_TABLE_LINE_MAX 4096
#define IC_TABLE_RULES_MAX 100000
#define IC_TABLE_HEADER_MAX 256
#define IC_TABLE_FILE_MAX ((size_t)16 << 20)
/* The largest explicit RANKS and BYTES values; "*" is the open end. */
#define IC_TABLE_RANKS_LIMIT (1 << 30)
#define IC_TABLE_BYTES_LIMIT ((uint64_t)1 << 60)
#define IC_TABLE_OPEN UINT64_MAX /* bytes_hi of "N-*" */

typedef struct ic_table ic_table_t;

/* Receives each problem once, as "NAME:LINE: what is wrong" (no newline;
 * "NAME: what is wrong" for a file that cannot be read). */
typedef void (*ic_table_diag_fn)(void *ctx, const char *msg);

typedef enum ic_table_op {
    IC_TABLE_OP_ANY = 0,
    IC_TABLE_OP_COMMUTATIVE,
    IC_TABLE_OP_NONCOMMUTATIVE
} ic_table_op_t;

/* One rule: a call of collective coll on ranks_lo..ranks_hi ranks,
 * ranks_per_node of them per node (0: any), of bytes_lo..bytes_hi bytes
 * (IC_TABLE_OPEN: no upper bound), with an op of kind op (reductions
 * only; the others have IC_TABLE_OP_ANY) runs plan.  Bounds are
 * inclusive.  line: where it stands in its file (rules added with
 * ic_table_add_rule get numbers past the file's last line, in order). */
typedef struct ic_table_rule {
    ic_coll_t coll;
    int ranks_lo, ranks_hi; /* ranks_hi INT_MAX: "*" */
    int ranks_per_node;     /* 0: any */
    uint64_t bytes_lo, bytes_hi;
    ic_table_op_t op;
    ic_plan_t plan; /* parameters as written (as INTERCOM_<OP>_ALGORITHM) */
    int line;
} ic_table_rule_t;

/* The header's model terms and machine, parsed from its entries: NaN
 * (numbers) or 0 (counts) or NULL (text) when absent or unreadable. */
typedef struct ic_table_header {
    double alpha, beta, gamma, overhead, beta_x; /* s, s/B */
    double x_min;                                /* bytes */
    double node_alpha, node_beta; /* within a node, of a table measured across nodes */
    int nodes, ranks_per_node;
    int links; /* the links a rank's sends share (cost.h); 0: not measured */
    const char *made_by, *date, *mpi, *machine;
} ic_table_header_t;

/* Parse len bytes of text (any bytes; NUL-terminated or not) as the table
 * called `name` in messages.  Returns the table (possibly without rules),
 * or NULL when the text is refused as a whole or memory runs out (one
 * message either way).  diag may be NULL. */
ic_table_t *ic_table_parse(const char *text, size_t len, const char *name, ic_table_diag_fn diag,
                           void *ctx);

/* Read the file at path (at most IC_TABLE_FILE_MAX bytes) into *text
 * (malloc'd, NUL-terminated; *len without the NUL).  0, or -1 after one
 * message "PATH: cannot read: ..." or "PATH: larger than ...". */
int ic_table_read_file(const char *path, char **text, size_t *len, ic_table_diag_fn diag,
                       void *ctx);

/* ic_table_read_file and ic_table_parse: NULL when the file cannot be read
 * or is refused. */
ic_table_t *ic_table_load(const char *path, ic_table_diag_fn diag, void *ctx);

/* An empty table of version IC_TABLE_VERSION (for the autotuner); NULL
 * when out of memory. */
ic_table_t *ic_table_new(const char *name);

void ic_table_free(ic_table_t *t);

/*
 * The first rule of t that decides the call a: the same collective,
 * a->size within its ranks, ranks_per_node equal to its RPN (or RPN any),
 * bytes within its BYTES, for reductions a->commutative agreeing with its
 * OP, and a plan that can serve a (ic_plan_usable: a mesh of a->size
 * ranks, order-keeping for a non-commutative op, ...).  Its plan goes to
 * *plan, parameters as written; returns its line (> 0), or 0 when no rule
 * decides (the model does).
 *
 *   bytes          the call's whole message, as the selector counts it:
 *                  every rank's blocks together (all elements of the
 *                  vector, or the sum of a->counts) times the bytes of
 *                  an element; 0 for the barrier
 *   ranks_per_node the communicator's ranks on each of its nodes when
 *                  every node holds the same number (a->size on one
 *                  node); 0 when unknown or uneven: only RPN "any" rules
 *                  match
 */
int ic_table_lookup(const ic_table_t *t, const ic_coll_args_t *a, size_t bytes, int ranks_per_node,
                    ic_plan_t *plan);

/* Append rule r (its line is ignored) after the same checks the parser
 * makes.  0, or -1 with *why (if not NULL) saying what is wrong. */
int ic_table_add_rule(ic_table_t *t, const ic_table_rule_t *r, const char **why);

/* Set header entry key to value (replacing an entry of that key, else
 * appended).  Keys are letters, digits, '-', '_' and '.'; values are one
 * line of printable text without '#' (a comment would cut them); the
 * known numeric keys must hold a number >= 0 (alpha, x-min, ...) or a
 * positive integer (nodes, ranks-per-node).  0, or -1 with *why. */
int ic_table_set(ic_table_t *t, const char *key, const char *value, const char **why);

/* Write t in canonical form: the version line, the header entries in
 * their order, then the rules in their order, one per line with aligned
 * columns.  Comments and skipped lines are not kept.  0, or -1 on a write
 * error. */
int ic_table_write(const ic_table_t *t, FILE *f);

/* The canonical text of rule r, "COLL RANKS RPN BYTES OP PLAN" with one
 * blank between the fields (the writer aligns them), into buf (at most
 * len bytes, NUL included); returns the length it needs (as snprintf). */
int ic_table_format_rule(const ic_table_rule_t *r, char *buf, size_t len);

/* The file the library takes its table from when the program loads none
 * (IC_Tuning_load): the one INTERCOM_TUNING_FILE names ("none" or empty:
 * no table), else the installed default ic_tuning_default_path() when it
 * exists; NULL: no table.  The path goes to buf (len bytes).  One rule
 * for the library (src/tuning.c) and intercom-info. */
const char *ic_tuning_path(char *buf, size_t len);
/* $(pkgdatadir)/tuning.tbl of the installation. */
const char *ic_tuning_default_path(void);

/* Accessors. */
const char *ic_table_name(const ic_table_t *t);
size_t ic_table_rule_count(const ic_table_t *t);
const ic_table_rule_t *ic_table_rule(const ic_table_t *t, size_t i);
const ic_table_header_t *ic_table_header(const ic_table_t *t);

/* The model a table measured (README.md, "The table's model"), one rule
 * for the library and the tools.  Returns the level its figures describe
 * (0: links across nodes, 1: within a node, from its `nodes`), or -1 when
 * its header has neither alpha nor beta (c untouched).  Otherwise c, the
 * caller's parameters of that level, takes the header's alpha, beta and
 * gamma, and its overhead, beta-x and x-min or else what ic_cost_derive
 * gives for the new alpha and beta; a term whose bit is set in `keep`
 * (IC_KEEP_*: the user set it) stays as it is. */
enum {
    IC_KEEP_ALPHA = 1,
    IC_KEEP_BETA = 2,
    IC_KEEP_GAMMA = 4,
    IC_KEEP_OVERHEAD = 8,
    IC_KEEP_BETA_X = 16,
    IC_KEEP_X_MIN = 32
};
int ic_table_level(const ic_table_t *t);
/* Measured figures of one level into c, the caller's parameters of that
 * level, by the rule above: each of alpha, beta, gamma that is not NaN
 * replaces c's (unless kept), and overhead, beta_x and x_min are the
 * figures given or else what ic_cost_derive gives for the new alpha and
 * beta.  The tables use it, and the runtime's own measurement of the
 * links across nodes (src/calibrate.c). */
void ic_cost_take(ic_cost_params_t *c, unsigned keep, int level, double alpha, double beta,
                  double gamma, double overhead, double beta_x, double x_min);
void ic_table_model(const ic_table_t *t, unsigned keep, ic_cost_params_t *c);
/* The figures within a node of a table measured across nodes with several
 * ranks per node (its node-alpha, node-beta; gamma as the table's): 0 and
 * c (the caller's parameters within a node) takes them, their other terms
 * derived for a node; -1 (c untouched) when the table has neither or is
 * not of level 0.  keep as above. */
int ic_table_node_model(const ic_table_t *t, unsigned keep, ic_cost_params_t *c);
size_t ic_table_header_count(const ic_table_t *t);
/* Entry i of the header in file order: 0, or -1 when i is out of range. */
int ic_table_header_entry(const ic_table_t *t, size_t i, const char **key, const char **value);
/* The value of key, NULL when absent. */
const char *ic_table_get(const ic_table_t *t, const char *key);
/* A hash of the text the table was parsed from (never 0; 0 for NULL or a
 * table built in memory): ranks compare it to know they read the same. */
unsigned long ic_table_hash(const ic_table_t *t);
/* Problems reported while parsing, and lines skipped for them. */
size_t ic_table_problems(const ic_table_t *t);
size_t ic_table_skipped(const ic_table_t *t);

#ifdef __cplusplus
}
#endif
#endif /* IC_TABLE_H */
