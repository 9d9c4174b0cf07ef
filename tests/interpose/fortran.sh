#!/bin/sh
# fortran.sh -- the Fortran test program (mpif.h, use mpi, use mpi_f08) plain
# and under the preload (p = 1 2 3 4).  Skipped without an MPI Fortran compiler.
sh=${SHELL:-/bin/sh}
ran=0
for b in mpifh usempi f08; do
    prog=tests/interpose/icp_coll_$b
    [ -x "$prog" ] || { echo "no $prog (binding not available): skipped"; continue; }
    "$sh" tests/interpose/run-interpose.sh compare "$prog" || exit $?
    ran=1
done
[ $ran -eq 1 ] || exit 77
