#!/bin/sh
# table2.sh -- mitra-1995's Table 2 and Figure 3 on the simulated 16 x 32
# Paragon (paragon-16x32.xml), plan by plan, as one markdown table.
#
#   bench/simgrid/table2.sh [--build DIR] [--info PROG] [--output FILE]
#                           [--work DIR] [--reps N] [--model fit|platform]
#                           [--tuned FILE | --tune FILE]
#
#   --build DIR     SMPI build tree of intercom-bench (default:
#                   $IC_SMPI_BUILD or ./build-smpi; see README.md)
#   --info PROG     a native intercom-info (the SMPI tree's cannot run
#                   outside smpirun; default: intercom-info on PATH, else
#                   ./build/intercom-info)
#   --output FILE   the markdown table (default: standard output)
#   --work DIR      keep every run's CSV and log there (default: a
#                   temporary directory, removed at the end)
#   --reps N        timed repetitions per point (default 3, warm-up 1)
#   --model M       the cost model's parameters, for the library's selector
#                   and for the predictions: fit (default) = the alpha, beta,
#                   gamma that intercom-bench fits by ping-pong in the same
#                   run (coll --selector-fit); platform = the platform's
#                   figures, alpha 50 us, beta 1/(175 MB/s), gamma 0
#                   (INTERCOM_ALPHA/_BETA/_GAMMA)
#   --tuned FILE    also the selector's pick under the tuning table FILE
#                   (INTERCOM_TUNING_FILE; the "tuned" rows), e.g. one that
#                   intercom-tune wrote on this platform:
#                     bench/simgrid/run-simgrid.sh --np 512 -- tune \
#                       --type double --ops bcast,allreduce \
#                       --sizes 16,1K,64K,1M --reps 1 -o paragon.tbl
#                   (its rules hold for 512 ranks: the row and the column
#                   fall back to the built-in choice)
#   --tune FILE     first tune the three setups on this platform
#                   (intercom-tune: the torus's broadcast and allreduce, the
#                   row's and the column's broadcast, at the table's sizes,
#                   one call per candidate), write the torus's table with the
#                   row's and the column's rules added to FILE, and use it as
#                   --tuned FILE (the 512-rank tune: about 9 min of one
#                   core; the whole run about 20 min)
#
# Run from the source tree.  Rows: broadcast and allreduce (MPI_DOUBLE,
# MPI_SUM) of 16 B, 1 KiB, 64 KiB, 1 MiB on all 512 nodes, and broadcasts in
# one row (32 ranks on node-0 .. node-31) and one column (16 ranks on
# node-0, node-32, ..., node-480) as in mitra-1995's Figure 3.  For each,
# InterCom's plan of each kind:
#   1d      the best 1-D plan: every registered algorithm of the collective
#           (intercom-info --algorithms), its parameter from the model;
#   2d      the best non-hybrid plan on 16 x 32: one mesh-step algorithm in
#           both dimensions, either dimension first;
#   hybrid  the best mixed plan on 16 x 32: two different mesh-step
#           algorithms, either assignment to the dimensions, either first;
#   auto    the selector's own pick, nothing forced (it may take any shape,
#           3-D included); the plan is the one the run reports;
#   tuned   with --tuned, the selector's pick under that table (the
#           table's own model: no --selector-fit in that run).
# "Best" is the cheapest closed form of `intercom-info predict` (the
# selector's price) with the run's model parameters; 1d, 2d and hybrid
# are then forced with INTERCOM_BCAST_ALGORITHM / _ALLREDUCE_ALGORITHM.
# The row and column broadcasts have the 1d and auto rows only (a line of
# 32 or 16 ranks).  Columns: the plan, its predicted time, its simulated
# time, the simulated times of SMPI's ompi and mpich collective selectors
# (the vendor MPI_ call, from the automatic runs) and the ratios
# vendor / InterCom (> 1: InterCom faster).  Simulated times are medians
# of the slowest rank's time; predictions use --elem 8 (doubles).
# At p = 512 one run takes about a minute: the whole table about 13 (2 cores).
set -eu

here=$(cd "$(dirname "$0")" && pwd -P)
build=${IC_SMPI_BUILD:-./build-smpi}
info=
output=-
work=
reps=3
model=fit
tuned=
tune=
sizes="16 1024 65536 1048576"

usage() {
    awk 'NR > 1 { if (!/^#/) exit; sub(/^# ?/, ""); print }' "$0"
}

while [ $# -gt 0 ]; do
    case $1 in
    --build) build=${2:?}; shift 2 ;;
    --build=*) build=${1#*=}; shift ;;
    --info) info=${2:?}; shift 2 ;;
    --info=*) info=${1#*=}; shift ;;
    --output) output=${2:?}; shift 2 ;;
    --output=*) output=${1#*=}; shift ;;
    --work) work=${2:?}; shift 2 ;;
    --work=*) work=${1#*=}; shift ;;
    --reps) reps=${2:?}; shift 2 ;;
    --reps=*) reps=${1#*=}; shift ;;
    --model) model=${2:?}; shift 2 ;;
    --model=*) model=${1#*=}; shift ;;
    --tuned) tuned=${2:?}; shift 2 ;;
    --tuned=*) tuned=${1#*=}; shift ;;
    --tune) tune=${2:?}; shift 2 ;;
    --tune=*) tune=${1#*=}; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; echo "table2.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
case $model in
fit | platform) ;;
*) echo "table2.sh: --model must be fit or platform" >&2; exit 2 ;;
esac
case $reps in
'' | *[!0-9]* | 0) echo "table2.sh: --reps must be a positive number" >&2; exit 2 ;;
esac
if [ -z "$info" ]; then
    if command -v intercom-info >/dev/null 2>&1; then
        info=intercom-info
    else
        info=./build/intercom-info
    fi
fi
"$info" --version >/dev/null 2>&1 ||
    { echo "table2.sh: '$info' does not run (a native intercom-info: --info)" >&2; exit 2; }
[ -x "$build/bench/intercom-bench" ] ||
    { echo "table2.sh: $build/bench/intercom-bench not found (--build)" >&2; exit 2; }

if [ -n "$tune" ] && [ -n "$tuned" ]; then
    echo "table2.sh: --tune and --tuned exclude each other" >&2
    exit 2
fi
if [ -n "$tuned" ]; then
    [ -r "$tuned" ] || { echo "table2.sh: cannot read --tuned $tuned" >&2; exit 2; }
    "$info" --check "$tuned" >/dev/null 2>&1 ||
        { echo "table2.sh: --tuned $tuned is not a tuning table (intercom-info --check)" >&2; exit 2; }
    tuned=$(cd "$(dirname "$tuned")" && pwd -P)/$(basename "$tuned")
fi
if [ -n "$work" ]; then
    mkdir -p "$work"
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/table2.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    trap 'exit 130' INT TERM
fi
results=$work/results # op np bytes key plan-that-ran intercom-s vendor-s selector
: >"$results"
start=$(date +%s)

say() {
    echo "table2.sh [$(($(date +%s) - start)) s]: $*" >&2
}

# One hostfile per setup: the whole torus, its first row, its first column.
cp "$here/paragon-16x32.hosts" "$work/torus.hosts"
i=0
: >"$work/col.hosts"
while [ $i -lt 16 ]; do
    echo "node-$((i * 32))" >>"$work/col.hosts"
    i=$((i + 1))
done

# --tune: intercom-tune on each setup, the rules of all three in one table
# (the header, with the fitted model, is the torus's; the row's and the
# column's fits are the same network's).
if [ -n "$tune" ]; then
    csizes=$(echo "$sizes" | tr ' ' ,)
    for t in "torus 512 torus.hosts bcast,allreduce" "row 32 torus.hosts bcast" \
        "col 16 col.hosts bcast"; do
        # shellcheck disable=SC2086 # the setup's four words
        set -- $t
        say "tune $1: p=$2 ops=$4 sizes=$csizes"
        if ! "$here/run-simgrid.sh" --build "$build" --np "$2" --hostfile "$work/$3" -- tune \
            --type double --ops "$4" --sizes "$csizes" --reps 1 --warmup 0 \
            -o "$work/tune-$1.tbl" >"$work/tune-$1.txt" 2>&1; then
            echo "table2.sh: tuning $1 failed; see $work/tune-$1.txt" >&2
            exit 1
        fi
    done
    {
        cat "$work/tune-torus.tbl"
        echo "# the row's (32 ranks) and the column's (16 ranks) rules"
        grep -hE '^bcast +(32|16) ' "$work/tune-row.tbl" "$work/tune-col.tbl"
    } >"$tune"
    "$info" --check "$tune" >/dev/null 2>&1 ||
        { echo "table2.sh: the merged table $tune does not check (intercom-info --check)" >&2; exit 1; }
    tuned=$(cd "$(dirname "$tune")" && pwd -P)/$(basename "$tune")
fi

if [ "$model" = platform ]; then
    INTERCOM_ALPHA=5e-05 INTERCOM_BETA=5.71428571e-09 INTERCOM_GAMMA=0
    export INTERCOM_ALPHA INTERCOM_BETA INTERCOM_GAMMA
    fitarg=
else
    fitarg=--selector-fit
fi

# coll_rows FILE: the coll table of an intercom-bench CSV as lines
# "op p bytes vendor intercom algorithm check".
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
    t == "coll" && hdr { n = csv($0, h); for (i = 1; i <= n; i++) col[h[i]] = i; hdr = 0; next }
    t == "coll" && NF {
        csv($0, f)
        print f[col["op"]], f[col["p"]], f[col["bytes"]], f[col["vendor"]], \
              f[col["intercom"]], f[col["algorithm"]], f[col["check"]]
    }' "$1"
}

# bench NAME NP HOSTFILE SELECTOR OPS SIZES [VAR=VALUE]...: one simulated
# run of intercom-bench coll, its CSV in $work/NAME.csv.
bench() {
    _name=$1 _np=$2 _hosts=$3 _sel=$4 _ops=$5 _sz=$6
    shift 6
    say "$_name: p=$_np $_sel ops=$_ops sizes=$_sz $*"
    # shellcheck disable=SC2086 # fitarg is empty or one word
    if ! env "$@" "$here/run-simgrid.sh" --build "$build" --np "$_np" --hostfile "$_hosts" \
        --selector "$_sel" -- coll --ops "$_ops" --sizes "$_sz" --type double \
        --reps "$reps" --warmup 1 $fitarg --csv >"$work/$_name.csv" 2>"$work/$_name.log"; then
        echo "table2.sh: run $_name failed; see $work/$_name.log" >&2
        exit 1
    fi
}

# record NAME KEY: the run's rows into $results under KEY (auto or forced).
record() {
    coll_rows "$work/$1.csv" | while read -r op p bytes vendor ic alg check; do
        [ "$check" = ok ] || echo "table2.sh: $1: $op $bytes B failed its check ($check)" >&2
        echo "$op $p $bytes $2 $alg $ic $vendor $sel" >>"$results"
    done
}

# predict OP NP COUNT PLAN: "closed-form-s canonical-plan", nothing if PLAN
# is not one of OP's plans.
predict() {
    # shellcheck disable=SC2086 # mparams holds separate options
    "$info" predict "$1" "$4" -p "$2" -n "$3" --elem 8 $mparams 2>/dev/null |
        awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^closed_form_s=/) c = substr($i, 15)
               print c, $2 }'
}

# candidates OP KIND: the plans of that kind, one per line (16 x 32).
candidates() {
    case $2 in
    1d) "$info" --algorithms "$1" ;;
    2d)
        for a in $(steps "$1"); do
            echo "16x32:d0=$a,d1=$a"
            echo "16x32:d1=$a,d0=$a"
        done ;;
    hybrid)
        for a in $(steps "$1"); do
            for b in $(steps "$1"); do
                [ "$a" = "$b" ] && continue
                echo "16x32:d0=$a,d1=$b" # a on the columns' lines first
                echo "16x32:d1=$b,d0=$a" # b on the rows' lines first
            done
        done ;;
    esac
}

# steps OP: OP's algorithms that can be a mesh step.
steps() {
    "$info" list | awk -v c="$1" '$1 == c && $4 == "yes" { print $2 }'
}

# best OP NP COUNT KIND: "cost plan" of the cheapest candidate.
best() {
    candidates "$1" "$4" | while read -r plan; do
        predict "$1" "$2" "$3" "$plan"
    done | sort -g | head -n 1
}

# setup TAG NP HOSTFILE OPS KINDS: the automatic runs (ompi, mpich), the
# choice of each kind's plan, the forced runs.
setup() {
    tag=$1 np=$2 hosts=$3 ops=$4 kinds=$5
    csizes=$(echo "$sizes" | tr ' ' ,)
    sel=ompi
    bench "$tag-auto-ompi" "$np" "$hosts" ompi "$ops" "$csizes"
    record "$tag-auto-ompi" auto
    sel=mpich
    bench "$tag-auto-mpich" "$np" "$hosts" mpich "$ops" "$csizes"
    record "$tag-auto-mpich" auto
    if [ -n "$tuned" ]; then
        sel=ompi
        keep=$fitarg
        fitarg=
        bench "$tag-tuned" "$np" "$hosts" ompi "$ops" "$csizes" INTERCOM_TUNING_FILE="$tuned"
        fitarg=$keep
        record "$tag-tuned" tuned
    fi
    if [ "$model" = fit ]; then
        a=$(awk '/^# alpha:/ { print $3 }' "$work/$tag-auto-ompi.csv")
        b=$(awk '/^# beta:/ { print $3 }' "$work/$tag-auto-ompi.csv")
        g=$(awk '/^# gamma:/ { print $3 }' "$work/$tag-auto-ompi.csv")
    else
        a=$INTERCOM_ALPHA b=$INTERCOM_BETA g=$INTERCOM_GAMMA
    fi
    # the pieces of the SMPI build (whole messages), not those of the
    # native intercom-info's defaults: they cap pipelined segments
    pc=$(awk '/^# pieces:/ { print $3 }' "$work/$tag-auto-ompi.csv")
    mparams="--alpha $a --beta $b --gamma $g --chunk ${pc:-0}"
    echo "$tag $np $a $b $g" >>"$work/params"
    sel=ompi
    for s in $sizes; do
        count=$((s / 8))
        for op in $(echo "$ops" | tr , ' '); do
            autoplan=$(awk -v o="$op" -v p="$np" -v s="$s" \
                '$1 == o && $2 == p && $3 == s && $4 == "auto" { print $5; exit }' "$results")
            # shellcheck disable=SC2046 # two words: cost and plan
            set -- $(predict "$op" "$np" "$count" "$autoplan")
            echo "$tag $op $s auto ${1:-?} ${autoplan:-?}" >>"$work/plans"
            if [ -n "$tuned" ]; then
                tplan=$(awk -v o="$op" -v p="$np" -v s="$s" \
                    '$1 == o && $2 == p && $3 == s && $4 == "tuned" { print $5; exit }' "$results")
                # shellcheck disable=SC2046 # two words: cost and plan
                set -- $(predict "$op" "$np" "$count" "$tplan")
                echo "$tag $op $s tuned ${1:-?} ${tplan:-?}" >>"$work/plans"
            fi
            for k in $kinds; do
                # shellcheck disable=SC2046 # two words: cost and plan
                set -- $(best "$op" "$np" "$count" "$k")
                echo "$tag $op $s $k ${1:-?} ${2:-?}" >>"$work/plans"
            done
        done
        # One forced run per kind forces both collectives' plans of that
        # kind; a plan the automatic run already measured is not forced.
        for k in $kinds; do
            fops=''
            fenv=''
            for op in $(echo "$ops" | tr , ' '); do
                plan=$(awk -v t="$tag" -v o="$op" -v s="$s" -v k="$k" \
                    '$1 == t && $2 == o && $3 == s && $4 == k { print $6 }' "$work/plans")
                autoplan=$(awk -v t="$tag" -v o="$op" -v s="$s" \
                    '$1 == t && $2 == o && $3 == s && $4 == "auto" { print $6 }' "$work/plans")
                if [ -z "$plan" ] || [ "$plan" = "?" ]; then continue; fi
                [ "$plan" = "$autoplan" ] && continue
                fops=${fops:+$fops,}$op
                var=INTERCOM_$(echo "$op" | tr '[:lower:]' '[:upper:]')_ALGORITHM
                fenv="$fenv $var=$plan"
            done
            [ -n "$fops" ] || continue
            # shellcheck disable=SC2086 # fenv holds VAR=plan words, no blanks
            bench "$tag-$k-$s" "$np" "$hosts" ompi "$fops" "$s" $fenv
            for op in $(echo "$fops" | tr , ' '); do
                plan=$(awk -v t="$tag" -v o="$op" -v s="$s" -v k="$k" \
                    '$1 == t && $2 == o && $3 == s && $4 == k { print $6 }' "$work/plans")
                coll_rows "$work/$tag-$k-$s.csv" | awk -v o="$op" -v f="$plan" \
                    -v p="$np" '$1 == o { print o, p, $3, "forced:" f, $6, $5, $4, "ompi" }' \
                    >>"$results"
            done
        done
    done
}

: >"$work/plans" # tag op bytes kind predicted-s plan
: >"$work/params"
setup torus 512 "$work/torus.hosts" bcast,allreduce "1d 2d hybrid"
setup row 32 "$work/torus.hosts" bcast 1d
setup col 16 "$work/col.hosts" bcast 1d
say "all runs done"

# ---------------------------------------------------------------- table
commit=$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$here" diff --quiet HEAD 2>/dev/null || commit="$commit (modified)"
smpi=$(awk '/^# MPI:/ { sub(/^# MPI: /, ""); print; exit }' "$work/torus-auto-ompi.csv")
{
    echo "Simulated $(date -u +%Y-%m-%d), commit $commit, $smpi, paragon-16x32.xml"
    echo "(16 x 32 torus, 175 MB/s, 50 us links), one rank per node; MPI_DOUBLE, MPI_SUM;"
    echo "medians of $reps repetitions after 1 warm-up; times in ms."
    if [ "$model" = fit ]; then
        echo "Model parameters: fitted by intercom-bench's ping-pong (rank 0 to the last rank)"
        echo "in each automatic run, used by the library's selector (--selector-fit) and by"
        echo "the predictions:"
    else
        echo "Model parameters: the platform's figures, used by the library's selector and"
        echo "by the predictions:"
    fi
    echo
    awk '{ printf "- %s (p = %d): alpha = %.4g s, beta = %.4g s/B (%.1f MB/s), gamma = %.3g s/B\n",
           $1, $2, $3, $4, ($4 > 0 ? 1e-6 / $4 : 0), $5 }' "$work/params"
    echo
    echo "| op | p | bytes | kind | plan | predicted | simulated | ompi | mpich | ompi/IC | mpich/IC |"
    echo "|---|---:|---:|---|---|---:|---:|---:|---:|---:|---:|"
    awk -v res="$results" '
    BEGIN {
        while ((getline l < res) > 0) {
            split(l, f, " ")
            key = f[1] SUBSEP f[2] SUBSEP f[3]
            if (f[4] == "auto") {
                vend[key, f[8]] = f[7]
                if (f[8] == "ompi") { ran[key, "auto"] = f[5]; ic[key, "auto"] = f[6] }
            } else {
                ran[key, f[4]] = f[5]; ic[key, f[4]] = f[6]
            }
        }
        np["torus"] = 512; np["row"] = 32; np["col"] = 16
        where["torus"] = ""; where["row"] = " (row)"; where["col"] = " (column)"
    }
    function ms(x) { return x == "" || x == "?" ? "?" : sprintf("%.3f", 1e3 * x) }
    function ratio(v, t) { return v == "" || t == "" || t == 0 ? "?" : sprintf("%.2f", v / t) }
    {
        tag = $1; op = $2; bytes = $3; kind = $4; pred = $5; plan = $6
        key = op SUBSEP np[tag] SUBSEP bytes
        k = kind == "auto" || kind == "tuned" ? kind : "forced:" plan
        if (k != kind && !((key, k) in ic)) k = "auto" # the automatic run had it
        t = ic[key, k]
        shown = plan
        if (k != "auto" && k != "tuned" && ran[key, k] != plan) shown = plan " (ran " ran[key, k] ")"
        vo = vend[key, "ompi"]; vm = vend[key, "mpich"]
        printf "| %s%s | %d | %d | %s | `%s` | %s | %s | %s | %s | %s | %s |\n",
            op, where[tag], np[tag], bytes, kind, shown, ms(pred), ms(t), ms(vo), ms(vm),
            ratio(vo, t), ratio(vm, t)
    }' "$work/plans"
} >"$work/table.md"
if [ "$output" = - ]; then
    cat "$work/table.md"
else
    cp "$work/table.md" "$output"
fi
say "done"
