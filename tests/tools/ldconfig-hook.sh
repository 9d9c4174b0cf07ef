#!/bin/sh
# ldconfig-hook.sh -- the decisions of scripts/ldconfig-hook.sh, the hook
# `make install` runs: ldconfig runs exactly when root installs, without
# DESTDIR, into a directory the dynamic linker searches (read from
# ldconfig's own listing, symbolic links resolved).  A fake ldconfig
# records its calls; nothing on the system changes.
set -u
hook=${IC_SRCDIR:-${srcdir:-.}}/scripts/ldconfig-hook.sh
[ -f "$hook" ] || { echo "no $hook"; exit 99; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ic-hook.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
status=0
fail() {
    echo "FAIL: $*"
    status=1
}

mkdir -p "$work/usr/local/lib" "$work/usr/lib" "$work/opt/ic/lib" "$work/home/lib"
ln -s usr/lib "$work/lib" # merged /usr: ldconfig lists /lib for /usr/lib
cat >"$work/ldconfig" <<FAKE
#!/bin/sh
if [ "\${1:-}" = -v ]; then
    echo "$work/usr/local/lib: (from /etc/ld.so.conf.d/libc.conf:2)"
    echo "	libfoo.so.1 -> libfoo.so.1.0"
    echo "$work/lib: (from <builtin>:0)"
    exit 0
fi
echo "ldconfig \$*" >>"$work/calls"
FAKE
chmod +x "$work/ldconfig"

# case LIBDIR UID DESTDIR EXPECTED-CALLS
case_() {
    rm -f "$work/calls"
    out=$(DESTDIR=$3 IC_UID=$2 IC_LDCONFIG=$work/ldconfig sh "$hook" "$1")
    rc=$?
    [ $rc -eq 0 ] || fail "hook $1 uid $2 DESTDIR '$3': exit status $rc"
    calls=0
    [ -f "$work/calls" ] && calls=$(wc -l <"$work/calls")
    [ "$calls" -eq "$4" ] || fail "hook $1 uid $2 DESTDIR '$3': ldconfig ran $calls times, expected $4 ($out)"
    echo "$out"
}

o=$(case_ "$work/usr/local/lib" 0 "" 1)
echo "$o" | grep -q "running" || fail "root, searched: no word of running ldconfig: $o"
case_ "$work/usr/lib" 0 "" 1 >/dev/null # reached through the /lib link
case_ "$work/usr/local/lib/" 0 "" 1 >/dev/null # trailing slash
o=$(case_ "$work/usr/local/lib" 1000 "" 0)
echo "$o" | grep -q "run ldconfig as root" || fail "not root, searched: no advice: $o"
case_ "$work/usr/local/lib" 0 "$work/stage" 0 >/dev/null
o=$(case_ "$work/opt/ic/lib" 0 "" 0)
echo "$o" | grep -q "rpath" || fail "not searched: no word of rpath: $o"
case_ "$work/home/lib" 1000 "" 0 >/dev/null
sh "$hook" >/dev/null 2>&1
[ $? -eq 2 ] || fail "no LIBDIR: not a usage error"

# The Makefile runs the hook after installing and uninstalling.
mk=${IC_SRCDIR:-${srcdir:-.}}/Makefile.am
grep -A1 '^install-exec-hook:' "$mk" | grep -q 'ldconfig-hook.sh' || fail "install-exec-hook does not run the hook"
exit $status
