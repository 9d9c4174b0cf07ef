#!/bin/sh
# intercom-tune across nodes with several ranks per node, under SimGrid
# SMPI (bench/simgrid/modern-64x8: 2 nodes x 8 ranks, a fast node-local
# link): the table's header gets the figures within a node (node-alpha,
# node-beta, from a ping-pong inside rank 0's node) beside those across
# nodes, the node's start-up the shorter, and intercom-info --check takes
# the table.  About 20 s.  Skipped without smpirun or an SMPI build
# (smpi-lib.sh).
. "${IC_SRCDIR:-${srcdir:-.}}/bench/tests/smpi-lib.sh"
tbl=$work/t.tbl

fail() {
    echo "FAIL: $*"
    echo "--- output:"
    cat "$work/out"
    [ -f "$tbl" ] && { echo "--- table:"; cat "$tbl"; }
    exit 1
}

sh "$top/bench/simgrid/run-simgrid.sh" --build "$smpi" --platform modern-64x8 --np 16 -- \
    tune --quick --ops bcast --sizes 8,64K -o "$tbl" >"$work/out" 2>&1 ||
    fail "exit status $?"
[ -s "$tbl" ] || fail "no table written"
val() { sed -n "s/^$1: *//p" "$tbl"; }
for key in alpha beta node-alpha node-beta nodes ranks-per-node; do
    [ -n "$(val "$key")" ] || fail "the header has no $key"
done
[ "$(val nodes)" = 2 ] || fail "nodes: $(val nodes), not 2"
[ "$(val ranks-per-node)" = 8 ] || fail "ranks-per-node: $(val ranks-per-node), not 8"
awk -v n="$(val node-alpha)" -v a="$(val alpha)" 'BEGIN { exit !(n > 0 && n < a) }' ||
    fail "node-alpha $(val node-alpha) is not below alpha $(val alpha)"
grep -Eq '^bcast +16 +8 ' "$tbl" || fail "no bcast rule for 16 ranks, 8 per node"
info=./intercom-info
if [ -x "$info" ]; then
    "$info" --check "$tbl" >"$work/check" 2>&1 || fail "intercom-info --check: $(cat "$work/check")"
    grep -q "node-alpha" "$work/check" || fail "intercom-info --check does not show node-alpha"
fi
exit 0
