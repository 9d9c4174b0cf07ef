/*
 * check_primitives.c -- unit tests of the primitives of mitra-1995 section
 * 3.1 (algorithms/mst_*.c, algorithms/bucket_*.c), of the line and block
 * helpers (algorithms/line.c) and of the MST index arithmetic (mst.h).
 *
 * Every primitive is run through the in-memory simulator for p = 1..64
 * with every root and for sampled larger p, on three kinds of line: the
 * identity, a stride-2 line inside a larger communicator and a mapped
 * permutation that leaves some ranks out.  Elements carry their origin
 * (the line position of the contributor) and index, so the exact final
 * contents are checked; ranks off the line must keep every element and get
 * an empty schedule.  The number of communication steps on the critical
 * path is computed from the schedules (depth()).
 */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms.h"
#include "mst.h"
#include "sim.h"

static char ctx[160]; /* the case under test, for failure messages */
/* Check's ck_assert_* record a mark point on every call (slow in loops). */
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ck_abort_msg("%s: %s (line %d)", ctx, #cond, __LINE__);                                \
    } while (0)
#define CHECK_SIM(sim, cond)                                                                       \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ck_abort_msg("%s: %s (line %d)", ctx, (sim)->err, __LINE__);                           \
    } while (0)
#define CHECK_EQ(a, b)                                                                             \
    do {                                                                                           \
        long long a_ = (long long)(a), b_ = (long long)(b);                                        \
        if (a_ != b_)                                                                              \
            ck_abort_msg("%s: %s == %s (%lld != %lld, line %d)", ctx, #a, #b, a_, b_, __LINE__);   \
    } while (0)

/* ------------------------------------------------------------ fixtures */

enum { LINE_IDENTITY, LINE_STRIDE2, LINE_MAPPED, LINE_KINDS };

typedef struct fixture {
    int p; /* communicator size */
    ic_line_t line;
    int *map;
} fixture_t;

static unsigned lcg(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return (*state >> 16) & 0x7fff;
}

static void fixture_make(fixture_t *f, int kind, int n)
{
    f->map = NULL;
    switch (kind) {
    case LINE_STRIDE2: /* ranks 1, 3, 5, ... of 2n+1 */
        f->p = 2 * n + 1;
        f->line.n = n;
        f->line.first = 1;
        f->line.stride = 2;
        f->line.map = NULL;
        break;
    case LINE_MAPPED: { /* n of n+2 ranks, shuffled */
        unsigned st = 12345u + (unsigned)n;
        f->p = n + 2;
        f->map = malloc((size_t)f->p * sizeof(int));
        CHECK(f->map != NULL);
        for (int i = 0; i < f->p; i++)
            f->map[i] = i;
        for (int i = f->p - 1; i > 0; i--) {
            int j = (int)(lcg(&st) % (unsigned)(i + 1));
            int t = f->map[i];
            f->map[i] = f->map[j];
            f->map[j] = t;
        }
        f->line.n = n;
        f->line.first = 0;
        f->line.stride = 0;
        f->line.map = f->map;
        break;
    }
    default:
        f->p = n;
        f->line = ic_line_identity(n);
        break;
    }
}

static void fixture_free(fixture_t *f)
{
    free(f->map);
    f->map = NULL;
}

static const char *kind_name(int kind)
{
    return kind == LINE_IDENTITY ? "identity" : kind == LINE_STRIDE2 ? "stride2" : "mapped";
}

/* Block count patterns. */
enum { PAT_EVEN, PAT_FEW, PAT_RANDOM, PAT_ZERO, PAT_BITS, NPAT };

static size_t *make_counts(int n, int pat)
{
    size_t *c = malloc((size_t)n * sizeof(size_t));
    CHECK(c != NULL);
    unsigned st = 777u + (unsigned)n;
    switch (pat) {
    case PAT_EVEN: /* uneven by one element */
        ic_blocks_even(c, n, 2 * (size_t)n + 3);
        break;
    case PAT_FEW: /* fewer elements than positions: many empty blocks */
        ic_blocks_even(c, n, (size_t)n / 3);
        break;
    case PAT_RANDOM: /* 0..3 elements each */
        for (int i = 0; i < n; i++)
            c[i] = lcg(&st) % 4;
        break;
    case PAT_BITS: /* 0 or 1 element each */
        for (int i = 0; i < n; i++)
            c[i] = lcg(&st) % 2;
        break;
    default:
        for (int i = 0; i < n; i++)
            c[i] = 0;
        break;
    }
    return c;
}

static int all_nonzero(const size_t *c, int n)
{
    for (int i = 0; i < n; i++)
        if (c[i] == 0)
            return 0;
    return 1;
}

/* --------------------------------------------------------- element checks */

#define MARK 100000
#define SENDLEN 3

/* An element no primitive produces: undefined (flags 0), so the simulator
 * would flag any reduction with it, and unique per (rank, buffer, index). */
static ic_sim_elem_t marker(int rank, ic_buf_t b, size_t e)
{
    ic_sim_elem_t x;
    memset(&x, 0, sizeof(x));
    x.lo = x.hi = MARK + rank;
    x.index = (int)b * 1000000 + (int)e;
    return x;
}

static int elem_eq(const ic_sim_elem_t *a, ic_sim_elem_t b)
{
    return a->lo == b.lo && a->hi == b.hi && a->index == b.index && a->flags == b.flags &&
           a->mask == b.mask && a->hsum == b.hsum && a->nranks == b.nranks;
}

static int is_marker(ic_sim_t *sim, ic_buf_t b, int r, size_t e)
{
    return elem_eq(ic_sim_at(sim, b, r, e), marker(r, b, e));
}

/* Set up the simulator with p empty schedules and every element of SEND
 * and RECV a marker. */
static void sim_begin(ic_sim_t *sim, const fixture_t *f, size_t recvlen, int ordered)
{
    CHECK(ic_sim_init(sim, f->p, SENDLEN, recvlen) == 0);
    sim->ordered = ordered;
    sim->scheds = calloc((size_t)f->p, sizeof(ic_sched_t));
    CHECK(sim->scheds != NULL);
    for (int r = 0; r < f->p; r++)
        ic_sched_init(&sim->scheds[r], r, f->p);
    for (int r = 0; r < f->p; r++) {
        for (size_t e = 0; e < SENDLEN; e++)
            *ic_sim_at(sim, IC_BUF_SEND, r, e) = marker(r, IC_BUF_SEND, e);
        for (size_t e = 0; e < recvlen; e++)
            *ic_sim_at(sim, IC_BUF_RECV, r, e) = marker(r, IC_BUF_RECV, e);
    }
}

static void sim_end(ic_sim_t *sim)
{
    for (int r = 0; r < sim->p; r++)
        ic_sched_free(&sim->scheds[r]);
    free(sim->scheds);
    sim->scheds = NULL;
    ic_sim_free(sim);
}

/* -------------------------------------------- critical path in messages */

typedef struct msg_rec {
    int src, dst, seq, is_send, rank;
    size_t round;
} msg_rec_t;

static int msg_cmp(const void *x, const void *y)
{
    const msg_rec_t *a = x, *b = y;
    if (a->src != b->src)
        return a->src < b->src ? -1 : 1;
    if (a->dst != b->dst)
        return a->dst < b->dst ? -1 : 1;
    if (a->seq != b->seq)
        return a->seq < b->seq ? -1 : 1;
    return a->is_send - b->is_send;
}

/*
 * Number of message steps on the critical path of the schedules, when every
 * message takes one time unit and a rank's round starts when its previous
 * round has finished.  A message starts when both ends have reached the
 * rounds that post it.  Returns -1 if the sends and receives do not pair up.
 */
static long depth(const ic_sched_t *sc, int p)
{
    size_t nmsg = 0;
    for (int r = 0; r < p; r++)
        for (size_t i = 0; i < sc[r].nacts; i++)
            if (sc[r].acts[i].kind == IC_ACT_SEND || sc[r].acts[i].kind == IC_ACT_RECV)
                nmsg++;
    if (nmsg == 0)
        return 0;
    msg_rec_t *m = malloc(nmsg * sizeof(*m));
    int *seq = calloc((size_t)p * 2, sizeof(int));
    size_t *base = malloc(((size_t)p + 1) * sizeof(size_t));
    CHECK(m && seq && base);
    size_t k = 0, nr = 0;
    for (int r = 0; r < p; r++) {
        base[r] = nr;
        nr += sc[r].nrounds;
        memset(seq, 0, (size_t)p * 2 * sizeof(int));
        for (size_t rd = 0; rd < sc[r].nrounds; rd++) {
            size_t na;
            const ic_action_t *a = ic_sched_round_acts(&sc[r], rd, &na);
            for (size_t i = 0; i < na; i++) {
                if (a[i].kind != IC_ACT_SEND && a[i].kind != IC_ACT_RECV)
                    continue;
                int snd = a[i].kind == IC_ACT_SEND;
                msg_rec_t *x = &m[k++];
                x->src = snd ? r : a[i].peer;
                x->dst = snd ? a[i].peer : r;
                x->seq = seq[2 * a[i].peer + snd]++;
                x->is_send = snd;
                x->rank = r;
                x->round = rd;
            }
        }
    }
    base[p] = nr;
    qsort(m, nmsg, sizeof(*m), msg_cmp);
    long result = -1;
    long *fin = calloc(nr + 1, sizeof(long));
    CHECK(fin != NULL);
    if (nmsg % 2 != 0)
        goto out;
    for (size_t i = 0; i < nmsg; i += 2)
        if (m[i].is_send || !m[i + 1].is_send || msg_cmp(&m[i], &m[i + 1]) >= 0 ||
            m[i].src != m[i + 1].src || m[i].dst != m[i + 1].dst || m[i].seq != m[i + 1].seq)
            goto out;
    /* Relax to a fixed point: fin(rank, round) = max(ready, message ends). */
    for (size_t sweep = 0; sweep <= nr + 1; sweep++) {
        int changed = 0;
        for (size_t i = 0; i < nmsg; i += 2) {
            const msg_rec_t *a = &m[i], *b = &m[i + 1];
            long ra = a->round ? fin[base[a->rank] + a->round - 1] : 0;
            long rb = b->round ? fin[base[b->rank] + b->round - 1] : 0;
            long end = (ra > rb ? ra : rb) + 1;
            long *fa = &fin[base[a->rank] + a->round], *fb = &fin[base[b->rank] + b->round];
            if (*fa < end) {
                *fa = end;
                changed = 1;
            }
            if (*fb < end) {
                *fb = end;
                changed = 1;
            }
        }
        for (int r = 0; r < p; r++)
            for (size_t rd = 1; rd < sc[r].nrounds; rd++)
                if (fin[base[r] + rd] < fin[base[r] + rd - 1]) {
                    fin[base[r] + rd] = fin[base[r] + rd - 1];
                    changed = 1;
                }
        if (!changed) {
            result = 0;
            for (size_t i = 0; i < nr; i++)
                if (fin[i] > result)
                    result = fin[i];
            break;
        }
    }
out:
    free(fin);
    free(m);
    free(seq);
    free(base);
    return result;
}

static int round_has_msg(const ic_sched_t *s, size_t rd)
{
    size_t na;
    const ic_action_t *a = ic_sched_round_acts(s, rd, &na);
    for (size_t i = 0; i < na; i++)
        if (a[i].kind == IC_ACT_SEND || a[i].kind == IC_ACT_RECV)
            return 1;
    return 0;
}

/* Run the built schedules; check ranks off the line and SEND buffers. */
static void sim_finish(ic_sim_t *sim, const fixture_t *f, size_t recvlen)
{
    for (int r = 0; r < f->p; r++)
        CHECK(ic_sched_ok(&sim->scheds[r]) == 0);
    int rc = ic_sim_run(sim);
    CHECK_SIM(sim, rc == 0);
    CHECK(sim->nbad == 0);
    for (int r = 0; r < f->p; r++) {
        for (size_t e = 0; e < SENDLEN; e++)
            CHECK(is_marker(sim, IC_BUF_SEND, r, e));
        if (ic_line_pos(&f->line, r) >= 0)
            continue;
        CHECK(sim->scheds[r].nrounds == 0);
        for (size_t e = 0; e < recvlen; e++)
            CHECK(is_marker(sim, IC_BUF_RECV, r, e));
    }
}

/* ------------------------------------------------- helper (pure) tests */

START_TEST(test_line_pos)
{
    ic_line_t id = ic_line_identity(5);
    for (int r = 0; r < 5; r++)
        ck_assert_int_eq(ic_line_pos(&id, r), r);
    ck_assert_int_eq(ic_line_pos(&id, 5), -1);
    ck_assert_int_eq(ic_line_pos(&id, -1), -1);

    ic_line_t col = {4, 2, 3, NULL}; /* ranks 2, 5, 8, 11 */
    ck_assert_int_eq(ic_line_pos(&col, 2), 0);
    ck_assert_int_eq(ic_line_pos(&col, 8), 2);
    ck_assert_int_eq(ic_line_pos(&col, 11), 3);
    ck_assert_int_eq(ic_line_pos(&col, 14), -1);
    ck_assert_int_eq(ic_line_pos(&col, 3), -1);
    ck_assert_int_eq(ic_line_pos(&col, 0), -1);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(ic_line_pos(&col, ic_line_rank(&col, i)), i);

    ic_line_t back = {3, 6, -2, NULL}; /* ranks 6, 4, 2 */
    ck_assert_int_eq(ic_line_pos(&back, 4), 1);
    ck_assert_int_eq(ic_line_pos(&back, 0), -1);
    ck_assert_int_eq(ic_line_pos(&back, 8), -1);

    int map[] = {7, 3, 9};
    ic_line_t ml = {3, 0, 0, map};
    ck_assert_int_eq(ic_line_rank(&ml, 2), 9);
    ck_assert_int_eq(ic_line_pos(&ml, 3), 1);
    ck_assert_int_eq(ic_line_pos(&ml, 0), -1);

    ic_line_t one = {1, 4, 0, NULL};
    ck_assert_int_eq(ic_line_pos(&one, 4), 0);
    ck_assert_int_eq(ic_line_pos(&one, 5), -1);
}
END_TEST

START_TEST(test_blocks)
{
    size_t c[7];
    ic_blocks_even(c, 7, 17); /* 3 3 3 2 2 2 2 */
    ck_assert_uint_eq(c[0], 3);
    ck_assert_uint_eq(c[2], 3);
    ck_assert_uint_eq(c[3], 2);
    ck_assert_uint_eq(c[6], 2);
    ck_assert_uint_eq(ic_blocks_prefix(c, 0), 0);
    ck_assert_uint_eq(ic_blocks_prefix(c, 4), 11);
    ck_assert_uint_eq(ic_blocks_total(c, 7), 17);
    ic_blocks_even(c, 7, 3);
    ck_assert_uint_eq(c[2], 1);
    ck_assert_uint_eq(c[3], 0);
    ck_assert_uint_eq(ic_blocks_total(c, 7), 3);
    ic_blocks_even(c, 7, 0);
    ck_assert_uint_eq(ic_blocks_total(c, 7), 0);
    for (int n = 1; n <= 7; n++)
        for (size_t m = 0; m < 40; m++) {
            ic_blocks_even(c, n, m);
            ck_assert_uint_eq(ic_blocks_total(c, n), m);
            for (int i = 1; i < n; i++)
                ck_assert(c[i] <= c[i - 1] && c[i - 1] - c[i] <= 1);
        }
}
END_TEST

START_TEST(test_coll_name)
{
    ck_assert_str_eq(ic_coll_name(IC_COLL_BCAST), "bcast");
    ck_assert_str_eq(ic_coll_name(IC_COLL_ALLREDUCE), "allreduce");
    ck_assert_str_eq(ic_coll_name(IC_COLL_REDUCE_SCATTER_BLOCK), "reduce_scatter_block");
    ck_assert_str_eq(ic_coll_name(IC_COLL_BARRIER), "barrier");
    for (int i = 0; i < IC_COLL_COUNT; i++)
        for (int j = 0; j < i; j++)
            ck_assert_str_ne(ic_coll_name((ic_coll_t)i), ic_coll_name((ic_coll_t)j));
    /* ic_coll_find is its inverse */
    for (int i = 0; i < IC_COLL_COUNT; i++) {
        ic_coll_t c = IC_COLL_COUNT;
        ck_assert_int_eq(ic_coll_find(ic_coll_name((ic_coll_t)i), &c), 0);
        ck_assert_int_eq((int)c, i);
    }
    ic_coll_t c = IC_COLL_BCAST;
    ck_assert_int_eq(ic_coll_find("bcats", &c), -1);
    ck_assert_int_eq(ic_coll_find("", &c), -1);
    ck_assert_int_eq(ic_coll_find("unknown", &c), -1);
    ck_assert_int_eq(ic_coll_find(NULL, &c), -1);
    ck_assert_int_eq((int)c, IC_COLL_BCAST);
}
END_TEST

START_TEST(test_mst_split)
{
    ic_mst_split_t sp = ic_mst_split(0, 7, 5);
    CHECK_EQ(sp.keep_lo, 3);
    CHECK_EQ(sp.keep_hi, 7);
    CHECK_EQ(sp.give_lo, 0);
    CHECK_EQ(sp.give_hi, 3);
    CHECK_EQ(sp.give_root, 2);
    sp = ic_mst_split(3, 8, 3); /* size 5, root at the left end */
    CHECK_EQ(sp.keep_lo, 3);
    CHECK_EQ(sp.keep_hi, 6);
    CHECK_EQ(sp.give_lo, 6);
    CHECK_EQ(sp.give_hi, 8);
    CHECK_EQ(sp.give_root, 6);
    sp = ic_mst_split(4, 5, 4); /* one position: nothing to give */
    CHECK_EQ(sp.give_lo, sp.give_hi);
    for (int size = 2; size <= 40; size++)
        for (int root = 10; root < 10 + size; root++) {
            sp = ic_mst_split(10, 10 + size, root);
            CHECK(root >= sp.keep_lo && root < sp.keep_hi);
            CHECK_EQ(sp.keep_hi - sp.keep_lo, (size + 1) / 2);
            CHECK_EQ(sp.give_hi - sp.give_lo, size / 2);
            CHECK(sp.keep_hi == sp.give_lo || sp.give_hi == sp.keep_lo);
            CHECK(sp.give_root >= sp.give_lo && sp.give_root < sp.give_hi);
            /* nearest position of the other half */
            CHECK(sp.give_root == sp.keep_hi || sp.give_root == sp.keep_lo - 1);
        }
}
END_TEST

START_TEST(test_mst_trace7)
{
    /* The trace in mst.h: n = 7, root 5. */
    static const int want[7][3][2] = {
        /* per position, per step: role, peer (role 0 = idle / absent) */
        {{0, -1}, {IC_MST_RECV, 2}, {0, 0}},
        {{0, -1}, {0, -1}, {IC_MST_RECV, 2}},
        {{IC_MST_RECV, 5}, {IC_MST_SEND, 0}, {IC_MST_SEND, 1}},
        {{0, -1}, {0, -1}, {IC_MST_RECV, 4}},
        {{0, -1}, {IC_MST_RECV, 5}, {IC_MST_SEND, 3}},
        {{IC_MST_SEND, 2}, {IC_MST_SEND, 4}, {IC_MST_SEND, 6}},
        {{0, -1}, {0, -1}, {IC_MST_RECV, 5}},
    };
    static const int nsteps[7] = {2, 3, 3, 3, 3, 3, 3};
    for (int me = 0; me < 7; me++) {
        ic_mst_step_t st[IC_MST_MAXSTEPS];
        int k = ic_mst_steps(7, 5, me, st);
        CHECK_EQ(k, nsteps[me]);
        for (int t = 0; t < k; t++) {
            CHECK_EQ(st[t].t, t);
            CHECK_EQ(st[t].role, want[me][t][0]);
            CHECK_EQ(st[t].peer, want[me][t][1]);
        }
    }
    ic_mst_step_t st[IC_MST_MAXSTEPS];
    ic_mst_steps(7, 5, 5, st);
    CHECK_EQ(st[0].sub_lo, 0);
    CHECK_EQ(st[0].sub_hi, 3);
    CHECK_EQ(st[0].sub_is_low, 1);
    CHECK_EQ(st[2].sub_lo, 6);
    CHECK_EQ(st[2].sub_hi, 7);
    CHECK_EQ(st[2].sub_is_low, 0);
}
END_TEST

/* Properties of ic_mst_steps for every n and root. */
static void mst_props(int n, int root)
{
    snprintf(ctx, sizeof(ctx), "mst steps n=%d root=%d", n, root);
    enum { MAXN = 1000 };
    static ic_mst_step_t st[MAXN][IC_MST_MAXSTEPS];
    static int k[MAXN];
    static int link_used[MAXN];
    int L = ic_ceil_log2(n);
    for (int me = 0; me < n; me++) {
        k[me] = ic_mst_steps(n, root, me, st[me]);
        CHECK(k[me] <= L);
    }
    CHECK_EQ(k[root], L);
    for (int t = 0; t < L; t++) {
        CHECK_EQ(st[root][t].role, IC_MST_SEND);
        /* the root keeps a range of ceil(n / 2^t) positions */
        int size = (n + (1 << t) - 1) >> t;
        CHECK_EQ(st[root][t].sub_hi - st[root][t].sub_lo, size / 2);
    }
    for (int me = 0; me < n; me++) {
        int nrecv = 0, nsend_before = 0;
        for (int t = 0; t < k[me]; t++) {
            const ic_mst_step_t *x = &st[me][t];
            CHECK_EQ(x->t, t);
            if (x->role == IC_MST_RECV) {
                nrecv++;
                CHECK_EQ(nsend_before, 0);
                /* the sender lists the matching send at the same step */
                CHECK(t < k[x->peer]);
                CHECK_EQ(st[x->peer][t].role, IC_MST_SEND);
                CHECK_EQ(st[x->peer][t].peer, me);
                CHECK_EQ(st[x->peer][t].sub_lo, x->sub_lo);
                CHECK_EQ(st[x->peer][t].sub_hi, x->sub_hi);
                CHECK(me >= x->sub_lo && me < x->sub_hi);
            } else if (x->role == IC_MST_SEND) {
                nsend_before++;
                CHECK_EQ(st[x->peer][t].role, IC_MST_RECV);
                CHECK(x->sub_is_low ? x->sub_hi <= me : x->sub_lo > me);
            }
        }
        CHECK_EQ(nrecv, me == root ? 0 : 1);
    }
    /* No two messages of a step cross the same link of the linear array. */
    for (int t = 0; t < L; t++) {
        memset(link_used, 0, sizeof(int) * (size_t)n);
        for (int me = 0; me < n; me++) {
            if (t >= k[me] || st[me][t].role != IC_MST_SEND)
                continue;
            int a = me, b = st[me][t].peer;
            int lo = a < b ? a : b, hi = a < b ? b : a;
            for (int l = lo; l < hi; l++)
                CHECK_EQ(link_used[l]++, 0);
        }
    }
}

START_TEST(test_mst_steps_props)
{
    for (int n = 1; n <= 130; n++)
        for (int root = 0; root < n; root++)
            mst_props(n, root);
    static const int big[] = {255, 256, 257, 999, 1000};
    for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
        int n = big[i];
        mst_props(n, 0);
        mst_props(n, n / 2);
        mst_props(n, n - 1);
        mst_props(n, n / 3 + 1);
    }
}
END_TEST

/* ------------------------------------------------------------ broadcast */

/* A broadcast's fixture: m elements of the root's in RECV[1 ..] between
 * two markers; returns the root's rank. */
static int bcast_begin(ic_sim_t *sim, fixture_t *f, int root, size_t m)
{
    sim_begin(sim, f, m + 2, 1);
    int rroot = ic_line_rank(&f->line, root);
    for (size_t e = 0; e < m; e++)
        *ic_sim_at(sim, IC_BUF_RECV, rroot, 1 + e) = ic_sim_data(root, (int)e);
    return rroot;
}

/* Rank r holds the root's m elements, the markers untouched. */
static void bcast_holds(ic_sim_t *sim, int r, int root, size_t m)
{
    CHECK(is_marker(sim, IC_BUF_RECV, r, 0));
    CHECK(is_marker(sim, IC_BUF_RECV, r, m + 1));
    for (size_t e = 0; e < m; e++)
        CHECK(elem_eq(ic_sim_at(sim, IC_BUF_RECV, r, 1 + e), ic_sim_data(root, (int)e)));
}

static void run_bcast(int kind, int n, int root, size_t m)
{
    fixture_t f;
    ic_sim_t sim;
    fixture_make(&f, kind, n);
    snprintf(ctx, sizeof(ctx), "bcast %s n=%d root=%d m=%zu", kind_name(kind), n, root, m);
    int rroot = bcast_begin(&sim, &f, root, m);
    for (int r = 0; r < f.p; r++)
        ic_mst_bcast(&sim.scheds[r], &f.line, root, ic_reg(IC_BUF_RECV, 1, m));
    sim_finish(&sim, &f, m + 2);

    int L = ic_ceil_log2(n);
    CHECK(depth(sim.scheds, f.p) == L);
    CHECK(sim.scheds[rroot].nrounds == (size_t)L);
    for (int q = 0; q < n; q++) {
        int r = ic_line_rank(&f.line, q);
        const ic_sched_t *s = &sim.scheds[r];
        CHECK(s->nrounds <= (size_t)L);
        for (size_t rd = 0; rd < s->nrounds; rd++)
            CHECK(round_has_msg(s, rd));
        if (q != root && n > 1) /* receives once, first */
            CHECK(s->acts[0].kind == IC_ACT_RECV);
        bcast_holds(&sim, r, root, m);
    }
    sim_end(&sim);
    fixture_free(&f);
}

START_TEST(test_bcast_small)
{
    for (int n = 1; n <= 64; n++)
        for (int root = 0; root < n; root++) {
            run_bcast(LINE_IDENTITY, n, root, 3);
            run_bcast(LINE_STRIDE2, n, root, 1);
            run_bcast(LINE_MAPPED, n, root, 2);
        }
    run_bcast(LINE_IDENTITY, 5, 2, 0); /* empty messages still flow */
}
END_TEST

START_TEST(test_bcast_large)
{
    static const int big[] = {97, 128, 255, 500, 1000};
    for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
        int n = big[i];
        int roots[] = {0, 1, n / 2, n - 1};
        for (int j = 0; j < 4; j++)
            run_bcast(j % 2 ? LINE_MAPPED : LINE_IDENTITY, n, roots[j], 2);
        run_bcast(LINE_STRIDE2, n, n / 3, 1);
    }
}
END_TEST

/* The MST broadcast for every line length 1..1000 (the identity line, root
 * 0 and a root that moves with n), beyond the exhaustive n <= 64. */
START_TEST(test_bcast_every_n)
{
    for (int n = 1; n <= 1000; n++) {
        run_bcast(LINE_IDENTITY, n, 0, 1);
        if (n > 1)
            run_bcast(LINE_IDENTITY, n, (n / 3 + n % 7) % n, 1);
    }
}
END_TEST

/* The circulant graph's tables (circulant.c), replayed block by block for
 * every n to 600 and B = 1 .. 3q + 3 blocks, apart from the schedules:
 * each position's receive table holds its base block and the previous
 * phase's others once each; in every round the sender holds the block
 * its successor's table asks for; at the end every position holds every
 * block, in B - 1 + q rounds. */
START_TEST(test_circulant_tables)
{
    enum { QMAX = 32 };
    for (int n = 2; n <= 600; n++) {
        int q = ic_ceil_log2(n);
        int *rv = malloc((size_t)n * QMAX * sizeof(int)),
            *sd = malloc((size_t)n * QMAX * sizeof(int));
        CHECK(rv && sd);
        snprintf(ctx, sizeof(ctx), "circulant tables n=%d", n);
        for (int r = 0; r < n; r++) {
            CHECK_EQ(ic_circulant_tables(n, r, rv + r * QMAX, sd + r * QMAX), q);
            if (r == 0)
                continue;
            int own = 0, seen[QMAX + 1] = {0};
            for (int k = 0; k < q; k++) {
                int v = rv[r * QMAX + k];
                CHECK(v >= -q && v < q);
                own += v >= 0;
                CHECK(seen[v + q]++ == 0);
            }
            CHECK_EQ(own, 1);
        }
        for (int r = 0; r < n; r++)
            for (int k = 0; k < q; k++) {
                int to = (r + ic_circulant_skip(n, k)) % n;
                CHECK(to != 0 || sd[r * QMAX + k] == INT_MIN);
                if (r > 0 && to != 0)
                    CHECK_EQ(sd[r * QMAX + k], rv[to * QMAX + k]);
            }
        for (int B = 1; B <= 3 * q + 3; B++) {
            char *has = calloc((size_t)n * (size_t)B, 1), *got = malloc((size_t)n * (size_t)B);
            CHECK(has && got);
            memset(has, 1, (size_t)B); /* the root */
            int x = (q - (B - 1) % q) % q;
            for (int i = x; i < x + B - 1 + q; i++) {
                int k = i % q, off = i / q * q - x;
                memset(got, 0, (size_t)n * (size_t)B);
                for (int r = 0; r < n; r++) {
                    int to = (r + ic_circulant_skip(n, k)) % n, v = sd[r * QMAX + k];
                    if (to == 0 || v + off < 0)
                        continue;
                    int blk = v + off >= B ? B - 1 : v + off;
                    CHECK(has[(size_t)r * (size_t)B + (size_t)blk]);
                    got[(size_t)to * (size_t)B + (size_t)blk] = 1;
                }
                for (size_t z = 0; z < (size_t)n * (size_t)B; z++)
                    has[z] |= got[z];
            }
            for (size_t z = 0; z < (size_t)n * (size_t)B; z++)
                CHECK(has[z]);
            free(has);
            free(got);
        }
        free(rv);
        free(sd);
    }
    CHECK_EQ(ic_circulant_tables(1, 0, NULL, NULL), -1);
}
END_TEST

/* The circulant broadcast's schedules in the simulator: m elements in
 * blocks of seg, every position with the vector and nothing else written,
 * B - 1 + q message times deep, each block received once (the repeats of
 * the last block left out). */
static void run_circulant(int kind, int n, int root, size_t m, size_t seg)
{
    fixture_t f;
    ic_sim_t sim;
    fixture_make(&f, kind, n);
    snprintf(ctx, sizeof(ctx), "circulant %s n=%d root=%d m=%zu seg=%zu", kind_name(kind), n, root,
             m, seg);
    bcast_begin(&sim, &f, root, m);
    for (int r = 0; r < f.p; r++)
        ic_circulant_bcast(&sim.scheds[r], &f.line, root, ic_reg(IC_BUF_RECV, 1, m), seg);
    sim_finish(&sim, &f, m + 2);
    size_t sg = seg, B = ic_nsegments(m, &sg);
    if (n > 1 && m > 0)
        CHECK_EQ(depth(sim.scheds, f.p), (long)B - 1 + ic_ceil_log2(n));
    for (int q = 0; q < n; q++) {
        int r = ic_line_rank(&f.line, q);
        const ic_sched_t *s = &sim.scheds[r];
        size_t in = 0;
        for (size_t i = 0; i < s->nacts; i++)
            if (s->acts[i].kind == IC_ACT_RECV)
                in += s->acts[i].dst.count;
        CHECK_EQ(in, q == root || n == 1 ? 0 : m);
        bcast_holds(&sim, r, root, m);
    }
    sim_end(&sim);
    fixture_free(&f);
}

START_TEST(test_circulant_bcast)
{
    for (int n = 1; n <= 40; n++)
        for (int root = 0; root<n; root += n> 8 ? n / 5 : 1)
            for (size_t m = 0; m <= 13; m += m < 3 ? 1 : 5) {
                run_circulant(LINE_IDENTITY, n, root, m, 1);
                run_circulant(LINE_MAPPED, n, root, m, 2);
                run_circulant(LINE_STRIDE2, n, root, m, 0);
            }
    static const int big[] = {97, 128, 255, 512, 1000};
    for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
        run_circulant(LINE_IDENTITY, big[i], big[i] / 3, 40, 3);
        run_circulant(LINE_MAPPED, big[i], 0, 7, 1);
    }
}
END_TEST

/* ------------------------------------------------------------- combine */

static void run_combine(int kind, int n, int root, size_t m)
{
    fixture_t f;
    ic_sim_t sim;
    fixture_make(&f, kind, n);
    snprintf(ctx, sizeof(ctx), "combine %s n=%d root=%d m=%zu", kind_name(kind), n, root, m);
    size_t recvlen = m + 2;
    sim_begin(&sim, &f, recvlen, 1);
    for (int q = 0; q < n; q++)
        for (size_t e = 0; e < m; e++)
            *ic_sim_at(&sim, IC_BUF_RECV, ic_line_rank(&f.line, q), 1 + e) = ic_sim_data(q, (int)e);
    for (int r = 0; r < f.p; r++)
        ic_mst_combine(&sim.scheds[r], &f.line, root, ic_reg(IC_BUF_RECV, 1, m),
                       ic_reg(IC_BUF_SCRATCH, 2, m));
    sim_finish(&sim, &f, recvlen);

    int L = ic_ceil_log2(n);
    int rroot = ic_line_rank(&f.line, root);
    CHECK(depth(sim.scheds, f.p) == L);
    CHECK(sim.scheds[rroot].nrounds == (size_t)L);
    if (n > 1)
        CHECK(sim.scheds[rroot].scratch[IC_BUF_SCRATCH] >= m + 2);
    for (int q = 0; q < n; q++) {
        int r = ic_line_rank(&f.line, q);
        const ic_sched_t *s = &sim.scheds[r];
        CHECK(s->nrounds <= (size_t)L);
        if (q != root && n > 1) /* sends once, last */
            CHECK(s->acts[s->nacts - 1].kind == IC_ACT_SEND);
        CHECK(is_marker(&sim, IC_BUF_RECV, r, 0));
        CHECK(is_marker(&sim, IC_BUF_RECV, r, m + 1));
    }
    for (size_t e = 0; e < m; e++)
        CHECK_SIM(&sim,
                  ic_sim_expect_reduced(&sim, IC_BUF_RECV, rroot, 1 + e, 0, n - 1, (int)e) == 0);
    sim_end(&sim);
    fixture_free(&f);
}

START_TEST(test_combine_small)
{
    for (int n = 1; n <= 64; n++)
        for (int root = 0; root < n; root++) {
            run_combine(LINE_IDENTITY, n, root, 3);
            run_combine(LINE_STRIDE2, n, root, 1);
            run_combine(LINE_MAPPED, n, root, 2);
        }
    run_combine(LINE_MAPPED, 6, 4, 0);
}
END_TEST

START_TEST(test_combine_large)
{
    static const int big[] = {97, 128, 255, 500, 1000};
    for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
        int n = big[i];
        int roots[] = {0, 1, n / 2, n - 1};
        for (int j = 0; j < 4; j++)
            run_combine(j % 2 ? LINE_MAPPED : LINE_IDENTITY, n, roots[j], 2);
        run_combine(LINE_STRIDE2, n, n / 3, 1);
    }
}
END_TEST

/* ------------------------------------------------------ scatter, gather */

#define BASE 2

/* Owner position of packed element j. */
static int owner_of(const size_t *counts, int n, size_t j)
{
    size_t at = 0;
    for (int q = 0; q < n; q++) {
        at += counts[q];
        if (j < at)
            return q;
    }
    return -1;
}

static void run_scatter_gather(int gather, int kind, int n, int root, int pat)
{
    fixture_t f;
    ic_sim_t sim;
    fixture_make(&f, kind, n);
    snprintf(ctx, sizeof(ctx), "%s %s n=%d root=%d pat=%d", gather ? "gather" : "scatter",
             kind_name(kind), n, root, pat);
    size_t *counts = make_counts(n, pat);
    size_t total = ic_blocks_total(counts, n);
    size_t recvlen = BASE + total + 1;
    int *own = malloc((total + 1) * sizeof(int));
    CHECK(own != NULL);
    for (size_t j = 0; j < total; j++)
        own[j] = owner_of(counts, n, j);
    sim_begin(&sim, &f, recvlen, 1);
    int rroot = ic_line_rank(&f.line, root);
    /* scatter: the root's data carries origin root; gather: the owner's */
    for (size_t j = 0; j < total; j++) {
        if (gather)
            *ic_sim_at(&sim, IC_BUF_RECV, ic_line_rank(&f.line, own[j]), BASE + j) =
                ic_sim_data(own[j], (int)j);
        else
            *ic_sim_at(&sim, IC_BUF_RECV, rroot, BASE + j) = ic_sim_data(root, (int)j);
    }
    for (int r = 0; r < f.p; r++) {
        if (gather)
            ic_mst_gather(&sim.scheds[r], &f.line, root, IC_BUF_RECV, BASE, counts);
        else
            ic_mst_scatter(&sim.scheds[r], &f.line, root, IC_BUF_RECV, BASE, counts);
    }
    sim_finish(&sim, &f, recvlen);

    int L = ic_ceil_log2(n);
    long d = depth(sim.scheds, f.p);
    CHECK(d <= L);
    if (all_nonzero(counts, n)) {
        CHECK(d == L);
        CHECK(sim.scheds[rroot].nrounds == (size_t)L);
    }
    if (total == 0)
        CHECK(d == 0);
    for (int q = 0; q < n; q++) {
        int r = ic_line_rank(&f.line, q);
        CHECK(sim.scheds[r].nrounds <= (size_t)L);
        for (size_t e = 0; e < BASE; e++)
            CHECK(is_marker(&sim, IC_BUF_RECV, r, e));
        CHECK(is_marker(&sim, IC_BUF_RECV, r, BASE + total));
        for (size_t j = 0; j < total; j++) {
            ic_sim_elem_t want = ic_sim_data(gather ? own[j] : root, (int)j);
            const ic_sim_elem_t *x = ic_sim_at(&sim, IC_BUF_RECV, r, BASE + j);
            int must = gather ? (q == root) : (own[j] == q);
            if (must)
                CHECK(elem_eq(x, want));
            else /* untouched or a correct copy of a subtree element */
                CHECK(elem_eq(x, want) || is_marker(&sim, IC_BUF_RECV, r, BASE + j));
            if (gather && own[j] == q)
                CHECK(elem_eq(x, want)); /* own block is only read */
        }
    }
    free(own);
    free(counts);
    sim_end(&sim);
    fixture_free(&f);
}

static void sweep_scatter_gather(int gather)
{
    for (int n = 1; n <= 64; n++)
        for (int root = 0; root < n; root++) {
            run_scatter_gather(gather, LINE_IDENTITY, n, root, root % 2 ? PAT_EVEN : PAT_RANDOM);
            run_scatter_gather(gather, LINE_STRIDE2, n, root, PAT_FEW);
            run_scatter_gather(gather, LINE_MAPPED, n, root, root % 2 ? PAT_RANDOM : PAT_EVEN);
        }
    run_scatter_gather(gather, LINE_IDENTITY, 9, 4, PAT_ZERO);
    static const int big[] = {97, 128, 255, 500, 1000};
    for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
        int n = big[i];
        run_scatter_gather(gather, LINE_IDENTITY, n, 0, n < 500 ? PAT_EVEN : PAT_BITS);
        run_scatter_gather(gather, LINE_IDENTITY, n, n - 1, PAT_BITS);
        run_scatter_gather(gather, LINE_MAPPED, n, n / 2, PAT_FEW);
        run_scatter_gather(gather, LINE_STRIDE2, n, 1, PAT_BITS);
    }
}

START_TEST(test_scatter)
{
    sweep_scatter_gather(0);
}
END_TEST

START_TEST(test_gather)
{
    sweep_scatter_gather(1);
}
END_TEST

/* -------------------------------------------------------------- bucket */

static void run_collect(int kind, int n, int pat)
{
    fixture_t f;
    ic_sim_t sim;
    fixture_make(&f, kind, n);
    snprintf(ctx, sizeof(ctx), "collect %s n=%d pat=%d", kind_name(kind), n, pat);
    size_t *counts = make_counts(n, pat);
    size_t total = ic_blocks_total(counts, n);
    size_t recvlen = BASE + total + 1;
    sim_begin(&sim, &f, recvlen, 1);
    for (size_t j = 0; j < total; j++) {
        int q = owner_of(counts, n, j);
        *ic_sim_at(&sim, IC_BUF_RECV, ic_line_rank(&f.line, q), BASE + j) = ic_sim_data(q, (int)j);
    }
    for (int r = 0; r < f.p; r++)
        ic_bucket_collect(&sim.scheds[r], &f.line, IC_BUF_RECV, BASE, counts);
    sim_finish(&sim, &f, recvlen);

    long d = depth(sim.scheds, f.p);
    CHECK(d <= n - 1);
    if (all_nonzero(counts, n))
        CHECK(d == n - 1);
    for (int q = 0; q < n; q++) {
        int r = ic_line_rank(&f.line, q);
        const ic_sched_t *s = &sim.scheds[r];
        if (all_nonzero(counts, n)) {
            CHECK(s->nrounds == (size_t)(n - 1));
            for (size_t rd = 0; rd < s->nrounds; rd++) {
                size_t na;
                const ic_action_t *a = ic_sched_round_acts(s, rd, &na);
                CHECK(na == 2 && a[0].kind == IC_ACT_SEND && a[1].kind == IC_ACT_RECV);
                CHECK(a[0].peer == ic_line_rank(&f.line, (q + 1) % n));
                CHECK(a[1].peer == ic_line_rank(&f.line, (q + n - 1) % n));
            }
        }
        for (size_t e = 0; e < BASE; e++)
            CHECK(is_marker(&sim, IC_BUF_RECV, r, e));
        CHECK(is_marker(&sim, IC_BUF_RECV, r, BASE + total));
        for (size_t j = 0; j < total; j++)
            CHECK(elem_eq(ic_sim_at(&sim, IC_BUF_RECV, r, BASE + j),
                          ic_sim_data(owner_of(counts, n, j), (int)j)));
    }
    free(counts);
    sim_end(&sim);
    fixture_free(&f);
}

START_TEST(test_collect)
{
    for (int n = 1; n <= 64; n++)
        for (int pat = 0; pat < NPAT; pat++)
            for (int kind = 0; kind < LINE_KINDS; kind++)
                run_collect(kind, n, pat);
    static const int big[] = {97, 128, 255, 500};
    for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
        run_collect(LINE_IDENTITY, big[i], PAT_BITS);
        run_collect(LINE_MAPPED, big[i], PAT_FEW);
    }
    run_collect(LINE_STRIDE2, 1000, PAT_FEW);
}
END_TEST

static void run_dcombine(int kind, int n, int pat)
{
    fixture_t f;
    ic_sim_t sim;
    fixture_make(&f, kind, n);
    snprintf(ctx, sizeof(ctx), "dcombine %s n=%d pat=%d", kind_name(kind), n, pat);
    size_t *counts = make_counts(n, pat);
    size_t total = ic_blocks_total(counts, n), maxb = 0;
    for (int q = 0; q < n; q++)
        if (counts[q] > maxb)
            maxb = counts[q];
    size_t recvlen = BASE + total + 1;
    sim_begin(&sim, &f, recvlen, 0);
    for (int q = 0; q < n; q++)
        for (size_t j = 0; j < total; j++)
            *ic_sim_at(&sim, IC_BUF_RECV, ic_line_rank(&f.line, q), BASE + j) =
                ic_sim_data(q, (int)j);
    for (int r = 0; r < f.p; r++)
        ic_bucket_dcombine(&sim.scheds[r], &f.line, IC_BUF_RECV, BASE, counts, IC_BUF_SCRATCH2, 1);
    sim_finish(&sim, &f, recvlen);

    long d = depth(sim.scheds, f.p);
    CHECK(d <= n - 1);
    if (all_nonzero(counts, n))
        CHECK(d == n - 1);
    for (int q = 0; q < n; q++) {
        int r = ic_line_rank(&f.line, q);
        const ic_sched_t *s = &sim.scheds[r];
        if (n > 1)
            CHECK(s->scratch[IC_BUF_SCRATCH2] >= 1 + maxb);
        if (all_nonzero(counts, n)) {
            CHECK(s->nrounds == (size_t)(n - 1));
            for (size_t rd = 0; rd < s->nrounds; rd++) {
                size_t na;
                const ic_action_t *a = ic_sched_round_acts(s, rd, &na);
                CHECK(na == 3 && a[0].kind == IC_ACT_SEND && a[1].kind == IC_ACT_RECV &&
                      a[2].kind == IC_ACT_REDUCE);
                CHECK(a[0].peer == ic_line_rank(&f.line, (q + 1) % n));
                CHECK(a[1].peer == ic_line_rank(&f.line, (q + n - 1) % n));
            }
        }
        for (size_t e = 0; e < BASE; e++)
            CHECK(is_marker(&sim, IC_BUF_RECV, r, e));
        CHECK(is_marker(&sim, IC_BUF_RECV, r, BASE + total));
        size_t at = ic_blocks_prefix(counts, q);
        for (size_t j = at; j < at + counts[q]; j++)
            CHECK_SIM(&sim,
                      ic_sim_expect_reduced(&sim, IC_BUF_RECV, r, BASE + j, 0, n - 1, (int)j) == 0);
    }
    free(counts);
    sim_end(&sim);
    fixture_free(&f);
}

START_TEST(test_dcombine)
{
    for (int n = 1; n <= 64; n++)
        for (int pat = 0; pat < NPAT; pat++)
            for (int kind = 0; kind < LINE_KINDS; kind++)
                run_dcombine(kind, n, pat);
    static const int big[] = {97, 128, 255, 500};
    for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
        run_dcombine(LINE_IDENTITY, big[i], PAT_BITS);
        run_dcombine(LINE_MAPPED, big[i], PAT_FEW);
    }
    run_dcombine(LINE_STRIDE2, 1000, PAT_FEW);
}
END_TEST

/* Recursive halving in any order (rh_dcombine.c: far first, near first,
 * Swing's): position q ends with block ic_rh_block(n, q, near), combined
 * over every position (a permutation of the blocks); the collect that
 * mirrors it (ic_rd_collect with the same order) then leaves the whole
 * combined vector everywhere.  On a power of two with even blocks, a
 * position's largest message goes to the nearest partner (q ^ 1) near
 * first and in Swing's order and to the farthest (q ^ n/2) far first:
 * what the order is for; in Swing's, every step's messages go |rho(i)|. */
static void run_halving(int kind, int n, int pat, int near, int collect)
{
    fixture_t f;
    ic_sim_t sim;
    fixture_make(&f, kind, n);
    snprintf(ctx, sizeof(ctx), "halving %s n=%d pat=%d near=%d collect=%d", kind_name(kind), n, pat,
             near, collect);
    size_t *counts = make_counts(n, pat);
    size_t total = ic_blocks_total(counts, n), recvlen = BASE + total + 1;
    sim_begin(&sim, &f, recvlen, 0);
    for (int q = 0; q < n; q++)
        for (size_t j = 0; j < total; j++)
            *ic_sim_at(&sim, IC_BUF_RECV, ic_line_rank(&f.line, q), BASE + j) =
                ic_sim_data(q, (int)j);
    for (int r = 0; r < f.p; r++) {
        ic_rh_dcombine(&sim.scheds[r], &f.line, IC_BUF_RECV, BASE, counts, IC_BUF_SCRATCH2, 1,
                       near);
        if (collect)
            ic_rd_collect(&sim.scheds[r], &f.line, IC_BUF_RECV, BASE, counts, near);
    }
    sim_finish(&sim, &f, recvlen);
    char *seen = calloc((size_t)n + 1, 1);
    int *all = malloc(((size_t)n + 1) * sizeof(int));
    CHECK(seen != NULL && all != NULL);
    CHECK(ic_rh_blocks(n, near, all) == 0);
    for (int q = 0; q < n; q++) {
        int r = ic_line_rank(&f.line, q), b = ic_rh_block(n, q, near);
        CHECK(b >= 0 && b < n && !seen[b] && all[q] == b);
        seen[b] = 1;
        CHECK(near || b == q);
        size_t lo = collect ? 0 : ic_blocks_prefix(counts, b);
        size_t hi = collect ? total : lo + counts[b];
        for (size_t j = lo; j < hi; j++)
            CHECK_SIM(&sim,
                      ic_sim_expect_reduced(&sim, IC_BUF_RECV, r, BASE + j, 0, n - 1, (int)j) == 0);
        CHECK(is_marker(&sim, IC_BUF_RECV, r, BASE + total));
        if (pat != PAT_EVEN || kind != LINE_IDENTITY || (n & (n - 1)) || n < 4)
            continue;
        size_t big = 0;
        int to = -1;
        for (size_t i = 0; i < sim.scheds[r].nacts; i++) {
            const ic_action_t *x = &sim.scheds[r].acts[i];
            if (x->kind == IC_ACT_SEND && x->src.count > big) {
                big = x->src.count;
                to = x->peer;
            }
        }
        CHECK_EQ(to, near ? (q ^ 1) : (q ^ (n / 2)));
        if (near != IC_PAIRS_SWING)
            continue;
        /* Swing's partners: the halving's j-th send is its step j's, the
         * collect's (after the k of the halving) replays step 2k-1-j; step
         * i's goes |rho(i)| round the ring, rho = 1, -1, 3, -5, 11, ... */
        int k = ic_ceil_log2(n), j = 0;
        for (size_t i = 0; i < sim.scheds[r].nacts; i++) {
            const ic_action_t *x = &sim.scheds[r].acts[i];
            if (x->kind != IC_ACT_SEND)
                continue;
            int step = j < k ? j : 2 * k - 1 - j;
            j++;
            CHECK(step >= 0);
            long long rho = 0, t = 1;
            for (int j = 0; j <= step; j++, t *= -2)
                rho += t;
            int want = (int)((rho < 0 ? -rho : rho) % n),
                d = x->peer > r ? x->peer - r : r - x->peer;
            CHECK_EQ(d < n - d ? d : n - d, want < n - want ? want : n - want);
        }
        CHECK_EQ(j, (collect + 1) * k);
    }
    free(seen);
    free(all);
    free(counts);
    sim_end(&sim);
    fixture_free(&f);
}

START_TEST(test_halving_orders)
{
    for (int n = 1; n <= 40; n++)
        for (int pat = 0; pat < NPAT; pat++)
            for (int kind = 0; kind < LINE_KINDS; kind++)
                for (int v = 0; v < 6; v++)
                    run_halving(kind, n, pat, v % 3, v / 3);
    static const int big[] = {97, 128, 255, 256, 512, 1000};
    for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
        run_halving(LINE_IDENTITY, big[i], PAT_EVEN, IC_PAIRS_NEAR, 1);
        run_halving(LINE_IDENTITY, big[i], PAT_EVEN, IC_PAIRS_FAR, 1);
        run_halving(LINE_IDENTITY, big[i], PAT_EVEN, IC_PAIRS_SWING, 1);
        run_halving(LINE_MAPPED, big[i], PAT_FEW, IC_PAIRS_NEAR, 0);
        run_halving(LINE_MAPPED, big[i], PAT_FEW, IC_PAIRS_SWING, 0);
    }
}
END_TEST

/* Primitives concatenate: combine-to-one then broadcast (short allreduce)
 * on a column of a 3 x n mesh, in one schedule per rank. */
START_TEST(test_concat)
{
    for (int n = 1; n <= 20; n++) {
        fixture_t f;
        ic_sim_t sim;
        int m = 2, root = n / 2;
        f.p = 3 * n;
        f.map = NULL;
        f.line.n = n;
        f.line.first = 1;
        f.line.stride = 3;
        f.line.map = NULL;
        snprintf(ctx, sizeof(ctx), "combine+bcast column n=%d", n);
        sim_begin(&sim, &f, (size_t)m + 2, 1);
        for (int q = 0; q < n; q++)
            for (int e = 0; e < m; e++)
                *ic_sim_at(&sim, IC_BUF_RECV, ic_line_rank(&f.line, q), 1 + (size_t)e) =
                    ic_sim_data(q, e);
        for (int r = 0; r < f.p; r++) {
            ic_mst_combine(&sim.scheds[r], &f.line, root, ic_reg(IC_BUF_RECV, 1, (size_t)m),
                           ic_reg(IC_BUF_SCRATCH, 0, (size_t)m));
            ic_mst_bcast(&sim.scheds[r], &f.line, root, ic_reg(IC_BUF_RECV, 1, (size_t)m));
        }
        sim_finish(&sim, &f, (size_t)m + 2);
        CHECK(depth(sim.scheds, f.p) == 2 * ic_ceil_log2(n));
        for (int q = 0; q < n; q++)
            for (int e = 0; e < m; e++)
                CHECK_SIM(&sim, ic_sim_expect_reduced(&sim, IC_BUF_RECV, ic_line_rank(&f.line, q),
                                                      1 + (size_t)e, 0, n - 1, e) == 0);
        sim_end(&sim);
    }
}
END_TEST

/* One test case per test, so CK_RUN_CASE can pick one. */
static void add_case(Suite *s, const char *name, const TTest *t, int timeout)
{
    TCase *tc = tcase_create(name);
    tcase_set_timeout(tc, timeout);
    tcase_add_test(tc, t);
    suite_add_tcase(s, tc);
}

Suite *suite_primitives(void)
{
    Suite *s = suite_create("primitives");
    add_case(s, "line_pos", test_line_pos, 10);
    add_case(s, "blocks", test_blocks, 10);
    add_case(s, "coll_name", test_coll_name, 10);
    add_case(s, "mst_split", test_mst_split, 10);
    add_case(s, "mst_trace7", test_mst_trace7, 10);
    add_case(s, "mst_steps", test_mst_steps_props, 30);
    add_case(s, "bcast_small", test_bcast_small, 60);
    add_case(s, "bcast_large", test_bcast_large, 60);
    add_case(s, "bcast_every_n", test_bcast_every_n, 120);
    add_case(s, "circulant_tables", test_circulant_tables, 120);
    add_case(s, "circulant_bcast", test_circulant_bcast, 120);
    add_case(s, "combine_small", test_combine_small, 60);
    add_case(s, "combine_large", test_combine_large, 60);
    add_case(s, "scatter", test_scatter, 60);
    add_case(s, "gather", test_gather, 60);
    add_case(s, "concat", test_concat, 60);
    add_case(s, "collect", test_collect, 60);
    add_case(s, "dcombine", test_dcombine, 60);
    add_case(s, "halving_orders", test_halving_orders, 60);
    return s;
}
