#!/bin/sh
# table.sh -- the tuning table at work (src/tuning.c, tuning/table.c):
#   - movement and reductions with every registered algorithm chosen in
#     turn by a table (MT_TABLE, tests/mpi/mpitest.c: IC_Tuning_load of a
#     one-collective table whose first rule, for a million ranks and more,
#     names another algorithm), at p = 3 and 4: IC_Last_algorithm must show
#     the rule's plan and the results the vendor's;
#   - a broken table under INTERCOM_TUNING_FILE (unknown collective and
#     plan, a mesh of another size, malformed fields, rules for other
#     communicator sizes): every problem reported once as FILE:LINE on rank
#     0, and every result still right (the tests' "auto" cases use it).
#
# Run by `make check` through run-mpi.sh (from the top build directory);
# by hand: sh tests/mpi/table.sh from there.

top=$(pwd)
rc=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for np in 3 4; do
    for prog in movement reductions; do
        MT_TABLE=1 "${SHELL:-/bin/sh}" "$top/tests/mpi/run-mpi.sh" --np "$np" \
            "$top/tests/mpi/$prog" 2>"$tmp/err" || {
            echo "FAIL: tests/mpi/$prog at p = $np, algorithms chosen by tuning tables"
            head -40 "$tmp/err"
            rc=1
        }
    done
done

cat >"$tmp/broken.tbl" <<'TABLE'
intercom-tuning 1
alpha: 1e-4
bcats       any any any   any mst
bcast       any any 0-*   any pipelinex
allreduce   3   any any   any 2x2:d1=mst,d0=mst
allgather   any any 9-2   any bucket
reduce      1000000-* any any any mst
barrier     any any any   any dissemination extra
allreduce   any any any   any recursive_doubling
TABLE
# lines 3, 4, 5, 6, 8 are broken: five messages, each once
for prog in movement reductions; do
    INTERCOM_TUNING_FILE="$tmp/broken.tbl" "${SHELL:-/bin/sh}" "$top/tests/mpi/run-mpi.sh" \
        --np 3 "$top/tests/mpi/$prog" 2>"$tmp/err" || {
        echo "FAIL: tests/mpi/$prog at p = 3 under a broken tuning table"
        head -40 "$tmp/err"
        rc=1
    }
    n=$(grep -c "InterCom: warning: $tmp/broken.tbl:[0-9]*: " "$tmp/err")
    lines=$(grep -o "broken.tbl:[0-9]*:" "$tmp/err" | sort -u | tr -d '\n')
    if [ "$n" != 5 ] || [ "$lines" != "broken.tbl:3:broken.tbl:4:broken.tbl:5:broken.tbl:6:broken.tbl:8:" ]; then
        echo "FAIL: tests/mpi/$prog: expected the table's 5 problems once each, got $n: $lines"
        grep "broken.tbl" "$tmp/err" | head -20
        rc=1
    fi
done
[ $rc -eq 0 ] && echo "PASS: tables choosing every algorithm at p = 3, 4; a broken table" \
    "reported once per problem, results right"
exit $rc
