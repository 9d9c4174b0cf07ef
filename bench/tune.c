/*
 * tune.c -- intercom-tune (`intercom-bench tune`): measure the machine the
 * run is on, choose every collective's plan per message size by
 * measurement, and write the tuning table (README.md, "Tuning tables";
 * tuning/table.h).
 *
 * Method.
 *   1. The model: alpha and beta from a COMMS1 ping-pong between ranks 0
 *      and p-1, beta_x and x_min (exchanges both ways at once) from a
 *      COMMS2 exchange between the same ranks, gamma from
 *      MPI_Reduce_local, the rest derived from them as the library does
 *      (point.h: ic_bench_fit_model); across nodes with several ranks per
 *      node, alpha and beta within a node too (a ping-pong between rank 0
 *      and another rank of its node: the table's node-alpha, node-beta).
 *   2. The built-in choice of every point: one call with automatic
 *      selection and no table at all (INTERCOM_TUNING_FILE=none, set
 *      before the first InterCom call), its plan read back with
 *      IC_Last_algorithm, segment sizes included.
 *   3. Every rank then loads a table holding only the fitted header
 *      (IC_Tuning_load; a file per rank, so that no shared file system is
 *      needed): from there on the library sets the segment sizes of a
 *      plan forced without them exactly as it will under the written
 *      table.  The candidates of a point: the model's --candidates
 *      cheapest plans under the fitted figures (choose.h:
 *      ic_choose_plans, meshes and hybrids included), every registered
 *      algorithm that can serve the call on one line (--quick: the
 *      cheapest), on each of --shapes 2-D shapes the model's cheapest
 *      plan and its cheapest plan of ring steps (the model cannot tell
 *      which ranks are close, so shapes are measured, not ranked; ring
 *      steps only talk to line neighbours, which a network's distances
 *      cannot hurt once the lines follow it) with, where its steps have
 *      them, their twins on two counter-rotating rings (bidir_bucket.c:
 *      both directions of a torus's links, which the model cannot
 *      price), on the first half of the shapes for each stream (a step
 *      whose schedule is a stream) that is no ring step (the two trees)
 *      its plans of that step in both dimensions, in either order, also
 *      with both steps in the segment the streams price that stream's
 *      1-D plan cheapest (stream_seg; measured whatever their price: such
 *      a plan runs as one dataflow, segments going on into the next
 *      dimension as they arrive, which the closed forms' sum over the
 *      steps cannot see, and the two trees' closed form is a bound, no
 *      price to rank by), and its cheapest plan of one-round steps
 *      (every position of a line talks to every other at once: the
 *      allreduce's one_shot,
 *      the full fan-outs; on a torus whose latency grows with the
 *      distance, one round of a line costs about the farthest distance
 *      once, where a step of several rounds pays a distance each round,
 *      which the model, knowing no distances, cannot see; on a shape
 *      whose lines are short in one dimension and long in the other,
 *      instead: one-round steps on the short lines and priced steps on
 *      the long ones, a node's ranks all at once and the halving or
 *      doubling across nodes), those twins
 *      of the 1-D plans too, every stream on one line, each 1-D plan of a
 *      segmented algorithm also in the segment the ping-pong's measured
 *      times price cheapest and in the one the streams' gaps price
 *      cheapest, each where that is more than twice apart from the
 *      fitted line's (measured_seg, stream_seg: a network whose start-up
 *      and rate change with the length, a pipeline that pays a hop's
 *      latency once), and the built-in choice (as it ran without
 *      a table, and with the segment sizes the fitted model sets); each
 *      forced in turn with IC_Set_algorithm.
 *   4. Measurement, rounds of: every candidate in turn (the order rotating
 *      from round to round) makes one untimed call, then a block of timed
 *      calls, each after a barrier; a call's time is that of its slowest
 *      rank.  So each candidate runs in its own steady state, its
 *      schedule built before its first timed call, and slow drifts of the
 *      machine hit all candidates alike.  Every call's result is compared
 *      byte for byte with the vendor's; a candidate that differs is
 *      reported as a failure and never chosen.  Candidates whose
 *      medians' 95 % intervals come within 3 % of the fastest's, when an
 *      interval is wider than that, get more rounds among themselves (at
 *      most twice as many again).  The winner: the first candidate in the
 *      model's order whose median is within 3 % of the lowest (rank 0
 *      decides; the table is its file).
 *   4b. Local search (--refine rounds): the fastest's neighbours (one
 *      step's algorithm or parameter changed, every step's segment
 *      changed together, two steps' algorithms
 *      swapped, the visit order or the shape reversed, two dimensions
 *      merged, one split in two; of a 1-D plan its parameter) are
 *      measured against it as in 4, and join the candidates; again from
 *      the new fastest, or when it stays the fastest from a near-tie of
 *      it (within 3 %) not yet searched from, or from the fastest 1-D plan
 *      with a segment or radix within 2x of it (the model's parameter
 *      has the fewest good reasons behind it), until none is left; the
 *      last round goes to such a 1-D plan when none has been searched
 *      from (the mesh plans' neighbours would take every round).  On
 *      the simulated 16 x 32 torus this is what finds the plans whose
 *      lines follow the torus's rings, which the model prices no better
 *      than any other shape.
 *   4c. Pruning (--prune F, default 3): a candidate whose price under the
 *      fitted model is above F times the fastest time measured so far at
 *      the point (one that ran right) is not measured.  The model is
 *      seldom that pessimistic (on the simulated Paragon it is optimistic
 *      by 2-8x everywhere but the two-ring twins, which it prices as one
 *      ring: 2x), and such plans cost the most to run: a 1-D full fan-out
 *      allreduce of 1 MiB on 512 simulated ranks took over 6 minutes of
 *      wall time for one call.  A parameter the local search sets is
 *      measured whatever its price: the model prices a flat tree on the
 *      simulated Paragon 5x too high (its sender overhead per message);
 *      so is a shape's plan of one-round steps (the fan-outs' prices are
 *      bounds for one port per rank, and only those of the one-shot allreduce and the
 *      allgather's full fan-out read LogGP's overhead), and a neighbour
 *      whose new step is one the selector does not price, on a line of at
 *      most twice the square root of p (the bound assumes one port per
 *      rank; on the simulated torus 32x16:d1=full_fanout,d0=full_fanout
 *      took 6.26 ms for a 64 KiB allreduce, priced at 21 ms).
 *   5. The table: for each collective, consecutive sizes with the same
 *      winner are one rule, which reaches half way (geometrically) to the
 *      next measured size; the first starts at 0 bytes, the last is open.
 *      RANKS is this p, RPN this run's ranks per node (any when nodes
 *      hold different numbers), OP "commutative" for reductions (MPI_SUM
 *      is measured; a non-commutative op is left to the model, which
 *      keeps rank order).  The header records the fitted model, the
 *      machine, the MPI library, the date and the command line.  It is
 *      rewritten after every point (and a line per point goes to stderr),
 *      so that a long run stopped half way keeps what it measured.
 */
#include "config.h"
#include "bench.h"
#include "choose.h"
#include "intercom.h"
#include "point.h"
#include "table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Candidates per point: --candidates, plus the 1-D plans and the built-in
 * choice. */
#define TUNE_CANDIDATES 4
#define TUNE_QUICK_CANDIDATES 3
#define TUNE_NEIGHBOURS 32 /* new plans per round of local search, at most */
/* model, shapes (four plans each), 1-D with their measured segments and
 * their twins, built-in, local search */
#define TUNE_MAX_CAND                                                                              \
    (16 + 4 * IC_TUNE_SHAPES_MAX + 3 * 16 + 2 + IC_TUNE_REFINE_MAX * TUNE_NEIGHBOURS)
#define TUNE_ROUNDS 4 /* rounds of interleaved blocks per point */
#define TUNE_EXTRA 2  /* more sets of rounds for near-ties, at most */

typedef struct cand {
    char text[IC_PLAN_TEXT_MAX];
    const char *why;            /* "model 1", "1-D", "built-in", ... */
    double *t;                  /* rank 0: the slowest rank's times */
    int n, bad;                 /* bad: results that differed from the vendor's, or errors */
    int other;                  /* turns in which another plan ran (it could not serve the call) */
    char ran[IC_PLAN_TEXT_MAX]; /* rank 0: the plan as it ran, its parameters set */
    double pred;                /* rank 0: the fitted model's price (NaN: none) */
    double price;               /* rank 0: a price of its own (stream_seg), for pred; 0: none */
    int pruned;                 /* not measured: priced beyond --prune times the fastest */
    int keep;                   /* a parameter the local search set, a plan of one-round
                                   steps, an unpriced step on a short line, the built-in
                                   choice: never pruned */
    ic_stats_t s;
} cand_t;

/* What a point decided (rank 0). */
typedef struct outcome {
    ic_coll_t c;
    size_t bytes;
    char plan[IC_PLAN_TEXT_MAX];    /* the winner */
    char builtin[IC_PLAN_TEXT_MAX]; /* the built-in choice */
    double chosen, best;            /* the winner's median, the fastest median */
    double t_builtin, t_model, predicted;
    int ncand;
} outcome_t;

/* The collectives of a default run, and of --quick: the five of the
 * papers' tables first. */
static const ic_coll_t quick_ops[] = {IC_COLL_BCAST, IC_COLL_REDUCE, IC_COLL_ALLREDUCE,
                                      IC_COLL_ALLGATHER, IC_COLL_REDUCE_SCATTER_BLOCK};

/* Whether text is among cs[0..n-1]. */
static int have_cand(const cand_t *cs, int n, const char *text)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(cs[i].text, text))
            return 1;
    return 0;
}

static int add_cand(cand_t *cs, int n, const char *text, const char *why)
{
    if (have_cand(cs, n, text) || n == TUNE_MAX_CAND || !*text)
        return n;
    snprintf(cs[n].text, sizeof(cs[n].text), "%s", text);
    cs[n].why = why;
    return n + 1;
}

/* Whether every message of the 1-D plan of alg on the call a (all
 * a->size ranks) goes between neighbours of the line, taken as a ring:
 * the schedules of ranks 0, 1, size/2 and size-1 say. */
static int ring_only(const ic_algorithm_t *alg, const ic_coll_args_t *a0)
{
    ic_plan_t pl = ic_plan_1d(alg, 0);
    int p = a0->size, ok = a0->size >= 3;
    const int ranks[] = {0, 1, p / 2, p - 1};
    for (int i = 0; ok && i < 4; i++) {
        ic_coll_args_t a = *a0;
        a.rank = ranks[i];
        ic_sched_t s;
        ic_sched_init(&s, a.rank, p);
        ok = ic_plan_build(&s, &pl, &a) == 0 && ic_sched_ok(&s) == 0;
        for (size_t r = 0; ok && r < ic_sched_nrounds(&s); r++) {
            size_t n;
            const ic_action_t *act = ic_sched_round_acts(&s, r, &n);
            for (size_t j = 0; ok && j < n; j++)
                if (act[j].kind == IC_ACT_SEND || act[j].kind == IC_ACT_RECV) {
                    int d = (act[j].peer - a.rank + p) % p;
                    ok = d == 1 || d == p - 1;
                }
        }
        ic_sched_free(&s);
    }
    return ok;
}

/* The schedule of rank r of alg's 1-D plan (parameter param) on a line of
 * IC_PROBE_RANKS ranks, root 0, `count` elements (blocks of one element for
 * the block collectives), unbounded scratch: its structure, not a call's
 * size.  0 when it builds; *s is then the caller's to free. */
enum { IC_PROBE_RANKS = 5 };
static int probe_sched(const ic_algorithm_t *alg, size_t param, const ic_coll_args_t *a0, int r,
                       size_t count, ic_sched_t *s)
{
    static const size_t ones[IC_PROBE_RANKS] = {1, 1, 1, 1, 1};
    ic_plan_t pl = ic_plan_1d(alg, param);
    ic_coll_args_t a = *a0;
    a.size = IC_PROBE_RANKS;
    a.rank = r;
    a.root = 0;
    a.count = a0->counts ? IC_PROBE_RANKS : count;
    a.counts = a0->counts ? ones : NULL;
    a.displs = NULL;
    a.bounded_from = 0;
    ic_sched_init(s, r, IC_PROBE_RANKS);
    if (ic_plan_build(s, &pl, &a) == 0 && ic_sched_ok(s) == 0)
        return 0;
    ic_sched_free(s);
    return -1;
}

/* Whether alg, as a mesh step, sends all its messages in one round: its
 * probe schedules have at most one round with messages on each rank. */
static int one_round(const ic_algorithm_t *alg, const ic_coll_args_t *a0)
{
    int ok = 1;
    for (int r = 0; ok && r < IC_PROBE_RANKS; r++) {
        ic_sched_t s;
        if (probe_sched(alg, 0, a0, r, IC_PROBE_RANKS, &s) != 0)
            return 0;
        int with = 0;
        for (size_t q = 0; q < ic_sched_nrounds(&s); q++) {
            size_t n;
            const ic_action_t *act = ic_sched_round_acts(&s, q, &n);
            for (size_t j = 0; j < n; j++)
                if (act[j].kind == IC_ACT_SEND || act[j].kind == IC_ACT_RECV) {
                    with++;
                    break;
                }
        }
        ok = with <= 1;
        ic_sched_free(&s);
    }
    return ok;
}

/* Whether alg's 1-D plan is a stream (ic_sched_stream: the pipelined
 * chains, the two trees), which runs as a dataflow: in its probe schedules
 * (segments of one element, a vector of several) every message of every
 * rank is a stream's.  A mesh plan of such steps runs as one dataflow,
 * each segment going on into the next dimension as it arrives, which the
 * closed forms (a sum over the steps) do not price. */
static int stream_alg(const ic_algorithm_t *alg, const ic_coll_args_t *a0)
{
    int ok = 1;
    for (int r = 0; ok && r < IC_PROBE_RANKS; r++) {
        ic_sched_t s;
        if (probe_sched(alg, 1, a0, r, 4 * IC_PROBE_RANKS, &s) != 0)
            return 0;
        size_t msgs = 0;
        for (size_t q = 0; q < s.nacts; q++)
            msgs += s.acts[q].kind == IC_ACT_SEND || s.acts[q].kind == IC_ACT_RECV;
        ok = msgs > 0 && msgs == s.nstream;
        ic_sched_free(&s);
    }
    return ok;
}

/* A list of step algorithms (candidates()). */
typedef struct alg_list {
    const ic_algorithm_t *alg[16];
    int n;
} alg_list_t;

/* The cheapest plan by the closed forms (model m) on the 2-D shape
 * dims[0] x dims[1] whose step on dimension d is among the algorithms of
 * on[d]: the ring_only ones (traffic between neighbours of each line
 * only, which the distances of a network cannot hurt once the lines
 * follow it: a torus's rings), the one_round ones, or on one dimension
 * those and on the other the priced ones.  0, or -1 when none can serve
 * the call. */
static int ring_plan(const ic_coll_args_t *a, const ic_model_t *m, const alg_list_t *const on[2],
                     const int *dims, ic_plan_t *best)
{
    double bt = -1;
    ic_plan_t pl = ic_plan_1d(NULL, 0);
    pl.coll = a->coll;
    pl.ndims = 2;
    pl.dims[0] = dims[0];
    pl.dims[1] = dims[1];
    for (int first = 0; first < 2; first++)
        for (int i = 0; i < on[1 - first]->n; i++)
            for (int j = 0; j < on[first]->n; j++) {
                pl.step[0].dim = 1 - first;
                pl.step[0].alg = on[1 - first]->alg[i];
                pl.step[1].dim = first;
                pl.step[1].alg = on[first]->alg[j];
                if (!ic_plan_usable(&pl, a, NULL))
                    continue;
                double x = ic_plan_cost(&pl, a, m);
                if (x >= 0 && (bt < 0 || x < bt)) {
                    bt = x;
                    *best = pl;
                }
            }
    return bt < 0 ? -1 : 0;
}

/* Whether measured_seg and stream_seg set plan pl's segment: a 1-D plan
 * of a segmented algorithm (not a radix). */
static int seg_plan(const ic_plan_t *pl, size_t elem)
{
    return pl->ndims == 0 && pl->alg && pl->alg->seg_rule && !(pl->alg->flags & IC_ALG_RADIX) &&
           elem > 0;
}

/* The closed form of plan pl with its segment at seg (elements) under mm
 * with its start-up and time per byte replaced (the exchange's per byte
 * scaled alike; LogGP's overhead, a part of the fitted start-up, dropped
 * with it). */
static double price_at(const ic_plan_t *pl, const ic_coll_args_t *a, const ic_model_t *mm,
                       size_t seg, double alpha, double beta)
{
    ic_model_t x = *mm;
    if (alpha != mm->alpha)
        x.overhead = 0;
    x.alpha = alpha;
    x.beta_x = mm->beta > 0 ? mm->beta_x * beta / mm->beta : beta;
    x.beta = beta;
    ic_plan_t q = *pl;
    q.param = seg;
    return ic_plan_cost(&q, a, &x);
}

/* The segment (elements of elem bytes) at which the ping-pong the model
 * was fitted to prices plan pl, a 1-D plan of a segmented algorithm,
 * cheapest, or 0 (none of its lengths makes two segments or more of the
 * vector): the plan's closed form (ic_plan_cost) with its segment at each
 * measured length s and beta the time per byte that length's measured
 * time t(s) leaves after the fitted start-up, (t(s) - alpha) / s, so that
 * one segment's message costs what it was measured to.  A straight line
 * through every length puts the segment where its start-up and its bytes
 * balance, and does not see a network whose rate or start-up change with
 * the length: SimGrid's SMPI multiplies a message's start-up by 1.9-2.2
 * below 9376 B and by 11.6 from 65472 B on, its rate by 1.09 at 5776-9375
 * B and 0.59-0.94 above (smpi/lat-factor, smpi/bw-factor); on the modern
 * cluster's 64 nodes the 1 MiB broadcast of two_tree took 361 us in the
 * fitted line's segments and 248 in the 4 KiB ones the ping-pong's times
 * price cheapest (the search from there: 178 in 8 KiB).  The closed forms
 * charge each segment its start-up in turn, where SMPI overlaps a link's
 * latency with the next message: they price the circulant graph's 1 MiB
 * cheapest in 64 KiB segments (536 us), where 8 KiB take 170. */
static size_t measured_seg(const ic_plan_t *pl, const ic_coll_args_t *a, const ic_model_t *mm,
                           const ic_bench_model_t *m, size_t elem)
{
    if (!seg_plan(pl, elem))
        return 0;
    size_t best = 0;
    double bt = 0, vec = ic_plan_start(a);
    for (int i = 0; i < m->npp; i++) {
        size_t seg = (size_t)(m->pp_bytes[i] / (double)elem);
        double beta = (m->pp_time[i] - mm->alpha) / m->pp_bytes[i];
        if (seg < 1 || 2.0 * (double)seg > vec || !(beta > 0))
            continue;
        double c = price_at(pl, a, mm, seg, mm->alpha, beta);
        if (c >= 0 && (best == 0 || c < bt)) {
            best = seg;
            bt = c;
        }
    }
    return best;
}

/* Start-ups the closed form of plan pl charges one after the other with
 * its segment at seg (elements): its price with alpha 1 and nothing else. */
static double startups(const ic_plan_t *pl, const ic_coll_args_t *a, const ic_model_t *mm,
                       size_t seg)
{
    ic_model_t x = *mm;
    x.gamma = 0;
    return price_at(pl, a, &x, seg, 1, 0);
}

/* The segment (elements; 0: none) at which the streams the fit measured
 * (m->st_*) price 1-D segmented plan pl cheapest, and that price into
 * *price.  A pipeline's messages follow each other at the stream's gap
 * g(s), and each hop's latency, the rest of a message's one-way time
 * t(s) - g(s), is paid once per stage of the pipeline's fill, not once
 * per segment as the closed forms charge it (measured_seg): the price is
 * the closed form with no start-up and beta = g(s) / s, plus the fill's
 * stages times t(s) - g(s).  The stages are what the closed form's
 * start-ups (startups) do not owe to the segments' count: with c start-ups
 * per segment, read off the segment and twice it, startups(s) - c
 * ceil(n / s).  On SimGrid's modern cluster of 64 nodes the ping-pong's
 * times price the circulant graph's 16 MiB broadcast cheapest in 1 MiB
 * segments (7.99 ms as measured), the streams in 8 KiB ones (priced
 * 1.26 ms, measured 1.80; the fastest plan before, two_tree in 96 KiB,
 * 2.60): SMPI, as a real network, carries a message while the next one's
 * latency runs, and its rate is highest at 5776-9375 B.  A seed, not a
 * prediction: the schedule's dependencies keep a round above the gap. */
static size_t stream_seg(const ic_plan_t *pl, const ic_coll_args_t *a, const ic_model_t *mm,
                         const ic_bench_model_t *m, size_t elem, double *price)
{
    if (!seg_plan(pl, elem))
        return 0;
    size_t best = 0;
    double bt = 0, vec = ic_plan_start(a);
    for (int i = 0; i < m->nst; i++) {
        size_t seg = (size_t)(m->st_bytes[i] / (double)elem);
        if (seg < 1 || 2.0 * (double)seg > vec)
            continue;
        double g = m->st_gap[i], hop = m->st_time[i] - g;
        double n1 = ceil(vec / (double)seg), n2 = ceil(vec / (2.0 * (double)seg));
        double s1 = startups(pl, a, mm, seg), s2 = startups(pl, a, mm, 2 * seg);
        double per = n1 > n2 ? (s1 - s2) / (n1 - n2) : 0, fill = s1 - per * n1;
        fill = fill < 1 ? 1 : fill > s1 ? s1 : fill;
        double c = price_at(pl, a, mm, seg, 0, g / m->st_bytes[i]) + fill * (hop > 0 ? hop : 0);
        if (s1 >= 0 && c >= 0 && (best == 0 || c < bt)) {
            best = seg;
            bt = c;
        }
    }
    *price = bt;
    return best;
}

/* The text of 1-D plan pl with its segment at seg units of elem bytes
 * (ic_point_args), as written (ic_plan_to_written). */
static void seg_text(const ic_plan_t *pl, size_t seg, size_t elem, char text[IC_PLAN_TEXT_MAX])
{
    ic_plan_t r = *pl;
    r.param = seg;
    ic_plan_to_written(&r, elem);
    ic_plan_format(&r, text, IC_PLAN_TEXT_MAX);
}

/* Add 1-D plan pl (its parameter left to the library) to cs[0..n-1] with
 * its segment where the measured ping-pong puts it (measured_seg) and
 * where the streams put it (stream_seg, with that price for pruning),
 * each when more than twice apart from the model's (mm): the local search
 * measures the segments within twice of one it ran.  Pruned by its price
 * as the other candidates are: on the modern cluster's 512 ranks the 1-D
 * plans in the ping-pong's 1 KiB segments took 2.3-6.2 ms of simulated
 * time where a mesh plan takes 0.18, priced at 3.3-4.2 times that, and
 * each minutes of wall time to simulate.  Returns the new n. */
static int add_measured_seg(cand_t *cs, int n, const ic_plan_t *pl, const ic_coll_args_t *a,
                            const ic_model_t *mm, const ic_bench_model_t *m, size_t elem)
{
    ic_plan_t r = *pl;
    ic_plan_resolve(&r, a, mm);
    size_t model = r.param, seg = measured_seg(pl, a, mm, m, elem);
    char text[IC_PLAN_TEXT_MAX];
    if (seg != 0 && (2 * seg < model || seg > 2 * model)) {
        seg_text(&r, seg, elem, text);
        n = add_cand(cs, n, text, "1-D, measured segment");
    }
    double price;
    seg = stream_seg(pl, a, mm, m, elem, &price);
    if (seg != 0 && (2 * seg < model || seg > 2 * model)) {
        seg_text(&r, seg, elem, text);
        int n0 = n;
        n = add_cand(cs, n, text, "1-D, stream segment");
        if (n > n0)
            cs[n0].price = price;
    }
    return n;
}

/* The candidates of point pt (rank 0; see the method above). */
static int candidates(const ic_bench_t *b, const ic_point_t *pt, const ic_bench_model_t *m, int k,
                      int shapes, int all_1d, int nodes, int rpn, const char *builtin, cand_t *cs)
{
    static const char *const model_why[] = {"model 1",  "model 2",  "model 3",  "model 4",
                                            "model 5",  "model 6",  "model 7",  "model 8",
                                            "model 9",  "model 10", "model 11", "model 12",
                                            "model 13", "model 14", "model 15", "model 16"};
    ic_plan_t plans[16];
    double t[16];
    size_t *counts = ic_bench_alloc(b, (size_t)pt->p * sizeof(size_t));
    ic_coll_args_t a;
    size_t elem = ic_point_args(pt, &a, counts);
    /* two levels as the library prices them: ranks of a node consecutive,
     * the figures within a node fitted where the run measured them */
    int node_ranks = nodes > 1 && rpn >= 2 ? rpn : 0;
    int n = 0,
        got = ic_choose_plans(&a, &m->cost, &m->node, node_ranks, elem, NULL, 0, k, plans, t, NULL);
    char text[IC_PLAN_TEXT_MAX];
    for (int i = 0; i < got; i++) {
        ic_point_bare_text(&plans[i], text, sizeof(text));
        n = add_cand(cs, n, text, model_why[i]);
    }
    /* the cheapest plan on each of the `shapes` two-dimensional shapes the
     * model likes best: the model has no notion of which ranks are close
     * (a torus's rings, a switch's ports), so the shapes are measured
     * rather than ranked */
    int nsh = 0;
    ic_plan_t shp[IC_TUNE_SHAPES_MAX];
    double sht[IC_TUNE_SHAPES_MAX];
    /* and on each of those shapes the cheapest plan of ring steps, its
     * cheapest plan of one-round steps (whose closed forms are bounds, not
     * priced by the selector) and, where one dimension's lines are short
     * and the other's long, one-round steps on the short lines and the
     * priced steps on the long ones (a node's ranks all talking at once,
     * the halving or doubling across nodes); steps that serve the call's
     * op, each plan's scratch on its lines ring_plan's ic_plan_usable */
    alg_list_t ring = {.n = 0}, one = {.n = 0}, priced = {.n = 0}, stream = {.n = 0};
    for (const ic_algorithm_t *alg = ic_algorithms; shapes > 0 && alg->name; alg++) {
        if (alg->coll != pt->c || ic_plan_step_kind(alg) == IC_STEP_NONE || ic_alg_op(alg, &a))
            continue;
        if (!a.counts && !ring_only(alg, &a) && stream_alg(alg, &a) && stream.n < 16)
            stream.alg[stream.n++] = alg;
        if (ic_alg_priced(alg) && ring_only(alg, &a) && ring.n < 16)
            ring.alg[ring.n++] = alg;
        if (one_round(alg, &a) && one.n < 16)
            one.alg[one.n++] = alg;
        if (ic_alg_priced(alg) && priced.n < 16)
            priced.alg[priced.n++] = alg;
    }
    ic_model_t mnode, mm = ic_model_levels(&m->cost, &m->node, node_ranks, pt->p, elem, &mnode);
    /* each stream's segment where the streams price its 1-D plan
     * cheapest (stream_seg; 0: none), for its plans on the shapes */
    size_t sseg[16] = {0};
    for (int j = 0; j < stream.n; j++) {
        ic_plan_t sp = ic_plan_1d(stream.alg[j], 0);
        double price;
        if (ic_plan_usable(&sp, &a, NULL))
            sseg[j] = stream_seg(&sp, &a, &mm, m, elem, &price);
    }
    for (int r = 2; shapes > 0 && r <= pt->p / 2; r++) {
        int shape[2] = {r, pt->p / r};
        ic_plan_t pl;
        double x;
        if (pt->p % r ||
            ic_choose_plans(&a, &m->cost, &m->node, node_ranks, elem, shape, 2, 1, &pl, &x, NULL) <
                1 ||
            pl.ndims != 2 || pl.dims[0] != shape[0])
            continue; /* no plan on that shape serves the call */
        if (nsh == shapes && !(x < sht[shapes - 1]))
            continue; /* ties: the shape met first */
        int i = nsh < shapes ? nsh++ : shapes - 1;
        while (i > 0 && sht[i - 1] > x) {
            shp[i] = shp[i - 1];
            sht[i] = sht[i - 1];
            i--;
        }
        shp[i] = pl;
        sht[i] = x;
    }
    for (int i = 0; i < nsh; i++) {
        ic_point_bare_text(&shp[i], text, sizeof(text));
        n = add_cand(cs, n, text, "shape");
        ic_plan_t rp;
        const alg_list_t *rings[2] = {&ring, &ring}, *ones[2] = {&one, &one};
        if (ring_plan(&a, &mm, rings, shp[i].dims, &rp) == 0) {
            ic_point_bare_text(&rp, text, sizeof(text));
            n = add_cand(cs, n, text, "shape, rings");
            /* and its ring steps on two counter-rotating rings, which the
             * model cannot price (a torus's links carry both ways) */
            ic_plan_t tw;
            if (ic_plan_two_rings(&rp, &tw) && ic_plan_usable(&tw, &a, NULL)) {
                ic_point_bare_text(&tw, text, sizeof(text));
                n = add_cand(cs, n, text, "shape, two rings");
            }
        }
        /* on the first half of the shapes, its plans of one stream in
         * both dimensions (streams whose messages do not all go between
         * neighbours, which the rings' plans have: the two trees), each
         * run as one dataflow, each segment going on into the next
         * dimension as it arrives, which the closed forms' sum over the
         * steps does not see; the two trees' forms are bounds, not prices
         * to rank them by.  Either order: the model cannot tell which
         * dimension's lines share a link (a node's ranks, its network
         * port). */
        for (int j = 0; 2 * i < nsh && j < stream.n; j++)
            for (int first = 0; first < 2; first++) {
                rp = ic_plan_1d(NULL, 0);
                rp.coll = a.coll;
                rp.ndims = 2;
                rp.dims[0] = shp[i].dims[0];
                rp.dims[1] = shp[i].dims[1];
                for (int t = 0; t < 2; t++) {
                    rp.step[t].dim = t ? first : 1 - first;
                    rp.step[t].alg = stream.alg[j];
                }
                if (ic_plan_usable(&rp, &a, NULL)) {
                    ic_point_bare_text(&rp, text, sizeof(text));
                    n = add_cand(cs, n, text, "shape, streams");
                }
                /* and with both steps in that stream's segment (sseg),
                 * measured whatever the model's price: the dataflow's
                 * segments run on through both dimensions, which the
                 * closed forms' sum does not see (on the modern cluster's
                 * 512 ranks the 1 MiB broadcast's 64x8 circulant graphs
                 * took 1.2-3.3 ms in the model's segments and 140 us in
                 * 6-8 KiB ones, priced 871 us) */
                ic_plan_t q = rp;
                q.step[0].param = q.step[1].param = sseg[j];
                if (sseg[j] && ic_plan_usable(&q, &a, NULL)) {
                    ic_plan_to_written(&q, elem);
                    ic_plan_format(&q, text, sizeof(text));
                    int n0 = n;
                    n = add_cand(cs, n, text, "shape, streams, stream segment");
                    if (n > n0)
                        cs[n0].keep = 1;
                }
            }
        /* ... on the shapes whose lines are at most twice the square
         * root of p: a one-round step puts n - 1 messages of every rank
         * of a line of n in flight at once (a 512-rank simulation of a
         * 64-rank line's took minutes of wall time per call) */
        int shrt[2];
        for (int d = 0; d < 2; d++)
            shrt[d] = (double)shp[i].dims[d] * shp[i].dims[d] <= 4.0 * pt->p;
        if (shrt[0] && shrt[1] && ring_plan(&a, &mm, ones, shp[i].dims, &rp) == 0) {
            ic_point_bare_text(&rp, text, sizeof(text));
            int n0 = n;
            n = add_cand(cs, n, text, "shape, one round");
            if (n > n0) /* measured whatever the model's price */
                cs[n0].keep = 1;
        }
        if (shrt[0] != shrt[1]) {
            const alg_list_t *mixed[2] = {shrt[0] ? &one : &priced, shrt[1] ? &one : &priced};
            if (ring_plan(&a, &mm, mixed, shp[i].dims, &rp) == 0) {
                ic_point_bare_text(&rp, text, sizeof(text));
                int n0 = n;
                n = add_cand(cs, n, text, "shape, one round on short lines");
                if (n > n0)
                    cs[n0].keep = 1;
            }
        }
    }
    /* on one line: every registered algorithm that can serve the call
     * (a handful; the model's order among them is the least reliable,
     * protocol switches and the operating system's queues being outside
     * it), or with --quick the model's cheapest one */
    int line[1] = {pt->p};
    int n1 = ic_choose_plans(&a, &m->cost, &m->node, node_ranks, elem, line, 1, all_1d ? 16 : 1,
                             plans, t, NULL);
    for (int i = 0; i < n1; i++) {
        ic_point_bare_text(&plans[i], text, sizeof(text));
        n = add_cand(cs, n, text, "1-D");
        n = add_measured_seg(cs, n, &plans[i], &a, &mm, m, elem);
    }
    /* the streams on one line, which the selector does not rank when
     * their closed forms are bounds (two_tree) */
    for (int i = 0; i < stream.n; i++) {
        ic_plan_t sp = ic_plan_1d(stream.alg[i], 0);
        if (ic_plan_usable(&sp, &a, NULL)) {
            ic_point_bare_text(&sp, text, sizeof(text));
            n = add_cand(cs, n, text, "1-D, stream");
            n = add_measured_seg(cs, n, &sp, &a, &mm, m, elem);
        }
    }
    /* and their twins on two counter-rotating rings (one line: the ring
     * of all ranks) */
    for (int i = 0; i < n1; i++) {
        ic_plan_t tw;
        if (ic_plan_two_rings(&plans[i], &tw) && ic_plan_usable(&tw, &a, NULL)) {
            ic_point_bare_text(&tw, text, sizeof(text));
            n = add_cand(cs, n, text, "1-D, two rings");
        }
    }
    /* the built-in plan with the segment sizes the fitted model sets, then
     * as the library without a table ran it */
    ic_plan_t bp;
    if (ic_plan_parse(pt->c, builtin, &bp, NULL) == 0) {
        ic_point_bare_text(&bp, text, sizeof(text));
        n = add_cand(cs, n, text, "built-in, refit");
    }
    /* always measured: its time is the report's regret (built-in/best) */
    int n0 = n;
    n = add_cand(cs, n, builtin, "built-in");
    if (n > n0)
        cs[n0].keep = 1;
    free(counts);
    return n;
}

/* Parameters to measure for step algorithm alg, which ran with r on lines
 * of d positions (0: none to try): a radix (IC_ALG_RADIX) 2, r / 2, 2 r and
 * d (the flat tree), a segment r / 2, 2 r, 3 r / 4, 3 r / 2, and with
 * `far` (a 1-D plan's, whose only neighbours these are) r / 4 and r / 8,
 * each as the library runs it (whole units of `unit` bytes, ic_point_unit:
 * a broadcast's segment below its unit runs as one) and none twice or r
 * (on 64 nodes the 16 MiB broadcast's unit is 4 KiB: circulant(512) to
 * (3072) all ran as circulant(4096), a simulation of minutes each).  The
 * model's choice of a parameter has the fewest good reasons behind it (a
 * network's latency that grows with the message, protocol switches), so
 * the search measures its neighbours instead of trusting it; a segment's
 * best may lie between halving and doubling (SimGrid's SMPI gives messages
 * of 5776-9375 B 1.09 times the link's bandwidth and those just above
 * 0.59: on the Paragon the 1 MiB broadcast's segment of 4864 B took
 * 19.8 ms, 2432 and 9728 more, 7168 17.7), or far below it, beyond a
 * band whose segments are all slower (the modern cluster's 64 nodes, the
 * circulant reduce of 1 MiB: the model's 70 KiB blocks 312 us, 35 KiB
 * 330, 8 KiB 143). */
#define TUNE_PARAM_VARIANTS 8 /* param_variants' answers, at most */
static int param_variants(const ic_algorithm_t *alg, size_t r, int d, int far, size_t unit,
                          size_t *out)
{
    if (!alg || !alg->seg_rule || r == 0)
        return 0;
    int radix = (alg->flags & IC_ALG_RADIX) != 0, n = 0;
    size_t want[TUNE_PARAM_VARIANTS] = {r / 2,
                                        2 * r,
                                        radix ? 2 : 0,
                                        radix ? (size_t)d : 0,
                                        radix ? 0 : 3 * r / 4,
                                        radix ? 0 : 3 * r / 2,
                                        radix || !far ? 0 : r / 4,
                                        radix || !far ? 0 : r / 8};
    for (int i = 0; i < TUNE_PARAM_VARIANTS; i++) {
        size_t v = want[i];
        if (v) { /* as the library runs it: whole units (a radix stays) */
            ic_plan_t q = ic_plan_1d(alg, v);
            ic_plan_from_written(&q, unit);
            ic_plan_to_written(&q, unit);
            v = q.param;
        }
        int dup = v == r || v < (radix ? 2u : 1u) || (radix && v > (size_t)d);
        for (int k = 0; k < n; k++)
            dup |= out[k] == v;
        if (!dup)
            out[n++] = v;
    }
    return n;
}

/* One round of local search (rank 0): into ns[1..], up to TUNE_NEIGHBOURS
 * plans next to the plan `from` (ns[0]), which ran as `ran` (its
 * parameters set), that are not among cs[0..nc-1] and can serve the call,
 * in this order: for a mesh plan, the steps in the reverse order, the
 * shape reversed, two steps' algorithms swapped, two neighbouring
 * dimensions merged (into one line: with a k-nomial tree, its flat tree
 * too), one dimension split in two; one step's
 * parameter changed (param_variants; a 1-D plan: its parameter), the
 * other steps' left to the model; every step's segment changed together
 * (a mesh of segmented steps); for a mesh plan, one step's algorithm
 * replaced by another mesh step of the collective (its parameter from the
 * model).  Returns how many entries ns holds (1: nothing new to try; the
 * other 1-D algorithms were all measured). */
static int neighbours(ic_bench_t *b, const ic_point_t *pt, const char *from, const char *ran,
                      const cand_t *cs, int nc, cand_t *ns)
{
    static const char *const why = "local search";
    ic_plan_t pl, rp;
    memset(ns, 0, (1 + TUNE_NEIGHBOURS) * sizeof(cand_t));
    snprintf(ns[0].text, sizeof(ns[0].text), "%s", from);
    ns[0].why = "fastest";
    if (ic_plan_parse(pt->c, from, &pl, NULL) != 0)
        return 1;
    /* the parameters it ran with, where `ran` is the same plan (as
     * ic_point_ran_as tells: the same bare text) */
    char text[IC_PLAN_TEXT_MAX], rtext[IC_PLAN_TEXT_MAX];
    int have_ran = ic_plan_parse(pt->c, ran, &rp, NULL) == 0;
    if (have_ran) {
        ic_point_bare_text(&pl, text, sizeof(text));
        ic_point_bare_text(&rp, rtext, sizeof(rtext));
        have_ran = !strcmp(text, rtext);
    }
    size_t *counts = ic_bench_alloc(b, (size_t)pt->p * sizeof(size_t));
    ic_coll_args_t a;
    size_t unit = ic_point_args(pt, &a, counts);
    enum {
        NQ = 2 + 4 * IC_PLAN_MAXDIMS + 2 * IC_PLAN_MAXDIMS + 4 * IC_PLAN_MAXDIMS +
             IC_PLAN_MAXDIMS * 16 + IC_PLAN_MAXDIMS * IC_PLAN_MAXDIMS + TUNE_PARAM_VARIANTS
    };
    ic_plan_t cand[NQ];
    unsigned char set[NQ] = {0}; /* a parameter set: written with it */
    unsigned char sure[NQ] = {
        0}; /* an unpriced step on a short line: measured whatever its price */
    int nq = 0;
    size_t v[TUNE_PARAM_VARIANTS];
    if (pl.ndims < 2) { /* a 1-D plan: its parameter only */
        int nv = have_ran ? param_variants(pl.alg, rp.param, pt->p, 1, unit, v) : 0;
        for (int i = 0; i < nv; i++) {
            set[nq] = 1;
            cand[nq++] = ic_plan_1d(pl.alg, v[i]);
        }
    } else {
        /* the steps in the reverse order; the shape reversed, each step
         * keeping its dimension (16x32 -> 32x16: the other ranks form the
         * lines) */
        cand[nq] = pl;
        for (int t = 0; t < pl.ndims; t++)
            cand[nq].step[t] = pl.step[pl.ndims - 1 - t];
        nq++;
        cand[nq] = pl;
        for (int d = 0; d < pl.ndims; d++)
            cand[nq].dims[d] = pl.dims[pl.ndims - 1 - d];
        nq++;
        /* two steps' algorithms swapped, each step keeping its dimension
         * and its place in the order (parameters from the model): from
         * 32x16:d0=bidir_dcombine_collect,d1=full_fanout to
         * 32x16:d0=full_fanout,d1=bidir_dcombine_collect, one change from
         * a plan that replaces the fan-out */
        for (int t = 0; t < pl.ndims; t++)
            for (int u = t + 1; u < pl.ndims; u++) {
                if (pl.step[t].alg == pl.step[u].alg)
                    continue;
                cand[nq] = pl;
                cand[nq].step[t].alg = pl.step[u].alg;
                cand[nq].step[u].alg = pl.step[t].alg;
                cand[nq].step[t].param = cand[nq].step[u].param = 0;
                nq++;
            }
    }
    /* two neighbouring dimensions merged into one, run where the first
     * of their steps ran, with the algorithm of either */
    for (int d = 0; d + 1 < pl.ndims; d++)
        for (int which = 0; which < 2; which++) {
            ic_plan_t q = pl;
            q.ndims = pl.ndims - 1;
            for (int e = 0; e < q.ndims; e++)
                q.dims[e] = e < d    ? pl.dims[e]
                            : e == d ? pl.dims[d] * pl.dims[d + 1]
                                     : pl.dims[e + 1];
            int first = -1, nt = 0;
            const ic_algorithm_t *alg = NULL;
            for (int t = 0; t < pl.ndims; t++)
                if (pl.step[t].dim == d + which)
                    alg = pl.step[t].alg;
            for (int t = 0; t < pl.ndims; t++) {
                int e = pl.step[t].dim;
                if (e == d || e == d + 1) {
                    if (first >= 0)
                        continue;
                    first = nt;
                    q.step[nt].dim = d;
                    q.step[nt].alg = alg;
                } else {
                    q.step[nt].dim = e < d ? e : e - 1;
                    q.step[nt].alg = pl.step[t].alg;
                }
                q.step[nt++].param = 0;
            }
            for (int t = nt; t < IC_PLAN_MAXDIMS; t++) {
                q.dims[t] = 0;
                q.step[t].alg = NULL;
                q.step[t].dim = 0;
                q.step[t].param = 0;
            }
            if (q.ndims == 1) { /* a line: the 1-D plan of its algorithm */
                q = ic_plan_1d(alg, 0);
                if (alg && (alg->flags & IC_ALG_RADIX)) { /* and its flat tree */
                    set[nq] = 1;
                    cand[nq++] = ic_plan_1d(alg, (size_t)pt->p);
                }
            }
            cand[nq++] = q;
        }
    /* one dimension split in two, its f = 2 or 4 nearest positions a
     * dimension of their own, run just before the rest of the line with
     * the same algorithm: a line's messages travel less far in all (a
     * one-shot allreduce of 1 KiB on the simulated Paragon's 32-ring
     * took 3.98 ms as 32x16, 3.24 as 16x2x16, its latency one hop more
     * and its links' load half) */
    for (int d = 0; pl.ndims >= 2 && pl.ndims < IC_PLAN_MAXDIMS && d < pl.ndims; d++)
        for (int f = 2; f <= 4 && nq < NQ; f += 2) {
            if (pl.dims[d] % f || pl.dims[d] / f < 2)
                continue;
            ic_plan_t q = pl;
            q.ndims = pl.ndims + 1;
            for (int e = 0; e < q.ndims; e++)
                q.dims[e] = e < d        ? pl.dims[e]
                            : e == d     ? pl.dims[d] / f
                            : e == d + 1 ? f
                                         : pl.dims[e - 1];
            int nt = 0, split = 0;
            for (int t = 0; t < pl.ndims; t++) {
                int e = pl.step[t].dim;
                if (e == d) { /* the f near positions first */
                    q.step[nt].dim = d + 1;
                    q.step[nt].alg = pl.step[t].alg;
                    q.step[nt++].param = 0;
                    split = pl.step[t].alg && !ic_alg_priced(pl.step[t].alg);
                }
                q.step[nt].dim = e <= d ? e : e + 1;
                q.step[nt].alg = pl.step[t].alg;
                q.step[nt++].param = 0;
            }
            double dl = pl.dims[d];
            sure[nq] = split && dl * dl <= 4.0 * pt->p;
            cand[nq++] = q;
        }
    /* one step's parameter changed, the others' from the model */
    for (int t = 0; have_ran && t < pl.ndims; t++) {
        int nv =
            param_variants(pl.step[t].alg, rp.step[t].param, pl.dims[pl.step[t].dim], 0, unit, v);
        for (int i = 0; i < nv && nq < NQ; i++) {
            cand[nq] = pl;
            for (int u = 0; u < pl.ndims; u++)
                cand[nq].step[u].param = u == t ? v[i] : 0;
            set[nq++] = 1;
        }
    }
    /* every step's segment changed together, to the first step's
     * variants, where every step is segmented (no radix): a mesh of
     * streams runs as one dataflow whose steps want one segment, which one
     * change at a time does not reach (512 ranks of the modern cluster,
     * 1 MiB broadcast: 64x8:d0=circulant(8192),d1=circulant(8192) 146 us,
     * both at 6144 140) */
    int segs = have_ran && pl.ndims >= 2;
    for (int t = 0; segs && t < pl.ndims; t++)
        segs = pl.step[t].alg && pl.step[t].alg->seg_rule &&
               !(pl.step[t].alg->flags & IC_ALG_RADIX) && rp.step[t].param;
    int nv =
        segs ? param_variants(pl.step[0].alg, rp.step[0].param, pl.dims[pl.step[0].dim], 0, unit, v)
             : 0;
    for (int i = 0; i < nv && nq < NQ; i++) {
        cand[nq] = pl;
        for (int u = 0; u < pl.ndims; u++)
            cand[nq].step[u].param = v[i];
        set[nq++] = 1;
    }
    /* one step's algorithm changed: to those the model prices first,
     * then to the rest (forced or tables only; the measurement decides) */
    for (int priced = 1; pl.ndims >= 2 && priced >= 0; priced--)
        for (int t = 0; t < pl.ndims; t++)
            for (const ic_algorithm_t *alg = ic_algorithms; alg->name && nq < NQ; alg++) {
                if (alg->coll != pt->c || alg == pl.step[t].alg ||
                    ic_plan_step_kind(alg) == IC_STEP_NONE || ic_alg_priced(alg) != priced)
                    continue;
                /* an unpriced step's closed form assumes one port per
                 * rank; a network that carries a fan-out's messages side
                 * by side (a torus: 32x16:d1=full_fanout,d0=full_fanout
                 * took 6.26 ms at 64 KiB, priced at 21) beats it, so it is
                 * measured where its line is short enough to be cheap to
                 * run (as a shape's one-round plan) */
                int d = pl.dims[pl.step[t].dim];
                sure[nq] = !priced && (double)d * d <= 4.0 * pt->p;
                cand[nq] = pl;
                cand[nq].step[t].alg = alg;
                cand[nq++].step[t].param = 0;
            }
    int n = 1;
    for (int i = 0; i < nq && n < 1 + TUNE_NEIGHBOURS; i++) {
        if (!ic_plan_usable(&cand[i], &a, NULL))
            continue;
        /* bare (the parameters left to the model) but where one was set */
        if (set[i])
            ic_plan_format(&cand[i], text, sizeof(text));
        else
            ic_point_bare_text(&cand[i], text, sizeof(text));
        if (!have_cand(cs, nc, text) && !have_cand(ns, n, text)) {
            int n1 = add_cand(ns, n, text, why);
            if (n1 > n)
                ns[n].keep = set[i] || sure[i];
            n = n1;
        }
    }
    free(counts);
    return n;
}

/* Whether candidate c can win: its results were right and it ran as forced. */
static int usable(const cand_t *c)
{
    return !c->bad && !c->other && !c->pruned;
}

/* The fastest usable candidate (rank 0), or -1. */
static int fastest(const cand_t *cs, int nc)
{
    int f = -1;
    for (int j = 0; j < nc; j++)
        if (usable(&cs[j]) && (f < 0 || cs[j].s.median < cs[f].s.median))
            f = j;
    return f;
}

/* Near-ties (rank 0): in[j] = 1 for the usable candidates whose median's
 * 95 % interval reaches within IC_COLL_EFFECT of the fastest's interval.
 * Returns whether more rounds can tell them apart: at least two of them,
 * and one interval wider than the effect the winner is chosen by (never
 * on a deterministic simulator, whose intervals have no width). */
static int near_ties(const cand_t *cs, int nc, unsigned char *in)
{
    int f = fastest(cs, nc), n = 0, wide = 0;
    memset(in, 0, (size_t)nc);
    if (f < 0)
        return 0;
    double hf = ic_median_halfwidth(&cs[f].s);
    double top = cs[f].s.median * (1 + (hf > 0 ? hf : 0)) * (1 + IC_COLL_EFFECT);
    for (int j = 0; j < nc; j++) {
        double h = ic_median_halfwidth(&cs[j].s);
        if (!usable(&cs[j]) || !(cs[j].s.median * (1 - (h > 0 ? h : 0)) <= top))
            continue;
        in[j] = 1;
        n++;
        wide |= h > IC_COLL_EFFECT;
    }
    return n >= 2 && wide;
}

/* Whether candidate c is not to be measured (every rank; rank 0
 * decides): with prune > 0, a price above prune times the fastest time
 * known (best > 0). */
static int prune_now(const ic_bench_t *b, const ic_point_t *pt, cand_t *c, double prune,
                     double best)
{
    int skip = b->rank == 0 && prune > 0 && best > 0 && c->pred > prune * best;
    MPI_Bcast(&skip, 1, MPI_INT, 0, pt->comm);
    c->pruned |= skip;
    return skip;
}

/* The fastest time known after a candidate's calls (every rank; rank 0's
 * is the one used): t[0..n-1], the slowest rank's times (rank 0), count
 * when the candidate ran right and as forced on every rank (ok: this
 * rank's say). */
static double prune_best(const ic_point_t *pt, int ok, const double *t, int n, double best)
{
    int all = 0;
    MPI_Reduce(&ok, &all, 1, MPI_INT, MPI_MIN, 0, pt->comm);
    for (int i = 0; all && i < n; i++)
        if (!(best > 0) || t[i] < best)
            best = t[i];
    return best;
}

/* Whether this rank's last call went wrong: errors since e0, or a result
 * other than the vendor's (ref). */
static int went_wrong(const ic_point_t *pt, const char *ref, int errors, int e0)
{
    return errors != e0 || (pt->cmp_bytes && memcmp(pt->out[IC_LIB_IC], ref, pt->cmp_bytes) != 0);
}

/* Rounds of interleaved blocks (method, 4) for the candidates j with
 * in[j]; every rank.  Appends to cs[j].t on rank 0; counts results that
 * differ from ref and turns in which another plan ran.  With prune > 0,
 * in the first round a candidate whose price (cs[j].pred, rank 0) is above
 * prune times the fastest time known (best: before this call, 0 for none;
 * then that of every candidate that ran right and as forced) is not
 * measured: in[j] = 0, cs[j].pruned = 1.  Under SimGrid's
 * SMPI a turn has no untimed first call: simulated time has no caches to
 * warm and does not see a schedule being built, so that call would only
 * cost the simulation its wall-clock time (at 512 ranks seconds a call). */
static void run_rounds(ic_bench_t *b, const ic_point_t *pt, const char *ref, cand_t *cs, int nc,
                       unsigned char *in, int rounds, int blk, int *errors, int *bad, int *other,
                       double prune, double best)
{
    IC_Coll id = (IC_Coll)pt->c;
    double *t = ic_bench_alloc(b, (size_t)blk * sizeof(double));
    double *tmax = ic_bench_alloc(b, (size_t)blk * sizeof(double));
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < nc; k++) {
            int j = (k + r) % nc;
            if (!in[j])
                continue;
            if (prune > 0 && r == 0 && prune_now(b, pt, &cs[j], prune, best)) {
                in[j] = 0;
                continue;
            }
            IC_Set_algorithm(id, cs[j].text);
            int e0 = *errors;
#ifndef SMPI_H
            ic_point_timed(pt, IC_LIB_IC, errors, 0); /* untimed: the turn's first call */
#endif
            for (int i = 0; i < blk; i++)
                t[i] = ic_point_timed(pt, IC_LIB_IC, errors, b->o.settle);
            int as = ic_point_ran_as(pt->c, cs[j].text), wrong = went_wrong(pt, ref, *errors, e0);
            other[j] += !as;
            if (b->rank == 0)
                snprintf(cs[j].ran, sizeof(cs[j].ran), "%s", IC_Last_algorithm(id));
            bad[j] += wrong;
            MPI_Reduce(t, tmax, blk, MPI_DOUBLE, MPI_MAX, 0, pt->comm);
            if (b->rank == 0) {
                memcpy(cs[j].t + cs[j].n, tmax, (size_t)blk * sizeof(double));
                cs[j].n += blk;
            }
            if (prune > 0 && r == 0)
                best = prune_best(pt, as && !wrong, tmax, blk, best);
        }
    }
    IC_Set_algorithm(id, NULL);
    free(t);
    free(tmax);
}

/* Time the candidates of pt; every rank.  ref: the vendor's result.
 * Under SMPI --warmup 0 means no warm-up call at all: simulated time does
 * not see a schedule being built, so a candidate's first call is timed as
 * its later ones (a 512-rank tune then costs one call a candidate and
 * round).
 * After the planned rounds, candidates in a near-tie (near_ties) get up to
 * TUNE_EXTRA more sets of rounds among themselves: the noise of a shared
 * machine decides nothing it can be kept from deciding. */
static void measure(ic_bench_t *b, const ic_point_t *pt, const char *ref, cand_t *cs, int nc,
                    double prune, double best)
{
    IC_Coll id = (IC_Coll)pt->c;
    int errors = 0;
    /* one call each: warm-up, and the time of a turn */
    double turn = 0, gturn = 0;
#ifdef SMPI_H
    int nwarm = b->o.warmup; /* --warmup 0: none (see run_rounds) */
#else
    int nwarm = b->o.warmup > 0 ? b->o.warmup : 1;
#endif
    for (int j = 0; j < nc; j++) {
        /* with warm-up calls, pruned by their times (those of first
         * calls: if anything too long, which prunes less) */
        if (nwarm > 0 && prune > 0 && prune_now(b, pt, &cs[j], prune, best))
            continue;
        IC_Set_algorithm(id, cs[j].text);
        double first = 0, fmax = 0;
        int e0 = errors;
        for (int w = 0; w < nwarm; w++) {
            double t0 = MPI_Wtime();
            ic_point_timed(pt, IC_LIB_IC, &errors, 0);
            if (w == 0)
                first = MPI_Wtime() - t0;
        }
        turn += first;
        if (nwarm > 0 && prune > 0) {
            int right = ic_point_ran_as(pt->c, cs[j].text) && !went_wrong(pt, ref, errors, e0);
            MPI_Reduce(&first, &fmax, 1, MPI_DOUBLE, MPI_MAX, 0, pt->comm);
            best = prune_best(pt, right, &fmax, 1, best);
        }
    }
    IC_Set_algorithm(id, NULL);
    MPI_Allreduce(&turn, &gturn, 1, MPI_DOUBLE, MPI_MAX, pt->comm);
    int reps = ic_bench_reps(b, gturn);
#ifdef SMPI_H
    if (nwarm == 0 && b->o.reps <= 0)
        reps = 1; /* deterministic, and no turn's time to size blocks by */
#endif
    int rounds = reps < TUNE_ROUNDS ? reps : TUNE_ROUNDS;
    int blk = (reps + rounds - 1) / rounds;
    int *bad = ic_bench_alloc(b, 2 * (size_t)nc * sizeof(int)), *other = bad + nc;
    int *gbad = ic_bench_alloc(b, 2 * (size_t)nc * sizeof(int));
    unsigned char *in = ic_bench_alloc(b, (size_t)nc);
    memset(bad, 0, 2 * (size_t)nc * sizeof(int));
    for (int j = 0; j < nc; j++)
        in[j] = !cs[j].pruned;
    for (int j = 0; j < nc; j++) {
        cs[j].n = 0;
        cs[j].t = b->rank == 0 ? ic_bench_alloc(b, (size_t)(1 + TUNE_EXTRA) * (size_t)rounds *
                                                       (size_t)blk * sizeof(double))
                               : NULL;
    }
    for (int stage = 0;; stage++) {
        run_rounds(b, pt, ref, cs, nc, in, rounds, blk, &errors, bad, other,
                   stage == 0 && nwarm == 0 ? prune : 0, best);
        MPI_Reduce(bad, gbad, 2 * nc, MPI_INT, MPI_SUM, 0, pt->comm);
        int more = 0;
        if (b->rank == 0) {
            for (int j = 0; j < nc; j++) {
                cs[j].bad = gbad[j];
                cs[j].other = gbad[nc + j];
                ic_stats(cs[j].t, cs[j].n, &cs[j].s);
            }
            more = stage < TUNE_EXTRA && near_ties(cs, nc, in);
        }
        MPI_Bcast(&more, 1, MPI_INT, 0, pt->comm);
        if (!more)
            break;
        MPI_Bcast(in, nc, MPI_UNSIGNED_CHAR, 0, pt->comm);
    }
    free(in);
    free(gbad);
    free(bad);
}

/* Whether candidate c ran as a 1-D plan with a parameter to vary. */
static int param_seed_of(const ic_point_t *pt, const cand_t *c)
{
    ic_plan_t pl;
    size_t v[TUNE_PARAM_VARIANTS];
    return ic_plan_parse(pt->c, c->ran, &pl, NULL) == 0 && pl.ndims < 2 &&
           param_variants(pl.alg, pl.param, pt->p, 1, ic_point_unit(pt), v) > 0;
}

/* The fastest usable 1-D candidate with a parameter to vary (a segment or
 * a radix, param_variants) within TUNE_PARAM_REACH times the fastest
 * candidate f's median that the local search has not started from, or -1
 * (rank 0).  The model sets a segment from its fitted alpha and beta,
 * which do not see a network's bands (SimGrid's SMPI: above 9375 B 0.59
 * of the link's bandwidth): on the simulated modern cluster's 64 nodes
 * the circulant reduce of 1 MiB took 312 us in the fitted model's blocks
 * of 70 KiB, 1.15 times the halving's 271 (no parameter: no neighbours),
 * and 137-143 us in blocks of 6-8 KiB, which only a search from it finds. */
#define TUNE_PARAM_REACH 2.0
static int param_seed(const ic_point_t *pt, const cand_t *cs, int nc, const unsigned char *from,
                      int f)
{
    int g = -1;
    for (int j = 0; j < nc; j++)
        if (!from[j] && usable(&cs[j]) && cs[j].s.median <= TUNE_PARAM_REACH * cs[f].s.median &&
            (g < 0 || cs[j].s.median < cs[g].s.median) && param_seed_of(pt, &cs[j]))
            g = j;
    return g;
}

/* Local search after the first measurement (every rank): up to `rounds`
 * times, the plans next to a plan (neighbours) are measured against it,
 * interleaved, and join the candidates.  A round starts from the fastest
 * plan, or when the search has already started from it, from the fastest
 * of those within IC_COLL_EFFECT of it that it has not started from (a
 * near-tie: which of two plans a greedy search follows should not be
 * decided by a difference the winner is not chosen by), or when no
 * near-tie is left, from the fastest 1-D plan with a parameter within
 * TUNE_PARAM_REACH of it (param_seed), which the last round starts from
 * in any case when no round has started from a 1-D plan with a parameter
 * (of two rounds or more: a single round stays with the fastest)
 * (on 16 nodes of the simulated modern cluster the broadcast of 1 MiB:
 * three rounds of mesh plans ended at 218 us; the last round from
 * two_tree in the measured ping-pong's segments found 8 KiB, 162 us);
 * it stops when none is left or
 * nothing new is next to the plan.  The plan's times
 * are those of its latest round, so that the last comparison is between
 * calls made side by side.  ns: room for 1 + TUNE_NEIGHBOURS candidates.
 * Returns the new number of candidates. */
static int refine(ic_bench_t *b, const ic_point_t *pt, const char *ref, cand_t *cs, int nc,
                  int rounds, cand_t *ns, const ic_bench_model_t *m, double prune)
{
    unsigned char *from = b->rank == 0 ? ic_bench_alloc(b, TUNE_MAX_CAND) : NULL;
    if (from)
        memset(from, 0, TUNE_MAX_CAND);
    int seeded = 0; /* a round has started from a 1-D plan with a parameter */
    for (int r = 0; r < rounds; r++) {
        int f = -1, nn = 0;
        /* a plan with nothing new next to it (a 1-D plan without a
         * parameter) costs no round: the next near-tie is tried */
        while (b->rank == 0 && nn <= 1) {
            f = fastest(cs, nc);
            if (f >= 0 && !seeded && r == rounds - 1 && rounds >= 2) {
                int g = param_seed(pt, cs, nc, from, f);
                f = g >= 0 ? g : f;
            }
            if (f >= 0 && from[f]) {
                int g = -1; /* the fastest near-tie not started from */
                for (int j = 0; j < nc; j++)
                    if (!from[j] && usable(&cs[j]) &&
                        cs[j].s.median <= (1 + IC_COLL_EFFECT) * cs[f].s.median &&
                        (g < 0 || cs[j].s.median < cs[g].s.median))
                        g = j;
                f = g >= 0 ? g : param_seed(pt, cs, nc, from, f);
            }
            if (f < 0 || nc + TUNE_NEIGHBOURS > TUNE_MAX_CAND) {
                nn = 0;
                break;
            }
            from[f] = 1;
            seeded |= param_seed_of(pt, &cs[f]);
            nn = neighbours(b, pt, cs[f].text, cs[f].ran, cs, nc, ns);
        }
        ns[0].pred = NAN; /* measured again, whatever its price */
        for (int j = 1; j < nn; j++)
            ns[j].pred = ns[j].keep ? NAN : ic_point_predict(pt, ns[j].text, m);
        MPI_Bcast(&nn, 1, MPI_INT, 0, b->comm);
        if (nn <= 1)
            break;
        for (int j = 0; j < nn; j++) {
            MPI_Bcast(ns[j].text, IC_PLAN_TEXT_MAX, MPI_CHAR, 0, b->comm);
            ns[j].pruned = 0; /* every rank's: the rounds skip it alike */
        }
        int g = b->rank == 0 ? fastest(cs, nc) : -1;
        measure(b, pt, ref, ns, nn, prune, g >= 0 ? cs[g].s.median : 0);
        if (b->rank == 0) {
            free(cs[f].t);
            cs[f].t = ns[0].t;
            cs[f].n = ns[0].n;
            cs[f].s = ns[0].s;
            cs[f].bad += ns[0].bad;
            cs[f].other += ns[0].other;
            memcpy(cs[f].ran, ns[0].ran, sizeof(cs[f].ran));
            for (int j = 1; j < nn; j++)
                cs[nc++] = ns[j];
        }
        MPI_Bcast(&nc, 1, MPI_INT, 0, b->comm);
        if (b->rank != 0)
            for (int j = 1; j < nn; j++) /* the texts, for the later rounds' calls */
                cs[nc - nn + j] = ns[j];
    }
    free(from);
    return nc;
}

/* ------------------------------------------------------------ table */

static void header(ic_bench_t *b, ic_table_t *tb, const ic_bench_model_t *m, int nodes, int rpn,
                   const char *made_by)
{
    char v[512];
    const char *why;
    snprintf(v, sizeof(v), "%.6g", m->cost.alpha);
    ic_table_set(tb, "alpha", v, &why);
    snprintf(v, sizeof(v), "%.6g", m->cost.beta);
    ic_table_set(tb, "beta", v, &why);
    snprintf(v, sizeof(v), "%.6g", m->cost.gamma);
    ic_table_set(tb, "gamma", v, &why);
    if (m->exchange) { /* measured; otherwise the library derives them too */
        snprintf(v, sizeof(v), "%.6g", m->cost.beta_x);
        ic_table_set(tb, "beta-x", v, &why);
        snprintf(v, sizeof(v), "%zu", m->cost.x_min);
        ic_table_set(tb, "x-min", v, &why);
    }
    if (m->node_fit) { /* the figures within a node (table.h: ic_table_node_model) */
        snprintf(v, sizeof(v), "%.6g", m->node.alpha);
        ic_table_set(tb, "node-alpha", v, &why);
        snprintf(v, sizeof(v), "%.6g", m->node.beta);
        ic_table_set(tb, "node-beta", v, &why);
    }
    if (m->links > 0) { /* measured (point.h) */
        snprintf(v, sizeof(v), "%d", m->links);
        ic_table_set(tb, "links", v, &why);
    }
    snprintf(v, sizeof(v), "%d", nodes);
    ic_table_set(tb, "nodes", v, &why);
    if (rpn > 0) {
        snprintf(v, sizeof(v), "%d", rpn);
        ic_table_set(tb, "ranks-per-node", v, &why);
    }
    if (!made_by)
        return;
    char host[MPI_MAX_PROCESSOR_NAME];
    int len = 0;
    MPI_Get_processor_name(host, &len);
    snprintf(v, sizeof(v), "%s, %d cores per node, %d ranks", host, IC_Node_cores(), b->size);
    ic_table_set(tb, "machine", v, &why);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    MPI_Get_library_version(lib, &len);
    lib[strcspn(lib, "\n\r#")] = 0;
    ic_table_set(tb, "mpi", lib, &why);
    time_t now = time(NULL);
    struct tm tmv;
    if (strftime(v, sizeof(v), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tmv)) > 0)
        ic_table_set(tb, "date", v, &why);
    ic_table_set(tb, "made-by", made_by, &why);
}

/* Rules of one collective from its outcomes o[0..n-1] (ascending sizes). */
static int add_rules(ic_table_t *tb, const outcome_t *o, int n, int p, int rpn, const char **why)
{
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && !strcmp(o[j + 1].plan, o[i].plan))
            j++;
        ic_table_rule_t r;
        memset(&r, 0, sizeof(r));
        r.coll = o[i].c;
        r.ranks_lo = r.ranks_hi = p;
        r.ranks_per_node = rpn;
        r.bytes_lo = i == 0 ? 0 : (uint64_t)floor(sqrt((double)o[i - 1].bytes * o[i].bytes)) + 1;
        r.bytes_hi =
            j == n - 1 ? IC_TABLE_OPEN : (uint64_t)floor(sqrt((double)o[j].bytes * o[j + 1].bytes));
        if (o[i].c == IC_COLL_BARRIER) {
            r.bytes_lo = 0;
            r.bytes_hi = IC_TABLE_OPEN;
        }
        r.op = ic_coll_reduces(o[i].c) ? IC_TABLE_OP_COMMUTATIVE : IC_TABLE_OP_ANY;
        if (ic_plan_parse(o[i].c, o[i].plan, &r.plan, why) != 0 ||
            ic_table_add_rule(tb, &r, why) != 0)
            return -1;
        i = j + 1;
    }
    return 0;
}

/* The table of the outcomes o[0..n-1] (rank 0; the points so far, one
 * collective's in a row, in ascending sizes; those without a winner are
 * skipped), written to `out` through a file beside it renamed over it, so
 * that a run stopped half way leaves the table of every point it finished.
 * The number of rules, or -1 after a message when `loud`. */
static long save_table(ic_bench_t *b, const ic_bench_model_t *m, int nodes, int rpn,
                       const char *made_by, const outcome_t *o, int n, const char *out, int loud)
{
    ic_table_t *tb = ic_table_new(out);
    outcome_t *w = ic_bench_alloc(b, (size_t)(n > 0 ? n : 1) * sizeof(outcome_t));
    long rules = -1;
    int ok = tb != NULL;
    if (ok)
        header(b, tb, m, nodes, rpn, made_by);
    for (int i = 0; ok && i < n;) {
        int j = i, k = 0;
        for (; j < n && o[j].c == o[i].c; j++) /* the sizes that found a winner */
            if (o[j].plan[0] && (k == 0 || o[j].bytes > w[k - 1].bytes))
                w[k++] = o[j];
        const char *why = NULL;
        if (add_rules(tb, w, k, b->size, rpn, &why) != 0) {
            if (loud)
                fprintf(stderr, "intercom-tune: %s: cannot add a rule: %s\n", ic_coll_name(o[i].c),
                        why ? why : "?");
            ok = 0;
        }
        i = j;
    }
    char tmp[1200];
    snprintf(tmp, sizeof(tmp), "%s.part", out);
    FILE *f = ok ? fopen(tmp, "w") : NULL;
    int wrote = f && ic_table_write(tb, f) == 0;
    if (f)
        wrote &= fclose(f) == 0;
    if (wrote && rename(tmp, out) == 0)
        rules = (long)ic_table_rule_count(tb);
    else if (ok) {
        unlink(tmp);
        if (loud)
            fprintf(stderr, "intercom-tune: cannot write %s\n", out);
    }
    if (tb)
        ic_table_free(tb);
    free(w);
    return rules;
}

/* Every rank writes the header-only table to a file of its own and loads
 * it (method, 3).  0, or -1 after a message (rank 0). */
static int load_header(ic_bench_t *b, const ic_bench_model_t *m, int nodes, int rpn)
{
    const char *dir = getenv("TMPDIR");
    char path[1024];
    snprintf(path, sizeof(path), "%s/intercom-tune-%ld-%d.tbl", dir && *dir ? dir : "/tmp",
             (long)getpid(), b->rank);
    ic_table_t *tb = ic_table_new("intercom-tune");
    int ok = 0;
    if (tb) {
        header(b, tb, m, nodes, rpn, NULL);
        FILE *f = fopen(path, "w");
        ok = f && ic_table_write(tb, f) == 0;
        if (f)
            ok &= fclose(f) == 0;
        ok = ok && IC_Tuning_load(path) == MPI_SUCCESS;
        unlink(path);
        ic_table_free(tb);
    }
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, b->comm);
    if (!all && b->rank == 0)
        fprintf(stderr, "intercom-tune: cannot write and load the fitted model (%s)\n", path);
    return all ? 0 : -1;
}

/* ----------------------------------------------------------- driver */

/* The report's two tables (report.h: ic_rtable_cols). */
static const ic_col_spec_t tuned_cols[] = {
    {"op", NULL, IC_COL_STR, NULL},
    {"bytes", NULL, IC_COL_INT, NULL},
    {"cands", NULL, IC_COL_INT, NULL},
    {"measured", NULL, IC_COL_SEC, NULL},
    {"predicted", NULL, IC_COL_SEC, NULL},
    {"pred_over_meas", "pred/meas", IC_COL_NUM, "%.2f"},
    {"regret", "tuned/best", IC_COL_NUM, "%.2f"},
    {"builtin_regret", "built-in/best", IC_COL_NUM, "%.2f"},
    {"model_regret", "model1/best", IC_COL_NUM, "%.2f"},
    {"plan", NULL, IC_COL_STR, NULL},
    {"builtin", "built-in", IC_COL_STR, NULL},
};
static const ic_col_spec_t cand_cols[] = {
    {"op", NULL, IC_COL_STR, NULL},
    {"bytes", NULL, IC_COL_INT, NULL},
    {"why", NULL, IC_COL_STR, NULL},
    {"won", NULL, IC_COL_STR, NULL},
    {"reps", NULL, IC_COL_INT, NULL},
    {"median", NULL, IC_COL_SEC, NULL},
    {"iqr", "iqr%", IC_COL_NUM, "%.0f"},
    {"predicted", NULL, IC_COL_SEC, NULL},
    {"over_best", "/best", IC_COL_NUM, "%.2f"},
    {"check", NULL, IC_COL_STR, NULL},
    {"plan", NULL, IC_COL_STR, NULL},
};
#define NCOLS(a) ((int)(sizeof(a) / sizeof((a)[0])))

int ic_bench_tune(ic_bench_t *b, const char *made_by)
{
    /* the built-in choice is the model's without a table (method, 2) */
    setenv("INTERCOM_TUNING_FILE", "none", 1);
    ic_coll_t ops[IC_COLL_COUNT];
    int nops = 0;
    MPI_Datatype type;
    if (ic_bench_type(b->o.type, &type) != 0) {
        if (b->rank == 0)
            fprintf(stderr, "intercom-tune: --type must be int, long, float or double\n");
        return 2;
    }
    if (b->o.ops) {
        if ((nops = ic_bench_colls(b, b->o.ops, ops)) < 0)
            return 2;
    } else if (b->o.quick) {
        nops = (int)(sizeof(quick_ops) / sizeof(quick_ops[0]));
        memcpy(ops, quick_ops, sizeof(quick_ops));
    } else {
        for (nops = 0; nops < IC_COLL_COUNT; nops++)
            ops[nops] = (ic_coll_t)nops;
    }
    if (b->size < 2) {
        if (b->rank == 0)
            fprintf(stderr, "intercom-tune: needs at least 2 ranks (a communicator of one "
                            "runs no algorithm)\n");
        return 2;
    }
    int k = b->o.candidates > 0 ? b->o.candidates
            : b->o.quick        ? TUNE_QUICK_CANDIDATES
                                : TUNE_CANDIDATES;
    if (k > 16)
        k = 16;
    int nshapes = b->o.shapes >= 0 ? b->o.shapes : b->o.quick ? 0 : IC_TUNE_SHAPES;
    int nrefine = b->o.refine >= 0 ? b->o.refine : b->o.quick ? 0 : IC_TUNE_REFINE;
    double prune = b->o.prune >= 0 ? b->o.prune : IC_TUNE_PRUNE;
    ic_bench_defaults(b, b->o.quick ? 0.15 : 0.5, b->o.quick ? 40 : 400, 1);
    size_t *sizes;
    int ns = ic_bench_sizes(b, 8, b->o.quick ? 1u << 20 : 4u << 20, b->o.quick ? 8 : 2, &sizes);
    size_t max_bytes = 0;
    for (int i = 0; i < ns; i++)
        max_bytes = sizes[i] > max_bytes ? sizes[i] : max_bytes;
    const char *out = b->o.output ? b->o.output : "intercom-tuning.tbl";

    ic_bench_describe(b);
    int nodes = 1, rpn = 0;
    int one = ic_bench_layout(b, &nodes, &rpn);
    ic_bench_model_t m;
    ic_bench_fit_model(b, type, max_bytes, one, IC_FIT_EXCHANGE | IC_FIT_STREAM, &m);

    /* the built-in choice of every point (no table: see main) */
    int npts = 0;
    for (int o = 0; o < nops; o++)
        npts += ops[o] == IC_COLL_BARRIER ? 1 : ns;
    char(*builtin)[IC_PLAN_TEXT_MAX] = ic_bench_alloc(b, (size_t)npts * IC_PLAN_TEXT_MAX);
    for (int o = 0, q = 0; o < nops; o++)
        for (int si = 0; si < (ops[o] == IC_COLL_BARRIER ? 1 : ns); si++, q++) {
            ic_point_t pt;
            ic_point_setup(b, &pt, ops[o], ops[o] == IC_COLL_BARRIER ? 0 : sizes[si], type, 0);
            IC_Set_algorithm((IC_Coll)ops[o], NULL);
            ic_point_reset(&pt, IC_LIB_IC);
            ic_point_call(&pt, IC_LIB_IC);
            snprintf(builtin[q], IC_PLAN_TEXT_MAX, "%s", IC_Last_algorithm((IC_Coll)ops[o]));
            ic_point_free(&pt);
        }
    if (load_header(b, &m, nodes, rpn) != 0) {
        free(builtin);
        free(sizes);
        return 1;
    }

    ic_rtable_t *tt = NULL, *ct = NULL;
    if (b->rank == 0) {
        ic_report_info_num(b->rep, "alpha", m.cost.alpha, "s");
        ic_report_info_num(b->rep, "beta", m.cost.beta, "s/B");
        ic_report_info_num(b->rep, "gamma", m.cost.gamma, "s/B");
        if (m.exchange) {
            ic_report_info_num(b->rep, "beta_x", m.cost.beta_x, "s/B");
            ic_report_info(b->rep, "x_min", "%zu B", m.cost.x_min);
        }
        if (m.node_fit) {
            ic_report_info_num(b->rep, "node_alpha", m.node.alpha, "s");
            ic_report_info_num(b->rep, "node_beta", m.node.beta, "s/B");
        }
        if (rpn > 0)
            ic_report_info(b->rep, "layout", "%d node(s), %d ranks per node", nodes, rpn);
        else
            ic_report_info(b->rep, "layout", "%d nodes, uneven ranks per node", nodes);
        ic_report_info(b->rep, "candidates",
                       "the model's %d cheapest plans, its cheapest on each of %d 2-D shapes, "
                       "%s on one line, the built-in choice; then up to %d rounds of local "
                       "search from the fastest plan",
                       k, nshapes, b->o.quick ? "the cheapest" : "every algorithm", nrefine);
        ic_report_note(b->rep,
                       "times: median of the slowest rank's time over interleaved blocks of "
                       "calls (more blocks for near-ties); the winner is the first candidate in "
                       "the model's order whose "
                       "median is within %.0f%% of the fastest; best: the fastest median; "
                       "built-in/best: the "
                       "regret of the library's choice without a table; model1/best: that of "
                       "the model's favourite under the fitted figures; predicted: the cost "
                       "model with the fitted figures",
                       IC_COLL_EFFECT * 100);
        tt = ic_report_table(b->rep, "tuned",
                             "Winners: the chosen candidate per collective and size, against "
                             "its prediction, the fastest and the built-in choice");
        ic_rtable_cols(tt, tuned_cols, NCOLS(tuned_cols));
        ct = ic_report_table(b->rep, "candidates",
                             "Every candidate measured: median of the slowest rank's time, "
                             "spread, the cost model's prediction");
        ic_rtable_cols(ct, cand_cols, NCOLS(cand_cols));
    }
    outcome_t *oc = ic_bench_alloc(b, (size_t)npts * sizeof(outcome_t));
    cand_t *cs = ic_bench_alloc(b, TUNE_MAX_CAND * sizeof(cand_t));
    cand_t *nb = ic_bench_alloc(b, (1 + TUNE_NEIGHBOURS) * sizeof(cand_t));
    int done = 0, rc = 0;
    for (int o = 0, q = 0; o < nops; o++) {
        ic_coll_t c = ops[o];
        int npoint = c == IC_COLL_BARRIER ? 1 : ns;
        size_t prev = 0;
        for (int si = 0; si < npoint; si++, q++) {
            time_t wall0 = time(NULL);
            size_t bytes = c == IC_COLL_BARRIER ? 0 : sizes[si];
            ic_point_t pt;
            ic_point_setup(b, &pt, c, bytes, type, 0);
            /* sizes below one element per rank round up to the same call
             * (an allgather of p elements): measured once */
            if (si > 0 && pt.total * pt.esz == prev) {
                memset(&oc[q], 0, sizeof(oc[q]));
                oc[q].c = c;
                ic_point_free(&pt);
                done++;
                continue;
            }
            prev = pt.total * pt.esz;
            ic_bench_progress(b, "[tune] %s %zu B (%d/%d)", ic_coll_name(c), bytes, ++done, npts);
            /* the vendor's result, the reference of every candidate */
            ic_point_reset(&pt, IC_LIB_VENDOR);
            ic_point_call(&pt, IC_LIB_VENDOR);
            memset(cs, 0, TUNE_MAX_CAND * sizeof(cand_t));
            int nc = 0;
            if (b->rank == 0)
                nc = candidates(b, &pt, &m, k, nshapes, !b->o.quick, nodes, rpn, builtin[q], cs);
            MPI_Bcast(&nc, 1, MPI_INT, 0, b->comm);
            for (int j = 0; j < nc; j++)
                MPI_Bcast(cs[j].text, IC_PLAN_TEXT_MAX, MPI_CHAR, 0, b->comm);
            for (int j = 0; b->rank == 0 && j < nc; j++)
                cs[j].pred = cs[j].keep        ? NAN
                             : cs[j].price > 0 ? cs[j].price
                                               : ic_point_predict(&pt, cs[j].text, &m);
            measure(b, &pt, pt.out[IC_LIB_VENDOR], cs, nc, prune, 0);
            int nc0 = nc;
            nc = refine(b, &pt, pt.out[IC_LIB_VENDOR], cs, nc, nrefine, nb, &m, prune);
            if (b->rank == 0) {
                /* the fastest median, then the winner: the first candidate in
                 * the model's order whose median is within IC_COLL_EFFECT of
                 * the fastest.  The measurement decides; the model's order
                 * only breaks near-ties.  (Keeping the model's choice
                 * wherever the medians' intervals overlap did worse on the
                 * emulated cluster, where 8 ranks share 2 cores: intervals
                 * that wide hid a 1.7x slower broadcast and a 1.25x slower
                 * reduce behind the model's favourite.) */
                int f = fastest(cs, nc), w = -1, mj = -1, bj = -1, npruned = 0;
                for (int j = 0; j < nc; j++) {
                    b->failures += cs[j].bad != 0;
                    if (cs[j].why && !strcmp(cs[j].why, "model 1"))
                        mj = j;
                    if (!strcmp(cs[j].text, builtin[q]))
                        bj = j;
                }
                for (int j = 0; j < nc && f >= 0 && w < 0; j++)
                    if (usable(&cs[j]) && cs[j].s.median <= (1 + IC_COLL_EFFECT) * cs[f].s.median)
                        w = j;
                outcome_t *r = &oc[q];
                memset(r, 0, sizeof(*r));
                r->c = c;
                r->bytes = pt.total * pt.esz; /* the call's bytes, as the table counts them */
                r->ncand = nc;
                snprintf(r->builtin, sizeof(r->builtin), "%s", builtin[q]);
                if (w >= 0) {
                    snprintf(r->plan, sizeof(r->plan), "%s", cs[w].text);
                    r->chosen = cs[w].s.median;
                    r->best = cs[f].s.median;
                    r->predicted = ic_point_predict(&pt, cs[w].text, &m);
                }
                r->t_builtin = bj >= 0 ? cs[bj].s.median : NAN;
                r->t_model = mj >= 0 ? cs[mj].s.median : NAN;
                for (int j = 0; j < nc; j++) {
                    ic_rtable_row(ct);
                    ic_rtable_str(ct, ic_coll_name(c));
                    ic_rtable_num(ct, (double)r->bytes);
                    ic_rtable_str(ct, cs[j].why);
                    ic_rtable_str(ct, j == w ? "*" : "");
                    ic_rtable_num(ct, cs[j].n);
                    ic_rtable_num(ct, cs[j].s.median);
                    ic_rtable_num(ct, ic_rel_spread(&cs[j].s) * 100);
                    ic_rtable_num(ct, ic_point_predict(&pt, cs[j].text, &m));
                    npruned += cs[j].pruned;
                    ic_rtable_num(ct, r->best > 0 ? cs[j].s.median / r->best : NAN);
                    ic_rtable_str(ct, cs[j].bad      ? "MISMATCH"
                                      : cs[j].other  ? "unusable"
                                      : cs[j].pruned ? "pruned"
                                      : pt.shared    ? "shared"
                                                     : "ok");
                    ic_rtable_str(ct, cs[j].text);
                }
                if (w >= 0) {
                    ic_rtable_row(tt);
                    ic_rtable_str(tt, ic_coll_name(c));
                    ic_rtable_num(tt, (double)r->bytes);
                    ic_rtable_num(tt, nc);
                    ic_rtable_num(tt, r->chosen);
                    ic_rtable_num(tt, r->predicted);
                    ic_rtable_num(tt, r->chosen > 0 ? r->predicted / r->chosen : NAN);
                    ic_rtable_num(tt, r->chosen / r->best);
                    ic_rtable_num(tt, r->t_builtin / r->best);
                    ic_rtable_num(tt, r->t_model / r->best);
                    ic_rtable_str(tt, r->plan);
                    ic_rtable_str(tt, r->builtin);
                }
                /* a lasting line per point (a point of a 512-rank tune
                 * under SMPI takes minutes), and the table so far */
                ic_bench_progress_end(b);
                fprintf(stderr,
                        "intercom-tune: %s %zu B: %d candidates (%d by local search, %d "
                        "pruned), %.0f s: %s %.3g s (built-in %.2fx)\n",
                        ic_coll_name(c), r->bytes, nc, nc - nc0, npruned,
                        difftime(time(NULL), wall0), w >= 0 ? r->plan : "no usable candidate",
                        r->chosen, r->t_builtin / r->best);
                save_table(b, &m, nodes, rpn, made_by, oc, q + 1, out, 0);
            }
            for (int j = 0; j < nc; j++)
                free(cs[j].t);
            ic_point_free(&pt);
        }
    }
    ic_bench_progress_end(b);
    IC_Tuning_load(NULL);
    if (b->rank == 0) {
        long rules = save_table(b, &m, nodes, rpn, made_by, oc, npts, out, 1);
        if (rules < 0)
            rc = 1;
        else
            ic_report_headline(b->rep, "table",
                               "wrote %s: %ld rules for %d ranks; use it with "
                               "INTERCOM_TUNING_FILE=%s or IC_Tuning_load",
                               out, rules, b->size, out);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, b->comm);
    free(nb);
    free(cs);
    free(oc);
    free(builtin);
    free(sizes);
    return rc;
}
