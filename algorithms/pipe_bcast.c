/*
 * pipe_bcast.c -- pipelined chain broadcast on a line.
 *
 * Not one of mitra-1995's primitives: the long-vector broadcast of section
 * 3.2.2 (scatter + collect) moves 2 (n-1)/n m bytes through every port, so
 * it cannot come closer than about twice the m beta bound.  Cutting the
 * vector into k segments and streaming them down a chain makes every
 * position receive each byte once and forward it once, at the same time
 * (full duplex), so the time approaches m beta when k grows, at the price
 * of n - 2 + k start-ups.  The selector picks k from the cost model
 * (k = sqrt((n-2) m beta / alpha) minimises (n-2+k)(alpha + m beta / k)).
 *
 * The chain visits positions in ring order from the root: root, root+1,
 * ..., n-1, 0, ..., root-1.  On a linear array every message goes right
 * except the single wrap-around one, which goes left, so no two messages
 * share a link direction (as for the bucket collect).
 *
 * Chain index j (the root is 0) receives segment s in round s + j - 1 and
 * forwards it in round s + j.  Trace, n = 4, root 0, k = 3 segments
 * ("a>" = segment a goes to the next position):
 *   round   P0     P1        P2        P3
 *     0     0>     recv 0
 *     1     1>     0> r1     recv 0
 *     2     2>     1> r2     0> r1     recv 0
 *     3            2>        1> r2     recv 1
 *     4                      2>        recv 2
 * Rounds: n - 2 + k.  A round's receive and send use different segments,
 * so no region is written while it is read.
 *
 * The segments are a stream's (ic_stream_segment): with two or more, the
 * first goes in IC_STREAM_DEPTH - 1 growing pieces, so that the first
 * messages a dataflow has in flight on a link start and end apart
 * (schedule.h); in lock step one round more, one alpha.
 *
 * Restrictions: none (any n, root, count; count 0 sends nothing).
 *
 * ic_pipe_bcast2, "bidir_pipeline": the vector's two halves on two chains
 * at once, for networks whose neighbour links are full duplex (a torus's
 * rings): the lower half flows rightwards, root, root+1, ..., root-1, the
 * upper half leftwards, root, root-1, ..., root+1, each cut in segments
 * as above, and every position forwards in each round one segment of
 * each.  So every link carries half the vector each way.  Trace, n = 3,
 * root 0, each half one segment (A the lower half, B the upper; "A>": to
 * the right, "<B": to the left):
 *   round   P0        P1             P2
 *     0     A> <B     recv A         recv B
 *     1               A>  recv B     <B  recv A
 * Rounds: n - 2 + k for k segments per half, against n - 2 + 2k on one
 * chain for segments of the same size: on full-duplex links about half
 * the transfer time.  A model with one port per rank serialises each
 * round's two sends and sees no gain, so its closed form is a lower
 * bound (IC_ALG_COST_BOUND).  n < 3 or fewer than 2 elements: as
 * ic_pipe_bcast.  A round's four messages use four different segments.
 *
 * Streaming (ic_pipe_bcast2_into, ic_pipe_bcast2_fed): in a mesh plan whose
 * broadcast step after a bidir_pipeline step is one too (compose.c), every
 * rank of the first line roots the second step's chains on its line of the
 * next dimension and sends segment u of the lower half on along it in the
 * round it forwards u along the first line (its row index ja later than
 * the root), and of the upper half jb rounds later.  The second line's
 * other ranks shift their two chains by the same ja and jb, so every rank
 * keeps the first line's clock and every message goes in the same round
 * on both sides (the halves reach a column's root at different times; a
 * column run on its own clock, both halves together, waited on one half
 * while its root waited on it for the other: a deadlock the mesh tests
 * found).  The pair is one chain of n + n' - 1 positions: (n + n' - 3 +
 * k)(alpha + seg beta) for k segments per half, against (n + n' - 4 + 2k)
 * one after the other.
 */
#include "algorithms.h"

/* Chain index j's messages in round t of a pipelined chain of len
 * positions (index 0 sends only, the last receives only): segment sg
 * arrives from prev in round sg + j - 1 and goes on to next in round
 * sg + j.  Index j is busy in rounds chain_first(j) .. chain_last(j, len,
 * k), of len - 2 + k. */
static size_t chain_first(size_t j)
{
    return j > 0 ? j - 1 : 0;
}

static size_t chain_last(size_t j, size_t len, size_t k)
{
    return j + 1 < len ? j + k - 1 : j + k - 2;
}

static void chain_round(ic_sched_t *s, size_t t, size_t j, size_t len, int prev, int next,
                        ic_region_t data, size_t seg, size_t k)
{
    if (j > 0 && t + 1 >= j && t + 1 - j < k)
        ic_sched_recv(s, prev, ic_stream_segment(data, seg, k, t + 1 - j));
    if (j + 1 < len && t >= j && t - j < k)
        ic_sched_send(s, next, ic_stream_segment(data, seg, k, t - j));
}

void ic_pipe_bcast(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_region_t data, size_t seg)
{
    int n = line->n;
    size_t k;
    int me = ic_pipe_start(s, line, data.count, &seg, &k);
    if (me < 0)
        return;
    k = ic_stream_nsegments(data.count, &seg);
    size_t j = (size_t)((me - root_pos + n) % n), from = s->nacts;
    int prev = ic_line_rank(line, (me + n - 1) % n), next = ic_line_rank(line, (me + 1) % n);
    for (size_t t = chain_first(j); t <= chain_last(j, (size_t)n, k); t++) {
        chain_round(s, t, j, (size_t)n, prev, next, data, seg, k);
        ic_sched_round(s);
    }
    ic_sched_stream(s, from);
}

/* The two chains of ic_pipe_bcast2 at position me of line (n >= 3, 2
 * elements or more), in rounds of a common clock: chain A's (the lower
 * half, rightwards) time u in round u + oa, chain B's (the upper half,
 * leftwards) in round u + ob.  With next (this rank roots an
 * ic_pipe_bcast2 on it, which it feeds): in round u + oa also segment u of
 * A to position +1 of next, and in round u + ob segment u of B to position
 * -1, once they have arrived here.  A stream of segments through a chain
 * and on into the next line then keeps one clock: a message goes in the
 * same round on both sides, so no rank waits for a round of another that
 * waits for it. */
static void bidir(ic_sched_t *s, const ic_line_t *line, int me, int root_pos, ic_region_t data,
                  size_t seg, size_t oa, size_t ob, const ic_line_t *next)
{
    int n = line->n;
    size_t len = (size_t)n, ca = data.count / 2;
    ic_region_t A = ic_reg(data.buf, data.off, ca);
    ic_region_t B = ic_reg(data.buf, data.off + ca, data.count - ca);
    size_t sa = seg, sb = seg;
    size_t ka = ic_stream_nsegments(A.count, &sa), kb = ic_stream_nsegments(B.count, &sb);
    size_t ja = (size_t)((me - root_pos + n) % n), jb = (len - ja) % len;
    int left = ic_line_rank(line, (me + n - 1) % n), right = ic_line_rank(line, (me + 1) % n);
    int up = -1, down = -1;
    size_t fa = chain_first(ja) + oa, fb = chain_first(jb) + ob, from = s->nacts;
    size_t la = chain_last(ja, len, ka) + oa, lb = chain_last(jb, len, kb) + ob;
    if (next) {
        int mq = ic_line_pos(next, s->rank), nn = next->n;
        up = ic_line_rank(next, (mq + 1) % nn);
        down = ic_line_rank(next, (mq + nn - 1) % nn);
        /* segment u of A has arrived by A's time u + ja (the root has it) */
        if (ja + ka - 1 > la)
            la = ja + ka - 1;
        if (jb + kb - 1 > lb)
            lb = jb + kb - 1;
    }
    for (size_t t = fa < fb ? fa : fb; t <= (la > lb ? la : lb); t++) {
        if (t >= oa)
            chain_round(s, t - oa, ja, len, left, right, A, sa, ka);
        if (t >= ob)
            chain_round(s, t - ob, jb, len, right, left, B, sb, kb);
        if (next && t >= oa + ja && t - oa - ja < ka)
            ic_sched_send(s, up, ic_stream_segment(A, sa, ka, t - oa - ja));
        if (next && t >= ob + jb && t - ob - jb < kb)
            ic_sched_send(s, down, ic_stream_segment(B, sb, kb, t - ob - jb));
        ic_sched_round(s);
    }
    ic_sched_stream(s, from);
}

void ic_pipe_bcast2(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_region_t data,
                    size_t seg)
{
    ic_pipe_bcast2_fed(s, line, root_pos, data, seg, 0, 1);
}

void ic_pipe_bcast2_fed(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_region_t data,
                        size_t seg, int fed_pos, int fed_n)
{
    int n = line->n;
    if (n < 3 || data.count < 2) { /* one way round is as short, or nothing to split */
        ic_pipe_bcast(s, line, root_pos, data, seg);
        return;
    }
    size_t k;
    int me = ic_pipe_start(s, line, data.count, &seg, &k);
    if (me < 0)
        return;
    size_t oa = (size_t)fed_pos, ob = (size_t)((fed_n - fed_pos) % fed_n);
    bidir(s, line, me, root_pos, data, seg, oa, ob, NULL);
}

void ic_pipe_bcast2_into(ic_sched_t *s, const ic_line_t *line, int root_pos, const ic_line_t *next,
                         ic_region_t data, size_t seg)
{
    size_t k;
    int me = ic_pipe_start(s, line, data.count, &seg, &k);
    if (me < 0 || ic_line_pos(next, s->rank) < 0 ||
        !ic_pipe_stream_ok(line->n, next->n, data.count))
        return;
    bidir(s, line, me, root_pos, data, seg, 0, 0, next);
}
