/*
 * mst_bcast.c -- minimum-spanning-tree broadcast on a line (mitra-1995
 * section 3.1.1).
 *
 * The line is halved recursively (see mst.h for the index arithmetic and
 * why no two messages of a step share a link of a linear array): the root
 * of a range sends the whole vector to the position of the other half
 * nearest to it, which becomes that half's root.  Each position receives at
 * most once, before it sends; one step is one round.
 *
 * Restrictions: none (any n, any root, any line).  A zero-length vector is
 * still sent (empty messages), so the broadcast also synchronises.
 *
 * Cost: ceil(log2 n) (alpha + m beta).
 */
#include "algorithms.h"
#include "mst.h"

void ic_mst_bcast(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_region_t data)
{
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me < 0 || line->n <= 1)
        return;

    ic_mst_step_t st[IC_MST_MAXSTEPS];
    int k = ic_mst_steps(line->n, root_pos, me, st);
    for (int i = 0; i < k; i++) {
        if (st[i].role == IC_MST_SEND)
            ic_sched_send(s, ic_line_rank(line, st[i].peer), data);
        else if (st[i].role == IC_MST_RECV)
            ic_sched_recv(s, ic_line_rank(line, st[i].peer), data);
        ic_sched_round(s);
    }
}
