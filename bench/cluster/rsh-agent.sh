#!/bin/sh
# rsh/ssh stand-in used by emulate.sh as Open MPI's plm_rsh_agent.
#
# Open MPI calls it like ssh: `rsh-agent.sh [options] HOST COMMAND...`. Instead of
# logging in somewhere, it runs COMMAND (an orted launch line) inside the network
# namespace named HOST, in a private UTS namespace whose hostname is HOST, so that
# every emulated host looks like a separate machine to Open MPI (session
# directories, PMIx rendezvous and node names are keyed on the hostname).
#
# HOST may also be given as user@HOST or as the host's 10.77.0.X address.

# ssh-style options that take an argument; any other leading '-x' style option
# is skipped on its own.
while [ $# -gt 0 ]; do
    case "$1" in
        -b|-c|-e|-F|-i|-l|-o|-p|-E|-D|-L|-R|-S|-W) shift 2 ;;
        -*) shift ;;
        *) break ;;
    esac
done
if [ $# -lt 2 ]; then
    echo "rsh-agent.sh: usage: rsh-agent.sh [options] HOST COMMAND..." >&2
    exit 255
fi

host=${1#*@}
shift

case "$host" in
    icn-h[0-9]*) ns=$host ;;
    10.77.0.*)
        idx=${host#10.77.0.}
        ns="icn-h$((idx - 1))"
        ;;
    *)
        echo "rsh-agent.sh: $host is not an emulated host (icn-hN)" >&2
        exit 255
        ;;
esac

if ! ip netns list | grep -q "^$ns\\b"; then
    echo "rsh-agent.sh: network namespace $ns does not exist" >&2
    exit 255
fi

# Like ssh, join the remaining words into one command line for the remote shell.
exec ip netns exec "$ns" unshare --uts /bin/sh -c "hostname $ns && $*"
