#!/bin/sh
# Smoke test: intercom-bench patterns at p = 3 (not a power of two) on two
# tiny sizes: every registered algorithm of allgather, allreduce and
# reduce_scatter_block (as intercom-info lists the registry) has a row per
# size, results checked against the vendor MPI, both models priced, and
# the winners, fit and split tables complete (never the times themselves).
. "${srcdir:-.}/bench/tests/smoke-lib.sh"

info=./intercom-info
[ -x "$info" ] || { echo "missing $info (run from the top of the build tree after make)"; exit 99; }
ops="allgather allreduce reduce_scatter_block"
# 8-byte integers: exact in any order, so that every pattern can serve the
# call (allreduce's ring needs it)
run_bench 3 patterns --csv --n 1,3000 --reps 2 --warmup 1 --type long
sed -n 2p "$out" | grep -q "^# summary: the selector picks" || fail "the summary is not the first info line"
total=0
for op in $ops; do
    algs=$("$info" list | awk -v c="$op" 'NF == 0 { exit } $1 == c { print $2 }')
    [ -n "$algs" ] || fail "intercom-info lists no algorithm of $op"
    nalg=$(echo "$algs" | wc -l)
    for a in $algs vendor auto; do
        k=$(csv_rows patterns | awk -F, -v o="$op" -v a="$a" '$1 == o && $5 == a' | wc -l)
        [ "$k" -eq 2 ] || fail "$op $a: $k rows in table patterns, expected one per n (2)"
        k=$(csv_rows fit | awk -F, -v o="$op" -v a="$a" '$1 == o && $3 == a' | wc -l)
        [ "$k" -eq 1 ] || fail "$op $a: $k rows in table fit, expected 1"
    done
    total=$((total + 2 * (nalg + 2)))
    # the algorithms' own plans ran (none replaced by the automatic choice)
    csv_rows patterns | awk -F, -v o="$op" '$1 == o && $5 != "vendor" && $5 != "auto" && $14 != $5 {
        print "ran " $14 " for " $5; bad = 1 } END { exit bad }' || fail "$op: a pattern ran as another plan"
done
expect_rows patterns "$total"
expect_rows winners 6
expect_all patterns check ok
expect_all patterns p 3
expect_positive patterns time
# every pattern priced by both models (the vendor has none)
csv_col patterns pattern >"$work/pat"
for col in split plain; do
    csv_col patterns "$col" >"$work/val"
    paste -d' ' "$work/pat" "$work/val" | awk -v c="$col" '
        $1 != "vendor" && ($2 == "" || $2 + 0 <= 0) { print "no " c " model for " $1; bad = 1 }
        $1 == "vendor" && $2 != "" { print "a " c " model for the vendor"; bad = 1 }
        END { exit bad }' || fail "column $col of table patterns"
done
csv_col winners selector_ok | grep -vxE "yes|near|no" && fail "a winners row without a verdict"
csv_col winners best_pattern | grep -qx -- "-" && fail "a winners row without a best pattern"
for k in alpha beta gamma alpha_s beta_s alpha_r beta_r; do
    expect_info "$k"
done
# the split ping-pong: 8 B to 32 KiB x8, 64 KiB, the longest whole vector (72000 B)
expect_rows split 7
expect_positive split oneway

# the split model given: no split ping-pong, the given terms reported
run_bench 2 patterns --csv --ops allgather --n 10 --reps 2 --split 1e-5,2e-5,1e-9,2e-9
csv_rows split | grep -q . && fail "a split table although --split gave the model"
grep -q "^# alpha_r: 2e-05" "$out" || fail "the given alpha_r is not reported"
expect_positive patterns time
exit 0
