#!/bin/sh
# chunked.sh -- the movement and reduction tests again with every message
# longer than 24 bytes cut into lock-step pieces (INTERCOM_CHUNK=24, see
# src/executor.c): pieces of 24 bytes, or of 1 element of a larger
# datatype, on both ends of every message, at p = 5 (uneven blocks); and
# the reductions with INTERCOM_SCRATCH_SLACK=0.
#
# Run by `make check` through run-mpi.sh (from the top build directory);
# by hand: sh tests/mpi/chunked.sh from there.

top=$(pwd)
rc=0
for np in 5; do
    for prog in movement reductions; do
        INTERCOM_CHUNK=24 "${SHELL:-/bin/sh}" "$top/tests/mpi/run-mpi.sh" --np "$np" \
            "$top/tests/mpi/$prog" 2>"$top/tests/mpi/chunked-$prog-$np.err" || {
            echo "FAIL: tests/mpi/$prog at p = $np with INTERCOM_CHUNK=24"
            grep -v "cannot serve this call" "$top/tests/mpi/chunked-$prog-$np.err" | head -40
            rc=1
        }
        rm -f "$top/tests/mpi/chunked-$prog-$np.err"
    done
done
# ... and the reductions with every message's scratch held within the
# message (INTERCOM_SCRATCH_SLACK=0: the short-vector reductions run on
# pieces of the vector, algorithms/coll_common.h), at p = 4 and 7.
for np in 4 7; do
    INTERCOM_SCRATCH_SLACK=0 "${SHELL:-/bin/sh}" "$top/tests/mpi/run-mpi.sh" --np "$np" \
        "$top/tests/mpi/reductions" 2>"$top/tests/mpi/slack0-$np.err" || {
        echo "FAIL: tests/mpi/reductions at p = $np with INTERCOM_SCRATCH_SLACK=0"
        grep -v "cannot serve this call" "$top/tests/mpi/slack0-$np.err" | head -40
        rc=1
    }
    rm -f "$top/tests/mpi/slack0-$np.err"
done
[ $rc -eq 0 ] && echo "PASS: movement and reductions at p = 5 with 24-byte pieces;" \
    "reductions at p = 4, 7 with scratch within every message"
exit $rc
