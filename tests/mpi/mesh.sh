#!/bin/sh
# mesh.sh -- the MPI tests of movement and reductions with every mesh plan
# forced in turn (tests/mpi/mpitest.c: MT_MESH names the shape; every
# algorithm that can be a mesh step along every dimension, fastest or
# slowest dimension first, and mixes), against the vendor MPI, on the
# meshes 2x2, 2x3, 3x2, 2x4, 1x5, 5x1, 2x2x2 and 3x3 (9 ranks on 2 cores:
# oversubscribed).  INTERCOM_SCRATCH_SLACK lifts the scratch bound, so the
# reductions run whole (beyond 64 KiB they would run in pieces, which the
# simulator's sweep and chunked.sh's runs cover).  The registered 1-D algorithms
# are not forced again here (the plain runs do that).
#
# Run by `make check` through run-mpi.sh (from the top build directory);
# by hand: sh tests/mpi/mesh.sh from there; MESH_SHAPES="2x3:6 ..." picks
# shapes (SHAPE:P, or SHAPE:P:PROGRAM for one of the two).

top=$(pwd)
rc=0
real=$top/tests/mpi/.libs/movement
[ -x "$real" ] || real=$top/tests/mpi/movement
if ldd "$real" 2>/dev/null | grep -q 'libasan'; then
    # the composer runs under the sanitizers in the unit tests' simulator
    echo "AddressSanitizer build: mesh plans under MPI skipped"
    exit 77
fi
# SHAPE:P[:PROGRAM]: both programs, or the one named (to keep make check
# short, transposed shapes and the largest share the work out)
shapes=${MESH_SHAPES:-"2x2:4 2x3:6 3x2:6:movement 2x4:8:reductions 1x5:5:movement \
5x1:5:reductions 2x2x2:8 3x3:9:movement"}

for sp in $shapes; do
    shape=${sp%%:*}
    rest=${sp#*:}
    np=${rest%%:*}
    progs="movement reductions"
    [ "$rest" = "$np" ] || progs=${rest#*:}
    for prog in $progs; do
        err="$top/tests/mpi/mesh-$prog-$shape.err"
        env MT_MESH="$shape" INTERCOM_SCRATCH_SLACK=1073741824 "${SHELL:-/bin/sh}" \
            "$top/tests/mpi/run-mpi.sh" --np "$np" "$top/tests/mpi/$prog" 2>"$err" || {
            echo "FAIL: tests/mpi/$prog on the $shape mesh (p = $np)"
            grep -v "cannot serve this call" "$err" | head -40
            rc=1
        }
        rm -f "$err"
    done
done
[ $rc -eq 0 ] && echo "PASS: movement and reductions with every mesh plan forced on $shapes"
exit $rc
