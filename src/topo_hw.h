/*
 * topo_hw.h -- where a set of processing units sits inside a node (hwloc),
 * for the placement keys of src/topo.c.  No MPI: the unit tests call it on
 * synthetic topologies (hwloc_topology_set_synthetic) with given cpusets,
 * so the answers do not depend on the build machine or on binding.
 */
#ifndef IC_TOPO_HW_H
#define IC_TOPO_HW_H

#ifdef IC_HAVE_HWLOC
#include <hwloc.h>

/*
 * The package and the shared cache that hold every processing unit of
 * `set` (a process's CPU binding), as logical indices: *package the index
 * among the topology's packages, *cache the index among the caches of one
 * level, the deepest level of data (or unified) caches whose objects are
 * shared by several cores (by several PUs when the topology has no cores);
 * with cores of private L1 and L2 under one L3 per package, the L3.  The
 * level depends on the topology only, so every process of a node compares
 * indices of the same level.  -1 for unknown: the set is empty, spans more
 * than one package (or cache), lies outside the topology, or the topology
 * has no packages (no shared caches).  An unbound process's set is the
 * whole machine: unknown on machines of several packages.
 * Returns 0, or -1 (both -1) when topo or set is NULL.
 *
 * Example, "pack:2 l3:2 core:4 pu:2" (PUs 0-7 in L3 0, 8-15 in L3 1, 16-23
 * in L3 2 (package 1), ...):  set {9} -> (0, 1);  {2-3} (core 1) ->
 * (0, 0);  {0-15} -> (0, -1);  {15-16} -> (-1, -1).
 */
int ic_topo_hw_keys(hwloc_topology_t topo, hwloc_const_cpuset_t set, int *package, int *cache);
#endif

/*
 * ic_topo_hw_keys of this process's current CPU binding on this machine's
 * topology, found on the first call and kept (the topology is loaded
 * once).  Both -1 without hwloc or when hwloc fails.  Returns 0 when the
 * answer came from hwloc, -1 otherwise.
 */
int ic_topo_hw_local(int *package, int *cache);

#endif /* IC_TOPO_HW_H */
