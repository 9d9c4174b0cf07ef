/*
 * two_tree.c -- the two-tree broadcast on a line (Sanders, Speck and
 * Traff, "Two-tree algorithms for full bandwidth broadcast, reduction and
 * scan", Parallel Computing 35, 2009).
 *
 * A pipelined binary tree (tree_bcast.c) makes every interior position
 * send each byte twice and every leaf send nothing: the time approaches
 * 2 m beta.  A chain (pipe_bcast.c) sends each byte once from every
 * position, m beta, but its first segment reaches the last position only
 * after n - 1 hops.  Two binary trees over the same positions, each
 * carrying half of the vector, with every position interior in at most
 * one of them, give both: each position receives m bytes (a half from
 * each tree) and sends at most m (its interior tree's half, twice), and
 * the first segments arrive after about 2 log2 n hops.
 *
 * The trees.  Relative index j = (pos - root) mod n; the root (j = 0)
 * feeds both trees, which span the other n - 1 = t positions, u = j - 1:
 *   T1, the vector's lower half: heap order over u (u's children 2u + 1,
 *       2u + 2), its root u = 0;
 *   T2, the upper half: the same heap over the mirrored index h = t - 1 - u,
 *       its root u = t - 1.
 * T1's interior positions are u < t / 2 (rounded down), T2's u > t - 1 -
 * t / 2: never both (for odd t the middle position is a leaf of both).
 *
 * The clock.  Each half is cut into segments of `seg` elements.  The root
 * sends segment s of T1 in round 2s and of T2 in round 2s + 1.  In either
 * tree a position that receives segment s in round R + 2s (R: its start;
 * 0 for T1's root, 1 for T2's) sends it to its first child in round
 * R + 2s + 1 and to its second in round R + 2s + 2, as the pipelined binary
 * tree does; so the first child starts at R + 1, the second at R + 2.
 * A position's rounds hold its T1 messages before its T2 messages, on
 * both sides of every message, so that two messages between one pair in
 * one round match in order.  Trace, n = 4, root 0, one segment per half
 * (t = 3: T1 is u 0 -> 1, 2, positions 1 -> 2, 3; T2 is h 0 -> 1, 2,
 * positions 3 -> 2, 1; "A" the lower half, "B" the upper):
 *   round 0:  P0 A>P1
 *   round 1:  P0 B>P3,  P1 A>P2
 *   round 2:  P1 A>P3,  P3 B>P2
 *   round 3:  P3 B>P1
 * A round's messages use different segments or different halves.
 *
 * A position receives in both trees, so a round may hold two of its
 * receives and the next none (the paper's edge colouring schedules them
 * one a round; not done here): its schedule is a stream (ic_sched_stream),
 * so where it runs as a dataflow (executor.c) each segment goes on as
 * soon as it is in, whatever the rounds; in lock step such a round costs
 * two message times.
 *
 * Cost, k segments of s bytes per half, c = alpha + s beta, A =
 * ic_tree_depth_cost(n - 1): the root sends its 2k segments one after
 * another and the last then needs A message times more to reach the
 * latest position of its tree: (2k + A) c in the single-port model, a
 * lower bound where a position's two receives share a round
 * (IC_ALG_COST_BOUND; coll_bcast.c).
 *
 * Restrictions: none (any n, root, count; count 0 sends nothing); n = 2:
 * the root sends both halves to the other position.
 *
 * The reduce (ic_coll_reduce_two_tree) is the broadcast run backwards
 * (the paper's reduction): the same trees and the same clock, round r of
 * the broadcast being round L - r of the reduce (L: the broadcast's last
 * round over all positions, so that every position mirrors the same
 * clock).  A broadcast's receive of segment s becomes the send of the
 * partial of segment s to the parent; a send to a child becomes a receive
 * from it, combined into the partial.  Reversed, a position hears from its
 * second child first: that segment arrives in the partial's slot and the
 * position's own input segment is combined into it; the first child's
 * arrives in a second slot and is combined in; then the partial goes up.
 * Leaves send their input as it is.  The line's root takes the two
 * trees' partials into its result and combines its input into them (in
 * place: into slots, combined into the result).  Segments go up last
 * first.  The trees combine in heap order, not rank order: commutative ops
 * only.  Slots, up to eight per buffer (red_slots; segments take them in
 * turn): a position is interior in one tree at most and keeps its partials
 * in SCRATCH, its second receives in SCRATCH2; an in-place root receives
 * T1's partials in SCRATCH2 and T2's in SCRATCH.  Within the message from
 * a->bounded_from elements on, where the segment is cut to a quarter of
 * the vector (ic_reduce_two_tree_seg) and the slots are as many as fit,
 * two at least; up to sixteen segments below.  Cost:
 * the broadcast's with beta + gamma per byte, a bound as the broadcast's.
 */
#include "coll_common.h"

/* One position's part in one of the trees: it receives segment s in round
 * R + 2s from its parent and sends it to its first child in round
 * R + 2s + 1 and to its second in R + 2s + 2.  The line's root is a
 * parent with one child, one round before that child's start. */
typedef struct tree_role {
    long R;
    int parent;   /* rank; -1: none (the line's root) */
    int child[2]; /* ranks, first child first */
    int nchild;
    ic_region_t half; /* the tree's half of the vector */
    size_t seg, k;    /* its segments */
    ic_buf_t inbox;   /* the reduce's line root: where this tree's partials arrive */
    size_t slots;     /* the reduce's slots per buffer (red_slots) */
} tree_role_t;

/* The start of heap index h when the heap's root starts in round r0. */
static long heap_start(long h, long r0)
{
    for (; h > 0; h = (h - 1) / 2)
        r0 += h % 2 ? 1 : 2;
    return r0;
}

/* The rank at tree position u (relative index u + 1; -1: the line's root). */
static int rank_of(const ic_line_t *line, int root_pos, long u)
{
    return ic_line_rank(line, (int)((u + 1 + root_pos) % line->n));
}

/* Position u's role (-1: the line's root) in the tree over t = n - 1
 * positions, mirrored (T2) or not (T1). */
static void tree_role(tree_role_t *tr, const ic_line_t *line, int root_pos, long u, long t,
                      int mirrored, ic_region_t half, size_t seg)
{
    long r0 = mirrored ? 1 : 0;
    tr->half = half;
    tr->seg = seg;
    tr->k = ic_nsegments(half.count, &tr->seg);
    tr->nchild = 0;
    tr->parent = -1;
    if (u < 0) { /* one child, the tree's root */
        long top = mirrored ? t - 1 : 0;
        tr->R = r0 - 1;
        tr->child[tr->nchild++] = rank_of(line, root_pos, top);
        return;
    }
    long h = mirrored ? t - 1 - u : u;
    tr->R = heap_start(h, r0);
    long pu = h == 0 ? -1 : mirrored ? t - 1 - (h - 1) / 2 : (h - 1) / 2;
    tr->parent = rank_of(line, root_pos, pu);
    for (long c = 2 * h + 1; c <= 2 * h + 2 && c < t; c++) {
        long cu = mirrored ? t - 1 - c : c;
        tr->child[tr->nchild++] = rank_of(line, root_pos, cu);
    }
}

/* The segment a role handles in round r at offset d from its clock (0:
 * the receive, 1 and 2: the sends to the first and second child), or -1. */
static long role_segment(const tree_role_t *tr, long r, long d)
{
    long x = r - tr->R - d;
    return x >= 0 && x % 2 == 0 && (size_t)(x / 2) < tr->k ? x / 2 : -1;
}

static void role_round(ic_sched_t *s, const tree_role_t *tr, long r)
{
    long sg;
    if (tr->parent >= 0 && (sg = role_segment(tr, r, 0)) >= 0)
        ic_sched_recv(s, tr->parent, ic_segment(tr->half, tr->seg, tr->k, (size_t)sg));
    for (int c = 0; c < tr->nchild; c++)
        if ((sg = role_segment(tr, r, 1 + c)) >= 0)
            ic_sched_send(s, tr->child[c], ic_segment(tr->half, tr->seg, tr->k, (size_t)sg));
}

void ic_two_tree_bcast(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_region_t data,
                       size_t seg)
{
    size_t whole = seg, k; /* the prologue's; the halves cut their own */
    int n = line->n, me = ic_pipe_start(s, line, data.count, &whole, &k);
    if (me < 0)
        return;
    long t = n - 1, u = (long)((me - root_pos + n) % n) - 1;
    size_t lo = data.count - data.count / 2;
    tree_role_t tr[2];
    tree_role(&tr[0], line, root_pos, u, t, 0, ic_reg(data.buf, data.off, lo), seg);
    tree_role(&tr[1], line, root_pos, u, t, 1, ic_reg(data.buf, data.off + lo, data.count - lo),
              seg);
    long last = 0;
    for (int i = 0; i < 2; i++)
        if (tr[i].k > 0 && tr[i].R + 2 * (long)tr[i].k > last)
            last = tr[i].R + 2 * (long)tr[i].k;
    size_t from = s->nacts;
    for (long r = 0; r <= last; r++) {
        role_round(s, &tr[0], r);
        role_round(s, &tr[1], r);
        ic_sched_round(s);
    }
    ic_sched_stream(s, from);
}

/* The broadcast's last round over every position of the line (n >= 2):
 * the reduce runs the clock backwards from it. */
static long last_round(const ic_line_t *line, int root_pos, size_t count, size_t seg)
{
    long t = line->n - 1, last = 0;
    size_t lo = count - count / 2;
    for (long u = -1; u < t; u++)
        for (int i = 0; i < 2; i++) {
            tree_role_t tr;
            ic_region_t half = i ? ic_reg(IC_BUF_RECV, lo, count - lo) : ic_reg(IC_BUF_RECV, 0, lo);
            tree_role(&tr, line, root_pos, u, t, i, half, seg);
            if (tr.k > 0 && tr.R + 2 * (long)tr.k > last)
                last = tr.R + 2 * (long)tr.k;
        }
    return last;
}

/* The reduce's slots per buffer for a tree of k segments of seg elements:
 * up to RED_SLOTS, so that a position takes in the next segments while
 * the partials before them go up (where the schedule runs as a dataflow;
 * two slots let a position hold one segment in and one going: on the
 * simulated modern cluster's 64 nodes the reduce of 1 MiB in 8 KiB
 * segments took 241 us with two, 221 with four, 217 with eight); the
 * four buffers' worth of slots within the message from a->bounded_from
 * on, as ic_reduce_two_tree_seg cuts the segment for two. */
#define RED_SLOTS 8
static size_t red_slots(const ic_coll_args_t *a, size_t k, size_t seg)
{
    size_t w = k < RED_SLOTS ? k : RED_SLOTS;
    if (ic_reduce_pieces(a, a->count) > 1 && w > 2 && 4 * w * seg > 2 * a->count)
        w = a->count / (2 * seg) > 2 ? a->count / (2 * seg) : 2;
    return w ? w : 1;
}

/* The slot of the role's tree in buffer b for segment sg's message
 * (segments take the slots in turn). */
static ic_region_t red_slot(ic_buf_t b, const tree_role_t *tr, size_t sg)
{
    size_t n = ic_segment(tr->half, tr->seg, tr->k, sg).count;
    return ic_reg(b, sg % tr->slots * tr->seg, n);
}

/* Round r of the broadcast, backwards, for one tree's role: in is the
 * input's half (a region of SEND or, at the root, the result), acc where
 * the line's root combines (NULL elsewhere). */
static void red_round(ic_sched_t *s, const tree_role_t *tr, long r, ic_region_t in,
                      const ic_region_t *acc)
{
    long sg;
    if (tr->parent >= 0 && (sg = role_segment(tr, r, 0)) >= 0) { /* the partial goes up */
        ic_region_t up = tr->nchild ? red_slot(IC_BUF_SCRATCH, tr, (size_t)sg)
                                    : ic_segment(in, tr->seg, tr->k, (size_t)sg);
        ic_sched_send(s, tr->parent, up);
    }
    for (int c = tr->nchild - 1; c >= 0; c--) { /* the second child's first */
        if ((sg = role_segment(tr, r, 1 + c)) < 0)
            continue;
        ic_region_t mine = ic_segment(in, tr->seg, tr->k, (size_t)sg);
        if (acc) { /* the line's root: into its result */
            ic_region_t res = ic_segment(*acc, tr->seg, tr->k, (size_t)sg);
            if (in.buf == acc->buf) { /* in place: the input is the result */
                ic_region_t got = red_slot(tr->inbox, tr, (size_t)sg);
                ic_sched_recv(s, tr->child[c], got);
                ic_sched_reduce(s, got, res, 1);
            } else { /* the partial arrives in the result, the input joins it */
                ic_sched_recv(s, tr->child[c], res);
                ic_sched_reduce(s, mine, res, 1);
            }
        } else if (c == tr->nchild - 1) { /* the partial's slot, then the input */
            ic_region_t part = red_slot(IC_BUF_SCRATCH, tr, (size_t)sg);
            ic_sched_recv(s, tr->child[c], part);
            ic_sched_reduce(s, mine, part, 1);
        } else {
            ic_region_t got = red_slot(IC_BUF_SCRATCH2, tr, (size_t)sg);
            ic_sched_recv(s, tr->child[c], got);
            ic_sched_reduce(s, got, red_slot(IC_BUF_SCRATCH, tr, (size_t)sg), 1);
        }
    }
}

int ic_coll_reduce_two_tree(ic_sched_t *s, const ic_coll_args_t *a)
{
    ic_line_t line = ic_coll_line(a);
    int n = line.n, root_pos = ic_line_pos(&line, a->root);
    int me = ic_line_pos(&line, a->rank), root = me == root_pos;
    size_t count = a->count, lo = count - count / 2;
    ic_region_t res = ic_reg(IC_BUF_RECV, 0, count);
    ic_sched_round(s);
    if (ic_reduce_alone(s, a, n, root))
        return ic_sched_ok(s);
    size_t seg = ic_reduce_two_tree_seg(a);
    long t = n - 1, u = (long)((me - root_pos + n) % n) - 1;
    ic_region_t in = root && a->in_place ? res : ic_reg(IC_BUF_SEND, 0, count);
    ic_region_t half[2] = {ic_reg(in.buf, 0, lo), ic_reg(in.buf, lo, count - lo)};
    ic_region_t out[2] = {ic_reg(IC_BUF_RECV, 0, lo), ic_reg(IC_BUF_RECV, lo, count - lo)};
    tree_role_t tr[2];
    for (int i = 0; i < 2; i++) {
        tree_role(&tr[i], &line, root_pos, u, t, i, half[i], seg);
        /* the root receives each tree's partials in a buffer of their own;
         * elsewhere only the interior tree has slots */
        tr[i].inbox = i ? IC_BUF_SCRATCH : IC_BUF_SCRATCH2;
        tr[i].slots = red_slots(a, tr[i].k, tr[i].seg);
        size_t slots = tr[i].slots * tr[i].seg;
        if (tr[i].k == 0)
            continue;
        if (root && a->in_place)
            ic_sched_need(s, tr[i].inbox, slots);
        if (!root && tr[i].nchild > 1)
            ic_sched_need(s, IC_BUF_SCRATCH2, slots);
        if (!root && tr[i].nchild > 0)
            ic_sched_need(s, IC_BUF_SCRATCH, slots);
    }
    long L = last_round(&line, root_pos, count, seg);
    size_t from = s->nacts;
    for (long r = L; r >= 0; r--) {
        for (int i = 0; i < 2; i++)
            red_round(s, &tr[i], r, half[i], root ? &out[i] : NULL);
        ic_sched_round(s);
    }
    ic_sched_stream(s, from);
    return ic_sched_ok(s);
}
