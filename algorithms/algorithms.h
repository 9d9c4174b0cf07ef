/*
 * algorithms.h -- schedule builders: lines, primitives, composed collectives
 * and the one registry of algorithms.
 *
 * Nothing here calls MPI.  Everything is expressed in element units of the
 * buffers named in schedule.h.
 *
 * A *line* is an ordered list of communicator ranks (a whole communicator,
 * a mesh row, a mesh column).  Primitives are written in line positions,
 * so the same code serves 1-D arrays and the rows/columns of a mesh.
 */
#ifndef IC_ALGORITHMS_H
#define IC_ALGORITHMS_H

#include "schedule.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ lines */

typedef struct ic_line {
    int n;          /* number of positions                          */
    int first;      /* rank of position 0 (when map == NULL)        */
    int stride;     /* rank step between positions (map == NULL)    */
    const int *map; /* optional explicit position -> rank table     */
} ic_line_t;

static inline int ic_line_rank(const ic_line_t *l, int pos)
{
    return l->map ? l->map[pos] : l->first + pos * l->stride;
}

/* The line 0, 1, ..., n-1 (a whole communicator). */
static inline ic_line_t ic_line_identity(int n)
{
    ic_line_t l = {n, 0, 1, NULL};
    return l;
}

/* Position of a rank on a line, -1 when absent. */
int ic_line_pos(const ic_line_t *l, int rank);

/* ceil(log2(n)) for n >= 1 (0 for n == 1). */
static inline int ic_ceil_log2(int n)
{
    int k = 0;
    while ((1 << k) < n)
        k++;
    return k;
}

/* The fold of recursive doubling and halving (rd_allreduce.c,
 * rd_collect.c, rh_dcombine.c): n = pof2 + rem positions, the 2 rem lowest
 * folded pairwise (2i onto 2i + 1), leaving pof2 virtual positions.
 * ic_fold_pof2: the largest power of two <= n; ic_fold_virtual: position
 * me's virtual position (-1: folded away); ic_fold_real: the position that
 * plays virtual position v. */
static inline int ic_fold_pof2(int n)
{
    int pof2 = 1;
    while (pof2 <= n / 2)
        pof2 *= 2;
    return pof2;
}

static inline int ic_fold_virtual(int me, int rem)
{
    return me < 2 * rem ? (me % 2 ? me / 2 : -1) : me - rem;
}

static inline int ic_fold_real(int v, int rem)
{
    return v < rem ? 2 * v + 1 : v + rem;
}

/* ------------------------------------------------------- block layouts */

/*
 * Per-position block counts of a long vector split over a line.  Block i
 * holds counts[i] elements; in a "packed" layout the blocks follow each
 * other in position order, so block i starts at sum(counts[0..i-1]).
 */
size_t ic_blocks_prefix(const size_t *counts, int i); /* sum counts[0..i-1] */
size_t ic_blocks_total(const size_t *counts, int n);
/* Even split of n_elems into n blocks: the first (n_elems % n) blocks get
 * one element more.  counts must have room for n entries. */
void ic_blocks_even(size_t *counts, int n, size_t n_elems);
/* A unit of n that cuts between elements of many datatypes: the largest
 * divisor of n made of 2^12, 3^2, 5 and 7 (element sizes 1 to 10, 12, 14,
 * 15, 16, 18, 20, 24, ... and their multiples up to 4 KiB), reduced (7, 5,
 * the twos above 16, the threes, the rest) until n holds at least `want`
 * units.  Every such unit divides IC_MSG_MAX. */
size_t ic_granule(size_t n, size_t want);
/* The broadcast's schedule unit for n bytes on p ranks: ic_granule with at
 * least 16 p units, so that blocks and segments stay even to within 1/16
 * (the same on every rank: a function of n and p). */
size_t ic_bcast_unit(size_t n, int p);

/* ------------------------------------------------------------- primitives
 *
 * Every primitive appends rounds to s for the rank s->rank, which must be on
 * the line (a rank off the line gets nothing appended).  Regions are in the
 * caller's buffers; the primitive never touches anything else except the
 * scratch areas it declares with ic_sched_need().  Primitives start by
 * closing the current round, so they can be concatenated freely.
 */

/* MST broadcast (mitra-1995 3.1.1): data (same region on every position) at
 * root_pos is copied to every position.  Cost ceil(log2 n)(alpha + m beta). */
void ic_mst_bcast(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_region_t data);

/* MST combine-to-one: acc holds each position's contribution; on return the
 * root's acc holds x_0 (op) x_1 (op) ... (op) x_{n-1} in position order
 * (non-commutative ops keep line order); other positions' acc is clobbered.
 * tmp: a region of acc.count elements used to receive partial results.
 * Cost ceil(log2 n)(alpha + m beta + m gamma). */
void ic_mst_combine(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_region_t acc,
                    ic_region_t tmp);
/* The same with each position's contribution in `in` (read only, not
 * overlapping acc; NULL: in acc): acc need not hold it, and the first
 * partial a position receives may go straight into acc (mst_combine.c). */
void ic_mst_combine_ro(ic_sched_t *s, const ic_line_t *line, int root_pos, const ic_region_t *in,
                       ic_region_t acc, ic_region_t tmp);

/* MST scatter: at the root, buffer `buf` holds the blocks packed in
 * position order from element `base` on (block i of counts[i] elements).
 * On return every position p holds block p at base + prefix(p) of its own
 * `buf`.  Other parts of `buf` on non-roots may be written (they hold the
 * blocks of the position's subtree).  Cost ceil(log2 n) alpha + (n-1)/n m beta
 * for even blocks. */
void ic_mst_scatter(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_buf_t buf, size_t base,
                    const size_t *counts);

/* MST gather: the reverse of ic_mst_scatter. Every position p holds block p
 * at base + prefix(p) of `buf`; on return the root holds all blocks there. */
void ic_mst_gather(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_buf_t buf, size_t base,
                   const size_t *counts);

/* The bucket distributed combine and collect on two counter-rotating
 * rings (bidir_bucket.c); arguments as the one-way ones.  halfway == 0:
 * half of every block on each ring, n - 1 steps (tmp: room for two half
 * blocks); halfway != 0: every block whole on both, each half way round,
 * n/2 steps with as many bytes on each direction of a link (tmp: room for
 * two blocks). */
void ic_bucket_dcombine2(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                         const size_t *counts, ic_buf_t tmp, size_t tmpbase, int halfway);
/* ic_bucket_dcombine2 reading every position's contribution where it is:
 * block j in `in` at in_off[j] (read only), the combined block of this
 * position into out (not overlapping in or tmp).  tmp: four times the
 * largest block from tmpbase on.  Commutative ops. */
void ic_bucket_dcombine2_ro(ic_sched_t *s, const ic_line_t *line, ic_buf_t in, const size_t *in_off,
                            const size_t *counts, ic_region_t out, ic_buf_t tmp, size_t tmpbase,
                            int halfway);
void ic_bucket_collect2(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                        const size_t *counts, int halfway);

/* A line of n blocks whose largest is more than half of all: the halfway
 * rings run as the bidir ones there (bidir_bucket.c). */
static inline int ic_halfway_lopsided(const size_t *counts, int n)
{
    size_t total = 0, most = 0;
    for (int j = 0; j < n; j++) {
        total += counts[j];
        most = counts[j] > most ? counts[j] : most;
    }
    return 2 * most > total;
}

/* Bucket collect (ring allgather): every position p holds block p at
 * base + prefix(p) of `buf`; on return every position holds all blocks.
 * Cost (n-1) alpha + (n-1)/n m beta. */
void ic_bucket_collect(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                       const size_t *counts);

/* Bucket distributed combine (ring reduce-scatter): every position holds a
 * full vector (all blocks, packed) at `base` of `buf`; on return position p's
 * block p (at base + prefix(p)) holds the combination over all positions.
 * Needs a commutative op.  tmp names a scratch buffer with room for the
 * largest block at element tmpbase.
 * Cost (n-1) alpha + (n-1)/n m beta + (n-1)/n m gamma. */
void ic_bucket_dcombine(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                        const size_t *counts, ic_buf_t tmp, size_t tmpbase);

/* The same with a read-only input: block j of position j at in_off[j] of
 * `in` (not written); position p's combined block p goes to `out` (after
 * the last step, so `out` may overlap the input).  tmp gets room for two
 * blocks from element tmpbase (ic_sched_need when it is a scratch buffer;
 * never more than the vector).  Same cost; no copy of the vector. */
void ic_bucket_dcombine_ro(ic_sched_t *s, const ic_line_t *line, ic_buf_t in, const size_t *in_off,
                           const size_t *counts, ic_region_t out, ic_buf_t tmp, size_t tmpbase);

/* Full fan-out collect (tan-strazdins-2002 3.3.7): like ic_bucket_collect,
 * in one round of n-1 sends and n-1 receives at every position (fanout.c).
 * Cost (n-1)(alpha + b beta_x) for blocks of b bytes. */
void ic_fanout_collect(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                       const size_t *counts);

/* Full fan-in (fanout.c, tan-strazdins-2002 3.3.7): n stages; in stage j
 * position j receives from j+1, j+2, ... one message at a time.  The
 * collect is like ic_bucket_collect; the distributed combine like
 * ic_bucket_dcombine (commutative op; tmp: one block at tmpbase). */
void ic_fanin_collect(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                      const size_t *counts);
void ic_fanin_dcombine(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                       const size_t *counts, ic_buf_t tmp, size_t tmpbase);
/* Full fan-out distributed combine (fanout.c): every position sends block
 * j to position j, the copies of its own block arrive in rounds of
 * ic_fanout_window(n, counts) (n - 1 for even blocks) into as many blocks
 * of tmp.  Commutative op. */
void ic_fanout_dcombine(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                        const size_t *counts, ic_buf_t tmp, size_t tmpbase);
size_t ic_fanout_window(int n, const size_t *counts);
/* One-shot combine-to-all (fanout.c): every position sends its whole vector
 * acc to every other in one round (the full fan-out's order), receives
 * theirs into n - 1 vectors of tmp (from tmp.off; ic_sched_need when a
 * scratch buffer) and combines all n in position order, the same
 * expression on every position (keeps order, bitwise identical results).
 * Cost (n-1)(alpha + m beta_x + m gamma) as the fan-out's bound; LogGP's
 * overhead o < alpha makes it alpha + (n-2) o + ..., the start-ups
 * overlapping: a win for the shortest vectors where a round costs more
 * than a send (tori with distance-dependent latency).  Its n - 1 vectors
 * of scratch must fit the call's allowance (ic_one_shot_fits): where they
 * do not, the plan cannot serve the call (ic_alg_room). */
void ic_fanout_allreduce(ic_sched_t *s, const ic_line_t *line, ic_region_t acc, ic_region_t tmp);
/* Do the one-shot's n - 1 arriving vectors of m elements fit the scratch
 * of a call with this bounded_from (ic_coll_args_t)?  Unbounded (0): yes;
 * a message of at least bounded_from elements: within the message; a
 * shorter one: within the slack (bounded_from - 1 elements) or twice the
 * message, whichever is more. */
static inline int ic_one_shot_fits(size_t bounded_from, int n, size_t m)
{
    if (bounded_from == 0 || m == 0 || n <= 2)
        return 1;
    size_t room = m >= bounded_from ? m : 2 * m > bounded_from - 1 ? 2 * m : bounded_from - 1;
    return (size_t)(n - 1) <= room / m;
}

/* Vectors of m elements the scratch of a call with this bounded_from
 * holds: a shorter vector's slack (bounded_from - 1 elements) or twice
 * it, whichever is more; one from bounded_from on; unbounded (0) or m = 0:
 * any number. */
static inline size_t ic_scratch_vectors(size_t bounded_from, size_t m)
{
    if (bounded_from == 0 || m == 0)
        return (size_t)-1;
    if (m >= bounded_from)
        return 1;
    return (2 * m > bounded_from - 1 ? 2 * m : bounded_from - 1) / m;
}

/* Can the k-nomial combine (coll_reduce.c) serve m elements on n ranks in
 * the scratch of a call with this bounded_from?  Its root holds its own
 * partial and its children's, ceil(log2 n) of them at the least (radix
 * 2); a larger radix is lowered to fit. */
static inline int ic_knomial_reduce_fits(size_t bounded_from, int n, size_t m)
{
    return 1 + (size_t)ic_ceil_log2(n) <= ic_scratch_vectors(bounded_from, m);
}

/* The slots the circulant reduce (circulant.c) holds at once on n
 * positions, at most: 2 ceil(log2 n) + 1 (circulant.c says why). */
static inline size_t ic_circulant_reduce_held(int n)
{
    return 2 * (size_t)ic_ceil_log2(n) + 1;
}

/* Can the circulant reduce serve m elements on n ranks in
 * the scratch of a call with this bounded_from?  From bounded_from on (and
 * m >= 2) its blocks are at most a (2 ceil(log2 n) + 1)-th of the vector,
 * so that the slots it holds at once stay within the message: not for a
 * shorter vector. */
static inline int ic_circulant_reduce_fits(size_t bounded_from, int n, size_t m)
{
    return bounded_from == 0 || m < bounded_from || m < 2 || m >= ic_circulant_reduce_held(n);
}

/* How many slots the circulant reduce makes before it reuses one (when its
 * allowance holds them): a receive into a reused slot waits for the send
 * that freed it, so a few more than the 2 ceil(log2 n) + 1 it holds at
 * once.  Measured (SimGrid, 100 Gbit/s nodes, 8 KiB blocks, 1 MiB): on
 * 8, 16, 64 nodes 4 slots take 1.60, 1.68, 1.90 times the bound, this
 * many 1.26, 1.42, 1.56; at 16 MiB on 64 nodes 1.89 and 1.20. */
static inline size_t ic_circulant_reduce_slots(int n)
{
    return ic_circulant_reduce_held(n) + 3;
}

/* The registry's room rules (ic_algorithm_t.room) built on the fits above:
 * NULL where the scratch fits, else why not. */
static inline const char *ic_one_shot_room(size_t bounded_from, int n, size_t m)
{
    return ic_one_shot_fits(bounded_from, n, m)
               ? NULL
               : "the p - 1 vectors arriving at once need more scratch than "
                 "INTERCOM_SCRATCH_SLACK allows";
}
static inline const char *ic_circulant_reduce_room(size_t bounded_from, int n, size_t m)
{
    return ic_circulant_reduce_fits(bounded_from, n, m)
               ? NULL
               : "a vector shorter than 2 ceil(log2 p) + 1 elements needs more scratch than "
                 "INTERCOM_SCRATCH_SLACK allows";
}

/* Collect by recursive doubling (rd_collect.c): tan-strazdins-2002's
 * bidirectional exchange; like ic_bucket_collect in log2 n exchanges (+ a
 * fold and an unfold when n is not a power of two), from the layout
 * ic_rh_dcombine(..., near) leaves: block ic_rh_block(n, p, near) on
 * position p.  near = 1: partners far first (the allgather's and the
 * allreduce's); near = 0: near first, from the natural layout (the
 * broadcast's, after an MST scatter). */
void ic_rd_collect(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                   const size_t *counts, int near);

/* n broadcasts (collect) or n combines-to-one (distributed combine, keeps
 * position order) in turn, MST (chain == 0) or chain (repeated.c:
 * tan-strazdins-2002's repeated binary tree and pipeline); layouts as
 * ic_bucket_collect / ic_bucket_dcombine; tmp one block (two for a chain
 * keeping order) at tmpbase. */
void ic_repeated_collect(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                         const size_t *counts, int chain);
void ic_repeated_dcombine(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                          const size_t *counts, ic_buf_t tmp, size_t tmpbase, int chain,
                          int keep_order);

/* Combine-to-all of whole vectors round the ring (ring_allreduce.c): acc
 * holds each position's contribution and ends with the combination of
 * all, combined in a different order on each position (an exact op only:
 * IC_ALG_EXACT_OP).  *in: the contribution, read-only, when not in acc.
 * tmp: m elements (2 m without in).  Cost (n-1)(alpha + m beta + m gamma). */
void ic_ring_allreduce(ic_sched_t *s, const ic_line_t *line, ic_region_t acc, ic_region_t tmp,
                       const ic_region_t *in);

/* Segments of `count` elements cut in `*seg` (0 or more than count: one
 * segment; *seg is set to the effective size): their number, k. */
static inline size_t ic_nsegments(size_t count, size_t *seg)
{
    if (*seg == 0 || *seg > count)
        *seg = count;
    return *seg ? (count + *seg - 1) / *seg : 0;
}

/* Prologue of the pipelined primitives: closes the current round; returns
 * the position of s->rank, or -1 when it has nothing to do (off the line,
 * one position, nothing to send), and sets *k, the number of segments
 * (ic_nsegments on *seg). */
static inline int ic_pipe_start(ic_sched_t *s, const ic_line_t *line, size_t count, size_t *seg,
                                size_t *k)
{
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me < 0 || line->n <= 1 || count == 0)
        return -1;
    *k = ic_nsegments(count, seg);
    return me;
}

/* Prologue of the distributed combines that read every position's
 * contribution where it is (block j of `in` at in_off[j]): closes the
 * current round; returns the position of s->rank, or -1 when it has
 * nothing more to do (off the line; alone on it, when its block went
 * to out). */
static inline int ic_ro_start(ic_sched_t *s, const ic_line_t *line, ic_buf_t in,
                              const size_t *in_off, const size_t *counts, ic_region_t out)
{
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me >= 0 && line->n == 1 && counts[0] > 0)
        ic_sched_copy(s, ic_reg(in, in_off[0], counts[0]), out);
    return me < 0 || line->n == 1 ? -1 : me;
}

/* Segment sg of the k segments of `seg` elements that data is cut into
 * (the last one takes the remainder); the pipelined primitives use it. */
static inline ic_region_t ic_segment(ic_region_t data, size_t seg, size_t k, size_t sg)
{
    size_t off = sg * seg;
    return ic_reg(data.buf, data.off + off, sg + 1 == k ? data.count - off : seg);
}

/* A stream's segments (the pipelined chains of pipe_bcast.c): as
 * ic_segment, except that when there are two segments or more and the
 * first can be cut so, it goes in IC_STREAM_DEPTH - 1 pieces growing
 * 1 : 2 : ... (schedule.h says why): IC_STREAM_DEPTH - 2 more segments,
 * and (IC_STREAM_DEPTH - 2) alpha more in lock step, where a round of
 * pieces costs what its largest piece does. */
static inline int ic_stream_ramps(size_t count, size_t seg)
{
    const size_t r = IC_STREAM_DEPTH - 1; /* pieces */
    return r > 1 && seg < count && seg >= r * (r + 1) / 2;
}

static inline size_t ic_stream_nsegments(size_t count, size_t *seg)
{
    size_t k = ic_nsegments(count, seg);
    return k + (ic_stream_ramps(count, *seg) ? IC_STREAM_DEPTH - 2 : 0);
}

/* Segment sg of the k (ic_stream_nsegments) a stream cuts data into. */
static inline ic_region_t ic_stream_segment(ic_region_t data, size_t seg, size_t k, size_t sg)
{
    const size_t r = IC_STREAM_DEPTH - 1, tri = r * (r + 1) / 2;
    if (!ic_stream_ramps(data.count, seg))
        return ic_segment(data, seg, k, sg);
    if (sg >= r) /* the whole segments after the first */
        return ic_segment(data, seg, k - (r - 1), sg - (r - 1));
    size_t lo = seg * (sg * (sg + 1) / 2) / tri, hi = seg * ((sg + 1) * (sg + 2) / 2) / tri;
    return ic_reg(data.buf, data.off + lo, hi - lo);
}

/* Pipelined chain broadcast: the vector is cut into segments of `seg`
 * elements (the last one shorter; seg == 0 or seg >= data.count: one
 * segment) that flow along the chain root, root+1, ..., root-1 (positions
 * mod n); in each round a position receives one segment from its
 * predecessor and forwards the previous one to its successor.
 * Cost (n - 2 + k)(alpha + seg beta) for k segments: about m beta plus
 * (n - 2) segment times when k is large, against ceil(log2 n) m beta for
 * the MST broadcast and 2 (n-1)/n m beta for scatter + collect. */
void ic_pipe_bcast(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_region_t data,
                   size_t seg);

/* The pipelined chain broadcast on two chains, one each way round the
 * line taken as a ring (pipe_bcast.c): the lower half of the vector goes
 * rightwards from the root through every position, the upper half
 * leftwards, both cut in segments of `seg`.  Cost on full-duplex links,
 * k segments per half: (n - 2 + k)(alpha + seg beta). */
void ic_pipe_bcast2(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_region_t data,
                    size_t seg);

/* ic_pipe_bcast2 on `line` whose every position also roots an
 * ic_pipe_bcast2 of the same vector and segment on its line `next` (a mesh
 * plan's next dimension), streaming into it: a segment goes on along
 * `next` in the round it goes on along `line`, instead of once the whole
 * vector has arrived.  The other ranks of `next` run ic_pipe_bcast2_fed,
 * fed_pos being the position of next's root on `line` counted from
 * line's root, fed_n = line->n: their rounds then keep the feeding
 * chain's clock (the two halves reach next's root at different times).
 * Needs line->n >= 3, next->n >= 3 and data.count >= 2
 * (ic_pipe_stream_ok).
 * Cost on full-duplex links, k segments per half: (n + n' - 3 + k)(alpha +
 * seg beta) for lines of n and n', against (n + n' - 4 + 2k)(...) for the
 * two broadcasts one after the other. */
void ic_pipe_bcast2_into(ic_sched_t *s, const ic_line_t *line, int root_pos, const ic_line_t *next,
                         ic_region_t data, size_t seg);
void ic_pipe_bcast2_fed(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_region_t data,
                        size_t seg, int fed_pos, int fed_n);
static inline int ic_pipe_stream_ok(int n, int next_n, size_t count)
{
    return n >= 3 && next_n >= 3 && count >= 2;
}

/* The halfway pipeline (halfway_bcast.c): the whole vector streams from
 * the root both ways round the line taken as a ring, in segments of
 * `seg`, to the right through positions 1 .. floor(n/2), to the left
 * through the others.  Cost on full-duplex links, k segments:
 * (floor(n/2) - 1 + k)(alpha + seg beta). */
void ic_pipe_bcast_halfway(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_region_t data,
                           size_t seg);

/* Two edge-disjoint trees of a 2-D torus (halfway_bcast.c): the lower
 * half of the vector half way both ways along the root's line LF (root at
 * position rf) and then half way along every line of the other dimension,
 * the upper half the other way about (LS first, root at rs), with no
 * directed link in both; LF and LS are the lines through this rank.  What a
 * mesh plan whose two steps are halfway_pipeline builds (compose.c).
 * Needs ic_torus_trees_ok.  Cost on full-duplex links, k segments of seg
 * per half: (ic_torus_trees_depth(nF, nS) - 1 + k)(alpha + seg beta). */
void ic_bcast_torus_trees(ic_sched_t *s, const ic_line_t *LF, int rf, const ic_line_t *LS, int rs,
                          ic_region_t data, size_t seg);
/* The deeper tree's depth: hops from the root to its last position. */
int ic_torus_trees_depth(int nf, int ns);
static inline int ic_torus_trees_ok(int nf, int ns, size_t count)
{
    return nf >= 2 && ns >= 2 && count >= 2;
}

/* Pipelined chain combine-to-one (pipe_combine.c): the vector in segments
 * of `seg` elements (as ic_pipe_bcast) flows along a chain that ends at
 * the root, every position combining its own segment into the partial it
 * receives and passing it on.  With in == NULL every position's
 * contribution is in acc, which it may clobber; with `in`, the
 * contribution is *in (read-only, in->count == acc.count) and only the
 * root's acc is written (it must not overlap *in there).  The root's acc
 * ends with the combination over all positions, in position order when
 * keep_order (non-commutative ops), else in some order.  Partials go
 * through tmp from element tmpbase (declared with ic_sched_need when a
 * scratch buffer): one segment, or two where the input is read-only.
 * Cost for k segments of s bytes, with H = ic_pipe_combine_hops():
 * (H - 1 + k)(alpha + s beta) + (H - 1 + k - [H == n]) s gamma. */
void ic_pipe_combine(ic_sched_t *s, const ic_line_t *line, int root_pos, const ic_region_t *in,
                     ic_region_t acc, ic_buf_t tmp, size_t tmpbase, size_t seg, int keep_order);
/* Its chain's hops on a line of n positions: n - 1 (a chain ending at the
 * root), or n when keep_order and the root is neither end of the line (the
 * root's own segments first go out to the chain's start and the result
 * comes back). */
static inline int ic_pipe_combine_hops(int n, int root_pos, int keep_order)
{
    return n <= 1 ? 0 : keep_order && root_pos > 0 && root_pos < n - 1 ? n : n - 1;
}

/* Pipelined binary-tree broadcast: positions in heap order relative to the
 * root (children of relative index j: 2j + 1, 2j + 2), the vector in
 * segments of `seg` elements (as ic_pipe_bcast).  Every position sends at
 * most 2 m bytes (the MST root: ceil(log2 n) m).  Cost for n >= 3:
 * (2 (k - 1) + ic_tree_depth_cost(n))(alpha + seg beta); n = 2: k (...). */
void ic_tree_bcast(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_region_t data,
                   size_t seg);
/* The binary tree of ic_tree_bcast: position me's parent (rank; -1 at
 * the root) and children (ranks, first child first); returns the number
 * of children. */
static inline int ic_binary_tree(const ic_line_t *line, int root_pos, int me, int *parent,
                                 int child[2])
{
    int n = line->n, nchild = 0;
    long j = ((long)me - root_pos + n) % n;
    *parent = j > 0 ? ic_line_rank(line, (int)(((j - 1) / 2 + root_pos) % n)) : -1;
    for (long c = 2 * j + 1; c <= 2 * j + 2 && c < n; c++)
        child[nchild++] = ic_line_rank(line, (int)((c + root_pos) % n));
    return nchild;
}

/* The A of that cost: the arrival time of segment 0 at the latest position,
 * in message times (4 for n = 8). */
int ic_tree_depth_cost(int n);

/* Two-tree broadcast (two_tree.c): the lower half of the vector down one
 * binary tree of the n - 1 other positions, the upper half down its
 * mirror image, every position interior in at most one; each half cut into
 * segments of `seg` elements (0 or more than the half: one segment), the
 * root sending one segment a round, the trees alternately.  A stream
 * (ic_sched_stream).  (2k + ic_tree_depth_cost(n - 1))(alpha + seg beta)
 * for k segments per half, one port per rank. */
void ic_two_tree_bcast(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_region_t data,
                       size_t seg);

/* Round-optimal broadcast on a circulant graph (circulant.c): blocks of
 * `seg` elements (0 or more than the vector: one), position r sending to
 * r + s_k and receiving from r - s_k in round k of each phase of q =
 * ceil(log2 n) rounds, skips s_k roughly doubling.  A stream.  B blocks
 * in B - 1 + q rounds: (B - 1 + q)(alpha + seg beta). */
void ic_circulant_bcast(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_region_t data,
                        size_t seg);
/* The circulant reduce (circulant.c): the broadcast above run backwards,
 * commutative ops.  Every position's input is `in` (read only), combined
 * into acc at root_pos (acc elsewhere neither read nor written), or,
 * where in is NULL, acc, which every position combines its partials into
 * (each through a slot held for one round); blocks of `seg` elements (as
 * the broadcast's); partials in slots of tmp from tmpbase (ic_sched_need
 * where a scratch buffer): at most 2 ceil(log2 n) + 1 at once,
 * ic_circulant_reduce_slots(n) in all where the vector allows, at most
 * twice the vector, within it when `bounded` (and seg at most
 * ic_circulant_reduce_block's).  A stream.  (B - 1 + q)(alpha + seg
 * (beta + gamma)). */
void ic_circulant_reduce(ic_sched_t *s, const ic_line_t *line, int root_pos, const ic_region_t *in,
                         ic_region_t acc, ic_buf_t tmp, size_t tmpbase, size_t seg, int bounded);
/* Its block (elements) for a vector of `count` on n positions: seg (0 or
 * more than count: count), and when bounded at most a (2 ceil(log2 n) +
 * 1)-th of the vector, so that the slots it holds stay within it. */
size_t ic_circulant_reduce_block(size_t count, size_t seg, int n, int bounded);
/* Its tables at relative position r of n (root 0): recv[k], send[k] the
 * block, relative to a phase's first, received and sent in round k of each
 * phase (INT_MIN: no send, the successor is the root; the root's recv is
 * not set).  Returns q, or -1 for a bad argument.  Skip k (0 .. q) of n. */
int ic_circulant_tables(int n, int r, int *recv, int *send);
int ic_circulant_skip(int n, int k);

/* k-nomial tree broadcast (radix k >= 2; k = 2 is the binomial tree of the
 * MST, k = n a flat tree): relative index j's parent clears its lowest
 * non-zero base-k digit.  For a sender busy S = o + m beta per message and
 * R = alpha - o more per hop (LogGP's overhead o, ic_model_t.overhead),
 * a broadcast takes ic_knomial_time(n, k, S, R). */
void ic_knomial_bcast(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_region_t data, int k);
/* Arrival of the last position in that tree: a child that is its
 * parent's r-th send arrives r S + R after the parent did.  O(n). */
double ic_knomial_time(int n, int k, double S, double R);
/* The same tree's parent of relative index j (-1 for the root), and its
 * children into child[] (at most n - 1; NULL: only count them), the
 * lowest level first and d ascending: the order their partials arrive in
 * a combine (the reverse of the broadcast's sends).  Returns how many. */
long ic_knomial_parent(int n, int k, long j);
int ic_knomial_children(int n, int k, long j, long *child);
/* How many children the root has: the most of any position. */
int ic_knomial_root_children(int n, int k);
/* The radix among 2 .. 8, 16, 32 and n (each within 2 .. n) whose
 * price(k, ctx) is least (the first of equals): the k-nomial trees'
 * radix rules. */
int ic_knomial_best_radix(int n, double (*price)(int k, const void *ctx), const void *ctx);
/* The k-nomial combine-to-one (coll_reduce.c: "knomial"): a position
 * receives its children's partials in one round, its port busy S = o +
 * m beta each, in the order they come, each arriving S + R after its
 * start (R = alpha - o), then combines each (G = m gamma) and sends its
 * own to its parent.  The root's end, O(n log n).  With o = alpha and
 * no reduction time, k = 2 costs the MST's ceil(log2 n)(alpha + m beta). */
double ic_knomial_reduce_time(int n, int k, double S, double R, double G);

/* Recursive-doubling combine-to-all: acc holds each position's
 * contribution; on return every position's acc holds x_0 (op) ... (op)
 * x_{n-1} in position order, bitwise the same everywhere.  tmp: acc.count
 * elements for the partner's partial results.
 * Cost floor(log2 n)(alpha + m beta + m gamma), plus 2 alpha + 2 m beta +
 * m gamma when n is not a power of two. */
void ic_rd_allreduce(ic_sched_t *s, const ic_line_t *line, ic_region_t acc, ic_region_t tmp);

/* Collect in ceil(log2 n) steps (Bruck): like ic_bucket_collect (block
 * me at base + prefix(me) of buf on entry, all blocks on return; with offs,
 * block i at base + offs[i] instead, any layout), working on a rotated copy
 * in tmp (room for the total at tmpbase).
 * Cost ceil(log2 n) alpha + (n-1)/n m beta for even blocks. */
void ic_bruck_collect(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                      const size_t *counts, const size_t *offs, ic_buf_t tmp, size_t tmpbase);

/* Distributed combine by recursive halving: like ic_bucket_dcombine (full
 * vectors in, block p complete on position p), in log2 n steps (plus a fold
 * and an unfold when n is not a power of two).  Needs a commutative op; tmp
 * receives partner data (at most the total at tmpbase; a scratch tmp is
 * declared with the size the schedule really uses).  near != 0: partners
 * 1, 2, 4, ... apart instead of n/2, n/4, ..., 1, and block
 * ic_rh_block(n, p, 1) complete on position p.
 * Cost (n = 2^k) k alpha + (n-1)/n m (beta + gamma). */
void ic_rh_dcombine(ic_sched_t *s, const ic_line_t *line, ic_buf_t buf, size_t base,
                    const size_t *counts, ic_buf_t tmp, size_t tmpbase, int near);
/* The same reading the input (in: the vector, packed as buf's, not in buf)
 * where it is, on a line whose length is a power of two (the folds would
 * need the whole vector in buf): buf is written only in the half a
 * position keeps after the first step, and tmp holds a quarter of the
 * vector at most. */
void ic_rh_dcombine_ro(ic_sched_t *s, const ic_line_t *line, const ic_region_t *in, ic_buf_t buf,
                       size_t base, const size_t *counts, ic_buf_t tmp, size_t tmpbase, int near);
/* Who pairs with whom in a halving (`near`, the order argument of the
 * ic_rh_ functions and ic_rd_collect; rh_dcombine.c): */
enum {
    IC_PAIRS_FAR = 0,  /* v XOR 2^(k-1), ..., v XOR 1: block v on v */
    IC_PAIRS_NEAR = 1, /* v XOR 1, ..., v XOR 2^(k-1): block bitreverse(v) */
    IC_PAIRS_SWING = 2 /* v + rho(i) (v even), v - rho(i) (v odd), rho = 1,
                          -1, 3, -5, 11, ...: Swing's short distances */
};
/* Virtual position v's partner in step i (0 first) of a halving of pof2
 * virtual positions; the virtual block it ends with; every position's
 * (w[0..pof2-1]; 0, or -1 when out of memory). */
int ic_rh_peer(int pof2, int order, int i, int v);
int ic_rh_vblock(int pof2, int order, int v);
int ic_rh_layout(int pof2, int order, int *w);
/* May ic_rh_dcombine_ro read the input where it is on a line of n? */
static inline int ic_rh_reads_input(int n)
{
    return n > 0 && ic_fold_pof2(n) == n;
}
/* The block that position pos of a line of n holds after ic_rh_dcombine
 * (pos itself unless near). */
int ic_rh_block(int n, int pos, int near);
/* The same for every position at once (block[0..n-1]); -1 when out of
 * memory. */
int ic_rh_blocks(int n, int near, int *block);
/* The first block of each of the halving's 2^k virtual blocks (vstart[w],
 * 2^k + 1 entries, the last n), and their packed offsets for `counts`
 * (malloc'd, 2^k + 1 entries; NULL when out of memory). */
int ic_rh_vblocks(int n, int near, int *vstart); /* 0, or -1 when out of memory */
size_t *ic_rh_vprefix(int n, int near, const size_t *counts);

/* ------------------------------------------------- composed collectives */

typedef enum ic_coll {
    IC_COLL_BCAST = 0,
    IC_COLL_REDUCE,
    IC_COLL_ALLREDUCE,
    IC_COLL_ALLGATHER,
    IC_COLL_ALLGATHERV,
    IC_COLL_REDUCE_SCATTER,
    IC_COLL_REDUCE_SCATTER_BLOCK,
    IC_COLL_SCATTER,
    IC_COLL_SCATTERV,
    IC_COLL_GATHER,
    IC_COLL_GATHERV,
    IC_COLL_BARRIER,
    IC_COLL_COUNT
} ic_coll_t;

const char *ic_coll_name(ic_coll_t c); /* "bcast", "allreduce", ... */
/* The collective ic_coll_name calls `name` into *c: 0, or -1 when there
 * is none (name NULL included). */
int ic_coll_find(const char *name, ic_coll_t *c);

/*
 * One call, described without MPI.  All counts are in elements of the
 * buffer they refer to; the MPI layer fills this from the user's arguments.
 *
 * A builder never writes IC_BUF_SEND (it is the user's const buffer), never
 * touches a buffer that is not significant on its rank (RECV on a non-root
 * of reduce/gather, SEND on a non-root of scatter), and produces schedules
 * that match across ranks even when in_place differs between them (MPI lets
 * only the root pass MPI_IN_PLACE to reduce/gather/scatter).  Schedules must
 * depend only on arguments that MPI requires to agree across ranks.
 *
 * Buffers, per collective (what a builder may assume on entry):
 *   bcast:     RECV = buf (count elements).
 *   reduce:    SEND = input (count); RECV = result, significant at the root
 *              only (non-roots must not touch RECV).  in_place (root):
 *              input is in RECV.
 *   allreduce: SEND input, RECV result (count); in_place: input in RECV.
 *   allgather(v): SEND = own block (sendcount elements of the send type),
 *              RECV = all blocks at displs[i] (counts[i] elements).
 *              in_place: own block already at RECV displs[rank].
 *   reduce_scatter(_block): SEND = full input (sum counts, packed);
 *              RECV = own block (counts[rank]); in_place: input in RECV,
 *              result goes to RECV at offset 0.
 *   scatter(v): SEND at root: block i at displs[i] (counts[i] elements of
 *              the send type); RECV: own block (recvcount). in_place at
 *              root: root's RECV is not used.
 *   gather(v): SEND own block (sendcount); RECV at root: block i at
 *              displs[i] (counts[i]).  in_place at root: own block already
 *              in RECV.
 *   barrier:   no data.
 * counts/displs always have `size` entries (the MPI layer expands the
 * non-v variants) and are known on every rank (for scatterv/gatherv the
 * MPI layer first broadcasts them; MPI gives them to the root only).
 * counts/displs are in RECV units (the receive type of the call).  SEND
 * holds `sendcount` elements of the send type (gather/allgather), or at the
 * scatter root the blocks at displs in send-type units.  Units of SEND and
 * RECV may differ (the gather family works in bytes, the runtime's
 * datatypes may differ between the sides): a builder moves SEND data into
 * RECV/SCRATCH only by a COPY of the whole contribution (the executor
 * converts type signatures).
 */
typedef struct ic_coll_args {
    ic_coll_t coll;
    int rank, size, root;
    size_t count;         /* bcast/reduce/allreduce element count          */
    size_t sendcount;     /* gather/allgather: own contribution (SEND)     */
    size_t recvcount;     /* scatter(v): own block (RECV)                  */
    const size_t *counts; /* per-rank block counts (see above)             */
    const size_t *displs; /* per-rank displacements, NULL = packed         */
    int in_place;
    int commutative;
    int exact;           /* the op gives the same bits whatever the order
                            and grouping of the contributions (MAX, MIN,
                            logical and bitwise ops; SUM and PROD of
                            integers): IC_ALG_EXACT_OP algorithms may
                            combine in a different order on each rank   */
    size_t seg;          /* the parameter of algorithms with a seg_rule,
                            chosen by the selector: elements per segment
                            of the pipelined ones (0 = one segment), the
                            radix of "knomial" (0 = 2)                     */
    size_t bounded_from; /* reductions of at least this many elements (the
                            vector, or all blocks together) keep every
                            rank's scratch within the message: the
                            short-vector ones whose input is read-only
                            then run in pieces (ic_reduce_pieces); 0 =
                            never (up to twice the message)               */
    const int *order;    /* mesh plans: the rank at each mesh position
                            (node-aware placement), NULL = identity;
                            the same on every rank                        */
} ic_coll_args_t;

/* The block (elements) the circulant reduce (the broadcast backwards,
 * registry "circulant" of reduce) runs for call a: a->seg, at most the
 * vector, and from a->bounded_from on at most a (2 ceil(log2 p) + 1)-th of
 * it, the slots it may hold at once. */
size_t ic_reduce_circulant_seg(const ic_coll_args_t *a);

/* Flags of an algorithm. */
enum {
    IC_ALG_KEEPS_ORDER = 1u << 0,   /* correct for non-commutative ops */
    IC_ALG_RADIX = 1u << 1,         /* its parameter is a radix (a count of
                                       children), not a segment length */
    IC_ALG_COST_BOUND = 1u << 2,    /* its closed form is its paper's model, a
                                       lower bound of the cost evaluator's time
                                       rather than equal to it (fanout.c) */
    IC_ALG_COST_FOLDS = 1u << 3,    /* its closed form is exact when the line
                                       is a power of two, an estimate for the
                                       folds of other lengths */
    IC_ALG_COST_ESTIMATE = 1u << 4, /* its closed form estimates the
                                       overlap of n sub-operations in turn
                                       (repeated.c, the fan-in): within a
                                       factor of the evaluator's time, which
                                       check_cost_formulas prints */
    IC_ALG_EXACT_OP = 1u << 5,      /* combines in a different order on each rank:
                                       only for exact ops (ic_coll_args_t.exact) */
    IC_ALG_NEIGHBOURS = 1u << 6,    /* talks only to the next and previous
                                       positions of its line (rings, chains): a
                                       line crosses a node's boundary with one
                                       stream each way (ic_plan_step_share) */
    IC_ALG_OWN_COUNT = 1u << 7,     /* gatherv, scatterv: a non-root's schedule
                                       reads only its own block's count, so
                                       the call needs no block sizes from the
                                       root first (collectives.c) */
    IC_ALG_TWO_WAYS = 1u << 8,      /* sends to both neighbours in every round,
                                       half the bytes each way (the bidir_
                                       rings and chains): its closed form, a
                                       lower bound where a rank's two sends
                                       share one port (IC_ALG_COST_BOUND),
                                       holds where they do not: priced there
                                       (ic_alg_priced_in) */
    IC_ALG_DATAFLOW = 1u << 9       /* a stream priced as the dataflow it runs
                                       as (executor.c), its segments' start-ups
                                       overlapping up to IC_STREAM_DEPTH at a
                                       time: a lower bound (IC_ALG_COST_BOUND)
                                       up to IC_STREAM_DEPTH times below the
                                       cost evaluator's lock step */
};

/* Why an IC_ALG_EXACT_OP algorithm cannot serve an op that is not exact. */
#define IC_ALG_EXACT_WHY "needs an op exact in any order (each rank combines in its own)"

/* Build the schedule of args->rank into s.  Returns 0, or -1 when the
 * algorithm cannot serve this case (the selector checks ic_alg_usable()
 * first, so -1 here is a bug or an allocation failure). */
typedef int (*ic_builder_fn)(ic_sched_t *s, const ic_coll_args_t *a);

/* The network's figures by rank distance, measured (src/calibrate.c):
 * every rank of a communicator sending to the rank `stride` on at once (a
 * mesh dimension's lines of that stride) takes alpha[i] times the
 * start-up and beta[i] times the time per byte of the cheapest stride's
 * shift (each at least 1), which the model's alpha and beta (one pair
 * alone) stand for.  On a torus a stride of many hops shares links; on a
 * switched network every stride costs the same. */
#define IC_STRIDES_MAX 48
typedef struct ic_strides {
    int n;                            /* strides measured, increasing */
    long stride[IC_STRIDES_MAX];      /* the first is 1              */
    double alpha[IC_STRIDES_MAX];     /* factor on the start-up      */
    double beta[IC_STRIDES_MAX];      /* factor on the time per byte  */
    double two_alpha[IC_STRIDES_MAX]; /* every rank sending to the ranks
                                         stride[i] on and back at once,
                                         against one way: on the start-up
                                         (>= 1) ...                      */
    double two_beta[IC_STRIDES_MAX];  /* ... and on the time per byte
                                         (1: both at full rate, 2: they
                                         share a port; 0: not measured) */
    int two_any;                      /* some stride's two_beta is 1     */
    /* The same factors from the median rank's times (the others from the
     * slowest's): a typical message of the shift.  A ring of d positions
     * at stride w spanning fewer than all ranks sends only within its
     * block of d w ranks, where a shift over all ranks also crosses
     * from block to block (on a torus, a shift by one rank goes two hops
     * where one ring of the torus ends: the slowest rank's time is those
     * crossings'); plan.c prices such rings with these. */
    double in_alpha[IC_STRIDES_MAX], in_beta[IC_STRIDES_MAX], in_two_alpha[IC_STRIDES_MAX];
} ic_strides_t;

/* One message's time by its length, measured (src/calibrate.c): a pair of
 * ranks' round trips at lengths between the start-up's and the rate's,
 * each against the alpha-beta line through those two.  An MPI switches
 * protocols with the length (eager, rendezvous), so a message of some
 * lengths costs more than the line says: on the simulated Paragon (SMPI's
 * piecewise factors) one of 20 KiB took 1.3 times the line's time, one of
 * 64 KiB 1.6, one of 8 KiB the line's.  The pipelined algorithms, whose
 * segment length is the library's choice, price a segment with it
 * (ic_msg_factor) and pick their segment where messages are cheap
 * (ic_alg_segment).  Factors below 1 count as 1: a lone message can ride
 * a shaper's burst or an idle pipe that a stream of them cannot. */
#define IC_MSGTIME_MAX 16
typedef struct ic_msgtime {
    int n;                         /* lengths measured, increasing; 0: the
                                      line holds at every length        */
    double bytes[IC_MSGTIME_MAX];  /* message length, bytes            */
    double factor[IC_MSGTIME_MAX]; /* time against alpha + bytes beta (>= 1) */
} ic_msgtime_t;

/* The alpha-beta-gamma parameters the algorithms' closed-form costs and
 * segment rules are written in (tuning/cost.h has the full model). */
typedef struct ic_model {
    double alpha;                /* start-up of a message, s        */
    double beta;                 /* transfer time per byte, s/B      */
    double beta_x;               /* the same, per direction, when two
                                    ranks exchange (both ways at once) */
    size_t x_min;                /* ... messages of at least x_min bytes;
                                    shorter ones exchange at beta      */
    double gamma;                /* reduction time per byte, s/B     */
    size_t elem;                 /* bytes per element of the call    */
    double overhead;             /* LogGP's o: the part of alpha that keeps
                                    the sender busy (the rest is in flight);
                                    0 = all of alpha (plain alpha-beta)       */
    size_t piece;                /* the executor's pieces (bytes): longer
                                    messages go as several, a start-up each;
                                    pipelined algorithms take segments no
                                    longer.  0 = messages go whole          */
    const struct ic_model *node; /* two levels: the model of lines
                        that stay inside one node, whose ranks are
                        node_ranks consecutive mesh positions
                        (node-aware placement); NULL = one level */
    int node_ranks;
    const ic_strides_t *strides; /* figures by rank distance, for the
                                    lines of a mesh plan in rank order,
                                    one level (plan.c: ic_model_strided);
                                    NULL = every stride alike */
    const ic_msgtime_t *msgtime; /* one message's time by its length
                                    (ic_msg_time); NULL = the line's */
} ic_model_t;

/* The factor of ic_msgtime_t c at a message of `bytes`: linear between
 * the measured lengths, 1 below the first's neighbour 0 and beyond the
 * last (the line's two measured ends). */
static inline double ic_msgtime_factor(const ic_msgtime_t *c, double bytes)
{
    double x0 = 0, f0 = 1;
    for (int i = 0; i < c->n; i++) {
        if (bytes <= c->bytes[i])
            return f0 + (c->factor[i] - f0) * (bytes - x0) / (c->bytes[i] - x0);
        x0 = c->bytes[i];
        f0 = c->factor[i];
    }
    return 1;
}

/* What one message of `bytes` costs under m against alpha + bytes beta:
 * the measured factor at that length where m has one, else exactly 1 (so
 * that alpha f + bytes beta f is bitwise the plain line). */
static inline double ic_msg_factor(const ic_model_t *m, double bytes)
{
    return m->msgtime ? ic_msgtime_factor(m->msgtime, bytes) : 1;
}

/* The sender's part of a message's start-up: LogGP's overhead o when
 * 0 < o < alpha, else all of alpha (the plain model).  One rule for the
 * closed forms (the k-nomial broadcast) and the cost evaluator. */
static inline double ic_send_overhead(double alpha, double o)
{
    return o > 0 && o < alpha ? o : alpha;
}

/* An algorithm's cost for the call a in closed form, as its file states it
 * (seconds).  Exact for even blocks where the file says so, an estimate
 * otherwise; tests/unit/check_cost_formulas.c holds each against the cost
 * evaluator run on the real schedules.  The selector prices candidates with
 * it, so choosing costs O(1) per algorithm whatever p is. */
typedef double (*ic_cost_fn)(const ic_coll_args_t *a, const ic_model_t *m);

/* A pipelined algorithm's segment size (elements) for the call a: the
 * minimum of its cost formula, at most the executor's piece (a segment a
 * little longer would go as a piece and a short remainder, in lock-step:
 * two start-ups).  At least 1. */
typedef size_t (*ic_seg_rule_fn)(const ic_coll_args_t *a, const ic_model_t *m);
/* Does an algorithm's scratch fit a call's allowance (ic_coll_args_t's
 * bounded_from) on a line of n ranks whose vector has m elements?  NULL, or
 * why not (ic_one_shot_room, ic_circulant_reduce_room). */
typedef const char *(*ic_room_fn)(size_t bounded_from, int n, size_t m);

/* What a registered 1-D algorithm is to the composer (algorithms/compose.c),
 * which builds it on a line, or along the lines of one dimension of a
 * mesh (plan.h), from the primitives; one case per kind there.
 * IC_STEP_NONE: the algorithm has its own builder and runs on the whole
 * communicator only (scatter, gather, barrier, the reduce's binary tree). */
typedef enum ic_step_kind {
    IC_STEP_NONE = 0,
    IC_STEP_BCAST_MST, /* bcast: keeps the vector          */
    IC_STEP_BCAST_PIPELINE,
    IC_STEP_BCAST_PIPELINE2, /* ... on two chains, both ways round */
    IC_STEP_BCAST_HALFWAY,   /* ... whole, half way round both ways */
    IC_STEP_BCAST_TREE,
    IC_STEP_BCAST_TWOTREE,
    IC_STEP_BCAST_KNOMIAL,
    IC_STEP_BCAST_CIRCULANT,
    IC_STEP_BCAST_SCATTER,       /* scatter ... collect: shrinks     */
    IC_STEP_BCAST_SCATTER2,      /* ... collect on two rings */
    IC_STEP_BCAST_SCATTER_HALF,  /* ... on the halfway rings */
    IC_STEP_BCAST_SCATTER_RD,    /* ... collect by recursive doubling */
    IC_STEP_REDUCE_MST,          /* combine to the line's root       */
    IC_STEP_REDUCE_PIPELINE,     /* ... along a chain, in segments  */
    IC_STEP_REDUCE_CIRCULANT,    /* ... up the circulant graph's trees */
    IC_STEP_REDUCE_DCOMBINE,     /* dcombine ... gather: shrinks    */
    IC_STEP_REDUCE_RH,           /* halving ... gather: shrinks     */
    IC_STEP_ALLREDUCE_MST,       /* combine to position 0 ... bcast  */
    IC_STEP_ALLREDUCE_RD,        /* recursive doubling: keeps         */
    IC_STEP_ALLREDUCE_DCOMBINE,  /* dcombine ... collect: shrinks */
    IC_STEP_ALLREDUCE_DCOMBINE2, /* ... on two counter-rotating rings */
    IC_STEP_ALLREDUCE_HALFWAY,   /* ... whole blocks, half way round each */
    IC_STEP_ALLREDUCE_RH,        /* halving ... Bruck collect: shrinks */
    IC_STEP_ALLREDUCE_RHRD,      /* halving ... doubling: shrinks      */
    IC_STEP_ALLREDUCE_SWING,     /* ... with Swing's partners          */
    IC_STEP_ALLREDUCE_TREE,      /* repeated MST combines ... bcasts   */
    IC_STEP_ALLREDUCE_CHAIN,     /* repeated chains                    */
    IC_STEP_ALLREDUCE_FANIN,     /* full fan-in ... fan-in collect     */
    IC_STEP_ALLREDUCE_FANOUT,    /* full fan-out ... fan-out collect   */
    IC_STEP_ALLREDUCE_RING,      /* whole vectors round the ring       */
    IC_STEP_ALLREDUCE_ONESHOT,   /* whole vectors to all, in one round */
    IC_STEP_COLLECT_BUCKET,      /* allgather(v)                     */
    IC_STEP_COLLECT_BUCKET2,     /* ... on two counter-rotating rings */
    IC_STEP_COLLECT_HALFWAY,     /* ... whole blocks, half way round each */
    IC_STEP_COLLECT_BRUCK,
    IC_STEP_COLLECT_GB,
    IC_STEP_COLLECT_FANOUT,
    IC_STEP_COLLECT_FANIN,
    IC_STEP_COLLECT_RD,
    IC_STEP_COLLECT_SWING,
    IC_STEP_COLLECT_TREE,
    IC_STEP_COLLECT_CHAIN,
    IC_STEP_RS_BUCKET, /* reduce_scatter(_block)           */
    IC_STEP_RS_BUCKET2,
    IC_STEP_RS_HALFWAY,
    IC_STEP_RS_RH,
    IC_STEP_RS_SWING,
    IC_STEP_RS_MST,
    IC_STEP_RS_TREE,
    IC_STEP_RS_CHAIN,
    IC_STEP_RS_FANIN,
    IC_STEP_RS_FANOUT
} ic_step_kind_t;

typedef struct ic_algorithm {
    const char *name; /* registry name, unique per collective */
    ic_coll_t coll;
    const char *description; /* one line */
    unsigned flags;
    ic_step_kind_t step;     /* composed from the primitives (compose.c) */
    ic_builder_fn build;     /* ... or its own builder (step IC_STEP_NONE) */
    ic_cost_fn cost;         /* closed-form cost                    */
    ic_seg_rule_fn seg_rule; /* pipelined algorithms only, else NULL */
    ic_room_fn room;         /* scratch beyond the message's, else NULL */
} ic_algorithm_t;

/* Does the selector's closed-form choice consider alg?  Not when its closed
 * form is a lower bound (IC_ALG_COST_BOUND: no price to compare with the
 * others' exact ones) or a loose estimate (IC_ALG_COST_ESTIMATE): those
 * patterns run when forced or named by a tuning table, which the tuner
 * writes from measurements of every algorithm. */
static inline int ic_alg_priced(const ic_algorithm_t *alg)
{
    return !(alg->flags & (IC_ALG_COST_BOUND | IC_ALG_COST_ESTIMATE));
}

/* The same under model m: also an IC_ALG_TWO_WAYS algorithm where m's
 * figures by rank distance measured a rank's two sends at full rate over
 * some stride (ic_model_strided prices each line with its stride's). */
static inline int ic_alg_priced_in(const ic_algorithm_t *alg, const ic_model_t *m)
{
    return ic_alg_priced(alg) ||
           ((alg->flags & IC_ALG_TWO_WAYS) && m->strides && m->strides->two_any);
}

/* The registry: every algorithm of every collective, terminated by a
 * zeroed entry. */
extern const ic_algorithm_t ic_algorithms[];

/* Other names of registered algorithms: the same pattern under the name
 * another paper gives it (tan-strazdins-2002's ring, bidirectional
 * exchange, fan-in fan-out).  Accepted wherever a name is (ic_alg_find:
 * INTERCOM_<OP>_ALGORITHM, IC_Set_algorithm, tuning tables, mesh steps);
 * plans are always written with the registered name.  Terminated by an
 * entry whose alias is NULL. */
typedef struct ic_alg_alias {
    ic_coll_t coll;
    const char *alias, *name, *source;
} ic_alg_alias_t;
extern const ic_alg_alias_t ic_alg_aliases[];

/* The algorithm of collective c named `name` (or one of its aliases), or
 * NULL. */
const ic_algorithm_t *ic_alg_find(ic_coll_t c, const char *name);
/* Can algorithm `alg` serve this call?  If not and why != NULL, *why says
 * why in a few words. */
int ic_alg_usable(const ic_algorithm_t *alg, const ic_coll_args_t *a, const char **why);
/* Can alg combine with the call's op (its order, its exactness)?  NULL, or
 * why not: the part of ic_alg_usable a mesh step meets on any line. */
const char *ic_alg_op(const ic_algorithm_t *alg, const ic_coll_args_t *a);
/* Does alg's scratch fit the call's allowance (a->bounded_from) on a line
 * of n ranks whose vector has `count` elements?  NULL, or why not: the
 * algorithm's room rule (ic_algorithm_t.room: the one-shot allreduce's,
 * the circulant reduce's); ic_alg_usable asks on the line of all ranks,
 * ic_plan_usable on every step's line. */
const char *ic_alg_room(const ic_algorithm_t *alg, const ic_coll_args_t *a, int n, size_t count);

#ifdef __cplusplus
}
#endif
#endif /* IC_ALGORITHMS_H */
