#!/bin/sh
# Smoke test: intercom-bench coll options: --table2, --algorithms, --json, --settle, --block,
# the text table, --plot (when gnuplot is installed), p = 1.
. "${srcdir:-.}/bench/tests/smoke-lib.sh"

run_bench 2 coll --csv --table2 --reps 2 --warmup 1
expect_rows table2 4
csv_col table2 bytes | tr '\n' ' ' | grep -q "^16 1024 65536 1048576 $" ||
    fail "table2 sizes are not 16 B, 1 KiB, 64 KiB, 1 MiB"
expect_positive table2 bcast_ratio
expect_positive table2 allreduce_ratio
expect_all coll check ok

run_bench 3 coll --csv --algorithms --ops allreduce,allgather --sizes 64,64K --reps 2 \
    --warmup 1 --root 2 --type double
n_allreduce=$(csv_rows coll | grep -c '^allreduce,')
[ "$n_allreduce" -ge 6 ] || fail "--algorithms: expected the automatic row and one per algorithm"
expect_all coll check ok
# (doubles: the ring allreduce, which serves only ops exact in any order,
# falls back; every other algorithm must run)
csv_rows coll | grep "unusable" | grep -v '^allreduce,.*,ring (unusable' | grep -q . &&
    fail "a registered algorithm could not run"
csv_rows coll | grep -q '^allreduce,.*,ring (unusable' ||
    fail "the ring allreduce ran a floating-point sum (it needs an exact op)"

run_bench 2 coll --json --ops bcast,barrier --sizes 16,1K --reps 2 --warmup 1 --settle 0.002
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
rows = [t for t in d["tables"] if t["name"] == "coll"][0]["rows"]
assert len(rows) == 3, rows
assert all(r["check"] == "ok" for r in rows)
assert d["info"]["alpha"] > 0
assert d["info"]["settle"].startswith("0.002 s")' "$out" || fail "bad JSON"
else
    grep -q '"name": "coll"' "$out" || fail "no coll table in the JSON output"
fi

run_bench 2 coll --ops reduce --sizes 1K --reps 4 --warmup 1 --block 2
grep -q "^Collectives: vendor MPI against InterCom" "$out" || fail "no text table"
grep -Eq "^op +p +bytes" "$out" || fail "no text header"
grep -q "take turns every 2 calls" "$out" || fail "--block not reported"

if command -v gnuplot >/dev/null 2>&1; then
    run_bench 2 coll --ops allreduce --sizes 64,4K --reps 2 --warmup 1 --plot "$work/fig"
    for f in fig-coll-allreduce.png fig-coll-allreduce.svg; do
        [ -s "$work/$f" ] || fail "--plot did not draw $f"
    done
    run_bench 2 pingpong --sizes 1,1K,64K --reps 2 --plot "$work/pp"
    [ -s "$work/pp-pingpong-time.png" ] || fail "--plot did not draw the ping-pong fit"
fi

run_bench 1 coll --csv --ops allreduce,bcast --sizes 64 --reps 2 --warmup 1
expect_all coll check ok
exit 0
