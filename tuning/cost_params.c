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
    /* A round of long messages between ranks of one node costs MPI's
     * rendezvous (request, reply, the single copy) on top of the bytes:
     * Open MPI 4.1's shared memory on a 2-core x86 VM, COMMS1 ping-pong,
     * took 0.2 us to start a message below 2 KiB (eager; the library's own
     * channels, shm.c, take those up to 4 KiB), 2.3 us from 4 KiB and
     * 5.7 us from 92 KiB on, at 6.5-10 GB/s.  Short messages decide little by alpha
     * (every candidate of a short call pays the same few start-ups); where
     * a plan trades a round against bytes, the round is a long message's.
     * With 1 us, the selector paid a second round at p = 2 to halve the
     * reduction from 20 KiB on: the reduce ran at 0.46-0.77 of Open MPI's
     * speed at 16-256 KiB, where one round (MST, pipeline) ran at 0.94-1.07. */
    c->alpha = 4e-6;
    c->beta = 1.0 / 8e9;
    /* MPI_Reduce_local of ints, MPI_SUM, in cache: 48 GB/s on the same VM
     * (intercom-bench coll's gamma; 79 GB/s on a current x86 core). */
    c->gamma = 1.0 / 50e9;
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

int ic_cost_send_window(const ic_cost_params_t *c, size_t bytes)
{
    double t = (double)bytes * c->beta;
    if (!(t > 0) || !(c->alpha > 0))
        return 2;
    double q = 2 * c->alpha / t; /* rounded up (no libm in the runtime) */
    if (q >= 1 << 16)
        return 1 << 16;
    int w = 1 + (int)q + ((double)(int)q < q);
    return w < 2 ? 2 : w;
}
