#!/bin/sh
# run-smpi-bcast.sh SRCDIR BUILDDIR -- build tests/smpi/smpi_bcast.c with
# smpicc against BUILDDIR's static libintercom.a (an SMPI build) and run it
# under smpirun at several p on a small simulated cluster.
set -eu
src=$1
build=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
smpicc -I"$src/include" "$src/tests/smpi/smpi_bcast.c" "$build/.libs/libintercom.a" -lm \
    -o "$tmp/smpi_bcast"
i=0
while [ $i -lt 16 ]; do echo "node-$i"; i=$((i + 1)); done >"$tmp/hosts"
for p in 1 2 3 5 8 13; do
    smpirun -np $p -platform "$src/tests/smpi/cluster.xml" -hostfile "$tmp/hosts" \
        --cfg=smpi/simulate-computation:no --log=root.thres:critical "$tmp/smpi_bcast"
done
