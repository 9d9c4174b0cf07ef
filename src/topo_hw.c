/*
 * topo_hw.c -- package and shared cache of a set of processing units
 * (hwloc), the finer placement keys inside a node (see topo_hw.h).
 */
#include "config.h"
#include <pthread.h>
#include "topo_hw.h"

#ifdef IC_HAVE_HWLOC

/* Is depth d a level of data or unified caches? */
static int data_cache_depth(hwloc_topology_t topo, int d)
{
#if HWLOC_API_VERSION >= 0x00020000
    return hwloc_obj_type_is_dcache(hwloc_get_depth_type(topo, d));
#else
    hwloc_obj_t o = hwloc_get_obj_by_depth(topo, (unsigned)d, 0);
    return o && o->type == HWLOC_OBJ_CACHE && o->attr->cache.type != HWLOC_OBJ_CACHE_INSTRUCTION;
#endif
}

/* The deepest level of caches shared by several cores (PUs when there
 * are no cores), or -1. */
static int shared_cache_depth(hwloc_topology_t topo)
{
    int units = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    if (units <= 0)
        units = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    for (int d = (int)hwloc_topology_get_depth(topo) - 1; d >= 0; d--)
        if (data_cache_depth(topo, d) && (int)hwloc_get_nbobjs_by_depth(topo, (unsigned)d) < units)
            return d;
    return -1;
}

/* Logical index of the object at depth d that holds obj, or -1. */
static int index_at(hwloc_topology_t topo, int d, hwloc_obj_t obj)
{
    if (d < 0 || !obj)
        return -1;
    hwloc_obj_t a = hwloc_get_ancestor_obj_by_depth(topo, (unsigned)d, obj);
    return a ? (int)a->logical_index : -1;
}

int ic_topo_hw_keys(hwloc_topology_t topo, hwloc_const_cpuset_t set, int *package, int *cache)
{
    *package = *cache = -1;
    if (!topo || !set)
        return -1;
    /* The deepest object holding the whole set (NULL: empty, or not in
     * the topology); its ancestors are what the set shares. */
    hwloc_obj_t obj = hwloc_get_obj_covering_cpuset(topo, set);
    int pd = hwloc_get_type_depth(topo, HWLOC_OBJ_PACKAGE);
    *package = index_at(topo, pd, obj);
    *cache = index_at(topo, shared_cache_depth(topo), obj);
    return 0;
}

static pthread_mutex_t hw_mu = PTHREAD_MUTEX_INITIALIZER; /* the one look */

int ic_topo_hw_local(int *package, int *cache)
{
    static int ready, known, pkg = -1, cch = -1;
    pthread_mutex_lock(&hw_mu);
    if (!ready) {
        hwloc_topology_t topo;
        if (hwloc_topology_init(&topo) == 0) {
            hwloc_bitmap_t set = hwloc_bitmap_alloc();
            if (set && hwloc_topology_load(topo) == 0 &&
                hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0)
                known = ic_topo_hw_keys(topo, set, &pkg, &cch) == 0;
            hwloc_bitmap_free(set);
            hwloc_topology_destroy(topo);
        }
        ready = 1;
    }
    pthread_mutex_unlock(&hw_mu);
    *package = pkg;
    *cache = cch;
    return known ? 0 : -1;
}

#else /* no hwloc */

int ic_topo_hw_local(int *package, int *cache)
{
    *package = *cache = -1;
    return -1;
}

#endif
