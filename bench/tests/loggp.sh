#!/bin/sh
# Smoke test: intercom-bench loggp at p = 2, all four send modes, and the
# split send/receive model.
. "${srcdir:-.}/bench/tests/smoke-lib.sh"

run_bench 2 loggp --csv --sizes 16,1K,64K --reps 4 --warmup 2
expect_rows loggp 12
expect_rows signature 4
for m in send ssend isend issend; do
    csv_col signature mode | grep -qx "$m" || fail "no signature row for $m"
done
expect_positive loggp o_s
expect_positive loggp o_r
expect_positive signature o_s_short
expect_positive signature g
grep -q "^# L: " "$out" || fail "no L"
grep -q "VERIFICATION FAILED" "$out" && fail "verification failed"
# the split model of tan-strazdins-2002: a row per length, the four terms
expect_rows split 3
expect_positive split oneway
expect_positive split S
for v in alpha_s beta_s alpha_r beta_r; do
    grep -q "^# $v: " "$out" || fail "no $v"
done

run_bench 2 loggp --csv --sizes 16,4K --reps 3 --modes ssend,issend
expect_rows signature 2
expect_rows split 2
exit 0
