#!/bin/sh
# trace.sh -- INTERCOM_TRACE (src/trace.c) and `intercom-bench chart`:
#   - tests/mpi/reductions and movement at p = 4 with INTERCOM_TRACE=PREFIX
#     still pass, and write PREFIX.0 .. PREFIX.3: the header, a clock
#     relation on every rank, call lines, times that do not run backwards;
#   - every message recorded as sent from r to s with b bytes is recorded as
#     received at s from r with b bytes, as many times;
#   - the clocks, aligned as the files say, are consistent: for every pair
#     and length, the i-th earliest completed receive ends after the i-th
#     earliest send started (each receive completed after its own send
#     started), within the relations' measured uncertainty;
#   - a prefix in a directory that does not exist: the program still passes,
#     with one warning per process; where only rank 1's file cannot be
#     written, rank 0 still traces and nobody hangs;
#   - intercom-bench chart draws an SVG of the last call (when gnuplot is
#     installed), from the prefix or from files named, and rejects a file
#     that is not a trace.
# Run by `make check` from the top build directory.

top=$(pwd)
dir=$top/tests/mpi/trace-out.$$
rc=0
mkdir -p "$dir" || exit 1
[ -n "$IC_TRACE_KEEP" ] || trap 'rm -rf "$dir"' EXIT

fail() {
    echo "FAIL: $*"
    rc=1
}

check_files() { # PREFIX NP
    prefix=$1
    np=$2
    for r in $(seq 0 $((np - 1))); do
        f=$prefix.$r
        [ -s "$f" ] || { fail "no trace $f"; continue; }
        [ "$(sed -n 1p "$f")" = "# InterCom trace 1" ] || fail "$f: header"
        [ "$(sed -n 2p "$f")" = "rank $r of $np" ] || fail "$f: rank line '$(sed -n 2p "$f")'"
        grep -q '^clock ' "$f" || [ "$r" = 0 ] || fail "$f: no clock relation"
        grep -q '^call ' "$f" || fail "$f: no call recorded"
        grep -q '^send ' "$f" || fail "$f: no message recorded"
        awk '($1 == "send" || $1 == "recv" || $1 == "reduce" || $1 == "copy") && $6 < $5 {
                 print FILENAME ": ends before it starts: " $0; bad = 1; exit }
             $1 == "call" && $14 < $13 { print FILENAME ": call ends before it starts"; bad = 1; exit }
             END { exit bad }' "$f" || rc=1
    done
    # the clock shift of every rank (relations followed to rank 0) and its
    # uncertainty, then one line per message: pair, length, kind, aligned time
    cat "$prefix".* | awk '
        $1 == "rank" { me = $2 }
        $1 == "clock" { ref[me] = $2; off[me] = $3; rtt[me] = $4 }
        $1 == "send" { n++; k[n] = me " " $3 " " $4 " S"; t[n] = $5; who[n] = me }
        $1 == "recv" { n++; k[n] = $3 " " me " " $4 " R"; t[n] = $6; who[n] = me }
        END {
            for (r in ref) {
                s = 0; u = 0; x = r
                for (h = 0; x != 0 && (x in ref) && h < 1000; h++) {
                    s += off[x]; u += rtt[x] / 2; x = ref[x]
                }
                shift[r] = s; unc[r] = u
            }
            for (i = 1; i <= n; i++)
                printf "%s %.9f %.9f\n", k[i], t[i] + shift[who[i]], unc[who[i]]
        }' | sort -k1,1n -k2,2n -k3,3n -k4,4 -k5,5g >"$dir/msgs"
    # sends and receives per pair and length: as many of each, and the i-th
    # earliest receive completes after the i-th earliest send started
    awk '
        function flush() {
            if (key == "") return
            if (ns != nr) printf "pair %s: %d sent, %d received\n", key, ns, nr
            for (i = 1; i <= ns && i <= nr; i++)
                if (rt[i] < st[i] - su[i] - ru[i] - 2e-6) {
                    printf "pair %s: receive %d ends %.1f us before send %d starts\n", key, i,
                        (st[i] - rt[i]) * 1e6, i
                    break
                }
            ns = nr = 0
        }
        { kk = $1 " " $2 " " $3 }
        kk != key { flush(); key = kk }
        $4 == "S" { ns++; st[ns] = $5; su[ns] = $6 }
        $4 == "R" { nr++; rt[nr] = $5; ru[nr] = $6 }
        END { flush() }' "$dir/msgs" >"$dir/pairs"
    [ -s "$dir/msgs" ] || fail "$prefix: no messages"
    [ ! -s "$dir/pairs" ] || { fail "$prefix: sends and receives do not pair up"; head -5 "$dir/pairs"; }
}

for prog in reductions movement; do
    INTERCOM_TRACE=$dir/$prog "${SHELL:-/bin/sh}" "$top/tests/mpi/run-mpi.sh" --np 4 \
        "$top/tests/mpi/$prog" >"$dir/$prog.out" 2>&1 ||
        { fail "tests/mpi/$prog with INTERCOM_TRACE"; tail -20 "$dir/$prog.out"; }
    check_files "$dir/$prog" 4
done

# a prefix that cannot be written: a warning per process, never a failure
INTERCOM_TRACE=$dir/no/such/dir/t "${SHELL:-/bin/sh}" "$top/tests/mpi/run-mpi.sh" --np 2 \
    "$top/tests/mpi/reductions" >"$dir/bad.out" 2>&1 ||
    { fail "tests/mpi/reductions with an unwritable INTERCOM_TRACE"; tail -20 "$dir/bad.out"; }
n=$(grep -c 'INTERCOM_TRACE: cannot write' "$dir/bad.out")
[ "$n" = 2 ] || fail "unwritable INTERCOM_TRACE: $n warnings, expected one per process (2)"

# only some processes can write (PREFIX.1 is a directory): the others
# still trace, and nobody waits for a partner that stopped
mkdir -p "$dir/mixed.1"
INTERCOM_TRACE=$dir/mixed "${SHELL:-/bin/sh}" "$top/tests/mpi/run-mpi.sh" --np 2 \
    "$top/tests/mpi/reductions" >"$dir/mixed.out" 2>&1 ||
    { fail "tests/mpi/reductions with PREFIX.1 unwritable"; tail -20 "$dir/mixed.out"; }
n=$(grep -c 'INTERCOM_TRACE: cannot write' "$dir/mixed.out")
[ "$n" = 1 ] || fail "PREFIX.1 unwritable: $n warnings, expected 1"
grep -q '^call ' "$dir/mixed.0" 2>/dev/null || fail "PREFIX.1 unwritable: rank 0 recorded no call"

# the chart of the last call
bench=$top/bench/intercom-bench
if command -v gnuplot >/dev/null 2>&1; then
    "$bench" chart --trace "$dir/reductions" -o "$dir/chart.svg" >"$dir/chart.out" 2>&1 ||
        { fail "intercom-bench chart"; cat "$dir/chart.out"; }
    grep -q '<svg' "$dir/chart.svg" 2>/dev/null || fail "chart: no SVG written"
    grep -q 'measured' "$dir/chart.out" || fail "chart: no summary line"
    # the files named instead of the prefix: all of them, or some
    "$bench" chart --trace "$dir"/reductions.[0-9]* -o "$dir/files.png" >/dev/null 2>&1 ||
        fail "intercom-bench chart --trace FILES"
    [ -s "$dir/files.png" ] || fail "chart: no PNG written"
    "$bench" chart --trace "$dir/reductions.1" --no-model -o "$dir/one.svg" >/dev/null 2>&1 ||
        fail "intercom-bench chart of rank 1's file alone"
else
    echo "gnuplot not installed: chart not drawn"
fi
printf 'not a trace\n' >"$dir/junk.0"
if "$bench" chart --trace "$dir/junk" -o "$dir/junk.svg" >"$dir/junk.out" 2>&1; then
    fail "chart accepted a file that is not a trace"
fi
grep -q 'not an InterCom trace' "$dir/junk.out" || fail "chart: no message for a bad file"
exit $rc
