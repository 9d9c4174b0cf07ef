#!/bin/sh
# The summary ./quickstart bench ends with (bench/quickstart-summary.sh, the
# code the quick start runs), on a tiny real run of intercom-bench coll at
# p = 2: each run's summary line is there and parses (summary-check.sh:
# counts that add up to the sizes measured), a skipped simulation says so,
# and the figures and reports it names are where it says.
. "${srcdir:-.}/bench/tests/smoke-lib.sh"

qs=$work/qs
mkdir -p "$qs"
plot=
command -v gnuplot >/dev/null 2>&1 && plot="--plot $qs/local"
# shellcheck disable=SC2086
run_bench 2 coll --ops allreduce,barrier --sizes 8,1K --reps 5 --warmup 1 $plot
cp "$out" "$qs/local.txt"
cp "$out" "$qs/simgrid.txt"
[ -z "$plot" ] || cp "$qs/local-coll-ratio.png" "$qs/simgrid-coll-ratio.png"

check() { # SUMMARY-OUTPUT LABEL: the line after LABEL is a valid summary
    line=$(awk -v l="$2:" 'found { print; exit } $0 == l { found = 1 }' "$1")
    [ -n "$line" ] || fail "no line after '$2:' in the quick start's summary: $(cat "$1")"
    echo "# summary: ${line#  }" >"$work/line"
    sh "${srcdir:-.}/bench/tests/summary-check.sh" "$work/line" "" 3 ||
        fail "the quick start's summary line does not parse: $line"
}

sh "${srcdir:-.}/bench/quickstart-summary.sh" "$qs" "local ranks: 2" 0 "simulated: 16" 0 \
    >"$work/sum" || fail "quickstart-summary.sh: exit status $?"
cat "$work/sum"
check "$work/sum" "local ranks: 2"
check "$work/sum" "simulated: 16"
grep -q '> 1 means InterCom is faster' "$work/sum" || fail "the summary does not say what the ratio means"
for f in $(sed -n 's/^figures[^:]*: //p; s/^full reports[^:]*: //p' "$work/sum"); do
    case $f in *.png) [ -n "$plot" ] || continue ;; esac
    [ -s "$f" ] || fail "the summary names $f, which is not there"
done

sh "${srcdir:-.}/bench/quickstart-summary.sh" "$qs" "local ranks: 2" 0 "simulated: 16" skipped \
    >"$work/sum" || fail "quickstart-summary.sh (simulation skipped): exit status $?"
grep -q '^simulated cluster: skipped' "$work/sum" || fail "a skipped simulation is not reported"
check "$work/sum" "local ranks: 2"

# A report without a summary line (a run that died) is not passed off as one.
echo "# intercom-bench coll" >"$qs/local.txt"
sh "${srcdir:-.}/bench/quickstart-summary.sh" "$qs" "local ranks: 2" 1 "simulated: 16" skipped \
    >"$work/sum" && fail "a report without a summary passed"
grep -q 'FAILED (exit status 1)' "$work/sum" || fail "a failed run is not reported"
exit 0
