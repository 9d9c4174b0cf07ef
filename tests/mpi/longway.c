/*
 * longway.c -- long messages between two ranks of one node, which their
 * sender may send read in one copy or through MPI (src/shm.c, "Long
 * messages, one copy or through MPI"), run by the executor on schedules
 * made here (it links the runtime itself, libicrt, like placement.c):
 *   - one way: a round in which rank 0 sends rank 1 three short messages
 *     (a slot each) and four long ones of different lengths, and nothing
 *     comes back.  The first messages of a power-of-two length that a
 *     rank sends alternate the two ways (copy.h: ic_way_pick), so the first
 *     rounds mix them, two of each between the same ranks; later rounds
 *     all go the way measured faster.  The receiver must take each in its
 *     order whatever the way (MPI matches two messages of one tag in the
 *     order they are posted); the order rule itself (src/shm.c: lseq)
 *     matters only when a later long message's slot frees first, which
 *     these rounds make possible (the short ones' slots are the long
 *     ones' on a channel of 4) but cannot force;
 *   - an exchange: a round in which ranks 0 and 1 send each other two
 *     long messages (read in one copy both ways);
 *   - both again with ranks 0 and 1 of a communicator whose ranks run the
 *     other way (the last two ranks of the world).
 * Every round runs more times than the probes of a length, with new data
 * each time, and every byte received is checked (and the bytes around
 * it, poisoned before: none written).  Ranks beyond the two take no part.
 * Where the ranks do not share a node's channels (INTERCOM_SHM=0, the
 * kernel refusing cross-memory reads, p = 1) the same messages go through
 * MPI, and the test checks the same.
 */
#include <mpi.h>
#include "ic_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SIMPLE_TEST "longway"
#include "simple.h"

/* longer than a deepened lane's slots hold (64 of 4 KiB), odd lengths */
static const size_t len[4] = {262147, 300001, 262147, 333333};
#define NSHORT 3 /* one slot each, before them */
#define SHORT 1000
#define ONEWAY (NSHORT * SHORT + 262147 + 300001 + 262147 + 333333)
#define EXCH (262147 + 300001)
#define ROUNDS 24 /* more than IC_WAY_PROBES per length */
#define POISON 0xa5

static unsigned char byte_of(int from, int round, size_t at)
{
    return (unsigned char)(from * 131 + round * 17 + (int)(at % 251));
}

/* The schedule of rank `me` (0 or 1 of comm): the one-way round, then the
 * exchange.  Rank 0 sends SEND[0, ONEWAY) in four messages; rank 1
 * receives them into RECV[0, ONEWAY).  Then each sends SEND[0, EXCH) in
 * two messages and receives the other's into RECV[ONEWAY, ONEWAY + EXCH). */
static void build(ic_sched_t *s, int me, int size)
{
    ic_sched_init(s, me, size);
    size_t at = 0;
    for (int k = 0; k < NSHORT; k++) { /* short ones first: the long ones' slots wrap */
        if (me == 0)
            ic_sched_send(s, 1, ic_reg(IC_BUF_SEND, at, SHORT));
        else
            ic_sched_recv(s, 0, ic_reg(IC_BUF_RECV, at, SHORT));
        at += SHORT;
    }
    for (int k = 0; k < 4; k++) {
        if (me == 0)
            ic_sched_send(s, 1, ic_reg(IC_BUF_SEND, at, len[k]));
        else
            ic_sched_recv(s, 0, ic_reg(IC_BUF_RECV, at, len[k]));
        at += len[k];
    }
    ic_sched_round(s);
    at = 0;
    for (int k = 0; k < 2; k++) {
        ic_sched_recv(s, !me, ic_reg(IC_BUF_RECV, ONEWAY + at, len[k]));
        ic_sched_send(s, !me, ic_reg(IC_BUF_SEND, at, len[k]));
        at += len[k];
    }
    ic_sched_round(s);
}

static void bind(ic_binding_t *b, int buf, void *base)
{
    ic_bound_t *x = &b->at[buf];
    x->base = base;
    x->type = MPI_BYTE;
    x->extent = 1;
    x->contiguous = 1;
    x->size = 1;
    x->ubytes = 0;
}

/* ROUNDS runs of the two rounds on ranks 0 and 1 of comm. */
static void run(MPI_Comm comm, const char *what)
{
    int me, size;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &size);
    where = what;
    ic_ctx_t *ctx = NULL; /* collective: the channels are set up with it */
    if (ic_ctx_get(comm, &ctx) != MPI_SUCCESS || !ctx) {
        fail("no context");
        return;
    }
    if (size < 2 || me > 1)
        return;
    ic_sched_t s;
    build(&s, me, size);
    if (ic_sched_ok(&s) != 0) {
        fail("schedule not built");
        ic_sched_free(&s);
        return;
    }
    size_t rbytes = ONEWAY + EXCH + 64; /* 64 guard bytes */
    unsigned char *sb = malloc(ONEWAY), *rb = malloc(rbytes);
    if (!sb || !rb) {
        fail("out of memory");
        free(sb);
        free(rb);
        ic_sched_free(&s);
        return;
    }
    ic_binding_t b;
    memset(&b, 0, sizeof(b));
    bind(&b, IC_BUF_SEND, sb);
    bind(&b, IC_BUF_RECV, rb);
    for (int r = 0; r < ROUNDS; r++) {
        for (size_t i = 0; i < ONEWAY; i++)
            sb[i] = byte_of(me, r, i);
        memset(rb, POISON, rbytes);
        ncases++;
        int rc = ic_exec(ctx, &s, &b, NULL, MPI_OP_NULL, 0);
        if (rc != MPI_SUCCESS) {
            fail("run %d: error %d", r, rc);
            break;
        }
        size_t bad = SIZE_MAX;
        for (size_t i = 0; i < ONEWAY && bad == SIZE_MAX; i++) /* one way: rank 1 only */
            if (rb[i] != (me == 1 ? byte_of(0, r, i) : POISON))
                bad = i;
        for (size_t i = 0; i < EXCH && bad == SIZE_MAX; i++)
            if (rb[ONEWAY + i] != byte_of(!me, r, i))
                bad = ONEWAY + i;
        for (size_t i = ONEWAY + EXCH; i < rbytes && bad == SIZE_MAX; i++)
            if (rb[i] != POISON)
                bad = i;
        if (bad != SIZE_MAX) {
            fail("run %d: byte %zu is 0x%02x", r, bad, rb[bad]);
            break;
        }
    }
    free(sb);
    free(rb);
    ic_sched_free(&s);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    run(MPI_COMM_WORLD, "world");
    MPI_Comm rev;
    MPI_Comm_split(MPI_COMM_WORLD, 0, p - 1 - wrank, &rev);
    run(rev, "ranks the other way");
    MPI_Comm_free(&rev);
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int runs = 0;
    MPI_Reduce(&ncases, &runs, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (wrank == 0)
        printf("longway: p=%d: %d runs over the ranks, %d failures\n", p, runs, all);
    MPI_Finalize();
    return all != 0;
}
