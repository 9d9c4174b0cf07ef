/*
 * bench.c -- helpers shared by the intercom-bench subcommands (see
 * bench.h): sizes, repetitions, data patterns, progress, node description
 * and the table of Hockney fits.
 */
#include "config.h"
#include "bench.h"
#include "intercom.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int ic_bench_sizes(const ic_bench_t *b, size_t dmin, size_t dmax, double factor, size_t **out)
{
    *out = NULL;
    if (b->o.sizes) {
        *out = ic_bench_alloc(b, (size_t)b->o.nsizes * sizeof(size_t));
        memcpy(*out, b->o.sizes, (size_t)b->o.nsizes * sizeof(size_t));
        return b->o.nsizes;
    }
    size_t lo = b->o.min_size >= 0 ? (size_t)b->o.min_size : dmin;
    size_t hi = b->o.max_size >= 0 ? (size_t)b->o.max_size : dmax;
    double f = b->o.factor > 1 ? b->o.factor : factor;
    int n = 0, cap = 8;
    size_t *s = ic_bench_alloc(b, (size_t)cap * sizeof(size_t));
    if (lo == 0) {
        s[n++] = 0; /* --min 0 asks for it */
        lo = 1;
    }
    for (double x = (double)lo; x <= (double)hi * (1 + 1e-9); x *= f) {
        size_t v = (size_t)llround(x);
        if (n > 0 && s[n - 1] == v)
            continue;
        if (n == cap) {
            cap *= 2;
            size_t *t = realloc(s, (size_t)cap * sizeof(size_t));
            if (!t) {
                free(s);
                ic_bench_alloc(b, (size_t)-1); /* aborts */
                return 0;
            }
            s = t;
        }
        s[n++] = v;
    }
    *out = s;
    return n;
}

void ic_bench_defaults(ic_bench_t *b, double budget, int max_reps, int warmup)
{
    if (b->o.budget < 0)
        b->o.budget = budget;
    if (b->o.max_reps < 0)
        b->o.max_reps = max_reps;
    if (b->o.warmup < 0)
        b->o.warmup = warmup;
}

int ic_bench_peer(const ic_bench_t *b, const char *cmd)
{
    int peer = b->o.peer >= 0 ? b->o.peer : b->size - 1;
    if (b->size < 2 || peer <= 0 || peer >= b->size) {
        if (b->rank == 0) {
            if (b->size < 2)
                fprintf(stderr, "intercom-bench %s: needs at least 2 ranks\n", cmd);
            else
                fprintf(stderr, "intercom-bench %s: --peer must be 1..%d\n", cmd, b->size - 1);
        }
        return -1;
    }
    return peer;
}

int ic_bench_names(const ic_bench_t *b, const char *list, const char *const *names, int n, int *out,
                   const char *what)
{
    char *copy = strdup(list);
    if (!copy)
        return -1;
    int k = 0;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok && k >= 0;
         tok = strtok_r(NULL, ",", &save)) {
        int f = -1;
        for (int i = 0; i < n && f < 0; i++)
            if (!strcmp(tok, names[i]))
                f = i;
        for (int i = 0; i < k && f >= 0; i++)
            if (out[i] == f)
                f = -2;
        if (f < 0) {
            if (b->rank == 0) {
                fprintf(stderr,
                        "intercom-bench: %s %s '%s'; one of:", f == -2 ? "repeated" : "unknown",
                        what, tok);
                for (int i = 0; i < n; i++)
                    fprintf(stderr, "%s%s", i ? "," : " ", names[i]);
                fprintf(stderr, "\n");
            }
            k = -1;
        } else {
            out[k++] = f;
        }
    }
    free(copy);
    return k;
}

int ic_bench_colls(const ic_bench_t *b, const char *list, ic_coll_t *ops)
{
    const char *names[IC_COLL_COUNT];
    int idx[IC_COLL_COUNT], n;
    for (int c = 0; c < IC_COLL_COUNT; c++)
        names[c] = ic_coll_name((ic_coll_t)c);
    if ((n = ic_bench_names(b, list, names, IC_COLL_COUNT, idx, "operation")) < 0)
        return -1;
    for (int k = 0; k < n; k++)
        ops[k] = (ic_coll_t)idx[k];
    return n;
}

int ic_bench_reps(const ic_bench_t *b, double t)
{
    if (b->o.reps > 0)
        return b->o.reps;
    double want = t > 0 ? b->o.budget / t : b->o.max_reps;
    if (want > b->o.max_reps)
        want = b->o.max_reps;
    if (want < b->o.min_reps)
        want = b->o.min_reps;
    return (int)want;
}

void ic_bench_fill(void *buf, size_t bytes, unsigned seed)
{
    unsigned char *p = buf;
    for (size_t i = 0; i < bytes; i++)
        p[i] = ic_bench_byte(i, seed);
}

size_t ic_bench_check(const void *buf, size_t bytes, unsigned seed)
{
    const unsigned char *p = buf;
    size_t bad = 0;
    for (size_t i = 0; i < bytes; i++)
        bad += p[i] != ic_bench_byte(i, seed);
    return bad;
}

void ic_bench_progress(const ic_bench_t *b, const char *fmt, ...)
{
    if (!b->progress)
        return;
    char line[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    fprintf(stderr, "\r\033[K%s", line);
    fflush(stderr);
}

void ic_bench_progress_end(const ic_bench_t *b)
{
    if (!b->progress)
        return;
    fprintf(stderr, "\r\033[K");
    fflush(stderr);
}

void ic_bench_sleep(double s)
{
    if (!(s > 0))
        return;
    struct timespec ts;
    ts.tv_sec = (time_t)s;
    ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
    if (ts.tv_nsec > 999999999L)
        ts.tv_nsec = 999999999L;
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

void *ic_bench_alloc(const ic_bench_t *b, size_t bytes)
{
    void *p = bytes == (size_t)-1 ? NULL : malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "intercom-bench: rank %d: out of memory (%zu bytes)\n", b->rank, bytes);
        MPI_Abort(b->comm, 1);
    }
    return p;
}

#ifndef SMPI_H /* simulated ranks share no real machine */
/* The machine's boot id: ranks that share it share the machine's cores
 * even when MPI sees them as separate nodes (an emulated cluster). */
static void machine_id(char *id, size_t size)
{
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    id[0] = '\0';
    if (f) {
        if (!fgets(id, (int)size, f))
            id[0] = '\0';
        fclose(f);
    }
    id[strcspn(id, "\n")] = '\0';
}

/* Largest number of ranks that share one machine id (0: ids unknown). */
static int ranks_per_machine(ic_bench_t *b)
{
    enum { IDLEN = 40 };
    char id[IDLEN];
    machine_id(id, sizeof(id));
    char *all = b->rank == 0 ? ic_bench_alloc(b, (size_t)b->size * IDLEN) : NULL;
    MPI_Gather(id, IDLEN, MPI_CHAR, all, IDLEN, MPI_CHAR, 0, b->comm);
    int most = 0;
    for (int i = 0; b->rank == 0 && i < b->size; i++) {
        if (!all[(size_t)i * IDLEN]) {
            most = 0; /* unknown */
            break;
        }
        int same = 0;
        for (int j = 0; j < b->size; j++)
            same += !strcmp(all + (size_t)i * IDLEN, all + (size_t)j * IDLEN);
        if (same > most)
            most = same;
    }
    free(all);
    return most;
}
#endif

void ic_bench_describe(ic_bench_t *b)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    if (MPI_Get_library_version(lib, &len) != MPI_SUCCESS)
        strcpy(lib, "unknown");
    lib[strcspn(lib, "\n,")] = '\0';

    MPI_Comm node;
    int here = 1, cores = IC_Node_cores();
    if (MPI_Comm_split_type(b->comm, MPI_COMM_TYPE_SHARED, b->rank, MPI_INFO_NULL, &node) ==
        MPI_SUCCESS) {
        MPI_Comm_size(node, &here);
        MPI_Comm_free(&node);
    }
    int in[2] = {here, -cores}, out[2];
    MPI_Reduce(in, out, 2, MPI_INT, MPI_MAX, 0, b->comm);
    /* number of nodes: sum over ranks of 1/(ranks on my node) */
    double frac = 1.0 / here, nodes = 0;
    MPI_Reduce(&frac, &nodes, 1, MPI_DOUBLE, MPI_SUM, 0, b->comm);
#ifndef SMPI_H
    int per_machine = ranks_per_machine(b);
#endif
    if (b->rank != 0)
        return;
    int per_node = out[0], min_cores = -out[1];
    ic_report_t *r = b->rep;
    if (b->o.label)
        ic_report_info(r, "run", "%s", b->o.label);
    ic_report_info(r, "MPI", "%s", lib);
    ic_report_info(r, "InterCom", "%s", INTERCOM_VERSION_STRING);
    ic_report_info(r, "p", "%d", b->size);
    ic_report_info(r, "nodes", "%.0f (at most %d ranks per node, %d cores per node)", nodes,
                   per_node, min_cores);
#ifdef SMPI_H
    ic_report_note(r, "SimGrid SMPI: all times are simulated (deterministic)");
#else
    /* Said once, in the report's header (not again on stderr). */
    if (per_node > min_cores)
        ic_report_note(r,
                       "WARNING: %d ranks share a node with %d cores: busy-polling ranks "
                       "compete for the cores, so these timings are dominated by the operating "
                       "system's scheduler, not by the algorithms (use them for correctness; "
                       "see bench/README.md, \"Where to run\")",
                       per_node, min_cores);
    else if (per_machine > min_cores)
        ic_report_note(r,
                       "WARNING: the %.0f nodes are emulated on one machine: %d ranks share its "
                       "%d cores, so short-message timings are dominated by the operating "
                       "system's scheduler; long messages by the emulated links",
                       nodes, per_machine, min_cores);
#endif
}

ic_rtable_t *ic_bench_fit_table(ic_bench_t *b, const char *name, const char *title)
{
    ic_report_info(b->rep, "fit units",
                   "r_inf MB/s (1e6 B/s), n_1/2 bytes, t0 time (text: with its unit; CSV, JSON: "
                   "seconds), pi0 kHz (1e3 per s)");
    ic_rtable_t *t = ic_report_table(b->rep, name, title);
    ic_rtable_col(t, "region", NULL, IC_COL_STR, NULL);
    ic_rtable_col(t, "n_from", "from[B]", IC_COL_INT, NULL);
    ic_rtable_col(t, "n_to", "to[B]", IC_COL_INT, NULL);
    ic_rtable_col(t, "points", NULL, IC_COL_INT, NULL);
    ic_rtable_col(t, "r_inf", "r_inf[MB/s]", IC_COL_NUM, "%.4g");
    ic_rtable_col(t, "n_1/2", "n_1/2[B]", IC_COL_NUM, "%.4g");
    ic_rtable_col(t, "t0", NULL, IC_COL_SEC, NULL);
    ic_rtable_col(t, "pi0", "pi0[kHz]", IC_COL_NUM, "%.4g");
    ic_rtable_col(t, "rms_err_percent", "rms_err[%]", IC_COL_NUM, "%.2f");
    return t;
}

void ic_bench_fit_row(ic_rtable_t *t, const char *label, const ic_hockney_t *h)
{
    ic_rtable_row(t);
    ic_rtable_str(t, label);
    ic_rtable_num(t, h->n_lo);
    ic_rtable_num(t, h->n_hi);
    ic_rtable_num(t, h->npoints);
    ic_rtable_num(t, isinf(h->r_inf) ? NAN : h->r_inf / 1e6);
    ic_rtable_num(t, h->n_half);
    ic_rtable_num(t, h->t0);
    ic_rtable_num(t, h->pi0 / 1e3);
    ic_rtable_num(t, h->rms_rel * 100);
}
