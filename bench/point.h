/*
 * point.h -- one measured point of a collective, as `intercom-bench coll`
 * and `intercom-tune` time it: its buffers and data, the call of either
 * library, the run's fitted cost model and the model's prediction.
 *
 *   - bytes is the whole vector n: the broadcast message, the reduced
 *     vector, the vector gathered, scattered or reduce-scattered (blocks
 *     of n/p; the v-variants use uneven blocks of 3/4 and 5/4 of that,
 *     alternating), as the tuning table counts a call's bytes;
 *   - data are small integers (op MPI_SUM), so every reduction is exact in
 *     any order and results compare bitwise;
 *   - outputs are poisoned before each call, so a call that writes
 *     nothing fails the comparison.
 */
#ifndef IC_BENCH_POINT_H
#define IC_BENCH_POINT_H

#include "bench.h"
#include "cost.h"
#include "plan.h"

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { IC_LIB_VENDOR = 0, IC_LIB_IC = 1 };

typedef struct ic_point {
    MPI_Comm comm;
    ic_coll_t c;
    int p, rank, root;
    MPI_Datatype type;
    size_t esz;
    size_t count;                     /* bcast / reduce / allreduce elements          */
    size_t blk;                       /* even block (elements)                         */
    int *counts;                      /* per-rank blocks (elements)                    */
    int *displs;                      /* packed displacements (elements)               */
    size_t total;                     /* elements of the whole vector                  */
    char *sbuf;                       /* input (root pattern for bcast)                */
    char *out[2];                     /* vendor / InterCom outputs                      */
    size_t sbytes, rbytes, cmp_bytes; /* cmp_bytes: 0 where the result is undefined */
    int shared;                       /* buffers from SMPI's shared malloc (point.c) */
} ic_point_t;

/* Under SimGrid's SMPI every simulated rank's buffers live in one process:
 * a point whose vector times the ranks exceeds this many bytes takes its
 * buffers from SMPI's shared malloc and is not compared (point.c). */
#define IC_POINT_SHARED_FROM ((size_t)1 << 31)

#define IC_BENCH_PP_MAX 32 /* the ping-pong's lengths a model keeps, at most */

/* This run's model: the library's cost parameters (tuning/cost.h) with the
 * fitted alpha, beta and gamma, the rest derived from them as the library
 * does (ic_cost_defaults, ic_cost_derive).  alpha_min is no model
 * parameter but a measurement (the shortest one-way time of the
 * ping-pong's shortest message), for the time floor (fit.h). */
typedef struct ic_bench_model {
    ic_cost_params_t cost;
    double alpha_min;
    int exchange;          /* beta_x, x_min measured (COMMS2), not derived */
    ic_cost_params_t node; /* within a node: the library's figures, or ... */
    int node_fit;          /* ... fitted (alpha, beta; gamma as cost's) */
    /* the ping-pong the fit is of (every rank): its lengths (bytes) and
     * median one-way times (s), which a straight line smooths over (a
     * network's bands, a protocol's switch of start-up and bandwidth) */
    int npp;
    double pp_bytes[IC_BENCH_PP_MAX], pp_time[IC_BENCH_PP_MAX];
    /* with IC_FIT_STREAM, the same pair's streams (ic_bench_stream_sweep)
     * at 256 B to the fit's longest length (at most 1 MiB), x2: for each
     * length its one-way time st_time (one message's, less half an empty
     * round trip) and st_gap, the time between messages sent back to back
     * (LogGP's g + (s - 1) G; a pipeline pays the rest of st_time once
     * per hop, not per message) */
    int nst;
    double st_bytes[IC_BENCH_PP_MAX], st_time[IC_BENCH_PP_MAX], st_gap[IC_BENCH_PP_MAX];
    /* with IC_FIT_STREAM and three nodes or more, the links rank 0's sends
     * to two other nodes share (ic_bench_links: 1 or 2; the table's
     * "links", cost.h), every rank; 0: not measured */
    int links;
} ic_bench_model_t;

/* What ic_bench_fit_model measures besides the ping-pong (flags). */
#define IC_FIT_EXCHANGE 1 /* COMMS2's exchange: beta_x, x_min */
#define IC_FIT_STREAM 2   /* streams: st_* */

/* --type NAME (int, long, float, double; NULL: int): 0, or -1. */
int ic_bench_type(const char *name, MPI_Datatype *t);

/* Lay out a point of about `bytes` bytes of collective c on b's
 * communicator; allocates the buffers (aborts the run when it cannot). */
void ic_point_setup(ic_bench_t *b, ic_point_t *pt, ic_coll_t c, size_t bytes, MPI_Datatype t,
                    int root);
void ic_point_free(ic_point_t *pt);
/* Inputs in place, output lib poisoned. */
void ic_point_reset(ic_point_t *pt, int lib);
/* One call of library lib (IC_LIB_VENDOR, IC_LIB_IC) into out[lib]. */
int ic_point_call(const ic_point_t *pt, int lib);
/* One timed call (reset, [settle s idle], barrier, call) on this rank;
 * *errors counts calls that did not return MPI_SUCCESS. */
double ic_point_timed(const ic_point_t *pt, int lib, int *errors, double settle);

/* How b's ranks sit on nodes (collective): *nodes, and *rpn the ranks
 * of every node when all hold the same number (0 otherwise).  Returns
 * whether all share one node. */
int ic_bench_layout(const ic_bench_t *b, int *nodes, int *rpn);
static inline int ic_bench_one_node(const ic_bench_t *b)
{
    int nodes, rpn;
    return ic_bench_layout(b, &nodes, &rpn);
}

/* alpha, beta from a ping-pong fit between ranks 0 and p-1 (up to
 * max_bytes, at least 64 KiB); gamma from MPI_Reduce_local of type; with
 * IC_FIT_EXCHANGE in `what` also beta_x and x_min from a COMMS2 exchange between the same
 * ranks on the same lengths (the first length from which every exchange
 * takes over 1.25 times the ping-pong's time, and the time per byte and
 * direction beyond it); the rest derived as the library does for a
 * communicator across nodes, or within one (node).  The fit goes to the
 * report on rank 0 as table "pingpong_fit".  Across nodes (!node), when
 * rank 0's node holds other ranks, also node (node_fit) from a ping-pong
 * between rank 0 and the lowest of them (table "node_pingpong_fit").
 * With IC_FIT_STREAM also the streams between ranks 0 and p-1 (st_*,
 * table "stream").  Collective; the answer is the same on every rank. */
void ic_bench_fit_model(ic_bench_t *b, MPI_Datatype type, size_t max_bytes, int node, int what,
                        ic_bench_model_t *m);

/* The point as the selector sees it: *a (counts[] needs p entries; a
 * commutative op) and the size of the unit its schedule counts, which is
 * what the library passes for the call (the broadcast's ic_bcast_unit, the
 * gather family's bytes, the reductions' elements). */
size_t ic_point_args(const ic_point_t *pt, ic_coll_args_t *a, size_t *counts);
/* That unit alone. */
size_t ic_point_unit(const ic_point_t *pt);

/* Cost-model prediction (ic_predict_plan) of the plan of text `name` for
 * the point, under m; NaN when it cannot be priced.  Any rank; O(p x
 * schedule length). */
double ic_point_predict(const ic_point_t *pt, const char *name, const ic_bench_model_t *m);

/* Plan text without its parameters (segment sizes, radix): the library
 * sets them for each call. */
void ic_point_bare_text(const ic_plan_t *pl, char *buf, size_t len);

/* Whether the plan the last call of collective c ran (IC_Last_algorithm)
 * is the plan `forced`, parameters aside: a forced plan that cannot serve
 * a call is replaced by the automatic choice (with a warning), and would
 * be timed under a false name. */
int ic_point_ran_as(ic_coll_t c, const char *forced);

#ifdef __cplusplus
}
#endif
#endif /* IC_BENCH_POINT_H */
