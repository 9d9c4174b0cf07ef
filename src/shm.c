/*
 * shm.c -- short messages between the ranks of one node through shared
 * memory.
 *
 * A short message between two ranks of one node costs the MPI library a
 * request, a match and a fragment on each side (Open MPI's shared-memory
 * transport: about 1700 instructions for a send, a receive and a wait);
 * for the collectives of short vectors that was the whole call.  A
 * context whose communicator has several ranks on this node therefore
 * sets up, once, a shared-memory window (MPI_Win_allocate_shared on the
 * node's ranks) holding, for every rank, one channel from each other rank
 * of its node: IC_SHM_SLOTS slots of IC_SHM_BYTES bytes, each with a
 * sequence word.  The executor sends a message of at most IC_SHM_BYTES
 * bytes to a rank of its node by copying it into the next slot of that
 * rank's channel from itself and storing the message's number in the
 * slot's word (release); the receiver waits for that number (acquire),
 * copies the message out and clears the word, which frees the slot.  A
 * message of up to IC_SHM_LONG bytes (more on a deepened lane, "Depth")
 * goes the same way in pieces of IC_SHM_BYTES ("Long messages" below); a
 * longer one the receiver reads straight from the sender's memory, in one
 * copy ("Direct messages"), or, where the kernel does not allow that, it
 * goes through MPI.  A longer one that the sender's round does not answer
 * from the same peer may also go through MPI, where that measured faster:
 * its slot says which ("Long messages, one copy or through MPI").
 *
 * Both sides of a message decide alike: by its length in bytes, which
 * MPI's type matching makes equal on both sides, and the peer's node.
 * Messages in each channel are numbered in the order the schedule sends
 * them, which is the order the peer's schedule receives them (the rule
 * MPI's non-overtaking gave the executor's single tag), so each slot is
 * taken in turn.  A sender finding its slot still full waits while
 * progressing its own receives; since every rank sends and receives in
 * the order of the rounds, the oldest message is always taken.
 *
 * Lanes.  The numbering needs the messages of a channel sent and received
 * in the same order on both sides, which holds for the blocking calls of
 * a communicator (every rank makes them in the same order, one at a time)
 * but not for calls in flight together, which each rank moves on in its
 * own order.  So the window holds several sets of channels, lanes:
 *   lane 0 (IC_LANE_BLOCKING): the blocking calls;
 *   lane 1 (IC_LANE_NB): the nonblocking calls, one after the other: a
 *     call that may use it posts its messages only once every older call
 *     of the communicator that may use it has ended on this rank
 *     (progress.c: ic_lane_turn), so its messages follow theirs in every
 *     channel, on every rank (all start a communicator's collectives in
 *     the same order);
 *   lanes 2 .. (IC_LANE_PERSISTENT + k): the k-th persistent call made on
 *     the communicator, its own for its life: its runs follow each other
 *     (MPI forbids starting an active request), and calls made later, or
 *     beyond the lanes the window holds, use MPI.  (Not shared: ranks may
 *     start persistent calls in different orders.)
 * A lane costs every rank nlocal x IC_SHM_SLOTS slots (the blocking one
 * nlocal x deep, below); the window holds as many (up to IC_SHM_LANES) as
 * IC_SHM_BUDGET bytes per rank allow, and at least the blocking one.
 *
 * Depth.  A sender runs ahead of its receiver by as many messages as its
 * channel has slots.  With a core for every rank, waiting for a slot costs
 * a few polls; with more ranks than cores it costs the core (below), and
 * in a loop of short calls to one root (a gatherv, a reduce) every sender
 * then gave its core away about once a call: four ranks on two cores took
 * 4.4 us a gatherv of 16 bytes where Open MPI, whose eager sends never
 * wait, took 0.4-1.  There the blocking lane's channels are deeper, up to
 * IC_SHM_DEEP slots, as many as half the budget allows (the same on every
 * rank of the node: agreed), and carry messages as long as they hold in
 * pieces (a direct message's sender waits for its receiver to run): at 4
 * ranks (32 slots, 128 KiB) the 16-byte gatherv came to 0.5-1.6 us against
 * Open MPI's 0.35-2.2 in the same runs, and a broadcast of 64 or 256 KiB
 * from 0.47-0.55 of Open MPI's speed to 0.84-1.24 (README, INTERCOM_SHM).
 *
 * Waiting.  A waiting rank polls; with more ranks than cores it yields
 * its core at once.  A rank not bound to one core yields after
 * IC_SHM_SPIN_FREE idle polls: the scheduler may move its peer onto its
 * CPU at any time, and the look below sees that only once the peer has
 * polled there (a peer that never waits never says where it runs: at p = 2
 * unbound, 8 B broadcasts took 0.7 ms a call, one full spin each).  Not
 * much sooner: a yield is a system call (0.3-1 us on a VM), and a receiver
 * that yields while its message arrives returns late (at p = 2 unbound on
 * the 2-core VM, after 16 polls 8 B to 1 KiB calls ran at 0.78-0.99 of
 * Open MPI's speed, timed per call after a barrier; after 64, 0.98-1.78,
 * a run's first point aside; a peer moved onto its CPU then costs a wait
 * about 1-2 us).  A
 * bound rank yields after IC_SHM_SPIN idle polls, or sooner: every
 * IC_SHM_PEEK idle polls it writes the CPU it runs on into its word of the
 * window and looks at the other ranks' words, and when one of them last
 * polled on this CPU (two ranks bound to one CPU, or sharing it with
 * another job) that rank is queued behind this one, and polling on would
 * only keep it from running; until a look sees no such rank, it then looks
 * and yields at every idle poll.
 *
 * Not under SimGrid's SMPI (its simulated ranks would talk for free
 * outside the simulated network), and not with INTERCOM_SHM=0.
 */
#define _GNU_SOURCE /* sched_getcpu */
#include "config.h"
#include "copy.h"
#include "ic_internal.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#ifdef HAVE_PROCESS_VM_READV
#include <sys/uio.h>
#endif

/* A slot: its word, the length of an unagreed message and the first 48
 * bytes of a message share a cache line (a short message moves as one
 * line); slots start on lines. */
typedef struct slot {
    _Atomic uint64_t seq; /* the message's number when full, 0 when free */
    uint64_t len;         /* unagreed messages: the sender's length, with
                             SLOT_VIA_MPI when the message follows through
                             MPI; written before seq                      */
    char data[IC_SHM_BYTES];
    char pad[48];
} slot_t;
#define SLOT_VIA_MPI ((uint64_t)1 << 63)
#define SLOT_DIRECT ((uint64_t)1 << 62) /* the slot holds the message's address */
/* The CPU words, one per cache line, after node rank 0's channels. */
#define CPU_STRIDE (64 / sizeof(int))
_Static_assert(sizeof(slot_t) % 64 == 0, "slots start on cache lines");

struct ic_shm {
    MPI_Comm node;    /* the ranks of this node in ctx->comm          */
    MPI_Win win;      /* their channels                               */
    int nlocal;       /* ranks on this node                           */
    int me;           /* this rank among them                         */
    int spin;         /* idle polls before a waiting rank yields       */
    int nlanes;       /* lanes of channels (see above)                 */
    size_t deep;      /* slots of a blocking-lane channel ("Depth")     */
    int *local;       /* ctx rank -> rank on this node, -1: elsewhere */
    int shared;       /* the last look saw a rank on this one's CPU   */
    int direct;       /* longer messages read in one copy              */
    int *pid;         /* node rank j's process, for direct reads       */
    _Atomic int *cpu; /* node rank j's CPU when it last polled, at
                         [j * CPU_STRIDE] (-1: not known)              */
    /* per lane l and node rank j, at [l * nlocal + j]: */
    slot_t **in;    /* my channel from j                             */
    slot_t **out;   /* j's channel from me                           */
    uint64_t *sent; /* messages sent to j                            */
    uint64_t *got;  /* messages received from j                      */
    size_t nchan;   /* channels each way: lanes x nlocal             */
    /* long messages of agreed schedules ("Long messages, one copy or
     * through MPI"), per channel c: numbered to j at [c], from j at
     * [nchan + c]; of those, published or taken at [2 nchan + c] and
     * [3 nchan + c] */
    uint64_t *lng;
};

static void shm_free(ic_shm_t *s)
{
    if (!s)
        return;
    if (s->win != MPI_WIN_NULL) {
        MPI_Win_unlock_all(s->win);
        MPI_Win_free(&s->win);
    }
    if (s->node != MPI_COMM_NULL)
        MPI_Comm_free(&s->node);
    free(s->local);
    free(s->pid);
    free(s->in);
    free(s->out);
    free(s->sent);
    free(s->got);
    free(s->lng);
    free(s);
}

void ic_shm_destroy(ic_ctx_t *ctx)
{
    shm_free(ctx->shm);
    ctx->shm = NULL;
}

#ifndef SMPI_H
/* The most ranks of one communicator seen on this machine. */
static _Atomic int on_machine;
#endif

/* Direct messages.  A message longer than IC_SHM_LONG would cost two
 * copies through the slots (the sender's into a slot, the receiver's out
 * of it, every line of the slot moving between the cores twice), where
 * MPI's own shared-memory transport moves it in one but starts it with a
 * rendezvous of its own (Open MPI: about 2.5 us).  So the sender writes
 * the address of its message (packed first when its datatype is not
 * contiguous) into its slot and publishes the number as for a short one;
 * the receiver reads the message straight from the sender's memory into
 * place (process_vm_readv: Linux's cross-memory attach, the one copy MPI
 * makes too) and then clears the slot, which is what the sender waits
 * for before its buffer is the caller's again.  One slot and one number
 * per message, whatever its length.  Whether the kernel lets a rank read
 * its peers (a container, ptrace rules such as Yama's may not) is tried
 * once, at setup, on every pair of the node, and the node agrees: where
 * one pair cannot, no rank reads directly and such messages go through
 * MPI. */
#ifdef HAVE_PROCESS_VM_READV
/* len bytes at address src of process pid into dst: MPI_SUCCESS or
 * MPI_ERR_OTHER. */
static int direct_read(int pid, void *dst, uint64_t src, size_t len)
{
    char *d = dst;
    while (len) {
        struct iovec l = {d, len}, r = {(void *)(uintptr_t)src, len};
        ssize_t got = process_vm_readv((pid_t)pid, &l, 1, &r, 1, 0);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return MPI_ERR_OTHER;
        d += got;
        src += (uint64_t)got;
        len -= (size_t)got;
    }
    return MPI_SUCCESS;
}

/* The kernel copies a direct read with `rep movsb` too (copy.c), and on
 * the CPUs where that is slow when the destination lies a few bytes past
 * the source modulo 4096, so is the read: on a 2-core AMD EPYC VM, 512 KiB
 * took 180-250 us with the destination 1 to 12 bytes past (49 us with the
 * two aligned, 1.0-1.15 times that from 16 bytes past on), and two ranks
 * whose buffers lay 4 or 8 bytes apart in their pages broadcast 1 MiB 3-4
 * times slower than aligned ones, through Open MPI's one copy as through
 * this one.  Such a read can go through a bounce buffer placed at the
 * source's offset in its page, IC_BOUNCE bytes at a time (the kernel's
 * copy then aligned, the bounce's copy out of the cache by ic_copy_bytes,
 * which takes the measured way of copy.c): 61 us for those 512 KiB, 577 us
 * for 4 MiB where the plain read took 2267.  Which way serves is measured
 * (ic_way_pick), per length class and per band of the destination's
 * distance (1-15 bytes past, 16-63: on that VM the first band lost 4.7x,
 * the second a few percent, which the bounce's extra copy would not win
 * back).  One bounce buffer per process, taken by one read at a time
 * (another thread's read meanwhile reads plainly). */
enum {
    IC_BOUNCE = 131072, /* bytes of a bounce's read */
    IC_BOUNCE_BAND = 16 /* distances from here on: the second band */
};
static ic_way_class_t read_ways[2][IC_WAY_CLASSES];
/* room for a read at any offset of its page; in .bss, its pages touched
 * only by a process that reads through it */
static _Alignas(4096) char bounce[IC_BOUNCE + 4096];
static atomic_flag bounce_busy = ATOMIC_FLAG_INIT;

static int bounce_read(int pid, char *dst, uint64_t src, size_t len)
{
    int rc = MPI_SUCCESS;
    for (size_t o = 0; o < len && rc == MPI_SUCCESS; o += IC_BOUNCE) {
        size_t k = len - o < IC_BOUNCE ? len - o : IC_BOUNCE;
        char *b = bounce + ((src + o) & 4095u);
        if ((rc = direct_read(pid, b, src + o, k)) == MPI_SUCCESS)
            ic_copy_bytes(dst + o, b, k);
    }
    return rc;
}

/* direct_read by the way measured fastest for the two addresses. */
static int direct_get(int pid, char *dst, uint64_t src, size_t len)
{
    unsigned far = ic_copy_distance((uintptr_t)dst, (uintptr_t)src);
    if (len < IC_COPY_MIN || far == 0 || far >= IC_COPY_NEAR ||
        atomic_flag_test_and_set_explicit(&bounce_busy, memory_order_acquire))
        return direct_read(pid, dst, src, len);
    ic_way_class_t *cl = &read_ways[far >= IC_BOUNCE_BAND][ic_way_class_of(len)];
    int probe;
    uint64_t t0;
    int way = ic_way_pick(cl, &probe, &t0);
    int rc = way == 2 ? bounce_read(pid, dst, src, len) : direct_read(pid, dst, src, len);
    if (probe >= 0 && rc == MPI_SUCCESS)
        ic_way_done(cl, probe, way, len, t0);
    atomic_flag_clear_explicit(&bounce_busy, memory_order_release);
    return rc;
}
#endif

#ifndef SMPI_H
/* Whether every rank of s's node may read every other's memory (collective
 * on s->node; MPI_SUCCESS whatever the answer, which is s->direct). */
static int direct_setup(ic_shm_t *s)
{
    s->direct = 0;
#ifdef HAVE_PROCESS_VM_READV
    static const uint64_t direct_probe = 0x1c0ffee5eedULL; /* what every peer reads */
    int n = s->nlocal, ok, all = 0, rc;
    uint64_t *at = malloc((size_t)n * sizeof(*at)), mine = (uint64_t)(uintptr_t)&direct_probe;
    s->pid = malloc((size_t)n * sizeof(*s->pid));
    ok = at && s->pid;
    int me = (int)getpid();
    if ((rc = PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, s->node)) == MPI_SUCCESS && all &&
        (rc = PMPI_Allgather(&me, 1, MPI_INT, s->pid, 1, MPI_INT, s->node)) == MPI_SUCCESS &&
        (rc = PMPI_Allgather(&mine, 1, MPI_UINT64_T, at, 1, MPI_UINT64_T, s->node)) ==
            MPI_SUCCESS) {
        for (int j = 0; ok && j < n; j++) {
            uint64_t w = 0;
            ok = j == s->me ||
                 (direct_read(s->pid[j], &w, at[j], sizeof(w)) == MPI_SUCCESS && w == direct_probe);
        }
        rc = PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, s->node);
        s->direct = rc == MPI_SUCCESS && all;
    }
    free(at);
    return rc;
#else
    (void)s;
    return MPI_SUCCESS;
#endif
}

/* Whether this process may run on one CPU only (bound to a core). */
static int bound_to_one(void)
{
#ifdef HAVE_SCHED_GETAFFINITY
    cpu_set_t set;
    return sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) == 1;
#else
    return 0;
#endif
}
#endif /* SMPI_H */

#ifndef SMPI_H
/* Lanes of a window whose blocking lane's channels have `deep` slots: as
 * many as IC_SHM_BUDGET allows beside it, at least that one. */
static int lanes_for(int n, size_t deep)
{
    size_t chan = IC_SHM_SLOTS * sizeof(slot_t), first = (size_t)n * deep * sizeof(slot_t);
    size_t more = first < IC_SHM_BUDGET ? (IC_SHM_BUDGET - first) / ((size_t)n * chan) : 0;
    return 1 + (int)(more < IC_SHM_LANES - 1 ? more : IC_SHM_LANES - 1);
}

/* The first slot of channel j of lane l in a rank's window. */
static size_t chan_at(const ic_shm_t *s, size_t l, int j)
{
    size_t n = (size_t)s->nlocal;
    return l == 0 ? (size_t)j * s->deep : n * s->deep + ((l - 1) * n + (size_t)j) * IC_SHM_SLOTS;
}
#endif

/* Collective on ctx->comm; ctx->shm stays NULL where it cannot be made
 * (every rank of a node agrees: the window is made or not for all). */
int ic_shm_setup(ic_ctx_t *ctx)
{
    ctx->shm = NULL;
#ifdef SMPI_H
    return MPI_SUCCESS;
#else
    if (!ic_env()->shm || ctx->size < 2)
        return MPI_SUCCESS;
    MPI_Comm node = MPI_COMM_NULL;
    int nlocal = 0, me = 0;
    int rc = MPI_Comm_split_type(ctx->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_size(node, &nlocal);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_rank(node, &me);
    /* every rank takes part, whatever its node */
    int machine = ic_topo_machine_ranks(ctx->comm);
    if (machine > 0) { /* the most seen: a communicator may hold part of them */
        int seen = atomic_load(&on_machine);
        while (machine > seen && !atomic_compare_exchange_weak(&on_machine, &seen, machine))
            ;
        machine = machine > seen ? machine : seen;
    }
    if (rc != MPI_SUCCESS || nlocal < 2 || nlocal > IC_SHM_MAX_RANKS) {
        if (node != MPI_COMM_NULL)
            MPI_Comm_free(&node);
        return MPI_SUCCESS;
    }
    /* Every rank of the node must agree to make the window: a rank out of
     * memory still takes part in the agreement, which then says no. */
    int n = nlocal;
    ic_shm_t *s = calloc(1, sizeof(*s));
    int ok = s != NULL, all = 0, deep = IC_SHM_SLOTS;
    if (s) {
        s->node = node;
        s->win = MPI_WIN_NULL;
        s->nlocal = nlocal;
        s->me = me;
        /* More ranks than cores on the node or the machine (an
         * oversubscribed test, an emulated cluster's "nodes" on one
         * machine): a waiting rank gives its core away at once, as MPI
         * libraries do then; else it polls. */
        int cores = ic_topo_ncores();
        s->spin = nlocal > cores || machine > cores ? 0
                  : bound_to_one()                  ? IC_SHM_SPIN
                                                    : IC_SHM_SPIN_FREE;
        if (!s->spin)
            while (deep < IC_SHM_DEEP &&
                   (size_t)n * 2 * (size_t)deep * sizeof(slot_t) <= IC_SHM_BUDGET / 2)
                deep *= 2;
        /* room for the lanes of the shallowest blocking lane agreed */
        size_t nl = (size_t)n * (size_t)lanes_for(n, IC_SHM_SLOTS);
        s->local = malloc((size_t)ctx->size * sizeof(int));
        s->in = calloc(nl, sizeof(*s->in));
        s->out = calloc(nl, sizeof(*s->out));
        s->sent = calloc(nl, sizeof(*s->sent));
        s->got = calloc(nl, sizeof(*s->got));
        s->nchan = nl;
        s->lng = calloc(4 * nl, sizeof(*s->lng));
        ok = s->local && s->in && s->out && s->sent && s->got && s->lng;
    }
    int mine_in[2] = {ok, deep}, agreed[2] = {0, 0};
    if (PMPI_Allreduce(mine_in, agreed, 2, MPI_INT, MPI_MIN, node) != MPI_SUCCESS || !agreed[0]) {
        if (s)
            shm_free(s); /* frees node */
        else
            MPI_Comm_free(&node);
        return MPI_SUCCESS;
    }
    s->deep = (size_t)agreed[1];
    s->nlanes = lanes_for(n, s->deep);
    size_t nl = (size_t)n * (size_t)s->nlanes;
    /* a rank's window: its blocking lane's channels, then the others' */
    size_t nslot = (size_t)n * s->deep + (nl - (size_t)n) * IC_SHM_SLOTS;
    size_t cpus = s->me == 0 ? (size_t)n * CPU_STRIDE * sizeof(int) : 0;
    slot_t *mine = NULL;
    rc = MPI_Win_allocate_shared((MPI_Aint)(nslot * sizeof(slot_t) + cpus), (int)sizeof(slot_t),
                                 MPI_INFO_NULL, s->node, &mine, &s->win);
    if (rc != MPI_SUCCESS) {
        s->win = MPI_WIN_NULL;
        shm_free(s);
        return MPI_SUCCESS;
    }
    MPI_Win_lock_all(MPI_MODE_NOCHECK, s->win);
    for (int j = 0; j < n; j++) {
        MPI_Aint size = 0;
        int disp = 0;
        slot_t *base = NULL;
        if (rc == MPI_SUCCESS)
            rc = MPI_Win_shared_query(s->win, j, &size, &disp, &base);
        if (rc == MPI_SUCCESS && j == 0)
            s->cpu = (_Atomic int *)(base + nslot);
        for (size_t l = 0; rc == MPI_SUCCESS && l < (size_t)s->nlanes; l++) {
            size_t at = l * (size_t)n;
            s->out[at + j] = base + chan_at(s, l, s->me); /* j's from me */
            s->in[at + j] = mine + chan_at(s, l, j);      /* mine from j */
        }
    }
    if (rc == MPI_SUCCESS) {
        for (size_t i = 0; i < nslot; i++)
            atomic_store_explicit(&mine[i].seq, 0, memory_order_relaxed);
        atomic_store_explicit(&s->cpu[(size_t)s->me * CPU_STRIDE], -1, memory_order_relaxed);
        MPI_Group g, gn;
        int *ranks = malloc((size_t)ctx->size * sizeof(int));
        if (!ranks || MPI_Comm_group(ctx->comm, &g) != MPI_SUCCESS) {
            rc = MPI_ERR_NO_MEM;
        } else {
            for (int i = 0; i < ctx->size; i++)
                ranks[i] = i;
            if ((rc = MPI_Comm_group(s->node, &gn)) == MPI_SUCCESS) {
                rc = MPI_Group_translate_ranks(g, ctx->size, ranks, gn, s->local);
                MPI_Group_free(&gn);
            }
            MPI_Group_free(&g);
            for (int i = 0; rc == MPI_SUCCESS && i < ctx->size; i++)
                if (s->local[i] == MPI_UNDEFINED)
                    s->local[i] = -1;
        }
        free(ranks);
    }
    /* cleared channels everywhere before anyone sends; and agreement */
    ok = rc == MPI_SUCCESS;
    atomic_thread_fence(memory_order_seq_cst);
    if (PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, s->node) != MPI_SUCCESS || !all) {
        shm_free(s);
        return MPI_SUCCESS;
    }
    if (ic_env()->shm == 2 && direct_setup(s) != MPI_SUCCESS) {
        shm_free(s);
        return MPI_SUCCESS;
    }
    ctx->shm = s;
    if (ic_env()->verbose && ctx->rank == 0)
        fprintf(stderr,
                "InterCom: shared-memory channels among the %d ranks of this node (of %d in "
                "the communicator), %d lanes, %zu slots a blocking channel; longer messages "
                "%s\n",
                n, ctx->size, s->nlanes, s->deep, s->direct ? "read in one copy" : "through MPI");
    return MPI_SUCCESS;
#endif
}

int ic_shm_lanes(const ic_ctx_t *ctx)
{
    return ctx->shm ? ctx->shm->nlanes : 0;
}

int ic_shm_local(const ic_ctx_t *ctx, int peer)
{
    const ic_shm_t *s = ctx->shm;
    return s && peer != ctx->rank && s->local[peer] >= 0;
}

/* op's channel: its lane's from or to its peer */
static size_t chan_of(const ic_shm_t *s, const ic_shm_op_t *op)
{
    return (size_t)op->lane * (size_t)s->nlocal + (size_t)s->local[op->peer];
}

/* Long messages.  A message of more than IC_SHM_BYTES (up to IC_SHM_LONG,
 * or on a deepened blocking lane as many bytes as its channels hold) goes
 * in pieces of IC_SHM_BYTES, one slot and one number each: piece k of the
 * message numbered seq is number seq + k, in slot (seq - 1 + k) mod the
 * channel's slots.  The sender fills slots as they free up and the receiver
 * empties them as they fill, so the two copies overlap.  Both sides cut
 * alike (the length and the lane decide).  Slot i only ever holds
 * numbers i + 1 mod the slots, and a receiver waits for its exact number
 * there, so pieces of two messages of one round may be written in any
 * order: the receiver takes whichever came (every message of a round is
 * posted on both sides before either waits).  A datatype that is not
 * contiguous is packed whole first (and unpacked once all pieces are in):
 * a piece is a range of bytes, which MPI_Pack cannot start in the middle
 * of an element. */
static size_t npieces(size_t bytes)
{
    return bytes > IC_SHM_BYTES ? (bytes + IC_SHM_BYTES - 1) / IC_SHM_BYTES : 1;
}

/* Slots of a channel of lane (a power of two: "Depth"). */
static size_t depth(const ic_shm_t *s, int lane)
{
    return lane == IC_LANE_BLOCKING ? s->deep : IC_SHM_SLOTS;
}

/* The longest message through lane's slots: as much as a channel holds
 * (IC_SHM_LONG, more on a deepened lane, whose sender then does not wait
 * for its receiver to run). */
_Static_assert(IC_SHM_LONG == IC_SHM_SLOTS * IC_SHM_BYTES, "a channel holds IC_SHM_LONG");
static size_t longest(const ic_shm_t *s, int lane)
{
    return depth(s, lane) * IC_SHM_BYTES;
}

int ic_shm_peer(const ic_ctx_t *ctx, int peer, int lane, size_t bytes)
{
    return ic_shm_local(ctx, peer) && (bytes <= longest(ctx->shm, lane) || ctx->shm->direct);
}

/* Slots (and numbers) of a message of `bytes` bytes on lane: its pieces,
 * or one for a longer one (its address, "Direct messages"; or, unagreed,
 * its length before MPI carries it). */
static size_t nslots(const ic_shm_t *s, int lane, size_t bytes)
{
    return bytes <= longest(s, lane) ? npieces(bytes) : 1;
}

void ic_shm_number(ic_ctx_t *ctx, ic_shm_op_t *op)
{
    ic_shm_t *s = ctx->shm;
    size_t c = chan_of(s, op);
    uint64_t *n = op->send ? &s->sent[c] : &s->got[c];
    op->seq = *n + 1;
    /* an unagreed receiver learns the sender's pieces from the first slot
     * (try_unagreed); a message longer than the lane's longest takes one slot,
     * its data read in one copy (or, unagreed, through MPI) */
    *n += !op->unagreed || op->send ? nslots(s, op->lane, op->bytes) : 1;
    if (!op->unagreed && op->bytes > longest(s, op->lane))
        op->lseq = ++s->lng[(op->send ? 0 : s->nchan) + c];
    op->done = 0;
    op->piece = 0;
    op->pack = NULL;
}

/* Slot of piece k of op's message. */
static slot_t *slot_of(const ic_shm_t *s, const ic_shm_op_t *op, size_t k)
{
    size_t c = chan_of(s, op);
    return (op->send ? s->out[c] : s->in[c]) + ((op->seq - 1 + k) & (depth(s, op->lane) - 1));
}

/* Move op's message of `total` bytes, piece by piece from op->piece on, as
 * far as the slots allow; a receiver that does not keep it (an unagreed
 * message dropped) empties the slots without copying.  An unagreed
 * sender's first slot also carries the length.  1 when the whole message
 * has moved, 0 when a slot is not ready (*stirred: some piece moved), an
 * MPI error code (negative) on failure. */
static int move_pieces(ic_ctx_t *ctx, ic_shm_op_t *op, size_t total, int keep, int *stirred)
{
    size_t np = npieces(total);
    int rc;
    char *mem = op->contig ? op->buf : op->pack;
    if (np > 1 && !mem && keep) { /* not contiguous: packed whole */
        if (!(op->pack = malloc(total)))
            return -MPI_ERR_NO_MEM;
        mem = op->pack;
        if (op->send && (rc = ic_typed_copy(ctx, op->buf, op->n, op->type, 0, op->size, mem, total,
                                            MPI_PACKED, 1)) != MPI_SUCCESS)
            return -rc;
    }
    for (; op->piece < np; op->piece++) {
        slot_t *sl = slot_of(ctx->shm, op, op->piece);
        uint64_t want = op->seq + op->piece;
        size_t off = op->piece * IC_SHM_BYTES;
        size_t len = total - off < IC_SHM_BYTES ? total - off : IC_SHM_BYTES;
        if (op->send) {
            if (atomic_load_explicit(&sl->seq, memory_order_acquire) != 0)
                return 0;
            if (np > 1)
                ic_copy_bytes(sl->data, mem + off, len);
            else if ((rc = ic_typed_copy(ctx, op->buf, op->n, op->type, op->contig, op->size,
                                         sl->data, total, MPI_PACKED, 1)) != MPI_SUCCESS)
                return -rc;
            if (op->unagreed && op->piece == 0)
                sl->len = (uint64_t)total;
            atomic_store_explicit(&sl->seq, want, memory_order_release);
        } else {
            if (atomic_load_explicit(&sl->seq, memory_order_acquire) != want)
                return 0;
            rc = MPI_SUCCESS;
            if (keep && np == 1)
                rc = ic_typed_copy(ctx, sl->data, total, MPI_PACKED, 1, 1, op->buf, op->n, op->type,
                                   op->contig);
            else if (keep)
                ic_copy_bytes(mem + off, sl->data, len);
            if (rc != MPI_SUCCESS)
                return -rc;
            atomic_store_explicit(&sl->seq, 0, memory_order_release);
        }
        *stirred = 1;
    }
    if (!op->send && keep && np > 1 && !op->contig &&
        (rc = ic_typed_copy(ctx, op->pack, total, MPI_PACKED, 1, 1, op->buf, op->n, op->type, 0)) !=
            MPI_SUCCESS)
        return -rc;
    free(op->pack);
    op->pack = NULL;
    op->done = 1;
    return 1;
}

/* Move op's direct message of `total` bytes ("Direct messages" above): the
 * sender publishes its address, then waits until the receiver has read
 * it; a receiver that does not keep it (an unagreed message dropped) only
 * frees the slot.  Returns as move_pieces. */
static int move_direct(ic_ctx_t *ctx, ic_shm_op_t *op, size_t total, int keep, int *stirred)
{
    ic_shm_t *s = ctx->shm;
    slot_t *sl = slot_of(s, op, 0);
    int rc = MPI_SUCCESS;
    if (op->send) {
        if (!op->piece) { /* published yet? */
            if (atomic_load_explicit(&sl->seq, memory_order_acquire) != 0)
                return 0;
            char *mem = op->buf;
            if (!op->contig) {
                if (!(op->pack = malloc(total)))
                    return -MPI_ERR_NO_MEM;
                if ((rc = ic_typed_copy(ctx, op->buf, op->n, op->type, 0, op->size, op->pack, total,
                                        MPI_PACKED, 1)) != MPI_SUCCESS)
                    return -rc;
                mem = op->pack;
            }
            uint64_t at = (uint64_t)(uintptr_t)mem;
            memcpy(sl->data, &at, sizeof(at));
            sl->len = (uint64_t)total | SLOT_DIRECT;
            atomic_store_explicit(&sl->seq, op->seq, memory_order_release);
            op->piece = 1;
            *stirred = 1;
        }
        /* read once the receiver cleared it (only the sender fills it) */
        if (atomic_load_explicit(&sl->seq, memory_order_acquire) == op->seq)
            return 0;
    } else {
        if (atomic_load_explicit(&sl->seq, memory_order_acquire) != op->seq)
            return 0;
#ifdef HAVE_PROCESS_VM_READV
        uint64_t at;
        memcpy(&at, sl->data, sizeof(at));
        char *mem = op->buf;
        if (keep && !op->contig) { /* packed at the source's offset in its page (above) */
            size_t whole = (total + 2 * 4096 - 1) & ~(size_t)4095;
            mem = op->pack = aligned_alloc(4096, whole);
            if (mem)
                mem += at & 4095u;
        }
        if (!mem)
            rc = MPI_ERR_NO_MEM;
        else if (keep &&
                 (rc = direct_get(s->pid[s->local[op->peer]], mem, at, total)) == MPI_SUCCESS &&
                 !op->contig)
            rc = ic_typed_copy(ctx, mem, total, MPI_PACKED, 1, 1, op->buf, op->n, op->type, 0);
#else
        (void)keep;
        rc = MPI_ERR_INTERN; /* s->direct is never set */
#endif
        atomic_store_explicit(&sl->seq, 0, memory_order_release); /* the sender's buffer back */
        *stirred = 1;
    }
    free(op->pack);
    op->pack = NULL;
    if (rc != MPI_SUCCESS)
        return -rc;
    op->done = 1;
    return 1;
}

/* Long messages, one copy or through MPI.  A message of an agreed schedule
 * longer than its lane's slots hold takes one slot, which says how the
 * data follow: read by the receiver in one copy ("Direct messages"), or
 * through MPI (sent first, with the schedule's tag on ctx->comm; the
 * receiver posts its receive once it has read the slot).  The sender
 * chooses.  Where the round also receives from the same peer (an
 * exchange: both ranks copy at once), in one copy: the read is one copy
 * a message where MPI's shared memory may make two.  Where it only sends,
 * the way measured faster from here (ic_way_pick per power-of-two length,
 * process-wide, from the slot's publication to the message's end): MPI's
 * transport may pipeline two copies on the two cores, which on some
 * machines beats a cross-memory read (a 2-core VM: a 4 MiB broadcast at
 * p = 2 in 270-290 us through Open MPI's copy in and out against 435-614 read in
 * one copy, where process_vm_readv pins every page of the source), and
 * elsewhere MPI makes the same one copy (Open MPI's CMA) after a
 * rendezvous.  MPI matches a pair's messages of one tag in the order they
 * are posted, so each side moves its long messages of a channel in their
 * order (lseq): a sender publishes, and a receiver reads, the slot of
 * one only after those of every earlier one. */
static ic_way_class_t send_ways[IC_WAY_CLASSES];
enum { WAY_DIRECT = 1, WAY_MPI = 2 };

/* The part of op's message that goes through MPI (op->req): 1 once it
 * has completed (op done), 0 while under way, an MPI error code
 * (negative) on failure. */
static int mpi_part_done(ic_shm_op_t *op)
{
    int flag = 0, rc = PMPI_Test(&op->req, &flag, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS)
        return -rc;
    if (!flag)
        return 0;
    free(op->drain);
    op->drain = NULL;
    op->done = 1;
    return 1;
}

static int move_long(ic_ctx_t *ctx, ic_shm_op_t *op, int *stirred)
{
    ic_shm_t *s = ctx->shm;
    slot_t *sl = slot_of(s, op, 0);
    int rc;
    if (op->stage == 0) { /* its slot: published (sender), read (receiver) */
        uint64_t *moved = &s->lng[(op->send ? 2 : 3) * s->nchan + chan_of(s, op)];
        if (*moved + 1 != op->lseq) /* an earlier one of the channel first */
            return 0;
        if (op->send) {
            if (atomic_load_explicit(&sl->seq, memory_order_acquire) != 0)
                return 0;
            int way = WAY_DIRECT;
            if (!op->exch)
                way = ic_way_pick(&send_ways[ic_way_class_of(op->bytes)], &op->probe, &op->tw);
            if (way == WAY_MPI) {
                if ((rc = MPI_Isend(op->buf, (int)op->n, op->type, op->peer, op->tag, ctx->comm,
                                    &op->req)) != MPI_SUCCESS)
                    return -rc;
                sl->len = (uint64_t)op->bytes | SLOT_VIA_MPI;
                atomic_store_explicit(&sl->seq, op->seq, memory_order_release);
            }
            op->via = way == WAY_MPI;
        } else {
            if (atomic_load_explicit(&sl->seq, memory_order_acquire) != op->seq)
                return 0;
            op->via = (sl->len & SLOT_VIA_MPI) != 0;
            if (op->via) {
                if ((sl->len & ~SLOT_VIA_MPI) != (uint64_t)op->bytes)
                    return -MPI_ERR_INTERN; /* both sides count an agreed message alike */
                atomic_store_explicit(&sl->seq, 0, memory_order_release);
                if ((rc = MPI_Irecv(op->buf, (int)op->n, op->type, op->peer, op->tag, ctx->comm,
                                    &op->req)) != MPI_SUCCESS)
                    return -rc;
            }
        }
        op->stage = op->via ? 1 : 2;
        ++*moved;
        *stirred = 1;
    }
    /* one copy (a sender's slot is free: published now), or MPI's */
    rc = op->stage == 2 ? move_direct(ctx, op, op->bytes, 1, stirred) : mpi_part_done(op);
    if (rc == 1 && op->probe >= 0)
        ic_way_done(&send_ways[ic_way_class_of(op->bytes)], op->probe,
                    op->via ? WAY_MPI : WAY_DIRECT, op->bytes, op->tw);
    return rc;
}

/* Unagreed messages.  A schedule whose sides count a message alone
 * (ic_sched_t.unagreed: linear gatherv and scatterv, which run without the
 * block sizes first) sends every message to a rank of the node through the
 * blocking lane's channel, whatever its length, so that both sides take a
 * slot and the channel's numbering holds whatever the counts.  The first
 * slot carries the sender's length: a message up to the lane's longest goes
 * in its pieces (above), a longer one is read in one copy ("Direct
 * messages") or goes through MPI (sent first, with the tag and communicator
 * of the schedule's other messages), the slot saying so.  The receiver
 * reads that length first (stage 2), compares it with its own count and,
 * from it, numbers the message's further pieces in its channel (nothing
 * else is numbered there meanwhile: such a schedule has one message per
 * channel and round, and the next round is posted once this one is
 * complete); the executor learns every length of the round, from the slots
 * and by probing its MPI messages (executor.c: learn_lengths), before any
 * receiver takes data.  Then each receiver copies the pieces out or posts
 * its receive (take 1, the data straight into place), or, when some message
 * of the round is not as long as its receiver's count, empties the slots or
 * takes the message into a buffer of its own and drops it (take 2), so that
 * the round writes nothing of the user's and ends with MPI_ERR_TRUNCATE.
 * The round's only receive needs no other length: it decides as soon as
 * it has read its own (take 3).  Returns as try_op. */
static int try_unagreed(ic_ctx_t *ctx, ic_shm_op_t *op, int *stirred)
{
    ic_shm_t *s = ctx->shm;
    slot_t *sl = slot_of(s, op, 0);
    int rc;
    if (op->stage == 1) /* the MPI message */
        return mpi_part_done(op);
    if (op->send) {
        if (op->bytes <= longest(s, op->lane))
            return move_pieces(ctx, op, op->bytes, 1, stirred);
        if (s->direct)
            return move_direct(ctx, op, op->bytes, 1, stirred);
        /* a long message on its way first (the receiver's receive, posted
         * once it reads the slot, finds it started) */
        if (op->req == MPI_REQUEST_NULL &&
            (rc = MPI_Isend(op->buf, (int)op->n, op->type, op->peer, op->tag, ctx->comm,
                            &op->req)) != MPI_SUCCESS)
            return -rc;
        if (atomic_load_explicit(&sl->seq, memory_order_acquire) != 0)
            return 0;
        sl->len = (uint64_t)op->bytes | SLOT_VIA_MPI;
        atomic_store_explicit(&sl->seq, op->seq, memory_order_release);
        *stirred = 1;
        op->stage = 1;
        return try_unagreed(ctx, op, stirred);
    }
    if (op->stage == 0) { /* its length */
        if (atomic_load_explicit(&sl->seq, memory_order_acquire) != op->seq)
            return 0;
        op->len = sl->len & ~(SLOT_VIA_MPI | SLOT_DIRECT);
        op->via = (sl->len & SLOT_VIA_MPI) != 0;
        op->direct = (sl->len & SLOT_DIRECT) != 0;
        op->mismatch = op->len != (uint64_t)op->bytes;
        if (!op->via && !op->direct && npieces(op->len) > 1) { /* its further pieces' numbers */
            size_t c = chan_of(s, op);
            if (s->got[c] != op->seq || op->len > longest(s, op->lane))
                return -MPI_ERR_INTERN;
            s->got[c] += npieces(op->len) - 1;
        }
        op->stage = 2;
        *stirred = 1;
    }
    if (!op->take)
        return 0;      /* the round's other lengths first */
    if (op->take == 3) /* the round's only receive */
        op->take = op->mismatch ? 2 : 1;
    int keep = op->take == 1 && !op->mismatch;
    if (op->direct)
        return move_direct(ctx, op, op->len, keep, stirred);
    if (!op->via)
        return move_pieces(ctx, op, op->len, keep, stirred);
    atomic_store_explicit(&sl->seq, 0, memory_order_release);
    if (!keep) { /* take it whole, then drop it */
        if (op->len > (uint64_t)INT_MAX || !(op->drain = malloc(op->len ? (size_t)op->len : 1)))
            return -MPI_ERR_NO_MEM;
        rc = MPI_Irecv(op->drain, (int)op->len, MPI_PACKED, op->peer, op->tag, ctx->comm, &op->req);
    } else
        rc = MPI_Irecv(op->buf, (int)op->n, op->type, op->peer, op->tag, ctx->comm, &op->req);
    op->stage = 1;
    return rc != MPI_SUCCESS ? -rc : try_unagreed(ctx, op, stirred);
}

/* One attempt at op; 1 when it completed now, 0 when it must wait
 * (*stirred: it moved on in part), an MPI error code (negative) on
 * failure. */
static int try_op(ic_ctx_t *ctx, ic_shm_op_t *op, int *stirred)
{
    if (op->unagreed)
        return try_unagreed(ctx, op, stirred);
    if (op->bytes > longest(ctx->shm, op->lane))
        return move_long(ctx, op, stirred);
    return move_pieces(ctx, op, op->bytes, 1, stirred);
}

void ic_shm_release(ic_shm_op_t *ops, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(ops[i].pack);
        ops[i].pack = NULL;
        if (ops[i].req != MPI_REQUEST_NULL) {
            /* an unagreed message's MPI part still under way: cancelled
             * and let go; a receive that MPI may still complete keeps its
             * buffer (drain: left, as MPI may write it) */
            MPI_Cancel(&ops[i].req);
            PMPI_Request_free(&ops[i].req);
            continue;
        }
        free(ops[i].drain);
        ops[i].drain = NULL;
    }
}

/* One attempt at each of ops[0, n) not done yet: *moved of them completed
 * now or moved on in part (INTERCOM_TRACE: the times of those completed
 * noted), *left are still to do. */
static int one_pass(ic_ctx_t *ctx, ic_shm_op_t *ops, size_t n, size_t *moved, size_t *left)
{
    *moved = *left = 0;
    /* the sends first: a receive may copy at length (a direct message)
     * while the peer waits for this rank's messages */
    for (size_t k = 0, i = 0; k < 2 * n; k++, i = i + 1 < n ? i + 1 : 0) {
        if (ops[i].done || (k < n) != (ops[i].send != 0))
            continue;
        int stirred = 0, r = try_op(ctx, &ops[i], &stirred);
        if (r < 0)
            return -r;
        if (!r) {
            ++*left;
            *moved += stirred != 0;
            continue;
        }
        ++*moved;
        if (ctx->tmsg)
            ops[i].t1 = MPI_Wtime();
    }
    return MPI_SUCCESS;
}

int ic_shm_drain(ic_ctx_t *ctx, int peer, int tag)
{
    ic_shm_op_t op;
    memset(&op, 0, sizeof(op));
    op.peer = peer;
    op.lane = IC_LANE_BLOCKING;
    op.type = MPI_PACKED;
    op.contig = op.size = 1;
    op.bytes = SIZE_MAX; /* no message is as long: taken into drain */
    op.unagreed = 1;
    op.take = 2; /* dropped whatever its length */
    op.tag = tag;
    op.req = MPI_REQUEST_NULL;
    ic_shm_number(ctx, &op);
    return ic_shm_progress(ctx, &op, 1, NULL, 0);
}

int ic_shm_poll(ic_ctx_t *ctx, ic_shm_op_t *ops, size_t n, int *all)
{
    size_t moved, left;
    int rc = one_pass(ctx, ops, n, &moved, &left);
    *all = left == 0;
    return rc;
}

/* Whether another rank of the node last polled on the CPU this one runs
 * on (and say where this one runs). */
static int cpu_shared(ic_shm_t *s)
{
#ifdef HAVE_SCHED_GETCPU
    int here = sched_getcpu();
    atomic_store_explicit(&s->cpu[(size_t)s->me * CPU_STRIDE], here, memory_order_relaxed);
    for (int j = 0; here >= 0 && j < s->nlocal; j++)
        if (j != s->me &&
            atomic_load_explicit(&s->cpu[(size_t)j * CPU_STRIDE], memory_order_relaxed) == here)
            return 1;
#else
    (void)s;
#endif
    return 0;
}

void ic_shm_idle(ic_ctx_t *ctx, int *idle)
{
    ic_shm_t *s = ctx->shm;
    int spin = s ? s->spin : IC_SHM_SPIN;
    ++*idle;
    if (*idle > spin ||
        (s && (s->shared || *idle % IC_SHM_PEEK == 0) && (s->shared = cpu_shared(s)))) {
        *idle = 0;
        sched_yield();
    }
}

int ic_shm_progress(ic_ctx_t *ctx, ic_shm_op_t *ops, size_t n, MPI_Request *reqs, int nreqs)
{
    size_t left, moved;
    int mpi_done = nreqs == 0, idle = 0;
    for (;;) {
        int rc = one_pass(ctx, ops, n, &moved, &left);
        if (rc != MPI_SUCCESS)
            return rc;
        if (!mpi_done && (rc = ic_complete_all(ctx, nreqs, reqs, &mpi_done)) != MPI_SUCCESS)
            return rc;
        /* all done, perhaps before this call (an unagreed round's sends
         * move while its lengths are learnt): no wait, so no yield */
        if (!left && mpi_done)
            return MPI_SUCCESS;
        if (moved) {
            idle = 0;
            continue;
        }
        if (ic_npending) /* pending nonblocking calls move on (executor.c: wait_moving) */
            ic_progress();
        ic_shm_idle(ctx, &idle);
    }
}
