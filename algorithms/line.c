/*
 * line.c -- lines (ordered lists of ranks), packed block layouts and the
 * names of the collectives.  See algorithms.h.
 */
#include "algorithms.h"

#include <string.h>

int ic_line_pos(const ic_line_t *l, int rank)
{
    if (l->map) {
        for (int i = 0; i < l->n; i++)
            if (l->map[i] == rank)
                return i;
        return -1;
    }
    long d = (long)rank - (long)l->first;
    if (l->stride == 0)
        return (d == 0 && l->n > 0) ? 0 : -1;
    if (d % l->stride != 0)
        return -1;
    long pos = d / l->stride;
    return (pos >= 0 && pos < l->n) ? (int)pos : -1;
}

size_t ic_blocks_prefix(const size_t *counts, int i)
{
    size_t sum = 0;
    for (int j = 0; j < i; j++)
        sum += counts[j];
    return sum;
}

size_t ic_blocks_total(const size_t *counts, int n)
{
    return ic_blocks_prefix(counts, n);
}

void ic_blocks_even(size_t *counts, int n, size_t n_elems)
{
    if (n <= 0)
        return;
    size_t q = n_elems / (size_t)n, r = n_elems % (size_t)n;
    for (int i = 0; i < n; i++)
        counts[i] = q + ((size_t)i < r ? 1 : 0);
}

size_t ic_granule(size_t n, size_t want)
{
    static const size_t f[] = {2, 3, 5, 7};
    static const int fmax[] = {12, 2, 1, 1};
    size_t g = 1;
    for (int i = 0; n > 0 && i < 4; i++)
        for (int k = 0; k < fmax[i] && (n / g) % f[i] == 0; k++)
            g *= f[i];
    static const size_t drop[] = {7, 5, 2, 3, 2};
    for (int i = 0; i < 5; i++)
        while (n / g < want && g % drop[i] == 0 && (i != 2 || g % 32 == 0))
            g /= drop[i];
    return g;
}

size_t ic_bcast_unit(size_t n, int p)
{
    return ic_granule(n, 16 * (size_t)(p > 0 ? p : 1));
}

const char *ic_coll_name(ic_coll_t c)
{
    switch (c) {
    case IC_COLL_BCAST:
        return "bcast";
    case IC_COLL_REDUCE:
        return "reduce";
    case IC_COLL_ALLREDUCE:
        return "allreduce";
    case IC_COLL_ALLGATHER:
        return "allgather";
    case IC_COLL_ALLGATHERV:
        return "allgatherv";
    case IC_COLL_REDUCE_SCATTER:
        return "reduce_scatter";
    case IC_COLL_REDUCE_SCATTER_BLOCK:
        return "reduce_scatter_block";
    case IC_COLL_SCATTER:
        return "scatter";
    case IC_COLL_SCATTERV:
        return "scatterv";
    case IC_COLL_GATHER:
        return "gather";
    case IC_COLL_GATHERV:
        return "gatherv";
    case IC_COLL_BARRIER:
        return "barrier";
    case IC_COLL_COUNT:
        break;
    }
    return "unknown";
}

int ic_coll_find(const char *name, ic_coll_t *c)
{
    for (int i = 0; name && i < IC_COLL_COUNT; i++)
        if (strcmp(ic_coll_name((ic_coll_t)i), name) == 0) {
            *c = (ic_coll_t)i;
            return 0;
        }
    return -1;
}
