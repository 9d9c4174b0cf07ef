#!/bin/bash
# emulate.sh: run an Open MPI job on an emulated cluster of N hosts on one machine.
#
# Each host is a network namespace icn-hI (I = 0..N-1) with address 10.77.0.(I+1)/24
# on eth0, a veth whose other end icvI sits in the bridge icbr0 (10.77.0.254/24).
# Both directions of every host link are shaped with tbf to --rate, which models a
# contention-free switch with full-duplex ports of that rate (no added latency:
# netem is not available). mpirun runs in the root namespace, reaches the hosts
# through the bridge and starts one orted per host through rsh-agent.sh, so every
# host is a real Open MPI node and all MPI traffic goes over TCP through the shaped
# links. Everything made here is removed on exit, failure, Ctrl-C or SIGTERM.
#
# Usage: see `emulate.sh --help` and bench/cluster/README.md.

set -Eeuo pipefail

readonly PROG=${0##*/}
readonly NS_PREFIX=icn-h
readonly VETH_PREFIX=icv
readonly BRIDGE=icbr0
readonly NET=10.77.0
readonly BRIDGE_ADDR=$NET.254
readonly HOSTS_TAG="# intercom-emulate"
readonly STATE_DIR=/run/intercom-emulate
readonly LOCK_FILE=/run/lock/intercom-emulate.lock

SCRIPT_DIR=$(cd "$(dirname "$0")" && pwd -P)
readonly SCRIPT_DIR

nhosts=4
rate=100mbit
burst=32kb
tbf_latency=200ms
ppn=1
map_by=node
attempts=3
verbose=0
extra_mpirun=()
cmd=()

mpirun_pid=
tee_pid=
made_anything=0
agent=
mpirun_cmd=()

usage() {
    cat <<EOF
Usage:
  $PROG [options] -- COMMAND [ARGS...]   set up the cluster, run COMMAND under mpirun
  $PROG cleanup                          remove leftovers of a killed run

Options:
  --hosts N         number of emulated hosts (1..253, default $nhosts)
  --rate R          tbf rate of every host link, each direction (default $rate);
                    any tc rate (100mbit, 1gbit, 12500kbps); 'none' disables shaping
  --burst B         tbf bucket size (default $burst)
  --queue T         tbf queue limit as a delay (default $tbf_latency): how long a
                    packet may wait in a link's queue
  --ppn K           MPI ranks per host (default $ppn); -np is hosts * K
  --map-by P        mpirun --map-by policy (default $map_by; 'slot' puts
                    consecutive ranks on the same host)
  --attempts A      launch attempts when Open MPI fails to start (default $attempts)
  --mpirun-arg ARG  pass ARG to mpirun (repeatable), e.g. --mpirun-arg=--tag-output
  -v, --verbose     print the setup commands and the mpirun line
  -h, --help        this text

Must run as root. Uses namespaces ${NS_PREFIX}0.., veths ${VETH_PREFIX}0.., bridge $BRIDGE,
addresses $NET.0/24, /etc/hosts lines tagged '$HOSTS_TAG', lock $LOCK_FILE.
EOF
}

log() {
    echo "$PROG: $*" >&2
}

die() {
    log "error: $*"
    exit 2
}

run() {
    if [ "$verbose" -eq 1 ]; then
        echo "+ $*" >&2
    fi
    "$@"
}

# ---------------------------------------------------------------------------
# teardown

# Send a signal to the processes that still run inside our namespaces.
kill_ns_processes() {
    local sig=$1 ns pids
    for ns in $(list_namespaces); do
        pids=$(ip netns pids "$ns" 2>/dev/null || true)
        if [ -n "$pids" ]; then
            # shellcheck disable=SC2086 # one pid per word
            kill "-$sig" $pids 2>/dev/null || true
        fi
    done
}

list_namespaces() {
    ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^${NS_PREFIX}[0-9]+$" || true
}

list_veths() {
    ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | sed 's/@.*//' |
        grep -E "^${VETH_PREFIX}[0-9]+(p)?$" || true
}

ns_processes_left() {
    local ns
    for ns in $(list_namespaces); do
        if [ -n "$(ip netns pids "$ns" 2>/dev/null || true)" ]; then
            return 0
        fi
    done
    return 1
}

# mpirun and tee of a run that was killed with SIGKILL survive it; the pids are
# recorded in the state directory. Only processes that still run the expected
# program are signalled.
kill_orphans() {
    local pid pids=()
    [ -r "$STATE_DIR/children.pid" ] || return 0
    read -r -a pids <"$STATE_DIR/children.pid" || true
    for pid in "${pids[@]}"; do
        case "$(cat "/proc/$pid/comm" 2>/dev/null || true)" in
            mpirun | orterun | tee) kill -KILL "$pid" 2>/dev/null || true ;;
        esac
    done
}

# Remove everything this tool can have made. Safe to call any number of times.
teardown() {
    local i ns link tmp
    kill_orphans
    kill_ns_processes TERM
    for i in 1 2 3 4 5 6 7 8 9 10; do
        ns_processes_left || break
        sleep 0.2
    done
    kill_ns_processes KILL
    for ns in $(list_namespaces); do
        ip netns delete "$ns" 2>/dev/null || log "warning: could not delete namespace $ns"
    done
    for link in $(list_veths); do
        ip link delete "$link" 2>/dev/null || true
    done
    if ip link show "$BRIDGE" >/dev/null 2>&1; then
        ip link delete "$BRIDGE" type bridge 2>/dev/null ||
            log "warning: could not delete bridge $BRIDGE"
    fi
    if grep -qF "$HOSTS_TAG" /etc/hosts 2>/dev/null; then
        # Rewrite in place: /etc/hosts may be a bind mount that cannot be replaced.
        tmp=$(mktemp)
        grep -vF "$HOSTS_TAG" /etc/hosts >"$tmp" || true
        cat "$tmp" >/etc/hosts
        rm -f "$tmp"
    fi
    rm -rf "$STATE_DIR"
}

stop_mpirun() {
    local i
    if [ -n "$mpirun_pid" ] && kill -0 "$mpirun_pid" 2>/dev/null; then
        kill -TERM "$mpirun_pid" 2>/dev/null || true
        for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
            kill -0 "$mpirun_pid" 2>/dev/null || break
            sleep 0.2
        done
        kill -KILL "$mpirun_pid" 2>/dev/null || true
        wait "$mpirun_pid" 2>/dev/null || true
    fi
    mpirun_pid=
    if [ -n "$tee_pid" ]; then
        kill -TERM "$tee_pid" 2>/dev/null || true
        wait "$tee_pid" 2>/dev/null || true
    fi
    tee_pid=
}

on_exit() {
    local rc=$?
    trap '' INT TERM
    set +e
    stop_mpirun
    if [ "$made_anything" -eq 1 ]; then
        teardown
        if [ -n "$(list_namespaces)" ] || ip link show "$BRIDGE" >/dev/null 2>&1; then
            log "warning: leftovers remain; run '$PROG cleanup'"
        fi
    fi
    exit "$rc"
}

# Take the lock; $1 is the number of seconds to wait for it.
take_lock() {
    mkdir -p "$(dirname "$LOCK_FILE")"
    exec 9>"$LOCK_FILE"
    if ! flock -w "$1" 9; then
        die "another emulate.sh run holds $LOCK_FILE"
    fi
}

# True if the run recorded in the state directory is still alive.
owner_alive() {
    local pid
    pid=$(cat "$STATE_DIR/owner.pid" 2>/dev/null || true)
    [ -n "$pid" ] && [ "$pid" != "$$" ] && kill -0 "$pid" 2>/dev/null &&
        grep -q emulate "/proc/$pid/cmdline" 2>/dev/null
}

# ---------------------------------------------------------------------------
# setup

shape() {
    # shape NS_ARGS... DEV: NS_ARGS is empty for the root namespace or '-n NS'.
    if [ "$rate" = none ]; then
        return 0
    fi
    run tc "$@" root tbf rate "$rate" burst "$burst" latency "$tbf_latency"
}

setup() {
    local i ns veth addr
    made_anything=1
    mkdir -p "$STATE_DIR"
    echo "$$" >"$STATE_DIR/owner.pid"
    run ip link add "$BRIDGE" type bridge
    run ip addr add "$BRIDGE_ADDR/24" dev "$BRIDGE"
    run ip link set "$BRIDGE" up
    : >"$STATE_DIR/hostfile"
    for ((i = 0; i < nhosts; i++)); do
        ns=$NS_PREFIX$i
        veth=$VETH_PREFIX$i
        addr=$NET.$((i + 1))
        run ip netns add "$ns"
        run ip link add "$veth" type veth peer name "${veth}p"
        run ip link set "${veth}p" netns "$ns"
        run ip -n "$ns" link set "${veth}p" name eth0
        run ip -n "$ns" addr add "$addr/24" dev eth0
        run ip -n "$ns" link set lo up
        run ip -n "$ns" link set eth0 up
        run ip link set "$veth" master "$BRIDGE"
        run ip link set "$veth" up
        # host -> switch inside the namespace, switch -> host on the bridge port
        shape -n "$ns" qdisc add dev eth0
        shape qdisc add dev "$veth"
        printf '%s %s %s\n' "$addr" "$ns" "$HOSTS_TAG" >>/etc/hosts
        printf '%s slots=%d\n' "$ns" "$ppn" >>"$STATE_DIR/hostfile"
    done
    # The agent path must not contain ':' (Open MPI splits plm_rsh_agent on it).
    agent=$SCRIPT_DIR/rsh-agent.sh
    case "$agent" in
        *:* | *' '*)
            cp "$SCRIPT_DIR/rsh-agent.sh" "$STATE_DIR/rsh-agent.sh"
            agent=$STATE_DIR/rsh-agent.sh
            ;;
    esac
    [ -x "$agent" ] || die "$agent is not executable"
    wait_for_links
}

# Wait until every host link is up on both ends and its bridge port forwards
# (links come up asynchronously; there is no ping on minimal systems).
wait_for_links() {
    local i try
    for ((i = 0; i < nhosts; i++)); do
        for try in $(seq 1 50); do
            if ip -n "$NS_PREFIX$i" -o link show eth0 | grep -q 'state UP' &&
                bridge link show dev "$VETH_PREFIX$i" | grep -q 'state forwarding'; then
                break
            fi
            [ "$try" -lt 50 ] || die "link of $NS_PREFIX$i does not come up"
            sleep 0.1
        done
    done
}

# ---------------------------------------------------------------------------
# launch

# Messages that mean Open MPI did not get the job started (daemons, out-of-band
# wiring, BTL connection set-up), as opposed to the program failing by itself.
readonly LAUNCH_ERRORS='unable to complete a TCP connection|ORTE was unable to reliably start|'\
'ORTE has lost communication|ORTE does not know how to route|'\
'daemon.*(failed|did not report|unable)|An ORTE daemon has unexpectedly failed|'\
'orted.*(not found|failed)|PMIx.*(failed|unable)|unable to connect to the PMIx|'\
'opal_init failed|orte_init failed|MPI_INIT has failed|OOB_UNREACH|ORTE_ERROR_LOG'
# Messages that mean the ranks ran and one of them exited non-zero or aborted.
readonly PROGRAM_ERRORS='returned a non-zero exit code|exited with non-zero status|'\
'called "abort"|MPI_ABORT was invoked|exited on signal'

launch_once() {
    local errfile=$1 rc
    rm -f "$STATE_DIR/stderr.fifo"
    mkfifo "$STATE_DIR/stderr.fifo"
    # fd 9 is the lock: children must not inherit it, or an orphaned mpirun of a
    # killed run would keep the lock.
    tee "$errfile" <"$STATE_DIR/stderr.fifo" >&2 9>&- &
    tee_pid=$!
    "${mpirun_cmd[@]}" 2>"$STATE_DIR/stderr.fifo" 9>&- &
    mpirun_pid=$!
    echo "$mpirun_pid $tee_pid" >"$STATE_DIR/children.pid"
    rc=0
    wait "$mpirun_pid" || rc=$?
    mpirun_pid=
    wait "$tee_pid" 2>/dev/null || true
    tee_pid=
    return "$rc"
}

is_launch_failure() {
    local errfile=$1
    if grep -qE "$PROGRAM_ERRORS" "$errfile"; then
        # A launch error can be reported as "exited on signal" of orted itself;
        # only the TCP wiring failure is unambiguous in that case.
        grep -q 'unable to complete a TCP connection' "$errfile"
        return
    fi
    grep -qE "$LAUNCH_ERRORS" "$errfile"
}

launch() {
    local attempt rc errfile
    mpirun_cmd=(mpirun
        --allow-run-as-root --oversubscribe
        --hostfile "$STATE_DIR/hostfile"
        -np "$((nhosts * ppn))" --map-by "$map_by" --bind-to none
        --mca plm_rsh_agent "$agent"
        --mca plm_rsh_no_tree_spawn 1
        --mca btl "tcp,self"
        --mca btl_tcp_if_include "$NET.0/24"
        --mca oob_tcp_if_include "$NET.0/24"
        --mca mpi_yield_when_idle 1)
    mpirun_cmd+=("${extra_mpirun[@]}" "${cmd[@]}")
    if [ "$verbose" -eq 1 ]; then
        echo "+ ${mpirun_cmd[*]}" >&2
    fi
    for ((attempt = 1; attempt <= attempts; attempt++)); do
        errfile=$STATE_DIR/stderr.$attempt
        rc=0
        launch_once "$errfile" || rc=$?
        if [ "$rc" -eq 0 ]; then
            log "attempt $attempt of $attempts succeeded ($nhosts hosts, $ppn per host," \
                "rate $rate)"
            return 0
        fi
        if ! is_launch_failure "$errfile"; then
            log "the program failed (mpirun exit $rc) on attempt $attempt; not retrying"
            return "$rc"
        fi
        log "attempt $attempt of $attempts: launch failed (mpirun exit $rc)"
        if [ "$attempt" -lt "$attempts" ]; then
            # Kill stray daemons before trying again on the same hosts.
            kill_ns_processes KILL
            sleep 1
        fi
    done
    log "giving up after $attempts launch attempts"
    return "$rc"
}

# ---------------------------------------------------------------------------
# main

parse_args() {
    while [ $# -gt 0 ]; do
        case "$1" in
            --hosts) nhosts=${2:?}; shift 2 ;;
            --hosts=*) nhosts=${1#*=}; shift ;;
            --rate) rate=${2:?}; shift 2 ;;
            --rate=*) rate=${1#*=}; shift ;;
            --burst) burst=${2:?}; shift 2 ;;
            --queue) tbf_latency=${2:?}; shift 2 ;;
            --queue=*) tbf_latency=${1#*=}; shift ;;
            --burst=*) burst=${1#*=}; shift ;;
            --ppn) ppn=${2:?}; shift 2 ;;
            --ppn=*) ppn=${1#*=}; shift ;;
            --map-by) map_by=${2:?}; shift 2 ;;
            --map-by=*) map_by=${1#*=}; shift ;;
            --attempts) attempts=${2:?}; shift 2 ;;
            --attempts=*) attempts=${1#*=}; shift ;;
            --mpirun-arg) extra_mpirun+=("${2:?}"); shift 2 ;;
            --mpirun-arg=*) extra_mpirun+=("${1#*=}"); shift ;;
            -v | --verbose) verbose=1; shift ;;
            -h | --help) usage; exit 0 ;;
            --) shift; cmd=("$@"); break ;;
            *) usage >&2; die "unknown argument '$1'" ;;
        esac
    done
    if ! [[ $nhosts =~ ^[0-9]+$ ]] || [ "$nhosts" -lt 1 ] || [ "$nhosts" -gt 253 ]; then
        die "--hosts must be 1..253"
    fi
    if ! [[ $ppn =~ ^[0-9]+$ ]] || [ "$ppn" -lt 1 ]; then
        die "--ppn must be a positive integer"
    fi
    if ! [[ $attempts =~ ^[0-9]+$ ]] || [ "$attempts" -lt 1 ]; then
        die "--attempts must be a positive integer"
    fi
    [ ${#cmd[@]} -gt 0 ] || die "no command given (put it after --)"
}

check_requirements() {
    local tool
    [ "$(id -u)" -eq 0 ] || die "must run as root"
    for tool in ip tc bridge mpirun unshare flock mkfifo; do
        command -v "$tool" >/dev/null 2>&1 || die "$tool not found"
    done
    if ip -o addr show | grep -v " $BRIDGE " | grep -qE "inet $NET\\."; then
        die "$NET.0/24 is already in use on this machine"
    fi
}

main() {
    if [ "${1:-}" = cleanup ]; then
        [ "$(id -u)" -eq 0 ] || die "must run as root"
        if owner_alive; then
            die "run $(cat "$STATE_DIR/owner.pid") is still active; stop it first"
        fi
        take_lock 10
        teardown
        log "cleaned up"
        return 0
    fi
    parse_args "$@"
    check_requirements
    take_lock 0
    trap on_exit EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    if [ -n "$(list_namespaces)" ] || [ -n "$(list_veths)" ] ||
        ip link show "$BRIDGE" >/dev/null 2>&1 || grep -qF "$HOSTS_TAG" /etc/hosts; then
        log "removing leftovers of an earlier run"
        made_anything=1
        teardown
    fi
    setup
    launch
}

main "$@"
