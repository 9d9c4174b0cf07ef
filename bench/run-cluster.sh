#!/bin/bash
# run-cluster.sh -- run intercom-bench on the emulated cluster of
# bench/cluster/emulate.sh (bench/cluster/README.md): it sets the cluster
# up, runs the benchmark as a multi-host Open MPI job over shaped TCP links,
# and always tears the cluster down (normal end, failure, Ctrl-C, SIGTERM:
# emulate.sh's trap does it; this script only adds the benchmark's path).
#
#   sudo bench/run-cluster.sh [--hosts N] [--rate R] [--ppn K] [--build DIR]
#                             [--wait S] [--netpipe] [-- SUBCOMMAND [ARGS...]]
#
#   --hosts N    emulated hosts (default 8), one rank per host unless --ppn
#   --rate R     link rate of every host, each direction (default 100mbit)
#   --queue T    tbf queue limit of every link as a delay (emulate.sh --queue)
#   --ppn K      ranks per host
#   --build DIR  build tree holding bench/intercom-bench (default:
#                $IC_BUILD, else the directory this script was run from)
#   --wait S     wait up to S seconds for another emulated-cluster run to end
#                (emulate.sh allows one at a time; default 0: fail at once)
#   --netpipe    run NetPIPE's NPmpi (netpipe-openmpi) between two hosts
#                instead of intercom-bench, on the same kind of links, for
#                comparison with `intercom-bench pingpong`
# Everything after -- goes to intercom-bench (default: pingpong).
#
# Examples:
#   sudo bench/run-cluster.sh --hosts 2 -- pingpong --max 8M
#   sudo bench/run-cluster.sh --hosts 2 --netpipe
#   sudo bench/run-cluster.sh --hosts 8 -- coll --ops bcast,allreduce --sizes 8,64K,4M
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd -P)
hosts=8
rate=100mbit
queue=
ppn=1
build=${IC_BUILD:-$PWD}
wait_s=0
netpipe=0
args=()

usage() {
    sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
    case $1 in
    --hosts) hosts=${2:?}; shift 2 ;;
    --rate) rate=${2:?}; shift 2 ;;
    --queue) queue=${2:?}; shift 2 ;;
    --ppn) ppn=${2:?}; shift 2 ;;
    --build) build=${2:?}; shift 2 ;;
    --wait) wait_s=${2:?}; shift 2 ;;
    --netpipe) netpipe=1; shift ;;
    -h | --help) usage; exit 0 ;;
    --) shift; args=("$@"); break ;;
    *) usage >&2; echo "run-cluster.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
[[ $wait_s =~ ^[0-9]+$ ]] || { echo "run-cluster.sh: --wait needs seconds" >&2; exit 2; }

if [ "$netpipe" -eq 1 ]; then
    np=
    for c in NPmpi NPopenmpi; do
        if command -v "$c" >/dev/null 2>&1; then
            np=$(command -v "$c")
            break
        fi
    done
    [ -n "$np" ] || { echo "run-cluster.sh: NetPIPE (NPmpi/NPopenmpi) not found" >&2; exit 2; }
    # NetPIPE writes np.out in its working directory: keep it out of the tree.
    outdir=$(mktemp -d)
    trap 'rm -rf "$outdir"' EXIT
    cd "$outdir"
    cmd=("$np" "${args[@]}")
    hosts=2
    ppn=1
else
    prog=$build/bench/intercom-bench
    [ -x "$prog" ] || {
        echo "run-cluster.sh: $prog not found (give --build DIR or set IC_BUILD)" >&2
        exit 2
    }
    [ ${#args[@]} -gt 0 ] || args=(pingpong)
    sub=${args[0]}
    cmd=("$prog" "$sub"
        --label "emulated cluster: $hosts hosts x $ppn ranks, $rate links" "${args[@]:1}")
fi

# One emulated cluster at a time: optionally wait for the lock emulate.sh
# takes, then let it take the lock itself.
lock=/run/lock/intercom-emulate.lock
if [ "$wait_s" -gt 0 ] && [ -e "$lock" ]; then
    flock -w "$wait_s" "$lock" true ||
        { echo "run-cluster.sh: the emulated cluster stayed busy for $wait_s s" >&2; exit 2; }
fi

# emulate.sh runs the command under mpirun and removes everything it made
# when it exits for any reason (its trap).  It runs as our child: a Ctrl-C
# or SIGTERM sent to this script is passed on to it as SIGTERM, and we wait
# until it has torn the cluster down.
status=0
qopt=()
[ -z "$queue" ] || qopt=(--queue "$queue")
"$here/cluster/emulate.sh" --hosts "$hosts" --rate "$rate" "${qopt[@]}" --ppn "$ppn" -- \
    "${cmd[@]}" &
child=$!
trap 'kill -TERM "$child" 2>/dev/null || true' INT TERM HUP
wait "$child" || status=$?
while kill -0 "$child" 2>/dev/null; do # a signal interrupted wait: the clean-up runs
    wait "$child" || status=$?
done
trap - INT TERM HUP
if [ "$netpipe" -eq 1 ] && [ -s "$outdir/np.out" ]; then
    echo "# NetPIPE np.out: bytes, Mbps (2^20 bit/s), one-way seconds"
    cat "$outdir/np.out"
    # The plateau in intercom-bench's unit (r_inf, MB/s = 1e6 B/s): the
    # median rate of the messages of 1 MiB and more.
    awk '$1 >= 1048576 && $3 > 0 { print $1 / $3 / 1e6 }' "$outdir/np.out" | sort -g |
        awk '{ r[++n] = $1 }
            END { if (n) { m = n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
                  printf "# NetPIPE plateau: %.4g MB/s (median of %d messages >= 1 MiB)\n", m, n } }'
fi
exit "$status"
