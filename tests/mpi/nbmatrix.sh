#!/bin/sh
# nbmatrix.sh -- the correctness matrix of tests/mpi/reductions and
# tests/mpi/movement (every collective, datatype, op, root, count, in place,
# derived type, each against the vendor) through the nonblocking calls:
# IC_TEST_NONBLOCKING=1 makes their case runners start every InterCom call
# with its IC_I* form and complete it with MPI_Wait or an MPI_Test loop
# (tests/mpi/mpitest.h).  At the blocking runs' numbers of ranks; in the
# AddressSanitizer build at p = 3 only (IC_NBMATRIX_NPROCS to choose; the blocking matrix and
# tests/mpi/nonblocking run there at every p).  Then tests/mpi/nonblocking
# again at MPI_THREAD_MULTIPLE with InterCom's progress thread
# (INTERCOM_PROGRESS_THREAD=1).
#
# Run by `make check` through run-mpi.sh (from the top build directory).
top=$(pwd)
real=$top/tests/mpi/.libs/movement
[ -x "$real" ] || real=$top/tests/mpi/movement
if ldd "$real" 2>/dev/null | grep -q 'libasan'; then
    IC_TEST_NPROCS=${IC_NBMATRIX_NPROCS:-3} # whatever the rest of the suite runs at
    export IC_TEST_NPROCS
fi
IC_TEST_NONBLOCKING=1
export IC_TEST_NONBLOCKING
rc=0
for prog in reductions movement; do
    "${SHELL:-/bin/sh}" "$top/tests/mpi/run-mpi.sh" "$top/tests/mpi/$prog"
    r=$?
    [ $r -eq 77 ] && exit 77
    [ $r -ne 0 ] && rc=1
done
unset IC_TEST_NONBLOCKING
INTERCOM_PROGRESS_THREAD=1 "${SHELL:-/bin/sh}" "$top/tests/mpi/run-mpi.sh" \
    "$top/tests/mpi/nonblocking" || rc=1
exit $rc
