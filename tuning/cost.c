/*
 * cost.c -- the cost evaluator (see cost.h).
 *
 * An event-driven walk over the schedules of all ranks that matches
 * messages exactly as the simulator does (per ordered pair, in posting
 * order, whatever the round numbers: the matcher of algorithms/match.c)
 * and gives every message a time.
 *
 * Rank state: a rank posts its round r at time post(r).  Events ("rank x
 * posts its next round at time t") are handled in increasing time (ties:
 * lower rank first), so a message is matched at the moment its later side
 * is posted.  Each rank has a send port and a receive port (full duplex):
 * its sends are serialised among themselves, and so are its receives, in the
 * order in which they are matched (for one round's sends: list order).
 *
 * Plain model (split == 0).  A message of n bytes (n = count of the SEND
 * region times elem_size of its buffer) starts at
 *     max(post of the sender's round, post of the receiver's round,
 *         sender's send port free, receiver's receive port free)
 * and arrives alpha + n beta later, or alpha + n beta_x when the sender's
 * round also receives from the receiver (an exchange: both directions
 * between one pair at once, which COMMS2 measures) and n is at least
 * x_min.  The receiver's round waits for the arrival.  Both ports are
 * busy for the whole message, unless 0 < overhead < alpha (LogGP's o, the
 * same at both ends): then the sender's port and round are done o + n beta
 * (or beta_x) after the start, and the receiver's port is free again then
 * (its round still waits for the arrival), the rest of alpha being latency
 * in flight: the sender's next message can start while this one travels,
 * and so can the next message to the same receiver.  So a ping costs
 * alpha + n beta, k messages in a chain k(alpha + n beta); a rank that
 * sends two messages in a row, or receives two from different ranks,
 * pays for both in full with overhead 0 (or >= alpha), and the second
 * arrives o + n beta + alpha + n beta after the first started with
 * o < alpha (a root receiving p - 1 messages at once: alpha + n beta +
 * (p - 2)(o + n beta)).
 *
 * Split model (split == 1, tan-strazdins-2002 section 3.1:
 * S(n) = alpha_s + beta_s n, R(n) = alpha_r + beta_r n).  A send is a local
 * operation of the sender: it starts at max(post of the sender's round,
 * sender's send port free) and keeps the send port busy for S(n), whether
 * or not the receive is posted yet (the paper's simulator charges S(n) to
 * the sender at the time it issues the send).  The receiver then spends
 * R(n) on the message, starting at
 *     max(end of the sender's S(n), post of the receiver's round,
 *         receiver's receive port free),
 * and the message is complete at the receiver when that ends.  The
 * sender's round waits only for its S(n) parts, the receiver's for its
 * R(n) parts.  With alpha = alpha_s + alpha_r and beta = beta_s + beta_r a
 * single ping costs S(n) + R(n) = alpha + n beta, as in the plain model;
 * a rank sending to k ranks at once finishes them at S(n), 2S(n), ...,
 * kS(n) (plus R(n) at each receiver), which is what the paper's full fan-in
 * and tree time charts show.  (overhead plays no part here: alpha_s is
 * the sender's share.)
 *
 * Local actions run after the round's communication, in order: a REDUCE of
 * n bytes (count of its destination times elem_size) costs n gamma, a COPY
 * n delta.  The completion time of a rank is the end of its last round.
 *
 * A schedule set that cannot complete (a receive nobody sends, a cycle of
 * receives, or a send nobody receives) makes ic_cost_eval return -1.
 */
#include "cost.h"
#include "algorithms.h"
#include "match.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ state */

/* A posted SEND or RECV waiting in the matcher. */
typedef struct cpend {
    int rank;
    size_t act;     /* index into the rank's acts                */
    double post;    /* post time of the posting round            */
    double s_start; /* split model: sender part [s_start, s_end] */
    double s_end;
} cpend_t;

typedef struct crank {
    size_t round;
    double post; /* post time of the current round   */
    double end;  /* latest completion of its messages */
    size_t pending;
    double send_free, recv_free;
} crank_t;

typedef struct cheap_ent {
    double t;
    int r;
} cheap_ent_t;

typedef struct ceval {
    const ic_sched_t *s;
    int p;
    const ic_cost_params_t *c;
    crank_t *st;
    ic_match_t match; /* entries: cpend_t */
    cheap_ent_t *heap;
    int nheap;
    ic_cost_event_t *ev;
    size_t nev, evcap;
    int chart;
} ceval_t;

static int heap_less(const cheap_ent_t *a, const cheap_ent_t *b)
{
    return a->t < b->t || (a->t == b->t && a->r < b->r);
}

static void heap_push(ceval_t *E, double t, int r)
{
    int i = E->nheap++;
    E->heap[i].t = t;
    E->heap[i].r = r;
    while (i > 0) {
        int up = (i - 1) / 2;
        if (!heap_less(&E->heap[i], &E->heap[up]))
            break;
        cheap_ent_t x = E->heap[i];
        E->heap[i] = E->heap[up];
        E->heap[up] = x;
        i = up;
    }
}

static cheap_ent_t heap_pop(ceval_t *E)
{
    cheap_ent_t top = E->heap[0];
    E->heap[0] = E->heap[--E->nheap];
    int i = 0;
    for (;;) {
        int l = 2 * i + 1, rr = l + 1, m = i;
        if (l < E->nheap && heap_less(&E->heap[l], &E->heap[m]))
            m = l;
        if (rr < E->nheap && heap_less(&E->heap[rr], &E->heap[m]))
            m = rr;
        if (m == i)
            break;
        cheap_ent_t x = E->heap[i];
        E->heap[i] = E->heap[m];
        E->heap[m] = x;
        i = m;
    }
    return top;
}

static double dmax(double a, double b)
{
    return a > b ? a : b;
}

static size_t send_bytes(const ceval_t *E, const ic_action_t *a)
{
    return a->src.count * E->c->elem_size[a->src.buf];
}

static int record(ceval_t *E, int src, int dst, size_t bytes, double start, double end)
{
    if (!E->chart)
        return 0;
    if (E->nev == E->evcap) {
        size_t ncap = E->evcap ? 2 * E->evcap : 256;
        ic_cost_event_t *np = realloc(E->ev, ncap * sizeof(*np));
        if (!np)
            return -1;
        E->ev = np;
        E->evcap = ncap;
    }
    ic_cost_event_t *e = &E->ev[E->nev++];
    e->src = src;
    e->dst = dst;
    e->bytes = bytes;
    e->start = start;
    e->end = end;
    return 0;
}

/* Round of rank r done when nothing is pending: schedule its next post. */
static void maybe_finish(ceval_t *E, int r)
{
    crank_t *st = &E->st[r];
    if (st->pending)
        return;
    size_t n;
    const ic_action_t *a = ic_sched_round_acts(&E->s[r], st->round, &n);
    double t = dmax(st->post, st->end);
    for (size_t i = 0; i < n; i++) {
        if (a[i].kind == IC_ACT_REDUCE)
            t += (double)(a[i].dst.count * E->c->elem_size[a[i].dst.buf]) * E->c->gamma;
        else if (a[i].kind == IC_ACT_COPY)
            t += (double)(a[i].src.count * E->c->elem_size[a[i].src.buf]) * E->c->delta;
    }
    st->round++;
    heap_push(E, t, r);
}

/* Does rank s's current round also receive from d (an exchange)? */
static int exchange(const ceval_t *E, int s, int d)
{
    size_t n;
    const ic_action_t *a = ic_sched_round_acts(&E->s[s], E->st[s].round, &n);
    for (size_t i = 0; i < n; i++)
        if (a[i].kind == IC_ACT_RECV && a[i].peer == d)
            return 1;
    return 0;
}

/* A matched message: sender entry sp (its post time etc.), receiver entry rp. */
static int message(ceval_t *E, const cpend_t *sp, const cpend_t *rp)
{
    const ic_cost_params_t *c = E->c;
    int s = sp->rank, d = rp->rank;
    size_t bytes = send_bytes(E, &E->s[s].acts[sp->act]);
    crank_t *ss = &E->st[s], *ds = &E->st[d];
    double start, end;
    if (!c->split) {
        start = dmax(dmax(sp->post, rp->post), dmax(ss->send_free, ds->recv_free));
        int x = c->beta_x > 0 && bytes >= c->x_min && exchange(E, s, d);
        double nb = (double)bytes * (x ? c->beta_x : c->beta);
        /* the sender's part (ic_send_overhead, as the k-nomial
         * broadcast's closed form) */
        double o = ic_send_overhead(c->alpha, c->overhead);
        double sent = start + o + nb;
        end = start + c->alpha + nb;
        ss->send_free = sent;
        ds->recv_free = sent; /* the receiver's part is o + n beta too */
        ss->end = dmax(ss->end, sent);
        ss->pending--;
    } else {
        start = sp->s_start;
        double rs = dmax(dmax(sp->s_end, rp->post), ds->recv_free);
        end = rs + c->alpha_r + (double)bytes * c->beta_r;
        ds->recv_free = end;
    }
    ds->end = dmax(ds->end, end);
    ds->pending--;
    if (record(E, s, d, bytes, start, end))
        return -1;
    if (s != d && !c->split)
        maybe_finish(E, s);
    maybe_finish(E, d);
    return 0;
}

/* Rank r posts its current round at time t. */
static int post(ceval_t *E, int r, double t)
{
    const ic_cost_params_t *c = E->c;
    crank_t *st = &E->st[r];
    size_t n;
    const ic_action_t *a = ic_sched_round_acts(&E->s[r], st->round, &n);
    size_t first = E->s[r].round_first[st->round];
    st->post = t;
    st->end = t;
    /* count first, so that a match inside this loop cannot finish the
     * round early; one extra count is held until all is posted */
    st->pending = 1;
    for (size_t i = 0; i < n; i++)
        if (a[i].kind == IC_ACT_RECV || (a[i].kind == IC_ACT_SEND && !c->split))
            st->pending++;
    for (size_t i = 0; i < n; i++) {
        const ic_action_t *x = &a[i];
        if (x->kind != IC_ACT_SEND && x->kind != IC_ACT_RECV)
            continue;
        if (x->peer < 0 || x->peer >= E->p)
            return -1;
        cpend_t me;
        memset(&me, 0, sizeof(me));
        me.rank = r;
        me.act = first + i;
        me.post = t;
        int send = x->kind == IC_ACT_SEND;
        if (send && c->split) {
            me.s_start = dmax(t, st->send_free);
            me.s_end = me.s_start + c->alpha_s + (double)send_bytes(E, x) * c->beta_s;
            st->send_free = me.s_end;
            st->end = dmax(st->end, me.s_end);
        }
        void *got;
        int src = send ? r : x->peer, dst = send ? x->peer : r;
        int m = ic_match_post(&E->match, x->kind, src, dst, &me, &got);
        if (m < 0)
            return -1;
        if (m == 1) {
            cpend_t other = *(const cpend_t *)got;
            if (send ? message(E, &me, &other) : message(E, &other, &me))
                return -1;
        }
    }
    st->pending--;
    maybe_finish(E, r);
    return 0;
}

int ic_cost_eval(const ic_sched_t *scheds, int p, const ic_cost_params_t *c, int want_chart,
                 ic_cost_result_t *out)
{
    memset(out, 0, sizeof(*out));
    if (p <= 0)
        return -1;
    ceval_t E;
    memset(&E, 0, sizeof(E));
    E.s = scheds;
    E.p = p;
    E.c = c;
    E.chart = want_chart;
    int rc = -1;
    for (int r = 0; r < p; r++)
        if (ic_sched_ok(&scheds[r]))
            return -1;
    int match_rc = ic_match_init(&E.match, p, sizeof(cpend_t));
    E.st = calloc((size_t)p, sizeof(*E.st));
    E.heap = malloc((size_t)p * sizeof(*E.heap));
    out->rank_time = calloc((size_t)p, sizeof(double));
    if (match_rc || !E.st || !E.heap || !out->rank_time)
        goto out;
    for (int r = 0; r < p; r++)
        heap_push(&E, 0.0, r);
    int ndone = 0;
    while (E.nheap > 0) {
        cheap_ent_t ev = heap_pop(&E);
        crank_t *st = &E.st[ev.r];
        if (st->round >= scheds[ev.r].nrounds) {
            out->rank_time[ev.r] = ev.t;
            if (ev.t > out->time)
                out->time = ev.t;
            ndone++;
            continue;
        }
        if (post(&E, ev.r, ev.t))
            goto out;
    }
    if (ndone != p)
        goto out; /* some rank waits forever */
    if (ic_match_waiting(&E.match))
        goto out; /* split model: a send nobody received */
    rc = 0;
out:
    free(E.st);
    ic_match_free(&E.match);
    free(E.heap);
    if (rc == 0) {
        out->events = E.ev;
        out->nevents = E.nev;
    } else {
        free(E.ev);
        ic_cost_result_free(out);
    }
    return rc;
}

void ic_cost_result_free(ic_cost_result_t *r)
{
    free(r->rank_time);
    free(r->events);
    memset(r, 0, sizeof(*r));
}

/*
 * Text chart: a header, then one message per line,
 *     src dst bytes start end
 * (times in seconds).  In gnuplot, one arrow per message from the sender at
 * its start to the receiver at its end:
 *     plot 'chart.txt' using 4:1:($5-$4):($2-$1) with vectors
 */
void ic_cost_chart_write(const ic_cost_result_t *r, FILE *out)
{
    fprintf(out, "# intercom cost chart: %zu messages, completion %.9g s\n", r->nevents, r->time);
    fprintf(out, "# src dst bytes start end\n");
    for (size_t i = 0; i < r->nevents; i++) {
        const ic_cost_event_t *e = &r->events[i];
        fprintf(out, "%d %d %zu %.9g %.9g\n", e->src, e->dst, e->bytes, e->start, e->end);
    }
}
