/*
 * env.c -- environment settings, read once per process.
 *
 *   INTERCOM_VERBOSE=1            print selection decisions (rank 0 of the
 *                                 communicator) and every error message
 *   INTERCOM_ALPHA, _BETA, _GAMMA cost-model parameters for the selector:
 *                                 seconds, seconds per byte, seconds per
 *                                 byte reduced.  Without them the selector
 *                                 uses built-in figures of a switched
 *                                 cluster for communicators that span
 *                                 nodes, and of shared memory for those
 *                                 within one node (ic_ctx_get decides);
 *                                 across nodes, alpha and beta measured
 *                                 (below)
 *   INTERCOM_CALIBRATE=0|1|2      0: keep the built-in figures across
 *                                 nodes; 1: measure on every communicator
 *                                 of 2 ranks or more, one node too (tests);
 *                                 2 or unset: measure once, on the first
 *                                 that spans nodes (calibrate.c)
 *   INTERCOM_BETA_EXCHANGE        seconds per byte and direction when two
 *                                 ranks exchange both ways at once
 *                                 (default: twice beta across nodes, beta
 *                                 within one; intercom-bench exchange
 *                                 measures it) ...
 *   INTERCOM_EXCHANGE_MIN=BYTES   ... messages of at least BYTES (default
 *                                 64 KiB); shorter ones go full duplex
 *   INTERCOM_OVERHEAD             LogGP's o (s): the part of alpha that
 *                                 keeps the sender busy, the rest being
 *                                 in flight (intercom-bench loggp: o_s).
 *                                 Default alpha / 8 across nodes, alpha
 *                                 (the plain model) within one
 *   INTERCOM_SCRATCH_CACHE=BYTES  scratch kept between calls (default 16 MiB)
 *   INTERCOM_SCRATCH_SLACK=BYTES  messages longer than BYTES get at most
 *                                 their own length of scratch per rank;
 *                                 shorter ones up to twice (the
 *                                 short-vector reductions, which would
 *                                 otherwise run in pieces, each paying its
 *                                 start-ups again).  Default 64 KiB; 0:
 *                                 always within the message
 *   INTERCOM_CHUNK=BYTES          longer messages go in lock-step pieces of
 *                                 at most BYTES (executor.c; 0 = whole).
 *                                 Default 32 KiB across nodes (below Open
 *                                 MPI's TCP eager limit), whole within one
 *                                 and under SimGrid's SMPI
 *   INTERCOM_TRACE=PREFIX         every process writes PREFIX.<world rank>:
 *                                 the start and end of each call, message,
 *                                 reduction and copy (trace.c)
 *   INTERCOM_SHM=0|1|2            messages between ranks of one node: 0
 *                                 all through MPI; 1 up to 16 KiB through
 *                                 shared memory, longer through MPI; 2
 *                                 (default) longer ones too, read from the
 *                                 sender in one copy where the kernel
 *                                 allows (shm.c)
 *   INTERCOM_RANKS_PER_NODE=Q     placement (topo.c): consecutive blocks of
 *                                 Q ranks of MPI_COMM_WORLD form a node,
 *                                 instead of MPI's shared-memory domains
 *                                 (default 0: ask MPI)
 *   INTERCOM_<OP>_ALGORITHM=PLAN  force a plan: an algorithm's name or a
 *                                 mesh plan (algorithms/plan.h; select.c)
 *   INTERCOM_MESH=RxC[xD...]      only plans on this mesh shape, for every
 *                                 collective whose communicator has that
 *                                 many ranks (one number: the 1-D plans)
 */
#include "config.h"
#include "ic_internal.h"
#include "choose.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static ic_env_t env;
static _Atomic int env_ready;

static double getd(const char *name, double dflt)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return dflt;
    char *end;
    double d = strtod(v, &end);
    if (*end || d < 0) {
        if (ic_world_rank() == 0)
            fprintf(stderr, "InterCom: ignoring %s=%s (expected a non-negative number)\n", name, v);
        return dflt;
    }
    return d;
}

static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static void env_read(void);

const ic_env_t *ic_env(void)
{
    if (!env_ready)
        pthread_once(&env_once, env_read); /* threads: read once */
    return &env;
}

static void env_read(void)
{
    const char *v = getenv("INTERCOM_VERBOSE");
    env.verbose = (v && *v && *v != '0');
    ic_cost_defaults(&env.cost);
    ic_cost_defaults_node(&env.cost_node);
    ic_cost_params_t *both[2] = {&env.cost, &env.cost_node};
    for (int i = 0; i < 2; i++) {
        both[i]->alpha = getd("INTERCOM_ALPHA", both[i]->alpha);
        both[i]->beta = getd("INTERCOM_BETA", both[i]->beta);
        both[i]->gamma = getd("INTERCOM_GAMMA", both[i]->gamma);
        ic_cost_derive(both[i], i); /* overhead, beta_x, x_min: cost_params.c */
        both[i]->overhead = getd("INTERCOM_OVERHEAD", both[i]->overhead);
        both[i]->beta_x = getd("INTERCOM_BETA_EXCHANGE", both[i]->beta_x);
        both[i]->x_min = (size_t)getd("INTERCOM_EXCHANGE_MIN", (double)both[i]->x_min);
        both[i]->chunk = (size_t)getd("INTERCOM_CHUNK", (double)both[i]->chunk);
    }
    env.scratch_cache = (size_t)getd("INTERCOM_SCRATCH_CACHE", 16.0 * 1024 * 1024);
    env.scratch_slack = (size_t)getd("INTERCOM_SCRATCH_SLACK", IC_SCRATCH_SLACK);
    double q = getd("INTERCOM_RANKS_PER_NODE", 0);
    env.ranks_per_node = q >= 1 && q <= INT_MAX && q == (int)q ? (int)q : 0;
    if (q != env.ranks_per_node && ic_world_rank() == 0)
        fprintf(stderr, "InterCom: ignoring INTERCOM_RANKS_PER_NODE=%g (expected a whole number)\n",
                q);
    double shm = getd("INTERCOM_SHM", 2);
    env.shm = shm == 0 || shm == 1 ? (int)shm : 2;
    if (shm != env.shm && ic_world_rank() == 0)
        fprintf(stderr, "InterCom: ignoring INTERCOM_SHM=%g (expected 0, 1 or 2)\n", shm);
    double cal = getd("INTERCOM_CALIBRATE", 2);
    env.calibrate = cal == 0 || cal == 1 ? (int)cal : 2;
    if (cal != env.calibrate && ic_world_rank() == 0)
        fprintf(stderr, "InterCom: ignoring INTERCOM_CALIBRATE=%g (expected 0, 1 or 2)\n", cal);
    env.trace = getenv("INTERCOM_TRACE");
    v = getenv("INTERCOM_MESH");
    env.mesh = v && *v ? v : NULL;
    env.mesh_ndims = 0;
    for (const char *q = env.mesh; q && *q;) {
        char *end;
        long d = strtol(q, &end, 10);
        if (end == q || d < 1 || d > (1L << 30) || env.mesh_ndims == IC_PLAN_MAXDIMS ||
            (*end && *end != 'x')) {
            if (ic_world_rank() == 0)
                fprintf(stderr,
                        "InterCom: ignoring INTERCOM_MESH=%s (expected dimensions like 16x32, "
                        "at most %d)\n",
                        env.mesh, IC_PLAN_MAXDIMS);
            env.mesh_ndims = 0;
            break;
        }
        env.mesh_dims[env.mesh_ndims++] = (int)d;
        q = *end ? end + 1 : end;
    }
    env_ready = 1;
}

int ic_world_rank(void)
{
    int init = 0, fin = 0, r = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin)
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}
