#!/bin/sh
# bench/simgrid/versus.sh at p = 4 on the 16-host simulated cluster: two
# collectives, the three selectors and three forced SMPI algorithms, two
# sizes (a few seconds).  Checks the report's structure (a table per
# collective, a row per size, a row per variant, numeric times), the data
# files and, with gnuplot, the figures; never the times themselves.  Then
# --hostfile: one bcast run on 4 of the modern cluster's nodes.
# Skipped without smpirun or an SMPI build (smpi-lib.sh).
. "${IC_SRCDIR:-${srcdir:-.}}/bench/tests/smpi-lib.sh"
md=$work/v.md

fail() {
    echo "FAIL: $*"
    echo "--- stdout:"
    cat "$work/out"
    echo "--- stderr:"
    cat "$work/err"
    exit 1
}

sh "$top/bench/simgrid/versus.sh" --platform cluster-16 --np 4 --build "$smpi" \
    --ops bcast,reduce_scatter_block --sizes 8,4K --reps 1 \
    --algorithms binomial_tree,flattree,ompi_ring --output "$work/v" --work "$work/w" \
    >"$work/out" 2>"$work/err" || fail "exit status $?"
[ -s "$md" ] || fail "no $md"
cmp -s "$md" "$work/out" || fail "the standard output is not the report"
for op in bcast reduce_scatter_block; do
    grep -qx "## $op" "$md" || fail "no section for $op"
    [ -s "$work/v-$op.dat" ] || fail "no data file for $op"
    head -n 1 "$work/v-$op.dat" | grep -q "^# bytes InterCom" || fail "v-$op.dat: no header"
    if command -v gnuplot >/dev/null 2>&1; then
        if [ ! -s "$work/v-$op.png" ] || [ ! -s "$work/v-$op.svg" ]; then
            fail "no figure for $op"
        fi
    fi
done
n=$(grep -c '^| bytes | InterCom | plan |' "$md")
[ "$n" -eq 2 ] || fail "$n summary tables, not 2"
# a row per size and collective, InterCom's time a number in each
n=$(grep -cE '^\| [0-9]+ \| [0-9.]+ \| `' "$md")
[ "$n" -eq 4 ] || fail "$n summary rows with InterCom's time, not 4"
for v in 'selector ompi' 'selector mpich' 'selector mvapich2' InterCom; do
    n=$(grep -c "^| $v |" "$md")
    [ "$n" -eq 2 ] || fail "'$v': $n rows, not one per collective"
done
# the forced algorithms: in the table, or left out with a reason
for a in binomial_tree flattree ompi_ring; do
    grep -q "^| \`$a\` |" "$md" || grep -q "^- algorithm \`$a\`: ." "$md" ||
        fail "algorithm $a neither in a table nor left out"
done
grep -q '^SMPI.s [0-9]* algorithms for smpi/reduce_scatter:' "$md" ||
    fail "reduce_scatter_block is not forced through smpi/reduce_scatter"

# --hostfile: one rank on each of 4 nodes of the modern cluster (the first
# 4 lines of its hostfile are one node's), in every run
awk 'NR % 8 == 1' "$top/bench/simgrid/modern-64x8.hosts" | head -n 4 >"$work/h4"
sh "$top/bench/simgrid/versus.sh" --platform modern-64x8 --hostfile "$work/h4" --build "$smpi" \
    --ops bcast --sizes 8 --reps 1 --selectors ompi --algorithms binomial_tree \
    --output "$work/h" --work "$work/wh" >"$work/out" 2>"$work/err" || fail "exit status $?"
grep -q "^# InterCom against SMPI's collectives: modern-64x8, p = 4 (hosts: h4)" "$work/h.md" ||
    fail "the report does not name the hostfile or p = 4"
for f in "$work"/wh/*.csv; do
    grep -q '^# nodes: 4 (at most 1 ranks per node' "$f" || fail "$f: not on 4 nodes"
done
exit 0
