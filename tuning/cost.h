/*
 * cost.h -- the cost evaluator: walks the schedules of all ranks with the
 * alpha-beta-gamma model (mitra-1995 section 3) or the split send/receive
 * model of tan-strazdins-2002 section 3.1 (S(n) = alpha_s + beta_s n,
 * R(n) = alpha_r + beta_r n), giving the predicted completion time of every
 * rank and, optionally, a time chart of every message.
 *
 * Model: a rank can send one message and receive one message at the same
 * time (full duplex), but only one of each at a time; a message starts when
 * the sender has reached the round that posts it, the receiver has reached
 * the round that posts the matching receive, and both ports are free.  In
 * the plain model it arrives alpha + n beta later (alpha + n beta_x when the
 * two ranks exchange messages in the same round: COMMS2 measures it, and
 * over TCP it can be twice beta for messages of x_min bytes and more); the
 * sender and the receiver are busy for all of it, or with LogGP's overhead
 * o < alpha only for o + n beta each (cost.c).  Local reductions cost n gamma and copies n delta
 * (delta defaults to 0), after the round's messages.
 *
 * The parameters and their defaults (cost_params.c) serve the runtime's
 * closed-form choice too; the evaluator itself (cost.c) is tool code, in
 * libictools with the simulator, not in the installed library.
 */
#ifndef IC_COST_H
#define IC_COST_H

#include "schedule.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ic_cost_params {
    double alpha, beta, gamma, delta; /* seconds, seconds/byte               */
    double beta_x;                    /* plain model: seconds/byte of each of
                                         two messages that a pair of ranks
                                         exchange in the same round (both
                                         directions at once); 0 = beta     */
    size_t x_min;                     /* beta_x applies to exchanged messages
                                         of at least x_min bytes, shorter
                                         ones go full duplex at beta (TCP
                                         buffers them); 0 = all            */
    double overhead;                  /* plain model: LogGP's o, the sender's
                                         part of alpha: a send keeps its
                                         sender busy o + n beta, the message
                                         arrives alpha + n beta after its
                                         start (ic_model_t.overhead);
                                         0 or >= alpha: all of alpha       */
    size_t chunk;                     /* the executor sends messages longer
                                         than chunk bytes as lock-step pieces
                                         of at most chunk (INTERCOM_CHUNK);
                                         pipelined algorithms take segments
                                         no longer; 0 = whole messages     */
    int links;                        /* links a rank's sends to other nodes
                                         share, as measured (intercom-tune:
                                         a table's "links"); 0 = unknown   */
    int split;                        /* use the send/receive split model    */
    double alpha_s, alpha_r, beta_s, beta_r;
    size_t elem_size[IC_NBUF];        /* bytes per element of each buffer    */
    const struct ic_strides *strides; /* the closed forms' figures by rank
                                         distance (ic_model_t.strides); NULL
                                         = none; the evaluator ignores them */
    const struct ic_msgtime *msgtime; /* one message's time by its length
                                         (ic_model_t.msgtime); NULL = the
                                         line's; the evaluator ignores it */
} ic_cost_params_t;

/* Default parameters (rough figures of a 1 Gbit/s cluster), element size 1. */
void ic_cost_defaults(ic_cost_params_t *c);
/* The same for ranks of one node (shared memory): the library's model of
 * communicators within a node and of mesh lines inside a node. */
void ic_cost_defaults_node(ic_cost_params_t *c);
/* The parameters whose defaults follow from alpha and beta (LogGP's
 * overhead, the exchange's beta_x and x_min), across nodes (node = 0) or
 * within one: set from c's alpha and beta.  The library (src/env.c) and
 * intercom-info call it after reading alpha and beta, then apply their own
 * overrides. */
void ic_cost_derive(ic_cost_params_t *c, int node);
/* Synchronous sends of `bytes` each that keep a link busy: one completes
 * a round trip after it starts (its start-up, its bytes, the answer's
 * start-up), so w of them under way carry on while w bytes beta >=
 * 2 alpha + bytes beta.  At least 2; 2 where c has no alpha or beta. */
int ic_cost_send_window(const ic_cost_params_t *c, size_t bytes);

typedef struct ic_cost_event {
    int src, dst; /* ranks                         */
    size_t bytes;
    double start, end; /* seconds from the call's start */
} ic_cost_event_t;

typedef struct ic_cost_result {
    double time;       /* max over ranks of completion  */
    double *rank_time; /* p entries (owned)             */
    ic_cost_event_t *events;
    size_t nevents; /* time chart (owned), if asked */
} ic_cost_result_t;

/* Evaluate p schedules.  want_chart: also record every message.  Returns 0,
 * or -1 if the schedules do not match (deadlock) or memory ran out. */
int ic_cost_eval(const ic_sched_t *scheds, int p, const ic_cost_params_t *c, int want_chart,
                 ic_cost_result_t *out);
void ic_cost_result_free(ic_cost_result_t *r);
/* Write a time chart as text (one message per line) for gnuplot. */
void ic_cost_chart_write(const ic_cost_result_t *r, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
