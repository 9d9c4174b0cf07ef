/*
 * bench.h -- what the subcommands of intercom-bench share: options, the
 * run context, sizes and repetitions, data patterns, progress output, the
 * node check, and the ping-pong sweep that pingpong, exchange, comet and
 * coll all measure with.
 *
 * Conventions of every subcommand:
 *   - times come from MPI_Wtime; a repeated measurement is summarised by its
 *     median, with min/max and the quartiles as the spread;
 *   - a measured point runs `--warmup` untimed repetitions first, then a
 *     number of repetitions that fits `--time` seconds (between
 *     `--min-reps` and `--max-reps`), or exactly `--reps`;
 *   - every transfer is verified (data patterns, or the vendor's result);
 *     a failed check marks the row and makes the exit status 1;
 *   - rank 0 collects the results and writes the report.
 */
#ifndef IC_BENCH_H
#define IC_BENCH_H

#include "fit.h"
#include "plot.h"
#include "report.h"

#include <mpi.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* intercom-tune's search (tune.c): 2-D shapes measured besides the model's
 * cheapest plans, and rounds of local search from the fastest mesh plan
 * (defaults and limits of --shapes and --refine). */
#define IC_TUNE_SHAPES 8
#define IC_TUNE_SHAPES_MAX 16
#define IC_TUNE_REFINE 3
#define IC_TUNE_REFINE_MAX 8
/* --prune F: a candidate the fitted model prices above F times the fastest
 * time measured so far at its point is not measured (0: every one is). */
#define IC_TUNE_PRUNE 3.0

typedef struct ic_bench_opts {
    ic_format_t format;
    const char *plot;       /* --plot PREFIX, or NULL                          */
    int reps;               /* --reps N: exactly N repetitions (0: adaptive)   */
    int min_reps, max_reps; /* --min-reps, --max-reps                          */
    double budget;          /* --time S: seconds per measured point            */
    int warmup;             /* --warmup N                                      */
    size_t *sizes;          /* --sizes LIST (owned), or NULL                   */
    int nsizes;
    long long min_size; /* --min BYTES (-1: the subcommand's default)      */
    long long max_size; /* --max BYTES (-1: the subcommand's default)      */
    double factor;      /* --factor F between consecutive sizes (0: default) */
    int peer;           /* --peer R (-1: the last rank)                    */
    size_t *bps;        /* --breakpoint LIST (owned)                       */
    int nbps;           /* -1: auto (default), 0: none, else |bps|         */
    const char *label;  /* --label TEXT: what the run is, for the header   */
    /* coll */
    const char *ops; /* --ops LIST                                      */
    int table2, algorithms, root, selector_fit;
    const char *tuned; /* --tuned FILE: also the automatic choice under that table */
    double settle;     /* --settle S: idle time before each timed call       */
    double spread;     /* --spread PCT: repeat a point until both medians are
                          known to within PCT % (0: IC_COLL_SPREAD)           */
    int block;         /* --block N: calls per turn of a library (0, 1: one) */
    const char *type;  /* --type int|double|float|char                    */
    /* overlap */
    int test_every; /* --test-every N: MPI_Test calls in the compute loop */
    /* tune */
    const char *output; /* -o FILE                                          */
    int quick;          /* --quick                                          */
    int candidates;     /* --candidates K (0: default)                      */
    int shapes;         /* --shapes N (-1: default, IC_TUNE_SHAPES)         */
    int refine;         /* --refine N (-1: default, IC_TUNE_REFINE)         */
    double prune;       /* --prune F (-1: default, IC_TUNE_PRUNE; 0: off)   */
    /* loggp */
    const char *modes; /* --modes LIST                                    */
    /* patterns */
    size_t *nlist; /* --n LIST: the paper's n, in elements (owned)     */
    int nnlist;
    int have_split;  /* --split given:                                   */
    double split[4]; /* alpha_s, alpha_r (s), beta_s, beta_r (s/B)       */
    /* comet */
    const char *kernels; /* --kernels LIST                                  */
    size_t *dims;        /* --ld LIST: local matrix orders                  */
    int ndims;
    size_t *vecs; /* --vec LIST: DAXPY vector lengths                */
    int nvecs;
} ic_bench_opts_t;

/* coll's noise handling (one definition: the code and the help read it).
 * A point is repeated, in rounds of --time seconds, until both libraries'
 * medians are known to within IC_COLL_SPREAD % (fit.h:
 * ic_median_halfwidth), for at most IC_COLL_ROUNDS rounds; a point still
 * less certain is noise.  A difference counts only beyond IC_COLL_EFFECT
 * (relative) and with the medians' intervals apart (fit.h: ic_compare). */
#define IC_COLL_SPREAD 5
#define IC_COLL_ROUNDS 4
#define IC_COLL_EFFECT 0.03
#define IC_STR_(x) #x
#define IC_STR(x) IC_STR_(x)

typedef struct ic_bench {
    MPI_Comm comm;
    int rank, size;
    ic_bench_opts_t o;
    ic_report_t *rep; /* rank 0 only                                          */
    int progress;     /* rank 0 writes a progress line (stderr is a terminal) */
    int failures;     /* verification failures (meaningful on rank 0)         */
} ic_bench_t;

/* ------------------------------------------------------- subcommands */

int ic_bench_pingpong(ic_bench_t *b, int exchange); /* pingpong (COMMS1), exchange (COMMS2) */
int ic_bench_loggp(ic_bench_t *b);
int ic_bench_comet(ic_bench_t *b);
int ic_bench_coll(ic_bench_t *b);
int ic_bench_patterns(ic_bench_t *b);
int ic_bench_overlap(ic_bench_t *b);
/* made_by: the command line, for the table's header. */
int ic_bench_tune(ic_bench_t *b, const char *made_by);

/* The whole program: `intercom-bench SUBCOMMAND ...`, or with `fixed`
 * the one subcommand of a program of its own (intercom-tune). */
int ic_bench_main(int argc, char **argv, const char *fixed);
/* `intercom-bench chart` (chart.c): argv[0] is "chart".  No MPI. */
int ic_bench_chart(int argc, char **argv);

/* ------------------------------------------------------------ helpers */

/* Message lengths: --sizes, or dmin..dmax (overridden by --min/--max)
 * growing by --factor (default `factor`).  Returns the count; *out is
 * malloc'ed.  A length of 0 is kept only when asked for explicitly. */
int ic_bench_sizes(const ic_bench_t *b, size_t dmin, size_t dmax, double factor, size_t **out);

/* A subcommand's defaults for what the options left unset: seconds per
 * point, most repetitions, warm-up repetitions. */
void ic_bench_defaults(ic_bench_t *b, double budget, int max_reps, int warmup);

/* The partner of rank 0 for a two-rank measurement (--peer, default the
 * last rank), or -1 after a message on rank 0 (fewer than 2 ranks, bad
 * --peer). */
int ic_bench_peer(const ic_bench_t *b, const char *cmd);

/* A comma-separated list of names (e.g. --ops) as indices into names[0..n-1],
 * in the list's order; out needs n entries (a name may appear once).
 * Returns the count, or -1 after a message on rank 0 naming `what`. */
int ic_bench_names(const ic_bench_t *b, const char *list, const char *const *names, int n, int *out,
                   const char *what);

/* --ops LIST as collectives into ops (IC_COLL_COUNT entries): the count,
 * or -1 after a message on rank 0. */
int ic_bench_colls(const ic_bench_t *b, const char *list, ic_coll_t *ops);

/* Repetitions for a point whose one repetition takes about t seconds
 * (the same t must be given on every rank that uses the answer). */
int ic_bench_reps(const ic_bench_t *b, double t);

/* Deterministic data: byte i of a buffer filled with seed s. */
static inline unsigned char ic_bench_byte(size_t i, unsigned s)
{
    return (unsigned char)((i * 131u + s * 7919u + (i >> 8) * 17u) ^ (s >> 3));
}
void ic_bench_fill(void *buf, size_t bytes, unsigned seed);
/* Number of bytes of buf that differ from the pattern of seed. */
size_t ic_bench_check(const void *buf, size_t bytes, unsigned seed);

/* Progress line on stderr (rank 0, terminal only); _end clears it. */
void ic_bench_progress(const ic_bench_t *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void ic_bench_progress_end(const ic_bench_t *b);

/* Report what runs where: MPI library, p, nodes, ranks per node, cores.
 * Warns (report note and stderr) when a node has more ranks than cores.
 * Collective. */
void ic_bench_describe(ic_bench_t *b);

/* Sleep at least s seconds (yielding the processor). */
void ic_bench_sleep(double s);

/* Allocate or fail the whole run (collective failure is not recoverable
 * for a benchmark): prints and calls MPI_Abort. */
void *ic_bench_alloc(const ic_bench_t *b, size_t bytes);

/* Add a Hockney fit as a row of a table made by ic_bench_fit_table(). */
ic_rtable_t *ic_bench_fit_table(ic_bench_t *b, const char *name, const char *title);
void ic_bench_fit_row(ic_rtable_t *t, const char *label, const ic_hockney_t *h);

/* ------------------------------------------------- ping-pong sweeps */

/* One ping-pong (or exchange) sweep between ranks a and peer of comm.
 * Every rank of comm calls it (ranks other than a and peer only take part
 * in the broadcasts of repetition counts).  Results on rank a:
 * stats[i] of the one-way times (half a round trip) for sizes[i], and the
 * number of failed verifications.  Exchange: both ranks send at once
 * (MPI_Sendrecv) and return what they received.  progress_tag labels
 * the progress line. */
typedef struct ic_pp_result {
    ic_stats_t *stats; /* nsizes entries, on rank a */
    int failures;
} ic_pp_result_t;

int ic_bench_pingpong_sweep(ic_bench_t *b, MPI_Comm comm, int a, int peer, const size_t *sizes,
                            int nsizes, int exchange, const char *progress_tag,
                            ic_pp_result_t *res);

/* A stream sweep between ranks a and peer of comm (every rank of comm
 * calls it, as the ping-pong sweep): for each length, the time on rank a
 * of one message and of IC_STREAM_K sent back to back (nonblocking, the
 * peer's receives posted first), each until the peer's empty answer to
 * its last arrival.  Their difference over IC_STREAM_K - 1 is the gap
 * between messages of that length in a stream (LogGP's g + (s - 1) G),
 * where a ping-pong's one-way time also holds the latency a pipeline
 * pays once.  Results on rank a: one[i] and many[i]; failed
 * verifications (every message of the stream is checked). */
#define IC_STREAM_K 8
typedef struct ic_stream_result {
    ic_stats_t *one, *many; /* nsizes entries, on rank a */
    int failures;
} ic_stream_result_t;

int ic_bench_stream_sweep(ic_bench_t *b, MPI_Comm comm, int a, int peer, const size_t *sizes,
                          int nsizes, ic_stream_result_t *res);

/* How many links rank a's sends to p1 and p2 take (every rank of comm
 * calls it; the answer on rank a, 0 elsewhere): 2 IC_STREAM_K messages of
 * `bytes` to p1 alone, then IC_STREAM_K to each of p1 and p2 at once
 * (sent in turn), each until its peers' empty answers to their last
 * arrivals; the first time over the second (median of 5 after a warm-up):
 * about 1 where both streams share a link, 2 where they go apart (a
 * torus's node).  Every message is checked (*failures, rank a). */
double ic_bench_links(ic_bench_t *b, MPI_Comm comm, int a, int p1, int p2, size_t bytes,
                      int *failures);

/* Hockney fits of the medians of a sweep (rank a): one region, or one per
 * region between breakpoints, and their summary (fit.h:
 * ic_hockney_summary).  The fit of all points in one region is kept too. */
#define IC_PP_MAX_REGIONS 8
typedef struct ic_pp_fit {
    int nregions;                      /* 1 .. IC_PP_MAX_REGIONS          */
    double bps[IC_PP_MAX_REGIONS - 1]; /* breakpoints, in bytes of n      */
    ic_hockney_t region[IC_PP_MAX_REGIONS];
    ic_hockney_t all;     /* every point in one region       */
    ic_hockney_t summary; /* t0, pi0 short; r_inf long       */
} ic_pp_fit_t;

/* bytes_scale multiplies the lengths (2 for an exchange: both directions
 * count).  nbp < 0: breakpoints chosen from the data (at most 2); 0: one
 * region; otherwise the nbp message lengths bps.  Returns 0, 1 when given
 * breakpoints left a region with fewer than two lengths (one region was
 * fitted instead), or -1 when the points cannot be fitted at all. */
int ic_bench_pingpong_fit(const size_t *sizes, int nsizes, const ic_stats_t *stats,
                          double bytes_scale, int nbp, const size_t *bps, ic_pp_fit_t *out);
/* The fitted time of length n (bytes of n, scaled), region by region. */
double ic_bench_pingpong_fit_time(const ic_pp_fit_t *f, double n);
/* Rows of a fit table (ic_bench_fit_table): the summary labelled `label`,
 * and, with several regions, one row per region labelled prefix + range. */
void ic_bench_pingpong_fit_rows(ic_rtable_t *t, const char *label, const char *prefix,
                                const ic_pp_fit_t *f);

/* ------------------------------------- the split send/receive model */

/* tan-strazdins-2002 section 3.1 (split.c): S(n) = alpha_s + beta_s n,
 * R(n) = alpha_r + beta_r n, from a ping-pong of each length: S is the
 * time of P1's MPI_Send call in it, R the rest of the one-way time. */
#define IC_SPLIT_REPS 9   /* timed round trips per length (medians) */
#define IC_SPLIT_WARMUP 2 /* untimed ones before them             */
/* ic_split_fit_t, IC_SPLIT_LONG and the fits themselves: fit.h. */

/* One length's ping-pong between the two processes of pc (me = 0: P1, 1:
 * P2): returns the median one-way time and *send the median time of P1's
 * MPI_Send calls (both known to both). */
double ic_bench_split_pingpong(int me, int n, char *sbuf, char *rbuf, MPI_Comm pc, double *send);
/* Table "split" (per length: one-way, S, R and both fitted lines), info
 * alpha_s, beta_s, alpha_r, beta_r and a note on the method. */
void ic_bench_split_report(ic_report_t *r, const size_t *sizes, int ns, const double *oneway,
                           const double *send, const ic_split_fit_t *f);
/* The sweep between ranks 0 and peer of b's communicator (collective: the
 * other ranks wait): oneway[] and send[] (ns entries) on every rank.
 * Returns the number of transfers that delivered wrong data. */
int ic_bench_split_measure(ic_bench_t *b, int peer, const size_t *sizes, int ns, double *oneway,
                           double *send);

#ifdef __cplusplus
}
#endif
#endif /* IC_BENCH_H */
