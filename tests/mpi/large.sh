#!/bin/sh
# large.sh -- make check-large (run from the top build directory): every
# collective beyond 2 GiB at p = 2 and 3 (IC_LARGE_NPROCS), through the IC_
# calls (tests/mpi/large) and, where the interposition library is built,
# as a plain MPI program under the preload with every call served by
# InterCom (tests/interpose/icp_large).  Exit status 0 pass, 1 fail.
SHELL=${SHELL:-/bin/sh}
nprocs=${IC_LARGE_NPROCS:-"2 3"}
IC_TEST_TIMEOUT=${IC_TEST_TIMEOUT:-1800}
export IC_TEST_TIMEOUT
status=0
for p in $nprocs; do
    echo "=== tests/mpi/large at p = $p (IC_ calls)"
    "$SHELL" tests/mpi/run-mpi.sh --np "$p" tests/mpi/large "$@" || status=1
done
if [ -x tests/interpose/icp_large ]; then
    echo "=== tests/interpose/icp_large (MPI_ calls under the preload)"
    IC_INTERPOSE_NPROCS=$nprocs "$SHELL" tests/interpose/run-interpose.sh preloaded \
        tests/interpose/icp_large "$@"
    rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 77 ] || status=1
fi
[ $status -eq 0 ] && echo "PASS: check-large" || echo "FAIL: check-large"
exit $status
