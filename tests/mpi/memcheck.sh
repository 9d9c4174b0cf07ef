#!/bin/sh
# memcheck.sh -- InterCom under valgrind: tests/mpi/comms (communicators
# created, used by every collective and freed; contexts left for
# MPI_Finalize), tests/mpi/nonblocking (nonblocking and persistent calls
# in flight, communicators freed under them, requests freed) and
# tests/mpi/again (repeated calls kept, compiled and dropped) at p = 2,
# every rank under memcheck.
#
# Fails on a leak (definitely or indirectly lost) or an invalid read, write
# or free whose stack has an InterCom frame (ic_*, IC_*, libintercom).  The
# MPI library's own allocations (MPI_Init, progress threads, ...) are
# suppressed by memcheck.supp and otherwise ignored: Open MPI and MPICH do
# not free everything at MPI_Finalize.  Skipped without valgrind and in
# AddressSanitizer builds (the two do not run together).
#
# Run by `make check` through run-mpi.sh (from the top build directory);
# by hand: sh tests/mpi/memcheck.sh from there.

top=$(pwd)
srcdir=${srcdir:-.}
prog=tests/mpi/comms

if ! command -v valgrind >/dev/null 2>&1; then
    echo "valgrind not found: memcheck skipped"
    exit 77
fi
real=$top/tests/mpi/.libs/comms
[ -x "$real" ] || real=$top/$prog
if ldd "$real" 2>/dev/null | grep -q 'libasan'; then
    echo "AddressSanitizer build: memcheck skipped"
    exit 77
fi

for prog in tests/mpi/comms tests/mpi/nonblocking tests/mpi/again; do
    logs=$(mktemp -d "${TMPDIR:-/tmp}/ic-memcheck.XXXXXX") || exit 1
    trap 'rm -rf "$logs"' EXIT INT TERM
    IC_TEST_COMMS_LOOP=${IC_TEST_COMMS_LOOP:-12} \
        "${SHELL:-/bin/sh}" "$top/tests/mpi/run-mpi.sh" --np 2 \
        "$top/libtool" --mode=execute valgrind -q --leak-check=full \
        --show-leak-kinds=definite,indirect --errors-for-leak-kinds=none \
        --num-callers=40 --suppressions="$srcdir/tests/mpi/memcheck.supp" \
        --log-file="$logs/vg.%p.log" "$top/$prog"
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL: $prog under valgrind exited with status $rc"
        cat "$logs"/vg.*.log 2>/dev/null | head -100
        exit 1
    fi

    # One valgrind record per paragraph of "==PID== " lines.
    awk '
        { sub(/^==[0-9]+== ?/, "") }
        /^$/ { flush(); next }
        { rec = rec $0 "\n" }
        function flush() {
            if (rec ~ /(definitely|indirectly) lost in loss record|Invalid (read|write|free)|Mismatched free/ &&
                rec ~ /(at|by) 0x[0-9A-Fa-f]+: (ic_|IC_)|libintercom/) {
                printf "%s\n", rec
                bad++
            }
            rec = ""
        }
        END { flush(); if (bad) { printf "FAIL: %d valgrind record(s) in InterCom code\n", bad; exit 1 } }
    ' "$logs"/vg.*.log || exit 1
    n=$(ls "$logs"/vg.*.log 2>/dev/null | wc -l)
    if [ "$n" -lt 2 ]; then
        echo "FAIL: expected a valgrind log per rank, found $n"
        exit 1
    fi
    echo "PASS: $prog at p = 2 under valgrind: no leak or invalid access in InterCom code"
    rm -rf "$logs"
done
exit 0
