/*
 * check_collectives.c -- unit tests of the composed collectives of
 * mitra-1995 section 3.2 (algorithms/coll_*.c) and of the registry
 * (algorithms/registry.c).
 *
 * Every registered algorithm of every collective is run through the
 * in-memory simulator: p = 1..64 with every root, counts 0, 1, p-1, p, p+1
 * and a large odd count; sampled p = 97, 256, 1000; in_place and not;
 * v-variants with uneven counts (zeros included) and non-packed
 * displacements (gaps, reversed block order, shifted).  Order-keeping
 * algorithms run with the simulator's ordered reductions and a
 * non-commutative op, the others in commutative mode.
 *
 * Buffers start with known contents: SEND element e of rank r is
 * data(r, e); RECV starts as a sentinel, data(r, SENT + e), unless it holds
 * an in_place input.  After the run every element of RECV on every rank is
 * checked: the expected data or reduction where significant, the untouched
 * sentinel elsewhere (gaps between displaced blocks, RECV of non-roots of
 * reduce/gather, the unused tail).  The simulator itself rejects any write
 * into SEND.  The barrier test follows, from the schedules, who has
 * transitively heard from whom.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms.h"
#include "plan.h"
#include "sim.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

#define SENT 1000000 /* sentinel element indices start here */
#define MAXP 1024

static ic_sched_t scheds[MAXP];
static int scheds_ready;

static void scheds_setup(void)
{
    if (scheds_ready)
        return;
#ifdef __GLIBC__
    /* Thousands of simulator runs allocate and free the same large buffers:
     * keep them in the heap instead of mapping fresh zeroed pages each time. */
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
    for (int r = 0; r < MAXP; r++)
        ic_sched_init(&scheds[r], r, 1);
    scheds_ready = 1;
}

static int is_rooted(ic_coll_t c)
{
    return c == IC_COLL_BCAST || c == IC_COLL_REDUCE || c == IC_COLL_SCATTER ||
           c == IC_COLL_SCATTERV || c == IC_COLL_GATHER || c == IC_COLL_GATHERV;
}

static int is_reduction(ic_coll_t c)
{
    return c == IC_COLL_REDUCE || c == IC_COLL_ALLREDUCE || c == IC_COLL_REDUCE_SCATTER ||
           c == IC_COLL_REDUCE_SCATTER_BLOCK;
}

/* Which ranks pass in_place: MPI allows only the root for rooted calls. */
static int rank_in_place(const ic_coll_args_t *a, int r, int in_place)
{
    if (!in_place || a->coll == IC_COLL_BCAST)
        return 0;
    return is_rooted(a->coll) ? r == a->root : 1;
}

/* Offset of rank i's block in the user layout (RECV, or SEND at the
 * scatter root). */
static size_t uoff(const ic_coll_args_t *a, int i)
{
    if (a->displs)
        return a->displs[i];
    return ic_blocks_prefix(a->counts, i);
}

static size_t layout_len(const ic_coll_args_t *a)
{
    size_t len = 0;
    for (int i = 0; i < a->size; i++) {
        size_t end = uoff(a, i) + a->counts[i];
        if (a->counts[i] > 0 && end > len)
            len = end;
    }
    return len;
}

/* Expected contents of one element of RECV. */
enum { X_SENT, X_DATA, X_RED };
typedef struct xp {
    int kind, origin, index;
} xp_t;

static char msg[1200];

/* Run reductions with a commutative op even where the plan keeps rank
 * order (an algorithm may build other schedules for one). */
static int force_commutative;

/* ic_sim_data(origin, index) without recomputing the origin's hash for
 * every element (the tests set millions of elements). */
static void fill_data(ic_sim_t *sim, ic_buf_t b, int r, size_t from, size_t n, int origin,
                      int index0)
{
    ic_sim_elem_t d = ic_sim_data(origin, 0);
    for (size_t e = 0; e < n; e++) {
        d.index = index0 + (int)e;
        *ic_sim_at(sim, b, r, from + e) = d;
    }
}

/* Fast exact comparison; the simulator's helpers then describe a mismatch. */
static int same(const ic_sim_elem_t *x, const ic_sim_elem_t *want, int index)
{
    return x->flags == want->flags && x->lo == want->lo && x->hi == want->hi && x->index == index &&
           x->mask == want->mask && x->hsum == want->hsum && x->nranks == want->nranks;
}

/*
 * Build, run and check one case: plan pl on template a (rank and in_place
 * are set per rank here).  Returns 0, or -1 with msg set.  Reductions run
 * ordered (a non-commutative op) when the plan can serve one.
 */
static int run_plan(const ic_plan_t *pl, const ic_coll_args_t *a0, int in_place)
{
    int p = a0->size;
    ic_coll_t c = a0->coll;
    ic_coll_args_t a = *a0;
    a.commutative = 0;
    int ordered = !force_commutative && is_reduction(c) && ic_plan_usable(pl, &a, NULL);
    a.commutative = !ordered;
    a.exact = !ordered; /* the simulator checks sets of contributions: any order */
    char who[400], name[IC_PLAN_TEXT_MAX];
    ic_plan_format(pl, name, sizeof(name));
    if (a.counts)
        snprintf(who, sizeof(who),
                 "%s/%s p=%d root=%d counts[0..1]=%zu,%zu total=%zu "
                 "in_place=%d displs=%s",
                 ic_coll_name(c), name, p, a.root, a.counts[0], a.counts[p > 1 ? 1 : 0],
                 ic_blocks_total(a.counts, p), in_place, a.displs ? "yes" : "packed");
    else
        snprintf(who, sizeof(who), "%s/%s p=%d root=%d count=%zu in_place=%d", ic_coll_name(c),
                 name, p, a.root, a.count, in_place);

    size_t total = (c == IC_COLL_BCAST || c == IC_COLL_REDUCE || c == IC_COLL_ALLREDUCE) ? a.count
                   : a.counts ? ic_blocks_total(a.counts, p)
                              : 0;
    size_t sendlen = 0, recvlen = 0, maxc = 0;
    for (int i = 0; a.counts && i < p; i++)
        if (a.counts[i] > maxc)
            maxc = a.counts[i];
    switch (c) {
    case IC_COLL_BCAST:
        recvlen = a.count;
        break;
    case IC_COLL_REDUCE:
    case IC_COLL_ALLREDUCE:
        sendlen = recvlen = a.count;
        break;
    case IC_COLL_ALLGATHER:
    case IC_COLL_ALLGATHERV:
    case IC_COLL_GATHER:
    case IC_COLL_GATHERV:
        sendlen = maxc;
        recvlen = layout_len(&a) + 2;
        break;
    case IC_COLL_REDUCE_SCATTER:
    case IC_COLL_REDUCE_SCATTER_BLOCK:
        sendlen = total;
        recvlen = total + 1;
        break;
    case IC_COLL_SCATTER:
    case IC_COLL_SCATTERV:
        sendlen = layout_len(&a);
        recvlen = maxc + 1;
        break;
    default:
        break;
    }

    for (int r = 0; r < p; r++) {
        a.rank = r;
        a.in_place = rank_in_place(&a, r, in_place);
        if (c == IC_COLL_GATHER || c == IC_COLL_GATHERV || c == IC_COLL_ALLGATHER ||
            c == IC_COLL_ALLGATHERV)
            a.sendcount = a.counts[r];
        if (c == IC_COLL_SCATTER || c == IC_COLL_SCATTERV)
            a.recvcount = a.counts[r];
        ic_sched_reset(&scheds[r], r, p);
        if (ic_plan_build(&scheds[r], pl, &a) != 0) {
            snprintf(msg, sizeof(msg), "%s: builder failed on rank %d", who, r);
            return -1;
        }
    }

    ic_sim_t sim;
    if (ic_sim_init(&sim, p, sendlen, recvlen) != 0) {
        snprintf(msg, sizeof(msg), "%s: simulator out of memory", who);
        return -1;
    }
    sim.scheds = scheds;
    sim.ordered = ordered;
    for (int r = 0; r < p; r++) {
        fill_data(&sim, IC_BUF_SEND, r, 0, sendlen, r, 0);
        fill_data(&sim, IC_BUF_RECV, r, 0, recvlen, r, SENT);
    }
    /* the reduction of every rank, once each (index set per element) */
    ic_sim_elem_t red = ic_sim_data(0, 0);
    for (int k = 1; k < p; k++) {
        ic_sim_elem_t d = ic_sim_data(k, 0);
        red.mask |= d.mask;
        red.hsum += d.hsum;
    }
    red.hi = p - 1;
    red.nranks = p;

    xp_t *x = malloc((recvlen ? recvlen : 1) * sizeof(*x));
    int rc = -1;
    if (!x) {
        snprintf(msg, sizeof(msg), "%s: out of memory", who);
        goto out;
    }
    /* in_place inputs */
    for (int r = 0; r < p; r++) {
        if (c == IC_COLL_BCAST && r == a.root)
            fill_data(&sim, IC_BUF_RECV, r, 0, a.count, r, 0);
        if (!rank_in_place(&a, r, in_place))
            continue;
        switch (c) {
        case IC_COLL_REDUCE:
        case IC_COLL_ALLREDUCE:
        case IC_COLL_REDUCE_SCATTER:
        case IC_COLL_REDUCE_SCATTER_BLOCK:
            fill_data(&sim, IC_BUF_RECV, r, 0, sendlen, r, 0);
            break;
        case IC_COLL_ALLGATHER:
        case IC_COLL_ALLGATHERV:
        case IC_COLL_GATHER:
        case IC_COLL_GATHERV:
            fill_data(&sim, IC_BUF_RECV, r, uoff(&a, r), a.counts[r], r, 0);
            break;
        default:
            break;
        }
    }

    if (ic_sim_run(&sim) != 0) {
        snprintf(msg, sizeof(msg), "%s: run failed: %s", who, sim.err);
        goto out;
    }

    for (int r = 0; r < p; r++) {
        int ip = rank_in_place(&a, r, in_place);
        for (size_t e = 0; e < recvlen; e++)
            x[e] = (xp_t){X_SENT, r, SENT + (int)e};
        switch (c) {
        case IC_COLL_BCAST:
            for (size_t e = 0; e < a.count; e++)
                x[e] = (xp_t){X_DATA, a.root, (int)e};
            break;
        case IC_COLL_REDUCE:
        case IC_COLL_ALLREDUCE:
            if (c == IC_COLL_ALLREDUCE || r == a.root)
                for (size_t e = 0; e < a.count; e++)
                    x[e] = (xp_t){X_RED, 0, (int)e};
            break;
        case IC_COLL_REDUCE_SCATTER:
        case IC_COLL_REDUCE_SCATTER_BLOCK:
            if (ip) /* the rest of an in_place RECV is not checked */
                for (size_t e = 0; e < recvlen; e++)
                    x[e].kind = -1;
            for (size_t e = 0, o = ic_blocks_prefix(a.counts, r); e < a.counts[r]; e++)
                x[e] = (xp_t){X_RED, 0, (int)(o + e)};
            break;
        case IC_COLL_ALLGATHER:
        case IC_COLL_ALLGATHERV:
        case IC_COLL_GATHER:
        case IC_COLL_GATHERV:
            if (c == IC_COLL_GATHER || c == IC_COLL_GATHERV) {
                if (r != a.root)
                    break;
            }
            for (int i = 0; i < p; i++) {
                size_t o = uoff(&a, i);
                for (size_t e = 0; e < a.counts[i]; e++)
                    x[o + e] = (xp_t){X_DATA, i, (int)e};
            }
            break;
        case IC_COLL_SCATTER:
        case IC_COLL_SCATTERV:
            if (!ip)
                for (size_t e = 0, o = uoff(&a, r); e < a.counts[r]; e++)
                    x[e] = (xp_t){X_DATA, a.root, (int)(o + e)};
            break;
        default:
            break;
        }
        ic_sim_elem_t dr = ic_sim_data(r, 0), dorg = dr;
        for (size_t e = 0; e < recvlen; e++) {
            int bad = 0;
            const ic_sim_elem_t *got = ic_sim_at(&sim, IC_BUF_RECV, r, e);
            if (x[e].kind == X_SENT || x[e].kind == X_DATA) {
                if (dorg.lo != x[e].origin)
                    dorg = x[e].origin == r ? dr : ic_sim_data(x[e].origin, 0);
                if (same(got, &dorg, x[e].index))
                    continue;
            } else if (x[e].kind == X_RED && same(got, &red, x[e].index)) {
                continue;
            }
            if (x[e].kind == X_SENT || x[e].kind == X_DATA)
                bad = ic_sim_expect_data(&sim, IC_BUF_RECV, r, e, x[e].origin, x[e].index);
            else if (x[e].kind == X_RED)
                bad = ic_sim_expect_reduced(&sim, IC_BUF_RECV, r, e, 0, p - 1, x[e].index);
            if (bad) {
                snprintf(msg, sizeof(msg), "%s: %s%s", who, sim.err,
                         x[e].kind == X_SENT ? " (should be untouched)" : "");
                goto out;
            }
        }
    }
    rc = 0;
out:
    free(x);
    ic_sim_free(&sim);
    return rc;
}

/* Build the 1-D plan of a registered algorithm with the call's parameter. */
static int build_1d(const ic_algorithm_t *alg, ic_sched_t *s, const ic_coll_args_t *a)
{
    ic_plan_t pl = ic_plan_1d(alg, a->seg);
    return ic_plan_build(s, &pl, a);
}

/* One registered algorithm (a 1-D plan, with the template's segment). */
static int run_case(const ic_algorithm_t *alg, const ic_coll_args_t *a0, int in_place)
{
    ic_plan_t pl = ic_plan_1d(alg, a0->seg);
    return run_plan(&pl, a0, in_place);
}

/* ------------------------------------------------------------ layouts */

enum { D_PACKED, D_GAPS, D_REVERSED, D_SHIFTED, D_KINDS };

static size_t counts_buf[MAXP], displs_buf[MAXP];

/* counts: all equal to c (uneven == 0), or an uneven pattern with zeros. */
static void make_counts(int p, size_t c, int uneven)
{
    for (int i = 0; i < p; i++)
        counts_buf[i] = uneven ? (size_t)((i * 7 + (int)c) % 5) * (1 + c / 5) : c;
}

static const size_t *make_displs(int p, int kind)
{
    size_t sum = 0;
    switch (kind) {
    case D_GAPS:
        for (int i = 0; i < p; i++) {
            displs_buf[i] = sum + 1;
            sum += counts_buf[i] + 2;
        }
        return displs_buf;
    case D_REVERSED:
        for (int i = p - 1; i >= 0; i--) {
            displs_buf[i] = sum;
            sum += counts_buf[i] + (size_t)(i % 2);
        }
        return displs_buf;
    case D_SHIFTED:
        for (int i = 0; i < p; i++) {
            displs_buf[i] = sum + 3;
            sum += counts_buf[i];
        }
        return displs_buf;
    default:
        return NULL;
    }
}

static ic_coll_args_t args_of(ic_coll_t c, int p, int root, size_t count)
{
    ic_coll_args_t a;
    memset(&a, 0, sizeof(a));
    a.coll = c;
    a.size = p;
    a.root = root;
    a.count = count;
    a.commutative = 1;
    a.exact = 1;
    return a;
}

/* Run every algorithm of collective c on one argument set; the reductions
 * also with every length bounded (bounded_from = 1: the short-vector ones
 * in pieces, the binary tree in slots of at most half the vector). */
static int light_sweep(void);

static const int p_beyond[] = {17, 23, 31, 32, 33, 37, 47, 48, 61, 63, 64};

/* tan-strazdins-2002's study patterns (those the model's own choice leaves
 * out: n sub-operations of the primitives the others use, O(p^2)
 * messages, a third of the sweeps' time when run at every p) beyond
 * p = 16: at the primes, powers of two and their neighbours of p_beyond,
 * and under IC_SWEEP=light at 17, 32 and 33 only. */
static int alg_swept(const ic_algorithm_t *alg, int p)
{
    if (ic_alg_priced(alg) || p <= 16 || p == 17 || p == 32 || p == 33)
        return 1;
    if (light_sweep())
        return 0;
    for (size_t i = 0; i < sizeof(p_beyond) / sizeof(p_beyond[0]); i++)
        if (p_beyond[i] == p)
            return 1;
    return 0;
}

static void all_algs(ic_coll_t c, const ic_coll_args_t *a, int in_place)
{
    int n = 0;
    for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++) {
        if (alg->coll != c)
            continue;
        n++;
        if (!alg_swept(alg, a->size))
            continue;
        if (is_reduction(c) && c != IC_COLL_ALLREDUCE) {
            ic_coll_args_t b = *a;
            b.bounded_from = 1;
            ck_assert_msg(run_case(alg, &b, in_place) == 0, "%s (bounded)", msg);
        }
        if (!alg->seg_rule) {
            ck_assert_msg(run_case(alg, a, in_place) == 0, "%s", msg);
            continue;
        }
        /* pipelined: one segment, segments of 1 element, and an uneven cut */
        size_t total = a->count;
        size_t segs[] = {0, 1, total > 2 ? total / 3 : 1};
        for (size_t i = 0; i < 3; i++) {
            ic_coll_args_t b = *a;
            b.seg = segs[i];
            ck_assert_msg(run_case(alg, &b, in_place) == 0, "%s (segment %zu)", msg, segs[i]);
        }
    }
    ck_assert_msg(n > 0, "no algorithm for %s", ic_coll_name(c));
}

/* One case of collective c with "size" c0 per block / vector. */
static void one(ic_coll_t c, int p, int root, size_t c0, int uneven, int dkind, int in_place)
{
    ic_coll_args_t a = args_of(c, p, root, c0);
    switch (c) {
    case IC_COLL_BCAST:
    case IC_COLL_REDUCE:
    case IC_COLL_ALLREDUCE:
    case IC_COLL_BARRIER:
        break;
    default:
        make_counts(p, c0, uneven);
        a.counts = counts_buf;
        a.displs = make_displs(p, dkind);
        a.count = 0;
        break;
    }
    if (c == IC_COLL_REDUCE_SCATTER || c == IC_COLL_REDUCE_SCATTER_BLOCK)
        a.displs = NULL;
    all_algs(c, &a, in_place);
}

/* -------------------------------------------------------------- tests */

static const ic_coll_t rooted[] = {IC_COLL_BCAST, IC_COLL_REDUCE, IC_COLL_SCATTER, IC_COLL_GATHER};
static const ic_coll_t rootless[] = {IC_COLL_ALLREDUCE, IC_COLL_ALLGATHER,
                                     IC_COLL_REDUCE_SCATTER_BLOCK};

/* IC_SWEEP=light (the sanitizer builds, tests/Makefile.inc): the sweeps
 * below run fewer cases through the same code paths. */
static int light_sweep(void)
{
    const char *sweep = getenv("IC_SWEEP");
    return sweep && !strcmp(sweep, "light");
}

/* The p the sweeps over p = 1 .. 64 try: every one; under IC_SWEEP=light,
 * every one up to 16, beyond it primes, powers of two and their
 * neighbours (the same paths: folds, uneven blocks, odd lines). */
static int p_swept(int p)
{
    if (!light_sweep() || p <= 16)
        return 1;
    for (size_t i = 0; i < sizeof(p_beyond) / sizeof(p_beyond[0]); i++)
        if (p_beyond[i] == p)
            return 1;
    return 0;
}

/* Roots the rooted sweeps try: every root; under IC_SWEEP=light, every
 * root up to p = 16, beyond it 0, p - 1, p / 2 and every seventh. */
static int root_swept(int p, int root)
{
    return !light_sweep() || p <= 16 || root == 0 || root == p - 1 || root == p / 2 ||
           root % 7 == 3;
}

START_TEST(test_rooted_all_p_all_roots)
{
    scheds_setup();
    for (int p = 1; p <= 64; p++) {
        if (!p_swept(p))
            continue;
        size_t cs[] = {0, 1, (size_t)p - 1, (size_t)p, (size_t)p + 1, 1001};
        size_t blk[] = {0, 1, 2, 3, 5, 37};
        for (int root = 0; root < p; root++)
            for (size_t k = 0; k < sizeof(rooted) / sizeof(rooted[0]) && root_swept(p, root); k++)
                for (size_t ci = 0; ci < 6; ci++) {
                    size_t cnt = cs[ci];
                    ic_coll_t c = rooted[k];
                    /* per-block collectives: the edge cases are per block
                     * (0, 1, small); p blocks of p or 1001 would only be slow */
                    if (c == IC_COLL_SCATTER || c == IC_COLL_GATHER)
                        cnt = blk[ci];
                    /* the large count for a few roots only keeps the suite fast */
                    if (ci == 5 && root != 0 && root != p - 1 && root != p / 2 && root % 7 != 3)
                        continue;
                    /* in_place only changes the root's local copies: a few
                     * counts suffice for it */
                    int ipmax = c != IC_COLL_BCAST && (ci == 1 || ci >= 4);
                    for (int ip = 0; ip <= ipmax; ip++)
                        one(c, p, root, cnt, 0, D_PACKED, ip);
                }
    }
}
END_TEST

/* The order-keeping reduce algorithms with a commutative op: the
 * pipelined chain then takes the ring that ends at the root (one hop
 * less than the order-keeping chain for roots other than 0), and the
 * others must work as well.  Every p up to 64, every root, the counts of
 * the test above, in place or not, bounded or not, every segment kind. */
START_TEST(test_reduce_commutative)
{
    scheds_setup();
    force_commutative = 1;
    for (int p = 1; p <= 64; p++) {
        if (!p_swept(p))
            continue;
        size_t cs[] = {0, 1, (size_t)p - 1, (size_t)p, (size_t)p + 1, 1001};
        for (int root = 0; root < p; root++)
            for (size_t ci = 0; ci < 6 && root_swept(p, root); ci++) {
                if (ci == 5 && root != 0 && root != p - 1 && root != p / 2 && root % 7 != 3)
                    continue;
                for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++) {
                    if (alg->coll != IC_COLL_REDUCE || !(alg->flags & IC_ALG_KEEPS_ORDER))
                        continue;
                    ic_coll_args_t a = args_of(IC_COLL_REDUCE, p, root, cs[ci]);
                    size_t segs[] = {0, 1, cs[ci] > 2 ? cs[ci] / 3 : 1};
                    for (int ip = 0; ip <= (ci == 1 || ci >= 4); ip++)
                        for (int v = 0; v < (alg->seg_rule ? 6 : 2); v++) {
                            a.bounded_from = (size_t)(v % 2);
                            a.seg = alg->seg_rule ? segs[v / 2] : 0;
                            ck_assert_msg(run_case(alg, &a, ip) == 0,
                                          "%s (commutative, seg %zu, "
                                          "bounded %zu)",
                                          msg, a.seg, a.bounded_from);
                        }
                }
            }
    }
    force_commutative = 0;
}
END_TEST

START_TEST(test_rootless_all_p)
{
    scheds_setup();
    for (int p = 1; p <= 64; p++) {
        if (!p_swept(p))
            continue;
        size_t cs[] = {0, 1, (size_t)p - 1, (size_t)p, (size_t)p + 1, 1001};
        size_t blk[] = {0, 1, 2, 3, 5, 37};
        for (size_t ci = 0; ci < 6; ci++)
            for (int ip = 0; ip <= 1; ip++) {
                for (size_t k = 0; k < sizeof(rootless) / sizeof(rootless[0]); k++) {
                    ic_coll_t c = rootless[k];
                    size_t cnt = c == IC_COLL_ALLREDUCE ? cs[ci] : blk[ci];
                    one(c, p, 0, cnt, 0, D_PACKED, ip);
                }
                /* reduce_scatter with uneven counts (zeros included) */
                one(IC_COLL_REDUCE_SCATTER, p, 0, cs[ci] % 40, 1, D_PACKED, ip);
                one(IC_COLL_REDUCE_SCATTER, p, 0, cs[ci] % 40, 0, D_PACKED, ip);
            }
    }
}
END_TEST

START_TEST(test_v_variants)
{
    scheds_setup();
    const ic_coll_t vs[] = {IC_COLL_GATHERV, IC_COLL_SCATTERV, IC_COLL_ALLGATHERV};
    for (int p = 1; p <= 64; p++) {
        if (!p_swept(p))
            continue;
        size_t cs[] = {0, 1, 3, 11};
        int roots[] = {0, 1, p / 2, p - 1};
        for (size_t k = 0; k < 3; k++)
            for (int d = 0; d < D_KINDS; d++)
                for (int ui = 0; ui < 2; ui++)
                    for (size_t ci = 0; ci < 4; ci++)
                        for (int ip = 0; ip <= 1; ip++)
                            for (int ri = 0; ri < 4; ri++) {
                                if (roots[ri] >= p || (ri > 0 && roots[ri] == roots[ri - 1]))
                                    continue;
                                if (vs[k] == IC_COLL_ALLGATHERV && ri > 0)
                                    continue;
                                one(vs[k], p, roots[ri], cs[ci], ui, d, ip);
                            }
    }
}
END_TEST

START_TEST(test_large_p)
{
    scheds_setup();
    const int ps[] = {97, 256, 1000};
    for (int pi = 0; pi < 3; pi++) {
        int p = ps[pi];
        int root = p / 3;
        for (int k = 0; k < IC_COLL_BARRIER; k++) {
            ic_coll_t c = (ic_coll_t)k;
            size_t cs[] = {1, (size_t)p + 1, 3};
            for (int ci = 0; ci < 3; ci++) {
                size_t cnt = cs[ci];
                int vlike = c == IC_COLL_ALLGATHERV || c == IC_COLL_GATHERV ||
                            c == IC_COLL_SCATTERV || c == IC_COLL_REDUCE_SCATTER;
                if (ci == 1 && c != IC_COLL_BCAST && c != IC_COLL_REDUCE && c != IC_COLL_ALLREDUCE)
                    continue; /* p + 1 per block: too much for a quick test */
                one(c, p, root, cnt, vlike && ci == 2, vlike ? D_REVERSED : D_PACKED, ci == 0);
            }
        }
    }
}
END_TEST

/* Barrier: from the schedules, rank r "has heard from" q when a chain of
 * messages leads from q's start to r's end.  Computed to a fixed point:
 * after round k, K[r] = K[r] before it, plus, for each RECV of round k from
 * q, what q knew when it posted the matching SEND (the i-th message from q
 * to r matches q's i-th SEND to r). */
typedef unsigned long long set_t; /* p <= 64 */

static set_t barrier_knowledge(int p, int r)
{
    static set_t K[64][256]; /* K[rank][round]: known after that round */
    size_t nr[64];
    for (int q = 0; q < p; q++) {
        nr[q] = ic_sched_nrounds(&scheds[q]);
        ck_assert_msg(nr[q] < 256, "too many rounds");
        for (size_t k = 0; k < nr[q]; k++)
            K[q][k] = 1ull << q;
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (int q = 0; q < p; q++) {
            set_t before = 1ull << q;
            for (size_t k = 0; k < nr[q]; k++) {
                set_t now = before | K[q][k];
                size_t n;
                const ic_action_t *acts = ic_sched_round_acts(&scheds[q], k, &n);
                for (size_t i = 0; i < n; i++) {
                    if (acts[i].kind != IC_ACT_RECV)
                        continue;
                    int src = acts[i].peer;
                    /* which message from src to q is this? */
                    int seq = 0;
                    for (size_t kk = 0; kk <= k; kk++) {
                        size_t m;
                        const ic_action_t *b = ic_sched_round_acts(&scheds[q], kk, &m);
                        for (size_t j = 0; j < m && !(kk == k && j == i); j++)
                            seq += b[j].kind == IC_ACT_RECV && b[j].peer == src;
                    }
                    /* find src's seq-th SEND to q and what src knew before it */
                    set_t got = 0;
                    for (size_t kk = 0, found = 0; kk < nr[src] && !found; kk++) {
                        size_t m;
                        const ic_action_t *b = ic_sched_round_acts(&scheds[src], kk, &m);
                        for (size_t j = 0; j < m; j++)
                            if (b[j].kind == IC_ACT_SEND && b[j].peer == q && seq-- == 0) {
                                got = (kk ? K[src][kk - 1] : 0) | (1ull << src);
                                found = 1;
                                break;
                            }
                    }
                    now |= got;
                }
                if (now != K[q][k]) {
                    K[q][k] = now;
                    changed = 1;
                }
                before = now;
            }
        }
    }
    return nr[r] ? K[r][nr[r] - 1] : (1ull << r);
}

START_TEST(test_barrier)
{
    scheds_setup();
    for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++) {
        if (alg->coll != IC_COLL_BARRIER)
            continue;
        for (int p = 1; p <= 1000; p += (p < 64 ? 1 : p < 300 ? 61 : 313)) {
            ic_coll_args_t a = args_of(IC_COLL_BARRIER, p, 0, 0);
            for (int r = 0; r < p; r++) {
                a.rank = r;
                ic_sched_reset(&scheds[r], r, p);
                ck_assert_msg(build_1d(alg, &scheds[r], &a) == 0, "barrier/%s p=%d: build",
                              alg->name, p);
            }
            ic_sim_t sim;
            ck_assert(ic_sim_init(&sim, p, 0, 0) == 0);
            sim.scheds = scheds;
            int rc = ic_sim_run(&sim);
            ck_assert_msg(rc == 0, "barrier/%s p=%d: %s", alg->name, p, sim.err);
            ck_assert_msg(p == 1 || sim.nmsgs > 0, "barrier/%s p=%d: no messages", alg->name, p);
            ic_sim_free(&sim);
            if (p > 64)
                continue;
            set_t all = p == 64 ? ~0ull : (1ull << p) - 1;
            for (int r = 0; r < p; r++) {
                set_t k = barrier_knowledge(p, r);
                ck_assert_msg(k == all,
                              "barrier/%s p=%d: rank %d may leave before all ranks "
                              "entered (heard from %llx)",
                              alg->name, p, r, k);
            }
        }
    }
}
END_TEST

/* Segment lengths of the byte-counted collectives scale between bytes and
 * units; a radix is a count and does not. */
/* Aliases (registry.c): each names a registered algorithm of its
 * collective, is no registered name of it, resolves through ic_alg_find
 * and the plan parser, and the plan is written with the registered name. */
START_TEST(test_aliases)
{
    int n = 0;
    for (const ic_alg_alias_t *a = ic_alg_aliases; a->alias; a++, n++) {
        const ic_algorithm_t *alg = ic_alg_find(a->coll, a->name);
        ck_assert_msg(alg != NULL, "alias %s: %s/%s is not registered", a->alias,
                      ic_coll_name(a->coll), a->name);
        for (const ic_algorithm_t *b = ic_algorithms; b->name; b++)
            ck_assert_msg(b->coll != a->coll || strcmp(b->name, a->alias) != 0,
                          "alias %s hides a registered %s algorithm", a->alias,
                          ic_coll_name(a->coll));
        ck_assert_ptr_eq(ic_alg_find(a->coll, a->alias), alg);
        ic_plan_t pl;
        ck_assert_int_eq(ic_plan_parse(a->coll, a->alias, &pl, NULL), 0);
        char text[IC_PLAN_TEXT_MAX];
        ic_plan_format(&pl, text, sizeof(text));
        ck_assert_str_eq(text, a->name);
        ck_assert_ptr_nonnull(a->source);
    }
    ck_assert_int_gt(n, 0);
    /* an alias of one collective is no name of another */
    ck_assert_ptr_null(ic_alg_find(IC_COLL_BCAST, "ring"));
}
END_TEST

START_TEST(test_scale_params)
{
    ic_plan_t pl;
    char text[IC_PLAN_TEXT_MAX];
    ck_assert_int_eq(ic_plan_parse(IC_COLL_BCAST, "pipeline(4096)", &pl, NULL), 0);
    ic_plan_scale_params(&pl, 1, 8);
    ic_plan_format(&pl, text, sizeof(text));
    ck_assert_str_eq(text, "pipeline(512)");
    ck_assert_int_eq(ic_plan_parse(IC_COLL_BCAST, "knomial(3)", &pl, NULL), 0);
    ic_plan_scale_params(&pl, 1, 8);
    ic_plan_scale_params(&pl, 16, 1);
    ic_plan_format(&pl, text, sizeof(text));
    ck_assert_str_eq(text, "knomial(3)");
    ck_assert_int_eq(
        ic_plan_parse(IC_COLL_BCAST, "2x2:d1=knomial(3),d0=binary_tree(64)", &pl, NULL), 0);
    ic_plan_scale_params(&pl, 1, 8);
    ic_plan_format(&pl, text, sizeof(text));
    ck_assert_str_eq(text, "2x2:d1=knomial(3),d0=binary_tree(8)");
}
END_TEST

START_TEST(test_registry)
{
    for (int c = 0; c < IC_COLL_COUNT; c++) {
        int n = 0, keeps = 0;
        for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++) {
            if ((int)alg->coll != c)
                continue;
            n++;
            keeps += !!(alg->flags & IC_ALG_KEEPS_ORDER);
            ck_assert_msg(!alg->build != !alg->step && alg->description && alg->description[0],
                          "%s/%s incomplete", ic_coll_name(alg->coll), alg->name);
            ck_assert_msg(ic_alg_find(alg->coll, alg->name) == alg, "%s/%s: name not unique",
                          ic_coll_name(alg->coll), alg->name);
            ic_coll_args_t a = args_of((ic_coll_t)c, 4, 0, 8);
            const char *why = NULL;
            ck_assert(ic_alg_usable(alg, &a, &why));
            a.commutative = 0;
            int ok = ic_alg_usable(alg, &a, &why);
            ck_assert_int_eq(ok, !!(alg->flags & IC_ALG_KEEPS_ORDER));
            if (!ok)
                ck_assert_str_eq(why, "needs a commutative op");
            a.commutative = 1;
            /* an op whose result depends on the order of combining */
            a.exact = 0;
            ok = ic_alg_usable(alg, &a, &why);
            ck_assert_int_eq(ok, !(alg->flags & IC_ALG_EXACT_OP));
            if (!ok)
                ck_assert_str_eq(why, IC_ALG_EXACT_WHY);
            a.exact = 1;
            a.coll = (ic_coll_t)((c + 1) % IC_COLL_COUNT);
            ck_assert(!ic_alg_usable(alg, &a, NULL));
        }
        ck_assert_msg(n >= 1, "no algorithm for %s", ic_coll_name((ic_coll_t)c));
        ck_assert_msg(keeps >= 1, "no order-keeping algorithm for %s", ic_coll_name((ic_coll_t)c));
    }
    ck_assert_ptr_null(ic_alg_find(IC_COLL_BCAST, "no-such-algorithm"));
    ck_assert_ptr_null(ic_alg_find(IC_COLL_BCAST, NULL));
    ck_assert_ptr_nonnull(ic_alg_find(IC_COLL_ALLREDUCE, "dcombine_collect"));
}
END_TEST

/* Two-ring twins (bidir_bucket.c, pipe_bcast.c): each ring step kind has one in its
 * collective, a twin moves the same data as its one-way step (the
 * simulator runs every registered algorithm), and a plan gets its twins
 * step by step. */
START_TEST(test_two_rings)
{
    static const struct {
        ic_coll_t c;
        const char *from, *to;
    } tw[] = {{IC_COLL_BCAST, "scatter_collect", "bidir_scatter_collect"},
              {IC_COLL_BCAST, "pipeline", "bidir_pipeline"},
              {IC_COLL_ALLREDUCE, "dcombine_collect", "bidir_dcombine_collect"},
              {IC_COLL_ALLGATHER, "bucket", "bidir_bucket"},
              {IC_COLL_ALLGATHERV, "bucket", "bidir_bucket"},
              {IC_COLL_REDUCE_SCATTER, "bucket", "bidir_bucket"},
              {IC_COLL_REDUCE_SCATTER_BLOCK, "bucket", "bidir_bucket"}};
    int twins = 0;
    for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++)
        twins += ic_alg_two_rings(alg) != NULL;
    ck_assert_int_eq(twins, (int)(sizeof(tw) / sizeof(tw[0])));
    for (size_t i = 0; i < sizeof(tw) / sizeof(tw[0]); i++) {
        const ic_algorithm_t *t = ic_alg_two_rings(ic_alg_find(tw[i].c, tw[i].from));
        ck_assert_ptr_nonnull(t);
        ck_assert_str_eq(t->name, tw[i].to);
        ck_assert_ptr_null(ic_alg_two_rings(t));
        /* the model cannot price them: forced or tables only */
        ck_assert(!ic_alg_priced(t));
    }
    ic_plan_t pl, out;
    char text[IC_PLAN_TEXT_MAX];
    ck_assert_int_eq(ic_plan_parse(IC_COLL_ALLREDUCE,
                                   "4x8:d1=dcombine_collect,d0=recursive_doubling", &pl, NULL),
                     0);
    ck_assert(ic_plan_two_rings(&pl, &out));
    ic_plan_format(&out, text, sizeof(text));
    ck_assert_str_eq(text, "4x8:d1=bidir_dcombine_collect,d0=recursive_doubling");
    ck_assert_int_eq(ic_plan_parse(IC_COLL_ALLGATHER, "bruck", &pl, NULL), 0);
    ck_assert(!ic_plan_two_rings(&pl, &out));
    ck_assert_int_eq(ic_plan_parse(IC_COLL_ALLGATHER, "bucket", &pl, NULL), 0);
    ck_assert(ic_plan_two_rings(&pl, &out));
    ic_plan_format(&out, text, sizeof(text));
    ck_assert_str_eq(text, "bidir_bucket");
}
END_TEST

/* The rounds of rank r's schedule that move messages, and its most sends
 * in one of them. */
static int msg_rounds(const ic_sched_t *s, int *most_sends)
{
    int rounds = 0;
    *most_sends = 0;
    for (size_t r = 0; r < s->nrounds; r++) {
        size_t n;
        const ic_action_t *acts = ic_sched_round_acts(s, r, &n);
        int msgs = 0, sends = 0;
        for (size_t i = 0; i < n; i++) {
            msgs += ic_act_is_msg(&acts[i]);
            sends += acts[i].kind == IC_ACT_SEND;
        }
        rounds += msgs > 0;
        *most_sends = sends > *most_sends ? sends : *most_sends;
    }
    return rounds;
}

/* The halfway rings (bidir_bucket.c): p/2 steps of at most one send each
 * way where the bidir rings take p - 1, and the bidir rings' steps on a
 * lopsided line (their data: the simulator runs every registered
 * algorithm). */
START_TEST(test_halfway_rings)
{
    scheds_setup();
    static const struct {
        ic_coll_t c;
        const char *half, *bidir;
    } k[] = {{IC_COLL_ALLGATHER, "halfway_bucket", "bidir_bucket"},
             {IC_COLL_ALLGATHERV, "halfway_bucket", "bidir_bucket"},
             {IC_COLL_ALLREDUCE, "halfway_dcombine_collect", "bidir_dcombine_collect"},
             {IC_COLL_BCAST, "halfway_scatter_collect", "bidir_scatter_collect"},
             {IC_COLL_REDUCE_SCATTER, "halfway_bucket", "bidir_bucket"},
             {IC_COLL_REDUCE_SCATTER_BLOCK, "halfway_bucket", "bidir_bucket"}};
    for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
        const ic_algorithm_t *h = ic_alg_find(k[i].c, k[i].half);
        const ic_algorithm_t *b = ic_alg_find(k[i].c, k[i].bidir);
        ck_assert(h && b && !ic_alg_priced(h));
        int twice = k[i].c == IC_COLL_ALLREDUCE; /* the combine, then the collect */
        int vec = twice || k[i].c == IC_COLL_BCAST;
        for (int p = 2; p <= 9; p++) {
            make_counts(p, 12, 0);
            ic_coll_args_t a = args_of(k[i].c, p, 0, vec ? 12 * (size_t)p : 0);
            a.counts = vec ? NULL : counts_buf;
            for (int r = 0; r < p; r++) {
                a.rank = r;
                a.sendcount = a.recvcount = vec ? 0 : 12;
                int sh, sb;
                ic_sched_reset(&scheds[r], r, p);
                ck_assert_int_eq(build_1d(h, &scheds[r], &a), 0);
                int rh = msg_rounds(&scheds[r], &sh);
                ic_sched_reset(&scheds[r], r, p);
                ck_assert_int_eq(build_1d(b, &scheds[r], &a), 0);
                int rb = msg_rounds(&scheds[r], &sb);
                /* the broadcast's scatter rounds come first, the same on both */
                int rings = twice ? 2 : 1, other = rb - rings * (p - 1);
                ck_assert_msg(rh == other + rings * (p / 2) &&
                                  (k[i].c == IC_COLL_BCAST ? other >= 0 : other == 0),
                              "%s p=%d rank %d: %d and %d rounds", k[i].half, p, r, rh, rb);
                ck_assert_int_le(sh, 2);
            }
        }
    }
    /* a line whose largest block is more than half of all: the bidir rings */
    const ic_algorithm_t *h = ic_alg_find(IC_COLL_REDUCE_SCATTER, "halfway_bucket");
    const ic_algorithm_t *b = ic_alg_find(IC_COLL_REDUCE_SCATTER, "bidir_bucket");
    for (int lop = 0; lop < 2; lop++) {
        static const size_t c[2][5] = {{4, 4, 4, 4, 4}, {20, 1, 1, 1, 1}};
        for (int r = 0; r < 5; r++)
            counts_buf[r] = c[lop][r];
        ck_assert_int_eq(ic_halfway_lopsided(counts_buf, 5), lop);
        ic_coll_args_t a = args_of(IC_COLL_REDUCE_SCATTER, 5, 0, 0);
        a.counts = counts_buf;
        a.rank = 1;
        a.sendcount = a.recvcount = counts_buf[1];
        int sh, sb;
        ic_sched_reset(&scheds[1], 1, 5);
        ck_assert_int_eq(build_1d(h, &scheds[1], &a), 0);
        int rh = msg_rounds(&scheds[1], &sh);
        ic_sched_reset(&scheds[1], 1, 5);
        ck_assert_int_eq(build_1d(b, &scheds[1], &a), 0);
        ck_assert_int_eq(rh, lop ? msg_rounds(&scheds[1], &sb) : 2);
    }
}
END_TEST

/* The torus's two trees (halfway_bcast.c): every message goes to a
 * neighbour on the torus, no ordered pair of ranks carries more than the
 * larger half of the vector (no directed link in both trees), every rank
 * but the root receives the whole vector once, from one parent a half,
 * and the deeper tree is ic_torus_trees_depth deep.  On a line: half way
 * both ways, floor(p/2) deep. */
START_TEST(test_torus_trees)
{
    scheds_setup();
    static const int shapes[][2] = {{2, 2}, {2, 3}, {3, 2}, {3, 3}, {4, 4}, {4, 7}, {6, 5}, {8, 4}};
    static size_t pair[64][64];
    for (size_t sh = 0; sh < sizeof(shapes) / sizeof(shapes[0]); sh++) {
        int d0 = shapes[sh][0], d1 = shapes[sh][1], p = d0 * d1;
        for (int ord = 0; ord < 2; ord++) {
            char text[IC_PLAN_TEXT_MAX];
            snprintf(text, sizeof(text),
                     ord ? "%dx%d:d0=halfway_pipeline(3),d1=halfway_pipeline(3)"
                         : "%dx%d:d1=halfway_pipeline(3),d0=halfway_pipeline(3)",
                     d0, d1);
            ic_plan_t pl;
            ck_assert(ic_plan_parse(IC_COLL_BCAST, text, &pl, NULL) == 0);
            size_t count = 25, half = count / 2;
            int D = ic_torus_trees_depth(d0, d1);
            for (int root = 0; root < p; root++) {
                int par[2][64];
                memset(pair, 0, sizeof(pair));
                ic_coll_args_t a = args_of(IC_COLL_BCAST, p, root, count);
                for (int r = 0; r < p; r++) {
                    a.rank = r;
                    ic_sched_reset(&scheds[r], r, p);
                    ck_assert_int_eq(ic_plan_build(&scheds[r], &pl, &a), 0);
                    size_t got = 0;
                    par[0][r] = par[1][r] = -1;
                    for (size_t i = 0; i < scheds[r].nacts; i++) {
                        const ic_action_t *x = &scheds[r].acts[i];
                        if (x->kind == IC_ACT_RECV) {
                            int *pt = &par[x->dst.off >= half][r];
                            ck_assert(*pt < 0 || *pt == x->peer);
                            *pt = x->peer;
                            got += x->dst.count;
                        }
                        if (x->kind != IC_ACT_SEND)
                            continue;
                        pair[r][x->peer] += x->src.count;
                        int dr = x->peer / d1 - r / d1, dc = x->peer % d1 - r % d1;
                        int hop = (dr == 0 && (dc + d1) % d1 != 0 &&
                                   ((dc + d1) % d1 == 1 || (dc + d1) % d1 == d1 - 1)) ||
                                  (dc == 0 && (dr + d0) % d0 != 0 &&
                                   ((dr + d0) % d0 == 1 || (dr + d0) % d0 == d0 - 1));
                        ck_assert_msg(hop, "%s root %d: %d -> %d", text, root, r, x->peer);
                    }
                    ck_assert_msg(got == (r == root ? 0 : count), "%s root %d: rank %d got %zu",
                                  text, root, r, got);
                }
                int deepest = 0;
                for (int t = 0; t < 2; t++)
                    for (int r = 0; r < p; r++) {
                        int depth = 0;
                        for (int q = r; q != root && depth <= p; q = par[t][q], depth++)
                            ck_assert(q >= 0);
                        deepest = depth > deepest ? depth : deepest;
                    }
                ck_assert_msg(deepest == D, "%s root %d: %d deep, not %d", text, root, deepest, D);
                for (int r = 0; r < p; r++)
                    for (int q = 0; q < p; q++)
                        ck_assert_msg(pair[r][q] <= count - count / 2, "%s root %d: %d -> %d: %zu",
                                      text, root, r, q, pair[r][q]);
            }
        }
    }
    const ic_algorithm_t *h = ic_alg_find(IC_COLL_BCAST, "halfway_pipeline");
    ck_assert(h && !ic_alg_priced(h));
    for (int p = 2; p <= 9; p++) {
        int root = p / 3, par[64];
        ic_coll_args_t a = args_of(IC_COLL_BCAST, p, root, 12);
        a.seg = 4;
        for (int r = 0; r < p; r++) {
            int sh;
            a.rank = r;
            ic_sched_reset(&scheds[r], r, p);
            ck_assert_int_eq(build_1d(h, &scheds[r], &a), 0);
            msg_rounds(&scheds[r], &sh);
            ck_assert_int_le(sh, 2);
            par[r] = -1;
            for (size_t i = 0; i < scheds[r].nacts; i++)
                if (scheds[r].acts[i].kind == IC_ACT_RECV)
                    par[r] = scheds[r].acts[i].peer;
        }
        int deepest = 0;
        for (int r = 0; r < p; r++) {
            int depth = 0;
            for (int q = r; q != root && depth <= p; q = par[q], depth++)
                ck_assert(q >= 0 && (par[q] == (q + 1) % p || par[q] == (q + p - 1) % p));
            deepest = depth > deepest ? depth : deepest;
        }
        ck_assert_int_eq(deepest, p / 2);
    }
}
END_TEST

/* The non-packed paths use scratch and per-block copies; the packed ones
 * must not (they work on the user's buffer directly). */
START_TEST(test_packed_paths_direct)
{
    scheds_setup();
    int p = 8;
    make_counts(p, 5, 0);
    ic_coll_args_t a = args_of(IC_COLL_ALLGATHER, p, 0, 0);
    a.counts = counts_buf;
    a.rank = 3;
    a.sendcount = 5;
    const ic_algorithm_t *alg = ic_alg_find(IC_COLL_ALLGATHER, "bucket");
    ck_assert_ptr_nonnull(alg);
    ic_sched_reset(&scheds[3], 3, p);
    ck_assert_int_eq(build_1d(alg, &scheds[3], &a), 0);
    ck_assert_uint_eq(scheds[3].scratch[IC_BUF_SCRATCH], 0);
    a.displs = make_displs(p, D_GAPS);
    ic_sched_reset(&scheds[3], 3, p);
    ck_assert_int_eq(build_1d(alg, &scheds[3], &a), 0);
    ck_assert_uint_eq(scheds[3].scratch[IC_BUF_SCRATCH], 40);
}
END_TEST

/* The input is sent as it is (ic_sched_send_input): in the ring and Bruck
 * allgathers and a 2 x 4 mesh of rings, not in place, every rank's first
 * message reads SEND, and the copy of its block into RECV comes after it;
 * in place (SEND is then RECV itself) never SEND.  A schedule that writes SEND
 * is left as it was.  (What every rank ends with is checked by the sweeps
 * above, which run the same built schedules.) */
START_TEST(test_send_input)
{
    scheds_setup();
    int p = 8;
    make_counts(p, 5, 0);
    static const char *const plans[] = {"bucket", "bruck", "2x4:d1=bucket,d0=bucket"};
    for (size_t k = 0; k < sizeof(plans) / sizeof(plans[0]); k++) {
        for (int in_place = 0; in_place <= 1; in_place++) {
            ic_plan_t pl;
            ck_assert_int_eq(ic_plan_parse(IC_COLL_ALLGATHER, plans[k], &pl, NULL), 0);
            for (int r = 0; r < p; r++) {
                ic_coll_args_t a = args_of(IC_COLL_ALLGATHER, p, 0, 0);
                a.counts = counts_buf;
                a.rank = r;
                a.sendcount = 5;
                a.in_place = in_place;
                ic_sched_t *s = &scheds[r];
                ic_sched_reset(s, r, p);
                ck_assert_int_eq(ic_plan_build(s, &pl, &a), 0);
                size_t first_send = s->nacts, copy = s->nacts;
                for (size_t i = 0; i < s->nacts; i++) {
                    if (s->acts[i].kind == IC_ACT_SEND && first_send == s->nacts)
                        first_send = i;
                    if (s->acts[i].kind == IC_ACT_COPY && s->acts[i].src.buf == IC_BUF_SEND &&
                        s->acts[i].dst.buf == IC_BUF_RECV)
                        copy = i;
                }
                ck_assert_uint_lt(first_send, s->nacts);
                ck_assert_msg((s->acts[first_send].src.buf == IC_BUF_SEND) == !in_place,
                              "%s rank %d in_place %d: the first message reads %s", plans[k], r,
                              in_place, ic_buf_name(s->acts[first_send].src.buf));
                if (!in_place)
                    ck_assert_msg(copy < s->nacts && copy > first_send,
                                  "%s rank %d: the input's copy is not after the first send",
                                  plans[k], r);
            }
        }
    }
    /* writes SEND: unchanged */
    ic_sched_t t;
    ic_sched_init(&t, 0, 2);
    ic_sched_copy(&t, ic_reg(IC_BUF_SEND, 0, 4), ic_reg(IC_BUF_RECV, 0, 4));
    ic_sched_round(&t);
    ic_sched_send(&t, 1, ic_reg(IC_BUF_RECV, 0, 4));
    ic_sched_recv(&t, 1, ic_reg(IC_BUF_SEND, 0, 4));
    ic_sched_round(&t);
    ck_assert_int_eq(ic_sched_ok(&t), 0);
    ic_sched_send_input(&t);
    ck_assert_uint_eq(t.nrounds, 2);
    ck_assert_int_eq(t.acts[0].kind, IC_ACT_COPY);
    ck_assert_int_eq(t.acts[1].src.buf, IC_BUF_RECV);
    ic_sched_free(&t);
}
END_TEST

/* Extra memory: no rank's schedule asks for more scratch (both scratch
 * buffers together) than the message, in its elements (the vector of
 * bcast/reduce/allreduce, all blocks together otherwise), once the message
 * has at least p elements; for every algorithm, even and uneven blocks,
 * packed and with gaps, two roots, every segment length, and the
 * order-keeping reductions with a commutative op and without.  Except, up
 * to twice the message, below bounded_from elements (run here with 0:
 * never bounded, and 1: always), the short-vector reductions whose input
 * is read-only (MST combine-to-one in reduce and reduce_scatter, recursive
 * halving (the reduce's halving_gather and reduce_scatter's swing too), and tan-strazdins-2002's
 * patterns of reduce_scatter (repeated.c, fanout.c): an accumulator copy of
 * the input and a receive buffer for partials; the binary-tree combine in
 * one segment: two children's partials; the two-tree combine: a partial and
 * a child's, two segments each, which can be two halves; the reduce's
 * pipelined chain for a non-commutative op, where a position appends its segment to the partial:
 * the partial and a copy of its segment), and any algorithm for fewer elements than ranks.  The
 * one-shot allreduce receives p - 1 vectors at once, the k-nomial combine
 * its root's children's partials (and holds its own): unbounded, that
 * much; bounded, they cannot serve a call whose vectors would not fit the
 * slack (ic_alg_room), and are not built for one. */
static int scratch_twice(const ic_algorithm_t *alg, const ic_coll_args_t *a)
{
    int rs = alg->coll == IC_COLL_REDUCE_SCATTER || alg->coll == IC_COLL_REDUCE_SCATTER_BLOCK;
    return !strcmp(alg->name, "recursive_halving") || (rs && !strcmp(alg->name, "swing")) ||
           (rs && (alg->flags & (IC_ALG_COST_ESTIMATE | IC_ALG_COST_BOUND))) ||
           (!strcmp(alg->name, "binary_tree") && alg->coll == IC_COLL_REDUCE) ||
           ((!strcmp(alg->name, "two_tree") || !strcmp(alg->name, "circulant")) &&
            alg->coll == IC_COLL_REDUCE) ||
           !strcmp(alg->name, "halving_gather") ||
           (!strcmp(alg->name, "pipeline") && alg->coll == IC_COLL_REDUCE && !a->commutative) ||
           (!strcmp(alg->name, "mst") &&
            (alg->coll == IC_COLL_REDUCE || alg->coll == IC_COLL_REDUCE_SCATTER ||
             alg->coll == IC_COLL_REDUCE_SCATTER_BLOCK));
}

/* Every rank's scratch for call a (a message of msg elements) within the
 * bound of the test below. */
static void check_scratch(const ic_algorithm_t *alg, ic_coll_args_t *a, size_t msg)
{
    int p = a->size;
    size_t cap = (scratch_twice(alg, a) && !a->bounded_from) || msg < (size_t)p ? 2 * msg : msg;
    if (!strcmp(alg->name, "one_shot") && !a->bounded_from)
        cap = (size_t)(p - 1) * msg;
    if (!strcmp(alg->name, "knomial") && alg->coll == IC_COLL_REDUCE && !a->bounded_from) {
        int k = a->seg < 2 ? 2 : a->seg > (size_t)p ? p : (int)a->seg;
        cap = (size_t)(1 + ic_knomial_root_children(p, k)) * msg;
    }
    if (ic_alg_room(alg, a, p, a->count))
        return; /* it cannot serve this call (ic_alg_usable) */
    for (int r = 0; r < p; r++) {
        a->rank = r;
        a->sendcount = a->counts ? a->counts[r] : 0;
        a->recvcount = a->counts ? a->counts[r] : 0;
        ic_sched_reset(&scheds[r], r, p);
        ck_assert_int_eq(build_1d(alg, &scheds[r], a), 0);
        size_t s = scheds[r].scratch[IC_BUF_SCRATCH] + scheds[r].scratch[IC_BUF_SCRATCH2];
        ck_assert_msg(s <= cap,
                      "%s/%s p=%d rank %d root %d seg %zu bounded %zu commutative %d: scratch "
                      "%zu > %zu (message %zu)",
                      ic_coll_name(alg->coll), alg->name, p, r, a->root, a->seg, a->bounded_from,
                      a->commutative, s, cap, msg);
    }
}

/* The circulant reduce's slots (circulant.c): a block's partial lives from
 * its first partial to its send, at most 2q rounds of the broadcast, so at
 * most 2q + 1 slots (a further partial's included) are held at once, and
 * from bounded_from on, with blocks of at most a (2q + 1)-th of the vector,
 * the scratch stays within the message; in blocks of one element too, on
 * every rank, for n to 200 and samples beyond, every root a few. */
START_TEST(test_circulant_reduce_slots)
{
    scheds_setup();
    const ic_algorithm_t *alg = ic_alg_find(IC_COLL_REDUCE, "circulant");
    ck_assert_ptr_nonnull(alg);
    static const int big[] = {255, 256, 257, 1000};
    for (int i = 0; i < 199 + 4; i++) {
        int n = i < 199 ? i + 2 : big[i - 199];
        size_t most = ic_circulant_reduce_held(n);
        size_t counts[] = {most, 3 * most + 2, 40 * most};
        for (int ci = 0; ci < 3; ci++)
            for (int v = 0; v < 2; v++)
                for (int root = 0; root < n; root += n / 3 + 1) {
                    ic_coll_args_t a = args_of(IC_COLL_REDUCE, n, root, counts[ci]);
                    a.bounded_from = 1;
                    a.seg = v ? 1 : 0; /* one element a block, or the largest */
                    size_t seg = ic_reduce_circulant_seg(&a);
                    for (int r = 0; r < n; r++) {
                        a.rank = r;
                        ic_sched_reset(&scheds[r], r, n);
                        ck_assert_int_eq(build_1d(alg, &scheds[r], &a), 0);
                        size_t sc =
                            scheds[r].scratch[IC_BUF_SCRATCH] + scheds[r].scratch[IC_BUF_SCRATCH2];
                        size_t slots = ic_circulant_reduce_slots(n);
                        ck_assert_msg(sc <= slots * seg && sc <= a.count,
                                      "reduce/circulant n=%d root %d rank %d count %zu seg %zu: "
                                      "scratch %zu (%zu slots at most)",
                                      n, root, r, a.count, seg, sc, slots);
                    }
                }
    }
}
END_TEST

START_TEST(test_scratch_at_most_message)
{
    scheds_setup();
    static const int ps[] = {2, 3, 4, 5, 7, 8, 13, 16, 31, 64};
    static const size_t c0s[] = {1, 7, 64};
    for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++) {
        if (alg->coll == IC_COLL_BARRIER)
            continue;
        for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++)
            for (size_t j = 0; j < 3; j++)
                for (int var = 0; var < 4; var++) {
                    int p = ps[i];
                    ic_coll_args_t a = args_of(alg->coll, p, var % 2 ? p / 2 : 0, c0s[j]);
                    size_t msg = c0s[j];
                    if (alg->coll != IC_COLL_BCAST && alg->coll != IC_COLL_REDUCE &&
                        alg->coll != IC_COLL_ALLREDUCE) {
                        make_counts(p, c0s[j], var >= 2);
                        a.counts = counts_buf;
                        a.count = 0;
                        msg = 0;
                        for (int r = 0; r < p; r++)
                            msg += counts_buf[r];
                        if (alg->coll != IC_COLL_REDUCE_SCATTER &&
                            alg->coll != IC_COLL_REDUCE_SCATTER_BLOCK)
                            a.displs = make_displs(p, var == 3 ? D_GAPS : D_PACKED);
                    }
                    if (!ic_alg_usable(alg, &a, NULL))
                        continue;
                    /* v: bounded or not; three segment lengths, or (a
                     * reduce_scatter) out of place and in place */
                    int rs = alg->coll == IC_COLL_REDUCE_SCATTER ||
                             alg->coll == IC_COLL_REDUCE_SCATTER_BLOCK;
                    int keeps = ic_coll_reduces(alg->coll) && (alg->flags & IC_ALG_KEEPS_ORDER);
                    for (int v = 0; v < (alg->seg_rule ? 6 : rs ? 4 : 2); v++)
                        for (int comm = 1; comm >= !keeps; comm--) {
                            a.bounded_from = (size_t)(v % 2);
                            a.in_place = rs && v >= 2;
                            a.commutative = comm;
                            if (alg->seg_rule)
                                a.seg = v < 2 ? 0 : v < 4 ? 1 : msg > 3 ? msg / 3 : 1;
                            check_scratch(alg, &a, msg);
                        }
                }
    }
}
END_TEST

/* The one-shot allreduce's p - 1 arriving vectors against the scratch
 * allowance (ic_alg_room): on a line of all ranks (ic_alg_usable) and on
 * each step's line, with the vector that reaches it (ic_plan_usable). */
START_TEST(test_one_shot_room)
{
    const ic_algorithm_t *os = ic_alg_find(IC_COLL_ALLREDUCE, "one_shot");
    ck_assert_ptr_nonnull(os);
    ic_coll_args_t a;
    memset(&a, 0, sizeof(a));
    a.coll = IC_COLL_ALLREDUCE;
    a.commutative = 1;
    a.size = 16;
    a.count = 100;
    a.bounded_from = 0; /* unbounded: always */
    ck_assert(ic_alg_usable(os, &a, NULL));
    a.bounded_from = 1001; /* a slack of 1000 elements: 15 x 100 > 1000 */
    ck_assert(!ic_alg_usable(os, &a, NULL));
    a.count = 60; /* 15 x 60 <= 1000 */
    ck_assert(ic_alg_usable(os, &a, NULL));
    a.count = 2000; /* beyond the slack: within the message, 15 x 2000 > 2000 */
    ck_assert(!ic_alg_usable(os, &a, NULL));
    /* 4 x 4: after a 4-line's distributed combine the other 4-line sees a
     * quarter of the vector (3 x 50 <= 1000); first, the whole (3 x 400) */
    ic_plan_t pl;
    a.count = 400;
    ck_assert_int_eq(
        ic_plan_parse(IC_COLL_ALLREDUCE, "4x4:d1=dcombine_collect,d0=one_shot", &pl, NULL), 0);
    ck_assert(ic_plan_usable(&pl, &a, NULL));
    ck_assert_int_eq(
        ic_plan_parse(IC_COLL_ALLREDUCE, "4x4:d1=one_shot,d0=dcombine_collect", &pl, NULL), 0);
    const char *why = NULL;
    ck_assert(!ic_plan_usable(&pl, &a, &why));
    ck_assert_ptr_nonnull(why);
}
END_TEST

/* ---------------------------------------------------------- mesh plans
 *
 * Every plan kind (plan.h) through the same checks: on every shape of
 * every p = 1..128 with two dimensions (of length 1 too for p <= 12) and
 * up to p = 64 with three, 2x2x2x2, 32 x 32 and 8 x 8 x 8; for each
 * collective each step algorithm in every dimension and a mix (step t
 * takes the (j + t)-th algorithm; beyond p = 64 only the first algorithm
 * and the mix), visiting the fastest dimension first or
 * the slowest first (plan order then differs from rank order: the block
 * collectives go through scratch).  Counts 0, 1 and odd; uneven blocks
 * with zeros, gaps and reversed blocks for the v-variants; roots 0, p - 1
 * and p / 2 (every root for p <= 8); in place; the mixes also under two
 * placements (a round-robin grouping and the reversed order).
 * Non-commutative ops on the plans that keep rank order (run_plan asks
 * ic_plan_usable; a placed plan keeps none).  IC_SWEEP=light (the
 * sanitizer builds) stops at p = 40 and 24 and leaves out 32 x 32.
 */
static const ic_coll_t mesh_colls[] = {
    IC_COLL_BCAST,      IC_COLL_REDUCE,         IC_COLL_ALLREDUCE,           IC_COLL_ALLGATHER,
    IC_COLL_ALLGATHERV, IC_COLL_REDUCE_SCATTER, IC_COLL_REDUCE_SCATTER_BLOCK};

static int mesh_steps(ic_coll_t c, const ic_algorithm_t **out)
{
    int n = 0;
    for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++)
        if (alg->coll == c && ic_plan_step_kind(alg) != IC_STEP_NONE)
            out[n++] = alg;
    return n;
}

static long mesh_runs;

/* The cases of one plan. */
/* Placements (ic_coll_args_t.order) the mesh plans also run under: none,
 * or node-aware-like permutations (mesh position -> rank). */
static int mesh_order_buf[MAXP];
static const int *mesh_order;

static void mesh_plan_cases(const ic_plan_t *pl, int p, int thorough, int light)
{
    ic_coll_t c = pl->coll;
    int roots[4] = {p - 1, 0, p / 2, -1}, nroots = is_rooted(c) && !light ? 3 : 1;
    for (int ri = 0; ri < (thorough && is_rooted(c) ? p : nroots); ri++) {
        int root = thorough && is_rooted(c) ? ri : roots[ri];
        if (!thorough && ri > 0 && (root == roots[0] || (ri == 2 && root == roots[1])))
            continue;
        size_t vec[] = {(size_t)p + 1, 1, 0}, blk[] = {3, 1, 0};
        for (int ci = 0; ci < (thorough ? 3 : 1) + (root == 0 && !thorough && !light); ci++) {
            ic_coll_args_t a = args_of(c, p, root, 0);
            a.order = mesh_order;
            int vector = c == IC_COLL_BCAST || c == IC_COLL_REDUCE || c == IC_COLL_ALLREDUCE;
            int uneven = c == IC_COLL_ALLGATHERV || c == IC_COLL_REDUCE_SCATTER;
            if (vector) {
                a.count = vec[ci];
            } else {
                make_counts(p, blk[ci], uneven && ci == 0);
                a.counts = counts_buf;
                if (c == IC_COLL_ALLGATHERV)
                    a.displs = make_displs(p, ri % 2 ? D_REVERSED : D_GAPS);
            }
            for (int ip = 0; ip <= (c != IC_COLL_BCAST && ci == 0 && !light); ip++) {
                if (!ic_plan_usable(pl, &a, NULL))
                    continue;
                mesh_runs++;
                ck_assert_msg(run_plan(pl, &a, ip) == 0, "%s", msg);
                int rs = c == IC_COLL_REDUCE_SCATTER || c == IC_COLL_REDUCE_SCATTER_BLOCK;
                if ((c != IC_COLL_REDUCE && !rs) || light)
                    continue;
                /* a long reduce or reduce_scatter: in pieces (or reading
                 * its input where it is), every rank's scratch within the
                 * message (twice it below 2 elements, or, for blocks,
                 * below p elements) */
                ic_coll_args_t b = a;
                b.bounded_from = 1;
                mesh_runs++;
                ck_assert_msg(run_plan(pl, &b, ip) == 0, "%s (bounded)", msg);
                size_t m = rs ? ic_blocks_total(b.counts, p) : b.count;
                size_t cap = m >= (rs ? (size_t)p : 2) ? m : 2 * m;
                char text[IC_PLAN_TEXT_MAX];
                ic_plan_format(pl, text, sizeof(text));
                for (int r = 0; r < p; r++) {
                    size_t sc =
                        scheds[r].scratch[IC_BUF_SCRATCH] + scheds[r].scratch[IC_BUF_SCRATCH2];
                    ck_assert_msg(sc <= cap,
                                  "%s %s in place %d: message %zu bounded: rank %d scratch %zu",
                                  ic_coll_name(c), text, ip, m, r, sc);
                }
            }
        }
    }
}

/* Every plan kind of collective c on the shape dims[0..k). */
static void mesh_shape(ic_coll_t c, int k, const int *dims, int thorough, int light)
{
    const ic_algorithm_t *algs[16];
    int n = mesh_steps(c, algs);
    ck_assert_msg(n > 0, "no mesh step for %s", ic_coll_name(c));
    int p = 1;
    for (int i = 0; i < k; i++)
        p *= dims[i];
    for (int j = 0; j <= n; j++)
        for (int ord = 0; ord < 2; ord++) {
            if (light && j != 0 && j != n)
                continue; /* large meshes: the first algorithm and the mix */
            ic_plan_t pl = ic_plan_1d(NULL, 0);
            pl.coll = c;
            pl.ndims = k;
            for (int t = 0; t < k; t++) {
                pl.dims[t] = dims[t];
                pl.step[t].dim = ord ? t : k - 1 - t;
                /* j < n: algorithm j everywhere; j == n: a mix */
                pl.step[t].alg = algs[j < n ? j : (t + ord) % n];
                /* pipelined steps: a short segment / radix 3 on one mix */
                pl.step[t].param = pl.step[t].alg->seg_rule && j == n ? 2 + (size_t)t : 0;
            }
            /* the text form round-trips */
            char text[IC_PLAN_TEXT_MAX];
            ic_plan_format(&pl, text, sizeof(text));
            ic_plan_t back;
            const char *why = NULL;
            ck_assert_msg(ic_plan_parse(c, text, &back, &why) == 0, "%s: %s", text, why);
            ck_assert_msg(ic_plan_equal(&pl, &back), "%s does not round-trip", text);
            mesh_plan_cases(&pl, p, thorough, light);
            if (j == n && !light) {
                /* placed: every rank's position from a permutation, the
                 * groups of a round-robin mapping onto two nodes (even
                 * ranks first), then reversed */
                for (int variant = 0; variant < 2; variant++) {
                    for (int pos = 0; pos < p; pos++) {
                        int h = (p + 1) / 2;
                        mesh_order_buf[pos] =
                            variant ? p - 1 - pos : (pos < h ? 2 * pos : 2 * (pos - h) + 1);
                    }
                    mesh_order = mesh_order_buf;
                    mesh_plan_cases(&pl, p, 0, 0);
                    mesh_order = NULL;
                }
            }
        }
}

START_TEST(test_mesh_every_shape)
{
    scheds_setup();
    mesh_runs = 0;
    /* IC_SWEEP=light: p up to 40 in two dimensions and 24 in three */
    int light = light_sweep();
    int pmax = light ? 40 : 128, p3max = light ? 24 : 64;
    for (int p = 1; p <= pmax; p++) {
        for (int a = 1; a <= p; a++) {
            if (p % a)
                continue;
            int b = p / a;
            if ((a > 1 && b > 1) || (p <= 12 && p > 1)) {
                int dims[2] = {a, b};
                for (size_t k = 0; k < sizeof(mesh_colls) / sizeof(mesh_colls[0]); k++)
                    mesh_shape(mesh_colls[k], 2, dims, p <= 8, p > 64);
            }
            for (int x = 2; x <= b && p <= p3max; x++) {
                if (b % x || a < 2 || b / x < 2)
                    continue;
                int dims[3] = {a, x, b / x};
                for (size_t k = 0; k < sizeof(mesh_colls) / sizeof(mesh_colls[0]); k++)
                    mesh_shape(mesh_colls[k], 3, dims, 0, 0);
            }
        }
    }
    int d4[4] = {2, 2, 2, 2};
    for (size_t k = 0; k < sizeof(mesh_colls) / sizeof(mesh_colls[0]); k++)
        mesh_shape(mesh_colls[k], 4, d4, 0, 0);
    ck_assert(mesh_runs > 1000);
}
END_TEST

/* Every ordered pair of step algorithms, either dimension first, on
 * shapes whose lines are 2, 3 and 4 long: the shape sweep above pairs
 * only neighbours in the registry's list, and a reduce_scatter whose
 * first step reads the input in place took the blocks of a later halving
 * step, kept in bit-reversed order on 4 positions, for rank order
 * (2x4:d1=recursive_halving,d0=bucket gave wrong blocks). */
START_TEST(test_mesh_pairs)
{
    scheds_setup();
    static const int shapes[][2] = {{2, 4}, {4, 2}, {3, 4}, {4, 4}};
    for (size_t k = 0; k < sizeof(mesh_colls) / sizeof(mesh_colls[0]); k++) {
        ic_coll_t c = mesh_colls[k];
        const ic_algorithm_t *algs[16];
        int n = mesh_steps(c, algs);
        for (size_t sh = 0; sh < sizeof(shapes) / sizeof(shapes[0]); sh++)
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++)
                    for (int ord = 0; ord < 2; ord++) {
                        ic_plan_t pl = ic_plan_1d(NULL, 0);
                        pl.coll = c;
                        pl.ndims = 2;
                        pl.dims[0] = shapes[sh][0];
                        pl.dims[1] = shapes[sh][1];
                        pl.step[0].dim = ord ? 0 : 1;
                        pl.step[1].dim = ord ? 1 : 0;
                        pl.step[0].alg = algs[i];
                        pl.step[1].alg = algs[j];
                        mesh_plan_cases(&pl, shapes[sh][0] * shapes[sh][1], 0, 0);
                    }
    }
}
END_TEST

/* A broadcast's two-chain pipeline streaming into the next step's
 * (compose.c, ic_pipe_bcast2_into), and the torus's two trees of two
 * halfway_pipeline steps (ic_bcast_torus_trees): segments of 1 to 3 elements and the
 * model's, every root, counts around the halves' segment counts, on
 * shapes whose lines are too short to stream (2), just long enough (3)
 * and longer, a third step after the pair, and under a placement. */
START_TEST(test_mesh_streams)
{
    scheds_setup();
    static const char *const plans[] = {
        "3x3:d1=bidir_pipeline(%d),d0=bidir_pipeline(%d)",
        "3x4:d1=bidir_pipeline(%d),d0=bidir_pipeline(%d)",
        "4x3:d0=bidir_pipeline(%d),d1=bidir_pipeline(%d)",
        "5x3:d1=bidir_pipeline(%d),d0=bidir_pipeline(%d)",
        "4x8:d1=bidir_pipeline(%d),d0=bidir_pipeline(%d)",
        "2x5:d1=bidir_pipeline(%d),d0=bidir_pipeline(%d)",
        "5x2:d0=bidir_pipeline(%d),d1=bidir_pipeline(%d)",
        "3x3x3:d2=bidir_pipeline(%d),d1=bidir_pipeline(%d),d0=pipeline",
        "3x3x4:d0=bidir_pipeline,d2=bidir_pipeline(%d),d1=bidir_pipeline(%d)",
        "3x4x3:d1=bidir_pipeline(%d),d0=bidir_pipeline(%d),d2=bidir_pipeline",
        /* the torus's two trees (halfway_bcast.c) */
        "3x3:d1=halfway_pipeline(%d),d0=halfway_pipeline(%d)",
        "2x2:d0=halfway_pipeline(%d),d1=halfway_pipeline(%d)",
        "2x5:d1=halfway_pipeline(%d),d0=halfway_pipeline(%d)",
        "4x8:d0=halfway_pipeline(%d),d1=halfway_pipeline(%d)",
        "5x4:d1=halfway_pipeline(%d),d0=halfway_pipeline(%d)",
        "3x4x3:d1=halfway_pipeline(%d),d0=halfway_pipeline(%d),d2=halfway_pipeline",
        "3x3x4:d0=pipeline,d2=halfway_pipeline(%d),d1=halfway_pipeline(%d)",
    };
    int runs = 0;
    for (size_t i = 0; i < sizeof(plans) / sizeof(plans[0]); i++)
        for (int sg = 0; sg <= 3; sg++) {
            char text[IC_PLAN_TEXT_MAX];
            snprintf(text, sizeof(text), plans[i], sg, sg + (sg == 2)); /* unequal once */
            for (char *z; (z = strstr(text, "(0)"));)                   /* 0: the model's segment */
                memmove(z, z + 3, strlen(z + 3) + 1);
            ic_plan_t pl;
            const char *why = NULL;
            ck_assert_msg(ic_plan_parse(IC_COLL_BCAST, text, &pl, &why) == 0, "%s: %s", text, why);
            int p = 1;
            for (int d = 0; d < pl.ndims; d++)
                p *= pl.dims[d];
            size_t counts[] = {0, 1, 2, 3, 7, (size_t)p + 1, 3 * (size_t)p + 2};
            for (int root = 0; root < p; root++)
                for (size_t ci = 0; ci < sizeof(counts) / sizeof(counts[0]); ci++) {
                    ic_coll_args_t a = args_of(IC_COLL_BCAST, p, root, counts[ci]);
                    ck_assert_msg(run_plan(&pl, &a, 0) == 0, "%s", msg);
                    runs++;
                }
            /* placed: positions reversed */
            for (int pos = 0; pos < p; pos++)
                mesh_order_buf[pos] = p - 1 - pos;
            ic_coll_args_t a = args_of(IC_COLL_BCAST, p, p / 2, 3 * (size_t)p + 2);
            a.order = mesh_order_buf;
            ck_assert_msg(run_plan(&pl, &a, 0) == 0, "%s (placed)", msg);
        }
    ck_assert(runs > 1000);
}
END_TEST

START_TEST(test_mesh_large)
{
    scheds_setup();
    int d2[2] = {32, 32}, d3[3] = {8, 8, 8};
    for (size_t k = 0; k < sizeof(mesh_colls) / sizeof(mesh_colls[0]); k++) {
        if (!light_sweep()) /* light: 8 x 8 x 8 only */
            mesh_shape(mesh_colls[k], 2, d2, 0, 1);
        mesh_shape(mesh_colls[k], 3, d3, 0, 1);
    }
}
END_TEST

Suite *suite_collectives(void)
{
    Suite *s = suite_create("collectives");
    TCase *tc = tcase_create("registry");
    tcase_set_timeout(tc, 60); /* the scratch sweep: 3 s here, every algorithm x p up to 64 */
    tcase_add_test(tc, test_registry);
    tcase_add_test(tc, test_two_rings);
    tcase_add_test(tc, test_halfway_rings);
    tcase_add_test(tc, test_torus_trees);
    tcase_add_test(tc, test_aliases);
    tcase_add_test(tc, test_scale_params);
    tcase_add_test(tc, test_packed_paths_direct);
    tcase_add_test(tc, test_send_input);
    tcase_add_test(tc, test_scratch_at_most_message);
    tcase_add_test(tc, test_circulant_reduce_slots);
    tcase_add_test(tc, test_one_shot_room);
    suite_add_tcase(s, tc);
    /* The simulator's sweeps, in two cases of about equal time (under the
     * sanitizers 3-4 minutes each), tagged "sweep": `make check` runs each
     * as a test of its own beside the other suites (tests/unit/sweep-rooted.sh,
     * sweep-rootless.sh). */
    tc = tcase_create("sim_rooted");
    tcase_set_tags(tc, "sweep");
    tcase_set_timeout(tc, 300); /* x8 under the sanitizers (tests/Makefile.inc) */
    tcase_add_test(tc, test_rooted_all_p_all_roots);
    tcase_add_test(tc, test_reduce_commutative);
    suite_add_tcase(s, tc);
    tc = tcase_create("sim_rootless");
    tcase_set_tags(tc, "sweep");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_rootless_all_p);
    tcase_add_test(tc, test_v_variants);
    tcase_add_test(tc, test_large_p);
    tcase_add_test(tc, test_barrier);
    suite_add_tcase(s, tc);
    tc = tcase_create("mesh");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_mesh_every_shape);
    tcase_add_test(tc, test_mesh_pairs);
    tcase_add_test(tc, test_mesh_streams);
    suite_add_tcase(s, tc);
    tc = tcase_create("mesh_large");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_mesh_large);
    suite_add_tcase(s, tc);
    return s;
}
