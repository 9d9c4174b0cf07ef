/*
 * chart.c -- `intercom-bench chart`: the time chart of one collective call
 * from INTERCOM_TRACE files (src/trace.c has their format), drawn with
 * gnuplot, the cost model's chart of the same call below it on the same
 * time axis.  No MPI: it runs after the traced program.
 *
 * One row per rank, three lanes: its sends (posted to complete), its
 * receives, its reductions and copies (the measured chart's rows are world
 * ranks, the model's ranks of the call's communicator: the same for calls
 * on MPI_COMM_WORLD).  Clocks: every file relates its
 * clock to another process's (its first communicator's rank 0); the
 * relations are followed to world rank 0, whose clock is the chart's.
 * The origin is the call's earliest start.  The model's chart comes from
 * the cost evaluator run on the schedules of the same plan and arguments
 * (tuning/predict.c), with the library's default parameters or those
 * given (--alpha, --beta, --gamma, --overhead); it has messages only, a
 * message's bar at its sender and at its receiver from its start to its
 * arrival.  Calls whose ranks hold blocks of different sizes (the v
 * collectives) are drawn measured only.
 */
#include "config.h"
#include "bench.h"
#include "choose.h"
#include "help.h"
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct bar {
    int rank, lane; /* lane 0 send, 1 receive, 2 local */
    int kind;       /* 0 send, 1 recv, 2 reduce, 3 copy */
    double t0, t1;
} bar_t;

typedef struct bars {
    bar_t *v;
    size_t n, cap;
} bars_t;

typedef struct tcall {
    int found;
    char coll[32], plan[IC_PLAN_TEXT_MAX];
    int p, root, commutative, in_place;
    size_t count, elem, bounded;
    long long block;
    double t0, t1;
} tcall_t;

typedef struct tfile {
    int rank, size, ref; /* ref -1: no clock line */
    double off;
    tcall_t call;
} tfile_t;

static const char *const kind_names[] = {"send", "recv", "reduce", "copy"};

static int bars_add(bars_t *b, int rank, int kind, double t0, double t1)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 256;
        bar_t *v = realloc(b->v, cap * sizeof(*v));
        if (!v)
            return -1;
        b->v = v;
        b->cap = cap;
    }
    bar_t *x = &b->v[b->n++];
    x->rank = rank;
    x->kind = kind;
    x->lane = kind < 2 ? kind : 2;
    x->t0 = t0;
    x->t1 = t1;
    return 0;
}

/* The number of the last call in a trace file; 0 when it has none. */
static unsigned long last_call(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[512];
    unsigned long id, last = 0;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "call %lu", &id) == 1)
            last = id;
    fclose(f);
    return last;
}

/* The world rank and size a trace file names in its header: 0, or -1. */
static int file_rank(const char *path, int *rank, int *size)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[512];
    int ok = fgets(line, sizeof(line), f) && !strncmp(line, "# InterCom trace 1", 18) &&
             fgets(line, sizeof(line), f) && sscanf(line, "rank %d of %d", rank, size) == 2 &&
             *rank >= 0 && *rank < *size;
    fclose(f);
    return ok ? 0 : -1;
}

/* Read one trace file: its header, clock, and call `want`'s records.
 * Returns 0, or -1 (message on stderr). */
static int read_trace(const char *path, unsigned long want, tfile_t *tf, bars_t *b)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "intercom-bench chart: cannot open %s\n", path);
        return -1;
    }
    char line[512];
    tf->rank = -1;
    tf->ref = -1;
    tf->call.found = 0;
    int ok = fgets(line, sizeof(line), f) && !strncmp(line, "# InterCom trace 1", 18);
    while (ok && fgets(line, sizeof(line), f)) {
        char kind[16];
        unsigned long id;
        if (sscanf(line, "rank %d of %d", &tf->rank, &tf->size) == 2)
            continue;
        if (sscanf(line, "clock %d %lf", &tf->ref, &tf->off) == 2)
            continue;
        if (sscanf(line, "%15s %lu", kind, &id) != 2) {
            ok = 0;
            break;
        }
        if (id != want)
            continue;
        if (!strcmp(kind, "call")) {
            tcall_t *c = &tf->call;
            ok = sscanf(line, "call %*u %31s %159s %d %d %zu %lld %zu %d %d %zu %lf %lf", c->coll,
                        c->plan, &c->p, &c->root, &c->count, &c->block, &c->elem, &c->commutative,
                        &c->in_place, &c->bounded, &c->t0, &c->t1) == 12;
            c->found = ok;
            continue;
        }
        int k;
        for (k = 0; k < 4 && strcmp(kind, kind_names[k]); k++)
            ;
        double t0, t1;
        if (k == 4 || sscanf(line, "%*s %*u %*s %*u %lf %lf", &t0, &t1) != 2) {
            ok = 0;
            break;
        }
        if (bars_add(b, tf->rank, k, t0, t1) != 0) {
            fclose(f);
            fprintf(stderr, "intercom-bench chart: out of memory\n");
            return -1;
        }
    }
    fclose(f);
    if (!ok || tf->rank < 0) {
        fprintf(stderr, "intercom-bench chart: %s is not an InterCom trace (or is damaged)\n",
                path);
        return -1;
    }
    return 0;
}

/* Seconds to add to file r's clock to read world rank 0's (the relations
 * followed from file to file); 0 with a warning when there is no chain. */
static double clock_shift(const tfile_t *tf, int n, int r, int *warned)
{
    double shift = 0;
    for (int hops = 0; r != 0 && hops <= n; hops++) {
        if (r < 0 || r >= n || tf[r].ref < 0) {
            if (!*warned)
                fprintf(stderr,
                        "intercom-bench chart: warning: no clock relation from rank %d "
                        "to rank 0; its times are drawn as recorded\n",
                        r);
            *warned = 1;
            return shift;
        }
        if (tf[r].ref == r)
            return shift;
        shift += tf[r].off;
        r = tf[r].ref;
    }
    return shift;
}

/* The cost model's chart of call c into b (times from its start); 0, or
 * -1 with *why. */
static int model_chart(const tcall_t *c, const ic_cost_params_t *cp, bars_t *b, double *total,
                       const char **why)
{
    ic_coll_t coll;
    ic_plan_t pl;
    if (ic_coll_find(c->coll, &coll) != 0 || ic_plan_parse(coll, c->plan, &pl, why) != 0) {
        if (!*why)
            *why = "unknown collective";
        return -1;
    }
    if (c->block < 0) {
        *why = "the ranks' blocks differ (a v collective): measured only";
        return -1;
    }
    size_t *counts = malloc((size_t)c->p * sizeof(size_t));
    if (!counts) {
        *why = "out of memory";
        return -1;
    }
    for (int i = 0; i < c->p; i++)
        counts[i] = (size_t)c->block;
    ic_coll_args_t a;
    memset(&a, 0, sizeof(a));
    a.coll = coll;
    a.size = c->p;
    a.root = c->root < 0 ? 0 : c->root;
    a.count = c->count;
    a.sendcount = a.recvcount = (size_t)c->block;
    a.counts = counts;
    a.commutative = c->commutative;
    a.in_place = c->in_place;
    a.bounded_from = c->bounded;
    ic_cost_result_t res;
    int rc = ic_predict_chart(&pl, &a, cp, c->elem, 1, &res);
    free(counts);
    if (rc != 0) {
        *why = "the plan cannot be built or priced for these arguments";
        return -1;
    }
    for (size_t i = 0; i < res.nevents && rc == 0; i++) {
        const ic_cost_event_t *e = &res.events[i];
        rc = bars_add(b, e->src, 0, e->start, e->end);
        if (rc == 0)
            rc = bars_add(b, e->dst, 1, e->start, e->end);
    }
    *total = res.time;
    ic_cost_result_free(&res);
    if (rc != 0)
        *why = "out of memory";
    return rc;
}

/* gnuplot's colours of the kinds (send, recv, reduce, copy). */
static const unsigned colours[] = {0x1f77b4, 0x2ca02c, 0xff7f0e, 0x999999};

/* One block of the data file: a bar per line, x in microseconds; a bar
 * shorter than `least` (us) is drawn that wide, so that a send that
 * returned at once still shows. */
static void write_bars(FILE *f, const bars_t *b, double origin, double least)
{
    for (size_t i = 0; i < b->n; i++) {
        const bar_t *x = &b->v[i];
        double y = x->rank + (x->lane - 1) * 0.28;
        double x0 = (x->t0 - origin) * 1e6, x1 = (x->t1 - origin) * 1e6;
        fprintf(f, "%.4f %.4f %.3f %.3f %u\n", x0, x1 - x0 < least ? x0 + least : x1, y - 0.13,
                y + 0.13, colours[x->kind]);
    }
    if (b->n == 0)
        fprintf(f, "0 0 0 0 0\n");
    fprintf(f, "\n\n");
}

static void chart_usage(FILE *f)
{
    fprintf(f,
            "usage: intercom-bench chart --trace PREFIX|FILES [-o FILE.svg|FILE.png] [--call N]\n"
            "                            [--alpha S] [--beta S_PER_BYTE] [--gamma S_PER_BYTE]\n"
            "                            [--overhead S] [--no-model]\n\n");
    ic_help_item(f, "--trace PREFIX|FILES",
                 "the files an INTERCOM_TRACE=PREFIX run wrote: PREFIX.0, PREFIX.1, ... (as many "
                 "as PREFIX.0 says the run had processes), or some of them named (PREFIX.*: each "
                 "file says its rank; ranks left out are not drawn)");
    ic_help_item(f, "-o FILE",
                 "the picture: .svg or .png (default PREFIX-chart.svg); FILE.gp and "
                 "FILE.dat stay beside it for redrawing by hand");
    ic_help_item(f, "--call N", "the call numbered N in rank 0's file (default: its last call)");
    ic_help_item(f, "--alpha, --beta, --gamma, --overhead",
                 "the model's parameters for the predicted chart (default: the library's "
                 "defaults across nodes; intercom-info --help explains them)");
    ic_help_item(f, "--no-model", "the measured chart only");
}

int ic_bench_chart(int argc, char **argv)
{
    const char *out = NULL;
    const char **files = calloc((size_t)argc + 1, sizeof(char *));
    int nf = 0;
    unsigned long want = 0;
    int model = 1;
    ic_cost_params_t cp;
    ic_cost_defaults(&cp);
    double alpha = -1, beta = -1, gamma = -1, overhead = -1;
    if (!files)
        return 1;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            chart_usage(stdout);
            free(files);
            return 0;
        } else if (!strcmp(o, "--no-model")) {
            model = 0;
            continue;
        }
        if (!v) {
            fprintf(stderr, "intercom-bench chart: %s needs a value\n\n", o);
            chart_usage(stderr);
            free(files);
            return 2;
        }
        i++;
        if (!strcmp(o, "--trace")) { /* a prefix, or the files themselves */
            files[nf++] = v;
            while (i + 1 < argc && argv[i + 1][0] != '-')
                files[nf++] = argv[++i];
        } else if (!strcmp(o, "-o"))
            out = v;
        else if (!strcmp(o, "--call"))
            want = strtoul(v, NULL, 10);
        else if (!strcmp(o, "--alpha"))
            alpha = atof(v);
        else if (!strcmp(o, "--beta"))
            beta = atof(v);
        else if (!strcmp(o, "--gamma"))
            gamma = atof(v);
        else if (!strcmp(o, "--overhead"))
            overhead = atof(v);
        else {
            fprintf(stderr, "intercom-bench chart: unknown option '%s'\n\n", o);
            chart_usage(stderr);
            free(files);
            return 2;
        }
    }
    if (!nf) {
        fprintf(stderr, "intercom-bench chart: --trace PREFIX (or FILES) is required\n\n");
        chart_usage(stderr);
        free(files);
        return 2;
    }
    if (alpha >= 0)
        cp.alpha = alpha;
    if (beta >= 0)
        cp.beta = beta;
    if (gamma >= 0)
        cp.gamma = gamma;
    ic_cost_derive(&cp, 0); /* as the library */
    if (overhead >= 0)
        cp.overhead = overhead;
    /* one name that is no file: a prefix (PREFIX.0, PREFIX.1, ...); else
     * the files, each naming its rank */
    int by_prefix = nf == 1 && access(files[0], F_OK) != 0;
    const char *prefix = files[0];
    size_t plen = strlen(prefix) + 32;
    char *path = malloc(plen), *defout = malloc(plen);
    if (!path || !defout) {
        free(files);
        return 1;
    }
    snprintf(defout, plen, "%s", prefix);
    char *dot = by_prefix ? NULL : strrchr(defout, '.');
    if (dot && dot[1] && strspn(dot + 1, "0123456789") == strlen(dot + 1))
        *dot = 0; /* t.3 -> t */
    snprintf(defout + strlen(defout), plen - strlen(defout), "-chart.svg");
    if (!out)
        out = defout;
    const char *ext = strrchr(out, '.');
    int png = ext && !strcmp(ext, ".png");
    int rc = 0, n = 0, r0 = 0, sz;
    if (!ext || (!png && strcmp(ext, ".svg"))) {
        fprintf(stderr, "intercom-bench chart: -o %s: the picture must end in .svg or .png\n", out);
        rc = 2;
    }
    /* paths[r]: rank r's file, NULL where none was given */
    const char **paths = NULL;
    if (rc == 0 && by_prefix) {
        snprintf(path, plen, "%s.0", prefix);
        if (file_rank(path, &r0, &n) != 0) {
            fprintf(stderr, "intercom-bench chart: %s is not an InterCom trace (or is missing)\n",
                    path);
            rc = 1;
        }
    } else if (rc == 0) {
        for (int i = 0; i < nf && rc == 0; i++) {
            if (file_rank(files[i], &r0, &sz) != 0) {
                fprintf(stderr, "intercom-bench chart: %s is not an InterCom trace\n", files[i]);
                rc = 1;
            } else if (n && sz != n) {
                fprintf(stderr, "intercom-bench chart: %s is of a run of %d processes, %s of %d\n",
                        files[i], sz, files[0], n);
                rc = 1;
            }
            n = sz;
        }
    }
    if (rc == 0 && !(paths = calloc((size_t)n, sizeof(char *))))
        rc = 1;
    char **owned = rc == 0 ? calloc((size_t)n, sizeof(char *)) : NULL;
    if (rc == 0 && !owned)
        rc = 1;
    for (int r = 0; rc == 0 && by_prefix && r < n; r++) {
        owned[r] = malloc(plen);
        if (!owned[r]) {
            rc = 1;
            break;
        }
        snprintf(owned[r], plen, "%s.%d", prefix, r);
        paths[r] = owned[r];
    }
    for (int i = 0; rc == 0 && !by_prefix && i < nf; i++) {
        int r;
        file_rank(files[i], &r, &sz);
        if (paths[r]) {
            fprintf(stderr, "intercom-bench chart: %s and %s are both rank %d's\n", paths[r],
                    files[i], r);
            rc = 1;
        }
        paths[r] = files[i];
    }
    if (rc == 0 && !want) { /* rank 0's last call, else the first file's */
        want = last_call(paths[0] ? paths[0] : files[0]);
    }
    bars_t meas = {0}, pred = {0};
    tfile_t *tf = rc == 0 ? calloc((size_t)n, sizeof(*tf)) : NULL;
    if (rc == 0 && !tf)
        rc = 1;
    for (int r = 0; r < n && rc == 0; r++) {
        tf[r].rank = -1;
        tf[r].ref = -1;
        if (paths[r])
            rc = read_trace(paths[r], want, &tf[r], &meas);
    }
    int who = -1; /* a rank that took part in the call */
    for (int r = 0; r < n && rc == 0 && who < 0; r++)
        if (tf[r].call.found)
            who = r;
    if (rc == 0 && who < 0) {
        fprintf(stderr, "intercom-bench chart: no call %lu in %s%s\n", want, prefix,
                by_prefix ? ".*" : " ...");
        rc = -1;
    }
    double origin = 0, end = 0, predicted = 0;
    const tcall_t *c = rc == 0 ? &tf[who].call : NULL;
    if (rc == 0) {
        int warned = 0;
        double *shift = calloc((size_t)n, sizeof(double));
        if (!shift)
            rc = -1;
        for (int r = 0; r < n && shift; r++)
            shift[r] = tf[r].rank >= 0 ? clock_shift(tf, n, r, &warned) : 0;
        int started = 0;
        for (int r = 0; r < n && shift; r++) {
            const tcall_t *k = &tf[r].call;
            if (!k->found)
                continue;
            if (strcmp(k->coll, c->coll) || strcmp(k->plan, c->plan))
                fprintf(stderr,
                        "intercom-bench chart: warning: call %lu is %s %s on rank %d, "
                        "%s %s on rank %d (calls are numbered per process)\n",
                        want, k->coll, k->plan, r, c->coll, c->plan, who);
            if (!started || k->t0 + shift[r] < origin)
                origin = k->t0 + shift[r];
            if (!started || k->t1 + shift[r] > end)
                end = k->t1 + shift[r];
            started = 1;
        }
        for (size_t i = 0; i < meas.n && shift; i++) {
            meas.v[i].t0 += shift[meas.v[i].rank];
            meas.v[i].t1 += shift[meas.v[i].rank];
        }
        free(shift);
    }
    const char *why = NULL;
    int have_model = rc == 0 && model && model_chart(c, &cp, &pred, &predicted, &why) == 0;
    if (rc == 0 && model && !have_model)
        fprintf(stderr, "intercom-bench chart: no model chart: %s\n", why ? why : "?");
    FILE *dat = NULL, *gp = NULL;
    char *datp = malloc(strlen(out) + 8), *gpp = malloc(strlen(out) + 8);
    if (rc == 0 && datp && gpp) {
        sprintf(datp, "%s.dat", out);
        sprintf(gpp, "%s.gp", out);
        dat = fopen(datp, "w");
        gp = fopen(gpp, "w");
    }
    if (rc == 0 && (!dat || !gp)) {
        fprintf(stderr, "intercom-bench chart: cannot write %s.dat / .gp\n", out);
        rc = -1;
    }
    if (rc == 0) {
        fprintf(dat, "# x0_us x1_us y0 y1 rgb: measured (index 0), model (index 1)\n");
        /* measured rows: world ranks (the files'); the model's: ranks of
         * the call's communicator (the same for calls on MPI_COMM_WORLD) */
        int rows = 0, p = c->p > 0 ? c->p : n;
        for (size_t i = 0; i < meas.n; i++)
            if (meas.v[i].rank + 1 > rows)
                rows = meas.v[i].rank + 1;
        rows = rows > p ? rows : p;
        double span = ((end - origin) > predicted ? (end - origin) : predicted) * 1e6;
        write_bars(dat, &meas, origin, span / 600);
        write_bars(dat, &pred, 0, span / 600);
        int h = 140 + (have_model ? 2 : 1) * (60 + 18 * (rows < 4 ? 4 : rows));
        fprintf(gp, "# intercom-bench chart: gnuplot %s\n", gpp);
        fprintf(gp,
                png ? "set terminal pngcairo noenhanced size 1200,%d font ',10'\n"
                    : "set terminal svg noenhanced size 1200,%d dynamic font 'sans,10'\n",
                h);
        fprintf(gp, "set output ");
        ic_plot_quote(gp, out);
        fprintf(gp, "\nset multiplot layout %d,1 title ", have_model ? 2 : 1);
        char title[512];
        snprintf(title, sizeof(title), "%s, plan %s, p = %d, %zu x %zu B (call %lu)", c->coll,
                 c->plan, c->p, c->count ? c->count : (size_t)(c->block > 0 ? c->block : 0),
                 c->elem, want);
        ic_plot_quote(gp, title);
        fprintf(gp, "\nset xrange [0:%g]\nset yrange [%g:-0.6]\nset ytics 0,%d\n", span * 1.02,
                rows - 0.4,
                rows > 32   ? 4
                : rows > 16 ? 2
                            : 1);
        fprintf(gp, "set xlabel 'time (us)'\nset ylabel 'world rank'\nset grid xtics\n"
                    "set key outside right top\nset style fill solid 0.85 border rgb 'white'\n");
        const char *legend = "NaN with boxes lc rgb '#1f77b4' title 'send', "
                             "NaN with boxes lc rgb '#2ca02c' title 'receive', "
                             "NaN with boxes lc rgb '#ff7f0e' title 'reduce', "
                             "NaN with boxes lc rgb '#999999' title 'copy'";
        fprintf(gp,
                "set title 'measured: %.1f us (clocks aligned to rank 0)'\n"
                "plot '%s' index 0 using 1:3:1:2:3:4:5 with boxxyerror lc rgb variable notitle, "
                "%s\n",
                (end - origin) * 1e6, datp, legend);
        if (have_model)
            fprintf(gp,
                    "set ylabel 'rank in the communicator'\n"
                    "set title 'model: %.1f us (alpha %.3g s, beta %.3g s/B, overhead %.3g s)'\n"
                    "plot '%s' index 1 using 1:3:1:2:3:4:5 with boxxyerror lc rgb variable "
                    "notitle, %s\n",
                    predicted * 1e6, cp.alpha, cp.beta, cp.overhead, datp, legend);
        fprintf(gp, "unset multiplot\n");
    }
    if (dat)
        fclose(dat);
    if (gp)
        fclose(gp);
    if (rc == 0)
        rc = ic_plot_run(gpp);
    if (rc == 0)
        printf("%s: %s %s p = %d, measured %.1f us%s", out, c->coll, c->plan, c->p,
               (end - origin) * 1e6, have_model ? "" : "\n");
    if (rc == 0 && have_model)
        printf(", model %.1f us\n", predicted * 1e6);
    for (int r = 0; owned && r < n; r++)
        free(owned[r]);
    free(owned);
    free(paths);
    free(files);
    free(tf);
    free(meas.v);
    free(pred.v);
    free(datp);
    free(gpp);
    free(path);
    free(defout);
    return rc == 0 ? 0 : rc == 2 ? 2 : 1;
}
