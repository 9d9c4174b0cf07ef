/*
 * schedule.c -- building and printing schedules (see schedule.h).
 */
#include "schedule.h"

#include <stdlib.h>
#include <string.h>

void ic_sched_init(ic_sched_t *s, int rank, int size)
{
    memset(s, 0, sizeof(*s));
    s->rank = rank;
    s->size = size;
}

void ic_sched_reset(ic_sched_t *s, int rank, int size)
{
    s->rank = rank;
    s->size = size;
    s->nacts = 0;
    s->nrounds = 0;
    memset(s->scratch, 0, sizeof(s->scratch));
    s->oom = 0;
    s->unagreed = 0;
    s->nstream = 0;
}

void ic_sched_stream(ic_sched_t *s, size_t from)
{
    for (size_t i = from; i < s->nacts; i++)
        s->nstream += s->acts[i].kind == IC_ACT_SEND || s->acts[i].kind == IC_ACT_RECV;
}

void ic_sched_free(ic_sched_t *s)
{
    free(s->acts);
    free(s->round_first);
    memset(s, 0, sizeof(*s));
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t ncap = *cap ? *cap * 2 : 16;
    while (ncap < need)
        ncap *= 2;
    void *np = realloc(*p, ncap * elem);
    if (!np)
        return -1;
    *p = np;
    *cap = ncap;
    return 0;
}

/* Rounds: round_first[r] is the index of round r's first action.  Closing a
 * round appends a placeholder ((size_t)-1) that the next action fills in, so
 * closing twice or closing an empty round adds nothing. */
static void add(ic_sched_t *s, const ic_action_t *a)
{
    if (s->oom)
        return;
    if (s->nrounds == 0 || s->round_first[s->nrounds - 1] == (size_t)-1) {
        /* open a round starting at this action */
        if (s->nrounds == 0) {
            if (grow((void **)&s->round_first, &s->rounds_cap, 1, sizeof(size_t))) {
                s->oom = 1;
                return;
            }
            s->nrounds = 1;
        }
        s->round_first[s->nrounds - 1] = s->nacts;
    }
    if (grow((void **)&s->acts, &s->acts_cap, s->nacts + 1, sizeof(ic_action_t))) {
        s->oom = 1;
        return;
    }
    s->acts[s->nacts++] = *a;
}

void ic_sched_round(ic_sched_t *s)
{
    if (s->oom || s->nrounds == 0)
        return;
    if (s->round_first[s->nrounds - 1] == (size_t)-1)
        return; /* already closed, the next round has not started */
    if (s->round_first[s->nrounds - 1] == s->nacts)
        return; /* current round is empty */
    if (grow((void **)&s->round_first, &s->rounds_cap, s->nrounds + 1, sizeof(size_t))) {
        s->oom = 1;
        return;
    }
    s->round_first[s->nrounds++] = (size_t)-1; /* placeholder: opened by next add() */
}

/* A trailing placeholder round (closed, nothing added after) is dropped on
 * read: ic_sched_ok() normalises it. */
static void normalise(ic_sched_t *s)
{
    if (s->nrounds && s->round_first[s->nrounds - 1] == (size_t)-1)
        s->nrounds--;
}

void ic_sched_send(ic_sched_t *s, int peer, ic_region_t src)
{
    ic_action_t a = {IC_ACT_SEND, peer, 0, src, ic_reg(IC_BUF_SEND, 0, 0)};
    add(s, &a);
}

void ic_sched_recv(ic_sched_t *s, int peer, ic_region_t dst)
{
    ic_action_t a = {IC_ACT_RECV, peer, 0, ic_reg(IC_BUF_SEND, 0, 0), dst};
    add(s, &a);
}

void ic_sched_reduce(ic_sched_t *s, ic_region_t src, ic_region_t dst, int src_first)
{
    ic_action_t a = {IC_ACT_REDUCE, -1, src_first ? 1 : 0, src, dst};
    add(s, &a);
}

void ic_sched_copy(ic_sched_t *s, ic_region_t src, ic_region_t dst)
{
    ic_action_t a = {IC_ACT_COPY, -1, 0, src, dst};
    add(s, &a);
}

void ic_sched_need(ic_sched_t *s, ic_buf_t b, size_t n)
{
    if ((b == IC_BUF_SCRATCH || b == IC_BUF_SCRATCH2) && s->scratch[b] < n)
        s->scratch[b] = n;
}

int ic_sched_ok(const ic_sched_t *s)
{
    normalise((ic_sched_t *)s);
    return s->oom ? -1 : 0;
}

/* ------------------------------------------------ sending the input itself
 *
 * Many schedules start by copying the input (SEND) to its place in RECV and
 * then send it from there: the ring allgather's first step, a mesh plan's
 * first line.  Sending what was just written costs more than sending the
 * input as it is: at p = 2 on one node, copy-then-exchange of 32 KiB took
 * 22 us where exchange-then-copy took 11 (the peer reads the sender's
 * memory; freshly written lines come from the writer's cache).  So a copy
 * SEND -> R is moved as late as it may go -- to the end of the round
 * before the first action that reads or writes R otherwise than by
 * sending exactly R -- and those sends read SEND instead.  Only when
 * nothing writes SEND (the input is never overwritten in these schedules,
 * but the pass does not assume it). */

/* Does x only read within r: a SEND of part of r, or a COPY of part of r
 * elsewhere?  Such a reader may read the same part of the input instead. */
static int reads_within(const ic_action_t *x, const ic_region_t *r)
{
    return (x->kind == IC_ACT_SEND || x->kind == IC_ACT_COPY) && x->src.buf == r->buf &&
           x->src.count > 0 && x->src.off >= r->off &&
           x->src.off + x->src.count <= r->off + r->count &&
           (x->kind == IC_ACT_SEND || !ic_regions_overlap(&x->dst, r));
}

/* Does action x read or write region r otherwise? */
static int touches(const ic_action_t *x, const ic_region_t *r)
{
    if (reads_within(x, r))
        return 0;
    switch (x->kind) {
    case IC_ACT_SEND:
        return ic_regions_overlap(&x->src, r);
    case IC_ACT_RECV:
        return ic_regions_overlap(&x->dst, r);
    default:
        return ic_regions_overlap(&x->src, r) || ic_regions_overlap(&x->dst, r);
    }
}

/* The round holding action i (round_first is increasing). */
static size_t round_of(const ic_sched_t *s, size_t i)
{
    size_t lo = 0, hi = s->nrounds; /* round_first[lo] <= i < round_first[hi] */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->round_first[mid] <= i)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Does a communication of round r touch region r0 otherwise than by
 * reading exactly it? */
static int comm_touches(const ic_sched_t *s, size_t r, const ic_region_t *r0)
{
    size_t n;
    const ic_action_t *x = ic_sched_round_acts(s, r, &n);
    for (size_t k = 0; k < n; k++)
        if (ic_act_is_msg(&x[k]) && touches(&x[k], r0))
            return 1;
    return 0;
}

/* Move action i (of round `from`) to index `at` - 1 once it is taken out,
 * in round `to` >= from: the rounds in between start one earlier; a round
 * left empty is dropped. */
static void move_action(ic_sched_t *s, size_t i, size_t at, size_t from, size_t to)
{
    ic_action_t a = s->acts[i];
    memmove(&s->acts[i], &s->acts[i + 1], (at - 1 - i) * sizeof(a));
    s->acts[at - 1] = a;
    for (size_t r = from + 1; r <= to; r++)
        s->round_first[r]--;
    size_t from_end = from + 1 < s->nrounds ? s->round_first[from + 1] : s->nacts;
    if (s->round_first[from] == from_end) { /* empty now */
        memmove(&s->round_first[from], &s->round_first[from + 1],
                (s->nrounds - from - 1) * sizeof(size_t));
        s->nrounds--;
    }
}

/* May x, the reader of exactly c's region at index k, read c's source?
 * Sends of rounds (rc, rt] (they read before any local action of their
 * round) and copies before index `at`. */
static int redirectable(const ic_sched_t *s, size_t k, const ic_action_t *x, size_t rc, size_t rt,
                        size_t at)
{
    size_t r = round_of(s, k);
    return x->kind == IC_ACT_SEND ? r > rc && r <= rt : k < at;
}

void ic_sched_send_input(ic_sched_t *s)
{
    normalise(s);
    if (s->oom)
        return;
    for (size_t i = 0; i < s->nacts; i++) {
        const ic_action_t *x = &s->acts[i];
        if (x->dst.buf == IC_BUF_SEND && x->kind != IC_ACT_SEND)
            return; /* something writes the input */
        if (x->kind == IC_ACT_REDUCE && x->src.buf == IC_BUF_SEND && !x->src_first)
            return; /* the executor may compute into it */
    }
    /* the first few copies of the input only: the cases that gain copy it
     * once or twice; a root that copies p blocks of it would make the
     * pass quadratic */
    int tries = 0;
    for (size_t i = 0; i < s->nacts && tries < 4; i++) {
        ic_action_t c = s->acts[i];
        if (c.kind != IC_ACT_COPY || c.src.buf != IC_BUF_SEND || c.dst.buf == IC_BUF_SEND ||
            c.src.count != c.dst.count || c.dst.count == 0)
            continue;
        tries++;
        size_t rc = round_of(s, i), j, rs = s->nrounds, rx = rc, last = rc;
        int seen = 0, touched = 0;
        /* the first action that reads or writes the copy otherwise (a send
         * of it in the copy's own round would read it before the copy).
         * The scan stops two rounds past the last reader (the copy goes
         * there at the latest), and leaves a copy that nothing reads in
         * the next two rounds alone: the cases that gain read it at once,
         * and this keeps the pass short on long schedules. */
        for (j = i + 1; j < s->nacts; j++) {
            const ic_action_t *x = &s->acts[j];
            while (rx + 1 < s->nrounds && s->round_first[rx + 1] <= j)
                rx++;
            if ((seen && rx > last + 1) || (!seen && rx > rc + 2)) {
                rs = rx;
                break;
            }
            if (touches(x, &c.dst) ||
                (x->kind == IC_ACT_SEND && reads_within(x, &c.dst) && rx == rc)) {
                rs = rx;
                touched = 1;
                break;
            }
            if (reads_within(x, &c.dst)) {
                seen = 1;
                last = rx;
            }
        }
        if (!seen)
            continue;
        /* where the copy goes: just before that action when it is a local
         * one and no communication of its round touches the copy; else at
         * the end of the round before */
        size_t at, rt;
        if (touched && !ic_act_is_msg(&s->acts[j]) && !comm_touches(s, rs, &c.dst)) {
            at = j;
            rt = rs;
        } else if (rs > rc + 1) {
            rt = rs - 1;
            at = rs < s->nrounds ? s->round_first[rs] : s->nacts;
        } else {
            continue;
        }
        /* the readers, up to the end of round rt, read the input instead;
         * without any the copy stays where it is */
        size_t end = rt + 1 < s->nrounds ? s->round_first[rt + 1] : s->nacts, readers = 0;
        for (size_t k = i + 1; k < end; k++)
            if (reads_within(&s->acts[k], &c.dst) && redirectable(s, k, &s->acts[k], rc, rt, at)) {
                ic_region_t *r = &s->acts[k].src;
                r->off = c.src.off + (r->off - c.dst.off); /* the same units: counts agree */
                r->buf = c.src.buf;
                readers++;
            }
        if (!readers)
            continue;
        move_action(s, i, at, rc, rt);
        i--; /* the next action moved into place i */
    }
}

const char *ic_buf_name(ic_buf_t b)
{
    switch (b) {
    case IC_BUF_SEND:
        return "send";
    case IC_BUF_RECV:
        return "recv";
    case IC_BUF_SCRATCH:
        return "scratch";
    case IC_BUF_SCRATCH2:
        return "scratch2";
    }
    return "?";
}

void ic_sched_dump(const ic_sched_t *s, FILE *out)
{
    normalise((ic_sched_t *)s);
    fprintf(out, "rank %d/%d: %zu rounds, scratch %zu+%zu\n", s->rank, s->size, s->nrounds,
            s->scratch[IC_BUF_SCRATCH], s->scratch[IC_BUF_SCRATCH2]);
    for (size_t r = 0; r < s->nrounds; r++) {
        size_t n;
        const ic_action_t *a = ic_sched_round_acts(s, r, &n);
        for (size_t i = 0; i < n; i++) {
            const ic_action_t *x = &a[i];
            switch (x->kind) {
            case IC_ACT_SEND:
                fprintf(out, "  r%zu send   -> %d  %s[%zu +%zu]\n", r, x->peer,
                        ic_buf_name(x->src.buf), x->src.off, x->src.count);
                break;
            case IC_ACT_RECV:
                fprintf(out, "  r%zu recv   <- %d  %s[%zu +%zu]\n", r, x->peer,
                        ic_buf_name(x->dst.buf), x->dst.off, x->dst.count);
                break;
            case IC_ACT_REDUCE:
                fprintf(out, "  r%zu reduce %s[%zu +%zu] %s %s[%zu]\n", r, ic_buf_name(x->src.buf),
                        x->src.off, x->src.count, x->src_first ? "op=>" : "<=op",
                        ic_buf_name(x->dst.buf), x->dst.off);
                break;
            case IC_ACT_COPY:
                fprintf(out, "  r%zu copy   %s[%zu +%zu] -> %s[%zu +%zu]\n", r,
                        ic_buf_name(x->src.buf), x->src.off, x->src.count, ic_buf_name(x->dst.buf),
                        x->dst.off, x->dst.count);
                break;
            }
        }
    }
}
