/*
 * calibrate.c -- the model's alpha and beta measured at a context's
 * creation (src/calibrate.c), looked at from inside (it links the runtime
 * itself, libicrt, like placement.c).  calibrate.sh runs it on one machine
 * with INTERCOM_CALIBRATE=1 (measure on any communicator: here every rank
 * shares a node) and CAL_EXPECT saying what must happen:
 *   measure  ranks 0 and 1 alone first (a communicator of the two): they
 *            measure, once; then a duplicate of the world, whose other
 *            ranks hold no figures and take theirs without measuring; then
 *            the world split in halves, and a duplicate of the pair: no
 *            measurement, the same figures.  Every context that has them
 *            prices with them (ic_ctx_cost), bitwise the same on every
 *            rank.  Communicators of 4 ranks or more (the world's
 *            duplicate) also measure shifts by rank distance, every rank
 *            (their figures the same everywhere, each factor at least 1,
 *            priced with when any is not 1); a second duplicate of the
 *            world takes the held ones, the world in reverse order (another
 *            group) measures again;
 *   alpha    as measure, with INTERCOM_ALPHA set: alpha stays the
 *            variable's, beta is measured;
 *   none     nothing measured, every context prices with the
 *            environment's figures (INTERCOM_CALIBRATE=0; INTERCOM_ALPHA
 *            and INTERCOM_BETA both set);
 *   auto     the default: none when every rank shares a node, measure
 *            when ranks 0 and 1 are on different nodes (SimGrid's SMPI,
 *            make check-smpi: every rank a host of its own).
 * Each communicator also runs an IC_Allreduce checked against MPI's.
 */
#include <mpi.h>
#include "ic_internal.h"

#include <stdlib.h>
#include <string.h>

#define SIMPLE_TEST "calibrate"
#include "simple.h"

#define N 1001

enum { MEASURE, ALPHA, NONE };
static int expect;

/* The lowest world rank on each rank's node (MPI's shared-memory domain),
 * of ranks 0 and 1: *spans is 1 when some rank is off rank 0's node, and
 * *apart when ranks 0 and 1 are on different nodes. */
static void nodes(int *spans, int *apart)
{
    MPI_Comm node;
    MPI_Group g, world;
    int zero = 0, lead = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_group(node, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_translate_ranks(g, 1, &zero, world, &lead);
    MPI_Group_free(&g);
    MPI_Group_free(&world);
    MPI_Comm_free(&node);
    int off = lead != 0, lead1 = lead;
    MPI_Allreduce(MPI_IN_PLACE, &off, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Bcast(&lead1, 1, MPI_INT, p > 1 ? 1 : 0, MPI_COMM_WORLD);
    *spans = off;
    *apart = lead1 != 0;
}

/* Every rank of comm holds the same double v (bitwise). */
static int same_everywhere(MPI_Comm comm, double v)
{
    double lo = v, hi = v;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_DOUBLE, MPI_MIN, comm);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_DOUBLE, MPI_MAX, comm);
    return memcmp(&lo, &v, sizeof(v)) == 0 && memcmp(&hi, &v, sizeof(v)) == 0;
}

/* The context's figures by rank distance: the same on every rank, each
 * factor at least 1 over increasing strides from 1, and priced with
 * (ctx->calib.strides) when there are any.  Every rank makes the same
 * collective calls whatever it finds (the largest count of strides). */
static void check_strides(MPI_Comm comm, const ic_ctx_t *ctx)
{
    const ic_strides_t *S = &ctx->strides;
    int n = S->n >= 0 && S->n <= IC_STRIDES_MAX ? S->n : 0, most = n;
    int ok = same_everywhere(comm, S->n) & same_everywhere(comm, S->two_any);
    ok &= n == S->n;
    MPI_Allreduce(&n, &most, 1, MPI_INT, MPI_MAX, comm);
    for (int i = 0; i < most; i++) {
        int in = i < n;
        double a = in ? S->alpha[i] : 0, b = in ? S->beta[i] : 0, w = in ? (double)S->stride[i] : 0;
        double ta = in ? S->two_alpha[i] : 0, tb = in ? S->two_beta[i] : 0;
        /* the median rank's no more than the slowest's */
        double ia = in ? S->in_alpha[i] : 0, ib = in ? S->in_beta[i] : 0;
        double ita = in ? S->in_two_alpha[i] : 0;
        ok &= in && a >= 1 && b >= 1 && ta >= 0 && tb >= 0 &&
              (i ? S->stride[i] > S->stride[i - 1] : S->stride[i] == 1);
        ok &= in && ia >= 1 && ia <= a && ib >= 1 && ib <= b && ita > 0;
        ok &= same_everywhere(comm, a) & same_everywhere(comm, b) & same_everywhere(comm, w) &
              same_everywhere(comm, ta) & same_everywhere(comm, tb) & same_everywhere(comm, ia) &
              same_everywhere(comm, ib) & same_everywhere(comm, ita);
    }
    if (!ok)
        fail("figures by rank distance differ between ranks or are implausible");
    if (ctx->calib.strides != (S->n > 0 ? S : NULL))
        fail("the model does not price with the figures by rank distance");
}

/* The context's message time by length: the same on every rank, lengths
 * increasing, factors at least 1 and the last (the long length) 1, priced
 * with (ctx->calib.msgtime) when it has any and alpha and beta are the
 * measured ones (none with INTERCOM_ALPHA set).  The same calls on every
 * rank whatever it finds. */
static void check_msgtime(MPI_Comm comm, const ic_ctx_t *ctx, int measured_line)
{
    const ic_msgtime_t *T = &ctx->msgtime;
    int n = T->n >= 0 && T->n <= IC_MSGTIME_MAX ? T->n : 0, most = n;
    int ok = same_everywhere(comm, T->n) & (n == T->n) & (n == 0 || n >= 2);
    MPI_Allreduce(&n, &most, 1, MPI_INT, MPI_MAX, comm);
    for (int i = 0; i < most; i++) {
        int in = i < n;
        double b = in ? T->bytes[i] : 0, f = in ? T->factor[i] : 0;
        ok &= in && f >= 1 && b > (i ? T->bytes[i - 1] : 0) && (i + 1 < n || f == 1);
        ok &= same_everywhere(comm, b) & same_everywhere(comm, f);
    }
    if (!ok)
        fail("message times by length differ between ranks or are implausible");
    if (ctx->calib.msgtime != (n > 0 && measured_line ? T : NULL))
        fail("the model %s the message times by length",
             ctx->calib.msgtime ? "prices with" : "does not price with");
}

/* An IC_Allreduce on comm (its context made, if not yet), checked; then
 * the context's figures.  want_count: the measurements this rank must
 * have taken part in by now; want_strides: those by rank distance.
 * Returns the context's alpha (0: none). */
static double run_comm(const char *name, MPI_Comm comm, int want_count, int want_strides)
{
    where = name;
    ncases++;
    int n, r;
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &r);
    int in[N], out[N], ref[N];
    for (int i = 0; i < N; i++)
        in[i] = (r + 1) * (i % 97) - i;
    if (IC_Allreduce(in, out, N, MPI_INT, MPI_SUM, comm) != MPI_SUCCESS)
        fail("IC_Allreduce failed");
    MPI_Allreduce(in, ref, N, MPI_INT, MPI_SUM, comm);
    if (memcmp(out, ref, sizeof(out)) != 0)
        fail("IC_Allreduce differs from MPI_Allreduce");
    if (ic_calibrations() != want_count)
        fail("%d measurement(s) taken part in, want %d", ic_calibrations(), want_count);
    if (ic_stride_calibrations() != want_strides)
        fail("%d measurement(s) by rank distance taken part in, want %d", ic_stride_calibrations(),
             want_strides);
    /* whatever a rank finds, every rank makes the same collective calls
     * below (want is the same everywhere) */
    int want = expect != NONE && n >= 2;
    ic_cost_params_t none;
    memset(&none, 0, sizeof(none));
    const ic_cost_params_t *c = &none;
    ic_ctx_t *ctx = NULL;
    if (ic_ctx_get(comm, &ctx) != MPI_SUCCESS || !ctx)
        fail("no context");
    else {
        c = ic_ctx_cost(ctx);
        if (ctx->calibrated != want)
            fail("calibrated %d, want %d", ctx->calibrated, want);
        if (want ? c != &ctx->calib : c != ctx->cost)
            fail("prices with other figures than the %s", want ? "measured ones" : "environment's");
    }
    if (!want)
        return 0;
    if (ctx) {
        check_strides(comm, ctx);
        check_msgtime(comm, ctx, expect != ALPHA);
    }
    if (!(c->alpha > 0 && c->alpha < 1 && c->beta > 0 && c->beta < 1e-3))
        fail("implausible figures: alpha %g s, beta %g s/B", c->alpha, c->beta);
    if (expect == ALPHA && c->alpha != atof(getenv("INTERCOM_ALPHA")))
        fail("alpha %g, not INTERCOM_ALPHA's %s", c->alpha, getenv("INTERCOM_ALPHA"));
    if (expect == MEASURE && ctx && c->alpha == ctx->cost->alpha && c->beta == ctx->cost->beta)
        fail("the figures are the built-in ones");
    if (!same_everywhere(comm, c->alpha) || !same_everywhere(comm, c->beta) ||
        !same_everywhere(comm, c->overhead) || !same_everywhere(comm, c->beta_x))
        fail("the ranks' figures differ");
    return c->alpha;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    const char *e = getenv("CAL_EXPECT");
    expect = e && !strcmp(e, "alpha") ? ALPHA : e && !strcmp(e, "none") ? NONE : MEASURE;
    if (e && !strcmp(e, "auto")) {
        int spans, apart;
        nodes(&spans, &apart);
        if (spans && !apart) { /* another layout than this test knows */
            if (wrank == 0)
                printf("SKIP: calibrate p=%d CAL_EXPECT=auto: ranks 0 and 1 share a node, "
                       "others do not\n",
                       p);
            MPI_Finalize();
            return 0;
        }
        expect = spans ? MEASURE : NONE;
    }
    int measures = expect != NONE && p >= 2;

    /* ranks 0 and 1 first: they measure */
    MPI_Comm pair = MPI_COMM_NULL, world, half, pair2 = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, wrank < 2 ? 0 : MPI_UNDEFINED, wrank, &pair);
    double a_pair = 0;
    if (pair != MPI_COMM_NULL)
        a_pair = run_comm("ranks 0 and 1", pair, measures, 0);
    /* the world: the others take the pair's figures; 4 ranks or more
     * measure by rank distance */
    MPI_Comm_dup(MPI_COMM_WORLD, &world);
    int mine = measures && wrank < 2, strides = measures && p >= 4;
    double a_world = run_comm("world", world, mine, strides);
    MPI_Bcast(&a_pair, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (measures && a_world != a_pair) {
        where = "world";
        fail("alpha %g, not the pair's %g", a_world, a_pair);
    }
    /* halves and the pair again: figures held everywhere, none measured */
    MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wrank, &half);
    run_comm(wrank % 2 ? "odd half" : "even half", half, mine, strides);
    if (pair != MPI_COMM_NULL) {
        MPI_Comm_dup(pair, &pair2);
        run_comm("ranks 0 and 1 again", pair2, mine, strides);
        MPI_Comm_free(&pair2);
        MPI_Comm_free(&pair);
    }
    /* the world again: its figures by rank distance held; in reverse
     * order: another group, measured again */
    MPI_Comm world2, reverse;
    MPI_Comm_dup(MPI_COMM_WORLD, &world2);
    run_comm("world again", world2, mine, strides);
    MPI_Comm_split(MPI_COMM_WORLD, 0, p - wrank, &reverse);
    run_comm("world reversed", reverse, mine, strides * 2);
    MPI_Comm_free(&reverse);
    MPI_Comm_free(&world2);
    MPI_Comm_free(&half);
    MPI_Comm_free(&world);

    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (wrank == 0)
        printf("%s: calibrate p=%d CAL_EXPECT=%s (%s): %d communicators, %d failure(s)\n",
               total ? "FAIL" : "PASS", p, e ? e : "measure",
               expect == NONE ? "none measured" : "measured", ncases, total);
    MPI_Finalize();
    return total ? 1 : 0;
}
