/*
 * match.h -- MPI's message matching for the schedules of all p ranks,
 * without MPI: the one routine that the in-memory simulator (tuning/sim.c)
 * and the cost evaluator (tuning/cost.c) share.
 *
 * A SEND from src to dst matches the oldest unmatched RECV that dst posted
 * from src, and a RECV the oldest unmatched SEND: messages of one ordered
 * pair (src, dst) match in posting order (MPI's non-overtaking rule),
 * whatever the round numbers.  Each side that finds nothing to match waits
 * in the pair's queue; at most one side of a pair can wait, so one FIFO
 * queue per pair suffices.  The queues are found through an open
 * addressing hash table keyed by (src, dst), so the work is O(1) per
 * posted action, independent of p.
 *
 * Every posted action carries an entry of the caller's (esize bytes, e.g.
 * the posting rank, its action index and whatever the caller needs when
 * the message is matched), copied into the matcher's pool.
 */
#ifndef IC_MATCH_H
#define IC_MATCH_H

#include "schedule.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ic_match_pair {
    uint64_t key;   /* src * p + dst + 1; 0 = empty slot       */
    int head, tail; /* queue of pool indices, -1 when empty    */
    int kind;       /* IC_ACT_SEND or IC_ACT_RECV: what waits  */
} ic_match_pair_t;

typedef struct ic_match {
    int p;
    size_t esize;        /* bytes of one caller entry                */
    unsigned char *pool; /* npool entries of esize bytes: the waiting
                            ones and, on the free list, the matched
                            ones as the caller last left them        */
    int *next;           /* per pool entry: next in its queue or on
                            the free list, -1 = none                 */
    size_t npool, poolcap;
    int freel; /* free list of pool entries, -1 = empty */
    ic_match_pair_t *tab;
    size_t tabcap; /* power of two */
    size_t ntab;   /* pairs in the table */
} ic_match_t;

/* Set up matching among p ranks for entries of esize bytes (a multiple of
 * the entry's alignment, as sizeof of a struct is).  Returns 0, or -1 when
 * out of memory. */
int ic_match_init(ic_match_t *m, int p, size_t esize);
void ic_match_free(ic_match_t *m);

/* Post one side of a message: kind IC_ACT_SEND (rank src sends to dst) or
 * IC_ACT_RECV (rank dst receives from src), carrying `entry`.
 *   1: it matches; *out points at the entry of the oldest waiting other
 *      side, now removed from its queue (valid until the next post);
 *   0: nothing to match: a copy of `entry` waits in the pair's queue, and
 *      *out points at that copy (the caller may complete it);
 *  -1: out of memory. */
int ic_match_post(ic_match_t *m, ic_act_kind_t kind, int src, int dst, const void *entry,
                  void **out);

/* Entry i of the pool (i < m->npool). */
static inline void *ic_match_entry(const ic_match_t *m, size_t i)
{
    return m->pool + i * m->esize;
}

/* The oldest waiting entry of the first pair (in table order) that still
 * has one, or NULL when every posted action has been matched. */
void *ic_match_waiting(const ic_match_t *m);

#ifdef __cplusplus
}
#endif
#endif
