#!/bin/sh
# placement.sh -- tests/mpi/placement with nodes declared by
# INTERCOM_RANKS_PER_NODE (src/topo.c): 2 ranks per node at p = 4 (two
# nodes of 2) and p = 5 (2 + 2 + 1, uneven), 3 per node at p = 7
# (3 + 3 + 1), on one machine.
#
# Run by `make check` through run-mpi.sh (from the top build directory);
# by hand: sh tests/mpi/placement.sh from there.

top=$(pwd)
rc=0

# one_run Q NP: placement at p = NP with Q ranks per node
one_run() {
    err="$top/tests/mpi/placement-$1-$2.err"
    INTERCOM_RANKS_PER_NODE=$1 "${SHELL:-/bin/sh}" "$top/tests/mpi/run-mpi.sh" --np "$2" \
        "$top/tests/mpi/placement" 2>"$err" || {
        echo "FAIL: tests/mpi/placement at p = $2 with INTERCOM_RANKS_PER_NODE=$1"
        head -40 "$err"
        rc=1
    }
    rm -f "$err"
}

one_run 2 4
one_run 2 5
one_run 3 7
exit $rc
