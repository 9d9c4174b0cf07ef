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
 * Swing (order IC_PAIRS_SWING; De Sensi, Bonato, Saam, Hoefler, NSDI
 * 2024): in step i virtual position v pairs with v + rho(i) when v is
 * even, v - rho(i) when odd (mod 2^k), rho(i) = sum of (-2)^j for j <= i:
 * 1, -1, 3, -5, 11, -21, ...  The partners of every step are at most
 * about 2^(i+1)/3 apart on a ring (XOR's are 2^i apart near first, and
 * far first start 2^(k-1) apart), and half the pairs of a step look one
 * way round, half the other, so a torus's rings carry the halves both
 * ways.  The set of positions v still combines with after step i (its
 * step i+1 .. k-1 partners, theirs, ...) is, for every power of two, the
 * same for all its members and disjoint from its step-i partner's: each
 * step splits a range of virtual blocks between two such sets (checked
 * for 2^k <= 4096 when this was written; the simulator tests run every n
 * to 1000).  The half of the set that holds the lowest virtual position
 * keeps the lower half of the range; v ends with virtual block
 * ic_rh_layout's w[v], the bits of its halves, first step highest.
 * Trace, n = 8 (rho 1, -1, 3; sets before the last step {0,3} {1,6} {2,5}
 * {4,7}, before the second {0,3,4,7} {1,2,5,6}):
 *   step 0:  0<->1 2<->3 4<->5 6<->7   {0,3,4,7} keep blocks 0-3
 *   step 1:  0<->7 2<->1 4<->3 6<->5   {0,3} keep 0-1, {1,6} 4-5
 *   step 2:  0<->3 2<->5 4<->7 6<->1   P0 block 0, P3 1, P4 2, P7 3, ...
 *
 * Cost (n = 2^k, even blocks, any order): k alpha + (n-1)/n m (beta +
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

int ic_rh_peer(int pof2, int order, int i, int v)
{
    if (order == IC_PAIRS_FAR)
        return v ^ (pof2 >> (i + 1));
    if (order == IC_PAIRS_NEAR)
        return v ^ (1 << i);
    long long rho = 0, t = 1; /* sum of (-2)^j, j <= i (i < k <= 30) */
    for (int j = 0; j <= i; j++, t *= -2)
        rho += t;
    long long q = ((v % 2 ? v - rho : v + rho) % pof2 + pof2) % pof2;
    return (int)q;
}

/* Swing: the lowest virtual position v still combines with after step
 * i - 1 (steps i .. k-1 to come): 2^(k-i) of them, found recursively. */
static int swing_low(int pof2, int k, int v, int i)
{
    if (i == k)
        return v;
    int a = swing_low(pof2, k, v, i + 1),
        b = swing_low(pof2, k, ic_rh_peer(pof2, IC_PAIRS_SWING, i, v), i + 1);
    return a < b ? a : b;
}

int ic_rh_vblock(int pof2, int order, int v)
{
    if (order == IC_PAIRS_FAR)
        return v;
    if (order == IC_PAIRS_NEAR)
        return bitrev(v, pof2);
    int k = ic_ceil_log2(pof2), w = 0;
    for (int i = 0; i < k; i++) {
        int mine = swing_low(pof2, k, v, i + 1);
        int theirs = swing_low(pof2, k, ic_rh_peer(pof2, order, i, v), i + 1);
        w |= (mine > theirs) << (k - 1 - i);
    }
    return w;
}

int ic_rh_layout(int pof2, int order, int *w)
{
    if (order != IC_PAIRS_SWING) {
        for (int v = 0; v < pof2; v++)
            w[v] = ic_rh_vblock(pof2, order, v);
        return 0;
    }
    /* level by level, from the last step back: low[v], the lowest
     * position of v's set before step i */
    int k = ic_ceil_log2(pof2);
    int *low = malloc(2 * (size_t)pof2 * sizeof(int));
    if (!low)
        return -1;
    int *nxt = low + pof2;
    for (int v = 0; v < pof2; v++) {
        low[v] = v;
        w[v] = 0;
    }
    for (int i = k - 1; i >= 0; i--) {
        for (int v = 0; v < pof2; v++) {
            int theirs = low[ic_rh_peer(pof2, order, i, v)];
            nxt[v] = low[v] < theirs ? low[v] : theirs;
            w[v] |= (low[v] > theirs) << (k - 1 - i);
        }
        for (int v = 0; v < pof2; v++)
            low[v] = nxt[v];
    }
    free(low);
    return 0;
}

int ic_rh_vblocks(int n, int near, int *vstart)
{
    int pof2 = ic_fold_pof2(n), rem = n - pof2;
    int *w = malloc(2 * (size_t)pof2 * sizeof(int));
    if (!w)
        return -1;
    int *owner = w + pof2; /* the virtual position that ends with virtual block u */
    if (ic_rh_layout(pof2, near, w) != 0) {
        free(w);
        return -1;
    }
    for (int v = 0; v < pof2; v++)
        owner[w[v]] = v;
    vstart[0] = 0;
    for (int u = 0; u < pof2; u++)
        vstart[u + 1] = vstart[u] + 1 + (owner[u] < rem);
    free(w);
    return 0;
}

int ic_rh_block(int n, int pos, int near)
{
    if (!near || n <= 1)
        return pos;
    int pof2 = ic_fold_pof2(n), rem = n - pof2;
    int v = pos < 2 * rem ? pos / 2 : pos - rem, w = ic_rh_vblock(pof2, near, v), b = 0;
    int *vstart = near == IC_PAIRS_SWING ? malloc(((size_t)pof2 + 1) * sizeof(int)) : NULL;
    if (vstart && ic_rh_vblocks(n, near, vstart) == 0) {
        b = vstart[w];
    } else { /* vstart[w] of ic_rh_vblocks: the blocks before w */
        for (int x = 0; x < pof2; x++)
            if (ic_rh_vblock(pof2, near, x) < w)
                b += 1 + (x < rem);
    }
    free(vstart);
    return b + (pos < 2 * rem && pos % 2);
}

int ic_rh_blocks(int n, int near, int *block)
{
    int pof2 = ic_fold_pof2(n), rem = n - pof2;
    int *vstart = malloc(((size_t)pof2 + 1) * sizeof(int));
    int *w = malloc((size_t)pof2 * sizeof(int));
    if (!vstart || !w || ic_rh_vblocks(n, near, vstart) != 0 || ic_rh_layout(pof2, near, w) != 0) {
        free(vstart);
        free(w);
        return -1;
    }
    for (int pos = 0; pos < n; pos++) {
        int v = pos < 2 * rem ? pos / 2 : pos - rem;
        block[pos] = near ? vstart[w[v]] + (pos < 2 * rem && pos % 2) : pos;
    }
    free(vstart);
    free(w);
    return 0;
}

size_t *ic_rh_vprefix(int n, int near, const size_t *counts)
{
    int pof2 = ic_fold_pof2(n);
    int *vstart = malloc(((size_t)pof2 + 1) * sizeof(int));
    size_t *vpre = malloc(((size_t)pof2 + 1) * sizeof(size_t));
    if (!vstart || !vpre || ic_rh_vblocks(n, near, vstart) != 0) {
        free(vstart);
        free(vpre);
        return NULL;
    }
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
    int k = ic_ceil_log2(pof2), w = v >= 0 ? ic_rh_vblock(pof2, near, v) : 0;
    for (int i = 0; v >= 0 && i < k; i++) {
        int up = (w >> (k - 1 - i)) & 1, mid = lo + (hi - lo) / 2;
        int keep_lo = up ? mid : lo, keep_hi = up ? hi : mid;
        int give_lo = up ? lo : mid, give_hi = up ? mid : hi;
        int pv = ic_rh_peer(pof2, near, i, v);
        int peer = ic_line_rank(line, ic_fold_real(pv, rem));
        size_t klen = vpre[keep_hi] - vpre[keep_lo], glen = vpre[give_hi] - vpre[give_lo];
        if (in && i == 0) { /* the input where it is: the partner's copy of my
                               half arrives in place and my input joins it */
            if (glen > 0)
                ic_sched_send(s, peer, ic_reg(in->buf, in->off + vpre[give_lo], glen));
            if (klen > 0) {
                ic_region_t mine = ic_reg(buf, base + vpre[keep_lo], klen);
                ic_sched_recv(s, peer, mine);
                ic_sched_reduce(s, ic_reg(in->buf, in->off + vpre[keep_lo], klen), mine, v < pv);
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
                            pv < v);
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
