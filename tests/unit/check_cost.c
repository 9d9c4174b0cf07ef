/*
 * check_cost.c -- unit tests of the cost evaluator (tuning/cost.c) on
 * hand-built schedules with known answers, in the plain alpha-beta-gamma
 * model and the split send/receive model.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "schedule.h"

#define TOL 1e-12

typedef struct world {
    int p;
    ic_sched_t *s;
    ic_cost_params_t c;
    ic_cost_result_t res;
} world_t;

/* Round numbers, exact in binary where possible. */
static void world_init(world_t *w, int p)
{
    w->p = p;
    w->s = calloc((size_t)p, sizeof(*w->s));
    ck_assert_ptr_nonnull(w->s);
    for (int r = 0; r < p; r++)
        ic_sched_init(&w->s[r], r, p);
    ic_cost_defaults(&w->c);
    w->c.alpha = 1.0;
    w->c.beta = 1.0 / 64;
    w->c.gamma = 1.0 / 256;
    w->c.delta = 1.0 / 1024;
    w->c.alpha_s = 0.25;
    w->c.alpha_r = 0.75;
    w->c.beta_s = 1.0 / 256;
    w->c.beta_r = 3.0 / 256;
    memset(&w->res, 0, sizeof(w->res));
}

static void world_free(world_t *w)
{
    for (int r = 0; r < w->p; r++)
        ic_sched_free(&w->s[r]);
    free(w->s);
    ic_cost_result_free(&w->res);
}

static int eval(world_t *w)
{
    ic_cost_result_free(&w->res);
    return ic_cost_eval(w->s, w->p, &w->c, 1, &w->res);
}

#define SND(off, n) ic_reg(IC_BUF_SEND, (off), (n))
#define RCV(off, n) ic_reg(IC_BUF_RECV, (off), (n))
#define TEQ(a, b) ck_assert_double_eq_tol((a), (b), TOL)

START_TEST(test_defaults)
{
    ic_cost_params_t c;
    ic_cost_defaults(&c);
    TEQ(c.alpha, 20e-6);
    TEQ(c.beta, 1e-8);
    TEQ(c.gamma, 1e-9);
    TEQ(c.delta, 0);
    ck_assert_int_eq(c.split, 0);
    TEQ(c.alpha_s + c.alpha_r, c.alpha);
    TEQ(c.beta_s + c.beta_r, c.beta);
    for (int b = 0; b < IC_NBUF; b++)
        ck_assert_uint_eq(c.elem_size[b], 1);
    ck_assert_int_eq(c.links, 0); /* not measured */
}
END_TEST

/* A source's send window (cost.h): the fewest synchronous sends of s
 * bytes under way whose w s beta covers a round trip, 2 alpha + s beta;
 * at least 2, and 2 without figures. */
START_TEST(test_send_window)
{
    ic_cost_params_t c;
    ic_cost_defaults(&c);
    c.alpha = 2e-6;
    c.beta = 1e-10;
    ck_assert_int_eq(ic_cost_send_window(&c, 4000), 11); /* 2 alpha = 10 s beta */
    ck_assert_int_eq(ic_cost_send_window(&c, 4001), 11); /* 9.998 rounds up */
    ck_assert_int_eq(ic_cost_send_window(&c, 6144), 8);  /* 1 + 6.51 rounded up */
    ck_assert_int_eq(ic_cost_send_window(&c, 1 << 24), 2);
    for (size_t s = 1024; s < (1u << 22); s = s * 3 / 2) {
        int w = ic_cost_send_window(&c, s);
        double t = (double)s * c.beta;
        ck_assert(w * t >= 2 * c.alpha + t - 1e-15 || w == 2);
        ck_assert(w == 2 || (w - 1) * t < 2 * c.alpha + t);
    }
    ck_assert_int_eq(ic_cost_send_window(&c, 0), 2);
    c.alpha = 0;
    ck_assert_int_eq(ic_cost_send_window(&c, 4096), 2);
    c.alpha = 1;
    ck_assert_int_eq(ic_cost_send_window(&c, 1), 1 << 16); /* bounded */
}
END_TEST

START_TEST(test_empty)
{
    world_t w;
    world_init(&w, 3);
    ck_assert_int_eq(eval(&w), 0);
    TEQ(w.res.time, 0);
    ck_assert_uint_eq(w.res.nevents, 0);
    world_free(&w);
}
END_TEST

/* One message: alpha + n beta, in both models (alpha = alpha_s + alpha_r,
 * beta = beta_s + beta_r); element size scales the bytes. */
START_TEST(test_ping)
{
    for (int split = 0; split < 2; split++) {
        world_t w;
        world_init(&w, 2);
        w.c.split = split;
        w.c.elem_size[IC_BUF_SEND] = 4;
        ic_sched_send(&w.s[0], 1, SND(0, 32));
        ic_sched_recv(&w.s[1], 0, RCV(0, 32));
        ck_assert_int_eq(eval(&w), 0);
        double t = 1.0 + 128.0 / 64;
        TEQ(w.res.time, t);
        TEQ(w.res.rank_time[1], t);
        /* the split sender is done after S(n) = 0.25 + 128/256 */
        TEQ(w.res.rank_time[0], split ? 0.75 : t);
        ck_assert_uint_eq(w.res.nevents, 1);
        ck_assert_int_eq(w.res.events[0].src, 0);
        ck_assert_int_eq(w.res.events[0].dst, 1);
        ck_assert_uint_eq(w.res.events[0].bytes, 128);
        TEQ(w.res.events[0].start, 0);
        TEQ(w.res.events[0].end, t);
        world_free(&w);
    }
}
END_TEST

/* A chain 0 -> 1 -> ... -> k: rank i has its data at i (alpha + n beta) and
 * is done once it has passed it on, at (i + 1)(alpha + n beta); the last
 * rank at k (alpha + n beta). */
START_TEST(test_chain)
{
    int k = 5;
    world_t w;
    world_init(&w, k + 1);
    for (int r = 0; r <= k; r++) {
        if (r > 0)
            ic_sched_recv(&w.s[r], r - 1, RCV(0, 64));
        ic_sched_round(&w.s[r]);
        if (r < k)
            ic_sched_send(&w.s[r], r + 1, RCV(0, 64));
    }
    ck_assert_int_eq(eval(&w), 0);
    for (int r = 0; r <= k; r++)
        TEQ(w.res.rank_time[r], (r < k ? r + 1 : k) * 2.0);
    for (int i = 0; i < k; i++)
        TEQ(w.res.events[i].start, i * 2.0);
    TEQ(w.res.time, k * 2.0);
    world_free(&w);
}
END_TEST

/* One rank sends two messages in one round: serialised. */
START_TEST(test_two_sends)
{
    world_t w;
    world_init(&w, 3);
    ic_sched_send(&w.s[0], 1, SND(0, 64));
    ic_sched_send(&w.s[0], 2, SND(0, 64));
    ic_sched_recv(&w.s[1], 0, RCV(0, 64));
    ic_sched_recv(&w.s[2], 0, RCV(0, 64));
    ck_assert_int_eq(eval(&w), 0);
    TEQ(w.res.rank_time[1], 2.0);
    TEQ(w.res.rank_time[2], 4.0);
    TEQ(w.res.time, 4.0);
    world_free(&w);
}
END_TEST

/* One rank receives two messages in one round: serialised as well. */
START_TEST(test_two_recvs)
{
    world_t w;
    world_init(&w, 3);
    ic_sched_recv(&w.s[0], 1, RCV(0, 64));
    ic_sched_recv(&w.s[0], 2, RCV(64, 64));
    ic_sched_send(&w.s[1], 0, SND(0, 64));
    ic_sched_send(&w.s[2], 0, SND(0, 64));
    ck_assert_int_eq(eval(&w), 0);
    TEQ(w.res.rank_time[0], 4.0);
    TEQ(w.res.rank_time[1], 2.0);
    TEQ(w.res.rank_time[2], 4.0);
    world_free(&w);
}
END_TEST

/* Simultaneous send and receive overlap (full duplex): an exchange costs one
 * message time, and so does a shift around a ring. */
START_TEST(test_duplex)
{
    int p = 4;
    world_t w;
    world_init(&w, p);
    for (int r = 0; r < p; r++) {
        ic_sched_send(&w.s[r], (r + 1) % p, SND(0, 64));
        ic_sched_recv(&w.s[r], (r + p - 1) % p, RCV(0, 64));
    }
    ck_assert_int_eq(eval(&w), 0);
    TEQ(w.res.time, 2.0);
    ck_assert_uint_eq(w.res.nevents, (size_t)p);
    world_free(&w);
}
END_TEST

/* A message waits for the later of both sides: the receiver first spends
 * 64 delta = 1/16 on a copy. */
START_TEST(test_late_receiver)
{
    for (int split = 0; split < 2; split++) {
        world_t w;
        world_init(&w, 2);
        w.c.split = split;
        ic_sched_send(&w.s[0], 1, SND(0, 64));
        ic_sched_copy(&w.s[1], SND(0, 64), RCV(0, 64));
        ic_sched_round(&w.s[1]);
        ic_sched_recv(&w.s[1], 0, RCV(64, 64));
        ck_assert_int_eq(eval(&w), 0);
        if (!split) {
            /* start at 1/16, then alpha + 64 beta = 2 */
            TEQ(w.res.time, 1.0 / 16 + 2.0);
        } else {
            /* S(64) = 0.5 ends at 0.5 > 1/16, then R(64) = 1.5 */
            TEQ(w.res.rank_time[0], 0.5);
            TEQ(w.res.time, 2.0);
        }
        world_free(&w);
    }
}
END_TEST

/* Receive then reduce: alpha + n beta + n gamma; a copy adds n delta. */
START_TEST(test_reduce_copy)
{
    world_t w;
    world_init(&w, 2);
    w.c.elem_size[IC_BUF_RECV] = 2;
    ic_sched_send(&w.s[0], 1, SND(0, 128));
    ic_sched_need(&w.s[1], IC_BUF_SCRATCH, 128);
    ic_sched_recv(&w.s[1], 0, ic_reg(IC_BUF_SCRATCH, 0, 128));
    ic_sched_reduce(&w.s[1], ic_reg(IC_BUF_SCRATCH, 0, 128), RCV(0, 128), 0);
    ic_sched_copy(&w.s[1], RCV(0, 128), RCV(128, 128));
    ck_assert_int_eq(eval(&w), 0);
    /* message of 128 bytes (SEND elements are 1 byte), reduce and copy of
     * 256 bytes (RECV elements are 2 bytes) */
    TEQ(w.res.rank_time[1], 1.0 + 2.0 + 1.0 + 0.25);
    TEQ(w.res.rank_time[0], 3.0);
    world_free(&w);
}
END_TEST

/* Split model: a fan-out of k sends in one round finishes receiver i at
 * i S(n) + R(n); a fan-in of k receives finishes the root at S(n) + k R(n). */
START_TEST(test_split_fan)
{
    int k = 4;
    double S = 0.25 + 64.0 / 256, R = 0.75 + 3 * 64.0 / 256;
    world_t w;
    world_init(&w, k + 1);
    w.c.split = 1;
    for (int i = 1; i <= k; i++) {
        ic_sched_send(&w.s[0], i, SND(0, 64));
        ic_sched_recv(&w.s[i], 0, RCV(0, 64));
    }
    ck_assert_int_eq(eval(&w), 0);
    TEQ(w.res.rank_time[0], k * S);
    for (int i = 1; i <= k; i++)
        TEQ(w.res.rank_time[i], i * S + R);
    world_free(&w);

    world_init(&w, k + 1);
    w.c.split = 1;
    for (int i = 1; i <= k; i++) {
        ic_sched_recv(&w.s[0], i, RCV((size_t)i * 64, 64));
        ic_sched_send(&w.s[i], 0, SND(0, 64));
    }
    ck_assert_int_eq(eval(&w), 0);
    TEQ(w.res.rank_time[0], S + k * R);
    for (int i = 1; i <= k; i++)
        TEQ(w.res.rank_time[i], S);
    world_free(&w);

    /* the plain model charges the fan-out k (alpha + n beta) */
    world_init(&w, k + 1);
    for (int i = 1; i <= k; i++) {
        ic_sched_send(&w.s[0], i, SND(0, 64));
        ic_sched_recv(&w.s[i], 0, RCV(0, 64));
    }
    ck_assert_int_eq(eval(&w), 0);
    TEQ(w.res.time, k * 2.0);
    world_free(&w);
}
END_TEST

/* Split model, binomial broadcast on 4 ranks (0 -> 2, then 0 -> 1 and
 * 2 -> 3): the root's second send starts when its first S(n) is over, so
 * rank 1 is done at 2S + R, rank 3 at 2S + 2R = 2 (alpha + n beta), the
 * ceil(log p)(alpha + n beta) of the plain model. */
START_TEST(test_split_tree)
{
    double S = 0.25 + 64.0 / 256, R = 0.75 + 3 * 64.0 / 256;
    world_t w;
    world_init(&w, 4);
    w.c.split = 1;
    ic_sched_send(&w.s[0], 2, RCV(0, 64));
    ic_sched_round(&w.s[0]);
    ic_sched_send(&w.s[0], 1, RCV(0, 64));
    ic_sched_recv(&w.s[2], 0, RCV(0, 64));
    ic_sched_round(&w.s[2]);
    ic_sched_send(&w.s[2], 3, RCV(0, 64));
    ic_sched_recv(&w.s[1], 0, RCV(0, 64));
    ic_sched_recv(&w.s[3], 2, RCV(0, 64));
    ck_assert_int_eq(eval(&w), 0);
    TEQ(w.res.rank_time[0], 2 * S);
    TEQ(w.res.rank_time[1], 2 * S + R);
    TEQ(w.res.rank_time[2], 2 * S + R);
    TEQ(w.res.rank_time[3], 2 * S + 2 * R);
    TEQ(w.res.time, 2 * 2.0);
    w.c.split = 0;
    ck_assert_int_eq(eval(&w), 0);
    TEQ(w.res.time, 2 * 2.0);
    TEQ(w.res.rank_time[1], 2 * 2.0);
    world_free(&w);
}
END_TEST

/* Messages of one pair match in posting order across rounds: sizes 64 then
 * 128 from rank 0; rank 1 receives both in one round. */
START_TEST(test_order)
{
    world_t w;
    world_init(&w, 2);
    ic_sched_send(&w.s[0], 1, SND(0, 64));
    ic_sched_round(&w.s[0]);
    ic_sched_send(&w.s[0], 1, SND(0, 128));
    ic_sched_recv(&w.s[1], 0, RCV(0, 64));
    ic_sched_recv(&w.s[1], 0, RCV(64, 128));
    ck_assert_int_eq(eval(&w), 0);
    ck_assert_uint_eq(w.res.nevents, 2);
    ck_assert_uint_eq(w.res.events[0].bytes, 64);
    ck_assert_uint_eq(w.res.events[1].bytes, 128);
    TEQ(w.res.events[1].start, 2.0);
    TEQ(w.res.time, 2.0 + 3.0);
    world_free(&w);
}
END_TEST

START_TEST(test_deadlock)
{
    for (int split = 0; split < 2; split++) {
        world_t w;
        world_init(&w, 2);
        w.c.split = split;
        for (int r = 0; r < 2; r++) {
            ic_sched_recv(&w.s[r], 1 - r, RCV(0, 1));
            ic_sched_round(&w.s[r]);
            ic_sched_send(&w.s[r], 1 - r, SND(0, 1));
        }
        ck_assert_int_eq(eval(&w), -1);
        ck_assert_ptr_null(w.res.rank_time);
        world_free(&w);

        /* a send nobody receives */
        world_init(&w, 2);
        w.c.split = split;
        ic_sched_send(&w.s[0], 1, SND(0, 1));
        ck_assert_int_eq(eval(&w), -1);
        world_free(&w);

        /* a receive nobody sends */
        world_init(&w, 2);
        w.c.split = split;
        ic_sched_recv(&w.s[0], 1, RCV(0, 1));
        ck_assert_int_eq(eval(&w), -1);
        world_free(&w);
    }
}
END_TEST

START_TEST(test_chart_write)
{
    world_t w;
    world_init(&w, 3);
    ic_sched_send(&w.s[0], 1, SND(0, 64));
    ic_sched_recv(&w.s[1], 0, RCV(0, 64));
    ic_sched_round(&w.s[1]);
    ic_sched_send(&w.s[1], 2, RCV(0, 64));
    ic_sched_recv(&w.s[2], 1, RCV(0, 64));
    ck_assert_int_eq(eval(&w), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    ic_cost_chart_write(&w.res, f);
    fclose(f);
    int lines = 0, src, dst;
    size_t bytes;
    double st, en;
    for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n")) {
        if (l[0] == '#')
            continue;
        ck_assert_int_eq(sscanf(l, "%d %d %zu %lf %lf", &src, &dst, &bytes, &st, &en), 5);
        ck_assert_int_eq(src, lines);
        ck_assert_int_eq(dst, lines + 1);
        ck_assert_uint_eq(bytes, 64);
        TEQ(st, 2.0 * lines);
        TEQ(en, 2.0 * lines + 2.0);
        lines++;
    }
    ck_assert_int_eq(lines, 2);
    free(buf);

    /* without a chart, no events */
    ic_cost_result_free(&w.res);
    ck_assert_int_eq(ic_cost_eval(w.s, w.p, &w.c, 0, &w.res), 0);
    ck_assert_uint_eq(w.res.nevents, 0);
    TEQ(w.res.time, 4.0);
    world_free(&w);
}
END_TEST

Suite *suite_cost(void)
{
    Suite *s = suite_create("cost");
    TCase *tc = tcase_create("cost");
    tcase_add_test(tc, test_defaults);
    tcase_add_test(tc, test_send_window);
    tcase_add_test(tc, test_empty);
    tcase_add_test(tc, test_ping);
    tcase_add_test(tc, test_chain);
    tcase_add_test(tc, test_two_sends);
    tcase_add_test(tc, test_two_recvs);
    tcase_add_test(tc, test_duplex);
    tcase_add_test(tc, test_late_receiver);
    tcase_add_test(tc, test_reduce_copy);
    tcase_add_test(tc, test_split_fan);
    tcase_add_test(tc, test_split_tree);
    tcase_add_test(tc, test_order);
    tcase_add_test(tc, test_deadlock);
    tcase_add_test(tc, test_chart_write);
    suite_add_tcase(s, tc);
    return s;
}
