#!/bin/sh
# calibrate.sh -- tests/mpi/calibrate (the model's alpha and beta measured
# at a context's creation, src/calibrate.c) on one machine, where every
# rank shares a node: INTERCOM_CALIBRATE=1 measures anyway.  At p = 2 and
# 3: measured; measured with INTERCOM_ALPHA kept; nothing measured with
# INTERCOM_CALIBRATE=0 and with INTERCOM_ALPHA and INTERCOM_BETA both set;
# by default, nothing on one node (under SimGrid's SMPI, make check-smpi,
# every rank is a host of its own: measured).  At p = 4 also the world's
# figures by rank distance: measured, none, the default.
#
# Run by `make check` through run-mpi.sh (from the top build directory);
# by hand: sh tests/mpi/calibrate.sh from there.

top=$(pwd)
rc=0

# one_run NP EXPECT [VAR=VALUE...]: calibrate at p = NP, CAL_EXPECT=EXPECT
one_run() {
    np=$1
    want=$2
    shift 2
    err="$top/tests/mpi/calibrate-$np-$want.err"
    env CAL_EXPECT="$want" "$@" "${SHELL:-/bin/sh}" "$top/tests/mpi/run-mpi.sh" --np "$np" \
        "$top/tests/mpi/calibrate" 2>"$err" || {
        echo "FAIL: tests/mpi/calibrate at p = $np, CAL_EXPECT=$want $*"
        head -40 "$err"
        rc=1
    }
    rm -f "$err"
}

for np in 2 3; do
    one_run "$np" measure INTERCOM_CALIBRATE=1
    one_run "$np" alpha INTERCOM_CALIBRATE=1 INTERCOM_ALPHA=1.5e-05
    one_run "$np" none INTERCOM_CALIBRATE=0
    one_run "$np" none INTERCOM_CALIBRATE=1 INTERCOM_ALPHA=1e-05 INTERCOM_BETA=1e-09
    one_run "$np" auto
done
# 4 ranks: the world's figures by rank distance too
one_run 4 measure INTERCOM_CALIBRATE=1
one_run 4 none INTERCOM_CALIBRATE=0
one_run 4 auto
one_run 1 none INTERCOM_CALIBRATE=1
exit $rc
