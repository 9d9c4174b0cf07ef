#!/bin/sh
# Smoke test: intercom-bench pingpong (COMMS1) at p = 2, with a breakpoint.
. "${srcdir:-.}/bench/tests/smoke-lib.sh"

run_bench 2 pingpong --csv --sizes 1,16,256,1K,4K,16K,64K,256K --reps 5 --breakpoint 4K
expect_rows pingpong 8
expect_positive pingpong t
expect_positive pingpong rate
for k in r_inf n_1/2 t0 pi0 breakpoints; do
    expect_info "$k"
done
# the summary, the two regions, the one-region fit
expect_rows fits 4
csv_col fits region | grep -qx "  n < 4096" || fail "no region n < 4096 in the fits"
csv_col fits region | grep -qx "  n >= 4096" || fail "no region n >= 4096 in the fits"
csv_col fits region | grep -qx "one region" || fail "no one-region fit"

run_bench 2 pingpong --csv --sizes 1,16,256,4K,64K --reps 3 --breakpoint none
expect_rows fits 1
csv_col fits region | grep -qx all || fail "--breakpoint none: not one region"
grep -q "VERIFICATION FAILED" "$out" && fail "verification failed"

# the default text table on p = 3 (the peer is the last rank)
run_bench 3 pingpong --sizes 8,1K,32K --reps 3
grep -q "^# pair: ranks 0 and 2" "$out" || fail "peer is not the last rank"
grep -q "^COMMS1 ping-pong" "$out" || fail "no text table title"
grep -q "r_inf\[MB/s\]" "$out" || fail "no r_inf column in the fits table"
exit 0
