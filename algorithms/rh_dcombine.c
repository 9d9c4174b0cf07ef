/*
 * rh_dcombine.c -- distributed combine by recursive halving on a line.
 *
 * Not one of mitra-1995's primitives: its bucket distributed combine takes
 * n - 1 start-ups; halving the vector between partners at distance n/2,
 * n/4, ..., 1 takes log2 n start-ups for the same (n-1)/n m (beta + gamma),
 * which wins for short and middle lengths.
 *
 * n = 2^k + rem positions: first the 2 rem lowest positions fold pairwise
 * (2i sends its whole vector to 2i + 1, which combines it), leaving 2^k
 * virtual positions; virtual position v is responsible for the blocks of
 * positions 2v and 2v + 1 when v < rem, else for the block of position
 * v + rem ("virtual block" v, contiguous in the packed layout).  Then, for
 * mask = 2^(k-1), ..., 1, v and v XOR mask split their current range of
 * virtual blocks in two halves: each sends the half the other keeps and
 * combines the partner's copy of its own half.  At the end v holds its
 * virtual block, complete; 2i + 1 sends position 2i's block to it.
 * Trace, n = 4 (vector of blocks 0..3; {} = ranks combined):
 *   mask 2:  P0 <-> P2, P1 <-> P3: P0, P1 keep blocks 0-1, P2, P3 keep 2-3
 *   mask 1:  P0 <-> P1, P2 <-> P3: P0 block 0 {0..3}, P1 block 1 {0..3}, ...
 *
 * Restrictions: needs a commutative op (the halves combine ranks that are
 * not adjacent).  Every position holds a full vector (blocks packed in
 * position order) at base of buf; on return position p's block p holds the
 * combination over all positions; other parts of buf are clobbered.  tmp
 * receives partner data: the schedule asks for the largest receive (about
 * half the vector; the whole one on the positions that take a fold).
 *
 * Cost (n = 2^k, even blocks): k alpha + (n-1)/n m (beta + gamma); when n
 * is not a power of two add alpha + m (beta + gamma) for the fold and
 * alpha + (m/n) beta for the unfold.
 */
#include "algorithms.h"

#include <stdlib.h>

void ic_rh_dcombine(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                    const size_t *counts, ic_buf_t tmp, size_t tmpbase)
{
    int n = line->n;
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me < 0 || n <= 1)
        return;
    size_t total = ic_blocks_total(counts, n);
    size_t need = 0; /* the largest receive into tmp */
    int pof2 = 1;
    while (pof2 <= n / 2)
        pof2 *= 2;
    int rem = n - pof2;
    int folded = me < 2 * rem;
    int v = folded ? (me % 2 ? me / 2 : -1) : me - rem;

    /* vpre[w]: packed offset of virtual block w (pof2 + 1 entries). */
    size_t *vpre = malloc(((size_t)pof2 + 1) * sizeof(size_t));
    if (!vpre) {
        s->oom = 1;
        return;
    }
    vpre[0] = 0;
    for (int w = 0; w < pof2; w++)
        vpre[w + 1] =
            vpre[w] + counts[w < rem ? 2 * w : w + rem] + (w < rem ? counts[2 * w + 1] : 0);

    ic_region_t all = ic_reg(buf, base, total);
    if (folded && v < 0)
        ic_sched_send(s, ic_line_rank(line, me + 1), all);
    if (folded && v >= 0) {
        need = total;
        ic_sched_recv(s, ic_line_rank(line, me - 1), ic_reg(tmp, tmpbase, total));
        if (total > 0)
            ic_sched_reduce(s, ic_reg(tmp, tmpbase, total), all, 1);
    }
    ic_sched_round(s);

    int lo = 0, hi = pof2; /* my current range of virtual blocks */
    for (int mask = pof2 / 2; v >= 0 && mask >= 1; mask /= 2) {
        int mid = lo + mask;
        int keep_lo = (v & mask) ? mid : lo, keep_hi = (v & mask) ? hi : mid;
        int give_lo = (v & mask) ? lo : mid, give_hi = (v & mask) ? mid : hi;
        int peer = ic_line_rank(line, (v ^ mask) < rem ? 2 * (v ^ mask) + 1 : (v ^ mask) + rem);
        size_t klen = vpre[keep_hi] - vpre[keep_lo], glen = vpre[give_hi] - vpre[give_lo];
        if (glen > 0)
            ic_sched_send(s, peer, ic_reg(buf, base + vpre[give_lo], glen));
        if (klen > 0) {
            need = klen > need ? klen : need;
            ic_sched_recv(s, peer, ic_reg(tmp, tmpbase, klen));
            ic_sched_reduce(s, ic_reg(tmp, tmpbase, klen), ic_reg(buf, base + vpre[keep_lo], klen),
                            (v ^ mask) < v);
        }
        ic_sched_round(s);
        lo = keep_lo;
        hi = keep_hi;
    }

    if (folded) {
        /* the block of position 2i = me - 1 (or me when I am 2i) */
        int even = v < 0 ? me : me - 1;
        size_t off = ic_blocks_prefix(counts, even);
        if (counts[even] > 0) {
            if (v < 0)
                ic_sched_recv(s, ic_line_rank(line, me + 1), ic_reg(buf, base + off, counts[even]));
            else
                ic_sched_send(s, ic_line_rank(line, me - 1), ic_reg(buf, base + off, counts[even]));
        }
        ic_sched_round(s);
    }
    if (need > 0)
        ic_sched_need(s, tmp, tmpbase + need);
    free(vpre);
}
