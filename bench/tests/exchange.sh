#!/bin/sh
# Smoke test: intercom-bench exchange (COMMS2) at p = 2, automatic breakpoint.
. "${srcdir:-.}/bench/tests/smoke-lib.sh"

run_bench 2 exchange --csv --sizes 1,16,256,1K,4K,16K,64K --reps 5 --breakpoint auto
expect_rows exchange 7
expect_positive exchange t
# n counts both directions: n = 2 x bytes
csv_rows exchange | awk -F, '{ if ($2 != 2 * $1) bad = 1 } END { exit bad }' ||
    fail "exchange n is not twice the message"
for k in r_inf n_1/2 t0 pi0; do
    expect_info "$k"
done
csv_col fits region | grep -Eqx "all|summary" || fail "no headline fit"
grep -q "VERIFICATION FAILED" "$out" && fail "verification failed"
exit 0
