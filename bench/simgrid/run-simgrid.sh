#!/bin/sh
# run-simgrid.sh -- run intercom-bench under SimGrid SMPI on the 16 x 32
# Paragon platform (paragon-16x32.xml, hosts node-0 .. node-511).
#
#   bench/simgrid/run-simgrid.sh [--np P] [--selector SEL] [--build DIR]
#                                [--hostfile FILE] [--smpirun-arg ARG]...
#                                -- SUBCOMMAND [ARGS...]
#
#   --np P          ranks (default 512, at most 512), one per node, in host
#                   order (node-0, node-1, ...: row-major on the torus)
#   --hostfile FILE the hosts of the ranks, one per line, rank i on line i+1
#                   (default paragon-16x32.hosts); e.g. node-0, node-32, ...,
#                   node-480 with --np 16 puts the ranks on one torus column
#   --selector SEL  SMPI's collective selector, the vendor baseline the
#                   MPI_ calls use: ompi (Open MPI's decision logic, default),
#                   mpich, or default (SMPI's own)
#   --build DIR     the SMPI build tree (default: $IC_SMPI_BUILD or
#                   ./build-smpi); intercom-bench is DIR/bench/intercom-bench
#
# The build: in its own directory,
#   SMPI_PRETEND_CC=1 /path/to/configure CC=smpicc LD=ld --disable-shared --without-hwloc
#   make
# Simulated times are deterministic (computation is not simulated:
# smpi/simulate-computation:no), so few repetitions suffice, e.g.
#   bench/simgrid/run-simgrid.sh --np 512 -- coll --table2 --reps 3 --warmup 1
set -eu

here=$(cd "$(dirname "$0")" && pwd -P)
np=512
selector=ompi
build=${IC_SMPI_BUILD:-./build-smpi}
hostfile=$here/paragon-16x32.hosts
extra=

usage() {
    sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
    case $1 in
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
case $np in
'' | *[!0-9]*) echo "run-simgrid.sh: --np must be a number" >&2; exit 2 ;;
esac
if [ "$np" -lt 1 ] || [ "$np" -gt 512 ]; then
    echo "run-simgrid.sh: --np must be 1..512 (the platform has 512 nodes)" >&2
    exit 2
fi
case $selector in
ompi | mpich | default) ;;
*) echo "run-simgrid.sh: --selector must be ompi, mpich or default" >&2; exit 2 ;;
esac
[ -r "$hostfile" ] || { echo "run-simgrid.sh: cannot read hostfile '$hostfile'" >&2; exit 2; }
nhosts=$(grep -c . "$hostfile") || nhosts=0
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
# (so the benchmark's own arguments must not contain any).
INTERCOM_BENCH_LABEL="SimGrid SMPI, 16 x 32 Paragon torus (175 MB/s, 50 us), p = $np,\
 vendor = SMPI coll-selector $selector"
export INTERCOM_BENCH_LABEL
# shellcheck disable=SC2086 # extra holds separate smpirun arguments
exec smpirun -np "$np" -platform "$here/paragon-16x32.xml" \
    -hostfile "$hostfile" \
    --cfg=smpi/simulate-computation:no \
    --cfg=smpi/coll-selector:"$selector" \
    --log=root.thres:critical $extra \
    "$prog" "$@"
