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
    if (s->scratch[b] < n)
        s->scratch[b] = n;
}

int ic_sched_ok(const ic_sched_t *s)
{
    normalise((ic_sched_t *)s);
    return s->oom ? -1 : 0;
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
