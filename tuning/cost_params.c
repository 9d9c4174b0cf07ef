/*
 * cost_params.c -- the default cost parameters (cost.h).  The runtime
 * takes them (src/env.c) without the evaluator of cost.c, which is tool
 * code (libictools).
 */
#include "cost.h"

#include <mpi.h> /* SMPI_H: built for SimGrid's SMPI */
#include <string.h>

void ic_cost_defaults(ic_cost_params_t *c)
{
    memset(c, 0, sizeof(*c));
    c->alpha = 20e-6;
    c->beta = 1.0 / 100e6;
    c->gamma = 1.0 / 1e9;
    c->delta = 0;
    /* Over TCP a long message goes in pieces of 32 KiB, each round's
     * messages in step: the kernel then never queues more than a piece per
     * connection, and p messages of one round share the links fairly
     * (executor.c; a few percent at 32 KiB and 100 MB/s).  SimGrid's SMPI
     * has no TCP queues to keep short, and its network model gives
     * messages below 64 KiB a lower bandwidth (smpi/bw-factor), so pieces
     * only cost there: whole messages.  (Here, not in the runtime alone:
     * the benchmark's predictions and the tuner's candidates then cut
     * segments as the library does.) */
#ifdef SMPI_H
    c->chunk = 0;
#else
    c->chunk = 32768;
#endif
    c->split = 0;
    c->alpha_s = c->alpha / 2;
    c->alpha_r = c->alpha / 2;
    c->beta_s = c->beta / 2;
    c->beta_r = c->beta / 2;
    for (int b = 0; b < IC_NBUF; b++)
        c->elem_size[b] = 1;
}

void ic_cost_defaults_node(ic_cost_params_t *c)
{
    ic_cost_defaults(c);
    c->alpha = 1e-6;     /* shared memory: about 1 us ...   */
    c->beta = 1.0 / 5e9; /* ... 5 GB/s per copy ...         */
    /* ... and 10 GB/s reduced (MPI_Reduce_local of ints in cache: 79
     * GB/s on a current x86 core; out of cache the memory's rate bounds
     * it).  At 2 GB/s, the earlier figure, the selector paid a second
     * message to halve the reduction at p = 2 from 4 KiB on: reduce and
     * allreduce at 4-16 KiB ran at 0.4-1.3 of Open MPI's speed, now at
     * 0.9-3. */
    c->gamma = 1.0 / 10e9;
    c->chunk = 0; /* no queues to keep short */
    c->alpha_s = c->alpha / 2;
    c->alpha_r = c->alpha / 2;
    c->beta_s = c->beta / 2;
    c->beta_r = c->beta / 2;
}

void ic_cost_derive(ic_cost_params_t *c, int node)
{
    /* Across nodes most of a start-up is latency in flight: LogGP
     * measurements of MPI over TCP put the sender's overhead at a few us of
     * tens (the emulated cluster: o_s 5.7 us, L 174 us), so a root can start
     * several messages in one alpha (k-nomial trees).  Shared memory copies
     * keep both sides busy: the plain model. */
    c->overhead = node ? 0 : c->alpha / 8;
    /* Over TCP a pair exchanging both ways at once shares one connection:
     * COMMS2 against COMMS1 on the emulated cluster showed each direction
     * at half the rate.  Shared memory copies do not slow each other down
     * that way. */
    c->beta_x = (node ? 1 : 2) * c->beta;
    /* ... but only from about the size where TCP stops buffering: up to
     * 32 KiB each way the exchange ran at twice the ping-pong rate (full
     * duplex), from 128 KiB at the ping-pong rate. */
    c->x_min = 65536;
}
