/*
 * check_sim.c -- unit tests of the in-memory simulator (tuning/sim.c) on
 * hand-built schedules: data movement, MPI matching and deadlocks, rule
 * violations, and the reduction bookkeeping.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "schedule.h"
#include "sim.h"

/* p schedules plus a simulator with SEND/RECV buffers of len elements. */
typedef struct world {
    int p;
    ic_sched_t *s;
    ic_sim_t sim;
} world_t;

static void world_init(world_t *w, int p, size_t sendlen, size_t recvlen)
{
    w->p = p;
    w->s = calloc((size_t)p, sizeof(*w->s));
    ck_assert_ptr_nonnull(w->s);
    for (int r = 0; r < p; r++)
        ic_sched_init(&w->s[r], r, p);
    ck_assert_int_eq(ic_sim_init(&w->sim, p, sendlen, recvlen), 0);
    w->sim.scheds = w->s;
    ic_sim_fill(&w->sim, IC_BUF_SEND);
}

static void world_free(world_t *w)
{
    for (int r = 0; r < w->p; r++)
        ic_sched_free(&w->s[r]);
    free(w->s);
    ic_sim_free(&w->sim);
}

static int world_run(world_t *w)
{
    return ic_sim_run(&w->sim);
}

#define SND(off, n) ic_reg(IC_BUF_SEND, (off), (n))
#define RCV(off, n) ic_reg(IC_BUF_RECV, (off), (n))
#define SCR(off, n) ic_reg(IC_BUF_SCRATCH, (off), (n))

#define EXPECT_DATA(w, b, r, e, o, i)                                                              \
    ck_assert_msg(ic_sim_expect_data(&(w)->sim, (b), (r), (e), (o), (i)) == 0, "%s", (w)->sim.err)
#define EXPECT_RED(w, b, r, e, lo, hi, i)                                                          \
    ck_assert_msg(ic_sim_expect_reduced(&(w)->sim, (b), (r), (e), (lo), (hi), (i)) == 0, "%s",     \
                  (w)->sim.err)

START_TEST(test_ping)
{
    world_t w;
    world_init(&w, 2, 4, 4);
    ic_sched_send(&w.s[0], 1, SND(0, 4));
    ic_sched_recv(&w.s[1], 0, RCV(0, 4));
    ck_assert_msg(world_run(&w) == 0, "%s", w.sim.err);
    for (int e = 0; e < 4; e++)
        EXPECT_DATA(&w, IC_BUF_RECV, 1, (size_t)e, 0, e);
    /* rank 0's receive buffer was never written */
    ck_assert_int_eq(ic_sim_at(&w.sim, IC_BUF_RECV, 0, 0)->flags, 0);
    ck_assert_uint_eq(w.sim.nmsgs, 1);
    world_free(&w);
}
END_TEST

/* A sub-range: offsets are honoured on both sides. */
START_TEST(test_ping_offsets)
{
    world_t w;
    world_init(&w, 2, 6, 6);
    ic_sched_send(&w.s[0], 1, SND(2, 3));
    ic_sched_recv(&w.s[1], 0, RCV(1, 3));
    ck_assert_msg(world_run(&w) == 0, "%s", w.sim.err);
    ck_assert_int_eq(ic_sim_at(&w.sim, IC_BUF_RECV, 1, 0)->flags, 0);
    for (int e = 0; e < 3; e++)
        EXPECT_DATA(&w, IC_BUF_RECV, 1, (size_t)e + 1, 0, e + 2);
    ck_assert_int_eq(ic_sim_at(&w.sim, IC_BUF_RECV, 1, 4)->flags, 0);
    ck_assert_int_ne(ic_sim_expect_data(&w.sim, IC_BUF_RECV, 1, 1, 0, 1), 0);
    world_free(&w);
}
END_TEST

/* Both ranks send and receive in one round: fine even under rendezvous. */
START_TEST(test_exchange)
{
    world_t w;
    world_init(&w, 2, 3, 3);
    for (int r = 0; r < 2; r++) {
        ic_sched_send(&w.s[r], 1 - r, SND(0, 3));
        ic_sched_recv(&w.s[r], 1 - r, RCV(0, 3));
    }
    ck_assert_msg(world_run(&w) == 0, "%s", w.sim.err);
    for (int r = 0; r < 2; r++)
        for (int e = 0; e < 3; e++)
            EXPECT_DATA(&w, IC_BUF_RECV, r, (size_t)e, 1 - r, e);
    world_free(&w);
}
END_TEST

/* Pass a token around a ring of p ranks, one block per hop, like a bucket
 * step: round k, rank r forwards what it received in round k-1.  After p-1
 * rounds rank r holds every origin's element 0 at position origin. */
START_TEST(test_ring)
{
    int p = 7;
    world_t w;
    world_init(&w, p, 1, (size_t)p);
    for (int r = 0; r < p; r++) {
        ic_sched_copy(&w.s[r], SND(0, 1), RCV((size_t)r, 1));
        for (int k = 0; k < p - 1; k++) {
            ic_sched_round(&w.s[r]);
            int sb = ((r - k) % p + p) % p, rb = ((r - k - 1) % p + p) % p;
            ic_sched_send(&w.s[r], (r + 1) % p, RCV((size_t)sb, 1));
            ic_sched_recv(&w.s[r], (r + p - 1) % p, RCV((size_t)rb, 1));
        }
    }
    ck_assert_msg(world_run(&w) == 0, "%s", w.sim.err);
    for (int r = 0; r < p; r++)
        for (int o = 0; o < p; o++)
            EXPECT_DATA(&w, IC_BUF_RECV, r, (size_t)o, o, 0);
    ck_assert_uint_eq(w.sim.nmsgs, (size_t)(p * (p - 1)));
    world_free(&w);
}
END_TEST

/* Messages between one pair match in posting order, across rounds: rank 0
 * posts two sends in two rounds, rank 1 posts both receives in one later
 * round (eager mode, so rank 0 does not wait). */
START_TEST(test_nonovertaking)
{
    world_t w;
    world_init(&w, 2, 2, 2);
    w.sim.rendezvous = 0;
    ic_sched_send(&w.s[0], 1, SND(1, 1));
    ic_sched_round(&w.s[0]);
    ic_sched_send(&w.s[0], 1, SND(0, 1));
    ic_sched_copy(&w.s[1], SND(0, 1), SCR(0, 1));
    ic_sched_need(&w.s[1], IC_BUF_SCRATCH, 1);
    ic_sched_round(&w.s[1]);
    ic_sched_recv(&w.s[1], 0, RCV(0, 1));
    ic_sched_recv(&w.s[1], 0, RCV(1, 1));
    ck_assert_msg(world_run(&w) == 0, "%s", w.sim.err);
    EXPECT_DATA(&w, IC_BUF_RECV, 1, 0, 0, 1);
    EXPECT_DATA(&w, IC_BUF_RECV, 1, 1, 0, 0);
    EXPECT_DATA(&w, IC_BUF_SCRATCH, 1, 0, 1, 0);
    world_free(&w);
}
END_TEST

/* Eager sends are snapshotted when posted: the sender overwrites the region
 * after its round, the receiver (posting later) still gets the old data. */
START_TEST(test_eager_snapshot)
{
    world_t w;
    world_init(&w, 2, 2, 2);
    w.sim.rendezvous = 0;
    ic_sched_need(&w.s[0], IC_BUF_SCRATCH, 1);
    ic_sched_copy(&w.s[0], SND(0, 1), SCR(0, 1));
    ic_sched_round(&w.s[0]);
    ic_sched_send(&w.s[0], 1, SCR(0, 1));
    ic_sched_round(&w.s[0]);
    ic_sched_copy(&w.s[0], SND(1, 1), SCR(0, 1));
    ic_sched_round(&w.s[0]);
    ic_sched_send(&w.s[0], 1, SCR(0, 1));
    ic_sched_recv(&w.s[1], 0, RCV(0, 1));
    ic_sched_recv(&w.s[1], 0, RCV(1, 1));
    ck_assert_msg(world_run(&w) == 0, "%s", w.sim.err);
    EXPECT_DATA(&w, IC_BUF_RECV, 1, 0, 0, 0);
    EXPECT_DATA(&w, IC_BUF_RECV, 1, 1, 0, 1);
    world_free(&w);
}
END_TEST

/* Both ranks receive first: a deadlock in any protocol. */
START_TEST(test_deadlock_recv_first)
{
    world_t w;
    world_init(&w, 2, 1, 1);
    for (int r = 0; r < 2; r++) {
        ic_sched_recv(&w.s[r], 1 - r, RCV(0, 1));
        ic_sched_round(&w.s[r]);
        ic_sched_send(&w.s[r], 1 - r, SND(0, 1));
    }
    w.sim.rendezvous = 0;
    ck_assert_int_eq(world_run(&w), -1);
    ck_assert_ptr_nonnull(strstr(w.sim.err, "deadlock"));
    ck_assert_ptr_nonnull(strstr(w.sim.err, "rank 0 round 0 waits for recv<-1"));
    ck_assert_ptr_nonnull(strstr(w.sim.err, "rank 1 round 0 waits for recv<-0"));
    world_free(&w);
}
END_TEST

/* Both ranks send first (in a round of their own), then receive: fine with
 * eager sends, a deadlock under rendezvous. */
START_TEST(test_deadlock_rendezvous)
{
    for (int rdv = 0; rdv < 2; rdv++) {
        world_t w;
        world_init(&w, 2, 1, 1);
        w.sim.rendezvous = rdv;
        for (int r = 0; r < 2; r++) {
            ic_sched_send(&w.s[r], 1 - r, SND(0, 1));
            ic_sched_round(&w.s[r]);
            ic_sched_recv(&w.s[r], 1 - r, RCV(0, 1));
        }
        if (rdv) {
            ck_assert_int_eq(world_run(&w), -1);
            ck_assert_ptr_nonnull(strstr(w.sim.err, "rank 0 round 0 waits for send->1"));
        } else {
            ck_assert_msg(world_run(&w) == 0, "%s", w.sim.err);
            EXPECT_DATA(&w, IC_BUF_RECV, 0, 0, 1, 0);
            EXPECT_DATA(&w, IC_BUF_RECV, 1, 0, 0, 0);
        }
        world_free(&w);
    }
}
END_TEST

/* A send nobody receives: rendezvous deadlock; eager: unmatched at the end. */
START_TEST(test_unmatched_send)
{
    for (int rdv = 0; rdv < 2; rdv++) {
        world_t w;
        world_init(&w, 2, 1, 1);
        w.sim.rendezvous = rdv;
        ic_sched_send(&w.s[0], 1, SND(0, 1));
        ck_assert_int_eq(world_run(&w), -1);
        ck_assert_ptr_nonnull(strstr(w.sim.err, rdv ? "deadlock" : "never received"));
        world_free(&w);
    }
}
END_TEST

START_TEST(test_count_mismatch)
{
    world_t w;
    world_init(&w, 2, 4, 4);
    ic_sched_send(&w.s[0], 1, SND(0, 3));
    ic_sched_recv(&w.s[1], 0, RCV(0, 4));
    ck_assert_int_eq(world_run(&w), -1);
    ck_assert_ptr_nonnull(strstr(w.sim.err, "count mismatch"));
    world_free(&w);
}
END_TEST

START_TEST(test_out_of_bounds)
{
    /* recv beyond RECV, send beyond SEND, scratch beyond the rank's need,
     * a huge offset that would overflow off + count */
    for (int c = 0; c < 4; c++) {
        world_t w;
        world_init(&w, 2, 4, 4);
        ic_sched_need(&w.s[1], IC_BUF_SCRATCH, 2);
        ic_sched_need(&w.s[0], IC_BUF_SCRATCH, 8); /* the max over ranks is larger */
        ic_region_t src = SND(0, 2), dst = RCV(0, 2);
        if (c == 0)
            dst = RCV(3, 2);
        else if (c == 1)
            src = SND(3, 2);
        else if (c == 2)
            dst = SCR(1, 2);
        else
            dst = RCV((size_t)-1, 2);
        ic_sched_send(&w.s[0], 1, src);
        ic_sched_recv(&w.s[1], 0, dst);
        ck_assert_int_eq(world_run(&w), -1);
        ck_assert_msg(strstr(w.sim.err, "beyond") != NULL, "%s", w.sim.err);
        world_free(&w);
    }
}
END_TEST

START_TEST(test_bad_peer_and_rank)
{
    world_t w;
    world_init(&w, 2, 1, 1);
    ic_sched_send(&w.s[0], 2, SND(0, 1));
    ck_assert_int_eq(world_run(&w), -1);
    ck_assert_ptr_nonnull(strstr(w.sim.err, "peer 2 out of range"));
    world_free(&w);

    world_init(&w, 2, 1, 1);
    w.s[1].rank = 0;
    ck_assert_int_eq(world_run(&w), -1);
    ck_assert_ptr_nonnull(strstr(w.sim.err, "belongs to rank 0"));
    world_free(&w);
}
END_TEST

START_TEST(test_overlapping_regions)
{
    /* c = 0: two overlapping receives; 1: receive over a send region;
     * 2: receive into the send buffer; 3: adjacent regions are fine */
    for (int c = 0; c < 4; c++) {
        world_t w;
        world_init(&w, 3, 4, 4);
        ic_sched_send(&w.s[1], 0, SND(0, 2));
        ic_sched_send(&w.s[2], 0, SND(0, 2));
        if (c == 0) {
            ic_sched_recv(&w.s[0], 1, RCV(0, 2));
            ic_sched_recv(&w.s[0], 2, RCV(1, 2));
        } else if (c == 1) {
            ic_sched_send(&w.s[0], 1, RCV(1, 2));
            ic_sched_recv(&w.s[1], 0, RCV(0, 2));
            ic_sched_recv(&w.s[0], 1, RCV(0, 2));
            ic_sched_recv(&w.s[0], 2, RCV(2, 2));
        } else if (c == 2) {
            ic_sched_recv(&w.s[0], 1, SND(0, 2));
            ic_sched_recv(&w.s[0], 2, RCV(2, 2));
        } else {
            ic_sched_recv(&w.s[0], 2, RCV(2, 2));
            ic_sched_recv(&w.s[0], 1, RCV(0, 2));
        }
        if (c < 3) {
            ck_assert_int_eq(world_run(&w), -1);
            ck_assert_msg(strstr(w.sim.err, c == 2 ? "send buffer" : "overlaps") != NULL, "%s",
                          w.sim.err);
        } else {
            ck_assert_msg(world_run(&w) == 0, "%s", w.sim.err);
            EXPECT_DATA(&w, IC_BUF_RECV, 0, 1, 1, 1);
            EXPECT_DATA(&w, IC_BUF_RECV, 0, 2, 2, 0);
        }
        world_free(&w);
    }
}
END_TEST

/* Local copy and reduce rule checks. */
START_TEST(test_local_rules)
{
    for (int c = 0; c < 4; c++) {
        world_t w;
        world_init(&w, 1, 4, 4);
        if (c == 0)
            ic_sched_copy(&w.s[0], RCV(0, 2), RCV(1, 2)); /* overlapping copy */
        else if (c == 1)
            ic_sched_reduce(&w.s[0], RCV(0, 2), RCV(1, 2), 0); /* overlapping reduce */
        else if (c == 2)
            ic_sched_copy(&w.s[0], RCV(0, 2), SND(0, 2)); /* writes SEND */
        else
            ic_sched_copy(&w.s[0], SND(0, 2), RCV(0, 3)); /* counts differ */
        ck_assert_int_eq(world_run(&w), -1);
        world_free(&w);
    }
    /* an identical copy is a no-op, and a plain copy moves data */
    world_t w;
    world_init(&w, 1, 4, 4);
    ic_sched_copy(&w.s[0], SND(1, 3), RCV(0, 3));
    ic_sched_copy(&w.s[0], RCV(0, 3), RCV(0, 3));
    ck_assert_msg(world_run(&w) == 0, "%s", w.sim.err);
    for (int e = 0; e < 3; e++)
        EXPECT_DATA(&w, IC_BUF_RECV, 0, (size_t)e, 0, e + 1);
    world_free(&w);
}
END_TEST

/* Chain reduction 0 -> 1 -> 2 -> 3 keeping order: rank r receives the
 * partial x_0..x_{r-1} and combines it in front of its own (src_first). */
static void build_chain_reduce(world_t *w, int src_first_ok)
{
    int p = w->p;
    for (int r = 0; r < p; r++) {
        ic_sched_t *s = &w->s[r];
        ic_sched_need(s, IC_BUF_SCRATCH, 2);
        ic_sched_copy(s, SND(0, 2), RCV(0, 2));
        if (r > 0) {
            ic_sched_round(s);
            ic_sched_recv(s, r - 1, SCR(0, 2));
            ic_sched_reduce(s, SCR(0, 2), RCV(0, 2), src_first_ok);
        }
        if (r < p - 1) {
            ic_sched_round(s);
            ic_sched_send(s, r + 1, RCV(0, 2));
        }
    }
}

START_TEST(test_ordered_reduce)
{
    for (int sf = 0; sf < 2; sf++) {
        world_t w;
        world_init(&w, 4, 2, 2);
        w.sim.ordered = 1;
        build_chain_reduce(&w, sf);
        ck_assert_msg(world_run(&w) == 0, "%s", w.sim.err);
        for (int e = 0; e < 2; e++) {
            if (sf) {
                EXPECT_RED(&w, IC_BUF_RECV, 3, (size_t)e, 0, 3, e);
                EXPECT_RED(&w, IC_BUF_RECV, 2, (size_t)e, 0, 2, e);
            } else {
                ck_assert_int_ne(ic_sim_expect_reduced(&w.sim, IC_BUF_RECV, 3, (size_t)e, 0, 3, e),
                                 0);
                ck_assert(ic_sim_at(&w.sim, IC_BUF_RECV, 3, (size_t)e)->flags & IC_SIM_BAD);
            }
        }
        ck_assert_uint_eq(w.sim.nbad, sf ? 0 : 2 * 3);
        world_free(&w);
    }
}
END_TEST

/* The wrong order is fine when the op commutes. */
START_TEST(test_commutative_reduce)
{
    world_t w;
    world_init(&w, 4, 2, 2);
    build_chain_reduce(&w, 0);
    ck_assert_msg(world_run(&w) == 0, "%s", w.sim.err);
    int set[4] = {3, 1, 0, 2}, part[3] = {2, 0, 3};
    for (int e = 0; e < 2; e++) {
        EXPECT_RED(&w, IC_BUF_RECV, 3, (size_t)e, 0, 3, e);
        ck_assert_msg(ic_sim_expect_reduced_set(&w.sim, IC_BUF_RECV, 3, (size_t)e, set, 4, e) == 0,
                      "%s", w.sim.err);
        ck_assert_int_ne(ic_sim_expect_reduced_set(&w.sim, IC_BUF_RECV, 3, (size_t)e, part, 3, e),
                         0);
    }
    ck_assert_uint_eq(w.sim.nbad, 0);
    world_free(&w);
}
END_TEST

/* Rank 1 combines rank 0's contribution twice. */
START_TEST(test_commutative_duplicate)
{
    world_t w;
    world_init(&w, 3, 1, 1);
    ic_sched_need(&w.s[1], IC_BUF_SCRATCH, 1);
    ic_sched_send(&w.s[0], 1, SND(0, 1));
    ic_sched_round(&w.s[0]);
    ic_sched_send(&w.s[0], 1, SND(0, 1));
    ic_sched_copy(&w.s[1], SND(0, 1), RCV(0, 1));
    for (int k = 0; k < 2; k++) {
        ic_sched_round(&w.s[1]);
        ic_sched_recv(&w.s[1], 0, SCR(0, 1));
        ic_sched_reduce(&w.s[1], SCR(0, 1), RCV(0, 1), 0);
    }
    ck_assert_msg(world_run(&w) == 0, "%s", w.sim.err);
    ck_assert(ic_sim_at(&w.sim, IC_BUF_RECV, 1, 0)->flags & IC_SIM_BAD);
    ck_assert_uint_eq(w.sim.nbad, 1);
    ck_assert_int_ne(ic_sim_expect_reduced(&w.sim, IC_BUF_RECV, 1, 0, 0, 1, 0), 0);
    world_free(&w);
}
END_TEST

/* Above 64 ranks the set is tracked by hash sums: a result that counts
 * rank 70 twice and misses rank 71 has the right size and range but fails. */
START_TEST(test_commutative_large_p)
{
    int p = 100;
    world_t w;
    world_init(&w, p, 1, 1);
    /* linear reduction onto rank 0: everyone sends, rank 0 adds in turn */
    ic_sched_need(&w.s[0], IC_BUF_SCRATCH, 1);
    ic_sched_copy(&w.s[0], SND(0, 1), RCV(0, 1));
    for (int r = 1; r < p; r++) {
        int from = r == 71 ? 70 : r;
        ic_sched_round(&w.s[0]);
        ic_sched_recv(&w.s[0], from, SCR(0, 1));
        ic_sched_reduce(&w.s[0], SCR(0, 1), RCV(0, 1), 0);
        ic_sched_send(&w.s[from], 0, SND(0, 1));
        ic_sched_round(&w.s[from]);
    }
    ck_assert_msg(world_run(&w) == 0, "%s", w.sim.err);
    const ic_sim_elem_t *x = ic_sim_at(&w.sim, IC_BUF_RECV, 0, 0);
    ck_assert_int_eq(x->nranks, p);
    ck_assert_int_eq(x->lo, 0);
    ck_assert_int_eq(x->hi, p - 1);
    ck_assert_int_ne(ic_sim_expect_reduced(&w.sim, IC_BUF_RECV, 0, 0, 0, p - 1, 0), 0);
    world_free(&w);

    /* and the correct linear reduction passes */
    world_init(&w, p, 1, 1);
    ic_sched_need(&w.s[0], IC_BUF_SCRATCH, 1);
    ic_sched_copy(&w.s[0], SND(0, 1), RCV(0, 1));
    for (int r = 1; r < p; r++) {
        ic_sched_round(&w.s[0]);
        ic_sched_recv(&w.s[0], r, SCR(0, 1));
        ic_sched_reduce(&w.s[0], SCR(0, 1), RCV(0, 1), 0);
        ic_sched_send(&w.s[r], 0, SND(0, 1));
    }
    ck_assert_msg(world_run(&w) == 0, "%s", w.sim.err);
    EXPECT_RED(&w, IC_BUF_RECV, 0, 0, 0, p - 1, 0);
    world_free(&w);
}
END_TEST

/* Combining element 0 with element 1 (misaligned offsets) is BAD, as is
 * reducing an undefined element. */
START_TEST(test_index_mismatch)
{
    world_t w;
    world_init(&w, 2, 2, 2);
    ic_sched_need(&w.s[1], IC_BUF_SCRATCH, 1);
    ic_sched_send(&w.s[0], 1, SND(1, 1));
    ic_sched_recv(&w.s[1], 0, SCR(0, 1));
    ic_sched_copy(&w.s[1], SND(0, 2), RCV(0, 2));
    ic_sched_reduce(&w.s[1], SCR(0, 1), RCV(0, 1), 0);
    ck_assert_msg(world_run(&w) == 0, "%s", w.sim.err);
    ck_assert(ic_sim_at(&w.sim, IC_BUF_RECV, 1, 0)->flags & IC_SIM_BAD);
    EXPECT_DATA(&w, IC_BUF_RECV, 1, 1, 1, 1);
    world_free(&w);

    world_init(&w, 1, 1, 1);
    ic_sched_reduce(&w.s[0], SND(0, 1), RCV(0, 1), 0); /* RECV is undefined */
    ck_assert_msg(world_run(&w) == 0, "%s", w.sim.err);
    ck_assert(ic_sim_at(&w.sim, IC_BUF_RECV, 0, 0)->flags & IC_SIM_BAD);
    ck_assert_uint_eq(w.sim.nbad, 1);
    world_free(&w);
}
END_TEST

/* Sending undefined elements is allowed; they arrive undefined. */
START_TEST(test_send_undefined)
{
    world_t w;
    world_init(&w, 2, 1, 2);
    ic_sched_send(&w.s[0], 1, RCV(0, 2));
    ic_sched_recv(&w.s[1], 0, RCV(0, 2));
    ck_assert_msg(world_run(&w) == 0, "%s", w.sim.err);
    ck_assert_int_eq(ic_sim_at(&w.sim, IC_BUF_RECV, 1, 0)->flags, 0);
    ck_assert_int_ne(ic_sim_expect_data(&w.sim, IC_BUF_RECV, 1, 0, 0, 0), 0);
    ck_assert_ptr_nonnull(strstr(w.sim.err, "undefined"));
    world_free(&w);
}
END_TEST

/* Recursive doubling allreduce on p = 1024 (2^10) ranks with 1000 elements
 * and a binomial broadcast on p = 1000: large runs stay fast and exact. */
START_TEST(test_large)
{
    int p = 1024;
    size_t n = 1000;
    world_t w;
    world_init(&w, p, n, n);
    for (int r = 0; r < p; r++) {
        ic_sched_t *s = &w.s[r];
        ic_sched_need(s, IC_BUF_SCRATCH, n);
        ic_sched_copy(s, SND(0, n), RCV(0, n));
        for (int m = 1; m < p; m <<= 1) {
            ic_sched_round(s);
            ic_sched_send(s, r ^ m, RCV(0, n));
            ic_sched_recv(s, r ^ m, SCR(0, n));
            ic_sched_reduce(s, SCR(0, n), RCV(0, n), 0);
        }
    }
    ck_assert_msg(world_run(&w) == 0, "%s", w.sim.err);
    for (int r = 0; r < p; r += 97)
        for (size_t e = 0; e < n; e += 111)
            EXPECT_RED(&w, IC_BUF_RECV, r, e, 0, p - 1, (int)e);
    ck_assert_uint_eq(w.sim.nbad, 0);
    world_free(&w);

    p = 1000;
    world_init(&w, p, n, n);
    for (int r = 0; r < p; r++) {
        ic_sched_t *s = &w.s[r];
        if (r == 0)
            ic_sched_copy(s, SND(0, n), RCV(0, n));
        int m = 1;
        while (m < p)
            m <<= 1;
        for (m >>= 1; m >= 1; m >>= 1) {
            ic_sched_round(s);
            if (r % (2 * m) == 0 && r + m < p)
                ic_sched_send(s, r + m, RCV(0, n));
            else if (r % (2 * m) == m)
                ic_sched_recv(s, r - m, RCV(0, n));
        }
    }
    ck_assert_msg(world_run(&w) == 0, "%s", w.sim.err);
    for (int r = 0; r < p; r += 7)
        EXPECT_DATA(&w, IC_BUF_RECV, r, n - 1, 0, (int)n - 1);
    ck_assert_uint_eq(w.sim.nmsgs, (size_t)(p - 1));
    world_free(&w);
}
END_TEST

Suite *suite_sim(void)
{
    Suite *s = suite_create("sim");
    TCase *tc = tcase_create("sim");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_ping);
    tcase_add_test(tc, test_ping_offsets);
    tcase_add_test(tc, test_exchange);
    tcase_add_test(tc, test_ring);
    tcase_add_test(tc, test_nonovertaking);
    tcase_add_test(tc, test_eager_snapshot);
    tcase_add_test(tc, test_deadlock_recv_first);
    tcase_add_test(tc, test_deadlock_rendezvous);
    tcase_add_test(tc, test_unmatched_send);
    tcase_add_test(tc, test_count_mismatch);
    tcase_add_test(tc, test_out_of_bounds);
    tcase_add_test(tc, test_bad_peer_and_rank);
    tcase_add_test(tc, test_overlapping_regions);
    tcase_add_test(tc, test_local_rules);
    tcase_add_test(tc, test_ordered_reduce);
    tcase_add_test(tc, test_commutative_reduce);
    tcase_add_test(tc, test_commutative_duplicate);
    tcase_add_test(tc, test_commutative_large_p);
    tcase_add_test(tc, test_index_mismatch);
    tcase_add_test(tc, test_send_undefined);
    tcase_add_test(tc, test_large);
    suite_add_tcase(s, tc);
    return s;
}
