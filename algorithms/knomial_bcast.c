/*
 * knomial_bcast.c -- k-nomial tree broadcast on a line.
 *
 * Not one of mitra-1995's primitives.  The MST broadcast (a binomial tree,
 * k = 2) is optimal when a message keeps its sender busy for the whole
 * start-up alpha.  When most of alpha is latency in flight and the sender
 * is busy only for LogGP's overhead o (al-tawil-moritz; `intercom-bench
 * loggp` measures it), a root that sends to more children before the first
 * of them can forward finishes earlier: with S = o + m beta per send and
 * R = alpha - o per hop, p = 8 takes 3 (S + R) in a binomial tree, 4 S + 2 R
 * in a 4-nomial one and 7 S + R in a flat one (k = p).
 *
 * The tree, relative index j = (pos - root) mod n written in base k: the
 * parent of j clears j's lowest non-zero digit; the children of j add
 * d k^i (d = 1 .. k-1) for every level i below that digit (every level for
 * the root), when the sum is below n.  j sends to them highest level first
 * (the largest subtrees), d ascending, each send in a round of its own so
 * the order holds whoever posts the receive first.  Trace, n = 6, k = 3,
 * root 0: 0 sends to 3, 1, 2;  3 sends to 4, 5.
 *
 * Cost: the arrival of the last position (ic_knomial_time): a child
 * that is its parent's r-th send arrives r S + R after its parent did.
 * k = 2 is a binomial tree; in the plain model (o = alpha, R = 0) it costs
 * what the MST does, ceil(log2 n)(alpha + m beta).
 *
 * Restrictions: none (any n, root, count, k >= 2; count 0 still sends
 * empty messages).
 */
#include "algorithms.h"

#include <stdlib.h>

/* The radix k within 2 .. n. */
static int radix_in(int n, int k)
{
    return k < 2 ? 2 : k > n ? n : k;
}

/* k^i for the levels of n positions: number of levels D (k^D >= n). */
static int levels(int n, int k)
{
    int D = 0;
    for (long w = 1; w < n; w *= k)
        D++;
    return D;
}

/* Lowest level whose digit of j is non-zero (D for j == 0), and k^that. */
static int low_level(long j, int k, int D, long *w)
{
    long pw = 1;
    for (int i = 0; i < D; i++, pw *= k)
        if ((j / pw) % k) {
            *w = pw;
            return i;
        }
    *w = pw;
    return D;
}

void ic_knomial_bcast(ic_sched_t *s, const ic_line_t *line, int root_pos, ic_region_t data, int k)
{
    int n = line->n;
    int me = ic_line_pos(line, s->rank);
    ic_sched_round(s);
    if (me < 0 || n <= 1)
        return;
    k = radix_in(n, k);
    int D = levels(n, k);
    long j = (me - root_pos + n) % n, w;
    int i0 = low_level(j, k, D, &w);
    if (j > 0) {
        long parent = j - ((j / w) % k) * w;
        ic_sched_recv(s, ic_line_rank(line, (int)((parent + root_pos) % n)), data);
        ic_sched_round(s);
    }
    long pw = w;
    for (int i = i0 - 1; i >= 0; i--) {
        pw /= k;
        for (int d = 1; d < k; d++) {
            long c = j + d * pw;
            if (c >= n)
                break;
            ic_sched_send(s, ic_line_rank(line, (int)((c + root_pos) % n)), data);
            ic_sched_round(s);
        }
    }
}

double ic_knomial_time(int n, int k, double S, double R)
{
    if (n <= 1)
        return 0;
    k = radix_in(n, k);
    int D = levels(n, k);
    double *a = malloc((size_t)n * sizeof(double));
    if (!a) /* a full tree's last position: D levels of k - 1 sends */
        return D * ((k - 1) * S + R);
    double worst = 0;
    a[0] = 0;
    for (long j = 1; j < n; j++) {
        long w;
        int i = low_level(j, k, D, &w);
        long d = (j / w) % k, parent = j - d * w;
        /* j's rank in its parent's sends: the parent's children at levels
         * above i (below the parent's own lowest digit), then d. */
        long pwp;
        int ip = low_level(parent, k, D, &pwp);
        long rank = d;
        long lw = w * k;
        for (int l = i + 1; l < ip; l++, lw *= k) {
            long fit = (n - 1 - parent) / lw;
            rank += fit < k - 1 ? fit : k - 1;
        }
        a[j] = a[parent] + (double)rank * S + R;
        if (a[j] > worst)
            worst = a[j];
    }
    free(a);
    return worst;
}

/* ---------------------------------------------------------------- reduce
 *
 * The k-nomial combine-to-one (ic_coll_reduce_knomial, coll_reduce.c):
 * the broadcast's tree with its messages reversed.  A position receives
 * its children's partials all in one round (each into a slot of its
 * own), so that their start-ups overlap as the broadcast's sends do, and
 * combines them into its own; then sends its partial to its parent. */

long ic_knomial_parent(int n, int k, long j)
{
    if (j <= 0 || n <= 1)
        return -1;
    k = radix_in(n, k);
    long w;
    low_level(j, k, levels(n, k), &w);
    return j - ((j / w) % k) * w;
}

int ic_knomial_children(int n, int k, long j, long *child)
{
    if (n <= 1)
        return 0;
    k = radix_in(n, k);
    int D = levels(n, k), nc = 0;
    long w;
    int i0 = low_level(j, k, D, &w);
    long pw = 1;
    for (int i = 0; i < i0; i++, pw *= k) /* the lowest level first */
        for (int d = 1; d < k && j + d * pw < n; d++, nc++)
            if (child)
                child[nc] = j + d * pw;
    return nc;
}

int ic_knomial_root_children(int n, int k)
{
    return ic_knomial_children(n, k, 0, NULL);
}

int ic_knomial_best_radix(int n, double (*price)(int k, const void *ctx), const void *ctx)
{
    static const int ks[] = {2, 3, 4, 5, 6, 7, 8, 16, 32};
    int best = 2;
    double bt = price(2, ctx);
    for (size_t i = 1; i <= sizeof(ks) / sizeof(ks[0]); i++) {
        int k = radix_in(n, i < sizeof(ks) / sizeof(ks[0]) ? ks[i] : n);
        double t = price(k, ctx);
        if (t < bt * (1 - 1e-12)) {
            bt = t;
            best = k;
        }
    }
    return best;
}

double ic_knomial_reduce_time(int n, int k, double S, double R, double G)
{
    if (n <= 1)
        return 0;
    k = radix_in(n, k);
    double *c = malloc(2 * (size_t)n * sizeof(double));
    long *ch = malloc((size_t)n * sizeof(long));
    if (!c || !ch) { /* a full tree: D levels of k - 1 arrivals */
        free(c);
        free(ch);
        return levels(n, k) * ((k - 1) * (S + G) + R);
    }
    double *ready = c + n;
    /* children have larger indices than their parent: done from the last */
    for (long j = n - 1; j >= 0; j--) {
        int nc = ic_knomial_children(n, k, j, ch);
        for (int i = 0; i < nc; i++) { /* the parent's port takes them as they come */
            double r = c[ch[i]];
            int at = i;
            while (at > 0 && ready[at - 1] > r) {
                ready[at] = ready[at - 1];
                at--;
            }
            ready[at] = r;
        }
        double port = 0, done = 0;
        for (int i = 0; i < nc; i++) {
            double start = ready[i] > port ? ready[i] : port;
            port = start + S;
            done = start + S + R > done ? start + S + R : done;
        }
        c[j] = nc ? done + nc * G : 0;
    }
    double t = c[0];
    free(c);
    free(ch);
    return t;
}
