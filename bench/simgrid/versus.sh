#!/bin/sh
# versus.sh -- InterCom against every vendor variant SMPI has, on one of the
# platforms of bench/simgrid: SMPI's collective selectors and each of its
# algorithms for the collective, forced one at a time.
#
#   bench/simgrid/versus.sh [--platform NAME] [--np P] [--ops LIST]
#                           [--sizes LIST] [--build DIR] [--output PREFIX]
#                           [--reps N] [--selectors LIST] [--algorithms LIST]
#                           [--work DIR] [--timeout S] [--hostfile FILE]
#
#   --platform NAME  paragon-16x32 (default), bunyip-4x24, modern-64x8 or
#                    cluster-16 (run-simgrid.sh --help)
#   --np P           ranks (default: the whole platform), the first P lines
#                    of the platform's hostfile
#   --ops LIST       collectives, as intercom-bench names them (default
#                    bcast,allreduce,allgather,reduce_scatter_block)
#   --sizes LIST     message sizes in bytes, K and M allowed (default
#                    8,1K,64K,1M); intercom-bench rounds some up (an
#                    allgather needs p elements), the table shows its bytes
#   --build DIR      the SMPI build tree (default: $IC_SMPI_BUILD or
#                    ./build-smpi; see README.md)
#   --output PREFIX  PREFIX.md gets the tables (also on standard output);
#                    per collective PREFIX-OP.dat (times of every variant),
#                    PREFIX-OP.gp and, with gnuplot, PREFIX-OP.png and .svg
#                    (default: versus-NAME-pP in the current directory)
#   --reps N         timed repetitions per size (default 3; warm-up 1)
#   --selectors LIST the selectors run (default ompi,mpich,mvapich2; also
#                    impi, default)
#   --algorithms LIST  only these of SMPI's algorithms (names it does not
#                    have for a collective are skipped); none: selectors only
#   --work DIR       keep every run's CSV and log there (default: a
#                    temporary directory, removed at the end)
#   --timeout S      give up a run after S seconds (default 600)
#   --hostfile FILE  the ranks' hosts, one per line (default: the
#                    platform's; e.g. one rank on each of the modern
#                    cluster's first 64 nodes: awk 'NR % 8 == 1'
#                    bench/simgrid/modern-64x8.hosts)
#
# Run from anywhere.  For each collective OP: one run of `intercom-bench
# coll --ops OP --sizes LIST --reps N --warmup 1 --csv` (run-simgrid.sh) per
# variant: each selector (--selector SEL), then each algorithm SMPI has for
# the collective, forced with --cfg=smpi/CFG:NAME under the ompi selector
# (ompi for every other collective).  CFG is OP, except reduce_scatter_block
# (SMPI runs MPI_Reduce_scatter_block with its reduce_scatter algorithms);
# scatterv and gatherv have no algorithm choice in SMPI (selectors only).
# The algorithms are the names SMPI itself lists for an unknown one, less
# automatic (it times every algorithm inside the run) and the selectors'
# entries (default, ompi, mpich, mvapich2, impi).  A variant that fails
# (exit status, timeout) is left out and listed with the reason, and so is
# a row whose result differs from InterCom's (intercom-bench compares every
# result, byte for byte).  A forced algorithm also serves intercom-bench's
# own few calls of that collective (one-element MPI_Allreduce, MPI_Bcast):
# where it breaks those, that run may lack the bound.  About 3 + 19 runs
# for bcast, 3 + 16 for allreduce and allgather, 3 + 6 for
# reduce_scatter_block; SMPI 3.32 crashes on some algorithms at some p.
#
# Every run measures InterCom too, and its time is not always the same:
# the algorithm and the network are, but the barrier before each call is
# the selector's (and messages of the vendor's call may still be in
# flight); at a few microseconds that can matter (a factor 2.5 at 8 B on
# modern-64x8).
# The tables give InterCom's time in the first selector's run and divide
# each vendor time by InterCom's time of the same run (> 1: InterCom
# faster); where InterCom's times differ by more than 1 % between runs, a
# note says by how much.  Columns: bytes, InterCom's time and plan, the
# lower bound (intercom-bench's alpha-beta bound, when it gives one), each
# selector's time, the fastest forced algorithm and its time, then the
# ratios: fastest vendor variant of all / InterCom, each selector /
# InterCom.  Then the time of every variant at every size.  Times in us.
set -eu

here=$(cd "$(dirname "$0")" && pwd -P)
platform=paragon-16x32
np=
ops=bcast,allreduce,allgather,reduce_scatter_block
sizes=8,1K,64K,1M
build=${IC_SMPI_BUILD:-./build-smpi}
output=
reps=3
selectors=ompi,mpich,mvapich2
algorithms=
work=
limit=600
hostfile=

usage() {
    awk 'NR > 1 { if (!/^#/) exit; sub(/^# ?/, ""); print }' "$0"
}

while [ $# -gt 0 ]; do
    case $1 in
    --platform) platform=${2:?}; shift 2 ;;
    --platform=*) platform=${1#*=}; shift ;;
    --np) np=${2:?}; shift 2 ;;
    --np=*) np=${1#*=}; shift ;;
    --ops) ops=${2:?}; shift 2 ;;
    --ops=*) ops=${1#*=}; shift ;;
    --sizes) sizes=${2:?}; shift 2 ;;
    --sizes=*) sizes=${1#*=}; shift ;;
    --build) build=${2:?}; shift 2 ;;
    --build=*) build=${1#*=}; shift ;;
    --output) output=${2:?}; shift 2 ;;
    --output=*) output=${1#*=}; shift ;;
    --reps) reps=${2:?}; shift 2 ;;
    --reps=*) reps=${1#*=}; shift ;;
    --selectors) selectors=${2:?}; shift 2 ;;
    --selectors=*) selectors=${1#*=}; shift ;;
    --algorithms) algorithms=${2:?}; shift 2 ;;
    --algorithms=*) algorithms=${1#*=}; shift ;;
    --work) work=${2:?}; shift 2 ;;
    --work=*) work=${1#*=}; shift ;;
    --timeout) limit=${2:?}; shift 2 ;;
    --timeout=*) limit=${1#*=}; shift ;;
    --hostfile) hostfile=${2:?}; shift 2 ;;
    --hostfile=*) hostfile=${1#*=}; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; echo "versus.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
case $platform in
paragon-16x32 | bunyip-4x24 | modern-64x8 | cluster-16) ;;
*)
    echo "versus.sh: --platform must be paragon-16x32, bunyip-4x24, modern-64x8 or cluster-16" >&2
    exit 2 ;;
esac
if [ -n "$hostfile" ]; then
    [ -r "$hostfile" ] || { echo "versus.sh: cannot read --hostfile $hostfile" >&2; exit 2; }
    hostfile=$(cd "$(dirname "$hostfile")" && pwd -P)/$(basename "$hostfile")
fi
[ -n "$np" ] || np=$(grep -c . "${hostfile:-$here/$platform.hosts}")
case $np in
'' | *[!0-9]* | 0) echo "versus.sh: --np must be a positive number" >&2; exit 2 ;;
esac
case $reps in
'' | *[!0-9]* | 0) echo "versus.sh: --reps must be a positive number" >&2; exit 2 ;;
esac
case $limit in
'' | *[!0-9]* | 0) echo "versus.sh: --timeout must be a positive number of seconds" >&2; exit 2 ;;
esac
case $sizes in
'' | *[!0-9A-Za-z,]*) echo "versus.sh: --sizes must be a comma-separated list of byte counts (K, M allowed)" >&2; exit 2 ;;
esac
for s in $(echo "$selectors" | tr , ' '); do
    case $s in
    ompi | mpich | mvapich2 | impi | default) ;;
    *) echo "versus.sh: unknown selector '$s' (ompi, mpich, mvapich2, impi, default)" >&2; exit 2 ;;
    esac
done
[ -n "$selectors" ] || { echo "versus.sh: --selectors is empty" >&2; exit 2; }
[ -x "$build/bench/intercom-bench" ] ||
    { echo "versus.sh: $build/bench/intercom-bench not found (--build; see README.md)" >&2; exit 2; }
command -v smpirun >/dev/null 2>&1 || { echo "versus.sh: smpirun not found" >&2; exit 2; }
[ -n "$output" ] || output=versus-$platform-p$np
mkdir -p "$(dirname "$output")"
timeout_cmd=
command -v timeout >/dev/null 2>&1 && timeout_cmd="timeout -k 10 $limit"

if [ -n "$work" ]; then
    mkdir -p "$work"
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/versus.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    trap 'exit 130' INT TERM
fi
results=$work/results # op kind name bytes vendor intercom bound plan check, tab-separated
status=$work/status   # op kind name status seconds reason, tab-separated
: >"$results"
: >"$status"
start=$(date +%s)

say() {
    echo "versus.sh [$(($(date +%s) - start)) s]: $*" >&2
}

# cfg_of OP: SMPI's configuration name of OP's algorithm, empty if none.
cfg_of() {
    case $1 in
    reduce_scatter_block | reduce_scatter) echo reduce_scatter ;;
    bcast | reduce | allreduce | allgather | allgatherv | scatter | gather | barrier) echo "$1" ;;
    *) echo "" ;;
    esac
}

# smpi_algorithms CFG: SMPI's algorithms for smpi/CFG, one per line, as
# SMPI lists them when asked for one it does not have (the run stops there).
smpi_algorithms() {
    "$here/run-simgrid.sh" --platform "$platform" --build "$build" --np 1 \
        --smpirun-arg "--cfg=smpi/$1:no-such-algorithm" -- pingpong \
        >"$work/list-$1.log" 2>&1 || :
    sed -n "s/.*has no algorithm 'no-such-algorithm'! Valid algorithms: //p" "$work/list-$1.log" |
        tr -d ' .' | tr , '\n' | grep -v -x -e automatic -e default -e ompi -e mpich \
        -e mvapich2 -e impi || :
}

# coll_rows FILE: the coll table of an intercom-bench CSV as tab-separated
# "bytes vendor intercom bound plan check" (bound empty if there is none).
coll_rows() {
    awk '
    function csv(line, f,   n, c, i, q, cur) {
        n = 0; cur = ""; q = 0
        for (i = 1; i <= length(line); i++) {
            c = substr(line, i, 1)
            if (q) { if (c == "\"") q = 0; else cur = cur c }
            else if (c == "\"") q = 1
            else if (c == ",") { f[++n] = cur; cur = "" }
            else cur = cur c
        }
        f[++n] = cur
        return n
    }
    /^# table: / { t = $3; hdr = 1; next }
    t == "coll" && hdr { nh = csv($0, h); for (i = 1; i <= nh; i++) col[h[i]] = i; hdr = 0; next }
    t == "coll" && NF {
        split("", f)
        if (csv($0, f) != nh) next # not a row (smpirun adds lines of its own)
        printf "%s\t%s\t%s\t%s\t%s\t%s\n", f[col["bytes"]], f[col["vendor"]], f[col["intercom"]],
            ("bound" in col) ? f[col["bound"]] : "", f[col["algorithm"]], f[col["check"]]
    }' "$1"
}

# reason LOG: a short reason for a failed run, from its log: SMPI's own
# message, else the C library's or the signal's.
reason() {
    { grep 'CRITICAL' "$1" || grep -E 'corrupt|violation|Segmentation|Assertion|rror|Abort' "$1"; } \
        2>/dev/null | head -n 1 | sed 's/^\[[^]]*\] *//; s/^[^ ]*:[0-9]*: //; s/\.$//' | cut -c1-160 |
        tr '\t|' '  '
}

# variant OP KIND NAME: one run (KIND sel: selector NAME; alg: SMPI
# algorithm NAME forced for OP, selector ompi otherwise), recorded.
variant() {
    _op=$1 _kind=$2 _name=$3
    _base=$work/$_op-$_kind-$_name
    if [ "$_kind" = sel ]; then
        set -- --selector "$_name"
    else
        set -- --selector ompi --smpirun-arg "--cfg=smpi/$(cfg_of "$_op"):$_name"
    fi
    _t0=$(date +%s)
    _rc=0
    # shellcheck disable=SC2086 # timeout_cmd is empty or a command and its options
    $timeout_cmd "$here/run-simgrid.sh" --platform "$platform" --build "$build" --np "$np" \
        ${hostfile:+--hostfile "$hostfile"} "$@" \
        -- coll --ops "$_op" --sizes "$sizes" --reps "$reps" --warmup 1 --csv \
        >"$_base.csv" 2>"$_base.log" </dev/null || _rc=$?
    _dt=$(($(date +%s) - _t0))
    coll_rows "$_base.csv" >"$_base.rows"
    # A run that printed its table finished (intercom-bench exits 1 when a
    # result differs from InterCom's: the row says which).
    if [ "$_rc" -eq 124 ] || [ "$_rc" -eq 137 ]; then
        _st=failed _why="timeout after $limit s"
    elif [ ! -s "$_base.rows" ] && [ "$_rc" -ne 0 ]; then
        _st=failed _why="exit status $_rc: $(reason "$_base.log")"
    elif [ ! -s "$_base.rows" ]; then
        _st=failed _why="no coll table in the output"
    else
        _st=ok _why=
        _bad=$(awk -F'\t' '$6 != "ok" && $6 != "shared" { printf "%s%s B (%s)", n++ ? ", " : "", $1, $6 }' "$_base.rows")
        [ -z "$_bad" ] || _why="result differs from InterCom's at $_bad"
    fi
    say "$_op $_kind $_name: $_st in $_dt s${_why:+ ($_why)}"
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$_op" "$_kind" "$_name" "$_st" "$_dt" "$_why" >>"$status"
    [ "$_st" = ok ] || return 0
    awk -F'\t' -v OFS='\t' -v o="$_op" -v k="$_kind" -v n="$_name" \
        '{ print o, k, n, $1, $2, $3, $4, $5, $6 }' "$_base.rows" >>"$results"
}

for op in $(echo "$ops" | tr , ' '); do
    cfg=$(cfg_of "$op")
    for s in $(echo "$selectors" | tr , ' '); do
        variant "$op" sel "$s"
    done
    [ -n "$cfg" ] || continue
    [ "$algorithms" != none ] || continue
    smpi_algorithms "$cfg" >"$work/$op.algorithms"
    if [ ! -s "$work/$op.algorithms" ]; then
        echo "versus.sh: SMPI listed no algorithms for smpi/$cfg; see $work/list-$cfg.log" >&2
        printf '%s\tlist\tsmpi/%s\tfailed\t0\tSMPI listed no algorithms\n' "$op" "$cfg" >>"$status"
        continue
    fi
    say "$op: SMPI's smpi/$cfg algorithms: $(tr '\n' ' ' <"$work/$op.algorithms")"
    while read -r a; do
        if [ -n "$algorithms" ]; then
            case ,$algorithms, in
            *",$a,"*) ;;
            *) continue ;;
            esac
        fi
        variant "$op" alg "$a"
    done <"$work/$op.algorithms"
done
say "all runs done"

# ---------------------------------------------------------------- report
commit=$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$here" diff --quiet HEAD 2>/dev/null || commit="$commit (modified)"
smpi=$(awk '/^# MPI:/ { sub(/^# MPI: /, ""); print; exit }' "$work"/*-sel-*.csv 2>/dev/null || :)
label=$(awk '/^# run:/ { sub(/^# run: /, ""); sub(/, vendor = .*/, ""); print; exit }' \
    "$work"/*-sel-*.csv 2>/dev/null || :)
first_sel=$(echo "$selectors" | cut -d, -f1)
{
    echo "# InterCom against SMPI's collectives: $platform, p = $np${hostfile:+ (hosts: $(basename "$hostfile"))}"
    echo
    echo "Simulated $(date -u +%Y-%m-%d), commit $commit, ${smpi:-SMPI}; ${label:-$platform}."
    echo "intercom-bench coll, medians of $reps repetition(s) after 1 warm-up; times in us."
    echo "InterCom: its automatic choice (plan), time in the $first_sel run; ratios: vendor time"
    echo "/ InterCom's time in the same run (> 1: InterCom faster); best: the fastest of all"
    echo "vendor variants (selectors and forced algorithms) at that size."
    _sh=$(awk -F'\t' '$9 == "shared" && !s[$1 " " $4]++ { printf "%s%s %s B", n++ ? ", " : "", $1, $4 }' \
        "$results" 2>/dev/null || :)
    [ -z "$_sh" ] || echo "Results not compared (buffers from SMPI's shared malloc, bench/README.md): $_sh."
    for op in $(echo "$ops" | tr , ' '); do
        cfg=$(cfg_of "$op")
        echo
        echo "## $op"
        echo
        if [ -z "$cfg" ]; then
            echo "SMPI has no algorithm choice for $op: selectors only."
        elif [ "$algorithms" = none ]; then
            echo "Selectors only (--algorithms none)."
        elif [ -s "$work/$op.algorithms" ]; then
            all=$(grep -c . "$work/$op.algorithms")
            ran=$(awk -F'\t' -v o="$op" '$1 == o && $2 == "alg" { printf "%s%s", n++ ? ", " : "", $3 }' "$status")
            echo "SMPI's $all algorithms for smpi/$cfg:" \
                "$(tr '\n' ' ' <"$work/$op.algorithms" | sed 's/ $//; s/ /, /g')."
            if [ -n "$algorithms" ]; then
                echo "Forced with --cfg=smpi/$cfg:NAME (--algorithms): ${ran:-none}."
            else
                echo "Each forced with --cfg=smpi/$cfg:NAME."
            fi
        fi
        echo
        awk -F'\t' -v o="$op" -v sels="$selectors" -v res="$results" -v first="$first_sel" '
        function us(x) {
            if (x == "") return "-"
            x *= 1e6
            return sprintf(x >= 100 ? "%.0f" : x >= 10 ? "%.1f" : x >= 1 ? "%.2f" : "%.3f", x)
        }
        function ratio(v, t) { return (v == "" || t == "" || t == 0) ? "-" : sprintf("%.2f", v / t) }
        function name(k) { return (k ~ /^sel:/ ? "selector " : "") substr(k, 5) }
        BEGIN {
            ns = split(sels, sel, ",")
            while ((getline l < res) > 0) {
                split(l, f, "\t")
                if (f[1] != o || (f[9] != "ok" && f[9] != "shared")) continue
                b = f[4]; k = f[2] ":" f[3]
                if (!(b in seen)) { seen[b] = 1; bytes[++nb] = b }
                if (!(k in vseen)) { vseen[k] = 1; var[++nv] = k }
                v[k, b] = f[5]; ic[k, b] = f[6]
                if (!(b in icmin) || f[6] + 0 < icmin[b]) { icmin[b] = f[6] + 0; kmin[b] = k }
                if (!(b in icmax) || f[6] + 0 > icmax[b]) { icmax[b] = f[6] + 0; kmax[b] = k }
                if (!(b in ref) || k == "sel:" first) {
                    ref[b] = f[6]; plan[b] = f[8]
                    if (f[7] != "") bound[b] = f[7]
                }
            }
            if (nb == 0) { print "No successful run."; exit }
            hb = 0
            for (i = 1; i <= nb; i++) if (bytes[i] in bound) hb = 1
            h = "| bytes | InterCom | plan |" (hb ? " bound |" : "")
            d = "|---:|---:|---|" (hb ? "---:|" : "")
            for (s = 1; s <= ns; s++) { h = h " " sel[s] " |"; d = d "---:|" }
            h = h " fastest algorithm | its time | best/IC |"; d = d "---|---:|---:|"
            for (s = 1; s <= ns; s++) { h = h " " sel[s] "/IC |"; d = d "---:|" }
            print h; print d
            for (i = 1; i <= nb; i++) {
                b = bytes[i]
                line = "| " b " | " us(ref[b]) " | `" plan[b] "` |" (hb ? " " us(bound[b]) " |" : "")
                for (s = 1; s <= ns; s++) line = line " " us(v["sel:" sel[s], b]) " |"
                fa = ""; bk = ""
                for (j = 1; j <= nv; j++) {
                    k = var[j]
                    if (!((k, b) in v)) continue
                    if (k ~ /^alg:/ && (fa == "" || v[k, b] + 0 < v[fa, b] + 0)) fa = k
                    if (bk == "" || v[k, b] + 0 < v[bk, b] + 0) bk = k
                }
                if (fa != "") line = line " `" substr(fa, 5) "` | " us(v[fa, b]) " |"
                else line = line " - | - |"
                line = line " " (bk == "" ? "-" : ratio(v[bk, b], ic[bk, b])) " |"
                for (s = 1; s <= ns; s++) {
                    k = "sel:" sel[s]
                    line = line " " (((k, b) in v) ? ratio(v[k, b], ic[k, b]) : "-") " |"
                }
                print line
            }
            for (i = 1; i <= nb; i++) {
                b = bytes[i]
                if (icmin[b] > 0 && icmax[b] / icmin[b] > 1.01)
                    notes = notes sprintf("%s %s B: %s us (%s) to %s us (%s)", notes == "" ? "" : ";",
                                          b, us(icmin[b]), name(kmin[b]), us(icmax[b]), name(kmax[b]))
            }
            if (notes != "") {
                print ""
                print "InterCom'"'"'s time differs between the runs (the run with the fastest and the slowest)"
                print "at" notes "."
            }
            # every variant at every size
            print ""
            h = "| variant |"; d = "|---|"
            for (i = 1; i <= nb; i++) { h = h " " bytes[i] " B |"; d = d "---:|" }
            print h; print d
            line = "| InterCom |"
            for (i = 1; i <= nb; i++) line = line " " us(ref[bytes[i]]) " |"
            print line
            for (j = 1; j <= nv; j++) {
                k = var[j]
                line = "| " (k ~ /^sel:/ ? "selector " substr(k, 5) : "`" substr(k, 5) "`") " |"
                for (i = 1; i <= nb; i++) line = line " " us(v[k, bytes[i]]) " |"
                print line
            }
        }' /dev/null
        awk -F'\t' -v o="$op" '$1 == o && $6 != "" {
            if (!n++) print "\nLeft out:\n"
            printf "- %s `%s`: %s%s\n", ($2 == "sel" ? "selector" : $2 == "alg" ? "algorithm" : $2), $3,
                ($4 == "ok" ? "the rows where the " : ""), $6
        }' "$status"
    done
} >"$work/report.md"

# ---------------------------------------------------------------- plots
plots=
for op in $(echo "$ops" | tr , ' '); do
    dat=$output-$op.dat
    gp=$output-$op.gp
    awk -F'\t' -v o="$op" -v res="$results" -v first="$first_sel" -v gp="$gp" -v dat="$dat" \
        -v png="$output-$op.png" -v svg="$output-$op.svg" -v title="$op, p = $np, $platform (SimGrid SMPI)" '
    BEGIN {
        while ((getline l < res) > 0) {
            split(l, f, "\t")
            if (f[1] != o || (f[9] != "ok" && f[9] != "shared")) continue
            b = f[4]; k = f[2] ":" f[3]
            if (!(b in seen)) { seen[b] = 1; bytes[++nb] = b }
            if (!(k in vseen)) { vseen[k] = 1; var[++nv] = k }
            v[k, b] = f[5]
            if (!(b in ref) || k == "sel:" first) {
                ref[b] = f[6]
                if (f[7] != "") { bound[b] = f[7]; hb = 1 }
            }
        }
        for (i = 1; i <= nb; i++) if (bytes[i] > 0) npos++
        if (npos < 2) exit 1 # nothing to draw on log axes (a barrier, one size)
        printf "# bytes InterCom%s", hb ? " bound" : "" >dat
        for (j = 1; j <= nv; j++) printf " %s", var[j] >dat
        printf "\n" >dat
        for (i = 1; i <= nb; i++) {
            b = bytes[i]
            printf "%s %.6g", b, ref[b] * 1e6 >dat
            if (hb) printf " %s", (b in bound) ? sprintf("%.6g", bound[b] * 1e6) : "?" >dat
            for (j = 1; j <= nv; j++)
                printf " %s", ((var[j], b) in v) ? sprintf("%.6g", v[var[j], b] * 1e6) : "?" >dat
            printf "\n" >dat
        }
        close(dat)
        q = sprintf("%c", 39)
        print "# gnuplot script written by versus.sh; data: " dat >gp
        print "set datafile missing \"?\"" >gp
        print "set logscale xy" >gp
        print "set format x \"%.0s%cB\"" >gp
        print "set xlabel \"bytes\"" >gp
        print "set ylabel \"time (us)\"" >gp
        print "set title \"" title "\" noenhanced" >gp
        print "set key outside right top noenhanced" >gp
        print "set grid" >gp
        c = "plot \"" dat "\" using 1:2 with linespoints lw 3 pt 7 lc rgb \"black\" title \"InterCom\""
        col = 3
        if (hb) c = c sprintf(", \"\" using 1:%d with lines dt 3 lw 2 lc rgb \"gray40\" title \"bound\"", col++)
        for (j = 1; j <= nv; j++) {
            k = var[j]
            if (k ~ /^sel:/)
                c = c sprintf(", \"\" using 1:%d with linespoints lw 2 pt 5 title \"selector %s\"", col++, substr(k, 5))
            else
                c = c sprintf(", \"\" using 1:%d with linespoints lw 1 dt 2 pt %d title \"%s\"", col++, j % 12 + 1, substr(k, 5))
        }
        print "if (strstrt(GPVAL_TERMINALS, " q "pngcairo" q ") > 0) {" >gp
        print "    set terminal pngcairo size 1100,700 noenhanced" >gp
        print "} else {" >gp
        print "    set terminal png size 1100,700" >gp
        print "}" >gp
        print "set output \"" png "\"" >gp
        print c >gp
        print "set output" >gp
        print "set terminal svg size 1100,700 dynamic noenhanced" >gp
        print "set output \"" svg "\"" >gp
        print "replot" >gp
        print "set output" >gp
    }' /dev/null || continue
    if command -v gnuplot >/dev/null 2>&1; then
        if gnuplot "$gp" >"$work/$op-gnuplot.log" 2>&1; then
            plots="$plots $output-$op.png $output-$op.svg"
        else
            echo "versus.sh: gnuplot failed on $gp: $(head -n 3 "$work/$op-gnuplot.log")" >&2
        fi
    fi
done
{
    echo
    if command -v gnuplot >/dev/null 2>&1; then
        echo "Plots (time against size, every variant):${plots:- none}."
    else
        echo "No plots: gnuplot is not installed (the data: $output-OP.dat, the scripts: $output-OP.gp)."
    fi
} >>"$work/report.md"
cp "$work/report.md" "$output.md"
cat "$work/report.md"
say "done: $output.md"
