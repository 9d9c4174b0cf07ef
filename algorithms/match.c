/*
 * match.c -- MPI's message matching without MPI (see match.h).
 */
#include "match.h"

#include <stdlib.h>
#include <string.h>

int ic_match_init(ic_match_t *m, int p, size_t esize)
{
    memset(m, 0, sizeof(*m));
    m->p = p;
    m->esize = esize ? esize : 1;
    m->freel = -1;
    m->tabcap = 256;
    m->tab = calloc(m->tabcap, sizeof(*m->tab));
    return m->tab ? 0 : -1;
}

void ic_match_free(ic_match_t *m)
{
    free(m->pool);
    free(m->next);
    free(m->tab);
    memset(m, 0, sizeof(*m));
    m->freel = -1;
}

static size_t pair_slot(const ic_match_pair_t *tab, size_t cap, uint64_t key)
{
    size_t i = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
    while (tab[i].key != 0 && tab[i].key != key)
        i = (i + 1) & (cap - 1);
    return i;
}

/* The queue of pair (src, dst), created empty if new; NULL when out of
 * memory.  The table grows to keep its load at most one half. */
static ic_match_pair_t *pair_get(ic_match_t *m, int src, int dst)
{
    uint64_t key = (uint64_t)src * (uint64_t)m->p + (uint64_t)dst + 1;
    size_t i = pair_slot(m->tab, m->tabcap, key);
    if (m->tab[i].key == key)
        return &m->tab[i];
    if (2 * (m->ntab + 1) > m->tabcap) {
        size_t ncap = 2 * m->tabcap;
        ic_match_pair_t *nt = calloc(ncap, sizeof(*nt));
        if (!nt)
            return NULL;
        for (size_t j = 0; j < m->tabcap; j++)
            if (m->tab[j].key)
                nt[pair_slot(nt, ncap, m->tab[j].key)] = m->tab[j];
        free(m->tab);
        m->tab = nt;
        m->tabcap = ncap;
        i = pair_slot(m->tab, m->tabcap, key);
    }
    ic_match_pair_t *q = &m->tab[i];
    q->key = key;
    q->head = q->tail = -1;
    q->kind = -1;
    m->ntab++;
    return q;
}

/* A pool entry holding a copy of `entry`, taken from the free list first;
 * -1 when out of memory. */
static int pool_add(ic_match_t *m, const void *entry)
{
    int i;
    if (m->freel >= 0) {
        i = m->freel;
        m->freel = m->next[i];
    } else {
        if (m->npool == m->poolcap) {
            size_t ncap = m->poolcap ? 2 * m->poolcap : 256;
            unsigned char *np = realloc(m->pool, ncap * m->esize);
            if (!np)
                return -1;
            m->pool = np;
            int *nn = realloc(m->next, ncap * sizeof(*nn));
            if (!nn)
                return -1;
            m->next = nn;
            m->poolcap = ncap;
        }
        i = (int)m->npool++;
    }
    memcpy(ic_match_entry(m, (size_t)i), entry, m->esize);
    m->next[i] = -1;
    return i;
}

static int enqueue(ic_match_t *m, ic_match_pair_t *q, int kind, const void *entry)
{
    int i = pool_add(m, entry);
    if (i < 0)
        return -1;
    if (q->tail < 0)
        q->head = i;
    else
        m->next[q->tail] = i;
    q->tail = i;
    q->kind = kind;
    return i;
}

/* Unlink the head of q onto the free list; its entry stays valid until
 * the next pool_add(). */
static int dequeue(ic_match_t *m, ic_match_pair_t *q)
{
    int i = q->head;
    q->head = m->next[i];
    if (q->head < 0)
        q->tail = -1;
    m->next[i] = m->freel;
    m->freel = i;
    return i;
}

int ic_match_post(ic_match_t *m, ic_act_kind_t kind, int src, int dst, const void *entry,
                  void **out)
{
    int other = kind == IC_ACT_SEND ? IC_ACT_RECV : IC_ACT_SEND;
    ic_match_pair_t *q = pair_get(m, src, dst);
    if (!q)
        return -1;
    if (q->head >= 0 && q->kind == other) {
        *out = ic_match_entry(m, (size_t)dequeue(m, q));
        return 1;
    }
    int i = enqueue(m, q, kind, entry);
    if (i < 0)
        return -1;
    *out = ic_match_entry(m, (size_t)i);
    return 0;
}

void *ic_match_waiting(const ic_match_t *m)
{
    for (size_t i = 0; i < m->tabcap; i++)
        if (m->tab[i].key && m->tab[i].head >= 0)
            return ic_match_entry(m, (size_t)m->tab[i].head);
    return NULL;
}
