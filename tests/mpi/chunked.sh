#!/bin/sh
# chunked.sh -- MPI tests again under settings that change every schedule:
#   - movement and reductions with every message longer than 24 bytes cut
#     into lock-step pieces (INTERCOM_CHUNK=24, see src/executor.c): pieces
#     of 24 bytes, or of 1 element of a larger datatype, on both ends of
#     every message, at p = 5 (uneven blocks);
#   - reductions with every call's scratch held within its message
#     (INTERCOM_SCRATCH_SLACK=0: the short-vector reductions run on pieces
#     of the vector, algorithms/coll_common.h), at p = 4 and 7;
#   - movement, reductions, shm and unagreed with every message through
#     MPI (INTERCOM_SHM=0; by default those between ranks of a node go
#     through shared memory, src/shm.c: the short ones through the slots,
#     the longer ones read in one copy), at p = 5, 4 and 3;
#   - shm and unagreed with the short ones through the slots and the
#     longer ones through MPI (INTERCOM_SHM=1), at p = 4 and 3;
#   - movement with every message through MPI under a one-node table's
#     measured figures whose send window (src/executor.c, a source's
#     sends) is two synchronous sends, at p = 5: a broadcast's root holds
#     its sends back.
#
# In the AddressSanitizer build every run is at p = 3 (the sanitizers look
# for memory errors, which the settings above bring out at any p; the
# plain build checks the numbers of ranks named here).
#
# Run by `make check` through run-mpi.sh (from the top build directory);
# by hand: sh tests/mpi/chunked.sh from there.

top=$(pwd)
rc=0
real=$top/tests/mpi/.libs/movement
[ -x "$real" ] || real=$top/tests/mpi/movement
asan=0
ldd "$real" 2>/dev/null | grep -q 'libasan' && asan=1

# one_run VAR=VALUE NP PROG: PROG at p = NP with VAR=VALUE in the environment
one_run() {
    at=$2
    [ $asan -eq 1 ] && at=3
    err="$top/tests/mpi/chunked-$3-$at.err"
    # shellcheck disable=SC2086 # VAR=VALUE pairs
    env $1 "${SHELL:-/bin/sh}" "$top/tests/mpi/run-mpi.sh" --np "$at" "$top/tests/mpi/$3" \
        2>"$err" || {
        echo "FAIL: tests/mpi/$3 at p = $at with $1"
        grep -v "cannot serve this call" "$err" | head -40
        rc=1
    }
    rm -f "$err"
}

for prog in movement reductions; do
    one_run INTERCOM_CHUNK=24 5 "$prog"
done
for np in 4 7; do
    one_run INTERCOM_SCRATCH_SLACK=0 "$np" reductions
    [ $asan -eq 1 ] && break # p = 3 once
done
for prog in movement reductions; do
    one_run INTERCOM_SHM=0 5 "$prog"
done
one_run INTERCOM_SHM=0 4 shm
one_run INTERCOM_SHM=0 3 unagreed
one_run INTERCOM_SHM=1 4 shm
one_run INTERCOM_SHM=1 3 unagreed
window=$(mktemp)
printf 'intercom-tuning 1\nnodes: 1\nlinks: 1\nalpha: 1e-9\nbeta: 1e-9\n' >"$window"
one_run "INTERCOM_SHM=0 INTERCOM_TUNING_FILE=$window" 5 movement
rm -f "$window"
[ $rc -eq 0 ] && echo "PASS: movement and reductions at p = 5 with 24-byte pieces;" \
    "reductions at p = 4, 7 with scratch within every message;" \
    "movement, reductions (p = 5), shm (p = 4) and unagreed (p = 3) through MPI only;" \
    "shm and unagreed with the longer messages through MPI;" \
    "movement through MPI with a source's send window of two" &&
    [ $asan -eq 1 ] && echo "(AddressSanitizer build: every run at p = 3)"
exit $rc
