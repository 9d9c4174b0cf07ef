/*
 * tree_bcast.c -- pipelined binary-tree broadcast on a line.
 *
 * Not one of mitra-1995's primitives.  The MST broadcast makes the root
 * send the whole vector ceil(log2 n) times; a binary tree makes every
 * position send it at most twice, at the price of a deeper tree.  Where a
 * port's bytes, not the start-ups along the tree, bound the time (a link
 * whose rate, not its latency, is the limit, with several broadcasts in
 * flight or in a row), the root's 2 m bytes against ceil(log2 n) m is what
 * counts: on the emulated cluster of bench/cluster/ (tbf links with a
 * 32 KiB bucket) 4-8 KiB broadcasts to 8 ranks take about 2/3 of the MST's
 * time this way.  Cutting the vector into k segments pipelines the levels.
 *
 * The tree is the heap order of the positions relative to the root:
 * relative index j = (pos - root) mod n has children 2j + 1 and 2j + 2.
 * Relative index j receives segment 0, then, in step t, sends segment t
 * to its first child (a round of its own: that message goes first even
 * when the second child posts its receive earlier), then sends it to the
 * second child while receiving segment t + 1 from its parent.
 * Trace, n = 5, root 0, k = 2 ("a>c" = segment a to position c, "ra" =
 * receive segment a; a step's two rounds are split by "/"):
 *   P0:  0>1 / 0>2,  1>1 / 1>2
 *   P1:  r0,  0>3 / 0>4 r1,  1>3 / 1>4
 *   P2:  r0,  r1
 *   P3, P4:  r0,  r1
 * A round's receive and send use different segments.
 *
 * Cost, for n >= 3, k segments of s bytes, c = alpha + s beta: every
 * interior position spends 2c per segment (two sends; its receive runs at
 * the same time, full duplex), and segment 0 reaches relative index j
 * a(j) c after the start, a(j) = (levels below the root) + (second-child
 * steps) on its path, i.e. with m = j + 1 written in binary, the number of
 * its digits after the leading one plus the number of ones among them.
 * So T = (2 (k - 1) + A) c with A = max over m <= n of that sum
 * (ic_tree_depth_cost); for n = 8, A = 4 (m = 7).  n = 2: k c.
 *
 * Restrictions: none (any n, root, count; count 0 sends nothing).
 */
#include "algorithms.h"

void ic_tree_bcast(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_region_t data, size_t seg)
{
    size_t k;
    int me = ic_pipe_start(s, line, data.count, &seg, &k);
    if (me < 0)
        return;
    int parent, child[2];
    int nchild = ic_binary_tree(line, root_pos, me, &parent, child);
    int nonroot = parent >= 0;
    /* Step t: send segment t to the first child (a round of its own, so it
     * goes first whoever posts first), then to the second child while
     * segment t + 1 comes in from the parent. */
    if (nonroot)
        ic_sched_recv(s, parent, ic_segment(data, seg, k, 0));
    ic_sched_round(s);
    for (size_t t = 0; t < k; t++) {
        if (nchild > 0)
            ic_sched_send(s, child[0], ic_segment(data, seg, k, t));
        ic_sched_round(s);
        if (nchild > 1)
            ic_sched_send(s, child[1], ic_segment(data, seg, k, t));
        if (nonroot && t + 1 < k)
            ic_sched_recv(s, parent, ic_segment(data, seg, k, t + 1));
        ic_sched_round(s);
    }
}

int ic_tree_depth_cost(int n)
{
    /* max over m in [1, n] of (bits of m after the leading one) + (ones
     * among them).  For the top bit F of n: m = n itself, or n with one of
     * its ones (below F) cleared and every bit under it set; for shorter
     * m the best is all ones, 2 (F - 1). */
    if (n <= 1)
        return 0;
    int F = 0;
    while ((2L << F) <= n)
        F++;
    int best = F > 0 ? 2 * (F - 1) : 0;
    for (int i = -1; i < F; i++) {
        long m;
        if (i < 0) {
            m = n;
        } else {
            if (!((n >> i) & 1))
                continue;
            m = ((long)n & ~((2L << i) - 1)) | ((1L << i) - 1);
        }
        int ones = 0;
        for (long x = m; x; x >>= 1)
            ones += (int)(x & 1);
        if (F + ones - 1 > best)
            best = F + ones - 1;
    }
    return best;
}
