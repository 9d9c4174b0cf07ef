#!/bin/sh
# exports.sh -- the shared libraries export their interfaces and nothing
# else (nm -D --defined-only; Makefile.am and src/interpose/Makefile.inc
# say why):
#   libintercom.so        IC_ only: the public API of intercom.h, every
#                         function it declares (the large-count _c ones
#                         where the MPI has them: all or none);
#   libintercom-pmpi.so   the intercepted MPI_ functions, their Fortran
#                         mpi_ names, and the same IC_ API.
# The internal ic_ functions must stay inside.  Skipped without shared
# libraries (--disable-shared, SimGrid SMPI) or without nm.  Run from the
# top of the build tree (make check).
set -u
src=${IC_SRCDIR:-${srcdir:-.}}
header=$src/include/intercom.h
[ -f "$header" ] || { echo "no $header"; exit 99; }
command -v nm >/dev/null 2>&1 || { echo "no nm: skipped"; exit 77; }
lib=.libs/libintercom.so
pmpi=.libs/libintercom-pmpi.so
[ -f "$lib" ] || { echo "no shared $lib (--disable-shared?): skipped"; exit 77; }
status=0
fail() {
    echo "FAIL: $*"
    status=1
}

# The defined dynamic symbols of library $1, one a line, without versions.
exported() {
    nm -D --defined-only "$1" | awk 'NF >= 3 { sub(/@.*/, "", $3); print $3 }' | sort -u
}

# check LIB ALLOWED-REGEX: every exported symbol matches.
check() {
    syms=$(exported "$1") || {
        fail "nm -D $1"
        return
    }
    [ -n "$syms" ] || fail "$1 exports nothing"
    bad=$(printf '%s\n' "$syms" | grep -Ev "$2")
    if [ -n "$bad" ]; then
        fail "$1 exports $(printf '%s\n' "$bad" | wc -l) symbols outside $2:
$(printf '%s\n' "$bad" | head -20)"
    else
        echo "ok: $1 exports $(printf '%s\n' "$syms" | wc -l) symbols, all matching $2"
    fi
}

# The functions intercom.h declares must all be there.
public() {
    syms=$(exported "$1")
    declared=$(grep -oE '\<IC_[A-Za-z0-9_]+ *\(' "$header" | tr -d ' (' | sort -u)
    ncount=$(printf '%s\n' "$syms" | grep -c '^IC_.*_c$')
    missing=
    for f in $declared; do
        case $f in
        *_c) [ "$ncount" -gt 0 ] || continue ;; # MPI-3: no large-count calls
        esac
        printf '%s\n' "$syms" | grep -qx "$f" || missing="$missing $f"
    done
    [ -z "$missing" ] || fail "$1 lacks functions of intercom.h:$missing"
}

check "$lib" '^IC_'
public "$lib"
if [ -f "$pmpi" ]; then
    check "$pmpi" '^(MPIX?_|mpix?_|IC_)'
    public "$pmpi"
    printf '%s\n' "$(exported "$pmpi")" | grep -qx MPI_Bcast || fail "$pmpi lacks MPI_Bcast"
fi
exit $status
