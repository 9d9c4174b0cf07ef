/*
 * context.c -- the per-communicator context.
 *
 * On the first IC_ call on a communicator the library makes a private copy
 * of it (same group, new context: a collective call, made by every rank at
 * the same collective) so that no library message can ever match a user
 * message, and caches the context as an attribute of the user's
 * communicator.  The context is released
 *   - when the user frees the communicator (attribute delete callback), and
 *   - at MPI_Finalize, through an attribute on MPI_COMM_SELF, whose delete
 *     callback MPI runs first thing in MPI_Finalize (MPI-3.1 section 8.7.1).
 * Open MPI and MPICH run that callback while MPI is still usable; SMPI runs
 * it after MPI counts as finalized, so then only the private communicators
 * are freed there (release_finalized) and the contexts go with their
 * communicators' own delete callbacks (ctx_destroy() makes no MPI call once
 * MPI is finalized, but for MPI_Comm_free under SMPI, where it works).
 * Threads: calls on one communicator must not run concurrently (as for MPI
 * collectives on one communicator); calls on different communicators may,
 * from different threads (the list of contexts and the keyvals are ctx_mu's,
 * the lookup cache is per thread).
 */
#include "config.h"
#include "ic_internal.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static int ctx_keyval = MPI_KEYVAL_INVALID;
static int self_keyval = MPI_KEYVAL_INVALID;
static ic_ctx_t *live;                     /* all contexts, for MPI_Finalize */
static MPI_Comm self_copy = MPI_COMM_NULL; /* ic_self_comm() */
static int finalizing;                     /* the MPI_Finalize hook ran */
/* The communicator of the last context looked up, and that context: a
 * program's calls mostly go to one communicator, and MPI_Comm_get_attr
 * was a tenth of a short call.  A freed communicator's context is
 * destroyed (ctx_delete_fn), which clears this, so a handle MPI reuses
 * for a new communicator never finds an old context. */
static IC_TLS MPI_Comm recent_comm = MPI_COMM_NULL;
static IC_TLS ic_ctx_t *recent;
/* Threads: the cache above is each thread's own; a context that goes bumps
 * the generation, which turns every thread's cached entry stale.  The list
 * of live contexts and the keyvals are ctx_mu's (never held over a
 * collective call). */
static IC_TLS unsigned recent_gen;
static _Atomic unsigned ctx_gen;
static pthread_mutex_t ctx_mu = PTHREAD_MUTEX_INITIALIZER;

static void ctx_destroy(ic_ctx_t *ctx)
{
    ctx_gen++;
    if (recent == ctx) {
        recent = NULL;
        recent_comm = MPI_COMM_NULL;
    }
    pthread_mutex_lock(&ctx_mu);
    if (ctx->prev)
        ctx->prev->next = ctx->next;
    else if (live == ctx) /* not linked yet when ic_ctx_get() fails early */
        live = ctx->next;
    if (ctx->next)
        ctx->next->prev = ctx->prev;
    pthread_mutex_unlock(&ctx_mu);
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized)
        ic_shm_destroy(ctx); /* collective on the node, as freeing comm is */
#ifdef SMPI_H
    int can_free = 1; /* SMPI's MPI_Comm_free works then too (release_finalized) */
#else
    int can_free = !finalized;
#endif
    if (can_free && ctx->comm != MPI_COMM_NULL)
        MPI_Comm_free(&ctx->comm);
    ic_trace_sync(); /* a communicator freed: its calls' records to the file */
    ic_ctx_sched_drop(ctx);
    ic_ctx_again_free(ctx);
    ic_sched_free(&ctx->sched);
    for (int i = 0; i < IC_NB_SCHEDS; i++)
        if (ctx->nbs[i].made)
            ic_sched_free(&ctx->nbs[i].s);
    free(ctx->reqs);
    free(ctx->shm_ops);
    free(ctx->world);
    free(ctx->tmsg);
    free(ctx->tidx);
    free(ctx->stats);
    free(ctx->probes);
    free(ctx->order);
    for (int b = 0; b < IC_NBUF; b++)
        ic_scratch_free(ctx->scratch[b], ctx->scratch_bytes[b]);
    free(ctx);
}

/* The user frees the communicator: its context goes now or, while
 * nonblocking calls on it are pending (MPI lets them complete), once the
 * last one has ended (ic_ctx_call_ended). */
static int ctx_delete_fn(MPI_Comm comm, int keyval, void *attr, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    ic_ctx_t *ctx = attr;
    ic_engine_lock();                       /* a progress thread may end its calls meanwhile */
    if (ctx->npending > 0 && !finalizing) { /* calls pending, or persistent ones */
        ctx->doomed = 1;
        ctx->user = MPI_COMM_NULL;
        ctx_gen++;
        if (recent == ctx) { /* MPI may give its handle to a new communicator */
            recent = NULL;
            recent_comm = MPI_COMM_NULL;
        }
        ic_engine_unlock();
        return MPI_SUCCESS;
    }
    ic_engine_unlock();
    ctx_destroy(ctx);
    return MPI_SUCCESS;
}

void ic_ctx_call_ended(ic_ctx_t *ctx)
{
    if (ctx->doomed && ctx->npending == 0)
        ctx_destroy(ctx);
}

#ifdef SMPI_H
/* SimGrid's SMPI (3.32) runs the MPI_COMM_SELF callback below from
 * MPI_Finalize with MPI already counted as finalized: there
 * MPI_Comm_get_attr and MPI_Comm_delete_attr fail, MPI_Comm_free and
 * MPI_Comm_free_keyval still work.  It deletes MPI_COMM_WORLD's attributes
 * only after MPI_Finalize has returned (the context's callback comes then),
 * and never those of a communicator the program did not free.  So the
 * private communicators of every live context (and of ic_self_comm()) are
 * freed here, the program finding none of the library's left after
 * MPI_Finalize; the contexts themselves stay linked until their callbacks
 * (ctx_destroy(), which under SMPI frees a private communicator then too:
 * MPI_COMM_SELF's own context may go before this callback runs), those of
 * communicators never freed until the process ends. */
static void release_finalized(void)
{
    pthread_mutex_lock(&ctx_mu);
    for (ic_ctx_t *c = live; c; c = c->next)
        if (c->comm != MPI_COMM_NULL)
            MPI_Comm_free(&c->comm);
    pthread_mutex_unlock(&ctx_mu);
    if (self_copy != MPI_COMM_NULL)
        MPI_Comm_free(&self_copy);
}
#endif

/* Runs at the start of MPI_Finalize: release every context still alive. */
static int self_delete_fn(MPI_Comm comm, int keyval, void *attr, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)attr;
    (void)extra;
    finalizing = 1;
    ic_trace_close(); /* no MPI call: also where MPI counts as finalized here */
    recent = NULL;
    recent_comm = MPI_COMM_NULL;
    /* Some MPIs (SimGrid's SMPI) run this callback when MPI already counts
     * as finalized, and reject most calls made from it.  Then the
     * per-communicator callbacks, which those MPIs still run for their
     * predefined communicators, release the contexts without calling MPI;
     * under SMPI the private communicators are freed here first. */
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) {
#ifdef SMPI_H
        release_finalized();
#endif
        return MPI_SUCCESS;
    }
    /* nonblocking calls still running (a program must complete its own;
     * those whose start raised a mistake run on by themselves) */
    ic_progress_stop();
    ic_progress_drain();
    ic_persist_close();
    while (live) {
        if (live->doomed) { /* its communicator is gone already */
            ctx_destroy(live);
            continue;
        }
        ic_ctx_t *ctx = live;
        /* Deleting the attribute runs ctx_delete_fn, which unlinks ctx. */
        if (MPI_Comm_delete_attr(ctx->user, ctx_keyval) != MPI_SUCCESS)
            ctx_destroy(ctx);
        else if (live == ctx) /* defensive: the callback did not run */
            ctx_destroy(ctx);
    }
    if (self_copy != MPI_COMM_NULL)
        MPI_Comm_free(&self_copy);
    MPI_Comm_free_keyval(&ctx_keyval);
    ctx_keyval = MPI_KEYVAL_INVALID;
    /* self_keyval itself is being deleted; freeing the keyval is allowed. */
    MPI_Comm_free_keyval(&self_keyval);
    self_keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

/* Both keyvals and the MPI_Finalize hook, or none: a failure frees what
 * was made, so that a later call starts over rather than finding
 * ctx_keyval set and skipping the hook. */
static int ensure_keyvals_locked(void);

static int ensure_keyvals(void)
{
    if (ctx_keyval != MPI_KEYVAL_INVALID)
        return MPI_SUCCESS;
    pthread_mutex_lock(&ctx_mu);
    int rc = ensure_keyvals_locked();
    pthread_mutex_unlock(&ctx_mu);
    return rc;
}

static int ensure_keyvals_locked(void)
{
    if (ctx_keyval != MPI_KEYVAL_INVALID)
        return MPI_SUCCESS;
    int ck = MPI_KEYVAL_INVALID, sk = MPI_KEYVAL_INVALID, made = 0;
    int rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, ctx_delete_fn, &ck, NULL);
    if (rc == MPI_SUCCESS) {
        made = 1;
        rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete_fn, &sk, NULL);
    }
    if (rc == MPI_SUCCESS) {
        made = 2;
        rc = MPI_Comm_set_attr(MPI_COMM_SELF, sk, NULL);
    }
    if (rc == MPI_SUCCESS) {
        ctx_keyval = ck;
        self_keyval = sk;
    } else {
        if (made >= 2)
            MPI_Comm_free_keyval(&sk);
        if (made >= 1)
            MPI_Comm_free_keyval(&ck);
    }
    return rc;
}

int ic_split_returns(int rc, MPI_Comm c)
{
    if (rc == MPI_SUCCESS && c != MPI_COMM_NULL)
        rc = MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    return rc;
}

/* The private communicator: the same group in a new communication context.
 * MPI_Comm_create rather than MPI_Comm_dup, which would run the copy
 * callbacks of the program's own attributes on a communicator the program
 * never sees. */
static int private_copy(MPI_Comm comm, MPI_Comm *out)
{
    MPI_Group g;
    int rc = MPI_Comm_group(comm, &g);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Comm_create(comm, g, out);
    MPI_Group_free(&g);
    return rc;
}

/* The selector's cost model and the executor's piece size: shared
 * memory's when every rank of the communicator is on this node, a
 * cluster's otherwise; and the placement of the ranks on meshes (topo.c):
 * when the nodes hold the same number q of ranks and there are several,
 * ranks of a node are consecutive mesh positions and lines inside a node
 * are priced with shared memory's model (two levels); with uneven nodes
 * the identity placement and one level (every line priced as crossing
 * nodes).  Collective, like the duplication; every rank reaches the same
 * answer.  For the links' measurement (calibrate.c): *spans, whether MPI
 * puts the ranks on several nodes, and *lead, the lowest rank of this
 * rank's node. */
static int pick_model(ic_ctx_t *ctx, int *spans, int *lead)
{
    int nsize = 0;
    *spans = 0;
    *lead = ctx->rank;
    ctx->cost = &ic_env()->cost;
    ctx->cost_in = NULL;
    ctx->node_ranks = 0;
    ctx->rpn = 0;
    ctx->order = NULL;
    MPI_Comm node = MPI_COMM_NULL;
    int rc = MPI_Comm_split_type(ctx->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    if ((rc = ic_split_returns(rc, node)) == MPI_SUCCESS)
        rc = MPI_Comm_size(node, &nsize);
    if (rc == MPI_SUCCESS) { /* the lowest rank of this node (its first: key 0) */
        MPI_Group g = MPI_GROUP_NULL, all = MPI_GROUP_NULL;
        int zero = 0;
        if (MPI_Comm_group(node, &g) == MPI_SUCCESS &&
            MPI_Comm_group(ctx->comm, &all) == MPI_SUCCESS)
            MPI_Group_translate_ranks(g, 1, &zero, all, lead);
        if (g != MPI_GROUP_NULL)
            MPI_Group_free(&g);
        if (all != MPI_GROUP_NULL)
            MPI_Group_free(&all);
        *spans = nsize != ctx->size;
    }
    if (node != MPI_COMM_NULL)
        MPI_Comm_free(&node);
    if (rc == MPI_SUCCESS && nsize == ctx->size) {
        ctx->cost = &ic_env()->cost_node;
        ctx->rpn = ctx->size;
    }
    if (ctx->size < 4) /* no mesh has two dimensions of 2 or more */
        return MPI_SUCCESS;
    int *order = malloc((size_t)ctx->size * sizeof(int)), q = 0;
    int ok = order != NULL, all_ok = 0;
    /* every rank must take part in ic_topo_order, or none */
    if (PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, ctx->comm) != MPI_SUCCESS || !all_ok)
        goto out;
    if (ic_topo_order(ctx->comm, order, &q) != MPI_SUCCESS)
        q = 0; /* the identity everywhere */
    int identity = 1;
    for (int i = 0; i < ctx->size; i++)
        identity &= order[i] == i;
    if (q >= 1)
        ctx->rpn = q;
    if (q >= 2 && q < ctx->size) {
        ctx->cost = &ic_env()->cost;
        ctx->cost_in = &ic_env()->cost_node;
        ctx->node_ranks = q;
    }
    if (!identity && q != 0) { /* the context keeps it */
        ctx->order = order;
        order = NULL;
    }
out:
    free(order);
    return MPI_SUCCESS;
}

void ic_ctx_forget_decisions(void)
{
    pthread_mutex_lock(&ctx_mu);
    for (ic_ctx_t *c = live; c; c = c->next) {
        memset(c->decisions, 0, sizeof(c->decisions));
        memset(c->direct, 0, sizeof(c->direct)); /* the table's model may differ */
        c->table_ok = 1;
    }
    pthread_mutex_unlock(&ctx_mu);
    ic_ctx_forget_schedules();
}

void ic_ctx_forget_schedules(void)
{
    pthread_mutex_lock(&ctx_mu);
    for (ic_ctx_t *c = live; c; c = c->next)
        ic_ctx_sched_drop(c);
    pthread_mutex_unlock(&ctx_mu);
}

/* ------------------------------------------------ the last schedule built
 *
 * A program calls the same collective on the same communicator with the
 * same arguments over and over (a time step, a solver's iterations); a
 * schedule is a function of the arguments MPI requires to agree, the
 * unit sizes and the plan, never of the buffers (bound at each call).  So
 * the context keeps the arguments its schedule was built for, and a call
 * that matches them runs it again: no selection, no building.  At p = 2
 * this took an 8-byte allreduce from about 6800 instructions to 3000. */

/* Do the arrays x and y of n entries (or NULL) agree? */
static int same_array(const size_t *x, const size_t *y, int n)
{
    if (!x || !y)
        return x == y;
    return memcmp(x, y, (size_t)n * sizeof(*x)) == 0;
}

int ic_sched_key_hit(const ic_sched_key_t *k, ic_coll_args_t *a, size_t elem, size_t gran,
                     ic_plan_t *plan)
{
    const ic_coll_args_t *b = &k->a;
    if (!k->valid || b->coll != a->coll || b->count != a->count || b->root != a->root ||
        b->sendcount != a->sendcount || b->recvcount != a->recvcount ||
        b->in_place != a->in_place || b->commutative != a->commutative || b->exact != a->exact ||
        b->bounded_from != a->bounded_from || k->elem != elem || k->gran != gran ||
        !same_array(b->counts, a->counts, a->size) || !same_array(b->displs, a->displs, a->size))
        return 0;
    *plan = k->plan;
    a->order = b->order;
    a->seg = b->seg;
    return 1;
}

static size_t *copy_array(const size_t *x, int n)
{
    size_t *y = x ? malloc((n ? (size_t)n : 1) * sizeof(*y)) : NULL;
    if (y)
        memcpy(y, x, (size_t)n * sizeof(*y));
    return y;
}

void ic_sched_key_keep(ic_sched_key_t *k, const ic_coll_args_t *a, size_t elem, size_t gran,
                       const ic_plan_t *plan)
{
    ic_sched_key_drop(k);
    k->counts = copy_array(a->counts, a->size);
    k->displs = copy_array(a->displs, a->size);
    if ((a->counts && !k->counts) || (a->displs && !k->displs)) {
        ic_sched_key_drop(k); /* out of memory: build again next time */
        return;
    }
    k->a = *a;
    k->a.counts = k->counts;
    k->a.displs = k->displs;
    k->elem = elem;
    k->gran = gran;
    k->plan = *plan;
    k->valid = 1;
}

void ic_sched_key_drop(ic_sched_key_t *k)
{
    free(k->counts);
    free(k->displs);
    k->counts = k->displs = NULL;
    k->valid = 0;
}

/* The nonblocking calls' schedules.  A communicator's collectives are
 * started by one thread at a time (MPI), so only ic_nbsched_put, in the
 * progress engine, may run beside ic_nbsched_get: it only lowers a count,
 * and a schedule whose count is 0 is not taken by anything else. */
ic_nbsched_t *ic_nbsched_get(ic_ctx_t *ctx, ic_coll_args_t *a, size_t elem, size_t gran)
{
    ic_nbsched_t *free_one = NULL;
    ic_plan_t plan;
    for (int i = 0; i < IC_NB_SCHEDS; i++) {
        ic_nbsched_t *n = &ctx->nbs[i];
        ic_coll_args_t b = *a; /* a hit writes its order and segment */
        if (n->made && ic_sched_key_hit(&n->key, &b, elem, gran, &plan)) {
            free_one = n;
            break;
        }
        if (!n->users && (!free_one || n->used < free_one->used))
            free_one = n;
    }
    if (!free_one)
        return NULL;
    if (!free_one->made) {
        ic_sched_init(&free_one->s, ctx->rank, ctx->size);
        free_one->made = 1;
    }
    free_one->users++;
    free_one->used = ++ctx->nbs_tick;
    return free_one;
}

void ic_nbsched_put(ic_nbsched_t *n)
{
    n->users--;
}

MPI_Comm ic_self_comm(void)
{
    if (self_copy != MPI_COMM_NULL || ensure_keyvals() != MPI_SUCCESS)
        return self_copy;
    pthread_mutex_lock(&ctx_mu); /* MPI_COMM_SELF's copy is local: no other rank waits */
    MPI_Comm c = MPI_COMM_NULL;
    if (self_copy == MPI_COMM_NULL) {
        if (private_copy(MPI_COMM_SELF, &c) == MPI_SUCCESS &&
            MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN) == MPI_SUCCESS)
            self_copy = c;
        else if (c != MPI_COMM_NULL)
            MPI_Comm_free(&c);
    }
    pthread_mutex_unlock(&ctx_mu);
    return self_copy;
}

/* The tags of ctx's nonblocking calls: IC_TAG_NB_BASE up to MPI_TAG_UB
 * (at least 32767 by the standard), at most 2^20 of them. */
static int nb_tags(ic_ctx_t *ctx)
{
    void *v = NULL;
    int found = 0, ub = 32767;
    int rc = MPI_Comm_get_attr(ctx->comm, MPI_TAG_UB, &v, &found);
    if (rc == MPI_SUCCESS && found && v && *(int *)v > ub)
        ub = *(int *)v;
    ctx->ntags = ub - IC_TAG_NB_BASE + 1;
    if (ctx->ntags > (1 << 20))
        ctx->ntags = 1 << 20;
    return rc;
}

ic_ctx_t *ic_ctx_known(MPI_Comm comm)
{
    return comm == recent_comm && recent_gen == ctx_gen && !finalizing ? recent : NULL;
}

int ic_ctx_get(MPI_Comm comm, ic_ctx_t **out)
{
    if ((*out = ic_ctx_known(comm)) != NULL)
        return MPI_SUCCESS;
    int rc = ensure_keyvals();
    if (rc != MPI_SUCCESS)
        return rc;
    void *attr = NULL;
    int found = 0;
    rc = MPI_Comm_get_attr(comm, ctx_keyval, &attr, &found);
    if (rc != MPI_SUCCESS)
        return rc;
    if (found && attr) {
        *out = (ic_ctx_t *)attr;
        recent = *out;
        recent_comm = comm;
        recent_gen = ctx_gen;
        return MPI_SUCCESS;
    }
    ic_ctx_t *ctx = calloc(1, sizeof(*ctx));
    if (!ctx)
        return MPI_ERR_NO_MEM;
    ctx->user = comm;
    ctx->comm = MPI_COMM_NULL;
    rc = private_copy(comm, &ctx->comm);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_set_errhandler(ctx->comm, MPI_ERRORS_RETURN);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_rank(ctx->comm, &ctx->rank);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_size(ctx->comm, &ctx->size);
    if (rc == MPI_SUCCESS)
        rc = nb_tags(ctx);
    int spans = 0, lead = 0;
    if (rc == MPI_SUCCESS)
        rc = pick_model(ctx, &spans, &lead);
    if (rc == MPI_SUCCESS)
        ctx->chunk = ctx->cost->chunk; /* pieces: of the links across nodes, if any */
    if (rc == MPI_SUCCESS)
        rc = ic_shm_setup(ctx);
    if (rc == MPI_SUCCESS)
        rc = ic_trace_ctx(ctx);
    if (rc != MPI_SUCCESS)
        goto out;
    ctx->table_ok = ic_tuning_agree(ctx->comm, ctx->rank);
    if ((rc = ic_calibrate(ctx, spans, lead)) != MPI_SUCCESS)
        goto out;
    ic_sched_init(&ctx->sched, ctx->rank, ctx->size);
    pthread_mutex_lock(&ctx_mu);
    ctx->next = live;
    if (live)
        live->prev = ctx;
    live = ctx;
    pthread_mutex_unlock(&ctx_mu);
    rc = MPI_Comm_set_attr(comm, ctx_keyval, ctx);
out:
    if (rc == MPI_SUCCESS) {
        *out = ctx;
        recent = ctx;
        recent_comm = comm;
        recent_gen = ctx_gen;
    } else
        ctx_destroy(ctx); /* linked or not; frees ctx->comm if it was made */
    return rc;
}

/* Scratch of many megabytes goes on transparent huge pages where the
 * system offers them on request (Linux's madvise mode, Debian's default):
 * scratch beyond the cache is allocated afresh by every call, and its
 * first touch by 4 KiB pages cost more than the call's copies (an in-place
 * allreduce of 2 GiB of MPI_UINT16_T at p = 2, tests/mpi/large.c: 10.5 s;
 * 6.6 s with the test's own buffers on huge pages; 3.0 s with the scratch
 * too). */
#define IC_HUGE_FROM ((size_t)4 << 20)
#define IC_HUGE_PAGE ((size_t)2 << 20)

/*
 * Scratch of a page or more starts half a page past a page boundary.
 * MPI copies messages into it and out of it (a shared-memory transport's
 * fragments, a single-copy read of the peer's buffer), and on this
 * machine's AMD EPYC the C library's copy runs 10-25x slower when the
 * destination lies 1 to 63 bytes past the source modulo 4096 (src/copy.c):
 * malloc's large blocks start 16 bytes past a page, so a receive of
 * 128 KiB into malloc'ed scratch took 67 us instead of 12 (IC_Reduce of
 * 256 KiB at p = 2, calls back to back: 93 us against the vendor's 27).
 * Half a page off is at least 2 KiB away from that relation with sources
 * and destinations that start on a page or 16 bytes past one, either way.
 */
#define IC_SCRATCH_SKEW ((size_t)2048)
#define IC_SCRATCH_ALIGNED ((size_t)4096) /* from this size on */

void *ic_scratch_alloc(size_t bytes)
{
    if (bytes < IC_SCRATCH_ALIGNED)
        return malloc(bytes);
    size_t align = IC_SCRATCH_ALIGNED;
#if defined(MADV_HUGEPAGE)
    if (bytes >= IC_HUGE_FROM)
        align = IC_HUGE_PAGE;
#endif
    void *m = NULL;
    if (bytes > SIZE_MAX - IC_SCRATCH_SKEW || posix_memalign(&m, align, bytes + IC_SCRATCH_SKEW))
        return NULL;
#if defined(MADV_HUGEPAGE)
    if (align == IC_HUGE_PAGE) /* advice only: failure is harmless */
        madvise(m, bytes + IC_SCRATCH_SKEW, MADV_HUGEPAGE);
#endif
    char *p = (char *)m + IC_SCRATCH_SKEW;
    memcpy(p - sizeof(void *), &m, sizeof(void *)); /* the block to free */
    return p;
}

void ic_scratch_free(void *p, size_t bytes)
{
    if (!p)
        return;
    if (bytes < IC_SCRATCH_ALIGNED) {
        free(p);
        return;
    }
    void *m;
    memcpy(&m, (char *)p - sizeof(void *), sizeof(void *));
    free(m);
}

void *ic_ctx_scratch(ic_ctx_t *ctx, int b, size_t bytes)
{
    if (bytes == 0)
        bytes = 1;
    if (ctx->scratch_bytes[b] >= bytes)
        return ctx->scratch[b];
    ic_scratch_free(ctx->scratch[b], ctx->scratch_bytes[b]);
    ctx->scratch[b] = ic_scratch_alloc(bytes);
    ctx->scratch_bytes[b] = ctx->scratch[b] ? bytes : 0;
    return ctx->scratch[b];
}

void ic_ctx_release_scratch(ic_ctx_t *ctx)
{
    size_t cap = ic_env()->scratch_cache;
    for (int b = 0; b < IC_NBUF; b++) {
        if (ctx->scratch_bytes[b] > cap) {
            ic_scratch_free(ctx->scratch[b], ctx->scratch_bytes[b]);
            ctx->scratch[b] = NULL;
            ctx->scratch_bytes[b] = 0;
        }
    }
}
