/*
 * pipe_combine.c -- pipelined chain combine-to-one on a line: the
 * pipelined broadcast (pipe_bcast.c) run backwards, every position
 * combining as the partials go by.
 *
 * Not one of mitra-1995's primitives.  Its long-vector combine-to-one
 * (distributed combine + gather, section 3.2.2) moves 2 (n-1)/n m bytes
 * through every port, the MST ceil(log2 n) m through the root's.  Cut into
 * k segments and streamed along a chain that ends at the root, every
 * position receives each segment once and sends it on once, at the same
 * time (full duplex), so the time approaches m (beta + gamma) when k grows,
 * at the price of a start-up per segment and per hop.
 *
 * The chain.  A position in the middle of the chain receives the partial of
 * the positions before it and combines its own segment into it, on one
 * side: the partial stays the combination of a run of consecutive
 * positions only if every position extends the run at one of its ends.
 *   - Commutative op, or root 0: the ring root-1, root-2, ..., root+1, root
 *     (positions mod n, "down"), n - 1 hops, every position putting its
 *     segment in front of the partial (x_me (op) partial).  For root 0
 *     that is the chain n-1, ..., 1, 0, whose partials are the runs
 *     [me, n-1]: rank order is kept.
 *   - Non-commutative op (keep_order), root n-1: the chain 0, 1, ..., n-1
 *     ("up"), n - 1 hops, every position appending its segment
 *     (partial (op) x_me; runs [0, me]).
 *   - Non-commutative op, root r in 1 .. n-2: the root's segment starts
 *     the chain, the positions above it append theirs, those below it put
 *     theirs in front, and the result goes back to the root ("back"):
 *         r, r+1, ..., n-1, r-1, r-2, ..., 0, r        (n hops)
 *     (runs [r, me] on the way up, [me, n-1] on the way down).  A chain
 *     that ends at r with n - 1 hops visits r last, and x_r can then only
 *     extend the run at one of its ends: r is 0 or n-1.  The chain above
 *     gives the root one message in and one out per segment, as everyone;
 *     the alternative, n-1, ..., 0 then on to r, has the root receive
 *     every segment twice (its partial and the result), which halves the
 *     pipeline's rate through its port.
 *
 * Read-only inputs (in != NULL): a position that puts its segment in
 * front receives the partial into one of two slots of tmp (alternating,
 * so that the slot it sends from is not the one it receives into) and
 * combines its input into it (dst = src (op) dst: the executor writes only
 * dst).  One that appends needs partial (op) input written somewhere
 * other than the input (the executor computes dst (op) src of a
 * non-commutative op into src): it copies its input segment into a second
 * slot and combines the partial into that (two slots of a segment each:
 * up to twice the vector with one segment; callers that bound scratch cut
 * the segment to half the vector), and a root that appends copies its
 * segment into acc and combines the partial, received into one slot, into
 * it.  With in == NULL the contribution is in acc, writable: the partial
 * arrives in one slot of tmp and is combined into acc, which is then sent
 * on.  Otherwise the root combines (or, after the chain that returns to
 * it, receives) straight into its acc.  The "up" chain's copies are what
 * its hop fewer than "back" costs (a copy is n delta in the cost model,
 * 0 by default, as the other closed forms assume).
 *
 * Chain index i receives segment u in round u + i - 1, combines it after
 * that round's messages, and sends it in round u + i: rounds H - 1 + k for
 * H hops.  Trace, n = 4, root 2, non-commutative, k = 2 segments
 * ("a>" = segment a goes on; P2 is index 0 and index 4):
 *   chain   P2 -> P3 -> P1 -> P0 -> P2
 *   round   P2        P3          P1          P0
 *     0     0>        r0
 *     1     1>        0> r1       r0
 *     2               1>          0> r1       r0
 *     3     r0                    1>          0> r1
 *     4     r1                                1>
 *   P3 forwards x2 x3, P1 x1 x2 x3, P0 x0 x1 x2 x3 (segment by segment).
 * Cost, with T = alpha + s beta + s gamma for segments of s bytes: the
 * positions move in lockstep, one round per T (the chain's first position,
 * which does not combine, waits for its successor), so the last segment
 * reaches the root after (H - 1 + k) T, less s gamma when the root only
 * receives (the chain that returns to it).
 *
 * Restrictions: none (any n, root, count; count 0 sends nothing).
 */
#include "algorithms.h"

enum { DOWN, UP, BACK }; /* the chains above */

static int chain_kind(int n, int root, int keep_order)
{
    return !keep_order || root == 0 ? DOWN : root == n - 1 ? UP : BACK;
}

/* The position at index i of the chain. */
static int chain_pos(int n, int root, int kind, int i)
{
    if (kind == DOWN)
        return (root - 1 - i + 2 * n) % n;
    if (kind == UP)
        return (root + 1 + i) % n;
    if (i == 0 || i == n)
        return root;
    return i <= n - 1 - root ? root + i : n - 1 - i;
}

/* The index of position me (not the root) on that chain. */
static int chain_index(int n, int root, int kind, int me)
{
    if (kind == DOWN)
        return (root - 1 - me + 2 * n) % n;
    if (kind == UP)
        return (me - root - 1 + 2 * n) % n;
    return me > root ? me - root : n - 1 - me;
}

void ic_pipe_combine(ic_sched_t *s, const ic_line_t *line, int root_pos, const ic_region_t *in,
                     ic_region_t acc, ic_buf_t tmp, size_t tmpbase, size_t seg, int keep_order)
{
    int n = line->n;
    size_t k;
    int me = ic_pipe_start(s, line, acc.count, &seg, &k);
    if (me < 0)
        return;
    int kind = chain_kind(n, root_pos, keep_order);
    int H = ic_pipe_combine_hops(n, root_pos, keep_order), back = kind == BACK;
    size_t h = (size_t)H, last = h + k - 2; /* the last round */
    ic_region_t mine = in ? *in : acc;
    int scratch = tmp == IC_BUF_SCRATCH || tmp == IC_BUF_SCRATCH2;

    if (me == root_pos) {
        int next = ic_line_rank(line, chain_pos(n, root_pos, kind, 1));
        int prev = ic_line_rank(line, chain_pos(n, root_pos, kind, H - 1));
        /* combining with its own segment: a slot for the partial, unless
         * it can arrive in acc (in front of a read-only input) */
        if (!back && (!in || kind == UP) && scratch)
            ic_sched_need(s, tmp, tmpbase + seg);
        for (size_t t = back ? 0 : h - 1; t <= last; t++) {
            if (back && t < k) /* the chain's start: its own segment t */
                ic_sched_send(s, next, ic_segment(mine, seg, k, t));
            if (t + 1 >= h) { /* segment u arrives */
                size_t u = t + 1 - h;
                ic_region_t res = ic_segment(acc, seg, k, u);
                ic_region_t slot = ic_reg(tmp, tmpbase, res.count);
                if (back) {
                    ic_sched_recv(s, prev, res);
                } else if (in && kind == DOWN) {
                    ic_sched_recv(s, prev, res);
                    ic_sched_reduce(s, ic_segment(*in, seg, k, u), res, 1);
                } else {
                    ic_sched_recv(s, prev, slot);
                    if (in)
                        ic_sched_copy(s, ic_segment(*in, seg, k, u), res);
                    ic_sched_reduce(s, slot, res, kind == UP);
                }
            }
            ic_sched_round(s);
        }
        return;
    }

    int i = chain_index(n, root_pos, kind, me);
    size_t j = (size_t)i;
    int next = ic_line_rank(line, chain_pos(n, root_pos, kind, i + 1));
    if (i == 0) { /* the chain's start: sends its own segments */
        for (size_t t = 0; t < k; t++) {
            ic_sched_send(s, next, ic_segment(mine, seg, k, t));
            ic_sched_round(s);
        }
        return;
    }
    int prev = ic_line_rank(line, chain_pos(n, root_pos, kind, i - 1));
    /* partial (op) own, else own (op) partial */
    int append = kind == UP || (back && me > root_pos);
    size_t two = 2 * seg < acc.count ? 2 * seg : acc.count;
    if (scratch)
        ic_sched_need(s, tmp, tmpbase + (!in ? seg : append ? 2 * seg : two));
    for (size_t t = j - 1; t <= j + k - 1; t++) {
        if (t >= j) { /* segment v of the partial goes on */
            size_t v = t - j;
            ic_region_t part = ic_segment(acc, seg, k, v);
            if (in)
                part = ic_reg(tmp, tmpbase + (append ? seg : v % 2 * seg), part.count);
            ic_sched_send(s, next, part);
        }
        if (t + 1 - j < k) { /* segment u arrives and takes in this position's */
            size_t u = t + 1 - j;
            ic_region_t own = ic_segment(mine, seg, k, u);
            if (!in) {
                ic_region_t slot = ic_reg(tmp, tmpbase, own.count);
                ic_sched_recv(s, prev, slot);
                ic_sched_reduce(s, slot, own, append);
            } else if (!append) {
                ic_region_t slot = ic_reg(tmp, tmpbase + u % 2 * seg, own.count);
                ic_sched_recv(s, prev, slot);
                ic_sched_reduce(s, own, slot, 1);
            } else {
                ic_region_t slot = ic_reg(tmp, tmpbase, own.count);
                ic_region_t out = ic_reg(tmp, tmpbase + seg, own.count);
                ic_sched_recv(s, prev, slot);
                ic_sched_copy(s, own, out);
                ic_sched_reduce(s, slot, out, 1);
            }
        }
        ic_sched_round(s);
    }
}
