/*
 * circulant.c -- the round-optimal broadcast on a circulant graph (J. L.
 * Traff, "Optimal broadcast schedules in logarithmic time with
 * applications to broadcast, all-broadcast, reduction and all-reduction",
 * ACM Transactions on Parallel Computing, 2025; MPICH carries it too).
 *
 * The vector is cut into B blocks and reaches every one of n positions in
 * B - 1 + q rounds, q = ceil(log2 n), the fewest any schedule takes where
 * a position sends one message and receives one a round: a chain takes
 * B - 2 + n, the two trees about 2 B + 2 log2 n.
 *
 * The graph.  Skips s_q = n, s_k = ceil(s_(k+1) / 2), so s_0 = 1 and
 * s_(k+1) <= 2 s_k.  In round i, with k = i mod q, relative position r
 * (r = (pos - root) mod n) sends to r + s_k and receives from r - s_k
 * (mod n); the root receives nothing, no one sends to it.  Rounds go in
 * phases of q, k = 0 .. q - 1.
 *
 * The blocks.  Each position has a receive table: in round k of every
 * phase it receives block v + (the phase's first block), v its table's
 * entry k.  One entry is its base block b >= 0, the round r is first
 * reached in when the root sends blocks 0, 1, ..., q - 1 of a phase down
 * the tree of skips (r's greedy sum of skips ends with s_b); the other
 * q - 1 are b' - q for every b' != b in 0 .. q - 1, the previous phase's
 * blocks.  So each phase brings a position one block of its own phase and
 * the rest of the previous one: every block once.  Its send table is its
 * successor's receive table (entry k of position r + s_k), the root's
 * 0, 1, ..., q - 1.  circ_recv builds the receive table of a position in
 * O(q) steps (the paper's search: paths of skips from the root to the
 * virtual position n + r, ending in round k, whose intermediate positions
 * fall, so that the sender of each entry holds it in time); the unit
 * suite checks every n to 600 and B to 3q + 3 block by block.
 *
 * The clock.  B blocks: the rounds are x .. x + B - 2 + q with
 * x = (q - (B - 1) mod q) mod q, block = entry + q floor(i / q) - x; a
 * negative block is none, one past B - 1 is B - 1 (already sent that
 * position or on its way: the paper's).  Those repeats of block B - 1
 * are left out on both sides: a sender knows its successor's table.
 * Trace, n = 5 (skips 1 2 3 5), root 0, receive tables (entries k = 0 1
 * 2): P1 {0 -1 -2}, P2 {-3 1 -1}, P3 {-2 -3 2}, P4 {-1 -2 0}.  B = 2,
 * so x = 2, rounds 2 .. 5 (k = 2 0 1 2):
 *   round 2:  P0 >P3 block 0
 *   round 3:  P0 >P1 block 1,  P3 >P4 block 0
 *   round 4:  P0 >P2 block 1,  P4 >P1 block 0
 *   round 5:  P0 >P3 block 1,  P1 >P4 block 1,  P4 >P2 block 0
 * (round 4's P2 entry 1 + 1 = 2 and round 5's P3 entry 2 + 1 = 3 are
 * block 1, the last).
 *
 * A stream (ic_sched_stream): where the schedule runs as a dataflow, a
 * block goes on as soon as it is in.  Cost, B blocks of s bytes:
 * (B - 1 + q)(alpha + s beta), exact in lock step where a position's send
 * and receive of a round overlap (full-duplex ports).
 *
 * The reduce (ic_circulant_reduce) is the broadcast run backwards
 * (the paper's reduction): round i of the broadcast is round
 * x + B - 2 + q - (i - x) of the reduce, its send of block b to r + s_k a
 * receive of that position's partial of b, combined into this one's, its
 * receive of b from r - s_k the send of this position's partial of b
 * there.  Each block's partials go up the broadcast's tree of that block
 * (every position receives each block once there), so every input is
 * combined once; in the order of the trees, not of the ranks: commutative
 * ops only.  A position's partial of a block lives in a slot of scratch
 * from its first partial received (the input's block is combined into
 * it) to its send; a block it receives no partial of goes up from the
 * input where it is; a further partial arrives in a slot of its own,
 * combined into the first and freed.  Slots are taken from a list of free
 * ones, oldest first, four made before any is taken again (three for
 * n = 2), so that the next receives need not wait for the sends that free
 * the last ones.  A block lives from its receive to its last send in the
 * broadcast, at most 2q rounds (the send tables hold blocks of a phase and
 * the one before), so at most 2q + 1 slots are held at once (the unit
 * suite checks it to n = 1000), and at most B + 1, within twice the
 * vector.  The root combines into its result (where its input is
 * there already, in place or in a later step of a mesh plan: every
 * partial through a slot; it receives each block once, the last from each
 * position it sends that block to first).  From a->bounded_from elements
 * on blocks are at most a (2q + 1)-th of the vector, so that the slots
 * stay within the message (ic_circulant_reduce_block; a vector shorter
 * than 2q + 1 elements is not served there, ic_circulant_reduce_fits).  A
 * line primitive: the 1-D reduce and a reduce's mesh step (compose.c).
 * Cost: the broadcast's with beta + gamma a byte, priced as a bound as the
 * broadcast's.
 */
#include "coll_common.h"

#include <limits.h>
#include <stdlib.h>

#define CIRC_MAXQ 32 /* ceil(log2 n) for any int n, and room */

typedef struct circ {
    int n, q;
    long skip[CIRC_MAXQ + 1];
} circ_t;

static void circ_init(circ_t *c, int n)
{
    c->n = n;
    c->q = 0;
    while ((1L << c->q) < n)
        c->q++;
    c->skip[c->q] = n;
    for (int i = c->q - 1; i >= 0; i--)
        c->skip[i] = (c->skip[i + 1] + 1) / 2;
}

/* The base block of relative position r: the last skip of r's greedy sum
 * (largest skips first); q for the root. */
static int circ_base(const circ_t *c, long r)
{
    long sum = 0;
    for (int i = c->q - 1; i >= 0; i--) {
        if (sum + c->skip[i] == r)
            return i;
        if (sum + c->skip[i] < r)
            sum += c->skip[i];
    }
    return c->q;
}

/* The search's state: the labels not yet given to a round, q .. 0 (label
 * q the position's own block b, label e < q the previous phase's block
 * e), linked in falling order. */
typedef struct circ_search {
    const circ_t *c;
    long target;               /* n + r */
    int lower[CIRC_MAXQ + 2];  /* next label below, -1 none */
    int higher[CIRC_MAXQ + 2]; /* next label above, head for the top */
    int head;                  /* the highest label left */
    int *label;                /* per round */
} circ_search_t;

static void circ_take(circ_search_t *S, int e)
{
    int lo = S->lower[e], hi = S->higher[e];
    if (hi >= 0)
        S->lower[hi] = lo;
    else
        S->head = lo;
    if (lo >= 0)
        S->higher[lo] = hi;
}

/* From the partial sum `at`, labels from e down: the next rounds (from k
 * on) whose path to the target through a skip of label e stays below
 * `below` take e.  Returns the next round left without a label. */
static int circ_paths(circ_search_t *S, long at, long below, int e, int k)
{
    const circ_t *c = S->c;
    for (; e >= 0 && k < c->q; e = S->lower[e]) {
        long via = at + c->skip[e];
        if (via > S->target - c->skip[k] || via >= below)
            continue;
        if (via <= S->target - c->skip[k + 1]) { /* room for more skips */
            k = circ_paths(S, via, below, e, k);
            if (k >= c->q)
                return k;
        }
        if (at > S->target - c->skip[k + 1])
            return k;
        below = via;
        S->label[k++] = e;
        circ_take(S, e);
    }
    return k;
}

/* The receive table of relative position r (1 .. n - 1). */
static int circ_recv(const circ_t *c, long r, int *table)
{
    int q = c->q, b = circ_base(c, r);
    circ_search_t S = {.c = c, .target = c->n + r, .label = table, .head = q};
    for (int e = 0; e <= q; e++) {
        S.lower[e] = e - 1;
        S.higher[e] = e < q ? e + 1 : -1;
    }
    circ_take(&S, b);
    if (circ_paths(&S, 0, 2L * c->n, S.head, 0) != q)
        return -1; /* not for any n: the unit suite checks to 600 */
    for (int k = 0; k < q; k++)
        table[k] = table[k] == q ? b : table[k] - q;
    return 0;
}

/* The block of round i (of the clock from x) at table entry v; -1 none. */
static long circ_block(long v, long i, int q, long x, long nb)
{
    if (v == INT_MIN)
        return -1;
    long blk = v + q * (i / q) - x;
    return blk < 0 ? -1 : blk >= nb ? nb - 1 : blk;
}

/* The first round in which the position with receive table `recv` gets
 * block nb - 1: later ones are the repeats left out. */
static long circ_last_in(const int *recv, int q, long x, long nb)
{
    for (long i = x;; i++)
        if (circ_block(recv[i % q], i, q, x, nb) == nb - 1)
            return i;
}

/* Position r's receive table (r > 0) and send table; with last (not
 * NULL), for the clock of B blocks from x, each successor's first receive
 * of block B - 1 (-1: the root, no successor).  -1: no table. */
static int circ_tables(const circ_t *c, int r, int *recv, int *send, long *last, long x, long B)
{
    int t[CIRC_MAXQ];
    if (r > 0 && circ_recv(c, r, recv) < 0)
        return -1;
    for (int k = 0; k < c->q; k++) {
        long to = (r + c->skip[k]) % c->n;
        send[k] = r == 0 ? k : INT_MIN; /* INT_MIN: no one sends to the root */
        if (last)
            last[k] = -1;
        if (to == 0)
            continue;
        if (circ_recv(c, to, t) < 0)
            return -1;
        if (r > 0)
            send[k] = t[k];
        if (last)
            last[k] = circ_last_in(t, c->q, x, B);
    }
    return 0;
}

/* The clock of B blocks at relative position r of n: the graph, the
 * tables, the first round x, and the first receives of block B - 1 (this
 * position's, -1 at the root; its successors', circ_tables).  -1: no
 * table. */
typedef struct circ_clock {
    circ_t c;
    int recv[CIRC_MAXQ], send[CIRC_MAXQ];
    long succ_last[CIRC_MAXQ], my_last, B, x;
} circ_clock_t;

static int circ_clock(circ_clock_t *K, int n, int r, long B)
{
    circ_init(&K->c, n);
    int q = K->c.q;
    K->B = B;
    K->x = (q - (B - 1) % q) % q;
    K->my_last = -1;
    if (circ_tables(&K->c, r, K->recv, K->send, K->succ_last, K->x, B) < 0)
        return -1;
    if (r > 0)
        K->my_last = circ_last_in(K->recv, q, K->x, B);
    return 0;
}

int ic_circulant_tables(int n, int r, int *recv, int *send)
{
    circ_t c;
    circ_init(&c, n);
    if (n < 2 || r < 0 || r >= n || circ_tables(&c, r, recv, send, NULL, 0, 0) < 0)
        return -1;
    return c.q;
}

int ic_circulant_skip(int n, int k)
{
    circ_t c;
    circ_init(&c, n);
    return k >= 0 && k <= c.q ? (int)c.skip[k] : 0;
}

void ic_circulant_bcast(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_region_t data,
                        size_t seg)
{
    size_t nb;
    int me = ic_pipe_start(s, line, data.count, &seg, &nb);
    if (me < 0)
        return;
    int n = line->n, r = (me - root_pos + n) % n;
    circ_clock_t K;
    if (circ_clock(&K, n, r, (long)nb) < 0) {
        s->oom = 1; /* no table: never seen (every n to 5000, samples to 2^31) */
        return;
    }
    const circ_t c = K.c;
    const int q = c.q, *recv = K.recv, *send = K.send;
    const long B = K.B, x = K.x, *succ_last = K.succ_last, my_last = K.my_last;
    size_t from = s->nacts;
    for (long i = x; i < x + B - 1 + q; i++) {
        int k = (int)(i % q);
        long out = circ_block(send[k], i, q, x, B);
        if (out >= 0 && !(out == B - 1 && i > succ_last[k])) {
            int to = (int)((r + c.skip[k]) % n);
            ic_sched_send(s, ic_line_rank(line, (to + root_pos) % n),
                          ic_segment(data, seg, nb, (size_t)out));
        }
        long in = r > 0 ? circ_block(recv[k], i, q, x, B) : -1;
        if (in >= 0 && !(in == B - 1 && i > my_last)) {
            int from_r = (int)((r - c.skip[k] + n) % n);
            ic_sched_recv(s, ic_line_rank(line, (from_r + root_pos) % n),
                          ic_segment(data, seg, nb, (size_t)in));
        }
        ic_sched_round(s);
    }
    ic_sched_stream(s, from);
}

/* The reduce's slots (above): `size` elements each in buffer `buf` from
 * `base`, handed out from a list of free ones, oldest first, new ones
 * while fewer than `spread` exist. */
typedef struct circ_slots {
    size_t *fifo; /* free slots, a ring of cap */
    size_t head, nfree, made, cap, spread, size, base;
    ic_buf_t buf;
} circ_slots_t;

static size_t slot_take(circ_slots_t *P)
{
    if (P->nfree == 0 || P->made < P->spread)
        return P->made++;
    size_t sl = P->fifo[P->head];
    P->head = (P->head + 1) % P->cap;
    P->nfree--;
    return sl;
}

static void slot_give(circ_slots_t *P, size_t sl)
{
    P->fifo[(P->head + P->nfree++) % P->cap] = sl;
}

static ic_region_t slot_reg(const circ_slots_t *P, size_t sl, size_t n)
{
    return ic_reg(P->buf, P->base + sl * P->size, n);
}

size_t ic_circulant_reduce_block(size_t count, size_t seg, int n, int bounded)
{
    return ic_slotted_seg(seg, count, count, ic_circulant_reduce_held(n), bounded);
}

size_t ic_reduce_circulant_seg(const ic_coll_args_t *a)
{
    return ic_circulant_reduce_block(a->count, a->seg, a->size, ic_reduce_pieces(a, a->count) > 1);
}

void ic_circulant_reduce(ic_sched_t *s, const ic_line_t *line, int root_pos, const ic_region_t *in,
                         ic_region_t acc, ic_buf_t tmp, size_t tmpbase, size_t seg, int bounded)
{
    size_t count = acc.count, nb;
    int me = ic_pipe_start(s, line, count, &seg, &nb);
    if (me < 0)
        return;
    int n = line->n, root = me == root_pos;
    /* every position's input; where it is acc (in == NULL), each partial
     * is combined into acc through a slot held for one round */
    ic_region_t mine_all = in ? *in : acc;
    int r = (me - root_pos + n) % n;
    circ_clock_t K;
    int ok = circ_clock(&K, n, r, (long)nb);
    const circ_t c = K.c;
    const int q = c.q, *recv = K.recv, *send = K.send;
    const long B = K.B, x = K.x, *succ_last = K.succ_last, my_last = K.my_last;
    /* slots within the vector when bounded or where acc (perhaps scratch
     * itself: a mesh step's) holds the partials, else within twice it */
    size_t most = (bounded || !in || root ? 1 : 2) * count / seg;
    circ_slots_t P = {
        .spread = ic_circulant_reduce_slots(n), .size = seg, .base = tmpbase, .buf = tmp};
    if (P.spread > most)
        P.spread = most ? most : 1;
    /* beyond spread a slot is made only when every one is held */
    P.cap = P.spread + ic_circulant_reduce_held(n);
    long *slot_of = malloc(nb * sizeof(long)); /* the block's partial's slot; -1 none */
    P.fifo = malloc(P.cap * sizeof(size_t));
    if (!slot_of || !P.fifo || ok < 0) {
        free(slot_of);
        free(P.fifo);
        s->oom = 1;
        return;
    }
    for (size_t b = 0; b < nb; b++)
        slot_of[b] = -1;
    size_t from = s->nacts;
    for (long i = x + B - 2 + q; i >= x; i--) {
        int k = (int)(i % q);
        long freed[2]; /* given back after the round: its messages go together */
        int nfreed = 0;
        long up = r > 0 ? circ_block(recv[k], i, q, x, B) : -1;
        if (up >= 0 && !(up == B - 1 && i > my_last)) { /* the partial goes up */
            int to = (int)((r - c.skip[k] + n) % n);
            ic_region_t mine = ic_segment(mine_all, seg, nb, (size_t)up);
            if (slot_of[up] >= 0)
                mine = slot_reg(&P, (size_t)slot_of[up], mine.count);
            ic_sched_send(s, ic_line_rank(line, (to + root_pos) % n), mine);
            if (slot_of[up] >= 0)
                freed[nfreed++] = slot_of[up];
        }
        long got = circ_block(send[k], i, q, x, B);
        if (got >= 0 && !(got == B - 1 && i > succ_last[k])) { /* a partial comes in */
            int fr = (int)((r + c.skip[k]) % n);
            int peer = ic_line_rank(line, (fr + root_pos) % n);
            ic_region_t mine = ic_segment(mine_all, seg, nb, (size_t)got), home;
            if (slot_of[got] < 0 && in) { /* the block's first partial */
                if (root) {
                    slot_of[got] = 0; /* the root's result holds it */
                    home = ic_segment(acc, seg, nb, (size_t)got);
                } else { /* into a slot, the input joins it */
                    slot_of[got] = (long)slot_take(&P);
                    home = slot_reg(&P, (size_t)slot_of[got], mine.count);
                }
                ic_sched_recv(s, peer, home);
                ic_sched_reduce(s, mine, home, 1);
            } else { /* into a slot of its own, combined where the block's partial is, freed */
                home = root || !in ? ic_segment(acc, seg, nb, (size_t)got)
                                   : slot_reg(&P, (size_t)slot_of[got], mine.count);
                size_t t = slot_take(&P);
                ic_region_t part = slot_reg(&P, t, mine.count);
                ic_sched_recv(s, peer, part);
                ic_sched_reduce(s, part, home, 1);
                freed[nfreed++] = (long)t;
            }
        }
        ic_sched_round(s);
        for (int f = 0; f < nfreed; f++)
            slot_give(&P, (size_t)freed[f]);
    }
    ic_sched_stream(s, from);
    if (P.made && (tmp == IC_BUF_SCRATCH || tmp == IC_BUF_SCRATCH2))
        ic_sched_need(s, tmp, tmpbase + P.made * seg);
    free(slot_of);
    free(P.fifo);
}
