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
 * Near first (near != 0): the same halving with the partners in the other
 * order, mask = 1, 2, ..., 2^(k-1): the largest exchange, half the vector,
 * goes to the nearest position, and only the last, smallest ones travel
 * far (where ranks are numbered by node or along a row of a torus, the
 * big halves stay inside the node or on the neighbour link; the far-first
 * order sends half the vector out of every node at once).  Each range of
 * virtual blocks stays contiguous if virtual position v ends with virtual
 * block bitreverse(v) (k bits) instead of v: the result is permuted, block
 * ic_rh_block(n, p, 1) on position p, and the collect that mirrors the
 * halving (ic_rd_collect) gathers it back.  With a fold, virtual
 * block w covers two blocks when its owner bitreverse(w) is a folded pair
 * (ic_rh_vblocks).
 * Trace, n = 4, near first:
 *   mask 1:  P0 <-> P1, P2 <-> P3: P0, P2 keep blocks 0-1, P1, P3 keep 2-3
 *   mask 2:  P0 <-> P2, P1 <-> P3: P0 block 0, P2 block 1, P1 block 2, ...
 *
 * Cost (n = 2^k, even blocks, either order): k alpha + (n-1)/n m (beta +
 * gamma); when n is not a power of two add alpha + m (beta + gamma) for
 * the fold and alpha + (m/n) beta for the unfold.  (Alpha-beta has no
 * distance: the order shows on machines whose links are shared.)
 */
#include "algorithms.h"

#include <stdlib.h>

static int bitrev(int v, int pof2)
{
    int r = 0;
    for (int m = 1; m < pof2; m <<= 1)
        r = (r << 1) | ((v & m) != 0);
    return r;
}

void ic_rh_vblocks(int n, int near, int *vstart)
{
    int pof2 = ic_fold_pof2(n), rem = n - pof2;
    vstart[0] = 0;
    for (int w = 0; w < pof2; w++)
        vstart[w + 1] = vstart[w] + 1 + ((near ? bitrev(w, pof2) : w) < rem);
}

int ic_rh_block(int n, int pos, int near)
{
    if (!near || n <= 1)
        return pos;
    int pof2 = ic_fold_pof2(n), rem = n - pof2;
    int v = pos < 2 * rem ? pos / 2 : pos - rem, w = bitrev(v, pof2), b = 0;
    for (int u = 0; u < w; u++) /* vstart[w] of ic_rh_vblocks */
        b += 1 + (bitrev(u, pof2) < rem);
    return b + (pos < 2 * rem && pos % 2);
}

int ic_rh_blocks(int n, int near, int *block)
{
    int pof2 = ic_fold_pof2(n), rem = n - pof2;
    int *vstart = malloc(((size_t)pof2 + 1) * sizeof(int));
    if (!vstart)
        return -1;
    ic_rh_vblocks(n, near, vstart);
    for (int pos = 0; pos < n; pos++) {
        int v = pos < 2 * rem ? pos / 2 : pos - rem;
        block[pos] = near ? vstart[bitrev(v, pof2)] + (pos < 2 * rem && pos % 2) : pos;
    }
    free(vstart);
    return 0;
}

size_t *ic_rh_vprefix(int n, int near, const size_t *counts)
{
    int pof2 = ic_fold_pof2(n);
    int *vstart = malloc(((size_t)pof2 + 1) * sizeof(int));
    size_t *vpre = malloc(((size_t)pof2 + 1) * sizeof(size_t));
    if (!vstart || !vpre) {
        free(vstart);
        free(vpre);
        return NULL;
    }
    ic_rh_vblocks(n, near, vstart);
    vpre[0] = 0;
    for (int w = 0; w < pof2; w++) {
        vpre[w + 1] = vpre[w];
        for (int j = vstart[w]; j < vstart[w + 1]; j++)
            vpre[w + 1] += counts[j];
    }
    free(vstart);
    return vpre;
}

void ic_rh_dcombine(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                    const size_t *counts, ic_buf_t tmp, size_t tmpbase, int near)
{
    ic_rh_dcombine_ro(s, line, NULL, buf, base, counts, tmp, tmpbase, near);
}

void ic_rh_dcombine_ro(ic_sched_t *s, const ic_line_t *line, const ic_region_t *in, ic_buf_t buf,
                       size_t base, const size_t *counts, ic_buf_t tmp, size_t tmpbase, int near)
{
    int n = line->n;
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me < 0 || n <= 1)
        return;
    size_t total = ic_blocks_total(counts, n);
    size_t need = 0; /* the largest receive into tmp */
    int pof2 = ic_fold_pof2(n);
    int rem = n - pof2;
    int folded = me < 2 * rem;
    int v = ic_fold_virtual(me, rem);
    if (in && rem > 0) { /* not with folds (algorithms.h): a caller's mistake */
        s->oom = 1;
        return;
    }

    /* vpre[w]: packed offset of virtual block w (pof2 + 1 entries). */
    size_t *vpre = ic_rh_vprefix(n, near, counts);
    if (!vpre) {
        s->oom = 1;
        return;
    }

    ic_region_t all = ic_reg(buf, base, total);
    if (folded && v < 0 && total > 0)
        ic_sched_send(s, ic_line_rank(line, me + 1), all);
    if (folded && v >= 0 && total > 0) {
        need = total;
        ic_sched_recv(s, ic_line_rank(line, me - 1), ic_reg(tmp, tmpbase, total));
        ic_sched_reduce(s, ic_reg(tmp, tmpbase, total), all, 1);
    }
    ic_sched_round(s);

    int lo = 0, hi = pof2; /* my current range of virtual blocks */
    for (int i = 1; v >= 0 && i < pof2; i *= 2) {
        int mask = near ? i : pof2 / 2 / i, mid = lo + (hi - lo) / 2;
        int keep_lo = (v & mask) ? mid : lo, keep_hi = (v & mask) ? hi : mid;
        int give_lo = (v & mask) ? lo : mid, give_hi = (v & mask) ? mid : hi;
        int peer = ic_line_rank(line, ic_fold_real(v ^ mask, rem));
        size_t klen = vpre[keep_hi] - vpre[keep_lo], glen = vpre[give_hi] - vpre[give_lo];
        if (in && i == 1) { /* the input where it is: the partner's copy of my
                               half arrives in place and my input joins it */
            if (glen > 0)
                ic_sched_send(s, peer, ic_reg(in->buf, in->off + vpre[give_lo], glen));
            if (klen > 0) {
                ic_region_t mine = ic_reg(buf, base + vpre[keep_lo], klen);
                ic_sched_recv(s, peer, mine);
                ic_sched_reduce(s, ic_reg(in->buf, in->off + vpre[keep_lo], klen), mine,
                                v < (v ^ mask));
            }
            ic_sched_round(s);
            lo = keep_lo;
            hi = keep_hi;
            continue;
        }
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
        /* the first of the two blocks of the pair's virtual block */
        int pair = v < 0 ? me / 2 : v;
        int even = ic_rh_block(n, 2 * pair, near);
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
