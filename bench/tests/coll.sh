#!/bin/sh
# Smoke test: intercom-bench coll at p = 4: every collective, results checked
# against the vendor MPI, model columns present.
. "${srcdir:-.}/bench/tests/smoke-lib.sh"

run_bench 4 coll --csv --sizes 8,4K,100K --reps 3 --warmup 1
ops="bcast reduce allreduce allgather allgatherv reduce_scatter reduce_scatter_block
     scatter scatterv gather gatherv barrier"
for op in $ops; do
    csv_col coll op | grep -qx "$op" || fail "no row for $op"
done
expect_rows coll $((11 * 3 + 1))
expect_all coll check ok
expect_all coll p 4
expect_positive coll vendor
expect_positive coll intercom
expect_positive coll ratio
expect_positive coll bound
expect_positive coll predicted
csv_col coll algorithm | grep -qx -- "-" && fail "a row without InterCom's algorithm"
for k in alpha beta gamma; do
    expect_info "$k"
done
csv_col pingpong_fit region | head -n 1 | grep -Eqx "all|summary" ||
    fail "no ping-pong fit for alpha and beta"
exit 0
