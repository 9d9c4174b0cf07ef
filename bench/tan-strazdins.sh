#!/bin/bash
# tan-strazdins.sh -- tan-strazdins-2002's Figures 2 to 6 on the emulated
# cluster (bench/cluster/README.md), in one command: `intercom-bench
# patterns` at p = 8 hosts (Figures 2-4 and the model fits of Figure 6),
# then at n = 1000 on 2..8 hosts, merged into Figure 5 (time against p).
#
#   sudo bench/tan-strazdins.sh [--build DIR] [--out DIR] [--hosts P]
#                               [--procs "2 3 ... 8"] [--rate R] [--wait S]
#                               [--quick] [-- PATTERNS-OPTIONS...]
#
#   --build DIR   build tree holding bench/intercom-bench (default: $IC_BUILD,
#                 else the current directory)
#   --out DIR     where the reports and figures go (default ./tan-strazdins)
#   --hosts P     hosts of the main run (default 8)
#   --procs LIST  host counts of Figure 5 (default "2 3 4 5 6 7 8")
#   --rate R      link rate (default 100mbit, the paper's Fast Ethernet)
#   --wait S      wait up to S seconds for another emulated-cluster run
#   --quick       a short check of the whole chain: n = 10, 1000, 10000 at
#                 0.3 s a point, Figure 5 on 2 and 4 hosts
#   --replot      no runs: draw Figure 5 again from the fig5-pQ.csv in DIR
# Options after -- go to every `intercom-bench patterns` run (e.g. --time 3).
#
# Elements are 8-byte integers (--type long): the paper's doubles' bytes,
# and sums exact in any order, so that every pattern can run (allreduce's
# ring needs an exact op).  Output in DIR:
#   patterns-p8.txt              the report of the main run (text)
#   fig-patterns-OP.png/.svg     Figures 2-4 with the split model's lines
#   fig-patterns-OP-plain.*      the same with the plain model's lines
#   fig5-pQ.csv                  the report of the run on Q hosts (CSV)
#   fig5-OP.png/.svg (.dat, .gp) Figure 5: time at n = 1000 against p
#   times.txt                    wall time of each run
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd -P)
build=${IC_BUILD:-$PWD}
out=$PWD/tan-strazdins
hosts=8
procs="2 3 4 5 6 7 8"
rate=100mbit
wait_s=0
quick=0
replot=0
extra=()

usage() {
    sed -n '2,31p' "$0" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
    case $1 in
    --build) build=${2:?}; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    --hosts) hosts=${2:?}; shift 2 ;;
    --procs) procs=${2:?}; shift 2 ;;
    --rate) rate=${2:?}; shift 2 ;;
    --wait) wait_s=${2:?}; shift 2 ;;
    --quick) quick=1; shift ;;
    --replot) replot=1; shift ;;
    -h | --help) usage; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    *) usage >&2; echo "tan-strazdins.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
build=$(cd "$build" && pwd -P)
[ "$replot" -eq 1 ] || [ -x "$build/bench/intercom-bench" ] ||
    { echo "tan-strazdins.sh: $build/bench/intercom-bench not found (--build DIR)" >&2; exit 2; }
command -v gnuplot >/dev/null 2>&1 || { echo "tan-strazdins.sh: gnuplot not found" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd -P)

main_opts=(--type long)
fig5_opts=(--type long --n 1000)
if [ "$quick" -eq 1 ]; then
    main_opts+=(--n 10,1000,10000 --time 0.3)
    fig5_opts+=(--time 0.3)
    procs="2 4"
fi

[ "$replot" -eq 1 ] || : >"$out/times.txt"
# run NAME HOSTS OUTPUT PATTERNS-ARGS...: one emulated-cluster run, timed
run() {
    local name=$1 h=$2 file=$3
    shift 3
    local t0=$SECONDS
    echo "tan-strazdins.sh: $name on $h hosts -> $file" >&2
    "$here/run-cluster.sh" --build "$build" --hosts "$h" --rate "$rate" --wait "$wait_s" -- \
        patterns "$@" ${extra[@]+"${extra[@]}"} >"$file"
    echo "$name hosts=$h seconds=$((SECONDS - t0))" >>"$out/times.txt"
}

if [ "$replot" -eq 0 ]; then
    # Figures 2-4 (and 6): every pattern over n at p = hosts
    run figures-2-4 "$hosts" "$out/patterns-p$hosts.txt" "${main_opts[@]}" --plot "$out/fig"
    # Figure 5: n = 1000 on each number of hosts
    for q in $procs; do
        run figure-5 "$q" "$out/fig5-p$q.csv" "${fig5_opts[@]}" --csv
    done
else
    procs=$(cd "$out" && ls fig5-p*.csv | sed 's/fig5-p\([0-9]*\)\.csv/\1/' | sort -n | tr '\n' ' ')
fi

# The colours of intercom-bench's figures (bench/plot.c), black left for the vendor
palette=("#9400d3" "#009e73" "#56b4e9" "#e69f00" "#0072b2" "#e51e10" "#8b4513"
    "#ff69b4" "#808000" "#20b2aa" "#708090")

# Merge: per collective, one block per variant (p, median time), the
# blocks in the order of the run on the most hosts.
for op in allgather allreduce reduce_scatter_block; do
    dat=$out/fig5-$op.dat
    gp=$out/fig5-$op.gp
    for q in $procs; do
        awk -v op="$op" -v q="$q" '
            function fields(line,   i, ch, qt, s) { # CSV: quoted fields may hold commas
                s = ""; qt = 0
                for (i = 1; i <= length(line); i++) {
                    ch = substr(line, i, 1)
                    if (ch == "\"") { qt = !qt; continue }
                    s = s ((ch == "," && qt) ? ";" : ch)
                }
                return split(s, f, ",")
            }
            $0 == "# table: patterns" { on = 1; hdr = 1; next }
            on && (/^$/ || /^# table:/) { on = 0 }
            on && hdr { n = fields($0); for (i = 1; i <= n; i++) col[f[i]] = i; hdr = 0; next }
            on { fields($0)
                 if (f[col["op"]] == op && f[col["check"]] == "ok" && f[col["time"]] != "")
                     print f[col["pattern"]], q, f[col["time"]] }' "$out/fig5-p$q.csv"
    done >"$dat.rows"
    awk '{ if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } pts[$1] = pts[$1] $2 " " $3 "\n" }
        END { for (i = 1; i <= n; i++) printf "%s# %s\n%s", (i > 1 ? "\n\n" : ""), order[i], pts[order[i]] }' \
        "$dat.rows" >"$dat"
    rm -f "$dat.rows"
    {
        echo "# Figure 5 (tan-strazdins-2002): $op at n = 1000 against p, $rate links"
        echo "set title '$op, n = 1000 (8-byte elements): time against p' noenhanced"
        echo "set xlabel 'p (hosts)'"
        echo "set ylabel 'time [s]'"
        echo "set format y '%.0s %cs'"
        echo "set logscale y"
        echo "set grid"
        echo "set key outside right top Left reverse noenhanced"
        echo "DAT = '$dat'"
        echo "set xtics 1"
        printf "plot_cmd = \""
        i=0
        k=0
        for name in $(awk '/^# / { print $2 }' "$dat"); do
            [ $i -gt 0 ] && printf ", "
            if [ "$name" = vendor ]; then
                printf "DAT index %d using 1:2 with linespoints pt 7 ps 0.6 lc rgb 'black' lw 2 title 'vendor MPI'" $i
            elif [ "$name" = auto ]; then
                printf "DAT index %d using 1:2 with linespoints pt 6 ps 0.8 lc rgb 'gray50' dt 2 title 'InterCom automatic'" $i
            else
                printf "DAT index %d using 1:2 with linespoints pt 7 ps 0.6 lc rgb '%s' title '%s'" $i \
                    "${palette[$((k % ${#palette[@]}))]}" "$name"
                k=$((k + 1))
            fi
            i=$((i + 1))
        done
        echo "\""
        echo "set terminal pngcairo size 1000,650 noenhanced"
        echo "set output '$out/fig5-$op.png'"
        echo "eval 'plot ' . plot_cmd"
        echo "set terminal svg size 1000,650 dynamic noenhanced"
        echo "set output '$out/fig5-$op.svg'"
        echo "eval 'plot ' . plot_cmd"
    } >"$gp"
    gnuplot "$gp"
done
echo "tan-strazdins.sh: done; reports and figures in $out" >&2
[ "$replot" -eq 1 ] || cat "$out/times.txt" >&2
