#!/bin/sh
# onerank.sh -- mistakes only one rank can see (tests/mpi/onerank.c, built
# with MPI_ names) under the preload at p = 1 2 3 4: the erring rank gets
# the error, nobody hangs, the next calls are right, and InterCom served
# every call (none went to the vendor, which would split the ranks).
exec "${SHELL:-/bin/sh}" tests/interpose/run-interpose.sh preloaded tests/interpose/icp_onerank
