/*
 * fanout.c -- full fan-out and full fan-in on a line (tan-strazdins-2002
 * section 3.3.7, "Full Fan-in" and "Full Fan-Out").
 *
 * Full fan-out: every position sends each other position what it needs
 * directly, all in one round, and receives from every other position in
 * the same round: no message waits for another (the pattern has no
 * dependencies), at the price of n-1 start-ups at every position and n-1
 * messages in flight to each.  Position i sends to i+1, i+2, ... (mod n)
 * and posts its receives from i-1, i-2, ..., so that the k-th message a
 * position sends is the k-th its receiver expects: the messages go in a
 * staggered order, as in the paper's all-to-all-like description.
 *
 * Full fan-in: n stages, in stage j position j receives what it needs
 * from j+1, j+2, ... (mod n), one message after the other (each in a round
 * of its own), and every other position sends it there: position i sends
 * to the stages before its own (0 .. i-1, one round) first, receives in
 * its own stage, then sends to the later ones (i+1 .. n-1, one round).  So
 * stage j starts when stage j-1 has received position j's message, and
 * position j's receives run one after the other: the time chart of the
 * paper's Figure 7.
 *
 * Collect (allgather): block j of counts[j] elements at base + prefix(j) of
 * `buf`; position i sends its block to everyone and receives block j from
 * position j into its place.
 *
 * Distributed combine (reduce-scatter): every position holds the full
 * vector there; position i sends block j to position j and combines the
 * copies of its own block it receives into it.  Fan-in receives one copy
 * at a time into one block of tmp; fan-out receives in rounds of w copies
 * into w blocks of tmp, w = min(n - 1, (m - b) / b) for the vector of m
 * elements and the largest block b (the same w on every position), so the
 * copies in flight never need more room than the rest of the vector (the
 * whole fan-out, n - 1, when the blocks are even).  Needs a commutative op
 * (copies arrive from j-1, j-2, ..., or j+1, j+2, ...).
 *
 * Trace of the fan-out collect, n = 3 (a>Pk: block a goes to position k):
 *            P0                P1                P2
 *   round    0>P1, 0>P2        1>P2, 1>P0        2>P0, 2>P1
 *            recv P2, P1       recv P0, P2       recv P1, P0
 * Trace of the fan-in collect, n = 3:
 *            P0                P1                P2
 *   A        -                 1>P0              2>P0, 2>P1
 *   stage    recv P1; recv P2  recv P2; recv P0  recv P0; recv P1
 *   B        0>P1, 0>P2        1>P2              -
 *
 * Restrictions: none for the collects (any n, any counts; empty blocks are
 * not sent); the combines need a commutative op.
 * Cost of the fan-out collect: the paper's equation (14) with overlap
 * coefficient o = 1, (n-1)(alpha + b beta_x) for blocks of b bytes (every
 * position's receives one after another, each message exchanged both ways
 * in the round): a lower bound of the cost evaluator's time, which also
 * queues a message behind its sender's earlier ones in the order they were
 * matched (tests/unit/check_cost_formulas.c).  Fan-in: the paper's
 * equation (13) under the split model, p S(b) + 2 (p-1) R(b)
 * (tests/unit/check_tan_strazdins.c); in the plain model stage j+1
 * starts once stage j has received its first message, and the collect
 * takes 3 (n-1)(alpha + b beta) (repeated.c: ic_pattern_cost).
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

/* Send block j of the vector at base of buf to position j, for j in
 * [from, to) (positions other than me). */
static void send_blocks(ic_sched_t *s, const ic_line_t *line, int me, ic_buf_t buf, size_t base,
                        const size_t *counts, int from, int to, int own)
{
    for (int j = from; j < to; j++)
        if (j != me && counts[own ? me : j] > 0)
            ic_sched_send(
                s, ic_line_rank(line, j),
                ic_reg(buf, base + ic_blocks_prefix(counts, own ? me : j), counts[own ? me : j]));
}

/* Fan-in: own != 0 sends the own block everywhere (collect), else block j
 * to position j (distributed combine); tmp == IC_NBUF receives into place
 * (collect), else into tmp and combines. */
static void fanin(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                  const size_t *counts, ic_buf_t tmp, size_t tmpbase)
{
    int n = line->n, own = tmp == IC_NBUF;
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me < 0 || n <= 1)
        return;
    send_blocks(s, line, me, buf, base, counts, 0, me, own);
    ic_sched_round(s);
    ic_region_t mine = ic_reg(buf, base + ic_blocks_prefix(counts, me), counts[me]);
    if (!own && counts[me] > 0)
        ic_sched_need(s, tmp, tmpbase + counts[me]);
    for (int k = 1; k < n; k++) {
        int from = (me + k) % n;
        size_t c = counts[own ? from : me];
        if (c == 0)
            continue;
        if (own) {
            ic_sched_recv(s, ic_line_rank(line, from),
                          ic_reg(buf, base + ic_blocks_prefix(counts, from), c));
        } else {
            ic_sched_recv(s, ic_line_rank(line, from), ic_reg(tmp, tmpbase, c));
            ic_sched_reduce(s, ic_reg(tmp, tmpbase, c), mine, 0);
        }
        ic_sched_round(s);
    }
    send_blocks(s, line, me, buf, base, counts, me + 1, n, own);
    ic_sched_round(s);
}

void ic_fanin_collect(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                      const size_t *counts)
{
    fanin(s, line, buf, base, counts, IC_NBUF, 0);
}

void ic_fanin_dcombine(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                       const size_t *counts, ic_buf_t tmp, size_t tmpbase)
{
    fanin(s, line, buf, base, counts, tmp, tmpbase);
}

size_t ic_fanout_window(int n, const size_t *counts)
{
    size_t total = ic_blocks_total(counts, n), maxb = 0;
    for (int j = 0; j < n; j++)
        maxb = counts[j] > maxb ? counts[j] : maxb;
    size_t w = maxb ? (total - maxb) / maxb : (size_t)n;
    return w < 1 ? 1 : w > (size_t)n - 1 ? (size_t)n - 1 : w;
}

void ic_fanout_dcombine(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                        const size_t *counts, ic_buf_t tmp, size_t tmpbase)
{
    int n = line->n;
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me < 0 || n <= 1)
        return;
    size_t w = ic_fanout_window(n, counts), c = counts[me];
    ic_region_t mine = ic_reg(buf, base + ic_blocks_prefix(counts, me), c);
    if (c > 0)
        ic_sched_need(s, tmp, tmpbase + w * c);
    for (size_t k0 = 1; k0 < (size_t)n; k0 += w) {
        size_t k1 = k0 + w < (size_t)n ? k0 + w : (size_t)n;
        for (size_t k = k0; k < k1; k++) {
            int to = (int)((me + k) % (size_t)n);
            if (counts[to] > 0)
                ic_sched_send(s, ic_line_rank(line, to),
                              ic_reg(buf, base + ic_blocks_prefix(counts, to), counts[to]));
        }
        for (size_t k = k0; k < k1 && c > 0; k++) {
            ic_region_t slot = ic_reg(tmp, tmpbase + (k - k0) * c, c);
            ic_sched_recv(s, ic_line_rank(line, (int)((me + (size_t)n - k) % (size_t)n)), slot);
            ic_sched_reduce(s, slot, mine, 0);
        }
        ic_sched_round(s);
    }
}

/* The one-shot's slot of position j's vector in tmp (m elements each):
 * slot j below me, j - 1 above. */
static ic_region_t one_shot_slot(ic_region_t tmp, int j, int me, size_t m)
{
    return ic_reg(tmp.buf, tmp.off + (size_t)(j < me ? j : j - 1) * m, m);
}

void ic_fanout_allreduce(ic_sched_t *s, const ic_line_t *line, ic_region_t acc, ic_region_t tmp)
{
    int n = line->n;
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me < 0 || n <= 1)
        return;
    size_t m = acc.count;
    if (m > 0)
        ic_sched_need(s, tmp.buf, tmp.off + (size_t)(n - 1) * m);
    for (int k = 1; k < n && m > 0; k++)
        ic_sched_send(s, ic_line_rank(line, (me + k) % n), acc);
    for (int k = 1; k < n && m > 0; k++) {
        int from = (me + n - k) % n;
        ic_sched_recv(s, ic_line_rank(line, from), one_shot_slot(tmp, from, me, m));
    }
    /* ((x_0 (op) x_1) (op) ...) (op) x_{n-1}, the same expression on every
     * position: positions 0 .. me-1 fold into slot 0, which then goes
     * before acc (x_me), and acc takes the rest after it */
    if (m > 0) {
        ic_region_t first = one_shot_slot(tmp, 0, me, m);
        for (int j = 1; j < me; j++)
            ic_sched_reduce(s, one_shot_slot(tmp, j, me, m), first, 0);
        if (me > 0)
            ic_sched_reduce(s, first, acc, 1);
        for (int j = me + 1; j < n; j++)
            ic_sched_reduce(s, one_shot_slot(tmp, j, me, m), acc, 0);
    }
    ic_sched_round(s);
}
