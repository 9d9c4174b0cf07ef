#!/bin/sh
# ldconfig-hook.sh -- run by `make install` and `make uninstall`: refresh the
# dynamic linker's cache when InterCom's libraries went into (or left) a
# directory the dynamic linker searches, as root, so that programs linked
# with `pkg-config --libs intercom`, the LD_PRELOAD of libintercom-pmpi and
# the installed intercom-bench find libintercom.so.0 at once.
#
#   scripts/ldconfig-hook.sh LIBDIR
#
# What it does:
#   DESTDIR set (a staged install, e.g. for a package)  nothing: the
#                                             package's own hook runs ldconfig
#   root, LIBDIR searched by the dynamic linker         runs ldconfig
#   not root, LIBDIR searched                            says to run ldconfig
#                                                        as root
#   LIBDIR not searched (e.g. --prefix=$HOME/ic)         says how to find the
#                                                        library (rpath or
#                                                        LD_LIBRARY_PATH)
# It never fails the install (exit status 0), except 2 for a usage error.
#
# For its test (tests/tools/ldconfig-hook.sh) the environment can replace
# what it asks the system: IC_LDCONFIG (the ldconfig command),
# IC_LDCONFIG_DIRS (the searched directories, blank-separated), IC_UID (the
# user id).
set -u

[ $# -eq 1 ] && [ -n "$1" ] || {
    echo "usage: ldconfig-hook.sh LIBDIR" >&2
    exit 2
}
libdir=$1
say() { echo "ldconfig-hook: $*"; }

if [ -n "${DESTDIR:-}" ]; then
    exit 0
fi

ldconfig=${IC_LDCONFIG:-}
if [ -z "$ldconfig" ]; then
    for d in /sbin /usr/sbin /bin /usr/bin; do
        if [ -x "$d/ldconfig" ]; then
            ldconfig=$d/ldconfig
            break
        fi
    done
fi
if [ -z "$ldconfig" ]; then
    command -v ldconfig >/dev/null 2>&1 && ldconfig=ldconfig
fi
[ -n "$ldconfig" ] || exit 0 # no dynamic linker cache on this system

# Directories the dynamic linker searches: ldconfig's own list (the
# configured ones and the built-in ones), "DIR: (from ...)" lines.
if [ -n "${IC_LDCONFIG_DIRS+set}" ]; then
    dirs=$IC_LDCONFIG_DIRS
else
    dirs=$("$ldconfig" -v -N -X 2>/dev/null | sed -n 's/^\(\/[^ 	]*\):.*$/\1/p')
fi

canon() { (cd "$1" 2>/dev/null && pwd -P) || echo "$1"; }
want=$(canon "$libdir")
searched=no
for d in $dirs; do
    if [ "$(canon "$d")" = "$want" ]; then
        searched=yes
        break
    fi
done

uid=${IC_UID:-$(id -u)}
if [ "$searched" = yes ]; then
    if [ "$uid" -eq 0 ]; then
        say "running $ldconfig ($libdir is searched by the dynamic linker)"
        "$ldconfig" || say "ldconfig failed: run it by hand"
    else
        say "$libdir is searched by the dynamic linker: run ldconfig as root so that" \
            "programs find libintercom"
    fi
else
    say "$libdir is not searched by the dynamic linker: link with" \
        "-Wl,-rpath,$libdir or run with LD_LIBRARY_PATH=$libdir"
fi
exit 0
