#!/bin/sh
# Smoke test: intercom-bench coll at p = 4: every collective, results checked
# against the vendor MPI, model columns present, a verdict per row and a
# summary that counts them (never the times themselves).
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
# one node: no lower bound (the shared-memory ping-pong bounds nothing)
csv_col coll bound | grep -qx NOCOLUMN || fail "a bound column on one node"
csv_col coll verdict | grep -vxE "same|faster|slower|noise" && fail "a row without a verdict"
expect_positive coll predicted
csv_col coll algorithm | grep -qx -- "-" && fail "a row without InterCom's algorithm"
for k in alpha beta gamma; do
    expect_info "$k"
done
csv_col pingpong_fit region | head -n 1 | grep -Eqx "all|summary" ||
    fail "no ping-pong fit for alpha and beta"
# The summary: first info line, and counts that add up to the rows' verdicts.
sed -n 2p "$out" | grep -q "^# summary: " || fail "the summary is not the first info line"
sh "${srcdir:-.}/bench/tests/summary-check.sh" "$out" coll 34 || fail "summary inconsistent"
exit 0
