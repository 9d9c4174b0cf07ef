/*
 * mst.h -- index arithmetic of the minimum-spanning-tree (MST) primitives
 * of mitra-1995 section 3.1.1, shared by ic_mst_bcast, ic_mst_combine,
 * ic_mst_scatter and ic_mst_gather.  Pure functions of (n, root, position),
 * so unit tests call them directly.
 *
 * The recursion (recursive halving of a line range):
 *   The current range [lo, hi) of positions has a root.  It is split in two
 *   adjacent halves; the half holding the root ("keep" half) gets
 *   ceil(size/2) positions, the other ("give" half) floor(size/2).  The
 *   root sends to the "give root", a position of the other half, which
 *   becomes the root of that half; both halves recurse in the next step.
 *   After ceil(log2 n) steps every range has one position.
 *
 * Which receiving node: the give root is the position of the other half
 * nearest to the root, i.e. the one adjacent to the split (keep half on the
 * left: give root = first position of the right half; keep half on the
 * right: give root = last position of the left half).
 *
 * Why no two messages of a step share a link of a linear array: in step t
 * the ranges of all active roots are disjoint intervals of the line, and
 * every message of step t goes from a root to a position of its own range,
 * so it only crosses links between two positions of that interval.  Any
 * receiver inside the other half would keep this property; the nearest one
 * also makes every message as short as possible (it crosses the split link
 * plus the root's distance to it), which matters on a mesh row/column.
 *
 * Giving the root's half the larger part means that the root never has to
 * forward more than half of the positions' blocks (scatter/gather), and
 * that the root's range after step t has ceil(n / 2^t) positions: the root
 * is busy in every one of the ceil(log2 n) steps, every other position
 * receives exactly once, in step t when it becomes a give root, and only
 * then sends (to the give roots of its own later steps).
 *
 * Example, n = 7, root 5 (* marks the root of each range being split):
 *   step 0: [0 1 2 | 3 4 5* 6]                      5 -> 2
 *   step 1: [0 | 1 2*]  2 -> 0      [3 4 | 5* 6]      5 -> 4
 *   step 2: [1 | 2*] 2 -> 1   [3 | 4*] 4 -> 3   [5* | 6] 5 -> 6
 * Combine-to-one and gather run the same messages backwards (step 2 first).
 */
#ifndef IC_MST_H
#define IC_MST_H

#ifdef __cplusplus
extern "C" {
#endif

/* Enough for any int n (ceil(log2 n) <= 31). */
#define IC_MST_MAXSTEPS 32

/* One split of range [lo, hi) around `root` (hi - lo >= 1). */
typedef struct ic_mst_split {
    int keep_lo, keep_hi; /* the half holding the root: ceil(size/2) positions */
    int give_lo, give_hi; /* the other half: floor(size/2) positions (maybe 0) */
    int give_root;        /* root of the other half, nearest to the split     */
} ic_mst_split_t;

static inline ic_mst_split_t ic_mst_split(int lo, int hi, int root)
{
    ic_mst_split_t sp;
    int big = (hi - lo + 1) / 2;
    if (root - lo < big) {
        sp.keep_lo = lo;
        sp.keep_hi = lo + big;
        sp.give_lo = lo + big;
        sp.give_hi = hi;
        sp.give_root = lo + big;
    } else {
        sp.keep_lo = hi - big;
        sp.keep_hi = hi;
        sp.give_lo = lo;
        sp.give_hi = hi - big;
        sp.give_root = hi - big - 1;
    }
    return sp;
}

/* What one position does in one step of the broadcast direction
 * (scatter uses the same; combine and gather run the steps in reverse
 * order with IC_MST_SEND and IC_MST_RECV swapped). */
enum { IC_MST_IDLE = 0, IC_MST_SEND = 1, IC_MST_RECV = 2 };

typedef struct ic_mst_step {
    int t;              /* step number, 0 .. ceil(log2 n) - 1              */
    int role;           /* IC_MST_IDLE, IC_MST_SEND or IC_MST_RECV          */
    int peer;           /* the other end (position), -1 when idle          */
    int sub_lo, sub_hi; /* the give half: the positions whose data moves   */
    int sub_is_low;     /* the give half lies below the keep half          */
} ic_mst_step_t;

/*
 * The steps of position `me` on a line of n positions with the root at
 * `root`, in broadcast order: one entry per step in which me's range still
 * has more than one position (so at most ceil(log2 n) entries, exactly that
 * many for the root).  Returns the number of entries written to steps[]
 * (room for IC_MST_MAXSTEPS).
 */
static inline int ic_mst_steps(int n, int root, int me, ic_mst_step_t *steps)
{
    int lo = 0, hi = n, r = root, k = 0;
    while (hi - lo > 1) {
        ic_mst_split_t sp = ic_mst_split(lo, hi, r);
        ic_mst_step_t *st = &steps[k];
        st->t = k;
        st->sub_lo = sp.give_lo;
        st->sub_hi = sp.give_hi;
        st->sub_is_low = sp.give_lo < sp.keep_lo;
        if (me == r) {
            st->role = IC_MST_SEND;
            st->peer = sp.give_root;
        } else if (me == sp.give_root) {
            st->role = IC_MST_RECV;
            st->peer = r;
        } else {
            st->role = IC_MST_IDLE;
            st->peer = -1;
        }
        k++;
        if (me >= sp.keep_lo && me < sp.keep_hi) {
            lo = sp.keep_lo;
            hi = sp.keep_hi;
        } else {
            lo = sp.give_lo;
            hi = sp.give_hi;
            r = sp.give_root;
        }
    }
    return k;
}

/* Does the position of these steps receive anything in a combine (send in
 * the broadcast)?  Leaves do not. */
static inline int ic_mst_receives(const ic_mst_step_t *steps, int k)
{
    for (int i = 0; i < k; i++)
        if (steps[i].role == IC_MST_SEND)
            return 1;
    return 0;
}

#ifdef __cplusplus
}
#endif
#endif /* IC_MST_H */
