/*
 * topo.c -- what the node looks like (hwloc), for placement-aware choices.
 *
 * Today this answers one question the runtime and the benchmark ask: how
 * many processing units this node has, so that a run with more ranks than
 * cores can be flagged (busy-polling ranks then time the scheduler, not the
 * algorithm).  Mesh mapping onto the node hierarchy will build on it.
 */
#include "config.h"
#include "ic_internal.h"

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

int IC_Node_cores(void)
{
    return ic_topo_ncores();
}
