/*
 * topo.c -- what the node looks like (hwloc), for placement-aware choices.
 *
 * How many processing units this node has (ic_topo_ncores), so that a run
 * with more ranks than cores can be flagged (busy-polling ranks then time
 * the scheduler, not the algorithm).
 *
 * Where every rank of a communicator sits (ic_topo_keys, ic_topo_order),
 * for placing ranks on a logical mesh (algorithms/placement.h): per rank a
 * node key, the lowest communicator rank on its node, from MPI
 * (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED), and inside the node the
 * package and shared cache of the rank's CPU binding from hwloc
 * (topo_hw.c; -1 where unknown, e.g. unbound ranks).
 *
 * INTERCOM_RANKS_PER_NODE=q (env.c) replaces MPI's answer: consecutive
 * blocks of q ranks of MPI_COMM_WORLD form a node (the last block may be
 * shorter), as `mpirun --map-by ppr:q:node` or a block mapping lays them
 * out; for other communicators a rank's node is that of its world rank.
 * It lets tests place ranks on "nodes" on one machine.
 */
#include "config.h"
#include "ic_internal.h"
#include "placement.h"
#include "topo_hw.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifdef IC_HAVE_HWLOC
#include <hwloc.h>
#endif

int ic_topo_ncores(void)
{
#ifdef IC_HAVE_HWLOC
    hwloc_topology_t topo;
    int n = -1;
    if (hwloc_topology_init(&topo) == 0) {
        if (hwloc_topology_load(topo) == 0)
            n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
        hwloc_topology_destroy(topo);
    }
    if (n > 0)
        return n;
#endif
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    return c > 0 ? (int)c : 1;
}

int ic_topo_machine_ranks(MPI_Comm comm)
{
    /* colour: a hash of the boot id (MPI_UNDEFINED where unknown) */
    int color = MPI_UNDEFINED, n = 0;
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        char id[64];
        if (fgets(id, sizeof(id), f)) {
            unsigned long h = 14695981039346656037UL;
            for (const char *c = id; *c && *c != '\n'; c++)
                h = (h ^ (unsigned char)*c) * 1099511628211UL;
            color = (int)(h % 2147483647UL);
        }
        fclose(f);
    }
    MPI_Comm same = MPI_COMM_NULL;
    int rc = ic_split_returns(MPI_Comm_split(comm, color, 0, &same), same);
    if (rc != MPI_SUCCESS || same == MPI_COMM_NULL) {
        if (same != MPI_COMM_NULL)
            MPI_Comm_free(&same);
        return 0;
    }
    if (MPI_Comm_size(same, &n) != MPI_SUCCESS)
        n = 0;
    MPI_Comm_free(&same);
    return n;
}

int IC_Node_cores(void)
{
    return ic_topo_ncores();
}

/* The keys of every rank of comm into keys (p x IC_TOPO_NLEVELS; NULL:
 * this rank could not allocate them), q ranks of MPI_COMM_WORLD per node
 * (0: ask MPI).  Every rank makes the same collective calls whatever
 * fails, and agrees on the outcome before the keys are exchanged, so the
 * keys are either valid everywhere or nowhere. */
static int exchange_keys(MPI_Comm comm, int q, int *keys, const char **why)
{
    int rank = 0, rc, ok = keys != NULL;
    *why = ok ? NULL : "out of memory";
    rc = MPI_Comm_rank(comm, &rank);
    if (rc != MPI_SUCCESS)
        return rc;

    /* Node key: the lowest rank of comm among those on this node. */
    int mine[IC_TOPO_NLEVELS] = {rank, -1, -1};
    MPI_Comm node = MPI_COMM_NULL;
    int wrank = 0, lrc = MPI_SUCCESS;
    if (q > 0) {
        lrc = MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
        if (lrc == MPI_SUCCESS)
            lrc = MPI_Comm_split(comm, wrank / q, rank, &node);
    } else {
        lrc = MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    }
    lrc = ic_split_returns(lrc, node);
    if (lrc == MPI_SUCCESS)
        lrc = PMPI_Allreduce(&rank, &mine[0], 1, MPI_INT, MPI_MIN, node);
    if (node != MPI_COMM_NULL)
        MPI_Comm_free(&node);
    if (lrc != MPI_SUCCESS) {
        ok = 0;
        *why = "MPI could not tell which ranks share a node";
    }
    ic_topo_hw_local(&mine[1], &mine[2]);

    rc = PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!ok) {
        if (!*why)
            *why = "another rank failed";
        return lrc != MPI_SUCCESS ? lrc : keys ? MPI_ERR_OTHER : MPI_ERR_NO_MEM;
    }
    return PMPI_Allgather(mine, IC_TOPO_NLEVELS, MPI_INT, keys, IC_TOPO_NLEVELS, MPI_INT, comm);
}

int ic_topo_keys(MPI_Comm comm, int *keys, int *nlevels)
{
    const char *why;
    *nlevels = IC_TOPO_NLEVELS;
    return exchange_keys(comm, ic_env()->ranks_per_node, keys, &why);
}

int ic_topo_order(MPI_Comm comm, int *order, int *q)
{
    int p = 0, rank = 0, rc;
    const char *why = NULL;
    *q = 0;
    rc = MPI_Comm_size(comm, &p);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_rank(comm, &rank);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < p; i++)
        order[i] = i;
    int *keys = malloc((size_t)p * IC_TOPO_NLEVELS * sizeof *keys);
    rc = exchange_keys(comm, ic_env()->ranks_per_node, keys, &why);
    if (rc == MPI_SUCCESS) {
        /* Local work that may run out of memory: agree on it too. */
        int uq = -1, nodes = 0, hw = keys[1] >= 0 || keys[2] >= 0;
        int ok = ic_place_order(p, IC_TOPO_NLEVELS, keys, order) == 0;
        if (ok) {
            for (int r = 0; r < p; r++) { /* the node keys, stride 1 */
                keys[r] = keys[(size_t)r * IC_TOPO_NLEVELS];
                nodes += keys[r] == r;
            }
            uq = ic_place_uniform(p, keys);
            ok = uq >= 0;
        }
        rc = PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm);
        if (rc == MPI_SUCCESS && !ok) {
            rc = MPI_ERR_NO_MEM;
            why = "out of memory";
        }
        if (rc == MPI_SUCCESS) {
            *q = uq;
            if (ic_env()->verbose && rank == 0) {
                char size[32] = "different sizes";
                if (uq)
                    snprintf(size, sizeof size, "%d ranks", uq);
                fprintf(stderr,
                        "InterCom: placement on %d ranks: %d node(s) of %s (%s); package and "
                        "cache of rank 0 %s\n",
                        p, nodes, size,
                        ic_env()->ranks_per_node ? "INTERCOM_RANKS_PER_NODE" : "from MPI",
                        hw ? "known (hwloc)" : "unknown");
            }
        }
    }
    free(keys);
    if (rc != MPI_SUCCESS) {
        for (int i = 0; i < p; i++)
            order[i] = i;
        *q = 0;
        if (ic_env()->verbose && rank == 0)
            fprintf(stderr, "InterCom: no node-aware placement on %d ranks (%s): identity order\n",
                    p, why ? why : "MPI error");
    }
    return rc;
}
