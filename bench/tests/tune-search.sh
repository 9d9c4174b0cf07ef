#!/bin/sh
# intercom-tune's search beyond the model's favourites, under SimGrid SMPI
# (bench/simgrid/paragon-16x32, the first 64 nodes: four rings of 16 along
# the torus), allreduce of 1 MiB: the cheapest plan and the cheapest plan
# of ring steps on each 2-D shape and the local search from the fastest mesh plan are measured; every
# candidate is distinct and gives the vendor's result; the winner is the
# fastest candidate (the simulation is deterministic: no noise to break
# ties) and is the table's rule; the torus node's sends take two links.
# Then a broadcast on one ring of 16:
# the 1-D plans' two-ring twins and parameters in the local search; a
# reduce on 16 nodes of the modern cluster: the streams on the shapes in
# the streams' segment, the last round's search from a 1-D plan's
# parameter when the mesh plans took the others; a broadcast
# there: one link for a node's sends, the streams' gaps, and the 1-D streams in the segments the
# measured ping-pong and the streams price cheapest.  About 40 s.  Skipped
# without smpirun or an SMPI build (smpi-lib.sh).
. "${IC_SRCDIR:-${srcdir:-.}}/bench/tests/smoke-lib.sh"
w0=$work
. "${IC_SRCDIR:-${srcdir:-.}}/bench/tests/smpi-lib.sh"
trap 'rm -rf "$work" "$w0"' EXIT
tbl=$work/t.tbl

sh "$top/bench/simgrid/run-simgrid.sh" --build "$smpi" --np 64 -- \
    tune --csv --ops allreduce --sizes 1M --reps 1 --warmup 1 -o "$tbl" >"$out" 2>"$err" ||
    fail "exit status $?"
# every candidate ran right, or was not run: priced (fitted model) above
# --prune's default 3 times the fastest time measured
csv_col candidates check | grep -qvxE 'ok|pruned' && fail "a candidate's check is not ok"
best=$(csv_col candidates median | grep . | sort -g | head -n 1)
csv_col candidates check >"$work/chk"
csv_col candidates predicted >"$work/pred"
paste -d ' ' "$work/chk" "$work/pred" | awk -v b="$best" '$1 == "pruned" && !($2 > 3 * b) { bad = 1 }
    END { exit bad }' || fail "a candidate priced within 3 times the fastest ($best s) was pruned"
csv_col candidates check | grep -qx pruned ||
    fail "nothing pruned (the 1-D ring of 64 is priced at over 10 times the fastest)"
csv_col candidates why | grep -qx shape || fail "no 2-D shape among the candidates"
csv_col candidates why | grep -qx "shape, rings" || fail "no plan of ring steps among the candidates"
csv_col candidates why | grep -qx "local search" || fail "no local search"
dup=$(csv_col candidates plan | sort | uniq -d)
[ -z "$dup" ] || fail "candidates measured twice: $dup"
expect_rows tuned 1
won=$(csv_col tuned measured)
awk -v b="$best" -v w="$won" 'BEGIN { exit !(w <= b * 1.03) }' ||
    fail "the winner ($won s) is not the fastest candidate ($best s)"
plan=$(csv_col tuned plan)
grep -Eq "^allreduce +64 .* $plan\$" "$tbl" || fail "the table's rule is not the winner $plan"
# the links rank 0's sends take: two on the torus (streams to ranks 63 and
# 1 go apart), in the report and the table's header
expect_rows links 1
[ "$(csv_col links links)" = 2 ] || fail "links on the torus: $(csv_col links links), not 2"
grep -qx "links: 2" "$tbl" || fail "no 'links: 2' in the table's header"

# One ring of 16 nodes, broadcast of 16 B and 1 MiB: the 1-D plans' two-ring
# twins are candidates, and the local search measures parameters (a radix,
# a segment) besides the ones the model set, written into the plan.
sh "$top/bench/simgrid/run-simgrid.sh" --build "$smpi" --np 16 -- \
    tune --csv --ops bcast --sizes 16,1M --reps 1 --warmup 0 --prune 0 -o "$tbl" >"$out" 2>"$err" ||
    fail "exit status $?"
expect_all candidates check ok
csv_col candidates why | grep -qx "1-D, two rings" || fail "no 1-D plan on two rings"
csv_rows candidates | grep "local search" | grep -q '[a-z_]([0-9][0-9]*)' ||
    fail "no parameter measured by the local search"
csv_col candidates bytes >"$work/bytes"
csv_col candidates plan >"$work/plans"
dup=$(paste -d ' ' "$work/bytes" "$work/plans" | sort | uniq -d)
[ -z "$dup" ] || fail "candidates measured twice at one size: $dup"

# Sixteen nodes of the modern cluster, one rank each, reduce of 64 KiB:
# the stream's plans on the shapes are also measured in the streams'
# segment (both steps the circulant graph's, in 1024 elements), the
# fastest of the first candidates is such a mesh plan, the rounds go to
# the mesh plans next to it, and the last one goes on from the fastest
# 1-D plan with a parameter within twice its time (the circulant reduce)
# and measures its segment's neighbours, down to an eighth of it (without
# that round: none).
awk 'NR % 8 == 1' "$top/bench/simgrid/modern-64x8.hosts" | head -n 16 >"$work/hosts"
# tune16 OP SIZE: tune OP at SIZE there; every candidate right; each one's
# why, median and plan in $work/why, med, plans
tune16() {
    sh "$top/bench/simgrid/run-simgrid.sh" --build "$smpi" --platform modern-64x8 --np 16 \
        --hostfile "$work/hosts" -- tune --csv --ops "$1" --sizes "$2" --type double --reps 1 \
        --warmup 1 -o "$tbl" >"$out" 2>"$err" || fail "exit status $?"
    csv_col candidates check | grep -qvxE 'ok|pruned' && fail "a candidate's check is not ok"
    csv_col candidates why >"$work/why"
    csv_col candidates median >"$work/med"
    csv_col candidates plan >"$work/plans"
}
tune16 reduce 64K
first=$(paste -d '|' "$work/why" "$work/med" "$work/plans" |
    awk -F '|' '$1 != "local search" && $2 != "" { print $2, $3 }' | sort -g | head -n 1 |
    cut -d ' ' -f 2)
case $first in
[0-9]*x[0-9]*) ;;
*) fail "the first candidates' fastest ($first) is no mesh plan: the test needs one" ;;
esac
paste -d ' ' "$work/why" "$work/plans" |
    grep -Eq '^shape, streams, stream segment [0-9x]+:d[01]=circulant\(1024\),d[01]=circulant\(1024\)$' ||
    fail "no circulant graphs on a shape in the streams' segment"
paste -d ' ' "$work/why" "$work/plans" | grep -Eq '^local search [0-9]+x[0-9]' ||
    fail "no mesh plan in the local search (the test needs the rounds to start from one)"
paste -d ' ' "$work/why" "$work/plans" | grep -Eq '^local search [a-z_]+\([0-9]+\)$' ||
    fail "no 1-D plan's parameter measured by the local search's last round after $first"

# The same nodes, broadcast of 1 MiB: the streams' table (the gap between
# messages sent back to back), and each 1-D stream also in the segment
# the streams price cheapest: SMPI's bands give 5776-9375 B the most
# bandwidth, so the circulant graph in 8 KiB segments (the ping-pong's
# one-way times, a start-up per segment, price it cheapest in 256 KiB:
# a "1-D, measured segment").
tune16 bcast 1M
[ "$(csv_col links links)" = 1 ] || fail "links on the modern cluster: $(csv_col links links), not 1"
grep -qx "links: 1" "$tbl" || fail "no 'links: 1' in the table's header"
csv_col stream gap | grep -q . || fail "no stream table"
csv_col stream gap | awk '!($1 > 0) { bad = 1 } END { exit bad }' || fail "a gap not above 0"
paste -d ' ' "$work/why" "$work/plans" | grep -Eq '^1-D, measured segment [a-z_]+\([0-9]+\)$' ||
    fail "no 1-D plan in the measured ping-pong's segment"
paste -d ' ' "$work/why" "$work/plans" | grep -qx '1-D, stream segment circulant(8192)' ||
    fail "no circulant graph in the streams' 8 KiB segments"
exit 0
