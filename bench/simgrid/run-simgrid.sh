#!/bin/sh
# run-simgrid.sh -- run intercom-bench under SimGrid SMPI on one of the
# platforms of bench/simgrid (README.md there describes them).
#
#   bench/simgrid/run-simgrid.sh [--platform NAME] [--np P] [--selector SEL]
#                                [--build DIR] [--hostfile FILE]
#                                [--smpirun-arg ARG]... -- SUBCOMMAND [ARGS...]
#
#   --platform NAME the platform, NAME.xml with its hostfile NAME.hosts:
#                   paragon-16x32  (default) 16 x 32 Paragon torus, 512
#                                  nodes, 175 MB/s, 50 us; one rank per node
#                   bunyip-4x24    Bunyip-like Beowulf, 4 groups of 24 nodes,
#                                  three 100 Mbit/s NICs per node, one switch
#                                  per pair of groups; one rank per node
#                   modern-64x8    64 nodes x 8 ranks, two-level fat tree,
#                                  100 Gbit/s; ranks 0-7 on node 0, ...
#                   cluster-16     16 hosts on one switch, 1 Gbit/s
#   --np P          ranks (default: all the hostfile lists: 512, 96, 512,
#                   16), the first P lines of the hostfile
#   --hostfile FILE the hosts of the ranks, one per line, rank i on line i+1
#                   (default NAME.hosts); e.g. node-0, node-32, ...,
#                   node-480 with --np 16 puts the ranks on one column of
#                   the Paragon torus
#   --selector SEL  SMPI's collective selector, the vendor baseline the
#                   MPI_ calls use: ompi (Open MPI's decision logic, default),
#                   mpich, mvapich2, impi, or default (SMPI's own)
#   --smpirun-arg ARG  one more smpirun argument (repeatable; no blanks),
#                   e.g. --cfg=smpi/bcast:binomial_tree forces that algorithm
#                   for MPI_Bcast (the label then names it)
#   --build DIR     the SMPI build tree (default: $IC_SMPI_BUILD or
#                   ./build-smpi); intercom-bench is DIR/bench/intercom-bench
#
# The build: in its own directory,
#   SMPI_PRETEND_CC=1 /path/to/configure CC=smpicc LD=ld --disable-shared --without-hwloc
#   make
# Simulated times are deterministic (computation is not simulated:
# smpi/simulate-computation:no), so few repetitions suffice, e.g.
#   bench/simgrid/run-simgrid.sh --np 512 -- coll --table2 --reps 3 --warmup 1
#   bench/simgrid/run-simgrid.sh --platform bunyip-4x24 --np 24 -- coll --ops allgather
set -eu

here=$(cd "$(dirname "$0")" && pwd -P)
platform=paragon-16x32
np=
selector=ompi
build=${IC_SMPI_BUILD:-./build-smpi}
hostfile=
extra=

usage() {
    awk 'NR > 1 { if (!/^#/) exit; sub(/^# ?/, ""); print }' "$0"
}

while [ $# -gt 0 ]; do
    case $1 in
    --platform) platform=${2:?}; shift 2 ;;
    --platform=*) platform=${1#*=}; shift ;;
    --np) np=${2:?}; shift 2 ;;
    --np=*) np=${1#*=}; shift ;;
    --selector) selector=${2:?}; shift 2 ;;
    --selector=*) selector=${1#*=}; shift ;;
    --build) build=${2:?}; shift 2 ;;
    --build=*) build=${1#*=}; shift ;;
    --hostfile) hostfile=${2:?}; shift 2 ;;
    --hostfile=*) hostfile=${1#*=}; shift ;;
    --smpirun-arg) extra="$extra ${2:?}"; shift 2 ;;
    --smpirun-arg=*) extra="$extra ${1#*=}"; shift ;;
    -h | --help) usage; exit 0 ;;
    --) shift; break ;;
    *) usage >&2; echo "run-simgrid.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
[ $# -gt 0 ] || { usage >&2; echo "run-simgrid.sh: no subcommand (after --)" >&2; exit 2; }
case $platform in
paragon-16x32) what="16 x 32 Paragon torus (175 MB/s, 50 us)" ;;
bunyip-4x24) what="Bunyip-like 4 x 24 cluster (3 x 100 Mbit/s NICs per node, a switch per pair of groups)" ;;
modern-64x8) what="64 x 8-rank nodes, 2-level fat tree (100 Gbit/s, 0.25 us links; 20 GB/s within a node)" ;;
cluster-16) what="16-host switched cluster (1 Gbit/s, 15 us)" ;;
*)
    echo "run-simgrid.sh: --platform must be paragon-16x32, bunyip-4x24, modern-64x8 or cluster-16" >&2
    exit 2 ;;
esac
xml=$here/$platform.xml
[ -n "$hostfile" ] || hostfile=$here/$platform.hosts
case $selector in
ompi | mpich | mvapich2 | impi | default) ;;
*) echo "run-simgrid.sh: --selector must be ompi, mpich, mvapich2, impi or default" >&2; exit 2 ;;
esac
[ -r "$hostfile" ] || { echo "run-simgrid.sh: cannot read hostfile '$hostfile'" >&2; exit 2; }
nhosts=$(grep -c . "$hostfile") || nhosts=0
[ -n "$np" ] || np=$nhosts
case $np in
'' | *[!0-9]*) echo "run-simgrid.sh: --np must be a number" >&2; exit 2 ;;
esac
if [ "$np" -lt 1 ]; then
    echo "run-simgrid.sh: --np must be at least 1" >&2
    exit 2
fi
if [ "$nhosts" -lt "$np" ]; then
    echo "run-simgrid.sh: $hostfile lists $nhosts hosts, fewer than --np $np" >&2
    exit 2
fi
prog=$build/bench/intercom-bench
if [ ! -x "$prog" ]; then
    echo "run-simgrid.sh: $prog not found: build with smpicc first (see --help)" >&2
    exit 2
fi
command -v smpirun >/dev/null 2>&1 || { echo "run-simgrid.sh: smpirun not found" >&2; exit 2; }

# The label goes through the environment: smpirun splits arguments at blanks
# (so the benchmark's own arguments must not contain any).  Collectives
# forced with --smpirun-arg --cfg=smpi/COLL:NAME are named in it.
forced=
for a in $extra; do
    case $a in
    --cfg=smpi/coll-selector:*) ;;
    --cfg=smpi/allgather:* | --cfg=smpi/allgatherv:* | --cfg=smpi/allreduce:* | \
        --cfg=smpi/alltoall:* | --cfg=smpi/alltoallv:* | --cfg=smpi/barrier:* | \
        --cfg=smpi/bcast:* | --cfg=smpi/gather:* | --cfg=smpi/reduce:* | \
        --cfg=smpi/reduce_scatter:* | --cfg=smpi/scatter:*)
        forced="$forced, ${a#--cfg=smpi/}" ;;
    esac
done
INTERCOM_BENCH_LABEL="SimGrid SMPI, $what, p = $np,\
 vendor = SMPI coll-selector $selector$forced"
export INTERCOM_BENCH_LABEL
# shellcheck disable=SC2086 # extra holds separate smpirun arguments
exec smpirun -np "$np" -platform "$xml" \
    -hostfile "$hostfile" \
    --cfg=smpi/simulate-computation:no \
    --cfg=smpi/coll-selector:"$selector" \
    --log=root.thres:critical $extra \
    "$prog" "$@"
