#!/bin/sh
# Smoke test: intercom-bench overlap at p = 3 (not a power of two) on two
# sizes of allreduce and bcast: the summary first, a table per collective
# with both libraries' rows (t_pure, t_compute, t_overall, overlap % within
# 0..100, the vendor/InterCom ratios on InterCom's rows), the persistent
# table, every result equal to the vendor's, the header's thread level and
# INTERCOM_PROGRESS_THREAD, and a run of a few seconds (small --time).  Then
# --test-every on a rooted collective at another root.  Never looks at the
# times themselves.
. "${srcdir:-.}/bench/tests/smoke-lib.sh"

# seconds the first run may take (a few expected; room for a loaded
# machine).  --max-reps bounds the work: the repetitions follow from one
# warm-up call, and on a machine that gets busy after it (make -j2 check
# starting another oversubscribed run) each later call may take
# milliseconds instead of microseconds.
max_wall=${IC_OVERLAP_MAX_WALL:-60}
start=$(date +%s)
run_bench 3 overlap --csv --sizes 8,64K --ops allreduce,bcast --time 0.02 --min-reps 3 \
    --max-reps 200 --warmup 1
wall=$(($(date +%s) - start))
[ "$wall" -le "$max_wall" ] || fail "the run took $wall s (at most $max_wall s expected)"
echo "wall time: $wall s"

sed -n 2p "$out" | grep -q "^# summary: over all sizes (none >= 1 MiB) (4 points): InterCom overlap" ||
    fail "the summary is not the first info line"
for k in "thread level" INTERCOM_PROGRESS_THREAD "test every"; do
    grep -q "^# $k: " "$out" || fail "no '# $k:' line in the header"
done
expect_info compute_iteration
for op in allreduce bcast; do
    t=overlap_$op
    expect_rows "$t" 4
    expect_all "$t" check ok
    expect_all "$t" op "$op"
    for col in t_pure t_compute t_overall reps iterations; do
        expect_positive "$t" "$col"
    done
    [ "$(csv_col "$t" library | sort | uniq -c | awk '{ print $1 $2 }' | tr '\n' ' ')" = \
        "2intercom 2vendor " ] || fail "table $t: not one row per library and size"
    csv_col "$t" overlap | awk '$0 == "" || $0 + 0 < 0 || $0 + 0 > 100 { bad = 1 } END { exit bad }' ||
        fail "table $t: an overlap outside 0..100"
    csv_col "$t" bytes | sort -n | uniq | tr '\n' ' ' | grep -qx "8 65536 " ||
        fail "table $t: sizes other than 8 and 64K"
    # the ratios on InterCom's rows, none on the vendor's
    csv_col "$t" library >"$work/lib"
    csv_col "$t" pure_ratio >"$work/r1"
    csv_col "$t" overall_ratio >"$work/r2"
    paste -d' ' "$work/lib" "$work/r1" "$work/r2" | awk '
        $1 == "intercom" && !(NF == 3 && $2 + 0 > 0 && $3 + 0 > 0) { bad = 1 }
        $1 == "vendor" && NF != 1 { bad = 1 }
        END { exit bad }' || fail "table $t: ratio columns"
done
expect_rows persistent 4
expect_all persistent check ok
for col in vendor blocking persistent ratio; do
    expect_positive persistent "$col"
done
# the tables in order: the collectives', then the persistent one
grep '^# table: ' "$out" | tr '\n' ' ' |
    grep -qx "# table: overlap_allreduce # table: overlap_bcast # table: persistent " ||
    fail "tables missing or out of order"

# MPI_Test inside the compute loop, a rooted collective at root 1; text output
run_bench 3 overlap --sizes 4K --ops reduce,allgather --root 1 --test-every 4 --reps 3 --warmup 1
grep -q "^# test every: MPI_Test on the request 4 times" "$out" || fail "--test-every not reported"
sed -n 2p "$out" | grep -q "^# summary: " || fail "the summary is not the first info line"
grep -q MISMATCH "$out" && fail "a result differed from the vendor's"
exit 0
