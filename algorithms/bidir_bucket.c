/*
 * bidir_bucket.c -- the bucket distributed combine and the bucket collect
 * (bucket_dcombine.c, bucket_collect.c) on two counter-rotating rings at
 * once, each carrying about half of every block.
 *
 * The bucket primitives send every message to the right-hand neighbour:
 * on a network whose neighbour links are full duplex (a torus, a ring of
 * switches' ports) the links' other direction stays idle.  Here block j
 * of counts[j] elements is cut into a lower part of about half of it
 * (lower() below says where), which ring A moves exactly as the one-way
 * primitive does (position i sends to i+1), and the upper part, which
 * ring B moves the mirror way (i sends to i-1).  Every step then
 * puts half the data on each direction of every link: the same n - 1
 * steps, half the bytes on each.
 *
 * Ring B mirrors ring A: in the distributed combine, the partial of the
 * upper part of block j starts at position j-1 and travels j-1, j-2, ...,
 * j+1 to j; in the collect, position i sends the upper part of block
 * (i+k) mod n in step k and receives that of (i+k+1) mod n.  Trace of the
 * collect, n = 4 ("a>": the lower part of block a goes right, "<b": the
 * upper part of block b goes left):
 *            P0        P1        P2        P3
 *   step 0   0> <0     1> <1     2> <2     3> <3
 *   step 1   3> <1     0> <2     1> <3     2> <0
 *   step 2   2> <2     3> <3     0> <0     1> <1
 * P0 gets the lower parts of blocks 3, 2, 1 from P3 and the upper parts of
 * 1, 2, 3 from P1: after step 2 every position holds every block whole.
 * A round posts ring A's receive and send, then ring B's: at n = 2 both
 * rings join the same two positions, and their messages are matched in
 * that order on both sides.
 *
 * Restrictions: the combine needs a commutative operation (as the one-way
 * ring: a partial combines the positions in ring order); the collect
 * none.  tmp needs room for the largest lower part plus the largest upper
 * part from tmpbase on and must not overlap the blocks.
 *
 * Cost: every link carries half a block each way in every step, an
 * exchange: (n-1)(alpha + m/(2n) beta_x) for the collect, plus (n-1)/n m
 * gamma for the combine (every element is still combined n-1 times).  On
 * full-duplex links (beta_x = beta) half the one-way ring's transfer
 * time; over TCP, whose exchanges run at half rate, none.  A model with
 * one port per rank (the cost evaluator) serialises a step's two messages
 * and sees no gain, so the closed forms are lower bounds
 * (IC_ALG_COST_BOUND): these run when forced or named by a tuning table.
 *
 * The halfway rings (ic_bucket_dcombine2, ic_bucket_collect2 with halfway)
 * give each ring every block whole and take it half way round, floor(n/2)
 * steps each way instead of n - 1: ring A to the positions on its right,
 * ring B to those on its left, and when n is even the position opposite
 * the block's owner gets its lower half from the left and its upper half
 * from the right (in the collect's last step; in the combine's first, it
 * sends them).  Every direction of a link carries (n-1)/2 blocks, as on
 * the bidir rings, in about half the steps.  In the combine block j's
 * partials run from the far position(s) to j, which combines both into
 * its own block.  Trace of the collect, n = 4 ("a>": block a goes right,
 * "<b": left; "a'>", "<b'": its lower and upper halves):
 *            P0          P1          P2          P3
 *   step 0   0> <0       1> <1       2> <2       3> <3
 *   step 1   3'> <1'     0'> <2'     1'> <3'     2'> <0'
 * P0 gets blocks 3 and 1 in step 0 and the halves of block 2 from P3 and
 * P1 in step 1.  Cost floor((n-1)/2)(alpha + m/n beta_x), plus for an
 * even n a step of halves, alpha + m/(2n) beta_x; the combine adds (n-1)/n
 * m gamma.  tmp needs room for two whole blocks (n >= 3).  A line whose
 * largest block is more than half of all (ic_halfway_lopsided) takes the
 * bidir rings instead: two such blocks would outgrow the scratch the
 * callers allow (the vector, or its piece, once more).  tmp then needs
 * room for its largest block.
 */
#include "algorithms.h"

/* The two parts of block j: lower (ring A) first.  The cut falls on a
 * unit of the block that leaves at least 16 of them (ic_granule, the rule
 * of the broadcast's unit): a block of whole elements of a datatype whose
 * size is such a unit is cut between two elements, so that callers
 * working in bytes (the gather family) address typed buffers in place.
 * The parts differ by at most one unit, 1/16 of the block. */
static size_t lower(const size_t *counts, int j)
{
    size_t c = counts[j], g = ic_granule(c, 16);
    size_t u = c / g;
    return (u - u / 2) * g;
}

static size_t upper(const size_t *counts, int j)
{
    return counts[j] - lower(counts, j);
}

/* A block index that walks the ring by one each step, with its offset
 * kept as it goes (O(1) a step, so a schedule takes O(n) time). */
typedef struct walk {
    int j;
    size_t off; /* prefix of block j */
} walk_t;

static walk_t walk_at(const size_t *counts, int n, int j)
{
    walk_t w = {((j % n) + n) % n, 0};
    w.off = ic_blocks_prefix(counts, w.j);
    return w;
}

static void walk_down(walk_t *w, const size_t *counts, int n, size_t total)
{
    w->j = (w->j + n - 1) % n;
    w->off = w->j == n - 1 ? total - counts[w->j] : w->off - counts[w->j];
}

static void walk_up(walk_t *w, const size_t *counts, int n)
{
    w->off = w->j == n - 1 ? 0 : w->off + counts[w->j];
    w->j = (w->j + 1) % n;
}

/* How the two rings share the blocks: the halves of each, n - 1 steps
 * each ("bidir"), or every block whole, n/2 steps each way ("halfway"),
 * where for an even n the step that touches the block's far position
 * (the first of the combine, the last of the collect) carries halves. */
typedef struct rings {
    int halfway;
    int steps; /* of each ring                               */
    int split; /* the halfway rings' step of halves, or -1 */
} rings_t;

static rings_t rings_of(int n, const size_t *counts, int halfway, int combine)
{
    rings_t r = {halfway && !ic_halfway_lopsided(counts, n), n - 1, -1};
    if (r.halfway) {
        r.steps = n / 2;
        if (n % 2 == 0)
            r.split = combine ? 0 : n / 2 - 1;
    }
    return r;
}

/* In step k: ring A's part of block j (from its start), ring B's offset
 * and part. */
static int halves(const rings_t *r, int k)
{
    return !r->halfway || k == r->split;
}

static size_t a_len(const rings_t *r, int k, const size_t *counts, int j)
{
    return halves(r, k) ? lower(counts, j) : counts[j];
}

static size_t b_off(const rings_t *r, int k, const size_t *counts, int j)
{
    return halves(r, k) ? lower(counts, j) : 0;
}

static size_t b_len(const rings_t *r, int k, const size_t *counts, int j)
{
    return halves(r, k) ? upper(counts, j) : counts[j];
}

/* Ring A carries the partial of block j from position j - h rightwards
 * to j, ring B from j + h leftwards (h: the rings' steps): position i
 * sends block i + h - k of ring A in step k and block i - h + k of ring B
 * (bidir: i - 1 - k and i + 1 + k, as the one-way ring and its mirror).
 * With halfway rings their paths meet only at j, which combines both
 * partials into its own block, and at j's far position when n is even,
 * which sends half of its block j each way. */
void ic_bucket_dcombine2(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                         const size_t *counts, ic_buf_t tmp, size_t tmpbase, int halfway)
{
    int n = line->n;
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me < 0 || n <= 1)
        return;

    rings_t r = rings_of(n, counts, halfway, 1);
    int h = r.steps, last = r.steps - 1;
    size_t maxa = 0, maxb = 0;
    for (int j = 0; j < n; j++) {
        maxa = a_len(&r, last, counts, j) > maxa ? a_len(&r, last, counts, j) : maxa;
        maxb = b_len(&r, last, counts, j) > maxb ? b_len(&r, last, counts, j) : maxb;
    }
    ic_sched_need(s, tmp, tmpbase + maxa + maxb);

    size_t total = ic_blocks_total(counts, n);
    int right = ic_line_rank(line, (me + 1) % n);
    int left = ic_line_rank(line, (me + n - 1) % n);
    walk_t sa = walk_at(counts, n, me + h), ra = walk_at(counts, n, me - 1 + h);
    walk_t sb = walk_at(counts, n, me - h), rb = walk_at(counts, n, me + 1 - h);
    for (int k = 0; k < h; k++) {
        size_t c;
        if ((c = a_len(&r, k, counts, sa.j)) > 0)
            ic_sched_send(s, right, ic_reg(buf, base + sa.off, c));
        if ((c = a_len(&r, k, counts, ra.j)) > 0) {
            ic_region_t in = ic_reg(tmp, tmpbase, c);
            ic_sched_recv(s, left, in);
            ic_sched_reduce(s, in, ic_reg(buf, base + ra.off, c), 1);
        }
        if ((c = b_len(&r, k, counts, sb.j)) > 0)
            ic_sched_send(s, left, ic_reg(buf, base + sb.off + b_off(&r, k, counts, sb.j), c));
        if ((c = b_len(&r, k, counts, rb.j)) > 0) {
            ic_region_t in = ic_reg(tmp, tmpbase + maxa, c);
            ic_sched_recv(s, right, in);
            ic_sched_reduce(s, in, ic_reg(buf, base + rb.off + b_off(&r, k, counts, rb.j), c), 1);
        }
        ic_sched_round(s);
        sa = ra;
        walk_down(&ra, counts, n, total);
        sb = rb;
        walk_up(&rb, counts, n);
    }
}

/* Ring A carries block j from j rightwards, ring B leftwards, each for the
 * rings' steps: position i sends blocks i - k and i + k in step k,
 * receives i - k - 1 and i + k + 1 (with halfway rings of an even n the
 * last step brings the far block's two halves, one from each side). */
void ic_bucket_collect2(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                        const size_t *counts, int halfway)
{
    int n = line->n;
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me < 0 || n <= 1)
        return;

    rings_t r = rings_of(n, counts, halfway, 0);
    size_t total = ic_blocks_total(counts, n);
    int right = ic_line_rank(line, (me + 1) % n);
    int left = ic_line_rank(line, (me + n - 1) % n);
    walk_t sa = walk_at(counts, n, me), ra = walk_at(counts, n, me - 1);
    walk_t sb = sa, rb = walk_at(counts, n, me + 1);
    for (int k = 0; k < r.steps; k++) {
        size_t c;
        if ((c = a_len(&r, k, counts, sa.j)) > 0)
            ic_sched_send(s, right, ic_reg(buf, base + sa.off, c));
        if ((c = a_len(&r, k, counts, ra.j)) > 0)
            ic_sched_recv(s, left, ic_reg(buf, base + ra.off, c));
        if ((c = b_len(&r, k, counts, sb.j)) > 0)
            ic_sched_send(s, left, ic_reg(buf, base + sb.off + b_off(&r, k, counts, sb.j), c));
        if ((c = b_len(&r, k, counts, rb.j)) > 0)
            ic_sched_recv(s, right, ic_reg(buf, base + rb.off + b_off(&r, k, counts, rb.j), c));
        ic_sched_round(s);
        sa = ra;
        walk_down(&ra, counts, n, total);
        sb = rb;
        walk_up(&rb, counts, n);
    }
}

/* The two-ring distributed combine reading every position's contribution
 * where it is: block j of `in` at in_off[j] (read only), my finished
 * block into `out`.  Each ring's partial goes through two slots of the
 * largest block in tmp, in turn (one received into while the other is
 * sent): a received part is combined with my contribution's same part,
 * and where the next step sends more of the block than arrived (the
 * halfway rings' step of halves, even n) the rest is copied from my
 * contribution.  tmp: four slots from tmpbase on. */
void ic_bucket_dcombine2_ro(ic_sched_t *s, const ic_line_t *line, ic_buf_t in, const size_t *in_off,
                            const size_t *counts, ic_region_t out, ic_buf_t tmp, size_t tmpbase,
                            int halfway)
{
    int n = line->n;
    int me = ic_ro_start(s, line, in, in_off, counts, out);
    if (me < 0)
        return;
    rings_t r = rings_of(n, counts, halfway, 1);
    int h = r.steps;
    size_t big = 0;
    for (int j = 0; j < n; j++)
        big = counts[j] > big ? counts[j] : big;
    ic_sched_need(s, tmp, tmpbase + 4 * big);
    /* slot x of ring A (0, 1) or B (2, 3) */
#define SLOT(x) (tmpbase + (size_t)(x)*big)
    int right = ic_line_rank(line, (me + 1) % n);
    int left = ic_line_rank(line, (me + n - 1) % n);
    int sa = ((me + h) % n + n) % n, ra = ((me - 1 + h) % n + n) % n;
    int sb = ((me - h) % n + n) % n, rb = ((me + 1 - h) % n + n) % n;
    for (int k = 0; k < h; k++) {
        size_t ca = a_len(&r, k, counts, sa), ob = b_off(&r, k, counts, sb);
        size_t cb = b_len(&r, k, counts, sb);
        size_t xa = SLOT((k + 1) % 2), xb = SLOT(2 + (k + 1) % 2); /* step k - 1's */
        if (ca > 0)
            ic_sched_send(s, right, k ? ic_reg(tmp, xa, ca) : ic_reg(in, in_off[sa], ca));
        size_t ra_c = a_len(&r, k, counts, ra), ya = SLOT(k % 2);
        if (ra_c > 0)
            ic_sched_recv(s, left, ic_reg(tmp, ya, ra_c));
        if (cb > 0)
            ic_sched_send(s, left, k ? ic_reg(tmp, xb + ob, cb) : ic_reg(in, in_off[sb] + ob, cb));
        size_t rb_o = b_off(&r, k, counts, rb), rb_c = b_len(&r, k, counts, rb);
        size_t yb = SLOT(2 + k % 2);
        if (rb_c > 0)
            ic_sched_recv(s, right, ic_reg(tmp, yb + rb_o, rb_c));
        if (k + 1 < h) { /* the partials of ra and rb go on next step */
            size_t na = a_len(&r, k + 1, counts, ra), nb = b_off(&r, k + 1, counts, rb);
            if (ra_c > 0)
                ic_sched_reduce(s, ic_reg(in, in_off[ra], ra_c), ic_reg(tmp, ya, ra_c), 1);
            if (na > ra_c)
                ic_sched_copy(s, ic_reg(in, in_off[ra] + ra_c, na - ra_c),
                              ic_reg(tmp, ya + ra_c, na - ra_c));
            if (rb_c > 0)
                ic_sched_reduce(s, ic_reg(in, in_off[rb] + rb_o, rb_c),
                                ic_reg(tmp, yb + rb_o, rb_c), 1);
            if (nb < rb_o)
                ic_sched_copy(s, ic_reg(in, in_off[rb] + nb, rb_o - nb),
                              ic_reg(tmp, yb + nb, rb_o - nb));
        } else { /* ra == rb == me: both partials and my contribution */
            if (counts[me] > 0)
                ic_sched_copy(s, ic_reg(in, in_off[me], counts[me]), out);
            if (ra_c > 0)
                ic_sched_reduce(s, ic_reg(tmp, ya, ra_c), ic_reg(out.buf, out.off, ra_c), 1);
            if (rb_c > 0)
                ic_sched_reduce(s, ic_reg(tmp, yb + rb_o, rb_c),
                                ic_reg(out.buf, out.off + rb_o, rb_c), 1);
        }
        ic_sched_round(s);
        sa = ra;
        ra = (ra + n - 1) % n;
        sb = rb;
        rb = (rb + 1) % n;
    }
#undef SLOT
}
