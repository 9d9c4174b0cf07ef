/*
 * pipe_bcast.c -- pipelined chain broadcast on a line.
 *
 * Not one of mitra-1995's primitives: the long-vector broadcast of section
 * 3.2.2 (scatter + collect) moves 2 (n-1)/n m bytes through every port, so
 * it cannot come closer than about twice the m beta bound.  Cutting the
 * vector into k segments and streaming them down a chain makes every
 * position receive each byte once and forward it once, at the same time
 * (full duplex), so the time approaches m beta when k grows, at the price
 * of n - 2 + k start-ups.  The selector picks k from the cost model
 * (k = sqrt((n-2) m beta / alpha) minimises (n-2+k)(alpha + m beta / k)).
 *
 * The chain visits positions in ring order from the root: root, root+1,
 * ..., n-1, 0, ..., root-1.  On a linear array every message goes right
 * except the single wrap-around one, which goes left, so no two messages
 * share a link direction (as for the bucket collect).
 *
 * Chain index j (the root is 0) receives segment s in round s + j - 1 and
 * forwards it in round s + j.  Trace, n = 4, root 0, k = 3 segments
 * ("a>" = segment a goes to the next position):
 *   round   P0     P1        P2        P3
 *     0     0>     recv 0
 *     1     1>     0> r1     recv 0
 *     2     2>     1> r2     0> r1     recv 0
 *     3            2>        1> r2     recv 1
 *     4                      2>        recv 2
 * Rounds: n - 2 + k.  A round's receive and send use different segments,
 * so no region is written while it is read.
 *
 * Restrictions: none (any n, root, count; count 0 sends nothing).
 */
#include "algorithms.h"

void ic_pipe_bcast(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_region_t data, size_t seg)
{
    int n = line->n;
    size_t k;
    int me = ic_pipe_start(s, line, data.count, &seg, &k);
    if (me < 0)
        return;
    size_t j = (size_t)((me - root_pos + n) % n);
    int prev = ic_line_rank(line, (me + n - 1) % n);
    int next = ic_line_rank(line, (me + 1) % n);
    /* Position j is busy in rounds j - 1 .. j + k - 1 (of n - 2 + k). */
    size_t first = j > 0 ? j - 1 : 0;
    size_t last = j + 1 < (size_t)n ? j + k - 1 : j + k - 2;
    for (size_t t = first; t <= last; t++) {
        if (j > 0 && t + 1 - j < k) /* t + 1 >= j holds from `first` on */
            ic_sched_recv(s, prev, ic_segment(data, seg, k, t + 1 - j));
        if (j + 1 < (size_t)n && t >= j && t - j < k)
            ic_sched_send(s, next, ic_segment(data, seg, k, t - j));
        ic_sched_round(s);
    }
}
