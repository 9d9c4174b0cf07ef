/*
 * cli.c -- the command line of intercom-bench and intercom-tune
 * (ic_bench_main; their main()s are intercom-bench.c and intercom-tune.c):
 * communication benchmarks, InterCom against the vendor MPI, and the
 * autotuner.
 *
 *   mpirun -n P intercom-bench SUBCOMMAND [OPTIONS]
 *   mpirun -n P intercom-tune [OPTIONS]     (= intercom-bench tune)
 *
 * Subcommands:
 *   pingpong   COMMS1 (hockney-comms1-comms2-pingpong): r_inf, n_1/2, t0, pi0
 *   exchange   COMMS2: the same for a simultaneous exchange
 *   loggp      LogGP signature by al-tawil-moritz-mpi-loggp: o_s, o_r, L, g, G
 *   comet      CoMet kernels (ganapati-1994-comet-benchmark)
 *   coll       every collective, vendor MPI against InterCom: a summary
 *              first, a verdict per size beyond noise, the cost model's
 *              prediction
 *   tune       the autotuner: writes a tuning table (tune.c)
 *   patterns   tan-strazdins-2002's Figures 2-6: every registered algorithm
 *              of allgather, allreduce, reduce_scatter_block against the
 *              vendor's, the split and the plain model (patterns.c)
 *   overlap    nonblocking collectives, vendor against InterCom: how much
 *              of a call hides behind computation (OSU's method), and
 *              InterCom's persistent calls against its blocking ones
 *              (overlap.c)
 * Run `intercom-bench --help` for the options.  The exit status is 0, 1 when
 * a verification failed (or a figure could not be drawn), 2 for a usage
 * error.
 */
#include "config.h"
#include "bench.h"
#include "help.h"
#include "intercom.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    S_PP = 1 << 0,
    S_EX = 1 << 1,
    S_LOGGP = 1 << 2,
    S_COMET = 1 << 3,
    S_COLL = 1 << 4,
    S_TUNE = 1 << 5,
    S_PAT = 1 << 6,
    S_OVL = 1 << 7,
    S_ALL = 0xff,
    S_CHART = 1 << 8 /* no MPI, options of its own (chart.c) */
};

static const struct {
    const char *name;
    unsigned bit;
    const char *what;
} commands[] = {
    {"pingpong", S_PP, "COMMS1 ping-pong: fit t = (n + n_1/2)/r_inf (r_inf, n_1/2, t0, pi0)"},
    {"exchange", S_EX, "COMMS2 exchange: the same fit for a simultaneous exchange"},
    {"loggp", S_LOGGP, "LogGP signature: o_s, o_r, L, g, G per send mode"},
    {"comet", S_COMET,
     "CoMet kernels: echo by hops, exchange, global ops, contention, "
     "overlap, matrix kernels"},
    {"coll", S_COLL,
     "collectives: vendor MPI against InterCom over a size sweep, a summary first (sizes where "
     "InterCom is faster or slower beyond noise, geometric mean of vendor time / InterCom "
     "time: above 1 InterCom is faster), each row's verdict, the cost model's prediction"},
    {"tune", S_TUNE,
     "the autotuner (also installed as intercom-tune): fit the model, measure the best "
     "candidate plans of every collective and size, write a tuning table (-o FILE)"},
    {"patterns", S_PAT,
     "tan-strazdins-2002's Figures 2-6: every registered algorithm (pattern) of allgather, "
     "allreduce and reduce_scatter_block next to the vendor's collective over the paper's n, "
     "measured against the split send/receive and the plain alpha-beta model fitted in the "
     "run; per pattern the median model error, per size the winner and whether the selector "
     "picks it"},
    {"overlap", S_OVL,
     "nonblocking collectives (allreduce, bcast, allgather, reduce_scatter_block, reduce by "
     "default), the vendor's MPI_I* against InterCom's IC_I*, as OSU's nonblocking benchmarks "
     "measure them: per size the call alone (t_pure), a compute loop sized to t_pure alone "
     "(t_compute) and both together (t_overall), overlap % = 100 max(0, min(1, 1 - (t_overall "
     "- t_compute) / t_pure)); a summary first (InterCom's and the vendor's mean overlap, "
     "vendor/InterCom time); then InterCom's persistent calls (IC_<Coll>_init, IC_Start, "
     "IC_Wait) against its blocking ones and the vendor's"},
    {"chart", S_CHART,
     "time chart of one call from INTERCOM_TRACE files, the cost model's beside it (no MPI "
     "launch: intercom-bench chart --help)"},
};

static const struct {
    const char *opt, *arg;
    unsigned cmds;
    const char *help;
} options[] = {
    {"--csv", NULL, S_ALL, "CSV output (tables separated by '# table:' lines)"},
    {"--json", NULL, S_ALL, "JSON output"},
    {"-o", "FILE", S_TUNE,
     "the tuning table to write (default intercom-tuning.tbl; README, \"Tuning tables\")"},
    {"--quick", NULL, S_TUNE,
     "a short run: bcast, reduce, allreduce, allgather, reduce_scatter_block at 8 B..1 MiB (x8), "
     "3 model candidates, fewer repetitions (under two minutes at p = 4 on one node)"},
    {"--candidates", "K", S_TUNE,
     "measure the model's K cheapest plans (default 4, --quick 3; at most 16), besides "
     "every algorithm on one line (--quick: the cheapest) and the built-in choice"},
    {"--shapes", "N", S_TUNE,
     "also measure, on each of N two-dimensional mesh shapes (the model's favourites), the "
     "model's cheapest plan and its cheapest plan of ring steps (default 8, --quick 0; at most "
     "16): the model sees no network topology, so a shape whose lines follow the machine's "
     "rings or switches may win by far"},
    {"--refine", "N", S_TUNE,
     "up to N rounds of local search from the fastest plan: its neighbours (steps or "
     "shape reversed, two dimensions merged, one step's parameter -- radix, segment -- or "
     "algorithm changed) measured against it, the last round from a 1-D plan's parameter "
     "if none was (default 3, --quick 0; at most 8)"},
    {"--prune", "F", S_TUNE,
     "do not measure a candidate the fitted model prices above F times the fastest time "
     "measured so far at its point (default 3; 0: measure every one): the model is seldom "
     "that pessimistic, and such plans are the slowest to run (at 512 simulated ranks "
     "minutes of wall time for a call)"},
    {"--plot", "PREFIX", S_ALL & ~S_TUNE, "also draw figures PREFIX-*.png and .svg with gnuplot"},
    {"--sizes", "LIST", S_ALL & ~S_PAT,
     "message lengths, e.g. 16,1K,64K,1M (overrides --min/--max)"},
    {"--min", "BYTES", S_ALL & ~S_PAT,
     "shortest message of the sweep (default: the subcommand's, below)"},
    {"--max", "BYTES", S_ALL,
     "longest message of the sweep (default: the subcommand's, below; patterns: the longest "
     "whole vector, default 4M)"},
    {"--n", "LIST", S_PAT,
     "the paper's n, doubles: what each rank gives (allgather) or keeps (reduce_scatter_block), "
     "or the vector (allreduce); default 1,3,10,...,10000, then x4 up to the --max whole "
     "vector"},
    {"--split", "AS,AR,BS,BR", S_PAT,
     "the split send/receive model given (alpha_s, alpha_r in s; beta_s, beta_r in s/B, as "
     "loggp reports them) instead of measured"},
    {"--factor", "F", S_ALL & ~S_PAT,
     "ratio between consecutive lengths of the sweep (default: the subcommand's, below)"},
    {"--reps", "N", S_ALL, "exactly N timed repetitions per point"},
    {"--min-reps", "N", S_ALL, "at least N repetitions per point (default 5)"},
    {"--max-reps", "N", S_ALL, "at most N repetitions per point"},
    {"--time", "SECONDS", S_ALL, "time budget of one measured point (sets the repetitions)"},
    {"--warmup", "N", S_ALL,
     "untimed repetitions before each point (default 2; loggp 10; patterns 1 per variant)"},
    {"--label", "TEXT", S_ALL,
     "describe the run in the report header (default: $INTERCOM_BENCH_LABEL)"},
    {"--peer", "RANK", S_PP | S_EX | S_LOGGP, "partner of rank 0 (default: the last rank)"},
    {"--breakpoint", "LIST|auto|none", S_PP | S_EX | S_COLL | S_COMET | S_TUNE | S_PAT,
     "Hockney fits per region split at these lengths (default auto: from the data)"},
    {"--modes", "LIST", S_LOGGP, "send modes: send,ssend,isend,issend (default all)"},
    {"--kernels", "LIST", S_COMET,
     "kernels to run, comma-separated (default all): echo, exchange, bcast, gsum, barrier, "
     "contention, overlap, guard, shift, transpose, rowcol"},
    {"--ld", "LIST", S_COMET, "local matrix orders of the matrix kernels (default 16,64,256)"},
    {"--vec", "LIST", S_COMET, "DAXPY vector lengths of the overlap kernel"},
    {"--ops", "LIST", S_COLL | S_TUNE | S_PAT | S_OVL,
     "collectives to time (default all; patterns: allgather,allreduce,reduce_scatter_block; "
     "overlap: allreduce, bcast, allgather, reduce_scatter_block, reduce): "
     "bcast,reduce,allreduce,..."},
    {"--root", "RANK", S_COLL | S_OVL, "root of the rooted collectives (default 0)"},
    {"--test-every", "N", S_OVL,
     "call MPI_Test on the request N times, evenly spread through the compute loop (default "
     "0: never); without a progress thread that is how a program moves a nonblocking call on"},
    {"--type", "T", S_COLL | S_TUNE | S_PAT | S_OVL,
     "element type int (default; double with --table2 and patterns), long, float"},
    {"--table2", NULL, S_COLL, "mitra-1995 Table 2: bcast and allreduce at 16 B..1 MiB"},
    {"--algorithms", NULL, S_COLL,
     "time every registered algorithm (IC_Set_algorithm), and report each point's regret: "
     "the automatic choice's time over the fastest variant's"},
    {"--tuned", "FILE", S_COLL,
     "also time the automatic choice under the tuning table FILE (IC_Tuning_load), side by "
     "side with the choice without it, and report both regrets"},
    {"--block", "N", S_COLL,
     "the two libraries take turns every N calls (default 1): each runs in its own steady "
     "state on rate-limited links"},
    {"--settle", "SECONDS", S_COLL | S_TUNE | S_PAT,
     "idle time before each timed call, so rate-limited links (token buckets) refill and "
     "one library's call does not pay for the other's (default 0)"},
    {"--spread", "PCT", S_COLL,
     "repeat a point, in rounds of --time, until both libraries' medians are known to within "
     "PCT % (1.57 IQR / sqrt(reps), about a 95 % interval; default " IC_STR(
         IC_COLL_SPREAD) ", at "
                         "most " IC_STR(IC_COLL_ROUNDS) " rounds); a point still less certain is "
                                                        "marked noise and "
                                                        "left out of the summary's mean"},
    {"--selector-fit", NULL, S_COLL,
     "let InterCom's selector use this run's fitted alpha, beta, gamma"},
};

#define NOPT ((int)(sizeof(options) / sizeof(options[0])))
#define NCMD ((int)(sizeof(commands) / sizeof(commands[0])))

static const char *prog = "intercom-bench"; /* in messages */

static void usage(FILE *f, unsigned only)
{
    if (only == S_TUNE)
        fprintf(f, "intercom-tune -- measure this machine and write InterCom's tuning table\n"
                   "\n"
                   "usage: mpirun -n P intercom-tune [-o FILE] [OPTIONS]\n"
                   "       intercom-tune --help | --version\n"
                   "\n"
                   "It fits alpha and beta (COMMS1 ping-pong between ranks 0 and P-1), the\n"
                   "exchange terms (COMMS2 between the same ranks) and gamma (MPI_Reduce_local),\n"
                   "measures the gap of streams between the same ranks (the segments' seeds),\n"
                   "ranks every plan of each collective and size with the cost model, measures\n"
                   "the cheapest few, the algorithms on one line and the built-in choice side by\n"
                   "side (interleaved blocks of calls, medians of the slowest rank's time, every\n"
                   "result checked against the vendor's), and writes the winners as rules for P\n"
                   "ranks, with the fitted model in the header. The report prints, per winner,\n"
                   "the measured against the predicted time and the built-in choice's regret.\n"
                   "Under SimGrid's smpirun it tunes for the simulated platform.\n");
    else
        fprintf(f, "intercom-bench -- communication benchmarks, and InterCom against the vendor "
                   "MPI\n"
                   "\n"
                   "usage: mpirun -n P intercom-bench SUBCOMMAND [OPTIONS]\n"
                   "       intercom-bench --help | --version\n");
    fprintf(f, "\n%s:\n", only ? "commands" : "subcommands");
    for (int i = 0; i < NCMD && !only; i++)
        ic_help_item(f, commands[i].name, commands[i].what);
    ic_help_item(f, "help, --help, -h", "this help (no MPI launch needed), then exit 0");
    ic_help_item(f, "--version", "the version, then exit 0");
    fprintf(f, only ? "\noptions:\n"
                    : "\noptions (the subcommands they apply to in brackets, when not all):\n");
    for (int i = 0; i < NOPT; i++) {
        if (only && !(options[i].cmds & only))
            continue;
        char left[48], text[512];
        snprintf(left, sizeof(left), "%s%s%s", options[i].opt, options[i].arg ? " " : "",
                 options[i].arg ? options[i].arg : "");
        int k = snprintf(text, sizeof(text), "%s", options[i].help);
        if (options[i].cmds != S_ALL && !only) {
            const char *sep = " [";
            for (int c = 0; c < NCMD && k > 0 && k < (int)sizeof(text); c++)
                if (options[i].cmds & commands[c].bit) {
                    k +=
                        snprintf(text + k, sizeof(text) - (size_t)k, "%s%s", sep, commands[c].name);
                    sep = ", ";
                }
            if (k > 0 && k < (int)sizeof(text))
                snprintf(text + k, sizeof(text) - (size_t)k, "]");
        }
        ic_help_item(f, left, text);
    }
    if (only == S_TUNE)
        fprintf(f, "\nDefault: every collective at 8 B..4 MiB (x2), about 0.5 s per point. BYTES\n"
                   "accept K, M, G suffixes (powers of 1024). A progress line appears on stderr\n"
                   "when it is a terminal.\n"
                   "Exit status: 0, 1 when a result differed from the vendor's or the table could\n"
                   "not be written, 2 for a usage error.\n");
    else
        fprintf(f, "\nDefault lengths: pingpong, exchange 1 B..4 MiB (x2); loggp 16 B, 1 KiB, "
                   "10000 B, 64 KiB,\n256 KiB, 1 MiB; comet 0..16 KiB (x4); coll 8 B..2 MiB (x8); "
                   "tune 8 B..4 MiB (x2);\npatterns n = 1..10000 doubles and on to a 4 MiB "
                   "whole vector; overlap 8 B..4 MiB\n(x4, and 4 MiB).\nBYTES accept K, M, G "
                   "suffixes (powers of 1024). A progress line appears on\nstderr when it is "
                   "a terminal.\n"
                   "Exit status: 0, 1 when a verification failed (or a figure could not be "
                   "drawn),\n2 for a usage error.\n");
}

/* "64K" -> 65536.  Returns -1 on error. */
static long long parse_bytes(const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || v < 0)
        return -1;
    double m = 1;
    if (*end == 'k' || *end == 'K')
        m = 1024.0, end++;
    else if (*end == 'm' || *end == 'M')
        m = 1024.0 * 1024, end++;
    else if (*end == 'g' || *end == 'G')
        m = 1024.0 * 1024 * 1024, end++;
    if (*end == 'i')
        end++;
    if (*end == 'B' || *end == 'b')
        end++;
    v *= m;
    if (*end || v > (double)INT_MAX)
        return -1;
    return (long long)llround(v);
}

/* "16,1K,64K" -> array.  Returns the count, -1 on error. */
static int parse_list(const char *s, size_t **out)
{
    int n = 1;
    for (const char *q = s; *q; q++)
        n += *q == ',';
    size_t *v = malloc((size_t)n * sizeof(size_t));
    char *copy = strdup(s);
    int k = 0, rc = -1;
    if (!v || !copy)
        goto out;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        long long x = parse_bytes(tok);
        if (x < 0)
            goto out;
        v[k++] = (size_t)x;
    }
    if (k > 0) {
        *out = v;
        v = NULL;
        rc = k;
    }
out:
    free(v);
    free(copy);
    return rc;
}

static int parse_int(const char *s, int lo, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > INT_MAX)
        return -1;
    *out = (int)v;
    return 0;
}

static int sorted_positive(const size_t *v, int n)
{
    for (int i = 0; i < n; i++)
        if (v[i] == 0 || (i > 0 && v[i] <= v[i - 1]))
            return 0;
    return 1;
}

/* Parse argv[2..]; returns 0 or 2 (usage error, message printed on rank 0). */
static int parse(int argc, char **argv, unsigned cmd, ic_bench_opts_t *o, int rank)
{
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        int k = -1;
        for (int j = 0; j < NOPT && k < 0; j++)
            if (!strcmp(a, options[j].opt))
                k = j;
        if (k < 0 || !(options[k].cmds & cmd)) {
            if (rank == 0)
                fprintf(stderr, "%s: %s option '%s' (see %s --help)\n", prog,
                        k < 0 ? "unknown" : "inapplicable", a, prog);
            return 2;
        }
        const char *v = NULL;
        if (options[k].arg) {
            if (i + 1 >= argc) {
                if (rank == 0)
                    fprintf(stderr, "%s: %s needs %s\n", prog, a, options[k].arg);
                return 2;
            }
            v = argv[++i];
        }
        int bad = 0;
        if (!strcmp(a, "--csv"))
            o->format = IC_FMT_CSV;
        else if (!strcmp(a, "--json"))
            o->format = IC_FMT_JSON;
        else if (!strcmp(a, "--plot"))
            o->plot = v;
        else if (!strcmp(a, "--sizes")) {
            free(o->sizes);
            o->sizes = NULL;
            bad = (o->nsizes = parse_list(v, &o->sizes)) < 0;
        } else if (!strcmp(a, "--min"))
            bad = (o->min_size = parse_bytes(v)) < 0;
        else if (!strcmp(a, "--max"))
            bad = (o->max_size = parse_bytes(v)) < 0;
        else if (!strcmp(a, "--factor"))
            bad = !((o->factor = atof(v)) > 1.0);
        else if (!strcmp(a, "--reps"))
            bad = parse_int(v, 1, &o->reps);
        else if (!strcmp(a, "--min-reps"))
            bad = parse_int(v, 1, &o->min_reps);
        else if (!strcmp(a, "--max-reps"))
            bad = parse_int(v, 1, &o->max_reps);
        else if (!strcmp(a, "--time"))
            bad = !((o->budget = atof(v)) > 0);
        else if (!strcmp(a, "--warmup"))
            bad = parse_int(v, 0, &o->warmup);
        else if (!strcmp(a, "--block"))
            bad = parse_int(v, 1, &o->block);
        else if (!strcmp(a, "--spread"))
            bad = !((o->spread = atof(v)) > 0);
        else if (!strcmp(a, "--settle"))
            bad = !((o->settle = atof(v)) >= 0 && o->settle <= 10);
        else if (!strcmp(a, "--label"))
            o->label = v;
        else if (!strcmp(a, "--peer"))
            bad = parse_int(v, 1, &o->peer);
        else if (!strcmp(a, "--breakpoint")) {
            free(o->bps);
            o->bps = NULL;
            if (!strcmp(v, "auto"))
                o->nbps = -1;
            else if (!strcmp(v, "none"))
                o->nbps = 0;
            else
                bad = (o->nbps = parse_list(v, &o->bps)) < 0 || !sorted_positive(o->bps, o->nbps);
        } else if (!strcmp(a, "--n")) {
            free(o->nlist);
            o->nlist = NULL;
            bad =
                (o->nnlist = parse_list(v, &o->nlist)) < 0 || !sorted_positive(o->nlist, o->nnlist);
        } else if (!strcmp(a, "--split")) {
            char *end = (char *)v;
            for (int q = 0; q < 4 && !bad; q++) {
                errno = 0;
                o->split[q] = strtod(end, &end);
                bad = errno || !isfinite(o->split[q]) || *end != (q < 3 ? ',' : 0);
                end += q < 3 && !bad;
            }
            o->have_split = !bad;
        } else if (!strcmp(a, "--modes"))
            o->modes = v;
        else if (!strcmp(a, "--kernels"))
            o->kernels = v;
        else if (!strcmp(a, "--ld")) {
            free(o->dims);
            o->dims = NULL;
            bad = (o->ndims = parse_list(v, &o->dims)) < 0;
        } else if (!strcmp(a, "--vec")) {
            free(o->vecs);
            o->vecs = NULL;
            bad = (o->nvecs = parse_list(v, &o->vecs)) < 0;
        } else if (!strcmp(a, "--ops"))
            o->ops = v;
        else if (!strcmp(a, "--root"))
            bad = parse_int(v, 0, &o->root);
        else if (!strcmp(a, "--test-every"))
            bad = parse_int(v, 0, &o->test_every) || o->test_every > 1000000;
        else if (!strcmp(a, "--type"))
            o->type = v;
        else if (!strcmp(a, "--table2"))
            o->table2 = 1;
        else if (!strcmp(a, "--algorithms"))
            o->algorithms = 1;
        else if (!strcmp(a, "--tuned"))
            o->tuned = v;
        else if (!strcmp(a, "--selector-fit"))
            o->selector_fit = 1;
        else if (!strcmp(a, "-o"))
            o->output = v;
        else if (!strcmp(a, "--quick"))
            o->quick = 1;
        else if (!strcmp(a, "--candidates"))
            bad = parse_int(v, 1, &o->candidates) || o->candidates > 16;
        else if (!strcmp(a, "--shapes"))
            bad = parse_int(v, 0, &o->shapes) || o->shapes > IC_TUNE_SHAPES_MAX;
        else if (!strcmp(a, "--refine"))
            bad = parse_int(v, 0, &o->refine) || o->refine > IC_TUNE_REFINE_MAX;
        else if (!strcmp(a, "--prune")) {
            char *end;
            o->prune = strtod(v, &end);
            bad = end == v || *end || !(o->prune == 0 || o->prune >= 1);
        }
        if (bad) {
            if (rank == 0)
                fprintf(stderr, "%s: bad value '%s' for %s\n", prog, v ? v : "", a);
            return 2;
        }
    }
    if (o->min_reps > o->max_reps && o->max_reps > 0) {
        if (rank == 0)
            fprintf(stderr, "%s: --min-reps exceeds --max-reps\n", prog);
        return 2;
    }
    return 0;
}

/* The command line, for the tuning table's header: one line of printable
 * text without '#' (table.h: ic_table_set). */
static void command_line(int argc, char **argv, char *buf, size_t len)
{
    size_t k = 0;
    const char *base = strrchr(argv[0], '/');
    base = base ? base + 1 : argv[0];
    if (!strncmp(base, "lt-", 3))
        base += 3;
    for (int i = 0; i < argc && k + 1 < len; i++) {
        const char *a = i == 0 ? base : argv[i];
        if (i > 0)
            buf[k++] = ' ';
        for (; *a && k + 1 < len; a++)
            buf[k++] = (*a == '#' || (unsigned char)*a < 32 || (unsigned char)*a > 126) ? '?' : *a;
    }
    buf[k] = 0;
}

int ic_bench_main(int argc0, char **argv0, const char *fixed)
{
    unsigned only = fixed ? S_TUNE : 0;
    if (fixed)
        prog = "intercom-tune";
    else if (argc0 > 1 && !strcmp(argv0[1], "chart"))
        return ic_bench_chart(argc0 - 1, argv0 + 1);
    /* Help and version need no MPI (and no launcher): answered before
     * MPI_Init, on every rank that was started. */
    for (int i = 1; i < argc0; i++) {
        if (!strcmp(argv0[i], "--help") || !strcmp(argv0[i], "-h") ||
            (i == 1 && !strcmp(argv0[i], "help"))) {
            usage(stdout, only);
            return 0;
        }
        if (!strcmp(argv0[i], "--version")) {
            printf("%s (InterCom) %s\n", prog, PACKAGE_VERSION);
            return 0;
        }
    }
    /* INTERCOM_PROGRESS_THREAD=1: MPI at MPI_THREAD_MULTIPLE, which InterCom's
     * progress thread needs (README, "Nonblocking and persistent
     * collectives"); overlap measures what it gives */
    const char *pt = getenv("INTERCOM_PROGRESS_THREAD");
    if (pt && *pt && strcmp(pt, "0") != 0) {
        int provided = MPI_THREAD_SINGLE;
        MPI_Init_thread(&argc0, &argv0, MPI_THREAD_MULTIPLE, &provided);
    } else
        MPI_Init(&argc0, &argv0);
    /* a program of one subcommand: as if it were named first */
    int argc = argc0;
    char **argv = argv0, *with[argc0 + 2];
    if (fixed) {
        with[0] = argv0[0];
        with[1] = (char *)fixed;
        for (int i = 1; i <= argc0; i++)
            with[i + 1] = argv0[i];
        argc = argc0 + 1;
        argv = with;
    }
    char made_by[1024];
    command_line(argc0, argv0, made_by, sizeof(made_by));
    ic_bench_t b;
    memset(&b, 0, sizeof(b));
    b.comm = MPI_COMM_WORLD;
    MPI_Comm_rank(b.comm, &b.rank);
    MPI_Comm_size(b.comm, &b.size);

    int rc = 0;
    unsigned cmd = 0;
    const char *cname = argc > 1 ? argv[1] : "";
    for (int i = 0; i < NCMD; i++)
        if (!strcmp(cname, commands[i].name))
            cmd = commands[i].bit;
    ic_bench_opts_t *o = &b.o;
    o->format = IC_FMT_TEXT;
    o->min_size = o->max_size = -1;
    o->peer = -1;
    o->nbps = -1;
    o->budget = -1;
    o->min_reps = 5;
    o->max_reps = -1;
    o->warmup = -1; /* the subcommand's default */
    o->shapes = o->refine = -1;
    o->prune = -1;
    if (!cmd) {
        if (b.rank == 0) {
            if (*cname)
                fprintf(stderr, "intercom-bench: unknown subcommand '%s'\n\n", cname);
            usage(stderr, only);
        }
        rc = 2;
    } else {
        rc = parse(argc, argv, cmd, o, b.rank);
    }
    if (rc == 0 && !o->label) /* smpirun splits arguments at blanks */
        o->label = getenv("INTERCOM_BENCH_LABEL");
    if (rc == 0) {
        b.progress = b.rank == 0 && isatty(STDERR_FILENO);
        if (b.rank == 0)
            b.rep = ic_report_new(cname);
        /* InterCom's context of the world is made here, before anything
         * is timed: its setup, and across nodes the library's measurement
         * of the links (src/calibrate.c), would otherwise fall in a first
         * timed call (--warmup 0: the tuner's, a simulation's).  Not
         * with --selector-fit, whose figures the library must read when it
         * first looks at its environment (ic_bench_coll makes the context
         * then). */
        if (!o->selector_fit)
            IC_Barrier(b.comm);
        switch (cmd) {
        case S_PP:
            rc = ic_bench_pingpong(&b, 0);
            break;
        case S_EX:
            rc = ic_bench_pingpong(&b, 1);
            break;
        case S_LOGGP:
            rc = ic_bench_loggp(&b);
            break;
        case S_COMET:
            rc = ic_bench_comet(&b);
            break;
        case S_TUNE:
            rc = ic_bench_tune(&b, made_by);
            break;
        case S_PAT:
            rc = ic_bench_patterns(&b);
            break;
        case S_OVL:
            rc = ic_bench_overlap(&b);
            break;
        default:
            rc = ic_bench_coll(&b);
            break;
        }
        if (b.rank == 0 && rc == 0) {
            ic_report_write(b.rep, stdout, o->format);
            if (b.failures) {
                fprintf(stderr, "%s%s%s: %d verification or plotting failure(s)\n", prog,
                        fixed ? "" : " ", fixed ? "" : cname, b.failures);
                rc = 1;
            }
        }
        ic_report_free(b.rep);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, b.comm);
    free(o->sizes);
    free(o->nlist);
    free(o->bps);
    free(o->dims);
    free(o->vecs);
    MPI_Finalize();
    return rc;
}
