/*
 * fanout.c -- full fan-out collect on a line (tan-strazdins-2002 section
 * 3.3.7, "Full Fan-Out").
 *
 * Every position sends each other position what it needs directly, all in
 * one round, and receives from every other position in the same round:
 * no message waits for another (the pattern has no dependencies), at the
 * price of n-1 start-ups at every position and n-1 messages in flight to
 * each.  Position i sends to i+1, i+2, ... (mod n) and posts its receives
 * from i-1, i-2, ..., so that the k-th message a position sends is the
 * k-th its receiver expects: the messages go in a staggered order, as in
 * the paper's all-to-all-like description.
 *
 * Collect (allgather): block j of counts[j] elements at base + prefix(j) of
 * `buf`; position i sends its block to everyone and receives block j from
 * position j into its place.
 *
 * Trace, n = 3 (a>Pk: block a goes to position k):
 *            P0                P1                P2
 *   round    0>P1, 0>P2        1>P2, 1>P0        2>P0, 2>P1
 *            recv P2, P1       recv P0, P2       recv P1, P0
 *
 * (The reduce-scatter and allreduce of the paper's pattern need every
 * position to hold the n-1 copies of its block at once, up to n-1 times
 * its largest block of scratch, beyond the library's bound of the message
 * for long calls: not registered.)
 *
 * Restrictions: none (any n, any counts; empty blocks are not sent).
 * Cost: the paper's equation (14) with overlap coefficient o = 1,
 * (n-1)(alpha + b beta_x) for blocks of b bytes (every position's
 * receives one after another, each message exchanged both ways in the
 * round): a lower bound of the cost evaluator's time, which also queues a
 * message behind its sender's earlier ones in the order they were matched
 * (tests/unit/check_cost_formulas.c).
 */
#include "algorithms.h"

void ic_fanout_collect(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                       const size_t *counts)
{
    int n = line->n;
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me < 0 || n <= 1)
        return;
    size_t mine = ic_blocks_prefix(counts, me);
    for (int k = 1; k < n; k++)
        if (counts[me] > 0)
            ic_sched_send(s, ic_line_rank(line, (me + k) % n),
                          ic_reg(buf, base + mine, counts[me]));
    for (int k = 1; k < n; k++) {
        int from = (me + n - k) % n;
        if (counts[from] > 0)
            ic_sched_recv(s, ic_line_rank(line, from),
                          ic_reg(buf, base + ic_blocks_prefix(counts, from), counts[from]));
    }
    ic_sched_round(s);
}
