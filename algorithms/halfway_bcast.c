/*
 * halfway_bcast.c -- pipelined broadcasts that go half way round each ring:
 * "halfway_pipeline" on a line, and, when two such steps stream into each
 * other on a 2-D mesh, two edge-disjoint trees of the torus, a half of the
 * vector each.
 *
 * On a line taken as a ring (ic_pipe_bcast_halfway) the whole vector
 * streams from the root both ways, to the right through positions 1 ..
 * floor(n/2), to the left through n - 1 .. floor(n/2) + 1: the last
 * position is floor(n/2) hops away where bidir_pipeline's chains are
 * n - 1 long, at the price of the whole vector on every link where
 * bidir_pipeline puts half of it.  A position at distance i receives
 * segment u in round u + i - 1 and forwards it in round u + i (the chain's
 * clock, pipe_bcast.c).  Trace, n = 5, root 0, two segments a and b
 * ("a>": to the right, "<a": to the left):
 *   round   P0       P1        P2       P3       P4
 *     0     a> <a    recv a                      recv a
 *     1     b> <b    a> r b    recv a   recv a   <a r b
 *     2              b>        recv b   recv b   <b
 * Cost, k segments of s bytes, where a position's links run at once
 * (full duplex, a torus's ring; the root sends two messages a round):
 * (floor(n/2) - 1 + k)(alpha + s beta) in lock step, less as a dataflow
 * (coll_bcast.c prices that).
 *
 * On a 2-D mesh (ic_bcast_torus_trees: a plan whose two dimensions F, S,
 * in that order, both run halfway_pipeline, streamed; compose.c) the lower
 * half of the vector goes by tree T1 and the upper half by T2.  Relative
 * coordinates (f, s), the root at (0, 0); h(i) the halfway distance of
 * position i on its ring:
 *   T1: along the root's F-line both ways half way; from every position
 *       (f, 0), f != 0, along its S-line both ways half way; the root's
 *       own S-line (0, s) hears from its neighbour (1, s) on the F-line.
 *       Depth h(f) + h(s), and h(s) + 2 on the root's S-line.
 *   T2: the same with F and S swapped.
 * No directed link carries both trees: T1 uses the root's F-line's
 * outward links, every S-line but the root's (outward from s = 0) and
 * the links (1, s) -> (0, s); T2 the root's S-line's outward links, every
 * F-line but the root's (outward from f = 0) and (f, 1) -> (f, 0).  An
 * outward chain from 0 never runs 1 -> 0 on its ring, so the side links
 * are free.  Every link carries at most half of the vector, every
 * position receives the whole vector (a half from each tree), and the
 * last segment is at most h(nF) + h(nS) hops (about the torus's diameter)
 * from the root, where bidir_pipeline streamed into bidir_pipeline makes a
 * chain of nF + nS - 1 positions.  Trace, 3 x 3, root (0,0), one segment
 * per half (A the lower half, B the upper; positions (f,s)):
 *   round 0:  (0,0) A> (1,0) (2,0);  (0,0) B> (0,1) (0,2)
 *   round 1:  (1,0) A> (1,1) (1,2);  (2,0) A> (2,1) (2,2);
 *             (0,1) B> (1,1) (2,1);  (0,2) B> (1,2) (2,2)
 *   round 2:  (1,1) A> (0,1);  (1,2) A> (0,2);  (1,1) B> (1,0);  (2,1) B> (2,0)
 * Cost, k segments of s bytes per half, D the deeper tree's depth
 * (ic_torus_trees_depth): the trees run side by side, each a halfway
 * pipeline of one half D deep, (D - 1 + k)(alpha + s beta) in lock step
 * where every link of a position runs at once; a position sends up to
 * four messages a round (the root, and (1, 1)), so with one port per
 * position it is a lower bound (IC_ALG_COST_BOUND), and the model
 * multiplies the two dimensions' two-way factors (plan.c).
 *
 * Both are streams (ic_sched_stream): they run as a dataflow where the
 * executor can, every segment forwarded as it arrives; in lock step every
 * message goes in the same round on both sides (a child is one deeper
 * than its parent), so the rounds are a common clock.  A position's T1
 * messages come before its T2 messages in every round, on both sides.
 * Restrictions: none (any n, root, count; count 0 sends nothing);
 * fewer than two elements, or a dimension of one position: the line's
 * halfway pipeline of the whole vector.
 */
#include "algorithms.h"

/* Halfway ring geometry: relative position i (0 the root) of a ring of m. */
static int hw_depth(int i, int m)
{
    return i <= m / 2 ? i : m - i;
}

static int hw_parent(int i, int m)
{
    return i <= m / 2 ? i - 1 : (i + 1) % m;
}

/* The positions i feeds (at most two), into c; their number. */
static int hw_children(int i, int m, int *c)
{
    int n = 0;
    if (i == 0) {
        if (m >= 2)
            c[n++] = 1;
        if (m - 1 > m / 2)
            c[n++] = m - 1;
    } else if (i < m / 2) {
        c[n++] = i + 1;
    } else if (i > m / 2 && i - 1 > m / 2) {
        c[n++] = i - 1;
    }
    return n;
}

/* A position of one tree: its parent's rank (-1: the root), its depth and
 * the ranks it forwards to. */
typedef struct hw_node {
    int parent, depth, nchild;
    int child[4];
} hw_node_t;

static int rel_rank(const ic_line_t *l, int root_pos, int rel)
{
    return ic_line_rank(l, (root_pos + rel) % l->n);
}

static void add_children(hw_node_t *nd, const ic_line_t *l, int root_pos, int i)
{
    int c[2], n = hw_children(i, l->n, c);
    for (int j = 0; j < n; j++)
        nd->child[nd->nchild++] = rel_rank(l, root_pos, c[j]);
}

/* Relative position i on the ring l rooted at root_pos. */
static hw_node_t ring_node(const ic_line_t *l, int root_pos, int i)
{
    hw_node_t nd = {i ? rel_rank(l, root_pos, hw_parent(i, l->n)) : -1, hw_depth(i, l->n), 0, {0}};
    add_children(&nd, l, root_pos, i);
    return nd;
}

/* Position (f, s) of the tree that covers dimension F first (header):
 * LF and LS are its lines along F and S, the root's coordinates on them rf
 * and rs.  Both lines have two positions at least. */
static hw_node_t tree_node(const ic_line_t *LF, int rf, int f, const ic_line_t *LS, int rs, int s)
{
    hw_node_t nd;
    if (s == 0) { /* the root's F-line; its positions root the S-lines */
        nd = ring_node(LF, rf, f);
        if (f != 0)
            add_children(&nd, LS, rs, 0);
    } else if (f != 0) {
        nd = ring_node(LS, rs, s);
        nd.depth += hw_depth(f, LF->n);
        if (f == 1) /* the side link to the root's S-line */
            nd.child[nd.nchild++] = rel_rank(LF, rf, 0);
    } else { /* the root's S-line, fed from (1, s) */
        nd = (hw_node_t){rel_rank(LF, rf, 1), 1 + hw_depth(s, LS->n) + 1, 0, {0}};
    }
    return nd;
}

int ic_torus_trees_depth(int nf, int ns)
{
    int hf = nf / 2, hs = ns / 2, d = hf + hs;
    if (hs + 2 > d) /* T1's root S-line */
        d = hs + 2;
    if (hf + 2 > d) /* T2's root F-line */
        d = hf + 2;
    return d;
}

/* The first and last rounds of a tree position with k segments. */
static size_t node_first(const hw_node_t *nd)
{
    return nd->parent >= 0 ? (size_t)nd->depth - 1 : (size_t)nd->depth;
}

static size_t node_last(const hw_node_t *nd, size_t k)
{
    return nd->nchild ? (size_t)nd->depth + k - 1 : (size_t)nd->depth + k - 2;
}

/* A tree position's messages in round t: segment u arrives in round
 * u + depth - 1 and goes on in round u + depth. */
static void node_round(ic_sched_t *s, const hw_node_t *nd, size_t t, ic_region_t data, size_t seg,
                       size_t k)
{
    size_t d = (size_t)nd->depth;
    if (nd->parent >= 0 && t + 1 >= d && t + 1 - d < k)
        ic_sched_recv(s, nd->parent, ic_stream_segment(data, seg, k, t + 1 - d));
    if (t >= d && t - d < k)
        for (int j = 0; j < nd->nchild; j++)
            ic_sched_send(s, nd->child[j], ic_stream_segment(data, seg, k, t - d));
}

/* Trees at one position (nt of them), tree x carrying data[x] (count 0:
 * nothing), on one clock. */
static void emit(ic_sched_t *s, int nt, const hw_node_t *nd, const ic_region_t *data, size_t seg)
{
    size_t sg[2], k[2], first = (size_t)-1, last = 0, from = s->nacts;
    for (int x = 0; x < nt; x++) {
        sg[x] = seg;
        k[x] = data[x].count ? ic_stream_nsegments(data[x].count, &sg[x]) : 0;
        if (!k[x] || (nd[x].parent < 0 && !nd[x].nchild))
            continue;
        first = node_first(&nd[x]) < first ? node_first(&nd[x]) : first;
        last = node_last(&nd[x], k[x]) > last ? node_last(&nd[x], k[x]) : last;
    }
    for (size_t t = first; first != (size_t)-1 && t <= last; t++) {
        for (int x = 0; x < nt; x++)
            if (k[x])
                node_round(s, &nd[x], t, data[x], sg[x], k[x]);
        ic_sched_round(s);
    }
    ic_sched_stream(s, from);
}

void ic_pipe_bcast_halfway(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_region_t data,
                           size_t seg)
{
    size_t k;
    int me = ic_pipe_start(s, line, data.count, &seg, &k);
    if (me < 0)
        return;
    hw_node_t nd = ring_node(line, root_pos, (me - root_pos + line->n) % line->n);
    emit(s, 1, &nd, &data, seg);
}

void ic_bcast_torus_trees(ic_sched_t *s, const ic_line_t *LF, int rf, const ic_line_t *LS, int rs,
                          ic_region_t data, size_t seg)
{
    int mf = ic_line_pos(LF, s->rank), ms = ic_line_pos(LS, s->rank);
    ic_sched_round(s);
    if (mf < 0 || ms < 0 || !ic_torus_trees_ok(LF->n, LS->n, data.count))
        return;
    int f = (mf - rf + LF->n) % LF->n, g = (ms - rs + LS->n) % LS->n;
    size_t ca = data.count / 2; /* T1 the lower half, T2 the upper */
    hw_node_t nd[2] = {tree_node(LF, rf, f, LS, rs, g), tree_node(LS, rs, g, LF, rf, f)};
    ic_region_t half[2] = {ic_reg(data.buf, data.off, ca),
                           ic_reg(data.buf, data.off + ca, data.count - ca)};
    emit(s, 2, nd, half, seg);
}
