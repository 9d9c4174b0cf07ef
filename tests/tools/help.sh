#!/bin/sh
# help.sh -- every installed program (IC_PROGRAMS, from the Makefile's
# bin_PROGRAMS) answers --help on standard output with exit status 0,
# describes every command and option it lists, answers --version, and has
# a man page generated beside it that carries every option of the help.
# Run from the top of the build tree (make check).
set -u
: "${IC_PROGRAMS:?run through make check (IC_PROGRAMS: the installed programs)}"

work=$(mktemp -d "${TMPDIR:-/tmp}/ic-help.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
export ASAN_OPTIONS
status=0
fail() {
    echo "FAIL: $*"
    status=1
}

for prog in $IC_PROGRAMS; do
    prog=./$prog
    [ -x "$prog" ] || { fail "$prog not built"; continue; }
    name=$(basename "$prog")
    "$prog" --help >"$work/out" 2>"$work/err"
    rc=$?
    [ $rc -eq 0 ] || fail "$name --help: exit status $rc"
    [ -s "$work/err" ] && fail "$name --help wrote on stderr: $(head -n 3 "$work/err")"
    head -n 1 "$work/out" | grep -q "^$name -- ." || fail "$name --help: no '$name -- summary' first line"
    grep -q '^usage: ' "$work/out" || fail "$name --help: no usage line"
    # Every item "  LEFT  text" has a description: text on its line or on
    # the next, deeper indented one.
    awk 'pending { if ($0 !~ /^                             [^ ]/) { print pending; bad = 1 } pending = "" }
         /^  [^ ]/ { line = substr($0, 3); if (!match(line, /  +[^ ]/)) pending = $0 }
         END { if (pending != "") { print pending; bad = 1 } exit bad }' "$work/out" >"$work/bare" ||
        fail "$name --help: items without a description: $(cat "$work/bare")"
    nopt=$(grep -c '^  -' "$work/out")
    [ "$nopt" -ge 3 ] || fail "$name --help lists $nopt options"
    for h in -h help; do
        "$prog" $h >"$work/out2" 2>/dev/null || fail "$name $h: exit status $?"
        cmp -s "$work/out" "$work/out2" || fail "$name $h differs from --help"
    done
    "$prog" --version >"$work/ver" 2>&1 || fail "$name --version: exit status $?"
    grep -Eq "^$name \(InterCom\) [0-9]" "$work/ver" || fail "$name --version: $(cat "$work/ver")"

    man=$prog.1
    if [ ! -s "$man" ]; then
        fail "no man page $man"
        continue
    fi
    grep -q "^\.TH " "$man" || fail "$man: no .TH line"
    for s in NAME SYNOPSIS; do
        grep -q "^\.SH $s\$" "$man" || fail "$man: no $s section"
    done
    # every option of the help is in the man page (troff escapes '-' as '\-')
    for o in $(grep -o '^  --*[a-z0-9][a-z0-9-]*' "$work/out"); do
        e=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
        grep -q "^\.B $e\( \|,\|\$\)" "$man" || fail "$man: option $o missing"
    done
done

# A usage error is exit status 2 with a message on stderr (intercom-info:
# no MPI; intercom-bench would need a launcher).
if [ -x intercom-info ]; then
    ./intercom-info --no-such-option >"$work/out" 2>"$work/err"
    rc=$?
    [ $rc -eq 2 ] || fail "intercom-info --no-such-option: exit status $rc, expected 2"
    grep -q -- "--help" "$work/err" || fail "intercom-info's usage error does not point to --help"
    ./intercom-info choose -p 4 --beta-x 2e-8 --x-min 1024 --noncommutative >"$work/out" 2>&1 ||
        fail "intercom-info choose with the documented options: exit status $?"
    ./intercom-info list --alpha 1 >/dev/null 2>&1
    [ $? -eq 2 ] || fail "intercom-info list accepted an option of choose"
fi
[ $status -eq 0 ] && echo "help, version and man page of: $IC_PROGRAMS"
exit $status
