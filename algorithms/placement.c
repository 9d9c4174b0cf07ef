/*
 * placement.c -- node-aware placement of ranks on a logical mesh (see
 * placement.h for what the order means and a worked example).
 *
 * How: every rank gets, per level l, the lowest rank of its group at that
 * level, its "leader" (a group at level l: the ranks whose keys agree at
 * levels 0 .. l).  Sorting the ranks by (leader at level 0, leader at
 * level 1, ..., rank) is the grouping: leaders order the groups by their
 * lowest rank, and the rank orders the finest group.  The leaders come
 * from one sort by (keys, rank), in which every group of every level is a
 * run of consecutive entries.
 */
#include "placement.h"

#include <stdlib.h>

/* One rank and a row of n ints: its keys, or its leaders. */
typedef struct row {
    const int *v;
    int n;
    int rank;
} row_t;

/* Do rows a and b agree at levels 0 .. l? */
static int same_prefix(const row_t *a, const row_t *b, int l)
{
    for (int i = 0; i <= l; i++)
        if (a->v[i] != b->v[i])
            return 0;
    return 1;
}

static int cmp_rows(const void *a, const void *b)
{
    const row_t *x = a, *y = b;
    for (int l = 0; l < x->n; l++)
        if (x->v[l] != y->v[l])
            return x->v[l] < y->v[l] ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

static void identity(int p, int *order)
{
    if (order)
        for (int i = 0; i < p; i++)
            order[i] = i;
}

int ic_place_order(int p, int nlevels, const int *keys, int *order)
{
    if (p < 1 || nlevels < 0 || !order || (nlevels > 0 && !keys)) {
        identity(p, order);
        return -1;
    }
    if (nlevels == 0 || p == 1) {
        identity(p, order);
        return 0;
    }
    int rc = -1;
    size_t nl = (size_t)nlevels;
    row_t *rows = malloc((size_t)p * sizeof *rows);
    int *lead = malloc((size_t)p * nl * sizeof *lead);
    if (!rows || !lead)
        goto out;

    /* Sorted by (keys, rank), the groups of every level are runs. */
    for (int r = 0; r < p; r++)
        rows[r] = (row_t){.v = keys + (size_t)r * nl, .n = nlevels, .rank = r};
    qsort(rows, (size_t)p, sizeof *rows, cmp_rows);
    for (int l = 0; l < nlevels; l++) {
        for (int i = 0, j; i < p; i = j) {
            int low = rows[i].rank;
            for (j = i + 1; j < p && same_prefix(&rows[i], &rows[j], l); j++)
                if (rows[j].rank < low)
                    low = rows[j].rank;
            for (int k = i; k < j; k++)
                lead[(size_t)rows[k].rank * nl + (size_t)l] = low;
        }
    }

    /* Sorted by (leaders, rank): the placement. */
    for (int r = 0; r < p; r++)
        rows[r] = (row_t){.v = lead + (size_t)r * nl, .n = nlevels, .rank = r};
    qsort(rows, (size_t)p, sizeof *rows, cmp_rows);
    for (int i = 0; i < p; i++)
        order[i] = rows[i].rank;
    rc = 0;
out:
    free(rows);
    free(lead);
    if (rc != 0)
        identity(p, order);
    return rc;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int ic_place_uniform(int p, const int *node_of)
{
    if (p < 1 || !node_of)
        return -1;
    int *v = malloc((size_t)p * sizeof *v);
    if (!v)
        return -1;
    for (int r = 0; r < p; r++)
        v[r] = node_of[r];
    qsort(v, (size_t)p, sizeof *v, cmp_int);
    /* The first run's length, then every other run against it. */
    int q = 1;
    while (q < p && v[q] == v[0])
        q++;
    for (int i = q, j; i < p; i = j) {
        for (j = i + 1; j < p && v[j] == v[i]; j++)
            ;
        if (j - i != q) {
            q = 0;
            break;
        }
    }
    free(v);
    return q;
}
