/*
 * intercom-info -- what InterCom has and what it would choose.
 *
 *   intercom-info list                      every registered algorithm
 *   intercom-info choose [OPTIONS]          the selector's pick per
 *                                           collective and size
 *   intercom-info schedule COLL ALG [OPTIONS]   one rank's (or every
 *                                           rank's) schedule
 *   intercom-info --help | --version
 *
 * `intercom-info --help` describes every option (the table `options`
 * below is the one list: the parser and the help both read it; the man
 * page is generated from the help).  No MPI is needed: this runs the
 * schedule builders and the cost model.
 */
#include "config.h"
#include "algorithms.h"
#include "choose.h"
#include "cost.h"
#include "help.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { C_CHOOSE = 1 << 0, C_SCHEDULE = 1 << 1 };

/* Every option: name, argument, the commands it applies to, and what it
 * means.  "%D" in a description is replaced by the built-in default the
 * tool prints from the cost model (see defaults_text). */
static const struct {
    const char *opt, *arg;
    unsigned cmds;
    const char *help;
} options[] = {
    {"-p", "P", C_CHOOSE | C_SCHEDULE, "number of ranks (default 8)"},
    {"--elem", "BYTES", C_CHOOSE | C_SCHEDULE,
     "bytes per element: the selector's unit of messages and segments (default 1)"},
    {"--alpha", "S", C_CHOOSE,
     "start-up time of a message in seconds (default %D; the library's INTERCOM_ALPHA)"},
    {"--beta", "S_PER_BYTE", C_CHOOSE,
     "transfer time per byte in seconds (default %D; INTERCOM_BETA)"},
    {"--gamma", "S_PER_BYTE", C_CHOOSE,
     "time per byte of a local reduction in seconds (default %D; INTERCOM_GAMMA)"},
    {"--beta-x", "S_PER_BYTE", C_CHOOSE,
     "time per byte and direction when two ranks exchange messages both ways in one round "
     "(halving and doubling steps, the ring at p = 2); default twice --beta, as the library "
     "across nodes (INTERCOM_BETA_EXCHANGE)"},
    {"--x-min", "BYTES", C_CHOOSE,
     "--beta-x applies to exchanged messages of at least BYTES; shorter ones go both ways at "
     "--beta (default 65536; INTERCOM_EXCHANGE_MIN)"},
    {"--overhead", "S", C_CHOOSE,
     "LogGP's sender overhead o in seconds, the part of alpha that keeps the sender busy; "
     "sets the k-nomial broadcast's radix (default alpha / 8; INTERCOM_OVERHEAD)"},
    {"--burst", "BYTES", C_CHOOSE,
     "token bucket of rate-limited links: a broadcast or reduce whose busiest port moves at "
     "most BYTES is priced by that port's bytes (default 0: none; INTERCOM_BURST)"},
    {"--noncommutative", NULL, C_CHOOSE,
     "price the reductions for a non-commutative operation: only algorithms that keep rank "
     "order are candidates"},
    {"-n", "COUNT", C_SCHEDULE,
     "elements of the whole vector (bcast, reduce, allreduce: the message; the others: p "
     "blocks of COUNT/p)"},
    {"--root", "R", C_SCHEDULE, "root of the rooted collectives (default 0)"},
    {"--rank", "R", C_SCHEDULE, "print only rank R's schedule (default: every rank's)"},
};
#define NOPT ((int)(sizeof(options) / sizeof(options[0])))

/* The built-in default of a cost parameter named by option `opt`. */
static void defaults_text(const char *opt, char *buf, size_t size)
{
    ic_cost_params_t c;
    ic_cost_defaults(&c);
    double v = !strcmp(opt, "--alpha") ? c.alpha : !strcmp(opt, "--beta") ? c.beta : c.gamma;
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
               "       intercom-info choose [OPTIONS]\n"
               "       intercom-info schedule COLL ALG -n COUNT [OPTIONS]\n"
               "       intercom-info --help | --version\n"
               "\n"
               "commands:\n");
    ic_help_item(f, "list",
                 "every registered algorithm: collective, name, restrictions (commutative "
                 "operations only, packed blocks), description");
    ic_help_item(f, "choose",
                 "for each collective and message size (8 B to 16 MiB, x8), the algorithm the "
                 "cost-model selector picks and its predicted time in seconds: the decision the "
                 "library makes at run time with the same parameters");
    ic_help_item(f, "schedule COLL ALG",
                 "print the schedule algorithm ALG builds for collective COLL (names as in "
                 "`intercom-info list`): rounds of sends, receives, reductions and copies per "
                 "rank");
    ic_help_item(f, "--help, -h", "this help, then exit 0");
    ic_help_item(f, "--version", "the version, then exit 0");
    fprintf(f, "\n"
               "options of choose:\n");
    print_options(f, C_CHOOSE);
    fprintf(f, "\noptions of schedule:\n");
    print_options(f, C_SCHEDULE);
    fprintf(f, "\nNo MPI is needed: the tool runs InterCom's schedule builders and cost model.\n"
               "Exit status: 0, 1 when a schedule cannot be built, 2 for a usage error.\n");
}

static int usage_error(const char *fmt, const char *what)
{
    fprintf(stderr, "intercom-info: ");
    fprintf(stderr, fmt, what);
    fprintf(stderr, " (intercom-info --help describes the commands and options)\n");
    return 2;
}

static int is_reduction(ic_coll_t c)
{
    return c == IC_COLL_REDUCE || c == IC_COLL_ALLREDUCE || c == IC_COLL_REDUCE_SCATTER ||
           c == IC_COLL_REDUCE_SCATTER_BLOCK;
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
    a->units_match = 1;
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
    printf("%-22s %-18s %-26s %s\n", "collective", "algorithm", "restrictions", "description");
    for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++) {
        char r[64] = "";
        if (!(alg->flags & IC_ALG_KEEPS_ORDER))
            strcat(r, "commutative-op ");
        if (alg->flags & IC_ALG_NEEDS_PACKED)
            strcat(r, "packed-blocks");
        if (!*r)
            strcpy(r, "-");
        printf("%-22s %-18s %-26s %s\n", ic_coll_name(alg->coll), alg->name, r, alg->description);
    }
    return 0;
}

static int cmd_choose(int p, ic_cost_params_t *c, size_t elem, int commute)
{
    size_t *counts = calloc((size_t)p, sizeof(size_t));
    if (!counts)
        return 1;
    printf("p=%d alpha=%.3g s beta=%.3g s/B beta_x=%.3g s/B (exchanges of %zu B and more) "
           "gamma=%.3g s/B element=%zu B overhead=%.3g s burst=%zu B%s\n",
           p, c->alpha, c->beta, c->beta_x, c->x_min, c->gamma, elem, c->overhead, c->burst,
           commute ? "" : " non-commutative op");
    printf("%-22s %10s  %-18s %12s\n", "collective", "bytes", "algorithm", "predicted_s");
    for (int ci = 0; ci < IC_COLL_COUNT; ci++) {
        ic_coll_t coll = (ic_coll_t)ci;
        for (size_t bytes = 8; bytes <= ((size_t)16 << 20); bytes *= 8) {
            size_t elems = bytes / elem;
            if (coll == IC_COLL_BARRIER && bytes > 8)
                break;
            ic_coll_args_t a;
            make_args(&a, coll, p, elems, elem, 0, is_reduction(coll) ? commute : 1, counts);
            double t = 0;
            const ic_algorithm_t *alg = ic_choose(&a, c, elem, &t);
            printf("%-22s %10zu  %-18s %12.4g\n", ic_coll_name(coll),
                   coll == IC_COLL_BARRIER ? (size_t)0 : bytes, alg ? alg->name : "(none)", t);
        }
    }
    free(counts);
    return 0;
}

static int find_coll(const char *name, ic_coll_t *out)
{
    for (int ci = 0; ci < IC_COLL_COUNT; ci++)
        if (strcmp(ic_coll_name((ic_coll_t)ci), name) == 0) {
            *out = (ic_coll_t)ci;
            return 0;
        }
    return -1;
}

static int cmd_schedule(const char *cname, const char *aname, int p, size_t n, size_t elem,
                        int root, int rank)
{
    ic_coll_t coll;
    if (find_coll(cname, &coll)) {
        fprintf(stderr, "intercom-info: unknown collective '%s'\n", cname);
        return 2;
    }
    const ic_algorithm_t *alg = ic_alg_find(coll, aname);
    if (!alg) {
        fprintf(stderr, "intercom-info: no algorithm '%s' for %s\n", aname, cname);
        return 2;
    }
    size_t *counts = calloc((size_t)p, sizeof(size_t));
    if (!counts)
        return 1;
    for (int r = 0; r < p; r++) {
        if (rank >= 0 && r != rank)
            continue;
        ic_coll_args_t a;
        make_args(&a, coll, p, n, elem, root, 1, counts);
        a.rank = r;
        ic_sched_t s;
        ic_sched_init(&s, r, p);
        if (alg->build(&s, &a) != 0 || ic_sched_ok(&s) != 0) {
            fprintf(stderr, "intercom-info: building the schedule failed\n");
            ic_sched_free(&s);
            free(counts);
            return 1;
        }
        ic_sched_dump(&s, stdout);
        ic_sched_free(&s);
    }
    free(counts);
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
        printf("intercom-info (InterCom) %s\n", PACKAGE_VERSION);
        return 0;
    }
    unsigned cbit = !strcmp(cmd, "choose") ? C_CHOOSE : !strcmp(cmd, "schedule") ? C_SCHEDULE : 0;
    if (!cbit && strcmp(cmd, "list") != 0)
        return usage_error("unknown command '%s'", cmd);
    int p = 8, root = 0, rank = -1, commute = 1;
    size_t elem = 1, n = 0;
    ic_cost_params_t c;
    ic_cost_defaults(&c);
    const char *pos[3] = {NULL, NULL, NULL};
    int npos = 0, x_min_set = 0, overhead_set = 0;
    for (int i = 2; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            help(stdout);
            return 0;
        }
        if (o[0] != '-') {
            if (cbit != C_SCHEDULE || npos == 2)
                return usage_error("unexpected argument '%s'", o);
            pos[npos++] = o;
            continue;
        }
        int k = -1;
        for (int j = 0; j < NOPT && k < 0; j++)
            if (!strcmp(o, options[j].opt))
                k = j;
        if (k < 0)
            return usage_error("unknown option '%s'", o);
        if (!(options[k].cmds & cbit))
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
            n = (size_t)strtoull(v, NULL, 10);
        else if (!strcmp(o, "--root"))
            root = atoi(v);
        else if (!strcmp(o, "--rank"))
            rank = atoi(v);
        else if (!strcmp(o, "--alpha"))
            c.alpha = atof(v);
        else if (!strcmp(o, "--beta"))
            c.beta = atof(v);
        else if (!strcmp(o, "--gamma"))
            c.gamma = atof(v);
        else if (!strcmp(o, "--beta-x"))
            c.beta_x = atof(v);
        else if (!strcmp(o, "--x-min"))
            c.x_min = (size_t)strtoull(v, NULL, 10), x_min_set = 1;
        else if (!strcmp(o, "--overhead"))
            c.overhead = atof(v), overhead_set = 1;
        else if (!strcmp(o, "--burst"))
            c.burst = (size_t)strtoull(v, NULL, 10);
        else if (!strcmp(o, "--elem"))
            elem = (size_t)strtoull(v, NULL, 10);
        else if (!strcmp(o, "--noncommutative"))
            commute = 0;
    }
    if (p < 1 || elem < 1 || root < 0 || root >= p) {
        fprintf(stderr, "intercom-info: need p >= 1, elem >= 1, 0 <= root < p\n");
        return 2;
    }
    if (c.beta_x <= 0) /* as the library across nodes (src/env.c) */
        c.beta_x = 2 * c.beta;
    if (!x_min_set)
        c.x_min = 65536;
    if (!overhead_set) /* as the library across nodes */
        c.overhead = c.alpha / 8;
    if (!strcmp(cmd, "list"))
        return cmd_list();
    if (cbit == C_CHOOSE)
        return cmd_choose(p, &c, elem, commute);
    if (npos != 2)
        return usage_error("%s", "schedule needs COLL and ALG");
    return cmd_schedule(pos[0], pos[1], p, n, elem, root, rank);
}
