#!/bin/sh
# quickstart-summary.sh -- the summary ./quickstart bench ends with: for
# each run, what it shows and its report's summary line, then where the
# figures and full reports are.
#
#   bench/quickstart-summary.sh DIR LOCAL_WHAT LOCAL_RC SIM_WHAT SIM_RC
#
# DIR holds local.txt (and simgrid.txt unless SIM_RC is "skipped"), the
# reports of intercom-bench coll; *_WHAT say what each run shows; *_RC are
# their exit statuses.  Exit status: 0, or 1 when a report has no summary
# line (the runs' own failures are reported, not returned).
set -u
dir=$1 what_local=$2 rc=$3 what_sim=$4 sim_rc=$5
status=0
summary() {
    s=$(sed -n 's/^# summary: //p' "$1" 2>/dev/null | head -n 1)
    if [ -z "$s" ]; then
        s="(no summary: the run did not finish, see $1)"
        status=1
    fi
    echo "  $s"
}
echo
echo "================================ quickstart bench: summary"
echo "ratio = vendor time / InterCom time, medians measured side by side: > 1 means InterCom is faster."
echo "$what_local:"
summary "$dir/local.txt"
[ "$rc" -eq 0 ] || echo "  FAILED (exit status $rc): see $dir/local.txt"
figs=$dir/local-coll-ratio.png
reports=$dir/local.txt
if [ "$sim_rc" = skipped ]; then
    echo "simulated cluster: skipped (IC_BENCH_SIMGRID=0 or no smpicc: scripts/install-deps.sh --bench)"
else
    echo "$what_sim:"
    summary "$dir/simgrid.txt"
    [ "$sim_rc" -eq 0 ] || echo "  FAILED (exit status $sim_rc): see $dir/simgrid.txt"
    figs="$figs $dir/simgrid-coll-ratio.png"
    reports="$reports $dir/simgrid.txt"
fi
echo "figures (vendor/InterCom against size, one line per operation): $figs"
echo "full reports (per operation and per size, with the method): $reports"
exit $status
