/*
 * datatype.c -- datatype facts the runtime needs, and typed copies.
 */
#include "config.h"
#include "ic_internal.h"
#include "copy.h"

#include <limits.h>
#include <stdlib.h>

#include <stdint.h>
#include <string.h>

/* Predefined datatypes seen lately, with their layout: a predefined
 * handle never names another type (the MPI never frees it), so what was
 * learnt of one stays true, and a call on int or double needs no MPI
 * queries (four of them and an envelope were a tenth of a short call). */
#define NAMED_CACHE 4
static IC_TLS ic_typeinfo_t named[NAMED_CACHE]; /* per thread: no lock */
static IC_TLS int named_n, named_next;

static const ic_typeinfo_t *named_find(MPI_Datatype type)
{
    for (int i = 0; i < named_n; i++)
        if (named[i].type == type)
            return &named[i];
    return NULL;
}

static int envelope_named(MPI_Datatype type)
{
    int ni, na, nd, comb = MPI_COMBINER_NAMED;
    return MPI_Type_get_envelope(type, &ni, &na, &nd, &comb) == MPI_SUCCESS &&
           comb == MPI_COMBINER_NAMED;
}

static int typeinfo_query(MPI_Datatype type, ic_typeinfo_t *ti);
static int integer_based(MPI_Datatype type, int depth);

/* The cache's entry of a predefined type, made if need be; NULL when type
 * is not one. */
static const ic_typeinfo_t *named_get(MPI_Datatype type)
{
    const ic_typeinfo_t *k = named_find(type);
    if (k)
        return k;
    ic_typeinfo_t ti;
    if (type == MPI_DATATYPE_NULL || !envelope_named(type) || typeinfo_query(type, &ti))
        return NULL;
    ti.integer = integer_based(type, 0);
    ti.op_class = ic_type_op_class(type);
    ic_typeinfo_t *slot = &named[named_next];
    *slot = ti;
    named_next = (named_next + 1) % NAMED_CACHE;
    if (named_n < NAMED_CACHE)
        named_n++;
    return slot;
}

int ic_type_named(MPI_Datatype type)
{
    return named_get(type) != NULL;
}

int ic_type_named_class(MPI_Datatype type)
{
    const ic_typeinfo_t *k = named_get(type);
    return k ? k->op_class : -1;
}

/* Is type a predefined integer type, or built of them only?  (The same
 * answer on every rank whose type has the call's type signature, whether
 * its handle is predefined or derived: the plan depends on it.) */
static int integer_based(MPI_Datatype type, int depth)
{
    /* not static: some MPIs name types by variables */
    const MPI_Datatype ints[] = {MPI_CHAR,
                                 MPI_SIGNED_CHAR,
                                 MPI_UNSIGNED_CHAR,
                                 MPI_SHORT,
                                 MPI_UNSIGNED_SHORT,
                                 MPI_INT,
                                 MPI_UNSIGNED,
                                 MPI_LONG,
                                 MPI_UNSIGNED_LONG,
                                 MPI_LONG_LONG_INT,
                                 MPI_UNSIGNED_LONG_LONG,
                                 MPI_INT8_T,
                                 MPI_INT16_T,
                                 MPI_INT32_T,
                                 MPI_INT64_T,
                                 MPI_UINT8_T,
                                 MPI_UINT16_T,
                                 MPI_UINT32_T,
                                 MPI_UINT64_T,
                                 MPI_AINT,
                                 MPI_OFFSET,
                                 MPI_COUNT};
    int ni, na, nd, comb;
    if (type == MPI_DATATYPE_NULL || depth > 16 ||
        MPI_Type_get_envelope(type, &ni, &na, &nd, &comb) != MPI_SUCCESS)
        return 0;
    if (comb == MPI_COMBINER_NAMED) {
        for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
            if (type == ints[i])
                return 1;
        return 0;
    }
    if (nd < 1)
        return 0;
    int *iv = malloc((size_t)(ni > 0 ? ni : 1) * sizeof(int));
    MPI_Aint *av = malloc((size_t)(na > 0 ? na : 1) * sizeof(MPI_Aint));
    MPI_Datatype *dv = malloc((size_t)nd * sizeof(MPI_Datatype));
    int got = iv && av && dv && MPI_Type_get_contents(type, ni, na, nd, iv, av, dv) == MPI_SUCCESS;
    int ok = got;
    for (int k = 0; ok && k < nd; k++)
        ok = integer_based(dv[k], depth + 1);
    /* the constituents that are not predefined are new handles to free */
    for (int k = 0; got && k < nd; k++)
        if (!envelope_named(dv[k]))
            MPI_Type_free(&dv[k]);
    free(iv);
    free(av);
    free(dv);
    return ok;
}

int ic_op_exact(MPI_Op op, MPI_Datatype type)
{
    if (op == MPI_MAX || op == MPI_MIN || op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR ||
        op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR || op == MPI_MAXLOC || op == MPI_MINLOC)
        return 1;
    if (op != MPI_SUM && op != MPI_PROD)
        return 0; /* user ops: nothing is known */
    /* integer sums and products wrap the same way in any order */
    const ic_typeinfo_t *k = named_find(type); /* remembered for named types */
    return k && k->integer >= 0 ? k->integer : integer_based(type, 0);
}

int ic_typeinfo(MPI_Datatype type, ic_typeinfo_t *ti)
{
    const ic_typeinfo_t *k = named_find(type);
    if (k) {
        *ti = *k;
        return MPI_SUCCESS;
    }
    return typeinfo_query(type, ti);
}

static int typeinfo_query(MPI_Datatype type, ic_typeinfo_t *ti)
{
    int rc;
    ti->type = type;
    ti->integer = -1;
    ti->op_class = 0;
    if ((rc = MPI_Type_get_extent(type, &ti->lb, &ti->extent)) != MPI_SUCCESS)
        return rc;
    if ((rc = MPI_Type_get_true_extent(type, &ti->true_lb, &ti->true_extent)) != MPI_SUCCESS)
        return rc;
    if ((rc = MPI_Type_size(type, &ti->size)) != MPI_SUCCESS)
        return rc;
    /* Plain bytes: no holes and element i+1 follows element i directly. */
    ti->contiguous =
        (ti->true_lb == 0 && ti->lb == 0 && ti->true_extent == ti->size && ti->extent == ti->size);
    return MPI_SUCCESS;
}

size_t ic_type_span(const ic_typeinfo_t *ti, size_t n)
{
    if (n == 0)
        return 0;
    MPI_Aint ext = ti->extent < 0 ? -ti->extent : ti->extent;
    return (size_t)ti->true_extent + (n - 1) * (size_t)ext;
}

void ic_binding_set(ic_binding_t *b, int buf, void *base, const ic_typeinfo_t *ti)
{
    b->at[buf].base = base;
    b->at[buf].type = ti->type;
    b->at[buf].extent = ti->extent;
    b->at[buf].contiguous = ti->contiguous;
    b->at[buf].size = ti->size;
    b->at[buf].ubytes = 0;
}

void ic_binding_set_bytes(ic_binding_t *b, int buf, void *base, const ic_typeinfo_t *ti,
                          size_t ubytes)
{
    ic_binding_set(b, buf, base, ti);
    b->at[buf].ubytes = ti->size > 0 ? ubytes : 0;
}

/* Is region r (if on buf) whole elements of `size` bytes, and so are the
 * executor's pieces of it (chunk bytes rounded down to whole units)? */
static int region_aligned(const ic_region_t *r, int buf, size_t ubytes, size_t size, size_t chunk)
{
    if ((int)r->buf != buf)
        return 1;
    if ((r->off * ubytes) % size || (r->count * ubytes) % size)
        return 0;
    size_t piece = chunk / ubytes ? chunk / ubytes : 1; /* units, as executor.c cuts */
    return !chunk || r->count <= piece || (piece * ubytes) % size == 0;
}

int ic_sched_aligned(const ic_sched_t *s, int buf, size_t ubytes, size_t size, size_t chunk)
{
    if (size == 0 || ubytes == 0)
        return 0;
    chunk = ic_piece_bytes(chunk);
    for (size_t i = 0; i < s->nacts; i++) {
        const ic_action_t *a = &s->acts[i];
        int src = a->kind != IC_ACT_RECV, dst = a->kind != IC_ACT_SEND;
        if ((src && !region_aligned(&a->src, buf, ubytes, size, chunk)) ||
            (dst && !region_aligned(&a->dst, buf, ubytes, size, chunk)))
            return 0;
    }
    return 1;
}

int ic_typed_copy(ic_ctx_t *ctx, const void *src, size_t n_src, MPI_Datatype ts, int src_contig,
                  int src_size, void *dst, size_t n_dst, MPI_Datatype td, int dst_contig)
{
    if (n_src == 0 && n_dst == 0)
        return MPI_SUCCESS;
    if (src_contig && dst_contig) {
        size_t bytes = n_src * (size_t)src_size;
        ic_copy_bytes(dst, src, bytes);
        return MPI_SUCCESS;
    }
    if (src == dst && ts == td && n_src == n_dst)
        return MPI_SUCCESS;
    if (n_src > (size_t)INT32_MAX || n_dst > (size_t)INT32_MAX)
        return MPI_ERR_COUNT;
    /* One side plain bytes (a staging area): MPI_Pack or MPI_Unpack, whose
     * bytes are those of a message sent or received as MPI_PACKED, and
     * cheaper than a message to self.  Not at MPI_BOTTOM (a datatype of
     * absolute addresses), which MPICH 4.0's MPI_Pack rejects (and SMPI
     * 3.32's MPI_Unpack writes 111 bytes too low, see below). */
    size_t bytes = n_src * (size_t)(src_size > 0 ? src_size : 0);
    int pos = 0;
    if (bytes <= INT_MAX && dst_contig && !src_contig && src != MPI_BOTTOM)
        return MPI_Pack(src, (int)n_src, ts, dst, (int)bytes, &pos, ctx->comm);
    if (bytes <= INT_MAX && src_contig && !dst_contig && dst != MPI_BOTTOM)
        return MPI_Unpack(src, (int)bytes, &pos, dst, (int)n_dst, td, ctx->comm);
    /* General case: let MPI convert between the two type maps, by a message
     * to self.  Posted as MPI_Irecv and MPI_Isend, not MPI_Sendrecv:
     * SimGrid's SMPI (3.32) copies a message to self of MPI_Sendrecv
     * without the messaging path, and that copy takes MPI_BOTTOM (which it
     * defines as (void *)-111) for an address, reading and writing 111
     * bytes below the data of a datatype of absolute addresses; its
     * MPI_Irecv and MPI_Isend handle MPI_BOTTOM. */
    MPI_Request rq[2];
    int rc = MPI_Irecv(dst, (int)n_dst, td, ctx->rank, IC_TAG_COPY, ctx->comm, &rq[0]);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Isend(src, (int)n_src, ts, ctx->rank, IC_TAG_COPY, ctx->comm, &rq[1]);
    if (rc != MPI_SUCCESS) {
        MPI_Cancel(&rq[0]);
        PMPI_Wait(&rq[0], MPI_STATUS_IGNORE);
        return rc;
    }
    int rr = PMPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    rc = PMPI_Wait(&rq[1], MPI_STATUS_IGNORE);
    return rr != MPI_SUCCESS ? rr : rc;
}
