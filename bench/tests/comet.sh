#!/bin/sh
# Smoke test: intercom-bench comet at p = 4 (2 x 2 mesh), every kernel.
. "${srcdir:-.}/bench/tests/smoke-lib.sh"

run_bench 4 comet --csv --sizes 0,64,4K --ld 4,9 --vec 0,1000 --reps 3 --warmup 1
grep -q "^# mesh: 2 x 2" "$out" || fail "not a 2 x 2 mesh"
for k in echo exchange bcast gsum barrier contention overlap guard shift transpose rowcol; do
    csv_col comet kernel | grep -qx "$k" || fail "no rows for kernel $k"
done
expect_all comet check ok
# echo and exchange at hop distances 1 and 2, three lengths each
[ "$(csv_rows comet | grep -c '^echo,')" -eq 6 ] || fail "echo: expected 6 rows"
expect_rows comet_fits 4
expect_positive comet time

# p = 3: a 3 x 1 mesh, no contention kernel (needs 4 ranks)
run_bench 3 comet --csv --sizes 16,1K --ld 5 --vec 100 --reps 2 --warmup 1 \
    --kernels echo,guard,shift,transpose,rowcol,contention
grep -q "^# mesh: 3 x 1" "$out" || fail "not a 3 x 1 mesh"
expect_all comet check ok
grep -q "contention: needs p >= 4" "$out" || fail "no note about the contention kernel"
exit 0
