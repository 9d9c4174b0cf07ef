/*
 * executor.c -- runs a schedule over MPI point-to-point.
 *
 * Per round: post every receive (MPI_Irecv), then every send (MPI_Isend),
 * wait for all, then apply the round's local actions in order: REDUCE with
 * MPI_Reduce_local, COPY with memcpy or, for non-contiguous or differing
 * datatypes, a typed copy through MPI.  Messages of 0 elements are sent (a
 * barrier is made of them).  All library traffic uses the context's private
 * communicator and one tag; MPI's non-overtaking rule orders the messages
 * between two ranks, which is how schedules are written.
 */
#include "config.h"
#include "ic_internal.h"

#include <limits.h>
#include <stdlib.h>

#define IC_TAG 0x1C

static void *addr(const ic_binding_t *b, const ic_region_t *r)
{
    return (char *)b->base[r->buf] + (MPI_Aint)r->off * b->extent[r->buf];
}

static int reqs_reserve(ic_ctx_t *ctx, size_t n)
{
    if (n <= ctx->nreqs_cap)
        return 0;
    size_t cap = ctx->nreqs_cap ? ctx->nreqs_cap : 8;
    while (cap < n)
        cap *= 2;
    MPI_Request *r = realloc(ctx->reqs, cap * sizeof(*r));
    if (!r)
        return -1;
    ctx->reqs = r;
    ctx->nreqs_cap = cap;
    return 0;
}

/* MPI_Waitall without statuses.  GCC 12 takes MPICH's MPI_STATUSES_IGNORE,
 * ((MPI_Status *)1), for an array of size 0 and warns
 * (-Wstringop-overflow); it is MPI's sentinel, never written through. */
static int wait_all(int n, MPI_Request *reqs)
{
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
    return MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic pop
#endif
}

static int do_reduce(ic_ctx_t *ctx, const ic_binding_t *b, const ic_action_t *a, MPI_Op op,
                     int commutative)
{
    if (a->src.count == 0)
        return MPI_SUCCESS;
    if (a->src.count > INT_MAX)
        return MPI_ERR_COUNT;
    void *src = addr(b, &a->src);
    void *dst = addr(b, &a->dst);
    MPI_Datatype t = b->type[a->dst.buf];
    int n = (int)a->src.count;
    /* MPI_Reduce_local(in, inout): inout = in (op) inout. */
    if (a->src_first || commutative)
        return MPI_Reduce_local(src, dst, n, t, op);
    /* dst = dst (op) src: compute into src, then move it to dst. */
    int rc = MPI_Reduce_local(dst, src, n, t, op);
    if (rc != MPI_SUCCESS)
        return rc;
    return ic_typed_copy(ctx, src, a->src.count, b->type[a->src.buf], b->contiguous[a->src.buf],
                         b->size[a->src.buf], dst, a->dst.count, t, b->contiguous[a->dst.buf]);
}

int ic_exec(ic_ctx_t *ctx, const ic_sched_t *s, const ic_binding_t *b, MPI_Op op,
            int commutative)
{
    int rc = MPI_SUCCESS;
    for (size_t r = 0; r < s->nrounds && rc == MPI_SUCCESS; r++) {
        size_t n;
        const ic_action_t *acts = ic_sched_round_acts(s, r, &n);
        size_t ncomm = 0;
        for (size_t i = 0; i < n; i++)
            if (acts[i].kind == IC_ACT_SEND || acts[i].kind == IC_ACT_RECV)
                ncomm++;
        if (ncomm) {
            if (reqs_reserve(ctx, ncomm))
                return MPI_ERR_NO_MEM;
            size_t k = 0;
            /* receives first, so early senders find them posted */
            for (size_t i = 0; i < n && rc == MPI_SUCCESS; i++) {
                const ic_action_t *a = &acts[i];
                if (a->kind != IC_ACT_RECV)
                    continue;
                if (a->dst.count > INT_MAX) {
                    rc = MPI_ERR_COUNT;
                    break;
                }
                rc = MPI_Irecv(addr(b, &a->dst), (int)a->dst.count, b->type[a->dst.buf], a->peer,
                               IC_TAG, ctx->comm, &ctx->reqs[k++]);
            }
            for (size_t i = 0; i < n && rc == MPI_SUCCESS; i++) {
                const ic_action_t *a = &acts[i];
                if (a->kind != IC_ACT_SEND)
                    continue;
                if (a->src.count > INT_MAX) {
                    rc = MPI_ERR_COUNT;
                    break;
                }
                rc = MPI_Isend(addr(b, &a->src), (int)a->src.count, b->type[a->src.buf], a->peer,
                               IC_TAG, ctx->comm, &ctx->reqs[k++]);
            }
            if (rc != MPI_SUCCESS) {
                /* Do not leave requests behind: cancel what was posted. */
                for (size_t i = 0; i < k; i++) {
                    MPI_Cancel(&ctx->reqs[i]);
                    MPI_Request_free(&ctx->reqs[i]);
                }
                return rc;
            }
            rc = wait_all((int)k, ctx->reqs);
            if (rc != MPI_SUCCESS)
                return rc;
        }
        for (size_t i = 0; i < n && rc == MPI_SUCCESS; i++) {
            const ic_action_t *a = &acts[i];
            if (a->kind == IC_ACT_REDUCE) {
                rc = do_reduce(ctx, b, a, op, commutative);
            } else if (a->kind == IC_ACT_COPY) {
                rc = ic_typed_copy(ctx, addr(b, &a->src), a->src.count, b->type[a->src.buf],
                                   b->contiguous[a->src.buf], b->size[a->src.buf],
                                   addr(b, &a->dst), a->dst.count, b->type[a->dst.buf],
                                   b->contiguous[a->dst.buf]);
            }
        }
    }
    return rc;
}
