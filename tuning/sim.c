/*
 * sim.c -- the in-memory simulator (see sim.h).
 *
 * The p schedules run as a dataflow.  Every rank has a cursor at its current
 * round.  Posting a round posts all its SENDs and RECVs at once; messages of
 * one ordered pair (src, dst) match in posting order (MPI's non-overtaking
 * rule), whatever the round numbers.  A rank completes its round when every
 * RECV is matched and, in rendezvous mode, every SEND too; it then applies
 * the round's REDUCE and COPY actions in order and moves to the next round.
 * When no rank can move and some have not finished, the run reports a
 * deadlock naming the blocked ranks, their round and what they wait for.
 *
 * Data movement.  A matched message copies its elements straight from the
 * sender's region into the receiver's region.  In rendezvous mode that is
 * exact: the sender cannot leave the round before the match and nothing in
 * the round writes a SEND region (checked), so the region still holds the
 * data of posting time.  In eager mode (rendezvous == 0) a SEND that finds
 * no posted RECV is snapshotted (copied) when posted.
 *
 * Pending messages wait in the per-pair FIFO queues of the matcher
 * (algorithms/match.c, shared with the cost evaluator).  The work is
 * O(total actions + total elements moved), independent of p per round.
 *
 * Reductions.  Element a (op) b, written into the REDUCE destination:
 *   - both must be defined (IC_SIM_VALID) and not BAD, and stand for the
 *     same element index (a different index means misaligned offsets);
 *   - ordered mode: a.hi + 1 == b.lo (left-to-right rank order kept);
 *   - commutative mode: the contributor sets must be disjoint.  mask is the
 *     exact bit set of contributors below 64, so for p <= 64 a repeated
 *     contributor is caught at once; above that, hsum (sum of 64-bit rank
 *     hashes) and nranks are checked in the final result by the expect
 *     helpers (a multiset other than "each rank once" passes only with
 *     negligible probability), and nranks > p is flagged at once.
 * An illegal combination makes the result IC_SIM_BAD (and not VALID) and is
 * counted in sim->nbad; it is not a run error, since tests check the final
 * buffers.
 *
 * Run errors (return -1, sim->err set, run stops): a schedule that is not
 * usable or does not belong to its rank, a peer out of range, a region
 * beyond its buffer (SEND/RECV sizes from ic_sim_init, SCRATCH/SCRATCH2 from
 * that rank's sched->scratch[]), a write into IC_BUF_SEND, a RECV region of
 * a round overlapping another RECV or a SEND region of the same round,
 * matched SEND/RECV counts that differ, a COPY or REDUCE whose regions
 * differ in count or overlap (an identical COPY is allowed), a deadlock, and
 * in eager mode a SEND that nobody received.  The simulator has one element
 * type for all buffers, so COPY counts must be equal here.
 */
#include "sim.h"
#include "match.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ elements */

uint64_t ic_sim_rank_hash(int rank)
{
    /* splitmix64 finaliser of the rank: well-mixed, deterministic */
    uint64_t z = (uint64_t)(uint32_t)rank + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t rank_bit(int rank)
{
    return (rank >= 0 && rank < 64) ? (uint64_t)1 << rank : 0;
}

ic_sim_elem_t ic_sim_data(int origin, int index)
{
    ic_sim_elem_t e;
    memset(&e, 0, sizeof(e));
    e.lo = e.hi = origin;
    e.index = index;
    e.flags = IC_SIM_VALID;
    e.mask = rank_bit(origin);
    e.hsum = ic_sim_rank_hash(origin);
    e.nranks = 1;
    return e;
}

/* ------------------------------------------------------------ lifetime */

int ic_sim_init(ic_sim_t *sim, int p, size_t sendlen, size_t recvlen)
{
    memset(sim, 0, sizeof(*sim));
    sim->p = p;
    sim->rendezvous = 1;
    if (p <= 0)
        return -1;
    sim->hprefix = malloc(((size_t)p + 1) * sizeof(uint64_t));
    if (!sim->hprefix)
        return -1;
    sim->hprefix[0] = 0;
    for (int r = 0; r < p; r++)
        sim->hprefix[r + 1] = sim->hprefix[r] + ic_sim_rank_hash(r);
    sim->buflen[IC_BUF_SEND] = sendlen;
    sim->buflen[IC_BUF_RECV] = recvlen;
    for (int b = IC_BUF_SEND; b <= IC_BUF_RECV; b++) {
        /* at least one element so that the pointer is never NULL */
        size_t n = (size_t)p * sim->buflen[b];
        sim->bufs[b] = calloc(n ? n : 1, sizeof(ic_sim_elem_t));
        if (!sim->bufs[b]) {
            ic_sim_free(sim);
            return -1;
        }
    }
    return 0;
}

void ic_sim_free(ic_sim_t *sim)
{
    free(sim->hprefix);
    sim->hprefix = NULL;
    for (int b = 0; b < IC_NBUF; b++) {
        free(sim->bufs[b]);
        sim->bufs[b] = NULL;
        sim->buflen[b] = 0;
    }
}

void ic_sim_fill(ic_sim_t *sim, ic_buf_t b)
{
    for (int r = 0; r < sim->p; r++)
        for (size_t e = 0; e < sim->buflen[b]; e++)
            *ic_sim_at(sim, b, r, e) = ic_sim_data(r, (int)e);
}

/* ------------------------------------------------------------ errors */

static void seterr(ic_sim_t *sim, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sim->err, sizeof(sim->err), fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------ run state */

/* A posted SEND or RECV waiting in the matcher. */
typedef struct pend {
    int rank;            /* rank that posted it                     */
    size_t act;          /* index into that rank's acts             */
    ic_sim_elem_t *snap; /* eager SEND snapshot, or NULL          */
} pend_t;

typedef struct rstate {
    size_t round;   /* current round                           */
    size_t pending; /* communication actions still unmatched   */
    int posted;     /* current round posted                    */
    int inq;        /* on the work list                        */
} rstate_t;

typedef struct span {
    ic_buf_t buf;
    size_t off, end;
    int recv;
} span_t;

typedef struct run {
    ic_sim_t *sim;
    int p;
    rstate_t *st;
    size_t *base;           /* first global action index of each rank */
    unsigned char *matched; /* per global action                     */
    ic_match_t match;       /* entries: pend_t                       */
    int *work;
    int nwork;
    span_t *spans;
    size_t spancap;
} run_t;

static size_t limit(const ic_sim_t *sim, int r, ic_buf_t b)
{
    if (b == IC_BUF_SEND || b == IC_BUF_RECV)
        return sim->buflen[b];
    return sim->scheds[r].scratch[b];
}

static int region_ok(run_t *R, int r, size_t round, const char *what, ic_region_t g)
{
    ic_sim_t *sim = R->sim;
    if ((int)g.buf < 0 || (int)g.buf >= IC_NBUF) {
        seterr(sim, "rank %d round %zu: %s names buffer %d", r, round, what, (int)g.buf);
        return -1;
    }
    size_t lim = limit(sim, r, g.buf);
    if (g.off > lim || g.count > lim - g.off) {
        seterr(sim, "rank %d round %zu: %s region %s[%zu +%zu] beyond its %zu elements", r, round,
               what, ic_buf_name(g.buf), g.off, g.count, lim);
        return -1;
    }
    return 0;
}

static ic_sim_elem_t *ptr(ic_sim_t *sim, int r, ic_region_t g)
{
    return ic_sim_at(sim, g.buf, r, g.off);
}

static void wake(run_t *R, int r)
{
    if (!R->st[r].inq) {
        R->st[r].inq = 1;
        R->work[R->nwork++] = r;
    }
}

static void done_one(run_t *R, int r)
{
    if (--R->st[r].pending == 0)
        wake(R, r);
}

/* Deliver a matched message. */
static int deliver(run_t *R, int s, size_t sact, const ic_sim_elem_t *snap, int d, size_t ract)
{
    ic_sim_t *sim = R->sim;
    const ic_action_t *sa = &sim->scheds[s].acts[sact];
    const ic_action_t *ra = &sim->scheds[d].acts[ract];
    if (sa->src.count != ra->dst.count) {
        seterr(sim, "count mismatch: rank %d sends %zu elements to rank %d, which receives %zu", s,
               sa->src.count, d, ra->dst.count);
        return -1;
    }
    const ic_sim_elem_t *from = snap ? snap : ptr(sim, s, sa->src);
    if (ra->dst.count)
        memcpy(ptr(sim, d, ra->dst), from, ra->dst.count * sizeof(ic_sim_elem_t));
    sim->nmsgs++;
    R->matched[R->base[d] + ract] = 1;
    done_one(R, d);
    if (sim->rendezvous) {
        R->matched[R->base[s] + sact] = 1;
        done_one(R, s);
    }
    return 0;
}

static int span_cmp(const void *x, const void *y)
{
    const span_t *a = x, *b = y;
    if (a->buf != b->buf)
        return a->buf < b->buf ? -1 : 1;
    if (a->off != b->off)
        return a->off < b->off ? -1 : 1;
    return 0;
}

/* Check one round's regions before posting it. */
static int check_round(run_t *R, int r, size_t round, const ic_action_t *a, size_t n)
{
    ic_sim_t *sim = R->sim;
    size_t ns = 0;
    if (n > R->spancap) {
        span_t *np = realloc(R->spans, n * sizeof(*np));
        if (!np) {
            seterr(sim, "out of memory");
            return -1;
        }
        R->spans = np;
        R->spancap = n;
    }
    for (size_t i = 0; i < n; i++) {
        const ic_action_t *x = &a[i];
        switch (x->kind) {
        case IC_ACT_SEND:
        case IC_ACT_RECV: {
            if (x->peer < 0 || x->peer >= R->p) {
                seterr(sim, "rank %d round %zu: peer %d out of range", r, round, x->peer);
                return -1;
            }
            int recv = x->kind == IC_ACT_RECV;
            ic_region_t g = recv ? x->dst : x->src;
            if (region_ok(R, r, round, recv ? "recv" : "send", g))
                return -1;
            if (recv && g.buf == IC_BUF_SEND) {
                seterr(sim, "rank %d round %zu: recv into the send buffer", r, round);
                return -1;
            }
            if (g.count) {
                span_t sp = {g.buf, g.off, g.off + g.count, recv};
                R->spans[ns++] = sp;
            }
            break;
        }
        case IC_ACT_REDUCE:
        case IC_ACT_COPY: {
            const char *w = x->kind == IC_ACT_REDUCE ? "reduce" : "copy";
            if (region_ok(R, r, round, w, x->src) || region_ok(R, r, round, w, x->dst))
                return -1;
            if (x->dst.buf == IC_BUF_SEND) {
                seterr(sim, "rank %d round %zu: %s writes the send buffer", r, round, w);
                return -1;
            }
            if (x->src.count != x->dst.count) {
                seterr(sim, "rank %d round %zu: %s of %zu elements into %zu", r, round, w,
                       x->src.count, x->dst.count);
                return -1;
            }
            int same = x->src.buf == x->dst.buf;
            int overlap = same && x->src.count && x->src.off < x->dst.off + x->dst.count &&
                          x->dst.off < x->src.off + x->src.count;
            int identical = same && x->src.off == x->dst.off;
            if (overlap && (x->kind == IC_ACT_REDUCE || !identical)) {
                seterr(sim, "rank %d round %zu: %s regions %s[%zu +%zu] and %s[%zu] overlap", r,
                       round, w, ic_buf_name(x->src.buf), x->src.off, x->src.count,
                       ic_buf_name(x->dst.buf), x->dst.off);
                return -1;
            }
            break;
        }
        default:
            seterr(sim, "rank %d round %zu: unknown action kind %d", r, round, (int)x->kind);
            return -1;
        }
    }
    if (ns > 1) {
        qsort(R->spans, ns, sizeof(span_t), span_cmp);
        size_t i = 0;
        while (i < ns) {
            size_t j = i, end_all = 0, end_recv = 0;
            for (; j < ns && R->spans[j].buf == R->spans[i].buf; j++) {
                const span_t *x = &R->spans[j];
                if ((x->recv && x->off < end_all) || (!x->recv && x->off < end_recv)) {
                    const char *other = (x->recv && x->off < end_recv) ? "recv" : "send";
                    seterr(sim, "rank %d round %zu: a recv region overlaps a %s region at %s[%zu]",
                           r, round, other, ic_buf_name(x->buf), x->off);
                    return -1;
                }
                if (x->end > end_all)
                    end_all = x->end;
                if (x->recv && x->end > end_recv)
                    end_recv = x->end;
            }
            i = j;
        }
    }
    return 0;
}

static int post_round(run_t *R, int r)
{
    ic_sim_t *sim = R->sim;
    rstate_t *st = &R->st[r];
    size_t n;
    const ic_action_t *a = ic_sched_round_acts(&sim->scheds[r], st->round, &n);
    size_t first = sim->scheds[r].round_first[st->round];
    if (check_round(R, r, st->round, a, n))
        return -1;
    st->pending = 0;
    for (size_t i = 0; i < n; i++)
        if (a[i].kind == IC_ACT_RECV || (a[i].kind == IC_ACT_SEND && sim->rendezvous))
            st->pending++;
    /* Keep the rank off the work list while its own matches count down;
     * the caller looks at pending itself. */
    int was_inq = st->inq;
    st->inq = 1;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const ic_action_t *x = &a[i];
        if (x->kind != IC_ACT_SEND && x->kind != IC_ACT_RECV)
            continue;
        int send = x->kind == IC_ACT_SEND;
        pend_t me = {r, first + i, NULL};
        void *got;
        int src = send ? r : x->peer, dst = send ? x->peer : r;
        int m = ic_match_post(&R->match, x->kind, src, dst, &me, &got);
        if (m < 0) {
            seterr(sim, "out of memory");
            rc = -1;
            break;
        }
        pend_t *e = got;
        if (m == 1 && send) {
            rc = deliver(R, r, me.act, NULL, e->rank, e->act);
        } else if (m == 1) {
            rc = deliver(R, e->rank, e->act, e->snap, r, me.act);
            free(e->snap);
            e->snap = NULL;
        } else if (send && !sim->rendezvous) {
            /* waits for its receive: keep the data of posting time */
            e->snap = malloc((x->src.count ? x->src.count : 1) * sizeof(*e->snap));
            if (!e->snap) {
                seterr(sim, "out of memory");
                rc = -1;
                break;
            }
            if (x->src.count)
                memcpy(e->snap, ptr(sim, r, x->src), x->src.count * sizeof(*e->snap));
        }
    }
    st->inq = was_inq;
    st->posted = 1;
    return rc;
}

static void combine(ic_sim_t *sim, const ic_sim_elem_t *a, const ic_sim_elem_t *b,
                    ic_sim_elem_t *out)
{
    ic_sim_elem_t r;
    memset(&r, 0, sizeof(r));
    r.index = a->index;
    int ok = (a->flags & IC_SIM_VALID) && (b->flags & IC_SIM_VALID) &&
             !((a->flags | b->flags) & IC_SIM_BAD) && a->index == b->index;
    if (ok && sim->ordered && (int64_t)a->hi + 1 != (int64_t)b->lo)
        ok = 0;
    if (ok && (a->mask & b->mask))
        ok = 0;
    if (ok && (int64_t)a->nranks + b->nranks > sim->p)
        ok = 0;
    if (!ok) {
        r.lo = a->lo < b->lo ? a->lo : b->lo;
        r.hi = a->hi > b->hi ? a->hi : b->hi;
        r.flags = IC_SIM_BAD;
        sim->nbad++;
        *out = r;
        return;
    }
    r.lo = a->lo < b->lo ? a->lo : b->lo;
    r.hi = a->hi > b->hi ? a->hi : b->hi;
    r.flags = IC_SIM_VALID;
    r.mask = a->mask | b->mask;
    r.hsum = a->hsum + b->hsum;
    r.nranks = a->nranks + b->nranks;
    *out = r;
}

static void local_actions(run_t *R, int r)
{
    ic_sim_t *sim = R->sim;
    size_t n;
    const ic_action_t *a = ic_sched_round_acts(&sim->scheds[r], R->st[r].round, &n);
    for (size_t i = 0; i < n; i++) {
        const ic_action_t *x = &a[i];
        if (x->kind == IC_ACT_COPY) {
            if (x->src.count && !(x->src.buf == x->dst.buf && x->src.off == x->dst.off))
                memcpy(ptr(sim, r, x->dst), ptr(sim, r, x->src),
                       x->src.count * sizeof(ic_sim_elem_t));
        } else if (x->kind == IC_ACT_REDUCE) {
            const ic_sim_elem_t *s = x->src.count ? ptr(sim, r, x->src) : NULL;
            ic_sim_elem_t *d = x->dst.count ? ptr(sim, r, x->dst) : NULL;
            for (size_t k = 0; k < x->src.count; k++) {
                if (x->src_first)
                    combine(sim, &s[k], &d[k], &d[k]);
                else
                    combine(sim, &d[k], &s[k], &d[k]);
            }
        }
    }
}

static void report_deadlock(run_t *R)
{
    ic_sim_t *sim = R->sim;
    size_t len = 0, cap = sizeof(sim->err);
    int nblocked = 0;
    for (int r = 0; r < R->p; r++)
        if (R->st[r].round < sim->scheds[r].nrounds)
            nblocked++;
    len += (size_t)snprintf(sim->err, cap, "deadlock (%d ranks blocked):", nblocked);
    for (int r = 0; r < R->p && len < cap; r++) {
        rstate_t *st = &R->st[r];
        if (st->round >= sim->scheds[r].nrounds)
            continue;
        len += (size_t)snprintf(sim->err + len, cap - len, " rank %d round %zu waits for", r,
                                st->round);
        size_t n;
        const ic_action_t *a = ic_sched_round_acts(&sim->scheds[r], st->round, &n);
        size_t first = sim->scheds[r].round_first[st->round];
        for (size_t i = 0; i < n && len < cap; i++) {
            if (R->matched[R->base[r] + first + i])
                continue;
            if (a[i].kind == IC_ACT_RECV)
                len += (size_t)snprintf(sim->err + len, cap - len, " recv<-%d", a[i].peer);
            else if (a[i].kind == IC_ACT_SEND && sim->rendezvous)
                len += (size_t)snprintf(sim->err + len, cap - len, " send->%d", a[i].peer);
        }
        if (len < cap)
            len += (size_t)snprintf(sim->err + len, cap - len, ";");
    }
}

static void run_free(run_t *R)
{
    /* snapshots of sends still waiting (matched entries have none) */
    for (size_t i = 0; i < R->match.npool; i++)
        free(((pend_t *)ic_match_entry(&R->match, i))->snap);
    ic_match_free(&R->match);
    free(R->st);
    free(R->base);
    free(R->matched);
    free(R->work);
    free(R->spans);
}

static int alloc_scratch(ic_sim_t *sim)
{
    for (int b = IC_BUF_SCRATCH; b <= IC_BUF_SCRATCH2; b++) {
        size_t len = 0;
        for (int r = 0; r < sim->p; r++)
            if (sim->scheds[r].scratch[b] > len)
                len = sim->scheds[r].scratch[b];
        free(sim->bufs[b]);
        size_t n = (size_t)sim->p * len;
        sim->bufs[b] = calloc(n ? n : 1, sizeof(ic_sim_elem_t));
        sim->buflen[b] = len;
        if (!sim->bufs[b])
            return -1;
    }
    return 0;
}

int ic_sim_run(ic_sim_t *sim)
{
    run_t R;
    memset(&R, 0, sizeof(R));
    R.sim = sim;
    R.p = sim->p;
    sim->err[0] = 0;
    sim->nbad = 0;
    sim->nmsgs = 0;
    int p = sim->p, rc = -1;
    if (!sim->scheds) {
        seterr(sim, "no schedules");
        return -1;
    }
    size_t total = 0;
    for (int r = 0; r < p; r++) {
        ic_sched_t *s = &sim->scheds[r];
        if (ic_sched_ok(s)) {
            seterr(sim, "rank %d: schedule is not usable (allocation failed)", r);
            return -1;
        }
        if (s->rank != r || s->size != p) {
            seterr(sim, "schedule %d belongs to rank %d of %d (expected %d of %d)", r, s->rank,
                   s->size, r, p);
            return -1;
        }
        total += s->nacts;
    }
    if (alloc_scratch(sim)) {
        seterr(sim, "out of memory");
        return -1;
    }
    int match_rc = ic_match_init(&R.match, p, sizeof(pend_t));
    R.st = calloc((size_t)p, sizeof(*R.st));
    R.base = calloc((size_t)p, sizeof(*R.base));
    R.matched = calloc(total ? total : 1, 1);
    R.work = malloc((size_t)p * sizeof(*R.work));
    if (match_rc || !R.st || !R.base || !R.matched || !R.work) {
        seterr(sim, "out of memory");
        goto out;
    }
    for (int r = 1; r < p; r++)
        R.base[r] = R.base[r - 1] + sim->scheds[r - 1].nacts;
    for (int r = p - 1; r >= 0; r--)
        wake(&R, r);
    while (R.nwork > 0) {
        int r = R.work[--R.nwork];
        rstate_t *st = &R.st[r];
        st->inq = 0;
        while (st->round < sim->scheds[r].nrounds) {
            if (!st->posted && post_round(&R, r))
                goto out;
            if (st->pending)
                break;
            local_actions(&R, r);
            st->round++;
            st->posted = 0;
        }
    }
    for (int r = 0; r < p; r++)
        if (R.st[r].round < sim->scheds[r].nrounds) {
            report_deadlock(&R);
            goto out;
        }
    const pend_t *e = ic_match_waiting(&R.match);
    if (e) {
        seterr(sim, "rank %d sent a message to rank %d that was never received", e->rank,
               sim->scheds[e->rank].acts[e->act].peer);
        goto out;
    }
    rc = 0;
out:
    run_free(&R);
    return rc;
}

/* ------------------------------------------------------------ expectations */

static void describe(const ic_sim_elem_t *e, char *out, size_t len)
{
    if (e->flags & IC_SIM_BAD)
        snprintf(out, len, "BAD (ranks %d..%d, index %d)", e->lo, e->hi, e->index);
    else if (!(e->flags & IC_SIM_VALID))
        snprintf(out, len, "undefined");
    else if (e->nranks == 1)
        snprintf(out, len, "data(origin %d, index %d)", e->lo, e->index);
    else
        snprintf(out, len, "reduction of %d ranks in %d..%d, index %d", e->nranks, e->lo, e->hi,
                 e->index);
}

static const ic_sim_elem_t *checked_at(ic_sim_t *sim, ic_buf_t b, int r, size_t e)
{
    if ((int)b < 0 || (int)b >= IC_NBUF || r < 0 || r >= sim->p || e >= sim->buflen[b]) {
        seterr(sim, "no element %s[%zu] on rank %d",
               ((int)b >= 0 && (int)b < IC_NBUF) ? ic_buf_name(b) : "?", e, r);
        return NULL;
    }
    return ic_sim_at(sim, b, r, e);
}

static int expect_fail(ic_sim_t *sim, ic_buf_t b, int r, size_t e, const ic_sim_elem_t *x,
                       const char *want)
{
    char got[96];
    describe(x, got, sizeof(got));
    seterr(sim, "rank %d %s[%zu]: expected %s, got %s", r, ic_buf_name(b), e, want, got);
    return -1;
}

int ic_sim_expect_data(ic_sim_t *sim, ic_buf_t b, int r, size_t e, int origin, int index)
{
    const ic_sim_elem_t *x = checked_at(sim, b, r, e);
    if (!x)
        return -1;
    if (x->flags == IC_SIM_VALID && x->nranks == 1 && x->lo == origin && x->hi == origin &&
        x->index == index)
        return 0;
    char want[64];
    snprintf(want, sizeof(want), "data(origin %d, index %d)", origin, index);
    return expect_fail(sim, b, r, e, x, want);
}

static int expect_set(ic_sim_t *sim, ic_buf_t b, int r, size_t e, int lo, int hi, int n,
                      uint64_t mask, uint64_t hsum, int index)
{
    const ic_sim_elem_t *x = checked_at(sim, b, r, e);
    if (!x)
        return -1;
    if (x->flags == IC_SIM_VALID && x->nranks == n && x->lo == lo && x->hi == hi &&
        x->mask == mask && x->hsum == hsum && x->index == index)
        return 0;
    char want[80];
    snprintf(want, sizeof(want), "reduction of %d ranks in %d..%d, index %d", n, lo, hi, index);
    return expect_fail(sim, b, r, e, x, want);
}

int ic_sim_expect_reduced(ic_sim_t *sim, ic_buf_t b, int r, size_t e, int lo, int hi, int index)
{
    uint64_t mask = 0, hsum = 0;
    if (lo >= 0 && hi < sim->p && lo <= hi) {
        /* O(1): prefix sums of the hashes, and the bits lo..min(hi, 63) */
        hsum = sim->hprefix[hi + 1] - sim->hprefix[lo];
        if (lo < 64) {
            int top = hi < 63 ? hi : 63;
            uint64_t upto = top == 63 ? ~(uint64_t)0 : (((uint64_t)1 << (top + 1)) - 1);
            mask = upto & ~(((uint64_t)1 << lo) - 1);
        }
    } else {
        for (int k = lo; k <= hi; k++) {
            mask |= rank_bit(k);
            hsum += ic_sim_rank_hash(k);
        }
    }
    return expect_set(sim, b, r, e, lo, hi, hi - lo + 1, mask, hsum, index);
}

int ic_sim_expect_reduced_set(ic_sim_t *sim, ic_buf_t b, int r, size_t e, const int *ranks, int n,
                              int index)
{
    uint64_t mask = 0, hsum = 0;
    int lo = n ? ranks[0] : 0, hi = lo;
    for (int k = 0; k < n; k++) {
        mask |= rank_bit(ranks[k]);
        hsum += ic_sim_rank_hash(ranks[k]);
        if (ranks[k] < lo)
            lo = ranks[k];
        if (ranks[k] > hi)
            hi = ranks[k];
    }
    return expect_set(sim, b, r, e, lo, hi, n, mask, hsum, index);
}
