/*
 * placement.h -- node-aware placement of a communicator's ranks on a
 * logical mesh: which rank sits at which mesh position.  Pure functions of
 * per-rank keys (no MPI, no hwloc), so unit tests call them directly; the
 * keys come from src/topo.c (ic_topo_keys: node, package, shared cache).
 *
 * A mesh d0 x d1 x ... x dk of p positions is laid out row-major: the last
 * dimension varies fastest, so position pos has coordinate pos % dk in the
 * last dimension, and a line of that dimension is a block of dk
 * consecutive positions.  A placement is a permutation order[pos] = rank
 * (mesh position -> communicator rank); the identity is the unplaced mesh.
 *
 * ic_place_order groups ranks level by level: the ranks of one node get
 * consecutive positions, inside a node those of one package, inside a
 * package those of one shared cache.  The grouping is stable: at every
 * level the groups come in the order of the lowest rank each contains, and
 * ranks inside the finest group in increasing rank order.  So keys that
 * already follow rank order (blocks of consecutive ranks per node, the
 * usual `--map-by core` layout) give the identity, and the layout of a
 * communicator changes only when its ranks interleave nodes.
 *
 * What it buys on a mesh: with q ranks on every node (ic_place_uniform),
 * node j holds positions j q .. j q + q - 1.  If q divides dk, every node
 * lies inside one line of the last dimension (dk / q nodes per line); if
 * q is a multiple of dj x ... x dk (a product of trailing dimensions),
 * every node holds whole sub-meshes of those dimensions.  Either way the
 * traffic of the fastest dimension(s) stays on the node.
 *
 * Example, p = 8 ranks mapped round-robin onto 2 nodes (`--map-by node`:
 * even ranks on node A, odd on node B), keys (node) = 0 1 0 1 0 1 0 1:
 *   groups, ordered by their lowest rank:  A = {0 2 4 6}  B = {1 3 5 7}
 *   order = 0 2 4 6 1 3 5 7            ic_place_uniform = 4
 *   on a 2 x 4 mesh:   row 0: 0 2 4 6  (node A)
 *                      row 1: 1 3 5 7  (node B)
 * so each row is one node and only the column phase crosses nodes.  With
 * keys (node, package) = (0,0) (1,0) (0,1) (1,1) (0,0) (1,0) (0,1) (1,1),
 * node A's packages are {0 4} and {2 6}: order = 0 4 2 6 1 5 3 7.
 *
 * Nodes with different numbers of ranks (ic_place_uniform returns 0, e.g.
 * p = 5 as 2 + 2 + 1): the order is still a permutation with every node's
 * ranks consecutive, and every schedule built on it is still correct, but
 * node boundaries no longer coincide with mesh lines, so no dimension can
 * be priced as node-local.  A selector then treats the communicator as
 * unplaced: the identity order, and every dimension priced with the
 * across-nodes model (README, "Placement").
 */
#ifndef IC_PLACEMENT_H
#define IC_PLACEMENT_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The placement of p ranks from their keys: keys[r * nlevels + l] is rank
 * r's key at level l (level 0 the node, then package, then cache; any int
 * values, equal values meaning the same group; a level's key only matters
 * among ranks equal at all coarser levels).  Writes order[0 .. p-1]
 * (position -> rank).  Returns 0, or -1 when p < 1, nlevels < 0, an
 * argument is NULL (keys may be NULL when nlevels is 0) or memory runs
 * out; order (when not NULL) is then the identity.  O(p nlevels log p).
 */
int ic_place_order(int p, int nlevels, const int *keys, int *order);

/*
 * Ranks per node when every node holds the same number of them: node_of[r]
 * is rank r's node key (level 0 of ic_place_order's keys, stride 1; pass
 * a strided copy otherwise).  Returns q (p on one node, 1 with one rank
 * per node), 0 when nodes hold different numbers of ranks, -1 when p < 1,
 * node_of is NULL or memory runs out.
 */
int ic_place_uniform(int p, const int *node_of);

#ifdef __cplusplus
}
#endif
#endif /* IC_PLACEMENT_H */
