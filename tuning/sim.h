/*
 * sim.h -- the in-memory simulator: runs the schedules of all p virtual
 * ranks in one process, with no MPI.
 *
 * Elements are ic_sim_elem_t values that say where they came from, so a test
 * can check both data movement and reductions exactly:
 *   - a data element carries (origin rank, index in origin's buffer, tag);
 *   - a reduced element carries the contiguous rank interval [lo, hi] it
 *     combines; combining a and b in the order a (op) b is only legal when
 *     a.hi + 1 == b.lo (for order-keeping checks) or when the intervals are
 *     disjoint (commutative mode, tracked as a bit set count).
 * The simulator enforces MPI semantics strictly: a round of a rank finishes
 * only when every receive is matched by a posted send of the peer with the
 * same count, and (rendezvous mode) every send by a posted receive; a
 * schedule pair that could deadlock under MPI's rendezvous protocol is
 * reported as a deadlock.
 *
 * Test and tool code: in libictools (Makefile.am), never in the installed
 * library.
 */
#ifndef IC_SIM_H
#define IC_SIM_H

#include "schedule.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ic_sim_elem {
    int32_t lo, hi; /* contributing ranks [lo, hi] (data: lo == hi == origin) */
    int32_t index;  /* element index the value stands for                    */
    int32_t flags;  /* IC_SIM_* bits                                         */
    uint64_t mask;  /* commutative mode: hash of the set of contributors     */
    /* Added by tuning/sim.c (see there): mask is the exact bit set of the
     * contributors below 64; for larger ranks hsum (sum of per-rank 64-bit
     * hashes) and nranks (number of contributions) make "every rank of a set
     * exactly once" checkable with negligible false-positive probability. */
    uint64_t hsum;  /* sum of ic_sim_rank_hash() of every contribution       */
    int32_t nranks; /* number of contributions (1 for a data element)        */
} ic_sim_elem_t;

enum {
    IC_SIM_VALID = 1, /* element holds a defined value               */
    IC_SIM_BAD = 2    /* an illegal combination happened             */
};

typedef struct ic_sim {
    int p;
    ic_sched_t *scheds;           /* p schedules, one per rank           */
    ic_sim_elem_t *bufs[IC_NBUF]; /* per buffer: p arrays (rank-major)   */
    size_t buflen[IC_NBUF];       /* elements per rank per buffer        */
    int ordered;                  /* 1: reductions must keep rank order  */
    int rendezvous;               /* 1: sends complete only when matched */
    char err[256];                /* first problem found                 */
    size_t nbad;                  /* reductions that produced IC_SIM_BAD */
    size_t nmsgs;                 /* messages delivered by the last run  */
    uint64_t *hprefix;            /* p + 1 prefix sums of rank hashes    */
} ic_sim_t;

/* Set up p ranks with buffers of the given element counts (SEND, RECV;
 * scratch sizes come from the schedules).  Returns 0 or -1 (no memory).
 * Every element starts undefined (flags 0).  Defaults: scheds = NULL (the
 * caller points it at p built schedules), ordered = 0, rendezvous = 1. */
int ic_sim_init(ic_sim_t *sim, int p, size_t sendlen, size_t recvlen);
void ic_sim_free(ic_sim_t *sim);

/* Element e of buffer b on rank r. */
static inline ic_sim_elem_t *ic_sim_at(ic_sim_t *sim, ic_buf_t b, int r, size_t e)
{
    return &sim->bufs[b][(size_t)r * sim->buflen[b] + e];
}

/* A fresh data element from rank `origin`, index `index`. */
ic_sim_elem_t ic_sim_data(int origin, int index);

/* Hash of one contributing rank (as summed in ic_sim_elem_t.hsum). */
uint64_t ic_sim_rank_hash(int rank);

/* Fill buffer b of every rank r with ic_sim_data(r, e) at element e. */
void ic_sim_fill(ic_sim_t *sim, ic_buf_t b);

/* Test helpers.  Each returns 0 when element e of buffer b on rank r is as
 * expected, else -1 with a description in sim->err.
 *   expect_data:    the untouched data element (origin, index);
 *   expect_reduced: the reduction of exactly the ranks lo..hi (each once),
 *                   standing for element `index`;
 *   expect_reduced_set: the same for an arbitrary set of n distinct ranks. */
int ic_sim_expect_data(ic_sim_t *sim, ic_buf_t b, int r, size_t e, int origin, int index);
int ic_sim_expect_reduced(ic_sim_t *sim, ic_buf_t b, int r, size_t e, int lo, int hi, int index);
int ic_sim_expect_reduced_set(ic_sim_t *sim, ic_buf_t b, int r, size_t e, const int *ranks, int n,
                              int index);

/* Run all schedules (sim->scheds[r] must be built for every r; scratch is
 * allocated here).  Returns 0 when every rank finished and nothing illegal
 * happened, -1 otherwise with sim->err set. */
int ic_sim_run(ic_sim_t *sim);

#ifdef __cplusplus
}
#endif
#endif
