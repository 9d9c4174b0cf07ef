/*
 * intercom-info -- what InterCom has and what it would choose.
 *
 *   intercom-info list                      every registered algorithm
 *   intercom-info choose [OPTIONS]          the selector's pick per
 *                                           collective and size
 *   intercom-info schedule COLL PLAN [OPTIONS]  one rank's (or every
 *                                           rank's) schedule
 *   intercom-info predict COLL PLAN [OPTIONS]   a plan's closed-form
 *                                           and evaluated cost
 *   intercom-info --algorithms COLL         the registered names, one a line
 *   intercom-info --check FILE              validate a tuning table
 *   intercom-info table FILE [COLL] [OPTIONS]  which rule of a tuning
 *                                           table decides a call
 *   intercom-info --help | --version
 *
 * `intercom-info --help` describes every option (the table `options`
 * below is the one list: the parser and the help both read it; the man
 * page is generated from the help).  No MPI is needed: this runs the
 * schedule builders, the cost model and the tuning table parser.
 */
#include "config.h"
#include "algorithms.h"
#include "choose.h"
#include "cost.h"
#include "plan.h"
#include "table.h"
#include "help.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { C_CHOOSE = 1 << 0, C_SCHEDULE = 1 << 1, C_PREDICT = 1 << 2, C_TABLE = 1 << 3 };
#define C_MODEL (C_CHOOSE | C_PREDICT)

/* Every option: name, argument, the commands it applies to, and what it
 * means.  "%D" in a description is replaced by the built-in default the
 * tool prints from the cost model (see defaults_text).  An option that
 * means something else to another command has an entry of its own. */
static const struct {
    const char *opt, *arg;
    unsigned cmds;
    const char *help;
} options[] = {
    {"-p", "P", C_CHOOSE | C_SCHEDULE | C_PREDICT | C_TABLE, "number of ranks (default 8)"},
    {"--elem", "BYTES", C_CHOOSE | C_SCHEDULE | C_PREDICT | C_TABLE,
     "bytes per element: the selector's unit of messages and segments (default 1)"},
    {"--alpha", "S", C_MODEL,
     "start-up time of a message in seconds (default %D; the library's INTERCOM_ALPHA)"},
    {"--beta", "S_PER_BYTE", C_MODEL,
     "transfer time per byte in seconds (default %D; INTERCOM_BETA)"},
    {"--gamma", "S_PER_BYTE", C_MODEL,
     "time per byte of a local reduction in seconds (default %D; INTERCOM_GAMMA)"},
    {"--beta-x", "S_PER_BYTE", C_MODEL,
     "time per byte and direction when two ranks exchange messages both ways in one round "
     "(halving and doubling steps, the ring at p = 2); default twice --beta, as the library "
     "across nodes (INTERCOM_BETA_EXCHANGE)"},
    {"--x-min", "BYTES", C_MODEL,
     "--beta-x applies to exchanged messages of at least BYTES; shorter ones go both ways at "
     "--beta (default 65536; INTERCOM_EXCHANGE_MIN)"},
    {"--overhead", "S", C_MODEL,
     "LogGP's sender overhead o in seconds, the part of alpha that keeps the sender busy: "
     "sets the k-nomial broadcast's radix, and the cost evaluator frees a sender o plus its "
     "bytes after a message starts (default alpha / 8; INTERCOM_OVERHEAD)"},
    {"--chunk", "BYTES", C_MODEL,
     "the executor sends longer messages as pieces of at most BYTES, and pipelined algorithms "
     "take segments no longer (default %D; 0: whole messages; INTERCOM_CHUNK)"},
    {"--ranks-per-node", "Q", C_CHOOSE,
     "price for nodes of Q consecutive ranks: steps whose lines stay inside a node with the "
     "library's shared-memory model (two levels, as the library when every node holds Q "
     "ranks; INTERCOM_RANKS_PER_NODE); Q = p without a table: every rank on one node, the "
     "shared-memory model alone, the figures given set on it"},
    {"--ranks-per-node", "Q", C_TABLE,
     "the communicator has Q ranks on every node: rules whose RPN is Q or any match (default: "
     "unknown, only RPN any)"},
    {"--mesh", "RxC", C_CHOOSE,
     "only plans on this mesh shape (RxC, RxCxD; one number: the 1-D plans), as "
     "INTERCOM_MESH"},
    {"--noncommutative", NULL, C_MODEL,
     "price the reductions for a non-commutative operation: only algorithms that keep rank "
     "order are candidates"},
    {"--noncommutative", NULL, C_TABLE,
     "a reduction with a non-commutative operation: rules whose OP is commutative do not match"},
    {"--table", "FILE|auto", C_CHOOSE,
     "decide as the library does under this tuning table (auto: the one it reads): a rule "
     "first, the model in the gaps, with the table's measured alpha, beta, gamma unless "
     "--alpha, --beta, --gamma are given; the source column names what decided"},
    {"--candidates", "K", C_CHOOSE,
     "with COLL and -n: list the model's K cheapest plans with their predicted times "
     "(default 10)"},
    {"-n", "COUNT", C_CHOOSE,
     "with COLL: one call of COUNT elements (the whole vector, as for table) instead of the "
     "sweep"},
    {"-n", "COUNT", C_SCHEDULE | C_PREDICT | C_TABLE,
     "elements of the whole vector (bcast, reduce, allreduce: the message; the others: p "
     "blocks of COUNT/p); the call's bytes are COUNT times --elem (default 0)"},
    {"--root", "R", C_SCHEDULE | C_PREDICT, "root of the rooted collectives (default 0)"},
    {"--rank", "R", C_SCHEDULE, "print only rank R's schedule (default: every rank's)"},
};
#define NOPT ((int)(sizeof(options) / sizeof(options[0])))

/* The built-in default of a cost parameter named by option `opt`. */
static void defaults_text(const char *opt, char *buf, size_t size)
{
    ic_cost_params_t c;
    ic_cost_defaults(&c);
    double v = !strcmp(opt, "--alpha")   ? c.alpha
               : !strcmp(opt, "--beta")  ? c.beta
               : !strcmp(opt, "--chunk") ? (double)c.chunk
                                         : c.gamma;
    snprintf(buf, size, "%g", v);
}

static void print_options(FILE *f, unsigned cmd)
{
    for (int i = 0; i < NOPT; i++) {
        if (!(options[i].cmds & cmd))
            continue;
        char left[40], text[512];
        snprintf(left, sizeof(left), "%s%s%s", options[i].opt, options[i].arg ? " " : "",
                 options[i].arg ? options[i].arg : "");
        const char *d = strstr(options[i].help, "%D");
        if (d) {
            char def[32];
            defaults_text(options[i].opt, def, sizeof(def));
            snprintf(text, sizeof(text), "%.*s%s%s", (int)(d - options[i].help), options[i].help,
                     def, d + 2);
        } else {
            snprintf(text, sizeof(text), "%s", options[i].help);
        }
        ic_help_item(f, left, text);
    }
}

static void help(FILE *f)
{
    fprintf(f, "intercom-info -- what InterCom has and what its selector would choose\n"
               "\n"
               "usage: intercom-info list\n"
               "       intercom-info --algorithms COLL\n"
               "       intercom-info choose [COLL -n COUNT] [OPTIONS]\n"
               "       intercom-info schedule COLL PLAN -n COUNT [OPTIONS]\n"
               "       intercom-info predict COLL PLAN -n COUNT [OPTIONS]\n"
               "       intercom-info --check FILE\n"
               "       intercom-info table FILE|auto [COLL] [OPTIONS]\n"
               "       intercom-info --help | --version\n"
               "\n"
               "commands:\n");
    ic_help_item(f, "list",
                 "every registered algorithm: collective, name, restrictions (commutative "
                 "operations only), whether it can be a step of a mesh plan, description; then "
                 "the aliases: other papers' names for the same patterns, accepted wherever a "
                 "name is (plans are written with the registered name)");
    ic_help_item(f, "--algorithms COLL",
                 "the names of COLL's registered algorithms (its 1-D plans), one per line: the "
                 "names INTERCOM_<OP>_ALGORITHM and IC_Set_algorithm accept besides mesh plans");
    ic_help_item(f, "choose [COLL]",
                 "for each collective and message size (8 B to 16 MiB, x8), the plan the "
                 "library picks (1-D algorithms and mesh plans), its predicted time in seconds "
                 "and the source that decided (the model, or a tuning table's rule with "
                 "--table): the decision the library makes at run time with the same "
                 "parameters (across nodes the library measures alpha and beta itself, "
                 "INTERCOM_CALIBRATE: INTERCOM_VERBOSE=1 prints them, give them as --alpha "
                 "and --beta); with COLL and -n, that one call's candidates, cheapest first, "
                 "each with its predicted time, then the decision");
    ic_help_item(f, "schedule COLL PLAN",
                 "print the schedule of plan PLAN for collective COLL: rounds of sends, "
                 "receives, reductions and copies per rank");
    ic_help_item(f, "predict COLL PLAN",
                 "PLAN's canonical text, its closed-form cost (the selector's price: the sum of "
                 "its steps) and the cost evaluator's time on the schedules of all ranks, in "
                 "seconds");
    ic_help_item(f, "--check FILE",
                 "validate the tuning table FILE (README.md, \"Tuning tables\"): every problem as "
                 "FILE:LINE: what is wrong, on standard output, then a summary (rules kept, lines "
                 "skipped, how the table was made); exit status 0 when the file is clean, 1 when "
                 "it has problems or is refused as a whole (a newer version, not a table), 2 when "
                 "it cannot be read");
    ic_help_item(f, "table FILE|auto [COLL]",
                 "which rule of the tuning table FILE decides a call of COLL (or of every "
                 "collective) described by the options, and its plan, or \"no rule: the model "
                 "decides\"; problems of the file go to standard error, and the rest of it is "
                 "used; auto: the table the library reads (INTERCOM_TUNING_FILE, else the "
                 "installed default), and where it came from");
    ic_help_item(f, "--help, -h", "this help, then exit 0");
    ic_help_item(f, "--version", "the version and the tuning table the library reads, then exit 0");
    fprintf(f, "\n"
               "A PLAN is an algorithm's name (optionally with its segment or radix, "
               "pipeline(4096)) or a mesh plan: the shape, then one step per dimension in the "
               "order they run, each naming a 1-D algorithm of the collective, e.g. "
               "16x32:d1=scatter_collect,d0=mst (dimension 0 varies slowest: rank r sits at "
               "row r / 32, column r %% 32).\n"
               "\n"
               "options of choose:\n");
    print_options(f, C_CHOOSE);
    fprintf(f, "\noptions of schedule:\n");
    print_options(f, C_SCHEDULE);
    fprintf(f, "\noptions of predict:\n");
    print_options(f, C_PREDICT);
    fprintf(f, "\noptions of table:\n");
    print_options(f, C_TABLE);
    fprintf(f, "\nNo MPI is needed: the tool runs InterCom's schedule builders, cost model and "
               "tuning table parser.\n"
               "Exit status: 0; 1 when a schedule cannot be built, or a table has problems "
               "(--check) or is refused; 2 for a usage error or a table that cannot be read.\n");
}

static int usage_error(const char *fmt, const char *what)
{
    fprintf(stderr, "intercom-info: ");
    fprintf(stderr, fmt, what);
    fprintf(stderr, " (intercom-info --help describes the commands and options)\n");
    return 2;
}

/* Describe a call of `elems` elements of elem bytes in total on p ranks
 * (blocks even; scratch bounded as the library does from
 * INTERCOM_SCRATCH_SLACK on). */
static void make_args(ic_coll_args_t *a, ic_coll_t c, int p, size_t elems, size_t elem, int root,
                      int commute, size_t *counts)
{
    memset(a, 0, sizeof(*a));
    a->coll = c;
    a->size = p;
    a->root = root;
    a->commutative = commute;
    a->bounded_from = ic_bounded_from(ic_scratch_slack(), elem);
    switch (c) {
    case IC_COLL_BCAST:
    case IC_COLL_REDUCE:
    case IC_COLL_ALLREDUCE:
        a->count = elems;
        break;
    case IC_COLL_BARRIER:
        break;
    default: {
        /* per-rank blocks: elems is the whole vector */
        size_t blk = elems / (size_t)p;
        for (int i = 0; i < p; i++)
            counts[i] = blk;
        a->counts = counts;
        a->count = blk * (size_t)p;
        a->sendcount = blk;
        a->recvcount = blk;
        break;
    }
    }
}

static int cmd_list(void)
{
    int w = 18; /* the longest name */
    for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++)
        w = (int)strlen(alg->name) > w ? (int)strlen(alg->name) : w;
    printf("%-22s %-*s %-26s %-9s %s\n", "collective", w, "algorithm", "restrictions", "mesh-step",
           "description");
    for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++) {
        int keeps = (alg->flags & IC_ALG_KEEPS_ORDER) != 0, exact = (alg->flags & IC_ALG_EXACT_OP);
        printf("%-22s %-*s %-26s %-9s %s%s\n", ic_coll_name(alg->coll), w, alg->name,
               exact   ? "commutative-op, exact-op"
               : keeps ? "-"
                       : "commutative-op",
               ic_plan_step_kind(alg) != IC_STEP_NONE ? "yes" : "no", alg->description,
               ic_alg_priced(alg) ? "" : " [forced or tables only]");
    }
    printf("\n%-22s %-26s %-*s %s\n", "collective", "alias", w, "algorithm", "named in");
    for (const ic_alg_alias_t *a = ic_alg_aliases; a->alias; a++)
        printf("%-22s %-26s %-*s %s\n", ic_coll_name(a->coll), a->alias, w, a->name, a->source);
    return 0;
}

/* The table of choose --table (NULL: none) and what it says. */
typedef struct choose_table {
    ic_table_t *t;
    const char *path;
    int rpn; /* the ranks per node rules are matched for (0: unknown) */
} choose_table_t;

/* The decision for the call a of `bytes` bytes: the table's rule, else
 * the model; its source into src.  Gatherv and scatterv first decide, as
 * the library does before it knows the counts, whether they run without
 * the block sizes first. */
static int decide(const ic_coll_args_t *a, size_t bytes, const ic_cost_params_t *c,
                  const ic_cost_params_t *node, int q, size_t elem, const int *shape, int nshape,
                  const choose_table_t *tb, ic_plan_t *pl, double *t, char *src, size_t srclen)
{
    if (a->coll == IC_COLL_GATHERV || a->coll == IC_COLL_SCATTERV) {
        int line0 = 0;
        const ic_algorithm_t *d =
            ic_choose_direct(a->coll, a->size, a->root, c, tb->t, tb->rpn, &line0);
        if (d) {
            ic_model_t m = ic_model_of(c, elem);
            *pl = ic_plan_1d(d, 0);
            *t = ic_plan_cost(pl, a, &m);
            if (line0 > 0)
                snprintf(src, srclen, "%s:%d (no block sizes first)", tb->path, line0);
            else
                snprintf(src, srclen, "model (no block sizes first)");
            return 0;
        }
    }
    int line = tb->t ? ic_table_lookup(tb->t, a, bytes, tb->rpn, pl) : 0;
    if (q < 2 || q >= a->size)
        q = 0; /* one level */
    if (line > 0) {
        ic_model_t mn, m = ic_model_levels(c, node, q, a->size, elem, &mn);
        ic_plan_resolve(pl, a, &m);
        *t = ic_plan_cost(pl, a, &m);
        snprintf(src, srclen, "%s:%d", tb->path, line);
        return 0;
    }
    snprintf(src, srclen, "model");
    return ic_choose_plan(a, c, q ? node : NULL, q, elem, shape, nshape, pl, t, NULL);
}

static int cmd_choose(int p, ic_cost_params_t *c, size_t elem, int commute, const int *shape,
                      int nshape, int q, const char *cname, size_t n, const choose_table_t *tb,
                      int k)
{
    ic_coll_t only = IC_COLL_COUNT;
    if (cname && ic_coll_find(cname, &only)) {
        fprintf(stderr, "intercom-info: unknown collective '%s'\n", cname);
        return 2;
    }
    ic_cost_params_t node;
    ic_cost_defaults_node(&node);
    ic_cost_derive(&node, 1); /* as the library within a node */
    if (tb->t)                /* and a table's figures within a node (table.h) */
        ic_table_node_model(tb->t, 0, &node);
    size_t *counts = calloc((size_t)p, sizeof(size_t));
    if (!counts)
        return 1;
    printf("p=%d alpha=%.3g s beta=%.3g s/B beta_x=%.3g s/B (exchanges of %zu B and more) "
           "gamma=%.3g s/B element=%zu B overhead=%.3g s pieces=%zu B%s\n",
           p, c->alpha, c->beta, c->beta_x, c->x_min, c->gamma, elem, c->overhead, c->chunk,
           commute ? "" : " non-commutative op");
    if (tb->t) {
        printf("tuning table: %s, rules for ", tb->path);
        printf(tb->rpn ? "%d ranks per node" : "any ranks per node (RPN any)", tb->rpn);
        printf("\n");
    }
    if (cname) { /* one call: its candidates, then the decision */
        ic_coll_args_t a;
        make_args(&a, only, p, n, elem, 0, ic_coll_reduces(only) ? commute : 1, counts);
        size_t bytes = only == IC_COLL_BARRIER
                           ? 0
                           : (a.counts ? ic_blocks_total(a.counts, p) : a.count) * elem;
        ic_plan_t *pls = calloc((size_t)k, sizeof(ic_plan_t));
        double *ts = calloc((size_t)k, sizeof(double));
        long priced = 0;
        int got = pls && ts ? ic_choose_plans(&a, c, q ? &node : NULL, q, elem, shape, nshape, k,
                                              pls, ts, &priced)
                            : 0;
        printf("%s of %zu B: the model's %d cheapest of %ld plans priced\n", ic_coll_name(only),
               bytes, got, priced);
        printf("%4s %12s  %s\n", "rank", "predicted_s", "plan");
        for (int i = 0; i < got; i++) {
            char text[IC_PLAN_TEXT_MAX];
            ic_plan_format(&pls[i], text, sizeof(text));
            printf("%4d %12.4g  %s\n", i + 1, ts[i], text);
        }
        free(pls);
        free(ts);
        ic_plan_t pl;
        double t = 0;
        char text[IC_PLAN_TEXT_MAX] = "(none)", src[1100];
        if (decide(&a, bytes, c, &node, q, elem, shape, nshape, tb, &pl, &t, src, sizeof(src)) == 0)
            ic_plan_format(&pl, text, sizeof(text));
        printf("decision: %s (predicted %.4g s), decided by %s\n", text, t, src);
        free(counts);
        return 0;
    }
    printf("%-22s %10s  %-40s %12s  %s\n", "collective", "bytes", "plan", "predicted_s", "source");
    for (int ci = 0; ci < IC_COLL_COUNT; ci++) {
        ic_coll_t coll = (ic_coll_t)ci;
        for (size_t bytes = 8; bytes <= ((size_t)16 << 20); bytes *= 8) {
            size_t elems = bytes / elem;
            if (coll == IC_COLL_BARRIER && bytes > 8)
                break;
            ic_coll_args_t a;
            make_args(&a, coll, p, elems, elem, 0, ic_coll_reduces(coll) ? commute : 1, counts);
            size_t call_bytes = coll == IC_COLL_BARRIER
                                    ? 0
                                    : (a.counts ? ic_blocks_total(a.counts, p) : a.count) * elem;
            double t = 0;
            ic_plan_t pl;
            char text[IC_PLAN_TEXT_MAX] = "(none)", src[1100];
            if (decide(&a, call_bytes, c, &node, q, elem, shape, nshape, tb, &pl, &t, src,
                       sizeof(src)) == 0)
                ic_plan_format(&pl, text, sizeof(text));
            printf("%-22s %10zu  %-40s %12.4g  %s\n", ic_coll_name(coll),
                   coll == IC_COLL_BARRIER ? (size_t)0 : bytes, text, t, src);
        }
    }
    free(counts);
    return 0;
}

/* COLL and PLAN of schedule and predict; 0, or the exit status. */
static int find_plan(const char *cname, const char *ptext, ic_coll_t *coll, ic_plan_t *pl)
{
    if (ic_coll_find(cname, coll)) {
        fprintf(stderr, "intercom-info: unknown collective '%s'\n", cname);
        return 2;
    }
    const char *why = NULL;
    if (ic_plan_parse(*coll, ptext, pl, &why) != 0) {
        fprintf(stderr, "intercom-info: '%s' is not a plan of %s: %s\n", ptext, cname, why);
        return 2;
    }
    return 0;
}

/* The call of schedule and predict: plan PTEXT of collective CNAME for
 * n elements on p ranks, its parameters resolved under c; *counts is
 * allocated (the caller frees it).  0, or the exit status. */
static int plan_call(const char *cname, const char *ptext, int p, size_t n, size_t elem, int root,
                     int commute, const ic_cost_params_t *c, ic_plan_t *pl, ic_coll_args_t *a,
                     size_t **counts)
{
    ic_coll_t coll;
    int rc = find_plan(cname, ptext, &coll, pl);
    if (rc)
        return rc;
    *counts = calloc((size_t)p, sizeof(size_t));
    if (!*counts)
        return 1;
    make_args(a, coll, p, n, elem, root, ic_coll_reduces(coll) ? commute : 1, *counts);
    const char *why = NULL;
    if (!ic_plan_usable(pl, a, &why)) {
        fprintf(stderr, "intercom-info: %s cannot serve this call: %s\n", ptext, why);
        return 1;
    }
    ic_model_t m = ic_model_of(c, elem);
    ic_plan_resolve(pl, a, &m);
    return 0;
}

static int cmd_schedule(const char *cname, const char *ptext, int p, size_t n, size_t elem,
                        int root, int rank, const ic_cost_params_t *c)
{
    ic_plan_t pl;
    ic_coll_args_t a;
    size_t *counts = NULL;
    int rc = plan_call(cname, ptext, p, n, elem, root, 1, c, &pl, &a, &counts);
    for (int r = 0; r < p && rc == 0; r++) {
        if (rank >= 0 && r != rank)
            continue;
        a.rank = r;
        ic_sched_t s;
        ic_sched_init(&s, r, p);
        if (ic_plan_build(&s, &pl, &a) != 0 || ic_sched_ok(&s) != 0) {
            fprintf(stderr, "intercom-info: building the schedule failed\n");
            rc = 1;
        } else {
            ic_sched_dump(&s, stdout);
        }
        ic_sched_free(&s);
    }
    free(counts);
    return rc;
}

static int cmd_predict(const char *cname, const char *ptext, int p, size_t n, size_t elem, int root,
                       int commute, const ic_cost_params_t *c)
{
    ic_plan_t pl;
    ic_coll_args_t a;
    size_t *counts = NULL;
    int rc = plan_call(cname, ptext, p, n, elem, root, commute, c, &pl, &a, &counts);
    if (rc == 0) {
        char text[IC_PLAN_TEXT_MAX];
        ic_plan_format(&pl, text, sizeof(text));
        ic_model_t m = ic_model_of(c, elem);
        double closed = ic_plan_cost(&pl, &a, &m);
        double eval = ic_predict_plan(&pl, &a, c, elem);
        printf("%s %s p=%d bytes=%zu closed_form_s=%.6g evaluated_s=%.6g\n", cname, text, p,
               n * elem, closed, eval);
        rc = eval < 0;
    }
    free(counts);
    return rc;
}

/* Print a table's message (the diagnostic callback). */
static void print_diag(void *f, const char *msg)
{
    fprintf(f, "%s\n", msg);
}

/* Read and parse the table at path, its messages to out: 0, 1 (refused)
 * or 2 (cannot be read). */
static int load_table(const char *path, FILE *out, ic_table_t **t)
{
    char *text;
    size_t len;
    *t = NULL;
    if (ic_table_read_file(path, &text, &len, print_diag, out) != 0)
        return 2;
    *t = ic_table_parse(text, len, path, print_diag, out);
    free(text);
    return *t ? 0 : 1;
}

static int cmd_check(const char *path)
{
    ic_table_t *t;
    int rc = load_table(path, stdout, &t);
    if (rc == 1)
        printf("%s: refused: nothing of it is used (the model decides every call)\n", path);
    if (rc)
        return rc;
    const ic_table_header_t *h = ic_table_header(t);
    printf("%s: %zu rules kept, %zu lines skipped, %zu problems", path, ic_table_rule_count(t),
           ic_table_skipped(t), ic_table_problems(t));
    const struct {
        const char *name;
        double v;
    } terms[] = {{"alpha", h->alpha},           {"beta", h->beta},          {"gamma", h->gamma},
                 {"overhead", h->overhead},     {"beta-x", h->beta_x},      {"x-min", h->x_min},
                 {"node-alpha", h->node_alpha}, {"node-beta", h->node_beta}};
    const char *sep = "; model";
    for (size_t i = 0; i < sizeof(terms) / sizeof(terms[0]); i++)
        if (terms[i].v == terms[i].v) { /* not NaN: present */
            printf("%s %s %g", sep, terms[i].name, terms[i].v);
            sep = ",";
        }
    if (h->nodes)
        printf("; %d nodes", h->nodes);
    if (h->ranks_per_node)
        printf("; %d ranks per node", h->ranks_per_node);
    const char *texts[][2] = {
        {"machine", h->machine}, {"mpi", h->mpi}, {"date", h->date}, {"made by", h->made_by}};
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
        if (texts[i][1])
            printf("; %s: %s", texts[i][0], texts[i][1]);
    printf("\n");
    rc = ic_table_problems(t) ? 1 : 0;
    ic_table_free(t);
    return rc;
}

/* Which rule of the table at path decides the call (every collective, or
 * cname's) of n elements of elem bytes on p ranks, q of them per node. */
static int cmd_table(const char *path, const char *cname, int p, size_t n, size_t elem, int q,
                     int commute)
{
    ic_coll_t only = IC_COLL_COUNT;
    if (cname && ic_coll_find(cname, &only)) {
        fprintf(stderr, "intercom-info: unknown collective '%s'\n", cname);
        return 2;
    }
    char found[1024];
    if (!strcmp(path, "auto")) { /* the table the library would read */
        path = ic_tuning_path(found, sizeof(found));
        if (!path) {
            printf("no tuning table (INTERCOM_TUNING_FILE unset or none, no %s): the model "
                   "decides every call\n",
                   ic_tuning_default_path());
            return 0;
        }
        printf("the library's table: %s (%s)\n", path,
               getenv("INTERCOM_TUNING_FILE") ? "INTERCOM_TUNING_FILE" : "the installed default");
    }
    ic_table_t *t;
    int rc = load_table(path, stderr, &t);
    if (rc)
        return rc;
    size_t *counts = calloc((size_t)p, sizeof(size_t));
    if (!counts) {
        ic_table_free(t);
        return 1;
    }
    printf("%s: p=%d ranks-per-node=", path, p);
    printf(q ? "%d" : "unknown", q);
    printf(" op=%s\n", commute ? "commutative" : "noncommutative");
    printf("%-22s %12s  %-8s %s\n", "collective", "bytes", "line", "plan");
    for (int ci = 0; ci < IC_COLL_COUNT; ci++) {
        ic_coll_t coll = (ic_coll_t)ci;
        if (cname && coll != only)
            continue;
        ic_coll_args_t a;
        make_args(&a, coll, p, n, elem, 0, ic_coll_reduces(coll) ? commute : 1, counts);
        /* the bytes the library's selector sees: the whole vector, all
         * blocks together, none for the barrier */
        size_t bytes = 0;
        if (coll != IC_COLL_BARRIER)
            bytes = (a.counts ? ic_blocks_total(a.counts, p) : a.count) * elem;
        ic_plan_t pl;
        int line = ic_table_lookup(t, &a, bytes, q, &pl);
        char text[IC_PLAN_TEXT_MAX] = "no rule: the model decides", where[16] = "-";
        if (line) {
            ic_plan_format(&pl, text, sizeof(text));
            snprintf(where, sizeof(where), "%d", line);
        }
        printf("%-22s %12zu  %-8s %s\n", ic_coll_name(coll), bytes, where, text);
    }
    free(counts);
    ic_table_free(t);
    return 0;
}

static int cmd_algorithms(const char *cname)
{
    ic_coll_t coll;
    if (ic_coll_find(cname, &coll)) {
        fprintf(stderr, "intercom-info: unknown collective '%s'\n", cname ? cname : "");
        return 2;
    }
    for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++)
        if (alg->coll == coll)
            printf("%s\n", alg->name);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("%s", "no command");
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        help(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        char found[1024];
        const char *tp = ic_tuning_path(found, sizeof(found));
        printf("intercom-info (InterCom) %s\n", PACKAGE_VERSION);
        printf("built with: MPI %s, compiler %s, hwloc %s\n", IC_BUILD_MPI, IC_BUILD_CC,
               IC_BUILD_HWLOC);
        printf("tuning table: %s%s\n", tp ? tp : "none (the model decides)",
               !tp                              ? ""
               : getenv("INTERCOM_TUNING_FILE") ? " (INTERCOM_TUNING_FILE)"
                                                : " (the installed default)");
        return 0;
    }
    if (!strcmp(cmd, "--algorithms"))
        return argc == 3 ? cmd_algorithms(argv[2])
                         : usage_error("%s", "--algorithms needs one collective");
    if (!strcmp(cmd, "--check"))
        return argc == 3 ? cmd_check(argv[2]) : usage_error("%s", "--check needs one file");
    unsigned cbit = !strcmp(cmd, "choose")     ? C_CHOOSE
                    : !strcmp(cmd, "schedule") ? C_SCHEDULE
                    : !strcmp(cmd, "predict")  ? C_PREDICT
                    : !strcmp(cmd, "table")    ? C_TABLE
                                               : 0;
    if (!cbit && strcmp(cmd, "list") != 0)
        return usage_error("unknown command '%s'", cmd);
    int p = 8, root = 0, rank = -1, commute = 1;
    size_t elem = 1, n = 0;
    ic_cost_params_t c;
    ic_cost_defaults(&c);
    const char *pos[3] = {NULL, NULL, NULL};
    int npos = 0, x_min_set = 0, overhead_set = 0, shape[IC_PLAN_MAXDIMS], nshape = 0, q = 0;
    int model_set = 0, ncand = 10, n_set = 0, chunk_set = 0, beta_x_set = 0;
    const char *table = NULL;
    for (int i = 2; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            help(stdout);
            return 0;
        }
        if (o[0] != '-') {
            if (!(cbit & (C_CHOOSE | C_SCHEDULE | C_PREDICT | C_TABLE)) || npos == 2 ||
                (cbit == C_CHOOSE && npos == 1))
                return usage_error("unexpected argument '%s'", o);
            pos[npos++] = o;
            continue;
        }
        int k = -1, named = 0; /* the entry of this option for this command */
        for (int j = 0; j < NOPT && k < 0; j++) {
            if (strcmp(o, options[j].opt) != 0)
                continue;
            named = 1;
            if (options[j].cmds & cbit)
                k = j;
        }
        if (!named)
            return usage_error("unknown option '%s'", o);
        if (k < 0)
            return usage_error("option '%s' does not apply to this command", o);
        const char *v = NULL;
        if (options[k].arg) {
            if (i + 1 >= argc)
                return usage_error("option '%s' needs a value", o);
            v = argv[++i];
        }
        if (!strcmp(o, "-p"))
            p = atoi(v);
        else if (!strcmp(o, "-n"))
            n = (size_t)strtoull(v, NULL, 10), n_set = 1;
        else if (!strcmp(o, "--table"))
            table = v;
        else if (!strcmp(o, "--candidates"))
            ncand = atoi(v);
        else if (!strcmp(o, "--root"))
            root = atoi(v);
        else if (!strcmp(o, "--rank"))
            rank = atoi(v);
        else if (!strcmp(o, "--alpha"))
            c.alpha = atof(v), model_set |= IC_KEEP_ALPHA;
        else if (!strcmp(o, "--beta"))
            c.beta = atof(v), model_set |= IC_KEEP_BETA;
        else if (!strcmp(o, "--gamma"))
            c.gamma = atof(v), model_set |= IC_KEEP_GAMMA;
        else if (!strcmp(o, "--beta-x"))
            c.beta_x = atof(v), beta_x_set = 1;
        else if (!strcmp(o, "--x-min"))
            c.x_min = (size_t)strtoull(v, NULL, 10), x_min_set = 1;
        else if (!strcmp(o, "--overhead"))
            c.overhead = atof(v), overhead_set = 1;
        else if (!strcmp(o, "--chunk"))
            c.chunk = (size_t)strtoull(v, NULL, 10), chunk_set = 1;
        else if (!strcmp(o, "--elem"))
            elem = (size_t)strtoull(v, NULL, 10);
        else if (!strcmp(o, "--noncommutative"))
            commute = 0;
        else if (!strcmp(o, "--ranks-per-node"))
            q = atoi(v);
        else if (!strcmp(o, "--mesh")) {
            for (const char *q = v; *q;) {
                char *end;
                long d = strtol(q, &end, 10);
                if (end == q || d < 1 || nshape == IC_PLAN_MAXDIMS || (*end && *end != 'x'))
                    return usage_error("--mesh '%s': expected dimensions like 16x32", v);
                shape[nshape++] = (int)d;
                q = *end ? end + 1 : end;
            }
        }
    }
    if (p < 1 || elem < 1 || root < 0 || root >= p) {
        fprintf(stderr, "intercom-info: need p >= 1, elem >= 1, 0 <= root < p\n");
        return 2;
    }
    choose_table_t tb = {NULL, NULL, 0};
    char found[1024];
    if (cbit == C_CHOOSE && table) {
        tb.path = table;
        if (!strcmp(table, "auto") && !(tb.path = ic_tuning_path(found, sizeof(found))))
            printf("no tuning table (INTERCOM_TUNING_FILE unset or none, no %s): the model "
                   "decides\n",
                   ic_tuning_default_path());
        int rc = tb.path ? load_table(tb.path, stderr, &tb.t) : 0;
        if (rc)
            return rc;
        if (tb.t) { /* its measured model, as the library (table.h: ic_table_model) */
            const ic_table_header_t *h = ic_table_header(tb.t);
            /* rules for --ranks-per-node, else for the table's machine */
            tb.rpn = q ? q : h->nodes == 1 ? p : h->ranks_per_node;
            unsigned keep = model_set | (overhead_set ? IC_KEEP_OVERHEAD : 0) |
                            (c.beta_x > 0 ? IC_KEEP_BETA_X : 0) | (x_min_set ? IC_KEEP_X_MIN : 0);
            if (ic_table_level(tb.t) >= 0) {
                ic_table_model(tb.t, keep, &c);
                overhead_set = x_min_set = 1; /* set now: not derived again below */
            }
        }
    }
    if (cbit == C_CHOOSE && (npos == 1) != n_set) {
        ic_table_free(tb.t);
        return usage_error("%s", "choose takes COLL and -n COUNT together, or neither");
    }
    if (ncand < 1 || ncand > 1000) {
        ic_table_free(tb.t);
        return usage_error("%s", "--candidates must be 1..1000");
    }
    if (cbit == C_CHOOSE && q >= p && p > 1 && !tb.t) {
        /* every rank on one node: the library's one model within a node
         * (src/context.c: pick_model), the figures given set on it (as
         * INTERCOM_ALPHA, ... set both of the library's models: src/env.c) */
        ic_cost_params_t node;
        ic_cost_defaults_node(&node);
        if (model_set & IC_KEEP_ALPHA)
            node.alpha = c.alpha;
        if (model_set & IC_KEEP_BETA)
            node.beta = c.beta;
        if (model_set & IC_KEEP_GAMMA)
            node.gamma = c.gamma;
        ic_cost_derive(&node, 1);
        if (beta_x_set)
            node.beta_x = c.beta_x;
        if (x_min_set)
            node.x_min = c.x_min;
        if (overhead_set)
            node.overhead = c.overhead;
        if (chunk_set)
            node.chunk = c.chunk;
        c = node;
        x_min_set = overhead_set = 1; /* set now: not derived again below */
        q = 0;
    }
    ic_cost_params_t derived = c; /* as the library across nodes */
    ic_cost_derive(&derived, 0);
    if (c.beta_x <= 0)
        c.beta_x = derived.beta_x;
    if (!x_min_set)
        c.x_min = derived.x_min;
    if (!overhead_set)
        c.overhead = derived.overhead;
    if (!strcmp(cmd, "list"))
        return cmd_list();
    if (cbit == C_CHOOSE) {
        long sp = 1;
        for (int i = 0; i < nshape; i++)
            sp *= shape[i];
        if (nshape && sp != p) {
            fprintf(stderr, "intercom-info: --mesh has %ld ranks, -p %d\n", sp, p);
            return 2;
        }
        int rc = cmd_choose(p, &c, elem, commute, nshape ? shape : NULL, nshape, q,
                            npos ? pos[0] : NULL, n, &tb, ncand);
        ic_table_free(tb.t);
        return rc;
    }
    if (cbit == C_TABLE)
        return npos >= 1 ? cmd_table(pos[0], pos[1], p, n, elem, q, commute)
                         : usage_error("%s", "table needs FILE");
    if (npos != 2)
        return usage_error("%s", "schedule and predict need COLL and PLAN");
    if (cbit == C_PREDICT)
        return cmd_predict(pos[0], pos[1], p, n, elem, root, commute, &c);
    return cmd_schedule(pos[0], pos[1], p, n, elem, root, rank, &c);
}
