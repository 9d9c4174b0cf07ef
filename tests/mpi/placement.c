/*
 * placement.c -- where every rank sits (ic_topo_keys) and the placement of
 * ranks on a logical mesh (ic_topo_order), src/topo.c.
 *
 * On a duplicate of MPI_COMM_WORLD, on communicators whose ranks run the
 * other way and interleave (even world ranks first), and on the halves of
 * an odd/even split:
 *   - the keys are the same on every rank (rank 0's, broadcast, compared);
 *   - node keys: with INTERCOM_RANKS_PER_NODE=q, rank r's node key is the
 *     lowest rank of the communicator whose world rank is in r's block of
 *     q world ranks; without it, the lowest rank in r's shared-memory
 *     domain (MPI_Comm_split_type, computed here apart from InterCom);
 *   - each rank's package and cache keys are what hwloc says of its own
 *     binding (ic_topo_hw_local);
 *   - ic_topo_machine_ranks counts every rank of the communicator (the
 *     test runs on one machine), 0 where Linux's boot id is unreadable;
 *   - the order is the same on every rank, a permutation, each node on
 *     consecutive positions, nodes in the order of their lowest rank; q is
 *     the common node size, or 0 when sizes differ;
 *   - with q = 2 at p = 4 and p = 5 (tests/mpi/placement.sh), the exact
 *     keys, order and q of the world and interleaved communicators (nodes
 *     of at most 2 ranks: whatever hwloc says, the order is then fixed).
 * Run by `make check` at every p of IC_TEST_NPROCS without the variable,
 * and by placement.sh with it.
 */
#include <mpi.h>
#include "ic_internal.h"
#include "topo_hw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 64

#define SIMPLE_TEST "placement"
#include "simple.h"

/* Is v the same on every rank of comm (rank 0's)? */
static int same_everywhere(MPI_Comm comm, const int *v, int n)
{
    int ref[MAXP * IC_TOPO_NLEVELS];
    memcpy(ref, v, (size_t)n * sizeof *v);
    MPI_Bcast(ref, n, MPI_INT, 0, comm);
    int same = memcmp(ref, v, (size_t)n * sizeof *v) == 0, all = 0;
    MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_MIN, comm);
    return all;
}

/* The node key of every rank of comm, computed here: q world ranks per
 * node, or MPI's shared-memory domains when q is 0. */
static void expected_nodes(MPI_Comm comm, int q, int *node)
{
    int rank, lead;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm sub;
    if (q > 0)
        MPI_Comm_split(comm, wrank / q, rank, &sub);
    else
        MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &sub);
    MPI_Allreduce(&rank, &lead, 1, MPI_INT, MPI_MIN, sub);
    MPI_Comm_free(&sub);
    MPI_Allgather(&lead, 1, MPI_INT, node, 1, MPI_INT, comm);
}

static void check_ints(const char *what, const int *got, const int *want, int n)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            fail("%s[%d] = %d, want %d", what, i, got[i], want[i]);
            return;
        }
}

/* want: for q = 2, exact node keys and order (NULL: none), and q. */
static void run_comm(const char *name, MPI_Comm comm, int q_env, const int *want_nodes,
                     const int *want_order, int want_q)
{
    where = name;
    ncases++;
    int n, rank, nl = 0;
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &rank);
    int keys[MAXP * IC_TOPO_NLEVELS], node[MAXP], order[MAXP], q = -1;

    int rc = ic_topo_keys(comm, keys, &nl);
    if (rc != MPI_SUCCESS || nl != IC_TOPO_NLEVELS) {
        fail("ic_topo_keys: rc %d, %d levels", rc, nl);
        return;
    }
    if (!same_everywhere(comm, keys, n * nl))
        fail("keys differ between ranks");
    expected_nodes(comm, q_env, node);
    for (int r = 0; r < n; r++)
        if (keys[r * nl] != node[r])
            fail("rank %d's node key %d, want %d", r, keys[r * nl], node[r]);
    /* every rank of a test runs on this machine: all of comm, or 0 where
     * Linux's boot id cannot be read */
    int machine = ic_topo_machine_ranks(comm);
    FILE *bid = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (machine != (bid ? n : 0))
        fail("ic_topo_machine_ranks: %d, want %d", machine, bid ? n : 0);
    if (bid)
        fclose(bid);
    int pkg, cache;
    ic_topo_hw_local(&pkg, &cache);
    if (keys[rank * nl + 1] != pkg || keys[rank * nl + 2] != cache)
        fail("own package, cache keys %d %d, hwloc says %d %d", keys[rank * nl + 1],
             keys[rank * nl + 2], pkg, cache);

    rc = ic_topo_order(comm, order, &q);
    if (rc != MPI_SUCCESS) {
        fail("ic_topo_order: rc %d", rc);
        return;
    }
    int oq[MAXP + 1];
    memcpy(oq, order, (size_t)n * sizeof *order);
    oq[n] = q;
    if (!same_everywhere(comm, oq, n + 1))
        fail("order or q differ between ranks");
    /* A permutation; nodes consecutive, in the order of their lowest rank
     * (the node key), which comes first. */
    int seen[MAXP] = {0};
    for (int i = 0; i < n; i++) {
        if (order[i] < 0 || order[i] >= n || seen[order[i]]++) {
            fail("order is not a permutation (position %d: %d)", i, order[i]);
            return;
        }
    }
    int last = -1;
    for (int i = 0; i < n; i++) {
        int nd = node[order[i]];
        if (i == 0 || nd != node[order[i - 1]]) {
            if (nd <= last || order[i] != nd)
                fail("position %d starts node %d after node %d, with rank %d", i, nd, last,
                     order[i]);
            last = nd;
        }
    }
    /* q: the common node size, 0 when sizes differ. */
    int size0 = 0, uniform = 1;
    for (int r = 0; r < n; r++)
        size0 += node[r] == node[0];
    for (int r = 0; r < n; r++) {
        int s = 0;
        for (int t = 0; t < n; t++)
            s += node[t] == node[r];
        uniform &= s == size0;
    }
    if (q != (uniform ? size0 : 0))
        fail("q = %d, want %d", q, uniform ? size0 : 0);

    if (want_nodes) {
        int got[MAXP];
        for (int r = 0; r < n; r++)
            got[r] = keys[r * nl];
        check_ints("node key", got, want_nodes, n);
        check_ints("order", order, want_order, n);
        if (q != want_q)
            fail("q = %d, want %d", q, want_q);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (p > MAXP) {
        if (wrank == 0)
            fprintf(stderr, "placement: at most %d ranks\n", MAXP);
        MPI_Finalize();
        return 1;
    }
    const char *v = getenv("INTERCOM_RANKS_PER_NODE");
    int q_env = v && *v ? atoi(v) : 0;
    if (q_env < 0)
        q_env = 0;

    MPI_Comm world, reversed, inter, half;
    MPI_Comm_dup(MPI_COMM_WORLD, &world);
    MPI_Comm_split(MPI_COMM_WORLD, 0, p - 1 - wrank, &reversed);
    MPI_Comm_split(MPI_COMM_WORLD, 0, (wrank % 2) * p + wrank, &inter);
    MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wrank, &half);
    MPI_Comm cs[4] = {world, reversed, inter, half};
    for (int k = 0; k < 4; k++)
        MPI_Comm_set_errhandler(cs[k], MPI_ERRORS_RETURN);

    /* Blocks of 2 world ranks: world = w0 w1 | w2 w3 | w4, interleaved =
     * w0 w2 w4 w1 w3. */
    static const int nodes4[] = {0, 0, 2, 2}, order4[] = {0, 1, 2, 3};
    static const int inodes4[] = {0, 1, 0, 1}, iorder4[] = {0, 2, 1, 3};
    static const int nodes5[] = {0, 0, 2, 2, 4}, order5[] = {0, 1, 2, 3, 4};
    static const int inodes5[] = {0, 1, 2, 0, 1}, iorder5[] = {0, 3, 1, 4, 2};
    int exact = q_env == 2 && (p == 4 || p == 5);
    run_comm("world", world, q_env, exact ? (p == 4 ? nodes4 : nodes5) : NULL,
             p == 4 ? order4 : order5, p == 4 ? 2 : 0);
    run_comm("reversed", reversed, q_env, NULL, NULL, 0);
    run_comm("interleaved", inter, q_env, exact ? (p == 4 ? inodes4 : inodes5) : NULL,
             p == 4 ? iorder4 : iorder5, p == 4 ? 2 : 0);
    run_comm(wrank % 2 ? "odd half" : "even half", half, q_env, NULL, NULL, 0);

    for (int k = 0; k < 4; k++)
        MPI_Comm_free(&cs[k]);
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (wrank == 0)
        printf("%s: placement p=%d%s%s: %d communicators, %d failure(s)\n", total ? "FAIL" : "PASS",
               p, q_env ? " INTERCOM_RANKS_PER_NODE=" : "", q_env ? v : "", ncases, total);
    MPI_Finalize();
    return total ? 1 : 0;
}
