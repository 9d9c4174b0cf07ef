/*
 * check_table.c -- unit tests of the tuning tables (tuning/table.c): every
 * field form of a valid table; every kind of malformed line giving exactly
 * one NAME:LINE message and losing only its own line; the files refused as
 * a whole; the bounds; lookups (first match, fall-through past a plan that
 * cannot serve the call, gaps left to the model); the writer's round trip
 * (parse, write, parse: the same rules, header and decisions over a grid of
 * calls); tables built in memory; and a deterministic fuzz loop over
 * thousands of mutated tables that must never crash, always report
 * NAME:LINE within the file, keep only rules that round-trip, and only
 * ever answer a lookup with a plan of the call's collective that
 * ic_plan_parse accepts and that can serve the call.  IC_TABLE_FUZZ_ROUNDS
 * and IC_TABLE_FUZZ_SEED run a longer or another loop by hand (it prints
 * what it saw).
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "plan.h"
#include "table.h"

static char ctx[200]; /* the case under test, for failure messages */
/* Check's ck_assert_* record a mark point on every call (slow in loops). */
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ck_abort_msg("%s: %s (line %d)", ctx, #cond, __LINE__);                                \
    } while (0)

/* ------------------------------------------------------------- helpers */

#define DIAG_KEEP 64
typedef struct diags {
    int n;
    char msg[DIAG_KEEP][600];
} diags_t;

static void collect(void *c, const char *m)
{
    diags_t *d = c;
    if (d->n < DIAG_KEEP)
        snprintf(d->msg[d->n], sizeof(d->msg[0]), "%s", m);
    d->n++;
}

static ic_table_t *parse(const char *text, diags_t *d)
{
    memset(d, 0, sizeof(*d));
    return ic_table_parse(text, strlen(text), "t.tbl", collect, d);
}

/* The text ic_table_write gives (malloc'd). */
static char *written(const ic_table_t *t, size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    CHECK(f != NULL);
    CHECK(ic_table_write(t, f) == 0);
    fclose(f);
    if (len)
        *len = n;
    return buf;
}

static int rules_equal(const ic_table_rule_t *x, const ic_table_rule_t *y)
{
    return x->coll == y->coll && x->ranks_lo == y->ranks_lo && x->ranks_hi == y->ranks_hi &&
           x->ranks_per_node == y->ranks_per_node && x->bytes_lo == y->bytes_lo &&
           x->bytes_hi == y->bytes_hi && x->op == y->op && ic_plan_equal(&x->plan, &y->plan);
}

/* A call of coll on p ranks moving `bytes` bytes in all (blocks even,
 * one-byte elements; counts must have room for p). */
static void make_call(ic_coll_args_t *a, ic_coll_t coll, int p, size_t bytes, int commutative,
                      size_t *counts)
{
    memset(a, 0, sizeof(*a));
    a->coll = coll;
    a->size = p;
    a->commutative = ic_coll_reduces(coll) ? commutative : 1;
    switch (coll) {
    case IC_COLL_BCAST:
    case IC_COLL_REDUCE:
    case IC_COLL_ALLREDUCE:
        a->count = bytes;
        break;
    case IC_COLL_BARRIER:
        break;
    default:
        for (int i = 0; i < p; i++)
            counts[i] = bytes / (size_t)p;
        a->counts = counts;
        a->count = bytes / (size_t)p * (size_t)p;
        a->sendcount = a->recvcount = bytes / (size_t)p;
    }
}

/* A table with every field form; no problems.  Rule lines: 19 on. */
static const char *const rich =
    "# InterCom tuning table\n"
    "\n"
    "   # comments anywhere\n"
    "intercom-tuning 1   # the version\n"
    "made-by: intercom-tune --ops all -p 64\n"
    "date: 2024-05-01T12:00:00Z\n"
    "mpi: Open MPI 4.1.4\n"
    "machine:\t2 x Package, 16 cores, 64 PU  \n"
    "nodes: 8\n"
    "ranks-per-node: 8\n"
    "alpha: 2.1e-05\n"
    "beta: 1.05e-08\n"
    "gamma: 9.5e-10\n"
    "overhead: 2.6e-06\n"
    "beta-x: 2.1e-08\n"
    "x-min: 64K\n"
    "tuned-with.version: 0.9 (a key of a later version)\n"
    "empty:\n"
    "bcast      any   any  0-8K     any            mst\n"
    "bcast      2-*   any  8K-1M    any            binary_tree   # middle sizes\n"
    "bcast      64    8    1M-*     any            8x8:d1=scatter_collect,d0=mst\n"
    "bcast\t4-*\tany\t1M-*\tany\tpipeline(65536)\n"
    "reduce     any   any  any      noncommutative mst\n"
    "reduce     2-*   any  0-64K    commutative    mst\n"
    "reduce     2-*   any  64K-*    commutative    dcombine_gather\n"
    "allreduce  4     any  any      any            "
    "2x2:d1=recursive_doubling,d0=recursive_doubling\n"
    "allreduce  any   any  0-4K     any            recursive_doubling\n"
    "allreduce  8-16  4    4K-*     commutative    dcombine_collect\n"
    "allreduce  any   any  4K-*     any            mst\n"
    "allgather  any   any  0-16383  any            bruck\n"
    "allgather  2-*   any  16K-*    any            bucket\n"
    "allgatherv any   any  any      any            bucket\n"
    "reduce_scatter any any any commutative recursive_halving\n"
    "reduce_scatter_block 8 any 1G any 2x4:d1=bucket,d0=bucket\n"
    "scatter    any   any  any      any            mst\n"
    "gather     1-1024 any 0-*      any            mst\n"
    "barrier    any   any  0        any            dissemination\n";
#define RICH_RULES 19

/* ------------------------------------------------------------ the model */

/* The table's model (README, "The table's model"): the header's figures
 * replace the caller's at the level the table measured, the rest derived
 * for that level; a table measured across nodes may give the figures
 * within a node too; terms the user set stay. */
START_TEST(test_model)
{
    diags_t d;
    ic_table_t *t = parse("intercom-tuning 1\n"
                          "nodes: 8\n"
                          "alpha: 2e-05\n"
                          "beta: 1e-08\n"
                          "gamma: 5e-10\n"
                          "x-min: 4K\n"
                          "node-alpha: 4e-07\n"
                          "node-beta: 1e-10\n"
                          "links: 1\n",
                          &d);
    ck_assert_ptr_nonnull(t);
    ck_assert_msg(d.n == 0, "%d problems, first: %s", d.n, d.msg[0]);
    const ic_table_header_t *h = ic_table_header(t);
    ck_assert_double_eq(h->node_alpha, 4e-07);
    ck_assert_double_eq(h->node_beta, 1e-10);
    ck_assert_int_eq(h->links, 1);
    ck_assert_int_eq(ic_table_level(t), 0);

    ic_cost_params_t c, n, want;
    ic_cost_defaults(&c);
    ic_table_model(t, 0, &c);
    ck_assert_double_eq(c.alpha, 2e-05);
    ck_assert_double_eq(c.beta, 1e-08);
    ck_assert_double_eq(c.gamma, 5e-10);
    ck_assert_uint_eq(c.x_min, 4096);
    ck_assert_int_eq(c.links, 1); /* the links measured across nodes ... */
    want = c;
    ic_cost_derive(&want, 0); /* overhead and beta-x as across nodes */
    ck_assert_double_eq(c.overhead, want.overhead);
    ck_assert_double_eq(c.beta_x, want.beta_x);

    ic_cost_defaults_node(&n);
    ck_assert_int_eq(ic_table_node_model(t, 0, &n), 0);
    ck_assert_double_eq(n.alpha, 4e-07);
    ck_assert_double_eq(n.beta, 1e-10);
    ck_assert_double_eq(n.gamma, 5e-10); /* the reduction rate is the table's */
    want = n;
    ic_cost_derive(&want, 1); /* within a node: no overhead, exchanges at full rate */
    ck_assert_double_eq(n.overhead, want.overhead);
    ck_assert_double_eq(n.beta_x, want.beta_x);
    ck_assert_uint_eq(n.x_min, want.x_min);
    ck_assert_int_eq(n.links, 0); /* ... are not a node's */

    /* a term the user set stays, at both levels */
    ic_cost_defaults_node(&n);
    double beta0 = n.beta;
    ck_assert_int_eq(ic_table_node_model(t, IC_KEEP_BETA, &n), 0);
    ck_assert_double_eq(n.beta, beta0);
    ck_assert_double_eq(n.alpha, 4e-07);
    ic_table_free(t);

    /* no node figures, or a table of one node: nothing within a node */
    const char *const none[] = {"intercom-tuning 1\nnodes: 8\nalpha: 2e-05\nbeta: 1e-08\n",
                                "intercom-tuning 1\nnodes: 1\nalpha: 2e-05\nbeta: 1e-08\n"
                                "node-alpha: 4e-07\nnode-beta: 1e-10\n"};
    for (int i = 0; i < 2; i++) {
        t = parse(none[i], &d);
        ck_assert_ptr_nonnull(t);
        ic_cost_defaults_node(&n);
        want = n;
        ck_assert_int_eq(ic_table_node_model(t, 0, &n), -1);
        ck_assert_double_eq(n.alpha, want.alpha);
        ck_assert_double_eq(n.beta, want.beta);
        ic_table_free(t);
    }
}
END_TEST

/* ----------------------------------------------------------- valid forms */

START_TEST(test_valid_forms)
{
    snprintf(ctx, sizeof(ctx), "rich table");
    diags_t d;
    ic_table_t *t = parse(rich, &d);
    ck_assert_ptr_nonnull(t);
    ck_assert_msg(d.n == 0, "%d problems, first: %s", d.n, d.msg[0]);
    ck_assert_uint_eq(ic_table_problems(t), 0);
    ck_assert_uint_eq(ic_table_skipped(t), 0);
    ck_assert_uint_eq(ic_table_rule_count(t), RICH_RULES);
    ck_assert_str_eq(ic_table_name(t), "t.tbl");

    const ic_table_header_t *h = ic_table_header(t);
    ck_assert_double_eq(h->alpha, 2.1e-05);
    ck_assert_double_eq(h->beta, 1.05e-08);
    ck_assert_double_eq(h->gamma, 9.5e-10);
    ck_assert_double_eq(h->overhead, 2.6e-06);
    ck_assert_double_eq(h->beta_x, 2.1e-08);
    ck_assert_double_eq(h->x_min, 65536);
    ck_assert_int_eq(h->nodes, 8);
    ck_assert_int_eq(h->ranks_per_node, 8);
    ck_assert_str_eq(h->made_by, "intercom-tune --ops all -p 64");
    ck_assert_str_eq(h->date, "2024-05-01T12:00:00Z");
    ck_assert_str_eq(h->mpi, "Open MPI 4.1.4");
    ck_assert_str_eq(h->machine, "2 x Package, 16 cores, 64 PU"); /* blanks trimmed */
    ck_assert_uint_eq(ic_table_header_count(t), 14);
    const char *k, *v;
    ck_assert_int_eq(ic_table_header_entry(t, 12, &k, &v), 0);
    ck_assert_str_eq(k, "tuned-with.version");
    ck_assert_str_eq(v, "0.9 (a key of a later version)");
    ck_assert_int_eq(ic_table_header_entry(t, 13, &k, &v), 0);
    ck_assert_str_eq(k, "empty");
    ck_assert_str_eq(v, "");
    ck_assert_int_eq(ic_table_header_entry(t, 14, &k, &v), -1);
    ck_assert_str_eq(ic_table_get(t, "mpi"), "Open MPI 4.1.4");
    ck_assert_ptr_null(ic_table_get(t, "no-such-key"));

    /* the fields, rule by rule */
    const ic_table_rule_t *r = ic_table_rule(t, 0);
    ck_assert_int_eq(r->line, 19);
    ck_assert_int_eq(r->coll, IC_COLL_BCAST);
    ck_assert_int_eq(r->ranks_lo, 1);
    ck_assert_int_eq(r->ranks_hi, INT_MAX);
    ck_assert_int_eq(r->ranks_per_node, 0);
    ck_assert_uint_eq(r->bytes_lo, 0);
    ck_assert_uint_eq(r->bytes_hi, 8192);
    ck_assert_int_eq(r->op, IC_TABLE_OP_ANY);
    ck_assert_int_eq(r->plan.ndims, 0);
    ck_assert_str_eq(r->plan.alg->name, "mst");
    r = ic_table_rule(t, 1);
    ck_assert_int_eq(r->ranks_lo, 2);
    ck_assert_int_eq(r->ranks_hi, INT_MAX);
    ck_assert_uint_eq(r->bytes_lo, 8192);
    ck_assert_uint_eq(r->bytes_hi, 1 << 20);
    r = ic_table_rule(t, 2);
    ck_assert_int_eq(r->ranks_lo, 64);
    ck_assert_int_eq(r->ranks_hi, 64);
    ck_assert_int_eq(r->ranks_per_node, 8);
    ck_assert_uint_eq(r->bytes_hi, IC_TABLE_OPEN);
    ck_assert_int_eq(r->plan.ndims, 2);
    ck_assert_int_eq(ic_plan_ranks(&r->plan), 64);
    r = ic_table_rule(t, 3); /* tabs */
    ck_assert_str_eq(r->plan.alg->name, "pipeline");
    ck_assert_uint_eq(r->plan.param, 65536);
    ck_assert_int_eq(ic_table_rule(t, 4)->op, IC_TABLE_OP_NONCOMMUTATIVE);
    ck_assert_int_eq(ic_table_rule(t, 5)->op, IC_TABLE_OP_COMMUTATIVE);
    ck_assert_uint_eq(ic_table_rule(t, 11)->bytes_hi, 16383);
    r = ic_table_rule(t, 15);
    ck_assert_int_eq(r->coll, IC_COLL_REDUCE_SCATTER_BLOCK);
    ck_assert_uint_eq(r->bytes_lo, (uint64_t)1 << 30);
    ck_assert_uint_eq(r->bytes_hi, (uint64_t)1 << 30);
    r = ic_table_rule(t, 17);
    ck_assert_int_eq(r->ranks_hi, 1024);
    ck_assert_uint_eq(r->bytes_lo, 0);
    ck_assert_uint_eq(r->bytes_hi, IC_TABLE_OPEN);
    ck_assert_ptr_null(ic_table_rule(t, RICH_RULES));
    ic_table_free(t);

    /* CRLF, no newline at the end, a byte order mark, blanks only */
    const char *crlf = "\xef\xbb\xbfintercom-tuning 1\r\n"
                       "alpha: 1e-6\r\n"
                       " \t \r\n"
                       "allreduce 2 any 1G-* commutative mst\r\n"
                       "bcast 3 2 5 any knomial(4)";
    t = parse(crlf, &d);
    ck_assert_ptr_nonnull(t);
    ck_assert_msg(d.n == 0, "%s", d.msg[0]);
    ck_assert_uint_eq(ic_table_rule_count(t), 2);
    ck_assert_double_eq(ic_table_header(t)->alpha, 1e-6);
    ck_assert_uint_eq(ic_table_rule(t, 0)->bytes_lo, (uint64_t)1 << 30);
    ck_assert_int_eq(ic_table_rule(t, 1)->line, 5);
    ck_assert_uint_eq(ic_table_rule(t, 1)->plan.param, 4);
    /* absent header terms */
    ck_assert(isnan(ic_table_header(t)->beta) && isnan(ic_table_header(t)->x_min));
    ck_assert_int_eq(ic_table_header(t)->nodes, 0);
    ck_assert_ptr_null(ic_table_header(t)->made_by);
    ic_table_free(t);

    /* a table of the version line alone, and one with a NUL after its end */
    t = parse("intercom-tuning 1", &d);
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(d.n, 0);
    ck_assert_uint_eq(ic_table_rule_count(t), 0);
    ic_table_free(t);
    memset(&d, 0, sizeof(d));
    t = ic_table_parse("intercom-tuning 1\nbcast any any any any mst\n\0garbage", 44, "t.tbl",
                       collect, &d);
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(d.n, 0);
    ck_assert_uint_eq(ic_table_rule_count(t), 1);
    ic_table_free(t);
}
END_TEST

/* ------------------------------------------------------------ malformed */

static const struct {
    const char *line, *says;
} bad_lines[] = {
    {"bcast any any any", "expected 6 fields, COLL RANKS RPN BYTES OP PLAN, found 4"},
    {"bcast any any any any mst extra", "found 7"},
    {"bcats 4 any 0 any mst", "unknown collective 'bcats'"},
    {"BCAST 4 any 0 any mst", "unknown collective 'BCAST'"},
    {"bcast four any 0 any mst", "ranks 'four': expected N, N-M, N-* or any"},
    {"bcast 4- any 0 any mst", "ranks '4-'"},
    {"bcast -4 any 0 any mst", "ranks '-4'"},
    {"bcast * any 0 any mst", "ranks '*'"},
    {"bcast 0-4 any 0 any mst", "ranks '0-4': a communicator has at least 1 rank"},
    {"bcast 2000000000 any 0 any mst", "more than 1073741824 ranks"},
    {"bcast 99999999999999999999999999-* any 0 any mst", "more than 1073741824 ranks"},
    {"bcast 8-4 any 0 any mst", "ranks range 8-4 is empty"},
    {"bcast 4 some 0 any mst", "ranks per node 'some': expected any or a positive number"},
    {"bcast 4 0 0 any mst", "ranks per node '0'"},
    {"bcast 4 -2 0 any mst", "ranks per node '-2'"},
    {"bcast 4 8 0 any mst", "the rule never applies: RPN is more than its largest RANKS"},
    {"bcast 4 any 8k any mst", "bytes '8k': expected N, N-M, N-* or any"},
    {"bcast 4 any 8KB any mst", "bytes '8KB'"},
    {"bcast 4 any 1.5K any mst", "bytes '1.5K'"},
    {"bcast 4 any 0x10 any mst", "bytes '0x10'"},
    {"bcast 4 any 4096-1024 any mst", "bytes range 4096-1024 is empty"},
    {"bcast 4 any 4K-1K any mst", "bytes range 4K-1K is empty"},
    {"bcast 4 any 2000000000G any mst", "more than 2^60 bytes"},
    {"bcast 4 any 0-18446744073709551616 any mst", "more than 2^60 bytes"},
    {"reduce 4 any 0 both mst", "op 'both': expected any, commutative or noncommutative"},
    {"bcast 4 any 0 commutative mst", "op 'commutative' for bcast: only reductions have an op"},
    {"bcast 4 any 0 any pipelinex", "plan 'pipelinex' for bcast: no such algorithm"},
    {"allreduce 4 any 0 any scatter_collect", "plan 'scatter_collect' for allreduce"},
    {"bcast 4 any 0 any pipeline(0)", "plan 'pipeline(0)' for bcast: expected a positive"},
    {"bcast 4 any 0 any 2x2:d1=mst", "plan '2x2:d1=mst' for bcast:"},
    {"bcast 4 any 0 any 2x2:d1=mst,d1=mst", "a dimension appears twice"},
    {"scatter 4 any 0 any 2x2:d1=mst,d0=mst", "cannot be a mesh step"},
    {"bcast 2-8 any 0 any 4x4:d1=mst,d0=mst", "its plan is a mesh of a size outside its RANKS"},
    {"allreduce any any any noncommutative dcombine_collect",
     "its plan needs a commutative op and its OP is noncommutative"},
    {"nodes: 4", "header line 'nodes:' after the first rule"},
    {"intercom-tuning 1", "a second version line"},
    {"bcast 4 any 0\x01 any mst", "the line holds the control byte 0x01"},
    {"bcast 4 any 0 any mst\x7f", "control byte 0x7f"},
    {"bcast 4 any 0 \x1b[31many mst", "control byte 0x1b"},
    {"bcast 4 any 0 any m\xc3\xa9st", "plan 'm??st' for bcast"},
};

/* Each bad line between good ones: exactly one message, NAME:LINE: first,
 * and every other rule kept. */
START_TEST(test_malformed_lines)
{
    const char *head = "intercom-tuning 1\n"
                       "alpha: 1e-5\n"
                       "bcast any any 0-1K any mst\n";
    const char *tail = "\nallreduce any any any any recursive_doubling\n";
    for (size_t i = 0; i < sizeof(bad_lines) / sizeof(bad_lines[0]); i++) {
        snprintf(ctx, sizeof(ctx), "bad line %zu '%s'", i, bad_lines[i].line);
        char text[1024];
        snprintf(text, sizeof(text), "%s%s%s", head, bad_lines[i].line, tail);
        diags_t d;
        ic_table_t *t = parse(text, &d);
        CHECK(t != NULL);
        ck_assert_msg(d.n == 1, "%s: %d messages (%s)", ctx, d.n, d.n ? d.msg[0] : "");
        ck_assert_msg(strncmp(d.msg[0], "t.tbl:4: ", 9) == 0, "%s: %s", ctx, d.msg[0]);
        ck_assert_msg(strstr(d.msg[0], bad_lines[i].says) != NULL, "%s: says '%s'", ctx, d.msg[0]);
        CHECK(ic_table_rule_count(t) == 2);
        CHECK(ic_table_rule(t, 0)->line == 3 && ic_table_rule(t, 1)->line == 5);
        CHECK(ic_table_problems(t) == 1 && ic_table_skipped(t) == 1);
        CHECK(ic_table_header(t)->alpha == 1e-5);
        ic_table_free(t);
    }

    /* a NUL byte inside a line */
    snprintf(ctx, sizeof(ctx), "NUL byte");
    const char nul[] = "intercom-tuning 1\nbcast any any 0 any mst\nbcast 4 any\0 0 any mst\n"
                       "barrier any any 0 any mst\n";
    diags_t d;
    memset(&d, 0, sizeof(d));
    ic_table_t *t = ic_table_parse(nul, sizeof(nul) - 1, "t.tbl", collect, &d);
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(d.n, 1);
    ck_assert_str_eq(d.msg[0], "t.tbl:3: the line holds the control byte 0x00; ignored");
    ck_assert_uint_eq(ic_table_rule_count(t), 2);
    ic_table_free(t);

    /* a line too long (the comment does not count) */
    size_t big = IC_TABLE_LINE_MAX + 200;
    char *text = malloc(3 * big);
    ck_assert_ptr_nonnull(text);
    char *q = text + sprintf(text, "intercom-tuning 1\nbcast any any 0 any mst #");
    memset(q, 'c', big), q += big;
    q += sprintf(q, "\nbcast any any 1 any");
    memset(q, ' ', big), q += big;
    sprintf(q, "mst\nbarrier any any 0 any mst\n");
    memset(&d, 0, sizeof(d));
    t = ic_table_parse(text, strlen(text), "t.tbl", collect, &d);
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(d.n, 1);
    ck_assert_str_eq(d.msg[0], "t.tbl:3: the line is longer than 4096 bytes before its comment; "
                               "ignored");
    ck_assert_uint_eq(ic_table_rule_count(t), 2);
    ic_table_free(t);
    free(text);

    /* header problems: a repeated key, numbers that are not, a bad count */
    const char *hdr = "intercom-tuning 1\n"
                      "alpha: 2e-5\n"
                      "alpha: 3e-5\n"
                      "beta: fast\n"
                      "gamma: -1e-9\n"
                      "overhead: nan\n"
                      "beta-x: 1e999\n"
                      "x-min: 64k\n"
                      "nodes: 0\n"
                      "ranks-per-node: 2.5\n"
                      "links: 0\n"
                      "date: any text at all\n"
                      "bcast any any any any mst\n";
    static const char *const says[] = {
        "t.tbl:3: header key 'alpha' repeats line 2; the first is kept",
        "t.tbl:4: beta: 'fast': expected a number >= 0",
        "t.tbl:5: gamma: '-1e-9': expected a number >= 0",
        "t.tbl:6: overhead: 'nan': expected a number >= 0",
        "t.tbl:7: beta-x: '1e999': expected a number >= 0",
        "t.tbl:8: x-min: '64k': expected a number of bytes",
        "t.tbl:9: nodes: '0': expected a positive integer",
        "t.tbl:10: ranks-per-node: '2.5': expected a positive integer",
        "t.tbl:11: links: '0': expected a positive integer",
    };
    t = parse(hdr, &d);
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(d.n, 9);
    for (int i = 0; i < 9; i++)
        ck_assert_msg(!strncmp(d.msg[i], says[i], strlen(says[i])), "%s", d.msg[i]);
    const ic_table_header_t *h = ic_table_header(t);
    ck_assert_double_eq(h->alpha, 2e-5);
    ck_assert(isnan(h->beta) && isnan(h->gamma) && isnan(h->overhead) && isnan(h->beta_x) &&
              isnan(h->x_min));
    ck_assert_int_eq(h->nodes, 0);
    ck_assert_int_eq(h->ranks_per_node, 0);
    ck_assert_int_eq(h->links, 0);
    ck_assert_uint_eq(ic_table_header_count(t), 2); /* alpha, date */
    ck_assert_uint_eq(ic_table_rule_count(t), 1);
    ck_assert_uint_eq(ic_table_skipped(t), 9);
    ic_table_free(t);
}
END_TEST

/* Texts that are not a table this code reads: NULL and one message. */
START_TEST(test_refused)
{
    static const struct {
        const char *text, *says;
    } cases[] = {
        {"intercom-tuning 2\nbcast any any any any mst\n",
         "t.tbl:1: tuning table version 2 is newer than this library reads (1); the file is "
         "ignored"},
        {"# new\n\nintercom-tuning 99999999999999999999999\n", "t.tbl:3: tuning table version "},
        {"intercom-tuning 0\n", "t.tbl:1: expected 'intercom-tuning 1': a version number"},
        {"intercom-tuning\n", "t.tbl:1: expected 'intercom-tuning 1': a version number"},
        {"intercom-tuning 1 2\n", "t.tbl:1: expected 'intercom-tuning 1': a version number"},
        {"intercom-tuning one\n", "t.tbl:1: expected 'intercom-tuning 1': a version number"},
        {"bcast any any any any mst\nintercom-tuning 1\n",
         "t.tbl:1: expected 'intercom-tuning 1' first, found 'bcast' (not a tuning table?)"},
        {"alpha: 1\nintercom-tuning 1\n", "t.tbl:1: expected 'intercom-tuning 1' first"},
        {"", "t.tbl:1: no 'intercom-tuning 1' line (not a tuning table?); the file is ignored"},
        {"# only\n# comments\n", "t.tbl:2: no 'intercom-tuning 1' line"},
        {"\n\n\n", "t.tbl:3: no 'intercom-tuning 1' line"},
        {"\x7f"
         "ELF\x02\x01\x01",
         "t.tbl:1: expected 'intercom-tuning 1' first, found a line that holds the control byte "
         "0x7f"},
        {"Intercom-Tuning 1\n", "t.tbl:1: expected 'intercom-tuning 1' first, found "
                                "'Intercom-Tuning'"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        snprintf(ctx, sizeof(ctx), "refused case %zu", i);
        diags_t d;
        ic_table_t *t = parse(cases[i].text, &d);
        ck_assert_msg(t == NULL, "%s: accepted", ctx);
        ck_assert_msg(d.n == 1, "%s: %d messages", ctx, d.n);
        ck_assert_msg(!strncmp(d.msg[0], cases[i].says, strlen(cases[i].says)), "%s: '%s'", ctx,
                      d.msg[0]);
    }
    /* no text at all, and no callback */
    diags_t d;
    memset(&d, 0, sizeof(d));
    ck_assert_ptr_null(ic_table_parse(NULL, 0, NULL, collect, &d));
    ck_assert_int_eq(d.n, 1);
    ck_assert_str_eq(d.msg[0],
                     "(table):1: no 'intercom-tuning 1' line (not a tuning table?); the file is "
                     "ignored");
    ck_assert_ptr_null(ic_table_parse("x", 1, "x", NULL, NULL));
    ic_table_t *t = ic_table_parse(rich, strlen(rich), NULL, NULL, NULL);
    ck_assert_ptr_nonnull(t);
    ck_assert_str_eq(ic_table_name(t), "(table)");
    ic_table_free(t);
    ic_table_free(NULL);
}
END_TEST

/* The bounds: rules and header entries beyond them, one message each. */
START_TEST(test_limits)
{
    size_t nr = IC_TABLE_RULES_MAX + 3, nh = IC_TABLE_HEADER_MAX + 2;
    size_t cap = 64 + nh * 24 + nr * 32;
    char *text = malloc(cap), *q = text;
    ck_assert_ptr_nonnull(text);
    q += sprintf(q, "intercom-tuning 1\n");
    for (size_t i = 0; i < nh; i++)
        q += sprintf(q, "key-%zu: %zu\n", i, i);
    for (size_t i = 0; i < nr; i++)
        q += sprintf(q, "bcast %zu any any any mst\n", i % 1000 + 1);
    diags_t d;
    memset(&d, 0, sizeof(d));
    clock_t t0 = clock();
    ic_table_t *t = ic_table_parse(text, (size_t)(q - text), "big.tbl", collect, &d);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(d.n, 2);
    char want[200];
    snprintf(want, sizeof(want),
             "big.tbl:%zu: more than %d header entries: this and later ones are ignored",
             (size_t)IC_TABLE_HEADER_MAX + 2, IC_TABLE_HEADER_MAX);
    ck_assert_str_eq(d.msg[0], want);
    snprintf(want, sizeof(want),
             "big.tbl:%zu: more than %d rules: this and later rules are ignored",
             1 + nh + IC_TABLE_RULES_MAX + 1, IC_TABLE_RULES_MAX);
    ck_assert_str_eq(d.msg[1], want);
    ck_assert_uint_eq(ic_table_rule_count(t), IC_TABLE_RULES_MAX);
    ck_assert_uint_eq(ic_table_header_count(t), IC_TABLE_HEADER_MAX);
    ck_assert_uint_eq(ic_table_skipped(t), 2 + 3);
    ck_assert_uint_eq(ic_table_problems(t), 2);
    /* a full table still looks up */
    ic_coll_args_t a;
    ic_plan_t pl;
    make_call(&a, IC_COLL_BCAST, 1000, 10, 1, NULL); /* no blocks */
    ck_assert_int_eq(ic_table_lookup(t, &a, 10, 0, &pl), (int)(1 + nh + 1000));
    ic_table_free(t);
    free(text);
    ck_assert_msg(secs < 5, "parsing %zu rules took %.2f s", nr, secs);
}
END_TEST

/* ---------------------------------------------------------------- files */

START_TEST(test_files)
{
    char path[] = "/tmp/check_table.XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    fputs(rich, f);
    fclose(f);
    diags_t d;
    memset(&d, 0, sizeof(d));
    ic_table_t *t = ic_table_load(path, collect, &d);
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(d.n, 0);
    ck_assert_str_eq(ic_table_name(t), path);
    ck_assert_uint_eq(ic_table_rule_count(t), RICH_RULES);
    ic_table_free(t);

    /* messages name the file */
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("intercom-tuning 1\nbcats any any any any mst\n", f);
    fclose(f);
    t = ic_table_load(path, collect, &d);
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(d.n, 1);
    char want[100];
    snprintf(want, sizeof(want), "%s:2: unknown collective 'bcats'", path);
    ck_assert_str_eq(d.msg[0], want);
    ic_table_free(t);

    /* larger than the bound: one message, nothing read */
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("intercom-tuning 1\n", f);
    char *comment = malloc(65536);
    ck_assert_ptr_nonnull(comment);
    memset(comment, '#', 65535);
    comment[65535] = '\n';
    for (size_t i = 0; i < IC_TABLE_FILE_MAX / 65536; i++)
        fwrite(comment, 1, 65536, f);
    free(comment);
    fclose(f);
    memset(&d, 0, sizeof(d));
    ck_assert_ptr_null(ic_table_load(path, collect, &d));
    ck_assert_int_eq(d.n, 1);
    snprintf(want, sizeof(want), "%s: larger than %zu bytes", path, IC_TABLE_FILE_MAX);
    ck_assert_msg(!strncmp(d.msg[0], want, strlen(want)), "%s", d.msg[0]);
    unlink(path);

    /* unreadable: one message, no line */
    memset(&d, 0, sizeof(d));
    ck_assert_ptr_null(ic_table_load(path, collect, &d));
    ck_assert_int_eq(d.n, 1);
    snprintf(want, sizeof(want), "%s: cannot read: ", path);
    ck_assert_msg(!strncmp(d.msg[0], want, strlen(want)), "%s", d.msg[0]);
    memset(&d, 0, sizeof(d));
    ck_assert_ptr_null(ic_table_load("/", collect, &d));
    ck_assert_int_eq(d.n, 1);
    ck_assert_msg(!strncmp(d.msg[0], "/: cannot read: ", 16), "%s", d.msg[0]);
    char *text;
    size_t len;
    ck_assert_int_eq(ic_table_read_file(path, &text, &len, NULL, NULL), -1);
    ck_assert_ptr_null(text);
}
END_TEST

/* --------------------------------------------------------------- lookup */

START_TEST(test_lookup)
{
    const char *text =
        "intercom-tuning 1\n"
        "allreduce 4-16 any any any 2x2:d1=recursive_doubling,d0=recursive_doubling\n"
        "allreduce 4-16 any any any 2x4:d1=dcombine_collect,d0=recursive_doubling\n"
        "allreduce 4-16 any 0-1K any recursive_doubling\n"
        "allreduce 4-16 8 1K-* any mst\n"
        "allreduce 4-16 any 1K-64K commutative halving_doubling\n"
        "allreduce 4-16 any 1K-64K noncommutative mst\n"
        "bcast any any 0 any knomial\n"
        "bcast 2-* any 100-200 any pipeline(4096)\n"
        "barrier any any any any dissemination\n"
        "reduce any any any any dcombine_gather\n"
        "reduce any any any any mst\n";
    diags_t d;
    ic_table_t *t = parse(text, &d);
    ck_assert_ptr_nonnull(t);
    ck_assert_msg(d.n == 0, "%s", d.msg[0]);
    ic_coll_args_t a;
    ic_plan_t pl;
    size_t counts[32];
    char buf[IC_PLAN_TEXT_MAX];
#define LOOK(coll, p, bytes, rpn, comm, want_line, want_plan)                                      \
    do {                                                                                           \
        make_call(&a, coll, p, bytes, comm, counts);                                               \
        int got_ = ic_table_lookup(t, &a, bytes, rpn, &pl);                                        \
        ck_assert_msg(got_ == (want_line), "%s p=%d bytes=%zu rpn=%d comm=%d: line %d, want %d",   \
                      ic_coll_name(coll), p, (size_t)(bytes), rpn, comm, got_, want_line);         \
        if (got_) {                                                                                \
            ic_plan_format(&pl, buf, sizeof(buf));                                                 \
            ck_assert_str_eq(buf, want_plan);                                                      \
        }                                                                                          \
    } while (0)
    /* the first match wins, a mesh of another size falls through */
    LOOK(IC_COLL_ALLREDUCE, 4, 10, 0, 1, 2, "2x2:d1=recursive_doubling,d0=recursive_doubling");
    LOOK(IC_COLL_ALLREDUCE, 4, 10, 0, 0, 2, "2x2:d1=recursive_doubling,d0=recursive_doubling");
    LOOK(IC_COLL_ALLREDUCE, 8, 10, 0, 1, 3, "2x4:d1=dcombine_collect,d0=recursive_doubling");
    /* ... and a plan that cannot serve a non-commutative op */
    LOOK(IC_COLL_ALLREDUCE, 8, 10, 0, 0, 4, "recursive_doubling");
    LOOK(IC_COLL_ALLREDUCE, 6, 1024, 0, 0, 4, "recursive_doubling"); /* bounds inclusive */
    LOOK(IC_COLL_ALLREDUCE, 6, 1025, 0, 0, 7, "mst");
    /* ranks per node: the exact number, or unknown (0) matches only any */
    LOOK(IC_COLL_ALLREDUCE, 6, 1025, 8, 0, 5, "mst");
    LOOK(IC_COLL_ALLREDUCE, 6, 1025, 4, 1, 6, "halving_doubling");
    LOOK(IC_COLL_ALLREDUCE, 6, 1025, 0, 1, 6, "halving_doubling");
    /* gaps: the model decides */
    LOOK(IC_COLL_ALLREDUCE, 6, 65537, 0, 1, 0, "");
    LOOK(IC_COLL_ALLREDUCE, 6, 65537, 4, 0, 0, "");
    LOOK(IC_COLL_ALLREDUCE, 3, 10, 0, 1, 0, "");
    LOOK(IC_COLL_ALLREDUCE, 17, 10, 0, 1, 0, "");
    LOOK(IC_COLL_ALLGATHER, 8, 8, 0, 1, 0, "");
    /* other collectives; ranks any includes 1 */
    LOOK(IC_COLL_BCAST, 1, 0, 0, 1, 8, "knomial");
    LOOK(IC_COLL_BCAST, 1, 150, 0, 1, 0, "");
    LOOK(IC_COLL_BCAST, 2, 150, 0, 1, 9, "pipeline(4096)");
    LOOK(IC_COLL_BCAST, 2, 200, 0, 1, 9, "pipeline(4096)");
    LOOK(IC_COLL_BCAST, 2, 201, 0, 1, 0, "");
    LOOK(IC_COLL_BARRIER, 5, 0, 3, 1, 10, "dissemination");
    LOOK(IC_COLL_REDUCE, 5, 100, 0, 1, 11, "dcombine_gather");
    LOOK(IC_COLL_REDUCE, 5, 100, 0, 0, 12, "mst");
#undef LOOK
    /* a NULL table or call decides nothing */
    make_call(&a, IC_COLL_BCAST, 4, 0, 1, counts);
    ck_assert_int_eq(ic_table_lookup(NULL, &a, 0, 0, &pl), 0);
    ck_assert_int_eq(ic_table_lookup(t, NULL, 0, 0, &pl), 0);
    ic_table_free(t);
}
END_TEST

/* ----------------------------------------------------------- round trip */

static const int grid_p[] = {1, 2, 3, 4, 6, 8, 16, 64, 100};
static const size_t grid_bytes[] = {0,     1,       100,     8191,        8192,
                                    8193,  16383,   16384,   65535,       65536,
                                    65537, 1 << 20, 1 << 30, (size_t)3e9, SIZE_MAX};
static const int grid_rpn[] = {0, 1, 4, 8};

/* Same decisions of x and y over the grid (plans, and rules at the same
 * positions); the number of calls decided by a rule. */
static long same_decisions(const ic_table_t *x, const ic_table_t *y)
{
    size_t counts[128];
    long decided = 0;
    for (int c = 0; c < IC_COLL_COUNT; c++)
        for (size_t ip = 0; ip < sizeof(grid_p) / sizeof(grid_p[0]); ip++)
            for (size_t ib = 0; ib < sizeof(grid_bytes) / sizeof(grid_bytes[0]); ib++)
                for (size_t iq = 0; iq < sizeof(grid_rpn) / sizeof(grid_rpn[0]); iq++)
                    for (int comm = 0; comm < 2; comm++) {
                        ic_coll_args_t a;
                        ic_plan_t px, py;
                        make_call(&a, (ic_coll_t)c, grid_p[ip], 4096, comm, counts);
                        int lx = ic_table_lookup(x, &a, grid_bytes[ib], grid_rpn[iq], &px);
                        int ly = ic_table_lookup(y, &a, grid_bytes[ib], grid_rpn[iq], &py);
                        snprintf(ctx, sizeof(ctx), "%s p=%d bytes=%zu rpn=%d comm=%d",
                                 ic_coll_name((ic_coll_t)c), grid_p[ip], grid_bytes[ib],
                                 grid_rpn[iq], comm);
                        CHECK((lx > 0) == (ly > 0));
                        if (!lx)
                            continue;
                        decided++;
                        CHECK(ic_plan_equal(&px, &py));
                        size_t ix = 0, iy = 0;
                        while (ic_table_rule(x, ix)->line != lx)
                            ix++;
                        while (ic_table_rule(y, iy)->line != ly)
                            iy++;
                        CHECK(ix == iy);
                    }
    return decided;
}

/* Parse, write, parse: the same header and rules; writing is then a
 * fixed point; the same decisions. */
static void round_trip(const ic_table_t *t)
{
    size_t len;
    char *out = written(t, &len);
    diags_t d;
    memset(&d, 0, sizeof(d));
    ic_table_t *u = ic_table_parse(out, len, "w.tbl", collect, &d);
    ck_assert_msg(u != NULL && d.n == 0, "%s: the written table has problems: %s\n%s", ctx,
                  d.n ? d.msg[0] : "refused", out);
    CHECK(ic_table_rule_count(u) == ic_table_rule_count(t));
    for (size_t i = 0; i < ic_table_rule_count(t); i++)
        CHECK(rules_equal(ic_table_rule(t, i), ic_table_rule(u, i)));
    CHECK(ic_table_header_count(u) == ic_table_header_count(t));
    for (size_t i = 0; i < ic_table_header_count(t); i++) {
        const char *k1, *v1, *k2, *v2;
        ic_table_header_entry(t, i, &k1, &v1);
        ic_table_header_entry(u, i, &k2, &v2);
        CHECK(!strcmp(k1, k2) && !strcmp(v1, v2));
    }
    size_t len2;
    char *again = written(u, &len2);
    CHECK(len2 == len && !memcmp(out, again, len));
    free(again);
    free(out);
    ic_table_free(u);
}

START_TEST(test_round_trip)
{
    snprintf(ctx, sizeof(ctx), "rich table");
    diags_t d;
    ic_table_t *t = parse(rich, &d);
    ck_assert_ptr_nonnull(t);
    round_trip(t);
    size_t len;
    char *out = written(t, &len);
    ic_table_t *u = ic_table_parse(out, len, "w.tbl", NULL, NULL);
    ck_assert_ptr_nonnull(u);
    long decided = same_decisions(t, u);
    ck_assert_msg(decided > 1000, "only %ld calls decided by a rule", decided);
    /* the canonical text: aligned, suffixes, any */
    ck_assert_msg(strstr(out, "\nbcast                any    any 0-8K    any            mst\n"),
                  "%s", out);
    ck_assert_msg(strstr(out, "\nallgather            any    any 0-16383 any            bruck\n"),
                  "%s", out);
    ck_assert_msg(strstr(out, "\nreduce_scatter_block 8      any 1G      any            "
                              "2x4:d1=bucket,d0=bucket\n"),
                  "%s", out);
    const char *top = "intercom-tuning 1\nmade-by: intercom-tune --ops all -p 64\n";
    ck_assert_msg(!strncmp(out, top, strlen(top)), "%s", out);
    ck_assert_msg(strstr(out, "\nempty:\n"), "%s", out);
    free(out);
    ic_table_free(u);
    ic_table_free(t);
}
END_TEST

/* ------------------------------------------------------- built in memory */

START_TEST(test_build)
{
    ic_table_t *t = ic_table_new("tuned.tbl");
    ck_assert_ptr_nonnull(t);
    const char *why = NULL;
    ck_assert_int_eq(ic_table_set(t, "made-by", "intercom-tune -p 8 --ops allreduce", &why), 0);
    ck_assert_int_eq(ic_table_set(t, "alpha", "2e-05", &why), 0);
    ck_assert_int_eq(ic_table_set(t, "x-min", "32K", &why), 0);
    ck_assert_int_eq(ic_table_set(t, "alpha", "3e-05", &why), 0); /* replaces */
    ck_assert_double_eq(ic_table_header(t)->alpha, 3e-05);
    ck_assert_double_eq(ic_table_header(t)->x_min, 32768);
    ck_assert_uint_eq(ic_table_header_count(t), 3);
    ck_assert_int_eq(ic_table_set(t, "alpha", "soon", &why), -1);
    ck_assert_double_eq(ic_table_header(t)->alpha, 3e-05);
    ck_assert_int_eq(ic_table_set(t, "two words", "x", &why), -1);
    ck_assert_int_eq(ic_table_set(t, "", "x", &why), -1);
    ck_assert_int_eq(ic_table_set(t, "k", "a # b", &why), -1);
    ck_assert_int_eq(ic_table_set(t, "k", "a\nb", &why), -1);
    ck_assert_int_eq(ic_table_set(t, "k", " padded", &why), -1);
    ck_assert_int_eq(ic_table_set(t, "k", NULL, &why), -1);
    ck_assert_int_eq(ic_table_set(t, "nodes", "0", NULL), -1);
    ck_assert_uint_eq(ic_table_header_count(t), 3);

    ic_table_rule_t r;
    memset(&r, 0, sizeof(r));
    r.coll = IC_COLL_ALLREDUCE;
    r.ranks_lo = 8;
    r.ranks_hi = INT_MAX;
    r.bytes_lo = 0;
    r.bytes_hi = 4095;
    r.op = IC_TABLE_OP_ANY;
    ck_assert_int_eq(ic_plan_parse(r.coll, "recursive_doubling", &r.plan, NULL), 0);
    ck_assert_int_eq(ic_table_add_rule(t, &r, &why), 0);
    r.ranks_lo = r.ranks_hi = 8;
    r.ranks_per_node = 4;
    r.bytes_lo = 4096;
    r.bytes_hi = IC_TABLE_OPEN;
    r.op = IC_TABLE_OP_COMMUTATIVE;
    ck_assert_int_eq(ic_plan_parse(r.coll, "2x4:d1=dcombine_collect,d0=mst", &r.plan, NULL), 0);
    ck_assert_int_eq(ic_table_add_rule(t, &r, &why), 0);
    ck_assert_uint_eq(ic_table_rule_count(t), 2);
    ck_assert_int_eq(ic_table_rule(t, 0)->line, 1);
    ck_assert_int_eq(ic_table_rule(t, 1)->line, 2);

    /* what the parser refuses, add_rule refuses */
    ic_table_rule_t bad = r;
    bad.ranks_lo = 9;
    ck_assert_int_eq(ic_table_add_rule(t, &bad, &why), -1); /* empty ranks */
    bad = r;
    bad.ranks_hi = 16; /* the mesh of 8 is inside, fine; RPN 32 is not */
    bad.ranks_per_node = 32;
    ck_assert_int_eq(ic_table_add_rule(t, &bad, &why), -1);
    ck_assert_str_eq(why, "the rule never applies: RPN is more than its largest RANKS");
    bad = r;
    bad.ranks_lo = bad.ranks_hi = 16;
    ck_assert_int_eq(ic_table_add_rule(t, &bad, &why), -1); /* mesh of 8 */
    bad = r;
    bad.op = IC_TABLE_OP_NONCOMMUTATIVE;
    ck_assert_int_eq(ic_table_add_rule(t, &bad, &why), -1);
    bad = r;
    bad.bytes_lo = 5000;
    bad.bytes_hi = 4999;
    ck_assert_int_eq(ic_table_add_rule(t, &bad, &why), -1);
    bad = r;
    bad.coll = IC_COLL_BCAST; /* the plan is allreduce's */
    bad.op = IC_TABLE_OP_ANY;
    ck_assert_int_eq(ic_table_add_rule(t, &bad, &why), -1);
    ck_assert_str_eq(why, "a plan of another collective");
    bad = r;
    bad.coll = IC_COLL_BCAST;
    ck_assert_int_eq(ic_plan_parse(bad.coll, "mst", &bad.plan, NULL), 0);
    ck_assert_int_eq(ic_table_add_rule(t, &bad, &why), -1); /* op of a bcast */
    bad.op = IC_TABLE_OP_ANY;
    bad.plan.alg = NULL;
    ck_assert_int_eq(ic_table_add_rule(t, &bad, &why), -1);
    bad.plan = ic_plan_1d(ic_alg_find(IC_COLL_BCAST, "mst"), 0);
    bad.ranks_per_node = -1;
    ck_assert_int_eq(ic_table_add_rule(t, &bad, &why), -1);
    bad.ranks_per_node = 0;
    ck_assert_int_eq(ic_table_add_rule(t, &bad, NULL), 0);
    ck_assert_uint_eq(ic_table_rule_count(t), 3);

    snprintf(ctx, sizeof(ctx), "table built in memory");
    round_trip(t);
    /* rules added after a parse come after the file's lines */
    size_t len;
    char *out = written(t, &len);
    ic_table_t *u = ic_table_parse(out, len, "w.tbl", NULL, NULL);
    ck_assert_ptr_nonnull(u);
    int last = ic_table_rule(u, 2)->line;
    ck_assert_int_eq(ic_table_add_rule(u, &r, NULL), 0);
    ck_assert_int_eq(ic_table_rule(u, 3)->line, last + 1);
    char buf[256];
    ic_table_format_rule(ic_table_rule(u, 3), buf, sizeof(buf));
    ck_assert_str_eq(buf, "allreduce 8 4 4K-* commutative 2x4:d1=dcombine_collect,d0=mst");
    free(out);
    ic_table_free(u);
    ic_table_free(t);
}
END_TEST

/* ----------------------------------------------------------------- fuzz */

static unsigned long long rng_state;
static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((rng_state >> 33) % n);
}

/* What a mutated table's messages must look like. */
typedef struct fuzz_diags {
    int nlines; /* lines of the text (at least 1) */
    int last;   /* line of the last message */
    int n;
    char first[600];
} fuzz_diags_t;

static void fuzz_collect(void *c, const char *m)
{
    fuzz_diags_t *d = c;
    if (d->n++ == 0)
        snprintf(d->first, sizeof(d->first), "%s", m);
    if (strncmp(m, "fuzz.tbl:", 9) != 0)
        ck_abort_msg("%s: message '%s'", ctx, m);
    char *end;
    long line = strtol(m + 9, &end, 10);
    if (end == m + 9 || end[0] != ':' || end[1] != ' ' || end[2] == 0)
        ck_abort_msg("%s: message '%s'", ctx, m);
    if (line < 1 || line > d->nlines)
        ck_abort_msg("%s: line %ld of %d: '%s'", ctx, line, d->nlines, m);
    /* one message per line at the most, in order */
    if (line <= d->last)
        ck_abort_msg("%s: line %ld after %d: '%s'", ctx, line, d->last, m);
    d->last = (int)line;
    for (const char *q = m; *q; q++)
        if ((unsigned char)*q < ' ' || (unsigned char)*q >= 0x7f)
            ck_abort_msg("%s: unprintable message '%s'", ctx, m);
}

/* A rule matches a call (the same test as the lookup, written again). */
static int rule_matches(const ic_table_rule_t *r, const ic_coll_args_t *a, size_t bytes, int rpn)
{
    if (r->coll != a->coll || a->size < r->ranks_lo || a->size > r->ranks_hi ||
        (r->ranks_per_node && r->ranks_per_node != rpn) || bytes < r->bytes_lo ||
        bytes > r->bytes_hi)
        return 0;
    if (ic_coll_reduces(a->coll) && r->op != IC_TABLE_OP_ANY &&
        (r->op == IC_TABLE_OP_COMMUTATIVE) != !!a->commutative)
        return 0;
    return ic_plan_usable(&r->plan, a, NULL);
}

static void mutate(char *buf, size_t *len, size_t cap)
{
    static const char *const garbage[] = {
        "\n",        "#",    " ",   "\t",  "\r\n", "-",   "*",      "K",
        "G",         ":",    "x",   "any", "d0=",  "(0)", "(",      "999999999999999999999",
        "\0",        "\xff", "mst", "2x2", "8x8:", ",",   "bcast ", "intercom-tuning 1\n",
        "alpha: 1\n"};
    int kind = (int)rnd(7);
    size_t n = *len;
    switch (kind) {
    case 0: /* flip a byte */
        if (n)
            buf[rnd((unsigned)n)] = (char)rnd(256);
        break;
    case 1: { /* delete a range */
        if (!n)
            break;
        size_t at = rnd((unsigned)n), k = 1 + rnd(12);
        if (at + k > n)
            k = n - at;
        memmove(buf + at, buf + at + k, n - at - k);
        *len = n - k;
        break;
    }
    case 2: { /* duplicate a range elsewhere */
        if (!n)
            break;
        size_t from = rnd((unsigned)n), k = 1 + rnd(40);
        if (from + k > n)
            k = n - from;
        if (n + k > cap)
            break;
        char tmp[64];
        memcpy(tmp, buf + from, k);
        size_t at = rnd((unsigned)n + 1);
        memmove(buf + at + k, buf + at, n - at);
        memcpy(buf + at, tmp, k);
        *len = n + k;
        break;
    }
    case 3: /* truncate */
        *len = rnd((unsigned)n + 1);
        break;
    case 4: { /* a token of the grammar, or of nonsense */
        const char *g = garbage[rnd(sizeof(garbage) / sizeof(garbage[0]))];
        size_t k = g[0] ? strlen(g) : 1, at = rnd((unsigned)n + 1);
        if (n + k > cap)
            break;
        memmove(buf + at + k, buf + at, n - at);
        memcpy(buf + at, g, k);
        *len = n + k;
        break;
    }
    case 5: { /* a line of random bytes */
        size_t k = 1 + rnd(30), at = rnd((unsigned)n + 1);
        if (n + k + 1 > cap)
            break;
        memmove(buf + at + k + 1, buf + at, n - at);
        for (size_t i = 0; i < k; i++)
            buf[at + i] = (char)rnd(256);
        buf[at + k] = '\n';
        *len = n + k + 1;
        break;
    }
    default: { /* swap two digits' worth: replace a digit by another */
        for (int tries = 0; tries < 8 && n; tries++) {
            size_t at = rnd((unsigned)n);
            if (buf[at] >= '0' && buf[at] <= '9') {
                buf[at] = (char)('0' + rnd(10));
                break;
            }
        }
        break;
    }
    }
}

START_TEST(test_fuzz)
{
    /* IC_TABLE_FUZZ_ROUNDS and _SEED run longer or other loops by hand */
    const char *env = getenv("IC_TABLE_FUZZ_ROUNDS");
    const int rounds = env && atoi(env) > 0 ? atoi(env) : 4000;
    size_t base = strlen(rich), cap = 4 * base;
    char *buf = malloc(cap);
    ck_assert_ptr_nonnull(buf);
    size_t counts[128];
    long kept = 0, refused = 0, decided = 0, messages = 0;
    env = getenv("IC_TABLE_FUZZ_SEED");
    rng_state = env ? strtoull(env, NULL, 10) : 20240501;
    clock_t t0 = clock();
    for (int round = 0; round < rounds; round++) {
        size_t len = base;
        memcpy(buf, rich, base);
        int nmut = 1 + (int)rnd(round % 10 == 0 ? 40 : 4);
        for (int m = 0; m < nmut; m++)
            mutate(buf, &len, cap);
        snprintf(ctx, sizeof(ctx), "fuzz round %d (%d mutations)", round, nmut);
        fuzz_diags_t d;
        memset(&d, 0, sizeof(d));
        d.nlines = 0;
        for (size_t i = 0; i < len; i++)
            d.nlines += buf[i] == '\n';
        if (len && buf[len - 1] != '\n')
            d.nlines++;
        if (d.nlines == 0)
            d.nlines = 1;
        ic_table_t *t = ic_table_parse(buf, len, "fuzz.tbl", fuzz_collect, &d);
        messages += d.n;
        if (!t) {
            refused++;
            CHECK(d.n == 1); /* refused: one message */
            continue;
        }
        CHECK(ic_table_problems(t) == (size_t)d.n);
        CHECK(ic_table_skipped(t) <= (size_t)d.n + (size_t)d.nlines);
        size_t nr = ic_table_rule_count(t);
        kept += (long)nr;
        int prev = 0;
        for (size_t i = 0; i < nr; i++) {
            const ic_table_rule_t *r = ic_table_rule(t, i);
            char text[IC_PLAN_TEXT_MAX];
            ic_plan_t back;
            CHECK(r->line > prev && r->line <= d.nlines);
            prev = r->line;
            CHECK((int)r->coll >= 0 && r->coll < IC_COLL_COUNT && r->plan.coll == r->coll);
            CHECK(r->ranks_lo >= 1 && r->ranks_lo <= r->ranks_hi && r->bytes_lo <= r->bytes_hi);
            CHECK(ic_plan_format(&r->plan, text, sizeof(text)) < (int)sizeof(text));
            CHECK(ic_plan_parse(r->coll, text, &back, NULL) == 0 && ic_plan_equal(&back, &r->plan));
        }
        /* what was kept round-trips */
        round_trip(t);
        /* lookups: the first kept rule that matches, a plan of the call's
         * collective that parses and can serve the call */
        for (int k = 0; k < 40; k++) {
            ic_coll_args_t a;
            ic_plan_t pl;
            ic_coll_t c = (ic_coll_t)rnd(IC_COLL_COUNT);
            int p = grid_p[rnd(sizeof(grid_p) / sizeof(grid_p[0]))];
            size_t bytes = grid_bytes[rnd(sizeof(grid_bytes) / sizeof(grid_bytes[0]))];
            int rpn = grid_rpn[rnd(sizeof(grid_rpn) / sizeof(grid_rpn[0]))];
            make_call(&a, c, p, 4096, (int)rnd(2), counts);
            int line = ic_table_lookup(t, &a, bytes, rpn, &pl);
            int want = 0;
            for (size_t i = 0; i < nr && !want; i++)
                if (rule_matches(ic_table_rule(t, i), &a, bytes, rpn))
                    want = ic_table_rule(t, i)->line;
            CHECK(line == want);
            if (!line)
                continue;
            decided++;
            char text[IC_PLAN_TEXT_MAX];
            ic_plan_t back;
            CHECK(pl.coll == c && ic_plan_usable(&pl, &a, NULL));
            ic_plan_format(&pl, text, sizeof(text));
            CHECK(ic_plan_parse(c, text, &back, NULL) == 0 && ic_plan_equal(&back, &pl));
        }
        ic_table_free(t);
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    free(buf);
    /* the loop must have seen every outcome */
    ck_assert_msg(refused > 0 && refused < rounds / 2, "%ld of %d refused", refused, rounds);
    ck_assert_msg(kept > rounds * 5L, "%ld rules kept", kept);
    ck_assert_msg(messages > rounds / 2, "%ld messages", messages);
    ck_assert_msg(decided > rounds, "%ld lookups decided", decided);
    if (getenv("IC_TABLE_FUZZ_STATS") || getenv("IC_TABLE_FUZZ_ROUNDS"))
        printf("fuzz: %d tables, %ld refused, %ld rules kept, %ld messages, %ld lookups decided, "
               "%.2f s\n",
               rounds, refused, kept, messages, decided, secs);
}
END_TEST

Suite *suite_table(void)
{
    Suite *s = suite_create("table");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, test_valid_forms);
    tcase_add_test(tc, test_model);
    tcase_add_test(tc, test_malformed_lines);
    tcase_add_test(tc, test_refused);
    tcase_add_test(tc, test_files);
    suite_add_tcase(s, tc);
    tc = tcase_create("limits");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_limits);
    suite_add_tcase(s, tc);
    tc = tcase_create("lookup");
    tcase_add_test(tc, test_lookup);
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_build);
    suite_add_tcase(s, tc);
    tc = tcase_create("fuzz");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_fuzz);
    suite_add_tcase(s, tc);
    return s;
}
