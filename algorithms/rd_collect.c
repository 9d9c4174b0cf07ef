/*
 * rd_collect.c -- collect by recursive doubling on a line: the
 * bidirectional exchange of tan-strazdins-2002 section 3.3.1 for
 * allgather, the doubling half of its recursive halving + recursive
 * doubling allreduce (section 3.3.2), and the collect of the broadcast's
 * scatter + doubling (coll_bcast.c).
 *
 * Partners exchange everything they hold, doubling it each step: log2 n
 * start-ups and (n-1)/n m bytes through every port, every message an
 * exchange (both directions between a pair at once, which the paper's
 * contention-free switch carries at full rate).  Bruck's collect
 * (bruck_collect.c) takes as many steps for any n but sends to one
 * position and receives from another.
 *
 * Each step replays one of a recursive halving's splits (rh_dcombine.c)
 * of the range of virtual blocks, in reverse, and starts from the layout
 * that halving leaves:
 *   - near = 1: the partners go far first, 2^(k-1), ..., 2, 1 apart, so
 *     that the messages grow as the distance shrinks: the last, largest
 *     exchange (half the vector) is between neighbours, which on ranks
 *     numbered by node or along a torus's row stays inside the node or on
 *     one link (partners 1 apart first send that half across every node's
 *     link at once).  The mirror of the near-first recursive halving; its
 *     layout: position p holds block ic_rh_block(n, p, 1) (bitreverse of
 *     the virtual position), so that every range a position holds is
 *     contiguous; the composer lays an allgather's blocks out so
 *     (compose.c, qlayout_init).
 *   - near = 0: the partners go near first, 1, 2, ..., 2^(k-1) apart, from
 *     the natural layout (block p on position p): what an MST scatter
 *     leaves, for the broadcast's scatter + doubling.
 *   - near = IC_PAIRS_SWING: Swing's partners (rh_dcombine.c), the last
 *     step's first, from the layout its halving leaves.
 *
 * n = 2^k + rem positions: first the 2 rem lowest positions fold pairwise
 * (2i sends its block to 2i + 1, which holds the block after it), leaving
 * 2^k virtual positions; finally 2i + 1 sends 2i every block but its own
 * (two messages: the blocks before it and after it).
 * Trace, n = 4, near = 1 (layout 0 2 1 3; {} = blocks held):
 *   mask 2:  P0 <-> P2, P1 <-> P3   P0 {0,1}  P2 {0,1}  P1 {2,3}  P3 {2,3}
 *   mask 1:  P0 <-> P1, P2 <-> P3   everyone {0,1,2,3}
 * Trace, n = 4, near = 0 (layout 0 1 2 3):
 *   mask 1:  P0 <-> P1, P2 <-> P3   P0 {0,1}  P1 {0,1}  P2 {2,3}  P3 {2,3}
 *   mask 2:  P0 <-> P2, P1 <-> P3   everyone {0,1,2,3}
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
                   const size_t *counts, int near)
{
    int n = line->n;
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me < 0 || n <= 1)
        return;
    int pof2 = ic_fold_pof2(n), k = ic_ceil_log2(pof2);
    int rem = n - pof2;
    int folded = me < 2 * rem;
    int v = ic_fold_virtual(me, rem);
    size_t *vpre = ic_rh_vprefix(n, near, counts);
    if (!vpre) {
        s->oom = 1;
        return;
    }
    int even = folded ? ic_rh_block(n, me - me % 2, near) : 0; /* the fold pair's first block */
    if (folded) {
        if (v < 0)
            send_range(s, ic_line_rank(line, me + 1), buf, base, counts, even, even + 1, 0);
        else
            send_range(s, ic_line_rank(line, me - 1), buf, base, counts, even, even + 1, 1);
        ic_sched_round(s);
    }
    /* the halving's ranges of virtual blocks before each of its steps
     * (partners v XOR 1, 2, ... near first, v XOR pof2 / 2, ..., 1 far
     * first, Swing's: ic_rh_peer), replayed backwards */
    int lo[32], hi[32];
    lo[0] = 0;
    hi[0] = pof2;
    int w = v >= 0 ? ic_rh_vblock(pof2, near, v) : 0;
    for (int i = 0; v >= 0 && i < k; i++) {
        int mid = lo[i] + (hi[i] - lo[i]) / 2, up = (w >> (k - 1 - i)) & 1;
        lo[i + 1] = up ? mid : lo[i];
        hi[i + 1] = up ? hi[i] : mid;
    }
    for (int i = k - 1; v >= 0 && i >= 0; i--) {
        int pv = ic_rh_peer(pof2, near, i, v);
        int peer = ic_line_rank(line, ic_fold_real(pv, rem));
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
