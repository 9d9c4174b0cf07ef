#!/bin/sh
# table.sh -- intercom-info's tuning table commands: --check prints every
# problem as FILE:LINE: and a one-line summary, with exit status 0 for a
# clean table, 1 for one with problems or refused, 2 for one that cannot be
# read; `table` names the rule that decides a call, or leaves it to the
# model; the example table of README.md is clean.  The parser itself is
# tested by the unit tests (check_intercom table).  Run from the top of the
# build tree (make check).
set -u
[ -x ./intercom-info ] || { echo "no ./intercom-info"; exit 99; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ic-table.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
export ASAN_OPTIONS
status=0
fail() {
    echo "FAIL: $*"
    status=1
}

cat >"$work/good.tbl" <<'EOF'
# a clean table
intercom-tuning 1
made-by: intercom-tune -p 4
alpha: 2e-05
nodes: 2
bcast     any any 0-8K  any         mst
bcast     4   2   8K-*  any         2x2:d1=scatter_collect,d0=mst
allreduce any any any   commutative recursive_doubling
EOF
./intercom-info --check "$work/good.tbl" >"$work/out" 2>"$work/err"
rc=$?
[ $rc -eq 0 ] || fail "--check of a clean table: exit status $rc"
[ -s "$work/err" ] && fail "--check wrote on stderr: $(cat "$work/err")"
[ "$(wc -l <"$work/out")" -eq 1 ] || fail "--check of a clean table: not one line: $(cat "$work/out")"
grep -q "^$work/good.tbl: 3 rules kept, 0 lines skipped, 0 problems; model alpha 2e-05; 2 nodes; made by: intercom-tune -p 4\$" "$work/out" ||
    fail "--check summary: $(cat "$work/out")"

# problems: every one FILE:LINE:, then the summary; the rest is used
{
    cat "$work/good.tbl"
    echo "bcats any any any any mst"
    echo "bcast any any 4096-1024 any mst"
    echo "bcast any any any any pipelinex"
} >"$work/bad.tbl"
./intercom-info --check "$work/bad.tbl" >"$work/out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "--check of a table with problems: exit status $rc"
cat >"$work/want" <<EOF
$work/bad.tbl:9: unknown collective 'bcats'
$work/bad.tbl:10: bytes range 4096-1024 is empty
$work/bad.tbl:11: plan 'pipelinex' for bcast: no such algorithm for this collective (intercom-info list)
EOF
head -n 3 "$work/out" | cmp -s - "$work/want" || fail "--check messages: $(cat "$work/out")"
sed -n 4p "$work/out" | grep -q "^$work/bad.tbl: 3 rules kept, 3 lines skipped, 3 problems;" ||
    fail "--check summary: $(sed -n 4p "$work/out")"

# refused: one message, the summary says so
printf 'intercom-tuning 2\nbcast any any any any mst\n' >"$work/new.tbl"
./intercom-info --check "$work/new.tbl" >"$work/out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "--check of a newer version: exit status $rc"
grep -q "^$work/new.tbl:1: tuning table version 2 is newer" "$work/out" || fail "--check of a newer version: $(cat "$work/out")"
grep -q "^$work/new.tbl: refused" "$work/out" || fail "--check of a newer version: no summary"

# unreadable
./intercom-info --check "$work/none.tbl" >"$work/out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "--check of a missing file: exit status $rc"
grep -q "^$work/none.tbl: cannot read: " "$work/out" || fail "--check of a missing file: $(cat "$work/out")"
./intercom-info --check >/dev/null 2>&1
[ $? -eq 2 ] || fail "--check without a file: not a usage error"

# which rule decides
./intercom-info table "$work/bad.tbl" bcast -p 4 -n 65536 --ranks-per-node 2 >"$work/out" 2>"$work/err"
rc=$?
[ $rc -eq 0 ] || fail "table: exit status $rc"
grep -Eq '^bcast +65536 +7 +2x2:d1=scatter_collect,d0=mst$' "$work/out" || fail "table: $(cat "$work/out")"
[ "$(wc -l <"$work/err")" -eq 3 ] || fail "table: the file's problems are not on stderr: $(cat "$work/err")"
./intercom-info table "$work/good.tbl" bcast -p 4 -n 65536 >"$work/out" 2>&1
grep -Eq '^bcast +65536 +- +no rule: the model decides$' "$work/out" || fail "table, unknown ranks per node: $(cat "$work/out")"
./intercom-info table "$work/good.tbl" -p 3 -n 300 --elem 4 --noncommutative >"$work/out" 2>&1
grep -Eq '^allreduce +1200 +- +no rule: the model decides$' "$work/out" || fail "table, non-commutative: $(cat "$work/out")"
grep -Eq '^bcast +1200 +6 +mst$' "$work/out" || fail "table, every collective: $(cat "$work/out")"
[ "$(grep -c . "$work/out")" -eq 14 ] || fail "table: not a line per collective: $(cat "$work/out")"
./intercom-info table "$work/none.tbl" >/dev/null 2>&1
[ $? -eq 2 ] || fail "table of a missing file: exit status not 2"
./intercom-info table "$work/good.tbl" --alpha 1 >/dev/null 2>&1
[ $? -eq 2 ] || fail "table accepted an option of choose"

# choose decides as the library under a table: the rule, else the table's model
cat >"$work/choose.tbl" <<'EOF2'
intercom-tuning 1
alpha: 0.005
bcast 4 any 0-2K any binary_tree
EOF2
./intercom-info choose -p 4 --table "$work/choose.tbl" >"$work/out" 2>&1 || fail "choose --table: exit status $?"
grep -q 'alpha=0.005 ' "$work/out" || fail "choose --table: not the table's alpha: $(head -n 2 "$work/out")"
grep -Eq "^bcast +8 +binary_tree(\([0-9]+\))? .* $work/choose.tbl:3\$" "$work/out" || fail "choose --table: bcast 8 B not the rule's: $(cat "$work/out")"
grep -Eq '^bcast +32768 .* model$' "$work/out" || fail "choose --table: bcast 32 KiB not the model's: $(cat "$work/out")"
./intercom-info choose -p 4 --table "$work/choose.tbl" --alpha 1e-6 >"$work/out" 2>&1
grep -q 'alpha=1e-06 ' "$work/out" || fail "choose --table --alpha: the option does not win"
./intercom-info choose bcast -n 1024 -p 4 --table "$work/choose.tbl" --candidates 3 >"$work/out" 2>&1 ||
    fail "choose COLL -n: exit status $?"
[ "$(grep -Ec '^ +[123] +[0-9.e-]+ +[a-z0-9]' "$work/out")" -eq 3 ] || fail "choose COLL -n: not 3 candidates: $(cat "$work/out")"
grep -Eq "^decision: binary_tree(\([0-9]+\))? .*decided by $work/choose.tbl:3\$" "$work/out" || fail "choose COLL -n: $(cat "$work/out")"
./intercom-info choose bcast -p 4 >/dev/null 2>&1
[ $? -eq 2 ] || fail "choose COLL without -n: exit status not 2"
# every rank on one node (--ranks-per-node p): the library's model within a
# node alone (src/context.c: pick_model), with the figures given set on it;
# two nodes: the across-node model heads the output
./intercom-info choose reduce -n 262144 --elem 4 -p 2 --ranks-per-node 2 >"$work/out" 2>&1 ||
    fail "choose on one node: exit status $?"
grep -q '^p=2 alpha=4e-06 s beta=1.25e-10 s/B beta_x=1.25e-10 s/B .* pieces=0 B' "$work/out" ||
    fail "choose on one node: not the node's model: $(head -n 1 "$work/out")"
./intercom-info choose reduce -n 262144 --elem 4 -p 2 --ranks-per-node 2 --alpha 1e-6 >"$work/out" 2>&1
grep -q '^p=2 alpha=1e-06 s beta=1.25e-10 s/B' "$work/out" ||
    fail "choose on one node --alpha: $(head -n 1 "$work/out")"
./intercom-info choose reduce -n 262144 --elem 4 -p 4 --ranks-per-node 2 >"$work/out" 2>&1
grep -q '^p=4 alpha=2e-05 s' "$work/out" || fail "choose on two nodes: $(head -n 1 "$work/out")"

# the example of README.md's "Tuning tables" is a clean table
readme=${IC_SRCDIR:-${srcdir:-..}}/README.md
if [ -f "$readme" ]; then
    # the section's first code block that is a table
    awk '/^### Tuning tables/ { in_sec = 1 }
         in_sec && /^```/ { if (block && text ~ /\nintercom-tuning 1\n/) { printf "%s", text; exit }
                            block = !block; text = "\n"; next }
         block { text = text $0 "\n" }' "$readme" | sed 1d >"$work/readme.tbl"
    grep -q '^intercom-tuning 1$' "$work/readme.tbl" || fail "no example table in $readme"
    ./intercom-info --check "$work/readme.tbl" >"$work/out" 2>&1 ||
        fail "README.md's example table: $(cat "$work/out")"
fi

[ $status -eq 0 ] && echo "intercom-info --check and table"
exit $status
