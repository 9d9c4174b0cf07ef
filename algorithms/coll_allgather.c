/*
 * coll_allgather.c -- allgather and allgatherv (mitra-1995 section 3.2),
 * three algorithms, each serving both collectives and any displacements.
 *
 * The primitives work on blocks packed in line-position order.  When the
 * user's RECV layout is that packed layout (possibly shifted), they work on
 * RECV directly; otherwise (gaps, other block order) they work on a packed
 * copy in SCRATCH and every rank copies the blocks out to their displs at
 * the end.  The own block is placed first: a COPY of the whole SEND
 * contribution (converted by the executor when the types differ), or
 * nothing / one COPY from RECV when in_place.
 *
 * "gather_bcast": MST gather to position 0, then MST broadcast of the whole
 *   vector.  Short vectors.
 *   Cost: 2 ceil(log2 p) alpha + ((p-1)/p + ceil(log2 p)) n beta.
 *
 * "bucket": bucket collect (ring).  Long vectors.  Trace, p = 3:
 *     start   P0 {0}      P1 {1}      P2 {2}
 *     step 0  0> 1> 2>    -> P0 {0,2}  P1 {0,1}  P2 {1,2}
 *     step 1  2> 0> 1>    -> everyone {0,1,2}
 *   Cost: (p-1) alpha + (p-1)/p n beta.
 *
 * "bruck": Bruck's collect (bruck_collect.c), distance-doubling exchanges
 *   on a rotated copy in scratch, unrotated straight into RECV's layout
 *   (no packed copy even when the layout has gaps).  Not in mitra-1995;
 *   the fewest start-ups for any p, so it wins for short and middle
 *   vectors.
 *   Cost: ceil(log2 p) alpha + (p-1)/p n beta.
 *
 * (n = total elements gathered.)  Restrictions: none.
 */
#include "coll_common.h"

/* Put this rank's contribution at (w, woff). */
static void own_block(ic_sched_t *s, const ic_coll_args_t *a, const ic_layout_t *L, ic_buf_t w,
                      size_t woff)
{
    size_t n = L->pc[L->me];
    if (a->in_place) {
        if (n > 0 && !(w == IC_BUF_RECV && woff == L->uoff[L->me]))
            ic_sched_copy(s, ic_reg(IC_BUF_RECV, L->uoff[L->me], n), ic_reg(w, woff, n));
    } else if (a->sendcount > 0 || n > 0) {
        ic_sched_copy(s, ic_reg(IC_BUF_SEND, 0, a->sendcount), ic_reg(w, woff, n));
    }
}

enum { AG_GATHER_BCAST, AG_BUCKET, AG_BRUCK };

static int allgather(ic_sched_t *s, const ic_coll_args_t *a, int how)
{
    ic_layout_t L;
    if (ic_layout_init(&L, a, a->counts, a->displs) != 0)
        return -1;
    size_t base = 0;
    int direct = ic_layout_direct(&L, &base);
    if (how == AG_BRUCK && !direct) {
        /* Bruck works on its own rotated copy: it reads the own block from,
         * and writes the others to, their places in RECV. */
        own_block(s, a, &L, IC_BUF_RECV, L.uoff[L.me]);
        if (L.total > 0)
            ic_bruck_collect(s, &L.line, IC_BUF_RECV, 0, L.pc, L.uoff, IC_BUF_SCRATCH, 0);
        ic_sched_round(s);
        ic_layout_free(&L);
        return ic_sched_ok(s);
    }
    ic_buf_t w = direct ? IC_BUF_RECV : IC_BUF_SCRATCH;
    if (!direct) {
        base = 0;
        ic_sched_need(s, IC_BUF_SCRATCH, L.total);
    }
    own_block(s, a, &L, w, base + L.poff[L.me]);
    if (L.total > 0) {
        if (how == AG_BUCKET) {
            ic_bucket_collect(s, &L.line, w, base, L.pc);
        } else if (how == AG_BRUCK) {
            ic_bruck_collect(s, &L.line, w, base, L.pc, NULL, IC_BUF_SCRATCH2, 0);
        } else {
            ic_mst_gather(s, &L.line, 0, w, base, L.pc);
            ic_mst_bcast(s, &L.line, 0, ic_reg(w, base, L.total));
        }
    }
    ic_sched_round(s);
    if (!direct)
        ic_layout_copy(s, &L, IC_BUF_SCRATCH, L.poff, 0, IC_BUF_RECV, L.uoff, 0,
                       a->in_place ? L.me : -1);
    ic_sched_round(s);
    ic_layout_free(&L);
    return ic_sched_ok(s);
}

int ic_coll_allgather_gather_bcast(ic_sched_t *s, const ic_coll_args_t *a)
{
    return allgather(s, a, AG_GATHER_BCAST);
}

int ic_coll_allgather_bucket(ic_sched_t *s, const ic_coll_args_t *a)
{
    return allgather(s, a, AG_BUCKET);
}

int ic_coll_allgather_bruck(ic_sched_t *s, const ic_coll_args_t *a)
{
    return allgather(s, a, AG_BRUCK);
}

double ic_cost_allgather_gather_bcast(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return 2 * t.L * t.a + (t.f + t.L) * t.n * t.b;
}

/* With uneven blocks the largest one sets the pace of every ring step. */
double ic_cost_allgather_bucket(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return (t.p - 1) * (t.a + t.bmax * t.bring);
}

double ic_cost_allgather_bruck(const ic_coll_args_t *a, const ic_model_t *m)
{
    ic_terms_t t = ic_terms(a, m);
    return t.L * t.a + ic_bruck_beta(&t);
}
