/*
 * rd_collect.c -- collect by recursive doubling on a line: the
 * bidirectional exchange of tan-strazdins-2002 section 3.3.1 for
 * allgather, and the doubling half of its recursive halving + recursive
 * doubling allreduce (section 3.3.2).
 *
 * Partners at distance 1, 2, 4, ... exchange everything they hold, so
 * after step j a position holds the blocks of a run of 2^(j+1) positions:
 * log2 n start-ups and (n-1)/n m bytes through every port, every message
 * an exchange (both directions between a pair at once, which the paper's
 * contention-free switch carries at full rate).  Bruck's collect
 * (bruck_collect.c) takes as many steps for any n but sends to one
 * position and receives from another.
 *
 * n = 2^k + rem positions: first the 2 rem lowest positions fold pairwise
 * (2i sends its block to 2i + 1), leaving 2^k virtual positions; virtual
 * position v holds the blocks of positions [lo(v), lo(v + 1)) with
 * lo(v) = 2v for v < rem, v + rem otherwise, so a run of virtual positions
 * holds a run of blocks, contiguous in the packed layout: every exchange
 * is one message each way.  Finally 2i + 1 sends 2i every block but its
 * own (two messages: the blocks before it and after it).
 * Trace, n = 3 (rem = 1; {} = blocks held):
 *   fold:    0 -> 1                 P1 {0,1}  P2 {2}
 *   step 0:  P1 <-> P2              P1 {0,1,2}  P2 {0,1,2}
 *   unfold:  1 -> 0 (block 2)       everyone {0,1,2}
 *
 * ic_rd_collect_near mirrors the near-first recursive halving
 * (rh_dcombine.c): from its permuted layout (block ic_rh_block(n, p, 1) on
 * position p), partners 2^(k-1), ..., 2, 1 apart exchange what they hold,
 * the halving's ranges of virtual blocks in reverse, so that the smallest
 * messages travel farthest; the same fold and unfold, the same cost.
 *
 * Restrictions: none (any n, any counts; empty messages are not sent).
 * Block j of counts[j] elements at base + prefix(j) of buf, as
 * ic_bucket_collect.
 * Cost (n = 2^k, blocks of b bytes): sum over j < k of
 * alpha + 2^j b beta_x (exchanges); when n is not a power of two add the
 * fold, alpha + b beta, and the unfold, alpha + (m - b) beta, and the
 * first steps move up to twice as much (coll_allgather.c: an estimate).
 */
#include "algorithms.h"

#include <stdlib.h>

/* The first position of virtual position v (rem positions folded away). */
static int first_pos(int v, int rem)
{
    return v < rem ? 2 * v : v + rem;
}

static void send_range(ic_sched_t *s, int peer, ic_buf_t buf, size_t base, const size_t *counts,
                       int from, int to, int recv)
{
    size_t off = ic_blocks_prefix(counts, from), len = ic_blocks_prefix(counts, to) - off;
    if (len == 0)
        return;
    if (recv)
        ic_sched_recv(s, peer, ic_reg(buf, base + off, len));
    else
        ic_sched_send(s, peer, ic_reg(buf, base + off, len));
}

void ic_rd_collect(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                   const size_t *counts)
{
    int n = line->n;
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me < 0 || n <= 1)
        return;
    int pof2 = 1;
    while (pof2 <= n / 2)
        pof2 *= 2;
    int rem = n - pof2;
    int folded = me < 2 * rem;
    int v = folded ? (me % 2 ? me / 2 : -1) : me - rem; /* virtual position */

    if (folded) {
        int even = me - me % 2;
        if (v < 0)
            send_range(s, ic_line_rank(line, me + 1), buf, base, counts, me, me + 1, 0);
        else
            send_range(s, ic_line_rank(line, me - 1), buf, base, counts, even, me, 1);
        ic_sched_round(s);
    }
    for (int mask = 1; v >= 0 && mask < pof2; mask <<= 1) {
        int g = v & ~(mask - 1), pg = (v ^ mask) & ~(mask - 1);
        int peer = ic_line_rank(line, first_pos(v ^ mask, rem) + ((v ^ mask) < rem));
        send_range(s, peer, buf, base, counts, first_pos(g, rem), first_pos(g + mask, rem), 0);
        send_range(s, peer, buf, base, counts, first_pos(pg, rem), first_pos(pg + mask, rem), 1);
        ic_sched_round(s);
    }
    if (folded) {
        int even = me - me % 2, recv = v < 0;
        int peer = ic_line_rank(line, recv ? me + 1 : me - 1);
        send_range(s, peer, buf, base, counts, 0, even, recv);
        send_range(s, peer, buf, base, counts, even + 1, n, recv);
        ic_sched_round(s);
    }
}

void ic_rd_collect_near(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                        const size_t *counts)
{
    int n = line->n;
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me < 0 || n <= 1)
        return;
    int pof2 = 1, k = 0;
    while (pof2 <= n / 2) {
        pof2 *= 2;
        k++;
    }
    int rem = n - pof2;
    int folded = me < 2 * rem;
    int v = folded ? (me % 2 ? me / 2 : -1) : me - rem; /* virtual position */
    size_t *vpre = ic_rh_vprefix(n, 1, counts);
    if (!vpre) {
        s->oom = 1;
        return;
    }
    int even = folded ? ic_rh_block(n, me - me % 2, 1) : 0; /* the fold pair's first block */
    if (folded) {
        if (v < 0)
            send_range(s, ic_line_rank(line, me + 1), buf, base, counts, even, even + 1, 0);
        else
            send_range(s, ic_line_rank(line, me - 1), buf, base, counts, even, even + 1, 1);
        ic_sched_round(s);
    }
    /* the halving's ranges of virtual blocks before each of its steps
     * (mask 1, 2, ...), replayed backwards */
    int lo[32], hi[32];
    lo[0] = 0;
    hi[0] = pof2;
    for (int i = 0; v >= 0 && i < k; i++) {
        int mid = lo[i] + (hi[i] - lo[i]) / 2, up = (v >> i) & 1;
        lo[i + 1] = up ? mid : lo[i];
        hi[i + 1] = up ? hi[i] : mid;
    }
    for (int i = k - 1; v >= 0 && i >= 0; i--) {
        int mask = 1 << i, pv = v ^ mask;
        int peer = ic_line_rank(line, pv < rem ? 2 * pv + 1 : pv + rem);
        int olo = lo[i + 1] == lo[i] ? hi[i + 1] : lo[i],
            ohi = lo[i + 1] == lo[i] ? hi[i] : lo[i + 1];
        size_t ml = vpre[hi[i + 1]] - vpre[lo[i + 1]], ol = vpre[ohi] - vpre[olo];
        if (ml > 0)
            ic_sched_send(s, peer, ic_reg(buf, base + vpre[lo[i + 1]], ml));
        if (ol > 0)
            ic_sched_recv(s, peer, ic_reg(buf, base + vpre[olo], ol));
        ic_sched_round(s);
    }
    if (folded) {
        int recv = v < 0;
        int peer = ic_line_rank(line, recv ? me + 1 : me - 1);
        send_range(s, peer, buf, base, counts, 0, even, recv);
        send_range(s, peer, buf, base, counts, even + 1, n, recv);
        ic_sched_round(s);
    }
    free(vpre);
}
