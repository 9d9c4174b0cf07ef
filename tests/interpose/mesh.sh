#!/bin/sh
# mesh.sh -- the C test program plain and under the preload with the
# collectives on mesh plans: at p = 4 every choice restricted to the 2 x 2
# mesh (INTERCOM_MESH), at p = 6 to 2 x 3 with hybrid plans forced for
# bcast, reduce, allreduce, allgather and reduce_scatter_block
# (INTERCOM_<OP>_ALGORITHM); identical output, every operation served.
sh=${SHELL:-/bin/sh}
# (its outputs named apart from c.sh's, which compares the same program at p = 4)
export IC_INTERPOSE_TAG=mesh
IC_INTERPOSE_NPROCS=4 INTERCOM_MESH=2x2 \
    "$sh" tests/interpose/run-interpose.sh compare tests/interpose/icp_coll_c
rc=$?
[ $rc -eq 0 ] || exit $rc
exec env IC_INTERPOSE_NPROCS=6 INTERCOM_MESH=2x3 \
    INTERCOM_BCAST_ALGORITHM=2x3:d1=scatter_collect,d0=mst \
    INTERCOM_REDUCE_ALGORITHM=2x3:d1=mst,d0=dcombine_gather \
    INTERCOM_ALLREDUCE_ALGORITHM=2x3:d1=dcombine_collect,d0=recursive_doubling \
    INTERCOM_ALLGATHER_ALGORITHM=2x3:d0=bruck,d1=bucket \
    INTERCOM_REDUCE_SCATTER_BLOCK_ALGORITHM=2x3:d1=bucket,d0=mst \
    "$sh" tests/interpose/run-interpose.sh compare tests/interpose/icp_coll_c
